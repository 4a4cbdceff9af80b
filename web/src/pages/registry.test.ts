import { readMenuRoutes, SRC_DIR } from '@/test/routeData';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { componentKeys } from '@/router/buildRoutes';
import { BUILT_VIEWS, classifyView, PLANNED_VIEWS } from './registry';

const menu = readMenuRoutes();

/** The modules a source file loads lazily (`import('…')`), as paths under src/ without extension. */
function lazyImports(file: string): string[] {
  const text = readFileSync(join(SRC_DIR, file), 'utf8');
  return [...text.matchAll(/import\(\s*'([^']+)'\s*\)/g)].map(([, spec]) => (spec!.startsWith('@/') ? spec!.slice(2) : join(file, '..', spec!)));
}

/** Every page: a .tsx file (not a test) with a default export under `pages/` or a feature's `pages/`. */
function pageFiles(dir = SRC_DIR, inPages = false): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return pageFiles(path, inPages || e.name === 'pages');
    if (!inPages) return [];
    if (!e.name.endsWith('.tsx') || e.name.endsWith('.test.tsx')) return [];
    return /^export default /m.test(readFileSync(path, 'utf8')) ? [relative(SRC_DIR, path).replace(/\.tsx$/, '')] : [];
  });
}

describe('view registry vs shared/backoffice/data/menu-routes.json', () => {
  it('every component key of the route data resolves to a page', () => {
    const missing = componentKeys(menu).filter((k) => classifyView(k).kind === 'missing');
    expect(missing).toEqual([]);
  });

  it('lists no planned view that is already built, and none the data does not use', () => {
    const keys = new Set(componentKeys(menu));
    expect(PLANNED_VIEWS.filter((k) => k in BUILT_VIEWS)).toEqual([]);
    expect(PLANNED_VIEWS.filter((k) => !keys.has(k))).toEqual([]);
  });

  it('maps no key the route data does not use', () => {
    const keys = new Set(componentKeys(menu));
    expect(Object.keys(BUILT_VIEWS).filter((k) => !keys.has(k))).toEqual([]);
  });

  it('has the spec product routes', () => {
    const keys = componentKeys(menu);
    for (const k of ['index/index', 'order/orderindex', 'order/detail', 'connector/station', 'connector/connectors', 'connector/stationdetail', 'money/moneyIndex', 'setting/workflow']) {
      expect(keys).toContain(k);
      expect(classifyView(k).kind, `${k} is a real page, not "being built"`).toBe('built');
    }
  });

  it('leaves no page orphaned: each is loaded by the map (once) or by the router', () => {
    const mapped = lazyImports('pages/registry.ts').filter((p) => !p.includes('/locales/'));
    expect(mapped).toHaveLength(Object.keys(BUILT_VIEWS).length);
    expect(new Set(mapped).size, 'no page serves two keys').toBe(mapped.length);
    const reachable = new Set([...mapped, ...lazyImports('router/Guard.tsx')]);
    const pages = pageFiles();
    expect(pages.length).toBeGreaterThan(70);
    expect(pages.filter((p) => !reachable.has(p))).toEqual([]);
  });
});
