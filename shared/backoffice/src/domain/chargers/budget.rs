//! A station's power budget: the most the station's piles may draw
//! together, set by an operator in kW and turned into one
//! ChargePointMaxProfile per connected pile.
//!
//! The allocation ([`allocate`]) is water-filling: every connected pile
//! gets an equal share; a pile rated below its share gets its rating, and
//! what it leaves is shared equally among the others, until every pile has
//! its rating or the budget is used up. Shares are rounded down to 0.1 W,
//! so together they never exceed the budget.
//!
//! The profile ([`PROFILE_ID`], [`STACK_LEVEL`], connector 0, unit W) goes
//! through the command queue to each connected pile when the budget is set
//! or changed; when a pile of the station boots (`ocpp::Session` calls
//! [`pile_booted`] once the BootNotification's answer is out), the station
//! is shared again and the piles whose share changed, and the booted one,
//! are sent theirs. Removing the budget sends ClearChargingProfile by that
//! id to every pile that was sent a share. A pile that disconnects keeps
//! its share (it still holds the profile and may still be charging), so the
//! piles that remain are never given more than the budget allows.
//!
//! | record | PK | SK |
//! |---|---|---|
//! | budget (`maxPowerKw`, versioned) | `POWERBUDGET#{stationId}` | `BUDGET` |
//! | a pile's share sent (the command that carried it) | `POWERBUDGET#{stationId}` | `PILE#{pileId}` |

use envelope::{msg, ApiError};
use ocpp::schema::DateTime;
use ocpp::v16::{ChargingProfile, ChargingProfileKindType, ChargingProfilePurposeType, ChargingRateUnitType, ChargingSchedule, ChargingSchedulePeriod, ClearChargingProfileRequest, SetChargingProfileRequest};
use serde::{Deserialize, Serialize};
use store::{Condition, Key, Query, SortKey};

use super::commands::{self, Command};
use super::link::ChargerLink;
use crate::ctx::AppCtx;
use crate::domain::assets::piles::{self, Pile};
use crate::domain::assets::stations;
use crate::domain::{from_item, to_item, StoreResultExt};

/// The profile id the budget's profiles carry: the next one replaces the
/// last on the charger, and a clear by this id removes it and nothing the
/// operator set by hand (those default to 100 and up to 299).
pub const PROFILE_ID: i64 = 9000;
/// Above the default level 0 of a ChargePointMaxProfile set by hand (the
/// charger follows the highest level in force), and low enough for any
/// charger's ChargeProfileMaxStackLevel.
pub const STACK_LEVEL: i64 = 1;
/// A budget above this (100 MW) is a typo, not a station.
pub const MAX_KW: f64 = 100_000.0;
/// Who a share sent at a charger's boot is requested by.
pub const BY_BOOT: &str = "BootNotification";

pub fn pk(station_id: &str) -> String {
    format!("POWERBUDGET#{station_id}")
}

pub fn key(station_id: &str) -> Key {
    Key::new(pk(station_id), "BUDGET")
}

fn share_key(station_id: &str, pile_id: &str) -> Key {
    Key::new(pk(station_id), format!("PILE#{pile_id}"))
}

/// The budget as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PowerBudget {
    pub station_id: String,
    /// kW, one decimal at most; null: no budget (the piles' profiles were cleared).
    pub max_power_kw: Option<f64>,
    pub updated_at: i64,
    pub updated_by: String,
    pub version: i64,
}

/// The share last sent to one pile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PileShare {
    pub pile_id: String,
    /// W; null: the profile was cleared (the budget was removed).
    pub limit_w: Option<f64>,
    /// The SetChargingProfile (or ClearChargingProfile) that carried it.
    pub command_id: String,
    pub at: i64,
}

/// A budget as an operator may set it: at least 0, at most [`MAX_KW`], one
/// decimal at most (a 400 naming `maxPowerKw` otherwise).
pub fn check_kw(kw: f64) -> Result<f64, ApiError> {
    let bad = |problem| crate::request::field_invalid("maxPowerKw", problem);
    if !kw.is_finite() || kw < 0.0 {
        return Err(bad(msg::chargers::command::not_negative()));
    }
    if kw > MAX_KW {
        return Err(bad(msg::chargers::budget::too_high(MAX_KW)));
    }
    let tenths = (kw * 10.0).round();
    if (tenths - kw * 10.0).abs() > 1e-6 {
        return Err(bad(msg::chargers::command::one_decimal()));
    }
    Ok(tenths / 10.0)
}

/// `w` rounded down to 0.1 W (the 1.6 schema's multipleOf 0.1); the small
/// margin keeps a share that is a whole tenth from losing one to float noise.
fn tenth_below(w: f64) -> f64 {
    ((w * 10.0 + 1e-6).floor() / 10.0).max(0.0)
}

/// Shares `budget_w` among `piles` (id, rating in W; a rating of 0 is
/// unknown and caps nothing): water-filling, as the module says. The
/// shares come back in the order of `piles`.
pub fn allocate(budget_w: f64, piles: &[(String, f64)]) -> Vec<(String, f64)> {
    let cap = |i: usize| if piles[i].1 > 0.0 { piles[i].1 } else { f64::INFINITY };
    // Smallest rating first: each pile in turn takes its rating or an equal
    // part of what is left, whichever is less, so what a capped pile leaves
    // goes to the larger ones after it.
    let mut order: Vec<usize> = (0..piles.len()).collect();
    order.sort_by(|a, b| cap(*a).total_cmp(&cap(*b)));
    let mut left = if budget_w.is_finite() { budget_w.max(0.0) } else { 0.0 };
    let mut share = vec![0.0; piles.len()];
    for (k, &i) in order.iter().enumerate() {
        let fair = left / (order.len() - k) as f64;
        share[i] = cap(i).min(fair);
        left -= share[i];
    }
    piles.iter().zip(share).map(|((id, _), w)| (id.clone(), tenth_below(w))).collect()
}

/// The SetChargingProfile that limits a whole charger to `limit_w`.
pub fn profile_request(limit_w: f64, now: i64) -> SetChargingProfileRequest {
    SetChargingProfileRequest {
        connector_id: 0,
        cs_charging_profiles: ChargingProfile {
            charging_profile_id: PROFILE_ID,
            transaction_id: None,
            stack_level: STACK_LEVEL,
            charging_profile_purpose: ChargingProfilePurposeType::ChargePointMaxProfile,
            charging_profile_kind: ChargingProfileKindType::Absolute,
            recurrency_kind: None,
            valid_from: None,
            valid_to: None,
            charging_schedule: ChargingSchedule {
                duration: None,
                start_schedule: Some(DateTime::from_unix(now)),
                charging_rate_unit: ChargingRateUnitType::W,
                charging_schedule_period: vec![ChargingSchedulePeriod { start_period: 0, limit: limit_w, number_phases: None }],
                min_charging_rate: None,
            },
        },
    }
}

/// The ClearChargingProfile that removes the budget's profile.
pub fn clear_request() -> ClearChargingProfileRequest {
    ClearChargingProfileRequest { id: Some(PROFILE_ID), connector_id: None, charging_profile_purpose: None, stack_level: None }
}

pub async fn get(ctx: &AppCtx, station_id: &str) -> Result<Option<PowerBudget>, ApiError> {
    match ctx.store.get(&key(station_id)).await.api()? {
        Some(item) => Ok(Some(from_item(item)?)),
        None => Ok(None),
    }
}

/// The shares last sent to the station's piles.
pub async fn shares(ctx: &AppCtx, station_id: &str) -> Result<Vec<PileShare>, ApiError> {
    let mut out = Vec::new();
    let mut cursor = None;
    loop {
        let page = ctx.store.query(Query::partition(pk(station_id)).sort_key(SortKey::BeginsWith("PILE#".into())).after(cursor)).await.api()?;
        for item in page.items {
            out.push(from_item(item)?);
        }
        cursor = page.cursor;
        if cursor.is_none() {
            return Ok(out);
        }
    }
}

/// Whether a pile takes a share: its charger is connected and accepted.
fn takes_share(pile: &Pile, link: Option<&ChargerLink>) -> bool {
    pile.registration_status == charging::pile::RegistrationStatus::Accepted && link.is_some_and(|l| l.connected)
}

async fn send(ctx: &AppCtx, station_id: &str, pile_id: &str, limit_w: Option<f64>, by: &str) -> Result<Command, ApiError> {
    // A 2.0.1 station gets the same limit as a ChargingStationMaxProfile.
    let v201 = crate::domain::assets::piles::get_pile(ctx, pile_id).await?.ocpp_version == charging::pile::OcppVersion::V201;
    let c = match (limit_w, v201) {
        (Some(w), false) => commands::send(ctx, pile_id, &profile_request(w, ctx.now()), by).await?,
        (None, false) => commands::send(ctx, pile_id, &clear_request(), by).await?,
        (Some(w), true) => commands::send_v201(ctx, pile_id, &super::smart_v201::set_request(&profile_request(w, ctx.now()), None), by).await?,
        (None, true) => commands::send_v201(ctx, pile_id, &super::smart_v201::clear_request(&clear_request()), by).await?,
    };
    let k = share_key(station_id, pile_id);
    let share = PileShare { pile_id: pile_id.into(), limit_w, command_id: c.id.clone(), at: ctx.now() };
    ctx.store.put(to_item(&share, &[(store::PK, k.pk), (store::SK, k.sk)]), None).await.api()?;
    Ok(c)
}

/// Sends the station's piles what the budget now says: each connected
/// pile its share (all of them when `only` is None; else the piles whose
/// share changed and the pile `only`), or, with no budget, a clear to each
/// pile that holds a share (and, at a boot, to `only` again when its
/// clear was not answered).
async fn distribute(ctx: &AppCtx, station_id: &str, only: Option<&str>, by: &str) -> Result<(), ApiError> {
    let budget = get(ctx, station_id).await?.and_then(|b| b.max_power_kw);
    let sent = shares(ctx, station_id).await?;
    let last = |pile_id: &str| sent.iter().find(|s| s.pile_id == pile_id);
    let piles = piles::with_links(ctx, station_id).await?;
    match budget {
        Some(kw) => {
            let live: Vec<(String, f64)> = piles.iter().filter(|(p, l, _)| takes_share(p, l.as_ref())).map(|(p, _, _)| (p.id.clone(), p.rated_power_kw as f64 * 1000.0)).collect();
            for (pile_id, w) in allocate(kw * 1000.0, &live) {
                let changed = last(&pile_id).map(|s| s.limit_w) != Some(Some(w));
                if only.is_none() || only == Some(pile_id.as_str()) || changed {
                    send(ctx, station_id, &pile_id, Some(w), by).await?;
                }
            }
        }
        None => {
            for s in &sent {
                let resend = match only {
                    None => s.limit_w.is_some(),
                    Some(booted) => s.pile_id == booted && (s.limit_w.is_some() || !cleared(ctx, &s.command_id).await?),
                };
                if resend {
                    send(ctx, station_id, &s.pile_id, None, by).await?;
                }
            }
        }
    }
    Ok(())
}

/// Whether a clear was answered by the charger (any answer but a CALLERROR:
/// a charger that holds no such profile answers Unknown).
async fn cleared(ctx: &AppCtx, command_id: &str) -> Result<bool, ApiError> {
    Ok(commands::get(ctx, command_id).await?.is_some_and(|c| c.status == commands::CommandStatus::Answered))
}

/// Sets (`Some`) or removes (`None`) the station's budget, saved on
/// `expected` (0: none saved yet; 409 when someone saved since), then
/// sends every connected pile its share (or the clear).
pub async fn set(ctx: &AppCtx, station_id: &str, expected: i64, max_power_kw: Option<f64>, by: &str) -> Result<PowerBudget, ApiError> {
    let kw = max_power_kw.map(check_kw).transpose()?;
    stations::get(ctx, station_id).await?;
    let budget = PowerBudget { station_id: station_id.into(), max_power_kw: kw, updated_at: ctx.now(), updated_by: by.into(), version: expected + 1 };
    let cond = if expected == 0 { Condition::item_absent() } else { Condition::version_is(expected) };
    let k = key(station_id);
    ctx.store.put(to_item(&budget, &[(store::PK, k.pk), (store::SK, k.sk)]), Some(cond)).await.map_err(crate::domain::store_error)?;
    distribute(ctx, station_id, None, by).await?;
    Ok(budget)
}

/// A pile's charger booted (its answer is out): the station is shared again
/// when it has a budget (or the pile's clear is sent again when it has
/// none and the last did not reach the charger).
pub async fn pile_booted(ctx: &AppCtx, pile_id: &str) -> Result<(), ApiError> {
    let pile = piles::get_pile(ctx, pile_id).await?;
    if pile.registration_status != charging::pile::RegistrationStatus::Accepted {
        return Ok(());
    }
    let has_budget = get(ctx, &pile.station_id).await?.is_some_and(|b| b.max_power_kw.is_some());
    if !has_budget && ctx.store.get(&share_key(&pile.station_id, pile_id)).await.api()?.is_none() {
        // Neither a budget nor a profile of one: nothing to read further.
        return Ok(());
    }
    distribute(ctx, &pile.station_id, Some(pile_id), BY_BOOT).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn piles(r: &[(&str, f64)]) -> Vec<(String, f64)> {
        r.iter().map(|(id, w)| (id.to_string(), *w)).collect()
    }

    fn shares_of(budget: f64, r: &[(&str, f64)]) -> Vec<f64> {
        allocate(budget, &piles(r)).into_iter().map(|(_, w)| w).collect()
    }

    #[test]
    fn no_pile_gets_nothing_and_one_pile_gets_the_budget_up_to_its_rating() {
        assert!(allocate(100_000.0, &[]).is_empty());
        assert_eq!(shares_of(50_000.0, &[("a", 120_000.0)]), vec![50_000.0]);
        assert_eq!(shares_of(500_000.0, &[("a", 120_000.0)]), vec![120_000.0], "never above the rating");
    }

    #[test]
    fn equal_shares_rounded_down_to_a_tenth_never_exceed_the_budget() {
        let s = shares_of(100_000.0, &[("a", 60_000.0), ("b", 60_000.0), ("c", 60_000.0)]);
        assert_eq!(s, vec![33_333.3; 3]);
        assert!(s.iter().sum::<f64>() <= 100_000.0);
        assert_eq!(shares_of(100_000.0, &[("a", 60_000.0), ("b", 60_000.0)]), vec![50_000.0, 50_000.0]);
    }

    #[test]
    fn what_a_pile_rated_below_its_share_leaves_goes_to_the_others() {
        // 90 kW among 7, 60 and 60 kW: 7 capped, 41.5 each to the others.
        assert_eq!(shares_of(90_000.0, &[("a", 60_000.0), ("b", 7_000.0), ("c", 60_000.0)]), vec![41_500.0, 7_000.0, 41_500.0]);
        // Two capped in turn: 22 + 30, the rest (148) to the 200 kW pile.
        assert_eq!(shares_of(200_000.0, &[("big", 200_000.0), ("s", 22_000.0), ("m", 30_000.0)]), vec![148_000.0, 22_000.0, 30_000.0]);
        // A rating of 0 is unknown: it caps nothing.
        assert_eq!(shares_of(100_000.0, &[("x", 0.0), ("y", 20_000.0)]), vec![80_000.0, 20_000.0]);
    }

    #[test]
    fn all_capped_each_gets_its_rating_and_the_rest_is_unused() {
        assert_eq!(shares_of(1_000_000.0, &[("a", 60_000.0), ("b", 7_000.0)]), vec![60_000.0, 7_000.0]);
    }

    #[test]
    fn a_budget_of_zero_stops_every_pile() {
        assert_eq!(shares_of(0.0, &[("a", 60_000.0), ("b", 7_000.0)]), vec![0.0, 0.0]);
        assert_eq!(shares_of(-5.0, &[("a", 60_000.0)]), vec![0.0], "never negative");
    }

    #[test]
    fn a_budget_is_checked_before_it_is_kept() {
        assert_eq!(check_kw(0.0).ok(), Some(0.0));
        assert_eq!(check_kw(120.5).ok(), Some(120.5));
        assert_eq!(check_kw(100_000.0).ok(), Some(100_000.0));
        for (kw, en, zh) in [(-1.0, "must not be negative", "不能为负数"), (f64::NAN, "must not be negative", "不能为负数"), (100_000.1, "at most", "不能超过"), (12.25, "one decimal", "一位小数")] {
            let e = check_kw(kw).err().expect("refused");
            assert_eq!(e.code, 400);
            assert!(e.msg.en.starts_with("maxPowerKw: ") && e.msg.en.contains(en), "{kw}: {}", e.msg.en);
            assert!(e.msg.zh.starts_with("maxPowerKw：") && e.msg.zh.contains(zh), "{kw}: {}", e.msg.zh);
            assert_eq!(e.data.as_ref().map(|d| d["field"].clone()), Some(json!("maxPowerKw")), "the form can mark the field");
        }
    }

    #[test]
    fn the_profile_is_the_whole_chargers_with_the_fixed_id_and_level() {
        let p = serde_json::to_value(profile_request(33_333.3, 1_790_000_000)).unwrap();
        assert_eq!(p["connectorId"], 0);
        let cp = &p["csChargingProfiles"];
        assert_eq!((cp["chargingProfileId"].as_i64(), cp["stackLevel"].as_i64()), (Some(PROFILE_ID), Some(STACK_LEVEL)));
        assert_eq!(cp["chargingProfilePurpose"], "ChargePointMaxProfile");
        assert_eq!(cp["chargingSchedule"]["chargingRateUnit"], "W");
        assert_eq!(cp["chargingSchedule"]["chargingSchedulePeriod"], json!([{"startPeriod": 0, "limit": 33_333.3}]));
        assert_eq!(cp["chargingSchedule"]["startSchedule"], "2026-09-21T14:13:20Z");
        assert_eq!(serde_json::to_value(clear_request()).unwrap(), json!({"id": PROFILE_ID}));
    }
}
