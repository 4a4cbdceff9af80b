import type { OrderFilter } from '@/api/orders';
import { addDays, chinaDay } from '@/components/data/format';

/** The default filter: the last 30 China-local days up to today. */
export function defaultFilter(nowSecs: number = Date.now() / 1000): OrderFilter {
  const to = chinaDay(nowSecs);
  return { from: addDays(to, -29), to, stationId: '', status: '', paymentStatus: '', orderNo: '', userId: '', plate: '', anomaly: '' };
}

/** A stable key for caching a filter's pages. */
export function filterKey(f: OrderFilter): string {
  return JSON.stringify(Object.entries(f).filter(([, v]) => v).sort(([a], [b]) => a.localeCompare(b)));
}

/** Rows per page when the order list opens. */
export const DEFAULT_ORDER_PAGE_SIZE = 20;

/** The SWR key of one page of the order list (the page and its prefetch share it). */
export const orderListKey = (f: OrderFilter, pageSize: number, cursor: string | null) =>
  ['order/getList', filterKey(f), pageSize, cursor] as const;

/** What a typed filter form becomes when searched: trimmed, order no. and plate upper-cased. */
export function normaliseFilter(f: OrderFilter): OrderFilter {
  const tidy = (s?: string) => (s ?? '').trim();
  return {
    ...f,
    orderNo: tidy(f.orderNo).toUpperCase(),
    plate: tidy(f.plate).toUpperCase(),
    userId: tidy(f.userId),
  };
}
