//! Charger passwords (OCPP security profiles 1 and 2: HTTP Basic auth).
//!
//! Stored as argon2id with parameters made for a handshake: 8 MiB and one
//! pass, about 3 ms of CPU (the staff sign-in's 19 MiB and two passes take
//! ~25 ms). A charger proves its password at every connection and a fleet
//! reconnects in bursts after an outage, so the cost per handshake is kept
//! small; it still makes each guess against a stolen table cost memory
//! and time, where the salted SHA-256 used before cost nothing. Guessing
//! online is limited at the handshake (`guard`). Hashes made before
//! (`salt` + `hash`, SHA-256) still verify and are replaced by an argon2id
//! hash at the charger's next good handshake.
//!
//! A typed password must be 16-40 printable ASCII characters and hard to
//! guess (zxcvbn score 3 or more, with the charge point id as a known
//! word); a generated one (24 characters of 57, 140 bits) is the default.

use argon2::password_hash::{PasswordHasher, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use envelope::{msg, ApiError, Text};
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
/// The lowest zxcvbn score a typed password may have (3: "safely
/// unguessable", more than 10^8 guesses).
pub const MIN_SCORE: u8 = 3;
/// argon2id memory (KiB) and passes for a charger password.
pub const KDF_MEMORY_KIB: u32 = 8 * 1024;
pub const KDF_PASSES: u32 = 1;
/// How many addresses a charger is remembered at, and for how long.
const KNOWN_ADDRESSES: usize = 8;
const KNOWN_FOR_SECS: i64 = 30 * 86_400;

pub fn key(pile_id: &str) -> Key {
    Key::new(format!("PILE#{pile_id}"), "SECRET")
}

/// An address the charger connected from with its password.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KnownAddress {
    pub address: String,
    pub at: i64,
}

/// The stored password of a pile.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredSecret {
    /// The argon2id hash (PHC string).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    phc: Option<String>,
    /// A hash made before argon2id: salted SHA-256 (hex).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    salt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hash: Option<String>,
    #[serde(default)]
    pub set_at: i64,
    #[serde(default)]
    pub set_by: String,
    /// Where the charger last connected from with this password, newest
    /// first: the handshake throttle never makes these wait for guesses
    /// made elsewhere.
    #[serde(default)]
    pub known_addresses: Vec<KnownAddress>,
    /// An AuthorizationKey sent to the charger (argon2id) by the command
    /// `pending_command_id`: it becomes the password when the charger
    /// accepts it; a refusal drops it. When the call ended without an
    /// answer (`pending_unconfirmed`: timeout, connection closed) the
    /// charger may have taken it all the same: then a handshake with it
    /// makes it the password (the old one keeps working until then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pending_phc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pending_command_id: Option<String>,
    #[serde(default)]
    pending_unconfirmed: bool,
}

impl StoredSecret {
    pub fn knows(&self, address: &str, now: i64) -> bool {
        self.known_addresses.iter().any(|k| k.address == address && now - k.at < KNOWN_FOR_SECS)
    }
}

fn sha256_digest(salt: &str, password: &str) -> String {
    let mut h = Sha256::new();
    h.update(salt.as_bytes());
    h.update(b":");
    h.update(password.as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Why a typed charger password (or AuthorizationKey) is refused, if it
/// is, as the words after the field's name; `known_words` are names a
/// guesser would try first (the charge point id).
pub fn problem(password: &str, known_words: &[&str]) -> Option<Text> {
    let n = password.chars().count();
    if !(MIN_LEN..=MAX_LEN).contains(&n) || !password.chars().all(|c| c.is_ascii_graphic()) {
        return Some(msg::chargers::password::format(MAX_LEN, MIN_LEN));
    }
    let strength = zxcvbn::zxcvbn(password, known_words);
    if u8::from(strength.score()) < MIN_SCORE {
        return Some(match strength.feedback().and_then(|f| f.warning()) {
            Some(warning) => msg::chargers::password::weak_because(warning),
            None => msg::chargers::password::weak(),
        });
    }
    None
}

/// A new AuthorizationKey: 20 random bytes as 40 hexadecimal digits, the
/// representation the 1.6 security whitepaper advises (160 bits).
pub fn generate_key() -> String {
    let bytes: [u8; 20] = rand::thread_rng().gen();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn generate() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    let mut rng = rand::thread_rng();
    (0..GENERATED_LEN).map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char).collect()
}

fn kdf() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::new(KDF_MEMORY_KIB, KDF_PASSES, 1, None).expect("valid argon2 parameters"))
}

/// The argon2id hash (PHC string) of a charger password, on the bounded
/// pool of password work.
pub async fn hash(password: &str) -> Result<String, ApiError> {
    let password = password.to_string();
    crate::password_work::run(move || {
        let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
        kdf().hash_password(password.as_bytes(), &salt).map(|h| h.to_string())
    })
    .await?
    .map_err(|e| {
        tracing::error!(error = %e, "charger password hashing failed");
        ApiError::internal()
    })
}

/// Whether `password` is the stored one (argon2id on the bounded pool;
/// a hash made before, SHA-256, compared in constant time).
pub async fn matches(stored: &StoredSecret, password: &str) -> Result<bool, ApiError> {
    if let Some(phc) = &stored.phc {
        return crate::password_work::verify(password, phc).await;
    }
    match (&stored.salt, &stored.hash) {
        (Some(salt), Some(hash)) => Ok(sha256_digest(salt, password).as_bytes().ct_eq(hash.as_bytes()).into()),
        _ => Ok(false),
    }
}

/// Sets (or rotates) a pile's charger password; returns it (the only time
/// it is shown) and when it was set. `None` generates one.
pub async fn set(ctx: &AppCtx, pile_id: &str, password: Option<&str>, by: &str) -> Result<(String, i64), ApiError> {
    let pile = get_pile(ctx, pile_id).await?;
    let password = match password.map(str::trim).filter(|p| !p.is_empty()) {
        Some(p) => {
            if let Some(why) = problem(p, &[&pile.code]) {
                return Err(crate::request::field_invalid("password", why));
            }
            p.to_string()
        }
        None => generate(),
    };
    let now = write(ctx, pile_id, &password, by).await?;
    Ok((password, now))
}

/// Stores a (checked or generated) password for a pile; returns when.
pub async fn write(ctx: &AppCtx, pile_id: &str, password: &str, by: &str) -> Result<i64, ApiError> {
    let phc = hash(password).await?;
    store_hash(ctx, pile_id, &phc, by).await
}

/// Stores an argon2id hash as the pile's password set by an operator. The
/// addresses the charger was known at go with the old password: a new one
/// is often set because the old one leaked, and whoever used it from an
/// address must not keep that address's own guessing allowance.
pub async fn store_hash(ctx: &AppCtx, pile_id: &str, phc: &str, by: &str) -> Result<i64, ApiError> {
    let now = ctx.now();
    let secret = vec![
        UpdateAction::Set("phc".into(), json!(phc)),
        UpdateAction::Set("setAt".into(), json!(now)),
        UpdateAction::Set("setBy".into(), json!(by)),
        UpdateAction::Remove("salt".into()),
        UpdateAction::Remove("hash".into()),
        // A key on its way to the charger is replaced by this one.
        UpdateAction::Remove("pendingPhc".into()),
        UpdateAction::Remove("pendingCommandId".into()),
        UpdateAction::Remove("pendingUnconfirmed".into()),
        UpdateAction::Remove("knownAddresses".into()),
    ];
    let ops = vec![
        TxOp::Update { key: pile_key(pile_id), actions: vec![UpdateAction::Set("passwordSetAt".into(), json!(now))], condition: Some(Condition::item_exists()) },
        TxOp::Update { key: key(pile_id), actions: secret, condition: None },
    ];
    ctx.store.transact(ops).await.api()?;
    Ok(now)
}

/// Keeps the hash of an AuthorizationKey that `command_id` is about to
/// send (the key itself is never stored).
pub async fn stage_key(ctx: &AppCtx, pile_id: &str, phc: &str, command_id: &str) -> Result<(), ApiError> {
    let actions = vec![UpdateAction::Set("pendingPhc".into(), json!(phc)), UpdateAction::Set("pendingCommandId".into(), json!(command_id)), UpdateAction::Set("pendingUnconfirmed".into(), json!(false))];
    ctx.store.update(&key(pile_id), actions, None).await.api().map(|_| ())
}

/// What became of an AuthorizationKey sent to a charger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyOutcome {
    /// The charger took it (Accepted, or RebootRequired: it uses it after restarting).
    Applied,
    /// Refused, or never sent: the old password stays the only one.
    Refused,
    /// No answer (timeout, connection closed): the old password stays; the
    /// new one is admitted if the charger connects with it (proof it took
    /// it), which makes it the password.
    Unknown,
}

/// Applies the charger's answer to the key sent by `command_id` (nothing
/// when another key or password has replaced it since).
pub async fn key_outcome(ctx: &AppCtx, pile_id: &str, command_id: &str, by: &str, outcome: KeyOutcome) -> Result<(), ApiError> {
    let Some(stored) = read_raw(ctx, pile_id).await? else { return Ok(()) };
    if stored.pending_command_id.as_deref() != Some(command_id) {
        return Ok(());
    }
    let actions = match outcome {
        KeyOutcome::Applied => return promote(ctx, pile_id, &stored, by).await,
        KeyOutcome::Refused => vec![UpdateAction::Remove("pendingPhc".into()), UpdateAction::Remove("pendingCommandId".into()), UpdateAction::Remove("pendingUnconfirmed".into())],
        KeyOutcome::Unknown => vec![UpdateAction::Set("pendingUnconfirmed".into(), json!(true))],
    };
    match ctx.store.update(&key(pile_id), actions, Some(Condition::Eq("pendingCommandId".into(), json!(command_id)))).await {
        Ok(_) | Err(store::StoreError::ConditionFailed) => Ok(()),
        Err(e) => Err(crate::domain::store_error(e)),
    }
}

/// The pending key becomes the charger's password (conditioned on it
/// still being the pending one).
async fn promote(ctx: &AppCtx, pile_id: &str, stored: &StoredSecret, by: &str) -> Result<(), ApiError> {
    let (Some(phc), Some(command)) = (&stored.pending_phc, &stored.pending_command_id) else { return Ok(()) };
    let now = ctx.now();
    let secret = vec![
        UpdateAction::Set("phc".into(), json!(phc)),
        UpdateAction::Set("setAt".into(), json!(now)),
        UpdateAction::Set("setBy".into(), json!(by)),
        UpdateAction::Remove("salt".into()),
        UpdateAction::Remove("hash".into()),
        UpdateAction::Remove("pendingPhc".into()),
        UpdateAction::Remove("pendingCommandId".into()),
        UpdateAction::Remove("pendingUnconfirmed".into()),
    ];
    let ops = vec![
        TxOp::Update { key: pile_key(pile_id), actions: vec![UpdateAction::Set("passwordSetAt".into(), json!(now))], condition: Some(Condition::item_exists()) },
        TxOp::Update { key: key(pile_id), actions: secret, condition: Some(Condition::Eq("pendingCommandId".into(), json!(command))) },
    ];
    match ctx.store.transact(ops).await {
        Ok(_) => Ok(()),
        Err(store::StoreError::TransactionCanceled { .. } | store::StoreError::ConditionFailed) => Ok(()),
        Err(e) => Err(crate::domain::store_error(e)),
    }
}

/// Whether `password` is an AuthorizationKey sent to the charger whose
/// answer never came; if so it becomes the password now (the charger has it).
pub async fn matches_pending(ctx: &AppCtx, pile_id: &str, stored: &StoredSecret, password: &str) -> Result<bool, ApiError> {
    let (Some(phc), true) = (&stored.pending_phc, stored.pending_unconfirmed) else { return Ok(false) };
    if !crate::password_work::verify(password, phc).await? {
        return Ok(false);
    }
    promote(ctx, pile_id, stored, "charger").await?;
    Ok(true)
}

async fn read_raw(ctx: &AppCtx, pile_id: &str) -> Result<Option<StoredSecret>, ApiError> {
    match ctx.store.get(&key(pile_id)).await.api()? {
        Some(item) => Ok(Some(from_item(item)?)),
        None => Ok(None),
    }
}

/// The pile's stored password, if one is set (or a key is on its way).
pub async fn read(ctx: &AppCtx, pile_id: &str) -> Result<Option<StoredSecret>, ApiError> {
    Ok(read_raw(ctx, pile_id).await?.filter(|s| s.phc.is_some() || s.hash.is_some() || s.pending_phc.is_some()))
}

/// Whether `password` is the pile's charger password (false when none is set).
pub async fn verify(ctx: &AppCtx, pile_id: &str, password: &str) -> Result<bool, ApiError> {
    match read(ctx, pile_id).await? {
        Some(s) => matches(&s, password).await,
        None => Ok(false),
    }
}

/// After a good handshake: a hash made before argon2id is replaced (the
/// password is at hand only now), and the address is remembered. Each is
/// written only when it changes something; neither undoes a password set
/// meanwhile (the conditions check the hash that was verified).
pub async fn after_good_handshake(ctx: &AppCtx, pile_id: &str, stored: &StoredSecret, password: &str, address: &str) -> Result<(), ApiError> {
    let now = ctx.now();
    let unchanged = match (&stored.phc, &stored.hash) {
        (Some(phc), _) => Condition::Eq("phc".into(), json!(phc)),
        (None, Some(hash)) => Condition::Eq("hash".into(), json!(hash)),
        (None, None) => return Ok(()),
    };
    let mut actions = Vec::new();
    if stored.phc.is_none() {
        let phc = hash(password).await?;
        actions.extend([UpdateAction::Set("phc".into(), json!(phc)), UpdateAction::Remove("salt".into()), UpdateAction::Remove("hash".into())]);
    }
    let fresh = stored.known_addresses.first().is_some_and(|k| k.address == address && now - k.at < 86_400);
    if !fresh {
        let mut known = vec![KnownAddress { address: address.to_string(), at: now }];
        known.extend(stored.known_addresses.iter().filter(|k| k.address != address && now - k.at < KNOWN_FOR_SECS).cloned());
        known.truncate(KNOWN_ADDRESSES);
        actions.push(UpdateAction::Set("knownAddresses".into(), json!(known)));
    }
    if actions.is_empty() {
        return Ok(());
    }
    match ctx.store.update(&key(pile_id), actions, Some(unchanged)).await {
        Ok(_) | Err(store::StoreError::ConditionFailed) => Ok(()),
        Err(e) => Err(crate::domain::store_error(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_passwords_pass_the_rule_and_differ() {
        let (a, b) = (generate(), generate());
        assert!(problem(&a, &["CP01"]).is_none(), "{a}");
        assert_ne!(a, b);
    }

    #[test]
    fn typed_passwords_are_checked() {
        assert!(problem("short", &[]).is_some());
        assert!(problem("has a space in it ok", &[]).is_some());
        assert!(problem(&"x".repeat(41), &[]).is_some());
        for weak in ["aaaaaaaaaaaaaaaa", "1234567890123456", "abcdefghijklmnop", "passwordpassword", "qwertyuiopasdfgh", "CP-00042CP-00042"] {
            assert!(problem(weak, &["CP-00042"]).is_some(), "{weak} is too easy to guess");
        }
        assert!(problem("Correct-Horse-Battery-9", &["CP-00042"]).is_none());
        assert!(problem("k7#Vq2!mZr8@Lp4$", &[]).is_none());
    }

    #[test]
    fn the_kdf_is_argon2id_made_for_a_handshake() {
        let phc = kdf().hash_password(b"Correct-Horse-Battery-9", &SaltString::generate(&mut argon2::password_hash::rand_core::OsRng)).unwrap().to_string();
        assert!(phc.starts_with("$argon2id$v=19$m=8192,t=1,p=1$"), "{phc}");
        assert!(auth::verify_password("Correct-Horse-Battery-9", &phc));
        assert!(!auth::verify_password("Correct-Horse-Battery-8", &phc));
    }
}
