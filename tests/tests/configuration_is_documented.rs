//! Every `BACKOFFICE_*` variable the code reads is in NOTES.md's
//! configuration tables, and every variable those tables list is still
//! read somewhere: an operator never meets a setting nobody wrote down,
//! nor looks for one that no longer exists.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Files below `dir` (recursively) whose name ends in one of `exts`,
/// skipping build output and installed packages.
fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if path.is_dir() {
            if !matches!(name.as_str(), "target" | "node_modules" | "dist" | ".git") {
                files(&path, exts, out);
            }
        } else if exts.iter().any(|e| name.ends_with(e)) {
            out.push(path);
        }
    }
}

/// The `BACKOFFICE_*` names in `text`. A name ending in `_` is a prefix
/// the code completes (e.g. `BACKOFFICE_SEED_PASSWORD_{ROLE}`), not a variable.
fn names(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(i) = rest.find("BACKOFFICE_") {
        let tail = &rest[i..];
        let len = tail.find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')).unwrap_or(tail.len());
        let name = &tail[..len];
        if !name.ends_with('_') {
            out.insert(name.to_string());
        }
        rest = &tail[len..];
    }
    out
}

fn read_by_code() -> BTreeSet<String> {
    let root = root();
    let mut paths = Vec::new();
    for dir in ["shared", "infra", "functions", "bench", "tests", "scripts"] {
        files(&root.join(dir), &[".rs", ".sh", ".mjs", ".py", ".service"], &mut paths);
    }
    let this_file = Path::new(file!()).file_name().unwrap().to_owned();
    paths
        .iter()
        .filter(|p| p.file_name() != Some(&this_file))
        .flat_map(|p| names(&std::fs::read_to_string(p).unwrap_or_default()))
        .collect()
}

/// The variables in the first column of NOTES.md's tables.
fn documented() -> BTreeSet<String> {
    let notes = std::fs::read_to_string(root().join("NOTES.md")).expect("NOTES.md");
    notes.lines().filter(|l| l.starts_with("| BACKOFFICE_")).flat_map(|l| names(l.split('|').nth(1).unwrap_or(""))).collect()
}

#[test]
fn every_variable_is_documented_and_every_documented_one_is_read() {
    let (code, notes) = (read_by_code(), documented());
    assert!(code.len() > 30 && code.contains("BACKOFFICE_JWT_SECRET"), "the scan finds the variables: {code:?}");
    let undocumented: Vec<_> = code.difference(&notes).collect();
    assert!(undocumented.is_empty(), "read by the code but missing from NOTES.md's configuration tables: {undocumented:?}");
    let stale: Vec<_> = notes.difference(&code).collect();
    assert!(stale.is_empty(), "listed in NOTES.md but read nowhere: {stale:?}");
}

#[test]
fn a_prefix_is_not_a_variable() {
    assert_eq!(names("\"BACKOFFICE_SEED_PASSWORD_{}\" and BACKOFFICE_LOG=info"), BTreeSet::from(["BACKOFFICE_LOG".to_string()]));
}
