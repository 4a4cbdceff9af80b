//! Social login: the OAuth 2.0 / OpenID Connect authorization-code flow
//! with PKCE against the configured provider, for signing in and for
//! linking an identity to one's own account.
//!
//! 1. The SPA asks `POST /socialLogin/authorize` (or, signed in,
//!    `POST /user/socialLink/authorize`) and gets the provider URL, the
//!    `state` and a `binding` it keeps in the tab's sessionStorage.
//! 2. The provider sends the browser back to the site root with `code` and
//!    `state`; the SPA posts `{code, state, binding}` to `/socialLogin` (or
//!    `/user/socialLink`).
//! 3. We accept the state once (`domain::oauth::take`), exchange the code
//!    with the PKCE verifier and the client secret server-side (neither
//!    ever reaches the browser), and read the identity's subject.
//!
//! An identity signs in only as the staff account that linked it from its
//! personal center. Nobody gets an account by holding an identity, and no
//! e-mail address links anything (users can edit theirs).

use envelope::{msg, ApiError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::config::OAuthProvider;
use crate::ctx::AppCtx;
use crate::domain::oauth::{self, Intent};
use crate::handlers::auth::start_session;
use crate::reply::Reply;
use crate::request::Call;

fn provider(ctx: &AppCtx) -> Result<&OAuthProvider, ApiError> {
    ctx.config.oauth.as_ref().ok_or_else(|| {
        ApiError::bad_request(msg::auth::social::not_configured())
    })
}

/// One configured provider, as the login page shows it.
#[derive(Serialize, JsonSchema)]
pub struct ProviderInfo {
    /// The provider's name (`BACKOFFICE_OAUTH_NAME`), shown on the button.
    pub name: String,
}

/// The `data` of GET /socialLogin/providers.
#[derive(Serialize, JsonSchema)]
pub struct Providers {
    /// Empty when social login is not configured.
    pub providers: Vec<ProviderInfo>,
}

/// The providers this server offers (none when social login is not configured).
fn offered(ctx: &AppCtx) -> Vec<ProviderInfo> {
    ctx.config.oauth.iter().map(|p| ProviderInfo { name: p.name.clone() }).collect()
}

/// GET /socialLogin/providers
pub async fn providers(ctx: &AppCtx, _call: Call) -> Result<Reply, ApiError> {
    let providers = offered(ctx);
    Ok(Reply::data(Providers { providers }))
}

/// The `data` of the authorize routes.
#[derive(Serialize, JsonSchema)]
pub struct Authorization {
    /// Where to send the browser (the provider's authorize endpoint with
    /// client id, redirect URI, scope, state and the PKCE challenge).
    pub url: String,
    /// Single use, valid for ten minutes.
    pub state: String,
    /// Keep it in this tab (sessionStorage) and send it back with the code:
    /// a return in another browser is refused.
    pub binding: String,
    pub provider: String,
}

async fn authorization(ctx: &AppCtx, intent: Intent) -> Result<Reply, ApiError> {
    let p = provider(ctx)?;
    let started = oauth::begin(ctx, intent).await?;
    let mut url = url::Url::parse(&p.authorize_url).map_err(|_| ApiError::internal())?;
    url.query_pairs_mut()
        .append_pair("response_type", "code")
        .append_pair("client_id", &p.client_id)
        .append_pair("redirect_uri", &p.redirect_uri)
        .append_pair("scope", "openid profile")
        .append_pair("state", &started.state)
        .append_pair("code_challenge", &started.challenge)
        .append_pair("code_challenge_method", "S256");
    Ok(Reply::data(Authorization { url: url.into(), state: started.state, binding: started.binding, provider: p.name.clone() }))
}

/// The authorize routes take no fields: send `{}`.
#[derive(Deserialize, JsonSchema)]
pub struct StartIn {}

/// POST /socialLogin/authorize: start a sign-in.
pub async fn authorize_sign_in(ctx: &AppCtx, _call: Call) -> Result<Reply, ApiError> {
    authorization(ctx, Intent::SignIn).await
}

/// POST /user/socialLink/authorize: start linking an identity to the
/// caller's own account.
pub async fn authorize_link(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let username = call.caller()?.username().to_string();
    authorization(ctx, Intent::Link { username }).await
}

/// What the SPA posts when the provider sent the browser back.
#[derive(Deserialize, JsonSchema)]
pub struct Callback {
    #[serde(default)]
    #[schemars(length(max = 2048))]
    code: String,
    #[serde(default)]
    #[schemars(length(max = 128))]
    state: String,
    /// The `binding` the authorize answer gave this browser.
    #[serde(default)]
    #[schemars(length(max = 128))]
    binding: String,
}

#[derive(Deserialize)]
struct TokenAnswer {
    access_token: String,
}

#[derive(Deserialize)]
struct Identity {
    sub: String,
}

fn not_obtained(detail: &str) -> ApiError {
    tracing::warn!(detail, "social login failed");
    ApiError::bad_request(msg::auth::social::failed())
}

/// Checks the return and asks the provider who the user is: the intent
/// the flow was started with and the identity's subject.
async fn identity_of(ctx: &AppCtx, call: &Call) -> Result<(Intent, String), ApiError> {
    let p = provider(ctx)?;
    let cb: Callback = call.req.payload()?;
    if cb.code.trim().is_empty() {
        return Err(ApiError::bad_request(msg::auth::social::no_code()));
    }
    let accepted = oauth::take(ctx, &cb.state, &cb.binding).await?;
    let token: TokenAnswer = ctx
        .http()
        .map_err(|e| not_obtained(&e))?
        .post(&p.token_url)
        .form(&[
            ("grant_type", "authorization_code"),
            ("code", cb.code.trim()),
            ("redirect_uri", p.redirect_uri.as_str()),
            ("client_id", p.client_id.as_str()),
            ("client_secret", p.client_secret.as_str()),
            ("code_verifier", accepted.verifier.as_str()),
        ])
        .send()
        .await
        .and_then(|r| r.error_for_status())
        .map_err(|e| not_obtained(&e.to_string()))?
        .json()
        .await
        .map_err(|e| not_obtained(&e.to_string()))?;
    let identity: Identity = ctx
        .http()
        .map_err(|e| not_obtained(&e))?
        .get(&p.userinfo_url)
        .bearer_auth(&token.access_token)
        .send()
        .await
        .and_then(|r| r.error_for_status())
        .map_err(|e| not_obtained(&e.to_string()))?
        .json()
        .await
        .map_err(|e| not_obtained(&e.to_string()))?;
    if identity.sub.trim().is_empty() || identity.sub.len() > 255 {
        return Err(not_obtained("the provider answered no usable subject"));
    }
    Ok((accepted.intent, identity.sub))
}

fn wrong_intent() -> ApiError {
    ApiError::bad_request(msg::auth::social::wrong_purpose())
}

/// POST /socialLogin {code, state, binding}: answers tokens like /login/index.
pub async fn social_login(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let (intent, subject) = identity_of(ctx, &call).await?;
    if intent != Intent::SignIn {
        return Err(wrong_intent());
    }
    let p = provider(ctx)?;
    let no_account = || {
        ApiError::bad_request(msg::auth::social::not_linked())
    };
    let username = oauth::linked_account(ctx, &p.name, &subject).await?.ok_or_else(no_account)?;
    let user = crate::domain::users::get(ctx, &username).await?.ok_or_else(no_account)?;
    if !user.enabled {
        return Err(ApiError::bad_request(msg::auth::disabled()));
    }
    Ok(Reply::data(start_session(ctx, &user.username, &call.req.client_ip).await?))
}

/// One identity linked to the caller's account.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkView {
    pub provider: String,
    /// Unix seconds.
    pub linked_at: i64,
}

/// The `data` of GET /user/socialLinks.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Links {
    /// The providers this server offers (empty when none is configured).
    pub providers: Vec<ProviderInfo>,
    pub links: Vec<LinkView>,
}

/// GET /user/socialLinks: the caller's linked identities.
pub async fn links(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let username = call.caller()?.username().to_string();
    let links = oauth::links_of(ctx, &username).await?.into_iter().map(|l| LinkView { provider: l.provider, linked_at: l.linked_at }).collect();
    let providers = offered(ctx);
    Ok(Reply::data(Links { providers, links }))
}

/// POST /user/socialLink {code, state, binding}: links the identity to the
/// caller's account (the flow must have been started by the same account).
pub async fn link(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let username = call.caller()?.username().to_string();
    let (intent, subject) = identity_of(ctx, &call).await?;
    match intent {
        Intent::Link { username: started_by } if started_by.eq_ignore_ascii_case(&username) => {}
        _ => return Err(wrong_intent()),
    }
    let p = provider(ctx)?;
    let linked = oauth::link(ctx, &username, &p.name, &subject).await?;
    Ok(Reply::data_with_msg(
        LinkView { provider: linked.provider, linked_at: linked.linked_at },
        msg::auth::social::linked(),
    ))
}

#[derive(Deserialize, JsonSchema)]
pub struct UnlinkIn {
    #[schemars(length(min = 1, max = 64))]
    provider: String,
}

/// POST /user/socialUnlink {provider}
pub async fn unlink(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let username = call.caller()?.username().to_string();
    let input: UnlinkIn = call.req.payload()?;
    if !oauth::unlink(ctx, &username, input.provider.trim()).await? {
        return Err(ApiError::not_found(msg::auth::social::no_identity()));
    }
    Ok(Reply::message(msg::auth::social::unlinked()))
}
