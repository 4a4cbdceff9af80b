import type { CardInput, CardStatus } from '@/api/chargers';
import { CARD_STATUSES } from '@/api/chargers';

/**
 * Charging cards to and from a spreadsheet: the header names (zh or en)
 * and the row mapping, pure so they are tested without a workbook.
 */
export const CARD_HEADERS: { key: keyof CardInput; zh: string; en: string }[] = [
  { key: 'idTag', zh: '卡号', en: 'idTag' },
  { key: 'holder', zh: '持卡人', en: 'holder' },
  { key: 'plate', zh: '车牌', en: 'plate' },
  { key: 'status', zh: '状态', en: 'status' },
  { key: 'expiresAt', zh: '有效期', en: 'expiry' },
  { key: 'parentIdTag', zh: '上级卡号', en: 'parent' },
];

type Cell = string | number | Date | null | undefined | { text?: string; result?: unknown };

function text(v: Cell): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') return String(v.text ?? v.result ?? '');
  return String(v).trim();
}

/** Unix seconds of an expiry cell: a date, or text "YYYY-MM-DD" (end of that China day); null when empty. */
export function expiryOf(v: Cell): number | null | 'bad' {
  if (v instanceof Date) return Math.floor(v.getTime() / 1000);
  const s = text(v);
  if (!s) return null;
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(s);
  if (!m) return 'bad';
  // 23:59:59 China time of that day.
  return Math.floor(Date.UTC(+m[1], +m[2] - 1, +m[3], 23, 59, 59) / 1000) - 8 * 3600;
}

/** Rows of a sheet (first row = headers) as card inputs, or the first problem found. */
export function cardsFromSheet(rows: Cell[][]): { cards: CardInput[] } | { problem: string } {
  const [head, ...body] = rows;
  if (!head) return { problem: 'empty sheet' };
  const col = (k: keyof CardInput) => {
    const h = CARD_HEADERS.find((x) => x.key === k)!;
    return head.findIndex((c) => [h.zh, h.en].includes(text(c)));
  };
  const idx = Object.fromEntries(CARD_HEADERS.map((h) => [h.key, col(h.key)])) as Record<keyof CardInput, number>;
  if (idx.idTag < 0) return { problem: 'no 卡号 / idTag column' };
  const cards: CardInput[] = [];
  for (const [i, r] of body.entries()) {
    const get = (k: keyof CardInput) => (idx[k] >= 0 ? r[idx[k]] : undefined);
    const idTag = text(get('idTag'));
    if (!idTag && r.every((c) => !text(c))) continue;
    const status = (text(get('status')) || 'Accepted') as CardStatus;
    if (!CARD_STATUSES.includes(status)) return { problem: `row ${i + 2}: status ${status}` };
    const expiresAt = expiryOf(get('expiresAt'));
    if (expiresAt === 'bad') return { problem: `row ${i + 2}: expiry` };
    cards.push({ idTag, holder: text(get('holder')), plate: text(get('plate')), status, expiresAt, parentIdTag: text(get('parentIdTag')) || null });
  }
  return { cards };
}
