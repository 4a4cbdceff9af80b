//! The outbound port: how the back-office reaches a connected charger. The
//! local gateway implements it with its live sockets, AWS with
//! `PostToConnection`; the link never knows which. Installed once per
//! process into the context (`AppCtx::outbound`).

use async_trait::async_trait;

/// The charger's connection is gone (closed, replaced, or never was).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gone;

#[async_trait]
pub trait Outbound: Send + Sync {
    /// Sends a text frame on the charger's current connection.
    async fn send(&self, pile_id: &str, connection_id: &str, frame: String) -> Result<(), Gone>;
    /// Closes a connection (a newer one of the same charger replaced it).
    async fn close(&self, pile_id: &str, connection_id: &str);
}
