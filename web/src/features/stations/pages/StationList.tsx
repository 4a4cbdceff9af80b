import { Button, Card, Dropdown, Field, Input, Link, makeStyles, Option, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { DataText } from '@/components/data/DataText';
import { useNavigate } from 'react-router';
import { deleteStation, STATION_STATUSES, useStations, type Station, type StationFilter, type StationStatus } from '../api/assets';
import { StationStatusBadge } from '../components/ConnectorBits';
import { StationDialog } from '../components/StationDialog';
import { confirm } from '@/components/Confirm';
import type { ListColumn } from '@/components/list/columns';
import { ListView } from '@/components/list/ListView';
import { useListPage } from '@/components/list/useListPage';
import { RegionPicker } from '../components/RegionPicker';
import { usePermission } from '@/components/Permission';
import { notify } from '@/utils/notify';
import { useHoursText } from '../components/OpeningHoursField';
import { QueryForm, QueryFormLeftPanel, QueryFormRightPanel } from '@/components/QueryForm';
import { useTableHeight } from '@/utils/tableHeight';

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '12px' },
  scroll: { overflow: 'auto' },
  stickyHead: { position: 'sticky', top: 0, zIndex: 1, backgroundColor: tokens.colorNeutralBackground1 },
  table: { minWidth: '1100px' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** The station list's state in the URL: name prefix, region path (codes joined by commas), status, page. */
const LIST_DEFAULTS = { name: '', region: '', status: '', page: 1, size: 20 };
const STATUS_VALUES = ['', ...STATION_STATUSES] as const;
const regionPathOf = (region: string) => (region ? region.split(',') : []);
/** The stations of the list's state: the region filter is the last code of the path. */
const useStationList = (p: typeof LIST_DEFAULTS) => {
  const path = regionPathOf(p.region);
  return useStations({ name: p.name || undefined, regionCode: path[path.length - 1], status: p.status as StationStatus | '' } satisfies StationFilter, p.page, p.size);
};

/** /connector/station: the station list with name / region / status filters and paging. */
export default function StationList() {
  const { t } = useTranslation();
  const hoursText = useHoursText();
  const styles = useStyles();
  const navigate = useNavigate();
  const canWrite = usePermission(['write:system']);
  const canDelete = usePermission(['delete:system']);
  const list = useListPage(LIST_DEFAULTS, useStationList, { allowed: { status: STATUS_VALUES } });
  const { params, set, mutate } = list;
  const regionPath = regionPathOf(params.region);
  // The form being typed; it follows the URL when the URL changes (search, back, a link).
  const [name, setName] = useState(params.name);
  const [region, setRegion] = useState<string[]>(regionPath);
  const [status, setStatus] = useState<StationStatus | ''>(params.status as StationStatus | '');
  const [shown, setShown] = useState(params);
  if (shown.name !== params.name || shown.region !== params.region || shown.status !== params.status) {
    setShown(params);
    setName(params.name);
    setRegion(regionPath);
    setStatus(params.status as StationStatus | '');
  }
  const [creating, setCreating] = useState(false);
  // The filters wrap into more rows on narrow windows (and the actions go under them on small screens).
  const [queryRows, setQueryRows] = useState(1);
  const tableMax = useTableHeight(queryRows - 1);

  const search = () => {
    set({ name: name.trim(), region: region.join(','), status, page: 1 });
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

  const columns: ListColumn<Station>[] = [
    { id: 'code', header: t('ast.station.code'), cell: (s) => s.code },
    { id: 'name', header: t('ast.station.name'), data: true, cell: (s) => <Link onClick={() => open(s)}>{s.name}</Link> },
    { id: 'region', header: t('ast.station.region'), data: true, cell: (s) => s.regionName },
    { id: 'status', header: t('ast.station.status'), cell: (s) => <StationStatusBadge status={s.status} /> },
    { id: 'piles', header: t('ast.station.piles'), cell: (s) => s.pileCount },
    { id: 'connectors', header: t('ast.station.connectors'), cell: (s) => s.connectorCount },
    { id: 'tariff', header: t('ast.station.tariff'), cell: (s) => (s.tariffName ? <DataText>{s.tariffName}</DataText> : <span className={styles.muted}>{t('ast.station.noTariff')}</span>) },
    { id: 'hours', header: t('ast.station.openingHours'), cell: (s) => hoursText(s.openingHours), testId: 'station-hours' },
    { id: 'phone', header: t('ast.station.phone'), cell: (s) => s.servicePhone },
    {
      id: 'actions',
      header: '',
      cell: (s) => (
        <>
          <Button size="small" appearance="transparent" onClick={() => open(s)}>
            {t('ast.station.settings')}
          </Button>
          {canDelete && (
            <Button size="small" appearance="transparent" onClick={() => void remove(s)} data-testid="station-delete">
              {t('ast.station.delete')}
            </Button>
          )}
        </>
      ),
    },
  ];

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
            set({ name: '', region: '', status: '', page: 1 });
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
      <ListView
        list={list}
        scrollClassName={styles.scroll}
        scrollStyle={{ maxHeight: `${tableMax}px` }}
        scrollTestId="station-table-scroll"
        spinner="tiny"
        className={styles.table}
        headerClassName={styles.stickyHead}
        data-testid="station-table"
        columns={columns}
        rowKey={(s) => s.id}
        rowTestId="station-row"
        empty={<span className={styles.muted}>{t('ast.station.empty')}</span>}
      />
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
