//! The data endpoints of the template's demo pages, with the contracts of
//! the template's mock server: lists answer `{list, total}` and page with `pageNo` /
//! `pageSize`; table edits are simulated (checked, then answered with the
//! spec's messages, nothing stored); the workflow diagram is really saved.

use envelope::{msg, ApiError, Arg};
use permission::{SYSTEM_DELETE, SYSTEM_READ, SYSTEM_WRITE};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ctx::AppCtx;
use crate::domain::{demo, workflow};
use crate::paging::{Page, Paging, DEFAULT_PAGE_SIZE};
use crate::reply::{Reply, Versioned};
use crate::params::PageQuery;
use crate::request::Call;
use crate::routes::{route, Access::Permission, Route};

/// The remix icon page shows 72 icons a page.
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
        route!(GET "/table/getList" => "demo_table_list", Permission(SYSTEM_READ), unaudited, "Demo table items (title filter, paging)", table_list, query = TitlePageQuery, data = Page<demo::TableItem>),
        route!(POST "/table/doEdit" => "demo_table_edit", Permission(SYSTEM_WRITE), audited, "Simulated save of a demo table item", table_edit, body = TableEdit, data = ()),
        route!(POST "/table/doDelete" => "demo_table_delete", Permission(SYSTEM_DELETE), audited, "Simulated delete of demo table items", table_delete, body = TableDeleteIn, data = ()),
        route!(GET "/goods/getList" => "demo_goods_list", Permission(SYSTEM_READ), unaudited, "Demo mall goods (title filter, paging)", goods_list, query = TitlePageQuery, data = Page<demo::Goods>),
        route!(GET "/description/getList" => "demo_description_list", Permission(SYSTEM_READ), unaudited, "The description list of the demo table detail", description_list, data = DescriptionList),
        route!(GET "/remixIcon/getList" => "demo_remix_icon_list", Permission(SYSTEM_READ), unaudited, "Remix icon names (title filter, 72 a page)", remix_icon_list, query = TitlePageQuery, data = Page<String>),
        route!(GET "/workflow/getList" => "demo_workflow_get", Permission(SYSTEM_READ), unaudited, "The saved workflow diagram", workflow_get, data = WorkflowAnswer),
        route!(POST "/workflow/doEdit" => "demo_workflow_edit", Permission(SYSTEM_WRITE), audited, "Save the workflow diagram", workflow_edit, body = WorkflowIn, data = Versioned),
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

/// The items to delete: `ids` (a list, or comma-separated) or `id`.
#[derive(Deserialize, JsonSchema)]
pub struct TableDeleteIn {
    #[serde(default)]
    ids: Option<IdList>,
    #[serde(default)]
    id: Option<IdList>,
}

/// Ids: a list (of text or numbers), or text with commas, or one number.
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum IdList {
    Many(Vec<IdText>),
    One(IdText),
}

/// An id as text or as a number.
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum IdText {
    Text(String),
    Number(serde_json::Number),
}

impl IdText {
    fn text(self) -> String {
        match self {
            IdText::Text(s) => s.trim().to_string(),
            IdText::Number(n) => n.to_string(),
        }
    }
}

impl IdList {
    /// The ids named, trimmed, blanks left out.
    fn ids(self) -> Vec<String> {
        let all: Vec<String> = match self {
            IdList::Many(list) => list.into_iter().map(IdText::text).collect(),
            IdList::One(one) => one.text().split(',').map(str::to_string).collect(),
        };
        all.into_iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
    }
}

/// The diagram and the version it was loaded with (absent: the saved one).
#[derive(Deserialize, JsonSchema)]
pub struct WorkflowIn {
    #[serde(flatten)]
    graph: workflow::GraphIn,
    #[serde(default)]
    #[schemars(range(min = 0))]
    version: Option<u64>,
}

/// Items whose `field` contains the `title` filter (case-insensitive).
fn filtered<'a, T>(q: &TitlePageQuery, items: &'a [T], field: impl Fn(&T) -> &str) -> Result<Vec<&'a T>, ApiError> {
    let needle = q.title.as_deref().unwrap_or_default().trim().to_lowercase();
    if needle.chars().count() > MAX_TITLE {
        return Err(ApiError::bad_request(msg::demo::table::filter_too_long(MAX_TITLE)));
    }
    Ok(items.iter().filter(|i| field(i).to_lowercase().contains(&needle)).collect())
}

fn page<T: serde::Serialize + Clone>(paging: Paging, matching: &[T]) -> Reply {
    Reply::data(paging.page(matching))
}

/// GET /table/getList?pageNo&pageSize&title
pub async fn table_list(_ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: TitlePageQuery = call.query()?;
    let paging = q.page.paging(DEFAULT_PAGE_SIZE);
    let matching = filtered(&q, demo::table_items(), |i| &i.title)?;
    Ok(page(paging, &matching))
}

#[derive(Deserialize, JsonSchema)]
pub struct TableEdit {
    #[serde(default)]
    id: Option<IdText>,
    title: Option<String>,
    status: Option<String>,
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
        return Err(ApiError::bad_request(msg::demo::table::title_required()));
    }
    if title.chars().count() > MAX_TITLE {
        return Err(ApiError::bad_request(msg::demo::table::title_too_long(MAX_TITLE)));
    }
    if let Some(status) = &edit.status {
        if !demo::TABLE_STATUSES.contains(&status.as_str()) {
            return Err(ApiError::bad_request(msg::demo::table::bad_status(Arg::names(&demo::TABLE_STATUSES))));
        }
    }
    if let Some(id) = edit.id {
        let id = id.text();
        if !id.is_empty() && !known_item(&id) {
            return Err(ApiError::bad_request(msg::demo::table::no_item(&id)));
        }
    }
    Ok(Reply::message(msg::demo::table::saved()))
}

/// POST /table/doDelete {ids}: checks the ids exist; simulated.
pub async fn table_delete(_ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let TableDeleteIn { ids, id } = call.req.payload()?;
    let ids = ids.or(id).map(IdList::ids).unwrap_or_default();
    if ids.is_empty() {
        return Err(ApiError::bad_request(msg::demo::table::say_which()));
    }
    let unknown: Vec<&str> = ids.iter().map(String::as_str).filter(|id| !known_item(id)).collect();
    if !unknown.is_empty() {
        return Err(ApiError::bad_request(msg::demo::table::no_items(Arg::names(&unknown))));
    }
    Ok(Reply::message(msg::demo::table::deleted()))
}

/// GET /goods/getList?pageNo&pageSize&title
pub async fn goods_list(_ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: TitlePageQuery = call.query()?;
    let paging = q.page.paging(DEFAULT_PAGE_SIZE);
    let matching = filtered(&q, demo::goods(), |g| &g.title)?;
    Ok(page(paging, &matching))
}

/// GET /description/getList
pub async fn description_list(_ctx: &AppCtx, _call: Call) -> Result<Reply, ApiError> {
    let list = demo::descriptions().into_iter().map(|(title, description)| Description { title: title.to_string(), description: description.to_string() }).collect();
    Ok(Reply::data(DescriptionList { list }))
}

/// One line of the demo's description list.
#[derive(Serialize, JsonSchema)]
pub struct Description {
    pub title: String,
    pub description: String,
}

#[derive(Serialize, JsonSchema)]
pub struct DescriptionList {
    pub list: Vec<Description>,
}

/// The saved workflow diagram and the version an edit sends back.
#[derive(Serialize, JsonSchema)]
pub struct WorkflowAnswer {
    pub nodes: Vec<workflow::Node>,
    pub edges: Vec<workflow::Edge>,
    pub version: i64,
}

/// GET /remixIcon/getList?title&pageNo&pageSize (72 a page by default)
pub async fn remix_icon_list(_ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: TitlePageQuery = call.query()?;
    let paging = q.page.paging(ICONS_PER_PAGE);
    let matching = filtered(&q, demo::remix_icons(), |name| name)?;
    Ok(page(paging, &matching))
}

/// GET /workflow/getList: the saved diagram (or the default one) and its version.
pub async fn workflow_get(ctx: &AppCtx, _call: Call) -> Result<Reply, ApiError> {
    let (graph, version) = workflow::load(ctx).await?;
    Ok(Reply::data(WorkflowAnswer { nodes: graph.nodes, edges: graph.edges, version }))
}

/// POST /workflow/doEdit {nodes, edges, version}: saves a valid diagram
/// over the version it was edited from.
pub async fn workflow_edit(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let WorkflowIn { graph, version } = call.req.payload()?;
    let expected = match version {
        Some(v) => i64::try_from(v).unwrap_or(i64::MAX),
        None => workflow::load(ctx).await?.1,
    };
    let graph = workflow::validate(graph)?;
    let version = workflow::save(ctx, &graph, expected).await?;
    Ok(Reply::data_with_msg(Versioned { version }, msg::common::saved()))
}
