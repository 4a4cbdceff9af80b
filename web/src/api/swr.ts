import type { Cache, State } from 'swr';

/** SWR keys for server data; the fetcher is the key's own function. */
export const SWR_KEYS = {
  notices: 'notice/getList',
  search: (keyword: string) => ['search/getList', keyword] as const,
} as const;

/**
 * The SWR cache of the app (given to <SWRConfig provider>). It holds answers
 * fetched for the signed-in user, so a session reset empties it: the next
 * user must not see the previous one's notices or search results.
 */
export const swrCache = new Map<string, State>() satisfies Cache;
