import { readMenuRoutes } from '@/test/routeData';
import { describe, expect, it } from 'vitest';
import { buildRoutes, CATCH_ALL, filterRoutes, flattenRoutes, isExternal, personalCenterPath, resolvePath, ROUTE_FORMAT_ERROR, RouteFormatError } from './buildRoutes';
import type { Acl, RawRoute } from './types';

const menu = readMenuRoutes();
const admin: Acl = { admin: true, role: ['Admin'], permission: ['read:system', 'write:system', 'delete:system'] };
const editor: Acl = { admin: false, role: ['Editor'], permission: ['read:system', 'write:system'] };
const paths = (acl: Acl) => flattenRoutes(buildRoutes(menu, acl)).map((r) => r.path);

describe('buildRoutes', () => {
  it('rejects a list that is not an array with the spec message', () => {
    expect(() => buildRoutes({ list: [] }, admin)).toThrow(RouteFormatError);
    expect(() => buildRoutes(null, admin)).toThrow(ROUTE_FORMAT_ERROR);
  });

  it('appends a hidden catch-all to /404', () => {
    const routes = buildRoutes([], admin);
    expect(routes.at(-1)).toEqual(CATCH_ALL);
    expect(CATCH_ALL.meta.hidden).toBe(true);
    expect(CATCH_ALL.redirect).toBe('/404');
  });

  it('resolves child paths against the parent, except * and external paths', () => {
    expect(resolvePath('/vab', 'table')).toBe('/vab/table');
    expect(resolvePath('/', 'index')).toBe('/index');
    expect(resolvePath('/vab', '*')).toBe('*');
    expect(resolvePath('/other', 'https://example.com/x')).toBe('https://example.com/x');
    expect(resolvePath('/other', '/abs')).toBe('/abs');
  });

  it('recognises external links', () => {
    for (const p of ['http://a', 'https://a', 'mailto:a@b.c', 'tel:123', '//cdn.example.com']) expect(isExternal(p)).toBe(true);
    expect(isExternal('/vab')).toBe(false);
  });

  it('maps the Layout keyword, redirects parents to their first child and keeps explicit redirects', () => {
    const routes = buildRoutes(menu, admin);
    const root = routes[0];
    expect(root.path).toBe('/');
    expect(root.isLayout).toBe(true);
    expect(root.component).toBeUndefined();
    expect(root.redirect).toBe('/index');
    const vab = routes.find((r) => r.path === '/vab')!;
    expect(vab.redirect).toBe('/vab/icon');
    const segment = flattenRoutes(routes).find((r) => r.name === 'DynamicSegment')!;
    expect(segment.redirect).toBe('/other/dynamicSegment/test1/1');
    const leaf = flattenRoutes(routes).find((r) => r.name === 'Index')!;
    expect(leaf.component).toBe('index/index');
    expect(leaf.meta.noClosable).toBe(true);
  });

  it('removes empty children arrays', () => {
    const routes = buildRoutes([{ path: '/a', component: 'x/y', children: [] }], admin);
    expect(routes[0].children).toBeUndefined();
  });

  it('filters by role: editor loses the Admin-only and except-Editor sections', () => {
    const adminPaths = paths(admin);
    const editorPaths = paths(editor);
    for (const p of ['/other', '/mall', '/vab/table', '/vab/list', '/vab/form/rate', '/vab/editor', '/setting/personalCenter']) {
      expect(adminPaths).toContain(p);
      expect(editorPaths).not.toContain(p);
    }
    // (Whether /setting is Admin-only is the route data's call, not the client's: not asserted here.)
    for (const p of ['/index', '/order/orderindex', '/connector/station', '/money/moneyIndex', '/vab/form/input', '/error/404']) {
      expect(editorPaths).toContain(p);
    }
  });

  it('finds the personal center: the menu entry when visible, else the hidden self-service route', () => {
    // What /router/getList adds for every signed-in user (domain/menus.rs).
    const selfService: RawRoute = {
      path: '/user',
      name: 'SelfService',
      component: 'Layout',
      redirect: '/user/personalCenter',
      meta: { title: '个人中心', hidden: true, breadcrumbHidden: true },
      children: [{ path: 'personalCenter', name: 'MyPersonalCenter', component: 'setting/personalCenter', meta: { title: '个人中心', hidden: true } }],
    };
    expect(personalCenterPath(buildRoutes([...menu, selfService], admin))).toBe('/setting/personalCenter');
    expect(personalCenterPath(buildRoutes([...menu, selfService], editor))).toBe('/user/personalCenter');
    expect(personalCenterPath(buildRoutes(menu, editor))).toBeUndefined();
  });

  it('drops a layout whose children were all filtered out', () => {
    const raw: RawRoute[] = [{ path: '/x', name: 'X', component: 'Layout', meta: { title: 'x' }, children: [{ path: 'a', name: 'A', component: 'a', meta: { title: 'a', guard: ['Admin'] } }] }];
    expect(filterRoutes(raw, editor)).toEqual([]);
  });

  it('keeps every path unique in the route data', () => {
    const all = paths(admin).filter((p) => p !== '*');
    expect(new Set(all).size).toBe(all.length);
  });
});
