//! Charger passwords (OCPP security profiles 1 and 2: HTTP Basic auth).
//!
//! Stored as a salted SHA-256, not argon2: a charger password is 16-40
//! characters and by default generated here with 143 bits of entropy, so
//! a slow hash buys nothing against guessing, while every connect (fleets
//! reconnect in bursts after an outage) would pay ~50 ms of CPU for it.

use envelope::{ApiError, Text};
use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};
use store::{Condition, Key, TxOp, UpdateAction};
use subtle::ConstantTimeEq;

use crate::ctx::AppCtx;
use crate::domain::assets::piles::{get_pile, pile_key};
use crate::domain::{from_item, StoreResultExt};

pub const MIN_LEN: usize = 16;
pub const MAX_LEN: usize = 40;
const GENERATED_LEN: usize = 24;

pub fn key(pile_id: &str) -> Key {
    Key::new(format!("PILE#{pile_id}"), "SECRET")
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredSecret {
    salt: String,
    hash: String,
    set_at: i64,
    set_by: String,
}

fn digest(salt: &str, password: &str) -> String {
    let mut h = Sha256::new();
    h.update(salt.as_bytes());
    h.update(b":");
    h.update(password.as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Why a typed charger password is refused, if it is.
pub fn problem(password: &str) -> Option<Text> {
    let n = password.chars().count();
    if !(MIN_LEN..=MAX_LEN).contains(&n) || !password.chars().all(|c| c.is_ascii_graphic()) {
        return Some(Text::new(
            format!("password: a charger password is {MIN_LEN}-{MAX_LEN} printable ASCII characters without spaces"),
            format!("password：充电桩密码须为{MIN_LEN}-{MAX_LEN}位可打印ASCII字符（不含空格）"),
        ));
    }
    None
}

pub fn generate() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    let mut rng = rand::thread_rng();
    (0..GENERATED_LEN).map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char).collect()
}

/// Sets (or rotates) a pile's charger password; returns it (the only time
/// it is shown) and when it was set. `None` generates one.
pub async fn set(ctx: &AppCtx, pile_id: &str, password: Option<&str>, by: &str) -> Result<(String, i64), ApiError> {
    let password = match password.map(str::trim).filter(|p| !p.is_empty()) {
        Some(p) => {
            if let Some(msg) = problem(p) {
                return Err(ApiError::bad_request(msg));
            }
            p.to_string()
        }
        None => generate(),
    };
    get_pile(ctx, pile_id).await?;
    let now = write(ctx, pile_id, &password, by).await?;
    Ok((password, now))
}

/// Stores a (checked or generated) password for a pile; returns when.
pub async fn write(ctx: &AppCtx, pile_id: &str, password: &str, by: &str) -> Result<i64, ApiError> {
    let now = ctx.now();
    let salt = format!("{:032x}", rand::thread_rng().gen::<u128>());
    let stored = StoredSecret { hash: digest(&salt, password), salt, set_at: now, set_by: by.into() };
    let k = key(pile_id);
    let item = crate::domain::to_item(&stored, &[(store::PK, k.pk), (store::SK, k.sk)]);
    let ops = vec![
        TxOp::Update {
            key: pile_key(pile_id),
            actions: vec![UpdateAction::Set("passwordSetAt".into(), json!(now))],
            condition: Some(Condition::item_exists()),
        },
        TxOp::Put { item, condition: None },
    ];
    ctx.store.transact(ops).await.api()?;
    Ok(now)
}

/// Whether `password` is the pile's charger password (false when none is set).
pub async fn verify(ctx: &AppCtx, pile_id: &str, password: &str) -> Result<bool, ApiError> {
    let Some(item) = ctx.store.get(&key(pile_id)).await.api()? else { return Ok(false) };
    let stored: StoredSecret = from_item(item)?;
    Ok(digest(&stored.salt, password).as_bytes().ct_eq(stored.hash.as_bytes()).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_passwords_pass_the_rule_and_differ() {
        let (a, b) = (generate(), generate());
        assert!(problem(&a).is_none(), "{a}");
        assert_ne!(a, b);
    }

    #[test]
    fn typed_passwords_are_checked() {
        assert!(problem("short").is_some());
        assert!(problem("has a space in it ok").is_some());
        assert!(problem(&"x".repeat(41)).is_some());
        assert!(problem("0123456789abcdef").is_none());
    }
}
