/**
 * Excel export of a list, fetched page by page with progress. exceljs is
 * loaded only when a user exports (dynamic import: it is a large chunk).
 * Rows are added to the sheet as pages arrive, so memory holds one page of
 * API data at a time besides the workbook itself.
 */
export interface ExcelColumn<T> {
  header: string;
  /** Cell value: numbers stay numbers (sums work in Excel). */
  value: (row: T) => string | number | null;
  width?: number;
  /** Excel number format, e.g. '0.00' or '0.000'. */
  numFmt?: string;
}

export interface ExportOptions<T> {
  fileName: string;
  sheetName: string;
  columns: ExcelColumn<T>[];
  /** Fetches the page after `cursor` (null = first); returns rows and the next cursor. */
  fetchPage: (cursor: string | null) => Promise<{ rows: T[]; cursor: string | null }>;
  /** Called after each page with the rows written so far. */
  onProgress?: (written: number) => void;
  /** Stop after this many rows (a browser holds the workbook in memory). */
  maxRows?: number;
  /** Summary rows appended after a blank line (e.g. the filter's sums). */
  footer?: (string | number)[][];
  signal?: AbortSignal;
}

/** The cell values of a page (pure; tested). */
export function toCells<T>(columns: ExcelColumn<T>[], rows: T[]): (string | number | null)[][] {
  return rows.map((r) => columns.map((c) => c.value(r)));
}

export const DEFAULT_MAX_ROWS = 200_000;

/** Builds the workbook and starts the download; resolves to the rows written and whether it was cut at maxRows. */
export async function exportExcel<T>(opts: ExportOptions<T>): Promise<{ rows: number; truncated: boolean }> {
  const mod = await import('exceljs');
  // The browser build is CommonJS: its exports arrive as `default`.
  const ExcelJS = (mod as unknown as { default?: typeof mod }).default ?? mod;
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(opts.sheetName);
  ws.columns = opts.columns.map((c, i) => ({ header: c.header, key: `c${i}`, width: c.width ?? 14, style: c.numFmt ? { numFmt: c.numFmt } : {} }));
  ws.getRow(1).font = { bold: true };
  ws.views = [{ state: 'frozen', ySplit: 1 }];
  const max = opts.maxRows ?? DEFAULT_MAX_ROWS;
  let written = 0;
  let cursor: string | null = null;
  let truncated = false;
  do {
    if (opts.signal?.aborted) throw new DOMException('export cancelled', 'AbortError');
    const page: { rows: T[]; cursor: string | null } = await opts.fetchPage(cursor);
    const cells = toCells(opts.columns, page.rows);
    const room = max - written;
    ws.addRows(cells.slice(0, room));
    written += Math.min(cells.length, room);
    cursor = page.cursor;
    opts.onProgress?.(written);
    if (written >= max && cursor) {
      truncated = true;
      break;
    }
  } while (cursor);
  if (opts.footer?.length) {
    ws.addRow([]);
    for (const r of opts.footer) ws.addRow(r).font = { bold: true };
  }
  const buf = await wb.xlsx.writeBuffer();
  download(new Blob([buf], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), opts.fileName);
  return { rows: written, truncated };
}

function download(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
