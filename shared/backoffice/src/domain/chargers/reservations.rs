//! Reservations: a connector held for a card until a time (ReserveNow),
//! cancelled (CancelReservation) or used by the card's StartTransaction.
//! The record follows the charger's answers.
//!
//! | record | PK | SK | listed by |
//! |---|---|---|---|
//! | reservation | `RES#{id}` | `RES` | GSI1 `RESS#{pileId}` / `{createdAt:012}#{id}` |
//! | id sequence | `OCPPSEQ` | `RES` | |

use envelope::ApiError;
use serde::{Deserialize, Serialize};
use serde_json::json;
use store::{Index, Key, Query, UpdateAction};

use crate::ctx::AppCtx;
use crate::domain::keys::time_sort;
use crate::domain::{from_item, to_item, StoreResultExt};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum ReservationStatus {
    /// Sent to the charger, no answer yet.
    Requested,
    /// The charger holds the connector.
    Reserved,
    /// The charger said no (Faulted, Occupied, Rejected, Unavailable, or a CALLERROR / timeout / offline).
    Refused,
    Cancelled,
    /// The card started charging on it.
    Used,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Reservation {
    pub id: i64,
    pub pile_id: String,
    pub connector: u32,
    /// The connector type asked for (OCPP 2.0.1 `connectorType`, e.g. cType2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connector_type: Option<String>,
    pub id_tag: String,
    pub expires_at: i64,
    pub status: ReservationStatus,
    /// The charger's own answer (Accepted, Occupied ...).
    pub answer: Option<String>,
    pub created_at: i64,
    pub created_by: String,
}

impl Reservation {
    /// Reserved and not expired at `now`.
    pub fn holds(&self, now: i64) -> bool {
        self.status == ReservationStatus::Reserved && self.expires_at > now
    }
}

fn key(id: i64) -> Key {
    Key::new(format!("RES#{id}"), "RES")
}

/// A new reservation id (OCPP reservation ids are integers).
pub async fn next_id(ctx: &AppCtx) -> Result<i64, ApiError> {
    let item = ctx.store.update(&Key::new("OCPPSEQ", "RES"), vec![UpdateAction::Add("seq".into(), 1)], None).await.api()?;
    item.get("seq").and_then(|v| v.as_i64()).ok_or_else(ApiError::internal)
}

pub async fn create(ctx: &AppCtx, r: &Reservation) -> Result<(), ApiError> {
    let k = key(r.id);
    let item = to_item(r, &[(store::PK, k.pk), (store::SK, k.sk), ("GSI1PK", format!("RESS#{}", r.pile_id)), ("GSI1SK", format!("{}#{:012}", time_sort(r.created_at), r.id))]);
    ctx.store.put(item, Some(store::Condition::item_absent())).await.api()
}

pub async fn get(ctx: &AppCtx, id: i64) -> Result<Option<Reservation>, ApiError> {
    match ctx.store.get(&key(id)).await.api()? {
        Some(item) => Ok(Some(from_item(item)?)),
        None => Ok(None),
    }
}

pub async fn set_status(ctx: &AppCtx, id: i64, status: ReservationStatus, answer: Option<&str>) -> Result<(), ApiError> {
    let actions = vec![UpdateAction::Set("status".into(), json!(status)), UpdateAction::Set("answer".into(), json!(answer))];
    match ctx.store.update(&key(id), actions, Some(store::Condition::item_exists())).await {
        Ok(_) | Err(store::StoreError::ConditionFailed) => Ok(()),
        Err(e) => Err(crate::domain::store_error(e)),
    }
}

/// A pile's reservations, newest first.
pub async fn list(ctx: &AppCtx, pile_id: &str, size: u32) -> Result<Vec<Reservation>, ApiError> {
    let page = ctx.store.query(Query::index(Index::Gsi1, format!("RESS#{pile_id}")).backward().limit(size)).await.api()?;
    page.items.into_iter().map(from_item).collect()
}
