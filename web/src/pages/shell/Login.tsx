import { Button, Field, Input, makeStyles, Spinner, Subtitle2, Title2, tokens } from '@fluentui/react-components';
import { PersonRegular } from '@fluentui/react-icons/svg/person';
import { LockClosedRegular } from '@fluentui/react-icons/svg/lock-closed';
import { EyeRegular } from '@fluentui/react-icons/svg/eye';
import { EyeOffRegular } from '@fluentui/react-icons/svg/eye-off';
import { FlashRegular } from '@fluentui/react-icons/svg/flash';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { startSocialLogin, useSocialProviders } from '@/api/social';
import { login } from '@/api/user';
import { LanguageSwitch } from '@/components/header/LanguageSwitch';
import { useTranslateTitle } from '@/i18n';
import { settingsStore } from '@/store/settings';
import { saveToken } from '@/store/user';
import { goToProvider } from '@/utils/socialFlow';
import { validateLogin } from '@/utils/validate';

const useStyles = makeStyles({
  page: {
    minHeight: '100vh',
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1.1fr) minmax(360px, 1fr)',
    backgroundColor: tokens.colorNeutralBackground2,
    '@media (max-width: 991px)': { gridTemplateColumns: '1fr' },
  },
  hero: {
    position: 'relative',
    overflow: 'hidden',
    display: 'flex',
    flexDirection: 'column',
    justifyContent: 'center',
    padding: '64px',
    color: '#fff',
    backgroundImage: `radial-gradient(circle at 20% 20%, rgba(255,255,255,0.18), transparent 45%), linear-gradient(135deg, ${tokens.colorBrandBackgroundPressed} 0%, ${tokens.colorBrandBackground} 60%, ${tokens.colorBrandBackgroundHover} 100%)`,
    '@media (max-width: 991px)': { display: 'none' },
  },
  heroIcon: { fontSize: '56px', marginBottom: '24px' },
  heroTitle: { fontSize: '34px', lineHeight: '44px', fontWeight: 700, margin: 0 },
  heroText: { fontSize: '16px', opacity: 0.88, marginTop: '12px', maxWidth: '420px' },
  rings: {
    position: 'absolute',
    right: '-120px',
    bottom: '-120px',
    width: '420px',
    height: '420px',
    borderRadius: '50%',
    border: '48px solid rgba(255,255,255,0.08)',
  },
  side: { position: 'relative', display: 'flex', alignItems: 'center', justifyContent: 'center', padding: '32px' },
  lang: { position: 'absolute', top: '16px', right: '16px' },
  form: {
    width: '100%',
    maxWidth: '380px',
    display: 'flex',
    flexDirection: 'column',
    rowGap: '18px',
    padding: '40px 36px',
    borderRadius: tokens.borderRadiusXLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow16,
  },
  subtitle: { color: tokens.colorNeutralForeground3, marginTop: '-10px' },
  or: { textAlign: 'center', color: tokens.colorNeutralForeground3 },
});

/** Sign-in: form validators, a token required in the answer, redirect query honoured. */
export default function Login() {
  const { t } = useTranslation();
  const translate = useTranslateTitle();
  const styles = useStyles();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const errors = touched ? validateLogin({ username, password }) : {};
  const siteTitle = translate(settingsStore.get().title);
  // The providers the server offers: none, no button.
  const providers = useSocialProviders();

  async function social() {
    setBusy(true);
    try {
      goToProvider(await startSocialLogin(), 'signIn');
    } catch {
      setBusy(false);
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    const found = validateLogin({ username, password });
    if (found.username || found.password) return;
    setBusy(true);
    try {
      const tokens = await login({ username: username.trim(), password });
      // The guard sees the token and leaves /login for the redirect query.
      saveToken(tokens);
    } catch {
      /* the request layer already showed the server's message */
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={styles.page}>
      <section className={styles.hero}>
        <FlashRegular className={styles.heroIcon} />
        <h1 className={styles.heroTitle}>{siteTitle}</h1>
        <div className={styles.heroText}>{t('login.subtitle')}</div>
        <div className={styles.rings} />
      </section>
      <section className={styles.side}>
        <div className={styles.lang}>
          <LanguageSwitch />
        </div>
        <form className={styles.form} onSubmit={submit} noValidate data-testid="login-form">
          <Title2>{t('login.title')}</Title2>
          <Subtitle2 className={styles.subtitle}>{siteTitle}</Subtitle2>
          <Field label={t('login.username')} validationMessage={errors.username ? t(errors.username) : undefined} required>
            <Input
              name="username"
              size="large"
              autoComplete="username"
              contentBefore={<PersonRegular />}
              placeholder={t('login.usernamePlaceholder')}
              value={username}
              onChange={(_, d) => setUsername(d.value)}
            />
          </Field>
          <Field label={t('login.password')} validationMessage={errors.password ? t(errors.password) : undefined} required>
            <Input
              name="password"
              size="large"
              type={showPassword ? 'text' : 'password'}
              autoComplete="current-password"
              contentBefore={<LockClosedRegular />}
              contentAfter={
                <Button
                  appearance="transparent"
                  size="small"
                  icon={showPassword ? <EyeOffRegular /> : <EyeRegular />}
                  aria-label={t(showPassword ? 'login.hidePassword' : 'login.showPassword')}
                  onClick={() => setShowPassword((v) => !v)}
                />
              }
              placeholder={t('login.passwordPlaceholder')}
              value={password}
              onChange={(_, d) => setPassword(d.value)}
            />
          </Field>
          <Button type="submit" appearance="primary" size="large" disabled={busy} icon={busy ? <Spinner size="tiny" /> : undefined}>
            {busy ? t('login.submitting') : t('login.submit')}
          </Button>
          {providers.data?.length ? <div className={styles.or}>{t('login.or')}</div> : null}
          {providers.data?.map((p) => (
            <Button key={p.name} appearance="outline" size="large" disabled={busy} onClick={() => void social()} data-testid="social-login">
              {t('login.socialWith', { name: p.name })}
            </Button>
          ))}
        </form>
      </section>
    </div>
  );
}
