//! The SQLite store as a file: online backup, restore, integrity check and
//! the lock that says a server is using it. These work on paths, not on an
//! open `SqliteTable`, because they run from a second process (`gateway
//! backup` while the gateway serves) or with no server at all (`gateway
//! restore`).

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::backup::Backup;
use rusqlite::{Connection, OpenFlags};

/// What a backup or restore wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileReport {
    /// Items (rows) in the copy.
    pub items: u64,
    /// Size of the copy in bytes.
    pub bytes: u64,
}

/// Copies the live database `db` into `dest` without stopping writers.
///
/// The copy is one read transaction (all pages in one step), so it is a
/// consistent snapshot: every transaction committed before the backup
/// started is in it, none that committed after. In WAL mode writers go on
/// meanwhile. The copy is written beside `dest` and renamed into place
/// after it passed an integrity check, so `dest` is never half a file.
pub fn backup(db: &Path, dest: &Path) -> Result<FileReport, String> {
    if !db.exists() {
        return Err(format!("there is no database at {} (is BACKOFFICE_DATA_DIR right?)", db.display()));
    }
    let source = Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(|e| format!("cannot open {}: {e}", db.display()))?;
    source.busy_timeout(Duration::from_secs(10)).map_err(|e| e.to_string())?;
    copy_checked(&source, dest)
}

/// Replaces the database `db` with the backup `src`, after checking that
/// `src` is a sound copy of this store. The database it replaces is kept
/// beside it as `<name>.before-restore` (nothing is lost by a wrong
/// restore). The caller must hold no server on `db`: see [`DataLock`].
pub fn restore(src: &Path, db: &Path) -> Result<FileReport, String> {
    if !src.exists() {
        return Err(format!("there is no backup file at {}", src.display()));
    }
    let source = Connection::open_with_flags(src, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| format!("{} is not a database: {e}", src.display()))?;
    check_store(&source).map_err(|e| format!("{} is not a usable backup: {e}", src.display()))?;
    if let Some(dir) = db.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let staged = sibling(db, "restoring");
    let report = copy_checked(&source, &staged)?;
    drop(source);
    if db.exists() {
        // Fold the old WAL into the old file first, so the kept copy is whole.
        if let Ok(old) = Connection::open(db) {
            let _ = old.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        }
        std::fs::rename(db, sibling(db, "before-restore")).map_err(|e| format!("cannot set the old database aside: {e}"))?;
    }
    for stale in ["wal", "shm"] {
        let _ = std::fs::remove_file(sibling(db, stale));
    }
    std::fs::rename(&staged, db).map_err(|e| format!("cannot move the restored database into place: {e}"))?;
    Ok(report)
}

/// Moves every committed transaction from the WAL file into the database
/// file and truncates the WAL, so the file alone is the whole store (done
/// at a clean stop).
pub fn checkpoint(db: &Path) -> Result<(), String> {
    let conn = Connection::open(db).map_err(|e| format!("cannot open {}: {e}", db.display()))?;
    conn.busy_timeout(Duration::from_secs(5)).map_err(|e| e.to_string())?;
    let (busy, _, _): (i64, i64, i64) = conn
        .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
        .map_err(|e| e.to_string())?;
    if busy != 0 {
        return Err("a reader kept the WAL busy".into());
    }
    Ok(())
}

/// `PRAGMA integrity_check` plus the store's own table: Ok with the item
/// count, or what is wrong.
pub fn verify(path: &Path) -> Result<u64, String> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    check_store(&conn)
}

fn check_store(conn: &Connection) -> Result<u64, String> {
    let verdict: String = conn.query_row("PRAGMA integrity_check", [], |row| row.get(0)).map_err(|e| e.to_string())?;
    if verdict != "ok" {
        return Err(format!("integrity check failed: {verdict}"));
    }
    conn.query_row("SELECT count(*) FROM items", [], |row| row.get::<_, i64>(0))
        .map(|n| n as u64)
        .map_err(|e| format!("it holds no back-office items table ({e})"))
}

/// Backs `source` up into a staged file beside `dest`, verifies the staged
/// file and renames it into place.
fn copy_checked(source: &Connection, dest: &Path) -> Result<FileReport, String> {
    let staged = sibling(dest, "partial");
    let _ = std::fs::remove_file(&staged);
    {
        let mut target = Connection::open(&staged).map_err(|e| format!("cannot write {}: {e}", staged.display()))?;
        let copy = Backup::new(source, &mut target).map_err(|e| format!("cannot start the copy: {e}"))?;
        // -1: every page in one step, i.e. one read transaction (a snapshot).
        // Busy or locked (a writer holds a lock this instant): try again.
        let mut attempts = 0;
        loop {
            match copy.step(-1).map_err(|e| format!("the copy failed: {e}"))? {
                rusqlite::backup::StepResult::Done => break,
                _ if attempts < 200 => {
                    attempts += 1;
                    std::thread::sleep(Duration::from_millis(50));
                }
                _ => return Err("the copy could not get a read snapshot within 10 s (the database stays locked)".into()),
            }
        }
        drop(copy);
        // The copy stands alone: no WAL beside it.
        target.pragma_update(None, "journal_mode", "DELETE").map_err(|e| e.to_string())?;
    }
    let items = verify(&staged).inspect_err(|_| {
        let _ = std::fs::remove_file(&staged);
    })?;
    File::open(&staged).and_then(|f| f.sync_all()).map_err(|e| e.to_string())?;
    std::fs::rename(&staged, dest).map_err(|e| format!("cannot move the copy to {}: {e}", dest.display()))?;
    let bytes = std::fs::metadata(dest).map(|m| m.len()).unwrap_or(0);
    Ok(FileReport { items, bytes })
}

/// A file beside `path`: SQLite's own companions are `<file>-wal` and
/// `<file>-shm`; ours (`.partial`, `.lock`, `.before-restore`) use a dot.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    if suffix == "wal" || suffix == "shm" {
        name.push(format!("-{suffix}"));
    } else {
        name.push(format!(".{suffix}"));
    }
    path.with_file_name(name)
}

/// An exclusive lock on `<db>.lock`, held by the server for as long as it
/// runs, so a restore (or a second server) on the same data cannot start
/// under it. The operating system drops it when the process ends, even by
/// kill -9.
pub struct DataLock {
    _file: File,
}

impl DataLock {
    /// Takes the lock, or says that another process holds it.
    pub fn acquire(db: &Path) -> Result<DataLock, String> {
        let path = sibling(db, "lock");
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| format!("cannot open the lock file {}: {e}", path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(DataLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(format!(
                "a gateway is running on {} (it holds {}); stop it first",
                db.display(),
                path.display()
            )),
            Err(std::fs::TryLockError::Error(e)) => Err(format!("cannot lock {}: {e}", path.display())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sqlite::SqliteTable;
    use crate::Table;

    fn item(i: u32) -> crate::Item {
        serde_json::json!({"PK": "T", "SK": format!("{i:06}"), "n": i}).as_object().unwrap().clone()
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sqlite-file-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[tokio::test]
    async fn a_backup_taken_during_writes_holds_every_earlier_write_and_restores() {
        let dir = temp_dir("backup");
        let db = dir.join("store.sqlite3");
        let table = SqliteTable::open(&db).unwrap();
        for i in 0..200 {
            table.put(item(i), None).await.unwrap();
        }
        // Writers keep going while the copy is taken.
        let writer = {
            let table = table.clone();
            tokio::spawn(async move {
                for i in 200..2_000 {
                    table.put(item(i), None).await.unwrap();
                }
            })
        };
        let dest = dir.join("copy.sqlite3");
        let db_for_copy = db.clone();
        let dest_for_copy = dest.clone();
        let report = tokio::task::spawn_blocking(move || backup(&db_for_copy, &dest_for_copy)).await.unwrap().unwrap();
        writer.await.unwrap();
        assert!(report.items >= 200, "every write before the backup is in it: {report:?}");
        assert_eq!(verify(&dest).unwrap(), report.items);
        assert!(!dir.join("copy.sqlite3.partial").exists());

        // Restore into a fresh place: it opens and holds the same items.
        let fresh = dir.join("fresh").join("store.sqlite3");
        let restored = restore(&dest, &fresh).unwrap();
        assert_eq!(restored.items, report.items);
        let reopened = SqliteTable::open(&fresh).unwrap();
        for i in 0..200 {
            assert!(reopened.get(&crate::Key::new("T", format!("{i:06}"))).await.unwrap().is_some());
        }
    }

    #[tokio::test]
    async fn restore_keeps_the_replaced_database_and_refuses_a_file_that_is_not_a_store() {
        let dir = temp_dir("restore");
        let db = dir.join("store.sqlite3");
        let table = SqliteTable::open(&db).unwrap();
        table.put(item(1), None).await.unwrap();
        drop(table);
        let junk = dir.join("junk.sqlite3");
        std::fs::write(&junk, b"not a database at all").unwrap();
        assert!(restore(&junk, &db).is_err());
        let other = dir.join("other.sqlite3");
        Connection::open(&other).unwrap().execute_batch("CREATE TABLE t (x)").unwrap();
        let err = restore(&other, &db).unwrap_err();
        assert!(err.contains("no back-office items table"), "{err}");
        // The live database was not touched by the refused restores.
        assert_eq!(verify(&db).unwrap(), 1);

        let copy = dir.join("copy.sqlite3");
        backup(&db, &copy).unwrap();
        restore(&copy, &db).unwrap();
        assert_eq!(verify(&dir.join("store.sqlite3.before-restore")).unwrap(), 1);
    }

    #[test]
    fn the_data_lock_is_exclusive() {
        let dir = temp_dir("lock");
        let db = dir.join("store.sqlite3");
        let held = DataLock::acquire(&db).unwrap();
        let err = DataLock::acquire(&db).err().unwrap();
        assert!(err.contains("a gateway is running"), "{err}");
        drop(held);
        assert!(DataLock::acquire(&db).is_ok());
    }
}
