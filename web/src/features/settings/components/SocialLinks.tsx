import { Body1, Button, Card, CardHeader, makeStyles, Subtitle2, Text, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { startSocialLink, unlinkSocial, useSocialLinks } from '@/api/social';
import { userStore } from '@/store/user';
import { notify } from '@/utils/notify';
import { goToProvider } from '@/utils/socialFlow';

const useStyles = makeStyles({
  card: { padding: '20px', rowGap: '12px' },
  row: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', columnGap: '12px' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/**
 * The personal center's social sign-in identities: only the signed-in
 * owner links one (through the provider, with the same PKCE flow as
 * signing in) or removes it.
 */
export function SocialLinks() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const me = userStore.use((s) => s.username);
  const location = useLocation();
  const links = useSocialLinks(me);
  const [busy, setBusy] = useState(false);
  const providers = links.data?.providers ?? [];

  const link = async () => {
    setBusy(true);
    try {
      goToProvider(await startSocialLink(), 'link', location.pathname);
    } catch {
      setBusy(false);
    }
  };
  const unlink = async (provider: string) => {
    setBusy(true);
    try {
      await unlinkSocial(provider);
      notify(t('social.unlinked'), 'success');
      await links.mutate();
    } catch {
      /* toasted by the request layer */
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className={styles.card} data-testid="social-links">
      <CardHeader header={<Subtitle2>{t('social.title')}</Subtitle2>} />
      <Body1 className={styles.muted}>{providers.length ? t('social.hint') : t('social.none')}</Body1>
      {providers.map((p) => {
        const linked = links.data?.links.find((l) => l.provider === p.name);
        const when = linked ? new Date(linked.linkedAt * 1000).toLocaleString(i18n.language) : '';
        return (
          <div key={p.name} className={styles.row}>
            <Text>
              {p.name} · <span className={styles.muted}>{linked ? t('social.linkedAt', { when }) : t('social.notLinked')}</span>
            </Text>
            {linked ? (
              <Button disabled={busy} onClick={() => void unlink(p.name)}>
                {t('social.unlink')}
              </Button>
            ) : (
              <Button appearance="primary" disabled={busy} onClick={() => void link()}>
                {t('social.link', { name: p.name })}
              </Button>
            )}
          </div>
        );
      })}
    </Card>
  );
}
