//! Remote operations: calls from the back-office to a charger. Each is a
//! command with a visible state, QUEUED -> SENT -> ANSWERED / CALLERROR /
//! TIMEOUT / OFFLINE / CONNECTION CLOSED. One call is in flight per charger
//! (a slot item taken with a conditional write); the others wait in order.
//! No HTTP request waits for a charger: a route queues the command and
//! pumps the queue; the charger's answer (a CALLRESULT / CALLERROR with the
//! command's id as the message id) completes it and pumps the next; the
//! sweeper times out what was never answered. A late or unknown answer is
//! logged, never applied.
//!
//! A command is sent on the connection that is live when it is taken from
//! the queue, and only an answer on that connection completes it. When that
//! connection ends, the call ends at once (`ConnectionClosed`) and the slot
//! is free; the queue then waits for the charger to come back (a hold on
//! the slot) and goes on at the new connection's first message, or ends
//! offline when the charger is not back within [`RECONNECT_GRACE_SECS`].
//! An accepted Reset holds the queue until the charger's BootNotification
//! (it is about to restart), at most [`RESET_GRACE_SECS`]; a 2.0.1 Reset of
//! one EVSE does not (the station itself stays up).
//!
//! The queue's indexes are eventually consistent on DynamoDB: a query may
//! miss a command just queued and still list one already sent. So the
//! queue's head is always read again by key (a consistent read) before it
//! is sent, the command a route just queued is pumped by its key, and the
//! sweeper pumps every command queued longer than [`QUEUE_STALE_SECS`].
//!
//! | record | PK | SK | listed by |
//! |---|---|---|---|
//! | command | `CMD#{id}` | `CMD` | GSI1 `CMDS#{pileId}` / `{createdAt:012}#{id}`; while queued GSI2 `CMDQ#{pileId}` / same and GSI3 `CMDQUEUED` / same (the sweeper's) |
//! | in-flight slot (`commandId`, `connectionId`) or hold (`hold`) | `OCPPSLOT#{pileId}` | `SLOT` | GSI1 `OCPPSLOTS` / `{until:012}#{pileId}` (the sweeper's timeouts) |

use envelope::ApiError;
use ocpp::schema::Mode;
use ocpp::v16::{self, Request};
use ocpp::{v201, Version};
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
/// How long queued commands wait for a charger whose connection ended to
/// come back before they end offline.
pub const RECONNECT_GRACE_SECS: i64 = 60;
/// How long queued commands wait for the BootNotification of a charger
/// that accepted a Reset (a charger takes a minute or two to restart).
pub const RESET_GRACE_SECS: i64 = 180;
/// A command still queued this long after it was queued is pumped by the
/// sweeper (its pump may have missed it: the queue index lags its writes).
pub const QUEUE_STALE_SECS: i64 = 5;
/// How many listed commands the pump reads again by key to find the
/// queue's head (the first ones may have been sent already).
const QUEUE_LOOKAHEAD: u32 = 10;

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
    /// The connection it was sent on ended before the charger answered.
    ConnectionClosed,
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
    /// The connection it was sent on (only an answer there completes it).
    #[serde(default)]
    pub connection_id: Option<String>,
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

/// Every queued command, of every charger (GSI3), oldest first.
pub const QUEUED_PK: &str = "CMDQUEUED";

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

/// A new command id (also the OCPP message id of its call).
pub fn new_id() -> String {
    uuid::Uuid::now_v7().simple().to_string()
}

/// The configuration key that is the charger's password (OCPP 1.6
/// security whitepaper); keys are compared without regard to letter case.
pub const AUTHORIZATION_KEY: &str = "AuthorizationKey";

pub fn is_authorization_key(key: &str) -> bool {
    key.trim().eq_ignore_ascii_case(AUTHORIZATION_KEY)
}

/// What a shown or stored secret reads as.
pub const REDACTED: &str = "***";

/// A charger's payload as it may be stored and shown: a password it
/// should never send (both are write-only) reads `***`. That is the
/// value of an AuthorizationKey a 1.6 charger lists in its configuration,
/// and SecurityCtrlr.BasicAuthPassword's value in a 2.0.1 station's
/// GetVariables answer, NotifyReport or NotifyEvent.
pub fn redact_passwords(mut v: Value) -> Value {
    let each = |v: &mut Value, list: &str, secret: &dyn Fn(&Value) -> bool, hide: &dyn Fn(&mut Value)| {
        for item in v.get_mut(list).and_then(Value::as_array_mut).into_iter().flatten() {
            if secret(item) {
                hide(item);
            }
        }
    };
    let set = |item: &mut Value, field: &str| {
        if let Some(value) = item.get_mut(field) {
            *value = json!(REDACTED);
        }
    };
    each(&mut v, "configurationKey", &|k| k.get("key").and_then(Value::as_str).is_some_and(is_authorization_key), &|k| set(k, "value"));
    each(&mut v, "getVariableResult", &names_password, &|r| set(r, "attributeValue"));
    each(&mut v, "eventData", &names_password, &|e| set(e, "actualValue"));
    each(&mut v, "reportData", &names_password, &|d| {
        for attribute in d.get_mut("variableAttribute").and_then(Value::as_array_mut).into_iter().flatten() {
            set(attribute, "value");
        }
    });
    v
}

/// Sends a call at once, never through the queue, for a payload that must
/// not be stored as sent (a key): the record (and so the message log and
/// every answer) keeps `stored`, the charger gets `wire`, which lives only
/// in this request. Refused with 409 (nothing written) while another call
/// is in flight or waiting, or the queue waits for the charger; a charger
/// that is not connected gets the command ended offline. `key_hash`: the
/// hash of an AuthorizationKey in `wire`, kept beside the pile's password
/// once the call holds the charger's slot (so nothing else can replace it
/// before the answer).
pub async fn send_now<R: Request>(ctx: &AppCtx, pile_id: &str, stored: &R, wire: &R, key_hash: Option<&str>, by: &str) -> Result<Command, ApiError> {
    send_now_as(ctx, pile_id, Version::V16, R::ACTION.name(), payload_of(stored)?, payload_of(wire)?, key_hash, by).await
}

/// [`send_now`] for a charger that speaks OCPP 2.0.1.
pub async fn send_now_v201<R: v201::Request>(ctx: &AppCtx, pile_id: &str, stored: &R, wire: &R, key_hash: Option<&str>, by: &str) -> Result<Command, ApiError> {
    let json = |r: &R| serde_json::to_value(r).map_err(|_| ApiError::internal());
    send_now_as(ctx, pile_id, Version::V201, R::ACTION.name(), json(stored)?, json(wire)?, key_hash, by).await
}

#[allow(clippy::too_many_arguments)]
async fn send_now_as(ctx: &AppCtx, pile_id: &str, version: Version, action: &str, stored: Value, wire: Value, key_hash: Option<&str>, by: &str) -> Result<Command, ApiError> {
    if let Err(problem) = check_call(version, action, &wire) {
        tracing::error!(action, problem, "a call could not be sent");
        return Err(ApiError::internal());
    }
    let id = &new_id();
    let now = ctx.now();
    let busy = || {
        ApiError::new(409, envelope::msg::chargers::command::busy_not_queued())
    };
    if has_queued(ctx, pile_id).await? {
        return Err(busy());
    }
    let mut c = Command {
        id: id.into(),
        pile_id: pile_id.into(),
        action: action.into(),
        payload: stored,
        requested_by: by.into(),
        status: CommandStatus::Queued,
        response: None,
        error: None,
        created_at: now,
        sent_at: None,
        answered_at: None,
        connection_id: None,
    };
    let sort = format!("{}#{id}", time_sort(now));
    let k = key(id);
    let listed = |c: &Command| to_item(c, &[(store::PK, k.pk.clone()), (store::SK, k.sk.clone()), ("GSI1PK", format!("CMDS#{pile_id}")), ("GSI1SK", sort.clone())]);
    let link = link::get(ctx, pile_id).await?.filter(|l| l.connected && !l.connection_id.is_empty());
    if let (Some(l), Some(out)) = (&link, ctx.outbound.get()) {
        if !link::reaches(ctx, out.as_ref(), &l.connection_id).await? {
            // Its payload lives only in this request, so it cannot wait in
            // the queue for the edge that holds the socket.
            return Err(ApiError::new(409, envelope::msg::chargers::command::other_edge()));
        }
    }
    let (Some(link), Some(outbound)) = (link, ctx.outbound.get()) else {
        ctx.store.put(listed(&c), Some(Condition::item_absent())).await.api()?;
        finish(ctx, &c, CommandStatus::Queued, CommandStatus::Offline, None, Some(lost("Offline", "the charger is not connected"))).await?;
        let c = Command { status: CommandStatus::Offline, error: Some(lost("Offline", "not connected")), answered_at: Some(now), ..c };
        follow_up(ctx, &c).await?;
        return Ok(c);
    };
    let slot = slot_item(pile_id, now + TIMEOUT_SECS, &[("commandId", id), ("connectionId", &link.connection_id)]);
    match ctx.store.put(slot, Some(Condition::item_absent())).await {
        Ok(()) => {}
        Err(store::StoreError::ConditionFailed) => return Err(busy()),
        Err(e) => return Err(crate::domain::store_error(e)),
    }
    if let Some(phc) = key_hash {
        if let Err(e) = super::secret::stage_key(ctx, pile_id, phc, id).await {
            release_slot(ctx, pile_id, id).await?;
            return Err(e);
        }
    }
    c.status = CommandStatus::Sent;
    c.sent_at = Some(now);
    c.connection_id = Some(link.connection_id.clone());
    if let Err(e) = ctx.store.put(listed(&c), Some(Condition::item_absent())).await {
        release_slot(ctx, pile_id, id).await?;
        return Err(crate::domain::store_error(e));
    }
    if outbound.send(pile_id, &link.connection_id, ocpp::frame::call(id, action, &wire)).await.is_err() {
        finish(ctx, &c, CommandStatus::Sent, CommandStatus::Offline, None, Some(lost("Offline", "the charger's connection is gone"))).await?;
        let c = Command { status: CommandStatus::Offline, error: Some(lost("Offline", "connection gone")), answered_at: Some(now), ..c };
        follow_up(ctx, &c).await?;
        release_slot(ctx, pile_id, id).await?;
        return Ok(c);
    }
    Ok(c)
}

/// A typed call's payload as it is stored and sent.
fn payload_of<R: Request>(request: &R) -> Result<Value, ApiError> {
    serde_json::to_value(request).map_err(|e| {
        tracing::error!(action = %R::ACTION, error = %e, "a call's payload could not be written");
        ApiError::internal()
    })
}

/// A fresh requestId for GetLog and SignedUpdateFirmware (their
/// notifications name it), one sequence for the fleet.
pub async fn next_request_id(ctx: &AppCtx) -> Result<i64, ApiError> {
    let item = ctx.store.update(&Key::new("OCPPSEQ", "REQ"), vec![UpdateAction::Add("seq".into(), 1)], None).await.api()?;
    item.get("seq").and_then(Value::as_i64).ok_or_else(ApiError::internal)
}

/// Queues a typed call (`ocpp::v16` request) and sends it if the charger
/// has no call in flight. Returns the command as it stands after that
/// (queued, sent or offline).
pub async fn send<R: Request>(ctx: &AppCtx, pile_id: &str, request: &R, by: &str) -> Result<Command, ApiError> {
    submit(ctx, pile_id, R::ACTION.name(), payload_of(request)?, by).await
}

/// [`send`] for a charger that speaks OCPP 2.0.1 (an `ocpp::v201` request).
pub async fn send_v201<R: v201::Request>(ctx: &AppCtx, pile_id: &str, request: &R, by: &str) -> Result<Command, ApiError> {
    let payload = serde_json::to_value(request).map_err(|e| {
        tracing::error!(action = %R::ACTION, error = %e, "a call's payload could not be written");
        ApiError::internal()
    })?;
    submit_as(ctx, pile_id, Version::V201, R::ACTION.name(), payload, by).await
}

/// Queues an OCPP 1.6 call given as JSON ([`submit_as`]). Prefer [`send`].
pub async fn submit(ctx: &AppCtx, pile_id: &str, action: &str, payload: Value, by: &str) -> Result<Command, ApiError> {
    submit_as(ctx, pile_id, Version::V16, action, payload, by).await
}

/// Queues a call given as JSON: the action must be one the server sends
/// in `version` and the payload must hold to its schema (a program error
/// otherwise: logged, 500, nothing queued).
pub async fn submit_as(ctx: &AppCtx, pile_id: &str, version: Version, action: &str, payload: Value, by: &str) -> Result<Command, ApiError> {
    let c = queue_only(ctx, pile_id, version, action, payload, by).await?;
    // By its key: the queue index may not list it yet.
    pump_queue(ctx, pile_id, Wake::Queue, Some(&c.id)).await?;
    Ok(get(ctx, &c.id).await?.unwrap_or(c))
}

/// Queues a typed call to go out after the answer the charger is waiting
/// for now (a handler of the charger's message queues it; the session's
/// `after_reply` pumps the queue once the answer is sent), as
/// CertificateSigned follows SignCertificate's Accepted.
pub async fn send_after_reply<R: Request>(ctx: &AppCtx, pile_id: &str, request: &R, by: &str) -> Result<Command, ApiError> {
    queue_only(ctx, pile_id, Version::V16, R::ACTION.name(), payload_of(request)?, by).await
}

/// Whether the server sends `action` in `version`, with a payload that
/// holds to its schema (`Err`: why not, for the log).
fn check_call(version: Version, action: &str, payload: &Value) -> Result<(), String> {
    let checked = match version {
        Version::V16 => v16::Action::from_name(action).filter(|a| super::actions::sent_by_server(*a)).map(|a| a.check_request(payload, Mode::Strict)),
        Version::V201 => v201::Action::from_name(action).filter(|a| a.sender() != ocpp::Sender::Charger).map(|a| a.check_request(payload, Mode::Strict)),
    };
    match checked {
        None => Err(format!("the server does not send {action} in OCPP {}", version.label())),
        Some(Err(v)) => Err(format!("the payload breaks the OCPP {} schema of {action}: {v}", version.label())),
        Some(Ok(())) => Ok(()),
    }
}

/// [`send_after_reply`] for a charger that speaks OCPP 2.0.1.
pub async fn send_after_reply_v201<R: v201::Request>(ctx: &AppCtx, pile_id: &str, request: &R, by: &str) -> Result<Command, ApiError> {
    let payload = serde_json::to_value(request).map_err(|_| ApiError::internal())?;
    queue_only(ctx, pile_id, Version::V201, R::ACTION.name(), payload, by).await
}

/// Queues a command for a YKC pile (`ykc_platform::calls`): its frame
/// must build from the payload (a program error otherwise: logged, 500,
/// nothing queued). The pile's link turns it into the frame when sent.
pub async fn submit_ykc(ctx: &AppCtx, pile_id: &str, action: &str, payload: Value, by: &str) -> Result<Command, ApiError> {
    if let Err(problem) = super::ykc_platform::calls::check(action, &payload) {
        tracing::error!(action, problem, "a YKC command could not be queued");
        return Err(ApiError::internal());
    }
    let c = queue_unchecked(ctx, pile_id, action, payload, by).await?;
    pump_queue(ctx, pile_id, Wake::Queue, Some(&c.id)).await?;
    Ok(get(ctx, &c.id).await?.unwrap_or(c))
}

async fn queue_only(ctx: &AppCtx, pile_id: &str, version: Version, action: &str, payload: Value, by: &str) -> Result<Command, ApiError> {
    if let Err(problem) = check_call(version, action, &payload) {
        tracing::error!(action, problem, "a remote operation could not be queued");
        return Err(ApiError::internal());
    }
    queue_unchecked(ctx, pile_id, action, payload, by).await
}

async fn queue_unchecked(ctx: &AppCtx, pile_id: &str, action: &str, payload: Value, by: &str) -> Result<Command, ApiError> {
    let now = ctx.now();
    let id = new_id();
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
        connection_id: None,
    };
    let sort = format!("{}#{id}", time_sort(now));
    let k = key(&id);
    let item = to_item(
        &c,
        &[
            (store::PK, k.pk),
            (store::SK, k.sk),
            ("GSI1PK", format!("CMDS#{pile_id}")),
            ("GSI1SK", sort.clone()),
            ("GSI2PK", queue_pk(pile_id)),
            ("GSI2SK", sort.clone()),
            ("GSI3PK", QUEUED_PK.into()),
            ("GSI3SK", sort),
        ],
    );
    ctx.store.put(item, Some(Condition::item_absent())).await.api()?;
    Ok(c)
}

fn finish_actions(status: CommandStatus, now: i64, response: Option<&Value>, error: Option<&LoggedError>) -> Vec<UpdateAction> {
    vec![
        UpdateAction::Set("status".into(), json!(status)),
        UpdateAction::Set("answeredAt".into(), json!(now)),
        UpdateAction::Set("response".into(), json!(response)),
        UpdateAction::Set("error".into(), json!(error)),
        UpdateAction::Remove("GSI2PK".into()),
        UpdateAction::Remove("GSI2SK".into()),
        UpdateAction::Remove("GSI3PK".into()),
        UpdateAction::Remove("GSI3SK".into()),
    ]
}

/// Ends a command that is `from` (queued or sent) with `status`; false when
/// it was no longer `from` (another path ended it first). A sent command
/// ends only as sent on the connection it was sent on.
async fn finish(ctx: &AppCtx, c: &Command, from: CommandStatus, status: CommandStatus, response: Option<Value>, error: Option<LoggedError>) -> Result<bool, ApiError> {
    finish_logged(ctx, c, from, status, response, error, None).await
}

/// [`finish`], logging the frames of a binary protocol's exchange beside it.
async fn finish_logged(ctx: &AppCtx, c: &Command, from: CommandStatus, status: CommandStatus, response: Option<Value>, error: Option<LoggedError>, raw: Option<super::log::RawFrames>) -> Result<bool, ApiError> {
    let now = ctx.now();
    let mut cond = Condition::Eq("status".into(), json!(from));
    if let (CommandStatus::Sent, Some(connection)) = (from, &c.connection_id) {
        cond = Condition::And(vec![cond, Condition::Eq("connectionId".into(), json!(connection))]);
    }
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
        raw,
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

/// Why the queue of a charger waits although no call is in flight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hold {
    /// Its connection ended: for it to come back.
    Reconnect,
    /// It accepted a Reset: for its BootNotification.
    Boot,
}

impl Hold {
    fn as_str(self) -> &'static str {
        match self {
            Hold::Reconnect => "reconnect",
            Hold::Boot => "boot",
        }
    }
}

/// The slot item as read.
#[derive(Debug, Clone, PartialEq)]
enum Slot {
    InFlight { command_id: String, connection_id: Option<String>, until: i64 },
    Held { hold: Hold, until: i64 },
    /// Neither (an item this code does not know): treated as in flight until it expires.
    Other { until: i64 },
}

async fn read_slot(ctx: &AppCtx, pile_id: &str) -> Result<Option<Slot>, ApiError> {
    let Some(item) = ctx.store.get(&slot_key(pile_id)).await.api()? else { return Ok(None) };
    let until = item.get("until").and_then(Value::as_i64).unwrap_or(0);
    let text = |f: &str| item.get(f).and_then(Value::as_str).map(String::from);
    Ok(Some(match (text("commandId"), text("hold").as_deref()) {
        (Some(command_id), _) => Slot::InFlight { command_id, connection_id: text("connectionId"), until },
        (None, Some("reconnect")) => Slot::Held { hold: Hold::Reconnect, until },
        (None, Some("boot")) => Slot::Held { hold: Hold::Boot, until },
        _ => Slot::Other { until },
    }))
}

fn slot_item(pile_id: &str, until: i64, fields: &[(&str, &str)]) -> store::Item {
    let mut slot = slot_key(pile_id).to_item();
    for (k, v) in fields {
        slot.insert((*k).into(), json!(v));
    }
    slot.insert("until".into(), json!(until));
    slot.insert("GSI1PK".into(), json!(SLOTS_PK));
    slot.insert("GSI1SK".into(), json!(format!("{}#{pile_id}", time_sort(until))));
    slot
}

/// Holds the queue (when no call is in flight) until the charger is back
/// or `secs` pass; an existing hold or call is left as it is.
async fn hold(ctx: &AppCtx, pile_id: &str, kind: Hold, secs: i64) -> Result<(), ApiError> {
    let item = slot_item(pile_id, ctx.now() + secs, &[("hold", kind.as_str())]);
    match ctx.store.put(item, Some(Condition::item_absent())).await {
        Ok(()) | Err(store::StoreError::ConditionFailed) => Ok(()),
        Err(e) => Err(crate::domain::store_error(e)),
    }
}

async fn has_queued(ctx: &AppCtx, pile_id: &str) -> Result<bool, ApiError> {
    Ok(!ctx.store.query(Query::index(Index::Gsi2, queue_pk(pile_id)).limit(1)).await.api()?.items.is_empty())
}

/// The oldest command of the pile that is still queued, read by key. The
/// queue index may lag: it can miss `just_queued` (read by key here
/// whatever the index says) and list commands already sent (skipped).
async fn queue_head(ctx: &AppCtx, pile_id: &str, just_queued: Option<&str>) -> Result<Option<Command>, ApiError> {
    let queued = |c: &Command| c.pile_id == pile_id && c.status == CommandStatus::Queued;
    let hinted = match just_queued {
        Some(id) => get(ctx, id).await?.filter(queued),
        None => None,
    };
    let order = |c: &Command| (c.created_at, c.id.clone());
    let listed = ctx.store.query(Query::index(Index::Gsi2, queue_pk(pile_id)).limit(QUEUE_LOOKAHEAD)).await.api()?.items;
    for item in listed {
        let Some(id) = item.get("id").and_then(Value::as_str) else { continue };
        let created = item.get("createdAt").and_then(Value::as_i64).unwrap_or_default();
        if hinted.as_ref().is_some_and(|h| order(h) <= (created, id.to_string())) {
            break;
        }
        if let Some(c) = get(ctx, id).await?.filter(queued) {
            return Ok(Some(c));
        }
    }
    Ok(hinted)
}

/// What makes the queue move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wake {
    /// A command was queued or ended (or the sweeper's turn): a held queue stays held.
    Queue,
    /// The charger's first message on a new connection: the charger is back.
    Reconnected,
    /// A BootNotification: the charger (re)started.
    Booted,
}

impl Wake {
    fn releases(self, hold: Hold) -> bool {
        matches!((self, hold), (Wake::Booted, _) | (Wake::Reconnected, Hold::Reconnect))
    }
}

/// Sends the oldest queued command if no call is in flight and the queue
/// is not held; commands of a charger that is not connected (and not
/// expected back) end offline.
pub async fn pump(ctx: &AppCtx, pile_id: &str, wake: Wake) -> Result<(), ApiError> {
    pump_queue(ctx, pile_id, wake, None).await
}

/// [`pump`], knowing a command that was just queued (`just_queued`, read by
/// its key: the queue index may not list it yet).
async fn pump_queue(ctx: &AppCtx, pile_id: &str, wake: Wake, just_queued: Option<&str>) -> Result<(), ApiError> {
    loop {
        let now = ctx.now();
        // Take the slot: free, held by a call past its timeout, or a hold
        // that this wake releases (or that is over).
        let take = match read_slot(ctx, pile_id).await? {
            None => Condition::item_absent(),
            Some(Slot::InFlight { until, .. } | Slot::Other { until }) if until >= now => return Ok(()),
            Some(Slot::InFlight { command_id, until, .. }) => {
                // A call past its timeout ends now, before its slot is taken over.
                time_out(ctx, &command_id).await?;
                Condition::Eq("until".into(), json!(until))
            }
            Some(Slot::Other { until }) => Condition::Eq("until".into(), json!(until)),
            Some(Slot::Held { hold, until }) if until >= now && !wake.releases(hold) => return Ok(()),
            Some(Slot::Held { hold, until }) => {
                // Released: without a queue there is nothing to hold any more.
                let held = Condition::And(vec![Condition::Eq("hold".into(), json!(hold.as_str())), Condition::Eq("until".into(), json!(until))]);
                if queue_head(ctx, pile_id, just_queued).await?.is_none() {
                    match ctx.store.delete(&slot_key(pile_id), Some(held)).await {
                        Ok(_) | Err(store::StoreError::ConditionFailed) => return Ok(()),
                        Err(e) => return Err(crate::domain::store_error(e)),
                    }
                }
                held
            }
        };
        let Some(c) = queue_head(ctx, pile_id, just_queued).await? else { return Ok(()) };
        let link = link::get(ctx, pile_id).await?.filter(|l| l.connected && !l.connection_id.is_empty());
        let outbound = ctx.outbound.get();
        let connection = link.as_ref().map(|l| l.connection_id.clone()).unwrap_or_default();
        if let (Some(_), Some(out)) = (&link, outbound) {
            if !link::reaches(ctx, out.as_ref(), &connection).await? {
                // The other edge holds the socket (a Lambda cannot reach a
                // container task's): the command stays queued, and the
                // holder's sweeper sends it within seconds.
                tracing::info!(pile = pile_id, command = %c.id, "queued for the edge that holds the charger's socket");
                return Ok(());
            }
        }
        let until = now + TIMEOUT_SECS;
        let slot = slot_item(pile_id, until, &[("commandId", &c.id), ("connectionId", &connection)]);
        match ctx.store.put(slot, Some(take)).await {
            Ok(()) => {}
            Err(store::StoreError::ConditionFailed) => return Ok(()),
            Err(e) => return Err(crate::domain::store_error(e)),
        }
        let (Some(_), Some(outbound)) = (link, outbound) else {
            finish(ctx, &c, CommandStatus::Queued, CommandStatus::Offline, None, Some(lost("Offline", "the charger is not connected"))).await?;
            follow_up(ctx, &Command { status: CommandStatus::Offline, error: Some(lost("Offline", "not connected")), ..c.clone() }).await?;
            release_slot(ctx, pile_id, &c.id).await?;
            continue;
        };
        let sent = vec![
            UpdateAction::Set("status".into(), json!(CommandStatus::Sent)),
            UpdateAction::Set("sentAt".into(), json!(now)),
            UpdateAction::Set("connectionId".into(), json!(connection)),
            UpdateAction::Remove("GSI2PK".into()),
            UpdateAction::Remove("GSI2SK".into()),
            UpdateAction::Remove("GSI3PK".into()),
            UpdateAction::Remove("GSI3SK".into()),
        ];
        match ctx.store.update(&key(&c.id), sent, Some(Condition::Eq("status".into(), json!(CommandStatus::Queued)))).await {
            Ok(_) => {}
            Err(store::StoreError::ConditionFailed) => {
                release_slot(ctx, pile_id, &c.id).await?;
                continue;
            }
            Err(e) => return Err(crate::domain::store_error(e)),
        }
        // Only to the connection recorded on the command: if it is gone by
        // now, the command ends offline (never sent on a later one).
        let frame = ocpp::frame::call(&c.id, &c.action, &c.payload);
        if outbound.send(pile_id, &connection, frame).await.is_err() {
            let c = Command { sent_at: Some(now), connection_id: Some(connection), ..c };
            finish(ctx, &c, CommandStatus::Sent, CommandStatus::Offline, None, Some(lost("Offline", "the charger's connection is gone"))).await?;
            follow_up(ctx, &Command { status: CommandStatus::Offline, error: Some(lost("Offline", "connection gone")), ..c.clone() }).await?;
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
    /// The command had already ended (timed out, its connection closed) or
    /// was sent on another connection: logged, not applied.
    Late,
    /// No command of this charger has this id.
    Unknown,
}

/// A CALLRESULT (`Ok(payload)`) or CALLERROR (`Err`) for `message_id`,
/// received on `connection_id`.
pub async fn complete(ctx: &AppCtx, pile_id: &str, connection_id: &str, message_id: &str, answer: Result<Value, LoggedError>) -> Result<Completion, ApiError> {
    complete_logged(ctx, pile_id, connection_id, message_id, answer, None).await
}

/// [`complete`], with the frames of the exchange (a YKC command and its
/// answer, in hex) for the message log.
pub async fn complete_logged(ctx: &AppCtx, pile_id: &str, connection_id: &str, message_id: &str, answer: Result<Value, LoggedError>, raw: Option<super::log::RawFrames>) -> Result<Completion, ApiError> {
    let Some(c) = get(ctx, message_id).await?.filter(|c| c.pile_id == pile_id) else { return Ok(Completion::Unknown) };
    let elsewhere = c.connection_id.as_deref().is_some_and(|sent_on| sent_on != connection_id);
    if c.status != CommandStatus::Sent || elsewhere {
        tracing::info!(pile = pile_id, command = message_id, status = ?c.status, elsewhere, "late answer: logged, not applied");
        return Ok(Completion::Late);
    }
    let (status, response, error) = match answer {
        Ok(v) => (CommandStatus::Answered, Some(redact_passwords(v)), None),
        Err(e) => (CommandStatus::CallError, None, Some(e)),
    };
    // Its effects first (the certificate recorded, the key promoted, the
    // reservation held), so whoever sees the command answered sees them:
    // the page lists the certificates once the call is answered. The
    // command was read just now as the call in flight, so a late answer
    // still changes nothing.
    let done = Command { status, response: response.clone(), error: error.clone(), answered_at: Some(ctx.now()), ..c.clone() };
    follow_up(ctx, &done).await?;
    if !finish_logged(ctx, &c, CommandStatus::Sent, status, response.clone(), error.clone(), raw).await? {
        return Ok(Completion::Late);
    }
    let accepted = response.as_ref().and_then(|r| r.get("status")).and_then(Value::as_str) == Some("Accepted");
    // A YKC pile's reboot restarts it the same way (it logs in again); a
    // 2.0.1 Reset of one EVSE restarts only that EVSE (no BootNotification).
    let one_evse = c.action == "Reset" && c.payload.get("evseId").is_some_and(|v| !v.is_null());
    let restarting = (c.action == "Reset" || c.action == super::ykc_platform::calls::REBOOT) && accepted && !one_evse;
    if restarting {
        // The charger restarts now: what is queued waits for its BootNotification
        // (sent now, it would be lost with the old connection).
        ctx.store
            .put(slot_item(pile_id, ctx.now() + RESET_GRACE_SECS, &[("hold", Hold::Boot.as_str())]), Some(Condition::Eq("commandId".into(), json!(c.id))))
            .await
            .or_else(|e| if matches!(e, store::StoreError::ConditionFailed) { Ok(()) } else { Err(e) })
            .api()?;
    } else {
        release_slot(ctx, pile_id, &c.id).await?;
    }
    if !restarting {
        pump(ctx, pile_id, Wake::Queue).await?;
    }
    Ok(Completion::Applied(done))
}

/// A connection of a charger ended (closed, died, replaced, or ended by the
/// sweeper): the call sent on it that has no answer ends now
/// (`ConnectionClosed`) and frees the slot. The queue then goes on at once
/// if a newer connection of the charger is already talking, or waits for
/// the charger to come back.
pub async fn connection_ended(ctx: &AppCtx, pile_id: &str, connection_id: &str) -> Result<(), ApiError> {
    if let Some(Slot::InFlight { command_id, connection_id: Some(on), .. }) = read_slot(ctx, pile_id).await? {
        if on == connection_id {
            if let Some(c) = get(ctx, &command_id).await? {
                let why = lost("ConnectionClosed", "the connection closed before the charger answered");
                if finish(ctx, &c, CommandStatus::Sent, CommandStatus::ConnectionClosed, None, Some(why.clone())).await? {
                    follow_up(ctx, &Command { status: CommandStatus::ConnectionClosed, error: Some(why), ..c }).await?;
                }
            }
            release_slot(ctx, pile_id, &command_id).await?;
        }
    }
    if !has_queued(ctx, pile_id).await? {
        return Ok(());
    }
    let newer = link::get(ctx, pile_id).await?.filter(|l| l.connected && l.connection_id != connection_id);
    if let Some(newer) = newer {
        if link::connection(ctx, &newer.connection_id).await?.is_some_and(|c| c.queue_started) {
            return pump(ctx, pile_id, Wake::Reconnected).await;
        }
    }
    hold(ctx, pile_id, Hold::Reconnect, RECONNECT_GRACE_SECS).await
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

/// The OCPP 2.0.1 variable that is a station's password (its
/// AuthorizationKey).
pub const BASIC_AUTH_PASSWORD: (&str, &str) = ("SecurityCtrlr", "BasicAuthPassword");

/// Whether a 2.0.1 `{component, variable}` names the station's password.
fn names_password(d: &Value) -> bool {
    let name = |p: &str| d.pointer(p).and_then(Value::as_str).unwrap_or_default().to_ascii_lowercase();
    name("/component/name") == BASIC_AUTH_PASSWORD.0.to_ascii_lowercase() && name("/variable/name") == BASIC_AUTH_PASSWORD.1.to_ascii_lowercase()
}

/// Whether a command gives the charger a new password: 1.6's
/// ChangeConfiguration of AuthorizationKey, 2.0.1's SetVariables of
/// SecurityCtrlr.BasicAuthPassword.
pub fn rotates_key(c: &Command) -> bool {
    match c.action.as_str() {
        "ChangeConfiguration" => c.payload.get("key").and_then(Value::as_str).is_some_and(is_authorization_key),
        "SetVariables" => c.payload.get("setVariableData").and_then(Value::as_array).is_some_and(|all| all.iter().any(names_password)),
        _ => false,
    }
}

/// What an ended command changes besides itself: a reservation follows
/// the charger's answer.
async fn follow_up(ctx: &AppCtx, c: &Command) -> Result<(), ApiError> {
    use super::reservations::{self, ReservationStatus};
    use super::secret::{self, KeyOutcome};
    let answer = c.response.as_ref().and_then(|r| r.get("status")).and_then(Value::as_str);
    if rotates_key(c) {
        // A key rotation: the new key is the password once the charger
        // takes it (2.0.1 answers per variable).
        let answer = answer.or_else(|| c.response.as_ref().and_then(|r| r.pointer("/setVariableResult/0/attributeStatus")).and_then(Value::as_str));
        let outcome = match (c.status, answer) {
            (CommandStatus::Answered, Some("Accepted" | "RebootRequired")) => KeyOutcome::Applied,
            (CommandStatus::Timeout | CommandStatus::ConnectionClosed, _) => KeyOutcome::Unknown,
            _ => KeyOutcome::Refused,
        };
        return secret::key_outcome(ctx, &c.pile_id, &c.id, &c.requested_by, outcome).await;
    }
    if super::certificates::follows_answer(&c.action) {
        return super::certificates::command_ended(ctx, c).await;
    }
    // 2.0.1 calls only: 1.6 has no such actions.
    if matches!(c.action.as_str(), "GetVariables" | "SetVariables") {
        return super::device_model::command_ended(ctx, c).await;
    }
    if matches!(c.action.as_str(), "SetVariableMonitoring" | "ClearVariableMonitoring") {
        return super::device_model::monitors::command_ended(ctx, c).await;
    }
    // 2.0.1's ReserveNow names its reservation `id`.
    let reservation = c.payload.get("reservationId").or_else(|| c.payload.get("id").filter(|_| c.action == "ReserveNow"));
    let Some(id) = reservation.and_then(Value::as_i64) else { return Ok(()) };
    match (c.action.as_str(), answer) {
        ("ReserveNow", Some("Accepted")) => reservations::set_status(ctx, id, ReservationStatus::Reserved, answer).await,
        ("ReserveNow", _) => reservations::set_status(ctx, id, ReservationStatus::Refused, answer.or(c.error.as_ref().map(|e| e.code.as_str()))).await,
        ("CancelReservation", Some("Accepted")) => reservations::set_status(ctx, id, ReservationStatus::Cancelled, answer).await,
        _ => Ok(()),
    }
}

/// Times out calls past their deadline, ends holds past their grace and
/// pumps the queue of every charger with a command queued longer than
/// [`QUEUE_STALE_SECS`] (the sweeper, every few seconds locally, every
/// minute on AWS); returns how many calls timed out.
pub async fn expire(ctx: &AppCtx) -> Result<usize, ApiError> {
    let now = ctx.now();
    let q = Query::index(Index::Gsi1, SLOTS_PK).sort_key(SortKey::Lt(time_sort(now))).limit(200);
    let slots = ctx.store.query(q).await.api()?.items;
    let mut n = 0;
    for slot in slots {
        let Some(pile_id) = slot.get("PK").and_then(Value::as_str).and_then(|pk| pk.strip_prefix("OCPPSLOT#")).map(String::from) else { continue };
        if let Some(command_id) = slot.get("commandId").and_then(Value::as_str) {
            if time_out(ctx, command_id).await? {
                n += 1;
            }
            release_slot(ctx, &pile_id, command_id).await?;
        }
        // A hold past its grace is taken over (or dropped) here: the queue
        // goes to the charger if it is back, else ends offline.
        pump(ctx, &pile_id, Wake::Queue).await?;
    }
    pump_stale_queues(ctx, now).await?;
    Ok(n)
}

/// The metric the AWS sweeper publishes each sweep from
/// [`oldest_queued_age`] (CloudWatch embedded metric format, one JSON line
/// on stdout), with the table's name as its one dimension; the deployment's
/// queue-age alarm watches it.
pub const QUEUE_AGE_NAMESPACE: &str = "Backoffice/ChargerLink";
pub const QUEUE_AGE_METRIC: &str = "QueuedCommandAgeSeconds";
pub const QUEUE_AGE_DIMENSION: &str = "TableName";

/// How long the oldest command still queued has waited, in seconds (0
/// when none waits): a queue the pumps missed shows here first.
pub async fn oldest_queued_age(ctx: &AppCtx) -> Result<i64, ApiError> {
    let oldest = ctx.store.query(Query::index(Index::Gsi3, QUEUED_PK).limit(1)).await.api()?.items;
    let created_at = oldest.first().and_then(|item| item.get("createdAt")).and_then(Value::as_i64);
    Ok(created_at.map_or(0, |at| (ctx.now() - at).max(0)))
}

/// Pumps each charger's queue that holds a command queued longer than
/// [`QUEUE_STALE_SECS`]: a pump that ran while the queue index did not
/// list it yet left it there. A queue that waits for a call in flight or
/// for the charger stays as it is.
async fn pump_stale_queues(ctx: &AppCtx, now: i64) -> Result<(), ApiError> {
    let mut pumped = std::collections::HashSet::new();
    let mut cursor = None;
    loop {
        let q = Query::index(Index::Gsi3, QUEUED_PK).sort_key(SortKey::Lt(time_sort(now - QUEUE_STALE_SECS))).limit(200).after(cursor);
        let page = ctx.store.query(q).await.api()?;
        for item in page.items {
            let (Some(pile_id), Some(id)) = (item.get("pileId").and_then(Value::as_str), item.get("id").and_then(Value::as_str)) else { continue };
            if pumped.insert(pile_id.to_string()) {
                pump_queue(ctx, pile_id, Wake::Queue, Some(id)).await?;
            }
        }
        cursor = page.cursor;
        if cursor.is_none() {
            return Ok(());
        }
    }
}
