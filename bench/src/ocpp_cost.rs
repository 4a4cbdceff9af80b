//! Store cost per OCPP message type, for both versions the charger link
//! speaks. A scripted 1.6 charger (boot, status, authorize, a one-hour
//! session with meter values every 60 s, heartbeats) and a scripted 2.0.1
//! station (boot, status, authorize, a one-hour transaction with
//! TransactionEvent Updated every 10 s, a second one begun cable-first
//! with Updated every 60 s, MeterValues, a NotifyReport page, NotifyEvent,
//! SecurityEventNotification, NotifyDisplayMessages, heartbeats) go
//! through the charger link's own session handler (`ocpp::Session`, what
//! the local gateway's socket and the Lambda routes call, the pile's
//! version chosen by the handshake) with a counting decorator around the
//! store. Every answer must be a CALLRESULT: a frame the schemas refuse
//! stops the bench. Printed per message type and version: store calls
//! (gets, queries, writes), items read and items written, write units; on
//! DynamoDB (`--endpoint`, e.g. moto) also the requests and read units on
//! the wire. These counts are the input of the cost model printed after
//! them (bench/README.md): they do not depend on the machine.
//!
//! Usage: ocpp-cost [--endpoint http://127.0.0.1:PORT] [--dir DIR]

#[path = "support.rs"]
mod support;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use backoffice::AppCtx;
use base64::Engine;
use http::Method;
use serde_json::{json, Value};
use store::counting::{CountingTable, Counts};
use store::Table;
use support::{Meter, Wire};

/// A small demo data set: the cost of a charger message does not depend on
/// how many orders exist (keys, not scans).
const ORDERS: u64 = 200;

/// A session lasts an hour (the cost model's day has twelve).
const SESSION_SECS: i64 = 3600;
/// 1.6 MeterValues every 60 s while charging.
const V16_METER_SECS: i64 = 60;
/// 2.0.1 TransactionEvent Updated every 10 s in the first transaction (the
/// fleet the cost model prices), every 60 s in the second (beside 1.6).
const V201_FAST_SECS: i64 = 10;
const V201_SLOW_SECS: i64 = 60;
/// The Updated events of a session at `every` seconds: one per period,
/// the last period's reading is the Ended event's.
const fn updates_per_session(every: i64) -> i64 {
    SESSION_SECS / every - 1
}

/// The rows' labels the cost model reads.
const AFTER_FIRST: &str = "(after the first answer)";
const HANDSHAKE: &str = "(handshake: $connect check)";
const RECORDED: &str = "(connection recorded)";
const DISCONNECT: &str = "(disconnect)";
const UPDATED_FAST: &str = "TransactionEvent Updated (10 s)";
const ENDED_FAST: &str = "TransactionEvent Ended (10 s)";
const UPDATED_SLOW: &str = "TransactionEvent Updated (60 s)";
const ENDED_SLOW: &str = "TransactionEvent Ended (60 s)";

#[derive(Default)]
struct Tally {
    n: u64,
    counts: Counts,
    wire_requests: u64,
    wire_rcu: f64,
    /// Write units of the first and the last message (the order's curve
    /// grows with each reading of a session).
    first_wru: u64,
    last_wru: u64,
}

fn add(t: &mut Tally, c: Counts, w: Option<Wire>) {
    if t.n == 0 {
        t.first_wru = c.write_units;
    }
    t.last_wru = c.write_units;
    t.n += 1;
    t.counts.calls += c.calls;
    t.counts.gets += c.gets;
    t.counts.queries += c.queries;
    t.counts.batch_gets += c.batch_gets;
    t.counts.writes += c.writes;
    t.counts.items_read += c.items_read;
    t.counts.items_written += c.items_written;
    t.counts.write_units += c.write_units;
    if let Some(w) = w {
        t.wire_requests += w.requests();
        t.wire_rcu += w.rcu;
    }
}

fn iso(ts: i64) -> String {
    ocpp::v16::iso(ts)
}

/// Registers a pile of `version` ("1.6" or "2.0.1") with a password on the
/// first operating station.
async fn charger(ctx: &AppCtx, token: &str, code: &str, version: &str) -> (String, String) {
    let stations = support::call(ctx, Method::GET, "/station/getList?pageNo=1&pageSize=20&status=operating", Some(token), None).await;
    let station = stations.body["data"]["list"]
        .as_array()
        .and_then(|l| l.iter().find(|s| s["tariffId"].as_str().is_some_and(|t| !t.is_empty())))
        .expect("an operating station with a tariff")["id"]
        .clone();
    let body = json!({"stationId": station, "code": code, "pileType": "ac", "ratedPowerKw": 7, "heartbeatIntervalSecs": 300, "ocppVersion": version,
        "connectors": [{"standard": "gbt2015", "maxPowerKw": 7}]});
    let added = support::call(ctx, Method::POST, "/pile/doAdd", Some(token), Some(body)).await;
    let pile = added.body["data"]["id"].as_str().unwrap_or_else(|| panic!("pile registered: {}", added.body)).to_string();
    let set = support::call(ctx, Method::POST, "/pile/setPassword", Some(token), Some(json!({"id": pile}))).await;
    let password = set.body["data"]["password"].as_str().expect("password set").to_string();
    (pile, format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("{code}:{password}"))))
}

/// One charger's connection: its frames through the session handler, the
/// store's counts taken after each and kept under the message's label.
struct Charger<'a> {
    app: &'a AppCtx,
    counting: &'a CountingTable,
    meter: Option<&'a Meter>,
    session: ocpp::Session<backoffice::domain::assets::piles::Pile>,
    out: BTreeMap<String, Tally>,
    sent: u64,
}

impl Charger<'_> {
    fn take(&mut self, label: &str) {
        let c = self.counting.take();
        let w = self.meter.map(Meter::take);
        add(self.out.entry(label.to_string()).or_default(), c, w);
    }

    /// Sends one CALL and answers its CALLRESULT's payload. The payload
    /// must keep to its schema exactly (the handler reads a charger's
    /// frames leniently: an enumeration value the schema does not list
    /// passes there), and the answer must be a CALLRESULT that keeps to
    /// its own; anything else stops the bench. What the transports do after
    /// an answer (the first on a connection, or a boot's: queued calls are
    /// sent) is its own row.
    async fn call(&mut self, label: &str, action: &str, payload: Value) -> Value {
        let version = self.session.protocol;
        let strict = ocpp::schema::Mode::Strict;
        let checked = match version {
            ocpp::Version::V16 => ocpp::v16::Action::from_name(action).map(|a| a.check_request(&payload, strict)),
            ocpp::Version::V201 => ocpp::v201::Action::from_name(action).map(|a| a.check_request(&payload, strict)),
        };
        match checked {
            Some(Ok(())) => {}
            Some(Err(v)) => panic!("{action} ({}) breaks its schema: {v}\npayload: {payload}", version.label()),
            None => panic!("{action} is no OCPP {} action", version.label()),
        }
        // The operations settings are cached per process for 10 s of wall
        // time: their refresh is the process's cost, not a message's, and
        // would land on whichever message follows its expiry (on a slow
        // store, a different one each run). Kept warm, outside the counts.
        backoffice::domain::operations::current(self.app).await.expect("the operations settings");
        self.counting.take();
        if let Some(m) = self.meter {
            m.take();
        }
        self.sent += 1;
        let id = format!("b{}", self.sent);
        let frame = json!([2, id, action, payload]).to_string();
        let reply = self.session.on_text(self.app, &frame).await;
        self.take(label);
        if self.session.wants_wake() {
            self.session.after_reply(self.app).await;
            self.take(AFTER_FIRST);
        }
        let reply: Value = reply.as_deref().and_then(|r| serde_json::from_str(r).ok()).unwrap_or_else(|| panic!("{action}: no answer to {frame}"));
        let result = match reply.as_array().map(Vec::as_slice) {
            Some([kind, rid, result]) if kind == 3 && rid == &json!(id) => result.clone(),
            _ => panic!("{action} ({}) was not answered with a CALLRESULT: {reply}\nsent: {frame}", version.label()),
        };
        let answered = match version {
            ocpp::Version::V16 => ocpp::v16::Action::from_name(action).map(|a| a.check_response(&result, strict)),
            ocpp::Version::V201 => ocpp::v201::Action::from_name(action).map(|a| a.check_response(&result, strict)),
        };
        if let Some(Err(v)) = answered {
            panic!("the answer to {action} ({}) breaks its schema: {v}\nanswer: {result}", version.label());
        }
        result
    }
}

/// Opens a connection of the pile `code` speaking `protocol`, from an
/// address of the internet (the guessing counters are part of the cost,
/// on AWS too).
async fn connect<'a>(app: &'a AppCtx, counting: &'a CountingTable, meter: Option<&'a Meter>, code: &str, basic: &str, protocol: &str, address: &str) -> Charger<'a> {
    let h = ocpp::Handshake { charge_point: code, protocols: Some(protocol), authorization: Some(basic), secure: false, address };
    let admitted = ocpp::admit(app, &h).await.unwrap_or_else(|e| panic!("{code} admitted: {e:?}"));
    assert_eq!(admitted.protocol.subprotocol(), protocol, "the handshake speaks the pile's version");
    let mut out = BTreeMap::new();
    let c = counting.take();
    add(out.entry(HANDSHAKE.to_string()).or_default(), c, meter.map(Meter::take));
    let session = ocpp::Session::open(app, admitted, format!("bench-{code}"), "127.0.0.1", ocpp::now_ms()).await.expect("opened");
    let mut charger = Charger { app, counting, meter, session, out, sent: 0 };
    charger.take(RECORDED);
    charger
}

impl Charger<'_> {
    async fn close(mut self) -> BTreeMap<String, Tally> {
        self.session.close(self.app).await;
        self.take(DISCONNECT);
        self.out
    }
}

const TAG: &str = "DEMO0001";

/// An AC charger's readings: the energy register, the power and the
/// current of each phase (both versions send the same).
fn v16_sample(wh: i64) -> Value {
    json!([
        {"value": wh.to_string(), "measurand": "Energy.Active.Import.Register", "unit": "Wh"},
        {"value": "6.6", "measurand": "Power.Active.Import", "unit": "kW"},
        {"value": "9.6", "measurand": "Current.Import", "phase": "L1", "unit": "A"},
        {"value": "9.5", "measurand": "Current.Import", "phase": "L2", "unit": "A"},
        {"value": "9.6", "measurand": "Current.Import", "phase": "L3", "unit": "A"}
    ])
}

fn v201_sample(wh: i64, context: &str) -> Value {
    json!([
        {"value": wh, "context": context, "measurand": "Energy.Active.Import.Register", "unitOfMeasure": {"unit": "Wh"}},
        {"value": 6.6, "context": context, "measurand": "Power.Active.Import", "unitOfMeasure": {"unit": "kW"}},
        {"value": 9.6, "context": context, "measurand": "Current.Import", "phase": "L1", "unitOfMeasure": {"unit": "A"}},
        {"value": 9.5, "context": context, "measurand": "Current.Import", "phase": "L2", "unitOfMeasure": {"unit": "A"}},
        {"value": 9.6, "context": context, "measurand": "Current.Import", "phase": "L3", "unitOfMeasure": {"unit": "A"}}
    ])
}

/// Energy at 6.6 kW, `secs` into a session.
fn wh_after(secs: i64) -> i64 {
    1000 + secs * 6600 / 3600
}

/// The 1.6 charger: boot, statuses, heartbeats, one session of an hour
/// (Preparing, Charging, Finishing, Available; MeterValues every 60 s).
async fn script_v16(c: &mut Charger<'_>, now: i64) {
    let start = now - SESSION_SECS - 300;
    let status = |connector: u32, status: &str, at: i64| json!({"connectorId": connector, "status": status, "errorCode": "NoError", "timestamp": iso(at)});
    let boot = c.call("BootNotification", "BootNotification", json!({"chargePointVendor": "Bench", "chargePointModel": "AC7"})).await;
    assert_eq!(boot["status"], "Accepted", "{boot}");
    c.call("StatusNotification", "StatusNotification", status(0, "Available", start - 600)).await;
    c.call("StatusNotification", "StatusNotification", status(1, "Available", start - 600)).await;
    c.call("Heartbeat", "Heartbeat", json!({})).await;
    c.call("Heartbeat", "Heartbeat", json!({})).await;
    let auth = c.call("Authorize", "Authorize", json!({"idTag": TAG})).await;
    assert_eq!(auth["idTagInfo"]["status"], "Accepted", "{auth}");
    c.call("StatusNotification", "StatusNotification", status(1, "Preparing", start - 10)).await;
    let started = c.call("StartTransaction", "StartTransaction", json!({"connectorId": 1, "idTag": TAG, "meterStart": 1000, "timestamp": iso(start)})).await;
    let tx = started["transactionId"].as_i64().unwrap_or_else(|| panic!("a transaction id: {started}"));
    c.call("StatusNotification", "StatusNotification", status(1, "Charging", start + 1)).await;
    for i in 1..=SESSION_SECS / V16_METER_SECS {
        let at = start + i * V16_METER_SECS;
        let payload = json!({"connectorId": 1, "transactionId": tx, "meterValue": [{"timestamp": iso(at), "sampledValue": v16_sample(wh_after(at - start))}]});
        c.call("MeterValues (in a session)", "MeterValues", payload).await;
    }
    let end = start + SESSION_SECS;
    c.call("StopTransaction", "StopTransaction", json!({"transactionId": tx, "meterStop": wh_after(SESSION_SECS), "timestamp": iso(end), "reason": "Local", "idTag": TAG})).await;
    c.call("StatusNotification", "StatusNotification", status(1, "Finishing", end + 1)).await;
    c.call("StatusNotification", "StatusNotification", status(1, "Available", end + 60)).await;
}

/// One TransactionEvent of transaction `tx`: `info` adds to its
/// transactionInfo, `values` is its one meter value's samples, `extra`
/// its other fields (evse, idToken).
fn event(kind: &str, (trigger, seq, at): (&str, i64, i64), tx: &str, info: Value, values: Option<Value>, extra: Value) -> Value {
    let mut info = info;
    info["transactionId"] = json!(tx);
    let mut e = json!({"eventType": kind, "timestamp": iso(at), "triggerReason": trigger, "seqNo": seq, "transactionInfo": info});
    if let Some(v) = values {
        e["meterValue"] = json!([{"timestamp": iso(at), "sampledValue": v}]);
    }
    if let Value::Object(m) = extra {
        e.as_object_mut().expect("an object").extend(m);
    }
    e
}

fn id_token() -> Value {
    json!({"idToken": TAG, "type": "ISO14443"})
}

/// The 2.0.1 station (one EVSE): boot, status, heartbeats; transaction A,
/// authorized first, TransactionEvent Updated every 10 s; transaction B,
/// the cable plugged in first, Updated every 60 s (three of them repeat
/// the charging state, as some stations do), MeterValues of the EVSE and
/// of the main meter; then the device model's and the security reports.
async fn script_v201(c: &mut Charger<'_>, now: i64) {
    let a = now - 2 * SESSION_SECS - 1200;
    let b = a + SESSION_SECS + 600;
    let status = |state: &str, at: i64| json!({"timestamp": iso(at), "connectorStatus": state, "evseId": 1, "connectorId": 1});
    let boot = c.call("BootNotification", "BootNotification", json!({"chargingStation": {"vendorName": "Bench", "model": "AC7-201", "firmwareVersion": "2.0.1-1"}, "reason": "PowerUp"})).await;
    assert_eq!(boot["status"], "Accepted", "{boot}");
    c.call("StatusNotification", "StatusNotification", status("Available", a - 600)).await;
    c.call("Heartbeat", "Heartbeat", json!({})).await;
    c.call("Heartbeat", "Heartbeat", json!({})).await;

    // A: authorized, then the transaction starts charging.
    let auth = c.call("Authorize", "Authorize", json!({"idToken": id_token()})).await;
    assert_eq!(auth["idTokenInfo"]["status"], "Accepted", "{auth}");
    c.call("StatusNotification (Occupied)", "StatusNotification", status("Occupied", a - 10)).await;
    let tx = "BENCH-201-A";
    let started = c
        .call(
            "TransactionEvent Started",
            "TransactionEvent",
            event("Started", ("Authorized", 0, a), tx, json!({"chargingState": "Charging"}), Some(v201_sample(wh_after(0), "Transaction.Begin")), json!({"evse": {"id": 1, "connectorId": 1}, "idToken": id_token()})),
        )
        .await;
    assert_eq!(started["idTokenInfo"]["status"], "Accepted", "{started}");
    let fast = updates_per_session(V201_FAST_SECS);
    for i in 1..=fast {
        let at = a + i * V201_FAST_SECS;
        c.call(UPDATED_FAST, "TransactionEvent", event("Updated", ("MeterValuePeriodic", i, at), tx, json!({}), Some(v201_sample(wh_after(at - a), "Sample.Periodic")), json!({}))).await;
        if i % 120 == 60 {
            // The main meter (EVSE 0): no session's readings.
            c.call("MeterValues (EVSE 0, main meter)", "MeterValues", json!({"evseId": 0, "meterValue": [{"timestamp": iso(at + 5), "sampledValue": v201_sample(500_000 + i, "Sample.Clock")}]})).await;
        }
    }
    let end = a + SESSION_SECS;
    let ended = c
        .call(
            ENDED_FAST,
            "TransactionEvent",
            event("Ended", ("StopAuthorized", fast + 1, end), tx, json!({"stoppedReason": "Local"}), Some(v201_sample(wh_after(SESSION_SECS), "Transaction.End")), json!({"idToken": id_token()})),
        )
        .await;
    assert!(ended["totalCost"].as_f64().is_some_and(|cost| cost > 0.0), "an ended transaction is priced: {ended}");
    c.call("StatusNotification", "StatusNotification", status("Available", end + 60)).await;

    // B: the cable first (the transaction begins before anyone is authorized).
    let tx = "BENCH-201-B";
    c.call("StatusNotification (Occupied)", "StatusNotification", status("Occupied", b - 10)).await;
    let early = c
        .call(
            "TransactionEvent Started (cable first)",
            "TransactionEvent",
            event("Started", ("CablePluggedIn", 0, b), tx, json!({"chargingState": "EVConnected"}), Some(v201_sample(wh_after(0), "Transaction.Begin")), json!({"evse": {"id": 1, "connectorId": 1}})),
        )
        .await;
    assert!(early.get("idTokenInfo").is_none(), "no token yet: {early}");
    c.call("Authorize", "Authorize", json!({"idToken": id_token()})).await;
    let opened = c.call("TransactionEvent Updated (authorized)", "TransactionEvent", event("Updated", ("Authorized", 1, b + 30), tx, json!({"chargingState": "Charging"}), None, json!({"idToken": id_token()}))).await;
    assert_eq!(opened["idTokenInfo"]["status"], "Accepted", "{opened}");
    let slow = updates_per_session(V201_SLOW_SECS);
    for i in 1..=slow {
        let at = b + i * V201_SLOW_SECS;
        let (label, info) = if i % 15 == 0 { ("TransactionEvent Updated (state again)", json!({"chargingState": "Charging"})) } else { (UPDATED_SLOW, json!({})) };
        c.call(label, "TransactionEvent", event("Updated", ("MeterValuePeriodic", i + 1, at), tx, info, Some(v201_sample(wh_after(at - b), "Sample.Periodic")), json!({}))).await;
        if i % 20 == 10 {
            // Clock-aligned readings of the EVSE: they go to its transaction.
            c.call("MeterValues (EVSE 1, in a session)", "MeterValues", json!({"evseId": 1, "meterValue": [{"timestamp": iso(at + 30), "sampledValue": v201_sample(wh_after(at + 30 - b), "Sample.Clock")}]})).await;
        }
    }
    let end = b + SESSION_SECS;
    let ended = c
        .call(
            ENDED_SLOW,
            "TransactionEvent",
            event("Ended", ("EVCommunicationLost", slow + 2, end), tx, json!({"stoppedReason": "EVDisconnected"}), Some(v201_sample(wh_after(SESSION_SECS), "Transaction.End")), json!({})),
        )
        .await;
    assert!(ended["totalCost"].as_f64().is_some_and(|cost| cost > 0.0), "an ended transaction is priced: {ended}");
    c.call("StatusNotification", "StatusNotification", status("Available", end + 60)).await;

    // What a station reports now and then.
    let variable = |component: &str, name: &str, value: &str, data_type: &str| {
        json!({"component": {"name": component}, "variable": {"name": name}, "variableAttribute": [{"type": "Actual", "value": value, "mutability": "ReadWrite"}],
            "variableCharacteristics": {"dataType": data_type, "supportsMonitoring": false}})
    };
    let report = json!({"requestId": 1, "generatedAt": iso(now - 300), "seqNo": 0, "tbc": false, "reportData": [
        variable("OCPPCommCtrlr", "HeartbeatInterval", "300", "integer"),
        variable("SampledDataCtrlr", "TxUpdatedInterval", "10", "integer"),
        variable("SampledDataCtrlr", "TxUpdatedMeasurands", "Energy.Active.Import.Register,Power.Active.Import,Current.Import", "MemberList"),
        variable("AuthCtrlr", "AuthorizeRemoteStart", "true", "boolean")
    ]});
    c.call("NotifyReport (one page, 4 variables)", "NotifyReport", report).await;
    let events = json!({"generatedAt": iso(now - 200), "seqNo": 0, "tbc": false, "eventData": [{"eventId": 1, "timestamp": iso(now - 200), "trigger": "Delta", "actualValue": "Available",
        "component": {"name": "Connector", "evse": {"id": 1, "connectorId": 1}}, "variable": {"name": "AvailabilityState"}, "eventNotificationType": "HardWiredNotification"}]});
    c.call("NotifyEvent", "NotifyEvent", events).await;
    c.call("SecurityEventNotification", "SecurityEventNotification", json!({"type": "SettingSystemTime", "timestamp": iso(now - 100), "techInfo": "NTP"})).await;
    let shown = json!({"requestId": 1, "tbc": false, "messageInfo": [{"id": 1, "priority": "NormalCycle", "state": "Idle", "message": {"format": "UTF8", "language": "en", "content": "Welcome"}}]});
    c.call("NotifyDisplayMessages", "NotifyDisplayMessages", shown).await;
}

/// Both chargers on one store: the 1.6 one, then the 2.0.1 one (each from
/// an address of its own, so each handshake is its first there).
async fn measure(store: Arc<dyn Table>, meter: Option<&Meter>, dir: &std::path::Path) -> (BTreeMap<String, Tally>, BTreeMap<String, Tally>) {
    let counting = Arc::new(CountingTable::new(store));
    let ctx = support::context(counting.clone(), ORDERS, dir);
    let token = support::sign_in(&ctx).await;
    let stamp = ctx.now() % 100_000;
    let (code16, code201) = (format!("COST{stamp}"), format!("COST{stamp}V2"));
    let (_, basic16) = charger(&ctx, &token, &code16, "1.6").await;
    let (_, basic201) = charger(&ctx, &token, &code201, "2.0.1").await;
    counting.take();
    if let Some(m) = meter {
        m.take();
    }
    let app: &AppCtx = &ctx;
    let mut c = connect(app, &counting, meter, &code16, &basic16, "ocpp1.6", "203.0.113.10").await;
    script_v16(&mut c, app.now()).await;
    let v16 = c.close().await;
    let mut c = connect(app, &counting, meter, &code201, &basic201, "ocpp2.0.1", "203.0.113.11").await;
    script_v201(&mut c, app.now()).await;
    let v201 = c.close().await;
    (v16, v201)
}

fn print(name: &str, rows: &BTreeMap<String, Tally>, wire: bool) {
    let width = rows.keys().map(|k| k.chars().count()).max().unwrap_or(7).max(7);
    println!("\n{name}: store calls per message (mean over the messages sent)");
    println!(
        "{:<width$} {:>4} {:>7} {:>5} {:>8} {:>7} {:>11} {:>14} {:>5}{}",
        "message",
        "n",
        "calls",
        "gets",
        "queries",
        "writes",
        "items read",
        "items written",
        "WRU",
        if wire { "  wire requests  RCU (wire)" } else { "" }
    );
    for (label, t) in rows {
        let n = t.n.max(1) as f64;
        let per = |v: u64| v as f64 / n;
        print!(
            "{:<width$} {:>4} {:>7.1} {:>5.1} {:>8.1} {:>7.1} {:>11.1} {:>14.1} {:>5.1}",
            label,
            t.n,
            per(t.counts.calls),
            per(t.counts.gets),
            per(t.counts.queries),
            per(t.counts.writes),
            per(t.counts.items_read),
            per(t.counts.items_written),
            per(t.counts.write_units)
        );
        if wire {
            print!("  {:>13.1}  {:>10.1}", per(t.wire_requests), t.wire_rcu / n);
        }
        println!();
    }
    let growing: Vec<String> = rows.iter().filter(|(_, t)| t.n >= 10 && t.last_wru != t.first_wru).map(|(l, t)| format!("{l} {} -> {}", t.first_wru, t.last_wru)).collect();
    if !growing.is_empty() {
        println!("WRU of the first -> the last message (the order's curve is written whole each time): {}", growing.join("; "));
    }
}

/// A charger's day, stated (the realistic day): a heartbeat every
/// 300 s, two connectors each charging a quarter of the time in one-hour
/// sessions, meter values while charging (1.6: MeterValues every 60 s;
/// 2.0.1: TransactionEvent Updated every 10 s), four status changes per
/// session, a boot a day, and API Gateway closing every connection at its
/// 2-hour limit (the charger reconnects).
struct Day {
    heartbeats: f64,
    sessions: f64,
    connects: f64,
    boots: f64,
}

const DAY: Day = Day { heartbeats: 86_400.0 / 300.0, sessions: 2.0 * 24.0 * 0.25, connects: 12.0, boots: 1.0 };

/// One version's day: how many of each row's message a charger sends.
struct Profile {
    name: &'static str,
    /// What a session is, in words.
    session: String,
    mix: Vec<(&'static str, f64)>,
}

fn connection_rows(mix: &mut Vec<(&'static str, f64)>) {
    mix.extend([(HANDSHAKE, DAY.connects), (RECORDED, DAY.connects), (AFTER_FIRST, DAY.connects), (DISCONNECT, DAY.connects), ("Heartbeat", DAY.heartbeats), ("BootNotification", DAY.boots)]);
}

/// 1.6: Authorize, StartTransaction, MeterValues every 60 s, StopTransaction
/// and four StatusNotifications (Preparing, Charging, Finishing, Available).
fn profile_v16() -> Profile {
    let s = DAY.sessions;
    let meter_values = (SESSION_SECS / V16_METER_SECS) as f64;
    let mut mix = vec![("Authorize", s), ("StartTransaction", s), ("MeterValues (in a session)", s * meter_values), ("StopTransaction", s), ("StatusNotification", 4.0 * s)];
    connection_rows(&mut mix);
    Profile { name: "OCPP 1.6", session: format!("Authorize, StartTransaction, {meter_values:.0} MeterValues (60 s), StopTransaction, 4 StatusNotifications"), mix }
}

/// 2.0.1: Authorize, TransactionEvent Started (charging), Updated every
/// 10 s (the fleet priced) or every 60 s (beside 1.6), Ended; the
/// connector's status changes ride on them but for Occupied and
/// Available, two StatusNotifications.
fn profile_v201(every: i64) -> Profile {
    let s = DAY.sessions;
    let updates = updates_per_session(every) as f64;
    let (updated, ended, name) = if every == V201_FAST_SECS { (UPDATED_FAST, ENDED_FAST, "OCPP 2.0.1") } else { (UPDATED_SLOW, ENDED_SLOW, "OCPP 2.0.1 at 60 s") };
    let mut mix = vec![("Authorize", s), ("TransactionEvent Started", s), (updated, s * updates), (ended, s), ("StatusNotification (Occupied)", s), ("StatusNotification", s)];
    connection_rows(&mut mix);
    Profile { name, session: format!("Authorize, TransactionEvent Started, {updates:.0} Updated ({every} s), Ended, StatusNotification Occupied and Available"), mix }
}

/// List prices used (us-east-1, on-demand, arm64), as published in 2025
/// (DynamoDB after its November 2024 on-demand reduction). Printed with
/// the figures; check the current price pages before relying on them.
struct Prices {
    apigw_per_million_messages: f64,
    apigw_per_million_connection_minutes: f64,
    lambda_per_million_requests: f64,
    lambda_per_gb_second: f64,
    dynamo_per_million_wru: f64,
    dynamo_per_million_rru: f64,
    fargate_vcpu_hour: f64,
    fargate_gb_hour: f64,
    nlb_hour: f64,
    nlb_lcu_hour: f64,
    nat_hour: f64,
    nat_per_gb: f64,
    public_ipv4_hour: f64,
}

const PRICES: Prices = Prices {
    apigw_per_million_messages: 1.00,
    apigw_per_million_connection_minutes: 0.25,
    lambda_per_million_requests: 0.20,
    lambda_per_gb_second: 0.000_013_333_4,
    dynamo_per_million_wru: 0.625,
    dynamo_per_million_rru: 0.125,
    fargate_vcpu_hour: 0.032_38,
    fargate_gb_hour: 0.003_56,
    nlb_hour: 0.022_5,
    nlb_lcu_hour: 0.006,
    nat_hour: 0.045,
    nat_per_gb: 0.045,
    public_ipv4_hour: 0.005,
};
const PRICES_AS_OF: &str = "us-east-1 list prices as published in 2025";

/// Modelled Lambda time per invocation: compute plus one in-region
/// DynamoDB round trip per store call (the handlers call the store one
/// call at a time). An assumption, stated; the call counts are measured.
const LAMBDA_BASE_MS: f64 = 3.0;
const DYNAMO_CALL_MS: f64 = 7.0;
const LAMBDA_GB: f64 = 0.25;
/// Chargers one container task (1 vCPU, 2 GB) serves. Measured with
/// ocpp-load (README): 5,000 chargers at a 60 s heartbeat and 10 s meter
/// values used about a quarter of one core and 17 KB each; a task is taken
/// to serve 10,000 (about half its CPU, a tenth of its memory).
const CHARGERS_PER_TASK: f64 = 10_000.0;
const HOURS_A_MONTH: f64 = 730.0;
/// The container edge's layout (infra/container/stack.yaml): two
/// Availability Zones, tasks in private subnets, one NAT gateway a zone
/// (image pulls, logs, secrets; the table through a free DynamoDB gateway
/// endpoint), a public IPv4 address for each NAT gateway and for the load
/// balancer in each zone.
const ZONES: f64 = 2.0;
/// An NLB LCU of TLS traffic covers 3,000 active connections (or 50 new
/// a second, or 1 GB an hour): the chargers' sockets are what it bills.
const TLS_CONNECTIONS_PER_LCU: f64 = 3_000.0;
/// What passes a NAT gateway a task-month (image pulls on deploys, logs).
const NAT_GB_PER_TASK_MONTH: f64 = 2.0;

/// One charger's day over a profile: the sums of its rows, and each
/// row's write units.
struct DayTotals {
    messages: f64,
    calls: f64,
    rru: f64,
    wru: f64,
    wru_by_row: Vec<(&'static str, f64)>,
}

/// Per charger and day: messages in, store calls, RRU and WRU summed over
/// the profile's rows.
fn per_charger_day(rows: &BTreeMap<String, Tally>, profile: &Profile) -> DayTotals {
    let per = |label: &str| {
        let t = rows.get(label).unwrap_or_else(|| panic!("{}: the day's {label} was not measured", profile.name));
        let n = t.n.max(1) as f64;
        (t.counts.calls as f64 / n, t.counts.items_read as f64 / n, t.counts.write_units as f64 / n)
    };
    let mut day = DayTotals { messages: 0.0, calls: 0.0, rru: 0.0, wru: 0.0, wru_by_row: Vec::new() };
    for &(label, n) in &profile.mix {
        let (calls, rru, wru) = per(label);
        if !label.starts_with('(') {
            day.messages += n;
        }
        day.calls += n * calls;
        day.rru += n * rru;
        day.wru += n * wru;
        day.wru_by_row.push((label, n * wru));
    }
    day
}

fn container_edge(n: f64) -> f64 {
    let tasks = (n / CHARGERS_PER_TASK).ceil().max(2.0);
    let lcus = n / TLS_CONNECTIONS_PER_LCU;
    let fargate = tasks * HOURS_A_MONTH * (PRICES.fargate_vcpu_hour + 2.0 * PRICES.fargate_gb_hour);
    let nlb = HOURS_A_MONTH * (PRICES.nlb_hour + lcus * PRICES.nlb_lcu_hour);
    let nat = ZONES * HOURS_A_MONTH * PRICES.nat_hour + tasks * NAT_GB_PER_TASK_MONTH * PRICES.nat_per_gb;
    let public_ipv4 = 2.0 * ZONES * HOURS_A_MONTH * PRICES.public_ipv4_hour;
    fargate + nlb + nat + public_ipv4
}

fn cost_model(rows: &BTreeMap<String, Tally>, profile: &Profile) {
    let DayTotals { messages, calls, rru, wru, wru_by_row } = per_charger_day(rows, profile);
    let month = 30.0;
    let invocations = (messages + 2.0 * DAY.connects) * month;
    let lambda_ms = invocations * LAMBDA_BASE_MS + calls * month * DYNAMO_CALL_MS;
    println!(
        "\nCost model, {} (bench/src/ocpp_cost.rs): one charger's day = {:.0} heartbeats, {:.0} sessions ({}), {:.0} reconnects, {:.0} boot",
        profile.name, DAY.heartbeats, DAY.sessions, profile.session, DAY.connects, DAY.boots
    );
    println!("per charger and month: {:.0} OCPP messages in, {:.0} store calls, {:.0} RRU, {:.0} WRU (counted above), {:.0} Lambda invocations", messages * month, calls * month, rru * month, wru * month, invocations);
    let mut shares = wru_by_row;
    shares.sort_by(|a, b| b.1.total_cmp(&a.1));
    let shares: Vec<String> = shares.iter().take(4).map(|(l, w)| format!("{l} {:.0}%", 100.0 * w / wru.max(1.0))).collect();
    println!("WRU by message: {}", shares.join(", "));
    println!("prices: {PRICES_AS_OF}: API Gateway WebSocket ${}/M messages, ${}/M connection minutes; Lambda arm64 ${}/M requests, ${}/GB-s at {} GB; DynamoDB on-demand ${}/M WRU, ${}/M RRU; Fargate arm64 ${}/vCPU-h, ${}/GB-h; NLB ${}/h + ${}/LCU-h; NAT gateway ${}/h + ${}/GB; public IPv4 ${}/h",
        PRICES.apigw_per_million_messages, PRICES.apigw_per_million_connection_minutes, PRICES.lambda_per_million_requests, PRICES.lambda_per_gb_second, LAMBDA_GB,
        PRICES.dynamo_per_million_wru, PRICES.dynamo_per_million_rru, PRICES.fargate_vcpu_hour, PRICES.fargate_gb_hour, PRICES.nlb_hour, PRICES.nlb_lcu_hour,
        PRICES.nat_hour, PRICES.nat_per_gb, PRICES.public_ipv4_hour);
    println!("assumed: Lambda {LAMBDA_BASE_MS} ms + {DYNAMO_CALL_MS} ms per store call; a container task (1 vCPU, 2 GB) serves {CHARGERS_PER_TASK:.0} chargers, at least 2 tasks, in {ZONES:.0} zones with a NAT gateway each, an NLB LCU a {TLS_CONNECTIONS_PER_LCU:.0} TLS sockets");
    println!("{:>9} {:>12} {:>10} {:>10} {:>12} {:>16} {:>16}", "chargers", "API Gateway", "Lambda", "DynamoDB", "serverless", "container edge", "(edge+DynamoDB)");
    let dynamo_one = (wru * PRICES.dynamo_per_million_wru + rru * PRICES.dynamo_per_million_rru) * month / 1e6;
    // Each CALL in is answered: two metered messages.
    let apigw_one = (2.0 * messages * month * PRICES.apigw_per_million_messages + 1440.0 * month * PRICES.apigw_per_million_connection_minutes) / 1e6;
    let lambda_one = invocations * PRICES.lambda_per_million_requests / 1e6 + lambda_ms / 1000.0 * LAMBDA_GB * PRICES.lambda_per_gb_second;
    for n in [100.0, 1_000.0, 10_000.0, 100_000.0] {
        let serverless = n * (apigw_one + lambda_one + dynamo_one);
        let edge = container_edge(n);
        println!("{:>9.0} {:>12.2} {:>10.2} {:>10.2} {:>12.2} {:>16.2} {:>16.2}", n, n * apigw_one, n * lambda_one, n * dynamo_one, serverless, edge, edge + n * dynamo_one);
    }
    let crossover = (100..=200_000).step_by(100).map(|n| n as f64).find(|&n| n * (apigw_one + lambda_one) > container_edge(n));
    match crossover {
        Some(n) => println!("crossover: from about {n:.0} chargers the container edge costs less than API Gateway + Lambda (DynamoDB is the same for both)"),
        None => println!("crossover: none up to 200,000 chargers"),
    }
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let dir = PathBuf::from(value("--dir").unwrap_or_else(|| "target/bench-ocpp".into()));
    std::fs::create_dir_all(&dir).expect("bench dir");
    let sqlite: Arc<dyn Table> = Arc::new(store::sqlite::SqliteTable::open_in_memory().expect("in-memory SQLite"));
    support::seed(sqlite.clone(), ORDERS, &dir).await;
    let (v16, v201) = measure(sqlite, None, &dir).await;
    print("SQLite, OCPP 1.6", &v16, false);
    print("SQLite, OCPP 2.0.1", &v201, false);
    cost_model(&v16, &profile_v16());
    cost_model(&v201, &profile_v201(V201_FAST_SECS));
    cost_model(&v201, &profile_v201(V201_SLOW_SECS));
    if let Some(endpoint) = value("--endpoint") {
        let meter = Meter::default();
        let name = format!("ocpp-cost-{}", std::process::id());
        let table = support::dynamo_table(&endpoint, &name, &meter).await;
        let table: Arc<dyn Table> = Arc::new(table);
        support::seed_dynamo(table.clone(), ORDERS, &dir).await;
        meter.take();
        let (v16, v201) = measure(table, Some(&meter), &dir).await;
        print("DynamoDB (wire), OCPP 1.6", &v16, true);
        print("DynamoDB (wire), OCPP 2.0.1", &v201, true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both scripts run on SQLite (every answer a CALLRESULT), every row of
    /// both days is measured, and what both versions share costs the same.
    #[tokio::test]
    async fn both_versions_are_answered_and_every_row_of_their_day_measured() {
        let dir = std::env::temp_dir().join(format!("ocpp-cost-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("test dir");
        let sqlite: Arc<dyn Table> = Arc::new(store::sqlite::SqliteTable::open_in_memory().expect("in-memory SQLite"));
        support::seed(sqlite.clone(), ORDERS, &dir).await;
        let (v16, v201) = measure(sqlite, None, &dir).await;
        let _ = std::fs::remove_dir_all(&dir);
        per_charger_day(&v16, &profile_v16());
        per_charger_day(&v201, &profile_v201(V201_FAST_SECS));
        per_charger_day(&v201, &profile_v201(V201_SLOW_SECS));
        assert_eq!(v201[UPDATED_FAST].n, updates_per_session(V201_FAST_SECS) as u64);
        let calls = |rows: &BTreeMap<String, Tally>, label: &str| {
            let t = &rows[label];
            (t.counts.calls / t.n, t.counts.items_read / t.n, t.counts.write_units / t.n)
        };
        for label in [HANDSHAKE, RECORDED, AFTER_FIRST, DISCONNECT, "BootNotification", "Heartbeat", "Authorize"] {
            assert_eq!(calls(&v16, label), calls(&v201, label), "{label}: the same on both versions");
        }
    }
}
