import { Body1, Button, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslateTitle } from '@/i18n';
import { routesStore } from '@/store/routes';

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

/**
 * What a 403 is about, from its address: `?path=` a page of the menu the
 * user's roles may not open (the route list says what it needs), or
 * `?permission=` the permission an API call was refused for.
 */
function useMissing(): string | null {
  const { t, i18n } = useTranslation();
  const translate = useTranslateTitle();
  const [params] = useSearchParams();
  const forbidden = routesStore.use((s) => s.forbidden);
  const page = forbidden.find((f) => f.path === params.get('path'));
  if (page) return t('error.pageNeeds', { page: translate(page.title), needs: i18n.language.startsWith('zh') ? page.needsZh : page.needsEn });
  const permission = params.get('permission');
  // i18next reads ':' as a namespace separator: the keys spell it '_'.
  if (permission) return t('error.permissionNeeded', { permission, what: t(`error.permission.${permission.replace(/:/g, '_')}`, { defaultValue: permission }) });
  return null;
}

/** 403 and 404 pages (public routes and the /error demo views). */
export function ErrorPage({ kind }: { kind: 403 | 404 }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const styles = useStyles();
  const forbidden = kind === 403;
  const missing = useMissing();
  return (
    <div className={styles.root} data-testid={`error-${kind}`}>
      <div className={styles.code}>{kind}</div>
      <div className={styles.headline}>{t(forbidden ? 'error.forbidden' : 'error.notFound')}</div>
      {forbidden && missing && <Body1 data-testid="error-403-missing">{missing}</Body1>}
      <Body1>{t(forbidden ? 'error.forbiddenHint' : 'error.notFoundHint')}</Body1>
      <Button appearance="primary" onClick={() => navigate('/')}>
        {t('common.home')}
      </Button>
    </div>
  );
}
