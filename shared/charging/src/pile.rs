//! The pile record: a charger as the operator registered it, and what it
//! is told when it boots.

use crate::connector::PileType;
use serde::{Deserialize, Serialize};

/// A pile as stored and as sent inside a pile's view (the demo data is
/// made of these too).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Pile {
    pub id: String,
    pub code: String,
    pub station_id: String,
    pub vendor: String,
    pub model: String,
    pub firmware_version: String,
    pub pile_type: PileType,
    pub rated_power_kw: u32,
    pub connector_count: u32,
    pub heartbeat_interval_secs: i64,
    /// Unix seconds; null until the pile reports.
    pub last_heartbeat: Option<i64>,
    /// What the charger is told at boot (an operator may hold a pile back).
    #[serde(default)]
    pub registration_status: RegistrationStatus,
    /// OCPP security profile: 0 none (trusted network), 1 Basic auth, 2 Basic auth over TLS,
    /// 3 TLS with a client certificate.
    #[serde(default = "default_security_profile")]
    #[schemars(range(min = 0, max = MAX_SECURITY_PROFILE))]
    pub security_profile: u8,
    /// The protocol the charger speaks: an OCPP version (its handshake
    /// must offer it) or a YKC (Yunkuaichong) version (its login must declare it).
    #[serde(default)]
    pub ocpp_version: OcppVersion,
    /// When the charger password was last set (never shown again); null = none set.
    #[serde(default)]
    pub password_set_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    pub updated_by: String,
    pub version: i64,
}

/// The answer a charger gets to its BootNotification (OCPP 1.6 RegistrationStatus).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum RegistrationStatus {
    #[default]
    Accepted,
    Pending,
    Rejected,
}

/// The protocols a pile may be registered for: OCPP-J over WebSocket, or
/// the YKC (Yunkuaichong) binary protocol over TCP. (The field keeps its first
/// name, `ocppVersion`, on the wire.)
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum OcppVersion {
    #[default]
    #[serde(rename = "1.6")]
    V16,
    #[serde(rename = "2.0.1")]
    V201,
    #[serde(rename = "ykc1.5")]
    Ykc15,
    #[serde(rename = "ykc1.6")]
    Ykc16,
}

impl OcppVersion {
    /// Whether the pile speaks YKC (a 14-digit pile number, its own TCP port).
    pub fn is_ykc(self) -> bool {
        matches!(self, OcppVersion::Ykc15 | OcppVersion::Ykc16)
    }
}

/// A YKC pile's number: 14 decimal digits (7 BCD bytes on the wire).
pub const YKC_PILE_NO_DIGITS: usize = 14;

/// Whether `code` can be a YKC pile's number.
pub fn is_ykc_pile_no(code: &str) -> bool {
    code.len() == YKC_PILE_NO_DIGITS && code.bytes().all(|b| b.is_ascii_digit())
}

pub const DEFAULT_SECURITY_PROFILE: u8 = 1;
/// The highest OCPP 1.6 security profile: TLS with client certificates.
pub const MAX_SECURITY_PROFILE: u8 = 3;

fn default_security_profile() -> u8 {
    DEFAULT_SECURITY_PROFILE
}
