import { Card, CardHeader, makeStyles, Subtitle2 } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { EChart } from '@/components/EChart';

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(360px, 1fr))', gap: '16px' },
  chart: { height: '320px' },
});

/** ECharts demo through echarts/core (sample data, labelled as such). */
export default function EchartsDemo() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  // The last seven days, named in the UI language.
  const weekday = new Intl.DateTimeFormat(i18n.language === 'zh' ? 'zh-CN' : 'en-US', { weekday: 'short' });
  const days = Array.from({ length: 7 }, (_, i) => weekday.format(new Date(Date.now() - (6 - i) * 86_400_000)));
  return (
    <div className={styles.grid}>
      <Card>
        <CardHeader header={<Subtitle2>{t('demo.echarts.energy')}</Subtitle2>} />
        <EChart
          className={styles.chart}
          option={{
            tooltip: { trigger: 'axis' },
            grid: { left: 48, right: 16, top: 24, bottom: 32 },
            xAxis: { type: 'category', data: days },
            yAxis: { type: 'value', name: t('demo.echarts.kwh') },
            series: [{ type: 'bar', data: [820, 932, 901, 934, 1290, 1330, 1320], itemStyle: { borderRadius: [4, 4, 0, 0] } }],
          }}
        />
      </Card>
      <Card>
        <CardHeader header={<Subtitle2>{t('demo.echarts.share')}</Subtitle2>} />
        <EChart
          className={styles.chart}
          option={{
            tooltip: { trigger: 'item' },
            legend: { bottom: 0 },
            series: [
              {
                type: 'pie',
                radius: ['40%', '68%'],
                itemStyle: { borderRadius: 6, borderColor: '#fff', borderWidth: 2 },
                data: [
                  { value: 62, name: t('demo.echarts.dc') },
                  { value: 38, name: t('demo.echarts.ac') },
                ],
              },
            ],
          }}
        />
      </Card>
    </div>
  );
}
