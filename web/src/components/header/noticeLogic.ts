import type { NoticeDraft, NoticeItem } from '@/api/notice';

/** The ids of the notices not read yet (what opening the popover marks read). */
export const unreadIds = (list: NoticeItem[]): string[] => list.filter((n) => !n.read).map((n) => n.id);

/** The most characters of a notice's HTML (the server's limit). */
export const NOTICE_MAX = 4000;

/** What is wrong with a draft before it is sent (i18n keys), or nothing. */
export function validateNoticeDraft(d: NoticeDraft): { notice?: string; email?: string } {
  const errors: { notice?: string; email?: string } = {};
  // Text without any markup left: the server would find it empty too.
  const text = d.notice.replace(/<[^>]*>/g, '').trim();
  if (!text) errors.notice = 'notice.form.required';
  else if (d.notice.length > NOTICE_MAX) errors.notice = 'notice.form.tooLong';
  if ([...d.email.trim()].length > 200) errors.email = 'notice.form.senderTooLong';
  return errors;
}
