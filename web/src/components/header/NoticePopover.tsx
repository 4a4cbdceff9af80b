import {
  Avatar,
  Button,
  CounterBadge,
  makeStyles,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  Spinner,
  Tab,
  TabList,
  tokens,
  Tooltip,
} from '@fluentui/react-components';
import { AlertRegular } from '@fluentui/react-icons/svg/alert';
import { DeleteRegular } from '@fluentui/react-icons/svg/delete';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { getNoticeList, type NoticeItem } from '@/api/notice';
import { SWR_KEYS } from '@/api/swr';
import { chinaDateTime, relativeAge } from '@/components/data/format';
import { notify } from '@/utils/notify';

const useStyles = makeStyles({
  anchor: { position: 'relative', display: 'inline-flex' },
  count: { position: 'absolute', top: '0px', right: '0px', pointerEvents: 'none' },
  surface: { width: '340px', padding: '8px 0 0' },
  list: { listStyleType: 'none', margin: 0, padding: '4px 0', maxHeight: '320px', overflowY: 'auto' },
  item: { display: 'flex', columnGap: '10px', alignItems: 'flex-start', padding: '10px 16px', borderBottom: `1px solid ${tokens.colorNeutralStroke3}` },
  text: { fontSize: tokens.fontSizeBase200, lineHeight: tokens.lineHeightBase200, '& a': { color: tokens.colorBrandForeground1 } },
  email: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase100 },
  empty: { padding: '24px', textAlign: 'center', color: tokens.colorNeutralForeground3 },
  footer: { display: 'flex', justifyContent: 'center', padding: '6px', borderTop: `1px solid ${tokens.colorNeutralStroke2}` },
});

/** Notice popover (point 2): tabs notice and email, clear all (client-side). */
export function NoticePopover() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const [tab, setTab] = useState<NoticeItem['type']>('notice');
  const { data, isLoading, mutate } = useSWR(SWR_KEYS.notices, getNoticeList, { revalidateOnFocus: false });
  const list = data?.list ?? [];
  const shown = list.filter((n) => n.type === tab);

  const clearAll = () => {
    void mutate({ list: [], total: 0 }, { revalidate: false });
    notify(t('notice.cleared'), 'success');
  };

  return (
    <Popover positioning="below-end" withArrow>
      <PopoverTrigger disableButtonEnhancement>
        <Tooltip content={t('header.notice')} relationship="label">
          <span className={styles.anchor}>
            <Button appearance="subtle" icon={<AlertRegular />} data-testid="notice-button" />
            {list.length > 0 && <CounterBadge className={styles.count} size="small" count={list.length} color="danger" />}
          </span>
        </Tooltip>
      </PopoverTrigger>
      <PopoverSurface className={styles.surface} data-testid="notice-popover">
        <TabList selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as NoticeItem['type'])} size="small">
          <Tab value="notice">{t('notice.notice')}</Tab>
          <Tab value="email">{t('notice.email')}</Tab>
        </TabList>
        {isLoading ? (
          <div className={styles.empty}>
            <Spinner size="tiny" />
          </div>
        ) : shown.length === 0 ? (
          <div className={styles.empty}>{t('notice.empty')}</div>
        ) : (
          <ul className={styles.list}>
            {shown.map((n, i) => (
              <li key={i} className={styles.item}>
                <Avatar size={32} image={n.image ? { src: n.image } : undefined} name={n.email ?? ''} />
                <div>
                  {n.email && <div className={styles.email}>{n.email}</div>}
                  {/* The server sends sanitised HTML (link text). */}
                  <div className={styles.text} dangerouslySetInnerHTML={{ __html: n.notice }} />
                  {n.createdAt != null && (
                    <div className={styles.email} title={chinaDateTime(n.createdAt)} data-testid="notice-age">
                      {relativeAge(n.createdAt, i18n.language)}
                    </div>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
        <div className={styles.footer}>
          <Button appearance="subtle" size="small" icon={<DeleteRegular />} onClick={clearAll} disabled={list.length === 0}>
            {t('notice.clearAll')}
          </Button>
        </div>
      </PopoverSurface>
    </Popover>
  );
}
