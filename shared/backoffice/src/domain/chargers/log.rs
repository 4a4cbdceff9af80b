//! The message log: every OCPP exchange with a charger (its CALL and our
//! answer, or our CALL and its answer) as one entry, kept for a bounded
//! time. DynamoDB expires entries by the table's TTL attribute
//! ([`store::TTL_ATTRIBUTE`]); the embedded store has no TTL, so the local
//! gateway's sweeper prunes connected chargers' old entries a bounded number
//! at a time ([`prune`]); reads never show an entry past the retention
//! either way.

use envelope::ApiError;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use store::{Index, Key, Query, SortKey};

use crate::ctx::AppCtx;
use crate::domain::{from_item, StoreResultExt};

/// Who sent the CALL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Direction {
    /// The charger called us.
    In,
    /// We called the charger.
    Out,
}

/// A CALLERROR, or why a frame could not be read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LoggedError {
    pub code: String,
    pub description: String,
}

/// One exchange.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessageLogEntry {
    /// Unix seconds when the CALL was sent or received.
    pub at: i64,
    pub direction: Direction,
    pub message_id: Option<String>,
    /// Null when the frame could not be read (then `request` is the raw text).
    pub action: Option<String>,
    #[schemars(with = "LoggedPayload")]
    pub request: Value,
    #[schemars(with = "Option<LoggedPayload>")]
    pub response: Option<Value>,
    pub error: Option<LoggedError>,
    pub answered_at: Option<i64>,
    /// The bytes on the wire of a binary protocol's exchange (YKC), as
    /// upper-case hex; absent for OCPP's JSON, which `request` holds whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawFrames>,
}

/// The frames of one exchange as sent, in hex.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RawFrames {
    pub request: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
}

/// A payload as the log keeps it: the OCPP JSON object, or text when the
/// frame could not be read or was too big to keep whole (then cut, with
/// its size).
#[derive(schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum LoggedPayload {
    Payload(serde_json::Map<String, Value>),
    Text(String),
}

/// The largest payload kept in the log; bigger ones are cut (the charger
/// may send up to 128 KiB, a log entry must stay a small item).
const MAX_LOGGED_BYTES: usize = 16 * 1024;

fn pk(pile_id: &str) -> String {
    format!("OCPPLOG#{pile_id}")
}

fn clip(v: Value) -> Value {
    let text = v.to_string();
    if text.len() <= MAX_LOGGED_BYTES {
        return v;
    }
    let mut end = MAX_LOGGED_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Value::String(format!("{}… ({} bytes, cut)", &text[..end], text.len()))
}

pub fn retention_secs(ctx: &AppCtx) -> i64 {
    ctx.config.ocpp_log_days * 86_400
}

/// Appends an entry to a pile's log (a password a charger sends in it reads `***`).
pub async fn append(ctx: &AppCtx, pile_id: &str, mut entry: MessageLogEntry) -> Result<(), ApiError> {
    entry.request = clip(super::commands::redact_passwords(entry.request));
    entry.response = entry.response.map(|r| clip(super::commands::redact_passwords(r)));
    let sort = format!("{}#{}", crate::domain::keys::time_sort(entry.at), uuid::Uuid::now_v7().simple());
    let mut keys = vec![(store::PK, pk(pile_id)), (store::SK, sort.clone())];
    if let Some(action) = &entry.action {
        keys.push(("GSI1PK", format!("{}#{action}", pk(pile_id))));
        keys.push(("GSI1SK", sort));
    }
    let mut item = crate::domain::to_item(&entry, &keys);
    item.insert(store::TTL_ATTRIBUTE.into(), Value::from(entry.at + retention_secs(ctx)));
    ctx.store.put(item, None).await.api()
}

/// One page of a pile's log, newest first, optionally of one action.
pub async fn page(ctx: &AppCtx, pile_id: &str, action: Option<&str>, size: u32, cursor: Option<String>) -> Result<(Vec<MessageLogEntry>, Option<String>), ApiError> {
    let oldest = crate::domain::keys::time_sort(ctx.now() - retention_secs(ctx));
    let q = match action {
        Some(a) => Query::index(Index::Gsi1, format!("{}#{a}", pk(pile_id))),
        None => Query::partition(pk(pile_id)),
    };
    let q = q.sort_key(SortKey::Ge(oldest)).backward().limit(size).after(cursor);
    let page = ctx.store.query(q).await.api()?;
    let list = page.items.into_iter().map(from_item).collect::<Result<_, _>>()?;
    Ok((list, page.cursor))
}

/// Deletes a pile's entries older than the retention (at most `max` a call).
pub async fn prune(ctx: &AppCtx, pile_id: &str, max: u32) -> Result<usize, ApiError> {
    prune_partition(ctx, &pk(pile_id), max).await
}

/// Deletes the records of a partition sorted by time (`{at:012}#…`) that
/// are older than the log's retention, at most `max`.
pub async fn prune_partition(ctx: &AppCtx, partition: &str, max: u32) -> Result<usize, ApiError> {
    let oldest = crate::domain::keys::time_sort(ctx.now() - retention_secs(ctx));
    let q = Query::partition(partition).sort_key(SortKey::Lt(oldest)).limit(max);
    let page = ctx.store.query(q).await.api()?;
    for item in &page.items {
        if let Some(k) = Key::of(item) {
            ctx.store.delete(&k, None).await.api()?;
        }
    }
    Ok(page.items.len())
}
