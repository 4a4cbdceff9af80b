// Lookups without caps in real Chromium: a person filters
// the system log by type and day, sorts the order list by amount, and finds
// a station by a word from the middle of its name.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiClient, gatewayForFile, go, login, shot, USERS, withBrowser } from './harness.mjs';

const gateway = gatewayForFile();
const { api, token } = apiClient(gateway);

/** A China-local day, YYYY-MM-DD, `offset` days from today. */
const chinaDay = (offset = 0) => new Date(Date.now() + 8 * 3600_000 + offset * 86_400_000).toISOString().slice(0, 10);

describe('lookups', () => {
  it('the system log filters by type and day', async () => {
    const admin = await token(USERS.admin);
    for (const title of ['e2e one', 'e2e two']) {
      assert.equal((await api('POST', '/table/doEdit', admin, { title })).code, 200);
    }
    // The type's name as a Chinese reader sees it in the dropdown.
    const zh = await fetch(`${gateway.url}/partnerapi/systemLog/getList?pageSize=1`, { headers: { authorization: `Bearer ${admin}`, 'accept-language': 'zh-CN' } }).then((r) => r.json());
    const label = zh.data.types.find((t) => t.value === 'demo_table_edit').label;

    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, '/setting/systemLog');
      await page.locator('[data-log-path]').first().waitFor();
      // Each step is checked where it lands (the filter is in the address), so a failure
      // names the step.
      const inAddress = (name, value) =>
        page
          .waitForFunction(([n, v]) => new URLSearchParams(location.hash.split('?')[1] ?? '').get(n) === v, [name, value])
          .then(() => true, () => false);
      await page.getByTestId('log-type-filter').click();
      await page.getByRole('option', { name: label, exact: true }).click();
      assert.ok(await inAddress('type', 'demo_table_edit'), `choosing the type '${label}' did not filter the log (address: ${page.url()})`);
      await page.getByTestId('log-from').fill(chinaDay());
      await page.getByTestId('log-to').fill(chinaDay());
      assert.ok(await inAddress('from', chinaDay()), `the day filter is not in the address: ${page.url()}`);
      assert.ok(await inAddress('to', chinaDay()), `the day filter is not in the address: ${page.url()}`);
      await page
        .waitForFunction(() => {
          const rows = [...document.querySelectorAll('[data-log-path]')];
          return rows.length > 0 && rows.every((r) => r.getAttribute('data-log-path') === '/table/doEdit');
        })
        .catch(async (e) => {
          const seen = await page.$$eval('[data-log-path]', (rows) => rows.map((r) => r.getAttribute('data-log-path')));
          assert.fail(`${e.message}: rows shown ${JSON.stringify(seen)} at ${page.url()}`);
        });
      const paths = await page.$$eval('[data-log-path]', (rows) => rows.map((r) => r.getAttribute('data-log-path')));
      assert.equal(paths.length, 2, `today's two demo edits: ${paths}`);
      await page.getByText('按类型或日期筛选时不统计总数').waitFor();
      await shot(page, 'lookups-01-log-by-type-and-day');

      // A day before the product existed: nothing.
      await page.getByTestId('log-from').fill(chinaDay(-400));
      await page.getByTestId('log-to').fill(chinaDay(-399));
      await page.waitForFunction(() => document.querySelectorAll('[data-log-path]').length === 0);
    });
  });

  it('the order list sorts by amount from its column title, kept in the URL', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.editor);
      await go(page, '/order/orderindex');
      await page.getByTestId('order-row').first().waitFor();
      const amounts = () => page.$$eval('[data-testid="order-row"]', (rows) => rows.map((r) => Number(r.children[6].textContent.replace(/[^0-9.-]/g, ''))));
      const sorted = async (descending) => {
        await page.waitForFunction(
          (desc) => {
            const v = [...document.querySelectorAll('[data-testid="order-row"]')].map((r) => Number(r.children[6].textContent.replace(/[^0-9.-]/g, '')));
            return v.length > 1 && v.every((x, i) => i === 0 || (desc ? v[i - 1] >= x : v[i - 1] <= x)) && (!desc || v[0] !== v[v.length - 1]);
          },
          descending,
          { timeout: 15_000 },
        );
      };
      await page.getByTestId('sort-amount').getByRole('button').click();
      await sorted(true);
      assert.match(page.url(), /sort=amountDesc/);
      const top = await amounts();
      await shot(page, 'lookups-02-orders-by-amount');
      // The next page goes on downward.
      await page.getByTestId('page-next').click();
      await page.waitForFunction((first) => Number(document.querySelector('[data-testid="order-row"]').children[6].textContent.replace(/[^0-9.-]/g, '')) <= first, top[top.length - 1]);
      await page.getByTestId('page-first').click();
      await page.getByTestId('sort-amount').getByRole('button').click();
      await sorted(false);
      assert.match(page.url(), /sort=amountAsc/);
      // A reload keeps the sort (it is in the URL).
      await page.reload();
      await page.getByTestId('order-row').first().waitFor();
      await sorted(false);
    });
  });

  it('the station picker finds a station by a word from the middle of its name', async () => {
    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.editor);
      await go(page, '/order/orderindex');
      await page.getByTestId('order-row').first().waitFor();
      const picker = page.getByTestId('filter-station');
      await picker.click();
      await picker.fill('soho');
      // The server answers the stations whose name holds the word: only those are offered.
      await page.waitForFunction(() => {
        const names = [...document.querySelectorAll('[role="option"]')].map((o) => o.textContent).filter((n) => n !== '全部充电站');
        return names.length > 0 && names.every((n) => n.includes('SOHO'));
      });
      const option = page.getByRole('option', { name: /^望京SOHO充电站 \(/ });
      await shot(page, 'lookups-03-station-by-middle-word');
      await option.click();
      await page.getByTestId('order-search').click();
      await page.waitForFunction(() => {
        const rows = [...document.querySelectorAll('[data-testid="order-row"]')];
        return rows.length > 0 && rows.every((r) => r.children[1].textContent.startsWith('望京SOHO充电站'));
      });
    });
  });
});
