//! The home dashboard in one call: asset counts by status, today's and
//! the 30-day figures, top stations, recent faults, pending refunds.
//!
//! Cost: a fixed number of reads whatever the table size: the asset
//! counters (one batch get), two rollup queries, one rollup query per
//! station with orders, and short queries for faults and refunds.

use charging::connector::ConnectorStatus;
use charging::demo::StationStatus;
use charging::orders::OrderStatus;
use envelope::ApiError;
use permission::SYSTEM_READ;
use serde_json::{json, Value};
use store::{Index, Key, Query};

use super::finance::station_sums;
use super::orders::today;
use crate::ctx::AppCtx;
use crate::domain::assets::{facets, piles, stations};
use crate::domain::orders::list::{day_items, day_sums};
use crate::domain::orders::record::{row_json, OrderRow};
use crate::domain::orders::refunds::{self, RefundStatus};
use crate::domain::orders::rollup::Sums;
use crate::domain::orders::keys;
use crate::domain::{from_item, StoreResultExt};
use crate::reply::Reply;
use crate::request::Call;
use crate::routes::{Access::Permission, Route};

pub fn routes() -> Vec<Route> {
    use crate::routes::route;
    vec![route!(GET "/index/dashboard" => "dashboard", Permission(SYSTEM_READ), false, "Home dashboard: counts by status, today, 30-day trend, top stations, recent faults", dashboard)]
}

/// The asset lists' counter item (see `domain::assets::facets`).
fn asset_counter(list: &str, filters: &[Option<&str>]) -> Key {
    Key::new(format!("COUNT#{list}#{}", facets::partition_of(filters)), "COUNT")
}

const STATION_STATUSES: [StationStatus; 4] = [StationStatus::Planning, StationStatus::Operating, StationStatus::Suspended, StationStatus::Closed];

async fn asset_counts(ctx: &AppCtx) -> Result<Value, ApiError> {
    let conn_status: Vec<String> = ConnectorStatus::ALL.iter().map(|s| piles::status_str(*s)).collect();
    let mut wanted = vec![asset_counter(stations::LIST, &[None, None]), asset_counter(piles::CONNECTOR_LIST, &[None, None, None])];
    wanted.extend(STATION_STATUSES.iter().map(|s| asset_counter(stations::LIST, &[Some(stations::status_str(*s)), None])));
    wanted.extend(conn_status.iter().map(|s| asset_counter(piles::CONNECTOR_LIST, &[None, Some(s), None])));
    let got = ctx.store.batch_get(&wanted).await.api()?;
    let n = |i: usize| got[i].as_ref().and_then(|it| it.get("n")).and_then(Value::as_i64).unwrap_or(0);
    let stations_by: serde_json::Map<String, Value> =
        STATION_STATUSES.iter().enumerate().map(|(i, s)| (stations::status_str(*s).to_string(), json!(n(2 + i)))).collect();
    let conns_by: serde_json::Map<String, Value> =
        conn_status.iter().enumerate().map(|(i, s)| (s.clone(), json!(n(2 + STATION_STATUSES.len() + i)))).collect();
    Ok(json!({"stations": n(0), "stationsByStatus": stations_by, "connectors": n(1), "connectorsByStatus": conns_by}))
}

/// Faulted connectors (from the asset list) and the newest abnormal orders.
async fn recent_faults(ctx: &AppCtx, now: i64) -> Result<Value, ApiError> {
    let faulted = piles::status_str(ConnectorStatus::Faulted);
    let entries = ctx
        .store
        .query(Query::partition(format!("LIST#{}#{}", piles::CONNECTOR_LIST, facets::partition_of(&[None, Some(&faulted), None]))).limit(10))
        .await
        .api()?;
    let refs: Vec<Key> = entries
        .items
        .iter()
        .filter_map(|e| Some(Key::new(e.get("refPK")?.as_str()?, e.get("refSK")?.as_str()?)))
        .collect();
    let connectors: Vec<Value> = if refs.is_empty() {
        vec![]
    } else {
        ctx.store
            .batch_get(&refs)
            .await
            .api()?
            .into_iter()
            .flatten()
            .map(|mut i| {
                for k in [store::PK, store::SK, "GSI1PK", "GSI1SK"] {
                    i.remove(k);
                }
                Value::Object(i)
            })
            .collect()
    };
    // Abnormal orders: the newest of this month and the last.
    let mut orders = Vec::new();
    for month in keys::months_desc(keys::local_day(now) - 31, keys::local_day(now)) {
        let q = Query::index(Index::Gsi3, keys::by_status(OrderStatus::Abnormal, &month)).limit(8 - orders.len() as u32).backward();
        for item in ctx.store.query(q).await.api()?.items {
            orders.push(row_json(&from_item::<OrderRow>(item)?, now));
        }
        if orders.len() >= 8 {
            break;
        }
    }
    Ok(json!({"connectors": connectors, "orders": orders}))
}

/// How many pending refunds the dashboard counts exactly.
const PENDING_REFUNDS_COUNTED: u32 = 100;

/// GET /index/dashboard
async fn dashboard(ctx: &AppCtx, _call: Call) -> Result<Reply, ApiError> {
    let now = ctx.now();
    let today = today(ctx);
    let from = today - 29;
    let items = day_items(ctx, "ALL", from, today).await?;
    let by_day: std::collections::HashMap<String, Sums> =
        items.iter().filter_map(|i| Some((i.get(store::SK)?.as_str()?.to_string(), Sums::from_item(i)))).collect();
    let trend: Vec<Value> = (from..=today)
        .map(|d| {
            let mut v = by_day.get(&keys::day_key(d)).copied().unwrap_or_default().json();
            v["day"] = json!(keys::iso_day(d));
            v
        })
        .collect();
    let today_sums = by_day.get(&keys::day_key(today)).copied().unwrap_or_default();
    let charging_now = day_sums(ctx, "T#charging", today - 1, today).await?.orders;
    let top: Vec<Value> = station_sums(ctx, from, today)
        .await?
        .into_iter()
        .take(10)
        .map(|(id, name, s)| {
            let mut v = s.json();
            v["stationId"] = json!(id);
            v["stationName"] = json!(name);
            v
        })
        .collect();
    // Counted from the first 100 (a fixed cost); more than that is "100+".
    let (pending, more_pending) = refunds::list(ctx, RefundStatus::Pending, PENDING_REFUNDS_COUNTED, None).await?;
    Ok(Reply::data(json!({
        "assets": asset_counts(ctx).await?,
        "today": today_sums.json(),
        "chargingOrdersSinceYesterday": charging_now,
        "trend": trend,
        "topStations": top,
        "faults": recent_faults(ctx, now).await?,
        "pendingRefunds": pending.len(),
        "pendingRefundsMore": more_pending.is_some(),
        "day": keys::iso_day(today),
    })))
}
