"""OCPP 2.0.1 charging stations scripted with the PyPI `ocpp` package
(`ocpp.v201`, an independent implementation of the station side) against
the real gateway: the handshake per pile, provisioning (B), authorization
(C), transactions priced to the fen (E, J) with repeated and re-sent
events charged once, remote control and availability (F, G), and a mixed
fleet at one station."""
import asyncio
import base64
import json
import time
import uuid

import pytest
import websockets
from ocpp.exceptions import PropertyConstraintViolationError
from ocpp.routing import on
from ocpp.v201 import ChargePoint, call, call_result

from conftest import Connection, iso, make_pile
from test_core import half_up, one_tier_window, tariff_of_station
from test_remote import post, settle

import ocpp.v16.call as call16


def run(coro):
    return asyncio.run(coro)


class Station(ChargePoint):
    """A 2.0.1 station that answers the CSMS's calls as a real one would."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.got = []

    def last(self, action):
        """The latest call of `action` the station took (the CSMS may send others meanwhile)."""
        found = [g for g in self.got if g[0] == action]
        assert found, f"no {action} among {self.got}"
        return found[-1]

    @on("RequestStartTransaction")
    async def on_request_start(self, id_token, remote_start_id, **kw):
        self.got.append(("RequestStartTransaction", id_token, remote_start_id, kw.get("evse_id"), kw.get("charging_profile")))
        return call_result.RequestStartTransaction(status="Accepted")

    @on("RequestStopTransaction")
    async def on_request_stop(self, transaction_id, **kw):
        self.got.append(("RequestStopTransaction", transaction_id))
        return call_result.RequestStopTransaction(status="Accepted")

    @on("Reset")
    async def on_reset(self, type, **kw):
        self.got.append(("Reset", type, kw.get("evse_id")))
        return call_result.Reset(status="Accepted")

    @on("CostUpdated")
    async def on_cost_updated(self, total_cost, transaction_id, **kw):
        self.got.append(("CostUpdated", total_cost, transaction_id))
        return call_result.CostUpdated()

    @on("SetNetworkProfile")
    async def on_set_network_profile(self, configuration_slot, connection_data, **kw):
        self.got.append(("SetNetworkProfile", configuration_slot, connection_data))
        return call_result.SetNetworkProfile(status="Accepted")

    @on("UnlockConnector")
    async def on_unlock(self, evse_id, connector_id, **kw):
        self.got.append(("UnlockConnector", evse_id, connector_id))
        return call_result.UnlockConnector(status="Unlocked")

    @on("ChangeAvailability")
    async def on_change_availability(self, operational_status, **kw):
        self.got.append(("ChangeAvailability", operational_status, kw.get("evse")))
        return call_result.ChangeAvailability(status="Accepted")

    @on("TriggerMessage")
    async def on_trigger(self, requested_message, **kw):
        self.got.append(("TriggerMessage", requested_message, kw.get("evse")))
        return call_result.TriggerMessage(status="Accepted")

    @on("ReserveNow")
    async def on_reserve_now(self, id, expiry_date_time, id_token, **kw):
        self.got.append(("ReserveNow", id, id_token, kw.get("evse_id"), kw.get("connector_type")))
        return call_result.ReserveNow(status="Accepted")

    @on("CancelReservation")
    async def on_cancel_reservation(self, reservation_id, **kw):
        self.got.append(("CancelReservation", reservation_id))
        return call_result.CancelReservation(status="Accepted")

    @on("UpdateFirmware")
    async def on_update_firmware(self, request_id, firmware, **kw):
        self.got.append(("UpdateFirmware", request_id, firmware))
        return call_result.UpdateFirmware(status="Accepted")

    @on("GetLog")
    async def on_get_log(self, log, log_type, request_id, **kw):
        self.got.append(("GetLog", request_id, log_type, log["remote_location"]))
        return call_result.GetLog(status="Accepted", filename="log-1.zip")

    @on("SendLocalList")
    async def on_send_local_list(self, version_number, update_type, **kw):
        self.local_list = (version_number, update_type, kw.get("local_authorization_list") or [])
        return call_result.SendLocalList(status="Accepted")

    @on("GetLocalListVersion")
    async def on_get_local_list_version(self, **kw):
        return call_result.GetLocalListVersion(version_number=getattr(self, "local_list", (0,))[0])

    @on("SetChargingProfile")
    async def on_set_charging_profile(self, evse_id, charging_profile, **kw):
        self.got.append(("SetChargingProfile", evse_id, charging_profile))
        return call_result.SetChargingProfile(status="Accepted")

    @on("ClearChargingProfile")
    async def on_clear_charging_profile(self, **kw):
        self.got.append(("ClearChargingProfile", kw))
        return call_result.ClearChargingProfile(status="Accepted")

    @on("GetCompositeSchedule")
    async def on_get_composite_schedule(self, duration, evse_id, **kw):
        self.got.append(("GetCompositeSchedule", evse_id, duration))
        return call_result.GetCompositeSchedule(status="Accepted", schedule={"evse_id": evse_id, "duration": duration, "schedule_start": iso(time.time()), "charging_rate_unit": "W",
                                                                            "charging_schedule_period": [{"start_period": 0, "limit": 11000.0}]})

    @on("SetDisplayMessage")
    async def on_set_display_message(self, message, **kw):
        self.got.append(("SetDisplayMessage", message))
        return call_result.SetDisplayMessage(status="Accepted")

    @on("GetDisplayMessages")
    async def on_get_display_messages(self, request_id, **kw):
        self.got.append(("GetDisplayMessages", request_id, kw.get("id"), kw.get("priority"), kw.get("state")))
        return call_result.GetDisplayMessages(status="Accepted" if kw.get("id") != [999] else "Unknown")

    @on("ClearDisplayMessage")
    async def on_clear_display_message(self, id, **kw):
        self.got.append(("ClearDisplayMessage", id))
        return call_result.ClearDisplayMessage(status="Accepted")

    @on("CertificateSigned")
    async def on_certificate_signed(self, certificate_chain, **kw):
        self.got.append(("CertificateSigned", certificate_chain, kw.get("certificate_type")))
        return call_result.CertificateSigned(status="Accepted")

    # Root certificates held, by serial: (certificateType, PEM).
    roots = None

    @on("InstallCertificate")
    async def on_install_certificate(self, certificate_type, certificate, **kw):
        from test_security import hash_data
        self.roots = self.roots or {}
        self.roots[hash_data(certificate)["serialNumber"]] = (certificate_type, certificate)
        return call_result.InstallCertificate(status="Accepted")

    @on("GetInstalledCertificateIds")
    async def on_get_installed_certificate_ids(self, certificate_type=None, **kw):
        from test_security import hash_data
        self.got.append(("GetInstalledCertificateIds", certificate_type))
        chains = [{"certificate_type": kind, "certificate_hash_data": {k_snake: v for k_snake, v in zip(("hash_algorithm", "issuer_name_hash", "issuer_key_hash", "serial_number"), hash_data(pem).values())}}
                  for kind, pem in (self.roots or {}).values() if certificate_type is None or kind in certificate_type]
        if not chains:
            return call_result.GetInstalledCertificateIds(status="NotFound")
        return call_result.GetInstalledCertificateIds(status="Accepted", certificate_hash_data_chain=chains)

    @on("DeleteCertificate")
    async def on_delete_certificate(self, certificate_hash_data, **kw):
        found = (self.roots or {}).pop(certificate_hash_data["serial_number"], None)
        return call_result.DeleteCertificate(status="Accepted" if found else "NotFound")

    @on("ClearCache")
    async def on_clear_cache(self, **kw):
        return call_result.ClearCache(status="Accepted")

    variables = {("OCPPCommCtrlr", "HeartbeatInterval"): "60", ("DeviceDataCtrlr", "ItemsPerMessage"): "20"}

    @on("GetVariables")
    async def on_get_variables(self, get_variable_data, **kw):
        results = []
        for d in get_variable_data:
            key = (d["component"]["name"], d["variable"]["name"])
            found = key in self.variables
            results.append({"attribute_status": "Accepted" if found else "UnknownVariable", "component": d["component"], "variable": d["variable"],
                            **({"attribute_value": self.variables[key]} if found else {})})
        return call_result.GetVariables(get_variable_result=results)

    @on("SetVariables")
    async def on_set_variables(self, set_variable_data, **kw):
        results = []
        for d in set_variable_data:
            key = (d["component"]["name"], d["variable"]["name"])
            if key == ("SecurityCtrlr", "BasicAuthPassword"):
                self.new_password = d["attribute_value"]
            ok = key in (("OCPPCommCtrlr", "HeartbeatInterval"), ("SecurityCtrlr", "BasicAuthPassword")) and getattr(self, "take_password", True)
            if ok:
                self.variables[key] = d["attribute_value"]
            results.append({"attribute_status": "Accepted" if ok else "Rejected", "component": d["component"], "variable": d["variable"]})
        return call_result.SetVariables(set_variable_result=results)

    @on("GetBaseReport")
    async def on_get_base_report(self, request_id, report_base, **kw):
        self.got.append(("GetBaseReport", request_id, report_base))
        return call_result.GetBaseReport(status="Accepted")

    @on("SetVariableMonitoring")
    async def on_set_variable_monitoring(self, set_monitoring_data, **kw):
        self.got.append(("SetVariableMonitoring", set_monitoring_data))
        known = {"EVSE", "ChargingStation"}
        return call_result.SetVariableMonitoring(set_monitoring_result=[
            {"status": "Accepted" if d["component"]["name"] in known else "UnknownComponent", "type": d["type"], "severity": d["severity"], "component": d["component"], "variable": d["variable"],
             **({"id": 40 + i} if d["component"]["name"] in known else {})} for i, d in enumerate(set_monitoring_data)])

    @on("ClearVariableMonitoring")
    async def on_clear_variable_monitoring(self, id, **kw):
        self.got.append(("ClearVariableMonitoring", id))
        return call_result.ClearVariableMonitoring(clear_monitoring_result=[{"id": i, "status": "Accepted" if i >= 40 else "NotFound"} for i in id])

    @on("GetMonitoringReport")
    async def on_get_monitoring_report(self, request_id, **kw):
        self.got.append(("GetMonitoringReport", request_id, kw.get("monitoring_criteria"), kw.get("component_variable")))
        return call_result.GetMonitoringReport(status="Accepted")

    @on("GetChargingProfiles")
    async def on_get_charging_profiles(self, request_id, charging_profile, **kw):
        self.got.append(("GetChargingProfiles", request_id, kw.get("evse_id"), charging_profile))
        return call_result.GetChargingProfiles(status="Accepted" if charging_profile.get("charging_profile_purpose") != "TxProfile" else "NoProfiles")

    @on("CustomerInformation")
    async def on_customer_information(self, request_id, report, clear, **kw):
        self.got.append(("CustomerInformation", request_id, report, clear, kw.get("id_token"), kw.get("customer_identifier")))
        return call_result.CustomerInformation(status="Accepted")

    @on("PublishFirmware")
    async def on_publish_firmware(self, location, checksum, request_id, **kw):
        self.got.append(("PublishFirmware", location, checksum, request_id, kw.get("retries")))
        return call_result.PublishFirmware(status="Accepted")


def station_pile(api, **extra):
    return make_pile(api, ocppVersion="2.0.1", **extra)


def v201(ws, p, **kw):
    return Connection(ws, p, protocols=("ocpp2.0.1",), cls=Station, **kw)


BOOT = dict(charging_station={"vendor_name": "ACME", "model": "AC22", "serial_number": "SN-201", "firmware_version": "2.0.1-7", "modem": {"iccid": "8986", "imsi": "4600"}}, reason="PowerUp")


def energy(wh, context="Sample.Periodic"):
    return {"value": wh, "context": context, "measurand": "Energy.Active.Import.Register", "unitOfMeasure": {"unit": "Wh"}}


def event(kind, seq, ts, tx, trigger, values=None, **kw):
    return call.TransactionEvent(event_type=kind, timestamp=iso(ts), trigger_reason=trigger, seq_no=seq, transaction_info={"transaction_id": tx, **kw.pop("info", {})},
                                 meter_value=[{"timestamp": iso(ts), "sampled_value": values}] if values else None, **kw)


def test_the_handshake_speaks_the_piles_version_and_provisioning_shows_on_the_pile(gateway, api):
    p = station_pile(api)
    p16 = make_pile(api)

    async def handshake(pile, protocols):
        try:
            async with websockets.connect(f"{gateway['ws']}/{pile.code}", subprotocols=protocols, extra_headers={"Authorization": pile.basic}) as ws:
                return 101, ws.subprotocol
        except websockets.exceptions.InvalidStatusCode as e:
            return e.status_code, None

    async def go():
        # Each pile speaks the version it is registered for, whatever else is offered.
        assert await handshake(p, ["ocpp2.0.1", "ocpp1.6"]) == (101, "ocpp2.0.1")
        assert await handshake(p16, ["ocpp2.0.1", "ocpp1.6"]) == (101, "ocpp1.6")
        assert (await handshake(p, ["ocpp1.6"]))[0] == 400
        async with v201(gateway["ws"], p) as cs:
            boot = await cs.call(call.BootNotification(**BOOT))
            assert boot.status == "Accepted" and boot.interval == 60 and boot.current_time
            assert (await cs.call(call.Heartbeat())).current_time
            await cs.call(call.StatusNotification(timestamp=iso(time.time()), connector_status="Occupied", evse_id=1, connector_id=1))
            await cs.call(call.StatusNotification(timestamp=iso(time.time()), connector_status="Faulted", evse_id=2, connector_id=1))
            view = p.view()
            assert view["ocppVersion"] == "2.0.1" and view["link"]["protocol"] == "ocpp2.0.1" and view["link"]["connected"]
            boot_info = view["link"]["boot"]
            assert (boot_info["vendor"], boot_info["model"], boot_info["serialNumber"], boot_info["firmwareVersion"], boot_info["iccid"], boot_info["reason"]) == ("ACME", "AC22", "SN-201", "2.0.1-7", "8986", "PowerUp")
            connectors = next(x for x in api.get(f"/station/getDetail?id={p.station_id}")["data"]["piles"] if x["id"] == p.id)["connectors"]
            assert [c["status"] for c in connectors] == ["preparing", "faulted"]
            # An EVSE the pile does not have is refused, naming it.
            with pytest.raises(PropertyConstraintViolationError, match="evseId 3"):
                await cs.call(call.StatusNotification(timestamp=iso(time.time()), connector_status="Available", evse_id=3, connector_id=1), suppress=False)

    run(go())


def test_authorize_answers_every_id_token_type_from_the_cards(gateway, api):
    p = station_pile(api)

    async def go():
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            for token, kind, status in [("DEMO0001", "ISO14443", "Accepted"), ("demo0002", "Central", "Accepted"), ("BLOCKED01", "ISO15693", "Blocked"),
                                        ("EXPIRED01", "KeyCode", "Expired"), ("NOSUCHCARD", "eMAID", "Invalid"), ("DEMO0001", "MacAddress", "Accepted")]:
                r = await cs.call(call.Authorize(id_token={"id_token": token, "type": kind}))
                assert r.id_token_info["status"] == status, (token, r)

    run(go())


def test_a_transaction_is_an_order_priced_to_the_fen_and_repeated_events_charge_once(gateway, api):
    p = station_pile(api)
    tariff = tariff_of_station(api, p.station_id)
    start, stop, tier = one_tier_window(tariff, days_ago=3)

    async def go():
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            # The cable first: no idToken yet, so no order yet.
            first = await cs.call(event("Started", 0, start, "TX-A1", "CablePluggedIn", [energy(100_000, "Transaction.Begin")], evse={"id": 1, "connector_id": 1}))
            assert first.id_token_info is None
            assert not [o for o in api.get("/order/getList?userId=DEMO0004&status=charging&pageSize=50")["data"]["list"] if o["pileId"] == p.id]
            auth = await cs.call(event("Updated", 1, start + 5, "TX-A1", "Authorized", id_token={"id_token": "DEMO0004", "type": "ISO14443"}, info={"charging_state": "Charging"}))
            assert auth.id_token_info["status"] == "Accepted"
            for i, wh in enumerate([105_000, 111_000, 116_500], start=1):
                await cs.call(event("Updated", 1 + i, start + i * 600, "TX-A1", "MeterValuePeriodic", [energy(wh)]))
            # The running cost followed the first new readings (before their answer), not the next
            # ones: at most once a minute. The tariff's price of 5 kWh so far, in yuan.
            costs = [g for g in cs.got if g[0] == "CostUpdated"]
            price = tariff["prices"][tier]
            assert costs == [("CostUpdated", half_up(5_000 * (price["electricity"] + price["service"]), 100_000) / 100, "TX-A1")], cs.got
            commands = api.get(f"/charger/commands?pileId={p.id}&pageSize=50")["data"]["list"]
            told = await settle(api, next(c["id"] for c in commands if c["action"] == "CostUpdated"))
            assert (told["status"], told["requestedBy"], told["response"]) == ("answered", "CostUpdated", {}), told
            # Sent again (its answer was lost): the same reading changes nothing.
            await cs.call(event("Updated", 3, start + 1200, "TX-A1", "MeterValuePeriodic", [energy(111_000)]))
            running = [o for o in api.get("/order/getList?userId=DEMO0004&status=charging&pageSize=50")["data"]["list"] if o["pileId"] == p.id]
            assert len(running) == 1 and running[0]["energyWh"] == 16_500, running
            # "Occupied" says only that the connector is in use: the transaction's Charging stands.
            await cs.call(call.StatusNotification(timestamp=iso(start + 1300), connector_status="Occupied", evse_id=1, connector_id=1))
            connectors = next(x for x in api.get(f"/station/getDetail?id={p.station_id}")["data"]["piles"] if x["id"] == p.id)["connectors"]
            assert connectors[0]["status"] == "charging", connectors
            ended = await cs.call(event("Ended", 5, stop, "TX-A1", "EVCommunicationLost", [energy(121_000, "Transaction.End")], info={"stopped_reason": "EVDisconnected"}))
            # Ended again (offline queue re-sent): no second charge.
            again = await cs.call(event("Ended", 5, stop, "TX-A1", "EVCommunicationLost", [energy(121_000, "Transaction.End")], info={"stopped_reason": "EVDisconnected"}))
            return ended, again

    ended, again = run(go())
    orders = [o for o in api.get("/order/getList?userId=DEMO0004&pageSize=50")["data"]["list"] if o["pileId"] == p.id]
    assert len(orders) == 1, orders
    detail = api.get(f"/order/detail?id={orders[0]['orderNo']}")["data"]
    price = tariff["prices"][tier]
    wh = 21_000
    amount = half_up(wh * (price["electricity"] + price["service"]), 100_000)
    assert (detail["status"], detail["energyWh"], detail["amountFen"]) == ("finished", wh, amount), detail
    assert detail["startTs"] == start and detail["stopTs"] == stop and len(detail["curve"]) == 4
    assert ended.total_cost == amount / 100
    assert again.total_cost is None, "a repeated end closes nothing"


def test_remote_operations_send_the_201_calls_and_a_remote_start_becomes_an_order(gateway, api):
    p = station_pile(api)

    async def go():
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            started = await settle(api, (await post(api, "/charger/remoteStart", {"pileId": p.id, "connectorId": 2, "idTag": "DEMO0005", "limitW": 7000}))["data"]["id"])
            assert (started["status"], started["action"], started["response"]["status"]) == ("answered", "RequestStartTransaction", "Accepted"), started
            _, token, remote_id, evse_id, profile = cs.last("RequestStartTransaction")
            assert token == {"id_token": "DEMO0005", "type": "Central"} and evse_id == 2 and remote_id > 0
            assert profile["charging_profile_purpose"] == "TxProfile" and profile["charging_schedule"][0]["charging_schedule_period"][0]["limit"] == 7000
            now = time.time()
            await cs.call(event("Started", 0, now, "RS-1", "RemoteStart", [energy(5_000, "Transaction.Begin")], evse={"id": 2, "connector_id": 1},
                                id_token={"id_token": "DEMO0005", "type": "Central"}, info={"remote_start_id": remote_id, "charging_state": "Charging"}))
            order = next(o for o in api.get("/order/getList?userId=DEMO0005&status=charging&pageSize=50")["data"]["list"] if o["pileId"] == p.id)
            stop = await settle(api, (await post(api, "/charger/remoteStop", {"orderNo": order["orderNo"]}))["data"]["id"])
            assert (stop["action"], stop["payload"], stop["response"]["status"]) == ("RequestStopTransaction", {"transactionId": "RS-1"}, "Accepted"), stop
            await cs.call(event("Ended", 1, now + 60, "RS-1", "RemoteStop", [energy(6_000, "Transaction.End")], info={"stopped_reason": "Remote"}))
            closed = api.get(f"/order/detail?id={order['orderNo']}")["data"]
            assert closed["status"] == "finished" and closed["energyWh"] == 1_000 and closed["stopReason"] == "remoteStop", closed

            for path, body, action, seen in [
                ("/charger/unlock", {"connectorId": 1}, "UnlockConnector", ("UnlockConnector", 1, 1)),
                ("/charger/availability", {"connectorId": 0, "type": "Inoperative"}, "ChangeAvailability", ("ChangeAvailability", "Inoperative", None)),
                ("/charger/availability", {"connectorId": 2, "type": "Operative"}, "ChangeAvailability", ("ChangeAvailability", "Operative", {"id": 2})),
                ("/charger/trigger", {"requestedMessage": "StatusNotification", "connectorId": 1}, "TriggerMessage", ("TriggerMessage", "StatusNotification", {"id": 1, "connector_id": 1})),
                # One EVSE of the station, at once: the station does not restart, so what
                # follows is not held for a BootNotification.
                ("/charger/reset", {"type": "Hard", "evseId": 2}, "Reset", ("Reset", "Immediate", 2)),
                ("/charger/reset", {"type": "Soft"}, "Reset", ("Reset", "OnIdle", None)),
            ]:
                done = await settle(api, (await post(api, path, {"pileId": p.id, **body}))["data"]["id"])
                assert (done["status"], done["action"]) == ("answered", action), (path, done)
                assert cs.last(seen[0]) == seen, (path, cs.got)
            # What 2.0.1 does not have is refused before anything is queued, naming it.
            for path, body, field in [("/charger/getConfiguration", {}, "pileId"), ("/charger/trigger", {"requestedMessage": "DiagnosticsStatusNotification"}, "requestedMessage"),
                                      ("/charger/changeConfiguration", {"key": "HeartbeatInterval", "value": "60"}, "pileId"),
                                      ("/charger/reset", {"type": "Soft", "evseId": 9}, "evseId")]:
                r = await post(api, path, {"pileId": p.id, **body})
                assert r["code"] == 400 and field in r["msg"] and r["data"]["fields"][0]["field"] == field, (path, r)

    run(go())


def test_a_mixed_fleet_at_one_station_charges_both_ways(gateway, api):
    p201 = station_pile(api)
    p16 = make_pile(api)
    assert p201.station_id == p16.station_id

    now = time.time() - 600

    async def go():
        async with v201(gateway["ws"], p201) as cs, Connection(gateway["ws"], p16) as cp:
            await cs.call(call.BootNotification(**BOOT))
            await cp.call(call16.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60"))
            await cs.call(event("Started", 0, now, "MIX-1", "Authorized", [energy(0, "Transaction.Begin")], evse={"id": 1, "connector_id": 1}, id_token={"id_token": "DEMO0006", "type": "ISO14443"}))
            tx = (await cp.call(call16.StartTransaction(connector_id=1, id_tag="DEMO0006", meter_start=0, timestamp=iso(now)))).transaction_id
            await cs.call(event("Ended", 1, now + 300, "MIX-1", "StopAuthorized", [energy(2_000, "Transaction.End")], info={"stopped_reason": "Local"}))
            await cp.call(call16.StopTransaction(transaction_id=tx, meter_stop=3_000, timestamp=iso(now + 300), reason="Local"))

    # The dashboard's day of the sessions (China's calendar day of their start).
    day = time.strftime("%Y-%m-%d", time.gmtime(now + 8 * 3600))

    def day_sums():
        return next(d for d in api.get("/index/dashboard")["data"]["trend"] if d["day"] == day)

    before = day_sums()
    run(go())
    mine = [o for o in api.get("/order/getList?userId=DEMO0006&pageSize=50")["data"]["list"] if o["pileId"] in (p201.id, p16.id)]
    assert sorted((o["pileId"] == p201.id, o["energyWh"], o["status"]) for o in mine) == [(False, 3_000, "finished"), (True, 2_000, "finished")], mine
    # One dashboard counts both protocols' orders alike.
    after = day_sums()
    assert after["orders"] - before["orders"] == 2, (before, after)
    assert after["energyWh"] - before["energyWh"] == 5_000, (before, after)
    assert after["amountFen"] - before["amountFen"] == sum(o["amountFen"] for o in mine) > 0, (before, after, mine)


def test_the_device_model_is_read_and_changed_and_its_report_is_logged(gateway, api):
    p = station_pile(api)

    async def go():
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            read = await settle(api, (await post(api, "/charger/getVariables", {"pileId": p.id, "variables": [
                {"component": "OCPPCommCtrlr", "variable": "HeartbeatInterval"}, {"component": "Nope", "variable": "Nothing", "attributeType": "Target"}]}))["data"]["id"])
            results = read["response"]["getVariableResult"]
            assert (read["action"], [(r["attributeStatus"], r.get("attributeValue")) for r in results]) == ("GetVariables", [("Accepted", "60"), ("UnknownVariable", None)]), read
            assert read["payload"]["getVariableData"][1]["attributeType"] == "Target"
            changed = await settle(api, (await post(api, "/charger/setVariables", {"pileId": p.id, "variables": [
                {"component": "OCPPCommCtrlr", "variable": "HeartbeatInterval", "value": "120"}, {"component": "DeviceDataCtrlr", "variable": "ItemsPerMessage", "value": "5", "evseId": 1}]}))["data"]["id"])
            assert [r["attributeStatus"] for r in changed["response"]["setVariableResult"]] == ["Accepted", "Rejected"], changed
            assert cs.variables[("OCPPCommCtrlr", "HeartbeatInterval")] == "120"
            assert changed["payload"]["setVariableData"][1]["component"] == {"name": "DeviceDataCtrlr", "evse": {"id": 1}}
            report = await settle(api, (await post(api, "/charger/getBaseReport", {"pileId": p.id, "reportBase": "FullInventory"}))["data"]["id"])
            assert report["response"]["status"] == "Accepted" and cs.last("GetBaseReport")[2] == "FullInventory"
            request_id = cs.last("GetBaseReport")[1]
            await cs.call(call.NotifyReport(request_id=request_id, generated_at=iso(time.time()), seq_no=0, tbc=False, report_data=[
                {"component": {"name": "OCPPCommCtrlr"}, "variable": {"name": "HeartbeatInterval"}, "variable_attribute": [{"type": "Actual", "value": "120", "mutability": "ReadWrite"}]},
                # A station should never report its password's value; one that does has it kept nowhere.
                {"component": {"name": "SecurityCtrlr"}, "variable": {"name": "BasicAuthPassword"}, "variable_attribute": [{"type": "Actual", "value": "reported-secret-1234", "mutability": "WriteOnly"}]}]))
            log = api.get(f"/pile/messageLog?pileId={p.id}&action=NotifyReport")["data"]["list"]
            assert any(e["action"] == "NotifyReport" and e["request"]["requestId"] == request_id for e in log), log
            assert "reported-secret-1234" not in json.dumps(log) + json.dumps(api.get(f"/charger/deviceModel?pileId={p.id}")), "the password is kept nowhere"
            # Refused before anything is queued, each naming its field.
            for body, field in [({"variables": []}, "variables"), ({"variables": [{"component": "", "variable": "X"}]}, "variables[0].component"),
                                ({"variables": [{"component": "A", "variable": "B", "value": "x", "evseId": 3}]}, "variables[0].evseId"),
                                ({"variables": [{"component": "SecurityCtrlr", "variable": "BasicAuthPassword", "value": "hunter2hunter2hunter2"}]}, "variables[0].variable")]:
                r = await post(api, "/charger/setVariables", {"pileId": p.id, **body})
                assert r["code"] == 400 and r["data"]["fields"][0]["field"] == field, (body, r)
            assert (await post(api, "/charger/getBaseReport", {"pileId": p.id}))["data"]["fields"][0]["field"] == "reportBase"
        # A 1.6 pile has configuration keys instead.
        p16 = make_pile(api)
        r = await post(api, "/charger/getVariables", {"pileId": p16.id, "variables": [{"component": "A", "variable": "B"}]})
        assert r["code"] == 400 and "getConfiguration" in r["msg"], r

    run(go())


def test_the_reported_device_model_is_kept_per_station_and_follows_the_answers(gateway, api):
    p = station_pile(api)

    def model(q=None):
        r = api.get(f"/charger/deviceModel?pileId={p.id}" + (f"&q={q}" if q else ""))
        assert r["code"] == 200, r
        return r["data"]

    def entry(data, component, variable, evse=None):
        found = [v for v in data["list"] if (v["component"], v["variable"], v["evseId"]) == (component, variable, evse)]
        assert len(found) == 1, (component, variable, data["list"])
        return found[0]

    async def go():
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            assert model()["list"] == [] and model()["ocppVersion"] == "2.0.1"
            report = await settle(api, (await post(api, "/charger/getBaseReport", {"pileId": p.id, "reportBase": "FullInventory"}))["data"]["id"])
            request_id = cs.last("GetBaseReport")[1]
            assert report["response"]["status"] == "Accepted"
            generated = int(time.time()) - 60
            # Two pages, as a station with a small ItemsPerMessage sends them.
            await cs.call(call.NotifyReport(request_id=request_id, generated_at=iso(generated), seq_no=0, tbc=True, report_data=[
                {"component": {"name": "OCPPCommCtrlr"}, "variable": {"name": "HeartbeatInterval"}, "variable_attribute": [{"type": "Actual", "value": "60", "mutability": "ReadWrite"}],
                 "variable_characteristics": {"unit": "s", "data_type": "integer", "min_limit": 1, "supports_monitoring": False}},
                {"component": {"name": "Connector", "evse": {"id": 2, "connector_id": 1}}, "variable": {"name": "ConnectorType"}, "variable_attribute": [{"value": "cGBT", "mutability": "ReadOnly"}],
                 "variable_characteristics": {"data_type": "OptionList", "values_list": "cGBT,cType2", "supports_monitoring": False}}]))
            await cs.call(call.NotifyReport(request_id=request_id, generated_at=iso(generated), seq_no=1, tbc=False, report_data=[
                {"component": {"name": "SecurityCtrlr"}, "variable": {"name": "BasicAuthPassword"}, "variable_attribute": [{"value": "leaked-secret-1234", "mutability": "WriteOnly"}],
                 "variable_characteristics": {"data_type": "string", "supports_monitoring": False}},
                {"component": {"name": "SecurityCtrlr"}, "variable": {"name": "SecurityProfile"}, "variable_attribute": [{"value": "1", "mutability": "ReadOnly"}],
                 "variable_characteristics": {"data_type": "integer", "supports_monitoring": False}}]))
            data = model()
            assert data["total"] == 4 and [v["component"] for v in data["list"]] == ["Connector", "OCPPCommCtrlr", "SecurityCtrlr", "SecurityCtrlr"], data
            hb = entry(data, "OCPPCommCtrlr", "HeartbeatInterval")
            assert (hb["attributes"], hb["unit"], hb["dataType"], hb["minLimit"], hb["reportedAt"]) == ([{"type": "Actual", "value": "60", "mutability": "ReadWrite"}], "s", "integer", 1, generated), hb
            plug = entry(data, "Connector", "ConnectorType", evse=2)
            assert (plug["connectorId"], plug["valuesList"], plug["attributes"][0]["type"]) == (1, "cGBT,cType2", "Actual"), plug
            password = entry(data, "SecurityCtrlr", "BasicAuthPassword")
            assert password["attributes"] == [{"type": "Actual", "value": None, "mutability": "WriteOnly"}], "the password is never kept"
            assert "leaked-secret-1234" not in str(data)

            # A value set and accepted, and one read, replace what the report said.
            changed = await settle(api, (await post(api, "/charger/setVariables", {"pileId": p.id, "variables": [{"component": "OCPPCommCtrlr", "variable": "HeartbeatInterval", "value": "300"}]}))["data"]["id"])
            assert changed["response"]["setVariableResult"][0]["attributeStatus"] == "Accepted"
            assert entry(model(), "OCPPCommCtrlr", "HeartbeatInterval")["attributes"][0]["value"] == "300"
            cs.variables[("DeviceDataCtrlr", "ItemsPerMessage")] = "25"
            await settle(api, (await post(api, "/charger/getVariables", {"pileId": p.id, "variables": [{"component": "DeviceDataCtrlr", "variable": "ItemsPerMessage"}]}))["data"]["id"])
            items = entry(model(), "DeviceDataCtrlr", "ItemsPerMessage")
            assert items["attributes"] == [{"type": "Actual", "value": "25", "mutability": None}], items
            # A refused change leaves the value as it was.
            refused = await settle(api, (await post(api, "/charger/setVariables", {"pileId": p.id, "variables": [{"component": "DeviceDataCtrlr", "variable": "ItemsPerMessage", "value": "99"}]}))["data"]["id"])
            assert refused["response"]["setVariableResult"][0]["attributeStatus"] == "Rejected"
            assert entry(model(), "DeviceDataCtrlr", "ItemsPerMessage")["attributes"][0]["value"] == "25"

            # The filter matches component or variable names in any case.
            assert [v["variable"] for v in model("heartbeat")["list"]] == ["HeartbeatInterval"]
            assert {v["component"] for v in model("securityctrlr")["list"]} == {"SecurityCtrlr"}
            assert api.get(f"/charger/deviceModel?pileId={p.id}&q=" + "x" * 51)["data"]["fields"][0]["field"] == "q"
            assert api.get("/charger/deviceModel?pileId=nope")["code"] == 404
            assert api.get("/charger/deviceModel")["code"] == 400

    run(go())
    old = make_pile(api)
    r = api.get(f"/charger/deviceModel?pileId={old.id}")["data"]
    assert (r["list"], r["ocppVersion"]) == ([], "1.6")


def test_a_reservation_is_held_cancelled_and_used_by_its_transaction(gateway, api):
    p = station_pile(api)

    async def go():
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            until = int(time.time()) + 1800
            made = await settle(api, (await post(api, "/charger/reserveNow", {"pileId": p.id, "connectorId": 2, "idTag": "DEMO0007", "expiresAt": until}))["data"]["id"])
            assert (made["action"], made["response"]["status"]) == ("ReserveNow", "Accepted"), made
            _, rid, token, evse, kind = cs.last("ReserveNow")
            assert token == {"id_token": "DEMO0007", "type": "Central"} and evse == 2 and kind is None
            shown = {r["id"]: r for r in api.get(f"/charger/reservations?pileId={p.id}")["data"]["list"]}
            assert shown[rid]["status"] == "reserved", shown
            cancel = await settle(api, (await post(api, "/charger/cancelReservation", {"reservationId": rid}))["data"]["id"])
            assert cancel["response"]["status"] == "Accepted" and cs.last("CancelReservation") == ("CancelReservation", rid)
            assert {r["id"]: r for r in api.get(f"/charger/reservations?pileId={p.id}")["data"]["list"]}[rid]["status"] == "cancelled"
            # A second one, used by the transaction that names it.
            again = await settle(api, (await post(api, "/charger/reserveNow", {"pileId": p.id, "connectorId": 0, "idTag": "DEMO0007", "expiresAt": until}))["data"]["id"])
            rid2 = cs.last("ReserveNow")[1]
            assert again["response"]["status"] == "Accepted" and cs.last("ReserveNow")[3] is None, "connector 0: any EVSE"
            await cs.call(event("Started", 0, time.time(), "RSV-1", "Authorized", [energy(0, "Transaction.Begin")], evse={"id": 1, "connector_id": 1},
                                id_token={"id_token": "DEMO0007", "type": "ISO14443"}, reservation_id=rid2))
            assert {r["id"]: r for r in api.get(f"/charger/reservations?pileId={p.id}")["data"]["list"]}[rid2]["status"] == "used"
            # By connector type (2.0.1's connectorType): on any EVSE, and kept on the reservation.
            typed = await settle(api, (await post(api, "/charger/reserveNow", {"pileId": p.id, "connectorId": 0, "connectorType": "cCCS2", "idTag": "DEMO0007", "expiresAt": until}))["data"]["id"])
            _, rid3, _, evse, kind = cs.last("ReserveNow")
            assert typed["response"]["status"] == "Accepted" and (evse, kind) == (None, "cCCS2"), cs.got
            assert {r["id"]: r for r in api.get(f"/charger/reservations?pileId={p.id}")["data"]["list"]}[rid3]["connectorType"] == "cCCS2"
            # A type the 2.0.1 schema does not list is refused by name, the values allowed in the words.
            r = await post(api, "/charger/reserveNow", {"pileId": p.id, "connectorId": 0, "connectorType": "cGBT", "idTag": "DEMO0007", "expiresAt": until})
            assert r["code"] == 400 and r["data"]["fields"][0]["field"] == "connectorType" and "cType2" in r["msg"], r

    run(go())


def test_a_card_of_one_token_type_is_not_a_token_of_another(gateway, api):
    """C01: a card typed eMAID (a Plug & Charge contract) is a token of that
    type, or Central (the product's own), never an RFID tag of the same
    characters; an untyped card is any token of its number. The local list
    names each card's type, so the station matches it the same way."""
    p = station_pile(api)
    number = "CNABC" + uuid.uuid4().hex[:9].upper()
    card = {"idTag": number, "holder": "即插即充", "plate": "", "status": "Accepted", "expiresAt": None, "parentIdTag": None, "tokenType": "eMAID"}
    added = api.post("/card/doAdd", card)
    assert added["code"] == 200 and added["data"]["tokenType"] == "eMAID", added
    wrong = api.post("/card/doAdd", {**card, "idTag": number[:-1], "tokenType": "NoAuthorization"})
    assert wrong["code"] == 400 and "tokenType" in wrong["msg"], wrong
    t0 = int(time.time()) - 900

    async def go():
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            for kind, status in [("eMAID", "Accepted"), ("Central", "Accepted"), ("ISO14443", "Invalid"), ("KeyCode", "Invalid")]:
                r = await cs.call(call.Authorize(id_token={"id_token": number, "type": kind}))
                assert r.id_token_info["status"] == status, (kind, r)
            assert (await cs.call(call.Authorize(id_token={"id_token": "DEMO0003", "type": "KeyCode"}))).id_token_info["status"] == "Accepted"
            # An RFID tag of the contract's characters starts offline: its order says so.
            started = await cs.call(event("Started", 0, t0, "TYPED-1", "Authorized", [energy(0, "Transaction.Begin")], evse={"id": 1, "connector_id": 1}, id_token={"id_token": number, "type": "ISO14443"}))
            assert started.id_token_info["status"] == "Invalid", started
            await cs.call(event("Ended", 1, t0 + 120, "TYPED-1", "Deauthorized", [energy(200, "Transaction.End")], info={"stopped_reason": "DeAuthorized"}))
            sent = await settle(api, (await post(api, "/charger/sendLocalList", {"pileId": p.id, "updateType": "Full"}))["data"]["id"])
            assert sent["response"]["status"] == "Accepted", sent
            kinds = {e["id_token"]["id_token"]: e["id_token"]["type"] for e in cs.local_list[2]}
            assert (kinds.get(number), kinds.get("DEMO0003")) == ("eMAID", "Central"), kinds

    run(go())
    order = [o for o in api.get(f"/order/getList?userId={number}&pageSize=20")["data"]["list"] if o["pileId"] == p.id]
    assert len(order) == 1, order
    detail = api.get(f"/order/detail?id={order[0]['orderNo']}")["data"]
    assert {"kind": "charger", "problem": "unauthorizedIdTag"} in detail["anomalies"], detail["anomalies"]
    # Untyped again, the card is any token of its number.
    edited = api.post("/card/doEdit", {**card, "tokenType": None, "version": added["data"]["version"]})
    assert edited["code"] == 200 and edited["data"]["tokenType"] is None, edited

    async def again():
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            assert (await cs.call(call.Authorize(id_token={"id_token": number, "type": "ISO14443"}))).id_token_info["status"] == "Accepted"

    run(again())


def test_a_station_without_authorization_charges_free_vend_and_its_order_is_flagged(gateway, api):
    """C01 / E01: a station with a start button and no reader sends idToken
    NoAuthorization (empty). It is accepted (a refusal could only stop a
    driver the station let in), the order is priced as any other, billed to
    no one, and flagged so the operator sees free vend happening."""
    p = station_pile(api)
    nobody = {"id_token": "", "type": "NoAuthorization"}
    t0 = int(time.time()) - 900

    async def go():
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            assert (await cs.call(call.Authorize(id_token=nobody))).id_token_info["status"] == "Accepted"
            started = await cs.call(event("Started", 0, t0, "FREE-1", "CablePluggedIn", [energy(1_000, "Transaction.Begin")], evse={"id": 1, "connector_id": 1}, id_token=nobody))
            assert started.id_token_info["status"] == "Accepted", started
            updated = await cs.call(event("Updated", 1, t0 + 300, "FREE-1", "MeterValuePeriodic", [energy(2_500)], id_token=nobody))
            assert updated.id_token_info["status"] == "Accepted", updated
            await cs.call(event("Ended", 2, t0 + 600, "FREE-1", "EVCommunicationLost", [energy(4_000, "Transaction.End")], info={"stopped_reason": "EVDisconnected"}))

    run(go())
    orders = [o for o in api.get(f"/order/getList?stationId={p.station_id}&pageSize=100")["data"]["list"] if o["pileId"] == p.id]
    assert len(orders) == 1, orders
    detail = api.get(f"/order/detail?id={orders[0]['orderNo']}")["data"]
    assert (detail["status"], detail["energyWh"], detail["userId"]) == ("finished", 3_000, ""), detail
    assert detail["amountFen"] > 0, detail
    problems = [a["problem"] for a in detail["anomalies"] if a["kind"] == "charger"]
    assert problems == ["noAuthorization"], detail["anomalies"]


def test_lost_events_are_shown_on_the_order_and_a_late_one_closes_its_gap(gateway, api):
    p = station_pile(api)
    token = {"id_token": "DEMO0008", "type": "ISO14443"}

    async def session(tx, seqs, t0):
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            await cs.call(event("Started", seqs[0], t0, tx, "Authorized", [energy(1_000, "Transaction.Begin")], evse={"id": 1, "connector_id": 1}, id_token=token))
            for i, seq in enumerate(seqs[1:-1], start=1):
                await cs.call(event("Updated", seq, t0 + i * 60, tx, "MeterValuePeriodic", [energy(1_000 + i * 500)], offline=True))
            await cs.call(event("Ended", seqs[-1], t0 + 600, tx, "StopAuthorized", [energy(5_000, "Transaction.End")], info={"stopped_reason": "Local"}))

    t0 = int(time.time()) - 3600
    run(session("GAP-1", [0, 2, 3], t0))
    # The station's offline queue sends the lost one late, in order: no gap.
    run(session("GAP-2", [0, 2, 1, 3], t0 + 1200))
    orders = {o["transactionId"]: o for o in api.get("/order/getList?userId=DEMO0008&pageSize=50")["data"]["list"] if o["pileId"] == p.id}
    assert len(orders) == 2, orders
    details = [api.get(f"/order/detail?id={o['orderNo']}")["data"] for o in sorted(orders.values(), key=lambda o: o["startTs"])]
    problems = [[a["problem"] for a in d["anomalies"] if a["kind"] == "charger"] for d in details]
    assert problems == [["eventsMissing"], []], problems
    assert {"kind": "charger", "problem": "eventsMissing"} in details[0]["anomalies"], details[0]["anomalies"]
    assert all(d["energyWh"] == 4_000 for d in details)


def test_firmware_logs_and_the_local_list_go_as_201_calls_and_their_notifications_show(gateway, api):
    p = station_pile(api)

    async def go():
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            fw = await settle(api, (await post(api, "/charger/updateFirmware", {"pileId": p.id, "location": "https://fw.example.com/ac22-3.2.bin"}))["data"]["id"])
            assert (fw["action"], fw["response"]["status"]) == ("UpdateFirmware", "Accepted"), fw
            _, fw_request, firmware = cs.last("UpdateFirmware")
            assert firmware["location"] == "https://fw.example.com/ac22-3.2.bin" and "signature" not in firmware
            await cs.call(call.FirmwareStatusNotification(status="Installed", request_id=fw_request))
            log = await settle(api, (await post(api, "/charger/getLog", {"pileId": p.id, "logType": "SecurityLog", "location": "ftps://logs.example.com/up"}))["data"]["id"])
            assert (log["response"]["status"], log["response"]["filename"]) == ("Accepted", "log-1.zip") and cs.last("GetLog")[2:] == ("SecurityLog", "ftps://logs.example.com/up")
            await cs.call(call.LogStatusNotification(status="Uploaded", request_id=cs.last("GetLog")[1]))
            link = p.view()["link"]
            assert (link["firmwareStatus"], link["firmwareRequestId"], link["logStatus"]) == ("Installed", fw_request, "Uploaded"), link
            sent = await settle(api, (await post(api, "/charger/sendLocalList", {"pileId": p.id, "updateType": "Full"}))["data"]["id"])
            assert sent["response"]["status"] == "Accepted"
            version, kind, entries = cs.local_list
            assert kind == "Full" and version == 1 and any(e["id_token"]["id_token"] == "DEMO0001" and e["id_token_info"]["status"] == "Accepted" for e in entries)
            assert any(e["id_token"]["id_token"] == "BLOCKED01" and e["id_token_info"]["status"] == "Blocked" for e in entries)
            got = await settle(api, (await post(api, "/charger/getLocalListVersion", {"pileId": p.id}))["data"]["id"])
            assert got["response"]["versionNumber"] == 1
            # The next full list is version 2: the last accepted one is read from 2.0.1's versionNumber.
            await settle(api, (await post(api, "/charger/sendLocalList", {"pileId": p.id, "updateType": "Full"}))["data"]["id"])
            assert cs.local_list[0] == 2

    run(go())


def test_smart_charging_and_the_station_power_budget_reach_a_201_station(gateway, api):
    stations = api.get("/station/getList?pageNo=1&pageSize=50&status=operating")["data"]["list"]
    tariff_station = next(x for x in stations if x.get("tariffId"))
    added = api.post("/station/doAdd", {
        "code": "PV" + uuid.uuid4().hex[:8].upper(), "name": "2.0.1功率预算测试站", "operator": "测试运营商",
        "provinceCode": "450000", "cityCode": "450100", "districtCode": "450102", "address": "南宁市兴宁区民族大道2号",
        "lat": 22.817, "lng": 108.366, "openingHours": "00:00-24:00", "status": "operating",
        "servicePhone": "0771-12345678", "parkingInfo": "", "tariffId": tariff_station["tariffId"]})
    assert added["code"] == 200, added
    station = added["data"]["id"]
    p = station_pile(api, stationId=station)

    async def go():
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            default = await settle(api, (await post(api, "/charger/setChargingProfile", {"pileId": p.id, "connectorId": 0, "purpose": "TxDefaultProfile",
                                                                                  "periods": [{"startPeriod": 0, "limit": 16000}]}))["data"]["id"])
            assert (default["action"], default["response"]["status"]) == ("SetChargingProfile", "Accepted"), default
            _, evse, prof = cs.last("SetChargingProfile")
            assert evse == 0 and prof["charging_profile_purpose"] == "TxDefaultProfile" and prof["charging_schedule"][0]["charging_schedule_period"][0]["limit"] == 16000
            await cs.call(event("Started", 0, time.time(), "SC-1", "Authorized", [energy(0, "Transaction.Begin")], evse={"id": 1, "connector_id": 1}, id_token={"id_token": "DEMO0009", "type": "ISO14443"}))
            tx = await settle(api, (await post(api, "/charger/setChargingProfile", {"pileId": p.id, "connectorId": 1, "purpose": "TxProfile", "periods": [{"startPeriod": 0, "limit": 7000}]}))["data"]["id"])
            assert tx["response"]["status"] == "Accepted" and cs.last("SetChargingProfile")[2]["transaction_id"] == "SC-1", cs.got
            clear = await settle(api, (await post(api, "/charger/clearChargingProfile", {"pileId": p.id, "id": prof["id"]}))["data"]["id"])
            assert clear["response"]["status"] == "Accepted" and cs.last("ClearChargingProfile") == ("ClearChargingProfile", {"charging_profile_id": prof["id"]}), cs.got
            comp = await settle(api, (await post(api, "/charger/getCompositeSchedule", {"pileId": p.id, "connectorId": 1, "durationSecs": 3600}))["data"]["id"])
            assert comp["response"]["schedule"]["chargingSchedulePeriod"][0]["limit"] == 11000 and cs.last("GetCompositeSchedule") == ("GetCompositeSchedule", 1, 3600)
            # The station power budget: its share as a ChargingStationMaxProfile of the station (EVSE 0).
            r = await post(api, "/station/setPowerBudget", {"stationId": station, "version": 0, "maxPowerKw": 40})
            assert r["code"] == 200, r
            deadline = time.time() + 10
            while not any(g[0] == "SetChargingProfile" and g[2]["charging_profile_purpose"] == "ChargingStationMaxProfile" for g in cs.got):
                assert time.time() < deadline, cs.got
                await asyncio.sleep(0.05)
            share = next(g for g in cs.got if g[0] == "SetChargingProfile" and g[2]["charging_profile_purpose"] == "ChargingStationMaxProfile")
            assert share[1] == 0 and share[2]["charging_schedule"][0]["charging_schedule_period"][0]["limit"] == 40000.0, share

    run(go())


def test_the_station_password_is_rotated_through_basic_auth_password_and_never_shown(gateway, api):
    p = station_pile(api)

    async def go():
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            # Once the boot's follow-up ran (the connection handles one frame at a
            # time): a key is never queued, so a call held for the boot would refuse it.
            await cs.call(call.Heartbeat())
            done = await settle(api, (await post(api, "/charger/rotateAuthorizationKey", {"pileId": p.id}))["data"]["id"])
            assert (done["action"], done["status"]) == ("SetVariables", "answered"), done
            new = cs.new_password
            assert 16 <= len(new) <= 40 and done["payload"]["setVariableData"][0]["attributeValue"] == "***", done
            for path in (f"/charger/commands?pileId={p.id}&pageSize=20", f"/pile/messageLog?pileId={p.id}"):
                assert new not in str(api.get(path)), path
            # Refused by the station: the old password stays.
            cs.take_password = False
            refused = await settle(api, (await post(api, "/charger/rotateAuthorizationKey", {"pileId": p.id}))["data"]["id"])
            assert refused["response"]["setVariableResult"][0]["attributeStatus"] == "Rejected"
        return new

    new = run(go())

    async def handshake(password):
        basic = "Basic " + base64.b64encode(f"{p.code}:{password}".encode()).decode()
        try:
            async with websockets.connect(f"{gateway['ws']}/{p.code}", subprotocols=["ocpp2.0.1"], extra_headers={"Authorization": basic}):
                return 101
        except websockets.exceptions.InvalidStatusCode as e:
            return e.status_code

    assert run(handshake(new)) == 101, "the accepted key is the password now"
    assert run(handshake(p.password)) == 401, "the old one no longer is"


def test_a_display_message_is_posted_to_the_screen_and_taken_down(gateway, api):
    p = station_pile(api)

    async def go():
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            start, end = int(time.time()), int(time.time()) + 3600
            posted = await settle(api, (await post(api, "/charger/setDisplayMessage", {"pileId": p.id, "message": "今日 22:00 起谷时电价 0.35 元/度", "priority": "InFront", "language": "zh-CN", "startAt": start, "endAt": end}))["data"]["id"])
            assert (posted["action"], posted["response"]["status"]) == ("SetDisplayMessage", "Accepted"), posted
            _, message = cs.last("SetDisplayMessage")
            assert message["message"] == {"format": "UTF8", "language": "zh-CN", "content": "今日 22:00 起谷时电价 0.35 元/度"} and message["priority"] == "InFront"
            assert (message["start_date_time"], message["end_date_time"]) == (iso(start), iso(end))
            down = await settle(api, (await post(api, "/charger/clearDisplayMessage", {"pileId": p.id, "messageId": message["id"]}))["data"]["id"])
            assert down["response"]["status"] == "Accepted" and cs.last("ClearDisplayMessage") == ("ClearDisplayMessage", message["id"])
            asked = await settle(api, (await post(api, "/charger/getDisplayMessages", {"pileId": p.id, "priority": "InFront", "state": "Idle"}))["data"]["id"])
            _, request_id, ids, priority, state = cs.last("GetDisplayMessages")
            assert (asked["action"], asked["response"]["status"], ids, priority, state) == ("GetDisplayMessages", "Accepted", None, "InFront", "Idle"), asked
            one = await settle(api, (await post(api, "/charger/getDisplayMessages", {"pileId": p.id, "messageId": 999}))["data"]["id"])
            assert one["response"]["status"] == "Unknown" and cs.last("GetDisplayMessages")[2] == [999]
            await cs.call(call.NotifyDisplayMessages(request_id=request_id, tbc=False, message_info=[{"id": 7, "priority": "NormalCycle", "message": {"format": "UTF8", "content": "欢迎"}}]))
            bad = await post(api, "/charger/getDisplayMessages", {"pileId": p.id, "messageId": -1})
            assert bad["code"] == 400 and "messageId" in bad["msg"], bad
            bad = await post(api, "/charger/getDisplayMessages", {"pileId": p.id, "state": "Sleeping"})
            assert bad["code"] == 400 and "state" in bad["msg"], bad
            for body, field in [({"message": ""}, "message"), ({"message": "x" * 513}, "message"), ({"message": "x", "startAt": end, "endAt": start}, "endAt")]:
                r = await post(api, "/charger/setDisplayMessage", {"pileId": p.id, **body})
                assert r["code"] == 400 and r["data"]["fields"][0]["field"] == field, (body, r)
            assert (await post(api, "/charger/clearDisplayMessage", {"pileId": p.id}))["data"]["fields"][0]["field"] == "messageId"

    run(go())


def test_sign_certificate_is_answered_and_followed_by_the_chain_of_the_ca(gateway, api):
    from cryptography import x509
    from test_security import csr_for

    p = station_pile(api)

    async def go():
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            key, csr = csr_for(p.code)
            answer = await cs.call(call.SignCertificate(csr=csr, certificate_type="ChargingStationCertificate"))
            assert answer.status == "Accepted"
            deadline = time.time() + 10
            while not any(g[0] == "CertificateSigned" for g in cs.got):
                assert time.time() < deadline, cs.got
                await asyncio.sleep(0.05)
            _, chain_pem, kind = next(g for g in cs.got if g[0] == "CertificateSigned")
            chain = x509.load_pem_x509_certificates(chain_pem.encode())
            ca = x509.load_pem_x509_certificate((gateway["data"] / "charger-ca.pem").read_bytes())
            chain[0].verify_directly_issued_by(ca)
            assert kind == "ChargingStationCertificate" and chain[0].public_key() == key.public_key()
            # Not for this station, or a V2G certificate: Rejected.
            _, other = csr_for("SOMEONE-ELSE")
            assert (await cs.call(call.SignCertificate(csr=other))).status == "Rejected"
            assert (await cs.call(call.SignCertificate(csr=csr, certificate_type="V2GCertificate"))).status == "Rejected"
            events = api.get(f"/charger/securityEvents?pileId={p.id}&type=InvalidCertificateSigningRequest")["data"]["list"]
            assert len(events) == 1, events

    run(go())


def test_root_certificates_are_installed_listed_and_deleted_in_201_terms(gateway, api):
    from test_security import hash_data, root_certificate

    p = station_pile(api)
    csms, v2g = root_certificate("Operator CSMS Root"), root_certificate("Operator V2G Root")
    serial = lambda pem: hash_data(pem)["serialNumber"]

    async def go():
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            done = await settle(api, (await post(api, "/charger/installCertificate", {"pileId": p.id, "certificateType": "CentralSystemRootCertificate", "certificate": csms}))["data"]["id"])
            assert (done["action"], done["response"]["status"]) == ("InstallCertificate", "Accepted"), done
            # 1.6's central system root is 2.0.1's CSMSRootCertificate.
            assert cs.roots[serial(csms)][0] == "CSMSRootCertificate" and done["payload"]["certificateType"] == "CSMSRootCertificate"
            done = await settle(api, (await post(api, "/charger/installCertificate", {"pileId": p.id, "certificateType": "V2GRootCertificate", "certificate": v2g}))["data"]["id"])
            assert done["response"]["status"] == "Accepted" and cs.roots[serial(v2g)][0] == "V2GRootCertificate"
            listed = api.get(f"/charger/certificates?pileId={p.id}")["data"]["list"]
            assert sorted((c["origin"], c["certificateType"], c["serial"]) for c in listed) == sorted([("installed", "CentralSystemRootCertificate", serial(csms)), ("installed", "V2GRootCertificate", serial(v2g))])

            # The station's own list (a chain per certificate) replaces the records of the kind asked about.
            other = root_certificate("Other CSMS Root")
            cs.roots[serial(other)] = ("CSMSRootCertificate", other)
            ids = await settle(api, (await post(api, "/charger/getInstalledCertificateIds", {"pileId": p.id, "certificateType": "CentralSystemRootCertificate"}))["data"]["id"])
            assert ids["response"]["status"] == "Accepted" and cs.last("GetInstalledCertificateIds") == ("GetInstalledCertificateIds", ["CSMSRootCertificate"]), (ids, cs.got)
            listed = api.get(f"/charger/certificates?pileId={p.id}")["data"]["list"]
            csms_kind = sorted((c["origin"], c["serial"]) for c in listed if c["certificateType"] == "CentralSystemRootCertificate")
            assert csms_kind == sorted([("installed", serial(csms)), ("reported", serial(other))]), listed
            assert [c["serial"] for c in listed if c["certificateType"] == "V2GRootCertificate"] == [serial(v2g)], "another kind stays as it was"

            gone = await settle(api, (await post(api, "/charger/deleteCertificate", {"pileId": p.id, "serial": serial(csms)}))["data"]["id"])
            assert (gone["action"], gone["response"]["status"]) == ("DeleteCertificate", "Accepted") and serial(csms) not in cs.roots
            assert serial(csms) not in [c["serial"] for c in api.get(f"/charger/certificates?pileId={p.id}")["data"]["list"]]

            # The station is asked for a CSR with TriggerMessage; its chain can be sent again.
            trig = await settle(api, (await post(api, "/charger/extendedTrigger", {"pileId": p.id, "requestedMessage": "SignChargePointCertificate"}))["data"]["id"])
            assert (trig["action"], cs.last("TriggerMessage")[:2]) == ("TriggerMessage", ("TriggerMessage", "SignChargingStationCertificate")), (trig, cs.got)
            from test_security import csr_for
            _, csr = csr_for(p.code)
            assert (await cs.call(call.SignCertificate(csr=csr, certificate_type="ChargingStationCertificate"))).status == "Accepted"
            deadline = time.time() + 10
            while not api.get(f"/charger/certificates?pileId={p.id}")["data"]["list"] or not any(c["origin"] == "issued" for c in api.get(f"/charger/certificates?pileId={p.id}")["data"]["list"]):
                assert time.time() < deadline
                await asyncio.sleep(0.1)
            issued = next(c for c in api.get(f"/charger/certificates?pileId={p.id}")["data"]["list"] if c["origin"] == "issued")
            again = await settle(api, (await post(api, "/charger/certificateSigned", {"pileId": p.id, "serial": issued["serial"]}))["data"]["id"])
            assert (again["action"], again["response"]["status"], again["payload"]["certificateType"]) == ("CertificateSigned", "Accepted", "ChargingStationCertificate"), again

    run(go())
    # A 1.6 pile holds no V2G root: refused before anything is queued, naming the field.
    old = make_pile(api)
    r = run(post(api, "/charger/installCertificate", {"pileId": old.id, "certificateType": "V2GRootCertificate", "certificate": root_certificate("V2G")}))
    assert r["code"] == 400 and r["data"]["fields"][0]["field"] == "certificateType" and "2.0.1" in r["msg"], r


def test_every_station_message_is_answered_in_its_schema(gateway, api):
    """The reports a station sends of smart charging, monitoring, customer
    data, published firmware and ISO 15118 are answered (the `ocpp` package
    checks each answer against the official schema), never NotSupported."""
    p = station_pile(api)
    now = iso(time.time())
    limit = {"charging_limit_source": "EMS", "is_grid_critical": False}
    schedule = {"id": 1, "charging_rate_unit": "W", "charging_schedule_period": [{"start_period": 0, "limit": 11000.0}]}

    async def go():
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            profile = {"id": 5, "stack_level": 0, "charging_profile_purpose": "TxDefaultProfile", "charging_profile_kind": "Absolute", "charging_schedule": [schedule]}
            await cs.call(call.ReportChargingProfiles(request_id=1, charging_limit_source="CSO", charging_profile=[profile], evse_id=1, tbc=False))
            await cs.call(call.NotifyChargingLimit(charging_limit=limit, evse_id=1, charging_schedule=[schedule]))
            await cs.call(call.ClearedChargingLimit(charging_limit_source="EMS", evse_id=1))
            await cs.call(call.NotifyMonitoringReport(request_id=2, seq_no=0, generated_at=now, tbc=False))
            await cs.call(call.NotifyCustomerInformation(data="no data for this customer", seq_no=0, generated_at=now, request_id=3, tbc=False))
            await cs.call(call.PublishFirmwareStatusNotification(status="Published", location=["http://station.local/fw.bin"], request_id=4))
            needs = await cs.call(call.NotifyEVChargingNeeds(charging_needs={"requested_energy_transfer": "AC_three_phase"}, evse_id=1))
            assert needs.status == "Rejected" and needs.status_info["reason_code"] == "NoSchedule", needs
            ev_schedule = await cs.call(call.NotifyEVChargingSchedule(time_base=now, charging_schedule=schedule, evse_id=1))
            assert ev_schedule.status == "Accepted"
            ev_cert = await cs.call(call.Get15118EVCertificate(iso15118_schema_version="urn:iso:15118:2:2013:MsgDef", action="Install", exi_request="AAAA"))
            assert ev_cert.status == "Failed" and ev_cert.exi_response == "", ev_cert
            ocsp = {"hash_algorithm": "SHA256", "issuer_name_hash": "a" * 64, "issuer_key_hash": "b" * 64, "serial_number": "01", "responder_url": "http://ocsp.example.com"}
            status = await cs.call(call.GetCertificateStatus(ocsp_request_data=ocsp))
            assert status.status == "Failed", status
            await cs.call(call.SecurityEventNotification(type="TamperDetectionActivated", timestamp=now, tech_info="door opened"))
        # A security event is the pile's, as a 1.6 charger's is.
        events = api.get(f"/charger/securityEvents?pileId={p.id}&type=TamperDetectionActivated")["data"]["list"]
        assert [(e["type"], e["techInfo"]) for e in events] == [("TamperDetectionActivated", "door opened")], events
        # Each is in the pile's message log, under its action.
        for action in ["ReportChargingProfiles", "NotifyChargingLimit", "ClearedChargingLimit", "NotifyMonitoringReport", "NotifyCustomerInformation", "PublishFirmwareStatusNotification"]:
            log = api.get(f"/pile/messageLog?pileId={p.id}&action={action}")["data"]["list"]
            assert log and all(e["action"] == action for e in log), (action, log)

    run(go())


def test_monitors_profiles_customer_data_and_published_firmware_go_as_201_calls(gateway, api):
    """Monitoring (N): monitors set, answered one by one with the station's
    ids, cleared and reported, and kept as the pile's (set, reported, less
    the cleared); a tripped monitor's NotifyEvent is kept as the pile's
    events (once, however often it is sent; the password never).
    GetChargingProfiles (K), its report kept as the pile's profiles,
    CustomerInformation for a card (N) and
    PublishFirmware (L), each followed by its report; bad bodies are 400s
    naming the field, and a 1.6 pile is refused."""
    p = station_pile(api)
    old = make_pile(api)
    now = iso(time.time())

    def kept_monitors(q=None):
        r = api.get(f"/charger/deviceModel?pileId={p.id}" + (f"&q={q}" if q else ""))
        assert r["code"] == 200, r
        return r["data"]["monitors"]

    async def go():
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            assert kept_monitors() == []
            monitors = [{"component": "EVSE", "evseId": 1, "variable": "Power", "type": "UpperThreshold", "value": 22000, "severity": 3},
                        {"component": "ChargingStation", "variable": "Temperature", "type": "Periodic", "value": 300},
                        {"component": "NoSuchThing", "variable": "Power", "type": "Delta", "value": 500}]
            done = await settle(api, (await post(api, "/charger/setVariableMonitoring", {"pileId": p.id, "monitors": monitors}))["data"]["id"])
            assert (done["action"], done["status"]) == ("SetVariableMonitoring", "answered"), done
            sent = cs.last("SetVariableMonitoring")[1]
            assert [(d["component"].get("evse"), d["type"], d["value"], d["severity"]) for d in sent] == [({"id": 1}, "UpperThreshold", 22000, 3), (None, "Periodic", 300, 5), (None, "Delta", 500, 5)], sent
            results = done["response"]["setMonitoringResult"]
            assert [(r["status"], r.get("id")) for r in results] == [("Accepted", 40), ("Accepted", 41), ("UnknownComponent", None)], results
            # The accepted ones are kept with the station's ids and shown with the device model.
            kept = {m["id"]: m for m in kept_monitors()}
            assert sorted(kept) == [40, 41], kept
            assert (kept[40]["component"], kept[40]["evseId"], kept[40]["variable"], kept[40]["type"], kept[40]["value"], kept[40]["severity"], kept[40]["transaction"], kept[40]["source"]) == \
                ("EVSE", 1, "Power", "UpperThreshold", 22000, 3, False, "set"), kept[40]
            assert (kept[41]["component"], kept[41]["evseId"], kept[41]["type"], kept[41]["value"], kept[41]["severity"]) == ("ChargingStation", None, "Periodic", 300, 5), kept[41]
            # The monitor trips: the station's events are answered and kept, newest first.
            tripped = {"event_id": 1, "timestamp": iso(time.time() - 5), "trigger": "Alerting", "actual_value": "23100", "event_notification_type": "CustomMonitor",
                       "component": {"name": "EVSE", "evse": {"id": 1}}, "variable": {"name": "Power"}, "variable_monitoring_id": 40}
            await cs.call(call.NotifyEvent(generated_at=now, seq_no=0, tbc=False, event_data=[tripped]))
            # Sent again (as a station does when its answer was lost): still one event.
            await cs.call(call.NotifyEvent(generated_at=now, seq_no=0, tbc=False, event_data=[tripped]))
            await cs.call(call.NotifyEvent(generated_at=now, seq_no=1, tbc=False, event_data=[
                {"event_id": 2, "timestamp": now, "trigger": "Delta", "actual_value": "a-secret-password-1", "event_notification_type": "HardWiredNotification",
                 "component": {"name": "SecurityCtrlr"}, "variable": {"name": "BasicAuthPassword"}, "cleared": True, "tech_code": "PW1"}]))
            dm = api.get(f"/charger/deviceModel?pileId={p.id}")
            assert dm["code"] == 200, dm
            events = dm["data"]["events"]
            assert [(e["eventId"], e["trigger"], e["notificationType"], e["component"], e["evseId"], e["variable"], e["actualValue"], e["cleared"], e["variableMonitoringId"]) for e in events] == [
                (2, "Delta", "HardWiredNotification", "SecurityCtrlr", None, "BasicAuthPassword", None, True, None),
                (1, "Alerting", "CustomMonitor", "EVSE", 1, "Power", "23100", False, 40)], events
            assert events[0]["techCode"] == "PW1" and "a-secret-password-1" not in json.dumps(dm), "the password is never kept"
            logged = json.dumps(api.get(f"/pile/messageLog?pileId={p.id}&action=NotifyEvent")["data"]["list"])
            assert "a-secret-password-1" not in logged and '"actualValue": "***"' in logged and '"actualValue": "23100"' in logged, logged
            assert [e["eventId"] for e in api.get(f"/charger/deviceModel?pileId={p.id}&q=power")["data"]["events"]] == [1], "the name filter applies to events too"
            cleared = await settle(api, (await post(api, "/charger/clearVariableMonitoring", {"pileId": p.id, "monitorIds": [40, 7]}))["data"]["id"])
            assert [r["status"] for r in cleared["response"]["clearMonitoringResult"]] == ["Accepted", "NotFound"] and cs.last("ClearVariableMonitoring")[1] == [40, 7]
            assert [m["id"] for m in kept_monitors()] == [41], "the cleared one is gone"
            report = await settle(api, (await post(api, "/charger/getMonitoringReport", {"pileId": p.id, "criteria": ["ThresholdMonitoring", "DeltaMonitoring"], "component": "EVSE", "evseId": 1}))["data"]["id"])
            _, request_id, criteria, component_variable = cs.last("GetMonitoringReport")
            assert report["response"]["status"] == "Accepted" and criteria == ["ThresholdMonitoring", "DeltaMonitoring"], report
            assert component_variable == [{"component": {"name": "EVSE", "evse": {"id": 1}}}], component_variable
            reported_at = int(time.time()) - 30
            await cs.call(call.NotifyMonitoringReport(request_id=request_id, seq_no=0, generated_at=iso(reported_at), tbc=False, monitor=[
                {"component": {"name": "EVSE", "evse": {"id": 1}}, "variable": {"name": "Power"},
                 "variable_monitoring": [{"id": 42, "transaction": True, "value": 500, "type": "Delta", "severity": 4}]}]))
            # What the station reports is kept too, beside what was set here.
            kept = {m["id"]: m for m in kept_monitors()}
            assert sorted(kept) == [41, 42], kept
            assert (kept[42]["type"], kept[42]["value"], kept[42]["severity"], kept[42]["transaction"], kept[42]["source"], kept[42]["knownAt"]) == ("Delta", 500, 4, True, "reported", reported_at), kept[42]
            assert [m["id"] for m in kept_monitors("power")] == [42], "the name filter applies to monitors too"

            profiles = await settle(api, (await post(api, "/charger/getChargingProfiles", {"pileId": p.id, "evseId": 0, "purpose": "ChargingStationMaxProfile", "chargingProfileIds": [3]}))["data"]["id"])
            _, request_id, evse_id, criterion = cs.last("GetChargingProfiles")
            assert (profiles["response"]["status"], evse_id, criterion) == ("Accepted", 0, {"charging_profile_purpose": "ChargingStationMaxProfile", "charging_profile_id": [3]}), (profiles, criterion)
            # The report that follows is kept as the pile's profiles, shown with its device model; one reported again replaces its record.
            station_max = {"id": 3, "stack_level": 2, "charging_profile_purpose": "ChargingStationMaxProfile", "charging_profile_kind": "Absolute",
                           "charging_schedule": [{"id": 1, "charging_rate_unit": "W", "charging_schedule_period": [{"start_period": 0, "limit": 40000.0}]}]}
            for limit_w in (50000.0, 40000.0):
                station_max["charging_schedule"][0]["charging_schedule_period"][0]["limit"] = limit_w
                await cs.call(call.ReportChargingProfiles(request_id=request_id, charging_limit_source="CSO", charging_profile=[station_max], evse_id=0, tbc=False))
            kept = api.get(f"/charger/deviceModel?pileId={p.id}")["data"]["chargingProfiles"]
            assert [(k["evseId"], k["id"], k["purpose"], k["stackLevel"], k["requestId"], k["schedules"][0]["chargingSchedulePeriod"][0]["limit"]) for k in kept] == \
                [(0, 3, "ChargingStationMaxProfile", 2, request_id, 40000.0)], kept
            none = await settle(api, (await post(api, "/charger/getChargingProfiles", {"pileId": p.id, "purpose": "TxProfile"}))["data"]["id"])
            assert none["response"]["status"] == "NoProfiles"

            customer = await settle(api, (await post(api, "/charger/customerInformation", {"pileId": p.id, "idTag": "CARD-201", "action": "ReportAndClear"}))["data"]["id"])
            _, request_id, report_flag, clear_flag, id_token, who = cs.last("CustomerInformation")
            assert (customer["response"]["status"], report_flag, clear_flag, id_token, who) == ("Accepted", True, True, {"id_token": "CARD-201", "type": "ISO14443"}, None), customer
            await cs.call(call.NotifyCustomerInformation(data="2 sessions, last 2026-11-30", seq_no=0, generated_at=now, request_id=request_id, tbc=False))
            await settle(api, (await post(api, "/charger/customerInformation", {"pileId": p.id, "customerIdentifier": "ACME-42", "action": "Clear"}))["data"]["id"])
            assert cs.last("CustomerInformation")[2:] == (False, True, None, "ACME-42")

            published = await settle(api, (await post(api, "/charger/publishFirmware", {"pileId": p.id, "location": "https://fw.example.com/ac22-7.bin", "checksum": "0123456789ABCDEF0123456789abcdef", "retries": 2}))["data"]["id"])
            _, location, checksum, request_id, retries = cs.last("PublishFirmware")
            assert (published["response"]["status"], location, checksum, retries) == ("Accepted", "https://fw.example.com/ac22-7.bin", "0123456789abcdef0123456789abcdef", 2), published
            await cs.call(call.PublishFirmwareStatusNotification(status="Published", location=["http://controller.local/ac22-7.bin"], request_id=request_id))

            # Bad bodies: a 400 naming the field, nothing sent.
            calls = len(cs.got)
            for path, body, field in [
                ("/charger/setVariableMonitoring", {"monitors": []}, "monitors"),
                ("/charger/setVariableMonitoring", {"monitors": [{"component": "EVSE", "variable": "Power", "value": 1}]}, "monitors[0].type"),
                ("/charger/setVariableMonitoring", {"monitors": [{"component": "EVSE", "variable": "Power", "type": "Periodic", "value": 0.5}]}, "monitors[0].value"),
                ("/charger/setVariableMonitoring", {"monitors": [{"component": "EVSE", "variable": "Power", "type": "Delta", "value": -1}]}, "monitors[0].value"),
                ("/charger/setVariableMonitoring", {"monitors": [{"component": "EVSE", "variable": "Power", "type": "UpperThreshold", "value": 1, "severity": 10}]}, "monitors[0].severity"),
                ("/charger/setVariableMonitoring", {"monitors": [{"component": "EVSE", "evseId": 9, "variable": "Power", "type": "UpperThreshold", "value": 1}]}, "monitors[0].evseId"),
                ("/charger/clearVariableMonitoring", {"monitorIds": []}, "monitorIds"),
                ("/charger/getMonitoringReport", {"variable": "Power"}, "component"),
                ("/charger/getMonitoringReport", {"criteria": []}, "criteria"),
                ("/charger/getChargingProfiles", {"evseId": 3}, "evseId"),
                ("/charger/getChargingProfiles", {"chargingProfileIds": [0]}, "chargingProfileIds"),
                ("/charger/customerInformation", {"action": "Report"}, "idTag"),
                ("/charger/customerInformation", {"idTag": "CARD-201"}, "action"),
                ("/charger/publishFirmware", {"location": "https://fw.example.com/x.bin", "checksum": "xyz"}, "checksum"),
                ("/charger/publishFirmware", {"location": "file:///etc/passwd", "checksum": "0" * 32}, "location"),
            ]:
                r = await post(api, path, {"pileId": p.id, **body})
                assert r["code"] == 400 and r["data"]["fields"][0]["field"] == field, (path, body, r)
            r = await post(api, "/charger/setVariableMonitoring", {"pileId": old.id, "monitors": monitors[:1]})
            assert r["code"] == 400 and r["data"]["fields"][0]["field"] == "pileId", r
            await asyncio.sleep(0.2)
            assert len(cs.got) == calls, cs.got[calls:]
        for action in ["SetVariableMonitoring", "NotifyEvent", "ClearVariableMonitoring", "GetMonitoringReport", "NotifyMonitoringReport", "GetChargingProfiles", "CustomerInformation", "NotifyCustomerInformation", "PublishFirmware", "PublishFirmwareStatusNotification"]:
            log = api.get(f"/pile/messageLog?pileId={p.id}&action={action}")["data"]["list"]
            assert log and all(e["action"] == action for e in log), (action, log)

    run(go())


def test_a_network_profile_goes_to_a_slot_with_its_secrets_never_stored(gateway, api):
    """SetNetworkProfile (B): the connection data as the 2.0.1 schema has
    it; VPN and APN secrets reach the station and are kept nowhere (the
    command and the message log show ***); bad fields are 400s naming
    their path, and a 1.6 pile is refused."""
    p = station_pile(api)
    old = make_pile(api)
    data = {"ocppVersion": "OCPP20", "ocppTransport": "JSON", "ocppCsmsUrl": "wss://csms.example.com/ocpp", "messageTimeout": 30, "securityProfile": 2, "ocppInterface": "Wired0"}

    async def go():
        async with v201(gateway["ws"], p) as cs:
            await cs.call(call.BootNotification(**BOOT))
            done = await settle(api, (await post(api, "/charger/setNetworkProfile", {"pileId": p.id, "configurationSlot": 2, "connectionData": data}))["data"]["id"])
            assert (done["action"], done["status"], done["response"]) == ("SetNetworkProfile", "answered", {"status": "Accepted"}), done
            _, slot, sent = cs.last("SetNetworkProfile")
            assert (slot, sent["ocpp_csms_url"], sent["security_profile"], sent["ocpp_interface"], sent["ocpp_version"]) == (2, "wss://csms.example.com/ocpp", 2, "Wired0", "OCPP20"), sent
            secret = {**data, "vpn": {"server": "vpn.example.com", "user": "op", "password": "vpn-pass-1", "key": "vpn-shared-key", "type": "IPSec"},
                      "apn": {"apn": "internet.example", "apnPassword": "apn-pass-1", "simPin": 4321, "apnAuthentication": "AUTO"}}
            done = await settle(api, (await post(api, "/charger/setNetworkProfile", {"pileId": p.id, "configurationSlot": 3, "connectionData": secret}))["data"]["id"])
            assert done["status"] == "answered", done
            sent = cs.last("SetNetworkProfile")[2]
            assert (sent["vpn"]["password"], sent["vpn"]["key"], sent["apn"]["apn_password"], sent["apn"]["sim_pin"]) == ("vpn-pass-1", "vpn-shared-key", "apn-pass-1", 4321), sent
            for path in (f"/charger/commands?pileId={p.id}&pageSize=20", f"/pile/messageLog?pileId={p.id}"):
                text = str(api.get(path)["data"])
                assert all(s not in text for s in ("vpn-pass-1", "vpn-shared-key", "apn-pass-1")), path
            kept = done["payload"]["connectionData"]
            assert (kept["vpn"]["password"], kept["vpn"]["key"], kept["apn"]["apnPassword"], "simPin" in kept["apn"]) == ("***", "***", "***", False), done
            for body, field in [({"connectionData": data}, "configurationSlot"),
                                ({"configurationSlot": 1, "connectionData": {**data, "ocppCsmsUrl": "ws://csms.example.com/ocpp"}}, "connectionData.ocppCsmsUrl"),
                                ({"configurationSlot": 1, "connectionData": {**data, "securityProfile": 0}}, "connectionData.securityProfile"),
                                ({"configurationSlot": 1, "connectionData": {**data, "ocppInterface": "Wired9"}}, "connectionData.ocppInterface"),
                                ({"configurationSlot": 1, "connectionData": {**data, "apn": {"apn": "a", "apnUserName": "u" * 21, "apnAuthentication": "PAP"}}}, "connectionData.apn.apnUserName")]:
                r = await post(api, "/charger/setNetworkProfile", {"pileId": p.id, **body})
                assert r["code"] == 400 and r["data"]["fields"][0]["field"] == field, (body, r)
            r = await post(api, "/charger/setNetworkProfile", {"pileId": old.id, "configurationSlot": 1, "connectionData": data})
            assert r["code"] == 400 and r["data"]["fields"][0]["field"] == "pileId", r

    run(go())
