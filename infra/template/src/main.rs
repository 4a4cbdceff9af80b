//! `sam-template` writes template.yaml at the workspace root from the
//! route table; `sam-template --check` only compares and exits 1 when the
//! file is stale (for CI and scripts). An optional path overrides the file.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut check = false;
    let mut path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(sam_template::TEMPLATE_FILE);
    let mut shown = sam_template::TEMPLATE_FILE.to_string();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--check" => check = true,
            "-h" | "--help" => {
                println!("usage: sam-template [--check] [PATH]   (default PATH: template.yaml at the workspace root)");
                return ExitCode::SUCCESS;
            }
            other if other.starts_with('-') => {
                eprintln!("unknown option '{other}': use --check or a path");
                return ExitCode::from(2);
            }
            other => {
                path = PathBuf::from(other);
                shown = other.to_string();
            }
        }
    }
    let wanted = sam_template::render();
    let current = std::fs::read_to_string(&path).ok();
    if check {
        return if current.as_deref() == Some(wanted.as_str()) {
            println!("{} is up to date with the route table", shown);
            ExitCode::SUCCESS
        } else {
            eprintln!(
                "{} {} the route table: run `cargo run -p sam-template` and commit the result",
                shown,
                if current.is_some() { "differs from what is generated from" } else { "is missing; it is generated from" }
            );
            ExitCode::FAILURE
        };
    }
    if current.as_deref() == Some(wanted.as_str()) {
        println!("{} is already up to date", shown);
        return ExitCode::SUCCESS;
    }
    match std::fs::write(&path, wanted) {
        Ok(()) => {
            println!("wrote {}", shown);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cannot write {}: {e}", shown);
            ExitCode::FAILURE
        }
    }
}
