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
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  TabList,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons/svg/arrow-download';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import useSWR from 'swr';
import { getByStation, getLedger, getRefunds, getRevenue, getSettlement, type LedgerEntry, type ListDirection, type PeriodRow, type QueueEntry, type StationRow, type Sums } from '@/api/orders';
import { CursorPager } from '@/components/data/CursorPager';
import { exportExcel, type ExcelColumn } from '@/components/data/excel';
import { useCursorList } from '@/components/data/useCursorList';
import { addDays, chinaDateTime, chinaDay, kwh, relativeAge, yuan } from '@/components/data/format';
import { trendOption } from '@/components/orders/financeModel';
import { LazyChart } from '@/components/orders/LazyChart';
import { periodColumn, stationColumn, sumsExcelColumns } from '@/components/orders/orderColumns';
import { RefundDecisionButtons, RefundDecisionDialog, type RefundDecision } from '@/components/orders/RefundDecision';
import { usePermission } from '@/components/Permission';

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

type TabKey = 'revenue' | 'stations' | 'settlement' | 'refunds' | 'ledger';

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

function SumsTable<T extends Sums>({ rows, total, first, testid }: { rows: T[]; total: Sums; first: { header: string; cell: (r: T) => React.ReactNode; key: (r: T) => string }; testid: string }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const cols: [string, (s: Sums) => string][] = [
    [t('fin.cards.orders'), (s) => String(s.orders)],
    [t('fin.cards.energy'), (s) => kwh(s.energyWh)],
    [t('fin.cards.electricity'), (s) => yuan(s.electricityFen)],
    [t('fin.cards.service'), (s) => yuan(s.serviceFen)],
    [t('fin.cards.parking'), (s) => yuan(s.parkingFen)],
    [t('fin.cards.paid'), (s) => yuan(s.paidFen)],
    [t('fin.cards.refunds'), (s) => yuan(s.refundedFen)],
    [t('fin.cards.net'), (s) => yuan(s.netFen)],
  ];
  return (
    <div className={styles.scroll}>
      <Table size="small" data-testid={testid}>
        <TableHeader>
          <TableRow>
            <TableHeaderCell>{first.header}</TableHeaderCell>
            {cols.map(([h]) => (
              <TableHeaderCell key={h} className={styles.num}>
                {h}
              </TableHeaderCell>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={first.key(r)}>
              <TableCell>{first.cell(r)}</TableCell>
              {cols.map(([h, f]) => (
                <TableCell key={h} className={styles.num}>
                  {f(r)}
                </TableCell>
              ))}
            </TableRow>
          ))}
          <TableRow className={styles.total} data-testid={`${testid}-total`}>
            <TableCell>{t('fin.total')}</TableCell>
            {cols.map(([h, f]) => (
              <TableCell key={h} className={styles.num}>
                {f(total)}
              </TableCell>
            ))}
          </TableRow>
        </TableBody>
      </Table>
    </div>
  );
}

async function exportRows<T extends Sums>(name: string, sheet: string, columns: ExcelColumn<T>[], rows: T[], total: Sums, totalLabel: string) {
  await exportExcel<T>({
    fileName: name,
    sheetName: sheet,
    columns,
    fetchPage: async () => ({ rows, cursor: null }),
    footer: [[totalLabel, ...columns.slice(1).map((c) => c.value(total as T) ?? '')] as (string | number)[]],
  });
}

function PendingRefunds() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const canApprove = usePermission(['approve:refund']);
  const [deciding, setDeciding] = useState<RefundDecision | null>(null);
  // A queue: the request waiting longest comes first unless the user turns it.
  const [sort, setSort] = useState<ListDirection>('oldest');
  // Every request, page by page with the store's cursor (no cap on the queue's length).
  const queue = useCursorList(['order/refund/getList', 'pending', sort], (cursor, size) => getRefunds('pending', size, sort, cursor));
  const list = queue.rows;
  const mutate = queue.mutate;
  const now = Date.now() / 1000;
  const exportQueue = () =>
    exportExcel<QueueEntry>({
      fileName: `refund-requests-${chinaDay(now)}.xlsx`,
      sheetName: t('fin.tabs.refunds'),
      columns: [
        { header: t('ord.col.orderNo'), value: (r) => r.orderNo, width: 24 },
        { header: t('ord.d.requestedAt'), value: (r) => chinaDateTime(r.requestedAt), width: 20 },
        { header: t('ord.d.amount'), value: (r) => r.amountFen / 100, numFmt: '0.00' },
        { header: t('fin.queue.paid'), value: (r) => (r.order ? r.order.paidFen / 100 : null), numFmt: '0.00' },
        { header: t('fin.queue.refunded'), value: (r) => (r.order ? r.order.refundedFen / 100 : null), numFmt: '0.00' },
        { header: t('fin.queue.remaining'), value: (r) => (r.order ? r.order.remainingFen / 100 : null), numFmt: '0.00' },
        { header: t('ord.d.reasonCol'), value: (r) => r.reason, width: 30 },
        { header: t('ord.d.requestedBy'), value: (r) => r.requestedBy },
      ],
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
      <div className={styles.scroll}>
        <Table size="small" className={styles.queue} data-testid="pending-refunds">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('ord.col.orderNo')}</TableHeaderCell>
              <TableHeaderCell
                sortable
                sortDirection={sort === 'oldest' ? 'descending' : 'ascending'}
                onClick={() => setSort((s) => (s === 'oldest' ? 'newest' : 'oldest'))}
                title={sort === 'oldest' ? t('fin.queue.oldestFirst') : t('fin.queue.newestFirst')}
                data-testid="pending-sort"
              >
                {t('fin.queue.age')}
              </TableHeaderCell>
              <TableHeaderCell className={styles.num}>{t('ord.d.amount')}</TableHeaderCell>
              <TableHeaderCell className={styles.num}>{t('fin.queue.paid')}</TableHeaderCell>
              <TableHeaderCell className={styles.num}>{t('fin.queue.refunded')}</TableHeaderCell>
              <TableHeaderCell className={styles.num} title={t('fin.queue.remainingHint')}>
                {t('fin.queue.remaining')}
              </TableHeaderCell>
              <TableHeaderCell>{t('ord.d.reasonCol')}</TableHeaderCell>
              <TableHeaderCell>{t('ord.d.requestedBy')}</TableHeaderCell>
              <TableHeaderCell />
            </TableRow>
          </TableHeader>
          <TableBody>
            {list.map((r) => (
              <TableRow key={r.id} data-testid="pending-refund">
                <TableCell className={styles.nowrap}>
                  <Link onClick={() => navigate(`/order/detail?id=${encodeURIComponent(r.orderNo)}`)}>{r.orderNo}</Link>
                </TableCell>
                <TableCell className={styles.nowrap} title={chinaDateTime(r.requestedAt)} data-testid="pending-age">
                  {relativeAge(r.requestedAt, i18n.language, now)}
                </TableCell>
                <TableCell className={styles.num}>{yuan(r.amountFen)}</TableCell>
                <TableCell className={styles.num} data-testid="pending-paid">
                  {yuan(r.order?.paidFen)}
                </TableCell>
                <TableCell className={styles.num}>{yuan(r.order?.refundedFen)}</TableCell>
                <TableCell className={styles.num} data-testid="pending-remaining">
                  {yuan(r.order?.remainingFen)}
                </TableCell>
                <TableCell>{r.reason}</TableCell>
                <TableCell>{r.requestedBy}</TableCell>
                <TableCell>
                  {canApprove && <RefundDecisionButtons refund={r} onDecide={setDeciding} testid="pending" />}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <CursorPager total={null} {...queue.pager} />
      <RefundDecisionDialog decision={deciding} onClose={() => setDeciding(null)} onDone={() => void mutate()} />
    </>
  );
}

/** Finance: revenue by day / month and station, settlement statements, refund approval and ledger. */
export default function MoneyIndex() {
  const { t } = useTranslation();
  const styles = useStyles();
  const today = chinaDay(Date.now() / 1000);
  const [tab, setTab] = useState<TabKey>('revenue');
  const [range, setRange] = useState({ from: addDays(today, -29), to: today });
  const [typed, setTyped] = useState(range);
  const [granularity, setGranularity] = useState<'day' | 'month'>('day');
  const [station, setStation] = useState('');
  const revenue = useSWR(tab === 'revenue' ? ['money/revenue', granularity, range.from, range.to] : null, () => getRevenue(granularity, range.from, range.to));
  const byStation = useSWR(['money/byStation', range.from, range.to], () => getByStation(range.from, range.to));
  const settlement = useSWR(tab === 'settlement' && station ? ['money/settlement', station, range.from, range.to] : null, () => getSettlement(station, range.from, range.to));
  // The ledger of the range, page by page with the store's cursor.
  const ledger = useCursorList(tab === 'ledger' ? ['money/ledger', range.from, range.to] : null, (cursor, size) => getLedger(range.from, range.to, size, cursor));
  const stationName = (id: string) => byStation.data?.list.find((s) => s.stationId === id)?.stationName ?? id;
  const periodFirst = { header: t('fin.period'), cell: (r: PeriodRow) => r.period, key: (r: PeriodRow) => r.period };
  const stationFirst = { header: t('ord.col.station'), cell: (r: StationRow) => r.stationName || r.stationId, key: (r: StationRow) => r.stationId };

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
        <Caption1 className={styles.muted}>{t('fin.note')}</Caption1>
        <TabList selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as TabKey)}>
          {(['revenue', 'stations', 'settlement', 'refunds', 'ledger'] as const).map((k) => (
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
                onClick={() => void exportRows(`revenue-${range.from}-${range.to}.xlsx`, t('fin.tabs.revenue'), sumsExcelColumns(t, periodColumn(t)), revenue.data!.list, revenue.data!.total, t('fin.total'))}
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
              <SumsTable rows={revenue.data.list} total={revenue.data.total} first={periodFirst} testid="fin-periods" />
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
                  onClick={() => void exportRows(`stations-${range.from}-${range.to}.xlsx`, t('fin.tabs.stations'), sumsExcelColumns(t, stationColumn(t)), byStation.data!.list, byStation.data!.total, t('fin.total'))}
                >
                  {t('fin.export')}
                </Button>
              </div>
              <SumsTable rows={byStation.data.list} total={byStation.data.total} first={stationFirst} testid="fin-stations" />
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
                  void exportRows(`settlement-${station}-${range.from}-${range.to}.xlsx`, t('fin.tabs.settlement'), sumsExcelColumns(t, periodColumn(t)), settlement.data!.list, settlement.data!.total, t('fin.total'))
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
              <SumsTable rows={settlement.data.list.filter((r) => r.orders > 0)} total={settlement.data.total} first={periodFirst} testid="fin-settlement" />
            </>
          )}
        </Card>
      )}

      {tab === 'refunds' && (
        <Card className={styles.card}>
          <PendingRefunds />
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
                void exportExcel<LedgerEntry>({
                  fileName: `refund-ledger-${range.from}-${range.to}.xlsx`,
                  sheetName: t('fin.tabs.ledger'),
                  columns: [
                    { header: t('fin.ledgerCols.at'), value: (e) => chinaDateTime(e.approvedAt), width: 20 },
                    {
                      header: t('fin.ledgerCols.kind'),
                      value: (e) => [t(`fin.ledgerKind.${e.kind ?? 'refund'}`), e.method ? t(`ord.pay.method.${e.method}`) : '', e.reference ?? ''].filter(Boolean).join(' · '),
                      width: 20,
                    },
                    { header: t('fin.ledgerCols.refundId'), value: (e) => ((e.kind ?? 'refund') === 'refund' ? e.refundId : ''), width: 24 },
                    { header: t('ord.col.orderNo'), value: (e) => e.orderNo, width: 24 },
                    { header: t('ord.col.station'), value: (e) => stationName(e.stationId), width: 24 },
                    { header: t('ord.d.amount'), value: (e) => e.amountFen / 100, numFmt: '0.00' },
                    { header: t('ord.d.reasonCol'), value: (e) => e.reason, width: 30 },
                    { header: t('fin.ledgerCols.by'), value: (e) => e.approvedBy },
                  ],
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
          <div className={styles.scroll}>
          <Table size="small" className={styles.queue} data-testid="fin-ledger">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>{t('fin.ledgerCols.at')}</TableHeaderCell>
                <TableHeaderCell>{t('fin.ledgerCols.kind')}</TableHeaderCell>
                <TableHeaderCell>{t('fin.ledgerCols.refundId')}</TableHeaderCell>
                <TableHeaderCell>{t('ord.col.orderNo')}</TableHeaderCell>
                <TableHeaderCell>{t('ord.col.station')}</TableHeaderCell>
                <TableHeaderCell className={styles.num}>{t('ord.d.amount')}</TableHeaderCell>
                <TableHeaderCell>{t('ord.d.reasonCol')}</TableHeaderCell>
                <TableHeaderCell>{t('fin.ledgerCols.by')}</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {ledger.rows.map((e) => (
                <TableRow key={e.refundId} data-testid={`ledger-${e.kind ?? 'refund'}`}>
                  <TableCell>{chinaDateTime(e.approvedAt)}</TableCell>
                  <TableCell>
                    {t(`fin.ledgerKind.${e.kind ?? 'refund'}`)}
                    {e.method ? ` · ${t(`ord.pay.method.${e.method}`)}` : ''}
                    {e.reference ? ` · ${e.reference}` : ''}
                  </TableCell>
                  {/* A settlement's id only repeats its order number. */}
                  <TableCell>{(e.kind ?? 'refund') === 'refund' ? e.refundId : '—'}</TableCell>
                  <TableCell>{e.orderNo}</TableCell>
                  <TableCell>{stationName(e.stationId)}</TableCell>
                  <TableCell className={styles.num}>{yuan(e.amountFen)}</TableCell>
                  <TableCell>{e.reason}</TableCell>
                  <TableCell>{e.approvedBy}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          </div>
          <CursorPager total={null} {...ledger.pager} />
        </Card>
      )}
    </div>
  );
}
