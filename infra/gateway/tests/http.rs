//! The local gateway over real HTTP: the route table mounted, the
//! envelope on every answer, role-filtered menus.

mod common;

use common::*;
use serde_json::Value;

fn collect_paths(routes: &[Value], out: &mut Vec<String>) {
    for r in routes {
        out.push(r["path"].as_str().unwrap_or_default().to_string());
        if let Some(c) = r["children"].as_array() {
            collect_paths(c, out);
        }
    }
}

#[tokio::test]
async fn editor_gets_only_the_routes_an_editor_may_see() {
    let gw = Gateway::start(fresh_data_dir("editor-routes"), &[]).await;
    let client = reqwest::Client::new();
    let token = login(&client, &gw.base, "editor", EDITOR_PW).await;
    let resp = client.get(format!("{}/router/getList", gw.base)).bearer_auth(&token).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["code"], 200);
    let mut editor_paths = Vec::new();
    collect_paths(body["data"]["list"].as_array().expect("data.list is an array"), &mut editor_paths);

    let admin = login(&client, &gw.base, "admin", ADMIN_PW).await;
    let body: Value = client.get(format!("{}/router/getList", gw.base)).bearer_auth(&admin).send().await.unwrap().json().await.unwrap();
    let mut admin_paths = Vec::new();
    collect_paths(body["data"]["list"].as_array().unwrap(), &mut admin_paths);

    assert!(editor_paths.iter().any(|p| p == "/order"), "charging pages are open to editors: {editor_paths:?}");
    for hidden_from_editor in ["/setting", "/mall", "table"] {
        assert!(admin_paths.iter().any(|p| p == hidden_from_editor), "admin sees {hidden_from_editor}");
        assert!(!editor_paths.iter().any(|p| p == hidden_from_editor), "editor must not see {hidden_from_editor}");
    }
}

#[tokio::test]
async fn unknown_paths_methods_and_bad_bodies_get_envelopes() {
    let gw = Gateway::start(fresh_data_dir("envelopes"), &[]).await;
    let client = reqwest::Client::new();
    let r = client.get(format!("{}/no/such/thing", gw.base)).send().await.unwrap();
    assert_eq!(r.status(), 404);
    assert_eq!(r.json::<Value>().await.unwrap()["code"], 404);
    let r = client.get(format!("{}/login/index", gw.base)).send().await.unwrap();
    assert_eq!(r.status(), 405);
    assert_eq!(r.json::<Value>().await.unwrap()["code"], 405);
    let r = client
        .post(format!("{}/login/index", gw.base))
        .header("content-type", "application/json")
        .body("{\"username\":")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    assert!(r.json::<Value>().await.unwrap()["msg"].as_str().unwrap().contains("not valid JSON"));
    assert_eq!(status_for_declared_length(&gw.base, 2 * 1024 * 1024).await, 413, "a body over 1 MB is refused from its declared length");
    let r = client.get(format!("{}/index/userInfo", gw.base)).send().await.unwrap();
    assert_eq!(r.status(), 401);
    assert_eq!(r.headers()["x-content-type-options"], "nosniff");
}

#[tokio::test]
async fn a_busy_port_stops_start_up_with_one_clear_line() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let dir = fresh_data_dir("busy-port");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gateway"))
        .env("BACKOFFICE_DATA_DIR", &dir)
        .env("BACKOFFICE_PORT", port.to_string())
        .env("BACKOFFICE_SEED_PASSWORD_ADMIN", ADMIN_PW)
        .env("BACKOFFICE_SEED_PASSWORD_EDITOR", EDITOR_PW)
        .env("BACKOFFICE_SEED_PASSWORD_TEST", "test-pass-1")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("port {port} is busy")), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn production_without_a_secret_refuses_to_start() {
    let dir = fresh_data_dir("prod-no-secret");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gateway"))
        .env_remove("BACKOFFICE_JWT_SECRET")
        .env("BACKOFFICE_ENV", "production")
        .env("BACKOFFICE_DATA_DIR", &dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: BACKOFFICE_JWT_SECRET is not set"), "{err}");
}

#[test]
fn an_unusable_data_dir_is_named() {
    let file = fresh_data_dir("not-a-dir").join("plain-file");
    std::fs::write(&file, b"x").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gateway"))
        .env("BACKOFFICE_DATA_DIR", file.join("sub"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("BACKOFFICE_DATA_DIR"), "{err}");
}

/// The status a POST gets for a body of `length` bytes, judged from its
/// Content-Length alone. Sent over a raw socket without the body: the
/// server must answer before reading it (a client streaming 2 MB would
/// otherwise race the server closing the connection).
async fn status_for_declared_length(base: &str, length: usize) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let url = url::Url::parse(base).unwrap();
    let addr = format!("{}:{}", url.host_str().unwrap(), url.port().unwrap());
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST {}/login/index HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n",
        url.path(),
        url.host_str().unwrap()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = vec![0u8; 64];
    let n = tokio::time::timeout(std::time::Duration::from_secs(10), stream.read(&mut answer))
        .await
        .expect("the server answers without waiting for the body")
        .unwrap();
    let line = String::from_utf8_lossy(&answer[..n]).to_string();
    line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("no status line: {line}"))
}

#[tokio::test]
async fn the_openapi_document_is_served_without_a_token() {
    let gw = Gateway::start(fresh_data_dir("openapi"), &[]).await;
    let client = reqwest::Client::new();
    let url = format!("{}/openapi.json", gw.base);
    let resp = client.get(&url).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert!(resp.headers()["content-type"].to_str().unwrap().starts_with("application/json"));
    let served: Value = resp.json().await.unwrap();
    assert_eq!(served["openapi"], "3.1.0");
    assert_eq!(served, backoffice::openapi::document(), "the gateway serves the route table's document");
    // Only GET: a write to the document's path is refused in the envelope.
    let post = client.post(&url).send().await.unwrap();
    assert_eq!(post.status(), 405);
    let body: Value = post.json().await.unwrap();
    assert_eq!(body["code"], 405);
}
