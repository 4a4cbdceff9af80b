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
