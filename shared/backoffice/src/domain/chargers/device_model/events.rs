//! What a 2.0.1 station's monitors and hard-wired notifications report
//! (NotifyEvent): each event of a notification is a record, shown newest
//! first beside the pile's device model, and kept as long as the message
//! log keeps the frames (by the table's TTL, or pruned with the log on
//! the embedded store).
//!
//! | record | PK | SK |
//! |---|---|---|
//! | an event | `DEVICEMODEL#{pileId}#EVENTS` | `{at:012}#{eventId}` |
//!
//! A partition of its own, so reading the device model never reads the
//! events. A notification sent again (its answer did not reach the
//! station) writes the same keys: still one record an event.

use envelope::ApiError;
use ocpp::v201::{EventData, NotifyEventRequest};
use serde::{Deserialize, Serialize};
use store::Query;

use super::{write, VariableAddress};
use crate::ctx::AppCtx;
use crate::domain::keys::time_sort;
use crate::domain::{from_item, to_item, StoreResultExt};

/// How many of a pile's events the device model shows.
pub const LATEST: u32 = 50;

pub fn pk(pile_id: &str) -> String {
    format!("{}#EVENTS", super::pk(pile_id))
}

/// One event as the station reported it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeviceEvent {
    /// The station's id of the event.
    pub event_id: i64,
    /// When it happened (unix seconds): the station's time, or the arrival
    /// when the station's clock is implausible (`timeReplaced`).
    pub at: i64,
    #[serde(default)]
    pub time_replaced: bool,
    pub received_at: i64,
    /// Alerting (a threshold crossed), Delta (a value changed) or Periodic.
    pub trigger: String,
    /// HardWiredNotification, HardWiredMonitor, PreconfiguredMonitor or CustomMonitor.
    pub notification_type: String,
    #[serde(flatten)]
    pub address: VariableAddress,
    /// The variable's value when the event happened (none for the station's password).
    pub actual_value: Option<String>,
    /// The situation is back to normal.
    #[serde(default)]
    pub cleared: bool,
    /// The event that caused this one.
    pub cause: Option<i64>,
    pub tech_code: Option<String>,
    pub tech_info: Option<String>,
    pub transaction_id: Option<String>,
    /// The monitor that tripped (the device model's monitors).
    pub variable_monitoring_id: Option<i64>,
}

impl DeviceEvent {
    fn of(d: &EventData, now: i64) -> DeviceEvent {
        let (at, time_replaced) = super::super::plausible_time(Some(d.timestamp.unix()), now);
        DeviceEvent {
            event_id: d.event_id,
            at,
            time_replaced,
            received_at: now,
            trigger: d.trigger.as_str().into(),
            notification_type: d.event_notification_type.as_str().into(),
            address: VariableAddress::of(&d.component, &d.variable),
            actual_value: (!super::is_password(&d.component.name, &d.variable.name)).then(|| d.actual_value.clone()),
            cleared: d.cleared.unwrap_or(false),
            cause: d.cause,
            tech_code: d.tech_code.clone(),
            tech_info: d.tech_info.clone(),
            transaction_id: d.transaction_id.clone(),
            variable_monitoring_id: d.variable_monitoring_id,
        }
    }

}

/// Keeps each event of a NotifyEvent.
pub async fn notified(ctx: &AppCtx, pile_id: &str, notification: &NotifyEventRequest) -> Result<(), ApiError> {
    let now = ctx.now();
    let retention = super::super::log::retention_secs(ctx);
    let items = notification
        .event_data
        .iter()
        .map(|d| {
            let event = DeviceEvent::of(d, now);
            let sk = format!("{}#{}", time_sort(event.at), event.event_id);
            let mut item = to_item(&event, &[(store::PK, pk(pile_id)), (store::SK, sk)]);
            item.insert(store::TTL_ATTRIBUTE.into(), (event.at + retention).into());
            item
        })
        .collect();
    write(ctx, items).await
}

/// Deletes the pile's events older than the message log's retention (at
/// most `max`): the embedded store has no TTL.
pub async fn prune(ctx: &AppCtx, pile_id: &str, max: u32) -> Result<usize, ApiError> {
    super::super::log::prune_partition(ctx, &pk(pile_id), max).await
}

/// The pile's latest events, newest first; `filter` keeps those whose
/// component or variable name holds it (any case), among the latest.
pub async fn latest(ctx: &AppCtx, pile_id: &str, filter: Option<&str>) -> Result<Vec<DeviceEvent>, ApiError> {
    let wanted = filter.map(str::to_lowercase).filter(|f| !f.is_empty());
    let page = ctx.store.query(Query::partition(pk(pile_id)).backward().limit(LATEST)).await.api()?;
    let events: Vec<DeviceEvent> = page.items.into_iter().map(from_item).collect::<Result<_, _>>()?;
    Ok(events.into_iter().filter(|e| wanted.as_deref().is_none_or(|w| e.address.matches(w))).collect())
}
