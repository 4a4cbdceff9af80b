import { Badge, Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { actOnConnector, ACTIONS, useConnectorHistory, type Connector, type ConnectorStatus, type StationStatus } from '@/api/assets';
import { chinaDateTime } from '@/components/data/format';
import { usePermission } from '@/components/Permission';
import { notify } from '@/utils/notify';

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

/**
 * Operator actions; only the ones the server allows now are enabled. The
 * server's answer says that no command reaches the pile yet.
 */
export function ConnectorActions({ c, onDone }: { c: Connector; onDone: () => void }) {
  const { t } = useTranslation();
  const canWrite = usePermission(['write:system']);
  if (!canWrite) return null;
  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <Button size="small" appearance="subtle" data-testid="connector-actions">
          {t('ast.connector.actions')}
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {ACTIONS.map((a) => (
            <MenuItem
              key={a}
              disabled={!c.allowedActions.includes(a)}
              onClick={async () => {
                try {
                  const res = await actOnConnector(c.id, a);
                  notify(res.msg || t('ast.saved'), 'success', 6000);
                  onDone();
                } catch {
                  // The request layer showed why.
                }
              }}
            >
              {t(`ast.action.${a}`)}
            </MenuItem>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
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
                    <TableCell>{chinaDateTime(h.at)}</TableCell>
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

