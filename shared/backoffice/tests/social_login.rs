//! Social login against a test OAuth2/OIDC provider on 127.0.0.1: the
//! authorize URL, the server-side code exchange, linking by verified
//! e-mail, and every way the flow is refused.

mod common;

use std::collections::HashMap;

use axum::extract::Form;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get as get_route, post as post_route};
use axum::{Json, Router};
use common::*;
use serde_json::{json, Value};

const CLIENT_SECRET: &str = "provider-secret-1";

/// The provider: `good-*` codes exchange for an access token when the
/// client secret is right; the userinfo answer depends on the code.
async fn provider() -> String {
    async fn token(Form(form): Form<HashMap<String, String>>) -> Result<Json<Value>, StatusCode> {
        let code = form.get("code").cloned().unwrap_or_default();
        let secret_ok = form.get("client_secret").map(String::as_str) == Some(CLIENT_SECRET);
        if secret_ok && form.get("grant_type").map(String::as_str) == Some("authorization_code") && code.starts_with("good-") {
            Ok(Json(json!({"access_token": format!("at-{code}"), "token_type": "Bearer"})))
        } else {
            Err(StatusCode::BAD_REQUEST)
        }
    }
    async fn userinfo(headers: HeaderMap) -> Result<Json<Value>, StatusCode> {
        let auth = headers.get("authorization").and_then(|v| v.to_str().ok()).unwrap_or_default();
        match auth {
            "Bearer at-good-editor" => Ok(Json(json!({"sub": "p-1", "email": "Editor@EV-operator.example", "email_verified": true}))),
            "Bearer at-good-unverified" => Ok(Json(json!({"sub": "p-2", "email": "admin@ev-operator.example", "email_verified": false}))),
            "Bearer at-good-stranger" => Ok(Json(json!({"sub": "p-3", "email": "nobody@elsewhere.example", "email_verified": true}))),
            _ => Err(StatusCode::UNAUTHORIZED),
        }
    }
    let app = Router::new().route("/token", post_route(token)).route("/userinfo", get_route(userinfo));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

async fn product_with_provider(base: &str) -> std::sync::Arc<backoffice::AppCtx> {
    let token_url = format!("{base}/token");
    let userinfo_url = format!("{base}/userinfo");
    let authorize_url = format!("{base}/authorize");
    product_with(&[
        ("BACKOFFICE_OAUTH_NAME", "test-idp"),
        ("BACKOFFICE_OAUTH_TOKEN_URL", &token_url),
        ("BACKOFFICE_OAUTH_USERINFO_URL", &userinfo_url),
        ("BACKOFFICE_OAUTH_AUTHORIZE_URL", &authorize_url),
        ("BACKOFFICE_OAUTH_CLIENT_ID", "backoffice"),
        ("BACKOFFICE_OAUTH_CLIENT_SECRET", CLIENT_SECRET),
        ("BACKOFFICE_OAUTH_REDIRECT_URI", "https://ops.example/"),
    ])
    .await
}

async fn state_of(ctx: &backoffice::AppCtx) -> String {
    let a = get(ctx, "/socialLogin/authorize", None).await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let url = url::Url::parse(a.data()["url"].as_str().unwrap()).unwrap();
    let query: HashMap<String, String> = url.query_pairs().into_owned().collect();
    assert_eq!(query["client_id"], "backoffice");
    assert_eq!(query["redirect_uri"], "https://ops.example/");
    assert_eq!(query["response_type"], "code");
    assert!(!query.contains_key("client_secret"), "the secret never goes to the browser");
    query["state"].clone()
}

#[tokio::test]
async fn a_verified_email_signs_in_as_its_staff_account_and_stays_linked() {
    let base = provider().await;
    let ctx = product_with_provider(&base).await;
    let state = state_of(&ctx).await;
    let signed_in = post(&ctx, "/socialLogin", None, json!({"code": "good-editor", "state": state})).await;
    assert_eq!(signed_in.status, 200, "{:?}", signed_in.body);
    let token = signed_in.data()["token"].as_str().unwrap().to_string();
    assert_eq!(get(&ctx, "/index/userInfo", Some(&token)).await.data()["username"], "editor");
    // The identity is now linked: it still works after the e-mail changes.
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    assert_eq!(post(&ctx, "/user/updateProfile", Some(&editor), json!({"email": "new@ev-operator.example"})).await.status, 200);
    let again = post(&ctx, "/socialLogin", None, json!({"code": "good-editor", "state": state_of(&ctx).await})).await;
    assert_eq!(again.status, 200, "{:?}", again.body);
}

#[tokio::test]
async fn every_broken_step_is_refused_with_a_reason() {
    let base = provider().await;
    let ctx = product_with_provider(&base).await;
    let state = state_of(&ctx).await;
    let cases = [
        (json!({"state": state}), "authorization code is missing"),
        (json!({"code": "good-editor", "state": "forged"}), "invalid or too old"),
        (json!({"code": "bad-code", "state": state}), "did not confirm"),
        (json!({"code": "good-unverified", "state": state}), "no staff account"),
        (json!({"code": "good-stranger", "state": state}), "no staff account"),
    ];
    for (body, says) in cases {
        let a = post(&ctx, "/socialLogin", None, body.clone()).await;
        assert_eq!(a.status, 400, "{body}");
        assert!(a.msg().contains(says), "{body}: {}", a.msg());
        assert!(a.data().is_null(), "no token on a refusal");
    }
    // An access token is not a state: the subject is checked.
    let token = login(&ctx, "admin", ADMIN_PW).await;
    let misuse = post(&ctx, "/socialLogin", None, json!({"code": "good-editor", "state": token})).await;
    assert_eq!(misuse.status, 400);
}

#[tokio::test]
async fn without_a_provider_social_login_says_it_is_not_configured() {
    let ctx = product().await;
    let a = post(&ctx, "/socialLogin", None, json!({"code": "x", "state": "y"})).await;
    assert_eq!(a.status, 400);
    assert!(a.msg().contains("not configured"), "{}", a.msg());
}
