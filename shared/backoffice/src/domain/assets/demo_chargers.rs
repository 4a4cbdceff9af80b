//! Which demo piles the charge-point simulator plays. In demo mode the
//! local gateway runs the simulator (`gateway::simulate`) against its own
//! charger link for the piles the demo data shows as connected, so the
//! demo's online states, statuses and new orders come through the real
//! OCPP link. It is never part of a Lambda, and the gateway says when it
//! is running.

use charging::connector::ConnectorStatus;
use charging::station::StationStatus;
use envelope::ApiError;

use super::piles::{self, Connector};
use super::stations::{self, Filter};
use crate::ctx::AppCtx;

/// A pile the demo treats as connected: its station operates and at least
/// one of its connectors is not shown as offline (the demo data marks the
/// connectors of its silent piles offline; an operator's "disable" keeps a
/// pile connected, as a real charger would).
fn connected(station: StationStatus, connectors: &[Connector]) -> bool {
    station == StationStatus::Operating && connectors.iter().any(|c| c.status != ConnectorStatus::Offline)
}

/// The codes (charge point ids) of the demo's connected piles, with their
/// number of connectors.
pub async fn live_piles(ctx: &AppCtx) -> Result<Vec<(String, u32)>, ApiError> {
    let mut out = Vec::new();
    let mut page_no = 1;
    loop {
        let (page, total) = stations::list(ctx, Filter::default(), page_no, 100).await?;
        for station in &page {
            for (pile, connectors) in piles::with_connectors(ctx, &station.id).await? {
                if connected(station.status, &connectors) {
                    out.push((pile.code.clone(), pile.connector_count));
                }
            }
        }
        if page.is_empty() || (page_no as u64) * 100 >= total {
            return Ok(out);
        }
        page_no += 1;
    }
}
