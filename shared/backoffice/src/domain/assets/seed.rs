//! Writes the demo stations, piles, connectors and tariffs
//! ([`charging::demo::DemoData`]) through the same insert paths the
//! handlers use, so list entries, counters and unique codes are all there.

use charging::demo::DemoData;
use envelope::ApiError;

use super::piles::{self, Connector};
use super::stations::{self, Station};
use super::tariffs::{self, StoredTariff};
use crate::ctx::AppCtx;

const SEEDER: &str = charging::demo::DEMO_AUTHOR;

/// `charger_password` is what the demo's piles accept from the charge-point
/// simulator (the same for all: it is demo data).
pub async fn seed_assets(ctx: &AppCtx, demo: &DemoData, charger_password: &str) -> Result<(), ApiError> {
    let now = ctx.now();
    for t in &demo.tariffs {
        tariffs::write_new(ctx, &StoredTariff { template: t.clone(), updated_at: now, updated_by: SEEDER.into() }).await?;
    }
    for s in &demo.stations {
        // The pile inserts below count their station's piles and connectors up.
        let station = Station { pile_count: 0, connector_count: 0, ..s.clone() };
        stations::insert(ctx, &station).await?;
    }
    // One hash for all demo piles: they share the demo password anyway.
    let phc = crate::domain::chargers::secret::hash(charger_password).await?;
    for pile in &demo.piles {
        let conns: Vec<Connector> = demo.connectors.iter().filter(|c| c.pile_id == pile.id).cloned().collect();
        debug_assert!(conns.iter().all(|c| piles::parse_connector_id(&c.id) == Some((pile.id.as_str(), c.number))));
        piles::insert(ctx, pile, &conns, SEEDER).await?;
        crate::domain::chargers::secret::store_hash(ctx, &pile.id, &phc, SEEDER).await?;
    }
    Ok(())
}
