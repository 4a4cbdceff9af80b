//! The outbound port: how the back-office reaches a connected charger. It
//! is the protocol layer's (`ocpp::link::Outbound`): the local gateway
//! implements it with its live sockets, AWS with `PostToConnection`; the
//! link never knows which. Installed once per process into the context
//! (`AppCtx::outbound`).

pub use ocpp::link::{Gone, Outbound, SocketHolder};
