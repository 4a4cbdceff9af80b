import { DEFAULT_AVATAR, DEFAULT_USERNAME } from '@/config';
import { getToken, removeRefreshToken, removeToken, setRefreshToken, setToken } from '@/utils/storage';
import { createStore } from './createStore';

/** Session and access-control state: token, user, and the admin flag, roles and permissions. */
export interface UserState {
  token: string;
  username: string;
  avatar: string;
  userType: number | string;
  admin: boolean;
  role: string[];
  permission: string[];
}

const loggedOut = (): Omit<UserState, 'token'> => ({
  username: DEFAULT_USERNAME,
  avatar: DEFAULT_AVATAR,
  userType: 0,
  admin: false,
  role: [],
  permission: [],
});

export const userStore = createStore<UserState>({ token: getToken(), ...loggedOut() });

/** What a sign-in or a refresh answers. */
export interface SignedIn {
  token: string;
  /** Empty when the server issues none (then a 402 ends the session). */
  refreshToken: string;
}

export function saveToken({ token, refreshToken }: SignedIn): void {
  setToken(token);
  if (refreshToken) setRefreshToken(refreshToken);
  else removeRefreshToken();
  userStore.set({ token });
}

/** Clears the session (token in memory and storage, identity, access control). */
export function clearSession(): void {
  removeToken();
  removeRefreshToken();
  userStore.set({ token: '', ...loggedOut() });
}
