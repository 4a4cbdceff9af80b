//! `gateway simulate`: the charge-point simulator from the command line
//! (load benches, trying a deployment). See `simulate` for what a charger
//! does; `--version 2.0.1` runs OCPP 2.0.1 stations instead of 1.6 chargers,
//! `--version ykc1.6` (or `ykc1.5`) YKC piles over TCP (`--url HOST:PORT`,
//! the gateway's `BACKOFFICE_YKC_PORT`; their ids are 14-digit pile numbers,
//! `--prefix` digits padded to 14; no password).

use std::sync::Arc;
use std::time::Duration;

use crate::simulate::{run as simulate, ChargerSpec, SimConfig, Stats, YkcSpec};

const USAGE: &str = "usage: gateway simulate [--url ws://127.0.0.1:9999/ocpp | 127.0.0.1:9998 for YKC] (--ids ID,ID | --prefix SIM --count N) \
(--password P | --passwords-file FILE with 'id password' lines; not for YKC) [--version 1.6|2.0.1|ykc1.5|ykc1.6] [--connectors 2] [--heartbeat SECS] [--meter-interval 10] \
[--session-share 0.3] [--session-minutes 20..60] [--power-kw 7..60] [--id-tags DEMO0001,...] [--seed 1] [--duration SECS] \
[--ramp-per-sec 200] [--stats-every SECS] [--stats-json FILE]";

fn range<T: std::str::FromStr>(v: &str, flag: &str) -> Result<(T, T), String> {
    let (a, b) = v.split_once("..").ok_or_else(|| format!("{flag} takes A..B, not '{v}'"))?;
    Ok((a.parse().map_err(|_| format!("{flag}: '{a}' is not a number"))?, b.parse().map_err(|_| format!("{flag}: '{b}' is not a number"))?))
}

fn number<T: std::str::FromStr>(v: &str, flag: &str) -> Result<T, String> {
    v.parse().map_err(|_| format!("{flag}: '{v}' is not a number"))
}

/// `1.6` or `2.0.1` (the pile dialog's names).
pub fn version(v: &str) -> Result<ocpp::Version, String> {
    [ocpp::Version::V16, ocpp::Version::V201].into_iter().find(|x| x.label() == v.trim()).ok_or_else(|| format!("--version takes 1.6 or 2.0.1, not '{v}'"))
}

/// The protocol a simulated pile speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Ocpp(ocpp::Version),
    Ykc(ykc::Version),
}

impl Protocol {
    /// The pile dialog's name (`1.6`, `2.0.1`, `ykc1.5`, `ykc1.6`).
    pub fn label(self) -> &'static str {
        match self {
            Protocol::Ocpp(v) => v.label(),
            Protocol::Ykc(ykc::Version::V1_5) => "ykc1.5",
            Protocol::Ykc(ykc::Version::V1_6) => "ykc1.6",
        }
    }
}

/// `1.6`, `2.0.1`, `ykc1.5` or `ykc1.6` (the pile dialog's names).
pub fn protocol(v: &str) -> Result<Protocol, String> {
    match v.trim() {
        "ykc1.5" => Ok(Protocol::Ykc(ykc::Version::V1_5)),
        "ykc1.6" => Ok(Protocol::Ykc(ykc::Version::V1_6)),
        other => version(other).map(Protocol::Ocpp).map_err(|_| format!("--version takes 1.6, 2.0.1, ykc1.5 or ykc1.6, not '{v}'")),
    }
}

pub async fn run(args: Vec<String>) -> Result<(), String> {
    let mut cfg = SimConfig::default();
    let (mut ids, mut prefix, mut count, mut password, mut passwords_file, mut connectors) = (Vec::<String>::new(), None, 0usize, None, None, 2u32);
    let (mut stats_every, mut stats_json) = (None::<u64>, None::<String>);
    let mut protocol_in = Protocol::Ocpp(ocpp::Version::V16);
    let mut url = None::<String>;
    let mut it = args.into_iter();
    while let Some(flag) = it.next() {
        if flag == "-h" || flag == "--help" {
            println!("{USAGE}");
            return Ok(());
        }
        let v = it.next().ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
        match flag.as_str() {
            "--url" => url = Some(v),
            "--ids" => ids = v.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect(),
            "--prefix" => prefix = Some(v),
            "--count" => count = number(&v, &flag)?,
            "--password" => password = Some(v),
            "--passwords-file" => passwords_file = Some(v),
            "--version" => protocol_in = protocol(&v)?,
            "--connectors" => connectors = number(&v, &flag)?,
            "--heartbeat" => cfg.heartbeat_secs = Some(number(&v, &flag)?),
            "--meter-interval" => cfg.meter_secs = number(&v, &flag)?,
            "--session-share" => cfg.session_share = number(&v, &flag)?,
            "--session-minutes" => cfg.session_minutes = range(&v, &flag)?,
            "--power-kw" => cfg.power_kw = range(&v, &flag)?,
            "--id-tags" => {
                cfg.id_tags = v.split(',').map(String::from).collect();
                cfg.ykc_cards = cfg.id_tags.clone();
            }
            "--seed" => cfg.seed = number(&v, &flag)?,
            "--duration" => cfg.duration = Some(Duration::from_secs(number(&v, &flag)?)),
            "--ramp-per-sec" => cfg.ramp_per_sec = number(&v, &flag)?,
            "--stats-every" => stats_every = Some(number(&v, &flag)?),
            "--stats-json" => stats_json = Some(v),
            other => return Err(format!("unknown option {other}\n{USAGE}")),
        }
    }
    if let Some(p) = prefix {
        match protocol_in {
            Protocol::Ocpp(_) => ids.extend((1..=count).map(|i| format!("{p}{i:04}"))),
            Protocol::Ykc(_) => {
                let width = 14usize.saturating_sub(p.len());
                ids.extend((1..=count).map(|i| format!("{p}{i:0width$}")));
            }
        }
    }
    if ids.is_empty() {
        return Err(format!("no chargers: give --ids or --prefix and --count\n{USAGE}"));
    }
    if let Protocol::Ykc(ykc_version) = protocol_in {
        if let Some(bad) = ids.iter().find(|id| !(id.len() == 14 && id.bytes().all(|b| b.is_ascii_digit()))) {
            return Err(format!("a YKC pile's id is its 14-digit pile number, not '{bad}'"));
        }
        cfg.ykc_address = url.map(|u| u.trim_start_matches("tcp://").trim_end_matches('/').to_string()).unwrap_or(cfg.ykc_address);
        cfg.ykc_piles = ids.iter().map(|id| YkcSpec { pile_no: id.clone(), guns: connectors, version: ykc_version }).collect();
        if let Some(secs) = cfg.heartbeat_secs {
            cfg.ykc_timing.heartbeat_secs = secs;
        }
        let stats = Arc::new(Stats::default());
        report_every(&stats, stats_every);
        println!("simulating {} YKC {} piles against {}", cfg.ykc_piles.len(), protocol_in.label(), cfg.ykc_address);
        simulate(cfg, stats.clone()).await;
        println!("done: {}", stats.line());
        return write_stats(&stats, stats_json.as_deref());
    }
    let ocpp_version = match protocol_in {
        Protocol::Ocpp(v) => v,
        Protocol::Ykc(_) => unreachable!("YKC piles run above"),
    };
    if let Some(u) = url {
        cfg.url = u;
    }
    let file: Vec<(String, String)> = match &passwords_file {
        Some(f) => std::fs::read_to_string(f)
            .map_err(|e| format!("cannot read {f}: {e}"))?
            .lines()
            .filter_map(|l| l.split_once(' ').map(|(a, b)| (a.trim().to_string(), b.trim().to_string())))
            .collect(),
        None => Vec::new(),
    };
    for id in &ids {
        let pw = file.iter().find(|(i, _)| i == id).map(|(_, p)| p.clone()).or_else(|| password.clone()).ok_or_else(|| format!("no password for {id}: give --password or --passwords-file"))?;
        cfg.chargers.push(ChargerSpec { id: id.clone(), password: pw, connectors, version: ocpp_version });
    }
    let stats = Arc::new(Stats::default());
    report_every(&stats, stats_every);
    println!("simulating {} OCPP {} chargers against {}", cfg.chargers.len(), ocpp_version.label(), cfg.url);
    simulate(cfg, stats.clone()).await;
    println!("done: {}", stats.line());
    write_stats(&stats, stats_json.as_deref())
}

fn report_every(stats: &Arc<Stats>, every: Option<u64>) {
    if let Some(every) = every {
        let s = stats.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(every)).await;
                println!("{}", s.line());
            }
        });
    }
}

fn write_stats(stats: &Stats, path: Option<&str>) -> Result<(), String> {
    if let Some(path) = path {
        let (p50, p99, max, n) = stats.percentiles();
        let v = serde_json::json!({
            "calls": stats.calls.load(std::sync::atomic::Ordering::Relaxed),
            "answered": stats.answered.load(std::sync::atomic::Ordering::Relaxed),
            "errors": stats.errors.load(std::sync::atomic::Ordering::Relaxed),
            "serverCalls": stats.server_calls.load(std::sync::atomic::Ordering::Relaxed),
            "refusedServerCalls": stats.refused_server_calls.load(std::sync::atomic::Ordering::Relaxed),
            "frames": stats.frames.load(std::sync::atomic::Ordering::Relaxed),
            "latencyMs": {"p50": p50, "p99": p99, "max": max, "samples": n},
        });
        std::fs::write(path, v.to_string()).map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    Ok(())
}
