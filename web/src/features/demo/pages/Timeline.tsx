import { Card, makeStyles, Switch, Text, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  card: { maxWidth: '640px', padding: '24px' },
  list: { listStyleType: 'none', margin: '8px 0 0', padding: 0 },
  item: { position: 'relative', paddingLeft: '28px', paddingBottom: '20px', borderLeft: `2px solid ${tokens.colorNeutralStroke2}`, marginLeft: '6px' },
  dot: { position: 'absolute', left: '-7px', top: '2px', width: '12px', height: '12px', borderRadius: '50%', backgroundColor: tokens.colorBrandBackground },
  time: { display: 'block', color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
});

/** Timeline component demo. Entries are the component's sample content (shown both languages). */
const ENTRIES = [
  { time: '08:00', zh: '站点开门营业', en: 'Station opens' },
  { time: '09:30', zh: '1 号桩开始充电', en: 'Pile 1 starts charging' },
  { time: '11:45', zh: '平段电价切换为峰段', en: 'Tariff switches from flat to peak' },
  { time: '14:10', zh: '2 号桩上报故障', en: 'Pile 2 reports a fault' },
  { time: '16:00', zh: '运维人员处理完毕', en: 'Maintenance resolved the fault' },
];

export default function TimelineDemo() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const [reverse, setReverse] = useState(false);
  const entries = reverse ? [...ENTRIES].reverse() : ENTRIES;
  return (
    <Card className={styles.card}>
      <Switch label={t('demo.timeline.reverse')} checked={reverse} onChange={(_, d) => setReverse(d.checked)} />
      <ul className={styles.list}>
        {entries.map((e) => (
          <li key={e.time} className={styles.item}>
            <span className={styles.dot} />
            <Text className={styles.time}>{e.time}</Text>
            <Text>{i18n.language === 'zh' ? e.zh : e.en}</Text>
          </li>
        ))}
      </ul>
    </Card>
  );
}
