// Front-end figures of the built SPA (web/dist) on the local stack:
//
// 1. Bundle: gzip sizes of what index.html loads eagerly (the entry script,
//    every <link rel="modulepreload"> and the stylesheets), and the five
//    largest chunks of web/dist/static.
// 2. Time-to-interactive of /order/orderindex in headless Chromium: the
//    local gateway (tests/e2e/harness.mjs starts it with the seeded demo
//    data), a sign-in through the form, then RUNS full loads of the page
//    with an empty HTTP cache and RUNS with a warm one. Per load, from the
//    page's own performance API: navigation timing (DOMContentLoaded,
//    load), first contentful paint, the frame that shows the first order
//    rows, and the long tasks (PerformanceObserver 'longtask'). TTI = the
//    end of the last long task before the main thread stayed free of long
//    tasks for QUIET_MS, but not before the rows are shown and not before
//    DOMContentLoaded. Prints the median (and min / max) of each.
//
// Usage: node bench/web/frontend.mjs [--runs N] [--quiet-ms MS] [--json FILE]
// Needs: web/dist (npm --prefix web run build), the gateway binary
// (target/release/gateway by default; E2E_GATEWAY_BIN overrides), Debian's
// chromium, tests/e2e/node_modules (playwright-core).
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(import.meta.dirname, '../..');
const DIST = join(ROOT, 'web/dist');

function parseArgs(argv) {
  const opts = { runs: 7, quietMs: 1000, json: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const num = () => {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n <= 0) throw new Error(`${a} needs a positive whole number`);
      return n;
    };
    if (a === '--runs') opts.runs = num();
    else if (a === '--quiet-ms') opts.quietMs = num();
    else if (a === '--json') opts.json = argv[++i];
    else throw new Error(`unknown argument ${a} (use --runs N, --quiet-ms MS, --json FILE)`);
  }
  return opts;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const gzipSize = (file) => gzipSync(readFileSync(file)).length;

/** What index.html makes the browser fetch before the app can render. */
export function eagerAssets(html) {
  const assets = [];
  const attr = (tag, name) => tag.match(new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`, 'i'))?.[1];
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    if (/^<script/i.test(tag)) {
      const src = attr(tag, 'src');
      // Deferred by the browser but still needed for the first render; async
      // or nomodule scripts do not exist in this build.
      if (src) assets.push({ kind: 'js', href: src });
    } else {
      const rel = (attr(tag, 'rel') ?? '').toLowerCase();
      const href = attr(tag, 'href');
      if (!href) continue;
      if (rel === 'modulepreload') assets.push({ kind: 'js', href });
      else if (rel === 'stylesheet') assets.push({ kind: 'css', href });
    }
  }
  return assets;
}

export function bundleFigures(dist = DIST) {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const assets = eagerAssets(html).filter((a) => !/^(https?:)?\/\//.test(a.href));
  const sizes = { js: { files: 0, raw: 0, gzip: 0 }, css: { files: 0, raw: 0, gzip: 0 } };
  for (const a of assets) {
    const file = join(dist, a.href.replace(/^\.?\//, ''));
    if (!existsSync(file)) throw new Error(`index.html loads ${a.href}, which is not in web/dist`);
    const s = sizes[a.kind];
    s.files += 1;
    s.raw += readFileSync(file).length;
    s.gzip += gzipSize(file);
  }
  const staticDir = join(dist, 'static');
  const eager = new Set(assets.map((a) => a.href.replace(/^\.?\//, '')));
  const chunks = readdirSync(staticDir)
    .filter((f) => /\.(js|css)$/.test(f))
    .map((f) => {
      const file = join(staticDir, f);
      return { file: `static/${f}`, raw: readFileSync(file).length, gzip: gzipSize(file), eager: eager.has(`static/${f}`) };
    })
    .sort((a, b) => b.gzip - a.gzip);
  return { initial: sizes, largest: chunks.slice(0, 5), chunkCount: chunks.length };
}

// Installed before any page script on every load: records long tasks and
// the frame in which the first order row is in the DOM.
const INSTRUMENT = () => {
  const state = { longTasks: [], rowsAt: null, supported: false };
  window.__bench = state;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) state.longTasks.push({ start: e.startTime, end: e.startTime + e.duration });
    }).observe({ type: 'longtask', buffered: true });
    state.supported = PerformanceObserver.supportedEntryTypes.includes('longtask');
  } catch {
    state.supported = false;
  }
  const seen = () => {
    if (state.rowsAt !== null || !document.querySelector('[data-testid="order-row"]')) return false;
    // The frame that paints the rows.
    requestAnimationFrame(() => {
      if (state.rowsAt === null) state.rowsAt = performance.now();
    });
    return true;
  };
  const mo = new MutationObserver(() => {
    if (seen()) mo.disconnect();
  });
  mo.observe(document, { childList: true, subtree: true });
};

/** One full load of the order list; returns its timings (ms from navigation start). */
async function measureLoad(page, url, quietMs) {
  await page.goto('about:blank');
  await page.goto(`${url}/#/order/orderindex`, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__bench && window.__bench.rowsAt !== null, null, { timeout: 30_000, polling: 50 });
  // Wait for a quiet window: no long task for quietMs after the rows.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const quiet = await page.evaluate((q) => {
      const b = window.__bench;
      const lastEnd = b.longTasks.reduce((m, t) => Math.max(m, t.end), 0);
      return performance.now() - Math.max(b.rowsAt, lastEnd) >= q;
    }, quietMs);
    if (quiet) break;
    if (Date.now() > deadline) throw new Error('the main thread never stayed free of long tasks');
    await page.waitForTimeout(100);
  }
  const m = await page.evaluate(() => {
    const b = window.__bench;
    const nav = performance.getEntriesByType('navigation')[0];
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    const tasks = b.longTasks;
    const lastEnd = tasks.reduce((m, t) => Math.max(m, t.end), 0);
    const rows = document.querySelectorAll('[data-testid="order-row"]').length;
    const blocking = tasks
      .filter((t) => !fcp || t.start >= fcp.startTime)
      .reduce((s, t) => s + Math.max(0, t.end - t.start - 50), 0);
    const resources = performance.getEntriesByType('resource');
    return {
      supported: b.supported,
      responseEnd: nav.responseEnd,
      domContentLoaded: nav.domContentLoadedEventEnd,
      load: nav.loadEventEnd,
      fcp: fcp ? fcp.startTime : null,
      rowsShown: b.rowsAt,
      tti: Math.max(b.rowsAt, lastEnd, nav.domContentLoadedEventEnd),
      longTasks: tasks.length,
      totalBlocking: blocking,
      rows,
      requests: resources.length,
      transferred: resources.reduce((s, r) => s + (r.transferSize || 0), 0) + (nav.transferSize || 0),
      api: resources
        .filter((r) => r.name.includes('/partnerapi/') && r.startTime < b.rowsAt)
        .map((r) => ({ path: new URL(r.name).pathname.replace('/partnerapi', ''), start: r.startTime, end: r.responseEnd })),
      hash: location.hash,
    };
  });
  if (!m.supported) throw new Error('this Chromium does not report long tasks (PerformanceObserver longtask)');
  if (!m.hash.startsWith('#/order/orderindex')) throw new Error(`the page ended on ${m.hash}, not the order list (signed out?)`);
  if (m.rows < 1) throw new Error('the order list shows no rows');
  return m;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

function summarize(loads) {
  const keys = ['responseEnd', 'fcp', 'domContentLoaded', 'load', 'rowsShown', 'tti', 'longTasks', 'totalBlocking', 'requests', 'transferred'];
  const out = {};
  for (const k of keys) {
    const xs = loads.map((l) => l[k]).filter((v) => typeof v === 'number');
    out[k] = xs.length ? { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) } : null;
  }
  return out;
}

async function timeToInteractive(opts) {
  process.env.E2E_GATEWAY_BIN ??= join(ROOT, 'target/release/gateway');
  const { startGateway, launchBrowser, login, USERS } = await import('../../tests/e2e/harness.mjs');
  const gateway = await startGateway();
  const browser = await launchBrowser();
  try {
    const { page, context } = browser;
    await context.addInitScript(INSTRUMENT);
    await login(page, gateway.url, USERS.admin);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // One unmeasured load: the first run of a fresh browser pays for
    // compiling its own code, not the app's.
    await cdp.send('Network.clearBrowserCache');
    await measureLoad(page, gateway.url, opts.quietMs);
    const cold = [];
    const warm = [];
    for (let i = 0; i < opts.runs; i++) {
      await cdp.send('Network.clearBrowserCache');
      cold.push(await measureLoad(page, gateway.url, opts.quietMs));
      warm.push(await measureLoad(page, gateway.url, opts.quietMs));
    }
    if (browser.errors.length) throw new Error(`page errors: ${browser.errors.map(String).join('; ')}`);
    const { product } = await cdp.send('Browser.getVersion');
    return { cold, warm, chromium: product };
  } finally {
    await browser.close();
    await gateway.stop();
  }
}

function printBundle(b) {
  console.log('web/dist, eager load of index.html (entry script + modulepreload + stylesheets), gzip (zlib default level):');
  for (const kind of ['js', 'css']) {
    const s = b.initial[kind];
    console.log(`  initial ${kind.toUpperCase().padEnd(3)} ${kb(s.gzip).padStart(9)} gzip  (${kb(s.raw)} raw, ${s.files} files)`);
  }
  console.log(`largest chunks (of ${b.chunkCount}), by gzip size:`);
  for (const c of b.largest) {
    console.log(`  ${c.file.padEnd(44)} ${kb(c.gzip).padStart(9)} gzip  ${kb(c.raw).padStart(10)} raw${c.eager ? '  (eager)' : ''}`);
  }
}

/** The API calls made before the rows showed: median start and end per path. */
function apiWaterfall(loads) {
  const byPath = new Map();
  for (const l of loads) {
    for (const c of l.api) {
      if (!byPath.has(c.path)) byPath.set(c.path, []);
      byPath.get(c.path).push(c);
    }
  }
  return [...byPath.entries()]
    .map(([path, cs]) => ({ path, start: median(cs.map((c) => c.start)), end: median(cs.map((c) => c.end)) }))
    .sort((a, b) => a.start - b.start);
}

function printTti(label, s, runs, loads) {
  const f = (k, unit = 'ms') => {
    const v = s[k];
    if (!v) return 'n/a';
    const fmt = (x) => (unit === 'KB' ? (x / 1024).toFixed(0) : unit === '' ? x.toFixed(0) : x.toFixed(0));
    return `${fmt(v.median)} ${unit}`.trim() + ` (${fmt(v.min)}-${fmt(v.max)})`;
  };
  console.log(`/order/orderindex, ${label}, median (min-max) of ${runs} loads:`);
  console.log(`  TTI ${f('tti')} | rows shown ${f('rowsShown')} | FCP ${f('fcp')} | DOMContentLoaded ${f('domContentLoaded')} | load ${f('load')}`);
  console.log(`  long tasks ${f('longTasks', '')} | blocking time after FCP ${f('totalBlocking')} | requests ${f('requests', '')} | transferred ${f('transferred', 'KB')}`);
  const calls = apiWaterfall(loads).map((c) => `${c.path} ${c.start.toFixed(0)}-${c.end.toFixed(0)}`);
  console.log(`  API calls before the rows (median ms from navigation start): ${calls.join(', ')}`);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!existsSync(join(DIST, 'index.html'))) throw new Error('web/dist is not built: npm --prefix web run build');
  const bundle = bundleFigures();
  printBundle(bundle);
  const started = Date.now();
  const tti = await timeToInteractive(opts);
  const cold = summarize(tti.cold);
  const warm = summarize(tti.warm);
  console.log(`\nheadless Chromium ${tti.chromium ?? ''}, 1440x900, local gateway (SQLite, seeded demo data), quiet window ${opts.quietMs} ms`);
  printTti('empty HTTP cache', cold, opts.runs, tti.cold);
  printTti('warm HTTP cache', warm, opts.runs, tti.warm);
  console.log(`(measured in ${((Date.now() - started) / 1000).toFixed(0)} s)`);
  if (opts.json) writeFileSync(opts.json, JSON.stringify({ bundle, cold, warm, loads: tti }, null, 2));
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  main().catch((e) => {
    console.error(`error: ${e.message ?? e}`);
    process.exit(1);
  });
}
