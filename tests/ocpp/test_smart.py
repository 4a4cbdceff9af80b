"""Smart charging (the 1.6 Smart Charging profile) against a charger scripted
with the ocpp package. The package checks every incoming call against the
1.6 JSON schema before its handler runs (a payload off the schema is answered
with a CALLERROR), so each `answered` below is also a schema check of what
the back office sent."""
import asyncio
import time
import uuid

from ocpp.routing import on
from ocpp.v16 import call, call_result

from conftest import Charger, Connection, iso, make_pile, operating_station
from test_remote import post, settle


class SmartCharger(Charger):
    """Holds at most stack level 10 (its ChargeProfileMaxStackLevel) and no
    weekly recurrence; records each profile it is sent."""

    @on("SetChargingProfile")
    async def on_set_charging_profile(self, connector_id, cs_charging_profiles, **kw):
        self.profiles = getattr(self, "profiles", []) + [(connector_id, cs_charging_profiles)]
        if cs_charging_profiles["stack_level"] > 10:
            return call_result.SetChargingProfile(status="Rejected")
        if cs_charging_profiles.get("recurrency_kind") == "Weekly":
            return call_result.SetChargingProfile(status="NotSupported")
        return call_result.SetChargingProfile(status="Accepted")


def test_each_kind_of_profile_reaches_the_charger_within_the_schema(gateway, pile, api):
    p = pile()

    async def go():
        async with Connection(gateway["ws"], p, cls=SmartCharger) as cp:
            await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="AC22"))
            now = int(time.time())

            async def send(body):
                r = await post(api, "/charger/setChargingProfile", {"pileId": p.id, **body})
                assert r["code"] == 200, r
                done = await settle(api, r["data"]["id"])
                assert done["status"] == "answered", done
                return done["response"]["status"], cp.profiles[-1]

            status, (n, prof) = await send({"connectorId": 1, "purpose": "TxDefaultProfile", "chargingProfileId": 11, "stackLevel": 2,
                                            "validFrom": now, "validTo": now + 86400, "duration": 7200, "minChargingRate": 6.1, "unit": "A",
                                            "periods": [{"startPeriod": 0, "limit": 16, "numberPhases": 3}, {"startPeriod": 3600, "limit": 7.3, "numberPhases": 1}]})
            sched = prof["charging_schedule"]
            assert (status, n, prof["charging_profile_id"], prof["stack_level"], prof["charging_profile_kind"]) == ("Accepted", 1, 11, 2, "Absolute")
            assert (prof["valid_from"], prof["valid_to"], sched["duration"], sched["charging_rate_unit"]) == (iso(now), iso(now + 86400), 7200, "A")
            assert [(float(x["limit"]), x["number_phases"]) for x in sched["charging_schedule_period"]] == [(16, 3), (7.3, 1)]
            assert float(sched["min_charging_rate"]) == 6.1

            status, (_, prof) = await send({"connectorId": 0, "purpose": "TxDefaultProfile", "chargingProfileId": 12, "kind": "Recurring", "recurrencyKind": "Daily",
                                            "startSchedule": now - 3600, "duration": 86400, "periods": [{"startPeriod": 0, "limit": 11000}, {"startPeriod": 28800, "limit": 22000}]})
            assert (status, prof["recurrency_kind"], prof["charging_schedule"]["start_schedule"]) == ("Accepted", "Daily", iso(now - 3600))

            status, _ = await send({"connectorId": 0, "purpose": "ChargePointMaxProfile", "chargingProfileId": 13, "kind": "Recurring", "recurrencyKind": "Weekly",
                                    "periods": [{"startPeriod": 0, "limit": 30000}]})
            assert status == "NotSupported"
            status, _ = await send({"connectorId": 0, "purpose": "ChargePointMaxProfile", "stackLevel": 50, "periods": [{"startPeriod": 0, "limit": 30000}]})
            assert status == "Rejected"

            # A TxProfile: refused until a session runs on the connector, then it names the session.
            before = len(cp.profiles)
            none = await post(api, "/charger/setChargingProfile", {"pileId": p.id, "connectorId": 2, "purpose": "TxProfile", "periods": [{"startPeriod": 0, "limit": 7400}]})
            assert none["code"] == 400 and "connectorId" in none["msg"], none
            tx = (await cp.call(call.StartTransaction(connector_id=2, id_tag="DEMO0011", meter_start=0, timestamp=iso(now)))).transaction_id
            other = await post(api, "/charger/setChargingProfile", {"pileId": p.id, "connectorId": 1, "purpose": "TxProfile", "transactionId": tx, "periods": [{"startPeriod": 0, "limit": 7400}]})
            assert other["code"] == 400 and "transactionId" in other["msg"], other
            assert len(cp.profiles) == before, "nothing sent for a refusal"
            status, (n, prof) = await send({"connectorId": 2, "purpose": "TxProfile", "kind": "Relative", "chargingProfileId": 14, "stackLevel": 1,
                                            "periods": [{"startPeriod": 0, "limit": 7400}]})
            assert (status, n, prof["transaction_id"], prof["charging_profile_purpose"]) == ("Accepted", 2, tx, "TxProfile")
            assert "start_schedule" not in prof["charging_schedule"]
            status, (_, prof) = await send({"connectorId": 2, "purpose": "TxProfile", "transactionId": tx, "chargingProfileId": 15, "periods": [{"startPeriod": 0, "limit": 3700}]})
            assert (status, prof["transaction_id"]) == ("Accepted", tx)

    asyncio.run(go())


class ClearingCharger(Charger):
    """Records each ClearChargingProfile; knows no profile with id 404."""

    @on("ClearChargingProfile")
    async def on_clear_charging_profile(self, **kw):
        self.cleared = getattr(self, "cleared", []) + [kw]
        return call_result.ClearChargingProfile(status="Unknown" if kw.get("id") == 404 else "Accepted")


def test_profiles_are_cleared_by_id_connector_purpose_and_stack_level(gateway, pile, api):
    p = pile()

    async def go():
        async with Connection(gateway["ws"], p, cls=ClearingCharger) as cp:
            await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="AC22"))
            for body, sent, answer in [
                ({}, {}, "Accepted"),
                ({"id": 11}, {"id": 11}, "Accepted"),
                ({"id": 404}, {"id": 404}, "Unknown"),
                ({"connectorId": 1}, {"connector_id": 1}, "Accepted"),
                ({"purpose": "TxProfile"}, {"charging_profile_purpose": "TxProfile"}, "Accepted"),
                ({"stackLevel": 3}, {"stack_level": 3}, "Accepted"),
                ({"connectorId": 0, "purpose": "ChargePointMaxProfile", "stackLevel": 0},
                 {"connector_id": 0, "charging_profile_purpose": "ChargePointMaxProfile", "stack_level": 0}, "Accepted"),
            ]:
                r = await post(api, "/charger/clearChargingProfile", {"pileId": p.id, **body})
                assert r["code"] == 200, r
                done = await settle(api, r["data"]["id"])
                assert (done["status"], done["response"]) == ("answered", {"status": answer}), (body, done)
                assert cp.cleared[-1] == sent, (body, cp.cleared[-1])
            before = len(cp.cleared)
            for body, field in [({"id": 0}, "id"), ({"stackLevel": 100}, "stackLevel"), ({"connectorId": 3}, "connectorId"), ({"purpose": "Nope"}, "purpose")]:
                r = await post(api, "/charger/clearChargingProfile", {"pileId": p.id, **body})
                assert r["code"] == 400 and field in r["msg"], (body, r)
            assert len(cp.cleared) == before, "nothing sent for a refusal"

    asyncio.run(go())


class ChoosingCharger(Charger):
    """Starts on its first free connector when the server names none, and
    records the profile that came with the start."""

    @on("RemoteStartTransaction")
    async def on_remote_start(self, id_tag, **kw):
        self.remote_started = (kw.get("connector_id"), id_tag)
        self.start_profile = kw.get("charging_profile")
        return call_result.RemoteStartTransaction(status="Accepted")


def test_a_remote_start_leaves_the_connector_to_the_charger_with_a_tx_profile(gateway, pile, api):
    p = pile()

    async def go():
        async with Connection(gateway["ws"], p, cls=ChoosingCharger) as cp:
            await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="AC22"))
            r = await post(api, "/charger/remoteStart", {"pileId": p.id, "idTag": "DEMO0011",
                                                         "chargingProfile": {"chargingProfileId": 21, "stackLevel": 1, "unit": "A",
                                                                             "periods": [{"startPeriod": 0, "limit": 16, "numberPhases": 3}, {"startPeriod": 1800, "limit": 10.5}]}})
            assert r["code"] == 200, r
            done = await settle(api, r["data"]["id"])
            assert (done["status"], done["response"]) == ("answered", {"status": "Accepted"}), done
            assert cp.remote_started == (None, "DEMO0011") and "connectorId" not in done["payload"]
            prof = cp.start_profile
            assert (prof["charging_profile_id"], prof["stack_level"], prof["charging_profile_purpose"], prof["charging_profile_kind"]) == (21, 1, "TxProfile", "Relative")
            assert [float(x["limit"]) for x in prof["charging_schedule"]["charging_schedule_period"]] == [16.0, 10.5]
            # The charger chose connector 2: the session is the card's as usual.
            tx = (await cp.call(call.StartTransaction(connector_id=2, id_tag="DEMO0011", meter_start=0, timestamp=iso(time.time())))).transaction_id
            assert tx > 0
            bad = await post(api, "/charger/remoteStart", {"pileId": p.id, "idTag": "DEMO0011", "limitW": 7000, "chargingProfile": {"periods": [{"startPeriod": 0, "limit": 1}]}})
            assert bad["code"] == 400 and "chargingProfile" in bad["msg"], bad
            # A field of the profile is named by its path in the body, for the form to mark it.
            nested = await post(api, "/charger/remoteStart", {"pileId": p.id, "idTag": "DEMO0011", "connectorId": 1,
                                                              "chargingProfile": {"stackLevel": 100, "periods": [{"startPeriod": 0, "limit": 16}]}})
            assert nested["code"] == 400 and nested["data"]["field"] == "chargingProfile.stackLevel", nested
            assert nested["msg"].startswith("chargingProfile.stackLevel: "), nested
            assert [(f["field"], f["key"]) for f in nested["data"]["fields"]] == [("chargingProfile.stackLevel", "chargers.command.range")], nested

    asyncio.run(go())


class BudgetCharger(Charger):
    """Records every SetChargingProfile and ClearChargingProfile, in order."""

    @on("SetChargingProfile")
    async def on_set_charging_profile(self, connector_id, cs_charging_profiles, **kw):
        self.calls = getattr(self, "calls", []) + [("set", connector_id, cs_charging_profiles)]
        return call_result.SetChargingProfile(status="Accepted")

    @on("ClearChargingProfile")
    async def on_clear_charging_profile(self, **kw):
        self.calls = getattr(self, "calls", []) + [("clear", kw)]
        return call_result.ClearChargingProfile(status="Accepted")


async def until(what, check, timeout=10):
    """Waits until `check()` is truthy (the server's calls reach the chargers on their own time)."""
    deadline = time.time() + timeout
    while not check():
        assert time.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


def test_a_station_power_budget_is_shared_among_its_connected_piles(gateway, api):
    # A station of its own: every other test's piles live on the demo station.
    demo = operating_station(api)
    added = api.post("/station/doAdd", {
        "code": "PB" + uuid.uuid4().hex[:8].upper(), "name": "功率预算测试站", "operator": "测试运营商",
        "provinceCode": "450000", "cityCode": "450100", "districtCode": "450102", "address": "南宁市兴宁区民族大道1号",
        "lat": 22.817, "lng": 108.366, "openingHours": "00:00-24:00", "status": "operating",
        "servicePhone": "0771-12345678", "parkingInfo": "", "tariffId": demo["tariffId"]})
    assert added["code"] == 200, added
    station = added["data"]["id"]
    big = make_pile(api, stationId=station)
    small = make_pile(api, stationId=station, pileType="ac", ratedPowerKw=22,
                      connectors=[{"standard": "type2", "maxPowerKw": 22}, {"standard": "type2", "maxPowerKw": 22}])

    def limit(c):
        assert c[0] == "set" and c[1] == 0, c
        prof = c[2]
        assert (prof["charging_profile_id"], prof["stack_level"], prof["charging_profile_purpose"]) == (9000, 1, "ChargePointMaxProfile"), prof
        assert prof["charging_schedule"]["charging_rate_unit"] == "W"
        return float(prof["charging_schedule"]["charging_schedule_period"][0]["limit"])

    async def view():
        return (await asyncio.get_running_loop().run_in_executor(None, lambda: api.get(f"/station/powerBudget?id={station}")))["data"]

    async def settled():
        deadline = time.time() + 10
        while True:
            v = await view()
            if all(r["state"] != "pending" for r in v["piles"]) or time.time() > deadline:
                return v

    async def go():
        async with Connection(gateway["ws"], big, cls=BudgetCharger) as a:
            await a.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60"))
            assert not getattr(a, "calls", []), "no budget: nothing sent"
            refused = await post(api, "/station/setPowerBudget", {"stationId": station, "version": 0, "maxPowerKw": 50.25})
            assert refused["code"] == 400 and "maxPowerKw" in refused["msg"], refused
            r = await post(api, "/station/setPowerBudget", {"stationId": station, "version": 0, "maxPowerKw": 50})
            assert r["code"] == 200, r
            # Alone, the 60 kW pile gets all 50 kW.
            await until("A's first share", lambda: len(getattr(a, "calls", [])) == 1)
            assert limit(a.calls[0]) == 50000.0

            async with Connection(gateway["ws"], small, cls=BudgetCharger) as b:
                await b.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="AC22"))
                # B booted: it takes its 22 kW rating, the 60 kW pile the other 28.
                await until("the shares after B's boot", lambda: len(getattr(b, "calls", [])) == 1 and len(a.calls) == 2)
                assert (limit(a.calls[1]), limit(b.calls[0])) == (28000.0, 22000.0)
                v = await settled()
                assert {r["code"]: (r["limitW"], r["state"]) for r in v["piles"]} == {big.code: (28000.0, "done"), small.code: (22000.0, "done")}, v

                r = await post(api, "/station/setPowerBudget", {"stationId": station, "version": v["version"], "maxPowerKw": 30})
                assert r["code"] == 200, r
                await until("the shares of 30 kW", lambda: len(a.calls) == 3 and len(b.calls) == 2)
                assert (limit(a.calls[2]), limit(b.calls[1])) == (15000.0, 15000.0)
                v = await settled()

                r = await post(api, "/station/setPowerBudget", {"stationId": station, "version": v["version"], "maxPowerKw": None})
                assert r["code"] == 200, r
                await until("the clears", lambda: len(a.calls) == 4 and len(b.calls) == 3)
                assert a.calls[3] == ("clear", {"id": 9000}) and b.calls[2] == ("clear", {"id": 9000}), (a.calls[3], b.calls[2])
                v = await settled()
                assert v["maxPowerKw"] is None and all((r["limitW"], r["state"]) == (None, "done") for r in v["piles"]), v

    asyncio.run(go())
