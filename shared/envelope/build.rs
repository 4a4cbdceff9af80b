//! Reads the message catalogue (`messages/en.json`, `messages/zh.json`:
//! one flat object per language, dotted key -> text with `{name}`
//! placeholders) and writes `catalogue.rs`: both languages' texts, sorted
//! by key, and one constructor per message under `msg::` (key
//! `orders.refund.exceedsRemaining` -> `msg::orders::refund::exceeds_remaining`,
//! one parameter per placeholder, in alphabetical order). So a key or a
//! placeholder that is not in the catalogue does not compile, and the
//! build stops when the two files disagree.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

// The build names the segments; the catalogue's usage test uses the whole path.
#[allow(dead_code)]
#[path = "src/message_path.rs"]
mod message_path;
use message_path::ident;

fn main() {
    let dir = Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("messages");
    let en = read(&dir.join("en.json"));
    let zh = read(&dir.join("zh.json"));
    let mut problems = Vec::new();
    for key in en.keys().filter(|k| !zh.contains_key(*k)) {
        problems.push(format!("{key} is in en.json but not in zh.json"));
    }
    for key in zh.keys().filter(|k| !en.contains_key(*k)) {
        problems.push(format!("{key} is in zh.json but not in en.json"));
    }
    let mut messages = Vec::new();
    for (key, en_text) in &en {
        let Some(zh_text) = zh.get(key) else { continue };
        if let Err(why) = check_key(key) {
            problems.push(format!("{key}: {why}"));
            continue;
        }
        let (en_names, zh_names) = match (placeholders(en_text), placeholders(zh_text)) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(why), _) => {
                problems.push(format!("{key} (en): {why}"));
                continue;
            }
            (_, Err(why)) => {
                problems.push(format!("{key} (zh): {why}"));
                continue;
            }
        };
        if en_names != zh_names {
            problems.push(format!("{key}: the placeholders differ: en {en_names:?}, zh {zh_names:?}"));
            continue;
        }
        messages.push((key.clone(), en_text.clone(), en_names));
    }
    if !problems.is_empty() {
        panic!("the message catalogue is not consistent:\n  {}", problems.join("\n  "));
    }
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("catalogue.rs");
    std::fs::write(out, generate(&en, &zh, &messages)).unwrap();
    println!("cargo::rerun-if-changed=messages");
    println!("cargo::rerun-if-changed=src/message_path.rs");
}

fn read(path: &Path) -> BTreeMap<String, String> {
    println!("cargo::rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let map: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    map.into_iter()
        .map(|(k, v)| match v {
            serde_json::Value::String(s) => (k, s),
            other => panic!("{}: {k} is {other}, not a text", path.display()),
        })
        .collect()
}

/// Dotted segments of letters and digits, starting with a lower-case letter
/// (a segment of digits alone, such as a status code, is allowed after the first).
fn check_key(key: &str) -> Result<(), String> {
    let segments: Vec<&str> = key.split('.').collect();
    if segments.len() < 2 {
        return Err("a key has an area and a name at least (area.name)".into());
    }
    for (i, s) in segments.iter().enumerate() {
        let first = s.chars().next().ok_or("an empty segment")?;
        let ok_start = first.is_ascii_lowercase() || (i > 0 && first.is_ascii_digit());
        if !ok_start || !s.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(format!("segment {s:?} is not camelCase letters and digits"));
        }
        if matches!(*s, "self" | "super" | "crate" | "Self") {
            return Err(format!("segment {s:?} cannot name a Rust module or function"));
        }
    }
    Ok(())
}

/// The `{name}` placeholders of a text (`{{` and `}}` are braces).
fn placeholders(text: &str) -> Result<BTreeSet<String>, String> {
    let mut names = BTreeSet::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
            }
            '{' => {
                let name: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let mut letters = name.chars();
                if !letters.next().is_some_and(|c| c.is_ascii_lowercase()) || !letters.all(|c| c.is_ascii_alphanumeric()) {
                    return Err(format!("{{{name}}} is not a placeholder (camelCase letters and digits; write {{{{ for a brace)"));
                }
                names.insert(name);
            }
            '}' => return Err("a lone } (write }} for a brace)".into()),
            _ => {}
        }
    }
    Ok(names)
}

#[derive(Default)]
struct Module {
    functions: Vec<String>,
    children: BTreeMap<String, Module>,
}

fn generate(en: &BTreeMap<String, String>, zh: &BTreeMap<String, String>, messages: &[(String, String, BTreeSet<String>)]) -> String {
    let mut out = String::from("// Generated by build.rs from messages/*.json: edit those, not this.\n\n");
    for (name, texts) in [("EN", en), ("ZH", zh)] {
        writeln!(out, "/// Every message's text, sorted by key.\npub(crate) static {name}: &[(&str, &str)] = &[").unwrap();
        for (k, v) in texts {
            writeln!(out, "    ({k:?}, {v:?}),").unwrap();
        }
        out.push_str("];\n\n");
    }
    let mut root = Module::default();
    for (key, en_text, names) in messages {
        let segments: Vec<&str> = key.split('.').collect();
        let (last, path) = segments.split_last().unwrap();
        let mut module = &mut root;
        for s in path {
            module = module.children.entry(ident(s)).or_default();
        }
        let params: Vec<String> = names.iter().map(|n| format!("{}: impl Into<crate::Arg>", ident(n))).collect();
        let args: Vec<String> = names.iter().map(|n| format!("({n:?}, {}.into())", ident(n))).collect();
        let doc: String = en_text.lines().map(|l| format!("/// {l}\n")).collect();
        module.functions.push(format!(
            "{doc}/// (`{key}`)\n#[must_use]\npub fn {}({}) -> crate::Text {{\n    crate::Text::catalogued({key:?}, vec![{}])\n}}\n",
            ident(last),
            params.join(", "),
            args.join(", "),
        ));
    }
    out.push_str("/// One constructor per message of the catalogue.\n");
    write_module(&mut out, "msg", &root);
    out
}

fn write_module(out: &mut String, name: &str, module: &Module) {
    writeln!(out, "#[allow(clippy::all, unused_imports)]\npub mod {name} {{").unwrap();
    for f in &module.functions {
        out.push_str(f);
    }
    for (child, m) in &module.children {
        write_module(out, child, m);
    }
    out.push_str("}\n");
}
