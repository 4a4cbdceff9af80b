//! Names found by any part ("contains"), at a cost that follows the
//! matches, not the number of records.
//!
//! A record writes one small entry per suffix of its normalised name
//! ([`facets::normalise`]), so every name containing what was typed has an
//! entry that *starts* with it: one `begins_with` range on one partition.
//! Names are short (stations: at most 50 characters) and only the suffixes
//! starting in the first [`MAX_STARTS`] characters are kept, so a rename
//! stays inside one transaction (at most 2 x 30 entry writes beside the
//! record and its facet entries, under DynamoDB's 100). Writes that change
//! neither the name nor the facet partitions touch no entry. Each entry carries
//! the facet partitions of its record, so a name search with other filters
//! keeps only the entries of the chosen partition before any record is read.
//!
//! | record | PK | SK |
//! |---|---|---|
//! | word entry | `LIST#{list}#~words` | `{suffix}#{record PK}#{record SK}` (`refPK`, `refSK`, `name`, `parts`) |

use std::collections::{BTreeMap, BTreeSet};

use envelope::ApiError;
use serde_json::{json, Value};
use store::{Key, Query, SortKey, TxOp};

use super::facets;
use crate::ctx::AppCtx;
use crate::domain::StoreResultExt;

/// Suffixes start in the first this many characters of a name: a match
/// starting further in is not found (names longer than this are rare).
pub const MAX_STARTS: usize = 30;

/// A record as the word index sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Words {
    pub list: &'static str,
    /// The normalised name.
    pub name: String,
    /// The facet partitions the record is listed in.
    pub parts: Vec<String>,
    pub target: Key,
}

/// The word entries live beside the list's filter partitions (`~words`
/// sorts after every partition name).
fn entry_pk(list: &str) -> String {
    super::facets::entry_pk(list, "~words")
}

impl Words {
    fn suffixes(&self) -> BTreeSet<String> {
        let chars: Vec<char> = self.name.chars().collect();
        (0..chars.len().min(MAX_STARTS)).map(|i| chars[i..].iter().collect()).collect()
    }

    fn entries(&self) -> BTreeMap<Key, store::Item> {
        self.suffixes()
            .into_iter()
            .map(|suffix| {
                let key = Key::new(entry_pk(self.list), format!("{suffix}#{}#{}", self.target.pk, self.target.sk));
                let mut item = key.to_item();
                item.insert("refPK".into(), json!(self.target.pk));
                item.insert("refSK".into(), json!(self.target.sk));
                item.insert("name".into(), json!(self.name));
                item.insert("parts".into(), json!(self.parts));
                (key, item)
            })
            .collect()
    }
}

/// Puts of the entries a record should have that `stored` (the stored
/// items at [`Words::keys`], in that order) lacks or holds out of date.
pub fn missing(w: &Words, stored: &[Option<store::Item>]) -> Vec<TxOp> {
    w.entries()
        .into_values()
        .zip(stored)
        .filter(|(item, stored)| stored.as_ref() != Some(item))
        .map(|(item, _)| TxOp::Put { item, condition: None })
        .collect()
}

impl Words {
    /// The keys of the record's entries.
    pub fn keys(&self) -> Vec<Key> {
        self.entries().into_keys().collect()
    }
}

/// Transaction operations that move a record's entries from `old` to
/// `new` (`None`: not indexed). Entries whose suffix stays are rewritten
/// only when what they carry changed (the name, the partitions).
pub fn changes(old: Option<&Words>, new: Option<&Words>) -> Vec<TxOp> {
    let before = old.map(Words::entries).unwrap_or_default();
    let after = new.map(Words::entries).unwrap_or_default();
    let carried_changed = match (old, new) {
        (Some(o), Some(n)) => o.parts != n.parts || o.name != n.name,
        _ => true,
    };
    let mut ops: Vec<TxOp> = before.keys().filter(|k| !after.contains_key(*k)).map(|k| TxOp::Delete { key: k.clone(), condition: None }).collect();
    ops.extend(after.into_iter().filter(|(k, _)| carried_changed || !before.contains_key(k)).map(|(_, item)| TxOp::Put { item, condition: None }));
    ops
}

/// The records (normalised name and key) of `partition` whose name
/// contains `text` (normalised), read from the entries starting with it.
pub async fn containing(ctx: &AppCtx, list: &str, text: &str, partition: &str) -> Result<BTreeMap<Key, String>, ApiError> {
    let mut found = BTreeMap::new();
    let mut cursor = None;
    loop {
        let q = Query::partition(entry_pk(list)).sort_key(SortKey::BeginsWith(text.to_string())).after(cursor);
        let page = ctx.store.query(q).await.api()?;
        for item in page.items {
            let in_partition = item.get("parts").and_then(Value::as_array).is_some_and(|parts| parts.iter().any(|p| p.as_str() == Some(partition)));
            let (Some(pk), Some(sk), Some(name)) = (item.get("refPK").and_then(Value::as_str), item.get("refSK").and_then(Value::as_str), item.get("name").and_then(Value::as_str)) else {
                continue;
            };
            if in_partition {
                found.insert(Key::new(pk, sk), name.to_string());
            }
        }
        cursor = page.cursor;
        if cursor.is_none() {
            return Ok(found);
        }
    }
}

/// Text as the index holds it.
pub fn normalise(text: &str) -> String {
    facets::normalise(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(name: &str, parts: &[&str]) -> Words {
        Words { list: "T", name: normalise(name), parts: parts.iter().map(|p| p.to_string()).collect(), target: Key::new("X#1", "X") }
    }

    #[test]
    fn every_suffix_from_the_first_characters_is_an_entry() {
        let w = words("深圳湾 充电站", &["*"]);
        let sks: Vec<String> = w.entries().into_keys().map(|k| k.sk).collect();
        assert_eq!(sks.len(), 6);
        assert!(sks.iter().any(|s| s.starts_with("充电站#")), "{sks:?}");
        let long = words(&"a".repeat(20).chars().chain("b".repeat(40).chars()).collect::<String>(), &["*"]);
        assert_eq!(long.entries().len(), MAX_STARTS, "one entry per start in the first 30 characters");
    }

    #[test]
    fn a_rename_or_a_filter_change_rewrites_the_entries_and_nothing_else_does() {
        let old = words("南山充电站", &["*"]);
        let renamed = words("北山充电站", &["*"]);
        let ops = changes(Some(&old), Some(&renamed));
        // 南山充电站 goes; the other suffixes stay but carry the new name (the list's sort).
        assert_eq!(ops.iter().filter(|op| matches!(op, TxOp::Delete { .. })).count(), 1);
        assert_eq!(ops.len(), 6);
        assert!(changes(Some(&old), Some(&old)).is_empty());
        let moved = words("南山充电站", &["*", "closed"]);
        assert_eq!(changes(Some(&old), Some(&moved)).len(), 5);
        assert_eq!(changes(Some(&old), None).len(), 5);
        let worst = changes(Some(&words(&"a".repeat(50), &["*"])), Some(&words(&"b".repeat(50), &["*"])));
        assert!(worst.len() <= 2 * MAX_STARTS);
    }
}
