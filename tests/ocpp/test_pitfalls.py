"""The pitfalls every OCPP server meets (shared/design/OCPP.md), one test each, and the schema's limits."""
import asyncio
import base64
import json
import time
import urllib.parse

import pytest
import websockets
from ocpp.v16 import call

from conftest import Connection, iso


def run(coro):
    return asyncio.run(coro)


async def handshake_status(url, protocols, auth):
    headers = {"Authorization": auth} if auth else {}
    try:
        async with websockets.connect(url, subprotocols=protocols, extra_headers=headers) as ws:
            return 101, ws.subprotocol
    except websockets.exceptions.InvalidStatusCode as e:
        return e.status_code, None


async def raw_call(ws, message_id, action, payload):
    await ws.send(json.dumps([2, message_id, action, payload]))
    return json.loads(await ws.recv())


def raw(gateway, p):
    return websockets.connect(f"{gateway['ws']}/{p.code}", subprotocols=["ocpp1.6"], extra_headers={"Authorization": p.basic}, max_size=None)


def order_of(api, tag, tx):
    return next(o for o in api.get(f"/order/getList?userId={tag}&pageSize=100")["data"]["list"] if o["transactionId"] == tx)


def test_1_subprotocol_offers(gateway, pile):
    p = pile()
    url = f"{gateway['ws']}/{p.code}"
    assert run(handshake_status(url, ["ocpp2.0.1", "ocpp1.6"], p.basic)) == (101, "ocpp1.6")
    assert run(handshake_status(url, ["ocpp2.0.1"], p.basic))[0] == 400
    assert run(handshake_status(url, None, p.basic))[0] == 400


def test_2_charge_point_id_and_basic_auth(gateway, pile):
    p = pile()
    encoded = urllib.parse.quote(p.code.lower(), safe="")
    assert run(handshake_status(f"{gateway['ws']}/{encoded}", ["ocpp1.6"], p.basic))[0] == 101, "other letter case, URL-encoded"
    assert run(handshake_status(f"{gateway['ws']}/NOSUCHCHARGER", ["ocpp1.6"], p.basic))[0] == 404
    assert run(handshake_status(f"{gateway['ws']}/{p.code}", ["ocpp1.6"], None))[0] == 401
    wrong = "Basic " + base64.b64encode(f"{p.code}:0123456789abcdefWRONG".encode()).decode()
    assert run(handshake_status(f"{gateway['ws']}/{p.code}", ["ocpp1.6"], wrong))[0] == 401


def test_3_reconnect_replaces_the_old_socket(gateway, pile):
    p = pile()

    async def go():
        old = await raw(gateway, p)
        new = await raw(gateway, p)
        await asyncio.sleep(0.3)
        assert old.close_code == 1001, "the replaced socket is closed as going away"
        answer = await raw_call(new, "1", "Heartbeat", {})
        assert answer[0] == 3
        await old.close()  # the old socket's late close changes nothing
        await asyncio.sleep(0.3)
        assert p.view()["link"]["connected"]
        # A socket that died without a close must not lock the charger out.
        new.transport.abort()
        again = await raw(gateway, p)
        assert (await raw_call(again, "2", "Heartbeat", {}))[0] == 3
        await again.close()

    run(go())


def test_4_our_calls_one_in_flight_and_answers_to_nothing_are_ignored(gateway, pile, api):
    p = pile()

    async def go():
        async with raw(gateway, p) as ws:
            loop = asyncio.get_running_loop()
            first = await loop.run_in_executor(None, lambda: api.post("/charger/reset", {"pileId": p.id, "type": "Soft"}))
            second = await loop.run_in_executor(None, lambda: api.post("/charger/clearCache", {"pileId": p.id}))
            assert (first["data"]["status"], second["data"]["status"]) == ("sent", "queued"), "one call in flight, the next waits"
            got = json.loads(await ws.recv())
            assert got[2] == "Reset"
            # The charger's own call interleaves with ours.
            assert (await raw_call(ws, "c1", "Heartbeat", {}))[0] == 3
            await ws.send(json.dumps([3, "no-such-call", {"status": "Accepted"}]))
            await ws.send(json.dumps([4, got[1], "InternalError", "cannot reset now", {}]))
            nxt = json.loads(await ws.recv())
            assert nxt[2] == "ClearCache"
            await ws.send(json.dumps([3, nxt[1], {"status": "Accepted"}]))
            await asyncio.sleep(0.3)
            a = api.get(f"/charger/command?id={first['data']['id']}")["data"]
            b = api.get(f"/charger/command?id={second['data']['id']}")["data"]
            assert a["status"] == "callError" and a["error"]["code"] == "InternalError"
            assert b["status"] == "answered" and b["response"] == {"status": "Accepted"}

    run(go())


def test_5_a_repeated_start_gets_the_same_id_and_an_offline_unknown_card_is_recorded(gateway, pile, api):
    p = pile()
    start = int(time.time()) - 600

    async def go():
        async with Connection(gateway["ws"], p) as cp:
            a = await cp.call(call.StartTransaction(connector_id=1, id_tag="DEMO0006", meter_start=100, timestamp=iso(start)))
            b = await cp.call(call.StartTransaction(connector_id=1, id_tag="DEMO0006", meter_start=100, timestamp=iso(start)))
            unknown = await cp.call(call.StartTransaction(connector_id=2, id_tag="OFFLINE99", meter_start=5, timestamp=iso(start)))
            return a.transaction_id, b.transaction_id, unknown

    a, b, unknown = run(go())
    assert a == b
    assert len([o for o in api.get("/order/getList?userId=DEMO0006&pageSize=100")["data"]["list"] if o["transactionId"] == a]) == 1
    assert unknown.id_tag_info["status"] == "Invalid"
    order = order_of(api, "OFFLINE99", unknown.transaction_id)
    assert {"kind": "charger", "problem": "unauthorizedIdTag"} in order["anomalies"]


def test_6_stop_transaction_is_always_confirmed(gateway, pile, api):
    p = pile()
    start = int(time.time()) - 1200

    async def go():
        async with raw(gateway, p) as ws:
            tx = (await raw_call(ws, "1", "StartTransaction", {"connectorId": 1, "idTag": "DEMO0007", "meterStart": 5000, "timestamp": iso(start)}))[2]["transactionId"]
            answers = []
            for i, stop in enumerate([
                {"transactionId": 999999, "meterStop": 1, "timestamp": iso(start)},
                {"transactionId": -1, "meterStop": 1, "timestamp": iso(start)},
                {"transactionId": 0, "meterStop": 1, "timestamp": iso(start)},
                {"transactionId": tx, "meterStop": 4000, "timestamp": iso(start - 60)},  # before its start, meter backwards
                {"transactionId": tx, "meterStop": 4000, "timestamp": iso(start - 60)},  # already stopped
            ]):
                answers.append(await raw_call(ws, f"s{i}", "StopTransaction", stop))
            return tx, answers

    tx, answers = run(go())
    assert all(a[0] == 3 for a in answers), answers
    order = order_of(api, "DEMO0007", tx)
    kinds = {a["kind"] for a in order["anomalies"]}
    assert {"stopBeforeStart", "negativeMeter"} <= kinds and order["status"] == "abnormal", order


def test_7_offline_backlog_is_billed_by_the_chargers_times(gateway, pile, api):
    p = pile()
    start = int(time.time()) - 5 * 3600  # hours old, sent in a burst after a reconnect

    async def go():
        async with raw(gateway, p) as ws:
            frames = [[2, "b1", "StartTransaction", {"connectorId": 1, "idTag": "DEMO0008", "meterStart": 0, "timestamp": iso(start)}]]
            await ws.send(json.dumps(frames[0]))
            tx = json.loads(await ws.recv())[2]["transactionId"]
            burst = [[2, f"m{i}", "MeterValues", {"connectorId": 1, "transactionId": tx, "meterValue": [{"timestamp": iso(start + i * 600), "sampledValue": [{"value": str(i * 2000)}]}]}] for i in range(1, 6)]
            burst.append([2, "s", "StopTransaction", {"transactionId": tx, "meterStop": 12000, "timestamp": iso(start + 3600)}])
            for f in burst:
                await ws.send(json.dumps(f))
            answers = [json.loads(await ws.recv()) for _ in burst]
            assert all(a[0] == 3 for a in answers)
            # A 1970 timestamp (clock not set) and one a little in the future.
            t1970 = await raw_call(ws, "x1", "StartTransaction", {"connectorId": 2, "idTag": "DEMO0008", "meterStart": 0, "timestamp": "1970-01-01T00:00:10Z"})
            fut = await raw_call(ws, "x2", "StatusNotification", {"connectorId": 2, "status": "Available", "errorCode": "NoError", "timestamp": iso(time.time() + 30)})
            assert fut[0] == 3
            return tx, t1970[2]["transactionId"]

    tx, tx1970 = run(go())
    order = order_of(api, "DEMO0008", tx)
    assert (order["startTs"], order["stopTs"], order["energyWh"]) == (start, start + 3600, 12000)
    clockless = order_of(api, "DEMO0008", tx1970)
    assert clockless["startTs"] > time.time() - 600, "a 1970 start is recorded at arrival"
    assert {"kind": "charger", "problem": "clockNotSet"} in clockless["anomalies"]


def test_8_meter_values_in_their_many_shapes(gateway, pile, api):
    p = pile()
    start = int(time.time()) - 3000

    async def go():
        async with raw(gateway, p) as ws:
            tx = (await raw_call(ws, "1", "StartTransaction", {"connectorId": 1, "idTag": "DEMO0009", "meterStart": 1000, "timestamp": iso(start)}))[2]["transactionId"]
            shapes = [
                {"connectorId": 1, "transactionId": tx, "meterValue": [{"timestamp": iso(start), "sampledValue": [{"value": "1000", "context": "Transaction.Begin"}]}]},
                {"connectorId": 1, "transactionId": tx, "meterValue": [{"timestamp": iso(start + 600), "sampledValue": [{"value": "2.5", "unit": "kWh"}, {"value": "2500", "context": "Sample.Periodic", "measurand": "Energy.Active.Import.Register"}]}]},
                {"connectorId": 1, "transactionId": tx, "meterValue": [{"timestamp": iso(start + 900), "sampledValue": [{"value": "3200", "context": "Sample.Clock"}]}]},
                {"connectorId": 1, "meterValue": [{"timestamp": iso(start + 1200), "sampledValue": [{"value": "4000"}]}]},  # no transactionId
                {"connectorId": 0, "meterValue": [{"timestamp": iso(start + 1200), "sampledValue": [{"value": "99999"}]}]},  # connector 0
                {"connectorId": 1, "transactionId": 0, "meterValue": [{"timestamp": iso(start + 1300), "sampledValue": [{"value": "1"}]}]},
                {"connectorId": 1, "transactionId": -1, "meterValue": [{"timestamp": iso(start + 1300), "sampledValue": [{"value": "1"}]}]},
            ]
            for i, s in enumerate(shapes):
                a = await raw_call(ws, f"m{i}", "MeterValues", s)
                assert a[0] == 3, (s, a)
            return tx

    tx = run(go())
    order = order_of(api, "DEMO0009", tx)
    curve = api.get(f"/order/detail?id={order['orderNo']}")["data"]["curve"]
    assert [pt["energyWh"] for pt in curve] == [0, 1500, 2200, 3000], curve


def test_9_connector_0_and_a_burst_of_first_statuses(gateway, pile):
    piles = [pile() for _ in range(10)]

    async def one(p):
        async with raw(gateway, p) as ws:
            # A start before any status of its connector is fine.
            s = await raw_call(ws, "s", "StartTransaction", {"connectorId": 2, "idTag": "DEMO0010", "meterStart": 0, "timestamp": iso(time.time())})
            assert s[0] == 3
            for i, c in enumerate([0, 1, 2]):
                await ws.send(json.dumps([2, f"st{i}", "StatusNotification", {"connectorId": c, "status": "Available", "errorCode": "NoError"}]))
            return [json.loads(await ws.recv()) for _ in range(3)]

    async def go():
        return await asyncio.gather(*(one(p) for p in piles))

    for answers in run(go()):
        assert [a[0] for a in answers] == [3, 3, 3]
    assert piles[0].view()["link"]["chargerStatus"] == "Available", "connector 0 is the charger itself"


def test_10_sloppy_types_and_bad_frames(gateway, pile, api):
    p = pile()

    async def go():
        async with raw(gateway, p) as ws:
            r = await raw_call(ws, "1", "Authorize", {"idTag": 12345})
            assert r[0] == 3 and r[2]["idTagInfo"]["status"] == "Invalid", "an idTag sent as a number"
            r = await raw_call(ws, "2", "StatusNotification", {"connectorId": "1", "status": "Available", "errorCode": "NoError", "timestamp": "2026-11-24T10:00:00.123456Z"})
            assert r[0] == 3, "connectorId as a string, fractional seconds"
            r = await raw_call(ws, "3", "StatusNotification", {"connectorId": 1, "status": "SomethingNew", "errorCode": "NoError"})
            assert r[0] == 3, "an unknown enum value is answered"
            await ws.send("")
            r = json.loads(await ws.recv())
            assert r[0] == 4 and r[2] == "FormationViolation", "an empty frame"
        async with raw(gateway, p) as ws:
            await ws.send(json.dumps([2, "big", "DataTransfer", {"vendorId": "x", "data": "a" * (130 * 1024)}]))
            with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd.code == 1009
        # The server still serves chargers afterwards.
        async with raw(gateway, p) as ws:
            assert (await raw_call(ws, "4", "Heartbeat", {}))[0] == 3

    run(go())


def test_2b_guessing_a_chargers_password_is_limited_and_the_charger_still_gets_in(gateway, pile):
    """300 wrong handshakes in a burst from 15 addresses (as a reverse
    proxy on this machine forwards them): after the first few are checked,
    the charge point's guessing limit answers 429 with Retry-After, and no
    password is checked. The charger, from the address it connected from
    before, is checked and admitted at once. One address on its own is
    refused after 20 tries, across every charge point id."""
    p = pile()

    async def attempt(auth, address, code=None):
        headers = {"Authorization": auth, "X-Forwarded-For": address}
        try:
            async with websockets.connect(f"{gateway['ws']}/{code or p.code}", subprotocols=["ocpp1.6"], extra_headers=headers):
                return 101, None
        except websockets.exceptions.InvalidStatusCode as e:
            return e.status_code, e.headers.get("Retry-After")

    async def go():
        assert (await attempt(p.basic, "192.0.2.10"))[0] == 101, "the charger at its usual address"
        wrong = "Basic " + base64.b64encode(f"{p.code}:Wrong-Password-0000".encode()).decode()
        started = time.time()
        results = []
        for batch in range(15):
            results += await asyncio.gather(*(attempt(wrong, f"198.51.100.{batch}") for _ in range(20)))
        elapsed = time.time() - started
        statuses = [s for s, _ in results]
        assert statuses.count(429) >= 280 and statuses.count(401) <= 20, (statuses.count(401), statuses.count(429), elapsed)
        assert all(r and int(r) >= 1 for s, r in results if s == 429), "every 429 says when to try again"
        assert (await attempt(p.basic, "192.0.2.10"))[0] == 101, "the charger at its known address still gets in"
        # One address, many charge point ids: refused after 20.
        other = [await attempt(wrong, "203.0.113.77", code=f"NOSUCH{i}") for i in range(21)]
        assert [s for s, _ in other] == [404] * 20 + [429] and int(other[-1][1]) > 500, other
        return elapsed

    elapsed = run(go())
    print(f"300 wrong handshakes answered in {elapsed:.2f} s")


def test_11_fields_past_the_schemas_limits_are_refused_naming_the_field_and_nothing_is_stored(gateway, pile, api):
    p = pile()

    async def go():
        async with raw(gateway, p) as ws:
            big = await raw_call(ws, "b1", "BootNotification", {"chargePointVendor": "V" * 100_000, "chargePointModel": "DC60"})
            assert big[:3] == [4, "b1", "TypeConstraintViolation"] and "chargePointVendor" in big[3], big[:4]
            for field, n in [("chargePointModel", 21), ("chargePointSerialNumber", 26), ("firmwareVersion", 51), ("iccid", 21), ("meterType", 26)]:
                r = await raw_call(ws, f"b-{field}", "BootNotification", {"chargePointVendor": "ACME", "chargePointModel": "DC60", field: "x" * n})
                assert r[2] == "TypeConstraintViolation" and field in r[3], r
            ok = await raw_call(ws, "b2", "BootNotification", {"chargePointVendor": "V" * 20, "chargePointModel": "M" * 20, "firmwareVersion": "F" * 50})
            assert ok[0] == 3, "at the limits: accepted"
            r = await raw_call(ws, "a1", "Authorize", {"idTag": "T" * 21})
            assert r[2] == "TypeConstraintViolation" and "idTag" in r[3], r
            start = {"connectorId": 1, "idTag": "T" * 21, "meterStart": 0, "timestamp": iso(time.time())}
            r = await raw_call(ws, "s1", "StartTransaction", start)
            assert r[2] == "TypeConstraintViolation" and "idTag" in r[3], r
            # A connector this pile does not have (it has two).
            r = await raw_call(ws, "s2", "StartTransaction", {**start, "idTag": "DEMO0005", "connectorId": 3})
            assert r[2] == "PropertyConstraintViolation" and "connectorId 3" in r[3] and "1-2" in r[3], r
            r = await raw_call(ws, "st1", "StatusNotification", {"connectorId": 1, "status": "S" * 100, "errorCode": "NoError"})
            assert r[2] == "PropertyConstraintViolation" and "status" in r[3], r
            r = await raw_call(ws, "st2", "StatusNotification", {"connectorId": 1, "status": "Available", "errorCode": "NoError", "info": "i" * 51})
            assert r[2] == "TypeConstraintViolation" and "info" in r[3], r
            r = await raw_call(ws, "d1", "DataTransfer", {"vendorId": "v" * 256})
            assert r[2] == "TypeConstraintViolation" and "vendorId" in r[3], r
            r = await raw_call(ws, "f1", "FirmwareStatusNotification", {"status": "F" * 5000})
            assert r[2] == "PropertyConstraintViolation", r
            # A StopTransaction is still confirmed: a too-long idTag is no card.
            r = await raw_call(ws, "x1", "StopTransaction", {"transactionId": 424242, "meterStop": 10, "timestamp": iso(time.time()), "idTag": "T" * 21, "reason": "R" * 5000})
            assert r[0] == 3 and r[2] == {"idTagInfo": {"status": "Invalid"}}, r

    run(go())
    view = p.view()
    link = view["link"]
    assert (link["boot"]["vendor"], link["boot"]["model"], link["firmwareStatus"]) == ("V" * 20, "M" * 20, None), link
    assert len(json.dumps(view)) < 4000, "the pile's row stays small"
    orders = api.get("/order/getList?userId=DEMO0005&pageSize=100")["data"]["list"]
    assert not any(o["pileId"] == p.id for o in orders), "no order on a connector the pile does not have"
