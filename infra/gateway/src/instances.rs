//! Several gateway instances behind one load balancer, sharing one table
//! (`BACKOFFICE_INSTANCE_URL` / `BACKOFFICE_INSTANCE_SECRET`): the outbound
//! port of a process that holds only some of the chargers' sockets.
//!
//! Each connection record names the instance holding its socket
//! (`link::Connection::instance`, written by `link::connected`). A command
//! for a connection of this instance goes to its socket; for a connection
//! of another, it is forwarded to that instance's internal endpoint
//! (`POST /internal/link/send`), which sends it on its socket or answers
//! 410 when the connection is gone there; then the command ends offline, as
//! the queue's rules say for a connection that is gone. Closing goes the
//! same way (`/internal/link/close`). Before sending, the holder checks that
//! the charger's link still names the connection (a strongly consistent
//! read): a charger that reconnected to another instance meanwhile is never
//! sent to on its old socket.
//!
//! The internal endpoint listens on its own address (the URL's, never the
//! public listener), and every request is signed: HMAC-SHA256 of its time,
//! path and body with the shared secret (the secret itself never crosses
//! the network), compared in constant time, at most 30 s old, and never
//! accepted twice.
//!
//! Without an instance configured this is the live sockets and nothing
//! else (one process holds every socket).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use async_trait::async_trait;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Router;
use backoffice::config::InstanceConfig;
use backoffice::domain::chargers::{commands, link};
use backoffice::AppCtx;
use hmac::{Hmac, Mac};
use ocpp::link::{Gone, Outbound, SocketHolder};
use serde_json::{json, Value};
use sha2::Sha256;

use crate::chargers::LiveSockets;

pub const SEND_PATH: &str = "/internal/link/send";
pub const CLOSE_PATH: &str = "/internal/link/close";
const TIME_HEADER: &str = "x-instance-time";
const SIGNATURE_HEADER: &str = "x-instance-signature";
/// How old a signed request may be (the instances' clocks are NTP-synced).
const MAX_AGE_SECS: i64 = 30;
/// A forwarded call waits at most this long for the other instance.
const FORWARD_TIMEOUT: Duration = Duration::from_secs(5);

/// The outbound port of this gateway process (installed into the context).
#[derive(Clone)]
pub struct Instances {
    local: LiveSockets,
    peers: Option<Arc<Peers>>,
}

/// What forwarding needs: who this instance is, the client, the context
/// (weak: the context holds this port), the signatures already accepted.
struct Peers {
    me: InstanceConfig,
    client: reqwest::Client,
    ctx: Weak<AppCtx>,
    accepted: Mutex<HashMap<Vec<u8>, i64>>,
}

/// What became of a forwarded request.
#[derive(Debug, PartialEq, Eq)]
enum Forwarded {
    /// Sent on (or closed) the socket there.
    Done,
    /// That instance does not hold the connection (any more).
    Gone,
    /// That instance did not answer (stopped, killed, unreachable).
    Unreachable,
}

fn now_secs() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or_default()
}

fn mac(secret: &str, time: i64, path: &str, body: &[u8]) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes keys of any length");
    mac.update(format!("{time}\n{path}\n").as_bytes());
    mac.update(body);
    mac
}

/// The signature headers of a request to another instance.
fn sign(secret: &str, time: i64, path: &str, body: &[u8]) -> String {
    base64::Engine::encode(&base64::engine::general_purpose::STANDARD, mac(secret, time, path, body).finalize().into_bytes())
}

impl Instances {
    pub fn new(ctx: &Arc<AppCtx>, local: LiveSockets) -> Instances {
        let peers = ctx.config.instance.clone().map(|me| {
            let client = backoffice::http_client::builder()
                .connect_timeout(Duration::from_secs(1))
                .timeout(FORWARD_TIMEOUT)
                .build()
                .expect("an HTTP client builds");
            Arc::new(Peers { me, client, ctx: Arc::downgrade(ctx), accepted: Mutex::new(HashMap::new()) })
        });
        Instances { local, peers }
    }

    /// Closes the socket of a connection the sweeper already ended (its
    /// record is gone, so the holder is the one it named).
    pub async fn close_ended(&self, c: &link::Connection) {
        match (&self.peers, &c.instance) {
            (Some(peers), Some(holder)) if holder.id != peers.me.id => {
                let body = json!({ "pileId": c.pile_id, "connectionId": c.connection_id });
                peers.forward(&holder.url, CLOSE_PATH, &body).await;
            }
            _ => self.local.close(&c.pile_id, &c.connection_id).await,
        }
    }

    /// The internal endpoint's routes (served on its own listener).
    pub fn router(&self) -> Router {
        Router::new()
            .route(SEND_PATH, axum::routing::post(receive_send))
            .route(CLOSE_PATH, axum::routing::post(receive_close))
            .layer(axum::extract::DefaultBodyLimit::max(ocpp::MAX_MESSAGE_BYTES + 4096))
            .with_state(self.clone())
    }

    /// Sends on this instance's socket if the charger's link still names
    /// the connection (it may have reconnected to another instance).
    async fn send_here(&self, peers: &Peers, pile_id: &str, connection_id: &str, frame: String) -> Result<(), Gone> {
        let ctx = peers.ctx.upgrade().ok_or(Gone)?;
        match link::get(&ctx, pile_id).await {
            Ok(Some(l)) if l.connected && l.connection_id == connection_id => self.local.send(pile_id, connection_id, frame).await,
            Ok(_) => {
                tracing::info!(pile = pile_id, connection = connection_id, "not sent: the charger has a newer connection");
                Err(Gone)
            }
            Err(e) => {
                tracing::warn!(error = %e.msg.en, "not sent: the charger's link could not be read");
                Err(Gone)
            }
        }
    }
}

impl Peers {
    async fn forward(&self, url: &str, path: &str, body: &Value) -> Forwarded {
        let bytes = serde_json::to_vec(body).expect("JSON of plain values");
        let time = now_secs();
        let signature = sign(&self.me.secret, time, path, &bytes);
        let sent = self
            .client
            .post(format!("{url}{path}"))
            .header(TIME_HEADER, time.to_string())
            .header(SIGNATURE_HEADER, signature)
            .header(http::header::CONTENT_TYPE, "application/json")
            .body(bytes)
            .send()
            .await;
        match sent.map(|r| r.status()) {
            Ok(s) if s == StatusCode::NO_CONTENT => Forwarded::Done,
            Ok(s) if s == StatusCode::GONE => Forwarded::Gone,
            Ok(s) => {
                tracing::warn!(instance = url, path, status = s.as_u16(), "another gateway instance refused a forwarded call");
                Forwarded::Unreachable
            }
            Err(e) => {
                tracing::info!(instance = url, path, error = %e, "another gateway instance did not answer");
                Forwarded::Unreachable
            }
        }
    }

    /// Checks a request's signature: made with the shared secret, recent,
    /// and not seen before (a replay within the window is refused).
    fn verify(&self, headers: &HeaderMap, path: &str, body: &[u8]) -> bool {
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        let (Some(time), Some(signature)) = (header(TIME_HEADER).and_then(|t| t.parse::<i64>().ok()), header(SIGNATURE_HEADER)) else { return false };
        let now = now_secs();
        if (now - time).abs() > MAX_AGE_SECS {
            return false;
        }
        let Ok(signature) = base64::Engine::decode(&base64::engine::general_purpose::STANDARD, signature) else { return false };
        // Constant time: `verify_slice` compares the whole tag.
        if mac(&self.me.secret, time, path, body).verify_slice(&signature).is_err() {
            return false;
        }
        let mut accepted = self.accepted.lock().unwrap_or_else(|p| p.into_inner());
        accepted.retain(|_, at| now - *at <= 2 * MAX_AGE_SECS);
        accepted.insert(signature, now).is_none()
    }

    /// Ends a connection whose holder is gone (killed, or an earlier life
    /// of this instance): what its own close would have done.
    async fn end_here(&self, pile_id: &str, connection_id: &str) {
        let Some(ctx) = self.ctx.upgrade() else { return };
        tracing::info!(pile = pile_id, connection = connection_id, "a connection whose gateway instance is gone ends here");
        if let Err(e) = link::disconnected(&ctx, pile_id, connection_id).await {
            tracing::warn!(error = %e.msg.en, "could not record the end of a connection of a gone instance");
            return;
        }
        if let Err(e) = commands::connection_ended(&ctx, pile_id, connection_id).await {
            tracing::warn!(error = %e.msg.en, "could not end the call in flight on a connection of a gone instance");
        }
    }
}

#[async_trait]
impl Outbound for Instances {
    async fn send(&self, pile_id: &str, connection_id: &str, frame: String) -> Result<(), Gone> {
        let Some(peers) = &self.peers else { return self.local.send(pile_id, connection_id, frame).await };
        if self.local.holds(pile_id, connection_id) {
            return self.send_here(peers, pile_id, connection_id, frame).await;
        }
        let ctx = peers.ctx.upgrade().ok_or(Gone)?;
        let holder = match link::connection(&ctx, connection_id).await {
            Ok(Some(c)) => c.instance.filter(|h| h.id != peers.me.id),
            Ok(None) => None,
            Err(e) => {
                tracing::warn!(error = %e.msg.en, "the connection's record could not be read");
                None
            }
        };
        let Some(holder) = holder else { return Err(Gone) };
        let body = json!({ "pileId": pile_id, "connectionId": connection_id, "frame": frame });
        match peers.forward(&holder.url, SEND_PATH, &body).await {
            Forwarded::Done => Ok(()),
            Forwarded::Gone | Forwarded::Unreachable => Err(Gone),
        }
    }

    /// With other instances, this process shares the table with them, and
    /// perhaps with the serverless edge's Lambdas: a connection whose
    /// record names no instance is API Gateway's, which only those reach
    /// (and what is queued for it waits for their sweeper).
    fn reaches_only(&self) -> Option<SocketHolder> {
        self.peers.as_ref().map(|_| SocketHolder::GatewayInstance)
    }

    /// Closes a connection (replaced by a newer one, or its credentials
    /// changed): here if this instance holds it, else at its holder; one
    /// whose holder is gone or no longer has it is ended here. The
    /// forwarding runs on its own task (a handshake never waits for it).
    async fn close(&self, pile_id: &str, connection_id: &str) {
        let Some(peers) = &self.peers else { return self.local.close(pile_id, connection_id).await };
        if self.local.close_now(pile_id, connection_id) {
            return;
        }
        let Some(ctx) = peers.ctx.upgrade() else { return };
        let record = match link::connection(&ctx, connection_id).await {
            Ok(Some(c)) => c,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(error = %e.msg.en, "the connection's record could not be read");
                return;
            }
        };
        let (peers, pile_id, connection_id) = (peers.clone(), pile_id.to_string(), connection_id.to_string());
        tokio::spawn(async move {
            if let Some(holder) = record.instance.filter(|h| h.id != peers.me.id) {
                let body = json!({ "pileId": pile_id, "connectionId": connection_id });
                if peers.forward(&holder.url, CLOSE_PATH, &body).await == Forwarded::Done {
                    // Its holder closes the socket and ends the connection.
                    return;
                }
            }
            peers.end_here(&pile_id, &connection_id).await;
        });
    }
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Forward {
    pile_id: String,
    connection_id: String,
    #[serde(default)]
    frame: Option<String>,
}

fn read(state: &Instances, headers: &HeaderMap, path: &str, body: &[u8]) -> Result<(Arc<Peers>, Forward), StatusCode> {
    let peers = state.peers.clone().ok_or(StatusCode::NOT_FOUND)?;
    if !peers.verify(headers, path, body) {
        tracing::warn!(path, "an internal call with a bad or replayed signature was refused");
        return Err(StatusCode::UNAUTHORIZED);
    }
    let forward = serde_json::from_slice(body).map_err(|_| StatusCode::BAD_REQUEST)?;
    Ok((peers, forward))
}

async fn receive_send(State(state): State<Instances>, headers: HeaderMap, body: bytes::Bytes) -> StatusCode {
    let (peers, f) = match read(&state, &headers, SEND_PATH, &body) {
        Ok(r) => r,
        Err(status) => return status,
    };
    let Some(frame) = f.frame else { return StatusCode::BAD_REQUEST };
    if !state.local.holds(&f.pile_id, &f.connection_id) {
        return StatusCode::GONE;
    }
    match state.send_here(&peers, &f.pile_id, &f.connection_id, frame).await {
        Ok(()) => StatusCode::NO_CONTENT,
        Err(Gone) => StatusCode::GONE,
    }
}

async fn receive_close(State(state): State<Instances>, headers: HeaderMap, body: bytes::Bytes) -> StatusCode {
    let (_, f) = match read(&state, &headers, CLOSE_PATH, &body) {
        Ok(r) => r,
        Err(status) => return status,
    };
    if state.local.close_now(&f.pile_id, &f.connection_id) {
        StatusCode::NO_CONTENT
    } else {
        StatusCode::GONE
    }
}

/// Serves the internal endpoint on the instance's own address.
pub async fn listen(instances: &Instances) -> Result<Option<String>, String> {
    let Some(peers) = &instances.peers else { return Ok(None) };
    let listener = tokio::net::TcpListener::bind(peers.me.listen)
        .await
        .map_err(|e| format!("cannot listen on {} (BACKOFFICE_INSTANCE_URL) for the other gateway instances: {e}", peers.me.listen))?;
    let router = instances.router();
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, router).await {
            tracing::error!(error = %e, "the internal endpoint stopped");
        }
    });
    Ok(Some(peers.me.url.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peers(secret: &str) -> Peers {
        let me = InstanceConfig { id: "a".into(), url: "http://127.0.0.1:1".into(), listen: "127.0.0.1:1".parse().unwrap(), secret: secret.into() };
        Peers { me, client: backoffice::http_client::client(), ctx: Weak::new(), accepted: Mutex::new(HashMap::new()) }
    }

    fn headers(time: i64, signature: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(TIME_HEADER, time.to_string().parse().unwrap());
        h.insert(SIGNATURE_HEADER, signature.parse().unwrap());
        h
    }

    #[test]
    fn only_a_fresh_request_signed_with_the_shared_secret_is_accepted_once() {
        let secret = "9f2c4e7a1b8d3f6e0c5a9b2d7e4f1a8c3b6d9e2f";
        let p = peers(secret);
        let body = br#"{"pileId":"p","connectionId":"c","frame":"[2]"}"#;
        let now = now_secs();
        let good = sign(secret, now, SEND_PATH, body);
        assert!(!p.verify(&headers(now, &sign("another-secret-of-enough-length-000000", now, SEND_PATH, body)), SEND_PATH, body), "another secret");
        assert!(!p.verify(&headers(now, &good), CLOSE_PATH, body), "signed for another path");
        assert!(!p.verify(&headers(now, &good), SEND_PATH, br#"{"pileId":"p","connectionId":"c","frame":"[3]"}"#), "another body");
        let old = now - MAX_AGE_SECS - 5;
        assert!(!p.verify(&headers(old, &sign(secret, old, SEND_PATH, body)), SEND_PATH, body), "too old");
        assert!(!p.verify(&HeaderMap::new(), SEND_PATH, body), "unsigned");
        assert!(p.verify(&headers(now, &good), SEND_PATH, body));
        assert!(!p.verify(&headers(now, &good), SEND_PATH, body), "a replay");
    }

    #[test]
    fn one_gateway_reaches_every_connection_and_an_instance_only_the_instances() {
        let alone = Instances { local: LiveSockets::default(), peers: None };
        assert_eq!(alone.reaches_only(), None);
        let one_of_several = Instances { local: LiveSockets::default(), peers: Some(Arc::new(peers("9f2c4e7a1b8d3f6e0c5a9b2d7e4f1a8c3b6d9e2f"))) };
        assert_eq!(one_of_several.reaches_only(), Some(SocketHolder::GatewayInstance), "API Gateway's connections are the Lambdas'");
    }
}
