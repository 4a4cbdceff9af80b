import { createStore } from './createStore';

export interface ErrorLogEntry {
  url: string;
  message: string;
  stack: string;
  time: number;
}

export const errorLogStore = createStore<{ logs: ErrorLogEntry[] }>({ logs: [] });

export function addErrorLog(error: unknown, url: string = location.href): void {
  const err = error instanceof Error ? error : new Error(String(error));
  const entry: ErrorLogEntry = { url, message: err.message, stack: err.stack ?? '', time: Date.now() };
  errorLogStore.set((s) => ({ logs: [...s.logs, entry] }));
}

export const clearErrorLog = (): void => errorLogStore.set({ logs: [] });
