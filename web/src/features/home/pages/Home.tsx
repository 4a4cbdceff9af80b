import { Avatar, Badge, Body1, Card, CardHeader, makeStyles, Subtitle1, Text, Title3, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATA_SLOT, WithData } from '@/components/data/DataText';
import { useNavigate } from 'react-router';
import { greetingKey } from '@/config';
import { RouteIcon } from '@/components/RouteIcon';
import { HomeDashboard } from '../components/HomeDashboard';
import { usePermission } from '@/components/Permission';
import { useTranslateTitle } from '@/i18n';
import { routesStore } from '@/store/routes';
import { userStore } from '@/store/user';
import { menuTree, type MenuNode } from '@/layout/menu/menuModel';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', rowGap: '16px' },
  hero: { display: 'flex', flexDirection: 'row', alignItems: 'center', columnGap: '20px', padding: '24px' },
  heroText: { display: 'flex', flexDirection: 'column', rowGap: '6px' },
  meta: { color: tokens.colorNeutralForeground3 },
  tags: { display: 'flex', flexWrap: 'wrap', gap: '6px' },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: '12px' },
  link: {
    display: 'flex',
    alignItems: 'center',
    columnGap: '12px',
    padding: '16px',
    textAlign: 'center',
    cursor: 'pointer',
    ':hover': { boxShadow: tokens.shadow8 },
  },
  linkIcon: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: '40px',
    height: '40px',
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground1,
    fontSize: '22px',
  },
});

/** Leaves of the first-level sections: the user's own entry points. */
function quickLinks(nodes: MenuNode[]): MenuNode[] {
  return nodes
    .flatMap((n) => (n.children ? n.children.filter((c) => !c.children && !c.route.external).slice(0, 1) : [n]))
    .filter((n) => n.route.path !== '/index' && !n.route.external && !n.route.path.startsWith('/error'))
    .slice(0, 8);
}

/** Home: greeting by local hour, who is signed in, and shortcuts. */
export default function Home() {
  const { t, i18n } = useTranslation();
  const translate = useTranslateTitle();
  const styles = useStyles();
  const navigate = useNavigate();
  const username = userStore.use((s) => s.username);
  const avatar = userStore.use((s) => s.avatar);
  const roles = userStore.use((s) => s.role);
  const permissions = userStore.use((s) => s.permission);
  const routes = routesStore.use((s) => s.routes);
  const [now, setNow] = useState(() => new Date());
  const canRead = usePermission(['read:system']);

  // The greeting follows the clock while the tab stays open.
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);

  const date = now.toLocaleDateString(i18n.language === 'zh' ? 'zh-CN' : 'en-US', { year: 'numeric', month: 'long', day: 'numeric', weekday: 'long' });

  return (
    <div className={styles.page}>
      <Card className={styles.hero} data-testid="home-greeting">
        <Avatar size={64} name={username} image={{ src: avatar }} />
        <div className={styles.heroText}>
          <Title3>
            <WithData sentence={t('greeting.welcome', { greeting: t(greetingKey(now.getHours())), name: DATA_SLOT })} data={username} />
          </Title3>
          <Body1 className={styles.meta}>{t('home.today', { date })}</Body1>
          <div className={styles.tags}>
            <Text size={200} className={styles.meta}>
              {t('home.role')}:
            </Text>
            {roles.map((r) => (
              <Badge key={r} appearance="tint" color="brand" translate="no">
                {r}
              </Badge>
            ))}
            <Text size={200} className={styles.meta}>
              {t('home.permissions')}:
            </Text>
            {permissions.map((p) => (
              <Badge key={p} appearance="outline" translate="no">
                {p}
              </Badge>
            ))}
          </div>
        </div>
      </Card>
      {canRead && <HomeDashboard />}
      <Card>
        <CardHeader header={<Subtitle1>{t('home.quickLinks')}</Subtitle1>} />
        <div className={styles.grid}>
          {quickLinks(menuTree(routes)).map((n) => (
            <Card key={n.route.path} className={styles.link} appearance="outline" onClick={() => navigate(n.route.path)} data-testid="quick-link">
              <span className={styles.linkIcon}>
                <RouteIcon name={n.route.meta.icon} />
              </span>
              <Text weight="semibold" align="center">
                {translate(n.route.meta.title)}
              </Text>
            </Card>
          ))}
        </div>
      </Card>
    </div>
  );
}
