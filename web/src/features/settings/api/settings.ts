import type { RouteMeta } from '@/router/types';
import useSWR from 'swr';
import { get, post } from '@/api/request';
import type { Answer, Query, Schema } from '@/api/types';

/** A paged list's query: its page number and size always sent. */
type PageOf<Q extends { pageNo?: number; pageSize?: number }> = Q & Required<Pick<Q, 'pageNo' | 'pageSize'>>;

/**
 * The /setting pages' endpoints (users, roles, departments, menus, system
 * log, own profile). Errors are toasted by the request layer with the
 * server's `msg`; callers only catch to keep dialogs open.
 */
/** A paged answer, its list and total defaulted. */
const page = <T>(data: { list?: T[]; total?: number } | undefined): { list: T[]; total: number } => ({ list: data?.list ?? [], total: data?.total ?? 0 });

// ---- users
type UserPage = Answer<'/partnerapi/userManagement/getList', 'get'>;
export type StaffUser = UserPage['list'][number];

export type UserEdit = Schema<'UserEditIn'>;

/** A page of staff accounts (the previous page stays shown while the next loads). */
export function useUsers(q: { pageNo: number; pageSize: number; username: string }) {
  return useSWR(['setting/users', q.pageNo, q.pageSize, q.username], () => getUsers(q), { keepPreviousData: true });
}

export async function getUsers(q: PageOf<Query<'/partnerapi/userManagement/getList'>>): Promise<UserPage> {
  const { data } = await get<UserPage>('/userManagement/getList', { username: q.username, pageNo: q.pageNo, pageSize: q.pageSize });
  return page(data);
}

/** `extra.fieldErrors`: the dialog shows a 400's fields beside them (no toast for those). */
export async function saveUser(edit: UserEdit, extra?: { fieldErrors?: boolean }): Promise<{ user: StaffUser; msg: string }> {
  const res = await post<Answer<'/partnerapi/userManagement/doEdit', 'post'>>('/userManagement/doEdit', edit, extra);
  return { user: res.data, msg: res.msg };
}

export async function deleteUser(username: string): Promise<string> {
  return (await post<unknown>('/userManagement/doDelete', { username })).msg;
}

export async function resetPassword(username: string, password: string, extra?: { fieldErrors?: boolean }): Promise<string> {
  return (await post<unknown>('/userManagement/resetPassword', { username, password }, extra)).msg;
}

// ---- roles
export type RolePage = Answer<'/partnerapi/roleManagement/getList', 'get'>;
export type Role = RolePage['list'][number];

export type RoleEdit = Schema<'RoleEditIn'>;

/** A page of roles (the previous page stays shown while the next loads). */
export function useRoles(q: { pageNo: number; pageSize: number; role: string }) {
  return useSWR(['setting/roles', q.pageNo, q.pageSize, q.role], () => getRoles(q), { keepPreviousData: true });
}

/** Every role (up to 100), for a form's options. */
export function useRoleOptions() {
  return useSWR('setting/roles/options', () => getRoles({ pageNo: 1, pageSize: 100 }), { shouldRetryOnError: false });
}

export async function getRoles(q: PageOf<Query<'/partnerapi/roleManagement/getList'>>): Promise<RolePage> {
  const { data } = await get<RolePage>('/roleManagement/getList', { role: q.role, pageNo: q.pageNo, pageSize: q.pageSize });
  return { ...page(data), permissionOptions: data?.permissionOptions ?? [] };
}

export async function saveRole(edit: RoleEdit): Promise<string> {
  return (await post<unknown>('/roleManagement/doEdit', edit)).msg;
}

export async function deleteRole(role: string): Promise<string> {
  return (await post<unknown>('/roleManagement/doDelete', { role })).msg;
}

// ---- departments
export type Department = Schema<'DepartmentNode'>;

export type DepartmentEdit = Schema<'DepartmentIn'>;

type DepartmentTree = Answer<'/partnerapi/departmentManagement/getList', 'get'>;
/** The department tree (`quiet`: a failure is not retried, e.g. for a form's options). */
export function useDepartments(quiet = false) {
  return useSWR('setting/departments', getDepartments, quiet ? { shouldRetryOnError: false } : undefined);
}

export async function getDepartments(): Promise<DepartmentTree> {
  const { data } = await get<DepartmentTree | Department[]>('/departmentManagement/getList');
  if (Array.isArray(data)) return { list: data, total: data.length };
  return page(data);
}

export async function saveDepartment(edit: DepartmentEdit): Promise<string> {
  return (await post<unknown>('/departmentManagement/doEdit', edit)).msg;
}

export async function deleteDepartment(id: string): Promise<string> {
  return (await post<unknown>('/departmentManagement/doDelete', { id })).msg;
}

// ---- menus
export type MenuTree = Answer<'/partnerapi/menuManagement/getList', 'get'>;
export type MenuNode = Schema<'RouteNode'>;

/** The document takes any JSON value as `node`; the server reads a menu node from it. */
export type MenuEdit = Schema<'MenuEditIn'> & {
  node: { path: string; name: string; component: string; redirect?: string; meta: Partial<RouteMeta> };
};

/** The whole menu tree (`enabled` false: not asked, e.g. while a dialog is closed). */
export function useMenus(enabled = true) {
  return useSWR(enabled ? 'setting/menus' : null, getMenus);
}

export async function getMenus(): Promise<MenuTree> {
  const { data } = await get<Partial<MenuTree>>('/menuManagement/getList');
  return { list: data?.list ?? [], total: data?.total ?? 0, version: data?.version ?? 0, components: data?.components ?? [] };
}

export async function saveMenu(edit: MenuEdit): Promise<string> {
  return (await post<unknown>('/menuManagement/doEdit', edit)).msg;
}

export async function deleteMenu(name: string, version: number): Promise<string> {
  return (await post<unknown>('/menuManagement/doDelete', { name, version })).msg;
}

// ---- system log
export type LogPage = Answer<'/partnerapi/systemLog/getList', 'get'>;
export type LogEntry = LogPage['list'][number];

/** A type the log can be filtered by: `value` to send, `label` in the reader's language. */
export type LogType = NonNullable<LogPage['types']>[number];
export type LogQuery = PageOf<Query<'/partnerapi/systemLog/getList'>>;

/**
 * A page of the system log. The server writes each entry's type and result
 * in the request's language, so `language` is part of the key (a switch
 * loads the page again).
 */
export function useSystemLog(q: LogQuery & { account: string; type: string; from: string; to: string }, language: string) {
  return useSWR(['setting/systemLog', q.pageNo, q.pageSize, q.account, q.type, q.from, q.to, language], () => getSystemLog(q), { keepPreviousData: true });
}

export async function getSystemLog(q: LogQuery): Promise<LogPage> {
  const { data } = await get<Partial<LogPage>>('/systemLog/getList', {
    account: q.account || undefined,
    type: q.type || undefined,
    from: q.from || undefined,
    to: q.to || undefined,
    pageNo: q.pageNo,
    pageSize: q.pageSize,
    cursor: q.cursor,
  });
  return {
    ...page(data),
    cursor: data?.cursor ?? null,
    totalKnown: data?.totalKnown ?? true,
    refusedAnonymous24h: data?.refusedAnonymous24h ?? 0,
    types: data?.types ?? null,
  };
}

// ---- own profile
export async function updateProfile(profile: Schema<'ProfileIn'>): Promise<Answer<'/partnerapi/user/updateProfile', 'post'> & { msg: string }> {
  const res = await post<Answer<'/partnerapi/user/updateProfile', 'post'>>('/user/updateProfile', profile);
  return { email: res.data?.email ?? profile.email, avatar: res.data?.avatar ?? profile.avatar, msg: res.msg };
}

export async function changeOwnPassword(oldPassword: string, newPassword: string): Promise<string> {
  return (await post<unknown>('/user/changePassword', { oldPassword, newPassword }, { fieldErrors: true })).msg;
}

// ---- operations settings (/setting/workflow)
export type OperationSettings = Answer<'/partnerapi/operationSettings/get', 'get'>;
/** The range the server accepts for one setting (and its default). */
export type SettingBound = OperationSettings['limits']['stuckAfterHours'];

export type OperationSettingsEdit = Schema<'OperationSettingsEdit'>;

export async function getOperationSettings(): Promise<OperationSettings> {
  const { data } = await get<OperationSettings>('/operationSettings/get');
  return data as OperationSettings;
}

/** The operations settings and their ranges (a failure is not retried). */
export function useOperationSettings() {
  return useSWR('setting/operations', getOperationSettings, { shouldRetryOnError: false });
}

export async function saveOperationSettings(edit: OperationSettingsEdit): Promise<{ settings: OperationSettings; msg: string }> {
  const res = await post<Answer<'/partnerapi/operationSettings/doEdit', 'post'>>('/operationSettings/doEdit', edit);
  return { settings: res.data as OperationSettings, msg: res.msg };
}
