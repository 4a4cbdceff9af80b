//! The HTTP client of the product's own outbound calls (the OAuth code
//! exchange, the Parameters and Secrets Lambda Extension).
//!
//! reqwest is built without a crypto back end of its own: TLS runs on ring,
//! the rustls back end the AWS SDK's client uses too
//! (`store::dynamo::https_client`), so a Lambda function carries one rustls
//! back end, and the smaller one (aws-lc-rs was ~1 MB of the binary).
//!
//! Every reqwest client of the workspace (tests and benches too) comes from
//! here: a plain `reqwest::Client::new()` panics with "No provider set"
//! unless the provider was installed first.

/// A client builder whose TLS uses the process's rustls provider, ring.
pub fn builder() -> reqwest::ClientBuilder {
    install_crypto_provider();
    reqwest::Client::builder()
}

/// A client with reqwest's defaults.
pub fn client() -> reqwest::Client {
    builder().build().expect("an HTTP client with default settings builds")
}

/// Makes ring the process's rustls crypto provider (reqwest and the
/// gateway's TLS server read it); keeps one already installed.
pub fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}
