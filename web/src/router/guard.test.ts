import { describe, expect, it } from 'vitest';
import { decideNavigation, loginPath, safeRedirect } from './guard';

const base = { hasToken: false, routesLoaded: false };

describe('navigation guard', () => {
  it('with a token, /login goes to /', () => {
    expect(decideNavigation({ ...base, hasToken: true, pathname: '/login', fullPath: '/login' })).toEqual({ kind: 'redirect', to: '/' });
    expect(decideNavigation({ ...base, hasToken: true, pathname: '/login', fullPath: '/login?redirect=%2Fvab%2Fcard' })).toEqual({
      kind: 'redirect',
      to: '/vab/card',
    });
  });

  it('with a token and no routes yet, loads first', () => {
    expect(decideNavigation({ ...base, hasToken: true, pathname: '/vab/card', fullPath: '/vab/card' })).toEqual({ kind: 'load' });
  });

  it('with a token and routes, allows', () => {
    expect(decideNavigation({ hasToken: true, routesLoaded: true, pathname: '/vab/card', fullPath: '/vab/card' })).toEqual({ kind: 'allow' });
  });

  it('without a token only the whitelist is reachable', () => {
    for (const p of ['/login', '/callback', '/404', '/403']) expect(decideNavigation({ ...base, pathname: p, fullPath: p })).toEqual({ kind: 'allow' });
    expect(decideNavigation({ ...base, pathname: '/order/detail', fullPath: '/order/detail?id=7' })).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Forder%2Fdetail%3Fid%3D7',
    });
  });

  it('does not record / as the redirect target', () => {
    expect(loginPath('/')).toBe('/login');
    expect(decideNavigation({ ...base, pathname: '/', fullPath: '/' })).toEqual({ kind: 'redirect', to: '/login' });
  });

  it('without login interception the session is virtual', () => {
    expect(decideNavigation({ ...base, pathname: '/index', fullPath: '/index', loginInterceptor: false })).toEqual({ kind: 'load' });
  });

  it('only honours in-app redirects', () => {
    expect(safeRedirect('/vab/card?x=1')).toBe('/vab/card?x=1');
    expect(safeRedirect('https://evil.example')).toBe('/');
    expect(safeRedirect('//evil.example')).toBe('/');
    expect(safeRedirect(null)).toBe('/');
  });
});
