//! `sam-template` writes the SAM application at the workspace root from
//! the route table: template.yaml, the nested stacks in stacks/, the deploy
//! role's template and SAM local's env-vars file. `sam-template --check`
//! only compares and exits 1 when any file is stale (for CI and scripts).
//! An optional directory stands for the workspace root.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut check = false;
    let mut root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--check" => check = true,
            "-h" | "--help" => {
                println!("usage: sam-template [--check] [DIR]   (default DIR: the workspace root)");
                return ExitCode::SUCCESS;
            }
            other if other.starts_with('-') => {
                eprintln!("unknown option '{other}': use --check or a directory");
                return ExitCode::from(2);
            }
            other => root = PathBuf::from(other),
        }
    }
    let wanted = sam_template::files();
    let mut stale = Vec::new();
    for (path, text) in &wanted {
        if std::fs::read_to_string(root.join(path)).ok().as_deref() != Some(text.as_str()) {
            stale.push(path.clone());
        }
    }
    // A stack file the generator no longer makes (a renamed route group).
    let leftovers = leftover_stacks(&root, &wanted);
    if check {
        if stale.is_empty() && leftovers.is_empty() {
            println!("{} files are up to date with the route table", wanted.len());
            return ExitCode::SUCCESS;
        }
        for path in &stale {
            eprintln!("{path} differs from what is generated from the route table");
        }
        for path in &leftovers {
            eprintln!("{path} is no longer generated: delete it");
        }
        eprintln!("run `cargo run -p sam-template` and commit the result");
        return ExitCode::FAILURE;
    }
    for path in &stale {
        let file = root.join(path);
        if let Some(dir) = file.parent() {
            if let Err(e) = std::fs::create_dir_all(dir) {
                eprintln!("cannot create {}: {e}", dir.display());
                return ExitCode::FAILURE;
            }
        }
        let text = &wanted.iter().find(|(p, _)| p == path).expect("a generated file").1;
        if let Err(e) = std::fs::write(&file, text) {
            eprintln!("cannot write {path}: {e}");
            return ExitCode::FAILURE;
        }
        println!("wrote {path}");
    }
    for path in &leftovers {
        if let Err(e) = std::fs::remove_file(root.join(path)) {
            eprintln!("cannot delete {path}: {e}");
            return ExitCode::FAILURE;
        }
        println!("deleted {path}");
    }
    if stale.is_empty() && leftovers.is_empty() {
        println!("{} files are already up to date", wanted.len());
    }
    ExitCode::SUCCESS
}

fn leftover_stacks(root: &Path, wanted: &[(String, String)]) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir(root.join(sam_template::STACKS_DIR)) else { return Vec::new() };
    let mut out: Vec<String> = dir
        .filter_map(|e| e.ok())
        .map(|e| format!("{}/{}", sam_template::STACKS_DIR, e.file_name().to_string_lossy()))
        .filter(|p| p.ends_with(".yaml") && !wanted.iter().any(|(w, _)| w == p))
        .collect();
    out.sort();
    out
}
