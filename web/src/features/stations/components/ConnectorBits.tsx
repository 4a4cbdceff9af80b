import {
  Badge,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Menu,
  MenuDivider,
  MenuGroup,
  MenuGroupHeader,
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
} from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { actOnConnector, ACTIONS, useConnectorHistory, type Connector, type OcppVersion, type ConnectorStatus, type OperatorAction, type StationStatus } from '../api/assets';
import { commandDone, sendCommand, useCommand, type Command } from '../api/chargers';
import { confirm } from '@/components/Confirm';
import { zonedDateTime } from '@/components/data/format';
import { usePermission } from '@/components/Permission';
import { notify } from '@/utils/notify';
import { OperationDialog, type PileRef } from './OperationDialog';
import { COMMAND_COLOUR, forProtocol, OPERATIONS } from '../model/operations';
import { isYkc } from '../model/ykc';
import { answerWords } from './commandWords';

const COLOUR: Record<ConnectorStatus, 'success' | 'brand' | 'warning' | 'danger' | 'informative' | 'subtle' | 'important'> = {
  available: 'success',
  preparing: 'informative',
  charging: 'brand',
  suspended: 'warning',
  finishing: 'informative',
  reserved: 'informative',
  unavailable: 'subtle',
  faulted: 'danger',
  offline: 'important',
};

/** The shown status (offline when the pile is silent), with the last reported one in the tooltip. */
export function ConnectorStatusBadge({ c }: { c: Connector }) {
  const { t } = useTranslation();
  const title = c.effectiveStatus !== c.status ? `${t('ast.connector.reported')}: ${t(`ast.cstatus.${c.status}`)}` : undefined;
  return (
    <Badge appearance="tint" color={COLOUR[c.effectiveStatus] ?? 'informative'} title={title} data-testid="connector-status">
      {t(`ast.cstatus.${c.effectiveStatus}`)}
    </Badge>
  );
}

/** A followed command in a line: what was asked, its state, and the charger's own answer once there. */
export function CommandState({ label, command }: { label: string; command: Command | undefined }) {
  const { t } = useTranslation();
  if (!command) return null;
  // The charger's answer in words (the OCPP code in the tooltip), only once it answered.
  const answered = command.status === 'answered' || command.status === 'callError';
  const answer = answered ? answerWords(t, command).words : '';
  const code = command.error?.code ?? (typeof command.response?.status === 'string' ? command.response.status : undefined);
  return (
    <Badge appearance="tint" color={COMMAND_COLOUR[command.status]} style={{ whiteSpace: 'nowrap' }} title={code} data-testid="connector-command" data-status={command.status}>
      {label} · {t(`chg.cmd.status.${command.status}`)}
      {answer ? ` · ${answer}` : ''}
    </Badge>
  );
}

/**
 * What staff can do on a connector row. Remote operations (start, stop,
 * unlock, reset of the whole charger) are the charger panel's commands,
 * sent with the same routes and permissions and followed until the charger
 * answers; the hand-set status (out of service for maintenance, and back)
 * is separate and also tells a connected charger. `onDone` reloads the
 * list: when a command ends and again shortly after, when the charger's
 * status report has arrived.
 */
export function ConnectorActions({ c, protocol, onDone }: { c: Connector; protocol?: OcppVersion | null; onDone: () => void }) {
  const { t } = useTranslation();
  const canWrite = usePermission(['write:system']);
  const canConfigure = usePermission(['configure:charger']);
  const [followed, setFollowed] = useState<{ id: string; label: string } | null>(null);
  const [starting, setStarting] = useState(false);
  const command = useCommand(followed?.id ?? null);
  const ended = command.data && commandDone(command.data) ? command.data.id : null;
  useEffect(() => {
    if (!ended) return;
    onDone();
    const later = window.setTimeout(onDone, 3000);
    return () => window.clearTimeout(later);
    // `onDone` is a fresh closure each render; the reloads belong to the command's end only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ended]);
  if (!canWrite) return null;
  const status = c.effectiveStatus;
  const inSession = status === 'charging' || status === 'suspended';
  const pile: PileRef = { id: c.pileId, code: c.pileCode, ocppVersion: protocol ?? undefined, connectors: [{ number: c.number }] };
  // A YKC pile has no unlock command (`protocol` unknown: as OCPP; the server refuses what the pile has not).
  const ykc = isYkc(protocol);
  const label = (k: string) => t(`ast.connector.row.${k}`);
  // What a command is called in its state line (the menu's "…" says a dialog follows).
  const stateLabel = (k: string) => (k === 'remoteStart' ? t('ast.action.remoteStart') : label(k));
  const send = async (key: string, path: string, body: Record<string, unknown>) => {
    try {
      const sent = await sendCommand(path, { pileId: c.pileId, ...body });
      setFollowed({ id: sent.id, label: stateLabel(key) });
    } catch {
      // The request layer showed why.
    }
  };
  const setStatus = async (a: OperatorAction) => {
    try {
      const res = await actOnConnector(c.id, a);
      notify(res.msg || t('ast.saved'), 'success', 6000);
      if (res.data.command) setFollowed({ id: res.data.command.id, label: label(a) });
      onDone();
    } catch {
      // The request layer showed why.
    }
  };
  const who = { code: c.pileCode, n: c.number };
  return (
    <>
      <Menu>
        <MenuTrigger disableButtonEnhancement>
          <Button size="small" appearance="subtle" data-testid="connector-actions">
            {t('ast.connector.actions')}
          </Button>
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            <MenuGroup>
              <MenuGroupHeader>{c.online ? t('ast.connector.row.remote') : t('ast.connector.row.offline')}</MenuGroupHeader>
              <MenuItem disabled={!c.online || !(status === 'available' || status === 'preparing')} onClick={() => setStarting(true)}>
                {label('remoteStart')}
              </MenuItem>
              <MenuItem disabled={!c.online || !inSession} onClick={async () => (await confirm(t('ast.connector.row.confirmStop', who))) && void send('remoteStop', 'remoteStop', { connectorId: c.number })}>
                {label('remoteStop')}
              </MenuItem>
              {!ykc && (
                <MenuItem disabled={!c.online || inSession} onClick={() => void send('unlock', 'unlock', { connectorId: c.number })}>
                  {label('unlock')}
                </MenuItem>
              )}
              {canConfigure && (
                <MenuItem disabled={!c.online} onClick={async () => (await confirm(t('ast.connector.row.confirmReset', who))) && void send('reset', 'reset', { type: 'Soft' })}>
                  {label('reset')}
                </MenuItem>
              )}
            </MenuGroup>
            <MenuDivider />
            <MenuGroup>
              <MenuGroupHeader>{t('ast.connector.row.stored')}</MenuGroupHeader>
              {ACTIONS.map((a) => (
                <MenuItem key={a} disabled={!c.allowedActions.includes(a)} onClick={() => void setStatus(a)}>
                  {label(a)}
                </MenuItem>
              ))}
            </MenuGroup>
          </MenuList>
        </MenuPopover>
      </Menu>
      {followed && <CommandState label={followed.label} command={command.data} />}
      {starting && (
        <OperationDialog
          pile={pile}
          op={forProtocol(OPERATIONS.find((o) => o.key === 'remoteStart')!, protocol)}
          preset={{ connectorId: String(c.number) }}
          onClose={() => setStarting(false)}
          onSent={(sent) => setFollowed({ id: sent.id, label: stateLabel('remoteStart') })}
        />
      )}
    </>
  );
}

/** `label` names the connector as staff read it (pile code and number); the id stays in the request. */
export function HistoryDialog({ connectorId, label, onClose }: { connectorId: string | null; label?: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { data } = useConnectorHistory(connectorId);
  return (
    <Dialog open={!!connectorId} onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>
            {t('ast.connector.history')} · {label ?? connectorId}
          </DialogTitle>
          <DialogContent>
            <Table size="small">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>{t('ast.connector.since')}</TableHeaderCell>
                  <TableHeaderCell>{t('ast.connector.actions')}</TableHeaderCell>
                  <TableHeaderCell>{t('ast.connector.status')}</TableHeaderCell>
                  <TableHeaderCell>{t('ast.connector.by')}</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {(data ?? []).map((h, i) => (
                  <TableRow key={i}>
                    <TableCell>{zonedDateTime(h.at)}</TableCell>
                    <TableCell>{t(`ast.action.${h.event}`, { defaultValue: h.event })}</TableCell>
                    <TableCell>
                      {h.from ? `${t(`ast.cstatus.${h.from}`)} → ` : ''}
                      {t(`ast.cstatus.${h.to}`)}
                    </TableCell>
                    <TableCell>{h.by}</TableCell>
                  </TableRow>
                ))}
                {data && !data.length && (
                  <TableRow>
                    <TableCell colSpan={4}>{t('ast.connector.historyEmpty')}</TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('ast.cancel')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

const STATUS_COLOUR = { planning: 'informative', operating: 'success', suspended: 'warning', closed: 'subtle' } as const;

/** A station's status. */
export function StationStatusBadge({ status }: { status: StationStatus }) {
  const { t } = useTranslation();
  return (
    <Badge appearance="tint" color={STATUS_COLOUR[status]}>
      {t(`ast.status.${status}`)}
    </Badge>
  );
}

