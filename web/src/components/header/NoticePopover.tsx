import {
  Avatar,
  Button,
  CounterBadge,
  makeStyles,
  mergeClasses,
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
import { EditRegular } from '@fluentui/react-icons/svg/edit';
import { MegaphoneRegular } from '@fluentui/react-icons/svg/megaphone';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { clearNotices, markNoticesRead, useNotices, type NoticeItem } from '@/api/notice';
import { zonedDateTime, relativeAge } from '@/components/data/format';
import { usePermission } from '@/components/Permission';
import { notify } from '@/utils/notify';
import { NoticeManager } from './NoticeManager';
import { unreadIds } from './noticeLogic';

const useStyles = makeStyles({
  anchor: { position: 'relative', display: 'inline-flex' },
  count: { position: 'absolute', top: '0px', right: '0px', pointerEvents: 'none' },
  surface: { width: '340px', padding: '8px 0 0' },
  // One height whatever the list holds (loading, empty, a few, many): the
  // popover never grows under the pointer when the notices arrive, so the
  // buttons below stay where the user aims.
  body: { height: '320px', display: 'flex', flexDirection: 'column' },
  list: { listStyleType: 'none', margin: 0, padding: '4px 0', flex: 1, minHeight: 0, overflowY: 'auto' },
  item: { display: 'flex', columnGap: '10px', alignItems: 'flex-start', padding: '10px 16px', borderBottom: `1px solid ${tokens.colorNeutralStroke3}` },
  fresh: { backgroundColor: tokens.colorBrandBackground2 },
  text: { fontSize: tokens.fontSizeBase200, lineHeight: tokens.lineHeightBase200, '& a': { color: tokens.colorBrandForeground1 } },
  email: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase100 },
  empty: { flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', padding: '24px', color: tokens.colorNeutralForeground3 },
  footer: { display: 'flex', justifyContent: 'center', columnGap: '8px', padding: '6px', borderTop: `1px solid ${tokens.colorNeutralStroke2}` },
});

/**
 * Notice popover: tabs notice and email, clear all. What the user
 * read and cleared is kept on the server, per user: opening the popover
 * marks what it lists read (those stay highlighted while it is open), and a
 * reload brings back nothing that was cleared. Publishers (write:system)
 * also get "manage": publish, edit and withdraw.
 */
export function NoticePopover() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const canPublish = usePermission(['write:system']);
  const [open, setOpen] = useState(false);
  // The publishers' dialog: its list, or its publish form on top.
  const [managing, setManaging] = useState<'list' | 'publish' | null>(null);
  const [tab, setTab] = useState<NoticeItem['type']>('notice');
  // Unread when the popover opened: highlighted until it closes.
  const [fresh, setFresh] = useState<Set<string>>(new Set());
  const { data, isLoading, mutate } = useNotices();
  const list = data?.list ?? [];
  const unread = data?.unread ?? 0;
  const shown = list.filter((n) => n.type === tab);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) return setFresh(new Set());
    const ids = unreadIds(list);
    setFresh(new Set(ids));
    if (ids.length) {
      markNoticesRead(ids)
        .then(() => mutate())
        .catch(() => {
          /* toasted by the request layer; they stay unread */
        });
    }
  };

  const clearAll = async () => {
    try {
      notify((await clearNotices()) || t('notice.cleared'), 'success');
      await mutate({ list: [], total: 0, unread: 0 }, { revalidate: true });
    } catch {
      /* toasted by the request layer */
    }
  };

  return (
    <span className={styles.anchor}>
      <Popover positioning="below-end" withArrow open={open} onOpenChange={(_, d) => onOpenChange(d.open)}>
        <PopoverTrigger disableButtonEnhancement>
          {/* The label is the button's own (a script or a screen reader finds the bell by name). */}
          <Tooltip content={t('header.notice')} relationship="label">
            <Button appearance="subtle" icon={<AlertRegular />} data-testid="notice-button" data-loaded={data ? 'true' : 'false'} />
          </Tooltip>
        </PopoverTrigger>
        <PopoverSurface className={styles.surface} data-testid="notice-popover">
          <TabList selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as NoticeItem['type'])} size="small">
            <Tab value="notice">{t('notice.notice')}</Tab>
            <Tab value="email">{t('notice.email')}</Tab>
          </TabList>
          <div className={styles.body}>
            {isLoading ? (
              <div className={styles.empty}>
                <Spinner size="tiny" />
              </div>
            ) : shown.length === 0 ? (
              <div className={styles.empty}>{t('notice.empty')}</div>
            ) : (
              <ul className={styles.list}>
                {shown.map((n) => (
                  <li key={n.id} className={mergeClasses(styles.item, fresh.has(n.id) && styles.fresh)} data-testid="notice-item" data-unread={fresh.has(n.id) || undefined}>
                    <Avatar size={32} image={n.image ? { src: n.image } : undefined} name={n.email ?? ''} />
                    <div>
                      {n.email && <div className={styles.email}>{n.email}</div>}
                      {/* The server sends sanitised HTML (link text). */}
                      <div className={styles.text} dangerouslySetInnerHTML={{ __html: n.notice }} />
                      {n.createdAt != null && (
                        <div className={styles.email} title={zonedDateTime(n.createdAt)} data-testid="notice-age">
                          {relativeAge(n.createdAt, i18n.language)}
                        </div>
                      )}
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div className={styles.footer}>
            <Button appearance="subtle" size="small" icon={<DeleteRegular />} onClick={() => void clearAll()} disabled={list.length === 0} data-testid="notice-clear">
              {t('notice.clearAll')}
            </Button>
            {canPublish && (
              <Button
                appearance="primary"
                size="small"
                icon={<MegaphoneRegular />}
                data-testid="notice-publish-from-bell"
                onClick={() => {
                  setOpen(false);
                  setManaging('publish');
                }}
              >
                {t('notice.publish')}
              </Button>
            )}
            {canPublish && (
              <Button
                appearance="subtle"
                size="small"
                icon={<EditRegular />}
                data-testid="notice-manage"
                onClick={() => {
                  setOpen(false);
                  setManaging('list');
                }}
              >
                {t('notice.manage')}
              </Button>
            )}
          </div>
        </PopoverSurface>
      </Popover>
      {unread > 0 && <CounterBadge className={styles.count} size="small" count={unread} color="danger" data-testid="notice-unread" />}
      {canPublish && (
        <NoticeManager open={managing !== null} publishing={managing === 'publish'} onPublishingDone={() => setManaging('list')} onClose={() => setManaging(null)} onChanged={() => void mutate()} />
      )}
    </span>
  );
}
