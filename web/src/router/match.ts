import { matchPath } from 'react-router';
import type { AppRoute } from './types';

export interface RouteMatch {
  /** Matched routes from the top-level route down to the deepest one. */
  chain: AppRoute[];
  params: Record<string, string>;
}

/**
 * Finds the chain of routes that matches a pathname. Layout parents match by
 * prefix, leaves exactly; '*' (the catch-all) matches anything last.
 */
export function matchRoute(routes: AppRoute[], pathname: string): RouteMatch | null {
  for (const route of routes) {
    if (route.external) continue;
    if (route.path === '*') return { chain: [route], params: {} };
    if (route.children?.length) {
      if (matchPath({ path: route.path, end: false }, pathname)) {
        const inner = matchRoute(route.children.filter((c) => c.path !== '*'), pathname);
        if (inner) return { chain: [route, ...inner.chain], params: inner.params };
      }
    }
    const exact = matchPath({ path: route.path, end: true }, pathname);
    if (exact) return { chain: [route], params: stringParams(exact.params) };
  }
  return null;
}

const stringParams = (p: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(p).filter((e): e is [string, string] => typeof e[1] === 'string'));

export type Resolution =
  | { kind: 'redirect'; to: string }
  | { kind: 'view'; route: AppRoute; match: RouteMatch };

/**
 * What a protected pathname leads to once routes are built: a page of the
 * menu the user's roles may not open (`forbidden`, from the server) goes
 * to /403 saying which page, any other unknown path to /404.
 */
export function resolveLocation(routes: AppRoute[], pathname: string, forbidden: { path: string }[] = []): Resolution {
  const match = matchRoute(routes, pathname);
  if (!match || match.chain[0]?.path === '*') {
    if (forbidden.some((f) => f.path === pathname)) return { kind: 'redirect', to: `/403?path=${encodeURIComponent(pathname)}` };
  }
  if (!match) return { kind: 'redirect', to: '/404' };
  const leaf = match.chain[match.chain.length - 1];
  if (leaf.redirect && (leaf.isLayout || !leaf.component)) return { kind: 'redirect', to: leaf.redirect };
  if (!leaf.component) return { kind: 'redirect', to: '/404' };
  return { kind: 'view', route: leaf, match };
}
