import type { RawRoute, RouteMeta } from '@/router/types';
import { get, post } from './request';

/**
 * The /setting pages' endpoints (users, roles, departments, menus, system
 * log, own profile). Errors are toasted by the request layer with the
 * server's `msg`; callers only catch to keep dialogs open.
 */
export interface Page<T> {
  list: T[];
  total: number;
}

const page = <T>(data: Partial<Page<T>> | undefined): Page<T> => ({ list: data?.list ?? [], total: data?.total ?? 0 });

// ---- users
export interface StaffUser {
  id: string;
  username: string;
  email: string;
  avatar: string;
  roles: string[];
  departmentId?: string | null;
  enabled: boolean;
  /** 'YYYY-MM-DD HH:mm:ss' */
  datatime: string;
  version: number;
}

export interface UserEdit {
  username: string;
  email: string;
  roles: string[];
  departmentId?: string;
  enabled: boolean;
  /** Required when creating. */
  password?: string;
  /** Omitted to create. */
  version?: number;
}

export async function getUsers(q: { username?: string; pageNo: number; pageSize: number }): Promise<Page<StaffUser>> {
  const { data } = await get<Page<StaffUser>>('/userManagement/getList', { username: q.username, pageNo: q.pageNo, pageSize: q.pageSize });
  return page(data);
}

export async function saveUser(edit: UserEdit): Promise<{ user: StaffUser; msg: string }> {
  const res = await post<StaffUser>('/userManagement/doEdit', edit);
  return { user: res.data, msg: res.msg };
}

export async function deleteUser(username: string): Promise<string> {
  return (await post<unknown>('/userManagement/doDelete', { username })).msg;
}

export async function resetPassword(username: string, password: string): Promise<string> {
  return (await post<unknown>('/userManagement/resetPassword', { username, password })).msg;
}

// ---- roles
export interface Role {
  id: string;
  role: string;
  permissions: string[];
  btnRolesCheckedList?: string[];
  description: string;
  userCount: number;
  version: number;
}

export interface RoleEdit {
  role: string;
  oldRole?: string;
  permissions: string[];
  description: string;
  version?: number;
}

export interface RolePage extends Page<Role> {
  permissionOptions: string[];
}

export async function getRoles(q: { role?: string; pageNo: number; pageSize: number }): Promise<RolePage> {
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
export interface Department {
  id: string;
  /** '' for the top level. */
  parentId: string;
  parentName?: string;
  name: string;
  order: number;
  createTime?: string;
  userCount?: number;
  version?: number;
  children?: Department[];
}

export interface DepartmentEdit {
  id?: string;
  parentId: string;
  name: string;
  order: number;
  version?: number;
}

export async function getDepartments(): Promise<Page<Department>> {
  const { data } = await get<Page<Department> | Department[]>('/departmentManagement/getList');
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
export interface MenuNode extends RawRoute {
  id?: string;
  name: string;
  path: string;
  meta?: Partial<RouteMeta>;
  children?: MenuNode[];
}

export interface MenuTree {
  list: MenuNode[];
  total: number;
  version: number;
  components: string[];
}

export interface MenuEdit {
  originalName?: string;
  parentName: string;
  node: { path: string; name: string; component: string; redirect?: string; meta: Partial<RouteMeta> };
  version: number;
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
export interface LogEntry {
  id: string;
  /** Who signed in (or a successful sign-in's account); "anonymous" otherwise. */
  account: string;
  /** The name an anonymous call typed (unverified). */
  claimedAccount?: string;
  type: string;
  path: string;
  target: string;
  executeResult: string;
  code: number;
  ip: string;
  /** RFC 3339 */
  datetime: string;
  time: number;
}

export interface LogPage extends Page<LogEntry> {
  cursor: string | null;
  /** Calls refused for want of a sign-in in the last 24 hours (counted, not listed). */
  refusedAnonymous24h: number;
}

export async function getSystemLog(q: { account?: string; pageNo: number; pageSize: number; cursor?: string }): Promise<LogPage> {
  const { data } = await get<Partial<LogPage>>('/systemLog/getList', { account: q.account, pageNo: q.pageNo, pageSize: q.pageSize, cursor: q.cursor });
  return { ...page(data), cursor: data?.cursor ?? null, refusedAnonymous24h: data?.refusedAnonymous24h ?? 0 };
}

// ---- own profile
export async function updateProfile(profile: { email: string; avatar: string }): Promise<{ email: string; avatar: string; msg: string }> {
  const res = await post<{ email: string; avatar: string }>('/user/updateProfile', profile);
  return { email: res.data?.email ?? profile.email, avatar: res.data?.avatar ?? profile.avatar, msg: res.msg };
}

export async function changeOwnPassword(oldPassword: string, newPassword: string): Promise<string> {
  return (await post<unknown>('/user/changePassword', { oldPassword, newPassword })).msg;
}

// ---- operations settings (/setting/workflow)
export interface OperationSettings {
  /** Missed heartbeat intervals after which a pile is offline (2-10). */
  offlineAfterIntervals: number;
  /** Hours after which a still-charging order is stuck (1-24). */
  stuckAfterHours: number;
  /** Minutes without a request after which a sign-in ends (5-720). */
  idleTimeoutMinutes: number;
  /** 0 until the first save. */
  version: number;
  updatedBy?: string | null;
  /** Unix seconds. */
  updatedAt?: number | null;
  /** The ranges the server accepts (and the defaults). */
  limits: Record<'offlineAfterIntervals' | 'stuckAfterHours' | 'idleTimeoutMinutes', SettingBound>;
}

export interface SettingBound {
  min: number;
  default: number;
  max: number;
}

export type OperationSettingsEdit = Pick<OperationSettings, 'offlineAfterIntervals' | 'stuckAfterHours' | 'idleTimeoutMinutes' | 'version'>;

export async function getOperationSettings(): Promise<OperationSettings> {
  const { data } = await get<OperationSettings>('/operationSettings/get');
  return data as OperationSettings;
}

export async function saveOperationSettings(edit: OperationSettingsEdit): Promise<{ settings: OperationSettings; msg: string }> {
  const res = await post<OperationSettings>('/operationSettings/doEdit', edit);
  return { settings: res.data as OperationSettings, msg: res.msg };
}
