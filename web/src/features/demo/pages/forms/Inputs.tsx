import { Card, CardHeader, Field, Input, makeStyles, Subtitle2, Textarea } from '@fluentui/react-components';
import { SearchRegular } from '@fluentui/react-icons/svg/search';
import { PersonRegular } from '@fluentui/react-icons/svg/person';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  page: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(320px, 1fr))', gap: '16px' },
  card: { rowGap: '12px' },
  row: { display: 'flex', flexDirection: 'column', rowGap: '10px' },
});

/** Input demo (form controls); its filter field is what the keep-alive e2e test types into. */
export default function InputDemo() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [filter, setFilter] = useState('');
  const [text, setText] = useState('');
  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('demo.input.filter')}</Subtitle2>} />
        <Field label={t('demo.input.filter')}>
          <Input
            data-testid="keepalive-filter"
            contentBefore={<SearchRegular />}
            placeholder={t('demo.input.filterPlaceholder')}
            value={filter}
            onChange={(_, d) => setFilter(d.value)}
          />
        </Field>
      </Card>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('demo.input.basic')}</Subtitle2>} />
        <div className={styles.row}>
          <Input placeholder={t('demo.input.placeholder')} value={text} onChange={(_, d) => setText(d.value)} />
          <Input type="password" placeholder={t('demo.input.password')} />
          <Input disabled placeholder={t('demo.input.disabled')} />
          <Input contentBefore={<PersonRegular />} placeholder={t('demo.input.withIcon')} />
        </div>
      </Card>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('demo.input.sizes')}</Subtitle2>} />
        <div className={styles.row}>
          <Input size="small" placeholder={t('demo.input.small')} />
          <Input size="medium" placeholder={t('demo.input.medium')} />
          <Input size="large" placeholder={t('demo.input.large')} />
        </div>
      </Card>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('demo.input.textarea')}</Subtitle2>} />
        <Textarea resize="vertical" placeholder={t('demo.input.placeholder')} />
      </Card>
    </div>
  );
}
