//! The charger link's back-office routes: a pile's charger password and
//! its message log. (The link itself is `/ocpp/{id}`, outside
//! `/partnerapi`: see the `ocpp` crate.)

use permission::{CHARGER_CONFIGURE, SYSTEM_WRITE};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ctx::AppCtx;
use crate::domain::chargers::log::{self, MessageLogEntry};
use crate::domain::chargers::secret;
use crate::domain::assets::piles;
use envelope::{msg, ApiError};
use crate::reply::Reply;
use crate::request::Call;
use crate::routes::{route, Access::Permission, Route};

/// What these routes touch in the table (their functions' IAM policies,
/// see `crate::iam`): a pile's charger password, its link record (to
/// close its connection) and its message log.
pub const KEYS: crate::iam::KeyUse = {
    use crate::iam::families::*;
    crate::iam::KeyUse::new(&[MESSAGE_LOG, MESSAGE_LOG_BY_ACTION], &[PILE])
};

pub fn routes() -> Vec<Route> {
    vec![
        // Admin only: a charger's password lets its holder act as the
        // charger (sessions that feed billing).
        route!(POST "/pile/setPassword" => "pile_set_password", Permission(CHARGER_CONFIGURE), audited, "Set or rotate a pile's charger password (answered once, stored hashed; the charger's live connection is closed)", set_password, body = SetPasswordBody, data = PasswordSet; errors = &[404]),
        // Admin and Editor: the log shows what chargers send (idTags).
        route!(GET "/pile/messageLog" => "pile_message_log", Permission(SYSTEM_WRITE), unaudited, "A pile's OCPP message log, newest first (filter by action, cursor paging)", message_log, query = MessageLogQuery, data = MessageLog; errors = &[404]),
    ]
}

#[derive(Deserialize, JsonSchema)]
#[schemars(extend("required" = ["id"]))]
pub struct SetPasswordBody {
    /// The pile's id.
    #[serde(default)]
    id: String,
    /// 16-40 printable ASCII characters; omitted or empty = generate one.
    #[serde(default)]
    #[schemars(length(min = 16, max = 40))]
    password: Option<String>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasswordSet {
    /// Shown this once; only a hash is kept.
    password: String,
    password_set_at: i64,
}

/// POST /pile/setPassword {id, password?}
async fn set_password(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let body: SetPasswordBody = call.req.payload()?;
    let by = call.caller()?.username().to_string();
    let (password, password_set_at) = secret::set(ctx, body.id.trim(), body.password.as_deref(), &by).await?;
    // The connection made with the old password goes.
    crate::domain::chargers::close_live_connection(ctx, body.id.trim()).await?;
    Ok(Reply::data_with_msg(
        PasswordSet { password, password_set_at },
        msg::chargers::password_set(),
    ))
}

pub const DEFAULT_LOG_PAGE: u32 = 50;
pub const MAX_LOG_PAGE: u32 = 200;

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessageLogQuery {
    /// The pile's id.
    pile_id: String,
    /// Only this OCPP action (e.g. `StartTransaction`).
    #[schemars(length(min = 1, max = 40))]
    action: Option<String>,
    /// Entries a page (default 50, at most 200).
    #[schemars(range(min = 1, max = MAX_LOG_PAGE))]
    page_size: Option<u32>,
    /// The `cursor` of the previous page.
    cursor: Option<String>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessageLog {
    list: Vec<MessageLogEntry>,
    /// Null on the last page.
    cursor: Option<String>,
    /// The pile's code (what the charger calls itself), for the page's title.
    pile_code: String,
    /// Every action the log can hold (what chargers send and what the
    /// server sends), sorted, for the action filter; on the first page only.
    #[serde(skip_serializing_if = "Option::is_none")]
    actions: Option<Vec<&'static str>>,
}

/// GET /pile/messageLog?pileId=&action=&pageSize=&cursor=
async fn message_log(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: MessageLogQuery = call.query()?;
    let size = q.page_size.unwrap_or(DEFAULT_LOG_PAGE);
    if !(1..=MAX_LOG_PAGE).contains(&size) {
        return Err(ApiError::bad_request(msg::chargers::message_log::bad_page_size(MAX_LOG_PAGE)));
    }
    let pile = piles::get_pile(ctx, q.pile_id.trim()).await?;
    let action = q.action.as_deref().map(str::trim).filter(|a| !a.is_empty());
    let first = q.cursor.is_none();
    let (list, cursor) = log::page(ctx, &pile.id, action, size, q.cursor).await?;
    let actions = first.then(|| match pile.ocpp_version {
        charging::pile::OcppVersion::V16 => crate::domain::chargers::actions::logged(super::commands::OPERATIONS.iter().map(|(_, a)| *a)),
        charging::pile::OcppVersion::V201 => crate::domain::chargers::actions::logged_v201(super::commands::OPERATIONS_V201.iter().map(|(_, a)| *a).chain(super::commands::SENT_UNASKED_V201.iter().copied())),
        charging::pile::OcppVersion::Ykc15 | charging::pile::OcppVersion::Ykc16 => crate::domain::chargers::ykc_platform::logged_actions(),
    });
    Ok(Reply::data(MessageLog { list, cursor, pile_code: pile.code, actions }))
}
