import {
  Body1,
  Button,
  Caption1,
  Card,
  Dropdown,
  Field,
  Input,
  Link,
  makeStyles,
  Option,
  Spinner,
  Subtitle2,
  Tab,
  TabList,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons/svg/arrow-download';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { getLedger, getRefunds, useByStation, useRevenue, useSettlement, type LedgerEntry, type ListDirection, type QueueEntry, type QueueOrderMoney, type Sums } from '@/features/orders';
import { periodColumn, RefundDecisionButtons, RefundDecisionDialog, stationColumn, sumsColumns, trendOption, type RefundDecision } from '@/features/orders';
import { useCursorList } from '@/components/data/useCursorList';
import { addDays, zonedDateTime, chinaDay, kwh, relativeAge, yuan } from '@/components/data/format';
import { LazyChart } from '@/components/LazyChart';
import { usePermission } from '@/components/Permission';
import { excelColumns, exportList, type ListColumn } from '@/components/list/columns';
import { useListParams } from '@/components/list/listParams';
import { ListTable } from '@/components/list/ListTable';
import { ListView } from '@/components/list/ListView';
import { HolderBills } from '../components/HolderBills';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', rowGap: '12px' },
  card: { padding: '16px', rowGap: '12px' },
  bar: { display: 'flex', flexWrap: 'wrap', gap: '8px 12px', alignItems: 'end' },
  cards: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: '12px' },
  stat: { padding: '12px', display: 'flex', flexDirection: 'column', rowGap: '4px' },
  statValue: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold, fontVariantNumeric: 'tabular-nums' },
  muted: { color: tokens.colorNeutralForeground3 },
  chart: { width: '100%', height: '320px' },
  scroll: { overflowX: 'auto' },
  num: { textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
  total: { fontWeight: tokens.fontWeightSemibold },
  // Columns as wide as their content (order numbers, ages) rather than equal slices.
  queue: { minWidth: '1100px', tableLayout: 'auto' },
  nowrap: { whiteSpace: 'nowrap' },
});

const TABS = ['revenue', 'stations', 'settlement', 'refunds', 'ledger', 'bills'] as const;
type TabKey = (typeof TABS)[number];
const DIRECTIONS: ListDirection[] = ['oldest', 'newest'];

export function SumCards({ sums }: { sums: Sums }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const items: [string, string, string][] = [
    ['orders', t('fin.cards.orders'), String(sums.orders)],
    ['energy', t('fin.cards.energy'), kwh(sums.energyWh)],
    ['electricity', t('fin.cards.electricity'), yuan(sums.electricityFen)],
    ['service', t('fin.cards.service'), yuan(sums.serviceFen)],
    ['parking', t('fin.cards.parking'), yuan(sums.parkingFen)],
    ['paid', t('fin.cards.paid'), yuan(sums.paidFen)],
    ['refunds', t('fin.cards.refunds'), yuan(sums.refundedFen)],
    ['writtenOff', t('fin.cards.writtenOff'), yuan(sums.writtenOffFen)],
    ['net', t('fin.cards.net'), yuan(sums.netFen)],
  ];
  return (
    <div className={styles.cards}>
      {items.map(([k, label, value]) => (
        <Card key={k} className={styles.stat} appearance="filled-alternative" data-testid={`fin-${k}`}>
          <Caption1 className={styles.muted}>{label}</Caption1>
          <span className={styles.statValue}>{value}</span>
        </Card>
      ))}
    </div>
  );
}

/** A finance table: a row per period or station, then the total (its first cell says so). */
function SumsTable<T extends Sums>({ rows, total, columns, rowKey, testid }: { rows: T[]; total: Sums; columns: ListColumn<T>[]; rowKey: (r: T) => string; testid: string }) {
  const { t } = useTranslation();
  const styles = useStyles();
  return (
    <div className={styles.scroll}>
      <ListTable
        data-testid={testid}
        columns={columns}
        rows={rows}
        rowKey={rowKey}
        total={{ row: total as T, label: t('fin.total'), className: styles.total, testId: `${testid}-total` }}
      />
    </div>
  );
}

async function exportRows<T extends Sums>(name: string, sheet: string, listColumns: ListColumn<T>[], rows: T[], total: Sums, totalLabel: string) {
  const columns = excelColumns(listColumns);
  await exportList(listColumns, {
    fileName: name,
    sheetName: sheet,
    rows,
    footer: [[totalLabel, ...columns.slice(1).map((c) => c.value(total as T) ?? '')] as (string | number)[]],
  });
}

/** The refund queue; its sort (oldest first unless the user turns it) lives in the URL with the page's other state. */
function PendingRefunds({ sort, onSort }: { sort: ListDirection; onSort: (next: ListDirection) => void }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const canApprove = usePermission(['approve:refund']);
  const [deciding, setDeciding] = useState<RefundDecision | null>(null);
  // Every request, page by page with the store's cursor (no cap on the queue's length).
  const queue = useCursorList(['order/refund/getList', 'pending', sort], (cursor, size) => getRefunds('pending', size, sort, cursor));
  const list = queue.rows;
  const mutate = queue.mutate;
  const now = Date.now() / 1000;
  // Declared once: the table and the export.
  const orderMoney = (pick: (o: QueueOrderMoney) => number): ListColumn<QueueEntry>['excel'] => ({ value: (r) => (r.order ? pick(r.order) / 100 : null), numFmt: '0.00' });
  const columns: ListColumn<QueueEntry>[] = [
    {
      id: 'orderNo',
      header: t('ord.col.orderNo'),
      className: styles.nowrap,
      cell: (r) => <Link onClick={() => navigate(`/order/detail?id=${encodeURIComponent(r.orderNo)}`)}>{r.orderNo}</Link>,
      excel: { value: (r) => r.orderNo, width: 24 },
    },
    {
      id: 'age',
      header: t('fin.queue.age'),
      sortable: true,
      headerTestId: 'pending-sort',
      className: styles.nowrap,
      testId: 'pending-age',
      cell: (r) => <span title={zonedDateTime(r.requestedAt)}>{relativeAge(r.requestedAt, i18n.language, now)}</span>,
      excel: { header: t('ord.d.requestedAt'), value: (r) => zonedDateTime(r.requestedAt), width: 20 },
    },
    { id: 'amount', header: t('ord.d.amount'), numeric: true, cell: (r) => yuan(r.amountFen), excel: { value: (r) => r.amountFen / 100, numFmt: '0.00' } },
    { id: 'paid', header: t('fin.queue.paid'), numeric: true, testId: 'pending-paid', cell: (r) => yuan(r.order?.paidFen), excel: orderMoney((o) => o.paidFen) },
    { id: 'refunded', header: t('fin.queue.refunded'), numeric: true, cell: (r) => yuan(r.order?.refundedFen), excel: orderMoney((o) => o.refundedFen) },
    {
      id: 'remaining',
      header: t('fin.queue.remaining'),
      headerTitle: t('fin.queue.remainingHint'),
      numeric: true,
      testId: 'pending-remaining',
      cell: (r) => yuan(r.order?.remainingFen),
      excel: orderMoney((o) => o.remainingFen),
    },
    { id: 'reason', header: t('ord.d.reasonCol'), cell: (r) => r.reason, excel: { value: (r) => r.reason, width: 30 } },
    { id: 'requestedBy', header: t('ord.d.requestedBy'), cell: (r) => r.requestedBy, excel: { value: (r) => r.requestedBy } },
    { id: 'actions', header: '', cell: (r) => canApprove && <RefundDecisionButtons refund={r} onDecide={setDeciding} testid="pending" /> },
  ];
  const exportQueue = () =>
    exportList(columns, {
      fileName: `refund-requests-${chinaDay(now)}.xlsx`,
      sheetName: t('fin.tabs.refunds'),
      fetchPage: async (cursor) => {
        const page = await getRefunds('pending', 200, sort, cursor);
        return { rows: page.list, cursor: page.cursor };
      },
    });
  return (
    <>
      <div className={styles.bar}>
        {!canApprove && <Caption1 className={styles.muted}>{t('fin.onlyAdmin')}</Caption1>}
        <Button icon={<ArrowDownloadRegular />} disabled={list.length === 0} onClick={() => void exportQueue()} data-testid="pending-export">
          {t('fin.export')}
        </Button>
      </div>
      {queue.loaded && list.length === 0 && <Body1>{t('fin.noPending')}</Body1>}
      <ListView
        list={queue}
        scrollClassName={styles.scroll}
        spinner={false}
        className={styles.queue}
        data-testid="pending-refunds"
        columns={columns}
        rowKey={(r) => r.id}
        rowTestId="pending-refund"
        sort={{
          direction: () => (sort === 'oldest' ? 'descending' : 'ascending'),
          onSort: () => onSort(sort === 'oldest' ? 'newest' : 'oldest'),
          title: () => (sort === 'oldest' ? t('fin.queue.oldestFirst') : t('fin.queue.newestFirst')),
        }}
      />
      <RefundDecisionDialog decision={deciding} onClose={() => setDeciding(null)} onDone={() => void mutate()} />
    </>
  );
}

/** Finance: revenue by day / month and station, settlement statements, refund approval and ledger. */
export default function Finance() {
  const { t } = useTranslation();
  const styles = useStyles();
  const today = chinaDay(Date.now() / 1000);
  // The tab, range, granularity, station and queue order live in the URL (a link; kept on reload; back restores).
  const [defaults] = useState(() => ({ tab: 'revenue' as TabKey, from: addDays(today, -29), to: today, granularity: 'day' as 'day' | 'month', station: '', queue: 'oldest' as ListDirection, month: today.slice(0, 7) }));
  const { params, set } = useListParams(defaults, { allowed: { tab: TABS, granularity: ['day', 'month'], queue: DIRECTIONS } });
  const { tab, granularity, station } = params;
  const range = { from: params.from, to: params.to };
  // The range being typed; it follows the URL when the URL changes.
  const [typed, setTyped] = useState(range);
  const [shownRange, setShownRange] = useState(range);
  if (shownRange.from !== range.from || shownRange.to !== range.to) {
    setShownRange(range);
    setTyped(range);
  }
  const setTab = (next: TabKey) => set({ tab: next });
  const setRange = (next: { from: string; to: string }) => set(next);
  const setGranularity = (next: 'day' | 'month') => set({ granularity: next });
  const setStation = (next: string) => set({ station: next });
  const revenue = useRevenue(granularity, range.from, range.to, tab === 'revenue');
  const byStation = useByStation(range.from, range.to);
  const settlement = useSettlement(station, range.from, range.to, tab === 'settlement');
  // The ledger of the range, page by page with the store's cursor.
  const ledger = useCursorList(tab === 'ledger' ? ['money/ledger', range.from, range.to] : null, (cursor, size) => getLedger(range.from, range.to, size, cursor));
  const stationName = (id: string) => byStation.data?.list.find((s) => s.stationId === id)?.stationName ?? id;
  // The ledger's columns, declared once: its table and its export.
  const kindOf = (e: LedgerEntry) => e.kind ?? 'refund';
  const ledgerColumns: ListColumn<LedgerEntry>[] = [
    { id: 'at', header: t('fin.ledgerCols.at'), cell: (e) => zonedDateTime(e.approvedAt), excel: { value: (e) => zonedDateTime(e.approvedAt), width: 20 } },
    {
      id: 'kind',
      header: t('fin.ledgerCols.kind'),
      cell: (e) => (
        <>
          {t(`fin.ledgerKind.${kindOf(e)}`)}
          {e.method ? ` · ${t(`ord.pay.method.${e.method}`)}` : ''}
          {e.reference ? ` · ${e.reference}` : ''}
        </>
      ),
      excel: { value: (e) => [t(`fin.ledgerKind.${kindOf(e)}`), e.method ? t(`ord.pay.method.${e.method}`) : '', e.reference ?? ''].filter(Boolean).join(' · '), width: 20 },
    },
    // A settlement's id only repeats its order number.
    { id: 'refundId', header: t('fin.ledgerCols.refundId'), cell: (e) => (kindOf(e) === 'refund' ? e.refundId : '—'), excel: { value: (e) => (kindOf(e) === 'refund' ? e.refundId : ''), width: 24 } },
    { id: 'orderNo', header: t('ord.col.orderNo'), cell: (e) => e.orderNo, excel: { value: (e) => e.orderNo, width: 24 } },
    { id: 'station', header: t('ord.col.station'), cell: (e) => stationName(e.stationId), excel: { value: (e) => stationName(e.stationId), width: 24 } },
    { id: 'amount', header: t('ord.d.amount'), numeric: true, cell: (e) => yuan(e.amountFen), excel: { value: (e) => e.amountFen / 100, numFmt: '0.00' } },
    { id: 'reason', header: t('ord.d.reasonCol'), cell: (e) => e.reason, excel: { value: (e) => e.reason, width: 30 } },
    { id: 'by', header: t('fin.ledgerCols.by'), cell: (e) => e.approvedBy, excel: { value: (e) => e.approvedBy } },
  ];

  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <div className={styles.bar}>
          <Field label={t('ord.filter.from')}>
            <Input type="date" value={typed.from} onChange={(_, d) => setTyped((r) => ({ ...r, from: d.value }))} data-testid="fin-from" />
          </Field>
          <Field label={t('ord.filter.to')}>
            <Input type="date" value={typed.to} onChange={(_, d) => setTyped((r) => ({ ...r, to: d.value }))} />
          </Field>
          <Button appearance="primary" onClick={() => setRange(typed)} data-testid="fin-search">
            {t('ord.filter.search')}
          </Button>
        </div>
        <Caption1 className={styles.muted} data-testid="fin-rule">
          {t('fin.note')}
        </Caption1>
        <TabList selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as TabKey)}>
          {TABS.map((k) => (
            <Tab key={k} value={k} data-testid={`fin-tab-${k}`}>
              {t(`fin.tabs.${k}`)}
            </Tab>
          ))}
        </TabList>
      </Card>

      {tab === 'revenue' && (
        <Card className={styles.card}>
          <div className={styles.bar}>
            <Dropdown value={t(`fin.granularity.${granularity}`)} selectedOptions={[granularity]} onOptionSelect={(_, d) => setGranularity(d.optionValue as 'day' | 'month')}>
              <Option value="day">{t('fin.granularity.day')}</Option>
              <Option value="month">{t('fin.granularity.month')}</Option>
            </Dropdown>
            {revenue.data && (
              <Button
                icon={<ArrowDownloadRegular />}
                onClick={() => void exportRows(`revenue-${range.from}-${range.to}.xlsx`, t('fin.tabs.revenue'), sumsColumns(t, periodColumn(t)), revenue.data!.list, revenue.data!.total, t('fin.total'))}
              >
                {t('fin.export')}
              </Button>
            )}
          </div>
          {!revenue.data && <Spinner size="small" />}
          {revenue.data && (
            <>
              <SumCards sums={revenue.data.total} />
              <Subtitle2>{t('fin.trend')}</Subtitle2>
              <LazyChart className={styles.chart} option={trendOption(revenue.data.list.map((r) => ({ label: r.period, sums: r })), t)} />
              <SumsTable rows={revenue.data.list} total={revenue.data.total} columns={sumsColumns(t, periodColumn(t))} rowKey={(r) => r.period} testid="fin-periods" />
            </>
          )}
        </Card>
      )}

      {tab === 'stations' && (
        <Card className={styles.card}>
          {byStation.data && (
            <>
              <div className={styles.bar}>
                <Button
                  icon={<ArrowDownloadRegular />}
                  onClick={() => void exportRows(`stations-${range.from}-${range.to}.xlsx`, t('fin.tabs.stations'), sumsColumns(t, stationColumn(t)), byStation.data!.list, byStation.data!.total, t('fin.total'))}
                >
                  {t('fin.export')}
                </Button>
              </div>
              <SumsTable rows={byStation.data.list} total={byStation.data.total} columns={sumsColumns(t, stationColumn(t))} rowKey={(r) => r.stationId} testid="fin-stations" />
            </>
          )}
        </Card>
      )}

      {tab === 'settlement' && (
        <Card className={styles.card}>
          <div className={styles.bar}>
            <Field label={t('ord.filter.station')}>
              <Dropdown
                placeholder={t('fin.pickStation')}
                value={station ? stationName(station) : ''}
                selectedOptions={[station]}
                onOptionSelect={(_, d) => setStation(d.optionValue ?? '')}
                data-testid="fin-station"
              >
                {(byStation.data?.list ?? []).map((s) => (
                  <Option key={s.stationId} value={s.stationId}>
                    {s.stationName || s.stationId}
                  </Option>
                ))}
              </Dropdown>
            </Field>
            {settlement.data && (
              <Button
                icon={<ArrowDownloadRegular />}
                onClick={() =>
                  void exportRows(`settlement-${station}-${range.from}-${range.to}.xlsx`, t('fin.tabs.settlement'), sumsColumns(t, periodColumn(t)), settlement.data!.list, settlement.data!.total, t('fin.total'))
                }
              >
                {t('fin.export')}
              </Button>
            )}
          </div>
          {!station && <Body1>{t('fin.pickStation')}</Body1>}
          {settlement.data && (
            <>
              <Subtitle2 data-testid="settlement-title">{t('fin.settlementFor', { name: settlement.data.stationName, from: settlement.data.from, to: settlement.data.to })}</Subtitle2>
              <SumCards sums={settlement.data.total} />
              <SumsTable rows={settlement.data.list.filter((r) => r.orders > 0)} total={settlement.data.total} columns={sumsColumns(t, periodColumn(t))} rowKey={(r) => r.period} testid="fin-settlement" />
            </>
          )}
        </Card>
      )}

      {tab === 'refunds' && (
        <Card className={styles.card}>
          <PendingRefunds sort={params.queue} onSort={(queue) => set({ queue }, { replace: true })} />
        </Card>
      )}

      {tab === 'bills' && (
        <Card className={styles.card}>
          <HolderBills month={params.month} onMonth={(month) => set({ month })} />
        </Card>
      )}

      {tab === 'ledger' && (
        <Card className={styles.card}>
          <div className={styles.bar}>
            <Button
              icon={<ArrowDownloadRegular />}
              disabled={ledger.rows.length === 0}
              data-testid="ledger-export"
              onClick={() =>
                void exportList(ledgerColumns, {
                  fileName: `refund-ledger-${range.from}-${range.to}.xlsx`,
                  sheetName: t('fin.tabs.ledger'),
                  fetchPage: async (cursor) => {
                    const page = await getLedger(range.from, range.to, 500, cursor);
                    return { rows: page.list, cursor: page.cursor };
                  },
                })
              }
            >
              {t('fin.export')}
            </Button>
          </div>
          <ListView
            list={ledger}
            scrollClassName={styles.scroll}
            spinner={false}
            className={styles.queue}
            data-testid="fin-ledger"
            columns={ledgerColumns}
            rowKey={(e) => e.refundId}
            rowTestId={(e) => `ledger-${e.kind ?? 'refund'}`}
          />
        </Card>
      )}
    </div>
  );
}
