//! The station record and its status.

use serde::{Deserialize, Serialize};

/// A station's life-cycle status. JSON: "planning" | "operating" |
/// "suspended" | "closed".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum StationStatus {
    Planning,
    Operating,
    Suspended,
    Closed,
}

/// A station as stored and as sent inside a station's view (the demo data
/// is made of these too).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Station {
    pub id: String,
    pub code: String,
    pub name: String,
    pub operator: String,
    pub province_code: String,
    pub city_code: String,
    pub district_code: Option<String>,
    pub address: String,
    pub lat: f64,
    pub lng: f64,
    /// Local-time periods "HH:MM-HH:MM" joined by commas, sorted by start
    /// (`charging::hours`): "00:00-24:00" = always open, an end before the
    /// start runs past midnight ("23:00-06:00").
    pub opening_hours: String,
    pub status: StationStatus,
    pub service_phone: String,
    /// What drivers pay the car park (the operator's occupancy fee is part
    /// of the tariff, so orders snapshot it with the prices).
    pub parking_info: String,
    #[serde(default)]
    pub photo_urls: Vec<String>,
    /// Tariff template in force; empty while none is assigned (planning).
    pub tariff_id: String,
    /// Maintained by pile writes (ADD in their transaction).
    pub pile_count: i64,
    pub connector_count: i64,
    pub created_at: i64,
    pub created_by: String,
    pub updated_at: i64,
    pub updated_by: String,
    pub version: i64,
}
