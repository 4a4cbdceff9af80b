// End-to-end: the rough edges an operator met on a walk through the
// product, each checked in Chromium: a refused password said beside its
// field, form limits, the pile dialog's layout and its choices by keyboard
// and by script, the pages on a phone, publishing a notice from the home
// page, the theme drawer on a narrow window, and a browser that cannot run
// the application told so in words.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiClient, gatewayForFile, go, launchBrowser, login, shot, USERS, withBrowser } from './harness.mjs';

const gateway = gatewayForFile();
const { api, token } = apiClient(gateway);

const errorToasts = (page) => page.locator('[data-testid="toast"][data-intent="error"]').count();

/** The boxes of `locator`'s matches that overlap another one, as pairs of indexes. */
async function overlaps(locator) {
  const boxes = await locator.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
  const hits = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 1 && h > 1) hits.push([i, j]);
    }
  }
  return hits;
}

/** How far the page reaches past the viewport's width (0 when it does not scroll sideways). */
const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('forms', () => {
  it("a new user's password refused by the server is said beside the field, in the reader's language", async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/setting/userManagement');
      await page.getByTestId('user-add').click();
      const dialog = page.getByTestId('user-dialog');
      await dialog.getByText('至少12位；不能是常见密码，也不能包含用户名').waitFor();
      await dialog.locator('input[name="username"]').fill('zhao.lei');
      // Twelve characters (the form's own check passes), but among the most common passwords.
      await dialog.locator('input[name="password"]').fill('1qaz2wsx3edc');
      await dialog.getByTestId('dialog-save').click();
      await dialog.locator('[data-field="password"]').getByText('该密码属于最常见的一万个密码之一，请换一个').waitFor({ timeout: 10_000 });
      assert.equal(await errorToasts(page), 0, 'no toast with the raw field name');
      await shot(page, 'edges-01-password-beside-field');
    });
  });

  it('a station name and address keep to the spec limits (50 and 200), in the form and on the server', async () => {
    const admin = await token(USERS.admin);
    const station = (await api('GET', '/station/getList?pageNo=1&pageSize=1', admin)).data.list[0];
    const input = ['id', 'version', 'code', 'name', 'operator', 'provinceCode', 'cityCode', 'districtCode', 'address', 'lat', 'lng', 'openingHours', 'status', 'servicePhone', 'parkingInfo', 'photoUrls', 'tariffId'];
    const edit = { ...Object.fromEntries(input.map((k) => [k, station[k]])), name: 'x'.repeat(300), address: 'y'.repeat(600) };
    const refused = await api('POST', '/station/doEdit', admin, edit);
    assert.equal(refused.code, 400, JSON.stringify(refused));
    assert.deepEqual(refused.data.fields.map((f) => f.field).sort(), ['address', 'name']);
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, `/connector/stationdetail?id=${station.id}`);
      await page.getByTestId('station-edit').click();
      const form = page.getByTestId('station-form');
      await form.locator('input[name="name"]').fill('名'.repeat(300));
      await form.locator('input[name="address"]').fill('址'.repeat(600));
      assert.equal((await form.locator('input[name="name"]').inputValue()).length, 50);
      assert.equal((await form.locator('input[name="address"]').inputValue()).length, 200);
    });
  });

  it('the pile dialog: no field over another on a desktop or a phone; its choices work by keyboard and by script; a short charger password says why', async () => {
    const admin = await token(USERS.admin);
    const station = (await api('GET', '/station/getList?pageNo=1&pageSize=50&status=operating', admin)).data.list.find((s) => s.pileCount > 0);
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ]) {
      await withBrowser(
        async (page) => {
          await login(page, gateway.url, USERS.admin);
          await go(page, `/connector/stationdetail?id=${station.id}`);
          await page.getByTestId('pile-add').click();
          const form = page.getByTestId('pile-form');
          await form.waitFor();
          // The dialog opens with an animation (a scale): boxes measured while it runs
          // do not compare with boxes measured after. Wait for it to end.
          await page.locator('.fui-DialogSurface').evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
          // The fields and the controls in them (a control wider than its field ran into the next one).
          const fields = form.locator(':scope > .fui-Field');
          const controls = form.locator('input, select, button, textarea');
          assert.ok((await fields.count()) >= 9);
          assert.deepEqual(await overlaps(fields), [], `no field overlaps another at ${width} px`);
          assert.deepEqual(await overlaps(controls), [], `no control overlaps another at ${width} px`);
          // Every control inside its field and the dialog (nothing clipped at an edge).
          const surface = await page.locator('.fui-DialogSurface').boundingBox();
          const outside = await controls.evaluateAll(
            (els, right) => els.filter((e) => e.getBoundingClientRect().right > Math.min(right, e.closest('.fui-Field').getBoundingClientRect().right) + 1).length,
            surface.x + surface.width,
          );
          assert.equal(outside, 0, `controls inside their field and the dialog at ${width} px`);
          // The connector rows below: the same rules, hints and all.
          const rows = page.getByTestId('pile-connectors');
          const rowFields = rows.locator('.fui-Field');
          assert.ok((await rowFields.count()) >= 4);
          assert.deepEqual(await overlaps(rowFields), [], `no connector field overlaps another at ${width} px`);
          await shot(page, `edges-02-pile-dialog-${width}`);
          // Inside the dialog's content box (its scroll area clips what passes it),
          // every box read in the same frame.
          const rowOutside = await rows.locator('.fui-Field, input, select').evaluateAll((els) =>
            els
              .filter((e) => {
                const limit = Math.min(e.closest('.fui-DialogContent').getBoundingClientRect().right, e.closest('.fui-Field').getBoundingClientRect().right);
                return e.getBoundingClientRect().right > limit + 1;
              })
              .map((e) => `${e.tagName} ${e.getAttribute('name') ?? e.textContent?.slice(0, 20)}`),
          );
          assert.deepEqual(rowOutside, [], `connector fields inside the dialog at ${width} px`);

          // The connector count: by keyboard, then as a script sets it.
          const count = page.getByTestId('pile-connector-count');
          await count.focus();
          await page.keyboard.press('ArrowDown');
          assert.equal(await count.inputValue(), '2');
          await page.getByLabel('枪数量').selectOption('4');
          await page.locator('input[name="c3.maxPowerKw"]').waitFor();
          await page.getByTestId('pile-registration').selectOption('Pending');
          assert.equal(await page.getByTestId('pile-registration').locator('option:checked').innerText(), '等待');
          await page.getByRole('button', { name: '取消' }).click();

          // A charger password too short: Save says why, beside the field.
          const card = page.getByTestId('pile-card').first();
          await card.getByTestId('pile-password').click();
          await page.getByTestId('password-typed').fill('short-one');
          await page.getByTestId('password-save').click();
          await page.getByTestId('password-field').getByText('密码须为16-40位可打印ASCII字符，不含空格').waitFor();
          await shot(page, `edges-03-password-rule-${width}`);
        },
        { width, height },
      );
    }
  });
});

describe('on a phone (390 × 844)', () => {
  it('the dashboard, the order list and an order do not scroll sideways; the order filter folds', async () => {
    const admin = await token(USERS.admin);
    const order = (await api('GET', '/order/getList?pageSize=1', admin)).data.list[0];
    await withBrowser(
      async (page) => {
        await login(page, gateway.url, USERS.admin);
        await page.getByTestId('home-dashboard').waitFor({ timeout: 20_000 });
        await page.getByTestId('dash-top').waitFor();
        assert.ok((await sideways(page)) <= 0, `the home page fits (${await sideways(page)} px over)`);
        await shot(page, 'edges-04-phone-home');

        await go(page, '/order/orderindex');
        const firstRow = page.locator('.view-pane:visible tbody tr').first();
        await firstRow.waitFor({ timeout: 20_000 });
        // Folded: the dates and the buttons, the orders on the first screen.
        assert.equal(await page.getByTestId('filter-plate').count(), 0, 'the other filters are folded');
        const top = (await firstRow.boundingBox()).y;
        assert.ok(top < 844, `the first order is on the first screen (y ${top})`);
        assert.ok((await sideways(page)) <= 0, 'the order list fits');
        await shot(page, 'edges-05-phone-orders-folded');
        await page.getByTestId('filter-fold').click();
        await page.getByTestId('filter-plate').waitFor();
        await page.getByTestId('filter-fold').click();
        await page.getByTestId('filter-plate').waitFor({ state: 'detached' });

        await go(page, `/order/detail?id=${order.orderNo}`);
        await page.getByTestId('detail-lines').waitFor({ timeout: 20_000 });
        assert.ok((await sideways(page)) <= 0, `the order detail fits (${await sideways(page)} px over)`);
        await shot(page, 'edges-06-phone-order');
      },
      { width: 390, height: 844 },
    );
  });

  it('the header keeps its icons below 992 px, and the theme drawer opens from it', async () => {
    await withBrowser(
      async (page) => {
        await login(page, gateway.url, USERS.admin);
        for (const id of ['search-button', 'notice-button', 'language-switch', 'theme-button']) await page.getByTestId(id).waitFor();
        await page.getByTestId('theme-button').click();
        await page.getByTestId('theme-drawer').waitFor();
        assert.ok((await sideways(page)) <= 0);
        await shot(page, 'edges-07-narrow-theme-drawer');
      },
      { width: 900, height: 700 },
    );
  });
});

describe('notices', () => {
  it('an editor finds how to publish a notice from the home page: at the bell, and in the menu', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.editor);
      // At the bell: found by its name, then a button that says what it does.
      await page.getByRole('button', { name: '通知' }).click();
      await page.getByTestId('notice-popover').getByRole('button', { name: '发布通知' }).click();
      const form = page.getByTestId('notice-form');
      await form.locator('textarea[name="notice"]').fill('充电站周日 02:00-04:00 停电检修');
      await form.getByTestId('dialog-save').click();
      const manager = page.getByTestId('notice-manager');
      await manager.getByTestId('managed-notice').filter({ hasText: '停电检修' }).waitFor({ timeout: 10_000 });
      await shot(page, 'edges-08-notice-from-bell');
      await manager.getByTestId('notice-manager-close').click();

      // In the menu: its own page.
      await page.locator('[data-menu-path="/notice/manage"]').click();
      const notices = page.getByTestId('notice-page');
      await notices.getByTestId('managed-notice').filter({ hasText: '停电检修' }).waitFor({ timeout: 10_000 });
      await notices.getByTestId('notice-publish').click();
      await form.locator('textarea[name="notice"]').fill('新卡办理请到服务台');
      await form.getByTestId('dialog-save').click();
      await notices.getByTestId('managed-notice').filter({ hasText: '新卡办理' }).waitFor({ timeout: 10_000 });
      await shot(page, 'edges-09-notice-page');
    });
    // Those who may not publish (the Test role reads only) see neither.
    const admin = await token(USERS.admin);
    const reader = { username: 'reader.li', password: 'quiet-lantern-12345' };
    const made = await api('POST', '/userManagement/doEdit', admin, { ...reader, roles: ['Test'] });
    assert.equal(made.code, 200, JSON.stringify(made));
    await withBrowser(async (page) => {
      await login(page, gateway.url, reader);
      await page.getByRole('button', { name: '通知' }).click();
      await page.getByTestId('notice-popover').waitFor();
      assert.equal(await page.getByTestId('notice-publish-from-bell').count(), 0);
      assert.equal(await page.locator('[data-menu-path="/notice/manage"]').count(), 0);
    });
  });
});

describe('a browser that cannot run the application', () => {
  it('is told so in words, in Chinese and English, instead of a page stuck loading', async () => {
    // A browser without what the built code uses (as an old one would be).
    await withBrowser(async (page) => {
      await page.addInitScript(() => {
        Object.defineProperty(window, 'structuredClone', { value: undefined, configurable: true });
      });
      await page.goto(`${gateway.url}/`);
      const told = page.getByTestId('browser-unsupported');
      await told.getByText('您的浏览器版本过低，无法运行本系统').waitFor();
      await told.getByText('Your browser cannot run this application').waitFor();
      await shot(page, 'edges-10-unsupported-browser');
    });
    // One that reads modules but not the built code's syntax (the parse error is the point: not checked as a page error).
    const old = await launchBrowser();
    try {
      await old.page.route(/\/static\/index-[^/]*\.js$/, (route) => route.fulfill({ contentType: 'text/javascript', body: 'export const broken = ;' }));
      await old.page.goto(`${gateway.url}/`);
      await old.page.getByTestId('browser-unsupported').getByText('Your browser cannot run this application').waitFor();
    } finally {
      await old.close();
    }
    // One without scripts at all.
    const scriptless = await launchBrowser({ javaScriptEnabled: false });
    try {
      await scriptless.page.goto(`${gateway.url}/`);
      // Playwright's text search skips <noscript>: read the element itself.
      await scriptless.page.getByTestId('noscript').waitFor();
      assert.match(await scriptless.page.getByTestId('noscript').innerText(), /本系统需要启用 JavaScript。This application needs JavaScript turned on\./);
    } finally {
      await scriptless.close();
    }
    // A current browser never sees the message.
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      assert.equal(await page.getByTestId('browser-unsupported').count(), 0);
    });
  });
});
