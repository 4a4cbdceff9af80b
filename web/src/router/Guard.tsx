import { lazy, Suspense, useEffect, useLayoutEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Spinner } from '@fluentui/react-components';
import { SITE_TITLE } from '@/config';
import { translateTitle, useTranslateTitle } from '@/i18n';
import { pulseProgress } from '@/components/ProgressBar';
import { resetAll } from '@/store/session';
import { routesStore } from '@/store/routes';
import { settingsStore } from '@/store/settings';
import { userStore } from '@/store/user';
import { pageTitle } from '@/utils/pageTitle';
import { decideNavigation } from './guard';
import { loadSession } from './loadSession';
import { resolveLocation } from './match';
import { shell } from './shell';

const Login = lazy(() => import('@/pages/shell/Login'));
const Callback = lazy(() => import('@/pages/shell/Callback'));
const { Component: Shell } = shell;
const PublicError = lazy(() => import('@/pages/shell/PublicError'));

/** Titles of the public pages (Chinese, through the menu dictionary like route titles). */
const PUBLIC_TITLES: Record<string, string> = { '/login': '登录', '/callback': '登录', '/403': '403', '/404': '404' };

function FullPageSpinner() {
  return (
    <div style={{ height: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Spinner />
    </div>
  );
}

/** Sets document.title after each navigation (route title + site title, translated). */
function useDocumentTitle(pathname: string) {
  const routes = routesStore.use((s) => s.routes);
  const language = settingsStore.use((s) => s.language);
  const translate = useTranslateTitle();
  useEffect(() => {
    let title = PUBLIC_TITLES[pathname];
    if (!title && routes.length) {
      const res = resolveLocation(routes, pathname);
      if (res.kind === 'view') title = res.route.meta.title;
    }
    document.title = pageTitle(title ? translate(title) : undefined, translateTitle(settingsStore.get().title || SITE_TITLE));
  }, [pathname, routes, language, translate]);
}

/**
 * The navigation guard as a component: it decides on every
 * location, loads user info and routes once when needed (then the same
 * location renders again = retry), and on failure resets the session and
 * goes to login carrying the wanted path.
 */
export function Guard() {
  const location = useLocation();
  const token = userStore.use((s) => s.token);
  const loaded = routesStore.use((s) => s.loaded);
  const showProgress = settingsStore.use((s) => s.theme.showProgressBar);
  const fullPath = location.pathname + location.search;
  const decision = decideNavigation({ pathname: location.pathname, fullPath, hasToken: !!token, routesLoaded: loaded });

  useDocumentTitle(location.pathname);

  useLayoutEffect(() => {
    if (showProgress) pulseProgress();
  }, [location.pathname, location.search, showProgress]);

  useEffect(() => {
    if (decision.kind !== 'load') return;
    let cancelled = false;
    // On failure the reset clears the token, so this guard renders again
    // and sends the user to login carrying the wanted path.
    loadSession().catch(() => {
      if (!cancelled) resetAll();
    });
    return () => {
      cancelled = true;
    };
  }, [decision.kind, token]);

  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  if (decision.kind === 'load') return <FullPageSpinner />;

  let page;
  switch (location.pathname) {
    case '/login':
      page = <Login />;
      break;
    case '/callback':
      page = <Callback />;
      break;
    case '/403':
      page = <PublicError kind={403} />;
      break;
    case '/404':
      page = <PublicError kind={404} />;
      break;
    default:
      page = <Shell />;
  }
  return <Suspense fallback={<FullPageSpinner />}>{page}</Suspense>;
}
