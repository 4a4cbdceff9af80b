import type { SWRResponse } from 'swr';
import type { CursorPagerProps } from '@/components/data/CursorPager';
import { useListParams, type ListParams, type ListParamsOptions } from './listParams';

/** What a numbered list's page answers: its rows and, when counted, the total. */
export interface NumberedAnswer<T> {
  list: T[];
  total?: number | null;
}

/** A list's state: page and size, and its filters. */
export type PagedParams = ListParams & { page: number; size: number };

/**
 * The data hook of a list: one page of the resource for the list's state
 * (a named hook of the API module, where the resource's SWR key is built).
 */
export type ListDataHook<D extends PagedParams, A> = (params: D) => SWRResponse<A>;

/**
 * A list page's state and data in one: its filters, sort and page in the
 * URL (`useListParams`), the page of rows the resource's hook reads for
 * them, and the numbered pager's props. `ListView` shows it.
 */
export function useListPage<D extends PagedParams, A extends NumberedAnswer<unknown>>(defaults: D, useData: ListDataHook<D, A>, opts: ListParamsOptions<D> = {}) {
  const { params, set, reset } = useListParams(defaults, opts);
  const { data, isLoading, mutate } = useData(params);
  const rows = (data?.list ?? []) as A['list'];
  return {
    params,
    set,
    reset,
    /** Sets filters (the page starts again at 1). */
    filterBy: (patch: Partial<Omit<D, 'page' | 'size'>>) => set({ ...patch, page: 1 } as Partial<D>),
    data,
    rows,
    /** The current page has been answered once (an empty list is then "no data", not "loading"). */
    loaded: data !== undefined,
    /** Nothing to show yet: the first answer is on its way. */
    loading: isLoading && data === undefined,
    mutate,
    pager: {
      kind: 'numbered' as const,
      page: params.page,
      pageSize: params.size,
      total: data?.total ?? 0,
      onChange: (page: number, size: number) => set({ page, size } as Partial<D>),
    },
  };
}

export type ListPageState<T> = {
  rows: readonly T[];
  loaded: boolean;
  loading: boolean;
  pager?: ListPager;
};

/** The pager a list shows: numbered (`Pager`) or by cursor (`CursorPager`). */
export type ListPager =
  | { kind: 'numbered'; page: number; pageSize: number; total: number; onChange: (page: number, size: number) => void; sizes?: number[] }
  | ({ kind: 'cursor' } & CursorPagerProps);

/** The list's state as the template's paged routes ask for it (`pageNo`, `pageSize` and the filters). */
export function pageQuery<D extends PagedParams>({ page, size, ...filters }: D): Omit<D, 'page' | 'size'> & { pageNo: number; pageSize: number } {
  return { ...filters, pageNo: page, pageSize: size };
}
