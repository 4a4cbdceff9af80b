import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveToken, userStore } from '@/store/user';
import { getRefreshToken } from '@/utils/storage';
import { noticeQueue } from '@/utils/notify';
import { changeLanguage } from '@/i18n';
import { fieldProblems, request, RequestError } from './request';

type Reply = { status: number; body: unknown };

function mockFetch(handler: (url: string, init: RequestInit) => Reply | Promise<Reply>) {
  const fn = vi.fn(async (url: string, init: RequestInit) => {
    const { status, body } = await handler(url, init);
    return new Response(JSON.stringify(body), { status });
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

const auth = (init: RequestInit) => (init.headers as Record<string, string>).Authorization;
const messages = () => noticeQueue.get().items.map((n) => n.message);

beforeEach(() => {
  saveToken({ token: 'tok-1', refreshToken: 'ref-1' });
  noticeQueue.set({ items: [] });
  window.location.hash = '#/vab/card';
});
afterEach(() => vi.unstubAllGlobals());

describe('request layer (success codes, 401, 402, 403 and other errors)', () => {
  it('sends the token and language, resolves success envelopes', async () => {
    const fetch = mockFetch(() => ({ status: 200, body: { code: 200, msg: 'success', data: { a: 1 } } }));
    const res = await request<{ a: number }>({ url: '/x', params: { q: 'y', empty: '' } });
    expect(res.data).toEqual({ a: 1 });
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/partnerapi/x?q=y');
    expect(auth(init)).toBe('Bearer tok-1');
    expect((init.headers as Record<string, string>)['Accept-Language']).toMatch(/zh-CN|en/);
  });

  it('accepts 0 and "200" as success codes', async () => {
    mockFetch(() => ({ status: 200, body: { code: '0', msg: '', data: 1 } }));
    await expect(request({ url: '/x' })).resolves.toMatchObject({ data: 1 });
  });

  it('401 resets the session and goes to login with the wanted path', async () => {
    mockFetch(() => ({ status: 401, body: { code: 401, msg: 'token invalid', data: null } }));
    await expect(request({ url: '/x' })).rejects.toBeInstanceOf(RequestError);
    expect(userStore.get().token).toBe('');
    expect(window.location.hash).toBe('#/login?redirect=%2Fvab%2Fcard');
  });

  it('402 refreshes once (single flight) and retries every waiting request', async () => {
    let refreshes = 0;
    const fetch = mockFetch(async (url, init) => {
      if (url.endsWith('/refreshToken')) {
        refreshes++;
        await new Promise((r) => setTimeout(r, 10));
        expect((init.headers as Record<string, string>)['X-Refresh-Token']).toBe('ref-1');
        expect(auth(init)).toBeUndefined();
        return { status: 200, body: { code: 200, msg: '', data: { token: 'tok-2', refreshToken: 'ref-2' } } };
      }
      if (auth(init) === 'Bearer tok-1') return { status: 402, body: { code: 402, msg: 'token expired', data: null } };
      return { status: 200, body: { code: 200, msg: '', data: url } };
    });
    const [a, b] = await Promise.all([request({ url: '/a' }), request({ url: '/b' })]);
    expect(refreshes).toBe(1);
    expect(a.data).toBe('/partnerapi/a');
    expect(b.data).toBe('/partnerapi/b');
    expect(userStore.get().token).toBe('tok-2');
    expect(getRefreshToken()).toBe('ref-2');
    expect(fetch.mock.calls.filter(([u]) => u === '/partnerapi/a')).toHaveLength(2);
  });

  it('402 after another tab refreshed takes that tab\'s token instead of trading the one-use refresh token again', async () => {
    // Another tab traded ref-1 already and stored its pair.
    localStorage.setItem('admin-pro-token', 'tok-9');
    localStorage.setItem('admin-pro-refresh-token', 'ref-9');
    const fetch = mockFetch((url, init) => {
      if (url.endsWith('/refreshToken')) throw new Error('must not trade again');
      if (auth(init) === 'Bearer tok-1') return { status: 402, body: { code: 402, msg: 'token expired', data: null } };
      return { status: 200, body: { code: 200, msg: '', data: auth(init) } };
    });
    const res = await request({ url: '/a' });
    expect(res.data).toBe('Bearer tok-9');
    expect(userStore.get().token).toBe('tok-9');
    expect(fetch.mock.calls.some(([u]) => String(u).endsWith('/refreshToken'))).toBe(false);
  });

  it('402 with a failing refresh goes to login', async () => {
    mockFetch((url) =>
      url.endsWith('/refreshToken')
        ? { status: 401, body: { code: 401, msg: 'signed out after a period without activity', data: null } }
        : { status: 402, body: { code: 402, msg: 'token expired', data: null } },
    );
    await expect(request({ url: '/x' })).rejects.toMatchObject({ code: 401 });
    expect(window.location.hash).toMatch(/^#\/login/);
    expect(messages()).toContain('signed out after a period without activity');
    expect(getRefreshToken()).toBe('');
  });

  it('403 goes to the forbidden page', async () => {
    mockFetch(() => ({ status: 403, body: { code: 403, msg: 'forbidden', data: null } }));
    await expect(request({ url: '/x' })).rejects.toMatchObject({ code: 403 });
    expect(window.location.hash).toBe('#/403');
  });

  it('other codes toast the server msg for 3000 ms, or the standard text', async () => {
    mockFetch(() => ({ status: 400, body: { code: 400, msg: 'account or password incorrect', data: null } }));
    await expect(request({ url: '/x' })).rejects.toMatchObject({ code: 400, message: 'account or password incorrect' });
    expect(noticeQueue.get().items[0]).toMatchObject({ message: 'account or password incorrect', intent: 'error', timeout: 3000 });
    noticeQueue.set({ items: [] });
    mockFetch(() => ({ status: 418, body: null }));
    await expect(request({ url: '/x' })).rejects.toMatchObject({ code: 418 });
    expect(messages()[0]).toMatch(/418/);
  });

  it('network failure explains CORS / wrong API address', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(request({ url: '/x' })).rejects.toMatchObject({ code: 0 });
    expect(messages()[0]).toMatch(/CORS/);
  });

  it('times out after the configured time', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn((_u: string, init: RequestInit) => new Promise((_, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))))),
    );
    await expect(request({ url: '/slow', timeout: 20 })).rejects.toMatchObject({ code: 0 });
    expect(messages()[0]).toMatch(/20/);
  });
});

describe('messages by key (the server catalogue)', () => {
  afterEach(async () => {
    await changeLanguage('zh');
  });

  it('shows the catalogue words of msgKey in the UI language, and of each field it names', async () => {
    await changeLanguage('en');
    // The server answered in another language than the UI now reads.
    const body = {
      code: 400,
      msg: 'note：过长（最多 64 个字符）',
      msgKey: 'request.fieldProblem',
      msgArgs: { field: 'note', problem: { key: 'request.tooLong', args: { max: '64' } } },
      data: { field: 'note', fields: [{ field: 'note', en: 'x', zh: 'y', key: 'request.tooLong', args: { max: '64' } }] },
    };
    mockFetch(() => ({ status: 400, body }));
    const err = await request({ url: '/x', fieldErrors: true }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 400, message: 'note: is too long (at most 64 characters)' });
    expect(fieldProblems((err as RequestError).body)[0]).toMatchObject({ en: 'Is too long (at most 64 characters)', zh: 'y' });
  });

  it('keeps the server msg when the catalogue has no such key', async () => {
    mockFetch(() => ({ status: 409, body: { code: 409, msg: 'stale', msgKey: 'no.suchKey', msgArgs: {}, data: null } }));
    await expect(request({ url: '/x' })).rejects.toMatchObject({ message: 'stale' });
  });
});
