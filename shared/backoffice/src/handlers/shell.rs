//! Data for the admin shell: menus and notices (the header search is `handlers::search`).

use envelope::{msg, ApiError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ctx::AppCtx;
use crate::domain::{menus, notices};
use crate::reply::Reply;
use crate::request::Call;

/// GET /router/getList: the stored route tree with the product's own
/// entries, filtered by the caller's roles (and without the demo pages
/// while they are off), with the personal center every signed-in user may
/// open, and the pages the caller may not open with what they need.
pub async fn router_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let caller = call.caller()?;
    let tree = menus::served(ctx).await?;
    let forbidden = menus::forbidden_pages(&tree, &caller.principal);
    let list = menus::with_self_service(permission::filter_routes(&tree, &caller.principal));
    Ok(Reply::data(RouteTree { list, forbidden }))
}

/// The route tree the SPA builds its menu and routes from.
#[derive(Serialize, JsonSchema)]
pub struct RouteTree {
    /// Route nodes: path, name, component, redirect, meta, children.
    #[schemars(with = "Vec<menus::RouteNode>")]
    pub list: Vec<serde_json::Value>,
    /// Pages of the menu the caller's roles may not open (the SPA shows
    /// 403 saying what they need, rather than 404).
    pub forbidden: Vec<menus::ForbiddenPage>,
}

/// The header's notice list of the caller.
#[derive(Serialize, JsonSchema)]
pub struct NoticeList {
    /// The newest notices and e-mails the caller has not cleared (at most 50), newest first.
    pub list: Vec<notices::NoticeView>,
    pub total: usize,
    /// How many of them the caller has not read.
    pub unread: usize,
}

/// GET /notice/getList: the caller's newest notices and e-mails, without
/// the ones they cleared, each marked read or not.
pub async fn notice_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let list = notices::for_reader(ctx, call.caller()?.username()).await?;
    let unread = list.iter().filter(|n| !n.read).count();
    Ok(Reply::data(NoticeList { total: list.len(), unread, list }))
}

/// A new notice, or (with `id` and `version`) a change of one.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct NoticeEdit {
    /// The notice to change (from the list); absent to publish a new one.
    id: Option<String>,
    /// The version the change was made over (required with `id`).
    version: Option<i64>,
    /// `notice` (default) or `email`.
    #[serde(rename = "type", default = "notice_kind")]
    kind: String,
    /// HTML: kept are formatting, links and images of this site.
    #[serde(default)]
    #[schemars(length(max = 4000))]
    notice: String,
    /// The sender shown above the text.
    #[serde(default)]
    #[schemars(length(max = 200))]
    email: String,
    /// The sender's image: a path on this site.
    #[serde(default)]
    image: String,
}

fn notice_kind() -> String {
    "notice".into()
}

/// POST /notice/doEdit: publishes a notice or changes one; its HTML is
/// sanitised either way.
pub async fn notice_edit(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let author = call.caller()?.username().to_string();
    let n: NoticeEdit = call.req.payload()?;
    let draft = notices::Draft { kind: &n.kind, html: &n.notice, email: &n.email, image: &n.image };
    let saved = match (n.id.as_deref().map(str::trim).filter(|id| !id.is_empty()), n.version) {
        (None, _) => notices::publish(ctx, &author, draft).await?,
        (Some(id), Some(version)) => notices::edit(ctx, id, version, draft).await?,
        (Some(_), None) => {
            return Err(ApiError::bad_request(msg::notices::version_required()))
        }
    };
    Ok(Reply::data_with_msg(saved, msg::common::saved()))
}

/// One notice, by the id the lists give.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct NoticeId {
    id: String,
}

/// POST /notice/withdraw {id}: removes a notice from every list.
pub async fn notice_withdraw(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let input: NoticeId = call.req.payload()?;
    notices::withdraw(ctx, input.id.trim()).await?;
    Ok(Reply::message(msg::notices::withdrawn()))
}

/// GET /notice/manageList
#[derive(Deserialize, Serialize, JsonSchema)]
pub(crate) struct NoticePageQuery {
    /// The `cursor` of the previous page.
    pub cursor: Option<String>,
}

/// The published notices, for their publishers.
#[derive(Serialize, JsonSchema)]
pub struct NoticePage {
    /// Newest first, 50 a page (`read` is always false here).
    pub list: Vec<notices::NoticeView>,
    /// Where the next page starts, if there is one.
    pub cursor: Option<String>,
}

/// GET /notice/manageList?cursor: every published notice, whoever cleared
/// what, for the publishers' dialog.
pub async fn notice_manage_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: NoticePageQuery = call.query()?;
    let (list, cursor) = notices::all(ctx, q.cursor).await?;
    Ok(Reply::data(NoticePage { list, cursor }))
}

/// Notices the caller has read.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct NoticeIds {
    /// Ids from the notice list (1 to 50).
    #[schemars(length(min = 1, max = 50))]
    ids: Vec<String>,
}

/// POST /notice/read {ids}: marks notices read for the caller only.
pub async fn notice_read(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let username = call.caller()?.username().to_string();
    let input: NoticeIds = call.req.payload()?;
    notices::mark_read(ctx, &username, &input.ids).await?;
    Ok(Reply::done())
}

/// POST /notice/clearAll takes no fields: an empty object (or no body).
#[derive(Deserialize, JsonSchema)]
pub(crate) struct NoFields {}

/// POST /notice/clearAll: empties the caller's list (theirs only); notices
/// published later appear as usual.
pub async fn notice_clear_all(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let _: NoFields = call.req.payload()?;
    notices::clear_all(ctx, call.caller()?.username()).await?;
    Ok(Reply::message(msg::notices::cleared()))
}
