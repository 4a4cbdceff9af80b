// End-to-end checks of the admin shell (login, roles, tabs, language, theme, header) in
// real Chromium against the real local gateway.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openAndChoose, gatewayForFile, go, hashPath, login, menuPaths, shot, until, USERS, viewReady, withBrowser } from './harness.mjs';

const gateway = gatewayForFile();


describe('login', () => {
  it('a wrong password shows the server error and stays on /login', async () => {
    await withBrowser(async (page) => {
      await page.goto(`${gateway.url}/#/login`);
      await shot(page, '01-login');
      // The point-5 validators run first.
      await page.locator('button[type="submit"]').click();
      await page.getByText('用户名不能为空').waitFor();
      await page.getByText('密码不能少于6位').waitFor();
      await page.locator('input[name="username"]').fill('admin');
      await page.locator('input[name="password"]').fill('wrong-password');
      await page.locator('button[type="submit"]').click();
      await page.getByTestId('toast').filter({ hasText: '帐号或密码不正确' }).waitFor({ timeout: 10_000 });
      await shot(page, '02-login-wrong-password');
      assert.match(hashPath(page), /^\/login/);
    });
  });

  it('without a token a protected page goes to login and the redirect query is honoured', async () => {
    await withBrowser(async (page) => {
      await page.goto(`${gateway.url}/#/vab/form/input`);
      await page.waitForFunction(() => window.location.hash.startsWith('#/login'));
      assert.equal(hashPath(page), '/login?redirect=%2Fvab%2Fform%2Finput');
      await page.locator('input[name="username"]').fill(USERS.admin.username);
      await page.locator('input[name="password"]').fill(USERS.admin.password);
      await page.locator('button[type="submit"]').click();
      await page.getByTestId('keepalive-filter').waitFor({ timeout: 20_000 });
      assert.equal(hashPath(page), '/vab/form/input');
    });
  });
});

describe('roles', () => {
  it('admin sees every section and the home greeting', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await page.waitForFunction(() => window.location.hash === '#/index');
      await page.getByTestId('home-greeting').waitFor();
      const text = await page.getByTestId('home-greeting').innerText();
      assert.match(text, /(早上好|上午好|中午好|下午好|晚上好)，admin/);
      assert.equal(await page.title(), '首页 - 新能源管理系统');
      const paths = await menuPaths(page);
      for (const p of ['/', '/order', '/connector', '/money', '/setting', '/vab', '/other', '/mall/goods', '/error']) assert.ok(paths.includes(p), `admin menu has ${p}`);
      await shot(page, '03-admin-home');
    });
  });

  it('editor does not get the Admin-only and except-Editor sections', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.editor);
      const paths = await menuPaths(page);
      for (const p of ['/order', '/connector', '/money', '/vab']) assert.ok(paths.includes(p), `editor menu has ${p}`);
      for (const p of ['/other', '/mall/goods']) assert.ok(!paths.includes(p), `editor menu lacks ${p}`);
      // Open the components section: the table (except Editor) is not there.
      await page.locator('[data-menu-path="/vab"]').click();
      const vab = await menuPaths(page);
      assert.ok(vab.includes('/vab/form'));
      assert.ok(!vab.includes('/vab/table'), 'no table section for Editor');
      assert.ok(!vab.includes('/vab/editor'), 'no editor section for Editor');
      await shot(page, '04-editor-menu');
      // A page of the menu the editor may not open is a 403 saying so, not a blank page.
      await page.evaluate(() => (window.location.hash = '#/other/count'));
      await page.waitForFunction(() => window.location.hash.startsWith('#/403?path=%2Fother%2Fcount'));
      await page.getByTestId('error-403').waitFor();
      // One no menu has is a 404.
      await page.evaluate(() => (window.location.hash = '#/nope/nothing'));
      await page.waitForFunction(() => window.location.hash === '#/404');
      await page.getByTestId('error-404').waitFor();
    });
  });
});

describe('tabs and keep-alive', () => {
  it('opens several pages as tabs, keeps a typed filter, and close-others keeps the pinned home tab', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/vab/form/input');
      const filter = page.getByTestId('keepalive-filter');
      await filter.fill('station 42');
      await go(page, '/other/count');
      await page.getByTestId('count-value').waitFor();
      await go(page, '/other/timeline');
      // Its tab exists once its view has rendered; a next address before that replaces it.
      await viewReady(page);
      await go(page, '/order/orderindex');
      await page.getByTestId('filter-plate').waitFor({ timeout: 20_000 });
      const tabs = () => page.$$eval('[data-tab-path]', (els) => els.map((e) => e.getAttribute('data-tab-path')));
      assert.deepEqual(await tabs(), ['/index', '/vab/form/input', '/other/count', '/other/timeline', '/order/orderindex']);
      // The home tab is not closable.
      assert.equal(await page.locator('[data-tab-path="/index"] [data-testid="tab-close"]').count(), 0);
      await shot(page, '05-tabs');

      // Back to the input page by its tab: the typed filter survived.
      await page.locator('[data-tab-path="/vab/form/input"]').click();
      await page.waitForFunction(() => window.location.hash === '#/vab/form/input');
      await page.locator('[data-tab-path="/vab/form/input"][aria-selected="true"]').waitFor();
      assert.equal(await page.getByTestId('keepalive-filter').inputValue(), 'station 42');

      // Clicking the active tab reloads the view (state gone).
      await page.locator('[data-tab-path="/vab/form/input"]').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="keepalive-filter"]')?.value === '');

      // Close one tab with its x.
      await page.locator('[data-tab-path="/other/timeline"] [data-testid="tab-close"]').click();
      assert.deepEqual(await tabs(), ['/index', '/vab/form/input', '/other/count', '/order/orderindex']);

      // Close others from the tab's context menu: the non-closable home stays.
      await page.locator('[data-tab-path="/other/count"]').click({ button: 'right' });
      await page.getByTestId('tabs-close-others').click();
      await page.waitForFunction(() => document.querySelectorAll('[data-tab-path]').length === 2);
      assert.deepEqual(await tabs(), ['/index', '/other/count']);
      assert.equal(hashPath(page), '/other/count');

      // Close all: only home remains and it becomes active.
      await page.getByTestId('tabs-more').click();
      await page.getByTestId('tabs-close-all').click();
      await page.waitForFunction(() => window.location.hash === '#/index');
      // The address changes first; the tab bar follows in the next render.
      await page.waitForFunction(() => document.querySelectorAll('[data-tab-path]').length === 1);
      assert.deepEqual(await tabs(), ['/index']);
    });
  });

  it('a hidden dynamic-new-tab route opens one tab per instance and highlights its list menu', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/order/detail?id=1');
      await go(page, '/order/detail?id=2');
      // The address changes first; the tab bar follows in the next render.
      await page.locator('[data-tab-path="/order/detail?id=2"][aria-selected="true"]').waitFor();
      const tabs = await page.$$eval('[data-tab-path]', (els) => els.map((e) => e.getAttribute('data-tab-path')));
      assert.deepEqual(tabs, ['/index', '/order/detail?id=1', '/order/detail?id=2']);
      await page.locator('a[data-menu-path="/order/orderindex"][aria-current="page"]').waitFor();
      const crumbs = await page.getByTestId('breadcrumb').innerText();
      assert.match(crumbs, /订单管理\s*>\s*订单详情/);
      await shot(page, '06-dynamic-new-tab');
    });
  });
});

describe('language and theme', () => {
  it('switching to English changes the title and the menu, and persists', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await openAndChoose(page, 'language-switch', 'language-en');
      await until(page, () => document.documentElement.lang === 'en', null, 'the page in English');
      await until(page, () => document.title === 'Home - new-energy management system', null, 'the English title');
      await until(page, () => /Components/.test(document.querySelector('[data-testid="side-menu"]')?.innerText) && /Orders/.test(document.querySelector('[data-testid="side-menu"]')?.innerText), null, 'the menu in English');
      await shot(page, '07-english');
      await page.reload();
      await page.getByTestId('app-main').waitFor();
      await until(page, () => document.title === 'Home - new-energy management system', null, 'the English title after a reload');
    });
  });

  it('a saved theme and layout persist across a reload', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await page.getByTestId('theme-button').click();
      await page.getByTestId('theme-drawer').waitFor();
      await page.getByTestId('theme-themeName').selectOption('blue-black');
      await page.getByTestId('theme-layout').selectOption('vertical');
      await shot(page, '08-theme-drawer');
      await page.getByTestId('theme-save').click();
      await page.getByTestId('theme-drawer').waitFor({ state: 'detached' });
      await page.reload();
      await page.getByTestId('app-main').waitFor();
      assert.ok(await page.evaluate(() => document.body.classList.contains('vab-theme-blue-black')));
      assert.equal(await page.locator('[data-layout="vertical"]').count(), 1);
      const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('admin-pro-theme')));
      assert.equal(stored.themeName, 'blue-black');
      await shot(page, '09-theme-blue-black-vertical');
    });
  });
});

describe('layouts (screenshots for review)', () => {
  for (const layout of ['common', 'vertical', 'horizontal', 'column', 'comprehensive', 'float']) {
    it(`renders the ${layout} layout`, async () => {
      await withBrowser(async (page) => {
        await login(page, gateway.url, USERS.admin);
        await page.evaluate((l) => localStorage.setItem('admin-pro-theme', JSON.stringify({ layout: l, themeName: l === 'float' ? 'ocean' : 'green-white' })), layout);
        await page.goto(`${gateway.url}/#/vab/form/input`);
        await page.reload();
        await page.locator(`[data-layout="${layout}"]`).waitFor();
        await page.getByTestId('keepalive-filter').waitFor();
        await shot(page, `10-layout-${layout}`);
      });
    });
  }

  it('below 992 px the layout is vertical with a folding mobile sidebar', async () => {
    await withBrowser(
      async (page) => {
        await login(page, gateway.url, USERS.admin);
        await page.locator('[data-layout="vertical"]').waitFor();
        await shot(page, '11-mobile');
        await page.getByTestId('fold-button').click();
        await page.getByTestId('mobile-backdrop').waitFor();
        await shot(page, '12-mobile-menu-open');
      },
      { width: 390, height: 844 },
    );
  });
});

describe('header', () => {
  it('search suggests menu entries and opens the chosen page', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await page.getByTestId('search-button').click();
      await page.getByTestId('search-dialog').waitFor();
      await page.getByTestId('search-dialog').locator('input').fill('输入');
      const option = page.getByRole('option').first();
      await option.waitFor({ timeout: 5000 });
      await shot(page, '13-search');
      await option.click();
      await page.waitForFunction(() => window.location.hash === '#/vab/form/input');
    });
  });

  it('search finds pages by English title and records by number or code, else offers a web search', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.editor);
      const token = await page.evaluate(() => localStorage.getItem('admin-pro-token'));
      const api = async (path) => (await (await fetch(`${gateway.url}/partnerapi${path}`, { headers: { authorization: `Bearer ${token}` } })).json()).data;
      const orderNo = (await api('/order/getList?pageSize=1')).list[0].orderNo;
      const stationList = (await api('/station/getList?pageSize=1')).list;
      const pileCode = (await api(`/pile/getList?stationId=${stationList[0].id}`)).list[0].code;
      const dialog = page.getByTestId('search-dialog');
      const searchFor = async (keyword) => {
        await page.getByTestId('search-button').click();
        await dialog.waitFor();
        await dialog.locator('input').fill(keyword);
      };

      // An English page title in the Chinese UI.
      await searchFor('charging orders');
      await dialog.getByRole('option', { name: /充电订单/ }).first().waitFor({ timeout: 5000 });
      await page.keyboard.press('Escape');

      // An order number as printed on a receipt (any case): its detail page.
      await searchFor(orderNo.toLowerCase());
      const order = dialog.getByRole('option').first();
      await order.getByText(`订单 ${orderNo}`).waitFor({ timeout: 5000 });
      await shot(page, '13-search-order');
      await order.click();
      await page.waitForFunction((no) => window.location.hash === `#/order/detail?id=${no}`, orderNo);
      await page.getByText(orderNo).first().waitFor();

      // A pile code read off the charger: its station's page.
      await searchFor(pileCode);
      await dialog.getByRole('option').first().getByText(`充电桩 ${pileCode}`).waitFor({ timeout: 5000 });
      await dialog.getByRole('option').first().click();
      await page.waitForFunction((id) => window.location.hash === `#/connector/stationdetail?id=${id}`, stationList[0].id);

      // Nothing matches: a web search is offered.
      await searchFor('qqzzxx-nothing');
      await dialog.getByRole('option', { name: '在网上搜索“qqzzxx-nothing”' }).waitFor({ timeout: 5000 });
    });
  });

  it('notice popover lists notices and clears them', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await page.getByTestId('notice-button').click();
      await page.getByTestId('notice-popover').waitFor();
      await shot(page, '14-notice');
      // The header stays in sight under its open popover (nothing of the portal covers it).
      const covered = await page.evaluate(() =>
        ['logo', 'user-menu'].filter((id) => {
          const box = document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect();
          const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          return !top?.closest(`[data-testid="${id}"]`);
        }),
      );
      assert.deepEqual(covered, [], 'header items hidden under the open popover');
      await page.getByRole('button', { name: '清空消息' }).click();
      await page.getByTestId('toast').filter({ hasText: '清空消息成功' }).waitFor();
    });
  });

  it('logout returns to login and drops the session', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await openAndChoose(page, 'user-menu', 'logout');
      await page.waitForFunction(() => window.location.hash.startsWith('#/login'));
      assert.equal(await page.evaluate(() => localStorage.getItem('admin-pro-token')), null);
    });
  });
});

describe('demo pages that exercise the shell', () => {
  it('a parameter route keeps one tab whose view follows the id; its section redirects to test1/1', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/other/dynamicSegment');
      await page.waitForFunction(() => window.location.hash === '#/other/dynamicSegment/test1/1');
      await page.getByTestId('segment-id').filter({ hasText: '1' }).waitFor();
      await page.getByRole('button', { name: '前往 id 2' }).click();
      await page.getByTestId('segment-id').filter({ hasText: '2' }).waitFor();
      const tabs = await page.$$eval('[data-tab-path]', (els) => els.map((e) => e.getAttribute('data-tab-path')));
      assert.deepEqual(tabs, ['/index', '/other/dynamicSegment/test1/:id']);
    });
  });

  it('an error in a view is shown in place and recorded in the error log', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      assert.equal(await page.getByTestId('error-log-button').count(), 0, 'no error-log badge without errors');
      await go(page, '/other/log');
      await page.getByTestId('trigger-error').click();
      await page.getByTestId('error-log-button').click();
      await page.getByText('Simulated error from the error-log demo').first().waitFor();
      await shot(page, '16-error-log');
      await page.getByRole('button', { name: '暂不显示' }).click();
      await page.getByTestId('error-log-button').waitFor({ state: 'detached' });
    });
  });

  it('a page whose code does not load shows a retry in its tab, and the retry loads the page', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      // The charging-card page's chunk fails, as on a dropped connection or after a deploy.
      const chunk = /\/static\/ChargingCards-[\w-]+\.js(\?.*)?$/;
      let refused = 0;
      await page.route(chunk, (route) => {
        refused += 1;
        return route.abort('connectionreset');
      });
      await go(page, '/connector/cards');
      const retry = page.getByTestId('chunk-retry');
      await retry.waitFor({ timeout: 20_000 });
      assert.ok(refused >= 1, 'the chunk was asked for');
      assert.match(await retry.innerText(), /页面未能加载/);
      // Only this tab: the shell, its menu and tabs are all there.
      await page.getByTestId('app-main').waitFor();
      await shot(page, '18-chunk-failed-retry');
      // The network is back: the retry loads the page in place.
      await page.unroute(chunk);
      await page.getByTestId('chunk-retry-button').click();
      await page.getByTestId('card-table').waitFor({ timeout: 20_000 });
      assert.equal(await retry.count(), 0);
      await shot(page, '19-chunk-retried');
    });
  });

  it('the station list: filters in a 14-of-24 left panel (full width on small screens) and a table filling the page', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/connector/station');
      await page.getByTestId('station-row').first().waitFor({ timeout: 20_000 });
      const measure = () =>
        page.evaluate(() => {
          const box = (id) => document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect();
          const pane = document.querySelector('[data-testid="station-query"]');
          return {
            form: pane.getBoundingClientRect().width,
            left: pane.querySelector('[data-testid="query-form-left"]').getBoundingClientRect().width,
            scroll: box('station-table-scroll').height,
            rows: Number(pane.getAttribute('data-rows')),
            viewport: window.innerHeight,
          };
        });
      // The table's height follows the window and the filter rows through separate
      // renders: wait for the frame where the table has the height the rule gives for the
      // rows shown (a table that never follows fails here on the timeout).
      const tableFollowsRows = (minRows) =>
        page.waitForFunction((min) => {
          const pane = document.querySelector('[data-testid="station-query"]');
          const rows = Number(pane.getAttribute('data-rows'));
          const scroll = document.querySelector('[data-testid="station-table-scroll"]').getBoundingClientRect().height;
          return rows >= min && Math.round(scroll) === window.innerHeight - 291 - 60 * (rows - 1);
        }, minRows);
      await tableFollowsRows(1);
      const wide = await measure();
      assert.ok(Math.abs(wide.left / wide.form - 14 / 24) < 0.01, `left panel ${wide.left} of ${wide.form}`);
      // 20 rows do not fit in 900 px: the table takes the window less 291 px, less 60 px per
      // extra row of filters (the 14-column panel wraps them into two at 1440 px), and scrolls inside.
      assert.equal(Math.round(wide.scroll), wide.viewport - 291 - 60 * (wide.rows - 1));
      await shot(page, '20-query-form-and-table-height');
      await page.setViewportSize({ width: 800, height: 900 });
      await page.waitForFunction(() => {
        const pane = document.querySelector('[data-testid="station-query"]');
        return Math.abs(pane.querySelector('[data-testid="query-form-left"]').getBoundingClientRect().width - pane.getBoundingClientRect().width) < 1;
      });
      // The actions wrap under the filters: more rows, 60 px less table for each.
      await tableFollowsRows(wide.rows + 1);
      const narrow = await measure();
      assert.ok(narrow.rows > wide.rows, `${narrow.rows} rows on a small screen, ${wide.rows} wide`);
      assert.equal(Math.round(narrow.scroll), narrow.viewport - 291 - 60 * (narrow.rows - 1));
      await shot(page, '21-query-form-small-screen');
    });
  });

  it('random theme shows the mask for about a second and saves a different theme', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      // The page itself notes when the mask comes and goes: a poll from
      // here can miss a one-second mask on a busy machine.
      await page.evaluate(() => {
        const seen = (window.__mask = {});
        new MutationObserver(() => {
          const shown = document.querySelector('[data-testid="loading-mask"]') !== null;
          if (shown && seen.shownAt === undefined) seen.shownAt = performance.now();
          if (!shown && seen.shownAt !== undefined && seen.goneAt === undefined) seen.goneAt = performance.now();
        }).observe(document.body, { childList: true, subtree: true, attributes: true });
      });
      await page.getByTestId('side-random-theme').click();
      await page.waitForFunction(() => window.__mask.goneAt !== undefined);
      const { shownAt, goneAt } = await page.evaluate(() => window.__mask);
      assert.ok(goneAt - shownAt >= 950, `the mask showed for ${Math.round(goneAt - shownAt)} ms`);
      const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('admin-pro-theme')));
      assert.notEqual(stored.themeName, 'green-white');
      assert.notEqual(stored.layout, 'common');
      await shot(page, '17-random-theme');
    });
  });
});
