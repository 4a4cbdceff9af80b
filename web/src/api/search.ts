import useSWR from 'swr';
import { get } from './request';
import { SWR_KEYS } from './swr';
import type { Answer } from './types';

type SearchAnswer = Answer<'/partnerapi/search/getList', 'get'>;
/** A page (its stored title), a record as the server words it, or a web search. */
export type SearchSuggestion = SearchAnswer['list'][number];

export async function searchList(keyword: string): Promise<SearchSuggestion[]> {
  const { data } = await get<SearchAnswer>('/search/getList', { keyword });
  return data?.list ?? [];
}

/** The header search's suggestions for a keyword (empty keyword or `enabled` false: not asked). */
export function useSearch(keyword: string, enabled = true) {
  return useSWR(enabled && keyword ? SWR_KEYS.search(keyword) : null, ([, k]) => searchList(k));
}
