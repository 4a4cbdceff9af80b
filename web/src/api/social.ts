import type { SignedIn } from '@/store/user';
import useSWR from 'swr';
import { get, post } from './request';
import type { Answer, Schema } from './types';
import { tokensOf } from './user';

/**
 * Social login (OAuth 2.0 authorization code with PKCE). The server keeps
 * the PKCE verifier and the client secret; the browser keeps only the
 * `binding` of the flow it started (see utils/socialFlow), which must come
 * back with the code.
 */
export type SocialProvider = Answer<'/partnerapi/socialLogin/providers', 'get'>['providers'][number];

export type Authorization = Answer<'/partnerapi/socialLogin/authorize', 'post'>;

export type SocialReturn = Schema<'Callback'>;

export type SocialLink = Answer<'/partnerapi/user/socialLink', 'post'>;

export async function socialProviders(): Promise<SocialProvider[]> {
  const { data } = await get<Answer<'/partnerapi/socialLogin/providers', 'get'>>('/socialLogin/providers');
  return data?.providers ?? [];
}

/** The providers the server offers for signing in (loaded once; a failure is not retried). */
export function useSocialProviders() {
  return useSWR('socialLogin/providers', socialProviders, { shouldRetryOnError: false, revalidateOnFocus: false });
}

export async function startSocialLogin(): Promise<Authorization> {
  return (await post<Authorization>('/socialLogin/authorize', {})).data;
}

export async function socialLogin(payload: SocialReturn): Promise<SignedIn> {
  const { data } = await post<Answer<'/partnerapi/socialLogin', 'post'>>('/socialLogin', payload);
  return tokensOf(data, 'login.socialNoToken');
}

type SocialLinks = Answer<'/partnerapi/user/socialLinks', 'get'>;
export async function socialLinks(): Promise<SocialLinks> {
  return (await get<SocialLinks>('/user/socialLinks')).data;
}

/** The signed-in user's linked identities (`me`: their name, part of the key; a failure is not retried). */
export function useSocialLinks(me: string) {
  return useSWR(['user/socialLinks', me], socialLinks, { shouldRetryOnError: false });
}

export async function startSocialLink(): Promise<Authorization> {
  return (await post<Answer<'/partnerapi/user/socialLink/authorize', 'post'>>('/user/socialLink/authorize', {})).data;
}

export async function linkSocial(payload: SocialReturn): Promise<{ msg: string }> {
  const { msg } = await post<SocialLink>('/user/socialLink', payload);
  return { msg };
}

export const unlinkSocial = (provider: string) => post<Answer<'/partnerapi/user/socialUnlink', 'post'>>('/user/socialUnlink', { provider });
