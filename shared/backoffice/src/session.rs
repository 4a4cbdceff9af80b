//! Who is calling: verifies the bearer token, then loads the user and the
//! session in one store call so a revoked session or a disabled account
//! stops working at once.

use auth::TokenError;
use envelope::{msg, ApiError};
use permission::Principal;

use crate::ctx::AppCtx;
use crate::domain::{sessions, users};
use crate::request::ApiRequest;

/// The authenticated caller of a request.
#[derive(Debug, Clone)]
pub struct Caller {
    pub user: users::User,
    pub session_id: String,
    /// When the session started (sign-in time).
    pub auth_time: i64,
    pub principal: Principal,
}

impl Caller {
    pub fn username(&self) -> &str {
        &self.user.username
    }
}

/// How a route treats an expired token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expired {
    /// 402: the client refreshes and retries.
    Refuse,
    /// Accepted (logout, refresh): the session itself must still be live.
    Accept,
}

pub fn not_signed_in() -> ApiError {
    ApiError::unauthorized(msg::auth::not_signed_in())
}

pub fn token_invalid() -> ApiError {
    ApiError::unauthorized(msg::auth::token_invalid())
}

pub fn session_ended() -> ApiError {
    ApiError::unauthorized(msg::auth::session_ended())
}

/// Authenticates the request's bearer token.
pub async fn authenticate(ctx: &AppCtx, req: &ApiRequest, expired: Expired) -> Result<Caller, ApiError> {
    let token = auth::bearer_token(req.authorization()).ok_or_else(not_signed_in)?;
    let now = ctx.now();
    let claims = match ctx.keys.verify(token, now) {
        Ok(claims) => claims,
        Err(TokenError::Expired(claims)) if expired == Expired::Accept => claims,
        Err(TokenError::Expired(_)) => return Err(ApiError::token_expired()),
        Err(TokenError::Invalid) => return Err(token_invalid()),
    };
    let (user, session) = sessions::load_user_and_session(ctx, &claims.sub, &claims.sid).await?;
    let user = user.filter(|u| u.enabled).ok_or_else(token_invalid)?;
    let session = session.ok_or_else(session_ended)?;
    if session.expires_at <= now {
        return Err(session_ended());
    }
    let idle_secs = crate::domain::operations::current(ctx).await?.idle_timeout_secs();
    if session.idle_at(now, idle_secs) {
        sessions::end(ctx, &session.username, &session.sid).await?;
        return Err(sessions::RefreshRefused::Idle.to_error());
    }
    sessions::touch(ctx, &session, now).await;
    let permissions = ctx.roles.permissions_of(ctx, &user.roles).await?;
    let principal = Principal {
        username: user.username.clone(),
        roles: user.roles.clone(),
        permissions,
    };
    Ok(Caller { user, session_id: claims.sid, auth_time: session.created_at, principal })
}
