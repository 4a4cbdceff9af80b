import { Body1, Button, Card, CardHeader, makeStyles, Subtitle2 } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({ card: { maxWidth: '640px', rowGap: '12px', padding: '20px' } });

function Bomb(): never {
  throw new Error('Simulated error from the error-log demo');
}

/** Error-log simulation: a render error is caught, shown and recorded in the error log. */
export default function ErrorLogDemo() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [boom, setBoom] = useState(false);
  return (
    <Card className={styles.card}>
      <CardHeader header={<Subtitle2>{t('demo.log.title')}</Subtitle2>} />
      <Body1>{t('demo.log.description')}</Body1>
      <div>
        <Button appearance="primary" onClick={() => setBoom(true)} data-testid="trigger-error">
          {t('demo.log.trigger')}
        </Button>
      </div>
      {boom && <Bomb />}
    </Card>
  );
}
