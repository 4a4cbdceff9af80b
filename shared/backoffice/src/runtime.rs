//! Building a ready context from configuration: open the store (and create
//! the SQLite file or the emulator table when needed), then the keys.

use std::sync::Arc;

use store::Table;

use crate::config::{Config, ConfigError, Mode, StoreConfig};
use crate::ctx::AppCtx;

/// Opens the configured store.
pub async fn open_store(config: &Config) -> Result<Arc<dyn Table>, ConfigError> {
    match &config.store {
        #[cfg(not(feature = "sqlite"))]
        StoreConfig::Sqlite { .. } => Err(ConfigError(
            "BACKOFFICE_STORE is sqlite (the default), but this build has no SQLite store (the Lambda functions read DynamoDB): set BACKOFFICE_STORE=dynamo".into(),
        )),
        #[cfg(feature = "sqlite")]
        StoreConfig::Sqlite { path } => {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| {
                    ConfigError(format!(
                        "cannot create the data dir {}: {e}; set BACKOFFICE_DATA_DIR to a writable directory",
                        dir.display()
                    ))
                })?;
            }
            let table = store::sqlite::SqliteTable::open(path).map_err(|e| {
                ConfigError(format!(
                    "cannot open the database {}: {e}; set BACKOFFICE_DATA_DIR to a writable directory",
                    path.display()
                ))
            })?;
            Ok(Arc::new(table))
        }
        StoreConfig::Dynamo { table, endpoint, region } => {
            let dynamo = store::dynamo::DynamoTable::connect(table, endpoint.as_deref(), region.as_deref()).await;
            // In AWS the table comes from the template; locally (an emulator
            // endpoint) we create it so a developer needs no extra step.
            if endpoint.is_some() && config.mode == Mode::Development {
                dynamo.create_table_if_missing().await.map_err(|e| {
                    ConfigError(format!("cannot create the table {table} at the DynamoDB endpoint: {e}"))
                })?;
            }
            Ok(Arc::new(dynamo))
        }
    }
}

/// Configuration from the environment, the store, and the context around it.
/// On Lambda the secrets come from Secrets Manager (`crate::secrets`), read
/// here once for the life of the process.
pub async fn context_from_env() -> Result<Arc<AppCtx>, ConfigError> {
    context_from(|name: &str| std::env::var(name).ok()).await
}

/// The context of a function that issues and verifies no tokens (the
/// charger link's): it is given no JWT secret, so it makes a random one of
/// its own, in memory only; nothing it could sign is accepted anywhere.
pub async fn context_without_tokens_from_env() -> Result<Arc<AppCtx>, ConfigError> {
    context_from(without_tokens(|name: &str| std::env::var(name).ok())).await
}

fn without_tokens(env: impl Fn(&str) -> Option<String> + Clone) -> impl Fn(&str) -> Option<String> + Clone {
    use rand::Rng;
    let own: String = (0..32).map(|_| format!("{:02x}", rand::thread_rng().gen::<u8>())).collect();
    move |name: &str| match name {
        "BACKOFFICE_JWT_SECRET" | "BACKOFFICE_JWT_SECRET_ID" => (name == "BACKOFFICE_JWT_SECRET").then(|| own.clone()),
        _ => env(name),
    }
}

async fn context_from(env: impl Fn(&str) -> Option<String> + Clone) -> Result<Arc<AppCtx>, ConfigError> {
    let secrets = crate::secrets::resolve(env.clone()).await?;
    let mut config = Config::from_lookup(|name| secrets.get(name).cloned().or_else(|| env(name)))?;
    if matches!(config.store, StoreConfig::Sqlite { .. }) || config.mode == Mode::Development {
        std::fs::create_dir_all(&config.data_dir).map_err(|e| {
            ConfigError(format!(
                "cannot create the data dir {}: {e}; set BACKOFFICE_DATA_DIR to a writable directory",
                config.data_dir.display()
            ))
        })?;
    }
    if config.mode == Mode::Development {
        config.load_or_create_dev_secret()?;
    }
    let store = open_store(&config).await?;
    AppCtx::new(store, config)
}

/// Logs as JSON lines in Lambda (CloudWatch) and, when asked
/// (`BACKOFFICE_LOG_FORMAT=json`), on the gateway; as text otherwise.
pub fn init_tracing(json: bool) {
    let filter = tracing_subscriber_filter();
    // Colour codes only for a person at a terminal, not in a log file.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stdout());
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_target(false).with_ansi(ansi);
    let _ = if json { builder.json().try_init() } else { builder.try_init() };
}

fn tracing_subscriber_filter() -> tracing_subscriber::EnvFilter {
    tracing_subscriber::EnvFilter::try_from_env("BACKOFFICE_LOG").unwrap_or_else(|_| "info".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_function_without_tokens_starts_in_production_with_no_jwt_secret_given() {
        let dir = std::env::temp_dir().join(format!("backoffice-runtime-{}", uuid::Uuid::new_v4().simple()));
        let data = dir.to_string_lossy().to_string();
        let env = move |name: &str| match name {
            "BACKOFFICE_ENV" => Some("production".to_string()),
            "BACKOFFICE_DATA_DIR" => Some(data.clone()),
            // Given by mistake: it is not read (no Secrets Manager call for it).
            "BACKOFFICE_JWT_SECRET_ID" => Some("backoffice/jwt".to_string()),
            _ => None,
        };
        let without_id = {
            let env = env.clone();
            move |name: &str| if name == "BACKOFFICE_JWT_SECRET_ID" { None } else { env(name) }
        };
        let refused = context_from(without_id).await.err().map(|e| e.0);
        assert!(refused.as_deref().is_some_and(|e| e.contains("BACKOFFICE_JWT_SECRET is not set")), "{refused:?}");
        let a = context_from(without_tokens(env.clone())).await.expect("starts without the secret");
        let b = context_from(without_tokens(env)).await.expect("starts without the secret");
        assert!(a.config.jwt_secret.len() >= 32);
        assert_ne!(a.config.jwt_secret, b.config.jwt_secret, "a key of its own, shared with nothing");
        let _ = std::fs::remove_dir_all(dir);
    }
}
