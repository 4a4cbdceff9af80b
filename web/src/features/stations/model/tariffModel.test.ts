import { describe, expect, it } from 'vitest';
import { formatUnitPrice, parseUnitPrice, pricesFromInputs, segmentProblems, slotsOf, splitSegment, tiersUsed } from './tariffModel';

describe('unit prices', () => {
  it('parse exactly with up to four decimals', () => {
    expect(parseUnitPrice('0.6253')).toBe(6253);
    expect(parseUnitPrice('1.2')).toBe(12000);
    expect(parseUnitPrice(' 2 ')).toBe(20000);
    expect(parseUnitPrice('0.12345')).toBeNull();
    expect(parseUnitPrice('-1')).toBeNull();
    expect(parseUnitPrice('1e3')).toBeNull();
    expect(parseUnitPrice('')).toBeNull();
    expect(formatUnitPrice(6253)).toBe('0.6253');
    expect(formatUnitPrice(12000)).toBe('1.2000');
  });
});

describe('schedule checks', () => {
  it('accepts a full day in any order', () => {
    expect(segmentProblems([{ start: '08:00', end: '24:00', tier: 'flat' }, { start: '00:00', end: '08:00', tier: 'valley' }])).toEqual([]);
  });
  it('names gaps, overlaps, bad times and a short day', () => {
    const p = segmentProblems([
      { start: '00:00', end: '08:00', tier: 'valley' },
      { start: '09:00', end: '12:00', tier: 'flat' },
      { start: '11:00', end: '20:00', tier: 'peak' },
      { start: '10:15', end: '11:00', tier: 'peak' },
    ]);
    expect(p).toEqual([
      { index: 3, key: 'badTime' },
      { index: 1, key: 'gap', params: { from: '08:00', to: '09:00' } },
      { index: 2, key: 'overlap', params: { from: '11:00', to: '12:00' } },
      { index: null, key: 'gap', params: { from: '20:00', to: '24:00' } },
    ]);
    expect(segmentProblems([{ start: '10:00', end: '09:00', tier: 'flat' }])[0].key).toBe('endBeforeStart');
    expect(segmentProblems([])[0].key).toBe('empty');
  });
  it('fills slots and lists used tiers', () => {
    const segs = [{ start: '00:00', end: '01:00', tier: 'valley' as const }, { start: '01:00', end: '24:00', tier: 'sharp' as const }];
    const slots = slotsOf(segs);
    expect(slots.slice(0, 3)).toEqual(['valley', 'valley', 'sharp']);
    expect(slots).toHaveLength(48);
    expect(tiersUsed(segs)).toEqual(['sharp', 'valley']);
  });
  it('splits a segment at its middle', () => {
    expect(splitSegment([{ start: '00:00', end: '24:00', tier: 'flat' }], 0)).toEqual([
      { start: '00:00', end: '12:00', tier: 'flat' },
      { start: '12:00', end: '24:00', tier: 'flat' },
    ]);
    expect(splitSegment([{ start: '00:00', end: '00:30', tier: 'flat' }], 0)).toBeNull();
  });
  it('turns price inputs into integers and names bad tiers', () => {
    const r = pricesFromInputs(['peak', 'flat'], { peak: { electricity: '1.0653', service: '0.9' }, flat: { electricity: 'x', service: '0.8' } });
    expect(r.prices).toEqual({ peak: { electricity: 10653, service: 9000 } });
    expect(r.bad).toEqual(['flat']);
  });
});
