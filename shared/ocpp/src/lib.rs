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
