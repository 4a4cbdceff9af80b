import {
  Badge,
  Body1,
  Caption1,
  Card,
  CardHeader,
  Link,
  makeStyles,
  Spinner,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { DataText } from '@/components/data/DataText';
import { useNavigate } from 'react-router';
import { AnomalyBadges, trendOption, useDashboard } from '@/features/orders';
import { zonedDateTime, kwh, yuan } from '@/components/data/format';
import { LazyChart } from '@/components/LazyChart';

const useStyles = makeStyles({
  wrap: { display: 'flex', flexDirection: 'column', rowGap: '16px' },
  stats: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(168px, 1fr))', gap: '12px' },
  stat: { padding: '14px', display: 'flex', flexDirection: 'column', rowGap: '6px' },
  value: { fontSize: tokens.fontSizeHero700, fontWeight: tokens.fontWeightSemibold, fontVariantNumeric: 'tabular-nums' },
  muted: { color: tokens.colorNeutralForeground3 },
  badges: { display: 'flex', flexWrap: 'wrap', gap: '4px' },
  two: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(420px, 100%), 1fr))', gap: '16px' },
  card: { padding: '16px', rowGap: '10px' },
  chart: { width: '100%', height: '300px' },
  num: { textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
});

const CONNECTOR_SHOWN = ['available', 'charging', 'faulted', 'offline', 'unavailable'] as const;
const CONNECTOR_COLOUR = { available: 'success', charging: 'brand', faulted: 'danger', offline: 'subtle', unavailable: 'warning' } as const;

/** The business part of the home page: counts by status, today, 30-day trend, top stations, recent faults. */
export function HomeDashboard() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const { data: d } = useDashboard();
  if (!d) return <Spinner size="small" />;
  const stat = (key: string, label: string, value: string, extra?: React.ReactNode) => (
    <Card className={styles.stat} data-testid={`dash-${key}`}>
      <Caption1 className={styles.muted}>{label}</Caption1>
      <span className={styles.value}>{value}</span>
      {extra}
    </Card>
  );
  const hasAssets = d.assets.stations > 0 || d.assets.connectors > 0;
  return (
    <div className={styles.wrap} data-testid="home-dashboard">
      <div className={styles.stats}>
        {stat('orders-today', t('dash.ordersToday'), String(d.today.orders), <Caption1 className={styles.muted}>{t('dash.today', { day: d.day })}</Caption1>)}
        {stat('energy-today', t('dash.energyToday'), kwh(d.today.energyWh))}
        {stat('revenue-today', t('dash.revenueToday'), yuan(d.today.netFen))}
        {stat(
          'stations',
          t('dash.stations'),
          String(d.assets.stations),
          <div className={styles.badges}>
            {Object.entries(d.assets.stationsByStatus)
              .filter(([, n]) => n > 0)
              .map(([s, n]) => (
                <Badge key={s} appearance="tint" color={s === 'operating' ? 'success' : 'informative'}>
                  {`${t(`dash.stationStatus.${s}`, { defaultValue: s })} ${n}`}
                </Badge>
              ))}
          </div>,
        )}
        {stat(
          'connectors',
          t('dash.connectors'),
          String(d.assets.connectors),
          <div className={styles.badges}>
            {CONNECTOR_SHOWN.map((s) => (
              <Badge key={s} appearance="tint" color={CONNECTOR_COLOUR[s]}>
                {`${t(`dash.connectorStatus.${s}`)} ${d.assets.connectorsByStatus[s] ?? 0}`}
              </Badge>
            ))}
          </div>,
        )}
        {stat('pending-refunds', t('dash.pendingRefunds'), `${d.pendingRefunds}${d.pendingRefundsMore ? '+' : ''}`, <Link onClick={() => navigate('/money/moneyIndex')}>{t('fin.title')}</Link>)}
      </div>
      {!hasAssets && <Caption1 className={styles.muted}>{t('dash.noAssets')}</Caption1>}
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('dash.trend')}</Subtitle2>} />
        <div data-testid="dash-trend">
          <LazyChart className={styles.chart} option={trendOption(d.trend.map((r) => ({ label: r.day.slice(5), sums: r })), t)} />
        </div>
      </Card>
      <div className={styles.two}>
        <Card className={styles.card}>
          <CardHeader header={<Subtitle2>{t('dash.top')}</Subtitle2>} />
          <Table size="small" data-testid="dash-top">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>{t('ord.col.station')}</TableHeaderCell>
                <TableHeaderCell className={styles.num}>{t('fin.cards.orders')}</TableHeaderCell>
                <TableHeaderCell className={styles.num}>{t('fin.cards.energy')}</TableHeaderCell>
                <TableHeaderCell className={styles.num}>{t('fin.cards.net')}</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {d.topStations.map((s) => (
                <TableRow key={s.stationId}>
                  <TableCell translate="no">{s.stationName || s.stationId}</TableCell>
                  <TableCell className={styles.num}>{s.orders}</TableCell>
                  <TableCell className={styles.num}>{kwh(s.energyWh)}</TableCell>
                  <TableCell className={styles.num}>{yuan(s.netFen)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
        <Card className={styles.card}>
          <CardHeader header={<Subtitle2>{t('dash.faults')}</Subtitle2>} />
          {d.faults.connectors.length === 0 && d.faults.orders.length === 0 && <Body1>{t('dash.noFaults')}</Body1>}
          {d.faults.connectors.length > 0 && <Caption1 className={styles.muted}>{t('dash.faultedConnectors')}</Caption1>}
          {d.faults.connectors.map((c, i) => (
            <Body1 key={i} data-testid="dash-fault-connector">
              {/* As printed on the charger: pile code and connector number, not internal ids. */}
              {`${t('ord.d.chargerLabel', { code: String(c.pileCode ?? ''), no: String(c.number ?? '') })} · ${t('dash.fault')} `}
              <DataText>{String(c.faultCode ?? '—')}</DataText>
            </Body1>
          ))}
          {d.faults.orders.length > 0 && <Caption1 className={styles.muted}>{t('dash.abnormalOrders')}</Caption1>}
          <Table size="small" data-testid="dash-faults">
            <TableBody>
              {d.faults.orders.map((o) => (
                <TableRow key={o.orderNo}>
                  <TableCell>
                    <Link onClick={() => navigate(`/order/detail?id=${encodeURIComponent(o.orderNo)}`)}>{o.orderNo}</Link>
                  </TableCell>
                  <TableCell translate="no">{o.stationName || o.stationId}</TableCell>
                  <TableCell>{zonedDateTime(o.startTs)}</TableCell>
                  <TableCell>{o.stopReason ? t(`ord.stopReason.${o.stopReason}`) : ''}</TableCell>
                  <TableCell>
                    <AnomalyBadges anomalies={o.anomalies} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      </div>
    </div>
  );
}
