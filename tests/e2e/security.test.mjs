// End-to-end: the OCPP 1.6 security extension as an Admin sees it, in real
// Chromium against the real gateway. A charger scripted with the PyPI
// `ocpp` package sends SignCertificate (the product's CA signs it) and a
// SecurityEventNotification; the pile's charger panel then lists the issued
// certificate with its expiry and the event, and the fleet's security
// events page lists the event under its type.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { apiClient, gatewayForFile, go, login, PYTHON, shot, USERS, withBrowser } from './harness.mjs';

const gateway = gatewayForFile();
const { api, token } = apiClient(gateway);

// The charger: one CSR for its id, signed and sent back (CertificateSigned), one security event.
const CHARGER = `
import asyncio, base64, sys, time
import websockets
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from ocpp.routing import on
from ocpp.v16 import ChargePoint, call, call_result

url, code, password = sys.argv[1:4]

class Charger(ChargePoint):
    chain = None
    @on("CertificateSigned")
    async def on_signed(self, certificate_chain, **kw):
        Charger.chain = certificate_chain
        return call_result.CertificateSigned(status="Accepted")

async def main():
    auth = "Basic " + base64.b64encode(f"{code}:{password}".encode()).decode()
    async with websockets.connect(f"{url}/{code}", subprotocols=["ocpp1.6"], extra_headers={"Authorization": auth}) as ws:
        cp = Charger(code, ws)
        task = asyncio.create_task(cp.start())
        await cp.call(call.BootNotification(charge_point_vendor="E2E Motors", charge_point_model="EV-DC60"))
        key = ec.generate_private_key(ec.SECP256R1())
        csr = x509.CertificateSigningRequestBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, code)])).sign(key, hashes.SHA256())
        answer = await cp.call(call.SignCertificate(csr=csr.public_bytes(serialization.Encoding.PEM).decode()))
        assert answer.status == "Accepted", answer
        deadline = time.time() + 15
        while Charger.chain is None and time.time() < deadline:
            await asyncio.sleep(0.1)
        assert Charger.chain, "no CertificateSigned"
        await cp.call(call.SecurityEventNotification(type="TamperDetectionActivated", timestamp=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), tech_info="enclosure opened"))
        task.cancel()
        print("done", flush=True)

asyncio.run(main())
`;

describe('security extension', () => {
  it('an Admin sees the pile certificate the CA issued and the charger security event', async () => {
    const admin = await token(USERS.admin);
    const stations = await api('GET', '/station/getList?pageNo=1&pageSize=50&status=operating', admin);
    const station = stations.data.list.find((s) => s.tariffId);
    const code = 'E2ESEC0001';
    const added = await api('POST', '/pile/doAdd', admin, { stationId: station.id, code, pileType: 'dc', ratedPowerKw: 60, heartbeatIntervalSecs: 60, connectors: [{ standard: 'gbt2015', maxPowerKw: 60 }] });
    assert.equal(added.code, 200, JSON.stringify(added));
    const pw = await api('POST', '/pile/setPassword', admin, { id: added.data.id });
    const ws = gateway.url.replace(/^http/, 'ws') + '/ocpp';
    const charger = spawnSync(PYTHON, ['-c', CHARGER, ws, code, pw.data.password], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(charger.status, 0, charger.stdout + charger.stderr);

    await withBrowser(async (page) => {
      await login(page, gateway.url, USERS.admin);
      await go(page, `/connector/stationdetail?id=${station.id}`);
      const card = page.getByTestId('pile-card').filter({ hasText: code });
      const certs = card.getByTestId('charger-certificates');
      const row = certs.getByTestId('cert-row');
      await row.first().waitFor({ timeout: 15_000 });
      assert.match(await row.first().innerText(), /充电桩证书 · 本系统签发/);
      assert.match(await row.first().innerText(), new RegExp(`CN=${code}`));
      assert.match(await row.first().innerText(), /剩 \d+ 天/);
      // An Admin acts on it; the event the charger sent is listed below.
      await certs.getByTestId('cert-revoke').waitFor();
      assert.match(await certs.getByTestId('sec-event').first().innerText(), /TamperDetectionActivated · 充电桩上报 · enclosure opened/);
      await certs.scrollIntoViewIfNeeded();
      await shot(page, 'security-01-pile-certificates');

      await go(page, '/connector/securityEvents');
      const event = page.getByTestId('sec-event-row').filter({ hasText: code });
      await event.first().waitFor({ timeout: 15_000 });
      assert.match(await event.first().innerText(), /TamperDetectionActivated/);
      await shot(page, 'security-02-fleet-events');
    });
  });
});
