import { get } from './request';

export interface SearchSuggestion {
  /** A page's stored title (translated for display), or the record as the server words it. */
  value: string;
  /** The hash route or external link; absent for a web search. */
  url?: string;
  kind?: 'page' | 'order' | 'station' | 'pile' | 'card' | 'web';
}

export async function searchList(keyword: string): Promise<SearchSuggestion[]> {
  const { data } = await get<{ list: SearchSuggestion[] }>('/search/getList', { keyword });
  return data?.list ?? [];
}
