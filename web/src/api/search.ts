import { get } from './request';
import type { Answer } from './types';

type SearchAnswer = Answer<'/partnerapi/search/getList', 'get'>;
/** A page (its stored title), a record as the server words it, or a web search. */
export type SearchSuggestion = SearchAnswer['list'][number];

export async function searchList(keyword: string): Promise<SearchSuggestion[]> {
  const { data } = await get<SearchAnswer>('/search/getList', { keyword });
  return data?.list ?? [];
}
