/**
 * A station's opening hours, as the server keeps them (charging::hours):
 * periods "HH:MM-HH:MM" joined by commas, sorted by start; an end at or
 * before the start runs past midnight ("23:00-06:00"); "00:00-24:00" is all
 * day. The form edits a list of periods; the server checks again.
 */
export interface Period {
  start: string;
  end: string;
}

export const ALL_DAY = '00:00-24:00';
export const MAX_PERIODS = 6;

const minutes = (hhmm: string): number | null => {
  const m = /^\s*(\d{2}):(\d{2})\s*$/.exec(hhmm);
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return (h < 24 && min < 60) || (h === 24 && min === 0) ? h * 60 + min : null;
};

/** The periods of a stored text (loose separators accepted); malformed parts are kept as typed. */
export function splitPeriods(text: string): Period[] {
  return text
    .split(/[,，;；]/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const [start = '', end = ''] = p.split(/\s*[-~–—]\s*/);
      return { start: start.trim(), end: end.trim() };
    });
}

/** Whether a period runs into the next day. */
export function crossesMidnight(p: Period): boolean {
  const a = minutes(p.start);
  const b = minutes(p.end);
  return a != null && b != null && b !== 24 * 60 && b !== 0 && b < a;
}

export type HoursProblem = { kind: 'required' } | { kind: 'format'; period: string } | { kind: 'same'; period: string } | { kind: 'overlap'; a: string; b: string } | { kind: 'tooMany' };

/** The text to store (sorted, canonical), or the first problem. */
export function joinPeriods(periods: Period[]): { text: string } | { problem: HoursProblem } {
  const filled = periods.filter((p) => p.start.trim() || p.end.trim());
  if (filled.length === 0) return { problem: { kind: 'required' } };
  if (filled.length > MAX_PERIODS) return { problem: { kind: 'tooMany' } };
  const parsed: { start: number; end: number; label: string }[] = [];
  for (const p of filled) {
    const label = `${p.start}-${p.end}`;
    const start = minutes(p.start);
    let end = minutes(p.end);
    if (start == null || end == null || start === 24 * 60) return { problem: { kind: 'format', period: label } };
    if (end === 0) end = 24 * 60;
    if (start === end) return { problem: { kind: 'same', period: label } };
    parsed.push({ start, end, label });
  }
  parsed.sort((x, y) => x.start - y.start);
  const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  const canonical = parsed.map((p) => ({ ...p, label: `${hhmm(p.start)}-${hhmm(p.end)}` }));
  const owner: (string | undefined)[] = new Array(24 * 60);
  for (const p of canonical) {
    for (let m = 0; m < 24 * 60; m++) {
      const inside = p.end <= p.start ? m >= p.start || m < p.end : m >= p.start && m < p.end;
      if (!inside) continue;
      const other = owner[m];
      if (other) return { problem: { kind: 'overlap', a: other, b: p.label } };
      owner[m] = p.label;
    }
  }
  return { text: canonical.map((p) => p.label).join(',') };
}

/**
 * How the hours read on the pages: "00:00–24:00" as all day, a period past
 * midnight with "next day" on its end, several periods separated.
 */
export function describeHours(text: string, words: { allDay: string; nextDay: (end: string) => string }): string {
  if (text.trim() === ALL_DAY) return words.allDay;
  return splitPeriods(text)
    .map((p) => `${p.start}–${crossesMidnight(p) ? words.nextDay(p.end) : p.end}`)
    .join(', ');
}
