import { describe, expect, it } from 'vitest';
import chargers from '@/i18n/locales/chargers';
import { CARD_STATUS_WORDS, cardsFromSheet, expiryOf, statusOf } from './cardSheet';

describe('card sheets', () => {
  it('reads zh or en headers, skips blank rows, defaults the status', () => {
    const out = cardsFromSheet([
      ['卡号', 'holder', '车牌', '状态', '有效期', '上级卡号'],
      ['C001', '张三', '京A1', 'Blocked', '2030-01-31', 'FLEET'],
      [null, null, null, null, null, null],
      ['C002', '', '', '', '', ''],
    ]);
    expect(out).toEqual({
      cards: [
        { idTag: 'C001', holder: '张三', plate: '京A1', status: 'Blocked', expiresAt: expiryOf('2030-01-31'), parentIdTag: 'FLEET' },
        { idTag: 'C002', holder: '', plate: '', status: 'Accepted', expiresAt: null, parentIdTag: null },
      ],
    });
  });

  it('names the row of a bad status or expiry', () => {
    expect(cardsFromSheet([['idTag', 'status'], ['A', 'Lost']])).toEqual({ problem: 'row 2: status Lost' });
    expect(cardsFromSheet([['idTag', 'expiry'], ['A', 'soon']])).toEqual({ problem: 'row 2: expiry' });
    expect(cardsFromSheet([['holder'], ['x']])).toEqual({ problem: 'no 卡号 / idTag column' });
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

  it('an expiry day ends at 23:59:59 China time', () => {
    expect(expiryOf('2030-01-31')).toBe(Date.UTC(2030, 0, 31, 15, 59, 59) / 1000);
  });
});
