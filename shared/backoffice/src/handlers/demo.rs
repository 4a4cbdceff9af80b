//! The data endpoints of the template's demo pages, with the contracts of
//! spec point 7: lists answer `{list, total}` and page with `pageNo` /
//! `pageSize`; table edits are simulated (checked, then answered with the
//! spec's messages, nothing stored); the workflow diagram is really saved.

use envelope::{ApiError, Text};
use permission::{SYSTEM_DELETE, SYSTEM_READ, SYSTEM_WRITE};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::ctx::AppCtx;
use crate::domain::{demo, workflow};
use crate::paging::{Paging, DEFAULT_PAGE_SIZE};
use crate::reply::Reply;
use crate::params::PageQuery;
use crate::request::Call;
use crate::routes::{route, Access::Permission, Route};

/// The remix icon page shows 72 icons a page (spec point 9).
const ICONS_PER_PAGE: usize = 72;
const MAX_TITLE: usize = 100;

/// What these routes touch in the table (their functions' IAM policies,
/// see `crate::iam`): the demo pages keep their data in memory but the workflow diagram.
pub const KEYS: crate::iam::KeyUse = {
    use crate::iam::families::*;
    crate::iam::KeyUse::new(&[], &[WORKFLOW])
};

pub fn routes() -> Vec<Route> {
    vec![
        route!(GET "/table/getList" => "demo_table_list", Permission(SYSTEM_READ), false, "Demo table items (title filter, paging)", table_list, query = TitlePageQuery),
        route!(POST "/table/doEdit" => "demo_table_edit", Permission(SYSTEM_WRITE), true, "Simulated save of a demo table item", table_edit, body = TableEdit),
        route!(POST "/table/doDelete" => "demo_table_delete", Permission(SYSTEM_DELETE), true, "Simulated delete of demo table items", table_delete, body = TableDeleteIn),
        route!(GET "/goods/getList" => "demo_goods_list", Permission(SYSTEM_READ), false, "Demo mall goods (title filter, paging)", goods_list, query = TitlePageQuery),
        route!(GET "/description/getList" => "demo_description_list", Permission(SYSTEM_READ), false, "The description list of the demo table detail", description_list),
        route!(GET "/remixIcon/getList" => "demo_remix_icon_list", Permission(SYSTEM_READ), false, "Remix icon names (title filter, 72 a page)", remix_icon_list, query = TitlePageQuery),
        route!(GET "/workflow/getList" => "demo_workflow_get", Permission(SYSTEM_READ), false, "The saved workflow diagram", workflow_get),
        route!(POST "/workflow/doEdit" => "demo_workflow_edit", Permission(SYSTEM_WRITE), true, "Save the workflow diagram", workflow_edit, body = WorkflowIn),
    ]
}

/// The demo lists' query: paging and a title filter.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct TitlePageQuery {
    #[serde(flatten)]
    pub page: PageQuery,
    /// Part of the title (at most 100 characters).
    #[schemars(length(max = 100))]
    pub title: Option<String>,
}

/// What `ids_of` reads: `ids` (a list, or comma-separated) or `id`.
#[derive(JsonSchema)]
#[allow(dead_code)]
pub struct TableDeleteIn {
    #[schemars(with = "Option<Vec<String>>")]
    ids: Option<Value>,
    #[schemars(with = "Option<String>")]
    id: Option<Value>,
}

/// What `workflow_edit` reads: the diagram (`workflow::validate`) and the
/// version it was loaded with.
#[derive(JsonSchema)]
#[allow(dead_code)]
pub struct WorkflowIn {
    nodes: Vec<Value>,
    edges: Vec<Value>,
    #[schemars(range(min = 0))]
    version: Option<i64>,
}

/// Items whose `field` contains the `title` query parameter (case-insensitive).
fn filtered<'a, T>(call: &Call, items: &'a [T], field: impl Fn(&T) -> &str) -> Result<Vec<&'a T>, ApiError> {
    let needle = call.req.query_param("title").unwrap_or_default().to_lowercase();
    if needle.chars().count() > MAX_TITLE {
        return Err(ApiError::bad_request(Text::new(
            format!("the title filter is longer than {MAX_TITLE} characters"),
            format!("标题筛选条件超过 {MAX_TITLE} 个字符"),
        )));
    }
    Ok(items.iter().filter(|i| field(i).to_lowercase().contains(&needle)).collect())
}

fn page<T: serde::Serialize>(paging: Paging, matching: &[T]) -> Reply {
    Reply::data(json!({ "list": paging.slice(matching), "total": matching.len() }))
}

/// GET /table/getList?pageNo&pageSize&title
pub async fn table_list(_ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let paging = Paging::from_request(&call.req, DEFAULT_PAGE_SIZE)?;
    let matching = filtered(&call, demo::table_items(), |i| &i.title)?;
    Ok(page(paging, &matching))
}

#[derive(Deserialize, JsonSchema)]
pub struct TableEdit {
    id: Option<Value>,
    title: Option<String>,
    status: Option<String>,
}

fn id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn known_item(id: &str) -> bool {
    demo::table_items().iter().any(|i| i.id == id)
}

/// POST /table/doEdit: checks the item as a real save would, stores
/// nothing, and answers the spec's simulated-save message.
pub async fn table_edit(_ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let edit: TableEdit = call.req.payload()?;
    let title = edit.title.as_deref().map(str::trim).unwrap_or_default();
    if title.is_empty() {
        return Err(ApiError::bad_request(Text::new("the title is required", "标题不能为空")));
    }
    if title.chars().count() > MAX_TITLE {
        return Err(ApiError::bad_request(Text::new(format!("the title is longer than {MAX_TITLE} characters"), format!("标题超过 {MAX_TITLE} 个字符"))));
    }
    if let Some(status) = &edit.status {
        if !demo::TABLE_STATUSES.contains(&status.as_str()) {
            return Err(ApiError::bad_request(Text::new(
                format!("status must be one of {}", demo::TABLE_STATUSES.join(", ")),
                format!("状态必须是 {} 之一", demo::TABLE_STATUSES.join("、")),
            )));
        }
    }
    if let Some(id) = edit.id.as_ref().filter(|v| !v.is_null()) {
        let id = id_text(id).unwrap_or_default();
        if !id.is_empty() && !known_item(&id) {
            return Err(ApiError::bad_request(Text::new(format!("there is no table item with id {id}"), format!("不存在 id 为 {id} 的数据"))));
        }
    }
    Ok(Reply::message(Text::new("Simulated save succeeded", "模拟保存成功")))
}

/// The ids of a delete: a list, or a comma-separated string.
fn ids_of(body: &Value) -> Vec<String> {
    match body.get("ids").or_else(|| body.get("id")) {
        Some(Value::Array(list)) => list.iter().filter_map(id_text).collect(),
        Some(Value::String(s)) => s.split(',').map(|p| p.trim().to_string()).collect(),
        Some(v) => id_text(v).into_iter().collect(),
        None => Vec::new(),
    }
    .into_iter()
    .filter(|s| !s.is_empty())
    .collect()
}

/// POST /table/doDelete {ids}: checks the ids exist; simulated.
pub async fn table_delete(_ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let ids = ids_of(&call.req.body_value()?);
    if ids.is_empty() {
        return Err(ApiError::bad_request(Text::new("say which items to delete (ids)", "请选择要删除的数据（ids）")));
    }
    let unknown: Vec<&str> = ids.iter().map(String::as_str).filter(|id| !known_item(id)).collect();
    if !unknown.is_empty() {
        return Err(ApiError::bad_request(Text::new(
            format!("there are no table items with ids {}", unknown.join(", ")),
            format!("不存在 id 为 {} 的数据", unknown.join("、")),
        )));
    }
    Ok(Reply::message(Text::new("Simulated delete succeeded", "模拟删除成功")))
}

/// GET /goods/getList?pageNo&pageSize&title
pub async fn goods_list(_ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let paging = Paging::from_request(&call.req, DEFAULT_PAGE_SIZE)?;
    let matching = filtered(&call, demo::goods(), |g| &g.title)?;
    Ok(page(paging, &matching))
}

/// GET /description/getList
pub async fn description_list(_ctx: &AppCtx, _call: Call) -> Result<Reply, ApiError> {
    let list: Vec<Value> = demo::descriptions().into_iter().map(|(title, description)| json!({"title": title, "description": description})).collect();
    Ok(Reply::data(json!({ "list": list })))
}

/// GET /remixIcon/getList?title&pageNo&pageSize (72 a page by default)
pub async fn remix_icon_list(_ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let paging = Paging::from_request(&call.req, ICONS_PER_PAGE)?;
    let matching = filtered(&call, demo::remix_icons(), |name| name)?;
    Ok(page(paging, &matching))
}

/// GET /workflow/getList: the saved diagram (or the default one) and its version.
pub async fn workflow_get(ctx: &AppCtx, _call: Call) -> Result<Reply, ApiError> {
    let (graph, version) = workflow::load(ctx).await?;
    Ok(Reply::data(json!({ "nodes": graph.nodes, "edges": graph.edges, "version": version })))
}

/// POST /workflow/doEdit {nodes, edges, version}: saves a valid diagram
/// over the version it was edited from.
pub async fn workflow_edit(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let mut body = call.req.body_value()?;
    let expected = match body.as_object_mut().and_then(|o| o.remove("version")) {
        None | Some(Value::Null) => workflow::load(ctx).await?.1,
        Some(v) => v.as_i64().filter(|v| *v >= 0).ok_or_else(|| {
            ApiError::bad_request(Text::new("version must be the whole number the diagram was loaded with", "version 必须是加载流程图时的版本号"))
        })?,
    };
    let graph = workflow::validate(body)?;
    let version = workflow::save(ctx, &graph, expected).await?;
    Ok(Reply::DataWithMsg(json!({ "version": version }), Text::new("saved", "保存成功")))
}
