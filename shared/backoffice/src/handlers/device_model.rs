//! The device model of an OCPP 2.0.1 charging station: staff read and
//! change its variables (GetVariables, SetVariables) and ask for its
//! reports (GetBaseReport, answered page by page in NotifyReport, kept in
//! the message log). Each route checks its body (a 400 naming the field,
//! nothing queued) and goes through the charger's command queue like the
//! other remote operations; its route and permission are in
//! `commands::routes`, its call in `commands::OPERATIONS_V201`.

use charging::pile::OcppVersion;
use envelope::{msg, ApiError};
use ocpp::v201;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::commands::{pile, queue_v201};
use crate::ctx::AppCtx;
use crate::domain::assets::piles::{self, Pile};
use crate::domain::chargers::device_model;
use crate::reply::Reply;
use crate::request::{field_invalid, Call};

/// A component's or variable's name and instance are CiString50.
const MAX_NAME: usize = 50;
/// An attribute's value is CiString1000 (SetVariables).
const MAX_VALUE: usize = 1000;
/// Variables per request (a station's ItemsPerMessage is often 20-50).
pub const MAX_VARIABLES: usize = 20;

/// The attribute of a variable (2.0.1's AttributeEnum; default Actual).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum AttributeType {
    Actual,
    Target,
    MinSet,
    MaxSet,
}

/// One variable of a component, as 2.0.1 names it.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ComponentVariableRef {
    #[serde(default)]
    #[schemars(length(min = 1, max = 50))]
    component: String,
    #[schemars(length(min = 1, max = 50))]
    component_instance: Option<String>,
    /// The EVSE the component belongs to (a connector of the pile); absent: the station.
    evse_id: Option<i64>,
    #[serde(default)]
    #[schemars(length(min = 1, max = 50))]
    variable: String,
    #[schemars(length(min = 1, max = 50))]
    variable_instance: Option<String>,
}

/// A variable and which of its attributes.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct VariableRef {
    #[serde(flatten)]
    names: ComponentVariableRef,
    attribute_type: Option<AttributeType>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GetVariablesBody {
    #[serde(default)]
    pile_id: String,
    #[serde(default)]
    #[schemars(length(min = 1, max = 20))]
    variables: Vec<VariableRef>,
}

/// A variable and the value to give it.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct VariableValue {
    #[serde(flatten)]
    target: VariableRef,
    #[serde(default)]
    #[schemars(length(max = 1000))]
    value: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SetVariablesBody {
    #[serde(default)]
    pile_id: String,
    #[serde(default)]
    #[schemars(length(min = 1, max = 20))]
    variables: Vec<VariableValue>,
}

/// What a base report holds (2.0.1's ReportBaseEnum).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum ReportBase {
    ConfigurationInventory,
    FullInventory,
    SummaryInventory,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BaseReportBody {
    #[serde(default)]
    pile_id: String,
    report_base: Option<ReportBase>,
}

/// The pile, which must speak 2.0.1 (a 1.6 pile has configuration keys).
pub(super) async fn station(ctx: &AppCtx, id: &str) -> Result<Pile, ApiError> {
    let p = pile(ctx, id).await?;
    if p.ocpp_version != OcppVersion::V201 {
        return Err(field_invalid("pileId", msg::chargers::variables::v16_pile(&p.code)));
    }
    Ok(p)
}

pub(super) fn name(field: &str, v: &str) -> Result<String, ApiError> {
    let v = v.trim();
    if v.is_empty() || v.chars().count() > MAX_NAME || !v.chars().all(|c| c.is_ascii_graphic()) {
        return Err(field_invalid(field, msg::chargers::variables::bad_name(MAX_NAME)));
    }
    Ok(v.to_string())
}

pub(super) fn optional_name(field: &str, v: Option<&str>) -> Result<Option<String>, ApiError> {
    v.map(str::trim).filter(|v| !v.is_empty()).map(|v| name(field, v)).transpose()
}

fn count<T>(items: &[T]) -> Result<(), ApiError> {
    if items.is_empty() || items.len() > MAX_VARIABLES {
        return Err(field_invalid("variables", msg::chargers::variables::count(MAX_VARIABLES)));
    }
    Ok(())
}

fn attribute(a: Option<AttributeType>) -> Option<v201::AttributeEnum> {
    a.map(|a| match a {
        AttributeType::Actual => v201::AttributeEnum::Actual,
        AttributeType::Target => v201::AttributeEnum::Target,
        AttributeType::MinSet => v201::AttributeEnum::MinSet,
        AttributeType::MaxSet => v201::AttributeEnum::MaxSet,
    })
}

/// An EVSE of the pile (each connector is one), as a component names it.
pub(super) fn evse(p: &Pile, field: &str, n: Option<i64>) -> Result<Option<v201::EVSE>, ApiError> {
    match n {
        Some(n) if n >= 1 && n <= i64::from(p.connector_count) => Ok(Some(v201::EVSE { custom_data: None, id: n, connector_id: None })),
        Some(n) => Err(field_invalid(field, msg::chargers::variables::no_such_evse(&p.code, &n, &p.connector_count))),
        None => Ok(None),
    }
}

/// The component and variable `v` names (`at`: its place in the body).
pub(super) fn target(p: &Pile, at: &str, v: &ComponentVariableRef) -> Result<(v201::Component, v201::Variable), ApiError> {
    let evse = evse(p, &format!("{at}.evseId"), v.evse_id)?;
    let component = v201::Component { custom_data: None, evse, name: name(&format!("{at}.component"), &v.component)?, instance: optional_name(&format!("{at}.componentInstance"), v.component_instance.as_deref())? };
    let variable = v201::Variable { custom_data: None, name: name(&format!("{at}.variable"), &v.variable)?, instance: optional_name(&format!("{at}.variableInstance"), v.variable_instance.as_deref())? };
    Ok((component, variable))
}

/// POST /charger/getVariables {pileId, variables: [{component, variable, ...}]}
pub(super) async fn get_variables(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: GetVariablesBody = call.req.payload()?;
    let p = station(ctx, &b.pile_id).await?;
    count(&b.variables)?;
    let mut get_variable_data = Vec::with_capacity(b.variables.len());
    for (i, v) in b.variables.iter().enumerate() {
        let (component, variable) = target(&p, &format!("variables[{i}]"), &v.names)?;
        get_variable_data.push(v201::GetVariableData { custom_data: None, attribute_type: attribute(v.attribute_type), component, variable });
    }
    queue_v201(ctx, &call, &p, &v201::GetVariablesRequest { custom_data: None, get_variable_data }).await
}

/// POST /charger/setVariables {pileId, variables: [{component, variable, value, ...}]}
///
/// The station's password (SecurityCtrlr.BasicAuthPassword) is refused:
/// it is set on the pile and stored hashed, never sent through here (the
/// command and the message log keep what is sent).
pub(super) async fn set_variables(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: SetVariablesBody = call.req.payload()?;
    let p = station(ctx, &b.pile_id).await?;
    count(&b.variables)?;
    let mut set_variable_data = Vec::with_capacity(b.variables.len());
    for (i, v) in b.variables.iter().enumerate() {
        let at = format!("variables[{i}]");
        let (component, variable) = target(&p, &at, &v.target.names)?;
        if component.name.eq_ignore_ascii_case("SecurityCtrlr") && variable.name.eq_ignore_ascii_case("BasicAuthPassword") {
            return Err(field_invalid(&format!("{at}.variable"), msg::chargers::variables::password()));
        }
        if v.value.chars().count() > MAX_VALUE {
            return Err(field_invalid(&format!("{at}.value"), msg::chargers::variables::bad_value(MAX_VALUE)));
        }
        set_variable_data.push(v201::SetVariableData { custom_data: None, attribute_type: attribute(v.target.attribute_type), attribute_value: v.value.clone(), component, variable });
    }
    queue_v201(ctx, &call, &p, &v201::SetVariablesRequest { custom_data: None, set_variable_data }).await
}

/// POST /charger/getBaseReport {pileId, reportBase}: the station answers,
/// then sends the report in NotifyReport pages (in the message log).
pub(super) async fn get_base_report(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: BaseReportBody = call.req.payload()?;
    let p = station(ctx, &b.pile_id).await?;
    let Some(base) = b.report_base else { return Err(field_invalid("reportBase", msg::request::required())) };
    let report_base = match base {
        ReportBase::ConfigurationInventory => v201::ReportBaseEnum::ConfigurationInventory,
        ReportBase::FullInventory => v201::ReportBaseEnum::FullInventory,
        ReportBase::SummaryInventory => v201::ReportBaseEnum::SummaryInventory,
    };
    let request_id = crate::domain::chargers::commands::next_request_id(ctx).await?;
    queue_v201(ctx, &call, &p, &v201::GetBaseReportRequest { custom_data: None, request_id, report_base }).await
}

/// How a display message is shown (2.0.1's MessagePriorityEnum).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum MessagePriority {
    AlwaysFront,
    InFront,
    NormalCycle,
}

impl From<MessagePriority> for v201::MessagePriorityEnum {
    fn from(p: MessagePriority) -> Self {
        match p {
            MessagePriority::AlwaysFront => v201::MessagePriorityEnum::AlwaysFront,
            MessagePriority::InFront => v201::MessagePriorityEnum::InFront,
            MessagePriority::NormalCycle => v201::MessagePriorityEnum::NormalCycle,
        }
    }
}

/// A message's text is at most 512 characters (MessageContent.content).
pub const MAX_DISPLAY_TEXT: usize = 512;

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DisplayMessageBody {
    #[serde(default)]
    pile_id: String,
    /// Plain text (UTF-8), shown on the station's screens.
    #[serde(default)]
    #[schemars(length(min = 1, max = 512))]
    message: String,
    /// Default NormalCycle.
    priority: Option<MessagePriority>,
    /// RFC 5646 language tag of the text, e.g. zh-CN (optional).
    #[schemars(length(max = 8))]
    language: Option<String>,
    /// Shown from / until (unix seconds; optional).
    start_at: Option<i64>,
    end_at: Option<i64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DisplayMessageIdBody {
    #[serde(default)]
    pile_id: String,
    /// The message's id (the setDisplayMessage command's `message.id`).
    message_id: Option<i64>,
}

/// POST /charger/setDisplayMessage {pileId, message, priority?, language?, startAt?, endAt?}:
/// a message on a 2.0.1 station's screens (a price notice, a closure);
/// the station answers Accepted or why not.
pub(super) async fn set_display_message(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: DisplayMessageBody = call.req.payload()?;
    let p = station(ctx, &b.pile_id).await?;
    let content = b.message.trim();
    if content.is_empty() {
        return Err(field_invalid("message", msg::request::required()));
    }
    if content.chars().count() > MAX_DISPLAY_TEXT {
        return Err(field_invalid("message", msg::chargers::variables::bad_value(MAX_DISPLAY_TEXT)));
    }
    let language = optional_name("language", b.language.as_deref())?;
    if language.as_ref().is_some_and(|l| l.len() > 8) {
        return Err(field_invalid("language", msg::chargers::variables::bad_name(8)));
    }
    if let (Some(a), Some(z)) = (b.start_at, b.end_at) {
        if z <= a {
            return Err(field_invalid("endAt", msg::chargers::display_message::end_before_start()));
        }
    }
    let priority = b.priority.unwrap_or(MessagePriority::NormalCycle).into();
    let message = v201::MessageInfo {
        custom_data: None,
        display: None,
        id: crate::domain::chargers::commands::next_request_id(ctx).await?,
        priority,
        state: None,
        start_date_time: b.start_at.map(ocpp::schema::DateTime::from_unix),
        end_date_time: b.end_at.map(ocpp::schema::DateTime::from_unix),
        transaction_id: None,
        message: v201::MessageContent { custom_data: None, format: v201::MessageFormatEnum::UTF8, language, content: content.to_string() },
    };
    queue_v201(ctx, &call, &p, &v201::SetDisplayMessageRequest { custom_data: None, message }).await
}

/// POST /charger/clearDisplayMessage {pileId, messageId}
pub(super) async fn clear_display_message(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: DisplayMessageIdBody = call.req.payload()?;
    let p = station(ctx, &b.pile_id).await?;
    let Some(id) = b.message_id.filter(|id| *id >= 0) else { return Err(field_invalid("messageId", msg::request::required())) };
    queue_v201(ctx, &call, &p, &v201::ClearDisplayMessageRequest { custom_data: None, id }).await
}

/// Which messages GetDisplayMessages asks for (2.0.1's MessageStateEnum).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum MessageState {
    Charging,
    Faulted,
    Idle,
    Unavailable,
}

impl From<MessageState> for v201::MessageStateEnum {
    fn from(s: MessageState) -> Self {
        match s {
            MessageState::Charging => v201::MessageStateEnum::Charging,
            MessageState::Faulted => v201::MessageStateEnum::Faulted,
            MessageState::Idle => v201::MessageStateEnum::Idle,
            MessageState::Unavailable => v201::MessageStateEnum::Unavailable,
        }
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DisplayMessagesQueryBody {
    #[serde(default)]
    pile_id: String,
    /// One message by its id; absent: all that match the rest.
    message_id: Option<u32>,
    priority: Option<MessagePriority>,
    /// Those shown while the station is in this state.
    state: Option<MessageState>,
}

/// POST /charger/getDisplayMessages {pileId, messageId?, priority?, state?}:
/// the station answers Accepted (the messages follow in
/// NotifyDisplayMessages, in the message log) or Unknown (none match).
pub(super) async fn get_display_messages(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: DisplayMessagesQueryBody = call.req.payload()?;
    let p = station(ctx, &b.pile_id).await?;
    let priority = b.priority.map(Into::into);
    let state = b.state.map(Into::into);
    let request_id = crate::domain::chargers::commands::next_request_id(ctx).await?;
    queue_v201(ctx, &call, &p, &v201::GetDisplayMessagesRequest { custom_data: None, id: b.message_id.map(|id| vec![i64::from(id)]), request_id, priority, state }).await
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeviceModelQuery {
    /// The pile's id.
    #[serde(deserialize_with = "crate::params::not_blank")]
    #[schemars(length(min = 1))]
    pile_id: String,
    /// Keeps the variables whose component or variable name holds this (any case).
    #[schemars(length(max = 50))]
    q: Option<String>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeviceModelView {
    pile_id: String,
    pile_code: String,
    /// Only 2.0.1 stations report a device model (a 1.6 pile's list is empty).
    ocpp_version: OcppVersion,
    /// By component, then variable.
    list: Vec<device_model::ReportedVariable>,
    total: usize,
    /// The monitors the station holds on its variables, as far as known
    /// (accepted SetVariableMonitoring, its NotifyMonitoringReport, less the
    /// cleared), by id; `q` filters them by name too.
    monitors: Vec<crate::domain::chargers::device_model::monitors::KeptMonitor>,
    /// The charging profiles the station reported holding
    /// (ReportChargingProfiles, after getChargingProfiles), by EVSE then id,
    /// each as last reported; not filtered by `q`.
    charging_profiles: Vec<crate::domain::chargers::device_model::profiles::KeptProfile>,
    /// What its monitors and hard-wired notifications reported (NotifyEvent):
    /// the latest 50 events, newest first; `q` filters them by name too.
    events: Vec<device_model::events::DeviceEvent>,
}

/// GET /charger/deviceModel?pileId=&q=
pub async fn reported(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: DeviceModelQuery = call.query()?;
    let filter = q.q.as_deref().map(str::trim).filter(|f| !f.is_empty());
    if filter.is_some_and(|f| f.chars().count() > MAX_NAME) {
        return Err(field_invalid("q", msg::chargers::variables::bad_value(MAX_NAME)));
    }
    let p = piles::get_pile(ctx, q.pile_id.trim()).await?;
    let kept = device_model::list(ctx, &p.id, filter).await?;
    let events = device_model::events::latest(ctx, &p.id, filter).await?;
    let list = kept.variables;
    Ok(Reply::data(DeviceModelView {
        total: list.len(),
        list,
        monitors: kept.monitors,
        charging_profiles: kept.profiles,
        events,
        ocpp_version: p.ocpp_version,
        pile_id: p.id,
        pile_code: p.code,
    }))
}
