//! Charging orders: the stored records, the one write path (order +
//! pointers + rollups in one transaction), listing, refunds, offline
//! payments and write-offs (`settle`), demo seeding,
//! and the answers the order pages are sent (`view`).

pub mod backfill;
pub mod keys;
pub mod list;
pub mod record;
pub mod refunds;
pub mod rollup;
pub mod seed;
pub mod settle;
pub mod view;

use envelope::{msg, ApiError};
use serde_json::json;
use store::{Condition, Key, TxOp};

use crate::ctx::AppCtx;
use crate::domain::{from_item, StoreResultExt};
use record::{OrderDetail, OrderRow};

fn pointer(pk: String, row: &OrderRow) -> store::Item {
    pointer_sorted(pk, keys::time_sort(row.order.start_ts, &row.order.order_no), row)
}

/// A pointer with its own sort key; it carries the start time, so a list
/// sorted by value checks the date range before reading the order.
fn pointer_sorted(pk: String, sk: String, row: &OrderRow) -> store::Item {
    let mut item = store::Item::new();
    item.insert(store::PK.into(), json!(pk));
    item.insert(store::SK.into(), json!(sk));
    item.insert("orderNo".into(), json!(row.order.order_no));
    item.insert("startTs".into(), json!(row.order.start_ts));
    item
}

/// The pointer items an order has (their keys depend on mutable fields,
/// so a change moves them).
fn pointers(row: &OrderRow) -> Vec<store::Item> {
    let month = keys::month_of(row.order.start_ts);
    let mut out = vec![
        pointer(keys::by_payment(row.order.payment_status, &month), row),
        pointer(keys::by_user(&row.order.user_id), row),
        pointer(keys::by_plate(&row.order.plate), row),
        pointer_sorted(keys::by_amount(&month), keys::value_sort(row.order.amount_fen.0, &row.order.order_no), row),
        pointer_sorted(keys::by_energy(&month), keys::value_sort(row.order.energy_wh, &row.order.order_no), row),
    ];
    if row.flagged() {
        out.push(pointer(keys::flagged(&month), row));
    }
    out
}

/// Operations that create an order (refused if the number exists).
pub fn insert_ops(row: &OrderRow, detail: &OrderDetail) -> Vec<TxOp> {
    let mut ops = vec![
        TxOp::Put { item: row.to_item(), condition: Some(Condition::item_absent()) },
        TxOp::Put { item: detail.to_item(&row.order.order_no), condition: None },
    ];
    ops.extend(pointers(row).into_iter().map(|item| TxOp::Put { item, condition: None }));
    ops.extend(rollup::ops(&rollup::deltas(None, Some(row))));
    ops
}

/// Operations that change an order from `before` (as read) to `after`:
/// the order is written only if nobody changed it since (version), its
/// pointers move, and the rollups change by the difference.
pub fn change_ops(before: &OrderRow, after: &OrderRow) -> Vec<TxOp> {
    change_ops_adding(before, after, std::collections::BTreeMap::new())
}

/// `change_ops` plus more rollup changes in the same transaction (a
/// granted refund's, on its approval day). They are merged with the
/// order's own per item: a transaction may touch an item only once, and
/// the approval day is often the order's start day.
pub fn change_ops_adding(before: &OrderRow, after: &OrderRow, more_rollups: std::collections::BTreeMap<Key, rollup::Sums>) -> Vec<TxOp> {
    let mut after_item = after.to_item();
    after_item.insert(store::VERSION.into(), json!(before.version + 1));
    let mut ops = vec![TxOp::Put { item: after_item, condition: Some(Condition::version_is(before.version)) }];
    let keys_of = |row: &OrderRow| pointers(row).into_iter().filter_map(|i| Key::of(&i)).collect::<Vec<_>>();
    let old: Vec<Key> = keys_of(before);
    let new_items = pointers(after);
    for k in &old {
        if !new_items.iter().any(|i| Key::of(i).as_ref() == Some(k)) {
            ops.push(TxOp::Delete { key: k.clone(), condition: None });
        }
    }
    for item in new_items {
        if !Key::of(&item).is_some_and(|k| old.contains(&k)) {
            ops.push(TxOp::Put { item, condition: None });
        }
    }
    let mut deltas = rollup::deltas(Some(before), Some(after));
    rollup::accumulate(&mut deltas, more_rollups);
    deltas.retain(|_, s| !s.is_zero());
    ops.extend(rollup::ops(&deltas));
    ops
}

pub fn order_not_found(no: &str) -> ApiError {
    ApiError::not_found(msg::orders::not_found(&no))
}

/// Reads one order's list row.
pub async fn load(ctx: &AppCtx, no: &str) -> Result<OrderRow, ApiError> {
    let item = ctx.store.get(&keys::order(no)).await.api()?.ok_or_else(|| order_not_found(no))?;
    from_item(item)
}

/// Reads an order with its detail and refunds (one query on its partition).
pub async fn load_full(ctx: &AppCtx, no: &str) -> Result<(OrderRow, Option<OrderDetail>, Vec<refunds::RefundRecord>), ApiError> {
    let page = ctx.store.query(store::Query::partition(keys::order_pk(no))).await.api()?;
    let (mut row, mut detail, mut refunds) = (None, None, Vec::new());
    for item in page.items {
        match item.get(store::SK).and_then(|v| v.as_str()) {
            Some("ORDER") => row = Some(from_item::<OrderRow>(item)?),
            Some("DETAIL") => detail = Some(from_item::<OrderDetail>(item)?),
            Some(sk) if sk.starts_with("REFUND#") => refunds.push(from_item::<refunds::RefundRecord>(item)?),
            _ => {}
        }
    }
    let row = row.ok_or_else(|| order_not_found(no))?;
    Ok((row, detail, refunds))
}
