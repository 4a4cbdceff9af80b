import { describe, expect, it, vi } from 'vitest';

const started: string[] = [];
let releaseInfo: () => void = () => undefined;
vi.mock('@/api/user', () => ({
  getUserInfo: vi.fn(() => {
    started.push('userInfo');
    return new Promise((resolve) => {
      releaseInfo = () => resolve({ username: 'admin', roles: ['Admin'], permissions: [] });
    });
  }),
}));
vi.mock('./prefetch', () => ({ takeFirstScreen: async () => undefined }));
vi.mock('@/api/router', () => ({
  getRouterList: vi.fn(async () => {
    started.push('routerList');
    return { list: [], forbidden: [] };
  }),
}));

describe('loadSession', () => {
  it('asks for the user info and the menu at the same time', async () => {
    const { loadSession } = await import('./loadSession');
    const loading = loadSession();
    // The menu call is out before the user info has answered.
    expect(started.sort()).toEqual(['routerList', 'userInfo']);
    releaseInfo();
    await loading;
  });
});
