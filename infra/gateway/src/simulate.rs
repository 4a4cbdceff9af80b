//! The charge-point simulator: chargers speaking OCPP 1.6J to the charger
//! link over real WebSockets, as a real charger would. The demo runs it
//! against the local gateway for the demo piles (so the demo's new orders
//! arrive through the real link), and the load bench runs thousands of
//! them. Each charger: connect with its password, boot, report status,
//! heartbeat at the interval it is given, run charging sessions on its
//! connectors (authorize, start, meter values, stop) on a schedule drawn
//! from the seed, answer the server's calls (remote start/stop, reset,
//! unlock, availability, configuration, triggers), and reconnect when the
//! socket drops.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use futures::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// One simulated charger: its charge point id, password and connectors.
#[derive(Debug, Clone)]
pub struct ChargerSpec {
    pub id: String,
    pub password: String,
    pub connectors: u32,
}

/// What to simulate.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// The link's base URL; the charge point id is appended (`ws://HOST:PORT/ocpp`).
    pub url: String,
    pub chargers: Vec<ChargerSpec>,
    /// Heartbeat interval; None = what the BootNotification answer says.
    pub heartbeat_secs: Option<u64>,
    pub meter_secs: u64,
    /// Share of time a connector is charging (0-1).
    pub session_share: f64,
    pub session_minutes: (u64, u64),
    pub power_kw: (f64, f64),
    pub id_tags: Vec<String>,
    pub seed: u64,
    /// Stop after this long (None = run until the process ends).
    pub duration: Option<Duration>,
    /// New connections a second at most (a fleet ramps up).
    pub ramp_per_sec: u32,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            url: "ws://127.0.0.1:9999/ocpp".into(),
            chargers: Vec::new(),
            heartbeat_secs: None,
            meter_secs: 10,
            session_share: 0.3,
            session_minutes: (20, 60),
            power_kw: (7.0, 60.0),
            id_tags: (1..=20).map(|i| format!("DEMO{i:04}")).collect(),
            seed: 1,
            duration: None,
            ramp_per_sec: 200,
        }
    }
}

/// Figures of a run, shared by all chargers.
#[derive(Default)]
pub struct Stats {
    pub connected: AtomicU64,
    pub calls: AtomicU64,
    pub answered: AtomicU64,
    pub errors: AtomicU64,
    pub server_calls: AtomicU64,
    /// CALL -> CALLRESULT, microseconds (the last 100,000).
    latencies: Mutex<VecDeque<u32>>,
}

impl Stats {
    fn latency(&self, d: Duration) {
        let mut l = self.latencies.lock().unwrap_or_else(|p| p.into_inner());
        if l.len() >= 100_000 {
            l.pop_front();
        }
        l.push_back(d.as_micros().min(u32::MAX as u128) as u32);
    }

    /// (p50, p99, max) in milliseconds of the latencies so far, and how many.
    pub fn percentiles(&self) -> (f64, f64, f64, usize) {
        let mut v: Vec<u32> = self.latencies.lock().unwrap_or_else(|p| p.into_inner()).iter().copied().collect();
        if v.is_empty() {
            return (0.0, 0.0, 0.0, 0);
        }
        v.sort_unstable();
        let at = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize] as f64 / 1000.0;
        (at(0.5), at(0.99), *v.last().unwrap() as f64 / 1000.0, v.len())
    }

    pub fn line(&self) -> String {
        let (p50, p99, max, _) = self.percentiles();
        format!(
            "connected {} calls {} answered {} errors {} server calls {} latency p50 {:.2} ms p99 {:.2} ms max {:.2} ms",
            self.connected.load(Ordering::Relaxed),
            self.calls.load(Ordering::Relaxed),
            self.answered.load(Ordering::Relaxed),
            self.errors.load(Ordering::Relaxed),
            self.server_calls.load(Ordering::Relaxed),
            p50,
            p99,
            max
        )
    }
}

fn iso_now() -> String {
    time::OffsetDateTime::now_utc().format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}

/// Runs every charger until the duration passes (or for ever).
pub async fn run(cfg: SimConfig, stats: Arc<Stats>) {
    let cfg = Arc::new(cfg);
    let mut tasks = Vec::new();
    let pause = Duration::from_secs_f64(1.0 / cfg.ramp_per_sec.max(1) as f64);
    for (i, spec) in cfg.chargers.iter().enumerate() {
        let (cfg, stats, spec) = (cfg.clone(), stats.clone(), spec.clone());
        let seed = cfg.seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
        tasks.push(tokio::spawn(async move { charger(cfg, stats, spec, seed).await }));
        tokio::time::sleep(pause).await;
    }
    match cfg.duration {
        Some(d) => {
            tokio::time::sleep(d.saturating_sub(pause * cfg.chargers.len() as u32)).await;
            for t in &tasks {
                t.abort();
            }
        }
        None => {
            for t in tasks {
                let _ = t.await;
            }
        }
    }
}

/// A connector's state.
#[derive(Clone)]
struct Connector {
    /// Energy register, Wh.
    register_wh: f64,
    /// Some while charging: (transaction id, power W, ends at, soc).
    session: Option<(i64, f64, Instant, f64)>,
    /// When the next session starts (while idle).
    next_start: Instant,
    available: bool,
}

struct Charger {
    cfg: Arc<SimConfig>,
    stats: Arc<Stats>,
    rng: StdRng,
    ws: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    next_id: u64,
    connectors: Vec<Connector>,
    /// Things the server asked for, done after answering it.
    pending: VecDeque<Pending>,
    reboot: bool,
}

enum Pending {
    Start(u32, String),
    Stop(i64),
    Trigger(String, Option<u32>),
}

async fn charger(cfg: Arc<SimConfig>, stats: Arc<Stats>, spec: ChargerSpec, seed: u64) {
    let (id, password) = (spec.id, spec.password);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut connectors: Vec<Connector> = (0..spec.connectors.max(1))
        .map(|_| Connector { register_wh: rng.gen_range(10_000.0..5_000_000.0_f64).round(), session: None, next_start: Instant::now(), available: true })
        .collect();
    for c in &mut connectors {
        c.next_start = Instant::now() + idle_time(&cfg, &mut rng);
    }
    let mut backoff = Duration::from_secs(1);
    loop {
        match connect(&cfg, &id, &password).await {
            Ok(ws) => {
                backoff = Duration::from_secs(1);
                stats.connected.fetch_add(1, Ordering::Relaxed);
                let mut ch = Charger { cfg: cfg.clone(), stats: stats.clone(), rng, ws, next_id: 0, connectors, pending: VecDeque::new(), reboot: false };
                let _ = ch.live().await;
                stats.connected.fetch_sub(1, Ordering::Relaxed);
                (rng, connectors) = (ch.rng, ch.connectors);
                let _ = ch.ws.close(None).await;
            }
            Err(e) => {
                tracing::debug!(charger = %id, error = %e, "connect failed");
            }
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(30));
    }
}

fn idle_time(cfg: &SimConfig, rng: &mut StdRng) -> Duration {
    let mean_session = (cfg.session_minutes.0 + cfg.session_minutes.1) as f64 / 2.0 * 60.0;
    let share = cfg.session_share.clamp(0.01, 0.99);
    let mean_idle = mean_session * (1.0 - share) / share;
    Duration::from_secs_f64(rng.gen_range(0.0..2.0 * mean_idle))
}

async fn connect(cfg: &SimConfig, id: &str, password: &str) -> Result<tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>, String> {
    let url = format!("{}/{}", cfg.url.trim_end_matches('/'), id);
    let mut req = url.into_client_request().map_err(|e| e.to_string())?;
    let h = req.headers_mut();
    h.insert("Sec-WebSocket-Protocol", "ocpp1.6".parse().map_err(|_| "header")?);
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("{id}:{password}"));
    h.insert("Authorization", format!("Basic {basic}").parse().map_err(|_| "header")?);
    let (ws, _) = tokio_tungstenite::connect_async(req).await.map_err(|e| e.to_string())?;
    Ok(ws)
}

impl Charger {
    /// Sends a CALL and waits for its answer, answering the server's own
    /// calls meanwhile. Err when the socket is gone or no answer comes.
    async fn call(&mut self, action: &str, payload: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = format!("s{}", self.next_id);
        let started = Instant::now();
        self.stats.calls.fetch_add(1, Ordering::Relaxed);
        self.ws.send(Message::text(json!([2, id, action, payload]).to_string())).await.map_err(|e| e.to_string())?;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let msg = tokio::time::timeout_at(deadline, self.ws.next()).await.map_err(|_| format!("{action}: no answer"))?;
            let Some(Ok(msg)) = msg else { return Err("socket closed".into()) };
            let Message::Text(text) = msg else { continue };
            let v: Value = serde_json::from_str(text.as_str()).unwrap_or(Value::Null);
            match v[0].as_i64() {
                Some(3) if v[1] == json!(id) => {
                    self.stats.answered.fetch_add(1, Ordering::Relaxed);
                    self.stats.latency(started.elapsed());
                    return Ok(v[2].clone());
                }
                Some(4) if v[1] == json!(id) => {
                    self.stats.errors.fetch_add(1, Ordering::Relaxed);
                    return Err(format!("{action}: CALLERROR {}", v[2]));
                }
                Some(2) => self.answer_server(&v).await?,
                _ => {}
            }
        }
    }

    /// Answers one CALL of the server.
    async fn answer_server(&mut self, v: &Value) -> Result<(), String> {
        self.stats.server_calls.fetch_add(1, Ordering::Relaxed);
        let (id, action, p) = (v[1].clone(), v[2].as_str().unwrap_or_default().to_string(), &v[3]);
        let connector = p["connectorId"].as_u64().map(|c| c as u32);
        let result = match action.as_str() {
            "RemoteStartTransaction" => {
                let c = connector.unwrap_or(1);
                let free = self.connectors.get(c as usize - 1).is_some_and(|x| x.session.is_none() && x.available);
                if free {
                    self.pending.push_back(Pending::Start(c, p["idTag"].as_str().unwrap_or("DEMO0001").to_string()));
                }
                Some(json!({"status": if free { "Accepted" } else { "Rejected" }}))
            }
            "RemoteStopTransaction" => {
                let tx = p["transactionId"].as_i64().unwrap_or(-1);
                let running = self.connectors.iter().any(|c| c.session.is_some_and(|s| s.0 == tx));
                if running {
                    self.pending.push_back(Pending::Stop(tx));
                }
                Some(json!({"status": if running { "Accepted" } else { "Rejected" }}))
            }
            "Reset" => {
                self.reboot = true;
                Some(json!({"status": "Accepted"}))
            }
            "UnlockConnector" => Some(json!({"status": "Unlocked"})),
            "ChangeAvailability" => {
                let operative = p["type"] == "Operative";
                for (i, c) in self.connectors.iter_mut().enumerate() {
                    if connector == Some(0) || connector == Some(i as u32 + 1) {
                        c.available = operative;
                    }
                }
                self.pending.push_back(Pending::Trigger("StatusNotification".into(), connector.filter(|c| *c > 0)));
                Some(json!({"status": "Accepted"}))
            }
            "GetConfiguration" => Some(json!({"configurationKey": [
                {"key": "HeartbeatInterval", "readonly": false, "value": self.cfg.heartbeat_secs.unwrap_or(300).to_string()},
                {"key": "MeterValueSampleInterval", "readonly": false, "value": self.cfg.meter_secs.to_string()},
                {"key": "NumberOfConnectors", "readonly": true, "value": self.connectors.len().to_string()},
                {"key": "ConnectionTimeOut", "readonly": false, "value": "60"}
            ]})),
            "ChangeConfiguration" => Some(json!({"status": match p["key"].as_str() {
                Some("NumberOfConnectors") => "Rejected",
                Some("HeartbeatInterval" | "MeterValueSampleInterval" | "ConnectionTimeOut") => "Accepted",
                _ => "NotSupported",
            }})),
            "TriggerMessage" => {
                self.pending.push_back(Pending::Trigger(p["requestedMessage"].as_str().unwrap_or_default().to_string(), connector));
                Some(json!({"status": "Accepted"}))
            }
            "ClearCache" => Some(json!({"status": "Accepted"})),
            "DataTransfer" => Some(json!({"status": "UnknownVendorId"})),
            _ => None,
        };
        let frame = match result {
            Some(r) => json!([3, id, r]),
            None => json!([4, id, "NotImplemented", format!("{action} is not simulated"), {}]),
        };
        self.ws.send(Message::text(frame.to_string())).await.map_err(|e| e.to_string())
    }

    async fn status(&mut self, connector: u32, status: &str) -> Result<(), String> {
        self.call("StatusNotification", json!({"connectorId": connector, "status": status, "errorCode": "NoError", "timestamp": iso_now()})).await.map(|_| ())
    }

    fn connector_status(&self, i: usize) -> &'static str {
        match &self.connectors[i] {
            c if !c.available => "Unavailable",
            c if c.session.is_some() => "Charging",
            _ => "Available",
        }
    }

    /// One connection's life: boot until accepted, report status, then
    /// heartbeats, sessions and the server's calls until the socket drops.
    async fn live(&mut self) -> Result<(), String> {
        let interval = loop {
            let boot = self.call("BootNotification", json!({"chargePointVendor": "SimCharge", "chargePointModel": "SIM-2", "firmwareVersion": "1.0.0"})).await?;
            let interval = boot["interval"].as_u64().unwrap_or(60).max(1);
            if boot["status"] == "Accepted" {
                break interval;
            }
            tokio::time::sleep(Duration::from_secs(interval)).await;
        };
        let heartbeat = Duration::from_secs(self.cfg.heartbeat_secs.unwrap_or(interval));
        self.status(0, "Available").await?;
        for i in 0..self.connectors.len() {
            let s = self.connector_status(i);
            self.status(i as u32 + 1, s).await?;
        }
        let mut next_beat = Instant::now() + heartbeat;
        let mut next_meter = Instant::now() + Duration::from_secs(self.cfg.meter_secs);
        let tick = Duration::from_millis(250);
        loop {
            while let Some(p) = self.pending.pop_front() {
                match p {
                    Pending::Start(c, tag) => self.start(c as usize - 1, &tag).await?,
                    Pending::Stop(tx) => {
                        if let Some(i) = self.connectors.iter().position(|c| c.session.is_some_and(|s| s.0 == tx)) {
                            self.stop(i, "Remote").await?;
                        }
                    }
                    Pending::Trigger(message, connector) => self.triggered(&message, connector).await?,
                }
            }
            if self.reboot {
                // A reset: open sessions stop, then the charger restarts.
                for i in 0..self.connectors.len() {
                    if self.connectors[i].session.is_some() {
                        self.stop(i, "SoftReset").await?;
                    }
                }
                self.reboot = false;
                return Ok(());
            }
            let now = Instant::now();
            if now >= next_beat {
                self.call("Heartbeat", json!({})).await?;
                next_beat = now + heartbeat;
            }
            for i in 0..self.connectors.len() {
                let c = self.connectors[i].clone();
                match c.session {
                    None if c.available && now >= c.next_start => {
                        let tag = self.cfg.id_tags[self.rng.gen_range(0..self.cfg.id_tags.len().max(1))].clone();
                        self.start(i, &tag).await?;
                    }
                    Some((_, _, ends, _)) if now >= ends => self.stop(i, "Local").await?,
                    _ => {}
                }
            }
            if now >= next_meter {
                self.meter_values().await?;
                next_meter = now + Duration::from_secs(self.cfg.meter_secs);
            }
            // Wait a tick, answering the server's calls as they come.
            match tokio::time::timeout(tick, self.ws.next()).await {
                Ok(Some(Ok(Message::Text(text)))) => {
                    let v: Value = serde_json::from_str(text.as_str()).unwrap_or(Value::Null);
                    if v[0] == 2 {
                        self.answer_server(&v).await?;
                    }
                }
                Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) => return Err("socket closed".into()),
                _ => {}
            }
        }
    }

    async fn start(&mut self, i: usize, tag: &str) -> Result<(), String> {
        let n = i as u32 + 1;
        let auth = self.call("Authorize", json!({"idTag": tag})).await?;
        if auth["idTagInfo"]["status"] != "Accepted" {
            self.connectors[i].next_start = Instant::now() + idle_time(&self.cfg, &mut self.rng);
            return Ok(());
        }
        self.status(n, "Preparing").await?;
        let meter_start = self.connectors[i].register_wh as i64;
        let started = self.call("StartTransaction", json!({"connectorId": n, "idTag": tag, "meterStart": meter_start, "timestamp": iso_now()})).await?;
        let tx = started["transactionId"].as_i64().unwrap_or(0);
        let minutes = self.rng.gen_range(self.cfg.session_minutes.0..=self.cfg.session_minutes.1.max(self.cfg.session_minutes.0));
        let power = self.rng.gen_range(self.cfg.power_kw.0..=self.cfg.power_kw.1.max(self.cfg.power_kw.0)) * 1000.0;
        let soc = self.rng.gen_range(10.0..60.0);
        self.connectors[i].session = Some((tx, power, Instant::now() + Duration::from_secs(minutes * 60), soc));
        self.status(n, "Charging").await
    }

    async fn stop(&mut self, i: usize, reason: &str) -> Result<(), String> {
        let n = i as u32 + 1;
        let Some((tx, _, _, _)) = self.connectors[i].session.take() else { return Ok(()) };
        let meter_stop = self.connectors[i].register_wh as i64;
        self.call("StopTransaction", json!({"transactionId": tx, "meterStop": meter_stop, "timestamp": iso_now(), "reason": reason})).await?;
        self.connectors[i].next_start = Instant::now() + idle_time(&self.cfg, &mut self.rng);
        self.status(n, "Finishing").await?;
        self.status(n, "Available").await
    }

    /// Energy since the last sample, then one MeterValues per charging connector.
    async fn meter_values(&mut self) -> Result<(), String> {
        let dt_h = self.cfg.meter_secs as f64 / 3600.0;
        for i in 0..self.connectors.len() {
            let Some((tx, power, ends, soc)) = self.connectors[i].session else { continue };
            self.connectors[i].register_wh += power * dt_h;
            let soc = (soc + power * dt_h / 600.0).min(100.0);
            self.connectors[i].session = Some((tx, power, ends, soc));
            let payload = json!({"connectorId": i + 1, "transactionId": tx, "meterValue": [{"timestamp": iso_now(), "sampledValue": [
                {"value": format!("{:.0}", self.connectors[i].register_wh), "context": "Sample.Periodic", "measurand": "Energy.Active.Import.Register", "unit": "Wh"},
                {"value": format!("{:.0}", power), "context": "Sample.Periodic", "measurand": "Power.Active.Import", "unit": "W"},
                {"value": format!("{:.0}", soc), "context": "Sample.Periodic", "measurand": "SoC", "unit": "Percent"}
            ]}]});
            self.call("MeterValues", payload).await?;
        }
        Ok(())
    }

    async fn triggered(&mut self, message: &str, connector: Option<u32>) -> Result<(), String> {
        match message {
            "BootNotification" => self.call("BootNotification", json!({"chargePointVendor": "SimCharge", "chargePointModel": "SIM-2", "firmwareVersion": "1.0.0"})).await.map(|_| ()),
            "Heartbeat" => self.call("Heartbeat", json!({})).await.map(|_| ()),
            "StatusNotification" => {
                let which: Vec<usize> = match connector {
                    Some(c) if c > 0 => vec![c as usize - 1],
                    _ => (0..self.connectors.len()).collect(),
                };
                let count = self.connectors.len();
                for i in which.into_iter().filter(|i| *i < count) {
                    let s = self.connector_status(i);
                    self.status(i as u32 + 1, s).await?;
                }
                Ok(())
            }
            "MeterValues" => self.meter_values().await,
            "DiagnosticsStatusNotification" => self.call(message, json!({"status": "Idle"})).await.map(|_| ()),
            "FirmwareStatusNotification" => self.call(message, json!({"status": "Idle"})).await.map(|_| ()),
            _ => Ok(()),
        }
    }
}
