//! One sorted list read from several partitions that share a sort-key
//! space (the months of a date range, the accounts a name prefix matches):
//! a k-way merge.
//!
//! The sort keys of the partitions are unique across all of them (they
//! end in the record's id), so the merged order is total and the place to
//! continue is one value: the last sort key examined. Every partition
//! resumes after it with a key condition, so a cursor stays small however
//! many partitions are walked.
//!
//! Cost of a page: one query per partition of its share of the page (at
//! least 20 items, or `min_chunk` when rows are filtered in memory), more
//! only for a partition whose share runs out first; the walk stops
//! at `budget` items read and then says where to continue ("more may
//! follow"). It never depends on how many records the partitions hold.

use std::collections::VecDeque;

use envelope::ApiError;
use store::{Index, Item, Query, SortKey};
use serde_json::Value;

use crate::ctx::AppCtx;
use crate::domain::StoreResultExt;

/// One partition of the table or an index.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    pub index: Option<Index>,
    pub pk: String,
}

impl Source {
    fn sk_attr(&self) -> &'static str {
        self.index.map_or(store::SK, Index::sk_attr)
    }
}

/// What to read.
pub struct Walk<'a> {
    pub sources: Vec<Source>,
    /// Inclusive sort-key bounds (`None`: open).
    pub lo: Option<String>,
    pub hi: Option<String>,
    /// Largest sort key first.
    pub descending: bool,
    /// Continue after this sort key (exclusive), from a previous page.
    pub after: Option<String>,
    /// Rows wanted.
    pub size: usize,
    /// Stop after reading this many items (a page may then come back short).
    pub budget: usize,
    /// Rows kept (the filters the keys did not apply); `None` keeps all.
    pub keep: Option<&'a (dyn Fn(&Item) -> bool + Sync)>,
    /// The fewest items a query asks for while rows are filtered (more
    /// items a call, fewer calls); the page's remaining size otherwise.
    pub min_chunk: usize,
}

/// What was read.
#[derive(Debug, Default)]
pub struct Walked {
    pub items: Vec<Item>,
    /// The sort key to continue after, when more may follow.
    pub next: Option<String>,
    pub items_read: usize,
    pub calls: usize,
}

struct Lane {
    buffer: VecDeque<(String, Item)>,
    cursor: Option<String>,
    exhausted: bool,
}

/// Reads one page of the merged list.
pub async fn walk(ctx: &AppCtx, w: Walk<'_>) -> Result<Walked, ApiError> {
    // The range each partition is read in: the bounds, narrowed by the
    // resume point (exclusive, so its item is dropped when read again).
    let (mut lower, mut upper) = (w.lo.clone().map(|s| (s, true)), w.hi.clone().map(|s| (s, true)));
    if let Some(after) = &w.after {
        let narrow = |bound: &mut Option<(String, bool)>, is_lower: bool| {
            if bound.as_ref().is_none_or(|(b, _)| tighter_than(after, b, is_lower)) {
                *bound = Some((after.clone(), false));
            }
        };
        if w.descending {
            narrow(&mut upper, false);
        } else {
            narrow(&mut lower, true);
        }
    }
    let condition = match (&lower, &upper) {
        (Some((l, _)), Some((u, _))) if l > u => return Ok(Walked::default()),
        (Some((l, _)), Some((u, _))) => Some(SortKey::Between(l.clone(), u.clone())),
        (Some((l, true)), None) => Some(SortKey::Ge(l.clone())),
        (Some((l, false)), None) => Some(SortKey::Gt(l.clone())),
        (None, Some((u, true))) => Some(SortKey::Le(u.clone())),
        (None, Some((u, false))) => Some(SortKey::Lt(u.clone())),
        (None, None) => None,
    };
    let within = |sk: &str| {
        lower.as_ref().is_none_or(|(l, incl)| if *incl { sk >= l.as_str() } else { sk > l.as_str() })
            && upper.as_ref().is_none_or(|(u, incl)| if *incl { sk <= u.as_str() } else { sk < u.as_str() })
    };

    let mut out = Walked::default();
    let mut lanes: Vec<Lane> = w.sources.iter().map(|_| Lane { buffer: VecDeque::new(), cursor: None, exhausted: false }).collect();
    let mut examined = 0usize;
    let mut last: Option<String> = None;
    while out.items.len() < w.size {
        for (i, source) in w.sources.iter().enumerate() {
            while lanes[i].buffer.is_empty() && !lanes[i].exhausted {
                if out.items_read >= w.budget && examined > 0 {
                    out.next = last;
                    return Ok(out);
                }
                let need = w.size - out.items.len();
                // Several partitions share the page: each reads a share of it
                // (at least 20) and reads on when its share runs out, so a
                // wide range costs about the page plus a share per partition.
                let share = if w.sources.len() > 1 { (need / w.sources.len()).max(20).min(need) } else { need };
                // +1: the resume point itself may be read again and dropped.
                let chunk = if w.keep.is_some() { (share + 1).max(w.min_chunk) } else { share + 1 };
                let mut q = match source.index {
                    Some(index) => Query::index(index, source.pk.clone()),
                    None => Query::partition(source.pk.clone()),
                };
                q.sk = condition.clone();
                q = q.limit(chunk.min(store::MAX_PAGE as usize) as u32).after(lanes[i].cursor.take());
                if w.descending {
                    q = q.backward();
                }
                let page = ctx.store.query(q).await.api()?;
                out.calls += 1;
                out.items_read += page.items.len();
                let attr = source.sk_attr();
                for item in page.items {
                    if let Some(sk) = item.get(attr).and_then(Value::as_str).map(str::to_string) {
                        if within(&sk) {
                            lanes[i].buffer.push_back((sk, item));
                        }
                    }
                }
                lanes[i].cursor = page.cursor;
                lanes[i].exhausted = lanes[i].cursor.is_none();
            }
        }
        // The head that comes first in the list's order.
        let pick = lanes
            .iter()
            .enumerate()
            .filter_map(|(i, lane)| lane.buffer.front().map(|(sk, _)| (i, sk)))
            .reduce(|a, b| if (b.1 > a.1) == w.descending { b } else { a })
            .map(|(i, _)| i);
        let Some(i) = pick else {
            // Every partition is read to its end.
            return Ok(out);
        };
        let (sk, item) = lanes[i].buffer.pop_front().expect("picked a non-empty lane");
        examined += 1;
        last = Some(sk);
        if w.keep.is_none_or(|keep| keep(&item)) {
            out.items.push(item);
        }
    }
    let more = lanes.iter().any(|lane| !lane.buffer.is_empty() || !lane.exhausted);
    out.next = if more { last } else { None };
    Ok(out)
}

/// Whether `after` narrows the bound `b` (a lower bound when `lower`).
fn tighter_than(after: &str, b: &str, lower: bool) -> bool {
    if lower {
        after >= b
    } else {
        after <= b
    }
}

/// A sort key carried in a list cursor: bounded, printable, so a forged
/// one can only move where a list starts within its own partitions.
pub fn valid_position(s: &str) -> bool {
    !s.is_empty() && s.len() <= 256 && s.chars().all(|c| !c.is_control())
}
