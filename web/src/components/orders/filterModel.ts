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
export const orderListKey = (f: OrderFilter, pageSize: number, cursor: string | null, sort: 'newest' | 'oldest' = 'newest') =>
  sort === 'oldest' ? (['order/getList', filterKey(f), pageSize, cursor, sort] as const) : (['order/getList', filterKey(f), pageSize, cursor] as const);

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

/** Characters a file name cannot hold on common systems, and spaces. */
const UNSAFE_IN_FILE_NAME = /[\\/:*?"<>|\s]+/g;

/**
 * The export's file name: every filter set, as people read it (station
 * name, status label ...), then the dates, e.g.
 * `orders-中关村充电站-异常-2025-06-01-2025-06-30.xlsx`.
 */
export function exportFileName(f: OrderFilter, labels: { station?: string; status?: string; payment?: string; anomaly?: string }): string {
  const parts = [
    f.stationId ? labels.station || f.stationId : '',
    f.status ? labels.status || f.status : '',
    f.paymentStatus ? labels.payment || f.paymentStatus : '',
    f.anomaly ? labels.anomaly || f.anomaly : '',
    f.orderNo ?? '',
    f.userId ?? '',
    f.plate ?? '',
  ]
    .map((p) => p.trim().replace(UNSAFE_IN_FILE_NAME, '_').slice(0, 40))
    .filter(Boolean);
  return ['orders', ...parts, f.from, f.to].filter(Boolean).join('-') + '.xlsx';
}
