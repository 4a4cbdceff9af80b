//! `PostToConnection` as the link's outbound port. The client is built
//! once per process (in `main`), pointed at the WebSocket API's
//! `https://{api}.execute-api.{region}.amazonaws.com/{stage}` endpoint.

use async_trait::async_trait;
use aws_sdk_apigatewaymanagement::primitives::Blob;
use aws_sdk_apigatewaymanagement::Client;
use crate::domain::chargers::outbound::{Gone, Outbound, SocketHolder};

pub struct ApiGatewayOutbound {
    client: Client,
}

impl ApiGatewayOutbound {
    /// A client for the `@connections` endpoint (`endpoint`: the API's
    /// stage URL, or a local stand-in in tests).
    pub async fn new(endpoint: &str) -> ApiGatewayOutbound {
        let shared = store::dynamo::sdk_config(None, None).await;
        let config = aws_sdk_apigatewaymanagement::config::Builder::from(&shared).endpoint_url(endpoint).build();
        ApiGatewayOutbound { client: Client::from_conf(config) }
    }

    pub fn from_client(client: Client) -> ApiGatewayOutbound {
        ApiGatewayOutbound { client }
    }

    /// Installs the outbound port into a Lambda function's context when the
    /// stack gives the WebSocket endpoint (functions that send to chargers).
    pub async fn install_from_env(ctx: &crate::AppCtx) {
        if let Ok(endpoint) = std::env::var(WS_ENDPOINT_VAR) {
            let _ = ctx.outbound.set(std::sync::Arc::new(ApiGatewayOutbound::new(&endpoint).await));
        }
    }
}

/// The environment variable naming the WebSocket API's `@connections`
/// endpoint (`https://{api}.execute-api.{region}.amazonaws.com/{stage}`).
pub const WS_ENDPOINT_VAR: &str = "BACKOFFICE_WS_ENDPOINT";

#[async_trait]
impl Outbound for ApiGatewayOutbound {
    /// 410 Gone (the socket closed) and any other failure mean the frame
    /// did not reach the charger: the caller treats it as offline.
    async fn send(&self, _pile_id: &str, connection_id: &str, frame: String) -> Result<(), Gone> {
        match self.client.post_to_connection().connection_id(connection_id).data(Blob::new(frame.into_bytes())).send().await {
            Ok(_) => Ok(()),
            Err(e) => {
                let gone = e.as_service_error().is_some_and(|s| s.is_gone_exception());
                if !gone {
                    tracing::warn!(connection = connection_id, error = %e, "PostToConnection failed");
                }
                Err(Gone)
            }
        }
    }

    /// A gateway process's sockets (the container edge's) are not API
    /// Gateway's connections: what is queued for them waits for that
    /// process's own sweep.
    fn reaches_only(&self) -> Option<SocketHolder> {
        Some(SocketHolder::ApiGateway)
    }

    async fn close(&self, _pile_id: &str, connection_id: &str) {
        if let Err(e) = self.client.delete_connection().connection_id(connection_id).send().await {
            let gone = e.as_service_error().is_some_and(|s| s.is_gone_exception());
            if !gone {
                tracing::warn!(connection = connection_id, error = %e, "DeleteConnection failed");
            }
        }
    }
}
