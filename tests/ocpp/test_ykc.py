"""The 云快充 (YKC) server side, driven over TCP by a pile scripted from the
specification V1.6 (`ykc_pile.py` on the primitives of `tests/ykc/pile.py`):
login (accepted, refused, frames before it), heartbeat and time sync,
real-time data as connector status and curve, the tariff model, card
starts, transaction records as priced orders (anomalies, repeats, unknown
orders), remote start/stop and reboot, offline piles and OCPP-only
operations, the message log and bad frames. Every test has its own pile and
checks what a user sees through the API."""
import json
import time
import uuid

import pytest

from conftest import Pile, operating_station
from ykc_pile import BJ, RATE_OF_TIER, TIER_OF_RATE, ZERO_ORDER, YkcPile, bcd, bj, frame, unbcd, unix

EDITOR_PW = "editor-pass-123"


# ----------------------------------------------------------------- helpers

def poll(what, check, timeout=10.0, every=0.1):
    """Calls `what()` until `check(value)` holds; returns the last value."""
    deadline = time.time() + timeout
    while True:
        value = what()
        if check(value):
            return value
        if time.time() > deadline:
            raise AssertionError(f"timed out; last value: {json.dumps(value, ensure_ascii=False, default=str)[:2000]}")
        time.sleep(every)


def no_start_byte_in(hex_digits):
    return "68" not in [hex_digits[i:i + 2] for i in range(0, len(hex_digits), 2)]


def pile_number():
    """A fresh 14-digit pile number (none of its BCD bytes is 0x68, the start
    byte, so the bad-frame test can build frames the decoder cannot resync in)."""
    while True:
        n = "55" + str(uuid.uuid4().int)[:12]
        if no_start_byte_in(n):
            return n


def card_number():
    """A 16-hex-digit physical card number without leading zeros (the
    8-byte BIN field holds it whole)."""
    while True:
        n = "D" + uuid.uuid4().hex[:15].upper()
        if no_start_byte_in(n):
            return n


def slots_to_segments(slots):
    out = []
    for i, tier in enumerate(slots):
        if out and out[-1]["tier"] == tier:
            out[-1]["end"] = i + 1
        else:
            out.append({"start": i, "end": i + 1, "tier": tier})
    label = lambda b: f"{b // 2:02}:{(b % 2) * 30:02}"
    return [{"start": label(s["start"]), "end": label(s["end"]), "tier": s["tier"]} for s in out]


# Prices in 0.0001 yuan/kWh, multiples of 50: any energy of whole 2 kWh is an
# exact number of fen at every tier, so the pile's bill (0.0001 yuan) and the
# product's (fen) agree whatever the rounding.
PRICES = {"sharp": {"electricity": 12000, "service": 8000}, "peak": {"electricity": 9500, "service": 6000},
          "flat": {"electricity": 6250, "service": 4000}, "valley": {"electricity": 3000, "service": 2500}}


def now_slot():
    return int(((time.time() + BJ) % 86400) // 1800)


def add_station(api, slots, prices=PRICES, name="YKC"):
    """A tariff of these 48 slots and a station of its own using it."""
    tariff = api.post("/tariff/doAdd", {"name": f"{name} {uuid.uuid4().hex[:6]}", "segments": slots_to_segments(slots),
                                        "prices": prices})
    assert tariff["code"] == 200, tariff
    tariff_id = tariff["data"]["template"]["id"]
    added = api.post("/station/doAdd", {
        "code": "YK" + uuid.uuid4().hex[:8].upper(), "name": f"云快充测试站{uuid.uuid4().hex[:4]}", "operator": "测试运营商",
        "provinceCode": "450000", "cityCode": "450100", "districtCode": "450102", "address": "南宁市兴宁区民族大道1号",
        "lat": 22.817, "lng": 108.366, "openingHours": "00:00-24:00", "status": "operating",
        "servicePhone": "0771-12345678", "parkingInfo": "", "tariffId": tariff_id})
    assert added["code"] == 200, added
    return added["data"]["id"], tariff_id


_STATION = {}


def ykc_station(api):
    """The station the session tests share (one per gateway): a tariff with
    four tiers whose three hours either side of now are all flat, so a
    session of the last minutes is priced at one tier."""
    if api.base not in _STATION:
        slots = ["valley"] * 16 + ["peak"] * 8 + ["flat"] * 4 + ["peak"] * 6 + ["sharp"] * 4 + ["peak"] * 6 + ["valley"] * 4
        here = now_slot()
        for d in range(-6, 7):
            slots[(here + d) % 48] = "flat"
        _STATION[api.base] = add_station(api, slots)
    return _STATION[api.base]


def ykc_pile(api, version="ykc1.6", station_id=None, **extra):
    """A YKC pile registered through the pile API (two DC guns)."""
    station_id = station_id or operating_station(api)["id"]
    code = pile_number()
    body = {"stationId": station_id, "code": code, "pileType": "dc", "ratedPowerKw": 120, "heartbeatIntervalSecs": 60,
            "ocppVersion": version,
            "connectors": [{"standard": "gbt2015", "maxPowerKw": 120}, {"standard": "gbt2015", "maxPowerKw": 120}]}
    body.update(extra)
    added = api.post("/pile/doAdd", body)
    assert added["code"] == 200, added
    return Pile(api, code, added["data"]["id"], station_id, None, 2)


def add_card(api, status="Accepted", **extra):
    number = card_number()
    added = api.post("/card/doAdd", {"idTag": number, "holder": "云快充测试", "plate": "", "status": status,
                                     "expiresAt": None, "parentIdTag": None, **extra})
    assert added["code"] == 200, added
    return number


def connect(gateway, p, version="1.6", **kw):
    return YkcPile(gateway["ykc_port"], p.code, version, **kw)


def online(gateway, p, version="1.6"):
    """A connected, logged-in pile that has heartbeat on both guns."""
    y = connect(gateway, p, version)
    y.log_in()
    y.heartbeat("01")
    y.heartbeat("02")
    return y


def connector(p, n):
    return p.view()["connectors"][n - 1]


def orders_of(api, p, **filters):
    """The pile's orders (newest first), every page."""
    query = "&".join(f"{k}={v}" for k, v in {"stationId": p.station_id, "pageSize": 500, **filters}.items())
    out, cursor = [], None
    while True:
        page = api.get(f"/order/getList?{query}" + (f"&cursor={cursor}" if cursor else ""))
        assert page["code"] == 200, page
        out += [o for o in page["data"]["list"] if o["pileId"] == p.id]
        cursor = page["data"]["cursor"]
        if not cursor:
            return out


def detail(api, order):
    d = api.get(f"/order/detail?id={order['orderNo']}")
    assert d["code"] == 200, d
    return d["data"]


def log_of(api, p, action=None):
    out, cursor = [], None
    while True:
        q = f"/pile/messageLog?pileId={p.id}&pageSize=200" + (f"&action={action}" if action else "") + (f"&cursor={cursor}" if cursor else "")
        page = api.get(q)
        assert page["code"] == 200, page
        out += page["data"]["list"]
        cursor = page["data"]["cursor"]
        if not cursor:
            return out


def flat(entry):
    """An entry as lower-case text without spaces, to find hex and values in."""
    return json.dumps(entry, ensure_ascii=False).lower().replace(" ", "")


# The catalogue's names (shared/ykc/src/msg/mod.rs) of the frames these tests exchange.
NAMES = {0x01: "Login", 0x02: "LoginAnswer", 0x03: "Heartbeat", 0x04: "HeartbeatAnswer", 0x05: "TariffCheck",
         0x06: "TariffCheckAnswer", 0x09: "TariffRequest", 0x0A: "TariffAnswer", 0x13: "Realtime",
         0x31: "StartRequest", 0x32: "StartAnswer", 0x33: "RemoteStartAnswer", 0x34: "RemoteStart",
         0x35: "RemoteStopAnswer", 0x36: "RemoteStop", 0x3B: "TransactionRecord", 0x40: "TransactionConfirm",
         0x55: "TimeSyncAnswer", 0x56: "TimeSync", 0x57: "TariffSetAnswer", 0x58: "TariffSet", 0x91: "RebootAnswer",
         0x92: "Reboot"}
ANSWERS = {0x02, 0x04, 0x06, 0x0A, 0x32, 0x33, 0x35, 0x40, 0x55, 0x57, 0x91}


def whole_frames(writes):
    """The pile's writes that are each one whole, well-formed frame."""
    return [w for w in writes if len(w) >= 8 and w[0] == 0x68 and w[1] + 4 == len(w)]


# The platform's commands and the pile's answers to them.
COMMAND_FRAMES = {0x33, 0x34, 0x35, 0x36, 0x91, 0x92}


def check_log(api, p, y, without_raw=()):
    """Every frame in and out of the connection is in the pile's message log
    with its raw bytes (hex); each one that is not an answer is an entry of
    its own, its action the catalogue's name, its direction in or out (an
    answer may be its own entry or the response of its request's).
    `without_raw`: frame types whose hex is not looked for."""
    log = log_of(api, p)
    text = "\n".join(flat(e) for e in log)
    named = {(e["action"], e["direction"]) for e in log}
    out = [frame(seq, t, body) for seq, t, body in list(y.received)]
    for direction, frames in (("in", whole_frames(y.sent)), ("out", out)):
        for raw in frames:
            if raw[5] not in without_raw:
                assert raw.hex() in text, f"0x{raw[5]:02X} {direction} is not in the log: {raw.hex()}"
            if raw[5] not in ANSWERS:
                assert (NAMES[raw[5]], direction) in named, (NAMES[raw[5]], direction, named)
    return log


def fen(e4_yuan):
    assert e4_yuan % 100 == 0, f"the test's data must be whole fen, {e4_yuan}"
    return e4_yuan // 100


def expected_price(energy_by_tier_wh, prices=PRICES):
    """The product's pricing (charging::pricing): exact sums, one half-up rounding to the fen."""
    e = sum(wh * prices[t]["electricity"] for t, wh in energy_by_tier_wh.items())
    s = sum(wh * prices[t]["service"] for t, wh in energy_by_tier_wh.items())
    half_up = lambda x: (x + 50_000) // 100_000
    return half_up(e + s), half_up(e)


def settle(api, command_id, timeout=10):
    return poll(lambda: api.get(f"/charger/command?id={command_id}")["data"],
                lambda c: c["status"] not in ("queued", "sent"), timeout)


def next_second():
    """Real-time data is stamped when it arrives, to the second (a pile sends
    it every 15 s while charging): the tests let the second of the last one
    pass before the next."""
    time.sleep(1.02 - time.time() % 1.0)


def live_energy(api, p, wh):
    return poll(lambda: orders_of(api, p), lambda os: os and os[0]["status"] == "charging" and os[0]["energyWh"] == wh)


def session(y, api, p, card_no, gun="01", minutes=20, kwh=20, tier_rate=None, amount_delta=0, stop_reason=0x45):
    """A whole card session at the pile: tariff, 0x31, real-time data
    (`minutes` of charging, as the pile counts), 0x3B with `kwh` kWh at one
    tier. Returns what the pile saw and sent."""
    y.tariff_request()
    started = y.card_start(card_no, gun)
    assert started["authorised"] == 1, started
    order = started["order"]
    t0 = int(time.time())
    e4 = kwh * 10_000
    y.realtime(order, gun, 3, energy=e4 // 4, minutes=minutes // 2, volts=4000, amps=1000, soc=40)
    live_energy(api, p, e4 // 40)
    next_second()
    y.realtime(order, gun, 3, energy=e4 * 3 // 5, minutes=minutes - 1, volts=4000, amps=1000, soc=60)
    live_energy(api, p, e4 * 3 // 50)
    rate = RATE_OF_TIER["flat"] if tier_rate is None else tier_rate
    lines = {r: (e, a + amount_delta) for r, (e, a) in y.tier_amounts({rate: e4}).items()}
    total = sum(a for _, a in lines.values())
    t1 = int(time.time())
    y.realtime(order, gun, 2, soc=80)
    body = y.record_body(order, gun, bj(t0), bj(t1), lines, 1_234_567_890, 0x02, stop_reason, card_no, total_amount=total)
    number, result = y.send_record(body)
    assert (number, result) == (order, 0), (number.hex(), result)
    return {"order": order, "t0": t0, "t1": t1, "e4": e4, "amount_e4": total, "body": body}


# ------------------------------------------------------- registration

def test_ykc_pile_number_must_be_14_digits(api):
    station = operating_station(api)["id"]
    base = {"stationId": station, "pileType": "dc", "ratedPowerKw": 60, "heartbeatIntervalSecs": 60,
            "connectors": [{"standard": "gbt2015", "maxPowerKw": 60}]}
    for version in ("ykc1.6", "ykc1.5"):
        for code in ("PY" + uuid.uuid4().hex[:12].upper(), pile_number()[:13], pile_number() + "1", "5501A600019236"):
            r = api.post("/pile/doAdd", {**base, "code": code, "ocppVersion": version})
            assert r["code"] == 400 and r["data"]["field"] == "code", (version, code, r)
        ok = api.post("/pile/doAdd", {**base, "code": pile_number(), "ocppVersion": version})
        assert ok["code"] == 200 and ok["data"]["ocppVersion"] == version, ok


# ------------------------------------------------------ login, heartbeat

@pytest.mark.parametrize("version", ["1.6", "1.5"])
def test_ykc_login_heartbeat_time_sync_and_their_log(gateway, api, version):
    p = ykc_pile(api, version="ykc" + version)
    with connect(gateway, p, version) as y:
        assert y.login_result() == 0
        # After the accepted login the platform sets the pile's clock (Beijing time).
        y.wait_for(lambda: y.time_syncs)
        assert abs(unix(y.time_syncs[0]) - time.time()) < 60, f"time sync says {y.time_syncs[0]}, Beijing time is {bj(time.time())}"
        y.heartbeat("01")
        y.heartbeat("02")
        view = poll(p.view, lambda v: v["online"] and v["link"] and v["link"]["connected"])
        assert view["ocppVersion"] == "ykc" + version
        login_hex = y.sent[0].hex()
    # The socket closed: the pile shows disconnected.
    poll(p.view, lambda v: not (v["link"] or {}).get("connected"))
    log = check_log(api, p, y)
    assert {"Login", "Heartbeat", "TimeSync"} <= {e["action"] for e in log}
    login = [e for e in log if e["action"] == "Login"]
    assert len(login) == 1 and login_hex in flat(login[0]), ("the raw frame is logged", login[0])
    assert "v2.3.4" in flat(login[0]), ("the decoded fields are logged (the firmware version)", login[0])
    only = log_of(api, p, action="Heartbeat")
    assert len(only) == 2 and {(e["action"], e["direction"]) for e in only} == {("Heartbeat", "in")}


@pytest.mark.parametrize("case", ["unknown pile", "1.6 pile declaring 1.5", "1.5 pile declaring 1.6", "rejected"])
def test_ykc_login_refused_closes_the_connection(gateway, api, case):
    if case == "unknown pile":
        number, version, declared = pile_number(), "1.6", 0x10
        p = None
    else:
        registered = {"1.6 pile declaring 1.5": "ykc1.6", "1.5 pile declaring 1.6": "ykc1.5", "rejected": "ykc1.6"}[case]
        extra = {"registrationStatus": "Rejected"} if case == "rejected" else {}
        p = ykc_pile(api, version=registered, **extra)
        number, version = p.code, registered[3:]
        declared = {"1.6 pile declaring 1.5": 0x0F, "1.5 pile declaring 1.6": 0x10, "rejected": 0x10}[case]
    y = YkcPile(gateway["ykc_port"], number, version)
    try:
        assert y.login_result(declared) == 1, case
        assert y.wait_closed(5), f"{case}: the platform keeps the connection after refusing the login"
        assert 0x56 not in y.types_received(), "no time sync for a refused pile"
    finally:
        y.close()
    if p is not None:
        assert not p.view()["online"]


@pytest.mark.parametrize("case", ["version", "rejected"])
def test_ykc_refused_login_of_a_registered_pile_is_in_its_log(gateway, api, case):
    p = ykc_pile(api, **({"registrationStatus": "Rejected"} if case == "rejected" else {}))
    with connect(gateway, p) as y:
        assert y.login_result(0x0F if case == "version" else None) == 1
        assert y.wait_closed(5)
    log = log_of(api, p)
    assert any((e["action"], e["direction"]) == ("Login", "in") for e in log), "the refused login is in the pile's log"
    check_log(api, p, y)


def test_ykc_frames_before_the_login_are_dropped(gateway, api):
    p = ykc_pile(api)
    with connect(gateway, p) as y:
        hb = y.seq
        y.write(frame(hb, 0x03, y.pile_bcd + bcd("01", 1) + bytes([0])))
        y.realtime(ZERO_ORDER, "01", 1, fault=1)  # a fault report, before logging in
        y.seq = 0
        assert y.login_result() == 0
        y.heartbeat("01")
        y.heartbeat("02")
        types = y.types_received()
        assert types.index(0x02) < types.index(0x04), f"a frame before the login was answered: {types}"
        assert types.count(0x04) == 2, types
        assert connector(p, 1)["status"] != "faulted", "the real-time data before the login changed the connector"


# ---------------------------------------------------- real-time data

def test_ykc_realtime_state_drives_the_connector_status(gateway, api):
    p = ykc_pile(api)
    with online(gateway, p) as y:
        for gun, state, status in [(1, 1, "faulted"), (2, 2, "available"), (1, 0, "unavailable"), (2, 3, "charging"),
                                   (1, 2, "available")]:
            y.realtime(ZERO_ORDER, f"0{gun}", state, volts=4000 if state == 3 else 0, amps=100 if state == 3 else 0,
                       fault=1 if state == 1 else 0, plugged=1 if state == 3 else 0)
            poll(lambda: connector(p, gun)["status"], lambda s: s == status)
        # Idle with the gun plugged in: available, or preparing (OCPP's word
        # for it, which the server uses; the interface names only available).
        y.realtime(ZERO_ORDER, "01", 2, plugged=1)
        poll(lambda: connector(p, 1)["status"], lambda s: s in ("available", "preparing"))
        y.heartbeat("01")
        assert not [t for t in y.types_received() if t not in (0x02, 0x04, 0x56)], "0x13 has no answer"
    check_log(api, p, y)
    log = log_of(api, p, action="Realtime")
    assert len(log) == 6 and {e["direction"] for e in log} == {"in"}


# ----------------------------------------------------------- tariff

def test_ykc_tariff_model_is_the_station_tariff_in_force(gateway, api):
    p = ykc_pile(api)
    station = api.get(f"/station/getDetail?id={p.station_id}")["data"]
    tariff = api.get(f"/tariff/getDetail?id={station['tariff']['template']['id']}")["data"]
    prices, slots = tariff["template"]["prices"], tariff["slots"]
    with online(gateway, p) as y:
        y.tariff_request()
        got = y.tariff
        assert len(got["model"]) == 4 and got["model"].isdigit(), f"model id {got['model']} is not 4 BCD digits"
        assert got["loss"] == 0
        assert [TIER_OF_RATE.get(r, r) for r in got["slots"]] == slots, "the 48 half-hours map to 尖峰平谷 as the tariff"
        for tier, rate in RATE_OF_TIER.items():
            if tier in prices:
                expect = (prices[tier]["electricity"] * 10, prices[tier]["service"] * 10)  # 0.0001 -> 0.00001 yuan
                assert got["rates"][rate] == expect, (tier, got["rates"][rate], expect)
            else:
                assert rate not in got["slots"], tier
        model = y.model
        assert y.tariff_check_result(model) == 0, "the current model is confirmed"
        other = bcd(f"{(int(got['model']) + 1) % 10000:04}", 2)
        assert y.tariff_check_result(other) == 1, "another model is not"
        assert y.tariff_check_result(bcd("0000", 2)) == 1
    log = check_log(api, p, y)
    assert {"TariffRequest", "TariffCheck"} <= {e["action"] for e in log}


def test_ykc_tariff_change_changes_the_model_id(gateway, api):
    slots = ["valley"] * 16 + ["peak"] * 16 + ["flat"] * 16
    station_id, tariff_id = add_station(api, slots)
    p = ykc_pile(api, station_id=station_id)
    with online(gateway, p) as y:
        y.tariff_request()
        first, first_model = y.tariff, y.model
        assert first["rates"][RATE_OF_TIER["flat"]] == (62500, 40000)
        assert [TIER_OF_RATE[r] for r in first["slots"]] == slots
        assert y.tariff_check_result(first_model) == 0
        current = api.get(f"/tariff/getDetail?id={tariff_id}")["data"]["template"]
        changed = {**current, "prices": {**current["prices"], "flat": {"electricity": 6250, "service": 4500}}}
        saved = api.post("/tariff/doEdit", {**changed, "id": tariff_id, "version": current["version"], "apply": "allStations"})
        assert saved["code"] == 200, saved
        y.tariff_request()
        assert y.model != first_model, f"the model id stays {unbcd(first_model)} after the tariff changed"
        assert y.tariff["rates"][RATE_OF_TIER["flat"]] == (62500, 45000)
        assert y.tariff_check_result(first_model) == 1, "the old model is not the one in force"
        assert y.tariff_check_result(y.model) == 0
        # The saved change is also pushed to the connected pile (0x58, answered 0x57).
        y.wait_for(lambda: y.tariff_sets)
        assert [(t["model"], t["rates"][RATE_OF_TIER["flat"]]) for t in y.tariff_sets] == [(unbcd(y.model), (62500, 45000))]


# ------------------------------------------------------ card sessions

@pytest.mark.parametrize("version", ["1.6", "1.5"])
def test_ykc_card_session_becomes_an_order_priced_by_the_product(gateway, api, version):
    station_id, tariff_id = ykc_station(api)
    p = ykc_pile(api, version="ykc" + version, station_id=station_id)
    card_no = add_card(api)
    with online(gateway, p, version) as y:
        y.tariff_request()
        started = y.card_start(card_no, "01")
        assert started["authorised"] == 1 and started["reason"] == 0, started
        order = started["order"]
        digits = unbcd(order)
        assert digits.isdigit() and digits.startswith(p.code + "01"), f"order number {digits}"
        t0 = int(time.time())  # the pile starts charging on the answer
        y.realtime(order, "01", 3, energy=50_000, minutes=10, volts=4000, amps=1000, soc=40)
        live_energy(api, p, 5_000)
        next_second()
        y.realtime(order, "01", 3, energy=120_000, minutes=19, volts=4000, amps=1000, soc=60)
        # While it charges the order is open with the energy so far, the connector charging.
        running = live_energy(api, p, 12_000)
        assert len(running) == 1 and running[0]["userId"] == card_no and running[0]["connectorNo"] == 1, running
        assert poll(lambda: connector(p, 1)["status"], lambda s: s == "charging")
        lines = y.tier_amounts({RATE_OF_TIER["flat"]: 200_000})
        t1 = int(time.time())
        y.realtime(order, "01", 2, soc=80)
        body = y.record_body(order, "01", bj(t0), bj(t1), lines, 1_234_567_890, 0x02, 0x45, card_no)
        assert y.send_record(body) == (order, 0)
        record_hex = body.hex()
        y.realtime(ZERO_ORDER, "01", 2, plugged=0)  # the driver hangs the gun up
        poll(lambda: connector(p, 1)["status"], lambda s: s == "available")
    check_log(api, p, y)
    done = poll(lambda: orders_of(api, p), lambda os: os and os[0]["status"] != "charging")
    assert len(done) == 1, done
    d = detail(api, done[0])
    amount, electricity = expected_price({"flat": 20_000})
    pile_fen = fen(sum(a for _, a in lines.values()))
    assert amount == pile_fen == 2050 and electricity == 1250
    assert (d["status"], d["energyWh"], d["amountFen"], d["electricityFen"], d["serviceFen"]) == ("finished", 20_000, amount, electricity, amount - electricity), d
    assert abs(d["startTs"] - t0) <= 1 and (d["stopTs"], d["userId"], d["connectorNo"]) == (t1, card_no, 1), d
    # The record's meter registers (电表总起值/止值, 0.0001 kWh) are the order's.
    assert (d["meterStartWh"], d["meterStopWh"]) == (123_456_789, 123_456_789 + 20_000), d
    assert [(line["tier"], line["energyWh"]) for line in d["lines"]] == [("flat", 20_000)]
    assert d["tariff"]["id"] == tariff_id and d["anomalies"] == [], d["anomalies"]
    curve = [(c["energyWh"], c["powerW"], c["soc"]) for c in d["curve"]]
    assert (5_000, 40_000, 40) in curve and (12_000, 40_000, 60) in curve, curve
    assert not orders_of(api, p, anomaly="flagged")
    record = log_of(api, p, action="TransactionRecord")
    assert len(record) == 1 and record_hex in flat(record[0]), record


def test_ykc_unknown_blocked_and_expired_cards_are_refused(gateway, api):
    station_id, _ = ykc_station(api)
    p = ykc_pile(api, station_id=station_id)
    blocked = add_card(api, status="Blocked")
    expired = add_card(api, expiresAt=int(time.time()) - 86400)
    with online(gateway, p) as y:
        unknown = y.card_start(card_number(), "01")
        assert (unknown["authorised"], unknown["reason"]) == (0, 0x01), ("账户不存在", unknown)
        frozen = y.card_start(blocked, "02")
        assert (frozen["authorised"], frozen["reason"]) == (0, 0x02), ("账户冻结", frozen)
        old = y.card_start(expired, "01")
        assert old["authorised"] == 0 and old["reason"] != 0, old
        y.heartbeat("01")
    assert orders_of(api, p) == [], "a refused start opens no order"
    check_log(api, p, y)
    assert len(log_of(api, p, action="StartRequest")) == 3


def test_ykc_short_card_numbers_and_prepaid_balances(gateway, api):
    """A 4-byte card UID (8 hex digits, as such cards are registered) comes
    zero-padded in the 8-byte field; a prepaid card's balance goes to the
    pile in fen (账户余额, two decimals) and an empty one is refused (0x03)."""
    station_id, _ = ykc_station(api)
    p = ykc_pile(api, station_id=station_id)
    short = card_number()[:8]
    assert api.post("/card/doAdd", {"idTag": short, "holder": "短卡号", "plate": "", "status": "Accepted"})["code"] == 200
    prepaid = add_card(api, payment="prepaid")
    with online(gateway, p) as y:
        started = y.card_start(short, "01")
        assert started["authorised"] == 1, ("0000...%s is card %s" % (short, short), started)
        # A postpaid card is billed afterwards: the pile, which stops once
        # the amount reaches the balance it was told, gets a ceiling.
        assert started["balance"] >= 10_000_000, ("a postpaid card must not be told 0", started)
        empty = y.card_start(prepaid, "02")
        assert (empty["authorised"], empty["reason"]) == (0, 0x03), ("账户余额不足", empty)
        assert api.post("/card/topUp", {"idTag": prepaid, "amountFen": 5000, "note": "test"})["code"] == 200
        paid = y.card_start(prepaid, "02")
        assert (paid["authorised"], paid["balance"]) == (1, 5000), paid
    running = poll(lambda: orders_of(api, p), lambda os: len(os) == 2)
    assert sorted((o["connectorNo"], o["userId"], o["status"]) for o in running) == [(1, short, "charging"), (2, prepaid, "charging")]


def test_ykc_pile_amount_that_differs_flags_the_order(gateway, api):
    station_id, _ = ykc_station(api)
    p = ykc_pile(api, station_id=station_id)
    card_no = add_card(api)
    with online(gateway, p) as y:
        s = session(y, api, p, card_no, kwh=10, amount_delta=10_000)  # the pile bills 1 yuan more
    done = poll(lambda: orders_of(api, p), lambda os: os and os[0]["status"] != "charging")
    amount, _ = expected_price({"flat": 10_000})
    assert done[0]["amountFen"] == amount == fen(s["amount_e4"]) - 100, "the product's price, not the pile's"
    assert done[0]["anomalies"], "the pile's own amount differs: an anomaly"
    flagged = orders_of(api, p, anomaly="flagged")
    assert [o["orderNo"] for o in flagged] == [done[0]["orderNo"]], flagged


def test_ykc_repeated_record_makes_one_order(gateway, api):
    station_id, _ = ykc_station(api)
    p = ykc_pile(api, station_id=station_id)
    card_no = add_card(api)
    with online(gateway, p) as y:
        s = session(y, api, p, card_no, kwh=4)
        # No 0x40 reached the pile, say: it sends the record again, and again.
        assert y.send_record(s["body"]) == (s["order"], 0)
        assert y.send_record(s["body"]) == (s["order"], 0)
        y.heartbeat("01")
    done = poll(lambda: orders_of(api, p), lambda os: os and os[0]["status"] != "charging")
    time.sleep(0.5)
    done = orders_of(api, p)
    assert len(done) == 1, done
    assert (done[0]["energyWh"], done[0]["amountFen"], done[0]["anomalies"]) == (4000, expected_price({"flat": 4000})[0], [])
    check_log(api, p, y)
    assert len(log_of(api, p, action="TransactionRecord")) == 3


def test_ykc_record_of_an_order_never_issued_is_an_order_flagged(gateway, api):
    station_id, _ = ykc_station(api)
    p = ykc_pile(api, station_id=station_id)
    card_no = add_card(api)
    with online(gateway, p) as y:
        y.tariff_request()
        t0, t1 = int(time.time()) - 30 * 60, int(time.time()) - 60
        order = bcd(p.code + "02" + bj(t0).strftime("%y%m%d%H%M%S") + "9999", 16)
        lines = y.tier_amounts({RATE_OF_TIER["flat"]: 60_000})
        body = y.record_body(order, "02", bj(t0), bj(t1), lines, 50_000_000, 0x04, 0x45, card_no)
        assert y.send_record(body) == (order, 0), "every record is confirmed"
    made = poll(lambda: orders_of(api, p), lambda os: bool(os))
    assert len(made) == 1 and made[0]["connectorNo"] == 2, made
    assert (made[0]["energyWh"], made[0]["amountFen"]) == (6000, expected_price({"flat": 6000})[0]), made[0]
    assert (made[0]["startTs"], made[0]["stopTs"]) == (t0, t1)
    assert made[0]["anomalies"], "an order the platform never started is flagged"
    assert [o["orderNo"] for o in orders_of(api, p, anomaly="flagged")] == [made[0]["orderNo"]]


def test_ykc_session_across_tiers_is_priced_from_the_piles_tier_energies(gateway, api):
    """The record splits the energy by 尖峰平谷 as the pile metered it; a
    session over a tier boundary is priced from those energies (the pile
    charged 10 kWh in its 20 peak minutes and 4 kWh after, not pro rata)."""
    boundary = (int(time.time()) - 600 + BJ) // 1800 * 1800 - BJ  # the last half-hour boundary 10+ minutes ago
    b_slot = int(((boundary + BJ) % 86400) // 1800)
    slots = ["valley"] * 48
    for d in range(-4, 0):
        slots[(b_slot + d) % 48] = "peak"
    for d in range(0, 4):
        slots[(b_slot + d) % 48] = "flat"
    station_id, _ = add_station(api, slots)
    p = ykc_pile(api, station_id=station_id)
    card_no = add_card(api)
    with online(gateway, p) as y:
        y.tariff_request()
        assert [TIER_OF_RATE[r] for r in y.tariff["slots"]] == slots
        started = y.card_start(card_no, "01")
        assert started["authorised"] == 1, started
        t0, t1 = boundary - 20 * 60, int(time.time())
        lines = y.tier_amounts({RATE_OF_TIER["peak"]: 100_000, RATE_OF_TIER["flat"]: 40_000})
        body = y.record_body(started["order"], "01", bj(t0), bj(t1), lines, 10_000_000, 0x02, 0x45, card_no)
        assert y.send_record(body) == (started["order"], 0)
    done = poll(lambda: orders_of(api, p), lambda os: os and os[0]["status"] != "charging")
    d = detail(api, done[0])
    amount, electricity = expected_price({"peak": 10_000, "flat": 4_000})
    assert fen(sum(a for _, a in lines.values())) == amount
    assert sorted((line["tier"], line["energyWh"]) for line in d["lines"]) == [("flat", 4_000), ("peak", 10_000)], d["lines"]
    assert (d["energyWh"], d["amountFen"], d["electricityFen"]) == (14_000, amount, electricity)
    assert d["anomalies"] == [], "the pile's bill is the product's"


# ---------------------------------------------------- remote operations

def test_ykc_remote_start_and_stop_are_sent_answered_and_shown(gateway, api):
    station_id, _ = ykc_station(api)
    p = ykc_pile(api, station_id=station_id)
    card_no = add_card(api)
    editor = api.login("editor", EDITOR_PW)
    with online(gateway, p) as y:
        y.tariff_request()
        # Refused by the pile (gun 2 not plugged in: 0x05).
        no = api.post("/charger/remoteStart", {"pileId": p.id, "connectorId": 2, "idTag": card_no}, token=editor)
        assert no["code"] == 200, no
        refused = y.answer_remote_start(result=0, reason=0x05)
        assert refused["gun"] == "02"
        done = settle(api, no["data"]["id"])
        assert done["status"] == "answered" and (done["response"] or {}).get("status") != "Accepted", done
        # Accepted on gun 1: the session follows with the order number of 0x34.
        yes = api.post("/charger/remoteStart", {"pileId": p.id, "connectorId": 1, "idTag": card_no}, token=editor)
        assert yes["code"] == 200, yes
        start = y.answer_remote_start(result=1)
        order = start["order"]
        assert unbcd(order).isdigit() and unbcd(order).startswith(p.code + "01") and start["gun"] == "01", start
        assert start["physical_card"] == card_no, start
        started = settle(api, yes["data"]["id"])
        assert (started["status"], started["response"]["status"]) == ("answered", "Accepted"), started
        t0 = int(time.time())
        y.realtime(order, "01", 3, energy=30_000, minutes=5, volts=4000, amps=1000, soc=50)
        poll(lambda: orders_of(api, p), lambda os: os and os[0]["status"] == "charging")
        stop = api.post("/charger/remoteStop", {"pileId": p.id, "connectorId": 1}, token=editor)
        assert stop["code"] == 200, stop
        assert y.answer_remote_stop(result=1) == "01"
        stopped = settle(api, stop["data"]["id"])
        assert (stopped["status"], stopped["response"]["status"]) == ("answered", "Accepted"), stopped
        lines = y.tier_amounts({RATE_OF_TIER["flat"]: 40_000})
        t1 = int(time.time())
        body = y.record_body(order, "01", bj(t0), bj(t1), lines, 777_000_000, 0x01, 0x40, card_no)
        assert y.send_record(body) == (order, 0)
    finished = poll(lambda: orders_of(api, p), lambda os: os and os[0]["status"] != "charging")
    assert len(finished) == 1 and finished[0]["userId"] == card_no, finished
    assert (finished[0]["status"], finished[0]["energyWh"], finished[0]["amountFen"]) == ("finished", 4000, expected_price({"flat": 4000})[0])
    assert finished[0]["anomalies"] == []
    listed = api.get(f"/charger/commands?pileId={p.id}")["data"]["list"]
    assert {c["id"] for c in listed} >= {no["data"]["id"], yes["data"]["id"], stop["data"]["id"]}
    log = check_log(api, p, y, without_raw=COMMAND_FRAMES)  # see test_ykc_command_frames_are_logged_with_their_bytes
    assert {("RemoteStart", "out"), ("RemoteStop", "out")} <= {(e["action"], e["direction"]) for e in log}


def test_ykc_reset_sends_a_reboot(gateway, api):
    p = ykc_pile(api)
    with online(gateway, p) as y:
        # The pile refuses the first.
        r = api.post("/charger/reset", {"pileId": p.id, "type": "Soft"})
        assert r["code"] == 200, r
        when = y.answer_reboot(result=0)
        assert when in (1, 2), f"执行控制 {when}: 1 immediately, 2 when idle"
        failed = settle(api, r["data"]["id"])
        assert failed["status"] == "answered" and failed["response"]["status"] != "Accepted", failed
        # It takes the second, and restarts: a new connection, a new login.
        r = api.post("/charger/reset", {"pileId": p.id, "type": "Hard"})
        assert r["code"] == 200, r
        assert y.answer_reboot(result=1) in (1, 2)
        done = settle(api, r["data"]["id"])
        assert (done["status"], done["response"]["status"]) == ("answered", "Accepted"), done
    with online(gateway, p) as again:
        poll(p.view, lambda v: v["online"] and v["link"]["connected"])
    log = check_log(api, p, y, without_raw=COMMAND_FRAMES)  # see test_ykc_command_frames_are_logged_with_their_bytes
    assert len([e for e in log if (e["action"], e["direction"]) == ("Reboot", "out")]) == 2
    assert len([e for e in log if e["action"] == "Login"]) == 2


def test_ykc_availability_puts_the_whole_pile_in_or_out_of_service(gateway, api):
    """ChangeAvailability becomes 0x52 (工作参数设置) for the whole pile: 是否允许工作
    0x00 allowed, 0x01 forbidden, at full output; a gun alone is refused."""
    p = ykc_pile(api)
    with online(gateway, p) as y:
        one_gun = api.post("/charger/availability", {"pileId": p.id, "connectorId": 1, "type": "Inoperative"})
        assert one_gun["code"] == 400 and "connectorId" in one_gun["msg"], one_gun
        off = api.post("/charger/availability", {"pileId": p.id, "connectorId": 0, "type": "Inoperative"})
        assert off["code"] == 200, off
        assert y.answer_work_params(result=1) == (False, 100)
        done = settle(api, off["data"]["id"])
        assert (done["status"], done["response"]["status"]) == ("answered", "Accepted"), done
        on = api.post("/charger/availability", {"pileId": p.id, "connectorId": 0, "type": "Operative"})
        assert y.answer_work_params(result=0) == (True, 100)
        refused = settle(api, on["data"]["id"])
        assert (refused["status"], refused["response"]["status"]) == ("answered", "Rejected"), refused
    assert {("WorkParams", "out")} <= {(e["action"], e["direction"]) for e in log_of(api, p)}


def test_ykc_firmware_update_goes_over_ftp_in_the_fixed_fields(gateway, api):
    p = ykc_pile(api)
    with online(gateway, p) as y:
        https = api.post("/charger/updateFirmware", {"pileId": p.id, "location": "https://fw.example.com/v2.bin", "retrieveAt": int(time.time())})
        assert https["code"] == 400 and "ftp" in https["msg"], https
        r = api.post("/charger/updateFirmware", {"pileId": p.id, "location": "ftp://fw:secret@10.0.0.5:2121/pile/v2.bin", "retrieveAt": int(time.time())})
        assert r["code"] == 200, r
        told = y.answer_update(status=0)
        assert (told["server"], told["port"], told["user"], told["password"], told["path"]) == ("10.0.0.5", 2121, "fw", "secret", "/pile/v2.bin"), told
        assert told["when"] == 1 and told["timeout"] > 0, told
        done = settle(api, r["data"]["id"])
        assert (done["status"], done["response"]["status"]) == ("answered", "Accepted"), done
        r = api.post("/charger/updateFirmware", {"pileId": p.id, "location": "ftp://10.0.0.5/pile/v3.bin", "retrieveAt": int(time.time())})
        assert y.answer_update(status=3)["port"] == 21
        timed_out = settle(api, r["data"]["id"])
        assert timed_out["response"]["status"] == "Rejected", timed_out


def test_ykc_local_list_becomes_the_piles_offline_cards(gateway, api):
    """SendLocalList Full becomes 0x44 frames of at most 15 cards: each usable
    card's printed number (its digits, else zeros) and its 8-byte number."""
    p = ykc_pile(api)
    hex_card = add_card(api)
    decimal_card = str(uuid.uuid4().int)[:12]
    assert api.post("/card/doAdd", {"idTag": decimal_card, "holder": "十进制卡号", "plate": "", "status": "Accepted"})["code"] == 200
    blocked = add_card(api, status="Blocked")
    with online(gateway, p) as y:
        r = api.post("/charger/sendLocalList", {"pileId": p.id, "updateType": "Full"})
        assert r["code"] == 200, r
        cards = []
        while True:
            try:
                got = y.answer_offline_card_sync(timeout=3.0)
            except AssertionError:
                break
            assert 1 <= len(got) <= 15, got
            cards += got
        physical = {c[1]: c[0] for c in cards}
        assert physical.get(hex_card) == "0" * 16, (hex_card, physical.get(hex_card))
        assert physical.get(decimal_card.zfill(16)) == decimal_card.zfill(16)
        assert blocked not in physical
        done = settle(api, r["data"]["id"])
        assert (done["status"], done["response"]["status"]) == ("answered", "Accepted"), done


def test_ykc_balance_update_tells_the_pile_the_cards_balance_after_a_top_up(gateway, api):
    station_id, _ = ykc_station(api)
    p = ykc_pile(api, station_id=station_id)
    prepaid = add_card(api, payment="prepaid")
    assert api.post("/card/topUp", {"idTag": prepaid, "amountFen": 3000, "note": "test"})["code"] == 200
    with online(gateway, p) as y:
        idle = api.post("/charger/balanceUpdate", {"pileId": p.id, "connectorId": 1})
        assert idle["code"] == 400 and "gun 1" in idle["msg"], idle
        y.tariff_request()
        started = y.card_start(prepaid, "01")
        assert (started["authorised"], started["balance"]) == (1, 3000), started
        y.realtime(started["order"], "01", 3, energy=10_000, minutes=1, volts=4000, amps=1000, soc=30)
        live_energy(api, p, 1_000)
        # A top-up while the card charges tells the pile by itself.
        topped = api.post("/card/topUp", {"idTag": prepaid, "amountFen": 2000, "note": "while charging"})
        assert topped["code"] == 200 and p.code in topped["msg"], topped
        told = y.answer_balance_update(result=0)
        assert (told["gun"], told["physical_card"], told["balance"]) == ("01", prepaid, 5000), told
        # And an operator can send it again from the charger panel.
        r = api.post("/charger/balanceUpdate", {"pileId": p.id, "connectorId": 1})
        assert r["code"] == 200, r
        told = y.answer_balance_update(result=0)
        assert (told["gun"], told["physical_card"], told["balance"]) == ("01", prepaid, 5000), told
        done = settle(api, r["data"]["id"])
        assert (done["status"], done["response"]["status"]) == ("answered", "Accepted"), done
        again = api.post("/charger/balanceUpdate", {"pileId": p.id, "connectorId": 1})
        y.answer_balance_update(result=2)
        wrong = settle(api, again["data"]["id"])
        assert wrong["response"]["status"] == "Rejected", wrong
        automatic = [c for c in api.get(f"/charger/commands?pileId={p.id}")["data"]["list"] if c["action"] == "BalanceUpdate"]
        assert len(automatic) == 3 and all(c["status"] == "answered" for c in automatic), automatic
    # With the pile gone, a top-up sends nothing (the command would end offline).
    topped = api.post("/card/topUp", {"idTag": prepaid, "amountFen": 100, "note": "offline pile"})
    assert topped["code"] == 200 and p.code not in topped["msg"], topped
    assert {("BalanceUpdate", "out")} <= {(e["action"], e["direction"]) for e in log_of(api, p)}


def test_ykc_parking_lock_is_raised_and_lowered_and_its_status_logged(gateway, api):
    ocpp_pile = ykc_pile(api, version="1.6")
    ocpp = api.post("/charger/parkingLock", {"pileId": ocpp_pile.id, "connectorId": 1, "action": "Lower"})
    assert ocpp["code"] == 400 and "only a YKC pile" in ocpp["msg"], ocpp
    assert api.post("/charger/balanceUpdate", {"pileId": ocpp_pile.id, "connectorId": 1})["code"] == 400
    p = ykc_pile(api)
    with online(gateway, p) as y:
        assert api.post("/charger/parkingLock", {"pileId": p.id, "connectorId": 3, "action": "Lower"})["code"] == 400
        assert api.post("/charger/parkingLock", {"pileId": p.id, "connectorId": 1})["code"] == 400
        lower = api.post("/charger/parkingLock", {"pileId": p.id, "connectorId": 2, "action": "Lower"})
        assert lower["code"] == 200, lower
        assert y.answer_parking_lock(result=1) == (2, 0xFF)
        done = settle(api, lower["data"]["id"])
        assert (done["status"], done["response"]["status"]) == ("answered", "Accepted"), done
        raise_ = api.post("/charger/parkingLock", {"pileId": p.id, "connectorId": 2, "action": "Raise"})
        assert y.answer_parking_lock(result=0) == (2, 0x55)
        stuck = settle(api, raise_["data"]["id"])
        assert stuck["response"]["status"] == "Rejected", stuck
        y.parking_lock_status(2, position=0x00, alarm=0x55)
        poll(lambda: log_of(api, p, action="ParkingLockStatus"), lambda entries: len(entries) == 1)
    assert {("ParkingLockCommand", "out")} <= {(e["action"], e["direction"]) for e in log_of(api, p)}


def test_ykc_trigger_reads_a_guns_realtime_data_on_demand(gateway, api):
    """A trigger of MeterValues or StatusNotification is 0x12 for the gun;
    the 0x13 that answers is the command's answer and drives the connector
    as the periodic ones do, whether it comes under the request's sequence
    number or under the pile's own."""
    p = ykc_pile(api)
    editor = api.login("editor", EDITOR_PW)
    with online(gateway, p) as y:
        heartbeat = api.post("/charger/trigger", {"pileId": p.id, "requestedMessage": "Heartbeat", "connectorId": 1}, token=editor)
        assert heartbeat["code"] == 400 and "real-time data" in heartbeat["msg"], heartbeat
        no_gun = api.post("/charger/trigger", {"pileId": p.id, "requestedMessage": "MeterValues"}, token=editor)
        assert no_gun["code"] == 400 and "connectorId" in no_gun["msg"], no_gun
        r = api.post("/charger/trigger", {"pileId": p.id, "requestedMessage": "MeterValues", "connectorId": 1}, token=editor)
        assert r["code"] == 200, r
        assert y.answer_read_realtime(ZERO_ORDER, 1, fault=4) == "01"
        done = settle(api, r["data"]["id"])
        assert done["status"] == "answered" and done["action"] == "ReadRealtime", done
        assert (done["response"]["status"], done["response"]["gun"], done["response"]["state"], done["response"]["faults"]) == ("Accepted", 1, "Fault", 4), done
        poll(lambda: connector(p, 1)["status"], lambda s: s == "faulted")
        r = api.post("/charger/trigger", {"pileId": p.id, "requestedMessage": "StatusNotification", "connectorId": 2}, token=editor)
        assert y.answer_read_realtime(ZERO_ORDER, 3, own_number=True, volts=3805, amps=600, soc=45, energy=123_450, amount=180_000) == "02"
        done = settle(api, r["data"]["id"])
        assert done["status"] == "answered", done
        got = done["response"]
        assert (got["voltageV"], got["currentA"], got["soc"], got["energyWh"], got["amountFen"]) == (380.5, 60.0, 45, 12_345, 1_800), got
        poll(lambda: connector(p, 2)["status"], lambda s: s == "charging")
    assert {("ReadRealtime", "out")} <= {(e["action"], e["direction"]) for e in log_of(api, p)}


def test_ykc_offline_card_query_says_which_cards_the_pile_holds(gateway, api):
    ocpp_pile = ykc_pile(api, version="1.6")
    assert api.post("/charger/offlineCardQuery", {"pileId": ocpp_pile.id, "idTags": ["D14B0A54"]})["code"] == 400
    p = ykc_pile(api)
    held, missing = add_card(api), add_card(api)
    editor = api.login("editor", EDITOR_PW)
    with online(gateway, p) as y:
        # The offline list is Admin's, like the local list it reads.
        assert api.post("/charger/offlineCardQuery", {"pileId": p.id, "idTags": [held]}, token=editor)["code"] == 403
        for body in [{"pileId": p.id}, {"pileId": p.id, "idTags": ["not-a-card"]}, {"pileId": p.id, "idTags": ["AB"] * 27}]:
            bad = api.post("/charger/offlineCardQuery", body)
            assert bad["code"] == 400 and "idTags" in bad["msg"], (body, bad)
        r = api.post("/charger/offlineCardQuery", {"pileId": p.id, "idTags": [held, missing]})
        assert r["code"] == 200, r
        assert y.answer_offline_card_query([held]) == [held.zfill(16), missing.zfill(16)]
        done = settle(api, r["data"]["id"])
        assert done["status"] == "answered", done
        assert done["response"]["cards"] == [{"idTag": held, "held": True}, {"idTag": missing, "held": False}], done
    assert {("OfflineCardQuery", "out")} <= {(e["action"], e["direction"]) for e in log_of(api, p)}


def test_ykc_command_frames_are_logged_with_their_bytes(gateway, api):
    p = ykc_pile(api)
    card_no = add_card(api)
    with online(gateway, p) as y:
        r = api.post("/charger/remoteStart", {"pileId": p.id, "connectorId": 1, "idTag": card_no})
        y.answer_remote_start(result=0, reason=0x05)
        settle(api, r["data"]["id"])
        r = api.post("/charger/reset", {"pileId": p.id, "type": "Hard"})
        y.answer_reboot(result=1)
        settle(api, r["data"]["id"])
    check_log(api, p, y)


def test_ykc_two_realtime_frames_within_a_second_show_the_later_energy(gateway, api):
    station_id, _ = ykc_station(api)
    p = ykc_pile(api, station_id=station_id)
    card_no = add_card(api)
    with online(gateway, p) as y:
        started = y.card_start(card_no, "01")
        assert started["authorised"] == 1, started
        next_second()
        y.realtime(started["order"], "01", 3, energy=10_000, minutes=1, volts=4000, amps=1000, soc=30)
        y.realtime(started["order"], "01", 3, energy=11_000, minutes=1, volts=4000, amps=1000, soc=31)
        live_energy(api, p, 1_100)


def test_ykc_commands_to_an_offline_pile_end_offline_and_ocpp_only_ones_are_refused(gateway, api):
    p = ykc_pile(api)
    card_no = add_card(api)
    for path, body in [("/charger/remoteStart", {"pileId": p.id, "connectorId": 1, "idTag": card_no}),
                       ("/charger/reset", {"pileId": p.id, "type": "Hard"})]:
        r = api.post(path, body)
        assert r["code"] == 200, (path, r)
        assert settle(api, r["data"]["id"])["status"] == "offline", path
    before = len(api.get(f"/charger/commands?pileId={p.id}&pageSize=200")["data"]["list"])
    for path, body in [("/charger/getConfiguration", {"pileId": p.id}),
                       ("/charger/changeConfiguration", {"pileId": p.id, "key": "HeartbeatInterval", "value": "30"}),
                       ("/charger/clearCache", {"pileId": p.id}),
                       ("/charger/trigger", {"pileId": p.id, "requestedMessage": "BootNotification", "connectorId": 1}),
                       ("/charger/dataTransfer", {"pileId": p.id, "vendorId": "acme"}),
                       ("/charger/getDiagnostics", {"pileId": p.id, "location": "ftp://logs.example.com/upload/"}),
                       ("/charger/reserveNow", {"pileId": p.id, "connectorId": 1, "idTag": card_no, "expiresAt": int(time.time()) + 600})]:
        r = api.post(path, body)
        assert r["code"] == 400, (path, r)
    assert len(api.get(f"/charger/commands?pileId={p.id}&pageSize=200")["data"]["list"]) == before, "nothing queued"


# --------------------------------------------------------- bad frames

def no_start_byte(data):
    return 0x68 not in data[1:]


def clean_frame(first_seq, kind, body):
    """The frame with the first sequence number from `first_seq` that puts no start byte inside it."""
    for seq in range(first_seq, first_seq + 256):
        data = frame(seq, kind, body)
        if no_start_byte(data):
            return data, seq
    raise AssertionError(f"every sequence number puts a start byte inside the {kind:#04x} frame")


def test_ykc_bad_frames_are_logged_and_harmless(gateway, api):
    station_id, _ = ykc_station(api)
    p = ykc_pile(api, station_id=station_id)
    card_no = add_card(api)
    with online(gateway, p) as y:
        y.tariff_request()
        t0, t1 = int(time.time()) - 600, int(time.time()) - 60
        lines = y.tier_amounts({RATE_OF_TIER["flat"]: 20_000})
        # A record whose CRC is wrong, and one a byte short (CRC right): neither is an order.
        # (Built so that no byte inside them is a start byte the decoder could resynchronise on.)
        for i in range(1000):
            order = bcd(p.code + "01" + bj(t0).strftime("%y%m%d%H%M%S") + f"{i:04}", 16)
            record = y.record_body(order, "01", bj(t0 + i), bj(t1 - i), lines, 10_000_000 + 7 * i, 0x02, 0x45, card_no)
            good = frame(y.seq, 0x3B, record)
            bad_crc = good[:-2] + bytes([good[-2] ^ 0x5A, good[-1]])
            short = frame(y.seq + 1, 0x3B, record[:-1])
            if no_start_byte(bad_crc) and no_start_byte(short):
                break
        else:
            raise AssertionError("no record without an inner start byte")
        # These two as well: their sequence number (and so their CRC) is what is free.
        unknown, seq = clean_frame(y.seq + 2, 0x07, y.pile_bcd + b"\x01\x02")
        short_hb, seq = clean_frame(seq + 1, 0x03, y.pile_bcd + bcd("01", 1))
        y.seq = seq + 1
        y.write(b"\x00\x13\x37")          # line noise
        y.write(bad_crc)
        y.write(bytes([0x68, 0x02]))      # an impossible length
        y.write(short)
        y.write(unknown)
        y.write(short_hb)
        y.heartbeat("01", split=True)     # still served, even a heartbeat in two writes
        y.heartbeat("02")
        assert 0x40 not in y.types_received(), "no bad record is confirmed"
        assert y.types_received().count(0x04) == 4, y.types_received()
    assert gateway["proc"].poll() is None, "the gateway is running"
    assert orders_of(api, p) == [], "no bad frame is an order"
    texts = [flat(e) for e in log_of(api, p)]
    for name, raw in [("bad CRC", bad_crc), ("short record", short), ("unknown type", unknown), ("short heartbeat", short_hb)]:
        assert any(raw.hex() in t for t in texts), f"the {name} frame is not in the log: {raw.hex()}"
