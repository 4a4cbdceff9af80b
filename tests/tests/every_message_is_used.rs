//! Every message of the catalogue (`shared/envelope/messages/*.json`) is
//! said somewhere: through its constructor, `envelope::msg::a::b::c(..)`
//! for the key `a.b.c` (segments in snake case), or by its key in a string
//! where only a constant can go. Two families are looked up by what a call
//! carries and checked where they are: `route.*` (one per route, the
//! back-office's `messages::routes` test) and `status.*` (one per status
//! code, `envelope::standard_message`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const ROOTS: [&str; 4] = ["shared", "infra", "functions", "bench"];
const SKIP_DIRS: [&str; 4] = ["target", "node_modules", "dist", "tests"];
const LOOKED_UP: [&str; 2] = ["route.", "status."];

fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if SKIP_DIRS.contains(&name) || name.starts_with('.') {
            return;
        }
        for entry in std::fs::read_dir(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display())) {
            collect(&entry.expect("directory entry").path(), out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

/// Whether `text` holds `path` followed by something that ends a path.
fn says(text: &str, path: &str) -> bool {
    text.match_indices(path).any(|(i, _)| !text[i + path.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':'))
}

#[test]
fn every_message_of_the_catalogue_is_used() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("repository root");
    let catalogue: BTreeMap<String, serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(root.join("shared/envelope/messages/en.json")).expect("the catalogue")).expect("JSON");
    let mut files = Vec::new();
    for r in ROOTS {
        collect(&root.join(r), &mut files);
    }
    let sources: Vec<String> = files.iter().map(|f| std::fs::read_to_string(f).expect("source")).collect();
    let unused: Vec<&String> = catalogue
        .keys()
        .filter(|k| !LOOKED_UP.iter().any(|family| k.starts_with(family)))
        .filter(|k| {
            let path = envelope::message_path::rust_path(k);
            let quoted = [format!("\"{k}\""), format!("}}{k}\"")];
            !sources.iter().any(|s| says(s, &path) || quoted.iter().any(|q| s.contains(q.as_str())))
        })
        .collect();
    assert!(unused.is_empty(), "messages no code says (remove them from both catalogue files, or use them): {unused:?}");
}

#[test]
fn a_key_names_its_constructor() {
    assert_eq!(envelope::message_path::rust_path("orders.refund.exceedsRemaining"), "msg::orders::refund::exceeds_remaining");
    assert_eq!(envelope::message_path::rust_path("status.400"), "msg::status::_400");
    assert!(says("x(msg::a::b())", "msg::a::b") && !says("msg::a::bc()", "msg::a::b") && !says("msg::a::b::c()", "msg::a::b"));
}
