//! The order list: one key per filter, walked month bucket by month bucket
//! (newest first), with an opaque cursor; the filter's sums come from
//! rollup items. The cost of a page depends on the page size and the
//! number of months in the range, never on the number of orders stored.
//!
//! The most selective filter picks the key (order no. > user > plate >
//! stuck > station > status > payment > flagged > time). Any further
//! filters are applied to the rows read, within a read budget per request:
//! such a page can come back short with a cursor ("more may follow").

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use charging::orders::{OrderStatus, PaymentStatus};
use envelope::{msg, ApiError};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use store::{Index, Query, SortKey};

use super::keys::{self, Dim};
use super::record::OrderRow;
use super::rollup::Sums;
use crate::ctx::AppCtx;
use crate::domain::operations;
use crate::domain::{from_item, StoreResultExt};

pub const DEFAULT_PAGE: u32 = 20;
pub const MAX_PAGE: u32 = 500;
/// The longest time range one list covers (keeps the month walk bounded).
pub const MAX_RANGE_DAYS: i64 = 731;
/// At most this many items are read per request when filters are applied in memory.
const READ_BUDGET: usize = 2000;
const MAX_CALLS: usize = 40;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum AnomalyFilter {
    /// Still charging after the stuck threshold (found by a key range).
    Stuck,
    /// Anomalies known at write time (zero energy, negative meter, ...).
    Flagged,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    pub from_day: i64,
    pub to_day: i64,
    pub station: Option<String>,
    pub status: Option<OrderStatus>,
    pub payment: Option<PaymentStatus>,
    pub order_no: Option<String>,
    pub user: Option<String>,
    pub plate: Option<String>,
    pub anomaly: Option<AnomalyFilter>,
}


impl Filter {
    fn from_ts(&self) -> i64 {
        keys::day_start(self.from_day)
    }
    fn to_ts(&self) -> i64 {
        keys::day_start(self.to_day + 1) - 1
    }

    /// Whether a row passes every filter (the key already applied some).
    /// `stuck_after_secs`: the operations setting in force.
    pub fn matches(&self, r: &OrderRow, now: i64, stuck_after_secs: i64) -> bool {
        let stuck_cutoff = now - stuck_after_secs;
        r.order.start_ts >= self.from_ts()
            && r.order.start_ts <= self.to_ts()
            && self.station.as_ref().is_none_or(|s| &r.order.station_id == s)
            && self.status.is_none_or(|s| r.order.status == s)
            && self.payment.is_none_or(|p| r.order.payment_status == p)
            && self.order_no.as_ref().is_none_or(|n| &r.order.order_no == n)
            && self.user.as_ref().is_none_or(|u| &r.order.user_id == u)
            && self.plate.as_ref().is_none_or(|p| &r.order.plate == p)
            && match self.anomaly {
                None => true,
                Some(AnomalyFilter::Stuck) => r.order.status == OrderStatus::Charging && r.order.stop_ts.is_none() && r.order.start_ts < stuck_cutoff,
                Some(AnomalyFilter::Flagged) => r.flagged(),
            }
    }
}

/// One partition the list walks.
#[derive(Debug, Clone)]
struct Bucket {
    index: Option<Index>,
    pk: String,
    /// Items are pointers (`orderNo`) to be fetched, not rows.
    pointer: bool,
}

/// The partitions to walk, newest first, and the sort-key range.
fn plan(f: &Filter, now: i64, stuck_after_secs: i64) -> (Vec<Bucket>, String, String) {
    let lo = keys::time_sort(f.from_ts(), "");
    let mut hi_ts = f.to_ts();
    let months = keys::months_desc(f.from_day, f.to_day);
    let per_month = |index: Option<Index>, pointer: bool, pk: &dyn Fn(&str) -> String| -> Vec<Bucket> {
        months.iter().map(|m| Bucket { index, pk: pk(m), pointer }).collect()
    };
    let buckets = if let Some(u) = &f.user {
        vec![Bucket { index: None, pk: keys::by_user(u), pointer: true }]
    } else if let Some(p) = &f.plate {
        vec![Bucket { index: None, pk: keys::by_plate(p), pointer: true }]
    } else if f.anomaly == Some(AnomalyFilter::Stuck) {
        hi_ts = hi_ts.min(now - stuck_after_secs - 1);
        per_month(Some(Index::Gsi3), false, &|m| keys::by_status(OrderStatus::Charging, m))
    } else if let Some(s) = &f.station {
        per_month(Some(Index::Gsi2), false, &|m| keys::by_station(s, m))
    } else if let Some(s) = f.status {
        per_month(Some(Index::Gsi3), false, &|m| keys::by_status(s, m))
    } else if let Some(p) = f.payment {
        per_month(None, true, &|m| keys::by_payment(p, m))
    } else if f.anomaly == Some(AnomalyFilter::Flagged) {
        per_month(None, true, &|m| keys::flagged(m))
    } else {
        per_month(Some(Index::Gsi1), false, &|m| keys::by_month(m))
    };
    (buckets, lo, format!("{hi_ts:012}#~"))
}

/// Whether every filter is served by the key (no rows are skipped in memory).
fn fully_keyed(f: &Filter) -> bool {
    let n = [f.station.is_some(), f.status.is_some(), f.payment.is_some(), f.user.is_some(), f.plate.is_some(), f.anomaly.is_some()]
        .iter()
        .filter(|b| **b)
        .count();
    n <= 1
}

#[derive(Serialize, Deserialize)]
struct Position {
    b: usize,
    c: Option<String>,
    /// Walking from the oldest order (a cursor is valid for its direction only).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    o: bool,
}

fn encode_cursor(p: &Position) -> String {
    URL_SAFE_NO_PAD.encode(serde_json::to_vec(p).unwrap_or_default())
}

fn bad_cursor() -> ApiError {
    ApiError::bad_request(msg::orders::list::bad_cursor())
}

fn decode_cursor(s: &str) -> Result<Position, ApiError> {
    URL_SAFE_NO_PAD.decode(s.trim()).ok().and_then(|b| serde_json::from_slice(&b).ok()).ok_or_else(bad_cursor)
}

pub struct ListPage {
    pub rows: Vec<OrderRow>,
    pub cursor: Option<String>,
    /// Items read from the store for this page (for the bench and tests).
    pub items_read: usize,
}

/// One page of the filtered list, newest first (or, `oldest_first`, from
/// the oldest order forward: the pager's jump to the last page).
pub async fn page(ctx: &AppCtx, f: &Filter, size: u32, cursor: Option<&str>) -> Result<ListPage, ApiError> {
    page_in(ctx, f, size, cursor, false).await
}

/// [`page`] in either direction.
pub async fn page_in(ctx: &AppCtx, f: &Filter, size: u32, cursor: Option<&str>, oldest_first: bool) -> Result<ListPage, ApiError> {
    let now = ctx.now();
    let stuck_after_secs = operations::current(ctx).await?.anomaly_thresholds().stuck_after_secs;
    let size = size.clamp(1, MAX_PAGE) as usize;
    if let Some(no) = &f.order_no {
        // A single order: one get.
        let item = ctx.store.get(&keys::order(no)).await.api()?;
        let rows = match item {
            Some(i) if cursor.is_none() => vec![from_item::<OrderRow>(i)?].into_iter().filter(|r| f.matches(r, now, stuck_after_secs)).collect(),
            _ => vec![],
        };
        return Ok(ListPage { rows, cursor: None, items_read: 1 });
    }
    let (mut buckets, lo, hi) = plan(f, now, stuck_after_secs);
    if oldest_first {
        buckets.reverse();
    }
    let mut pos = match cursor {
        Some(c) => decode_cursor(c)?,
        None => Position { b: 0, c: None, o: oldest_first },
    };
    if pos.b > buckets.len() || pos.o != oldest_first {
        return Err(bad_cursor());
    }
    let exact = fully_keyed(f);
    let (mut rows, mut read, mut calls) = (Vec::new(), 0usize, 0usize);
    while rows.len() < size && pos.b < buckets.len() {
        if calls >= MAX_CALLS || read >= READ_BUDGET {
            return Ok(ListPage { rows, cursor: Some(encode_cursor(&pos)), items_read: read });
        }
        let bucket = &buckets[pos.b];
        let need = size - rows.len();
        let limit = if exact { need } else { need.max(100) } as u32;
        let mut q = match bucket.index {
            Some(i) => Query::index(i, bucket.pk.clone()),
            None => Query::partition(bucket.pk.clone()),
        };
        q = q.sort_key(SortKey::Between(lo.clone(), hi.clone())).limit(limit).after(pos.c.clone());
        if !oldest_first {
            q = q.backward();
        }
        let page = ctx.store.query(q).await.api()?;
        calls += 1;
        read += page.items.len();
        let fetched: Vec<Option<OrderRow>> = if bucket.pointer {
            let ks: Vec<_> = page.items.iter().filter_map(|i| i.get("orderNo").and_then(Value::as_str)).map(keys::order).collect();
            let got = if ks.is_empty() { vec![] } else { ctx.store.batch_get(&ks).await.api()? };
            calls += 1;
            read += got.len();
            got.into_iter().map(|o| o.map(from_item::<OrderRow>).transpose()).collect::<Result<_, _>>()?
        } else {
            page.items.iter().cloned().map(|i| from_item::<OrderRow>(i).map(Some)).collect::<Result<_, _>>()?
        };
        let mut stopped_early = false;
        for (raw, row) in page.items.iter().zip(fetched) {
            pos.c = Some(store::cursor::encode(bucket.index, raw));
            if let Some(row) = row.filter(|r| f.matches(r, now, stuck_after_secs)) {
                rows.push(row);
                if rows.len() == size {
                    stopped_early = true;
                    break;
                }
            }
        }
        if !stopped_early {
            match page.cursor {
                None => pos = Position { b: pos.b + 1, c: None, o: oldest_first },
                Some(c) => pos.c = Some(c),
            }
        }
    }
    let cursor = (pos.b < buckets.len()).then(|| encode_cursor(&pos));
    Ok(ListPage { rows, cursor, items_read: read })
}

/// What the list is sorted by. Time is the month buckets' own order;
/// amount and energy are the value pointers of each month
/// (`keys::by_amount`, `keys::by_energy`) merged across the range's
/// months, so a page costs about the page size per month, never more with
/// the number of orders.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum SortBy {
    #[default]
    Newest,
    Oldest,
    AmountDesc,
    AmountAsc,
    EnergyDesc,
    EnergyAsc,
}

impl SortBy {
    /// The name on the wire (`sort=`).
    pub fn name(self) -> String {
        serde_json::to_value(self).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
    }

    /// The pointer partition of a month and whether the largest comes first.
    fn by_value(self) -> Option<(fn(&str) -> String, bool)> {
        match self {
            SortBy::AmountDesc => Some((keys::by_amount, true)),
            SortBy::AmountAsc => Some((keys::by_amount, false)),
            SortBy::EnergyDesc => Some((keys::by_energy, true)),
            SortBy::EnergyAsc => Some((keys::by_energy, false)),
            SortBy::Newest | SortBy::Oldest => None,
        }
    }
}

/// Where a list sorted by value continues: the last pointer's sort key,
/// valid for its own sort only.
#[derive(Serialize, Deserialize)]
struct ValuePosition {
    s: String,
    after: String,
}

/// One page of the filtered list in the order asked. Amount and energy
/// sort the time range alone: with any other filter they are refused
/// (400 naming `sort`), since no key holds orders by value per station,
/// status or payment.
pub async fn page_sorted(ctx: &AppCtx, f: &Filter, size: u32, cursor: Option<&str>, sort: SortBy) -> Result<ListPage, ApiError> {
    let Some((partition_of, descending)) = sort.by_value() else {
        return page_in(ctx, f, size, cursor, sort == SortBy::Oldest).await;
    };
    let only_range = Filter { from_day: f.from_day, to_day: f.to_day, ..Filter::default() };
    if *f != only_range {
        return Err(ApiError::bad_request(msg::orders::list::sort_alone(sort.name())));
    }
    let after = match cursor {
        None => None,
        Some(c) => {
            let p: ValuePosition = URL_SAFE_NO_PAD.decode(c.trim()).ok().and_then(|b| serde_json::from_slice(&b).ok()).ok_or_else(bad_cursor)?;
            if p.s != sort.name() || !crate::domain::merged::valid_position(&p.after) {
                return Err(bad_cursor());
            }
            Some(p.after)
        }
    };
    let (from_ts, to_ts) = (f.from_ts(), f.to_ts());
    // The months at either end hold orders outside the range.
    let in_range = move |item: &store::Item| item.get("startTs").and_then(Value::as_i64).is_some_and(|t| (from_ts..=to_ts).contains(&t));
    let sources = keys::months_desc(f.from_day, f.to_day).iter().map(|m| crate::domain::merged::Source { index: None, pk: partition_of(m) }).collect();
    let walked = crate::domain::merged::walk(
        ctx,
        crate::domain::merged::Walk {
            sources,
            lo: None,
            hi: None,
            descending,
            after,
            size: size.clamp(1, MAX_PAGE) as usize,
            budget: READ_BUDGET,
            keep: Some(&in_range),
            min_chunk: 0,
        },
    )
    .await?;
    let order_keys: Vec<_> = walked.items.iter().filter_map(|i| i.get("orderNo").and_then(Value::as_str)).map(keys::order).collect();
    let got = if order_keys.is_empty() { vec![] } else { ctx.store.batch_get(&order_keys).await.api()? };
    let items_read = walked.items_read + got.len();
    // A pointer whose order is gone (it never is: they are written together) is skipped.
    let rows = got.into_iter().flatten().map(from_item::<OrderRow>).collect::<Result<Vec<_>, _>>()?;
    let cursor = walked.next.map(|after| URL_SAFE_NO_PAD.encode(serde_json::to_vec(&ValuePosition { s: sort.name().to_string(), after }).unwrap_or_default()));
    Ok(ListPage { rows, cursor, items_read })
}

/// The sums of the filter from rollup items, when a rollup covers the
/// filter; `None` otherwise (the page says the sums are not available).
pub async fn sums(ctx: &AppCtx, f: &Filter) -> Result<Option<Sums>, ApiError> {
    if f.order_no.is_some() || f.user.is_some() || f.plate.is_some() {
        return small_set_sums(ctx, f).await.map(Some);
    }
    if f.anomaly.is_some() {
        return Ok(None);
    }
    let Some(dim) = Dim::of_filters(f.station.as_deref(), f.status, f.payment) else { return Ok(None) };
    Ok(Some(day_sums(ctx, dim, f.from_day, f.to_day).await?))
}

/// Sums of one rollup dimension over local days `from..=to`: whole months
/// from the monthly rollups (one query), the partial months at either end
/// from the daily ones (at most two queries), so a year costs ~60 items,
/// not 365.
pub async fn day_sums(ctx: &AppCtx, dim: Dim<'_>, from_day: i64, to_day: i64) -> Result<Sums, ApiError> {
    let mut total = Sums::default();
    let (head, months, tail) = split_months(from_day, to_day);
    for (a, b) in [head, tail].into_iter().flatten() {
        for item in day_items(ctx, dim, a, b).await? {
            total.add(&Sums::from_item(&item));
        }
    }
    if let Some((first, last)) = months {
        let q = Query::partition(keys::month_rollup(dim)).sort_key(SortKey::Between(first, last));
        for item in ctx.store.query(q).await.api()?.items {
            total.add(&Sums::from_item(&item));
        }
    }
    Ok(total)
}

/// Splits days `from..=to` into a leading partial month, the whole months
/// (first and last `YYYYMM`) and a trailing partial month.
fn split_months(from: i64, to: i64) -> (Option<(i64, i64)>, Option<(String, String)>, Option<(i64, i64)>) {
    let month_start = |d: i64| {
        let (y, m, _) = charging::civil::civil_from_days(d);
        charging::civil::days_from_civil(y, m, 1)
    };
    let next_month = |d: i64| {
        let (y, m, _) = charging::civil::civil_from_days(d);
        if m == 12 { charging::civil::days_from_civil(y + 1, 1, 1) } else { charging::civil::days_from_civil(y, m + 1, 1) }
    };
    // First whole month starts at `a`, the last whole month ends before `b`.
    let a = if month_start(from) == from { from } else { next_month(from) };
    let b = month_start(to + 1);
    if a >= b {
        return (Some((from, to)), None, None);
    }
    let head = (from < a).then_some((from, a - 1));
    let tail = (b <= to).then_some((b, to));
    (head, Some((keys::month_key_of_day(a), keys::month_key_of_day(b - 1))), tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_split_into_partial_and_whole_months() {
        let d = |s: &str| keys::parse_day(s).unwrap();
        assert_eq!(split_months(d("2025-01-10"), d("2025-01-20")), (Some((d("2025-01-10"), d("2025-01-20"))), None, None));
        assert_eq!(
            split_months(d("2025-01-10"), d("2025-04-05")),
            (Some((d("2025-01-10"), d("2025-01-31"))), Some(("202502".into(), "202503".into())), Some((d("2025-04-01"), d("2025-04-05"))))
        );
        assert_eq!(split_months(d("2025-02-01"), d("2025-02-28")), (None, Some(("202502".into(), "202502".into())), None));
        assert_eq!(split_months(d("2024-12-01"), d("2025-01-31")), (None, Some(("202412".into(), "202501".into())), None));
        // Ending on the last day of a month but not starting on a first.
        assert_eq!(split_months(d("2025-01-31"), d("2025-03-31")), (Some((d("2025-01-31"), d("2025-01-31"))), Some(("202502".into(), "202503".into())), None));
    }
}

/// The daily rollup items of a dimension, oldest first.
pub async fn day_items(ctx: &AppCtx, dim: Dim<'_>, from_day: i64, to_day: i64) -> Result<Vec<store::Item>, ApiError> {
    let mut out = Vec::new();
    let mut cursor = None;
    loop {
        let q = Query::partition(keys::day_rollup(dim))
            .sort_key(SortKey::Between(keys::day_key(from_day), keys::day_key(to_day)))
            .after(cursor);
        let page = ctx.store.query(q).await.api()?;
        out.extend(page.items);
        match page.cursor {
            Some(c) => cursor = Some(c),
            None => return Ok(out),
        }
    }
}

/// Sums of a filter keyed by user, plate or order number: those sets are
/// small, so they are summed from the orders (at most a few thousand).
async fn small_set_sums(ctx: &AppCtx, f: &Filter) -> Result<Sums, ApiError> {
    let mut total = Sums::default();
    let mut cursor: Option<String> = None;
    for _ in 0..10 {
        let p = page(ctx, f, MAX_PAGE, cursor.as_deref()).await?;
        for r in &p.rows {
            total.add(&Sums::of(r));
        }
        match p.cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    Ok(total)
}
