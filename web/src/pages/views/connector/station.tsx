import { Button, Card, Dropdown, Field, Input, Link, makeStyles, Option, Spinner, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import useSWR from 'swr';
import { deleteStation, getStations, STATION_STATUSES, type Station, type StationFilter, type StationStatus } from '@/api/assets';
import { StationStatusBadge } from '@/components/assets/ConnectorBits';
import { StationDialog } from '@/components/assets/StationDialog';
import { confirm } from '@/components/Confirm';
import { Pager } from '@/components/demo/Pager';
import { RegionPicker } from '@/components/demo/RegionPicker';
import { usePermission } from '@/components/Permission';
import { notify } from '@/utils/notify';
import { useHoursText } from '@/components/assets/OpeningHoursField';
import { QueryForm, QueryFormLeftPanel, QueryFormRightPanel } from '@/components/QueryForm';
import { useTableHeight } from '@/utils/tableHeight';

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '12px' },
  scroll: { overflow: 'auto' },
  stickyHead: { position: 'sticky', top: 0, zIndex: 1, backgroundColor: tokens.colorNeutralBackground1 },
  table: { minWidth: '1100px' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** /connector/station: the station list with name / region / status filters and paging. */
export default function StationList() {
  const { t } = useTranslation();
  const hoursText = useHoursText();
  const styles = useStyles();
  const navigate = useNavigate();
  const canWrite = usePermission(['write:system']);
  const canDelete = usePermission(['delete:system']);
  const [name, setName] = useState('');
  const [region, setRegion] = useState<string[]>([]);
  const [status, setStatus] = useState<StationStatus | ''>('');
  const [filter, setFilter] = useState<StationFilter>({});
  const [page, setPage] = useState({ no: 1, size: 20 });
  const [creating, setCreating] = useState(false);
  // The filters wrap into more rows on narrow windows (and the actions go under them on small screens).
  const [queryRows, setQueryRows] = useState(1);
  const tableMax = useTableHeight(queryRows - 1);
  const { data, isLoading, mutate } = useSWR(['station/getList', filter, page.no, page.size], () => getStations(filter, page.no, page.size));

  const search = () => {
    setFilter({ name: name.trim() || undefined, regionCode: region[region.length - 1], status });
    setPage((p) => ({ ...p, no: 1 }));
  };
  const open = (s: Station) => navigate(`/connector/stationdetail?id=${encodeURIComponent(s.id)}`);

  async function remove(s: Station) {
    if (!(await confirm(t('ast.station.deleteConfirm', { name: s.name })))) return;
    try {
      const res = await deleteStation(s.id, s.version);
      notify(res.msg, 'success');
      void mutate();
    } catch {
      // The server's reason (e.g. piles still there) was shown.
    }
  }

  return (
    <Card className={styles.card}>
      <QueryForm testId="station-query" onRows={setQueryRows}>
        <QueryFormLeftPanel>
        <Field label={t('ast.station.namePrefix')}>
          <Input value={name} onChange={(_, d) => setName(d.value)} onKeyDown={(e) => e.key === 'Enter' && search()} data-testid="station-filter-name" />
        </Field>
        <Field label={t('ast.station.region')}>
          <RegionPicker value={region} onChange={(codes) => setRegion(codes)} />
        </Field>
        <Field label={t('ast.station.status')}>
          <Dropdown aria-label={t('ast.station.status')} value={status ? t(`ast.status.${status}`) : t('ast.any')} selectedOptions={[status]} onOptionSelect={(_, d) => setStatus((d.optionValue ?? '') as StationStatus | '')}>
            <Option value="">{t('ast.any')}</Option>
            {STATION_STATUSES.map((s) => (
              <Option key={s} value={s}>
                {t(`ast.status.${s}`)}
              </Option>
            ))}
          </Dropdown>
        </Field>
        <Button appearance="primary" onClick={search} data-testid="station-search">
          {t('ast.station.search')}
        </Button>
        <Button
          onClick={() => {
            setName('');
            setRegion([]);
            setStatus('');
            setFilter({});
            setPage((p) => ({ ...p, no: 1 }));
          }}
        >
          {t('ast.station.reset')}
        </Button>
        </QueryFormLeftPanel>
        <QueryFormRightPanel>
        {canWrite && (
          <Button appearance="primary" onClick={() => setCreating(true)} data-testid="station-add">
            {t('ast.station.add')}
          </Button>
        )}
        </QueryFormRightPanel>
      </QueryForm>
      <div className={styles.scroll} style={{ maxHeight: `${tableMax}px` }} data-testid="station-table-scroll">
        <Table className={styles.table} size="small" data-testid="station-table">
          <TableHeader className={styles.stickyHead}>
            <TableRow>
              <TableHeaderCell>{t('ast.station.code')}</TableHeaderCell>
              <TableHeaderCell>{t('ast.station.name')}</TableHeaderCell>
              <TableHeaderCell>{t('ast.station.region')}</TableHeaderCell>
              <TableHeaderCell>{t('ast.station.status')}</TableHeaderCell>
              <TableHeaderCell>{t('ast.station.piles')}</TableHeaderCell>
              <TableHeaderCell>{t('ast.station.connectors')}</TableHeaderCell>
              <TableHeaderCell>{t('ast.station.tariff')}</TableHeaderCell>
              <TableHeaderCell>{t('ast.station.openingHours')}</TableHeaderCell>
              <TableHeaderCell>{t('ast.station.phone')}</TableHeaderCell>
              <TableHeaderCell />
            </TableRow>
          </TableHeader>
          <TableBody>
            {(data?.list ?? []).map((s) => (
              <TableRow key={s.id} data-testid="station-row">
                <TableCell>{s.code}</TableCell>
                <TableCell>
                  <Link onClick={() => open(s)}>{s.name}</Link>
                </TableCell>
                <TableCell>{s.regionName}</TableCell>
                <TableCell>
                  <StationStatusBadge status={s.status} />
                </TableCell>
                <TableCell>{s.pileCount}</TableCell>
                <TableCell>{s.connectorCount}</TableCell>
                <TableCell>{s.tariffName ?? <span className={styles.muted}>{t('ast.station.noTariff')}</span>}</TableCell>
                <TableCell data-testid="station-hours">{hoursText(s.openingHours)}</TableCell>
                <TableCell>{s.servicePhone}</TableCell>
                <TableCell>
                  <Button size="small" appearance="transparent" onClick={() => open(s)}>
                    {t('ast.station.settings')}
                  </Button>
                  {canDelete && (
                    <Button size="small" appearance="transparent" onClick={() => void remove(s)} data-testid="station-delete">
                      {t('ast.station.delete')}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
            {data && data.list.length === 0 && (
              <TableRow>
                <TableCell colSpan={10} className={styles.muted}>
                  {t('ast.station.empty')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
        {isLoading && <Spinner size="tiny" />}
      </div>
      <Pager page={page.no} pageSize={page.size} total={data?.total ?? 0} onChange={(no, size) => setPage({ no, size })} />
      {/* Mounted only while open: closing unmounts it at once (no exit
          animation), so nothing invisible is left over the next tab. */}
      {creating && (
      <StationDialog
        open={creating}
        onClose={() => setCreating(false)}
        onSaved={(s) => {
          // Close before navigating: once this tab is hidden its updates are
          // deferred, and the dialog would stay over the new tab.
          flushSync(() => setCreating(false));
          notify(t('ast.saved'), 'success');
          void mutate();
          open(s);
        }}
      />
      )}
    </Card>
  );
}
