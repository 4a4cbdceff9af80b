//! Sign-in throttling. Every attempt is counted *before* the password is
//! checked, with a conditional write that lets at most the limit through,
//! so N parallel guesses cost at most the limit in password checks (the
//! rest are refused with 429 without hashing). Three counters:
//!
//! - per (account, address): 5 attempts in 15 minutes, then that pair is
//!   locked for 15 minutes. This is what stops one guesser at one account.
//! - per address: 20 attempts in 15 minutes, then the address is locked.
//! - per account from anywhere: no lock (a lock there would let anyone lock
//!   the owner out from elsewhere), but past 10 failures in the window each
//!   further attempt must wait a delay that doubles, up to a minute, so a
//!   guesser spread over many addresses gets ~1 guess a minute while the
//!   owner, from their own address, waits at most that minute.
//!
//! A right password gives its attempt back: the pair and account counters
//! are cleared and the address's count goes down by one.

use auth::ThrottlePolicy;
use envelope::{ApiError, Text};
use serde::{Deserialize, Serialize};
use store::{Condition, Key, UpdateAction};

use super::{keys, StoreResultExt};
use crate::ctx::AppCtx;

/// Per (account, address): the guessing limit.
pub const PAIR: ThrottlePolicy = ThrottlePolicy { max_failures: 5, window_secs: 15 * 60, lockout_secs: 15 * 60 };
/// Per address, all accounts.
pub const CLIENT: ThrottlePolicy = ThrottlePolicy { max_failures: 20, window_secs: 15 * 60, lockout_secs: 15 * 60 };
/// Per account, all addresses: failures before the delay starts, the window, the longest delay.
pub const ACCOUNT_FREE_FAILURES: i64 = 10;
pub const ACCOUNT_WINDOW_SECS: i64 = 15 * 60;
pub const ACCOUNT_MAX_DELAY_SECS: i64 = 60;

/// How often a lost race is retried before the attempt is refused (refusing
/// is the safe side: a busy counter never means an unchecked guess).
const RACE_RETRIES: usize = 8;

#[derive(Debug, Clone, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Counter {
    #[serde(default)]
    attempts: i64,
    #[serde(default)]
    window_start: i64,
    /// Locked (pair, address) or delayed (account) until then.
    #[serde(default)]
    not_before: i64,
}

fn pair_id(account: &str, address: &str) -> String {
    format!("{}@{address}", account.to_lowercase())
}

async fn read(ctx: &AppCtx, key: &Key) -> Result<Option<Counter>, ApiError> {
    let item = ctx.store.get(key).await.api()?;
    Ok(item.and_then(|i| serde_json::from_value(serde_json::Value::Object(i)).ok()))
}

fn refused(retry_after_secs: i64) -> ApiError {
    let minutes = (retry_after_secs.max(1) + 59) / 60;
    ApiError::too_many_requests(Text::new(
        format!("too many failed sign-in attempts: try again in {minutes} minute(s)"),
        format!("登录失败次数过多，请 {minutes} 分钟后再试"),
    ))
}

/// The expiry attribute, so old counters leave the table by themselves.
fn ttl(now: i64) -> UpdateAction {
    UpdateAction::Set("ttl".into(), (now + 2 * CLIENT.window_secs + CLIENT.lockout_secs).into())
}

/// Counts one attempt against a limited counter, or refuses it.
async fn take_limited(ctx: &AppCtx, key: &Key, policy: ThrottlePolicy) -> Result<(), ApiError> {
    for _ in 0..RACE_RETRIES {
        let now = ctx.now();
        let current = read(ctx, key).await?;
        if let Some(c) = &current {
            if c.not_before > now {
                return Err(refused(c.not_before - now));
            }
        }
        let fresh = current.as_ref().is_none_or(|c| now >= c.window_start + policy.window_secs || c.not_before > 0);
        let result = if fresh {
            // A new window: the condition makes two racing resets one.
            let condition = match &current {
                Some(c) => Condition::Eq("windowStart".into(), c.window_start.into()),
                None => Condition::item_absent(),
            };
            let actions = vec![
                UpdateAction::Set("attempts".into(), 1.into()),
                UpdateAction::Set("windowStart".into(), now.into()),
                UpdateAction::Set("notBefore".into(), 0.into()),
                ttl(now),
            ];
            ctx.store.update(key, actions, Some(condition)).await
        } else {
            let seen = current.as_ref().map_or(0, |c| c.window_start);
            let limit = i64::from(policy.max_failures);
            ctx.store
                .update(
                    key,
                    vec![UpdateAction::Add("attempts".into(), 1)],
                    Some(Condition::And(vec![Condition::Eq("windowStart".into(), seen.into()), Condition::Lt("attempts".into(), limit.into())])),
                )
                .await
        };
        match result {
            Ok(item) => {
                let attempts = item.get("attempts").and_then(serde_json::Value::as_i64).unwrap_or(0);
                if attempts >= i64::from(policy.max_failures) {
                    // The last allowed attempt: the lock runs from now.
                    ctx.store
                        .update(key, vec![UpdateAction::Set("notBefore".into(), (now + policy.lockout_secs).into())], None)
                        .await
                        .api()?;
                }
                return Ok(());
            }
            Err(store::StoreError::ConditionFailed) => {
                // Full (refuse on the next read) or a racing reset (retry).
                if let Some(c) = read(ctx, key).await? {
                    if c.window_start == current.as_ref().map_or(-1, |p| p.window_start) && c.attempts >= i64::from(policy.max_failures) {
                        let until = if c.not_before > now { c.not_before } else { c.window_start + policy.lockout_secs };
                        return Err(refused(until - now));
                    }
                }
            }
            Err(e) => return Err(super::store_error(e)),
        }
    }
    Err(refused(1))
}

/// The delay after `failures` failures of one account (0 below the free count).
pub fn account_delay(failures: i64) -> i64 {
    if failures < ACCOUNT_FREE_FAILURES {
        return 0;
    }
    let steps = (failures - ACCOUNT_FREE_FAILURES).min(6) as u32;
    (1i64 << steps).min(ACCOUNT_MAX_DELAY_SECS)
}

/// Counts one attempt against the account's growing delay, or refuses it.
async fn take_account(ctx: &AppCtx, key: &Key) -> Result<(), ApiError> {
    for _ in 0..RACE_RETRIES {
        let now = ctx.now();
        let current = read(ctx, key).await?;
        if let Some(c) = &current {
            if c.not_before > now && now < c.window_start + ACCOUNT_WINDOW_SECS {
                return Err(refused(c.not_before - now));
            }
        }
        let stale = current.as_ref().is_none_or(|c| now >= c.window_start + ACCOUNT_WINDOW_SECS);
        let (attempts, window_start, condition) = match &current {
            Some(c) if !stale => (c.attempts + 1, c.window_start, Condition::Eq("attempts".into(), c.attempts.into())),
            Some(c) => (1, now, Condition::Eq("windowStart".into(), c.window_start.into())),
            None => (1, now, Condition::item_absent()),
        };
        let actions = vec![
            UpdateAction::Set("attempts".into(), attempts.into()),
            UpdateAction::Set("windowStart".into(), window_start.into()),
            UpdateAction::Set("notBefore".into(), (now + account_delay(attempts)).into()),
            ttl(now),
        ];
        match ctx.store.update(key, actions, Some(condition)).await {
            Ok(_) => return Ok(()),
            Err(store::StoreError::ConditionFailed) => continue,
            Err(e) => return Err(super::store_error(e)),
        }
    }
    Err(refused(1))
}

/// One sign-in attempt, counted before the password is checked.
pub struct Attempt {
    account: String,
    address: String,
}

/// Counts an attempt at `account` from `address`, or refuses it with 429
/// (then the password must not be checked).
pub async fn begin(ctx: &AppCtx, account: &str, address: &str) -> Result<Attempt, ApiError> {
    take_limited(ctx, &keys::throttle("CLIENT", address), CLIENT).await?;
    take_limited(ctx, &keys::throttle("PAIR", &pair_id(account, address)), PAIR).await?;
    take_account(ctx, &keys::throttle("ACCOUNT", account)).await?;
    Ok(Attempt { account: account.to_string(), address: address.to_string() })
}

/// Counts an attempt of the already signed-in account (a password change
/// checks the current password): the pair and account counters only.
pub async fn begin_for_account(ctx: &AppCtx, account: &str, address: &str) -> Result<Attempt, ApiError> {
    take_limited(ctx, &keys::throttle("PAIR", &pair_id(account, address)), PAIR).await?;
    take_account(ctx, &keys::throttle("ACCOUNT", account)).await?;
    Ok(Attempt { account: account.to_string(), address: address.to_string() })
}

impl Attempt {
    /// The password was right: the attempt is given back.
    pub async fn succeeded(self, ctx: &AppCtx) -> Result<(), ApiError> {
        ctx.store.delete(&keys::throttle("PAIR", &pair_id(&self.account, &self.address)), None).await.api()?;
        ctx.store.delete(&keys::throttle("ACCOUNT", &self.account), None).await.api()?;
        let client = keys::throttle("CLIENT", &self.address);
        match ctx.store.update(&client, vec![UpdateAction::Add("attempts".into(), -1)], Some(Condition::Gt("attempts".into(), 0.into()))).await {
            Ok(_) | Err(store::StoreError::ConditionFailed) => Ok(()),
            Err(e) => Err(super::store_error(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_account_delay_doubles_up_to_a_minute() {
        assert_eq!((0..10).map(account_delay).sum::<i64>(), 0);
        assert_eq!([10, 11, 12, 15, 16, 40].map(account_delay), [1, 2, 4, 32, 60, 60]);
    }
}
