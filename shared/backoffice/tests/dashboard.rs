//! The home dashboard through the real dispatch on a seeded SQLite store.

mod common;

use common::*;

#[tokio::test]
async fn dashboard_shows_today_trend_top_stations_and_faults() {
    let ctx = product().await;
    let t = login(&ctx, "editor", EDITOR_PW).await;
    let a = get(&ctx, "/index/dashboard", Some(&t)).await;
    assert_eq!(a.code(), 200, "{}", a.body);
    let d = a.data();
    assert_eq!(d["trend"].as_array().unwrap().len(), 30);
    let trend_orders: i64 = d["trend"].as_array().unwrap().iter().map(|x| x["orders"].as_i64().unwrap()).sum();
    assert!(trend_orders > 0);
    assert_eq!(d["trend"][29]["orders"], d["today"]["orders"]);
    assert!(!d["topStations"].as_array().unwrap().is_empty());
    let top: Vec<i64> = d["topStations"].as_array().unwrap().iter().map(|s| s["netFen"].as_i64().unwrap()).collect();
    assert!(top.windows(2).all(|w| w[0] >= w[1]), "largest first");
    assert!(d["faults"]["orders"].as_array().is_some());
    // The demo has fewer than 100 pending refunds: the count is exact.
    let pending = get(&ctx, "/order/refund/getList?status=pending&pageSize=100", Some(&t)).await;
    assert_eq!(d["pendingRefunds"].as_u64().unwrap() as usize, pending.data()["list"].as_array().unwrap().len());
    assert_eq!(d["pendingRefundsMore"], false);
    // Asset counts come from the asset lists' counters (seeded demo stations).
    let stations = d["assets"]["stations"].as_i64().unwrap();
    assert!(stations > 0, "{}", d["assets"]);
    let by_status: i64 = d["assets"]["stationsByStatus"].as_object().unwrap().values().map(|v| v.as_i64().unwrap()).sum();
    assert_eq!(by_status, stations, "stations by status add up");
    let connectors = d["assets"]["connectors"].as_i64().unwrap();
    let by_status: i64 = d["assets"]["connectorsByStatus"].as_object().unwrap().values().map(|v| v.as_i64().unwrap()).sum();
    assert!(connectors > 0);
    assert_eq!(by_status, connectors, "connectors by status add up");
    // Everyone signed in with read may see it; nobody without a token.
    assert_eq!(get(&ctx, "/index/dashboard", None).await.status, 401);
}
