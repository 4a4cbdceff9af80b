//! Built-in TLS: the SPA, the API and the charger link over https/wss
//! without a proxy (chargers need wss:// for OCPP security profile 2).
//! The certificate and key are PEM files named by `BACKOFFICE_TLS_CERT`
//! and `BACKOFFICE_TLS_KEY`; they are read again on SIGHUP and when either
//! file changes (a renewed certificate needs no restart), and a renewal
//! that does not load keeps the running certificate and says why.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use axum_server::tls_rustls::RustlsConfig;

/// Where the certificate and key live.
#[derive(Clone, Debug)]
pub struct TlsFiles {
    pub cert: PathBuf,
    pub key: PathBuf,
}

impl TlsFiles {
    /// From the environment: both variables or neither.
    pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Result<Option<TlsFiles>, String> {
        let var = |name: &str| get(name).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        match (var("BACKOFFICE_TLS_CERT"), var("BACKOFFICE_TLS_KEY")) {
            (None, None) => Ok(None),
            (Some(cert), Some(key)) => Ok(Some(TlsFiles { cert: cert.into(), key: key.into() })),
            (Some(_), None) => Err("BACKOFFICE_TLS_CERT is set without BACKOFFICE_TLS_KEY: give both PEM files, or neither for plain http".into()),
            (None, Some(_)) => Err("BACKOFFICE_TLS_KEY is set without BACKOFFICE_TLS_CERT: give both PEM files, or neither for plain http".into()),
        }
    }

    /// Loads both files (start-up: a problem stops the gateway).
    pub async fn load(&self) -> Result<RustlsConfig, String> {
        install_crypto_provider();
        RustlsConfig::from_pem_file(&self.cert, &self.key).await.map_err(|e| {
            format!(
                "cannot use the TLS certificate {} with the key {}: {e}",
                self.cert.display(),
                self.key.display()
            )
        })
    }

    fn modified(&self) -> Option<(SystemTime, SystemTime)> {
        let at = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        Some((at(&self.cert)?, at(&self.key)?))
    }
}

/// rustls may be built with more than one crypto back end in this program
/// (test helpers may bring aws-lc-rs); the server uses the product's, ring.
pub fn install_crypto_provider() {
    backoffice::http_client::install_crypto_provider();
}

/// Reloads the certificate on SIGHUP and when the files change (checked
/// every `poll`). Runs for the life of the process.
pub fn spawn_reloader(files: TlsFiles, config: RustlsConfig, poll: Duration) {
    tokio::spawn(async move {
        #[cfg(unix)]
        let mut hangup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()).ok();
        let mut seen = files.modified();
        let mut tick = tokio::time::interval(poll);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            #[cfg(unix)]
            let asked = async {
                match hangup.as_mut() {
                    Some(s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            #[cfg(not(unix))]
            let asked = std::future::pending::<()>();
            let why = tokio::select! {
                _ = asked => "SIGHUP",
                _ = tick.tick() => {
                    let now = files.modified();
                    if now == seen || now.is_none() {
                        continue;
                    }
                    seen = now;
                    "the certificate files changed"
                }
            };
            match config.reload_from_pem_file(&files.cert, &files.key).await {
                Ok(()) => tracing::info!(reason = why, cert = %files.cert.display(), "TLS certificate reloaded"),
                Err(e) => tracing::error!(
                    reason = why,
                    cert = %files.cert.display(),
                    error = %e,
                    "the new TLS certificate does not load; still serving the previous one"
                ),
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_files_or_neither() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string())
        };
        assert!(TlsFiles::from_env(env(&[])).unwrap().is_none());
        let both = TlsFiles::from_env(env(&[("BACKOFFICE_TLS_CERT", "c.pem"), ("BACKOFFICE_TLS_KEY", "k.pem")])).unwrap().unwrap();
        assert_eq!(both.cert, PathBuf::from("c.pem"));
        let err = TlsFiles::from_env(env(&[("BACKOFFICE_TLS_CERT", "c.pem")])).unwrap_err();
        assert!(err.contains("without BACKOFFICE_TLS_KEY"), "{err}");
        assert!(TlsFiles::from_env(env(&[("BACKOFFICE_TLS_KEY", "k.pem")])).is_err());
    }
}
