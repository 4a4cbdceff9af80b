import { describe, expect, it } from 'vitest';
import chargers from '../locales/chargers';
import { CARD_STATUS_WORDS, cardsFromSheet, expiryOf, statusOf } from './cardSheet';
import { rowOfField } from './cardImport';
import { setOperatorTimeZone } from '@/components/data/format';

describe('card sheets', () => {
  it('reads zh or en headers, skips blank rows, defaults the status and payment, keeps each row number', () => {
    const out = cardsFromSheet([
      ['卡号', 'holder', '车牌', '状态', '有效期', '上级卡号', '付费方式'],
      ['C001', '张三', '京A1', 'Blocked', '2030-01-31', 'FLEET', '预付费'],
      [null, null, null, null, null, null, null],
      ['C002', '', '', '', '', '', ''],
    ]);
    expect(out).toEqual({
      cards: [
        { idTag: 'C001', holder: '张三', plate: '京A1', status: 'Blocked', expiresAt: expiryOf('2030-01-31'), parentIdTag: 'FLEET', payment: 'prepaid', tokenType: null, row: 2 },
        { idTag: 'C002', holder: '', plate: '', status: 'Accepted', expiresAt: null, parentIdTag: null, payment: 'postpaid', tokenType: null, row: 4 },
      ],
      problems: [],
    });
  });

  it('names every bad cell with its row and column, not only the first', () => {
    const out = cardsFromSheet([
      ['idTag', 'status', 'expiry', 'payment', '卡类型'],
      ['A', 'Lost', 'soon', '', ''],
      ['B', 'Accepted', '', 'cash', 'RFID'],
      ['C', 'Accepted', '', 'prepaid', 'emaid'],
    ]);
    expect(out).toEqual({
      cards: [{ idTag: 'C', holder: '', plate: '', status: 'Accepted', expiresAt: null, parentIdTag: null, payment: 'prepaid', tokenType: 'eMAID', row: 4 }],
      problems: [
        { row: 2, column: 'status', reason: 'status', value: 'Lost' },
        { row: 2, column: 'expiresAt', reason: 'expiry', value: 'soon' },
        { row: 3, column: 'payment', reason: 'payment', value: 'cash' },
        { row: 3, column: 'tokenType', reason: 'tokenType', value: 'RFID' },
      ],
    });
    expect(cardsFromSheet([['holder'], ['x']])).toEqual({ missing: 'idTag' });
    expect(cardsFromSheet([])).toEqual({ missing: 'rows' });
  });

  it('reads the status in the words the export writes, either language', () => {
    const out = cardsFromSheet([
      ['卡号', '状态'],
      ['C1', '已冻结'],
      ['C2', 'Expired'],
      ['C3', '有效'],
    ]);
    expect('cards' in out && out.cards.map((c) => c.status)).toEqual(['Blocked', 'Expired', 'Accepted']);
    expect(statusOf('无效')).toBe('Invalid');
    expect(statusOf('Lost')).toBeUndefined();
  });

  it('writes a status in the words the card page shows', () => {
    for (const [status, words] of Object.entries(CARD_STATUS_WORDS)) {
      expect(words.zh).toBe(chargers.zh.chg.cardStatus[status as keyof typeof CARD_STATUS_WORDS]);
      expect(words.en).toBe(chargers.en.chg.cardStatus[status as keyof typeof CARD_STATUS_WORDS]);
    }
  });

  it("a server problem's row is the sheet's row of the card it names", () => {
    const sent = [{ row: 2 }, { row: 7 }] as never;
    expect(rowOfField('rows[1].idTag', sent)).toBe(7);
    expect(rowOfField('rows', sent)).toBe(0);
  });

  it("an expiry day ends at 23:59:59 in the operator's time zone", () => {
    expect(expiryOf('2030-01-31')).toBe(Date.UTC(2030, 0, 31, 15, 59, 59) / 1000);
    expect(expiryOf(new Date(Date.UTC(2030, 0, 31)))).toBe(Date.UTC(2030, 0, 31, 15, 59, 59) / 1000);
    setOperatorTimeZone('Europe/London');
    try {
      expect(expiryOf('2030-07-01')).toBe(Date.UTC(2030, 6, 1, 22, 59, 59) / 1000);
    } finally {
      setOperatorTimeZone('Asia/Shanghai');
    }
    expect(expiryOf('2030-02-30')).toBe('bad');
  });
});
