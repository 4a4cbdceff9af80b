import { Button, Caption1, Card, Dropdown, Field, Link, makeStyles, Option, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StationPicker } from '../components/StationPicker';
import { useNavigate } from 'react-router';
import { CONNECTOR_STATUSES, useConnectors, type Connector, type ConnectorFilter, type ConnectorStatus, type PileType } from '../api/assets';
import { ConnectorActions, ConnectorStatusBadge, HistoryDialog } from '../components/ConnectorBits';
import { protocolKey } from '../model/ykc';
import { zonedDateTime } from '@/components/data/format';
import type { ListColumn } from '@/components/list/columns';
import { ListView } from '@/components/list/ListView';
import { useListPage } from '@/components/list/useListPage';

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '12px' },
  filters: { display: 'flex', flexWrap: 'wrap', gap: '8px 12px', alignItems: 'end' },
  scroll: { overflowX: 'auto' },
  // Wide enough that pile codes and QR payloads stay on one line (they are read off chargers).
  table: { minWidth: '1740px' },
  code: { whiteSpace: 'nowrap' },
  muted: { color: tokens.colorNeutralForeground3 },
  dd: { minWidth: '220px' },
  // The actions and the state of the command they sent, side by side.
  actions: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '4px' },
});

/** The connector list's state in the URL: station, status, AC/DC, page. */
const LIST_DEFAULTS = { stationId: '', status: '', pileType: '', page: 1, size: 20 };
const ALLOWED = { status: ['', ...CONNECTOR_STATUSES], pileType: ['', 'ac', 'dc'] };
/** Only what is set (an empty filter asks for every connector). */
const filterOf = (p: typeof LIST_DEFAULTS) => Object.fromEntries(Object.entries({ stationId: p.stationId, status: p.status, pileType: p.pileType }).filter(([, v]) => v)) as ConnectorFilter;
const useConnectorList = (p: typeof LIST_DEFAULTS) => useConnectors(filterOf(p), p.page, p.size);

/** /connector/connectors: every connector, filtered by station, status (last reported) and AC/DC, with operator actions. */
export default function ConnectorList() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const list = useListPage(LIST_DEFAULTS, useConnectorList, { allowed: ALLOWED });
  const { data, mutate } = list;
  const filter = filterOf(list.params);
  const [history, setHistory] = useState<{ id: string; label: string } | null>(null);
  const set = (patch: Partial<ConnectorFilter>) => list.filterBy(patch as Partial<typeof LIST_DEFAULTS>);
  const columns: ListColumn<Connector>[] = [
    {
      id: 'station',
      header: t('ast.connector.station'),
      data: true,
      cell: (c) => <Link onClick={() => navigate(`/connector/stationdetail?id=${encodeURIComponent(c.stationId)}`)}>{c.stationName ?? c.stationId}</Link>,
    },
    { id: 'pile', header: t('ast.connector.pile'), cell: (c) => <span className={styles.code}>{c.pileCode}</span> },
    { id: 'protocol', header: t('ykc.protocolLabel'), cell: (c) => (c.ocppVersion ? t(`ykc.protocol.${protocolKey(c.ocppVersion)}`) : '') },
    { id: 'number', header: t('ast.connector.number'), cell: (c) => `#${c.number}` },
    { id: 'type', header: t('ast.pile.type'), cell: (c) => t(`ast.type.${c.pileType}`) },
    { id: 'standard', header: t('ast.connector.standard'), cell: (c) => t(`ast.standard.${c.standard}`) },
    { id: 'maxPower', header: t('ast.connector.maxPower'), cell: (c) => c.maxPowerKw },
    {
      id: 'status',
      header: t('ast.connector.status'),
      cell: (c) => (
        <>
          <ConnectorStatusBadge c={c} />
          {/* The fault as the charger reported it. */}
          {c.faultCode && <Caption1 translate="no"> {c.faultCode}</Caption1>}
        </>
      ),
    },
    { id: 'since', header: t('ast.connector.since'), cell: (c) => zonedDateTime(c.statusSince) },
    { id: 'heartbeat', header: t('ast.pile.lastHeartbeat'), cell: (c) => (c.lastHeartbeat ? zonedDateTime(c.lastHeartbeat) : t('ast.pile.never')) },
    {
      id: 'qr',
      header: t('ast.connector.qr'),
      testId: 'connector-qr',
      cell: (c) => (
        <span className={styles.code} title={t('ast.connector.qrPayload')}>
          {c.qrPayload}
        </span>
      ),
    },
    {
      id: 'actions',
      header: '',
      width: '300px',
      className: styles.actions,
      cell: (c) => (
        <>
          <ConnectorActions c={c} onDone={() => void mutate()} />
          <Button size="small" appearance="subtle" onClick={() => setHistory({ id: c.id, label: `${c.pileCode} #${c.number}` })}>
            {t('ast.connector.history')}
          </Button>
        </>
      ),
    },
  ];

  return (
    <Card className={styles.card}>
      <div className={styles.filters}>
        <Field label={t('ast.connector.station')} hint={t('picker.station.hint')}>
          <StationPicker className={styles.dd} aria-label={t('ast.connector.station')} value={filter.stationId || undefined} onChange={(stationId) => set({ stationId: stationId ?? '' })} data-testid="connector-filter-station" />
        </Field>
        <Field label={t('ast.connector.reported')}>
          <Dropdown aria-label={t('ast.connector.status')} value={filter.status ? t(`ast.cstatus.${filter.status}`) : t('ast.any')} selectedOptions={[filter.status ?? '']} onOptionSelect={(_, d) => set({ status: (d.optionValue ?? '') as ConnectorStatus | '' })}>
            <Option value="">{t('ast.any')}</Option>
            {CONNECTOR_STATUSES.map((s) => (
              <Option key={s} value={s}>
                {t(`ast.cstatus.${s}`)}
              </Option>
            ))}
          </Dropdown>
        </Field>
        <Field label={t('ast.pile.type')}>
          <Dropdown aria-label={t('ast.pile.type')} value={filter.pileType ? t(`ast.type.${filter.pileType}`) : t('ast.any')} selectedOptions={[filter.pileType ?? '']} onOptionSelect={(_, d) => set({ pileType: (d.optionValue ?? '') as PileType | '' })}>
            <Option value="">{t('ast.any')}</Option>
            <Option value="ac">{t('ast.type.ac')}</Option>
            <Option value="dc">{t('ast.type.dc')}</Option>
          </Dropdown>
        </Field>
        <Caption1 className={styles.muted}>{t('ast.connectors.total', { total: data?.total ?? 0 })}</Caption1>
      </div>
      <ListView list={list} scrollClassName={styles.scroll} spinner="tiny" className={styles.table} data-testid="connector-table" columns={columns} rowKey={(c) => c.id} rowTestId="connector-row" />
      <HistoryDialog connectorId={history?.id ?? null} label={history?.label} onClose={() => setHistory(null)} />
    </Card>
  );
}
