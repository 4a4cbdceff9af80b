//! The HTTP server: route table -> axum routes, SPA files, TLS, shutdown.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::response::{IntoResponse, Response};
use axum::routing::{on, MethodFilter, MethodRouter};
use axum::Router;
use backoffice::request::MAX_BODY_BYTES;
use backoffice::seed::SeedReport;
use backoffice::{ApiRequest, AppCtx, Route, API_BASE};
use envelope::{ApiError, Lang};
use std::time::Duration;
use tower_http::compression::CompressionLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

use crate::tls::TlsFiles;

type Shared = Arc<AppCtx>;

/// How long a stop waits for requests in flight before closing anyway.
const DEFAULT_SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// The server's own settings (the store's are in `backoffice::config`).
pub struct ServeOptions {
    pub host: String,
    pub port: u16,
    pub web_dist: PathBuf,
    pub tls: Option<TlsFiles>,
    pub shutdown_grace: Duration,
    pub metrics_token: Option<Arc<str>>,
    /// `BACKOFFICE_TRUSTED_PROXY`: the reverse proxies (by address) whose
    /// `X-Forwarded-For` and `X-Forwarded-Proto` are believed; from anyone
    /// else those headers are ignored. Empty: the gateway is the edge.
    pub trusted_proxies: Proxies,
    /// `BACKOFFICE_BEHIND_TLS_PROXY`: a TLS proxy (on another machine) is
    /// the only way in, so browsers speak https even though this listener
    /// is plain http (production may then listen on a public address).
    pub behind_tls_proxy: bool,
}

/// The trusted reverse proxies' addresses.
#[derive(Debug, Clone, Default)]
pub struct Proxies(Arc<[std::net::IpAddr]>);

impl Proxies {
    pub fn new(addresses: Vec<std::net::IpAddr>) -> Proxies {
        Proxies(addresses.into())
    }

    /// `BACKOFFICE_TRUSTED_PROXY`: addresses separated by commas.
    pub fn parse(raw: &str) -> Result<Proxies, String> {
        let parsed: Result<Vec<std::net::IpAddr>, _> = raw.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::parse).collect();
        parsed.map(Proxies::new).map_err(|_| format!("BACKOFFICE_TRUSTED_PROXY must be IP addresses separated by commas (e.g. 127.0.0.1), not '{raw}'"))
    }

    pub fn contains(&self, peer: std::net::IpAddr) -> bool {
        self.0.contains(&peer)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl ServeOptions {
    /// From the environment; a wrong value is one line saying what to fix.
    pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Result<ServeOptions, String> {
        let var = |name: &str| get(name).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        let port = match var("BACKOFFICE_PORT") {
            Some(p) => p.parse().map_err(|_| format!("BACKOFFICE_PORT must be a port number, not '{p}'"))?,
            None => 9999,
        };
        let shutdown_grace = match var("BACKOFFICE_SHUTDOWN_GRACE_SECS") {
            Some(s) => Duration::from_secs(
                s.parse::<u64>()
                    .ok()
                    .filter(|n| (1..=300).contains(n))
                    .ok_or_else(|| format!("BACKOFFICE_SHUTDOWN_GRACE_SECS must be 1-300 seconds, not '{s}'"))?,
            ),
            None => DEFAULT_SHUTDOWN_GRACE,
        };
        let metrics_token = match var("BACKOFFICE_METRICS_TOKEN") {
            Some(t) if t.len() < 16 => return Err("BACKOFFICE_METRICS_TOKEN is too short: use at least 16 random characters".into()),
            other => other.map(Arc::from),
        };
        let trusted_proxies = match var("BACKOFFICE_TRUSTED_PROXY") {
            Some(raw) => Proxies::parse(&raw)?,
            None => Proxies::default(),
        };
        let behind_tls_proxy = match var("BACKOFFICE_BEHIND_TLS_PROXY").as_deref() {
            None | Some("0" | "false" | "no" | "off") => false,
            Some("1" | "true" | "yes" | "on") => true,
            Some(other) => return Err(format!("BACKOFFICE_BEHIND_TLS_PROXY must be 1 or 0, not '{other}'")),
        };
        Ok(ServeOptions {
            host: var("BACKOFFICE_HOST").unwrap_or_else(|| "127.0.0.1".into()),
            port,
            web_dist: PathBuf::from(var("BACKOFFICE_WEB_DIST").unwrap_or_else(|| "web/dist".into())),
            tls: TlsFiles::from_env(&get)?,
            shutdown_grace,
            metrics_token,
            trusted_proxies,
            behind_tls_proxy,
        })
    }

    /// Whether this listener's address is reachable from this machine only.
    fn loopback_only(&self) -> bool {
        match self.host.parse::<std::net::IpAddr>() {
            Ok(ip) => ip.is_loopback(),
            Err(_) => self.host.eq_ignore_ascii_case("localhost"),
        }
    }

    /// Production never serves sign-ins and tokens in clear to the network:
    /// plain http is for a loopback listener (a TLS proxy on this machine in
    /// front), unless `BACKOFFICE_BEHIND_TLS_PROXY` says a TLS proxy
    /// elsewhere is the only way in.
    pub fn check_transport(&self, production: bool) -> Result<(), String> {
        if !production || self.tls.is_some() || self.behind_tls_proxy || self.loopback_only() {
            return Ok(());
        }
        Err(format!(
            "production would serve plain http on {}: set BACKOFFICE_TLS_CERT and BACKOFFICE_TLS_KEY, or listen on 127.0.0.1 behind a TLS reverse proxy, or set BACKOFFICE_BEHIND_TLS_PROXY=1 if a TLS proxy on another machine is the only way in",
            self.host
        ))
    }
}

/// Production serves the site only on the hosts it is licensed for: the
/// licence guard must be configured (one line saying how, otherwise).
pub fn require_licence_guard(config: &backoffice::config::Config) -> Result<(), String> {
    if config.mode == backoffice::config::Mode::Production && config.licence.is_none() {
        return Err("BACKOFFICE_ALLOWED_HOSTS is not set: production serves the site only on the host names listed there (comma-separated, e.g. backoffice.example.com); BACKOFFICE_LICENCE_KEY optionally unlocks other hosts".into());
    }
    Ok(())
}

/// The chargers' CA as the handshake's client certificate check (security
/// profile 3); without a usable CA the gateway still serves TLS, and
/// profile-3 chargers are refused (no certificate reaches the check).
fn client_certificates(ctx: &Shared) -> Option<crate::tls::ClientCerts> {
    let verifier = backoffice::domain::chargers::ca::get(ctx).and_then(|ca| ca.client_verifier());
    match verifier {
        Ok(v) => Some(crate::tls::ClientCerts::new(v)),
        Err(e) => {
            tracing::error!(error = %e.0, "the chargers' CA is not usable: security profile 3 chargers cannot connect");
            None
        }
    }
}

/// Listens until SIGINT/SIGTERM, then stops gracefully: no new
/// connections, requests in flight finish (up to the grace period),
/// chargers hear "going away", and the SQLite WAL is folded into the
/// database file.
pub async fn serve(ctx: Shared, report: SeedReport, options: ServeOptions) -> Result<(), String> {
    options.check_transport(ctx.config.mode == backoffice::config::Mode::Production)?;
    let sockets = crate::chargers::LiveSockets::default();
    // Remote operations reach chargers through this process's sockets, or
    // through the instance holding the socket (BACKOFFICE_INSTANCE_URL).
    let instances = crate::instances::Instances::new(&ctx, sockets.clone());
    let _ = ctx.outbound.set(std::sync::Arc::new(instances.clone()));
    if let Some(url) = crate::instances::listen(&instances).await? {
        println!("gateway instance: the other instances reach this one at {url}");
    }
    crate::chargers::spawn_sweeper(ctx.clone(), instances);
    let tls = match &options.tls {
        Some(files) => {
            let clients = client_certificates(&ctx);
            let config = files.load(clients.clone()).await?;
            crate::tls::spawn_reloader(files.clone(), config.clone(), clients, Duration::from_secs(30));
            Some(config)
        }
        None => None,
    };
    let _ = ctx.charger_edge.set(backoffice::domain::chargers::Edge { aws: false, tls: tls.is_some() });
    let app = app(ctx.clone(), &options, &sockets, tls.is_some());
    let (host, port) = (options.host.as_str(), options.port);
    let listener = std::net::TcpListener::bind((host, port)).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AddrInUse {
            format!("port {port} is busy: stop the other process or set BACKOFFICE_PORT to a free port")
        } else {
            format!("cannot listen on {host}:{port}: {e}")
        }
    })?;
    listener.set_nonblocking(true).map_err(|e| e.to_string())?;
    let scheme = if tls.is_some() { "https" } else { "http" };
    let url = format!("{scheme}://{}", listener.local_addr().map_err(|e| e.to_string())?);
    if !options.web_dist.join("index.html").exists() {
        println!("note: {} has no index.html; build the web app (npm --prefix web run build) to get the UI", options.web_dist.display());
    }
    if !report.seeded_now {
        println!("sign in with the accounts created at first run (passwords as configured, or as printed then)");
    }
    println!("listening on {url}  (open {url}/ in a browser; API at {url}{API_BASE})");
    if let Some(ykc_port) = ctx.config.ykc_port {
        let address = crate::ykc::listen(ctx.clone(), sockets.clone(), host, ykc_port, None).await?;
        println!("YKC piles connect to {address} (TCP)");
    }
    if let Some(ykc_tls_port) = ctx.config.ykc_tls_port {
        let config = tls.clone().ok_or("BACKOFFICE_YKC_TLS_PORT needs the gateway's own TLS: set BACKOFFICE_TLS_CERT and BACKOFFICE_TLS_KEY")?;
        let address = crate::ykc::listen(ctx.clone(), sockets.clone(), host, ykc_tls_port, Some(config)).await?;
        println!("YKC piles that speak TLS connect to {address} (TLS over TCP)");
    }

    let handle = axum_server::Handle::new();
    let stopper = {
        let (handle, sockets, grace) = (handle.clone(), sockets.clone(), options.shutdown_grace);
        tokio::spawn(async move {
            shutdown_signal().await;
            tracing::info!(grace_secs = grace.as_secs(), "stopping: no new connections, finishing requests in flight");
            // Chargers hear "going away" and reconnect to whoever serves next.
            sockets.close_all();
            handle.graceful_shutdown(Some(grace));
        })
    };
    let service = app.into_make_service_with_connect_info::<SocketAddr>();
    let served = match tls {
        Some(config) => axum_server::from_tcp_rustls(listener, config).map_err(|e| e.to_string())?.handle(handle).serve(service).await,
        None => axum_server::from_tcp(listener).map_err(|e| e.to_string())?.handle(handle).serve(service).await,
    };
    stopper.abort();
    served.map_err(|e| format!("server stopped: {e}"))?;
    if let backoffice::config::StoreConfig::Sqlite { path } = &ctx.config.store {
        match store::sqlite_file::checkpoint(path) {
            Ok(()) => tracing::info!("stopped; the database file is up to date"),
            Err(e) => tracing::warn!(error = %e, "stopped; the WAL checkpoint failed (the next start replays it)"),
        }
    }
    Ok(())
}

/// The whole application: API routes, API 404s, the charger link, the
/// operations endpoints and the SPA; answers are compressed (brotli or
/// gzip, as the client accepts) except WebSocket upgrades, and carry a
/// request id (`x-request-id`, kept when the client sends one) that every
/// log line of the request shows.
pub fn app(ctx: Shared, options: &ServeOptions, sockets: &crate::chargers::LiveSockets, tls: bool) -> Router {
    let mut by_path: BTreeMap<String, MethodRouter<Shared>> = BTreeMap::new();
    let edge = Edge { tls: tls || options.behind_tls_proxy, proxies: options.trusted_proxies.clone() };
    for route in backoffice::routes() {
        let filter = MethodFilter::try_from(route.method.clone()).expect("route methods are standard");
        let edge = edge.clone();
        let handler = move |state: State<Shared>, conn: ConnectInfo<SocketAddr>, req: Request| call(route, edge, state, conn, req);
        let entry = by_path.remove(&route.full_path()).unwrap_or_default();
        by_path.insert(route.full_path(), entry.merge(on(filter, handler)));
    }
    let mut api = Router::new();
    for (path, methods) in by_path {
        api = api.route(&path, methods.fallback(method_not_allowed));
    }
    // The OpenAPI document of the route table: public (it describes the
    // endpoints, it holds no data), built once. It is not a route-table
    // entry itself (see `backoffice::openapi`).
    let document = bytes::Bytes::from(backoffice::openapi::document_text());
    api = api.route(
        &format!("{API_BASE}{}", backoffice::openapi::DOCUMENT_PATH),
        axum::routing::get(move || {
            let document = document.clone();
            async move { ([(http::header::CONTENT_TYPE, "application/json")], document) }
        })
        .fallback(method_not_allowed),
    );
    let api = api.route(&format!("{API_BASE}/{{*rest}}"), axum::routing::any(api_not_found)).with_state(ctx.clone());
    let ops = crate::ops::router(crate::ops::OpsState {
        ctx: ctx.clone(),
        sockets: sockets.clone(),
        metrics_token: options.metrics_token.clone(),
        trusted_proxies: options.trusted_proxies.clone(),
    });
    // Answers made per request (API JSON; static files without a
    // precompressed copy) are compressed at a fast level: brotli's default,
    // 11, costs more CPU than the answer is worth on a fast network.
    // The SPA and the API answer only on licensed hosts (when the guard
    // is on); the operations endpoints and the charger link always do.
    let site = api
        .merge(crate::static_files::router(&options.web_dist))
        .layer(axum::middleware::from_fn_with_state(ctx.clone(), crate::licence::guard));
    let unlock = Router::new()
        .route(backoffice::licence::UNLOCK_PATH, axum::routing::post(crate::licence::unlock))
        .with_state(crate::licence::LicenceState { ctx: ctx.clone(), tls });
    let web = site
        .merge(unlock)
        .merge(ops)
        .layer(CompressionLayer::new().quality(tower_http::CompressionLevel::Precise(4)));
    // The charger link: its own state (the live sockets) beside the API's.
    // Behind a TLS proxy that is the only way in (a load balancer ending
    // TLS, which adds no X-Forwarded-Proto to a WebSocket it passes as
    // TCP), every charger socket is wss too.
    let link = crate::chargers::LinkState { ctx, sockets: sockets.clone(), tls: tls || options.behind_tls_proxy, trusted_proxies: options.trusted_proxies.clone() };
    let chargers = Router::new().route("/ocpp/{id}", axum::routing::get(crate::chargers::connect)).with_state(link);
    let request_id = http::HeaderName::from_static("x-request-id");
    chargers
        .merge(web)
        .layer(axum::middleware::from_fn(crate::ops::measure))
        .layer(axum::middleware::map_response_with_state(SecurityHeaders::new(tls), security_headers))
        .layer(
            tower::ServiceBuilder::new()
                .layer(SetRequestIdLayer::new(request_id.clone(), MakeRequestUuid))
                .layer(TraceLayer::new_for_http().make_span_with(|req: &Request| {
                    let id = req.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or("-");
                    tracing::info_span!("request", request_id = %id, method = %req.method(), path = %req.uri().path())
                }).on_request(()).on_response(()))
                .layer(PropagateRequestIdLayer::new(request_id)),
        )
}

/// How browsers reach this gateway: over TLS (its own, or a TLS proxy's),
/// and through which trusted proxies.
#[derive(Clone)]
struct Edge {
    tls: bool,
    proxies: Proxies,
}

async fn call(route: &'static Route, edge: Edge, State(ctx): State<Shared>, ConnectInfo(peer): ConnectInfo<SocketAddr>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let lang = Lang::from_accept_language(parts.headers.get("accept-language").and_then(|v| v.to_str().ok()));
    // A declared length over the limit is refused before reading a byte;
    // a body without one is cut off at the limit while it streams in.
    let declared = parts.headers.get(http::header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<usize>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES) {
        return into_axum(ApiError::payload_too_large().to_response(lang));
    }
    let body = match axum::body::to_bytes(body, MAX_BODY_BYTES).await {
        Ok(bytes) => bytes,
        Err(_) => return into_axum(ApiError::payload_too_large().to_response(lang)),
    };
    let path = parts.uri.path().strip_prefix(API_BASE).unwrap_or(parts.uri.path()).to_string();
    let client_ip = client_address(&parts.headers, peer.ip(), &edge.proxies).to_string();
    let https = edge.tls || forwarded_https(&parts.headers, peer.ip(), &edge.proxies);
    let api_req = ApiRequest {
        method: parts.method,
        path,
        query: Default::default(),
        headers: parts.headers,
        body,
        client_ip,
        https,
    }
    .with_query_string(parts.uri.query());
    into_axum(backoffice::dispatch(&ctx, route, api_req).await)
}

/// The client's address. Behind a trusted reverse proxy
/// (`BACKOFFICE_TRUSTED_PROXY`) every connection comes from the proxy, so
/// for such a peer the last `X-Forwarded-For` entry (the one the proxy
/// itself appended) is the client; entries before it are the client's own
/// claims and are ignored. From any other peer the header is ignored: a
/// client cannot choose the address its sign-in attempts are throttled
/// under, and a proxy nobody configured is not believed either.
pub fn client_address(headers: &http::HeaderMap, peer: std::net::IpAddr, proxies: &Proxies) -> std::net::IpAddr {
    if !proxies.contains(peer) {
        if headers.contains_key("x-forwarded-for") && peer.is_loopback() {
            warn_unconfigured_proxy();
        }
        return peer;
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .next_back()
        .and_then(|last| last.trim().parse().ok())
        .unwrap_or(peer)
}

/// Whether a trusted reverse proxy says the browser (or charger) reached it
/// over https (`X-Forwarded-Proto: https`); from any other peer the header
/// is ignored.
pub fn forwarded_https(headers: &http::HeaderMap, peer: std::net::IpAddr, proxies: &Proxies) -> bool {
    proxies.contains(peer) && headers.get("x-forwarded-proto").and_then(|v| v.to_str().ok()).is_some_and(|v| v.trim().eq_ignore_ascii_case("https"))
}

/// Said once: a proxy on this machine forwards requests, but nobody told
/// the gateway to believe it, so every client looks like the proxy.
fn warn_unconfigured_proxy() {
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        tracing::warn!("a request from this machine carries X-Forwarded-For, which is ignored: if a reverse proxy runs in front, set BACKOFFICE_TRUSTED_PROXY to its address (e.g. 127.0.0.1)")
    });
}

fn into_axum(resp: http::Response<bytes::Bytes>) -> Response {
    let (parts, body) = resp.into_parts();
    Response::from_parts(parts, Body::from(body))
}

fn lang_of(req: &Request) -> Lang {
    Lang::from_accept_language(req.headers().get("accept-language").and_then(|v| v.to_str().ok()))
}

async fn api_not_found(req: Request) -> Response {
    into_axum(backoffice::dispatch::not_found(lang_of(&req)))
}

async fn method_not_allowed(req: Request) -> Response {
    let err = ApiError::new(
        405,
        envelope::msg::request::method_not_allowed(req.method().as_str(), req.uri().path()),
    );
    into_axum(err.to_response(lang_of(&req)))
}

/// Headers every answer carries (see `backoffice::browser_policy`): the
/// Content-Security-Policy, no MIME sniffing, no framing, no referrer
/// leaks, and HSTS when the gateway serves TLS itself.
#[derive(Clone)]
struct SecurityHeaders {
    csp: http::HeaderValue,
    tls: bool,
}

impl SecurityHeaders {
    fn new(tls: bool) -> Self {
        let csp = backoffice::browser_policy::content_security_policy();
        SecurityHeaders { csp: http::HeaderValue::from_str(&csp).expect("the CSP is a valid header value"), tls }
    }
}

async fn security_headers(State(policy): State<SecurityHeaders>, mut resp: Response) -> impl IntoResponse {
    let h = resp.headers_mut();
    h.insert("content-security-policy", policy.csp.clone());
    h.insert("x-content-type-options", http::HeaderValue::from_static("nosniff"));
    h.insert("x-frame-options", http::HeaderValue::from_static("DENY"));
    h.insert("referrer-policy", http::HeaderValue::from_static("strict-origin-when-cross-origin"));
    if policy.tls {
        h.insert("strict-transport-security", http::HeaderValue::from_static(backoffice::browser_policy::STRICT_TRANSPORT_SECURITY));
    }
    resp
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}

#[cfg(test)]
mod tests {
    use super::{client_address, forwarded_https, Proxies, ServeOptions};
    use std::net::IpAddr;

    fn headers(values: &[&str]) -> http::HeaderMap {
        let mut h = http::HeaderMap::new();
        for v in values {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    }

    #[test]
    fn the_proxy_appended_address_counts_only_from_a_trusted_proxy() {
        let loopback: IpAddr = "127.0.0.1".parse().unwrap();
        let remote: IpAddr = "198.51.100.9".parse().unwrap();
        let proxy = Proxies::new(vec![loopback]);
        assert_eq!(client_address(&headers(&["203.0.113.7"]), loopback, &proxy).to_string(), "203.0.113.7");
        // The client claimed 10.0.0.1; the proxy appended the real address.
        assert_eq!(client_address(&headers(&["10.0.0.1, 203.0.113.7"]), loopback, &proxy).to_string(), "203.0.113.7");
        assert_eq!(client_address(&headers(&["10.0.0.1", "2001:db8::1"]), loopback, &proxy).to_string(), "2001:db8::1");
        assert_eq!(client_address(&headers(&["203.0.113.7"]), remote, &proxy), remote, "a remote client cannot choose its address");
        assert_eq!(client_address(&headers(&["not-an-ip"]), loopback, &proxy), loopback);
        assert_eq!(client_address(&headers(&[]), loopback, &proxy), loopback);
        // Without a configured proxy nobody's forwarded address is believed, loopback's neither.
        assert_eq!(client_address(&headers(&["203.0.113.7"]), loopback, &Proxies::default()), loopback);
        let mut proto = http::HeaderMap::new();
        proto.insert("x-forwarded-proto", "https".parse().unwrap());
        assert!(forwarded_https(&proto, loopback, &proxy));
        assert!(!forwarded_https(&proto, loopback, &Proxies::default()));
        assert!(!forwarded_https(&proto, remote, &proxy));
    }

    fn options(vars: &[(&str, &str)]) -> Result<ServeOptions, String> {
        let map: std::collections::HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        ServeOptions::from_env(|k| map.get(k).cloned())
    }

    #[test]
    fn production_serves_plain_http_on_loopback_only_unless_behind_a_tls_proxy() {
        let public = options(&[("BACKOFFICE_HOST", "0.0.0.0")]).unwrap();
        let err = public.check_transport(true).unwrap_err();
        assert!(err.starts_with("production would serve plain http on 0.0.0.0") && err.contains("BACKOFFICE_BEHIND_TLS_PROXY=1"), "{err}");
        assert!(public.check_transport(false).is_ok(), "development may");
        for host in ["127.0.0.1", "::1", "localhost"] {
            assert!(options(&[("BACKOFFICE_HOST", host)]).unwrap().check_transport(true).is_ok(), "{host}");
        }
        assert!(options(&[("BACKOFFICE_HOST", "192.0.2.4"), ("BACKOFFICE_BEHIND_TLS_PROXY", "1")]).unwrap().check_transport(true).is_ok());
        assert!(options(&[("BACKOFFICE_BEHIND_TLS_PROXY", "maybe")]).err().unwrap().contains("BACKOFFICE_BEHIND_TLS_PROXY"));
        assert!(options(&[("BACKOFFICE_TRUSTED_PROXY", "nginx")]).err().unwrap().contains("BACKOFFICE_TRUSTED_PROXY"));
        assert!(options(&[("BACKOFFICE_TRUSTED_PROXY", "127.0.0.1, ::1")]).unwrap().trusted_proxies.contains("::1".parse().unwrap()));
    }
}
