/**
 * The orders feature's public face: what other features (finance, the home
 * dashboard) may use of it. Its pages are reached through the page registry.
 */
export {
  getLedger,
  getRefunds,
  useByStation,
  useDashboard,
  useHolderBills,
  useRevenue,
  useSettlement,
  type HolderBill,
  type LedgerEntry,
  type ListDirection,
  type QueueEntry,
  type QueueOrderMoney,
  type Sums,
} from './api/orders';
export { AnomalyBadges } from './components/badges';
export { periodColumn, stationColumn, sumsColumns } from './components/orderColumns';
export { RefundDecisionButtons, RefundDecisionDialog, type RefundDecision } from './components/RefundDecision';
export { trendOption } from './model/financeModel';
