//! A station's power budget (`domain::chargers::budget`): an operator sets
//! it in kW; each connected pile is sent its share as a
//! ChargePointMaxProfile, and the station page shows, per pile, the share
//! sent and what the charger made of it.

use envelope::{msg, ApiError};
use permission::{SYSTEM_READ, SYSTEM_WRITE};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ctx::AppCtx;
use crate::domain::assets::{piles, stations};
use crate::domain::chargers::budget::{self, PileShare};
use crate::domain::chargers::commands::{self, Command, CommandStatus};
use crate::params::IdQuery;
use crate::reply::Reply;
use crate::request::Call;
use crate::routes::{route, Access::Permission, Route};

/// What these routes touch in the table (their functions' IAM policies,
/// see `crate::iam`): the budget and the shares sent (their own
/// partition), the station, its piles with their link records; sending a
/// share is a command (the command, the pile's queue and slot, the message
/// log).
pub const KEYS: crate::iam::KeyUse = {
    use crate::iam::families::*;
    crate::iam::KeyUse::new(&[STATION, PILES_BY_STATION, COMMAND_QUEUE], &[POWER_BUDGET, PILE, COMMAND, COMMAND_SLOT, MESSAGE_LOG])
};

pub fn routes() -> Vec<Route> {
    vec![
        route!(GET "/station/powerBudget" => "station_power_budget", Permission(SYSTEM_READ), unaudited, "A station's power budget and, per pile, the share sent to its charger (ChargePointMaxProfile) and the charger's answer", power_budget, query = IdQuery, data = PowerBudgetView; errors = &[404]),
        route!(POST "/station/setPowerBudget" => "station_set_power_budget", Permission(SYSTEM_WRITE), audited, "Set or remove a station's power budget (kW, version checked): each connected pile is sent its share as a ChargePointMaxProfile, or the profile is cleared", set_power_budget, body = PowerBudgetBody, data = PowerBudgetView; errors = &[404, 409]),
    ]
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PowerBudgetBody {
    #[serde(default)]
    station_id: String,
    /// The budget's version as read (0 when the station has none yet).
    #[serde(default)]
    version: i64,
    /// kW, 0-100000, one decimal at most; null (or absent) removes the
    /// budget and clears the piles' profiles.
    #[schemars(range(min = 0, max = 100000))]
    max_power_kw: Option<f64>,
}

/// What the charger made of the last share (or clear) sent to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum ShareState {
    /// Queued or sent, no answer yet.
    Pending,
    /// The charger accepted it (a clear: or held no such profile).
    Done,
    /// The charger refused it (its answer, or a CALLERROR).
    Rejected,
    /// Not delivered or not answered: the charger was offline, its
    /// connection closed, or it did not answer in time.
    Offline,
}

fn state_of(c: &Command) -> ShareState {
    match c.status {
        CommandStatus::Queued | CommandStatus::Sent => ShareState::Pending,
        CommandStatus::Answered => {
            let status = c.response.as_ref().and_then(|r| r.get("status")).and_then(|s| s.as_str()).unwrap_or_default();
            let clear = c.action == "ClearChargingProfile";
            if status == "Accepted" || (clear && status == "Unknown") {
                ShareState::Done
            } else {
                ShareState::Rejected
            }
        }
        CommandStatus::CallError => ShareState::Rejected,
        CommandStatus::Offline | CommandStatus::ConnectionClosed | CommandStatus::Timeout => ShareState::Offline,
    }
}

/// One pile of the station and the share last sent to it.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PileShareRow {
    pub pile_id: String,
    pub code: String,
    pub rated_power_kw: u32,
    /// The charger is connected (and accepted): it takes a share.
    pub connected: bool,
    /// The share last sent (W); null: none sent, or cleared.
    pub limit_w: Option<f64>,
    /// The last SetChargingProfile (or ClearChargingProfile) sent for the budget.
    pub command: Option<Command>,
    /// What the charger made of it (null: nothing sent).
    pub state: Option<ShareState>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PowerBudgetView {
    pub station_id: String,
    /// kW; null: no budget.
    pub max_power_kw: Option<f64>,
    /// 0 until a budget is first saved (send it back to save).
    pub version: i64,
    pub updated_at: Option<i64>,
    pub updated_by: Option<String>,
    /// The budget's profile id on the chargers.
    pub profile_id: i64,
    pub piles: Vec<PileShareRow>,
}

async fn view(ctx: &AppCtx, station_id: &str) -> Result<PowerBudgetView, ApiError> {
    let b = budget::get(ctx, station_id).await?;
    let shares = budget::shares(ctx, station_id).await?;
    let mut rows = Vec::new();
    for (p, link, _) in piles::with_links(ctx, station_id).await? {
        let share: Option<&PileShare> = shares.iter().find(|s| s.pile_id == p.id);
        let command = match share {
            Some(s) => commands::get(ctx, &s.command_id).await?,
            None => None,
        };
        rows.push(PileShareRow {
            connected: p.registration_status == charging::pile::RegistrationStatus::Accepted && link.is_some_and(|l| l.connected),
            limit_w: share.and_then(|s| s.limit_w),
            state: command.as_ref().map(state_of),
            command,
            pile_id: p.id,
            code: p.code,
            rated_power_kw: p.rated_power_kw,
        });
    }
    Ok(PowerBudgetView {
        station_id: station_id.into(),
        max_power_kw: b.as_ref().and_then(|b| b.max_power_kw),
        version: b.as_ref().map_or(0, |b| b.version),
        updated_at: b.as_ref().map(|b| b.updated_at),
        updated_by: b.map(|b| b.updated_by),
        profile_id: budget::PROFILE_ID,
        piles: rows,
    })
}

/// GET /station/powerBudget?id=
async fn power_budget(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let IdQuery { id } = call.query()?;
    stations::get(ctx, &id).await?;
    Ok(Reply::data(view(ctx, &id).await?))
}

/// POST /station/setPowerBudget {stationId, version, maxPowerKw}
async fn set_power_budget(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: PowerBudgetBody = call.req.payload()?;
    let station_id = b.station_id.trim();
    if station_id.is_empty() {
        return Err(crate::request::field_invalid("stationId", msg::chargers::budget::station_required()));
    }
    if b.version < 0 {
        return Err(crate::request::field_invalid("version", msg::chargers::budget::bad_version()));
    }
    let by = call.caller()?.username().to_string();
    let saved = budget::set(ctx, station_id, b.version, b.max_power_kw, &by).await?;
    let words = match saved.max_power_kw {
        Some(kw) => msg::chargers::budget::saved(kw),
        None => msg::chargers::budget::removed(),
    };
    Ok(Reply::data_with_msg(view(ctx, station_id).await?, words))
}
