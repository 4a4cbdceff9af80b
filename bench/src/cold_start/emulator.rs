//! A small AWS Lambda Runtime API emulator on loopback: what the Lambda
//! service offers a custom runtime (`provided.al2023`) at
//! `AWS_LAMBDA_RUNTIME_API`. It serves
//!
//! - `GET  /2018-06-01/runtime/invocation/next` (hands out the queued events, one per poll;
//!   waits while none is queued),
//! - `POST /2018-06-01/runtime/invocation/{id}/response` and `.../{id}/error`,
//! - `POST /2018-06-01/runtime/init/error`,
//!
//! and reports each of these, with the instant it happened, on a channel,
//! so a benchmark can time "process start -> first poll" (init done) and
//! "event handed out -> response posted" (the invocation).

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use tokio::sync::{mpsc, Notify};

/// How long an invocation may run (the deadline header handed out with it).
const INVOCATION_TIMEOUT: Duration = Duration::from_secs(10);

/// What the runtime under test did, in the order it happened.
#[derive(Debug)]
pub enum Report {
    /// The runtime asked for the next event (for the first poll: init is done).
    Polled { at: Instant },
    /// An event was handed to the runtime.
    Handed { request_id: String, at: Instant },
    /// The runtime posted the invocation's response.
    Response { request_id: String, body: Bytes, at: Instant },
    /// The runtime posted an invocation error.
    InvocationError { request_id: String, error_type: String, body: Bytes, at: Instant },
    /// The runtime reported that its initialisation failed.
    InitError { error_type: String, body: Bytes, at: Instant },
}

struct Shared {
    queue: Mutex<VecDeque<(String, Vec<u8>)>>,
    queued: Notify,
    reports: mpsc::UnboundedSender<Report>,
    function_arn: String,
}

/// One emulator instance (one per runtime process under test).
pub struct Emulator {
    addr: SocketAddr,
    shared: Arc<Shared>,
    reports: mpsc::UnboundedReceiver<Report>,
    server: tokio::task::JoinHandle<()>,
    next_id: u64,
}

impl Emulator {
    /// Listens on a free loopback port.
    pub async fn start(function_name: &str) -> std::io::Result<Emulator> {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
        let addr = listener.local_addr()?;
        let (tx, rx) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared {
            queue: Mutex::new(VecDeque::new()),
            queued: Notify::new(),
            reports: tx,
            function_arn: format!("arn:aws:lambda:us-east-1:123456789012:function:{function_name}"),
        });
        let app = Router::new()
            .route("/2018-06-01/runtime/invocation/next", get(next))
            .route("/2018-06-01/runtime/invocation/{id}/response", post(response))
            .route("/2018-06-01/runtime/invocation/{id}/error", post(invocation_error))
            .route("/2018-06-01/runtime/init/error", post(init_error))
            .with_state(shared.clone());
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(Emulator { addr, shared, reports: rx, server, next_id: 0 })
    }

    /// The value for `AWS_LAMBDA_RUNTIME_API` (`host:port`, as in Lambda).
    pub fn runtime_api(&self) -> String {
        self.addr.to_string()
    }

    /// Queues an event; returns its request id.
    pub fn push(&mut self, payload: Vec<u8>) -> String {
        self.next_id += 1;
        let request_id = format!("00000000-0000-4000-8000-{:012}", self.next_id);
        self.shared.queue.lock().unwrap().push_back((request_id.clone(), payload));
        self.shared.queued.notify_one();
        request_id
    }

    /// The next report, or `None` when nothing happened within `wait`.
    pub async fn report(&mut self, wait: Duration) -> Option<Report> {
        tokio::time::timeout(wait, self.reports.recv()).await.ok().flatten()
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        self.server.abort();
    }
}

async fn next(State(shared): State<Arc<Shared>>) -> Response {
    let _ = shared.reports.send(Report::Polled { at: Instant::now() });
    let (request_id, payload) = loop {
        // Registered before looking, so a push in between is not missed.
        let queued = shared.queued.notified();
        if let Some(item) = shared.queue.lock().unwrap().pop_front() {
            break item;
        }
        queued.await;
    };
    let deadline = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default() + INVOCATION_TIMEOUT;
    let mut headers = HeaderMap::new();
    headers.insert("content-type", "application/json".parse().unwrap());
    headers.insert("lambda-runtime-aws-request-id", request_id.parse().unwrap());
    headers.insert("lambda-runtime-deadline-ms", deadline.as_millis().to_string().parse().unwrap());
    headers.insert("lambda-runtime-invoked-function-arn", shared.function_arn.parse().unwrap());
    headers.insert(
        "lambda-runtime-trace-id",
        "Root=1-00000000-000000000000000000000000;Parent=0000000000000001;Sampled=0".parse().unwrap(),
    );
    let _ = shared.reports.send(Report::Handed { request_id, at: Instant::now() });
    (StatusCode::OK, headers, payload).into_response()
}

fn accepted() -> Response {
    (StatusCode::ACCEPTED, [("content-type", "application/json")], r#"{"status":"OK"}"#).into_response()
}

fn error_type(headers: &HeaderMap) -> String {
    headers
        .get("lambda-runtime-function-error-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("Unhandled")
        .to_string()
}

async fn response(State(shared): State<Arc<Shared>>, Path(request_id): Path<String>, body: Bytes) -> Response {
    let _ = shared.reports.send(Report::Response { request_id, body, at: Instant::now() });
    accepted()
}

async fn invocation_error(
    State(shared): State<Arc<Shared>>,
    Path(request_id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let at = Instant::now();
    let _ = shared.reports.send(Report::InvocationError { request_id, error_type: error_type(&headers), body, at });
    accepted()
}

async fn init_error(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    let at = Instant::now();
    let _ = shared.reports.send(Report::InitError { error_type: error_type(&headers), body, at });
    accepted()
}

#[cfg(test)]
mod tests {
    use super::*;

    const WAIT: Duration = Duration::from_secs(5);

    fn url(emu: &Emulator, path: &str) -> String {
        format!("http://{}/2018-06-01/runtime/{path}", emu.runtime_api())
    }

    #[tokio::test]
    async fn hands_out_events_in_order_and_reports_responses_and_errors() {
        let mut emu = Emulator::start("bench_fn").await.unwrap();
        let first = emu.push(br#"{"n":1}"#.to_vec());
        let second = emu.push(br#"{"n":2}"#.to_vec());
        let http = backoffice::http_client::client();

        let res = http.get(url(&emu, "invocation/next")).send().await.unwrap();
        assert_eq!(res.status(), 200);
        assert_eq!(res.headers()["lambda-runtime-aws-request-id"], first.as_str());
        assert!(res.headers()["lambda-runtime-invoked-function-arn"].to_str().unwrap().ends_with(":function:bench_fn"));
        let deadline: u128 = res.headers()["lambda-runtime-deadline-ms"].to_str().unwrap().parse().unwrap();
        assert!(deadline > SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis());
        assert_eq!(res.text().await.unwrap(), r#"{"n":1}"#);
        assert!(matches!(emu.report(WAIT).await, Some(Report::Polled { .. })));
        let handed_at = match emu.report(WAIT).await {
            Some(Report::Handed { request_id, at }) if request_id == first => at,
            other => panic!("expected the first event handed out, got {other:?}"),
        };

        let res = http.post(url(&emu, &format!("invocation/{first}/response"))).body("ok-1").send().await.unwrap();
        assert_eq!(res.status(), 202);
        match emu.report(WAIT).await {
            Some(Report::Response { request_id, body, at }) => {
                assert_eq!(request_id, first);
                assert_eq!(&body[..], b"ok-1");
                assert!(at >= handed_at);
            }
            other => panic!("expected the response, got {other:?}"),
        }

        let res = http.get(url(&emu, "invocation/next")).send().await.unwrap();
        assert_eq!(res.headers()["lambda-runtime-aws-request-id"], second.as_str());
        let res = http
            .post(url(&emu, &format!("invocation/{second}/error")))
            .header("lambda-runtime-function-error-type", "Handler.Boom")
            .body(r#"{"errorMessage":"boom"}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 202);
        assert!(matches!(emu.report(WAIT).await, Some(Report::Polled { .. })));
        assert!(matches!(emu.report(WAIT).await, Some(Report::Handed { .. })));
        match emu.report(WAIT).await {
            Some(Report::InvocationError { request_id, error_type, .. }) => {
                assert_eq!(request_id, second);
                assert_eq!(error_type, "Handler.Boom");
            }
            other => panic!("expected the invocation error, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn a_poll_waits_until_an_event_is_queued() {
        let mut emu = Emulator::start("bench_fn").await.unwrap();
        let http = backoffice::http_client::client();
        let poll = tokio::spawn({
            let url = url(&emu, "invocation/next");
            async move { http.get(url).send().await.unwrap().text().await.unwrap() }
        });
        assert!(matches!(emu.report(WAIT).await, Some(Report::Polled { .. })));
        // Nothing is queued: the poll is still open.
        assert!(emu.report(Duration::from_millis(200)).await.is_none());
        assert!(!poll.is_finished());
        emu.push(b"late".to_vec());
        assert!(matches!(emu.report(WAIT).await, Some(Report::Handed { .. })));
        assert_eq!(poll.await.unwrap(), "late");
    }

    #[tokio::test]
    async fn reports_init_errors() {
        let mut emu = Emulator::start("bench_fn").await.unwrap();
        let res = backoffice::http_client::client()
            .post(url(&emu, "init/error"))
            .header("lambda-runtime-function-error-type", "Runtime.InitError")
            .body("no table")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 202);
        match emu.report(WAIT).await {
            Some(Report::InitError { error_type, body, .. }) => {
                assert_eq!(error_type, "Runtime.InitError");
                assert_eq!(&body[..], b"no table");
            }
            other => panic!("expected the init error, got {other:?}"),
        }
    }
}
