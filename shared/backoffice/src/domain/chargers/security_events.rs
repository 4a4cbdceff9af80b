//! Security events (OCPP 1.6 security whitepaper): what a charger reports
//! in SecurityEventNotification (its type, its time, `techInfo`), and what
//! the back-office itself notices about a charger's security (a profile-3
//! handshake refused for its certificate), kept per pile without expiry
//! (an operator may look back over a year) and listed per pile and across
//! the fleet, newest first, by type and time range.
//!
//! | record | PK | SK | listed by |
//! |---|---|---|---|
//! | event | `SECEVENT#{pileId}` | `{at:012}#{uuid7}` | GSI1 `SECEVENTS` (the fleet), GSI2 `SECEVENTS#TYPE#{type}`, GSI3 `SECEVENT#{pileId}#TYPE#{type}`; each with the same sort key |
//!
//! Each filter (pile, type, both, neither) is one key condition, and the
//! time range is a sort-key range, so pages are full and read nothing
//! they do not show.

use envelope::{msg, ApiError};
use serde::{Deserialize, Serialize};
use store::{Condition, Index, Query, SortKey};

use crate::ctx::AppCtx;
use crate::domain::assets::piles::Pile;
use crate::domain::keys::time_sort;
use crate::domain::{from_item, to_item, StoreResultExt};

/// SecurityEventNotification's `type` is a CiString50, `techInfo` a CiString255.
pub const MAX_TYPE_CHARS: usize = 50;
pub const MAX_TECH_INFO_CHARS: usize = 255;

/// The security events the whitepaper lists (a charger may send others:
/// the type is free text); the list page offers these as its filter.
pub const KNOWN_TYPES: [&str; 18] = [
    "FirmwareUpdated",
    "FailedToAuthenticateAtCentralSystem",
    "CentralSystemFailedToAuthenticate",
    "SettingSystemTime",
    "StartupOfTheDevice",
    "ResetOrReboot",
    "SecurityLogWasCleared",
    "ReconfigurationOfSecurityParameters",
    "MemoryExhaustion",
    "InvalidMessages",
    "AttemptedReplayAttacks",
    "TamperDetectionActivated",
    "InvalidFirmwareSignature",
    "InvalidFirmwareSigningCertificate",
    "InvalidCentralSystemCertificate",
    "InvalidChargePointCertificate",
    "InvalidTLSVersion",
    "InvalidTLSCipherSuite",
];

/// The type the back-office records when a charger's client certificate
/// does not admit it (the whitepaper's name for it).
pub const REFUSED_CERTIFICATE: &str = "InvalidChargePointCertificate";

/// The type the back-office records when it refuses a charger's
/// certificate signing request (SignCertificate answered Rejected).
pub const REFUSED_CSR: &str = "InvalidCertificateSigningRequest";

/// Who noticed the event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum EventSource {
    /// The charger reported it (SecurityEventNotification).
    Charger,
    /// The back-office saw it (e.g. a refused handshake).
    CentralSystem,
}

/// What SecurityEventNotification carries, read by the protocol layer.
#[derive(Debug, Clone, PartialEq)]
pub struct SecurityEventInput {
    pub event_type: String,
    /// The charger's time of the event (unix seconds), as sent.
    pub timestamp: Option<i64>,
    pub tech_info: Option<String>,
}

/// One stored event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SecurityEvent {
    pub pile_id: String,
    /// The pile's code when the event came (what the charger calls itself).
    pub pile_code: String,
    pub station_id: String,
    #[serde(rename = "type")]
    pub event_type: String,
    /// When it happened (unix seconds): the charger's time, or the arrival
    /// when the charger's clock is implausible (`timeReplaced`).
    pub at: i64,
    #[serde(default)]
    pub time_replaced: bool,
    pub received_at: i64,
    pub tech_info: Option<String>,
    pub source: EventSource,
}

fn pk(pile_id: &str) -> String {
    format!("SECEVENT#{pile_id}")
}

/// The fleet's events (GSI1).
pub const FLEET_PK: &str = "SECEVENTS";

fn fleet_type_pk(event_type: &str) -> String {
    format!("SECEVENTS#TYPE#{event_type}")
}

fn pile_type_pk(pile_id: &str, event_type: &str) -> String {
    format!("SECEVENT#{pile_id}#TYPE#{event_type}")
}

/// The event's checks: a type of 1-50 characters, techInfo up to 255 (a
/// 400 naming the field; the protocol layer answers the charger's
/// frame with a CALLERROR before it gets here).
fn check(event: &SecurityEventInput) -> Result<(), ApiError> {
    let t = event.event_type.trim();
    if t.is_empty() || t.chars().count() > MAX_TYPE_CHARS {
        return Err(crate::request::field_invalid("type", msg::chargers::command::length_range(MAX_TYPE_CHARS, 1)));
    }
    if event.tech_info.as_ref().is_some_and(|i| i.chars().count() > MAX_TECH_INFO_CHARS) {
        return Err(crate::request::field_invalid("techInfo", msg::chargers::command::at_most_chars(MAX_TECH_INFO_CHARS)));
    }
    Ok(())
}

async fn put(ctx: &AppCtx, record: &SecurityEvent, sort: String, condition: Option<Condition>) -> Result<(), store::StoreError> {
    let keys = [
        (store::PK, pk(&record.pile_id)),
        (store::SK, sort.clone()),
        (Index::Gsi1.pk_attr(), FLEET_PK.to_string()),
        (Index::Gsi1.sk_attr(), sort.clone()),
        (Index::Gsi2.pk_attr(), fleet_type_pk(&record.event_type)),
        (Index::Gsi2.sk_attr(), sort.clone()),
        (Index::Gsi3.pk_attr(), pile_type_pk(&record.pile_id, &record.event_type)),
        (Index::Gsi3.sk_attr(), sort),
    ];
    ctx.store.put(to_item(record, &keys), condition).await
}

fn record_of(pile: &Pile, event: &SecurityEventInput, now: i64, source: EventSource) -> SecurityEvent {
    let (at, time_replaced) = super::plausible_time(event.timestamp, now);
    SecurityEvent {
        pile_id: pile.id.clone(),
        pile_code: pile.code.clone(),
        station_id: pile.station_id.clone(),
        event_type: event.event_type.trim().to_string(),
        at,
        time_replaced,
        received_at: now,
        tech_info: event.tech_info.clone().filter(|i| !i.trim().is_empty()),
        source,
    }
}

/// Stores what a charger's SecurityEventNotification says (the OCPP
/// handler calls this, then confirms the notification).
pub async fn record_security_event(ctx: &AppCtx, pile: &Pile, event: SecurityEventInput) -> Result<SecurityEvent, ApiError> {
    check(&event)?;
    let record = record_of(pile, &event, ctx.now(), EventSource::Charger);
    let sort = format!("{}#{}", time_sort(record.at), uuid::Uuid::now_v7().simple());
    put(ctx, &record, sort, None).await.api()?;
    Ok(record)
}

/// Records what the back-office noticed about a charger (`event_type`,
/// with `tech_info` saying why), at most once a minute per pile and type:
/// a charger retrying a refused handshake every second is one event a
/// minute, not a store write per try.
pub async fn record_noticed(ctx: &AppCtx, pile: &Pile, event_type: &str, tech_info: String) -> Result<(), ApiError> {
    let now = ctx.now();
    let mut info: String = tech_info.chars().take(MAX_TECH_INFO_CHARS).collect();
    if info.is_empty() {
        info = "-".into();
    }
    let input = SecurityEventInput { event_type: event_type.into(), timestamp: Some(now), tech_info: Some(info) };
    let record = record_of(pile, &input, now, EventSource::CentralSystem);
    let sort = format!("{}#central#{event_type}", time_sort(now - now.rem_euclid(60)));
    match put(ctx, &record, sort, Some(Condition::item_absent())).await {
        Ok(()) | Err(store::StoreError::ConditionFailed) => Ok(()),
        Err(e) => Err(crate::domain::store_error(e)),
    }
}

/// Which events a list shows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EventFilter {
    pub pile_id: Option<String>,
    pub event_type: Option<String>,
    /// Unix seconds, inclusive.
    pub from: Option<i64>,
    pub to: Option<i64>,
}

/// One page of events, newest first, and the cursor of the next.
pub async fn page(ctx: &AppCtx, filter: &EventFilter, size: u32, cursor: Option<String>) -> Result<(Vec<SecurityEvent>, Option<String>), ApiError> {
    let q = match (&filter.pile_id, &filter.event_type) {
        (Some(p), None) => Query::partition(pk(p)),
        (None, None) => Query::index(Index::Gsi1, FLEET_PK),
        (None, Some(t)) => Query::index(Index::Gsi2, fleet_type_pk(t)),
        (Some(p), Some(t)) => Query::index(Index::Gsi3, pile_type_pk(p, t)),
    };
    // Sort keys start with the zero-padded second; `~` sorts after the rest.
    let low = time_sort(filter.from.unwrap_or(0).max(0));
    let high = format!("{}~", time_sort(filter.to.unwrap_or(999_999_999_999).clamp(0, 999_999_999_999)));
    let q = q.sort_key(SortKey::Between(low, high)).backward().limit(size).after(cursor);
    let page = ctx.store.query(q).await.api()?;
    let list = page.items.into_iter().map(from_item).collect::<Result<_, _>>()?;
    Ok((list, page.cursor))
}
