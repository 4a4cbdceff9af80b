import { get, post } from './request';

export interface NoticeItem {
  /** The notice's id (send it back to edit, withdraw or mark it read). */
  id: string;
  type: 'notice' | 'email';
  email?: string;
  image: string;
  /** Sanitised HTML from the server. */
  notice: string;
  /** Unix seconds. */
  createdAt: number;
  updatedAt?: number | null;
  author?: string;
  /** The version an edit is made over. */
  version: number;
  /** Whether the signed-in user has read it (header list). */
  read: boolean;
}

export interface NoticeList {
  list: NoticeItem[];
  total: number;
  unread: number;
}

/** The signed-in user's notices: without those they cleared, each read or not. */
export async function getNoticeList(): Promise<NoticeList> {
  const { data } = await get<Partial<NoticeList>>('/notice/getList');
  const list = data?.list ?? [];
  return { list, total: data?.total ?? list.length, unread: data?.unread ?? list.filter((n) => !n.read).length };
}

/** Every published notice (publishers: write:system), newest first. */
export async function getPublishedNotices(cursor?: string): Promise<{ list: NoticeItem[]; cursor: string | null }> {
  const { data } = await get<{ list: NoticeItem[]; cursor: string | null }>('/notice/manageList', { cursor });
  return { list: data?.list ?? [], cursor: data?.cursor ?? null };
}

export interface NoticeDraft {
  type: 'notice' | 'email';
  /** HTML; the server keeps formatting, links and images of this site. */
  notice: string;
  /** The sender shown above the text. */
  email: string;
}

/** Publishes a new notice, or (with `id` and `version`) changes one. */
export async function saveNotice(draft: NoticeDraft, existing?: { id: string; version: number }): Promise<{ notice: NoticeItem; msg: string }> {
  const res = await post<NoticeItem>('/notice/doEdit', { ...draft, ...(existing ?? {}) });
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
