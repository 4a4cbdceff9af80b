//! Warm latency of the order list: p50/p99, requests/s and requests/s per
//! core, in-process (the real dispatch called directly) or through the
//! local gateway over HTTP.
//!
//! The request mix: `/order/getList` over the demo data's 120 days with no
//! filter, a station, a status, and station + status; for each the first
//! page and the next one (its cursor taken from the first page), 20 rows a
//! page. Requests are sent round-robin by `--connections` concurrent
//! clients for `--seconds` after a warm-up.
//!
//! Usage:
//!   latency inprocess --dir DIR --orders N          (SQLite data dir; seeded through the product's seed when empty)
//!   latency dynamo --endpoint URL --orders N        (DynamoDB adapter on moto; table bench-orders-N, seeded when empty)
//!   latency gateway --url http://127.0.0.1:PORT [--pid GATEWAY_PID] [--password P]
//! common: [--connections 4] [--seconds 20] [--warmup 2]
//! With `--pid`, the gateway's CPU time over the run (from /proc) gives
//! requests per CPU-second; otherwise per core is requests/s over all cores
//! of the machine (load client included).

#[path = "support.rs"]
mod support;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use backoffice::domain::orders::keys::{iso_day, local_day};
use backoffice::AppCtx;
use http::Method;
use store::Table;

#[derive(Clone)]
enum Target {
    InProcess { ctx: Arc<AppCtx>, token: String },
    Http { client: reqwest::Client, base: String, token: String },
}

impl Target {
    /// One GET of `/partnerapi{path_and_query}`: status and JSON.
    async fn get(&self, path_and_query: &str) -> (u16, serde_json::Value) {
        match self {
            Target::InProcess { ctx, token } => {
                let a = support::call(ctx, Method::GET, path_and_query, Some(token), None).await;
                (a.status, a.body)
            }
            Target::Http { client, base, token } => {
                let resp = client.get(format!("{base}/partnerapi{path_and_query}")).bearer_auth(token).send().await;
                match resp {
                    Ok(r) => {
                        let status = r.status().as_u16();
                        (status, r.json().await.unwrap_or(serde_json::Value::Null))
                    }
                    Err(e) => {
                        eprintln!("request failed: {e}");
                        (0, serde_json::Value::Null)
                    }
                }
            }
        }
    }
}

struct Args {
    mode: String,
    dir: Option<PathBuf>,
    orders: u64,
    endpoint: Option<String>,
    url: Option<String>,
    pid: Option<u32>,
    password: String,
    connections: usize,
    seconds: f64,
    warmup: f64,
}

fn args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let mode = it.next().ok_or("usage: latency inprocess|dynamo|gateway ... (see the file's head)")?;
    let mut a = Args {
        mode,
        dir: None,
        orders: 1000,
        endpoint: None,
        url: None,
        pid: None,
        password: support::PASSWORD.into(),
        connections: 4,
        seconds: 20.0,
        warmup: 2.0,
    };
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let num = |v: &str| v.parse::<f64>().map_err(|_| format!("{flag} must be a number, not {v:?}"));
        match flag.as_str() {
            "--dir" => a.dir = Some(PathBuf::from(value)),
            "--orders" => a.orders = num(&value.replace('_', ""))? as u64,
            "--endpoint" => a.endpoint = Some(value),
            "--url" => a.url = Some(value.trim_end_matches('/').to_string()),
            "--pid" => a.pid = Some(num(&value)? as u32),
            "--password" => a.password = value,
            "--connections" => a.connections = (num(&value)? as usize).max(1),
            "--seconds" => a.seconds = num(&value)?,
            "--warmup" => a.warmup = num(&value)?,
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(a)
}

/// CPU seconds (user + system) a process has used so far, from /proc.
fn cpu_seconds(pid: Option<u32>) -> Option<f64> {
    let path = pid.map_or("/proc/self/stat".to_string(), |p| format!("/proc/{p}/stat"));
    let stat = std::fs::read_to_string(path).ok()?;
    // Fields after the command name (which may hold spaces) start at ")".
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    let hz = std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse::<f64>().ok())
        .unwrap_or(100.0);
    Some(ticks / hz)
}

async fn target(a: &Args) -> Result<Target, String> {
    match a.mode.as_str() {
        "inprocess" | "dynamo" => {
            let (store, dir): (Arc<dyn Table>, PathBuf) = if a.mode == "inprocess" {
                let dir = a.dir.clone().ok_or("inprocess needs --dir (a SQLite data dir)")?;
                std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                let t = store::sqlite::SqliteTable::open(&dir.join("backoffice.sqlite3")).map_err(|e| e.to_string())?;
                (Arc::new(t), dir)
            } else {
                let endpoint = a.endpoint.clone().ok_or("dynamo needs --endpoint (moto)")?;
                let dir = std::env::temp_dir().join("backoffice-bench").join(format!("dynamo-{}", a.orders));
                std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
                let t = support::dynamo_table(&endpoint, &format!("bench-orders-{}", a.orders), &support::Meter::default()).await;
                (Arc::new(t), dir)
            };
            if a.mode == "dynamo" {
                if let Some((s, c, n)) = support::seed_dynamo(store.clone(), a.orders, &dir).await {
                    println!("seeded {} orders on SQLite in {s:.1} s, copied {n} items to moto in {c:.1} s", a.orders);
                }
            } else if let Some(s) = support::seed(store.clone(), a.orders, &dir).await {
                println!("seeded {} orders in {s:.1} s", a.orders);
            }
            let ctx = support::context(store, a.orders, &dir);
            let token = support::sign_in(&ctx).await;
            Ok(Target::InProcess { ctx, token })
        }
        "gateway" => {
            let base = a.url.clone().ok_or("gateway needs --url")?;
            let client = backoffice::http_client::builder().pool_max_idle_per_host(a.connections).build().map_err(|e| e.to_string())?;
            let login = client
                .post(format!("{base}/partnerapi/login/index"))
                .json(&serde_json::json!({"username": "admin", "password": a.password}))
                .send()
                .await
                .map_err(|e| format!("cannot reach the gateway at {base}: {e}"))?;
            let body: serde_json::Value = login.json().await.map_err(|e| e.to_string())?;
            let token = body["data"]["token"].as_str().ok_or_else(|| format!("sign-in refused: {body}"))?.to_string();
            Ok(Target::Http { client, base, token })
        }
        other => Err(format!("unknown mode {other:?}: inprocess, dynamo or gateway")),
    }
}

/// The request mix: first and next page of four filters.
async fn mix(t: &Target) -> Result<Vec<String>, String> {
    // "Today" of the data: ask the list for its default range's end.
    let (s, v) = t.get("/order/getList?pageSize=1").await;
    if s != 200 {
        return Err(format!("order list answered {s}: {v}"));
    }
    let to = v["data"]["to"].as_str().ok_or("no 'to' in the order list")?.to_string();
    let to_day = backoffice::domain::orders::keys::parse_day(&to).ok_or("bad 'to' day")?;
    let from = iso_day(to_day - 119);
    let (_, st) = t.get("/station/getList?pageNo=1&pageSize=1").await;
    let station = st["data"]["list"][0]["id"].as_str().ok_or("no station")?.to_string();
    let base = format!("/order/getList?from={from}&to={to}&pageSize=20");
    let mut urls = Vec::new();
    for filter in ["".to_string(), format!("&stationId={station}"), "&status=finished".into(), format!("&stationId={station}&status=finished")] {
        let first = format!("{base}{filter}");
        let (s, v) = t.get(&first).await;
        if s != 200 {
            return Err(format!("{first} answered {s}: {v}"));
        }
        let cursor = v["data"]["cursor"].as_str().map(str::to_string);
        urls.push(first.clone());
        if let Some(c) = cursor {
            urls.push(format!("{first}&cursor={c}"));
        }
    }
    let _ = local_day;
    Ok(urls)
}

#[tokio::main]
async fn main() -> ExitCode {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let t = match target(&a).await {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let urls = match mix(&t).await {
        Ok(u) => Arc::new(u),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let run = |seconds: f64| {
        let t = t.clone();
        let urls = urls.clone();
        let connections = a.connections;
        async move {
            let until = Instant::now() + Duration::from_secs_f64(seconds);
            let tasks: Vec<_> = (0..connections)
                .map(|k| {
                    let t = t.clone();
                    let urls = urls.clone();
                    tokio::spawn(async move {
                        let mut lat = Vec::new();
                        let mut errors = 0u64;
                        let mut i = k;
                        while Instant::now() < until {
                            let t0 = Instant::now();
                            let (s, _) = t.get(&urls[i % urls.len()]).await;
                            lat.push(t0.elapsed().as_secs_f64() * 1000.0);
                            if s != 200 {
                                errors += 1;
                            }
                            i += 1;
                        }
                        (lat, errors)
                    })
                })
                .collect();
            let mut all = Vec::new();
            let mut errors = 0;
            for task in tasks {
                let (l, e) = task.await.expect("load task");
                all.extend(l);
                errors += e;
            }
            (all, errors)
        }
    };
    run(a.warmup).await;
    let watched = if a.mode == "gateway" { a.pid } else { None };
    let cpu0 = if a.mode == "gateway" && a.pid.is_none() { None } else { cpu_seconds(watched) };
    let started = Instant::now();
    let (mut lat, errors) = run(a.seconds).await;
    let wall = started.elapsed().as_secs_f64();
    let cpu = cpu0.and_then(|c0| cpu_seconds(watched).map(|c1| c1 - c0));
    lat.sort_by(|x, y| x.partial_cmp(y).unwrap());
    let n = lat.len() as f64;
    let rps = n / wall;
    let cores = support::cores();
    let where_ = match a.mode.as_str() {
        "gateway" => format!("gateway {}", a.url.as_deref().unwrap_or_default()),
        "dynamo" => format!("in-process, DynamoDB adapter on moto, {} orders", a.orders),
        _ => format!("in-process, SQLite {}", a.dir.as_ref().map(|d| d.display().to_string()).unwrap_or_default()),
    };
    println!(
        "order list ({where_}): {} requests in {wall:.1} s by {} connections, {} mix URLs, errors {errors}",
        lat.len(),
        a.connections,
        urls.len()
    );
    println!(
        "  p50 {:.2} ms  p90 {:.2} ms  p99 {:.2} ms  max {:.2} ms",
        support::percentile(&lat, 50.0),
        support::percentile(&lat, 90.0),
        support::percentile(&lat, 99.0),
        lat.last().copied().unwrap_or(f64::NAN)
    );
    match cpu {
        Some(c) if c > 0.0 => println!(
            "  {rps:.0} requests/s; {} CPU {c:.1} s over {wall:.1} s = {:.2} cores busy; {:.0} requests per CPU-second (requests/s per core); machine has {cores} cores",
            if watched.is_some() { "gateway" } else { "this process" },
            c / wall,
            n / c
        ),
        _ => println!("  {rps:.0} requests/s; {:.0} requests/s per core ({cores} cores, load client included)", rps / cores as f64),
    }
    if errors > 0 {
        eprintln!("FAIL: {errors} requests did not answer 200");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
