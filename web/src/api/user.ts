import { REFRESH_TOKEN_FIELD, TOKEN_FIELD } from '@/config';
import i18n from '@/i18n';
import type { SignedIn } from '@/store/user';
import { notify } from '@/utils/notify';
import { get, post } from './request';
import { sealed } from './seal';

export interface LoginForm {
  username: string;
  password: string;
}

export interface UserInfo {
  username?: string;
  avatar?: string;
  roles?: string[];
  permissions?: string[];
  userType?: number | string;
  /** The account's e-mail (shown and edited in the personal center). */
  email?: string;
  /** When the account was created ("member since"). */
  datatime?: string;
}

/** Point 5: the answer must hold the token under the configured field. */
export function tokensOf(data: unknown, errorKey: string): SignedIn {
  const fields = data as Record<string, unknown> | null;
  const token = fields?.[TOKEN_FIELD];
  if (typeof token !== 'string' || !token) {
    const message = i18n.t(errorKey);
    notify(message, 'error');
    throw new Error(message);
  }
  const refreshToken = fields?.[REFRESH_TOKEN_FIELD];
  return { token, refreshToken: typeof refreshToken === 'string' ? refreshToken : '' };
}

export async function login(form: LoginForm): Promise<SignedIn> {
  const { data } = await post<Record<string, unknown>>('/login/index', await sealed(form));
  return tokensOf(data, 'login.noToken');
}

export async function register(payload: { username: string; password: string; email: string }): Promise<SignedIn> {
  const { data } = await post<Record<string, unknown>>('/register', await sealed(payload));
  return tokensOf(data, 'login.noToken');
}

/** Point 5: username/avatar strings, roles/permissions arrays when present. */
export function validUserInfo(info: unknown): info is UserInfo {
  if (!info || typeof info !== 'object') return false;
  const u = info as Record<string, unknown>;
  const stringOrAbsent = (v: unknown) => v === undefined || typeof v === 'string';
  const arrayOrAbsent = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((x) => typeof x === 'string'));
  return stringOrAbsent(u.username) && stringOrAbsent(u.avatar) && arrayOrAbsent(u.roles) && arrayOrAbsent(u.permissions);
}

export async function getUserInfo(): Promise<UserInfo> {
  const { data } = await get<unknown>('/index/userInfo');
  if (!validUserInfo(data)) {
    const message = i18n.t('login.userInfoError');
    notify(message, 'error');
    throw new Error(message);
  }
  return data;
}

export const logout = () => get<null>('/login/logout');
export const changePassword = (payload: { oldPassword: string; newPassword: string }) => post<null>('/user/changePassword', payload);
