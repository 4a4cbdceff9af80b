import { Body1, Button, Caption1, Card, CardFooter, CardHeader, CardPreview, Image, makeStyles, ProgressBar, Spinner, Subtitle2, Switch, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { demoImageUrl, useTableList } from '../api/demo';
import { Pager } from '@/components/data/Pager';
import { StatusBadge } from '../components/StatusBadge';

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: '16px' },
  img: { width: '100%', aspectRatio: '16 / 9', objectFit: 'cover' },
  desc: { color: tokens.colorNeutralForeground3, display: '-webkit-box', WebkitLineClamp: '2', WebkitBoxOrient: 'vertical', overflow: 'hidden', minHeight: '40px' },
  footer: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', width: '100%' },
  toolbar: { display: 'flex', justifyContent: 'flex-end', marginBottom: '12px' },
});

/** Card demo: table items as cards (image, status, progress, shadow on hover). */
export default function CardPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [query, setQuery] = useState({ pageNo: 1, pageSize: 12 });
  const [shadow, setShadow] = useState(true);
  const { data, isLoading } = useTableList(query);
  return (
    <div>
      <div className={styles.toolbar}>
        <Switch label={t('dm.card.shadow')} checked={shadow} onChange={(_, d) => setShadow(d.checked)} />
      </div>
      {isLoading && !data && <Spinner />}
      <div className={styles.grid}>
        {(data?.list ?? []).map((item) => (
          <Card key={item.uuid} appearance={shadow ? 'filled' : 'outline'}>
            <CardPreview>
              <Image className={styles.img} src={demoImageUrl(item.img)} alt="" />
            </CardPreview>
            <CardHeader header={<Subtitle2 translate="no">{item.title}</Subtitle2>} description={<Caption1 translate="no">{item.author}</Caption1>} action={<StatusBadge status={item.status} />} />
            <Body1 className={styles.desc} translate="no">
              {item.description}
            </Body1>
            <ProgressBar value={item.percent / 100} thickness="large" aria-label={t('dm.table.percent')} />
            <CardFooter>
              <div className={styles.footer}>
                <Caption1>{t('dm.card.views', { n: item.pageViews })}</Caption1>
                <Button size="small" appearance="subtle">
                  {item.percent}%
                </Button>
              </div>
            </CardFooter>
          </Card>
        ))}
      </div>
      <Pager page={query.pageNo} pageSize={query.pageSize} total={data?.total ?? 0} sizes={[12, 24]} onChange={(pageNo, pageSize) => setQuery({ pageNo, pageSize })} />
    </div>
  );
}
