//! Data for the admin shell: menus and notices (the header search is `handlers::search`).

use envelope::{ApiError, Text};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::ctx::AppCtx;
use crate::domain::{menus, notices};
use crate::reply::Reply;
use crate::request::Call;

/// GET /router/getList: the stored route tree, filtered by the caller's roles.
pub async fn router_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let caller = call.caller()?;
    let list = menus::visible_to(ctx, &caller.principal).await?;
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
