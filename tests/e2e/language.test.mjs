// End-to-end: one language at a time. Every page of the menu (and the
// detail pages: an order, a station with a connected charger and its
// commands, the charger's message log, the demo's detail pages) is opened
// in Chinese and in English, and the test fails on text of the other
// language outside data.
//
// The rule. Text inside `translate="no"` (the HTML attribute for content
// that is not to be translated: names, codes, what a charger or a user
// typed), <pre>, <code>, form values and hidden elements is data and is
// not read. Elsewhere:
// - in Chinese, a word of three or more Latin letters is English, unless
//   it is on the small list below (units, protocol and brand names) or it
//   is code-like (it holds a digit, "@", "://" or ":"; e.g. DEMO0012,
//   KSTARDC001602, read:system);
// - in English, any Han character is Chinese.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiClient, openAndChoose, eventually, gatewayForFile, go, login, pagesOf, shot, startCharger, USERS, viewReady, withBrowser } from './harness.mjs';

const gateway = gatewayForFile();
const { api, token } = apiClient(gateway);

/** Latin words a Chinese page may show: units, protocols, formats and brand names. */
const LATIN_ALLOWED = [
  // units, protocols and character sets
  'kWh', 'OCPP', 'TLS', 'UTC', 'http', 'https', 'ftp', 'ftps', 'ASCII',
  // the kinds of identifier a charging card is (OCPP 2.0.1's names)
  'RFID', 'ISO', 'MAC', 'eMAID',
  // file formats
  'Excel', 'xlsx', 'csv', 'txt', 'PDF', 'WAV', 'WebM', 'HTML', 'Markdown',
  // brand names
  'JavaScript', 'Chrome', 'Edge', 'Firefox', 'Safari', 'ECharts', 'MDN', 'Fluent',
];

/** Text of the other language outside data, on what the page shows now (`clean`: whether there is none). */
function strayText([lang, allowed, clean]) {
  const hits = new Set();
  const latinWord = /[A-Za-z]{3,}/;
  const han = /[\u3400-\u9fff\uf900-\ufaff]/;
  const codeLike = (token) => /\d|@|:\/\/|:/.test(token);
  const isData = (el) => !!el.closest('[translate="no"], pre, code, kbd, script, style, noscript, textarea, [aria-hidden="true"]');
  const visible = (el) => {
    if (!el.getClientRects().length) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none';
  };
  const judge = (text, where) => {
    if (lang === 'en') {
      if (han.test(text)) hits.add(`${where}: ${text.trim().slice(0, 60)}`);
      return;
    }
    for (const token of text.split(/[\s，。、；：（）()【】「」“”"'·,;!?<>|/\\[\]{}+=*&%#~^]+/)) {
      if (!latinWord.test(token) || codeLike(token)) continue;
      const words = token.match(/[A-Za-z]+/g) ?? [];
      if (words.some((w) => w.length >= 3 && !allowed.includes(w))) hits.add(`${where}: ${token}`);
    }
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !n.nodeValue.trim() || isData(el) || !visible(el)) continue;
    const where = el.closest('[data-testid]')?.getAttribute('data-testid') ?? el.tagName.toLowerCase();
    judge(n.nodeValue, where);
  }
  for (const el of document.querySelectorAll('input[placeholder], textarea[placeholder]')) {
    if (!isData(el.parentElement ?? el) && visible(el)) judge(el.getAttribute('placeholder'), 'placeholder');
  }
  return clean ? hits.size === 0 : [...hits];
}

describe('one language at a time', () => {
  it('no page shows text of the other language outside data, in Chinese or in English', async () => {
    const admin = await token(USERS.admin);
    const tree = (await api('GET', '/router/getList', admin)).data.list;
    // A connected charger with answered commands and a message log, and one of its orders.
    const stations = await api('GET', '/station/getList?pageNo=1&pageSize=50&status=operating', admin);
    const station = stations.data.list.find((s) => s.tariffId);
    const added = await api('POST', '/pile/doAdd', admin, {
      stationId: station.id, code: 'LANGCP01', vendor: 'E2E', model: 'DC', firmwareVersion: '1', pileType: 'dc', ratedPowerKw: 60,
      heartbeatIntervalSecs: 30, registrationStatus: 'Accepted', securityProfile: 1, connectors: [{ standard: 'gbt2015', maxPowerKw: 60, qrCode: '' }],
    });
    assert.equal(added.code, 200, JSON.stringify(added));
    const pileId = added.data.pile?.id ?? added.data.id;
    const password = (await api('POST', '/pile/setPassword', admin, { id: pileId })).data.password;
    const charger = startCharger(gateway, 'LANGCP01', password, 'DEMO0012');
    try {
      const tx = await charger.done;
      for (const [path, body] of [
        ['/charger/getConfiguration', {}],
        ['/charger/reset', { type: 'Soft' }],
        ['/charger/trigger', { requestedMessage: 'StatusNotification' }],
      ]) {
        const sent = await api('POST', path, admin, { pileId, ...body });
        assert.equal(sent.code, 200, JSON.stringify(sent));
        // Each command has ended (answered, refused or timed out) before the next is sent.
        await eventually(async () => {
          const c = await api('GET', `/charger/command?id=${sent.data.id}`, admin);
          return !['queued', 'sent'].includes(c.data.status);
        }, `the ${path} command to end`, { timeout: 40_000 });
      }
      const order = (await api('GET', '/order/getList?userId=DEMO0012&pageSize=50', admin)).data.list.find((o) => o.transactionId === tx);
      assert.ok(order, 'the charger session is an order');

      const concrete = (route) => {
        let p = route.path.replace(/:(\w+)/g, '1');
        if (route.component === 'order/detail') p += `?id=${order.orderNo}`;
        if (route.component === 'connector/stationdetail') p += `?id=${station.id}`;
        if (route.component === 'connector/messageLog') p += `?pileId=${pileId}&code=LANGCP01`;
        if (route.component === 'vab/table/detail') p += '?id=1';
        if (route.component === 'other/dynamicSegment/test2') p += '?id=1';
        if (route.component === 'other/iframe/view') p += `?${new URLSearchParams({ url: `${gateway.url}/demo/img-01.svg`, title: 'demo' })}`;
        return p;
      };
      const pages = pagesOf(tree).map(concrete);
      assert.ok(pages.length >= 60, `${pages.length} pages`);

      for (const lang of ['zh', 'en']) {
        const found = [];
        await withBrowser(async (page) => {
          // Requests in flight, and who waits for there to be none.
          let inFlight = 0;
          let waiting = [];
          const ended = () => {
            inFlight--;
            if (inFlight <= 0) {
              waiting.forEach((resolve) => resolve());
              waiting = [];
            }
          };
          const quiet = () => (inFlight <= 0 ? Promise.resolve() : new Promise((resolve) => waiting.push(resolve)));
          page.on('request', () => inFlight++);
          page.on('requestfinished', ended);
          page.on('requestfailed', ended);
          await login(page, gateway.url, USERS.admin);
          if (lang === 'en') {
            await openAndChoose(page, 'language-switch', 'language-en');
            await page.waitForFunction(() => document.title.startsWith('Home'));
          }
          for (const path of pages) {
            await go(page, path);
            // The page's code has arrived with its area's strings (the registry loads them together).
            await viewReady(page);
            // Its data has arrived: no spinner (the loading demo shows its spinners for good), nothing in flight,
            // and the answer is painted.
            if (path !== '/other/loading') {
              await page.waitForFunction(() => ![...document.querySelectorAll('.view-pane .fui-Spinner')].some((s) => s.checkVisibility()), null, { timeout: 20_000 });
            }
            await quiet();
            await page.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))));
            const hits = await page.evaluate(strayText, [lang, LATIN_ALLOWED, false]);
            if (hits.length) {
              found.push(`${path}\n    ${hits.join('\n    ')}`);
              await shot(page, `language-${lang}-${path.replace(/[^\w]+/g, '-').slice(0, 60)}`);
            }
          }
        });
        assert.deepEqual(found, [], `${lang === 'zh' ? 'English in the Chinese UI' : 'Chinese in the English UI'}:\n${found.join('\n')}`);
      }
    } finally {
      await charger.stop();
    }
  });
});
