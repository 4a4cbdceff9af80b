//! Sign-in sessions. A token names its session; deleting the session is
//! what makes logout (and a password change) revoke tokens at once.

use envelope::ApiError;
use serde::{Deserialize, Serialize};
use store::{Condition, Query, SortKey, TxOp};

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
}

/// Starts a session for the user and returns it.
pub async fn start(ctx: &AppCtx, username: &str, ip: &str) -> Result<Session, ApiError> {
    let now = ctx.now();
    let expires_at = now + ctx.config.session_ttl_secs;
    let session = Session {
        sid: uuid::Uuid::new_v4().simple().to_string(),
        username: username.to_string(),
        created_at: now,
        expires_at,
        ip: ip.to_string(),
        ttl: expires_at + 86_400,
    };
    let key = keys::session(username, &session.sid);
    ctx.store
        .put(to_item(&session, &[(store::PK, key.pk), (store::SK, key.sk)]), Some(Condition::item_absent()))
        .await
        .api()?;
    Ok(session)
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
