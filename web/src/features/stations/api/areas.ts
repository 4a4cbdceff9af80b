import useSWR from 'swr';
import { get } from '@/api/request';
import type { Answer } from '@/api/types';

type AreaList = Answer<'/partnerapi/area/getList', 'get'>;
type Province = AreaList['list'][number];
type City = Province['children'][number];
/** A province, city or district (only the first two have children). */
export type AreaNode = Province | City | City['children'][number];

/** China's provinces with their cities and districts (the region picker's choices). */
export async function getAreaList(): Promise<Province[]> {
  const { data } = await get<AreaList | Province[]>('/area/getList');
  if (Array.isArray(data)) return data;
  return data?.list ?? [];
}

/** The region tree, loaded once (not again when the window regains focus). */
export function useAreaList() {
  return useSWR('area/getList', getAreaList, { revalidateOnFocus: false });
}
