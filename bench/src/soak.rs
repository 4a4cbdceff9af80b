//! Soak: the release gateway (SQLite, demo data) under a steady mixed load
//! for minutes, printing its resident memory and the API's p99 for each
//! window, so a leak (RSS creeping up) or a slowdown (p99 drifting up)
//! shows. The load: order, station, connector and card lists, order
//! details, card writes, sign-ins, and connected chargers (the product's
//! simulator over the real OCPP link) booting, heart-beating and charging.
//!
//! Usage: soak [--minutes 10] [--rate 40] [--chargers 100] [--window-secs 60]
//!             [--gateway target/release/gateway]
//! `--rate` is API requests a second, spread evenly (a steady load, not a
//! maximum). Everything runs on loopback and stops by itself.

mod live_gateway;

use std::collections::VecDeque;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use live_gateway::{pct_ms, LiveGateway};
use serde_json::{json, Value};

const ADMIN_PW: &str = "soak-admin-pass-1";

struct Options {
    minutes: u64,
    rate: u64,
    chargers: usize,
    window: Duration,
    gateway: String,
}

fn options() -> Result<Options, String> {
    let mut o = Options { minutes: 10, rate: 40, chargers: 100, window: Duration::from_secs(60), gateway: "target/release/gateway".into() };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |v: &str| v.parse::<u64>().map_err(|_| format!("{flag}: '{v}' is not a number"));
        match flag.as_str() {
            "--minutes" => o.minutes = number(&value)?.clamp(1, 60),
            "--rate" => o.rate = number(&value)?.clamp(1, 500),
            "--chargers" => o.chargers = number(&value)?.clamp(0, 2000) as usize,
            "--window-secs" => o.window = Duration::from_secs(number(&value)?.clamp(5, 600)),
            "--gateway" => o.gateway = value,
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(o)
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| l.split_whitespace().nth(1)?.parse().ok()))
        .unwrap_or(0)
}

#[derive(Default)]
struct Window {
    latencies_us: Mutex<Vec<u64>>,
    errors: AtomicU64,
}

impl Window {
    fn take(&self) -> (Vec<u64>, u64) {
        let mut l = std::mem::take(&mut *self.latencies_us.lock().unwrap());
        l.sort_unstable();
        (l, self.errors.swap(0, Ordering::Relaxed))
    }
}

struct Api {
    client: reqwest::Client,
    gateway: Arc<LiveGateway>,
    token: String,
}

impl Api {
    async fn call(&self, method: &str, path: &str, body: Option<Value>, token: Option<&str>) -> Result<Value, String> {
        let url = format!("{}/partnerapi{path}", self.gateway.base);
        let req = if method == "GET" { self.client.get(url) } else { self.client.post(url).json(&body.unwrap_or(Value::Null)) };
        let resp = req.bearer_auth(token.unwrap_or(&self.token)).send().await.map_err(|e| e.to_string())?;
        let value: Value = resp.json().await.map_err(|e| e.to_string())?;
        if value["code"] != 200 {
            return Err(format!("{path}: {value}"));
        }
        Ok(value)
    }
}

/// Piles for the simulated chargers, each with its own password.
async fn make_chargers(api: &Api, n: usize) -> Result<Vec<gateway::simulate::ChargerSpec>, String> {
    let stations = api.call("GET", "/station/getList?pageNo=1&pageSize=50&status=operating", None, None).await?;
    let station = stations["data"]["list"].as_array().and_then(|l| l.iter().find(|s| s["tariffId"].is_string()).cloned()).ok_or("no operating station with a tariff")?;
    let mut out = Vec::new();
    for i in 0..n {
        let code = format!("SOAK{i:05}");
        let body = json!({"stationId": station["id"], "code": code, "pileType": "dc", "ratedPowerKw": 60, "heartbeatIntervalSecs": 60,
            "connectors": [{"standard": "gbt2015", "maxPowerKw": 60}, {"standard": "gbt2015", "maxPowerKw": 60}]});
        let added = api.call("POST", "/pile/doAdd", Some(body), None).await?;
        let pw = api.call("POST", "/pile/setPassword", Some(json!({"id": added["data"]["id"]})), None).await?;
        out.push(gateway::simulate::ChargerSpec { id: code, password: pw["data"]["password"].as_str().unwrap_or_default().to_string(), connectors: 2, version: ocpp::Version::V16 });
    }
    Ok(out)
}

/// One request of the mix, chosen by the tick number.
async fn one_request(api: &Api, tick: u64, orders: &[String]) -> Result<(), String> {
    match tick % 10 {
        0..=2 => api.call("GET", "/order/getList?pageSize=20", None, None).await.map(drop),
        3 => api.call("GET", "/station/getList?pageNo=1&pageSize=20", None, None).await.map(drop),
        4 => api.call("GET", "/connector/getList?pageNo=1&pageSize=20", None, None).await.map(drop),
        5 | 6 => {
            let id = &orders[(tick as usize / 10) % orders.len().max(1)];
            api.call("GET", &format!("/order/detail?id={id}"), None, None).await.map(drop)
        }
        7 => api.call("GET", "/card/getList?pageNo=1&pageSize=20", None, None).await.map(drop),
        8 => api
            .call("POST", "/card/doAdd", Some(json!({"idTag": format!("SK{tick:08}"), "holder": "soak", "status": "Accepted"})), None)
            .await
            .map(drop),
        _ => api.gateway.sign_in(&api.client).await.map(drop),
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("soak: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), String> {
    let o = options()?;
    let (gw, token) = LiveGateway::start(&o.gateway, "soak", ADMIN_PW).await?;
    let (pid, port) = (gw.pid(), gw.port);
    let api = Arc::new(Api { client: backoffice::http_client::client(), gateway: Arc::new(gw), token });
    let chargers = make_chargers(&api, o.chargers).await?;
    let first = api.call("GET", "/order/getList?pageSize=50", None, None).await?;
    let orders: Arc<Vec<String>> = Arc::new(first["data"]["list"].as_array().map(|l| l.iter().filter_map(|r| r["orderNo"].as_str().map(String::from)).collect()).unwrap_or_default());
    if orders.is_empty() {
        return Err("no orders to read".into());
    }
    let total = Duration::from_secs(o.minutes * 60);
    let sim_stats = Arc::new(gateway::simulate::Stats::default());
    if !chargers.is_empty() {
        let cfg = gateway::simulate::SimConfig {
            url: format!("ws://127.0.0.1:{port}/ocpp"),
            chargers,
            heartbeat_secs: Some(30),
            meter_secs: 10,
            session_share: 0.4,
            session_minutes: (2, 6),
            duration: Some(total),
            ramp_per_sec: 50,
            ..Default::default()
        };
        tokio::spawn(gateway::simulate::run(cfg, sim_stats.clone()));
    }
    println!(
        "soak: {} min, {} API requests/s (lists, details, card writes, sign-ins), {} chargers over OCPP; gateway pid {pid}, RSS at start {:.1} MB",
        o.minutes,
        o.rate,
        o.chargers,
        rss_kib(pid) as f64 / 1024.0
    );
    println!("| minute | requests | errors | p50 ms | p99 ms | gateway RSS MB | chargers connected | OCPP calls answered |");
    println!("|---|---|---|---|---|---|---|---|");
    let window = Arc::new(Window::default());
    let begin = Instant::now();
    let mut ticker = tokio::time::interval(Duration::from_micros(1_000_000 / o.rate));
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut next_report = begin + o.window;
    let mut rows: VecDeque<(f64, u64, f64)> = VecDeque::new();
    let (mut total_requests, mut total_errors) = (0u64, 0u64);
    let mut tick = 0u64;
    // At most this many requests in flight: a stall shows as latency, not a pile-up.
    let in_flight = Arc::new(tokio::sync::Semaphore::new(16));
    while begin.elapsed() < total {
        ticker.tick().await;
        tick += 1;
        let (api, orders, sink, permit) = (api.clone(), orders.clone(), window.clone(), in_flight.clone().acquire_owned().await.unwrap());
        tokio::spawn(async move {
            let window = sink;
            let t = Instant::now();
            let result = one_request(&api, tick, &orders).await;
            window.latencies_us.lock().unwrap().push(t.elapsed().as_micros() as u64);
            if let Err(e) = result {
                if window.errors.fetch_add(1, Ordering::Relaxed) < 3 {
                    eprintln!("error: {e}");
                }
            }
            drop(permit);
        });
        if Instant::now() >= next_report {
            next_report += o.window;
            let (lat, errors) = window.take();
            let rss = rss_kib(pid) as f64 / 1024.0;
            let p99 = pct_ms(&lat, 0.99);
            total_requests += lat.len() as u64;
            total_errors += errors;
            println!(
                "| {:.1} | {} | {} | {:.1} | {:.1} | {:.1} | {} | {} |",
                begin.elapsed().as_secs_f64() / 60.0,
                lat.len(),
                errors,
                pct_ms(&lat, 0.5),
                p99,
                rss,
                sim_stats.connected.load(Ordering::Relaxed),
                sim_stats.answered.load(Ordering::Relaxed)
            );
            rows.push_back((rss, errors, p99));
        }
    }
    let _ = in_flight.acquire_many(16).await;
    let (lat, errors) = window.take();
    total_requests += lat.len() as u64;
    total_errors += errors;
    // Verdict: RSS after the first window (warm-up) against the last; p99
    // of the first half of the windows against the second half.
    let rss: Vec<f64> = rows.iter().skip(1).map(|r| r.0).collect();
    let p99s: Vec<f64> = rows.iter().skip(1).map(|r| r.2).collect();
    if rss.len() >= 2 {
        let (lo, hi) = rss.iter().fold((f64::MAX, 0f64), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
        let half = p99s.len() / 2;
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
        println!(
            "after warm-up: RSS {:.1}-{:.1} MB (spread {:.1}% of the lowest; goal <= 10%), p99 mean first half {:.1} ms, second half {:.1} ms (ratio {:.2}; goal <= ~1)",
            lo,
            hi,
            (hi - lo) / lo * 100.0,
            mean(&p99s[..half]),
            mean(&p99s[half..]),
            mean(&p99s[half..]) / mean(&p99s[..half]).max(0.001)
        );
    }
    println!(
        "total: {total_requests} API requests, {total_errors} errors; OCPP: {} calls answered, {} errors",
        sim_stats.answered.load(Ordering::Relaxed),
        sim_stats.errors.load(Ordering::Relaxed)
    );
    Ok(())
}
