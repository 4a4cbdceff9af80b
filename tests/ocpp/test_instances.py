"""Two gateway instances behind one (imagined) load balancer, sharing one
DynamoDB table (moto): a charger connected to A gets a command asked of
B's API (forwarded to A's internal endpoint, answered on A's socket);
A is killed with a call in flight and another queued, the charger
reconnects to B, the call in flight ends at once and the queued one
reaches it through B. A YKC pile on A is reached from B the same way."""
import asyncio
import json
import os
import secrets
import socket
import subprocess
import time
import urllib.error
import urllib.request
import uuid

import pytest
from ocpp.routing import on
from ocpp.v16 import call, call_result

from conftest import ROOT, Api, Charger, Connection, free_port, make_pile, start_gateway
from test_remote import post, settle
from test_ykc import online, ykc_pile
from test_ykc import settle as settle_now


class Slow(Charger):
    """Never answers GetDiagnostics in time (the call stays in flight)."""

    @on("GetDiagnostics")
    async def on_get_diagnostics(self, location, **kw):
        await asyncio.sleep(120)
        return call_result.GetDiagnostics()


@pytest.fixture
def moto():
    port = free_port()
    python = os.environ.get("BACKOFFICE_TOOLS_VENV", str(ROOT / "target/tools-venv")) + "/bin/python"
    proc = subprocess.Popen([python, str(ROOT / "scripts/moto-server.py"), "-H", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            if time.time() > deadline or proc.poll() is not None:
                raise RuntimeError("moto did not start")
            time.sleep(0.2)
    yield f"http://127.0.0.1:{port}"
    proc.kill()
    proc.wait()


def instance(endpoint, table, jwt, shared, **extra):
    port = free_port()
    env = {
        "BACKOFFICE_STORE": "dynamo", "BACKOFFICE_DYNAMO_ENDPOINT": endpoint, "BACKOFFICE_TABLE": table,
        "BACKOFFICE_JWT_SECRET": jwt, "BACKOFFICE_INSTANCE_SECRET": shared,
        "BACKOFFICE_INSTANCE_URL": f"http://127.0.0.1:{port}", "BACKOFFICE_DEMO_ORDERS": "20", **extra,
    }
    proc, info = start_gateway(env)
    info["internal"] = f"http://127.0.0.1:{port}"
    return proc, info


def connection_records(endpoint, table):
    import boto3
    db = boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test")
    items = db.scan(TableName=table, FilterExpression="SK = :c", ExpressionAttributeValues={":c": {"S": "CONN"}})["Items"]
    return {i["connectionId"]["S"]: json.loads(json.dumps(i.get("instance", {}))) for i in items}


def test_a_command_reaches_a_charger_on_another_instance_and_the_queue_survives_its_death(moto):
    table = "instances-" + uuid.uuid4().hex[:8]
    jwt, shared = secrets.token_hex(32), secrets.token_hex(32)
    proc_a, a = instance(moto, table, jwt, shared)
    proc_b, b = None, None
    try:
        proc_b, b = instance(moto, table, jwt, shared)
        api_a, api_b = Api(a["base"]), Api(b["base"])
        p = make_pile(api_a)

        # The internal endpoint takes only signed calls.
        unsigned = urllib.request.Request(a["internal"] + "/internal/link/send", method="POST", data=b'{"pileId":"x","connectionId":"y","frame":"[]"}')
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(unsigned, timeout=5)
        assert refused.value.code == 401

        # A YKC pile on A: B's command is forwarded as text, and A makes
        # the YKC frame.
        y_pile = ykc_pile(api_a)
        with online(a, y_pile) as y:
            r = api_b.post("/charger/reset", {"pileId": y_pile.id, "type": "Hard"})
            assert r["code"] == 200 and r["data"]["status"] == "sent", r
            assert y.answer_reboot(result=1) in (1, 2)
            done = settle_now(api_b, r["data"]["id"])
            assert (done["status"], done["response"]["status"]) == ("answered", "Accepted"), done

        async def go():
            async with Connection(a["ws"], p, cls=Slow) as cp:
                await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60"))
                # The connection record names A.
                records = connection_records(moto, table)
                assert any(r.get("M", {}).get("url", {}).get("S") == a["internal"] for r in records.values()), records
                # Asked of B, answered on A's socket, completed.
                conf = await settle(api_b, (await post(api_b, "/charger/getConfiguration", {"pileId": p.id}))["data"]["id"])
                assert (conf["status"], conf["response"]["configurationKey"][0]["key"]) == ("answered", "HeartbeatInterval"), conf
                # A call in flight on A, another queued behind it, then A dies.
                stuck = await post(api_b, "/charger/getDiagnostics", {"pileId": p.id, "location": "ftp://diag.example.com/"})
                assert stuck["data"]["status"] == "sent", stuck
                queued = await post(api_b, "/charger/getConfiguration", {"pileId": p.id})
                assert queued["data"]["status"] == "queued", queued
                proc_a.kill()
                proc_a.wait()
            # The charger reconnects, through the load balancer, to B.
            back = time.time()
            async with Connection(b["ws"], p) as cp:
                await cp.call(call.BootNotification(charge_point_vendor="ACME", charge_point_model="DC60"))
                ended = await settle(api_b, stuck["data"]["id"])
                assert ended["status"] == "connectionClosed", ended
                done = await settle(api_b, queued["data"]["id"])
                assert done["status"] == "answered" and done["response"]["configurationKey"][0]["key"] == "HeartbeatInterval", done
                assert time.time() - back < 10, "the queue went on without waiting for a time-out"
                # The old connection's record is gone; the new one names B.
                records = connection_records(moto, table)
                assert [r["M"]["url"]["S"] for r in records.values()] == [b["internal"]], records
                # And a command goes straight to it.
                again = await settle(api_b, (await post(api_b, "/charger/clearCache", {"pileId": p.id}))["data"]["id"])
                assert again["status"] in ("answered", "callError"), again

        asyncio.run(go())
    finally:
        for proc in (proc_a, proc_b):
            if proc and proc.poll() is None:
                proc.terminate()
                proc.wait(timeout=20)
