import { Body1, Card, CardHeader, Field, Input, makeStyles, Subtitle2 } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({ card: { maxWidth: '560px', rowGap: '12px', padding: '20px' } });

/** Four-level nested route: its state is kept alive like any other tab. */
export default function NestedMenuDemo() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [value, setValue] = useState('');
  return (
    <Card className={styles.card}>
      <CardHeader header={<Subtitle2>{t('demo.nested.title')}</Subtitle2>} />
      <Body1>{t('demo.nested.description')}</Body1>
      <Field label={t('demo.input.filter')}>
        <Input value={value} onChange={(_, d) => setValue(d.value)} placeholder={t('demo.input.filterPlaceholder')} />
      </Field>
    </Card>
  );
}
