import { afterEach, describe, expect, it } from 'vitest';
import { addDays, zonedDateTime, chinaDay, duration, fromZoned, kwh, operatorTimeZone, setOperatorTimeZone, toZonedInput, zonedDateTimeSecs, zoneLabel, parseYuan, relativeAge, unitPrice, yuan } from './format';
import { currentCursor, fetchSize, firstPage, goNewer, goNext, goOlder, goPrev, hasNewer, hasNext, hasOlder, lastPage, pageCount, pageNumber, withNext } from './cursorPages';
import { toCells, type ExcelColumn } from './excel';
import { clampPage, pageCount as numberedPageCount, pageItems, pageSlice } from './paging';

describe('money and energy formatting is exact', () => {
  it('formats fen as yuan from integers', () => {
    expect(yuan(0)).toBe('0.00');
    expect(yuan(5)).toBe('0.05');
    expect(yuan(123456789)).toBe('1,234,567.89');
    expect(yuan(123456789, false)).toBe('1234567.89');
    expect(yuan(-1050)).toBe('-10.50');
    expect(yuan(null)).toBe('—');
    // 0.1 + 0.2 style float sums never reach the screen.
    expect(yuan(10 + 20)).toBe('0.30');
  });
  it('formats Wh as kWh and unit prices', () => {
    expect(kwh(12345)).toBe('12.345');
    expect(kwh(7)).toBe('0.007');
    expect(kwh(-1500)).toBe('-1.500');
    expect(kwh(31237522)).toBe('31,237.522');
    expect(kwh(31237522, false)).toBe('31237.522');
    expect(kwh(-1234567890)).toBe('-1,234,567.890');
    expect(unitPrice(6521)).toBe('0.6521');
    expect(unitPrice(12836)).toBe('1.2836');
  });
  it('parses yuan input strictly', () => {
    expect(parseYuan('12')).toBe(1200);
    expect(parseYuan('12.3')).toBe(1230);
    expect(parseYuan(' 0.05 ')).toBe(5);
    expect(parseYuan('1.234')).toBeNull();
    expect(parseYuan('-1')).toBeNull();
    expect(parseYuan('abc')).toBeNull();
  });
  it('uses China local days like the server', () => {
    // 2024-12-31T16:00:00Z is 2025-01-01 00:00 in China.
    expect(chinaDay(1_735_660_800)).toBe('2025-01-01');
    expect(chinaDay(1_735_660_799)).toBe('2024-12-31');
    expect(zonedDateTime(1_735_660_800)).toBe('2025-01-01 00:00');
    expect(addDays('2025-03-01', -1)).toBe('2025-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(duration(5400, 'zh')).toBe('1小时30分');
    expect(duration(5400, 'en')).toBe('1h 30m');
  });
});

describe('cursor paging', () => {
  it('goes forward with server cursors and back with remembered ones', () => {
    let s = firstPage();
    expect(currentCursor(s)).toBeNull();
    expect(hasNext(s)).toBe(false);
    s = withNext(s, 'c2');
    expect(hasNext(s)).toBe(true);
    s = goNext(s);
    expect(s.page).toBe(2);
    expect(currentCursor(s)).toBe('c2');
    s = withNext(s, null); // last page
    expect(hasNext(s)).toBe(false);
    expect(goNext(s)).toBe(s);
    s = goPrev(s);
    expect(currentCursor(s)).toBeNull();
    s = withNext(s, 'c2');
    expect(hasNext(s)).toBe(true);
    expect(goPrev(firstPage()).page).toBe(1);
  });
});

describe('excel cells', () => {
  it('keeps numbers as numbers in column order', () => {
    const cols: ExcelColumn<{ a: string; fen: number }>[] = [
      { header: 'A', value: (r) => r.a },
      { header: 'Y', value: (r) => r.fen / 100 },
    ];
    expect(toCells(cols, [{ a: 'x', fen: 1234 }])).toEqual([['x', 12.34]]);
  });
});

describe('relative age (refund queue, notices)', () => {
  const now = 1_750_000_000;
  it('reads short, in both languages', () => {
    expect(relativeAge(now - 20, 'en', now)).toBe('just now');
    expect(relativeAge(now - 20, 'zh', now)).toBe('刚刚');
    expect(relativeAge(now - 5 * 60, 'en', now)).toBe('5 min ago');
    expect(relativeAge(now - 3 * 3600 - 59, 'en', now)).toBe('3 h ago');
    expect(relativeAge(now - 3 * 3600, 'zh', now)).toBe('3小时前');
    expect(relativeAge(now - 2 * 86400, 'zh-CN', now)).toBe('2天前');
    expect(relativeAge(now - 90 * 86400, 'en', now)).toBe('3 mo ago');
    expect(relativeAge(now - 800 * 86400, 'zh', now)).toBe('2年前');
  });
  it('reads a time ahead of the clock as just now', () => {
    expect(relativeAge(now + 120, 'en', now)).toBe('just now');
  });
});

describe('jumping to the newest and the oldest page', () => {
  it('counts pages from the oldest end with the same boundaries', () => {
    // 45 items, 20 a page: pages of 20, 20, 5; the oldest page is page 3 of 3.
    let s = lastPage();
    expect(fetchSize(s, 20, 45)).toBe(5);
    expect(pageNumber(s, 20, 45)).toBe(3);
    expect(pageCount(45, 20)).toBe(3);
    expect(hasOlder(s)).toBe(false);
    s = withNext(s, 'asc-2');
    expect(hasNewer(s)).toBe(true);
    s = goNewer(s);
    expect(fetchSize(s, 20, 45)).toBe(20);
    expect(pageNumber(s, 20, 45)).toBe(2);
    expect(currentCursor(s)).toBe('asc-2');
    s = goOlder(s);
    expect(pageNumber(s, 20, 45)).toBe(3);
    // A total that fills the pages exactly: the oldest page is full.
    expect(fetchSize(lastPage(), 20, 40)).toBe(20);
    // Without a total the page is counted from the end.
    expect(pageNumber(lastPage(), 20, null)).toBeNull();
    expect(fetchSize(lastPage(), 20, null)).toBe(20);
  });
  it('keeps the newest-first arrows as before', () => {
    let s = withNext(firstPage(), 'c2');
    expect(hasNewer(s)).toBe(false);
    expect(hasOlder(s)).toBe(true);
    s = goOlder(s);
    expect(pageNumber(s, 20, 45)).toBe(2);
    expect(goNewer(s).page).toBe(1);
  });
});

describe('numbered pages (Pager)', () => {
  it('counts pages and clamps', () => {
    expect(numberedPageCount(50, 20)).toBe(3);
    expect(numberedPageCount(0, 20)).toBe(1);
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

describe('log times', () => {
  it("shows times to the second in the operator's time zone (Asia/Shanghai by default)", () => {
    expect(zonedDateTimeSecs(1_735_660_800)).toBe('2025-01-01 00:00:00');
    expect(zonedDateTimeSecs(undefined)).toBe('—');
  });
});

describe("the operator's time zone", () => {
  afterEach(() => setOperatorTimeZone('Asia/Shanghai'));

  it('shows and reads times in the configured zone, not the browser\'s', () => {
    // 18:00 typed in Shanghai is 10:00 UTC, and reads back as 18:00.
    const t = fromZoned('2030-01-01T18:00')!;
    expect(t).toBe(Date.UTC(2030, 0, 1, 10) / 1000);
    expect(zonedDateTime(t)).toBe('2030-01-01 18:00');
    expect(toZonedInput(t)).toBe('2030-01-01T18:00');
    expect(zoneLabel(t)).toBe('Asia/Shanghai (UTC+08:00)');
    setOperatorTimeZone('America/New_York');
    expect(zonedDateTime(t)).toBe('2030-01-01 05:00');
    expect(fromZoned('2030-07-01T18:00')).toBe(Date.UTC(2030, 6, 1, 22) / 1000);
    expect(zoneLabel(Date.UTC(2030, 6, 1) / 1000)).toBe('America/New_York (UTC-04:00)');
    // A zone this browser does not know leaves the last good one.
    setOperatorTimeZone('Mars/Olympus');
    expect(operatorTimeZone()).toBe('America/New_York');
    expect(fromZoned('2030-02-30T10:00')).toBeNull();
    expect(fromZoned('tomorrow')).toBeNull();
  });
});
