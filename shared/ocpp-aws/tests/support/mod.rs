//! What the charger link's Lambda tests share beyond the back-office's
//! test helpers.

use std::sync::Mutex;

use ocpp::link::{Gone, Outbound};

/// An outbound port that writes down what it was asked to do
/// (`send {connection} {frame}`, `close {connection}`) instead of posting
/// to API Gateway.
#[derive(Default)]
pub struct Recorder(pub Mutex<Vec<String>>);

#[async_trait::async_trait]
impl Outbound for Recorder {
    async fn send(&self, _pile: &str, connection: &str, frame: String) -> Result<(), Gone> {
        self.0.lock().unwrap().push(format!("send {connection} {frame}"));
        Ok(())
    }
    async fn close(&self, _pile: &str, connection: &str) {
        self.0.lock().unwrap().push(format!("close {connection}"));
    }
}
