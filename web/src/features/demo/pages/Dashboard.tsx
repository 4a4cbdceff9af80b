import { Body1, Caption1, Card, CardHeader, makeStyles, Subtitle2, Title2, tokens } from '@fluentui/react-components';
import { ArrowTrendingRegular } from '@fluentui/react-icons/svg/arrow-trending';
import { useTranslation } from 'react-i18next';
import { useTableList, type TableItem } from '../api/demo';
import { EChart } from '@/components/EChart';
import type { ListColumn } from '@/components/list/columns';
import { ListTable } from '@/components/list/ListTable';
import { lastDays, series } from '../components/demoSeries';
import { StatusBadge } from '../components/StatusBadge';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', rowGap: '16px' },
  kpis: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))', gap: '16px' },
  kpi: { padding: '16px', rowGap: '6px' },
  kpiValue: { fontVariantNumeric: 'tabular-nums' },
  up: { color: tokens.colorPaletteGreenForeground1, display: 'inline-flex', alignItems: 'center', columnGap: '4px' },
  muted: { color: tokens.colorNeutralForeground3 },
  grid: { display: 'grid', gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 1fr)', gap: '16px', '@media (max-width: 1100px)': { gridTemplateColumns: '1fr' } },
  chart: { height: '300px' },
  card: { padding: '16px' },
});

/** The first six table items. */
const LATEST = { pageNo: 1, pageSize: 6 };

/** Demo dashboard: KPI cards, trend and share charts (deterministic sample data) and the latest table items. */
export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const days = lastDays(14);
  const visits = series(14, 3200, 600, 7, 60);
  const orders = series(14, 820, 160, 11, 18);
  const { data } = useTableList(LATEST);
  const latest: ListColumn<TableItem>[] = [
    { id: 'title', header: t('dm.table.title'), data: true, cell: (r) => r.title },
    { id: 'author', header: t('dm.table.author'), data: true, cell: (r) => r.author },
    { id: 'pageViews', header: t('dm.table.pageViews'), cell: (r) => r.pageViews },
    { id: 'status', header: t('dm.table.status'), cell: (r) => <StatusBadge status={r.status} /> },
  ];
  const fmt = new Intl.NumberFormat(i18n.language === 'zh' ? 'zh-CN' : 'en-US');
  const kpis = [
    { key: 'visits', value: visits.reduce((a, b) => a + b, 0), delta: '+12.4%' },
    { key: 'orders', value: orders.reduce((a, b) => a + b, 0), delta: '+8.1%' },
    { key: 'energy', value: 48_620, delta: '+5.7%' },
    { key: 'revenue', value: 126_480, delta: '+9.3%' },
  ];
  return (
    <div className={styles.page}>
      <Caption1 className={styles.muted}>{t('dm.dash.note')}</Caption1>
      <div className={styles.kpis}>
        {kpis.map((k) => (
          <Card key={k.key} className={styles.kpi}>
            <Body1 className={styles.muted}>{t(`dm.dash.kpi.${k.key}`)}</Body1>
            <Title2 className={styles.kpiValue}>{fmt.format(k.value)}</Title2>
            <Caption1 className={styles.up}>
              <ArrowTrendingRegular /> {t('dm.dash.vsLast', { delta: k.delta })}
            </Caption1>
          </Card>
        ))}
      </div>
      <div className={styles.grid}>
        <Card className={styles.card}>
          <CardHeader header={<Subtitle2>{t('dm.dash.trend')}</Subtitle2>} />
          <EChart
            className={styles.chart}
            option={{
              tooltip: { trigger: 'axis' },
              legend: { top: 0 },
              grid: { left: 48, right: 48, top: 36, bottom: 28 },
              xAxis: { type: 'category', data: days, boundaryGap: false },
              yAxis: [{ type: 'value' }, { type: 'value', splitLine: { show: false } }],
              series: [
                { name: t('dm.dash.kpi.visits'), type: 'line', smooth: true, areaStyle: { opacity: 0.15 }, data: visits },
                { name: t('dm.dash.kpi.orders'), type: 'line', smooth: true, yAxisIndex: 1, data: orders },
              ],
            }}
          />
        </Card>
        <Card className={styles.card}>
          <CardHeader header={<Subtitle2>{t('dm.dash.share')}</Subtitle2>} />
          <EChart
            className={styles.chart}
            option={{
              tooltip: { trigger: 'item' },
              legend: { bottom: 0 },
              series: [
                {
                  type: 'pie',
                  radius: ['42%', '68%'],
                  label: { position: 'inside', formatter: '{d}%', color: '#fff', fontWeight: 'bold' },
                  itemStyle: { borderRadius: 6, borderColor: '#fff', borderWidth: 2 },
                  data: (['published', 'draft', 'deleted'] as const).map((s, i) => ({ name: t(`dm.status.${s}`), value: [58, 29, 13][i] })),
                },
              ],
            }}
          />
        </Card>
      </div>
      <div className={styles.grid}>
        <Card className={styles.card}>
          <CardHeader header={<Subtitle2>{t('dm.dash.latest')}</Subtitle2>} />
          <ListTable columns={latest} rows={data?.list ?? []} rowKey={(r) => r.uuid} />
        </Card>
        <Card className={styles.card}>
          <CardHeader header={<Subtitle2>{t('dm.dash.weekly')}</Subtitle2>} />
          <EChart
            className={styles.chart}
            option={{
              tooltip: { trigger: 'axis' },
              grid: { left: 44, right: 12, top: 16, bottom: 28 },
              xAxis: { type: 'category', data: days.slice(-7) },
              yAxis: { type: 'value' },
              series: [{ type: 'bar', data: series(7, 6800, 1400, 3), itemStyle: { borderRadius: [4, 4, 0, 0] } }],
            }}
          />
        </Card>
      </div>
    </div>
  );
}
