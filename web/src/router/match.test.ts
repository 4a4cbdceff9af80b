import { readMenuRoutes } from '@/test/routeData';
import { describe, expect, it } from 'vitest';
import { buildRoutes } from './buildRoutes';
import { matchRoute, resolveLocation } from './match';

const menu = readMenuRoutes();
const routes = buildRoutes(menu, { admin: true, role: ['Admin'], permission: [] });

describe('matchRoute / resolveLocation', () => {
  it('matches the chain from the section to the leaf', () => {
    const m = matchRoute(routes, '/vab/table/comprehensiveTable')!;
    expect(m.chain.map((r) => r.name)).toEqual(['Vab', 'Table', 'ComprehensiveTable']);
  });

  it('reads route params', () => {
    const m = matchRoute(routes, '/other/dynamicSegment/test1/42')!;
    expect(m.params).toEqual({ id: '42' });
  });

  it('redirects layouts to their first child and unknown paths to /404', () => {
    expect(resolveLocation(routes, '/')).toEqual({ kind: 'redirect', to: '/index' });
    expect(resolveLocation(routes, '/vab')).toEqual({ kind: 'redirect', to: '/vab/icon' });
    expect(resolveLocation(routes, '/vab/icon')).toEqual({ kind: 'redirect', to: '/vab/icon/remixIcon' });
    expect(resolveLocation(routes, '/nope/nothing')).toEqual({ kind: 'redirect', to: '/404' });
  });

  it("sends a page the user's roles may not open to /403 naming it, not to /404", () => {
    const editor = buildRoutes(menu, { admin: false, role: ['Editor'], permission: ['read:system', 'write:system'] });
    const forbidden = [{ path: '/setting/userManagement' }];
    expect(resolveLocation(editor, '/setting/userManagement', forbidden)).toEqual({ kind: 'redirect', to: '/403?path=%2Fsetting%2FuserManagement' });
    expect(resolveLocation(editor, '/nope/nothing', forbidden)).toEqual({ kind: 'redirect', to: '/404' });
  });

  it('resolves a leaf to its view', () => {
    const r = resolveLocation(routes, '/index');
    expect(r.kind).toBe('view');
    if (r.kind === 'view') expect(r.route.component).toBe('index/index');
  });
});
