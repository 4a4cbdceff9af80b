"""A charger scripted with the PyPI `ocpp` package for the end-to-end
tests: connects with Basic auth, boots, reports status, runs one charging
session (start, meter values, stop) and then stays connected, answering
the server's calls, until "quit" arrives on stdin (then it disconnects). It
prints one line per step so the test can follow it.

With --live the session stays running instead: a meter value every second
(no state of charge: this charger does not report it) until the server
asks for a remote stop.

Usage: python charger.py WS_BASE CHARGE_POINT_ID PASSWORD ID_TAG [--live]
"""
import asyncio
import base64
import sys
import time

import websockets
from ocpp.routing import on
from ocpp.v16 import ChargePoint, call, call_result


def iso(ts):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


class Charger(ChargePoint):
    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        # Remotely started sessions: transaction id -> connector.
        self.sessions = {}

    @on("Reset")
    async def on_reset(self, type, **kw):
        print("server asked: Reset", type, flush=True)
        # Restarts as a charger does: its BootNotification follows (the
        # server holds the queued calls until then).
        asyncio.get_running_loop().call_later(0.3, lambda: asyncio.ensure_future(self.rebooted()))
        return call_result.Reset(status="Accepted")

    async def rebooted(self):
        await self.call(call.BootNotification(charge_point_vendor="E2E Motors", charge_point_model="EV-DC60", firmware_version="2.4.1"))
        print("rebooted", flush=True)

    @on("GetConfiguration")
    async def on_get_configuration(self, **kw):
        return call_result.GetConfiguration(configuration_key=[
            {"key": "HeartbeatInterval", "readonly": False, "value": "60"},
            {"key": "NumberOfConnectors", "readonly": True, "value": "2"},
        ])

    @on("ChangeConfiguration")
    async def on_change_configuration(self, key, value, **kw):
        if key == "AuthorizationKey":
            # The test checks the page never shows it.
            print("new key", value, flush=True)
            return call_result.ChangeConfiguration(status="Accepted")
        return call_result.ChangeConfiguration(status="Accepted" if key == "HeartbeatInterval" else "NotSupported")

    @on("RemoteStartTransaction")
    async def on_remote_start(self, id_tag, connector_id=None, **kw):
        print("server asked: RemoteStart", connector_id, id_tag, flush=True)
        asyncio.get_running_loop().call_later(0.3, lambda: asyncio.ensure_future(self.remote_session(connector_id or 1, id_tag)))
        return call_result.RemoteStartTransaction(status="Accepted")

    @on("RemoteStopTransaction")
    async def on_remote_stop(self, transaction_id, **kw):
        print("server asked: RemoteStop", transaction_id, flush=True)
        if transaction_id == getattr(self, "live_tx", None):
            # The running loop sends the stop after its next meter value.
            self.stopping = True
        else:
            asyncio.get_running_loop().call_later(0.3, lambda: asyncio.ensure_future(self.remote_stop(transaction_id)))
        return call_result.RemoteStopTransaction(status="Accepted")

    async def remote_session(self, connector, id_tag):
        start = int(time.time()) - 600
        started = await self.call(call.StartTransaction(connector_id=connector, id_tag=id_tag, meter_start=50_000, timestamp=iso(start)))
        tx = started.transaction_id
        self.sessions[tx] = connector
        await self.call(call.StatusNotification(connector_id=connector, error_code="NoError", status="Charging", timestamp=iso(time.time())))
        await self.call(call.MeterValues(connector_id=connector, transaction_id=tx, meter_value=[{"timestamp": iso(start + 300), "sampledValue": [{"value": "52000"}]}]))
        print(f"remote session started {tx} {started.id_tag_info['status']}", flush=True)

    async def remote_stop(self, tx):
        await self.call(call.StopTransaction(transaction_id=tx, meter_stop=54_500, timestamp=iso(time.time()), reason="Remote"))
        connector = self.sessions.pop(tx, None)
        if connector:
            await self.call(call.StatusNotification(connector_id=connector, error_code="NoError", status="Available", timestamp=iso(time.time())))
        print(f"remote session stopped {tx}", flush=True)

    @on("ChangeAvailability")
    async def on_change_availability(self, connector_id, type, **kw):
        print("server asked: ChangeAvailability", connector_id, type, flush=True)
        return call_result.ChangeAvailability(status="Accepted")

    @on("ReserveNow")
    async def on_reserve_now(self, connector_id, expiry_date, id_tag, reservation_id, **kw):
        print("server asked: ReserveNow", connector_id, expiry_date, id_tag, flush=True)
        return call_result.ReserveNow(status="Accepted")

    @on("UpdateFirmware")
    async def on_update_firmware(self, location, retrieve_date, **kw):
        print("server asked: UpdateFirmware", location, retrieve_date, flush=True)
        return call_result.UpdateFirmware()

    @on("UnlockConnector")
    async def on_unlock(self, connector_id, **kw):
        print("server asked: UnlockConnector", connector_id, flush=True)
        return call_result.UnlockConnector(status="Unlocked")

    @on("SetChargingProfile")
    async def on_set_charging_profile(self, connector_id, cs_charging_profiles, **kw):
        limit = cs_charging_profiles["charging_schedule"]["charging_schedule_period"][0]["limit"]
        print("server asked: SetChargingProfile", connector_id, cs_charging_profiles["charging_profile_id"], limit, flush=True)
        return call_result.SetChargingProfile(status="Accepted")

    @on("ClearChargingProfile")
    async def on_clear_charging_profile(self, **kw):
        print("server asked: ClearChargingProfile", kw.get("id"), flush=True)
        return call_result.ClearChargingProfile(status="Accepted")

    @on("TriggerMessage")
    async def on_trigger(self, requested_message, **kw):
        return call_result.TriggerMessage(status="Accepted")

    @on("CancelReservation")
    async def on_cancel_reservation(self, reservation_id, **kw):
        return call_result.CancelReservation(status="Accepted")

    @on("GetCompositeSchedule")
    async def on_composite(self, connector_id, duration, **kw):
        # Two hours from now: 22 kW for the first hour, 11 kW for the second.
        return call_result.GetCompositeSchedule(status="Accepted", connector_id=connector_id, schedule_start=iso(time.time()), charging_schedule={
            "duration": 7200, "chargingRateUnit": "W",
            "chargingSchedulePeriod": [{"startPeriod": 0, "limit": 22000}, {"startPeriod": 3600, "limit": 11000}]})

    async def live_session(self, id_tag):
        """A session that runs until the server stops it: a meter value every second."""
        self.live_tx = (await self.call(call.StartTransaction(connector_id=1, id_tag=id_tag, meter_start=100_000, timestamp=iso(time.time())))).transaction_id
        await self.call(call.StatusNotification(connector_id=1, error_code="NoError", status="Charging", timestamp=iso(time.time())))
        print(f"live session started {self.live_tx}", flush=True)
        wh = 100_000
        while not self.stopping:
            await asyncio.sleep(1)
            wh += 150
            await self.call(call.MeterValues(connector_id=1, transaction_id=self.live_tx, meter_value=[{"timestamp": iso(time.time()), "sampledValue": [
                {"value": str(wh), "measurand": "Energy.Active.Import.Register", "unit": "Wh"},
                {"value": "9", "measurand": "Power.Active.Import", "unit": "kW"}]}]))
        await self.call(call.StopTransaction(transaction_id=self.live_tx, meter_stop=wh, timestamp=iso(time.time()), reason="Remote"))
        await self.call(call.StatusNotification(connector_id=1, error_code="NoError", status="Available", timestamp=iso(time.time())))
        print(f"live session stopped {self.live_tx}", flush=True)


async def until_quit():
    """Waits for the test's "quit" on stdin (or its end): the charger stays connected until then."""
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line or line.strip() == "quit":
            return


async def main(base, cp_id, password, id_tag, live=False):
    auth = "Basic " + base64.b64encode(f"{cp_id}:{password}".encode()).decode()
    async with websockets.connect(f"{base}/{cp_id}", subprotocols=["ocpp1.6"], extra_headers={"Authorization": auth}) as ws:
        cp = Charger(cp_id, ws)
        cp.stopping = False
        runner = asyncio.create_task(cp.start())
        boot = await cp.call(call.BootNotification(charge_point_vendor="E2E Motors", charge_point_model="EV-DC60", firmware_version="2.4.1"))
        print("booted", boot.status, flush=True)
        await cp.call(call.StatusNotification(connector_id=1, error_code="NoError", status="Preparing", timestamp=iso(time.time())))
        if live:
            session = asyncio.create_task(cp.live_session(id_tag))
            await until_quit()
            session.cancel()
            runner.cancel()
            return
        start = int(time.time()) - 1800
        tx = (await cp.call(call.StartTransaction(connector_id=1, id_tag=id_tag, meter_start=10_000, timestamp=iso(start)))).transaction_id
        await cp.call(call.StatusNotification(connector_id=1, error_code="NoError", status="Charging", timestamp=iso(time.time())))
        for i, wh in enumerate([13_000, 16_500, 20_000], start=1):
            await cp.call(call.MeterValues(connector_id=1, transaction_id=tx, meter_value=[{"timestamp": iso(start + i * 500), "sampledValue": [
                {"value": str(wh), "measurand": "Energy.Active.Import.Register", "unit": "Wh"},
                {"value": "25", "measurand": "Power.Active.Import", "unit": "kW"},
                {"value": str(40 + 10 * i), "measurand": "SoC", "unit": "Percent"}]}]))
        await cp.call(call.StopTransaction(transaction_id=tx, meter_stop=21_000, timestamp=iso(start + 1700), reason="Local"))
        await cp.call(call.StatusNotification(connector_id=1, error_code="NoError", status="Available", timestamp=iso(time.time())))
        print(f"session done {tx}", flush=True)
        await until_quit()
        runner.cancel()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:5], live="--live" in sys.argv[5:]))
