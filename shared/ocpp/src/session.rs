//! One charger connection, whatever carries it: admission at the
//! handshake, every text frame in, the close. The transport (the local
//! gateway's socket, API Gateway's `$connect`/`$default`/`$disconnect`)
//! only moves frames; the application is reached through the session
//! contract ([`Link`]) and the version's handlers ([`v16::CentralSystem`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use serde_json::Value;

use crate::frame::{self, Frame};
use crate::link::{Connection, Direction, Exchange, Failure, Link, LinkError, Refusal, TakeOver};
use crate::negotiate::{basic_credentials, charge_point_id, offer_hint, pick_subprotocol, SUPPORTED};
use crate::{v16, v201, Version};

/// What an application implements to take chargers: the session contract
/// and the handlers of every version spoken.
pub trait Application: v16::CentralSystem + v201::Csms {}

impl<T: v16::CentralSystem + v201::Csms> Application for T {}

/// A handshake that may proceed: the charger and the version to speak.
#[derive(Debug, Clone)]
pub struct Admitted<C> {
    pub charger: C,
    pub protocol: Version,
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

/// Checks a handshake: a known charger, a subprotocol we speak, the
/// credentials of its security profile (OCPP 1.6 security whitepaper:
/// profile 1 is HTTP Basic auth with the charge point id as the user,
/// profile 2 the same over TLS, profile 3 a TLS client certificate, which
/// only [`admit_with_certificates`] is given).
pub async fn admit<A: Link>(app: &A, h: &Handshake<'_>) -> Result<Admitted<A::Charger>, Refusal> {
    admit_with_certificates(app, h, &[]).await
}

/// [`admit`] by a transport that ends TLS itself: `client_chain` is the
/// charger's TLS client certificate chain (DER, its own first; empty when
/// it presented none), which admits a charger of profile 3.
pub async fn admit_with_certificates<A: Link>(app: &A, h: &Handshake<'_>, client_chain: &[Vec<u8>]) -> Result<Admitted<A::Charger>, Refusal> {
    let id = charge_point_id(h.charge_point).ok_or_else(|| Refusal::BadRequest("the charge point id in the URL is empty or malformed".into()))?;
    let charger = app.find_charger(&id, h.address).await?;
    let wanted = app.version(&charger);
    let protocol = pick_subprotocol(h.protocols, wanted).ok_or_else(|| Refusal::BadRequest(offer_hint(wanted)))?;
    let profile = app.security_profile(&charger);
    if profile >= 3 {
        if !h.secure {
            return Err(Refusal::Unauthorized("this charger's security profile requires TLS (wss://) with a client certificate".into()));
        }
        app.check_client_certificate(&charger, client_chain, h.address).await?;
    } else if profile >= 1 {
        if profile >= 2 && !h.secure {
            return Err(Refusal::Unauthorized("this charger's security profile requires TLS (wss://)".into()));
        }
        let Some((user, password)) = basic_credentials(h.authorization) else {
            return Err(Refusal::Unauthorized("HTTP Basic authentication is required".into()));
        };
        // Counted before the password is checked (429 when over the limits).
        let offered = user.eq_ignore_ascii_case(app.identity(&charger)).then_some(password.as_str());
        app.check_password(&charger, offered, h.address).await?;
    }
    Ok(Admitted { charger, protocol })
}

/// What the last frame means for what waits for the charger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wake {
    /// The charger's first frame on this connection: it is back.
    Reconnected,
    /// A BootNotification answered: it restarted.
    Booted,
    /// The handler queued a call that follows its answer (SignCertificate's
    /// CertificateSigned): the queue is pumped once the answer is out.
    Queued,
}

/// A live connection of one charger.
pub struct Session<C> {
    pub charger: C,
    pub connection_id: String,
    pub protocol: Version,
    /// Whether the charger has spoken on this connection (what waits for
    /// it waits for that: after a restart, for its BootNotification).
    started: AtomicBool,
    /// What the last frame means for the queue, acted on once its answer
    /// is on the way ([`Session::after_reply`]).
    wake: Mutex<Option<Wake>>,
    /// Claimed at a handshake that may not have completed ([`Session::claim`]):
    /// not the charger's connection until [`Session::accept`].
    pending: AtomicBool,
}

impl<C: Clone + Send + Sync + 'static> Session<C> {
    fn connection(protocol: Version, connection_id: &str, remote: &str, connected_at_ms: i64) -> Connection {
        Connection { connection_id: connection_id.into(), protocol: protocol.subprotocol(), connected_at_ms, remote_address: remote.into() }
    }

    /// Records the connection as the charger's current one (`connected_at_ms`:
    /// the handshake's time; of two racing handshakes the newer wins).
    pub async fn open<A: Link<Charger = C>>(app: &A, admitted: Admitted<C>, connection_id: String, remote: &str, connected_at_ms: i64) -> Result<Session<C>, LinkError> {
        app.connection_opened(&admitted.charger, &Self::connection(admitted.protocol, &connection_id, remote, connected_at_ms)).await?;
        Ok(Session::new(admitted.charger, connection_id, admitted.protocol, false, false))
    }

    /// Records an admitted handshake that the transport has not completed
    /// yet (API Gateway's `$connect` runs before the charger gets its
    /// answer, and the handshake can still fail): the charger's current
    /// connection stays its current one until the charger speaks on this
    /// one ([`Session::accept`], from [`Session::resume`]).
    pub async fn claim<A: Link<Charger = C>>(app: &A, admitted: &Admitted<C>, connection_id: &str, remote: &str, connected_at_ms: i64) -> Result<(), LinkError> {
        app.connection_claimed(&admitted.charger, &Self::connection(admitted.protocol, connection_id, remote, connected_at_ms)).await
    }

    fn new(charger: C, connection_id: String, protocol: Version, started: bool, pending: bool) -> Session<C> {
        Session { charger, connection_id, protocol, started: AtomicBool::new(started), wake: Mutex::new(None), pending: AtomicBool::new(pending) }
    }

    /// The charger spoke on a claimed connection, so its handshake
    /// completed: it becomes the charger's connection (if no newer
    /// handshake took over meanwhile), and the connection it replaces is
    /// closed (DeleteConnection on AWS) and ended (its call in flight ends
    /// `connectionClosed`), even if that socket's close never reaches us.
    /// Nothing to do for a connection that is already the charger's.
    pub async fn accept<A: Link<Charger = C>>(&self, app: &A) -> Result<(), LinkError> {
        if !self.pending.load(Ordering::SeqCst) {
            return Ok(());
        }
        let TakeOver::Current { replaced } = app.take_over(&self.charger, &self.connection_id).await? else { return Ok(()) };
        self.pending.store(false, Ordering::SeqCst);
        if let Some(old) = replaced {
            app.close_connection(&self.charger, &old).await;
            Session::new(self.charger.clone(), old, self.protocol, true, false).close(app).await;
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
    /// restarted) sends what waits for it, on this connection and after
    /// that answer.
    pub async fn after_reply<A: Link<Charger = C>>(&self, app: &A) {
        let Some(wake) = self.wake.lock().unwrap_or_else(|p| p.into_inner()).take() else { return };
        let first = !self.started.swap(true, Ordering::SeqCst);
        app.after_reply(&self.charger, &self.connection_id, first, wake == Wake::Booted).await;
    }

    /// Handles one text frame; returns the frame to answer, if any. Then
    /// call [`Session::after_reply`].
    pub async fn on_text<A: Application<Charger = C>>(&self, app: &A, text: &str) -> Option<String> {
        if !self.started.load(Ordering::SeqCst) {
            self.set_wake(Wake::Reconnected);
        }
        let at = app.now();
        app.seen(&self.charger, at).await;
        let (reply, exchange) = match frame::parse(text) {
            Ok(Frame::Call { id, action, payload }) => {
                let handled = match self.protocol {
                    Version::V16 => v16::handle(app, &self.charger, &action, &payload).await,
                    Version::V201 => v201::handle(app, &self.charger, &action, &payload).await,
                };
                if handled.booted {
                    self.set_wake(Wake::Booted);
                } else if action == "SignCertificate" && handled.result.is_ok() {
                    self.set_wake(Wake::Queued);
                }
                let (reply, response, error) = match handled.result {
                    Ok(result) => (frame::call_result(&id, &result), Some(result), None),
                    Err(e) => (frame::call_error_in(self.protocol, &id, &e), None, Some(Failure { code: e.code.spelled(self.protocol).into(), description: e.description })),
                };
                let exchange = Exchange { at, direction: Direction::In, message_id: Some(id), action: Some(action), request: payload, response, error, answered_at: Some(app.now()) };
                (Some(reply), exchange)
            }
            Ok(Frame::Result { id, payload }) => {
                app.answered(&self.charger, &self.connection_id, &id, Ok(payload)).await;
                return None;
            }
            Ok(Frame::Error { id, code, description, .. }) => {
                app.answered(&self.charger, &self.connection_id, &id, Err(Failure { code, description })).await;
                return None;
            }
            Err(bad) => {
                let reply = frame::call_error_in(self.protocol, bad.id.as_deref().unwrap_or("-1"), &bad.error);
                let error = Some(Failure { code: bad.error.code.spelled(self.protocol).into(), description: bad.error.description });
                (Some(reply), Exchange { at, direction: Direction::In, message_id: bad.id, action: None, request: Value::String(text.chars().take(2000).collect()), response: None, error, answered_at: Some(at) })
            }
        };
        app.log(&self.charger, exchange).await;
        reply
    }

    /// The session of a live connection, from its record (a transport that
    /// handles each frame apart, such as API Gateway's `$default`).
    pub async fn resume<A: Link<Charger = C>>(app: &A, connection_id: &str) -> Result<Option<Session<C>>, LinkError> {
        let Some(known) = app.known_connection(connection_id).await? else { return Ok(None) };
        let protocol = Version::from_subprotocol(&known.protocol).filter(|v| SUPPORTED.contains(v)).unwrap_or(SUPPORTED[0]);
        Ok(Some(Session::new(known.charger, connection_id.to_string(), protocol, known.started, known.pending)))
    }

    /// The socket closed (or died): the charger is disconnected unless a
    /// newer connection of it already took over; our call in flight on this
    /// connection ends now (it can no longer be answered).
    pub async fn close<A: Link<Charger = C>>(&self, app: &A) {
        app.connection_closed(&self.charger, &self.connection_id, self.pending.load(Ordering::SeqCst)).await;
    }
}
