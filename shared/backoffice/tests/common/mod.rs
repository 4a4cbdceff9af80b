//! An in-process product on an in-memory SQLite store, seeded with known
//! passwords, and a tiny client that calls routes through the real
//! dispatch (route table, authentication, permissions, envelope).
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::Arc;

use backoffice::config::Config;
use backoffice::{ApiRequest, AppCtx};
use bytes::Bytes;
use http::Method;
use serde_json::Value;

pub const ADMIN_PW: &str = "admin-pass-1";
pub const EDITOR_PW: &str = "editor-pass-1";
pub const TEST_PW: &str = "test-pass-1";

/// The tests' access-token lifetime: the product's default, so a test
/// slowed by a busy machine does not see its tokens expire (a test of
/// expiry moves the clock past it).
pub const ACCESS_TOKEN_TTL_SECS: i64 = 900;

pub fn env(extra: &[(&str, &str)]) -> HashMap<String, String> {
    let ttl = ACCESS_TOKEN_TTL_SECS.to_string();
    let mut vars: HashMap<String, String> = [
        ("BACKOFFICE_JWT_SECRET", "test-secret-that-is-long-enough-0123456789"),
        ("BACKOFFICE_ACCESS_TOKEN_TTL", ttl.as_str()),
        ("BACKOFFICE_SESSION_TTL", "3600"),
        ("BACKOFFICE_SEED_PASSWORD_ADMIN", ADMIN_PW),
        ("BACKOFFICE_SEED_PASSWORD_EDITOR", EDITOR_PW),
        ("BACKOFFICE_SEED_PASSWORD_TEST", TEST_PW),
        // Small demo data set so every test's product starts fast.
        ("BACKOFFICE_DEMO_ORDERS", "300"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    for (k, v) in extra {
        vars.insert(k.to_string(), v.to_string());
    }
    vars
}

/// A seeded product with the default test configuration.
pub async fn product() -> Arc<AppCtx> {
    product_with(&[]).await
}

pub async fn product_with(extra: &[(&str, &str)]) -> Arc<AppCtx> {
    let vars = env(extra);
    let config = Config::from_lookup(|k| vars.get(k).cloned()).expect("test configuration is valid");
    let store = recorded(Arc::new(store::sqlite::SqliteTable::open_in_memory().expect("in-memory SQLite opens")));
    let ctx = AppCtx::new(store, config).expect("context builds");
    let report = backoffice::seed::ensure_seeded(&ctx, |k| vars.get(k).cloned()).await.expect("seeding works");
    assert!(report.seeded_now);
    ctx
}

/// The answer of one call: HTTP status and the envelope.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: Value,
}

impl Answer {
    pub fn code(&self) -> i64 {
        self.body["code"].as_i64().unwrap_or(-1)
    }
    pub fn msg(&self) -> &str {
        self.body["msg"].as_str().unwrap_or_default()
    }
    pub fn data(&self) -> &Value {
        &self.body["data"]
    }
}

pub async fn call(ctx: &AppCtx, method: Method, path_and_query: &str, token: Option<&str>, body: Option<Value>) -> Answer {
    call_from(ctx, method, path_and_query, token, body, "127.0.0.1").await
}

pub async fn call_from(
    ctx: &AppCtx,
    method: Method,
    path_and_query: &str,
    token: Option<&str>,
    body: Option<Value>,
    ip: &str,
) -> Answer {
    call_with_headers(ctx, method, path_and_query, token, body, ip, &[]).await.0
}

/// A call from `ip` with extra request headers (a cookie); answers the
/// envelope and the answer's headers.
pub async fn call_with_headers(
    ctx: &AppCtx,
    method: Method,
    path_and_query: &str,
    token: Option<&str>,
    body: Option<Value>,
    ip: &str,
    headers: &[(&str, &str)],
) -> (Answer, http::HeaderMap) {
    let (path, query) = path_and_query.split_once('?').map_or((path_and_query, None), |(p, q)| (p, Some(q)));
    let route = backoffice::routes::find(&method, path).unwrap_or_else(|| panic!("no route {method} {path}"));
    let mut req = ApiRequest::new(method, path).with_query_string(query);
    req.client_ip = ip.to_string();
    if let Some(t) = token {
        req.headers.insert("authorization", format!("Bearer {t}").parse().unwrap());
    }
    for (name, value) in headers {
        req.headers.append(http::HeaderName::from_bytes(name.as_bytes()).unwrap(), value.parse().unwrap());
    }
    if let Some(b) = body {
        req.headers.insert("content-type", "application/json".parse().unwrap());
        req.body = Bytes::from(serde_json::to_vec(&b).unwrap());
    }
    let resp = dispatch(ctx, route, req).await;
    let status = resp.status().as_u16();
    if status == 429 {
        let wait = resp.headers().get(http::header::RETRY_AFTER).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
        assert!(wait.is_some_and(|w| w >= 1), "every 429 carries Retry-After in seconds: {:?}", resp.headers());
    }
    let answer_headers = resp.headers().clone();
    let body: Value = serde_json::from_slice(resp.body()).expect("every answer is JSON");
    assert_eq!(body["code"].as_i64(), Some(status as i64), "status equals envelope code: {body}");
    (Answer { status, body }, answer_headers)
}

/// A sign-in from `ip` bringing the browser's cookies (`name=value; ...`,
/// empty for none); answers the envelope and the device cookie it set
/// (`name=value`), if any.
pub async fn sign_in_from(ctx: &AppCtx, username: &str, password: &str, ip: &str, cookies: &str) -> (Answer, Option<String>) {
    let body = serde_json::json!({"username": username, "password": password});
    let headers: Vec<(&str, &str)> = if cookies.is_empty() { vec![] } else { vec![("cookie", cookies)] };
    let (answer, set) = call_with_headers(ctx, Method::POST, "/login/index", None, Some(body), ip, &headers).await;
    let cookie = set.get_all(http::header::SET_COOKIE).iter().filter_map(|v| v.to_str().ok()).find(|c| c.starts_with("bo_device_")).map(|c| c.split(';').next().unwrap().to_string());
    (answer, cookie)
}

pub async fn get(ctx: &AppCtx, path: &str, token: Option<&str>) -> Answer {
    call(ctx, Method::GET, path, token, None).await
}

pub async fn post(ctx: &AppCtx, path: &str, token: Option<&str>, body: Value) -> Answer {
    call(ctx, Method::POST, path, token, Some(body)).await
}

/// GET in a language (`Accept-Language`, e.g. "zh-CN" or "en").
pub async fn get_in(ctx: &AppCtx, path_and_query: &str, token: &str, language: &str) -> Answer {
    let (path, query) = path_and_query.split_once('?').map_or((path_and_query, None), |(p, q)| (p, Some(q)));
    let route = backoffice::routes::find(&Method::GET, path).unwrap_or_else(|| panic!("no route GET {path}"));
    let mut req = ApiRequest::new(Method::GET, path).with_query_string(query);
    req.headers.insert("authorization", format!("Bearer {token}").parse().unwrap());
    req.headers.insert("accept-language", language.parse().unwrap());
    let resp = dispatch(ctx, route, req).await;
    let status = resp.status().as_u16();
    Answer { status, body: serde_json::from_slice(resp.body()).expect("every answer is JSON") }
}

/// Signs in and returns the token; panics on failure.
pub async fn login(ctx: &AppCtx, username: &str, password: &str) -> String {
    let a = post(ctx, "/login/index", None, serde_json::json!({"username": username, "password": password})).await;
    assert_eq!(a.code(), 200, "login of {username} failed: {:?}", a.body);
    a.data()["token"].as_str().expect("token in data").to_string()
}

/// The two tokens of a sign-in or a refresh.
#[derive(Debug, Clone)]
pub struct Tokens {
    pub access: String,
    pub refresh: String,
}

/// Signs in and returns both tokens; panics on failure.
pub async fn sign_in(ctx: &AppCtx, username: &str, password: &str) -> Tokens {
    let a = post(ctx, "/login/index", None, serde_json::json!({"username": username, "password": password})).await;
    assert_eq!(a.code(), 200, "login of {username} failed: {:?}", a.body);
    Tokens { access: a.data()["token"].as_str().unwrap().into(), refresh: a.data()["refreshToken"].as_str().unwrap().into() }
}

/// GET /refreshToken with the refresh token in its header.
pub async fn refresh(ctx: &AppCtx, refresh_token: &str) -> Answer {
    let route = backoffice::routes::find(&Method::GET, "/refreshToken").unwrap();
    let mut req = ApiRequest::new(Method::GET, "/refreshToken");
    req.headers.insert("x-refresh-token", refresh_token.parse().unwrap());
    let resp = dispatch(ctx, route, req).await;
    let status = resp.status().as_u16();
    Answer { status, body: serde_json::from_slice(resp.body()).expect("every answer is JSON") }
}

impl Answer {
    /// The tokens of a successful sign-in or refresh.
    pub fn tokens(&self) -> Tokens {
        assert_eq!(self.code(), 200, "{:?}", self.body);
        Tokens { access: self.data()["token"].as_str().unwrap().into(), refresh: self.data()["refreshToken"].as_str().unwrap().into() }
    }
}

/// A fresh, empty DynamoDB table on the test endpoint (moto, started by
/// scripts/test.sh) named `{prefix}-{uuid}`. None (the caller skips) when
/// BACKOFFICE_TEST_DYNAMO_ENDPOINT is not set, unless
/// BACKOFFICE_REQUIRE_DYNAMO=1 (as in CI): then it fails.
pub async fn dynamo_table(prefix: &str) -> Option<store::dynamo::DynamoTable> {
    let Ok(endpoint) = std::env::var("BACKOFFICE_TEST_DYNAMO_ENDPOINT") else {
        assert!(
            std::env::var("BACKOFFICE_REQUIRE_DYNAMO").as_deref() != Ok("1"),
            "BACKOFFICE_REQUIRE_DYNAMO=1 but BACKOFFICE_TEST_DYNAMO_ENDPOINT is not set: start moto (scripts/test.sh does)"
        );
        eprintln!("skipped: set BACKOFFICE_TEST_DYNAMO_ENDPOINT to run this test on DynamoDB");
        return None;
    };
    // The process id in the name lets a later test process tell tables
    // whose process has ended: moto keeps every table in memory, even a
    // deleted one, and a whole suite's seeded tables outgrow a machine's
    // memory (seen: 23 GB).
    let me = std::process::id();
    let name = format!("{prefix}-p{me}-{}", uuid::Uuid::new_v4().simple());
    let table = store::dynamo::DynamoTable::connect(&name, Some(&endpoint), Some("us-east-1")).await;
    static CLEARED: tokio::sync::OnceCell<()> = tokio::sync::OnceCell::const_new();
    CLEARED.get_or_init(|| clear_tables_of_ended_processes(&table, &endpoint, me)).await;
    table.create_table_if_missing().await.expect("the test table is created");
    Some(table)
}

/// Clears the emulator of test tables whose process has ended. When no
/// other running process has a table there, moto is reset (the only way
/// it gives their memory back: a deleted table's stays held); otherwise
/// those tables are deleted one by one.
async fn clear_tables_of_ended_processes(table: &store::dynamo::DynamoTable, endpoint: &str, me: u32) {
    let owner = |name: &str| -> Option<u32> { name.split('-').find_map(|part| part.strip_prefix('p')?.parse().ok()) };
    let alive = |pid: u32| pid == me || std::path::Path::new(&format!("/proc/{pid}")).exists();
    let names = table.table_names().await.expect("the emulator lists its tables");
    let ended: Vec<&String> = names.iter().filter(|n| owner(n).is_some_and(|pid| !alive(pid))).collect();
    // Deleted tables hold memory too: reset whenever no running process
    // has a table there (also when there is no table left at all).
    if ended.len() == names.len() {
        let reset = backoffice::http_client::client().post(format!("{}/moto-api/reset", endpoint.trim_end_matches('/'))).send().await;
        if reset.is_ok_and(|r| r.status().is_success()) {
            return;
        }
    }
    for name in ended {
        // Another cleaner may have taken it first.
        let _ = table.other(name).delete_table().await;
    }
}

/// A seeded product on the given store (same configuration as [`product_with`]).
pub async fn product_on(store: Arc<dyn store::Table>, extra: &[(&str, &str)]) -> Arc<AppCtx> {
    let vars = env(extra);
    let config = Config::from_lookup(|k| vars.get(k).cloned()).expect("test configuration is valid");
    let ctx = AppCtx::new(recorded(store), config).expect("context builds");
    let report = backoffice::seed::ensure_seeded(&ctx, |k| vars.get(k).cloned()).await.expect("seeding works");
    assert!(report.seeded_now);
    ctx
}

/// A store that sends one call at a time to the store behind it. moto's
/// server is not thread-safe: two TransactWriteItems at once fail inside
/// it ("dictionary changed size during iteration", HTTP 500) and its
/// condition checks are not isolated from each other, unlike DynamoDB's.
/// Each call stays atomic and requests still interleave between calls
/// (read, then conditional write), so races on the product's optimistic
/// checks are still exercised. One lock for the whole test process: the
/// tests of one binary run at the same time and share the emulator.
pub struct SerialTable {
    pub inner: Arc<dyn store::Table>,
}

static ONE_CALL_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[async_trait::async_trait]
impl store::Table for SerialTable {
    async fn put(&self, item: store::Item, condition: Option<store::Condition>) -> store::Result<()> {
        let _one = ONE_CALL_AT_A_TIME.lock().await;
        self.inner.put(item, condition).await
    }
    async fn get(&self, key: &store::Key) -> store::Result<Option<store::Item>> {
        let _one = ONE_CALL_AT_A_TIME.lock().await;
        self.inner.get(key).await
    }
    async fn batch_get(&self, keys: &[store::Key]) -> store::Result<Vec<Option<store::Item>>> {
        let _one = ONE_CALL_AT_A_TIME.lock().await;
        self.inner.batch_get(keys).await
    }
    async fn delete(&self, key: &store::Key, condition: Option<store::Condition>) -> store::Result<Option<store::Item>> {
        let _one = ONE_CALL_AT_A_TIME.lock().await;
        self.inner.delete(key, condition).await
    }
    async fn update(&self, key: &store::Key, actions: Vec<store::UpdateAction>, condition: Option<store::Condition>) -> store::Result<store::Item> {
        let _one = ONE_CALL_AT_A_TIME.lock().await;
        self.inner.update(key, actions, condition).await
    }
    async fn query(&self, query: store::Query) -> store::Result<store::Page> {
        let _one = ONE_CALL_AT_A_TIME.lock().await;
        self.inner.query(query).await
    }
    async fn transact(&self, ops: Vec<store::TxOp>) -> store::Result<()> {
        let _one = ONE_CALL_AT_A_TIME.lock().await;
        self.inner.transact(ops).await
    }
    async fn put_many(&self, items: Vec<store::Item>) -> store::Result<()> {
        let _one = ONE_CALL_AT_A_TIME.lock().await;
        self.inner.put_many(items).await
    }
}

/// A seeded product on a DynamoDB table (moto), reached through a
/// [`SerialTable`]. The seed runs on an in-memory SQLite store and its
/// items are copied over with bulk writes: moto copies the whole table for
/// every item of a transaction, which makes the transactional seed take
/// minutes there. The product then runs on DynamoDB only (the copied seed
/// marker says it is seeded).
pub async fn product_on_dynamo(table: store::dynamo::DynamoTable, extra: &[(&str, &str)]) -> Arc<AppCtx> {
    product_on_dynamo_through(table, extra, |store| store).await
}

/// [`product_on_dynamo`], the product's store being `wrap` of the table (a
/// decorator the test holds, such as `store::lagging::LaggingIndex`).
pub async fn product_on_dynamo_through(table: store::dynamo::DynamoTable, extra: &[(&str, &str)], wrap: impl FnOnce(Arc<dyn store::Table>) -> Arc<dyn store::Table>) -> Arc<AppCtx> {
    let sqlite: Arc<dyn store::Table> = Arc::new(store::sqlite::SqliteTable::open_in_memory().expect("in-memory SQLite opens"));
    let recorder = Arc::new(store::recording::KeyRecorder::new(sqlite));
    drop(product_on(recorder.clone(), extra).await);
    recorder.copy_written_to(&table).await.expect("the seed is copied to DynamoDB");
    let vars = env(extra);
    let config = Config::from_lookup(|k| vars.get(k).cloned()).expect("test configuration is valid");
    let serial = SerialTable { inner: Arc::new(table) };
    let ctx = AppCtx::new(recorded(wrap(Arc::new(serial))), config).expect("context builds");
    let report = backoffice::seed::ensure_seeded(&ctx, |k| vars.get(k).cloned()).await.expect("the copied store is usable");
    assert!(!report.seeded_now, "the copied seed is recognised");
    ctx
}

tokio::task_local! {
    /// The items the route being dispatched touched (see [`dispatch`]).
    static TOUCHED: std::sync::Mutex<Vec<store::recording::Touch>>;
}

/// The store wrapped so that every item a dispatched route touches is
/// recorded for [`dispatch`]'s check (store calls outside a dispatch, such
/// as seeding or a test's own setup, are not).
pub fn recorded(inner: Arc<dyn store::Table>) -> Arc<dyn store::Table> {
    let sink: store::recording::TouchSink = Arc::new(|touch| {
        let _ = TOUCHED.try_with(|t| t.lock().unwrap_or_else(|e| e.into_inner()).push(touch));
    });
    Arc::new(store::recording::TouchRecorder::new(inner, sink))
}

/// One request through the real dispatch, failing when the route touched
/// an item that its Lambda function's IAM policy (`backoffice::iam`, what
/// template.yaml grants) would refuse on AWS. Every handler test that calls
/// routes through here checks the generated policies as it goes.
pub async fn dispatch(ctx: &AppCtx, route: &backoffice::routes::Route, req: ApiRequest) -> http::Response<Bytes> {
    let what = format!("{} ({} {})", route.function, route.method, route.path);
    let lang = req.lang();
    let asked = answer_dump::Asked::of(route, &req);
    let outcome = within_policy(&what, &backoffice::iam::policy(route), backoffice::dispatch::outcome(ctx, route, req)).await;
    answer_dump::record(asked, &outcome);
    outcome.into_response(lang)
}

/// With `BACKOFFICE_ANSWER_DUMP=DIR`, every answer the handler tests get
/// is written to `DIR/{test binary}-{pid}.jsonl` in both languages (a
/// request is answered once, in the language it asked for; its envelope is
/// written in Chinese and in English from the same outcome). Dumps taken
/// before and after a change that must not change the wire are compared
/// with `tests/answers/compare.py`.
mod answer_dump {
    use std::io::Write;
    use std::sync::Mutex;

    use backoffice::dispatch::Outcome;
    use backoffice::ApiRequest;
    use envelope::Lang;
    use serde_json::{json, Value};

    /// What was asked, taken before the request is handed over.
    pub struct Asked(Option<Value>);

    impl Asked {
        pub fn of(route: &backoffice::routes::Route, req: &ApiRequest) -> Asked {
            if sink().is_none() {
                return Asked(None);
            }
            let mut query: Vec<(&String, &String)> = req.query.iter().collect();
            query.sort();
            let body = serde_json::from_slice::<Value>(&req.body).unwrap_or(Value::Null);
            Asked(Some(json!({
                "test": std::thread::current().name().unwrap_or("?"),
                "function": route.function,
                "method": route.method.as_str(),
                "query": query,
                "body": body,
                "lang": if req.lang() == Lang::Zh { "zh" } else { "en" },
            })))
        }
    }

    fn sink() -> Option<&'static Mutex<std::fs::File>> {
        static SINK: std::sync::OnceLock<Option<Mutex<std::fs::File>>> = std::sync::OnceLock::new();
        SINK.get_or_init(|| {
            let dir = std::env::var_os("BACKOFFICE_ANSWER_DUMP")?;
            std::fs::create_dir_all(&dir).expect("the dump directory can be made");
            let exe = std::env::current_exe().ok().and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned())).unwrap_or_default();
            let binary = exe.rsplit_once('-').map_or(exe.as_str(), |(name, _hash)| name).to_string();
            let path = std::path::Path::new(&dir).join(format!("{binary}-{}.jsonl", std::process::id()));
            Some(Mutex::new(std::fs::File::create(path).expect("the dump file can be made")))
        })
        .as_ref()
    }

    pub fn record(asked: Asked, outcome: &Outcome) {
        let (Some(mut line), Some(sink)) = (asked.0, sink()) else { return };
        line["zh"] = serde_json::to_value(outcome.envelope(Lang::Zh)).unwrap_or_default();
        line["en"] = serde_json::to_value(outcome.envelope(Lang::En)).unwrap_or_default();
        let mut file = sink.lock().unwrap_or_else(|e| e.into_inner());
        writeln!(file, "{line}").expect("the dump is written");
    }
}

/// Runs `work` (one Lambda function's handling of one event), failing when
/// it touched an item that `policy` would refuse on AWS.
pub async fn within_policy<T>(what: &str, policy: &backoffice::iam::Policy, work: impl std::future::Future<Output = T>) -> T {
    let (out, touched) = TOUCHED
        .scope(std::sync::Mutex::new(Vec::new()), async {
            let out = work.await;
            (out, TOUCHED.with(|t| std::mem::take(&mut *t.lock().unwrap_or_else(|e| e.into_inner()))))
        })
        .await;
    let mut refused: Vec<String> = touched
        .iter()
        .filter(|t| !policy.allows(t))
        .map(|t| format!("{} on {} of {}", t.action, t.index.unwrap_or("the table"), t.pk))
        .collect();
    refused.sort();
    refused.dedup();
    assert!(
        refused.is_empty(),
        "{what} touched items its IAM policy refuses on AWS: declare their key families (backoffice::iam):\n  {}",
        refused.join("\n  ")
    );
    out
}
