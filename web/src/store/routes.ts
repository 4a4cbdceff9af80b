import type { AppRoute } from '@/router/types';
import { createStore } from './createStore';

export interface RoutesState {
  /** Built, role-filtered route tree (constant + async). Empty until loaded. */
  routes: AppRoute[];
  loaded: boolean;
}

export const routesStore = createStore<RoutesState>({ routes: [], loaded: false });

export const setRoutes = (routes: AppRoute[]): void => routesStore.set({ routes, loaded: true });
export const resetRoutes = (): void => routesStore.set({ routes: [], loaded: false });

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
