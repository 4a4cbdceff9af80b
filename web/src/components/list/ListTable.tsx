import { makeStyles, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, type TableProps } from '@fluentui/react-components';
import { mergeClasses } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { tableColumns, type ListColumn } from './columns';

const useStyles = makeStyles({
  num: { textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
});

export interface ListSort {
  direction: (columnId: string) => 'ascending' | 'descending' | undefined;
  onSort: (columnId: string) => void;
  title?: (columnId: string) => string;
}

export interface ListTableProps<T> extends Omit<TableProps, 'children'> {
  columns: readonly ListColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** data-testid of the body rows (the same for all, or by row). */
  rowTestId?: string | ((row: T) => string);
  /** Further attributes of a body row (e.g. `data-user`). */
  rowAttrs?: (row: T) => Record<`data-${string}`, string>;
  /** Class of the header row (e.g. a sticky head). */
  headerClassName?: string;
  /** A last row of totals: its first cell is `label`, the others the columns' cells of `row`. */
  total?: { row: T; label: ReactNode; className?: string; testId?: string };
  /** Shown in one full-width row when given and there are no rows (e.g. once the list has loaded empty). */
  empty?: ReactNode;
  /** The sortable columns' header buttons (their data-testid is `sort-<column id>`). */
  sort?: ListSort;
  [data: `data-${string}`]: string | undefined;
}

/** A Fluent table of a list's columns (those with a `cell`). */
export function ListTable<T>({ columns, rows, rowKey, rowTestId, rowAttrs, headerClassName, sort, empty, total, ...table }: ListTableProps<T>) {
  const styles = useStyles();
  const shown = tableColumns(columns);
  return (
    <Table size="small" {...table}>
      <TableHeader className={headerClassName}>
        <TableRow>
          {shown.map((c) =>
            c.sortable && sort ? (
              <TableHeaderCell
                key={c.id}
                className={c.numeric ? styles.num : undefined}
                style={c.width ? { width: c.width } : undefined}
                sortable
                sortDirection={sort.direction(c.id)}
                button={{ onClick: () => sort.onSort(c.id) }}
                title={sort.title?.(c.id) ?? c.headerTitle}
                data-testid={c.headerTestId ?? `sort-${c.id}`}
              >
                {c.headerContent ?? c.header}
              </TableHeaderCell>
            ) : (
              <TableHeaderCell key={c.id} className={c.numeric ? styles.num : undefined} style={c.width ? { width: c.width } : undefined} title={c.headerTitle}>
                {c.headerContent ?? c.header}
              </TableHeaderCell>
            ),
          )}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((r) => (
          <TableRow key={rowKey(r)} data-testid={typeof rowTestId === 'function' ? rowTestId(r) : rowTestId} {...rowAttrs?.(r)}>
            {shown.map((c) => (
              <TableCell key={c.id} className={mergeClasses(c.numeric && styles.num, c.className)} data-testid={c.testId} translate={c.data ? 'no' : undefined}>
                {c.cell!(r)}
              </TableCell>
            ))}
          </TableRow>
        ))}
        {total && (
          <TableRow className={total.className} data-testid={total.testId}>
            {shown.map((c, i) => (
              <TableCell key={c.id} className={mergeClasses(c.numeric && styles.num, c.className)}>
                {i === 0 ? total.label : c.cell!(total.row)}
              </TableCell>
            ))}
          </TableRow>
        )}
        {empty !== undefined && rows.length === 0 && (
          <TableRow>
            <TableCell colSpan={shown.length}>{empty}</TableCell>
          </TableRow>
        )}
      </TableBody>
    </Table>
  );
}
