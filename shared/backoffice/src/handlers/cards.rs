//! Charging cards: the idTags chargers ask about (Authorize and
//! StartTransaction answer from them), found by number, holder or plate,
//! and how their sessions are paid (postpaid: billed to the holder;
//! prepaid: from a balance finance tops up). Admin and Editor write,
//! every signed-in role with read:system reads, deleting needs
//! delete:system, taking money in (a top-up) needs approve:refund.

use charging::Fen;
use envelope::{msg, ApiError, Text};
use permission::{REFUND_APPROVE, SYSTEM_DELETE, SYSTEM_READ, SYSTEM_WRITE};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ctx::AppCtx;
use crate::domain::cards::{self, CardInput, CardLedgerEntry, CardStatus, CardView, ImportRow, Imported};
use crate::paging::MAX_PAGE_SIZE;
use crate::reply::Reply;
use crate::request::Call;
use crate::routes::{route, Access::Permission, Route};

/// What these routes touch in the table (their functions' IAM policies,
/// see `crate::iam`): charging cards with their list, lookup and balance
/// entries, their ledgers, and the operations settings (the prepaid minimum);
/// a top-up also finds the card's charging orders and their sessions and
/// queues the new balance for the YKC piles charging it (commands, the
/// pile's slot and queue, the message log).
pub const KEYS: crate::iam::KeyUse = {
    use crate::iam::families::*;
    crate::iam::KeyUse::new(
        &[SETTINGS, ORDER_POINTER, ORDER, OCPP_OPEN, OCPP_TRANSACTION, COMMAND_QUEUE, CONNECTION],
        &[CARD, CARD_LIST, CARD_COUNT, CARD_BALANCE, CARD_LEDGER, PILE, COMMAND, COMMAND_SLOT, OCPP_SEQUENCE, MESSAGE_LOG],
    )
};

pub fn routes() -> Vec<Route> {
    vec![
        route!(GET "/card/getList" => "card_list", Permission(SYSTEM_READ), unaudited, "Charging cards by number prefix and status, paged, with the total", card_list, query = CardListQuery, data = CardList),
        route!(GET "/card/search" => "card_search", Permission(SYSTEM_READ), unaudited, "Charging cards whose number, holder or plate starts with the text (for pickers)", card_search, query = CardSearchQuery, data = CardSearch),
        route!(POST "/card/doAdd" => "card_add", Permission(SYSTEM_WRITE), audited, "Add a charging card", card_add, body = CardInput, data = CardView),
        route!(POST "/card/doEdit" => "card_edit", Permission(SYSTEM_WRITE), audited, "Edit a charging card (version checked; the number stays)", card_edit, body = CardEdit, data = CardView),
        route!(POST "/card/doDelete" => "card_delete", Permission(SYSTEM_DELETE), audited, "Delete a charging card", card_delete, body = CardRef, data = ()),
        route!(POST "/card/import" => "card_import", Permission(SYSTEM_WRITE), audited, "Import new charging cards: every bad row is reported at once and nothing is written unless all are good", card_import, body = CardImport, data = Imported),
        route!(POST "/card/topUp" => "card_top_up", Permission(REFUND_APPROVE), audited, "Add money to a prepaid card's balance (recorded with who and when)", card_top_up, body = TopUp, data = CardView; errors = &[404, 409]),
        route!(GET "/card/ledger" => "card_ledger", Permission(SYSTEM_READ), unaudited, "A card's top-ups and the sessions paid from its balance, newest first", card_ledger, query = LedgerQuery, data = CardLedger; errors = &[404]),
        route!(GET "/card/lowBalance" => "card_low_balance", Permission(SYSTEM_READ), unaudited, "Prepaid cards whose balance is below an amount (default: the minimum to start a session), lowest first", card_low_balance, query = LowBalanceQuery, data = LowBalance),
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
    list: Vec<CardView>,
    total: u64,
}

/// GET /card/getList?keyword=&status=&pageNo=&pageSize=
async fn card_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: CardListQuery = call.query()?;
    let page_no = q.page_no.unwrap_or(1);
    let page_size = q.page_size.unwrap_or(20);
    if page_no == 0 || !(1..=MAX_PAGE_SIZE).contains(&(page_size as usize)) {
        return Err(ApiError::bad_request(msg::cards::bad_paging(MAX_PAGE_SIZE)));
    }
    let (list, total) = cards::list(ctx, q.keyword.as_deref().filter(|k| !k.trim().is_empty()), q.status, page_no, page_size).await?;
    Ok(Reply::data(CardList { list, total }))
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CardSearchQuery {
    /// The start of a card number, a holder's name or a plate (with or
    /// without its province character); letter case and spaces ignored.
    /// Empty: the first cards by number.
    #[serde(default, deserialize_with = "crate::params::filter_text")]
    #[schemars(length(max = 64))]
    text: Option<String>,
    /// Only cards of this status (a picker of cards that may charge: Accepted).
    status: Option<CardStatus>,
    /// At most this many (default 20, at most 50).
    #[schemars(range(min = 1, max = 50))]
    limit: Option<u32>,
}

#[derive(Serialize, JsonSchema)]
pub struct CardSearch {
    /// In the order of the text they matched.
    list: Vec<CardView>,
    /// More cards match: type more.
    more: bool,
}

/// GET /card/search?text=&status=&limit=
async fn card_search(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: CardSearchQuery = call.query()?;
    let limit = q.limit.unwrap_or(20);
    if !(1..=cards::MAX_SEARCH as u32).contains(&limit) {
        return Err(ApiError::bad_request(msg::cards::bad_limit()));
    }
    let (list, more) = cards::search(ctx, q.text.as_deref().unwrap_or(""), q.status, limit as usize).await?;
    Ok(Reply::data(CardSearch { list, more }))
}

fn by(call: &Call) -> Result<String, ApiError> {
    Ok(call.caller()?.username().to_string())
}

fn saved() -> Text {
    msg::common::saved()
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
    let version = e.version.ok_or_else(|| ApiError::bad_request(msg::common::version_required()))?;
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
        return Err(ApiError::bad_request(msg::cards::id_tag_required()));
    }
    cards::delete(ctx, &r.id_tag).await?;
    Ok(Reply::message(msg::common::deleted()))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("required" = ["rows"]))]
pub struct CardImport {
    #[serde(default)]
    #[schemars(length(min = 1, max = 1000))]
    rows: Vec<ImportRow>,
    /// Only check the rows (every problem reported), write nothing.
    #[serde(default)]
    check_only: bool,
}

/// POST /card/import {rows: [...], checkOnly?}
async fn card_import(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let body: CardImport = call.req.payload()?;
    let done = cards::import(ctx, body.rows, body.check_only, &by(&call)?).await?;
    let said = match (done.checked_only, done.unchanged) {
        (true, 0) => msg::cards::import::all_good(),
        (true, n) => msg::cards::import::all_good_again(n),
        (false, 0) => msg::cards::import::imported(done.created),
        (false, n) => msg::cards::import::imported_again(done.created, n),
    };
    Ok(Reply::data_with_msg(done, said))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("required" = ["idTag", "amountFen"]))]
pub struct TopUp {
    #[serde(default)]
    #[schemars(length(min = 1, max = 20))]
    id_tag: String,
    /// What is added, in fen (1 to 100,000,000).
    #[schemars(range(min = 1, max = 100_000_000))]
    amount_fen: Option<i64>,
    /// How it was paid, a receipt number ... (at most 200 characters).
    #[serde(default)]
    #[schemars(length(max = 200))]
    note: String,
}

/// POST /card/topUp {idTag, amountFen, note?}
async fn card_top_up(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let t: TopUp = call.req.payload()?;
    let amount = t.amount_fen.ok_or_else(|| crate::domain::assets::invalid(&[crate::request::FieldProblem::new("amountFen", msg::cards::amount_required())]))?;
    let by = by(&call)?;
    let v = cards::top_up(ctx, t.id_tag.trim(), Fen(amount), &t.note, &by).await?;
    // A YKC pile charging the card stops at the balance it was told: it is told the new one.
    let piles = crate::domain::chargers::ykc_platform::push_balance(ctx, &v.card.id_tag, &by).await?;
    let said = if piles.is_empty() {
        msg::cards::topped_up(Fen(amount), &v.wallet.balance_fen)
    } else {
        msg::cards::topped_up_and_sent(Fen(amount), &v.wallet.balance_fen, &piles.join(", "))
    };
    Ok(Reply::data_with_msg(v, said))
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LedgerQuery {
    #[serde(deserialize_with = "crate::params::not_blank")]
    #[schemars(length(min = 1, max = 20))]
    id_tag: String,
    /// The `cursor` of the previous page.
    cursor: Option<String>,
}

#[derive(Serialize, JsonSchema)]
pub struct CardLedger {
    /// Newest first, 50 a page.
    list: Vec<CardLedgerEntry>,
    cursor: Option<String>,
}

/// GET /card/ledger?idTag=&cursor=
async fn card_ledger(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: LedgerQuery = call.query()?;
    let Some(card) = cards::get(ctx, &q.id_tag).await? else {
        return Err(ApiError::not_found(msg::cards::not_found(&q.id_tag)));
    };
    let (list, cursor) = cards::ledger(ctx, &card.id_tag, 50, q.cursor).await?;
    Ok(Reply::data(CardLedger { list, cursor }))
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LowBalanceQuery {
    /// Below this balance in fen (default: the minimum to start a session).
    #[schemars(range(min = 0, max = 100_000_000))]
    below_fen: Option<i64>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LowBalance {
    /// Lowest balance first, at most 200.
    list: Vec<CardView>,
    /// The amount they are below (fen).
    below_fen: i64,
}

/// GET /card/lowBalance?belowFen=
async fn card_low_balance(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: LowBalanceQuery = call.query()?;
    let below = match q.below_fen {
        Some(b) if (0..=100_000_000).contains(&b) => b,
        Some(_) => return Err(ApiError::bad_request(msg::cards::bad_below())),
        None => crate::domain::operations::current(ctx).await?.prepaid_minimum_fen,
    };
    let list = cards::low_balance(ctx, Fen(below), 200).await?;
    Ok(Reply::data(LowBalance { list, below_fen: below }))
}
