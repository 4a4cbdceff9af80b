import { Body1, Button, Card, CardHeader, makeStyles, Subtitle2 } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';

const useStyles = makeStyles({ card: { maxWidth: '560px', rowGap: '12px', padding: '20px' }, row: { display: 'flex', columnGap: '8px' } });

/** Route parameter demo: /other/dynamicSegment/test1/:id (one tab; its view follows the id). */
export default function SegmentParamDemo() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const next = String((Number(id) || 0) + 1);
  return (
    <Card className={styles.card}>
      <CardHeader header={<Subtitle2>{t('demo.segment.paramTitle')}</Subtitle2>} />
      <Body1 data-testid="segment-id">{t('demo.segment.current', { value: id })}</Body1>
      <div className={styles.row}>
        <Button appearance="primary" onClick={() => navigate(`/other/dynamicSegment/test1/${next}`)}>
          {t('demo.segment.goTo', { value: next })}
        </Button>
        <Button onClick={() => navigate(`/other/dynamicSegment/test2?id=${id}`)}>{t('demo.segment.toQuery')}</Button>
      </div>
    </Card>
  );
}
