import { describe, expect, it } from 'vitest';
import i18n from '@/i18n';
import { answerWords } from './commandWords';

describe('a command answer in words', () => {
  it("counts a 2.0.1 device model answer's accepted variables", async () => {
    await i18n.changeLanguage('en');
    const answered = (response: Record<string, unknown>) => answerWords(i18n.t.bind(i18n), { status: 'answered', error: null, response, sentAt: 1, answeredAt: 2 }).words;
    expect(answered({ setVariableResult: [{ attributeStatus: 'Accepted' }, { attributeStatus: 'Rejected' }] })).toBe('1 of 2 variables accepted');
    expect(answered({ getVariableResult: [{ attributeStatus: 'Accepted', attributeValue: '60' }] })).toBe('1 of 1 variables accepted');
    expect(answered({ status: 'Accepted' })).toBe(i18n.t('chg.answer.Accepted'));
  });
});
