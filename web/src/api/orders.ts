import { get, post } from './request';

/** Charging orders, refunds, finance and the dashboard (shared/backoffice/src/handlers/{orders,finance,dashboard}.rs). */

export type OrderStatus = 'charging' | 'finished' | 'abnormal' | 'cancelled';
export type PaymentStatus = 'unpaid' | 'paid' | 'refunded' | 'partiallyRefunded' | 'writtenOff';
export type OfflineMethod = 'cash' | 'bankTransfer' | 'wechat' | 'alipay' | 'other';

/** An offline payment or write-off recorded by finance on an order. */
export interface Settlement {
  kind: 'offlinePayment' | 'writeOff';
  amountFen: number;
  method: OfflineMethod | null;
  reference: string | null;
  /** Write-off: why; offline payment: an optional note. */
  reason: string | null;
  by: string;
  at: number;
}
export type Tier = 'sharp' | 'peak' | 'flat' | 'valley';
export type RefundStatus = 'pending' | 'approved' | 'rejected';

export interface Anomaly {
  kind: 'neverStopped' | 'zeroEnergy' | 'negativeMeter' | 'missingMeterStop' | 'missingPriceSnapshot' | 'tooLong' | 'stopBeforeStart';
  runningSecs?: number;
  deltaWh?: number;
  durationSecs?: number;
}

/** Money is integer fen, energy integer Wh, times unix seconds. */
export interface OrderRow {
  orderNo: string;
  stationId: string;
  stationName: string;
  pileId: string;
  connectorId: string;
  /** The pile's code as the operator typed it (its label, the charger's identity); empty if the pile is gone. */
  pileCode: string;
  /** The connector's number on its pile. */
  connectorNo: number | null;
  userId: string;
  plate: string;
  startTs: number;
  stopTs: number | null;
  meterStartWh: number;
  meterStopWh: number | null;
  energyWh: number;
  socStart: number;
  socEnd: number | null;
  status: OrderStatus;
  stopReason: string | null;
  occupancyMinutes: number;
  electricityFen: number;
  serviceFen: number;
  parkingFen: number;
  discountFen: number;
  amountFen: number;
  paidFen: number;
  refundedFen: number;
  paymentMethod: string | null;
  paymentStatus: PaymentStatus;
  tariffId: string | null;
  tariffVersion: number | null;
  closedBy: string | null;
  closeReason: string | null;
  /** The OCPP transaction id when a charger reported the session. */
  transactionId?: number | null;
  closedAt: number | null;
  /** Null unless finance recorded an offline payment or a write-off. */
  settlement?: Settlement | null;
  version: number;
  anomalies: Anomaly[];
}

export interface TierLine {
  tier: Tier;
  energyWh: number;
  electricityPrice: number;
  servicePrice: number;
  electricityFen: number;
  serviceFen: number;
}

export interface CurvePoint {
  ts: number;
  powerW: number;
  energyWh: number;
  soc: number;
}

export interface RefundRecord {
  id: string;
  orderNo: string;
  stationId: string;
  amountFen: number;
  reason: string;
  status: RefundStatus;
  requestedBy: string;
  requestedAt: number;
  decidedBy: string | null;
  decidedAt: number | null;
  decisionNote: string | null;
}

export interface OrderDetail extends OrderRow {
  lines: TierLine[];
  curve: CurvePoint[] | null;
  tariff: {
    id: string;
    name: string;
    version: number;
    segments: { start: string; end: string; tier: Tier }[];
    prices: Partial<Record<Tier, { electricity: number; service: number }>>;
    parking: { freeMinutes: number; fenPerMinute: number; capPerSession: number | null } | null;
  } | null;
  refunds: RefundRecord[];
  /** What a new request may still ask: paid - refunded - pending requests. */
  refundableFen: number;
  /** What the pending requests ask together. */
  pendingRefundFen: number;
  durationSecs: number;
}

export interface Sums {
  orders: number;
  energyWh: number;
  electricityFen: number;
  serviceFen: number;
  parkingFen: number;
  discountFen: number;
  amountFen: number;
  paidFen: number;
  refundedFen: number;
  /** Owed amounts written off (neither paid nor still owed). */
  writtenOffFen: number;
  netFen: number;
}

export interface OrderFilter {
  from?: string;
  to?: string;
  stationId?: string;
  status?: OrderStatus | '';
  paymentStatus?: PaymentStatus | '';
  orderNo?: string;
  userId?: string;
  plate?: string;
  anomaly?: 'stuck' | 'flagged' | '';
}

export interface OrderPage {
  list: OrderRow[];
  cursor: string | null;
  /** Only with the first page; null when no rollup covers the filter combination. */
  sums: Sums | null;
  total: number | null;
  from: string;
  to: string;
}

/** Query parameters of a filter, without empty values. */
export function filterParams(f: OrderFilter): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(f)) {
    const s = typeof v === 'string' ? v.trim() : '';
    if (s) out[k] = s;
  }
  return out;
}

/** `oldest`: the list read from its oldest order forward (the pager's last pages). */
export type ListDirection = 'newest' | 'oldest';

export async function getOrderList(f: OrderFilter, pageSize: number, cursor?: string | null, sort: ListDirection = 'newest'): Promise<OrderPage> {
  const params: Record<string, string | number> = { ...filterParams(f), pageSize };
  if (cursor) params.cursor = cursor;
  if (sort === 'oldest') params.sort = sort;
  return (await get<OrderPage>('/order/getList', params)).data;
}

export async function getOrder(id: string): Promise<OrderDetail> {
  return (await get<OrderDetail>('/order/detail', { id })).data;
}

export async function closeOrder(orderNo: string, reason: string): Promise<string> {
  return (await post<OrderRow>('/order/close', { orderNo, reason })).msg;
}

/** `amount` in yuan ("12.34"). */
export async function requestRefund(orderNo: string, amount: string, reason: string): Promise<string> {
  return (await post<RefundRecord>('/order/refund/request', { orderNo, amount, reason })).msg;
}

/** `note` is optional; it is shown with the decision on the order. */
export async function approveRefund(orderNo: string, refundId: string, note = ''): Promise<string> {
  return (await post('/order/refund/approve', { orderNo, refundId, note })).msg;
}

export async function rejectRefund(orderNo: string, refundId: string, note: string): Promise<string> {
  return (await post('/order/refund/approval/reject', { orderNo, refundId, note })).msg;
}

/** Records that what the order owes (`amount`, yuan: the whole amount owed) was received offline. */
export async function recordOfflinePayment(orderNo: string, method: OfflineMethod, reference: string, amount: string, note: string): Promise<string> {
  return (await post<OrderRow>('/order/settle/offlinePayment', { orderNo, method, reference, amount, note })).msg;
}

/** Writes off what the order owes, with a reason. */
export async function writeOffOrder(orderNo: string, reason: string): Promise<string> {
  return (await post<OrderRow>('/order/settle/writeOff', { orderNo, reason })).msg;
}

/** The order's money beside a request in the approval queue. */
export interface QueueOrderMoney {
  paidFen: number;
  refundedFen: number;
  /** All pending requests of the order, this one included. */
  pendingFen: number;
  /** paid - refunded - pending. */
  remainingFen: number;
}

export type QueueEntry = RefundRecord & { order: QueueOrderMoney | null };

export async function getRefunds(
  status: RefundStatus,
  pageSize = 50,
  sort: ListDirection = status === 'pending' ? 'oldest' : 'newest',
  cursor?: string | null,
): Promise<{ list: QueueEntry[]; cursor: string | null }> {
  return (await get<{ list: QueueEntry[]; cursor: string | null }>('/order/refund/getList', { status, pageSize, sort, cursor: cursor ?? undefined })).data;
}

export type PeriodRow = Sums & { period: string };
export type StationRow = Sums & { stationId: string; stationName: string };

export async function getRevenue(granularity: 'day' | 'month', from: string, to: string, stationId?: string) {
  const params: Record<string, string> = { granularity, from, to };
  if (stationId) params.stationId = stationId;
  return (await get<{ list: PeriodRow[]; total: Sums }>('/money/revenue', params)).data;
}

export async function getByStation(from: string, to: string) {
  return (await get<{ list: StationRow[]; total: Sums }>('/money/byStation', { from, to })).data;
}

export async function getSettlement(stationId: string, from: string, to: string) {
  return (await get<{ stationId: string; stationName: string; from: string; to: string; generatedAt: number; list: PeriodRow[]; total: Sums }>(
    '/money/settlement',
    { stationId, from, to },
  )).data;
}

export interface LedgerEntry {
  /** The refund's id, or SETTLE-{orderNo} for an offline payment or write-off. */
  refundId: string;
  kind: 'refund' | 'offlinePayment' | 'writeOff';
  method?: OfflineMethod;
  reference?: string;
  orderNo: string;
  stationId: string;
  amountFen: number;
  reason: string;
  approvedBy: string;
  approvedAt: number;
}

export async function getLedger(from: string, to: string, pageSize = 50, cursor?: string | null) {
  return (await get<{ list: LedgerEntry[]; cursor: string | null }>('/money/ledger', { from, to, pageSize, cursor: cursor ?? undefined })).data;
}

export interface Dashboard {
  assets: { stations: number; stationsByStatus: Record<string, number>; connectors: number; connectorsByStatus: Record<string, number> };
  today: Sums;
  trend: (Sums & { day: string })[];
  topStations: StationRow[];
  faults: { connectors: Record<string, unknown>[]; orders: OrderRow[] };
  pendingRefunds: number;
  /** More are pending than `pendingRefunds` counts (shown as "100+"). */
  pendingRefundsMore?: boolean;
  day: string;
}

export async function getDashboard(): Promise<Dashboard> {
  return (await get<Dashboard>('/index/dashboard')).data;
}
