//! How a catalogue key becomes the path of its constructor in `msg`: each
//! dot-separated segment in snake case (`exceedsRemaining` →
//! `exceeds_remaining`), a leading digit prefixed with `_` (`400` → `_400`)
//! and a Rust keyword written raw (`type` → `r#type`). The build script
//! writes the constructors with these names and the catalogue's usage test
//! looks for them, so both read this one file.

/// Rust's keywords (strict and reserved), which a segment writes raw.
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "box", "break", "const", "continue", "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if",
    "impl", "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return", "static", "struct", "trait",
    "true", "try", "type", "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield", "abstract", "become",
];

/// One key segment as a Rust identifier.
#[must_use]
pub fn ident(camel: &str) -> String {
    let mut out = String::new();
    for c in camel.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if KEYWORDS.contains(&out.as_str()) {
        format!("r#{out}")
    } else {
        out
    }
}

/// The constructor's path of a whole key: `orders.refund.exceedsRemaining`
/// → `msg::orders::refund::exceeds_remaining`.
#[must_use]
pub fn rust_path(key: &str) -> String {
    let parts: Vec<String> = key.split('.').map(ident).collect();
    format!("msg::{}", parts.join("::"))
}
