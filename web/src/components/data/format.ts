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

const CHINA_OFFSET_MS = 8 * 3600 * 1000;

/** The China-local (+08:00) calendar day of a unix time, "YYYY-MM-DD" (the server's day). */
export function chinaDay(ts: number): string {
  return new Date(ts * 1000 + CHINA_OFFSET_MS).toISOString().slice(0, 10);
}

/** "YYYY-MM-DD HH:mm" in China local time. */
export function chinaDateTime(ts: number | null | undefined): string {
  if (ts == null) return '—';
  const iso = new Date(ts * 1000 + CHINA_OFFSET_MS).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** A log time (unix seconds) as 'YYYY-MM-DD HH:mm:ss' in China time, like the server's other times. */
export function logTime(secs: number | null | undefined): string {
  if (secs == null || !Number.isFinite(secs)) return '—';
  const iso = new Date(secs * 1000 + CHINA_OFFSET_MS).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** "HH:mm" in China local time. */
export function chinaTime(ts: number): string {
  return new Date(ts * 1000 + CHINA_OFFSET_MS).toISOString().slice(11, 16);
}

/** "HH:mm:ss" in China local time. */
export function chinaClock(ts: number): string {
  return new Date(ts * 1000 + CHINA_OFFSET_MS).toISOString().slice(11, 19);
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
