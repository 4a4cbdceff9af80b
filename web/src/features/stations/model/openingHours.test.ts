import { describe, expect, it } from 'vitest';
import { crossesMidnight, describeHours, joinPeriods, splitPeriods } from './openingHours';

const words = { allDay: '全天营业', nextDay: (end: string) => `次日${end}` };

describe('opening hours', () => {
  it('reads what the server stores, old one-period values too', () => {
    expect(splitPeriods('06:00-23:00')).toEqual([{ start: '06:00', end: '23:00' }]);
    expect(splitPeriods('07:00-12:00,22:00-02:00')).toEqual([
      { start: '07:00', end: '12:00' },
      { start: '22:00', end: '02:00' },
    ]);
    expect(describeHours('00:00-24:00', words)).toBe('全天营业');
    expect(describeHours('06:00-23:00', words)).toBe('06:00–23:00');
    expect(describeHours('23:00-06:00', words)).toBe('23:00–次日06:00');
    expect(describeHours('07:00-12:00,22:00-02:00', words)).toBe('07:00–12:00, 22:00–次日02:00');
  });
  it('knows a period past midnight', () => {
    expect(crossesMidnight({ start: '23:00', end: '06:00' })).toBe(true);
    expect(crossesMidnight({ start: '18:00', end: '00:00' })).toBe(false);
    expect(crossesMidnight({ start: '06:00', end: '23:00' })).toBe(false);
  });
  it('joins periods as the server keeps them, or says what is wrong', () => {
    expect(joinPeriods([{ start: '23:00', end: '06:00' }])).toEqual({ text: '23:00-06:00' });
    expect(
      joinPeriods([
        { start: '14:00', end: '22:00' },
        { start: '07:00', end: '12:00' },
        { start: '', end: '' },
      ]),
    ).toEqual({ text: '07:00-12:00,14:00-22:00' });
    expect(joinPeriods([{ start: '18:00', end: '00:00' }])).toEqual({ text: '18:00-24:00' });
    expect(joinPeriods([{ start: '', end: '' }])).toEqual({ problem: { kind: 'required' } });
    expect(joinPeriods([{ start: '08:00', end: '' }])).toEqual({ problem: { kind: 'format', period: '08:00-' } });
    expect(joinPeriods([{ start: '08:00', end: '08:00' }])).toEqual({ problem: { kind: 'same', period: '08:00-08:00' } });
    expect(
      joinPeriods([
        { start: '22:00', end: '02:00' },
        { start: '01:00', end: '05:00' },
      ]),
    ).toEqual({ problem: { kind: 'overlap', a: '01:00-05:00', b: '22:00-02:00' } });
    expect(joinPeriods(Array.from({ length: 7 }, (_, i) => ({ start: `0${i}:00`, end: `0${i}:30` })))).toEqual({ problem: { kind: 'tooMany' } });
  });
});
