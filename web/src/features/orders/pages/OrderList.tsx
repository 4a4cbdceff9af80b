import {
  Button,
  Caption1,
  Card,
  Dropdown,
  Field,
  Input,
  makeStyles,
  Option,
  ProgressBar,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons/svg/arrow-download';
import { SearchRegular } from '@fluentui/react-icons/svg/search';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { StationPicker } from '@/features/stations';
import { useNavigate } from 'react-router';
import { closeOrder, type OrderFilter, type OrderRow, type Sums } from '../api/orders';
import { kwh, yuan } from '@/components/data/format';
import { ListView } from '@/components/list/ListView';
import { columnDirection, defaultFilter, normaliseFilter } from '../model/filterModel';
import { useOrderList, type SortColumn } from '../model/useOrderList';
import { orderColumns } from '../components/orderColumns';
import { PromptDialog } from '../components/PromptDialog';
import { usePermission } from '@/components/Permission';
import { settingsStore } from '@/store/settings';
import { notify } from '@/utils/notify';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', rowGap: '12px' },
  card: { padding: '16px', rowGap: '12px' },
  filters: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', gap: '8px 12px', alignItems: 'end' },
  // Fluent's Dropdown has a 250px minimum; in the filter grid it takes its cell.
  dropdown: { minWidth: 'auto', width: '100%' },
  actions: { display: 'flex', columnGap: '8px', flexWrap: 'wrap', alignItems: 'center' },
  sums: { display: 'flex', flexWrap: 'wrap', columnGap: '28px', rowGap: '8px', alignItems: 'baseline' },
  sum: { display: 'flex', flexDirection: 'column' },
  sumValue: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  muted: { color: tokens.colorNeutralForeground3 },
  scroll: { overflowX: 'auto' },
  table: { minWidth: '1250px', tableLayout: 'auto' },
  badges: { display: 'flex', flexWrap: 'wrap', gap: '4px' },
});

const STATUSES = ['charging', 'finished', 'abnormal', 'cancelled'] as const;
const PAYMENTS = ['unpaid', 'billed', 'paid', 'refunded', 'partiallyRefunded', 'writtenOff'] as const;
const ANOMALIES = ['stuck', 'flagged'] as const;

function SumsBar({ sums }: { sums: Sums | null | undefined }) {
  const { t } = useTranslation();
  const styles = useStyles();
  if (sums === undefined) return null;
  if (sums === null) return <Caption1 className={styles.muted}>{t('ord.sums.unavailable')}</Caption1>;
  const items: [string, string][] = [
    [t('ord.sums.orders'), String(sums.orders)],
    [t('ord.sums.energy'), kwh(sums.energyWh)],
    [t('ord.sums.amount'), yuan(sums.amountFen)],
    [t('ord.sums.paid'), yuan(sums.paidFen)],
    [t('ord.sums.refunded'), yuan(sums.refundedFen)],
    [t('ord.sums.net'), yuan(sums.netFen)],
  ];
  return (
    <div className={styles.sums} data-testid="order-sums" title={t('ord.sums.note')}>
      {items.map(([label, value]) => (
        <div key={label} className={styles.sum}>
          <Caption1 className={styles.muted}>{label}</Caption1>
          <span className={styles.sumValue}>{value}</span>
        </div>
      ))}
    </div>
  );
}

const FOLDED = ['stationId', 'status', 'paymentStatus', 'anomaly', 'orderNo', 'userId', 'plate'] as const;

/**
 * The filter form: what is being typed, from the applied filter. The page
 * mounts it anew (a `key`) whenever the applied filter changes (a search,
 * back, a link), so it follows the URL without copying state in a render.
 */
function OrderFilterForm({
  applied,
  onSearch,
  onStationName,
  folded,
  mobile,
  onFold,
  actions,
}: {
  applied: OrderFilter;
  onSearch: (f: OrderFilter) => void;
  onStationName: (id: string, name: string) => void;
  folded: boolean;
  mobile: boolean;
  onFold: () => void;
  actions: ReactNode;
}) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [form, setForm] = useState<OrderFilter>(applied);
  const foldedInUse = FOLDED.filter((k) => !!form[k]).length;
  const set = (k: keyof OrderFilter) => (value: string) => setForm((f) => ({ ...f, [k]: value }));
  const search = (f: OrderFilter) => {
    setForm(normaliseFilter(f));
    onSearch(f);
  };
  const dd = (k: keyof OrderFilter, values: readonly string[], label: (v: string) => string) => (
    <Dropdown
      className={styles.dropdown}
      value={form[k] ? label(form[k] as string) : t('ord.filter.any')}
      selectedOptions={[String(form[k] ?? '')]}
      onOptionSelect={(_, d) => set(k)(d.optionValue ?? '')}
      data-testid={`filter-${k}`}
    >
      <Option value="">{t('ord.filter.any')}</Option>
      {values.map((v) => (
        <Option key={v} value={v}>
          {label(v)}
        </Option>
      ))}
    </Dropdown>
  );
  return (
    <>
      <div className={styles.filters}>
        <Field label={t('ord.filter.from')}>
          <Input type="date" value={form.from} onChange={(_, d) => set('from')(d.value)} data-testid="filter-from" />
        </Field>
        <Field label={t('ord.filter.to')}>
          <Input type="date" value={form.to} onChange={(_, d) => set('to')(d.value)} data-testid="filter-to" />
        </Field>
        {!folded && (
        <>
        <Field label={t('ord.filter.station')} hint={t('picker.station.hint')}>
          <StationPicker
            className={styles.dropdown}
            aria-label={t('ord.filter.station')}
            value={form.stationId || undefined}
            onChange={(id, name) => {
              if (id && name) onStationName(id, name);
              set('stationId')(id ?? '');
            }}
            data-testid="filter-station"
          />
        </Field>
        <Field label={t('ord.filter.status')}>{dd('status', STATUSES, (v) => t(`ord.status.${v}`))}</Field>
        <Field label={t('ord.filter.payment')}>{dd('paymentStatus', PAYMENTS, (v) => t(`ord.payment.${v}`))}</Field>
        <Field label={t('ord.filter.anomaly')}>{dd('anomaly', ANOMALIES, (v) => t(`ord.anomalyFilter.${v}`))}</Field>
        <Field label={t('ord.filter.orderNo')}>
          <Input value={form.orderNo} onChange={(_, d) => set('orderNo')(d.value)} onKeyDown={(e) => e.key === 'Enter' && search(form)} data-testid="filter-orderNo" />
        </Field>
        <Field label={t('ord.filter.userId')}>
          <Input value={form.userId} onChange={(_, d) => set('userId')(d.value)} onKeyDown={(e) => e.key === 'Enter' && search(form)} />
        </Field>
        <Field label={t('ord.filter.plate')}>
          <Input value={form.plate} onChange={(_, d) => set('plate')(d.value)} onKeyDown={(e) => e.key === 'Enter' && search(form)} data-testid="filter-plate" />
        </Field>
        </>
        )}
      </div>
      <div className={styles.actions}>
        <Button appearance="primary" icon={<SearchRegular />} onClick={() => search(form)} data-testid="order-search">
          {t('ord.filter.search')}
        </Button>
        <Button onClick={() => search(defaultFilter())}>{t('ord.filter.reset')}</Button>
        {mobile && (
          <Button appearance="subtle" aria-expanded={!folded} onClick={onFold} data-testid="filter-fold">
            {folded ? t('ord.filter.more', { count: foldedInUse }) : t('ord.filter.fewer')}
          </Button>
        )}
        {actions}
      </div>
    </>
  );
}

/** Charging orders: filters, the filter's totals, cursor paging, export, manual close of stuck orders. */
export default function OrderList() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const canWrite = usePermission(['write:system']);
  const orders = useOrderList();
  const { filter, chosenSort, sums, exporting } = orders;
  const [closing, setClosing] = useState<OrderRow | null>(null);
  // On a phone the filters beyond the dates fold away, so the orders show on the first screen.
  const mobile = settingsStore.use((s) => s.device === 'mobile');
  const [unfolded, setUnfolded] = useState(false);
  const folded = mobile && !unfolded;
  // Names of the stations picked in the filter (for the export's file name).
  const [stationNames, setStationNames] = useState<Record<string, string>>({});

  const columns = orderColumns(t, {
    language: i18n.language,
    classes: { muted: styles.muted, badges: styles.badges },
    open: (r) => navigate(`/order/detail?id=${encodeURIComponent(r.orderNo)}`),
    close: canWrite ? setClosing : undefined,
  });
  const doExport = () =>
    orders.exportOrders(columns, {
      station: filter.stationId ? (stationNames[filter.stationId] ?? filter.stationId) : undefined,
      status: filter.status ? t(`ord.status.${filter.status}`) : undefined,
      payment: filter.paymentStatus ? t(`ord.payment.${filter.paymentStatus}`) : undefined,
      anomaly: filter.anomaly ? t(`ord.anomalyFilter.${filter.anomaly}`) : undefined,
    });

  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <OrderFilterForm
          key={orders.listKey}
          applied={filter}
          onSearch={orders.search}
          onStationName={(id, name) => setStationNames((m) => ({ ...m, [id]: name }))}
          folded={folded}
          mobile={mobile}
          onFold={() => setUnfolded((u) => !u)}
          actions={
            <>
              <Button icon={<ArrowDownloadRegular />} disabled={exporting !== null} onClick={() => void doExport()} data-testid="order-export">
                {t('ord.filter.export')}
              </Button>
              {exporting !== null && (
                <>
                  <ProgressBar style={{ width: 160 }} value={sums?.orders ? Math.min(1, exporting / sums.orders) : undefined} />
                  <Caption1 data-testid="export-progress">{t('ord.filter.exporting', { n: exporting })}</Caption1>
                </>
              )}
            </>
          }
        />
      </Card>
      <Card className={styles.card}>
        <SumsBar sums={sums} />
        <Caption1 className={styles.muted} data-testid="order-sort-note">
          {t(`ord.sort.${chosenSort}`)}
          {chosenSort !== 'newest' && chosenSort !== 'oldest' ? ` · ${t('ord.sort.rangeNote')}` : ''}
        </Caption1>
        <ListView
          list={orders.list}
          scrollClassName={styles.scroll}
          spinner={false}
          className={styles.table}
          aria-label={t('ord.title')}
          data-testid="order-table"
          data-sort={chosenSort}
          columns={columns}
          rowKey={(r) => r.orderNo}
          rowTestId="order-row"
          sort={{
            direction: (id) => columnDirection(chosenSort, id as SortColumn),
            onSort: (id) => orders.sortBy(id as SortColumn),
            title: (id) => (columnDirection(chosenSort, id as SortColumn) ? t(`ord.sort.${chosenSort}`) : t('ord.sort.by')),
          }}
        >
          {orders.isLoading && <Spinner size="small" />}
          {!orders.isLoading && orders.rows.length === 0 && <Text className={styles.muted}>{t('ord.empty')}</Text>}
        </ListView>
      </Card>
      <PromptDialog
        open={closing !== null}
        title={t('ord.closeTitle', { no: closing?.orderNo ?? '' })}
        hint={t('ord.closeHint')}
        fields={[{ label: t('ord.reason'), multiline: true, check: (v) => (v.trim() ? '' : t('ord.reasonRequired')) }]}
        onClose={() => setClosing(null)}
        onSubmit={async ([reason]) => {
          notify(await closeOrder(closing!.orderNo, reason ?? ''), 'success');
          orders.reload();
        }}
      />
    </div>
  );
}
