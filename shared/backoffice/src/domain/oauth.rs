//! Social login's pending authorizations and the links between staff
//! accounts and provider identities.
//!
//! A flow starts with [`begin`]: an opaque `state` (looked up by its hash,
//! so it can never pass for an access token, which is a JWT), a PKCE
//! verifier (RFC 7636, S256; kept here, only its challenge goes to the
//! provider) and a `binding` secret the SPA keeps in the tab's
//! sessionStorage. [`take`] accepts a returning `state` once, within
//! [`STATE_TTL_SECS`], and only together with the binding of the browser
//! that started it: a state lured into another browser (login CSRF) or
//! replayed is refused. A wrong binding does not use the state up, so a
//! stranger cannot spoil the owner's sign-in.
//!
//! Identities are linked by the provider's subject (`sub`), never by an
//! e-mail (users edit theirs), and only from the personal center by the
//! signed-in owner. A link is two items written together: the identity's
//! (`SOCIAL#{provider}#{subject}`, which account it signs in as) and the
//! account's (`USER#{name}` / `SOCIAL#{provider}`, which identity), so a
//! sign-in checks both agree and the account lists and removes its own.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use envelope::{msg, ApiError};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use store::{Condition, Query, SortKey, StoreError, TxOp};
use subtle::ConstantTimeEq;

use super::{from_item, keys, to_item, StoreResultExt};
use crate::ctx::AppCtx;

/// How long the user has at the provider.
pub const STATE_TTL_SECS: i64 = 600;

/// What a pending authorization is for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "intent", rename_all = "camelCase")]
pub enum Intent {
    /// Sign in as the account linked to the identity.
    SignIn,
    /// Link the identity to this (signed-in) account.
    Link { username: String },
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PendingRecord {
    #[serde(flatten)]
    intent: Intent,
    binding_hash: String,
    verifier: String,
    expires_at: i64,
    /// DynamoDB TTL attribute: the store drops unused states.
    ttl: i64,
}

/// A started authorization: what the SPA needs to send the browser away.
pub struct Started {
    pub state: String,
    pub binding: String,
    /// `code_challenge` for the authorize URL (S256 of the verifier).
    pub challenge: String,
}

/// An accepted return: what the code exchange needs.
#[derive(Debug)]
pub struct Accepted {
    pub intent: Intent,
    /// `code_verifier` for the token request.
    pub verifier: String,
}

fn secret() -> String {
    let mut raw = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut raw);
    URL_SAFE_NO_PAD.encode(raw)
}

fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// The PKCE S256 challenge of a verifier (RFC 7636 §4.2).
pub fn challenge_of(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

fn state_key(state: &str) -> store::Key {
    keys::oauth_state(&sha256_hex(state))
}

pub async fn begin(ctx: &AppCtx, intent: Intent) -> Result<Started, ApiError> {
    let (state, binding, verifier) = (secret(), secret(), secret());
    let expires_at = ctx.now() + STATE_TTL_SECS;
    let record = PendingRecord { intent, binding_hash: sha256_hex(&binding), verifier: verifier.clone(), expires_at, ttl: expires_at + 86_400 };
    let key = state_key(&state);
    ctx.store.put(to_item(&record, &[(store::PK, key.pk), (store::SK, key.sk)]), Some(Condition::item_absent())).await.api()?;
    Ok(Started { state, binding, challenge: challenge_of(&verifier) })
}

fn invalid_state() -> ApiError {
    ApiError::bad_request(msg::auth::social::invalid_state())
}

/// Accepts a returning state once, from the browser that started it.
pub async fn take(ctx: &AppCtx, state: &str, binding: &str) -> Result<Accepted, ApiError> {
    let state = state.trim();
    if state.is_empty() || state.len() > 128 {
        return Err(invalid_state());
    }
    let key = state_key(state);
    let Some(item) = ctx.store.get(&key).await.api()? else {
        return Err(invalid_state());
    };
    let record: PendingRecord = from_item(item)?;
    if record.expires_at <= ctx.now() {
        return Err(invalid_state());
    }
    let presented = sha256_hex(binding.trim());
    if !bool::from(presented.as_bytes().ct_eq(record.binding_hash.as_bytes())) {
        return Err(ApiError::bad_request(msg::auth::social::other_browser()));
    }
    // One use: of two returns racing with the same state, one deletes it.
    match ctx.store.delete(&key, Some(Condition::item_exists())).await {
        Ok(_) => Ok(Accepted { intent: record.intent, verifier: record.verifier }),
        Err(StoreError::ConditionFailed) => Err(invalid_state()),
        Err(e) => Err(super::store_error(e)),
    }
}

/// The account side of a link: which identity of a provider it holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountLink {
    pub provider: String,
    pub subject: String,
    pub linked_at: i64,
}

/// The identity side: which account it signs in as.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct IdentityLink {
    username: String,
    linked_at: i64,
}

/// The account an identity signs in as, when both sides of its link agree.
pub async fn linked_account(ctx: &AppCtx, provider: &str, subject: &str) -> Result<Option<String>, ApiError> {
    let Some(item) = ctx.store.get(&keys::social_link(provider, subject)).await.api()? else {
        return Ok(None);
    };
    let identity: IdentityLink = from_item(item)?;
    // A link left behind by a deleted account must not sign in as a new
    // account that took the same name: the account must hold it too.
    let Some(own) = ctx.store.get(&keys::user_social(&identity.username, provider)).await.api()? else {
        return Ok(None);
    };
    let own: AccountLink = from_item(own)?;
    Ok((own.subject == subject).then_some(identity.username))
}

/// Links an identity to an account: refused when the identity is linked to
/// anyone already or the account already holds one of this provider.
pub async fn link(ctx: &AppCtx, username: &str, provider: &str, subject: &str) -> Result<AccountLink, ApiError> {
    let now = ctx.now();
    let identity_key = keys::social_link(provider, subject);
    let account_key = keys::user_social(username, provider);
    let account = AccountLink { provider: provider.into(), subject: subject.into(), linked_at: now };
    let identity = IdentityLink { username: username.into(), linked_at: now };
    let ops = vec![
        TxOp::Put { item: to_item(&identity, &[(store::PK, identity_key.pk), (store::SK, identity_key.sk)]), condition: Some(Condition::item_absent()) },
        TxOp::Put { item: to_item(&account, &[(store::PK, account_key.pk), (store::SK, account_key.sk)]), condition: Some(Condition::item_absent()) },
        // The account must still exist (it may have been deleted meanwhile).
        TxOp::Check { key: keys::user(username), condition: Condition::item_exists() },
    ];
    match ctx.store.transact(ops).await {
        Ok(()) => Ok(account),
        Err(StoreError::TransactionCanceled { failed }) if failed.contains(&0) => Err(ApiError::conflict(msg::auth::social::identity_taken())),
        Err(StoreError::TransactionCanceled { failed }) if failed.contains(&1) => Err(ApiError::conflict(msg::auth::social::already_linked())),
        Err(e) => Err(super::store_error(e)),
    }
}

/// The identities an account holds.
pub async fn links_of(ctx: &AppCtx, username: &str) -> Result<Vec<AccountLink>, ApiError> {
    let page = ctx
        .store
        .query(Query::partition(keys::user_pk(username)).sort_key(SortKey::BeginsWith(keys::USER_SOCIAL_PREFIX.into())).limit(50))
        .await
        .api()?;
    page.items.into_iter().map(from_item).collect()
}

/// Removes an account's link with a provider (both sides); false when there
/// was none.
pub async fn unlink(ctx: &AppCtx, username: &str, provider: &str) -> Result<bool, ApiError> {
    let account_key = keys::user_social(username, provider);
    let Some(item) = ctx.store.get(&account_key).await.api()? else {
        return Ok(false);
    };
    let own: AccountLink = from_item(item)?;
    let ops = vec![
        TxOp::Delete { key: account_key, condition: None },
        // Only the identity's side that points here (never another account's).
        TxOp::Delete {
            key: keys::social_link(provider, &own.subject),
            condition: Some(Condition::Or(vec![
                Condition::NotExists(store::PK.into()),
                Condition::Eq("username".into(), serde_json::Value::String(username.into())),
            ])),
        },
    ];
    match ctx.store.transact(ops).await {
        Ok(()) => Ok(true),
        // The identity now belongs elsewhere: remove only our side.
        Err(StoreError::TransactionCanceled { .. }) => {
            ctx.store.delete(&keys::user_social(username, provider), None).await.api()?;
            Ok(true)
        }
        Err(e) => Err(super::store_error(e)),
    }
}

/// Removes every link of an account (when it is deleted).
pub async fn unlink_all(ctx: &AppCtx, username: &str) -> Result<(), ApiError> {
    for link in links_of(ctx, username).await? {
        unlink(ctx, username, &link.provider).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_challenge_is_rfc_7636s_s256() {
        // RFC 7636, appendix B.
        assert_eq!(challenge_of("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    }

    #[test]
    fn secrets_are_43_url_safe_characters() {
        let s = secret();
        assert_eq!(s.len(), 43, "RFC 7636 wants 43-128 characters");
        assert!(s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        assert_ne!(s, secret());
    }
}
