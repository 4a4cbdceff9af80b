//! Refunds: an Editor or Admin requests one (with a reason), an Admin
//! approves it. Approval is ONE transaction: the order (only if its version
//! is still the one read), the request (only if still pending), a ledger
//! entry (only if absent) and the rollups. So a request is never applied
//! twice and the refunded total never exceeds what was paid, also when
//! many approvals race: all but one fail their condition and get 409.
//! The rollups change twice over: the order's start day (its refunded
//! total, for the order list) and the approval day (`refundsGrantedFen`,
//! what finance and the dashboard count; see `rollup`).
//!
//! Stores written before refunds counted on their approval day: their
//! refund ledger entries lack `GRANT_COUNTED`; `count_earlier_refunds_on_grant_day`
//! adds each once to its approval day (the gateway runs it at start).
//!
//! Requests cannot add up to more than was paid either: the order keeps
//! what its pending requests ask (`pendingRefundFen`), and a request is
//! checked against paid - refunded - pending and written in one
//! transaction with the order's new pending total, on the version read.
//! Two requests racing for the same money: one commits, the other reads
//! again and is checked against the new total. A decision moves the
//! amount out of the pending total in its own transaction.

use charging::orders::{apply_refund, request_errors, requestable, RefundRequest};
use charging::Fen;
use envelope::{msg, ApiError};
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
    /// The note of the decision (approval or rejection; optional).
    #[serde(default)]
    pub decision_note: Option<String>,
}

/// How often a refund write reads again after another write to the same
/// order won the race (a burst of requests on one order), before it
/// answers 409.
const RACE_RETRIES: u32 = 40;

/// A short random pause before trying again, so racing writers spread out.
async fn backoff(attempt: u32) {
    let ms = rand::random::<u64>() % (2 + 2 * u64::from(attempt.min(10)));
    tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
}

/// What an order's pending requests ask together: the total kept on the
/// order, or for an order not written since that total was introduced,
/// the sum of its pending requests.
pub async fn pending_of(ctx: &AppCtx, row: &OrderRow) -> Result<Fen, ApiError> {
    if let Some(p) = row.pending_refund_fen {
        return Ok(p);
    }
    let mut total = Fen::ZERO;
    let mut cursor = None;
    loop {
        let q = Query::partition(keys::order_pk(&row.order.order_no)).sort_key(SortKey::BeginsWith("REFUND#".into())).after(cursor);
        let page = ctx.store.query(q).await.api()?;
        for item in page.items {
            let rec: RefundRecord = from_item(item)?;
            if rec.status == RefundStatus::Pending {
                total = Fen(total.0 + rec.amount_fen.0);
            }
        }
        match page.cursor {
            Some(c) => cursor = Some(c),
            None => return Ok(total),
        }
    }
}

/// The order's new pending total and version, written only if the order
/// is still at the version `row` was read at.
fn pending_update(row: &OrderRow, pending: Fen) -> TxOp {
    TxOp::Update {
        key: keys::order(&row.order.order_no),
        actions: vec![
            store::UpdateAction::Set("pendingRefundFen".into(), json!(pending.0.max(0))),
            store::UpdateAction::Set(store::VERSION.into(), json!(row.version + 1)),
        ],
        condition: Some(Condition::version_is(row.version)),
    }
}

fn race_lost() -> ApiError {
    ApiError::conflict(msg::refunds::race_lost())
}

/// What a ledger entry records. Entries written before offline payments
/// existed have no kind: they are refunds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum LedgerKind {
    #[default]
    Refund,
    /// An owed amount received outside the app (`settle`).
    OfflinePayment,
    /// An owed amount written off (`settle`).
    WriteOff,
}

/// A ledger entry (one per approved refund, offline payment or write-off)
/// as stored and as the finance page is sent it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LedgerEntry {
    /// The entry's id: the refund's, or `SETTLE-{orderNo}` for an offline
    /// payment or write-off (one per order).
    pub refund_id: String,
    #[serde(default)]
    pub kind: LedgerKind,
    pub order_no: String,
    pub station_id: String,
    pub amount_fen: Fen,
    /// The refund's or write-off's reason; an offline payment's note (may be empty).
    pub reason: String,
    /// Offline payment: how it was received and its reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<super::settle::OfflineMethod>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// Who approved the refund or recorded the payment / write-off, and when.
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

fn refused(e: &charging::orders::RefundError) -> ApiError {
    ApiError::bad_request(crate::messages::charging::refund(e))
}

/// Records a pending request after checking it against the order as it
/// is now: it must fit into paid - refunded - pending (approval checks
/// paid - refunded again). See the module docs for the race.
pub async fn request(ctx: &AppCtx, order_no: &str, amount: Fen, reason: &str, by: &str) -> Result<RefundRecord, ApiError> {
    let req = RefundRequest { amount, reason: reason.to_string() };
    for attempt in 0..RACE_RETRIES {
        let row = super::load(ctx, order_no).await?;
        let pending = pending_of(ctx, &row).await?;
        if let Some(e) = request_errors(&row.order.money(), pending, &req).first() {
            return Err(refused(e));
        }
        let now = ctx.now();
        let rec = RefundRecord {
            id: format!("RF{}", uuid::Uuid::now_v7().simple()),
            order_no: row.order.order_no.clone(),
            station_id: row.order.station_id.clone(),
            amount_fen: amount,
            reason: reason.trim().to_string(),
            status: RefundStatus::Pending,
            requested_by: by.to_string(),
            requested_at: now,
            decided_by: None,
            decided_at: None,
            decision_note: None,
        };
        let ops = vec![pending_update(&row, Fen(pending.0 + amount.0)), TxOp::Put { item: rec.to_item(), condition: Some(Condition::item_absent()) }];
        match ctx.store.transact(ops).await {
            Ok(()) => return Ok(rec),
            Err(StoreError::TransactionCanceled { .. }) => backoff(attempt).await,
            Err(e) => return Err(store_error(e)),
        }
    }
    Err(race_lost())
}

async fn load_request(ctx: &AppCtx, order_no: &str, id: &str) -> Result<RefundRecord, ApiError> {
    let item = ctx.store.get(&keys::refund(order_no, id)).await.api()?.ok_or_else(|| {
        ApiError::not_found(msg::refunds::not_found(&id, &order_no))
    })?;
    from_item(item)
}

fn already_decided(rec: &RefundRecord) -> ApiError {
    ApiError::conflict(match rec.status {
        RefundStatus::Approved => msg::refunds::already_approved(&rec.id),
        _ => msg::refunds::already_rejected(&rec.id),
    })
}

/// Approves a pending request: all-or-nothing (see module docs), with an
/// optional note shown on the order.
pub async fn approve(ctx: &AppCtx, order_no: &str, id: &str, by: &str, note: &str) -> Result<(RefundRecord, OrderRow), ApiError> {
    for attempt in 0..RACE_RETRIES {
        let rec = load_request(ctx, order_no, id).await?;
        if rec.status != RefundStatus::Pending {
            return Err(already_decided(&rec));
        }
        let before = super::load(ctx, order_no).await?;
        let pending = pending_of(ctx, &before).await?;
        let req = RefundRequest { amount: rec.amount_fen, reason: rec.reason.clone() };
        let money = apply_refund(&before.order.money(), &req).map_err(|e| refused(&e))?;
        let now = ctx.now();
        let mut after = before.clone();
        after.order.refunded_fen = money.refunded;
        after.order.payment_status = money.payment_status();
        after.pending_refund_fen = Some(Fen((pending.0 - rec.amount_fen.0).max(0)));
        after.version = before.version + 1;
        let decided = RefundRecord {
            status: RefundStatus::Approved,
            decided_by: Some(by.into()),
            decided_at: Some(now),
            decision_note: note_of(note),
            ..rec.clone()
        };
        let mut entry = LedgerEntry::of(&decided);
        entry.refunded_before_fen = Some(before.order.refunded_fen);
        entry.refunded_after_fen = Some(money.refunded);
        let granted = super::rollup::granted_refund(&before.order.station_id, rec.amount_fen.0, now);
        let mut ops = super::change_ops_adding(&before, &after, granted);
        ops.push(TxOp::Put {
            item: decided.to_item(),
            condition: Some(Condition::Eq("status".into(), json!("pending"))),
        });
        ops.push(TxOp::Put { item: entry.to_item(), condition: Some(Condition::item_absent()) });
        match ctx.store.transact(ops).await {
            Ok(()) => return Ok((decided, after)),
            // Read again: another decision of this request answers 409
            // above; a new request on the order is simply waited out.
            Err(StoreError::TransactionCanceled { .. }) => backoff(attempt).await,
            Err(e) => return Err(store_error(e)),
        }
    }
    Err(ApiError::conflict(msg::refunds::decision_race_lost()))
}

/// A decision's note: trimmed, absent when empty.
fn note_of(note: &str) -> Option<String> {
    Some(note.trim().to_string()).filter(|n| !n.is_empty())
}

impl LedgerEntry {
    /// The entry of an approved refund (without the order's totals).
    pub fn of(rec: &RefundRecord) -> LedgerEntry {
        LedgerEntry {
            refund_id: rec.id.clone(),
            kind: LedgerKind::Refund,
            order_no: rec.order_no.clone(),
            station_id: rec.station_id.clone(),
            amount_fen: rec.amount_fen,
            reason: rec.reason.clone(),
            method: None,
            reference: None,
            approved_by: rec.decided_by.clone(),
            approved_at: rec.decided_at.unwrap_or(rec.requested_at),
            refunded_before_fen: None,
            refunded_after_fen: None,
        }
    }

    /// The entry of an order's offline payment or write-off.
    pub fn of_settlement(row: &OrderRow, s: &super::settle::Settlement) -> LedgerEntry {
        LedgerEntry {
            refund_id: super::settle::ledger_id(&row.order.order_no),
            kind: match s.kind {
                super::settle::SettlementKind::OfflinePayment => LedgerKind::OfflinePayment,
                super::settle::SettlementKind::WriteOff => LedgerKind::WriteOff,
            },
            order_no: row.order.order_no.clone(),
            station_id: row.order.station_id.clone(),
            amount_fen: s.amount_fen,
            reason: s.reason.clone().unwrap_or_default(),
            method: s.method,
            reference: s.reference.clone(),
            approved_by: Some(s.by.clone()),
            approved_at: s.at,
            refunded_before_fen: None,
            refunded_after_fen: None,
        }
    }

    /// The item with its keys (written put-if-absent). A refund's entry is
    /// written in the transaction that counts it on its approval day, so
    /// it says so (`GRANT_COUNTED`).
    pub fn to_item(&self) -> store::Item {
        let lk = keys::ledger(&self.refund_id);
        let mut item = crate::domain::to_item(
            self,
            &[
                (store::PK, lk.pk),
                (store::SK, lk.sk),
                ("GSI1PK", keys::LEDGER_INDEX_PK.to_string()),
                ("GSI1SK", format!("{:012}#{}", self.approved_at, self.refund_id)),
            ],
        );
        if self.kind == LedgerKind::Refund {
            item.insert(GRANT_COUNTED.into(), json!(true));
        }
        item
    }
}

/// Attribute of a refund's ledger entry: its amount is in the approval
/// day's `refundsGrantedFen`. Entries written before that rule lack it.
pub const GRANT_COUNTED: &str = "grantCounted";

/// Marker item: every refund ledger entry has been counted on its approval
/// day (`count_earlier_refunds_on_grant_day` finished once).
pub fn grant_day_marker() -> store::Key {
    store::Key::new("MIGRATION#REFUNDS_BY_GRANT_DAY", "DONE")
}

/// One-time catch-up for stores written before refunds counted on their
/// approval day: adds every refund ledger entry without `GRANT_COUNTED` to
/// its approval day's and month's `refundsGrantedFen`, and marks it, in one
/// transaction per entry (conditioned on the mark being absent, so an
/// entry is never counted twice, also by two runs at once or beside live
/// approvals). Then writes the marker, so the next start reads one item.
/// Answers how many entries it counted (0 when the marker is there).
pub async fn count_earlier_refunds_on_grant_day(ctx: &AppCtx) -> Result<u64, ApiError> {
    if ctx.store.get(&grant_day_marker()).await.api()?.is_some() {
        return Ok(0);
    }
    let mut counted = 0;
    let mut cursor = None;
    loop {
        let page = ctx.store.query(Query::index(Index::Gsi1, keys::LEDGER_INDEX_PK).limit(500).after(cursor)).await.api()?;
        for item in page.items {
            if item.contains_key(GRANT_COUNTED) {
                continue;
            }
            let entry: LedgerEntry = from_item(item)?;
            if entry.kind != LedgerKind::Refund {
                continue;
            }
            let lk = keys::ledger(&entry.refund_id);
            let mut ops = vec![TxOp::Update {
                key: lk,
                actions: vec![store::UpdateAction::Set(GRANT_COUNTED.into(), json!(true))],
                condition: Some(Condition::And(vec![Condition::item_exists(), Condition::NotExists(GRANT_COUNTED.into())])),
            }];
            ops.extend(super::rollup::ops(&super::rollup::granted_refund(&entry.station_id, entry.amount_fen.0, entry.approved_at)));
            match ctx.store.transact(ops).await {
                Ok(()) => counted += 1,
                // Counted meanwhile by another run: nothing to do.
                Err(StoreError::TransactionCanceled { .. }) => {}
                Err(e) => return Err(store_error(e)),
            }
        }
        match page.cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    let mut marker = store::Item::new();
    let mk = grant_day_marker();
    marker.insert(store::PK.into(), json!(mk.pk));
    marker.insert(store::SK.into(), json!(mk.sk));
    marker.insert("at".into(), json!(ctx.now()));
    marker.insert("counted".into(), json!(counted));
    ctx.store.put(marker, None).await.api()?;
    Ok(counted)
}

/// The ledger entry item of an approved refund (written put-if-absent).
pub fn ledger_item(rec: &RefundRecord) -> store::Item {
    LedgerEntry::of(rec).to_item()
}

/// Rejects a pending request: its amount leaves the order's pending total
/// (nothing else changes on the order), with an optional note.
pub async fn reject(ctx: &AppCtx, order_no: &str, id: &str, by: &str, note: &str) -> Result<RefundRecord, ApiError> {
    for attempt in 0..RACE_RETRIES {
        let rec = load_request(ctx, order_no, id).await?;
        if rec.status != RefundStatus::Pending {
            return Err(already_decided(&rec));
        }
        let order = super::load(ctx, order_no).await?;
        let pending = pending_of(ctx, &order).await?;
        let decided = RefundRecord {
            status: RefundStatus::Rejected,
            decided_by: Some(by.into()),
            decided_at: Some(ctx.now()),
            decision_note: note_of(note),
            ..rec
        };
        let ops = vec![
            pending_update(&order, Fen(pending.0 - decided.amount_fen.0)),
            TxOp::Put { item: decided.to_item(), condition: Some(Condition::Eq("status".into(), json!("pending"))) },
        ];
        match ctx.store.transact(ops).await {
            Ok(()) => return Ok(decided),
            Err(StoreError::TransactionCanceled { .. }) => backoff(attempt).await,
            Err(e) => return Err(store_error(e)),
        }
    }
    Err(ApiError::conflict(msg::refunds::decided_meanwhile()))
}

/// The order's money beside a refund request in the approval queue.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueueOrderMoney {
    pub paid_fen: Fen,
    pub refunded_fen: Fen,
    /// What the order's pending requests ask together (this one included while pending).
    pub pending_fen: Fen,
    /// What is left after refunds and pending requests: paid - refunded - pending.
    pub remaining_fen: Fen,
}

/// A refund request with its order's money, as the approval queue lists it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueueEntry {
    #[serde(flatten)]
    pub refund: RefundRecord,
    /// Null only when the order is gone.
    pub order: Option<QueueOrderMoney>,
}

/// The orders' money beside a page of requests: one batch read (plus one
/// query per order written before the pending total was kept).
pub async fn with_orders(ctx: &AppCtx, list: Vec<RefundRecord>) -> Result<Vec<QueueEntry>, ApiError> {
    let ks: Vec<_> = list.iter().map(|r| keys::order(&r.order_no)).collect();
    let got = if ks.is_empty() { vec![] } else { ctx.store.batch_get(&ks).await.api()? };
    let mut out = Vec::with_capacity(list.len());
    for (refund, item) in list.into_iter().zip(got) {
        let order = match item {
            Some(item) => {
                let row: OrderRow = from_item(item)?;
                let pending = pending_of(ctx, &row).await?;
                let money = row.order.money();
                Some(QueueOrderMoney { paid_fen: money.paid, refunded_fen: money.refunded, pending_fen: pending, remaining_fen: requestable(&money, pending) })
            }
            None => None,
        };
        out.push(QueueEntry { refund, order });
    }
    Ok(out)
}

/// A page of refund requests by status, oldest or newest first.
pub async fn list(ctx: &AppCtx, status: RefundStatus, oldest_first: bool, size: u32, cursor: Option<String>) -> Result<(Vec<RefundRecord>, Option<String>), ApiError> {
    let mut q = Query::index(Index::Gsi1, keys::refunds_by_status(&keys::enum_name(&status))).limit(size).after(cursor);
    if !oldest_first {
        q = q.backward();
    }
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
