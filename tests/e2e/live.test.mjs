// End-to-end: what an operator meets at a connected charger, with a
// charger scripted by the PyPI `ocpp` package (tests/e2e/charger.py):
// the order of a running session and the station's charger panel follow
// the charger without a reload, remote operations say what is wrong beside
// the field, the charger's answers read as words, the message log lists
// every action by name with times to the second, and the charts read in
// clock time.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiClient, clickWhenStill, eventually, gatewayForFile, go, login, shot, startCharger, USERS, withBrowser } from './harness.mjs';

const gateway = gatewayForFile();
const { api, token } = apiClient(gateway);

async function choose(page, dropdown, option) {
  await dropdown.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** A new pile (heartbeat every 10 s, so a silent one is offline within 30 s) on a station with a tariff, and its charger password. */
async function newPile(code) {
  const admin = await token(USERS.admin);
  const stations = await api('GET', '/station/getList?pageNo=1&pageSize=50&status=operating', admin);
  const station = stations.data.list.find((s) => s.tariffId);
  const added = await api('POST', '/pile/doAdd', admin, {
    stationId: station.id,
    code,
    vendor: 'E2E',
    model: 'DC',
    firmwareVersion: '1',
    pileType: 'dc',
    ratedPowerKw: 60,
    heartbeatIntervalSecs: 10,
    registrationStatus: 'Accepted',
    securityProfile: 1,
    connectors: [
      { standard: 'gbt2015', maxPowerKw: 60, qrCode: '' },
      { standard: 'gbt2015', maxPowerKw: 60, qrCode: '' },
    ],
  });
  assert.equal(added.code, 200, JSON.stringify(added));
  const pileId = added.data.pile?.id ?? added.data.id;
  const password = await api('POST', '/pile/setPassword', admin, { id: pileId });
  assert.equal(password.code, 200, JSON.stringify(password));
  return { admin, station, pileId, password: password.data.password };
}

/** The labels of a chart's time axis (SVG text that reads as a clock time). */
const clockLabels = (chart) => chart.locator('svg text').evaluateAll((els) => els.map((e) => e.textContent.trim()).filter((t) => /^\d\d:\d\d(:\d\d)?$/.test(t)));

/** Waits until the text of `locator` differs from `before` (the page changes it on its own). */
async function textChanges(page, testId, before, timeout) {
  await page.waitForFunction(([id, was]) => {
    const el = document.querySelector(`.view-pane:not([hidden]) [data-testid="${id}"]`);
    return el && el.textContent !== was;
  }, [testId, before], { timeout });
}

describe('live pages', () => {
  it('a running order and the charger panel follow the charger without a reload; a remote stop shows the order ending', async () => {
    const { admin, station, password } = await newPile('LIVECP01');
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, `/connector/stationdetail?id=${station.id}`);
      const card = page.getByTestId('pile-card').filter({ hasText: 'LIVECP01' });
      await card.getByTestId('link-state').filter({ hasText: '从未连接' }).waitFor({ timeout: 10_000 });

      const charger = startCharger(gateway, 'LIVECP01', password, 'DEMO0012', { live: true });
      try {
        await charger.started;
        // No reload: the panel learns the charger connected and connector 1 charges.
        await card.getByTestId('link-state').filter({ hasText: '已连接' }).waitFor({ timeout: 15_000 });
        await card.getByTestId('connector-row').first().getByTestId('connector-status').filter({ hasText: '充电中' }).waitFor({ timeout: 15_000 });
        await card.scrollIntoViewIfNeeded();
        await shot(page, 'live-01-panel-connected');

        const running = await eventually(async () => {
          const list = await api('GET', '/order/getList?userId=DEMO0012&status=charging&pageSize=50', admin);
          return list.data.list.find((o) => o.pileCode === 'LIVECP01');
        }, 'the live session is an order').catch((e) => assert.fail(`${e.message}: ${charger.output()}`));

        // The order's energy moves while it is open, and says it refreshes by itself.
        await go(page, `/order/detail?id=${running.orderNo}`);
        const energy = page.getByTestId('detail-energy');
        await energy.waitFor();
        await page.getByTestId('detail-live').waitFor();
        const first = await energy.textContent();
        await textChanges(page, 'detail-energy', first, 20_000);
        // This charger never reports the state of charge: nothing is shown for it.
        assert.equal(await page.getByTestId('detail-soc').count(), 0, 'no SoC shown when never reported');
        // Meter values a second apart: the curve's time labels are all different.
        const curve = page.getByTestId('detail-curve');
        await curve.locator('svg text').first().waitFor({ timeout: 20_000 });
        const labels = await clockLabels(curve);
        assert.ok(labels.length >= 2, `time labels: ${labels}`);
        assert.equal(new Set(labels).size, labels.length, `no repeated time label: ${labels}`);
        await shot(page, 'live-02-order-charging');

        // A remote stop: the command's state, then the order ends on the page.
        await page.getByTestId('detail-remote-stop').click();
        await page.getByTestId('confirm-dialog').getByRole('button', { name: '确定' }).click();
        await page.getByTestId('detail-stop-status').filter({ hasText: '已应答' }).waitFor({ timeout: 15_000 });
        await charger.done;
        await page.locator('.view-pane:not([hidden])').getByText('已完成', { exact: true }).first().waitFor({ timeout: 20_000 });
        assert.equal(await page.getByTestId('detail-remote-stop').count(), 0, 'no stop button on an ended order');
        assert.equal(await page.getByTestId('detail-live').count(), 0);
        await shot(page, 'live-03-order-stopped');

        // Back on the station: the charger leaves; the badge follows at once, the connectors once the pile is silent.
        await go(page, `/connector/stationdetail?id=${station.id}`);
        await card.getByTestId('link-state').filter({ hasText: '已连接' }).waitFor();
      } finally {
        await charger.stop();
      }
      await card.getByTestId('link-state').filter({ hasText: '未连接' }).waitFor({ timeout: 15_000 });
      await page.waitForFunction(
        () => {
          const c = [...document.querySelectorAll('.view-pane:not([hidden]) [data-testid="pile-card"]')].find((e) => e.textContent.includes('LIVECP01'));
          const states = c ? [...c.querySelectorAll('[data-testid="connector-status"]')].map((b) => b.textContent) : [];
          return states.length === 2 && states.every((s) => s === '离线');
        },
        null,
        { timeout: 60_000 },
      );
      await card.scrollIntoViewIfNeeded();
      await shot(page, 'live-04-panel-disconnected');
    });
  });

  it('remote operations: rules checked beside the field, refusals in words, answers in words, a message log by name', async () => {
    const { station, password, pileId } = await newPile('LIVECP02');
    const charger = startCharger(gateway, 'LIVECP02', password, 'DEMO0013');
    try {
      await charger.done;
      await withBrowser(async (page) => {
        await login(page, gateway.url, USERS.admin);
        await go(page, `/connector/stationdetail?id=${station.id}`);
        const card = page.getByTestId('pile-card').filter({ hasText: 'LIVECP02' });
        await card.getByTestId('link-state').filter({ hasText: '已连接' }).waitFor({ timeout: 15_000 });
        const more = async (title) => {
          await card.getByTestId('cmd-more').click();
          await clickWhenStill(page.getByRole('menuitem', { name: title }));
          await page.getByTestId('operation-dialog').waitFor();
        };
        const field = (name) => page.getByTestId('operation-dialog').locator(`[data-field="${name}"]`);
        const noErrorToast = async () => assert.equal(await page.locator('[data-testid="toast"][data-intent="error"]').count(), 0, 'no error toast');

        // A power limit the form knows is wrong: said beside the field, nothing sent.
        await more('远程启动充电');
        await choose(page, page.getByTestId('op-connectorId'), '2号枪');
        await page.getByTestId('op-idTag').click();
        await page.getByTestId('op-idTag').fill('DEMO0013');
        await page.getByRole('option', { name: /^DEMO0013/ }).click();
        await page.getByTestId('op-limitW').fill('-5');
        await page.getByTestId('op-send').click();
        await field('limitW').getByText('功率上限（W，可选）须在1到1000000之间').waitFor();
        await noErrorToast();
        await page.getByRole('button', { name: '取消' }).click();

        // A firmware address the form knows is wrong: said before the confirm step.
        await more('升级固件');
        await page.getByTestId('op-location').fill('file:///etc/firmware.bin');
        await page.getByTestId('op-send').click();
        await field('location').getByText('须为 http、https、ftp 或 ftps 开头的地址').waitFor();
        assert.equal(await page.getByTestId('confirm-dialog').count(), 0, 'not asked to confirm a bad address');
        await shot(page, 'live-05-firmware-url-beside-field');
        await page.getByRole('button', { name: '取消' }).click();

        // A rule only the server knows (a key in printable ASCII): its refusal lands beside the field, in Chinese.
        await more('修改配置');
        await page.getByTestId('op-key').fill('心跳间隔');
        await page.getByTestId('op-value').fill('60');
        await page.getByTestId('op-send').click();
        await field('key').getByText('配置项须为1-50位可打印ASCII字符').waitFor({ timeout: 10_000 });
        await noErrorToast();
        await shot(page, 'live-06-server-refusal-beside-field');
        await page.getByRole('button', { name: '取消' }).click();

        // Answers in words, the JSON behind a disclosure; names of operations, not OCPP's.
        await card.getByTestId('cmd-get-configuration').click();
        const table = card.getByTestId('command-table');
        await table.locator('tr[data-action="GetConfiguration"]').getByText('2 个配置项').waitFor({ timeout: 15_000 });
        const row = table.locator('tr[data-action="GetConfiguration"]').first();
        assert.equal(await row.getByTestId('command-name').innerText(), '读取配置');
        assert.equal(await row.locator('pre').isVisible(), false, 'the raw answer is folded');
        await row.getByText('原始应答').click();
        await row.locator('pre').filter({ hasText: 'configurationKey' }).waitFor();
        await card.getByTestId('cmd-show-configuration').click();
        await page.getByTestId('configuration-dialog').getByRole('button', { name: '关闭' }).click();

        // The composite schedule reads in clock time, not seconds.
        await more('查看功率计划');
        await choose(page, page.getByTestId('op-connectorId'), '1号枪');
        await page.getByTestId('op-send').click();
        await page.getByTestId('operation-dialog').waitFor({ state: 'hidden' });
        await card.getByTestId('cmd-show-schedule').click({ timeout: 15_000 });
        const schedule = page.getByTestId('schedule-dialog');
        await schedule.locator('svg text').first().waitFor({ timeout: 15_000 });
        const ticks = await clockLabels(schedule);
        assert.ok(ticks.length >= 2, `clock labels on the schedule: ${ticks}`);
        assert.equal(new Set(ticks).size, ticks.length, `${ticks}`);
        await shot(page, 'live-07-schedule-clock-time');
        await schedule.getByRole('button', { name: '关闭' }).click();

        // A reservation of the whole charger says so.
        await more('预约充电枪');
        await choose(page, page.getByTestId('op-connectorId'), '整桩');
        await page.getByTestId('op-idTag').click();
        await page.getByTestId('op-idTag').fill('DEMO0013');
        await page.getByRole('option', { name: /^DEMO0013/ }).click();
        const later = new Date(Date.now() + 6 * 3600_000);
        // Typed in the operator's time zone (Asia/Shanghai here), whatever the browser's.
        const wall = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(later);
        await page.getByTestId('op-expiresAt').fill(wall.replace(' ', 'T'));
        await page.getByTestId('op-send').click();
        await page.getByTestId('operation-dialog').waitFor({ state: 'hidden' });
        await card.getByTestId('reservation').filter({ hasText: '整桩' }).waitFor({ timeout: 15_000 });
        assert.doesNotMatch(await card.getByTestId('reservations').innerText(), /#\*/);
        await card.getByTestId('reservations').scrollIntoViewIfNeeded();
        await shot(page, 'live-08-whole-charger-reservation');

        // The message log: its tab reads the pile's code, its filter every action, times to the second.
        await card.getByTestId('pile-log').click();
        await page.getByTestId('log-table').waitFor();
        // The tab's title and the code are separate spans (the code is data): read the whole tab.
        const tab = page.getByTestId('tabs-bar').getByRole('tab').filter({ hasText: '通信日志' });
        await tab.filter({ hasText: 'LIVECP02' }).waitFor();
        assert.doesNotMatch(await tab.innerText(), new RegExp(pileId), 'the tab shows the code, not the id');
        await page.getByTestId('log-action').click();
        for (const name of ['预约充电枪', '查看功率计划', '下发本地授权列表', '设置功率限制', '升级固件', '上传诊断日志', '取消预约', '启动通知']) {
          await page.getByRole('option', { name, exact: true }).waitFor();
        }
        await page.getByRole('option', { name: '预约充电枪', exact: true }).click();
        await page.waitForFunction(() => {
          const rows = [...document.querySelectorAll('.view-pane:not([hidden]) [data-testid="log-table"] tbody tr')];
          return rows.length > 0 && rows.every((r) => r.getAttribute('data-action') === 'ReserveNow');
        });
        assert.match(await page.getByTestId('log-time').first().innerText(), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
        // A message id never runs into the next column.
        const overflow = await page.getByTestId('log-message-id').first().evaluate((el) => el.getBoundingClientRect().right - el.closest('td').getBoundingClientRect().right);
        assert.ok(overflow <= 0.5, `message id inside its cell (${overflow}px over)`);
        await shot(page, 'live-09-message-log');

        // On a phone the recent operations keep their names whole, and the page does not scroll sideways.
        await go(page, `/connector/stationdetail?id=${station.id}`);
        await page.setViewportSize({ width: 390, height: 844 });
        // A phone gets the vertical layout: the frame changes around the views, the views stay.
        await page.locator('[data-layout="vertical"]').waitFor();
        await card.getByTestId('command-table').scrollIntoViewIfNeeded();
        const cut = await card.getByTestId('command-name').evaluateAll((cells) => cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent));
        assert.deepEqual(cut, [], 'no command name cut off');
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(wide <= 390, `the station page fits 390 px (scrollWidth ${wide})`);
        await shot(page, 'live-10-panel-phone');
      });
    } finally {
      await charger.stop();
    }
  });
});
