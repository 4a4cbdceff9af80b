/** SWR keys for server data; the fetcher is the key's own function. */
export const SWR_KEYS = {
  notices: 'notice/getList',
  search: (keyword: string) => ['search/getList', keyword] as const,
} as const;
