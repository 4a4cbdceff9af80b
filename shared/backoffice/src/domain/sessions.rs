//! Sign-in sessions. A token names its session; deleting the session is
//! what makes logout (and a password change) revoke tokens at once.
//!
//! A session also holds the hash of its one current refresh token (opaque,
//! `{base64url(username)}.{sid}.{secret}`), which `/refreshToken` trades
//! for a new access token and a new refresh token. The hashes of the
//! tokens already traded are kept: one presented again means two holders
//! (a stolen copy), and the whole session ends. A session also ends after
//! the idle timeout (operations settings) without a request, and at its
//! absolute limit (`BACKOFFICE_SESSION_TTL`) whatever happens.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use envelope::{msg, ApiError};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};
use store::{Condition, Query, SortKey, TxOp, UpdateAction};

use super::users::User;
use super::{from_item, keys, to_item, StoreResultExt};
use crate::ctx::AppCtx;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Session {
    pub sid: String,
    pub username: String,
    pub created_at: i64,
    pub expires_at: i64,
    #[serde(default)]
    pub ip: String,
    /// DynamoDB TTL attribute: the store drops the record a day after expiry.
    #[serde(default)]
    pub ttl: i64,
    /// SHA-256 (hex) of the current refresh token's secret.
    #[serde(default)]
    pub refresh_hash: String,
    /// Hashes of refresh tokens already traded (newest last, at most
    /// [`USED_REFRESH_KEPT`]): one presented again ends the session.
    #[serde(default)]
    pub used_refresh_hashes: Vec<String>,
    /// Unix seconds of the last request seen (written at most once per
    /// [`LAST_SEEN_STEP_SECS`]); 0 for sessions older than the field.
    #[serde(default)]
    pub last_seen: i64,
}

/// How many traded refresh tokens a session remembers for reuse detection
/// (a token older than that is simply unknown: 401 without ending the
/// session).
pub const USED_REFRESH_KEPT: usize = 20;
/// The idle clock's resolution: a request writes the session's last-seen
/// time only when it is at least this old, so a busy page costs one write
/// a minute, not one per request.
pub const LAST_SEEN_STEP_SECS: i64 = 60;

impl Session {
    /// When the session last showed activity.
    pub fn last_active(&self) -> i64 {
        self.last_seen.max(self.created_at)
    }

    /// Whether the session has been idle longer than `idle_secs` at `now`.
    pub fn idle_at(&self, now: i64, idle_secs: i64) -> bool {
        now - self.last_active() > idle_secs
    }
}

/// A refresh token: who, which session, and the one-use secret.
#[derive(Debug, Clone, PartialEq)]
pub struct RefreshToken {
    pub username: String,
    pub sid: String,
    secret: String,
}

impl RefreshToken {
    fn new(username: &str, sid: &str) -> Self {
        let mut raw = [0u8; 32];
        rand::thread_rng().fill_bytes(&mut raw);
        RefreshToken { username: username.into(), sid: sid.into(), secret: URL_SAFE_NO_PAD.encode(raw) }
    }

    /// Reads a presented token; `None` when it is not one of ours in shape.
    pub fn parse(raw: &str) -> Option<Self> {
        let mut parts = raw.trim().split('.');
        let (user, sid, secret) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || sid.is_empty() || secret.len() != 43 {
            return None;
        }
        let username = String::from_utf8(URL_SAFE_NO_PAD.decode(user).ok()?).ok()?;
        let sid_ok = sid.len() <= 64 && sid.bytes().all(|b| b.is_ascii_alphanumeric());
        (!username.is_empty() && sid_ok).then(|| RefreshToken { username, sid: sid.into(), secret: secret.into() })
    }

    /// What the client keeps and sends back.
    pub fn encode(&self) -> String {
        format!("{}.{}.{}", URL_SAFE_NO_PAD.encode(self.username.as_bytes()), self.sid, self.secret)
    }

    /// What the session stores (never the token itself).
    pub fn hash(&self) -> String {
        Sha256::digest(self.secret.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// Starts a session for the user; returns it with its first refresh token.
pub async fn start(ctx: &AppCtx, username: &str, ip: &str) -> Result<(Session, RefreshToken), ApiError> {
    let now = ctx.now();
    let expires_at = now + ctx.config.session_ttl_secs;
    let sid = uuid::Uuid::new_v4().simple().to_string();
    let refresh = RefreshToken::new(username, &sid);
    let session = Session {
        sid,
        username: username.to_string(),
        created_at: now,
        expires_at,
        ip: ip.to_string(),
        ttl: expires_at + 86_400,
        refresh_hash: refresh.hash(),
        used_refresh_hashes: Vec::new(),
        last_seen: now,
    };
    let key = keys::session(username, &session.sid);
    ctx.store
        .put(to_item(&session, &[(store::PK, key.pk), (store::SK, key.sk)]), Some(Condition::item_absent()))
        .await
        .api()?;
    Ok((session, refresh))
}

/// Why a refresh token was not traded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefreshRefused {
    /// Unknown token, or the session is gone or past its absolute limit.
    Ended,
    /// No request for longer than the idle timeout: the session was ended.
    Idle,
    /// A token already traded came back: the session was ended.
    Reused,
}

impl RefreshRefused {
    pub fn to_error(self) -> ApiError {
        let text = match self {
            RefreshRefused::Ended => msg::auth::session_ended(),
            RefreshRefused::Idle => msg::auth::signed_out_idle(),
            RefreshRefused::Reused => msg::auth::refresh_reused(),
        };
        ApiError::unauthorized(text)
    }
}

/// Trades a refresh token for the next one (one use): the session must be
/// live, not idle, and hold this token as its current one. A token already
/// traded ends the session; of two racing trades of one token only one
/// wins and the other counts as reuse.
pub async fn rotate(ctx: &AppCtx, presented: &RefreshToken, idle_secs: i64) -> Result<Result<(Session, RefreshToken), RefreshRefused>, ApiError> {
    let now = ctx.now();
    let key = keys::session(&presented.username, &presented.sid);
    let Some(item) = ctx.store.get(&key).await.api()? else { return Ok(Err(RefreshRefused::Ended)) };
    let session: Session = from_item(item)?;
    if session.expires_at <= now {
        return Ok(Err(RefreshRefused::Ended));
    }
    let hash = presented.hash();
    let current = !session.refresh_hash.is_empty() && bool::from(subtle::ConstantTimeEq::ct_eq(hash.as_bytes(), session.refresh_hash.as_bytes()));
    if !current {
        if session.used_refresh_hashes.iter().any(|h| h == &hash) {
            tracing::warn!(user = %session.username, sid = %session.sid, "a refresh token was presented twice: session ended");
            end(ctx, &session.username, &session.sid).await?;
            return Ok(Err(RefreshRefused::Reused));
        }
        return Ok(Err(RefreshRefused::Ended));
    }
    if session.idle_at(now, idle_secs) {
        end(ctx, &session.username, &session.sid).await?;
        return Ok(Err(RefreshRefused::Idle));
    }
    let next = RefreshToken::new(&session.username, &session.sid);
    let next_hash = next.hash();
    let mut used = session.used_refresh_hashes.clone();
    used.push(hash.clone());
    let drop = used.len().saturating_sub(USED_REFRESH_KEPT);
    used.drain(..drop);
    let actions = vec![
        UpdateAction::Set("refreshHash".into(), json!(next_hash)),
        UpdateAction::Set("usedRefreshHashes".into(), json!(used)),
        UpdateAction::Set("lastSeen".into(), json!(now)),
    ];
    match ctx.store.update(&key, actions, Some(Condition::Eq("refreshHash".into(), json!(hash)))).await {
        Ok(_) => {}
        Err(store::StoreError::ConditionFailed) => {
            // Another trade of this same token won: two holders.
            tracing::warn!(user = %session.username, sid = %session.sid, "a refresh token was traded twice at once: session ended");
            end(ctx, &session.username, &session.sid).await?;
            return Ok(Err(RefreshRefused::Reused));
        }
        Err(e) => return Err(crate::domain::store_error(e)),
    }
    Ok(Ok((Session { refresh_hash: next_hash, used_refresh_hashes: used, last_seen: now, ..session }, next)))
}

/// Notes a request on the session (at most once per [`LAST_SEEN_STEP_SECS`]):
/// what the idle timeout counts from. A failure only costs precision.
pub async fn touch(ctx: &AppCtx, session: &Session, now: i64) {
    if now - session.last_active() < LAST_SEEN_STEP_SECS {
        return;
    }
    let key = keys::session(&session.username, &session.sid);
    let set = vec![UpdateAction::Set("lastSeen".into(), json!(now))];
    if let Err(e) = ctx.store.update(&key, set, Some(Condition::item_exists())).await {
        if !matches!(e, store::StoreError::ConditionFailed) {
            tracing::warn!(error = %e, "the session's last-seen time was not written");
        }
    }
}

/// Issues an access token for a session.
pub fn issue_token(ctx: &AppCtx, session: &Session) -> Result<String, ApiError> {
    ctx.keys
        .issue(&session.username, &session.sid, session.created_at, ctx.now(), ctx.config.access_token_ttl_secs)
        .map_err(|e| {
            tracing::error!(error = %e, "token could not be issued");
            ApiError::internal()
        })
}

/// The user and the session in one store call.
pub async fn load_user_and_session(
    ctx: &AppCtx,
    username: &str,
    sid: &str,
) -> Result<(Option<User>, Option<Session>), ApiError> {
    let mut found = ctx.store.batch_get(&[keys::user(username), keys::session(username, sid)]).await.api()?;
    let session = found.pop().flatten().map(from_item).transpose()?;
    let user = found.pop().flatten().map(from_item).transpose()?;
    Ok((user, session))
}

/// Ends one session.
pub async fn end(ctx: &AppCtx, username: &str, sid: &str) -> Result<(), ApiError> {
    ctx.store.delete(&keys::session(username, sid), None).await.api()?;
    Ok(())
}

/// Ends every session of the user except `keep` (after a password change).
pub async fn end_all_except(ctx: &AppCtx, username: &str, keep: Option<&str>) -> Result<usize, ApiError> {
    let mut ended = 0;
    let mut cursor = None;
    loop {
        let page = ctx
            .store
            .query(
                Query::partition(keys::user_pk(username))
                    .sort_key(SortKey::BeginsWith("SESSION#".into()))
                    .limit(100)
                    .after(cursor),
            )
            .await
            .api()?;
        let ops: Vec<TxOp> = page
            .items
            .iter()
            .filter_map(store::Key::of)
            .filter(|k| keep.is_none_or(|sid| k.sk != format!("SESSION#{sid}")))
            .map(|key| TxOp::Delete { key, condition: None })
            .collect();
        ended += ops.len();
        for chunk in ops.chunks(store::MAX_TRANSACT_OPS) {
            ctx.store.transact(chunk.to_vec()).await.api()?;
        }
        cursor = page.cursor;
        if cursor.is_none() {
            return Ok(ended);
        }
    }
}
