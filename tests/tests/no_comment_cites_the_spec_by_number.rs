//! The customer's product spec is not in the repository, so a comment, doc
//! string, test name or note that says only "see the spec's point N" tells a
//! reader nothing: each one states the rule itself instead. This test keeps
//! it so for the sources and notes (build output and dependencies skipped).

use std::path::{Path, PathBuf};

/// What is scanned, relative to the repository root.
const ROOTS: [&str; 9] = ["shared", "infra", "functions", "bench", "tests", "web/src", "scripts", "README.md", "NOTES.md"];
/// Directory names never entered (build output, dependencies); hidden ones are skipped too.
const SKIP_DIRS: [&str; 3] = ["target", "node_modules", "dist"];

/// Built from parts so this file does not flag itself.
fn words() -> (String, String) {
    (["sp", "ec"].concat(), ["po", "int"].concat())
}

/// Whether `rest` (lower-case, just past the word "spec") goes on with
/// an optional `'s`, a separator (spaces or hyphens), `point` or `points`,
/// optional spaces and a digit.
fn cites_at(rest: &str, point: &str) -> bool {
    let rest = rest.strip_prefix("'s").unwrap_or(rest);
    let after_sep = rest.trim_start_matches([' ', '\t', '-']);
    if after_sep.len() == rest.len() {
        return false;
    }
    let Some(after_point) = after_sep.strip_prefix(point) else {
        return false;
    };
    let after_point = after_point.strip_prefix('s').unwrap_or(after_point);
    after_point.trim_start_matches([' ', '\t']).starts_with(|c: char| c.is_ascii_digit())
}

/// True when `line` (any case) cites the spec by point number, in any of
/// the spellings the test below lists.
fn line_cites(line: &str) -> bool {
    let (spec, point) = words();
    let lower = line.to_ascii_lowercase();
    let forward = lower.match_indices(&spec).any(|(i, _)| cites_at(&lower[i + spec.len()..], &point));
    let backward = lower.match_indices(&point).any(|(i, _)| {
        let rest = lower[i + point.len()..].trim_start_matches('s').trim_start();
        let number = rest.trim_start_matches(|c: char| c.is_ascii_digit());
        number.len() < rest.len() && number.trim_start().strip_prefix("of the").is_some_and(|r| r.trim_start().starts_with(&spec))
    });
    forward || backward
}

/// True when `line` ends with the word "spec" and `next` (past comment
/// markers) goes on with the point number: a citation broken over two lines.
fn broken_citation(line: &str, next: &str) -> bool {
    let (spec, point) = words();
    let lower = line.trim_end().to_ascii_lowercase();
    if !lower.ends_with(&spec) {
        return false;
    }
    let next = next.to_ascii_lowercase();
    let next = next.trim_start_matches(|c: char| c.is_whitespace() || "/*#!".contains(c));
    cites_at(&format!(" {next}"), &point)
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if SKIP_DIRS.contains(&name) || name.starts_with('.') {
            return;
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
            .map(|e| e.expect("directory entry").path())
            .collect();
        entries.sort();
        for entry in entries {
            collect(&entry, out);
        }
    } else if path.is_file() {
        out.push(path.to_path_buf());
    }
}

#[test]
fn no_comment_cites_the_spec_by_number() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for root in ROOTS {
        let path = repo.join(root);
        assert!(path.exists(), "{root} is missing; update ROOTS");
        collect(&path, &mut files);
    }
    let mut found = Vec::new();
    for file in &files {
        // Binary files (images, fonts) are not text and cannot cite anything.
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let broken = lines.get(i + 1).is_some_and(|next| broken_citation(line, next));
            if line_cites(line) || broken {
                let shown = file.strip_prefix(&repo).unwrap_or(file).display().to_string();
                found.push(format!("{shown}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the spec is not in the repository: state the rule instead of its point number\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_catches_the_usual_spellings() {
    let (spec, point) = words();
    let cite = |s: &str| line_cites(&s.replace("S_", &spec).replace("P_", &point));
    assert!(cite("// see S_ P_ 7"));
    assert!(cite("/** Sign-in (S_ P_ 2/5) */"));
    assert!(cite("(product-S_ P_s 1-6, 8, 9)"));
    assert!(cite("S_ P_s 7-8"));
    assert!(cite("the S_'s P_ 3 says"));
    assert!(cite("as P_ 4 of the S_ says"));
    assert!(line_cites(&format!("// {} {} 3", spec.to_uppercase(), point.to_uppercase())));
    assert!(!cite("the S_'s default"));
    assert!(!cite("S_ P_ of view"));
    assert!(!cite("P_ 4 of the plan"));
    let broken = |a: &str, b: &str| broken_citation(&a.replace("S_", &spec), &b.replace("P_", &point));
    assert!(broken(" * filters on the left (S_", " * P_ 2's query form)."));
    assert!(!broken(" * as the S_", " * says."));
}
