//! Settling what an order still owes by hand (finance desk): a payment
//! received offline (cash, bank transfer, ...) or a write-off with a
//! reason. Typical case: an order closed by hand (人工结单) that is
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
use envelope::{ApiError, Text};
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

impl OfflineMethod {
    pub fn zh(self) -> &'static str {
        match self {
            OfflineMethod::Cash => "现金",
            OfflineMethod::BankTransfer => "银行转账",
            OfflineMethod::Wechat => "微信",
            OfflineMethod::Alipay => "支付宝",
            OfflineMethod::Other => "其他",
        }
    }
    pub fn en(self) -> &'static str {
        match self {
            OfflineMethod::Cash => "cash",
            OfflineMethod::BankTransfer => "bank transfer",
            OfflineMethod::Wechat => "WeChat",
            OfflineMethod::Alipay => "Alipay",
            OfflineMethod::Other => "other",
        }
    }
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
    let (en, zh) = match &row.settlement {
        Some(s) if s.kind == SettlementKind::OfflinePayment => (
            format!("order {} was already paid offline by {} ({})", row.order.order_no, s.by, s.method.map(OfflineMethod::en).unwrap_or("")),
            format!("订单 {} 已由 {} 登记线下收款（{}）", row.order.order_no, s.by, s.method.map(OfflineMethod::zh).unwrap_or("")),
        ),
        Some(s) => (format!("order {} was already written off by {}", row.order.order_no, s.by), format!("订单 {} 已由 {} 核销", row.order.order_no, s.by)),
        None => (format!("order {} is already paid", row.order.order_no), format!("订单 {} 已支付", row.order.order_no)),
    };
    ApiError::conflict(Text::new(en, zh))
}

/// What the order still owes (amount - paid), or why nothing can be settled.
fn owed(row: &OrderRow) -> Result<Fen, ApiError> {
    // A billed order (a postpaid card's session) is owed by its holder: paid or written off here too.
    if row.settlement.is_some() || !matches!(row.order.payment_status, PaymentStatus::Unpaid | PaymentStatus::Billed) {
        return Err(already_settled(row));
    }
    if matches!(row.order.status, OrderStatus::Charging) {
        return Err(ApiError::invalid(
            format!("order {} is still charging; close it first", row.order.order_no),
            format!("订单 {} 仍在充电中，请先结单", row.order.order_no),
        ));
    }
    let owed = Fen(row.order.amount_fen.0 - row.order.paid_fen.0);
    if owed.0 <= 0 {
        return Err(ApiError::invalid(format!("order {} owes nothing", row.order.order_no), format!("订单 {} 没有待收金额", row.order.order_no)));
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
                    return Err(ApiError::invalid(
                        format!("amount must be the amount owed, {} (got {})", owed, amount),
                        format!("收款金额须等于待收金额 {} 元（收到 {} 元）", owed, amount),
                    ));
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
    Err(ApiError::conflict(Text::new("the order changed meanwhile; reload and try again", "订单已被他人修改，请刷新后重试")))
}
