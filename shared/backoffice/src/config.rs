//! Runtime configuration, read once per process from the environment.
//! Every variable is listed in NOTES.md; a bad value stops start-up with a
//! one-line message that says what to fix.

use std::path::PathBuf;

/// Whether the process runs as a developer's local product or in production.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Development,
    Production,
}

/// Where the single table lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreConfig {
    /// The embedded SQLite file under the data dir.
    Sqlite { path: PathBuf },
    /// DynamoDB (or an emulator when an endpoint is given).
    Dynamo { table: String, endpoint: Option<String>, region: Option<String> },
}

impl StoreConfig {
    /// The DynamoDB table's name (none for SQLite).
    pub fn dynamo_table(&self) -> Option<&str> {
        match self {
            StoreConfig::Dynamo { table, .. } => Some(table),
            StoreConfig::Sqlite { .. } => None,
        }
    }
}

/// An OAuth2 / OpenID Connect provider for social login.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthProvider {
    pub name: String,
    pub authorize_url: String,
    pub token_url: String,
    pub userinfo_url: String,
    pub client_id: String,
    pub client_secret: String,
    pub redirect_uri: String,
}

#[derive(Debug, Clone)]
pub struct Config {
    pub mode: Mode,
    pub data_dir: PathBuf,
    pub store: StoreConfig,
    /// The HS256 secret; in development generated once into the data dir.
    pub jwt_secret: Vec<u8>,
    pub access_token_ttl_secs: i64,
    /// How long after sign-in a session may still be refreshed.
    pub session_ttl_secs: i64,
    /// Whether POST /register creates accounts (new accounts get no role).
    pub allow_register: bool,
    pub oauth: Option<OAuthProvider>,
    /// The value the CloudFront distribution adds as `X-Origin-Verify`;
    /// with it the viewer's address is believed (see `client_ip`).
    pub origin_verify_secret: Option<String>,
    /// How many days the OCPP message log keeps each exchange.
    pub ocpp_log_days: i64,
    /// The TCP port the gateway takes YKC piles on (`BACKOFFICE_YKC_PORT`);
    /// None: no YKC listener (on AWS, the container edge's).
    pub ykc_port: Option<u16>,
    /// A second YKC port, TLS (the gateway's own certificate), for piles
    /// that support it (`BACKOFFICE_YKC_TLS_PORT`); None: plain only.
    pub ykc_tls_port: Option<u16>,
    /// Whether the template's demo pages (components, other, goods list, error pages,
    /// the dashboard and workbench demos) and their data endpoints exist.
    pub demo_pages: bool,
    /// The licence guard (`crate::licence`): the host names the site may be
    /// served at and the key that unlocks any other; None: no guard.
    pub licence: Option<crate::licence::LicenceGuard>,
    /// The charging stations' certificate authority and what issued
    /// certificates look like (`domain::chargers::ca`).
    pub charger_ca: ChargerCaConfig,
    /// This gateway process as one of several behind a load balancer
    /// (`BACKOFFICE_INSTANCE_URL` / `BACKOFFICE_INSTANCE_SECRET`): a
    /// connection record names the instance holding its socket, and a
    /// command for it is forwarded there. None: one process holds every
    /// socket (or AWS Lambda, where API Gateway holds them).
    pub instance: Option<InstanceConfig>,
}

/// This process among the gateway instances sharing one table.
#[derive(Clone, PartialEq, Eq)]
pub struct InstanceConfig {
    /// Unique to this process's life (made at start): a connection record
    /// naming another id belongs to another process, or to an earlier life
    /// of this one at the same address.
    pub id: String,
    /// Where the other instances reach this one's internal endpoint
    /// (`http://host:port`, `{ip}` replaced by this host's address).
    pub url: String,
    /// The address that endpoint listens on (the URL's host and port).
    pub listen: std::net::SocketAddr,
    /// The key the instances sign their internal requests with.
    pub secret: String,
}

impl std::fmt::Debug for InstanceConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InstanceConfig").field("id", &self.id).field("url", &self.url).field("listen", &self.listen).field("secret", &"***").finish()
    }
}

impl InstanceConfig {
    fn from_lookup(var: &impl Fn(&str) -> Option<String>, host_address: impl Fn() -> Option<std::net::IpAddr>) -> Result<Option<InstanceConfig>, ConfigError> {
        let (url, secret) = match (var("BACKOFFICE_INSTANCE_URL"), var("BACKOFFICE_INSTANCE_SECRET")) {
            (None, None) => return Ok(None),
            (Some(_), None) => {
                return Err(ConfigError(
                    "BACKOFFICE_INSTANCE_URL is set without BACKOFFICE_INSTANCE_SECRET: every gateway instance needs the same secret of at least 32 random characters (e.g. `openssl rand -hex 32`, from Secrets Manager)".into(),
                ))
            }
            (None, Some(_)) => {
                return Err(ConfigError("BACKOFFICE_INSTANCE_SECRET is set without BACKOFFICE_INSTANCE_URL: set the address the other instances reach this one at (e.g. http://{ip}:9997)".into()))
            }
            (Some(url), Some(secret)) => (url, secret),
        };
        if secret.len() < MIN_SECRET_BYTES {
            return Err(ConfigError(format!("BACKOFFICE_INSTANCE_SECRET is too short: use at least {MIN_SECRET_BYTES} random characters")));
        }
        if !looks_random(&secret) {
            return Err(ConfigError(format!(
                "BACKOFFICE_INSTANCE_SECRET has too little entropy (about {:.0} bits, at least {MIN_SECRET_BITS} needed): use a random value, e.g. `openssl rand -hex 32`",
                entropy_bits(&secret)
            )));
        }
        let bad = || ConfigError(format!("BACKOFFICE_INSTANCE_URL must be http://HOST:PORT (an IP address, or {{ip}} for this host's own), not '{url}'"));
        let rest = url.strip_prefix("http://").ok_or_else(bad)?;
        let (host, port) = rest.trim_end_matches('/').rsplit_once(':').ok_or_else(bad)?;
        let port: u16 = port.parse().ok().filter(|p| *p > 0).ok_or_else(bad)?;
        let ip: std::net::IpAddr = if host == "{ip}" {
            host_address().ok_or_else(|| ConfigError("BACKOFFICE_INSTANCE_URL names {ip}, but this host's address could not be found: give the address itself".into()))?
        } else {
            host.trim_start_matches('[').trim_end_matches(']').parse().map_err(|_| bad())?
        };
        if ip.is_unspecified() {
            return Err(bad());
        }
        let listen = std::net::SocketAddr::new(ip, port);
        Ok(Some(InstanceConfig { id: uuid::Uuid::now_v7().simple().to_string(), url: format!("http://{listen}"), listen, secret }))
    }
}

/// This host's address on its default route (the one a container's task
/// network interface has): no packet is sent, the socket is only routed.
fn default_route_address() -> Option<std::net::IpAddr> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    socket.local_addr().ok().map(|a| a.ip()).filter(|ip| !ip.is_unspecified())
}

/// Where the charging stations' CA comes from, and the profile of the
/// certificates it issues.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargerCaConfig {
    pub source: CaSource,
    /// More CA certificates (PEM) whose charger certificates are trusted at
    /// the handshake (security profile 3), e.g. a manufacturer's; the
    /// product never signs with them.
    pub trusted_cas: Option<PathBuf>,
    /// How long an issued charger certificate is valid.
    pub cert_days: u32,
    /// A certificate that ends within this many days is flagged.
    pub warn_days: u32,
}

/// The CA's certificate and key.
#[derive(Clone, PartialEq, Eq)]
pub enum CaSource {
    /// Generated at first use into the data dir (the embedded store only:
    /// one machine, the key beside the database).
    DataDir,
    /// The operator's CA: PEM files of the certificate and its key.
    Files { cert: PathBuf, key: PathBuf },
    /// The certificate and key in one PEM text (a secret: on AWS it comes
    /// from Secrets Manager through `BACKOFFICE_CHARGER_CA_SECRET_ID`).
    Pem(String),
}

impl std::fmt::Debug for CaSource {
    // The PEM text holds the key: never printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CaSource::DataDir => f.write_str("DataDir"),
            CaSource::Files { cert, key } => f.debug_struct("Files").field("cert", cert).field("key", key).finish(),
            CaSource::Pem(_) => f.write_str("Pem(***)"),
        }
    }
}

/// Issued charger certificates' validity, days (default and bounds).
pub const CHARGER_CERT_DAYS: (u32, u32, u32) = (365, 1, 3650);
/// The expiry warning, days before the end (default and bounds).
pub const CHARGER_CERT_WARN_DAYS: (u32, u32, u32) = (30, 1, 365);

impl ChargerCaConfig {
    fn from_lookup(var: &impl Fn(&str) -> Option<String>) -> Result<ChargerCaConfig, ConfigError> {
        let source = match (var("BACKOFFICE_CHARGER_CA_CERT"), var("BACKOFFICE_CHARGER_CA_KEY"), var("BACKOFFICE_CHARGER_CA")) {
            (None, None, None) => CaSource::DataDir,
            (Some(cert), Some(key), None) => CaSource::Files { cert: cert.into(), key: key.into() },
            (None, None, Some(pem)) => CaSource::Pem(pem),
            (_, _, Some(_)) => {
                return Err(ConfigError("BACKOFFICE_CHARGER_CA is set with BACKOFFICE_CHARGER_CA_CERT/KEY: give the CA once, as the PEM text or as the two files".into()))
            }
            (Some(_), None, None) => return Err(ConfigError("BACKOFFICE_CHARGER_CA_CERT is set without BACKOFFICE_CHARGER_CA_KEY: give the CA's certificate and key (PEM files), or neither".into())),
            (None, Some(_), None) => return Err(ConfigError("BACKOFFICE_CHARGER_CA_KEY is set without BACKOFFICE_CHARGER_CA_CERT: give the CA's certificate and key (PEM files), or neither".into())),
        };
        let days = |name: &str, (default, min, max): (u32, u32, u32)| match var(name) {
            None => Ok(default),
            Some(v) => v
                .parse::<u32>()
                .ok()
                .filter(|d| (min..=max).contains(d))
                .ok_or_else(|| ConfigError(format!("{name} must be a number of days from {min} to {max}, not '{v}'"))),
        };
        Ok(ChargerCaConfig {
            source,
            trusted_cas: var("BACKOFFICE_CHARGER_TRUSTED_CAS").map(PathBuf::from),
            cert_days: days("BACKOFFICE_CHARGER_CERT_DAYS", CHARGER_CERT_DAYS)?,
            warn_days: days("BACKOFFICE_CHARGER_CERT_WARN_DAYS", CHARGER_CERT_WARN_DAYS)?,
        })
    }
}

/// A configuration problem, phrased as what to fix.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

const MIN_SECRET_BYTES: usize = 32;

/// The least estimated entropy of a configured signing secret.
pub const MIN_SECRET_BITS: f64 = 128.0;

/// An estimate of a secret's entropy in bits: its length times the
/// Shannon entropy of its characters' frequencies. A random hex or base64
/// value of 32+ characters is far above [`MIN_SECRET_BITS`]; 42 times `a`
/// is 0, a word typed over and over is low.
pub fn entropy_bits(secret: &str) -> f64 {
    let chars: Vec<char> = secret.chars().collect();
    let n = chars.len() as f64;
    let mut counts = std::collections::HashMap::new();
    for c in &chars {
        *counts.entry(*c).or_insert(0usize) += 1;
    }
    let per_char: f64 = counts.values().map(|&k| k as f64 / n).map(|p| -p * p.log2()).sum();
    per_char * n
}

/// Whether a secret looks random enough to sign with: enough estimated
/// entropy, and not one shorter piece repeated (`abcdabcd...` has many
/// characters' worth of frequency entropy but is as guessable as `abcd`).
pub fn looks_random(secret: &str) -> bool {
    let chars: Vec<char> = secret.chars().collect();
    let repeated = (1..=chars.len() / 2).any(|unit| chars.len() % unit == 0 && chars.chunks(unit).all(|c| c == &chars[..unit]));
    !repeated && entropy_bits(secret) >= MIN_SECRET_BITS
}

/// The embedded store's file inside the data dir.
pub const SQLITE_FILE: &str = "backoffice.sqlite3";

/// The embedded store's file as configured, for the commands that work on
/// the file itself (backup, restore) and need nothing else of the
/// configuration (no secret).
pub fn sqlite_path_from_env() -> Result<PathBuf, ConfigError> {
    let var = |name: &str| std::env::var(name).ok().map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
    match var("BACKOFFICE_STORE").as_deref() {
        None | Some("sqlite") => Ok(PathBuf::from(var("BACKOFFICE_DATA_DIR").unwrap_or_else(|| "data".into())).join(SQLITE_FILE)),
        Some(other) => Err(ConfigError(format!(
            "BACKOFFICE_STORE is '{other}': backup and restore are for the embedded SQLite store (back DynamoDB up with point-in-time recovery)"
        ))),
    }
}

impl Config {
    /// Reads the configuration from the process environment.
    pub fn from_env() -> Result<Config, ConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads the configuration through `get` (tests pass a map).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let var = |name: &str| get(name).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        let mode = match var("BACKOFFICE_ENV").as_deref() {
            None | Some("development") | Some("dev") => Mode::Development,
            Some("production") | Some("prod") => Mode::Production,
            Some(other) => {
                return Err(ConfigError(format!(
                    "BACKOFFICE_ENV must be 'development' or 'production', not '{other}'"
                )))
            }
        };
        let data_dir = PathBuf::from(var("BACKOFFICE_DATA_DIR").unwrap_or_else(|| "data".into()));
        let store = match var("BACKOFFICE_STORE").as_deref() {
            None | Some("sqlite") => StoreConfig::Sqlite { path: data_dir.join(SQLITE_FILE) },
            Some("dynamo") | Some("dynamodb") => StoreConfig::Dynamo {
                table: var("BACKOFFICE_TABLE").unwrap_or_else(|| "backoffice".into()),
                endpoint: var("BACKOFFICE_DYNAMO_ENDPOINT"),
                region: var("AWS_REGION").or_else(|| var("AWS_DEFAULT_REGION")),
            },
            Some(other) => {
                return Err(ConfigError(format!("BACKOFFICE_STORE must be 'sqlite' or 'dynamo', not '{other}'")))
            }
        };
        let jwt_secret = match var("BACKOFFICE_JWT_SECRET") {
            Some(secret) if secret.len() < MIN_SECRET_BYTES => {
                return Err(ConfigError(format!(
                    "BACKOFFICE_JWT_SECRET is too short: use at least {MIN_SECRET_BYTES} random characters"
                )))
            }
            Some(secret) if !looks_random(&secret) => {
                return Err(ConfigError(format!(
                    "BACKOFFICE_JWT_SECRET has too little entropy (about {:.0} bits, at least {MIN_SECRET_BITS} needed: repeated or too few different characters): use a random value, e.g. `openssl rand -hex 32`",
                    entropy_bits(&secret)
                )))
            }
            Some(secret) => secret.into_bytes(),
            None if mode == Mode::Production => {
                return Err(ConfigError(
                    "BACKOFFICE_JWT_SECRET is not set: production needs a secret of at least 32 random characters (from Secrets Manager)".into(),
                ))
            }
            // Filled in by `load_or_create_dev_secret` once the data dir is known to be usable.
            None => Vec::new(),
        };
        let access_token_ttl_secs = seconds(&var, "BACKOFFICE_ACCESS_TOKEN_TTL", 900)?;
        let session_ttl_secs = seconds(&var, "BACKOFFICE_SESSION_TTL", 12 * 3600)?;
        if session_ttl_secs < access_token_ttl_secs {
            return Err(ConfigError(
                "BACKOFFICE_SESSION_TTL must not be shorter than BACKOFFICE_ACCESS_TOKEN_TTL".into(),
            ));
        }
        // The RSA sign-in payload mode (encrypted JSON bodies, off by default) was
        // removed: it was a padding oracle on a 1024-bit key with a crate
        // open to timing attacks, and could not share one key across Lambda
        // functions. TLS protects sign-in payloads; a setup still asking
        // for it learns why instead of silently getting plain payloads.
        if flag(&var, "BACKOFFICE_RSA", false)? {
            return Err(ConfigError(
                "BACKOFFICE_RSA=true is no longer supported: sign-in payloads are protected by TLS (see README, API conventions); remove the setting".into(),
            ));
        }
        let allow_register = flag(&var, "BACKOFFICE_ALLOW_REGISTER", mode == Mode::Development)?;
        let oauth = match var("BACKOFFICE_OAUTH_TOKEN_URL") {
            None => None,
            Some(token_url) => {
                let need = |name: &str| {
                    var(name).ok_or_else(|| {
                        ConfigError(format!("{name} is not set: social login needs it when BACKOFFICE_OAUTH_TOKEN_URL is set"))
                    })
                };
                Some(OAuthProvider {
                    name: var("BACKOFFICE_OAUTH_NAME").unwrap_or_else(|| "oidc".into()),
                    authorize_url: need("BACKOFFICE_OAUTH_AUTHORIZE_URL")?,
                    token_url,
                    userinfo_url: need("BACKOFFICE_OAUTH_USERINFO_URL")?,
                    client_id: need("BACKOFFICE_OAUTH_CLIENT_ID")?,
                    client_secret: need("BACKOFFICE_OAUTH_CLIENT_SECRET")?,
                    redirect_uri: need("BACKOFFICE_OAUTH_REDIRECT_URI")?,
                })
            }
        };
        let origin_verify_secret = match var("BACKOFFICE_ORIGIN_VERIFY_SECRET") {
            Some(secret) if secret.len() < MIN_SECRET_BYTES => {
                return Err(ConfigError(format!(
                    "BACKOFFICE_ORIGIN_VERIFY_SECRET is too short: use at least {MIN_SECRET_BYTES} random characters"
                )))
            }
            other => other,
        };
        let ocpp_log_days = match var("BACKOFFICE_OCPP_LOG_DAYS") {
            None => 7,
            Some(v) => match v.parse::<i64>() {
                Ok(d @ 1..=90) => d,
                _ => return Err(ConfigError(format!("BACKOFFICE_OCPP_LOG_DAYS must be a number of days from 1 to 90, not '{v}'"))),
            },
        };
        let port = |name: &str| match var(name) {
            None => Ok(None),
            Some(v) => match v.parse::<u16>() {
                Ok(p) if p > 0 => Ok(Some(p)),
                _ => Err(ConfigError(format!("{name} must be a TCP port (1-65535), not '{v}'"))),
            },
        };
        let (ykc_port, ykc_tls_port) = (port("BACKOFFICE_YKC_PORT")?, port("BACKOFFICE_YKC_TLS_PORT")?);
        // The template's demo pages: on with demo data (a development
        // start, or BACKOFFICE_DEMO_DATA=1), off in production unless asked.
        let with_demo_data = crate::seed::demo_data_wanted(&|name| get(name), mode).map_err(ConfigError)?;
        let demo_pages = flag(&var, "BACKOFFICE_DEMO_PAGES", with_demo_data)?;
        let licence_key = match var("BACKOFFICE_LICENCE_KEY") {
            Some(k) if k.len() < crate::licence::MIN_KEY => {
                return Err(ConfigError(format!("BACKOFFICE_LICENCE_KEY is too short: use at least {} random characters", crate::licence::MIN_KEY)))
            }
            other => other,
        };
        let licence = match var("BACKOFFICE_ALLOWED_HOSTS") {
            Some(list) => Some(crate::licence::LicenceGuard::new(crate::licence::parse_hosts(&list).map_err(ConfigError)?, licence_key)),
            None if licence_key.is_some() => {
                return Err(ConfigError("BACKOFFICE_LICENCE_KEY is set without BACKOFFICE_ALLOWED_HOSTS: the key unlocks hosts outside that list, so name the allowed hosts too".into()))
            }
            None => None,
        };
        let charger_ca = ChargerCaConfig::from_lookup(&var)?;
        let instance = InstanceConfig::from_lookup(&var, default_route_address)?;
        Ok(Config {
            mode,
            data_dir,
            store,
            jwt_secret,
            access_token_ttl_secs,
            session_ttl_secs,
            allow_register,
            oauth,
            origin_verify_secret,
            ocpp_log_days,
            ykc_port,
            ykc_tls_port,
            demo_pages,
            licence,
            charger_ca,
            instance,
        })
    }

    /// In development without a configured secret, uses a random secret kept
    /// in the data dir so tokens survive a restart. Never used in production.
    pub fn load_or_create_dev_secret(&mut self) -> Result<(), ConfigError> {
        if !self.jwt_secret.is_empty() {
            return Ok(());
        }
        let path = self.data_dir.join("dev-jwt-secret");
        if let Ok(existing) = std::fs::read(&path) {
            if existing.len() >= MIN_SECRET_BYTES {
                self.jwt_secret = existing;
                return Ok(());
            }
        }
        use rand::RngCore;
        let mut raw = [0u8; 48];
        rand::thread_rng().fill_bytes(&mut raw);
        let secret = base64::Engine::encode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, raw);
        write_private_file(&path, secret.as_bytes()).map_err(|e| {
            ConfigError(format!("cannot write {}: {e}; make the data dir writable or set BACKOFFICE_DATA_DIR", path.display()))
        })?;
        self.jwt_secret = secret.into_bytes();
        Ok(())
    }
}

/// Writes a file only the owner can read (secrets, first-run credentials).
pub fn write_private_file(path: &std::path::Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    file.write_all(contents)?;
    file.sync_all()
}

fn seconds(var: &impl Fn(&str) -> Option<String>, name: &str, default: i64) -> Result<i64, ConfigError> {
    match var(name) {
        None => Ok(default),
        Some(v) => v
            .parse::<i64>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| ConfigError(format!("{name} must be a positive number of seconds, not '{v}'"))),
    }
}

fn flag(var: &impl Fn(&str) -> Option<String>, name: &str, default: bool) -> Result<bool, ConfigError> {
    match var(name).as_deref() {
        None => Ok(default),
        Some("1" | "true" | "on" | "yes") => Ok(true),
        Some("0" | "false" | "off" | "no") => Ok(false),
        Some(other) => Err(ConfigError(format!("{name} must be true or false, not '{other}'"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn config(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Config::from_lookup(|k| map.get(k).cloned())
    }

    #[test]
    fn development_defaults_need_no_configuration() {
        let c = config(&[]).unwrap();
        assert_eq!(c.mode, Mode::Development);
        assert_eq!(c.access_token_ttl_secs, 900);
        assert!(matches!(c.store, StoreConfig::Sqlite { .. }));
    }

    #[test]
    fn production_without_secret_stops_with_what_to_fix() {
        let err = config(&[("BACKOFFICE_ENV", "production")]).unwrap_err();
        assert!(err.0.contains("BACKOFFICE_JWT_SECRET is not set"), "{err}");
        let err = config(&[("BACKOFFICE_ENV", "production"), ("BACKOFFICE_JWT_SECRET", "short")]).unwrap_err();
        assert!(err.0.contains("too short"), "{err}");
        let ok = config(&[("BACKOFFICE_ENV", "production"), ("BACKOFFICE_JWT_SECRET", "9f2c4e7a1b8d3f6e0c5a9b2d7e4f1a8c3b6d9e2f")]).unwrap();
        assert!(!ok.allow_register, "production does not open registration by default");
    }

    #[test]
    fn a_signing_secret_with_little_entropy_is_refused_with_what_to_fix() {
        for weak in ["a".repeat(42), "ab".repeat(21), "passwordpasswordpasswordpassword".into(), "0123456789abcdef".repeat(3), "secretsecretsecretsecretsecret123".into()] {
            for mode in ["development", "production"] {
                let err = config(&[("BACKOFFICE_ENV", mode), ("BACKOFFICE_JWT_SECRET", &weak)]).unwrap_err();
                assert!(err.0.starts_with("BACKOFFICE_JWT_SECRET has too little entropy") && err.0.contains("openssl rand -hex 32"), "{weak}: {err}");
                assert_eq!(err.0.lines().count(), 1);
            }
        }
        // Random values of every usual form pass: hex, base64, a long phrase of varied words.
        for strong in ["9f2c4e7a1b8d3f6e0c5a9b2d7e4f1a8c3b6d9e2f", "Jq7vXc2LmN8pRt4WzY6bKd0HfG3sAe5Uo9Ii1Ty-_QwE", "test-secret-that-is-long-enough-0123456789"] {
            assert!(config(&[("BACKOFFICE_ENV", "production"), ("BACKOFFICE_JWT_SECRET", strong)]).is_ok(), "{strong}: {} bits", entropy_bits(strong));
        }
        assert_eq!(entropy_bits(&"a".repeat(42)), 0.0);
    }

    #[test]
    fn bad_values_are_named() {
        assert!(config(&[("BACKOFFICE_ACCESS_TOKEN_TTL", "soon")]).unwrap_err().0.contains("BACKOFFICE_ACCESS_TOKEN_TTL"));
        assert!(config(&[("BACKOFFICE_STORE", "mongo")]).unwrap_err().0.contains("BACKOFFICE_STORE"));
        assert!(config(&[("BACKOFFICE_RSA", "maybe")]).unwrap_err().0.contains("BACKOFFICE_RSA"));
        assert!(config(&[("BACKOFFICE_OAUTH_TOKEN_URL", "http://127.0.0.1:1/token")])
            .unwrap_err()
            .0
            .contains("BACKOFFICE_OAUTH_AUTHORIZE_URL"));
        assert!(config(&[("BACKOFFICE_ORIGIN_VERIFY_SECRET", "short")]).unwrap_err().0.contains("BACKOFFICE_ORIGIN_VERIFY_SECRET is too short"));
        let long = "o".repeat(48);
        assert_eq!(config(&[("BACKOFFICE_ORIGIN_VERIFY_SECRET", &long)]).unwrap().origin_verify_secret.as_deref(), Some(long.as_str()));
        assert_eq!(config(&[]).unwrap().origin_verify_secret, None);
    }

    #[test]
    fn the_charger_ca_is_given_once_or_generated() {
        let c = config(&[]).unwrap().charger_ca;
        assert_eq!((c.source, c.cert_days, c.warn_days), (CaSource::DataDir, 365, 30));
        let files = config(&[("BACKOFFICE_CHARGER_CA_CERT", "ca.pem"), ("BACKOFFICE_CHARGER_CA_KEY", "ca-key.pem")]).unwrap().charger_ca.source;
        assert_eq!(files, CaSource::Files { cert: "ca.pem".into(), key: "ca-key.pem".into() });
        assert!(config(&[("BACKOFFICE_CHARGER_CA_CERT", "ca.pem")]).unwrap_err().0.contains("without BACKOFFICE_CHARGER_CA_KEY"));
        assert!(config(&[("BACKOFFICE_CHARGER_CA", "pem"), ("BACKOFFICE_CHARGER_CA_KEY", "k")]).unwrap_err().0.contains("give the CA once"));
        let pem = config(&[("BACKOFFICE_CHARGER_CA", "-----BEGIN PRIVATE KEY-----")]).unwrap().charger_ca.source;
        assert_eq!(format!("{pem:?}"), "Pem(***)", "the key is never printed");
        for (name, bad) in [("BACKOFFICE_CHARGER_CERT_DAYS", "0"), ("BACKOFFICE_CHARGER_CERT_DAYS", "a year"), ("BACKOFFICE_CHARGER_CERT_WARN_DAYS", "400")] {
            let err = config(&[(name, bad)]).unwrap_err().0;
            assert!(err.starts_with(name) && err.contains(bad), "{err}");
        }
    }
    #[test]
    fn a_gateway_instance_needs_its_address_and_a_random_shared_secret() {
        assert_eq!(config(&[]).unwrap().instance, None);
        let secret = "9f2c4e7a1b8d3f6e0c5a9b2d7e4f1a8c3b6d9e2f";
        let c = config(&[("BACKOFFICE_INSTANCE_URL", "http://10.0.1.7:9997"), ("BACKOFFICE_INSTANCE_SECRET", secret)]).unwrap().instance.unwrap();
        assert_eq!((c.url.as_str(), c.listen.to_string().as_str(), c.id.len()), ("http://10.0.1.7:9997", "10.0.1.7:9997", 32));
        assert!(!format!("{c:?}").contains(secret), "the secret is never printed");
        let err = |vars: &[(&str, &str)]| config(vars).unwrap_err().0;
        assert!(err(&[("BACKOFFICE_INSTANCE_URL", "http://10.0.1.7:9997")]).contains("without BACKOFFICE_INSTANCE_SECRET"));
        assert!(err(&[("BACKOFFICE_INSTANCE_SECRET", secret)]).contains("without BACKOFFICE_INSTANCE_URL"));
        assert!(err(&[("BACKOFFICE_INSTANCE_URL", "http://10.0.1.7:9997"), ("BACKOFFICE_INSTANCE_SECRET", "short")]).contains("too short"));
        assert!(err(&[("BACKOFFICE_INSTANCE_URL", "http://10.0.1.7:9997"), ("BACKOFFICE_INSTANCE_SECRET", &"ab".repeat(20))]).contains("too little entropy"));
        for bad in ["10.0.1.7:9997", "https://10.0.1.7:9997", "http://10.0.1.7", "http://gateway.internal:9997", "http://0.0.0.0:9997"] {
            assert!(err(&[("BACKOFFICE_INSTANCE_URL", bad), ("BACKOFFICE_INSTANCE_SECRET", secret)]).starts_with("BACKOFFICE_INSTANCE_URL must be"), "{bad}");
        }
        let var = |name: &str| match name {
            "BACKOFFICE_INSTANCE_URL" => Some("http://{ip}:9997".to_string()),
            "BACKOFFICE_INSTANCE_SECRET" => Some(secret.to_string()),
            _ => None,
        };
        let found = InstanceConfig::from_lookup(&var, || Some([10, 0, 2, 9].into())).unwrap().unwrap();
        assert_eq!(found.url, "http://10.0.2.9:9997");
        assert!(InstanceConfig::from_lookup(&var, || None).unwrap_err().0.contains("could not be found"));
    }
}
