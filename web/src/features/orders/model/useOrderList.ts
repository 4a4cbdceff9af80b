import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentCursor, fetchSize, firstPage, fromOldest, goNewer, goOlder, lastPage, withNext } from '@/components/data/cursorPages';
import { kwh, yuan } from '@/components/data/format';
import { exportList, type ListColumn } from '@/components/list/columns';
import { useListParams } from '@/components/list/listParams';
import { useKeyedState } from '@/components/list/useKeyedState';
import { notify } from '@/utils/notify';
import { filterKey, getOrderList, ORDER_SORTS, useOrderPage, type OrderFilter, type OrderRow, type OrderSort, type Sums } from '../api/orders';
import { DEFAULT_ORDER_PAGE_SIZE, defaultFilter, exportFileName, filtersBeyondRange, nextSort, normaliseFilter } from './filterModel';

export type SortColumn = 'start' | 'amount' | 'energy';
type Defaults = Record<keyof OrderFilter, string> & { sort: OrderSort };

/** What the filter's first page answered: its totals (kept while paging; undefined until asked). */
interface FilterTotals {
  sums: Sums | null | undefined;
  total: number | null | undefined;
}
const noTotals = (): FilterTotals => ({ sums: undefined, total: undefined });

/**
 * The order list's state: the applied filter and the sort in the URL (a
 * filtered list is a link; kept on reload, back restores), the cursor
 * pages, the page size, the filter's totals and the export. A new filter
 * or sort starts again at the first page and a new filter forgets the
 * totals: the pages and the totals are kept under the key they belong
 * to, so nothing is reset during a render or by an effect.
 */
export function useOrderList() {
  const { t } = useTranslation();
  const [defaults] = useState<Defaults>(() => ({ ...(defaultFilter() as Record<keyof OrderFilter, string>), sort: 'newest' }));
  const listState = useListParams(defaults, { allowed: { sort: ORDER_SORTS } });
  const { sort: chosenSort, ...filter } = listState.params as Defaults & OrderFilter;
  const listKey = filterKey(filter);
  const [pageSize, setPageSize] = useState(DEFAULT_ORDER_PAGE_SIZE);
  // The pages belong to the filter, the sort and the page size; the totals to the filter.
  const [pages, setPages] = useKeyedState(`${listKey}|${chosenSort}|${pageSize}`, firstPage);
  const [totals, setTotals] = useKeyedState(listKey, noTotals);
  // Newest first keeps the pager's jump to the oldest page (read from that end).
  const byTimeNewest = chosenSort === 'newest';
  const cursor = currentCursor(pages);
  const sort: OrderSort = byTimeNewest ? (fromOldest(pages) ? 'oldest' : 'newest') : chosenSort;
  const { data, isLoading, mutate } = useOrderPage(filter, fetchSize(pages, pageSize, totals.total), cursor, sort);

  // Remember where the next page starts; totals come with the first page only.
  // Once per answer: the cursor is the one it was asked for, read, not followed.
  const onAnswer = useEffectEvent(() => {
    if (!data) return;
    setPages((p) => withNext(p, data.cursor));
    if (!cursor) setTotals({ sums: data.sums, total: data.total });
  });
  useEffect(() => {
    onAnswer();
  }, [data]);

  /** Sorts by a column's title; amount and energy sort the date range alone (the server refuses more). */
  const sortBy = (column: SortColumn) => {
    const next = nextSort(chosenSort, column);
    if (column !== 'start' && next !== 'newest' && filtersBeyondRange(filter)) {
      notify(t('ord.sort.rangeOnly'), 'warning');
      return;
    }
    listState.set({ sort: next }, { replace: true });
  };

  /** Applies a filter (the form's); the same filter again reads it afresh from its first page. */
  const search = (f: OrderFilter) => {
    const clean = normaliseFilter(f);
    const keepSort = byTimeNewest || chosenSort === 'oldest' || !filtersBeyondRange(clean);
    if (!keepSort) notify(t('ord.sort.rangeOnly'), 'warning');
    if (filterKey(clean) === listKey && keepSort) {
      // Its totals stay until the answer replaces them: an unchanged answer is not new data.
      setPages(firstPage());
      void mutate();
      return;
    }
    const all = Object.fromEntries(Object.keys(defaultFilter()).map((k) => [k, clean[k as keyof OrderFilter] ?? ''])) as Record<keyof OrderFilter, string>;
    listState.set(keepSort ? all : { ...all, sort: 'newest' });
  };

  /** After a change to an order of the list (a manual close): its totals and pages are read again. */
  const reload = () => {
    setTotals(noTotals());
    setPages(firstPage());
    void mutate();
  };

  // The export: rows written so far while it runs.
  const [exporting, setExporting] = useState<number | null>(null);
  const exportOrders = async (columns: readonly ListColumn<OrderRow>[], labels: Parameters<typeof exportFileName>[1]) => {
    setExporting(0);
    const { sums } = totals;
    try {
      const res = await exportList(columns, {
        fileName: exportFileName(filter, labels),
        sheetName: t('ord.title'),
        fetchPage: async (c) => {
          const p = await getOrderList(filter, 500, c);
          return { rows: p.list, cursor: p.cursor };
        },
        onProgress: setExporting,
        footer: sums ? [[t('fin.total'), sums.orders, `${kwh(sums.energyWh, false)} kWh`, `${yuan(sums.amountFen, false)}`]] : undefined,
      });
      notify(res.truncated ? t('ord.filter.truncated', { n: res.rows }) : t('ord.filter.exported', { n: res.rows }), res.truncated ? 'warning' : 'success');
    } catch {
      /* request errors were shown */
    } finally {
      setExporting(null);
    }
  };

  // From the oldest end the rows come oldest first; the table stays newest first.
  const rows = (byTimeNewest && fromOldest(pages) && data ? [...data.list].reverse() : data?.list) ?? [];
  return {
    filter,
    listKey,
    chosenSort,
    rows,
    isLoading,
    sums: totals.sums,
    total: totals.total,
    sortBy,
    search,
    reload,
    exporting,
    exportOrders,
    list: {
      rows,
      loaded: data !== undefined,
      loading: isLoading,
      pager: {
        kind: 'cursor' as const,
        pages,
        total: totals.total,
        pageSize,
        onNewest: () => setPages(firstPage()),
        onOldest: byTimeNewest ? () => setPages(lastPage()) : undefined,
        onNewer: () => setPages(goNewer),
        onOlder: () => setPages(goOlder),
        onSize: (n: number) => setPageSize(n),
      },
    },
  };
}
