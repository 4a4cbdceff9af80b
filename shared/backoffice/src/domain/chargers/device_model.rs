//! A 2.0.1 station's device model as it last reported it: each variable of
//! each component (NotifyReport, the pages a GetBaseReport asks for), with
//! its attributes (value, mutability) and characteristics (unit, type,
//! limits). A variable reported again replaces its record; the latest
//! answers to GetVariables and accepted SetVariables update its value.
//!
//! | record | PK | SK |
//! |---|---|---|
//! | a reported variable | `DEVICEMODEL#{pileId}` | `VAR#{component}#{instance}#{evse}#{connector}#{variable}#{instance}` |
//! | a monitor on a variable (`monitors`) | `DEVICEMODEL#{pileId}` | `MONITOR#{id:020}` |
//! | a charging profile it reported (`profiles`) | `DEVICEMODEL#{pileId}` | `PROFILE#{evseId:010}#{id:020}` |
//! | an event it notified (`events`) | `DEVICEMODEL#{pileId}#EVENTS` | `{at:012}#{eventId}` |
//!
//! Names are escaped in the sort key (`%23` for `#`), so the records list
//! by component, then variable.

pub mod events;
pub mod monitors;
pub mod profiles;

use std::collections::BTreeMap;

use envelope::ApiError;
use ocpp::v201::{
    AttributeEnum, Component, GetVariableStatusEnum, GetVariablesResponse, NotifyReportRequest, ReportData, SetVariableStatusEnum, SetVariablesRequest, SetVariablesResponse, Variable,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use store::{Key, Query, TxOp};

use crate::ctx::AppCtx;
use crate::domain::{from_item, to_item, StoreResultExt};

pub fn pk(pile_id: &str) -> String {
    format!("DEVICEMODEL#{pile_id}")
}

/// One attribute of a variable (2.0.1's Actual, Target, MinSet, MaxSet).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Attribute {
    #[serde(rename = "type")]
    pub kind: String,
    pub value: Option<String>,
    /// ReadOnly, WriteOnly or ReadWrite.
    pub mutability: Option<String>,
}

/// Which variable a record is of: the component (with its instance and
/// EVSE) and the variable (with its instance). Flattened into each record
/// that names one (a reported variable, a monitor, an event), so each
/// carries the same six fields in the store and on the wire.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct VariableAddress {
    pub component: String,
    pub component_instance: Option<String>,
    /// The EVSE the component belongs to (connector n of the pile); null: the station.
    pub evse_id: Option<i64>,
    pub connector_id: Option<i64>,
    pub variable: String,
    pub variable_instance: Option<String>,
}

impl VariableAddress {
    pub fn of(component: &Component, variable: &Variable) -> VariableAddress {
        VariableAddress::named(&VariableName::of(component, variable))
    }

    fn named(n: &VariableName<'_>) -> VariableAddress {
        VariableAddress {
            component: n.component.into(),
            component_instance: n.component_instance.map(String::from),
            evse_id: n.evse_id,
            connector_id: n.connector_id,
            variable: n.variable.into(),
            variable_instance: n.variable_instance.map(String::from),
        }
    }

    pub fn name(&self) -> VariableName<'_> {
        VariableName {
            component: &self.component,
            component_instance: self.component_instance.as_deref(),
            evse_id: self.evse_id,
            connector_id: self.connector_id,
            variable: &self.variable,
            variable_instance: self.variable_instance.as_deref(),
        }
    }

    /// Whether its component or variable name holds `wanted` (lower case):
    /// the one name filter of the device model's lists.
    pub fn matches(&self, wanted: &str) -> bool {
        self.component.to_lowercase().contains(wanted) || self.variable.to_lowercase().contains(wanted)
    }

    /// The station's password (its value is never kept).
    pub fn is_password(&self) -> bool {
        is_password(&self.component, &self.variable)
    }
}

/// A variable of a component, as the station reported it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportedVariable {
    #[serde(flatten)]
    pub address: VariableAddress,
    pub attributes: Vec<Attribute>,
    pub unit: Option<String>,
    /// string, decimal, integer, dateTime, boolean, OptionList, SequenceList, MemberList.
    pub data_type: Option<String>,
    pub min_limit: Option<f64>,
    pub max_limit: Option<f64>,
    /// The allowed values of a list type, comma-separated.
    pub values_list: Option<String>,
    /// When the station last said so (its report's `generatedAt`, or the answer's time).
    pub reported_at: i64,
}

/// Which variable: a component (with its instance and EVSE) and a variable (with its instance).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariableName<'a> {
    pub component: &'a str,
    pub component_instance: Option<&'a str>,
    pub evse_id: Option<i64>,
    pub connector_id: Option<i64>,
    pub variable: &'a str,
    pub variable_instance: Option<&'a str>,
}

/// The station's password (SecurityCtrlr.BasicAuthPassword): its record
/// never holds a value, whatever a station reports or answers.
pub(super) fn is_password(component: &str, variable: &str) -> bool {
    let (c, v) = super::commands::BASIC_AUTH_PASSWORD;
    component.eq_ignore_ascii_case(c) && variable.eq_ignore_ascii_case(v)
}

fn escaped(part: &str) -> String {
    part.replace('%', "%25").replace('#', "%23")
}

fn key(pile_id: &str, n: &VariableName<'_>) -> Key {
    let number = |v: Option<i64>| v.map(|v| v.to_string()).unwrap_or_default();
    let sk = format!(
        "VAR#{}#{}#{}#{}#{}#{}",
        escaped(n.component),
        escaped(n.component_instance.unwrap_or_default()),
        number(n.evse_id),
        number(n.connector_id),
        escaped(n.variable),
        escaped(n.variable_instance.unwrap_or_default()),
    );
    Key::new(pk(pile_id), sk)
}

impl<'a> VariableName<'a> {
    pub fn of(component: &'a Component, variable: &'a Variable) -> VariableName<'a> {
        let evse = component.evse.as_ref();
        VariableName {
            component: &component.name,
            component_instance: component.instance.as_deref(),
            evse_id: evse.map(|e| e.id),
            connector_id: evse.and_then(|e| e.connector_id),
            variable: &variable.name,
            variable_instance: variable.instance.as_deref(),
        }
    }
}

impl ReportedVariable {
    fn of(d: &ReportData, at: i64) -> ReportedVariable {
        let characteristics = d.variable_characteristics.as_ref();
        ReportedVariable {
            attributes: d
                .variable_attribute
                .iter()
                .map(|a| Attribute {
                    kind: a.r#type.as_ref().map_or("Actual", |t| t.as_str()).to_string(),
                    value: a.value.clone(),
                    mutability: a.mutability.as_ref().map(|m| m.as_str().to_string()),
                })
                .collect(),
            unit: characteristics.and_then(|c| c.unit.clone()),
            data_type: characteristics.map(|c| c.data_type.as_str().to_string()),
            min_limit: characteristics.and_then(|c| c.min_limit),
            max_limit: characteristics.and_then(|c| c.max_limit),
            values_list: characteristics.and_then(|c| c.values_list.clone()),
            reported_at: at,
            ..ReportedVariable::unreported(&VariableName::of(&d.component, &d.variable))
        }
    }

    /// A variable known by name only, before any report or answer of it.
    fn unreported(n: &VariableName<'_>) -> ReportedVariable {
        ReportedVariable {
            address: VariableAddress::named(n),
            attributes: Vec::new(),
            unit: None,
            data_type: None,
            min_limit: None,
            max_limit: None,
            values_list: None,
            reported_at: 0,
        }
    }
}

/// One page of a NotifyReport: each variable it holds replaces its record
/// (a page naming one twice keeps the later).
pub async fn reported(ctx: &AppCtx, pile_id: &str, report: &NotifyReportRequest) -> Result<(), ApiError> {
    let at = report.generated_at.unix();
    let mut items = BTreeMap::new();
    for d in report.report_data.iter().flatten() {
        let mut v = ReportedVariable::of(d, at);
        if v.address.is_password() {
            v.attributes.iter_mut().for_each(|a| a.value = None);
        }
        let k = key(pile_id, &v.address.name());
        items.insert(k.sk.clone(), to_item(&v, &[(store::PK, k.pk), (store::SK, k.sk)]));
    }
    write(ctx, items.into_values().collect()).await
}

/// Puts in transactions of the store's limit: the station's ItemsPerMessage
/// bounds a page, and each record stands alone (no page is half a record).
pub(super) async fn write(ctx: &AppCtx, mut items: Vec<store::Item>) -> Result<(), ApiError> {
    while !items.is_empty() {
        let n = items.len().min(store::MAX_TRANSACT_OPS);
        let chunk = items.drain(..n).map(|item| TxOp::Put { item, condition: None }).collect();
        ctx.store.transact(chunk).await.api()?;
    }
    Ok(())
}

/// A value the station answered (GetVariables) or accepted (SetVariables):
/// the attribute's value in the variable's record, made if the station
/// never reported the variable.
pub async fn value_known(ctx: &AppCtx, pile_id: &str, name: &VariableName<'_>, attribute: &str, value: &str) -> Result<(), ApiError> {
    if is_password(name.component, name.variable) {
        return Ok(());
    }
    let k = key(pile_id, name);
    let mut v = match ctx.store.get(&k).await.api()? {
        Some(item) => from_item::<ReportedVariable>(item)?,
        None => ReportedVariable::unreported(name),
    };
    match v.attributes.iter_mut().find(|a| a.kind == attribute) {
        Some(a) => a.value = Some(value.into()),
        None => v.attributes.push(Attribute { kind: attribute.into(), value: Some(value.into()), mutability: None }),
    }
    v.reported_at = ctx.now();
    ctx.store.put(to_item(&v, &[(store::PK, k.pk), (store::SK, k.sk)]), None).await.api()
}

/// The values a GetVariables answer or an accepted SetVariables gives,
/// read from the command's request and answer as 2.0.1 types.
pub async fn command_ended(ctx: &AppCtx, c: &super::commands::Command) -> Result<(), ApiError> {
    let Some(response) = c.response.as_ref().filter(|_| c.status == super::commands::CommandStatus::Answered) else { return Ok(()) };
    fn read<T: ocpp::schema::FromJson>(v: &Value) -> Result<T, ApiError> {
        ocpp::schema::parse(v, ocpp::schema::Mode::Charger).map_err(|e| {
            tracing::error!(problem = %e, "a stored device-model call does not read back");
            ApiError::internal()
        })
    }
    let known: Vec<(Component, Variable, Option<AttributeEnum>, String)> = match c.action.as_str() {
        "GetVariables" => read::<GetVariablesResponse>(response)?
            .get_variable_result
            .into_iter()
            .filter(|r| r.attribute_status == GetVariableStatusEnum::Accepted)
            .filter_map(|r| Some((r.component, r.variable, r.attribute_type, r.attribute_value?)))
            .collect(),
        // An accepted change: the value is the one sent for that variable.
        "SetVariables" => {
            let sent = read::<SetVariablesRequest>(&c.payload)?.set_variable_data;
            read::<SetVariablesResponse>(response)?
                .set_variable_result
                .into_iter()
                .filter(|r| r.attribute_status == SetVariableStatusEnum::Accepted)
                .filter_map(|r| {
                    let d = sent.iter().find(|d| d.component == r.component && d.variable == r.variable && d.attribute_type == r.attribute_type)?;
                    Some((r.component, r.variable, r.attribute_type, d.attribute_value.clone()))
                })
                .collect()
        }
        _ => return Ok(()),
    };
    for (component, variable, attribute, value) in &known {
        let attribute = attribute.as_ref().map_or("Actual", |a| a.as_str());
        value_known(ctx, &c.pile_id, &VariableName::of(component, variable), attribute, value).await?;
    }
    Ok(())
}

/// The pile's device model as kept: its variables and the monitors on them.
#[derive(Debug, Default)]
pub struct KeptModel {
    /// By component, then variable.
    pub variables: Vec<ReportedVariable>,
    /// By the station's monitor id.
    pub monitors: Vec<monitors::KeptMonitor>,
    /// The charging profiles it reported, by EVSE, then id.
    pub profiles: Vec<profiles::KeptProfile>,
}

/// The pile's device model and monitors (one partition); `filter` keeps
/// those whose component or variable name holds it (any case).
pub async fn list(ctx: &AppCtx, pile_id: &str, filter: Option<&str>) -> Result<KeptModel, ApiError> {
    let wanted = filter.map(str::to_lowercase).filter(|f| !f.is_empty());
    let mut out = KeptModel::default();
    let mut cursor = None;
    loop {
        let page = ctx.store.query(Query::partition(pk(pile_id)).after(cursor)).await.api()?;
        for item in page.items {
            let sk = item.get(store::SK).and_then(Value::as_str).unwrap_or_default();
            if sk.starts_with(profiles::SK_PREFIX) {
                // Not filtered by name: a profile has no component or variable.
                out.profiles.push(from_item(item)?);
                continue;
            }
            let monitor = sk.starts_with(monitors::SK_PREFIX);
            if monitor {
                let m: monitors::KeptMonitor = from_item(item)?;
                if wanted.as_ref().is_none_or(|w| m.address.matches(w)) {
                    out.monitors.push(m);
                }
                continue;
            }
            let v: ReportedVariable = from_item(item)?;
            if wanted.as_ref().is_none_or(|w| v.address.matches(w)) {
                out.variables.push(v);
            }
        }
        cursor = page.cursor;
        if cursor.is_none() {
            return Ok(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_the_separator_keep_their_own_keys() {
        let n = |component, variable| VariableName { component, component_instance: None, evse_id: None, connector_id: None, variable, variable_instance: None };
        assert_ne!(key("p", &n("A#B", "C")).sk, key("p", &n("A", "B#C")).sk);
        assert_eq!(key("p", &n("OCPPCommCtrlr", "HeartbeatInterval")).sk, "VAR#OCPPCommCtrlr####HeartbeatInterval#");
        let on_evse = VariableName { evse_id: Some(2), connector_id: Some(1), ..n("Connector", "Available") };
        assert_eq!(key("p", &on_evse).sk, "VAR#Connector##2#1#Available#");
    }
}
