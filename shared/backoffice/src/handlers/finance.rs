//! Finance: revenue by day / month and by station, the settlement
//! statement of a station, the refund ledger. Every figure is read from
//! rollup items that change in the same transaction as the orders and
//! refunds behind them (see `domain::orders::rollup`). Periods are China
//! local days. An order's energy, amounts and payment count on the day it
//! started; a refund counts on the day it was approved (`refundedFen` here
//! is the money refunded in the period, whatever day its order started,
//! and `netFen` = paid - that). So a closed period's statement never
//! changes when one of its orders is refunded later: the refund appears in
//! the period it was granted, as in the ledger. (The order list's sums
//! differ on purpose: they describe the listed orders, with what those
//! orders have been refunded so far.)

use envelope::{msg, ApiError};
use futures::future::try_join_all;
use permission::SYSTEM_READ;
use serde_json::Value;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use store::{Query, SortKey};

use super::orders::today;
use crate::domain::orders::view::SumsView;
use crate::ctx::AppCtx;
use crate::domain::orders::keys::{self, Dim};
use crate::domain::orders::list::{day_items, day_sums};
use crate::domain::orders::refunds::{self, LedgerEntry};
use crate::domain::orders::rollup::Sums;
use crate::domain::StoreResultExt;
use crate::reply::Reply;
use crate::params::DayRange;
use crate::request::Call;
use crate::routes::{Access::Permission, Route};

/// The longest period a finance report covers.
const MAX_DAYS: i64 = 3 * 366;

/// What these routes touch in the table (their functions' IAM policies,
/// see `crate::iam`): rollups (station names included) and the ledger index.
pub const KEYS: crate::iam::KeyUse = {
    use crate::iam::families::*;
    crate::iam::KeyUse::new(&[ROLLUP, LEDGER_BY_TIME], &[])
};

pub fn routes() -> Vec<Route> {
    use crate::routes::route;
    vec![
        route!(GET "/money/revenue" => "finance_revenue", Permission(SYSTEM_READ), unaudited, "Revenue by day or month (energy, orders, electricity / service / parking, refunds, net)", revenue, query = RevenueQuery, data = Revenue),
        route!(GET "/money/byStation" => "finance_by_station", Permission(SYSTEM_READ), unaudited, "Revenue per station over a period", by_station, query = DayRange, data = ByStation),
        route!(GET "/money/settlement" => "finance_settlement", Permission(SYSTEM_READ), unaudited, "Settlement statement of one station for a period, by day", settlement, query = SettlementQuery, data = Settlement),
        route!(GET "/money/ledger" => "finance_ledger", Permission(SYSTEM_READ), unaudited, "The ledger (approved refunds, offline payments, write-offs), newest first", ledger, query = LedgerQuery, data = Ledger),
        route!(GET "/money/holderBills" => "finance_holder_bills", Permission(SYSTEM_READ), unaudited, "What each postpaid card holder owes for a month's sessions", holder_bills, query = MonthQuery, data = HolderBills),
    ]
}

/// GET /money/holderBills
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct MonthQuery {
    /// The month, `YYYY-MM` (China local time, the sessions' start).
    #[serde(deserialize_with = "crate::params::not_blank")]
    #[schemars(regex(pattern = r"^[0-9]{4}-[0-9]{2}$"))]
    pub month: String,
}

/// One holder's bill of a month.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HolderBill {
    /// The card holder (or the card number when no holder is written).
    pub holder: String,
    pub orders: i64,
    pub energy_wh: i64,
    pub amount_fen: i64,
    /// Recorded by finance (offline payments).
    pub paid_fen: i64,
    pub written_off_fen: i64,
    /// amount - paid - written off.
    pub owed_fen: i64,
}

/// GET /money/holderBills answer.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HolderBills {
    /// `YYYY-MM`.
    pub month: String,
    /// Most owed first.
    pub list: Vec<HolderBill>,
    pub owed_fen: i64,
}

/// GET /money/holderBills?month=YYYY-MM: one Query on the month's bill
/// items (one item per holder account, kept with the orders).
async fn holder_bills(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: MonthQuery = call.query()?;
    let month = q.month.trim().to_string();
    let valid = month.len() == 7 && keys::parse_day(&format!("{month}-01")).is_some();
    if !valid {
        return Err(ApiError::bad_request(msg::finance::bad_month(&month)));
    }
    let pk = keys::holder_bills(&month.replace('-', ""));
    let mut list = Vec::new();
    let mut cursor = None;
    loop {
        let page = ctx.store.query(Query::partition(pk.clone()).after(cursor)).await.api()?;
        for item in &page.items {
            let s = Sums::from_item(item);
            if s.orders == 0 {
                continue;
            }
            let holder = item.get(store::SK).and_then(Value::as_str).unwrap_or_default().to_string();
            let owed_fen = s.amount_fen - s.paid_fen - s.written_off_fen;
            list.push(HolderBill { holder, orders: s.orders, energy_wh: s.energy_wh, amount_fen: s.amount_fen, paid_fen: s.paid_fen, written_off_fen: s.written_off_fen, owed_fen });
        }
        cursor = page.cursor;
        if cursor.is_none() {
            break;
        }
    }
    list.sort_by(|a, b| b.owed_fen.cmp(&a.owed_fen).then_with(|| a.holder.cmp(&b.holder)));
    let owed_fen = list.iter().map(|b| b.owed_fen).sum();
    Ok(Reply::data(HolderBills { month, list, owed_fen }))
}

/// GET /money/revenue
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RevenueQuery {
    /// `day` (default) or `month`.
    pub granularity: Option<Granularity>,
    #[serde(flatten)]
    pub range: DayRange,
    /// One station (default all).
    #[serde(default, deserialize_with = "crate::params::filter_text")]
    #[schemars(length(max = 64))]
    pub station_id: Option<String>,
}

/// GET /money/settlement
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettlementQuery {
    #[serde(deserialize_with = "crate::params::required_filter_text")]
    #[schemars(length(min = 1, max = 64))]
    pub station_id: String,
    #[serde(flatten)]
    pub range: DayRange,
}

/// GET /money/ledger
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LedgerQuery {
    #[serde(flatten)]
    pub range: DayRange,
    /// Items a page (default 20, at most 500).
    #[serde(default, deserialize_with = "crate::params::cursor_page_size")]
    #[schemars(range(min = 1, max = 500))]
    pub page_size: Option<u32>,
    pub cursor: Option<String>,
}

/// The sums of one day (`YYYY-MM-DD`) or month (`YYYY-MM`): the orders
/// started in it, and (`refundedFen`, `netFen`) the refunds approved in it.
#[derive(Serialize, JsonSchema)]
pub struct PeriodSums {
    pub period: String,
    #[serde(flatten)]
    pub sums: SumsView,
}

/// The sums of one station.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StationSums {
    pub station_id: String,
    pub station_name: String,
    #[serde(flatten)]
    pub sums: SumsView,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Granularity {
    Day,
    Month,
}

/// GET /money/revenue answer.
#[derive(Serialize, JsonSchema)]
pub struct Revenue {
    /// Every day (or month) of the range, oldest first, zero where nothing happened.
    pub list: Vec<PeriodSums>,
    pub total: SumsView,
    pub granularity: Granularity,
    /// The range (`YYYY-MM-DD`); absent by month (whole months are listed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
}

/// GET /money/byStation answer.
#[derive(Serialize, JsonSchema)]
pub struct ByStation {
    /// Stations with orders, largest net first.
    pub list: Vec<StationSums>,
    pub total: SumsView,
    pub from: String,
    pub to: String,
}

/// GET /money/settlement answer.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Settlement {
    pub station_id: String,
    /// The id when the station has no orders.
    pub station_name: String,
    pub from: String,
    pub to: String,
    /// Unix seconds.
    pub generated_at: i64,
    /// Every day of the range.
    pub list: Vec<PeriodSums>,
    pub total: SumsView,
}

/// GET /money/ledger answer.
#[derive(Serialize, JsonSchema)]
pub struct Ledger {
    /// Newest first.
    pub list: Vec<LedgerEntry>,
    /// Null on the last page.
    pub cursor: Option<String>,
}




/// "20250630" -> "2025-06-30", "202506" -> "2025-06".
fn pretty(sk: &str) -> String {
    match sk.len() {
        8 => format!("{}-{}-{}", &sk[0..4], &sk[4..6], &sk[6..8]),
        6 => format!("{}-{}", &sk[0..4], &sk[4..6]),
        _ => sk.to_string(),
    }
}

/// Every day (or month) of the range with its sums, zero where nothing happened.
async fn series(ctx: &AppCtx, dim: Dim<'_>, from: i64, to: i64, monthly: bool) -> Result<(Vec<PeriodSums>, Sums), ApiError> {
    let items = if monthly {
        let q = Query::partition(keys::month_rollup(dim)).sort_key(SortKey::Between(keys::month_key_of_day(from), keys::month_key_of_day(to)));
        ctx.store.query(q).await.api()?.items
    } else {
        day_items(ctx, dim, from, to).await?
    };
    let by_key: std::collections::HashMap<String, Sums> =
        items.iter().filter_map(|i| Some((i.get(store::SK)?.as_str()?.to_string(), Sums::from_item(i).as_money()))).collect();
    let mut periods: Vec<String> = (from..=to).map(|d| if monthly { keys::month_key_of_day(d) } else { keys::day_key(d) }).collect();
    periods.dedup();
    let mut total = Sums::default();
    let rows = periods
        .into_iter()
        .map(|p| {
            let s = by_key.get(&p).copied().unwrap_or_default();
            total.add(&s);
            PeriodSums { period: pretty(&p), sums: s.into() }
        })
        .collect();
    Ok((rows, total))
}


/// GET /money/revenue?granularity=day|month&from&to&stationId
async fn revenue(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: RevenueQuery = call.query()?;
    let monthly = q.granularity == Some(Granularity::Month);
    let (from, to) = q.range.days(today(ctx), MAX_DAYS)?;
    let dim = q.station_id.as_deref().map_or(Dim::All, Dim::Station);
    if monthly {
        // Whole months: a month rollup covers the month, so the range is widened to them.
        let (list, total) = series(ctx, dim, from, to, true).await?;
        return Ok(Reply::data(Revenue { list, total: total.into(), granularity: Granularity::Month, from: None, to: None }));
    }
    let (list, total) = series(ctx, dim, from, to, false).await?;
    Ok(Reply::data(Revenue {
        list,
        total: total.into(),
        granularity: Granularity::Day,
        from: Some(keys::iso_day(from)),
        to: Some(keys::iso_day(to)),
    }))
}

/// The stations that have orders, with their names (one query).
pub async fn stations_with_orders(ctx: &AppCtx) -> Result<Vec<(String, String)>, ApiError> {
    let page = ctx.store.query(Query::partition(keys::STATIONS_ROLLUP_PK)).await.api()?;
    Ok(page
        .items
        .iter()
        .filter_map(|i| {
            let id = i.get(store::SK)?.as_str()?.to_string();
            let name = i.get("stationName").and_then(Value::as_str).unwrap_or(&id).to_string();
            Some((id, name))
        })
        .collect())
}

/// Sums per station over days `from..=to` as finance counts them (refunds
/// on their approval day, `Sums::as_money`), largest net first (one query per station).
pub async fn station_sums(ctx: &AppCtx, from: i64, to: i64) -> Result<Vec<(String, String, Sums)>, ApiError> {
    let stations = stations_with_orders(ctx).await?;
    let sums = try_join_all(stations.iter().map(|(id, _)| day_sums(ctx, Dim::Station(id), from, to))).await?;
    let mut out: Vec<_> = stations.into_iter().zip(sums).map(|((id, name), s)| (id, name, s.as_money())).collect();
    out.sort_by(|a, b| b.2.net_fen().cmp(&a.2.net_fen()).then(a.0.cmp(&b.0)));
    Ok(out)
}

/// GET /money/byStation?from&to
async fn by_station(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let range: DayRange = call.query()?;
    let (from, to) = range.days(today(ctx), MAX_DAYS)?;
    let rows = station_sums(ctx, from, to).await?;
    let mut total = Sums::default();
    let list: Vec<StationSums> = rows
        .into_iter()
        .map(|(station_id, station_name, s)| {
            total.add(&s);
            StationSums { station_id, station_name, sums: s.into() }
        })
        .collect();
    Ok(Reply::data(ByStation { list, total: total.into(), from: keys::iso_day(from), to: keys::iso_day(to) }))
}

/// GET /money/settlement?stationId&from&to: the statement of one station.
async fn settlement(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: SettlementQuery = call.query()?;
    let (from, to) = q.range.days(today(ctx), MAX_DAYS)?;
    let (list, total) = series(ctx, Dim::Station(&q.station_id), from, to, false).await?;
    let station = q.station_id;
    let station_name = stations_with_orders(ctx).await?.into_iter().find(|(id, _)| *id == station).map(|(_, n)| n).unwrap_or_else(|| station.clone());
    Ok(Reply::data(Settlement {
        station_id: station,
        station_name,
        from: keys::iso_day(from),
        to: keys::iso_day(to),
        generated_at: ctx.now(),
        list,
        total: total.into(),
    }))
}

/// GET /money/ledger?from&to&pageSize&cursor
async fn ledger(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: LedgerQuery = call.query()?;
    let (from, to) = q.range.days(today(ctx), MAX_DAYS)?;
    let cursor = q.cursor.filter(|c| !c.trim().is_empty());
    let (list, cursor) = refunds::ledger(ctx, keys::day_start(from), keys::day_start(to + 1) - 1, q.page_size.unwrap_or(20), cursor).await?;
    Ok(Reply::data(Ledger { list, cursor }))
}
