import { Body1, Button, Card, CardHeader, makeStyles, Subtitle2, Tab, TabList, tokens } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons/svg/add';
import { DismissRegular } from '@fluentui/react-icons/svg/dismiss';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  page: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(420px, 1fr))', gap: '16px', alignItems: 'start' },
  card: { padding: '16px', rowGap: '12px' },
  panel: { padding: '16px', minHeight: '80px', backgroundColor: tokens.colorNeutralBackground2, borderRadius: tokens.borderRadiusMedium },
  vertical: { display: 'flex', columnGap: '16px' },
  editable: { display: 'flex', alignItems: 'center', columnGap: '4px', overflowX: 'auto' },
  close: { minWidth: '20px', height: '20px', padding: 0 },
});

/** Tabs demo: horizontal, vertical, sizes, and editable tabs (add / close). */
export default function TabsPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [basic, setBasic] = useState('a');
  const [side, setSide] = useState('a');
  const [tabs, setTabs] = useState([{ id: 1 }, { id: 2 }]);
  const [active, setActive] = useState(1);
  const [next, setNext] = useState(3);
  const close = (id: number) => {
    const left = tabs.filter((x) => x.id !== id);
    setTabs(left);
    if (active === id && left.length) setActive(left[left.length - 1].id);
  };
  const names = ['a', 'b', 'c'] as const;
  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('dm.tabs.basic')}</Subtitle2>} />
        <TabList selectedValue={basic} onTabSelect={(_, d) => setBasic(String(d.value))}>
          {names.map((n) => (
            <Tab key={n} value={n}>
              {t(`dm.tabs.${n}`)}
            </Tab>
          ))}
          <Tab value="d" disabled>
            {t('demo.input.disabled')}
          </Tab>
        </TabList>
        <div className={styles.panel}>
          <Body1>{t('dm.tabs.content', { name: t(`dm.tabs.${basic as 'a'}`) })}</Body1>
        </div>
        <TabList size="small" appearance="subtle" defaultSelectedValue="a">
          {names.map((n) => (
            <Tab key={n} value={n}>
              {t(`dm.tabs.${n}`)}
            </Tab>
          ))}
        </TabList>
      </Card>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('dm.tabs.vertical')}</Subtitle2>} />
        <div className={styles.vertical}>
          <TabList vertical selectedValue={side} onTabSelect={(_, d) => setSide(String(d.value))}>
            {names.map((n) => (
              <Tab key={n} value={n}>
                {t(`dm.tabs.${n}`)}
              </Tab>
            ))}
          </TabList>
          <div className={styles.panel} style={{ flex: 1 }}>
            <Body1>{t('dm.tabs.content', { name: t(`dm.tabs.${side as 'a'}`) })}</Body1>
          </div>
        </div>
      </Card>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('dm.tabs.editable')}</Subtitle2>} />
        <div className={styles.editable}>
          <TabList selectedValue={active} onTabSelect={(_, d) => setActive(Number(d.value))}>
            {tabs.map((x) => (
              <Tab key={x.id} value={x.id}>
                {t('dm.tabs.tabN', { n: x.id })}
                <Button
                  as="a"
                  className={styles.close}
                  appearance="transparent"
                  size="small"
                  icon={<DismissRegular />}
                  aria-label={t('dm.tabs.close', { n: x.id })}
                  onClick={(e) => {
                    e.stopPropagation();
                    close(x.id);
                  }}
                />
              </Tab>
            ))}
          </TabList>
          <Button
            appearance="subtle"
            icon={<AddRegular />}
            aria-label={t('dm.tabs.add')}
            onClick={() => {
              setTabs([...tabs, { id: next }]);
              setActive(next);
              setNext(next + 1);
            }}
          />
        </div>
        <div className={styles.panel}>
          <Body1>{tabs.length ? t('dm.tabs.content', { name: t('dm.tabs.tabN', { n: active }) }) : t('dm.tabs.none')}</Body1>
        </div>
      </Card>
    </div>
  );
}
