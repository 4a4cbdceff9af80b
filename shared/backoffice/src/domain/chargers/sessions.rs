//! Charging sessions reported by chargers are charging orders:
//! StartTransaction opens one, MeterValues extend its curve,
//! StopTransaction closes and prices it with the charger's own times and
//! meter readings. The charger is always answered; whatever it got wrong
//! is recorded on the order (`chargerProblems`) and shows as an anomaly.

use charging::orders::CurvePoint;
use charging::orders::{ChargerProblem, Order, OrderStatus, PaymentMethod, PaymentStatus, SessionStart, StopReason};
use charging::pricing::{price_session, MeterSample, PricingOptions};
use charging::tariff::TariffTemplate;
use charging::Fen;
use envelope::ApiError;
use serde::{Deserialize, Serialize};
use serde_json::json;
use store::{Condition, Key, Query, SortKey, TxOp, UpdateAction};

use super::plausible_time;
use crate::ctx::AppCtx;
use crate::domain::assets::piles::{connector_id, Pile};
use crate::domain::assets::{stations, tariffs};
use crate::domain::cards::{self, CardPayment, CardStatus, IdTagInfo};
use crate::domain::orders::record::{OrderDetail, OrderRow};
use crate::domain::orders::{self, keys as order_keys};
use crate::domain::{from_item, StoreResultExt};

/// A curve keeps at most this many points (a 10 h session sampled every
/// 30 s): the detail item must stay well under the store's item size.
pub const MAX_CURVE_POINTS: usize = 1200;
const ATTEMPTS: usize = 3;

/// A transaction as the link keeps it (`OCPPTX#{id}` / `TX`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Transaction {
    pub transaction_id: i64,
    pub pile_id: String,
    pub connector: u32,
    pub order_no: String,
    pub id_tag: String,
    pub meter_start: i64,
    pub start_ts: i64,
    /// Absent (not null) until stopped: the stop's condition is "no stopTs yet".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_ts: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meter_stop: Option<i64>,
    /// How the card paid when the session started (None: no known card).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment: Option<CardPayment>,
    /// What the session holds of a prepaid card's balance until it stops.
    #[serde(default)]
    pub held_fen: Fen,
    /// The charger's own id of it (OCPP 2.0.1 names transactions itself;
    /// RequestStopTransaction names it so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charger_transaction_id: Option<String>,
    /// The highest event number received (2.0.1's seqNo) and the lower
    /// ones not received (at most [`MAX_MISSING_EVENTS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq_last: Option<i64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seq_missing: Vec<i64>,
    /// When the last CostUpdated was queued for it (a 2.0.1 station is
    /// told the running cost at most every [`COST_UPDATE_SECS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_sent_at: Option<i64>,
}

/// At most one CostUpdated a minute per transaction.
pub const COST_UPDATE_SECS: i64 = 60;

/// How many missing event numbers a transaction keeps.
pub const MAX_MISSING_EVENTS: usize = 64;

/// The event numbers after event `seq` arrived: a number past the last
/// leaves the ones skipped missing; a missing one that comes late is no
/// longer missing; a repeat changes nothing.
pub fn next_sequence(last: Option<i64>, missing: &[i64], seq: i64) -> (i64, Vec<i64>) {
    let last = last.unwrap_or(-1);
    let mut missing = missing.to_vec();
    if seq > last {
        let room = MAX_MISSING_EVENTS.saturating_sub(missing.len());
        missing.extend((last + 1..seq).take(room));
        (seq, missing)
    } else {
        missing.retain(|m| *m != seq);
        (last, missing)
    }
}

/// Records a transaction's event numbers (see [`next_sequence`]).
pub async fn record_sequence(ctx: &AppCtx, transaction_id: i64, last: i64, missing: &[i64]) -> Result<(), ApiError> {
    let actions = vec![UpdateAction::Set("seqLast".into(), json!(last)), UpdateAction::Set("seqMissing".into(), json!(missing))];
    ctx.store.update(&tx_key(transaction_id), actions, None).await.api().map(|_| ())
}

/// Adds a problem to an order (once).
pub async fn flag_order(ctx: &AppCtx, order_no: &str, problem: ChargerProblem) -> Result<(), ApiError> {
    for _ in 0..ATTEMPTS {
        let row = orders::load(ctx, order_no).await?;
        if row.charger_problems.contains(&problem) {
            return Ok(());
        }
        let mut after = row.clone();
        after.charger_problems.push(problem);
        match ctx.store.transact(orders::change_ops(&row, &after)).await {
            Ok(()) => return Ok(()),
            Err(store::StoreError::TransactionCanceled { .. }) => continue,
            Err(e) => return Err(crate::domain::store_error(e)),
        }
    }
    Err(ApiError::standard(409))
}

fn tx_key(id: i64) -> Key {
    Key::new(format!("OCPPTX#{id}"), "TX")
}

fn open_key(pile_id: &str, connector: u32) -> Key {
    Key::new(format!("OCPPOPEN#{pile_id}#{connector}"), "TX")
}

/// What makes a start the same start: the charger's own transaction id
/// (OCPP 2.0.1), else what the StartTransaction says (1.6).
fn start_key(pile_id: &str, r: &StartRequest) -> Key {
    match &r.charger_transaction_id {
        Some(id) => charger_start_key(pile_id, id),
        None => Key::new(format!("OCPPSTART#{pile_id}#{}#{}#{}#{}", r.connector, r.timestamp_text, r.id_tag.to_uppercase(), r.meter_start), "UNIQUE"),
    }
}

/// The start of a transaction the charger named itself (2.0.1's
/// `transactionId`): maps it to our transaction id.
fn charger_start_key(pile_id: &str, charger_transaction_id: &str) -> Key {
    Key::new(format!("OCPPSTART#{pile_id}#TXID#{charger_transaction_id}"), "UNIQUE")
}

/// Our transaction of the one a charger named itself, if it was started.
pub async fn started_by_charger(ctx: &AppCtx, pile_id: &str, charger_transaction_id: &str) -> Result<Option<Transaction>, ApiError> {
    match recorded_start(ctx, &charger_start_key(pile_id, charger_transaction_id)).await? {
        Some(id) => get_transaction(ctx, id).await,
        None => Ok(None),
    }
}

/// A transaction the charger began before anyone was authorized (2.0.1:
/// the cable plugged in first): its start, kept until an idToken comes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EarlyStart {
    pub connector: u32,
    pub meter_start: i64,
    pub timestamp: i64,
    pub timestamp_text: String,
    /// Its event number (seqNo).
    #[serde(default)]
    pub seq_no: i64,
}

fn early_start_key(pile_id: &str, charger_transaction_id: &str) -> Key {
    Key::new(format!("OCPPSTART#{pile_id}#TXID#{charger_transaction_id}"), "EARLY")
}

/// Keeps the first start of a transaction that has no idToken yet (a
/// repeat keeps the first).
pub async fn remember_early_start(ctx: &AppCtx, pile_id: &str, charger_transaction_id: &str, start: &EarlyStart) -> Result<(), ApiError> {
    let k = early_start_key(pile_id, charger_transaction_id);
    match ctx.store.put(crate::domain::to_item(start, &[(store::PK, k.pk), (store::SK, k.sk)]), Some(Condition::item_absent())).await {
        Ok(()) | Err(store::StoreError::ConditionFailed) => Ok(()),
        Err(e) => Err(crate::domain::store_error(e)),
    }
}

/// The transaction started: its early start is no longer needed.
pub async fn forget_early_start(ctx: &AppCtx, pile_id: &str, charger_transaction_id: &str) -> Result<(), ApiError> {
    ctx.store.delete(&early_start_key(pile_id, charger_transaction_id), None).await.api().map(|_| ())
}

/// The start kept by [`remember_early_start`], if any.
pub async fn early_start(ctx: &AppCtx, pile_id: &str, charger_transaction_id: &str) -> Result<Option<EarlyStart>, ApiError> {
    match ctx.store.get(&early_start_key(pile_id, charger_transaction_id)).await.api()? {
        Some(item) => Ok(Some(from_item(item)?)),
        None => Ok(None),
    }
}

/// The next transaction id: a counter item, so ids are small integers
/// (OCPP 1.6 transaction ids are 32-bit) and never reused.
async fn next_transaction_id(ctx: &AppCtx) -> Result<i64, ApiError> {
    let item = ctx.store.update(&Key::new("OCPPSEQ", "TX"), vec![UpdateAction::Add("seq".into(), 1)], None).await.api()?;
    item.get("seq").and_then(|v| v.as_i64()).ok_or_else(ApiError::internal)
}

pub async fn get_transaction(ctx: &AppCtx, id: i64) -> Result<Option<Transaction>, ApiError> {
    match ctx.store.get(&tx_key(id)).await.api()? {
        Some(item) => Ok(Some(from_item(item)?)),
        None => Ok(None),
    }
}

/// The transaction open on a connector, if any.
pub async fn open_on(ctx: &AppCtx, pile_id: &str, connector: u32) -> Result<Option<Transaction>, ApiError> {
    let Some(item) = ctx.store.get(&open_key(pile_id, connector)).await.api()? else { return Ok(None) };
    match item.get("transactionId").and_then(|v| v.as_i64()) {
        Some(id) => get_transaction(ctx, id).await,
        None => Ok(None),
    }
}

/// The tariff version in force at `at` (versions carry when they were
/// saved; a session keeps the prices of its start).
async fn tariff_at(ctx: &AppCtx, tariff_id: &str, at: i64) -> Result<Option<TariffTemplate>, ApiError> {
    if tariff_id.is_empty() {
        return Ok(None);
    }
    let Some(current) = tariffs::find(ctx, tariff_id).await? else { return Ok(None) };
    if current.updated_at <= at {
        return Ok(Some(current.template));
    }
    let q = Query::partition(tariffs::current_key(tariff_id).pk).sort_key(SortKey::BeginsWith("V#".into())).backward();
    let mut cursor = None;
    loop {
        let page = ctx.store.query(q.clone().after(cursor)).await.api()?;
        for item in page.items {
            let t: tariffs::StoredTariff = from_item(item)?;
            if t.updated_at <= at {
                return Ok(Some(t.template));
            }
        }
        cursor = page.cursor;
        if cursor.is_none() {
            // Older than every version: the first one is the best there is.
            return Ok(Some(current.template));
        }
    }
}

/// What a StartTransaction says.
#[derive(Debug, Clone)]
pub struct StartRequest {
    pub connector: u32,
    pub id_tag: String,
    pub meter_start: i64,
    /// The timestamp as sent (part of the repeat key).
    pub timestamp_text: String,
    /// The timestamp parsed (None when unreadable).
    pub timestamp: Option<i64>,
    /// The reservation the session uses, if any.
    pub reservation_id: Option<i64>,
    /// The charger's own id of the transaction (2.0.1): a start that
    /// names it again is the same start.
    pub charger_transaction_id: Option<String>,
}

pub struct Started {
    pub transaction_id: i64,
    pub id_tag_info: IdTagInfo,
    /// The same start was reported before (its answer was lost).
    pub repeated: bool,
}

fn order_no(start_ts: i64, transaction_id: i64) -> String {
    format!("CP{}{transaction_id:010}", order_keys::day_of(start_ts).replace('-', ""))
}

/// Opens the order of a charger's session; a repeat of the same start
/// gets the same transaction id and no second order.
///
/// A prepaid card that may charge has the minimum balance held for the
/// session in the same transaction as the order (see `cards::hold_ops`):
/// when another session of the card took the balance meanwhile, the
/// transaction is cancelled and the start is judged again from the card as
/// it is now (then Blocked). A postpaid card's order is billed to its holder.
pub async fn start(ctx: &AppCtx, pile: &Pile, r: &StartRequest) -> Result<Started, ApiError> {
    start_by(ctx, pile, r, StartedBy::IdTag).await
}

/// Whose session [`start_by`] opens, as the caller knows it.
pub enum StartedBy {
    /// The start's id tag: its card is read here.
    IdTag,
    /// The id tag's card as the caller has just read it (a YKC pile's start
    /// judged it first), so it is read once; a later attempt, after the
    /// wallet changed under it, reads it again.
    Seen(Option<cards::CardView>),
    /// An OCPP 2.0.1 token of this type (its wire name): the card of its
    /// number, unless the card is of another type (`cards::takes_token`).
    Token(String),
    /// No one: the station starts without authorization (OCPP 2.0.1's
    /// NoAuthorization, a free-vend station with a start button). Accepted,
    /// billed to nobody, and flagged so that the operator sees it.
    NoAuthorization,
}

/// The card of an id tag, or of a 2.0.1 token of `token_type`.
async fn read_card(ctx: &AppCtx, id_tag: &str, token_type: Option<&str>) -> Result<Option<cards::CardView>, ApiError> {
    match token_type {
        Some(t) => cards::get_view_of_token(ctx, id_tag, t).await,
        None => cards::get_view(ctx, id_tag).await,
    }
}

/// [`start`] for a session whose card the caller knows (`by`).
pub async fn start_by(ctx: &AppCtx, pile: &Pile, r: &StartRequest, by: StartedBy) -> Result<Started, ApiError> {
    let unauthorized = matches!(by, StartedBy::NoAuthorization);
    let token_type = match &by {
        StartedBy::Token(t) => Some(t.clone()),
        _ => None,
    };
    let mut seen = match by {
        StartedBy::Seen(view) => Some(view),
        StartedBy::IdTag | StartedBy::Token(_) | StartedBy::NoAuthorization => None,
    };
    let minimum = Fen(crate::domain::operations::current(ctx).await?.prepaid_minimum_fen);
    let dedupe = start_key(&pile.id, r);
    if let Some(id) = recorded_start(ctx, &dedupe).await? {
        let id_tag_info = if unauthorized { IdTagInfo::free_vend() } else { cards::judge(read_card(ctx, &r.id_tag, token_type.as_deref()).await?.as_ref(), ctx.now(), minimum) };
        return Ok(Started { transaction_id: id, id_tag_info, repeated: true });
    }
    for _ in 0..ATTEMPTS {
        let view = match (unauthorized, seen.take()) {
            (true, _) => None,
            (false, Some(view)) => view,
            (false, None) => read_card(ctx, &r.id_tag, token_type.as_deref()).await?,
        };
        let id_tag_info = if unauthorized { IdTagInfo::free_vend() } else { cards::judge(view.as_ref(), ctx.now(), minimum) };
        let hold = match (&view, id_tag_info.status) {
            (Some(v), CardStatus::Accepted) => cards::hold_ops(v, minimum),
            _ => None,
        };
        let transaction_id = next_transaction_id(ctx).await?;
        let now = ctx.now();
        let (start_ts, clock_replaced) = plausible_time(r.timestamp, now);
        let station = stations::get(ctx, &pile.station_id).await?;
        let tariff = tariff_at(ctx, &station.tariff_id, start_ts).await?;
        let mut problems = Vec::new();
        if unauthorized {
            problems.push(ChargerProblem::NoAuthorization);
        } else if id_tag_info.status != CardStatus::Accepted {
            problems.push(ChargerProblem::UnauthorizedIdTag);
        }
        if clock_replaced {
            problems.push(ChargerProblem::ClockNotSet);
        }
        let payment = view.as_ref().map(|v| v.wallet.payment);
        let billed_to = view.as_ref().filter(|v| v.wallet.payment == CardPayment::Postpaid).map(|v| match v.card.holder.trim() {
            "" => v.card.id_tag.clone(),
            holder => holder.to_string(),
        });
        let no = order_no(start_ts, transaction_id);
        let row = OrderRow {
            order: Order::started(SessionStart {
                order_no: no.clone(),
                station_id: station.id.clone(),
                pile_id: pile.id.clone(),
                connector_id: connector_id(&pile.id, r.connector),
                user_id: r.id_tag.clone(),
                plate: view.as_ref().map(|v| v.card.plate.clone()).unwrap_or_default(),
                start_ts,
                meter_start_wh: r.meter_start,
                soc_start: 0,
                payment_method: Some(PaymentMethod::Card),
            }),
            station_name: station.name.clone(),
            pile_code: Some(pile.code.clone()),
            lines: Vec::new(),
            pending_refund_fen: Some(Fen::ZERO),
            tariff_id: tariff.as_ref().map(|t| t.id.clone()),
            tariff_version: tariff.as_ref().map(|t| t.version),
            worst_sample_delta_wh: None,
            closed_by: None,
            close_reason: None,
            closed_at: None,
            transaction_id: Some(transaction_id),
            settlement: None,
            billed_to,
            live_energy_wh: None,
            charger_problems: problems,
            version: 1,
        };
        let tx = Transaction {
            transaction_id,
            pile_id: pile.id.clone(),
            connector: r.connector,
            order_no: no,
            id_tag: r.id_tag.clone(),
            meter_start: r.meter_start,
            start_ts,
            stop_ts: None,
            meter_stop: None,
            payment,
            held_fen: if hold.is_some() { minimum } else { Fen::ZERO },
            charger_transaction_id: r.charger_transaction_id.clone(),
            seq_last: None,
            seq_missing: Vec::new(),
            cost_sent_at: None,
        };
        let mut dedupe_item = dedupe.to_item();
        dedupe_item.insert("transactionId".into(), json!(transaction_id));
        let mut open_item = open_key(&pile.id, r.connector).to_item();
        open_item.insert("transactionId".into(), json!(transaction_id));
        let t = tx_key(transaction_id);
        let mut ops = vec![
            TxOp::Put { item: dedupe_item, condition: Some(Condition::item_absent()) },
            TxOp::Put { item: crate::domain::to_item(&tx, &[(store::PK, t.pk), (store::SK, t.sk)]), condition: Some(Condition::item_absent()) },
            TxOp::Put { item: open_item, condition: None },
        ];
        ops.extend(orders::insert_ops(&row, &OrderDetail { curve: Vec::new(), tariff }));
        let hold_at = ops.len();
        ops.extend(hold);
        match ctx.store.transact(ops).await {
            Ok(()) => {
                if let Some(id) = r.reservation_id.filter(|id| *id > 0) {
                    super::reservations::set_status(ctx, id, super::reservations::ReservationStatus::Used, None).await?;
                }
                return Ok(Started { transaction_id, id_tag_info, repeated: false });
            }
            // The same start raced in on another connection: its id stands.
            Err(store::StoreError::TransactionCanceled { failed }) if failed.contains(&0) => {
                return match recorded_start(ctx, &dedupe).await? {
                    Some(id) => Ok(Started { transaction_id: id, id_tag_info, repeated: true }),
                    None => Err(ApiError::standard(409)),
                }
            }
            // The card's wallet changed meanwhile (another session, a top-up): judge again.
            Err(store::StoreError::TransactionCanceled { failed }) if failed.contains(&hold_at) => continue,
            Err(e) => return Err(crate::domain::store_error(e)),
        }
    }
    Err(ApiError::standard(409))
}

async fn recorded_start(ctx: &AppCtx, dedupe: &Key) -> Result<Option<i64>, ApiError> {
    Ok(ctx.store.get(dedupe).await.api()?.and_then(|item| item.get("transactionId").and_then(|v| v.as_i64())))
}

/// One sampled reading of a MeterValues (or a stop's transactionData).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Reading {
    pub at: i64,
    /// The energy register (Energy.Active.Import.Register), Wh.
    pub register_wh: Option<i64>,
    pub power_w: Option<i64>,
    pub soc: Option<u8>,
}

/// Adds readings to a session's curve (sorted, one point per time, at most
/// [`MAX_CURVE_POINTS`]); returns whether anything was added.
fn extend_curve(curve: &mut Vec<CurvePoint>, meter_start: i64, readings: &[Reading]) -> bool {
    let mut added = false;
    for r in readings {
        let Some(register) = r.register_wh else { continue };
        if curve.len() >= MAX_CURVE_POINTS || curve.iter().any(|p| p.ts == r.at) {
            continue;
        }
        let soc = r.soc.or_else(|| curve.last().map(|p| p.soc)).unwrap_or(0);
        curve.push(CurvePoint { ts: r.at, power_w: r.power_w.unwrap_or(0), energy_wh: register - meter_start, soc });
        added = true;
    }
    curve.sort_by_key(|p| p.ts);
    added
}

fn worst_delta(curve: &[CurvePoint]) -> Option<i64> {
    curve.windows(2).map(|w| w[1].energy_wh - w[0].energy_wh).filter(|d| *d < 0).min()
}

/// MeterValues of a transaction (by id; without one, the connector's open one):
/// the order's curve and its energy so far grow. Readings of no open
/// session (connector 0, idle meters) are only logged.
pub async fn meter(ctx: &AppCtx, pile: &Pile, connector: u32, transaction_id: Option<i64>, readings: &[Reading]) -> Result<bool, ApiError> {
    Ok(metered(ctx, pile, connector, transaction_id, readings, false).await?.0)
}

/// [`meter`] that also answers what the order costs so far, when the
/// readings added to it and its tariff prices them (a 2.0.1 station is
/// told it in CostUpdated): the same pricing as the order's close, up to
/// the last reading. No extra read: the order is the one just written.
pub async fn meter_priced(ctx: &AppCtx, pile: &Pile, connector: u32, transaction_id: Option<i64>, readings: &[Reading]) -> Result<Option<Fen>, ApiError> {
    Ok(metered(ctx, pile, connector, transaction_id, readings, true).await?.1)
}

/// The running cost of a charging order: its tariff's price of the curve
/// from the start to the last reading (None: no tariff, no reading after
/// the start, or the tariff cannot price it).
pub fn cost_so_far(row: &OrderRow, detail: &OrderDetail) -> Option<Fen> {
    let tariff = detail.tariff.as_ref()?;
    let (start, register) = (row.order.start_ts, row.order.meter_start_wh);
    let mut samples = vec![MeterSample::new(start, register)];
    samples.extend(detail.curve.iter().filter(|p| p.ts > start).map(|p| MeterSample::new(p.ts, register + p.energy_wh)));
    if samples.len() < 2 {
        return None;
    }
    price_session(tariff, &samples, &PricingOptions::default()).ok().map(|p| p.amount_fen)
}

/// Takes the transaction's next CostUpdated slot at `now`: false when one
/// went less than [`COST_UPDATE_SECS`] ago (also when another event of the
/// same transaction took it meanwhile: the write is conditional).
pub async fn claim_cost_update(ctx: &AppCtx, tx: &Transaction, now: i64) -> Result<bool, ApiError> {
    if tx.cost_sent_at.is_some_and(|t| now - t < COST_UPDATE_SECS) {
        return Ok(false);
    }
    let due = Condition::Or(vec![Condition::NotExists("costSentAt".into()), Condition::Le("costSentAt".into(), json!(now - COST_UPDATE_SECS))]);
    let condition = Condition::And(vec![Condition::item_exists(), due]);
    match ctx.store.update(&tx_key(tx.transaction_id), vec![UpdateAction::Set("costSentAt".into(), json!(now))], Some(condition)).await {
        Ok(_) => Ok(true),
        Err(store::StoreError::ConditionFailed) => Ok(false),
        Err(e) => Err(crate::domain::store_error(e)),
    }
}

async fn metered(ctx: &AppCtx, pile: &Pile, connector: u32, transaction_id: Option<i64>, readings: &[Reading], price: bool) -> Result<(bool, Option<Fen>), ApiError> {
    let tx = match transaction_id {
        Some(id) if id > 0 => get_transaction(ctx, id).await?.filter(|t| t.pile_id == pile.id),
        // 0 or -1: the charger says the readings belong to no transaction.
        Some(_) => None,
        // Left out (many chargers do): the connector's open session.
        None if connector > 0 => open_on(ctx, &pile.id, connector).await?,
        None => None,
    };
    let Some(tx) = tx else { return Ok((false, None)) };
    for _ in 0..ATTEMPTS {
        let (before, detail, _) = orders::load_full(ctx, &tx.order_no).await?;
        if before.order.status != OrderStatus::Charging {
            return Ok((false, None));
        }
        let mut detail = detail.unwrap_or(OrderDetail { curve: Vec::new(), tariff: None });
        if !extend_curve(&mut detail.curve, tx.meter_start, readings) {
            return Ok((false, None));
        }
        let mut after = before.clone();
        after.live_energy_wh = Some(detail.curve.iter().map(|p| p.energy_wh).max().unwrap_or(0).max(0));
        after.worst_sample_delta_wh = worst_delta(&detail.curve);
        if after.order.soc_start == 0 {
            after.order.soc_start = detail.curve.iter().map(|p| p.soc).find(|s| *s > 0).unwrap_or(0);
        }
        after.order.soc_end = detail.curve.last().map(|p| p.soc).filter(|s| *s > 0);
        let mut ops = orders::change_ops(&before, &after);
        ops.push(TxOp::Put { item: detail.to_item(&before.order.order_no), condition: None });
        match ctx.store.transact(ops).await {
            Ok(()) => return Ok((true, if price { cost_so_far(&after, &detail) } else { None })),
            Err(store::StoreError::TransactionCanceled { .. }) => continue,
            Err(e) => return Err(crate::domain::store_error(e)),
        }
    }
    Err(ApiError::standard(409))
}

/// What a StopTransaction says.
#[derive(Debug, Clone)]
pub struct StopRequest {
    pub transaction_id: i64,
    /// None when the charger left it out: the last reading stands in.
    pub meter_stop: Option<i64>,
    pub timestamp: Option<i64>,
    /// OCPP Reason; None = Local (the specification's default).
    pub reason: Option<String>,
    pub readings: Vec<Reading>,
}

/// What became of a stop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stopped {
    /// Closed and priced: what the order costs (a 2.0.1 station shows it as
    /// the total cost), and of that its energy (electricity and service: what
    /// a charger that bills by itself compares).
    Closed { order_no: String, amount_fen: charging::money::Fen, energy_fen: charging::money::Fen },
    /// No such transaction (unknown id, -1, 0, another charger's).
    Unknown,
    /// Already stopped; `problem` when this stop disagrees with the first.
    Repeated { order_no: String, problem: bool },
}

pub fn stop_reason(ocpp: Option<&str>) -> StopReason {
    match ocpp.unwrap_or("Local") {
        "EmergencyStop" => StopReason::EmergencyStop,
        "EVDisconnected" => StopReason::Unplugged,
        "Local" => StopReason::UserCard,
        "PowerLoss" => StopReason::PowerLoss,
        "Remote" => StopReason::RemoteStop,
        "HardReset" | "SoftReset" | "Reboot" => StopReason::ChargerFault,
        _ => StopReason::Other,
    }
}

/// What a charger that bills by itself (YKC's transaction record) says
/// beside the stop: the energy of each tier, which the product prices with
/// its own tariff instead of splitting the curve, and its stop reason.
#[derive(Debug, Clone, Copy)]
pub struct Billed {
    pub energy: charging::pricing::TierEnergy,
    pub reason: StopReason,
    /// The meter's registers (Wh) at the start and the end, when the
    /// charger reports them: the order shows them; its energy stays the
    /// tiers' sum, which is what was billed.
    pub registers_wh: Option<(i64, i64)>,
}

/// Closes and prices the order of a stopped transaction.
pub async fn stop(ctx: &AppCtx, pile: &Pile, r: &StopRequest) -> Result<Stopped, ApiError> {
    stop_billed(ctx, pile, r, None).await
}

/// [`stop`], priced from the charger's own tier energies when it gives them.
pub async fn stop_billed(ctx: &AppCtx, pile: &Pile, r: &StopRequest, billed: Option<&Billed>) -> Result<Stopped, ApiError> {
    let tx = match r.transaction_id {
        id if id > 0 => get_transaction(ctx, id).await?.filter(|t| t.pile_id == pile.id),
        _ => None,
    };
    let Some(tx) = tx else { return Ok(Stopped::Unknown) };
    let now = ctx.now();
    let (stop_ts, clock_replaced) = plausible_time(r.timestamp, now);
    for _ in 0..ATTEMPTS {
        let (before, detail, _) = orders::load_full(ctx, &tx.order_no).await?;
        let mut detail = detail.unwrap_or(OrderDetail { curve: Vec::new(), tariff: None });
        extend_curve(&mut detail.curve, tx.meter_start, &r.readings);
        let registers = billed.and_then(|b| b.registers_wh);
        let meter_stop = registers.map(|(_, stop)| stop).or(r.meter_stop).unwrap_or_else(|| tx.meter_start + detail.curve.last().map(|p| p.energy_wh).unwrap_or(0));
        if before.order.status != OrderStatus::Charging || tx.stop_ts.is_some() {
            return repeated_stop(ctx, &before, stop_ts, meter_stop).await;
        }
        let mut after = closed(&before, &detail, stop_ts, meter_stop, clock_replaced, r.reason.as_deref(), billed);
        let card_ops = pay_by_card(ctx, &tx, &mut after, now).await?;
        let mut ops = orders::change_ops(&before, &after);
        ops.extend(card_ops);
        ops.push(TxOp::Put { item: detail.to_item(&before.order.order_no), condition: None });
        ops.push(TxOp::Update {
            key: tx_key(tx.transaction_id),
            actions: vec![UpdateAction::Set("stopTs".into(), json!(stop_ts)), UpdateAction::Set("meterStop".into(), json!(meter_stop))],
            condition: Some(Condition::NotExists("stopTs".into())),
        });
        // The connector's open pointer goes with its session; a newer
        // session on the connector keeps its own.
        let open = open_key(&pile.id, tx.connector);
        let points_here = ctx.store.get(&open).await.api()?.and_then(|i| i.get("transactionId").and_then(|v| v.as_i64())) == Some(tx.transaction_id);
        if points_here {
            ops.push(TxOp::Delete { key: open, condition: Some(Condition::Eq("transactionId".into(), json!(tx.transaction_id))) });
        }
        match ctx.store.transact(ops).await {
            Ok(()) => {
                let energy_fen = charging::money::Fen(after.order.electricity_fen.0 + after.order.service_fen.0);
                return Ok(Stopped::Closed { order_no: before.order.order_no, amount_fen: after.order.amount_fen, energy_fen });
            }
            Err(store::StoreError::TransactionCanceled { .. }) => continue,
            Err(e) => return Err(crate::domain::store_error(e)),
        }
    }
    Err(ApiError::standard(409))
}

/// Pays a session's order by its card's arrangement as the session closes
/// (stopped by the charger, or closed by hand): a prepaid card pays the
/// amount from its balance and releases what the session held (the order
/// is paid); a postpaid card's order is billed to its holder. Answers the
/// card's operations, to be written in the order's transaction (they are
/// conditioned on the card's wallet, so a lost race cancels both and the
/// caller reads again).
pub async fn pay_by_card(ctx: &AppCtx, tx: &Transaction, after: &mut OrderRow, at: i64) -> Result<Vec<TxOp>, ApiError> {
    let amount = after.order.amount_fen;
    match tx.payment {
        Some(CardPayment::Prepaid) => {
            let Some(view) = cards::get_view(ctx, &tx.id_tag).await? else {
                tracing::warn!(order = %after.order.order_no, card = %tx.id_tag, "the prepaid card of a session is gone: the order stays unpaid");
                return Ok(Vec::new());
            };
            after.order.paid_fen = amount;
            after.order.payment_status = after.order.money().payment_status();
            Ok(cards::draw_ops(&view, tx.held_fen, amount, &after.order.order_no, at))
        }
        Some(CardPayment::Postpaid) if after.billed_to.is_some() && amount.is_positive() => {
            after.order.payment_status = PaymentStatus::Billed;
            Ok(Vec::new())
        }
        _ => Ok(Vec::new()),
    }
}

/// The order after a stop: the charger's stop time and reading, priced by
/// the time-of-use tiers over the readings, or flagged when it cannot be.
fn closed(before: &OrderRow, detail: &OrderDetail, stop_ts: i64, meter_stop: i64, clock_replaced: bool, reason: Option<&str>, billed: Option<&Billed>) -> OrderRow {
    let mut after = before.clone();
    let reason = billed.map(|b| b.reason).unwrap_or_else(|| stop_reason(reason));
    after.order.stop_ts = Some(stop_ts);
    after.order.meter_stop_wh = Some(meter_stop);
    after.order.energy_wh = (meter_stop - before.order.meter_start_wh).max(0);
    if let Some(b) = billed {
        let e = b.energy;
        if let Some((start, _)) = b.registers_wh {
            after.order.meter_start_wh = start;
        }
        after.order.energy_wh = e.sharp + e.peak + e.flat + e.valley;
    }
    after.live_energy_wh = None;
    after.order.stop_reason = Some(reason);
    after.worst_sample_delta_wh = worst_delta(&detail.curve);
    after.order.soc_end = detail.curve.last().map(|p| p.soc).filter(|s| *s > 0).or(before.order.soc_end);
    if clock_replaced {
        after.charger_problems.push(ChargerProblem::ClockNotSet);
    }
    let mut samples = vec![MeterSample::new(before.order.start_ts, before.order.meter_start_wh)];
    samples.extend(
        detail
            .curve
            .iter()
            .filter(|p| p.ts > before.order.start_ts && p.ts < stop_ts)
            .map(|p| MeterSample::new(p.ts, before.order.meter_start_wh + p.energy_wh)),
    );
    samples.push(MeterSample::new(stop_ts, meter_stop));
    let priced = detail.tariff.as_ref().map(|t| match billed {
        Some(b) => charging::pricing::price_energy(t, &b.energy, &PricingOptions::default()),
        None => price_session(t, &samples, &PricingOptions::default()),
    });
    match priced {
        Some(Ok(p)) => {
            after.apply_priced(p);
            after.order.status = if reason.is_abnormal() {
                OrderStatus::Abnormal
            } else if after.order.energy_wh == 0 {
                OrderStatus::Cancelled
            } else {
                OrderStatus::Finished
            };
        }
        Some(Err(e)) => {
            tracing::warn!(order = %before.order.order_no, error = %e, "a charger session could not be priced");
            after.charger_problems.push(ChargerProblem::Unpriceable);
            after.order.status = OrderStatus::Abnormal;
        }
        // No tariff: the missing-price anomaly says so.
        None => after.order.status = OrderStatus::Abnormal,
    }
    after.order.payment_status = after.order.money().payment_status();
    after
}

/// A second stop of a stopped session: the same values change nothing;
/// different ones are recorded as a problem on the order.
async fn repeated_stop(ctx: &AppCtx, row: &OrderRow, stop_ts: i64, meter_stop: i64) -> Result<Stopped, ApiError> {
    let same = row.order.stop_ts == Some(stop_ts) && row.order.meter_stop_wh == Some(meter_stop);
    if same || row.charger_problems.contains(&ChargerProblem::StoppedTwice) {
        return Ok(Stopped::Repeated { order_no: row.order.order_no.clone(), problem: !same });
    }
    let mut after = row.clone();
    after.charger_problems.push(ChargerProblem::StoppedTwice);
    ctx.store.transact(orders::change_ops(row, &after)).await.api()?;
    Ok(Stopped::Repeated { order_no: row.order.order_no.clone(), problem: true })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curve_points_are_sorted_unique_and_relative_to_the_start() {
        let mut curve = Vec::new();
        let r = |at, wh| Reading { at, register_wh: Some(wh), power_w: Some(7000), soc: None };
        assert!(extend_curve(&mut curve, 1000, &[r(20, 1500), r(10, 1200), r(10, 1200)]));
        assert_eq!(curve.iter().map(|p| (p.ts, p.energy_wh)).collect::<Vec<_>>(), vec![(10, 200), (20, 500)]);
        assert!(!extend_curve(&mut curve, 1000, &[Reading { at: 30, register_wh: None, power_w: Some(1), soc: None }]));
    }

    #[test]
    fn event_numbers_keep_the_gaps_until_the_missing_ones_come() {
        assert_eq!(next_sequence(None, &[], 0), (0, vec![]));
        assert_eq!(next_sequence(Some(0), &[], 3), (3, vec![1, 2]));
        assert_eq!(next_sequence(Some(3), &[1, 2], 2), (3, vec![1]), "a late one fills its gap");
        assert_eq!(next_sequence(Some(3), &[1], 3), (3, vec![1]), "a repeat changes nothing");
        assert_eq!(next_sequence(Some(0), &[], 1_000).1.len(), MAX_MISSING_EVENTS, "bounded");
    }

    #[test]
    fn ocpp_stop_reasons_map_to_the_order_stop_reasons() {
        assert_eq!(stop_reason(None), StopReason::UserCard);
        assert_eq!(stop_reason(Some("Remote")), StopReason::RemoteStop);
        assert_eq!(stop_reason(Some("EVDisconnected")), StopReason::Unplugged);
        assert_eq!(stop_reason(Some("Something")), StopReason::Other);
    }
}
