// End-to-end: the charger link as an operator uses it, in real Chromium
// against the real gateway, with a charger scripted by the PyPI `ocpp`
// package (tests/e2e/charger.py): create a pile, set its password, the
// charger connects and runs a session, the pile shows connected, the
// order appears with its curve, the message log shows the exchange, and
// remote operations are answered; charging cards are managed on their page.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiClient, clickWhenStill, eventually, gatewayForFile, go, login, shot, startCharger, USERS, withBrowser } from './harness.mjs';

const gateway = gatewayForFile();
const { api, token } = apiClient(gateway);

async function choose(page, dropdown, option) {
  await dropdown.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('charger link', () => {
  it('an operator connects a new pile, sees its session as an order and the message log, and acts on it', async () => {
    const admin = await token(USERS.admin);
    const stations = await api('GET', '/station/getList?pageNo=1&pageSize=50&status=operating', admin);
    const station = stations.data.list.find((s) => s.tariffId);
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, `/connector/stationdetail?id=${station.id}`);
      await page.getByTestId('pile-add').click();
      const form = page.getByTestId('pile-form');
      await form.locator('input[name="code"]').fill('E2ECP0001');
      await page.getByTestId('pile-connector-count').selectOption('2');
      await page.getByTestId('pile-save').click();
      await form.waitFor({ state: 'hidden' });
      const card = page.getByTestId('pile-card').filter({ hasText: 'E2ECP0001' });
      await card.waitFor({ timeout: 10_000 });
      assert.match(await card.getByTestId('charger-url').innerText(), /\/ocpp\/E2ECP0001$/);
      assert.equal(await card.getByTestId('link-state').innerText(), '从未连接');

      // The password: generated, shown once.
      await card.getByTestId('pile-password').click();
      await page.getByTestId('password-generate').click();
      const password = (await page.getByTestId('password-once').innerText()).trim();
      assert.match(password, /^[\x21-\x7e]{16,40}$/);
      await shot(page, 'chargers-01-password-once');
      await page.getByTestId('password-dialog').getByRole('button', { name: '关闭' }).click();

      const charger = startCharger(gateway, 'E2ECP0001', password, 'DEMO0012');
      try {
        const tx = await charger.done;
        await page.reload();
        const live = page.getByTestId('pile-card').filter({ hasText: 'E2ECP0001' });
        await live.getByTestId('link-state').filter({ hasText: '已连接' }).waitFor({ timeout: 15_000 });
        assert.match(await live.getByTestId('link-boot').innerText(), /E2E Motors · EV-DC60 · 2.4.1/);
        await live.scrollIntoViewIfNeeded();
        await shot(page, 'chargers-02-connected');

        // Remote operations: read the configuration, reset.
        await live.getByTestId('cmd-get-configuration').click();
        await live.getByTestId('cmd-show-configuration').waitFor({ timeout: 15_000 });
        await live.getByTestId('cmd-show-configuration').click();
        await page.getByTestId('configuration-dialog').getByText('NumberOfConnectors').waitFor();
        await shot(page, 'chargers-03-configuration');
        await page.getByTestId('configuration-dialog').getByRole('button', { name: '关闭' }).click();
        await page.getByTestId('configuration-dialog').waitFor({ state: 'hidden' });
        await live.getByTestId('cmd-reset').click();
        await page.getByRole('menuitem', { name: '软重启' }).waitFor();
        await clickWhenStill(page.getByRole('menuitem', { name: '软重启' }));
        await page.getByTestId('confirm-dialog').getByRole('button', { name: '确定' }).click();
        await live.getByTestId('command-table').getByText('已应答').first().waitFor({ timeout: 15_000 });
        await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="command-table"] tr[data-action="Reset"]')].some((r) => r.textContent.includes('已接受')), null, { timeout: 15_000 });
        await shot(page, 'chargers-04-commands');

        // Change a configuration key: the charger's answer is shown.
        await live.getByTestId('cmd-more').click();
        await page.getByRole('menuitem', { name: '修改配置' }).waitFor();
        await clickWhenStill(page.getByRole('menuitem', { name: '修改配置' }));
        await page.getByTestId('op-key').fill('HeartbeatInterval');
        await page.getByTestId('op-value').fill('120');
        await page.getByTestId('op-send').click();
        await page.getByTestId('operation-dialog').waitFor({ state: 'hidden' });
        await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="command-table"] tr[data-action="ChangeConfiguration"]')].some((r) => r.textContent.includes('已接受')), null, { timeout: 15_000 });

        // Rotate the charger's key: generated by the server, sent to the charger, never shown.
        await live.getByTestId('cmd-more').click();
        await page.getByRole('menuitem', { name: '轮换充电桩密钥' }).waitFor();
        await clickWhenStill(page.getByRole('menuitem', { name: '轮换充电桩密钥' }));
        await page.getByTestId('op-newKey').waitFor();
        assert.equal(await page.getByTestId('op-newKey').getAttribute('type'), 'password');
        await page.getByTestId('op-send').click();
        await page.getByTestId('confirm-dialog').getByRole('button', { name: '确定' }).click();
        await page.getByTestId('operation-dialog').waitFor({ state: 'hidden' });
        await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="command-table"] tr[data-action="ChangeConfiguration"]')].filter((r) => r.textContent.includes('已接受')).length >= 2, null, { timeout: 15_000 });
        const key = /new key ([0-9a-f]{40})/.exec(charger.output())?.[1];
        assert.ok(key, `the charger got a generated key: ${charger.output()}`);
        assert.ok(!(await page.content()).includes(key), 'the page never shows the key');
        const pileId = (await api('GET', `/station/getDetail?id=${station.id}`, admin)).data.piles.find((p) => p.code === 'E2ECP0001').id;
        const commands = await api('GET', `/charger/commands?pileId=${pileId}&pageSize=20`, admin);
        assert.ok(!JSON.stringify(commands).includes(key) && JSON.stringify(commands).includes('"value":"***"'));
        await shot(page, 'chargers-04a-key-rotated');

        // Start a session remotely for a card; the charger starts it.
        await live.getByTestId('cmd-more').click();
        await page.getByRole('menuitem', { name: '远程启动充电' }).waitFor();
        await clickWhenStill(page.getByRole('menuitem', { name: '远程启动充电' }));
        await choose(page, page.getByTestId('op-connectorId'), '2号枪');
        await page.getByTestId('op-idTag').click();
        await page.getByTestId('op-idTag').fill('DEMO0013');
        await page.getByRole('option', { name: /^DEMO0013/ }).click();
        await page.getByTestId('op-send').click();
        await page.getByTestId('operation-dialog').waitFor({ state: 'hidden' });
        await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="command-table"] tr[data-action="RemoteStartTransaction"]')].some((r) => r.textContent.includes('已接受')), null, { timeout: 15_000 });
        await shot(page, 'chargers-04b-remote-start');
        const running = await eventually(async () => {
          const list = await api('GET', '/order/getList?userId=DEMO0013&status=charging&pageSize=50', admin);
          return list.data.list.find((o) => o.pileId && o.transactionId != null && o.connectorId.endsWith('-c2'));
        }, 'a session started remotely').catch((e) => assert.fail(`${e.message}: ${charger.output()}`));
        // The order keeps the charger's own identity: pile code and connector number.
        assert.equal(running.pileCode, 'E2ECP0001');
        assert.equal(running.connectorNo, 2);
        // Stop it from its order's detail.
        await go(page, `/order/detail?id=${running.orderNo}`);
        await page.getByTestId('detail-charger').filter({ hasText: 'E2ECP0001 · 2号枪' }).waitFor({ timeout: 10_000 });
        await page.getByTestId('detail-remote-stop').click();
        await page.getByTestId('confirm-dialog').waitFor();
        await page.getByTestId('confirm-dialog').getByRole('button', { name: '确定' }).click();
        const stopped = await eventually(async () => {
          const o = await api('GET', `/order/detail?id=${running.orderNo}`, admin);
          return o.data.status !== 'charging' && o.data;
        }, 'the remote stop ended the session').catch((e) => assert.fail(`${e.message}: ${charger.output()}`));
        assert.equal(stopped.stopReason, 'remoteStop');
        assert.equal(stopped.energyWh, 4500);

        // The session is an order with its curve.
        const orders = await api('GET', '/order/getList?userId=DEMO0012&pageSize=50', admin);
        const order = orders.data.list.find((o) => o.transactionId === tx);
        assert.ok(order, `order of transaction ${tx}`);
        assert.equal(order.energyWh, 11_000);
        assert.ok(order.amountFen > 0);
        await go(page, `/order/detail?id=${order.orderNo}`);
        await page.locator('[data-testid="detail-curve"] svg').first().waitFor({ timeout: 20_000 });
        await shot(page, 'chargers-05-order');

        // The message log shows the exchange.
        await go(page, `/connector/messageLog?pileId=${order.pileId}&code=E2ECP0001`);
        await page.locator('[data-testid="log-table"] tr[data-action="StartTransaction"]').first().waitFor({ timeout: 15_000 });
        await choose(page, page.getByTestId('log-action'), '启动通知');
        await page.waitForFunction(() => {
          const rows = [...document.querySelectorAll('[data-testid="log-table"] tbody tr')];
          return rows.length > 0 && rows.every((r) => r.getAttribute('data-action') === 'BootNotification');
        });
        await shot(page, 'chargers-06-message-log');
      } finally {
        charger.stop();
      }
    });
  });

  it('an OCPP 2.0.1 station: registered for 2.0.1, it charges, its order appears, its device model is read and changed', async () => {
    const admin = await token(USERS.admin);
    const stations = await api('GET', '/station/getList?pageNo=1&pageSize=50&status=operating', admin);
    const station = stations.data.list.find((s) => s.tariffId);
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, `/connector/stationdetail?id=${station.id}`);
      await page.getByTestId('pile-add').click();
      const form = page.getByTestId('pile-form');
      await form.locator('input[name="code"]').fill('E2E201ST1');
      await page.getByTestId('pile-connector-count').selectOption('2');
      await page.getByTestId('pile-ocpp-version').selectOption('2.0.1');
      await shot(page, 'chargers-08-pile-201');
      await page.getByTestId('pile-save').click();
      await form.waitFor({ state: 'hidden' });
      const pile = (await api('GET', `/station/getDetail?id=${station.id}`, admin)).data.piles.find((p) => p.code === 'E2E201ST1');
      assert.equal(pile.ocppVersion, '2.0.1');
      const password = (await api('POST', '/pile/setPassword', admin, { id: pile.id })).data.password;
      const stationSim = startCharger(gateway, 'E2E201ST1', password, 'DEMO0014', { script: 'station201.py' });
      try {
        await stationSim.done.catch((e) => assert.fail(`${e.message}`));
        await page.reload();
        const card = page.getByTestId('pile-card').filter({ hasText: 'E2E201ST1' });
        await card.getByTestId('link-state').filter({ hasText: '已连接' }).waitFor({ timeout: 15_000 });
        assert.match(await card.getByTestId('link-ocpp-version').innerText(), /OCPP 2\.0\.1/);
        assert.match(await card.getByTestId('link-boot').innerText(), /E2E Volt · AC22-201 · 3.1.0/);
        assert.equal(await card.getByTestId('cmd-get-configuration').count(), 0, 'a 2.0.1 station has no configuration keys');

        // The device model: the full report, then one variable changed.
        await card.getByTestId('cmd-get-base-report').click();
        await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="command-table"] tr[data-action="GetBaseReport"]')].some((r) => r.textContent.includes('已接受')), null, { timeout: 15_000 });
        await card.getByTestId('cmd-more').click();
        await page.getByRole('menuitem', { name: '修改设备模型变量' }).waitFor();
        assert.equal(await page.getByRole('menuitem', { name: '修改配置' }).count(), 0, 'only what 2.0.1 takes is offered');
        await clickWhenStill(page.getByRole('menuitem', { name: '修改设备模型变量' }));
        await page.getByTestId('op-component').fill('OCPPCommCtrlr');
        await page.getByTestId('op-variable').fill('HeartbeatInterval');
        await page.getByTestId('op-value').fill('120');
        await page.getByTestId('op-send').click();
        await page.getByTestId('operation-dialog').waitFor({ state: 'hidden' });
        await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="command-table"] tr[data-action="SetVariables"]')].some((r) => r.textContent.includes('已应答')), null, { timeout: 15_000 });
        await eventually(async () => /SetVariables .*'HeartbeatInterval'\): '120'/.test(stationSim.output()), 'the station took the new value').catch((e) => assert.fail(`${e.message}: ${stationSim.output()}`));
        // The reported device model, with the value just accepted, filtered by name.
        await card.getByTestId('pile-device-model').click();
        const model = page.getByTestId('device-model-dialog');
        const heartbeat = model.getByTestId('device-model-row').filter({ hasText: 'HeartbeatInterval' });
        await heartbeat.getByTestId('device-model-value').filter({ hasText: /^120$/ }).waitFor({ timeout: 15_000 });
        assert.match(await heartbeat.innerText(), /OCPPCommCtrlr[\s\S]*整桩[\s\S]*可读写/);
        assert.equal(await model.getByTestId('device-model-row').count(), 2, 'both reported variables');
        await model.getByTestId('device-model-filter').fill('itemsper');
        await page.waitForFunction(() => {
          const rows = [...document.querySelectorAll('[data-testid="device-model-dialog"] [data-testid="device-model-row"]')];
          return rows.length === 1 && rows[0].textContent.includes('ItemsPerMessage');
        });
        await shot(page, 'chargers-09a-device-model-201');
        // The tripped monitor's event, below the model.
        await model.getByTestId('device-model-filter').fill('');
        const tripped = model.getByTestId('device-model-event').filter({ hasText: 'ChargingStation.Temperature' });
        await tripped.waitFor();
        assert.match(await tripped.innerText(), /71[\s\S]*越限告警[\s\S]*监视器 3[\s\S]*发生/);
        await tripped.scrollIntoViewIfNeeded();
        await shot(page, 'chargers-09c-device-events-201');
        await model.getByTestId('device-model-filter').fill('nothing-like-this');
        await model.getByTestId('device-model-none').waitFor();
        await model.getByTestId('device-model-events-none').waitFor();
        await page.keyboard.press('Escape');
        await model.waitFor({ state: 'detached' });
        // A price notice on the station's screen.
        await card.getByTestId('cmd-more').click();
        await clickWhenStill(page.getByRole('menuitem', { name: '发布屏幕消息' }));
        await page.getByTestId('op-message').fill('22:00 起谷时电价');
        await page.getByTestId('op-send').click();
        await page.getByTestId('operation-dialog').waitFor({ state: 'hidden' });
        await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="command-table"] tr[data-action="SetDisplayMessage"]')].some((r) => r.textContent.includes('已接受')), null, { timeout: 15_000 });
        assert.match(stationSim.output(), /SetDisplayMessage 22:00 起谷时电价/);
        // The same notice on every screen of the station: each 2.0.1 pile shows whether it took it.
        const screens = page.getByTestId('station-screens');
        await screens.getByTestId('station-screens-post').click();
        await page.getByTestId('op-message').fill('本站今晚 23:00 检修');
        await page.getByTestId('op-send').click();
        await page.getByTestId('operation-dialog').waitFor({ state: 'hidden' });
        await screens.getByTestId('screen-message-row').filter({ hasText: 'E2E201ST1' }).filter({ hasText: '已接受' }).waitFor({ timeout: 15_000 });
        await eventually(async () => /SetDisplayMessage 本站今晚 23:00 检修/.test(stationSim.output()), 'the station took the notice').catch((e) => assert.fail(`${e.message}: ${stationSim.output()}`));
        assert.match(await screens.getByTestId('station-screens-v16').innerText(), /OCPP 1\.6 充电桩不支持屏幕消息/, 'the 1.6 chargers of the station are named as not sent to');
        await screens.scrollIntoViewIfNeeded();
        await shot(page, 'chargers-09b-station-screens');
        await card.scrollIntoViewIfNeeded();
        await shot(page, 'chargers-09-station-201');

        // The transaction is an order on the same pages.
        const order = (await api('GET', '/order/getList?userId=DEMO0014&pageSize=50', admin)).data.list.find((o) => o.pileId === pile.id);
        assert.ok(order, `the station's order: ${stationSim.output()}`);
        assert.equal(order.status, 'finished');
        assert.equal(order.energyWh, 10_000);
        assert.ok(order.amountFen > 0);
        await go(page, `/order/detail?id=${order.orderNo}`);
        await page.getByTestId('detail-charger').filter({ hasText: 'E2E201ST1' }).waitFor({ timeout: 10_000 });
        await shot(page, 'chargers-10-order-201');

        // The station's events (a tripped monitor), from the panel.
        await go(page, `/connector/stationdetail?id=${station.id}`);
        await page.getByTestId('pile-card').filter({ hasText: 'E2E201ST1' }).getByTestId('pile-events').click();
        const events = page.locator('[data-testid="log-table"] tr[data-action]');
        await page.locator('[data-testid="log-table"] tr[data-action="NotifyEvent"]').first().waitFor({ timeout: 15_000 });
        assert.deepEqual([...new Set(await events.evaluateAll((rows) => rows.map((r) => r.dataset.action)))], ['NotifyEvent'], 'only the events');
        assert.match(await page.getByTestId('log-event-summary').first().innerText(), /ChargingStation\.Temperature = 71/);
        await shot(page, 'chargers-10b-events-201');

        // Its message log offers 2.0.1's actions and shows the report.
        await go(page, `/connector/messageLog?pileId=${pile.id}&code=E2E201ST1`);
        await page.locator('[data-testid="log-table"] tr[data-action="NotifyReport"]').first().waitFor({ timeout: 15_000 });
        await page.locator('[data-testid="log-table"] tr[data-action="TransactionEvent"]').first().waitFor();
        await shot(page, 'chargers-11-log-201');
      } finally {
        stationSim.stop();
      }
    });
  });

  it("a charger's credentials are an admin's: an editor sees no password button and the security profile read-only", async () => {
    const admin = await token(USERS.admin);
    const stations = await api('GET', '/station/getList?pageNo=1&pageSize=50&status=operating', admin);
    const station = stations.data.list.find((s) => s.tariffId);
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.editor);
      await go(page, `/connector/stationdetail?id=${station.id}`);
      const card = page.getByTestId('pile-card').first();
      await card.getByTestId('charger-panel').waitFor({ timeout: 20_000 });
      assert.equal(await page.getByTestId('pile-password').count(), 0, 'no password button for an editor');
      await card.getByRole('button', { name: '编辑充电桩' }).click();
      await page.getByTestId('pile-form').waitFor();
      assert.equal(await page.getByTestId('pile-security').isDisabled(), true);
      await page.getByText('安全配置是充电桩的凭据，仅管理员可修改').waitFor();
      await shot(page, 'chargers-08-editor-credentials');
    });
  });

  it("a station's power budget: an editor sets it and sees each connected pile's share, then removes it", async () => {
    const admin = await token(USERS.admin);
    const stations = await api('GET', '/station/getList?pageNo=1&pageSize=50&status=operating', admin);
    const demo = stations.data.list.find((s) => s.tariffId);
    // A station of its own, so no other test's pile is sent a share.
    const station = await api('POST', '/station/doAdd', admin, {
      code: 'E2EPB01', name: '功率预算站', operator: '测试运营商', provinceCode: '450000', cityCode: '450100', districtCode: '450102',
      address: '南宁市兴宁区民族大道1号', lat: 22.817, lng: 108.366, openingHours: '00:00-24:00', status: 'operating',
      servicePhone: '0771-12345678', parkingInfo: '', tariffId: demo.tariffId,
    });
    assert.equal(station.code, 200, station.msg);
    const stationId = station.data.id;
    const pile = async (code, pileType, kw, standard) => {
      const added = await api('POST', '/pile/doAdd', admin, {
        stationId, code, pileType, ratedPowerKw: kw, heartbeatIntervalSecs: 60,
        connectors: [{ standard, maxPowerKw: kw }, { standard, maxPowerKw: kw }],
      });
      assert.equal(added.code, 200, added.msg);
      const pw = await api('POST', '/pile/setPassword', admin, { id: added.data.id });
      assert.equal(pw.code, 200, pw.msg);
      return pw.data.password;
    };
    const big = startCharger(gateway, 'E2EPB0001', await pile('E2EPB0001', 'dc', 60, 'gbt2015'), 'DEMO0011');
    const small = startCharger(gateway, 'E2EPB0002', await pile('E2EPB0002', 'ac', 22, 'type2'), 'DEMO0013');
    try {
      await big.done;
      await small.done;
      await withBrowser(async (page) => {
        await login(page, gateway.url, USERS.editor);
        await go(page, `/connector/stationdetail?id=${stationId}`);
        const card = page.getByTestId('power-budget');
        await card.waitFor({ timeout: 20_000 });
        assert.equal(await card.getByTestId('budget-current').innerText(), '未设置');
        const row = (code) => card.locator(`[data-testid="budget-row"][data-pile="${code}"]`);
        await row('E2EPB0001').getByText('在线').waitFor({ timeout: 15_000 });
        await row('E2EPB0002').getByText('在线').waitFor({ timeout: 15_000 });

        // Two decimals: said beside the field, nothing can be saved.
        await card.getByTestId('budget-input').fill('50.25');
        await card.getByText('最多一位小数').waitFor();
        assert.equal(await card.getByTestId('budget-save').isDisabled(), true);

        // 50 kW: the 22 kW pile takes its rating, the 60 kW pile the rest.
        await card.getByTestId('budget-input').fill('50');
        await card.getByTestId('budget-save').click();
        await card.getByTestId('budget-current').filter({ hasText: '50 kW' }).waitFor();
        await row('E2EPB0001').getByTestId('budget-share').filter({ hasText: '28 kW' }).waitFor({ timeout: 15_000 });
        await row('E2EPB0002').getByTestId('budget-share').filter({ hasText: '22 kW' }).waitFor({ timeout: 15_000 });
        await row('E2EPB0001').getByTestId('budget-state').filter({ hasText: '已生效' }).waitFor({ timeout: 15_000 });
        await row('E2EPB0002').getByTestId('budget-state').filter({ hasText: '已生效' }).waitFor({ timeout: 15_000 });
        await card.scrollIntoViewIfNeeded();
        await shot(page, 'chargers-09-power-budget');
        await eventually(() => /SetChargingProfile 0 9000 28000/.test(big.output()), 'the 60 kW charger was sent 28 kW');
        await eventually(() => /SetChargingProfile 0 9000 22000/.test(small.output()), 'the 22 kW charger was sent 22 kW');

        // Removed: each charger is sent the clear of the budget's profile.
        await card.getByTestId('budget-remove').click();
        await page.getByTestId('confirm-dialog').getByRole('button', { name: '确定' }).click();
        await card.getByTestId('budget-current').filter({ hasText: '未设置' }).waitFor();
        for (const code of ['E2EPB0001', 'E2EPB0002']) {
          await row(code).getByTestId('budget-share').filter({ hasText: '已清除' }).waitFor({ timeout: 15_000 });
          await row(code).getByTestId('budget-state').filter({ hasText: '已生效' }).waitFor({ timeout: 15_000 });
        }
        await shot(page, 'chargers-10-power-budget-removed');
        await eventually(() => /ClearChargingProfile 9000/.test(big.output()) && /ClearChargingProfile 9000/.test(small.output()), 'both chargers were sent the clear');
      });
    } finally {
      big.stop();
      small.stop();
    }
  });

  it('charging cards: an admin adds, finds and edits a card; an editor sees no delete', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/connector/cards');
      await page.getByTestId('card-table').waitFor({ timeout: 20_000 });
      await page.getByTestId('card-add').click();
      const dialog = page.getByTestId('card-dialog');
      await page.getByTestId('card-idtag').fill('bad card');
      await page.getByTestId('card-holder').click();
      await dialog.getByText('卡号为1-20位字母、数字或符号，不含空格').waitFor();
      await page.getByTestId('card-idtag').fill('E2ECARD01');
      await page.getByTestId('card-holder').fill('端到端测试');
      await page.getByTestId('card-save').click();
      await dialog.waitFor({ state: 'hidden' });
      // The same number again: the server's 400 lands on the card-number field, not in a toast.
      await page.getByTestId('card-add').click();
      await page.getByTestId('card-idtag').fill('e2ecard01');
      await page.getByTestId('card-save').click();
      await dialog.getByText('卡号E2ECARD01已存在').or(dialog.getByText('卡号e2ecard01已存在')).first().waitFor({ timeout: 10_000 });
      assert.equal(await page.locator('[data-testid="toast"][data-intent="error"]').count(), 0);
      await shot(page, 'chargers-06b-card-taken');
      await page.getByRole('button', { name: '取消' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByTestId('card-keyword').fill('e2ecard');
      await page.getByTestId('card-search').click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="card-table"] tbody tr').length === 1);
      await page.getByTestId('card-table').getByRole('button', { name: '编辑' }).click();
      await choose(page, page.getByTestId('card-status'), '已冻结');
      await page.getByTestId('card-save').click();
      await page.getByTestId('card-table').getByText('已冻结').waitFor();
      await shot(page, 'chargers-07-cards');
    });
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.editor);
      await go(page, '/connector/cards');
      await page.getByTestId('card-table').getByText('DEMO0001').first().waitFor({ timeout: 20_000 });
      assert.equal(await page.locator('[data-testid^="card-delete-"]').count(), 0);
      assert.equal(await page.getByTestId('card-add').count(), 1, 'editors add cards');
    });
  });
});
