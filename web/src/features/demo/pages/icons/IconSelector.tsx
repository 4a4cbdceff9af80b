import { Body1, Card, CardHeader, Field, makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconPicker } from '../../components/IconPicker';
import { RemixIcon } from '../../components/remixIcons';

const useStyles = makeStyles({
  card: { maxWidth: '640px', padding: '20px', rowGap: '16px' },
  preview: { display: 'flex', alignItems: 'center', columnGap: '16px', padding: '16px', borderRadius: tokens.borderRadiusMedium, backgroundColor: tokens.colorNeutralBackground2 },
});

/** Icon selector demo: a popover picker; the chosen icon is previewed. */
export default function IconSelectorPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [icon, setIcon] = useState('home-2-line');
  return (
    <Card className={styles.card}>
      <CardHeader header={<Subtitle2>{t('dm.icon.selectorTitle')}</Subtitle2>} />
      <Field label={t('dm.icon.choose')}>
        <div>
          <IconPicker value={icon} onChange={setIcon} />
        </div>
      </Field>
      <div className={styles.preview}>
        <RemixIcon name={icon} size={48} />
        <Body1 data-testid="icon-chosen">
          {t('dm.icon.chosen')}: <code>ri-{icon}</code>
        </Body1>
      </div>
    </Card>
  );
}
