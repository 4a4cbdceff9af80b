//! Data for the admin shell: menus, header search, notices.

use envelope::{ApiError, Text};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::ctx::AppCtx;
use crate::domain::{menus, notices};
use crate::reply::Reply;
use crate::request::Call;

/// The most suggestions the header search shows.
const SEARCH_LIMIT: usize = 20;

/// GET /router/getList: the stored route tree, filtered by the caller's
/// roles, with the personal center every signed-in user may open.
pub async fn router_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let caller = call.caller()?;
    let list = menus::with_self_service(menus::visible_to(ctx, &caller.principal).await?);
    Ok(Reply::data(RouteTree { list }))
}

/// The route tree the SPA builds its menu and routes from.
#[derive(Serialize, JsonSchema)]
pub struct RouteTree {
    /// Route nodes: path, name, component, redirect, meta, children (spec point 3).
    pub list: Vec<serde_json::Value>,
}

/// The query of the header search.
#[derive(Deserialize, Serialize, JsonSchema)]
pub(crate) struct SearchQuery {
    /// Part of a page title or path (at most 100 characters).
    #[schemars(length(max = 100))]
    pub keyword: Option<String>,
}

/// GET /search/getList?keyword=: pages the caller may open whose title
/// contains the keyword; `url` is the SPA's hash route.
pub async fn search_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let caller = call.caller()?;
    let keyword = call.req.query_param("keyword").unwrap_or_default().to_lowercase();
    if keyword.chars().count() > 100 {
        return Err(ApiError::bad_request(Text::new("the keyword is too long (at most 100 characters)", "关键词过长（最多 100 个字符）")));
    }
    let visible = menus::visible_to(ctx, &caller.principal).await?;
    let list: Vec<_> = menus::searchable_entries(&visible)
        .into_iter()
        .filter(|(title, path)| title.to_lowercase().contains(&keyword) || path.to_lowercase().contains(&keyword))
        .take(SEARCH_LIMIT)
        .map(|(title, path)| {
            let url = if menus::is_external(&path) { path } else { format!("#{path}") };
            json!({ "value": title, "url": url })
        })
        .collect();
    Ok(Reply::data(json!({ "list": list })))
}

/// GET /notice/getList: the newest notices and e-mails.
pub async fn notice_list(ctx: &AppCtx, _call: Call) -> Result<Reply, ApiError> {
    let list = notices::newest(ctx).await?;
    let total = list.len();
    Ok(Reply::data(json!({ "list": list, "total": total })))
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct NewNotice {
    #[serde(rename = "type", default = "notice_kind")]
    kind: String,
    #[serde(default)]
    notice: String,
    #[serde(default)]
    email: String,
    #[serde(default)]
    image: String,
}

fn notice_kind() -> String {
    "notice".into()
}

/// POST /notice/doEdit: publishes a notice; its HTML is sanitised.
pub async fn notice_edit(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let n: NewNotice = call.req.payload()?;
    let saved = notices::publish(ctx, &n.kind, &n.notice, &n.email, &n.image).await?;
    Ok(Reply::DataWithMsg(json!(saved), Text::new("saved", "保存成功")))
}
