//! Orders, refunds, finance and the dashboard through the real dispatch on
//! an in-memory SQLite store seeded with the demo orders.

mod common;

use std::collections::{BTreeSet, HashMap};

use backoffice::AppCtx;
use common::*;
use serde_json::{json, Value};

/// The whole demo history (120 days up to today) as a list range.
fn all_range() -> String {
    let today = backoffice::domain::orders::keys::local_day(now());
    let k = |d| backoffice::domain::orders::keys::iso_day(d);
    format!("from={}&to={}", k(today - 130), k(today))
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

/// Every row of a filtered list, paging with `size`; asserts no order is seen twice.
async fn all_rows(ctx: &AppCtx, token: &str, filter: &str, size: u32) -> Vec<Value> {
    let mut rows = Vec::new();
    let mut seen = BTreeSet::new();
    let mut cursor: Option<String> = None;
    for _ in 0..10_000 {
        let mut path = format!("/order/getList?{filter}&pageSize={size}");
        if let Some(c) = &cursor {
            path.push_str(&format!("&cursor={c}"));
        }
        let a = get(ctx, &path, Some(token)).await;
        assert_eq!(a.code(), 200, "{path}: {}", a.body);
        for r in a.data()["list"].as_array().unwrap() {
            let no = r["orderNo"].as_str().unwrap().to_string();
            assert!(seen.insert(no.clone()), "order {no} listed twice");
            rows.push(r.clone());
        }
        match a.data()["cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return rows,
        }
    }
    panic!("paging did not end");
}

fn sum(rows: &[Value], field: &str) -> i64 {
    rows.iter().map(|r| r[field].as_i64().unwrap_or(0)).sum()
}

const SUM_FIELDS: [&str; 8] = ["energyWh", "electricityFen", "serviceFen", "parkingFen", "discountFen", "amountFen", "paidFen", "refundedFen"];

/// The order list's sums: the rows', refunds included (what those orders were refunded).
fn assert_sums_match(sums: &Value, rows: &[Value], what: &str) {
    assert_sums_with_refunds(sums, rows, sum(rows, "refundedFen"), what);
}

/// The rows' sums, but with `refunded` as the refunds (finance: the ones
/// granted in the period, whatever day their order started).
fn assert_sums_with_refunds(sums: &Value, rows: &[Value], refunded: i64, what: &str) {
    assert_eq!(sums["orders"].as_i64(), Some(rows.len() as i64), "{what}: orders");
    for f in SUM_FIELDS.iter().filter(|f| **f != "refundedFen") {
        assert_eq!(sums[f].as_i64(), Some(sum(rows, f)), "{what}: {f}");
    }
    assert_eq!(sums["refundedFen"].as_i64(), Some(refunded), "{what}: refunded");
    assert_eq!(sums["netFen"].as_i64(), Some(sum(rows, "paidFen") - refunded), "{what}: net");
    assert_eq!(sums["writtenOffFen"].as_i64(), Some(written_off(rows)), "{what}: written off");
}

/// The refunds the ledger lists as approved in `range` (`from=..&to=..`).
async fn ledger_refunds(ctx: &AppCtx, token: &str, range: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut path = format!("/money/ledger?{range}&pageSize=500");
        if let Some(c) = &cursor {
            path.push_str(&format!("&cursor={c}"));
        }
        let a = get(ctx, &path, Some(token)).await;
        assert_eq!(a.code(), 200, "{path}: {}", a.body);
        out.extend(a.data()["list"].as_array().unwrap().iter().filter(|e| e["kind"] == "refund").cloned());
        match a.data()["cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return out,
        }
    }
}

fn amounts(entries: &[Value], station: Option<&str>) -> i64 {
    entries.iter().filter(|e| station.is_none_or(|s| e["stationId"] == s)).map(|e| e["amountFen"].as_i64().unwrap()).sum()
}

/// What the rows' write-offs took off the books (the rows carry it in their settlement).
fn written_off(rows: &[Value]) -> i64 {
    rows.iter().filter(|r| r["settlement"]["kind"] == "writeOff").map(|r| r["settlement"]["amountFen"].as_i64().unwrap()).sum()
}

#[tokio::test]
async fn the_stuck_limit_is_the_operations_setting() {
    // A week of demo orders: dense enough that some started hours ago and
    // are still charging, whatever the hour the test runs.
    let ctx = product_with(&[("BACKOFFICE_DEMO_ORDERS", "1500"), ("BACKOFFICE_DEMO_DAYS", "7")]).await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let stuck_nos = |rows: &[Value]| rows.iter().map(|r| r["orderNo"].as_str().unwrap().to_string()).collect::<BTreeSet<_>>();
    let at_12h = all_rows(&ctx, &admin, &format!("{}&anomaly=stuck", all_range()), 50).await;
    let charging = all_rows(&ctx, &admin, &format!("{}&status=charging", all_range()), 50).await;
    let running_over = |hours: i64| charging.iter().filter(|r| r["startTs"].as_i64().unwrap() < now() - hours * 3600).count();
    assert_eq!(at_12h.len(), running_over(12));
    assert!(running_over(1) > running_over(12), "the demo has orders charging for between 1 and 12 hours");

    let saved = post(&ctx, "/operationSettings/doEdit", Some(&admin), json!({"offlineAfterIntervals": 3, "stuckAfterHours": 1, "version": 0})).await;
    assert_eq!(saved.code(), 200, "{}", saved.body);
    let at_1h = all_rows(&ctx, &admin, &format!("{}&anomaly=stuck", all_range()), 50).await;
    assert_eq!(at_1h.len(), running_over(1), "the filter follows the setting at once");
    assert!(stuck_nos(&at_1h).is_superset(&stuck_nos(&at_12h)));
    let newly = at_1h.iter().find(|r| !stuck_nos(&at_12h).contains(r["orderNo"].as_str().unwrap())).unwrap();
    assert_eq!(newly["anomalies"][0]["kind"], "neverStopped", "each row says it is stuck: {newly}");
    let no = newly["orderNo"].as_str().unwrap();
    let detail = get(&ctx, &format!("/order/detail?id={no}"), Some(&admin)).await;
    assert_eq!(detail.data()["anomalies"][0]["kind"], "neverStopped", "and so does its detail");
}

async fn sums_of(ctx: &AppCtx, token: &str, filter: &str) -> Value {
    let a = get(ctx, &format!("/order/getList?{filter}&pageSize=1"), Some(token)).await;
    assert_eq!(a.code(), 200, "{}", a.body);
    a.data()["sums"].clone()
}

/// A signed-in user holding only the Test role (read only).
async fn viewer(ctx: &AppCtx) -> String {
    let hash = auth::hash_password("viewer-pass-1").unwrap();
    let user = backoffice::domain::users::User::new("viewer", hash, vec!["Test".into()], ctx.now());
    backoffice::domain::users::create(ctx, &user).await.unwrap();
    login(ctx, "viewer", "viewer-pass-1").await
}

#[tokio::test]
async fn paging_visits_every_order_once_and_sums_match_the_rows() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let rows = all_rows(&ctx, &admin, &all_range(), 37).await;
    assert_eq!(rows.len(), 300, "all seeded orders are listed");
    // Newest first.
    let starts: Vec<i64> = rows.iter().map(|r| r["startTs"].as_i64().unwrap()).collect();
    assert!(starts.windows(2).all(|w| w[0] >= w[1]), "sorted newest first");
    assert_sums_match(&sums_of(&ctx, &admin, &all_range()).await, &rows, "all");
    // Each single filter: the rows all match it, and the sums equal the rows'.
    let station = rows[0]["stationId"].as_str().unwrap().to_string();
    for (filter, field, value) in [
        (format!("stationId={station}"), "stationId", json!(station)),
        ("status=finished".to_string(), "status", json!("finished")),
        ("status=abnormal".to_string(), "status", json!("abnormal")),
        ("paymentStatus=unpaid".to_string(), "paymentStatus", json!("unpaid")),
        ("paymentStatus=paid".to_string(), "paymentStatus", json!("paid")),
        (format!("stationId={station}&status=finished"), "stationId", json!(station)),
    ] {
        let f = format!("{}&{filter}", all_range());
        let got = all_rows(&ctx, &admin, &f, 13).await;
        let want: Vec<&Value> = rows
            .iter()
            .filter(|r| r[field] == value && (!filter.contains("status=finished") || r["status"] == "finished"))
            .collect();
        assert_eq!(got.len(), want.len(), "{filter}");
        assert!(!got.is_empty(), "{filter} finds demo orders");
        assert_sums_match(&sums_of(&ctx, &admin, &f).await, &got, &filter);
    }
    // User, plate and order number.
    let r0 = &rows[5];
    for (k, field) in [("userId", "userId"), ("plate", "plate"), ("orderNo", "orderNo")] {
        let v = r0[field].as_str().unwrap();
        let f = format!("{}&{k}={}", all_range(), url::form_urlencoded::byte_serialize(v.as_bytes()).collect::<String>());
        let got = all_rows(&ctx, &admin, &f, 5).await;
        let want = rows.iter().filter(|r| r[field] == r0[field]).count();
        assert_eq!(got.len(), want, "{k}");
        assert_sums_match(&sums_of(&ctx, &admin, &f).await, &got, k);
    }
    // Combined filters not served by one key still list correctly.
    let f = format!("{}&stationId={station}&paymentStatus=paid", all_range());
    let got = all_rows(&ctx, &admin, &f, 10).await;
    assert_eq!(got.len(), rows.iter().filter(|r| r["stationId"] == json!(station) && r["paymentStatus"] == "paid").count());
}

#[tokio::test]
async fn page_cost_does_not_depend_on_the_number_of_orders() {
    // Items read for one page of 20 are at most the page plus a few
    // month boundaries, never proportional to the table.
    let ctx = product().await;
    let t = login(&ctx, "admin", ADMIN_PW).await;
    let long = get(&ctx, "/order/getList?from=2000-01-01", Some(&t)).await;
    assert_eq!(long.status, 400, "ranges longer than two years are refused: {}", long.body);
    assert!(long.msg().contains("longer than 731 days"), "{}", long.msg());
    let today = backoffice::domain::orders::keys::local_day(now());
    let filter = backoffice::domain::orders::list::Filter { from_day: today - 120, to_day: today, ..Default::default() };
    let page = backoffice::domain::orders::list::page(&ctx, &filter, 20, None).await.unwrap();
    assert_eq!(page.rows.len(), 20);
    assert!(page.items_read <= 20, "read {} items for 20 rows", page.items_read);
}

#[tokio::test]
async fn bad_list_input_is_a_400_that_says_what_is_wrong() {
    let ctx = product().await;
    let t = login(&ctx, "admin", ADMIN_PW).await;
    for (q, needle) in [
        ("from=2025-13-01", "from must be a date"),
        ("from=2025-06-10&to=2025-06-01", "from must not be after to"),
        ("status=done", "status must be one of"),
        ("paymentStatus=x", "paymentStatus must be one of"),
        ("anomaly=x", "anomaly must be one of"),
        ("pageSize=0", "pageSize must be"),
        ("pageSize=501", "pageSize must be"),
        ("cursor=garbage", "cursor"),
    ] {
        let a = get(&ctx, &format!("/order/getList?{q}"), Some(&t)).await;
        assert_eq!(a.status, 400, "{q}: {}", a.body);
        assert!(a.msg().contains(needle), "{q}: {}", a.msg());
    }
    assert_eq!(get(&ctx, "/order/detail?id=CD0000", Some(&t)).await.status, 404);
    assert_eq!(get(&ctx, "/order/detail", Some(&t)).await.status, 400);
    assert_eq!(get(&ctx, "/money/revenue?granularity=week", Some(&t)).await.status, 400);
    assert_eq!(get(&ctx, "/money/settlement", Some(&t)).await.status, 400);
    assert_eq!(get(&ctx, "/order/refund/getList?status=x", Some(&t)).await.status, 400);
    assert_eq!(get(&ctx, "/money/byStation?from=2025-01-02&to=2025-01-01", Some(&t)).await.status, 400);
    assert_eq!(get(&ctx, "/money/ledger?to=someday", Some(&t)).await.status, 400);
    // Decisions need an existing request; malformed bodies say what is missing.
    let missing = post(&ctx, "/order/refund/approve", Some(&t), json!({"orderNo": "CD1"})).await;
    assert_eq!(missing.status, 400);
    assert!(missing.msg().contains("refundId"), "{}", missing.msg());
    assert_eq!(post(&ctx, "/order/refund/approve", Some(&t), json!({"orderNo": "CD1", "refundId": "RFX"})).await.status, 404);
    assert_eq!(post(&ctx, "/order/refund/approval/reject", Some(&t), json!({"orderNo": "CD1", "refundId": "RFX", "note": "x"})).await.status, 404);
    assert_eq!(post(&ctx, "/order/close", Some(&t), json!({"reason": "x"})).await.status, 400);
    assert_eq!(post(&ctx, "/order/close", Some(&t), json!({"orderNo": "CDNOPE", "reason": "x"})).await.status, 404);
}

#[tokio::test]
async fn detail_has_tier_lines_tariff_snapshot_and_curve() {
    let ctx = product().await;
    let t = login(&ctx, "test", TEST_PW).await;
    let rows = all_rows(&ctx, &t, &format!("{}&status=finished", all_range()), 100).await;
    let priced = rows.iter().find(|r| r["amountFen"].as_i64().unwrap() > 0).expect("a priced order");
    let a = get(&ctx, &format!("/order/detail?id={}", priced["orderNo"].as_str().unwrap()), Some(&t)).await;
    assert_eq!(a.code(), 200);
    let d = a.data();
    let lines = d["lines"].as_array().unwrap();
    assert!(!lines.is_empty());
    assert_eq!(lines.iter().map(|l| l["energyWh"].as_i64().unwrap()).sum::<i64>(), d["energyWh"].as_i64().unwrap());
    assert_eq!(lines.iter().map(|l| l["electricityFen"].as_i64().unwrap()).sum::<i64>(), d["electricityFen"].as_i64().unwrap());
    let total = d["electricityFen"].as_i64().unwrap() + d["serviceFen"].as_i64().unwrap() + d["parkingFen"].as_i64().unwrap() - d["discountFen"].as_i64().unwrap();
    assert_eq!(total, d["amountFen"].as_i64().unwrap(), "amount = tiers + parking - discount");
    assert!(d["curve"].as_array().unwrap().len() >= 2, "meter curve");
    assert!(d["tariff"]["segments"].as_array().is_some_and(|s| !s.is_empty()), "tariff snapshot");
}

#[tokio::test]
async fn stuck_orders_are_listed_and_closed_with_who_and_why() {
    let ctx = product_with(&[("BACKOFFICE_DEMO_ORDERS", "1500")]).await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let stuck = all_rows(&ctx, &editor, &format!("{}&anomaly=stuck", all_range()), 50).await;
    assert!(!stuck.is_empty(), "the demo has stuck orders");
    assert!(stuck.iter().all(|r| r["status"] == "charging" && r["anomalies"][0]["kind"] == "neverStopped"));
    let no = stuck[0]["orderNo"].as_str().unwrap().to_string();
    let charging_before = sums_of(&ctx, &editor, &format!("{}&status=charging", all_range())).await["orders"].as_i64().unwrap();

    let viewer = viewer(&ctx).await;
    assert_eq!(post(&ctx, "/order/close", Some(&viewer), json!({"orderNo": no, "reason": "x"})).await.status, 403);
    let empty = post(&ctx, "/order/close", Some(&editor), json!({"orderNo": no, "reason": "  "})).await;
    assert_eq!(empty.status, 400);
    assert!(empty.msg().contains("reason"), "{}", empty.msg());

    let closed = post(&ctx, "/order/close", Some(&editor), json!({"orderNo": no, "reason": "桩离线，人工结单"})).await;
    assert_eq!(closed.code(), 200, "{}", closed.body);
    let d = get(&ctx, &format!("/order/detail?id={no}"), Some(&editor)).await;
    assert_eq!(d.data()["closedBy"], "editor");
    assert_eq!(d.data()["closeReason"], "桩离线，人工结单");
    assert_eq!(d.data()["stopReason"], "manualClose");
    assert!(matches!(d.data()["status"].as_str(), Some("finished" | "cancelled")));
    // Rollups moved with it; closing again is refused.
    let charging_after = sums_of(&ctx, &editor, &format!("{}&status=charging", all_range())).await["orders"].as_i64().unwrap();
    assert_eq!(charging_after, charging_before - 1);
    assert_eq!(post(&ctx, "/order/close", Some(&editor), json!({"orderNo": no, "reason": "again"})).await.status, 400);
    // The system log holds who closed which order (the reason is on the order).
    let log = backoffice::domain::audit::page(&ctx, &backoffice::domain::audit::LogFilter { account_prefix: Some("editor".to_string()), ..Default::default() }, 0, 50, None).await.unwrap().entries;
    assert!(log.iter().any(|e| e.path == "/order/close" && e.target == no && e.code == 200), "{log:?}");
    // Finance still equals the orders.
    finance_equals_orders(&ctx, &editor).await;
}

#[tokio::test]
async fn a_close_that_cannot_price_says_so_and_keeps_why() {
    use backoffice::domain::orders::keys;
    let ctx = product_with(&[("BACKOFFICE_DEMO_ORDERS", "1500")]).await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let stuck = all_rows(&ctx, &editor, &format!("{}&anomaly=stuck", all_range()), 50).await;
    let no = stuck[0]["orderNo"].as_str().unwrap().to_string();
    // The charger's readings go back in time: the session cannot be priced.
    let mut detail = ctx.store.get(&keys::order_detail(&no)).await.unwrap().expect("the order's detail");
    let curve = detail.get_mut("curve").and_then(Value::as_array_mut).unwrap();
    assert!(curve.len() >= 3, "a stuck demo order has readings");
    let first_ts = curve[0]["ts"].clone();
    let last = curve.len() - 1;
    curve[last]["ts"] = first_ts;
    ctx.store.put(detail, None).await.unwrap();

    let closed = post(&ctx, "/order/close", Some(&editor), json!({"orderNo": no, "reason": "桩离线，人工结单"})).await;
    assert_eq!(closed.code(), 200, "{}", closed.body);
    assert!(closed.msg().contains("not billed"), "the closer is told: {}", closed.msg());
    let detail = get(&ctx, &format!("/order/detail?id={no}"), Some(&editor)).await;
    let d = detail.data();
    assert_eq!(d["status"], "finished");
    assert_eq!(d["amountFen"], 0);
    assert!(
        d["anomalies"].as_array().unwrap().iter().any(|a| a["kind"] == "charger" && a["problem"] == "unpriceable"),
        "the order keeps why it is unbilled: {}",
        d["anomalies"]
    );
    // It is found among the flagged orders, so finance can settle it.
    let flagged = all_rows(&ctx, &editor, &format!("{}&anomaly=flagged", all_range()), 200).await;
    assert!(flagged.iter().any(|r| r["orderNo"] == no.as_str()));
}

/// Every finance figure over the demo history adds up to the orders
/// started in it and (refunds, net) to the refunds the ledger lists as
/// approved in it.
async fn finance_equals_orders(ctx: &AppCtx, token: &str) {
    let rows = all_rows(ctx, token, &all_range(), 500).await;
    let granted = ledger_refunds(ctx, token, &all_range()).await;
    let rev = get(ctx, &format!("/money/revenue?granularity=day&{}", all_range()), Some(token)).await;
    assert_eq!(rev.code(), 200);
    assert_sums_with_refunds(&rev.data()["total"], &rows, amounts(&granted, None), "revenue by day");
    let days = rev.data()["list"].as_array().unwrap();
    let mut day_total: HashMap<&str, i64> = HashMap::new();
    for d in days {
        *day_total.entry("amountFen").or_default() += d["amountFen"].as_i64().unwrap();
        *day_total.entry("refundedFen").or_default() += d["refundedFen"].as_i64().unwrap();
    }
    assert_eq!(day_total["amountFen"], sum(&rows, "amountFen"), "the days add up to the total");
    assert_eq!(day_total["refundedFen"], amounts(&granted, None), "the days' refunds add up to the ledger's");
    let months = get(ctx, &format!("/money/revenue?granularity=month&{}", all_range()), Some(token)).await;
    assert_sums_with_refunds(&months.data()["total"], &rows, amounts(&granted, None), "revenue by month");
    let by_station = get(ctx, &format!("/money/byStation?{}", all_range()), Some(token)).await;
    assert_sums_with_refunds(&by_station.data()["total"], &rows, amounts(&granted, None), "by station");
    for s in by_station.data()["list"].as_array().unwrap() {
        let id = s["stationId"].as_str().unwrap();
        let mine: Vec<Value> = rows.iter().filter(|r| r["stationId"] == id).cloned().collect();
        assert_sums_with_refunds(s, &mine, amounts(&granted, Some(id)), id);
        let st = get(ctx, &format!("/money/settlement?stationId={id}&{}", all_range()), Some(token)).await;
        assert_sums_with_refunds(&st.data()["total"], &mine, amounts(&granted, Some(id)), "settlement");
    }
}

#[tokio::test]
async fn finance_totals_equal_the_orders_behind_them() {
    let ctx = product().await;
    let t = login(&ctx, "admin", ADMIN_PW).await;
    finance_equals_orders(&ctx, &t).await;
}

/// A paid order with nothing refunded yet.
async fn refundable_order(ctx: &AppCtx, token: &str) -> (String, i64) {
    let rows = all_rows(ctx, token, &format!("{}&paymentStatus=paid", all_range()), 200).await;
    let r = rows.iter().find(|r| r["paidFen"].as_i64().unwrap() >= 200).expect("a paid order");
    (r["orderNo"].as_str().unwrap().to_string(), r["paidFen"].as_i64().unwrap())
}

/// A paid order with no refund request at all (not one of the seeded pending ones).
async fn unrequested_order(ctx: &AppCtx, token: &str) -> (String, i64) {
    let rows = all_rows(ctx, token, &format!("{}&paymentStatus=paid", all_range()), 200).await;
    for r in rows.iter().filter(|r| r["paidFen"].as_i64().unwrap() >= 300) {
        let no = r["orderNo"].as_str().unwrap();
        let d = get(ctx, &format!("/order/detail?id={no}"), Some(token)).await;
        if d.data()["refunds"].as_array().unwrap().is_empty() {
            return (no.to_string(), r["paidFen"].as_i64().unwrap());
        }
    }
    panic!("no paid order without requests");
}

fn yuan(fen: i64) -> String {
    format!("{}.{:02}", fen / 100, fen % 100)
}

#[tokio::test]
async fn refunds_are_requested_by_editors_and_approved_by_admins_only() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let viewer = viewer(&ctx).await;
    let (no, paid) = refundable_order(&ctx, &admin).await;
    let pending_before = get(&ctx, "/order/refund/getList?status=pending&pageSize=200", Some(&admin)).await.data()["list"].as_array().unwrap().len();

    // Bad input: nothing is written.
    for (body, needle) in [
        (json!({"orderNo": no, "amount": "abc", "reason": "x"}), "amount"),
        (json!({"orderNo": no, "amount": "0", "reason": "x"}), "greater than 0"),
        (json!({"orderNo": no, "amount": "1.234", "reason": "x"}), "amount"),
        (json!({"orderNo": no, "amount": yuan(paid + 1), "reason": "x"}), "exceeds"),
        (json!({"orderNo": no, "amount": "1.00", "reason": " "}), "reason"),
        (json!({"amount": "1.00", "reason": "x"}), "orderNo"),
    ] {
        let a = post(&ctx, "/order/refund/request", Some(&editor), body.clone()).await;
        assert_eq!(a.status, 400, "{body}: {}", a.body);
        assert!(a.msg().contains(needle), "{body}: {}", a.msg());
    }
    assert_eq!(post(&ctx, "/order/refund/request", Some(&editor), json!({"orderNo": "CDNOPE", "amount": "1", "reason": "x"})).await.status, 404);
    assert_eq!(post(&ctx, "/order/refund/request", Some(&viewer), json!({"orderNo": no, "amount": "1", "reason": "x"})).await.status, 403);
    let pending_now = get(&ctx, "/order/refund/getList?status=pending&pageSize=200", Some(&admin)).await.data()["list"].as_array().unwrap().len();
    assert_eq!(pending_now, pending_before, "refused requests wrote nothing");

    let finance_before = get(&ctx, &format!("/money/revenue?{}", all_range()), Some(&admin)).await.data()["total"].clone();
    let req = post(&ctx, "/order/refund/request", Some(&editor), json!({"orderNo": no, "amount": yuan(100), "reason": "充电中断"})).await;
    assert_eq!(req.code(), 200, "{}", req.body);
    let id = req.data()["id"].as_str().unwrap().to_string();
    let decide = json!({"orderNo": no, "refundId": id});
    assert_eq!(post(&ctx, "/order/refund/approve", Some(&editor), decide.clone()).await.status, 403, "editors cannot approve");
    assert_eq!(post(&ctx, "/order/refund/approve", Some(&viewer), decide.clone()).await.status, 403);
    let ok = post(&ctx, "/order/refund/approve", Some(&admin), decide.clone()).await;
    assert_eq!(ok.code(), 200, "{}", ok.body);
    assert_eq!(ok.data()["order"]["refundedFen"], 100);
    assert_eq!(ok.data()["order"]["paymentStatus"], "partiallyRefunded");
    assert_eq!(post(&ctx, "/order/refund/approve", Some(&admin), decide.clone()).await.status, 409, "never applied twice");
    assert_eq!(post(&ctx, "/order/refund/approval/reject", Some(&admin), decide).await.status, 409);

    let finance_after = get(&ctx, &format!("/money/revenue?{}", all_range()), Some(&admin)).await.data()["total"].clone();
    assert_eq!(finance_after["refundedFen"].as_i64().unwrap(), finance_before["refundedFen"].as_i64().unwrap() + 100);
    assert_eq!(finance_after["netFen"].as_i64().unwrap(), finance_before["netFen"].as_i64().unwrap() - 100);
    let ledger = get(&ctx, &format!("/money/ledger?{}", all_range()), Some(&admin)).await;
    assert_eq!(ledger.data()["list"][0]["refundId"], json!(id), "newest ledger entry");
    let d = get(&ctx, &format!("/order/detail?id={no}"), Some(&admin)).await;
    assert_eq!(d.data()["refundableFen"].as_i64().unwrap(), paid - 100);
    finance_equals_orders(&ctx, &admin).await;

    // A rejected request changes nothing.
    let req = post(&ctx, "/order/refund/request", Some(&editor), json!({"orderNo": no, "amount": "0.50", "reason": "重复申请"})).await;
    let id2 = req.data()["id"].as_str().unwrap().to_string();
    let rej = post(&ctx, "/order/refund/approval/reject", Some(&admin), json!({"orderNo": no, "refundId": id2, "note": "重复"})).await;
    assert_eq!(rej.code(), 200);
    let d = get(&ctx, &format!("/order/detail?id={no}"), Some(&admin)).await;
    assert_eq!(d.data()["refundedFen"], 100);
}

/// The pager jumps to the oldest page: the list read from
/// its oldest order forward is exactly the newest-first list reversed,
/// with the same total.
#[tokio::test]
async fn the_order_list_reads_from_the_oldest_order_too() {
    let ctx = product().await;
    let t = login(&ctx, "admin", ADMIN_PW).await;
    let range = all_range();
    for filter in [range.clone(), format!("{range}&stationId=st-0001"), format!("{range}&status=finished&stationId=st-0002")] {
        let newest: Vec<Value> = all_rows(&ctx, &t, &filter, 70).await.iter().map(|r| r["orderNo"].clone()).collect();
        let mut oldest: Vec<Value> = all_rows(&ctx, &t, &format!("{filter}&sort=oldest"), 70).await.iter().map(|r| r["orderNo"].clone()).collect();
        assert!(!newest.is_empty(), "{filter}");
        oldest.reverse();
        assert_eq!(oldest, newest, "{filter}");
    }
    let first = get(&ctx, &format!("/order/getList?{range}&pageSize=7&sort=oldest"), Some(&t)).await;
    let starts: Vec<i64> = first.data()["list"].as_array().unwrap().iter().map(|r| r["startTs"].as_i64().unwrap()).collect();
    assert!(starts.windows(2).all(|w| w[0] <= w[1]) && starts.len() == 7, "{starts:?}");
    let newest = get(&ctx, &format!("/order/getList?{range}&pageSize=7"), Some(&t)).await;
    assert_eq!(first.data()["total"], newest.data()["total"], "the same total both ways");
    // A cursor continues only in its own direction.
    let cursor = newest.data()["cursor"].as_str().unwrap().to_string();
    let mixed = get(&ctx, &format!("/order/getList?{range}&pageSize=7&sort=oldest&cursor={cursor}"), Some(&t)).await;
    assert!(mixed.status == 400 && mixed.msg().contains("cursor"), "{}", mixed.body);
    let bad = get(&ctx, &format!("/order/getList?{range}&sort=up"), Some(&t)).await;
    assert!(bad.status == 400 && bad.msg().contains("sort must be one of newest, oldest"), "{}", bad.body);
}

/// POST with `Accept-Language: zh-CN`.
async fn post_zh(ctx: &AppCtx, path: &str, token: &str, body: Value) -> Value {
    let mut req = backoffice::ApiRequest::new(http::Method::POST, path);
    req.headers.insert("authorization", format!("Bearer {token}").parse().unwrap());
    req.headers.insert("accept-language", "zh-CN".parse().unwrap());
    req.headers.insert("content-type", "application/json".parse().unwrap());
    req.body = serde_json::to_vec(&body).unwrap().into();
    let resp = common::dispatch(ctx, backoffice::routes::find(&http::Method::POST, path).unwrap(), req).await;
    serde_json::from_slice(resp.body()).unwrap()
}

/// Pending requests count against what may still be
/// requested; the queue shows each order's money, oldest first; decisions
/// carry an optional note shown on the order.
#[tokio::test]
async fn pending_requests_cannot_add_up_to_more_than_was_paid() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let (no, paid) = unrequested_order(&ctx, &admin).await;
    let first = paid / 3;
    let req = post(&ctx, "/order/refund/request", Some(&editor), json!({"orderNo": no, "amount": yuan(first), "reason": "充电中断"})).await;
    assert_eq!(req.code(), 200, "{}", req.body);
    let id1 = req.data()["id"].as_str().unwrap().to_string();

    // The whole paid amount again: refused, naming what is still refundable.
    let left = paid - first;
    let over = post(&ctx, "/order/refund/request", Some(&editor), json!({"orderNo": no, "amount": yuan(paid), "reason": "再次申请"})).await;
    assert_eq!(over.status, 400, "{}", over.body);
    assert!(over.msg().contains(&format!("exceeds the {} still refundable", yuan(left))), "{}", over.msg());
    assert!(over.msg().contains(&format!("pending requests {}", yuan(first))), "{}", over.msg());
    let zh = post_zh(&ctx, "/order/refund/request", &editor, json!({"orderNo": no, "amount": yuan(paid), "reason": "再次申请"})).await;
    assert!(zh["msg"].as_str().unwrap().contains(&format!("剩余可退金额{}元", yuan(left))), "{zh}");
    let d = get(&ctx, &format!("/order/detail?id={no}"), Some(&admin)).await;
    assert_eq!(d.data()["refundableFen"].as_i64(), Some(left), "the dialog's maximum");
    assert_eq!(d.data()["pendingRefundFen"].as_i64(), Some(first));
    assert_eq!(d.data()["refunds"].as_array().unwrap().len(), 1, "the refused requests wrote nothing");

    // Exactly what is left still fits; then nothing does.
    let req = post(&ctx, "/order/refund/request", Some(&editor), json!({"orderNo": no, "amount": yuan(left), "reason": "余额退款"})).await;
    assert_eq!(req.code(), 200, "{}", req.body);
    let id2 = req.data()["id"].as_str().unwrap().to_string();
    let none = post(&ctx, "/order/refund/request", Some(&editor), json!({"orderNo": no, "amount": "0.01", "reason": "x"})).await;
    assert!(none.status == 400 && none.msg().contains("0.00 still refundable"), "{}", none.body);

    // The queue: each request with its order's money, oldest first by default.
    let q = get(&ctx, "/order/refund/getList?status=pending&pageSize=200", Some(&admin)).await;
    assert_eq!(q.code(), 200, "{}", q.body);
    let list = q.data()["list"].as_array().unwrap();
    let times: Vec<i64> = list.iter().map(|r| r["requestedAt"].as_i64().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "oldest first: {times:?}");
    let mine = list.iter().find(|r| r["id"] == json!(id1)).expect("listed");
    assert_eq!(mine["order"], json!({"paidFen": paid, "refundedFen": 0, "pendingFen": paid, "remainingFen": 0}));
    assert!(list.iter().all(|r| r["order"]["paidFen"].as_i64().unwrap() >= r["amountFen"].as_i64().unwrap()), "seeded requests carry their order");
    let newest = get(&ctx, "/order/refund/getList?status=pending&sort=newest&pageSize=200", Some(&admin)).await;
    let times: Vec<i64> = newest.data()["list"].as_array().unwrap().iter().map(|r| r["requestedAt"].as_i64().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "newest first: {times:?}");
    let bad = get(&ctx, "/order/refund/getList?sort=biggest", Some(&admin)).await;
    assert!(bad.status == 400 && bad.msg().contains("sort must be one of oldest, newest"), "{}", bad.body);

    // A note over 200 characters is refused and decides nothing.
    let long = "长".repeat(201);
    let a = post(&ctx, "/order/refund/approve", Some(&admin), json!({"orderNo": no, "refundId": id1, "note": long})).await;
    assert!(a.status == 400 && a.msg().contains("note must be at most 200"), "{}", a.body);
    // Approve with a note, reject with a note: both shown on the order.
    let a = post(&ctx, "/order/refund/approve", Some(&admin), json!({"orderNo": no, "refundId": id1, "note": " 已核实充电中断 "})).await;
    assert_eq!(a.code(), 200, "{}", a.body);
    assert_eq!(a.data()["refund"]["decisionNote"], "已核实充电中断");
    let r = post(&ctx, "/order/refund/approval/reject", Some(&admin), json!({"orderNo": no, "refundId": id2})).await;
    assert_eq!(r.code(), 200, "a rejection without a note: {}", r.body);
    let d = get(&ctx, &format!("/order/detail?id={no}"), Some(&admin)).await;
    let refunds = d.data()["refunds"].as_array().unwrap();
    let by_id = |id: &str| refunds.iter().find(|r| r["id"] == json!(id)).unwrap().clone();
    assert_eq!(by_id(&id1)["decisionNote"], "已核实充电中断");
    assert_eq!(by_id(&id1)["status"], "approved");
    assert_eq!(by_id(&id2)["decisionNote"], Value::Null);
    assert_eq!(by_id(&id2)["status"], "rejected");
    // The rejection gave its amount back: what is left may be requested again.
    assert_eq!(d.data()["pendingRefundFen"], 0);
    assert_eq!(d.data()["refundableFen"].as_i64(), Some(left));
    let again = post(&ctx, "/order/refund/request", Some(&editor), json!({"orderNo": no, "amount": yuan(left), "reason": "重新申请"})).await;
    assert_eq!(again.code(), 200, "{}", again.body);
}

/// Orders written before the pending total was kept on the order: their
/// pending requests still count (summed from the order's requests), and
/// the next refund write keeps the total.
#[tokio::test]
async fn pending_requests_of_orders_stored_before_still_count() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let (no, paid) = unrequested_order(&ctx, &admin).await;
    let half = paid / 2;
    assert_eq!(post(&ctx, "/order/refund/request", Some(&editor), json!({"orderNo": no, "amount": yuan(half), "reason": "旧数据"})).await.code(), 200);
    // As an older version stored it: no pendingRefundFen on the order.
    let key = backoffice::domain::orders::keys::order(&no);
    let mut item = ctx.store.get(&key).await.unwrap().unwrap();
    assert!(item.remove("pendingRefundFen").is_some());
    ctx.store.put(item, None).await.unwrap();
    let over = post(&ctx, "/order/refund/request", Some(&editor), json!({"orderNo": no, "amount": yuan(paid - half + 1), "reason": "超额"})).await;
    assert!(over.status == 400 && over.msg().contains(&format!("the {} still refundable", yuan(paid - half))), "{}", over.body);
    let q = get(&ctx, "/order/refund/getList?status=pending&pageSize=200", Some(&admin)).await;
    let mine = q.data()["list"].as_array().unwrap().iter().find(|r| r["orderNo"] == json!(no)).unwrap().clone();
    assert_eq!(mine["order"]["pendingFen"].as_i64(), Some(half));
    let ok = post(&ctx, "/order/refund/request", Some(&editor), json!({"orderNo": no, "amount": yuan(paid - half), "reason": "余额"})).await;
    assert_eq!(ok.code(), 200, "{}", ok.body);
    let stored = ctx.store.get(&key).await.unwrap().unwrap();
    assert_eq!(stored["pendingRefundFen"].as_i64(), Some(paid), "the total is kept again");
}

/// Many requests on one order at once: together they never ask for more
/// than was paid, and none is refused for the race itself (both adapters:
/// tests/concurrency.rs).
#[tokio::test]
async fn parallel_requests_never_ask_more_than_was_paid() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let (no, paid) = unrequested_order(&ctx, &admin).await;
    let each = (paid / 4).max(1);
    let tasks = (0..20).map(|i| {
        let (ctx, editor, no) = (ctx.clone(), editor.clone(), no.clone());
        tokio::spawn(async move { post(&ctx, "/order/refund/request", Some(&editor), json!({"orderNo": no, "amount": yuan(each), "reason": format!("并发{i}")})).await })
    });
    let answers: Vec<Answer> = futures::future::join_all(tasks).await.into_iter().map(|r| r.unwrap()).collect();
    let ok = answers.iter().filter(|a| a.status == 200).count() as i64;
    assert!(answers.iter().all(|a| a.status == 200 || (a.status == 400 && a.msg().contains("still refundable"))), "{:?}", answers.iter().map(|a| (a.status, a.msg().to_string())).collect::<Vec<_>>());
    assert_eq!(ok, paid / each, "as many as fit, no more");
    let d = get(&ctx, &format!("/order/detail?id={no}"), Some(&admin)).await;
    assert_eq!(d.data()["pendingRefundFen"].as_i64(), Some(ok * each));
    assert_eq!(d.data()["refunds"].as_array().unwrap().len() as i64, ok);
}

// Concurrent approvals (of one request, and of many requests of one
// order) are in tests/concurrency.rs, on both store adapters.

#[tokio::test]
async fn read_only_users_see_orders_and_finance_but_change_nothing() {
    let ctx = product().await;
    let viewer = viewer(&ctx).await;
    for path in ["/order/getList", "/money/revenue", "/money/byStation", "/money/ledger", "/order/refund/getList"] {
        assert_eq!(get(&ctx, path, Some(&viewer)).await.code(), 200, "{path}");
    }
    for path in ["/order/close", "/order/refund/request", "/order/refund/approve", "/order/refund/approval/reject"] {
        assert_eq!(post(&ctx, path, Some(&viewer), json!({})).await.status, 403, "{path}");
    }
}

/// A stuck order closed by hand that is finished and unpaid, with money
/// owed: a finished demo order copied as still charging and never paid,
/// then closed through the route: what finance pays offline or writes off.
async fn closed_unpaid_order(ctx: &AppCtx, editor: &str, suffix: &str) -> Value {
    let finished = all_rows(ctx, editor, &format!("{}&status=finished", all_range()), 500).await;
    let model = finished.iter().find(|r| r["amountFen"].as_i64().unwrap() > 100).expect("a priced order")["orderNo"].as_str().unwrap().to_string();
    let (mut row, detail, _) = backoffice::domain::orders::load_full(ctx, &model).await.unwrap();
    row.order.order_no = format!("{model}{suffix}");
    row.order.status = charging::orders::OrderStatus::Charging;
    (row.order.stop_ts, row.order.stop_reason, row.order.meter_stop_wh) = (None, None, None);
    (row.order.paid_fen, row.order.refunded_fen, row.order.payment_status) = (charging::Fen::ZERO, charging::Fen::ZERO, charging::orders::PaymentStatus::Unpaid);
    row.settlement = None;
    row.version = 1;
    ctx.store.transact(backoffice::domain::orders::insert_ops(&row, &detail.unwrap())).await.unwrap();
    let closed = post(ctx, "/order/close", Some(editor), json!({"orderNo": row.order.order_no, "reason": "桩离线，人工结单"})).await;
    assert_eq!(closed.code(), 200, "{}", closed.body);
    let d = closed.data().clone();
    assert_eq!((d["status"].as_str(), d["paymentStatus"].as_str()), (Some("finished"), Some("unpaid")), "{d}");
    assert!(d["amountFen"].as_i64().unwrap() > 0);
    d
}

/// Finance records an offline payment of what a closed
/// order owes, or writes it off with a reason; both show on the order, in
/// the ledger, the list's payment status and every finance figure; a
/// second one is refused; the log says what was done.
#[tokio::test]
async fn owed_orders_are_paid_offline_or_written_off_by_finance() {
    let ctx = product().await;
    let (admin, editor, viewer) = (login(&ctx, "admin", ADMIN_PW).await, login(&ctx, "editor", EDITOR_PW).await, viewer(&ctx).await);
    let order = closed_unpaid_order(&ctx, &editor, "P").await;
    let no = order["orderNo"].as_str().unwrap().to_string();
    let owed = order["amountFen"].as_i64().unwrap();
    let paid_before = sums_of(&ctx, &admin, &all_range()).await["paidFen"].as_i64().unwrap();
    let pay = |amount: Value| json!({"orderNo": no, "method": "bankTransfer", "reference": "TX-20251125-001", "amount": amount});

    // Finance's: an Editor may close orders but not take money in.
    for (path, body) in [("/order/settle/offlinePayment", pay(json!(yuan(owed)))), ("/order/settle/writeOff", json!({"orderNo": no, "reason": "x"}))] {
        assert_eq!(post(&ctx, path, Some(&editor), body.clone()).await.status, 403, "{path}");
        assert_eq!(post(&ctx, path, Some(&viewer), body).await.status, 403, "{path}");
    }
    // Bad input: a 400 naming what is wrong, nothing written.
    let bad_cases = [
        (json!({"orderNo": no, "method": "cheque", "amount": yuan(owed)}), "method"),
        (json!({"orderNo": no, "method": "cash"}), "amount"),
        (json!({"orderNo": no, "method": "cash", "amount": "12.345"}), "amount"),
        (pay(json!(yuan(owed - 1))), "amount owed"),
        (pay(json!(yuan(owed + 1))), "amount owed"),
        (json!({"orderNo": no, "method": "cash", "amount": yuan(owed), "reference": "R".repeat(101)}), "reference"),
    ];
    for (body, says) in bad_cases {
        let a = post(&ctx, "/order/settle/offlinePayment", Some(&admin), body.clone()).await;
        assert_eq!(a.status, 400, "{body}: {}", a.body);
        assert!(a.msg().contains(says), "{body}: {}", a.msg());
    }
    let zh = post_zh(&ctx, "/order/settle/offlinePayment", &admin, pay(json!("0.01"))).await;
    assert!(zh["msg"].as_str().unwrap().contains("待收金额"), "{zh}");
    let a = post(&ctx, "/order/settle/writeOff", Some(&admin), json!({"orderNo": no, "reason": "  "})).await;
    assert_eq!(a.status, 400);
    assert!(a.msg().contains("reason"), "{}", a.msg());
    assert_eq!(post(&ctx, "/order/settle/offlinePayment", Some(&admin), json!({"orderNo": "CDNOPE", "method": "cash", "amount": "1.00"})).await.status, 404);
    let unchanged = get(&ctx, &format!("/order/detail?id={no}"), Some(&admin)).await;
    assert_eq!(unchanged.data()["version"], order["version"], "bad input wrote nothing");
    assert!(unchanged.data()["settlement"].is_null());

    // The payment: the order is paid, by whom, how, with the reference.
    let paid = post(&ctx, "/order/settle/offlinePayment", Some(&admin), pay(json!(yuan(owed)))).await;
    assert_eq!(paid.code(), 200, "{}", paid.body);
    let d = get(&ctx, &format!("/order/detail?id={no}"), Some(&admin)).await;
    let d = d.data();
    assert_eq!((d["paymentStatus"].as_str(), d["paidFen"].as_i64()), (Some("paid"), Some(owed)));
    let s = &d["settlement"];
    assert_eq!((s["kind"].as_str(), s["method"].as_str(), s["reference"].as_str(), s["by"].as_str()), (Some("offlinePayment"), Some("bankTransfer"), Some("TX-20251125-001"), Some("admin")));
    assert_eq!(s["amountFen"].as_i64(), Some(owed));
    assert!(s["at"].as_i64().unwrap() >= now() - 60);
    // Now refundable like any paid order.
    assert_eq!(d["refundableFen"].as_i64(), Some(owed));
    // The list's payment status and its sums moved with it.
    let listed = all_rows(&ctx, &admin, &format!("{}&paymentStatus=paid&orderNo={no}", all_range()), 20).await;
    assert_eq!(listed.len(), 1);
    assert!(all_rows(&ctx, &admin, &format!("{}&paymentStatus=unpaid&orderNo={no}", all_range()), 20).await.is_empty());
    assert_eq!(sums_of(&ctx, &admin, &all_range()).await["paidFen"].as_i64(), Some(paid_before + owed));
    // A second payment, or a write-off of the paid order: 409 saying who did what.
    let again = post(&ctx, "/order/settle/offlinePayment", Some(&admin), pay(json!(yuan(owed)))).await;
    assert_eq!(again.status, 409, "{}", again.body);
    assert!(again.msg().contains("already paid offline by admin"), "{}", again.msg());
    let wo = post(&ctx, "/order/settle/writeOff", Some(&admin), json!({"orderNo": no, "reason": "客户失联"})).await;
    assert_eq!(wo.status, 409, "{}", wo.body);
    // A paid order that was never owed anything cannot be written off either.
    let (paid_no, _) = refundable_order(&ctx, &admin).await;
    assert_eq!(post(&ctx, "/order/settle/writeOff", Some(&admin), json!({"orderNo": paid_no, "reason": "x"})).await.status, 409);

    // A write-off of another order: not paid, not owed; counted apart.
    let other = closed_unpaid_order(&ctx, &editor, "W").await;
    let other_no = other["orderNo"].as_str().unwrap().to_string();
    let other_owed = other["amountFen"].as_i64().unwrap();
    let off = post(&ctx, "/order/settle/writeOff", Some(&admin), json!({"orderNo": other_no, "reason": "客户失联，坏账核销"})).await;
    assert_eq!(off.code(), 200, "{}", off.body);
    assert_eq!(off.data()["paymentStatus"], "writtenOff");
    assert_eq!(off.data()["paidFen"].as_i64(), Some(0));
    assert_eq!(off.data()["settlement"]["reason"], "客户失联，坏账核销");
    assert_eq!(off.data()["settlement"]["amountFen"].as_i64(), Some(other_owed));
    assert_eq!(all_rows(&ctx, &admin, &format!("{}&paymentStatus=writtenOff", all_range()), 20).await.len(), 1);
    let wo_sums = sums_of(&ctx, &admin, &format!("{}&paymentStatus=writtenOff", all_range())).await;
    assert_eq!(wo_sums["writtenOffFen"].as_i64(), Some(other_owed));
    assert_eq!(post(&ctx, "/order/settle/offlinePayment", Some(&admin), json!({"orderNo": other_no, "method": "cash", "amount": yuan(other_owed)})).await.status, 409);

    // The ledger lists both with what was done.
    let ledger = get(&ctx, &format!("/money/ledger?{}&pageSize=50", all_range()), Some(&admin)).await;
    let entries = ledger.data()["list"].as_array().unwrap();
    let of = |n: &str| entries.iter().find(|e| e["orderNo"] == n).cloned().unwrap_or_else(|| panic!("{n} in the ledger: {entries:?}"));
    let (p, w) = (of(&no), of(&other_no));
    assert_eq!((p["kind"].as_str(), p["method"].as_str(), p["reference"].as_str(), p["approvedBy"].as_str(), p["amountFen"].as_i64()), (Some("offlinePayment"), Some("bankTransfer"), Some("TX-20251125-001"), Some("admin"), Some(owed)));
    assert_eq!((w["kind"].as_str(), w["reason"].as_str(), w["amountFen"].as_i64()), (Some("writeOff"), Some("客户失联，坏账核销"), Some(other_owed)));
    // Older entries (refunds) read as refunds.
    assert!(entries.iter().filter(|e| e["orderNo"] != no && e["orderNo"] != other_no).all(|e| e["kind"] == "refund"));

    // The system log says what was done, to which order, by whom.
    let log = backoffice::domain::audit::page(&ctx, &backoffice::domain::audit::LogFilter { account_prefix: Some("admin".to_string()), ..Default::default() }, 0, 100, None).await.unwrap().entries;
    let done = |path: &str, target: &str| log.iter().filter(|e| e.path == path && e.target == target && e.code == 200).map(|e| e.kind.clone()).collect::<Vec<_>>();
    let kinds = done("/order/settle/offlinePayment", &no);
    assert_eq!(kinds.len(), 1, "{log:?}");
    assert!(kinds[0].contains("offline"), "{}", kinds[0]);
    assert!(done("/order/settle/writeOff", &other_no)[0].to_lowercase().contains("write off"));
    assert!(log.iter().any(|e| e.path == "/order/settle/offlinePayment" && e.target == no && e.code == 409), "refusals are logged too");

    // Finance, settlement and the dashboard equal the orders.
    finance_equals_orders(&ctx, &admin).await;
    let dash = get(&ctx, "/index/dashboard", Some(&admin)).await;
    assert_eq!(dash.code(), 200);
    let day = backoffice::domain::orders::keys::iso_day(backoffice::domain::orders::keys::local_day(order["startTs"].as_i64().unwrap()));
    if let Some(on_day) = dash.data()["trend"].as_array().and_then(|t| t.iter().find(|d| d["day"] == day.as_str())) {
        let rev = get(&ctx, &format!("/money/revenue?granularity=day&from={day}&to={day}"), Some(&admin)).await;
        for f in ["paidFen", "writtenOffFen", "amountFen"] {
            assert_eq!(on_day[f], rev.data()["total"][f], "dashboard {f} of {day}");
        }
    }
}

/// Staff read an order's charger as its pile code and
/// connector number (never internal ids); orders stored before the code was
/// kept with the order (the demo's) derive it from the pile; a connector's
/// QR payload is the pile code and number, also for connectors stored with
/// the old generated link. Runs on SQLite and, with moto, on DynamoDB.
async fn orders_name_their_physical_charger(ctx: &AppCtx) {
    let admin = login(ctx, "admin", ADMIN_PW).await;
    let list = get(ctx, "/order/getList?pageSize=50", Some(&admin)).await;
    assert_eq!(list.code(), 200, "{:?}", list.body);
    let rows = list.data()["list"].as_array().unwrap().clone();
    assert!(!rows.is_empty());
    let mut codes: HashMap<String, String> = HashMap::new();
    for r in &rows {
        let pile_id = r["pileId"].as_str().unwrap();
        if !codes.contains_key(pile_id) {
            let piles = get(ctx, &format!("/pile/getList?stationId={}", r["stationId"].as_str().unwrap()), Some(&admin)).await;
            for p in piles.data()["list"].as_array().unwrap() {
                codes.insert(p["id"].as_str().unwrap().to_string(), p["code"].as_str().unwrap().to_string());
            }
        }
        assert_eq!(r["pileCode"].as_str(), codes.get(pile_id).map(String::as_str), "the pile's code as typed: {r}");
        assert!(!r["pileCode"].as_str().unwrap().starts_with("st-"), "{r}");
        let n = r["connectorNo"].as_u64().expect("a connector number");
        assert!(r["connectorId"].as_str().unwrap().ends_with(&format!("-c{n}")));
    }
    let first = &rows[0];
    let no = first["orderNo"].as_str().unwrap();
    let detail = get(ctx, &format!("/order/detail?id={no}"), Some(&admin)).await;
    assert_eq!(detail.data()["pileCode"], first["pileCode"]);
    assert_eq!(detail.data()["connectorNo"], first["connectorNo"]);
    // The header search names the charger too.
    let hits = get(ctx, &format!("/search/getList?keyword={no}"), Some(&admin)).await;
    let hit = hits.data()["list"][0]["value"].as_str().unwrap().to_string();
    let expected = format!("{} · connector {}", first["pileCode"].as_str().unwrap(), first["connectorNo"]);
    assert!(hit.contains(&expected) && !hit.contains("st-"), "{hit}");

    // Connectors: the QR payload is pile code + two-digit number; a typed one wins.
    let conns = get(ctx, &format!("/connector/getList?stationId={}&pageSize=50", first["stationId"].as_str().unwrap()), Some(&admin)).await;
    for c in conns.data()["list"].as_array().unwrap() {
        let want = format!("{}-{:02}", c["pileCode"].as_str().unwrap(), c["number"].as_u64().unwrap());
        assert_eq!(c["qrPayload"].as_str(), Some(want.as_str()), "{c}");
    }
    // A connector stored with the link generated before (an internal id in it) reads the same.
    let c = &conns.data()["list"][0];
    let (cid, version) = (c["id"].as_str().unwrap().to_string(), c["version"].as_i64().unwrap());
    let legacy = format!("https://qr.example-charging.cn/c/{}", cid.to_uppercase());
    let edit = |version: i64, qr: &str| json!({"id": cid, "version": version, "standard": c["standard"], "maxPowerKw": c["maxPowerKw"], "qrCode": qr});
    let e = post(ctx, "/connector/doEdit", Some(&admin), edit(version, &legacy)).await;
    assert_eq!(e.code(), 200, "{:?}", e.body);
    let path = format!("/connector/getList?stationId={}&pageSize=50", first["stationId"].as_str().unwrap());
    let payload_of = |list: &Value| list["list"].as_array().unwrap().iter().find(|x| x["id"] == json!(cid)).unwrap()["qrPayload"].clone();
    let after = get(ctx, &path, Some(&admin)).await;
    assert_eq!(payload_of(after.data()), json!(format!("{}-{:02}", c["pileCode"].as_str().unwrap(), c["number"].as_u64().unwrap())));
    let e = post(ctx, "/connector/doEdit", Some(&admin), edit(version + 1, "hlht://OPERATOR.X/1")).await;
    assert_eq!(e.code(), 200, "{:?}", e.body);
    let after = get(ctx, &path, Some(&admin)).await;
    assert_eq!(payload_of(after.data()), json!("hlht://OPERATOR.X/1"), "what the operator typed is what is printed");
}

#[tokio::test]
async fn orders_name_their_physical_charger_sqlite() {
    orders_name_their_physical_charger(&*product().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn orders_name_their_physical_charger_dynamo() {
    let Some(table) = dynamo_table("orders").await else { return };
    let ctx = product_on_dynamo(table.clone(), &[("BACKOFFICE_ACCESS_TOKEN_TTL", "900"), ("BACKOFFICE_DEMO_ORDERS", "20")]).await;
    orders_name_their_physical_charger(&*ctx).await;
    let _ = table.delete_table().await;
}

/// A refund counts on the day it is approved (China
/// business day). An order of last month refunded today moves today's
/// revenue, settlement, ledger and dashboard; last month's statement stays
/// exactly as it was; the order list's sums of last month still show what
/// the listed orders were refunded. Runs on SQLite and, with moto, on DynamoDB.
async fn a_refund_counts_on_the_day_it_is_granted(ctx: &AppCtx) {
    use backoffice::domain::orders::keys::{day_start, iso_day, local_day};
    use charging::civil::{civil_from_days, days_from_civil};
    // A fixed "now", so a run across midnight cannot move the approval to another day.
    ctx.clock.freeze();
    let (admin, editor) = (login(ctx, "admin", ADMIN_PW).await, login(ctx, "editor", EDITOR_PW).await);
    let today = local_day(ctx.now());
    let (y, m, _) = civil_from_days(today);
    let this_month = days_from_civil(y, m, 1);
    let (ly, lm) = if m == 1 { (y - 1, 12) } else { (y, m - 1) };
    let (last_first, last_last) = (days_from_civil(ly, lm, 1), this_month - 1);

    // An order paid last month (a copy of a demo order started on the 15th).
    let finished = all_rows(ctx, &admin, &format!("{}&status=finished", all_range()), 500).await;
    let model = finished.iter().find(|r| r["amountFen"].as_i64().unwrap() >= 300).expect("a priced order")["orderNo"].as_str().unwrap().to_string();
    let (mut row, detail, _) = backoffice::domain::orders::load_full(ctx, &model).await.unwrap();
    let took = row.order.stop_ts.unwrap() - row.order.start_ts;
    row.order.order_no = format!("{model}LM");
    row.order.start_ts = day_start(last_first + 14) + 10 * 3600;
    row.order.stop_ts = Some(row.order.start_ts + took);
    (row.order.paid_fen, row.order.refunded_fen, row.pending_refund_fen, row.order.payment_status) = (row.order.amount_fen, charging::Fen::ZERO, Some(charging::Fen::ZERO), charging::orders::PaymentStatus::Paid);
    row.settlement = None;
    row.version = 1;
    ctx.store.transact(backoffice::domain::orders::insert_ops(&row, &detail.unwrap())).await.unwrap();
    let (no, station) = (row.order.order_no.clone(), row.order.station_id.clone());

    let last_month = format!("from={}&to={}", iso_day(last_first), iso_day(last_last));
    let today_range = format!("from={0}&to={0}", iso_day(today));
    async fn statement(ctx: &AppCtx, token: &str, station: &str, range: &str) -> Value {
        let mut st = get(ctx, &format!("/money/settlement?stationId={station}&{range}"), Some(token)).await;
        assert_eq!(st.code(), 200, "{}", st.body);
        st.body["data"].as_object_mut().unwrap().remove("generatedAt");
        st.data().clone()
    }
    // Revenue by month (last and this), today's revenue at the station, the dashboard's today, the order list's sums of last month at the station.
    let figures = || async {
        let months = get(ctx, &format!("/money/revenue?granularity=month&from={}&to={}", iso_day(last_first), iso_day(today)), Some(&admin)).await;
        let day = get(ctx, &format!("/money/revenue?{today_range}&stationId={station}"), Some(&admin)).await;
        let dash = get(ctx, "/index/dashboard", Some(&admin)).await;
        let list = get(ctx, &format!("/order/getList?{last_month}&stationId={station}&pageSize=1"), Some(&admin)).await;
        (months.data()["list"].clone(), day.data()["total"].clone(), dash.data()["today"].clone(), list.data()["sums"].clone())
    };
    let last_statement = statement(ctx, &admin, &station, &last_month).await;
    let today_statement = statement(ctx, &admin, &station, &today_range).await;
    let (months, day, dash, list_sums) = figures().await;

    let req = post(ctx, "/order/refund/request", Some(&editor), json!({"orderNo": no, "amount": "1.00", "reason": "上月订单补退"})).await;
    assert_eq!(req.code(), 200, "{}", req.body);
    let id = req.data()["id"].as_str().unwrap().to_string();
    let ok = post(ctx, "/order/refund/approve", Some(&admin), json!({"orderNo": no, "refundId": id})).await;
    assert_eq!(ok.code(), 200, "{}", ok.body);

    // Last month's statement is exactly what it was.
    assert_eq!(statement(ctx, &admin, &station, &last_month).await, last_statement, "a closed period's statement never changes");
    // Today's moved by the refund, at that station.
    let today_after = statement(ctx, &admin, &station, &today_range).await;
    let moved = |after: &Value, before: &Value, f: &str| after[f].as_i64().unwrap() - before[f].as_i64().unwrap();
    assert_eq!((moved(&today_after["total"], &today_statement["total"], "refundedFen"), moved(&today_after["total"], &today_statement["total"], "netFen")), (100, -100));
    assert_eq!(moved(&today_after["total"], &today_statement["total"], "orders"), 0, "the order did not move");
    let (months_after, day_after, dash_after, list_sums_after) = figures().await;
    // Revenue by month: last month unchanged, this month -1.00 net.
    assert_eq!(months_after[0], months[0], "last month's revenue");
    assert_eq!((moved(&months_after[1], &months[1], "refundedFen"), moved(&months_after[1], &months[1], "netFen")), (100, -100), "this month's revenue");
    assert_eq!((moved(&day_after, &day, "refundedFen"), moved(&day_after, &day, "netFen"), moved(&day_after, &day, "paidFen")), (100, -100, 0), "today's revenue");
    assert_eq!((moved(&dash_after, &dash, "refundedFen"), moved(&dash_after, &dash, "netFen")), (100, -100), "the dashboard's today");
    // The ledger lists it today.
    let ledger = ledger_refunds(ctx, &admin, &today_range).await;
    assert!(ledger.iter().any(|e| e["refundId"] == json!(id) && e["orderNo"] == json!(no)), "today's ledger: {ledger:?}");
    assert!(ledger_refunds(ctx, &admin, &last_month).await.iter().all(|e| e["refundId"] != json!(id)));
    // The order list describes the listed orders: last month's orders were refunded 1.00 more.
    assert_eq!((moved(&list_sums_after, &list_sums, "refundedFen"), moved(&list_sums_after, &list_sums, "netFen"), moved(&list_sums_after, &list_sums, "orders")), (100, -100, 0));
}

#[tokio::test]
async fn a_refund_counts_on_the_day_it_is_granted_sqlite() {
    let ctx = product().await;
    a_refund_counts_on_the_day_it_is_granted(&ctx).await;
    finance_equals_orders(&ctx, &login(&ctx, "admin", ADMIN_PW).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refund_counts_on_the_day_it_is_granted_dynamo() {
    let Some(table) = dynamo_table("refundday").await else { return };
    let ctx = product_on_dynamo(table.clone(), &[("BACKOFFICE_ACCESS_TOKEN_TTL", "900"), ("BACKOFFICE_DEMO_ORDERS", "40")]).await;
    a_refund_counts_on_the_day_it_is_granted(&ctx).await;
    let _ = table.delete_table().await;
}

/// Stores written before refunds counted on their approval day: the
/// catch-up the gateway runs at start counts each earlier refund once on
/// its approval day, and then only reads its marker.
async fn refunds_approved_before_the_rule_are_counted_on_their_day_once(ctx: &AppCtx) {
    use backoffice::domain::orders::{keys, refunds};
    let admin = login(ctx, "admin", ADMIN_PW).await;
    assert_eq!(refunds::count_earlier_refunds_on_grant_day(ctx).await.unwrap(), 0, "the demo's refunds are counted when seeded");
    assert!(ctx.store.get(&refunds::grant_day_marker()).await.unwrap().is_some());
    finance_equals_orders(ctx, &admin).await;

    // An approval as the version before wrote it: the order's start day only, its ledger entry unmarked.
    let (no, _) = refundable_order(ctx, &admin).await;
    let before = backoffice::domain::orders::load(ctx, &no).await.unwrap();
    let mut after = before.clone();
    after.order.refunded_fen = charging::Fen(100);
    after.order.payment_status = after.order.money().payment_status();
    after.version += 1;
    let now = ctx.now();
    let rec = refunds::RefundRecord {
        id: "RFOLD1".into(),
        order_no: no.clone(),
        station_id: before.order.station_id.clone(),
        amount_fen: charging::Fen(100),
        reason: "旧版本批准的退款".into(),
        status: refunds::RefundStatus::Approved,
        requested_by: "editor".into(),
        requested_at: now - 60,
        decided_by: Some("admin".into()),
        decided_at: Some(now),
        decision_note: None,
    };
    let mut entry = refunds::ledger_item(&rec);
    entry.remove(refunds::GRANT_COUNTED);
    let mut ops = backoffice::domain::orders::change_ops(&before, &after);
    ops.push(store::TxOp::Put { item: rec.to_item(), condition: None });
    ops.push(store::TxOp::Put { item: entry, condition: None });
    ctx.store.transact(ops).await.unwrap();
    ctx.store.delete(&refunds::grant_day_marker(), None).await.unwrap();
    let today = keys::iso_day(keys::local_day(now));
    let today_refunds = || async { get(ctx, &format!("/money/revenue?from={today}&to={today}"), Some(&admin)).await.data()["total"]["refundedFen"].as_i64().unwrap() };
    let uncounted = today_refunds().await;

    assert_eq!(refunds::count_earlier_refunds_on_grant_day(ctx).await.unwrap(), 1);
    assert_eq!(today_refunds().await, uncounted + 100, "counted on its approval day");
    finance_equals_orders(ctx, &admin).await;
    assert_eq!(refunds::count_earlier_refunds_on_grant_day(ctx).await.unwrap(), 0, "the marker: done");
    ctx.store.delete(&refunds::grant_day_marker(), None).await.unwrap();
    assert_eq!(refunds::count_earlier_refunds_on_grant_day(ctx).await.unwrap(), 0, "each entry is counted once, also without the marker");
    assert_eq!(today_refunds().await, uncounted + 100);
}

#[tokio::test]
async fn refunds_approved_before_the_rule_are_counted_on_their_day_once_sqlite() {
    refunds_approved_before_the_rule_are_counted_on_their_day_once(&*product_with(&[("BACKOFFICE_DEMO_ORDERS", "300")]).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refunds_approved_before_the_rule_are_counted_on_their_day_once_dynamo() {
    let Some(table) = dynamo_table("refundcatchup").await else { return };
    let ctx = product_on_dynamo(table.clone(), &[("BACKOFFICE_ACCESS_TOKEN_TTL", "900"), ("BACKOFFICE_DEMO_ORDERS", "40")]).await;
    refunds_approved_before_the_rule_are_counted_on_their_day_once(&ctx).await;
    let _ = table.delete_table().await;
}
