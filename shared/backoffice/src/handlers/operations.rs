//! The operations settings page (/setting/workflow): the offline and stuck
//! thresholds every page applies (see `domain::operations`).

use envelope::{msg, ApiError};
use permission::SETTINGS_MANAGE;

use crate::ctx::AppCtx;
use crate::domain::operations::{self, OperationSettingsAnswer, OperationSettingsEdit};
use crate::reply::Reply;
use crate::request::Call;
use crate::routes::{route, Access::Permission, Route};

/// What these routes touch in the table (their functions' IAM policies,
/// see `crate::iam`): the operations settings.
pub const KEYS: crate::iam::KeyUse = {
    use crate::iam::families::*;
    crate::iam::KeyUse::new(&[], &[SETTINGS])
};

pub fn routes() -> Vec<Route> {
    vec![
        route!(GET "/operationSettings/get" => "operation_settings_get", Permission(SETTINGS_MANAGE), unaudited, "The operations settings: when a pile counts as offline and an order as stuck", get, data = OperationSettingsAnswer),
        route!(POST "/operationSettings/doEdit" => "operation_settings_edit", Permission(SETTINGS_MANAGE), audited, "Change the operations settings (over the version they were loaded with)", edit, body = OperationSettingsEdit, data = OperationSettingsAnswer),
    ]
}

/// GET /operationSettings/get
pub async fn get(ctx: &AppCtx, _call: Call) -> Result<Reply, ApiError> {
    Ok(Reply::data(OperationSettingsAnswer::from(operations::load(ctx).await?)))
}

/// POST /operationSettings/doEdit {offlineAfterIntervals, stuckAfterHours, version}
pub async fn edit(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let actor = call.caller()?.username().to_string();
    let input: OperationSettingsEdit = call.req.payload()?;
    let saved = operations::save(ctx, &actor, input).await?;
    Ok(Reply::data_with_msg(OperationSettingsAnswer::from(saved), msg::common::saved()))
}
