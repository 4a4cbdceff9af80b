import type { CardInput, CardPayment, CardStatus, TokenType } from '../api/chargers';
import { CARD_STATUSES, TOKEN_TYPES } from '../api/chargers';
import { fromZoned } from '@/components/data/format';

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
  { key: 'payment', zh: '付费方式', en: 'payment' },
  { key: 'tokenType', zh: '卡类型', en: 'token type' },
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
/** A payment arrangement as a sheet may write it (zh or en). */
const PAYMENTS: Record<string, CardPayment> = { 后付费: 'postpaid', 预付费: 'prepaid', postpaid: 'postpaid', prepaid: 'prepaid' };
/** A token type as a sheet writes it: its OCPP name, any letter case; empty is any. */
export const tokenTypeOf = (cell: string): TokenType | null | undefined => (cell ? TOKEN_TYPES.find((k) => k.toLowerCase() === cell.toLowerCase()) : null);

type Cell = string | number | Date | null | undefined | { text?: string; result?: unknown };

function text(v: Cell): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') return String(v.text ?? v.result ?? '');
  return String(v).trim();
}

/**
 * Unix seconds of an expiry cell: a date, or text "YYYY-MM-DD", each the
 * end of that day (23:59:59) in the operator's time zone; null when empty.
 */
export function expiryOf(v: Cell): number | null | 'bad' {
  // A date cell is that calendar day (the workbook stores it as UTC midnight).
  const s = v instanceof Date ? v.toISOString().slice(0, 10) : text(v);
  if (!s) return null;
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  return (m && fromZoned(`${m[1]}-${m[2]}-${m[3]}`, true)) ?? 'bad';
}

/** A card read from a sheet, with its row number in the file (for the server's messages). */
export type SheetCard = CardInput & { row: number };

/** What is wrong with a cell: its row in the file, its column, why (a key of `chg.card.sheet.*`) and what it held. */
export interface SheetProblem {
  row: number;
  column: keyof CardInput;
  reason: 'status' | 'expiry' | 'payment' | 'tokenType';
  value: string;
}

/**
 * Rows of a sheet (first row = headers) as card inputs, with every
 * problem of every row; `missing` when the sheet cannot be read as cards
 * at all (empty, or without a card number column).
 */
export function cardsFromSheet(rows: Cell[][]): { cards: SheetCard[]; problems: SheetProblem[] } | { missing: 'rows' | 'idTag' } {
  const [head, ...body] = rows;
  if (!head) return { missing: 'rows' };
  const col = (k: keyof CardInput) => {
    const h = CARD_HEADERS.find((x) => x.key === k)!;
    return head.findIndex((c) => [h.zh, h.en].includes(text(c)));
  };
  const idx = Object.fromEntries(CARD_HEADERS.map((h) => [h.key, col(h.key)])) as Record<keyof CardInput, number>;
  if (idx.idTag < 0) return { missing: 'idTag' };
  const cards: SheetCard[] = [];
  const problems: SheetProblem[] = [];
  for (const [i, r] of body.entries()) {
    const row = i + 2;
    const get = (k: keyof CardInput) => (idx[k] >= 0 ? r[idx[k]] : undefined);
    const idTag = text(get('idTag'));
    if (!idTag && r.every((c) => !text(c))) continue;
    const statusText = text(get('status')) || 'Accepted';
    const status = statusOf(statusText);
    if (!status) problems.push({ row, column: 'status', reason: 'status', value: statusText });
    const expiresAt = expiryOf(get('expiresAt'));
    if (expiresAt === 'bad') problems.push({ row, column: 'expiresAt', reason: 'expiry', value: text(get('expiresAt')) });
    const paymentText = text(get('payment'));
    const payment = paymentText ? PAYMENTS[paymentText.toLowerCase()] ?? PAYMENTS[paymentText] : 'postpaid';
    if (!payment) problems.push({ row, column: 'payment', reason: 'payment', value: paymentText });
    const tokenTypeText = text(get('tokenType'));
    const tokenType = tokenTypeOf(tokenTypeText);
    if (tokenType === undefined) problems.push({ row, column: 'tokenType', reason: 'tokenType', value: tokenTypeText });
    if (status && expiresAt !== 'bad' && payment && tokenType !== undefined) {
      cards.push({ idTag, holder: text(get('holder')), plate: text(get('plate')), status: status as CardStatus, expiresAt, parentIdTag: text(get('parentIdTag')) || null, payment, tokenType, row });
    }
  }
  return { cards, problems };
}
