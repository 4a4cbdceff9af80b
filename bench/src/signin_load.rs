//! Sign-ins beside the daily work: the order list's latency at a steady
//! rate, first alone, then while sign-ins arrive at a steady rate (each an
//! argon2id hash of ~19 MiB and ~50 ms of CPU). The gateway hashes on the
//! blocking pool behind a semaphore of one slot per CPU, so the list's p99
//! should stay within about 2x.
//!
//! Usage: signin-load [--seconds 20] [--list-rate 20] [--signin-rate 20]
//!                    [--gateway target/release/gateway]
//! Prints p50/p99 of the list in both phases, the sign-ins' own latency and
//! the ratio of the two p99s. Loopback only; stops by itself.

mod live_gateway;

use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use live_gateway::{pct_ms, LiveGateway};

const ADMIN_PW: &str = "signin-load-admin-pass-1";

struct Options {
    seconds: u64,
    list_rate: u64,
    signin_rate: u64,
    gateway: String,
}

fn options() -> Result<Options, String> {
    let mut o = Options { seconds: 20, list_rate: 20, signin_rate: 20, gateway: "target/release/gateway".into() };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |v: &str| v.parse::<u64>().map_err(|_| format!("{flag}: '{v}' is not a number"));
        match flag.as_str() {
            "--seconds" => o.seconds = number(&value)?.clamp(5, 600),
            "--list-rate" => o.list_rate = number(&value)?.clamp(1, 500),
            "--signin-rate" => o.signin_rate = number(&value)?.clamp(1, 200),
            "--gateway" => o.gateway = value,
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(o)
}

/// Fires `make()` `rate` times a second for `length`, open loop (a slow
/// answer does not delay the next request); latencies in microseconds,
/// sorted, and the number of failures.
async fn steady<F, Fut>(rate: u64, length: Duration, make: F) -> (Vec<u64>, u64)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Result<(), String>> + Send + 'static,
{
    let latencies = Arc::new(Mutex::new(Vec::new()));
    let failures = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut ticker = tokio::time::interval(Duration::from_micros(1_000_000 / rate));
    let begin = Instant::now();
    let mut tasks = Vec::new();
    while begin.elapsed() < length {
        ticker.tick().await;
        let (latencies, failures, request) = (latencies.clone(), failures.clone(), make());
        tasks.push(tokio::spawn(async move {
            let t = Instant::now();
            let result = request.await;
            latencies.lock().unwrap().push(t.elapsed().as_micros() as u64);
            if let Err(e) = result {
                if failures.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < 3 {
                    eprintln!("error: {e}");
                }
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let mut l = std::mem::take(&mut *latencies.lock().unwrap());
    l.sort_unstable();
    (l, failures.load(std::sync::atomic::Ordering::Relaxed))
}

async fn list_orders(client: reqwest::Client, base: Arc<String>, token: Arc<String>) -> Result<(), String> {
    let resp = client.get(format!("{base}/partnerapi/order/getList?pageSize=20")).bearer_auth(token.as_str()).send().await.map_err(|e| e.to_string())?;
    let body: serde_json::Value = resp.json().await.map_err(|e| e.to_string())?;
    if body["code"] == 200 { Ok(()) } else { Err(format!("order list: {body}")) }
}

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("signin-load: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), String> {
    let o = options()?;
    let (gw, token) = LiveGateway::start(&o.gateway, "signin-load", ADMIN_PW).await?;
    let gw = Arc::new(gw);
    let client = backoffice::http_client::client();
    let (base, token) = (Arc::new(gw.base.clone()), Arc::new(token));
    let length = Duration::from_secs(o.seconds);
    let list = || list_orders(client.clone(), base.clone(), token.clone());
    // Warm the caches (routes, settings, SQLite pages) before measuring.
    let _ = steady(o.list_rate, Duration::from_secs(3), list).await;

    let (alone, alone_failed) = steady(o.list_rate, length, list).await;
    let sign_in = || {
        let (gw, client) = (gw.clone(), client.clone());
        async move { gw.sign_in(&client).await.map(drop) }
    };
    let (busy, signins) = tokio::join!(steady(o.list_rate, length, list), steady(o.signin_rate, length, sign_in));
    let ((busy, busy_failed), (signins, signin_failed)) = (busy, signins);
    println!(
        "order list at {}/s for {} s on {} CPU(s); gateway {}",
        o.list_rate,
        o.seconds,
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        o.gateway
    );
    println!("| phase | list requests | failed | list p50 ms | list p99 ms | sign-ins | failed | sign-in p50 ms | sign-in p99 ms |");
    println!("|---|---|---|---|---|---|---|---|---|");
    println!("| alone | {} | {} | {:.1} | {:.1} | - | - | - | - |", alone.len(), alone_failed, pct_ms(&alone, 0.5), pct_ms(&alone, 0.99));
    println!(
        "| with {} sign-ins/s | {} | {} | {:.1} | {:.1} | {} | {} | {:.1} | {:.1} |",
        o.signin_rate,
        busy.len(),
        busy_failed,
        pct_ms(&busy, 0.5),
        pct_ms(&busy, 0.99),
        signins.len(),
        signin_failed,
        pct_ms(&signins, 0.5),
        pct_ms(&signins, 0.99)
    );
    println!(
        "list p99 with sign-ins / alone: {:.2} (goal <= 2)",
        pct_ms(&busy, 0.99) / pct_ms(&alone, 0.99).max(0.001)
    );
    Ok(())
}
