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
    let client = backoffice::http_client::client();
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
    let client = backoffice::http_client::client();
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
    assert_eq!(r.headers()["x-frame-options"], "DENY");
    let csp = r.headers()["content-security-policy"].to_str().unwrap();
    assert_eq!(csp, backoffice::browser_policy::content_security_policy());
    assert!(csp.contains("script-src 'self';") && csp.contains("frame-ancestors 'none'"), "{csp}");
    assert!(r.headers().get("strict-transport-security").is_none(), "HSTS only over https");
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
fn production_without_allowed_hosts_refuses_to_serve() {
    let dir = fresh_data_dir("prod-no-hosts");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gateway"))
        .env_clear()
        .env("BACKOFFICE_ENV", "production")
        .env("BACKOFFICE_JWT_SECRET", PRODUCTION_SECRET)
        .env("BACKOFFICE_DATA_DIR", &dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: BACKOFFICE_ALLOWED_HOSTS is not set"), "{err}");
}

/// The licence guard over real HTTP: the API and the SPA answer only on the
/// allowed host; elsewhere the API says why (403) and the SPA's paths show
/// the plain disabled page, whose form trades the key for a cookie valid on
/// that host only; a script may show the key in a header. The operations
/// endpoints answer on any host.
#[tokio::test]
async fn the_licence_guard_serves_only_allowed_hosts_or_the_key() {
    let dir = fresh_data_dir("licence");
    std::fs::create_dir_all(dir.join("no-web")).unwrap();
    std::fs::write(dir.join("no-web/index.html"), "<!doctype html><title>spa</title>").unwrap();
    let key = "licence-key-0123456789";
    let gw = Gateway::start(dir, &[("BACKOFFICE_ALLOWED_HOSTS", "127.0.0.1"), ("BACKOFFICE_LICENCE_KEY", key)]).await;
    let client = backoffice::http_client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let port = gw.base.split(':').nth(2).unwrap().split('/').next().unwrap().to_string();
    let other = format!("localhost:{port}");

    assert_eq!(client.get(format!("{}/publicKey", gw.base)).send().await.unwrap().status(), 200, "the allowed host");
    let refused = client.get(format!("{}/publicKey", gw.base)).header("host", &other).header("accept-language", "zh-CN").send().await.unwrap();
    assert_eq!(refused.status(), 403);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["msg"], "本系统未授权在此域名下使用：请使用管理员提供的地址访问");
    let page = client.get(format!("{}/", gw.origin())).header("host", &other).send().await.unwrap();
    assert_eq!(page.status(), 403);
    let html = page.text().await.unwrap();
    assert!(html.contains("本系统未授权在此域名下使用") && html.contains("localhost") && html.contains("licence-key") && !html.contains("<title>spa"), "{html}");
    assert_eq!(client.get(format!("{}/healthz", gw.origin())).header("host", &other).send().await.unwrap().status(), 200, "operations answer anywhere");

    // The key in a header (a script), then through the page's form (a browser).
    assert_eq!(client.get(format!("{}/publicKey", gw.base)).header("host", &other).header("x-licence-key", key).send().await.unwrap().status(), 200);
    let wrong = client.post(format!("{}/licence", gw.origin())).header("host", &other).form(&[("key", "not-the-key-at-all")]).send().await.unwrap();
    assert_eq!(wrong.status(), 403);
    assert!(wrong.text().await.unwrap().contains("licence-wrong"));
    let unlocked = client.post(format!("{}/licence", gw.origin())).header("host", &other).form(&[("key", key)]).send().await.unwrap();
    assert_eq!(unlocked.status(), 303);
    let cookie = unlocked.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && !cookie.contains(key), "{cookie}");
    let pair = cookie.split(';').next().unwrap().to_string();
    let spa = client.get(format!("{}/", gw.origin())).header("host", &other).header("cookie", &pair).send().await.unwrap();
    assert_eq!(spa.status(), 200);
    assert!(spa.text().await.unwrap().contains("<title>spa"));
    assert_eq!(client.get(format!("{}/publicKey", gw.base)).header("host", format!("other.example:{port}")).header("cookie", &pair).send().await.unwrap().status(), 403, "the cookie is for its host only");
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
    let client = backoffice::http_client::client();
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

/// A small build of the SPA: an entry page, a service worker and one
/// hashed asset large enough to be worth compressing.
fn fake_web_dist(dir: &std::path::Path) -> std::path::PathBuf {
    let dist = dir.join("dist");
    std::fs::create_dir_all(dist.join("static")).unwrap();
    std::fs::write(dist.join("index.html"), "<!doctype html><script type=module src=/static/app-3f9a1c.js></script>").unwrap();
    std::fs::write(dist.join("sw.js"), "self.addEventListener('fetch', () => {});").unwrap();
    let script: String = (0..2000).map(|i| format!("export const value{i} = {i};\n")).collect();
    std::fs::write(dist.join("static/app-3f9a1c.js"), script).unwrap();
    dist
}

#[tokio::test]
async fn the_spa_is_compressed_and_cached_by_kind_of_file() {
    let dir = fresh_data_dir("serving");
    let dist = fake_web_dist(&dir);
    let gw = Gateway::start(dir, &[("BACKOFFICE_WEB_DIST", dist.to_str().unwrap())]).await;
    let client = backoffice::http_client::client();
    let origin = gw.origin();

    // A hashed asset: brotli when accepted, gzip otherwise, cached for a year.
    let asset = format!("{origin}/static/app-3f9a1c.js");
    let br = client.get(&asset).header("accept-encoding", "gzip, br").send().await.unwrap();
    assert_eq!(br.status(), 200);
    assert_eq!(br.headers()["content-encoding"], "br");
    assert_eq!(br.headers()["cache-control"], "public, max-age=31536000, immutable");
    let raw_len = std::fs::metadata(dist.join("static/app-3f9a1c.js")).unwrap().len() as usize;
    let br_len = br.bytes().await.unwrap().len();
    assert!(br_len * 4 < raw_len, "brotli shrinks the script: {br_len} of {raw_len} bytes");
    let gz = client.get(&asset).header("accept-encoding", "gzip").send().await.unwrap();
    assert_eq!(gz.headers()["content-encoding"], "gzip");
    let plain = client.get(&asset).send().await.unwrap();
    assert!(plain.headers().get("content-encoding").is_none(), "no encoding unless asked for");

    // A missing hashed asset is a 404 that nobody caches, not the entry page.
    let missing = client.get(format!("{origin}/static/gone-123.js")).send().await.unwrap();
    assert_eq!(missing.status(), 404);
    assert_eq!(missing.headers()["cache-control"], "no-store");

    // The entry page and the service worker are revalidated: a second load
    // with the validator is a 304 without a body.
    for path in ["/", "/index.html", "/sw.js"] {
        let first = client.get(format!("{origin}{path}")).send().await.unwrap();
        assert_eq!(first.status(), 200, "{path}");
        assert_eq!(first.headers()["cache-control"], "no-cache", "{path}");
        let etag = first.headers()["etag"].clone();
        assert!(first.headers().contains_key("last-modified"), "{path}");
        let again = client.get(format!("{origin}{path}")).header("if-none-match", etag.clone()).send().await.unwrap();
        assert_eq!(again.status(), 304, "{path}");
        assert_eq!(again.headers()["etag"], etag);
        assert!(again.bytes().await.unwrap().is_empty());
    }
    // A deep link is the entry page too.
    let deep = client.get(format!("{origin}/order/orderindex")).send().await.unwrap();
    assert_eq!(deep.status(), 200);
    assert!(deep.text().await.unwrap().contains("app-3f9a1c.js"));

    // API answers are compressed and never stored by a cache.
    let api = client.get(format!("{}/openapi.json", gw.base)).header("accept-encoding", "br").send().await.unwrap();
    assert_eq!(api.headers()["content-encoding"], "br");
    let key = client.get(format!("{}/publicKey", gw.base)).send().await.unwrap();
    assert_eq!(key.headers()["cache-control"], "no-store");
    assert!(key.headers().contains_key("x-request-id"), "every answer names its request");
}

#[tokio::test]
async fn health_readiness_and_metrics() {
    let gw = Gateway::start(fresh_data_dir("ops"), &[]).await;
    let client = backoffice::http_client::client();
    let origin = gw.origin();
    let health = client.get(format!("{origin}/healthz")).send().await.unwrap();
    assert_eq!(health.status(), 200);
    let ready = client.get(format!("{origin}/readyz")).send().await.unwrap();
    assert_eq!(ready.status(), 200);

    // A failed sign-in, a good one and a listing, then the figures.
    let wrong = client.post(format!("{}/login/index", gw.base)).json(&serde_json::json!({"username": "editor", "password": "wrong-password"})).send().await.unwrap();
    assert!(!wrong.status().is_success());
    let token = login(&client, &gw.base, "editor", EDITOR_PW).await;
    let list = client.get(format!("{}/order/getList?pageSize=5", gw.base)).bearer_auth(&token).send().await.unwrap();
    assert_eq!(list.status(), 200);
    let text = client.get(format!("{origin}/metrics")).send().await.unwrap().text().await.unwrap();
    for expected in [
        "backoffice_http_requests_total{route=\"/partnerapi/order/getList\",method=\"GET\",status=\"200\"} 1",
        "backoffice_http_request_duration_seconds_bucket{route=\"/partnerapi/order/getList\"",
        "backoffice_sign_in_failures_total{status=",
        "backoffice_charger_connections 0",
    ] {
        assert!(text.contains(expected), "metrics lack {expected}:\n{text}");
    }
}

#[tokio::test]
async fn metrics_with_a_token_want_the_token() {
    let token = "metrics-token-0123456789";
    let gw = Gateway::start(fresh_data_dir("ops-token"), &[("BACKOFFICE_METRICS_TOKEN", token)]).await;
    let client = backoffice::http_client::client();
    let url = format!("{}/metrics", gw.origin());
    assert_eq!(client.get(&url).send().await.unwrap().status(), 403);
    assert_eq!(client.get(&url).bearer_auth("metrics-token-wrong-00000").send().await.unwrap().status(), 403);
    assert_eq!(client.get(&url).bearer_auth(token).send().await.unwrap().status(), 200);
}

/// Behind a reverse proxy on this machine every request comes from
/// loopback: a request that came through a proxy (it carries a forwarding
/// header, or comes from the configured trusted proxy) is not "this
/// machine", so /metrics wants the token then.
#[tokio::test]
async fn metrics_through_a_proxy_are_not_local() {
    let client = backoffice::http_client::client();
    let gw = Gateway::start(fresh_data_dir("ops-proxy"), &[]).await;
    let url = format!("{}/metrics", gw.origin());
    assert_eq!(client.get(&url).send().await.unwrap().status(), 200, "a caller on this machine");
    for (header, value) in [("x-forwarded-for", "203.0.113.7"), ("forwarded", "for=203.0.113.7"), ("x-real-ip", "203.0.113.7")] {
        let through = client.get(&url).header(header, value).send().await.unwrap();
        assert_eq!(through.status(), 403, "{header}");
        assert!(through.text().await.unwrap().contains("BACKOFFICE_METRICS_TOKEN"));
    }
    drop(gw);

    // The proxy configured: its requests are someone else's, headers or not.
    let token = "metrics-token-0123456789";
    let gw = Gateway::start(fresh_data_dir("ops-trusted"), &[("BACKOFFICE_TRUSTED_PROXY", "127.0.0.1")]).await;
    let url = format!("{}/metrics", gw.origin());
    assert_eq!(client.get(&url).send().await.unwrap().status(), 403);
    drop(gw);
    let gw = Gateway::start(fresh_data_dir("ops-trusted-token"), &[("BACKOFFICE_TRUSTED_PROXY", "127.0.0.1"), ("BACKOFFICE_METRICS_TOKEN", token)]).await;
    let url = format!("{}/metrics", gw.origin());
    assert_eq!(client.get(&url).bearer_auth(token).send().await.unwrap().status(), 200);
}

/// The sign-in throttle's address: the forwarded one only from the
/// configured proxy. Unconfigured, a loopback caller cannot pick the
/// address its guesses count under (here: spread them over 25 addresses to
/// dodge the per-address limit).
#[tokio::test]
async fn forwarded_addresses_count_only_from_the_configured_proxy() {
    let client = backoffice::http_client::client();
    for (proxy, dodged) in [(None, false), (Some("127.0.0.1"), true)] {
        let env: Vec<(&str, &str)> = proxy.map(|p| vec![("BACKOFFICE_TRUSTED_PROXY", p)]).unwrap_or_default();
        let gw = Gateway::start(fresh_data_dir("xff"), &env).await;
        let mut statuses = Vec::new();
        for i in 0..25 {
            let a = client
                .post(format!("{}/login/index", gw.base))
                .header("x-forwarded-for", format!("198.51.100.{i}"))
                .json(&serde_json::json!({"username": format!("nobody{i}"), "password": "guess-guess"}))
                .send()
                .await
                .unwrap();
            statuses.push(a.status().as_u16());
        }
        let refused = statuses.iter().filter(|s| **s == 429).count();
        if dodged {
            assert_eq!(refused, 0, "through the configured proxy each client counts apart: {statuses:?}");
        } else {
            assert_eq!(refused, 5, "one address (the caller's own) after 20: {statuses:?}");
        }
    }
}

/// Production refuses to serve plain http to the network, and a signing
/// secret with little entropy, each with one line saying what to fix.
#[test]
fn production_refuses_plain_http_on_a_public_address_and_a_guessable_secret() {
    let run = |extra: &[(&str, &str)]| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_gateway"));
        cmd.env_clear()
            .env("BACKOFFICE_ENV", "production")
            .env("BACKOFFICE_DATA_DIR", fresh_data_dir("prod-transport"))
            .env("BACKOFFICE_ALLOWED_HOSTS", "backoffice.example.com")
            .env("BACKOFFICE_SEED_PASSWORD_ADMIN", PRODUCTION_ADMIN_PW)
            .env("BACKOFFICE_WEB_DIST", "no-web")
            .env("BACKOFFICE_LOG", "warn");
        for (k, v) in extra {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    };
    let public = run(&[("BACKOFFICE_JWT_SECRET", PRODUCTION_SECRET), ("BACKOFFICE_HOST", "0.0.0.0"), ("BACKOFFICE_PORT", "0")]);
    assert!(!public.status.success());
    let err = String::from_utf8_lossy(&public.stderr);
    assert!(err.starts_with("error: production would serve plain http on 0.0.0.0") && err.contains("BACKOFFICE_BEHIND_TLS_PROXY=1"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");

    let aaa = "a".repeat(42);
    let weak = run(&[("BACKOFFICE_JWT_SECRET", &aaa)]);
    assert!(!weak.status.success());
    let err = String::from_utf8_lossy(&weak.stderr);
    assert!(err.starts_with("error: BACKOFFICE_JWT_SECRET has too little entropy") && err.contains("openssl rand -hex 32"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

/// Behind a TLS proxy on another machine (the named setting), production
/// listens on a public address over plain http.
#[tokio::test]
async fn production_behind_a_tls_proxy_may_listen_on_a_public_address() {
    let dir = fresh_data_dir("prod-behind-proxy");
    assert!(production_seed(&dir, Some(PRODUCTION_ADMIN_PW)).status.success());
    let gw = Gateway::start(
        dir,
        &[("BACKOFFICE_ENV", "production"), ("BACKOFFICE_JWT_SECRET", PRODUCTION_SECRET), ("BACKOFFICE_HOST", "0.0.0.0"), ("BACKOFFICE_BEHIND_TLS_PROXY", "1"), ("BACKOFFICE_ALLOWED_HOSTS", "127.0.0.1")],
    )
    .await;
    let client = backoffice::http_client::client();
    let signed = client.post(format!("{}/login/index", gw.base)).json(&serde_json::json!({"username": "admin", "password": PRODUCTION_ADMIN_PW})).send().await.unwrap();
    assert_eq!(signed.status(), 200);
    // The browser speaks https to the proxy: the device cookie is Secure.
    let cookie = signed.headers().get_all("set-cookie").iter().map(|v| v.to_str().unwrap().to_string()).find(|c| c.starts_with("bo_device_")).unwrap();
    assert!(cookie.contains("; Secure") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "{cookie}");
}

#[test]
fn json_logs_carry_the_request_id() {
    // Run the real binary with JSON logs, make one request with our id,
    // and find that id on the log line the request wrote.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let dir = fresh_data_dir("json-logs");
    let log = dir.join("out.log");
    let out_file = std::fs::File::create(&log).unwrap();
    let port = free_port();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gateway"))
        .env("BACKOFFICE_DATA_DIR", &dir)
        .env("BACKOFFICE_PORT", port.to_string())
        .env("BACKOFFICE_SEED_PASSWORD_ADMIN", ADMIN_PW)
        .env("BACKOFFICE_SEED_PASSWORD_EDITOR", EDITOR_PW)
        .env("BACKOFFICE_SEED_PASSWORD_TEST", "test-pass-1")
        .env("BACKOFFICE_DEMO_ORDERS", "20")
        .env("BACKOFFICE_LOG_FORMAT", "json")
        .env("BACKOFFICE_LOG", "info")
        .stdout(out_file)
        .spawn()
        .unwrap();
    let answered = rt.block_on(async {
        let client = backoffice::http_client::client();
        for _ in 0..300 {
            if let Ok(r) = client.get(format!("http://127.0.0.1:{port}/partnerapi/publicKey")).header("x-request-id", "trace-me-42").send().await {
                return Some(r.headers()["x-request-id"].clone());
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        None
    });
    std::thread::sleep(std::time::Duration::from_millis(300));
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(answered.expect("the gateway answered"), "trace-me-42", "a client's request id is kept");
    let text = std::fs::read_to_string(&log).unwrap();
    let line = text.lines().find(|l| l.contains("trace-me-42")).unwrap_or_else(|| panic!("no log line with the request id:\n{text}"));
    let parsed: Value = serde_json::from_str(line).expect("each log line is one JSON object");
    assert_eq!(parsed["fields"]["function"], "public_key", "{line}");
}

const PRODUCTION_SECRET: &str = "production-secret-0123456789abcdef0123";
/// Production's first Admin meets the policy for new passwords.
const PRODUCTION_ADMIN_PW: &str = "harbour lantern violet 42";

fn production_seed(dir: &std::path::Path, admin_password: Option<&str>) -> std::process::Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_gateway"));
    cmd.arg("seed")
        .env_clear()
        .env("BACKOFFICE_ENV", "production")
        .env("BACKOFFICE_JWT_SECRET", PRODUCTION_SECRET)
        .env("BACKOFFICE_DATA_DIR", dir)
        .env("BACKOFFICE_SEED_PASSWORD_EDITOR", EDITOR_PW);
    if let Some(pw) = admin_password {
        cmd.env("BACKOFFICE_SEED_PASSWORD_ADMIN", pw);
    }
    cmd.output().unwrap()
}

#[tokio::test]
async fn production_starts_with_the_first_admin_only_and_no_demo_data() {
    let dir = fresh_data_dir("production-seed");
    let refused = production_seed(&dir, None);
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("BACKOFFICE_SEED_PASSWORD_ADMIN is not set"), "{err}");

    // A password the policy refuses is refused here too, with the reason.
    let weak = production_seed(&dir, Some("admin-pass-1"));
    assert!(!weak.status.success());
    assert!(String::from_utf8_lossy(&weak.stderr).contains("must not contain the user name"), "{}", String::from_utf8_lossy(&weak.stderr));
    // Long enough but easy to guess (the strength estimator's verdict).
    let guessable = production_seed(&dir, Some("Password1234!"));
    assert!(!guessable.status.success());
    assert!(String::from_utf8_lossy(&guessable.stderr).contains("too easy to guess"), "{}", String::from_utf8_lossy(&guessable.stderr));

    let seeded = production_seed(&dir, Some(PRODUCTION_ADMIN_PW));
    assert!(seeded.status.success(), "{}", String::from_utf8_lossy(&seeded.stderr));
    let said = String::from_utf8_lossy(&seeded.stdout);
    assert!(!said.contains(PRODUCTION_ADMIN_PW) && !said.contains(EDITOR_PW), "production never prints a password: {said}");
    assert!(said.contains("no demo data"), "{said}");
    assert!(!dir.join("first-run-credentials.txt").exists());

    let gw = Gateway::start(dir, &[("BACKOFFICE_ENV", "production"), ("BACKOFFICE_JWT_SECRET", PRODUCTION_SECRET), ("BACKOFFICE_ALLOWED_HOSTS", "127.0.0.1")]).await;
    let client = backoffice::http_client::client();
    let token = login(&client, &gw.base, "admin", PRODUCTION_ADMIN_PW).await;
    for demo_account in [("editor", EDITOR_PW), ("test", "test-pass-1")] {
        let body: Value = client
            .post(format!("{}/login/index", gw.base))
            .json(&serde_json::json!({"username": demo_account.0, "password": demo_account.1}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_ne!(body["code"], 200, "no demo account in production: {body}");
    }
    for list in ["/station/getList?pageNo=1&pageSize=10", "/card/getList?pageNo=1&pageSize=10"] {
        let body: Value = client.get(format!("{}{list}", gw.base)).bearer_auth(&token).send().await.unwrap().json().await.unwrap();
        assert_eq!(body["code"], 200, "{list}: {body}");
        assert_eq!(body["data"]["list"].as_array().map(Vec::len), Some(0), "no demo records in production: {list}: {body}");
    }
    let orders: Value = client.get(format!("{}/order/getList?pageSize=10", gw.base)).bearer_auth(&token).send().await.unwrap().json().await.unwrap();
    assert_eq!(orders["data"]["list"].as_array().map(Vec::len), Some(0), "no fictitious orders: {orders}");
}
