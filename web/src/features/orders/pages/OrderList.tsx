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
import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StationPicker } from '@/features/stations';
import { useNavigate } from 'react-router';
import { closeOrder, filterKey, getOrderList, ORDER_SORTS, useOrderPage, type OrderFilter, type OrderRow, type OrderSort, type Sums } from '../api/orders';
import { CursorPager } from '@/components/data/CursorPager';
import { currentCursor, fetchSize, firstPage, fromOldest, goNewer, goOlder, lastPage, withNext } from '@/components/data/cursorPages';
import { exportExcel } from '@/components/data/excel';
import { kwh, yuan } from '@/components/data/format';
import { excelColumns } from '@/components/list/columns';
import { useListParams } from '@/components/list/listParams';
import { ListTable } from '@/components/list/ListTable';
import {
  columnDirection,
  DEFAULT_ORDER_PAGE_SIZE,
  defaultFilter,
  exportFileName,
  filtersBeyondRange,
  nextSort,
  normaliseFilter,
} from '../model/filterModel';
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

/** Charging orders: filters, the filter's totals, cursor paging, export, manual close of stuck orders. */
export default function OrderList() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const canWrite = usePermission(['write:system']);
  // The applied filter and the sort live in the URL (a filtered list is a link; kept on reload, back restores).
  const [defaults] = useState(() => ({ ...(defaultFilter() as Record<keyof OrderFilter, string>), sort: 'newest' as OrderSort }));
  const listState = useListParams(defaults, { allowed: { sort: ORDER_SORTS } });
  const { sort: chosenSort, ...filter } = listState.params as typeof defaults & OrderFilter;
  const listKey = filterKey(filter);
  // The form being typed; it follows the URL when the URL changes (search, back, a link).
  const [form, setForm] = useState<OrderFilter>(filter);
  const [pageSize, setPageSize] = useState(DEFAULT_ORDER_PAGE_SIZE);
  const [pages, setPages] = useState(firstPage);
  const [sums, setSums] = useState<Sums | null | undefined>(undefined);
  // The filter's count (first page's answer), kept while paging.
  const [total, setTotal] = useState<number | null | undefined>(undefined);
  const [exporting, setExporting] = useState<number | null>(null);
  const [closing, setClosing] = useState<OrderRow | null>(null);
  // On a phone the filters beyond the dates fold away, so the orders show on the first screen.
  const mobile = settingsStore.use((s) => s.device === 'mobile');
  const [unfolded, setUnfolded] = useState(false);
  const folded = mobile && !unfolded;
  const foldedInUse = (['stationId', 'status', 'paymentStatus', 'anomaly', 'orderNo', 'userId', 'plate'] as const).filter((k) => !!form[k]).length;
  // A new filter or sort starts again at the first page; a new filter also forgets the totals.
  const [shown, setShown] = useState({ listKey, chosenSort });
  if (shown.listKey !== listKey || shown.chosenSort !== chosenSort) {
    setShown({ listKey, chosenSort });
    setPages(firstPage());
    if (shown.listKey !== listKey) {
      setForm(filter);
      setSums(undefined);
      setTotal(undefined);
    }
  }
  // Newest first keeps the pager's jump to the oldest page (read from that end).
  const byTimeNewest = chosenSort === 'newest';
  const cursor = currentCursor(pages);
  const sort: OrderSort = byTimeNewest ? (fromOldest(pages) ? 'oldest' : 'newest') : chosenSort;
  const size = fetchSize(pages, pageSize, total);
  const { data, isLoading, mutate } = useOrderPage(filter, size, cursor, sort);
  // Names of the stations picked in the filter (for the export's file name).
  const [stationNames, setStationNames] = useState<Record<string, string>>({});

  // Remember where the next page starts; totals come with the first page only.
  // Once per answer: the cursor is the one it was asked for, read, not followed.
  const onAnswer = useEffectEvent(() => {
    if (!data) return;
    setPages((p) => withNext(p, data.cursor));
    if (!cursor) {
      setSums(data.sums);
      setTotal(data.total);
    }
  });
  useEffect(() => {
    onAnswer();
  }, [data]);

  const sortBy = (column: 'start' | 'amount' | 'energy') => {
    const next = nextSort(chosenSort, column);
    if (column !== 'start' && next !== 'newest' && filtersBeyondRange(filter)) {
      notify(t('ord.sort.rangeOnly'), 'warning');
      return;
    }
    listState.set({ sort: next }, { replace: true });
  };

  const search = (f: OrderFilter) => {
    const clean = normaliseFilter(f);
    // Amount and energy sort the date range alone (the server refuses more).
    const keepSort = byTimeNewest || chosenSort === 'oldest' || !filtersBeyondRange(clean);
    if (!keepSort) notify(t('ord.sort.rangeOnly'), 'warning');
    setForm(clean);
    if (filterKey(clean) === listKey && keepSort) {
      // The same filter again: read it afresh from its first page (its totals
      // stay until the answer replaces them: an unchanged answer is not new data).
      setPages(firstPage());
      void mutate();
      return;
    }
    const all = Object.fromEntries(Object.keys(defaultFilter()).map((k) => [k, clean[k as keyof OrderFilter] ?? ''])) as Record<keyof OrderFilter, string>;
    listState.set(keepSort ? all : { ...all, sort: 'newest' });
  };

  const set = (k: keyof OrderFilter) => (value: string) => setForm((f) => ({ ...f, [k]: value }));

  const doExport = async () => {
    setExporting(0);
    try {
      const res = await exportExcel<OrderRow>({
        fileName: exportFileName(filter, {
          station: filter.stationId ? (stationNames[filter.stationId] ?? filter.stationId) : undefined,
          status: filter.status ? t(`ord.status.${filter.status}`) : undefined,
          payment: filter.paymentStatus ? t(`ord.payment.${filter.paymentStatus}`) : undefined,
          anomaly: filter.anomaly ? t(`ord.anomalyFilter.${filter.anomaly}`) : undefined,
        }),
        sheetName: t('ord.title'),
        columns: excelColumns(columns),
        fetchPage: async (c) => {
          const p = await getOrderList(filter, 500, c);
          return { rows: p.list, cursor: p.cursor };
        },
        onProgress: setExporting,
        footer: sums ? [[t('fin.total'), sums.orders, `${kwh(sums.energyWh, false)} kWh`, `${yuan(sums.amountFen, false)}`]] : undefined,
      });
      notify(res.truncated ? t('ord.filter.truncated', { n: res.rows }) : t('ord.filter.exported', { n: res.rows }), res.truncated ? 'warning' : 'success');
    } catch {
      /* request errors were shown */
    } finally {
      setExporting(null);
    }
  };

  // From the oldest end the rows come oldest first; the table stays newest first.
  const list = (byTimeNewest && fromOldest(pages) && data ? [...data.list].reverse() : data?.list) ?? [];
  const columns = orderColumns(t, {
    language: i18n.language,
    classes: { muted: styles.muted, badges: styles.badges },
    open: (r) => navigate(`/order/detail?id=${encodeURIComponent(r.orderNo)}`),
    close: canWrite ? setClosing : undefined,
  });
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
    <div className={styles.page}>
      <Card className={styles.card}>
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
                if (id && name) setStationNames((m) => ({ ...m, [id]: name }));
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
            <Button appearance="subtle" aria-expanded={!folded} onClick={() => setUnfolded((u) => !u)} data-testid="filter-fold">
              {folded ? t('ord.filter.more', { count: foldedInUse }) : t('ord.filter.fewer')}
            </Button>
          )}
          <Button icon={<ArrowDownloadRegular />} disabled={exporting !== null} onClick={() => void doExport()} data-testid="order-export">
            {t('ord.filter.export')}
          </Button>
          {exporting !== null && (
            <>
              <ProgressBar style={{ width: 160 }} value={sums?.orders ? Math.min(1, exporting / sums.orders) : undefined} />
              <Caption1 data-testid="export-progress">{t('ord.filter.exporting', { n: exporting })}</Caption1>
            </>
          )}
        </div>
      </Card>
      <Card className={styles.card}>
        <SumsBar sums={sums} />
        <Caption1 className={styles.muted} data-testid="order-sort-note">
          {t(`ord.sort.${chosenSort}`)}
          {chosenSort !== 'newest' && chosenSort !== 'oldest' ? ` · ${t('ord.sort.rangeNote')}` : ''}
        </Caption1>
        <div className={styles.scroll}>
          <ListTable
            className={styles.table}
            aria-label={t('ord.title')}
            data-testid="order-table"
            data-sort={chosenSort}
            columns={columns}
            rows={list}
            rowKey={(r) => r.orderNo}
            rowTestId="order-row"
            sort={{
              direction: (id) => columnDirection(chosenSort, id as 'start' | 'amount' | 'energy'),
              onSort: (id) => sortBy(id as 'start' | 'amount' | 'energy'),
              title: (id) => (columnDirection(chosenSort, id as 'start' | 'amount' | 'energy') ? t(`ord.sort.${chosenSort}`) : t('ord.sort.by')),
            }}
          />
        </div>
        {isLoading && <Spinner size="small" />}
        {!isLoading && list.length === 0 && <Text className={styles.muted}>{t('ord.empty')}</Text>}
        <CursorPager
          pages={pages}
          total={total}
          pageSize={pageSize}
          onNewest={() => setPages(firstPage())}
          onOldest={byTimeNewest ? () => setPages(lastPage()) : undefined}
          onNewer={() => setPages(goNewer)}
          onOlder={() => setPages(goOlder)}
          onSize={(n) => {
            setPageSize(n);
            setPages(firstPage());
          }}
        />
      </Card>
      <PromptDialog
        open={closing !== null}
        title={t('ord.closeTitle', { no: closing?.orderNo ?? '' })}
        hint={t('ord.closeHint')}
        fields={[{ label: t('ord.reason'), multiline: true, check: (v) => (v.trim() ? '' : t('ord.reasonRequired')) }]}
        onClose={() => setClosing(null)}
        onSubmit={async ([reason]) => {
          notify(await closeOrder(closing!.orderNo, reason ?? ''), 'success');
          setSums(undefined);
          setTotal(undefined);
          setPages(firstPage());
          void mutate();
        }}
      />
    </div>
  );
}
