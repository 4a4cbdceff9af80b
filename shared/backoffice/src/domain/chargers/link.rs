//! A charger's connection and boot record (`PILE#{id}` / `LINK`): written
//! field by field (never a whole put), so a boot, a status and a
//! disconnect that cross never undo each other.

use envelope::ApiError;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use store::{Condition, Key, UpdateAction};

use crate::ctx::AppCtx;
use crate::domain::chargers::outbound::{Outbound, SocketHolder};
use crate::domain::assets::piles::{pile_key, station_piles_pk, Pile};
use crate::domain::StoreResultExt;

pub const SK: &str = "LINK";

pub fn key(pile_id: &str) -> Key {
    Key::new(format!("PILE#{pile_id}"), SK)
}

/// What the charger said about itself in its last BootNotification.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BootInfo {
    pub vendor: String,
    pub model: String,
    pub serial_number: Option<String>,
    pub firmware_version: Option<String>,
    pub iccid: Option<String>,
    pub imsi: Option<String>,
    pub meter_type: Option<String>,
    pub meter_serial_number: Option<String>,
    /// Why it booted (OCPP 2.0.1's BootReason: PowerUp, RemoteReset, ...).
    #[serde(default)]
    pub reason: Option<String>,
    /// Unix seconds (our clock).
    pub at: i64,
}

/// The link record as stored and sent (inside a pile view).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ChargerLink {
    pub connected: bool,
    /// The current (newest) connection; a late close of an older one changes nothing.
    pub connection_id: String,
    pub connected_at: Option<i64>,
    /// The handshake time in milliseconds (orders racing handshakes).
    pub connected_at_ms: Option<i64>,
    pub disconnected_at: Option<i64>,
    /// The negotiated subprotocol, e.g. `ocpp1.6`.
    pub protocol: Option<String>,
    /// The last message from the charger (filled from the pile's heartbeat time).
    pub last_message_at: Option<i64>,
    pub remote_address: Option<String>,
    pub boot: Option<BootInfo>,
    /// Connector 0 of StatusNotification: the charger itself.
    pub charger_status: Option<String>,
    pub charger_error_code: Option<String>,
    pub charger_status_at: Option<i64>,
    pub firmware_status: Option<String>,
    pub firmware_status_at: Option<i64>,
    pub diagnostics_status: Option<String>,
    pub diagnostics_status_at: Option<i64>,
    /// SignedFirmwareStatusNotification's requestId (SignedUpdateFirmware's).
    #[serde(default)]
    pub firmware_request_id: Option<i64>,
    /// LogStatusNotification (GetLog's upload) and its requestId.
    #[serde(default)]
    pub log_status: Option<String>,
    #[serde(default)]
    pub log_status_at: Option<i64>,
    #[serde(default)]
    pub log_request_id: Option<i64>,
}

fn set(field: &str, value: Value) -> UpdateAction {
    UpdateAction::Set(field.into(), value)
}

/// The index keys that list the link right after its pile's connectors.
fn index_actions(pile: &Pile) -> Vec<UpdateAction> {
    vec![set("GSI1PK", json!(station_piles_pk(&pile.station_id))), set("GSI1SK", json!(format!("{}#{SK}", pile.code)))]
}

/// A live connection (`OCPPCONN#{connectionId}` / `CONN`): how a
/// transport that sees only a connection id (API Gateway's `$default`)
/// finds its charger, and what the sweeper walks (GSI1 `OCPPCONNS`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Connection {
    pub connection_id: String,
    pub pile_id: String,
    pub protocol: String,
    /// Unix milliseconds of the handshake (the newest connection wins).
    pub connected_at_ms: i64,
    /// Whether the charger has spoken on it (and so its queue of commands
    /// goes to it): set at its first message.
    #[serde(default)]
    pub queue_started: bool,
    /// Recorded at the handshake, not the charger's connection yet: API
    /// Gateway runs `$connect` before it completes the handshake (which may
    /// still fail), so there a connection takes over from the charger's
    /// first message on it ([`take_over`]).
    #[serde(default)]
    pub pending: bool,
    /// The charger's address at the handshake.
    #[serde(default)]
    pub remote_address: String,
    /// The gateway instance holding the socket, when several share the
    /// table (`BACKOFFICE_INSTANCE_URL`): a command for the connection is
    /// forwarded there. Filled in by [`connected`] from the configuration;
    /// None: the only gateway, or API Gateway on AWS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance: Option<Holder>,
    /// Its close was asked for by a process that cannot reach its socket
    /// (the other edge of a deployment with both): the holder's sweeper
    /// closes it ([`close`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub close_requested: bool,
}

impl Connection {
    /// What holds the connection's socket: the instance its record names,
    /// or API Gateway (no instance: a gateway process sharing the table
    /// with the Lambdas always names itself).
    pub fn holder(&self) -> SocketHolder {
        if self.instance.is_some() {
            SocketHolder::GatewayInstance
        } else {
            SocketHolder::ApiGateway
        }
    }
}

/// The gateway instance holding a connection's socket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Holder {
    /// The instance's id (unique to one process's life).
    pub id: String,
    /// Its internal endpoint (`http://host:port`).
    pub url: String,
}

/// API Gateway closes every WebSocket connection after 2 hours: a record
/// older than that (its `$disconnect` was lost) is of a dead connection.
pub const AWS_MAX_CONNECTION_SECS: i64 = 2 * 3600;

pub const CONNECTIONS_PK: &str = "OCPPCONNS";

pub fn connection_key(connection_id: &str) -> Key {
    Key::new(format!("OCPPCONN#{connection_id}"), "CONN")
}

fn connection_item(c: &Connection) -> store::Item {
    let k = connection_key(&c.connection_id);
    crate::domain::to_item(c, &[(store::PK, k.pk), (store::SK, k.sk), ("GSI1PK", CONNECTIONS_PK.into()), ("GSI1SK", format!("{:013}#{}", c.connected_at_ms, c.connection_id))])
}

/// Records a connection whose handshake is not complete yet (AWS
/// `$connect`): the charger's current connection stays as it is until the
/// charger speaks on the new one ([`take_over`]); until then only its own
/// record exists (the sweeper ends it like any other).
pub async fn claimed(ctx: &AppCtx, c: &Connection) -> Result<(), ApiError> {
    let c = Connection { pending: true, ..c.clone() };
    ctx.store.put(connection_item(&c), None).await.api()
}

/// Makes a connection the charger's current one ([`connected`]) and
/// returns the connection it replaced, if that one was still live: the
/// caller closes its socket and ends it.
pub async fn take_over(ctx: &AppCtx, pile: &Pile, c: &Connection) -> Result<Option<String>, ApiError> {
    let before = get(ctx, &pile.id).await?.filter(|l| l.connected && !l.connection_id.is_empty() && l.connection_id != c.connection_id);
    let current = connected(ctx, pile, c, &c.remote_address).await?;
    Ok(before.filter(|_| current).map(|l| l.connection_id))
}

/// Records a new connection as the charger's current one. The newest
/// handshake wins (a charger that reconnects replaces its old socket,
/// even one that died without a close); a handshake older than the
/// current one (two racing in) is recorded but does not take over.
/// Returns whether it is now the current connection.
///
/// With several gateway instances, the record names this one (the holder
/// of the socket), and a connection this one replaces that another
/// instance holds (the charger reconnected through the load balancer) is
/// closed there, or ended here if that instance is gone
/// (`Outbound::close`); a replaced socket of this instance the gateway
/// closes itself.
pub async fn connected(ctx: &AppCtx, pile: &Pile, c: &Connection, remote: &str) -> Result<bool, ApiError> {
    let now = ctx.now();
    let instance = ctx.config.instance.as_ref().map(|i| Holder { id: i.id.clone(), url: i.url.clone() });
    let before = match &instance {
        Some(_) => get(ctx, &pile.id).await?.filter(|l| l.connected && !l.connection_id.is_empty() && l.connection_id != c.connection_id),
        None => None,
    };
    let c = &Connection { pending: false, remote_address: remote.to_string(), instance, ..c.clone() };
    ctx.store.put(connection_item(c), None).await.api()?;
    let mut actions = index_actions(pile);
    actions.extend([
        set("connected", json!(true)),
        set("connectionId", json!(c.connection_id)),
        set("connectedAt", json!(now)),
        set("connectedAtMs", json!(c.connected_at_ms)),
        set("disconnectedAt", Value::Null),
        set("protocol", json!(c.protocol)),
        set("remoteAddress", json!(remote)),
    ]);
    let newest = Condition::Or(vec![Condition::NotExists("connectedAtMs".into()), Condition::Le("connectedAtMs".into(), json!(c.connected_at_ms))]);
    let current = match ctx.store.update(&key(&pile.id), actions, Some(newest)).await {
        Ok(_) => true,
        Err(store::StoreError::ConditionFailed) => false,
        Err(e) => return Err(crate::domain::store_error(e)),
    };
    seen(ctx, &pile.id, now).await?;
    if let (true, Some(replaced), Some(outbound)) = (current, before, ctx.outbound.get()) {
        close(ctx, outbound.as_ref(), &pile.id, &replaced.connection_id).await?;
    }
    Ok(current)
}

/// Whether `outbound` reaches the socket of `connection_id`. A port that
/// reaches every connection knows without a read; an unknown connection
/// counts as reached (sending on it fails, and the call ends offline).
pub async fn reaches(ctx: &AppCtx, outbound: &dyn Outbound, connection_id: &str) -> Result<bool, ApiError> {
    let Some(only) = outbound.reaches_only() else { return Ok(true) };
    Ok(connection(ctx, connection_id).await?.is_none_or(|c| c.holder() == only))
}

/// Closes a connection through `outbound`; one whose socket this port
/// cannot reach is marked, and its holder's sweeper closes it within a
/// minute.
pub async fn close(ctx: &AppCtx, outbound: &dyn Outbound, pile_id: &str, connection_id: &str) -> Result<(), ApiError> {
    if reaches(ctx, outbound, connection_id).await? {
        outbound.close(pile_id, connection_id).await;
        return Ok(());
    }
    tracing::info!(pile = pile_id, connection = connection_id, "the connection's holder will close it");
    match ctx.store.update(&connection_key(connection_id), vec![set("closeRequested", json!(true))], Some(Condition::item_exists())).await {
        Ok(_) | Err(store::StoreError::ConditionFailed) => Ok(()),
        Err(e) => Err(crate::domain::store_error(e)),
    }
}

/// The connection record of a connection id, if it is live.
pub async fn connection(ctx: &AppCtx, connection_id: &str) -> Result<Option<Connection>, ApiError> {
    match ctx.store.get(&connection_key(connection_id)).await.api()? {
        Some(item) => Ok(Some(crate::domain::from_item(item)?)),
        None => Ok(None),
    }
}

/// Records that the charger spoke on `connection_id` (a connection that
/// already ended stays ended).
pub async fn queue_started(ctx: &AppCtx, connection_id: &str) -> Result<(), ApiError> {
    match ctx.store.update(&connection_key(connection_id), vec![set("queueStarted", json!(true))], Some(Condition::item_exists())).await {
        Ok(_) | Err(store::StoreError::ConditionFailed) => Ok(()),
        Err(e) => Err(crate::domain::store_error(e)),
    }
}

/// Live connections, oldest handshake first (one page; the sweeper follows the cursor).
pub async fn connections(ctx: &AppCtx, cursor: Option<String>) -> Result<(Vec<Connection>, Option<String>), ApiError> {
    let page = ctx.store.query(store::Query::index(store::Index::Gsi1, CONNECTIONS_PK).limit(200).after(cursor)).await.api()?;
    let list = page.items.into_iter().map(crate::domain::from_item).collect::<Result<_, _>>()?;
    Ok((list, page.cursor))
}

/// Records the end of `connection_id`: its record goes, and the charger
/// shows disconnected only if this was still its current connection (a
/// late close of a replaced socket changes nothing). Returns that.
pub async fn disconnected(ctx: &AppCtx, pile_id: &str, connection_id: &str) -> Result<bool, ApiError> {
    ctx.store.delete(&connection_key(connection_id), None).await.api()?;
    let actions = vec![set("connected", json!(false)), set("disconnectedAt", json!(ctx.now()))];
    let cond = Condition::Eq("connectionId".into(), json!(connection_id));
    match ctx.store.update(&key(pile_id), actions, Some(cond)).await {
        Ok(_) => Ok(true),
        Err(store::StoreError::ConditionFailed) => Ok(false),
        Err(e) => Err(crate::domain::store_error(e)),
    }
}

/// Any message from a charger: the pile's online state is derived from
/// this time. Not versioned (never makes an operator's edit fail); a pile
/// deleted meanwhile stays deleted.
pub async fn seen(ctx: &AppCtx, pile_id: &str, at: i64) -> Result<(), ApiError> {
    let actions = vec![set("lastHeartbeat", json!(at))];
    match ctx.store.update(&pile_key(pile_id), actions, Some(Condition::item_exists())).await {
        Ok(_) | Err(store::StoreError::ConditionFailed) => Ok(()),
        Err(e) => Err(crate::domain::store_error(e)),
    }
}

pub async fn booted(ctx: &AppCtx, pile: &Pile, boot: &BootInfo) -> Result<(), ApiError> {
    let mut actions = index_actions(pile);
    actions.push(set("boot", json!(boot)));
    ctx.store.update(&key(&pile.id), actions, None).await.api().map(|_| ())
}

/// A field pair `{name}` / `{name}At` of the link (charger, firmware or diagnostics status).
pub async fn report(ctx: &AppCtx, pile: &Pile, name: &str, value: &str, at: i64, extra: Option<(&str, Value)>) -> Result<(), ApiError> {
    let mut actions = index_actions(pile);
    actions.push(set(name, json!(value)));
    actions.push(set(&format!("{name}At"), json!(at)));
    if let Some((field, v)) = extra {
        actions.push(set(field, v));
    }
    ctx.store.update(&key(&pile.id), actions, None).await.api().map(|_| ())
}

pub async fn get(ctx: &AppCtx, pile_id: &str) -> Result<Option<ChargerLink>, ApiError> {
    match ctx.store.get(&key(pile_id)).await.api()? {
        Some(item) => Ok(Some(crate::domain::from_item(item)?)),
        None => Ok(None),
    }
}
