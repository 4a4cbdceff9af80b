import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Suspense, type ComponentType } from 'react';
import { MemoryRouter } from 'react-router';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfirmHost } from '@/components/Confirm';
import i18n from '@/i18n';
import { BUILT_VIEWS } from '@/pages/registry';
import { userStore } from '@/store/user';

/**
 * The /setting views render against answers shaped like the API contracts
 * without a React warning or console error, and their dialogs stop invalid
 * input before any request.
 */
const VIEWS = ['setting/userManagement', 'setting/roleManagement', 'setting/departmentManagement', 'setting/menuManagement', 'setting/systemLog', 'setting/personalCenter'];

const dept = (id: string, name: string, parentId = '', children: unknown[] = []) => ({ id, parentId, parentName: '', name, order: 1, createTime: '2026-01-01 08:00:00', userCount: 0, version: 1, children });
const SLOW = { timeout: 5000 };
const ANSWERS: Record<string, unknown> = {
  '/index/userInfo': { username: 'editor', avatar: '', roles: ['Editor'], permissions: ['read:system', 'write:system'], email: 'ops@charge.cn' },
  '/userManagement/getList': {
    list: [
      { id: 'admin', username: 'admin', email: 'a@b.cn', avatar: '', roles: ['Admin'], departmentId: 'd2', enabled: true, datatime: '2026-01-01 08:00:00', version: 3 },
      { id: 'editor', username: 'editor', email: '', avatar: '', roles: ['Editor'], departmentId: null, enabled: false, datatime: '2026-01-01 08:00:00', version: 1 },
    ],
    total: 2,
  },
  '/roleManagement/getList': {
    list: [
      { id: 'Admin', role: 'Admin', permissions: ['read:system', 'write:system'], description: '', userCount: 1, version: 1 },
      { id: 'Editor', role: 'Editor', permissions: ['read:system'], description: 'ops', userCount: 1, version: 1 },
    ],
    total: 2,
    permissionOptions: ['read:system', 'write:system', 'delete:system'],
  },
  '/departmentManagement/getList': { list: [dept('d1', '总部', '', [dept('d2', '运营部', 'd1')])], total: 2 },
  '/menuManagement/getList': {
    list: [{ id: 'Order', path: '/order', name: 'Order', component: 'Layout', meta: { title: '订单管理', icon: 'file-list-line' }, children: [{ id: 'OrderIndex', path: 'orderindex', name: 'OrderIndex', component: 'order/orderindex', meta: { title: '充电订单' } }] }],
    total: 2,
    version: 4,
    components: ['Layout', 'order/orderindex'],
  },
  '/systemLog/getList': {
    list: [{ id: 'l1', account: 'admin', type: 'Create or edit a staff account', path: '/userManagement/doEdit', target: 'editor', executeResult: 'success', code: 200, ip: '127.0.0.1', datetime: '2026-01-01T00:00:00Z', time: 1767225600 }],
    total: 1,
    cursor: null,
  },
};

let errors: string[] = [];
let posts: string[] = [];
/** Answers (status 400) the server gives a POST to a path instead of success. */
let refusals: Record<string, unknown> = {};
beforeEach(() => {
  errors = [];
  posts = [];
  refusals = {};
  void i18n.changeLanguage('zh');
  userStore.set({ username: 'admin', role: ['Admin'], permission: ['read:system'], admin: true });
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args.map(String).join(' ')));
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), 'http://localhost').pathname.replace(/^\/partnerapi/, '');
    if (init?.method === 'POST') posts.push(path);
    if (init?.method === 'POST' && refusals[path]) return new Response(JSON.stringify(refusals[path]), { status: 400 });
    const data = ANSWERS[path];
    return new Response(JSON.stringify(data === undefined ? { code: 404, msg: 'not mocked' } : { code: 200, msg: 'success', data }), { status: 200 });
  });
});
afterEach(() => vi.restoreAllMocks());

async function show(key: string) {
  const View: ComponentType = (await BUILT_VIEWS[key]()).default;
  render(
    <FluentProvider theme={webLightTheme}>
      <SWRConfig value={{ provider: () => new Map(), shouldRetryOnError: false, revalidateOnFocus: false }}>
        <MemoryRouter initialEntries={['/x']}>
          <Suspense fallback={null}>
            <View />
          </Suspense>
          <ConfirmHost />
        </MemoryRouter>
      </SWRConfig>
    </FluentProvider>,
  );
  await act(async () => new Promise((r) => setTimeout(r, 60)));
}

/** The text of what a form control's `aria-describedby` points at (its field's message). */
const describedBy = (control: Element) =>
  (control.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

describe('setting views render without warnings', () => {
  for (const key of VIEWS) {
    it(key, async () => {
      expect(BUILT_VIEWS[key]).toBeDefined();
      await show(key);
      expect(screen.queryByTestId('under-construction')).toBeNull();
      expect(errors).toEqual([]);
    });
  }

  it('the personal center reads the e-mail from the signed-in user, not the Admin-only user list', async () => {
    await show('setting/personalCenter');
    await waitFor(() => expect((document.querySelector('input[name="email"]') as HTMLInputElement).value).toBe('ops@charge.cn'), SLOW);
  });

  it('shows the department tree and its names in the user list', async () => {
    await show('setting/userManagement');
    expect(await screen.findByText('总部 / 运营部', {}, SLOW)).toBeTruthy();
    expect(await screen.findByText('停用', {}, SLOW)).toBeTruthy();
  });

  it('the user dialog stops invalid input before any request', async () => {
    await show('setting/userManagement');
    fireEvent.click(screen.getByTestId('user-add'));
    const dialog = await screen.findByTestId('user-dialog', {}, SLOW);
    fireEvent.click(within(dialog).getByTestId('dialog-save'));
    expect(await within(dialog).findByText('用户名不能为空', {}, SLOW)).toBeTruthy();
    expect(within(dialog).getByText('新密码不能少于12位（也不能是常见密码或包含用户名）')).toBeTruthy();
    expect(posts).toEqual([]);
  });

  it('a password the server finds easy to guess is refused next to its field, with the reason', async () => {
    const reason = { zh: '密码太容易被猜到：这是一个非常常用的密码。再加一两个词，不常见的词更好。', en: 'this password is too easy to guess: this is a very common password. Add another word or two. Uncommon words are better.' };
    refusals['/userManagement/doEdit'] = { code: 400, msg: reason.zh, data: { field: 'password', fields: [{ field: 'password', ...reason }] } };
    refusals['/userManagement/resetPassword'] = refusals['/userManagement/doEdit'];
    refusals['/user/changePassword'] = { code: 400, msg: reason.zh, data: { field: 'newPassword', fields: [{ field: 'newPassword', ...reason }] } };
    const notices = await import('@/utils/notify');
    const toast = vi.spyOn(notices, 'notify');

    await show('setting/userManagement');
    fireEvent.click(screen.getByTestId('user-add'));
    const dialog = await screen.findByTestId('user-dialog', {}, SLOW);
    fireEvent.change(dialog.querySelector('input[name="username"]')!, { target: { value: 'weakling' } });
    fireEvent.change(dialog.querySelector('input[name="password"]')!, { target: { value: 'Password1234!' } });
    fireEvent.click(within(dialog).getByTestId('dialog-save'));
    await within(dialog).findByText(reason.zh, {}, SLOW);
    // On the password's own field (its described-by message), not a toast.
    expect(describedBy(dialog.querySelector('input[name="password"]')!)).toContain(reason.zh);
    expect(toast.mock.calls.map((c) => c[0])).not.toContain(reason.zh);
    // Typing a new password clears it.
    fireEvent.change(dialog.querySelector('input[name="password"]')!, { target: { value: 'Password1234!x' } });
    await waitFor(() => expect(within(dialog).queryByText(reason.zh)).toBeNull(), SLOW);
    expect(errors).toEqual([]);
  });

  it('the personal center shows a refused new password on its field', async () => {
    const reason = { zh: '密码太容易被猜到：这是一个非常常用的密码。', en: 'this password is too easy to guess: this is a very common password' };
    refusals['/user/changePassword'] = { code: 400, msg: reason.zh, data: { field: 'newPassword', fields: [{ field: 'newPassword', ...reason }] } };
    await show('setting/personalCenter');
    const fill = (name: string, value: string) => fireEvent.change(document.querySelector(`input[name="${name}"]`)!, { target: { value } });
    fill('oldPassword', 'editor-pass-1');
    fill('newPassword', 'Password1234!');
    fill('repeatPassword', 'Password1234!');
    fireEvent.click(screen.getByTestId('password-save'));
    await screen.findByText(reason.zh, {}, SLOW);
    expect(describedBy(document.querySelector('input[name="newPassword"]')!)).toContain(reason.zh);
    expect(posts).toContain('/user/changePassword');
  });

  it('the role dialog lists every permission option as a checkbox', async () => {
    await show('setting/roleManagement');
    fireEvent.click((await screen.findAllByText('编辑', {}, SLOW))[1]);
    const dialog = await screen.findByTestId('role-dialog', {}, SLOW);
    await within(dialog).findByText('删除数据', { exact: false }, SLOW);
    const boxes = [...dialog.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')];
    expect(boxes.map((b) => b.dataset.perm)).toEqual(['read:system', 'write:system', 'delete:system']);
    expect(boxes.map((b) => b.checked)).toEqual([true, false, false]);
  });

  it('the system log offers the types in the reader\'s language and pages a type filter with the cursor', async () => {
    const asked: string[] = [];
    const before = ANSWERS['/systemLog/getList'];
    ANSWERS['/systemLog/getList'] = {
      list: [{ id: 'l1', account: 'admin', type: '新增或编辑员工账号', path: '/userManagement/doEdit', target: 'editor', executeResult: '成功', code: 200, ip: '127.0.0.1', datetime: '2026-01-01T00:00:00Z', time: 1767225600 }],
      total: 1,
      totalKnown: false,
      cursor: 'next',
      types: [{ value: 'user_management_edit', label: '新增或编辑员工账号' }],
    };
    const fetchMock = vi.mocked(globalThis.fetch);
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      asked.push(String(input));
      return answer(input, init);
    });
    try {
      await show('setting/systemLog');
      fireEvent.click(await screen.findByTestId('log-type-filter', {}, SLOW));
      fireEvent.click(await screen.findByRole('option', { name: '新增或编辑员工账号' }, SLOW));
      await waitFor(() => expect(asked.some((u) => u.includes('type=user_management_edit'))).toBe(true), SLOW);
      expect(await screen.findByTestId('log-filtered-note', {}, SLOW)).toBeTruthy();
      expect(screen.getByTestId('log-more')).toBeTruthy();
    } finally {
      ANSWERS['/systemLog/getList'] = before;
    }
  });

  it('the menu tree folds its sections until expanded', async () => {
    await show('setting/menuManagement');
    expect(await screen.findByText('订单管理', {}, SLOW)).toBeTruthy();
    expect(screen.queryByText('充电订单')).toBeNull();
    fireEvent.click(screen.getByTestId('menu-expand-all'));
    expect(await screen.findByText('充电订单', {}, SLOW)).toBeTruthy();
  });
});
