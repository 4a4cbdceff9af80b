//! The charge-point simulator: chargers speaking OCPP 1.6J or 2.0.1 to the
//! charger link over real WebSockets, as real chargers would. The demo
//! runs it against the local gateway for the demo piles (so the demo's new
//! orders arrive through the real link), and the load bench runs thousands
//! of them. Each charger: connect with its password, boot, report status,
//! heartbeat at the interval it is given, run charging sessions on its
//! connectors (authorize, start, meter values, stop) on a schedule drawn
//! from the seed, answer the server's calls (remote start/stop, reset,
//! unlock, availability, configuration, triggers), and reconnect when the
//! socket drops. It speaks through the protocol layer's own types
//! (`ocpp::v16`, `ocpp::v201`): its requests are typed, and it reads the
//! server's answers and calls strictly, as a strict charger would (so the
//! demo and the load bench check every frame the server sends against its
//! schema).
//!
//! This module holds what both versions share (the socket and its calls,
//! the reconnecting loop, the connectors' meters and session schedule, one
//! connection's tick loop) and the 1.6 charger; `simulate_v201` holds the
//! 2.0.1 station. `simulate/ykc.rs` holds the YKC pile (the binary
//! protocol over TCP, to the gateway's YKC port), which shares the
//! connectors' schedule and the figures but has a loop of its own.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use futures::{SinkExt, StreamExt};
use ocpp::frame::{self, CallError, ErrorCode, Frame};
use ocpp::schema::{parse, DateTime, FromJson, Mode};
use ocpp::v16::{self, Action};
use ocpp::Version;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

mod v201;
mod ykc;

pub use ykc::{YkcSpec, YkcTiming};
/// The YKC versions a simulated pile speaks (the codec's).
pub use ::ykc::Version as YkcVersion;

/// One simulated charger: its charge point id, password, connectors (EVSEs
/// for 2.0.1, one connector each) and the OCPP version it speaks.
#[derive(Debug, Clone)]
pub struct ChargerSpec {
    pub id: String,
    pub password: String,
    pub connectors: u32,
    pub version: Version,
}

/// What to simulate.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// The link's base URL; the charge point id is appended (`ws://HOST:PORT/ocpp`).
    pub url: String,
    pub chargers: Vec<ChargerSpec>,
    /// Heartbeat interval; None = what the BootNotification answer says.
    pub heartbeat_secs: Option<u64>,
    /// How often a charging connector reports its meter (1.6 MeterValues,
    /// 2.0.1 TransactionEvent Updated).
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
    /// Start in the steady state: each connector begins a session at its
    /// first tick with the probability `session_share` (a load bench then
    /// measures a fleet whose sessions already run); otherwise the first
    /// session comes after an idle time, as after a power cut.
    pub steady_start: bool,
    /// Where the YKC piles connect (the gateway's `BACKOFFICE_YKC_PORT`), `HOST:PORT`.
    pub ykc_address: String,
    /// The YKC piles (they run beside `chargers`).
    pub ykc_piles: Vec<YkcSpec>,
    pub ykc_timing: YkcTiming,
    /// The cards a YKC pile's users swipe (hex card numbers, as registered).
    pub ykc_cards: Vec<String>,
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
            steady_start: false,
            ykc_address: "127.0.0.1:9998".into(),
            ykc_piles: Vec::new(),
            ykc_timing: YkcTiming::default(),
            // The demo's YKC cards (hex: YKC carries a card as 8 bytes).
            ykc_cards: backoffice::seed::ykc_demo_cards(),
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
    /// Server calls the charger answered with a CALLERROR (a call it does
    /// not take, or one whose payload broke its schema).
    pub refused_server_calls: AtomicU64,
    /// Frames a YKC pile sent (with or without an answer; OCPP chargers do not count here).
    pub frames: AtomicU64,
    /// CALL -> CALLRESULT (a YKC frame -> its answer), microseconds (the last 100,000).
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

    /// Forgets the latencies so far (a bench measures after a warm-up).
    pub fn clear_latencies(&self) {
        self.latencies.lock().unwrap_or_else(|p| p.into_inner()).clear();
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
            "connected {} calls {} answered {} errors {} server calls {} (refused {}) latency p50 {:.2} ms p99 {:.2} ms max {:.2} ms",
            self.connected.load(Ordering::Relaxed),
            self.calls.load(Ordering::Relaxed),
            self.answered.load(Ordering::Relaxed),
            self.errors.load(Ordering::Relaxed),
            self.server_calls.load(Ordering::Relaxed),
            self.refused_server_calls.load(Ordering::Relaxed),
            p50,
            p99,
            max
        )
    }
}

fn now() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

/// Runs every charger until the duration passes (or for ever). Dropping
/// the future (aborting its task) stops the chargers too.
pub async fn run(cfg: SimConfig, stats: Arc<Stats>) {
    let cfg = Arc::new(cfg);
    let mut fleet = Fleet(Vec::new());
    let pause = Duration::from_secs_f64(1.0 / cfg.ramp_per_sec.max(1) as f64);
    for (i, spec) in cfg.chargers.iter().enumerate() {
        let (cfg, stats, spec) = (cfg.clone(), stats.clone(), spec.clone());
        let seed = cfg.seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
        let connectors = spec.connectors;
        fleet.0.push(match spec.version {
            Version::V16 => {
                let base = Base::new(cfg.clone(), connectors, seed);
                tokio::spawn(reconnecting(cfg, stats, spec, Charger16 { base, pending: VecDeque::new(), reboot: false }))
            }
            Version::V201 => {
                let base = Base::new(cfg.clone(), connectors, seed);
                tokio::spawn(reconnecting(cfg, stats, spec, v201::Station201::new(base)))
            }
        });
        tokio::time::sleep(pause).await;
    }
    for (i, spec) in cfg.ykc_piles.iter().enumerate() {
        let seed = cfg.seed.wrapping_mul(1_000_003).wrapping_add((cfg.chargers.len() + i) as u64);
        match ykc::YkcPile::new(cfg.clone(), stats.clone(), spec.clone(), seed) {
            Ok(pile) => fleet.0.push(tokio::spawn(pile.run())),
            Err(e) => tracing::warn!(error = %e, "a YKC pile cannot be simulated"),
        }
        tokio::time::sleep(pause).await;
    }
    let started = (cfg.chargers.len() + cfg.ykc_piles.len()) as u32;
    match cfg.duration {
        Some(d) => tokio::time::sleep(d.saturating_sub(pause * started)).await,
        None => {
            for t in fleet.0.iter_mut() {
                let _ = t.await;
            }
        }
    }
}

/// The chargers' tasks: aborted when the run ends or is dropped.
struct Fleet(Vec<tokio::task::JoinHandle<()>>);

impl Drop for Fleet {
    fn drop(&mut self) {
        for t in &self.0 {
            t.abort();
        }
    }
}

// ------------------------------------------------------------------ shared by both versions

/// A charging session on a connector: the transaction (`T`: the server's
/// number in 1.6, the station's id and event count in 2.0.1), its power,
/// when it ends, the car's state of charge.
struct Session<T> {
    tx: T,
    power_w: f64,
    ends: Instant,
    soc: f64,
}

/// A connector's state.
struct Connector<T> {
    /// Energy register, Wh.
    register_wh: f64,
    session: Option<Session<T>>,
    /// When the next session starts (while idle).
    next_start: Instant,
    available: bool,
}

/// What a charger keeps across its connections, whatever its version: the
/// configuration, its random stream, its connectors.
struct Base<T> {
    cfg: Arc<SimConfig>,
    rng: StdRng,
    connectors: Vec<Connector<T>>,
    /// The charger's own heartbeat interval (the configuration's, or one
    /// the server set since); None = what the BootNotification answer says.
    heartbeat_secs: Option<u64>,
    /// How often it reports its meter: the configuration's, or the server's
    /// change (1.6 MeterValueSampleInterval, 2.0.1 TxUpdatedInterval).
    meter_secs: u64,
    /// The interval the last BootNotification answer gave.
    told_heartbeat_secs: u64,
}

/// What a connector's schedule says is due now.
enum Due {
    Start(usize),
    End(usize),
}

impl<T> Base<T> {
    fn new(cfg: Arc<SimConfig>, connectors: u32, seed: u64) -> Base<T> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut list = Vec::new();
        for _ in 0..connectors.max(1) {
            let register_wh = rng.gen_range(10_000.0..5_000_000.0_f64).round();
            list.push(Connector { register_wh, session: None, next_start: Instant::now(), available: true });
        }
        let (heartbeat_secs, meter_secs) = (cfg.heartbeat_secs, cfg.meter_secs.max(1));
        let mut base = Base { cfg, rng, connectors: list, heartbeat_secs, meter_secs, told_heartbeat_secs: 300 };
        for i in 0..base.connectors.len() {
            let idle = base.idle_time();
            let busy = base.cfg.steady_start && base.rng.gen_bool(base.cfg.session_share.clamp(0.0, 1.0));
            base.connectors[i].next_start = Instant::now() + if busy { Duration::ZERO } else { idle };
        }
        base
    }

    /// How long a connector stays idle before its next session.
    fn idle_time(&mut self) -> Duration {
        let mean_session = (self.cfg.session_minutes.0 + self.cfg.session_minutes.1) as f64 / 2.0 * 60.0;
        let share = self.cfg.session_share.clamp(0.01, 0.99);
        let mean_idle = mean_session * (1.0 - share) / share;
        Duration::from_secs_f64(self.rng.gen_range(0.0..2.0 * mean_idle))
    }

    /// A card for the next local session.
    fn id_tag(&mut self) -> String {
        self.cfg.id_tags.get(self.rng.gen_range(0..self.cfg.id_tags.len().max(1))).cloned().unwrap_or_else(|| "DEMO0001".into())
    }

    /// Connector `i` starts charging: its power, length and the car's charge drawn.
    fn begin(&mut self, i: usize, tx: T) {
        let cfg = &self.cfg;
        let minutes = self.rng.gen_range(cfg.session_minutes.0..=cfg.session_minutes.1.max(cfg.session_minutes.0));
        let power_w = self.rng.gen_range(cfg.power_kw.0..=cfg.power_kw.1.max(cfg.power_kw.0)) * 1000.0;
        let soc = self.rng.gen_range(10.0..60.0);
        self.connectors[i].session = Some(Session { tx, power_w, ends: Instant::now() + Duration::from_secs(minutes * 60), soc });
    }

    /// Connector `i`'s session ends (the next one is scheduled): what it was.
    fn finish(&mut self, i: usize) -> Option<Session<T>> {
        let s = self.connectors[i].session.take()?;
        self.connectors[i].next_start = Instant::now() + self.idle_time();
        Some(s)
    }

    /// No session now: the next one is tried after an idle time.
    fn later(&mut self, i: usize) {
        self.connectors[i].next_start = Instant::now() + self.idle_time();
    }

    /// One meter interval of connector `i`'s session: the energy it took
    /// is on the register; (register Wh, power W, state of charge %).
    fn sample(&mut self, i: usize) -> Option<(f64, f64, f64)> {
        let dt_h = self.meter_secs as f64 / 3600.0;
        let c = &mut self.connectors[i];
        let s = c.session.as_mut()?;
        c.register_wh += s.power_w * dt_h;
        s.soc = (s.soc + s.power_w * dt_h / 600.0).min(100.0);
        Some((c.register_wh, s.power_w, s.soc))
    }

    /// Sessions to start (idle, available, their time come) and to end.
    fn due(&self, now: Instant) -> Vec<Due> {
        let mut out = Vec::new();
        for (i, c) in self.connectors.iter().enumerate() {
            match &c.session {
                None if c.available && now >= c.next_start => out.push(Due::Start(i)),
                Some(s) if now >= s.ends => out.push(Due::End(i)),
                _ => {}
            }
        }
        out
    }

    /// The connector with the transaction `pred` picks.
    fn with_tx(&self, pred: impl Fn(&T) -> bool) -> Option<usize> {
        self.connectors.iter().position(|c| c.session.as_ref().is_some_and(|s| pred(&s.tx)))
    }

    fn charging(&self) -> bool {
        self.connectors.iter().any(|c| c.session.is_some())
    }

    /// The heartbeat interval in force (seconds).
    fn heartbeat_secs(&self) -> u64 {
        self.heartbeat_secs.unwrap_or(self.told_heartbeat_secs)
    }

    /// The server changed an interval (seconds, a whole number from 1):
    /// whether the charger took it. The next heartbeat or meter report
    /// comes that long after the last one.
    fn set_interval(&mut self, which: Interval, value: &str) -> bool {
        let Some(secs) = value.trim().parse::<u64>().ok().filter(|s| *s >= 1) else { return false };
        match which {
            Interval::Heartbeat => self.heartbeat_secs = Some(secs),
            Interval::Meter => self.meter_secs = secs,
        }
        true
    }
}

/// The intervals a server may change.
#[derive(Clone, Copy)]
enum Interval {
    Heartbeat,
    Meter,
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Whether a connection goes on after the work the server asked for.
#[derive(PartialEq, Eq)]
enum Flow {
    Go,
    /// The charger restarts (a reset): the connection ends, it reconnects and boots.
    Restart,
}

/// A simulated charger of one OCPP version. The shared loop ([`live`])
/// drives it: boot, then heartbeats, the sessions its connectors' schedule
/// says are due, meter reports and the server's calls.
#[async_trait::async_trait]
trait Station: Send + Sized + 'static {
    /// Its sessions' transaction (see [`Session`]).
    type Tx: Send;
    const VERSION: Version;

    fn base(&mut self) -> &mut Base<Self::Tx>;
    /// The answer to one of the server's CALLs (its payload read strictly);
    /// what it asks for is queued and done by [`Station::work`] after the answer.
    fn answer(&mut self, action: &str, payload: &Value) -> Result<Value, CallError>;
    /// Boots until accepted and reports its connectors; the heartbeat
    /// interval the server gave.
    async fn boot(&mut self, link: &mut Link) -> Result<u64, String>;
    async fn heartbeat(&mut self, link: &mut Link) -> Result<(), String>;
    /// What the server asked for since the last tick (and a reset).
    async fn work(&mut self, link: &mut Link) -> Result<Flow, String>;
    /// Connector `i` starts a session for `tag` (authorized first).
    async fn start(&mut self, link: &mut Link, i: usize, tag: &str) -> Result<(), String>;
    /// Connector `i`'s session's time is up: the driver stops it.
    async fn end(&mut self, link: &mut Link, i: usize) -> Result<(), String>;
    /// One meter report of every charging connector.
    async fn meter(&mut self, link: &mut Link) -> Result<(), String>;
}

/// One connection's life: boot until accepted, report status, then
/// heartbeats, sessions and the server's calls until the socket drops (or
/// the charger restarts).
async fn live<S: Station>(st: &mut S, link: &mut Link) -> Result<(), String> {
    st.base().told_heartbeat_secs = st.boot(link).await?;
    let (mut last_beat, mut last_meter) = (Instant::now(), Instant::now());
    let tick = Duration::from_millis(250);
    loop {
        if st.work(link).await? == Flow::Restart {
            return Ok(());
        }
        // Read each time: the server may have changed them since.
        let heartbeat = Duration::from_secs(st.base().heartbeat_secs());
        let meter = Duration::from_secs(st.base().meter_secs);
        let now = Instant::now();
        if now >= last_beat + heartbeat {
            st.heartbeat(link).await?;
            last_beat = now;
        }
        for due in st.base().due(now) {
            match due {
                Due::Start(i) => {
                    let tag = st.base().id_tag();
                    st.start(link, i, &tag).await?
                }
                Due::End(i) => st.end(link, i).await?,
            }
        }
        if now >= last_meter + meter {
            st.meter(link).await?;
            last_meter = now;
        }
        // Wait a tick, answering the server's calls as they come.
        link.wait(st, tick).await?;
    }
}

/// A charger for ever: connect, live, and after a drop (or a restart)
/// reconnect with a growing pause (1 s, doubling up to 30 s).
async fn reconnecting<S: Station>(cfg: Arc<SimConfig>, stats: Arc<Stats>, spec: ChargerSpec, mut station: S) {
    let mut backoff = Duration::from_secs(1);
    loop {
        match connect(&cfg, &spec.id, &spec.password, S::VERSION).await {
            Ok(ws) => {
                backoff = Duration::from_secs(1);
                stats.connected.fetch_add(1, Ordering::Relaxed);
                let mut link = Link { ws, stats: stats.clone(), next_id: 0 };
                if let Err(e) = live(&mut station, &mut link).await {
                    tracing::debug!(charger = %spec.id, error = %e, "connection ended");
                }
                stats.connected.fetch_sub(1, Ordering::Relaxed);
                let _ = link.ws.close(None).await;
            }
            Err(e) => {
                tracing::debug!(charger = %spec.id, error = %e, "connect failed");
            }
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(30));
    }
}

async fn connect(cfg: &SimConfig, id: &str, password: &str, version: Version) -> Result<Ws, String> {
    let url = format!("{}/{}", cfg.url.trim_end_matches('/'), id);
    let mut req = url.into_client_request().map_err(|e| e.to_string())?;
    let h = req.headers_mut();
    h.insert("Sec-WebSocket-Protocol", version.subprotocol().parse().map_err(|_| "header")?);
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("{id}:{password}"));
    h.insert("Authorization", format!("Basic {basic}").parse().map_err(|_| "header")?);
    let (ws, _) = tokio_tungstenite::connect_async(req).await.map_err(|e| e.to_string())?;
    Ok(ws)
}

/// One connection's socket: the charger's CALLs and their answers, and the
/// server's CALLs answered by the charger.
struct Link {
    ws: Ws,
    stats: Arc<Stats>,
    next_id: u64,
}

impl Link {
    /// Sends a CALL and waits for its answer, read strictly (an answer
    /// that breaks its schema is an error), answering the server's own
    /// calls meanwhile. Err when the socket is gone, no answer comes or
    /// the answer is a CALLERROR.
    async fn call<S: Station, T: FromJson>(&mut self, st: &mut S, action: &str, request: Value) -> Result<T, String> {
        self.next_id += 1;
        let id = format!("s{}", self.next_id);
        let started = Instant::now();
        self.stats.calls.fetch_add(1, Ordering::Relaxed);
        self.ws.send(Message::text(frame::call(&id, action, &request))).await.map_err(|e| e.to_string())?;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let msg = tokio::time::timeout_at(deadline, self.ws.next()).await.map_err(|_| format!("{action}: no answer"))?;
            let Some(Ok(msg)) = msg else { return Err("socket closed".into()) };
            let Message::Text(text) = msg else { continue };
            match frame::parse(text.as_str()) {
                Ok(Frame::Result { id: answered, payload }) if answered == id => {
                    self.stats.answered.fetch_add(1, Ordering::Relaxed);
                    self.stats.latency(started.elapsed());
                    return parse(&payload, Mode::Strict).map_err(|v| format!("{action}: the answer breaks its schema: {v}"));
                }
                Ok(Frame::Error { id: answered, code, description, .. }) if answered == id => {
                    self.stats.errors.fetch_add(1, Ordering::Relaxed);
                    return Err(format!("{action}: CALLERROR {code} {description}"));
                }
                Ok(Frame::Call { id, action, payload }) => self.reply(st, &id, &action, &payload).await?,
                _ => {}
            }
        }
    }

    /// Waits up to `tick` for a server's CALL and answers it.
    async fn wait<S: Station>(&mut self, st: &mut S, tick: Duration) -> Result<(), String> {
        match tokio::time::timeout(tick, self.ws.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => {
                if let Ok(Frame::Call { id, action, payload }) = frame::parse(text.as_str()) {
                    self.reply(st, &id, &action, &payload).await?;
                }
                Ok(())
            }
            Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) => Err("socket closed".into()),
            _ => Ok(()),
        }
    }

    /// Answers one CALL of the server, its CALLERROR spelled as the charger's version spells it.
    async fn reply<S: Station>(&mut self, st: &mut S, id: &str, action: &str, payload: &Value) -> Result<(), String> {
        self.stats.server_calls.fetch_add(1, Ordering::Relaxed);
        let reply = match st.answer(action, payload) {
            Ok(answer) => frame::call_result(id, &answer),
            Err(e) => {
                self.stats.refused_server_calls.fetch_add(1, Ordering::Relaxed);
                tracing::debug!(action, code = e.code.spelled(S::VERSION), description = %e.description, "server call refused");
                frame::call_error_in(S::VERSION, id, &e)
            }
        };
        self.ws.send(Message::text(reply)).await.map_err(|e| e.to_string())
    }
}

/// A server's request read as the charger reads it: strictly, the schema
/// exactly (a payload of ours that breaks it is a CALLERROR, as a strict
/// charger would answer).
fn strict<Q: FromJson>(payload: &Value) -> Result<Q, CallError> {
    parse(payload, Mode::Strict).map_err(|v| v.to_call_error())
}

// ------------------------------------------------------------------ the OCPP 1.6 charger

/// A 1.6 charger: its connectors (transactions numbered by the server) and
/// what the server asked for, done after answering it.
struct Charger16 {
    base: Base<i64>,
    pending: VecDeque<Pending>,
    reboot: bool,
}

enum Pending {
    Start(u32, String),
    Stop(i64),
    Trigger(v16::MessageTrigger, Option<u32>),
}

fn boot_request() -> v16::BootNotificationRequest {
    v16::BootNotificationRequest {
        charge_point_vendor: "SimCharge".into(),
        charge_point_model: "SIM-2".into(),
        charge_point_serial_number: None,
        charge_box_serial_number: None,
        firmware_version: Some("1.0.0".into()),
        iccid: None,
        imsi: None,
        meter_type: None,
        meter_serial_number: None,
    }
}

fn sampled(value: String, measurand: v16::Measurand, unit: v16::UnitOfMeasure) -> v16::SampledValue {
    v16::SampledValue { value, context: Some(v16::ReadingContext::SamplePeriodic), format: None, measurand: Some(measurand), phase: None, location: None, unit: Some(unit) }
}

impl Charger16 {
    async fn call<R: v16::Request>(&mut self, link: &mut Link, request: R) -> Result<R::Response, String> {
        let payload = serde_json::to_value(&request).map_err(|e| e.to_string())?;
        link.call(self, R::ACTION.name(), payload).await
    }

    /// Reads the server's request strictly and answers it with `handle`.
    fn serve<R: v16::Request>(&mut self, payload: &Value, handle: impl FnOnce(&mut Charger16, R) -> R::Response) -> Result<Value, CallError> {
        let request = strict::<R>(payload)?;
        serde_json::to_value(handle(self, request)).map_err(|_| CallError::internal())
    }

    fn remote_start(&mut self, r: v16::RemoteStartTransactionRequest) -> v16::RemoteStartTransactionResponse {
        let c = r.connector_id.and_then(|c| u32::try_from(c).ok()).unwrap_or(1);
        let free = c >= 1 && self.base.connectors.get(c as usize - 1).is_some_and(|x| x.session.is_none() && x.available);
        if free {
            self.pending.push_back(Pending::Start(c, r.id_tag));
        }
        v16::RemoteStartTransactionResponse { status: if free { v16::RemoteStartStopStatus::Accepted } else { v16::RemoteStartStopStatus::Rejected } }
    }

    fn remote_stop(&mut self, r: v16::RemoteStopTransactionRequest) -> v16::RemoteStopTransactionResponse {
        let running = self.base.with_tx(|tx| *tx == r.transaction_id).is_some();
        if running {
            self.pending.push_back(Pending::Stop(r.transaction_id));
        }
        v16::RemoteStopTransactionResponse { status: if running { v16::RemoteStartStopStatus::Accepted } else { v16::RemoteStartStopStatus::Rejected } }
    }

    fn change_availability(&mut self, r: v16::ChangeAvailabilityRequest) -> v16::ChangeAvailabilityResponse {
        let operative = r.r#type == v16::AvailabilityType::Operative;
        for (i, c) in self.base.connectors.iter_mut().enumerate() {
            if r.connector_id == 0 || r.connector_id == i as i64 + 1 {
                c.available = operative;
            }
        }
        self.pending.push_back(Pending::Trigger(v16::MessageTrigger::StatusNotification, u32::try_from(r.connector_id).ok().filter(|c| *c > 0)));
        v16::ChangeAvailabilityResponse { status: v16::AvailabilityStatus::Accepted }
    }

    fn configuration(&mut self, _: v16::GetConfigurationRequest) -> v16::GetConfigurationResponse {
        let key = |key: &str, readonly: bool, value: String| v16::KeyValue { key: key.into(), readonly, value: Some(value) };
        let base = &self.base;
        v16::GetConfigurationResponse {
            configuration_key: Some(vec![
                key("HeartbeatInterval", false, base.heartbeat_secs().to_string()),
                key("MeterValueSampleInterval", false, base.meter_secs.to_string()),
                key("NumberOfConnectors", true, self.base.connectors.len().to_string()),
                key("ConnectionTimeOut", false, "60".into()),
            ]),
            unknown_key: None,
        }
    }

    async fn status(&mut self, link: &mut Link, connector: u32, status: v16::ChargePointStatus) -> Result<(), String> {
        let r = v16::StatusNotificationRequest {
            connector_id: connector.into(),
            error_code: v16::ChargePointErrorCode::NoError,
            info: None,
            status,
            timestamp: Some(DateTime::from_unix(now())),
            vendor_id: None,
            vendor_error_code: None,
        };
        self.call(link, r).await.map(|_| ())
    }

    fn connector_status(&self, i: usize) -> v16::ChargePointStatus {
        match &self.base.connectors[i] {
            c if !c.available => v16::ChargePointStatus::Unavailable,
            c if c.session.is_some() => v16::ChargePointStatus::Charging,
            _ => v16::ChargePointStatus::Available,
        }
    }

    async fn stop(&mut self, link: &mut Link, i: usize, reason: v16::Reason) -> Result<(), String> {
        let n = i as u32 + 1;
        let Some(session) = self.base.finish(i) else { return Ok(()) };
        let meter_stop = self.base.connectors[i].register_wh as i64;
        let r = v16::StopTransactionRequest { id_tag: None, meter_stop, timestamp: DateTime::from_unix(now()), transaction_id: session.tx, reason: Some(reason), transaction_data: None };
        self.call(link, r).await?;
        self.status(link, n, v16::ChargePointStatus::Finishing).await?;
        self.status(link, n, v16::ChargePointStatus::Available).await
    }

    async fn triggered(&mut self, link: &mut Link, message: &v16::MessageTrigger, connector: Option<u32>) -> Result<(), String> {
        use v16::MessageTrigger as M;
        match message {
            M::BootNotification => self.call(link, boot_request()).await.map(|_| ()),
            M::Heartbeat => self.call(link, v16::HeartbeatRequest {}).await.map(|_| ()),
            M::StatusNotification => {
                let which: Vec<usize> = match connector {
                    Some(c) if c > 0 => vec![c as usize - 1],
                    _ => (0..self.base.connectors.len()).collect(),
                };
                let count = self.base.connectors.len();
                for i in which.into_iter().filter(|i| *i < count) {
                    let s = self.connector_status(i);
                    self.status(link, i as u32 + 1, s).await?;
                }
                Ok(())
            }
            M::MeterValues => self.meter(link).await,
            M::DiagnosticsStatusNotification => self.call(link, v16::DiagnosticsStatusNotificationRequest { status: v16::DiagnosticsStatus::Idle }).await.map(|_| ()),
            M::FirmwareStatusNotification => self.call(link, v16::FirmwareStatusNotificationRequest { status: v16::FirmwareStatus::Idle }).await.map(|_| ()),
            M::Unlisted(_) => Ok(()),
        }
    }
}

#[async_trait::async_trait]
impl Station for Charger16 {
    type Tx = i64;
    const VERSION: Version = Version::V16;

    fn base(&mut self) -> &mut Base<i64> {
        &mut self.base
    }

    fn answer(&mut self, action: &str, payload: &Value) -> Result<Value, CallError> {
        match Action::from_name(action) {
            Some(Action::RemoteStartTransaction) => self.serve(payload, Charger16::remote_start),
            Some(Action::RemoteStopTransaction) => self.serve(payload, Charger16::remote_stop),
            Some(Action::Reset) => self.serve(payload, |ch, _: v16::ResetRequest| {
                ch.reboot = true;
                v16::ResetResponse { status: v16::ResetStatus::Accepted }
            }),
            Some(Action::UnlockConnector) => self.serve(payload, |_, _: v16::UnlockConnectorRequest| v16::UnlockConnectorResponse { status: v16::UnlockStatus::Unlocked }),
            Some(Action::ChangeAvailability) => self.serve(payload, Charger16::change_availability),
            Some(Action::GetConfiguration) => self.serve(payload, Charger16::configuration),
            Some(Action::ChangeConfiguration) => self.serve(payload, |ch, r: v16::ChangeConfigurationRequest| {
                let taken = |ok: bool| if ok { v16::ConfigurationStatus::Accepted } else { v16::ConfigurationStatus::Rejected };
                let status = match r.key.as_str() {
                    "NumberOfConnectors" => v16::ConfigurationStatus::Rejected,
                    "HeartbeatInterval" => taken(ch.base.set_interval(Interval::Heartbeat, &r.value)),
                    "MeterValueSampleInterval" => taken(ch.base.set_interval(Interval::Meter, &r.value)),
                    "ConnectionTimeOut" => v16::ConfigurationStatus::Accepted,
                    _ => v16::ConfigurationStatus::NotSupported,
                };
                v16::ChangeConfigurationResponse { status }
            }),
            Some(Action::TriggerMessage) => self.serve(payload, |ch, r: v16::TriggerMessageRequest| {
                ch.pending.push_back(Pending::Trigger(r.requested_message, r.connector_id.and_then(|c| u32::try_from(c).ok())));
                v16::TriggerMessageResponse { status: v16::TriggerMessageStatus::Accepted }
            }),
            Some(Action::ClearCache) => self.serve(payload, |_, _: v16::ClearCacheRequest| v16::ClearCacheResponse { status: v16::ClearCacheStatus::Accepted }),
            Some(Action::DataTransfer) => self.serve(payload, |_, _: v16::DataTransferRequest| v16::DataTransferResponse { status: v16::DataTransferStatus::UnknownVendorId, data: None }),
            _ => Err(CallError::new(ErrorCode::NotImplemented, format!("{action} is not simulated"))),
        }
    }

    async fn boot(&mut self, link: &mut Link) -> Result<u64, String> {
        let interval = loop {
            let boot = self.call(link, boot_request()).await?;
            let interval = u64::try_from(boot.interval).unwrap_or(60).max(1);
            if boot.status == v16::RegistrationStatus::Accepted {
                break interval;
            }
            tokio::time::sleep(Duration::from_secs(interval)).await;
        };
        self.status(link, 0, v16::ChargePointStatus::Available).await?;
        for i in 0..self.base.connectors.len() {
            let s = self.connector_status(i);
            self.status(link, i as u32 + 1, s).await?;
        }
        Ok(interval)
    }

    async fn heartbeat(&mut self, link: &mut Link) -> Result<(), String> {
        self.call(link, v16::HeartbeatRequest {}).await.map(|_| ())
    }

    async fn work(&mut self, link: &mut Link) -> Result<Flow, String> {
        while let Some(p) = self.pending.pop_front() {
            match p {
                Pending::Start(c, tag) => self.start(link, c as usize - 1, &tag).await?,
                Pending::Stop(tx) => {
                    if let Some(i) = self.base.with_tx(|t| *t == tx) {
                        self.stop(link, i, v16::Reason::Remote).await?;
                    }
                }
                Pending::Trigger(message, connector) => self.triggered(link, &message, connector).await?,
            }
        }
        if self.reboot {
            // A reset: open sessions stop, then the charger restarts.
            for i in 0..self.base.connectors.len() {
                if self.base.connectors[i].session.is_some() {
                    self.stop(link, i, v16::Reason::SoftReset).await?;
                }
            }
            self.reboot = false;
            return Ok(Flow::Restart);
        }
        Ok(Flow::Go)
    }

    async fn start(&mut self, link: &mut Link, i: usize, tag: &str) -> Result<(), String> {
        let n = i as u32 + 1;
        let auth = self.call(link, v16::AuthorizeRequest { id_tag: tag.into() }).await?;
        if auth.id_tag_info.status != v16::AuthorizationStatus::Accepted {
            self.base.later(i);
            return Ok(());
        }
        self.status(link, n, v16::ChargePointStatus::Preparing).await?;
        let meter_start = self.base.connectors[i].register_wh as i64;
        let started = self.call(link, v16::StartTransactionRequest { connector_id: n.into(), id_tag: tag.into(), meter_start, reservation_id: None, timestamp: DateTime::from_unix(now()) }).await?;
        self.base.begin(i, started.transaction_id);
        self.status(link, n, v16::ChargePointStatus::Charging).await
    }

    async fn end(&mut self, link: &mut Link, i: usize) -> Result<(), String> {
        self.stop(link, i, v16::Reason::Local).await
    }

    /// Energy since the last sample, then one MeterValues per charging connector.
    async fn meter(&mut self, link: &mut Link) -> Result<(), String> {
        for i in 0..self.base.connectors.len() {
            let Some((register, power, soc)) = self.base.sample(i) else { continue };
            let tx = self.base.connectors[i].session.as_ref().map(|s| s.tx);
            let values = vec![
                sampled(format!("{register:.0}"), v16::Measurand::EnergyActiveImportRegister, v16::UnitOfMeasure::Wh),
                sampled(format!("{power:.0}"), v16::Measurand::PowerActiveImport, v16::UnitOfMeasure::W),
                sampled(format!("{soc:.0}"), v16::Measurand::SoC, v16::UnitOfMeasure::Percent),
            ];
            let request = v16::MeterValuesRequest { connector_id: i as i64 + 1, transaction_id: tx, meter_value: vec![v16::MeterValue { timestamp: DateTime::from_unix(now()), sampled_value: values }] };
            self.call(link, request).await?;
        }
        Ok(())
    }
}
