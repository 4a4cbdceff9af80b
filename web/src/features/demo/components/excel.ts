import { columnWidths, fileName, toCsv, type Merge } from './excelRows';

export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export interface SheetSpec {
  name: string;
  sheet: string;
  /** Header rows first. */
  rows: (string | number | boolean)[][];
  headerRows?: number;
  merges?: Merge[];
  autoWidth?: boolean;
  format: 'xlsx' | 'csv';
}

/** Writes the rows as .xlsx (exceljs, imported only now) or .csv and downloads the file. */
export async function exportSheet(spec: SheetSpec): Promise<void> {
  if (spec.format === 'csv') {
    saveBlob(new Blob([toCsv(spec.rows)], { type: 'text/csv;charset=utf-8' }), fileName(spec.name, 'csv'));
    return;
  }
  const { Workbook } = await import('exceljs');
  const wb = new Workbook();
  const ws = wb.addWorksheet(spec.sheet);
  spec.rows.forEach((r) => ws.addRow(r));
  const headerRows = spec.headerRows ?? 1;
  for (let i = 1; i <= headerRows; i++) {
    const row = ws.getRow(i);
    row.font = { bold: true };
    row.alignment = { vertical: 'middle', horizontal: 'center' };
    row.eachCell((cell) => {
      cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8F3EC' } };
      cell.border = { top: { style: 'thin' }, bottom: { style: 'thin' }, left: { style: 'thin' }, right: { style: 'thin' } };
    });
  }
  for (const m of spec.merges ?? []) ws.mergeCells(m.top, m.left, m.bottom, m.right);
  if (spec.autoWidth !== false) columnWidths(spec.rows).forEach((w, i) => (ws.getColumn(i + 1).width = w));
  ws.views = [{ state: 'frozen', ySplit: headerRows }];
  const buffer = await wb.xlsx.writeBuffer();
  saveBlob(new Blob([buffer], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), fileName(spec.name, 'xlsx'));
}
