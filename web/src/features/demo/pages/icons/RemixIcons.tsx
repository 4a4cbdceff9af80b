import { Caption1, Card, makeStyles, shorthands, Spinner, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useRemixIcons } from '../../api/demo';
import { Pager } from '@/components/data/Pager';
import { pageQuery, useListPage } from '@/components/list/useListPage';
import { TitleSearch } from '../../components/TitleSearch';
import { RemixIcon } from '../../components/remixIcons';
import { notify } from '@/utils/notify';

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '12px' },
  toolbar: { display: 'flex', columnGap: '8px' },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(120px, 1fr))', gap: '8px' },
  cell: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    rowGap: '8px',
    height: '88px',
    justifyContent: 'center',
    ...shorthands.border('1px', 'solid', tokens.colorNeutralStroke2),
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    cursor: 'pointer',
    ':hover': { ...shorthands.borderColor(tokens.colorBrandStroke1), color: tokens.colorBrandForeground1 },
  },
  name: { maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', padding: '0 6px', color: tokens.colorNeutralForeground3 },
});

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** The list's state in the URL: name filter, page, page size (one the pager offers). */
const SIZES = [72, 144];
const LIST_DEFAULTS = { title: '', page: 1, size: 72 };
const LIST_OPTIONS = { allowed: { size: SIZES } };
const useRows = (p: typeof LIST_DEFAULTS) => useRemixIcons(pageQuery(p));

/** Remix icon list: 72 per page from /remixIcon/getList, title filter, click copies the name. */
export default function RemixIconPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const list = useListPage(LIST_DEFAULTS, useRows, LIST_OPTIONS);
  const { params, set, data } = list;
  return (
    <Card className={styles.card}>
      <TitleSearch className={styles.toolbar} title={params.title} onSearch={(title) => set({ title, page: 1 })} placeholder={t('dm.icon.filter')} testId="icon-filter" />
      {list.loading && <Spinner size="small" />}
      <div className={styles.grid}>
        {(data?.list ?? []).map((name) => (
          <button
            type="button"
            key={name}
            className={styles.cell}
            title={t('dm.icon.copy', { name })}
            onClick={async () => notify((await copyText(name)) ? t('dm.icon.copied', { name }) : t('dm.icon.copyFailed', { name }), 'success')}
          >
            <RemixIcon name={name} size={28} />
            <Caption1 className={styles.name} translate="no">
              {name}
            </Caption1>
          </button>
        ))}
      </div>
      {data && !data.list.length && <Caption1>{t('dm.common.empty')}</Caption1>}
      <Pager {...list.pager} sizes={SIZES} />
    </Card>
  );
}
