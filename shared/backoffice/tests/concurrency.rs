//! Concurrency: many requests racing on one record through the real
//! dispatch, with real parallelism (a multi-threaded runtime, spawned
//! tasks). Each test runs on both store adapters: SQLite, and DynamoDB
//! (moto) when BACKOFFICE_TEST_DYNAMO_ENDPOINT is set (required, not
//! skipped, when BACKOFFICE_REQUIRE_DYNAMO=1, as in CI). moto is not
//! thread-safe, so on it store calls go one at a time (`SerialTable`):
//! requests still interleave between their reads and conditional writes.
//!
//! - 50 edits of one station from the same version: exactly one wins, the
//!   others get the conflict message, nothing is lost or mixed.
//! - 50 refunds of one order, requested and approved at once (each
//!   approval sent 10 times in parallel): the requests accepted never ask
//!   more than paid, refunds never exceed paid, none applied twice, ledger == applied refunds == the order's refunded
//!   amount == the finance figures.
//! - 20 closes of one order at once: exactly one wins.
//! - 20 offline payments and write-offs of one owed order at once: exactly
//!   one settles it, the rest get 409; ledger, rollups and order agree.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use backoffice::domain::orders::keys;
use backoffice::AppCtx;
use common::*;
use futures::future::join_all;
use serde_json::{json, Value};

/// The product every test runs on: an Arc'd context plus, on DynamoDB,
/// the table to drop afterwards.
struct Fixture {
    ctx: Arc<AppCtx>,
    dynamo: Option<store::dynamo::DynamoTable>,
}

/// Tokens must outlive a slow run on the emulator (tests default to 60 s).
const TTL: (&str, &str) = ("BACKOFFICE_ACCESS_TOKEN_TTL", "900");
/// moto copies the whole table (meter curves included) for every item of
/// a transaction, so the DynamoDB product gets a small demo data set.
const SQLITE_ORDERS: (&str, &str) = ("BACKOFFICE_DEMO_ORDERS", "300");
const DYNAMO_ORDERS: (&str, &str) = ("BACKOFFICE_DEMO_ORDERS", "20");

impl Fixture {
    async fn sqlite() -> Option<Fixture> {
        let store = Arc::new(store::sqlite::SqliteTable::open_in_memory().unwrap());
        Some(Fixture { ctx: product_on(store, &[TTL, SQLITE_ORDERS]).await, dynamo: None })
    }

    async fn dynamo() -> Option<Fixture> {
        let table = dynamo_table("concurrency").await?;
        let started = std::time::Instant::now();
        let ctx = product_on_dynamo(table.clone(), &[TTL, DYNAMO_ORDERS]).await;
        eprintln!("DynamoDB product seeded in {:.1} s", started.elapsed().as_secs_f64());
        Some(Fixture { ctx, dynamo: Some(table) })
    }

    async fn finish(self) {
        if let Some(t) = self.dynamo {
            let _ = t.delete_table().await;
        }
    }
}

/// How many requests race. moto answers a transaction in about a second
/// (it copies the table for each of its items), so the DynamoDB run races
/// fewer requests; the SQLite run races the full numbers.
#[derive(Clone, Copy)]
struct Scale {
    edits: usize,
    refunds: usize,
    approvals_each: usize,
    closes: usize,
}

const FULL: Scale = Scale { edits: 50, refunds: 50, approvals_each: 10, closes: 20 };
const ON_MOTO: Scale = Scale { edits: 6, refunds: 8, approvals_each: 2, closes: 3 };

macro_rules! on_both_adapters {
    ($($name:ident),* $(,)?) => {
        mod on_sqlite { $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn $name() { if let Some(f) = super::Fixture::sqlite().await { super::$name(f.ctx.clone(), super::FULL).await; f.finish().await; } }
        )* }
        mod on_dynamo { $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn $name() { if let Some(f) = super::Fixture::dynamo().await { super::$name(f.ctx.clone(), super::ON_MOTO).await; f.finish().await; } }
        )* }
    };
}

on_both_adapters!(
    fifty_parallel_station_edits_from_one_version_one_wins_nothing_lost,
    fifty_parallel_refunds_never_exceed_paid_and_apply_once,
    parallel_closes_of_one_order_one_wins,
    parallel_settlements_of_one_owed_order_one_wins,
);

// ---------------------------------------------------------------- helpers

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

/// The whole demo history (120 days up to today) as a list range.
fn all_range() -> String {
    let today = keys::local_day(now());
    format!("from={}&to={}", keys::iso_day(today - 130), keys::iso_day(today))
}

fn yuan(fen: i64) -> String {
    format!("{}.{:02}", fen / 100, fen % 100)
}

/// The English text of the standard 409 answer.
fn conflict_msg() -> String {
    envelope::standard_message(409).en
}

/// Every row of a filtered order list (cursor paging).
async fn all_rows(ctx: &AppCtx, token: &str, filter: &str) -> Vec<Value> {
    let mut rows = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut path = format!("/order/getList?{filter}&pageSize=200");
        if let Some(c) = &cursor {
            path.push_str(&format!("&cursor={c}"));
        }
        let a = get(ctx, &path, Some(token)).await;
        assert_eq!(a.code(), 200, "{path}: {}", a.body);
        rows.extend(a.data()["list"].as_array().unwrap().iter().cloned());
        match a.data()["cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return rows,
        }
    }
}

/// Every ledger entry of the demo range (cursor paging).
async fn all_ledger(ctx: &AppCtx, token: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut path = format!("/money/ledger?{}&pageSize=500", all_range());
        if let Some(c) = &cursor {
            path.push_str(&format!("&cursor={c}"));
        }
        let a = get(ctx, &path, Some(token)).await;
        assert_eq!(a.code(), 200, "{path}: {}", a.body);
        out.extend(a.data()["list"].as_array().unwrap().iter().cloned());
        match a.data()["cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return out,
        }
    }
}

const SUM_FIELDS: [&str; 8] = ["energyWh", "electricityFen", "serviceFen", "parkingFen", "discountFen", "amountFen", "paidFen", "refundedFen"];

fn sum(rows: &[Value], field: &str) -> i64 {
    rows.iter().map(|r| r[field].as_i64().unwrap_or(0)).sum()
}

/// The order list's sums: the rows', refunds included (what those orders were refunded).
fn assert_sums_match(sums: &Value, rows: &[Value], what: &str) {
    assert_sums_with_refunds(sums, rows, sum(rows, "refundedFen"), what);
}

/// The rows' sums with `refunded` as the refunds (finance: those approved in the period).
fn assert_sums_with_refunds(sums: &Value, rows: &[Value], refunded: i64, what: &str) {
    assert_eq!(sums["orders"].as_i64(), Some(rows.len() as i64), "{what}: orders");
    for f in SUM_FIELDS.iter().filter(|f| **f != "refundedFen") {
        assert_eq!(sums[f].as_i64(), Some(sum(rows, f)), "{what}: {f}");
    }
    assert_eq!(sums["refundedFen"].as_i64(), Some(refunded), "{what}: refunded");
    assert_eq!(sums["netFen"].as_i64(), Some(sum(rows, "paidFen") - refunded), "{what}: net");
    assert_eq!(sums["writtenOffFen"].as_i64(), Some(written_off(rows)), "{what}: written off");
}

/// The refunds the ledger lists as approved at `station` on `day`: what finance counts as that day's refunds.
async fn granted_on(ctx: &AppCtx, token: &str, station: &str, day: &str) -> i64 {
    let mut total = 0;
    let mut cursor: Option<String> = None;
    loop {
        let mut path = format!("/money/ledger?from={day}&to={day}&pageSize=500");
        if let Some(c) = &cursor {
            path.push_str(&format!("&cursor={c}"));
        }
        let a = get(ctx, &path, Some(token)).await;
        assert_eq!(a.code(), 200, "{path}: {}", a.body);
        total += a.data()["list"].as_array().unwrap().iter().filter(|e| e["kind"] == "refund" && e["stationId"] == station).map(|e| e["amountFen"].as_i64().unwrap()).sum::<i64>();
        match a.data()["cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return total,
        }
    }
}

/// What the rows' write-offs took off the books (the rows carry it in their settlement).
fn written_off(rows: &[Value]) -> i64 {
    rows.iter().filter(|r| r["settlement"]["kind"] == "writeOff").map(|r| r["settlement"]["amountFen"].as_i64().unwrap()).sum()
}

/// The local day (`YYYY-MM-DD`) an order counts on in finance.
fn order_day(row: &Value) -> String {
    keys::iso_day(keys::local_day(row["startTs"].as_i64().unwrap()))
}

/// The finance figures of one station on one day: revenue, settlement and
/// the by-station report all equal the sums of the orders started that day
/// and (refunds, net) the refunds approved that day.
/// Returns the revenue total.
async fn finance_of_day_equals_orders(ctx: &AppCtx, token: &str, station: &str, day: &str) -> Value {
    let range = format!("from={day}&to={day}");
    let rows = all_rows(ctx, token, &format!("{range}&stationId={station}")).await;
    let granted = granted_on(ctx, token, station, day).await;
    let rev = get(ctx, &format!("/money/revenue?granularity=day&{range}&stationId={station}"), Some(token)).await;
    assert_eq!(rev.code(), 200, "{}", rev.body);
    assert_sums_with_refunds(&rev.data()["total"], &rows, granted, "revenue of the station's day");
    let st = get(ctx, &format!("/money/settlement?{range}&stationId={station}"), Some(token)).await;
    assert_eq!(st.code(), 200, "{}", st.body);
    assert_sums_with_refunds(&st.data()["total"], &rows, granted, "settlement of the station's day");
    let by = get(ctx, &format!("/money/byStation?{range}"), Some(token)).await;
    assert_eq!(by.code(), 200, "{}", by.body);
    let mine = by.data()["list"].as_array().unwrap().iter().find(|s| s["stationId"] == station).cloned();
    let mine = mine.unwrap_or_else(|| panic!("the station is in the report: {}", by.body));
    assert_sums_with_refunds(&mine, &rows, granted, "by-station row of the station's day");
    // And the order list's own sums of that filter.
    let list = get(ctx, &format!("/order/getList?{range}&stationId={station}&pageSize=1"), Some(token)).await;
    assert_sums_match(&list.data()["sums"], &rows, "order list sums");
    rev.data()["total"].clone()
}

/// The system log entries of one path and target.
async fn log_of(ctx: &AppCtx, account: &str, path: &str, target: &str) -> Vec<backoffice::domain::audit::LogEntry> {
    let entries = backoffice::domain::audit::page(ctx, &backoffice::domain::audit::LogFilter { account_prefix: Some(account.to_string()), ..Default::default() }, 0, 1000, None).await.unwrap().entries;
    entries.into_iter().filter(|e| e.path == path && e.target == target).collect()
}

/// A Nanning (Guangxi) station: no demo station is in Guangxi.
fn station(code: &str, name: &str) -> Value {
    json!({
        "code": code, "name": name, "operator": "测试运营商",
        "provinceCode": "450000", "cityCode": "450100", "districtCode": "450102",
        "address": "南宁市兴宁区民族大道1号", "lat": 22.817, "lng": 108.366,
        "openingHours": "06:00-23:00", "status": "operating",
        "servicePhone": "0771-12345678", "parkingInfo": "充电免费停车2小时", "tariffId": "tt-gd"
    })
}

/// A stuck order (still charging, never stopped) written through the real
/// write path, copied from a finished demo order (small demo sets may hold
/// no stuck or abnormal order). Returns its list row.
async fn stuck_order(ctx: &AppCtx, token: &str) -> Value {
    let finished = all_rows(ctx, token, &format!("{}&status=finished", all_range())).await;
    let model = finished.first().expect("a finished demo order")["orderNo"].as_str().unwrap().to_string();
    let (mut row, detail, _) = backoffice::domain::orders::load_full(ctx, &model).await.unwrap();
    row.order.order_no = format!("{model}S");
    row.order.status = charging::orders::OrderStatus::Charging;
    row.order.stop_ts = None;
    row.order.stop_reason = None;
    row.order.meter_stop_wh = None;
    row.version = 1;
    ctx.store.transact(backoffice::domain::orders::insert_ops(&row, &detail.expect("the order's detail"))).await.unwrap();
    let listed = get(ctx, &format!("/order/getList?{}&orderNo={}", all_range(), row.order.order_no), Some(token)).await;
    assert_eq!(listed.data()["list"].as_array().map(Vec::len), Some(1), "{}", listed.body);
    listed.data()["list"][0].clone()
}

// ------------------------------------------------------------------ tests

async fn fifty_parallel_station_edits_from_one_version_one_wins_nothing_lost(ctx: Arc<AppCtx>, scale: Scale) {
    let token = login(&ctx, "admin", ADMIN_PW).await;
    let added = post(&ctx, "/station/doAdd", Some(&token), station("CC50", "竞争原站")).await;
    assert_eq!(added.code(), 200, "{}", added.body);
    let id = added.data()["id"].as_str().unwrap().to_string();
    let before = get(&ctx, &format!("/station/getDetail?id={id}"), Some(&token)).await.data().clone();
    assert_eq!(before["station"]["version"], 1);
    let region_before = get(&ctx, "/station/getList?regionCode=450000&pageSize=100", Some(&token)).await.data()["total"].clone();

    // 50 editors save at the same moment from version 1, each a different value.
    let payload = |i: usize| {
        let mut v = station("CC50", &format!("竞争站{i:02}"));
        v["id"] = json!(id);
        v["version"] = json!(1);
        v["parkingInfo"] = json!(format!("停车说明{i:02}"));
        v["address"] = json!(format!("南宁市兴宁区民族大道{i}号"));
        // A decimal as a person types it (22.801), not 22.8 + 0.001 (22.801000000000002).
        v["lat"] = json!(format!("22.{}", 800 + i).parse::<f64>().unwrap());
        v
    };
    let tasks = (0..scale.edits).map(|i| {
        let (ctx, token, body) = (ctx.clone(), token.clone(), payload(i));
        tokio::spawn(async move { (i, post(&ctx, "/station/doEdit", Some(&token), body).await) })
    });
    let answers: Vec<(usize, Answer)> = join_all(tasks).await.into_iter().map(|r| r.unwrap()).collect();
    let winners: Vec<usize> = answers.iter().filter(|(_, a)| a.status == 200).map(|(i, _)| *i).collect();
    assert_eq!(winners.len(), 1, "exactly one edit wins: {:?}", answers.iter().map(|(i, a)| (i, a.status)).collect::<Vec<_>>());
    let winner = winners[0];
    for (i, a) in &answers {
        if *i != winner {
            assert_eq!(a.status, 409, "edit {i}: {}", a.body);
            assert_eq!(a.msg(), conflict_msg(), "edit {i} gets the conflict message");
        }
    }

    // The stored station is the winner's payload, one version on.
    let after = get(&ctx, &format!("/station/getDetail?id={id}"), Some(&token)).await.data().clone();
    let sent = payload(winner);
    for (field, value) in sent.as_object().unwrap() {
        if field == "version" {
            continue;
        }
        match (after["station"][field].as_f64(), value.as_f64()) {
            // Coordinates are kept to 6 decimals.
            (Some(stored), Some(sent)) => assert!((stored - sent).abs() < 1e-9, "stored {field} {stored} is the winner's {sent}"),
            _ => assert_eq!(&after["station"][field], value, "stored {field} is the winner's"),
        }
    }
    assert_eq!(after["station"]["version"], 2, "version advanced by exactly one");
    assert_eq!(after["station"]["updatedBy"], "admin");
    // Nothing else changed.
    for (field, value) in before["station"].as_object().unwrap() {
        if !sent.as_object().unwrap().contains_key(field) && !["version", "updatedAt", "updatedBy"].contains(&field.as_str()) {
            assert_eq!(&after["station"][field], value, "{field} untouched");
        }
    }
    assert_eq!(after["piles"], before["piles"]);
    assert_eq!(after["tariff"], before["tariff"]);
    // The name index holds the winner's name only, once.
    let by_name = |q: &'static str| {
        let (ctx, token) = (ctx.clone(), token.clone());
        async move { get(&ctx, &format!("/station/getList?name={}&pageSize=100", url::form_urlencoded::byte_serialize(q.as_bytes()).collect::<String>()), Some(&token)).await }
    };
    let listed = by_name("竞争").await;
    assert_eq!(listed.data()["total"], 1, "{}", listed.body);
    assert_eq!(listed.data()["list"][0]["name"], json!(format!("竞争站{winner:02}")));
    assert_eq!(by_name("竞争原站").await.data()["total"], 0, "the old name left the index");
    let region_after = get(&ctx, "/station/getList?regionCode=450000&pageSize=100", Some(&token)).await.data()["total"].clone();
    assert_eq!(region_after, region_before);

    // The system log shows exactly one edit, and the refusals.
    let log = log_of(&ctx, "admin", "/station/doEdit", &id).await;
    assert_eq!(log.iter().filter(|e| e.code == 200).count(), 1, "{log:?}");
    assert_eq!(log.iter().filter(|e| e.code == 409).count(), scale.edits - 1, "{log:?}");
    assert_eq!(log.len(), scale.edits);
    assert_eq!(log_of(&ctx, "admin", "/station/doAdd", "竞争原站").await.iter().filter(|e| e.code == 200).count(), 1, "the add is logged too");
}

/// What one refund task saw.
#[derive(Debug)]
struct RefundRun {
    id: Option<String>,
    amount: i64,
    /// Approvals answered 200 (must be at most one).
    wins: usize,
    /// The approval said the amount no longer fits.
    exceeded: bool,
    codes: Vec<u16>,
}

async fn fifty_parallel_refunds_never_exceed_paid_and_apply_once(ctx: Arc<AppCtx>, scale: Scale) {
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    // A paid order nothing was refunded from.
    let rows = all_rows(&ctx, &admin, &format!("{}&paymentStatus=paid", all_range())).await;
    let order = rows.iter().filter(|r| r["refundedFen"] == 0).max_by_key(|r| r["paidFen"].as_i64().unwrap()).expect("a paid order").clone();
    let (no, paid) = (order["orderNo"].as_str().unwrap().to_string(), order["paidFen"].as_i64().unwrap());
    assert!(paid >= 100, "order {no} paid {paid}");
    let (station, day) = (order["stationId"].as_str().unwrap().to_string(), order_day(&order));
    // Refunds count on their approval day (today; the clock stands still so
    // midnight cannot pass in between), the order on its start day.
    ctx.clock.freeze();
    let today = keys::iso_day(keys::local_day(ctx.now()));
    let finance_before = finance_of_day_equals_orders(&ctx, &admin, &station, &today).await;
    let order_day_before = finance_of_day_equals_orders(&ctx, &admin, &station, &day).await;
    let ledger_before = all_ledger(&ctx, &admin).await.len();

    // Requests that together ask for about five times what was paid.
    let tasks = (0..scale.refunds).map(|i| {
        let (ctx, admin, editor, no) = (ctx.clone(), admin.clone(), editor.clone(), no.clone());
        let amount = (paid * 5 / scale.refunds as i64).max(1) + (i as i64 % 7);
        tokio::spawn(async move {
            let req = post(&ctx, "/order/refund/request", Some(&editor), json!({"orderNo": no, "amount": yuan(amount), "reason": format!("并发退款{i}")})).await;
            let mut run = RefundRun { id: None, amount, wins: 0, exceeded: false, codes: vec![req.status] };
            if req.status != 200 {
                // Already too much approved for this one to fit.
                assert_eq!(req.status, 400, "request {i}: {}", req.body);
                assert!(req.msg().contains("exceeds"), "request {i}: {}", req.msg());
                return run;
            }
            let id = req.data()["id"].as_str().unwrap().to_string();
            run.id = Some(id.clone());
            // The same approval several times at once; again (like a user
            // reloading) while the request is still pending.
            for _round in 0..60 {
                let approvals = (0..scale.approvals_each).map(|_| {
                    let (ctx, admin, body) = (ctx.clone(), admin.clone(), json!({"orderNo": no, "refundId": id}));
                    tokio::spawn(async move { post(&ctx, "/order/refund/approve", Some(&admin), body).await })
                });
                let answers: Vec<Answer> = join_all(approvals).await.into_iter().map(|r| r.unwrap()).collect();
                for a in &answers {
                    run.codes.push(a.status);
                    match a.status {
                        200 => run.wins += 1,
                        409 => {}
                        400 => {
                            assert!(a.msg().contains("exceeds"), "approval of {id}: {}", a.msg());
                            run.exceeded = true;
                        }
                        other => panic!("approval of {id} answered {other}: {}", a.body),
                    }
                }
                if run.wins > 0 || run.exceeded {
                    break;
                }
            }
            run
        })
    });
    let runs: Vec<RefundRun> = join_all(tasks).await.into_iter().map(|r| r.unwrap()).collect();

    // Requests never add up to more than was paid (pending ones count against
    // what may still be requested), whatever the interleaving.
    let requested: i64 = runs.iter().filter(|r| r.id.is_some()).map(|r| r.amount).sum();
    assert!(requested <= paid, "requests accepted for {requested} > paid {paid}");
    // Each refund applied at most once; what was acknowledged is what is applied.
    for r in &runs {
        assert!(r.wins <= 1, "refund {:?} approved {} times: {:?}", r.id, r.wins, r.codes);
    }
    let acknowledged: BTreeMap<String, i64> = runs.iter().filter(|r| r.wins == 1).map(|r| (r.id.clone().unwrap(), r.amount)).collect();
    let detail = get(&ctx, &format!("/order/detail?id={no}"), Some(&admin)).await;
    assert_eq!(detail.code(), 200);
    let mine: BTreeSet<String> = runs.iter().filter_map(|r| r.id.clone()).collect();
    let approved: BTreeMap<String, i64> = detail.data()["refunds"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"] == "approved")
        .map(|r| (r["id"].as_str().unwrap().to_string(), r["amountFen"].as_i64().unwrap()))
        .collect();
    assert!(approved.keys().all(|id| mine.contains(id)), "only this test's refunds are approved: {approved:?}");
    assert_eq!(approved, acknowledged, "approved refunds are exactly the acknowledged approvals");
    let applied: i64 = approved.values().sum();
    assert!(applied > 0, "some refunds were applied");
    assert!(applied <= paid, "refunded {applied} > paid {paid}");
    // A refund refused as too large really no longer fits.
    for r in runs.iter().filter(|r| r.exceeded) {
        assert!(r.amount > paid - applied, "{r:?} was refused but fits into {}", paid - applied);
    }
    // The order, the ledger and finance agree.
    let d = detail.data();
    assert_eq!(d["refundedFen"].as_i64(), Some(applied), "the order's refunded amount");
    assert_eq!(d["refundableFen"].as_i64(), Some(paid - applied));
    assert_eq!(d["paymentStatus"], if applied == paid { "refunded" } else { "partiallyRefunded" });
    let ledger = all_ledger(&ctx, &admin).await;
    assert_eq!(ledger.len(), ledger_before + approved.len(), "one ledger entry per applied refund, nothing else");
    let entries: BTreeMap<String, i64> = ledger
        .iter()
        .filter(|e| e["orderNo"] == json!(no))
        .map(|e| (e["refundId"].as_str().unwrap().to_string(), e["amountFen"].as_i64().unwrap()))
        .collect();
    assert_eq!(entries, approved, "ledger entries == applied refunds");
    assert_eq!(entries.values().sum::<i64>(), applied, "order refunded == ledger sum");
    let finance_after = finance_of_day_equals_orders(&ctx, &admin, &station, &today).await;
    assert_eq!(finance_after["refundedFen"].as_i64().unwrap() - finance_before["refundedFen"].as_i64().unwrap(), applied, "finance refunds of the day/station");
    assert_eq!(finance_before["netFen"].as_i64().unwrap() - finance_after["netFen"].as_i64().unwrap(), applied, "finance net of the day/station");
    if day != today {
        assert_eq!(finance_of_day_equals_orders(&ctx, &admin, &station, &day).await, order_day_before, "the order's own day does not change");
    }
    // The system log holds one successful approval per applied refund.
    let log = log_of(&ctx, "admin", "/order/refund/approve", &no).await;
    assert_eq!(log.iter().filter(|e| e.code == 200).count(), approved.len());
}

async fn parallel_closes_of_one_order_one_wins(ctx: Arc<AppCtx>, scale: Scale) {
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    // A stuck (still charging) or abnormal order: the ones a person closes.
    let mut closable = all_rows(&ctx, &editor, &format!("{}&status=abnormal", all_range())).await;
    closable.extend(all_rows(&ctx, &editor, &format!("{}&status=charging", all_range())).await);
    let order = match closable.first() {
        Some(o) => o.clone(),
        None => stuck_order(&ctx, &editor).await,
    };
    let status = order["status"].as_str().unwrap().to_string();
    let no = order["orderNo"].as_str().unwrap().to_string();
    let (station, day) = (order["stationId"].as_str().unwrap().to_string(), order_day(&order));
    let count = |status: &'static str| {
        let (ctx, editor) = (ctx.clone(), editor.clone());
        async move {
            let a = get(&ctx, &format!("/order/getList?{}&status={status}&pageSize=1", all_range()), Some(&editor)).await;
            a.data()["sums"]["orders"].as_i64().unwrap()
        }
    };
    let (open_before, done_before) = (count("abnormal").await + count("charging").await, count("finished").await + count("cancelled").await);
    finance_of_day_equals_orders(&ctx, &editor, &station, &day).await;

    let tasks = (0..scale.closes).map(|i| {
        let (ctx, editor, no) = (ctx.clone(), editor.clone(), no.clone());
        tokio::spawn(async move { (i, post(&ctx, "/order/close", Some(&editor), json!({"orderNo": no, "reason": format!("并发结单{i}")})).await) })
    });
    let answers: Vec<(usize, Answer)> = join_all(tasks).await.into_iter().map(|r| r.unwrap()).collect();
    let winners: Vec<usize> = answers.iter().filter(|(_, a)| a.status == 200).map(|(i, _)| *i).collect();
    assert_eq!(winners.len(), 1, "exactly one close wins: {:?}", answers.iter().map(|(i, a)| (i, a.status, a.msg().to_string())).collect::<Vec<_>>());
    for (i, a) in &answers {
        // A loser either lost the race (409) or read the order already closed (400).
        assert!(a.status == 200 || a.status == 409 || a.status == 400, "close {i}: {}", a.body);
        if a.status == 409 {
            assert_eq!(a.msg(), conflict_msg());
        }
    }
    let d = get(&ctx, &format!("/order/detail?id={no}"), Some(&editor)).await;
    assert_eq!(d.data()["closeReason"], json!(format!("并发结单{}", winners[0])), "the winner's reason is stored");
    assert_eq!(d.data()["version"].as_i64(), Some(order["version"].as_i64().unwrap() + 1), "closed once");
    assert!(matches!(d.data()["status"].as_str(), Some("finished" | "cancelled")));
    // The rollups moved by exactly one order.
    assert_eq!(count("abnormal").await + count("charging").await, open_before - 1, "the {status} order left its status once");
    assert_eq!(count("finished").await + count("cancelled").await, done_before + 1);
    finance_of_day_equals_orders(&ctx, &editor, &station, &day).await;
    let log = log_of(&ctx, "editor", "/order/close", &no).await;
    assert_eq!(log.iter().filter(|e| e.code == 200).count(), 1, "{log:?}");
    assert_eq!(log.len(), scale.closes);
}

async fn parallel_settlements_of_one_owed_order_one_wins(ctx: Arc<AppCtx>, scale: Scale) {
    let (admin, editor) = (login(&ctx, "admin", ADMIN_PW).await, login(&ctx, "editor", EDITOR_PW).await);
    // A stuck order that was never paid, closed by hand: finished, unpaid, owed.
    let finished = all_rows(&ctx, &admin, &format!("{}&status=finished", all_range())).await;
    let model = finished.iter().find(|r| r["amountFen"].as_i64().unwrap() > 0).expect("a priced demo order")["orderNo"].as_str().unwrap().to_string();
    let (mut row, detail, _) = backoffice::domain::orders::load_full(&ctx, &model).await.unwrap();
    row.order.order_no = format!("{model}O");
    row.order.status = charging::orders::OrderStatus::Charging;
    (row.order.stop_ts, row.order.stop_reason, row.order.meter_stop_wh) = (None, None, None);
    (row.order.paid_fen, row.order.refunded_fen, row.order.payment_status) = (charging::Fen::ZERO, charging::Fen::ZERO, charging::orders::PaymentStatus::Unpaid);
    row.settlement = None;
    row.version = 1;
    ctx.store.transact(backoffice::domain::orders::insert_ops(&row, &detail.unwrap())).await.unwrap();
    let closed = post(&ctx, "/order/close", Some(&editor), json!({"orderNo": row.order.order_no, "reason": "人工结单"})).await;
    assert_eq!(closed.code(), 200, "{}", closed.body);
    let order = closed.data().clone();
    let no = row.order.order_no.clone();
    let owed = order["amountFen"].as_i64().unwrap();
    assert!(owed > 0 && order["paymentStatus"] == "unpaid", "{order}");
    let (station, day) = (order["stationId"].as_str().unwrap().to_string(), order_day(&order));
    finance_of_day_equals_orders(&ctx, &admin, &station, &day).await;
    let ledger_before = all_ledger(&ctx, &admin).await.len();

    // Half pay, half write off, all at once.
    let tasks = (0..scale.closes).map(|i| {
        let (ctx, admin, no) = (ctx.clone(), admin.clone(), no.clone());
        tokio::spawn(async move {
            let a = if i % 2 == 0 {
                post(&ctx, "/order/settle/offlinePayment", Some(&admin), json!({"orderNo": no, "method": "cash", "reference": format!("R{i}"), "amount": yuan(owed)})).await
            } else {
                post(&ctx, "/order/settle/writeOff", Some(&admin), json!({"orderNo": no, "reason": format!("核销{i}")})).await
            };
            (i, a)
        })
    });
    let answers: Vec<(usize, Answer)> = join_all(tasks).await.into_iter().map(|r| r.unwrap()).collect();
    let winners: Vec<usize> = answers.iter().filter(|(_, a)| a.status == 200).map(|(i, _)| *i).collect();
    assert_eq!(winners.len(), 1, "exactly one settles: {:?}", answers.iter().map(|(i, a)| (i, a.status, a.msg().to_string())).collect::<Vec<_>>());
    for (i, a) in &answers {
        assert!(a.status == 200 || a.status == 409, "settlement {i}: {}", a.body);
    }
    let w = winners[0];
    let d = get(&ctx, &format!("/order/detail?id={no}"), Some(&admin)).await;
    let d = d.data();
    assert_eq!(d["version"].as_i64(), Some(order["version"].as_i64().unwrap() + 1), "settled once");
    if w % 2 == 0 {
        assert_eq!((d["paymentStatus"].as_str(), d["paidFen"].as_i64(), d["settlement"]["reference"].as_str()), (Some("paid"), Some(owed), Some(format!("R{w}").as_str())));
    } else {
        assert_eq!((d["paymentStatus"].as_str(), d["paidFen"].as_i64(), d["settlement"]["reason"].as_str()), (Some("writtenOff"), Some(0), Some(format!("核销{w}").as_str())));
    }
    // One ledger entry, of the winner's kind; rollups equal their orders.
    let ledger = all_ledger(&ctx, &admin).await;
    assert_eq!(ledger.len(), ledger_before + 1);
    let mine: Vec<&Value> = ledger.iter().filter(|e| e["orderNo"] == no.as_str()).collect();
    assert_eq!(mine.len(), 1, "{mine:?}");
    assert_eq!(mine[0]["kind"], if w % 2 == 0 { "offlinePayment" } else { "writeOff" });
    assert_eq!(mine[0]["amountFen"].as_i64(), Some(owed));
    finance_of_day_equals_orders(&ctx, &admin, &station, &day).await;
    let paid_log = log_of(&ctx, "admin", "/order/settle/offlinePayment", &no).await;
    let off_log = log_of(&ctx, "admin", "/order/settle/writeOff", &no).await;
    assert_eq!(paid_log.len() + off_log.len(), scale.closes);
    assert_eq!(paid_log.iter().chain(&off_log).filter(|e| e.code == 200).count(), 1);
}
