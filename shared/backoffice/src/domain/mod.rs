//! The product's records and the rules on them. Handlers call these; they
//! talk to the store port only.

pub mod assets;
pub mod audit;
pub mod cards;
pub mod chargers;
pub mod demo;
pub mod departments;
pub mod keys;
pub mod menu_edit;
pub mod menus;
pub mod merged;
pub mod notices;
pub mod oauth;
pub mod operations;
pub mod orders;
pub mod privilege;
pub mod roles;
pub mod search;
pub mod sessions;
pub mod staff;
pub mod throttle;
pub mod users;
pub mod workflow;

use envelope::{msg, ApiError};
use store::StoreError;

/// Maps a store failure to the answer a user gets. Conflicts are 409 with
/// a message that says to reload; an unavailable store is 503; details go
/// to the log only.
pub fn store_error(err: StoreError) -> ApiError {
    match err {
        StoreError::ConditionFailed | StoreError::TransactionCanceled { .. } => ApiError::standard(409),
        StoreError::Invalid(detail) => {
            tracing::warn!(%detail, "invalid store request");
            ApiError::bad_request(msg::request::store_invalid(&detail))
        }
        StoreError::Unavailable(detail) => {
            tracing::error!(%detail, "store unavailable");
            ApiError::unavailable()
        }
    }
}

/// `?`-friendly conversion of store results.
pub trait StoreResultExt<T> {
    fn api(self) -> Result<T, ApiError>;
}

impl<T> StoreResultExt<T> for Result<T, StoreError> {
    fn api(self) -> Result<T, ApiError> {
        self.map_err(store_error)
    }
}

/// Reads a typed record out of a stored item.
pub fn from_item<T: serde::de::DeserializeOwned>(item: store::Item) -> Result<T, ApiError> {
    serde_json::from_value(serde_json::Value::Object(item)).map_err(|e| {
        tracing::error!(error = %e, "stored item does not match its type");
        ApiError::internal()
    })
}

/// Turns a typed record into an item with its keys.
pub fn to_item<T: serde::Serialize>(record: &T, keys: &[(&str, String)]) -> store::Item {
    let mut item = match serde_json::to_value(record) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => store::Item::new(),
    };
    for (name, value) in keys {
        item.insert((*name).to_string(), serde_json::Value::String(value.clone()));
    }
    item
}

/// `YYYY-MM-DD HH:mm:ss` of a unix time on the operator's clock (China
/// Standard Time, the offset pricing uses), as the lists show times.
pub fn format_time(secs: i64) -> String {
    let offset = time::UtcOffset::from_whole_seconds(charging::pricing::CHINA_UTC_OFFSET_SECS).unwrap_or(time::UtcOffset::UTC);
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]:[second]");
    time::OffsetDateTime::from_unix_timestamp(secs)
        .map(|t| t.to_offset(offset))
        .ok()
        .and_then(|t| t.format(format).ok())
        .unwrap_or_default()
}
