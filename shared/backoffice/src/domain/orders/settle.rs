//! Settling what an order still owes by hand (finance desk): a payment
//! received offline (cash, bank transfer, ...) or a write-off with a
//! reason. Typical case: an order closed by hand that is
//! finished and unpaid, with nobody's app left to charge.
//!
//! Each is ONE transaction: the order (only at the version read, with its
//! new paid total or payment status and the settlement record), its moved
//! pointers, the rollups (paid or written-off difference) and a ledger
//! entry whose key is fixed per order (`LEDGER#SETTLE-{no}`, put only if
//! absent). So an order is settled at most once, also when two staff race:
//! the loser's transaction is cancelled and, read again, the order is
//! settled, which answers 409 naming who did what.
//!
//! Only the whole amount owed (amount - paid) is taken: a partial payment
//! would leave a remainder with no next step again, and the spec's order
//! has one payment, not several.

use charging::orders::{OrderStatus, PaymentStatus};
use charging::Fen;
use envelope::{msg, ApiError, Text};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use store::{Condition, StoreError, TxOp};

use super::record::OrderRow;
use super::refunds::LedgerEntry;
use crate::ctx::AppCtx;
use crate::domain::store_error;

/// How an offline payment was received. JSON: camelCase names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum OfflineMethod {
    Cash,
    BankTransfer,
    Wechat,
    Alipay,
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum SettlementKind {
    /// Money received outside the app; counts as paid.
    OfflinePayment,
    /// The amount owed will not be collected; counts as written off, not paid.
    WriteOff,
}

/// How an order's debt was settled by staff, kept on the order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Settlement {
    pub kind: SettlementKind,
    /// What was received (offline payment) or written off.
    pub amount_fen: Fen,
    /// Offline payment only.
    #[serde(default)]
    pub method: Option<OfflineMethod>,
    /// Offline payment: the receipt / transfer reference (optional).
    #[serde(default)]
    pub reference: Option<String>,
    /// Write-off: why (required); offline payment: an optional note.
    #[serde(default)]
    pub reason: Option<String>,
    pub by: String,
    pub at: i64,
}

/// What staff asked for.
pub enum Settle {
    Payment { method: OfflineMethod, reference: String, amount: Fen, note: String },
    WriteOff { reason: String },
}

/// The ledger id of an order's settlement: one per order, so its put-if-absent
/// refuses a second one.
pub fn ledger_id(order_no: &str) -> String {
    format!("SETTLE-{order_no}")
}


fn already_settled(row: &OrderRow) -> ApiError {
    let no = &row.order.order_no;
    ApiError::conflict(match &row.settlement {
        Some(s) if s.kind == SettlementKind::OfflinePayment => {
            let method = s.method.map_or_else(|| Text::same(""), crate::messages::orders::offline_method);
            msg::orders::settle::already_paid_offline(&s.by, method, no)
        }
        Some(s) => msg::orders::settle::already_written_off(&s.by, no),
        None => msg::orders::settle::already_paid(no),
    })
}

/// What the order still owes (amount - paid), or why nothing can be settled.
fn owed(row: &OrderRow) -> Result<Fen, ApiError> {
    // A billed order (a postpaid card's session) is owed by its holder: paid or written off here too.
    if row.settlement.is_some() || !matches!(row.order.payment_status, PaymentStatus::Unpaid | PaymentStatus::Billed) {
        return Err(already_settled(row));
    }
    if matches!(row.order.status, OrderStatus::Charging) {
        return Err(ApiError::bad_request(msg::orders::settle::still_charging(&row.order.order_no)));
    }
    let owed = Fen(row.order.amount_fen.0 - row.order.paid_fen.0);
    if owed.0 <= 0 {
        return Err(ApiError::bad_request(msg::orders::settle::owes_nothing(&row.order.order_no)));
    }
    Ok(owed)
}

/// Records an offline payment or a write-off (see module docs). Answers the
/// order after it.
pub async fn settle(ctx: &AppCtx, order_no: &str, what: Settle, by: &str) -> Result<OrderRow, ApiError> {
    // One read, one conditional write: a lost race is answered from the
    // order as the winner left it (409), never retried into a second one.
    for _ in 0..2 {
        let before = super::load(ctx, order_no).await?;
        let owed = owed(&before)?;
        let now = ctx.now();
        let mut after = before.clone();
        let settlement = match &what {
            Settle::Payment { method, reference, amount, note } => {
                if *amount != owed {
                    return Err(ApiError::bad_request(msg::orders::settle::wrong_amount(&amount, &owed)));
                }
                after.order.paid_fen = Fen(before.order.paid_fen.0 + owed.0);
                after.order.payment_status = after.order.money().payment_status();
                Settlement {
                    kind: SettlementKind::OfflinePayment,
                    amount_fen: owed,
                    method: Some(*method),
                    reference: Some(reference.trim().to_string()).filter(|r| !r.is_empty()),
                    reason: Some(note.trim().to_string()).filter(|r| !r.is_empty()),
                    by: by.to_string(),
                    at: now,
                }
            }
            Settle::WriteOff { reason } => {
                after.order.payment_status = PaymentStatus::WrittenOff;
                Settlement {
                    kind: SettlementKind::WriteOff,
                    amount_fen: owed,
                    method: None,
                    reference: None,
                    reason: Some(reason.trim().to_string()),
                    by: by.to_string(),
                    at: now,
                }
            }
        };
        after.settlement = Some(settlement.clone());
        after.version = before.version + 1;
        let entry = LedgerEntry::of_settlement(&after, &settlement);
        let mut ops = super::change_ops(&before, &after);
        ops.push(TxOp::Put { item: entry.to_item(), condition: Some(Condition::item_absent()) });
        match ctx.store.transact(ops).await {
            Ok(()) => return Ok(after),
            // Someone else wrote the order meanwhile: read it again; if it
            // is settled now, `owed` answers 409 with who did it.
            Err(StoreError::TransactionCanceled { .. }) => continue,
            Err(e) => return Err(store_error(e)),
        }
    }
    Err(ApiError::conflict(msg::orders::changed_meanwhile()))
}
