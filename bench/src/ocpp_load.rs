//! The charger link under load: N chargers over real WebSockets on loopback
//! against the local gateway binary on SQLite. After a warm-up (the fleet
//! connects, boots, reports and starts its sessions) it measures
//! `--seconds` of that steady state: the messages the gateway answered per
//! CPU-second it used, the p50/p99/max of a charger's CALL -> CALLRESULT,
//! and the gateway's resident memory per connection (peak RSS with the
//! chargers connected minus before, divided by N).
//!
//! Which client each version uses:
//! - `--version 1.6`: the bench's own charger (`raw_charger.rs`), raw
//!   OCPP-J frames written by hand, independent of the product's simulator
//!   and protocol layer: boot, StatusNotification of connectors 0-2, a 60 s
//!   heartbeat, half the chargers (even ids) in 2-minute sessions on
//!   connector 1 (Authorize, StartTransaction, MeterValues every 10 s,
//!   StopTransaction, a 10 s pause, again), every server CALL answered. The
//!   accepted cards it presents are read from the prepared store. Its
//!   connects are spread over `--ramp-secs` (default N/250 s, at least 1 s).
//!   The answers are checked: CALLERRORs and answers that do not say
//!   Accepted are counted and the first of them printed.
//! - `--version 2.0.1`: the product's simulator (`gateway::simulate`), at a
//!   60 s heartbeat and TransactionEvent Updated every 10 s, about half the
//!   connectors charging.
//! - A YKC fleet (`--version ykc1.6` or `ykc1.5`): the product's simulator's
//!   YKC piles, to the gateway's YKC port over TCP: heartbeats at the
//!   specification's 10 s per gun, real-time data every 15 s while charging
//!   (5 minutes idle), card sessions (0x31) and their transaction records.
//!   Its figures: the frames the piles sent per gateway CPU-second
//!   (heartbeats, real-time data and the rest), the p50/p99 of a frame that
//!   has an answer (in the steady state nearly all heartbeats) from the
//!   pile's write to the answer's arrival, and memory per connection as above.
//!
//! Usage: ocpp-load [--chargers 1000,5000] [--seconds 120] [--version 1.6|2.0.1|ykc1.5|ykc1.6|1.6,2.0.1,ykc1.6]
//! [--ramp-secs S (1.6)] [--gateway target/release/gateway] [--dir DIR]

mod raw_charger;

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use backoffice::config::Config;
use backoffice::domain::assets::piles::{self, Pile, RegistrationStatus};
use backoffice::AppCtx;
use charging::connector::{ConnectorStandard, ConnectorStatus, PileType};
use charging::pile::OcppVersion;
use gateway::simulate::{run as simulate, ChargerSpec, SimConfig, Stats, YkcSpec, YkcVersion};
use gateway::simulate_cli::Protocol;

const PASSWORD: &str = "bench-charger-password-1";

/// Seconds after the last charger connected before measuring: its boot,
/// status reports and first session starts are done.
const WARM_UP_SECS: u64 = 15;

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned()
}

/// CPU seconds (user + system) and resident KB of a process, from /proc.
fn usage(pid: u32) -> (f64, u64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, s)| s).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 (1-based); after ")" they are 12 and 13 (1-based), 11 and 12 here.
    let cpu = (ticks(11) + ticks(12)) / 100.0;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let rss = status.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| l.split_whitespace().nth(1)).and_then(|v| v.parse().ok()).unwrap_or(0);
    (cpu, rss)
}

fn env(dir: &Path) -> Vec<(String, String)> {
    vec![
        ("BACKOFFICE_DATA_DIR".into(), dir.display().to_string()),
        ("BACKOFFICE_SEED_PASSWORD_ADMIN".into(), "bench-admin-pass".into()),
        ("BACKOFFICE_SEED_PASSWORD_EDITOR".into(), "bench-editor-pass".into()),
        ("BACKOFFICE_SEED_PASSWORD_TEST".into(), "bench-test-pass".into()),
        ("BACKOFFICE_DEMO_ORDERS".into(), "200".into()),
        ("BACKOFFICE_LOG".into(), "warn".into()),
    ]
}

/// The code of the bench's pile `i`: an OCPP charge point id, or a YKC
/// pile's 14-digit number.
fn code(protocol: Protocol, i: usize) -> String {
    match protocol {
        Protocol::Ocpp(_) => format!("LOAD{i:05}"),
        Protocol::Ykc(_) => format!("990000{i:08}"),
    }
}

/// A fresh store with N extra piles (one station) registered for `protocol`,
/// each with the bench password (OCPP; a YKC pile has none, and the
/// specification's 10 s heartbeat). Returns the cards the back-office
/// accepts (for the 1.6 client's sessions).
async fn prepare(dir: &Path, n: usize, protocol: Protocol) -> Vec<String> {
    let vars: std::collections::HashMap<String, String> = env(dir).into_iter().collect();
    let config = Config::from_lookup(|k| vars.get(k).cloned()).expect("bench configuration");
    let mut config = config;
    config.load_or_create_dev_secret().expect("dev secret");
    let store = Arc::new(store::sqlite::SqliteTable::open(&dir.join("backoffice.sqlite3")).expect("sqlite"));
    let ctx = AppCtx::new(store, config).expect("context");
    backoffice::seed::ensure_seeded(&ctx, |k| vars.get(k).cloned()).await.expect("seeded");
    let station = backoffice::domain::assets::stations::list(&ctx, Default::default(), 1, 1).await.expect("stations").0.remove(0);
    let now = ctx.now();
    // One hash for every pile: they share the bench's password.
    let phc = backoffice::domain::chargers::secret::hash(PASSWORD).await.expect("hash");
    for i in 1..=n {
        let id = format!("pl-load{i:05}");
        let pile = Pile {
            id: id.clone(),
            code: code(protocol, i),
            station_id: station.id.clone(),
            vendor: "Bench".into(),
            model: "AC2".into(),
            firmware_version: String::new(),
            pile_type: PileType::Ac,
            rated_power_kw: 14,
            connector_count: 2,
            heartbeat_interval_secs: if matches!(protocol, Protocol::Ykc(_)) { 10 } else { 60 },
            last_heartbeat: None,
            registration_status: RegistrationStatus::Accepted,
            security_profile: 1,
            ocpp_version: match protocol {
                Protocol::Ocpp(ocpp::Version::V16) => OcppVersion::V16,
                Protocol::Ocpp(ocpp::Version::V201) => OcppVersion::V201,
                Protocol::Ykc(YkcVersion::V1_5) => OcppVersion::Ykc15,
                Protocol::Ykc(YkcVersion::V1_6) => OcppVersion::Ykc16,
            },
            password_set_at: None,
            created_at: now,
            updated_at: now,
            updated_by: "bench".into(),
            version: 1,
        };
        let connectors: Vec<piles::Connector> = (1..=2)
            .map(|n| piles::Connector {
                id: piles::connector_id(&id, n),
                pile_id: id.clone(),
                pile_code: pile.code.clone(),
                station_id: station.id.clone(),
                number: n,
                pile_type: PileType::Ac,
                standard: ConnectorStandard::Type2,
                max_power_kw: 7,
                qr_code: String::new(),
                status: ConnectorStatus::Available,
                fault_code: None,
                status_since: now,
                reported_at: None,
                updated_at: now,
                version: 1,
            })
            .collect();
        piles::insert(&ctx, &pile, &connectors, "bench").await.expect("pile");
        if matches!(protocol, Protocol::Ocpp(_)) {
            backoffice::domain::chargers::secret::store_hash(&ctx, &id, &phc, "bench").await.expect("password");
        }
    }
    accepted_cards(&ctx).await
}

/// The cards of the store (the seed's demo cards: the simulator's
/// `DEMO0001`-`DEMO0020` among them) that a session can start with:
/// Accepted, not expired, postpaid (a prepaid card is Blocked once its
/// running sessions hold its balance), of no 2.0.1 token type.
async fn accepted_cards(ctx: &AppCtx) -> Vec<String> {
    use backoffice::domain::cards::{self, CardPayment, CardStatus};
    let now = ctx.now();
    let mut tags = Vec::new();
    for page in 1u32.. {
        let (list, total) = cards::list(ctx, None, Some(CardStatus::Accepted), page, 100).await.expect("cards");
        let done = list.is_empty() || u64::from(page) * 100 >= total;
        tags.extend(
            list.into_iter()
                .filter(|v| v.card.status == CardStatus::Accepted && v.wallet.payment == CardPayment::Postpaid && v.card.expires_at.is_none_or(|e| e > now) && v.card.token_type.is_none())
                .map(|v| v.card.id_tag),
        );
        if done {
            break;
        }
    }
    tags
}

/// What a run's chargers are: the bench's own 1.6 client, or the product's simulator.
enum Fleet {
    Raw(Arc<raw_charger::Stats>),
    Sim(Arc<Stats>),
}

impl Fleet {
    /// Chargers ready (the raw client: booted and reported; the simulator: connected).
    fn ready(&self) -> u64 {
        match self {
            Fleet::Raw(s) => s.booted.load(Ordering::Relaxed),
            Fleet::Sim(s) => s.connected.load(Ordering::Relaxed),
        }
    }

    /// What the gateway took: OCPP messages answered; YKC frames sent (many have no answer).
    fn messages(&self, ykc: bool) -> u64 {
        match self {
            Fleet::Raw(s) => s.answered.load(Ordering::Relaxed),
            Fleet::Sim(s) if ykc => s.frames.load(Ordering::Relaxed),
            Fleet::Sim(s) => s.answered.load(Ordering::Relaxed),
        }
    }

    fn clear_latencies(&self) {
        match self {
            Fleet::Raw(s) => s.clear_latencies(),
            Fleet::Sim(s) => s.clear_latencies(),
        }
    }

    fn percentiles(&self) -> (f64, f64, f64, usize) {
        match self {
            Fleet::Raw(s) => s.percentiles(),
            Fleet::Sim(s) => s.percentiles(),
        }
    }

    fn line(&self) -> String {
        match self {
            Fleet::Raw(s) => s.line(),
            Fleet::Sim(s) => s.line(),
        }
    }
}

/// What a version's fleet does, for the header.
fn mix(version: Protocol) -> String {
    match version {
        Protocol::Ocpp(ocpp::Version::V16) => format!("1.6 (the bench's raw OCPP-J client): {}", raw_charger::MIX),
        Protocol::Ocpp(ocpp::Version::V201) => "2.0.1 (the product's simulator): 60 s heartbeat, TransactionEvent Updated every 10 s, about half the connectors charging (30-60 min sessions)".into(),
        Protocol::Ykc(_) => format!("{} (the product's simulator): 10 s heartbeat per gun, real-time data every 15 s while charging, about half the guns charging", version.label()),
    }
}

fn start_gateway(bin: &Path, dir: &Path, port: u16, ykc_port: u16) -> Child {
    let mut cmd = Command::new(bin);
    cmd.envs(env(dir)).env("BACKOFFICE_PORT", port.to_string()).env("BACKOFFICE_HOST", "127.0.0.1").env("BACKOFFICE_YKC_PORT", ykc_port.to_string());
    cmd.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
    cmd.spawn().expect("gateway starts")
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

async fn wait_ready(port: u16) {
    let url = format!("http://127.0.0.1:{port}/partnerapi/publicKey");
    for _ in 0..300 {
        if backoffice::http_client::client().get(&url).send().await.is_ok_and(|r| r.status().is_success()) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("gateway not ready");
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let sizes: Vec<usize> = arg("--chargers").unwrap_or_else(|| "1000,5000".into()).split(',').map(|s| s.trim().parse().expect("a number")).collect();
    let seconds: u64 = arg("--seconds").map(|s| s.parse().expect("seconds")).unwrap_or(120);
    let bin = PathBuf::from(arg("--gateway").unwrap_or_else(|| "target/release/gateway".into()));
    let base = PathBuf::from(arg("--dir").unwrap_or_else(|| "target/bench-ocpp-load".into()));
    let versions: Vec<Protocol> =
        arg("--version").unwrap_or_else(|| "1.6".into()).split(',').map(|v| gateway::simulate_cli::protocol(v).unwrap_or_else(|e| panic!("{e}"))).collect();
    let ramp_secs: Option<f64> = arg("--ramp-secs").map(|s| s.parse().expect("seconds"));
    println!("charger link under load: {seconds} s per size after a warm-up ({WARM_UP_SECS} s after the whole fleet is up), gateway {}", bin.display());
    for v in &versions {
        println!("  {}", mix(*v));
    }
    println!("(OCPP: messages answered; YKC: frames the piles sent, and the latency of those that have an answer)");
    println!("{:>7} {:>9} {:>10} {:>12} {:>10} {:>10} {:>10} {:>12}", "link", "chargers", "messages", "per CPU-s", "p50 ms", "p99 ms", "max ms", "KB per conn");
    for (version, n) in versions.iter().flat_map(|v| sizes.iter().map(move |n| (*v, *n))) {
        let dir = base.join(format!("v{}-n{n}", version.label()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let id_tags = prepare(&dir, n, version).await;
        let port = free_port();
        let ykc_port = free_port();
        let mut child = start_gateway(&bin, &dir, port, ykc_port);
        wait_ready(port).await;
        let pid = child.id();
        let rss0 = usage(pid).1;
        // Warm-up (not measured): the fleet connects, boots, reports its
        // connectors and starts the sessions of the steady state (about half
        // the connectors charging); then `seconds` of that steady state.
        let ykc = matches!(version, Protocol::Ykc(_));
        let (fleet, task) = match version {
            Protocol::Ocpp(ocpp::Version::V16) => {
                assert!(!id_tags.is_empty(), "the store has no accepted card for the sessions");
                let ramp = Duration::from_secs_f64(ramp_secs.unwrap_or(n as f64 / 250.0).max(1.0));
                let cfg = raw_charger::Config { url: format!("ws://127.0.0.1:{port}/ocpp"), ids: (1..=n).map(|i| code(version, i)).collect(), password: PASSWORD.into(), id_tags, ramp, seed: 7 };
                let stats = Arc::new(raw_charger::Stats::default());
                (Fleet::Raw(stats.clone()), tokio::spawn(raw_charger::run(cfg, stats)))
            }
            _ => {
                let (chargers, ykc_piles) = match version {
                    Protocol::Ocpp(v) => ((1..=n).map(|i| ChargerSpec { id: code(version, i), password: PASSWORD.into(), connectors: 2, version: v }).collect(), Vec::new()),
                    Protocol::Ykc(v) => (Vec::new(), (1..=n).map(|i| YkcSpec { pile_no: code(version, i), guns: 2, version: v }).collect()),
                };
                let cfg = SimConfig {
                    url: format!("ws://127.0.0.1:{port}/ocpp"),
                    chargers,
                    ykc_address: format!("127.0.0.1:{ykc_port}"),
                    ykc_piles,
                    heartbeat_secs: Some(60),
                    meter_secs: 10,
                    session_share: 0.5,
                    session_minutes: (30, 60),
                    power_kw: (3.0, 7.0),
                    seed: 7,
                    duration: None,
                    ramp_per_sec: 500,
                    steady_start: true,
                    ..Default::default()
                };
                let stats = Arc::new(Stats::default());
                (Fleet::Sim(stats.clone()), tokio::spawn(simulate(cfg, stats)))
            }
        };
        let warm_up = Instant::now();
        while (fleet.ready() as usize) < n && warm_up.elapsed() < Duration::from_secs(600) {
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        let ready = fleet.ready() as usize;
        if ready < n {
            println!("          (only {ready} of {n} chargers {} within 600 s)", if matches!(fleet, Fleet::Raw(_)) { "booted" } else { "connected" });
        }
        tokio::time::sleep(Duration::from_secs(WARM_UP_SECS)).await;
        let warm_up = warm_up.elapsed();
        let (cpu0, rss_warm) = usage(pid);
        let answered0 = fleet.messages(ykc);
        let by0 = match &fleet {
            Fleet::Raw(s) => s.answered_by(),
            Fleet::Sim(_) => [0; 7],
        };
        fleet.clear_latencies();
        let end = Instant::now() + Duration::from_secs(seconds);
        let mut peak = 0u64;
        while Instant::now() < end {
            tokio::time::sleep(Duration::from_secs(2).min(end.saturating_duration_since(Instant::now()))).await;
            peak = peak.max(usage(pid).1);
        }
        let (cpu1, rss1) = usage(pid);
        let answered = fleet.messages(ykc) - answered0;
        let (p50, p99, max, _) = fleet.percentiles();
        let by1 = match &fleet {
            Fleet::Raw(s) => s.answered_by(),
            Fleet::Sim(_) => [0; 7],
        };
        // Dropping the fleet's run stops its chargers.
        task.abort();
        let _ = task.await;
        let kb_per = (peak.max(rss1) as f64 - rss0 as f64) / n as f64;
        println!("{:>7} {:>9} {:>10} {:>12.0} {:>10.2} {:>10.2} {:>10.2} {:>12.1}", version.label(), n, answered, answered as f64 / (cpu1 - cpu0).max(0.01), p50, p99, max, kb_per);
        println!(
            "                  (warm-up {:.0} s; RSS KB: before {rss0}, after the warm-up {rss_warm}, peak {}; CPU {:.1} s in {seconds} s; whole run, warm-up included: {}{})",
            warm_up.as_secs_f64(),
            peak.max(rss1),
            cpu1 - cpu0,
            fleet.line(),
            match &fleet {
                Fleet::Sim(s) if ykc => format!(", YKC frames sent {}", s.frames.load(Ordering::Relaxed)),
                _ => String::new(),
            }
        );
        if let Fleet::Raw(s) = &fleet {
            let window: Vec<String> = raw_charger::ACTIONS.iter().zip(by1.iter().zip(by0.iter())).map(|(a, (x, y))| format!("{a} {}", x - y)).collect();
            println!("                  (answered in the {seconds} s measured: {})", window.join(", "));
            for sample in s.samples() {
                println!("                  unexpected: {sample}");
            }
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}
