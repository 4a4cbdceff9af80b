import { Body1, Card, CardHeader, Image, makeStyles, Spinner, Subtitle1, Subtitle2, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { demoImageUrl, useAllTableItems, useDescriptions } from '../../api/demo';
import { StatusBadge } from '../../components/StatusBadge';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', rowGap: '16px' },
  card: { padding: '20px', rowGap: '12px' },
  grid: { display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: '24px', rowGap: '10px', alignItems: 'center' },
  label: { color: tokens.colorNeutralForeground3 },
  img: { width: '240px', height: '135px', borderRadius: '6px' },
  desc: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: '12px' },
  item: { padding: '12px', borderRadius: tokens.borderRadiusMedium, backgroundColor: tokens.colorNeutralBackground2, display: 'flex', flexDirection: 'column', rowGap: '4px' },
});

/** Detail of one table row (opened in its own tab per id) with the description list. */
export default function TableDetail() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  // The list endpoint is the only source; the row is looked up among all 50.
  const { data: rows, isLoading } = useAllTableItems();
  const { data: desc } = useDescriptions();
  const row = rows?.list.find((r) => r.id === id);
  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle1 translate={row ? 'no' : undefined}>{row ? row.title : t('dm.detail.title', { id: id || '—' })}</Subtitle1>} />
        {isLoading && <Spinner size="small" />}
        {!isLoading && !row && <Body1 data-testid="detail-missing">{t('dm.detail.notFound', { id: id || '—' })}</Body1>}
        {row && (
          <div className={styles.grid} data-testid="detail-row">
            <span className={styles.label}>{t('dm.table.id')}</span>
            <span>{row.id}</span>
            <span className={styles.label}>{t('dm.table.author')}</span>
            <span translate="no">{row.author}</span>
            <span className={styles.label}>{t('dm.table.status')}</span>
            <span>
              <StatusBadge status={row.status} />
            </span>
            <span className={styles.label}>{t('dm.table.pageViews')}</span>
            <span>{row.pageViews}</span>
            <span className={styles.label}>{t('dm.table.datetime')}</span>
            <span>{row.datetime}</span>
            <span className={styles.label}>{t('dm.table.description')}</span>
            <span translate="no">{row.description}</span>
            <span className={styles.label}>{t('dm.table.img')}</span>
            <Image className={styles.img} src={demoImageUrl(row.img)} alt={row.title} />
          </div>
        )}
      </Card>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('dm.detail.descriptions')}</Subtitle2>} />
        <div className={styles.desc}>
          {(desc ?? []).map((d, i) => (
            <div key={i} className={styles.item} translate="no">
              <Subtitle2>{d.title}</Subtitle2>
              <Body1>{d.description}</Body1>
            </div>
          ))}
        </div>
      </Card>
    </div>
  );
}
