"""An OCPP 2.0.1 charging station scripted with the PyPI `ocpp` package
(`ocpp.v201`) for the end-to-end tests: connects with Basic auth offering
ocpp2.0.1, boots, reports its EVSEs, runs one transaction (TransactionEvent
Started with an idToken, Updated meter values, Ended), prints
"session done 1", and then stays connected answering the CSMS's device
model calls until "quit" arrives on stdin.

Usage: python station201.py WS_BASE CHARGE_POINT_ID PASSWORD ID_TAG
"""
import asyncio
import base64
import sys
import time

import websockets
from ocpp.routing import on
from ocpp.v201 import ChargePoint, call, call_result

from charger import until_quit


def iso(ts):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


class Station(ChargePoint):
    variables = {("OCPPCommCtrlr", "HeartbeatInterval"): "60", ("DeviceDataCtrlr", "ItemsPerMessage"): "20"}

    @on("GetVariables")
    async def on_get_variables(self, get_variable_data, **kw):
        out = []
        for d in get_variable_data:
            key = (d["component"]["name"], d["variable"]["name"])
            value = self.variables.get(key)
            out.append({"attribute_status": "Accepted" if value is not None else "UnknownVariable", "component": d["component"], "variable": d["variable"], **({"attribute_value": value} if value is not None else {})})
        print("server asked: GetVariables", [k for k in (d["variable"]["name"] for d in get_variable_data)], flush=True)
        return call_result.GetVariables(get_variable_result=out)

    @on("SetVariables")
    async def on_set_variables(self, set_variable_data, **kw):
        out = []
        for d in set_variable_data:
            key = (d["component"]["name"], d["variable"]["name"])
            known = key in self.variables
            if known:
                self.variables[key] = d["attribute_value"]
            out.append({"attribute_status": "Accepted" if known else "UnknownVariable", "component": d["component"], "variable": d["variable"]})
        print("server asked: SetVariables", self.variables, flush=True)
        return call_result.SetVariables(set_variable_result=out)

    @on("GetBaseReport")
    async def on_get_base_report(self, request_id, report_base, **kw):
        asyncio.get_running_loop().call_later(0.3, lambda: asyncio.ensure_future(self.report(request_id)))
        return call_result.GetBaseReport(status="Accepted")

    async def report(self, request_id):
        data = [{"component": {"name": c}, "variable": {"name": v}, "variable_attribute": [{"type": "Actual", "value": value, "mutability": "ReadWrite"}]} for (c, v), value in self.variables.items()]
        await self.call(call.NotifyReport(request_id=request_id, generated_at=iso(time.time()), seq_no=0, tbc=False, report_data=data))
        print("reported", request_id, flush=True)

    @on("SetDisplayMessage")
    async def on_set_display_message(self, message, **kw):
        print("server asked: SetDisplayMessage", message["message"]["content"], flush=True)
        return call_result.SetDisplayMessage(status="Accepted")

    @on("TriggerMessage")
    async def on_trigger(self, requested_message, **kw):
        return call_result.TriggerMessage(status="Accepted")

    @on("CostUpdated")
    async def on_cost_updated(self, total_cost, transaction_id, **kw):
        print("server asked: CostUpdated", total_cost, flush=True)
        return call_result.CostUpdated()


def energy(wh, context="Sample.Periodic"):
    return {"value": wh, "context": context, "measurand": "Energy.Active.Import.Register", "unit_of_measure": {"unit": "Wh"}}


async def main(base, cp_id, password, id_tag):
    auth = "Basic " + base64.b64encode(f"{cp_id}:{password}".encode()).decode()
    async with websockets.connect(f"{base}/{cp_id}", subprotocols=["ocpp2.0.1"], extra_headers={"Authorization": auth}) as ws:
        cs = Station(cp_id, ws)
        runner = asyncio.create_task(cs.start())
        boot = await cs.call(call.BootNotification(charging_station={"vendor_name": "E2E Volt", "model": "AC22-201", "firmware_version": "3.1.0"}, reason="PowerUp"))
        print("booted", boot.status, flush=True)
        for evse in (1, 2):
            await cs.call(call.StatusNotification(timestamp=iso(time.time()), connector_status="Available", evse_id=evse, connector_id=1))
        # A monitor trips: the cabinet runs hot.
        now = iso(time.time())
        await cs.call(call.NotifyEvent(generated_at=now, seq_no=0, tbc=False, event_data=[{"event_id": 1, "timestamp": now, "trigger": "Alerting", "actual_value": "71", "event_notification_type": "CustomMonitor",
                                                                                           "component": {"name": "ChargingStation"}, "variable": {"name": "Temperature"}, "variable_monitoring_id": 3}]))
        start = int(time.time()) - 1800
        tx = "E2E-TX-1"
        event = lambda kind, seq, ts, trigger, values, **kw: call.TransactionEvent(event_type=kind, timestamp=iso(ts), trigger_reason=trigger, seq_no=seq,
                                                                                transaction_info={"transaction_id": tx, **kw.pop("info", {})}, meter_value=[{"timestamp": iso(ts), "sampled_value": values}], **kw)
        started = await cs.call(event("Started", 0, start, "Authorized", [energy(30_000, "Transaction.Begin")], evse={"id": 1, "connector_id": 1},
                                      id_token={"id_token": id_tag, "type": "ISO14443"}, info={"charging_state": "Charging"}))
        print("started", started.id_token_info["status"], flush=True)
        for i, wh in enumerate([33_000, 36_500], start=1):
            await cs.call(event("Updated", i, start + i * 600, "MeterValuePeriodic", [energy(wh)]))
        ended = await cs.call(event("Ended", 3, start + 1700, "StopAuthorized", [energy(40_000, "Transaction.End")], info={"stopped_reason": "Local"}))
        await cs.call(call.StatusNotification(timestamp=iso(time.time()), connector_status="Available", evse_id=1, connector_id=1))
        print(f"total cost {ended.total_cost}", flush=True)
        print("session done 1", flush=True)
        await until_quit()
        runner.cancel()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:5]))
