//! A decorator that remembers the key of every item written through it, so
//! what was written (a seed, say) can be copied to another table in bulk.
//! Benchmarks and tests seed a DynamoDB table this way: the product's seed
//! runs on SQLite and the items are copied with `put_many` (BatchWriteItem),
//! because moto copies its whole table for every item of a transaction.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use crate::{Condition, Item, Key, Page, Query, Result, Table, TxOp, UpdateAction};

pub struct KeyRecorder {
    inner: Arc<dyn Table>,
    written: Mutex<BTreeSet<Key>>,
}

impl KeyRecorder {
    pub fn new(inner: Arc<dyn Table>) -> Self {
        KeyRecorder { inner, written: Mutex::default() }
    }

    fn note(&self, keys: impl IntoIterator<Item = Key>) {
        self.written.lock().unwrap_or_else(|e| e.into_inner()).extend(keys);
    }

    /// Copies every item written so far (as it is now; deleted ones are
    /// skipped) to `target` with bulk writes; answers how many.
    pub async fn copy_written_to(&self, target: &dyn Table) -> Result<usize> {
        let keys: Vec<Key> = self.written.lock().unwrap_or_else(|e| e.into_inner()).iter().cloned().collect();
        let mut items = Vec::with_capacity(keys.len());
        for chunk in keys.chunks(100) {
            items.extend(self.inner.batch_get(chunk).await?.into_iter().flatten());
        }
        let n = items.len();
        target.put_many(items).await?;
        Ok(n)
    }
}

#[async_trait]
impl Table for KeyRecorder {
    async fn put(&self, item: Item, condition: Option<Condition>) -> Result<()> {
        self.note(Key::of(&item));
        self.inner.put(item, condition).await
    }
    async fn get(&self, key: &Key) -> Result<Option<Item>> {
        self.inner.get(key).await
    }
    async fn batch_get(&self, keys: &[Key]) -> Result<Vec<Option<Item>>> {
        self.inner.batch_get(keys).await
    }
    async fn delete(&self, key: &Key, condition: Option<Condition>) -> Result<Option<Item>> {
        self.note([key.clone()]);
        self.inner.delete(key, condition).await
    }
    async fn update(&self, key: &Key, actions: Vec<UpdateAction>, condition: Option<Condition>) -> Result<Item> {
        self.note([key.clone()]);
        self.inner.update(key, actions, condition).await
    }
    async fn query(&self, query: Query) -> Result<Page> {
        self.inner.query(query).await
    }
    async fn transact(&self, ops: Vec<TxOp>) -> Result<()> {
        self.note(ops.iter().map(|op| op.key()));
        self.inner.transact(ops).await
    }
    async fn put_many(&self, items: Vec<Item>) -> Result<()> {
        self.note(items.iter().filter_map(Key::of));
        self.inner.put_many(items).await
    }
}
