import { get } from './request';

export interface SearchSuggestion {
  value: string;
  url?: string;
}

export async function searchList(keyword: string): Promise<SearchSuggestion[]> {
  const { data } = await get<{ list: SearchSuggestion[] }>('/search/getList', { keyword });
  return data?.list ?? [];
}
