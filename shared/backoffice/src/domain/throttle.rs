//! Login throttling: failed sign-ins are counted per account and per client
//! address in a fixed window; past the limit the subject is locked for a
//! while. Counting is a conditional update, so parallel attempts cannot
//! slip past the limit by racing.

use auth::{ThrottleDecision, ThrottlePolicy};
use envelope::{ApiError, Text};
use serde::{Deserialize, Serialize};
use store::{Condition, UpdateAction};

use super::{keys, StoreResultExt};
use crate::ctx::AppCtx;

/// What is being throttled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    Account,
    Client,
}

impl Subject {
    fn kind(self) -> &'static str {
        match self {
            Subject::Account => "ACCOUNT",
            Subject::Client => "CLIENT",
        }
    }
    pub fn policy(self) -> ThrottlePolicy {
        match self {
            Subject::Account => ThrottlePolicy::per_account(),
            Subject::Client => ThrottlePolicy::per_client(),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Counter {
    #[serde(default)]
    failures: u32,
    #[serde(default)]
    window_start: i64,
}

async fn counter(ctx: &AppCtx, subject: Subject, id: &str) -> Result<Option<Counter>, ApiError> {
    let item = ctx.store.get(&keys::throttle(subject.kind(), id)).await.api()?;
    Ok(item.and_then(|i| serde_json::from_value(serde_json::Value::Object(i)).ok()))
}

/// Refuses with 429 while the subject is locked.
pub async fn check(ctx: &AppCtx, subject: Subject, id: &str) -> Result<(), ApiError> {
    let Some(c) = counter(ctx, subject, id).await? else { return Ok(()) };
    match subject.policy().evaluate(c.failures, c.window_start, ctx.now()) {
        ThrottleDecision::Allowed => Ok(()),
        ThrottleDecision::Locked { retry_after_secs } => Err(locked(retry_after_secs)),
    }
}

fn locked(retry_after_secs: i64) -> ApiError {
    let minutes = (retry_after_secs + 59) / 60;
    ApiError::too_many_requests(Text::new(
        format!("too many failed sign-in attempts: try again in {minutes} minute(s)"),
        format!("登录失败次数过多，请 {minutes} 分钟后再试"),
    ))
}

/// Counts one failed attempt.
pub async fn record_failure(ctx: &AppCtx, subject: Subject, id: &str) -> Result<(), ApiError> {
    let key = keys::throttle(subject.kind(), id);
    let now = ctx.now();
    let policy = subject.policy();
    for _ in 0..3 {
        let current = counter(ctx, subject, id).await?;
        let result = match current {
            Some(c) if now - c.window_start < policy.window_secs => {
                ctx.store
                    .update(
                        &key,
                        vec![UpdateAction::Add("failures".into(), 1)],
                        Some(Condition::Eq("windowStart".into(), c.window_start.into())),
                    )
                    .await
            }
            previous => {
                // A new window starts; the condition makes two racing
                // resets count as one window, not lose a failure silently.
                let condition = match previous {
                    Some(c) => Condition::Eq("windowStart".into(), c.window_start.into()),
                    None => Condition::item_absent(),
                };
                ctx.store
                    .update(
                        &key,
                        vec![
                            UpdateAction::Set("failures".into(), 1.into()),
                            UpdateAction::Set("windowStart".into(), now.into()),
                            UpdateAction::Set("ttl".into(), (now + policy.window_secs + policy.lockout_secs).into()),
                        ],
                        Some(condition),
                    )
                    .await
            }
        };
        match result {
            Ok(_) => return Ok(()),
            Err(store::StoreError::ConditionFailed) => continue,
            Err(e) => return Err(super::store_error(e)),
        }
    }
    Ok(())
}

/// Forgets the failures of an account after a successful sign-in.
pub async fn clear(ctx: &AppCtx, subject: Subject, id: &str) -> Result<(), ApiError> {
    ctx.store.delete(&keys::throttle(subject.kind(), id), None).await.api()?;
    Ok(())
}
