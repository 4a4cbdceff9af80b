import type { ForbiddenPage } from '@/api/router';
import type { AppRoute } from '@/router/types';
import { createStore } from './createStore';

export interface RoutesState {
  /** Built, role-filtered route tree (constant + async). Empty until loaded. */
  routes: AppRoute[];
  /** Pages of the menu the user's roles may not open (403, not 404), with what they need. */
  forbidden: ForbiddenPage[];
  loaded: boolean;
}

export const routesStore = createStore<RoutesState>({ routes: [], forbidden: [], loaded: false });

export const setRoutes = (routes: AppRoute[], forbidden: ForbiddenPage[] = []): void => routesStore.set({ routes, forbidden, loaded: true });
export const resetRoutes = (): void => routesStore.set({ routes: [], forbidden: [], loaded: false });

/** Returns the tree with `meta` merged into the route named `name` (dynamic meta). */
export function patchRouteMeta(routes: AppRoute[], name: string, meta: Partial<AppRoute['meta']>): AppRoute[] {
  return routes.map((r) => ({
    ...r,
    ...(r.name === name ? { meta: { ...r.meta, ...meta } } : {}),
    ...(r.children ? { children: patchRouteMeta(r.children, name, meta) } : {}),
  }));
}

export const updateRouteMeta = (name: string, meta: Partial<AppRoute['meta']>): void =>
  routesStore.set((s) => ({ routes: patchRouteMeta(s.routes, name, meta) }));
