import { Button, Caption1, Card, Dropdown, Field, Link, makeStyles, MessageBar, MessageBarBody, Option, Spinner, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StationPicker } from '@/components/StationPicker';
import { useNavigate } from 'react-router';
import useSWR from 'swr';
import { CONNECTOR_STATUSES, getConnectors, type ConnectorFilter, type ConnectorStatus, type PileType } from '@/api/assets';
import { ConnectorActions, ConnectorStatusBadge, HistoryDialog } from '@/components/assets/ConnectorBits';
import { chinaDateTime } from '@/components/data/format';
import { Pager } from '@/components/demo/Pager';

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '12px' },
  filters: { display: 'flex', flexWrap: 'wrap', gap: '8px 12px', alignItems: 'end' },
  scroll: { overflowX: 'auto' },
  // Wide enough that pile codes and QR payloads stay on one line (they are read off chargers).
  table: { minWidth: '1540px' },
  code: { whiteSpace: 'nowrap' },
  muted: { color: tokens.colorNeutralForeground3 },
  dd: { minWidth: '220px' },
});

/** /connector/connectors: every connector, filtered by station, status (last reported) and AC/DC, with operator actions. */
export default function ConnectorList() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const [filter, setFilter] = useState<ConnectorFilter>({});
  const [page, setPage] = useState({ no: 1, size: 20 });
  const [history, setHistory] = useState<{ id: string; label: string } | null>(null);
  const { data, isLoading, mutate } = useSWR(['connector/getList', filter, page.no, page.size], () => getConnectors(filter, page.no, page.size));
  const set = (patch: Partial<ConnectorFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    setPage((p) => ({ ...p, no: 1 }));
  };

  return (
    <Card className={styles.card}>
      <div className={styles.filters}>
        <Field label={t('ast.connector.station')} hint={t('picker.station.hint')}>
          <StationPicker className={styles.dd} aria-label={t('ast.connector.station')} value={filter.stationId} onChange={(stationId) => set({ stationId })} data-testid="connector-filter-station" />
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
      <MessageBar intent="info">
        <MessageBarBody>{t('ast.connector.noLink')}</MessageBarBody>
      </MessageBar>
      <div className={styles.scroll}>
        <Table className={styles.table} size="small" data-testid="connector-table">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('ast.connector.station')}</TableHeaderCell>
              <TableHeaderCell>{t('ast.connector.pile')}</TableHeaderCell>
              <TableHeaderCell>{t('ast.connector.number')}</TableHeaderCell>
              <TableHeaderCell>{t('ast.pile.type')}</TableHeaderCell>
              <TableHeaderCell>{t('ast.connector.standard')}</TableHeaderCell>
              <TableHeaderCell>{t('ast.connector.maxPower')}</TableHeaderCell>
              <TableHeaderCell>{t('ast.connector.status')}</TableHeaderCell>
              <TableHeaderCell>{t('ast.connector.since')}</TableHeaderCell>
              <TableHeaderCell>{t('ast.pile.lastHeartbeat')}</TableHeaderCell>
              <TableHeaderCell>{t('ast.connector.qr')}</TableHeaderCell>
              <TableHeaderCell />
            </TableRow>
          </TableHeader>
          <TableBody>
            {(data?.list ?? []).map((c) => (
              <TableRow key={c.id} data-testid="connector-row">
                <TableCell>
                  <Link onClick={() => navigate(`/connector/stationdetail?id=${encodeURIComponent(c.stationId)}`)}>{c.stationName ?? c.stationId}</Link>
                </TableCell>
                <TableCell className={styles.code}>{c.pileCode}</TableCell>
                <TableCell>#{c.number}</TableCell>
                <TableCell>{t(`ast.type.${c.pileType}`)}</TableCell>
                <TableCell>{t(`ast.standard.${c.standard}`)}</TableCell>
                <TableCell>{c.maxPowerKw}</TableCell>
                <TableCell>
                  <ConnectorStatusBadge c={c} />
                  {c.faultCode && <Caption1> {c.faultCode}</Caption1>}
                </TableCell>
                <TableCell>{chinaDateTime(c.statusSince)}</TableCell>
                <TableCell>{c.lastHeartbeat ? chinaDateTime(c.lastHeartbeat) : t('ast.pile.never')}</TableCell>
                <TableCell className={styles.code} title={t('ast.connector.qrPayload')} data-testid="connector-qr">
                  {c.qrPayload}
                </TableCell>
                <TableCell>
                  <ConnectorActions c={c} onDone={() => void mutate()} />
                  <Button size="small" appearance="subtle" onClick={() => setHistory({ id: c.id, label: `${c.pileCode} #${c.number}` })}>
                    {t('ast.connector.history')}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {isLoading && <Spinner size="tiny" />}
      </div>
      <Pager page={page.no} pageSize={page.size} total={data?.total ?? 0} onChange={(no, size) => setPage({ no, size })} />
      <HistoryDialog connectorId={history?.id ?? null} label={history?.label} onClose={() => setHistory(null)} />
    </Card>
  );
}
