//! The embedded adapter: one SQLite file, one table of JSON items with
//! their key attributes in columns, one partial index per GSI. Conditions
//! and updates are evaluated in process (see `eval`) inside a real SQLite
//! transaction, so every write, and every `transact`, is all or nothing.
//!
//! SQLite compares TEXT with memcmp on UTF-8 (BINARY collation), the same
//! byte order DynamoDB uses for string keys.

use std::path::Path;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use rusqlite::{params_from_iter, Connection, OptionalExtension, TransactionBehavior};
use serde_json::Value;

use crate::{cursor, eval, check_item, Condition, Index, Item, Key, Page, Query, Result, SortKey, StoreError, Table, TxOp, UpdateAction, MAX_PAGE};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS items (
    pk TEXT NOT NULL,
    sk TEXT NOT NULL,
    gsi1pk TEXT, gsi1sk TEXT,
    gsi2pk TEXT, gsi2sk TEXT,
    gsi3pk TEXT, gsi3sk TEXT,
    body TEXT NOT NULL,
    PRIMARY KEY (pk, sk)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS items_gsi1 ON items (gsi1pk, gsi1sk, pk, sk) WHERE gsi1pk IS NOT NULL AND gsi1sk IS NOT NULL;
CREATE INDEX IF NOT EXISTS items_gsi2 ON items (gsi2pk, gsi2sk, pk, sk) WHERE gsi2pk IS NOT NULL AND gsi2sk IS NOT NULL;
CREATE INDEX IF NOT EXISTS items_gsi3 ON items (gsi3pk, gsi3sk, pk, sk) WHERE gsi3pk IS NOT NULL AND gsi3sk IS NOT NULL;
";

/// The SQLite table. Cheap to clone; all clones share one connection.
#[derive(Clone)]
pub struct SqliteTable {
    conn: Arc<Mutex<Connection>>,
}

impl SqliteTable {
    /// Opens (creating if needed) the database file.
    pub fn open(path: &Path) -> rusqlite::Result<Self> {
        let conn = Connection::open(path)?;
        // WAL + synchronous=NORMAL: a committed transaction survives the
        // process being killed (it is in the WAL file before COMMIT
        // returns); only an OS crash or power cut may lose the last commits.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        Self::init(conn)
    }

    /// A private in-memory database (tests).
    pub fn open_in_memory() -> rusqlite::Result<Self> {
        Self::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> rusqlite::Result<Self> {
        conn.execute_batch(SCHEMA)?;
        Ok(Self { conn: Arc::new(Mutex::new(conn)) })
    }

    /// Runs blocking SQLite work off the async threads.
    async fn with_conn<T: Send + 'static>(&self, work: impl FnOnce(&mut Connection) -> Result<T> + Send + 'static) -> Result<T> {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || {
            let mut guard = conn.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            work(&mut guard)
        })
        .await
        .map_err(|e| StoreError::Unavailable(format!("the storage task failed: {e}")))?
    }
}

fn sql_err(e: rusqlite::Error) -> StoreError {
    StoreError::Unavailable(format!("sqlite: {e}"))
}

fn index_columns(index: Index) -> (&'static str, &'static str) {
    match index {
        Index::Gsi1 => ("gsi1pk", "gsi1sk"),
        Index::Gsi2 => ("gsi2pk", "gsi2sk"),
        Index::Gsi3 => ("gsi3pk", "gsi3sk"),
    }
}

fn read(conn: &Connection, key: &Key) -> Result<Option<Item>> {
    let body: Option<String> = conn
        .query_row("SELECT body FROM items WHERE pk = ?1 AND sk = ?2", [&key.pk, &key.sk], |row| row.get(0))
        .optional()
        .map_err(sql_err)?;
    body.map(|b| parse(&b)).transpose()
}

fn parse(body: &str) -> Result<Item> {
    match serde_json::from_str(body) {
        Ok(Value::Object(item)) => Ok(item),
        _ => Err(StoreError::Unavailable("a stored item is not a JSON object".into())),
    }
}

fn write(conn: &Connection, item: &Item) -> Result<()> {
    let key = check_item(item)?;
    let attr = |name: &str| item.get(name).and_then(Value::as_str).map(str::to_owned);
    let mut values: Vec<Option<String>> = vec![Some(key.pk), Some(key.sk)];
    for index in Index::ALL {
        values.push(attr(index.pk_attr()));
        values.push(attr(index.sk_attr()));
    }
    values.push(Some(Value::Object(item.clone()).to_string()));
    conn.execute(
        "INSERT OR REPLACE INTO items (pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, gsi3pk, gsi3sk, body) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params_from_iter(values),
    )
    .map_err(sql_err)?;
    Ok(())
}

fn remove(conn: &Connection, key: &Key) -> Result<()> {
    conn.execute("DELETE FROM items WHERE pk = ?1 AND sk = ?2", [&key.pk, &key.sk]).map_err(sql_err)?;
    Ok(())
}

fn check(condition: Option<&Condition>, current: Option<&Item>) -> bool {
    condition.is_none_or(|c| eval::holds(c, current))
}

/// The item an update produces, or why it may not be written.
fn updated(current: Option<Item>, key: &Key, actions: &[UpdateAction]) -> Result<Item> {
    let mut item = current.unwrap_or_else(|| key.to_item());
    eval::apply(&mut item, actions)?;
    Ok(item)
}

fn run_query(conn: &Connection, query: &Query) -> Result<Page> {
    let (pk_col, sk_col) = query.index.map_or(("pk", "sk"), index_columns);
    let mut sql = format!("SELECT body FROM items WHERE {pk_col} = ?");
    let mut args: Vec<String> = vec![query.pk.clone()];
    if query.index.is_some() {
        sql.push_str(&format!(" AND {sk_col} IS NOT NULL"));
    }
    match &query.sk {
        None => {}
        Some(SortKey::Eq(v)) => push(&mut sql, &mut args, &format!(" AND {sk_col} = ?"), [v]),
        Some(SortKey::Lt(v)) => push(&mut sql, &mut args, &format!(" AND {sk_col} < ?"), [v]),
        Some(SortKey::Le(v)) => push(&mut sql, &mut args, &format!(" AND {sk_col} <= ?"), [v]),
        Some(SortKey::Gt(v)) => push(&mut sql, &mut args, &format!(" AND {sk_col} > ?"), [v]),
        Some(SortKey::Ge(v)) => push(&mut sql, &mut args, &format!(" AND {sk_col} >= ?"), [v]),
        Some(SortKey::Between(a, b)) => push(&mut sql, &mut args, &format!(" AND {sk_col} BETWEEN ? AND ?"), [a, b]),
        Some(SortKey::BeginsWith(p)) => {
            // A range on the prefix, so the index serves it: p <= sk < p + U+10FFFF.
            let upper = format!("{p}\u{10FFFF}");
            push(&mut sql, &mut args, &format!(" AND {sk_col} >= ? AND {sk_col} < ?"), [p, &upper]);
        }
    }
    // The table's own key breaks ties between equal index sort keys, so a
    // cursor resumes at an exact position.
    let order_cols: Vec<&str> = match query.index {
        Some(_) => vec![sk_col, "pk", "sk"],
        None => vec!["sk"],
    };
    if let Some(text) = &query.cursor {
        let key = cursor::decode(query, text)?;
        let attr = |name: &str| key.get(name).and_then(Value::as_str).unwrap_or_default().to_owned();
        let after: Vec<String> = match query.index {
            Some(index) => vec![attr(index.sk_attr()), attr(crate::PK), attr(crate::SK)],
            None => vec![attr(crate::SK)],
        };
        let op = if query.forward { ">" } else { "<" };
        let marks = vec!["?"; after.len()].join(", ");
        sql.push_str(&format!(" AND ({}) {op} ({marks})", order_cols.join(", ")));
        args.extend(after);
    }
    let direction = if query.forward { "ASC" } else { "DESC" };
    let order: Vec<String> = order_cols.iter().map(|c| format!("{c} {direction}")).collect();
    let limit = query.limit.unwrap_or(MAX_PAGE).clamp(1, MAX_PAGE);
    // One row more than the page tells whether another page follows.
    sql.push_str(&format!(" ORDER BY {} LIMIT {}", order.join(", "), limit + 1));

    let mut stmt = conn.prepare_cached(&sql).map_err(sql_err)?;
    let bodies = stmt
        .query_map(params_from_iter(args.iter()), |row| row.get::<_, String>(0))
        .map_err(sql_err)?
        .collect::<rusqlite::Result<Vec<String>>>()
        .map_err(sql_err)?;
    let mut items = bodies.iter().map(|b| parse(b)).collect::<Result<Vec<Item>>>()?;
    let cursor = if items.len() > limit as usize {
        items.truncate(limit as usize);
        items.last().map(|last| cursor::encode(query.index, last))
    } else {
        None
    };
    Ok(Page { items, cursor })
}

fn push<'a>(sql: &mut String, args: &mut Vec<String>, clause: &str, values: impl IntoIterator<Item = &'a String>) {
    sql.push_str(clause);
    args.extend(values.into_iter().cloned());
}

#[async_trait]
impl Table for SqliteTable {
    async fn put(&self, item: Item, condition: Option<Condition>) -> Result<()> {
        let key = check_item(&item)?;
        self.with_conn(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(sql_err)?;
            if !check(condition.as_ref(), read(&tx, &key)?.as_ref()) {
                return Err(StoreError::ConditionFailed);
            }
            write(&tx, &item)?;
            tx.commit().map_err(sql_err)
        })
        .await
    }

    async fn get(&self, key: &Key) -> Result<Option<Item>> {
        let key = key.clone();
        self.with_conn(move |conn| read(conn, &key)).await
    }

    async fn batch_get(&self, keys: &[Key]) -> Result<Vec<Option<Item>>> {
        let keys = keys.to_vec();
        self.with_conn(move |conn| keys.iter().map(|k| read(conn, k)).collect()).await
    }

    async fn delete(&self, key: &Key, condition: Option<Condition>) -> Result<Option<Item>> {
        let key = key.clone();
        self.with_conn(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(sql_err)?;
            let current = read(&tx, &key)?;
            if !check(condition.as_ref(), current.as_ref()) {
                return Err(StoreError::ConditionFailed);
            }
            remove(&tx, &key)?;
            tx.commit().map_err(sql_err)?;
            Ok(current)
        })
        .await
    }

    async fn update(&self, key: &Key, actions: Vec<UpdateAction>, condition: Option<Condition>) -> Result<Item> {
        let key = key.clone();
        self.with_conn(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(sql_err)?;
            let current = read(&tx, &key)?;
            if !check(condition.as_ref(), current.as_ref()) {
                return Err(StoreError::ConditionFailed);
            }
            let item = updated(current, &key, &actions)?;
            write(&tx, &item)?;
            tx.commit().map_err(sql_err)?;
            Ok(item)
        })
        .await
    }

    async fn query(&self, query: Query) -> Result<Page> {
        self.with_conn(move |conn| run_query(conn, &query)).await
    }

    async fn transact(&self, ops: Vec<TxOp>) -> Result<()> {
        crate::validate_transaction(&ops)?;
        self.with_conn(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(sql_err)?;
            // First every condition on the state before the transaction (as
            // DynamoDB does), then the writes; dropping `tx` rolls back.
            let mut failed = Vec::new();
            let mut writes = Vec::new();
            for (i, op) in ops.iter().enumerate() {
                let key = op.key();
                let current = read(&tx, &key)?;
                if !check(op.condition(), current.as_ref()) {
                    failed.push(i);
                    continue;
                }
                match op {
                    TxOp::Put { item, .. } => writes.push((key, Some(item.clone()))),
                    TxOp::Update { actions, .. } => writes.push((key.clone(), Some(updated(current, &key, actions)?))),
                    TxOp::Delete { .. } => writes.push((key, None)),
                    TxOp::Check { .. } => {}
                }
            }
            if !failed.is_empty() {
                return Err(StoreError::TransactionCanceled { failed });
            }
            for (key, item) in writes {
                match item {
                    Some(item) => write(&tx, &item)?,
                    None => remove(&tx, &key)?,
                }
            }
            tx.commit().map_err(sql_err)
        })
        .await
    }
}
