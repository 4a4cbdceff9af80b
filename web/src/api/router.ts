import type { RawRoute } from '@/router/types';
import { get } from './request';

/** The role-filtered menu/route tree. `list` is checked by buildRoutes. */
export async function getRouterList(): Promise<unknown> {
  const { data } = await get<{ list: RawRoute[] } | null>('/router/getList');
  return data?.list;
}
