"""Remote operations against a charger scripted with the ocpp package:
accepted, rejected, CALLERROR, offline, the effects that follow (a remote
start leads to the charger's StartTransaction and an order, a remote stop
ends and prices it), who may do what, and bad input refused."""
import asyncio
import base64
import json
import time

import pytest
import websockets

from ocpp.routing import on
from ocpp.v16 import call, call_result

from conftest import Api, Charger, Connection, iso, make_pile, start_gateway


def run(coro):
    return asyncio.run(coro)


async def settle(api, command_id, timeout=10):
    """Polls a command until it is no longer queued or sent (as the page does)."""
    loop = asyncio.get_running_loop()
    deadline = time.time() + timeout
    while True:
        c = (await loop.run_in_executor(None, lambda: api.get(f"/charger/command?id={command_id}")))["data"]
        if c["status"] not in ("queued", "sent") or time.time() > deadline:
            return c
        await asyncio.sleep(0.1)


async def post(api, path, body, token=None):
    return await asyncio.get_running_loop().run_in_executor(None, lambda: api.post(path, body, token=token))


def test_reset_and_configuration_are_answered_and_shown(gateway, pile, api):
    p = pile()

    async def go():
        async with Connection(gateway["ws"], p) as cp:
            await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60"))
            reset = await post(api, "/charger/reset", {"pileId": p.id, "type": "Hard"})
            assert reset["code"] == 200 and reset["data"]["status"] in ("sent", "queued")
            done = await settle(api, reset["data"]["id"])
            assert (done["status"], done["response"]) == ("answered", {"status": "Accepted"}) and cp.reset_requests == 1
            # It restarts: the next calls wait for its BootNotification.
            held = await post(api, "/charger/clearCache", {"pileId": p.id})
            assert held["data"]["status"] == "queued", held
            await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60"))
            assert (await settle(api, held["data"]["id"]))["status"] == "callError", "sent after the boot (this charger does not implement ClearCache)"
            conf = await settle(api, (await post(api, "/charger/getConfiguration", {"pileId": p.id}))["data"]["id"])
            assert conf["response"]["configurationKey"][0]["key"] == "HeartbeatInterval"
            ok = await settle(api, (await post(api, "/charger/changeConfiguration", {"pileId": p.id, "key": "HeartbeatInterval", "value": "120"}))["data"]["id"])
            no = await settle(api, (await post(api, "/charger/changeConfiguration", {"pileId": p.id, "key": "Unknown", "value": "1"}))["data"]["id"])
            assert (ok["response"]["status"], no["response"]["status"]) == ("Accepted", "NotSupported")
            # An action the charger does not implement: its CALLERROR is shown.
            dt = await settle(api, (await post(api, "/charger/dataTransfer", {"pileId": p.id, "vendorId": "acme"}))["data"]["id"])
            assert dt["status"] == "callError" and dt["error"]["code"] == "NotImplemented"
        log = api.get(f"/pile/messageLog?pileId={p.id}&action=Reset")["data"]["list"]
        assert log[0]["direction"] == "out" and log[0]["response"] == {"status": "Accepted"}
        # The system log has who asked for what and the charger's answer.
        entries = api.get("/systemLog/getList?pageNo=1&pageSize=50")["data"]["list"]
        asked = [e for e in entries if e["path"] == "/charger/reset"]
        answered = [e for e in entries if e["type"] == "Charger's answer to Reset" and e["target"] == p.id]
        assert asked and asked[0]["account"] == "admin"
        assert answered and answered[0]["account"] == "admin" and answered[0]["executeResult"] == "answered: Accepted", answered

    run(go())


def test_remote_start_leads_to_a_session_and_remote_stop_prices_it(gateway, pile, api):
    p = pile()

    async def go():
        async with Connection(gateway["ws"], p) as cp:
            await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60"))
            editor = api.login("editor", "editor-pass-123")
            started = await settle(api, (await post(api, "/charger/remoteStart", {"pileId": p.id, "connectorId": 2, "idTag": "DEMO0011", "limitW": 11000}, token=editor))["data"]["id"])
            assert started["response"] == {"status": "Accepted"} and cp.remote_started == (2, "DEMO0011")
            assert started["payload"]["chargingProfile"]["chargingSchedule"]["chargingSchedulePeriod"][0]["limit"] == 11000
            # The charger starts the session it was asked for.
            t0 = int(time.time()) - 1800
            tx = (await cp.call(call.StartTransaction(connector_id=2, id_tag="DEMO0011", meter_start=700, timestamp=iso(t0)))).transaction_id
            await cp.call(call.MeterValues(connector_id=2, transaction_id=tx, meter_value=[{"timestamp": iso(t0 + 900), "sampledValue": [{"value": "5700"}]}]))
            order = next(o for o in api.get("/order/getList?userId=DEMO0011&status=charging&pageSize=50")["data"]["list"] if o["transactionId"] == tx)
            stop = await settle(api, (await post(api, "/charger/remoteStop", {"orderNo": order["orderNo"]}, token=editor))["data"]["id"])
            assert stop["response"] == {"status": "Accepted"} and cp.remote_stopped == tx
            await cp.call(call.StopTransaction(transaction_id=tx, meter_stop=10700, timestamp=iso(t0 + 1800), reason="Remote"))
            closed = api.get(f"/order/detail?id={order['orderNo']}")["data"]
            assert (closed["status"], closed["stopReason"], closed["energyWh"]) == ("finished", "remoteStop", 10000) and closed["amountFen"] > 0

    run(go())


def test_offline_permissions_and_bad_input(gateway, pile, api):
    p = pile()
    offline = api.post("/charger/unlock", {"pileId": p.id, "connectorId": 1})
    assert offline["code"] == 200 and offline["data"]["status"] == "offline"
    editor = api.login("editor", "editor-pass-123")
    assert api.post("/charger/reset", {"pileId": p.id, "type": "Soft"}, token=editor)["code"] == 403, "reset is Admin only"
    assert api.post("/charger/unlock", {"pileId": p.id, "connectorId": 1}, token=editor)["code"] == 200
    before = len(api.get(f"/charger/commands?pileId={p.id}&pageSize=200")["data"]["list"])
    for path, body, field in [
        ("/charger/unlock", {"pileId": p.id, "connectorId": 9}, "connectorId"),
        ("/charger/remoteStart", {"pileId": p.id, "connectorId": 1, "idTag": "NOSUCHCARD"}, "idTag"),
        ("/charger/remoteStart", {"pileId": p.id, "connectorId": 1, "idTag": "DEMO0001", "limitW": -5}, "limitW"),
        ("/charger/changeConfiguration", {"pileId": p.id, "key": "K" * 51, "value": "1"}, "key"),
        ("/charger/reset", {"pileId": p.id, "type": "Sideways"}, "type"),
    ]:
        r = api.post(path, body)
        assert r["code"] == 400 and field in r["msg"], (path, r)
    assert len(api.get(f"/charger/commands?pileId={p.id}&pageSize=200")["data"]["list"]) == before, "nothing queued"


def test_reservations_firmware_diagnostics_local_list_and_charging_profiles(gateway, pile, api):
    p = pile()

    async def go():
        async with Connection(gateway["ws"], p) as cp:
            await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60"))
            editor = api.login("editor", "editor-pass-123")
            # A reservation: the charger holds the connector, the card uses it.
            res = await settle(api, (await post(api, "/charger/reserveNow", {"pileId": p.id, "connectorId": 1, "idTag": "DEMO0014", "expiresAt": int(time.time()) + 3600}, token=editor))["data"]["id"])
            assert res["response"] == {"status": "Accepted"} and cp.reserved[:2] == (1, "DEMO0014")
            reservation_id = cp.reserved[2]
            listed = api.get(f"/charger/reservations?pileId={p.id}")["data"]["list"]
            assert (listed[0]["id"], listed[0]["status"]) == (reservation_id, "reserved")
            await cp.call(call.StatusNotification(connector_id=1, error_code="NoError", status="Reserved", timestamp=iso(time.time())))
            assert p.view()["connectors"][0]["status"] == "reserved"
            # Another card cannot start on the reserved connector: the charger says so and it is shown.
            other = await settle(api, (await post(api, "/charger/remoteStart", {"pileId": p.id, "connectorId": 1, "idTag": "DEMO0015"}, token=editor))["data"]["id"])
            assert (other["status"], other["response"]) == ("answered", {"status": "Rejected"})
            await cp.call(call.StartTransaction(connector_id=1, id_tag="DEMO0014", meter_start=0, timestamp=iso(time.time()), reservation_id=reservation_id))
            assert api.get(f"/charger/reservations?pileId={p.id}")["data"]["list"][0]["status"] == "used"
            # Firmware and diagnostics, and their progress on the pile.
            fw = await settle(api, (await post(api, "/charger/updateFirmware", {"pileId": p.id, "location": "https://fw.example.com/dc60-2.5.bin"}))["data"]["id"])
            assert fw["status"] == "answered" and cp.firmware == "https://fw.example.com/dc60-2.5.bin"
            await cp.call(call.FirmwareStatusNotification(status="Downloading"))
            diag = await settle(api, (await post(api, "/charger/getDiagnostics", {"pileId": p.id, "location": "ftp://logs.example.com/upload/"}))["data"]["id"])
            assert diag["response"] == {"fileName": "diag-1.zip"}
            await cp.call(call.DiagnosticsStatusNotification(status="Uploading"))
            link = p.view()["link"]
            assert (link["firmwareStatus"], link["diagnosticsStatus"]) == ("Downloading", "Uploading")
            # The local list: full, then its version read back.
            sent = await settle(api, (await post(api, "/charger/sendLocalList", {"pileId": p.id, "updateType": "Full"}))["data"]["id"])
            assert sent["response"] == {"status": "Accepted"}
            version, kind, entries = cp.local_list
            tags = {e["id_tag"]: e["id_tag_info"]["status"] for e in entries}
            assert (version, kind) == (1, "Full") and tags["DEMO0001"] == "Accepted" and tags["BLOCKED01"] == "Blocked"
            v = await settle(api, (await post(api, "/charger/getLocalListVersion", {"pileId": p.id}))["data"]["id"])
            assert v["response"] == {"listVersion": 1}
            diff = await settle(api, (await post(api, "/charger/sendLocalList", {"pileId": p.id, "updateType": "Differential"}))["data"]["id"])
            assert diff["payload"]["listVersion"] == 2
            # Smart charging: a limit with a schedule, the composite schedule, clearing.
            prof = await settle(api, (await post(api, "/charger/setChargingProfile", {"pileId": p.id, "connectorId": 0, "purpose": "ChargePointMaxProfile", "unit": "W", "periods": [{"startPeriod": 0, "limit": 22000}, {"startPeriod": 3600, "limit": 11000}]}))["data"]["id"])
            assert prof["response"] == {"status": "Accepted"} and cp.profile["charging_profile_purpose"] == "ChargePointMaxProfile"
            comp = await settle(api, (await post(api, "/charger/getCompositeSchedule", {"pileId": p.id, "connectorId": 1, "durationSecs": 7200}))["data"]["id"])
            assert comp["response"]["chargingSchedule"]["chargingSchedulePeriod"][1]["limit"] == 7000.0
            clr = await settle(api, (await post(api, "/charger/clearChargingProfile", {"pileId": p.id}))["data"]["id"])
            assert clr["response"] == {"status": "Accepted"}
            cancel = await settle(api, (await post(api, "/charger/cancelReservation", {"reservationId": reservation_id}, token=editor))["data"]["id"])
            assert cancel["response"] == {"status": "Accepted"}

    run(go())


def test_bad_input_of_the_other_operations_is_refused_before_queueing(gateway, pile, api):
    p = pile()
    before = len(api.get(f"/charger/commands?pileId={p.id}&pageSize=200")["data"]["list"])
    for path, body, field in [
        ("/charger/updateFirmware", {"pileId": p.id, "location": "file:///etc/passwd"}, "location"),
        ("/charger/getDiagnostics", {"pileId": p.id, "location": "not a url"}, "location"),
        ("/charger/reserveNow", {"pileId": p.id, "connectorId": 1, "idTag": "NOSUCHCARD", "expiresAt": int(time.time()) + 600}, "idTag"),
        ("/charger/reserveNow", {"pileId": p.id, "connectorId": 1, "idTag": "DEMO0001", "expiresAt": int(time.time()) - 600}, "expiresAt"),
        ("/charger/setChargingProfile", {"pileId": p.id, "connectorId": 1, "purpose": "TxDefaultProfile", "periods": [{"startPeriod": 0, "limit": -1}]}, "limit"),
        ("/charger/setChargingProfile", {"pileId": p.id, "connectorId": 1, "purpose": "TxDefaultProfile", "periods": []}, "periods"),
        ("/charger/setChargingProfile", {"pileId": p.id, "connectorId": 1, "purpose": "ChargePointMaxProfile", "periods": [{"startPeriod": 0, "limit": 1}]}, "connectorId"),
        ("/charger/sendLocalList", {"pileId": p.id}, "updateType"),
    ]:
        r = api.post(path, body)
        assert r["code"] == 400 and field in r["msg"], (path, r)
    assert len(api.get(f"/charger/commands?pileId={p.id}&pageSize=200")["data"]["list"]) == before, "nothing queued"


def test_a_call_without_an_answer_times_out_and_its_late_answer_is_not_applied(gateway, pile, api):
    """The charger never answers: after 30 s the command is timed out, the
    next queued one is sent, and the late answer changes nothing."""
    p = pile()

    async def go():
        async with websockets.connect(f"{gateway['ws']}/{p.code}", subprotocols=["ocpp1.6"], extra_headers={"Authorization": p.basic}) as ws:
            first = await post(api, "/charger/clearCache", {"pileId": p.id})
            second = await post(api, "/charger/getLocalListVersion", {"pileId": p.id})
            got = json.loads(await ws.recv())
            assert got[2] == "ClearCache"
            # No answer: the timeout (30 s, swept every 5 s) ends it and sends the next.
            nxt = json.loads(await asyncio.wait_for(ws.recv(), timeout=45))
            assert nxt[2] == "GetLocalListVersion"
            late = json.dumps([3, got[1], {"status": "Accepted"}])
            await ws.send(late)
            await ws.send(json.dumps([3, nxt[1], {"listVersion": 3}]))
            await asyncio.sleep(0.5)
            a = api.get(f"/charger/command?id={first['data']['id']}")["data"]
            b = api.get(f"/charger/command?id={second['data']['id']}")["data"]
            assert (a["status"], a["response"]) == ("timeout", None), a
            assert (b["status"], b["response"]) == ("answered", {"listVersion": 3}), b

    run(go())


class Rebooting(Charger):
    """Reboots on a Reset without answering it (the socket just closes)."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.asked = asyncio.Event()

    @on("Reset")
    async def on_reset(self, type, **kw):
        self.asked.set()
        await asyncio.sleep(3600)  # never answers: the test closes the socket


class DropsOnReserve(Charger):
    """Loses its connection while a ReserveNow is in flight."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.asked = asyncio.Event()

    @on("ReserveNow")
    async def on_reserve_now(self, connector_id, expiry_date, id_tag, reservation_id, **kw):
        self.asked.set()
        await asyncio.sleep(3600)


async def until(predicate, timeout):
    deadline = time.time() + timeout
    while not predicate():
        assert time.time() < deadline, "not within the time"
        await asyncio.sleep(0.05)


def test_a_reset_without_an_answer_ends_at_the_close_and_the_queued_call_follows_the_boot(gateway, pile, api):
    """A Hard Reset: the charger reboots without answering and is back a
    moment later. The Reset ends `connectionClosed` at the close (not after
    the 30 s timeout), and the RemoteStart queued behind it goes to the new
    connection right after its BootNotification is answered."""
    p = pile()

    async def go():
        async with Connection(gateway["ws"], p, cls=Rebooting) as cp:
            await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60"))
            reset = await post(api, "/charger/reset", {"pileId": p.id, "type": "Hard"})
            await asyncio.wait_for(cp.asked.wait(), 10)
            start = await post(api, "/charger/remoteStart", {"pileId": p.id, "connectorId": 1, "idTag": "DEMO0011"})
            assert start["data"]["status"] == "queued", start
        closed = await settle(api, reset["data"]["id"], timeout=5)
        assert closed["status"] == "connectionClosed" and closed["error"]["code"] == "ConnectionClosed", closed
        assert (await settle(api, start["data"]["id"], timeout=1))["status"] == "queued", "it waits for the charger to come back"
        async with Connection(gateway["ws"], p) as cp:
            back = time.time()
            await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60"))
            await until(lambda: getattr(cp, "remote_started", None), 3)
            assert cp.remote_started == (1, "DEMO0011") and time.time() - back < 3
            sent = await settle(api, start["data"]["id"], timeout=5)
            assert (sent["status"], sent["response"]) == ("answered", {"status": "Accepted"}), sent
        log = api.get(f"/pile/messageLog?pileId={p.id}&action=Reset")["data"]["list"]
        assert log[0]["error"]["code"] == "ConnectionClosed", log[0]

    run(go())


def test_a_reserve_now_in_flight_when_the_socket_drops_ends_and_is_never_delivered_later(gateway, pile, api):
    p = pile()

    async def go():
        async with Connection(gateway["ws"], p, cls=DropsOnReserve) as cp:
            await cp.call(call.Heartbeat())
            reserve = await post(api, "/charger/reserveNow", {"pileId": p.id, "connectorId": 1, "idTag": "DEMO0014", "expiresAt": int(time.time()) + 3600})
            await asyncio.wait_for(cp.asked.wait(), 10)
            after = await post(api, "/charger/getLocalListVersion", {"pileId": p.id})
            assert after["data"]["status"] == "queued"
        ended = await settle(api, reserve["data"]["id"], timeout=5)
        assert ended["status"] == "connectionClosed", ended
        assert api.get(f"/charger/reservations?pileId={p.id}")["data"]["list"][0]["status"] == "refused"
        async with Connection(gateway["ws"], p) as cp:
            await cp.call(call.Heartbeat())
            version = await settle(api, after["data"]["id"], timeout=5)
            assert (version["status"], version["response"]) == ("answered", {"listVersion": 0}), version
            await asyncio.sleep(1)
            assert getattr(cp, "reserved", None) is None, "the ended ReserveNow is not sent again"
        assert api.get(f"/charger/command?id={reserve['data']['id']}")["data"]["status"] == "connectionClosed"

    run(go())


def test_charger_credentials_are_admins_and_a_new_password_closes_the_live_connection(gateway, pile, api):
    p = pile()
    editor = api.login("editor", "editor-pass-123")
    assert api.post("/pile/setPassword", {"id": p.id, "password": "Correct-Horse-Battery-9"}, token=editor)["code"] == 403
    v = p.view()
    edit = {k: v[k] for k in ("id", "version", "code", "pileType", "ratedPowerKw", "heartbeatIntervalSecs", "registrationStatus")}
    r = api.post("/pile/doEdit", {**edit, "securityProfile": 0}, token=editor)
    assert r["code"] == 403 and "securityProfile" in r["msg"], r
    assert p.view()["securityProfile"] == 1, "nothing written"

    async def go():
        old = p.basic
        async with websockets.connect(f"{gateway['ws']}/{p.code}", subprotocols=["ocpp1.6"], extra_headers={"Authorization": old}) as ws:
            new = (await post(api, "/pile/setPassword", {"id": p.id}))["data"]["password"]
            # The connection made with the old password is closed by the server.
            with pytest.raises(websockets.exceptions.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 5)
        p.password = new
        from test_pitfalls import handshake_status
        assert (await handshake_status(f"{gateway['ws']}/{p.code}", ["ocpp1.6"], old))[0] == 401
        assert (await handshake_status(f"{gateway['ws']}/{p.code}", ["ocpp1.6"], p.basic))[0] == 101

    run(go())


class KeyCharger(Charger):
    """Answers a new AuthorizationKey with `answer` (None: never answers)."""

    answer = "Accepted"

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.keys = []
        self.asked = asyncio.Event()

    @on("ChangeConfiguration")
    async def on_change_configuration(self, key, value, **kw):
        if key != "AuthorizationKey":
            return call_result.ChangeConfiguration(status="NotSupported")
        self.keys.append(value)
        self.asked.set()
        if self.answer is None:
            await asyncio.sleep(3600)
        return call_result.ChangeConfiguration(status=self.answer)


@pytest.fixture(scope="module")
def chatty_gateway():
    """A gateway logging at debug level: what it writes is checked for keys."""
    proc, info = start_gateway({"BACKOFFICE_LOG": "debug"})
    yield info
    proc.terminate()
    proc.wait(timeout=20)


def test_authorization_key_rotation_accepted_rejected_unanswered_and_never_shown(chatty_gateway):
    g = chatty_gateway
    api = Api(g["base"])
    p = make_pile(api)
    from test_pitfalls import handshake_status

    def basic(password):
        return "Basic " + base64.b64encode(f"{p.code}:{password}".encode()).decode()

    async def status(password):
        return (await handshake_status(f"{g['ws']}/{p.code}", ["ocpp1.6"], basic(password)))[0]

    r = api.post("/charger/changeConfiguration", {"pileId": p.id, "key": "authorizationkey", "value": "Some-New-Key-Value-77"})
    assert r["code"] == 400 and "rotateAuthorizationKey" in r["msg"], r
    r = api.post("/charger/rotateAuthorizationKey", {"pileId": p.id, "newKey": "aaaaaaaaaaaaaaaa"})
    assert r["code"] == 400 and "newKey" in r["msg"], r
    editor = api.login("editor", "editor-pass-123")
    assert api.post("/charger/rotateAuthorizationKey", {"pileId": p.id}, token=editor)["code"] == 403
    keys = []

    async def go():
        first = p.password
        # Accepted (a typed key): the new key is the password, the old one is refused.
        async with Connection(g["ws"], p, cls=KeyCharger) as cp:
            # A charger speaks first; the call then goes on this connection.
            await cp.call(call.Heartbeat())
            typed = "Rotated-Key-Correct-9xQ"
            sent = await post(api, "/charger/rotateAuthorizationKey", {"pileId": p.id, "newKey": typed})
            assert sent["code"] == 200 and sent["data"]["payload"] == {"key": "AuthorizationKey", "value": "***"}, sent
            done = await settle(api, sent["data"]["id"])
            assert (done["status"], done["response"]) == ("answered", {"status": "Accepted"}) and cp.keys == [typed]
        keys.append(typed)
        assert (await status(first), await status(typed)) == (401, 101)
        p.password = typed
        # Rejected (a generated key): the old one stays the only one.
        async with Connection(g["ws"], p, cls=KeyCharger) as cp:
            # A charger speaks first; the call then goes on this connection.
            await cp.call(call.Heartbeat())
            cp.answer = "Rejected"
            sent = await post(api, "/charger/rotateAuthorizationKey", {"pileId": p.id})
            done = await settle(api, sent["data"]["id"])
            assert (done["status"], done["response"]) == ("answered", {"status": "Rejected"}), done
            generated = cp.keys[0]
            assert len(generated) == 40 and all(c in "0123456789abcdef" for c in generated), generated
        keys.append(generated)
        assert (await status(typed), await status(generated)) == (101, 401)
        # No answer (the connection drops): the old one keeps working, and
        # the charger that did take the new key is admitted with it, which
        # makes it the only one.
        async with Connection(g["ws"], p, cls=KeyCharger) as cp:
            # A charger speaks first; the call then goes on this connection.
            await cp.call(call.Heartbeat())
            cp.answer = None
            sent = await post(api, "/charger/rotateAuthorizationKey", {"pileId": p.id})
            await asyncio.wait_for(cp.asked.wait(), 10)
            busy = await post(api, "/charger/rotateAuthorizationKey", {"pileId": p.id})
            assert busy["code"] == 409, busy
            unanswered = cp.keys[0]
        keys.append(unanswered)
        assert (await settle(api, sent["data"]["id"], timeout=5))["status"] == "connectionClosed"
        assert await status(typed) == 101
        assert (await status(unanswered), await status(typed)) == (101, 401)

    run(go())
    # The keys are nowhere: message log, commands, system log, the gateway's output.
    shown = [
        json.dumps(api.get(f"/pile/messageLog?pileId={p.id}&pageSize=200")),
        json.dumps(api.get(f"/charger/commands?pileId={p.id}&pageSize=200")),
        json.dumps(api.get("/systemLog/getList?pageNo=1&pageSize=200")),
        g["log"].read_text(),
    ]
    assert '"value": "***"' in shown[0] and '"value": "***"' in shown[1]
    for k in keys:
        for i, text in enumerate(shown):
            assert k not in text, (i, k)
