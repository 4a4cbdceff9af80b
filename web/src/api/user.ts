import { REFRESH_TOKEN_FIELD, TOKEN_FIELD } from '@/config';
import i18n from '@/i18n';
import type { SignedIn } from '@/store/user';
import { notify } from '@/utils/notify';
import { setOperatorTimeZone } from '@/components/data/format';
import useSWR from 'swr';
import { get, post } from './request';
import type { Answer, Schema } from './types';
import { sealed } from './seal';

export type LoginForm = Schema<'Credentials'>;

/** GET /index/userInfo's answer; each field is checked as it arrives (validUserInfo), so each may be missing. */
export type UserInfo = Partial<Answer<'/partnerapi/index/userInfo', 'get'>>;

/** The answer must hold the token under the configured field. */
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
  const { data } = await post<Answer<'/partnerapi/login/index', 'post'>>('/login/index', await sealed(form));
  return tokensOf(data, 'login.noToken');
}

export async function register(payload: Schema<'Registration'>): Promise<SignedIn> {
  const { data } = await post<Answer<'/partnerapi/register', 'post'>>('/register', await sealed(payload));
  return tokensOf(data, 'login.noToken');
}

/** Valid user info: username/avatar strings, roles/permissions arrays when present. */
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
  // Every date and time of the pages is in the operator's zone.
  if (typeof data.timeZone === 'string') setOperatorTimeZone(data.timeZone);
  return data;
}

/** The signed-in user's own record (`me`: their name, part of the key; a failure is not retried). Every role may read it. */
export function useOwnAccount(me: string) {
  return useSWR(['setting/me', me], getUserInfo, { shouldRetryOnError: false });
}

export const logout = () => get<Answer<'/partnerapi/login/logout', 'get'>>('/login/logout');
export const changePassword = (payload: Schema<'PasswordChange'>) => post<Answer<'/partnerapi/user/changePassword', 'post'>>('/user/changePassword', payload);
