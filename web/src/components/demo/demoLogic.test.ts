import { describe, expect, it } from 'vitest';
import { clampPage, pageCount, pageItems, pageSlice } from './paging';
import { dropColumn, moveColumn, restoreColumns, toggleColumn, visibleKeys } from './columns';
import { daysBetween, formatDate, monthGrid, parseDate, parseTime } from './dateUtils';
import demo from '@/i18n/locales/demo';

describe('paging', () => {
  it('counts pages and clamps', () => {
    expect(pageCount(50, 20)).toBe(3);
    expect(pageCount(0, 20)).toBe(1);
    expect(clampPage(9, 50, 20)).toBe(3);
    expect(clampPage(0, 50, 20)).toBe(1);
  });
  it('shows first, last, neighbours and gaps', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(1, 3)).toEqual([1, 2, 3]);
    expect(pageItems(5, 10)).toEqual([1, 'gap', 4, 5, 6, 'gap', 10]);
    expect(pageItems(3, 10)).toEqual([1, 2, 3, 4, 'gap', 10]);
    expect(pageItems(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageItems(1, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageItems(1, 8)).toEqual([1, 2, 'gap', 8]);
  });
  it('slices a local list', () => {
    expect(pageSlice([1, 2, 3, 4, 5], 2, 2)).toEqual([3, 4]);
    expect(pageSlice([1, 2, 3], 7, 2)).toEqual([3]);
  });
});

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
