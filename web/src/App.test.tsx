import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';
import { DEFAULT_THEME, LAYOUTS } from '@/config';
import { changeLanguage } from '@/i18n';
import { resetAll } from '@/store/session';
import { setDevice, settingsStore } from '@/store/settings';
import { readMenuRoutes } from '@/test/routeData';
import { noticeQueue } from '@/utils/notify';
import zh from '@/i18n/locales/zh';

/**
 * The whole app against an in-memory stand-in of the gateway's /partnerapi
 * (answer shapes of shared/backoffice/src/handlers): sign in, the shell,
 * tabs, language, theme drawer, sign out.
 */
type Reply = { status: number; body: unknown };
const ok = (data: unknown, msg = 'success'): Reply => ({ status: 200, body: { code: 200, msg, data } });
const fail = (code: number, msg: string): Reply => ({ status: code, body: { code, msg, data: null } });

let calls: string[] = [];
// What the signed-in user did with the notices, kept by the fake server as the real one keeps it.
let noticesRead = false;
let noticesCleared = false;

function fakeServer(url: string, init: RequestInit): Reply {
  const path = url.replace(/^\/partnerapi/, '').split('?')[0];
  const auth = (init.headers as Record<string, string>).Authorization;
  calls.push(`${init.method ?? 'GET'} ${path}`);
  // RSA off, as the real server answers by default: sign-ins go in clear.
  if (path === '/publicKey') return ok({ publicKey: '', mockServer: false });
  // Public, like the real route: the login page asks which social providers to offer.
  if (path === '/socialLogin/providers') return ok({ providers: [] });
  if (path === '/login/index') {
    const body = JSON.parse(String(init.body)) as { username: string; password: string };
    return body.username === 'admin' && body.password === 'secret-pw' ? ok({ token: 'tok-admin' }) : fail(400, '帐号或密码不正确');
  }
  if (auth !== 'Bearer tok-admin') return fail(401, '令牌无效，请重新登录');
  switch (path) {
    case '/index/userInfo':
      return ok({ username: 'admin', avatar: '', roles: ['Admin'], permissions: ['read:system', 'write:system', 'delete:system'], userType: 0, email: '' });
    case '/router/getList':
      return ok({ list: readMenuRoutes() });
    case '/notice/getList':
      return ok(
        noticesCleared
          ? { list: [], total: 0, unread: 0 }
          : { list: [{ id: '000000000001#0190', type: 'notice', email: '', image: '', notice: '<a href="https://example.com">充电桩维护通知</a>', createdAt: 0, version: 1, read: noticesRead }], total: 1, unread: noticesRead ? 0 : 1 },
      );
    case '/notice/read':
      noticesRead = true;
      return ok(null);
    case '/notice/clearAll':
      noticesCleared = true;
      return ok(null, '清空消息成功');
    case '/search/getList':
      return ok({ list: [{ value: '充电订单', url: '#/order/orderindex' }] });
    case '/login/logout':
      return ok(null, '已退出登录');
    default:
      return fail(404, '接口不存在');
  }
}

beforeEach(() => {
  calls = [];
  noticesRead = false;
  noticesCleared = false;
  localStorage.clear();
  resetAll();
  noticeQueue.set({ items: [] });
  settingsStore.set({ language: 'zh', themeDrawerOpen: false, theme: { ...DEFAULT_THEME }, collapse: false });
  void changeLanguage('zh');
  window.location.hash = '#/';
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const { status, body } = fakeServer(url, init);
      return new Response(JSON.stringify(body), { status });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function signIn() {
  render(<App />);
  const name = await screen.findByPlaceholderText('请输入用户名');
  fireEvent.change(name, { target: { value: 'admin' } });
  fireEvent.change(screen.getByPlaceholderText('请输入密码'), { target: { value: 'secret-pw' } });
  fireEvent.submit(screen.getByTestId('login-form'));
  await screen.findByTestId('home-greeting');
}

// Each test signs in and loads the shell and lazy pages one after another; on
// a busy machine that outlasts the suites' 15 s bound without anything being
// wrong, so these have a wider one (every wait in them is for a state).
describe('the app against the /partnerapi answers', { timeout: 60_000 }, () => {
  it('signs in, shows the shell with the home tab, and the document title', async () => {
    await signIn();
    expect(window.location.hash).toBe('#/index');
    expect(calls).toEqual(expect.arrayContaining(['POST /login/index', 'GET /index/userInfo', 'GET /router/getList']));
    const tabs = screen.getByTestId('tabs-bar');
    expect(within(tabs).getByText('首页')).toBeInTheDocument();
    expect(screen.getByTestId('breadcrumb')).toHaveTextContent('首页');
    await waitFor(() => expect(document.title).toBe('首页 - 新能源管理系统'));
    expect(screen.getByTestId('footer')).toHaveTextContent(String(new Date().getFullYear()));
  });

  it('opens a page as a new tab and keeps the first one pinned', async () => {
    await signIn();
    act(() => {
      window.location.hash = '#/vab/form/input';
    });
    const tabs = screen.getByTestId('tabs-bar');
    await within(tabs).findByText('输入框');
    // The home tab is not closable, the new one is.
    expect(within(tabs).getAllByTestId('tab-close')).toHaveLength(1);
    fireEvent.click(within(tabs).getByTestId('tab-close'));
    await waitFor(() => expect(window.location.hash).toBe('#/index'));
    expect(within(tabs).queryByText('输入框')).toBeNull();
  });

  it('a crashing view is contained in its tab: other kept-alive tabs keep their state', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    await signIn();
    act(() => {
      window.location.hash = '#/vab/form/input';
    });
    // Lazy pages: their first import can take over a second on a loaded machine.
    fireEvent.change(await screen.findByTestId('keepalive-filter'), { target: { value: 'station 42' } });
    act(() => {
      window.location.hash = '#/other/log';
    });
    fireEvent.click(await screen.findByTestId('trigger-error'));
    expect(await screen.findByText('Simulated error from the error-log demo')).toBeInTheDocument();
    expect(screen.getByTestId('error-log-button')).toBeInTheDocument();
    act(() => {
      window.location.hash = '#/vab/form/input';
    });
    await waitFor(() => expect(screen.getByTestId('keepalive-filter')).toHaveValue('station 42'));
    consoleError.mockRestore();
  });

  it('a view keeps its state when the layout changes or the window crosses the phone width', async () => {
    await signIn();
    act(() => {
      window.location.hash = '#/vab/form/input';
    });
    const filter = await screen.findByTestId('keepalive-filter');
    fireEvent.change(filter, { target: { value: 'station 42' } });
    // A phone gets the vertical layout whatever the theme says: another frame around the same views.
    act(() => setDevice('mobile'));
    await waitFor(() => expect(document.querySelector('[data-layout="vertical"]')).not.toBeNull());
    expect(screen.getByTestId('keepalive-filter')).toBe(filter);
    act(() => setDevice('desktop'));
    act(() => settingsStore.set({ theme: { ...settingsStore.get().theme, layout: 'column' } }));
    await waitFor(() => expect(document.querySelector('[data-layout="column"]')).not.toBeNull());
    expect(screen.getByTestId('keepalive-filter')).toBe(filter);
    expect(filter).toHaveValue('station 42');
    expect(filter.isConnected).toBe(true);
  });

  it('refresh re-mounts only the current instance of a per-instance tab', async () => {
    await signIn();
    // The order detail page's answer for an unknown id, once loaded (a hidden
    // tab defers its updates, so each is awaited while it is shown).
    const view = (id: string) => document.querySelector(`[data-tab="/order/detail?id=${id}"] [data-testid="detail-missing"]`);
    for (const id of ['1', '2']) {
      act(() => {
        window.location.hash = `#/order/detail?id=${id}`;
      });
      // The title and what tells instances apart are separate spans (the latter is data).
      await waitFor(() => expect(screen.getByTestId('tabs-bar').textContent).toContain(`订单详情 (${id})`));
      await waitFor(() => expect(view(id)).not.toBeNull());
    }
    const panes = () => [...document.querySelectorAll<HTMLElement>('.view-pane')].map((p) => p.dataset.tab);
    expect(panes()).toEqual(expect.arrayContaining(['/order/detail?id=1', '/order/detail?id=2']));
    const [first, second] = [view('1'), view('2')];
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    fireEvent.click(screen.getByTestId('refresh-view'));
    // The shown (second) instance is a new element; the hidden first one was left alone.
    await waitFor(() => expect(view('2')).not.toBe(second));
    await waitFor(() => expect(view('2')).not.toBeNull());
    expect(view('1')).toBe(first);
  });

  it('switches the language: menu titles and the document title follow', async () => {
    await signIn();
    await act(async () => {
      settingsStore.set({ language: 'en' });
      await changeLanguage('en');
    });
    expect(within(screen.getByTestId('tabs-bar')).getByText('Home')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Home - new-energy management system'));
  });

  it('header notices come from the server', async () => {
    await signIn();
    fireEvent.click(screen.getByTestId('notice-button'));
    const popover = await screen.findByTestId('notice-popover');
    expect(await within(popover).findByText('充电桩维护通知')).toBeInTheDocument();
    expect(calls).toContain('GET /notice/getList');
  });

  it('opening the notices marks them read on the server; clear all is the server\'s too', async () => {
    await signIn();
    expect(await screen.findByTestId('notice-unread')).toHaveTextContent('1');
    fireEvent.click(screen.getByTestId('notice-button'));
    await waitFor(() => expect(calls).toContain('POST /notice/read'));
    await waitFor(() => expect(screen.queryByTestId('notice-unread')).toBeNull());
    const popover = await screen.findByTestId('notice-popover');
    fireEvent.click(within(popover).getByTestId('notice-clear'));
    await waitFor(() => expect(calls).toContain('POST /notice/clearAll'));
    expect(await within(popover).findByText(zh.notice.empty)).toBeInTheDocument();
    // Admin publishes: the popover offers the publishers' dialog.
    expect(within(popover).getByTestId('notice-manage')).toBeInTheDocument();
  });

  it('header search suggests pages from the server and opens the chosen one', async () => {
    await signIn();
    fireEvent.click(screen.getByTestId('search-button'));
    const dialog = await screen.findByTestId('search-dialog');
    fireEvent.change(within(dialog).getByPlaceholderText(zh.search.placeholder), { target: { value: '订单' } });
    const option = await within(dialog).findByText('充电订单');
    fireEvent.click(option);
    await waitFor(() => expect(window.location.hash).toBe('#/order/orderindex'));
    // The order page is a lazy chunk: on a loaded machine it takes more than the default second.
    await screen.findByTestId('order-table');
  });

  it('renders every layout with its menu', async () => {
    await signIn();
    for (const layout of LAYOUTS) {
      act(() => settingsStore.set((st) => ({ theme: { ...st.theme, layout, themeName: 'blue-black' } })));
      expect(document.querySelector(`[data-layout="${layout}"]`), layout).not.toBeNull();
      expect(document.querySelectorAll('[data-menu-path]').length, layout).toBeGreaterThan(0);
      expect(screen.getByTestId('app-main')).toHaveTextContent(/早上好|上午好|中午好|下午好|晚上好/);
    }
  });

  it('opens the theme drawer from the header theme icon', async () => {
    await signIn();
    fireEvent.click(screen.getByTestId('theme-button'));
    expect(await screen.findByText('主题配置')).toBeInTheDocument();
  });

  it('a wrong password shows the server message and stays on the login page', async () => {
    render(<App />);
    fireEvent.change(await screen.findByPlaceholderText('请输入用户名'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByPlaceholderText('请输入密码'), { target: { value: 'wrong-pw' } });
    fireEvent.submit(screen.getByTestId('login-form'));
    await waitFor(() => expect(calls).toContain('POST /login/index'));
    await screen.findByText('帐号或密码不正确');
    expect(window.location.hash).toMatch(/^#\/login/);
  });

  it('without a token a protected path goes to login carrying the path', async () => {
    window.location.hash = '#/vab/form/input';
    render(<App />);
    await screen.findByTestId('login-form');
    expect(window.location.hash).toBe('#/login?redirect=%2Fvab%2Fform%2Finput');
  });

  it('signs out through the avatar menu', async () => {
    await signIn();
    fireEvent.click(screen.getByTestId('user-menu'));
    fireEvent.click(await screen.findByTestId('logout'));
    await screen.findByTestId('login-form');
    expect(calls).toContain('GET /login/logout');
    expect(localStorage.getItem('admin-pro-token')).toBeNull();
  });
});
