/**
 * Pure rules of the /setting pages: form validation (the helper validators plus the
 * server's own limits, so most mistakes are caught before a round trip),
 * tree flattening for the department and menu trees, and the system log's
 * numbered-page limit. Messages are i18n keys.
 */
import type { RawRoute } from '@/router/types';
import { filterRoutes } from '@/router/buildRoutes';
import { aclFromUserInfo } from '@/utils/permission';
import { isEmail, isNewPassword, isUrl } from '@/utils/validate';

export type Errors<K extends string> = Partial<Record<K, string>>;

export const USERNAME_RE = /^[A-Za-z0-9_.\-@]{2,32}$/;

export interface UserForm {
  username: string;
  email: string;
  roles: string[];
  departmentId: string;
  enabled: boolean;
  password: string;
}

/** Validates the user dialog; the password is required only when creating. */
export function validateUser(form: UserForm, creating: boolean): Errors<keyof UserForm> {
  const errors: Errors<keyof UserForm> = {};
  const name = form.username.trim();
  if (!name) errors.username = 'login.usernameRequired';
  else if (!USERNAME_RE.test(name)) errors.username = 'set.user.usernameRule';
  if (form.email.trim() && !isEmail(form.email.trim())) errors.email = 'set.user.emailRule';
  if (creating && !isNewPassword(form.password)) errors.password = 'set.pwd.newMin';
  return errors;
}

/** Reset / change password: at least 12 characters and typed twice alike. */
/** A new password's length and repetition; with `username`, also that it does not contain it (the server's policy says the same). */
export function validateNewPassword(password: string, repeat: string, username?: string): Errors<'password' | 'repeat'> {
  const errors: Errors<'password' | 'repeat'> = {};
  if (!isNewPassword(password)) errors.password = 'set.pwd.newMin';
  else if (username && password.toLowerCase().includes(username.trim().toLowerCase())) errors.password = 'set.pwd.hasName';
  if (password !== repeat) errors.repeat = 'set.pwd.mismatch';
  return errors;
}

export function validateRole(form: { role: string; description: string }): Errors<'role' | 'description'> {
  const errors: Errors<'role' | 'description'> = {};
  const name = form.role.trim();
  if (!name) errors.role = 'set.role.nameRequired';
  else if (name.length > 32) errors.role = 'set.role.nameTooLong';
  if (form.description.length > 200) errors.description = 'set.role.descriptionTooLong';
  return errors;
}

export function validateProfile(form: { email: string; avatar: string }): Errors<'email' | 'avatar'> {
  const errors: Errors<'email' | 'avatar'> = {};
  if (form.email.trim() && !isEmail(form.email.trim())) errors.email = 'set.user.emailRule';
  const avatar = form.avatar.trim();
  if (avatar && !(/^https?:\/\//i.test(avatar) && isUrl(avatar))) errors.avatar = 'set.profile.avatarRule';
  return errors;
}

/** Toggles one permission in a list, keeping the options' order. */
export function togglePermission(list: readonly string[], perm: string, on: boolean, options: readonly string[]): string[] {
  const set = new Set(list);
  if (on) set.add(perm);
  else set.delete(perm);
  const ordered = options.filter((o) => set.has(o));
  return [...ordered, ...[...set].filter((p) => !options.includes(p))];
}

// ---- trees

export interface TreeLike<T> {
  children?: T[] | null;
}

export interface TreeRow<T> {
  node: T;
  depth: number;
  hasChildren: boolean;
  /** Key of the parent row ('' at the top). */
  parentKey: string;
}

/** Depth-first rows of a tree; children of collapsed keys are skipped. */
export function flattenTree<T extends TreeLike<T>>(tree: readonly T[], keyOf: (n: T) => string, collapsed: ReadonlySet<string> = new Set()): TreeRow<T>[] {
  const rows: TreeRow<T>[] = [];
  const walk = (nodes: readonly T[], depth: number, parentKey: string) => {
    for (const node of nodes) {
      const kids = node.children ?? [];
      rows.push({ node, depth, hasChildren: kids.length > 0, parentKey });
      if (kids.length && !collapsed.has(keyOf(node))) walk(kids, depth + 1, keyOf(node));
    }
  };
  walk(tree, 0, '');
  return rows;
}

/** The keys of a node and everything under it. */
export function subtreeKeys<T extends TreeLike<T>>(node: T, keyOf: (n: T) => string): Set<string> {
  const keys = new Set<string>();
  const walk = (n: T) => {
    keys.add(keyOf(n));
    (n.children ?? []).forEach(walk);
  };
  walk(node);
  return keys;
}

export function findNode<T extends TreeLike<T>>(tree: readonly T[], keyOf: (n: T) => string, key: string): T | undefined {
  for (const n of tree) {
    if (keyOf(n) === key) return n;
    const found = findNode(n.children ?? [], keyOf, key);
    if (found) return found;
  }
  return undefined;
}

/** Parent choices for a node being edited: every node but itself and its descendants, labelled by path. */
export function parentOptions<T extends TreeLike<T>>(
  tree: readonly T[],
  keyOf: (n: T) => string,
  labelOf: (n: T) => string,
  editingKey?: string,
): { key: string; label: string; depth: number }[] {
  const editing = editingKey ? findNode(tree, keyOf, editingKey) : undefined;
  const excluded = editing ? subtreeKeys(editing, keyOf) : new Set<string>();
  const out: { key: string; label: string; depth: number }[] = [];
  const walk = (nodes: readonly T[], trail: string[], depth: number) => {
    for (const n of nodes) {
      if (excluded.has(keyOf(n))) continue;
      const path = [...trail, labelOf(n)];
      out.push({ key: keyOf(n), label: path.join(' / '), depth });
      walk(n.children ?? [], path, depth + 1);
    }
  };
  walk(tree, [], 0);
  return out;
}

/** The key of the node's parent ('' at the top level, undefined when absent). */
export function parentKeyOf<T extends TreeLike<T>>(tree: readonly T[], keyOf: (n: T) => string, key: string): string | undefined {
  const walk = (nodes: readonly T[], parent: string): string | undefined => {
    for (const n of nodes) {
      if (keyOf(n) === key) return parent;
      const found = walk(n.children ?? [], keyOf(n));
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(tree, '');
}

// ---- departments

export interface DepartmentForm {
  name: string;
  parentId: string;
  order: string;
}

export function validateDepartment(form: DepartmentForm): Errors<keyof DepartmentForm> {
  const errors: Errors<keyof DepartmentForm> = {};
  const name = form.name.trim();
  if (!name) errors.name = 'set.dept.nameRequired';
  else if (name.length > 50) errors.name = 'set.dept.nameTooLong';
  if (!/^-?\d{1,9}$/.test(form.order.trim())) errors.order = 'set.dept.orderRule';
  return errors;
}

// ---- menus

export interface MenuForm {
  name: string;
  path: string;
  component: string;
  redirect: string;
  parentName: string;
  title: string;
  icon: string;
  hidden: boolean;
  levelHidden: boolean;
  noClosable: boolean;
  noKeepAlive: boolean;
  dynamicNewTab: boolean;
  tabHidden: boolean;
  breadcrumbHidden: boolean;
  badge: string;
  dot: boolean;
  activeMenu: string;
  target: string;
  /** Guard roles, comma separated ('' = open to all). */
  guard: string;
}

const EXTERNAL_RE = /^(https?:|mailto:|tel:|\/\/)/;

export function validateMenu(form: MenuForm): Errors<keyof MenuForm> {
  const errors: Errors<keyof MenuForm> = {};
  if (!form.name.trim()) errors.name = 'set.menu.nameRequired';
  else if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(form.name.trim())) errors.name = 'set.menu.nameRule';
  const path = form.path.trim();
  if (!path) errors.path = 'set.menu.pathRequired';
  else if (/\s/.test(path)) errors.path = 'set.menu.pathRule';
  else if (!form.parentName && !path.startsWith('/') && !EXTERNAL_RE.test(path) && path !== '*') errors.path = 'set.menu.topPathRule';
  if (!form.component.trim() && !EXTERNAL_RE.test(path)) errors.component = 'set.menu.componentRequired';
  if (!form.title.trim()) errors.title = 'set.menu.titleRequired';
  if (!parseGuard(form.guard).ok) errors.guard = 'set.menu.guardRule';
  return errors;
}

/** Splits the guard field into role names ('Admin, Editor' -> ['Admin', 'Editor']). */
export const guardRoles = (text: string): string[] =>
  text
    .split(/[,，\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);

// ---- system log

/** The server pages by number back to this many entries; beyond, by cursor only. */
export const LOG_MAX_OFFSET = 2000;

/** The last page reachable by number for a page size. */
export const lastNumberedPage = (pageSize: number): number => Math.floor(LOG_MAX_OFFSET / Math.max(1, pageSize)) + 1;

/** Page count shown by the numbered pager: the real count, capped at what numbers can reach. */
export const numberedPageCount = (total: number, pageSize: number): number =>
  Math.max(1, Math.min(Math.ceil(Math.max(0, total) / Math.max(1, pageSize)), lastNumberedPage(pageSize)));

/** Whether "load more" (cursor paging) is offered below the current numbered page. */
export const offersLoadMore = (pageNo: number, pageSize: number, total: number, loaded: number, cursor: string | null): boolean =>
  !!cursor && pageNo >= numberedPageCount(total, pageSize) && (pageNo - 1) * pageSize + loaded < total;

type Meta = Record<string, unknown>;

/** Text of a guard for the form: role list 'Admin, Editor', or the object as JSON. */
export function guardText(guard: unknown): string {
  if (Array.isArray(guard)) return guard.join(', ');
  if (guard && typeof guard === 'object') return JSON.stringify(guard);
  return '';
}

/** Parses the guard field: '' = none, a role list, or a JSON object {role, permission, mode}; null when malformed. */
export function parseGuard(text: string): { ok: true; guard: unknown } | { ok: false } {
  const s = text.trim();
  if (!s) return { ok: true, guard: undefined };
  if (s.startsWith('{')) {
    try {
      const v = JSON.parse(s) as unknown;
      return v && typeof v === 'object' && !Array.isArray(v) ? { ok: true, guard: v } : { ok: false };
    } catch {
      return { ok: false };
    }
  }
  return { ok: true, guard: guardRoles(s) };
}

const FLAGS = ['hidden', 'levelHidden', 'noClosable', 'noKeepAlive', 'dynamicNewTab', 'tabHidden', 'breadcrumbHidden', 'dot'] as const;
export const MENU_FLAGS: readonly (typeof FLAGS)[number][] = FLAGS;

export interface MenuNodeLike {
  name: string;
  path: string;
  component?: string | null;
  redirect?: string | null;
  meta?: Meta | null;
  children?: MenuNodeLike[] | null;
}

/** The dialog's fields from a node (or blanks for a new child of `parentName`). */
export function menuFormOf(node: MenuNodeLike | null, parentName: string): MenuForm {
  const m = (node?.meta ?? {}) as Meta;
  const str = (v: unknown) => (v == null ? '' : String(v));
  return {
    name: node?.name ?? '',
    path: node?.path ?? '',
    component: node?.component ?? (parentName ? '' : 'Layout'),
    redirect: node?.redirect ?? '',
    parentName,
    title: str(m.title),
    icon: str(m.icon),
    hidden: !!m.hidden,
    levelHidden: !!m.levelHidden,
    noClosable: !!m.noClosable,
    noKeepAlive: !!m.noKeepAlive,
    dynamicNewTab: !!m.dynamicNewTab,
    tabHidden: !!m.tabHidden,
    breadcrumbHidden: !!m.breadcrumbHidden,
    badge: str(m.badge),
    dot: !!m.dot,
    activeMenu: str(m.activeMenu),
    target: str(m.target),
    guard: guardText(m.guard),
  };
}

/**
 * The node sent to the server: the form's fields over the original meta (so
 * fields the form does not show, e.g. isCustomSvg, are kept); false flags and
 * empty texts are left out, as in the seeded tree.
 */
export function menuNodeOf(form: MenuForm, originalMeta: Meta = {}): { path: string; name: string; component: string; redirect?: string; meta: Meta } {
  const meta: Meta = { ...originalMeta };
  const setText = (k: string, v: string) => {
    if (v.trim()) meta[k] = v.trim();
    else delete meta[k];
  };
  setText('title', form.title);
  setText('icon', form.icon);
  setText('activeMenu', form.activeMenu);
  setText('target', form.target);
  const badge = form.badge.trim();
  if (!badge) delete meta.badge;
  else meta.badge = /^\d+$/.test(badge) ? Number(badge) : badge;
  for (const f of FLAGS) {
    if (form[f]) meta[f] = true;
    else delete meta[f];
  }
  const parsed = parseGuard(form.guard);
  if (parsed.ok && parsed.guard !== undefined && !(Array.isArray(parsed.guard) && !parsed.guard.length)) meta.guard = parsed.guard;
  else delete meta.guard;
  const node: { path: string; name: string; component: string; redirect?: string; meta: Meta } = {
    path: form.path.trim(),
    name: form.name.trim(),
    component: form.component.trim(),
    meta,
  };
  if (form.redirect.trim()) node.redirect = form.redirect.trim();
  return node;
}

/** The menu tree a holder of this role alone would get (the same guard rules as the sidebar). */
export function menuForRole<T extends RawRoute>(tree: readonly T[], role: string, permissions: readonly string[]): T[] {
  return filterRoutes([...tree], aclFromUserInfo([role], [...permissions])) as T[];
}

/**
 * A whole number typed into a settings field, checked against the range the
 * server sent: the number, or null when the text is not one in range.
 */
export function wholeInRange(text: string, bound: { min: number; max: number }): number | null {
  const trimmed = text.trim();
  if (!/^-?\d+$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return Number.isSafeInteger(n) && n >= bound.min && n <= bound.max ? n : null;
}
