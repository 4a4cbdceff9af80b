//! A decorator whose indexes lag behind its writes, as DynamoDB's global
//! secondary indexes do (they are eventually consistent: a query may miss
//! an item just written, or still list it as it was). Tests run code that
//! reads an index right after a write on it, on any adapter, and see
//! whether it still does the right thing. Reads by key (`get`,
//! `batch_get`) and table queries stay consistent, as DynamoDB's are.
//!
//! While [`LaggingIndex::freeze`] is on, every index query answers as of
//! the moment of the freeze for the items written since: an item written
//! after it is missing from every index, and the version it had before
//! (if any) is listed instead. [`LaggingIndex::thaw`] lets the indexes
//! catch up.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use serde_json::Value;

use crate::{Condition, Item, Key, Page, Query, Result, SortKey, Table, TxOp, UpdateAction};

pub struct LaggingIndex {
    inner: Arc<dyn Table>,
    /// While frozen: each key written since the freeze, with its item as it
    /// was before (None: it did not exist).
    frozen: Mutex<Option<HashMap<Key, Option<Item>>>>,
}

impl LaggingIndex {
    pub fn new(inner: Arc<dyn Table>) -> Self {
        LaggingIndex { inner, frozen: Mutex::new(None) }
    }

    /// From now on, index queries do not see writes (until [`Self::thaw`]).
    pub fn freeze(&self) {
        *self.frozen.lock().unwrap_or_else(|p| p.into_inner()) = Some(HashMap::new());
    }

    /// The indexes catch up with every write.
    pub fn thaw(&self) {
        *self.frozen.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }

    fn is_frozen(&self) -> bool {
        self.frozen.lock().unwrap_or_else(|p| p.into_inner()).is_some()
    }

    /// Keeps the item's version from before the freeze, the first time it is written.
    async fn before_write(&self, keys: &[Key]) -> Result<()> {
        if !self.is_frozen() {
            return Ok(());
        }
        for key in keys {
            let seen = self.frozen.lock().unwrap_or_else(|p| p.into_inner()).as_ref().is_some_and(|m| m.contains_key(key));
            if !seen {
                let before = self.inner.get(key).await?;
                if let Some(m) = self.frozen.lock().unwrap_or_else(|p| p.into_inner()).as_mut() {
                    m.entry(key.clone()).or_insert(before);
                }
            }
        }
        Ok(())
    }
}

/// Whether `item` is in the index partition (and sort-key range) `q` reads.
fn listed(item: &Item, q: &Query, pk_attr: &str, sk_attr: &str) -> bool {
    if item.get(pk_attr).and_then(Value::as_str) != Some(q.pk.as_str()) {
        return false;
    }
    let Some(sk) = item.get(sk_attr).and_then(Value::as_str) else { return false };
    match &q.sk {
        None => true,
        Some(SortKey::Eq(v)) => sk == v,
        Some(SortKey::Lt(v)) => sk < v.as_str(),
        Some(SortKey::Le(v)) => sk <= v.as_str(),
        Some(SortKey::Gt(v)) => sk > v.as_str(),
        Some(SortKey::Ge(v)) => sk >= v.as_str(),
        Some(SortKey::Between(a, b)) => sk >= a.as_str() && sk <= b.as_str(),
        Some(SortKey::BeginsWith(p)) => sk.starts_with(p.as_str()),
    }
}

#[async_trait]
impl Table for LaggingIndex {
    async fn put(&self, item: Item, condition: Option<Condition>) -> Result<()> {
        if let Some(k) = Key::of(&item) {
            self.before_write(&[k]).await?;
        }
        self.inner.put(item, condition).await
    }
    async fn get(&self, key: &Key) -> Result<Option<Item>> {
        self.inner.get(key).await
    }
    async fn batch_get(&self, keys: &[Key]) -> Result<Vec<Option<Item>>> {
        self.inner.batch_get(keys).await
    }
    async fn delete(&self, key: &Key, condition: Option<Condition>) -> Result<Option<Item>> {
        self.before_write(std::slice::from_ref(key)).await?;
        self.inner.delete(key, condition).await
    }
    async fn update(&self, key: &Key, actions: Vec<UpdateAction>, condition: Option<Condition>) -> Result<Item> {
        self.before_write(std::slice::from_ref(key)).await?;
        self.inner.update(key, actions, condition).await
    }
    async fn query(&self, query: Query) -> Result<Page> {
        let Some(index) = query.index else { return self.inner.query(query).await };
        let stale = self.frozen.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let Some(stale) = stale else { return self.inner.query(query).await };
        let (pk_attr, sk_attr) = (index.pk_attr(), index.sk_attr());
        // Ask for the whole partition: items hidden here must not shorten the page.
        let whole = Query { limit: None, cursor: None, ..query.clone() };
        let mut items: Vec<Item> = self.inner.query(whole).await?.items.into_iter().filter(|i| Key::of(i).is_none_or(|k| !stale.contains_key(&k))).collect();
        items.extend(stale.values().flatten().filter(|i| listed(i, &query, pk_attr, sk_attr)).cloned());
        let sort = |i: &Item| (i.get(sk_attr).and_then(Value::as_str).unwrap_or_default().to_string(), Key::of(i));
        items.sort_by_key(sort);
        if !query.forward {
            items.reverse();
        }
        if let Some(limit) = query.limit {
            items.truncate(limit as usize);
        }
        Ok(Page { items, cursor: None })
    }
    async fn transact(&self, ops: Vec<TxOp>) -> Result<()> {
        let keys: Vec<Key> = ops.iter().map(TxOp::key).collect();
        self.before_write(&keys).await?;
        self.inner.transact(ops).await
    }
    async fn put_many(&self, items: Vec<Item>) -> Result<()> {
        let keys: Vec<Key> = items.iter().filter_map(Key::of).collect();
        self.before_write(&keys).await?;
        self.inner.put_many(items).await
    }
}

#[cfg(all(test, feature = "sqlite"))]
mod tests {
    use super::*;
    use crate::Index;
    use serde_json::json;

    fn item(id: &str, queue: Option<&str>) -> Item {
        let mut i = json!({"PK": format!("C#{id}"), "SK": "C", "id": id}).as_object().unwrap().clone();
        if let Some(q) = queue {
            i.insert("GSI2PK".into(), json!(q));
            i.insert("GSI2SK".into(), json!(id));
        }
        i
    }

    fn ids(page: Page) -> Vec<String> {
        page.items.iter().map(|i| i["id"].as_str().unwrap().to_string()).collect()
    }

    #[tokio::test]
    async fn a_frozen_index_answers_as_before_the_writes() {
        let t = LaggingIndex::new(Arc::new(crate::sqlite::SqliteTable::open_in_memory().unwrap()));
        t.put(item("a", Some("Q")), None).await.unwrap();
        t.freeze();
        t.put(item("b", Some("Q")), None).await.unwrap();
        t.put(item("a", None), None).await.unwrap();
        let q = Query::index(Index::Gsi2, "Q");
        assert_eq!(ids(t.query(q.clone()).await.unwrap()), vec!["a"], "b is not listed yet, a is still listed");
        assert!(t.get(&Key::new("C#b", "C")).await.unwrap().is_some(), "reads by key are consistent");
        assert!(t.query(Query::partition("C#b")).await.unwrap().items.len() == 1, "so are table queries");
        t.thaw();
        assert_eq!(ids(t.query(q).await.unwrap()), vec!["b"]);
    }
}
