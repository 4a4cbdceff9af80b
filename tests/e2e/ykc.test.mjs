// End-to-end: a 云快充 (YKC) pile as an operator meets it, in real Chromium
// against the real gateway (listening for YKC piles on a TCP port of its
// own), with a pile scripted from the specification (tests/e2e/ykc_pile.py
// on tests/ykc/pile.py's primitives): register it through the pile dialog
// and read where to point it, the pile logs in, heartbeats, asks its
// tariff and charges a card; the pile shows online, the order is listed
// with its amount and its curve, the message log names each frame with
// its raw bytes behind a disclosure.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiClient, clickWhenStill, eventually, gatewayForFile, go, login, shot, USERS, withBrowser } from './harness.mjs';

const gateway = gatewayForFile();
const { api, token } = apiClient(gateway);

const PILE = '55201612020001';
const CARD = 'D1E2E0001A';

/** The scripted pile (ykc_pile.py) against the gateway's YKC port; `line(re)` waits for what it prints. */
function startYkcPile(number, card) {
  const child = spawn(process.env.E2E_YKC_PYTHON ?? 'python3', [join(import.meta.dirname, 'ykc_pile.py'), '127.0.0.1', String(gateway.ykcPort), number, card], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const line = (re, what) =>
    eventually(() => {
      if (child.exitCode !== null && !re.test(out)) throw new Error(`the pile exited (${child.exitCode}): ${out}`);
      return re.exec(out);
    }, what, { timeout: 30_000 });
  return {
    line,
    output: () => out,
    stop: () => child.exitCode === null && child.kill('SIGTERM'),
  };
}

describe('YKC pile', () => {
  it('a YKC 1.6 pile registered in the dialog logs in, charges a card, and shows as an order and as frames', async () => {
    const admin = await token(USERS.admin);
    const stations = await api('GET', '/station/getList?pageNo=1&pageSize=50&status=operating', admin);
    const station = stations.data.list.find((s) => s.tariffId);
    const card = await api('POST', '/card/doAdd', admin, { idTag: CARD, holder: '云快充司机', plate: '苏A6E2E1', status: 'Accepted', expiresAt: null, parentIdTag: null });
    assert.equal(card.code, 200, JSON.stringify(card));
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, `/connector/stationdetail?id=${station.id}`);

      // Register it: YKC 1.6, its 14-digit pile number, and where to point it.
      await page.getByTestId('pile-add').click();
      const form = page.getByTestId('pile-form');
      const protocols = await page.getByTestId('pile-ocpp-version').locator('option').allInnerTexts();
      assert.deepEqual(protocols, ['OCPP 1.6J', 'OCPP 2.0.1', '云快充 YKC 1.5', '云快充 YKC 1.6']);
      assert.match(await page.getByTestId('pile-address-value').innerText(), /^ws:\/\/127\.0\.0\.1:\d+\/ocpp\/…$/, 'an OCPP charger is pointed to the WebSocket URL');
      await page.getByTestId('pile-ocpp-version').selectOption('ykc1.6');
      const code = form.locator('[data-field="code"]');
      await code.getByText('桩编号（14 位数字）').waitFor();
      await form.locator('input[name="code"]').fill('E2EYKC01');
      await form.locator('input[name="vendor"]').click();
      await code.getByText('须为 14 位数字').waitFor();
      await form.locator('input[name="code"]').fill(PILE);
      await form.locator('input[name="vendor"]').fill('E2E 云快充');
      await page.getByTestId('pile-connector-count').selectOption('2');
      assert.equal(await page.getByTestId('pile-address-value').innerText(), `127.0.0.1:${gateway.ykcPort}`);
      assert.equal(await page.getByTestId('pile-security').count(), 0, 'a YKC pile has no security profile');
      await shot(page, 'ykc-01-pile-dialog');
      await page.getByTestId('pile-save').click();
      await form.waitFor({ state: 'hidden' });

      const card = page.getByTestId('pile-card').filter({ hasText: PILE });
      await card.waitFor({ timeout: 10_000 });
      assert.equal(await card.getByTestId('pile-protocol').innerText(), '云快充 YKC 1.6');
      assert.equal(await card.getByTestId('link-ocpp-version').innerText(), '登记为 云快充 YKC 1.6');
      assert.equal(await card.getByTestId('charger-url').innerText(), `127.0.0.1:${gateway.ykcPort}`);
      assert.equal(await card.getByTestId('link-state').innerText(), '从未连接');
      // Only what YKC has: no password, trigger, unlock, configuration or certificates.
      for (const id of ['pile-password', 'cmd-trigger', 'cmd-get-configuration', 'pile-device-model', 'charger-certificates']) assert.equal(await card.getByTestId(id).count(), 0, `no ${id}`);
      await card.getByTestId('cmd-more').click();
      await page.getByRole('menuitem', { name: '远程启动充电' }).waitFor();
      const forms = await page.getByRole('menuitem').allInnerTexts();
      assert.ok(forms.includes('远程启动充电'), forms.join());
      for (const ocppOnly of ['修改配置', '安装根证书', '触发上报（安全扩展）']) assert.ok(!forms.includes(ocppOnly), `no ${ocppOnly}: ${forms}`);
      await page.keyboard.press('Escape');
      const pileId = (await api('GET', `/station/getDetail?id=${station.id}`, admin)).data.piles.find((p) => p.code === PILE).id;

      // The pile logs in, heartbeats, asks its tariff and charges the card.
      const pile = startYkcPile(PILE, CARD);
      try {
        await pile.line(/^online$/m, 'the pile charged and stays online').catch((e) => assert.fail(`${e.message}: ${pile.output()}`));
        const pileAmount = Number(/session done (\d+)/.exec(pile.output())[1]);
        const record = /^record ([0-9A-F]+)$/m.exec(pile.output())[1];

        await page.reload();
        const live = page.getByTestId('pile-card').filter({ hasText: PILE });
        await live.getByTestId('link-state').filter({ hasText: '已连接' }).waitFor({ timeout: 15_000 });
        await live.getByTestId('pile-online').filter({ hasText: '在线' }).waitFor({ timeout: 15_000 });
        await live.scrollIntoViewIfNeeded();
        await shot(page, 'ykc-02-pile-online');

        // The order: listed with its amount (the pile's own bill, to the fen), and its curve.
        const order = await eventually(async () => {
          const list = await api('GET', `/order/getList?userId=${CARD}&pageSize=50`, admin);
          return list.data.list.find((o) => o.pileId === pileId && o.status !== 'charging');
        }, 'the session closed as an order').catch((e) => assert.fail(`${e.message}: ${pile.output()}`));
        assert.equal(order.energyWh, 25_679);
        assert.equal(order.amountFen, Math.round(pileAmount / 100), 'the pile and the product price it alike');
        const amount = (order.amountFen / 100).toFixed(2);
        await go(page, '/order/orderindex');
        await page.getByTestId('order-row').first().waitFor({ timeout: 20_000 });
        await page.getByTestId('filter-orderNo').fill(order.orderNo);
        await page.getByTestId('order-search').click();
        const row = page.getByTestId('order-row').filter({ hasText: order.orderNo });
        // The newest order may be on the first page already: the search is done once it is the only row.
        await page.waitForFunction(() => document.querySelectorAll('[data-testid="order-row"]').length === 1, null, { timeout: 15_000 });
        await row.waitFor({ timeout: 15_000 });
        assert.ok((await row.innerText()).includes(amount), `the row shows ${amount}: ${await row.innerText()}`);
        await shot(page, 'ykc-03-order-list');
        await row.getByTestId('order-link').click();
        await page.getByTestId('detail-order-no').filter({ hasText: order.orderNo }).waitFor({ timeout: 15_000 });
        assert.ok((await page.getByTestId('detail-amount').innerText()).includes(amount), 'the detail shows the amount');
        await page.locator('[data-testid="detail-curve"] svg').first().waitFor({ timeout: 20_000 });
        await page.getByTestId('detail-curve').scrollIntoViewIfNeeded();
        await shot(page, 'ykc-04-order-curve');

        // The message log: each frame by its name, decoded, the bytes behind a disclosure.
        await go(page, `/connector/messageLog?pileId=${pileId}&code=${PILE}`);
        const recordRow = page.locator('[data-testid="log-table"] tr[data-action="TransactionRecord"]');
        await recordRow.first().waitFor({ timeout: 15_000 });
        for (const [action, name] of [['Login', '充电桩登录认证'], ['Heartbeat', '充电桩心跳包'], ['TariffRequest', '充电桩计费模型请求'], ['StartRequest', '充电桩主动申请启动充电'], ['Realtime', '上传实时监测数据'], ['TransactionRecord', '交易记录']]) {
          const r = page.locator(`[data-testid="log-table"] tr[data-action="${action}"]`).first();
          await r.waitFor();
          assert.equal((await r.getByTestId('log-action-name').innerText()).split('\n')[0].trim(), name, `the ${action} frame by its name`);
        }
        assert.match(await recordRow.first().getByTestId('log-frame-type').innerText(), /^0x3B · TransactionRecord$/);
        await recordRow.first().getByRole('button', { name: '详情' }).click();
        const detail = page.getByTestId('log-detail').first();
        await detail.waitFor();
        assert.match(await detail.getByTestId('log-request').innerText(), /"order"/);
        const raw = detail.getByTestId('log-raw');
        assert.equal(await raw.getAttribute('open'), null, 'the bytes wait behind their disclosure');
        await raw.locator('summary').click();
        const hex = (await detail.getByTestId('log-raw-request').innerText()).replace(/\s+/g, '');
        assert.equal(hex, record, 'the record frame as the pile sent it');
        assert.match(await detail.getByTestId('log-raw-response').innerText(), /^68 /, 'and the confirmation the platform answered');
        await detail.scrollIntoViewIfNeeded();
        await shot(page, 'ykc-05-message-log');

        // The operator saves a new version of the station's tariff: it goes to
        // the pile as its new model, and the editor shows the pile took it.
        await go(page, `/connector/stationdetail?id=${station.id}`);
        const editor = page.getByTestId('tariff-editor');
        await editor.waitFor({ timeout: 15_000 });
        const price = editor.locator('input[name$="-electricity"]').first();
        const before = await price.inputValue();
        await price.fill((Number(before) + 0.01).toFixed(4));
        await editor.getByTestId('tariff-save').click();
        const apply = page.getByTestId('tariff-apply');
        if (await apply.isVisible().catch(() => false)) await apply.getByTestId('tariff-apply-all').click();
        const push = editor.getByTestId('tariff-push').filter({ hasText: PILE });
        await push.waitFor({ timeout: 15_000 });
        await editor.locator(`[data-testid="tariff-push"][data-status="answered"]`).filter({ hasText: PILE }).waitFor({ timeout: 30_000 });
        assert.match(await push.innerText(), /已接受|接受/, `the pile took the model: ${await push.innerText()}`);
        await pile.line(/^tariff taken [0-9a-f]{4}$/m, 'the pile took the new model').catch((e) => assert.fail(`${e.message}: ${pile.output()}`));
        await push.scrollIntoViewIfNeeded();
        await shot(page, 'ykc-06-tariff-pushed');

        // The parking lock in front of gun 2, lowered from the panel's operations.
        const panel = page.getByTestId('pile-card').filter({ hasText: PILE });
        await panel.getByTestId('cmd-more').click();
        await clickWhenStill(page.getByRole('menuitem', { name: '升降地锁' }));
        await page.getByTestId('op-connectorId').click();
        await page.getByRole('option', { name: /2/ }).click();
        await page.getByTestId('op-action').click();
        await page.getByRole('option', { name: '降锁（允许停车）' }).click();
        await shot(page, 'ykc-07-parking-lock');
        await page.getByTestId('op-send').click();
        await pile.line(/^parking lock lowered on gun 2$/m, 'the pile lowered the lock').catch((e) => assert.fail(`${e.message}: ${pile.output()}`));
        const lockRow = panel.locator('[data-testid="command-table"] tr[data-action="ParkingLockCommand"]').first();
        await lockRow.waitFor({ timeout: 15_000 });
        await lockRow.getByText('已应答').waitFor({ timeout: 15_000 });

        // The connector list says which protocol each pile speaks.
        const rows = await api('GET', `/connector/getList?stationId=${station.id}&pageNo=1&pageSize=100`, admin);
        assert.deepEqual(rows.data.list.filter((c) => c.pileCode === PILE).map((c) => c.ocppVersion), ['ykc1.6', 'ykc1.6']);
        await go(page, `/connector/connectors?stationId=${station.id}&size=100`);
        const connectorRow = page.locator('[data-testid="connector-table"] [data-testid="connector-row"]').filter({ hasText: PILE }).first();
        await connectorRow.waitFor({ timeout: 15_000 });
        assert.ok((await connectorRow.innerText()).includes('云快充 YKC 1.6'), await connectorRow.innerText());
        await connectorRow.scrollIntoViewIfNeeded();
        await shot(page, 'ykc-08-connector-protocol');
      } finally {
        pile.stop();
      }
    });
  });
});
