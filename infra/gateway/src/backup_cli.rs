//! `gateway backup FILE` and `gateway restore FILE`: a consistent copy of
//! the embedded store taken while the gateway serves, and putting one back
//! (only while no gateway runs on that data dir).

use std::path::PathBuf;

use store::sqlite_file::{self, DataLock};

pub fn backup(args: &[String]) -> Result<(), String> {
    let dest = one_file(args, "backup")?;
    let db = backoffice::config::sqlite_path_from_env().map_err(|e| e.0)?;
    let report = sqlite_file::backup(&db, &dest)?;
    println!(
        "backed up {} to {}: {} items, {} bytes, integrity check ok",
        db.display(),
        dest.display(),
        report.items,
        report.bytes
    );
    Ok(())
}

pub fn restore(args: &[String]) -> Result<(), String> {
    let src = one_file(args, "restore")?;
    let db = backoffice::config::sqlite_path_from_env().map_err(|e| e.0)?;
    // Held until the end: no gateway can start on this data dir meanwhile.
    let _lock = DataLock::acquire(&db)?;
    let report = sqlite_file::restore(&src, &db)?;
    println!(
        "restored {} into {}: {} items, integrity check ok (the replaced database, if any, is kept as {}.before-restore)",
        src.display(),
        db.display(),
        report.items,
        db.display()
    );
    Ok(())
}

fn one_file(args: &[String], verb: &str) -> Result<PathBuf, String> {
    match args {
        [file] if !file.starts_with('-') => Ok(PathBuf::from(file)),
        _ => Err(format!("usage: gateway {verb} FILE   (the data dir is BACKOFFICE_DATA_DIR, default ./data)")),
    }
}
