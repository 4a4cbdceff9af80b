import { describe, expect, it } from 'vitest';
import type { RouteMeta } from '@/router/types';
import { activeMenuPath, addTab, closeAll, closeLeft, closeOthers, closeRight, closeTab, keptAlive, lastTabPath, updateTabMeta, type VisitedRoute } from './tabs';

const tab = (path: string, meta: Partial<RouteMeta> = {}, fullPath = path): VisitedRoute => ({
  path,
  fullPath,
  name: path.replace(/\W/g, '') || 'root',
  query: {},
  params: {},
  matched: [],
  parentIcon: 'menu-line',
  meta: { title: path, ...meta },
});

const home = tab('/index', { noClosable: true });
const a = tab('/a');
const b = tab('/b');
const c = tab('/c');
const list = [home, a, b, c];
const paths = (tabs: VisitedRoute[]) => tabs.map((t) => t.path);

describe('tab rules (add, replace, close; non-closable tabs stay)', () => {
  it('adds a tab, replacing one with the same path', () => {
    const next = addTab(list, tab('/a', {}, '/a?x=2'));
    expect(paths(next)).toEqual(['/index', '/a', '/b', '/c']);
    expect(next[1].fullPath).toBe('/a?x=2');
  });

  it('dynamic-new-tab routes get one tab per full path', () => {
    const d1 = tab('/order/detail?id=1', { dynamicNewTab: true }, '/order/detail?id=1');
    const d2 = tab('/order/detail?id=2', { dynamicNewTab: true }, '/order/detail?id=2');
    expect(paths(addTab(addTab(list, d1), d2))).toEqual(['/index', '/a', '/b', '/c', '/order/detail?id=1', '/order/detail?id=2']);
  });

  it('does not tab tabHidden routes', () => {
    expect(addTab(list, tab('/hidden', { tabHidden: true }))).toBe(list);
  });

  it('makes the first tab non-closable when none is', () => {
    const next = addTab([], a);
    expect(next[0].meta.noClosable).toBe(true);
    expect(addTab(next, a)[0].meta.noClosable).toBe(true);
  });

  it('close one keeps non-closable tabs', () => {
    expect(paths(closeTab(list, '/b'))).toEqual(['/index', '/a', '/c']);
    expect(paths(closeTab(list, '/index'))).toEqual(paths(list));
  });

  it('close others / left / right / all keep non-closable tabs', () => {
    expect(paths(closeOthers(list, '/b'))).toEqual(['/index', '/b']);
    expect(paths(closeLeft(list, '/b'))).toEqual(['/index', '/b', '/c']);
    expect(paths(closeRight(list, '/a'))).toEqual(['/index', '/a']);
    expect(paths(closeAll(list))).toEqual(['/index']);
  });

  it('after closing, the last tab is activated, or / when none remain', () => {
    expect(lastTabPath(list)).toBe('/c');
    expect(lastTabPath([])).toBe('/');
  });

  it('updates meta by name or title', () => {
    const next = updateTabMeta(list, { title: '/b' }, { badge: 3 });
    expect(next[2].meta.badge).toBe(3);
    expect(updateTabMeta(list, { name: 'a' }, { title: 'A' })[1].meta.title).toBe('A');
  });

  it('active menu is meta.activeMenu, else the path', () => {
    expect(activeMenuPath({ title: 'x', activeMenu: '/order/orderindex' }, '/order/detail')).toBe('/order/orderindex');
    expect(activeMenuPath({ title: 'x' }, '/vab/card')).toBe('/vab/card');
  });

  it('keeps alive at most max recent cacheable tabs and never noKeepAlive ones', () => {
    const nk = tab('/nk', { noKeepAlive: true });
    const tabs = [home, a, b, c, nk];
    expect([...keptAlive(tabs, ['/index', '/a', '/nk', '/b', '/c'], 2)]).toEqual(['/b', '/c']);
    expect(keptAlive(tabs, ['/nk'], 20).has('/nk')).toBe(false);
  });
});
