import type { Segment, Tier, TierPrice } from '../api/assets';

/**
 * Pure helpers of the tariff editor. Prices travel as integers in 1/10000
 * yuan per kWh; the editor shows and parses yuan strings with up to four
 * decimals without going through floats, so "0.6253" is exactly 6253.
 * The server validates again (coverage, gaps, prices) and is the authority;
 * these checks give instant feedback.
 */

/** "0.6253" -> 6253; null when not a non-negative number with <= 4 decimals. */
export function parseUnitPrice(s: string): number | null {
  const m = /^\s*(\d{1,3})(?:\.(\d{1,4}))?\s*$/.exec(s);
  if (!m) return null;
  return Number(m[1]) * 10000 + Number((m[2] ?? '').padEnd(4, '0'));
}

/** 6253 -> "0.6253". */
export function formatUnitPrice(units: number): string {
  return `${Math.floor(units / 10000)}.${String(units % 10000).padStart(4, '0')}`;
}

/** "HH:MM" on a half-hour boundary -> 0..48; null otherwise. */
export function boundary(s: string): number | null {
  const m = /^(\d{2}):(\d{2})$/.exec(s);
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 24 || (min !== 0 && min !== 30) || (h === 24 && min !== 0)) return null;
  return h * 2 + min / 30;
}

export function boundaryLabel(b: number): string {
  return `${String(Math.floor(b / 2)).padStart(2, '0')}:${b % 2 ? '30' : '00'}`;
}

/** Every half-hour boundary label, 00:00 .. 24:00. */
export const BOUNDARIES: string[] = Array.from({ length: 49 }, (_, i) => boundaryLabel(i));

export type SegmentProblem = { index: number | null; key: string; params?: Record<string, string> };

/**
 * Problems of a schedule: bad times, end not after start, gaps and overlaps
 * (in time order), and not reaching 24:00. Empty = covers the day exactly.
 */
export function segmentProblems(segments: Segment[]): SegmentProblem[] {
  const out: SegmentProblem[] = [];
  const spans: { i: number; s: number; e: number }[] = [];
  segments.forEach((seg, i) => {
    const s = boundary(seg.start);
    const e = boundary(seg.end);
    if (s === null || e === null) out.push({ index: i, key: 'badTime' });
    else if (e <= s) out.push({ index: i, key: 'endBeforeStart' });
    else spans.push({ i, s, e });
  });
  if (segments.length === 0) out.push({ index: null, key: 'empty' });
  spans.sort((a, b) => a.s - b.s);
  let at = 0;
  for (const sp of spans) {
    if (sp.s > at) out.push({ index: sp.i, key: 'gap', params: { from: boundaryLabel(at), to: boundaryLabel(sp.s) } });
    if (sp.s < at) out.push({ index: sp.i, key: 'overlap', params: { from: boundaryLabel(sp.s), to: boundaryLabel(Math.min(at, sp.e)) } });
    at = Math.max(at, sp.e);
  }
  if (spans.length && at < 48) out.push({ index: null, key: 'gap', params: { from: boundaryLabel(at), to: '24:00' } });
  return out;
}

/** Tiers the schedule uses (they need prices), most expensive first. */
export function tiersUsed(segments: Segment[]): Tier[] {
  const order: Tier[] = ['sharp', 'peak', 'flat', 'valley'];
  return order.filter((t) => segments.some((s) => s.tier === t));
}

/** The editor's price strings -> integer prices for the used tiers; problems name the tier. */
export function pricesFromInputs(
  used: Tier[],
  inputs: Partial<Record<Tier, { electricity: string; service: string }>>,
): { prices: Partial<Record<Tier, TierPrice>>; bad: Tier[] } {
  const prices: Partial<Record<Tier, TierPrice>> = {};
  const bad: Tier[] = [];
  for (const tier of used) {
    const e = parseUnitPrice(inputs[tier]?.electricity ?? '');
    const s = parseUnitPrice(inputs[tier]?.service ?? '');
    if (e === null || s === null) bad.push(tier);
    else prices[tier] = { electricity: e, service: s };
  }
  return { prices, bad };
}

/** Splits a segment at its middle half-hour (for "add segment"); null if it is one slot long. */
export function splitSegment(segments: Segment[], index: number): Segment[] | null {
  const seg = segments[index];
  const s = boundary(seg?.start ?? '');
  const e = boundary(seg?.end ?? '');
  if (s === null || e === null || e - s < 2) return null;
  const mid = boundaryLabel(s + Math.floor((e - s) / 2));
  return [...segments.slice(0, index), { ...seg, end: mid }, { ...seg, start: mid }, ...segments.slice(index + 1)];
}

/** The day as 48 tiers (for the colour bar); null where uncovered. */
export function slotsOf(segments: Segment[]): (Tier | null)[] {
  const slots: (Tier | null)[] = Array(48).fill(null);
  for (const seg of segments) {
    const s = boundary(seg.start);
    const e = boundary(seg.end);
    if (s === null || e === null) continue;
    for (let i = s; i < e && i < 48; i++) slots[i] = seg.tier;
  }
  return slots;
}

/** A day-long flat schedule to start a new template from. */
export const NEW_SEGMENTS: Segment[] = [
  { start: '00:00', end: '08:00', tier: 'valley' },
  { start: '08:00', end: '24:00', tier: 'flat' },
];
