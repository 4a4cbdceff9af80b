import { Button, Card, CardHeader, makeStyles, Skeleton, SkeletonItem, Spinner, Subtitle2 } from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingMask } from '@/components/LoadingMask';

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))', gap: '16px' },
  card: { rowGap: '12px', padding: '20px' },
  row: { display: 'flex', columnGap: '24px', alignItems: 'center', flexWrap: 'wrap' },
  skeleton: { display: 'grid', rowGap: '8px' },
});

/** Loading demo: spinners, skeleton, and the full-page mask for 2 s. */
export default function LoadingDemo() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [mask, setMask] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const showMask = () => {
    setMask(true);
    timer.current = setTimeout(() => setMask(false), 2000);
  };
  return (
    <div className={styles.grid}>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('demo.loading.spinners')}</Subtitle2>} />
        <div className={styles.row}>
          <Spinner size="tiny" />
          <Spinner size="small" />
          <Spinner size="medium" />
          <Spinner size="large" label={t('common.loading')} />
        </div>
      </Card>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('demo.loading.skeleton')}</Subtitle2>} />
        <Skeleton className={styles.skeleton} aria-label={t('common.loading')}>
          <SkeletonItem size={16} />
          <SkeletonItem size={16} />
          <SkeletonItem size={16} style={{ width: '60%' }} />
        </Skeleton>
      </Card>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('demo.loading.mask')}</Subtitle2>} />
        <div>
          <Button appearance="primary" onClick={showMask}>
            {t('demo.loading.showMask')}
          </Button>
        </div>
      </Card>
      {mask && <LoadingMask label={t('common.loading')} />}
    </div>
  );
}
