import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Sums } from '../api/orders';
import { useOrderList } from './useOrderList';

const notify = vi.fn();
vi.mock('@/utils/notify', () => ({ notify: (...args: unknown[]) => notify(...args) }));

const sums = (orders: number): Sums =>
  ({ orders, energyWh: 0, electricityFen: 0, serviceFen: 0, parkingFen: 0, discountFen: 0, amountFen: 0, paidFen: 0, refundedFen: 0, writtenOffFen: 0, netFen: 0 }) as Sums;
const row = (orderNo: string) => ({ orderNo }) as never;

/** The order list's answers: two pages for any filter; the plate filter counts 3 orders, the rest 42. */
let asked: URLSearchParams[] = [];
beforeEach(() => {
  asked = [];
  notify.mockClear();
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL) => {
    const q = new URL(String(input), 'http://localhost').searchParams;
    asked.push(q);
    const count = q.get('plate') ? 3 : 42;
    const data = q.get('cursor')
      ? { list: [row(`${q.get('plate') ?? 'all'}-2`)], cursor: null }
      : { list: [row(`${q.get('plate') ?? 'all'}-1`)], cursor: 'c2', total: count, sums: sums(count) };
    return new Response(JSON.stringify({ code: 200, msg: 'success', data }), { status: 200 });
  });
});
afterEach(() => vi.restoreAllMocks());

function setup() {
  let search = '';
  const wrapper = ({ children }: { children: ReactNode }) => (
    <SWRConfig value={{ provider: () => new Map(), shouldRetryOnError: false, dedupingInterval: 0 }}>
      <MemoryRouter initialEntries={['/order/orderindex']}>{children}</MemoryRouter>
    </SWRConfig>
  );
  const hook = renderHook(
    () => {
      search = useLocation().search;
      return useOrderList();
    },
    { wrapper },
  );
  return { ...hook, search: () => search };
}

describe('the order list state', () => {
  it("keeps the first page's totals while paging, and asks the next page with its cursor", async () => {
    const { result } = setup();
    await waitFor(() => expect(result.current.rows.map((r) => r.orderNo)).toEqual(['all-1']));
    expect(result.current.total).toBe(42);
    expect(result.current.sums?.orders).toBe(42);
    act(() => result.current.list.pager.onOlder());
    await waitFor(() => expect(result.current.rows.map((r) => r.orderNo)).toEqual(['all-2']));
    expect(asked.at(-1)?.get('cursor')).toBe('c2');
    // The second page has no totals of its own: the filter's stay.
    expect(result.current.total).toBe(42);
    expect(result.current.list.pager.pages.page).toBe(2);
  });

  it('a new filter is written to the URL and starts again at its first page, without the old totals', async () => {
    const { result, search } = setup();
    await waitFor(() => expect(result.current.total).toBe(42));
    act(() => result.current.list.pager.onOlder());
    await waitFor(() => expect(result.current.list.pager.pages.page).toBe(2));
    act(() => result.current.search({ ...result.current.filter, plate: ' 粤B12345 ' }));
    // At once: page 1 of the new filter, and no totals until its answer.
    expect(result.current.list.pager.pages.page).toBe(1);
    expect(result.current.total).toBeUndefined();
    expect(new URLSearchParams(search()).get('plate')).toBe('粤B12345');
    await waitFor(() => expect(result.current.total).toBe(3));
    expect(result.current.rows.map((r) => r.orderNo)).toEqual(['粤B12345-1']);
    expect(asked.at(-1)?.get('cursor')).toBeNull();
  });

  it('sorts by amount with the date range alone: with another filter it warns and keeps the sort', async () => {
    const { result, search } = setup();
    await waitFor(() => expect(result.current.total).toBe(42));
    act(() => result.current.sortBy('amount'));
    await waitFor(() => expect(result.current.chosenSort).toBe('amountDesc'));
    expect(new URLSearchParams(search()).get('sort')).toBe('amountDesc');
    act(() => result.current.sortBy('start'));
    await waitFor(() => expect(result.current.chosenSort).toBe('newest'));
    act(() => result.current.search({ ...result.current.filter, plate: 'A1' }));
    await waitFor(() => expect(result.current.filter.plate).toBe('A1'));
    act(() => result.current.sortBy('energy'));
    expect(notify).toHaveBeenCalledWith(expect.any(String), 'warning');
    expect(result.current.chosenSort).toBe('newest');
  });

  it('a new page size starts again at the first page and keeps the totals', async () => {
    const { result } = setup();
    await waitFor(() => expect(result.current.total).toBe(42));
    act(() => result.current.list.pager.onOlder());
    await waitFor(() => expect(result.current.list.pager.pages.page).toBe(2));
    act(() => result.current.list.pager.onSize(50));
    expect(result.current.list.pager.pages.page).toBe(1);
    expect(result.current.total).toBe(42);
    await waitFor(() => expect(asked.at(-1)?.get('pageSize')).toBe('50'));
  });
});
