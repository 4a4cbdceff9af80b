//! The charging profiles a 2.0.1 station says it holds (ReportChargingProfiles,
//! the pages a GetChargingProfiles asks for): each one kept as the station
//! reported it, beside the device model and the monitors, in their
//! partition (the pile's device-model answer reads all three in one query).
//! A profile reported again (same EVSE, same id) replaces its record.
//!
//! | record | PK | SK |
//! |---|---|---|
//! | a reported charging profile | `DEVICEMODEL#{pileId}` | `PROFILE#{evseId:010}#{id:020}` |
//!
//! A profile the station drops later (it expired, a ClearChargingProfile,
//! a limit it set itself) stays until a report lists it again: its
//! `reportedAt` says when the station last said it held it.

use envelope::ApiError;
use ocpp::v201::ReportChargingProfilesRequest;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use store::{Key, TxOp};

use super::pk;
use crate::ctx::AppCtx;
use crate::domain::{to_item, StoreResultExt};

/// The sort keys of the reported profiles (variables are `VAR#`, monitors `MONITOR#`).
pub const SK_PREFIX: &str = "PROFILE#";

/// One charging profile a station reported.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeptProfile {
    /// The station's id of the profile (what clearChargingProfile takes).
    pub id: i64,
    /// The EVSE it is on (connector n of the pile); 0: the station as a whole.
    pub evse_id: i64,
    pub stack_level: i64,
    /// ChargingStationMaxProfile, TxDefaultProfile, TxProfile or ChargingStationExternalConstraints.
    pub purpose: String,
    /// Absolute, Recurring or Relative.
    pub kind: String,
    /// Daily or Weekly (a Recurring profile).
    pub recurrency_kind: Option<String>,
    /// Unix seconds.
    pub valid_from: Option<i64>,
    pub valid_to: Option<i64>,
    /// The transaction a TxProfile is of (the station's id).
    pub transaction_id: Option<String>,
    /// Who set it: CSO (the operator, through this CSMS), EMS, SO or Other.
    pub limit_source: String,
    /// Its schedules (1-3) as the station reported them.
    #[schemars(with = "Vec<serde_json::Map<String, Value>>")]
    pub schedules: Vec<Value>,
    /// The GetChargingProfiles request it answered.
    pub request_id: i64,
    /// When the station last reported it.
    pub reported_at: i64,
}

fn key(pile_id: &str, evse_id: i64, id: i64) -> Key {
    Key::new(pk(pile_id), format!("{SK_PREFIX}{:010}#{:020}", evse_id.max(0), id.max(0)))
}

/// The records one report's profiles make (pure: unit-tested).
pub fn of_report(report: &ReportChargingProfilesRequest, at: i64) -> Vec<KeptProfile> {
    report
        .charging_profile
        .iter()
        .map(|p| KeptProfile {
            id: p.id,
            evse_id: report.evse_id,
            stack_level: p.stack_level,
            purpose: p.charging_profile_purpose.as_str().to_string(),
            kind: p.charging_profile_kind.as_str().to_string(),
            recurrency_kind: p.recurrency_kind.as_ref().map(|k| k.as_str().to_string()),
            valid_from: p.valid_from.as_ref().map(|t| t.unix()),
            valid_to: p.valid_to.as_ref().map(|t| t.unix()),
            transaction_id: p.transaction_id.clone(),
            limit_source: report.charging_limit_source.as_str().to_string(),
            schedules: p.charging_schedule.iter().map(|s| serde_json::to_value(s).unwrap_or_default()).collect(),
            request_id: report.request_id,
            reported_at: at,
        })
        .collect()
}

/// One ReportChargingProfiles message: each profile it lists replaces its record.
pub async fn reported(ctx: &AppCtx, pile_id: &str, report: &ReportChargingProfilesRequest) -> Result<(), ApiError> {
    let mut by_key = std::collections::BTreeMap::new();
    for p in of_report(report, ctx.now()) {
        let k = key(pile_id, p.evse_id, p.id);
        by_key.insert(k.sk.clone(), TxOp::Put { item: to_item(&p, &[(store::PK, k.pk), (store::SK, k.sk)]), condition: None });
    }
    let mut ops: Vec<TxOp> = by_key.into_values().collect();
    while !ops.is_empty() {
        let n = ops.len().min(store::MAX_TRANSACT_OPS);
        ctx.store.transact(ops.drain(..n).collect()).await.api()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_report_keeps_each_profile_by_evse_and_id() {
        let report: ReportChargingProfilesRequest = ocpp::schema::parse(
            &json!({"requestId": 7, "chargingLimitSource": "CSO", "evseId": 2, "chargingProfile": [
                {"id": 12, "stackLevel": 1, "chargingProfilePurpose": "TxDefaultProfile", "chargingProfileKind": "Recurring", "recurrencyKind": "Daily", "validFrom": "2030-01-01T00:00:00Z",
                 "chargingSchedule": [{"id": 1, "chargingRateUnit": "W", "chargingSchedulePeriod": [{"startPeriod": 0, "limit": 11000.0}]}]}]}),
            ocpp::schema::Mode::Charger,
        )
        .expect("a report");
        let kept = of_report(&report, 99);
        assert_eq!(kept.len(), 1);
        let p = &kept[0];
        assert_eq!((p.id, p.evse_id, p.stack_level, p.purpose.as_str(), p.kind.as_str(), p.recurrency_kind.as_deref()), (12, 2, 1, "TxDefaultProfile", "Recurring", Some("Daily")));
        assert_eq!((p.valid_from, p.limit_source.as_str(), p.request_id, p.reported_at), (Some(1_893_456_000), "CSO", 7, 99));
        assert_eq!(p.schedules[0]["chargingSchedulePeriod"][0]["limit"], json!(11000.0));
        assert_eq!(key("p", 2, 12).sk, "PROFILE#0000000002#00000000000000000012");
        assert!(key("p", 0, 9).sk < key("p", 1, 1).sk && key("p", 1, 9).sk < key("p", 1, 10).sk);
    }
}
