//! Remote operations only a YKC pile takes, beside the ones it shares with
//! OCPP chargers (`commands`): a running session's card balance sent to
//! the pile (0x42, so the pile stops once the amount reaches it), the
//! parking lock in front of a gun raised or lowered (0x62) and which cards
//! the pile holds for offline starts (0x48); and a trigger as the one
//! message a YKC pile sends on request, a gun's real-time data (0x12).
//! Routes and permissions are in `commands::routes`, the frames in
//! `commands::OPERATIONS_YKC`.

use envelope::{msg, ApiError};
use schemars::JsonSchema;
use serde::Deserialize;

use super::commands::{pile, queue_ykc, TriggerMessage};
use crate::ctx::AppCtx;
use crate::domain::assets::piles::Pile;
use crate::domain::chargers::sessions;
use crate::domain::chargers::ykc_platform::{self, calls as ykc_calls};
use crate::reply::Reply;
use crate::request::{field_invalid, Call};

/// Which way the parking lock moves: Raise keeps the space free, Lower
/// lets a car park.
#[derive(Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq)]
pub enum LockMove {
    Lower,
    Raise,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParkingLockBody {
    #[serde(default)]
    pile_id: String,
    /// The gun whose parking lock moves.
    connector_id: Option<i64>,
    action: Option<LockMove>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BalanceUpdateBody {
    #[serde(default)]
    pile_id: String,
    /// The gun charging the card whose balance goes to the pile.
    connector_id: Option<i64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OfflineCardQueryBody {
    #[serde(default)]
    pile_id: String,
    /// The card numbers to look for (1-26, each 1-16 hex digits).
    #[serde(default)]
    id_tags: Vec<String>,
}

/// The pile, when it speaks YKC; else a 400 naming the operation.
async fn ykc_pile(ctx: &AppCtx, id: &str, operation: &str) -> Result<Pile, ApiError> {
    let p = pile(ctx, id).await?;
    if !p.ocpp_version.is_ykc() {
        return Err(field_invalid("pileId", msg::chargers::ykc::only_ykc(&p.code, operation)));
    }
    Ok(p)
}

/// A gun of the pile (1 or more).
fn gun(p: &Pile, n: Option<i64>) -> Result<u32, ApiError> {
    match n {
        Some(n) if n >= 1 && n <= i64::from(p.connector_count) => Ok(n as u32),
        Some(n) => Err(field_invalid("connectorId", msg::chargers::ykc::no_such_gun(&p.code, &p.connector_count, &n))),
        None => Err(field_invalid("connectorId", msg::chargers::ykc::gun_required())),
    }
}

/// POST /charger/parkingLock {pileId, connectorId, action: Raise | Lower}:
/// the pile answers whether the lock moved.
pub(super) async fn parking_lock(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: ParkingLockBody = call.req.payload()?;
    let p = ykc_pile(ctx, &b.pile_id, "parkingLock").await?;
    let gun = gun(&p, b.connector_id)?;
    let action = b.action.ok_or_else(|| field_invalid("action", msg::chargers::ykc::lock_action_required()))?;
    let payload = ykc_calls::ParkingLockCall { gun, raise: action == LockMove::Raise };
    queue_ykc(ctx, &call, &p, ykc_calls::PARKING_LOCK, serde_json::to_value(payload).map_err(|_| ApiError::internal())?).await
}

/// POST /charger/balanceUpdate {pileId, connectorId}: the balance the
/// card charging on the gun has now (after a top-up, say) goes to the
/// pile, which answers whether it took it.
pub(super) async fn balance_update(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: BalanceUpdateBody = call.req.payload()?;
    let p = ykc_pile(ctx, &b.pile_id, "balanceUpdate").await?;
    let gun = gun(&p, b.connector_id)?;
    let Some(tx) = sessions::open_on(ctx, &p.id, gun).await? else {
        return Err(field_invalid("connectorId", msg::chargers::ykc::no_session_on_gun(&p.code, &gun)));
    };
    let payload = ykc_platform::balance_update_call(ctx, gun, &tx).await?;
    queue_ykc(ctx, &call, &p, ykc_calls::BALANCE_UPDATE, serde_json::to_value(payload).map_err(|_| ApiError::internal())?).await
}

/// POST /charger/offlineCardQuery {pileId, idTags}: the pile answers, card
/// by card, whether it holds it for starts while offline.
pub(super) async fn offline_card_query(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: OfflineCardQueryBody = call.req.payload()?;
    let p = ykc_pile(ctx, &b.pile_id, "offlineCardQuery").await?;
    let tags: Vec<String> = b.id_tags.iter().map(|t| t.trim().to_string()).collect();
    if tags.is_empty() || tags.len() > ykc_calls::CARDS_PER_QUERY {
        return Err(field_invalid("idTags", msg::chargers::ykc::query_card_count(&tags.len(), &ykc_calls::CARDS_PER_QUERY)));
    }
    if let Some(bad) = tags.iter().find(|t| ykc_calls::physical_card(t).is_err()) {
        return Err(field_invalid("idTags", msg::chargers::ykc::bad_card(bad)));
    }
    let payload = ykc_calls::OfflineCardQueryCall { id_tags: tags };
    queue_ykc(ctx, &call, &p, ykc_calls::OFFLINE_CARD_QUERY, serde_json::to_value(payload).map_err(|_| ApiError::internal())?).await
}

/// POST /charger/trigger for a YKC pile: what a YKC pile sends on request
/// is a gun's real-time data (0x12 asks, 0x13 answers), its status and
/// meter at once, so MeterValues and StatusNotification of a gun ask for it.
pub(super) async fn trigger(ctx: &AppCtx, call: &Call, p: &Pile, message: TriggerMessage, connector: Option<i64>) -> Result<Reply, ApiError> {
    if !matches!(message, TriggerMessage::MeterValues | TriggerMessage::StatusNotification) {
        return Err(field_invalid("requestedMessage", msg::chargers::ykc::trigger_realtime_only(&p.code)));
    }
    let Some(gun) = connector.filter(|n| *n >= 1).and_then(|n| u32::try_from(n).ok()) else {
        return Err(field_invalid("connectorId", msg::chargers::ykc::trigger_realtime_only(&p.code)));
    };
    let payload = ykc_calls::ReadRealtimeCall { gun };
    queue_ykc(ctx, call, p, ykc_calls::READ_REALTIME, serde_json::to_value(payload).map_err(|_| ApiError::internal())?).await
}
