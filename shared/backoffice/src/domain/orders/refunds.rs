//! Refunds: an Editor or Admin requests one (with a reason), an Admin
//! approves it. Approval is ONE transaction: the order (only if its version
//! is still the one read), the request (only if still pending), a ledger
//! entry (only if absent) and the rollups. So a request is never applied
//! twice and the refunded total never exceeds what was paid, also when
//! many approvals race: all but one fail their condition and get 409.

use charging::orders::{apply_refund, refund_errors, RefundRequest};
use charging::Fen;
use envelope::{ApiError, Text};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use store::{Condition, Index, Query, SortKey, StoreError, TxOp};

use super::keys;
use super::record::OrderRow;
use crate::ctx::AppCtx;
use crate::domain::{from_item, store_error, StoreResultExt};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum RefundStatus {
    Pending,
    Approved,
    Rejected,
}

/// A refund request as stored and as the pages are sent it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefundRecord {
    pub id: String,
    pub order_no: String,
    pub station_id: String,
    pub amount_fen: Fen,
    pub reason: String,
    pub status: RefundStatus,
    pub requested_by: String,
    pub requested_at: i64,
    /// Who approved or rejected it, and when (null while pending).
    #[serde(default)]
    pub decided_by: Option<String>,
    #[serde(default)]
    pub decided_at: Option<i64>,
    /// The note of a rejection.
    #[serde(default)]
    pub decision_note: Option<String>,
}

/// A refund ledger entry (one per approved refund) as stored and as the
/// finance page is sent it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LedgerEntry {
    pub refund_id: String,
    pub order_no: String,
    pub station_id: String,
    pub amount_fen: Fen,
    pub reason: String,
    pub approved_by: Option<String>,
    pub approved_at: i64,
    /// The order's refunded total before and after this refund (absent
    /// on entries of the demo history).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refunded_before_fen: Option<Fen>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refunded_after_fen: Option<Fen>,
}

impl RefundRecord {
    pub fn to_item(&self) -> store::Item {
        let key = keys::refund(&self.order_no, &self.id);
        crate::domain::to_item(
            self,
            &[
                (store::PK, key.pk),
                (store::SK, key.sk),
                ("GSI1PK", keys::refunds_by_status(&keys::enum_name(&self.status))),
                ("GSI1SK", format!("{:012}#{}", self.requested_at, self.id)),
            ],
        )
    }
}

fn problem_error(p: &charging::Problem) -> ApiError {
    ApiError::bad_request(Text::new(p.en.clone(), p.zh.clone()))
}

/// Records a pending request after checking it against the order as it
/// is now (approval checks again).
pub async fn request(ctx: &AppCtx, order_no: &str, amount: Fen, reason: &str, by: &str) -> Result<RefundRecord, ApiError> {
    let order = super::load(ctx, order_no).await?;
    let req = RefundRequest { amount, reason: reason.to_string() };
    if let Some(e) = refund_errors(&order.money(), &req).first() {
        return Err(problem_error(&e.problem()));
    }
    let now = ctx.now();
    let rec = RefundRecord {
        id: format!("RF{}", uuid::Uuid::now_v7().simple()),
        order_no: order.order_no.clone(),
        station_id: order.station_id.clone(),
        amount_fen: amount,
        reason: reason.trim().to_string(),
        status: RefundStatus::Pending,
        requested_by: by.to_string(),
        requested_at: now,
        decided_by: None,
        decided_at: None,
        decision_note: None,
    };
    ctx.store.put(rec.to_item(), Some(Condition::item_absent())).await.api()?;
    Ok(rec)
}

async fn load_request(ctx: &AppCtx, order_no: &str, id: &str) -> Result<RefundRecord, ApiError> {
    let item = ctx.store.get(&keys::refund(order_no, id)).await.api()?.ok_or_else(|| {
        ApiError::not_found(Text::new(format!("no refund request {id} on order {order_no}"), format!("订单 {order_no} 没有退款申请 {id}")))
    })?;
    from_item(item)
}

fn already_decided(rec: &RefundRecord) -> ApiError {
    ApiError::conflict(Text::new(
        format!("refund {} was already {}", rec.id, keys::enum_name(&rec.status)),
        format!("退款申请 {} 已处理（{}）", rec.id, if rec.status == RefundStatus::Approved { "已通过" } else { "已驳回" }),
    ))
}

/// Approves a pending request: all-or-nothing (see module docs).
pub async fn approve(ctx: &AppCtx, order_no: &str, id: &str, by: &str) -> Result<(RefundRecord, OrderRow), ApiError> {
    let rec = load_request(ctx, order_no, id).await?;
    if rec.status != RefundStatus::Pending {
        return Err(already_decided(&rec));
    }
    let before = super::load(ctx, order_no).await?;
    let req = RefundRequest { amount: rec.amount_fen, reason: rec.reason.clone() };
    let money = apply_refund(&before.money(), &req).map_err(|e| problem_error(&e.problem()))?;
    let now = ctx.now();
    let mut after = before.clone();
    after.refunded_fen = money.refunded;
    after.payment_status = money.payment_status();
    after.version = before.version + 1;
    let decided = RefundRecord { status: RefundStatus::Approved, decided_by: Some(by.into()), decided_at: Some(now), ..rec.clone() };
    let mut entry = LedgerEntry::of(&decided);
    entry.refunded_before_fen = Some(before.refunded_fen);
    entry.refunded_after_fen = Some(money.refunded);
    let mut ops = super::change_ops(&before, &after);
    ops.push(TxOp::Put {
        item: decided.to_item(),
        condition: Some(Condition::Eq("status".into(), json!("pending"))),
    });
    ops.push(TxOp::Put { item: entry.to_item(), condition: Some(Condition::item_absent()) });
    match ctx.store.transact(ops).await {
        Ok(()) => Ok((decided, after)),
        Err(StoreError::TransactionCanceled { .. }) => Err(ApiError::conflict(Text::new(
            "the order or the refund request changed meanwhile (another approval won); reload",
            "订单或退款申请已被他人处理，请刷新后重试",
        ))),
        Err(e) => Err(store_error(e)),
    }
}

impl LedgerEntry {
    /// The entry of an approved refund (without the order's totals).
    pub fn of(rec: &RefundRecord) -> LedgerEntry {
        LedgerEntry {
            refund_id: rec.id.clone(),
            order_no: rec.order_no.clone(),
            station_id: rec.station_id.clone(),
            amount_fen: rec.amount_fen,
            reason: rec.reason.clone(),
            approved_by: rec.decided_by.clone(),
            approved_at: rec.decided_at.unwrap_or(rec.requested_at),
            refunded_before_fen: None,
            refunded_after_fen: None,
        }
    }

    /// The item with its keys (written put-if-absent).
    pub fn to_item(&self) -> store::Item {
        let lk = keys::ledger(&self.refund_id);
        crate::domain::to_item(
            self,
            &[
                (store::PK, lk.pk),
                (store::SK, lk.sk),
                ("GSI1PK", keys::LEDGER_INDEX_PK.to_string()),
                ("GSI1SK", format!("{:012}#{}", self.approved_at, self.refund_id)),
            ],
        )
    }
}

/// The ledger entry item of an approved refund (written put-if-absent).
pub fn ledger_item(rec: &RefundRecord) -> store::Item {
    LedgerEntry::of(rec).to_item()
}

/// Rejects a pending request (nothing changes on the order).
pub async fn reject(ctx: &AppCtx, order_no: &str, id: &str, by: &str, note: &str) -> Result<RefundRecord, ApiError> {
    let rec = load_request(ctx, order_no, id).await?;
    if rec.status != RefundStatus::Pending {
        return Err(already_decided(&rec));
    }
    let decided = RefundRecord {
        status: RefundStatus::Rejected,
        decided_by: Some(by.into()),
        decided_at: Some(ctx.now()),
        decision_note: Some(note.trim().to_string()),
        ..rec
    };
    match ctx.store.put(decided.to_item(), Some(Condition::Eq("status".into(), json!("pending")))).await {
        Ok(()) => Ok(decided),
        Err(StoreError::ConditionFailed) => Err(ApiError::conflict(Text::new("the refund request was decided meanwhile; reload", "退款申请已被他人处理，请刷新"))),
        Err(e) => Err(store_error(e)),
    }
}

/// A page of refund requests by status, newest first.
pub async fn list(ctx: &AppCtx, status: RefundStatus, size: u32, cursor: Option<String>) -> Result<(Vec<RefundRecord>, Option<String>), ApiError> {
    let q = Query::index(Index::Gsi1, keys::refunds_by_status(&keys::enum_name(&status))).limit(size).backward().after(cursor);
    let page = ctx.store.query(q).await.api()?;
    let list = page.items.into_iter().map(from_item).collect::<Result<Vec<RefundRecord>, _>>()?;
    Ok((list, page.cursor))
}

/// A page of the refund ledger, newest first.
pub async fn ledger(ctx: &AppCtx, from_ts: i64, to_ts: i64, size: u32, cursor: Option<String>) -> Result<(Vec<LedgerEntry>, Option<String>), ApiError> {
    let q = Query::index(Index::Gsi1, keys::LEDGER_INDEX_PK)
        .sort_key(SortKey::Between(format!("{from_ts:012}#"), format!("{to_ts:012}#~")))
        .limit(size)
        .backward()
        .after(cursor);
    let page = ctx.store.query(q).await.api()?;
    let entries = page.items.into_iter().map(from_item).collect::<Result<Vec<LedgerEntry>, _>>()?;
    Ok((entries, page.cursor))
}
