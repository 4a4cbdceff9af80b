import { get } from './request';

export interface NoticeItem {
  type: 'notice' | 'email';
  email?: string;
  image: string;
  /** Sanitised HTML from the server. */
  notice: string;
}

export async function getNoticeList(): Promise<{ list: NoticeItem[]; total: number }> {
  const { data } = await get<{ list: NoticeItem[]; total: number }>('/notice/getList');
  return { list: data?.list ?? [], total: data?.total ?? 0 };
}
