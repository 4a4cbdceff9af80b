//! Items read and store calls per order-list request as the table grows.
//!
//! For each size (default 1000 and 100000 orders) it seeds a fresh SQLite
//! file with the demo data set through the product's own seeding path
//! (`seed::ensure_seeded`, same items as the live write path), signs in,
//! then calls `GET /order/getList` through the real dispatch (auth,
//! permission, handler) with a counting decorator around the store, for
//! several filters and the first pages of each, and prints per request the
//! store calls and items read (including the sign-in check's reads) and
//! the time taken. The cost of a page must not grow with the table.
//!
//! Run: `cargo run --release -p bench --bin orders-list -- 1000 100000`
//! (sizes are optional; `BENCH_DIR` sets where the SQLite files go).

use std::sync::Arc;
use std::time::Instant;

use backoffice::config::Config;
use backoffice::{ApiRequest, AppCtx};
use http::Method;
use store::counting::CountingTable;
use store::sqlite::SqliteTable;
use store::Table;

const PASSWORD: &str = "bench-password-1";
const PAGES: usize = 3;

fn env(orders: u64) -> impl Fn(&str) -> Option<String> {
    move |k: &str| match k {
        "BACKOFFICE_JWT_SECRET" => Some("bench-secret-that-is-long-enough-0123456789".into()),
        "BACKOFFICE_SEED_PASSWORD_ADMIN" | "BACKOFFICE_SEED_PASSWORD_EDITOR" | "BACKOFFICE_SEED_PASSWORD_TEST" => Some(PASSWORD.into()),
        "BACKOFFICE_DEMO_ORDERS" => Some(orders.to_string()),
        _ => None,
    }
}

async fn call(ctx: &AppCtx, method: Method, path_and_query: &str, token: Option<&str>, body: Option<serde_json::Value>) -> serde_json::Value {
    let (path, query) = path_and_query.split_once('?').map_or((path_and_query, None), |(p, q)| (p, Some(q)));
    let route = backoffice::routes::find(&method, path).expect("route exists");
    let mut req = ApiRequest::new(method, path).with_query_string(query);
    if let Some(t) = token {
        req.headers.insert("authorization", format!("Bearer {t}").parse().unwrap());
    }
    if let Some(b) = body {
        req.headers.insert("content-type", "application/json".parse().unwrap());
        req.body = bytes::Bytes::from(serde_json::to_vec(&b).unwrap());
    }
    let resp = backoffice::dispatch(ctx, route, req).await;
    serde_json::from_slice(resp.body()).expect("JSON answer")
}

async fn run(size: u64, dir: &std::path::Path) {
    let file = dir.join(format!("bench-orders-{size}.sqlite"));
    let _ = std::fs::remove_file(&file);
    let raw: Arc<dyn Table> = Arc::new(SqliteTable::open(&file).expect("SQLite file opens"));
    let counting = Arc::new(CountingTable::new(raw.clone()));
    let get = env(size);
    let config = Config::from_lookup(&get).expect("bench configuration");
    let seed_ctx = AppCtx::new(raw, config.clone()).expect("context");
    let started = Instant::now();
    backoffice::seed::ensure_seeded(&seed_ctx, &get).await.expect("seeding works");
    println!("\n== {size} orders (seeded in {:.1} s) ==", started.elapsed().as_secs_f64());
    let ctx = AppCtx::new(counting.clone(), config).expect("context");
    let login = call(&ctx, Method::POST, "/login/index", None, Some(serde_json::json!({"username": "admin", "password": PASSWORD}))).await;
    let token = login["data"]["token"].as_str().expect("signed in").to_string();
    // The sign-in check alone (user + session), to tell it apart.
    counting.take();
    call(&ctx, Method::GET, "/index/userInfo", Some(&token), None).await;
    let auth = counting.take();
    println!("auth check per request: {} calls, {} items", auth.calls, auth.items_read);
    println!("{:<44} {:>4} {:>6} {:>6} {:>5} {:>8}", "filter (120-day range, 20 per page)", "page", "calls", "items", "rows", "ms");
    // The demo orders span 120 days up to today; list them all.
    let today = backoffice::domain::orders::keys::local_day(ctx.now());
    let (from, to) = (backoffice::domain::orders::keys::iso_day(today - 125), backoffice::domain::orders::keys::iso_day(today));
    let first_station = {
        let v = call(&ctx, Method::GET, &format!("/order/getList?from={from}&to={to}&pageSize=1"), Some(&token), None).await;
        v["data"]["list"][0]["stationId"].as_str().unwrap_or_default().to_string()
    };
    counting.take();
    for filter in [
        String::new(),
        format!("stationId={first_station}"),
        "status=finished".into(),
        "status=abnormal".into(),
        "paymentStatus=refunded".into(),
        "anomaly=flagged".into(),
        format!("stationId={first_station}&status=finished"),
    ] {
        let mut cursor: Option<String> = None;
        for page in 1..=PAGES {
            let mut q = format!("/order/getList?from={from}&to={to}&pageSize=20");
            if !filter.is_empty() {
                q.push('&');
                q.push_str(&filter);
            }
            if let Some(c) = &cursor {
                q.push_str(&format!("&cursor={c}"));
            }
            let t0 = Instant::now();
            let v = call(&ctx, Method::GET, &q, Some(&token), None).await;
            let ms = t0.elapsed().as_secs_f64() * 1000.0;
            let c = counting.take();
            let rows = v["data"]["list"].as_array().map_or(0, |l| l.len());
            let label = if filter.is_empty() { "(none)" } else { filter.as_str() };
            println!("{label:<44} {page:>4} {:>6} {:>6} {rows:>5} {ms:>8.1}", c.calls, c.items_read);
            match v["data"]["cursor"].as_str() {
                Some(next) => cursor = Some(next.to_string()),
                None => break,
            }
        }
    }
}

#[tokio::main]
async fn main() {
    let sizes: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![1_000, 100_000] } else { sizes };
    let dir = std::env::var_os("BENCH_DIR").map(std::path::PathBuf::from).unwrap_or_else(std::env::temp_dir);
    println!("order list through the real dispatch, SQLite store, counting store calls and items read per request");
    for size in sizes {
        run(size, &dir).await;
    }
}
