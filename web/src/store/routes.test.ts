import { describe, expect, it } from 'vitest';
import { buildRoutes, flattenRoutes } from '@/router/buildRoutes';
import { readMenuRoutes } from '@/test/routeData';
import { patchRouteMeta } from './routes';

describe('dynamic route meta', () => {
  it('merges meta into the named route only, leaving the input untouched', () => {
    const routes = buildRoutes(readMenuRoutes(), { admin: true, role: ['Admin'], permission: [] });
    const next = patchRouteMeta(routes, 'DynamicMeta', { badge: '3', dot: true });
    const find = (rs: typeof routes, name: string) => flattenRoutes(rs).find((r) => r.name === name)!;
    expect(find(next, 'DynamicMeta').meta).toMatchObject({ badge: '3', dot: true, title: '动态Meta' });
    expect(find(routes, 'DynamicMeta').meta.badge).toBe('0');
    expect(find(next, 'Count').meta).toEqual(find(routes, 'Count').meta);
  });
});
