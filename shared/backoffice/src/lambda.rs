//! Running one route as an AWS Lambda function behind API Gateway (HTTP
//! API). The bin in `functions/` names its function; everything else is
//! the shared dispatch.

use std::sync::Arc;

use bytes::Bytes;
use lambda_http::{service_fn, Body, Error, Request, RequestExt, Response};

use crate::ctx::AppCtx;
use crate::dispatch::dispatch;
use crate::request::ApiRequest;
use crate::routes::{self, Route, API_BASE};

/// Starts the Lambda runtime loop for `function`. The context (store
/// client, keys) is built once here, before the first event.
pub async fn serve(function: &str) -> Result<(), Error> {
    let route = routes::by_function(function).ok_or_else(|| format!("no route is served by function {function}"))?;
    serve_route(route).await
}

/// Starts the Lambda runtime loop for one route. A bin that names its
/// route here, not through the table, links only that route's handler.
pub async fn serve_route(route: &'static Route) -> Result<(), Error> {
    crate::runtime::init_tracing(true);
    let ctx = crate::runtime::context_from_env().await.map_err(|e| e.to_string())?;
    // The command routes send to chargers through the WebSocket API.
    crate::lambda_outbound::ApiGatewayOutbound::install_from_env(&ctx).await;
    let _ = ctx.charger_edge.set(crate::domain::chargers::Edge { aws: true, tls: true });
    lambda_http::run(service_fn(move |event: Request| {
        let ctx: Arc<AppCtx> = ctx.clone();
        async move { Ok::<_, Error>(Answer(handle(&ctx, route, event).await)) }
    }))
    .await
}

/// An answer whose body [`handle`] has already made text or binary.
/// lambda_http's own conversion of a `Response` decodes text bodies by their
/// `charset` with encoding_rs, which links every encoding's tables into the
/// function; the product's text is always UTF-8, so none is needed.
struct Answer(Response<Body>);

impl lambda_http::IntoResponse for Answer {
    fn into_response(self) -> std::pin::Pin<Box<dyn std::future::Future<Output = Response<Body>> + Send>> {
        Box::pin(std::future::ready(self.0))
    }
}

/// The body as API Gateway carries it: text for an uncompressed textual
/// (or untyped) UTF-8 answer, as lambda_http would make it, otherwise
/// binary (base64 on the wire).
fn lambda_body(headers: &http::HeaderMap, body: Bytes) -> Body {
    if body.is_empty() {
        return Body::Empty;
    }
    let textual = match headers.get(http::header::CONTENT_TYPE) {
        None => true,
        Some(ct) => {
            let ct = ct.to_str().unwrap_or_default();
            let mime = ct.split(';').next().unwrap_or_default().trim();
            ["text", "application/json", "application/javascript", "application/xml", "application/yaml"].iter().any(|p| ct.starts_with(p))
                || ["+xml", "+yaml", "+json"].iter().any(|s| mime.ends_with(s))
        }
    };
    if textual && headers.get(http::header::CONTENT_ENCODING).is_none() {
        if let Ok(text) = std::str::from_utf8(&body) {
            return Body::Text(text.to_owned());
        }
    }
    Body::Binary(body.to_vec())
}

/// One API Gateway event through the route. With the origin secret
/// configured (behind CloudFront), a request without the right
/// `X-Origin-Verify` is refused before anything else runs: it came to the
/// API Gateway URL directly, around the distribution.
pub async fn handle(ctx: &AppCtx, route: &Route, event: Request) -> Response<Body> {
    let origin_secret = ctx.config.origin_verify_secret.as_deref();
    let req = to_api_request(event, origin_secret);
    let resp = match origin_secret {
        Some(secret) if !crate::client_ip::from_distribution(&req.headers, secret) => {
            tracing::warn!(function = route.function, client_ip = %req.client_ip, "refused: not through the distribution");
            crate::client_ip::not_through_distribution().to_response(req.lang())
        }
        _ => dispatch(ctx, route, req).await,
    };
    let (parts, body) = resp.into_parts();
    let body = lambda_body(&parts.headers, body);
    Response::from_parts(parts, body)
}

fn to_api_request(event: Request, origin_secret: Option<&str>) -> ApiRequest {
    let source_ip = match event.request_context_ref() {
        Some(lambda_http::request::RequestContext::ApiGatewayV2(ctx)) => ctx.http.source_ip.clone(),
        _ => None,
    };
    let client_ip = crate::client_ip::client_ip(event.headers(), source_ip.as_deref(), origin_secret);
    let query = event
        .query_string_parameters_ref()
        .map(|q| q.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect())
        .unwrap_or_default();
    let (parts, body) = event.into_parts();
    let path = parts.uri.path().strip_prefix(API_BASE).unwrap_or(parts.uri.path()).to_string();
    let body = match body {
        Body::Empty => Bytes::new(),
        Body::Text(t) => Bytes::from(t),
        Body::Binary(b) => Bytes::from(b),
        _ => Bytes::new(),
    };
    // API Gateway (and CloudFront before it) answer https only.
    ApiRequest { method: parts.method, path, query, headers: parts.headers, body, client_ip, https: true }
}
