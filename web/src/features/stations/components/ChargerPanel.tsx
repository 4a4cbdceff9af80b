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
import { useYkcPort, type Pile } from '../api/assets';
import { chargerPasswordProblem, chargerUrl, sendCommand, setPilePassword, useCommands, useReservations, type Command } from '../api/chargers';
import type { Schema } from '@/api/types';
import { confirm } from '@/components/Confirm';
import { zonedDateTime } from '@/components/data/format';
import { usePermission } from '@/components/Permission';
import { LazyChart } from '@/components/LazyChart';
import { CertificatesSection } from './CertificatesSection';
import { DeviceModelDialog } from './DeviceModelDialog';
import { OperationDialog } from './OperationDialog';
import { COMMAND_COLOUR, forProtocol, OPERATIONS, schedulePoints, spokenBy, type Operation } from '../model/operations';
import { isYkc, protocolKey, ykcAddress } from '../model/ykc';
import { actionName, AnswerCell, answerWords, connectorWords } from './commandWords';
import { clockAxis, clockTooltip } from '@/components/clockAxis';
import { notify } from '@/utils/notify';

const useStyles = makeStyles({
  panel: { display: 'flex', flexDirection: 'column', rowGap: '6px', padding: '8px', backgroundColor: tokens.colorNeutralBackground2, borderRadius: tokens.borderRadiusMedium },
  row: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '6px 12px' },
  muted: { color: tokens.colorNeutralForeground3 },
  mono: { fontFamily: tokens.fontFamilyMonospace },
  chart: { width: '640px', maxWidth: '100%', height: '300px' },
  // The recent operations scroll inside the panel on a phone; the names never wrap away.
  tableWrap: { overflowX: 'auto', maxWidth: '100%' },
  commandTable: { tableLayout: 'auto', minWidth: '480px' },
  nowrap: { whiteSpace: 'nowrap' },
  secret: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase400, padding: '8px', backgroundColor: tokens.colorNeutralBackground3, wordBreak: 'break-all' },
});

/** When a command asks the charger to act later (a firmware download, a reservation's end), in the operator's time zone; '' when not. */
function commandWhen(c: Command, t: TFunction): string {
  const iso = c.action === 'UpdateFirmware' ? c.payload.retrieveDate : c.action === 'ReserveNow' ? c.payload.expiryDate : undefined;
  const ms = typeof iso === 'string' ? Date.parse(iso) : NaN;
  if (Number.isNaN(ms)) return '';
  return t(c.action === 'UpdateFirmware' ? 'chg.cmd.retrieveAt' : 'chg.cmd.until', { time: zonedDateTime(ms / 1000) });
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
  const [deviceModelOpen, setDeviceModelOpen] = useState(false);
  const [operation, setOperation] = useState<Operation | null>(null);
  const [schedule, setSchedule] = useState<Command | null>(null);
  // Polled while a command waits for the charger's answer.
  const commands = useCommands(pile.id, canWrite);
  // A YKC pile takes no reservation.
  const reservations = useReservations(pile.id, commands.data?.list[0], canWrite && !isYkc(pile.ocppVersion));
  const link = pile.link;
  // A YKC pile connects over TCP to this host's YKC port and logs in with its
  // number: no WebSocket URL, no password, and only the operations YKC has.
  const ykc = isYkc(pile.ocppVersion);
  const ykcPort = useYkcPort(ykc ? pile.stationId : null);
  const url = ykc ? ykcAddress(ykcPort.data) : chargerUrl(pile.code);
  const ocpp = !ykc;

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
        <Text weight="semibold">{ykc ? t('ykc.linkTitle') : t('chg.link.title')}</Text>
        <Badge appearance="tint" color={link?.connected ? 'success' : 'subtle'} data-testid="link-state">
          {link?.connected ? t('chg.link.connected') : link ? t('chg.link.disconnected') : t('chg.link.never')}
        </Badge>
        {link && (
          <Caption1 className={styles.muted}>
            {t('chg.link.since', { time: zonedDateTime((link.connected ? link.connectedAt : link.disconnectedAt) ?? link.connectedAt) })}
          </Caption1>
        )}
        <Caption1 data-testid="link-ocpp-version">{ykc ? t('ykc.registeredAs', { protocol: t(`ykc.protocol.${protocolKey(pile.ocppVersion)}`) }) : t('chg.link.speaks', { version: pile.ocppVersion ?? '1.6' })}</Caption1>
        {link?.protocol && (
          <Caption1>
            {t('chg.link.protocol')}: <span translate="no">{link.protocol}</span>
          </Caption1>
        )}
        {link?.lastMessageAt && (
          <Caption1>
            {t('chg.link.lastMessage')}: {zonedDateTime(link.lastMessageAt)}
          </Caption1>
        )}
        {link?.boot && (
          <Caption1 data-testid="link-boot">
            {t('chg.link.boot')}: <span translate="no">{[link.boot.vendor, link.boot.model, link.boot.serialNumber, link.boot.firmwareVersion].filter(Boolean).join(' · ')}</span>
          </Caption1>
        )}
        {link?.chargerStatus && (
          <Caption1>
            {t('chg.link.chargerStatus')}: {t(`chg.chargerStatus.${link.chargerStatus}`, { defaultValue: link.chargerStatus })}
            {link.chargerErrorCode && link.chargerErrorCode !== 'NoError' ? <span translate="no">{` (${link.chargerErrorCode})`}</span> : ''}
          </Caption1>
        )}
        {link?.firmwareStatus && (
          <Caption1>
            {t('chg.link.firmware')}: {t(`chg.reportStatus.${link.firmwareStatus}`, { defaultValue: link.firmwareStatus })}
          </Caption1>
        )}
        {link?.diagnosticsStatus && (
          <Caption1>
            {t('chg.link.diagnostics')}: {t(`chg.reportStatus.${link.diagnosticsStatus}`, { defaultValue: link.diagnosticsStatus })}
          </Caption1>
        )}
      </div>
      <div className={styles.row}>
        <Caption1>{ykc ? t('ykc.connectTo') : t('chg.link.url')}:</Caption1>
        {url !== null ? (
          <>
            <Caption1 className={styles.mono} data-testid="charger-url" translate="no">
              {url}
            </Caption1>
            <Button size="small" appearance="subtle" onClick={() => void navigator.clipboard?.writeText(url).then(() => notify(t('chg.link.copied'), 'success'))}>
              {t('chg.link.copy')}
            </Button>
          </>
        ) : (
          ykcPort.data === null && (
            <Caption1 className={styles.muted} data-testid="charger-url-none">
              {t('ykc.noPort')}
            </Caption1>
          )
        )}
        {ykc ? (
          <Caption1 className={styles.muted}>{t('ykc.noPassword')}</Caption1>
        ) : (
          <Caption1>
            {t('chg.link.password')}: {pile.passwordSetAt ? t('chg.link.passwordSet', { time: zonedDateTime(pile.passwordSetAt) }) : t('chg.link.passwordNone')}
          </Caption1>
        )}
        {ocpp && canConfigure && (
          <Button size="small" onClick={() => setPasswordOpen(true)} data-testid="pile-password">
            {t('chg.link.setPassword')}
          </Button>
        )}
        {canWrite && (
          <Button size="small" appearance="subtle" onClick={() => navigate(`/connector/messageLog?pileId=${encodeURIComponent(pile.id)}&code=${encodeURIComponent(pile.code)}`)} data-testid="pile-log">
            {t('chg.link.log')}
          </Button>
        )}
        {pile.ocppVersion === '2.0.1' && (
          <Button size="small" appearance="subtle" onClick={() => setDeviceModelOpen(true)} data-testid="pile-device-model">
            {t('chg.dm.title')}
          </Button>
        )}
        {canWrite && pile.ocppVersion === '2.0.1' && (
          // What the station's monitors and hard-wired notifications reported (NotifyEvent), in its message log.
          <Button size="small" appearance="subtle" onClick={() => navigate(`/connector/messageLog?pileId=${encodeURIComponent(pile.id)}&code=${encodeURIComponent(pile.code)}&action=NotifyEvent`)} data-testid="pile-events">
            {t('chg.link.events')}
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
          {ocpp && (
            <Button size="small" onClick={() => void run('trigger', { requestedMessage: 'StatusNotification' })} data-testid="cmd-trigger">
              {t('chg.cmd.trigger')}
            </Button>
          )}
          {ocpp && pile.connectors.map((c) => (
            <Button key={c.id} size="small" appearance="subtle" onClick={() => void run('unlock', { connectorId: c.number })}>
              {t('chg.cmd.unlock')} {connectorWords(t, c.number)}
            </Button>
          ))}
          {canConfigure && ocpp && pile.ocppVersion !== '2.0.1' && (
            <Button size="small" onClick={() => void run('getConfiguration', {})} data-testid="cmd-get-configuration">
              {t('chg.cmd.getConfiguration')}
            </Button>
          )}
          {canConfigure && pile.ocppVersion === '2.0.1' && (
            <Button size="small" onClick={() => void run('getBaseReport', { reportBase: 'FullInventory' })} data-testid="cmd-get-base-report">
              {t('chg.op.getBaseReport.title')}
            </Button>
          )}
          {canConfigure && ocpp && (
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
                {OPERATIONS.filter((o) => (canConfigure || !o.admin) && spokenBy(o, pile.ocppVersion)).map((o) => (
                  <MenuItem key={o.key} onClick={() => setOperation(forProtocol(o, pile.ocppVersion))}>
                    {t(`chg.op.${o.key}.title`)}
                  </MenuItem>
                ))}
              </MenuList>
            </MenuPopover>
          </Menu>
          {ykc && <Caption1 className={styles.muted}>{t('ykc.ocppOnly')}</Caption1>}
          {latestSchedule && (
            <Button size="small" appearance="subtle" onClick={() => setSchedule(latestSchedule)} data-testid="cmd-show-schedule">
              {t('chg.op.getCompositeSchedule.title')}
            </Button>
          )}
          {latestConfig && (
            <Button size="small" appearance="subtle" onClick={() => setConfig(latestConfig)} data-testid="cmd-show-configuration">
              {t('chg.cmd.key')} ({answerWords(t, latestConfig).words})
            </Button>
          )}
        </div>
      )}
      {canWrite && (commands.data?.list.length ?? 0) > 0 && (
        <div className={styles.tableWrap}>
          <Table size="extra-small" className={styles.commandTable} data-testid="command-table">
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
                <TableRow key={c.id} data-action={c.action}>
                  <TableCell data-testid="command-action">
                    <div className={styles.nowrap} title={c.action} data-testid="command-name">
                      {actionName(t, c.action)}
                    </div>
                    {commandWhen(c, t) && <Caption1 className={styles.muted}>{commandWhen(c, t)}</Caption1>}
                  </TableCell>
                  <TableCell className={styles.nowrap}>
                    <Badge appearance="tint" color={COMMAND_COLOUR[c.status]}>
                      {t(`chg.cmd.status.${c.status}`)}
                    </Badge>
                  </TableCell>
                  <TableCell>
                    <AnswerCell c={c} />
                  </TableCell>
                  <TableCell>
                    <Caption1 className={styles.muted}>
                      {zonedDateTime(c.createdAt)} · <span translate="no">{c.requestedBy}</span>
                    </Caption1>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
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
                <Caption1 data-testid="reservation">
                  {connectorWords(t, r.connector)} · <span translate="no">{r.idTag}</span> · {t('chg.cmd.until', { time: zonedDateTime(r.expiresAt) })}
                </Caption1>{' '}
                <Button size="small" appearance="subtle" onClick={() => void run('cancelReservation', { reservationId: r.id })}>
                  {t('chg.cmd.cancel')}
                </Button>
              </span>
            ))}
        </div>
      )}
      {ocpp && <CertificatesSection pile={pile} latest={commands.data?.list[0]} canConfigure={canConfigure} onCommand={() => void commands.mutate()} />}
      {passwordOpen && <PasswordDialog pile={pile} onClose={() => setPasswordOpen(false)} onSet={onChanged} />}
      {config && <ConfigurationDialog command={config} onClose={() => setConfig(null)} />}
      {deviceModelOpen && <DeviceModelDialog pileId={pile.id} code={pile.code} onClose={() => setDeviceModelOpen(false)} />}
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
                <Field label={t('chg.link.typeOwn')} validationMessage={touched && bad ? t('chg.link.passwordRule') : undefined} data-testid="password-field">
                  <Input value={typed} maxLength={40} onChange={(_, d) => setTyped(d.value)} onBlur={(e) => !(e.relatedTarget as HTMLElement | null)?.closest('[data-no-blur-check]') && setTouched(true)} data-testid="password-typed" />
                </Field>
              </>
            )}
          </DialogContent>
          <DialogActions data-no-blur-check>
            {!shown && (
              // Save says why a typed password is refused, beside the field, instead of only greying out.
              <Button
                disabled={!typed}
                onClick={() => {
                  setTouched(true);
                  if (!bad) void submit(typed);
                }}
                data-testid="password-save"
              >
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
                  <TableRow key={k.key} translate="no">
                    <TableCell>{k.key}</TableCell>
                    <TableCell>{k.value ?? ''}</TableCell>
                    <TableCell>{k.readonly ? '✓' : ''}</TableCell>
                  </TableRow>
                ))}
                {unknown.map((k) => (
                  <TableRow key={k}>
                    <TableCell translate="no">{k}</TableCell>
                    <TableCell>—</TableCell>
                    <TableCell />
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('common.close')}</Button>
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
  const s = command.response?.chargingSchedule as Schema<'Ocpp16ChargingSchedule'> | undefined;
  // The periods count from the schedule's start (the charger's, else when it answered).
  const reported = typeof command.response?.scheduleStart === 'string' ? Date.parse(command.response.scheduleStart) / 1000 : NaN;
  const start = Number.isFinite(reported) ? reported : (command.answeredAt ?? command.createdAt);
  const points = schedulePoints(s, start);
  const unit = s?.chargingRateUnit ?? 'W';
  const span = points.length ? (points[points.length - 1]![0] - points[0]![0]) / 1000 : 0;
  const option = {
    grid: { left: 60, right: 20, top: 30, bottom: 40 },
    xAxis: clockAxis(span),
    yAxis: { type: 'value', name: unit },
    series: [{ name: t('chg.words.limit'), type: 'line', step: 'end', data: points, areaStyle: {} }],
    tooltip: clockTooltip(() => ` ${unit}`),
  };
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface data-testid="schedule-dialog" style={{ maxWidth: '720px' }}>
        <DialogBody>
          <DialogTitle>{t('chg.op.getCompositeSchedule.title')}</DialogTitle>
          <DialogContent>
            <LazyChart option={option} className={styles.chart} renderer="svg" />
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('common.close')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
