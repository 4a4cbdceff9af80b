// Test harness: starts the local gateway binary (built beforehand) on a free
// port with a fresh data directory and known seed passwords, and drives
// Debian's chromium through playwright-core. All traffic stays on 127.0.0.1.
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

export const ROOT = resolve(import.meta.dirname, '../..');
export const SCREENSHOTS = join(import.meta.dirname, 'screenshots');
export const GATEWAY = process.env.E2E_GATEWAY_BIN ?? join(ROOT, 'target/debug/gateway');
export const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';

export const USERS = {
  admin: { username: 'admin', password: 'admin-pass-123' },
  editor: { username: 'editor', password: 'editor-pass-123' },
  test: { username: 'test', password: 'test-pass-123' },
};

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The lowest port picked: browsers and fetch refuse some ports below it (10080 among them). */
const LOWEST_PORT = 20000;

/** Where the kernel's ephemeral ports begin (32768 on Linux by default). */
function ephemeralRangeStart() {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

function bindable(port) {
  return new Promise((res) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => res(null));
    srv.listen(port, '127.0.0.1', () => {
      const bound = srv.address().port;
      srv.close(() => res(bound));
    });
  });
}

/**
 * A free loopback port below the kernel's ephemeral range. A port from that
 * range (what listening on port 0 gives) is also handed to outgoing
 * connections, the browser's and the tests' own, so one picked there can be
 * taken before the gateway binds it; below it only another test's pick can
 * collide, one chance in thousands within the moment of a start.
 */
async function freePort() {
  const start = ephemeralRangeStart();
  for (let i = 0; i < 1000; i++) {
    const port = start > LOWEST_PORT + 2000 ? LOWEST_PORT + Math.floor(Math.random() * (start - LOWEST_PORT)) : 0;
    const bound = await bindable(port);
    if (bound) return bound;
  }
  throw new Error('no free loopback port');
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts a gateway (YKC piles on a free TCP port of its own, `ykcPort`);
 * resolves once GET /partnerapi/publicKey answers 200.
 * `env` is extra environment, or a function of the gateway's URL giving it
 * (for settings that name the gateway itself, such as a redirect URI).
 */
export async function startGateway({ accessTokenTtl, env: extraEnv = {} } = {}) {
  if (!existsSync(GATEWAY)) throw new Error(`gateway binary missing: ${GATEWAY} (run: cargo build -p gateway)`);
  if (!existsSync(join(ROOT, 'web/dist/index.html'))) throw new Error('web/dist missing (run: npm --prefix web run build)');
  const port = await freePort();
  // YKC piles connect over TCP to a port of their own (BACKOFFICE_YKC_PORT).
  const ykcPort = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-e2e-'));
  const env = {
    ...process.env,
    BACKOFFICE_DATA_DIR: dataDir,
    BACKOFFICE_HOST: '127.0.0.1',
    BACKOFFICE_PORT: String(port),
    BACKOFFICE_WEB_DIST: join(ROOT, 'web/dist'),
    BACKOFFICE_SEED_PASSWORD_ADMIN: USERS.admin.password,
    BACKOFFICE_SEED_PASSWORD_EDITOR: USERS.editor.password,
    BACKOFFICE_SEED_PASSWORD_TEST: USERS.test.password,
    BACKOFFICE_YKC_PORT: String(ykcPort),
    ...(accessTokenTtl ? { BACKOFFICE_ACCESS_TOKEN_TTL: String(accessTokenTtl) } : {}),
    ...(typeof extraEnv === 'function' ? extraEnv(`http://127.0.0.1:${port}`) : extraEnv),
  };
  const child = spawn(GATEWAY, [], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gateway exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/partnerapi/publicKey`);
      if (res.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`gateway not ready after 60 s:\n${output}`);
    }
    await sleep(200);
  }
  return {
    url,
    ykcPort,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([new Promise((r) => child.once('exit', r)), sleep(5000)]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh browser profile (own --user-data-dir) with a desktop viewport;
 * `timezoneId` sets the browser's own time zone, `javaScriptEnabled` false
 * gives a browser without scripts.
 */
export async function launchBrowser({ width = 1440, height = 900, locale = 'zh-CN', timezoneId, javaScriptEnabled = true } = {}) {
  const userDataDir = mkdtempSync(join(tmpdir(), 'backoffice-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width, height },
    locale,
    javaScriptEnabled,
    ...(timezoneId ? { timezoneId } : {}),
    serviceWorkers: 'block',
  });
  // The last pointer and key events each page saw, with the element each
  // reached, so a click that did nothing can be told from one never made.
  await context.addInitScript(recordInputs);
  const page = context.pages()[0] ?? (await context.newPage());
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  // Any Content-Security-Policy violation on any page of the browser fails
  // the test that caused it (Chromium reports them on the console).
  const cspViolations = [];
  context.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) cspViolations.push(`${msg.page()?.url() ?? ''}: ${msg.text()}`);
  });
  return {
    context,
    page,
    errors,
    cspViolations,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
      if (cspViolations.length) throw new Error(`Content-Security-Policy violations:\n${cspViolations.join('\n')}`);
    },
  };
}

/** Runs in each page before its scripts: keeps the last 16 input events in `window.__inputs`. */
function recordInputs() {
  const seen = [];
  Object.defineProperty(window, '__inputs', { value: seen });
  const describe = (el) => {
    if (!(el instanceof Element)) return String(el?.nodeName ?? el);
    const id = el.closest('[data-testid]')?.getAttribute('data-testid');
    return `${el.tagName.toLowerCase()}${el.getAttribute('role') ? `[${el.getAttribute('role')}]` : ''}${id ? ` in ${id}` : ''}`;
  };
  for (const type of ['pointerdown', 'pointerup', 'click', 'keydown']) {
    window.addEventListener(
      type,
      (e) => {
        seen.push({ type, at: Math.round(performance.now()), target: describe(e.target), ...(e.key ? { key: e.key } : { x: Math.round(e.clientX), y: Math.round(e.clientY) }) });
        if (seen.length > 16) seen.shift();
      },
      true,
    );
  }
}

/**
 * Clicks `locator` (an item of a menu or popover) once it stands still:
 * Fluent's menus and popovers slide in for a few hundred milliseconds, and
 * a person reads them before choosing (a press and a release on a moving
 * item reach two different elements, and the click then reaches neither).
 */
export async function clickWhenStill(locator, { timeout = 10_000 } = {}) {
  const item = await locator.elementHandle({ timeout });
  // As `settled`, but only for the animations that move this item; endless ones (spinners) do not count.
  await locator.page().waitForFunction(
    (el) => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity || !(a.effect?.target instanceof Node) || !a.effect.target.contains(el)),
    item,
    { timeout },
  );
  await item.dispose();
  await locator.click({ timeout });
}

/** Opens the menu or popover of the button `trigger` (a test id) and chooses its `item` (a test id) once it stands still. */
export async function openAndChoose(page, trigger, item) {
  await page.getByTestId(trigger).click();
  await clickWhenStill(page.getByTestId(item));
}

/**
 * Waits until the page stands still as a person would see it: the shell's
 * top progress bar is gone and every animation that ends (Fluent's enter
 * transitions, a fading toast) has ended; endless ones (spinners) are not
 * waited for.
 */
export async function settled(page, { timeout = 10_000 } = {}) {
  await page
    .waitForFunction(
      () =>
        !document.querySelector('div[role="progressbar"][aria-hidden="true"]') &&
        document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
      null,
      { timeout },
    )
    .catch(async (err) => {
      const running = await page
        .evaluate(() =>
          document
            .getAnimations()
            .filter((a) => a.playState === 'running')
            .map((a) => `${a.animationName ?? a.constructor.name} on ${a.effect?.target?.getAttribute?.('data-testid') ?? a.effect?.target?.className ?? '?'}`),
        )
        .catch(() => []);
      throw new Error(`the page did not settle in ${timeout} ms (running: ${JSON.stringify(running)}): ${err.message.split('\n')[0]}`);
    });
}

export async function shot(page, name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await settled(page);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

/** Logs in through the form and waits for the shell. */
export async function login(page, baseUrl, user, { path = '/login' } = {}) {
  await page.goto(`${baseUrl}/#${path}`);
  await page.locator('input[name="username"]').fill(user.username);
  await page.locator('input[name="password"]').fill(user.password);
  await page.locator('button[type="submit"]').click();
  await page.getByTestId('app-main').waitFor({ timeout: 20_000 });
}

/** A JWT secret for a gateway whose tokens a test re-signs (`expireAccessToken`). */
export const newJwtSecret = () => randomBytes(32).toString('hex');

/**
 * Makes the page's stored access token an expired one: the same claims
 * (user, session) with `exp` in the past, signed with the gateway's
 * `secret`. The next request meets a 402 at once, whatever the machine's
 * speed, instead of after waiting out a short lifetime (which a slow load
 * would outlast again after every refresh).
 */
export async function expireAccessToken(page, secret) {
  const token = await page.evaluate(() => localStorage.getItem('admin-pro-token'));
  assert.ok(token, 'signed in');
  const [header, payload] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
  const now = Math.floor(Date.now() / 1000);
  const body = Buffer.from(JSON.stringify({ ...claims, iat: now - 60, exp: now - 30 })).toString('base64url');
  const signature = createHmac('sha256', secret).update(`${header}.${body}`).digest('base64url');
  const expired = `${header}.${body}.${signature}`;
  await page.evaluate((t) => localStorage.setItem('admin-pro-token', t), expired);
  return expired;
}

/** Hash route of the page ('/index'). */
export const hashPath = (page) => new URL(page.url()).hash.replace(/^#/, '');

/** Navigates inside the SPA like a user typing a link (no full reload). */
export async function go(page, path) {
  await page.evaluate((p) => {
    window.location.hash = `#${p}`;
  }, path);
  await page.getByTestId('app-main').waitFor();
  await page.waitForFunction((p) => window.location.hash.startsWith(`#${p}`), path);
}

/**
 * Waits until `predicate` holds in the page; on a timeout the error says
 * what was awaited and where the page was (address, title, language, the
 * active tab), so a failure read from a CI log needs no rerun.
 */
export async function until(page, predicate, arg, what, { timeout = 30_000 } = {}) {
  try {
    await page.waitForFunction(predicate, arg, { timeout });
  } catch (err) {
    const where = await page
      .evaluate(() => ({
        hash: location.hash,
        title: document.title,
        lang: document.documentElement.lang,
        tab: document.querySelector('[data-tab-path][aria-selected="true"]')?.getAttribute('data-tab-path') ?? null,
        menus: document.querySelectorAll('[role="menu"]').length,
      }))
      .catch((e) => ({ unreadable: String(e) }));
    throw new Error(`${what}: not so after ${timeout} ms; the page: ${JSON.stringify(where)} (${err.message.split('\n')[0]})`);
  }
}

/**
 * Waits until the view of the active tab has rendered: the active tab is the
 * address's route, its pane is the one shown, and its code has loaded (no
 * loading placeholder left in it).
 */
export async function viewReady(page, { timeout = 20_000 } = {}) {
  await page.waitForFunction(
    () => {
      const tab = document.querySelector('[data-tab-path][aria-selected="true"]');
      if (!tab) return false;
      const tabPath = tab.getAttribute('data-tab-path');
      const here = decodeURIComponent(location.hash.replace(/^#/, ''));
      const pattern = new RegExp(`^${tabPath.split('?')[0].replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+')}(\\?.*)?$`);
      if (here !== tabPath && !pattern.test(here)) return false;
      const pane = [...document.querySelectorAll('.view-pane')].find((p) => p.getAttribute('data-tab') === tabPath);
      return !!pane && pane.offsetParent !== null && !pane.querySelector('[data-testid="view-loading"]') && pane.childElementCount > 0;
    },
    null,
    { timeout },
  );
}

/**
 * Polls `check` (an async function) until it answers something truthy and
 * answers that: for state that only the API shows (a charger's session, a
 * command's end). Fails with `what` and the last answer after `timeout` ms.
 */
export async function eventually(check, what, { timeout = 15_000, every = 200 } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    last = await check();
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`${what}: not so after ${timeout} ms (last: ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/**
 * One gateway for the whole test file: started before its first test,
 * stopped after its last. The returned object gains `url`, `stop` and
 * `output` once started, so tests read `gateway.url` as usual.
 */
export function gatewayForFile(options) {
  const gateway = {};
  before(async () => {
    Object.assign(gateway, await startGateway(options));
  });
  after(async () => {
    await gateway.stop?.();
  });
  return gateway;
}

/**
 * Runs `fn(page, browser)` with a fresh browser profile, then fails on any
 * uncaught page error (and, with `{ consoleErrors: true }`, any console
 * error), closing the browser either way.
 */
export async function withBrowser(fn, { consoleErrors = false, ...options } = {}) {
  const browser = await launchBrowser(options);
  const logged = [];
  if (consoleErrors) browser.page.on('console', (m) => m.type() === 'error' && logged.push(`${m.text()} @ ${browser.page.url()}`));
  try {
    await fn(browser.page, browser);
    assert.deepEqual(browser.errors.map(String), [], 'no uncaught page errors');
    assert.deepEqual(logged, [], 'no console errors');
  } catch (error) {
    await describeFailure(browser, error);
    throw error;
  } finally {
    await browser.close();
  }
}

let failures = 0;

/**
 * What the page showed when a step failed, added to the error a CI log
 * prints (its address, title, language, open dialogs and menus, the last
 * input events with the elements they reached, uncaught errors), with a
 * screenshot `failed-N.png` beside the others: a failure seen once must be
 * explainable from that one run.
 */
async function describeFailure(browser, error) {
  try {
    const seen = await browser.page.evaluate(() => ({
      url: location.href,
      title: document.title,
      lang: document.documentElement.lang,
      dialogs: [...document.querySelectorAll('[role="dialog"],[role="alertdialog"]')].map((d) => d.textContent.slice(0, 120)),
      menus: [...document.querySelectorAll('[role="menu"]')].map((m) => m.textContent.slice(0, 120)),
      now: Math.round(performance.now()),
      inputs: window.__inputs ?? [],
    }));
    mkdirSync(SCREENSHOTS, { recursive: true });
    const file = `failed-${++failures}-${process.pid}.png`;
    await browser.page.screenshot({ path: join(SCREENSHOTS, file), fullPage: false, timeout: 5_000 });
    error.message += `\n  page when it failed: ${JSON.stringify({ ...seen, errors: browser.errors.map(String), screenshot: file })}`;
  } catch (e) {
    error.message += `\n  (the page could not be described: ${e.message})`;
  }
}

/** Direct API calls against a gateway (as a script would), answering the envelope. */
export function apiClient(gateway) {
  async function api(method, path, token, body) {
    const res = await fetch(`${gateway.url}/partnerapi${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return res.json();
  }
  /** Signs `user` in through the API and answers the access token. */
  async function token(user) {
    const a = await api('POST', '/login/index', null, user);
    assert.equal(a.code, 200, JSON.stringify(a));
    return a.data.token;
  }
  return { api, token };
}

export const PYTHON = process.env.E2E_PYTHON ?? join(ROOT, 'target/tools-venv/bin/python');

/**
 * Starts the scripted charger (tests/e2e/charger.py, or `script`: the
 * OCPP 2.0.1 station tests/e2e/station201.py) against a gateway.
 * `done` resolves with its session's transaction id once the session is
 * over (the live mode's session runs until the server stops it: `live` then
 * resolves with its transaction id once it started); `stop` disconnects it.
 */
export function startCharger(gateway, code, password, idTag, { live = false, script = 'charger.py' } = {}) {
  assert.ok(existsSync(PYTHON), `python with the ocpp package missing: ${PYTHON} (scripts/install-test-deps.sh)`);
  const ws = gateway.url.replace(/^http/, 'ws') + '/ocpp';
  const args = [join(import.meta.dirname, script), ws, code, password, idTag, ...(live ? ['--live'] : [])];
  const child = spawn(PYTHON, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  // A line the charger prints; a promise nobody awaits (the charger stopped first) is not an error.
  const line = (re) => {
    const seen = new Promise((resolve, reject) => {
      const timer = setInterval(() => {
        const m = re.exec(out);
        if (m) {
          clearInterval(timer);
          resolve(Number(m[1]));
        }
        if (child.exitCode !== null) {
          clearInterval(timer);
          reject(new Error(`charger exited: ${out}`));
        }
      }, 100);
    });
    seen.catch(() => {});
    return seen;
  };
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    done: live ? line(/live session stopped (\d+)/) : line(/session done (\d+)/),
    started: line(/live session started (\d+)/),
    output: () => out,
    stop: () => {
      if (child.exitCode === null) child.stdin.end('quit\n');
      return exited;
    },
  };
}

/** The menu paths the sidebar shows (`data-menu-path`), in order. */
export const menuPaths = (page) => page.$$eval('[data-menu-path]', (els) => els.map((e) => e.getAttribute('data-menu-path')));


/**
 * The full paths (and components) of the routes with a page in a route tree
 * as the server's menu gives it (`/router/getList`, or the menu's JSON file):
 * links and the catch-all left out, relative paths joined to their parent's.
 */
export function pagesOf(tree) {
  const out = [];
  const walk = (routes, base) => {
    for (const r of routes) {
      if (/^(https?:|mailto:|tel:|\/\/)/.test(r.path) || r.path === '*') continue;
      const full = r.path.startsWith('/') ? r.path : `${base.replace(/\/$/, '')}/${r.path}`;
      if (r.component && r.component !== 'Layout') out.push({ path: full, component: r.component });
      if (r.children) walk(r.children, full);
    }
  };
  walk(tree, '');
  return out;
}
