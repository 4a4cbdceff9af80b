//! Demo orders: months of priced sessions with curves, tariff snapshots,
//! refunds (approved, with ledger entries, and a few pending), stuck and
//! abnormal ones. Written through a bulk path that stores exactly the
//! items the real write path stores (orders, details, pointers) and adds
//! the rollups once per item at the end instead of once per order
//! (approved refunds on their approval day too, like `refunds::approve`).

use std::collections::BTreeMap;

use charging::demo::{DemoConfig, DemoData};
use charging::Fen;
use envelope::{msg, ApiError};
use store::{Condition, Key, TxOp, MAX_TRANSACT_OPS};

use super::keys;
use super::record::OrderRow;
use super::refunds::{RefundRecord, RefundStatus};
use super::rollup::{self, Sums};
use crate::ctx::AppCtx;
use crate::domain::StoreResultExt;

/// Demo orders seeded on first start unless `BACKOFFICE_DEMO_ORDERS` says otherwise.
pub const DEFAULT_DEMO_ORDERS: u64 = 3000;
/// Days of history the demo orders cover.
pub const DEMO_DAYS: u32 = 120;

/// The demo configuration: ending now, size from `BACKOFFICE_DEMO_ORDERS`.
pub fn demo_config(get: &impl Fn(&str) -> Option<String>, now: i64) -> Result<DemoConfig, ApiError> {
    let orders = match get("BACKOFFICE_DEMO_ORDERS").filter(|v| !v.trim().is_empty()) {
        None => DEFAULT_DEMO_ORDERS,
        Some(v) => v.trim().parse::<u64>().map_err(|_| {
            ApiError::bad_request(msg::seed::demo_orders(format!("{v:?}")))
        })?,
    };
    let days = match get("BACKOFFICE_DEMO_DAYS").filter(|v| !v.trim().is_empty()) {
        None => DEMO_DAYS,
        Some(v) => v.trim().parse::<u32>().ok().filter(|d| (1..=3650).contains(d)).ok_or_else(|| {
            ApiError::bad_request(msg::seed::demo_days(format!("{v:?}")))
        })?,
    };
    Ok(DemoConfig { orders, days, end_ts: now, ..DemoConfig::default() })
}

/// Writes `ops`: the puts as one bulk write (BatchWriteItem on DynamoDB:
/// half the write cost of a transaction, and moto copies the whole table
/// for every transaction, which made a 10k-order seed take hours), anything
/// else in transactions of at most the store's limit. The seed writes a
/// fresh data set once (the seed marker guards it) and the generator never
/// repeats an id, so the puts' "not there yet" conditions cannot fail here.
async fn flush(ctx: &AppCtx, ops: &mut Vec<TxOp>) -> Result<(), ApiError> {
    let (puts, rest): (Vec<TxOp>, Vec<TxOp>) = ops.drain(..).partition(|op| matches!(op, TxOp::Put { .. }));
    let items: Vec<store::Item> = puts.into_iter().filter_map(|op| if let TxOp::Put { item, .. } = op { Some(item) } else { None }).collect();
    if !items.is_empty() {
        ctx.store.put_many(items).await.api()?;
    }
    let mut rest = rest;
    while !rest.is_empty() {
        let n = rest.len().min(MAX_TRANSACT_OPS);
        let chunk: Vec<TxOp> = rest.drain(..n).collect();
        ctx.store.transact(chunk).await.api()?;
    }
    Ok(())
}

/// Seeds the demo orders of `demo` (all of `demo.config.orders`).
pub async fn seed_orders(ctx: &AppCtx, demo: &DemoData) -> Result<u64, ApiError> {
    seed_range(ctx, demo, 0, demo.config.orders).await
}

/// Seeds demo orders `from..to` (the bench seeds in chunks).
pub async fn seed_range(ctx: &AppCtx, demo: &DemoData, from: u64, to: u64) -> Result<u64, ApiError> {
    let mut acc: BTreeMap<Key, Sums> = BTreeMap::new();
    let mut ops: Vec<TxOp> = Vec::new();
    let mut n = 0;
    for (i, o) in demo.orders_range(from, to).enumerate() {
        let name = demo.stations.iter().find(|s| s.id == o.order.station_id).map(|s| s.name.as_str()).unwrap_or_default();
        let (mut row, detail) = OrderRow::from_demo(&o, name);
        // Every 150th paid, unrefunded order has a pending request to decide
        // (its amount is the order's pending total).
        let pending = ((from + i as u64) % 150 == 7 && row.order.money().refundable().is_positive() && o.refunds.is_empty()).then(|| RefundRecord {
            id: format!("RF{}P", &row.order.order_no[2..]),
            order_no: row.order.order_no.clone(),
            station_id: row.order.station_id.clone(),
            amount_fen: Fen((row.order.money().refundable().0 / 5).max(1)),
            reason: "用户反馈充电中断，申请部分退款".into(),
            status: RefundStatus::Pending,
            requested_by: "editor".into(),
            requested_at: row.order.stop_ts.unwrap_or(row.order.start_ts) + 1800,
            decided_by: None,
            decided_at: None,
            decision_note: None,
        });
        if let Some(rec) = &pending {
            row.pending_refund_fen = Some(rec.amount_fen);
        }
        // Everything of the real insert but the rollups, which are summed here.
        ops.extend(super::insert_ops(&row, &detail).into_iter().filter(|op| !matches!(op, TxOp::Update { .. })));
        rollup::accumulate(&mut acc, rollup::deltas(None, Some(&row)));
        for r in &o.refunds {
            let rec = RefundRecord {
                id: r.id.clone(),
                order_no: row.order.order_no.clone(),
                station_id: row.order.station_id.clone(),
                amount_fen: r.amount,
                reason: r.reason.clone(),
                status: RefundStatus::Approved,
                requested_by: "editor".into(),
                requested_at: r.requested_at,
                decided_by: Some(r.approved_by.clone()),
                // An hour after the request, but never after the history's end (now).
                decided_at: Some((r.requested_at + 3600).min(demo.config.end_ts)),
                decision_note: None,
            };
            // Counted on its approval day, as the real approval does.
            rollup::accumulate(&mut acc, rollup::granted_refund(&rec.station_id, rec.amount_fen.0, rec.decided_at.unwrap_or(rec.requested_at)));
            ops.push(TxOp::Put { item: rec.to_item(), condition: None });
            ops.push(TxOp::Put { item: super::refunds::ledger_item(&rec), condition: None });
        }
        if let Some(rec) = pending {
            ops.push(TxOp::Put { item: rec.to_item(), condition: Some(Condition::item_absent()) });
        }
        n += 1;
        if ops.len() >= MAX_TRANSACT_OPS * 4 {
            flush(ctx, &mut ops).await?;
        }
    }
    flush(ctx, &mut ops).await?;
    for (key, sums) in acc {
        let mut actions = rollup::add_actions(&sums);
        if key.pk == keys::STATIONS_ROLLUP_PK {
            let name = demo.stations.iter().find(|s| s.id == key.sk).map(|s| s.name.clone()).unwrap_or_default();
            actions.push(store::UpdateAction::SetIfAbsent("stationName".into(), serde_json::json!(name)));
        }
        ctx.store.update(&key, actions, None).await.api()?;
    }
    Ok(n)
}
