import { describe, expect, it } from 'vitest';
import { dropColumn, moveColumn, restoreColumns, toggleColumn, visibleKeys } from './columns';
import { daysBetween, formatDate, monthGrid, parseDate, parseTime } from './dateUtils';
import demo from '../locales/demo';

describe('column chooser', () => {
  const cols = restoreColumns(null, ['a', 'b', 'c']);
  it('toggles but keeps one visible', () => {
    const one = toggleColumn(toggleColumn(cols, 'a'), 'b');
    expect(visibleKeys(one)).toEqual(['c']);
    expect(visibleKeys(toggleColumn(one, 'c'))).toEqual(['c']);
  });
  it('moves and drops', () => {
    expect(moveColumn(cols, 'c', -1).map((c) => c.key)).toEqual(['a', 'c', 'b']);
    expect(moveColumn(cols, 'a', -5).map((c) => c.key)).toEqual(['a', 'b', 'c']);
    expect(dropColumn(cols, 'a', 'c').map((c) => c.key)).toEqual(['b', 'c', 'a']);
  });
  it('restores saved state against the known keys', () => {
    const saved = [{ key: 'c', visible: false }, { key: 'zzz', visible: true }, { key: 'a', visible: true }];
    expect(restoreColumns(saved, ['a', 'b', 'c'])).toEqual([
      { key: 'c', visible: false },
      { key: 'a', visible: true },
      { key: 'b', visible: true },
    ]);
    expect(restoreColumns('junk', ['a']).length).toBe(1);
    expect(visibleKeys(restoreColumns([{ key: 'a', visible: false }], ['a']))).toEqual(['a']);
  });
});

describe('date helpers', () => {
  it('parses and formats', () => {
    expect(parseDate('2024-02-29') && formatDate(parseDate('2024-02-29')!)).toBe('2024-02-29');
    expect(parseDate('2025-02-29')).toBeNull();
    expect(parseDate('x')).toBeNull();
    expect(parseTime('9:05')).toEqual([9, 5, 0]);
    expect(parseTime('24:00')).toBeNull();
  });
  it('builds a Monday-first month grid', () => {
    const grid = monthGrid(2026, 10, 1); // November 2026 starts on a Sunday
    expect(grid).toHaveLength(42);
    expect(formatDate(grid[0])).toBe('2026-10-26');
    expect(grid[0].getDay()).toBe(1);
    expect(daysBetween(parseDate('2026-03-01')!, parseDate('2026-04-01')!)).toBe(31);
  });
});

describe('demo strings', () => {
  it('zh and en have the same keys', () => {
    const keys = (o: object, p = ''): string[] => Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' ? keys(v, `${p}${k}.`) : [`${p}${k}`]));
    expect(keys(demo.en).sort()).toEqual(keys(demo.zh).sort());
  });
});
