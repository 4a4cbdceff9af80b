//! What the store-cost and latency benchmarks share: the configuration they
//! run the product with, a call through the real dispatch, opening and
//! seeding a store of a given size through the product's seeding path, and
//! a meter on the DynamoDB client that records every request on the wire.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use aws_sdk_dynamodb::config::interceptors::{AfterDeserializationInterceptorContextRef, BeforeTransmitInterceptorContextRef};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use aws_sdk_dynamodb::types::AttributeValue;
use backoffice::config::Config;
use backoffice::{ApiRequest, AppCtx};
use http::Method;
use store::recording::KeyRecorder;
use store::Table;

pub const PASSWORD: &str = "bench-password-1";

/// The product's configuration for a benchmark store of `orders` demo orders.
pub fn env(orders: u64, data_dir: &Path) -> impl Fn(&str) -> Option<String> {
    let data_dir = data_dir.display().to_string();
    move |k: &str| match k {
        "BACKOFFICE_JWT_SECRET" => Some("bench-secret-that-is-long-enough-0123456789".into()),
        "BACKOFFICE_SEED_PASSWORD_ADMIN" | "BACKOFFICE_SEED_PASSWORD_EDITOR" | "BACKOFFICE_SEED_PASSWORD_TEST" => Some(PASSWORD.into()),
        "BACKOFFICE_DEMO_ORDERS" => Some(orders.to_string()),
        // A shorter history makes a small store as dense as a large one.
        "BACKOFFICE_DEMO_DAYS" => std::env::var("BACKOFFICE_DEMO_DAYS").ok(),
        "BACKOFFICE_DATA_DIR" => Some(data_dir.clone()),
        _ => None,
    }
}

/// One answer of the dispatch: HTTP status and the JSON envelope.
pub struct Answer {
    pub status: u16,
    pub body: serde_json::Value,
}

/// Calls a route through the real dispatch (auth, permission, handler, envelope).
pub async fn call(ctx: &AppCtx, method: Method, path_and_query: &str, token: Option<&str>, body: Option<serde_json::Value>) -> Answer {
    let (path, query) = path_and_query.split_once('?').map_or((path_and_query, None), |(p, q)| (p, Some(q)));
    let route = backoffice::routes::find(&method, path).unwrap_or_else(|| panic!("no route {method} {path}"));
    let mut req = ApiRequest::new(method, path).with_query_string(query);
    if let Some(t) = token {
        req.headers.insert("authorization", format!("Bearer {t}").parse().unwrap());
    }
    if let Some(b) = body {
        req.headers.insert("content-type", "application/json".parse().unwrap());
        req.body = bytes::Bytes::from(serde_json::to_vec(&b).unwrap());
    }
    let resp = backoffice::dispatch(ctx, route, req).await;
    let status = resp.status().as_u16();
    Answer { status, body: serde_json::from_slice(resp.body()).unwrap_or(serde_json::Value::Null) }
}

/// Signs in as `admin` through the dispatch; the access token.
pub async fn sign_in(ctx: &AppCtx) -> String {
    let login = call(ctx, Method::POST, "/login/index", None, Some(serde_json::json!({"username": "admin", "password": PASSWORD}))).await;
    login.body["data"]["token"].as_str().unwrap_or_else(|| panic!("sign-in failed: {}", login.body)).to_string()
}

/// Where a size's SQLite data dir is (a gateway can serve it as BACKOFFICE_DATA_DIR).
pub fn sqlite_dir(base: &Path, orders: u64) -> PathBuf {
    base.join(format!("sqlite-{}", data_set(orders)))
}

/// Names one demo data set: its size, and its history when not the default
/// (`BACKOFFICE_DEMO_DAYS`), so stores of different data sets are never reused
/// for each other.
pub fn data_set(orders: u64) -> String {
    match std::env::var("BACKOFFICE_DEMO_DAYS") {
        Ok(days) if !days.is_empty() => format!("{orders}-{days}d"),
        _ => orders.to_string(),
    }
}

/// The instant the whole run stands at (taken at its first use): the demo
/// history is dated back from "now", so two store sizes seeded on either
/// side of the operator's midnight held different days and a comparison of
/// their costs failed. Seeds and the store-cost measurement stand here.
fn run_instant() -> i64 {
    static AT: OnceLock<i64> = OnceLock::new();
    *AT.get_or_init(|| std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0))
}

/// Stops `ctx`'s clock at the run's instant.
pub fn stand_at_run_instant(ctx: &AppCtx) {
    ctx.clock.freeze();
    ctx.clock.advance(run_instant() - ctx.now());
}

/// Seeds a store through the product's seeding path (`seed::ensure_seeded`,
/// a no-op when it was seeded before), dated at the run's instant; seconds
/// taken, or None when it was already seeded.
pub async fn seed(store: Arc<dyn Table>, orders: u64, data_dir: &Path) -> Option<f64> {
    let get = env(orders, data_dir);
    let config = Config::from_lookup(&get).expect("bench configuration");
    let ctx = AppCtx::new(store, config).expect("context");
    stand_at_run_instant(&ctx);
    let started = Instant::now();
    let report = backoffice::seed::ensure_seeded(&ctx, &get).await.unwrap_or_else(|e| panic!("seeding failed: {}", e.msg.en));
    report.seeded_now.then(|| started.elapsed().as_secs_f64())
}

/// Seeds a DynamoDB table: the product's seeding path runs on an in-memory
/// SQLite store and every item it wrote is copied over with bulk writes
/// (BatchWriteItem). moto copies the whole table for every item of every
/// transaction, which makes the transactional seed (stations, piles,
/// connectors are inserted one transaction each) take tens of minutes
/// there. None when the table was seeded before; else (seconds seeding,
/// seconds copying, items copied).
pub async fn seed_dynamo(table: Arc<dyn Table>, orders: u64, data_dir: &Path) -> Option<(f64, f64, usize)> {
    let marker = table.get(&backoffice::domain::keys::seed_marker()).await.expect("the table answers");
    if marker.is_some() {
        return None;
    }
    let sqlite: Arc<dyn Table> = Arc::new(store::sqlite::SqliteTable::open_in_memory().expect("in-memory SQLite"));
    let recorder = Arc::new(KeyRecorder::new(sqlite));
    let seeded = seed(recorder.clone(), orders, data_dir).await.expect("a fresh store is seeded");
    let started = Instant::now();
    let n = recorder.copy_written_to(table.as_ref()).await.expect("the seed is copied to DynamoDB");
    Some((seeded, started.elapsed().as_secs_f64(), n))
}

/// A context on `store` with the bench configuration.
pub fn context(store: Arc<dyn Table>, orders: u64, data_dir: &Path) -> Arc<AppCtx> {
    let get = env(orders, data_dir);
    AppCtx::new(store, Config::from_lookup(&get).expect("bench configuration")).expect("context")
}

/// What the DynamoDB client sent and got back since the last `take`.
#[derive(Debug, Clone, Default)]
pub struct Wire {
    /// Requests by DynamoDB operation name (Query, GetItem, ...).
    pub ops: BTreeMap<String, u64>,
    /// Items DynamoDB read and charges for: ScannedCount of a Query or
    /// Scan (what a filter would not reduce), items found by GetItem and
    /// BatchGetItem.
    pub items_read: u64,
    /// Items DynamoDB returned.
    pub returned: u64,
    /// Read capacity units this would cost in DynamoDB, from the returned
    /// items' sizes (4 KB units; strongly consistent GetItem/BatchGetItem
    /// 1 per unit per item, eventually consistent Query 0.5 per unit of the
    /// summed size). moto's own ConsumedCapacity is a constant, so it is
    /// not used.
    pub rcu: f64,
}

impl Wire {
    pub fn requests(&self) -> u64 {
        self.ops.values().sum()
    }
    /// Operations that read a whole table or index (none may ever appear).
    pub fn scans(&self) -> u64 {
        self.ops.iter().filter(|(op, _)| op.contains("Scan")).map(|(_, n)| n).sum()
    }
    pub fn ops_text(&self) -> String {
        self.ops.iter().map(|(op, n)| format!("{op}x{n}")).collect::<Vec<_>>().join(" ")
    }
}

/// A DynamoDB client interceptor filling a [`Wire`].
#[derive(Debug, Clone, Default)]
pub struct Meter(Arc<Mutex<Wire>>);

impl Meter {
    pub fn take(&self) -> Wire {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

/// DynamoDB's size of an attribute value (name bytes are added by the caller).
fn value_size(v: &AttributeValue) -> usize {
    match v {
        AttributeValue::S(s) => s.len(),
        AttributeValue::N(n) => n.len().div_ceil(2) + 1,
        AttributeValue::B(b) => b.as_ref().len(),
        AttributeValue::Bool(_) | AttributeValue::Null(_) => 1,
        AttributeValue::L(l) => 3 + l.iter().map(|e| 1 + value_size(e)).sum::<usize>(),
        AttributeValue::M(m) => 3 + m.iter().map(|(k, e)| 1 + k.len() + value_size(e)).sum::<usize>(),
        AttributeValue::Ss(s) => s.iter().map(String::len).sum(),
        AttributeValue::Ns(n) => n.iter().map(|n| n.len().div_ceil(2) + 1).sum(),
        _ => 0,
    }
}

/// DynamoDB's size of an item.
pub fn item_size(item: &std::collections::HashMap<String, AttributeValue>) -> usize {
    item.iter().map(|(k, v)| k.len() + value_size(v)).sum()
}

fn units(bytes: usize) -> f64 {
    bytes.div_ceil(4096).max(1) as f64
}

impl Intercept for Meter {
    fn name(&self) -> &'static str {
        "bench wire meter"
    }

    fn read_before_transmit(&self, context: &BeforeTransmitInterceptorContextRef<'_>, _: &RuntimeComponents, _: &mut ConfigBag) -> Result<(), BoxError> {
        let target = context.request().headers().get("x-amz-target").unwrap_or("unknown");
        let op = target.rsplit('.').next().unwrap_or(target).to_string();
        *self.0.lock().unwrap().ops.entry(op).or_default() += 1;
        Ok(())
    }

    fn read_after_deserialization(
        &self,
        context: &AfterDeserializationInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        use aws_sdk_dynamodb::operation::{batch_get_item::BatchGetItemOutput, get_item::GetItemOutput, query::QueryOutput, scan::ScanOutput};
        let Ok(output) = context.output_or_error() else { return Ok(()) };
        let mut wire = self.0.lock().unwrap();
        if let Some(q) = output.downcast_ref::<QueryOutput>() {
            let items = q.items();
            wire.items_read += q.scanned_count().max(0) as u64;
            wire.returned += items.len() as u64;
            wire.rcu += 0.5 * units(items.iter().map(item_size).sum());
        } else if let Some(s) = output.downcast_ref::<ScanOutput>() {
            wire.items_read += s.scanned_count().max(0) as u64;
            wire.returned += s.items().len() as u64;
        } else if let Some(g) = output.downcast_ref::<GetItemOutput>() {
            let found = g.item().map_or(0, |_| 1);
            wire.items_read += found;
            wire.returned += found;
            wire.rcu += units(g.item().map_or(0, item_size));
        } else if let Some(b) = output.downcast_ref::<BatchGetItemOutput>() {
            for items in b.responses().map(|r| r.values().collect::<Vec<_>>()).unwrap_or_default() {
                wire.items_read += items.len() as u64;
                wire.returned += items.len() as u64;
                wire.rcu += items.iter().map(|i| units(item_size(i))).sum::<f64>();
            }
        }
        Ok(())
    }
}

/// A DynamoDB table at `endpoint` (moto) whose client carries `meter`; the
/// table and its indexes are created when missing.
pub async fn dynamo_table(endpoint: &str, table: &str, meter: &Meter) -> store::dynamo::DynamoTable {
    let sdk = aws_config::defaults(aws_config::BehaviorVersion::latest())
        .http_client(store::dynamo::https_client())
        .endpoint_url(endpoint)
        .region(aws_config::Region::new("us-east-1"))
        .credentials_provider(aws_sdk_dynamodb::config::Credentials::new("local", "local", None, None, "emulator"))
        .load()
        .await;
    let conf = aws_sdk_dynamodb::config::Builder::from(&sdk).interceptor(meter.clone()).build();
    let t = store::dynamo::DynamoTable::from_client(aws_sdk_dynamodb::Client::from_conf(conf), table);
    t.create_table_if_missing().await.expect("the benchmark table is created at the DynamoDB endpoint");
    t
}

/// Percentile (0..=100) of sorted durations in milliseconds.
pub fn percentile(sorted_ms: &[f64], p: f64) -> f64 {
    if sorted_ms.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * (sorted_ms.len() as f64 - 1.0)).round() as usize;
    sorted_ms[rank.min(sorted_ms.len() - 1)]
}

/// Number of CPU cores of this machine.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
