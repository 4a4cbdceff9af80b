import { clearSession } from './user';
import { resetRoutes } from './routes';
import { clearTabs } from './tabs';
import { loginPath } from '@/router/guard';
import { swrCache } from '@/api/swr';

/** Everything logout and a 401 reset: session, routes, tabs and cached answers. */
export function resetAll(): void {
  clearSession();
  resetRoutes();
  clearTabs();
  swrCache.clear();
}

/** Current in-app path of the hash router ('/vab/card?x=1'). */
export const currentHashPath = (): string => window.location.hash.replace(/^#/, '') || '/';

/** Navigation from outside React: the hash router follows the hash. */
export function goTo(path: string): void {
  window.location.hash = `#${path}`;
}

export function resetAndGoToLogin(): void {
  const wanted = currentHashPath();
  resetAll();
  goTo(loginPath(wanted));
}
