import { readMenuRoutes } from '@/test/routeData';
import { describe, expect, it } from 'vitest';
import { buildRoutes } from '@/router/buildRoutes';
import { firstLeaf, menuAction, menuTree, needsScroll, openPathsFor } from './menuModel';

const menu = readMenuRoutes();
const routes = buildRoutes(menu, { admin: true, role: ['Admin'], permission: [] });
const tree = menuTree(routes);

describe('menu model', () => {
  it('skips hidden routes and the catch-all', () => {
    const order = tree.find((n) => n.route.path === '/order')!;
    expect(order.children!.map((c) => c.route.path)).toEqual(['/order/orderindex']);
    expect(tree.some((n) => n.route.path === '*')).toBe(false);
  });

  it('levelHidden shows the children in place of the route', () => {
    expect(tree.some((n) => n.route.path === '/mall')).toBe(false);
    expect(tree.some((n) => n.route.path === '/mall/goods')).toBe(true);
  });

  it('opens the branch of the active path', () => {
    expect(openPathsFor(tree, '/other/menu1/menu1-1/menu1-1-1/menu1-1-1-1')).toEqual([
      '/other',
      '/other/menu1',
      '/other/menu1/menu1-1',
      '/other/menu1/menu1-1/menu1-1-1',
    ]);
  });

  it('leaves out a section whose pages the role filter removed', () => {
    const filtered = buildRoutes(
      [
        { path: '/setting', component: 'Layout', meta: { title: '系统设置' }, children: [] },
        { path: '/money', component: 'Layout', meta: { title: '财务管理' }, children: [{ path: 'moneyIndex', component: 'money/moneyIndex', meta: { title: '财务概览' } }] },
      ],
      { admin: false, role: ['Editor'], permission: [] },
    );
    expect(menuTree(filtered).map((n) => n.route.path)).toEqual(['/money']);
  });

  it('scrolls past 18 children', () => {
    expect(needsScroll(18)).toBe(false);
    expect(needsScroll(19)).toBe(true);
  });

  it('first leaf of a section', () => {
    expect(firstLeaf(tree.find((n) => n.route.path === '/vab')!).route.path).toBe('/vab/icon/remixIcon');
  });

  it('click actions: _blank, external, current, push', () => {
    const ext = routes.flatMap((r) => r.children ?? []).find((r) => r.external)!;
    expect(menuAction(ext, '/index')).toEqual({ kind: 'open-window', url: ext.path });
    const internalBlank = { ...ext, external: false, path: '/vab/card' };
    expect(menuAction(internalBlank, '/index')).toEqual({ kind: 'open-window', url: '#/vab/card' });
    const extSelf = { ...ext, meta: { ...ext.meta, target: undefined } };
    expect(menuAction(extSelf, '/index')).toEqual({ kind: 'location', url: ext.path });
    const card = { ...ext, external: false, path: '/vab/card', meta: { title: '卡片' } };
    expect(menuAction(card, '/vab/card')).toEqual({ kind: 'reload' });
    expect(menuAction(card, '/index')).toEqual({ kind: 'navigate', path: '/vab/card' });
  });
});
