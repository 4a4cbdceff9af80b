import {
  Button,
  Caption1,
  Card,
  Dropdown,
  Field,
  Input,
  Link,
  makeStyles,
  Option,
  ProgressBar,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons/svg/arrow-download';
import { SearchRegular } from '@fluentui/react-icons/svg/search';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StationPicker } from '@/components/StationPicker';
import { useNavigate } from 'react-router';
import useSWR from 'swr';
import { closeOrder, getOrderList, type OrderFilter, type OrderRow, type Sums } from '@/api/orders';
import { CursorPager } from '@/components/data/CursorPager';
import { currentCursor, fetchSize, firstPage, fromOldest, goNewer, goOlder, lastPage, withNext } from '@/components/data/cursorPages';
import { exportExcel } from '@/components/data/excel';
import { chinaDateTime, duration, kwh, yuan } from '@/components/data/format';
import { AnomalyBadges, OrderStatusBadge, PaymentBadge } from '@/components/orders/badges';
import { DEFAULT_ORDER_PAGE_SIZE, defaultFilter, exportFileName, normaliseFilter, orderListKey } from '@/components/orders/filterModel';
import { chargerLabel, orderExcelColumns } from '@/components/orders/orderColumns';
import { PromptDialog } from '@/components/orders/PromptDialog';
import { usePermission } from '@/components/Permission';
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
  num: { textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
});

const STATUSES = ['charging', 'finished', 'abnormal', 'cancelled'] as const;
const PAYMENTS = ['unpaid', 'paid', 'refunded', 'partiallyRefunded', 'writtenOff'] as const;
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
export default function OrderIndex() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const canWrite = usePermission(['write:system']);
  const [form, setForm] = useState<OrderFilter>(() => defaultFilter());
  const [filter, setFilter] = useState<OrderFilter>(form);
  const [pageSize, setPageSize] = useState(DEFAULT_ORDER_PAGE_SIZE);
  const [pages, setPages] = useState(firstPage);
  const [sums, setSums] = useState<Sums | null | undefined>(undefined);
  // The filter's count (first page's answer), kept while paging.
  const [total, setTotal] = useState<number | null | undefined>(undefined);
  const [exporting, setExporting] = useState<number | null>(null);
  const [closing, setClosing] = useState<OrderRow | null>(null);
  const cursor = currentCursor(pages);
  const sort = fromOldest(pages) ? 'oldest' : 'newest';
  const size = fetchSize(pages, pageSize, total);
  const { data, isLoading, mutate } = useSWR(orderListKey(filter, size, cursor, sort), () => getOrderList(filter, size, cursor, sort), {
    keepPreviousData: true,
  });
  // Names of the stations picked in the filter (for the export's file name).
  const [stationNames, setStationNames] = useState<Record<string, string>>({});

  // Remember where the next page starts; totals come with the first page only.
  useEffect(() => {
    if (!data) return;
    setPages((p) => withNext(p, data.cursor));
    if (!cursor) {
      setSums(data.sums);
      setTotal(data.total);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data]);

  const search = (f: OrderFilter) => {
    const clean = normaliseFilter(f);
    setForm(clean);
    setFilter(clean);
    setPages(firstPage());
    setSums(undefined);
    setTotal(undefined);
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
        columns: orderExcelColumns(t),
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
  const list = (fromOldest(pages) && data ? [...data.list].reverse() : data?.list) ?? [];
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
        </div>
        <div className={styles.actions}>
          <Button appearance="primary" icon={<SearchRegular />} onClick={() => search(form)} data-testid="order-search">
            {t('ord.filter.search')}
          </Button>
          <Button onClick={() => search(defaultFilter())}>{t('ord.filter.reset')}</Button>
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
        <div className={styles.scroll}>
          <Table className={styles.table} size="small" aria-label={t('ord.title')} data-testid="order-table">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>{t('ord.col.orderNo')}</TableHeaderCell>
                <TableHeaderCell>{t('ord.col.station')}</TableHeaderCell>
                <TableHeaderCell>{t('ord.col.user')}</TableHeaderCell>
                <TableHeaderCell>{t('ord.col.start')}</TableHeaderCell>
                <TableHeaderCell>{t('ord.col.duration')}</TableHeaderCell>
                <TableHeaderCell className={styles.num}>{t('ord.col.energy')}</TableHeaderCell>
                <TableHeaderCell className={styles.num}>{t('ord.col.amount')}</TableHeaderCell>
                <TableHeaderCell className={styles.num}>{t('ord.col.refunded')}</TableHeaderCell>
                <TableHeaderCell>{t('ord.col.status')}</TableHeaderCell>
                <TableHeaderCell>{t('ord.col.payment')}</TableHeaderCell>
                <TableHeaderCell>{t('ord.col.anomalies')}</TableHeaderCell>
                <TableHeaderCell>{t('ord.col.actions')}</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.map((r) => (
                <TableRow key={r.orderNo} data-testid="order-row">
                  <TableCell>
                    <Link onClick={() => navigate(`/order/detail?id=${encodeURIComponent(r.orderNo)}`)} data-testid="order-link">
                      {r.orderNo}
                    </Link>
                  </TableCell>
                  <TableCell>
                    {r.stationName || r.stationId}
                    <br />
                    <Caption1 className={styles.muted} data-testid="order-charger">
                      {chargerLabel(t, r)}
                    </Caption1>
                  </TableCell>
                  <TableCell>
                    {r.userId}
                    <br />
                    <Caption1 className={styles.muted}>{r.plate}</Caption1>
                  </TableCell>
                  <TableCell>{chinaDateTime(r.startTs)}</TableCell>
                  <TableCell>{duration((r.stopTs ?? Date.now() / 1000) - r.startTs, i18n.language)}</TableCell>
                  <TableCell className={styles.num}>{kwh(r.energyWh)}</TableCell>
                  <TableCell className={styles.num}>{yuan(r.amountFen)}</TableCell>
                  <TableCell className={styles.num}>{r.refundedFen ? yuan(r.refundedFen) : ''}</TableCell>
                  <TableCell>
                    <OrderStatusBadge status={r.status} />
                  </TableCell>
                  <TableCell>
                    <PaymentBadge status={r.paymentStatus} />
                  </TableCell>
                  <TableCell>
                    <div className={styles.badges}>
                      <AnomalyBadges anomalies={r.anomalies} />
                    </div>
                  </TableCell>
                  <TableCell>
                    <Button size="small" appearance="transparent" onClick={() => navigate(`/order/detail?id=${encodeURIComponent(r.orderNo)}`)}>
                      {t('ord.detail')}
                    </Button>
                    {canWrite && (r.status === 'abnormal' || (r.status === 'charging' && r.anomalies.length > 0)) && (
                      <Button size="small" appearance="transparent" onClick={() => setClosing(r)} data-testid="order-close">
                        {t('ord.close')}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
        {isLoading && <Spinner size="small" />}
        {!isLoading && list.length === 0 && <Text className={styles.muted}>{t('ord.empty')}</Text>}
        <CursorPager
          pages={pages}
          total={total}
          pageSize={pageSize}
          onNewest={() => setPages(firstPage())}
          onOldest={() => setPages(lastPage())}
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
