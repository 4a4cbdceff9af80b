import { getRouterList } from '@/api/router';
import { getUserInfo } from '@/api/user';
import { DEFAULT_AVATAR, DEFAULT_USERNAME, LOGIN_INTERCEPTOR, VIRTUAL_USERNAME } from '@/config';
import { setRoutes } from '@/store/routes';
import { userStore } from '@/store/user';
import { aclFromUserInfo } from '@/utils/permission';
import { notify } from '@/utils/notify';
import { buildRoutes, RouteFormatError } from './buildRoutes';
import { takeFirstScreen } from './prefetch';
import type { Acl } from './types';

let inflight: Promise<void> | null = null;

/**
 * Fetches user info and the route list once, builds the routes.
 * The two calls run in parallel (the route list is filtered by the server
 * for the token's roles; it does not wait for the user info), so the first
 * screen waits for one round trip, not two. Concurrent callers share one
 * load. Rejects on any failure; the guard then resets the session and goes
 * to login.
 */
export function loadSession(): Promise<void> {
  inflight ??= (async () => {
    const routeList = getRouterList();
    // If the user info fails first, the route list's own failure is not news.
    routeList.catch(() => undefined);
    let acl: Acl;
    if (LOGIN_INTERCEPTOR) {
      const info = await getUserInfo();
      acl = aclFromUserInfo(info.roles, info.permissions);
      userStore.set({
        username: info.username || DEFAULT_USERNAME,
        avatar: info.avatar || DEFAULT_AVATAR,
        userType: info.userType ?? 0,
        ...acl,
      });
    } else {
      // Login interception off: a virtual session with full access.
      acl = { admin: true, role: ['Admin'], permission: [] };
      userStore.set({ username: VIRTUAL_USERNAME, ...acl });
    }
    const { list, forbidden } = await routeList;
    // The first screen's code, when it was started from the URL: the shell
    // and the page then render together (see prefetch.ts).
    await takeFirstScreen();
    try {
      setRoutes(buildRoutes(list, acl), forbidden);
    } catch (err) {
      if (err instanceof RouteFormatError) notify(err.message, 'error');
      throw err;
    }
  })().finally(() => {
    inflight = null;
  });
  return inflight;
}
