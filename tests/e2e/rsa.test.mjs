// RSA payload encryption switched on (spec point 7): the sign-in form sends
// only the encrypted `param`, never the password in clear, and the server
// refuses a plain body.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { apiClient, gatewayForFile, hashPath, login, shot, USERS, withBrowser } from './harness.mjs';

const gateway = gatewayForFile({ env: { BACKOFFICE_RSA: 'true' } });
const { api } = apiClient(gateway);

it('signs in through the form with an encrypted payload; a plain body is refused', async () => {
  const key = await api('GET', '/publicKey');
  assert.match(key.data.publicKey, /BEGIN PUBLIC KEY/);
  assert.equal(key.data.mockServer, false);

  await withBrowser(async (page) => {
    const bodies = [];
    page.on('request', (req) => {
      if (req.url().endsWith('/partnerapi/login/index')) bodies.push(req.postData() ?? '');
    });
    await login(page, gateway.url, USERS.admin);
    assert.equal(hashPath(page), '/index');
    assert.equal(bodies.length, 1);
    const sent = JSON.parse(bodies[0]);
    assert.deepEqual(Object.keys(sent), ['param'], 'only the encrypted parameter is sent');
    assert.ok(!bodies[0].includes(USERS.admin.password), 'the password never travels in clear');
    await shot(page, 'rsa-01-signed-in');
  });

  const plain = await api('POST', '/login/index', null, USERS.admin);
  assert.equal(plain.code, 400);
  assert.match(plain.msg, /encrypted|加密/);
});
