//! Monitoring of an OCPP 2.0.1 station's device model: staff set monitors
//! on variables (SetVariableMonitoring: a threshold, a delta or a period),
//! remove them (ClearVariableMonitoring) and ask which are set
//! (GetMonitoringReport, answered in NotifyMonitoringReport pages). A
//! monitor that trips makes the station send NotifyEvent, kept as the
//! pile's events. Each route checks its body (a 400 naming the field,
//! nothing queued) and goes through the charger's command queue; its
//! route and permission are in `commands::routes`, its call in
//! `commands::OPERATIONS_V201`.

use envelope::{msg, ApiError};
use ocpp::v201;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::commands::{ocpp_value, queue_v201};
use super::device_model::{evse, name, station, target, ComponentVariableRef};
use crate::ctx::AppCtx;
use crate::domain::chargers::commands::next_request_id;
use crate::reply::Reply;
use crate::request::{field_invalid, Call};

/// Monitors per request, as variables per GetVariables.
pub const MAX_MONITORS: usize = super::device_model::MAX_VARIABLES;
/// The lowest severity (debug); 0 is danger to life.
pub const MAX_SEVERITY: u8 = 9;
/// What a monitor's event is given when no severity is named: the
/// specification's default for any monitoring event (Alert).
pub const DEFAULT_SEVERITY: u8 = 5;

/// What a monitor watches for (2.0.1's MonitorEnum).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq)]
pub enum MonitorType {
    UpperThreshold,
    LowerThreshold,
    Delta,
    Periodic,
    PeriodicClockAligned,
}

/// Which kinds of monitor a report lists (2.0.1's MonitoringCriterionEnum).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum MonitoringCriterion {
    ThresholdMonitoring,
    DeltaMonitoring,
    PeriodicMonitoring,
}

/// One monitor on one variable.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MonitorSpec {
    #[serde(flatten)]
    target: ComponentVariableRef,
    #[serde(rename = "type")]
    kind: Option<MonitorType>,
    /// The threshold, the change that counts (Delta, above 0), or the
    /// interval in seconds (Periodic, PeriodicClockAligned: a whole number, 1 or more).
    value: Option<f64>,
    /// 0 (danger) to 9 (debug); default 5 (alert).
    #[schemars(range(min = 0, max = 9))]
    severity: Option<u8>,
    /// Only while a transaction runs on the component (default false).
    transaction: Option<bool>,
    /// Replaces the station's monitor of this id; absent: a new monitor.
    monitor_id: Option<i64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SetMonitoringBody {
    #[serde(default)]
    pile_id: String,
    #[serde(default)]
    #[schemars(length(min = 1, max = 20))]
    monitors: Vec<MonitorSpec>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClearMonitoringBody {
    #[serde(default)]
    pile_id: String,
    /// The station's ids of the monitors (SetVariableMonitoring's answer, or its monitoring report).
    #[serde(default)]
    #[schemars(length(min = 1, max = 20))]
    monitor_ids: Vec<i64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MonitoringReportBody {
    #[serde(default)]
    pile_id: String,
    /// The kinds of monitor to list; absent: all.
    #[schemars(length(min = 1, max = 3))]
    criteria: Option<Vec<MonitoringCriterion>>,
    /// Only the monitors of this component (and `variable`, and `evseId`).
    #[schemars(length(min = 1, max = 50))]
    component: Option<String>,
    evse_id: Option<i64>,
    #[schemars(length(min = 1, max = 50))]
    variable: Option<String>,
}

/// A monitor's value, as its type reads it (`at`: its place in the body).
fn monitor_value(at: &str, kind: MonitorType, value: Option<f64>) -> Result<f64, ApiError> {
    let field = format!("{at}.value");
    let Some(v) = value else { return Err(field_invalid(&field, msg::request::required())) };
    let ok = match kind {
        MonitorType::UpperThreshold | MonitorType::LowerThreshold => v.is_finite(),
        MonitorType::Delta => v.is_finite() && v > 0.0,
        MonitorType::Periodic | MonitorType::PeriodicClockAligned => v.is_finite() && v >= 1.0 && v.fract() == 0.0,
    };
    if !ok {
        return Err(field_invalid(&field, msg::chargers::monitoring::bad_value()));
    }
    Ok(v)
}

fn monitor(p: &crate::domain::assets::piles::Pile, at: &str, m: &MonitorSpec) -> Result<v201::SetMonitoringData, ApiError> {
    let (component, variable) = target(p, at, &m.target)?;
    let Some(kind) = m.kind else { return Err(field_invalid(&format!("{at}.type"), msg::request::required())) };
    let value = monitor_value(at, kind, m.value)?;
    let severity = m.severity.unwrap_or(DEFAULT_SEVERITY);
    if severity > MAX_SEVERITY {
        return Err(field_invalid(&format!("{at}.severity"), msg::chargers::monitoring::bad_severity(MAX_SEVERITY)));
    }
    if m.monitor_id.is_some_and(|id| id < 0) {
        return Err(field_invalid(&format!("{at}.monitorId"), msg::chargers::monitoring::bad_id()));
    }
    Ok(v201::SetMonitoringData { custom_data: None, id: m.monitor_id, transaction: m.transaction, value, r#type: ocpp_value(kind)?, severity: i64::from(severity), component, variable })
}

/// POST /charger/setVariableMonitoring {pileId, monitors: [{component, variable, type, value, severity?, ...}]}:
/// the station answers each monitor on its own (its id when accepted).
pub(super) async fn set_variable_monitoring(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: SetMonitoringBody = call.req.payload()?;
    let p = station(ctx, &b.pile_id).await?;
    if b.monitors.is_empty() || b.monitors.len() > MAX_MONITORS {
        return Err(field_invalid("monitors", msg::chargers::monitoring::count(MAX_MONITORS)));
    }
    let set_monitoring_data = b.monitors.iter().enumerate().map(|(i, m)| monitor(&p, &format!("monitors[{i}]"), m)).collect::<Result<Vec<_>, _>>()?;
    queue_v201(ctx, &call, &p, &v201::SetVariableMonitoringRequest { custom_data: None, set_monitoring_data }).await
}

/// POST /charger/clearVariableMonitoring {pileId, monitorIds}
pub(super) async fn clear_variable_monitoring(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: ClearMonitoringBody = call.req.payload()?;
    let p = station(ctx, &b.pile_id).await?;
    if b.monitor_ids.is_empty() || b.monitor_ids.len() > MAX_MONITORS {
        return Err(field_invalid("monitorIds", msg::chargers::monitoring::count(MAX_MONITORS)));
    }
    if b.monitor_ids.iter().any(|id| *id < 0) {
        return Err(field_invalid("monitorIds", msg::chargers::monitoring::bad_id()));
    }
    queue_v201(ctx, &call, &p, &v201::ClearVariableMonitoringRequest { custom_data: None, id: b.monitor_ids }).await
}

/// POST /charger/getMonitoringReport {pileId, criteria?, component?, evseId?, variable?}:
/// the station answers, then lists its monitors in NotifyMonitoringReport
/// pages (in the message log).
pub(super) async fn get_monitoring_report(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: MonitoringReportBody = call.req.payload()?;
    let p = station(ctx, &b.pile_id).await?;
    let monitoring_criteria = match b.criteria {
        Some(c) if c.is_empty() || c.len() > 3 => return Err(field_invalid("criteria", msg::chargers::monitoring::criteria())),
        Some(c) => Some(c.into_iter().map(ocpp_value).collect::<Result<Vec<v201::MonitoringCriterionEnum>, _>>()?),
        None => None,
    };
    let component = b.component.as_deref().map(str::trim).filter(|c| !c.is_empty());
    let variable = b.variable.as_deref().map(str::trim).filter(|v| !v.is_empty());
    let component_variable = match (component, variable) {
        (None, None) if b.evse_id.is_none() => None,
        (None, _) => return Err(field_invalid("component", msg::request::required())),
        (Some(c), v) => Some(vec![v201::ComponentVariable {
            custom_data: None,
            component: v201::Component { custom_data: None, evse: evse(&p, "evseId", b.evse_id)?, name: name("component", c)?, instance: None },
            variable: v.map(|v| name("variable", v)).transpose()?.map(|name| v201::Variable { custom_data: None, name, instance: None }),
        }]),
    };
    let request_id = next_request_id(ctx).await?;
    queue_v201(ctx, &call, &p, &v201::GetMonitoringReportRequest { custom_data: None, component_variable, request_id, monitoring_criteria }).await
}
