//! One charger connection, whatever carries it: admission at the
//! handshake, every text frame in, the close. The transport (the local
//! gateway's socket, API Gateway's `$connect`/`$default`/`$disconnect`)
//! only moves frames.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use backoffice::domain::assets::piles::{find_by_code, Pile};
use backoffice::domain::chargers::budget;
use backoffice::domain::chargers::commands::{self, Wake};
use backoffice::domain::chargers::log::{self, Direction, LoggedError, MessageLogEntry};
use backoffice::domain::chargers::link;
use backoffice::AppCtx;
use serde_json::Value;

use crate::frame::{self, Frame};
use crate::negotiate::{basic_credentials, charge_point_id, pick_subprotocol};
use crate::v16;

/// Why a handshake is refused, as the HTTP status to answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// 400: no subprotocol we speak was offered, or the id is malformed.
    BadRequest(String),
    /// 401: credentials missing or wrong, or none set for the pile.
    Unauthorized(String),
    /// 404: no pile has this charge point id.
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

/// A handshake that may proceed: the pile and the subprotocol to answer.
#[derive(Debug, Clone)]
pub struct Admitted {
    pub pile: Pile,
    pub protocol: &'static str,
}

/// What the handshake carried.
pub struct Handshake<'a> {
    /// The raw last path segment (`/ocpp/{id}`) or `?cp=` value.
    pub charge_point: &'a str,
    pub protocols: Option<&'a str>,
    pub authorization: Option<&'a str>,
    /// Whether the connection came over TLS (security profile 2 needs it).
    pub secure: bool,
    /// The charger's address (guessing is limited per address).
    pub address: &'a str,
}

/// Checks a handshake: known charger, a subprotocol we speak, its
/// security profile's credentials.
pub async fn admit(ctx: &AppCtx, h: &Handshake<'_>) -> Result<Admitted, Refusal> {
    use backoffice::domain::chargers::guard::{self, Verdict};
    let id = charge_point_id(h.charge_point).ok_or_else(|| Refusal::BadRequest("the charge point id in the URL is empty or malformed".into()))?;
    let pile = match find_by_code(ctx, &id).await {
        Ok(Some(p)) => p,
        Ok(None) => {
            // Guessing which ids exist counts against the address too.
            if let Some(wait) = guard::unknown_charger(ctx, h.address).await.map_err(|_| Refusal::Unavailable)? {
                return Err(Refusal::TooMany(wait));
            }
            return Err(Refusal::UnknownCharger(format!("no pile has the charge point id {id}")));
        }
        Err(_) => return Err(Refusal::Unavailable),
    };
    let protocol = pick_subprotocol(h.protocols).ok_or_else(|| Refusal::BadRequest("offer the subprotocol ocpp1.6 in Sec-WebSocket-Protocol".into()))?;
    let profile = pile.security_profile.max(backoffice::domain::chargers::least_security_profile(ctx));
    if profile >= 1 {
        if profile >= 2 && !h.secure {
            return Err(Refusal::Unauthorized("this charger's security profile requires TLS (wss://)".into()));
        }
        let Some((user, password)) = basic_credentials(h.authorization) else {
            return Err(Refusal::Unauthorized("HTTP Basic authentication is required".into()));
        };
        // Counted before the password is checked (429 when over the limits).
        let offered = user.eq_ignore_ascii_case(&pile.code).then_some(password.as_str());
        match guard::check(ctx, &pile, offered, h.address).await.map_err(|_| Refusal::Unavailable)? {
            Verdict::Right => {}
            Verdict::Wrong => return Err(Refusal::Unauthorized("wrong charge point id or password".into())),
            Verdict::Wait(secs) => return Err(Refusal::TooMany(secs)),
        }
    }
    Ok(Admitted { pile, protocol })
}

/// A live connection of one charger.
pub struct Session {
    pub pile: Pile,
    pub connection_id: String,
    pub protocol: &'static str,
    /// Whether the charger has spoken on this connection (the queue of
    /// commands waits for that: after a restart, for its BootNotification).
    started: AtomicBool,
    /// What the last frame means for the queue, acted on once its answer
    /// is on the way ([`Session::after_reply`]).
    wake: Mutex<Option<Wake>>,
    /// Claimed at a handshake that may not have completed ([`Session::claim`]):
    /// not the charger's connection until [`Session::accept`].
    pending: AtomicBool,
}

impl Session {
    /// Records the connection as the charger's current one (`connected_at_ms`:
    /// the handshake's time; of two racing handshakes the newer wins).
    pub async fn open(ctx: &AppCtx, admitted: Admitted, connection_id: String, remote: &str, connected_at_ms: i64) -> Result<Session, envelope::ApiError> {
        let record = Self::record(&admitted, &connection_id, remote, connected_at_ms);
        link::connected(ctx, &admitted.pile, &record, remote).await?;
        Ok(Session::new(admitted.pile, connection_id, admitted.protocol, false, false))
    }

    /// Records an admitted handshake that the transport has not completed
    /// yet (API Gateway's `$connect` runs before the charger gets its
    /// answer, and the handshake can still fail): the charger's current
    /// connection stays its current one until the charger speaks on this
    /// one ([`Session::accept`], from [`Session::resume`]).
    pub async fn claim(ctx: &AppCtx, admitted: &Admitted, connection_id: &str, remote: &str, connected_at_ms: i64) -> Result<(), envelope::ApiError> {
        link::claimed(ctx, &Self::record(admitted, connection_id, remote, connected_at_ms)).await
    }

    fn record(admitted: &Admitted, connection_id: &str, remote: &str, connected_at_ms: i64) -> link::Connection {
        link::Connection {
            connection_id: connection_id.into(),
            pile_id: admitted.pile.id.clone(),
            protocol: admitted.protocol.into(),
            connected_at_ms,
            queue_started: false,
            pending: false,
            remote_address: remote.into(),
        }
    }

    fn new(pile: Pile, connection_id: String, protocol: &'static str, started: bool, pending: bool) -> Session {
        Session { pile, connection_id, protocol, started: AtomicBool::new(started), wake: Mutex::new(None), pending: AtomicBool::new(pending) }
    }

    /// The charger spoke on a claimed connection, so its handshake
    /// completed: it becomes the charger's connection (if no newer
    /// handshake took over meanwhile), and the connection it replaces is
    /// closed (DeleteConnection on AWS) and ended (its call in flight ends
    /// `connectionClosed`), even if that socket's close never reaches us.
    /// Nothing to do for a connection that is already the charger's.
    pub async fn accept(&self, ctx: &AppCtx) -> Result<(), envelope::ApiError> {
        if !self.pending.load(Ordering::SeqCst) {
            return Ok(());
        }
        let Some(record) = link::connection(ctx, &self.connection_id).await? else { return Ok(()) };
        let replaced = link::take_over(ctx, &self.pile, &record).await?;
        self.pending.store(false, Ordering::SeqCst);
        if let Some(old) = replaced {
            match ctx.outbound.get() {
                Some(out) => out.close(&self.pile.id, &old).await,
                None => tracing::warn!(pile = %self.pile.code, connection = %old, "the replaced connection cannot be closed from here"),
            }
            Session::new(self.pile.clone(), old, self.protocol, true, false).close(ctx).await;
        }
        Ok(())
    }

    fn set_wake(&self, wake: Wake) {
        let mut w = self.wake.lock().unwrap_or_else(|p| p.into_inner());
        if *w != Some(Wake::Booted) {
            *w = Some(wake);
        }
    }

    /// Whether [`Session::after_reply`] has work to do for the last frame
    /// (the charger's first message here, or a BootNotification).
    pub fn wants_wake(&self) -> bool {
        self.wake.lock().unwrap_or_else(|p| p.into_inner()).is_some()
    }

    /// Call after the answer to a frame went out: the charger's first
    /// message on this connection (it is back) or its BootNotification (it
    /// restarted) sends what waits in its queue, on this connection and
    /// after that answer.
    pub async fn after_reply(&self, ctx: &AppCtx) {
        let Some(wake) = self.wake.lock().unwrap_or_else(|p| p.into_inner()).take() else { return };
        if !self.started.swap(true, Ordering::SeqCst) {
            if let Err(e) = link::queue_started(ctx, &self.connection_id).await {
                tracing::warn!(error = %e.msg.en, "could not record the connection's first message");
            }
        }
        if let Err(e) = commands::pump(ctx, &self.pile.id, wake).await {
            tracing::warn!(error = %e.msg.en, "could not send the charger's queued commands");
        }
        // Here, not while the BootNotification is handled: its share must
        // reach the charger after the answer that accepts it.
        if wake == Wake::Booted {
            if let Err(e) = budget::pile_booted(ctx, &self.pile.id).await {
                tracing::warn!(error = %e.msg.en, "could not send the station's power budget share");
            }
        }
    }

    /// Handles one text frame; returns the frame to answer, if any. Then
    /// call [`Session::after_reply`].
    pub async fn on_text(&self, ctx: &AppCtx, text: &str) -> Option<String> {
        if !self.started.load(Ordering::SeqCst) {
            self.set_wake(Wake::Reconnected);
        }
        let at = ctx.now();
        if let Err(e) = link::seen(ctx, &self.pile.id, at).await {
            tracing::warn!(error = %e.msg.en, "could not record the charger's last message");
        }
        let (reply, entry) = match frame::parse(text) {
            Ok(Frame::Call { id, action, payload }) => {
                let answer = v16::handle(ctx, &self.pile, &action, &payload).await;
                if action == "BootNotification" && answer.is_ok() {
                    self.set_wake(Wake::Booted);
                }
                let (reply, response, error) = match answer {
                    Ok(result) => (frame::call_result(&id, &result), Some(result), None),
                    Err(e) => (frame::call_error(&id, &e), None, Some(LoggedError { code: e.code.as_str().into(), description: e.description })),
                };
                let entry = MessageLogEntry { at, direction: Direction::In, message_id: Some(id), action: Some(action), request: payload, response, error, answered_at: Some(ctx.now()) };
                (Some(reply), entry)
            }
            Ok(Frame::Result { id, payload }) => {
                self.answered(ctx, &id, Ok(payload)).await;
                return None;
            }
            Ok(Frame::Error { id, code, description, .. }) => {
                self.answered(ctx, &id, Err(LoggedError { code, description })).await;
                return None;
            }
            Err(bad) => {
                let reply = frame::call_error(bad.id.as_deref().unwrap_or("-1"), &bad.error);
                let error = Some(LoggedError { code: bad.error.code.as_str().into(), description: bad.error.description });
                (Some(reply), MessageLogEntry { at, direction: Direction::In, message_id: bad.id, action: None, request: Value::String(text.chars().take(2000).collect()), response: None, error, answered_at: Some(at) })
            }
        };
        if let Err(e) = log::append(ctx, &self.pile.id, entry).await {
            tracing::warn!(error = %e.msg.en, "could not write the message log");
        }
        reply
    }

    /// The session of a live connection, from its record (a transport that
    /// handles each frame apart, such as API Gateway's `$default`).
    pub async fn resume(ctx: &AppCtx, connection_id: &str) -> Result<Option<Session>, envelope::ApiError> {
        let Some(c) = link::connection(ctx, connection_id).await? else { return Ok(None) };
        let pile = match backoffice::domain::assets::piles::get_pile(ctx, &c.pile_id).await {
            Ok(p) => p,
            Err(e) if e.code == 404 => return Ok(None),
            Err(e) => return Err(e),
        };
        let protocol = crate::negotiate::SUPPORTED.iter().copied().find(|p| *p == c.protocol).unwrap_or(crate::negotiate::SUPPORTED[0]);
        Ok(Some(Session::new(pile, c.connection_id, protocol, c.queue_started, c.pending)))
    }

    /// The charger's answer to one of our calls: completes its command (and
    /// sends the next queued one). An answer to nothing, a late one, or one
    /// to a call sent on another connection is logged and never applied.
    async fn answered(&self, ctx: &AppCtx, id: &str, answer: Result<Value, LoggedError>) {
        let unmatched = answer.clone();
        match commands::complete(ctx, &self.pile.id, &self.connection_id, id, answer).await {
            Ok(commands::Completion::Applied(_)) => {}
            Ok(other) => {
                tracing::info!(pile = %self.pile.code, id, outcome = ?other, "answer for no pending call: logged, not applied");
                let (response, error) = match unmatched {
                    Ok(v) => (Some(commands::redact_answer(v)), None),
                    Err(e) => (None, Some(e)),
                };
                let entry = MessageLogEntry { at: ctx.now(), direction: Direction::Out, message_id: Some(id.to_string()), action: None, request: Value::Null, response, error, answered_at: Some(ctx.now()) };
                if let Err(e) = log::append(ctx, &self.pile.id, entry).await {
                    tracing::warn!(error = %e.msg.en, "could not write the message log");
                }
            }
            Err(e) => tracing::error!(error = %e.msg.en, "could not complete a command"),
        }
    }

    /// The socket closed (or died): the charger is disconnected unless a
    /// newer connection of it already took over; our call in flight on this
    /// connection ends now (it can no longer be answered).
    pub async fn close(&self, ctx: &AppCtx) {
        match link::disconnected(ctx, &self.pile.id, &self.connection_id).await {
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e.msg.en, "could not record the disconnect"),
        }
        if self.pending.load(Ordering::SeqCst) {
            // Never the charger's connection: nothing was sent on it.
            return;
        }
        if let Err(e) = commands::connection_ended(ctx, &self.pile.id, &self.connection_id).await {
            tracing::warn!(error = %e.msg.en, "could not end the call in flight on a closed connection");
        }
    }
}
