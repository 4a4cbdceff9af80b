"""Boot, heartbeat, status, authorization, whole sessions priced by the
time-of-use tariff, a power failure with a session open, 50 chargers at
once, the message log."""
import asyncio
import time

from ocpp.v16 import call
from ocpp.v16.enums import RegistrationStatus

from conftest import Connection, iso


def run(coro):
    return asyncio.run(coro)


def test_boot_heartbeat_and_status_show_on_the_pile(gateway, pile):
    p = pile()

    async def go():
        async with Connection(gateway["ws"], p) as cp:
            boot = await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60", charge_point_serial_number="SN-1", firmware_version="4.2.1"))
            assert boot.status == RegistrationStatus.accepted and boot.interval == 60
            beat = await cp.call(call.Heartbeat())
            assert beat.current_time
            await cp.call(call.StatusNotification(connector_id=0, error_code="NoError", status="Available", timestamp=iso(time.time())))
            await cp.call(call.StatusNotification(connector_id=1, error_code="NoError", status="Preparing", timestamp=iso(time.time())))
            view = p.view()
            assert view["online"] and view["link"]["connected"] and view["link"]["protocol"] == "ocpp1.6"
            assert view["link"]["boot"]["vendor"] == "ACME" and view["link"]["boot"]["firmwareVersion"] == "4.2.1"
            assert view["link"]["chargerStatus"] == "Available"
            c1 = next(c for c in p.api.get(f"/station/getDetail?id={p.station_id}")["data"]["piles"] if c["id"] == p.id)["connectors"][0]
            assert c1["status"] == "preparing"
            history = p.api.get(f"/connector/getHistory?id={c1['id']}")["data"]["list"]
            assert history[0]["to"] == "preparing" and history[0]["event"] == "charger"
        # The socket closed: the pile shows disconnected.
        assert not p.view()["link"]["connected"]

    run(go())


def test_a_pile_held_back_by_an_operator_boots_pending(gateway, pile):
    p = pile(registrationStatus="Pending")

    async def go():
        async with Connection(gateway["ws"], p) as cp:
            boot = await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="AC7"))
            assert boot.status == RegistrationStatus.pending

    run(go())


def test_authorize_answers_from_the_charging_cards(gateway, pile):
    p = pile()

    async def go():
        async with Connection(gateway["ws"], p) as cp:
            for tag, status in [("DEMO0001", "Accepted"), ("demo0002", "Accepted"), ("BLOCKED01", "Blocked"), ("EXPIRED01", "Expired"), ("NOSUCHCARD", "Invalid")]:
                r = await cp.call(call.Authorize(id_tag=tag))
                assert r.id_tag_info["status"] == status, tag

    run(go())


def half_up(num, den):
    return (num + den // 2) // den


def one_tier_window(tariff, days_ago=2):
    """A 40-minute window inside one tier segment, `days_ago` China days back."""
    seg = max(tariff["segments"], key=lambda s: int(s["end"][:2]) * 60 + int(s["end"][3:]) - int(s["start"][:2]) * 60 - int(s["start"][3:]))
    start_min = int(seg["start"][:2]) * 60 + int(seg["start"][3:]) + 10
    china_midnight = (int(time.time() + 8 * 3600) // 86400 - days_ago) * 86400 - 8 * 3600
    start = china_midnight + start_min * 60
    return start, start + 40 * 60, seg["tier"]


def tariff_of_station(api, station_id):
    detail = api.get(f"/station/getDetail?id={station_id}")["data"]
    return detail["tariff"]["template"]


def test_a_whole_session_is_an_order_priced_by_its_tier(gateway, pile, api):
    p = pile()
    tariff = tariff_of_station(api, p.station_id)
    start, stop, tier = one_tier_window(tariff)

    async def go():
        async with Connection(gateway["ws"], p) as cp:
            await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60"))
            assert (await cp.call(call.Authorize(id_tag="DEMO0003"))).id_tag_info["status"] == "Accepted"
            started = await cp.call(call.StartTransaction(connector_id=1, id_tag="DEMO0003", meter_start=250_000, timestamp=iso(start)))
            tx = started.transaction_id
            for i, wh in enumerate([255_000, 261_000, 266_500], start=1):
                await cp.call(call.MeterValues(connector_id=1, transaction_id=tx, meter_value=[{"timestamp": iso(start + i * 600), "sampledValue": [
                    {"value": str(wh), "context": "Sample.Periodic", "measurand": "Energy.Active.Import.Register", "unit": "Wh"},
                    {"value": "33.0", "measurand": "Power.Active.Import", "unit": "kW"}]}]))
            # The running order shows its energy so far.
            running = api.get("/order/getList?userId=DEMO0003&status=charging&pageSize=50")["data"]["list"]
            mine = next(o for o in running if o["transactionId"] == tx)
            assert mine["energyWh"] == 16_500
            stopped = await cp.call(call.StopTransaction(transaction_id=tx, meter_stop=271_000, timestamp=iso(stop), reason="Local", id_tag="DEMO0003"))
            assert stopped.id_tag_info["status"] == "Accepted"
            return tx

    tx = run(go())
    orders = api.get("/order/getList?userId=DEMO0003&pageSize=50")["data"]["list"]
    order = next(o for o in orders if o["transactionId"] == tx)
    detail = api.get(f"/order/detail?id={order['orderNo']}")["data"]
    price = tariff["prices"][tier]
    energy = 21_000
    amount = half_up(energy * (price["electricity"] + price["service"]), 100_000)
    electricity = half_up(energy * price["electricity"], 100_000)
    assert (detail["status"], detail["energyWh"], detail["amountFen"], detail["electricityFen"]) == ("finished", energy, amount, electricity)
    assert [line["tier"] for line in detail["lines"]] == [tier]
    assert len(detail["curve"]) == 3 and detail["startTs"] == start and detail["stopTs"] == stop
    assert detail["anomalies"] == []


def test_a_session_across_tiers_splits_into_lines_that_add_up(gateway, pile, api):
    p = pile()

    async def go():
        async with Connection(gateway["ws"], p) as cp:
            start = int(time.time()) - 26 * 3600
            tx = (await cp.call(call.StartTransaction(connector_id=2, id_tag="DEMO0004", meter_start=0, timestamp=iso(start)))).transaction_id
            for h in range(1, 24):
                await cp.call(call.MeterValues(connector_id=2, transaction_id=tx, meter_value=[{"timestamp": iso(start + h * 3600), "sampledValue": [{"value": str(h * 7000)}]}]))
            await cp.call(call.StopTransaction(transaction_id=tx, meter_stop=168_500, timestamp=iso(start + 24 * 3600 - 60)))
            return tx

    tx = run(go())
    order = next(o for o in api.get("/order/getList?userId=DEMO0004&pageSize=50")["data"]["list"] if o["transactionId"] == tx)
    detail = api.get(f"/order/detail?id={order['orderNo']}")["data"]
    assert len(detail["lines"]) >= 2
    assert sum(line["energyWh"] for line in detail["lines"]) == detail["energyWh"] == 168_500
    assert sum(line["electricityFen"] for line in detail["lines"]) == detail["electricityFen"]
    assert sum(line["serviceFen"] for line in detail["lines"]) == detail["serviceFen"]
    assert detail["amountFen"] == detail["electricityFen"] + detail["serviceFen"] + detail["parkingFen"] - detail["discountFen"]


def test_power_failure_reboot_sends_the_stop_after_reboot(gateway, pile, api):
    """OCA TC_032-like: the charger loses power during a session, reboots,
    and sends the StopTransaction (PowerLoss) of the old transaction."""
    p = pile()
    start = int(time.time()) - 3600

    async def session():
        async with Connection(gateway["ws"], p) as cp:
            await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60"))
            tx = (await cp.call(call.StartTransaction(connector_id=1, id_tag="DEMO0005", meter_start=1000, timestamp=iso(start)))).transaction_id
            await cp.call(call.MeterValues(connector_id=1, transaction_id=tx, meter_value=[{"timestamp": iso(start + 900), "sampledValue": [{"value": "6000"}]}]))
            return tx
        # power lost: the socket dies with the session open

    tx = run(session())

    async def after_reboot():
        async with Connection(gateway["ws"], p) as cp:
            boot = await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60"))
            assert boot.status == "Accepted"
            await cp.call(call.StatusNotification(connector_id=1, error_code="NoError", status="Finishing", timestamp=iso(time.time())))
            await cp.call(call.StopTransaction(transaction_id=tx, meter_stop=9000, timestamp=iso(start + 1500), reason="PowerLoss"))

    run(after_reboot())
    order = next(o for o in api.get("/order/getList?userId=DEMO0005&pageSize=50")["data"]["list"] if o["transactionId"] == tx)
    assert order["status"] == "abnormal" and order["stopReason"] == "powerLoss"
    assert order["energyWh"] == 8000 and order["amountFen"] > 0, order


def test_fifty_chargers_connecting_at_once_are_each_answered(gateway, pile):
    piles = [pile() for _ in range(50)]

    async def one(p):
        async with Connection(gateway["ws"], p) as cp:
            boot = await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="AC7"))
            status = await cp.call(call.StatusNotification(connector_id=1, error_code="NoError", status="Available", timestamp=iso(time.time())))
            return boot.status, status

    async def go():
        return await asyncio.gather(*(one(p) for p in piles))

    results = run(go())
    assert [r[0] for r in results] == ["Accepted"] * 50


def test_the_message_log_shows_the_exchanges(gateway, pile, api):
    p = pile()

    async def go():
        async with Connection(gateway["ws"], p) as cp:
            await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="AC7"))
            await cp.call(call.Authorize(id_tag="NOSUCHCARD"))

    run(go())
    log = api.get(f"/pile/messageLog?pileId={p.id}")["data"]["list"]
    actions = [e["action"] for e in log]
    assert actions[:2] == ["Authorize", "BootNotification"], actions
    assert log[0]["direction"] == "in" and log[0]["response"]["idTagInfo"]["status"] == "Invalid"
    only = api.get(f"/pile/messageLog?pileId={p.id}&action=BootNotification")["data"]["list"]
    assert [e["action"] for e in only] == ["BootNotification"]
    # Admin and Editor read it (a read-only role does not: the permission matrix checks that).
    editor = api.login("editor", "editor-pass-123")
    assert api.get(f"/pile/messageLog?pileId={p.id}", token=editor)["code"] == 200
