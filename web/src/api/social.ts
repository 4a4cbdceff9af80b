import type { SignedIn } from '@/store/user';
import { get, post } from './request';
import { tokensOf } from './user';

/**
 * Social login (OAuth 2.0 authorization code with PKCE). The server keeps
 * the PKCE verifier and the client secret; the browser keeps only the
 * `binding` of the flow it started (see utils/socialFlow), which must come
 * back with the code.
 */
export interface SocialProvider {
  name: string;
}

export interface Authorization {
  url: string;
  state: string;
  binding: string;
  provider: string;
}

export interface SocialReturn {
  code: string;
  state: string;
  binding: string;
}

export interface SocialLink {
  provider: string;
  /** Unix seconds. */
  linkedAt: number;
}

export async function socialProviders(): Promise<SocialProvider[]> {
  const { data } = await get<{ providers: SocialProvider[] }>('/socialLogin/providers');
  return data?.providers ?? [];
}

export async function startSocialLogin(): Promise<Authorization> {
  return (await post<Authorization>('/socialLogin/authorize', {})).data;
}

export async function socialLogin(payload: SocialReturn): Promise<SignedIn> {
  const { data } = await post<Record<string, unknown>>('/socialLogin', payload);
  return tokensOf(data, 'login.socialNoToken');
}

export async function socialLinks(): Promise<{ providers: SocialProvider[]; links: SocialLink[] }> {
  return (await get<{ providers: SocialProvider[]; links: SocialLink[] }>('/user/socialLinks')).data;
}

export async function startSocialLink(): Promise<Authorization> {
  return (await post<Authorization>('/user/socialLink/authorize', {})).data;
}

export async function linkSocial(payload: SocialReturn): Promise<{ msg: string }> {
  const { msg } = await post<SocialLink>('/user/socialLink', payload);
  return { msg };
}

export const unlinkSocial = (provider: string) => post<null>('/user/socialUnlink', { provider });
