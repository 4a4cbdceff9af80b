//! kill -9 of the gateway in the middle of a burst of writes loses no
//! acknowledged write and leaves no half-written record.

mod common;

use std::collections::HashSet;
use std::sync::Arc;

use common::*;
use serde_json::Value;
use store::{Query, Table};

#[tokio::test]
async fn kill_9_during_writes_loses_no_acknowledged_write() {
    let dir = fresh_data_dir("crash");
    let mut gw = Gateway::start(dir.clone(), &[]).await;
    let client = backoffice::http_client::client();
    let token = Arc::new(login(&client, &gw.base, "editor", EDITOR_PW).await);
    let acknowledged = Arc::new(tokio::sync::Mutex::new(HashSet::new()));
    let mut writers = Vec::new();
    for w in 0..4 {
        let (client, base, token, acknowledged) = (client.clone(), gw.base.clone(), token.clone(), acknowledged.clone());
        writers.push(tokio::spawn(async move {
            for i in 0..10_000 {
                let text = format!("burst {w}-{i}");
                let sent = client
                    .post(format!("{base}/notice/doEdit"))
                    .bearer_auth(token.as_str())
                    .json(&serde_json::json!({"notice": text}))
                    .send()
                    .await;
                let Ok(resp) = sent else { return };
                let Ok(body) = resp.json::<Value>().await else { return };
                if body["code"] == 200 {
                    acknowledged.lock().await.insert(body["data"]["id"].as_str().unwrap().to_string());
                }
            }
        }));
    }
    // Let the burst run, then kill the process without warning.
    while acknowledged.lock().await.len() < 60 {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    gw.kill();
    for w in writers {
        let _ = w.await;
    }
    let acknowledged = acknowledged.lock().await.clone();

    let table = store::sqlite::SqliteTable::open(&dir.join("backoffice.sqlite3")).expect("database reopens after kill -9");
    let mut stored = HashSet::new();
    let mut cursor = None;
    loop {
        let page = table.query(Query::partition("NOTICE").after(cursor)).await.unwrap();
        for item in &page.items {
            for field in ["id", "type", "notice", "createdAt"] {
                assert!(item.contains_key(field), "half-written notice without {field}: {item:?}");
            }
            // The id a notice is answered with is its key in the list.
            stored.insert(item["SK"].as_str().unwrap().to_string());
        }
        cursor = page.cursor;
        if cursor.is_none() {
            break;
        }
    }
    let lost: Vec<_> = acknowledged.difference(&stored).collect();
    assert!(lost.is_empty(), "{} acknowledged writes lost: {lost:?}", lost.len());
    drop(table);

    // And the product starts again on the same data.
    let gw = Gateway::start(dir, &[]).await;
    login(&client, &gw.base, "editor", EDITOR_PW).await;
}

// ------------------------------------------------------------------------
// kill -9 during a stream of order writes: closes, offline payments and
// write-offs of what the closed orders owe, refund requests and approvals
// (each approval or settlement one transaction: order + ledger + rollups). After a restart every acknowledged write is there and no
// order, refund or ledger entry is half-written: each order's refunded
// amount equals its ledger entries, and every rollup equals the sums of
// the orders behind it.

use std::collections::{BTreeMap, BTreeSet};

use backoffice::domain::orders::keys::{self, Dim};
use backoffice::domain::orders::record::OrderRow;
use backoffice::domain::orders::refunds::{RefundRecord, RefundStatus};
use backoffice::domain::orders::rollup::{self, Sums};
use backoffice::domain::orders::settle;
use store::{Index, Item, Key};

fn unix_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

/// The demo history (120 days up to today) with a margin.
fn demo_days() -> (i64, i64) {
    let today = keys::local_day(unix_now());
    (today - 130, today)
}

async fn api(client: &reqwest::Client, base: &str, token: &str, method: &str, path: &str, body: Option<Value>) -> Option<Value> {
    let url = format!("{base}{path}");
    let req = if method == "GET" { client.get(url) } else { client.post(url).json(&body.unwrap_or(Value::Null)) };
    let resp = req.bearer_auth(token).send().await.ok()?;
    resp.json::<Value>().await.ok()
}

/// Every order row of the demo range through the API (cursor paging).
async fn api_orders(client: &reqwest::Client, base: &str, token: &str, filter: &str) -> Vec<Value> {
    let (from, to) = demo_days();
    let mut rows = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut path = format!("/order/getList?from={}&to={}&pageSize=200{filter}", keys::iso_day(from), keys::iso_day(to));
        if let Some(c) = &cursor {
            path.push_str(&format!("&cursor={c}"));
        }
        let body = api(client, base, token, "GET", &path, None).await.expect("the gateway answers");
        assert_eq!(body["code"], 200, "{path}: {body}");
        rows.extend(body["data"]["list"].as_array().unwrap().iter().cloned());
        match body["data"]["cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return rows,
        }
    }
}

/// Every item of a partition or index partition (all pages).
async fn query_all(table: &dyn Table, mut q: Query) -> Vec<Item> {
    let mut out = Vec::new();
    loop {
        let page = table.query(q.clone()).await.unwrap();
        out.extend(page.items);
        match page.cursor {
            Some(c) => q = q.after(Some(c)),
            None => return out,
        }
    }
}

/// Every stored order (the month index of the demo range), each read as a
/// complete order record: a half-written one fails to read.
async fn stored_orders(table: &dyn Table) -> BTreeMap<String, OrderRow> {
    let (from, to) = demo_days();
    let mut out = BTreeMap::new();
    for month in keys::months_desc(from, to) {
        for item in query_all(table, Query::index(Index::Gsi1, keys::by_month(&month))).await {
            for field in ["GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK", "GSI3PK", "GSI3SK"] {
                assert!(item.contains_key(field), "order without its index key {field}: {item:?}");
            }
            let row: OrderRow = serde_json::from_value(Value::Object(item.clone())).unwrap_or_else(|e| panic!("half-written order ({e}): {item:?}"));
            assert_eq!(item.get(store::VERSION).and_then(Value::as_i64), Some(row.version));
            out.insert(row.order.order_no.clone(), row);
        }
    }
    out
}

/// The rollup items an order adds to (the same keys the write path updates).
fn rollup_keys(dims: &[Dim], station: &str, start_ts: i64) -> Vec<Key> {
    let (day, month) = (keys::day_of(start_ts), keys::month_of(start_ts));
    let mut out: Vec<Key> = dims.iter().flat_map(|d| [Key::new(keys::day_rollup(*d), day.clone()), Key::new(keys::month_rollup(*d), month.clone())]).collect();
    out.push(Key::new(keys::STATIONS_ROLLUP_PK, station));
    out
}

/// Recomputes every rollup from the orders behind it, and the refunds
/// granted each day from the refund ledger entries (their approval day, dims ALL and the station).
fn recompute_rollups(orders: &BTreeMap<String, OrderRow>, refund_entries: &BTreeMap<String, Item>) -> BTreeMap<Key, Sums> {
    let mut out: BTreeMap<Key, Sums> = BTreeMap::new();
    for o in orders.values() {
        assert_eq!(rollup::dims(o).len(), 5, "the rollup dims this check knows");
        let (station, status) = (o.order.station_id.as_str(), o.order.status);
        let dims = [Dim::All, Dim::Station(station), Dim::Status(status), Dim::Payment(o.order.payment_status), Dim::StationStatus(station, status)];
        let keys = rollup_keys(&dims, station, o.order.start_ts);
        for k in keys {
            out.entry(k).or_default().add(&Sums::of(o));
        }
    }
    for e in refund_entries.values() {
        let (station, at) = (e["stationId"].as_str().unwrap(), e["approvedAt"].as_i64().unwrap());
        let granted = Sums { refunds_granted_fen: e["amountFen"].as_i64().unwrap(), ..Sums::default() };
        for dim in [Dim::All, Dim::Station(station)] {
            for k in [Key::new(keys::day_rollup(dim), keys::day_of(at)), Key::new(keys::month_rollup(dim), keys::month_of(at))] {
                out.entry(k).or_default().add(&granted);
            }
        }
    }
    out
}

#[derive(Default)]
struct Acked {
    /// order -> reason of its acknowledged manual close
    closes: BTreeMap<String, String>,
    /// refund id -> (order, amount in fen) of acknowledged requests
    requests: BTreeMap<String, (String, i64)>,
    /// refund ids of acknowledged approvals
    approvals: BTreeSet<String>,
    /// order -> acknowledged settlement kind (`offlinePayment` / `writeOff`)
    settlements: BTreeMap<String, String>,
}

impl Acked {
    fn writes(&self) -> usize {
        self.closes.len() + self.requests.len() + self.approvals.len() + self.settlements.len()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn kill_9_during_order_and_ledger_writes_loses_nothing_and_halves_nothing() {
    let dir = fresh_data_dir("crash-orders");
    let env = [("BACKOFFICE_DEMO_ORDERS", "200")];
    let mut gw = Gateway::start(dir.clone(), &env).await;
    let client = backoffice::http_client::client();
    let editor = Arc::new(login(&client, &gw.base, "editor", EDITOR_PW).await);
    let admin = Arc::new(login(&client, &gw.base, "admin", ADMIN_PW).await);
    let before_rows = api_orders(&client, &gw.base, &admin, "").await;
    assert_eq!(before_rows.len(), 200);
    let closable: Vec<String> = before_rows
        .iter()
        .filter(|r| r["status"] == "abnormal" || r["status"] == "charging")
        .map(|r| r["orderNo"].as_str().unwrap().to_string())
        .collect();
    let refundable: Vec<String> = before_rows
        .iter()
        .filter(|r| r["paidFen"].as_i64().unwrap() > r["refundedFen"].as_i64().unwrap() + 100)
        .map(|r| r["orderNo"].as_str().unwrap().to_string())
        .collect();
    assert!(!closable.is_empty() && refundable.len() >= 6, "the demo has closable ({}) and refundable ({}) orders", closable.len(), refundable.len());

    let acked = Arc::new(tokio::sync::Mutex::new(Acked::default()));
    let mut writers = Vec::new();
    // One writer closes the stuck and abnormal orders one by one, and
    // finance settles what each closed one owes: paid offline or written off
    // in turn.
    {
        let (client, base, editor, admin, acked, closable) = (client.clone(), gw.base.clone(), editor.clone(), admin.clone(), acked.clone(), closable.clone());
        writers.push(tokio::spawn(async move {
            for (i, no) in closable.into_iter().enumerate() {
                let reason = format!("断电后人工结单 {no}");
                let Some(body) = api(&client, &base, &editor, "POST", "/order/close", Some(serde_json::json!({"orderNo": no, "reason": reason}))).await else { return };
                assert!(body["code"] == 200 || body["code"] == 503, "close {no}: {body}");
                if body["code"] != 200 {
                    continue;
                }
                acked.lock().await.closes.insert(no.clone(), reason);
                let o = &body["data"];
                let owed = o["amountFen"].as_i64().unwrap() - o["paidFen"].as_i64().unwrap();
                if o["paymentStatus"] != "unpaid" || owed <= 0 {
                    continue;
                }
                let (kind, path, req) = if i % 2 == 0 {
                    let amount = format!("{}.{:02}", owed / 100, owed % 100);
                    ("offlinePayment", "/order/settle/offlinePayment", serde_json::json!({"orderNo": no, "method": "cash", "reference": format!("R-{no}"), "amount": amount}))
                } else {
                    ("writeOff", "/order/settle/writeOff", serde_json::json!({"orderNo": no, "reason": format!("坏账核销 {no}")}))
                };
                let Some(body) = api(&client, &base, &admin, "POST", path, Some(req)).await else { return };
                assert_eq!(body["code"], 200, "{kind} of {no}: {body}");
                acked.lock().await.settlements.insert(no, kind.to_string());
            }
        }));
    }
    // Three writers request 0.01 yuan refunds of their share of the paid
    // orders, over and over, and approve each with the admin token.
    for w in 0..3 {
        let mine: Vec<String> = refundable.iter().skip(w).step_by(3).cloned().collect();
        let (client, base, editor, admin, acked) = (client.clone(), gw.base.clone(), editor.clone(), admin.clone(), acked.clone());
        writers.push(tokio::spawn(async move {
            for i in 0..100_000 {
                let no = &mine[i % mine.len()];
                let req = serde_json::json!({"orderNo": no, "amount": "0.01", "reason": format!("流水测试 {w}-{i}")});
                let Some(body) = api(&client, &base, &editor, "POST", "/order/refund/request", Some(req)).await else { return };
                assert_eq!(body["code"], 200, "refund request on {no}: {body}");
                let id = body["data"]["id"].as_str().unwrap().to_string();
                acked.lock().await.requests.insert(id.clone(), (no.clone(), 1));
                let decide = serde_json::json!({"orderNo": no, "refundId": id});
                let Some(body) = api(&client, &base, &admin, "POST", "/order/refund/approve", Some(decide)).await else { return };
                assert_eq!(body["code"], 200, "approval of {id} on {no}: {body}");
                acked.lock().await.approvals.insert(id);
            }
        }));
    }
    // Let the stream run, then kill the process without warning.
    let started = std::time::Instant::now();
    loop {
        let (n, approvals) = {
            let a = acked.lock().await;
            (a.writes(), a.approvals.len())
        };
        if n >= 150 && approvals >= 40 {
            break;
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(120), "the writers stalled ({n} acknowledged writes)");
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    gw.kill();
    for w in writers {
        w.await.expect("a writer saw only acknowledged writes or a dead gateway");
    }
    let acked = std::mem::take(&mut *acked.lock().await);
    assert!(!acked.approvals.is_empty());

    // --- The store as the killed process left it.
    let table = store::sqlite::SqliteTable::open(&dir.join("backoffice.sqlite3")).expect("database reopens after kill -9");
    let orders = stored_orders(&table).await;
    assert_eq!(orders.len(), 200, "no order lost or added");
    // Refund requests of every order, each a complete record.
    let mut refunds: BTreeMap<String, RefundRecord> = BTreeMap::new();
    for no in orders.keys() {
        for item in query_all(&table, Query::partition(keys::order_pk(no))).await {
            let sk = item.get(store::SK).and_then(Value::as_str).unwrap_or_default().to_string();
            if sk.starts_with("REFUND#") {
                for field in ["GSI1PK", "GSI1SK"] {
                    assert!(item.contains_key(field), "refund without {field}: {item:?}");
                }
                let r: RefundRecord = serde_json::from_value(Value::Object(item.clone())).unwrap_or_else(|e| panic!("half-written refund ({e}): {item:?}"));
                assert_eq!(&r.order_no, no);
                refunds.insert(r.id.clone(), r);
            } else {
                assert!(sk == "ORDER" || sk == "DETAIL", "unexpected item in order {no}: {sk}");
            }
        }
    }
    // The ledger, each entry complete.
    let mut ledger: BTreeMap<String, Item> = BTreeMap::new();
    for item in query_all(&table, Query::index(Index::Gsi1, keys::LEDGER_INDEX_PK)).await {
        for field in ["refundId", "orderNo", "stationId", "amountFen", "reason", "approvedBy", "approvedAt", "GSI1SK"] {
            assert!(item.get(field).is_some_and(|v| !v.is_null()), "half-written ledger entry without {field}: {item:?}");
        }
        ledger.insert(item["refundId"].as_str().unwrap().to_string(), item);
    }
    // Settlements (offline payments, write-offs) are ledger entries of their
    // own kind, one per order, each matching the settlement on its order.
    let settled_in_ledger: BTreeMap<String, Item> = ledger.iter().filter(|(_, e)| e.get("kind").is_some_and(|k| *k != "refund")).map(|(id, e)| (id.clone(), e.clone())).collect();
    ledger.retain(|id, _| !settled_in_ledger.contains_key(id));
    for (no, o) in &orders {
        let entry = settled_in_ledger.get(&settle::ledger_id(no));
        match &o.settlement {
            Some(s) => {
                let e = entry.unwrap_or_else(|| panic!("order {no} settled without its ledger entry"));
                assert_eq!(e["amountFen"].as_i64(), Some(s.amount_fen.0), "settlement amount of {no}");
                assert_eq!(e["kind"].as_str(), Some(keys::enum_name(&s.kind).as_str()), "settlement kind of {no}");
                match s.kind {
                    settle::SettlementKind::OfflinePayment => assert_eq!(o.order.payment_status, o.order.money().payment_status(), "order {no}"),
                    settle::SettlementKind::WriteOff => assert_eq!(keys::enum_name(&o.order.payment_status), "writtenOff", "order {no}"),
                }
            }
            None => assert!(entry.is_none(), "ledger entry of a settlement that is not on order {no}"),
        }
    }
    assert_eq!(settled_in_ledger.len(), orders.values().filter(|o| o.settlement.is_some()).count());

    // Every acknowledged write is there.
    for (no, reason) in &acked.closes {
        let o = &orders[no];
        assert!(matches!(keys::enum_name(&o.order.status).as_str(), "finished" | "cancelled"), "acknowledged close of {no} lost: {o:?}");
        assert_eq!(o.close_reason.as_deref(), Some(reason.as_str()));
        assert_eq!(o.closed_by.as_deref(), Some("editor"));
    }
    for (id, (no, amount)) in &acked.requests {
        let r = refunds.get(id).unwrap_or_else(|| panic!("acknowledged refund request {id} lost"));
        assert_eq!((&r.order_no, r.amount_fen.0), (no, *amount));
    }
    for (no, kind) in &acked.settlements {
        let s = orders[no].settlement.as_ref().unwrap_or_else(|| panic!("acknowledged {kind} of {no} lost"));
        assert_eq!(&keys::enum_name(&s.kind), kind);
    }
    for id in &acked.approvals {
        assert_eq!(refunds[id].status, RefundStatus::Approved, "acknowledged approval of {id} lost");
        assert!(ledger.contains_key(id), "acknowledged approval of {id} has no ledger entry");
    }

    // Nothing half-written: approved refunds <-> ledger entries, one to one,
    // and each order's refunded amount is the sum of its ledger entries.
    let approved: BTreeSet<&String> = refunds.values().filter(|r| r.status == RefundStatus::Approved).map(|r| &r.id).collect();
    let in_ledger: BTreeSet<&String> = ledger.keys().collect();
    assert_eq!(approved, in_ledger, "approved refunds and ledger entries differ");
    let mut ledger_sum: BTreeMap<String, i64> = BTreeMap::new();
    for (id, e) in &ledger {
        let r = &refunds[id];
        assert_eq!(e["orderNo"].as_str(), Some(r.order_no.as_str()));
        assert_eq!(e["amountFen"].as_i64(), Some(r.amount_fen.0), "ledger amount of {id}");
        *ledger_sum.entry(r.order_no.clone()).or_default() += r.amount_fen.0;
    }
    for (no, o) in &orders {
        let l = ledger_sum.get(no).copied().unwrap_or(0);
        assert_eq!(o.order.refunded_fen.0, l, "order {no}: refunded {} but its ledger entries sum to {l}", o.order.refunded_fen.0);
        assert!(o.order.refunded_fen.0 <= o.order.paid_fen.0, "order {no} refunded more than paid");
        if o.settlement.is_none() {
            assert_eq!(o.order.payment_status, o.order.money().payment_status(), "order {no}: payment status follows the amounts");
        }
    }

    // Every rollup equals the sums of the orders behind it: every key an
    // order adds to now, and every key an order added to before the stream.
    let recomputed = recompute_rollups(&orders, &ledger);
    let mut check: BTreeSet<Key> = recomputed.keys().cloned().collect();
    for r in &before_rows {
        let station = r["stationId"].as_str().unwrap();
        let status = serde_json::from_value(r["status"].clone()).unwrap();
        let dims = [Dim::All, Dim::Station(station), Dim::Status(status), Dim::Payment(serde_json::from_value(r["paymentStatus"].clone()).unwrap()), Dim::StationStatus(station, status)];
        check.extend(rollup_keys(&dims, station, r["startTs"].as_i64().unwrap()));
    }
    eprintln!(
        "acknowledged before kill -9: {} closes, {} settlements, {} refund requests, {} approvals; {} orders, {} refunds, {} ledger entries, {} rollup items checked",
        acked.closes.len(),
        acked.settlements.len(),
        acked.requests.len(),
        acked.approvals.len(),
        orders.len(),
        refunds.len(),
        ledger.len(),
        check.len()
    );
    for key in &check {
        let stored = table.get(key).await.unwrap().map(|i| Sums::from_item(&i)).unwrap_or_default();
        let want = recomputed.get(key).copied().unwrap_or_default();
        assert_eq!(stored, want, "rollup {}/{} differs from its orders", key.pk, key.sk);
    }
    drop(table);

    // --- The restarted gateway serves the same data and takes writes.
    let gw = Gateway::start(dir, &env).await;
    let admin = login(&client, &gw.base, "admin", ADMIN_PW).await;
    let after_rows = api_orders(&client, &gw.base, &admin, "").await;
    assert_eq!(after_rows.len(), 200);
    for r in &after_rows {
        let o = &orders[r["orderNo"].as_str().unwrap()];
        assert_eq!(r["refundedFen"].as_i64(), Some(o.order.refunded_fen.0));
        assert_eq!(r["version"].as_i64(), Some(o.version));
    }
    // Finance of a touched day and station equals the orders started that
    // day, and its refunds the ledger's refunds approved that day.
    let touched = acked.approvals.iter().next().map(|id| &orders[&refunds[id].order_no]).unwrap();
    let day = keys::iso_day(keys::local_day(touched.order.start_ts));
    let filter = format!("&stationId={}", touched.order.station_id);
    let day_rows: Vec<Value> = api_orders(&client, &gw.base, &admin, &filter)
        .await
        .into_iter()
        .filter(|r| keys::iso_day(keys::local_day(r["startTs"].as_i64().unwrap())) == day)
        .collect();
    let rev = api(&client, &gw.base, &admin, "GET", &format!("/money/revenue?from={day}&to={day}&stationId={}", touched.order.station_id), None).await.unwrap();
    for f in ["paidFen", "amountFen"] {
        let want: i64 = day_rows.iter().map(|r| r[f].as_i64().unwrap()).sum();
        assert_eq!(rev["data"]["total"][f].as_i64(), Some(want), "finance {f} of {day} / {}", touched.order.station_id);
    }
    let granted: i64 = ledger
        .values()
        .filter(|e| e["stationId"] == touched.order.station_id.as_str() && keys::iso_day(keys::local_day(e["approvedAt"].as_i64().unwrap())) == day)
        .map(|e| e["amountFen"].as_i64().unwrap())
        .sum();
    assert_eq!(rev["data"]["total"]["refundedFen"].as_i64(), Some(granted), "finance refunds of {day} / {}: the ledger's", touched.order.station_id);
    let req = serde_json::json!({"orderNo": touched.order.order_no, "amount": "0.01", "reason": "重启后"});
    let body = api(&client, &gw.base, &admin, "POST", "/order/refund/request", Some(req)).await.unwrap();
    assert_eq!(body["code"], 200, "{body}");
    let decide = serde_json::json!({"orderNo": touched.order.order_no, "refundId": body["data"]["id"]});
    let body = api(&client, &gw.base, &admin, "POST", "/order/refund/approve", Some(decide)).await.unwrap();
    assert_eq!(body["code"], 200, "{body}");
    assert_eq!(body["data"]["order"]["refundedFen"].as_i64(), Some(touched.order.refunded_fen.0 + 1));
}

// ------------------------------------------------------------------------
// SIGTERM during a burst of writes: the gateway stops taking connections,
// finishes what it took, and exits 0. Every acknowledged write is there
// after a restart, and nothing else: a request the server handled was
// answered (none cut mid-way), one it did not answer was not handled.

/// Adds charging cards `PREFIX{w}-{i}` from `writers` tasks until told to
/// stop or the gateway stops answering; returns the acknowledged numbers.
struct CardBurst {
    acknowledged: Arc<tokio::sync::Mutex<BTreeSet<String>>>,
    stop: Arc<std::sync::atomic::AtomicBool>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl CardBurst {
    fn start(client: &reqwest::Client, base: &str, token: &str, prefix: &'static str, writers: usize) -> CardBurst {
        let acknowledged = Arc::new(tokio::sync::Mutex::new(BTreeSet::new()));
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let tasks = (0..writers)
            .map(|w| {
                let (client, base, token, acknowledged, stop) = (client.clone(), base.to_string(), token.to_string(), acknowledged.clone(), stop.clone());
                tokio::spawn(async move {
                    for i in 0..100_000 {
                        if stop.load(std::sync::atomic::Ordering::Relaxed) {
                            return;
                        }
                        let id_tag = format!("{prefix}{w}-{i}");
                        let sent = client.post(format!("{base}/card/doAdd")).bearer_auth(&token).json(&serde_json::json!({"idTag": id_tag, "holder": "burst", "status": "Accepted"})).send().await;
                        let Ok(resp) = sent else { return };
                        let Ok(body) = resp.json::<Value>().await else { return };
                        assert_eq!(body["code"], 200, "{id_tag}: {body}");
                        acknowledged.lock().await.insert(id_tag);
                    }
                })
            })
            .collect();
        CardBurst { acknowledged, stop, tasks }
    }

    /// Waits until `n` writes are acknowledged (a minute at most).
    async fn reach(&self, n: usize) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while self.count().await < n {
            assert!(std::time::Instant::now() < deadline, "only {} of {n} writes acknowledged within a minute", self.count().await);
            assert!(self.tasks.iter().any(|t| !t.is_finished()), "every writer stopped before {n} writes");
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    async fn count(&self) -> usize {
        self.acknowledged.lock().await.len()
    }

    async fn finish(self) -> BTreeSet<String> {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for t in self.tasks {
            t.await.expect("a writer panicked");
        }
        self.acknowledged.lock().await.clone()
    }
}

/// Every card whose number starts with `prefix`, through the API.
async fn stored_cards(client: &reqwest::Client, base: &str, token: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for page in 1.. {
        let body = api(client, base, token, "GET", &format!("/card/getList?keyword={prefix}&pageNo={page}&pageSize=100"), None).await.expect("the gateway answers");
        assert_eq!(body["code"], 200, "{body}");
        let list = body["data"]["list"].as_array().unwrap();
        out.extend(list.iter().map(|c| c["idTag"].as_str().unwrap().to_string()));
        if list.len() < 100 {
            return out;
        }
    }
    unreachable!()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sigterm_during_writes_finishes_what_it_took_and_loses_nothing() {
    let dir = fresh_data_dir("sigterm");
    let env = [("BACKOFFICE_DEMO_ORDERS", "50")];
    let mut gw = Gateway::start(dir.clone(), &env).await;
    let client = backoffice::http_client::client();
    let token = login(&client, &gw.base, "admin", ADMIN_PW).await;
    let burst = CardBurst::start(&client, &gw.base, &token, "TERM", 8);
    burst.reach(100).await;
    let exit = tokio::task::spawn_blocking(move || {
        let exit = gw.terminate(std::time::Duration::from_secs(20));
        (gw, exit)
    });
    let (gw, exit) = exit.await.unwrap();
    let acknowledged = burst.finish().await;
    assert!(exit.success(), "a polite stop exits 0: {exit:?}");
    drop(gw);
    let wal = dir.join("backoffice.sqlite3-wal");
    assert!(!wal.exists() || std::fs::metadata(&wal).unwrap().len() == 0, "the stop folded the WAL into the database file");

    let gw = Gateway::start(dir, &env).await;
    let token = login(&client, &gw.base, "admin", ADMIN_PW).await;
    let stored = stored_cards(&client, &gw.base, &token, "TERM").await;
    let lost: Vec<_> = acknowledged.difference(&stored).collect();
    assert!(lost.is_empty(), "{} acknowledged writes lost: {lost:?}", lost.len());
    let unanswered: Vec<_> = stored.difference(&acknowledged).collect();
    assert!(unanswered.is_empty(), "{} writes were made but their answer was cut: {unanswered:?}", unanswered.len());
}

// ------------------------------------------------------------------------
// `gateway backup` while writes go on, then `gateway restore` into a fresh
// data dir: the copy passes the integrity check, holds every write
// acknowledged before the backup started, and the product runs on it.
// A restore under a running gateway is refused.

fn gateway_command(data_dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_gateway"))
        .args(args)
        .env("BACKOFFICE_DATA_DIR", data_dir)
        .env_remove("BACKOFFICE_STORE")
        .output()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn backup_during_writes_restores_into_a_fresh_data_dir() {
    let dir = fresh_data_dir("backup");
    let env = [("BACKOFFICE_DEMO_ORDERS", "50")];
    let gw = Gateway::start(dir.clone(), &env).await;
    let client = backoffice::http_client::client();
    let token = login(&client, &gw.base, "admin", ADMIN_PW).await;
    let burst = CardBurst::start(&client, &gw.base, &token, "BACK", 4);
    burst.reach(80).await;
    let before_backup = burst.acknowledged.lock().await.clone();
    let copy = dir.join("nightly.sqlite3");
    let out = {
        let (dir, copy) = (dir.clone(), copy.clone());
        tokio::task::spawn_blocking(move || gateway_command(&dir, &["backup", copy.to_str().unwrap()])).await.unwrap()
    };
    assert!(out.status.success(), "backup failed: {}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("integrity check ok"));
    // The writes went on during the backup.
    let during = burst.count().await;
    let all = burst.finish().await;
    assert!(all.len() >= during);

    // Not under a running gateway.
    let refused = gateway_command(&dir, &["restore", copy.to_str().unwrap()]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("a gateway is running"), "{}", String::from_utf8_lossy(&refused.stderr));

    let fresh = fresh_data_dir("backup-restored");
    let out = gateway_command(&fresh, &["restore", copy.to_str().unwrap()]);
    assert!(out.status.success(), "restore failed: {}", String::from_utf8_lossy(&out.stderr));
    store::sqlite_file::verify(&fresh.join("backoffice.sqlite3")).expect("the restored store passes the integrity check");
    drop(gw);

    let restored = Gateway::start(fresh, &env).await;
    let token = login(&client, &restored.base, "admin", ADMIN_PW).await;
    let cards = stored_cards(&client, &restored.base, &token, "BACK").await;
    let missing: Vec<_> = before_backup.difference(&cards).collect();
    assert!(missing.is_empty(), "{} writes acknowledged before the backup are missing: {missing:?}", missing.len());
    assert!(cards.is_subset(&all), "the copy holds only real writes");
}
