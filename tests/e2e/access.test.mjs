// Who reaches what, in real Chromium against a gateway set up as a
// production site would be: the template's demo pages off (no role sees
// them, their data endpoints are gone), a 403 page that says which
// permission or role is missing, and the licence guard (the site answers
// on its licensed host, 127.0.0.1 here, and shows a plain disabled page on
// any other, localhost here, until the licence key is entered).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiClient, gatewayForFile, login, menuPaths, shot, USERS, withBrowser } from './harness.mjs';

const KEY = 'e2e-licence-key-0123456789';
const gateway = gatewayForFile({ env: { BACKOFFICE_DEMO_PAGES: '0', BACKOFFICE_ALLOWED_HOSTS: '127.0.0.1', BACKOFFICE_LICENCE_KEY: KEY } });
const { api, token } = apiClient(gateway);
const DEMO = ['/vab', '/other', '/mall', '/error', '/dashboard', '/workbench'];

/** Goes to a hash route that may land outside the layout (the 403 and 404 pages). */
const visit = (page, path) => page.evaluate((p) => (window.location.hash = `#${p}`), path);

describe('access', () => {
  it('with the demo pages off no role sees them, and an editor is told what user management needs', async () => {
    const admin = await token(USERS.admin);
    const made = await api('POST', '/userManagement/doEdit', admin, { username: 'viewer', roles: ['Test'], password: 'quiet-lantern-12345' });
    assert.equal(made.code, 200, JSON.stringify(made));
    const viewer = { username: 'viewer', password: 'quiet-lantern-12345' };
    for (const user of [USERS.admin, viewer]) {
      await withBrowser(async (page) => {
        await login(page, gateway.url, user);
        const paths = await menuPaths(page);
        assert.ok(paths.some((p) => p.startsWith('/order')), `${user.username}: ${paths}`);
        assert.deepEqual(paths.filter((p) => DEMO.some((d) => p.startsWith(d))), [], `${user.username} sees no demo menu`);
        for (const title of ['组件', '其他', '商品列表', '错误页']) assert.equal(await page.getByTestId('app-main').locator('nav, aside').getByText(title, { exact: true }).count(), 0, title);
        await visit(page, '/vab/table/comprehensiveTable');
        await page.getByTestId('error-404').waitFor({ timeout: 10_000 });
        if (user === viewer) await shot(page, 'access-01-no-demo-menus');
      });
    }
    assert.equal((await api('GET', '/table/getList?pageNo=1&pageSize=5', admin)).code, 404, 'the demo data endpoints are gone too');

    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.editor);
      await visit(page, '/setting/userManagement');
      await page.getByTestId('error-403').waitFor({ timeout: 10_000 });
      await page.getByTestId('error-403-missing').filter({ hasText: '打开“用户管理”需要：角色 Admin。' }).waitFor();
      assert.equal(await page.getByText('用户得到授权，但是访问是被禁止的').count(), 0);
      await shot(page, 'access-02-editor-403');
      // A call refused for a permission: the server names it, the page says it.
      const refused = await api('GET', '/userManagement/getList', await token(USERS.editor));
      assert.equal(refused.code, 403);
      assert.equal(refused.data.permission, 'manage:settings');
      await visit(page, `/403?permission=${refused.data.permission}`);
      await page.getByTestId('error-403-missing').filter({ hasText: '缺少权限：管理系统设置（用户、角色、菜单、系统日志）（manage:settings）。' }).waitFor();
    });
  });

  it('on a host the site is not licensed for, a plain page says so until the key is entered', async () => {
    const other = gateway.url.replace('127.0.0.1', 'localhost');
    await withBrowser(async (page) => {
      await page.goto(`${other}/`);
      await page.getByTestId('licence-disabled').waitFor({ timeout: 10_000 });
      await page.getByText('本系统未授权在此域名下使用').first().waitFor();
      assert.equal(await page.locator('#root').count(), 0, 'the SPA is not served');
      const api = await page.evaluate(async () => (await fetch('/partnerapi/publicKey', { headers: { 'accept-language': 'zh-CN' } })).status);
      assert.equal(api, 403, 'the API refuses too');
      await shot(page, 'access-03-licence-disabled');
      await page.getByTestId('licence-key').fill('not-the-key-but-long');
      await page.getByTestId('licence-unlock').click();
      await page.getByTestId('licence-wrong').waitFor();
      await page.getByTestId('licence-key').fill(KEY);
      await page.getByTestId('licence-unlock').click();
      // Unlocked for this host: the SPA's sign-in, and signing in works.
      await page.locator('input[name="username"]').waitFor({ timeout: 20_000 });
      await login(page, other, USERS.admin);
    });
    // The licensed host never sees the page.
    await withBrowser(async (page) => {
      await page.goto(`${gateway.url}/#/login`);
      await page.locator('input[name="username"]').waitFor({ timeout: 20_000 });
      assert.equal(await page.getByTestId('licence-disabled').count(), 0);
    });
  });
});
