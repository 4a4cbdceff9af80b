//! Smart charging for OCPP 2.0.1 stations: the charging profiles the
//! routes and the station power budget build (as OCPP 1.6 types, checked
//! once) in 2.0.1's shapes. What differs: the purpose
//! ChargePointMaxProfile is ChargingStationMaxProfile, a profile holds a
//! list of schedules (each with an id), a TxProfile names the station's
//! own transaction id, and a connector is an EVSE (0: the station).

use ocpp::schema::{self, FromJson, Mode};
use ocpp::{v16, v201};
use serde_json::Value;

/// A 1.6 enumeration value as the 2.0.1 enumeration of the same words.
fn same<T: FromJson>(value: &str) -> T {
    // Charger mode keeps a value the schema does not list; the queue's
    // strict check of the whole call refuses it (never expected: the
    // words of these enumerations are the same in both versions).
    schema::parse(&Value::String(value.to_string()), Mode::Charger).expect("an enumeration reads any string")
}

fn purpose(p: &v16::ChargingProfilePurposeType) -> v201::ChargingProfilePurposeEnum {
    match p {
        v16::ChargingProfilePurposeType::ChargePointMaxProfile => v201::ChargingProfilePurposeEnum::ChargingStationMaxProfile,
        other => same(other.as_str()),
    }
}

/// The 2.0.1 profile of a 1.6 one; `transaction`: the station's own id of
/// the transaction a TxProfile is for.
pub fn profile(p: &v16::ChargingProfile, transaction: Option<String>) -> v201::ChargingProfile {
    let s = &p.charging_schedule;
    v201::ChargingProfile {
        custom_data: None,
        id: p.charging_profile_id,
        stack_level: p.stack_level,
        charging_profile_purpose: purpose(&p.charging_profile_purpose),
        charging_profile_kind: same(p.charging_profile_kind.as_str()),
        recurrency_kind: p.recurrency_kind.as_ref().map(|r| same(r.as_str())),
        valid_from: p.valid_from.clone(),
        valid_to: p.valid_to.clone(),
        charging_schedule: vec![v201::ChargingSchedule {
            custom_data: None,
            id: 1,
            start_schedule: s.start_schedule.clone(),
            duration: s.duration,
            charging_rate_unit: same(s.charging_rate_unit.as_str()),
            charging_schedule_period: s
                .charging_schedule_period
                .iter()
                .map(|x| v201::ChargingSchedulePeriod { custom_data: None, start_period: x.start_period, limit: x.limit, number_phases: x.number_phases, phase_to_use: None })
                .collect(),
            min_charging_rate: s.min_charging_rate,
            sales_tariff: None,
        }],
        transaction_id: transaction,
    }
}

/// SetChargingProfile for EVSE `connector` (0: the station).
pub fn set_request(r: &v16::SetChargingProfileRequest, transaction: Option<String>) -> v201::SetChargingProfileRequest {
    v201::SetChargingProfileRequest { custom_data: None, evse_id: r.connector_id, charging_profile: profile(&r.cs_charging_profiles, transaction) }
}

/// ClearChargingProfile by id, or by EVSE, purpose and stack level.
pub fn clear_request(r: &v16::ClearChargingProfileRequest) -> v201::ClearChargingProfileRequest {
    let by_criteria = r.connector_id.is_some() || r.charging_profile_purpose.is_some() || r.stack_level.is_some();
    let charging_profile_criteria = by_criteria.then(|| v201::ClearChargingProfile { custom_data: None, evse_id: r.connector_id, charging_profile_purpose: r.charging_profile_purpose.as_ref().map(purpose), stack_level: r.stack_level });
    v201::ClearChargingProfileRequest { custom_data: None, charging_profile_id: r.id, charging_profile_criteria }
}

/// GetCompositeSchedule of EVSE `connector` (0: the station).
pub fn composite_request(r: &v16::GetCompositeScheduleRequest) -> v201::GetCompositeScheduleRequest {
    v201::GetCompositeScheduleRequest { custom_data: None, duration: r.duration, charging_rate_unit: r.charging_rate_unit.as_ref().map(|u| same(u.as_str())), evse_id: r.connector_id }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_station_limit_becomes_a_charging_station_max_profile_that_holds_to_the_201_schema() {
        let one = super::super::budget::profile_request(11_000.0, 1_800_000_000);
        let r = set_request(&one, None);
        assert_eq!(r.charging_profile.charging_profile_purpose, v201::ChargingProfilePurposeEnum::ChargingStationMaxProfile);
        assert_eq!(r.charging_profile.charging_schedule[0].charging_schedule_period[0].limit, 11_000.0);
        let payload = serde_json::to_value(&r).unwrap();
        v201::Action::SetChargingProfile.check_request(&payload, Mode::Strict).expect("a valid 2.0.1 SetChargingProfile");
        let clear = clear_request(&super::super::budget::clear_request());
        assert_eq!((clear.charging_profile_id, clear.charging_profile_criteria.is_none()), (Some(one.cs_charging_profiles.charging_profile_id), true));
        v201::Action::ClearChargingProfile.check_request(&serde_json::to_value(&clear).unwrap(), Mode::Strict).expect("a valid 2.0.1 ClearChargingProfile");
    }
}
