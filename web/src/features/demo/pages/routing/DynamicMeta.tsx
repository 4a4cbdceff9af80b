import { Body1, Button, Card, CardHeader, makeStyles, Subtitle2 } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { flattenRoutes } from '@/router/buildRoutes';
import { routesStore, updateRouteMeta } from '@/store/routes';
import { setTabs, tabsStore, updateTabMeta } from '@/store/tabs';

const useStyles = makeStyles({ card: { maxWidth: '640px', rowGap: '12px', padding: '20px' }, row: { display: 'flex', columnGap: '8px', flexWrap: 'wrap' } });

const NAME = 'DynamicMeta';

/** Dynamic meta demo: changes this route's menu badge and dot at run time (tabs follow by name). */
export default function DynamicMetaDemo() {
  const { t } = useTranslation();
  const styles = useStyles();
  const route = routesStore.use((s) => flattenRoutes(s.routes).find((r) => r.name === NAME));
  const badge = Number(route?.meta.badge ?? 0) || 0;

  const apply = (meta: { badge?: string; dot?: boolean }) => {
    updateRouteMeta(NAME, meta);
    setTabs(updateTabMeta(tabsStore.get().tabs, { name: NAME }, meta));
  };

  return (
    <Card className={styles.card}>
      <CardHeader header={<Subtitle2>{t('demo.meta.title')}</Subtitle2>} />
      <Body1>{t('demo.meta.description', { badge })}</Body1>
      <div className={styles.row}>
        <Button appearance="primary" onClick={() => apply({ badge: String(badge + 1) })} data-testid="meta-increase">
          {t('demo.meta.increase')}
        </Button>
        <Button onClick={() => apply({ badge: '0' })}>{t('demo.meta.reset')}</Button>
        <Button onClick={() => apply({ dot: !route?.meta.dot })}>{t('demo.meta.toggleDot')}</Button>
      </div>
    </Card>
  );
}
