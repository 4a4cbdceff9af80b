// What an operator meets at the charger, in real Chromium against the real
// gateway: the connector row's actions reach a scripted charger (the PyPI
// `ocpp` package, tests/e2e/charger.py) and follow its answer; the card
// picker finds any card by number, holder or plate; a card import reports
// every bad row at once; card sessions are paid by the card's arrangement
// (prepaid from its balance, postpaid on the holder's monthly bill).
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiClient, clickWhenStill, eventually, gatewayForFile, go, login, ROOT, shot, startCharger, USERS, withBrowser } from './harness.mjs';

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
const until = (what, check) => eventually(check, what, { timeout: 15_000 });

describe('operator at the charger', () => {
  it('a connector row starts, stops and takes out of service on the charger itself, following each answer', async () => {
    const admin = await token(USERS.admin);
    const { station, pileId, password } = await newPile(admin, 'E2EROW001');
    // A card the old picker (the first 20 accepted cards by number) never offered.
    const added = await api('POST', '/card/doAdd', admin, { idTag: 'ZZE2E0001', holder: '端到端司机', plate: '粤B6E2E1', status: 'Accepted', expiresAt: null, parentIdTag: null });
    assert.equal(added.code, 200, JSON.stringify(added));
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
        await clickWhenStill(page.getByRole('menuitem', { name: '远程启动…' }));
        const dialog = page.getByTestId('operation-dialog');
        await dialog.waitFor();
        assert.equal(await dialog.getByTestId('op-connectorId').innerText(), '1号枪', 'the row presets its connector');
        await dialog.getByTestId('op-idTag').click();
        // The plate without its province character.
        await dialog.getByTestId('op-idTag').fill('B6E2E');
        await page.getByRole('option', { name: 'ZZE2E0001 · 端到端司机 · 粤B6E2E1' }).click();
        await page.getByTestId('op-send').click();
        await dialog.waitFor({ state: 'hidden' });
        await row(1).getByTestId('connector-command').filter({ hasText: '已应答 · 已接受' }).waitFor({ timeout: 15_000 });
        const running = await until('the remotely started session', async () => {
          const list = await api('GET', '/order/getList?userId=ZZE2E0001&status=charging&pageSize=50', admin);
          return list.data.list.find((o) => o.pileId === pileId);
        });
        // The charger reported Charging: the row follows.
        await row(1).getByTestId('connector-status').filter({ hasText: '充电中' }).waitFor({ timeout: 15_000 });
        await shot(page, 'operator-01-row-remote-start');

        // Remote stop from the row ends the charger's own transaction.
        await row(1).getByTestId('connector-actions').click();
        await clickWhenStill(page.getByRole('menuitem', { name: '远程停止' }));
        await page.getByTestId('confirm-dialog').getByRole('button', { name: '确定' }).click();
        await row(1).getByTestId('connector-command').filter({ hasText: '远程停止 · 已应答 · 已接受' }).waitFor({ timeout: 15_000 });
        const stopped = await until('the order to end', async () => {
          const o = await api('GET', `/order/detail?id=${running.orderNo}`, admin);
          return o.data.status !== 'charging' && o.data;
        });
        assert.equal(stopped.stopReason, 'remoteStop');
        assert.match(charger.output(), new RegExp(`remote session stopped ${running.transactionId}`));
        await row(1).getByTestId('connector-status').filter({ hasText: '空闲' }).waitFor({ timeout: 15_000 });

        // Out of service by hand: stored, and the charger is told (ChangeAvailability).
        await row(2).getByTestId('connector-actions').click();
        await clickWhenStill(page.getByRole('menuitem', { name: '停用（维护）' }));
        await row(2).getByTestId('connector-command').filter({ hasText: '停用（维护） · 已应答 · 已接受' }).waitFor({ timeout: 15_000 });
        await row(2).getByTestId('connector-status').filter({ hasText: '停用' }).waitFor({ timeout: 15_000 });
        assert.match(charger.output(), /server asked: ChangeAvailability 2 Inoperative/);
        await shot(page, 'operator-02-row-out-of-service');
      });
    } finally {
      charger.stop();
    }
  });

  it('a card import names every bad row at once and writes nothing; a file that is not a workbook says so', async () => {
    const admin = await token(USERS.admin);
    const before = (await api('GET', '/card/getList?pageNo=1&pageSize=1', admin)).data.total;
    const dir = mkdtempSync(join(tmpdir(), 'e2e-cards-'));
    const ExcelJS = (await import(pathToFileURL(join(ROOT, 'web/node_modules/exceljs/excel.js')).href)).default;
    const workbook = async (name, rows) => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('cards');
      for (const r of rows) ws.addRow(r);
      const path = join(dir, name);
      await wb.xlsx.writeFile(path);
      return path;
    };
    const bad = await workbook('bad.xlsx', [
      ['卡号', '持卡人', '车牌', '状态', '有效期', '付费方式'],
      ['E2EIMP01', '导入甲', '', 'Accepted', '', '后付费'],
      ['E2EIMP02', '导入乙', '', 'Lost', '', ''],
      ['DEMO0001', '冒名', '', 'Accepted', '', ''],
      [],
      ['e2eimp01', '导入丙', '', 'Accepted', 'soon', ''],
    ]);
    const good = await workbook('good.xlsx', [
      ['卡号', '持卡人', '车牌', '状态', '付费方式'],
      ['E2EIMP01', '导入甲', '京E00001', 'Accepted', '后付费'],
      ['E2EIMP02', '导入乙', '', 'Accepted', '预付费'],
    ]);
    const notWorkbook = join(dir, 'notes.xlsx');
    writeFileSync(notWorkbook, 'this is not a spreadsheet');
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/connector/cards');
      await page.getByTestId('card-table').waitFor({ timeout: 20_000 });
      const problems = page.getByTestId('import-problems');

      await page.getByTestId('card-import-file').setInputFiles(notWorkbook);
      await problems.getByText('“notes.xlsx”不是有效的 Excel 工作簿').waitFor({ timeout: 15_000 });
      await problems.getByRole('button', { name: '关闭' }).click();
      await problems.waitFor({ state: 'hidden' });

      await page.getByTestId('card-import-file').setInputFiles(bad);
      await problems.waitFor({ timeout: 15_000 });
      const lines = await problems.getByTestId('import-problem-list').locator('li').allInnerTexts();
      assert.deepEqual(lines, [
        '第3行，状态列：状态“Lost”无法识别，应为“有效”“已冻结”“已过期”或“无效”',
        '第4行，卡号列：卡号DEMO0001已存在且内容不同（请在充电卡列表中编辑）',
        '第6行，有效期列：有效期“soon”不是日期（YYYY-MM-DD）',
      ]);
      await problems.getByText('导入未完成：3 处问题，未写入任何卡').waitFor();
      await shot(page, 'operator-03-import-problems');
      await problems.getByRole('button', { name: '关闭' }).click();
      assert.equal((await api('GET', '/card/getList?pageNo=1&pageSize=1', admin)).data.total, before, 'nothing written');

      await page.getByTestId('card-import-file').setInputFiles(good);
      await page.getByTestId('toast').getByText('导入完成：新增2张').waitFor({ timeout: 15_000 });
      assert.equal((await api('GET', '/card/getList?pageNo=1&pageSize=1', admin)).data.total, before + 2);
      const imported = await api('GET', '/card/search?text=E2EIMP02', admin);
      assert.equal(imported.data.list[0].payment, 'prepaid');
    });
  });

  it("a prepaid card is topped up and pays its session from the balance; a postpaid card's session is on its holder's bill", async () => {
    const admin = await token(USERS.admin);
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/connector/cards');
      await page.getByTestId('card-table').waitFor({ timeout: 20_000 });
      // A prepaid card, added in the dialog, topped up by finance with a note.
      await page.getByTestId('card-add').click();
      await page.getByTestId('card-idtag').fill('E2EPRE01');
      await page.getByTestId('card-holder').fill('预付测试');
      await page.getByTestId('card-payment-select').click();
      await page.getByRole('option', { name: '预付费' }).click();
      await page.getByTestId('card-save').click();
      await page.getByTestId('card-dialog').waitFor({ state: 'hidden' });
      await page.getByTestId('card-keyword').fill('E2EPRE01');
      await page.getByTestId('card-search').click();
      await page.getByTestId('card-top-up-E2EPRE01').click();
      await page.getByTestId('top-up-amount').fill('12.00');
      await page.getByTestId('top-up-note').fill('现金 收据E2E');
      await page.getByTestId('top-up-save').click();
      await page.getByTestId('toast').getByText('已充值12.00元，余额12.00元').waitFor({ timeout: 10_000 });
      await page.getByTestId('card-payment').filter({ hasText: '预付费 · 余额 12.00 元' }).waitFor();
    });

    // Sessions on a scripted charger: the prepaid card's, then a postpaid card's.
    const { password } = await newPile(admin, 'E2EPAY001');
    const prepaid = startCharger(gateway, 'E2EPAY001', password, 'E2EPRE01');
    let paid;
    try {
      const tx = await prepaid.done;
      const orders = await api('GET', '/order/getList?userId=E2EPRE01&pageSize=10', admin);
      paid = orders.data.list.find((o) => o.transactionId === tx);
      assert.ok(paid && paid.amountFen > 0, JSON.stringify(orders.data.list));
      assert.equal(paid.paymentStatus, 'paid', 'paid from the balance at StopTransaction');
      assert.equal(paid.paidFen, paid.amountFen);
    } finally {
      prepaid.stop();
    }
    const second = await newPile(admin, 'E2EPAY002');
    const postpaid = startCharger(gateway, 'E2EPAY002', second.password, 'DEMO0017');
    let billed;
    try {
      const tx = await postpaid.done;
      const orders = await api('GET', '/order/getList?userId=DEMO0017&pageSize=10', admin);
      billed = orders.data.list.find((o) => o.transactionId === tx);
      assert.equal(billed.paymentStatus, 'billed');
      assert.equal(billed.billedTo, '演示用户17');
    } finally {
      postpaid.stop();
    }

    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      // The order says it was paid from the balance; the card's balance and history show the charge.
      await go(page, `/order/detail?id=${paid.orderNo}`);
      await page.getByText('已支付').first().waitFor({ timeout: 15_000 });
      await go(page, '/connector/cards?keyword=E2EPRE01');
      const left = (1200 - paid.amountFen) / 100;
      await page.getByTestId('card-payment').filter({ hasText: `余额 ${left.toFixed(2)} 元` }).waitFor({ timeout: 15_000 });
      await page.getByTestId('card-ledger-E2EPRE01').click();
      const ledger = page.getByTestId('card-ledger');
      await ledger.getByText(paid.orderNo).waitFor();
      await ledger.getByText('现金 收据E2E').waitFor();
      await shot(page, 'operator-04-card-ledger');
      await page.getByTestId('card-ledger-dialog').getByRole('button', { name: '关闭' }).click();
      // Below the 10 yuan minimum now: on the low-balance list.
      await page.getByTestId('card-low-balance').click();
      await page.getByTestId('low-balance').getByText('E2EPRE01').waitFor({ timeout: 10_000 });
      await page.getByTestId('low-balance-dialog').getByRole('button', { name: '关闭' }).click();

      // The postpaid session is on its holder's bill for the month, exportable.
      await go(page, '/money/moneyIndex?tab=bills');
      const bill = page.getByTestId('holder-bill').filter({ hasText: '演示用户17' });
      await bill.waitFor({ timeout: 15_000 });
      assert.match(await bill.innerText(), new RegExp((billed.amountFen / 100).toFixed(2).replace('.', '\\.')));
      await shot(page, 'operator-05-holder-bills');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('bills-export').click()]);
      assert.match(download.suggestedFilename(), /^holder-bills-\d{4}-\d{2}\.xlsx$/);
    });
  });

  it("times are typed and shown in the operator's time zone, whatever the browser's", async () => {
    const admin = await token(USERS.admin);
    const { station, pileId, password } = await newPile(admin, 'E2ETZ0001');
    const charger = startCharger(gateway, 'E2ETZ0001', password, 'DEMO0015');
    // Tomorrow's date in Shanghai; 18:00 there is 10:00 UTC.
    const day = new Date(Date.now() + 8 * 3600_000 + 86_400_000).toISOString().slice(0, 10);
    const at18 = Date.parse(`${day}T10:00:00Z`) / 1000;
    try {
      await charger.done;
      // The browser runs in New York (UTC-4/-5): what is typed is still Shanghai's wall clock.
      await withBrowser(
        async (page) => {
          await login(page, gateway.url, USERS.admin);
          await go(page, `/connector/stationdetail?id=${station.id}`);
          const card = page.getByTestId('pile-card').filter({ hasText: 'E2ETZ0001' });
          await card.getByTestId('cmd-more').click();
          await clickWhenStill(page.getByRole('menuitem', { name: '预约充电枪' }));
          const dialog = page.getByTestId('operation-dialog');
          await dialog.getByText('按 Asia/Shanghai (UTC+08:00) 的时间填写').waitFor();
          await page.getByTestId('op-connectorId').click();
          await page.getByRole('option', { name: '1号枪' }).click();
          await page.getByTestId('op-idTag').click();
          await page.getByTestId('op-idTag').fill('DEMO0015');
          await page.getByRole('option', { name: /^DEMO0015/ }).click();
          await page.getByTestId('op-expiresAt').fill(`${day}T18:00`);
          await shot(page, 'operator-06-zone-beside-input');
          await page.getByTestId('op-send').click();
          await dialog.waitFor({ state: 'hidden' });
          await card.getByTestId('reservations').getByText(`至 ${day} 18:00`).waitFor({ timeout: 15_000 });
          const reservations = await api('GET', `/charger/reservations?pileId=${pileId}`, admin);
          assert.equal(reservations.data.list[0].expiresAt, at18, 'the server got 18:00 Shanghai');
          assert.match(charger.output(), new RegExp(`server asked: ReserveNow 1 ${day}T10:00:00Z`));

          // A firmware download time, the same way (Admin).
          await card.getByTestId('cmd-more').click();
          await clickWhenStill(page.getByRole('menuitem', { name: '升级固件' }));
          await page.getByTestId('op-location').fill('https://firmware.example/e2e.bin');
          await page.getByTestId('op-retrieveAt').fill(`${day}T18:00`);
          await page.getByTestId('op-send').click();
          await page.getByTestId('confirm-dialog').getByRole('button', { name: '确定' }).click();
          await card.locator('tr[data-action="UpdateFirmware"]').getByTestId('command-action').filter({ hasText: `下载时间 ${day} 18:00` }).waitFor({ timeout: 15_000 });
          assert.match(charger.output(), new RegExp(`server asked: UpdateFirmware https://firmware.example/e2e.bin ${day}T10:00:00Z`));

          // The operator moves to London: the same reservation reads 10:00 (winter) or 11:00 (summer).
          await go(page, '/setting/workflow');
          await page.getByTestId('ops-time-zone').click();
          await page.getByTestId('ops-time-zone').fill('London');
          await page.getByRole('option', { name: 'Europe/London' }).click();
          await page.getByTestId('ops-save').click();
          await page.getByTestId('toast').getByText('保存成功').waitFor({ timeout: 10_000 });
          const london = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(at18 * 1000));
          await page.reload();
          await page.getByTestId('app-main').waitFor();
          await go(page, `/connector/stationdetail?id=${station.id}`);
          await page.getByTestId('pile-card').filter({ hasText: 'E2ETZ0001' }).getByTestId('reservations').getByText(`至 ${day} ${london}`).waitFor({ timeout: 15_000 });
        },
        { timezoneId: 'America/New_York' },
      );
    } finally {
      charger.stop();
      // The other tests read times in Shanghai.
      const settings = await api('GET', '/operationSettings/get', admin);
      await api('POST', '/operationSettings/doEdit', admin, { offlineAfterIntervals: settings.data.offlineAfterIntervals, stuckAfterHours: settings.data.stuckAfterHours, timeZone: 'Asia/Shanghai', version: settings.data.version });
    }
  });
});
