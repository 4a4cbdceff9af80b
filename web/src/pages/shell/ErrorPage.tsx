import { Body1, Button, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

const useStyles = makeStyles({
  root: {
    minHeight: '60vh',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    rowGap: '12px',
    padding: '32px',
    textAlign: 'center',
  },
  code: {
    fontSize: '96px',
    lineHeight: '1',
    fontWeight: 700,
    backgroundImage: `linear-gradient(135deg, ${tokens.colorBrandBackground}, ${tokens.colorBrandBackground2Hover})`,
    backgroundClip: 'text',
    WebkitBackgroundClip: 'text',
    color: 'transparent',
  },
  headline: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
});

/** 403 and 404 pages (public routes and the /error demo views). */
export function ErrorPage({ kind }: { kind: 403 | 404 }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const styles = useStyles();
  const forbidden = kind === 403;
  return (
    <div className={styles.root} data-testid={`error-${kind}`}>
      <div className={styles.code}>{kind}</div>
      <div className={styles.headline}>{t(forbidden ? 'error.forbidden' : 'error.notFound')}</div>
      <Body1>{t(forbidden ? 'error.forbiddenHint' : 'error.notFoundHint')}</Body1>
      <Button appearance="primary" onClick={() => navigate('/')}>
        {t('common.home')}
      </Button>
    </div>
  );
}
