//! The charger link's protocol layer: OCPP-J (OCPP 1.6 over WebSocket)
//! with nothing of the application and no transport. Layers, bottom up:
//! - [`frame`]: the OCPP-J envelope (CALL, CALLRESULT, CALLERROR);
//! - [`v16::messages`] and [`v201::messages`]: one Rust
//!   type per message of each version, both directions, generated from the
//!   official JSON schemas by `ocpp-codegen`, read through [`schema`]
//!   (every keyword checked, a violation is the CALLERROR the
//!   specification names, with the field's path) after the documented
//!   coercions of [`coerce`] for what real chargers get wrong;
//! - [`negotiate`]: the handshake's rules (subprotocol, charge point id,
//!   Basic auth);
//! - [`link`]: the session contract the application implements (the
//!   charger and its admission, the connection records, the message log,
//!   the answers to our calls, the close) and the outbound port;
//! - [`v16`]: the 1.6 handlers' trait ([`v16::CentralSystem`], one method
//!   per charger-initiated action) and its dispatch; [`v201`] the same for
//!   2.0.1 ([`v201::Csms`]);
//! - [`session`]: one connection, whatever carries it (the local
//!   gateway's socket, API Gateway's `$connect`/`$default`/`$disconnect`).
//!
//! A second protocol is a sibling of [`v16`] over the same [`link::Link`]
//! (2.0.1 next to it here; the YKC codec in `shared/ykc` gets a session of
//! its own over the same hooks), never a copy of the session.

pub mod coerce;
pub mod frame;
pub mod link;
pub mod negotiate;
pub mod schema;
pub mod session;
pub mod v16;
pub mod v201;

pub use link::{Link, Outbound, Refusal};
pub use session::{admit, admit_with_certificates, Admitted, Handshake, Session};

/// The OCPP versions this crate has types for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Version {
    V16,
    V201,
}

impl Version {
    /// The WebSocket subprotocol that names the version.
    pub fn subprotocol(self) -> &'static str {
        match self {
            Version::V16 => "ocpp1.6",
            Version::V201 => "ocpp2.0.1",
        }
    }

    /// How staff read it (`1.6`, `2.0.1`).
    pub fn label(self) -> &'static str {
        match self {
            Version::V16 => "1.6",
            Version::V201 => "2.0.1",
        }
    }

    pub fn from_subprotocol(s: &str) -> Option<Version> {
        [Version::V16, Version::V201].into_iter().find(|v| v.subprotocol() == s)
    }
}

/// A charger's CALL handled: the answer's payload or the CALLERROR, and
/// whether it was a BootNotification the application accepted (the
/// charger restarted: what waits for it goes after this answer).
#[derive(Debug)]
pub struct Handled {
    pub result: Result<serde_json::Value, frame::CallError>,
    pub booted: bool,
}

impl Handled {
    pub(crate) fn of(result: Result<serde_json::Value, frame::CallError>) -> Handled {
        Handled { result, booted: false }
    }
}

/// Reads a charger's CALL: coercions, then the schema, as lenient as
/// chargers need (`Mode::Charger`); a payload that does not read is the
/// CALLERROR to send back.
pub(crate) fn read<R: schema::FromJson>(payload: &serde_json::Value) -> Result<R, frame::CallError> {
    schema::parse(payload, schema::Mode::Charger).map_err(|v| v.to_call_error())
}

/// Answers a charger's CALL with what `handler` makes of it once [`read`]:
/// each version's dispatch calls this with its trait's method.
pub(crate) async fn answer<R, S, F>(payload: &serde_json::Value, handler: impl FnOnce(R) -> F) -> Result<serde_json::Value, frame::CallError>
where
    R: schema::FromJson,
    S: serde::Serialize,
    F: std::future::Future<Output = Result<S, frame::CallError>>,
{
    serde_json::to_value(handler(read(payload)?).await?).map_err(|_| frame::CallError::internal())
}

/// Who sends an action's CALL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sender {
    /// The charger (charge point, charging station).
    Charger,
    /// The server (central system, CSMS).
    Server,
    /// Either side (DataTransfer).
    Either,
}

/// The largest message a charger may send (API Gateway's WebSocket limit,
/// kept locally too so a charger behaves the same everywhere).
pub const MAX_MESSAGE_BYTES: usize = 128 * 1024;

/// Wall-clock milliseconds, to order two handshakes of one charger.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// One AWS Lambda function of the charger link (its bin in `functions/`,
/// its resources in `template.yaml`).
pub struct LinkFunction {
    pub function: &'static str,
    /// The WebSocket route it serves; None for the scheduled sweeper.
    pub route_key: Option<&'static str>,
    pub summary: &'static str,
}

/// The charger link's Lambda functions: the one list the bins, the
/// template and the tests read.
pub const LINK_FUNCTIONS: &[LinkFunction] = &[
    LinkFunction { function: "ocpp_connect", route_key: Some("$connect"), summary: "Charger handshake: known charger, subprotocol, Basic auth; records the connection" },
    LinkFunction { function: "ocpp_message", route_key: Some("$default"), summary: "A charger's OCPP frame; the answer is the route response" },
    LinkFunction { function: "ocpp_disconnect", route_key: Some("$disconnect"), summary: "A charger's socket closed: ends the connection if still current" },
    LinkFunction { function: "ocpp_sweeper", route_key: None, summary: "Every minute: ends the connections of chargers gone silent" },
];
