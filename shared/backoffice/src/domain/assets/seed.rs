//! Writes the demo stations, piles, connectors and tariffs
//! ([`charging::demo::DemoData`]) through the same insert paths the
//! handlers use, so list entries, counters and unique codes are all there.

use charging::demo::DemoData;
use envelope::ApiError;

use super::piles::{self, Connector, Pile};
use super::stations::{self, Station};
use super::tariffs::{self, StoredTariff};
use crate::ctx::AppCtx;

const SEEDER: &str = "admin";

/// `charger_password` is what the demo's piles accept from the charge-point
/// simulator (the same for all: it is demo data).
pub async fn seed_assets(ctx: &AppCtx, demo: &DemoData, charger_password: &str) -> Result<(), ApiError> {
    let now = ctx.now();
    for t in &demo.tariffs {
        tariffs::write_new(ctx, &StoredTariff { template: t.clone(), updated_at: now, updated_by: SEEDER.into() }).await?;
    }
    for s in &demo.stations {
        let station = Station {
            id: s.id.clone(),
            code: s.code.clone(),
            name: s.name.clone(),
            operator: s.operator.clone(),
            province_code: s.province_code.clone(),
            city_code: s.city_code.clone(),
            district_code: s.district_code.clone(),
            address: s.address.clone(),
            lat: s.lat,
            lng: s.lng,
            opening_hours: s.opening_hours.clone(),
            status: s.status,
            service_phone: s.service_phone.clone(),
            parking_info: "充电车辆免费停车2小时，超出按停车场标准收费".into(),
            photo_urls: s.photo_urls.clone(),
            tariff_id: s.tariff_id.clone(),
            // Counted up by the pile inserts below.
            pile_count: 0,
            connector_count: 0,
            created_at: s.created_at,
            created_by: s.created_by.clone(),
            updated_at: s.created_at,
            updated_by: s.created_by.clone(),
            version: 1,
        };
        stations::insert(ctx, &station).await?;
    }
    for p in &demo.piles {
        let pile = Pile {
            id: p.id.clone(),
            code: p.code.clone(),
            station_id: p.station_id.clone(),
            vendor: p.vendor.clone(),
            model: p.model.clone(),
            firmware_version: p.firmware_version.clone(),
            pile_type: p.pile_type,
            rated_power_kw: p.rated_power_kw,
            connector_count: p.connector_count,
            heartbeat_interval_secs: p.heartbeat_interval_secs,
            last_heartbeat: p.last_heartbeat,
            registration_status: Default::default(),
            security_profile: super::piles::DEFAULT_SECURITY_PROFILE,
            password_set_at: None,
            created_at: now,
            updated_at: now,
            updated_by: SEEDER.into(),
            version: 1,
        };
        let conns: Vec<Connector> = demo
            .connectors
            .iter()
            .filter(|c| c.pile_id == p.id)
            .map(|c| Connector {
                id: c.id.clone(),
                pile_id: c.pile_id.clone(),
                pile_code: p.code.clone(),
                station_id: c.station_id.clone(),
                number: c.number,
                pile_type: p.pile_type,
                standard: c.standard,
                max_power_kw: c.max_power_kw,
                qr_code: c.qr_code.clone(),
                status: c.status,
                fault_code: c.fault_code.clone(),
                status_since: c.status_since,
                reported_at: None,
                updated_at: now,
                version: 1,
            })
            .collect();
        debug_assert!(conns.iter().all(|c| piles::parse_connector_id(&c.id) == Some((p.id.as_str(), c.number))));
        piles::insert(ctx, &pile, &conns, SEEDER).await?;
        crate::domain::chargers::secret::write(ctx, &pile.id, charger_password, SEEDER).await?;
    }
    Ok(())
}
