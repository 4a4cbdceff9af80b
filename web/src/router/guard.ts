import { LOGIN_INTERCEPTOR, RECORD_ROUTE, ROUTES_WHITE_LIST } from '@/config';

export type GuardDecision = { kind: 'allow' } | { kind: 'redirect'; to: string } | { kind: 'load' };

export interface GuardInput {
  pathname: string;
  /** pathname + search, used as the redirect target after login. */
  fullPath: string;
  hasToken: boolean;
  routesLoaded: boolean;
  loginInterceptor?: boolean;
}

/** '/login', with the wanted path as `redirect` when recorded and not '/'. */
export function loginPath(wanted: string): string {
  if (!RECORD_ROUTE || !wanted || wanted === '/' || wanted.startsWith('/login')) return '/login';
  return `/login?redirect=${encodeURIComponent(wanted)}`;
}

/**
 * The navigation guard as a pure decision:
 * - token: /login goes to '/' (or its redirect query), routes not loaded -> load (then retry), else allow;
 * - no token: whitelist allowed, anything else to login carrying the path.
 * Without login interception the session is virtual and only needs loading.
 */
export function decideNavigation(input: GuardInput): GuardDecision {
  const interceptor = input.loginInterceptor ?? LOGIN_INTERCEPTOR;
  const hasToken = input.hasToken || !interceptor;
  if (hasToken) {
    // Signed in: /login leaves for the recorded redirect (so the login page only stores the token).
    if (input.pathname === '/login') return { kind: 'redirect', to: safeRedirect(redirectOf(input.fullPath)) };
    if (ROUTES_WHITE_LIST.includes(input.pathname)) return { kind: 'allow' };
    if (!input.routesLoaded) return { kind: 'load' };
    return { kind: 'allow' };
  }
  if (ROUTES_WHITE_LIST.includes(input.pathname)) return { kind: 'allow' };
  return { kind: 'redirect', to: loginPath(input.fullPath) };
}

const redirectOf = (fullPath: string): string | null => new URLSearchParams(fullPath.split('?')[1] ?? '').get('redirect');

/** The redirect query is honoured only when it is a safe in-app path. */
export function safeRedirect(redirect: string | null | undefined): string {
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//')) return '/';
  return redirect;
}
