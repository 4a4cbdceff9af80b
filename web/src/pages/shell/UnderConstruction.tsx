import { Body1, Caption1, Card, makeStyles, Title3, tokens } from '@fluentui/react-components';
import { WrenchRegular } from '@fluentui/react-icons/svg/wrench';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  card: { maxWidth: '560px', margin: '48px auto', padding: '32px', textAlign: 'center', rowGap: '12px', alignItems: 'center' },
  icon: { fontSize: '48px', color: tokens.colorBrandForeground1 },
});

/** The one honest placeholder for views of later issues: no fake data. */
export function UnderConstruction({ title, viewKey }: { title: string; viewKey: string }) {
  const { t } = useTranslation();
  const styles = useStyles();
  return (
    <Card className={styles.card} data-testid="under-construction">
      <WrenchRegular className={styles.icon} />
      <Title3>{t('building.title')}</Title3>
      <Body1>{t('building.description', { title })}</Body1>
      <Caption1>{t('building.viewKey', { key: viewKey })}</Caption1>
    </Card>
  );
}
