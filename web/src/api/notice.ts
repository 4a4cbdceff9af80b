import { get } from './request';

export interface NoticeItem {
  type: 'notice' | 'email';
  email?: string;
  image: string;
  /** Sanitised HTML from the server. */
  notice: string;
  /** Unix seconds it was published. */
  createdAt?: number;
}

export async function getNoticeList(): Promise<{ list: NoticeItem[]; total: number }> {
  const { data } = await get<{ list: NoticeItem[]; total: number }>('/notice/getList');
  return { list: data?.list ?? [], total: data?.total ?? 0 };
}
