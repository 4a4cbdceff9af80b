//! Remote operations: calls from the back-office to a charger. Each is a
//! command with a visible state, QUEUED -> SENT -> ANSWERED / CALLERROR /
//! TIMEOUT / OFFLINE. One call is in flight per charger (a slot item taken
//! with a conditional write); the others wait in order. No HTTP request
//! waits for a charger: a route queues the command and pumps the queue;
//! the charger's answer (a CALLRESULT / CALLERROR with the command's id as
//! the message id) completes it and pumps the next; the sweeper times out
//! what was never answered. A late or unknown answer is logged, never applied.
//!
//! | record | PK | SK | listed by |
//! |---|---|---|---|
//! | command | `CMD#{id}` | `CMD` | GSI1 `CMDS#{pileId}` / `{createdAt:012}#{id}`; while queued GSI2 `CMDQ#{pileId}` / same |
//! | in-flight slot | `OCPPSLOT#{pileId}` | `SLOT` | GSI1 `OCPPSLOTS` / `{until:012}#{pileId}` (the sweeper's timeouts) |

use envelope::ApiError;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use store::{Condition, Index, Key, Query, SortKey, UpdateAction};

use super::link;
use super::log::{self, Direction, LoggedError, MessageLogEntry};
use crate::ctx::AppCtx;
use crate::domain::keys::time_sort;
use crate::domain::{from_item, to_item, StoreResultExt};

/// How long a charger has to answer a call.
pub const TIMEOUT_SECS: i64 = 30;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum CommandStatus {
    Queued,
    Sent,
    /// The charger answered (its own status, e.g. Rejected, is in `response`).
    Answered,
    /// The charger answered with a CALLERROR (`error`).
    CallError,
    /// No answer within the timeout.
    Timeout,
    /// The charger was not connected (or its socket was gone).
    Offline,
}

/// A command as stored and sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Command {
    /// Also the OCPP message id of the call.
    pub id: String,
    pub pile_id: String,
    pub action: String,
    /// The OCPP request payload sent (a JSON object, as the action defines it).
    #[schemars(with = "serde_json::Map<String, Value>")]
    pub payload: Value,
    pub requested_by: String,
    pub status: CommandStatus,
    /// The charger's answer payload (a JSON object), once it answered.
    #[schemars(with = "Option<serde_json::Map<String, Value>>")]
    pub response: Option<Value>,
    pub error: Option<LoggedError>,
    pub created_at: i64,
    pub sent_at: Option<i64>,
    pub answered_at: Option<i64>,
}

fn key(id: &str) -> Key {
    Key::new(format!("CMD#{id}"), "CMD")
}

fn slot_key(pile_id: &str) -> Key {
    Key::new(format!("OCPPSLOT#{pile_id}"), "SLOT")
}

const SLOTS_PK: &str = "OCPPSLOTS";

fn queue_pk(pile_id: &str) -> String {
    format!("CMDQ#{pile_id}")
}

pub async fn get(ctx: &AppCtx, id: &str) -> Result<Option<Command>, ApiError> {
    match ctx.store.get(&key(id)).await.api()? {
        Some(item) => Ok(Some(from_item(item)?)),
        None => Ok(None),
    }
}

/// A pile's commands, newest first.
pub async fn list(ctx: &AppCtx, pile_id: &str, size: u32, cursor: Option<String>) -> Result<(Vec<Command>, Option<String>), ApiError> {
    let q = Query::index(Index::Gsi1, format!("CMDS#{pile_id}")).backward().limit(size).after(cursor);
    let page = ctx.store.query(q).await.api()?;
    Ok((page.items.into_iter().map(from_item).collect::<Result<_, _>>()?, page.cursor))
}

/// Queues a command and sends it if the charger has no call in flight.
/// Returns the command as it stands after that (queued, sent or offline).
pub async fn submit(ctx: &AppCtx, pile_id: &str, action: &str, payload: Value, by: &str) -> Result<Command, ApiError> {
    // The message log's filter offers the listed actions only: a new
    // operation is added to the list first.
    if !super::actions::sent_by_server(action) {
        tracing::error!(action, "a remote operation sends an action missing from chargers::actions");
        return Err(ApiError::internal());
    }
    let now = ctx.now();
    let id = uuid::Uuid::now_v7().simple().to_string();
    let c = Command {
        id: id.clone(),
        pile_id: pile_id.into(),
        action: action.into(),
        payload,
        requested_by: by.into(),
        status: CommandStatus::Queued,
        response: None,
        error: None,
        created_at: now,
        sent_at: None,
        answered_at: None,
    };
    let sort = format!("{}#{id}", time_sort(now));
    let k = key(&id);
    let item = to_item(&c, &[(store::PK, k.pk), (store::SK, k.sk), ("GSI1PK", format!("CMDS#{pile_id}")), ("GSI1SK", sort.clone()), ("GSI2PK", queue_pk(pile_id)), ("GSI2SK", sort)]);
    ctx.store.put(item, Some(Condition::item_absent())).await.api()?;
    pump(ctx, pile_id).await?;
    Ok(get(ctx, &id).await?.unwrap_or(c))
}

fn finish_actions(status: CommandStatus, now: i64, response: Option<&Value>, error: Option<&LoggedError>) -> Vec<UpdateAction> {
    vec![
        UpdateAction::Set("status".into(), json!(status)),
        UpdateAction::Set("answeredAt".into(), json!(now)),
        UpdateAction::Set("response".into(), json!(response)),
        UpdateAction::Set("error".into(), json!(error)),
        UpdateAction::Remove("GSI2PK".into()),
        UpdateAction::Remove("GSI2SK".into()),
    ]
}

/// Ends a command that is `from` (queued or sent) with `status`; false when
/// it was no longer `from` (another path ended it first).
async fn finish(ctx: &AppCtx, c: &Command, from: CommandStatus, status: CommandStatus, response: Option<Value>, error: Option<LoggedError>) -> Result<bool, ApiError> {
    let now = ctx.now();
    let cond = Condition::Eq("status".into(), json!(from));
    match ctx.store.update(&key(&c.id), finish_actions(status, now, response.as_ref(), error.as_ref()), Some(cond)).await {
        Ok(_) => {}
        Err(store::StoreError::ConditionFailed) => return Ok(false),
        Err(e) => return Err(crate::domain::store_error(e)),
    }
    // One log entry per exchange, written when it ends.
    let entry = MessageLogEntry {
        at: c.sent_at.unwrap_or(now),
        direction: Direction::Out,
        message_id: Some(c.id.clone()),
        action: Some(c.action.clone()),
        request: c.payload.clone(),
        response,
        error,
        answered_at: Some(now),
    };
    if let Err(e) = log::append(ctx, &c.pile_id, entry.clone()).await {
        tracing::warn!(error = %e.msg.en, "could not log a command");
    }
    // The system log gets the charger's answer beside the request.
    let outcome = match (&entry.error, &entry.response) {
        (Some(e), _) => format!("{status:?}: {} {}", e.code, e.description),
        (None, Some(r)) => format!("{}{}", crate::domain::audit::CHARGER_ANSWERED, r.get("status").and_then(Value::as_str).map(String::from).unwrap_or_else(|| r.to_string())),
        (None, None) => format!("{status:?}"),
    };
    crate::domain::audit::record_charger_answer(ctx, &c.requested_by, &c.action, &c.pile_id, &outcome).await;
    Ok(true)
}

async fn release_slot(ctx: &AppCtx, pile_id: &str, command_id: &str) -> Result<(), ApiError> {
    match ctx.store.delete(&slot_key(pile_id), Some(Condition::Eq("commandId".into(), json!(command_id)))).await {
        Ok(_) | Err(store::StoreError::ConditionFailed) => Ok(()),
        Err(e) => Err(crate::domain::store_error(e)),
    }
}

fn lost(code: &str, description: &str) -> LoggedError {
    LoggedError { code: code.into(), description: description.into() }
}

/// Sends the oldest queued command if no call is in flight; commands of a
/// charger that is not connected end offline.
pub async fn pump(ctx: &AppCtx, pile_id: &str) -> Result<(), ApiError> {
    loop {
        let q = Query::index(Index::Gsi2, queue_pk(pile_id)).limit(1);
        let Some(next) = ctx.store.query(q).await.api()?.items.into_iter().next() else { return Ok(()) };
        let c: Command = from_item(next)?;
        let now = ctx.now();
        // A call past its timeout ends now, before its slot is taken over.
        if let Some(held) = ctx.store.get(&slot_key(pile_id)).await.api()? {
            let expired = held.get("until").and_then(Value::as_i64).is_some_and(|u| u < now);
            if let (true, Some(old)) = (expired, held.get("commandId").and_then(Value::as_str)) {
                time_out(ctx, old).await?;
            }
        }
        // Take the slot: free, or held by a call past its timeout.
        let until = now + TIMEOUT_SECS;
        let mut slot = slot_key(pile_id).to_item();
        slot.insert("commandId".into(), json!(c.id));
        slot.insert("until".into(), json!(until));
        slot.insert("GSI1PK".into(), json!(SLOTS_PK));
        slot.insert("GSI1SK".into(), json!(format!("{}#{pile_id}", time_sort(until))));
        let free = Condition::Or(vec![Condition::item_absent(), Condition::Lt("until".into(), json!(now))]);
        match ctx.store.put(slot, Some(free)).await {
            Ok(()) => {}
            Err(store::StoreError::ConditionFailed) => return Ok(()),
            Err(e) => return Err(crate::domain::store_error(e)),
        }
        let link = link::get(ctx, pile_id).await?.filter(|l| l.connected);
        let outbound = ctx.outbound.get();
        let (Some(link), Some(outbound)) = (link, outbound) else {
            finish(ctx, &c, CommandStatus::Queued, CommandStatus::Offline, None, Some(lost("Offline", "the charger is not connected"))).await?;
            follow_up(ctx, &Command { status: CommandStatus::Offline, error: Some(lost("Offline", "not connected")), ..c.clone() }).await?;
            release_slot(ctx, pile_id, &c.id).await?;
            continue;
        };
        let sent = vec![UpdateAction::Set("status".into(), json!(CommandStatus::Sent)), UpdateAction::Set("sentAt".into(), json!(now)), UpdateAction::Remove("GSI2PK".into()), UpdateAction::Remove("GSI2SK".into())];
        match ctx.store.update(&key(&c.id), sent, Some(Condition::Eq("status".into(), json!(CommandStatus::Queued)))).await {
            Ok(_) => {}
            Err(store::StoreError::ConditionFailed) => {
                release_slot(ctx, pile_id, &c.id).await?;
                continue;
            }
            Err(e) => return Err(crate::domain::store_error(e)),
        }
        let frame = json!([2, c.id, c.action, c.payload]).to_string();
        if outbound.send(pile_id, &link.connection_id, frame).await.is_err() {
            let c = Command { sent_at: Some(now), ..c };
            finish(ctx, &c, CommandStatus::Sent, CommandStatus::Offline, None, Some(lost("Offline", "the charger's connection is gone"))).await?;
            release_slot(ctx, pile_id, &c.id).await?;
            continue;
        }
        return Ok(());
    }
}

/// What became of a charger's answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Completion {
    Applied(Command),
    /// The command had already ended (timed out): logged, not applied.
    Late,
    /// No command of this charger has this id.
    Unknown,
}

/// A CALLRESULT (`Ok(payload)`) or CALLERROR (`Err`) for `message_id`.
pub async fn complete(ctx: &AppCtx, pile_id: &str, message_id: &str, answer: Result<Value, LoggedError>) -> Result<Completion, ApiError> {
    let Some(c) = get(ctx, message_id).await?.filter(|c| c.pile_id == pile_id) else { return Ok(Completion::Unknown) };
    if c.status != CommandStatus::Sent {
        tracing::info!(pile = pile_id, command = message_id, status = ?c.status, "late answer: logged, not applied");
        return Ok(Completion::Late);
    }
    let (status, response, error) = match answer {
        Ok(v) => (CommandStatus::Answered, Some(v), None),
        Err(e) => (CommandStatus::CallError, None, Some(e)),
    };
    if !finish(ctx, &c, CommandStatus::Sent, status, response.clone(), error.clone()).await? {
        return Ok(Completion::Late);
    }
    release_slot(ctx, pile_id, &c.id).await?;
    let done = Command { status, response, error, answered_at: Some(ctx.now()), ..c };
    follow_up(ctx, &done).await?;
    pump(ctx, pile_id).await?;
    Ok(Completion::Applied(done))
}

async fn time_out(ctx: &AppCtx, command_id: &str) -> Result<bool, ApiError> {
    match get(ctx, command_id).await? {
        Some(c) => {
            let ended = finish(ctx, &c, CommandStatus::Sent, CommandStatus::Timeout, None, Some(lost("Timeout", &format!("no answer within {TIMEOUT_SECS} s")))).await?;
            if ended {
                follow_up(ctx, &Command { status: CommandStatus::Timeout, error: Some(lost("Timeout", "no answer")), ..c }).await?;
            }
            Ok(ended)
        }
        None => Ok(false),
    }
}

/// What an ended command changes besides itself: a reservation follows
/// the charger's answer.
async fn follow_up(ctx: &AppCtx, c: &Command) -> Result<(), ApiError> {
    use super::reservations::{self, ReservationStatus};
    let answer = c.response.as_ref().and_then(|r| r.get("status")).and_then(Value::as_str);
    let Some(id) = c.payload.get("reservationId").and_then(Value::as_i64) else { return Ok(()) };
    match (c.action.as_str(), answer) {
        ("ReserveNow", Some("Accepted")) => reservations::set_status(ctx, id, ReservationStatus::Reserved, answer).await,
        ("ReserveNow", _) => reservations::set_status(ctx, id, ReservationStatus::Refused, answer.or(c.error.as_ref().map(|e| e.code.as_str()))).await,
        ("CancelReservation", Some("Accepted")) => reservations::set_status(ctx, id, ReservationStatus::Cancelled, answer).await,
        _ => Ok(()),
    }
}

/// Times out calls past their deadline (the sweeper, every few seconds
/// locally, every minute on AWS); returns how many.
pub async fn expire(ctx: &AppCtx) -> Result<usize, ApiError> {
    let now = ctx.now();
    let q = Query::index(Index::Gsi1, SLOTS_PK).sort_key(SortKey::Lt(time_sort(now))).limit(200);
    let slots = ctx.store.query(q).await.api()?.items;
    let mut n = 0;
    for slot in slots {
        let (Some(pile_id), Some(command_id)) = (
            slot.get("PK").and_then(Value::as_str).and_then(|pk| pk.strip_prefix("OCPPSLOT#")).map(String::from),
            slot.get("commandId").and_then(Value::as_str).map(String::from),
        ) else {
            continue;
        };
        if time_out(ctx, &command_id).await? {
            n += 1;
        }
        release_slot(ctx, &pile_id, &command_id).await?;
        pump(ctx, &pile_id).await?;
    }
    Ok(n)
}
