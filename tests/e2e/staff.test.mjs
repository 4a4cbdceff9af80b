// End-to-end checks of what every staff member does for themselves (issue
// 18 items 1, 5 and 8) in real Chromium against the real local gateway: an
// Editor's own personal center and password, publishing notices with what
// each user read and cleared kept on the server, and the system log and
// home page in the user's language. One gateway for the file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiClient, openAndChoose, gatewayForFile, hashPath, login, menuPaths, shot, USERS, withBrowser } from './harness.mjs';

const gateway = gatewayForFile();

const toast = (page, text) => page.getByTestId('toast').filter({ hasText: text }).first();

/** The Editor's new password: 12+ characters, not common, without the user name. */
const EDITOR_NEW = 'harbour-lantern-2026';

async function openPersonalCenter(page) {
  await openAndChoose(page, 'user-menu', 'personal-center');
  await page.getByTestId('profile-username').waitFor();
}

async function signOut(page) {
  await openAndChoose(page, 'user-menu', 'logout');
  await page.locator('input[name="username"]').waitFor();
}

describe('staff self-service', () => {
  it('an Editor reaches their personal center from the avatar menu, changes e-mail and password, and signs in with the new one', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.editor);
      assert.ok(!(await menuPaths(page)).some((p) => p.startsWith('/setting')), 'the settings menu stays Admin-only');
      await openPersonalCenter(page);
      assert.equal(hashPath(page), '/user/personalCenter');
      await page.getByTestId('profile-username').filter({ hasText: 'editor' }).waitFor();

      await page.locator('input[name="email"]').fill('editor@ev-operator.example');
      await page.getByTestId('profile-save').click();
      await toast(page, '保存成功').waitFor({ timeout: 10_000 });

      // The policy is shown before any request: a password holding the user name is refused.
      await page.locator('input[name="oldPassword"]').fill(USERS.editor.password);
      await page.locator('input[name="newPassword"]').fill('my-editor-pass-2026');
      await page.locator('input[name="repeatPassword"]').fill('my-editor-pass-2026');
      await page.getByTestId('password-save').click();
      await page.getByText('新密码不能包含用户名').waitFor();
      await page.locator('input[name="newPassword"]').fill(EDITOR_NEW);
      await page.locator('input[name="repeatPassword"]').fill(EDITOR_NEW);
      await page.getByTestId('password-save').click();
      await toast(page, '密码').waitFor({ timeout: 15_000 });
      await shot(page, 'staff-01-editor-personal-center');

      await signOut(page);
      // The old password no longer works; the new one does.
      await page.locator('input[name="username"]').fill('editor');
      await page.locator('input[name="password"]').fill(USERS.editor.password);
      await page.locator('button[type="submit"]').click();
      await toast(page, '不正确').waitFor({ timeout: 15_000 });
      await login(page, gateway.url, { username: 'editor', password: EDITOR_NEW });
      await openPersonalCenter(page);
      // The form fills once the profile arrives: wait for it, then read.
      await page.getByTestId('profile-username').filter({ hasText: 'editor' }).waitFor();
      const email = page.locator('input[name="email"]');
      await page.waitForFunction((el) => el.value !== '', await email.elementHandle(), { timeout: 10_000 });
      assert.equal(await email.inputValue(), 'editor@ev-operator.example');
    });
  });

  it("an Admin's avatar menu opens the personal center where the spec's tree puts it", async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await openPersonalCenter(page);
      assert.equal(hashPath(page), '/setting/personalCenter');
    });
  });
});

describe('notices', () => {
  it('an Editor publishes, edits and withdraws a notice; each user reads and clears their own list, kept across reloads', async () => {
    const text = '周五 22:00 起 A 区停车场施工';
    await withBrowser(async (page) => {
      await login(page, gateway.url, { username: 'editor', password: EDITOR_NEW });
      await openAndChoose(page, 'notice-button', 'notice-manage');
      const manager = page.getByTestId('notice-manager');
      await manager.getByTestId('managed-notice').first().waitFor();
      await manager.getByTestId('notice-publish').click();
      const form = page.getByTestId('notice-form');
      await form.getByTestId('dialog-save').click();
      await form.getByText('请填写通知内容').waitFor();
      await form.locator('textarea[name="notice"]').fill(`<b>${text}</b><script>alert(1)</script>`);
      await form.locator('input[name="sender"]').fill('ops@ev-operator.example');
      await form.getByTestId('dialog-save').click();
      await toast(page, '保存成功').waitFor({ timeout: 10_000 });
      const row = manager.getByTestId('managed-notice').filter({ hasText: text });
      await row.waitFor();
      assert.equal(await row.locator('script').count(), 0, 'sanitised by the server');
      await row.getByTestId('notice-edit').click();
      await form.locator('textarea[name="notice"]').fill(`<b>${text}（改为 23:00）</b>`);
      await form.getByTestId('dialog-save').click();
      await manager.getByTestId('managed-notice').filter({ hasText: '改为 23:00' }).waitFor({ timeout: 10_000 });
      await shot(page, 'staff-02-notice-manager');
      await manager.getByTestId('notice-manager-close').click();
      await manager.waitFor({ state: 'detached' });
    });

    // The Admin sees it unread; opening the list reads it; clear all empties
    // the Admin's list only, and a reload brings nothing back.
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      const unread = page.getByTestId('notice-unread');
      await unread.waitFor({ timeout: 10_000 });
      assert.equal(await unread.textContent(), '4', 'three seeded notices and the new one');
      await page.getByTestId('notice-button').click();
      const popover = page.getByTestId('notice-popover');
      await popover.getByText('改为 23:00').waitFor();
      await shot(page, 'staff-03-notices-unread-highlighted');
      await unread.waitFor({ state: 'detached', timeout: 10_000 });
      await page.keyboard.press('Escape');

      await page.reload();
      await page.getByTestId('app-main').waitFor();
      // The bell says when its list has arrived; only then is "no badge" an answer.
      await page.locator('[data-testid="notice-button"][data-loaded="true"]').waitFor();
      assert.equal(await page.getByTestId('notice-unread').count(), 0, 'reading is remembered on the server');
      await page.getByTestId('notice-button').click();
      await popover.getByText('改为 23:00').waitFor();
      await popover.getByTestId('notice-clear').click();
      await toast(page, '清空消息成功').waitFor({ timeout: 10_000 });
      await popover.getByText('暂无消息').waitFor();

      await page.reload();
      await page.getByTestId('app-main').waitFor();
      await page.getByTestId('notice-button').click();
      await page.getByTestId('notice-popover').getByText('暂无消息').waitFor({ timeout: 10_000 });
      await page.getByTestId('notice-popover').getByRole('tab', { name: '邮件' }).click();
      await page.getByTestId('notice-popover').getByText('暂无消息').waitFor();
      await shot(page, 'staff-04-notices-cleared-after-reload');
    });

    // The Editor's own list still has it; the Editor withdraws it for everyone.
    await withBrowser(async (page) => {
      await login(page, gateway.url, { username: 'editor', password: EDITOR_NEW });
      await page.getByTestId('notice-button').click();
      await page.getByTestId('notice-popover').getByText('改为 23:00').waitFor({ timeout: 10_000 });
      await page.getByTestId('notice-manage').click();
      const row = page.getByTestId('notice-manager').getByTestId('managed-notice').filter({ hasText: '改为 23:00' });
      await row.getByTestId('notice-withdraw').click();
      await page.getByRole('button', { name: '确定' }).click();
      await toast(page, '已撤回').waitFor({ timeout: 10_000 });
      await row.waitFor({ state: 'detached' });
    });
    const { api, token } = apiClient(gateway);
    const editor = await token({ username: 'editor', password: EDITOR_NEW });
    const list = await api('GET', '/notice/getList', editor);
    assert.ok(!list.data.list.some((n) => n.notice.includes('改为 23:00')), 'withdrawn from every list');
    const log = await api('GET', '/systemLog/getList?account=editor&pageSize=5', await token(USERS.admin));
    assert.ok(log.data.list.some((e) => e.path === '/notice/withdraw'), 'the withdrawal is in the system log');
  });
});

describe('text in the user language', () => {
  it('the home page has no stale sentence; the system log shows type and result in zh and in en', async () => {
    // A refused sign-in, so the log's first page holds a failure too.
    const { api } = apiClient(gateway);
    assert.equal((await api('POST', '/login/index', null, { username: 'admin', password: 'not-the-password' })).code, 400);
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await page.getByTestId('app-main').getByText('快捷入口').waitFor();
      assert.equal(await page.getByText('运营数据看板将在业务页面完成后在此呈现').count(), 0);

      await page.evaluate(() => (window.location.hash = '#/setting/systemLog'));
      const signIn = page.locator('[data-log-path="/login/index"]').first();
      await signIn.waitFor({ timeout: 10_000 });
      assert.equal(await signIn.getByTestId('log-type').textContent(), '用户名密码登录');
      assert.equal(await signIn.getByTestId('log-result').getAttribute('title'), '成功');
      const failed = page.locator('[data-log-path="/login/index"]').filter({ hasText: '失败' }).first();
      await failed.waitFor();
      assert.match(await failed.getByTestId('log-result').getAttribute('title'), /^失败 400：/);
      await shot(page, 'staff-05-system-log-zh');

      await openAndChoose(page, 'language-switch', 'language-en');
      await signIn.getByTestId('log-type').filter({ hasText: 'Sign in with username and password' }).waitFor({ timeout: 10_000 });
      assert.equal(await signIn.getByTestId('log-result').getAttribute('title'), 'success');
      await shot(page, 'staff-06-system-log-en');

      await page.evaluate(() => (window.location.hash = '#/index'));
      await page.getByTestId('app-main').getByText('Quick links').waitFor();
      assert.equal(await page.getByText('The operations dashboard will appear here').count(), 0);
    });
  });
});
