import { ROLES_CONTROL } from '@/config';
import { hasAccess } from '@/utils/permission';
import type { Acl, AppRoute, RawRoute, RouteMeta } from './types';

export const ROUTE_FORMAT_ERROR = '路由格式返回有误！';
export const LAYOUT_KEYWORD = 'Layout';

export class RouteFormatError extends Error {
  constructor() {
    super(ROUTE_FORMAT_ERROR);
    this.name = 'RouteFormatError';
  }
}

/** External link: http(s):, mailto:, tel: or protocol-relative //. */
export const isExternal = (path: string): boolean => /^(https?:|mailto:|tel:|\/\/)/.test(path);

/** Resolves a child path against its parent, except '*', absolute and external paths. */
export function resolvePath(parent: string, path: string): string {
  if (path === '*' || isExternal(path)) return path;
  if (path.startsWith('/')) return normalise(path);
  return normalise(`${parent}/${path}`);
}

const normalise = (p: string): string => {
  const joined = p.replace(/\/{2,}/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
};

/** Role filtering: drops routes the user may not see. */
export function filterRoutes(routes: RawRoute[], acl: Acl): RawRoute[] {
  const out: RawRoute[] = [];
  for (const route of routes) {
    if (!hasAccess(acl, route.meta?.guard)) continue;
    if (route.children) {
      const children = filterRoutes(route.children, acl);
      // A layout whose every child was filtered away would be an empty menu.
      if (route.children.length > 0 && children.length === 0) continue;
      out.push({ ...route, children });
    } else {
      out.push(route);
    }
  }
  return out;
}

function convert(route: RawRoute, parentPath: string): AppRoute {
  const path = resolvePath(parentPath, route.path);
  const external = isExternal(path);
  const meta: RouteMeta = { ...route.meta, title: route.meta?.title ?? '' } as RouteMeta;
  const children = route.children?.length ? route.children.map((c) => convert(c, path)) : undefined;
  const isLayout = route.component === LAYOUT_KEYWORD;
  let redirect = route.redirect && route.redirect !== 'noRedirect' ? resolveRedirect(path, route.redirect) : undefined;
  // A parent without a redirect goes to its first routable child.
  if (!redirect && children) {
    const first = children.find((c) => !c.external && c.path !== '*');
    if (first) redirect = first.path;
  }
  return {
    path,
    name: route.name ?? path,
    component: isLayout || external ? undefined : route.component || undefined,
    isLayout: isLayout || (!!children && !route.component),
    external,
    redirect,
    meta,
    ...(children ? { children } : {}),
  };
}

const resolveRedirect = (from: string, redirect: string): string =>
  isExternal(redirect) || redirect.startsWith('/') ? redirect : resolvePath(from, redirect);

/** The hidden catch-all appended to every tree: unknown paths go to /404. */
export const CATCH_ALL: AppRoute = {
  path: '*',
  name: 'NotFoundRedirect',
  isLayout: false,
  external: false,
  redirect: '/404',
  meta: { title: '404', hidden: true },
};

/**
 * Builds the route tree from the server list (authentication mode 'all'):
 * checks the format, filters by role, resolves paths, layouts, redirects,
 * and appends the catch-all.
 */
export function buildRoutes(list: unknown, acl: Acl, rolesControl: boolean = ROLES_CONTROL): AppRoute[] {
  if (!Array.isArray(list)) throw new RouteFormatError();
  const raw = list as RawRoute[];
  const visible = rolesControl ? filterRoutes(raw, acl) : raw;
  return [...visible.map((r) => convert(r, '/')), CATCH_ALL];
}

/** Depth-first list of every route in a tree. */
export function flattenRoutes(routes: AppRoute[]): AppRoute[] {
  return routes.flatMap((r) => [r, ...(r.children ? flattenRoutes(r.children) : [])]);
}

/** Every distinct view key the tree uses. */
export function componentKeys(routes: RawRoute[]): string[] {
  const keys = new Set<string>();
  const walk = (rs: RawRoute[]) =>
    rs.forEach((r) => {
      if (r.component && r.component !== LAYOUT_KEYWORD) keys.add(r.component);
      if (r.children) walk(r.children);
    });
  walk(routes);
  return [...keys];
}

/** The view every signed-in user's personal center uses. */
export const PERSONAL_CENTER_VIEW = 'setting/personalCenter';

/**
 * Where the avatar menu's "personal center" goes: the menu's own entry when
 * the user sees it (Admin: /setting/personalCenter, the spec's place), else
 * the hidden route the server gives every signed-in user (/user/personalCenter).
 */
export function personalCenterPath(routes: AppRoute[]): string | undefined {
  const all = flattenRoutes(routes).filter((r) => r.component === PERSONAL_CENTER_VIEW);
  return (all.find((r) => !r.meta.hidden) ?? all[0])?.path;
}
