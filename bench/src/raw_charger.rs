//! The load bench's own OCPP 1.6J charger: raw OCPP-J frames (JSON arrays
//! written by hand with `serde_json::json!`) over tokio-tungstenite,
//! independent of the product's simulator (`gateway::simulate`) and of its
//! protocol layer (`ocpp`), so the bench does not measure the gateway with
//! the gateway's own reading of OCPP.
//!
//! Each charger `i` of N (charge point id `LOAD{i:05}`, one tokio task):
//! - connects at `ramp * (i - 1) / N` (the fleet is staggered over the
//!   ramp), offering `Sec-WebSocket-Protocol: ocpp1.6`, with
//!   `Authorization: Basic base64(id:password)` (security profile 1);
//! - sends BootNotification (vendor "Bench", model "AC2"; again after the
//!   interval the answer gives while it is not Accepted), then
//!   StatusNotification for connectors 0, 1 and 2 (Available, NoError);
//! - a Heartbeat every 60 s, the first at a random 0-60 s after the boot;
//! - even `i`: sessions on connector 1 in a loop: Authorize, Status
//!   Preparing, StartTransaction, Status Charging, MeterValues every 10 s
//!   (the transaction's id, one Energy.Active.Import.Register sample in
//!   Wh, rising at 3-7 kW), StopTransaction after 2 minutes, Status
//!   Available, a 10 s pause, again. The first session starts at the boot
//!   and is joined part-way (it stops after a random 5-120 s), so the
//!   fleet's stops spread over the cycle instead of coming in one burst;
//! - answers every CALL of the server (ChangeConfiguration,
//!   TriggerMessage, SetChargingProfile, ClearChargingProfile,
//!   DataTransfer: Accepted; GetConfiguration: no keys; anything else a
//!   CALLERROR NotImplemented), counted by action;
//! - reconnects after a drop (1 s, doubling up to 30 s) and boots again.
//!
//! One CALL at a time per charger, ids unique per charger (a counter). A
//! CALL's latency runs from its write to the CALLRESULT or CALLERROR of
//! its id; answers that are CALLERRORs, or that do not say Accepted where
//! they should, are counted and the first of them kept, frame and all.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine;
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const HEARTBEAT: Duration = Duration::from_secs(60);
const METER: Duration = Duration::from_secs(10);
const SESSION: Duration = Duration::from_secs(120);
const PAUSE: Duration = Duration::from_secs(10);
/// A CALL not answered within this is a timeout: the connection is dropped.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);
/// Unexpected frames kept for the report.
const SAMPLES: usize = 20;

/// What the fleet does, for the bench's header.
pub const MIX: &str = "BootNotification, StatusNotification of connectors 0-2, Heartbeat every 60 s (first at a random 0-60 s); \
half the chargers (even ids) in 2-minute sessions on connector 1 (Authorize, Preparing, StartTransaction, Charging, \
MeterValues every 10 s, StopTransaction, Available, 10 s pause; the first session joined part-way), the other half idle";

/// The fleet.
pub struct Config {
    /// The link's base URL; the charge point id is appended (`ws://HOST:PORT/ocpp`).
    pub url: String,
    /// Charge point ids: charger `i` (1-based) is `ids[i - 1]`.
    pub ids: Vec<String>,
    pub password: String,
    /// Cards the back-office accepts; a session presents one of them.
    pub id_tags: Vec<String>,
    /// The connects are spread over this.
    pub ramp: Duration,
    pub seed: u64,
}

/// The CALLs a charger sends, in the order the figures list them.
#[derive(Clone, Copy)]
enum Action {
    Boot,
    Status,
    Heartbeat,
    Authorize,
    Start,
    Meter,
    Stop,
}

pub const ACTIONS: [&str; 7] = ["BootNotification", "StatusNotification", "Heartbeat", "Authorize", "StartTransaction", "MeterValues", "StopTransaction"];

impl Action {
    fn name(self) -> &'static str {
        ACTIONS[self as usize]
    }
}

/// Figures of a run, shared by every charger.
#[derive(Default)]
pub struct Stats {
    /// Connections open now.
    pub connected: AtomicU64,
    /// Chargers that booted (Accepted) and reported their connectors, at least once.
    pub booted: AtomicU64,
    pub connects: AtomicU64,
    pub connect_failures: AtomicU64,
    /// Connections that ended (the socket, a timeout).
    pub drops: AtomicU64,
    pub calls: AtomicU64,
    /// CALLRESULTs to the chargers' CALLs.
    pub answered: AtomicU64,
    /// CALLRESULTs by action (`ACTIONS`).
    pub answered_by: [AtomicU64; 7],
    pub call_errors: AtomicU64,
    /// CALLRESULTs that did not say Accepted (boot, idTagInfo) or lacked what they answer.
    pub not_accepted: AtomicU64,
    pub timeouts: AtomicU64,
    /// Frames no CALL waited for (an answer to another id, not OCPP-J, binary).
    pub stray: AtomicU64,
    pub sessions_started: AtomicU64,
    pub sessions_stopped: AtomicU64,
    /// The server's CALLs, and those answered NotImplemented.
    pub server_calls: AtomicU64,
    pub refused_server_calls: AtomicU64,
    server_actions: Mutex<BTreeMap<String, u64>>,
    /// The first unexpected events, with their frames.
    samples: Mutex<Vec<String>>,
    /// CALL -> answer, microseconds, since the last clear.
    latencies: Mutex<Vec<u32>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Stats {
    fn latency(&self, d: Duration) {
        let mut l = lock(&self.latencies);
        if l.len() < 5_000_000 {
            l.push(d.as_micros().min(u32::MAX as u128) as u32);
        }
    }

    fn note(&self, what: String) {
        let mut s = lock(&self.samples);
        if s.len() < SAMPLES {
            let mut what = what;
            if what.len() > 600 {
                let cut = (0..=600).rev().find(|i| what.is_char_boundary(*i)).unwrap_or(0);
                what.truncate(cut);
                what.push_str("...");
            }
            s.push(what);
        }
    }

    /// Forgets the latencies so far (the bench measures after a warm-up).
    pub fn clear_latencies(&self) {
        lock(&self.latencies).clear();
    }

    /// (p50, p99, max) in milliseconds of the latencies since the last clear, and how many.
    pub fn percentiles(&self) -> (f64, f64, f64, usize) {
        let mut v = lock(&self.latencies).clone();
        if v.is_empty() {
            return (0.0, 0.0, 0.0, 0);
        }
        v.sort_unstable();
        let at = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize] as f64 / 1000.0;
        (at(0.5), at(0.99), *v.last().unwrap() as f64 / 1000.0, v.len())
    }

    /// CALLRESULTs by action so far.
    pub fn answered_by(&self) -> [u64; 7] {
        std::array::from_fn(|i| self.answered_by[i].load(Ordering::Relaxed))
    }

    /// The whole run's figures.
    pub fn line(&self) -> String {
        let g = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let actions: Vec<String> = lock(&self.server_actions).iter().map(|(a, n)| format!("{a} {n}")).collect();
        format!(
            "booted {}, connected {}, connects {} (failed {}, dropped {}), calls {}, answered {}, CALLERROR {}, not Accepted {}, timeouts {}, stray frames {}, sessions started {} stopped {}, server calls {} [{}] (NotImplemented {})",
            g(&self.booted),
            g(&self.connected),
            g(&self.connects),
            g(&self.connect_failures),
            g(&self.drops),
            g(&self.calls),
            g(&self.answered),
            g(&self.call_errors),
            g(&self.not_accepted),
            g(&self.timeouts),
            g(&self.stray),
            g(&self.sessions_started),
            g(&self.sessions_stopped),
            g(&self.server_calls),
            actions.join(", "),
            g(&self.refused_server_calls),
        )
    }

    /// The unexpected events kept (the first few).
    pub fn samples(&self) -> Vec<String> {
        lock(&self.samples).clone()
    }
}

/// Runs the fleet until the future is dropped (aborting its task stops every charger).
pub async fn run(cfg: Config, stats: Arc<Stats>) {
    let cfg = Arc::new(cfg);
    let n = cfg.ids.len().max(1);
    let start = Instant::now();
    let mut fleet = tokio::task::JoinSet::new();
    for k in 0..cfg.ids.len() {
        let at = start + cfg.ramp.mul_f64(k as f64 / n as f64);
        fleet.spawn(charger(cfg.clone(), stats.clone(), k, at));
    }
    while fleet.join_next().await.is_some() {}
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(url: &str, id: &str, password: &str) -> Result<Ws, String> {
    let mut req = format!("{}/{id}", url.trim_end_matches('/')).into_client_request().map_err(|e| e.to_string())?;
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("{id}:{password}"));
    let h = req.headers_mut();
    h.insert("Sec-WebSocket-Protocol", "ocpp1.6".parse().map_err(|_| "header")?);
    h.insert("Authorization", format!("Basic {basic}").parse().map_err(|_| "header")?);
    // No Nagle: a charger's small frames go out at once (the latency is the gateway's).
    let (ws, response) = tokio_tungstenite::connect_async_with_config(req, None, true).await.map_err(|e| e.to_string())?;
    match response.headers().get("Sec-WebSocket-Protocol").and_then(|v| v.to_str().ok()) {
        Some("ocpp1.6") => Ok(ws),
        other => Err(format!("the server agreed to subprotocol {other:?}, not ocpp1.6")),
    }
}

/// Charger `k` (0-based; its number is k + 1) for ever: connect at `at`,
/// live, reconnect after a drop.
async fn charger(cfg: Arc<Config>, stats: Arc<Stats>, k: usize, at: Instant) {
    tokio::time::sleep_until(at).await;
    let mut ch = Charger::new(&cfg, stats.clone(), k);
    let mut backoff = Duration::from_secs(1);
    loop {
        match connect(&cfg.url, &ch.id, &cfg.password).await {
            Ok(mut ws) => {
                backoff = Duration::from_secs(1);
                stats.connects.fetch_add(1, Ordering::Relaxed);
                stats.connected.fetch_add(1, Ordering::Relaxed);
                let Err(e) = ch.live(&mut ws).await;
                stats.connected.fetch_sub(1, Ordering::Relaxed);
                stats.drops.fetch_add(1, Ordering::Relaxed);
                stats.note(format!("{}: connection ended: {e}", ch.id));
                let _ = ws.close(None).await;
            }
            Err(e) => {
                stats.connect_failures.fetch_add(1, Ordering::Relaxed);
                stats.note(format!("{}: connect failed: {e}", ch.id));
            }
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(30));
    }
}

/// A running session on connector 1.
struct Session {
    tx: i64,
    id_tag: String,
    started: Instant,
    meter_start: i64,
    stop_at: Instant,
    next_meter: Instant,
}

/// One charger's state (kept across its connections).
struct Charger {
    id: String,
    stats: Arc<Stats>,
    id_tags: Vec<String>,
    /// Even charger numbers run sessions.
    sessions: bool,
    rng: rand::rngs::StdRng,
    next_id: u64,
    /// Connector 1's energy register, Wh.
    register_wh: i64,
    /// Its power while charging, W.
    power_w: f64,
    session: Option<Session>,
    next_session: Instant,
    first_session: bool,
    booted: bool,
}

/// Now, as OCPP writes it (UTC, whole seconds).
fn timestamp() -> String {
    let now = time::OffsetDateTime::now_utc().replace_nanosecond(0).expect("0 is a valid nanosecond");
    now.format(&time::format_description::well_known::Rfc3339).expect("a UTC time formats as RFC 3339")
}

impl Charger {
    fn new(cfg: &Config, stats: Arc<Stats>, k: usize) -> Charger {
        let mut ch = Charger {
            id: cfg.ids[k].clone(),
            stats,
            id_tags: cfg.id_tags.clone(),
            sessions: (k + 1) % 2 == 0,
            rng: rand::SeedableRng::seed_from_u64(cfg.seed ^ (k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            next_id: 0,
            register_wh: 0,
            power_w: 0.0,
            session: None,
            next_session: Instant::now(),
            first_session: true,
            booted: false,
        };
        ch.register_wh = 10_000 + (ch.random() * 5_000_000.0) as i64;
        ch.power_w = 3_000.0 + ch.random() * 4_000.0;
        ch
    }

    /// A number in [0, 1), from the charger's own seeded generator (runs repeat).
    fn random(&mut self) -> f64 {
        rand::Rng::gen(&mut self.rng)
    }

    fn unexpected(&self, what: String) {
        self.stats.note(format!("{}: {what}", self.id));
    }

    fn not_accepted(&self, action: Action, request: &Value, answer: &Value) {
        self.stats.not_accepted.fetch_add(1, Ordering::Relaxed);
        self.unexpected(format!("{} {request} answered {answer}", action.name()));
    }

    /// Sends a CALL and waits for its answer, answering the server's CALLs
    /// meanwhile: Some(payload) for a CALLRESULT, None for a CALLERROR
    /// (counted and kept); Err when the socket is gone or no answer came.
    async fn call(&mut self, ws: &mut Ws, action: Action, payload: Value) -> Result<Option<Value>, String> {
        self.next_id += 1;
        let id = self.next_id.to_string();
        let frame = json!([2, id, action.name(), payload]).to_string();
        self.stats.calls.fetch_add(1, Ordering::Relaxed);
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        let written = std::time::Instant::now();
        ws.send(Message::text(frame)).await.map_err(|e| format!("{}: {e}", action.name()))?;
        loop {
            let next = match tokio::time::timeout_at(deadline, ws.next()).await {
                Err(_) => {
                    self.stats.timeouts.fetch_add(1, Ordering::Relaxed);
                    return Err(format!("{} [id {id}]: no answer in {} s", action.name(), ANSWER_TIMEOUT.as_secs()));
                }
                Ok(next) => next,
            };
            let text = match next {
                Some(Ok(Message::Text(text))) => text,
                Some(Ok(Message::Close(c))) => return Err(format!("{}: the server closed the socket: {c:?}", action.name())),
                Some(Ok(Message::Binary(_))) => {
                    self.stats.stray.fetch_add(1, Ordering::Relaxed);
                    self.unexpected("a binary frame".into());
                    continue;
                }
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(format!("{}: {e}", action.name())),
                None => return Err(format!("{}: the socket ended", action.name())),
            };
            let frame: Value = serde_json::from_str(text.as_str()).unwrap_or(Value::Null);
            let same = frame.get(1).and_then(Value::as_str) == Some(id.as_str());
            match frame.get(0).and_then(Value::as_i64) {
                Some(3) if same => {
                    let elapsed = written.elapsed();
                    self.stats.latency(elapsed);
                    self.stats.answered.fetch_add(1, Ordering::Relaxed);
                    self.stats.answered_by[action as usize].fetch_add(1, Ordering::Relaxed);
                    return Ok(Some(frame.get(2).cloned().unwrap_or(Value::Null)));
                }
                Some(4) if same => {
                    self.stats.latency(written.elapsed());
                    self.stats.call_errors.fetch_add(1, Ordering::Relaxed);
                    self.unexpected(format!("{} {payload} answered CALLERROR {frame}", action.name()));
                    return Ok(None);
                }
                Some(2) => self.serve(ws, &frame).await?,
                _ => {
                    self.stats.stray.fetch_add(1, Ordering::Relaxed);
                    self.unexpected(format!("while waiting for {} [id {id}]: {}", action.name(), text.as_str()));
                }
            }
        }
    }

    /// Answers one CALL of the server.
    async fn serve(&mut self, ws: &mut Ws, frame: &Value) -> Result<(), String> {
        let id = frame.get(1).cloned().unwrap_or(Value::Null);
        let action = frame.get(2).and_then(Value::as_str).unwrap_or("");
        self.stats.server_calls.fetch_add(1, Ordering::Relaxed);
        *lock(&self.stats.server_actions).entry(action.to_string()).or_default() += 1;
        let reply = match action {
            "ChangeConfiguration" | "TriggerMessage" | "SetChargingProfile" | "ClearChargingProfile" | "DataTransfer" => json!([3, id, {"status": "Accepted"}]),
            "GetConfiguration" => json!([3, id, {"configurationKey": [], "unknownKey": []}]),
            _ => {
                self.stats.refused_server_calls.fetch_add(1, Ordering::Relaxed);
                self.unexpected(format!("server call answered NotImplemented: {frame}"));
                json!([4, id, "NotImplemented", format!("the bench charger does not take {action}"), {}])
            }
        };
        ws.send(Message::text(reply.to_string())).await.map_err(|e| format!("answering {action}: {e}"))
    }

    /// Waits until `when`, answering the server's CALLs as they come.
    async fn wait_until(&mut self, ws: &mut Ws, when: Instant) -> Result<(), String> {
        loop {
            tokio::select! {
                _ = tokio::time::sleep_until(when) => return Ok(()),
                next = ws.next() => match next {
                    Some(Ok(Message::Text(text))) => {
                        let frame: Value = serde_json::from_str(text.as_str()).unwrap_or(Value::Null);
                        if frame.get(0).and_then(Value::as_i64) == Some(2) {
                            self.serve(ws, &frame).await?;
                        } else {
                            self.stats.stray.fetch_add(1, Ordering::Relaxed);
                            self.unexpected(format!("while idle: {}", text.as_str()));
                        }
                    }
                    Some(Ok(Message::Close(c))) => return Err(format!("the server closed the socket: {c:?}")),
                    Some(Ok(Message::Binary(_))) => {
                        self.stats.stray.fetch_add(1, Ordering::Relaxed);
                        self.unexpected("a binary frame".into());
                    }
                    Some(Ok(_)) => {}
                    Some(Err(e)) => return Err(e.to_string()),
                    None => return Err("the socket ended".into()),
                },
            }
        }
    }

    /// A CALL whose answer must say Accepted at `path` (or, `optional`, may leave it out).
    async fn accepted(&mut self, ws: &mut Ws, action: Action, payload: Value, path: &[&str], optional: bool) -> Result<Option<Value>, String> {
        let request = payload.clone();
        let Some(answer) = self.call(ws, action, payload).await? else { return Ok(None) };
        let status = path.iter().try_fold(&answer, |v, k| v.get(*k));
        let ok = match status {
            Some(s) => s == "Accepted",
            None => optional && answer.is_object(),
        };
        if !ok {
            self.not_accepted(action, &request, &answer);
            return Ok(None);
        }
        Ok(Some(answer))
    }

    async fn status(&mut self, ws: &mut Ws, connector: u32, status: &str) -> Result<(), String> {
        let payload = json!({"connectorId": connector, "errorCode": "NoError", "status": status, "timestamp": timestamp()});
        self.empty_answer(ws, Action::Status, payload).await
    }

    /// A CALL answered with an empty object (StatusNotification, MeterValues).
    async fn empty_answer(&mut self, ws: &mut Ws, action: Action, payload: Value) -> Result<(), String> {
        let request = payload.clone();
        if let Some(answer) = self.call(ws, action, payload).await? {
            if answer.as_object().is_none_or(|o| !o.is_empty()) {
                self.not_accepted(action, &request, &answer);
            }
        }
        Ok(())
    }

    /// One connection: boot, report, then heartbeats and sessions until it fails.
    async fn live(&mut self, ws: &mut Ws) -> Result<std::convert::Infallible, String> {
        loop {
            let boot = json!({"chargePointVendor": "Bench", "chargePointModel": "AC2"});
            match self.call(ws, Action::Boot, boot.clone()).await? {
                Some(a) if a.get("status").is_some_and(|s| s == "Accepted") && a.get("interval").is_some_and(Value::is_i64) && a.get("currentTime").is_some_and(Value::is_string) => break,
                Some(a) => {
                    self.not_accepted(Action::Boot, &boot, &a);
                    let secs = a.get("interval").and_then(Value::as_u64).unwrap_or(60).clamp(1, 300);
                    self.wait_until(ws, Instant::now() + Duration::from_secs(secs)).await?;
                }
                None => self.wait_until(ws, Instant::now() + HEARTBEAT).await?,
            }
        }
        for c in 0..=2 {
            let s = if c == 1 && self.session.is_some() { "Charging" } else { "Available" };
            self.status(ws, c, s).await?;
        }
        if !self.booted {
            self.booted = true;
            self.stats.booted.fetch_add(1, Ordering::Relaxed);
        }
        let mut next_beat = Instant::now() + HEARTBEAT.mul_f64(self.random());
        loop {
            let now = Instant::now();
            if now >= next_beat {
                if let Some(a) = self.call(ws, Action::Heartbeat, json!({})).await? {
                    if !a.get("currentTime").is_some_and(Value::is_string) {
                        self.not_accepted(Action::Heartbeat, &json!({}), &a);
                    }
                }
                next_beat = Instant::now() + HEARTBEAT;
            }
            if self.sessions {
                let now = Instant::now();
                match &self.session {
                    None if now >= self.next_session => self.start(ws).await?,
                    Some(s) if now >= s.stop_at => self.stop(ws).await?,
                    Some(s) if now >= s.next_meter => self.meter(ws).await?,
                    _ => {}
                }
            }
            let wake = match (&self.session, self.sessions) {
                (_, false) => next_beat,
                (None, true) => next_beat.min(self.next_session),
                (Some(s), true) => next_beat.min(s.stop_at).min(s.next_meter),
            };
            self.wait_until(ws, wake).await?;
        }
    }

    /// The register now: what the running session has taken since its start.
    fn register_now(&self) -> i64 {
        match &self.session {
            Some(s) => s.meter_start + (self.power_w * s.started.elapsed().as_secs_f64() / 3600.0).round() as i64,
            None => self.register_wh,
        }
    }

    async fn start(&mut self, ws: &mut Ws) -> Result<(), String> {
        let pick = (self.random() * self.id_tags.len() as f64) as usize % self.id_tags.len();
        let tag = self.id_tags[pick].clone();
        self.next_session = Instant::now() + PAUSE;
        if self.accepted(ws, Action::Authorize, json!({"idTag": tag}), &["idTagInfo", "status"], false).await?.is_none() {
            return Ok(());
        }
        self.status(ws, 1, "Preparing").await?;
        let meter_start = self.register_wh;
        let request = json!({"connectorId": 1, "idTag": tag, "meterStart": meter_start, "timestamp": timestamp()});
        let answer = self.call(ws, Action::Start, request.clone()).await?;
        let Some(tx) = answer.as_ref().and_then(|a| a.get("transactionId")).and_then(Value::as_i64) else {
            if let Some(a) = &answer {
                self.not_accepted(Action::Start, &request, a);
            }
            return self.status(ws, 1, "Available").await;
        };
        let started = Instant::now();
        // The first session is joined part-way, so the fleet's stops spread.
        let length = if self.first_session { Duration::from_secs(5) + (SESSION - Duration::from_secs(5)).mul_f64(self.random()) } else { SESSION };
        self.first_session = false;
        self.session = Some(Session { tx, id_tag: tag, started, meter_start, stop_at: started + length, next_meter: started + METER });
        self.stats.sessions_started.fetch_add(1, Ordering::Relaxed);
        let accepted = answer.as_ref().and_then(|a| a.get("idTagInfo")).and_then(|i| i.get("status")).is_some_and(|s| s == "Accepted");
        if !accepted {
            // A charger whose start was not accepted stops it at once.
            self.not_accepted(Action::Start, &request, answer.as_ref().unwrap_or(&Value::Null));
            return self.stop(ws).await;
        }
        self.status(ws, 1, "Charging").await
    }

    async fn meter(&mut self, ws: &mut Ws) -> Result<(), String> {
        let register = self.register_now();
        let Some(s) = self.session.as_mut() else { return Ok(()) };
        s.next_meter += METER;
        let payload = json!({
            "connectorId": 1,
            "transactionId": s.tx,
            "meterValue": [{
                "timestamp": timestamp(),
                "sampledValue": [{"value": register.to_string(), "context": "Sample.Periodic", "measurand": "Energy.Active.Import.Register", "unit": "Wh"}]
            }]
        });
        self.empty_answer(ws, Action::Meter, payload).await
    }

    async fn stop(&mut self, ws: &mut Ws) -> Result<(), String> {
        let meter_stop = self.register_now();
        let Some(s) = self.session.take() else { return Ok(()) };
        self.register_wh = meter_stop;
        self.next_session = Instant::now() + PAUSE;
        let request = json!({"transactionId": s.tx, "meterStop": meter_stop, "timestamp": timestamp(), "idTag": s.id_tag});
        // idTagInfo is optional in the answer; when there, it must say Accepted.
        if self.accepted(ws, Action::Stop, request, &["idTagInfo", "status"], true).await?.is_some() {
            self.stats.sessions_stopped.fetch_add(1, Ordering::Relaxed);
        }
        self.status(ws, 1, "Available").await?;
        self.next_session = Instant::now() + PAUSE;
        Ok(())
    }
}
