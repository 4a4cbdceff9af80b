//! Writes the pointers an order should have and lacks: orders stored
//! before a pointer kind existed (the amount and energy pointers of the
//! sorted order list) are otherwise missing from the lists they serve.
//! Run once after an upgrade (`gateway backfill`); it is idempotent and
//! safe while the product serves: each order's missing pointers are
//! written in one transaction conditioned on the version that was read,
//! and an order changed meanwhile is read again.

use envelope::ApiError;
use serde_json::Value;
use store::{Condition, Key, Query, TxOp};

use super::record::OrderRow;
use super::{keys, pointers};
use crate::ctx::AppCtx;
use crate::domain::{from_item, StoreResultExt};

/// What a run did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Backfilled {
    pub months: usize,
    pub orders: usize,
    /// Pointer items written.
    pub written: usize,
}

/// How often one order is read again after it changed under the run.
const RETRIES: usize = 5;

/// Every month with orders (from the all-orders monthly rollup), each
/// walked on its month index; missing pointers are written.
pub async fn missing_pointers(ctx: &AppCtx) -> Result<Backfilled, ApiError> {
    let mut done = Backfilled::default();
    let mut months = Vec::new();
    let mut cursor = None;
    loop {
        let page = ctx.store.query(Query::partition(keys::month_rollup(keys::Dim::All)).after(cursor)).await.api()?;
        months.extend(page.items.iter().filter_map(|i| i.get(store::SK).and_then(Value::as_str).map(str::to_string)));
        cursor = page.cursor;
        if cursor.is_none() {
            break;
        }
    }
    for month in months {
        done.months += 1;
        let mut cursor = None;
        loop {
            let q = Query::index(store::Index::Gsi1, keys::by_month(&month)).limit(100).after(cursor);
            let page = ctx.store.query(q).await.api()?;
            for item in page.items {
                let row: OrderRow = from_item(item)?;
                done.orders += 1;
                done.written += fill_order(ctx, row).await?;
            }
            cursor = page.cursor;
            if cursor.is_none() {
                break;
            }
        }
    }
    Ok(done)
}

/// Writes one order's missing pointers; answers how many.
async fn fill_order(ctx: &AppCtx, mut row: OrderRow) -> Result<usize, ApiError> {
    for _ in 0..RETRIES {
        let wanted = pointers(&row);
        let wanted_keys: Vec<Key> = wanted.iter().filter_map(Key::of).collect();
        let stored = ctx.store.batch_get(&wanted_keys).await.api()?;
        let missing: Vec<store::Item> = wanted.into_iter().zip(stored).filter(|(_, s)| s.is_none()).map(|(item, _)| item).collect();
        if missing.is_empty() {
            return Ok(0);
        }
        let n = missing.len();
        let mut ops = vec![TxOp::Check { key: keys::order(&row.order.order_no), condition: Condition::version_is(row.version) }];
        ops.extend(missing.into_iter().map(|item| TxOp::Put { item, condition: None }));
        match ctx.store.transact(ops).await {
            Ok(()) => return Ok(n),
            Err(store::StoreError::TransactionCanceled { .. }) => {
                // Changed meanwhile (its write moved its pointers): read it again.
                match ctx.store.get(&keys::order(&row.order.order_no)).await.api()? {
                    Some(item) => row = from_item(item)?,
                    None => return Ok(0),
                }
            }
            Err(e) => return Err(crate::domain::store_error(e)),
        }
    }
    Err(ApiError::standard(409))
}
