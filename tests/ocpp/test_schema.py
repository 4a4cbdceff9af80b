"""Every frame a charger sends is held to its OCPP 1.6 schema: a charger
scripted with the PyPI package, its own schema checks skipped, reaches each
CALLERROR the OCPP-J specification names with a malformed frame (the
field's path in the description), and what real chargers get wrong in ways
that leave no doubt (numbers as strings, an idTag as a number, a timestamp
without an offset, an enumeration value the schema does not list, null for
an absent field) is still answered."""
import asyncio
import dataclasses
import json
import time

import pytest
import websockets
from ocpp.exceptions import (
    FormationViolationError,
    NotImplementedError as OcppNotImplemented,
    NotSupportedError,
    OccurenceConstraintViolationError,
    PropertyConstraintViolationError,
    TypeConstraintViolationError,
)
from ocpp.v16 import call

from conftest import Connection, iso


def run(coro):
    return asyncio.run(coro)


def payload(action, **fields):
    """A payload of `action` with any fields at all (the package names the
    action after the payload's class)."""
    return dataclasses.make_dataclass(action, list(fields))(**fields)


def now():
    return iso(time.time())


def test_each_callerror_is_reached_by_a_malformed_frame_and_names_the_field(gateway, pile, api):
    p = pile()
    start = dict(connector_id=1, id_tag="DEMO0001", meter_start=0, timestamp=now())
    cases = [
        (payload("Heartbeat", vendor_extra=1), FormationViolationError, "vendorExtra is not a field of this message"),
        (call.StartTransaction(**{**start, "id_tag": "T" * 21}), TypeConstraintViolationError, "idTag is at most 20 characters (CiString20Type); got 21"),
        (call.StartTransaction(**{**start, "id_tag": ["DEMO0001"]}), TypeConstraintViolationError, "idTag must be a string (got an array)"),
        (call.StartTransaction(**{**start, "meter_start": 1.5}), TypeConstraintViolationError, "meterStart must be an integer"),
        (call.StartTransaction(**{**start, "timestamp": "yesterday"}), TypeConstraintViolationError, "timestamp must be a dateTime"),
        (payload("StatusNotification", connector_id=1, error_code="NoError"), OccurenceConstraintViolationError, "status is required"),
        (
            call.MeterValues(connector_id=1, meter_value=[{"timestamp": now(), "sampledValue": [{"value": "10"}, {"unit": "Wh"}]}]),
            OccurenceConstraintViolationError,
            "meterValue[0].sampledValue[1].value is required",
        ),
        (call.StatusNotification(connector_id=1, error_code="NoError", status="S" * 60), PropertyConstraintViolationError, "status is not a value of its enumeration"),
        (payload("NoSuchAction"), OcppNotImplemented, "unknown action NoSuchAction"),
        (call.Reset(type="Hard"), NotSupportedError, "Reset is sent by the central system, not by a charge point"),
        # The security extension's messages are answered now; a CiString past its limit is not.
        (call.SecurityEventNotification(type="T" * 51, timestamp=now(), tech_info=None), TypeConstraintViolationError, "type is at most 50 characters"),
    ]

    async def go():
        async with Connection(gateway["ws"], p) as cp:
            refused = []
            for message, _, _ in cases:
                try:
                    await cp.call(message, suppress=False, skip_schema_validation=True)
                    refused.append(None)
                except Exception as e:  # the CALLERROR, as the package raises it
                    refused.append(e)
            return refused

    for (message, error, words), got in zip(cases, run(go())):
        assert isinstance(got, error), (message, got)
        assert got.description.startswith(words), (message, got.description)
    log = api.get(f"/pile/messageLog?pileId={p.id}&action=StartTransaction")["data"]["list"]
    assert {e["error"]["code"] for e in log} == {"TypeConstraintViolation"}, "the message log keeps each refusal with its code"
    orders = api.get("/order/getList?userId=DEMO0001&pageSize=100")["data"]["list"]
    assert not any(o["pileId"] == p.id for o in orders), "nothing of a refused frame is stored"


def test_what_real_chargers_get_wrong_is_still_answered(gateway, pile, api):
    p = pile()

    async def raw_call(ws, message_id, action, body):
        await ws.send(json.dumps([2, message_id, action, body]))
        return json.loads(await ws.recv())

    async def go():
        url = f"{gateway['ws']}/{p.code}"
        async with websockets.connect(url, subprotocols=["ocpp1.6"], extra_headers={"Authorization": p.basic}) as ws:
            answers = {
                "an idTag as a number": await raw_call(ws, "1", "Authorize", {"idTag": 12345}),
                "numbers as strings, no offset": await raw_call(ws, "2", "StartTransaction", {"connectorId": "1", "idTag": "DEMO0002", "meterStart": "100", "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())}),
                "an unlisted value, null for absent": await raw_call(ws, "3", "StatusNotification", {"connectorId": 2, "status": "SomethingNew", "errorCode": "NoError", "info": None, "timestamp": now()}),
                "a unit in another letter case": await raw_call(ws, "4", "MeterValues", {"connectorId": 1, "meterValue": [{"timestamp": now(), "sampledValue": [{"value": 2.5, "unit": "kwh"}]}]}),
            }
            tx = answers["numbers as strings, no offset"][2]["transactionId"]
            # Broken everywhere, and still confirmed: a CALLERROR would be sent again for ever.
            stop = await raw_call(ws, "5", "StopTransaction", {"transactionId": tx, "meterStop": "x", "timestamp": "soon", "idTag": "T" * 21, "reason": "R" * 60, "vendorExtra": 1})
            return answers, stop, tx

    answers, stop, tx = run(go())
    for what, answer in answers.items():
        assert answer[0] == 3, (what, answer)
    assert answers["an idTag as a number"][2]["idTagInfo"]["status"] == "Invalid", "read as the text 12345 (no such card)"
    assert stop[0] == 3 and stop[2] == {"idTagInfo": {"status": "Invalid"}}, stop
    order = next(o for o in api.get("/order/getList?userId=DEMO0002&pageSize=100")["data"]["list"] if o["transactionId"] == tx)
    assert order["status"] != "charging", "the stop closed the session"
