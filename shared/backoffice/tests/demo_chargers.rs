//! The demo's chargers: the simulator plays the connected demo piles and
//! nothing else; a charger's messages keep its pile online, never recreate
//! a deleted pile, and the offline window is the operations setting.

mod common;

use backoffice::domain::assets::piles::{self, is_pile_online, Pile};
use backoffice::domain::assets::demo_chargers::live_piles;
use backoffice::domain::chargers::link::seen as heartbeat;
use backoffice::domain::assets::stations::{self, Filter};
use backoffice::domain::operations::OperationSettings;
use backoffice::AppCtx;
use charging::connector::ConnectorStatus;
use charging::station::StationStatus;
use common::*;

/// Every stored pile with its station's status and whether the demo shows
/// it connected (some connector not offline).
async fn all_piles(ctx: &AppCtx) -> Vec<(Pile, StationStatus, bool)> {
    let (list, total) = stations::list(ctx, Filter::default(), 1, 100).await.unwrap();
    assert!(total <= 100, "one page holds the demo stations");
    let mut out = Vec::new();
    for s in list {
        for (p, connectors) in piles::with_connectors(ctx, &s.id).await.unwrap() {
            let shown_connected = connectors.iter().any(|c| c.status != ConnectorStatus::Offline);
            out.push((p, s.status, shown_connected));
        }
    }
    out
}

#[tokio::test]
async fn the_simulator_plays_the_connected_demo_piles_and_nothing_else() {
    let ctx = product().await;
    ctx.clock.freeze();
    // Ten minutes without a charger link: every pile has gone silent.
    ctx.clock.advance(600);
    let now = ctx.now();
    let before = all_piles(&ctx).await;
    assert!(before.len() > 20, "the demo has piles");
    assert!(before.iter().all(|(p, _, _)| !is_pile_online(p, now, &OperationSettings::default())), "no pile can be online without a charger");

    let live = live_piles(&ctx).await.unwrap();
    let expected: Vec<(String, u32)> =
        before.iter().filter(|(_, st, connected)| *st == StationStatus::Operating && *connected).map(|(p, _, _)| (p.code.clone(), p.connector_count)).collect();
    assert_eq!(live, expected);
    assert!(!live.is_empty() && live.len() < before.len(), "some piles are connected, some silent: {} of {}", live.len(), before.len());
    // What a connected charger's messages do: its pile is online, and a
    // charger's message is not an edit (versions untouched).
    for (p, _, _) in &before {
        if live.iter().any(|(code, _)| *code == p.code) {
            heartbeat(&ctx, &p.id, now).await.unwrap();
        }
    }
    for ((b, st, connected), (a, _, _)) in before.iter().zip(&all_piles(&ctx).await) {
        let should = *st == StationStatus::Operating && *connected;
        assert_eq!(is_pile_online(a, now, &OperationSettings::default()), should, "pile {} (station {st:?}, connected {connected})", a.id);
        assert_eq!((b.id.as_str(), b.version), (a.id.as_str(), a.version));
    }
}

#[tokio::test]
async fn a_heartbeat_never_recreates_a_deleted_pile() {
    let ctx = product().await;
    let key = piles::pile_key("no-such-pile");
    // A message of a charger whose pile was deleted meanwhile changes nothing.
    heartbeat(&ctx, "no-such-pile", ctx.now()).await.unwrap();
    assert!(ctx.store.get(&key).await.unwrap().is_none(), "the update must not create a partial pile");
}

#[tokio::test]
async fn the_offline_window_is_the_operations_setting() {
    let ctx = product().await;
    ctx.clock.freeze();
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let (pile, _, _) = all_piles(&ctx).await.into_iter().next().unwrap();
    let interval = pile.heartbeat_interval_secs;
    // Silent for four intervals: offline with the default window of three.
    heartbeat(&ctx, &pile.id, ctx.now() - 4 * interval).await.unwrap();
    let shown = |ctx: std::sync::Arc<AppCtx>, admin: String, station: String, id: String| async move {
        let a = get(&ctx, &format!("/pile/getList?stationId={station}"), Some(&admin)).await;
        assert_eq!(a.code(), 200, "{}", a.body);
        let p = a.data()["list"].as_array().unwrap().iter().find(|p| p["id"] == id.as_str()).unwrap().clone();
        (p["online"].as_bool().unwrap(), p["offlineAfterSecs"].as_i64().unwrap())
    };
    let look = || shown(ctx.clone(), admin.clone(), pile.station_id.clone(), pile.id.clone());
    assert_eq!(look().await, (false, 3 * interval));

    let saved = post(&ctx, "/operationSettings/doEdit", Some(&admin), serde_json::json!({"offlineAfterIntervals": 5, "stuckAfterHours": 12, "version": 0})).await;
    assert_eq!(saved.code(), 200, "{}", saved.body);
    assert_eq!(look().await, (true, 5 * interval), "a wider window takes the pile back online at once");
    let refreshed = piles::with_connectors(&ctx, &pile.station_id).await.unwrap();
    let settings = backoffice::domain::operations::current(&ctx).await.unwrap();
    assert!(is_pile_online(&refreshed.iter().find(|(p, _)| p.id == pile.id).unwrap().0, ctx.now(), &settings));
}
