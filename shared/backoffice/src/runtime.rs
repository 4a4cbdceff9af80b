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
    let env = |name: &str| std::env::var(name).ok();
    let secrets = crate::secrets::resolve(env).await?;
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
