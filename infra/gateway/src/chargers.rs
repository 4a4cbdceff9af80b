//! The charger link on the local gateway: `GET /ocpp/{chargePointId}`
//! upgrades to a WebSocket running the `ocpp` crate's session, and a map
//! of live sockets is the outbound port (the newest socket of a charger
//! wins; the replaced one is closed).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, State};
use axum::Extension;
use axum_server::tls::TlsInfo;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use backoffice::domain::assets::piles::Pile;
use backoffice::AppCtx;
use futures::{SinkExt, StreamExt};
use ocpp::link::{Gone, Outbound};
use ocpp::{Handshake, Session};
use tokio::sync::mpsc;

/// What a YKC connection's task is told to do (its frames are bytes, made
/// by the connection itself from the command queue's calls).
#[derive(Debug)]
pub enum YkcOut {
    /// A queued command, as the queue sends every call (OCPP-J text).
    Call(String),
    /// Close the connection (replaced, silent, or the server stopping).
    Close(&'static str),
}

/// A live connection's sender: an OCPP WebSocket or a YKC TCP connection.
#[derive(Clone)]
pub enum Sender {
    Ws(mpsc::UnboundedSender<Message>),
    Ykc(mpsc::UnboundedSender<YkcOut>),
}

impl Sender {
    pub(crate) fn close(&self, reason: &'static str) {
        match self {
            Sender::Ws(tx) => {
                let _ = tx.send(Message::Close(Some(CloseFrame { code: close_code::AWAY, reason: reason.into() })));
            }
            Sender::Ykc(tx) => {
                let _ = tx.send(YkcOut::Close(reason));
            }
        }
    }
}

/// A pile id's current connection id and its sender.
type Current = HashMap<String, (String, Sender)>;

/// Live connections by pile id (OCPP and YKC alike): the current
/// connection id and its sender.
#[derive(Default, Clone)]
pub struct LiveSockets {
    inner: Arc<Mutex<Current>>,
}

impl LiveSockets {
    /// Makes `connection_id` the pile's current connection; returns the one it replaced.
    pub(crate) fn register(&self, pile_id: &str, connection_id: &str, tx: Sender) -> Option<Sender> {
        let mut map = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        map.insert(pile_id.to_string(), (connection_id.to_string(), tx)).map(|(_, old)| old)
    }

    pub(crate) fn unregister(&self, pile_id: &str, connection_id: &str) {
        let mut map = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if map.get(pile_id).is_some_and(|(current, _)| current == connection_id) {
            map.remove(pile_id);
        }
    }

    /// Whether `connection_id` is the pile's current connection here.
    pub(crate) fn holds(&self, pile_id: &str, connection_id: &str) -> bool {
        self.sender(pile_id, connection_id).is_some()
    }

    /// Closes the pile's connection here if it is `connection_id`, and
    /// forgets it at once (nothing more is sent on it); returns whether it was.
    pub(crate) fn close_now(&self, pile_id: &str, connection_id: &str) -> bool {
        let mut map = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if map.get(pile_id).is_none_or(|(current, _)| current != connection_id) {
            return false;
        }
        if let Some((_, tx)) = map.remove(pile_id) {
            tx.close("replaced");
        }
        true
    }

    fn sender(&self, pile_id: &str, connection_id: &str) -> Option<Sender> {
        let map = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        map.get(pile_id).filter(|(current, _)| current == connection_id).map(|(_, tx)| tx.clone())
    }

    /// How many chargers are connected now.
    pub fn count(&self) -> usize {
        self.inner.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Closes every socket with "going away" (the server is stopping).
    pub fn close_all(&self) {
        let map = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        for (_, tx) in map.values() {
            tx.close("server stopping");
        }
    }
}

#[async_trait]
impl Outbound for LiveSockets {
    async fn send(&self, pile_id: &str, connection_id: &str, frame: String) -> Result<(), Gone> {
        match self.sender(pile_id, connection_id).ok_or(Gone)? {
            Sender::Ws(tx) => tx.send(Message::Text(frame.into())).map_err(|_| Gone),
            Sender::Ykc(tx) => tx.send(YkcOut::Call(frame)).map_err(|_| Gone),
        }
    }
    async fn close(&self, pile_id: &str, connection_id: &str) {
        if let Some(tx) = self.sender(pile_id, connection_id) {
            tx.close("replaced");
        }
    }
}

#[derive(Clone)]
pub struct LinkState {
    pub ctx: Arc<AppCtx>,
    pub sockets: LiveSockets,
    /// The gateway itself serves TLS (BACKOFFICE_TLS_CERT/KEY): every
    /// socket is wss.
    pub tls: bool,
    /// Whose `X-Forwarded-Proto` is believed (`BACKOFFICE_TRUSTED_PROXY`).
    pub trusted_proxies: crate::server::Proxies,
}

/// `GET /ocpp/{id}`: the handshake is checked before upgrading, so a
/// refused charger gets a plain HTTP status (400/401/404), never a socket.
pub async fn connect(
    State(state): State<LinkState>,
    Path(id): Path<String>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    tls: Option<Extension<Arc<TlsInfo>>>,
    ws: WebSocketUpgrade,
) -> Response {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    // Behind a trusted reverse proxy, the address it forwards.
    let address = crate::server::client_address(&headers, peer.ip(), &state.trusted_proxies).to_string();
    let handshake = Handshake {
        charge_point: &id,
        protocols: header("sec-websocket-protocol"),
        authorization: header("authorization"),
        // TLS (security profile 2) is the gateway's own, or a trusted
        // reverse proxy's, whose X-Forwarded-Proto is believed from it
        // alone (a charger cannot claim it).
        secure: state.tls || crate::server::forwarded_https(&headers, peer.ip(), &state.trusted_proxies),
        address: &address,
    };
    // The client certificates of the gateway's own TLS (security profile 3).
    let client_chain = tls.as_ref().map(|t| t.peer_certificates.as_slice()).unwrap_or_default();
    let admitted = match ocpp::admit_with_certificates(state.ctx.as_ref(), &handshake, client_chain).await {
        Ok(a) => a,
        Err(refusal) => {
            tracing::info!(charge_point = %id, status = refusal.status(), reason = refusal.reason(), "charger refused");
            let status = axum::http::StatusCode::from_u16(refusal.status()).unwrap_or(axum::http::StatusCode::BAD_REQUEST);
            let mut response = (status, refusal.reason().to_string()).into_response();
            if let Some(secs) = refusal.retry_after() {
                response.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from(secs));
            }
            return response;
        }
    };
    let protocol = admitted.protocol.subprotocol();
    // The connection is recorded, and its socket registered, before the
    // charger gets its 101: once its handshake is done, a command sent to it
    // finds it connected (a charger is offline only until then). What is
    // sent before the upgrade completes waits in the socket's channel.
    let connection_id = uuid::Uuid::now_v7().simple().to_string();
    let pile_id = admitted.charger.id.clone();
    let session = match Session::open(state.ctx.as_ref(), admitted, connection_id.clone(), &address, ocpp::now_ms()).await {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(error = %e, "could not record a charger connection");
            return (axum::http::StatusCode::SERVICE_UNAVAILABLE, "the charger's connection could not be recorded").into_response();
        }
    };
    let (tx, rx) = mpsc::unbounded_channel::<Message>();
    if let Some(old) = state.sockets.register(&pile_id, &connection_id, Sender::Ws(tx.clone())) {
        old.close("replaced by a new connection");
    }
    let opened = Arc::new(std::sync::Mutex::new(Some(Opened { session, pile_id, connection_id, tx, rx })));
    let on_failure = (state.clone(), opened.clone());
    ws.protocols([protocol])
        // Chargers send small frames: a small read buffer (it grows for a
        // big message) keeps thousands of idle sockets cheap; the default is 128 KiB each.
        .read_buffer_size(4 * 1024)
        .write_buffer_size(4 * 1024)
        .max_message_size(ocpp::MAX_MESSAGE_BYTES)
        .max_frame_size(ocpp::MAX_MESSAGE_BYTES)
        .on_failed_upgrade(move |error| {
            // The charger went before its socket was ours: end what was recorded for it.
            let (state, opened) = on_failure;
            let Some(opened) = take(&opened) else { return };
            tracing::info!(charger = %opened.session.charger.code, error = %error, "charger handshake not completed");
            tokio::spawn(async move {
                state.sockets.unregister(&opened.pile_id, &opened.connection_id);
                opened.session.close(state.ctx.as_ref()).await;
            });
        })
        .on_upgrade(move |socket| async move {
            if let Some(opened) = take(&opened) {
                run(state, opened, socket).await;
            }
        })
        .into_response()
}

/// A charger's recorded connection, waiting for its socket.
struct Opened {
    session: Session<Pile>,
    pile_id: String,
    connection_id: String,
    tx: mpsc::UnboundedSender<Message>,
    rx: mpsc::UnboundedReceiver<Message>,
}

fn take(opened: &std::sync::Mutex<Option<Opened>>) -> Option<Opened> {
    opened.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take()
}

/// One charger's socket: frames are handled one at a time, in order (a
/// charger's messages depend on each other: Start before MeterValues).
async fn run(state: LinkState, opened: Opened, socket: WebSocket) {
    let ctx = state.ctx.clone();
    let app: &AppCtx = &ctx;
    let Opened { session, pile_id, connection_id, tx, mut rx } = opened;
    let (mut sink, mut stream) = socket.split();
    let writer = tokio::spawn(async move {
        while let Some(msg) = rx.recv().await {
            let closing = matches!(msg, Message::Close(_));
            if sink.send(msg).await.is_err() || closing {
                break;
            }
        }
        let _ = sink.close().await;
    });
    while let Some(received) = stream.next().await {
        match received {
            Ok(Message::Text(text)) => {
                if let Some(reply) = session.on_text(app, text.as_str()).await {
                    if tx.send(Message::Text(reply.into())).is_err() {
                        break;
                    }
                }
                // Queued calls go after the answer (same channel, in order).
                session.after_reply(app).await;
            }
            Ok(Message::Binary(_)) => {
                let _ = tx.send(Message::Close(Some(CloseFrame { code: close_code::UNSUPPORTED, reason: "OCPP-J frames are text".into() })));
                break;
            }
            Ok(Message::Close(_)) => break,
            Ok(Message::Ping(_) | Message::Pong(_)) => {}
            Err(e) => {
                // Most often a message over the size limit: say so before closing.
                tracing::info!(charger = %session.charger.code, error = %e, "charger socket error");
                let _ = tx.send(Message::Close(Some(CloseFrame { code: close_code::SIZE, reason: "message too big or malformed".into() })));
                break;
            }
        }
    }
    drop(tx);
    state.sockets.unregister(&pile_id, &connection_id);
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), writer).await;
    session.close(app).await;
}

/// The sweepers: every 5 s, calls to chargers unanswered past their
/// timeout end as timed out (and the next queued one is sent); every
/// minute, the connections of chargers that went silent (a socket that
/// died without a close) end and their sockets close, and on the embedded
/// store (no TTL) connected chargers' message-log entries past the
/// retention go, at most [`LOG_PRUNE_PER_SWEEP`] a minute.
/// Message-log entries deleted a minute at most: a backlog (a gateway that
/// was stopped for days) goes over the next minutes, never in one long burst.
pub const LOG_PRUNE_PER_SWEEP: u32 = 2_000;

pub fn spawn_sweeper(ctx: Arc<AppCtx>, sockets: crate::instances::Instances) {
    let commands_ctx = ctx.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(5));
        loop {
            tick.tick().await;
            if let Err(e) = backoffice::domain::chargers::commands::expire(&commands_ctx).await {
                tracing::warn!(error = %e.msg.en, "command timeout sweep failed");
            }
        }
    });
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(60));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            match backoffice::domain::chargers::sweep::end_silent_connections(&ctx).await {
                Ok(ended) => {
                    for c in ended {
                        tracing::info!(pile = %c.pile_id, connection = %c.connection_id, "silent charger disconnected");
                        sockets.close_ended(&c).await;
                    }
                }
                Err(e) => tracing::warn!(error = %e.msg.en, "charger sweep failed"),
            }
            if matches!(ctx.config.store, backoffice::config::StoreConfig::Sqlite { .. }) {
                if let Err(e) = backoffice::domain::chargers::sweep::prune_message_logs(&ctx, LOG_PRUNE_PER_SWEEP).await {
                    tracing::warn!(error = %e.msg.en, "message log prune failed");
                }
            }
        }
    });
}
