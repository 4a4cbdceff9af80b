// What an operator meets at the charger, in real Chromium against the real
// gateway: the connector row's actions reach a scripted charger (the PyPI
// `ocpp` package, tests/e2e/charger.py) and follow its answer; the card
// picker finds any card by number, holder or plate.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiClient, gatewayForFile, go, login, shot, startCharger, USERS, withBrowser } from './harness.mjs';

const gateway = gatewayForFile();
const { api, token } = apiClient(gateway);

/** A new pile with two connectors on an operating station with a tariff, and its charger password. */
async function newPile(admin, code) {
  const stations = await api('GET', '/station/getList?pageNo=1&pageSize=50&status=operating', admin);
  const station = stations.data.list.find((s) => s.tariffId);
  const body = { stationId: station.id, code, pileType: 'dc', ratedPowerKw: 60, heartbeatIntervalSecs: 60, vendor: 'E2E', model: 'EV', firmwareVersion: '1', connectors: [{ standard: 'gbt2015', maxPowerKw: 60 }, { standard: 'gbt2015', maxPowerKw: 60 }] };
  const pile = await api('POST', '/pile/doAdd', admin, body);
  assert.equal(pile.code, 200, JSON.stringify(pile));
  const password = (await api('POST', '/pile/setPassword', admin, { id: pile.data.id })).data.password;
  return { station, pileId: pile.data.id, password };
}

/** Waits until `check()` (an API read) answers something truthy; fails naming `what`. */
async function until(page, what, check, tries = 75) {
  for (let i = 0; i < tries; i++) {
    const v = await check();
    if (v) return v;
    await page.waitForTimeout(200);
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('operator at the charger', () => {
  it('a connector row starts, stops and takes out of service on the charger itself, following each answer', async () => {
    const admin = await token(USERS.admin);
    const { station, pileId, password } = await newPile(admin, 'E2EROW001');
    const charger = startCharger(gateway, 'E2EROW001', password, 'DEMO0012');
    try {
      await charger.done;
      await withBrowser(async (page) => {
        await login(page, gateway.url, USERS.admin);
        await go(page, `/connector/connectors?stationId=${station.id}`);
        const row = (n) => page.getByTestId('connector-row').filter({ hasText: 'E2EROW001' }).filter({ hasText: `#${n}` });
        await row(1).getByTestId('connector-status').filter({ hasText: '空闲' }).waitFor({ timeout: 20_000 });

        // Remote start from the row: the real RemoteStartTransaction, the card found by typing.
        await row(1).getByTestId('connector-actions').click();
        await page.getByRole('menuitem', { name: '远程启动…' }).click();
        const dialog = page.getByTestId('operation-dialog');
        await dialog.waitFor();
        assert.equal(await dialog.getByTestId('op-connectorId').innerText(), '#1', 'the row presets its connector');
        await dialog.getByTestId('op-idTag').click();
        await dialog.getByTestId('op-idTag').fill('演示用户13');
        await page.getByRole('option', { name: /DEMO0013/ }).click();
        await page.getByTestId('op-send').click();
        await dialog.waitFor({ state: 'hidden' });
        await row(1).getByTestId('connector-command').filter({ hasText: '已应答 · Accepted' }).waitFor({ timeout: 15_000 });
        const running = await until(page, 'the remotely started session', async () => {
          const list = await api('GET', '/order/getList?userId=DEMO0013&status=charging&pageSize=50', admin);
          return list.data.list.find((o) => o.pileId === pileId);
        });
        // The charger reported Charging: the row follows.
        await row(1).getByTestId('connector-status').filter({ hasText: '充电中' }).waitFor({ timeout: 15_000 });
        await shot(page, 'operator-01-row-remote-start');

        // Remote stop from the row ends the charger's own transaction.
        await row(1).getByTestId('connector-actions').click();
        await page.getByRole('menuitem', { name: '远程停止' }).click();
        await page.getByTestId('confirm-dialog').getByRole('button', { name: '确定' }).click();
        await row(1).getByTestId('connector-command').filter({ hasText: '远程停止 · 已应答 · Accepted' }).waitFor({ timeout: 15_000 });
        const stopped = await until(page, 'the order to end', async () => {
          const o = await api('GET', `/order/detail?id=${running.orderNo}`, admin);
          return o.data.status !== 'charging' && o.data;
        });
        assert.equal(stopped.stopReason, 'remoteStop');
        assert.match(charger.output(), new RegExp(`remote session stopped ${running.transactionId}`));
        await row(1).getByTestId('connector-status').filter({ hasText: '空闲' }).waitFor({ timeout: 15_000 });

        // Out of service by hand: stored, and the charger is told (ChangeAvailability).
        await row(2).getByTestId('connector-actions').click();
        await page.getByRole('menuitem', { name: '停用（维护）' }).click();
        await row(2).getByTestId('connector-command').filter({ hasText: '停用（维护） · 已应答 · Accepted' }).waitFor({ timeout: 15_000 });
        await row(2).getByTestId('connector-status').filter({ hasText: '停用' }).waitFor({ timeout: 15_000 });
        assert.match(charger.output(), /server asked: ChangeAvailability 2 Inoperative/);
        await shot(page, 'operator-02-row-out-of-service');
      });
    } finally {
      charger.stop();
    }
  });
});
