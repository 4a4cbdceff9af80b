import type { TFunction } from 'i18next';
import { importCards } from '../api/chargers';
import { fieldProblems, RequestError } from '@/api/request';
import { notify } from '@/utils/notify';
import { CARD_HEADERS, cardsFromSheet, type SheetCard } from './cardSheet';

/** The spreadsheet row a server problem names (`rows[3].idTag` -> that row's number in the file). */
export function rowOfField(field: string, sent: SheetCard[]): number {
  const m = /^rows\[(\d+)\]/.exec(field);
  return m ? (sent[Number(m[1])]?.row ?? 0) : 0;
}

/**
 * Reads a workbook and imports its cards. Every problem of every row is
 * collected (the sheet's own cells, then the server's: lengths, numbers
 * repeated, missing group cards, numbers that exist already), and nothing
 * is written unless all rows are good: with problems in the sheet the
 * good rows are only checked (`checkOnly`), so the list is complete in one
 * go. Answers null when the cards were imported, else the problems to show,
 * a line each in the reader's language, by row.
 */
export async function importWorkbook(file: File, t: TFunction, zh: boolean): Promise<string[] | null> {
  const rows: unknown[][] = [];
  try {
    const mod = await import('exceljs');
    const ExcelJS = (mod as unknown as { default?: typeof mod }).default ?? mod;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await file.arrayBuffer());
    const sheet = wb.worksheets[0];
    if (!sheet) return [t('chg.card.sheet.noSheet', { name: file.name })];
    // Each row at its place (empty rows are skipped by eachRow), so messages name the rows a person sees.
    sheet.eachRow({ includeEmpty: false }, (row) => {
      rows[row.number - 1] = (row.values as unknown[]).slice(1);
    });
  } catch {
    // Not a zip, or a zip that is not a workbook: exceljs throws whatever its reader met.
    return [t('chg.card.sheet.notWorkbook', { name: file.name })];
  }
  const read = cardsFromSheet(Array.from(rows, (r) => r ?? []) as never);
  if ('missing' in read) return [t(`chg.card.sheet.missing.${read.missing}`)];
  if (read.cards.length === 0 && read.problems.length === 0) return [t('chg.card.sheet.noRows')];
  const column = (key: string) => {
    const h = CARD_HEADERS.find((x) => x.key === key);
    return h ? (zh ? h.zh : h.en) : key;
  };
  const found = read.problems.map((p) => ({ row: p.row, text: t('chg.card.sheet.problem', { row: p.row, column: column(p.column), reason: t(`chg.card.sheet.${p.reason}`, { value: p.value }) }) }));
  if (read.cards.length > 0) {
    try {
      const res = await importCards(read.cards, found.length > 0);
      if (found.length === 0) {
        notify(res.msg || t('chg.card.imported'), 'success');
        return null;
      }
    } catch (e) {
      const named = e instanceof RequestError && Number(e.code) === 400 ? fieldProblems(e.body) : [];
      // Anything else (too many rows, the network) was shown by the request layer.
      if (named.length === 0) return found.length ? found.map((p) => p.text) : [e instanceof Error ? e.message : String(e)];
      found.push(...named.map((p) => ({ row: rowOfField(p.field, read.cards), text: zh ? p.zh : p.en })));
    }
  }
  return found.sort((a, b) => a.row - b.row).map((p) => p.text);
}
