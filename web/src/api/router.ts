import { get } from './request';
import type { Answer } from './types';

type RouteTree = Answer<'/partnerapi/router/getList', 'get'>;
/** A page the caller's roles may not open, with what it needs (the 403 page says it). */
export type ForbiddenPage = RouteTree['forbidden'][number];

/** The role-filtered menu/route tree (`list` is checked by buildRoutes) and the pages it leaves out as forbidden. */
export async function getRouterList(): Promise<{ list: unknown; forbidden: ForbiddenPage[] }> {
  const { data } = await get<RouteTree | null>('/router/getList');
  return { list: data?.list, forbidden: Array.isArray(data?.forbidden) ? data.forbidden : [] };
}
