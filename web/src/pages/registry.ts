import { type ComponentType, type LazyExoticComponent } from 'react';
import { loadAreaStrings } from '@/i18n';
import { preloadable } from '@/utils/preloadable';

/**
 * The ONE map from route `component` keys (shared/backoffice/data/menu-routes.json)
 * to views. A view key 'vab/form/input' is the file pages/views/vab/form/input.tsx.
 * Keys whose page belongs to a later issue are listed in PLANNED_VIEWS and show
 * the honest "being built" page. A test checks every key of the route data
 * resolves to one or the other.
 */
type ViewModule = { default: ComponentType };

const modules = import.meta.glob<ViewModule>(['./views/**/*.tsx', '!./views/**/*.test.tsx']);

/** Each view's code, with the areas' strings it shows (fetched in parallel). */
export const BUILT_VIEWS: Record<string, () => Promise<ViewModule>> = Object.fromEntries(
  Object.entries(modules).map(([file, load]) => [
    file.replace(/^\.\/views\//, '').replace(/\.tsx$/, ''),
    () => Promise.all([load(), loadAreaStrings()]).then(([view]) => view),
  ]),
);

/** Views of later issues: business pages, then the template's demo pages. */
export const PLANNED_VIEWS: readonly string[] = [];

export type ViewResolution = { kind: 'built' } | { kind: 'planned' } | { kind: 'missing' };

export function classifyView(key: string): ViewResolution {
  if (key in BUILT_VIEWS) return { kind: 'built' };
  if (PLANNED_VIEWS.includes(key)) return { kind: 'planned' };
  return { kind: 'missing' };
}

const views = new Map<string, ReturnType<typeof preloadable<ComponentType>>>();

function view(key: string) {
  const load = BUILT_VIEWS[key];
  if (!load) return null;
  let v = views.get(key);
  if (!v) {
    v = preloadable(load);
    views.set(key, v);
  }
  return v;
}

/** The lazily loaded component of a built view, or null. */
export function lazyView(key: string): LazyExoticComponent<ComponentType> | null {
  return view(key)?.Component ?? null;
}

/** After a failed load: the view's next render asks for its code again. */
export function retryView(key: string): void {
  const v = views.get(key);
  if (v) views.set(key, { ...v, Component: v.fresh() });
}

/** Starts loading a built view's code (and strings) before it is shown. */
export function preloadView(key: string): Promise<unknown> {
  return view(key)?.preload().catch(() => undefined) ?? Promise.resolve();
}
