// End-to-end checks of the /setting pages in real Chromium against
// the real local gateway: users, roles, departments, menus, system log,
// personal center. One gateway for the file; the steps build on each other.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiClient, openAndChoose, eventually, gatewayForFile, go, hashPath, login, menuPaths, shot, USERS, viewReady, withBrowser } from './harness.mjs';

const gateway = gatewayForFile();

const toast = (page, text) => page.getByTestId('toast').filter({ hasText: text }).first();

const ALICE = { username: 'ops.alice', password: 'alice-pass-1' };

describe('settings pages', () => {
  it('admin creates a user with role Editor (client and server validation shown)', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/setting/userManagement');
      await page.locator('[data-user="admin"]').waitFor();
      await shot(page, 'settings-01-users');

      await page.getByTestId('user-add').click();
      const dialog = page.getByTestId('user-dialog');
      await dialog.waitFor();
      // Point-5 messages before any request.
      await dialog.getByTestId('dialog-save').click();
      await dialog.getByText('用户名不能为空').waitFor();
      await dialog.getByText('新密码不能少于12位（也不能是常见密码或包含用户名）').waitFor();
      await shot(page, 'settings-02-user-dialog-invalid');

      // A taken name: the server's message is shown and the dialog stays open.
      await dialog.locator('input[name="username"]').fill('editor');
      await dialog.locator('input[name="password"]').fill('whatever-lantern-1');
      await dialog.getByTestId('dialog-save').click();
      await toast(page, '已被占用').waitFor({ timeout: 10_000 });
      assert.equal(await dialog.isVisible(), true);

      await dialog.locator('input[name="username"]').fill(ALICE.username);
      await dialog.locator('input[name="password"]').fill(ALICE.password);
      await dialog.locator('input[name="email"]').fill('alice@example.com');
      await dialog.locator('input[data-role="Editor"]').check();
      await dialog.getByTestId('dialog-save').click();
      await toast(page, '保存成功').waitFor({ timeout: 10_000 });
      const row = page.locator(`[data-user="${ALICE.username}"]`);
      await row.waitFor();
      assert.match(await row.innerText(), /Editor/);
      assert.match(await row.innerText(), /alice@example\.com/);
      await shot(page, 'settings-03-user-created');

      // Reset password: the mismatch is caught here, then the server resets it.
      await row.getByRole('button', { name: '重置密码' }).click();
      const reset = page.getByTestId('reset-dialog');
      await reset.locator('input[name="newPassword"]').fill(ALICE.password);
      await reset.locator('input[name="repeatPassword"]').fill('something-else');
      await reset.getByTestId('dialog-save').click();
      await reset.getByText('两次输入的密码不一致').waitFor();
      // Long enough but among the most common passwords: the server says
      // so, beside the field.
      await reset.locator('input[name="newPassword"]').fill('qwerty123456');
      await reset.locator('input[name="repeatPassword"]').fill('qwerty123456');
      await reset.getByTestId('dialog-save').click();
      await reset.locator('[data-field="password"]').getByText(/最常见的一万个密码/).waitFor({ timeout: 10_000 });
      await reset.locator('input[name="newPassword"]').fill(ALICE.password);
      await reset.locator('input[name="repeatPassword"]').fill(ALICE.password);
      await reset.getByTestId('dialog-save').click();
      await toast(page, '密码已重置').waitFor({ timeout: 10_000 });
    });
  });

  it('the new user signs in and gets the Editor menu, without /setting', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, ALICE);
      const paths = await menuPaths(page);
      for (const p of ['/order', '/connector', '/money', '/vab']) assert.ok(paths.includes(p), `Editor menu has ${p}`);
      for (const p of ['/setting', '/other', '/mall/goods']) assert.ok(!paths.includes(p), `Editor menu lacks ${p}`);
      await shot(page, 'settings-04-new-editor-menu');
    });
  });

  it('roles show permissions as checkboxes; a role in use cannot be deleted', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/setting/roleManagement');
      const editorRow = page.locator('[data-role-row="Editor"]');
      await editorRow.waitFor();
      await editorRow.getByRole('button', { name: '编辑' }).click();
      const dialog = page.getByTestId('role-dialog');
      await dialog.waitFor();
      assert.equal(await dialog.locator('input[data-perm="read:system"]').isChecked(), true);
      assert.equal(await dialog.locator('input[data-perm="delete:system"]').isChecked(), false);
      await shot(page, 'settings-05-role-dialog');
      await dialog.getByRole('button', { name: '取消' }).click();
      // The menu an Editor gets: orders yes, settings no.
      await editorRow.getByTestId('role-menu').click();
      const menu = page.getByTestId('role-menu-dialog');
      await menu.locator('[data-menu-name="OrderIndex"]').waitFor();
      assert.equal(await menu.locator('[data-menu-name="Setting"]').count(), 0);
      await shot(page, 'settings-05b-role-menu');
      await menu.getByRole('button', { name: '关闭' }).click();
      await editorRow.getByRole('button', { name: '删除' }).click();
      await page.getByTestId('confirm-ok').click();
      // Refused by the server (users hold it); its message is shown.
      await page.getByTestId('toast').and(page.locator('[data-intent="error"]')).first().waitFor({ timeout: 10_000 });
      await editorRow.waitFor();
    });
  });

  it('departments: a tree with a child; a parent with children cannot be deleted', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/setting/departmentManagement');
      await page.getByTestId('dept-add').waitFor();
      await page.getByTestId('dept-add').click();
      let dialog = page.getByTestId('dept-dialog');
      await dialog.locator('input[name="name"]').fill('运营中心');
      await dialog.getByTestId('dialog-save').click();
      await toast(page, '保存成功').waitFor({ timeout: 10_000 });
      const parent = page.locator('[data-dept="运营中心"]');
      await parent.waitFor();
      await parent.getByRole('button', { name: '添加下级' }).click();
      dialog = page.getByTestId('dept-dialog');
      await dialog.locator('input[name="name"]').fill('华东站点组');
      await dialog.locator('input[name="order"]').fill('1.5');
      await dialog.getByTestId('dialog-save').click();
      await dialog.getByText('排序必须是整数').waitFor();
      await dialog.locator('input[name="order"]').fill('2');
      await dialog.getByTestId('dialog-save').click();
      await page.locator('[data-dept="华东站点组"]').waitFor({ timeout: 10_000 });
      await parent.getByRole('button', { name: '删除' }).click();
      await page.getByTestId('confirm-ok').click();
      await page.getByTestId('toast').and(page.locator('[data-intent="error"]')).first().waitFor({ timeout: 10_000 });
      await shot(page, 'settings-06-departments');
    });
  });

  it('admin edits a menu title; it shows in the sidebar after signing in again', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/setting/menuManagement');
      await page.getByTestId('menu-expand-all').click();
      const row = page.locator('[data-menu-name="OrderIndex"]');
      await row.waitFor();
      await row.getByTestId('menu-edit').click();
      const dialog = page.getByTestId('menu-dialog');
      await dialog.waitFor();
      assert.equal(await dialog.locator('input[name="title"]').inputValue(), '充电订单');
      await shot(page, 'settings-07-menu-dialog');
      await dialog.locator('input[name="title"]').fill('充电订单列表');
      await dialog.getByTestId('dialog-save').click();
      await toast(page, '保存成功').waitFor({ timeout: 10_000 });
      await row.getByText('充电订单列表').waitFor();
      await shot(page, 'settings-08-menu-tree');
    });
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await page.locator('[data-menu-path="/order"]').click();
      await page.getByTestId('side-menu').getByText('充电订单列表').waitFor();
      await shot(page, 'settings-09-menu-after-relogin');
    });
  });

  it('the system log shows the writes, filtered by account', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/setting/systemLog');
      await viewReady(page);
      // The first page has loaded before the filter is typed, so its answer
      // cannot arrive after the filtered one.
      await page.locator('[data-log-path]').first().waitFor({ timeout: 30_000 });
      await page.getByTestId('log-account').fill('admin');
      await page.getByTestId('log-account').press('Enter');
      await page.waitForFunction(() => new URLSearchParams(location.hash.split('?')[1] ?? '').get('account') === 'admin');
      const wanted = ['/userManagement/doEdit', '/userManagement/resetPassword', '/roleManagement/doDelete', '/departmentManagement/doEdit', '/menuManagement/doEdit'];
      // Waits for the filtered page: only admin's entries, each write among them.
      let rows = [];
      const filtered = async () => {
        rows = await page.$$eval('[data-log-path]', (els) => els.map((r) => ({ path: r.getAttribute('data-log-path'), account: r.children[1].textContent })));
        return rows.length > 0 && rows.every((r) => r.account === 'admin') && wanted.every((path) => rows.some((r) => r.path === path));
      };
      await eventually(filtered, "only admin's entries, each write among them", { timeout: 30_000 }).catch((err) =>
        assert.fail(`${err.message}; rows at ${hashPath(page)}: ${JSON.stringify(rows)}`),
      );
      await shot(page, 'settings-10-system-log');
    });
  });

  it('personal center: profile with avatar URL, password change with the point-5 checks', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/setting/personalCenter');
      await page.getByTestId('profile-username').filter({ hasText: 'admin' }).waitFor();
      await page.locator('input[name="avatar"]').fill('ftp://example.com/a.png');
      await page.getByTestId('profile-save').click();
      await page.getByText('头像须为 http 或 https 地址').waitFor();
      await page.locator('input[name="avatar"]').fill('');
      await page.locator('input[name="email"]').fill('admin@example.com');
      await page.getByTestId('profile-save').click();
      await toast(page, '保存成功').waitFor({ timeout: 10_000 });

      await page.locator('input[name="oldPassword"]').fill('wrong-password');
      await page.locator('input[name="newPassword"]').fill('12345');
      await page.locator('input[name="repeatPassword"]').fill('12345');
      await page.getByTestId('password-save').click();
      await page.getByText('新密码不能少于12位（也不能是常见密码或包含用户名）').waitFor();
      await page.locator('input[name="newPassword"]').fill('new-lantern-pass-1');
      await page.locator('input[name="repeatPassword"]').fill('new-lantern-pass-1');
      await page.getByTestId('password-save').click();
      await toast(page, '原密码不正确').waitFor({ timeout: 10_000 });
      await shot(page, 'settings-11-personal-center');
    });
  });

  it('operations settings: the stuck-order limit is checked, saved, logged and applied to the order list', async () => {
    const { api, token } = apiClient(gateway);
    const admin = await token(USERS.admin);
    const stuckOrders = async () => (await api('GET', '/order/getList?anomaly=stuck&pageSize=100', admin)).data.list.length;
    // What "stuck" must count under a limit: the open sessions older than it.
    // Counted from the list itself, so the check holds at any time of day
    // (the demo's sessions follow the day: at night few are an hour old).
    const olderThan = async (hours) => {
      const charging = (await api('GET', '/order/getList?status=charging&pageSize=100', admin)).data.list;
      const cutoff = Date.now() / 1000 - hours * 3600;
      return charging.filter((o) => o.stopTs == null && o.startTs < cutoff).length;
    };
    const before = await stuckOrders();
    assert.equal(before, await olderThan(12), 'the default limit is 12 hours');
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/setting/workflow');
      const stuck = page.locator('input[name="stuckAfterHours"]');
      await stuck.waitFor();
      assert.equal(await stuck.inputValue(), '12', 'the default limit');
      await stuck.fill('0');
      await page.getByTestId('ops-save').click();
      await page.getByText('请输入 1 到 24 之间的整数').waitFor();
      await stuck.fill('1');
      await page.getByTestId('ops-save').click();
      await toast(page, '保存成功').waitFor({ timeout: 10_000 });
      await page.getByTestId('ops-version').filter({ hasText: '版本 1' }).waitFor();
      await shot(page, 'settings-14-operations');
    });
    const settings = await api('GET', '/operationSettings/get', admin);
    assert.equal(settings.data.stuckAfterHours, 1);
    const after = await stuckOrders();
    assert.equal(after, await olderThan(1), `orders charging for over an hour now count as stuck: ${before} -> ${after}`);
    const log = await api('GET', '/systemLog/getList?account=admin&pageSize=1', admin);
    assert.equal(log.data.list[0].path, '/operationSettings/doEdit');
    // Back to the default, so the rest of the file sees the demo as seeded.
    const reset = await api('POST', '/operationSettings/doEdit', admin, { offlineAfterIntervals: 3, stuckAfterHours: 12, version: 1 });
    assert.equal(reset.code, 200, JSON.stringify(reset));
  });

  it('renders in English too', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await openAndChoose(page, 'language-switch', 'language-en');
      await go(page, '/setting/userManagement');
      await page.getByRole('button', { name: 'Add user' }).waitFor();
      await page.getByText('Reset password').first().waitFor();
      await shot(page, 'settings-12-users-en');
      await go(page, '/setting/menuManagement');
      await page.getByText('Saved menu changes show in the sidebar after the next sign-in.').waitFor();
      await page.locator('[data-menu-name="Order"]').getByTestId('menu-edit').click();
      await page.getByTestId('menu-dialog').getByText('Roles allowed').waitFor();
      await shot(page, 'settings-12b-menu-dialog-en');
    });
  });

  it('fits a phone screen: the tables scroll inside their card', async () => {
    await withBrowser(
      async (page) => {
        await login(page, gateway.url, USERS.admin);
        await go(page, '/setting/userManagement');
        await page.locator('[data-user="admin"]').waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 1, `no page-wide horizontal scroll (${overflow}px)`);
        await shot(page, 'settings-13-users-mobile');
      },
      { width: 390, height: 844 },
    );
  });
});
