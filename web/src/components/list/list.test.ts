import { describe, expect, it } from 'vitest';
import { excelColumns, tableColumns, type ListColumn } from './columns';
import { readListParams, writeListParams } from './listParams';

const defaults = { name: '', status: '', sort: 'newest', page: 1, size: 20 };

describe('list params in the URL', () => {
  it('reads typed values with defaults', () => {
    expect(readListParams(new URLSearchParams(''), defaults)).toEqual(defaults);
    expect(readListParams(new URLSearchParams('name=A&page=3&size=50'), defaults)).toEqual({ ...defaults, name: 'A', page: 3, size: 50 });
  });
  it('falls back to the default on a bad number or a value not allowed', () => {
    const r = readListParams(new URLSearchParams('page=x&size=-4&sort=bogus&status=open'), defaults, { allowed: { sort: ['newest', 'oldest'] } });
    expect(r).toEqual({ ...defaults, status: 'open' });
    expect(readListParams(new URLSearchParams('page=0'), defaults).page).toBe(1);
  });
  it('writes only what differs from the defaults and keeps other keys', () => {
    const q = writeListParams(new URLSearchParams('id=7'), { name: 'B', status: '', sort: 'newest' }, defaults);
    expect(q.toString()).toBe('id=7&name=B');
  });
  it('a filter change resets the page; a page change keeps the filter', () => {
    const onPage3 = new URLSearchParams('name=A&page=3');
    expect(writeListParams(onPage3, { status: 'open' }, defaults).toString()).toBe('name=A&status=open');
    expect(writeListParams(onPage3, { page: 4 }, defaults).toString()).toBe('name=A&page=4');
    expect(writeListParams(onPage3, { size: 50 }, defaults).toString()).toBe('name=A&size=50');
    // The same filter again is no change: the page stays.
    expect(writeListParams(onPage3, { name: 'A' }, defaults).toString()).toBe('name=A&page=3');
    // Filter and page together: the page given wins.
    expect(writeListParams(onPage3, { name: 'C', page: 2 }, defaults).toString()).toBe('name=C&page=2');
  });
  it('a round trip gives back the state', () => {
    const state = { ...defaults, name: '中关村 1', sort: 'oldest', page: 2 };
    const q = writeListParams(new URLSearchParams(), state, defaults);
    expect(readListParams(q, defaults)).toEqual(state);
  });
});

describe('list columns', () => {
  type Row = { no: string; fen: number };
  const columns: ListColumn<Row>[] = [
    { id: 'no', header: 'No.', cell: (r) => r.no, excel: { value: (r) => r.no, width: 20 } },
    { id: 'fen', header: 'Amount', cell: (r) => r.fen, excel: { header: 'Amount (yuan)', value: (r) => r.fen / 100, numFmt: '0.00' } },
    { id: 'hidden', header: 'Export only', excel: { value: () => 'x' } },
    { id: 'actions', header: 'Actions', cell: () => null },
  ];
  it('derives the export columns in declared order with their headers', () => {
    const ex = excelColumns(columns);
    expect(ex.map((c) => c.header)).toEqual(['No.', 'Amount (yuan)', 'Export only']);
    expect(ex.map((c) => c.id)).toEqual(['no', 'fen', 'hidden']);
    expect(ex[0].width).toBe(20);
    expect(ex[1].numFmt).toBe('0.00');
    expect(ex.map((c) => c.value({ no: 'A1', fen: 1234 }))).toEqual(['A1', 12.34, 'x']);
  });
  it('the table shows the columns with a cell', () => {
    expect(tableColumns(columns).map((c) => c.id)).toEqual(['no', 'fen', 'actions']);
  });
});
