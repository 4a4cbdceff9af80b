//! The session contract: what a charger protocol needs of the application
//! beneath it, whatever the protocol (OCPP 1.6 here; 2.0.1 and YKC are
//! its siblings over the same hooks). The application implements
//! [`Link`] once: who a charger is and whether it may connect, where its
//! connections and messages are recorded, what becomes of the answers to
//! our own calls, what a closed connection ends. Each protocol adds its
//! own trait of message handlers on top (`v16::CentralSystem`: one method
//! per charger-initiated action, typed request in, typed answer out).
//!
//! The other way round, the application reaches a connected charger only
//! through the [`Outbound`] port, which each transport implements (the
//! local gateway's live sockets, API Gateway's `PostToConnection`).

use async_trait::async_trait;
use serde_json::Value;

/// Why a handshake is refused, as the HTTP status to answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// 400: no subprotocol we speak was offered, or the id is malformed.
    BadRequest(String),
    /// 401: credentials missing or wrong, or none set for the charger.
    Unauthorized(String),
    /// 404: no charger has this charge point id.
    UnknownCharger(String),
    /// 429: too many attempts; the seconds to wait (`Retry-After`).
    TooMany(i64),
    /// 503: the store did not answer.
    Unavailable,
}

impl Refusal {
    pub fn status(&self) -> u16 {
        match self {
            Refusal::BadRequest(_) => 400,
            Refusal::Unauthorized(_) => 401,
            Refusal::UnknownCharger(_) => 404,
            Refusal::TooMany(_) => 429,
            Refusal::Unavailable => 503,
        }
    }

    pub fn reason(&self) -> &str {
        match self {
            Refusal::BadRequest(r) | Refusal::Unauthorized(r) | Refusal::UnknownCharger(r) => r,
            Refusal::TooMany(_) => "too many failed handshakes from here or for this charge point: wait for Retry-After seconds",
            Refusal::Unavailable => "the store is not available; try again",
        }
    }

    /// The seconds a refused charger should wait before trying again (429).
    pub fn retry_after(&self) -> Option<i64> {
        match self {
            Refusal::TooMany(secs) => Some((*secs).max(1)),
            _ => None,
        }
    }
}

/// A failure of the application's store behind a hook, in its words (the
/// session logs it and carries on where it can).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkError(pub String);

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A connection as the application records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Connection {
    pub connection_id: String,
    /// The subprotocol agreed at the handshake (`ocpp1.6`, `ocpp2.0.1`).
    pub protocol: &'static str,
    /// The handshake's time (of two racing handshakes the newer wins).
    pub connected_at_ms: i64,
    pub remote_address: String,
}

/// A live connection the application knows, found again by its id (a
/// transport that hands each frame over apart, such as API Gateway).
#[derive(Debug, Clone)]
pub struct Known<C> {
    pub charger: C,
    /// The subprotocol as recorded.
    pub protocol: String,
    /// Whether the charger has spoken on it.
    pub started: bool,
    /// Claimed at a handshake that may not have completed.
    pub pending: bool,
}

/// What became of a claimed connection when its charger spoke on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TakeOver {
    /// It is the charger's connection now (unless a newer handshake took
    /// over meanwhile); `replaced` is the connection it replaced.
    Current { replaced: Option<String> },
    /// The application no longer knows the connection.
    Unknown,
}

/// Who sent a CALL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// The charger called us.
    In,
    /// We called the charger.
    Out,
}

/// One exchange for the message log: a CALL and its answer, or a frame
/// that could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct Exchange {
    /// Unix seconds when the CALL arrived.
    pub at: i64,
    pub direction: Direction,
    pub message_id: Option<String>,
    /// None when the frame could not be read (then `request` is its text).
    pub action: Option<String>,
    pub request: Value,
    pub response: Option<Value>,
    /// The CALLERROR sent (or why the frame could not be read).
    pub error: Option<Failure>,
    pub answered_at: Option<i64>,
}

/// A CALLERROR's code and description (sent, or received), or why a
/// frame could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub code: String,
    pub description: String,
}

/// The charger's answer to one of our calls: a CALLRESULT's payload, or a
/// CALLERROR.
pub type Answer = Result<Value, Failure>;

/// What the application does for a charger's connections, for every
/// protocol. `Charger` is the application's own record of the charger,
/// found at the handshake and handed back with every later hook.
#[async_trait]
pub trait Link: Send + Sync {
    type Charger: Clone + Send + Sync + 'static;

    /// The application's clock (unix seconds): the message log's times.
    fn now(&self) -> i64;

    /// The charge point identity (the id the charger connects with).
    fn identity<'c>(&self, charger: &'c Self::Charger) -> &'c str;

    /// The charger a handshake names (`id`: decoded from the URL), or why
    /// not (unknown: 404, guessing from `address`: 429).
    async fn find_charger(&self, id: &str, address: &str) -> Result<Self::Charger, Refusal>;

    /// The OCPP version the charger is registered for: its handshake must
    /// offer that subprotocol.
    fn version(&self, _charger: &Self::Charger) -> crate::Version {
        crate::Version::V16
    }

    /// The OCPP security profile the charger is held to (0: none, 1: Basic
    /// auth, 2: Basic auth over TLS, 3: a TLS client certificate).
    fn security_profile(&self, charger: &Self::Charger) -> u8;

    /// Checks the password the charger offered (None: none, or offered for
    /// another charge point id) from `address`; counts the attempt.
    async fn check_password(&self, charger: &Self::Charger, offered: Option<&str>, address: &str) -> Result<(), Refusal>;

    /// Security profile 3: whether the TLS client certificate chain the
    /// transport saw (DER, the charger's first; empty: none) admits the
    /// charger. A transport that carries no client certificate (API
    /// Gateway's WebSocket API, a proxy that ends TLS) passes none.
    async fn check_client_certificate(&self, _charger: &Self::Charger, _chain: &[Vec<u8>], _address: &str) -> Result<(), Refusal> {
        Err(Refusal::Unauthorized("security profile 3 (TLS client certificates) is not served here".into()))
    }

    /// The connection is open and now the charger's current one (the one
    /// it replaces is over).
    async fn connection_opened(&self, charger: &Self::Charger, connection: &Connection) -> Result<(), LinkError>;

    /// An admitted handshake the transport has not completed yet: recorded,
    /// but the charger's current connection stays current until
    /// [`Link::take_over`].
    async fn connection_claimed(&self, charger: &Self::Charger, connection: &Connection) -> Result<(), LinkError>;

    /// The charger spoke on a claimed connection: it becomes the current
    /// one unless a newer handshake took over.
    async fn take_over(&self, charger: &Self::Charger, connection_id: &str) -> Result<TakeOver, LinkError>;

    /// Closes a connection of the charger (through the outbound port).
    async fn close_connection(&self, charger: &Self::Charger, connection_id: &str);

    /// A connection by its id, if the application still knows it.
    async fn known_connection(&self, connection_id: &str) -> Result<Option<Known<Self::Charger>>, LinkError>;

    /// A frame arrived (the charger is alive).
    async fn seen(&self, charger: &Self::Charger, at: i64);

    /// Records an exchange in the message log.
    async fn log(&self, charger: &Self::Charger, exchange: Exchange);

    /// The charger answered one of our calls on `connection_id`: the
    /// application completes it (and sends what waits), or logs an answer
    /// to nothing, a late one or one from another connection.
    async fn answered(&self, charger: &Self::Charger, connection_id: &str, message_id: &str, answer: Answer);

    /// The answer to a frame is on its way: `first` when it was the
    /// charger's first frame on this connection (it is back), `booted`
    /// when it was an accepted boot (it restarted), neither when the
    /// frame's handler queued a call to follow its answer. What waits for
    /// the charger is sent now, after that answer.
    async fn after_reply(&self, charger: &Self::Charger, connection_id: &str, first: bool, booted: bool);

    /// The connection closed (or died, or was replaced): the charger is
    /// disconnected unless a newer connection took over, and our call in
    /// flight on it ends. `claimed_only`: it never became the charger's
    /// connection (nothing was sent on it).
    async fn connection_closed(&self, charger: &Self::Charger, connection_id: &str, claimed_only: bool);
}

/// The charger's connection is gone (closed, replaced, or never was).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gone;

/// What holds a connection's socket: a gateway process (one of several
/// instances sharing the table, which the connection's record names) or
/// API Gateway's WebSocket API. A deployment with both edges has both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SocketHolder {
    GatewayInstance,
    ApiGateway,
}

/// The outbound port: how the application reaches a connected charger.
/// The local gateway implements it with its live sockets, AWS with
/// `PostToConnection`; the application never knows which.
#[async_trait]
pub trait Outbound: Send + Sync {
    /// Sends a text frame on the charger's current connection.
    async fn send(&self, charger_id: &str, connection_id: &str, frame: String) -> Result<(), Gone>;
    /// Closes a connection (a newer one of the same charger replaced it).
    async fn close(&self, charger_id: &str, connection_id: &str);
    /// The one holder whose sockets this port reaches, when it cannot
    /// reach every connection (`PostToConnection` reaches no gateway
    /// process; a gateway instance reaches no API Gateway connection).
    /// `None`: every connection of the table.
    fn reaches_only(&self) -> Option<SocketHolder> {
        None
    }
}
