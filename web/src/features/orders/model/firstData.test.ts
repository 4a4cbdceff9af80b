import { beforeEach, describe, expect, it, vi } from 'vitest';

const getOrderList = vi.fn(async (..._args: unknown[]) => ({ list: [], cursor: null }));
vi.mock('../api/orders', async (actual) => ({ ...(await actual<typeof import('../api/orders')>()), getOrderList }));

describe("the order list's first data on a cold load", () => {
  beforeEach(() => getOrderList.mockClear());

  it("starts the order list's first page under the key the page reads", async () => {
    const { prefetchRoute } = await import('@/router/prefetch');
    const { DEFAULT_ORDER_PAGE_SIZE, defaultFilter, orderListKey } = await import('./filterModel');
    const { preload } = await import('swr');
    prefetchRoute('/order/orderindex');
    expect(getOrderList).toHaveBeenCalledTimes(1);
    expect(getOrderList).toHaveBeenCalledWith(defaultFilter(), DEFAULT_ORDER_PAGE_SIZE, null);
    // The same key again is the request already in flight, not a second one.
    await preload(orderListKey(defaultFilter(), DEFAULT_ORDER_PAGE_SIZE, null), () => getOrderList(defaultFilter(), 1, null));
    expect(getOrderList).toHaveBeenCalledTimes(1);
  });

  it('asks for no data on pages without a first call', async () => {
    const { prefetchRoute } = await import('@/router/prefetch');
    prefetchRoute('/login');
    prefetchRoute('/index');
    expect(getOrderList).not.toHaveBeenCalled();
  });
});
