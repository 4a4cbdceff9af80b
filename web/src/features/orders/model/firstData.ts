import { preload } from 'swr';
import { getOrderList } from '../api/orders';
import { DEFAULT_ORDER_PAGE_SIZE, defaultFilter, orderListKey } from './filterModel';

/** Starts the order list's first page, keyed exactly as the page will ask for it. */
export function prefetchOrderList(): void {
  const filter = defaultFilter();
  void preload(orderListKey(filter, DEFAULT_ORDER_PAGE_SIZE, null), () => getOrderList(filter, DEFAULT_ORDER_PAGE_SIZE, null));
}
