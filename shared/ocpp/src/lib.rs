//! The charger link: OCPP-J (OCPP 1.6 over WebSocket) as the back-office
//! speaks it. No transport and no AWS here: the local gateway and the
//! Lambda functions move frames in and out and call [`session`]; the
//! world is reached through the back-office domain (which talks to the
//! store port) and its clock. Built so 2.0.1 can follow: the subprotocol
//! is negotiated per connection and each version has its handler module.

pub mod fields;
pub mod frame;
pub mod negotiate;
pub mod outbound;
pub mod session;
pub mod v16;

pub use session::{admit, Admitted, Handshake, Refusal, Session};

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
