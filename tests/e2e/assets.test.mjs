// End-to-end checks of the asset pages in real Chromium against the real
// gateway: create a station with a new tariff, register a pile with two
// connectors, see them listed; the editor sees no delete buttons and the
// server refuses the delete.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiClient, clickWhenStill, eventually, gatewayForFile, go, login, shot, USERS, withBrowser } from './harness.mjs';

const gateway = gatewayForFile();

const { api, token } = apiClient(gateway);

/** Picks an option of a Fluent Dropdown by its label. */
async function choose(page, dropdown, option) {
  await dropdown.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('assets', () => {
  it('lists the seeded stations and filters them by status', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/connector/station');
      await page.getByTestId('station-row').first().waitFor({ timeout: 20_000 });
      assert.equal(await page.getByTestId('station-row').count(), 20);
      await shot(page, 'assets-01-stations');
      await choose(page, page.getByRole('combobox', { name: '状态' }), '暂停运营');
      await page.getByTestId('station-search').click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="station-row"]').length === 1);
    });
  });

  it('creates a station with a new tariff, adds a pile with two connectors and sees them listed', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/connector/station');
      await page.getByTestId('station-add').click();
      const form = page.getByTestId('station-form');
      await form.locator('input[name="name"]').fill('南宁民族大道充电站');
      await form.locator('input[name="code"]').fill('NN0001');
      await choose(page, form.getByRole('combobox', { name: '省份' }), '广西壮族自治区');
      await choose(page, form.getByRole('combobox', { name: '城市' }), '南宁市');
      await choose(page, form.getByRole('combobox', { name: '区县' }), '青秀区');
      await form.locator('input[name="address"]').fill('南宁市青秀区民族大道100号');
      await form.locator('input[name="lat"]').fill('95');
      await form.locator('input[name="lng"]').fill('108.366');
      await form.locator('input[name="servicePhone"]').fill('0771-12345678');
      await choose(page, form.getByRole('combobox', { name: '状态' }), '运营中');
      // A bad latitude: marked on its field and focused, nothing sent.
      await page.getByTestId('station-save').click();
      await form.locator('[data-field="lat"]').getByText('纬度须在-90到90之间').waitFor({ timeout: 10_000 });
      await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'lat', null, { timeout: 5000 });
      await shot(page, 'assets-02-bad-latitude');
      await form.locator('input[name="lat"]').fill('22.817');
      await page.getByTestId('station-save').click();

      // Saved: the station's settings open in a new tab.
      await page.getByTestId('station-title').filter({ hasText: '南宁民族大道充电站' }).waitFor({ timeout: 20_000 });
      await form.waitFor({ state: 'hidden' });
      assert.match(decodeURIComponent(page.url()), /connector\/stationdetail\?id=st-/);

      // A new tariff template, assigned to this station.
      await page.getByTestId('tariff-new').click();
      const editor = page.getByTestId('tariff-editor');
      await editor.locator('input[name="tariffName"]').fill('南宁分时电价');
      await editor.locator('input[name="valley-electricity"]').fill('0.3126');
      await editor.locator('input[name="valley-service"]').fill('0.4');
      await editor.locator('input[name="flat-electricity"]').fill('0.6726');
      await editor.locator('input[name="flat-service"]').fill('0.6');
      await page.getByTestId('tariff-save').click();
      await page.getByTestId('detail-tariff').filter({ hasText: '南宁分时电价' }).waitFor({ timeout: 10_000 });

      // A DC pile with two connectors.
      await page.getByTestId('pile-add').click();
      const pile = page.getByTestId('pile-form');
      await pile.locator('input[name="code"]').fill('NNDC000101');
      await pile.locator('input[name="vendor"]').fill('特来电');
      await page.getByTestId('pile-connector-count').selectOption('2');
      await page.getByTestId('pile-save').click();
      await pile.waitFor({ state: 'hidden' });
      await page.getByTestId('pile-card').first().waitFor({ timeout: 10_000 });
      assert.equal(await page.getByTestId('connector-row').count(), 2);
      assert.equal(await page.getByTestId('pile-online').first().innerText(), '离线', 'no heartbeat yet: offline');
      await page.getByTestId('tariff-editor').scrollIntoViewIfNeeded();
      await shot(page, 'assets-03-station-settings');
      await page.getByTestId('pile-card').first().scrollIntoViewIfNeeded();
      await shot(page, 'assets-04-pile');

      // Out of service by hand: allowed on a silent pile, stored, and the UI says nothing reached the charger.
      await page.getByTestId('connector-actions').first().click();
      await clickWhenStill(page.getByRole('menuitem', { name: '停用（维护）' }));
      await page.getByText('充电桩未连接，仅修改了系统中的状态').first().waitFor();
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="connector-status"]')].some((b) => b.textContent === '离线'));
      // The whole pile out of service: the other connector follows.
      const stationId = new URL(page.url()).hash.split('id=')[1];
      await page.getByRole('button', { name: '停用整桩' }).click();
      const admin = await token(USERS.admin);
      await eventually(async () => (await api('GET', `/connector/getList?stationId=${stationId}&status=unavailable`, admin)).data.total === 2, 'both connectors unavailable');

      // The station list shows the counts; the connector list shows both connectors.
      await go(page, '/connector/station');
      await page.getByTestId('station-filter-name').fill('南宁');
      await page.getByTestId('station-search').click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="station-row"]').length === 1);
      const row = await page.getByTestId('station-row').first().innerText();
      assert.match(row, /NN0001/);
      assert.match(row, /南宁分时电价/);
      assert.match(row, /广西壮族自治区 南宁市 青秀区/);
      await shot(page, 'assets-05-station-list');
      await go(page, '/connector/connectors');
      // The station picker asks the server for names starting with what is typed.
      const picker = page.getByTestId('connector-filter-station');
      await picker.click();
      await picker.fill('南宁民族');
      await page.getByRole('option', { name: '南宁民族大道充电站 (NN0001)' }).click();
      // Scoped to this page's table: the kept-alive settings tab holds connector rows too.
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="connector-table"] [data-testid="connector-row"]').length === 2);
      await shot(page, 'assets-06-connectors');
    });
  });

  it('a station open past midnight, in two periods, is entered and shown as such', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/connector/stationdetail?id=st-0003');
      await page.getByTestId('station-edit').click();
      const form = page.getByTestId('station-form');
      const allDay = form.getByTestId('hours-all-day');
      if (await allDay.isChecked()) await allDay.uncheck();
      const periods = form.getByTestId('hours-period');
      // Night hours: 23:00 to 06:00 the next morning, marked as such while typing.
      await periods.nth(0).getByTestId('hours-start').fill('23:00');
      await periods.nth(0).getByTestId('hours-end').fill('06:00');
      await periods.nth(0).getByTestId('hours-next-day').waitFor();
      // A second period that overlaps the night: marked on the field, nothing sent.
      await form.getByTestId('hours-add').click();
      await periods.nth(1).getByTestId('hours-start').fill('05:00');
      await periods.nth(1).getByTestId('hours-end').fill('13:30');
      await page.getByTestId('station-save').click();
      await form.getByText('时段 05:00-13:30 与 23:00-06:00 重叠').waitFor();
      await shot(page, 'assets-07-hours-overlap');
      await periods.nth(1).getByTestId('hours-start').fill('11:00');
      await shot(page, 'assets-08-hours-night-and-noon');
      await page.getByTestId('station-save').click();
      await form.waitFor({ state: 'hidden', timeout: 10_000 });
      await page.getByTestId('station-facts').filter({ hasText: '11:00–13:30, 23:00–次日06:00' }).waitFor({ timeout: 10_000 });
      await shot(page, 'assets-09-hours-on-detail');

      // Stored as the server keeps it, and listed as such.
      const admin = await token(USERS.admin);
      const detail = await api('GET', '/station/getDetail?id=st-0003', admin);
      assert.equal(detail.data.station.openingHours, '11:00-13:30,23:00-06:00');
      await go(page, '/connector/station');
      await page.getByTestId('station-filter-name').fill(detail.data.station.name);
      await page.getByTestId('station-search').click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="station-row"]').length === 1);
      assert.equal(await page.getByTestId('station-hours').first().innerText(), '11:00–13:30, 23:00–次日06:00');
      // The other seeded stations still read their one-period hours.
      await page.getByTestId('station-filter-name').fill('');
      await page.getByTestId('station-search').click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="station-row"]').length === 20);
      const hours = await page.getByTestId('station-hours').allInnerTexts();
      assert.ok(hours.every((h) => ['06:00–23:00', '全天营业', '11:00–13:30, 23:00–次日06:00'].includes(h)), hours.join(' | '));
      await shot(page, 'assets-10-hours-in-list');
    });
  });

  it('a shared tariff edited on one station asks: all its stations or only this one', async () => {
    const admin = await token(USERS.admin);
    // The seeded template shared by the most stations, and two of its stations (not st-0003, edited above).
    const stations = (await api('GET', '/station/getList?pageSize=100', admin)).data.list;
    let shared = null;
    for (const s of stations) {
      if (s.id === 'st-0003') continue;
      const d = (await api('GET', `/station/getDetail?id=${s.id}`, admin)).data;
      if (d.tariffUsage && (!shared || d.tariffUsage.total > shared.tariffUsage.total)) shared = d;
    }
    assert.ok(shared && shared.tariffUsage.total >= 3, 'a template shared by three stations or more');
    const tpl = shared.tariff.template;
    const [here, other, third] = shared.tariffUsage.stations.filter((s) => s.id !== 'st-0003');
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, `/connector/stationdetail?id=${here.id}`);
      // Which stations use it is shown beside the editor.
      const usage = page.getByTestId('tariff-usage');
      await usage.waitFor({ timeout: 20_000 });
      const text = await usage.innerText();
      assert.ok(text.startsWith(`${shared.tariffUsage.total}个站点使用此模板：`), text);
      assert.ok(text.includes(here.name) && text.includes(other.name), text);
      // The tab reads the station's name, not its id.
      await page.getByTestId('tabs-bar').filter({ hasText: `站点设置 (${here.name})` }).waitFor({ timeout: 10_000 });
      assert.ok(!(await page.getByTestId('tabs-bar').innerText()).includes(here.id));

      // Reprice from this station's page: asked which stations it applies to.
      const editor = page.getByTestId('tariff-editor');
      await editor.locator('input[name="flat-service"]').fill('0.7');
      await page.getByTestId('tariff-save').click();
      const ask = page.getByTestId('tariff-apply');
      await ask.waitFor();
      assert.match(await ask.innerText(), new RegExp(`应用于全部${shared.tariffUsage.total}个站点`));
      await shot(page, 'assets-11-tariff-apply-which');
      // Only this station: a copy for it, named after it.
      await page.getByTestId('tariff-apply-this').click();
      await page.getByText(`仅本站使用`).first().waitFor({ timeout: 10_000 });
      await page.getByTestId('detail-tariff').filter({ hasText: here.name }).waitFor({ timeout: 10_000 });
      assert.equal(await page.getByTestId('tariff-usage').innerText(), '仅本站使用此模板');
      await shot(page, 'assets-12-tariff-copy-for-station');
    });
    const mine = (await api('GET', `/station/getDetail?id=${here.id}`, admin)).data;
    assert.notEqual(mine.tariff.template.id, tpl.id);
    assert.equal(mine.tariff.template.prices.flat.service, 7000);
    const theirs = (await api('GET', `/station/getDetail?id=${other.id}`, admin)).data;
    assert.equal(theirs.tariff.template.id, tpl.id);
    assert.equal(theirs.tariff.template.version, tpl.version, 'the other stations were not repriced');
    assert.deepEqual(theirs.tariff.template.prices, tpl.prices);
    assert.equal(theirs.tariffUsage.total, shared.tariffUsage.total - 1);

    // From another station's page, "all": a new version for every station still using it.
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, `/connector/stationdetail?id=${other.id}`);
      await page.getByTestId('tariff-usage').waitFor({ timeout: 20_000 });
      await page.getByTestId('tariff-editor').locator('input[name="flat-service"]').fill('0.65');
      await page.getByTestId('tariff-save').click();
      await page.getByTestId('tariff-apply-all').click();
      await page.getByTestId('tariff-apply').waitFor({ state: 'hidden' });
      await page.getByText('已保存').first().waitFor({ timeout: 10_000 });
      await shot(page, 'assets-13-tariff-all-stations');
    });
    const after = (await api('GET', `/station/getDetail?id=${third.id}`, admin)).data;
    assert.equal(after.tariff.template.id, tpl.id);
    assert.equal(after.tariff.template.version, tpl.version + 1);
    assert.equal(after.tariff.template.prices.flat.service, 6500);
    // No client can do it silently: the server refuses an edit that does not say which.
    const silent = await api('POST', '/tariff/doEdit', admin, after.tariff.template);
    assert.equal(silent.code, 400);
    assert.match(silent.msg, /^apply is required/);
  });

  it('station and pile forms mark the field at fault as it is left and on save', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/connector/station');
      await page.getByTestId('station-add').click();
      const form = page.getByTestId('station-form');
      const field = (name) => form.locator(`[data-field="${name}"]`);
      // The form focuses the first bad field once its message is shown.
      const focusedOn = async (n) => {
        const ok = await page.waitForFunction((x) => document.activeElement?.getAttribute('name') === x, n, { timeout: 5000 }).then(() => true, () => false);
        if (!ok) assert.fail(`focus on ${n} expected, it is on ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200))}`);
      };
      // A 300-character name stops at the server's limit of 50.
      const name = form.locator('input[name="name"]');
      await name.fill('充'.repeat(300));
      assert.equal([...(await name.inputValue())].length, 50);
      await name.pressSequentially('电站');
      assert.equal([...(await name.inputValue())].length, 50);
      // Leaving a required field empty marks it at once.
      await name.fill('');
      await form.locator('input[name="code"]').focus();
      await field('name').getByText('名称不能为空').waitFor();
      assert.equal(await name.getAttribute('aria-invalid'), 'true');
      await shot(page, 'assets-21-required-on-leave');
      // Typing clears the mark.
      await name.fill('南宁五象充电站');
      await field('name').getByText('名称不能为空').waitFor({ state: 'detached' });

      // Everything right but the phone: Save marks the phone and puts the cursor there.
      await form.locator('input[name="code"]').fill('ST0001'); // already the first seeded station's
      await choose(page, form.getByRole('combobox', { name: '省份' }), '广西壮族自治区');
      await choose(page, form.getByRole('combobox', { name: '城市' }), '南宁市');
      await choose(page, form.getByRole('combobox', { name: '区县' }), '良庆区');
      await form.locator('input[name="address"]').fill('南宁市良庆区五象大道1号');
      await form.locator('input[name="lat"]').fill('22.75');
      await form.locator('input[name="lng"]').fill('108.39');
      await form.locator('input[name="servicePhone"]').fill('12345');
      await page.getByTestId('station-save').click();
      await field('servicePhone').getByText('客服电话须为11位手机号').waitFor();
      await focusedOn('servicePhone');
      await shot(page, 'assets-22-bad-phone-focused');
      await form.locator('input[name="servicePhone"]').fill('0771-12345678');

      // The server's 400 about the code (already used) lands on the code field, not in a toast.
      await page.getByTestId('station-save').click();
      await field('code').getByText('站点编号ST0001已被其他站点使用').waitFor({ timeout: 10_000 });
      await focusedOn('code');
      assert.equal(await page.locator('[data-testid="toast"][data-intent="error"]').count(), 0, 'the field says it: no toast');
      await shot(page, 'assets-23-server-field-error');
      await form.locator('input[name="code"]').fill('NN0002');

      // A failure that is no field's (the service briefly unavailable) is a red toast ...
      await page.route('**/partnerapi/station/doAdd', (route) =>
        route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 503, msg: '服务暂不可用，请稍后再试', data: null }) }),
      );
      await page.getByTestId('station-save').click();
      await page.locator('[data-testid="toast"][data-intent="error"]').filter({ hasText: '服务暂不可用' }).waitFor();
      await page.unroute('**/partnerapi/station/doAdd');
      // ... which the next, successful save takes down.
      await page.getByTestId('station-save').click();
      await form.waitFor({ state: 'hidden', timeout: 10_000 });
      await page.getByTestId('station-title').filter({ hasText: '南宁五象充电站' }).waitFor({ timeout: 20_000 });
      await page.locator('[data-testid="toast"][data-intent="error"]').waitFor({ state: 'detached', timeout: 5000 });
      await shot(page, 'assets-24-saved-no-stale-error');

      // The pile form: required code, heartbeat range, vendor length, connector power.
      await page.getByTestId('pile-add').click();
      const pile = page.getByTestId('pile-form');
      const pileField = (n) => page.locator(`[data-field="${n}"]`);
      const vendor = pile.locator('input[name="vendor"]');
      await vendor.fill('x'.repeat(300));
      assert.equal((await vendor.inputValue()).length, 50);
      await pile.locator('input[name="heartbeatIntervalSecs"]').fill('5');
      await page.locator('input[name="c0.maxPowerKw"]').fill('0');
      await page.getByTestId('pile-save').click();
      await pileField('code').getByText('桩编号不能为空').waitFor();
      await pileField('heartbeatIntervalSecs').getByText('心跳间隔(秒)须在10到3600之间').waitFor();
      await pileField('c0.maxPowerKw').getByText('最大功率(kW)须在1到1000之间').waitFor();
      await focusedOn('code');
      await shot(page, 'assets-25-pile-form-marked');
      await pile.locator('input[name="code"]').fill('NN0002DC01');
      await pile.locator('input[name="heartbeatIntervalSecs"]').fill('60');
      await page.locator('input[name="c0.maxPowerKw"]').fill('120');
      await page.getByTestId('pile-save').click();
      await pile.waitFor({ state: 'hidden', timeout: 10_000 });
      await page.getByTestId('pile-card').first().waitFor({ timeout: 10_000 });
    });
  });

  it('the editor sees no delete buttons and the server refuses the delete', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.editor);
      await go(page, '/connector/station');
      await page.getByTestId('station-row').first().waitFor({ timeout: 20_000 });
      assert.equal(await page.getByTestId('station-delete').count(), 0);
      assert.ok((await page.getByTestId('station-add').count()) === 1, 'editors may create');
    });
    const editor = await token(USERS.editor);
    const refused = await api('POST', '/station/doDelete', editor, { id: 'st-0001' });
    assert.equal(refused.code, 403);
    const admin = await token(USERS.admin);
    const withPiles = await api('POST', '/station/doDelete', admin, { id: 'st-0001' });
    assert.equal(withPiles.code, 400);
    assert.match(withPiles.msg, /pile/);
  });
});
