//! The charge-point simulator: chargers speaking OCPP 1.6J to the charger
//! link over real WebSockets, as a real charger would. The demo runs it
//! against the local gateway for the demo piles (so the demo's new orders
//! arrive through the real link), and the load bench runs thousands of
//! them. Each charger: connect with its password, boot, report status,
//! heartbeat at the interval it is given, run charging sessions on its
//! connectors (authorize, start, meter values, stop) on a schedule drawn
//! from the seed, answer the server's calls (remote start/stop, reset,
//! unlock, availability, configuration, triggers), and reconnect when the
//! socket drops. It speaks through the protocol layer's own types
//! (`ocpp::v16`): its requests are typed, and it reads the server's
//! answers and calls strictly, as a strict charger would (so the demo and
//! the load bench check every frame the server sends against its schema).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use futures::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use ocpp::frame::{self, CallError, ErrorCode, Frame};
use ocpp::schema::{parse, DateTime, Mode};
use ocpp::v16::{self, Action, Request};
use serde_json::Value;
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

fn now() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
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
    Trigger(v16::MessageTrigger, Option<u32>),
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

/// A server's CALL read as the charger reads it: strictly, the schema
/// exactly (a payload of ours that breaks it is a CALLERROR, as a strict
/// charger would answer).
fn strict<R: Request>(payload: &Value) -> Result<R, CallError> {
    parse(payload, Mode::Strict).map_err(|v| v.to_call_error())
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

impl Charger {
    /// Sends a CALL and waits for its answer (read strictly: an answer
    /// that breaks its schema is an error), answering the server's own
    /// calls meanwhile. Err when the socket is gone or no answer comes.
    async fn call<R: Request>(&mut self, request: R) -> Result<R::Response, String> {
        self.next_id += 1;
        let id = format!("s{}", self.next_id);
        let action = R::ACTION;
        let started = Instant::now();
        self.stats.calls.fetch_add(1, Ordering::Relaxed);
        self.ws.send(Message::text(frame::call(&id, action.name(), &request))).await.map_err(|e| e.to_string())?;
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
                Ok(Frame::Call { id, action, payload }) => self.answer_server(&id, &action, &payload).await?,
                _ => {}
            }
        }
    }

    /// Answers one CALL of the server.
    async fn answer_server(&mut self, id: &str, action: &str, payload: &Value) -> Result<(), String> {
        self.stats.server_calls.fetch_add(1, Ordering::Relaxed);
        let result = match Action::from_name(action) {
            Some(Action::RemoteStartTransaction) => self.serve(payload, Charger::remote_start),
            Some(Action::RemoteStopTransaction) => self.serve(payload, Charger::remote_stop),
            Some(Action::Reset) => self.serve(payload, |ch, _: v16::ResetRequest| {
                ch.reboot = true;
                v16::ResetResponse { status: v16::ResetStatus::Accepted }
            }),
            Some(Action::UnlockConnector) => self.serve(payload, |_, _: v16::UnlockConnectorRequest| v16::UnlockConnectorResponse { status: v16::UnlockStatus::Unlocked }),
            Some(Action::ChangeAvailability) => self.serve(payload, Charger::change_availability),
            Some(Action::GetConfiguration) => self.serve(payload, Charger::configuration),
            Some(Action::ChangeConfiguration) => self.serve(payload, |_, r: v16::ChangeConfigurationRequest| {
                let status = match r.key.as_str() {
                    "NumberOfConnectors" => v16::ConfigurationStatus::Rejected,
                    "HeartbeatInterval" | "MeterValueSampleInterval" | "ConnectionTimeOut" => v16::ConfigurationStatus::Accepted,
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
        };
        let reply = match result {
            Ok(answer) => frame::call_result(id, &answer),
            Err(e) => frame::call_error(id, &e),
        };
        self.ws.send(Message::text(reply)).await.map_err(|e| e.to_string())
    }

    /// Reads the server's request strictly and answers it with `handle`.
    fn serve<R: Request>(&mut self, payload: &Value, handle: impl FnOnce(&mut Charger, R) -> R::Response) -> Result<Value, CallError> {
        let request = strict::<R>(payload)?;
        serde_json::to_value(handle(self, request)).map_err(|_| CallError::internal())
    }

    fn remote_start(&mut self, r: v16::RemoteStartTransactionRequest) -> v16::RemoteStartTransactionResponse {
        let c = r.connector_id.and_then(|c| u32::try_from(c).ok()).unwrap_or(1);
        let free = c >= 1 && self.connectors.get(c as usize - 1).is_some_and(|x| x.session.is_none() && x.available);
        if free {
            self.pending.push_back(Pending::Start(c, r.id_tag));
        }
        v16::RemoteStartTransactionResponse { status: if free { v16::RemoteStartStopStatus::Accepted } else { v16::RemoteStartStopStatus::Rejected } }
    }

    fn remote_stop(&mut self, r: v16::RemoteStopTransactionRequest) -> v16::RemoteStopTransactionResponse {
        let running = self.connectors.iter().any(|c| c.session.is_some_and(|s| s.0 == r.transaction_id));
        if running {
            self.pending.push_back(Pending::Stop(r.transaction_id));
        }
        v16::RemoteStopTransactionResponse { status: if running { v16::RemoteStartStopStatus::Accepted } else { v16::RemoteStartStopStatus::Rejected } }
    }

    fn change_availability(&mut self, r: v16::ChangeAvailabilityRequest) -> v16::ChangeAvailabilityResponse {
        let operative = r.r#type == v16::AvailabilityType::Operative;
        for (i, c) in self.connectors.iter_mut().enumerate() {
            if r.connector_id == 0 || r.connector_id == i as i64 + 1 {
                c.available = operative;
            }
        }
        self.pending.push_back(Pending::Trigger(v16::MessageTrigger::StatusNotification, u32::try_from(r.connector_id).ok().filter(|c| *c > 0)));
        v16::ChangeAvailabilityResponse { status: v16::AvailabilityStatus::Accepted }
    }

    fn configuration(&mut self, _: v16::GetConfigurationRequest) -> v16::GetConfigurationResponse {
        let key = |key: &str, readonly: bool, value: String| v16::KeyValue { key: key.into(), readonly, value: Some(value) };
        v16::GetConfigurationResponse {
            configuration_key: Some(vec![
                key("HeartbeatInterval", false, self.cfg.heartbeat_secs.unwrap_or(300).to_string()),
                key("MeterValueSampleInterval", false, self.cfg.meter_secs.to_string()),
                key("NumberOfConnectors", true, self.connectors.len().to_string()),
                key("ConnectionTimeOut", false, "60".into()),
            ]),
            unknown_key: None,
        }
    }

    async fn status(&mut self, connector: u32, status: v16::ChargePointStatus) -> Result<(), String> {
        let r = v16::StatusNotificationRequest {
            connector_id: connector.into(),
            error_code: v16::ChargePointErrorCode::NoError,
            info: None,
            status,
            timestamp: Some(DateTime::from_unix(now())),
            vendor_id: None,
            vendor_error_code: None,
        };
        self.call(r).await.map(|_| ())
    }

    fn connector_status(&self, i: usize) -> v16::ChargePointStatus {
        match &self.connectors[i] {
            c if !c.available => v16::ChargePointStatus::Unavailable,
            c if c.session.is_some() => v16::ChargePointStatus::Charging,
            _ => v16::ChargePointStatus::Available,
        }
    }

    /// One connection's life: boot until accepted, report status, then
    /// heartbeats, sessions and the server's calls until the socket drops.
    async fn live(&mut self) -> Result<(), String> {
        let interval = loop {
            let boot = self.call(boot_request()).await?;
            let interval = u64::try_from(boot.interval).unwrap_or(60).max(1);
            if boot.status == v16::RegistrationStatus::Accepted {
                break interval;
            }
            tokio::time::sleep(Duration::from_secs(interval)).await;
        };
        let heartbeat = Duration::from_secs(self.cfg.heartbeat_secs.unwrap_or(interval));
        self.status(0, v16::ChargePointStatus::Available).await?;
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
                            self.stop(i, v16::Reason::Remote).await?;
                        }
                    }
                    Pending::Trigger(message, connector) => self.triggered(&message, connector).await?,
                }
            }
            if self.reboot {
                // A reset: open sessions stop, then the charger restarts.
                for i in 0..self.connectors.len() {
                    if self.connectors[i].session.is_some() {
                        self.stop(i, v16::Reason::SoftReset).await?;
                    }
                }
                self.reboot = false;
                return Ok(());
            }
            let now = Instant::now();
            if now >= next_beat {
                self.call(v16::HeartbeatRequest {}).await?;
                next_beat = now + heartbeat;
            }
            for i in 0..self.connectors.len() {
                let c = self.connectors[i].clone();
                match c.session {
                    None if c.available && now >= c.next_start => {
                        let tag = self.cfg.id_tags[self.rng.gen_range(0..self.cfg.id_tags.len().max(1))].clone();
                        self.start(i, &tag).await?;
                    }
                    Some((_, _, ends, _)) if now >= ends => self.stop(i, v16::Reason::Local).await?,
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
                    if let Ok(Frame::Call { id, action, payload }) = frame::parse(text.as_str()) {
                        self.answer_server(&id, &action, &payload).await?;
                    }
                }
                Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) => return Err("socket closed".into()),
                _ => {}
            }
        }
    }

    async fn start(&mut self, i: usize, tag: &str) -> Result<(), String> {
        let n = i as u32 + 1;
        let auth = self.call(v16::AuthorizeRequest { id_tag: tag.into() }).await?;
        if auth.id_tag_info.status != v16::AuthorizationStatus::Accepted {
            self.connectors[i].next_start = Instant::now() + idle_time(&self.cfg, &mut self.rng);
            return Ok(());
        }
        self.status(n, v16::ChargePointStatus::Preparing).await?;
        let meter_start = self.connectors[i].register_wh as i64;
        let started = self.call(v16::StartTransactionRequest { connector_id: n.into(), id_tag: tag.into(), meter_start, reservation_id: None, timestamp: DateTime::from_unix(now()) }).await?;
        let tx = started.transaction_id;
        let minutes = self.rng.gen_range(self.cfg.session_minutes.0..=self.cfg.session_minutes.1.max(self.cfg.session_minutes.0));
        let power = self.rng.gen_range(self.cfg.power_kw.0..=self.cfg.power_kw.1.max(self.cfg.power_kw.0)) * 1000.0;
        let soc = self.rng.gen_range(10.0..60.0);
        self.connectors[i].session = Some((tx, power, Instant::now() + Duration::from_secs(minutes * 60), soc));
        self.status(n, v16::ChargePointStatus::Charging).await
    }

    async fn stop(&mut self, i: usize, reason: v16::Reason) -> Result<(), String> {
        let n = i as u32 + 1;
        let Some((tx, _, _, _)) = self.connectors[i].session.take() else { return Ok(()) };
        let meter_stop = self.connectors[i].register_wh as i64;
        self.call(v16::StopTransactionRequest { id_tag: None, meter_stop, timestamp: DateTime::from_unix(now()), transaction_id: tx, reason: Some(reason), transaction_data: None }).await?;
        self.connectors[i].next_start = Instant::now() + idle_time(&self.cfg, &mut self.rng);
        self.status(n, v16::ChargePointStatus::Finishing).await?;
        self.status(n, v16::ChargePointStatus::Available).await
    }

    /// Energy since the last sample, then one MeterValues per charging connector.
    async fn meter_values(&mut self) -> Result<(), String> {
        let dt_h = self.cfg.meter_secs as f64 / 3600.0;
        for i in 0..self.connectors.len() {
            let Some((tx, power, ends, soc)) = self.connectors[i].session else { continue };
            self.connectors[i].register_wh += power * dt_h;
            let soc = (soc + power * dt_h / 600.0).min(100.0);
            self.connectors[i].session = Some((tx, power, ends, soc));
            let values = vec![
                sampled(format!("{:.0}", self.connectors[i].register_wh), v16::Measurand::EnergyActiveImportRegister, v16::UnitOfMeasure::Wh),
                sampled(format!("{power:.0}"), v16::Measurand::PowerActiveImport, v16::UnitOfMeasure::W),
                sampled(format!("{soc:.0}"), v16::Measurand::SoC, v16::UnitOfMeasure::Percent),
            ];
            let request = v16::MeterValuesRequest { connector_id: i as i64 + 1, transaction_id: Some(tx), meter_value: vec![v16::MeterValue { timestamp: DateTime::from_unix(now()), sampled_value: values }] };
            self.call(request).await?;
        }
        Ok(())
    }

    async fn triggered(&mut self, message: &v16::MessageTrigger, connector: Option<u32>) -> Result<(), String> {
        use v16::MessageTrigger as M;
        match message {
            M::BootNotification => self.call(boot_request()).await.map(|_| ()),
            M::Heartbeat => self.call(v16::HeartbeatRequest {}).await.map(|_| ()),
            M::StatusNotification => {
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
            M::MeterValues => self.meter_values().await,
            M::DiagnosticsStatusNotification => self.call(v16::DiagnosticsStatusNotificationRequest { status: v16::DiagnosticsStatus::Idle }).await.map(|_| ()),
            M::FirmwareStatusNotification => self.call(v16::FirmwareStatusNotificationRequest { status: v16::FirmwareStatus::Idle }).await.map(|_| ()),
            M::Unlisted(_) => Ok(()),
        }
    }
}
