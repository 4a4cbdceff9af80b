//! The home dashboard in one call: asset counts by status, today's and
//! the 30-day figures, top stations, recent faults, pending refunds.
//! Money counts as on the finance page: refunds on the day they were
//! approved (`Sums::as_money`).
//!
//! Cost: a fixed number of reads whatever the table size: the asset
//! counters (one batch get), two rollup queries, one rollup query per
//! station with orders, and short queries for faults and refunds.

use std::collections::HashMap;

use charging::connector::ConnectorStatus;
use charging::station::StationStatus;
use charging::orders::OrderStatus;
use envelope::ApiError;
use permission::SYSTEM_READ;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;
use store::{Index, Key, Query};

use super::finance::{station_sums, StationSums};
use super::orders::today;
use crate::ctx::AppCtx;
use crate::domain::assets::piles::Connector;
use crate::domain::assets::{facets, piles, stations};
use crate::domain::orders::list::{day_items, day_sums};
use crate::domain::operations;
use crate::domain::orders::record::OrderRow;
use crate::domain::orders::view::{OrderView, SumsView};
use crate::domain::orders::refunds::{self, RefundStatus};
use crate::domain::orders::rollup::Sums;
use crate::domain::orders::keys::{self, Dim};
use crate::domain::{from_item, StoreResultExt};
use crate::reply::Reply;
use crate::request::Call;
use crate::routes::{Access::Permission, Route};

/// What these routes touch in the table (their functions' IAM policies,
/// see `crate::iam`): counts, rollups, faulted connectors (their pile partition), abnormal orders, pending refunds.
pub const KEYS: crate::iam::KeyUse = {
    use crate::iam::families::*;
    crate::iam::KeyUse::new(&[ROLLUP, ORDERS_BY_STATUS, REFUNDS_BY_STATUS, CONNECTOR_LIST, CONNECTOR_COUNT, STATION_COUNT, PILE], &[])
};

pub fn routes() -> Vec<Route> {
    use crate::routes::route;
    vec![route!(GET "/index/dashboard" => "dashboard", Permission(SYSTEM_READ), unaudited, "Home dashboard: counts by status, today, 30-day trend, top stations, recent faults", dashboard, data = Dashboard)]
}

/// GET /index/dashboard answer.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Dashboard {
    pub assets: AssetCounts,
    /// Today's orders (by start time), with the refunds approved today
    /// (`refundedFen`, `netFen`: refunds count on the day they are granted, as in finance).
    pub today: SumsView,
    /// Orders started yesterday or today that are still charging.
    pub charging_orders_since_yesterday: i64,
    /// The last 30 days, oldest first (the last one is today).
    pub trend: Vec<DaySums>,
    /// The 10 stations with the largest net over the 30 days.
    pub top_stations: Vec<StationSums>,
    pub faults: Faults,
    /// Pending refund requests, counted up to 100.
    pub pending_refunds: usize,
    /// More than the counted ones are pending ("100+").
    pub pending_refunds_more: bool,
    /// Today (`YYYY-MM-DD`, China local day).
    pub day: String,
}

/// Stations and connectors, in all and by status (every status listed).
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AssetCounts {
    pub stations: i64,
    pub stations_by_status: HashMap<StationStatus, i64>,
    pub connectors: i64,
    /// By stored status (a silent pile's connectors count under their stored status).
    pub connectors_by_status: HashMap<ConnectorStatus, i64>,
}

/// The sums of one day.
#[derive(Serialize, JsonSchema)]
pub struct DaySums {
    /// `YYYY-MM-DD`.
    pub day: String,
    #[serde(flatten)]
    pub sums: SumsView,
}

/// Faulted connectors (up to 10) and the newest abnormal orders (up to 8).
#[derive(Serialize, JsonSchema)]
pub struct Faults {
    pub connectors: Vec<Connector>,
    pub orders: Vec<OrderView>,
}

/// The asset lists' counter item (see `domain::assets::facets`).
fn asset_counter(list: &str, filters: &[Option<&str>]) -> Key {
    facets::counter_key(list, &facets::partition_of(filters))
}

const STATION_STATUSES: [StationStatus; 4] = [StationStatus::Planning, StationStatus::Operating, StationStatus::Suspended, StationStatus::Closed];

async fn asset_counts(ctx: &AppCtx) -> Result<AssetCounts, ApiError> {
    let conn_status: Vec<String> = ConnectorStatus::ALL.iter().map(|s| piles::status_str(*s)).collect();
    let mut wanted = vec![asset_counter(stations::LIST, &[None, None]), asset_counter(piles::CONNECTOR_LIST, &[None, None, None])];
    wanted.extend(STATION_STATUSES.iter().map(|s| asset_counter(stations::LIST, &[Some(stations::status_str(*s)), None])));
    wanted.extend(conn_status.iter().map(|s| asset_counter(piles::CONNECTOR_LIST, &[None, Some(s), None])));
    let got = ctx.store.batch_get(&wanted).await.api()?;
    let n = |i: usize| got[i].as_ref().and_then(|it| it.get("n")).and_then(Value::as_i64).unwrap_or(0);
    Ok(AssetCounts {
        stations: n(0),
        stations_by_status: STATION_STATUSES.iter().enumerate().map(|(i, s)| (*s, n(2 + i))).collect(),
        connectors: n(1),
        connectors_by_status: ConnectorStatus::ALL.iter().enumerate().map(|(i, s)| (*s, n(2 + STATION_STATUSES.len() + i))).collect(),
    })
}

/// Faulted connectors (from the asset list) and the newest abnormal orders.
async fn recent_faults(ctx: &AppCtx, now: i64) -> Result<Faults, ApiError> {
    let faulted = piles::status_str(ConnectorStatus::Faulted);
    let entries = ctx
        .store
        .query(Query::partition(facets::entry_pk(piles::CONNECTOR_LIST, &facets::partition_of(&[None, Some(&faulted), None]))).limit(10))
        .await
        .api()?;
    let refs: Vec<Key> = entries
        .items
        .iter()
        .filter_map(facets::target_of)
        .collect();
    let connectors: Vec<Connector> = if refs.is_empty() {
        vec![]
    } else {
        ctx.store.batch_get(&refs).await.api()?.into_iter().flatten().map(from_item).collect::<Result<_, _>>()?
    };
    // Abnormal orders: the newest of this month and the last.
    let mut orders = Vec::new();
    let th = operations::current(ctx).await?.anomaly_thresholds();
    for month in keys::months_desc(keys::local_day(now) - 31, keys::local_day(now)) {
        let q = Query::index(Index::Gsi3, keys::by_status(OrderStatus::Abnormal, &month)).limit(8 - orders.len() as u32).backward();
        for item in ctx.store.query(q).await.api()?.items {
            orders.push(OrderView::of(&from_item::<OrderRow>(item)?, now, &th));
        }
        if orders.len() >= 8 {
            break;
        }
    }
    crate::domain::orders::view::fill_pile_codes(ctx, &mut orders.iter_mut().collect::<Vec<_>>()).await?;
    Ok(Faults { connectors, orders })
}

/// How many pending refunds the dashboard counts exactly.
const PENDING_REFUNDS_COUNTED: u32 = 100;

/// GET /index/dashboard
async fn dashboard(ctx: &AppCtx, _call: Call) -> Result<Reply, ApiError> {
    let now = ctx.now();
    let today = today(ctx);
    let from = today - 29;
    let items = day_items(ctx, Dim::All, from, today).await?;
    let by_day: std::collections::HashMap<String, Sums> =
        items.iter().filter_map(|i| Some((i.get(store::SK)?.as_str()?.to_string(), Sums::from_item(i).as_money()))).collect();
    let trend: Vec<DaySums> =
        (from..=today).map(|d| DaySums { day: keys::iso_day(d), sums: by_day.get(&keys::day_key(d)).copied().unwrap_or_default().into() }).collect();
    let today_sums = by_day.get(&keys::day_key(today)).copied().unwrap_or_default();
    let charging_now = day_sums(ctx, Dim::Status(OrderStatus::Charging), today - 1, today).await?.orders;
    let top_stations: Vec<StationSums> = station_sums(ctx, from, today)
        .await?
        .into_iter()
        .take(10)
        .map(|(station_id, station_name, s)| StationSums { station_id, station_name, sums: s.into() })
        .collect();
    // Counted from the first 100 (a fixed cost); more than that is "100+".
    let (pending, more_pending) = refunds::list(ctx, RefundStatus::Pending, false, PENDING_REFUNDS_COUNTED, None).await?;
    Ok(Reply::data(Dashboard {
        assets: asset_counts(ctx).await?,
        today: today_sums.into(),
        charging_orders_since_yesterday: charging_now,
        trend,
        top_stations,
        faults: recent_faults(ctx, now).await?,
        pending_refunds: pending.len(),
        pending_refunds_more: more_pending.is_some(),
        day: keys::iso_day(today),
    }))
}
