import { Badge, Body1, Card, CardHeader, makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import { Trans, useTranslation } from 'react-i18next';
import { userStore } from '@/store/user';

const useStyles = makeStyles({
  page: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(380px, 1fr))', gap: '16px', alignItems: 'start' },
  card: { padding: '20px', rowGap: '12px' },
  steps: { margin: 0, paddingLeft: '20px', display: 'flex', flexDirection: 'column', rowGap: '8px' },
  code: { fontFamily: tokens.fontFamilyMonospace, backgroundColor: tokens.colorNeutralBackground3, padding: '1px 4px', borderRadius: '3px' },
  row: { display: 'flex', columnGap: '8px', alignItems: 'center', flexWrap: 'wrap' },
});

/** Social login information: how the OAuth return reaches /callback and /socialLogin in this product. */
export default function SocialPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const username = userStore.use((s) => s.username);
  const steps = ['s1', 's2', 's3', 's4', 's5'] as const;
  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('dm.social.flow')}</Subtitle2>} />
        <ol className={styles.steps}>
          {steps.map((s) => (
            <li key={s}>
              <Body1>
                <Trans i18nKey={`dm.social.${s}`} components={{ c: <code className={styles.code} /> }} />
              </Body1>
            </li>
          ))}
        </ol>
      </Card>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('dm.social.setup')}</Subtitle2>} />
        <Body1>
          <Trans i18nKey="dm.social.setupText" components={{ c: <code className={styles.code} /> }} />
        </Body1>
        <div className={styles.row}>
          <code className={styles.code}>BACKOFFICE_OAUTH_REDIRECT_URI</code>
          <Body1>{t('dm.social.redirectHint', { origin: `${window.location.origin}${window.location.pathname}` })}</Body1>
        </div>
        <div className={styles.row}>
          <Body1>{t('dm.social.current')}</Body1>
          <Badge appearance="tint" translate="no">
            {username}
          </Badge>
        </div>
        <Body1>{t('dm.social.note')}</Body1>
      </Card>
    </div>
  );
}
