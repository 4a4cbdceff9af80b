import { describe, expect, it } from 'vitest';
import i18n from '@/i18n';
import { loadFeatureStrings } from '@/pages/featureStrings';
import { actionName, answerWords } from './commandWords';

describe('a command answer in words', () => {
  it("counts a 2.0.1 device model answer's accepted variables", async () => {
    await i18n.changeLanguage('en');
    const answered = (response: Record<string, unknown>) => answerWords(i18n.t.bind(i18n), { status: 'answered', error: null, response, sentAt: 1, answeredAt: 2 }).words;
    expect(answered({ setVariableResult: [{ attributeStatus: 'Accepted' }, { attributeStatus: 'Rejected' }] })).toBe('1 of 2 variables accepted');
    expect(answered({ getVariableResult: [{ attributeStatus: 'Accepted', attributeValue: '60' }] })).toBe('1 of 1 variables accepted');
    expect(answered({ status: 'Accepted' })).toBe(i18n.t('chg.answer.Accepted'));
  });

  it('names a YKC command by its frame when OCPP has no such action', async () => {
    await loadFeatureStrings();
    await i18n.changeLanguage('zh');
    const t = i18n.t.bind(i18n);
    expect(actionName(t, 'Reboot')).toBe('远程重启');
    expect(actionName(t, 'RemoteStart')).toBe('运营平台远程控制启机');
    expect(actionName(t, 'NoSuchThing')).toBe('NoSuchThing');
    await i18n.changeLanguage('en');
    expect(actionName(i18n.t.bind(i18n), 'Reboot')).toBe('remote reboot');
  });

  it("reads a YKC pile's real-time data and its offline card answer", async () => {
    await loadFeatureStrings();
    await i18n.changeLanguage('en');
    const answered = (response: Record<string, unknown>) => answerWords(i18n.t.bind(i18n), { status: 'answered', error: null, response, sentAt: 1, answeredAt: 2 }).words;
    expect(answered({ status: 'Accepted', gun: 1, voltageV: 380.5, currentA: 60, soc: 45, energyWh: 12_345, amountFen: 1_820 })).toBe('Real-time data: 380.5 V · 60 A · SoC 45% · 12.35 kWh so far');
    expect(answered({ status: 'Accepted', cards: [{ idTag: 'D14B0A54', held: true }, { idTag: 'AB', held: false }] })).toBe('The pile holds 1 of 2 card(s)');
    await i18n.changeLanguage('zh');
    expect(answerWords(i18n.t.bind(i18n), { status: 'answered', error: null, response: { status: 'Accepted', cards: [{ idTag: 'AB', held: true }] }, sentAt: 1, answeredAt: 2 }).words).toBe('充电桩存有 1/1 张卡');
  });
});
