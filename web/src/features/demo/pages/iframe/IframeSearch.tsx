import { Body1, Button, Card, CardHeader, Input, Link, makeStyles, Subtitle2 } from '@fluentui/react-components';
import { SearchRegular } from '@fluentui/react-icons/svg/search';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { iframeViewPath, searchTarget } from '../../components/iframeUrl';

const useStyles = makeStyles({
  card: { maxWidth: '720px', padding: '20px', rowGap: '12px' },
  row: { display: 'flex', columnGap: '8px' },
  links: { display: 'flex', flexDirection: 'column', rowGap: '6px' },
});

const PRESETS = [
  { title: 'MDN Web Docs', url: 'https://developer.mozilla.org/' },
  { title: 'Fluent UI', url: 'https://react.fluentui.dev/' },
  { title: 'ECharts', url: 'https://echarts.apache.org/' },
];

/** Iframe search: open a URL or a web search in an iframe tab (/other/iframe/view?url=&title=). */
export default function IframeSearch() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const open = (url: string, title: string) => navigate(iframeViewPath(url, title));
  return (
    <Card className={styles.card}>
      <CardHeader header={<Subtitle2>{t('dm.iframe.searchTitle')}</Subtitle2>} />
      <form
        className={styles.row}
        onSubmit={(e) => {
          e.preventDefault();
          const target = searchTarget(text);
          if (target) open(target, text.trim());
        }}
      >
        <Input style={{ flex: 1 }} value={text} onChange={(_, d) => setText(d.value)} placeholder={t('dm.iframe.placeholder')} contentBefore={<SearchRegular />} data-testid="iframe-search" />
        <Button type="submit" appearance="primary" disabled={!text.trim()}>
          {t('dm.iframe.open')}
        </Button>
      </form>
      <Body1>{t('dm.iframe.hint')}</Body1>
      <div className={styles.links}>
        {PRESETS.map((p) => (
          <Link key={p.url} onClick={() => open(p.url, p.title)} translate="no">
            {p.title} — {p.url}
          </Link>
        ))}
      </div>
    </Card>
  );
}
