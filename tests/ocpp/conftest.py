"""Charge points scripted with the PyPI `ocpp` package (an independent
implementation of the charger side) against the real gateway binary.

One gateway per test process (pytest-xdist runs two): a fresh data dir,
known sign-in passwords, a free loopback port. Each test registers its own
pile (unique code) through the back-office API, so tests are independent.
"""
import asyncio
import base64
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
import websockets
from ocpp.routing import on
from ocpp.v16 import ChargePoint, call_result

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from free_port import free_port  # noqa: E402  (the one port picker of the test servers)
GATEWAY = os.environ.get("OCPP_GATEWAY_BIN", str(ROOT / "target/debug/gateway"))
ADMIN_PW = "admin-pass-123"
EDITOR_PW = "editor-pass-123"


class Api:
    """The back-office API, signed in as admin."""

    def __init__(self, base, ssl_context=None):
        self.base = base
        self.ssl = ssl_context
        self.token = self.login("admin", ADMIN_PW)

    def request(self, method, path, body=None, token=None):
        data = json.dumps(body).encode() if body is not None else None
        headers = {"content-type": "application/json", "authorization": f"Bearer {token or self.token}"}
        req = urllib.request.Request(self.base + "/partnerapi" + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=30, context=self.ssl) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            return json.loads(e.read())

    def login(self, username, password):
        req = urllib.request.Request(
            self.base + "/partnerapi/login/index",
            data=json.dumps({"username": username, "password": password}).encode(),
            headers={"content-type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=30, context=self.ssl) as r:
            return json.loads(r.read())["data"]["token"]

    def get(self, path, token=None):
        return self.request("GET", path, token=token)

    def post(self, path, body, token=None):
        return self.request("POST", path, body, token=token)


def start_gateway(extra_env=None, ssl_context=None):
    """The gateway binary on a free port with a fresh data dir; returns
    (process, info). With `ssl_context` (a client context trusting the
    gateway's certificate) it is reached over https/wss."""
    port = free_port()
    ykc_port = free_port()
    while ykc_port == port:
        ykc_port = free_port()
    data = tempfile.mkdtemp(prefix="ocpp-tests-")
    env = dict(os.environ)
    env.update(
        BACKOFFICE_DATA_DIR=data,
        BACKOFFICE_HOST="127.0.0.1",
        BACKOFFICE_PORT=str(port),
        BACKOFFICE_YKC_PORT=str(ykc_port),
        BACKOFFICE_SEED_PASSWORD_ADMIN=ADMIN_PW,
        BACKOFFICE_SEED_PASSWORD_EDITOR=EDITOR_PW,
        BACKOFFICE_SEED_PASSWORD_TEST="test-pass-123",
        BACKOFFICE_ACCESS_TOKEN_TTL="3600",
        BACKOFFICE_DEMO_ORDERS="200",
        BACKOFFICE_LOG="warn",
    )
    env.update(extra_env or {})
    env.pop("BACKOFFICE_SIMULATE_CHARGERS", None)
    log = open(Path(data) / "gateway.log", "w")
    proc = subprocess.Popen([GATEWAY], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    scheme, ws = ("https", "wss") if ssl_context else ("http", "ws")
    base = f"{scheme}://127.0.0.1:{port}"
    deadline = time.time() + 90
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"gateway exited: {(Path(data) / 'gateway.log').read_text()}")
        try:
            with urllib.request.urlopen(base + "/partnerapi/publicKey", timeout=2, context=ssl_context):
                break
        except Exception:
            if time.time() > deadline:
                raise
            time.sleep(0.3)
    info = {"base": base, "ws": f"{ws}://127.0.0.1:{port}/ocpp", "proc": proc, "log": Path(data) / "gateway.log",
            "data": Path(data), "ssl": ssl_context, "port": port,
            "ykc_port": ykc_port}
    return proc, info


@pytest.fixture(scope="session")
def gateway():
    # Some tests play a reverse proxy on this machine (X-Forwarded-For):
    # the gateway believes that header from loopback only when told so.
    proc, info = start_gateway({"BACKOFFICE_TRUSTED_PROXY": "127.0.0.1"})
    yield info
    proc.terminate()
    proc.wait(timeout=20)


@pytest.fixture(scope="session")
def api(gateway):
    return Api(gateway["base"])


class Pile:
    def __init__(self, api, code, pile_id, station_id, password, connectors):
        self.api, self.code, self.id, self.station_id, self.password, self.connectors = api, code, pile_id, station_id, password, connectors

    @property
    def basic(self):
        return "Basic " + base64.b64encode(f"{self.code}:{self.password}".encode()).decode()

    def view(self):
        detail = self.api.get(f"/station/getDetail?id={self.station_id}")["data"]
        return next(p for p in detail["piles"] if p["id"] == self.id)


_SHARED_STATION = {}


def operating_station(api):
    """The demo station the tests' piles share, chosen once per gateway. The
    list shows the newest first, so choosing again would, after a test added
    a station of its own (one with a power budget), put later piles there and
    their chargers would be sent that station's budget shares."""
    stations = api.get("/station/getList?pageNo=1&pageSize=50&status=operating")["data"]["list"]
    if api.base not in _SHARED_STATION:
        _SHARED_STATION[api.base] = next(s for s in stations if s.get("tariffId"))["id"]
    chosen = _SHARED_STATION[api.base]
    return next(s for s in stations if s["id"] == chosen)


def make_pile(api, **extra):
    """A fresh pile (two DC connectors) with a password, on a station with a tariff."""
    station = operating_station(api)
    code = "PY" + uuid.uuid4().hex[:10].upper()
    body = {"stationId": station["id"], "code": code, "pileType": "dc", "ratedPowerKw": 60, "heartbeatIntervalSecs": 60,
            "connectors": [{"standard": "gbt2015", "maxPowerKw": 60}, {"standard": "gbt2015", "maxPowerKw": 60}]}
    body.update(extra)
    added = api.post("/pile/doAdd", body)
    assert added["code"] == 200, added
    pw = api.post("/pile/setPassword", {"id": added["data"]["id"]})
    assert pw["code"] == 200, pw
    return Pile(api, code, added["data"]["id"], station["id"], pw["data"]["password"], 2)


@pytest.fixture
def pile(api):
    """`pile(**fields)`: a fresh pile on the session's gateway."""
    return lambda **extra: make_pile(api, **extra)


class Charger(ChargePoint):
    """A charger that answers the server's calls the way a real one would."""

    reset_requests = 0

    @on("Reset")
    async def on_reset(self, type, **kw):
        self.reset_requests += 1
        return call_result.Reset(status="Accepted")

    @on("GetConfiguration")
    async def on_get_configuration(self, **kw):
        return call_result.GetConfiguration(configuration_key=[{"key": "HeartbeatInterval", "readonly": False, "value": "60"}])

    @on("ChangeConfiguration")
    async def on_change_configuration(self, key, value, **kw):
        return call_result.ChangeConfiguration(status="Accepted" if key == "HeartbeatInterval" else "NotSupported")

    @on("RemoteStartTransaction")
    async def on_remote_start(self, id_tag, **kw):
        # A connector reserved for another card refuses (as OCPP 1.6 says).
        reserved = getattr(self, "reserved", None)
        if reserved and reserved[0] == kw.get("connector_id") and reserved[1] != id_tag:
            return call_result.RemoteStartTransaction(status="Rejected")
        self.remote_started = (kw.get("connector_id"), id_tag)
        return call_result.RemoteStartTransaction(status="Accepted")

    @on("ReserveNow")
    async def on_reserve_now(self, connector_id, expiry_date, id_tag, reservation_id, **kw):
        self.reserved = (connector_id, id_tag, reservation_id)
        return call_result.ReserveNow(status="Accepted")

    @on("CancelReservation")
    async def on_cancel_reservation(self, reservation_id, **kw):
        return call_result.CancelReservation(status="Accepted")

    @on("UpdateFirmware")
    async def on_update_firmware(self, location, retrieve_date, **kw):
        self.firmware = location
        return call_result.UpdateFirmware()

    @on("GetDiagnostics")
    async def on_get_diagnostics(self, location, **kw):
        return call_result.GetDiagnostics(file_name="diag-1.zip")

    @on("SendLocalList")
    async def on_send_local_list(self, list_version, update_type, **kw):
        self.local_list = (list_version, update_type, kw.get("local_authorization_list") or [])
        return call_result.SendLocalList(status="Accepted")

    @on("GetLocalListVersion")
    async def on_get_local_list_version(self, **kw):
        return call_result.GetLocalListVersion(list_version=getattr(self, "local_list", (0,))[0])

    @on("SetChargingProfile")
    async def on_set_charging_profile(self, connector_id, cs_charging_profiles, **kw):
        self.profile = cs_charging_profiles
        return call_result.SetChargingProfile(status="Accepted")

    @on("ClearChargingProfile")
    async def on_clear_charging_profile(self, **kw):
        return call_result.ClearChargingProfile(status="Accepted")

    @on("GetCompositeSchedule")
    async def on_get_composite_schedule(self, connector_id, duration, **kw):
        return call_result.GetCompositeSchedule(status="Accepted", connector_id=connector_id, schedule_start=iso(time.time()), charging_schedule={
            "chargingRateUnit": "W", "duration": duration, "chargingSchedulePeriod": [{"startPeriod": 0, "limit": 11000.0}, {"startPeriod": 3600, "limit": 7000.0}]})

    @on("RemoteStopTransaction")
    async def on_remote_stop(self, transaction_id, **kw):
        self.remote_stopped = transaction_id
        return call_result.RemoteStopTransaction(status="Accepted")


class Connection:
    """`async with Connection(pile) as cp:` a connected, running charger."""

    def __init__(self, ws_base, pile, protocols=("ocpp1.6",), cls=Charger, path_id=None, ssl_context=None):
        self.url = f"{ws_base}/{path_id or pile.code}"
        self.pile, self.protocols, self.cls, self.ssl = pile, list(protocols), cls, ssl_context

    async def __aenter__(self):
        extra = {"ssl": self.ssl} if self.ssl else {}
        self.ws = await websockets.connect(self.url, subprotocols=self.protocols, extra_headers={"Authorization": self.pile.basic}, max_size=None, **extra)
        self.cp = self.cls(self.pile.code, self.ws)
        self.task = asyncio.create_task(self.cp.start())
        return self.cp

    async def __aexit__(self, *exc):
        self.task.cancel()
        await self.ws.close()


def iso(ts):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))
