//! A gateway process for the load benchmarks (soak, sign-in load): started
//! on a free loopback port with its own data dir and demo data, signed in
//! as admin, killed and cleaned up when dropped.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

pub struct LiveGateway {
    child: Child,
    data: PathBuf,
    pub base: String,
    pub port: u16,
    pub admin_password: String,
}

impl LiveGateway {
    /// Starts `binary` (a built gateway) and waits until admin can sign in.
    pub async fn start(binary: &str, name: &str, admin_password: &str) -> Result<(LiveGateway, String), String> {
        let data = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&data);
        std::fs::create_dir_all(&data).map_err(|e| e.to_string())?;
        let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map_err(|e| e.to_string())?.port();
        let child = Command::new(binary)
            .env("BACKOFFICE_DATA_DIR", &data)
            .env("BACKOFFICE_PORT", port.to_string())
            .env("BACKOFFICE_WEB_DIST", data.join("no-web"))
            .env("BACKOFFICE_SEED_PASSWORD_ADMIN", admin_password)
            .env("BACKOFFICE_SEED_PASSWORD_EDITOR", "bench-editor-pass-1")
            .env("BACKOFFICE_SEED_PASSWORD_TEST", "bench-test-pass-1")
            .env("BACKOFFICE_LOG", "warn")
            .env_remove("BACKOFFICE_SIMULATE_CHARGERS")
            .stdout(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {binary}: {e} (build it: cargo build --release -p gateway)"))?;
        let gw = LiveGateway { child, data, base: format!("http://127.0.0.1:{port}"), port, admin_password: admin_password.into() };
        let client = backoffice::http_client::client();
        let started = Instant::now();
        loop {
            match gw.sign_in(&client).await {
                Ok(token) => return Ok((gw, token)),
                Err(_) if started.elapsed() < Duration::from_secs(120) => tokio::time::sleep(Duration::from_millis(200)).await,
                Err(e) => return Err(format!("the gateway did not come up: {e}")),
            }
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Signs in as admin; the access token.
    pub async fn sign_in(&self, client: &reqwest::Client) -> Result<String, String> {
        let body: Value = client
            .post(format!("{}/partnerapi/login/index", self.base))
            .json(&json!({"username": "admin", "password": self.admin_password}))
            .send()
            .await
            .map_err(|e| e.to_string())?
            .json()
            .await
            .map_err(|e| e.to_string())?;
        body["data"]["token"].as_str().map(String::from).ok_or_else(|| format!("sign-in failed: {body}"))
    }
}

impl Drop for LiveGateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

/// The `p` percentile (0..=1) of sorted microseconds, in milliseconds.
pub fn pct_ms(sorted_us: &[u64], p: f64) -> f64 {
    if sorted_us.is_empty() {
        return 0.0;
    }
    sorted_us[((sorted_us.len() as f64 - 1.0) * p).round() as usize] as f64 / 1000.0
}
