import { MESSAGE_DURATION_MS } from '@/config';
import { createStore } from '@/store/createStore';

/**
 * Toasts raised outside React (request layer, guard) go through this queue;
 * <Notifier> in the shell shows them with Fluent's Toaster.
 */
export type NotifyIntent = 'success' | 'error' | 'warning' | 'info';

export interface Notice {
  id: number;
  message: string;
  intent: NotifyIntent;
  timeout: number;
}

let nextId = 1;
export const noticeQueue = createStore<{ items: Notice[] }>({ items: [] });

export function notify(message: string, intent: NotifyIntent = 'info', timeout: number = MESSAGE_DURATION_MS): void {
  noticeQueue.set((s) => ({ items: [...s.items, { id: nextId++, message, intent, timeout }] }));
}

/**
 * Bumped to take down the error toasts still showing: a form that saved
 * clears the errors of its earlier attempts, so no stale red toast stays
 * beside the green "saved".
 */
export const errorClears = createStore<{ n: number }>({ n: 0 });
export function clearErrorToasts(): void {
  noticeQueue.set((s) => ({ items: s.items.filter((n) => n.intent !== 'error') }));
  errorClears.set((s) => ({ n: s.n + 1 }));
}

export const takeNotices = (): Notice[] => {
  const items = noticeQueue.get().items;
  if (items.length) noticeQueue.set({ items: [] });
  return items;
};

/** Blocking loading mask for debounce-loading requests (doEdit/doAdd). */
export const loadingStore = createStore<{ count: number }>({ count: 0 });
export const beginLoading = (): void => loadingStore.set((s) => ({ count: s.count + 1 }));
export const endLoading = (): void => loadingStore.set((s) => ({ count: Math.max(0, s.count - 1) }));
