import { makeStyles, tokens } from '@fluentui/react-components';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Command } from '../api/chargers';

/**
 * A charger's answers in the reader's words. The OCPP names (actions,
 * statuses, error codes) are the protocol's; people read a translation and
 * find the name in the tooltip, and the raw JSON behind a disclosure.
 */

/**
 * An action's name in the reader's language: an OCPP action's, else a YKC
 * frame's as the catalogue names it (`ykc.frame`), else as sent.
 */
export const actionName = (t: TFunction, action: string): string => t(`chg.action.${action}`, { defaultValue: t(`ykc.frame.${action}`, { defaultValue: action }) });

/** An OCPP CALLERROR code (or the link's own Timeout / Offline / ConnectionClosed) in words. */
export const errorName = (t: TFunction, code: string): string => t(`chg.callError.${code}`, { defaultValue: code });

/** A connector of a charger as people say it: "2号枪", or the whole charger for 0. */
export const connectorWords = (t: TFunction, n: number | null | undefined): string => (n ? t('chg.words.connectorNo', { n }) : t('chg.words.wholeCharger'));

/** What a command's answer says, in a line of words; `data` is a value from the charger to show as it is (a file name). */
export function answerWords(t: TFunction, c: Pick<Command, 'status' | 'error' | 'response' | 'sentAt' | 'answeredAt'>): { words: string; data?: string } {
  // How long it waited for the answer that never came, as measured.
  if (c.status === 'timeout') return { words: c.sentAt != null && c.answeredAt != null ? t('chg.words.timeout', { secs: c.answeredAt - c.sentAt }) : t('chg.callError.Timeout') };
  // Offline before sending (never reached the charger) or after (the connection went while it waited).
  if (c.status === 'offline') return { words: t(c.sentAt != null ? 'chg.words.offlineSent' : 'chg.words.offline') };
  if (c.status === 'connectionClosed') return { words: t('chg.words.connectionClosed') };
  if (c.error) return { words: errorName(t, c.error.code) };
  const r = c.response;
  if (!r) return { words: '' };
  // A YKC pile's real-time data, asked for (0x12, answered by 0x13): its figures.
  if (typeof r.voltageV === 'number' && typeof r.energyWh === 'number') {
    return { words: t('ykc.answer.realtime', { v: r.voltageV, a: r.currentA, soc: r.soc, kwh: (r.energyWh / 1000).toFixed(2) }) };
  }
  // Which of the cards asked about a YKC pile holds for offline starts (0x47).
  const cards = r.cards as Array<{ held?: boolean }> | undefined;
  if (Array.isArray(cards) && cards.every((x) => typeof x.held === 'boolean')) return { words: t('ykc.answer.cardsHeld', { held: cards.filter((x) => x.held).length, count: cards.length }) };
  if (typeof r.status === 'string') return { words: t(`chg.answer.${r.status}`, { defaultValue: r.status }) };
  if (Array.isArray(r.configurationKey)) return { words: t('chg.words.keys', { count: (r.configurationKey as unknown[]).length }) };
  // The device model's answers (OCPP 2.0.1): one result per variable.
  const results = (r.getVariableResult ?? r.setVariableResult) as Array<{ attributeStatus?: string }> | undefined;
  if (Array.isArray(results)) return { words: t('chg.words.variables', { accepted: results.filter((x) => x.attributeStatus === 'Accepted').length, count: results.length }) };
  // Monitors set or cleared (OCPP 2.0.1): one result per monitor.
  const monitors = (r.setMonitoringResult ?? r.clearMonitoringResult) as Array<{ status?: string }> | undefined;
  if (Array.isArray(monitors)) return { words: t('chg.words.monitors', { accepted: monitors.filter((x) => x.status === 'Accepted').length, count: monitors.length }) };
  if (typeof r.listVersion === 'number') return { words: t('chg.words.listVersion', { v: r.listVersion }) };
  if (typeof r.fileName === 'string') return { words: t('chg.words.fileName'), data: r.fileName };
  if (r.chargingSchedule) return { words: t('chg.words.schedule') };
  if (Object.keys(r).length === 0) return { words: t('chg.words.acknowledged') };
  return { words: t('chg.words.other') };
}

const useStyles = makeStyles({
  raw: { fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground3, cursor: 'pointer' },
  json: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: '4px 0 0', maxHeight: '200px', overflow: 'auto' },
});

/** The answer of a command: its words, and what the charger sent as JSON behind a disclosure. */
export function AnswerCell({ c }: { c: Command }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const { words, data } = answerWords(t, c);
  const raw = c.error ? c.error : c.response;
  return (
    <div data-testid="command-answer">
      <span title={c.error?.code ?? (typeof c.response?.status === 'string' ? c.response.status : undefined)}>{words}</span>
      {data && <span translate="no">{data}</span>}
      {raw && (c.status === 'answered' || c.status === 'callError') && (
        <details>
          <summary className={styles.raw}>{t('chg.words.raw')}</summary>
          <pre className={styles.json} translate="no">
            {JSON.stringify(raw, null, 2)}
          </pre>
        </details>
      )}
    </div>
  );
}
