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

/**
 * A card status as a sheet shows it: in the reader's language (the export
 * writes the words, as the page shows them); an import reads the words of
 * either language or the status's own name.
 */
export const CARD_STATUS_WORDS: Record<CardStatus, { zh: string; en: string }> = {
  Accepted: { zh: '有效', en: 'Accepted' },
  Blocked: { zh: '已冻结', en: 'Blocked' },
  Expired: { zh: '已过期', en: 'Expired' },
  Invalid: { zh: '无效', en: 'Invalid' },
};

/** The status a sheet's cell names (its name, or its words in zh or en), if any. */
export function statusOf(cell: string): CardStatus | undefined {
  return CARD_STATUSES.find((s) => s === cell || CARD_STATUS_WORDS[s].zh === cell || CARD_STATUS_WORDS[s].en === cell);
}

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
    const written = text(get('status'));
    const status = written ? statusOf(written) : 'Accepted';
    if (!status) return { problem: `row ${i + 2}: status ${written}` };
    const expiresAt = expiryOf(get('expiresAt'));
    if (expiresAt === 'bad') return { problem: `row ${i + 2}: expiry` };
    cards.push({ idTag, holder: text(get('holder')), plate: text(get('plate')), status, expiresAt, parentIdTag: text(get('parentIdTag')) || null });
  }
  return { cards };
}
