//! Store cost per OCPP message type: a scripted charger (boot, status,
//! authorize, a session with meter values, heartbeats) goes through the
//! charger link's own session handler (`ocpp::Session`, what the local
//! gateway's socket and the Lambda routes call) with a counting decorator
//! around the store. Printed per message type: store calls (gets, queries,
//! writes), items read and items written; on DynamoDB (`--endpoint`, e.g.
//! moto) also the requests on the wire. These counts are the input of the
//! cost model (bench/README.md): they do not depend on the machine.
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

#[derive(Default)]
struct Tally {
    n: u64,
    counts: Counts,
    wire_requests: u64,
}

fn add(t: &mut Tally, c: Counts, w: Option<Wire>) {
    t.n += 1;
    t.counts.calls += c.calls;
    t.counts.gets += c.gets;
    t.counts.queries += c.queries;
    t.counts.batch_gets += c.batch_gets;
    t.counts.writes += c.writes;
    t.counts.items_read += c.items_read;
    t.counts.items_written += c.items_written;
    t.wire_requests += w.map_or(0, |w| w.requests());
}

fn iso(ts: i64) -> String {
    ocpp::v16::iso(ts)
}

/// Registers a pile with a password on the first operating station.
async fn charger(ctx: &AppCtx, token: &str, code: &str) -> (String, String) {
    let stations = support::call(ctx, Method::GET, "/station/getList?pageNo=1&pageSize=20&status=operating", Some(token), None).await;
    let station = stations.body["data"]["list"]
        .as_array()
        .and_then(|l| l.iter().find(|s| s["tariffId"].as_str().is_some_and(|t| !t.is_empty())))
        .expect("an operating station with a tariff")["id"]
        .clone();
    let body = json!({"stationId": station, "code": code, "pileType": "ac", "ratedPowerKw": 7, "heartbeatIntervalSecs": 300,
        "connectors": [{"standard": "gbt2015", "maxPowerKw": 7}]});
    let added = support::call(ctx, Method::POST, "/pile/doAdd", Some(token), Some(body)).await;
    let pile = added.body["data"]["id"].as_str().expect("pile registered").to_string();
    let set = support::call(ctx, Method::POST, "/pile/setPassword", Some(token), Some(json!({"id": pile}))).await;
    let password = set.body["data"]["password"].as_str().expect("password set").to_string();
    (pile, format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("{code}:{password}"))))
}

async fn measure(store: Arc<dyn Table>, meter: Option<&Meter>, dir: &std::path::Path) -> BTreeMap<String, Tally> {
    let counting = Arc::new(CountingTable::new(store));
    let ctx = support::context(counting.clone(), ORDERS, dir);
    let token = support::sign_in(&ctx).await;
    let code = format!("COST{}", ctx.now() % 100_000);
    let (_pile, basic) = charger(&ctx, &token, &code).await;
    let tag = "DEMO0001";
    let mut out: BTreeMap<String, Tally> = BTreeMap::new();
    let take = |label: &str, out: &mut BTreeMap<String, Tally>| {
        let c = counting.take();
        let w = meter.map(Meter::take);
        add(out.entry(label.to_string()).or_default(), c, w);
    };
    take("(setup)", &mut out);
    out.clear();
    let h = ocpp::Handshake { charge_point: &code, protocols: Some("ocpp1.6"), authorization: Some(&basic), secure: false };
    let admitted = ocpp::admit(&ctx, &h).await.expect("admitted");
    take("(handshake: $connect check)", &mut out);
    let session = ocpp::Session::open(&ctx, admitted, "bench-1".into(), "127.0.0.1", ocpp::now_ms()).await.expect("opened");
    take("(connection recorded)", &mut out);
    let now = ctx.now();
    let mut msg = 0;
    let mut send = |action: &'static str, payload: Value| {
        msg += 1;
        (msg, action, payload)
    };
    let start_ts = now - 3600;
    let mut script = vec![
        send("BootNotification", json!({"chargePointVendor": "Bench", "chargePointModel": "AC7"})),
        send("StatusNotification", json!({"connectorId": 0, "status": "Available", "errorCode": "NoError", "timestamp": iso(now - 4000)})),
        send("StatusNotification", json!({"connectorId": 1, "status": "Available", "errorCode": "NoError", "timestamp": iso(now - 4000)})),
        send("Heartbeat", json!({})),
        send("Heartbeat", json!({})),
        send("Authorize", json!({"idTag": tag})),
        send("StatusNotification", json!({"connectorId": 1, "status": "Preparing", "errorCode": "NoError", "timestamp": iso(start_ts - 10)})),
        send("StartTransaction", json!({"connectorId": 1, "idTag": tag, "meterStart": 1000, "timestamp": iso(start_ts)})),
    ];
    let mut replies = Vec::new();
    for (id, action, payload) in script.drain(..) {
        let reply = session.on_text(&ctx, &json!([2, id.to_string(), action, payload]).to_string()).await;
        replies.push(reply.clone().unwrap_or_default());
        take(action, &mut out);
    }
    let tx: i64 = serde_json::from_str::<Value>(replies.last().unwrap()).ok().and_then(|v| v[2]["transactionId"].as_i64()).expect("a transaction id");
    for i in 1..=5 {
        let payload = json!({"connectorId": 1, "transactionId": tx, "meterValue": [{"timestamp": iso(start_ts + i * 600),
            "sampledValue": [{"value": (1000 + i * 1100).to_string()}, {"value": "6.6", "measurand": "Power.Active.Import", "unit": "kW"}]}]});
        session.on_text(&ctx, &json!([2, format!("m{i}"), "MeterValues", payload]).to_string()).await;
        take("MeterValues (in a session)", &mut out);
    }
    let stop = json!({"transactionId": tx, "meterStop": 7000, "timestamp": iso(start_ts + 3300), "reason": "Local", "idTag": tag});
    session.on_text(&ctx, &json!([2, "s1", "StopTransaction", stop]).to_string()).await;
    take("StopTransaction", &mut out);
    session.on_text(&ctx, &json!([2, "x1", "StatusNotification", {"connectorId": 1, "status": "Finishing", "errorCode": "NoError", "timestamp": iso(start_ts + 3301)}]).to_string()).await;
    take("StatusNotification", &mut out);
    session.close(&ctx).await;
    take("(disconnect)", &mut out);
    out
}

fn print(name: &str, rows: &BTreeMap<String, Tally>, wire: bool) {
    println!("\n{name}: store calls per message (mean over the messages sent)");
    println!("{:<30} {:>4} {:>7} {:>5} {:>8} {:>7} {:>11} {:>14}{}", "message", "n", "calls", "gets", "queries", "writes", "items read", "items written", if wire { "  wire requests" } else { "" });
    for (label, t) in rows {
        let n = t.n.max(1) as f64;
        let per = |v: u64| v as f64 / n;
        print!(
            "{:<30} {:>4} {:>7.1} {:>5.1} {:>8.1} {:>7.1} {:>11.1} {:>14.1}",
            label,
            t.n,
            per(t.counts.calls),
            per(t.counts.gets),
            per(t.counts.queries),
            per(t.counts.writes),
            per(t.counts.items_read),
            per(t.counts.items_written)
        );
        if wire {
            print!("  {:>13.1}", per(t.wire_requests));
        }
        println!();
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
    print("SQLite", &measure(sqlite, None, &dir).await, false);
    if let Some(endpoint) = value("--endpoint") {
        let meter = Meter::default();
        let name = format!("ocpp-cost-{}", std::process::id());
        let table = support::dynamo_table(&endpoint, &name, &meter).await;
        let table: Arc<dyn Table> = Arc::new(table);
        support::seed_dynamo(table.clone(), ORDERS, &dir).await;
        meter.take();
        print("DynamoDB (wire)", &measure(table, Some(&meter), &dir).await, true);
    }
}
