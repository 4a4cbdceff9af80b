//! Decorators that record what goes through them. [`KeyRecorder`]
//! remembers the key of every item written through it, so
//! what was written (a seed, say) can be copied to another table in bulk.
//! Benchmarks and tests seed a DynamoDB table this way: the product's seed
//! runs on SQLite and the items are copied with `put_many` (BatchWriteItem),
//! because moto copies its whole table for every item of a transaction.
//! [`TouchRecorder`] reports every item access the way DynamoDB's IAM
//! authorises it (action, table or index, partition key).

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

/// One item access as DynamoDB's IAM sees it: the action it is authorised
/// as, the table or index it reads, and the partition-key value that
/// `dynamodb:LeadingKeys` compares (the index's own partition key for a
/// query on an index). A transaction is authorised per item by the item
/// actions (Put/Update/Delete/ConditionCheckItem), so it is recorded as
/// those.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Touch {
    /// The IAM action, e.g. `dynamodb:GetItem`.
    pub action: &'static str,
    /// The index of a query on one; None for the table.
    pub index: Option<&'static str>,
    /// The partition-key value the action addresses.
    pub pk: String,
}

impl Touch {
    fn table(action: &'static str, pk: impl Into<String>) -> Touch {
        Touch { action, index: None, pk: pk.into() }
    }
}

pub type TouchSink = Arc<dyn Fn(Touch) + Send + Sync>;

/// A decorator that reports every item access to a sink before it is
/// made, for the test that holds each Lambda function's IAM policy
/// (`backoffice::iam`) to what its handlers really touch.
pub struct TouchRecorder {
    inner: Arc<dyn Table>,
    sink: TouchSink,
}

impl TouchRecorder {
    pub fn new(inner: Arc<dyn Table>, sink: TouchSink) -> Self {
        TouchRecorder { inner, sink }
    }

    fn touch(&self, action: &'static str, pk: &str) {
        (self.sink)(Touch::table(action, pk));
    }
}

fn item_pk(item: &Item) -> &str {
    item.get(crate::PK).and_then(|v| v.as_str()).unwrap_or_default()
}

#[async_trait]
impl Table for TouchRecorder {
    async fn put(&self, item: Item, condition: Option<Condition>) -> Result<()> {
        self.touch("dynamodb:PutItem", item_pk(&item));
        self.inner.put(item, condition).await
    }
    async fn get(&self, key: &Key) -> Result<Option<Item>> {
        self.touch("dynamodb:GetItem", &key.pk);
        self.inner.get(key).await
    }
    async fn batch_get(&self, keys: &[Key]) -> Result<Vec<Option<Item>>> {
        for key in keys {
            self.touch("dynamodb:BatchGetItem", &key.pk);
        }
        self.inner.batch_get(keys).await
    }
    async fn delete(&self, key: &Key, condition: Option<Condition>) -> Result<Option<Item>> {
        self.touch("dynamodb:DeleteItem", &key.pk);
        self.inner.delete(key, condition).await
    }
    async fn update(&self, key: &Key, actions: Vec<UpdateAction>, condition: Option<Condition>) -> Result<Item> {
        self.touch("dynamodb:UpdateItem", &key.pk);
        self.inner.update(key, actions, condition).await
    }
    async fn query(&self, query: Query) -> Result<Page> {
        (self.sink)(Touch { action: "dynamodb:Query", index: query.index.map(|i| i.name()), pk: query.pk.clone() });
        self.inner.query(query).await
    }
    async fn transact(&self, ops: Vec<TxOp>) -> Result<()> {
        for op in &ops {
            let action = match op {
                TxOp::Put { .. } => "dynamodb:PutItem",
                TxOp::Update { .. } => "dynamodb:UpdateItem",
                TxOp::Delete { .. } => "dynamodb:DeleteItem",
                TxOp::Check { .. } => "dynamodb:ConditionCheckItem",
            };
            self.touch(action, &op.key().pk);
        }
        self.inner.transact(ops).await
    }
    async fn put_many(&self, items: Vec<Item>) -> Result<()> {
        for item in &items {
            self.touch("dynamodb:BatchWriteItem", item_pk(item));
        }
        self.inner.put_many(items).await
    }
}

#[cfg(all(test, feature = "sqlite"))]
mod tests {
    use super::*;
    use crate::{Index, SortKey};
    use serde_json::json;

    #[tokio::test]
    async fn touches_are_what_iam_authorises() {
        let seen: Arc<Mutex<Vec<Touch>>> = Arc::default();
        let sink_seen = seen.clone();
        let sink: TouchSink = Arc::new(move |t| sink_seen.lock().unwrap().push(t));
        let table = TouchRecorder::new(Arc::new(crate::sqlite::SqliteTable::open_in_memory().unwrap()), sink);
        let item = |pk: &str| Key::new(pk, "S").to_item();
        table.put(item("A#1"), None).await.unwrap();
        table.get(&Key::new("A#1", "S")).await.unwrap();
        table.batch_get(&[Key::new("A#1", "S"), Key::new("B#1", "S")]).await.unwrap();
        let mut indexed = item("C#1");
        indexed.insert("GSI2PK".into(), json!("LISTING"));
        indexed.insert("GSI2SK".into(), json!("1"));
        table
            .transact(vec![
                TxOp::Put { item: indexed, condition: None },
                TxOp::Update { key: Key::new("D#1", "S"), actions: vec![UpdateAction::Add("n".into(), 1)], condition: None },
                TxOp::Delete { key: Key::new("E#1", "S"), condition: None },
                TxOp::Check { key: Key::new("A#1", "S"), condition: Condition::item_exists() },
            ])
            .await
            .unwrap();
        table.query(Query::index(Index::Gsi2, "LISTING").sort_key(SortKey::BeginsWith("1".into()))).await.unwrap();
        table.query(Query::partition("A#1")).await.unwrap();
        let t = |action: &'static str, index: Option<&'static str>, pk: &str| Touch { action, index, pk: pk.into() };
        assert_eq!(
            *seen.lock().unwrap(),
            vec![
                t("dynamodb:PutItem", None, "A#1"),
                t("dynamodb:GetItem", None, "A#1"),
                t("dynamodb:BatchGetItem", None, "A#1"),
                t("dynamodb:BatchGetItem", None, "B#1"),
                t("dynamodb:PutItem", None, "C#1"),
                t("dynamodb:UpdateItem", None, "D#1"),
                t("dynamodb:DeleteItem", None, "E#1"),
                t("dynamodb:ConditionCheckItem", None, "A#1"),
                // A query on an index is authorised by the index's partition key.
                t("dynamodb:Query", Some("GSI2"), "LISTING"),
                t("dynamodb:Query", None, "A#1"),
            ]
        );
    }
}
