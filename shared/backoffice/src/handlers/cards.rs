//! Charging cards: the idTags chargers ask about (Authorize and
//! StartTransaction answer from them). Admin and Editor write, every
//! signed-in role with read:system reads, deleting needs delete:system.

use envelope::{ApiError, Text};
use permission::{SYSTEM_DELETE, SYSTEM_READ, SYSTEM_WRITE};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ctx::AppCtx;
use crate::domain::cards::{self, Card, CardInput, CardStatus, Imported};
use crate::paging::MAX_PAGE_SIZE;
use crate::reply::Reply;
use crate::request::Call;
use crate::routes::{route, Access::Permission, Route};

/// What these routes touch in the table (their functions' IAM policies,
/// see `crate::iam`): charging cards and their list.
pub const KEYS: crate::iam::KeyUse = {
    use crate::iam::families::*;
    crate::iam::KeyUse::new(&[], &[CARD, CARD_LIST, CARD_COUNT])
};

pub fn routes() -> Vec<Route> {
    vec![
        route!(GET "/card/getList" => "card_list", Permission(SYSTEM_READ), unaudited, "Charging cards by number prefix and status, paged, with the total", card_list, query = CardListQuery, data = CardList),
        route!(POST "/card/doAdd" => "card_add", Permission(SYSTEM_WRITE), audited, "Add a charging card", card_add, body = CardInput, data = Card),
        route!(POST "/card/doEdit" => "card_edit", Permission(SYSTEM_WRITE), audited, "Edit a charging card (version checked; the number stays)", card_edit, body = CardEdit, data = Card),
        route!(POST "/card/doDelete" => "card_delete", Permission(SYSTEM_DELETE), audited, "Delete a charging card", card_delete, body = CardRef, data = ()),
        route!(POST "/card/import" => "card_import", Permission(SYSTEM_WRITE), audited, "Import charging cards (new numbers created, existing updated; any bad row refuses all)", card_import, body = CardImport, data = Imported),
    ]
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CardListQuery {
    /// The start of the card number (any letter case).
    #[schemars(length(max = 20))]
    keyword: Option<names::CardNumber>,
    status: Option<CardStatus>,
    /// The page, from 1 (default 1).
    #[schemars(range(min = 1, max = 1_000_000))]
    page_no: Option<u32>,
    /// Cards a page (default 20, at most 200).
    #[schemars(range(min = 1, max = MAX_PAGE_SIZE))]
    page_size: Option<u32>,
}

#[derive(Serialize, JsonSchema)]
pub struct CardList {
    list: Vec<Card>,
    total: u64,
}

/// GET /card/getList?keyword=&status=&pageNo=&pageSize=
async fn card_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: CardListQuery = call.query()?;
    let page_no = q.page_no.unwrap_or(1);
    let page_size = q.page_size.unwrap_or(20);
    if page_no == 0 || !(1..=MAX_PAGE_SIZE).contains(&(page_size as usize)) {
        return Err(ApiError::bad_request(Text::new(
            format!("pageNo must be 1 or more and pageSize 1-{MAX_PAGE_SIZE}"),
            format!("pageNo须不小于1，pageSize须为1-{MAX_PAGE_SIZE}"),
        )));
    }
    let (list, total) = cards::list(ctx, q.keyword.as_deref().filter(|k| !k.trim().is_empty()), q.status, page_no, page_size).await?;
    Ok(Reply::data(CardList { list, total }))
}

fn by(call: &Call) -> Result<String, ApiError> {
    Ok(call.caller()?.username().to_string())
}

fn saved() -> Text {
    Text::new("saved", "保存成功")
}

/// POST /card/doAdd
async fn card_add(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let input: CardInput = call.req.payload()?;
    Ok(Reply::data_with_msg(cards::create(ctx, input, &by(&call)?).await?, saved()))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("required" = ["idTag", "version", "status"]))]
pub struct CardEdit {
    /// The version the edit was made on (a newer one answers 409).
    version: Option<i64>,
    #[serde(flatten)]
    card: CardInput,
}

/// POST /card/doEdit {idTag, version, ...}
async fn card_edit(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let e: CardEdit = call.req.payload()?;
    let version = e.version.ok_or_else(|| ApiError::bad_request(Text::new("version is required", "缺少version")))?;
    let tag = e.card.id_tag.to_string();
    Ok(Reply::data_with_msg(cards::update(ctx, &tag, version, e.card, &by(&call)?).await?, saved()))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("required" = ["idTag"]))]
pub struct CardRef {
    #[serde(default)]
    #[schemars(length(min = 1, max = 20))]
    id_tag: names::CardNumber,
}

/// POST /card/doDelete {idTag}
async fn card_delete(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let r: CardRef = call.req.payload()?;
    if r.id_tag.is_empty() {
        return Err(ApiError::bad_request(Text::new("idTag is required", "缺少卡号idTag")));
    }
    cards::delete(ctx, &r.id_tag).await?;
    Ok(Reply::message(Text::new("deleted", "删除成功")))
}

#[derive(Deserialize, JsonSchema)]
#[schemars(extend("required" = ["rows"]))]
pub struct CardImport {
    #[serde(default)]
    #[schemars(length(min = 1, max = 1000))]
    rows: Vec<CardInput>,
}

/// POST /card/import {rows: [...]}
async fn card_import(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let body: CardImport = call.req.payload()?;
    let done = cards::import(ctx, body.rows, &by(&call)?).await?;
    Ok(Reply::data_with_msg(done, Text::new(format!("imported: {} new, {} updated", done.created, done.updated), format!("导入完成：新增{}张，更新{}张", done.created, done.updated))))
}
