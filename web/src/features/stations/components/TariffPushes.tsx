import { Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { Answer } from '@/api/types';
import { commandDone, useCommand } from '../api/chargers';
import { answerWords } from './commandWords';

/** One YKC pile a saved tariff went to, with its command. */
export type TariffPush = Answer<'/partnerapi/tariff/doEdit', 'post'>['pushed'][number];

const useStyles = makeStyles({
  list: { margin: '4px 0 0', paddingLeft: '18px', color: tokens.colorNeutralForeground2 },
});

/**
 * The YKC piles a saved tariff was pushed to (its model set, 0x58), each
 * followed until its pile answers: staff see which piles bill with the
 * new prices and which did not take them (offline, refused, no answer).
 */
export function TariffPushes({ pushed }: { pushed: TariffPush[] }) {
  const { t } = useTranslation();
  const styles = useStyles();
  if (!pushed.length) return null;
  return (
    <div data-testid="tariff-pushes">
      <Caption1>{t('ykc.push.title', { count: pushed.length })}</Caption1>
      <ul className={styles.list}>
        {pushed.map((p) => (
          <PushRow key={p.command.id} push={p} />
        ))}
      </ul>
    </div>
  );
}

function PushRow({ push }: { push: TariffPush }) {
  const { t } = useTranslation();
  const { data } = useCommand(push.command.id);
  const c = data ?? push.command;
  const words = commandDone(c) ? answerWords(t, c).words : t('ykc.push.waiting');
  return (
    <li data-testid="tariff-push" data-status={c.status}>
      <span translate="no">{push.pileCode}</span>
      {'：'}
      {words}
    </li>
  );
}
