//! Built-in TLS: the SPA, the API and the charger link over https/wss
//! without a proxy (chargers need wss:// for OCPP security profile 2).
//! The certificate and key are PEM files named by `BACKOFFICE_TLS_CERT`
//! and `BACKOFFICE_TLS_KEY`; they are read again on SIGHUP and when either
//! file changes (a renewed certificate needs no restart), and a renewal
//! that does not load keeps the running certificate and says why.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use axum_server::tls_rustls::RustlsConfig;
use rustls::client::danger::HandshakeSignatureValid;
use rustls::pki_types::{CertificateDer, UnixTime};
use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
use rustls::server::ServerConfig;
use rustls::{DigitallySignedStruct, DistinguishedName, SignatureScheme};

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

    /// Loads both files (start-up: a problem stops the gateway). With
    /// `clients`, the handshake asks for a client certificate (optional:
    /// browsers and chargers of profiles 1 and 2 share the port).
    pub async fn load(&self, clients: Option<ClientCerts>) -> Result<RustlsConfig, String> {
        install_crypto_provider();
        Ok(RustlsConfig::from_config(self.server_config(clients)?))
    }

    fn server_config(&self, clients: Option<ClientCerts>) -> Result<Arc<ServerConfig>, String> {
        use rustls::pki_types::pem::PemObject;
        use rustls::pki_types::{CertificateDer, PrivateKeyDer};
        let problem = |e: &dyn std::fmt::Display| format!("cannot use the TLS certificate {} with the key {}: {e}", self.cert.display(), self.key.display());
        let chain = CertificateDer::pem_file_iter(&self.cert).and_then(|i| i.collect::<Result<Vec<_>, _>>()).map_err(|e| problem(&e))?;
        let key = PrivateKeyDer::from_pem_file(&self.key).map_err(|e| problem(&e))?;
        let builder = ServerConfig::builder();
        let builder = match clients {
            Some(c) => builder.with_client_cert_verifier(c.0),
            None => builder.with_no_client_auth(),
        };
        let mut config = builder.with_single_cert(chain, key).map_err(|e| problem(&e))?;
        // As axum-server's own PEM loading: HTTP/2, then HTTP/1.1 (WebSockets).
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        Ok(Arc::new(config))
    }

    fn modified(&self) -> Option<(SystemTime, SystemTime)> {
        let at = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        Some((at(&self.cert)?, at(&self.key)?))
    }
}

/// The handshake's client certificates (security profile 3): asked for,
/// never required, and taken as presented once the charger has proved it
/// holds the key (the TLS signature). Whether one admits a charger is the
/// application's decision at the WebSocket handshake
/// (`ocpp::admit_with_certificates`: chain, validity, CN, revocation), so
/// a refusal is a 401 with the reason and a security event of the pile,
/// not a bare TLS alert.
#[derive(Clone, Debug)]
pub struct ClientCerts(Arc<dyn ClientCertVerifier>);

impl ClientCerts {
    /// `verifier`: the CA's own (its trust anchors name the CAs the
    /// handshake asks for, and it checks the TLS signatures).
    pub fn new(verifier: Arc<dyn ClientCertVerifier>) -> ClientCerts {
        ClientCerts(Arc::new(PresentedAsIs(verifier)))
    }
}

#[derive(Debug)]
struct PresentedAsIs(Arc<dyn ClientCertVerifier>);

impl ClientCertVerifier for PresentedAsIs {
    fn offer_client_auth(&self) -> bool {
        true
    }

    fn client_auth_mandatory(&self) -> bool {
        false
    }

    fn root_hint_subjects(&self) -> &[DistinguishedName] {
        self.0.root_hint_subjects()
    }

    fn verify_client_cert(&self, _end_entity: &CertificateDer<'_>, _intermediates: &[CertificateDer<'_>], _now: UnixTime) -> Result<ClientCertVerified, rustls::Error> {
        Ok(ClientCertVerified::assertion())
    }

    fn verify_tls12_signature(&self, message: &[u8], cert: &CertificateDer<'_>, dss: &DigitallySignedStruct) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(&self, message: &[u8], cert: &CertificateDer<'_>, dss: &DigitallySignedStruct) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

/// rustls may be built with more than one crypto back end in this program
/// (test helpers may bring aws-lc-rs); the server uses the product's, ring.
pub fn install_crypto_provider() {
    backoffice::http_client::install_crypto_provider();
}

/// Reloads the certificate on SIGHUP and when the files change (checked
/// every `poll`). Runs for the life of the process.
pub fn spawn_reloader(files: TlsFiles, config: RustlsConfig, clients: Option<ClientCerts>, poll: Duration) {
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
            match files.server_config(clients.clone()).map(|c| config.reload_from_config(c)) {
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
