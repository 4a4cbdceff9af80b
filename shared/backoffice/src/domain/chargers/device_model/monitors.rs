//! The monitors a 2.0.1 station holds on its device model's variables, as
//! far as the back office knows them: each one the station accepted from
//! SetVariableMonitoring (with the id it gave it), each one a
//! NotifyMonitoringReport lists (a monitor reported again replaces its
//! record), and none the station cleared (ClearVariableMonitoring Accepted,
//! or NotFound: it has no such monitor). They are kept beside the device
//! model, in its partition, so the pile's device-model page reads both at
//! once (one query) and the same functions may write them.
//!
//! | record | PK | SK |
//! |---|---|---|
//! | a monitor | `DEVICEMODEL#{pileId}` | `MONITOR#{id:020}` |
//!
//! A monitor the station drops on its own (a reset may clear the
//! non-persistent ones) stays until a report lists it again or it is
//! cleared: its `knownAt` says when the station last said it held it.

use envelope::ApiError;
use ocpp::v201::{
    ClearMonitoringStatusEnum, ClearVariableMonitoringResponse, Component, NotifyMonitoringReportRequest, SetMonitoringStatusEnum, SetVariableMonitoringRequest, SetVariableMonitoringResponse, Variable,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use store::{Key, TxOp};

use super::{pk, VariableAddress};
use crate::domain::chargers::commands::{Command, CommandStatus};
use crate::ctx::AppCtx;
use crate::domain::{to_item, StoreResultExt};

/// The sort keys of the monitors (the device model's variables are `VAR#`).
pub const SK_PREFIX: &str = "MONITOR#";

/// How the back office learnt of a monitor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum MonitorSource {
    /// Set through SetVariableMonitoring and accepted.
    Set,
    /// Listed in the station's NotifyMonitoringReport.
    Reported,
}

/// One monitor of one variable.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeptMonitor {
    /// The station's id of the monitor (what clearVariableMonitoring takes).
    pub id: i64,
    #[serde(flatten)]
    pub address: VariableAddress,
    /// UpperThreshold, LowerThreshold, Delta, Periodic or PeriodicClockAligned.
    #[serde(rename = "type")]
    pub kind: String,
    /// The threshold, the change that counts, or the period in seconds.
    pub value: f64,
    /// 0 (danger) to 9 (debug).
    pub severity: i64,
    /// Only while a transaction runs on the component.
    pub transaction: bool,
    pub source: MonitorSource,
    /// When the station last said it holds it (the answer's time, or the report's `generatedAt`).
    pub known_at: i64,
}

fn key(pile_id: &str, id: i64) -> Key {
    Key::new(pk(pile_id), format!("{SK_PREFIX}{id:020}"))
}

impl KeptMonitor {
    fn new(component: &Component, variable: &Variable, id: i64, watch: Watch, source: MonitorSource, known_at: i64) -> KeptMonitor {
        KeptMonitor {
            id,
            address: VariableAddress::of(component, variable),
            kind: watch.kind,
            value: watch.value,
            severity: watch.severity,
            transaction: watch.transaction,
            source,
            known_at,
        }
    }
}

/// What a monitor watches for.
struct Watch {
    kind: String,
    value: f64,
    severity: i64,
    transaction: bool,
}

/// Writes in transactions of the store's limit, one operation per record
/// (the later of two on one key: a transaction may not name a key twice).
async fn write(ctx: &AppCtx, ops: Vec<TxOp>) -> Result<(), ApiError> {
    let mut by_key = std::collections::BTreeMap::new();
    for op in ops {
        by_key.insert(op.key().sk, op);
    }
    let mut ops: Vec<TxOp> = by_key.into_values().collect();
    while !ops.is_empty() {
        let n = ops.len().min(store::MAX_TRANSACT_OPS);
        ctx.store.transact(ops.drain(..n).collect()).await.api()?;
    }
    Ok(())
}

fn put(pile_id: &str, m: &KeptMonitor) -> TxOp {
    let k = key(pile_id, m.id);
    TxOp::Put { item: to_item(m, &[(store::PK, k.pk), (store::SK, k.sk)]), condition: None }
}

/// One page of a NotifyMonitoringReport: each monitor it lists replaces its record.
pub async fn reported(ctx: &AppCtx, pile_id: &str, report: &NotifyMonitoringReportRequest) -> Result<(), ApiError> {
    let at = report.generated_at.unix();
    let mut kept = std::collections::BTreeMap::new();
    for d in report.monitor.iter().flatten() {
        for v in &d.variable_monitoring {
            let watch = Watch { kind: v.r#type.as_str().to_string(), value: v.value, severity: v.severity, transaction: v.transaction };
            kept.insert(v.id, KeptMonitor::new(&d.component, &d.variable, v.id, watch, MonitorSource::Reported, at));
        }
    }
    write(ctx, kept.values().map(|m| put(pile_id, m)).collect()).await
}

fn read<T: ocpp::schema::FromJson>(v: &Value) -> Result<T, ApiError> {
    ocpp::schema::parse(v, ocpp::schema::Mode::Charger).map_err(|e| {
        tracing::error!(problem = %e, "a stored monitoring call does not read back");
        ApiError::internal()
    })
}

/// The monitors an answered SetVariableMonitoring made (each accepted one
/// with the id the station gave it) or a ClearVariableMonitoring removed.
pub async fn command_ended(ctx: &AppCtx, c: &Command) -> Result<(), ApiError> {
    let Some(response) = c.response.as_ref().filter(|_| c.status == CommandStatus::Answered) else { return Ok(()) };
    let ops = match c.action.as_str() {
        "SetVariableMonitoring" => {
            let sent = read::<SetVariableMonitoringRequest>(&c.payload)?.set_monitoring_data;
            let mut used = vec![false; sent.len()];
            let mut ops = Vec::new();
            for r in read::<SetVariableMonitoringResponse>(response)?.set_monitoring_result {
                // The answer repeats each monitor's component, variable,
                // type and severity; its value is the one sent.
                let same = |d: &ocpp::v201::SetMonitoringData| d.component == r.component && d.variable == r.variable && d.r#type == r.r#type && d.severity == r.severity;
                let Some(i) = (0..sent.len()).find(|i| !used[*i] && same(&sent[*i])) else { continue };
                used[i] = true;
                let (Some(id), SetMonitoringStatusEnum::Accepted) = (r.id.or(sent[i].id), &r.status) else { continue };
                let d = &sent[i];
                let watch = Watch { kind: d.r#type.as_str().to_string(), value: d.value, severity: d.severity, transaction: d.transaction.unwrap_or(false) };
                ops.push(put(&c.pile_id, &KeptMonitor::new(&r.component, &r.variable, id, watch, MonitorSource::Set, ctx.now())));
            }
            ops
        }
        // Cleared, or the station has no such monitor: either way it holds none.
        "ClearVariableMonitoring" => read::<ClearVariableMonitoringResponse>(response)?
            .clear_monitoring_result
            .into_iter()
            .filter(|r| matches!(r.status, ClearMonitoringStatusEnum::Accepted | ClearMonitoringStatusEnum::NotFound))
            .map(|r| TxOp::Delete { key: key(&c.pile_id, r.id), condition: None })
            .collect(),
        _ => return Ok(()),
    };
    write(ctx, ops).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monitors_sort_by_id_and_apart_from_the_variables() {
        assert_eq!(key("p", 41).sk, "MONITOR#00000000000000000041");
        assert!(key("p", 9).sk < key("p", 10).sk);
        assert_eq!(key("p", 1).pk, pk("p"));
    }
}
