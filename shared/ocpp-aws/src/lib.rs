//! The charger link on AWS. API Gateway's WebSocket API holds the sockets
//! and calls a Lambda per event; these handlers turn the events into the
//! `ocpp` crate's session calls, so the protocol and every rule are the
//! same as on the local gateway:
//! - `$connect`: admit the handshake (charger known, subprotocol, Basic
//!   auth) and claim the connection; never post to it (it is not open yet,
//!   and the handshake may still fail).
//! - `$default` (two-way): a charger's frame in, the answer as the return
//!   value (API Gateway sends it on the socket). The first frame on a
//!   claimed connection makes it the charger's connection and closes the
//!   one it replaces (DeleteConnection).
//! - `$disconnect`: end the connection if it is still the charger's current one.
//! - sweeper (EventBridge, every minute): end silent chargers' connections
//!   and connections past API Gateway's 2-hour limit (a lost `$disconnect`).
//!
//! Outbound frames (remote operations) go through [`outbound::ApiGatewayOutbound`]
//! (`PostToConnection`; 410 Gone = the charger is offline).

pub mod events;

/// `PostToConnection` as the outbound port (kept with the back-office's
/// Lambda adapter: the command routes send with it too).
pub mod outbound {
    pub use backoffice::lambda_outbound::{ApiGatewayOutbound, WS_ENDPOINT_VAR};
}

pub use events::{on_connect, on_disconnect, on_message, queue_age_metric, sweep};

use std::sync::Arc;

use aws_lambda_events::apigw::ApiGatewayWebsocketProxyRequest;
use lambda_runtime::{service_fn, Error, LambdaEvent};

use outbound::WS_ENDPOINT_VAR;

/// Runs the Lambda runtime loop of one charger-link function (its bin
/// names it). The context and clients are built once, before the first event.
pub async fn serve(function: &str) -> Result<(), Error> {
    backoffice::runtime::init_tracing(true);
    // No JWT secret: the charger link issues and verifies no tokens.
    let ctx = backoffice::runtime::context_without_tokens_from_env().await.map_err(|e| e.to_string())?;
    // Completing a charger's answer sends its next queued call.
    outbound::ApiGatewayOutbound::install_from_env(&ctx).await;
    let _ = ctx.charger_edge.set(backoffice::domain::chargers::Edge { aws: true, tls: true });
    match function {
        "ocpp_connect" | "ocpp_message" | "ocpp_disconnect" => {
            let f = function.to_string();
            lambda_runtime::run(service_fn(move |event: LambdaEvent<ApiGatewayWebsocketProxyRequest>| {
                let ctx: Arc<backoffice::AppCtx> = ctx.clone();
                let f = f.clone();
                async move {
                    Ok::<_, Error>(match f.as_str() {
                        "ocpp_connect" => on_connect(&ctx, &event.payload).await,
                        "ocpp_message" => on_message(&ctx, &event.payload).await,
                        _ => on_disconnect(&ctx, &event.payload).await,
                    })
                }
            }))
            .await
        }
        "ocpp_sweeper" => {
            let endpoint = std::env::var(WS_ENDPOINT_VAR).map_err(|_| format!("{WS_ENDPOINT_VAR} is not set"))?;
            let outbound = Arc::new(outbound::ApiGatewayOutbound::new(&endpoint).await);
            lambda_runtime::run(service_fn(move |_event: LambdaEvent<serde_json::Value>| {
                let (ctx, outbound) = (ctx.clone(), outbound.clone());
                async move {
                    let ended = sweep(&ctx, outbound.as_ref()).await.map_err(|e| e.msg.en)?;
                    Ok::<_, Error>(serde_json::json!({ "ended": ended }))
                }
            }))
            .await
        }
        other => Err(format!("{other} is not a charger-link function").into()),
    }
}
