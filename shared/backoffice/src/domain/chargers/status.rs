//! StatusNotification: a connector's status as the charger reports it,
//! stored with the charger's timestamp. Reports can arrive out of order
//! (an offline backlog, a retry): an older one never overwrites a newer.

use charging::connector::ConnectorStatus;
use envelope::ApiError;
use serde_json::json;
use store::{Condition, TxOp, UpdateAction};

use super::link;
use crate::ctx::AppCtx;
use crate::domain::assets::facets;
use crate::domain::assets::piles::{connector_key, get_connector, history_item, Pile};
use crate::domain::assets::piles::connector_id;

/// OCPP 1.6 ChargePointStatus -> the back-office's connector status
/// (both Suspended kinds are one); `None` for a value 1.6 does not define.
pub fn from_ocpp(status: &str) -> Option<ConnectorStatus> {
    Some(match status {
        "Available" => ConnectorStatus::Available,
        "Preparing" => ConnectorStatus::Preparing,
        "Charging" => ConnectorStatus::Charging,
        "SuspendedEV" | "SuspendedEVSE" => ConnectorStatus::Suspended,
        "Finishing" => ConnectorStatus::Finishing,
        "Reserved" => ConnectorStatus::Reserved,
        "Unavailable" => ConnectorStatus::Unavailable,
        "Faulted" => ConnectorStatus::Faulted,
        _ => return None,
    })
}

/// What a StatusNotification says.
#[derive(Debug, Clone)]
pub struct StatusReport {
    pub connector: u32,
    /// The OCPP status word as sent.
    pub status: String,
    pub error_code: String,
    /// The charger's time (already made plausible).
    pub at: i64,
    /// A connector a session holds as charging, suspended or finishing
    /// keeps that status (2.0.1's Occupied says only "in use": the
    /// transaction's own events say how).
    pub keeps_session_state: bool,
}

/// What became of a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applied {
    Stored,
    /// A newer status was already stored.
    Older,
    /// No such connector on this pile, or a status 1.6 does not define.
    Ignored,
    /// The connector's session state stands (`keeps_session_state`).
    Kept,
}

const ATTEMPTS: usize = 3;

pub async fn apply(ctx: &AppCtx, pile: &Pile, r: &StatusReport) -> Result<Applied, ApiError> {
    if r.connector == 0 {
        let error = (r.error_code != "NoError").then(|| r.error_code.clone());
        link::report(ctx, pile, "chargerStatus", &r.status, r.at, Some(("chargerErrorCode", json!(error)))).await?;
        return Ok(Applied::Stored);
    }
    let Some(status) = from_ocpp(&r.status) else { return Ok(Applied::Ignored) };
    for _ in 0..ATTEMPTS {
        let c = match get_connector(ctx, &connector_id(&pile.id, r.connector)).await {
            Ok(c) => c,
            Err(e) if e.code == 404 => return Ok(Applied::Ignored),
            Err(e) => return Err(e),
        };
        if c.reported_at.is_some_and(|prev| prev > r.at) {
            return Ok(Applied::Older);
        }
        if r.keeps_session_state && matches!(c.status, ConnectorStatus::Charging | ConnectorStatus::Suspended | ConnectorStatus::Finishing) {
            return Ok(Applied::Kept);
        }
        let mut n = c.clone();
        n.status = status;
        n.fault_code = (status == ConnectorStatus::Faulted).then(|| r.error_code.clone());
        n.status_since = if status == c.status { c.status_since } else { r.at };
        n.reported_at = Some(r.at);
        n.updated_at = ctx.now();
        n.version = c.version + 1;
        let actions = vec![
            UpdateAction::Set("status".into(), json!(n.status)),
            UpdateAction::Set("faultCode".into(), json!(n.fault_code)),
            UpdateAction::Set("statusSince".into(), json!(n.status_since)),
            UpdateAction::Set("reportedAt".into(), json!(r.at)),
            UpdateAction::Set("updatedAt".into(), json!(n.updated_at)),
            UpdateAction::Set("version".into(), json!(n.version)),
        ];
        let mut ops = vec![TxOp::Update {
            key: connector_key(&c.pile_id, c.number),
            actions,
            condition: Some(Condition::version_is(c.version)),
        }];
        if status != c.status {
            ops.push(TxOp::Put { item: history_item(&c.id, r.at, Some(c.status), status, "charger", &pile.code), condition: None });
        }
        ops.extend(facets::changes(Some(&crate::domain::assets::piles::connector_listing(&c)), Some(&crate::domain::assets::piles::connector_listing(&n))));
        match ctx.store.transact(facets::merge(ops)).await {
            Ok(()) => return Ok(Applied::Stored),
            // An operator's edit or another report won the race: read again.
            Err(store::StoreError::TransactionCanceled { .. }) => continue,
            Err(e) => return Err(crate::domain::store_error(e)),
        }
    }
    Err(ApiError::standard(409))
}
