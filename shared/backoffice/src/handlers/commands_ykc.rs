//! Remote operations only a YKC pile takes, beside the ones it shares with
//! OCPP chargers (`commands`): a running session's card balance sent to
//! the pile (0x42, so the pile stops once the amount reaches it) and the
//! parking lock in front of a gun raised or lowered (0x62). Routes and
//! permissions are in `commands::routes`, the frames in
//! `commands::OPERATIONS_YKC`.

use envelope::{msg, ApiError};
use schemars::JsonSchema;
use serde::Deserialize;

use super::commands::{pile, queue_ykc};
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
