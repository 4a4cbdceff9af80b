import type { ReactNode } from 'react';
import { exportExcel, type ExcelColumn, type ExportOptions } from '@/components/data/excel';

/**
 * One column of a list, declared once per resource: the table shows the
 * columns with a `cell`, the Excel export the columns with an `excel` value,
 * both in the order declared. A column may be in the table only (actions),
 * in the export only (a field the table folds into another cell), or both.
 */
export interface ListColumn<T> {
  id: string;
  /** The column's title (the table's header and, unless `excel.header` says otherwise, the sheet's). */
  header: string;
  /** What the table's header cell shows instead of `header`, when that is more than a title (e.g. a select-all checkbox). */
  headerContent?: ReactNode;
  /** The table cell; without it the column is not in the table. */
  cell?: (row: T) => ReactNode;
  /** data-testid of the column's table cells. */
  testId?: string;
  /** Class of the column's table cells (e.g. no wrapping). */
  className?: string;
  /** Width of the table's column (its header cell's style), e.g. '160px'. */
  width?: string;
  /** Tooltip of the table's header cell. */
  headerTitle?: string;
  /** data-testid of a sortable header (default `sort-<id>`). */
  headerTestId?: string;
  /** Right-aligned tabular figures in the table. */
  numeric?: boolean;
  /**
   * The cells hold data (names, codes, what someone typed), shown as they
   * are in either language: marked `translate="no"`, so nothing takes them
   * for untranslated text.
   */
  data?: boolean;
  /** The table's header sorts by this column (see `ListTable`'s `sort`). */
  sortable?: boolean;
  /** The sheet cell; without it the column is not exported. */
  excel?: Omit<ExcelColumn<T>, 'header'> & { header?: string };
}

/** The columns the table shows. */
export const tableColumns = <T>(columns: readonly ListColumn<T>[]): ListColumn<T>[] => columns.filter((c) => c.cell);

/** The export's columns, derived from the list's columns (each with its column's id). */
export function excelColumns<T>(columns: readonly ListColumn<T>[]): (ExcelColumn<T> & { id: string })[] {
  return columns.flatMap((c) => (c.excel ? [{ ...c.excel, header: c.excel.header ?? c.header, id: c.id }] : []));
}

/** What a list's export needs besides its columns: the sheet's rows, all at hand or fetched page by page. */
export type ListExport<T> = Omit<ExportOptions<T>, 'columns' | 'fetchPage'> & ({ rows: readonly T[] } | { fetchPage: ExportOptions<T>['fetchPage'] });

/**
 * Exports a list's columns (those with an `excel` value, as the table
 * declares them) to a workbook: the table and its sheet from one
 * declaration.
 */
export function exportList<T>(columns: readonly ListColumn<T>[], opts: ListExport<T>): Promise<{ rows: number; truncated: boolean }> {
  const { fetchPage, rest } =
    'rows' in opts
      ? (({ rows, ...r }) => ({ fetchPage: async () => ({ rows: [...rows], cursor: null }), rest: r }))(opts)
      : (({ fetchPage: f, ...r }) => ({ fetchPage: f, rest: r }))(opts);
  return exportExcel<T>({ ...rest, columns: excelColumns(columns), fetchPage });
}
