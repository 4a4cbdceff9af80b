//! Social login: the OAuth2 / OpenID Connect authorization-code flow
//! against the configured provider. The browser is sent to the provider
//! with a signed `state`; the provider sends it back to `/#/callback` with a
//! `code`; the SPA posts both here and we exchange the code server-side
//! (the client secret never reaches the browser).
//!
//! An identity signs in only as an existing staff account: the one linked
//! to it before, or the one whose e-mail equals the provider's *verified*
//! e-mail (then the link is stored). Nobody gets an account by merely
//! holding an identity at the provider.

use envelope::{ApiError, Text};
use serde::Deserialize;
use serde_json::{json, Value};
use store::{Condition, Query};

use crate::config::OAuthProvider;
use crate::ctx::AppCtx;
use crate::domain::users::User;
use crate::domain::{from_item, keys, StoreResultExt};
use crate::handlers::auth::start_session;
use crate::reply::Reply;
use crate::request::Call;

/// The subject of `state` tokens, so no access token can pass as one.
const STATE_SUBJECT: &str = "oauth-state";
/// How long the user has at the provider.
const STATE_TTL_SECS: i64 = 600;

fn provider(ctx: &AppCtx) -> Result<&OAuthProvider, ApiError> {
    ctx.config.oauth.as_ref().ok_or_else(|| {
        ApiError::bad_request(Text::new(
            "social login is not configured on this server",
            "服务器未配置第三方登录",
        ))
    })
}

/// GET /socialLogin/authorize: the provider URL to send the browser to.
pub async fn authorize_url(ctx: &AppCtx, _call: Call) -> Result<Reply, ApiError> {
    let p = provider(ctx)?;
    let now = ctx.now();
    let nonce = uuid::Uuid::new_v4().simple().to_string();
    let state = ctx.keys.issue(STATE_SUBJECT, &nonce, now, now, STATE_TTL_SECS).map_err(|_| ApiError::internal())?;
    let mut url = url::Url::parse(&p.authorize_url).map_err(|_| ApiError::internal())?;
    url.query_pairs_mut()
        .append_pair("response_type", "code")
        .append_pair("client_id", &p.client_id)
        .append_pair("redirect_uri", &p.redirect_uri)
        .append_pair("scope", "openid email profile")
        .append_pair("state", &state);
    Ok(Reply::data(json!({ "url": url.as_str(), "state": state, "provider": p.name })))
}

#[derive(Deserialize, schemars::JsonSchema)]
pub(crate) struct Callback {
    #[serde(default)]
    code: String,
    #[serde(default)]
    state: String,
}

#[derive(Deserialize)]
struct TokenAnswer {
    access_token: String,
}

#[derive(Deserialize)]
struct Identity {
    sub: String,
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    email_verified: Option<bool>,
}

fn not_obtained(detail: &str) -> ApiError {
    tracing::warn!(detail, "social login failed");
    ApiError::bad_request(Text::new(
        "social login failed: the provider did not confirm the sign-in, please try again",
        "第三方登录失败：未获取到令牌，请重试",
    ))
}

/// POST /socialLogin {code, state}: answers a token like /login/index.
pub async fn social_login(ctx: &AppCtx, call: Call) -> Result<Reply, ApiError> {
    let p = provider(ctx)?;
    let cb: Callback = super::auth::login_payload(ctx, &call.req)?;
    if cb.code.trim().is_empty() {
        return Err(ApiError::bad_request(Text::new(
            "the authorization code is missing",
            "缺少授权码（code）",
        )));
    }
    match ctx.keys.verify(&cb.state, ctx.now()) {
        Ok(claims) if claims.sub == STATE_SUBJECT => {}
        _ => {
            return Err(ApiError::bad_request(Text::new(
                "the social login request is invalid or too old: start again",
                "第三方登录请求无效或已过期，请重新开始",
            )))
        }
    }
    let token: TokenAnswer = ctx
        .http
        .post(&p.token_url)
        .form(&[
            ("grant_type", "authorization_code"),
            ("code", cb.code.trim()),
            ("redirect_uri", p.redirect_uri.as_str()),
            ("client_id", p.client_id.as_str()),
            ("client_secret", p.client_secret.as_str()),
        ])
        .send()
        .await
        .and_then(|r| r.error_for_status())
        .map_err(|e| not_obtained(&e.to_string()))?
        .json()
        .await
        .map_err(|e| not_obtained(&e.to_string()))?;
    let identity: Identity = ctx
        .http
        .get(&p.userinfo_url)
        .bearer_auth(&token.access_token)
        .send()
        .await
        .and_then(|r| r.error_for_status())
        .map_err(|e| not_obtained(&e.to_string()))?
        .json()
        .await
        .map_err(|e| not_obtained(&e.to_string()))?;
    let user = linked_user(ctx, &p.name, &identity).await?;
    if !user.enabled {
        return Err(ApiError::bad_request(Text::new(
            "this account is disabled: ask an administrator",
            "该帐号已停用，请联系管理员",
        )));
    }
    Ok(Reply::data(start_session(ctx, &user.username, &call.req.client_ip).await?))
}

async fn linked_user(ctx: &AppCtx, provider: &str, identity: &Identity) -> Result<User, ApiError> {
    let no_account = || {
        ApiError::bad_request(Text::new(
            "no staff account is linked to this identity: ask an administrator",
            "该第三方身份未关联任何员工帐号，请联系管理员",
        ))
    };
    let link_key = keys::social_link(provider, &identity.sub);
    if let Some(link) = ctx.store.get(&link_key).await.api()? {
        let username = link.get("username").and_then(Value::as_str).unwrap_or_default().to_string();
        return crate::domain::users::get(ctx, &username).await?.ok_or_else(no_account);
    }
    let email = match (&identity.email, identity.email_verified) {
        (Some(e), Some(true)) if !e.trim().is_empty() => e.trim().to_lowercase(),
        _ => return Err(no_account()),
    };
    let page = ctx
        .store
        .query(Query::index(store::Index::Gsi2, keys::user_email_index_pk(&email)).limit(2))
        .await
        .api()?;
    if page.items.len() != 1 {
        return Err(no_account());
    }
    let user: User = from_item(page.items.into_iter().next().expect("one item"))?;
    let mut link = store::Item::new();
    link.insert(store::PK.into(), link_key.pk.into());
    link.insert(store::SK.into(), link_key.sk.into());
    link.insert("username".into(), user.username.clone().into());
    link.insert("linkedAt".into(), ctx.now().into());
    match ctx.store.put(link, Some(Condition::item_absent())).await {
        Ok(()) | Err(store::StoreError::ConditionFailed) => Ok(user),
        Err(e) => Err(crate::domain::store_error(e)),
    }
}
