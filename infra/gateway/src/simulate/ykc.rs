//! The simulator's YKC pile: the 1.5 or 1.6 binary protocol over TCP, as a
//! pile speaks it to its platform, through the `ykc` crate (the pile side:
//! it encodes the pile's frames with `Frame::of` and reads the platform's
//! frames with `StreamDecoder` and `Frame::message` in the version it
//! logged in with, strictly: a frame that does not decode, names another
//! pile, or answers nothing the pile asked is counted as an error).
//!
//! What it does, as the specification has a pile do it:
//! - logs in (0x01) with its number, guns and version, nothing else before
//!   the answer (0x02); a refused login waits and tries again;
//! - answers the platform's time sync (0x56 -> 0x55);
//! - checks its tariff model (0x05, 0000 at first) and asks for it (0x09)
//!   when the platform's differs; it charges only with a model;
//! - heartbeats (0x03) every 10 s for each gun;
//! - real-time data (0x13) of each gun every 15 s while charging, every
//!   5 minutes idle, and at once when the gun's state changes;
//! - card sessions: a card at the pile (0x31) and the platform's answer
//!   (0x32, with the order number); the energy grows on the register and
//!   is booked on the tariff model's rate of each half hour (China time);
//!   the session's end sends its transaction record (0x3B) priced from the
//!   model the session started with: each rate's line is
//!   `PriceE5::amount` of its energy at electricity + service, the total
//!   their sum, as a pile computes its bill. A record is sent again every
//!   30 s, three times at most, until confirmed (0x40), and after a
//!   reconnection until then;
//! - remote start (0x34 -> 0x33, the session under the platform's order
//!   number) and remote stop (0x36 -> 0x35, the record with reason 0x40);
//! - remote reboot (0x92 -> 0x91): now (open sessions end first) or once
//!   idle, it closes the connection, reconnects and logs in again;
//! - a tariff push (0x58 -> 0x57): the model is taken for the next session;
//! - a real-time read (0x12 -> 0x13), the work parameters (0x52 -> 0x51: a
//!   locked pile takes no session), a firmware update (0x94 -> 0x93, up to
//!   date) and the offline cards (0x44 -> 0x43, 0x46 -> 0x45), taken.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use ykc::msg::{self, GunNo, Message, OrderNo, Outcome, PhysicalCardNo, PileNo, RateIndex, TariffModel, TariffModelId};
use ykc::units::{KwhE4, PriceE5, YuanE4};
use ykc::{Decoded, Frame, StreamDecoder};

use super::{Base, Due, SimConfig, Stats};

/// One simulated YKC pile: its 14-digit number, guns and version.
#[derive(Debug, Clone)]
pub struct YkcSpec {
    pub pile_no: String,
    pub guns: u32,
    pub version: ykc::Version,
}

/// A YKC pile's schedule: the specification's periods unless a test or
/// bench says otherwise.
#[derive(Debug, Clone)]
pub struct YkcTiming {
    /// Heartbeat of each gun (the specification: every 10 s).
    pub heartbeat_secs: u64,
    /// Real-time data of a charging gun (15 s).
    pub realtime_charging_secs: u64,
    /// Real-time data of an idle gun (5 minutes).
    pub realtime_idle_secs: u64,
}

impl Default for YkcTiming {
    fn default() -> Self {
        YkcTiming { heartbeat_secs: 10, realtime_charging_secs: 15, realtime_idle_secs: 300 }
    }
}

/// How long a frame waits for its answer before the pile gives up on the
/// connection and logs in again.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);
/// A transaction record is sent again this long after, until confirmed.
const RECORD_RESEND: Duration = Duration::from_secs(30);
/// ... at most this many times per connection.
const RECORD_TRIES: u32 = 3;
/// Offset of China time (the protocol's clock) from UTC.
const CHINA: time::UtcOffset = match time::UtcOffset::from_hms(8, 0, 0) {
    Ok(o) => o,
    Err(_) => time::UtcOffset::UTC,
};
/// The output voltage the simulated guns report, 0.1 V.
const VOLTAGE_DV: u16 = 4000;

/// A session on a gun as the pile keeps it.
pub(super) struct Tx {
    order: OrderNo,
    kind: msg::TradeKind,
    card: PhysicalCardNo,
    started: time::OffsetDateTime,
    /// The model in force when it started (a pushed model waits for the next).
    model: TariffModel,
    meter_start: u64,
    /// Energy per rate, sharp first, 0.0001 kWh.
    tiers: [u64; 4],
    /// Energy not yet on the register (a fraction of 0.0001 kWh).
    carry: f64,
    accrued: Instant,
}

/// What a frame of the pile waits for.
#[derive(Debug, Clone)]
enum Asked {
    Login,
    Heartbeat,
    TariffCheck,
    TariffRequest,
    Start { gun: usize },
    Record { order: OrderNo },
}

struct Pending {
    asked: Asked,
    answer_type: u8,
    sent: Instant,
}

/// A transaction record waiting for its confirmation.
struct Unconfirmed {
    record: msg::TransactionRecord,
    tries: u32,
    last_sent: Option<Instant>,
}

/// Why a connection ends.
enum End {
    /// The pile restarts (a reboot): it reconnects at once.
    Reboot,
    /// The connection is lost or the platform misbehaved: it reconnects after a pause.
    Lost(String),
}

/// A simulated YKC pile: what it keeps across its connections.
pub(super) struct YkcPile {
    spec: YkcSpec,
    pile: PileNo,
    cfg: Arc<SimConfig>,
    stats: Arc<Stats>,
    base: Base<Tx>,
    /// Each gun's meter register, 0.0001 kWh.
    registers: Vec<u64>,
    model: Option<(TariffModelId, TariffModel)>,
    unconfirmed: Vec<Unconfirmed>,
    /// A reboot asked for once idle.
    reboot_when_idle: bool,
    /// The card of each gun's start request waiting for its answer.
    pending_card: HashMap<usize, PhysicalCardNo>,
}

fn china_now() -> time::OffsetDateTime {
    time::OffsetDateTime::now_utc().to_offset(CHINA)
}

fn cp56(at: time::OffsetDateTime) -> ykc::wire::Cp56Time2a {
    let at = at.to_offset(CHINA);
    ykc::wire::Cp56Time2a::from_datetime(time::PrimitiveDateTime::new(at.date(), at.time())).unwrap_or_default()
}

fn rate_slot(index: RateIndex) -> usize {
    match index {
        RateIndex::Sharp => 0,
        RateIndex::Peak => 1,
        RateIndex::Flat => 2,
        RateIndex::Valley => 3,
        // A slot naming no rate: the flat one (the platform never sends it).
        RateIndex::Other(_) => 2,
    }
}

/// The frame type that answers a pile's frame: the next one up (0x01 ->
/// 0x02), but the transaction record's confirmation is 0x40.
fn answer_type(frame_type: u8) -> u8 {
    match frame_type {
        0x3B => 0x40,
        t => t + 1,
    }
}

fn gun_no(i: usize) -> GunNo {
    GunNo::from_number(i as u128 + 1).unwrap_or_default()
}

fn gun_index(g: &GunNo) -> Option<usize> {
    g.value().and_then(|v| usize::try_from(v).ok()).filter(|v| *v >= 1).map(|v| v - 1)
}

/// The card numbers the pile's users swipe, as the physical card field:
/// the configuration's YKC cards (hex, as the seed registers them).
fn card_field(card: &str) -> PhysicalCardNo {
    PhysicalCardNo::from_hex(&format!("{card:0>16}")).unwrap_or_default()
}

impl YkcPile {
    pub(super) fn new(cfg: Arc<SimConfig>, stats: Arc<Stats>, spec: YkcSpec, seed: u64) -> Result<YkcPile, String> {
        let pile = PileNo::from_digits(&spec.pile_no).map_err(|e| format!("YKC pile {}: {e}", spec.pile_no))?;
        let mut base = Base::new(cfg.clone(), spec.guns, seed);
        // The base's registers are Wh; the pile's are 0.0001 kWh.
        let registers = base.connectors.iter().map(|c| c.register_wh as u64 * 10).collect();
        // The base's meter step is the real-time period (its energy is
        // booked here, from the time that passed).
        base.meter_secs = cfg.ykc_timing.realtime_charging_secs.max(1);
        Ok(YkcPile { spec, pile, cfg, stats, base, registers, model: None, unconfirmed: Vec::new(), reboot_when_idle: false, pending_card: HashMap::new() })
    }

    /// For ever: connect, log in, live; reconnect after a drop (1 s,
    /// doubling up to 30 s) or at once after a reboot.
    pub(super) async fn run(mut self) {
        let mut backoff = Duration::from_secs(1);
        loop {
            match TcpStream::connect(&self.cfg.ykc_address).await {
                Ok(stream) => {
                    let _ = stream.set_nodelay(true);
                    let mut conn = Conn { stream, decoder: StreamDecoder::new(), next_seq: 0, pending: HashMap::new(), online: false, beat: Instant::now(), realtime: Vec::new() };
                    let end = self.live(&mut conn).await;
                    if conn.online {
                        self.stats.connected.fetch_sub(1, Ordering::Relaxed);
                    }
                    let _ = conn.stream.shutdown().await;
                    match end {
                        End::Reboot => {
                            backoff = Duration::from_secs(1);
                            tokio::time::sleep(Duration::from_millis(500)).await;
                            continue;
                        }
                        End::Lost(why) => {
                            if conn.online {
                                backoff = Duration::from_secs(1);
                            }
                            tracing::debug!(pile = %self.spec.pile_no, why, "YKC connection ended");
                        }
                    }
                }
                Err(e) => tracing::debug!(pile = %self.spec.pile_no, error = %e, "YKC connect failed"),
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(Duration::from_secs(30));
        }
    }

    fn login(&self) -> Message {
        Message::Login(msg::Login {
            pile: self.pile,
            pile_type: msg::PileType::Dc,
            gun_count: u8::try_from(self.spec.guns).unwrap_or(u8::MAX),
            protocol_version: self.spec.version.login_byte(),
            software_version: ykc::wire::Ascii::from_text("SIM-1.0").unwrap_or_default(),
            network: msg::NetworkType::Lan,
            sim: Default::default(),
            carrier: msg::Carrier::OtherCarrier,
        })
    }

    /// One connection: the login, then the loop of reads and ticks.
    async fn live(&mut self, c: &mut Conn) -> End {
        if let Err(e) = self.send(c, &self.login(), Some(Asked::Login)).await {
            return End::Lost(e);
        }
        let mut buf = vec![0u8; 2048];
        let mut tick = tokio::time::interval(Duration::from_millis(250));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                read = c.stream.read(&mut buf) => {
                    let n = match read {
                        Ok(0) => return End::Lost("the platform closed the connection".into()),
                        Ok(n) => n,
                        Err(e) => return End::Lost(e.to_string()),
                    };
                    c.decoder.push(&buf[..n]);
                    if let Some(end) = self.decode(c).await {
                        return end;
                    }
                }
                _ = tick.tick() => {
                    if let Some(end) = self.tick(c).await {
                        return end;
                    }
                }
            }
        }
    }

    /// Sends a frame of the pile with its next sequence number; `asked`:
    /// what its answer is waited for as.
    async fn send(&self, c: &mut Conn, message: &Message, asked: Option<Asked>) -> Result<(), String> {
        let seq = c.next_seq;
        c.next_seq = c.next_seq.wrapping_add(1);
        if let Some(asked) = asked {
            c.pending.insert(seq, Pending { asked, answer_type: answer_type(message.frame_type()), sent: Instant::now() });
            self.stats.calls.fetch_add(1, Ordering::Relaxed);
        }
        self.write(c, seq, message).await
    }

    /// Writes an answer to the platform's frame numbered `seq`.
    async fn reply(&self, c: &mut Conn, seq: u16, message: &Message) -> Result<(), String> {
        self.write(c, seq, message).await
    }

    async fn write(&self, c: &mut Conn, seq: u16, message: &Message) -> Result<(), String> {
        let frame = Frame::of(seq, message).map_err(|e| e.to_string())?;
        let bytes = frame.encode().map_err(|e| e.to_string())?;
        self.stats.frames.fetch_add(1, Ordering::Relaxed);
        c.stream.write_all(&bytes).await.map_err(|e| e.to_string())
    }

    /// A platform frame the pile cannot take: counted, logged, dropped.
    fn wrong(&self, what: String) {
        self.stats.errors.fetch_add(1, Ordering::Relaxed);
        tracing::warn!(pile = %self.spec.pile_no, "{what}");
    }

    async fn decode(&mut self, c: &mut Conn) -> Option<End> {
        loop {
            match c.decoder.decode_next() {
                Decoded::NeedMore(_) => return None,
                Decoded::Skip { count, reason } => self.wrong(format!("the platform sent {count} byte(s) that are no frame: {reason:?}")),
                Decoded::Frame(frame) => {
                    if let Some(end) = self.frame(c, frame).await {
                        return Some(end);
                    }
                }
            }
        }
    }

    async fn frame(&mut self, c: &mut Conn, frame: Frame) -> Option<End> {
        let message = match frame.message(self.spec.version) {
            Ok(m) => m,
            Err(e) => {
                self.wrong(format!("a platform frame 0x{:02X} does not decode: {e}", frame.frame_type));
                return None;
            }
        };
        if message.direction() != msg::Direction::FromPlatform {
            self.wrong(format!("the platform sent a pile's frame type 0x{:02X}", frame.frame_type));
            return None;
        }
        if let Some(p) = message.pile() {
            if *p != self.pile {
                self.wrong(format!("a platform frame {} names pile {}", message.name(), p.digits()));
                return None;
            }
        }
        // An answer to the pile's frame, or the platform's own.
        if let Some(p) = c.pending.get(&frame.seq).filter(|p| p.answer_type == frame.frame_type) {
            let (asked, sent) = (p.asked.clone(), p.sent);
            c.pending.remove(&frame.seq);
            self.stats.answered.fetch_add(1, Ordering::Relaxed);
            self.stats.latency(sent.elapsed());
            return self.answered(c, asked, message).await.err().map(End::Lost);
        }
        if matches!(frame.frame_type, 0x02 | 0x04 | 0x06 | 0x0A | 0x32 | 0x40) {
            self.wrong(format!("the platform answered {} (sequence {}) that the pile did not send", message.name(), frame.seq));
            return None;
        }
        if !c.online {
            self.wrong(format!("the platform sent {} before the login was answered", message.name()));
            return None;
        }
        self.stats.server_calls.fetch_add(1, Ordering::Relaxed);
        match self.command(c, frame.seq, message).await {
            Ok(end) => end,
            Err(e) => Some(End::Lost(e)),
        }
    }

    /// The platform answered one of the pile's frames.
    async fn answered(&mut self, c: &mut Conn, asked: Asked, message: Message) -> Result<(), String> {
        match (asked, message) {
            (Asked::Login, Message::LoginAnswer(a)) => {
                if a.result != msg::LoginResult::Accepted {
                    return Err("the login was refused".into());
                }
                c.online = true;
                self.stats.connected.fetch_add(1, Ordering::Relaxed);
                c.beat = Instant::now();
                // Every gun's state at once, then on their schedules.
                c.realtime = vec![None; self.base.connectors.len()];
                let model = self.model.as_ref().map(|(id, _)| *id).unwrap_or_default();
                self.send(c, &Message::TariffCheck(msg::TariffCheck { pile: self.pile, model }), Some(Asked::TariffCheck)).await?;
                for u in &mut self.unconfirmed {
                    u.tries = 0;
                    u.last_sent = None;
                }
                Ok(())
            }
            (Asked::Heartbeat, Message::HeartbeatAnswer(_)) => Ok(()),
            (Asked::TariffCheck, Message::TariffCheckAnswer(a)) => {
                if a.result == msg::TariffCheckResult::Same && self.model.as_ref().is_some_and(|(id, _)| *id == a.model) {
                    return Ok(());
                }
                self.send(c, &Message::TariffRequest(msg::TariffRequest { pile: self.pile }), Some(Asked::TariffRequest)).await
            }
            (Asked::TariffRequest, Message::TariffAnswer(a)) => {
                self.model = Some((a.model, a.tariff));
                Ok(())
            }
            (Asked::Start { gun }, Message::StartAnswer(a)) => {
                if gun_index(&a.gun) != Some(gun) {
                    self.wrong(format!("the start answer names gun {}, the pile asked for gun {}", a.gun, gun + 1));
                    return Ok(());
                }
                if a.authorised != Outcome::Succeeded {
                    tracing::debug!(pile = %self.spec.pile_no, refusal = ?a.refusal, "YKC card start refused");
                    return Ok(());
                }
                if a.order.bytes().iter().all(|b| *b == 0) {
                    self.wrong("an authorised start answer carries no order number".into());
                    return Ok(());
                }
                let card = self.pending_card.remove(&gun).unwrap_or_default();
                self.begin(c, gun, a.order, msg::TradeKind::Card, card).await
            }
            (Asked::Record { order }, Message::TransactionConfirm(a)) => {
                if a.order != order {
                    self.wrong(format!("the record of {} was confirmed as {}", order.digits(), a.order.digits()));
                    return Ok(());
                }
                if a.result != msg::ConfirmResult::Accepted {
                    self.wrong(format!("the record of {} was confirmed as {:?}", order.digits(), a.result));
                }
                self.unconfirmed.retain(|u| u.record.order != order);
                Ok(())
            }
            (asked, message) => {
                self.wrong(format!("{asked:?} was answered with {}", message.name()));
                Ok(())
            }
        }
    }

    /// A frame the platform starts: its answer, and what it asks for.
    async fn command(&mut self, c: &mut Conn, seq: u16, message: Message) -> Result<Option<End>, String> {
        let pile = self.pile;
        match message {
            Message::TimeSync(t) => {
                // The pile's clock is set: it answers with its time after the sync.
                self.reply(c, seq, &Message::TimeSyncAnswer(msg::TimeSyncAnswer { pile, time: t.time })).await?;
            }
            Message::TariffSet(t) => {
                self.model = Some((t.model, t.tariff));
                self.reply(c, seq, &Message::TariffSetAnswer(msg::TariffSetAnswer { pile, result: Outcome::Succeeded })).await?;
            }
            Message::ReadRealtime(r) => match gun_index(&r.gun).filter(|g| *g < self.base.connectors.len()) {
                Some(g) => {
                    // The answer is the data itself, under the request's number.
                    let rt = self.realtime(g);
                    self.reply(c, seq, &rt).await?;
                }
                None => self.wrong(format!("the platform read the data of gun {}, which the pile does not have", r.gun)),
            },
            Message::RemoteStart(r) => {
                let gun = gun_index(&r.gun).filter(|g| *g < self.base.connectors.len());
                let failure = match gun {
                    None => Some(msg::RemoteStartFailure::PileMismatch),
                    Some(g) if self.base.connectors[g].session.is_some() => Some(msg::RemoteStartFailure::AlreadyCharging),
                    Some(_) if self.model.is_none() => Some(msg::RemoteStartFailure::Fault),
                    Some(_) => None,
                };
                let result = if failure.is_none() { Outcome::Succeeded } else { Outcome::Failed };
                let answer = msg::RemoteStartAnswer { order: r.order, pile, gun: r.gun, result, failure: failure.unwrap_or(msg::RemoteStartFailure::None) };
                self.reply(c, seq, &Message::RemoteStartAnswer(answer)).await?;
                if let (Some(g), None) = (gun, failure) {
                    self.begin(c, g, r.order, msg::TradeKind::App, r.physical_card).await?;
                }
            }
            Message::RemoteStop(r) => {
                let gun = gun_index(&r.gun).filter(|g| *g < self.base.connectors.len());
                let failure = match gun {
                    None => Some(msg::RemoteStopFailure::PileMismatch),
                    Some(g) if self.base.connectors[g].session.is_none() => Some(msg::RemoteStopFailure::NotCharging),
                    Some(_) => None,
                };
                let result = if failure.is_none() { Outcome::Succeeded } else { Outcome::Failed };
                let answer = msg::RemoteStopAnswer { pile, gun: r.gun, result, failure: failure.unwrap_or(msg::RemoteStopFailure::None) };
                self.reply(c, seq, &Message::RemoteStopAnswer(answer)).await?;
                if let (Some(g), None) = (gun, failure) {
                    // 0x40: ended by the platform (the app).
                    self.stop(c, g, msg::StopReason(0x40)).await?;
                }
            }
            Message::Reboot(r) => {
                self.reply(c, seq, &Message::RebootAnswer(msg::RebootAnswer { pile, result: Outcome::Succeeded })).await?;
                match r.when {
                    msg::When::WhenIdle if self.base.charging() => self.reboot_when_idle = true,
                    _ => {
                        // Now: the sessions end (0x46, "other ways"), their records go first.
                        for g in 0..self.base.connectors.len() {
                            if self.base.connectors[g].session.is_some() {
                                self.stop(c, g, msg::StopReason(0x46)).await?;
                            }
                        }
                        return Ok(Some(self.restart(c).await));
                    }
                }
            }
            Message::WorkParams(w) => {
                // Locked: the guns stop taking sessions (their data says fault); allowed: back in service.
                let allowed = w.allowed == msg::WorkAllowed::Allowed;
                for conn in &mut self.base.connectors {
                    conn.available = allowed;
                }
                c.realtime = vec![None; self.base.connectors.len()];
                self.reply(c, seq, &Message::WorkParamsAnswer(msg::WorkParamsAnswer { pile, result: Outcome::Succeeded })).await?;
            }
            Message::Update(_) => {
                // The simulated pile has no firmware to fetch: it says it is up to date.
                self.reply(c, seq, &Message::UpdateAnswer(msg::UpdateAnswer { pile, status: msg::UpdateStatus::Updated })).await?;
            }
            Message::OfflineCardSync(_) => {
                self.reply(c, seq, &Message::OfflineCardSyncAnswer(msg::OfflineCardSyncAnswer { pile, saved: Outcome::Succeeded, failure: msg::SyncFailure::None })).await?;
            }
            Message::OfflineCardClear(list) => {
                let entries = list.entries.iter().map(|card| msg::ClearResult { physical_card: *card, cleared: Outcome::Succeeded, failure: 0 }).collect();
                self.reply(c, seq, &Message::OfflineCardClearAnswer(msg::OfflineCardClearAnswer { pile, entries })).await?;
            }
            other => {
                // A command the simulated pile does not carry out: unanswered, counted.
                self.stats.refused_server_calls.fetch_add(1, Ordering::Relaxed);
                tracing::debug!(pile = %self.spec.pile_no, frame = other.name(), "YKC command not simulated");
            }
        }
        Ok(None)
    }

    /// A reboot: what was sent is flushed (a record waits for the next
    /// connection: the pile keeps it), then the connection ends.
    async fn restart(&mut self, c: &mut Conn) -> End {
        let _ = c.stream.flush().await;
        self.reboot_when_idle = false;
        End::Reboot
    }

    /// Gun `g` starts charging under `order`.
    async fn begin(&mut self, c: &mut Conn, g: usize, order: OrderNo, kind: msg::TradeKind, card: PhysicalCardNo) -> Result<(), String> {
        let Some((_, model)) = self.model.clone() else { return Ok(()) };
        if self.base.connectors[g].session.is_some() {
            return Ok(());
        }
        let tx = Tx { order, kind, card, started: china_now(), model, meter_start: self.registers[g], tiers: [0; 4], carry: 0.0, accrued: Instant::now() };
        self.base.begin(g, tx);
        // The state changed: the data goes at once.
        let rt = self.realtime(g);
        self.send(c, &rt, None).await?;
        c.realtime[g] = Some(Instant::now());
        Ok(())
    }

    /// Books gun `g`'s energy since the last time on the register, under
    /// the rate of the half hour it is in.
    fn accrue(&mut self, g: usize) {
        let Some(s) = self.base.connectors[g].session.as_mut() else { return };
        let now = Instant::now();
        let hours = now.duration_since(s.tx.accrued).as_secs_f64() / 3600.0;
        s.tx.accrued = now;
        // W × h = Wh; 0.0001 kWh = 0.1 Wh.
        let e4 = s.power_w * hours * 10.0 + s.tx.carry;
        let whole = e4.floor();
        s.tx.carry = e4 - whole;
        let at = china_now();
        let slot = s.tx.model.slot_at(at.hour(), at.minute()).map(rate_slot).unwrap_or(2);
        s.tx.tiers[slot] += whole as u64;
        s.soc = (s.soc + s.power_w * hours / 600.0).min(100.0);
        self.registers[g] += whole as u64;
    }

    /// The bill of a session's energy per rate, as the pile computes it:
    /// each line at electricity + service, `PriceE5::amount`, the total their sum.
    fn lines(tx: &Tx) -> ([msg::TierLine; 4], YuanE4) {
        let rates = [&tx.model.sharp, &tx.model.peak, &tx.model.flat, &tx.model.valley];
        let mut total = 0u32;
        let lines = std::array::from_fn(|i| {
            let price = PriceE5(rates[i].electricity.0.saturating_add(rates[i].service.0));
            let energy = KwhE4(u32::try_from(tx.tiers[i]).unwrap_or(u32::MAX));
            let amount = price.amount(energy);
            total = total.saturating_add(amount.0);
            msg::TierLine { price, energy, loss_energy: energy, amount }
        });
        (lines, YuanE4(total))
    }

    /// Gun `g`'s real-time data now.
    fn realtime(&mut self, g: usize) -> Message {
        self.accrue(g);
        let pile = self.pile;
        let gun = gun_no(g);
        let connector = &self.base.connectors[g];
        let rt = match &connector.session {
            Some(s) => {
                let energy: u64 = s.tx.tiers.iter().sum();
                let (_, amount) = Self::lines(&s.tx);
                let current_da = (s.power_w / f64::from(VOLTAGE_DV) * 100.0).round().clamp(0.0, f64::from(u16::MAX)) as u16;
                let minutes = (china_now() - s.tx.started).whole_minutes().clamp(0, i64::from(u16::MAX)) as u16;
                let left = s.ends.saturating_duration_since(Instant::now()).as_secs() / 60;
                msg::Realtime {
                    order: s.tx.order,
                    pile,
                    gun,
                    state: msg::GunState::Charging,
                    holstered: msg::Holstered::No,
                    plugged: msg::YesNo::Yes,
                    voltage_dv: VOLTAGE_DV,
                    current_da,
                    gun_temp: 50 + 30,
                    gun_line_code: Default::default(),
                    soc: s.soc.round() as u8,
                    battery_max_temp: 50 + 28,
                    charged_minutes: minutes,
                    remaining_minutes: u16::try_from(left).unwrap_or(u16::MAX),
                    energy: KwhE4(u32::try_from(energy).unwrap_or(u32::MAX)),
                    loss_energy: KwhE4(u32::try_from(energy).unwrap_or(u32::MAX)),
                    amount,
                    faults: 0,
                }
            }
            None => msg::Realtime {
                order: OrderNo::default(),
                pile,
                gun,
                state: if connector.available { msg::GunState::Idle } else { msg::GunState::Fault },
                holstered: msg::Holstered::Yes,
                plugged: msg::YesNo::No,
                voltage_dv: 0,
                current_da: 0,
                gun_temp: 0,
                gun_line_code: Default::default(),
                soc: 0,
                battery_max_temp: 0,
                charged_minutes: 0,
                remaining_minutes: 0,
                energy: KwhE4(0),
                loss_energy: KwhE4(0),
                amount: YuanE4(0),
                faults: 0,
            },
        };
        Message::Realtime(rt)
    }

    /// Gun `g`'s session ends for `reason`: the gun's idle data, then the
    /// transaction record (kept until confirmed).
    async fn stop(&mut self, c: &mut Conn, g: usize, reason: msg::StopReason) -> Result<(), String> {
        self.accrue(g);
        let Some(session) = self.base.finish(g) else { return Ok(()) };
        let tx = session.tx;
        let rt = self.realtime(g);
        self.send(c, &rt, None).await?;
        c.realtime[g] = Some(Instant::now());
        let (lines, amount) = Self::lines(&tx);
        let energy: u64 = tx.tiers.iter().sum();
        let [sharp, peak, flat, valley] = lines;
        let end = china_now();
        let record = msg::TransactionRecord {
            order: tx.order,
            pile: self.pile,
            gun: gun_no(g),
            start: cp56(tx.started),
            end: cp56(end),
            sharp,
            peak,
            flat,
            valley,
            meter_start: ykc::wire::UInt::new(tx.meter_start).unwrap_or_default(),
            meter_stop: ykc::wire::UInt::new(tx.meter_start + energy).unwrap_or_default(),
            energy: KwhE4(u32::try_from(energy).unwrap_or(u32::MAX)),
            loss_energy: KwhE4(u32::try_from(energy).unwrap_or(u32::MAX)),
            amount,
            vin: Default::default(),
            trade_kind: tx.kind,
            traded_at: cp56(end),
            stop_reason: reason,
            physical_card: tx.card,
        };
        self.unconfirmed.push(Unconfirmed { record, tries: 0, last_sent: None });
        self.send_records(c).await
    }

    /// Sends each record due: never sent on this connection, or sent
    /// `RECORD_RESEND` ago without a confirmation (three times at most).
    async fn send_records(&mut self, c: &mut Conn) -> Result<(), String> {
        let now = Instant::now();
        let mut due = Vec::new();
        for u in &mut self.unconfirmed {
            if u.tries < RECORD_TRIES && u.last_sent.is_none_or(|t| now.duration_since(t) >= RECORD_RESEND) {
                u.tries += 1;
                u.last_sent = Some(now);
                due.push(u.record.clone());
            }
        }
        for record in due {
            let order = record.order;
            // A record sent again replaces the wait for its earlier copy.
            c.pending.retain(|_, p| !matches!(&p.asked, Asked::Record { order: o } if *o == order));
            self.send(c, &Message::TransactionRecord(record), Some(Asked::Record { order })).await?;
        }
        Ok(())
    }

    /// A card for the next session at the pile.
    fn card(&mut self) -> String {
        use rand::Rng;
        let cards = &self.cfg.ykc_cards;
        if cards.is_empty() {
            return "CA000001".into();
        }
        cards[self.base.rng.gen_range(0..cards.len())].clone()
    }

    /// Every 250 ms: heartbeats, records, sessions due, real-time data, a
    /// reboot once idle, and answers that did not come.
    async fn tick(&mut self, c: &mut Conn) -> Option<End> {
        let now = Instant::now();
        if let Some((_, p)) = c.pending.iter().find(|(_, p)| !matches!(p.asked, Asked::Record { .. }) && now.duration_since(p.sent) > ANSWER_TIMEOUT) {
            let why = format!("no answer to {:?} within {} s", p.asked, ANSWER_TIMEOUT.as_secs());
            self.wrong(why.clone());
            return Some(End::Lost(why));
        }
        c.pending.retain(|_, p| now.duration_since(p.sent) <= ANSWER_TIMEOUT * 4);
        if !c.online {
            return None;
        }
        match self.schedule(c, now).await {
            Ok(end) => end,
            Err(e) => Some(End::Lost(e)),
        }
    }

    async fn schedule(&mut self, c: &mut Conn, now: Instant) -> Result<Option<End>, String> {
        let timing = self.cfg.ykc_timing.clone();
        if now.duration_since(c.beat) >= Duration::from_secs(timing.heartbeat_secs.max(1)) {
            c.beat = now;
            for g in 0..self.base.connectors.len() {
                let hb = Message::Heartbeat(msg::Heartbeat { pile: self.pile, gun: gun_no(g), gun_status: msg::GunHealth::Normal });
                self.send(c, &hb, Some(Asked::Heartbeat)).await?;
            }
        }
        self.send_records(c).await?;
        if self.reboot_when_idle && !self.base.charging() {
            return Ok(Some(self.restart(c).await));
        }
        let model = self.model.is_some();
        for due in self.base.due(now) {
            match due {
                // Without a tariff model the pile does not charge.
                Due::Start(g) if model && !c.pending.values().any(|p| matches!(p.asked, Asked::Start { gun } if gun == g)) => {
                    // The next try comes after an idle time whatever the answer.
                    self.base.later(g);
                    let card = self.card();
                    let field = card_field(&card);
                    self.pending_card.insert(g, field);
                    let start = msg::StartRequest {
                        pile: self.pile,
                        gun: gun_no(g),
                        mode: msg::StartMode::Card,
                        needs_password: msg::YesNoByte::No,
                        card: field,
                        password_md5: Default::default(),
                        vin_reversed: Default::default(),
                    };
                    self.send(c, &Message::StartRequest(start), Some(Asked::Start { gun: g })).await?;
                }
                Due::Start(_) => {}
                // 0x45: a manual stop (the driver ends it at the pile).
                Due::End(g) => self.stop(c, g, msg::StopReason(0x45)).await?,
            }
        }
        for g in 0..self.base.connectors.len() {
            let every = if self.base.connectors[g].session.is_some() { timing.realtime_charging_secs } else { timing.realtime_idle_secs };
            if c.realtime[g].is_none_or(|t| now.duration_since(t) >= Duration::from_secs(every.max(1))) {
                let rt = self.realtime(g);
                self.send(c, &rt, None).await?;
                c.realtime[g] = Some(now);
            }
        }
        Ok(None)
    }
}

/// One TCP connection of a pile.
struct Conn {
    stream: TcpStream,
    decoder: StreamDecoder,
    /// The pile's own frames number from 0 on each connection and wrap.
    next_seq: u16,
    pending: HashMap<u16, Pending>,
    /// The login was accepted.
    online: bool,
    beat: Instant,
    /// When each gun's real-time data last went (None: not yet on this connection).
    realtime: Vec<Option<Instant>>,
}
