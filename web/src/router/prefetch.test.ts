import { beforeEach, describe, expect, it, vi } from 'vitest';

const getOrderList = vi.fn(async (..._args: unknown[]) => ({ list: [], cursor: null }));
vi.mock('@/features/orders/api/orders', async (actual) => ({ ...(await actual<typeof import('@/features/orders/api/orders')>()), getOrderList }));

describe('prefetchRoute', () => {
  beforeEach(() => getOrderList.mockClear());

  it('reads the path of a hash URL', async () => {
    const { hashPath } = await import('./prefetch');
    expect(hashPath('#/order/orderindex?from=2026-01-01')).toBe('/order/orderindex');
    expect(hashPath('')).toBe('/');
  });

  it("starts the order list's first page under the key the page reads", async () => {
    const { prefetchRoute } = await import('./prefetch');
    const { DEFAULT_ORDER_PAGE_SIZE, defaultFilter, orderListKey } = await import('@/features/orders/model/filterModel');
    const { preload } = await import('swr');
    prefetchRoute('/order/orderindex');
    expect(getOrderList).toHaveBeenCalledTimes(1);
    expect(getOrderList).toHaveBeenCalledWith(defaultFilter(), DEFAULT_ORDER_PAGE_SIZE, null);
    // The same key again is the request already in flight, not a second one.
    await preload(orderListKey(defaultFilter(), DEFAULT_ORDER_PAGE_SIZE, null), () => getOrderList(defaultFilter(), 1, null));
    expect(getOrderList).toHaveBeenCalledTimes(1);
  });

  it('asks for no data on pages without a first call', async () => {
    const { prefetchRoute } = await import('./prefetch');
    prefetchRoute('/login');
    prefetchRoute('/index');
    expect(getOrderList).not.toHaveBeenCalled();
  });
});
