//! The HTTP server: route table -> axum routes, SPA files, shutdown.

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
use envelope::{ApiError, Lang, Text};
use tower_http::services::{ServeDir, ServeFile};

type Shared = Arc<AppCtx>;

/// Listens on BACKOFFICE_HOST:BACKOFFICE_PORT until SIGINT/SIGTERM.
pub async fn serve(ctx: Shared, report: SeedReport) -> Result<(), String> {
    let host = std::env::var("BACKOFFICE_HOST").unwrap_or_else(|_| "127.0.0.1".into());
    let port: u16 = match std::env::var("BACKOFFICE_PORT") {
        Ok(p) => p.parse().map_err(|_| format!("BACKOFFICE_PORT must be a port number, not '{p}'"))?,
        Err(_) => 9999,
    };
    let web_dist = PathBuf::from(std::env::var("BACKOFFICE_WEB_DIST").unwrap_or_else(|_| "web/dist".into()));
    let sockets = crate::chargers::LiveSockets::default();
    // Remote operations reach chargers through this process's sockets.
    let _ = ctx.outbound.set(std::sync::Arc::new(sockets.clone()));
    crate::chargers::spawn_sweeper(ctx.clone(), sockets.clone());
    let app = app(ctx, &web_dist, &sockets);
    let listener = tokio::net::TcpListener::bind((host.as_str(), port)).await.map_err(|e| {
        if e.kind() == std::io::ErrorKind::AddrInUse {
            format!("port {port} is busy: stop the other process or set BACKOFFICE_PORT to a free port")
        } else {
            format!("cannot listen on {host}:{port}: {e}")
        }
    })?;
    let url = format!("http://{}", listener.local_addr().map_err(|e| e.to_string())?);
    if !web_dist.join("index.html").exists() {
        println!("note: {} has no index.html; build the web app (npm --prefix web run build) to get the UI", web_dist.display());
    }
    if !report.seeded_now {
        println!("sign in as admin, editor or test (passwords as configured, or as printed at first run)");
    }
    println!("listening on {url}  (open {url}/ in a browser; API at {url}{API_BASE})");
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(async move {
            shutdown_signal().await;
            // Chargers hear "going away" and reconnect to whoever serves next.
            sockets.close_all();
        })
        .await
        .map_err(|e| format!("server stopped: {e}"))
}

/// The whole application: API routes, API 404s, and the SPA.
pub fn app(ctx: Shared, web_dist: &std::path::Path, sockets: &crate::chargers::LiveSockets) -> Router {
    let mut by_path: BTreeMap<String, MethodRouter<Shared>> = BTreeMap::new();
    for route in backoffice::routes() {
        let filter = MethodFilter::try_from(route.method.clone()).expect("route methods are standard");
        let handler = move |state: State<Shared>, conn: ConnectInfo<SocketAddr>, req: Request| call(route, state, conn, req);
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
    let spa = ServeDir::new(web_dist).not_found_service(ServeFile::new(web_dist.join("index.html")));
    // The charger link: its own state (the live sockets) beside the API's.
    let link = crate::chargers::LinkState { ctx: ctx.clone(), sockets: sockets.clone() };
    let chargers = Router::new().route("/ocpp/{id}", axum::routing::get(crate::chargers::connect)).with_state(link);
    api.route(&format!("{API_BASE}/{{*rest}}"), axum::routing::any(api_not_found))
        .merge(chargers)
        .fallback_service(spa)
        .layer(axum::middleware::map_response(security_headers))
        .with_state(ctx)
}

async fn call(route: &'static Route, State(ctx): State<Shared>, ConnectInfo(peer): ConnectInfo<SocketAddr>, req: Request) -> Response {
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
    let api_req = ApiRequest {
        method: parts.method,
        path,
        query: Default::default(),
        headers: parts.headers,
        body,
        client_ip: peer.ip().to_string(),
    }
    .with_query_string(parts.uri.query());
    into_axum(backoffice::dispatch(&ctx, route, api_req).await)
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
        Text::new(
            format!("method {} is not allowed on {}", req.method(), req.uri().path()),
            format!("{} 不支持 {} 请求", req.uri().path(), req.method()),
        ),
    );
    into_axum(err.to_response(lang_of(&req)))
}

/// Headers every answer carries: no MIME sniffing, no framing by other
/// sites, no referrer leaks.
async fn security_headers(mut resp: Response) -> impl IntoResponse {
    let h = resp.headers_mut();
    h.insert("x-content-type-options", http::HeaderValue::from_static("nosniff"));
    h.insert("x-frame-options", http::HeaderValue::from_static("SAMEORIGIN"));
    h.insert("referrer-policy", http::HeaderValue::from_static("strict-origin-when-cross-origin"));
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
