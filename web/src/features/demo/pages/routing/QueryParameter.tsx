import { Body1, Button, Card, CardHeader, makeStyles, Subtitle2 } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';

const useStyles = makeStyles({ card: { maxWidth: '560px', rowGap: '12px', padding: '20px' }, row: { display: 'flex', columnGap: '8px' } });

/** Query demo: /other/dynamicSegment/test2?id=… */
export default function SegmentQueryDemo() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const next = String((Number(id) || 0) + 1);
  return (
    <Card className={styles.card}>
      <CardHeader header={<Subtitle2>{t('demo.segment.queryTitle')}</Subtitle2>} />
      <Body1 data-testid="segment-query">{t('demo.segment.current', { value: id || '—' })}</Body1>
      <div className={styles.row}>
        <Button appearance="primary" onClick={() => navigate(`/other/dynamicSegment/test2?id=${next}`)}>
          {t('demo.segment.goTo', { value: next })}
        </Button>
        <Button onClick={() => navigate(`/other/dynamicSegment/test1/${id || 1}`)}>{t('demo.segment.toParam')}</Button>
      </div>
    </Card>
  );
}
