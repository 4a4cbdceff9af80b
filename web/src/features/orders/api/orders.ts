import { useState } from 'react';
import useSWR from 'swr';
import { get, post } from '@/api/request';
import type { Answer, Body, Query, Schema } from '@/api/types';

/** Charging orders, refunds, finance and the dashboard (shared/backoffice/src/handlers/{orders,finance,dashboard}.rs). */

export type OrderPage = Answer<'/partnerapi/order/getList', 'get'>;
type OrderQuery = Query<'/partnerapi/order/getList'>;

/** Money is integer fen, energy integer Wh, times unix seconds. */
export type OrderRow = OrderPage['list'][number];
export type OrderStatus = OrderRow['status'];
export type PaymentStatus = OrderRow['paymentStatus'];
export type OfflineMethod = Schema<'OfflineMethod'>;
/** An offline payment or write-off recorded by finance on an order. */
export type Settlement = NonNullable<OrderRow['settlement']>;
export type Tier = Schema<'Tier'>;
export type Anomaly = OrderRow['anomalies'][number];

export type OrderDetail = Answer<'/partnerapi/order/detail', 'get'>;
export type TierLine = OrderDetail['lines'][number];
export type CurvePoint = NonNullable<OrderDetail['curve']>[number];
export type RefundRecord = OrderDetail['refunds'][number];
export type RefundStatus = RefundRecord['status'];

/** Only with the first page of the order list; null when no rollup covers the filter combination. */
export type Sums = NonNullable<OrderPage['sums']>;

/** The order list's filters as a form holds them ('' = any). */
export type OrderFilter = { [K in Exclude<keyof OrderQuery, 'cursor' | 'pageSize' | 'sort'>]?: OrderQuery[K] | '' };

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
export type ListDirection = NonNullable<OrderQuery['sort']>;

/**
 * How the order list is sorted: by start time either way, or by amount or
 * energy (the server takes those with the date range alone).
 */
export type OrderSort = ListDirection | 'amountDesc' | 'amountAsc' | 'energyDesc' | 'energyAsc';
export const ORDER_SORTS: readonly OrderSort[] = ['newest', 'oldest', 'amountDesc', 'amountAsc', 'energyDesc', 'energyAsc'];

export async function getOrderList(f: OrderFilter, pageSize: number, cursor?: string | null, sort: OrderSort = 'newest'): Promise<OrderPage> {
  const params: Record<string, string | number> = { ...filterParams(f), pageSize };
  if (cursor) params.cursor = cursor;
  if (sort !== 'newest') params.sort = sort;
  return (await get<OrderPage>('/order/getList', params)).data;
}

/** A stable key for caching a filter's pages. */
export function filterKey(f: OrderFilter): string {
  return JSON.stringify(Object.entries(f).filter(([, v]) => v).sort(([a], [b]) => a.localeCompare(b)));
}

/** The SWR key of one page of the order list (the page and its prefetch share it). */
export const orderListKey = (f: OrderFilter, pageSize: number, cursor: string | null, sort: OrderSort = 'newest') =>
  sort !== 'newest' ? (['order/getList', filterKey(f), pageSize, cursor, sort] as const) : (['order/getList', filterKey(f), pageSize, cursor] as const);

/** One page of the order list (the previous page stays shown while the next loads). */
export function useOrderPage(f: OrderFilter, pageSize: number, cursor: string | null, sort: OrderSort = 'newest') {
  return useSWR(orderListKey(f, pageSize, cursor, sort), () => getOrderList(f, pageSize, cursor, sort), { keepPreviousData: true });
}

export async function getOrder(id: string): Promise<OrderDetail> {
  return (await get<OrderDetail>('/order/detail', { id })).data;
}

/** How often a running order's detail is read again (the charger sends meter values every few seconds). */
export const ORDER_POLL_MS = 5000;

/** How often to read an order again: every `pollMs` while it is charging (energy, curve and status move), else not. */
export const orderRefreshInterval = (o: Pick<OrderDetail, 'status'> | undefined, pollMs = ORDER_POLL_MS): number => (o?.status === 'charging' ? pollMs : 0);

/**
 * One charging order (no id: not asked; a failure is not retried), read
 * again while it is charging until it ends. The interval is state set from
 * each answer: SWR starts its timer again only when the interval changes
 * (a stable interval function would not poll again after a `mutate`).
 */
export function useOrderDetail(id: string, pollMs = ORDER_POLL_MS) {
  const [interval, setPollInterval] = useState(0);
  return useSWR(id ? ['order/detail', id] : null, () => getOrder(id), {
    shouldRetryOnError: false,
    refreshInterval: interval,
    onSuccess: (o) => setPollInterval(orderRefreshInterval(o, pollMs)),
  });
}

export async function closeOrder(orderNo: string, reason: string): Promise<string> {
  return (await post<Answer<'/partnerapi/order/close', 'post'>>('/order/close', { orderNo, reason } satisfies Body<'/partnerapi/order/close'>)).msg;
}

/** `amount` in yuan ("12.34"). */
export async function requestRefund(orderNo: string, amount: string, reason: string): Promise<string> {
  return (await post<Answer<'/partnerapi/order/refund/request', 'post'>>('/order/refund/request', { orderNo, amount, reason } satisfies Body<'/partnerapi/order/refund/request'>)).msg;
}

/** `note` is optional; it is shown with the decision on the order. */
export async function approveRefund(orderNo: string, refundId: string, note = ''): Promise<string> {
  return (await post('/order/refund/approve', { orderNo, refundId, note } satisfies Body<'/partnerapi/order/refund/approve'>)).msg;
}

export async function rejectRefund(orderNo: string, refundId: string, note: string): Promise<string> {
  return (await post('/order/refund/approval/reject', { orderNo, refundId, note } satisfies Body<'/partnerapi/order/refund/approval/reject'>)).msg;
}

/** Records that what the order owes (`amount`, yuan: the whole amount owed) was received offline. */
export async function recordOfflinePayment(orderNo: string, method: OfflineMethod, reference: string, amount: string, note: string): Promise<string> {
  return (await post<Answer<'/partnerapi/order/settle/offlinePayment', 'post'>>('/order/settle/offlinePayment', { orderNo, method, reference, amount, note } satisfies Body<'/partnerapi/order/settle/offlinePayment'>)).msg;
}

/** Writes off what the order owes, with a reason. */
export async function writeOffOrder(orderNo: string, reason: string): Promise<string> {
  return (await post<Answer<'/partnerapi/order/settle/writeOff', 'post'>>('/order/settle/writeOff', { orderNo, reason } satisfies Body<'/partnerapi/order/settle/writeOff'>)).msg;
}

type RefundPage = Answer<'/partnerapi/order/refund/getList', 'get'>;
/** A request in the approval queue, with its order's money (null if the order is gone). */
export type QueueEntry = RefundPage['list'][number];
/** The order's money beside a request in the approval queue. */
export type QueueOrderMoney = NonNullable<QueueEntry['order']>;

export async function getRefunds(
  status: RefundStatus,
  pageSize = 50,
  sort: ListDirection = status === 'pending' ? 'oldest' : 'newest',
  cursor?: string | null,
): Promise<RefundPage> {
  return (await get<RefundPage>('/order/refund/getList', { status, pageSize, sort, cursor: cursor ?? undefined })).data;
}

type Revenue = Answer<'/partnerapi/money/revenue', 'get'>;
type ByStation = Answer<'/partnerapi/money/byStation', 'get'>;
type StationSettlement = Answer<'/partnerapi/money/settlement', 'get'>;
type Ledger = Answer<'/partnerapi/money/ledger', 'get'>;
export type PeriodRow = Revenue['list'][number];
export type StationRow = ByStation['list'][number];

export async function getRevenue(granularity: NonNullable<Query<'/partnerapi/money/revenue'>['granularity']>, from: string, to: string, stationId?: string) {
  const params: Record<string, string> = { granularity, from, to };
  if (stationId) params.stationId = stationId;
  return (await get<Revenue>('/money/revenue', params)).data;
}

export async function getByStation(from: string, to: string) {
  return (await get<ByStation>('/money/byStation', { from, to })).data;
}

export async function getSettlement(stationId: string, from: string, to: string) {
  return (await get<StationSettlement>(
    '/money/settlement',
    { stationId, from, to },
  )).data;
}

/** Revenue by day or month over a range (`enabled` false: not asked). */
export function useRevenue(granularity: NonNullable<Query<'/partnerapi/money/revenue'>['granularity']>, from: string, to: string, enabled = true) {
  return useSWR(enabled ? ['money/revenue', granularity, from, to] : null, () => getRevenue(granularity, from, to));
}

/** Revenue by station over a range. */
export function useByStation(from: string, to: string) {
  return useSWR(['money/byStation', from, to], () => getByStation(from, to));
}

/** One station's settlement statement over a range (no station: not asked). */
export function useSettlement(stationId: string, from: string, to: string, enabled = true) {
  return useSWR(enabled && stationId ? ['money/settlement', stationId, from, to] : null, () => getSettlement(stationId, from, to));
}

export type LedgerEntry = Ledger['list'][number];

export async function getLedger(from: string, to: string, pageSize = 50, cursor?: string | null) {
  return (await get<Ledger>('/money/ledger', { from, to, pageSize, cursor: cursor ?? undefined })).data;
}

type HolderBills = Answer<'/partnerapi/money/holderBills', 'get'>;
export type HolderBill = HolderBills['list'][number];

/** What each postpaid card holder owes for a month's sessions (`month` YYYY-MM; empty: not asked). */
export function useHolderBills(month: string) {
  return useSWR(/^\d{4}-\d{2}$/.test(month) ? ['money/holderBills', month] : null, async () => (await get<HolderBills>('/money/holderBills', { month })).data);
}

export type Dashboard = Answer<'/partnerapi/index/dashboard', 'get'>;

export async function getDashboard(): Promise<Dashboard> {
  return (await get<Dashboard>('/index/dashboard')).data;
}

/** The home page's figures, reloaded every minute (a failure is not retried). */
export function useDashboard() {
  return useSWR('index/dashboard', getDashboard, { refreshInterval: 60_000, shouldRetryOnError: false });
}
