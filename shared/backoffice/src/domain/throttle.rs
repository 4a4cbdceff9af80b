//! Sign-in throttling, after OWASP's "device cookie" design (Slow Down
//! Online Guessing Attacks with Device Cookies): guesses are slowed, and
//! nobody can use the throttle to keep an account's owner out.
//!
//! Every attempt is counted *before* the password is checked, with a
//! conditional write that lets at most the limit through, so N parallel
//! guesses cost at most the limit in password checks (the rest are refused
//! with 429 without hashing). What is counted depends on where the attempt
//! comes from:
//!
//! - **A known device** (the browser brings a valid device token for this
//!   account, `auth::device`, given at its last successful sign-in): only
//!   the device's own counter, 5 attempts in 15 minutes, then that device
//!   waits 15 minutes. Nothing an attacker does elsewhere refuses it.
//! - **An unknown place**, three counters, all looked at before any is
//!   counted, so a refused attempt (an owner's right password included)
//!   spends nothing:
//!   - per (account, address): 5 attempts in 15 minutes, then that pair is
//!     locked for 15 minutes. This stops one guesser at one account;
//!   - per address: 20 attempts in 15 minutes, then the address is locked;
//!   - per account from unknown places: no lock, but past 10 failures in
//!     the window each further attempt must wait a delay that doubles, up
//!     to a minute, so a guesser spread over many addresses gets ~1 guess a
//!     minute. An address that signed in to the account successfully in the
//!     last 30 days is spared this delay (the pair and address limits still
//!     hold there).
//!
//! A right password gives its attempt back (the device's or the pair's
//! counter is cleared, the address's and the account's counts go down by
//! one) and the address is remembered as known for the account.

use auth::ThrottlePolicy;
use envelope::{msg, ApiError};
use serde::{Deserialize, Serialize};
use store::{Condition, Key, UpdateAction};

use super::{keys, StoreResultExt};
use crate::ctx::AppCtx;

/// Per (account, address): the guessing limit.
pub const PAIR: ThrottlePolicy = ThrottlePolicy { max_failures: 5, window_secs: 15 * 60, lockout_secs: 15 * 60 };
/// Per address, all accounts.
pub const CLIENT: ThrottlePolicy = ThrottlePolicy { max_failures: 20, window_secs: 15 * 60, lockout_secs: 15 * 60 };
/// Per known device (a stolen device token buys no more than the pair).
pub const DEVICE: ThrottlePolicy = PAIR;
/// Per signed-in session checking its current password (password change).
pub const SESSION: ThrottlePolicy = PAIR;
/// Per account, unknown places: failures before the delay starts, the window, the longest delay.
pub const ACCOUNT_FREE_FAILURES: i64 = 10;
pub const ACCOUNT_WINDOW_SECS: i64 = 15 * 60;
pub const ACCOUNT_MAX_DELAY_SECS: i64 = 60;
/// How long an address that signed in successfully stays known for the account.
pub const KNOWN_ADDRESS_SECS: i64 = 30 * 86_400;

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
    /// Locked (pair, address, device) or delayed (account) until then.
    #[serde(default)]
    not_before: i64,
}

fn pair_id(account: &str, address: &str) -> String {
    format!("{}@{address}", account.to_lowercase())
}

fn counter_of(item: Option<store::Item>) -> Option<Counter> {
    item.and_then(|i| serde_json::from_value(serde_json::Value::Object(i)).ok())
}

async fn read(ctx: &AppCtx, key: &Key) -> Result<Option<Counter>, ApiError> {
    Ok(counter_of(ctx.store.get(key).await.api()?))
}

fn refused(retry_after_secs: i64) -> ApiError {
    let secs = retry_after_secs.max(1);
    let minutes = (secs + 59) / 60;
    ApiError::too_many_requests(
        msg::auth::throttled(&minutes),
        secs as u64,
    )
}

/// The expiry attribute, so old counters leave the table by themselves.
fn ttl(now: i64) -> UpdateAction {
    UpdateAction::Set("ttl".into(), (now + 2 * CLIENT.window_secs + CLIENT.lockout_secs).into())
}

/// How long a limited counter still refuses attempts at `now`, if it does.
fn limited_wait(c: Option<&Counter>, now: i64) -> Option<i64> {
    c.filter(|c| c.not_before > now).map(|c| c.not_before - now)
}

/// How long the account's delay still refuses attempts at `now`, if it does.
fn account_wait(c: Option<&Counter>, now: i64) -> Option<i64> {
    c.filter(|c| c.not_before > now && now < c.window_start + ACCOUNT_WINDOW_SECS).map(|c| c.not_before - now)
}

/// Counts one attempt against a limited counter, or refuses it. `seen` is
/// the counter as already read (None: read it here).
async fn take_limited(ctx: &AppCtx, key: &Key, policy: ThrottlePolicy, mut seen: Option<Option<Counter>>) -> Result<(), ApiError> {
    for _ in 0..RACE_RETRIES {
        let now = ctx.now();
        let current = match seen.take() {
            Some(c) => c,
            None => read(ctx, key).await?,
        };
        if let Some(wait) = limited_wait(current.as_ref(), now) {
            return Err(refused(wait));
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
            let window = current.as_ref().map_or(0, |c| c.window_start);
            let limit = i64::from(policy.max_failures);
            ctx.store
                .update(
                    key,
                    vec![UpdateAction::Add("attempts".into(), 1)],
                    Some(Condition::And(vec![Condition::Eq("windowStart".into(), window.into()), Condition::Lt("attempts".into(), limit.into())])),
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
                // Full (refuse) or a racing reset (retry).
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
async fn take_account(ctx: &AppCtx, key: &Key, mut seen: Option<Option<Counter>>) -> Result<(), ApiError> {
    for _ in 0..RACE_RETRIES {
        let now = ctx.now();
        let current = match seen.take() {
            Some(c) => c,
            None => read(ctx, key).await?,
        };
        if let Some(wait) = account_wait(current.as_ref(), now) {
            return Err(refused(wait));
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

/// Gives one counted attempt back (a right password, or a later counter
/// refused the attempt after this one counted it).
async fn give_back(ctx: &AppCtx, key: &Key) -> Result<(), ApiError> {
    match ctx.store.update(key, vec![UpdateAction::Add("attempts".into(), -1)], Some(Condition::Gt("attempts".into(), 0.into()))).await {
        Ok(_) | Err(store::StoreError::ConditionFailed) => Ok(()),
        Err(e) => Err(super::store_error(e)),
    }
}

/// Where an attempt was counted.
enum Counted {
    /// A known device: its own counter.
    Device(Key),
    /// An unknown place: the address, the pair and (unless the address is
    /// known for the account) the account.
    Elsewhere { client: Key, pair: Key, account: Option<Key> },
    /// A signed-in session checking its current password.
    Session(Key),
}

/// One sign-in attempt, counted before the password is checked.
pub struct Attempt {
    account: String,
    address: String,
    counted: Counted,
}

/// Counts an attempt at `account` from `address`, or refuses it with 429
/// (then the password must not be checked). `device` is the device the
/// request proved with a valid device token for this account, if any.
pub async fn begin(ctx: &AppCtx, account: &str, address: &str, device: Option<&auth::KnownDevice>) -> Result<Attempt, ApiError> {
    let (account, address) = (account.to_string(), address.to_string());
    if let Some(device) = device {
        let key = keys::throttle("DEVICE", &device.id);
        take_limited(ctx, &key, DEVICE, None).await?;
        return Ok(Attempt { account, address, counted: Counted::Device(key) });
    }
    let client = keys::throttle("CLIENT", &address);
    let pair = keys::throttle("PAIR", &pair_id(&account, &address));
    let account_key = keys::throttle("ACCOUNT", &account);
    let known = keys::throttle("KNOWN", &pair_id(&account, &address));
    // All four in one read; nothing is counted unless every counter lets
    // the attempt through, so a refused attempt spends no budget.
    let mut found = ctx.store.batch_get(&[client.clone(), pair.clone(), account_key.clone(), known]).await.api()?.into_iter();
    let (client_seen, pair_seen, account_seen) = (counter_of(found.next().flatten()), counter_of(found.next().flatten()), counter_of(found.next().flatten()));
    let now = ctx.now();
    let known_address = found.next().flatten().and_then(|i| i.get("until").and_then(serde_json::Value::as_i64)).is_some_and(|until| until > now);
    let account_counted = !known_address;
    let waits = [
        limited_wait(client_seen.as_ref(), now),
        limited_wait(pair_seen.as_ref(), now),
        if account_counted { account_wait(account_seen.as_ref(), now) } else { None },
    ];
    if let Some(wait) = waits.into_iter().flatten().max() {
        return Err(refused(wait));
    }
    take_limited(ctx, &client, CLIENT, Some(client_seen)).await?;
    if let Err(e) = take_limited(ctx, &pair, PAIR, Some(pair_seen)).await {
        give_back(ctx, &client).await?;
        return Err(e);
    }
    if account_counted {
        if let Err(e) = take_account(ctx, &account_key, Some(account_seen)).await {
            give_back(ctx, &client).await?;
            give_back(ctx, &pair).await?;
            return Err(e);
        }
    }
    Ok(Attempt { account, address, counted: Counted::Elsewhere { client, pair, account: account_counted.then_some(account_key) } })
}

/// Counts an attempt of a signed-in session at its account's current
/// password (a password change): per session only. The session already
/// proved the password once, so nothing done elsewhere refuses it, and a
/// stolen session gets no more guesses than a guessing pair.
pub async fn begin_for_session(ctx: &AppCtx, account: &str, session_id: &str, address: &str) -> Result<Attempt, ApiError> {
    let key = keys::throttle("SESSION", session_id);
    take_limited(ctx, &key, SESSION, None).await?;
    Ok(Attempt { account: account.to_string(), address: address.to_string(), counted: Counted::Session(key) })
}

impl Attempt {
    /// The password was right: the attempt is given back, and the address
    /// is known for the account from now on.
    pub async fn succeeded(self, ctx: &AppCtx) -> Result<(), ApiError> {
        match &self.counted {
            Counted::Device(key) | Counted::Session(key) => {
                ctx.store.delete(key, None).await.api()?;
            }
            Counted::Elsewhere { client, pair, account } => {
                ctx.store.delete(pair, None).await.api()?;
                give_back(ctx, client).await?;
                if let Some(account) = account {
                    give_back(ctx, account).await?;
                }
            }
        }
        if !matches!(self.counted, Counted::Session(_)) {
            let now = ctx.now();
            let key = keys::throttle("KNOWN", &pair_id(&self.account, &self.address));
            let until = now + KNOWN_ADDRESS_SECS;
            let actions = vec![UpdateAction::Set("until".into(), until.into()), UpdateAction::Set("ttl".into(), until.into())];
            ctx.store.update(&key, actions, None).await.api()?;
        }
        Ok(())
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

    #[test]
    fn waits_are_what_is_left_of_a_lock_or_delay() {
        let locked = Counter { attempts: 5, window_start: 100, not_before: 1000 };
        assert_eq!(limited_wait(Some(&locked), 400), Some(600));
        assert_eq!(limited_wait(Some(&locked), 1000), None);
        assert_eq!(limited_wait(None, 400), None);
        let delayed = Counter { attempts: 12, window_start: 100, not_before: 160 };
        assert_eq!(account_wait(Some(&delayed), 150), Some(10));
        assert_eq!(account_wait(Some(&delayed), 160), None);
        // A delay never outlives the account's window.
        let old = Counter { attempts: 40, window_start: 100, not_before: 100 + ACCOUNT_WINDOW_SECS + 50 };
        assert_eq!(account_wait(Some(&old), 100 + ACCOUNT_WINDOW_SECS), None);
    }
}
