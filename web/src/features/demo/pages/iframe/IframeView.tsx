import { Body1, Button, Card, Link, makeStyles, MessageBar, MessageBarBody, Subtitle2, tokens } from '@fluentui/react-components';
import { OpenRegular } from '@fluentui/react-icons/svg/open';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { frameable, safeFrameUrl } from '../../components/iframeUrl';

const useStyles = makeStyles({
  card: { padding: '12px', rowGap: '8px' },
  head: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', columnGap: '8px' },
  url: { color: tokens.colorNeutralForeground3, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  frame: { width: '100%', height: 'calc(100vh - 260px)', minHeight: '400px', border: 'none', borderRadius: tokens.borderRadiusMedium, backgroundColor: '#fff' },
});

/** Iframe view: url and title from the query (only http(s)); one tab per url. Sites that forbid framing stay blank — open them in a new window. */
export default function IframeView() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const url = safeFrameUrl(params.get('url'));
  const title = params.get('title') || url || t('dm.iframe.title');
  // A page of this origin must not get allow-same-origin together with allow-scripts (it could lift its own sandbox).
  const sameOrigin = !!url && new URL(url).origin === window.location.origin;
  if (!url) {
    return (
      <Card className={styles.card}>
        <MessageBar intent="warning">
          <MessageBarBody>{params.get('url') ? t('dm.iframe.refused') : t('dm.iframe.noUrl')}</MessageBarBody>
        </MessageBar>
        <div>
          <Button appearance="primary" onClick={() => navigate('/other/iframe/search')}>
            {t('dm.iframe.goSearch')}
          </Button>
        </div>
      </Card>
    );
  }
  return (
    <Card className={styles.card}>
      <div className={styles.head}>
        <div style={{ minWidth: 0 }}>
          <Subtitle2 translate={params.get('title') || url ? 'no' : undefined}>{title}</Subtitle2>
          <Body1 className={styles.url} block translate="no">
            {url}
          </Body1>
        </div>
        <Link href={url} target="_blank" rel="noopener noreferrer">
          <OpenRegular /> {t('dm.iframe.newWindow')}
        </Link>
      </div>
      {frameable(url) ? (
      <iframe className={styles.frame} src={url} title={title} sandbox={sameOrigin ? 'allow-scripts allow-forms allow-popups' : 'allow-scripts allow-same-origin allow-forms allow-popups'} referrerPolicy="no-referrer" data-testid="iframe-view" />
      ) : (
        <MessageBar intent="info" data-testid="iframe-not-allowed">
          <MessageBarBody>{t('dm.iframe.notAllowed')}</MessageBarBody>
        </MessageBar>
      )}
    </Card>
  );
}
