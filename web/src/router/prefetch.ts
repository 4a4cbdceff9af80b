import { prefetchViewData, preloadView } from '@/pages/registry';
import { shell } from './shell';

/**
 * What the first screen of a signed-in visit needs, started as soon as the
 * URL is known instead of after the user info, the menu and the shell have
 * loaded one after another: the page's code (when the path names a view,
 * as the business pages' paths do) and, for the pages that have one, the
 * first data call, keyed exactly as the page will ask for it (SWR hands the
 * page the answer already in flight). A wrong guess costs one request; the
 * page then loads as usual.
 */
/** Pages shown without the shell. */
const PUBLIC_PATHS = new Set(['/login', '/callback', '/403', '/404']);

let firstScreen: Promise<unknown> | null = null;

/** Starts the shell's code, and the page code and first data of `pathname` (a hash route's path). */
export function prefetchRoute(pathname: string): void {
  if (PUBLIC_PATHS.has(pathname)) return;
  const key = pathname.replace(/^\/+/, '');
  firstScreen = Promise.allSettled([shell.preload(), preloadView(key)]);
  prefetchViewData(key);
}

/**
 * The code of the first screen started by [`prefetchRoute`], once (later
 * navigations do not wait for it). The session load waits for it before it
 * lets the shell render, so the shell and the page appear in one go: a page
 * that suspends right after the shell appeared would show its spinner, and
 * React then holds the page back for its 300 ms reveal throttle.
 */
export function takeFirstScreen(): Promise<unknown> {
  const pending = firstScreen ?? Promise.resolve();
  firstScreen = null;
  return pending;
}

/** The path of a hash-router URL (`#/order/orderindex?x=1` -> `/order/orderindex`). */
export function hashPath(hash: string): string {
  return hash.replace(/^#/, '').split('?')[0] || '/';
}
