import { Avatar, Body1, Button, Caption1, Card, CardHeader, Checkbox, Input, makeStyles, Subtitle1, Subtitle2, tokens } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons/svg/add';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { greetingKey } from '@/config';
import { EChart } from '@/components/EChart';
import { series } from '../components/demoSeries';
import { userStore } from '@/store/user';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', rowGap: '16px' },
  hero: { display: 'flex', flexDirection: 'row', alignItems: 'center', columnGap: '16px', padding: '20px', flexWrap: 'wrap', rowGap: '12px' },
  heroText: { flex: 1, display: 'flex', flexDirection: 'column', rowGap: '4px', minWidth: '240px' },
  stats: { display: 'flex', columnGap: '32px' },
  stat: { display: 'flex', flexDirection: 'column', alignItems: 'flex-end' },
  muted: { color: tokens.colorNeutralForeground3 },
  grid: { display: 'grid', gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 1fr)', gap: '16px', '@media (max-width: 1100px)': { gridTemplateColumns: '1fr' } },
  links: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: '10px' },
  card: { padding: '16px', rowGap: '10px' },
  todo: { display: 'flex', alignItems: 'center', justifyContent: 'space-between' },
  done: { textDecorationLine: 'line-through', color: tokens.colorNeutralForeground3 },
  timeline: { display: 'flex', flexDirection: 'column', rowGap: '12px', margin: 0, paddingLeft: '16px', borderLeft: `2px solid ${tokens.colorNeutralStroke2}` },
  chart: { height: '240px' },
});

const LINKS = [
  { key: 'table', path: '/vab/table/comprehensiveTable' },
  { key: 'form', path: '/vab/form/comprehensiveForm' },
  { key: 'workflow', path: '/other/workflow' },
  { key: 'goods', path: '/mall/goods' },
  { key: 'icons', path: '/vab/icon/remixIcon' },
  { key: 'excel', path: '/other/excel/exportExcel' },
] as const;

/** Demo workbench: greeting by hour, shortcuts to demo pages, a local to-do list, activity and a small chart. */
export default function WorkbenchPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const username = userStore.use((s) => s.username);
  const avatar = userStore.use((s) => s.avatar);
  const [todos, setTodos] = useState(() => (['t1', 't2', 't3'] as const).map((k, i) => ({ id: i, text: t(`dm.work.todo.${k}`), done: i === 2 })));
  const [draft, setDraft] = useState('');
  return (
    <div className={styles.page}>
      <Card className={styles.hero}>
        <Avatar size={64} image={{ src: avatar }} name={username} />
        <div className={styles.heroText}>
          <Subtitle1>
            {t(greetingKey(new Date().getHours()))}，<span translate="no">{username}</span>
          </Subtitle1>
          <Body1 className={styles.muted}>{t('dm.work.subtitle')}</Body1>
        </div>
        <div className={styles.stats}>
          {(['projects', 'todo', 'team'] as const).map((k, i) => (
            <div key={k} className={styles.stat}>
              <Caption1 className={styles.muted}>{t(`dm.work.stat.${k}`)}</Caption1>
              <Subtitle1>{[6, todos.filter((x) => !x.done).length, 12][i]}</Subtitle1>
            </div>
          ))}
        </div>
      </Card>
      <div className={styles.grid}>
        <Card className={styles.card}>
          <CardHeader header={<Subtitle2>{t('dm.work.shortcuts')}</Subtitle2>} />
          <div className={styles.links}>
            {LINKS.map((l) => (
              <Button key={l.key} size="large" onClick={() => navigate(l.path)}>
                {t(`dm.work.link.${l.key}`)}
              </Button>
            ))}
          </div>
          <CardHeader header={<Subtitle2>{t('dm.work.activity')}</Subtitle2>} />
          <EChart
            className={styles.chart}
            option={{
              tooltip: { trigger: 'axis' },
              grid: { left: 40, right: 12, top: 16, bottom: 28 },
              xAxis: { type: 'category', data: ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'].map((m) => t('dm.work.month', { m })) },
              yAxis: { type: 'value' },
              series: [{ type: 'bar', data: series(12, 42, 14, 5, 1), itemStyle: { borderRadius: [4, 4, 0, 0] } }],
            }}
          />
          <Caption1 className={styles.muted}>{t('dm.dash.note')}</Caption1>
        </Card>
        <Card className={styles.card}>
          <CardHeader header={<Subtitle2>{t('dm.work.todos')}</Subtitle2>} />
          <form
            style={{ display: 'flex', columnGap: '6px' }}
            onSubmit={(e) => {
              e.preventDefault();
              if (!draft.trim()) return;
              setTodos([...todos, { id: Date.now(), text: draft.trim(), done: false }]);
              setDraft('');
            }}
          >
            <Input style={{ flex: 1 }} value={draft} onChange={(_, d) => setDraft(d.value)} placeholder={t('dm.work.newTodo')} />
            <Button type="submit" icon={<AddRegular />} aria-label={t('dm.table.add')} />
          </form>
          {todos.map((td) => (
            <div key={td.id} className={styles.todo}>
              <Checkbox checked={td.done} onChange={(_, d) => setTodos(todos.map((x) => (x.id === td.id ? { ...x, done: !!d.checked } : x)))} label={<span className={td.done ? styles.done : undefined}>{td.text}</span>} />
              <Button size="small" appearance="subtle" onClick={() => setTodos(todos.filter((x) => x.id !== td.id))}>
                {t('dm.table.delete')}
              </Button>
            </div>
          ))}
          <CardHeader header={<Subtitle2>{t('dm.work.news')}</Subtitle2>} />
          <ol className={styles.timeline} style={{ listStyle: 'none' }}>
            {(['n1', 'n2', 'n3'] as const).map((n, i) => (
              <li key={n}>
                <Body1 block>{t(`dm.work.newsItem.${n}`)}</Body1>
                <Caption1 className={styles.muted}>{t('dm.work.hoursAgo', { n: (i + 1) * 3 })}</Caption1>
              </li>
            ))}
          </ol>
        </Card>
      </div>
    </div>
  );
}
