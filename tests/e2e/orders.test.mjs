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
      await page.locator('[data-testid="detail-curve"] canvas').first().waitFor({ timeout: 20_000 });
      assert.match(hashPath(page), /^\/order\/detail\?id=/);
      const tabs = await page.getByTestId('tabs-bar').innerText();
      assert.ok(tabs.includes(`订单详情`), tabs);
      await shot(page, 'orders-04-detail');
    });
  });

  it('a refund requested by the editor is approved only by the admin, and finance follows', async () => {
    const admin = await token(USERS.admin);
    const editor = await token(USERS.editor);
    const range = await api('GET', '/order/getList?paymentStatus=paid&pageSize=50', admin);
    const order = range.data.list.find((o) => o.paidFen >= 200 && o.refundedFen === 0);
    assert.ok(order, 'a paid demo order');

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
      await page.getByTestId('confirm-ok').click();
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
});
