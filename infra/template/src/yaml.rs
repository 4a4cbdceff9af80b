//! A tiny block-style YAML writer: just what a CloudFormation template
//! needs, with a fixed layout so the output is byte-for-byte stable (the
//! template test compares whole files). No YAML crate: the ones with tag
//! support (`!Ref`, `!Sub`) are unmaintained, and writing is the easy half.

/// A YAML node. Maps keep insertion order, so output order is the code's.
#[derive(Clone, Debug, PartialEq)]
pub enum Y {
    /// A string, quoted only when YAML would read it as something else.
    Str(String),
    /// Written as is: numbers, booleans and short-form intrinsics (`!Ref X`).
    Raw(String),
    Map(Vec<(String, Y)>),
    List(Vec<Y>),
}

pub fn s(text: impl Into<String>) -> Y {
    Y::Str(text.into())
}

pub fn raw(text: impl Into<String>) -> Y {
    Y::Raw(text.into())
}

pub fn map<'a>(entries: impl IntoIterator<Item = (&'a str, Y)>) -> Y {
    Y::Map(entries.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

pub fn list(items: impl IntoIterator<Item = Y>) -> Y {
    Y::List(items.into_iter().collect())
}

/// `!Ref name`
pub fn reference(name: &str) -> Y {
    raw(format!("!Ref {name}"))
}

/// `!GetAtt resource.attribute`
pub fn get_att(path: &str) -> Y {
    raw(format!("!GetAtt {path}"))
}

/// `!Sub 'text'`
pub fn sub(text: &str) -> Y {
    raw(format!("!Sub {}", quote(text)))
}

/// `!GetAtt Stack.Outputs.Name`: an output of a nested stack.
pub fn output_of(stack: &str, name: &str) -> Y {
    get_att(&format!("{stack}.Outputs.{name}"))
}

/// `Fn::If` in its long form, so either branch may be a block (a map or a
/// list); `AWS::NoValue` drops the property.
pub fn if_(condition: &str, then: Y, otherwise: Y) -> Y {
    map([("Fn::If", list([s(condition), then, otherwise]))])
}

/// `!Ref AWS::NoValue`
pub fn no_value() -> Y {
    reference("AWS::NoValue")
}

/// `Fn::Sub` with named values: `text` may use `${Name}` for each.
pub fn sub_with(text: &str, values: Vec<(&str, Y)>) -> Y {
    map([("Fn::Sub", list([s(text), map(values)]))])
}

/// `text` as a YAML scalar: plain when that reads back as the same string,
/// single-quoted otherwise.
pub fn quote(text: &str) -> String {
    let plain_char = |c: char| c.is_ascii_alphanumeric() || " _./-(),:".contains(c);
    let looks_like_other_type = matches!(
        text.to_ascii_lowercase().as_str(),
        "y" | "n" | "yes" | "no" | "on" | "off" | "true" | "false" | "null" | "~"
    );
    let plain = text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '/')
        && !text.ends_with([' ', ':'])
        && !text.contains(": ")
        && text.chars().all(plain_char)
        && !looks_like_other_type;
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "''"))
    }
}

impl Y {
    /// The node as a YAML document body (a top-level map or list).
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.write_block(&mut out, 0);
        out
    }

    fn inline(&self) -> Option<String> {
        match self {
            Y::Str(text) => Some(quote(text)),
            Y::Raw(text) => Some(text.clone()),
            Y::Map(entries) if entries.is_empty() => Some("{}".into()),
            Y::List(items) if items.is_empty() => Some("[]".into()),
            _ => None,
        }
    }

    fn write_block(&self, out: &mut String, indent: usize) {
        let pad = " ".repeat(indent);
        match self {
            Y::Map(entries) => {
                for (key, value) in entries {
                    match value.inline() {
                        Some(scalar) => out.push_str(&format!("{pad}{key}: {scalar}\n")),
                        None => {
                            out.push_str(&format!("{pad}{key}:\n"));
                            value.write_block(out, indent + 2);
                        }
                    }
                }
            }
            Y::List(items) => {
                for item in items {
                    match item.inline() {
                        Some(scalar) => out.push_str(&format!("{pad}- {scalar}\n")),
                        None => {
                            // Write the item two deeper, then put the dash
                            // where the first line's indentation starts.
                            let mut nested = String::new();
                            item.write_block(&mut nested, indent + 2);
                            out.push_str(&pad);
                            out.push_str("- ");
                            out.push_str(&nested[indent + 2..]);
                        }
                    }
                }
            }
            scalar => out.push_str(&format!("{pad}{}\n", scalar.inline().unwrap_or_default())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_only_what_yaml_would_misread() {
        assert_eq!(quote("provided.al2023"), "provided.al2023");
        assert_eq!(quote("/partnerapi/login/index"), "/partnerapi/login/index");
        assert_eq!(quote("2012-10-17"), "'2012-10-17'");
        assert_eq!(quote("a: b"), "'a: b'");
        assert_eq!(quote("AWS::Serverless::Function"), "AWS::Serverless::Function");
        assert_eq!(quote("key:"), "'key:'");
        assert_eq!(quote("it's"), "'it''s'");
        assert_eq!(quote("on"), "'on'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("/partnerapi/*"), "'/partnerapi/*'");
    }

    #[test]
    fn nests_maps_and_lists_in_block_style() {
        let doc = map([
            ("A", s("x")),
            ("B", list([s("1"), map([("C", reference("T")), ("D", list([raw("true")]))])])),
            ("E", map([])),
        ]);
        assert_eq!(doc.render(), "A: x\nB:\n  - '1'\n  - C: !Ref T\n    D:\n      - true\nE: {}\n");
    }
}
