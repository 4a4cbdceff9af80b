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
    t.counts.write_units += c.write_units;
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
    // An address of the internet: the guessing counters are part of the cost (on AWS too).
    let h = ocpp::Handshake { charge_point: &code, protocols: Some("ocpp1.6"), authorization: Some(&basic), secure: false, address: "203.0.113.10" };
    let app: &AppCtx = &ctx;
    let admitted = ocpp::admit(app, &h).await.expect("admitted");
    take("(handshake: $connect check)", &mut out);
    let session = ocpp::Session::open(app, admitted, "bench-1".into(), "127.0.0.1", ocpp::now_ms()).await.expect("opened");
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
        let reply = session.on_text(app, &json!([2, id.to_string(), action, payload]).to_string()).await;
        replies.push(reply.clone().unwrap_or_default());
        take(action, &mut out);
    }
    let tx: i64 = serde_json::from_str::<Value>(replies.last().unwrap()).ok().and_then(|v| v[2]["transactionId"].as_i64()).expect("a transaction id");
    for i in 1..=5 {
        let payload = json!({"connectorId": 1, "transactionId": tx, "meterValue": [{"timestamp": iso(start_ts + i * 600),
            "sampledValue": [{"value": (1000 + i * 1100).to_string()}, {"value": "6.6", "measurand": "Power.Active.Import", "unit": "kW"}]}]});
        session.on_text(app, &json!([2, format!("m{i}"), "MeterValues", payload]).to_string()).await;
        take("MeterValues (in a session)", &mut out);
    }
    let stop = json!({"transactionId": tx, "meterStop": 7000, "timestamp": iso(start_ts + 3300), "reason": "Local", "idTag": tag});
    session.on_text(app, &json!([2, "s1", "StopTransaction", stop]).to_string()).await;
    take("StopTransaction", &mut out);
    session.on_text(app, &json!([2, "x1", "StatusNotification", {"connectorId": 1, "status": "Finishing", "errorCode": "NoError", "timestamp": iso(start_ts + 3301)}]).to_string()).await;
    take("StatusNotification", &mut out);
    session.close(app).await;
    take("(disconnect)", &mut out);
    out
}

fn print(name: &str, rows: &BTreeMap<String, Tally>, wire: bool) {
    println!("\n{name}: store calls per message (mean over the messages sent)");
    println!("{:<30} {:>4} {:>7} {:>5} {:>8} {:>7} {:>11} {:>14} {:>5}{}", "message", "n", "calls", "gets", "queries", "writes", "items read", "items written", "WRU", if wire { "  wire requests" } else { "" });
    for (label, t) in rows {
        let n = t.n.max(1) as f64;
        let per = |v: u64| v as f64 / n;
        print!(
            "{:<30} {:>4} {:>7.1} {:>5.1} {:>8.1} {:>7.1} {:>11.1} {:>14.1} {:>5.1}",
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
            print!("  {:>13.1}", per(t.wire_requests));
        }
        println!();
    }
}

/// A charger's day, stated (the realistic day): a heartbeat every
/// 300 s, two connectors each charging a quarter of the time in one-hour
/// sessions, meter values every 60 s while charging, four status changes
/// per session, a boot a day, and API Gateway closing every connection at
/// its 2-hour limit (the charger reconnects).
struct Day {
    heartbeats: f64,
    sessions: f64,
    meter_values: f64,
    connects: f64,
    boots: f64,
}

const DAY: Day = Day { heartbeats: 86_400.0 / 300.0, sessions: 2.0 * 24.0 * 0.25, meter_values: 2.0 * 24.0 * 0.25 * 60.0, connects: 12.0, boots: 1.0 };

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

/// Per charger and day: (messages in, store calls, RRU, WRU) summed over the profile.
fn per_charger_day(rows: &BTreeMap<String, Tally>) -> (f64, f64, f64, f64) {
    let per = |label: &str| {
        let t = rows.get(label).map(|t| (t.n.max(1) as f64, t.counts)).unwrap_or((1.0, Counts::default()));
        (t.1.calls as f64 / t.0, t.1.items_read as f64 / t.0, t.1.write_units as f64 / t.0)
    };
    let mix = [
        ("Heartbeat", DAY.heartbeats),
        ("MeterValues (in a session)", DAY.meter_values),
        ("Authorize", DAY.sessions),
        ("StartTransaction", DAY.sessions),
        ("StopTransaction", DAY.sessions),
        ("StatusNotification", 4.0 * DAY.sessions),
        ("BootNotification", DAY.boots),
        ("(handshake: $connect check)", DAY.connects),
        ("(connection recorded)", DAY.connects),
        ("(disconnect)", DAY.connects),
    ];
    let mut out = (0.0, 0.0, 0.0, 0.0);
    for (label, n) in mix {
        let (calls, rru, wru) = per(label);
        if !label.starts_with('(') {
            out.0 += n;
        }
        out.1 += n * calls;
        out.2 += n * rru;
        out.3 += n * wru;
    }
    out
}

fn cost_model(rows: &BTreeMap<String, Tally>) {
    let (messages, calls, rru, wru) = per_charger_day(rows);
    let month = 30.0;
    let invocations = (messages + 2.0 * DAY.connects) * month;
    let lambda_ms = invocations * LAMBDA_BASE_MS + calls * month * DYNAMO_CALL_MS;
    println!("\nCost model (bench/src/ocpp_cost.rs): one charger's day = {:.0} heartbeats, {:.0} sessions, {:.0} meter values, {:.0} reconnects, {:.0} boot", DAY.heartbeats, DAY.sessions, DAY.meter_values, DAY.connects, DAY.boots);
    println!("per charger and month: {:.0} OCPP messages in, {:.0} store calls, {:.0} RRU, {:.0} WRU (counted above), {:.0} Lambda invocations", messages * month, calls * month, rru * month, wru * month, invocations);
    println!("prices: {PRICES_AS_OF}: API Gateway WebSocket ${}/M messages, ${}/M connection minutes; Lambda arm64 ${}/M requests, ${}/GB-s at {} GB; DynamoDB on-demand ${}/M WRU, ${}/M RRU; Fargate arm64 ${}/vCPU-h, ${}/GB-h; NLB ${}/h + ${}/LCU-h",
        PRICES.apigw_per_million_messages, PRICES.apigw_per_million_connection_minutes, PRICES.lambda_per_million_requests, PRICES.lambda_per_gb_second, LAMBDA_GB,
        PRICES.dynamo_per_million_wru, PRICES.dynamo_per_million_rru, PRICES.fargate_vcpu_hour, PRICES.fargate_gb_hour, PRICES.nlb_hour, PRICES.nlb_lcu_hour);
    println!("assumed: Lambda {LAMBDA_BASE_MS} ms + {DYNAMO_CALL_MS} ms per store call; a container task (1 vCPU, 2 GB) serves {CHARGERS_PER_TASK:.0} chargers, at least 2 tasks");
    println!("{:>9} {:>12} {:>10} {:>10} {:>12} {:>16} {:>16}", "chargers", "API Gateway", "Lambda", "DynamoDB", "serverless", "container edge", "(edge+DynamoDB)");
    let dynamo_one = (wru * PRICES.dynamo_per_million_wru + rru * PRICES.dynamo_per_million_rru) * month / 1e6;
    // Each CALL in is answered: two metered messages.
    let apigw_one = (2.0 * messages * month * PRICES.apigw_per_million_messages + 1440.0 * month * PRICES.apigw_per_million_connection_minutes) / 1e6;
    let lambda_one = invocations * PRICES.lambda_per_million_requests / 1e6 + lambda_ms / 1000.0 * LAMBDA_GB * PRICES.lambda_per_gb_second;
    let mut crossover = None;
    for n in [100.0, 1_000.0, 10_000.0, 100_000.0] {
        let serverless = n * (apigw_one + lambda_one + dynamo_one);
        let tasks = (n / CHARGERS_PER_TASK).ceil().max(2.0);
        let lcus = (n / 100_000.0).ceil().max(1.0);
        let edge = tasks * HOURS_A_MONTH * (PRICES.fargate_vcpu_hour + 2.0 * PRICES.fargate_gb_hour) + HOURS_A_MONTH * (PRICES.nlb_hour + lcus * PRICES.nlb_lcu_hour);
        println!("{:>9.0} {:>12.2} {:>10.2} {:>10.2} {:>12.2} {:>16.2} {:>16.2}", n, n * apigw_one, n * lambda_one, n * dynamo_one, serverless, edge, edge + n * dynamo_one);
    }
    for n in (100..=200_000).step_by(100) {
        let n = n as f64;
        let tasks = (n / CHARGERS_PER_TASK).ceil().max(2.0);
        let lcus = (n / 100_000.0).ceil().max(1.0);
        let edge = tasks * HOURS_A_MONTH * (PRICES.fargate_vcpu_hour + 2.0 * PRICES.fargate_gb_hour) + HOURS_A_MONTH * (PRICES.nlb_hour + lcus * PRICES.nlb_lcu_hour);
        if n * (apigw_one + lambda_one) > edge {
            crossover = Some(n);
            break;
        }
    }
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
    let on_sqlite = measure(sqlite, None, &dir).await;
    print("SQLite", &on_sqlite, false);
    cost_model(&on_sqlite);
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
