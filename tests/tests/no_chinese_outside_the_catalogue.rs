//! Every user-facing message lives in the message catalogue
//! (`shared/envelope/messages/{zh,en}.json`), so the product's Rust code
//! holds no Chinese text: a message written in code could not be shown by
//! its key, and one language's words would drift from the other's. Data
//! is the exception: the seed and demo data, the region table, the YKC
//! specification's own frame names (protocol vocabulary the codec carries
//! for logs, not words the product shows; when the YKC server side shows
//! frames to staff, it names them through the catalogue). Test code is
//! not scanned: its Chinese is input data and the expected wire text.

use std::path::{Path, PathBuf};

/// What is scanned, relative to the repository root.
const ROOTS: [&str; 4] = ["shared", "infra", "functions", "bench"];
/// Directory names never entered (build output, dependencies, integration tests).
const SKIP_DIRS: [&str; 4] = ["target", "node_modules", "dist", "tests"];

/// Files (or folders, ending in `/`) whose Chinese is data, and why.
const DATA: &[(&str, &str)] = &[
    ("shared/charging/src/demo.rs", "demo data: stations, addresses, tariffs"),
    ("shared/charging/src/region.rs", "the national region table's names"),
    ("shared/backoffice/src/seed.rs", "seed data: departments, notices, demo cards"),
    ("shared/backoffice/src/domain/demo.rs", "the demo pages' data"),
    ("shared/backoffice/src/domain/orders/seed.rs", "demo orders"),
    ("shared/ykc/", "the YKC specification's frame and field names"),
];

/// Chinese characters: the CJK ideographs and the CJK symbols and
/// punctuation (、。「」 ...). Full-width forms (，；) are left alone: the
/// product reads them as separators in what people type.
fn is_chinese(c: char) -> bool {
    matches!(c as u32, 0x3001..=0x303F | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x2FA1F)
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if SKIP_DIRS.contains(&name) || name.starts_with('.') {
            return;
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display())).map(|e| e.expect("directory entry").path()).collect();
        entries.sort();
        for entry in entries {
            collect(&entry, out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

/// How much deeper a line goes into braces, leaving out those inside
/// string and character literals.
fn depth_change(line: &str) -> i32 {
    let mut change = 0;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '\'' => {
                // A character literal ('{', '\n'); a lifetime has no closing quote soon.
                let rest: String = chars.clone().take(3).collect();
                if let Some(end) = rest.find('\'').filter(|&i| i > 0) {
                    for _ in 0..=end {
                        chars.next();
                    }
                }
            }
            '/' if chars.peek() == Some(&'/') => break,
            '{' => change += 1,
            '}' => change -= 1,
            _ => {}
        }
    }
    change
}

/// The line numbers (from 1) of `text` outside its `#[cfg(test)]` modules.
fn product_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        if line.trim() == "#[cfg(test)]" {
            // The attribute's item: skip to the end of its braces (a test
            // module or function).
            let mut depth = 0i32;
            let mut opened = false;
            for (_, l) in lines.by_ref() {
                let change = depth_change(l);
                depth += change;
                opened |= change > 0;
                if opened && depth <= 0 || !opened && l.trim_end().ends_with(';') {
                    break;
                }
            }
            continue;
        }
        out.push((i + 1, line));
    }
    out
}

fn listed(rel: &str, list: &[&str]) -> bool {
    list.iter().any(|p| if p.ends_with('/') { rel.starts_with(p) } else { rel == *p })
}

#[test]
fn no_chinese_text_in_rust_source_outside_the_catalogue_and_the_data() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("repository root");
    let mut files = Vec::new();
    for r in ROOTS {
        collect(&root.join(r), &mut files);
    }
    assert!(files.len() > 100, "the scan found the sources ({} files)", files.len());
    let data: Vec<&str> = DATA.iter().map(|(p, _)| *p).collect();
    let mut found = Vec::new();
    let mut allowed_used = std::collections::HashSet::new();
    for path in &files {
        let rel = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {rel}: {e}"));
        let hits: Vec<usize> = product_lines(&text).into_iter().filter(|(_, l)| l.chars().any(is_chinese)).map(|(n, _)| n).collect();
        if hits.is_empty() {
            continue;
        }
        if listed(&rel, &data) {
            allowed_used.extend(data.iter().filter(|p| listed(&rel, &[**p])).copied());
            continue;
        }
        found.extend(hits.into_iter().map(|n| format!("{rel}:{n}")));
    }
    assert!(
        found.is_empty(),
        "Chinese text in Rust source: put the words in the message catalogue (shared/envelope/messages/*.json) \
         and call them through envelope::msg, or data in a data module listed here:\n  {}",
        found.join("\n  ")
    );
    let stale: Vec<&str> = data.iter().filter(|p| !allowed_used.contains(*p)).copied().collect();
    assert!(stale.is_empty(), "listed as holding Chinese data but holding none (take them off the list): {stale:?}");
}

#[test]
fn the_scan_skips_test_modules_and_sees_the_rest() {
    let text = "fn a() {}\n#[cfg(test)]\nmod tests {\n    fn b() { let s = \"{\"; let c = '}'; } // {\n}\nconst C: &str = \"x\";\n";
    let lines: Vec<usize> = product_lines(text).into_iter().map(|(n, _)| n).collect();
    assert_eq!(lines, [1, 6]);
    assert!(is_chinese('中') && is_chinese('、') && !is_chinese('，') && !is_chinese('a'));
}
