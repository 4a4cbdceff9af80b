//! The system log: every write through the route table is recorded here
//! by the dispatch layer (who, what, target, result, address, time), so no
//! handler can forget it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{keys, to_item};
use crate::ctx::AppCtx;
use crate::request::ApiRequest;
use crate::routes::Route;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LogEntry {
    pub id: String,
    pub account: String,
    /// What was done: the route's summary.
    #[serde(rename = "type")]
    pub kind: String,
    pub path: String,
    /// The record acted on, when the request names one.
    pub target: String,
    /// `success` or the failure code and its meaning.
    pub execute_result: String,
    pub code: u16,
    pub ip: String,
    /// RFC 3339 time of the call.
    pub datetime: String,
    pub time: i64,
}

/// What the log needs from the request, taken before the handler consumes it.
pub struct Input {
    path: String,
    ip: String,
    /// The account a public call claims (login, register).
    claimed_account: Option<String>,
    target: String,
}

/// The request fields that name the record acted on, in order of preference.
const TARGET_FIELDS: [&str; 6] = ["id", "orderNo", "username", "name", "code", "title"];

impl Input {
    pub fn capture(req: &ApiRequest) -> Input {
        let body = req.body_value().unwrap_or(Value::Null);
        let field = |name: &str| body.get(name).and_then(scalar_text).filter(|s| !s.is_empty());
        let target = TARGET_FIELDS.iter().find_map(|f| field(f)).unwrap_or_default();
        Input {
            path: req.path.clone(),
            ip: req.client_ip.clone(),
            claimed_account: field("username"),
            target: truncate(&target, 120),
        }
    }
}

fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn truncate(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

/// Records one call. A failure to record is logged, not shown to the user:
/// the user's write has already happened.
pub async fn record(ctx: &AppCtx, route: &Route, input: Input, account: Option<&str>, code: u16) {
    let now = ctx.now();
    let account = account
        .map(str::to_string)
        .or(input.claimed_account)
        .map(|a| truncate(&a, 64))
        .unwrap_or_else(|| "anonymous".into());
    // Time-ordered (UUIDv7, monotonic within a process): entries of the same
    // second still list in the order they were written.
    let id = uuid::Uuid::now_v7().simple().to_string();
    let execute_result = if code == envelope::SUCCESS_CODE {
        "success".to_string()
    } else {
        format!("failure {code}: {}", envelope::standard_message(code).en)
    };
    let entry = LogEntry {
        id: id.clone(),
        account: account.clone(),
        kind: route.summary.to_string(),
        path: input.path,
        target: input.target,
        execute_result,
        code,
        ip: input.ip,
        datetime: time::OffsetDateTime::from_unix_timestamp(now)
            .ok()
            .and_then(|t| t.format(&time::format_description::well_known::Rfc3339).ok())
            .unwrap_or_default(),
        time: now,
    };
    let key = keys::log_entry(&id);
    let sort = format!("{}#{id}", keys::time_sort(now));
    let item = to_item(
        &entry,
        &[
            (store::PK, key.pk),
            (store::SK, key.sk),
            ("GSI1PK", keys::LOG_INDEX_PK.to_string()),
            ("GSI1SK", sort.clone()),
            ("GSI2PK", keys::log_account_index_pk(&account)),
            ("GSI2SK", sort),
        ],
    );
    if let Err(e) = ctx.store.put(item, None).await {
        tracing::error!(error = %e, function = route.function, "system log entry could not be written");
    }
}
