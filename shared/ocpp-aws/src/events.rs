//! API Gateway WebSocket events -> the charger link. Pure async functions
//! over a context, so tests call them with event payloads directly.

use aws_lambda_events::apigw::{ApiGatewayProxyResponse, ApiGatewayWebsocketProxyRequest};
use aws_lambda_events::encodings::Body;
use backoffice::domain::chargers::{commands, sweep};
use backoffice::AppCtx;
use http::HeaderMap;
use ocpp::link::Outbound;
use ocpp::{Handshake, Session};

fn response(status: i64, headers: HeaderMap, body: Option<String>) -> ApiGatewayProxyResponse {
    let mut r = ApiGatewayProxyResponse::default();
    r.status_code = status;
    r.headers = headers;
    r.body = body.map(Body::Text);
    r
}

fn header<'a>(e: &'a ApiGatewayWebsocketProxyRequest, name: &str) -> Option<&'a str> {
    e.headers.get(name).and_then(|v| v.to_str().ok())
}

fn connection_id(e: &ApiGatewayWebsocketProxyRequest) -> &str {
    e.request_context.connection_id.as_deref().unwrap_or_default()
}

/// `$connect`: the charge point id comes as `?cp=` (CloudFront rewrites
/// `/ocpp/{id}` to `/{stage}?cp={id}`: API Gateway takes no path after the
/// stage). The chosen subprotocol is answered in `Sec-WebSocket-Protocol`
/// (only the integration can set it). A refusal is a plain HTTP status.
pub async fn on_connect(ctx: &AppCtx, e: &ApiGatewayWebsocketProxyRequest) -> ApiGatewayProxyResponse {
    let cp = e.query_string_parameters.first("cp").unwrap_or_default().to_string();
    // The charger's own address: CloudFront's viewer address when the
    // connection proves it came through the distribution, else the source.
    let remote = backoffice::client_ip::client_ip(&e.headers, e.request_context.identity.source_ip.as_deref(), ctx.config.origin_verify_secret.as_deref());
    let handshake = Handshake {
        charge_point: &cp,
        protocols: header(e, "sec-websocket-protocol"),
        authorization: header(e, "authorization"),
        // API Gateway WebSocket APIs are wss:// only.
        secure: true,
        address: &remote,
    };
    let admitted = match ocpp::admit(ctx, &handshake).await {
        Ok(a) => a,
        Err(refusal) => {
            tracing::info!(charge_point = %cp, status = refusal.status(), reason = refusal.reason(), "charger refused");
            let mut headers = HeaderMap::new();
            if let Some(secs) = refusal.retry_after() {
                headers.insert(http::header::RETRY_AFTER, http::HeaderValue::from(secs));
            }
            return response(refusal.status() as i64, headers, Some(refusal.reason().to_string()));
        }
    };
    let protocol = admitted.protocol.subprotocol();
    // The handshake's own time orders two racing connects (newest wins).
    let at_ms = e.request_context.request_time_epoch;
    // Only claimed: the handshake completes after this answer (and may
    // fail); the connection takes over at the charger's first message.
    match Session::claim(ctx, &admitted, connection_id(e), &remote, at_ms).await {
        Ok(_) => {
            let mut headers = HeaderMap::new();
            headers.insert("sec-websocket-protocol", http::HeaderValue::from_static(protocol));
            response(200, headers, None)
        }
        Err(err) => {
            tracing::error!(error = %err, "could not record a charger connection");
            response(503, HeaderMap::new(), Some("try again".into()))
        }
    }
}

/// `$default`: one frame from a charger; the answer frame is the return
/// value (the route has a two-way route response). A frame of a
/// connection we no longer know gets no answer (its `$disconnect` is near).
pub async fn on_message(ctx: &AppCtx, e: &ApiGatewayWebsocketProxyRequest) -> ApiGatewayProxyResponse {
    let session = match Session::resume(ctx, connection_id(e)).await {
        Ok(Some(s)) => s,
        Ok(None) => {
            tracing::info!(connection = connection_id(e), "frame of an unknown connection");
            return response(200, HeaderMap::new(), None);
        }
        Err(err) => {
            tracing::error!(error = %err, "could not read a charger connection");
            return response(200, HeaderMap::new(), None);
        }
    };
    // The first message on a claimed connection: the handshake completed,
    // so it is the charger's connection now (the one it replaces is closed).
    if let Err(err) = session.accept(ctx).await {
        tracing::error!(error = %err, "could not take over a charger connection");
        return response(200, HeaderMap::new(), None);
    }
    let text = e.body.as_deref().unwrap_or_default();
    let reply = session.on_text(ctx, text).await;
    if !session.wants_wake() {
        return response(200, HeaderMap::new(), reply);
    }
    // The charger's first message here, or its BootNotification: what waits
    // in its queue is sent now, after this answer. The route response would
    // only leave when the function returns, so the answer is posted first.
    if let (Some(out), Some(r)) = (ctx.outbound.get(), &reply) {
        if out.send(&session.charger.id, &session.connection_id, r.clone()).await.is_err() {
            return response(200, HeaderMap::new(), None);
        }
        session.after_reply(ctx).await;
        return response(200, HeaderMap::new(), None);
    }
    session.after_reply(ctx).await;
    response(200, HeaderMap::new(), reply)
}

/// `$disconnect`: may arrive late, after the charger reconnected; then it
/// changes nothing but its own connection record.
pub async fn on_disconnect(ctx: &AppCtx, e: &ApiGatewayWebsocketProxyRequest) -> ApiGatewayProxyResponse {
    if let Ok(Some(session)) = Session::resume(ctx, connection_id(e)).await {
        session.close(ctx).await;
    } else if let Ok(Some(c)) = backoffice::domain::chargers::link::connection(ctx, connection_id(e)).await {
        // The pile is gone: drop the record all the same.
        let _ = backoffice::domain::chargers::link::disconnected(ctx, &c.pile_id, &c.connection_id).await;
    }
    response(200, HeaderMap::new(), None)
}

/// The sweeper: times out unanswered calls (sending the next queued one),
/// ends silent chargers' connections and closes their sockets, then
/// publishes the queue's age. Returns how many connections were ended.
pub async fn sweep(ctx: &AppCtx, outbound: &dyn Outbound) -> Result<usize, envelope::ApiError> {
    let timed_out = commands::expire(ctx).await?;
    if timed_out > 0 {
        tracing::info!(timed_out, "calls to chargers timed out");
    }
    let ended = sweep::end_silent_connections(ctx).await?;
    for c in &ended {
        outbound.close(&c.pile_id, &c.connection_id).await;
    }
    if let Some(table) = ctx.config.store.dynamo_table() {
        let age = commands::oldest_queued_age(ctx).await?;
        // Lambda sends stdout to CloudWatch Logs, which makes the metric of it.
        println!("{}", queue_age_metric(table, age, ctx.now() * 1000));
    }
    Ok(ended.len())
}

/// The queue's age as a CloudWatch embedded-metric-format record: one
/// JSON object whose `_aws` block names the metric, its unit and its
/// dimension, beside their values.
pub fn queue_age_metric(table: &str, age_secs: i64, timestamp_ms: i64) -> String {
    serde_json::json!({
        "_aws": {
            "Timestamp": timestamp_ms,
            "CloudWatchMetrics": [{
                "Namespace": commands::QUEUE_AGE_NAMESPACE,
                "Dimensions": [[commands::QUEUE_AGE_DIMENSION]],
                "Metrics": [{ "Name": commands::QUEUE_AGE_METRIC, "Unit": "Seconds" }],
            }],
        },
        commands::QUEUE_AGE_DIMENSION: table,
        commands::QUEUE_AGE_METRIC: age_secs,
    })
    .to_string()
}
