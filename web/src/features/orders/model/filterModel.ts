import type { OrderFilter, OrderSort } from '../api/orders';
import { addDays, chinaDay } from '@/components/data/format';

/** The default filter: the last 30 China-local days up to today. */
export function defaultFilter(nowSecs: number = Date.now() / 1000): OrderFilter {
  const to = chinaDay(nowSecs);
  return { from: addDays(to, -29), to, stationId: '', status: '', paymentStatus: '', orderNo: '', userId: '', plate: '', anomaly: '' };
}

export { filterKey, orderListKey } from '../api/orders';

/** Rows per page when the order list opens. */
export const DEFAULT_ORDER_PAGE_SIZE = 20;


/** Whether the filter sets anything besides the date range (then amount and energy cannot sort it). */
export const filtersBeyondRange = (f: OrderFilter): boolean => Object.entries(f).some(([k, v]) => k !== 'from' && k !== 'to' && !!v);

/**
 * The sort a click on a column title chooses: start time toggles newest and
 * oldest first (from another column it starts at newest first); amount and
 * energy go highest first, lowest first, then back to the default (newest
 * first).
 */
export function nextSort(current: OrderSort, column: 'start' | 'amount' | 'energy'): OrderSort {
  if (column === 'start') return current === 'newest' ? 'oldest' : 'newest';
  const desc = column === 'amount' ? 'amountDesc' : 'energyDesc';
  const asc = column === 'amount' ? 'amountAsc' : 'energyAsc';
  return current === desc ? asc : current === asc ? 'newest' : desc;
}

/** The direction a column shows for a sort (undefined: not sorted by it). */
export function columnDirection(sort: OrderSort, column: 'start' | 'amount' | 'energy'): 'ascending' | 'descending' | undefined {
  const by: Record<OrderSort, ['start' | 'amount' | 'energy', 'ascending' | 'descending']> = {
    newest: ['start', 'descending'],
    oldest: ['start', 'ascending'],
    amountDesc: ['amount', 'descending'],
    amountAsc: ['amount', 'ascending'],
    energyDesc: ['energy', 'descending'],
    energyAsc: ['energy', 'ascending'],
  };
  return by[sort][0] === column ? by[sort][1] : undefined;
}

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
