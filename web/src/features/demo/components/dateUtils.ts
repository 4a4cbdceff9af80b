/** Pure date helpers of the demo date/time pickers (local time, no library). */
export const pad = (n: number): string => String(n).padStart(2, '0');

export const formatDate = (d: Date): string => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
export const formatTime = (h: number, m: number, s: number): string => `${pad(h)}:${pad(m)}:${pad(s)}`;

/** Parses 'YYYY-MM-DD' into a local date, or null when invalid (e.g. 2025-02-30). */
export function parseDate(text: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return d.getFullYear() === Number(m[1]) && d.getMonth() === Number(m[2]) - 1 && d.getDate() === Number(m[3]) ? d : null;
}

/** Parses 'HH:mm' or 'HH:mm:ss' into [h, m, s], or null. */
export function parseTime(text: string): [number, number, number] | null {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!m) return null;
  const t: [number, number, number] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  return t[0] < 24 && t[1] < 60 && t[2] < 60 ? t : null;
}

/**
 * The 6×7 day grid of a month view, weeks starting on `weekStart`
 * (0 Sunday, 1 Monday); days of the neighbouring months fill the edges.
 */
export function monthGrid(year: number, month: number, weekStart = 1): Date[] {
  const first = new Date(year, month, 1);
  const offset = (first.getDay() - weekStart + 7) % 7;
  return Array.from({ length: 42 }, (_, i) => new Date(year, month, 1 - offset + i));
}

export const sameDay = (a: Date | null, b: Date | null): boolean => !!a && !!b && formatDate(a) === formatDate(b);

/** Number of whole days from a to b (b − a), across DST changes. */
export const daysBetween = (a: Date, b: Date): number =>
  Math.round((Date.UTC(b.getFullYear(), b.getMonth(), b.getDate()) - Date.UTC(a.getFullYear(), a.getMonth(), a.getDate())) / 86_400_000);
