"""The OCPP 1.6 security extension (whitepaper edition 3) against chargers
scripted with the ocpp package: SignCertificate answered and followed by
CertificateSigned with a chain that verifies against the product's CA (a
CSR for another charge point refused and kept as a security event),
SecurityEventNotification stored and listed, the root certificate round
trips (InstallCertificate, GetInstalledCertificateIds, DeleteCertificate),
ExtendedTriggerMessage, GetLog followed by LogStatusNotification,
SignedUpdateFirmware followed by SignedFirmwareStatusNotification, and who
may do what."""
import asyncio
import base64
import datetime
import hashlib
import time

import pytest
import websockets
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from ocpp.routing import on
from ocpp.v16 import call, call_result
from ocpp.v201 import call as call201

from conftest import EDITOR_PW, Api, Charger, Connection, iso, make_pile, start_gateway
from test_remote import post, settle
from test_tls import self_signed, trusting


async def get(api, path):
    return await asyncio.get_running_loop().run_in_executor(None, lambda: api.get(path))


def csr_for(cn):
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn), x509.NameAttribute(NameOID.ORGANIZATION_NAME, "ACME Charging")])
    csr = x509.CertificateSigningRequestBuilder().subject_name(name).sign(key, hashes.SHA256())
    return key, csr.public_bytes(serialization.Encoding.PEM).decode()


def root_certificate(cn, ca=True):
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=1))
            .not_valid_after(now + datetime.timedelta(days=20))
            .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    return cert.public_bytes(serialization.Encoding.PEM).decode()


def hash_data(pem):
    """OCPP's CertificateHashData of a self-signed root, as a charger works it out."""
    cert = x509.load_pem_x509_certificate(pem.encode())
    spki = cert.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"hashAlgorithm": "SHA256", "issuerNameHash": hashlib.sha256(cert.issuer.public_bytes()).hexdigest(),
            "issuerKeyHash": hashlib.sha256(spki).hexdigest(), "serialNumber": format(cert.serial_number, "X")}


async def until(predicate, timeout=10):
    deadline = time.time() + timeout
    while True:
        value = await predicate()
        if value or time.time() > deadline:
            return value
        await asyncio.sleep(0.1)


class SecureCharger(Charger):
    """A charger of the security extension: it keeps the chain it is sent,
    the roots it is given, and reports uploads and firmware as asked."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.chain = asyncio.Event()
        self.roots = {}
        self.triggered = []
        self.log_request = None
        self.firmware_request = None

    @on("CertificateSigned")
    async def on_certificate_signed(self, certificate_chain, **kw):
        self.certificate_chain = certificate_chain
        self.chain.set()
        return call_result.CertificateSigned(status="Accepted")

    @on("InstallCertificate")
    async def on_install_certificate(self, certificate_type, certificate, **kw):
        self.roots[hash_data(certificate)["serialNumber"]] = (certificate_type, certificate)
        return call_result.InstallCertificate(status="Accepted")

    @on("GetInstalledCertificateIds")
    async def on_get_installed(self, certificate_type, **kw):
        listed = [hash_data(pem) for (kind, pem) in self.roots.values() if kind == certificate_type]
        if not listed:
            return call_result.GetInstalledCertificateIds(status="NotFound")
        return call_result.GetInstalledCertificateIds(status="Accepted", certificate_hash_data=listed)

    @on("DeleteCertificate")
    async def on_delete_certificate(self, certificate_hash_data, **kw):
        gone = self.roots.pop(certificate_hash_data["serial_number"], None)
        return call_result.DeleteCertificate(status="Accepted" if gone else "NotFound")

    @on("ExtendedTriggerMessage")
    async def on_extended_trigger(self, requested_message, **kw):
        self.triggered.append(requested_message)
        return call_result.ExtendedTriggerMessage(status="Accepted")

    @on("GetLog")
    async def on_get_log(self, log, log_type, request_id, **kw):
        self.log_request = (log_type, request_id, log["remote_location"])
        return call_result.GetLog(status="Accepted", filename="security.log")

    @on("SignedUpdateFirmware")
    async def on_signed_update_firmware(self, request_id, firmware, **kw):
        self.firmware_request = (request_id, firmware)
        return call_result.SignedUpdateFirmware(status="Accepted")


async def booted(cp):
    await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60"))


def test_sign_certificate_is_followed_by_a_chain_that_verifies_against_the_ca(gateway, pile, api):
    p = pile(securityProfile=1)

    async def go():
        async with Connection(gateway["ws"], p, cls=SecureCharger) as cp:
            await booted(cp)
            key, csr = csr_for(p.code)
            answer = await cp.call(call.SignCertificate(csr=csr))
            assert answer.status == "Accepted"
            await asyncio.wait_for(cp.chain.wait(), 10)
            chain = x509.load_pem_x509_certificates(cp.certificate_chain.encode())
            ca = x509.load_pem_x509_certificate((gateway["data"] / "charger-ca.pem").read_bytes())
            assert len(chain) == 2 and chain[1] == ca, "the certificate, then the CA's"
            leaf = chain[0]
            leaf.verify_directly_issued_by(ca)
            assert leaf.subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value == p.code
            assert leaf.public_key() == key.public_key()
            listed = (await get(api, f"/charger/certificates?pileId={p.id}"))["data"]["list"]
            issued = [c for c in listed if c["origin"] == "issued"]
            assert [c["serial"] for c in issued] == [format(leaf.serial_number, "X")] and not issued[0]["expired"]
            sent = (await get(api, f"/charger/commands?pileId={p.id}"))["data"]["list"]
            assert [(c["action"], c["status"], c["requestedBy"]) for c in sent if c["action"] == "CertificateSigned"] == [("CertificateSigned", "answered", "SignCertificate")]

            # A CSR for another charge point: Rejected, nothing issued, a security event.
            _, other = csr_for("SOMEONE-ELSE")
            assert (await cp.call(call.SignCertificate(csr=other))).status == "Rejected"
            events = (await get(api, f"/charger/securityEvents?pileId={p.id}&type=InvalidCertificateSigningRequest"))["data"]["list"]
            assert len(events) == 1 and events[0]["source"] == "centralSystem" and "SOMEONE-ELSE" in events[0]["techInfo"], events
            listed = (await get(api, f"/charger/certificates?pileId={p.id}"))["data"]["list"]
            assert len([c for c in listed if c["origin"] == "issued"]) == 1

    asyncio.run(go())


def test_security_events_are_stored_and_listed_per_pile_and_across_the_fleet(gateway, pile, api):
    p = pile()

    async def go():
        async with Connection(gateway["ws"], p, cls=SecureCharger) as cp:
            await booted(cp)
            at = time.time() - 30
            await cp.call(call.SecurityEventNotification(type="TamperDetectionActivated", timestamp=iso(at), tech_info="cover opened"))
            await cp.call(call.SecurityEventNotification(type="SettingSystemTime", timestamp=iso(at + 1), tech_info=None))
        mine = (await get(api, f"/charger/securityEvents?pileId={p.id}"))["data"]
        assert [e["type"] for e in mine["list"]] == ["SettingSystemTime", "TamperDetectionActivated"], "newest first"
        assert mine["list"][1]["techInfo"] == "cover opened" and mine["list"][1]["source"] == "charger" and mine["pileCode"] == p.code
        fleet = (await get(api, "/charger/securityEvents?type=TamperDetectionActivated&pageSize=500"))["data"]["list"]
        assert any(e["pileId"] == p.id for e in fleet) and all(e["type"] == "TamperDetectionActivated" for e in fleet)
        one = (await get(api, f"/charger/securityEvents?pileId={p.id}&pageSize=1"))["data"]
        assert len(one["list"]) == 1 and one["cursor"]
        rest = (await get(api, f"/charger/securityEvents?pileId={p.id}&pageSize=1&cursor={one['cursor']}"))["data"]
        assert [e["type"] for e in rest["list"]] == ["TamperDetectionActivated"]

    asyncio.run(go())


def test_root_certificates_install_list_and_delete(gateway, pile, api):
    p = pile()
    root = root_certificate("Operator Root")
    serial = hash_data(root)["serialNumber"]

    async def go():
        async with Connection(gateway["ws"], p, cls=SecureCharger) as cp:
            await booted(cp)
            # Bad input is refused before anything is queued, naming the field.
            leaf = await post(api, "/charger/installCertificate", {"pileId": p.id, "certificateType": "CentralSystemRootCertificate", "certificate": root_certificate("not a CA", ca=False)})
            assert leaf["code"] == 400 and "certificate" in leaf["msg"], leaf
            junk = await post(api, "/charger/installCertificate", {"pileId": p.id, "certificateType": "CentralSystemRootCertificate", "certificate": "hello"})
            assert junk["code"] == 400 and "certificate" in junk["msg"], junk
            kind = await post(api, "/charger/installCertificate", {"pileId": p.id, "certificate": root})
            assert kind["code"] == 400 and "certificateType" in kind["msg"], kind
            editor = api.login("editor", EDITOR_PW)
            refused = await post(api, "/charger/installCertificate", {"pileId": p.id, "certificateType": "CentralSystemRootCertificate", "certificate": root}, token=editor)
            assert refused["code"] == 403, refused
            assert not cp.roots

            done = await settle(api, (await post(api, "/charger/installCertificate", {"pileId": p.id, "certificateType": "CentralSystemRootCertificate", "certificate": root}))["data"]["id"])
            assert (done["status"], done["response"]) == ("answered", {"status": "Accepted"}) and serial in cp.roots
            listed = (await get(api, f"/charger/certificates?pileId={p.id}"))["data"]["list"]
            assert [(c["origin"], c["serial"], c["certificateType"]) for c in listed] == [("installed", serial, "CentralSystemRootCertificate")]
            assert listed[0]["expiring"] and listed[0]["daysLeft"] in (19, 20), "20 days left is within the warning"

            # The charger's own list, including one the product never sent.
            other = root_certificate("Other Root")
            cp.roots[hash_data(other)["serialNumber"]] = ("CentralSystemRootCertificate", other)
            ids = await settle(api, (await post(api, "/charger/getInstalledCertificateIds", {"pileId": p.id, "certificateType": "CentralSystemRootCertificate"}))["data"]["id"])
            assert ids["response"]["status"] == "Accepted", ids
            listed = (await get(api, f"/charger/certificates?pileId={p.id}"))["data"]["list"]
            assert sorted((c["origin"], c["serial"]) for c in listed) == sorted([("installed", serial), ("reported", hash_data(other)["serialNumber"])])
            assert all(c["reportedAt"] for c in listed)

            gone = await settle(api, (await post(api, "/charger/deleteCertificate", {"pileId": p.id, "serial": serial}))["data"]["id"])
            assert gone["response"] == {"status": "Accepted"} and serial not in cp.roots
            listed = (await get(api, f"/charger/certificates?pileId={p.id}"))["data"]["list"]
            assert [c["serial"] for c in listed] == [hash_data(other)["serialNumber"]]
            unknown = await post(api, "/charger/deleteCertificate", {"pileId": p.id, "serial": "ABCDEF"})
            assert unknown["code"] == 400 and "serial" in unknown["msg"], unknown

    asyncio.run(go())


def test_extended_trigger_get_log_and_signed_firmware_follow_their_notifications(gateway, pile, api):
    p = pile()
    signer = root_certificate("Firmware Signer", ca=False)

    async def go():
        async with Connection(gateway["ws"], p, cls=SecureCharger) as cp:
            await booted(cp)
            t = await settle(api, (await post(api, "/charger/extendedTrigger", {"pileId": p.id, "requestedMessage": "SignChargePointCertificate"}))["data"]["id"])
            assert t["response"] == {"status": "Accepted"} and cp.triggered == ["SignChargePointCertificate"]
            bad = await post(api, "/charger/extendedTrigger", {"pileId": p.id, "requestedMessage": "Nonsense"})
            assert bad["code"] == 400, bad

            nolocation = await post(api, "/charger/getLog", {"pileId": p.id, "logType": "SecurityLog", "location": "file:///etc"})
            assert nolocation["code"] == 400 and "location" in nolocation["msg"], nolocation
            log = await settle(api, (await post(api, "/charger/getLog", {"pileId": p.id, "logType": "SecurityLog", "location": "https://upload.example.com/logs"}))["data"]["id"])
            assert log["response"] == {"status": "Accepted", "filename": "security.log"}, log
            kind, request_id, where = cp.log_request
            assert (kind, where) == ("SecurityLog", "https://upload.example.com/logs") and log["payload"]["requestId"] == request_id
            await cp.call(call.LogStatusNotification(status="Uploaded", request_id=request_id))
            link = p.view()["link"]
            assert (link["logStatus"], link["logRequestId"]) == ("Uploaded", request_id)

            nosig = await post(api, "/charger/signedUpdateFirmware", {"pileId": p.id, "location": "https://fw.example.com/1.2.bin", "signingCertificate": signer, "signature": "not base64!"})
            assert nosig["code"] == 400 and "signature" in nosig["msg"], nosig
            nocert = await post(api, "/charger/signedUpdateFirmware", {"pileId": p.id, "location": "https://fw.example.com/1.2.bin", "signingCertificate": "x", "signature": "c2ln"})
            assert nocert["code"] == 400 and "signingCertificate" in nocert["msg"], nocert
            fw = await settle(api, (await post(api, "/charger/signedUpdateFirmware", {
                "pileId": p.id, "location": "https://fw.example.com/1.2.bin", "signingCertificate": signer,
                "signature": base64.b64encode(b"signature").decode()}))["data"]["id"])
            assert fw["response"] == {"status": "Accepted"}, fw
            request_id, firmware = cp.firmware_request
            assert firmware["location"] == "https://fw.example.com/1.2.bin" and firmware["signing_certificate"].strip() == signer.strip()
            await cp.call(call.SignedFirmwareStatusNotification(status="Downloaded", request_id=request_id))
            link = p.view()["link"]
            assert (link["firmwareStatus"], link["firmwareRequestId"]) == ("Downloaded", request_id)

    asyncio.run(go())


@pytest.fixture(scope="module")
def tls_gateway(tmp_path_factory):
    certs = tmp_path_factory.mktemp("certs")
    cert, key = self_signed(certs, "gateway")
    proc, info = start_gateway({"BACKOFFICE_TLS_CERT": str(cert), "BACKOFFICE_TLS_KEY": str(key)}, ssl_context=trusting(cert))
    info.update(certs=certs, server_cert=cert)
    yield info
    proc.terminate()
    proc.wait(timeout=20)


def client_context(gw, name, chain_pem=None, key=None):
    """A charger's TLS context: trusts the gateway, presents `chain_pem` with `key`."""
    ctx = trusting(gw["server_cert"])
    if chain_pem:
        d = gw["certs"]
        (d / f"{name}.pem").write_text(chain_pem)
        (d / f"{name}-key.pem").write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
        ctx.load_cert_chain(str(d / f"{name}.pem"), str(d / f"{name}-key.pem"))
    return ctx


def issued(api, p):
    key, csr = csr_for(p.code)
    signed = api.post("/charger/certificateSign", {"pileId": p.id, "csr": csr})
    assert signed["code"] == 200, signed
    return key, signed["data"]["chain"], signed["data"]["certificate"]


def expired_from_the_ca(gw, cn):
    """A certificate for `cn` signed by the product's CA that ended yesterday."""
    ca = x509.load_pem_x509_certificate((gw["data"] / "charger-ca.pem").read_bytes())
    ca_key = serialization.load_pem_private_key((gw["data"] / "charger-ca-key.pem").read_bytes(), None)
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])).issuer_name(ca.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=10)).not_valid_after(now - datetime.timedelta(days=1))
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
            .sign(ca_key, hashes.SHA256()))
    return key, cert.public_bytes(serialization.Encoding.PEM).decode() + ca.public_bytes(serialization.Encoding.PEM).decode()


def test_a_201_station_connects_on_profiles_2_and_3_and_is_refused_as_a_16_charger_would_be(tls_gateway):
    """OCPP 2.0.1 part 2, A00 (security profiles): profile 2 is Basic auth over
    TLS, profile 3 TLS with a client certificate the CSMS's CA issued; both
    over the ocpp2.0.1 subprotocol, scripted with ocpp.v201."""
    from test_v201 import BOOT, Station
    api = Api(tls_gateway["base"], tls_gateway["ssl"])
    two = make_pile(api, securityProfile=2, ocppVersion="2.0.1")
    three = make_pile(api, securityProfile=3, ocppVersion="2.0.1")
    key, chain, _ = issued(api, three)

    def station(p, ctx):
        return Connection(tls_gateway["ws"], p, protocols=("ocpp2.0.1",), cls=Station, ssl_context=ctx)

    async def refused(p, ctx):
        with pytest.raises(websockets.exceptions.InvalidStatusCode) as no:
            async with station(p, ctx):
                pass
        return no.value.status_code

    async def go():
        for p, ctx in [(two, tls_gateway["ssl"]), (three, client_context(tls_gateway, "station", chain, key))]:
            async with station(p, ctx) as cs:
                boot = await cs.call(call201.BootNotification(**BOOT))
                assert boot.status == "Accepted", (p.code, boot)
                link = p.view()["link"]
                assert (link["connected"], link["protocol"]) == (True, "ocpp2.0.1"), link
        assert await refused(three, client_context(tls_gateway, "bare")) == 401, "profile 3 without a client certificate"
        two.password = "wrong-password-123456"
        assert await refused(two, tls_gateway["ssl"]) == 401, "profile 2 with a wrong password"

    asyncio.run(go())


def test_a_profile_3_charger_is_admitted_by_its_certificate_and_others_are_refused(tls_gateway):
    api = Api(tls_gateway["base"], tls_gateway["ssl"])
    p = make_pile(api, securityProfile=3)
    other = make_pile(api, securityProfile=3)
    key, chain, certificate = issued(api, p)
    other_key, other_chain, _ = issued(api, other)

    async def refused(ctx):
        with pytest.raises(websockets.exceptions.InvalidStatusCode) as no:
            async with Connection(tls_gateway["ws"], p, ssl_context=ctx):
                pass
        return no.value.status_code

    async def go():
        async with Connection(tls_gateway["ws"], p, ssl_context=client_context(tls_gateway, "mine", chain, key)) as cp:
            boot = await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60"))
            assert boot.status == "Accepted" and p.view()["link"]["connected"]
        assert await refused(client_context(tls_gateway, "none")) == 401, "no client certificate"
        assert await refused(client_context(tls_gateway, "other", other_chain, other_key)) == 401, "another charge point's certificate"
        old_key, old_chain = expired_from_the_ca(tls_gateway, p.code)
        assert await refused(client_context(tls_gateway, "expired", old_chain, old_key)) == 401, "an expired certificate"
        revoked = api.post("/charger/certificateRevoke", {"pileId": p.id, "serial": certificate["serial"], "version": certificate["version"], "reason": "key leaked"})
        assert revoked["code"] == 200 and revoked["data"]["status"] == "revoked", revoked
        assert await refused(client_context(tls_gateway, "revoked", chain, key)) == 401, "a revoked certificate"
        events = api.get(f"/charger/securityEvents?pileId={p.id}&type=InvalidChargePointCertificate")["data"]["list"]
        assert events and events[0]["source"] == "centralSystem", events
        # Profile 2 on the same port is unchanged by the certificate request.
        plain = make_pile(api, securityProfile=2)
        async with Connection(tls_gateway["ws"], plain, ssl_context=tls_gateway["ssl"]) as cp:
            assert (await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60"))).status == "Accepted"

    asyncio.run(go())
