//! The storage port: a small DynamoDB-shaped single-table API that all
//! domain code depends on, and two adapters behind it (`sqlite`, the
//! embedded default; `dynamo`, what runs in AWS).
//!
//! Items are JSON objects. Every item has the string keys `PK` and `SK`;
//! items that appear in a secondary listing also carry `GSI{n}PK` and
//! `GSI{n}SK` for one of the global secondary indexes below. Strings sort
//! by their UTF-8 bytes on both adapters, as DynamoDB does.
//!
//! There is deliberately no Scan: every list the product shows is a Query
//! on a key designed for it, so its cost stays flat as the table grows.

use async_trait::async_trait;
use serde_json::{Map, Value};

pub mod cursor;
mod eval;
#[cfg(feature = "sqlite")]
pub mod sqlite;
#[cfg(feature = "sqlite")]
pub mod sqlite_file;
#[cfg(feature = "dynamo")]
pub mod dynamo;
pub mod counting;
pub mod recording;
pub mod lagging;

/// A stored record: a JSON object with at least `PK` and `SK`.
pub type Item = Map<String, Value>;

pub const PK: &str = "PK";
pub const SK: &str = "SK";
/// The attribute DynamoDB expires items by (Time to Live, epoch seconds):
/// the table's `TimeToLiveSpecification` names it, every writer of an
/// expiring item sets it. The embedded store does not expire items.
pub const TTL_ATTRIBUTE: &str = "ttl";
/// The attribute that carries an item's optimistic-lock version.
pub const VERSION: &str = "version";

/// The largest number of operations in one transaction (DynamoDB's limit).
pub const MAX_TRANSACT_OPS: usize = 100;
/// The largest page a query returns, whatever limit is asked for.
pub const MAX_PAGE: u32 = 1000;

/// The global secondary indexes of the table. Each has a string partition
/// key `GSI{n}PK` and a string sort key `GSI{n}SK`, projected ALL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Index {
    Gsi1,
    Gsi2,
    Gsi3,
}

impl Index {
    pub const ALL: [Index; 3] = [Index::Gsi1, Index::Gsi2, Index::Gsi3];
    pub fn name(self) -> &'static str {
        match self {
            Index::Gsi1 => "GSI1",
            Index::Gsi2 => "GSI2",
            Index::Gsi3 => "GSI3",
        }
    }
    pub fn pk_attr(self) -> &'static str {
        match self {
            Index::Gsi1 => "GSI1PK",
            Index::Gsi2 => "GSI2PK",
            Index::Gsi3 => "GSI3PK",
        }
    }
    pub fn sk_attr(self) -> &'static str {
        match self {
            Index::Gsi1 => "GSI1SK",
            Index::Gsi2 => "GSI2SK",
            Index::Gsi3 => "GSI3SK",
        }
    }
}

/// The primary key of an item.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub pk: String,
    pub sk: String,
}

impl Key {
    pub fn new(pk: impl Into<String>, sk: impl Into<String>) -> Self {
        Self { pk: pk.into(), sk: sk.into() }
    }
    /// The key of a stored item, if it has string `PK` and `SK`.
    pub fn of(item: &Item) -> Option<Key> {
        Some(Key::new(item.get(PK)?.as_str()?, item.get(SK)?.as_str()?))
    }
    /// An item holding only this key.
    pub fn to_item(&self) -> Item {
        let mut item = Item::new();
        item.insert(PK.into(), Value::from(self.pk.clone()));
        item.insert(SK.into(), Value::from(self.sk.clone()));
        item
    }
}

/// DynamoDB's largest item, which both adapters enforce.
pub const MAX_ITEM_BYTES: usize = 400 * 1024;

/// Checks an item can be stored the same way on both adapters: string,
/// non-empty keys (and index keys, when present) and DynamoDB's size limit.
/// Returns its key.
pub fn check_item(item: &Item) -> Result<Key> {
    let key_attr = |name: &str| match item.get(name) {
        Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
        _ => Err(StoreError::Invalid(format!("the item's {name} must be a non-empty string"))),
    };
    let key = Key::new(key_attr(PK)?, key_attr(SK)?);
    for index in Index::ALL {
        for attr in [index.pk_attr(), index.sk_attr()] {
            if item.contains_key(attr) {
                key_attr(attr)?;
            }
        }
    }
    let size = Value::Object(item.clone()).to_string().len();
    if size > MAX_ITEM_BYTES {
        return Err(StoreError::Invalid(format!("the item is {size} bytes; at most {MAX_ITEM_BYTES} can be stored")));
    }
    Ok(key)
}

/// A condition on the current stored item (absent item = all attributes
/// missing). Comparisons hold only between values of the same JSON type
/// (number with number, string with string), as in DynamoDB.
#[derive(Debug, Clone, PartialEq)]
pub enum Condition {
    /// The attribute exists (use `PK` to mean "the item exists").
    Exists(String),
    /// The attribute does not exist (use `PK` to mean "the item is new").
    NotExists(String),
    Eq(String, Value),
    Ne(String, Value),
    Lt(String, Value),
    Le(String, Value),
    Gt(String, Value),
    Ge(String, Value),
    And(Vec<Condition>),
    Or(Vec<Condition>),
}

impl Condition {
    /// The item exists.
    pub fn item_exists() -> Self {
        Condition::Exists(PK.into())
    }
    /// No item with this key exists yet.
    pub fn item_absent() -> Self {
        Condition::NotExists(PK.into())
    }
    /// The stored version equals `version` (optimistic locking).
    /// A save of a record loaded at `version`: 0 means it did not exist
    /// (a first save), any other the version it must still have.
    pub fn loaded_at(version: i64) -> Self {
        if version == 0 {
            Condition::item_absent()
        } else {
            Condition::version_is(version)
        }
    }
    pub fn version_is(version: i64) -> Self {
        Condition::Eq(VERSION.into(), Value::from(version))
    }
    /// A counter kept with [`UpdateAction::Add`] is zero (a missing one
    /// counts as 0, as `Add` treats it).
    pub fn counter_is_zero(attr: &str) -> Self {
        Condition::Or(vec![Condition::NotExists(attr.into()), Condition::Eq(attr.into(), Value::from(0))])
    }
}

/// One change an update applies. An update of an absent item creates it
/// (as DynamoDB's UpdateItem does) unless a condition says otherwise.
#[derive(Debug, Clone, PartialEq)]
pub enum UpdateAction {
    /// Set the attribute to the value.
    Set(String, Value),
    /// Set the attribute only if it does not exist yet.
    SetIfAbsent(String, Value),
    /// Add a number to a numeric attribute (a missing one counts as 0).
    Add(String, i64),
    /// Remove the attribute.
    Remove(String),
}

/// A condition on the sort key of a query (on the table or an index).
#[derive(Debug, Clone, PartialEq)]
pub enum SortKey {
    Eq(String),
    BeginsWith(String),
    /// Inclusive on both ends.
    Between(String, String),
    Lt(String),
    Le(String),
    Gt(String),
    Ge(String),
}

/// A query: one partition, an optional sort-key condition, a page size and
/// the cursor of the previous page.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    pub index: Option<Index>,
    pub pk: String,
    pub sk: Option<SortKey>,
    /// At most this many items (capped at [`MAX_PAGE`]); None = MAX_PAGE.
    pub limit: Option<u32>,
    /// The opaque cursor returned with the previous page.
    pub cursor: Option<String>,
    /// Ascending sort-key order when true.
    pub forward: bool,
}

impl Query {
    /// All items of a partition of the table, ascending.
    pub fn partition(pk: impl Into<String>) -> Self {
        Query { index: None, pk: pk.into(), sk: None, limit: None, cursor: None, forward: true }
    }
    /// All items of a partition of an index, ascending.
    pub fn index(index: Index, pk: impl Into<String>) -> Self {
        Query { index: Some(index), ..Query::partition(pk) }
    }
    pub fn sort_key(mut self, sk: SortKey) -> Self {
        self.sk = Some(sk);
        self
    }
    pub fn limit(mut self, limit: u32) -> Self {
        self.limit = Some(limit);
        self
    }
    pub fn after(mut self, cursor: Option<String>) -> Self {
        self.cursor = cursor;
        self
    }
    pub fn backward(mut self) -> Self {
        self.forward = false;
        self
    }
}

/// One page of a query.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Page {
    pub items: Vec<Item>,
    /// Present when more items may follow; pass it back to get them.
    pub cursor: Option<String>,
}

/// One operation of a transaction.
#[derive(Debug, Clone, PartialEq)]
pub enum TxOp {
    Put { item: Item, condition: Option<Condition> },
    Update { key: Key, actions: Vec<UpdateAction>, condition: Option<Condition> },
    Delete { key: Key, condition: Option<Condition> },
    /// Only checks a condition on another item; writes nothing.
    Check { key: Key, condition: Condition },
}

impl TxOp {
    /// The item the operation addresses.
    pub fn key(&self) -> Key {
        match self {
            TxOp::Put { item, .. } => Key::of(item).unwrap_or_else(|| Key::new("", "")),
            TxOp::Update { key, .. } | TxOp::Delete { key, .. } | TxOp::Check { key, .. } => key.clone(),
        }
    }
    /// The condition the operation needs, if any.
    pub fn condition(&self) -> Option<&Condition> {
        match self {
            TxOp::Put { condition, .. } | TxOp::Update { condition, .. } | TxOp::Delete { condition, .. } => condition.as_ref(),
            TxOp::Check { condition, .. } => Some(condition),
        }
    }
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum StoreError {
    /// A single write's condition did not hold; nothing was written.
    #[error("the condition on the stored item did not hold")]
    ConditionFailed,
    /// A transaction was cancelled; nothing was written. `failed` lists the
    /// positions of the operations whose condition did not hold.
    #[error("the transaction was cancelled (conditions failed at {failed:?})")]
    TransactionCanceled { failed: Vec<usize> },
    /// The request was not valid for the store (bad key, bad cursor,
    /// too many operations, item too large ...).
    #[error("invalid store request: {0}")]
    Invalid(String),
    /// The store could not be reached or failed; the write may be retried.
    #[error("store unavailable: {0}")]
    Unavailable(String),
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// The port. Both adapters pass the same contract tests.
#[async_trait]
pub trait Table: Send + Sync {
    /// Writes a whole item (replacing any item with the same key) if the
    /// condition holds on the stored item.
    async fn put(&self, item: Item, condition: Option<Condition>) -> Result<()>;
    /// Reads one item.
    async fn get(&self, key: &Key) -> Result<Option<Item>>;
    /// Reads several items in one call; the answer is in the order of `keys`.
    async fn batch_get(&self, keys: &[Key]) -> Result<Vec<Option<Item>>>;
    /// Deletes an item if the condition holds; returns the deleted item.
    async fn delete(&self, key: &Key, condition: Option<Condition>) -> Result<Option<Item>>;
    /// Applies the actions if the condition holds; returns the new item.
    async fn update(&self, key: &Key, actions: Vec<UpdateAction>, condition: Option<Condition>) -> Result<Item>;
    /// One page of a partition of the table or an index.
    async fn query(&self, query: Query) -> Result<Page>;
    /// All operations or none. No two operations may address the same item.
    async fn transact(&self, ops: Vec<TxOp>) -> Result<()>;
    /// Writes many items without conditions, for bulk loads of fresh data
    /// (the demo seed). Not atomic as a whole: a failure may leave some
    /// items written. DynamoDB uses BatchWriteItem (25 items a request, no
    /// transaction, half the write cost); the default writes transactions
    /// of [`MAX_TRANSACT_OPS`] unconditional puts.
    /// No two items may share a key.
    async fn put_many(&self, items: Vec<Item>) -> Result<()> {
        validate_put_many(&items)?;
        let mut items = items;
        while !items.is_empty() {
            let n = items.len().min(MAX_TRANSACT_OPS);
            let chunk = items.drain(..n).map(|item| TxOp::Put { item, condition: None }).collect();
            self.transact(chunk).await?;
        }
        Ok(())
    }
}

/// Every item storable, no key twice (checked before anything is written).
pub(crate) fn validate_put_many(items: &[Item]) -> Result<()> {
    let mut seen = std::collections::HashSet::new();
    for item in items {
        let key = check_item(item)?;
        if !seen.insert(key.clone()) {
            return Err(StoreError::Invalid(format!("a bulk write holds the item {}/{} twice", key.pk, key.sk)));
        }
    }
    Ok(())
}

/// The rules DynamoDB applies before running a transaction.
pub(crate) fn validate_transaction(ops: &[TxOp]) -> Result<()> {
    if ops.is_empty() {
        return Err(StoreError::Invalid("a transaction needs at least one operation".into()));
    }
    if ops.len() > MAX_TRANSACT_OPS {
        return Err(StoreError::Invalid(format!("a transaction holds at most {MAX_TRANSACT_OPS} operations, not {}", ops.len())));
    }
    let mut seen = std::collections::HashSet::new();
    for op in ops {
        if let TxOp::Put { item, .. } = op {
            check_item(item)?;
        }
        if !seen.insert(op.key()) {
            let key = op.key();
            return Err(StoreError::Invalid(format!("a transaction addresses the item {}/{} twice", key.pk, key.sk)));
        }
    }
    Ok(())
}
