import { Avatar, Body1, Caption1, Card, makeStyles, Spinner, Subtitle2, tokens } from '@fluentui/react-components';
import { EyeRegular } from '@fluentui/react-icons/svg/eye';
import { useTranslation } from 'react-i18next';
import { demoImageUrl, useTableList } from '../api/demo';
import { Pager } from '@/components/data/Pager';
import { pageQuery, useListPage } from '@/components/list/useListPage';
import { TitleSearch } from '../components/TitleSearch';
import { StatusBadge } from '../components/StatusBadge';

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '0' },
  toolbar: { display: 'flex', columnGap: '8px', marginBottom: '8px' },
  item: { display: 'flex', columnGap: '16px', alignItems: 'center', padding: '14px 4px', borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  main: { flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', rowGap: '4px' },
  desc: { color: tokens.colorNeutralForeground3, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  meta: { display: 'flex', columnGap: '16px', alignItems: 'center', color: tokens.colorNeutralForeground3, flexShrink: 0 },
  views: { display: 'inline-flex', alignItems: 'center', columnGap: '4px' },
});

/** The list's state in the URL: title filter, page, page size (one the pager offers). */
const LIST_DEFAULTS = { title: '', page: 1, size: 10 };
const LIST_OPTIONS = { allowed: { size: [10, 20, 50] } };
const useRows = (p: typeof LIST_DEFAULTS) => useTableList(pageQuery(p));

/** List demo: articles with avatar, description, status and views; title filter and paging. */
export default function ListPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const list = useListPage(LIST_DEFAULTS, useRows, LIST_OPTIONS);
  const { params, set, data } = list;
  return (
    <Card className={styles.card}>
      <TitleSearch className={styles.toolbar} title={params.title} onSearch={(title) => set({ title, page: 1 })} placeholder={t('dm.table.title')} />
      {list.loading && <Spinner size="small" />}
      {(data?.list ?? []).map((item) => (
        <div key={item.uuid} className={styles.item}>
          <Avatar image={{ src: demoImageUrl(item.img) }} name={item.author} size={48} shape="square" />
          <div className={styles.main}>
            <Subtitle2 translate="no">{item.title}</Subtitle2>
            <Body1 className={styles.desc} translate="no">
              {item.description}
            </Body1>
          </div>
          <div className={styles.meta}>
            <Caption1 translate="no">{item.author}</Caption1>
            <Caption1 className={styles.views}>
              <EyeRegular /> {item.pageViews}
            </Caption1>
            <StatusBadge status={item.status} />
            <Caption1>{item.datetime}</Caption1>
          </div>
        </div>
      ))}
      {data && !data.list.length && <Body1>{t('dm.common.empty')}</Body1>}
      <Pager {...list.pager} />
    </Card>
  );
}
