//! What the people who run the gateway look at: `GET /healthz` (the
//! process answers), `GET /readyz` (the store answers too) and a
//! Prometheus `GET /metrics` (requests and latency per route, answers by
//! status, sign-in failures, connected chargers). `/metrics` answers only
//! callers on this machine unless `BACKOFFICE_METRICS_TOKEN` is set, and
//! then only callers that bring it as a bearer token.

use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use backoffice::AppCtx;
use http::StatusCode;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::chargers::LiveSockets;

pub const REQUESTS: &str = "backoffice_http_requests_total";
pub const LATENCY: &str = "backoffice_http_request_duration_seconds";
pub const SIGN_IN_FAILURES: &str = "backoffice_sign_in_failures_total";
pub const CHARGERS: &str = "backoffice_charger_connections";

/// The route whose failures count as failed sign-ins.
const SIGN_IN_PATH: &str = "/partnerapi/login/index";

/// The process-wide Prometheus recorder, installed on first use.
fn recorder() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(
                Matcher::Full(LATENCY.into()),
                &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0],
            )
            .expect("the bucket list is not empty")
            .build_recorder();
        let handle = recorder.handle();
        // Another recorder already installed (tests in one process) only
        // means these figures go nowhere; serving is unaffected.
        let _ = metrics::set_global_recorder(recorder);
        handle
    })
}

#[derive(Clone)]
pub struct OpsState {
    pub ctx: Arc<AppCtx>,
    pub sockets: LiveSockets,
    /// `BACKOFFICE_METRICS_TOKEN`: when set, `/metrics` wants it.
    pub metrics_token: Option<Arc<str>>,
    /// `BACKOFFICE_TRUSTED_PROXY`: requests from these come from elsewhere.
    pub trusted_proxies: crate::server::Proxies,
}

/// `/healthz`, `/readyz`, `/metrics`.
pub fn router(state: OpsState) -> Router {
    recorder();
    Router::new()
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/readyz", get(ready))
        .route("/metrics", get(scrape))
        .with_state(state)
}

/// Ready when the store answers a read within 2 s.
async fn ready(State(state): State<OpsState>) -> Response {
    let key = store::Key::new("HEALTH", "READY");
    let probe = state.ctx.store.get(&key);
    match tokio::time::timeout(Duration::from_secs(2), probe).await {
        Ok(Ok(_)) => (StatusCode::OK, "ready\n").into_response(),
        Ok(Err(e)) => (StatusCode::SERVICE_UNAVAILABLE, format!("the store does not answer: {e}\n")).into_response(),
        Err(_) => (StatusCode::SERVICE_UNAVAILABLE, "the store did not answer within 2 s\n").into_response(),
    }
}

async fn scrape(State(state): State<OpsState>, ConnectInfo(peer): ConnectInfo<SocketAddr>, req: Request) -> Response {
    let allowed = match &state.metrics_token {
        Some(token) => bearer(&req).is_some_and(|given| constant_time_eq(given.as_bytes(), token.as_bytes())),
        None => from_this_machine(peer.ip(), req.headers(), &state.trusted_proxies),
    };
    if !allowed {
        let why = if state.metrics_token.is_some() {
            "metrics need the bearer token set in BACKOFFICE_METRICS_TOKEN\n"
        } else {
            "metrics answer callers on this machine only, not through a proxy (set BACKOFFICE_METRICS_TOKEN to allow others with a token)\n"
        };
        return (StatusCode::FORBIDDEN, why).into_response();
    }
    metrics::gauge!(CHARGERS).set(state.sockets.count() as f64);
    ([(http::header::CONTENT_TYPE, "text/plain; version=0.0.4")], recorder().render()).into_response()
}

/// Whether a caller is on this machine itself: a loopback peer that is not
/// a proxy forwarding someone else's request. A trusted proxy is such a
/// forwarder by definition, and any request carrying a forwarding header
/// came through one (configured or not): behind a reverse proxy on this
/// machine every request is from loopback, which alone proves nothing.
fn from_this_machine(peer: std::net::IpAddr, headers: &http::HeaderMap, proxies: &crate::server::Proxies) -> bool {
    let forwarded = ["forwarded", "x-forwarded-for", "x-real-ip", "x-forwarded-host"].iter().any(|h| headers.contains_key(*h));
    peer.is_loopback() && !proxies.contains(peer) && !forwarded
}

fn bearer(req: &Request) -> Option<&str> {
    req.headers().get(http::header::AUTHORIZATION)?.to_str().ok()?.strip_prefix("Bearer ")
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Counts and times every request by route (the route table's path, so
/// the label set stays small) and status; a failed sign-in is counted
/// apart.
pub async fn measure(req: Request, next: Next) -> Response {
    let route = req.extensions().get::<MatchedPath>().map(|p| p.as_str().to_string()).unwrap_or_else(|| "static".into());
    let method = req.method().to_string();
    let started = Instant::now();
    let resp = next.run(req).await;
    let status = resp.status().as_u16().to_string();
    metrics::histogram!(LATENCY, "route" => route.clone()).record(started.elapsed().as_secs_f64());
    if route == SIGN_IN_PATH && !resp.status().is_success() {
        metrics::counter!(SIGN_IN_FAILURES, "status" => status.clone()).increment(1);
    }
    metrics::counter!(REQUESTS, "route" => route, "method" => method, "status" => status).increment(1);
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_caller_on_this_machine_itself_is_local() {
        let loopback: std::net::IpAddr = "127.0.0.1".parse().unwrap();
        let mut through_proxy = http::HeaderMap::new();
        through_proxy.insert("x-forwarded-for", "203.0.113.7".parse().unwrap());
        let none = crate::server::Proxies::default();
        assert!(from_this_machine(loopback, &http::HeaderMap::new(), &none));
        assert!(!from_this_machine(loopback, &through_proxy, &none), "a proxy nobody configured still forwards");
        assert!(!from_this_machine(loopback, &http::HeaderMap::new(), &crate::server::Proxies::new(vec![loopback])), "the configured proxy forwards");
        assert!(!from_this_machine("192.0.2.9".parse().unwrap(), &http::HeaderMap::new(), &none));
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(constant_time_eq(b"secret", b"secret"));
        assert!(!constant_time_eq(b"secret", b"secreT"));
        assert!(!constant_time_eq(b"secret", b"secret2"));
    }
}
