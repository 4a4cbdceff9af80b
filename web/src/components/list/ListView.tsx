import { makeStyles, Spinner, type SpinnerProps } from '@fluentui/react-components';
import type { CSSProperties, ReactNode } from 'react';
import { CursorPager } from '@/components/data/CursorPager';
import { Pager } from '@/components/data/Pager';
import { ListTable, type ListTableProps } from './ListTable';
import type { ListPageState } from './useListPage';

const useStyles = makeStyles({
  scroll: { overflowX: 'auto' },
});

export interface ListViewProps<T> extends Omit<ListTableProps<T>, 'rows' | 'empty'> {
  /** The list's rows, state and pager (`useListPage`, `useCursorList`, or a page's own hook). */
  list: ListPageState<T>;
  /** Shown in the table once the list has loaded empty. */
  empty?: ReactNode;
  /** The scrolling box around the table (default: scrolls sideways). */
  scrollClassName?: string;
  scrollStyle?: CSSProperties;
  scrollTestId?: string;
  /** The spinner's size until the first answer (false: none). */
  spinner?: SpinnerProps['size'] | false;
  /** Between the table's box and the pager (notes on the list). */
  children?: ReactNode;
}

/**
 * A list page's body, the same on every list: the table of its columns in
 * a scrolling box, a spinner until the first answer, "no data" once it is
 * empty, and its pager (numbered or by cursor).
 */
export function ListView<T>({ list, empty, scrollClassName, scrollStyle, scrollTestId, spinner = 'small', children, ...table }: ListViewProps<T>) {
  const styles = useStyles();
  const pager = list.pager;
  return (
    <>
      <div className={scrollClassName ?? styles.scroll} style={scrollStyle} data-testid={scrollTestId}>
        <ListTable rows={list.rows} empty={list.loaded ? empty : undefined} {...table} />
        {list.loading && spinner && <Spinner size={spinner} />}
      </div>
      {children}
      {pager?.kind === 'numbered' && <Pager page={pager.page} pageSize={pager.pageSize} total={pager.total} sizes={pager.sizes} onChange={pager.onChange} />}
      {pager?.kind === 'cursor' && <CursorPager {...pager} />}
    </>
  );
}
