"""The gateway's own TLS (BACKOFFICE_TLS_CERT/KEY): a charger of security
profile 2 (Basic auth over TLS) connects over wss without a proxy, the API
is served over https, and a renewed certificate is taken on SIGHUP
without a restart."""
import asyncio
import hashlib
import shutil
import signal
import socket
import ssl
import subprocess
import time

import pytest
import websockets
from ocpp.v16 import call
from ocpp.v16.enums import RegistrationStatus

from conftest import Api, Connection, free_port, make_pile, start_gateway
from test_ykc import ykc_pile
from ykc_pile import spec as ykc_spec


def self_signed(directory, name):
    """A certificate for 127.0.0.1 and its key, made with openssl."""
    cert, key = directory / f"{name}.pem", directory / f"{name}-key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
         "-subj", f"/CN={name}", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True)
    return cert, key


def trusting(cert):
    ctx = ssl.create_default_context(cafile=str(cert))
    return ctx


def served_certificate(port):
    """The SHA-256 of the certificate the gateway presents now."""
    loose = ssl.create_default_context()
    loose.check_hostname = False
    loose.verify_mode = ssl.CERT_NONE
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw, loose.wrap_socket(raw) as tls:
        return hashlib.sha256(tls.getpeercert(binary_form=True)).hexdigest()


def der_digest(cert):
    der = ssl.PEM_cert_to_DER_cert(cert.read_text())
    return hashlib.sha256(der).hexdigest()


@pytest.fixture(scope="module")
def tls_gateway(tmp_path_factory):
    certs = tmp_path_factory.mktemp("certs")
    first, first_key = self_signed(certs, "first")
    live, live_key = certs / "live.pem", certs / "live-key.pem"
    shutil.copy(first, live)
    shutil.copy(first_key, live_key)
    ykc_tls_port = free_port()
    proc, info = start_gateway({"BACKOFFICE_TLS_CERT": str(live), "BACKOFFICE_TLS_KEY": str(live_key),
                                "BACKOFFICE_YKC_TLS_PORT": str(ykc_tls_port)}, ssl_context=trusting(first))
    info.update(certs=certs, live=live, live_key=live_key, first=first, ykc_tls_port=ykc_tls_port)
    yield info
    proc.terminate()
    proc.wait(timeout=20)


def test_a_profile_2_charger_boots_over_wss_and_a_wrong_password_is_refused(tls_gateway):
    api = Api(tls_gateway["base"], tls_gateway["ssl"])
    p = make_pile(api, securityProfile=2)

    async def go():
        async with Connection(tls_gateway["ws"], p, ssl_context=tls_gateway["ssl"]) as cp:
            boot = await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60"))
            assert boot.status == RegistrationStatus.accepted
            assert p.view()["link"]["connected"]
        p.password = "wrong-password-123456"
        with pytest.raises(websockets.exceptions.InvalidStatusCode) as refused:
            async with Connection(tls_gateway["ws"], p, ssl_context=tls_gateway["ssl"]):
                pass
        assert refused.value.status_code == 401

    asyncio.run(go())


def test_a_new_pile_defaults_to_profile_2_when_the_gateway_serves_tls(tls_gateway, gateway, api):
    assert make_pile(Api(tls_gateway["base"], tls_gateway["ssl"])).view()["securityProfile"] == 2
    assert make_pile(api).view()["securityProfile"] == 1, "without TLS: 1"


def test_a_ykc_pile_that_speaks_tls_logs_in_on_the_ykc_tls_port(tls_gateway):
    """Beside the plain YKC port, BACKOFFICE_YKC_TLS_PORT takes piles over
    TLS with the gateway's own certificate; plain frames get nothing there.
    One thread owns the TLS socket (an SSL object is not safe to read and
    write from two threads), so the exchange is written out step by step."""
    api = Api(tls_gateway["base"], tls_gateway["ssl"])
    p = ykc_pile(api)
    # The certificate may have been renewed by another test of this gateway:
    # this one is about the port speaking TLS, not about which certificate.
    loose = ssl.create_default_context()
    loose.check_hostname = False
    loose.verify_mode = ssl.CERT_NONE
    pile = ykc_spec.Pile("1.6", p.code)
    login = (pile.pile_bcd + bytes([0, 2, 0x10]) + ykc_spec.ascii_field("v2.3.4", 8) + bytes([1])
             + ykc_spec.bcd("89860000000000000001", 10) + bytes([0]))
    with socket.create_connection(("127.0.0.1", tls_gateway["ykc_tls_port"]), timeout=10) as raw, \
            loose.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
        assert tls.version() in ("TLSv1.2", "TLSv1.3")
        tls.sendall(ykc_spec.frame(0, 0x01, login))
        parser, frames = ykc_spec.StreamParser(), []
        deadline = time.time() + 10
        while not any(t == 0x02 for _, t, _ in frames):
            assert time.time() < deadline, f"no login answer over TLS (got {frames})"
            parser.push(tls.recv(4096))
            frames.extend(parser.frames())
        answer = next(b for _, t, b in frames if t == 0x02)
        assert answer[7] == 0, f"login refused: {answer.hex()}"
        deadline = time.time() + 10
        while not p.view()["link"]["connected"]:
            assert time.time() < deadline, "the pile shows connected"
            time.sleep(0.2)
        assert p.view()["link"]["protocol"] == "ykc1.6"
    with socket.create_connection(("127.0.0.1", tls_gateway["ykc_tls_port"]), timeout=5) as s:
        s.sendall(ykc_spec.frame(0, 0x01, login))
        s.settimeout(3)
        try:
            answer = s.recv(100)
        except (ConnectionResetError, socket.timeout):
            answer = b""
    assert not answer.startswith(b"\x68"), "no YKC frame answers plain bytes on the TLS port"


def test_plain_http_is_not_served_on_the_tls_port(tls_gateway):
    with socket.create_connection(("127.0.0.1", tls_gateway["port"]), timeout=5) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        s.settimeout(5)
        try:
            answer = s.recv(100)
        except (ConnectionResetError, socket.timeout):
            answer = b""
    assert not answer.startswith(b"HTTP/1.1 200")


def test_a_renewed_certificate_is_served_after_sighup(tls_gateway):
    assert served_certificate(tls_gateway["port"]) == der_digest(tls_gateway["first"])
    second, second_key = self_signed(tls_gateway["certs"], "second")
    shutil.copy(second, tls_gateway["live"])
    shutil.copy(second_key, tls_gateway["live_key"])
    tls_gateway["proc"].send_signal(signal.SIGHUP)
    deadline = time.time() + 10
    while served_certificate(tls_gateway["port"]) != der_digest(second):
        assert time.time() < deadline, "the renewed certificate was not served within 10 s of SIGHUP"
        time.sleep(0.2)
    # The process kept running and a charger connects with the new one.
    assert tls_gateway["proc"].poll() is None
    api = Api(tls_gateway["base"], trusting(second))
    p = make_pile(api)

    async def go():
        async with Connection(tls_gateway["ws"], p, ssl_context=trusting(second)) as cp:
            boot = await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60"))
            assert boot.status == RegistrationStatus.accepted

    asyncio.run(go())


def test_over_https_every_answer_carries_hsts_and_the_csp(tls_gateway):
    import urllib.request
    # The certificate may have been renewed by the reload test: any will do here.
    loose = ssl.create_default_context()
    loose.check_hostname = False
    loose.verify_mode = ssl.CERT_NONE
    with urllib.request.urlopen(tls_gateway["base"] + "/partnerapi/publicKey", timeout=30, context=loose) as r:
        headers = r.headers
    assert headers["strict-transport-security"].startswith("max-age=63072000")
    assert "script-src 'self';" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
