"""Remote operations against a charger scripted with the ocpp package:
accepted, rejected, CALLERROR, offline, the effects that follow (a remote
start leads to the charger's StartTransaction and an order, a remote stop
ends and prices it), who may do what, and bad input refused."""
import asyncio
import time

from ocpp.v16 import call

from conftest import Connection, iso


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
