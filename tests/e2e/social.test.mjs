// Social login end to end (issue: PKCE, browser binding, link by subject):
// a loopback OAuth 2.0 provider on 127.0.0.1 that consents at once as a
// chosen subject, requires PKCE S256 and the client secret, and issues
// one-use codes. A person links the identity from the personal center,
// signs in with the login page's button, and a return this tab did not
// start is refused.
import { it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { apiClient, gatewayForFile, go, hashPath, launchBrowser, login, shot, USERS } from './harness.mjs';

const CLIENT_SECRET = 'loopback-provider-secret';

/** The provider: state kept in memory, like a real one's session store. */
const provider = { url: '', subject: 'staff-identity-7', codes: new Map(), access: new Map(), server: null };

function readBody(req) {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => resolve(body));
  });
}

const b64url = (buf) => buf.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

async function handle(req, res) {
  const url = new URL(req.url, provider.url);
  const json = (status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (url.pathname === '/authorize') {
    const q = url.searchParams;
    if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge') || q.get('response_type') !== 'code') {
      res.writeHead(400);
      res.end('PKCE S256 and response_type=code are required');
      return;
    }
    const code = randomBytes(16).toString('hex');
    provider.codes.set(code, { challenge: q.get('code_challenge'), redirect: q.get('redirect_uri'), sub: provider.subject });
    const back = new URL(q.get('redirect_uri'));
    back.searchParams.set('code', code);
    back.searchParams.set('state', q.get('state'));
    res.writeHead(302, { location: back.toString() });
    res.end();
    return;
  }
  if (url.pathname === '/token' && req.method === 'POST') {
    const form = new URLSearchParams(await readBody(req));
    const issued = provider.codes.get(form.get('code'));
    provider.codes.delete(form.get('code'));
    const verifier = form.get('code_verifier') ?? '';
    const ok =
      issued &&
      form.get('client_secret') === CLIENT_SECRET &&
      form.get('redirect_uri') === issued.redirect &&
      b64url(createHash('sha256').update(verifier).digest()) === issued.challenge;
    if (!ok) return json(400, { error: 'invalid_grant' });
    const token = randomBytes(16).toString('hex');
    provider.access.set(token, issued.sub);
    return json(200, { access_token: token, token_type: 'Bearer' });
  }
  if (url.pathname === '/userinfo') {
    const sub = provider.access.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    return sub ? json(200, { sub, email: 'someone@elsewhere.example', email_verified: true }) : json(401, { error: 'invalid_token' });
  }
  res.writeHead(404);
  res.end();
}

before(async () => {
  provider.server = createServer((req, res) => void handle(req, res));
  await new Promise((r) => provider.server.listen(0, '127.0.0.1', r));
  provider.url = `http://127.0.0.1:${provider.server.address().port}`;
});
after(() => provider.server?.close());

const gateway = gatewayForFile({
  env: (gatewayUrl) => ({
    BACKOFFICE_OAUTH_NAME: 'loopback-idp',
    BACKOFFICE_OAUTH_AUTHORIZE_URL: `${provider.url}/authorize`,
    BACKOFFICE_OAUTH_TOKEN_URL: `${provider.url}/token`,
    BACKOFFICE_OAUTH_USERINFO_URL: `${provider.url}/userinfo`,
    BACKOFFICE_OAUTH_CLIENT_ID: 'backoffice',
    BACKOFFICE_OAUTH_CLIENT_SECRET: CLIENT_SECRET,
    BACKOFFICE_OAUTH_REDIRECT_URI: `${gatewayUrl}/`,
  }),
});

const signedInAs = (page) =>
  page.evaluate(async () => {
    const res = await fetch('/partnerapi/index/userInfo', { headers: { authorization: `Bearer ${localStorage.getItem('admin-pro-token')}` } });
    return (await res.json()).data?.username ?? null;
  });

it('a user links an identity in the personal center, then signs in with the login page button', async () => {
  const staff = await launchBrowser();
  try {
    const { page } = staff;
    await login(page, gateway.url, USERS.admin);
    await go(page, '/setting/personalCenter');
    const card = page.getByTestId('social-links');
    await card.getByText('loopback-idp · 未关联').waitFor();
    await card.getByRole('button', { name: '关联 loopback-idp' }).click();
    // To the provider and back: the identity is linked, the page is the personal center again.
    await card.getByRole('button', { name: '解除关联' }).waitFor({ timeout: 20_000 });
    assert.equal(hashPath(page), '/setting/personalCenter');
    await shot(page, '16-social-linked');
  } finally {
    await staff.close();
  }

  const other = await launchBrowser();
  try {
    const { page } = other;
    await page.goto(`${gateway.url}/#/login`);
    const button = page.getByTestId('social-login');
    assert.equal(await button.textContent(), '使用 loopback-idp 登录');
    await shot(page, '16-social-login-button');
    await button.click();
    await page.getByTestId('app-main').waitFor({ timeout: 20_000 });
    assert.equal(await signedInAs(page), 'admin');
    assert.equal(new URL(page.url()).search, '', 'the code and state left the address bar');
  } finally {
    await other.close();
  }
});

it('a return this browser did not start is refused, and an unlinked identity signs in as nobody', async () => {
  const { api, token } = apiClient(gateway);
  // Someone else starts a flow and lures this browser to its return URL.
  const started = await api('POST', '/socialLogin/authorize', null, {});
  assert.equal(started.code, 200, JSON.stringify(started));
  const consent = await fetch(started.data.url, { redirect: 'manual' });
  const lure = consent.headers.get('location');
  assert.ok(lure?.includes('state='), lure);

  const browser = await launchBrowser();
  try {
    const { page } = browser;
    await page.goto(lure);
    await page.getByTestId('toast').getByText('该第三方登录不是在本浏览器标签页发起的，请在此重新开始').first().waitFor({ timeout: 20_000 });
    await page.waitForFunction(() => window.location.hash.startsWith('#/login'));
    assert.equal(await page.evaluate(() => localStorage.getItem('admin-pro-token')), null, 'not signed in');

    // The owner unlinks; the identity then opens no account.
    const admin = await token(USERS.admin);
    assert.equal((await api('POST', '/user/socialUnlink', admin, { provider: 'loopback-idp' })).code, 200);
    await page.getByTestId('social-login').click();
    await page.getByTestId('toast').getByText(/未关联任何员工帐号/).first().waitFor({ timeout: 20_000 });
    assert.equal(hashPath(page), '/login');
  } finally {
    await browser.close();
  }
});
