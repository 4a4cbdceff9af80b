//! Remote operations: staff act on a connected charger (OCPP 1.6 calls from
//! the central system). Each route checks its input (a 400 naming the field,
//! nothing queued), queues the call and answers the command at once
//! (queued / sent / offline); the page follows it with `/charger/command`
//! until the charger's answer, a CALLERROR, the 30 s timeout or offline.
//! Who may do what is the route table's permission: everyday operations
//! need write:system (Admin, Editor), the ones that change how a charger
//! works need configure:charger (Admin).

use envelope::{ApiError, Text};
use permission::{CHARGER_CONFIGURE, SYSTEM_READ, SYSTEM_WRITE};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::ctx::AppCtx;
use crate::domain::assets::piles::{self, Pile};
use crate::domain::cards;
use crate::domain::chargers::commands::{self, Command};
use crate::domain::chargers::sessions;
use crate::domain::orders;
use crate::reply::Reply;
use crate::request::Call;
use crate::routes::{route, Access::Permission, Route};

pub fn routes() -> Vec<Route> {
    vec![
        route!(POST "/charger/remoteStart" => "charger_remote_start", Permission(SYSTEM_WRITE), true, "Start charging on a connector for a card (RemoteStartTransaction, optional power limit)", remote_start, body = RemoteStartBody, data = Command; errors = &[404]),
        route!(POST "/charger/remoteStop" => "charger_remote_stop", Permission(SYSTEM_WRITE), true, "Stop a running session (RemoteStopTransaction) by order or transaction", remote_stop, body = RemoteStopBody, data = Command; errors = &[404]),
        route!(POST "/charger/unlock" => "charger_unlock", Permission(SYSTEM_WRITE), true, "Unlock a connector (UnlockConnector)", unlock, body = ConnectorBody, data = Command; errors = &[404]),
        route!(POST "/charger/availability" => "charger_availability", Permission(SYSTEM_WRITE), true, "Make a connector or the whole charger (connector 0) operative or inoperative (ChangeAvailability)", availability, body = AvailabilityBody, data = Command; errors = &[404]),
        route!(POST "/charger/trigger" => "charger_trigger", Permission(SYSTEM_WRITE), true, "Ask the charger to send a message now (TriggerMessage)", trigger, body = TriggerBody, data = Command; errors = &[404]),
        route!(POST "/charger/reset" => "charger_reset", Permission(CHARGER_CONFIGURE), true, "Reset a charger, soft or hard (Reset)", reset, body = ResetBody, data = Command; errors = &[404]),
        route!(POST "/charger/getConfiguration" => "charger_get_configuration", Permission(CHARGER_CONFIGURE), true, "Read the charger's configuration keys (GetConfiguration)", get_configuration, body = GetConfigurationBody, data = Command; errors = &[404]),
        route!(POST "/charger/changeConfiguration" => "charger_change_configuration", Permission(CHARGER_CONFIGURE), true, "Change a configuration key (ChangeConfiguration)", change_configuration, body = ChangeConfigurationBody, data = Command; errors = &[404]),
        route!(POST "/charger/clearCache" => "charger_clear_cache", Permission(CHARGER_CONFIGURE), true, "Clear the charger's authorization cache (ClearCache)", clear_cache, body = PileBody, data = Command; errors = &[404]),
        route!(POST "/charger/dataTransfer" => "charger_data_transfer", Permission(CHARGER_CONFIGURE), true, "Send a vendor-specific DataTransfer", data_transfer, body = DataTransferBody, data = Command; errors = &[404]),
        route!(GET "/charger/commands" => "charger_commands", Permission(SYSTEM_READ), false, "A charger's remote operations, newest first, with their state and answers", command_list, query = CommandListQuery, data = CommandList; errors = &[404]),
        route!(GET "/charger/command" => "charger_command", Permission(SYSTEM_READ), false, "One remote operation's state and answer (poll until it ends)", command_get, query = crate::params::IdQuery, data = Command; errors = &[404]),
    ]
}

fn bad(field: &str, en: impl Into<String>, zh: impl Into<String>) -> ApiError {
    ApiError::bad_request(Text::new(format!("{field}: {}", en.into()), format!("{field}：{}", zh.into())))
}

fn by(call: &Call) -> Result<String, ApiError> {
    Ok(call.caller()?.username().to_string())
}

async fn pile(ctx: &AppCtx, id: &str) -> Result<Pile, ApiError> {
    if id.trim().is_empty() {
        return Err(bad("pileId", "is required", "不能为空"));
    }
    piles::get_pile(ctx, id.trim()).await
}

/// A connector number of the pile (`allow_zero`: 0 = the whole charger).
fn connector(p: &Pile, n: Option<i64>, allow_zero: bool) -> Result<u32, ApiError> {
    let min = if allow_zero { 0 } else { 1 };
    match n {
        Some(n) if n >= min && n <= p.connector_count as i64 => Ok(n as u32),
        Some(n) => Err(bad("connectorId", format!("pile {} has connectors 1-{} (got {n})", p.code, p.connector_count), format!("充电桩{}只有第1-{}枪（收到{n}）", p.code, p.connector_count))),
        None => Err(bad("connectorId", "is required", "不能为空")),
    }
}

async fn queue(ctx: &AppCtx, call: &Call, p: &Pile, action: &str, payload: Value) -> Result<Reply, ApiError> {
    let c = commands::submit(ctx, &p.id, action, payload, &by(call)?).await?;
    let msg = match c.status {
        commands::CommandStatus::Offline => Text::new("the charger is offline: nothing was sent", "充电桩离线：指令未发送"),
        _ => Text::new("sent to the charger; its answer follows", "已发送至充电桩，等待应答"),
    };
    Ok(Reply::data_with_msg(c, msg))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PileBody {
    #[serde(default)]
    pile_id: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RemoteStartBody {
    #[serde(default)]
    pile_id: String,
    connector_id: Option<i64>,
    #[serde(default)]
    #[schemars(length(min = 1, max = 20))]
    id_tag: String,
    /// Optional power limit for this session (W), sent as a TxProfile.
    #[schemars(range(min = 1, max = 1_000_000))]
    limit_w: Option<f64>,
}

/// POST /charger/remoteStart {pileId, connectorId, idTag, limitW?}
async fn remote_start(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: RemoteStartBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let n = connector(&p, b.connector_id, false)?;
    let tag = b.id_tag.trim();
    if cards::get(ctx, tag).await?.is_none() {
        return Err(bad("idTag", format!("no charging card {tag}"), format!("充电卡{tag}不存在")));
    }
    let mut payload = json!({"connectorId": n, "idTag": tag});
    if let Some(limit) = b.limit_w {
        if !(limit > 0.0 && limit.is_finite()) {
            return Err(bad("limitW", "must be a positive number of watts", "须为正数（瓦）"));
        }
        payload["chargingProfile"] = json!({"chargingProfileId": 1, "stackLevel": 0, "chargingProfilePurpose": "TxProfile", "chargingProfileKind": "Relative",
            "chargingSchedule": {"chargingRateUnit": "W", "chargingSchedulePeriod": [{"startPeriod": 0, "limit": limit}]}});
    }
    queue(ctx, &call, &p, "RemoteStartTransaction", payload).await
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RemoteStopBody {
    /// The order of the running session (or give `transactionId` and `pileId`).
    order_no: Option<String>,
    transaction_id: Option<i64>,
}

/// POST /charger/remoteStop {orderNo} or {transactionId}
async fn remote_stop(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: RemoteStopBody = call.req.payload()?;
    let tx = match (b.order_no.as_deref().map(str::trim).filter(|s| !s.is_empty()), b.transaction_id) {
        (Some(no), _) => {
            let order = orders::load(ctx, &no.to_uppercase()).await?;
            if order.status != charging::orders::OrderStatus::Charging {
                return Err(bad("orderNo", format!("order {no} is not charging"), format!("订单{no}不在充电中")));
            }
            order.transaction_id.ok_or_else(|| bad("orderNo", format!("order {no} was not started by a charger"), format!("订单{no}不是充电桩上报的会话")))?
        }
        (None, Some(id)) => id,
        (None, None) => return Err(bad("orderNo", "give the order (or its transactionId)", "请指定订单（或交易号）")),
    };
    let t = sessions::get_transaction(ctx, tx).await?.ok_or_else(|| bad("transactionId", format!("no transaction {tx}"), format!("交易{tx}不存在")))?;
    if t.stop_ts.is_some() {
        return Err(bad("transactionId", format!("transaction {tx} has stopped"), format!("交易{tx}已结束")));
    }
    let p = piles::get_pile(ctx, &t.pile_id).await?;
    queue(ctx, &call, &p, "RemoteStopTransaction", json!({"transactionId": tx})).await
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectorBody {
    #[serde(default)]
    pile_id: String,
    connector_id: Option<i64>,
}

/// POST /charger/unlock {pileId, connectorId}
async fn unlock(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: ConnectorBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let n = connector(&p, b.connector_id, false)?;
    queue(ctx, &call, &p, "UnlockConnector", json!({"connectorId": n})).await
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum AvailabilityType {
    Operative,
    Inoperative,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AvailabilityBody {
    #[serde(default)]
    pile_id: String,
    /// 0 = the whole charger.
    connector_id: Option<i64>,
    #[serde(rename = "type")]
    kind: Option<AvailabilityType>,
}

/// POST /charger/availability {pileId, connectorId, type}
async fn availability(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: AvailabilityBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let n = connector(&p, b.connector_id, true)?;
    let kind = b.kind.ok_or_else(|| bad("type", "is required: Operative or Inoperative", "不能为空：Operative 或 Inoperative"))?;
    queue(ctx, &call, &p, "ChangeAvailability", json!({"connectorId": n, "type": kind})).await
}

/// The messages a charger can be asked to send (OCPP 1.6 MessageTrigger).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum TriggerMessage {
    BootNotification,
    DiagnosticsStatusNotification,
    FirmwareStatusNotification,
    Heartbeat,
    MeterValues,
    StatusNotification,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TriggerBody {
    #[serde(default)]
    pile_id: String,
    requested_message: Option<TriggerMessage>,
    /// Optional: the connector the message is about.
    connector_id: Option<i64>,
}

/// POST /charger/trigger {pileId, requestedMessage, connectorId?}
async fn trigger(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: TriggerBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let message = b.requested_message.ok_or_else(|| bad("requestedMessage", "is required", "不能为空"))?;
    let mut payload = json!({"requestedMessage": message});
    if b.connector_id.is_some() {
        payload["connectorId"] = json!(connector(&p, b.connector_id, false)?);
    }
    queue(ctx, &call, &p, "TriggerMessage", payload).await
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
pub enum ResetType {
    Soft,
    Hard,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResetBody {
    #[serde(default)]
    pile_id: String,
    #[serde(rename = "type")]
    kind: Option<ResetType>,
}

/// POST /charger/reset {pileId, type}
async fn reset(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: ResetBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let kind = b.kind.ok_or_else(|| bad("type", "is required: Soft or Hard", "不能为空：Soft 或 Hard"))?;
    queue(ctx, &call, &p, "Reset", json!({"type": kind})).await
}

/// OCPP 1.6 configuration keys are CiString50.
const MAX_KEY: usize = 50;
const MAX_VALUE: usize = 500;

fn config_key(field: &str, k: &str) -> Result<String, ApiError> {
    let k = k.trim();
    if k.is_empty() || k.chars().count() > MAX_KEY || !k.chars().all(|c| c.is_ascii_graphic()) {
        return Err(bad(field, format!("a configuration key is 1-{MAX_KEY} printable ASCII characters (got {:?})", k), format!("配置项须为1-{MAX_KEY}位可打印ASCII字符")));
    }
    Ok(k.to_string())
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GetConfigurationBody {
    #[serde(default)]
    pile_id: String,
    /// Keys to read; empty = all.
    #[serde(default)]
    #[schemars(length(max = 50))]
    keys: Vec<String>,
}

/// POST /charger/getConfiguration {pileId, keys?}
async fn get_configuration(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: GetConfigurationBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    if b.keys.len() > 50 {
        return Err(bad("keys", "at most 50 keys a request", "每次最多50个配置项"));
    }
    let keys = b.keys.iter().enumerate().map(|(i, k)| config_key(&format!("keys[{i}]"), k)).collect::<Result<Vec<_>, _>>()?;
    let payload = if keys.is_empty() { json!({}) } else { json!({"key": keys}) };
    queue(ctx, &call, &p, "GetConfiguration", payload).await
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangeConfigurationBody {
    #[serde(default)]
    pile_id: String,
    #[serde(default)]
    #[schemars(length(min = 1, max = 50))]
    key: String,
    #[serde(default)]
    #[schemars(length(max = 500))]
    value: String,
}

/// POST /charger/changeConfiguration {pileId, key, value}
async fn change_configuration(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: ChangeConfigurationBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let key = config_key("key", &b.key)?;
    if b.value.chars().count() > MAX_VALUE {
        return Err(bad("value", format!("at most {MAX_VALUE} characters"), format!("不能超过{MAX_VALUE}个字符")));
    }
    queue(ctx, &call, &p, "ChangeConfiguration", json!({"key": key, "value": b.value})).await
}

/// POST /charger/clearCache {pileId}
async fn clear_cache(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: PileBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    queue(ctx, &call, &p, "ClearCache", json!({})).await
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DataTransferBody {
    #[serde(default)]
    pile_id: String,
    #[serde(default)]
    #[schemars(length(min = 1, max = 255))]
    vendor_id: String,
    #[schemars(length(max = 50))]
    message_id: Option<String>,
    data: Option<String>,
}

/// POST /charger/dataTransfer {pileId, vendorId, messageId?, data?}
async fn data_transfer(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let b: DataTransferBody = call.req.payload()?;
    let p = pile(ctx, &b.pile_id).await?;
    let vendor = b.vendor_id.trim();
    if vendor.is_empty() || vendor.chars().count() > 255 {
        return Err(bad("vendorId", "is 1-255 characters", "须为1-255个字符"));
    }
    let mut payload = json!({"vendorId": vendor});
    if let Some(m) = b.message_id.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
        if m.chars().count() > 50 {
            return Err(bad("messageId", "is at most 50 characters", "不能超过50个字符"));
        }
        payload["messageId"] = json!(m);
    }
    if let Some(d) = b.data {
        payload["data"] = json!(d);
    }
    queue(ctx, &call, &p, "DataTransfer", payload).await
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommandListQuery {
    pile_id: String,
    #[schemars(range(min = 1, max = 200))]
    page_size: Option<u32>,
    cursor: Option<String>,
}

#[derive(Serialize, JsonSchema)]
pub struct CommandList {
    list: Vec<Command>,
    cursor: Option<String>,
}

/// GET /charger/commands?pileId=&pageSize=&cursor=
async fn command_list(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let q: CommandListQuery = call.query()?;
    let size = q.page_size.unwrap_or(20);
    if !(1..=200).contains(&size) {
        return Err(bad("pageSize", "must be 1-200", "须为1-200"));
    }
    let p = pile(ctx, &q.pile_id).await?;
    let (list, cursor) = commands::list(ctx, &p.id, size, q.cursor).await?;
    Ok(Reply::data(CommandList { list, cursor }))
}

/// GET /charger/command?id=
async fn command_get(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let id = call.req.query_param("id").ok_or_else(|| bad("id", "is required", "不能为空"))?;
    let c = commands::get(ctx, id).await?.ok_or_else(|| ApiError::not_found(Text::new(format!("no command {id}"), format!("指令{id}不存在"))))?;
    Ok(Reply::data(c))
}
