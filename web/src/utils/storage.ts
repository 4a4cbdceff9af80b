import { REFRESH_TOKEN_STORAGE_KEY, TOKEN_STORAGE, TOKEN_STORAGE_KEY } from '@/config';

/** Local storage that never throws (private mode, quota, disabled storage). */
export function readStorage(key: string, storage: Storage = localStorage): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string, storage: Storage = localStorage): void {
  try {
    storage.setItem(key, value);
  } catch {
    /* storage full or disabled: the setting just does not persist */
  }
}

export function removeStorage(key: string, storage: Storage = localStorage): void {
  try {
    storage.removeItem(key);
  } catch {
    /* ignore */
  }
}

export function readJson<T>(key: string): T | null {
  const raw = readStorage(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

const tokenStorage = (): Storage => (TOKEN_STORAGE === 'sessionStorage' ? sessionStorage : localStorage);

export const getToken = (): string => readStorage(TOKEN_STORAGE_KEY, tokenStorage()) ?? '';
export const setToken = (token: string): void => writeStorage(TOKEN_STORAGE_KEY, token, tokenStorage());
export const removeToken = (): void => removeStorage(TOKEN_STORAGE_KEY, tokenStorage());
export const getRefreshToken = (): string => readStorage(REFRESH_TOKEN_STORAGE_KEY, tokenStorage()) ?? '';
export const setRefreshToken = (token: string): void => writeStorage(REFRESH_TOKEN_STORAGE_KEY, token, tokenStorage());
export const removeRefreshToken = (): void => removeStorage(REFRESH_TOKEN_STORAGE_KEY, tokenStorage());
