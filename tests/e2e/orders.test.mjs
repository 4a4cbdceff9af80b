// End-to-end checks of the charging orders, order detail, finance and the
// home dashboard in real Chromium against the real gateway and its seeded
// demo orders.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { apiClient, gatewayForFile, go, hashPath, login, ROOT, shot, USERS, withBrowser } from './harness.mjs';

const gateway = gatewayForFile();

const { api, token } = apiClient(gateway);

/** The yuan text of a finance card ("1,234.56" -> 123456 fen). */
async function cardFen(page, key) {
  const text = await page.getByTestId(`fin-${key}`).locator('span').last().innerText();
  return Math.round(Number(text.replace(/,/g, '')) * 100);
}

/** "1234" fen -> "12.34" (as the API and the dialogs take yuan). */
const yuanText = (fen) => `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;

/** A paid demo order with no refund request at all (the seed leaves some pending). */
async function unrequestedOrder(admin, minPaid, skip = new Set()) {
  const range = await api('GET', '/order/getList?paymentStatus=paid&pageSize=100', admin);
  for (const o of range.data.list) {
    if (o.paidFen < minPaid || skip.has(o.orderNo)) continue;
    const d = await api('GET', `/order/detail?id=${o.orderNo}`, admin);
    if (d.data.refunds.length === 0) return o;
  }
  throw new Error('no paid order without refund requests');
}

describe('orders', () => {
  it('the home dashboard shows today, the trend and top stations', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await page.getByTestId('home-dashboard').waitFor({ timeout: 20_000 });
      await page.locator('[data-testid="dash-trend"] canvas').first().waitFor({ timeout: 20_000 });
      assert.ok((await page.locator('[data-testid="dash-top"] tbody tr').count()) > 0, 'top stations listed');
      await shot(page, 'orders-01-dashboard');
    });
  });

  it('lists seeded orders with totals, filters them and opens a detail tab with the curve', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/order/orderindex');
      await page.getByTestId('order-row').first().waitFor({ timeout: 20_000 });
      assert.equal(await page.getByTestId('order-row').count(), 20, 'a full first page');
      await page.getByTestId('order-sums').waitFor();
      await shot(page, 'orders-02-list');

      // Filter by status through the dropdown: every row is abnormal.
      await page.getByTestId('filter-status').click();
      await page.getByRole('option', { name: '异常' }).click();
      await page.getByTestId('order-search').click();
      await page.waitForFunction(() => {
        const badges = [...document.querySelectorAll('[data-testid="order-row"] [data-testid="order-status"]')].map((b) => b.textContent);
        return badges.length > 0 && badges.every((b) => b === '异常');
      });
      await shot(page, 'orders-03-filter-abnormal');

      // Next page follows the cursor.
      await page.getByTestId('filter-status').click();
      await page.getByRole('option', { name: '全部' }).click();
      await page.getByTestId('order-search').click();
      const first = await page.getByTestId('order-link').first().innerText();
      await page.getByTestId('page-next').click();
      await page.waitForFunction((no) => document.querySelector('[data-testid="order-link"]')?.textContent !== no, first);

      // Filter by one order's plate: only that vehicle's orders remain.
      const plateCell = await page.getByTestId('order-row').first().locator('td').nth(2).innerText();
      const plate = plateCell.split('\n').pop().trim();
      await page.getByTestId('filter-plate').fill(plate);
      await page.getByTestId('order-search').click();
      await page.waitForFunction(
        (p) => {
          const rows = [...document.querySelectorAll('[data-testid="order-row"]')];
          return rows.length > 0 && rows.every((r) => r.textContent.includes(p));
        },
        plate,
      );

      // Export the filtered set: the file opens and holds exactly the listed orders.
      const listed = await page.getByTestId('order-link').allInnerTexts();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('order-export').click()]);
      const file = join(mkdtempSync(join(tmpdir(), 'orders-export-')), 'orders.xlsx');
      await download.saveAs(file);
      const ExcelJS = (await import(pathToFileURL(join(ROOT, 'web/node_modules/exceljs/excel.js')).href)).default;
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(file);
      const exported = [];
      wb.worksheets[0].eachRow((row) => {
        const v = String(row.getCell(1).value ?? '');
        if (/^CD\d+/.test(v)) exported.push(v);
      });
      assert.deepEqual(exported.sort(), [...listed].sort(), 'the export holds the filtered orders');

      // A detail tab per order, highlighting the order menu, with the curve chart.
      const no = await page.getByTestId('order-link').first().innerText();
      await page.getByTestId('order-link').first().click();
      await page.waitForFunction((n) => window.location.hash === `#/order/detail?id=${n}`, no);
      await page.getByTestId('order-detail').waitFor();
      assert.equal(await page.getByTestId('detail-order-no').innerText(), no);
      await page.locator('[data-testid="detail-curve"] svg').first().waitFor({ timeout: 20_000 });
      assert.match(hashPath(page), /^\/order\/detail\?id=/);
      const tabs = await page.getByTestId('tabs-bar').innerText();
      assert.ok(tabs.includes(`订单详情`), tabs);
      await shot(page, 'orders-04-detail');
    });
  });

  it('staff match an order to the physical charger: station, pile code and connector number everywhere, no internal ids', async () => {
    const admin = await token(USERS.admin);
    const o = (await api('GET', '/order/getList?pageSize=1', admin)).data.list[0];
    const pile = (await api('GET', `/pile/getList?stationId=${o.stationId}`, admin)).data.list.find((p) => p.id === o.pileId);
    assert.equal(o.pileCode, pile.code, 'the pile code as typed');
    const label = `${pile.code} · ${o.connectorNo}号枪`;
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      // The list: under the station, the pile code and connector number.
      await go(page, '/order/orderindex');
      await page.getByTestId('order-row').first().waitFor({ timeout: 20_000 });
      const row = page.getByTestId('order-row').first();
      assert.equal(await row.getByTestId('order-charger').innerText(), label);
      const rows = await page.getByTestId('order-row').allInnerTexts();
      assert.ok(rows.every((r) => !/\bst-\d/.test(r)), 'no internal id in the list');
      await shot(page, 'orders-20-list-charger');

      // The export: pile code and connector number columns, no internal ids.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('order-export').click()]);
      const file = join(mkdtempSync(join(tmpdir(), 'orders-charger-')), 'orders.xlsx');
      await download.saveAs(file);
      const ExcelJS = (await import(pathToFileURL(join(ROOT, 'web/node_modules/exceljs/excel.js')).href)).default;
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(file);
      const sheet = wb.worksheets[0];
      let header = null;
      let found = null;
      const cells = [];
      sheet.eachRow((r) => {
        const values = r.values.slice(1).map((v) => String(v ?? ''));
        cells.push(...values);
        if (values.includes('桩编号')) header = values;
        if (values[0] === o.orderNo) found = values;
      });
      assert.ok(header && header.includes('枪号'), `header: ${header}`);
      assert.equal(found[header.indexOf('桩编号')], pile.code);
      assert.equal(found[header.indexOf('枪号')], String(o.connectorNo));
      assert.ok(cells.every((c) => !/^st-\d/.test(c)), 'no internal id in the export');

      // The detail.
      await page.getByTestId('order-link').first().click();
      await page.getByTestId('order-detail').waitFor();
      assert.ok((await page.getByTestId('detail-charger').innerText()).includes(label));
      assert.ok(!(await page.getByTestId('detail-charger').innerText()).includes(o.pileId));
      await shot(page, 'orders-21-detail-charger');

      // The header search by order number names the charger.
      await page.getByTestId('search-button').click();
      const dialog = page.getByTestId('search-dialog');
      await dialog.locator('input').fill(o.orderNo);
      await dialog.getByRole('option').first().getByText(`订单 ${o.orderNo} · ${o.stationName} · ${label}`).waitFor({ timeout: 5000 });
      await shot(page, 'orders-22-search-charger');
      await page.keyboard.press('Escape');

      // The station's tab reads its name; the connectors print pile code + number as their QR.
      await go(page, `/connector/stationdetail?id=${o.stationId}`);
      await page.getByTestId('tabs-bar').filter({ hasText: `站点设置 (${o.stationName})` }).waitFor({ timeout: 10_000 });
      assert.ok(!(await page.getByTestId('tabs-bar').innerText()).includes(o.stationId));
      const qrs = await page.getByTestId('connector-qr').allInnerTexts();
      assert.ok(qrs.includes(`${pile.code}-${String(o.connectorNo).padStart(2, '0')}`), qrs.join(' | '));
      assert.ok(qrs.every((q) => !q.includes('st-')), qrs.join(' | '));
      await page.getByTestId('connector-qr').first().scrollIntoViewIfNeeded();
      await shot(page, 'orders-23-station-qr');
      await go(page, '/connector/connectors');
      await page.locator('[data-testid="connector-table"] [data-testid="connector-qr"]').first().waitFor({ timeout: 10_000 });
      const listed = await page.locator('[data-testid="connector-table"] [data-testid="connector-row"]').allInnerTexts();
      assert.ok(listed.every((r) => !/\bst-\d/.test(r)), listed.slice(0, 3).join(' | '));
      await shot(page, 'orders-24-connectors-qr');
    });
  });

  it('a refund requested by the editor is approved only by the admin, and finance follows', async () => {
    const admin = await token(USERS.admin);
    const editor = await token(USERS.editor);
    const range = await api('GET', '/order/getList?paymentStatus=paid&pageSize=50', admin);
    const order = await unrequestedOrder(admin, 200);

    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.editor);
      await go(page, `/order/detail?id=${order.orderNo}`);
      await page.getByTestId('detail-refund').click();
      const dialog = page.getByRole('dialog');
      await dialog.locator('input').fill('1.00');
      await dialog.locator('textarea').fill('充电中断，部分退款');
      await dialog.getByTestId('prompt-submit').click();
      await page.getByTestId('refund-row').first().waitFor();
      assert.equal(await page.getByTestId('refund-approve').count(), 0, 'the editor sees no approve button');
      await shot(page, 'orders-05-editor-requested');
    });
    const pending = await api('GET', '/order/refund/getList?status=pending&pageSize=200', admin);
    const req = pending.data.list.find((r) => r.orderNo === order.orderNo);
    assert.ok(req, 'the request is pending');
    const refused = await api('POST', '/order/refund/approve', editor, { orderNo: order.orderNo, refundId: req.id });
    assert.equal(refused.code, 403, 'the server refuses the editor');

    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/money/moneyIndex');
      await page.getByTestId('fin-refunds').waitFor({ timeout: 20_000 });
      const refundsBefore = await cardFen(page, 'refunds');
      const netBefore = await cardFen(page, 'net');

      await go(page, `/order/detail?id=${order.orderNo}`);
      await page.getByTestId('refund-approve').click();
      await page.getByTestId('prompt-submit').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="detail-refunded"]')?.textContent?.includes('1.00'));
      await shot(page, 'orders-06-admin-approved');

      await go(page, '/money/moneyIndex');
      // The kept-alive finance tab must be the shown view before it is refreshed.
      await page.locator('[data-tab-path="/money/moneyIndex"][aria-selected="true"]').waitFor();
      await page.getByTestId('fin-refunds').waitFor();
      await page.getByTestId('refresh-view').click();
      await page.waitForFunction(
        (before) => {
          const text = document.querySelector('[data-testid="fin-refunds"] span:last-child')?.textContent ?? '';
          return Math.round(Number(text.replace(/,/g, '')) * 100) === before + 100;
        },
        refundsBefore,
        { timeout: 20_000 },
      );
      assert.equal(await cardFen(page, 'net'), netBefore - 100, 'net falls by the refund');
      await shot(page, 'orders-07-finance-after-refund');
    });
  });

  it('refund requests cannot add up to more than was paid; the queue shows the money and the wait, oldest first; notes show on the order', async () => {
    const admin = await token(USERS.admin);
    const order = await unrequestedOrder(admin, 300);
    const first = Math.floor(order.paidFen / 3);
    const left = order.paidFen - first;

    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.editor);
      await go(page, `/order/detail?id=${order.orderNo}`);
      await page.getByTestId('detail-refund').click();
      let dialog = page.getByRole('dialog');
      await dialog.locator('input').fill(yuanText(first));
      await dialog.locator('textarea').fill('充电中断，部分退款');
      await dialog.getByTestId('prompt-submit').click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByTestId('refund-row').first().waitFor();
      // What is still refundable now leaves out the pending request.
      await page.getByTestId('detail-refundable').filter({ hasText: yuanText(left) }).waitFor();
      assert.match(await page.getByTestId('detail-pending-refund').innerText(), new RegExp(yuanText(first).replace('.', '\\.')));
      // A second request of the whole paid amount: the dialog offers only what is left and refuses more.
      await page.getByTestId('detail-refund').click();
      dialog = page.getByRole('dialog');
      assert.equal(await dialog.locator('input').inputValue(), yuanText(left), 'the dialog offers what is left');
      assert.match(await dialog.getByTestId('prompt-hint').innerText(), new RegExp(`已有待审批的退款 ${yuanText(first).replace('.', '\\.')} 元`));
      await dialog.locator('input').fill(yuanText(order.paidFen));
      await dialog.locator('textarea').fill('再次申请全额');
      await dialog.getByTestId('prompt-submit').click();
      await dialog.getByText(`请输入不超过 ${yuanText(left)} 元的金额`).waitFor();
      await shot(page, 'orders-08-refund-over-pending');
      await dialog.getByRole('button', { name: '取消' }).click();
    });
    // The server refuses it too, naming what is left (a client that skips the dialog).
    const editor = await token(USERS.editor);
    const over = await api('POST', '/order/refund/request', editor, { orderNo: order.orderNo, amount: yuanText(order.paidFen), reason: '绕过页面' });
    assert.equal(over.code, 400);
    assert.match(over.msg, new RegExp(`exceeds the ${yuanText(left).replace('.', '\\.')} still refundable`));

    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/money/moneyIndex');
      await page.getByTestId('fin-tab-refunds').click();
      await page.getByTestId('pending-refund').first().waitFor({ timeout: 20_000 });
      // Oldest first: the seeded requests, days old, come before today's.
      // The page shows the first 20 (the pager's default size).
      const queue = await api('GET', '/order/refund/getList?status=pending&pageSize=20', admin);
      const shownOrder = await page.locator('[data-testid="pending-refund"] td:first-child').allInnerTexts();
      assert.deepEqual(shownOrder, queue.data.list.map((r) => r.orderNo), 'the rows are the queue, oldest first');
      assert.match(await page.getByTestId('pending-age').first().innerText(), /天前|个月前/);
      const row = page.getByTestId('pending-refund').filter({ hasText: order.orderNo });
      assert.equal(await row.getByTestId('pending-paid').innerText(), yuanText(order.paidFen).replace(/\B(?=(\d{3})+(?!\d))/g, ','));
      assert.equal(await row.getByTestId('pending-remaining').innerText(), yuanText(left));
      assert.match(await row.getByTestId('pending-age').innerText(), /^(刚刚|\d+分钟前)$/);
      await shot(page, 'orders-09-refund-queue');
      // Newest first on a click of the age header: today's request leads.
      await page.getByTestId('pending-sort').click();
      await page.waitForFunction((no) => document.querySelector('[data-testid="pending-refund"] td')?.textContent === no, order.orderNo);

      // Approve with a note, from the queue.
      await row.getByTestId('pending-approve').click();
      const dialog = page.getByRole('dialog');
      await dialog.locator('textarea').fill('已核实充电中断');
      await shot(page, 'orders-10-approve-with-note');
      await dialog.getByTestId('prompt-submit').click();
      await row.waitFor({ state: 'detached', timeout: 10_000 });

      await go(page, `/order/detail?id=${order.orderNo}`);
      await page.getByTestId('refund-note').filter({ hasText: '已核实充电中断' }).waitFor({ timeout: 10_000 });
      await page.getByTestId('detail-refunded').filter({ hasText: yuanText(first) }).waitFor();
      await page.getByTestId('refund-table').scrollIntoViewIfNeeded();
      await shot(page, 'orders-11-note-on-order');
    });
  });

  it("a refund of an order of last month counts on the day it is approved: today moves, last month's statement stays", async () => {
    const admin = await token(USERS.admin);
    // China days (YYYY-MM-DD at +08:00), as the API takes them.
    const chinaDay = (ms) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 10);
    const today = chinaDay(Date.now());
    const [y, m] = today.split('-').map(Number);
    const lastFirst = `${m === 1 ? y - 1 : y}-${String(m === 1 ? 12 : m - 1).padStart(2, '0')}-01`;
    const lastLast = chinaDay(Date.parse(`${today.slice(0, 8)}01T00:00:00+08:00`) - 1000);
    // A paid order of last month nobody asked a refund for.
    const listed = await api('GET', `/order/getList?paymentStatus=paid&from=${lastFirst}&to=${lastLast}&pageSize=100`, admin);
    let order;
    for (const o of listed.data.list) {
      if (o.paidFen < 200) continue;
      const d = await api('GET', `/order/detail?id=${o.orderNo}`, admin);
      if (d.data.refunds.length === 0) {
        order = o;
        break;
      }
    }
    assert.ok(order, 'a paid order of last month without refund requests');
    const statement = async () => {
      const st = await api('GET', `/money/settlement?stationId=${order.stationId}&from=${lastFirst}&to=${lastLast}`, admin);
      return { list: st.data.list, total: st.data.total };
    };
    const lastMonthBefore = await statement();

    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.editor);
      await go(page, `/order/detail?id=${order.orderNo}`);
      await page.getByTestId('detail-refund').click();
      const dialog = page.getByRole('dialog');
      await dialog.locator('input').fill('1.00');
      await dialog.locator('textarea').fill('上月订单补退');
      await dialog.getByTestId('prompt-submit').click();
      await page.getByTestId('refund-row').first().waitFor();
    });

    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/money/moneyIndex');
      // The finance page says how refunds are counted.
      assert.match(await page.getByTestId('fin-rule').innerText(), /退款按批准当日计入/);
      // Today's figures only.
      await page.getByTestId('fin-from').fill(today);
      await page.getByTestId('fin-search').click();
      await page.waitForFunction((day) => document.querySelector('[data-testid="fin-from"]')?.value === day, today);
      await page.getByTestId('fin-refunds').waitFor({ timeout: 20_000 });
      const todayRevenue = async () => (await api('GET', `/money/revenue?from=${today}&to=${today}`, admin)).data.total;
      const before = await todayRevenue();
      await page.waitForFunction((fen) => {
        const text = document.querySelector('[data-testid="fin-refunds"] span:last-child')?.textContent ?? '';
        return Math.round(Number(text.replace(/,/g, '')) * 100) === fen;
      }, before.refundedFen, { timeout: 20_000 });
      const netBefore = await cardFen(page, 'net');
      await shot(page, 'orders-11a-today-before-refund');

      // Approve from the queue (newest first: today's request leads).
      await page.getByTestId('fin-tab-refunds').click();
      await page.getByTestId('pending-refund').first().waitFor({ timeout: 20_000 });
      await page.getByTestId('pending-sort').click();
      const row = page.getByTestId('pending-refund').filter({ hasText: order.orderNo });
      await row.waitFor({ timeout: 10_000 });
      await row.getByTestId('pending-approve').click();
      await page.getByRole('dialog').getByTestId('prompt-submit').click();
      await row.waitFor({ state: 'detached', timeout: 10_000 });

      // Today's refunds and net moved by the 1.00 (the range lives in the URL: the reloaded view keeps today's).
      await page.getByTestId('fin-tab-revenue').click();
      await page.getByTestId('refresh-view').click();
      await page.getByTestId('fin-refunds').waitFor({ timeout: 20_000 });
      await page.waitForFunction((day) => document.querySelector('[data-testid="fin-from"]')?.value === day, today);
      await page.waitForFunction((fen) => {
        const text = document.querySelector('[data-testid="fin-refunds"] span:last-child')?.textContent ?? '';
        return Math.round(Number(text.replace(/,/g, '')) * 100) === fen;
      }, before.refundedFen + 100, { timeout: 20_000 });
      assert.equal(await cardFen(page, 'net'), netBefore - 100, "today's net falls by the refund");
      await page.getByTestId('fin-rule').scrollIntoViewIfNeeded();
      await shot(page, 'orders-11b-today-after-refund');
    });

    // Last month's statement is exactly what it was; the ledger lists the refund today.
    assert.deepEqual(await statement(), lastMonthBefore, "last month's settlement statement does not change");
    const ledger = await api('GET', `/money/ledger?from=${today}&to=${today}&pageSize=100`, admin);
    assert.ok(ledger.data.list.some((e) => e.orderNo === order.orderNo && e.amountFen === 100), "today's ledger lists the refund");
  });

  it('the refund ledger and the pending requests page with the store cursor and export every entry', async () => {
    const admin = await token(USERS.admin);
    const from = new Date(Date.now() - 119 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    // Every ledger entry of the range, as a script would read them.
    const all = [];
    for (let cursor = null; ; ) {
      const page = await api('GET', `/money/ledger?from=${from}&to=${to}&pageSize=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, admin);
      assert.equal(page.code, 200, JSON.stringify(page));
      // A settlement's row shows a dash where a refund shows its id.
      all.push(...page.data.list.map((e) => ((e.kind ?? 'refund') === 'refund' ? e.refundId : '—')));
      cursor = page.data.cursor;
      if (!cursor) break;
    }
    assert.ok(all.length > 20, `the demo ledger has more than a page (${all.length})`);

    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/money/moneyIndex');
      await page.getByTestId('fin-from').fill(from);
      await page.getByTestId('fin-search').click();
      await page.getByTestId('fin-tab-ledger').click();
      const ids = () => page.locator('[data-testid="fin-ledger"] tbody tr td:nth-child(3)').allInnerTexts();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="fin-ledger"] tbody tr').length === 20, null, { timeout: 20_000 });
      assert.deepEqual(await ids(), all.slice(0, 20), 'the first page is the ledger\'s first 20');
      await page.getByTestId('page-next').click();
      await page.waitForFunction((first) => document.querySelector('[data-testid="fin-ledger"] tbody tr td:nth-child(3)')?.textContent === first, all[20], { timeout: 20_000 });
      assert.deepEqual(await ids(), all.slice(20, 40), 'the second page continues where the first ended');
      await shot(page, 'orders-12-ledger-page-2');
      await page.getByTestId('page-prev').click();
      await page.waitForFunction((first) => document.querySelector('[data-testid="fin-ledger"] tbody tr td:nth-child(3)')?.textContent === first, all[0]);

      // The export holds every entry of the range, not only the page shown.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('ledger-export').click()]);
      const file = join(mkdtempSync(join(tmpdir(), 'ledger-export-')), download.suggestedFilename());
      await download.saveAs(file);
      const ExcelJS = (await import(pathToFileURL(join(ROOT, 'web/node_modules/exceljs/excel.js')).href)).default;
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(file);
      const exported = [];
      wb.worksheets[0].eachRow((row, n) => n > 1 && exported.push(String(row.getCell(3).value ?? '')));
      assert.deepEqual(exported, all.map((id) => (id === '—' ? '' : id)));

      // Pending requests: paged too, with an export of the whole queue.
      await page.getByTestId('fin-tab-refunds').click();
      await page.getByTestId('pending-refund').first().waitFor({ timeout: 20_000 });
      const [queueFile] = await Promise.all([page.waitForEvent('download'), page.getByTestId('pending-export').click()]);
      assert.match(queueFile.suggestedFilename(), /^refund-requests-\d{4}-\d{2}-\d{2}\.xlsx$/);
    });
  });

  it('an order closed by hand is paid offline or written off by finance; the order, the ledger and finance follow', async () => {
    const admin = await token(USERS.admin);
    // China days (YYYY-MM-DD at +08:00), as the API takes them.
    const chinaDay = (ms) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 10);
    const to = chinaDay(Date.now());
    // Stuck sessions (never stopped) that delivered energy under a tariff: closing one prices it, and nobody paid.
    // The whole demo history (120 days): the last 30 hold too few such orders.
    const stuck = await api('GET', `/order/getList?anomaly=stuck&from=${chinaDay(Date.now() - 130 * 86_400_000)}&to=${to}&pageSize=100`, admin);
    const candidates = [];
    for (const o of stuck.data.list) {
      const d = await api('GET', `/order/detail?id=${o.orderNo}`, admin);
      if (o.paidFen === 0 && d.data.tariff && (d.data.curve?.at(-1)?.energyWh ?? 0) > 0) candidates.push(o);
      if (candidates.length === 2) break;
    }
    assert.equal(candidates.length, 2, 'two stuck orders to close');
    const [paid, off] = candidates;
    // Finance counts an order on its start day: report from the older one's day to today.
    const since = [paid, off].map((o) => chinaDay(o.startTs * 1000)).sort()[0];
    const revenue = async () => (await api('GET', `/money/revenue?granularity=day&from=${since}&to=${to}`, admin)).data.total;
    const before = await revenue();

    // Each order opens in its own kept-alive tab: look at the shown one only.
    const shown = (page, id) => page.locator(`[data-testid="${id}"]:visible`);
    const closeByHand = async (page, no, reason) => {
      await go(page, `/order/detail?id=${no}`);
      await shown(page, 'detail-close').click();
      const dialog = page.getByRole('dialog');
      await dialog.locator('textarea').fill(reason);
      await dialog.getByTestId('prompt-submit').click();
      await dialog.waitFor({ state: 'hidden' });
      await shown(page, 'payment-owed').waitFor({ timeout: 10_000 });
      const d = await api('GET', `/order/detail?id=${no}`, admin);
      assert.equal(d.data.status, 'finished');
      assert.equal(d.data.paymentStatus, 'unpaid');
      assert.ok(d.data.amountFen > 0, 'the close priced it: money is owed');
      assert.match(await shown(page, 'payment-owed').innerText(), new RegExp(yuanText(d.data.amountFen).replace('.', '\\.')));
      return d.data.amountFen;
    };

    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      // Close the first by hand: finished, unpaid, owed; record the bank transfer.
      const owed = await closeByHand(page, paid.orderNo, '桩离线，人工结单');
      await shot(page, 'orders-12-closed-owed');
      await shown(page, 'payment-record').click();
      let dialog = page.getByRole('dialog');
      assert.equal(await dialog.getByTestId('pay-amount').inputValue(), yuanText(owed), 'the dialog offers what is owed');
      // Less than owed is refused in the dialog (the server refuses it too).
      await dialog.getByTestId('pay-amount').fill('0.01');
      await dialog.getByTestId('pay-submit').click();
      await dialog.getByText(`须等于待收金额 ${yuanText(owed)} 元`).waitFor();
      await dialog.getByTestId('pay-amount').fill(yuanText(owed));
      await dialog.getByTestId('pay-method').selectOption('bankTransfer');
      await dialog.getByTestId('pay-reference').fill('TX-E2E-0001');
      await shot(page, 'orders-13-record-payment');
      await dialog.getByTestId('pay-submit').click();
      await dialog.waitFor({ state: 'hidden' });
      const settled = shown(page, 'settlement');
      await settled.filter({ hasText: 'TX-E2E-0001' }).waitFor({ timeout: 10_000 });
      const text = await settled.innerText();
      assert.match(text, /线下收款/);
      assert.match(text, /银行转账/);
      assert.match(text, /admin/);
      await shown(page, 'order-detail').getByText('已支付', { exact: true }).waitFor();
      assert.equal(await shown(page, 'payment-record').count(), 0, 'no second payment offered');
      await shown(page, 'payment-section').scrollIntoViewIfNeeded();
      await shot(page, 'orders-14-paid-offline');
      // A second payment through the API: 409, nothing changes.
      const again = await api('POST', '/order/settle/offlinePayment', admin, { orderNo: paid.orderNo, method: 'cash', amount: yuanText(owed) });
      assert.equal(again.code, 409, JSON.stringify(again));

      // Write the second off.
      const owedOff = await closeByHand(page, off.orderNo, '客户车辆离场，人工结单');
      await shown(page, 'payment-write-off').click();
      dialog = page.getByRole('dialog');
      await dialog.getByTestId('write-off-submit').click();
      await dialog.getByText('请填写核销原因').waitFor();
      await dialog.getByTestId('write-off-reason').fill('客户失联，坏账核销');
      await dialog.getByTestId('write-off-submit').click();
      await dialog.waitFor({ state: 'hidden' });
      await shown(page, 'settlement').filter({ hasText: '客户失联，坏账核销' }).waitFor({ timeout: 10_000 });
      await shown(page, 'order-detail').getByText('已核销', { exact: true }).waitFor();
      await shown(page, 'payment-section').scrollIntoViewIfNeeded();
      await shot(page, 'orders-15-written-off');

      // Finance: paid up by the payment, written off up by the write-off, net by the payment only.
      const after = await revenue();
      assert.equal(after.paidFen, before.paidFen + owed);
      assert.equal(after.writtenOffFen, before.writtenOffFen + owedOff);
      assert.equal(after.netFen, before.netFen + owed);
      // The closes priced both (a stuck session has no amount until it stops); settling added none.
      assert.equal(after.amountFen, before.amountFen + owed + owedOff);
      // The page shows those figures for the same period.
      await go(page, '/money/moneyIndex');
      await page.getByTestId('fin-paid').waitFor({ timeout: 20_000 });
      await page.getByTestId('fin-from').fill(since);
      await page.getByTestId('fin-search').click();
      await page.waitForFunction(
        (paid) => {
          const text = document.querySelector('[data-testid="fin-paid"] span:last-child')?.textContent ?? '';
          return Math.round(Number(text.replace(/,/g, '')) * 100) === paid;
        },
        after.paidFen,
        { timeout: 20_000 },
      );
      assert.equal(await cardFen(page, 'writtenOff'), after.writtenOffFen);
      assert.equal(await cardFen(page, 'net'), after.netFen);
      await shot(page, 'orders-16-finance-after-settlements');
      await page.getByTestId('fin-tab-ledger').click();
      const payRow = page.getByTestId('ledger-offlinePayment').filter({ hasText: paid.orderNo });
      await payRow.waitFor({ timeout: 10_000 });
      assert.match(await payRow.innerText(), /线下收款 · 银行转账 · TX-E2E-0001/);
      const offRow = page.getByTestId('ledger-writeOff').filter({ hasText: off.orderNo });
      assert.match(await offRow.innerText(), /客户失联，坏账核销/);
      await shot(page, 'orders-17-ledger');

      // The order list's payment filter finds each by its new status.
      const listed = await api('GET', `/order/getList?paymentStatus=writtenOff&from=${chinaDay(off.startTs * 1000)}&to=${to}&orderNo=${off.orderNo}`, admin);
      assert.equal(listed.data.list.length, 1);
    });
  });

  it('the pager shows the total and jumps to the oldest and newest page; the export is named after its filters; ages read relative', async () => {
    const admin = await token(USERS.admin);
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/order/orderindex');
      await page.getByTestId('order-row').first().waitFor({ timeout: 20_000 });
      const first = await api('GET', '/order/getList?pageSize=20', admin);
      const total = first.data.total;
      const pages = Math.ceil(total / 20);
      await page.getByTestId('page-total').filter({ hasText: `共 ${total} 条` }).waitFor();
      assert.equal(await page.getByTestId('page-label').innerText(), `第 1 / ${pages} 页`);

      // The oldest page: the oldest orders, the page's rows newest first, numbered last.
      await page.getByTestId('page-last').click();
      await page.getByTestId('page-label').filter({ hasText: `第 ${pages} / ${pages} 页` }).waitFor();
      const rest = total % 20 || 20;
      const oldest = await api('GET', `/order/getList?pageSize=${rest}&sort=oldest`, admin);
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="order-row"]').length === n, rest);
      const shown = await page.getByTestId('order-link').allInnerTexts();
      assert.deepEqual(shown, oldest.data.list.map((o) => o.orderNo).reverse());
      assert.ok(await page.getByTestId('page-next').isDisabled(), 'nothing older');
      await page.getByTestId('pager').scrollIntoViewIfNeeded();
      await shot(page, 'orders-12-oldest-page');
      // One page newer, then back to the newest.
      await page.getByTestId('page-prev').click();
      await page.getByTestId('page-label').filter({ hasText: `第 ${pages - 1} / ${pages} 页` }).waitFor();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="order-row"]').length === 20);
      await page.getByTestId('page-first').click();
      await page.getByTestId('page-label').filter({ hasText: `第 1 / ${pages} 页` }).waitFor();
      await page.waitForFunction((no) => document.querySelector('[data-testid="order-link"]')?.textContent === no, first.data.list[0].orderNo);

      // Export by station and status: the file says so.
      const station = first.data.list[0].stationName;
      // The station picker asks the server for names starting with what is typed.
      await page.getByTestId('filter-station').click();
      await page.getByTestId('filter-station').fill(station.slice(0, 3));
      await page.getByRole('option', { name: new RegExp(`^${station} \\(`) }).click();
      await page.getByTestId('filter-status').click();
      await page.getByRole('option', { name: '已完成' }).click();
      await page.getByTestId('order-search').click();
      await page.getByTestId('page-total').waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('order-export').click()]);
      const name = download.suggestedFilename();
      assert.match(name, new RegExp(`^orders-${station}-已完成-\\d{4}-\\d{2}-\\d{2}-\\d{4}-\\d{2}-\\d{2}\\.xlsx$`), name);

      // Notices read how long ago they came.
      await page.getByTestId('notice-button').click();
      await page.getByTestId('notice-age').first().waitFor();
      assert.match(await page.getByTestId('notice-age').first().innerText(), /^(刚刚|\d+(分钟|小时|天|个月|年)前)$/);
      await shot(page, 'orders-13-notice-age');
    });
  });
});
