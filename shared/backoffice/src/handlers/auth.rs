//! Sign-in, session and account endpoints: a sign-in answers the token in
//! `data.token`; later calls carry it in the `Authorization` header.

use envelope::{msg, ApiError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ctx::AppCtx;
use crate::domain::sessions;
use crate::domain::throttle;
use crate::domain::users::{self, User};
use crate::reply::Reply;
use crate::request::{ApiRequest, Call};
use crate::session::{authenticate, token_invalid, Expired};

#[derive(Deserialize, JsonSchema)]
#[schemars(extend("required" = ["username", "password"]))]
pub(crate) struct Credentials {
    #[schemars(length(min = 1))]
    #[serde(default)]
    username: names::UserName,
    #[schemars(length(min = 6, max = 128))]
    #[serde(default)]
    password: String,
}

/// The single answer for an unknown user or a wrong password, so the
/// answer does not tell which usernames exist.
fn bad_credentials() -> ApiError {
    ApiError::bad_request(msg::auth::wrong_credentials())
}

/// A sign-in body (login, register, social login): plain JSON. The
/// template's RSA-encrypted form (`{"param": ...}`) is not accepted: this server
/// announces no key at /publicKey, and TLS protects the payload.
pub(crate) fn login_payload<T: serde::de::DeserializeOwned>(_ctx: &AppCtx, req: &ApiRequest) -> Result<T, ApiError> {
    req.payload()
}

/// The `data` of a sign-in or a refresh.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TokenData {
    /// The access token; send it as `Authorization: Bearer <token>`. It
    /// expires after `BACKOFFICE_ACCESS_TOKEN_TTL` (calls then answer 402).
    pub token: String,
    /// The one-use refresh token: send it as `X-Refresh-Token` to
    /// GET /refreshToken for the next pair. Sending one a second time ends
    /// the session.
    pub refresh_token: String,
}

/// POST /login/index
pub async fn login(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let creds: Credentials = login_payload(ctx, &call.req)?;
    let username = creds.username.as_str();
    if username.is_empty() {
        return Err(ApiError::bad_request(msg::auth::user_name_empty()));
    }
    if creds.password.chars().count() < 6 {
        return Err(ApiError::bad_request(msg::auth::password_too_short()));
    }
    let ip = call.req.client_ip.as_str();
    // A browser that signed in to this account before brings its device
    // token: its tries are counted per device, and guesses from elsewhere
    // never refuse it.
    let device = call.req.cookie(&auth::device::cookie_name(username)).and_then(|token| ctx.device_key.verify(token, username, ctx.now()));
    // Counted before the password is checked: parallel guesses cannot
    // outrun the limit.
    let attempt = throttle::begin(ctx, username, ip, device.as_ref()).await?;
    let user = users::get_with_password(ctx, username).await?;
    let verified = match &user {
        Some(u) => crate::password_work::verify(&creds.password, &u.password_hash).await?,
        None => {
            crate::password_work::dummy_verify(&creds.password).await?;
            false
        }
    };
    let user = match user {
        Some(u) if verified => u,
        _ => return Err(bad_credentials()),
    };
    attempt.succeeded(ctx).await?;
    if !user.enabled {
        return Err(ApiError::bad_request(msg::auth::disabled()));
    }
    rehash_if_weak(ctx, &user, &creds.password).await;
    let tokens = start_session(ctx, &user.username, ip).await?;
    let mut answer = envelope::ok_response(&tokens);
    answer.headers_mut().append(http::header::SET_COOKIE, device_cookie(ctx, &user.username, call.req.https));
    Ok(Reply::Raw(answer))
}

/// A new device token for the account, as the cookie that carries it:
/// HttpOnly (no script reads it), SameSite=Strict (no other site's page
/// sends it), sent only with sign-ins, Secure when the browser came over
/// https, kept for [`auth::DEVICE_TOKEN_MAX_AGE_SECS`].
fn device_cookie(ctx: &AppCtx, account: &str, https: bool) -> http::HeaderValue {
    let token = ctx.device_key.issue(account, ctx.now());
    let cookie = format!(
        "{}={token}; Path={}/login; Max-Age={}; HttpOnly; SameSite=Strict{}",
        auth::device::cookie_name(account),
        crate::API_BASE,
        auth::DEVICE_TOKEN_MAX_AGE_SECS,
        if https { "; Secure" } else { "" }
    );
    http::HeaderValue::from_str(&cookie).expect("a device cookie is ASCII")
}

/// A hash made with weaker argon2 parameters than today's (or another
/// algorithm) is replaced at the first sign-in that proves the password,
/// and one still kept in the user's record the old way moves to its own
/// item. A failure only means the next sign-in tries again.
async fn rehash_if_weak(ctx: &AppCtx, user: &users::User, password: &str) {
    let weak = auth::needs_rehash(&user.password_hash);
    if !weak && !user.has_legacy_hash() {
        return;
    }
    let result = match weak {
        true => crate::password_work::hash(password).await,
        false => Ok(user.password_hash.clone()),
    };
    let result = match result {
        Ok(hash) => users::set_password_hash(ctx, user, hash).await,
        Err(e) => Err(e),
    };
    match (result, weak) {
        (Ok(()), true) => tracing::info!(user = %user.username, "password hash upgraded to the current argon2 parameters"),
        (Ok(()), false) => tracing::info!(user = %user.username, "password hash moved to its own item"),
        (Err(e), _) => tracing::warn!(user = %user.username, error = %e.msg.en, "password hash upgrade failed; the next sign-in tries again"),
    }
}

/// Starts a session and answers its first access and refresh tokens.
pub async fn start_session(ctx: &AppCtx, username: &str, ip: &str) -> Result<TokenData, ApiError> {
    let (session, refresh) = sessions::start(ctx, username, ip).await?;
    Ok(TokenData { token: sessions::issue_token(ctx, &session)?, refresh_token: refresh.encode() })
}

/// The `data` of /index/userInfo.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UserInfo {
    pub username: String,
    /// The avatar URL (the SPA's default when none is set).
    pub avatar: String,
    pub roles: Vec<String>,
    pub permissions: Vec<String>,
    pub user_type: i64,
    pub email: String,
    /// "Member since", as the user list shows it.
    #[serde(rename = "datatime")]
    pub member_since: String,
    /// The operator's time zone (IANA name, an operations setting): every
    /// date and time is shown and typed in it.
    #[serde(rename = "timeZone")]
    pub time_zone: String,
}

/// GET /index/userInfo
pub async fn user_info(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let caller = call.caller()?;
    let user = &caller.user;
    let time_zone = crate::domain::operations::current(ctx).await?.time_zone;
    Ok(Reply::data(UserInfo {
        username: user.username.clone(),
        avatar: user.avatar_or_default().to_string(),
        roles: caller.principal.roles.clone(),
        permissions: caller.principal.permissions.clone(),
        user_type: user.user_type,
        email: user.email.clone(),
        member_since: crate::domain::format_time(user.created_at),
        time_zone,
    }))
}

/// GET /login/logout: ends the session, so its tokens stop working.
pub async fn logout(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let caller = call.caller()?;
    sessions::end(ctx, caller.username(), &caller.session_id).await?;
    Ok(Reply::message(msg::auth::signed_out()))
}

#[derive(Deserialize, JsonSchema)]
#[schemars(extend("required" = ["username", "password"]))]
pub(crate) struct Registration {
    #[schemars(regex(pattern = r"^[A-Za-z0-9_.@-]{2,32}$"))]
    #[serde(default)]
    username: names::UserName,
    #[schemars(length(min = 12, max = 128))]
    #[serde(default)]
    password: String,
    #[serde(default)]
    email: String,
}

/// POST /register: a new account without any role; an administrator
/// grants roles later. Closed in production unless configured open.
pub async fn register(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    if !ctx.config.allow_register {
        return Err(ApiError::new(
            403,
            msg::auth::registration_closed(),
        ));
    }
    let reg: Registration = login_payload(ctx, &call.req)?;
    let username = users::validate_username(&reg.username)?;
    users::validate_password(&reg.password, &username, "password")?;
    let email = reg.email.trim().to_string();
    if !email.is_empty() && !crate::validate::is_email(&email) {
        return Err(ApiError::bad_request(msg::auth::bad_email()));
    }
    let hash = crate::password_work::hash(&reg.password).await?;
    let mut user = User::new(&username, hash, Vec::new(), ctx.now());
    user.email = email;
    users::create(ctx, &user).await?;
    let tokens = start_session(ctx, &user.username, &call.req.client_ip).await?;
    Ok(Reply::data_with_msg(tokens, msg::auth::registered()))
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("required" = ["oldPassword", "newPassword"]))]
pub(crate) struct PasswordChange {
    #[serde(default)]
    old_password: String,
    #[schemars(length(min = 12, max = 128))]
    #[serde(default)]
    new_password: String,
}

/// POST /user/changePassword: checks the old password, stores the new
/// one and ends every other session of the user.
pub async fn change_password(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let caller = call.caller()?;
    let change: PasswordChange = call.req.payload()?;
    let attempt = throttle::begin_for_session(ctx, caller.username(), &caller.session_id, &call.req.client_ip).await?;
    let user = users::get_with_password(ctx, caller.username()).await?.ok_or_else(|| ApiError::standard(401))?;
    if !crate::password_work::verify(&change.old_password, &user.password_hash).await? {
        return Err(ApiError::bad_request(msg::auth::wrong_current_password()));
    }
    attempt.succeeded(ctx).await?;
    users::validate_password(&change.new_password, caller.username(), "newPassword")?;
    if change.new_password == change.old_password {
        return Err(ApiError::bad_request(msg::auth::same_password()));
    }
    users::set_password_hash(ctx, &user, crate::password_work::hash(&change.new_password).await?).await?;
    sessions::end_all_except(ctx, caller.username(), Some(&caller.session_id)).await?;
    Ok(Reply::message(msg::auth::password_changed()))
}

/// The `data` of /expireToken for a valid token.
#[derive(Serialize, JsonSchema)]
pub(crate) struct TokenCheck {
    pub expired: bool,
    /// When the token expires (Unix seconds).
    pub exp: i64,
}

/// GET /expireToken: 200 while the token is valid and its session live,
/// 402 once the token expired, 401 when it is not ours or its session
/// has ended (signed out, idle, past its limit).
pub async fn expire_token(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    authenticate(ctx, &call.req, Expired::Refuse).await?;
    let token = auth::bearer_token(call.req.authorization()).ok_or_else(crate::session::not_signed_in)?;
    match ctx.keys.verify(token, ctx.now()) {
        Ok(claims) => Ok(Reply::data(TokenCheck { expired: false, exp: claims.exp })),
        Err(auth::TokenError::Expired(_)) => Err(ApiError::token_expired()),
        Err(auth::TokenError::Invalid) => Err(token_invalid()),
    }
}

/// The header that carries the refresh token.
pub const REFRESH_TOKEN_HEADER: &str = "x-refresh-token";

/// GET /refreshToken: trades the refresh token (header `X-Refresh-Token`)
/// for a new access token and the next refresh token. The access token is
/// not needed and, expired or not, never enough: a stolen access token
/// dies with its short lifetime.
pub async fn refresh_token(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let presented = call.req.header(REFRESH_TOKEN_HEADER).ok_or_else(|| {
        ApiError::unauthorized(msg::auth::no_refresh_token())
    })?;
    let presented = sessions::RefreshToken::parse(presented).ok_or_else(|| sessions::RefreshRefused::Ended.to_error())?;
    let idle_secs = crate::domain::operations::current(ctx).await?.idle_timeout_secs();
    let (session, next) = sessions::rotate(ctx, &presented, idle_secs).await?.map_err(sessions::RefreshRefused::to_error)?;
    let user = users::get(ctx, &session.username).await?.filter(|u| u.enabled);
    if user.is_none() {
        sessions::end(ctx, &session.username, &session.sid).await?;
        return Err(token_invalid());
    }
    Ok(Reply::data(TokenData { token: sessions::issue_token(ctx, &session)?, refresh_token: next.encode() }))
}

/// The `data` of /publicKey.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PublicKey {
    /// Always empty: sign-in payloads are not RSA-encrypted (TLS protects
    /// them), which tells a spec client to send plain JSON.
    pub public_key: String,
    pub mock_server: bool,
}

/// GET /publicKey: no key (see [`PublicKey`]).
pub async fn public_key(_ctx: &AppCtx, _call: Call) -> Result<Reply, ApiError> {
    Ok(Reply::data(PublicKey { public_key: String::new(), mock_server: false }))
}
