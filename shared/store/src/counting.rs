//! A decorator that counts store calls and items read, for benchmarks and
//! for tests that hold a request's cost flat as the table grows. Items read
//! equals items returned, because no path uses a filter expression: what a
//! query reads is what it returns (the DynamoDB adapter asks for one item
//! more than a page to know whether another follows; the benchmark counts
//! that one on the wire). Calls are also counted by kind: the port has no
//! Scan, and every call is one of these.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use async_trait::async_trait;

use crate::{Condition, Item, Key, Page, Query, Result, Table, TxOp, UpdateAction};

/// Calls and items read since the last reset.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub calls: u64,
    pub items_read: u64,
    pub queries: u64,
    /// Single-item reads (GetItem).
    pub gets: u64,
    /// Batch reads (BatchGetItem).
    pub batch_gets: u64,
    /// Writes of any kind (put, update, delete, transaction, bulk put).
    pub writes: u64,
    /// Items those writes touched (a transaction counts each operation).
    pub items_written: u64,
    /// What those writes would cost in DynamoDB write request units: 1 per
    /// started KB of a put item (delete and update counted as 1: the items
    /// the product updates in place are small counters and records), twice
    /// that inside a transaction, as DynamoDB charges.
    pub write_units: u64,
}

pub struct CountingTable {
    inner: Arc<dyn Table>,
    calls: AtomicU64,
    items_read: AtomicU64,
    queries: AtomicU64,
    gets: AtomicU64,
    batch_gets: AtomicU64,
    writes: AtomicU64,
    items_written: AtomicU64,
    write_units: AtomicU64,
}

impl CountingTable {
    pub fn new(inner: Arc<dyn Table>) -> Self {
        Self { inner, calls: AtomicU64::new(0), items_read: AtomicU64::new(0), queries: AtomicU64::new(0), gets: AtomicU64::new(0), batch_gets: AtomicU64::new(0), writes: AtomicU64::new(0), items_written: AtomicU64::new(0), write_units: AtomicU64::new(0) }
    }

    /// The counts so far, zeroing them.
    pub fn take(&self) -> Counts {
        Counts {
            calls: self.calls.swap(0, Ordering::Relaxed),
            items_read: self.items_read.swap(0, Ordering::Relaxed),
            queries: self.queries.swap(0, Ordering::Relaxed),
            gets: self.gets.swap(0, Ordering::Relaxed),
            batch_gets: self.batch_gets.swap(0, Ordering::Relaxed),
            writes: self.writes.swap(0, Ordering::Relaxed),
            items_written: self.items_written.swap(0, Ordering::Relaxed),
            write_units: self.write_units.swap(0, Ordering::Relaxed),
        }
    }

    fn units(&self, units: u64) {
        self.write_units.fetch_add(units, Ordering::Relaxed);
    }

    fn write(&self, items: usize) {
        self.writes.fetch_add(1, Ordering::Relaxed);
        self.items_written.fetch_add(items as u64, Ordering::Relaxed);
        self.call(0);
    }

    fn call(&self, items: usize) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.items_read.fetch_add(items as u64, Ordering::Relaxed);
    }
}

/// Write request units of a put item: 1 per started KB (its JSON size,
/// close to DynamoDB's own measure of names plus values).
fn item_units(item: &Item) -> u64 {
    let bytes = serde_json::to_string(item).map_or(0, |s| s.len()) as u64;
    bytes.div_ceil(1024).max(1)
}

#[async_trait]
impl Table for CountingTable {
    async fn put(&self, item: Item, condition: Option<Condition>) -> Result<()> {
        self.write(1);
        self.units(item_units(&item));
        self.inner.put(item, condition).await
    }
    async fn get(&self, key: &Key) -> Result<Option<Item>> {
        let found = self.inner.get(key).await;
        self.gets.fetch_add(1, Ordering::Relaxed);
        self.call(matches!(found, Ok(Some(_))) as usize);
        found
    }
    async fn batch_get(&self, keys: &[Key]) -> Result<Vec<Option<Item>>> {
        let found = self.inner.batch_get(keys).await;
        self.batch_gets.fetch_add(1, Ordering::Relaxed);
        self.call(found.as_ref().map_or(0, |items| items.iter().flatten().count()));
        found
    }
    async fn delete(&self, key: &Key, condition: Option<Condition>) -> Result<Option<Item>> {
        self.write(1);
        self.units(1);
        self.inner.delete(key, condition).await
    }
    async fn update(&self, key: &Key, actions: Vec<UpdateAction>, condition: Option<Condition>) -> Result<Item> {
        self.write(1);
        self.units(1);
        self.inner.update(key, actions, condition).await
    }
    async fn query(&self, query: Query) -> Result<Page> {
        let page = self.inner.query(query).await;
        self.queries.fetch_add(1, Ordering::Relaxed);
        self.call(page.as_ref().map_or(0, |p| p.items.len()));
        page
    }
    async fn transact(&self, ops: Vec<TxOp>) -> Result<()> {
        self.write(ops.len());
        self.units(ops.iter().map(|op| 2 * if let TxOp::Put { item, .. } = op { item_units(item) } else { 1 }).sum());
        self.inner.transact(ops).await
    }
    async fn put_many(&self, items: Vec<Item>) -> Result<()> {
        self.write(items.len());
        self.units(items.iter().map(item_units).sum());
        self.inner.put_many(items).await
    }
}
