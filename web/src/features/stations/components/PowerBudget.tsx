import { Badge, Button, Caption1, Card, Field, Input, makeStyles, Subtitle2, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageForField } from '@/api/request';
import { budgetProblem, setPowerBudget, usePowerBudget, type PileShare, type ShareState } from '../api/budget';
import { confirm } from '@/components/Confirm';
import { DATA_SLOT, DataText, WithData } from '@/components/data/DataText';
import { zonedDateTime } from '@/components/data/format';
import { usePermission } from '@/components/Permission';
import { notify } from '@/utils/notify';
import { answerWords } from './commandWords';

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '10px' },
  row: { display: 'flex', flexWrap: 'wrap', gap: '8px 16px', alignItems: 'flex-end' },
  muted: { color: tokens.colorNeutralForeground3 },
  input: { width: '160px' },
  answer: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: '8px' },
});

const STATE_COLOUR: Record<ShareState, 'informative' | 'success' | 'danger' | 'warning'> = {
  pending: 'informative',
  done: 'success',
  rejected: 'danger',
  offline: 'warning',
};

/** A share in kW as the page shows it (the server sends W). */
const kw = (w: number) => `${Number((w / 1000).toFixed(4))} kW`;

/**
 * The station's power budget: the field to set or remove it (write:system)
 * and, per pile, the share sent to its charger and the charger's answer.
 */
export function PowerBudget({ stationId }: { stationId: string }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const canWrite = usePermission(['write:system']);
  const { data, mutate } = usePowerBudget(stationId);
  const [text, setText] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The server's refusal of the typed budget, shown beside the field until it is edited.
  const [refused, setRefused] = useState<string | undefined>(undefined);
  if (!data) return null;
  const value = text ?? (data.maxPowerKw == null ? '' : String(data.maxPowerKw));
  const problem = text === null ? null : budgetProblem(value);
  const message = problem ? t(`chg.budget.${problem}`) : refused;

  const save = async (maxPowerKw: number | null) => {
    setBusy(true);
    try {
      const a = await setPowerBudget({ stationId, version: data.version, maxPowerKw });
      notify(a.msg, 'success', 6000);
      setText(null);
      await mutate(a.data);
    } catch (err) {
      // A refused budget is said beside the field; anything else is shown by
      // the request layer. A 409 (saved by someone else meanwhile): the card
      // reads the budget again, keeping what was typed.
      setRefused(messageForField(err, 'maxPowerKw', i18n.language.startsWith('zh')));
      void mutate();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className={styles.card} data-testid="power-budget">
      <Subtitle2 as="h3">{t('chg.budget.title')}</Subtitle2>
      <Caption1 className={styles.muted}>{t('chg.budget.hint', { id: data.profileId })}</Caption1>
      <div className={styles.row}>
        <Text>
          {t('chg.budget.current')}: <b data-testid="budget-current">{data.maxPowerKw == null ? t('chg.budget.none') : `${data.maxPowerKw} kW`}</b>
        </Text>
        {data.updatedAt != null && data.updatedBy && (
          <Caption1 className={styles.muted}>
            <WithData sentence={t('chg.budget.updated', { by: DATA_SLOT, time: zonedDateTime(data.updatedAt) })} data={data.updatedBy} />
          </Caption1>
        )}
      </div>
      {canWrite && (
        <div className={styles.row}>
          <Field label={t('chg.budget.field')} validationMessage={message} validationState={message ? 'error' : 'none'} data-field="maxPowerKw">
            <Input
              className={styles.input}
              inputMode="decimal"
              value={value}
              onChange={(_, d) => {
                setText(d.value);
                setRefused(undefined);
              }}
              data-testid="budget-input"
            />
          </Field>
          <Button appearance="primary" disabled={busy || text === null || problem !== null} onClick={() => void save(Number(value))} data-testid="budget-save">
            {t('chg.budget.save')}
          </Button>
          {data.maxPowerKw != null && (
            <Button disabled={busy} onClick={async () => (await confirm(t('chg.budget.confirmRemove'))) && void save(null)} data-testid="budget-remove">
              {t('chg.budget.remove')}
            </Button>
          )}
        </div>
      )}
      {data.piles.length > 0 && (
        <Table size="small" aria-label={t('chg.budget.title')}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('chg.budget.pile')}</TableHeaderCell>
              <TableHeaderCell>{t('chg.budget.rated')}</TableHeaderCell>
              <TableHeaderCell>{t('chg.budget.link')}</TableHeaderCell>
              <TableHeaderCell>{t('chg.budget.share')}</TableHeaderCell>
              <TableHeaderCell>{t('chg.budget.state')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {data.piles.map((p) => (
              <ShareRow key={p.pileId} p={p} />
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}

function ShareRow({ p }: { p: PileShare }) {
  const { t } = useTranslation();
  const styles = useStyles();
  return (
    <TableRow data-testid="budget-row" data-pile={p.code}>
      <TableCell>
        <DataText>{p.code}</DataText>
      </TableCell>
      <TableCell>{p.ratedPowerKw} kW</TableCell>
      <TableCell>
        <Badge appearance="outline" color={p.connected ? 'success' : 'subtle'}>
          {p.connected ? t('chg.budget.connected') : t('chg.budget.disconnected')}
        </Badge>
      </TableCell>
      <TableCell data-testid="budget-share">{p.limitW != null ? kw(p.limitW) : p.command ? t('chg.budget.cleared') : '—'}</TableCell>
      <TableCell className={styles.answer}>
        {p.state && (
          <Badge appearance="tint" color={STATE_COLOUR[p.state]} data-testid="budget-state">
            {t(`chg.budget.states.${p.state}`)}
          </Badge>
        )}
        {p.command && p.state !== 'pending' && (
          // The charger's answer in words; the OCPP status in the tooltip.
          <Caption1 title={p.command.error?.code ?? (typeof p.command.response?.status === 'string' ? p.command.response.status : undefined)}>{answerWords(t, p.command).words}</Caption1>
        )}
      </TableCell>
    </TableRow>
  );
}
