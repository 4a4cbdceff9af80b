import { Activity, useEffect, useLayoutEffect, useRef } from 'react';
import { Route, Routes, type Location } from 'react-router';
import { KEEP_ALIVE_MAX } from '@/config';
import { useTranslateTitle } from '@/i18n';
import { matchRoute } from '@/router/match';
import type { AppRoute } from '@/router/types';
import { keptAlive, tabsStore, type VisitedRoute } from '@/store/tabs';
import { ViewErrorBoundary } from './ViewErrorBoundary';
import { ViewHost } from './ViewHost';

interface Props {
  routes: AppRoute[];
  /** Tabs including the current one (derived during render, see Shell). */
  tabs: VisitedRoute[];
  current: VisitedRoute;
}

const frozenLocation = (fullPath: string): Location => {
  const [pathname, search = ''] = fullPath.split('?');
  return { pathname, search: search ? `?${search}` : '', hash: '', state: null, key: fullPath };
};

/** One view rendered against its own frozen location (so a hidden tab keeps its URL state). */
function TabView({ routes, tab }: { routes: AppRoute[]; tab: VisitedRoute }) {
  const translate = useTranslateTitle();
  const location = frozenLocation(tab.fullPath);
  const match = matchRoute(routes, location.pathname);
  const route = match?.chain[match.chain.length - 1];
  if (!route?.component) return null;
  return (
    <Routes location={location}>
      <Route path={route.path} element={<ViewHost viewKey={route.component} title={translate(route.meta.title)} />} />
    </Routes>
  );
}

/**
 * Keeps visited views alive (React <Activity>): the current view is visible,
 * up to KEEP_ALIVE_MAX recently visited cacheable tabs stay mounted but hidden
 * (state, typed text and scroll kept). noKeepAlive routes unmount when left.
 * Reload bumps a tab's key, which re-mounts its view.
 */
export function KeepAliveView({ routes, tabs, current }: Props) {
  const reloadKeys = tabsStore.use((s) => s.reloadKeys);
  const recent = useRef<string[]>([]);
  // Most recently visited last; computed in render so the set is right on this render.
  recent.current = [...recent.current.filter((p) => p !== current.path), current.path];
  const tabPaths = new Set(tabs.map((t) => t.path));
  recent.current = recent.current.filter((p) => tabPaths.has(p) || p === current.path);
  const alive = keptAlive(tabs, recent.current, KEEP_ALIVE_MAX);

  const rendered = tabs.filter((t) => alive.has(t.path) || t.path === current.path);
  if (!rendered.some((t) => t.path === current.path)) rendered.push(current);

  // The page scrolls as a whole: remember where each tab was and come back there.
  // The offset is tracked from scroll events because by the time the switch
  // commits, the browser may already have clamped scrollY to the new page height.
  const lastScroll = useRef(0);
  const scrollByTab = useRef(new Map<string, number>());
  const shownPath = useRef(current.path);
  useEffect(() => {
    const onScroll = () => {
      lastScroll.current = window.scrollY;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  useLayoutEffect(() => {
    const previous = shownPath.current;
    if (previous === current.path) return;
    scrollByTab.current.set(previous, lastScroll.current);
    shownPath.current = current.path;
    const top = scrollByTab.current.get(current.path) ?? 0;
    lastScroll.current = top;
    window.scrollTo({ top });
  }, [current.path]);

  return (
    <>
      {rendered.map((tab) => {
        const shown = tab.path === current.path ? current : tab;
        const reloadKey = reloadKeys[tab.path] ?? 0;
        return (
          <Activity key={tab.path} mode={tab.path === current.path ? 'visible' : 'hidden'}>
            <div className="view-pane" data-tab={tab.path}>
              {/* One boundary per tab: a crashing view must not take the other kept-alive tabs down with it. */}
              <ViewErrorBoundary resetKey={`${shown.fullPath}#${reloadKey}`}>
                <TabView key={reloadKey} routes={routes} tab={shown} />
              </ViewErrorBoundary>
            </div>
          </Activity>
        );
      })}
    </>
  );
}
