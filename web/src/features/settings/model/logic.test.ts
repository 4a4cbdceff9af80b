import { describe, expect, it } from 'vitest';
import {
  flattenTree,
  guardRoles,
  lastNumberedPage,
  menuFormOf,
  menuForRole,
  menuNodeOf,
  parseGuard,
  numberedPageCount,
  offersLoadMore,
  parentKeyOf,
  parentOptions,
  togglePermission,
  validateDepartment,
  validateMenu,
  validateNewPassword,
  validateProfile,
  validateRole,
  validateUser,
  wholeInRange,
  type MenuForm,
} from './logic';

const user = { username: 'alice', email: '', roles: ['Editor'], departmentId: '', enabled: true, password: '' };

describe('user form', () => {
  it('applies the point-5 messages and the server username rule', () => {
    expect(validateUser({ ...user, username: ' ' }, false)).toEqual({ username: 'login.usernameRequired' });
    expect(validateUser({ ...user, username: 'a' }, false).username).toBe('set.user.usernameRule');
    expect(validateUser({ ...user, username: 'bad name' }, false).username).toBe('set.user.usernameRule');
    expect(validateUser({ ...user, username: 'x'.repeat(33) }, false).username).toBe('set.user.usernameRule');
    expect(validateUser({ ...user, username: 'ops.lead-1@site_a' }, false)).toEqual({});
    expect(validateUser({ ...user, email: 'nope' }, false).email).toBe('set.user.emailRule');
    expect(validateUser({ ...user, email: 'a@b.cn' }, false)).toEqual({});
  });
  it('requires a password of 6+ only when creating', () => {
    expect(validateUser({ ...user, password: 'eleven-char' }, true).password).toBe('set.pwd.newMin');
    expect(validateUser({ ...user, password: 'twelve-chars' }, true)).toEqual({});
    expect(validateUser(user, false)).toEqual({});
  });
  it('checks new passwords are long enough and repeated', () => {
    expect(validateNewPassword('123456', '123456')).toEqual({ password: 'set.pwd.newMin' });
    expect(validateNewPassword('twelve-chars', 'twelve-charz')).toEqual({ repeat: 'set.pwd.mismatch' });
    expect(validateNewPassword('twelve-chars', 'twelve-chars')).toEqual({});
    expect(validateNewPassword('my-Editor-pass-1', 'my-Editor-pass-1', 'editor')).toEqual({ password: 'set.pwd.hasName' });
    expect(validateNewPassword('harbour-lantern-2026', 'harbour-lantern-2026', 'editor')).toEqual({});
    // Characters, not UTF-16 units: 12 Chinese characters pass, 11 do not.
    expect(validateNewPassword('充电站密码是绿色的电车', '充电站密码是绿色的电车').password).toBe('set.pwd.newMin');
  });
});

describe('role and profile forms', () => {
  it('validates role names and descriptions', () => {
    expect(validateRole({ role: '', description: '' }).role).toBe('set.role.nameRequired');
    expect(validateRole({ role: 'x'.repeat(33), description: '' }).role).toBe('set.role.nameTooLong');
    expect(validateRole({ role: 'Ops', description: 'd'.repeat(201) }).description).toBe('set.role.descriptionTooLong');
    expect(validateRole({ role: 'Ops', description: '' })).toEqual({});
  });
  it('accepts only http(s) avatar URLs or none', () => {
    expect(validateProfile({ email: '', avatar: '' })).toEqual({});
    expect(validateProfile({ email: '', avatar: 'https://img.example.com/a.png' })).toEqual({});
    expect(validateProfile({ email: '', avatar: 'ftp://x.cn/a.png' }).avatar).toBe('set.profile.avatarRule');
    expect(validateProfile({ email: '', avatar: 'javascript:alert(1)' }).avatar).toBe('set.profile.avatarRule');
    expect(validateProfile({ email: 'x', avatar: '' }).email).toBe('set.user.emailRule');
  });
  it('toggles permissions in option order', () => {
    const options = ['read:system', 'write:system', 'delete:system'];
    expect(togglePermission(['delete:system'], 'read:system', true, options)).toEqual(['read:system', 'delete:system']);
    expect(togglePermission(['read:system', 'write:system'], 'read:system', false, options)).toEqual(['write:system']);
    expect(togglePermission(['custom'], 'write:system', true, options)).toEqual(['write:system', 'custom']);
  });
});

interface N {
  id: string;
  name: string;
  children?: N[];
}
const tree: N[] = [
  { id: 'a', name: 'HQ', children: [{ id: 'b', name: 'Ops', children: [{ id: 'c', name: 'Night' }] }, { id: 'd', name: 'Finance' }] },
  { id: 'e', name: 'Branch' },
];
const key = (n: N) => n.id;

describe('trees', () => {
  it('flattens depth-first and skips collapsed children', () => {
    expect(flattenTree(tree, key).map((r) => `${r.node.id}${r.depth}${r.parentKey}`)).toEqual(['a0', 'b1a', 'c2b', 'd1a', 'e0']);
    expect(flattenTree(tree, key, new Set(['b'])).map((r) => r.node.id)).toEqual(['a', 'b', 'd', 'e']);
    expect(flattenTree(tree, key)[1].hasChildren).toBe(true);
  });
  it('offers as parents everything but the node and its subtree', () => {
    expect(parentOptions(tree, key, (n) => n.name).map((o) => o.label)).toEqual(['HQ', 'HQ / Ops', 'HQ / Ops / Night', 'HQ / Finance', 'Branch']);
    expect(parentOptions(tree, key, (n) => n.name, 'b').map((o) => o.key)).toEqual(['a', 'd', 'e']);
  });
  it('finds a parent key', () => {
    expect(parentKeyOf(tree, key, 'c')).toBe('b');
    expect(parentKeyOf(tree, key, 'e')).toBe('');
    expect(parentKeyOf(tree, key, 'zz')).toBeUndefined();
  });
  it('validates departments', () => {
    expect(validateDepartment({ name: '', parentId: '', order: '1' }).name).toBe('set.dept.nameRequired');
    expect(validateDepartment({ name: 'Ops', parentId: '', order: '1.5' }).order).toBe('set.dept.orderRule');
    expect(validateDepartment({ name: 'Ops', parentId: 'a', order: '3' })).toEqual({});
  });
});

describe('menu nodes', () => {
  const form: MenuForm = {
    name: 'Stations',
    path: 'station',
    component: 'connector/station',
    redirect: '',
    parentName: 'Connector',
    title: '站点',
    icon: '',
    hidden: false,
    levelHidden: false,
    noClosable: false,
    noKeepAlive: false,
    dynamicNewTab: false,
    tabHidden: false,
    breadcrumbHidden: false,
    badge: '',
    dot: false,
    activeMenu: '',
    target: '',
    guard: '',
  };
  it('needs name, path, component and title', () => {
    expect(validateMenu(form)).toEqual({});
    expect(validateMenu({ ...form, name: '' }).name).toBe('set.menu.nameRequired');
    expect(validateMenu({ ...form, name: '1x' }).name).toBe('set.menu.nameRule');
    expect(validateMenu({ ...form, path: 'a b' }).path).toBe('set.menu.pathRule');
    expect(validateMenu({ ...form, parentName: '' }).path).toBe('set.menu.topPathRule');
    expect(validateMenu({ ...form, component: '' }).component).toBe('set.menu.componentRequired');
    expect(validateMenu({ ...form, component: '', path: 'https://example.com' })).toEqual({});
    expect(validateMenu({ ...form, title: ' ' }).title).toBe('set.menu.titleRequired');
  });
  it('round-trips a node through the form, keeping unknown meta', () => {
    const node = { name: 'Table', path: 'table', component: 'Layout', meta: { title: '表格', icon: 'table-2', guard: { role: ['Editor'], mode: 'except' }, isCustomSvg: false, badge: 0, hidden: false } };
    const form = menuFormOf(node, 'Vab');
    expect(form.guard).toBe('{"role":["Editor"],"mode":"except"}');
    expect(form.badge).toBe('0');
    expect(menuNodeOf(form, node.meta)).toEqual({
      name: 'Table',
      path: 'table',
      component: 'Layout',
      meta: { title: '表格', icon: 'table-2', guard: { role: ['Editor'], mode: 'except' }, isCustomSvg: false, badge: 0 },
    });
    const edited = menuNodeOf({ ...form, title: ' 表格2 ', guard: 'Admin', hidden: true, badge: 'Hot', redirect: '/x' }, node.meta);
    expect(edited.meta).toMatchObject({ title: '表格2', guard: ['Admin'], hidden: true, badge: 'Hot' });
    expect(edited.redirect).toBe('/x');
    expect(menuNodeOf({ ...form, guard: '', badge: '' }, node.meta).meta).not.toHaveProperty('guard');
    expect(menuFormOf(null, '').component).toBe('Layout');
  });
  it('parses guards', () => {
    expect(parseGuard('')).toEqual({ ok: true, guard: undefined });
    expect(parseGuard('{"role":["Admin"]')).toEqual({ ok: false });
    expect(parseGuard('[1]')).toEqual({ ok: true, guard: ['[1]'] });
    expect(validateMenu({ ...form, guard: '{bad' }).guard).toBe('set.menu.guardRule');
  });
  it('splits guard roles', () => {
    expect(guardRoles('Admin, Editor，Ops ')).toEqual(['Admin', 'Editor', 'Ops']);
    expect(guardRoles('')).toEqual([]);
  });
});

describe('system log paging', () => {
  it('numbers pages back to 2000 entries, then offers load more', () => {
    expect(lastNumberedPage(20)).toBe(101);
    expect(numberedPageCount(50, 20)).toBe(3);
    expect(numberedPageCount(0, 20)).toBe(1);
    expect(numberedPageCount(10_000, 20)).toBe(101);
    expect(offersLoadMore(101, 20, 10_000, 20, 'c')).toBe(true);
    expect(offersLoadMore(100, 20, 10_000, 20, 'c')).toBe(false);
    expect(offersLoadMore(101, 20, 10_000, 20, null)).toBe(false);
    expect(offersLoadMore(3, 20, 50, 10, 'c')).toBe(false);
  });
});

describe('menu seen by a role', () => {
  const routes = [
    { path: '/', name: 'Root', component: 'Layout', meta: { title: '首页' }, children: [{ path: 'index', name: 'Index', component: 'index/index', meta: { title: '首页' } }] },
    { path: '/vab', name: 'Vab', component: 'Layout', meta: { title: '组件' }, children: [{ path: 'table', name: 'Table', component: 'Layout', meta: { title: '表格', guard: { role: ['Editor'], mode: 'except' as const } }, children: [{ path: 'x', name: 'X', component: 'vab/x', meta: { title: 'x' } }] }, { path: 'form', name: 'Form', component: 'vab/form', meta: { title: '表单' } }] },
    { path: '/setting', name: 'Setting', component: 'Layout', meta: { title: '系统设置', guard: ['Admin'] }, children: [{ path: 'u', name: 'U', component: 'setting/u', meta: { title: 'u' } }] },
  ];
  const names = (tree: { name?: string; children?: unknown[] }[]): string[] => tree.flatMap((n) => [n.name ?? '', ...names((n.children ?? []) as { name?: string }[])]);
  it('applies the sidebar guards', () => {
    expect(names(menuForRole(routes, 'Editor', ['read:system']))).toEqual(['Root', 'Index', 'Vab', 'Form']);
    expect(names(menuForRole(routes, 'Admin', []))).toContain('U');
    expect(names(menuForRole(routes, 'Test', []))).toEqual(['Root', 'Index', 'Vab', 'Table', 'X', 'Form']);
  });
});

describe('operations settings fields', () => {
  it('takes whole numbers inside the server range only', () => {
    const bound = { min: 2, max: 10 };
    expect(wholeInRange('3', bound)).toBe(3);
    expect(wholeInRange(' 10 ', bound)).toBe(10);
    for (const bad of ['', '1', '11', '2.5', '3e1', 'abc', '-3', '99999999999999999999']) {
      expect(wholeInRange(bad, bound), bad).toBeNull();
    }
  });
});
