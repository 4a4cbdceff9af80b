//! Heartbeats, and the demo's stand-in for a charger link.
//!
//! A pile's online state is derived from its last heartbeat (see
//! the operations setting `offlineAfterIntervals`). Until a real charger link
//! (OCPP) exists nothing sends heartbeats, so a freshly seeded demo would
//! show every pile offline a minute and a half after start. In demo mode
//! the local gateway runs [`beat_live_piles`] on a timer: it plays the part
//! of the chargers that the demo data shows as connected, and nothing else.
//! It is never part of a Lambda, and the gateway says when it is running.

use charging::connector::ConnectorStatus;
use charging::demo::StationStatus;
use envelope::ApiError;
use serde_json::json;
use store::{Condition, UpdateAction};

use super::piles::{self, pile_key, Connector};
use super::stations::{self, Filter};
use crate::ctx::AppCtx;
use crate::domain::StoreResultExt;

/// Records a heartbeat of `pile_id` at `at` (what a charger link calls).
/// Not versioned: a heartbeat is not an edit and must never make an
/// operator's edit of the same pile fail. A pile deleted meanwhile stays
/// deleted (the update requires the record to exist).
pub async fn heartbeat(ctx: &AppCtx, pile_id: &str, at: i64) -> Result<(), ApiError> {
    ctx.store
        .update(&pile_key(pile_id), vec![UpdateAction::Set("lastHeartbeat".into(), json!(at))], Some(Condition::item_exists()))
        .await
        .api()
        .map(|_| ())
}

/// A pile the demo treats as connected: its station operates and at least
/// one of its connectors is not shown as offline (the demo data marks the
/// connectors of its silent piles offline; an operator's "disable" keeps a
/// pile connected, as a real charger would).
fn connected(station: StationStatus, connectors: &[Connector]) -> bool {
    station == StationStatus::Operating && connectors.iter().any(|c| c.status != ConnectorStatus::Offline)
}

/// Sends one heartbeat, now, for every connected pile; returns how many.
pub async fn beat_live_piles(ctx: &AppCtx) -> Result<usize, ApiError> {
    let now = ctx.now();
    let mut beaten = 0;
    let mut page_no = 1;
    loop {
        let (page, total) = stations::list(ctx, Filter::default(), page_no, 100).await?;
        for station in &page {
            for (pile, connectors) in piles::with_connectors(ctx, &station.id).await? {
                if connected(station.status, &connectors) {
                    heartbeat(ctx, &pile.id, now).await?;
                    beaten += 1;
                }
            }
        }
        if page.is_empty() || (page_no as u64) * 100 >= total {
            return Ok(beaten);
        }
        page_no += 1;
    }
}
