//! The back-office as the platform of the YKC (Yunkuaichong) protocol: what each
//! frame a pile sends does here, over the same records as OCPP (the link,
//! connector statuses, sessions as orders, the command queue, the message
//! log). The `ykc` crate beneath is the protocol alone; a transport (the
//! gateway's TCP listener) feeds it bytes and calls [`PileLink`] with each
//! message, writing the answers it returns.
//!
//! The mapping onto the product:
//! - a pile logs in with its 14-digit number (the pile's `code`) and the
//!   version its record declares; a login is its boot (the queue held by a
//!   reboot goes on);
//! - gun N is connector N; the real-time data's state is the connector's
//!   status, its energy the order's curve;
//! - the platform makes the 32-digit order number of each session (pile,
//!   gun, time, a sequence) and keeps it as the transaction's charger id;
//! - the transaction record closes the order, priced by the product from
//!   the record's energy per tier, and the pile's own amount is compared.

pub mod calls;
pub mod tariff_model;

use std::collections::HashMap;

use charging::orders::{ChargerProblem, StopReason};
use charging::pricing::TierEnergy;
use envelope::ApiError;
use serde_json::{json, Value};
use ykc::msg::{self, GunHealth, GunState, Message, OrderNo, Outcome, StartRefusal};
use ykc::units::{Fen as YkcFen, KwhE4};

use super::log::{self, Direction, LoggedError, MessageLogEntry};
use super::sessions::{self, Billed, Reading, StartRequest, StopRequest, Stopped};
use super::status::{self, StatusReport};
use super::{commands, link};
use crate::ctx::AppCtx;
use crate::domain::assets::piles::{find_by_code, Pile, RegistrationStatus};
use crate::domain::assets::{stations, tariffs};
use crate::domain::cards::{self, CardPayment, CardStatus};

/// The YKC version a pile's record declares (None: the pile speaks OCPP).
pub fn version(pile: &Pile) -> Option<ykc::Version> {
    match pile.ocpp_version {
        charging::pile::OcppVersion::Ykc15 => Some(ykc::Version::V1_5),
        charging::pile::OcppVersion::Ykc16 => Some(ykc::Version::V1_6),
        _ => None,
    }
}

/// The link record's protocol name of a YKC version.
pub fn protocol_name(v: ykc::Version) -> &'static str {
    match v {
        ykc::Version::V1_5 => "ykc1.5",
        ykc::Version::V1_6 => "ykc1.6",
    }
}

/// A message's name in the codec's catalogue (`Login`, `Realtime`, ...):
/// the message log's action.
pub fn action_name(message: &Message) -> String {
    message.name().to_string()
}

/// A message's fields for the log.
pub fn fields(message: &Message) -> Value {
    match serde_json::to_value(message) {
        Ok(mut v) => v["fields"].take(),
        Err(_) => Value::Null,
    }
}

/// Every action a YKC pile's log can hold, for the log's filter.
pub fn logged_actions() -> Vec<&'static str> {
    // The pile's frames (odd types) and the platform's commands, which
    // are logged under the command's frame.
    let commands = calls::COMMANDS.iter().copied().chain([TIME_SYNC]);
    let mut names: Vec<&'static str> = msg::FRAME_TYPES
        .iter()
        .filter(|(code, _)| code % 2 == 1)
        .filter_map(|(code, _)| msg::frame_type_message_name(*code))
        .chain(commands)
        .collect();
    names.sort();
    names
}

/// The time sync's action in the log.
pub const TIME_SYNC: &str = "TimeSync";

/// Why a login is refused (logged; the pile only hears "refused").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoginRefusal {
    UnknownPile,
    NotYkc,
    OtherVersion { registered: &'static str },
    Rejected,
}

impl LoginRefusal {
    pub fn describe(&self) -> String {
        match self {
            LoginRefusal::UnknownPile => "no pile has this number".into(),
            LoginRefusal::NotYkc => "the pile is registered for OCPP".into(),
            LoginRefusal::OtherVersion { registered } => format!("the pile is registered for {registered}"),
            LoginRefusal::Rejected => "the pile's registration is Rejected".into(),
        }
    }
}

/// Looks a logging-in pile up: known, registered for YKC in the version
/// it declares, and not held back by the operator. A refused pile that is
/// registered comes back with the refusal, so its log can say why.
pub async fn login(ctx: &AppCtx, login: &msg::Login, declared: ykc::Version) -> Result<Result<Pile, (LoginRefusal, Option<Pile>)>, ApiError> {
    let Some(pile) = find_by_code(ctx, &login.pile.digits()).await? else { return Ok(Err((LoginRefusal::UnknownPile, None))) };
    let Some(registered) = version(&pile) else { return Ok(Err((LoginRefusal::NotYkc, Some(pile)))) };
    if registered != declared {
        return Ok(Err((LoginRefusal::OtherVersion { registered: protocol_name(registered) }, Some(pile))));
    }
    if pile.registration_status == RegistrationStatus::Rejected {
        return Ok(Err((LoginRefusal::Rejected, Some(pile))));
    }
    Ok(Ok(pile))
}

/// The time sync sent after each login: the platform's clock, China time.
pub fn time_sync(pile: &msg::PileNo, now_ms: i64) -> Message {
    Message::TimeSync(msg::TimeSync { pile: *pile, time: cp56(now_ms) })
}

fn cp56(at_ms: i64) -> ykc::wire::Cp56Time2a {
    let offset = time::UtcOffset::from_whole_seconds(charging::pricing::CHINA_UTC_OFFSET_SECS).unwrap_or(time::UtcOffset::UTC);
    let at = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(at_ms) * 1_000_000).unwrap_or(time::OffsetDateTime::UNIX_EPOCH).to_offset(offset);
    ykc::wire::Cp56Time2a::from_datetime(time::PrimitiveDateTime::new(at.date(), at.time())).unwrap_or_default()
}

/// A pile's CP56Time2a (China time) as Unix seconds, when it is a real time.
fn unix(t: &ykc::wire::Cp56Time2a) -> Option<i64> {
    let offset = time::UtcOffset::from_whole_seconds(charging::pricing::CHINA_UTC_OFFSET_SECS).ok()?;
    t.to_datetime().map(|d| d.assume_offset(offset).unix_timestamp())
}

/// A YKC energy (0.0001 kWh) in Wh, rounded half up.
fn wh(e: KwhE4) -> i64 {
    (i64::from(e.0) + 5) / 10
}

/// A meter register (0.0001 kWh, 5 bytes) in Wh.
fn register_wh(e4: u64) -> i64 {
    i64::try_from(e4.saturating_add(5) / 10).unwrap_or(i64::MAX)
}

/// A connector status of the real-time data's gun state.
fn gun_status(state: GunState, plugged: bool) -> Option<&'static str> {
    Some(match state {
        GunState::Offline => "Unavailable",
        GunState::Fault => "Faulted",
        GunState::Idle if plugged => "Preparing",
        GunState::Idle => "Available",
        GunState::Charging => "Charging",
        GunState::Other(_) => return None,
    })
}

/// The product's stop reason of the record's (appendix 13.1).
pub fn stop_reason(code: msg::StopReason) -> StopReason {
    match code.0 {
        0x40 => StopReason::RemoteStop,
        0x41 => StopReason::Full,
        0x42..=0x44 => StopReason::LimitReached,
        0x45 => StopReason::UserCard,
        0x4E | 0x6E => StopReason::InsufficientBalance,
        0x50 | 0x72 => StopReason::EmergencyStop,
        0x4B | 0x6B => StopReason::Unplugged,
        0x83 => StopReason::PowerLoss,
        0x52 | 0x59..=0x63 | 0x79..=0x82 => StopReason::VehicleFault,
        0x84..=0x89 => StopReason::CommunicationLost,
        0x4A..=0x8F => StopReason::ChargerFault,
        _ => StopReason::Other,
    }
}

/// The last state a gun reported on this connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct GunSeen {
    status: &'static str,
}

/// One logged-in pile's connection, as the transport holds it: the pile,
/// the connection, and what was already written (so a frame that repeats
/// the state writes nothing).
pub struct PileLink {
    pub pile: Pile,
    pub connection_id: String,
    pub version: ykc::Version,
    guns: HashMap<u32, GunSeen>,
    /// When the pile's last-seen time was last written (Unix seconds).
    seen_written: i64,
    /// Transaction ids by YKC order number (the real-time data names the order).
    transactions: HashMap<String, i64>,
    /// The time of each transaction's last curve point: real-time data has
    /// no time of its own (it is stamped on arrival, in seconds), so a
    /// second frame within the same second goes one second later instead
    /// of being taken for a repeat of the first.
    last_reading: HashMap<i64, i64>,
}

/// What the transport does with a message's outcome.
pub struct Handled {
    /// The answer to write (with the message's sequence number).
    pub answer: Option<Message>,
}

impl PileLink {
    /// Records the connection as the pile's current one (a login is its
    /// boot: a queue held for a reboot goes on) and returns the link.
    pub async fn open(ctx: &AppCtx, pile: Pile, version: ykc::Version, connection_id: &str, remote: &str, at_ms: i64) -> Result<PileLink, ApiError> {
        let c = link::Connection {
            connection_id: connection_id.into(),
            pile_id: pile.id.clone(),
            protocol: protocol_name(version).into(),
            connected_at_ms: at_ms,
            queue_started: true,
            pending: false,
            remote_address: remote.into(),
            instance: None,
            close_requested: false,
        };
        link::connected(ctx, &pile, &c, remote).await?;
        Ok(PileLink { pile, connection_id: connection_id.into(), version, guns: HashMap::new(), seen_written: ctx.now(), transactions: HashMap::new(), last_reading: HashMap::new() })
    }

    /// Sends what is queued for the pile (after the login's answer is written).
    pub async fn start_queue(&self, ctx: &AppCtx) -> Result<(), ApiError> {
        commands::pump(ctx, &self.pile.id, commands::Wake::Booted).await
    }

    /// The connection ended: the pile shows disconnected (if this was its
    /// current connection) and a command sent on it ends at once.
    pub async fn close(&self, ctx: &AppCtx) -> Result<(), ApiError> {
        link::disconnected(ctx, &self.pile.id, &self.connection_id).await?;
        commands::connection_ended(ctx, &self.pile.id, &self.connection_id).await
    }

    /// Any frame from the pile: its online state follows (written at most
    /// once per half heartbeat interval: a pile sends one heartbeat per gun
    /// every 10 s).
    async fn seen(&mut self, ctx: &AppCtx) -> Result<(), ApiError> {
        let now = ctx.now();
        if now - self.seen_written >= (self.pile.heartbeat_interval_secs / 2).max(1) {
            link::seen(ctx, &self.pile.id, now).await?;
            self.seen_written = now;
        }
        Ok(())
    }

    async fn gun_state(&mut self, ctx: &AppCtx, gun: u32, status: &'static str, error: &str) -> Result<(), ApiError> {
        if self.guns.get(&gun).is_some_and(|g| g.status == status) {
            return Ok(());
        }
        let r = StatusReport { connector: gun, status: status.into(), error_code: error.into(), at: ctx.now(), keeps_session_state: false };
        status::apply(ctx, &self.pile, &r).await?;
        self.guns.insert(gun, GunSeen { status });
        Ok(())
    }

    /// A message from the pile: what it changes, and the answer.
    pub async fn handle(&mut self, ctx: &AppCtx, message: &Message) -> Result<Handled, ApiError> {
        self.seen(ctx).await?;
        let answer = match message {
            Message::Heartbeat(h) => {
                if h.gun_status == GunHealth::Fault {
                    self.gun_state(ctx, gun_number(&h.gun), "Faulted", "gun fault (heartbeat)").await?;
                }
                Some(Message::HeartbeatAnswer(h.answer()))
            }
            Message::TariffCheck(c) => {
                let current = self.tariff(ctx).await?;
                let same = current.as_ref().is_some_and(|(id, _)| *id == c.model);
                let model = current.map(|(id, _)| id).unwrap_or(c.model);
                let result = if same { msg::TariffCheckResult::Same } else { msg::TariffCheckResult::Differs };
                Some(Message::TariffCheckAnswer(msg::TariffCheckAnswer { pile: c.pile, model, result }))
            }
            Message::TariffRequest(r) => match self.tariff(ctx).await? {
                Some((model, tariff)) => Some(Message::TariffAnswer(msg::TariffAnswer { pile: r.pile, model, tariff })),
                // Without a tariff the pile cannot charge: it asks again.
                None => {
                    tracing::warn!(pile = %self.pile.code, "a YKC pile asked for its tariff, but its station has none");
                    None
                }
            },
            Message::Realtime(rt) => {
                self.realtime(ctx, rt).await?;
                None
            }
            Message::StartRequest(s) => Some(Message::StartAnswer(self.card_start(ctx, s).await?)),
            Message::TransactionRecord(r) => Some(self.record(ctx, r).await?),
            Message::ParallelStartRequest(p) => Some(Message::ParallelStartAnswer(msg::ParallelStartAnswer {
                order: OrderNo::from_bytes([0; 16]),
                pile: p.pile,
                gun: p.gun,
                logical_card: msg::LogicalCardNo::from_bytes([0; 8]),
                balance: YkcFen(0),
                authorised: Outcome::Failed,
                // Parallel charging is not offered: the pile charges each gun on its own.
                refusal: StartRefusal::NotAllowedOnPile,
                parallel_no: p.parallel_no,
            })),
            _ => None,
        };
        Ok(Handled { answer })
    }

    /// The station's tariff in force as the pile's model, with its id.
    async fn tariff(&self, ctx: &AppCtx) -> Result<Option<(msg::TariffModelId, msg::TariffModel)>, ApiError> {
        let station = stations::get(ctx, &self.pile.station_id).await?;
        if station.tariff_id.is_empty() {
            return Ok(None);
        }
        Ok(tariffs::find(ctx, &station.tariff_id).await?.map(|t| (tariff_model::model_id(&t.template.id, t.template.version), tariff_model::model(&t.template))))
    }

    async fn transaction_of(&mut self, ctx: &AppCtx, order: &OrderNo) -> Result<Option<i64>, ApiError> {
        let no = order.digits();
        if let Some(id) = self.transactions.get(&no) {
            return Ok(Some(*id));
        }
        let found = sessions::started_by_charger(ctx, &self.pile.id, &no).await?.map(|t| t.transaction_id);
        if let Some(id) = found {
            self.transactions.insert(no, id);
        }
        Ok(found)
    }

    async fn realtime(&mut self, ctx: &AppCtx, rt: &msg::Realtime) -> Result<(), ApiError> {
        let gun = gun_number(&rt.gun);
        if let Some(status) = gun_status(rt.state, rt.plugged == msg::YesNo::Yes) {
            let error = if rt.faults != 0 { format!("faults 0x{:04X}", rt.faults) } else { "NoError".into() };
            self.gun_state(ctx, gun, status, &error).await?;
        }
        if rt.state != GunState::Charging || rt.order.bytes().iter().all(|b| *b == 0) {
            return Ok(());
        }
        let Some(tx) = self.transaction_of(ctx, &rt.order).await? else { return Ok(()) };
        let at = match self.last_reading.get(&tx) {
            Some(last) if *last >= ctx.now() => last + 1,
            _ => ctx.now(),
        };
        self.last_reading.insert(tx, at);
        let reading = Reading {
            at,
            register_wh: Some(wh(rt.energy)),
            // 0.1 V × 0.1 A.
            power_w: Some(i64::from(rt.voltage_dv) * i64::from(rt.current_da) / 100),
            soc: (rt.soc > 0).then_some(rt.soc),
        };
        sessions::meter(ctx, &self.pile, gun, Some(tx), &[reading]).await?;
        Ok(())
    }

    /// 0x31: a card at the pile. A usable card gets an order number and
    /// its session opens now (the pile starts on this answer).
    async fn card_start(&mut self, ctx: &AppCtx, s: &msg::StartRequest) -> Result<msg::StartAnswer, ApiError> {
        let gun = gun_number(&s.gun);
        let tag = calls::id_tag(&s.card);
        let refuse = |refusal| msg::StartAnswer {
            order: OrderNo::from_bytes([0; 16]),
            pile: s.pile,
            gun: s.gun,
            logical_card: msg::LogicalCardNo::from_bytes([0; 8]),
            balance: YkcFen(0),
            authorised: Outcome::Failed,
            refusal,
        };
        if s.mode != msg::StartMode::Card {
            return Ok(refuse(StartRefusal::UnknownAccount));
        }
        if gun == 0 || gun > self.pile.connector_count {
            return Ok(refuse(StartRefusal::NotAllowedOnPile));
        }
        if self.pile.registration_status != RegistrationStatus::Accepted {
            return Ok(refuse(StartRefusal::PileDisabled));
        }
        let view = cards::get_view(ctx, &tag).await?;
        let minimum = charging::Fen(crate::domain::operations::current(ctx).await?.prepaid_minimum_fen);
        let judged = cards::judge(view.as_ref(), ctx.now(), minimum);
        let prepaid = view.as_ref().is_some_and(|v| v.wallet.payment == CardPayment::Prepaid);
        match judged.status {
            CardStatus::Accepted => {}
            CardStatus::Invalid => return Ok(refuse(StartRefusal::UnknownAccount)),
            CardStatus::Blocked if prepaid && view.as_ref().is_some_and(|v| v.card.status == CardStatus::Accepted) => return Ok(refuse(StartRefusal::InsufficientBalance)),
            CardStatus::Blocked | CardStatus::Expired => return Ok(refuse(StartRefusal::AccountFrozen)),
        }
        // A repeated request (its answer was lost) gets the session it opened.
        if let Some(open) = sessions::open_on(ctx, &self.pile.id, gun).await? {
            let same_card = open.id_tag.eq_ignore_ascii_case(&tag);
            match (same_card, open.charger_transaction_id.as_deref().map(OrderNo::from_digits)) {
                (true, Some(Ok(order))) => return Ok(self.started(s, order, &tag, view.as_ref())),
                _ => return Ok(refuse(StartRefusal::PileHasUnsettledOrder)),
            }
        }
        let order = new_order_no(ctx, &s.pile, gun).await?;
        let started = self.open_session(ctx, gun, &tag, &order, ctx.now(), Some(view.clone())).await?;
        if started.id_tag_info.status != CardStatus::Accepted {
            // Another session took the card's balance meanwhile: the order
            // shows the unauthorised start; the pile is told no.
            return Ok(refuse(StartRefusal::InsufficientBalance));
        }
        Ok(self.started(s, order, &tag, view.as_ref()))
    }

    fn started(&self, s: &msg::StartRequest, order: OrderNo, tag: &str, view: Option<&cards::CardView>) -> msg::StartAnswer {
        let balance = balance_for_pile(view);
        msg::StartAnswer {
            order,
            pile: s.pile,
            gun: s.gun,
            logical_card: msg::LogicalCardNo::from_digits(&calls::logical_card(tag)).unwrap_or(msg::LogicalCardNo::from_bytes([0; 8])),
            balance: YkcFen(u32::try_from(balance).unwrap_or(u32::MAX)),
            authorised: Outcome::Succeeded,
            refusal: StartRefusal::None,
        }
    }

    /// Opens the order of a session the platform numbered `order`.
    /// Opens the session of an order number on a gun; `seen` is the card
    /// as the caller has just read it (None: read it now).
    async fn open_session(&mut self, ctx: &AppCtx, gun: u32, tag: &str, order: &OrderNo, at: i64, seen: Option<Option<cards::CardView>>) -> Result<sessions::Started, ApiError> {
        let r = StartRequest {
            connector: gun,
            id_tag: tag.to_string(),
            meter_start: 0,
            timestamp_text: at.to_string(),
            timestamp: Some(at),
            reservation_id: None,
            charger_transaction_id: Some(order.digits()),
        };
        let by = match seen {
            Some(view) => sessions::StartedBy::Seen(view),
            None => sessions::StartedBy::IdTag,
        };
        let started = sessions::start_by(ctx, &self.pile, &r, by).await?;
        self.transactions.insert(order.digits(), started.transaction_id);
        Ok(started)
    }

    /// 0x3B: the pile's bill closes the order (once per order number); a
    /// record of a session never started here still makes an order, flagged.
    /// Always confirmed: a pile sends an unconfirmed record again.
    async fn record(&mut self, ctx: &AppCtx, r: &msg::TransactionRecord) -> Result<Message, ApiError> {
        let confirm = Message::TransactionConfirm(msg::TransactionConfirm { order: r.order, result: msg::ConfirmResult::Accepted });
        let gun = gun_number(&r.gun);
        if gun == 0 || gun > self.pile.connector_count {
            tracing::warn!(pile = %self.pile.code, gun, "a YKC transaction record names a gun the pile does not have");
            return Ok(Message::TransactionConfirm(msg::TransactionConfirm { order: r.order, result: msg::ConfirmResult::Illegal }));
        }
        let start = unix(&r.start);
        let end = unix(&r.end);
        let (tx, unknown) = match self.transaction_of(ctx, &r.order).await? {
            Some(id) => (id, false),
            None => {
                let started = self.open_session(ctx, gun, &calls::id_tag(&r.physical_card), &r.order, start.unwrap_or_else(|| ctx.now()), None).await?;
                (started.transaction_id, true)
            }
        };
        let energy = TierEnergy { sharp: wh(r.sharp.energy), peak: wh(r.peak.energy), flat: wh(r.flat.energy), valley: wh(r.valley.energy) };
        // Piles without a meter register send zeros: the order then counts from 0.
        let registers = (register_wh(r.meter_start.get()), register_wh(r.meter_stop.get()));
        let registers_wh = (registers.1 > 0 && registers.1 >= registers.0).then_some(registers);
        let billed = Billed { energy, reason: stop_reason(r.stop_reason), registers_wh };
        let total = energy.sharp + energy.peak + energy.flat + energy.valley;
        let stop = StopRequest { transaction_id: tx, meter_stop: Some(total), timestamp: end, reason: None, readings: Vec::new() };
        match sessions::stop_billed(ctx, &self.pile, &stop, Some(&billed)).await? {
            Stopped::Closed { order_no, energy_fen, .. } => {
                let ours = energy_fen.0;
                let theirs = i64::from(r.amount.to_fen().0);
                if (ours - theirs).abs() > 1 {
                    tracing::info!(pile = %self.pile.code, order = %order_no, ours, theirs, "a YKC pile's bill differs from the product's pricing");
                    sessions::flag_order(ctx, &order_no, ChargerProblem::AmountDiffers).await?;
                }
                if unknown {
                    sessions::flag_order(ctx, &order_no, ChargerProblem::UnknownSession).await?;
                }
                self.transactions.remove(&r.order.digits());
            }
            Stopped::Repeated { .. } | Stopped::Unknown => {}
        }
        Ok(confirm)
    }

    /// The pile answered a command (matched by sequence number): the
    /// command completes; a remote start the pile took opens its session.
    pub async fn answered(&mut self, ctx: &AppCtx, command_id: &str, message: &Message, frames: log::RawFrames) -> Result<(), ApiError> {
        let Some(answer) = calls::answer(message) else { return Ok(()) };
        // Data asked for is data all the same: the gun's status and the
        // order's curve take it as they take the periodic frames.
        if let Message::Realtime(rt) = message {
            self.realtime(ctx, rt).await?;
        }
        let accepted = answer["status"] == "Accepted";
        let done = commands::complete_logged(ctx, &self.pile.id, &self.connection_id, command_id, Ok(answer), Some(frames)).await?;
        let commands::Completion::Applied(c) = done else { return Ok(()) };
        if c.action == calls::REMOTE_START && accepted {
            let call: calls::RemoteStartCall = serde_json::from_value(c.payload.clone()).map_err(|_| ApiError::internal())?;
            let order = OrderNo::from_digits(&call.order_no).map_err(|_| ApiError::internal())?;
            self.open_session(ctx, call.gun, &call.id_tag, &order, ctx.now(), None).await?;
        }
        Ok(())
    }

    /// The frame of a queued command for this pile.
    pub async fn command_frame(&self, ctx: &AppCtx, action: &str, payload: &Value) -> Result<Message, String> {
        let pile = msg::PileNo::from_digits(&self.pile.code)?;
        // The model in force when the frame goes out (a later edit pushes again).
        let tariff = match action {
            calls::TARIFF_SET => self.tariff(ctx).await.map_err(|e| e.msg.en)?,
            _ => None,
        };
        calls::message(&pile, action, payload, tariff)
    }
}

/// The remote start of a card on a gun: a new order number, and the card
/// as the pile shows it (its balance when prepaid).
pub async fn remote_start_call(ctx: &AppCtx, pile: &Pile, gun: u32, id_tag: &str) -> Result<calls::RemoteStartCall, ApiError> {
    let pile_no = msg::PileNo::from_digits(&pile.code).map_err(|_| ApiError::internal())?;
    let view = cards::get_view(ctx, id_tag).await?;
    let balance = balance_for_pile(view.as_ref());
    Ok(calls::RemoteStartCall {
        gun,
        order_no: new_order_no(ctx, &pile_no, gun).await?.digits(),
        id_tag: id_tag.to_string(),
        logical_card: calls::logical_card(id_tag),
        balance_fen: u32::try_from(balance).unwrap_or(u32::MAX),
    })
}

/// A balance update for the running session on a gun (0x42): what its
/// card may spend now, as a start is told, plus what the session itself
/// holds (its own hold is its money, not another session's).
pub async fn balance_update_call(ctx: &AppCtx, gun: u32, tx: &sessions::Transaction) -> Result<calls::BalanceUpdateCall, ApiError> {
    let view = cards::get_view(ctx, &tx.id_tag).await?;
    let own_hold = match view.as_ref() {
        Some(v) if v.wallet.payment == CardPayment::Prepaid => tx.held_fen.0,
        _ => 0,
    };
    let balance = balance_for_pile(view.as_ref()).saturating_add(own_hold);
    Ok(calls::BalanceUpdateCall { gun, id_tag: tx.id_tag.clone(), balance_fen: u32::try_from(balance).unwrap_or(u32::MAX) })
}

/// Sends a prepaid card's balance, as it is now, to each connected YKC pile
/// where the card is charging (0x42 through the queue, as `by`), so that a pile that
/// stops once the amount reaches the balance it was told goes on after a
/// top-up. Answers the piles' codes. The card's running sessions are its
/// charging orders of the last week (the order list by card).
pub async fn push_balance(ctx: &AppCtx, id_tag: &str, by: &str) -> Result<Vec<String>, ApiError> {
    let Some(view) = cards::get_view(ctx, id_tag).await? else { return Ok(Vec::new()) };
    if view.wallet.payment != CardPayment::Prepaid || view.wallet.held_fen.0 <= 0 {
        return Ok(Vec::new());
    }
    let today = crate::domain::orders::keys::local_day(ctx.now());
    let filter = crate::domain::orders::list::Filter {
        from_day: today - 7,
        to_day: today,
        status: Some(charging::orders::OrderStatus::Charging),
        user: Some(view.card.id_tag.clone()),
        ..Default::default()
    };
    let running = crate::domain::orders::list::page(ctx, &filter, 20, None).await?;
    let mut sent = Vec::new();
    for row in running.rows {
        let Some((_, gun)) = crate::domain::assets::piles::parse_connector_id(&row.order.connector_id) else { continue };
        let pile = crate::domain::assets::piles::get_pile(ctx, &row.order.pile_id).await?;
        // A pile that is not connected would end the command offline at once.
        if version(&pile).is_none() || !link::get(ctx, &pile.id).await?.is_some_and(|l| l.connected) {
            continue;
        }
        let Some(tx) = sessions::open_on(ctx, &pile.id, gun).await?.filter(|t| t.order_no == row.order.order_no) else { continue };
        let call = balance_update_call(ctx, gun, &tx).await?;
        let payload = serde_json::to_value(&call).map_err(|_| ApiError::internal())?;
        commands::submit_ykc(ctx, &pile.id, calls::BALANCE_UPDATE, payload, by).await?;
        sent.push(pile.code.clone());
    }
    Ok(sent)
}

/// A tariff push to one YKC pile: its command (the pile's answer, 0x57,
/// completes it: Accepted when the pile took the model).
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TariffPush {
    pub pile_id: String,
    pub pile_code: String,
    pub command: commands::Command,
}

/// Pushes the tariff now in force at each station to its YKC piles (0x58):
/// after a tariff is saved, or a station is given another. A pile that is
/// not connected gets its command ended offline; it asks for the model
/// again when it next logs in (its check then differs).
pub async fn push_tariff(ctx: &AppCtx, station_ids: &[String], by: &str) -> Result<Vec<TariffPush>, ApiError> {
    let mut pushed = Vec::new();
    for station_id in station_ids {
        let station = stations::get(ctx, station_id).await?;
        let Some(tariff) = tariffs::find(ctx, &station.tariff_id).await?.filter(|_| !station.tariff_id.is_empty()) else { continue };
        let call = calls::TariffSetCall {
            tariff_id: tariff.template.id.clone(),
            tariff_version: tariff.template.version,
            model_id: tariff_model::model_id(&tariff.template.id, tariff.template.version).digits(),
        };
        let payload = serde_json::to_value(&call).map_err(|_| ApiError::internal())?;
        for p in crate::domain::assets::piles::of_station(ctx, station_id).await? {
            let pile = &p.pile.pile;
            if version(pile).is_none() {
                continue;
            }
            let command = commands::submit_ykc(ctx, &pile.id, calls::TARIFF_SET, payload.clone(), by).await?;
            pushed.push(TariffPush { pile_id: pile.id.clone(), pile_code: pile.code.clone(), command });
        }
    }
    Ok(pushed)
}

/// What a postpaid card is told it holds: a pile stops a session when its
/// amount reaches the balance it was given, and a postpaid card is billed
/// afterwards, so it gets a ceiling no session reaches (100,000 yuan).
const POSTPAID_BALANCE_FEN: i64 = 10_000_000;

/// The balance a pile is given with a card: a prepaid card's available
/// balance, a postpaid card's ceiling.
fn balance_for_pile(view: Option<&cards::CardView>) -> i64 {
    match view {
        Some(v) if v.wallet.payment == CardPayment::Prepaid => v.wallet.available().0.max(0),
        Some(_) => POSTPAID_BALANCE_FEN,
        None => 0,
    }
}

fn gun_number(g: &msg::GunNo) -> u32 {
    g.value().and_then(|v| u32::try_from(v).ok()).unwrap_or(0)
}

/// A new order number: the pile, the gun, the time (China time,
/// yyMMddHHmmss) and a 4-digit sequence of the fleet.
async fn new_order_no(ctx: &AppCtx, pile: &msg::PileNo, gun: u32) -> Result<OrderNo, ApiError> {
    let seq = commands::next_request_id(ctx).await?.rem_euclid(10_000);
    let t = cp56(ctx.now() * 1000);
    let digits = format!("{}{gun:02}{:02}{:02}{:02}{:02}{:02}{:02}{seq:04}", pile.digits(), t.year, t.month, t.day, t.hour, t.minute, t.millis / 1000);
    OrderNo::from_digits(&digits).map_err(|e| {
        tracing::error!(error = %e, "a YKC order number could not be made");
        ApiError::internal()
    })
}

/// A message-log entry of one exchange: a frame and its answer, with the
/// bytes of both.
pub fn entry(at: i64, direction: Direction, message: &Message, raw: &[u8], answer: Option<(&Message, &[u8])>, answered_at: Option<i64>) -> MessageLogEntry {
    MessageLogEntry {
        at,
        direction,
        message_id: None,
        action: Some(action_name(message)),
        request: fields(message),
        response: answer.map(|(m, _)| fields(m)),
        error: None,
        answered_at,
        raw: Some(log::RawFrames { request: ykc::frame::to_hex(raw), response: answer.map(|(_, b)| ykc::frame::to_hex(b)) }),
    }
}

/// The log entry of a refused login: the frames, and why.
pub fn refused_login_entry(at: i64, login: &Message, raw: &[u8], answer: &[u8], why: &LoginRefusal) -> MessageLogEntry {
    MessageLogEntry {
        at,
        direction: Direction::In,
        message_id: None,
        action: Some(action_name(login)),
        request: fields(login),
        response: None,
        error: Some(LoggedError { code: "LoginRefused".into(), description: why.describe() }),
        answered_at: Some(at),
        raw: Some(log::RawFrames { request: ykc::frame::to_hex(raw), response: Some(ykc::frame::to_hex(answer)) }),
    }
}

/// A log entry of bytes that made no message: skipped, or a frame refused.
pub fn refused_entry(at: i64, action: Option<String>, raw: &[u8], code: &str, description: String) -> MessageLogEntry {
    MessageLogEntry {
        at,
        direction: Direction::In,
        message_id: None,
        action,
        request: json!(ykc::frame::to_hex(raw)),
        response: None,
        error: Some(LoggedError { code: code.into(), description }),
        answered_at: None,
        raw: Some(log::RawFrames { request: ykc::frame::to_hex(raw), response: None }),
    }
}

/// Appends to the pile's log; a failure is logged, never the pile's problem.
pub async fn log(ctx: &AppCtx, pile_id: &str, entry: MessageLogEntry) {
    if let Err(e) = log::append(ctx, pile_id, entry).await {
        tracing::warn!(error = %e.msg.en, "could not log a YKC frame");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_logs_actions_are_the_catalogues_names() {
        let names = logged_actions();
        for n in ["Login", "Heartbeat", "Realtime", "StartRequest", "TransactionRecord", "RemoteStart", "Reboot"] {
            assert!(names.contains(&n), "{n} in {names:?}");
        }
        assert!(!names.iter().any(|n| n.starts_with("0x")), "{names:?}");
    }

    /// The SPA names YKC frames in the message log from this file, written
    /// from the codec's catalogue (its Chinese names are the specification's).
    #[test]
    fn the_spas_ykc_frame_names_are_the_catalogues() {
        let mut ts = String::from(
            "// @generated from the YKC codec's catalogue (shared/ykc/src/msg/mod.rs): do not edit.\n\
             // `BACKOFFICE_UPDATE_OPENAPI=1 cargo test -p backoffice --lib the_spas_ykc_frame_names` writes it again.\n\n\
             /** Each YKC message by its name in the message log (`action`): its frame type and its names in English and in the specification's Chinese. */\n\
             export const YKC_FRAMES = {\n",
        );
        for (code, _) in msg::FRAME_TYPES {
            let (Some(name), Some((en, zh))) = (msg::frame_type_message_name(*code), msg::frame_type_name(*code)) else { continue };
            ts.push_str(&format!("  {name}: {{ frameType: 0x{code:02X}, en: '{en}', zh: '{zh}' }},\n"));
        }
        ts.push_str("} as const;\n");
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src/api/ykcFrames.ts");
        if std::env::var("BACKOFFICE_UPDATE_OPENAPI").as_deref() == Ok("1") {
            std::fs::write(&file, &ts).expect("the SPA's file");
        }
        let committed = std::fs::read_to_string(&file).unwrap_or_default();
        assert!(committed == ts, "web/src/api/ykcFrames.ts differs from the YKC catalogue: run BACKOFFICE_UPDATE_OPENAPI=1 cargo test -p backoffice --lib the_spas_ykc_frame_names");
    }

    #[test]
    fn stop_reasons_follow_the_appendix_classes() {
        assert_eq!(stop_reason(msg::StopReason(0x40)), StopReason::RemoteStop);
        assert_eq!(stop_reason(msg::StopReason(0x45)), StopReason::UserCard);
        assert_eq!(stop_reason(msg::StopReason(0x41)), StopReason::Full);
        assert!(stop_reason(msg::StopReason(0x6C)).is_abnormal());
        assert_eq!(stop_reason(msg::StopReason(0x90)), StopReason::Other);
    }

    #[test]
    fn china_time_goes_and_comes_back() {
        let at = 1_773_626_400; // 2026-03-16 10:00:00 China time
        let t = cp56(at * 1000);
        assert_eq!((t.year, t.month, t.day, t.hour, t.minute), (26, 3, 16, 10, 0));
        assert_eq!(unix(&t), Some(at));
        assert_eq!(wh(KwhE4(123_456)), 12_346);
    }
}
