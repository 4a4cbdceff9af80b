import {
  Badge,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Pile } from '@/api/assets';
import { chargerPasswordProblem, chargerUrl, sendCommand, setPilePassword, useCommands, useReservations, type Command } from '@/api/chargers';
import { confirm } from '@/components/Confirm';
import { zonedDateTime } from '@/components/data/format';
import { usePermission } from '@/components/Permission';
import { LazyChart } from '@/components/LazyChart';
import { OperationDialog } from './OperationDialog';
import { COMMAND_COLOUR, OPERATIONS, schedulePoints, type Operation } from './operations';
import { notify } from '@/utils/notify';

const useStyles = makeStyles({
  panel: { display: 'flex', flexDirection: 'column', rowGap: '6px', padding: '8px', backgroundColor: tokens.colorNeutralBackground2, borderRadius: tokens.borderRadiusMedium },
  row: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '6px 12px' },
  muted: { color: tokens.colorNeutralForeground3 },
  mono: { fontFamily: tokens.fontFamilyMonospace },
  chart: { width: '640px', maxWidth: '100%', height: '300px' },
  secret: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase400, padding: '8px', backgroundColor: tokens.colorNeutralBackground3, wordBreak: 'break-all' },
});

/** What a command's answer says, in a line. */
function answerText(c: Command): string {
  if (c.error) return `${c.error.code}: ${c.error.description}`;
  const r = c.response;
  if (!r) return '';
  if (typeof r.status === 'string') return r.status;
  if (Array.isArray(r.configurationKey)) return `${(r.configurationKey as unknown[]).length} keys`;
  return JSON.stringify(r);
}

/** When a command asks the charger to act later (a firmware download, a reservation's end), in the operator's time zone. */
function commandWhen(c: Command, t: TFunction): string {
  const iso = c.action === 'UpdateFirmware' ? c.payload.retrieveDate : c.action === 'ReserveNow' ? c.payload.expiryDate : undefined;
  const ms = typeof iso === 'string' ? Date.parse(iso) : NaN;
  if (Number.isNaN(ms)) return '';
  return ` · ${t(c.action === 'UpdateFirmware' ? 'chg.cmd.retrieveAt' : 'chg.cmd.until', { time: zonedDateTime(ms / 1000) })}`;
}

/**
 * A pile's charger link on the station page: connected or not and since
 * when, protocol, what the charger reported at boot, the URL to configure,
 * its password (set / rotate, shown once), the message log, and the
 * remote operations with each one's state until the charger answers.
 */
export function ChargerPanel({ pile, onChanged }: { pile: Pile; onChanged: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const canWrite = usePermission(['write:system']);
  const canConfigure = usePermission(['configure:charger']);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [config, setConfig] = useState<Command | null>(null);
  const [operation, setOperation] = useState<Operation | null>(null);
  const [schedule, setSchedule] = useState<Command | null>(null);
  // Polled while a command waits for the charger's answer.
  const commands = useCommands(pile.id, canWrite);
  const reservations = useReservations(pile.id, commands.data?.list[0], canWrite);
  const link = pile.link;
  const url = chargerUrl(pile.code);

  const run = async (path: string, body: Record<string, unknown>) => {
    try {
      const c = await sendCommand(path, { pileId: pile.id, ...body });
      notify(t(`chg.cmd.status.${c.status}`), c.status === 'offline' ? 'warning' : 'info');
      await commands.mutate();
    } catch {
      // shown by the request layer
    }
  };

  const latestConfig = commands.data?.list.find((c) => c.action === 'GetConfiguration' && c.status === 'answered');
  const latestSchedule = commands.data?.list.find((c) => c.action === 'GetCompositeSchedule' && c.status === 'answered' && c.response?.chargingSchedule);

  return (
    <div className={styles.panel} data-testid="charger-panel">
      <div className={styles.row}>
        <Text weight="semibold">{t('chg.link.title')}</Text>
        <Badge appearance="tint" color={link?.connected ? 'success' : 'subtle'} data-testid="link-state">
          {link?.connected ? t('chg.link.connected') : link ? t('chg.link.disconnected') : t('chg.link.never')}
        </Badge>
        {link && (
          <Caption1 className={styles.muted}>
            {t('chg.link.since', { time: zonedDateTime((link.connected ? link.connectedAt : link.disconnectedAt) ?? link.connectedAt) })}
          </Caption1>
        )}
        {link?.protocol && (
          <Caption1>
            {t('chg.link.protocol')}: {link.protocol}
          </Caption1>
        )}
        {link?.lastMessageAt && (
          <Caption1>
            {t('chg.link.lastMessage')}: {zonedDateTime(link.lastMessageAt)}
          </Caption1>
        )}
        {link?.boot && (
          <Caption1 data-testid="link-boot">
            {t('chg.link.boot')}: {[link.boot.vendor, link.boot.model, link.boot.serialNumber, link.boot.firmwareVersion].filter(Boolean).join(' · ')}
          </Caption1>
        )}
        {link?.chargerStatus && (
          <Caption1>
            {t('chg.link.chargerStatus')}: {link.chargerStatus}
            {link.chargerErrorCode ? ` (${link.chargerErrorCode})` : ''}
          </Caption1>
        )}
        {link?.firmwareStatus && (
          <Caption1>
            {t('chg.link.firmware')}: {link.firmwareStatus}
          </Caption1>
        )}
        {link?.diagnosticsStatus && (
          <Caption1>
            {t('chg.link.diagnostics')}: {link.diagnosticsStatus}
          </Caption1>
        )}
      </div>
      <div className={styles.row}>
        <Caption1>{t('chg.link.url')}:</Caption1>
        <Caption1 className={styles.mono} data-testid="charger-url">
          {url}
        </Caption1>
        <Button size="small" appearance="subtle" onClick={() => void navigator.clipboard?.writeText(url).then(() => notify(t('chg.link.copied'), 'success'))}>
          {t('chg.link.copy')}
        </Button>
        <Caption1>
          {t('chg.link.password')}: {pile.passwordSetAt ? t('chg.link.passwordSet', { time: zonedDateTime(pile.passwordSetAt) }) : t('chg.link.passwordNone')}
        </Caption1>
        {canConfigure && (
          <Button size="small" onClick={() => setPasswordOpen(true)} data-testid="pile-password">
            {t('chg.link.setPassword')}
          </Button>
        )}
        {canWrite && (
          <Button size="small" appearance="subtle" onClick={() => navigate(`/connector/messageLog?pileId=${encodeURIComponent(pile.id)}&code=${encodeURIComponent(pile.code)}`)} data-testid="pile-log">
            {t('chg.link.log')}
          </Button>
        )}
      </div>
      {canWrite && (
        <div className={styles.row}>
          <Text size={200} weight="semibold">
            {t('chg.cmd.title')}
          </Text>
          {canConfigure && (
            <Menu>
              <MenuTrigger disableButtonEnhancement>
                <Button size="small" data-testid="cmd-reset">
                  {t('chg.cmd.reset')}
                </Button>
              </MenuTrigger>
              <MenuPopover>
                <MenuList>
                  {(['Soft', 'Hard'] as const).map((type) => (
                    <MenuItem key={type} onClick={async () => (await confirm(t('chg.cmd.confirmReset', { code: pile.code }))) && void run('reset', { type })}>
                      {type === 'Soft' ? t('chg.cmd.soft') : t('chg.cmd.hard')}
                    </MenuItem>
                  ))}
                </MenuList>
              </MenuPopover>
            </Menu>
          )}
          <Button size="small" onClick={() => void run('trigger', { requestedMessage: 'StatusNotification' })} data-testid="cmd-trigger">
            {t('chg.cmd.trigger')}
          </Button>
          {pile.connectors.map((c) => (
            <Button key={c.id} size="small" appearance="subtle" onClick={() => void run('unlock', { connectorId: c.number })}>
              {t('chg.cmd.unlock')} #{c.number}
            </Button>
          ))}
          {canConfigure && (
            <Button size="small" onClick={() => void run('getConfiguration', {})} data-testid="cmd-get-configuration">
              {t('chg.cmd.getConfiguration')}
            </Button>
          )}
          {canConfigure && (
            <Button size="small" appearance="subtle" onClick={() => void run('clearCache', {})}>
              {t('chg.cmd.clearCache')}
            </Button>
          )}
          <Menu>
            <MenuTrigger disableButtonEnhancement>
              <Button size="small" data-testid="cmd-more">
                {t('chg.op.more')}
              </Button>
            </MenuTrigger>
            <MenuPopover>
              <MenuList>
                {OPERATIONS.filter((o) => canConfigure || !o.admin).map((o) => (
                  <MenuItem key={o.key} onClick={() => setOperation(o)}>
                    {t(`chg.op.${o.key}.title`)}
                  </MenuItem>
                ))}
              </MenuList>
            </MenuPopover>
          </Menu>
          {latestSchedule && (
            <Button size="small" appearance="subtle" onClick={() => setSchedule(latestSchedule)} data-testid="cmd-show-schedule">
              {t('chg.op.getCompositeSchedule.title')}
            </Button>
          )}
          {latestConfig && (
            <Button size="small" appearance="subtle" onClick={() => setConfig(latestConfig)} data-testid="cmd-show-configuration">
              {t('chg.cmd.key')} ({answerText(latestConfig)})
            </Button>
          )}
        </div>
      )}
      {canWrite && (commands.data?.list.length ?? 0) > 0 && (
        <Table size="extra-small" data-testid="command-table">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('chg.cmd.recent')}</TableHeaderCell>
              <TableHeaderCell />
              <TableHeaderCell />
              <TableHeaderCell />
            </TableRow>
          </TableHeader>
          <TableBody>
            {commands.data!.list.slice(0, 5).map((c) => (
              <TableRow key={c.id}>
                <TableCell data-testid="command-action">
                  {c.action}
                  {commandWhen(c, t)}
                </TableCell>
                <TableCell>
                  <Badge appearance="tint" color={COMMAND_COLOUR[c.status]}>
                    {t(`chg.cmd.status.${c.status}`)}
                  </Badge>
                </TableCell>
                <TableCell>{answerText(c)}</TableCell>
                <TableCell>
                  <Caption1 className={styles.muted}>
                    {zonedDateTime(c.createdAt)} · {c.requestedBy}
                  </Caption1>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {canWrite && (reservations.data ?? []).some((r) => r.status === 'reserved' || r.status === 'requested') && (
        <div className={styles.row} data-testid="reservations">
          <Text size={200} weight="semibold">
            {t('chg.cmd.reservations')}
          </Text>
          {reservations.data!
            .filter((r) => r.status === 'reserved' || r.status === 'requested')
            .map((r) => (
              <span key={r.id}>
                <Badge appearance="tint" color="informative">
                  {t(`chg.cmd.resStatus.${r.status}`)}
                </Badge>{' '}
                <Caption1>
                  #{r.connector || '*'} · {r.idTag} · {t('chg.cmd.until', { time: zonedDateTime(r.expiresAt) })}
                </Caption1>{' '}
                <Button size="small" appearance="subtle" onClick={() => void run('cancelReservation', { reservationId: r.id })}>
                  {t('chg.cmd.cancel')}
                </Button>
              </span>
            ))}
        </div>
      )}
      {passwordOpen && <PasswordDialog pile={pile} onClose={() => setPasswordOpen(false)} onSet={onChanged} />}
      {config && <ConfigurationDialog command={config} onClose={() => setConfig(null)} />}
      {operation && <OperationDialog pile={pile} op={operation} onClose={() => setOperation(null)} onSent={() => void commands.mutate()} />}
      {schedule && <ScheduleDialog command={schedule} onClose={() => setSchedule(null)} />}
    </div>
  );
}

/** Set or rotate the charger password: generated or typed, then shown once. */
function PasswordDialog({ pile, onClose, onSet }: { pile: Pile; onClose: () => void; onSet: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [typed, setTyped] = useState('');
  const [touched, setTouched] = useState(false);
  const [shown, setShown] = useState<string | null>(null);
  const bad = typed !== '' && chargerPasswordProblem(typed);
  const submit = async (password?: string) => {
    try {
      const r = await setPilePassword(pile.id, password);
      setShown(r.data.password);
      onSet();
    } catch {
      // shown by the request layer
    }
  };
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface data-testid="password-dialog">
        <DialogBody>
          <DialogTitle>
            {t('chg.link.setPassword')} · {pile.code}
          </DialogTitle>
          <DialogContent>
            {shown ? (
              <>
                <Text>{t('chg.link.shownOnce')}</Text>
                <div className={styles.secret} data-testid="password-once">
                  {shown}
                </div>
                <Button size="small" onClick={() => void navigator.clipboard?.writeText(shown).then(() => notify(t('chg.link.copied'), 'success'))}>
                  {t('chg.link.copy')}
                </Button>
              </>
            ) : (
              <>
                <Button appearance="primary" onClick={() => void submit()} data-testid="password-generate">
                  {t('chg.link.generate')}
                </Button>
                <Field label={t('chg.link.typeOwn')} validationMessage={touched && bad ? t('chg.link.passwordRule') : undefined}>
                  <Input value={typed} maxLength={40} onChange={(_, d) => setTyped(d.value)} onBlur={() => setTouched(true)} data-testid="password-typed" />
                </Field>
              </>
            )}
          </DialogContent>
          <DialogActions>
            {!shown && (
              <Button disabled={!typed || bad} onClick={() => void submit(typed)}>
                {t('chg.save')}
              </Button>
            )}
            <Button onClick={onClose}>{t('common.close')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

function ConfigurationDialog({ command, onClose }: { command: Command; onClose: () => void }) {
  const { t } = useTranslation();
  const keys = (command.response?.configurationKey as { key: string; value?: string; readonly: boolean }[] | undefined) ?? [];
  const unknown = (command.response?.unknownKey as string[] | undefined) ?? [];
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface data-testid="configuration-dialog">
        <DialogBody>
          <DialogTitle>{t('chg.cmd.getConfiguration')}</DialogTitle>
          <DialogContent>
            <Table size="small">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>{t('chg.cmd.key')}</TableHeaderCell>
                  <TableHeaderCell>{t('chg.cmd.value')}</TableHeaderCell>
                  <TableHeaderCell>{t('chg.cmd.readonly')}</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {keys.map((k) => (
                  <TableRow key={k.key}>
                    <TableCell>{k.key}</TableCell>
                    <TableCell>{k.value ?? ''}</TableCell>
                    <TableCell>{k.readonly ? '✓' : ''}</TableCell>
                  </TableRow>
                ))}
                {unknown.map((k) => (
                  <TableRow key={k}>
                    <TableCell>{k}</TableCell>
                    <TableCell>—</TableCell>
                    <TableCell />
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>OK</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** A composite schedule (GetCompositeSchedule's answer) as a step chart of the limit over time. */
function ScheduleDialog({ command, onClose }: { command: Command; onClose: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const s = command.response?.chargingSchedule as { duration?: number; chargingRateUnit?: string; chargingSchedulePeriod?: { startPeriod: number; limit: number }[] } | undefined;
  const points = schedulePoints(s);
  const option = {
    grid: { left: 60, right: 20, top: 20, bottom: 40 },
    xAxis: { type: 'value', name: 's', min: 0 },
    yAxis: { type: 'value', name: s?.chargingRateUnit ?? 'W' },
    series: [{ type: 'line', step: 'end', data: points, areaStyle: {} }],
    tooltip: { trigger: 'axis' },
  };
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface data-testid="schedule-dialog" style={{ maxWidth: '720px' }}>
        <DialogBody>
          <DialogTitle>{t('chg.op.getCompositeSchedule.title')}</DialogTitle>
          <DialogContent>
            <LazyChart option={option} className={styles.chart} />
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>OK</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
