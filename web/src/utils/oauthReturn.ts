/**
 * Social login returns from the provider to the registered redirect URI with
 * `?code=…&state=…` in the *query* of the page URL (OAuth 2.0 forbids a
 * fragment in a redirect URI, so it cannot be `/#/callback` itself). The SPA
 * uses a hash router, so before it starts, such a return is moved to the
 * `#/callback` route: the redirect URI to register is the site root.
 * Returns the new URL, or null when nothing had to move.
 */
export function oauthReturnUrl(href: string): string | null {
  const url = new URL(href);
  const params = url.searchParams;
  if (!params.has('state') || !(params.has('code') || params.has('error'))) return null;
  const moved = new URLSearchParams();
  for (const key of ['code', 'state', 'error', 'error_description']) {
    const value = params.get(key);
    if (value !== null) {
      moved.set(key, value);
      params.delete(key);
    }
  }
  url.hash = `#/callback?${moved.toString()}`;
  return url.toString();
}

/** Applies {@link oauthReturnUrl} to the current page without a reload. */
export function adoptOAuthReturn(): void {
  const next = oauthReturnUrl(window.location.href);
  if (next) window.history.replaceState(null, '', next);
}
