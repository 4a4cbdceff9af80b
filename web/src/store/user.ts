import { DEFAULT_AVATAR, DEFAULT_USERNAME } from '@/config';
import { getToken, removeToken, setToken } from '@/utils/storage';
import { createStore } from './createStore';

/** Session and access-control state (spec point 3: user session, access-control state). */
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

export function saveToken(token: string): void {
  setToken(token);
  userStore.set({ token });
}

/** Clears the session (token in memory and storage, identity, access control). */
export function clearSession(): void {
  removeToken();
  userStore.set({ token: '', ...loggedOut() });
}
