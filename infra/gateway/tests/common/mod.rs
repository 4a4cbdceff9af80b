//! Starts the real gateway binary on a free loopback port with a fresh
//! data dir, and stops it (SIGKILL on drop).
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const ADMIN_PW: &str = "admin-pass-1";
pub const EDITOR_PW: &str = "editor-pass-1";

pub struct Gateway {
    pub child: Child,
    pub base: String,
    pub data_dir: PathBuf,
}

pub fn fresh_data_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gateway-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The lowest port picked: browsers and fetch refuse some ports below it
/// (10080 among them), and the same ports serve the e2e harness.
const LOWEST_PORT: u16 = 20000;

/// Where the kernel's ephemeral ports begin (32768 on Linux by default).
fn ephemeral_range_start() -> u16 {
    std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|r| r.split_whitespace().next()?.parse().ok())
        .unwrap_or(32768)
}

/// A free loopback port below the kernel's ephemeral range. A port from
/// that range (what binding port 0 gives) is also handed to outgoing
/// connections, and the tests open many, so one picked there can be taken
/// before the gateway binds it; below it only another test's pick can
/// collide, one chance in thousands within the moment of a start.
pub fn free_port() -> u16 {
    use std::hash::{BuildHasher, Hasher};
    let start = ephemeral_range_start();
    for attempt in 0..1000u32 {
        let port = if start > LOWEST_PORT + 2000 {
            // RandomState is seeded afresh per instance: a random number
            // without a crate for it.
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u32(attempt);
            LOWEST_PORT + (h.finish() % u64::from(start - LOWEST_PORT)) as u16
        } else {
            0
        };
        if let Ok(listener) = std::net::TcpListener::bind(("127.0.0.1", port)) {
            return listener.local_addr().unwrap().port();
        }
    }
    panic!("no free loopback port");
}

impl Gateway {
    /// Starts the gateway on `data_dir` and waits until it answers.
    pub async fn start(data_dir: PathBuf, extra_env: &[(&str, &str)]) -> Gateway {
        let port = free_port();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_gateway"));
        cmd.env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("BACKOFFICE_DATA_DIR", &data_dir)
            .env("BACKOFFICE_PORT", port.to_string())
            .env("BACKOFFICE_WEB_DIST", data_dir.join("no-web"))
            .env("BACKOFFICE_SEED_PASSWORD_ADMIN", ADMIN_PW)
            .env("BACKOFFICE_SEED_PASSWORD_EDITOR", EDITOR_PW)
            .env("BACKOFFICE_SEED_PASSWORD_TEST", "test-pass-1")
            .env("BACKOFFICE_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        for (k, v) in extra_env {
            cmd.env(k, v);
        }
        let child = cmd.spawn().expect("gateway binary starts");
        let mut gw = Gateway { child, base: format!("http://127.0.0.1:{port}/partnerapi"), data_dir };
        let client = backoffice::http_client::client();
        // Ready is the answer, however long a first start's seeding takes on
        // a busy machine; the deadline only ends a gateway that hangs.
        let deadline = Instant::now() + Duration::from_secs(300);
        loop {
            if let Ok(r) = client.get(format!("{}/publicKey", gw.base)).send().await {
                if r.status().is_success() {
                    return gw;
                }
            }
            if let Some(exit) = gw.child.try_wait().expect("the gateway's state") {
                panic!("the gateway exited before it answered: {exit}");
            }
            assert!(Instant::now() < deadline, "gateway did not answer within 300 s");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// `http://127.0.0.1:PORT` (the SPA and the operations endpoints).
    pub fn origin(&self) -> String {
        self.base.trim_end_matches("/partnerapi").to_string()
    }

    /// Sends SIGTERM (a polite stop) and waits up to `within` for the exit.
    pub fn terminate(&mut self, within: Duration) -> std::process::ExitStatus {
        let status = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status().unwrap();
        assert!(status.success(), "kill -TERM");
        let deadline = Instant::now() + within;
        loop {
            if let Some(exit) = self.child.try_wait().unwrap() {
                return exit;
            }
            assert!(Instant::now() < deadline, "the gateway did not stop within {within:?} of SIGTERM");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        self.kill();
    }
}

pub async fn login(client: &reqwest::Client, base: &str, username: &str, password: &str) -> String {
    let body: serde_json::Value = client
        .post(format!("{base}/login/index"))
        .json(&serde_json::json!({"username": username, "password": password}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    body["data"]["token"].as_str().unwrap_or_else(|| panic!("login failed: {body}")).to_string()
}
