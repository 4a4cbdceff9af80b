// Expired access tokens are refreshed transparently (a 402 refreshes once, then retries):
// the stored access token is replaced by an expired one of the same session
// (signed with the gateway's secret), then the page reloads.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { expireAccessToken, gatewayForFile, hashPath, launchBrowser, login, newJwtSecret, shot, USERS } from './harness.mjs';

const secret = newJwtSecret();
const gateway = gatewayForFile({ env: { BACKOFFICE_JWT_SECRET: secret } });

it('an expired token is refreshed once and the request retried, without leaving the page', async () => {
  const browser = await launchBrowser();
  const { page } = browser;
  try {
    await login(page, gateway.url, USERS.admin);
    const firstToken = await expireAccessToken(page, secret);
    const calls = [];
    page.on('response', (res) => {
      const path = new URL(res.url()).pathname;
      if (path.startsWith('/partnerapi/')) calls.push(`${res.status()} ${path}`);
    });
    await page.reload();
    await page.getByTestId('home-greeting').waitFor({ timeout: 20_000 });
    assert.equal(hashPath(page), '/index');
    assert.ok(calls.includes('402 /partnerapi/index/userInfo'), `expired token seen: ${calls}`);
    // One refresh for the reload (its single flight is unit-tested).
    assert.equal(calls.filter((c) => c === '200 /partnerapi/refreshToken').length, 1, `refreshed once: ${calls}`);
    assert.ok(calls.indexOf('402 /partnerapi/index/userInfo') < calls.indexOf('200 /partnerapi/index/userInfo'), `retried after: ${calls}`);
    assert.ok(calls.includes('200 /partnerapi/index/userInfo'), `retried: ${calls}`);
    const secondToken = await page.evaluate(() => localStorage.getItem('admin-pro-token'));
    assert.notEqual(secondToken, firstToken);
    await shot(page, '15-after-refresh');
  } finally {
    await browser.close();
  }
});

it('two tabs whose token expired together both recover, and the one-use refresh token is traded once', async () => {
  const browser = await launchBrowser();
  const { page, context } = browser;
  try {
    await login(page, gateway.url, USERS.editor);
    const second = await context.newPage();
    await second.goto(`${gateway.url}/#/index`);
    await second.getByTestId('home-greeting').waitFor({ timeout: 45_000 });
    await expireAccessToken(page, secret);
    const refreshes = [];
    for (const p of [page, second]) {
      p.on('response', (res) => {
        if (new URL(res.url()).pathname === '/partnerapi/refreshToken') refreshes.push(res.status());
      });
    }
    // Both tabs meet the expired token at the same moment.
    await Promise.all([page.reload(), second.reload()]);
    for (const [name, p] of [['first', page], ['second', second]]) {
      // On a timeout, say where the tab is and what the refreshes answered.
      await p
        .getByTestId('home-greeting')
        .waitFor({ timeout: 45_000 })
        .catch((err) => assert.fail(`${name} tab did not show the home page (at ${hashPath(p)}; refreshes answered ${refreshes}): ${err.message}`));
      assert.equal(hashPath(p), '/index', 'still signed in');
    }
    // A second trade of the same refresh token would have ended the session
    // (the server answers 401 and both tabs would be on /login).
    assert.deepEqual(refreshes, [200], `one trade: ${refreshes}`);
    assert.equal(await page.evaluate(() => localStorage.getItem('admin-pro-refresh-token')) === null, false);
  } finally {
    await browser.close();
  }
});
