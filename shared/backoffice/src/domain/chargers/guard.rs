//! Guessing charger passwords at the handshake. Every attempt is counted
//! *before* the password is checked (a conditional write lets at most the
//! limit through), so a burst of guesses costs at most the limit in
//! password hashes; the rest are refused with 429 and `Retry-After`.
//!
//! - per source address, all charge points: 20 attempts in 10 minutes,
//!   then the address is refused for 10 minutes. Unknown charge point ids
//!   count too (no guessing which ids exist).
//! - per charge point, from addresses it is not known at: 10 attempts in 15
//!   minutes, then each further one waits a delay that doubles up to a
//!   minute: guesses spread over many addresses get about one a minute.
//! - per charge point and address, from an address the charger connected
//!   from with its password before (the last few, kept with the password;
//!   an operator's new password forgets them, a rotated key keeps them):
//!   10 attempts in 10 minutes, then that pair waits 10 minutes. Guesses
//!   made elsewhere never touch this counter, so the real charger's next
//!   handshake from its known address is checked however many guesses
//!   came from elsewhere (the "known place" of the staff sign-in).
//!
//! A right password gives its attempt back; a refused attempt (429) is
//! not checked and costs nothing. The gateway's own machine (a loopback
//! address: the simulator, the load bench) has no per-address limit, so
//! a thousand chargers connecting from it at once are not refused; behind
//! a reverse proxy on the machine the address it forwards counts instead.

use envelope::ApiError;
use serde::Deserialize;
use store::{Condition, Key, UpdateAction};

use super::secret::{self, StoredSecret};
use crate::ctx::AppCtx;
use crate::domain::assets::piles::Pile;
use crate::domain::StoreResultExt;

#[derive(Debug, Clone, Copy)]
pub struct Limit {
    pub attempts: i64,
    pub window_secs: i64,
    pub lockout_secs: i64,
}

pub const ADDRESS: Limit = Limit { attempts: 20, window_secs: 600, lockout_secs: 600 };
pub const KNOWN_PAIR: Limit = Limit { attempts: 10, window_secs: 600, lockout_secs: 600 };
/// Per charge point from unknown addresses: attempts before the delay starts, the window, the longest delay.
pub const CHARGER_FREE_ATTEMPTS: i64 = 10;
pub const CHARGER_WINDOW_SECS: i64 = 900;
pub const CHARGER_MAX_DELAY_SECS: i64 = 60;

/// How often a lost race is retried before the attempt is refused (refusing
/// is the safe side: a busy counter never means an unchecked guess).
const RACE_RETRIES: usize = 8;

/// The outcome of a handshake's credentials.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Right,
    Wrong,
    /// Too many attempts: try again after this many seconds (nothing was checked).
    Wait(i64),
}

fn key(kind: &str, subject: &str) -> Key {
    Key::new(format!("OCPPGUARD#{kind}#{}", subject.to_lowercase()), "GUARD")
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct Counter {
    attempts: i64,
    window_start: i64,
    not_before: i64,
}

async fn read(ctx: &AppCtx, key: &Key) -> Result<Option<Counter>, ApiError> {
    let item = ctx.store.get(key).await.api()?;
    Ok(item.and_then(|i| serde_json::from_value(serde_json::Value::Object(i)).ok()))
}

/// The expiry attribute, so old counters leave the table by themselves.
fn ttl(now: i64) -> UpdateAction {
    UpdateAction::Set(store::TTL_ATTRIBUTE.into(), (now + 3 * CHARGER_WINDOW_SECS).into())
}

/// Counts one attempt against a limited counter, or says how long to wait.
async fn take_limited(ctx: &AppCtx, key: &Key, limit: Limit) -> Result<Option<i64>, ApiError> {
    for _ in 0..RACE_RETRIES {
        let now = ctx.now();
        let current = read(ctx, key).await?;
        if let Some(c) = &current {
            if c.not_before > now {
                return Ok(Some(c.not_before - now));
            }
        }
        let fresh = current.as_ref().is_none_or(|c| now >= c.window_start + limit.window_secs || c.not_before > 0);
        let (actions, condition) = if fresh {
            let condition = match &current {
                Some(c) => Condition::Eq("windowStart".into(), c.window_start.into()),
                None => Condition::item_absent(),
            };
            (vec![UpdateAction::Set("attempts".into(), 1.into()), UpdateAction::Set("windowStart".into(), now.into()), UpdateAction::Set("notBefore".into(), 0.into()), ttl(now)], condition)
        } else {
            let seen = current.as_ref().map_or(0, |c| c.window_start);
            (vec![UpdateAction::Add("attempts".into(), 1)], Condition::And(vec![Condition::Eq("windowStart".into(), seen.into()), Condition::Lt("attempts".into(), limit.attempts.into())]))
        };
        match ctx.store.update(key, actions, Some(condition)).await {
            Ok(item) => {
                let attempts = item.get("attempts").and_then(serde_json::Value::as_i64).unwrap_or(0);
                if attempts >= limit.attempts {
                    // The last allowed attempt: the wait runs from now.
                    ctx.store.update(key, vec![UpdateAction::Set("notBefore".into(), (now + limit.lockout_secs).into())], None).await.api()?;
                }
                return Ok(None);
            }
            Err(store::StoreError::ConditionFailed) => {
                if let Some(c) = read(ctx, key).await? {
                    if c.window_start == current.as_ref().map_or(-1, |p| p.window_start) && c.attempts >= limit.attempts {
                        let until = if c.not_before > now { c.not_before } else { c.window_start + limit.lockout_secs };
                        return Ok(Some((until - now).max(1)));
                    }
                }
            }
            Err(e) => return Err(crate::domain::store_error(e)),
        }
    }
    Ok(Some(1))
}

/// The delay after `attempts` attempts at one charge point from unknown addresses.
pub fn charger_delay(attempts: i64) -> i64 {
    if attempts < CHARGER_FREE_ATTEMPTS {
        return 0;
    }
    let steps = (attempts - CHARGER_FREE_ATTEMPTS).min(6) as u32;
    (1i64 << steps).min(CHARGER_MAX_DELAY_SECS)
}

/// Counts one attempt against a charge point's growing delay, or says how long to wait.
async fn take_delayed(ctx: &AppCtx, key: &Key) -> Result<Option<i64>, ApiError> {
    for _ in 0..RACE_RETRIES {
        let now = ctx.now();
        let current = read(ctx, key).await?;
        if let Some(c) = &current {
            if c.not_before > now && now < c.window_start + CHARGER_WINDOW_SECS {
                return Ok(Some(c.not_before - now));
            }
        }
        let stale = current.as_ref().is_none_or(|c| now >= c.window_start + CHARGER_WINDOW_SECS);
        let (attempts, window_start, condition) = match &current {
            Some(c) if !stale => (c.attempts + 1, c.window_start, Condition::Eq("attempts".into(), c.attempts.into())),
            Some(c) => (1, now, Condition::Eq("windowStart".into(), c.window_start.into())),
            None => (1, now, Condition::item_absent()),
        };
        let actions = vec![
            UpdateAction::Set("attempts".into(), attempts.into()),
            UpdateAction::Set("windowStart".into(), window_start.into()),
            UpdateAction::Set("notBefore".into(), (now + charger_delay(attempts)).into()),
            ttl(now),
        ];
        match ctx.store.update(key, actions, Some(condition)).await {
            Ok(_) => return Ok(None),
            Err(store::StoreError::ConditionFailed) => continue,
            Err(e) => return Err(crate::domain::store_error(e)),
        }
    }
    Ok(Some(1))
}

/// Gives one attempt back (a right password, or an attempt refused by another counter).
async fn give_back(ctx: &AppCtx, key: &Key) -> Result<(), ApiError> {
    match ctx.store.update(key, vec![UpdateAction::Add("attempts".into(), -1)], Some(Condition::Gt("attempts".into(), 0.into()))).await {
        Ok(_) | Err(store::StoreError::ConditionFailed) => Ok(()),
        Err(e) => Err(crate::domain::store_error(e)),
    }
}

/// Whether attempts from `address` are limited per address (not the
/// gateway's own machine).
fn limited_by_address(address: &str) -> bool {
    address.parse::<std::net::IpAddr>().map_or(true, |ip| !ip.is_loopback())
}

fn pair(pile_id: &str, address: &str) -> String {
    format!("{pile_id}@{address}")
}

/// A handshake for a charge point id no pile has: counted against the
/// address (guessing ids is guessing too). `Some(wait)` when refused.
pub async fn unknown_charger(ctx: &AppCtx, address: &str) -> Result<Option<i64>, ApiError> {
    if !limited_by_address(address) {
        return Ok(None);
    }
    take_limited(ctx, &key("ADDRESS", address), ADDRESS).await
}

/// Checks a handshake's password (`None`: credentials for another charge
/// point id) from `address` under the limits above.
pub async fn check(ctx: &AppCtx, pile: &Pile, password: Option<&str>, address: &str) -> Result<Verdict, ApiError> {
    let stored = secret::read(ctx, &pile.id).await?;
    let known = stored.as_ref().is_some_and(|s| s.knows(address, ctx.now()));
    let address_key = limited_by_address(address).then(|| key("ADDRESS", address));
    let charger_key = key("CHARGER", &pile.id);
    let pair_key = key("PAIR", &pair(&pile.id, address));
    if known {
        if let Some(wait) = take_limited(ctx, &pair_key, KNOWN_PAIR).await? {
            return Ok(Verdict::Wait(wait));
        }
    } else {
        if let Some(k) = &address_key {
            if let Some(wait) = take_limited(ctx, k, ADDRESS).await? {
                return Ok(Verdict::Wait(wait));
            }
        }
        if let Some(wait) = take_delayed(ctx, &charger_key).await? {
            // Not checked: it costs the address nothing either.
            if let Some(k) = &address_key {
                give_back(ctx, k).await?;
            }
            return Ok(Verdict::Wait(wait));
        }
    }
    // The password, or an AuthorizationKey on its way to the charger (which
    // then becomes the password: the charger has it).
    let (right, promoted) = match (&stored, password) {
        (Some(s), Some(p)) if secret::matches(s, p).await? => (true, false),
        (Some(s), Some(p)) => (secret::matches_pending(ctx, &pile.id, s, p).await?, true),
        _ => (false, false),
    };
    if !right {
        return Ok(Verdict::Wrong);
    }
    if known {
        ctx.store.delete(&pair_key, None).await.api()?;
    } else {
        if let Some(k) = &address_key {
            give_back(ctx, k).await?;
        }
        give_back(ctx, &charger_key).await?;
    }
    if let (Some(s), Some(p)) = (&stored, password) {
        let s = match promoted {
            // The stored password changed just now: remember against the new one.
            true => secret::read(ctx, &pile.id).await?.unwrap_or_else(|| s.clone()),
            false => s.clone(),
        };
        remember(ctx, pile, &s, p, address).await;
    }
    Ok(Verdict::Right)
}

async fn remember(ctx: &AppCtx, pile: &Pile, stored: &StoredSecret, password: &str, address: &str) {
    if let Err(e) = secret::after_good_handshake(ctx, &pile.id, stored, password, address).await {
        tracing::warn!(pile = %pile.code, error = %e.msg.en, "could not update the charger's stored password after its handshake");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_charger_delay_doubles_up_to_a_minute() {
        assert_eq!((0..10).map(charger_delay).sum::<i64>(), 0);
        assert_eq!([10, 11, 12, 15, 16, 40].map(charger_delay), [1, 2, 4, 32, 60, 60]);
    }
}
