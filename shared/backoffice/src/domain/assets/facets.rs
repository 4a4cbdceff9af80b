//! Filtered, counted lists without Scan: "faceted list entries".
//!
//! A list (stations, connectors) has a few filter dimensions (status,
//! region, type ...). The table has only three GSIs and DynamoDB serves one
//! key condition per query, so instead of one index per filter combination
//! each record writes one small *entry* per combination it matches: for
//! dimensions with values `a` and `b` it is listed under `*#*`, `a#*`, `*#b`
//! and `a#b` (hierarchical dimensions such as the region list every level:
//! province, city, district). Any filter choice is then exactly one Query
//! on one partition, sorted by the entry's sort key (e.g. the normalised
//! name, so a name prefix is a `begins_with`).
//!
//! Totals come from a counter item per partition, changed in the same
//! transaction as the entries, so `total` never needs a count query.
//! Deltas are aggregated per counter because one transaction may not
//! address an item twice (two connectors of one pile share partitions).

use std::collections::BTreeMap;

use serde_json::{json, Value};
use store::{Key, Query, SortKey, TxOp, UpdateAction};

use envelope::ApiError;

use crate::ctx::AppCtx;
use crate::domain::StoreResultExt;

/// The value used for "any" in a partition name.
const ANY: &str = "*";

/// Where a record appears: for each dimension the values it matches
/// (empty = only under "any"), its sort string and the record it points to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    pub list: &'static str,
    pub dims: Vec<Vec<String>>,
    pub sort: String,
    pub target: Key,
}

impl Listing {
    /// Every partition name (the cartesian product of "any" and each
    /// dimension's values).
    pub fn partitions(&self) -> Vec<String> {
        let mut parts = vec![String::new()];
        for values in &self.dims {
            let mut next = Vec::new();
            for prefix in &parts {
                for v in std::iter::once(ANY).chain(values.iter().map(String::as_str)) {
                    next.push(if prefix.is_empty() { v.to_string() } else { format!("{prefix}#{v}") });
                }
            }
            parts = next;
        }
        parts
    }

    fn entry_key(&self, partition: &str) -> Key {
        Key::new(entry_pk(self.list, partition), format!("{}#{}#{}", self.sort, self.target.pk, self.target.sk))
    }
}

/// The partition of a list's entries for one combination of filters.
pub fn entry_pk(list: &str, partition: &str) -> String {
    format!("LIST#{list}#{partition}")
}

/// The record a list entry points to.
pub fn target_of(entry: &store::Item) -> Option<Key> {
    Some(Key::new(entry.get("refPK")?.as_str()?, entry.get("refSK")?.as_str()?))
}

/// The counter item of a list for one combination of filters.
pub fn counter_key(list: &str, partition: &str) -> Key {
    Key::new(format!("COUNT#{list}#{partition}"), "COUNT")
}

/// Transaction operations that move a record from `old` to `new` listings
/// (`None` = not listed). Unchanged entries produce no operations.
pub fn changes(old: Option<&Listing>, new: Option<&Listing>) -> Vec<TxOp> {
    let entries = |l: Option<&Listing>| -> BTreeMap<Key, String> {
        l.map(|l| l.partitions().into_iter().map(|p| (l.entry_key(&p), p)).collect()).unwrap_or_default()
    };
    let (before, after) = (entries(old), entries(new));
    let list = old.or(new).map(|l| l.list).unwrap_or_default();
    let mut ops = Vec::new();
    let mut deltas: BTreeMap<String, i64> = BTreeMap::new();
    for (key, partition) in &before {
        if !after.contains_key(key) {
            ops.push(TxOp::Delete { key: key.clone(), condition: None });
            *deltas.entry(partition.clone()).or_default() -= 1;
        }
    }
    for (key, partition) in &after {
        if !before.contains_key(key) {
            let target = &new.expect("after is only non-empty with a new listing").target;
            let mut item = key.to_item();
            item.insert("refPK".into(), json!(target.pk));
            item.insert("refSK".into(), json!(target.sk));
            ops.push(TxOp::Put { item, condition: None });
            *deltas.entry(partition.clone()).or_default() += 1;
        }
    }
    ops.extend(counter_ops(list, deltas));
    ops
}

/// Counter updates for aggregated deltas (zero deltas are skipped).
pub fn counter_ops(list: &str, deltas: BTreeMap<String, i64>) -> Vec<TxOp> {
    deltas
        .into_iter()
        .filter(|(_, d)| *d != 0)
        .map(|(p, d)| TxOp::Update { key: counter_key(list, &p), actions: vec![UpdateAction::Add("n".into(), d)], condition: None })
        .collect()
}

/// Merges several records' operations into one transaction: counter
/// updates of the same counter are summed (a transaction may address an
/// item only once).
pub fn merge(ops: Vec<TxOp>) -> Vec<TxOp> {
    let mut out = Vec::new();
    let mut counters: BTreeMap<Key, i64> = BTreeMap::new();
    for op in ops {
        match op {
            TxOp::Update { key, actions, condition: None } if key.sk == "COUNT" && key.pk.starts_with("COUNT#") => {
                for a in actions {
                    if let UpdateAction::Add(_, d) = a {
                        *counters.entry(key.clone()).or_default() += d;
                    }
                }
            }
            other => out.push(other),
        }
    }
    out.extend(counters.into_iter().filter(|(_, d)| *d != 0).map(|(key, d)| TxOp::Update {
        key,
        actions: vec![UpdateAction::Add("n".into(), d)],
        condition: None,
    }));
    out
}

/// A filter: per dimension the chosen value or `None` for any.
pub fn partition_of(filters: &[Option<&str>]) -> String {
    filters.iter().map(|f| f.unwrap_or(ANY)).collect::<Vec<_>>().join("#")
}

/// One page of a list: the records' keys and the total matching.
pub struct ListPage {
    pub keys: Vec<Key>,
    pub total: u64,
}

/// Page `page_no` (1-based) of `page_size` entries of a partition whose
/// sort string starts with `prefix`.
///
/// Cost: without a prefix the total is one counter read; with a prefix the
/// matching range is counted (a name prefix narrows it to a handful).
/// Offset paging reads the skipped entries (small key-only items); lists
/// served this way (stations, connectors of one operator) hold thousands,
/// not millions; orders use cursor paging instead.
pub async fn page(ctx: &AppCtx, list: &str, partition: &str, prefix: &str, page_no: u32, page_size: u32) -> Result<ListPage, ApiError> {
    let pk = entry_pk(list, partition);
    let sk = (!prefix.is_empty()).then(|| SortKey::BeginsWith(prefix.to_string()));
    let skip = (page_no.saturating_sub(1) as u64) * page_size as u64;
    let mut keys = Vec::new();
    let mut seen = 0u64;
    let mut cursor = None;
    loop {
        let mut q = Query::partition(pk.clone()).after(cursor);
        q.sk = sk.clone();
        let p = ctx.store.query(q).await.api()?;
        for item in p.items {
            if seen >= skip && keys.len() < page_size as usize {
                keys.extend(target_of(&item));
            }
            seen += 1;
        }
        cursor = p.cursor;
        let page_full = keys.len() >= page_size as usize;
        // Without a prefix the counter gives the total: stop once the page is full.
        if cursor.is_none() || (page_full && prefix.is_empty()) {
            break;
        }
    }
    let total = if prefix.is_empty() {
        let c = ctx.store.get(&counter_key(list, partition)).await.api()?;
        c.and_then(|c| c.get("n").and_then(Value::as_i64)).unwrap_or(0).max(0) as u64
    } else {
        seen
    };
    Ok(ListPage { keys, total })
}

/// Every entry of a partition whose sort string starts with `prefix`: the
/// records' keys with their sort strings (for lists merged with another
/// index, see `words`).
pub async fn entries_with_prefix(ctx: &AppCtx, list: &str, partition: &str, prefix: &str) -> Result<Vec<(Key, String)>, ApiError> {
    let mut out = Vec::new();
    let mut cursor = None;
    loop {
        let q = Query::partition(entry_pk(list, partition)).sort_key(SortKey::BeginsWith(prefix.to_string())).after(cursor);
        let p = ctx.store.query(q).await.api()?;
        for item in p.items {
            if let (Some(target), Some(entry_sk)) = (target_of(&item), item.get(store::SK).and_then(Value::as_str)) {
                let sort = entry_sk.strip_suffix(&format!("#{}#{}", target.pk, target.sk)).unwrap_or(entry_sk).to_string();
                out.push((target, sort));
            }
        }
        cursor = p.cursor;
        if cursor.is_none() {
            return Ok(out);
        }
    }
}

/// Normalises a name for the sort key: trimmed, lower-case, no inner
/// whitespace, so "  Shenzhen Bay" and "shenzhenbay" sort and match alike.
pub fn normalise(name: &str) -> String {
    name.chars().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(status: &str, region: &[&str]) -> Listing {
        Listing {
            list: "T",
            dims: vec![vec![status.into()], region.iter().map(|s| s.to_string()).collect()],
            sort: "name".into(),
            target: Key::new("X#1", "X"),
        }
    }

    #[test]
    fn partitions_are_every_combination() {
        let l = listing("operating", &["44", "4403"]);
        assert_eq!(l.partitions(), ["*#*", "*#44", "*#4403", "operating#*", "operating#44", "operating#4403"]);
    }

    #[test]
    fn a_status_change_moves_only_the_status_entries() {
        let old = listing("operating", &["44"]);
        let new = listing("closed", &["44"]);
        let ops = changes(Some(&old), Some(&new));
        // 2 deletes + 2 puts + 4 counters (-1 operating#*, -1 operating#44, +1 closed#*, +1 closed#44)
        assert_eq!(ops.len(), 8);
        assert!(changes(Some(&old), Some(&old)).is_empty());
    }

    #[test]
    fn merge_sums_counters() {
        let a = changes(None, Some(&listing("x", &[])));
        let b = changes(None, Some(&Listing { target: Key::new("X#2", "X"), ..listing("x", &[]) }));
        let merged = merge([a, b].concat());
        let counters: Vec<_> = merged.iter().filter(|op| matches!(op, TxOp::Update { .. })).collect();
        assert_eq!(counters.len(), 2);
        assert!(matches!(counters[0], TxOp::Update { actions, .. } if actions == &vec![UpdateAction::Add("n".into(), 2)]));
    }

    #[test]
    fn names_normalise() {
        assert_eq!(normalise("  Shenzhen Bay "), "shenzhenbay");
        assert_eq!(normalise("深圳湾 充电站"), "深圳湾充电站");
    }
}
