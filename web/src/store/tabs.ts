import { DEFAULT_TAB_ICON } from '@/config';
import type { RouteMatch } from '@/router/match';
import type { AppRoute, RouteMeta } from '@/router/types';
import { createStore } from './createStore';

/** A visited route = one tab. */
export interface VisitedRoute {
  /** Tab identity: full path + query for dynamic-new-tab routes, else the route pattern. */
  path: string;
  /** The location the tab shows (pathname + search); its view is frozen to it. */
  fullPath: string;
  name: string;
  query: Record<string, string>;
  params: Record<string, string>;
  /** Names of the matched routes, outermost first. */
  matched: string[];
  parentIcon: string;
  meta: RouteMeta;
}

export function toVisitedRoute(route: AppRoute, match: RouteMatch, pathname: string, search: string): VisitedRoute {
  const fullPath = pathname + search;
  const parent = match.chain.length > 1 ? match.chain[match.chain.length - 2] : undefined;
  return {
    path: route.meta.dynamicNewTab ? fullPath : route.path,
    fullPath,
    name: route.name,
    query: Object.fromEntries(new URLSearchParams(search)),
    params: match.params,
    matched: match.chain.map((r) => r.name),
    parentIcon: parent?.meta.icon ?? DEFAULT_TAB_ICON,
    meta: { ...route.meta },
  };
}

/** If no tab is non-closable, the first one becomes non-closable. */
function ensureFirstPinned(tabs: VisitedRoute[]): VisitedRoute[] {
  if (tabs.length === 0 || tabs.some((t) => t.meta.noClosable)) return tabs;
  const [first, ...rest] = tabs;
  return [{ ...first, meta: { ...first.meta, noClosable: true } }, ...rest];
}

/** Adds a tab, replacing one with the same path; tabHidden routes are not tabbed. */
export function addTab(tabs: VisitedRoute[], tab: VisitedRoute): VisitedRoute[] {
  if (tab.meta.tabHidden) return tabs;
  const index = tabs.findIndex((t) => t.path === tab.path);
  if (index >= 0) {
    const next = [...tabs];
    // Keep a pin given by ensureFirstPinned when the same tab is revisited.
    next[index] = { ...tab, meta: { ...tab.meta, noClosable: tab.meta.noClosable || tabs[index].meta.noClosable } };
    return ensureFirstPinned(next);
  }
  return ensureFirstPinned([...tabs, tab]);
}

const closable = (t: VisitedRoute): boolean => !t.meta.noClosable;

export const closeTab = (tabs: VisitedRoute[], path: string): VisitedRoute[] =>
  tabs.filter((t) => t.path !== path || !closable(t));

export const closeOthers = (tabs: VisitedRoute[], path: string): VisitedRoute[] =>
  tabs.filter((t) => t.path === path || !closable(t));

export function closeLeft(tabs: VisitedRoute[], path: string): VisitedRoute[] {
  const index = tabs.findIndex((t) => t.path === path);
  return tabs.filter((t, i) => i >= index || !closable(t));
}

export function closeRight(tabs: VisitedRoute[], path: string): VisitedRoute[] {
  const index = tabs.findIndex((t) => t.path === path);
  if (index < 0) return tabs;
  return tabs.filter((t, i) => i <= index || !closable(t));
}

export const closeAll = (tabs: VisitedRoute[]): VisitedRoute[] => tabs.filter((t) => !closable(t));

/** Where to go after closing: the last tab, or '/' when none remain. */
export const lastTabPath = (tabs: VisitedRoute[]): string => (tabs.length ? tabs[tabs.length - 1].fullPath : '/');

/** Meta updates match a tab by name or title. */
export function updateTabMeta(tabs: VisitedRoute[], key: { name?: string; title?: string }, meta: Partial<RouteMeta>): VisitedRoute[] {
  return tabs.map((t) =>
    (key.name && t.name === key.name) || (key.title && t.meta.title === key.title) ? { ...t, meta: { ...t.meta, ...meta } } : t,
  );
}

/** The menu entry to highlight: meta.activeMenu if set, else the path. */
export const activeMenuPath = (meta: RouteMeta | undefined, pathname: string): string => meta?.activeMenu || pathname;

export const tabsStore = createStore<{ tabs: VisitedRoute[]; reloadKeys: Record<string, number> }>({ tabs: [], reloadKeys: {} });

export const setTabs = (tabs: VisitedRoute[]): void => tabsStore.set({ tabs });
export const clearTabs = (): void => tabsStore.set({ tabs: [], reloadKeys: {} });

/**
 * Labels that views give their per-instance tabs, by tab path: a station's
 * tab reads its name, not the internal id in its URL.
 */
export const tabLabelsStore = createStore<{ labels: Record<string, string> }>({ labels: {} });

export function setTabLabel(path: string, label: string): void {
  if (label && tabLabelsStore.get().labels[path] !== label) tabLabelsStore.set((s) => ({ labels: { ...s.labels, [path]: label } }));
}

/** Re-renders a tab's view by bumping its key (refresh icon, clicking the active tab or menu). */
export function reloadTab(path: string): void {
  tabsStore.set((s) => ({ reloadKeys: { ...s.reloadKeys, [path]: (s.reloadKeys[path] ?? 0) + 1 } }));
}

/**
 * Keep-alive set: tabs whose route allows caching, the most recently visited
 * `max` of them (LRU order given by `recent`, most recent last).
 */
export function keptAlive(tabs: VisitedRoute[], recent: string[], max: number): Set<string> {
  const cacheable = new Set(tabs.filter((t) => !t.meta.noKeepAlive).map((t) => t.path));
  const ordered = recent.filter((p) => cacheable.has(p));
  return new Set(ordered.slice(-max));
}
