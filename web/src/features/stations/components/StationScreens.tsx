import { Badge, Button, Caption1, Card, Subtitle2, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, makeStyles, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Pile } from '../api/assets';
import { sendCommand, useCommand } from '../api/chargers';
import { COMMAND_COLOUR, OPERATIONS } from '../model/operations';
import { postToEach, screenTargets, type PileMessage } from '../model/stationMessage';
import { AnswerCell } from './commandWords';
import { OperationDialog } from './OperationDialog';

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '10px' },
  row: { display: 'flex', flexWrap: 'wrap', gap: '8px', alignItems: 'center' },
  muted: { color: tokens.colorNeutralForeground3 },
});

const SET_DISPLAY_MESSAGE = OPERATIONS.find((o) => o.key === 'setDisplayMessage')!;

/** One pile's SetDisplayMessage, followed until its station answers. */
function PileMessageRow({ sent }: { sent: PileMessage }) {
  const { t } = useTranslation();
  const { data } = useCommand(sent.command?.id ?? null);
  const c = data ?? sent.command;
  return (
    <TableRow data-testid="screen-message-row">
      <TableCell translate="no">{sent.code}</TableCell>
      <TableCell>{c ? <Badge appearance="tint" color={COMMAND_COLOUR[c.status]}>{t(`chg.cmd.status.${c.status}`)}</Badge> : <Badge appearance="tint" color="danger">{t('chg.cmd.status.callError')}</Badge>}</TableCell>
      <TableCell>{c ? <AnswerCell c={c} /> : sent.problem}</TableCell>
    </TableRow>
  );
}

/**
 * A message for every screen of a station (a price notice, a closure):
 * posted to each of its OCPP 2.0.1 piles, then each pile's command shows
 * whether that charger took it; the 1.6 chargers are named as not taking
 * screen messages.
 */
export function StationScreens({ stationName, piles }: { stationName: string; piles: Pile[] }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState<PileMessage[] | null>(null);
  const { screens, without } = screenTargets(piles);
  const submit = async (body: Record<string, unknown>) => {
    setSent(await postToEach(screens, body, (pileId, b, first) => sendCommand(SET_DISPLAY_MESSAGE.path, { pileId, ...b }, { fieldErrors: first })));
  };
  // A station of 1.6 chargers only has no screens to post to.
  if (screens.length === 0) return null;
  return (
    <Card className={styles.card} data-testid="station-screens">
      <div className={styles.row}>
        <Subtitle2 as="h3">{t('chg.screens.title')}</Subtitle2>
        <Button size="small" onClick={() => setOpen(true)} data-testid="station-screens-post">
          {t('chg.screens.button')}
        </Button>
        {sent && (
          <Button size="small" appearance="subtle" onClick={() => setSent(null)}>
            {t('chg.screens.close')}
          </Button>
        )}
      </div>
      <Caption1 className={styles.muted}>{t('chg.screens.hint')}</Caption1>
      {sent && (
        <Table size="extra-small" aria-label={t('chg.screens.title')}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('chg.screens.pile')}</TableHeaderCell>
              <TableHeaderCell>{t('chg.screens.state')}</TableHeaderCell>
              <TableHeaderCell>{t('chg.screens.answer')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {sent.map((s) => (
              <PileMessageRow key={s.pileId} sent={s} />
            ))}
          </TableBody>
        </Table>
      )}
      {sent && without.length > 0 && (
        <Caption1 className={styles.muted} data-testid="station-screens-v16">
          {t('chg.screens.v16', { count: without.length, codes: without.map((p) => p.code).join(', ') })}
        </Caption1>
      )}
      {open && <OperationDialog pile={{ id: '', code: stationName, connectors: [] }} op={SET_DISPLAY_MESSAGE} submit={submit} onClose={() => setOpen(false)} />}
    </Card>
  );
}
