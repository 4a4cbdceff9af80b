import { Avatar, Body1, Button, Card, makeStyles, MessageBar, MessageBarBody, MessageBarTitle, Spinner, Tab, TabList, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotices, type NoticeItem } from '@/api/notice';
import { sanitizeHtml } from '../components/sanitize';
import { notify } from '@/utils/notify';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', rowGap: '16px' },
  card: { padding: '16px', rowGap: '8px' },
  item: { display: 'flex', columnGap: '12px', alignItems: 'center', padding: '10px 4px', borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  text: { flex: 1, '& a': { color: tokens.colorBrandForeground1 } },
  bars: { display: 'flex', flexDirection: 'column', rowGap: '8px' },
  row: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
});

const INTENTS = ['success', 'info', 'warning', 'error'] as const;

/** Notice demo: the notice and e-mail lists of GET /notice/getList, plus message bars and toasts. */
export default function NoticePage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [tab, setTab] = useState<NoticeItem['type']>('notice');
  const { data, isLoading, mutate } = useNotices();
  const list = (data?.list ?? []).filter((n) => (n.type ?? 'notice') === tab);
  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <div className={styles.row} style={{ justifyContent: 'space-between' }}>
          <TabList selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as NoticeItem['type'])}>
            <Tab value="notice">{t('notice.notice')}</Tab>
            <Tab value="email">{t('notice.email')}</Tab>
          </TabList>
          <Button onClick={() => void mutate()}>{t('dm.notice.reload')}</Button>
        </div>
        {isLoading && <Spinner size="small" />}
        {!isLoading && !list.length && <Body1>{t('notice.empty')}</Body1>}
        {list.map((n, i) => (
          <div key={i} className={styles.item}>
            <Avatar size={36} image={n.image ? { src: n.image } : undefined} name={n.email ?? ''} />
            <div className={styles.text} translate="no" dangerouslySetInnerHTML={{ __html: sanitizeHtml(n.notice) }} />
            {n.email && <Body1>{n.email}</Body1>}
          </div>
        ))}
        <Body1>{t('dm.notice.total', { n: data?.total ?? 0 })}</Body1>
      </Card>
      <Card className={styles.card}>
        <div className={styles.bars}>
          {INTENTS.map((intent) => (
            <MessageBar key={intent} intent={intent}>
              <MessageBarBody>
                <MessageBarTitle>{t(`dm.notice.intent.${intent}`)}</MessageBarTitle>
                {t('dm.notice.barText')}
              </MessageBarBody>
            </MessageBar>
          ))}
        </div>
        <div className={styles.row}>
          {INTENTS.map((intent) => (
            <Button key={intent} onClick={() => notify(t('dm.notice.toastText', { intent: t(`dm.notice.intent.${intent}`) }), intent)}>
              {t('dm.notice.toast', { intent: t(`dm.notice.intent.${intent}`) })}
            </Button>
          ))}
        </div>
      </Card>
    </div>
  );
}
