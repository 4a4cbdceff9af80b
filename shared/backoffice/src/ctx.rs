//! What every handler gets: the store, the configuration, the token keys
//! and a clock. Built once per process (in `main` of a Lambda bin or of the
//! local gateway), never per request.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use auth::TokenKeys;
use store::Table;

use crate::config::Config;
use crate::domain::operations::OperationsCache;
use crate::domain::roles::RoleCache;

/// Seconds since the Unix epoch; tests may stop it and move it forward.
#[derive(Debug, Default, Clone)]
pub struct Clock {
    offset_secs: Arc<AtomicI64>,
    /// When non-zero, the time the clock stands at (before the offset).
    frozen_at: Arc<AtomicI64>,
}

impl Clock {
    pub fn now(&self) -> i64 {
        let base = match self.frozen_at.load(Ordering::Relaxed) {
            0 => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs() as i64)
                .unwrap_or(0),
            frozen => frozen,
        };
        base + self.offset_secs.load(Ordering::Relaxed)
    }
    /// Stops this clock (and its clones) at the current second, so a test
    /// of an exact boundary cannot be moved by real time passing; only
    /// `advance` moves it then.
    pub fn freeze(&self) {
        let real_now = self.now() - self.offset_secs.load(Ordering::Relaxed);
        self.frozen_at.store(real_now, Ordering::Relaxed);
    }
    /// Moves this clock (and its clones) forward; for tests of expiry.
    pub fn advance(&self, secs: i64) {
        self.offset_secs.fetch_add(secs, Ordering::Relaxed);
    }
}

pub struct AppCtx {
    pub store: Arc<dyn Table>,
    pub config: Config,
    pub keys: TokenKeys,
    /// Signs the device tokens of the sign-in throttle (`auth::device`).
    pub device_key: auth::DeviceKey,
    pub clock: Clock,
    pub roles: RoleCache,
    /// The operations settings (offline window, stuck limit), read briefly cached.
    pub operations: OperationsCache,
    /// For the OAuth code exchange: built at its first use (a function's
    /// start-up does not load the system's root certificates for a call it
    /// may never make), then kept, so TLS setup is not per request.
    http: std::sync::OnceLock<reqwest::Client>,
    /// How remote operations reach chargers: installed once by the process
    /// that has the sockets (the local gateway) or the `@connections`
    /// client (a Lambda function); unset, commands to a charger end offline.
    pub outbound: std::sync::OnceLock<Arc<dyn crate::domain::chargers::outbound::Outbound>>,
    /// Where chargers connect (the local gateway with or without its own
    /// TLS, or API Gateway on AWS): set once at start-up; unset, a local
    /// gateway without TLS.
    pub charger_edge: std::sync::OnceLock<crate::domain::chargers::Edge>,
    /// The charging stations' certificate authority, loaded at first use.
    #[cfg(feature = "charger-ca")]
    pub charger_ca: crate::domain::chargers::ca::CaCell,
}

impl AppCtx {
    /// Builds the context around an opened store.
    pub fn new(store: Arc<dyn Table>, config: Config) -> Result<Arc<AppCtx>, crate::config::ConfigError> {
        let keys = TokenKeys::new(&config.jwt_secret)
            .map_err(|e| crate::config::ConfigError(format!("BACKOFFICE_JWT_SECRET is unusable: {e}")))?;
        let device_key = auth::DeviceKey::derive(&config.jwt_secret);
        Ok(Arc::new(AppCtx {
            store,
            config,
            keys,
            device_key,
            clock: Clock::default(),
            roles: RoleCache::default(),
            operations: OperationsCache::default(),
            http: std::sync::OnceLock::new(),
            outbound: std::sync::OnceLock::new(),
            charger_edge: std::sync::OnceLock::new(),
            #[cfg(feature = "charger-ca")]
            charger_ca: Default::default(),
        }))
    }

    /// The HTTP client of the OAuth code exchange (see the field).
    pub fn http(&self) -> Result<&reqwest::Client, String> {
        if let Some(client) = self.http.get() {
            return Ok(client);
        }
        let client = crate::http_client::builder()
            .timeout(std::time::Duration::from_secs(10))
            .build()
            .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
        Ok(self.http.get_or_init(|| client))
    }

    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    /// Where chargers connect (see the field).
    pub fn charger_edge(&self) -> crate::domain::chargers::Edge {
        self.charger_edge.get().copied().unwrap_or_default()
    }
}
