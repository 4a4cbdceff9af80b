import { get } from './request';
import type { Answer } from './types';

/** The role-filtered menu/route tree. `list` is checked by buildRoutes. */
export async function getRouterList(): Promise<unknown> {
  const { data } = await get<Answer<'/partnerapi/router/getList', 'get'> | null>('/router/getList');
  return data?.list;
}
