/** Pure row building of the Excel export demos (the workbook itself is made by exceljs, loaded on demand). */
export interface ExportColumn<T> {
  key: string;
  header: string;
  value: (row: T) => string | number | boolean;
  /** Group header of a two-level (merged) header. */
  group?: string;
}

/** Header row plus one row of cell values per item. */
export function buildRows<T>(items: readonly T[], columns: readonly ExportColumn<T>[]): (string | number | boolean)[][] {
  return [columns.map((c) => c.header), ...items.map((it) => columns.map((c) => c.value(it)))];
}

/** Column widths (in characters) fitting the longest cell, CJK counted double, within [min, max]. */
export function columnWidths(rows: readonly (readonly unknown[])[], min = 8, max = 60): number[] {
  const width = (v: unknown) => [...String(v ?? '')].reduce((n, ch) => n + (/[\u1100-\uffff]/.test(ch) ? 2 : 1), 0);
  const cols = Math.max(0, ...rows.map((r) => r.length));
  return Array.from({ length: cols }, (_, c) => Math.min(max, Math.max(min, ...rows.map((r) => width(r[c]) + 2))));
}

export interface Merge {
  /** 1-based, inclusive, like Excel. */
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/**
 * A two-level header: the first row holds the group names (merged across
 * their columns), the second the column names; a column without a group
 * spans both rows (merged vertically).
 */
export function mergedHeader<T>(columns: readonly ExportColumn<T>[]): { rows: string[][]; merges: Merge[] } {
  const top: string[] = [];
  const merges: Merge[] = [];
  let c = 0;
  while (c < columns.length) {
    const g = columns[c].group;
    if (!g) {
      top.push(columns[c].header);
      merges.push({ top: 1, left: c + 1, bottom: 2, right: c + 1 });
      c++;
      continue;
    }
    let end = c;
    while (end + 1 < columns.length && columns[end + 1].group === g) end++;
    for (let i = c; i <= end; i++) top.push(g);
    if (end > c) merges.push({ top: 1, left: c + 1, bottom: 1, right: end + 1 });
    c = end + 1;
  }
  return { rows: [top, columns.map((col) => col.header)], merges };
}

/** A CSV text (RFC 4180 quoting, BOM for Excel to read UTF-8). */
export function toCsv(rows: readonly (readonly unknown[])[]): string {
  const cell = (v: unknown) => {
    const s = String(v ?? '');
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return '\ufeff' + rows.map((r) => r.map(cell).join(',')).join('\r\n');
}

/** A safe file name: no path separators or reserved characters, with the extension. */
export function fileName(name: string, ext: string): string {
  const base = name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '').trim() || 'export';
  return base.toLowerCase().endsWith(`.${ext}`) ? base : `${base}.${ext}`;
}
