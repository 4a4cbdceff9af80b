import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { currentCursor, firstPage, goNewer, goOlder, withNext, type CursorPages } from './cursorPages';

/**
 * A list the server pages with an opaque cursor: the current page, the
 * cursors seen (to go back), the page size, and the handlers a
 * {@link CursorPager} wants. `key` names the list with its filters; a new
 * key starts again from the first page.
 */
export function useCursorList<T>(
  key: readonly unknown[] | null,
  fetchPage: (cursor: string | null, pageSize: number) => Promise<{ list: T[]; cursor: string | null }>,
  initialSize = 20,
) {
  const [pages, setPages] = useState<CursorPages>(firstPage);
  const [pageSize, setPageSize] = useState(initialSize);
  const filterKey = JSON.stringify(key);
  useEffect(() => setPages(firstPage()), [filterKey]);
  const cursor = currentCursor(pages);
  const swr = useSWR(key ? [...key, pageSize, cursor] : null, () => fetchPage(cursor, pageSize), { keepPreviousData: true });
  const next = swr.data?.cursor ?? null;
  useEffect(() => {
    if (swr.data) setPages((p) => withNext(p, next));
  }, [swr.data, next]);
  return {
    rows: swr.data?.list ?? [],
    loaded: swr.data !== undefined,
    loading: swr.isLoading && swr.data === undefined,
    mutate: swr.mutate,
    pager: {
      kind: 'cursor' as const,
      // These lists have no count.
      total: null,
      pages,
      pageSize,
      onNewest: () => setPages(firstPage()),
      onNewer: () => setPages(goNewer),
      onOlder: () => setPages(goOlder),
      onSize: (n: number) => {
        setPageSize(n);
        setPages(firstPage());
      },
    },
  };
}
