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
use rusqlite::{params_from_iter, Connection, OptionalExtension};
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

/// The SQLite table. Cheap to clone; all clones share one writer.
///
/// Every write goes to one writer thread that owns the writing connection
/// and commits in groups: it takes the writes queued meanwhile (at most
/// [`MAX_GROUP`]) into one transaction, each inside its own SAVEPOINT so a
/// write whose condition fails, or that fails at all, is undone alone, and
/// answers each caller only after the group's COMMIT returned. One
/// transaction for many writes is where the time goes down: SQLite's cost
/// is per commit (the WAL frames of every page touched), not per row.
/// Reads of a file run on their own connections (WAL: they see every
/// committed write and never wait for the writer).
#[derive(Clone)]
pub struct SqliteTable {
    writer: std::sync::mpsc::Sender<Job>,
    readers: Option<Arc<Readers>>,
}

/// The most writes one transaction takes: a group stays short enough that
/// its first caller is not kept waiting behind a long queue.
pub const MAX_GROUP: usize = 256;

/// What the writer thread does with a job: a write inside the current
/// group, or a read (in memory the writer's is the only connection) that
/// first commits the group before it, so it sees those writes.
enum Job {
    Write(WriteWork),
    Read(Box<dyn FnOnce(&Connection) + Send>),
}

/// A write: done on the writer's connection (or told why it could not
/// begin), it gives back the reply to send once its group is committed.
type WriteWork = Box<dyn FnOnce(std::result::Result<&Connection, StoreError>) -> Answer + Send>;

/// A write's reply, held until its group committed: called with the
/// COMMIT's error if the group could not be committed.
type Answer = Box<dyn FnOnce(Option<StoreError>) + Send>;

/// The connections reads of a file use, taken in turn.
struct Readers {
    connections: Vec<Mutex<Connection>>,
    next: std::sync::atomic::AtomicUsize,
}

/// Read connections of a file database: enough for the blocking pool to
/// serve reads side by side on a small machine.
const READERS: usize = 4;

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
        conn.execute_batch(SCHEMA)?;
        let mut connections = Vec::with_capacity(READERS);
        for _ in 0..READERS {
            let reader = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
            reader.busy_timeout(std::time::Duration::from_secs(5))?;
            connections.push(Mutex::new(reader));
        }
        let readers = Readers { connections, next: Default::default() };
        Ok(Self { writer: spawn_writer(conn)?, readers: Some(Arc::new(readers)) })
    }

    /// A private in-memory database (tests).
    pub fn open_in_memory() -> rusqlite::Result<Self> {
        let conn = Connection::open_in_memory()?;
        conn.execute_batch(SCHEMA)?;
        Ok(Self { writer: spawn_writer(conn)?, readers: None })
    }

    fn send(&self, job: Job) -> Result<()> {
        self.writer.send(job).map_err(|_| StoreError::Unavailable("the storage writer has stopped".into()))
    }

    /// Runs `work` as one write of the next group; its answer comes after
    /// the COMMIT. An error from `work` undoes what it wrote, nothing else.
    async fn in_group<T: Send + 'static>(&self, work: impl FnOnce(&Connection) -> Result<T> + Send + 'static) -> Result<T> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.send(Job::Write(Box::new(move |conn| {
            let outcome = conn.and_then(|conn| in_savepoint(conn, work));
            Box::new(move |commit_failed| {
                let _ = reply.send(match (outcome, commit_failed) {
                    (Ok(_), Some(e)) => Err(e),
                    (outcome, _) => outcome,
                });
            })
        })))?;
        answer.await.map_err(|_| StoreError::Unavailable("the storage writer stopped before answering".into()))?
    }

    /// Reads items by key on a free read connection of the file, right on
    /// the calling thread: such a read is a B-tree lookup in pages SQLite
    /// mostly has cached (microseconds), cheaper than the two thread
    /// wake-ups a hop to the blocking pool costs. With every connection
    /// taken it goes to the pool like any other read.
    async fn by_key<T: Send + 'static>(&self, work: impl FnOnce(&Connection) -> Result<T> + Send + 'static) -> Result<T> {
        if let Some(readers) = &self.readers {
            if let Some(guard) = readers.connections.iter().find_map(|c| c.try_lock().ok()) {
                return guarded(|| work(fresh(&guard)));
            }
        }
        self.on_reader(work).await
    }

    /// Runs blocking read work off the async threads, on a read connection
    /// of the file (or, in memory, on the writer's connection).
    async fn on_reader<T: Send + 'static>(&self, work: impl FnOnce(&Connection) -> Result<T> + Send + 'static) -> Result<T> {
        match &self.readers {
            Some(readers) => {
                let readers = readers.clone();
                tokio::task::spawn_blocking(move || {
                    let n = readers.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % readers.connections.len();
                    let guard = readers.connections[n].lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                    guarded(|| work(fresh(&guard)))
                })
                .await
                .map_err(|e| StoreError::Unavailable(format!("the storage task failed: {e}")))?
            }
            None => {
                let (reply, answer) = tokio::sync::oneshot::channel();
                self.send(Job::Read(Box::new(move |conn| {
                    let _ = reply.send(guarded(|| work(conn)));
                })))?;
                answer.await.map_err(|_| StoreError::Unavailable("the storage writer stopped before answering".into()))?
            }
        }
    }
}

/// A read connection with no transaction left open: a read that failed
/// half-way through its own transaction (a batch read) must not leave the
/// next reader of this connection on that transaction's older snapshot.
fn fresh(conn: &Connection) -> &Connection {
    if !conn.is_autocommit() {
        let _ = conn.execute_batch("ROLLBACK");
    }
    conn
}

/// One write inside the open group: kept if it succeeded, undone alone if not.
fn in_savepoint<T>(conn: &Connection, work: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
    conn.execute_batch("SAVEPOINT write").map_err(sql_err)?;
    let outcome = guarded(|| work(conn));
    let end = if outcome.is_ok() { "RELEASE write" } else { "ROLLBACK TO write; RELEASE write" };
    match conn.execute_batch(end) {
        Ok(()) => outcome,
        Err(e) => {
            // The savepoint could not be closed: the group can no longer
            // be trusted, so this write fails and the COMMIT will too.
            Err(sql_err(e))
        }
    }
}

/// Runs `work`, turning a panic into an error: the writer thread serves
/// every other caller too, so one bad write must not stop it.
fn guarded<T>(work: impl FnOnce() -> Result<T>) -> Result<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|_| Err(StoreError::Unavailable("a storage task failed".into())))
}

fn spawn_writer(conn: Connection) -> rusqlite::Result<std::sync::mpsc::Sender<Job>> {
    let (sender, jobs) = std::sync::mpsc::channel::<Job>();
    std::thread::Builder::new()
        .name("sqlite-writer".into())
        .spawn(move || run_writer(conn, jobs))
        .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
    Ok(sender)
}

/// The writer thread: a group is every write that queued while the one
/// before it was being written, up to [`MAX_GROUP`]; it ends when a read
/// needs the connection or nothing more is waiting.
fn run_writer(conn: Connection, jobs: std::sync::mpsc::Receiver<Job>) {
    let mut group: Vec<Answer> = Vec::new();
    while let Ok(first) = jobs.recv() {
        let mut next = Some(first);
        while let Some(job) = next.take() {
            match job {
                Job::Write(work) => {
                    if group.is_empty() {
                        if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
                            work(Err(sql_err(e)))(None);
                            next = jobs.try_recv().ok();
                            continue;
                        }
                    }
                    group.push(work(Ok(&conn)));
                    if group.len() >= MAX_GROUP {
                        commit(&conn, &mut group);
                    }
                }
                Job::Read(work) => {
                    commit(&conn, &mut group);
                    work(&conn);
                }
            }
            next = jobs.try_recv().ok();
        }
        commit(&conn, &mut group);
    }
}

/// Commits the open group and answers its writers (each with the COMMIT's
/// error if it failed: then nothing of the group was written).
fn commit(conn: &Connection, group: &mut Vec<Answer>) {
    if group.is_empty() {
        return;
    }
    let failed = conn.execute_batch("COMMIT").err().inspect(|_| {
        let _ = conn.execute_batch("ROLLBACK");
    });
    for answer in group.drain(..) {
        answer(failed.as_ref().map(|e| StoreError::Unavailable(format!("sqlite: {e}"))));
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
        .prepare_cached("SELECT body FROM items WHERE pk = ?1 AND sk = ?2")
        .and_then(|mut stmt| stmt.query_row([&key.pk, &key.sk], |row| row.get(0)))
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
    conn.prepare_cached("INSERT OR REPLACE INTO items (pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, gsi3pk, gsi3sk, body) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")
        .and_then(|mut stmt| stmt.execute(params_from_iter(values)))
        .map_err(sql_err)?;
    Ok(())
}

fn remove(conn: &Connection, key: &Key) -> Result<()> {
    conn.prepare_cached("DELETE FROM items WHERE pk = ?1 AND sk = ?2")
        .and_then(|mut stmt| stmt.execute([&key.pk, &key.sk]))
        .map_err(sql_err)?;
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
        self.in_group(move |conn| {
            if !check(condition.as_ref(), read(conn, &key)?.as_ref()) {
                return Err(StoreError::ConditionFailed);
            }
            write(conn, &item)
        })
        .await
    }

    async fn get(&self, key: &Key) -> Result<Option<Item>> {
        let key = key.clone();
        self.by_key(move |conn| read(conn, &key)).await
    }

    async fn batch_get(&self, keys: &[Key]) -> Result<Vec<Option<Item>>> {
        let keys = keys.to_vec();
        // One read transaction, so the items are of one moment.
        self.by_key(move |conn| {
            conn.execute_batch("BEGIN").map_err(sql_err)?;
            let items = keys.iter().map(|k| read(conn, k)).collect();
            conn.execute_batch("COMMIT").map_err(sql_err)?;
            items
        })
        .await
    }

    async fn delete(&self, key: &Key, condition: Option<Condition>) -> Result<Option<Item>> {
        let key = key.clone();
        self.in_group(move |conn| {
            let current = read(conn, &key)?;
            if !check(condition.as_ref(), current.as_ref()) {
                return Err(StoreError::ConditionFailed);
            }
            remove(conn, &key)?;
            Ok(current)
        })
        .await
    }

    async fn update(&self, key: &Key, actions: Vec<UpdateAction>, condition: Option<Condition>) -> Result<Item> {
        let key = key.clone();
        self.in_group(move |conn| {
            let current = read(conn, &key)?;
            if !check(condition.as_ref(), current.as_ref()) {
                return Err(StoreError::ConditionFailed);
            }
            let item = updated(current, &key, &actions)?;
            write(conn, &item)?;
            Ok(item)
        })
        .await
    }

    async fn query(&self, query: Query) -> Result<Page> {
        self.on_reader(move |conn| run_query(conn, &query)).await
    }

    async fn transact(&self, ops: Vec<TxOp>) -> Result<()> {
        crate::validate_transaction(&ops)?;
        self.in_group(move |conn| {
            // First every condition on the state before the transaction (as
            // DynamoDB does), then the writes; an error undoes them all.
            let mut failed = Vec::new();
            let mut writes = Vec::new();
            for (i, op) in ops.iter().enumerate() {
                let key = op.key();
                let current = read(conn, &key)?;
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
                    Some(item) => write(conn, &item)?,
                    None => remove(conn, &key)?,
                }
            }
            Ok(())
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(sk: &str, n: u32) -> Item {
        serde_json::json!({"PK": "T", "SK": sk, "n": n}).as_object().unwrap().clone()
    }

    /// A read connection left inside a transaction (a batch read that
    /// failed half-way) would serve every later read from that
    /// transaction's snapshot: the next read must see the writes since.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_read_connection_left_in_a_transaction_does_not_serve_old_items() {
        let dir = std::env::temp_dir().join(format!("sqlite-reader-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let table = SqliteTable::open(&dir.join("store.sqlite3")).unwrap();
        table.put(item("a", 1), None).await.unwrap();
        for reader in &table.readers.as_ref().unwrap().connections {
            let conn = reader.lock().unwrap();
            conn.execute_batch("BEGIN").unwrap();
            let _: String = conn.query_row("SELECT body FROM items", [], |row| row.get(0)).unwrap();
        }
        table.put(item("a", 2), None).await.unwrap();
        let key = Key { pk: "T".into(), sk: "a".into() };
        assert_eq!(table.get(&key).await.unwrap().unwrap()["n"], 2);
        let read = table.batch_get(&[key]).await.unwrap();
        assert_eq!(read[0].as_ref().unwrap()["n"], 2);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
