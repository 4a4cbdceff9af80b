//! What the charger link's Lambda tests share beyond the back-office's
//! test helpers.

use std::sync::Mutex;

use ocpp::link::{Gone, Outbound, SocketHolder};

/// An outbound port that writes down what it was asked to do
/// (`send {connection} {frame}`, `close {connection}`) instead of posting
/// to API Gateway; it reaches every connection, or only those of the
/// holder it is given (a gateway instance beside the Lambdas).
#[derive(Default)]
pub struct Recorder(pub Mutex<Vec<String>>, pub Option<SocketHolder>);

#[async_trait::async_trait]
impl Outbound for Recorder {
    async fn send(&self, _pile: &str, connection: &str, frame: String) -> Result<(), Gone> {
        self.0.lock().unwrap().push(format!("send {connection} {frame}"));
        Ok(())
    }
    async fn close(&self, _pile: &str, connection: &str) {
        self.0.lock().unwrap().push(format!("close {connection}"));
    }
    fn reaches_only(&self) -> Option<SocketHolder> {
        self.1
    }
}
