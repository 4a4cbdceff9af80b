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

pub fn env(extra: &[(&str, &str)]) -> HashMap<String, String> {
    let mut vars: HashMap<String, String> = [
        ("BACKOFFICE_JWT_SECRET", "test-secret-that-is-long-enough-0123456789"),
        ("BACKOFFICE_ACCESS_TOKEN_TTL", "60"),
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
    let store = Arc::new(store::sqlite::SqliteTable::open_in_memory().expect("in-memory SQLite opens"));
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
    let (path, query) = path_and_query.split_once('?').map_or((path_and_query, None), |(p, q)| (p, Some(q)));
    let route = backoffice::routes::find(&method, path).unwrap_or_else(|| panic!("no route {method} {path}"));
    let mut req = ApiRequest::new(method, path).with_query_string(query);
    req.client_ip = ip.to_string();
    if let Some(t) = token {
        req.headers.insert("authorization", format!("Bearer {t}").parse().unwrap());
    }
    if let Some(b) = body {
        req.headers.insert("content-type", "application/json".parse().unwrap());
        req.body = Bytes::from(serde_json::to_vec(&b).unwrap());
    }
    let resp = backoffice::dispatch(ctx, route, req).await;
    let status = resp.status().as_u16();
    let body: Value = serde_json::from_slice(resp.body()).expect("every answer is JSON");
    assert_eq!(body["code"].as_i64(), Some(status as i64), "status equals envelope code: {body}");
    Answer { status, body }
}

pub async fn get(ctx: &AppCtx, path: &str, token: Option<&str>) -> Answer {
    call(ctx, Method::GET, path, token, None).await
}

pub async fn post(ctx: &AppCtx, path: &str, token: Option<&str>, body: Value) -> Answer {
    call(ctx, Method::POST, path, token, Some(body)).await
}

/// Signs in and returns the token; panics on failure.
pub async fn login(ctx: &AppCtx, username: &str, password: &str) -> String {
    let a = post(ctx, "/login/index", None, serde_json::json!({"username": username, "password": password})).await;
    assert_eq!(a.code(), 200, "login of {username} failed: {:?}", a.body);
    a.data()["token"].as_str().expect("token in data").to_string()
}
