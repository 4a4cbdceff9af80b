// End-to-end check of the template demo pages: every demo route of
// the menu data opens for admin without a page error or console error, is a
// real page (not the "being built" placeholder), and is screenshotted
// (screenshots/demo-*.png). A few pages are also driven through their API.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAndChoose, gatewayForFile, go, login, pagesOf, ROOT, shot, USERS, viewReady, withBrowser } from './harness.mjs';

const menu = JSON.parse(readFileSync(join(ROOT, 'shared/backoffice/data/menu-routes.json'), 'utf8'));

/** Full paths of the routes with a view under the demo sections (/, /vab, /other, /mall). */
const demoRoutes = () => pagesOf(menu.filter((r) => ['/', '/vab', '/other', '/mall'].includes(r.path)));

/** A concrete address for a route pattern (parameters and the query a page needs). */
function concrete(route, baseUrl) {
  let p = route.path.replace(/:(\w+)/g, '1');
  if (route.component === 'vab/table/detail') p += '?id=1';
  if (route.component === 'other/dynamicSegment/test2') p += '?id=1';
  if (route.component === 'other/iframe/view') p += `?${new URLSearchParams({ url: `${baseUrl}/demo/img-01.svg`, title: 'demo image' })}`;
  return p;
}

const slug = (path) => path.replace(/^\//, '').replace(/[^\w]+/g, '-').replace(/-+$/, '') || 'root';

const gateway = gatewayForFile();

/** Signs in as admin and runs `fn`; any page or console error fails the test. */
async function withAdmin(fn) {
  await withBrowser(
    async (page) => {
      await login(page, gateway.url, USERS.admin);
      await fn(page);
    },
    { consoleErrors: true },
  );
}

describe('demo pages', () => {
  it('every demo route opens without errors and is a real page', async () => {
    const routes = demoRoutes();
    assert.ok(routes.length >= 50, `found ${routes.length} demo routes`);
    await withAdmin(async (page) => {
      for (const route of routes) {
        const path = concrete(route, gateway.url);
        await go(page, path);
        await viewReady(page);
        const pane = page.locator('.view-pane:visible');
        assert.equal(await page.getByTestId('under-construction').filter({ visible: true }).count(), 0, `${path} is built`);
        assert.equal(await pane.locator('.fui-MessageBar[data-intent="error"]').count().catch(() => 0), 0, `${path} has no error boundary`);
        await shot(page, `demo-${slug(route.path)}`);
      }
    });
  });

  it('comprehensive table: title filter, required title on save, simulated save message, detail tab', async () => {
    await withAdmin(async (page) => {
      await go(page, '/vab/table/comprehensiveTable');
      await page.getByTestId('table-filter').waitFor();
      const rows = page.locator('.view-pane:visible tbody tr');
      await rows.first().waitFor();
      assert.equal(await rows.count(), 20);
      await page.getByRole('button', { name: '添加' }).click();
      await page.getByRole('button', { name: '确定' }).click();
      await page.getByText('标题不能为空').waitFor();
      await page.getByTestId('edit-title').fill('e2e title');
      await page.getByRole('button', { name: '确定' }).click();
      await page.getByTestId('toast').filter({ hasText: '模拟保存成功' }).waitFor({ timeout: 10_000 });
      await rows.first().getByRole('button', { name: '详情' }).click();
      await page.getByTestId('detail-row').waitFor();
      await shot(page, 'demo-x-table-detail');
    });
  });

  it('workflow: loads the graph from the server and saves it', async () => {
    await withAdmin(async (page) => {
      await go(page, '/other/workflow');
      await page.locator('[data-testid="workflow-canvas"] svg .lf-node').first().waitFor({ timeout: 20_000 });
      const nodes = await page.locator('[data-testid="workflow-canvas"] .lf-node').count();
      assert.ok(nodes >= 2, `rendered ${nodes} nodes`);
      const saved = page.waitForResponse((r) => r.url().includes('/workflow/doEdit'));
      await page.getByTestId('workflow-save').click();
      assert.equal((await saved).status(), 200);
      // A node dragged from the palette stays after a tab switch (the canvas is rebuilt from the kept graph).
      const canvas = await page.getByTestId('workflow-canvas').boundingBox();
      await page.getByRole('button', { name: '用户任务' }).hover();
      await page.mouse.down();
      await page.mouse.move(canvas.x + 120, canvas.y + canvas.height - 80, { steps: 8 });
      await page.mouse.up();
      await page.waitForFunction((n) => document.querySelectorAll('.view-pane:not([hidden]) [data-testid="workflow-canvas"] .lf-node').length === n + 1, nodes);
      await go(page, '/other/cssfx');
      await go(page, '/other/workflow');
      await page.waitForFunction((n) => document.querySelectorAll('.view-pane:not([hidden]) [data-testid="workflow-canvas"] .lf-node').length === n + 1, nodes);
      await shot(page, 'demo-x-workflow-saved');
    });
  });

  it('excel: exports an .xlsx built in the browser', async () => {
    await withAdmin(async (page) => {
      await go(page, '/other/excel/exportMergeHeaderExcel');
      await page.locator('.view-pane:visible tbody tr').first().waitFor();
      const download = page.waitForEvent('download');
      await page.getByTestId('excel-export').click();
      const file = await download;
      assert.match(file.suggestedFilename(), /\.xlsx$/);
      const path = await file.path();
      const bytes = readFileSync(path);
      assert.equal(bytes.subarray(0, 2).toString(), 'PK', 'an xlsx is a zip file');
    });
  });

  it('own pickers and the icon selector open and set a value', async () => {
    await withAdmin(async (page) => {
      await go(page, '/vab/form/datePicker');
      const input = page.locator('.view-pane:visible input').nth(1);
      await input.click();
      const day = page.getByRole('button', { name: /\d{4}-\d{2}-15$/ });
      await day.waitFor();
      await shot(page, 'demo-x-date-picker-open');
      const label = await day.getAttribute('aria-label');
      await day.click();
      assert.equal(await input.inputValue(), label);
      await go(page, '/vab/icon/iconSelector');
      await page.getByTestId('icon-picker').click();
      const icon = page.getByRole('button', { name: 'add-line' });
      await icon.waitFor({ timeout: 10_000 });
      await shot(page, 'demo-x-icon-selector-open');
      await icon.click();
      assert.match(await page.getByTestId('icon-chosen').innerText(), /ri-add-line/);
    });
  });

  it('in English the demo pages show no Chinese UI text (server data aside)', async () => {
    await withAdmin(async (page) => {
      await openAndChoose(page, 'language-switch', 'language-en');
      await page.waitForFunction(() => document.title.startsWith('Home'));
      // Pages whose text is all UI strings (no mock data from the server).
      for (const path of ['/vab/form/button', '/vab/form/rate', '/vab/form/stepForm', '/other/upload', '/other/cssfx', '/other/drag/flowSheetDrag', '/other/contextmenu', '/other/player', '/vab/form/comprehensiveForm']) {
        await go(page, path);
        await viewReady(page);
        const text = await page.locator('.view-pane:visible').innerText();
        assert.doesNotMatch(text, /[\u4e00-\u9fff]/, `${path} is translated: ${text.match(/.{0,20}[\u4e00-\u9fff].{0,20}/)?.[0]}`);
      }
      await shot(page, 'demo-x-english-comprehensiveForm');
    });
  });

  it('kept-alive demo tabs keep their content: editor text, chosen files, generated audio', async () => {
    await withAdmin(async (page) => {
      await go(page, '/vab/editor/richTextEditor');
      const editor = page.locator('[data-testid="rich-editor"] .ProseMirror');
      await editor.click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type(' kept-alive text');
      await go(page, '/other/upload');
      const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
      await page.getByTestId('upload-input').setInputFiles([
        { name: 'dot.png', mimeType: 'image/png', buffer: png },
        { name: 'tool.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') },
      ]);
      await page.getByText('tool.exe：不支持的文件类型').waitFor();
      const preview = page.locator('[data-testid="upload-list"] img');
      await preview.waitFor();
      await shot(page, 'demo-x-upload-chosen');
      await go(page, '/other/player');
      await page.getByTestId('audio').waitFor();
      await go(page, '/vab/editor/richTextEditor');
      assert.match(await editor.innerText(), /kept-alive text/);
      await go(page, '/other/upload');
      await page.waitForFunction(() => {
        const img = document.querySelector('.view-pane:not([hidden]) [data-testid="upload-list"] img');
        return img instanceof HTMLImageElement && img.complete && img.naturalWidth === 1;
      });
      await go(page, '/other/player');
      const duration = await page.getByTestId('audio').evaluate(
        (a) => new Promise((res) => (a.readyState >= 1 ? res(a.duration) : a.addEventListener('loadedmetadata', () => res(a.duration), { once: true }))),
      );
      assert.ok(duration > 2 && duration < 5, `generated audio plays (${duration} s)`);
    });
  });
});
