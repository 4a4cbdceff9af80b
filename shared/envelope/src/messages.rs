//! The message catalogue: every user-facing message has a key (a dotted
//! name such as `orders.refund.exceedsRemaining`) and its text in each
//! product language, in `messages/en.json` and `messages/zh.json` (named
//! placeholders such as `{pileCode}`). The build turns them into one
//! constructor per message under [`msg`], so a message the catalogue does
//! not hold, or a placeholder it does not have, does not compile.
//!
//! A [`Text`] is a message ready for an answer: its text in both
//! languages, and the key and arguments a client may show in words of its
//! own (the envelope's `msgKey` and `msgArgs`). A few texts still come
//! from code that is not converted yet ([`Text::new`]): they have no key.

use serde_json::{Map, Value};

include!(concat!(env!("OUT_DIR"), "/catalogue.rs"));

/// The language an answer's `msg` is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    /// Chinese, the product's default language.
    Zh,
    /// English; also what callers without an Accept-Language get.
    #[default]
    En,
}

impl Lang {
    /// Picks the language from an `Accept-Language` header value: the first
    /// tag decides; `zh*` gives Chinese, anything else English.
    pub fn from_accept_language(header: Option<&str>) -> Lang {
        let first = header
            .and_then(|h| h.split(',').next())
            .map(|tag| tag.trim().to_ascii_lowercase())
            .unwrap_or_default();
        if first.starts_with("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }

    fn table(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Lang::En => EN,
            Lang::Zh => ZH,
        }
    }
}

/// A message in English and Chinese; for a message of the catalogue, also
/// its key and its arguments as the envelope sends them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    pub en: String,
    pub zh: String,
    /// The catalogue key (none for a text written in code).
    pub key: Option<&'static str>,
    /// The arguments by placeholder name, as `msgArgs` sends them: text
    /// as it is shown, a message as `{key, args}` (or `{en, zh}` when
    /// it has no key), a list as `{list, separator}` (the separator is a key).
    pub args: Map<String, Value>,
}

/// One argument of a message.
#[derive(Debug, Clone)]
pub enum Arg {
    /// Shown as it is (a name, a code, a number formatted by the caller).
    Plain(String),
    /// A message of its own, shown in the same language.
    Text(Text),
    /// Messages shown one after the other, joined by the text of a
    /// separator key (`common.separator.semicolon`, ...).
    List(Vec<Text>, &'static str),
}

/// Anything written with `{}` is shown as it is written.
impl<T: std::fmt::Display> From<T> for Arg {
    fn from(v: T) -> Arg {
        Arg::Plain(v.to_string())
    }
}
impl From<Text> for Arg {
    fn from(t: Text) -> Arg {
        Arg::Text(t)
    }
}
impl From<&Text> for Arg {
    fn from(t: &Text) -> Arg {
        Arg::Text(t.clone())
    }
}

impl Arg {
    /// Messages joined with `; ` (`；` in Chinese).
    pub fn semicolons(items: Vec<Text>) -> Arg {
        Arg::List(items, "common.separator.semicolon")
    }
    /// Names or messages joined with `, ` (the enumeration comma in Chinese).
    pub fn commas(items: Vec<Text>) -> Arg {
        Arg::List(items, "common.separator.comma")
    }
    /// Plain names joined with `, ` (the enumeration comma in Chinese).
    pub fn names<S: AsRef<str>>(names: &[S]) -> Arg {
        Arg::commas(names.iter().map(|n| Text::same(n.as_ref())).collect())
    }

    fn render(&self, lang: Lang) -> String {
        match self {
            Arg::Plain(s) => s.clone(),
            Arg::Text(t) => t.get(lang).to_string(),
            Arg::List(items, separator) => {
                let sep = template(lang, separator).unwrap_or(", ");
                items.iter().map(|t| t.get(lang)).collect::<Vec<_>>().join(sep)
            }
        }
    }

    fn wire(&self) -> Value {
        match self {
            Arg::Plain(s) => Value::String(s.clone()),
            Arg::Text(t) => t.wire(),
            Arg::List(items, separator) => serde_json::json!({ "list": items.iter().map(Text::wire).collect::<Vec<_>>(), "separator": separator }),
        }
    }
}

/// The text of `key` in `lang`, if the catalogue holds it.
fn template(lang: Lang, key: &str) -> Option<&'static str> {
    let table = lang.table();
    table.binary_search_by(|(k, _)| (*k).cmp(key)).ok().map(|i| table[i].1)
}

/// The catalogue's own copy of `key`, if it holds it.
fn static_key(key: &str) -> Option<&'static str> {
    EN.binary_search_by(|(k, _)| (*k).cmp(key)).ok().map(|i| EN[i].0)
}

/// Every key of the catalogue, sorted.
pub fn keys() -> impl Iterator<Item = &'static str> {
    EN.iter().map(|(k, _)| *k)
}

/// `template` with its placeholders filled (`{{` and `}}` are braces).
fn fill(template: &str, args: &[(&'static str, Arg)], lang: Lang) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.push('}');
            }
            '{' => {
                let name: String = chars.by_ref().take_while(|&c| c != '}').collect();
                match args.iter().find(|(n, _)| *n == name) {
                    Some((_, arg)) => out.push_str(&arg.render(lang)),
                    None => {
                        out.push('{');
                        out.push_str(&name);
                        out.push('}');
                    }
                }
            }
            c => out.push(c),
        }
    }
    out
}

impl Text {
    /// A text written in code, in both languages, without a key: only for
    /// code not moved to the catalogue yet.
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Self {
        Self { en: en.into(), zh: zh.into(), key: None, args: Map::new() }
    }

    /// The same words in both languages (a name, a code): for list items.
    pub fn same(words: impl Into<String>) -> Self {
        let words = words.into();
        Self { en: words.clone(), zh: words, key: None, args: Map::new() }
    }

    /// The message `key` of the catalogue with `args` (the generated
    /// constructors under [`msg`] call this; they hold every key).
    pub fn catalogued(key: &'static str, args: Vec<(&'static str, Arg)>) -> Self {
        let text = |lang| template(lang, key).map_or_else(|| key.to_string(), |t| fill(t, &args, lang));
        Self { en: text(Lang::En), zh: text(Lang::Zh), key: Some(key), args: args.iter().map(|(n, a)| (n.to_string(), a.wire())).collect() }
    }

    /// A message whose key is known only when the program runs (a route's
    /// summary, a status code's text), if the catalogue holds it.
    pub fn lookup(key: &str, args: Vec<(&'static str, Arg)>) -> Option<Self> {
        static_key(key).map(|key| Self::catalogued(key, args))
    }

    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }

    /// The text with its first letter in capitals (words shown on their
    /// own beside a form's field); the key and arguments stay.
    pub fn capitalised(mut self) -> Self {
        let mut chars = self.en.chars();
        self.en = chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default();
        self
    }

    /// The message as an argument of another: `{key, args}`, or `{en, zh}`
    /// for a text without a key.
    pub fn wire(&self) -> Value {
        match self.key {
            Some(key) => serde_json::json!({ "key": key, "args": self.args }),
            None => serde_json::json!({ "en": self.en, "zh": self.zh }),
        }
    }

    /// The message as one string (for carrying it through an error type
    /// that holds only a string, such as serde's); [`Text::from_carried`]
    /// gives it back.
    pub fn carried(&self) -> String {
        serde_json::json!({ "en": self.en, "zh": self.zh, "key": self.key, "args": self.args }).to_string()
    }

    /// The message [`Text::carried`] made, if `s` is one.
    pub fn from_carried(s: &str) -> Option<Text> {
        let v: Value = serde_json::from_str(s).ok()?;
        let key = match v.get("key")? {
            Value::Null => None,
            Value::String(k) => Some(static_key(k)?),
            _ => return None,
        };
        Some(Text {
            en: v.get("en")?.as_str()?.to_string(),
            zh: v.get("zh")?.as_str()?.to_string(),
            key,
            args: v.get("args")?.as_object()?.clone(),
        })
    }
}

/// The standard text for a status code; unknown codes get a generic one.
pub fn standard_message(code: u16) -> Text {
    Text::lookup(&format!("status.{code}"), vec![]).unwrap_or_else(msg::status::other)
}

/// The status codes the catalogue has a standard text for.
pub fn standard_codes() -> impl Iterator<Item = u16> {
    keys().filter_map(|k| k.strip_prefix("status.")?.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn every_catalogued_code_has_both_texts() {
        for code in [200, 201, 202, 204, 400, 401, 402, 403, 404, 406, 410, 500, 502, 503, 504] {
            let t = standard_message(code);
            assert!(!t.en.is_empty() && !t.zh.is_empty(), "{code}");
            assert_ne!(t, standard_message(999), "{code} must not fall back to the generic text");
        }
    }

    #[test]
    fn accept_language_picks_by_first_tag() {
        assert_eq!(Lang::from_accept_language(Some("zh-CN,zh;q=0.9,en;q=0.8")), Lang::Zh);
        assert_eq!(Lang::from_accept_language(Some("en-US,zh;q=0.5")), Lang::En);
        assert_eq!(Lang::from_accept_language(Some("ZH")), Lang::Zh);
        assert_eq!(Lang::from_accept_language(None), Lang::En);
        assert_eq!(Lang::from_accept_language(Some("")), Lang::En);
    }

    /// The placeholders of a text, as the build reads them.
    fn placeholders(text: &str) -> BTreeSet<String> {
        let braces = text.replace("{{", "").replace("}}", "");
        braces.split('{').skip(1).filter_map(|rest| rest.split_once('}').map(|(name, _)| name.to_string())).collect()
    }

    fn file(lang: &str) -> serde_json::Map<String, Value> {
        let path = format!("{}/messages/{lang}.json", env!("CARGO_MANIFEST_DIR"));
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
    }

    #[test]
    fn both_languages_hold_the_same_keys_with_the_same_placeholders() {
        let (en, zh) = (file("en"), file("zh"));
        let en_keys: BTreeSet<&String> = en.keys().collect();
        let zh_keys: BTreeSet<&String> = zh.keys().collect();
        assert_eq!(en_keys.difference(&zh_keys).collect::<Vec<_>>(), Vec::<&&String>::new(), "keys only in en.json");
        assert_eq!(zh_keys.difference(&en_keys).collect::<Vec<_>>(), Vec::<&&String>::new(), "keys only in zh.json");
        for (key, text) in &en {
            let (e, z) = (text.as_str().unwrap(), zh[key].as_str().unwrap());
            assert!(!e.trim().is_empty() && !z.trim().is_empty(), "{key} has an empty text");
            assert_eq!(placeholders(e), placeholders(z), "{key}: the placeholders differ");
        }
        // What the program holds is what the files hold.
        assert_eq!(EN.len(), en.len());
        assert!(EN.windows(2).all(|w| w[0].0 < w[1].0) && ZH.windows(2).all(|w| w[0].0 < w[1].0), "sorted for the lookup");
    }

    #[test]
    fn a_message_is_filled_in_each_language_and_keeps_its_key_and_arguments() {
        let t = msg::status::_400();
        assert_eq!((t.en.as_str(), t.zh.as_str(), t.key), ("bad request: the request has an error", "发出信息有误", Some("status.400")));
        assert_eq!(fill("{a} and {b} {{c}}", &[("a", Arg::from(1u8)), ("b", Arg::from("x"))], Lang::En), "1 and x {c}");
        let nested = Text::catalogued("common.separator.semicolon", vec![]);
        let list = Arg::semicolons(vec![Text::same("a"), Text::same("b")]);
        assert_eq!((list.render(Lang::En), list.render(Lang::Zh)), ("a; b".to_string(), "a；b".to_string()));
        assert_eq!(nested.wire(), serde_json::json!({"key": "common.separator.semicolon", "args": {}}));
        let carried = msg::status::_413().carried();
        assert_eq!(Text::from_carried(&carried), Some(msg::status::_413()));
        assert_eq!(Text::from_carried("not a message"), None);
    }
}
