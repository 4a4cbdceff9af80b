/**
 * Display helpers for the business pages. Money arrives as integer fen and
 * energy as integer Wh; they are formatted from integers (no float sums), so
 * a shown total is exactly the server's figure.
 */

/** 123456 fen -> "1,234.56" (grouped) or "1234.56" (plain, for exports). */
export function yuan(fen: number | null | undefined, grouped = true): string {
  if (fen == null || !Number.isFinite(fen)) return '—';
  const neg = fen < 0;
  const abs = Math.abs(Math.trunc(fen));
  const int = Math.floor(abs / 100).toString();
  const dec = (abs % 100).toString().padStart(2, '0');
  const intShown = grouped ? int.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : int;
  return `${neg ? '-' : ''}${intShown}.${dec}`;
}

/** 1234567 Wh -> "1,234.567" kWh (grouped, like money) or "1234.567" (plain, for exports); 3 decimals, exact. */
export function kwh(wh: number | null | undefined, grouped = true): string {
  if (wh == null || !Number.isFinite(wh)) return '—';
  const neg = wh < 0;
  const abs = Math.abs(Math.trunc(wh));
  const int = Math.floor(abs / 1000).toString();
  const intShown = grouped ? int.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : int;
  return `${neg ? '-' : ''}${intShown}.${(abs % 1000).toString().padStart(3, '0')}`;
}

/** A price in 1/10000 yuan per kWh -> "0.6521". */
export function unitPrice(p: number | null | undefined): string {
  if (p == null) return '—';
  return `${Math.floor(p / 10000)}.${(p % 10000).toString().padStart(4, '0')}`;
}

import { TZDate } from '@date-fns/tz';

const CHINA_OFFSET_MS = 8 * 3600 * 1000;

/** The China-local (+08:00) calendar day of a unix time, "YYYY-MM-DD": the server's business day (orders, finance and the system log are counted and filtered by it). */
export function chinaDay(ts: number): string {
  return new Date(ts * 1000 + CHINA_OFFSET_MS).toISOString().slice(0, 10);
}

/** The operator's time zone until the server says (an operations setting). */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';
let operatorZone = DEFAULT_TIME_ZONE;
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * Sets the operator's time zone (IANA name; `/index/userInfo` sends it):
 * every date and time the pages show, and every one typed in them, is in
 * it, whatever the browser's own zone. An unknown name keeps the current.
 */
export function setOperatorTimeZone(zone: string): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    operatorZone = zone;
  } catch {
    // A zone this browser's ICU does not know: the last good one stays.
  }
}

export function operatorTimeZone(): string {
  return operatorZone;
}

function wall(ts: number, zone = operatorZone): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string> {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    formatters.set(zone, f);
  }
  const out = { year: '', month: '', day: '', hour: '', minute: '', second: '' };
  for (const p of f.formatToParts(new Date(ts * 1000))) if (p.type in out) out[p.type as keyof typeof out] = p.value;
  return out;
}

/** "YYYY-MM-DD HH:mm" in the operator's time zone. */
export function zonedDateTime(ts: number | null | undefined): string {
  if (ts == null) return '—';
  const w = wall(ts);
  return `${w.year}-${w.month}-${w.day} ${w.hour}:${w.minute}`;
}

/** A log time (unix seconds) as 'YYYY-MM-DD HH:mm:ss' in the operator's time zone. */
export function zonedDateTimeSecs(secs: number | null | undefined): string {
  if (secs == null || !Number.isFinite(secs)) return '—';
  const w = wall(secs);
  return `${w.year}-${w.month}-${w.day} ${w.hour}:${w.minute}:${w.second}`;
}

/** "HH:mm" in the operator's time zone. */
export function zonedTime(ts: number): string {
  const w = wall(ts);
  return `${w.hour}:${w.minute}`;
}

/** "HH:mm:ss" in the operator's time zone (a chart's axis over a short span). */
export function zonedClock(ts: number): string {
  const w = wall(ts);
  return `${w.hour}:${w.minute}:${w.second}`;
}

/** "YYYY-MM-DD", the calendar day in the operator's time zone (a card's expiry day). */
export function zonedDay(ts: number): string {
  const w = wall(ts);
  return `${w.year}-${w.month}-${w.day}`;
}

/** A `datetime-local` input's value ("YYYY-MM-DDTHH:mm") for a unix time, in the operator's time zone. */
export function toZonedInput(ts: number): string {
  const w = wall(ts);
  return `${w.year}-${w.month}-${w.day}T${w.hour}:${w.minute}`;
}

/**
 * The unix time of a wall-clock time typed in the operator's time zone
 * ("YYYY-MM-DDTHH:mm[:ss]" or "YYYY-MM-DD HH:mm"; a date alone is its
 * 23:59:59 when `endOfDay`, else 00:00); null when unreadable.
 */
export function fromZoned(text: string, endOfDay = false): number | null {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  if (!m) return null;
  const [y, mo, d] = [+m[1], +m[2], +m[3]];
  const [h, mi, s] = m[4] === undefined ? (endOfDay ? [23, 59, 59] : [0, 0, 0]) : [+m[4], +m[5], +(m[6] ?? 0)];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const t = new TZDate(y, mo - 1, d, h, mi, s, operatorZone);
  // 2025-02-30 and the like roll over: the round trip must agree.
  if (t.getFullYear() !== y || t.getMonth() !== mo - 1 || t.getDate() !== d) return null;
  return Math.floor(t.getTime() / 1000);
}

/** The zone as people read it beside an input: "Asia/Shanghai (UTC+08:00)" (the offset at `at`, default now). */
export function zoneLabel(at: number = Date.now() / 1000, zone = operatorZone): string {
  const name = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(new Date(at * 1000)).find((p) => p.type === 'timeZoneName')?.value ?? '';
  return `${zone} (${name.replace('GMT', 'UTC') || 'UTC'})`;
}

/** The day `n` days before `day` ("YYYY-MM-DD"). */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** 5400 -> "1h 30m" / "1小时30分". */
export function duration(secs: number, lang: string): string {
  const h = Math.floor(secs / 3600);
  const m = Math.floor((secs % 3600) / 60);
  if (lang === 'zh') return h ? `${h}小时${m}分` : `${m}分`;
  return h ? `${h}h ${m}m` : `${m}m`;
}

/** Parses a yuan input ("12", "12.3", "12.34") to fen; null when malformed. */
export function parseYuan(s: string): number | null {
  const m = /^\s*(\d{1,9})(?:\.(\d{1,2}))?\s*$/.exec(s);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/**
 * How long ago a unix time was, short: "just now", "5 min ago", "3 h ago",
 * "2 d ago" / "刚刚", "5分钟前", "3小时前", "2天前" (the refund queue, notices).
 * A time ahead of `nowSecs` (clock skew) reads as just now.
 */
export function relativeAge(ts: number, lang: string, nowSecs: number = Date.now() / 1000): string {
  const zh = lang.startsWith('zh');
  const secs = Math.max(0, Math.floor(nowSecs - ts));
  const [n, en, cn] =
    secs < 60
      ? [0, '', '']
      : secs < 3600
        ? [Math.floor(secs / 60), 'min', '分钟']
        : secs < 86400
          ? [Math.floor(secs / 3600), 'h', '小时']
          : secs < 86400 * 60
            ? [Math.floor(secs / 86400), 'd', '天']
            : secs < 86400 * 730
              ? [Math.floor(secs / (86400 * 30)), 'mo', '个月']
              : [Math.floor(secs / (86400 * 365)), 'y', '年'];
  if (n === 0) return zh ? '刚刚' : 'just now';
  return zh ? `${n}${cn}前` : `${n} ${en} ago`;
}
