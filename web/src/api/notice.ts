import useSWR from 'swr';
import { get, post } from './request';
import { SWR_KEYS } from './swr';
import type { Answer, Body } from './types';

export type NoticeList = Answer<'/partnerapi/notice/getList', 'get'>;
export type NoticeItem = NoticeList['list'][number];

/** The signed-in user's notices: without those they cleared, each read or not. */
export async function getNoticeList(): Promise<NoticeList> {
  const { data } = await get<Partial<NoticeList>>('/notice/getList');
  const list = data?.list ?? [];
  return { list, total: data?.total ?? list.length, unread: data?.unread ?? list.filter((n) => !n.read).length };
}

/**
 * The signed-in user's notices (the header's bell and the demo notice page
 * share the key); not reloaded when the window regains focus.
 */
export function useNotices() {
  return useSWR(SWR_KEYS.notices, getNoticeList, { revalidateOnFocus: false });
}

/** Every published notice (publishers: write:system), newest first. */
type PublishedNotices = Answer<'/partnerapi/notice/manageList', 'get'>;
export async function getPublishedNotices(cursor?: string): Promise<PublishedNotices> {
  const { data } = await get<PublishedNotices>('/notice/manageList', { cursor });
  return { list: data?.list ?? [], cursor: data?.cursor ?? null };
}

/** The first page of published notices, asked while the publishers' dialog is open. */
export function usePublishedNotices(open: boolean) {
  return useSWR(open ? 'notice/manageList' : null, () => getPublishedNotices());
}

/** A notice being written: its kind, its HTML (the server keeps formatting, links and images of this site) and the sender shown above it. */
export type NoticeDraft = Required<Pick<Body<'/partnerapi/notice/doEdit'>, 'type' | 'notice' | 'email'>>;

/** Publishes a new notice, or (with `id` and `version`) changes one. */
export async function saveNotice(draft: NoticeDraft, existing?: { id: string; version: number }): Promise<{ notice: NoticeItem; msg: string }> {
  const res = await post<Answer<'/partnerapi/notice/doEdit', 'post'>>('/notice/doEdit', { ...draft, ...(existing ?? {}) });
  return { notice: res.data, msg: res.msg };
}

/** Withdraws a notice from every list. */
export async function withdrawNotice(id: string): Promise<string> {
  return (await post('/notice/withdraw', { id })).msg;
}

/** Marks notices read for the signed-in user (remembered on the server). */
export async function markNoticesRead(ids: string[]): Promise<void> {
  if (ids.length) await post('/notice/read', { ids });
}

/** Clears the signed-in user's list (theirs only; later notices appear as usual). */
export async function clearNotices(): Promise<string> {
  return (await post('/notice/clearAll', {})).msg;
}
