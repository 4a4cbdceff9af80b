//! Social login against a loopback OAuth 2.0 provider that enforces PKCE
//! (S256), one-use codes and the client secret: linking from the personal
//! center, signing in by the provider's subject, and every attack the
//! state, binding and verifier are there to stop. The store-facing cases
//! also run on DynamoDB.

mod common;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Form, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get as get_route, post as post_route};
use axum::{Json, Router};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use common::*;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

const CLIENT_SECRET: &str = "provider-secret-1";
const REDIRECT_URI: &str = "https://ops.example/";

/// What the provider remembers: codes it issued (with the PKCE challenge
/// and redirect URI they were issued for) and access tokens.
#[derive(Default)]
struct ProviderState {
    codes: HashMap<String, (String, String, String)>,
    access: HashMap<String, String>,
    issued: u32,
}

#[derive(Clone)]
struct Provider {
    base: String,
    state: Arc<Mutex<ProviderState>>,
}

impl Provider {
    async fn start() -> Provider {
        async fn token(State(state): State<Arc<Mutex<ProviderState>>>, Form(form): Form<HashMap<String, String>>) -> Result<Json<Value>, StatusCode> {
            let mut st = state.lock().unwrap();
            let field = |k: &str| form.get(k).cloned().unwrap_or_default();
            if field("client_secret") != CLIENT_SECRET || field("grant_type") != "authorization_code" {
                return Err(StatusCode::UNAUTHORIZED);
            }
            // One use, whatever happens next.
            let (challenge, redirect_uri, sub) = st.codes.remove(&field("code")).ok_or(StatusCode::BAD_REQUEST)?;
            let verifier = form.get("code_verifier").ok_or(StatusCode::BAD_REQUEST)?;
            if URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())) != challenge || field("redirect_uri") != redirect_uri {
                return Err(StatusCode::BAD_REQUEST);
            }
            st.issued += 1;
            let at = format!("at-{}", st.issued);
            st.access.insert(at.clone(), sub);
            Ok(Json(json!({"access_token": at, "token_type": "Bearer"})))
        }
        async fn userinfo(State(state): State<Arc<Mutex<ProviderState>>>, headers: HeaderMap) -> Result<Json<Value>, StatusCode> {
            let auth = headers.get("authorization").and_then(|v| v.to_str().ok()).unwrap_or_default();
            let at = auth.strip_prefix("Bearer ").ok_or(StatusCode::UNAUTHORIZED)?;
            let sub = state.lock().unwrap().access.get(at).cloned().ok_or(StatusCode::UNAUTHORIZED)?;
            // The e-mail is the user's to edit at the provider: never trusted.
            Ok(Json(json!({"sub": sub, "email": "admin@ev-operator.example", "email_verified": true})))
        }
        let state = Arc::new(Mutex::new(ProviderState::default()));
        let app = Router::new().route("/token", post_route(token)).route("/userinfo", get_route(userinfo)).with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Provider { base, state }
    }

    /// The user `sub` approves at the provider: the code the browser
    /// brings back, bound to the authorize URL's challenge.
    fn approve(&self, authorize_url: &str, sub: &str) -> String {
        let url = url::Url::parse(authorize_url).unwrap();
        let q: HashMap<String, String> = url.query_pairs().into_owned().collect();
        assert_eq!(q["code_challenge_method"], "S256");
        assert_eq!(q["client_id"], "backoffice");
        assert_eq!(q["response_type"], "code");
        assert!(!q.contains_key("client_secret") && !q.contains_key("code_verifier"), "no secret goes to the browser");
        let mut st = self.state.lock().unwrap();
        st.issued += 1;
        let code = format!("code-{}", st.issued);
        st.codes.insert(code.clone(), (q["code_challenge"].clone(), q["redirect_uri"].clone(), sub.into()));
        code
    }

    fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("BACKOFFICE_OAUTH_NAME", "test-idp".into()),
            ("BACKOFFICE_OAUTH_TOKEN_URL", format!("{}/token", self.base)),
            ("BACKOFFICE_OAUTH_USERINFO_URL", format!("{}/userinfo", self.base)),
            ("BACKOFFICE_OAUTH_AUTHORIZE_URL", format!("{}/authorize", self.base)),
            ("BACKOFFICE_OAUTH_CLIENT_ID", "backoffice".into()),
            ("BACKOFFICE_OAUTH_CLIENT_SECRET", CLIENT_SECRET.into()),
            ("BACKOFFICE_OAUTH_REDIRECT_URI", REDIRECT_URI.into()),
        ]
    }
}

fn env_refs<'a>(env: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    env.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

/// A started flow as the SPA keeps it.
struct Flow {
    url: String,
    state: String,
    binding: String,
}

async fn start_sign_in(ctx: &backoffice::AppCtx) -> Flow {
    let a = post(ctx, "/socialLogin/authorize", None, json!({})).await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    flow_of(&a)
}

async fn start_link(ctx: &backoffice::AppCtx, token: &str) -> Flow {
    let a = post(ctx, "/user/socialLink/authorize", Some(token), json!({})).await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    flow_of(&a)
}

fn flow_of(a: &Answer) -> Flow {
    let d = a.data();
    assert_eq!(d["provider"], "test-idp");
    let f = Flow { url: d["url"].as_str().unwrap().into(), state: d["state"].as_str().unwrap().into(), binding: d["binding"].as_str().unwrap().into() };
    let q: HashMap<String, String> = url::Url::parse(&f.url).unwrap().query_pairs().into_owned().collect();
    assert_eq!(q["state"], f.state);
    assert_eq!(q["redirect_uri"], REDIRECT_URI);
    f
}

async fn finish(ctx: &backoffice::AppCtx, path: &str, token: Option<&str>, code: &str, flow: &Flow) -> Answer {
    post(ctx, path, token, json!({"code": code, "state": flow.state, "binding": flow.binding})).await
}

/// The editor links identity `sub` from the personal center.
async fn link_editor(ctx: &backoffice::AppCtx, idp: &Provider, sub: &str) -> String {
    let editor = login(ctx, "editor", EDITOR_PW).await;
    let flow = start_link(ctx, &editor).await;
    let linked = finish(ctx, "/user/socialLink", Some(&editor), &idp.approve(&flow.url, sub), &flow).await;
    assert_eq!(linked.status, 200, "{:?}", linked.body);
    assert_eq!(linked.data()["provider"], "test-idp");
    editor
}

async fn signs_in_only_by_a_linked_subject(ctx: Arc<backoffice::AppCtx>, idp: &Provider) {
    // Before any link, the verified e-mail of an account proves nothing.
    let flow = start_sign_in(&ctx).await;
    let refused = finish(&ctx, "/socialLogin", None, &idp.approve(&flow.url, "p-1"), &flow).await;
    assert_eq!(refused.status, 400);
    assert!(refused.msg().contains("no staff account is linked"), "{}", refused.msg());
    assert!(refused.data().is_null());

    let editor = link_editor(&ctx, idp, "p-1").await;
    let links = get(&ctx, "/user/socialLinks", Some(&editor)).await;
    assert_eq!(links.data()["links"][0]["provider"], "test-idp", "{:?}", links.body);
    assert_eq!(links.data()["providers"][0]["name"], "test-idp");

    let flow = start_sign_in(&ctx).await;
    let signed_in = finish(&ctx, "/socialLogin", None, &idp.approve(&flow.url, "p-1"), &flow).await;
    assert_eq!(signed_in.status, 200, "{:?}", signed_in.body);
    let token = signed_in.data()["token"].as_str().unwrap().to_string();
    assert!(signed_in.data()["refreshToken"].as_str().is_some_and(|r| !r.is_empty()));
    assert_eq!(get(&ctx, "/index/userInfo", Some(&token)).await.data()["username"], "editor");

    // The same identity cannot be linked to a second account, nor a second
    // identity of the provider to the same account.
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let flow = start_link(&ctx, &admin).await;
    let taken = finish(&ctx, "/user/socialLink", Some(&admin), &idp.approve(&flow.url, "p-1"), &flow).await;
    assert_eq!(taken.status, 409, "{:?}", taken.body);
    let flow = start_link(&ctx, &editor).await;
    let second = finish(&ctx, "/user/socialLink", Some(&editor), &idp.approve(&flow.url, "p-2"), &flow).await;
    assert_eq!(second.status, 409, "{:?}", second.body);

    // Unlinked, the identity signs in as nobody.
    assert_eq!(post(&ctx, "/user/socialUnlink", Some(&editor), json!({"provider": "test-idp"})).await.status, 200);
    assert_eq!(post(&ctx, "/user/socialUnlink", Some(&editor), json!({"provider": "test-idp"})).await.status, 404);
    let flow = start_sign_in(&ctx).await;
    let gone = finish(&ctx, "/socialLogin", None, &idp.approve(&flow.url, "p-1"), &flow).await;
    assert_eq!(gone.status, 400, "{:?}", gone.body);

    // A deleted account's link goes with it: a new account of the same
    // name does not inherit the identity.
    link_editor(&ctx, idp, "p-1").await;
    assert_eq!(post(&ctx, "/userManagement/doDelete", Some(&admin), json!({"username": "editor"})).await.status, 200);
    let created = post(&ctx, "/userManagement/doEdit", Some(&admin), json!({"username": "editor", "password": "bright-harbour-71", "email": "e2@ev-operator.example", "roles": ["Editor"]})).await;
    assert_eq!(created.status, 200, "{:?}", created.body);
    let flow = start_sign_in(&ctx).await;
    let orphan = finish(&ctx, "/socialLogin", None, &idp.approve(&flow.url, "p-1"), &flow).await;
    assert_eq!(orphan.status, 400, "{:?}", orphan.body);
}

#[tokio::test]
async fn an_identity_signs_in_only_as_the_account_that_linked_it() {
    let idp = Provider::start().await;
    let env = idp.env();
    signs_in_only_by_a_linked_subject(product_with(&env_refs(&env)).await, &idp).await;
}

#[tokio::test]
async fn an_identity_signs_in_only_as_the_account_that_linked_it_on_dynamodb() {
    let Some(table) = dynamo_table("social").await else { return };
    let idp = Provider::start().await;
    let env = idp.env();
    signs_in_only_by_a_linked_subject(product_on_dynamo(table, &env_refs(&env)).await, &idp).await;
}

async fn state_binding_and_verifier_are_enforced(ctx: Arc<backoffice::AppCtx>, idp: &Provider) {
    // Linked first, so a completed flow below signs in as somebody.
    link_editor(&ctx, idp, "p-1").await;

    // A state presented by another browser (another binding) is refused,
    // and does not spoil the owner's flow.
    let flow = start_sign_in(&ctx).await;
    let code = idp.approve(&flow.url, "p-1");
    let other_browser = post(&ctx, "/socialLogin", None, json!({"code": code, "state": flow.state, "binding": "someone-elses-binding"})).await;
    assert_eq!(other_browser.status, 400);
    assert!(other_browser.msg().contains("another browser"), "{}", other_browser.msg());
    let no_binding = post(&ctx, "/socialLogin", None, json!({"code": code, "state": flow.state})).await;
    assert_eq!(no_binding.status, 400);
    let owner = finish(&ctx, "/socialLogin", None, &code, &flow).await;
    assert_eq!(owner.status, 200, "{:?}", owner.body);

    // Replayed: a state works once.
    let replay = finish(&ctx, "/socialLogin", None, &idp.approve(&flow.url, "p-1"), &flow).await;
    assert_eq!(replay.status, 400);
    assert!(replay.msg().contains("already used"), "{}", replay.msg());

    // A code issued for another flow's challenge (an attacker's code
    // injected into this browser's return) fails the verifier at the token
    // endpoint, and the state is spent.
    let victim = start_sign_in(&ctx).await;
    let attacker = start_sign_in(&ctx).await;
    let injected = finish(&ctx, "/socialLogin", None, &idp.approve(&attacker.url, "p-1"), &victim).await;
    assert_eq!(injected.status, 400);
    assert!(injected.msg().contains("did not confirm"), "{}", injected.msg());

    // Too old: ten minutes at the provider at most.
    let flow = start_sign_in(&ctx).await;
    let code = idp.approve(&flow.url, "p-1");
    ctx.clock.advance(601);
    let late = finish(&ctx, "/socialLogin", None, &code, &flow).await;
    assert_eq!(late.status, 400);
    assert!(late.msg().contains("too old"), "{}", late.msg());
    let editor = login(&ctx, "editor", EDITOR_PW).await; // the access token aged too

    // A state is for what it was started for, by whom it was started.
    let link_flow = start_link(&ctx, &editor).await;
    let as_sign_in = finish(&ctx, "/socialLogin", None, &idp.approve(&link_flow.url, "p-1"), &link_flow).await;
    assert_eq!(as_sign_in.status, 400);
    assert!(as_sign_in.msg().contains("started for something else"), "{}", as_sign_in.msg());
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let editors_flow = start_link(&ctx, &editor).await;
    let hijack = finish(&ctx, "/user/socialLink", Some(&admin), &idp.approve(&editors_flow.url, "p-9"), &editors_flow).await;
    assert_eq!(hijack.status, 400, "{:?}", hijack.body);
    let sign_in_flow = start_sign_in(&ctx).await;
    let as_link = finish(&ctx, "/user/socialLink", Some(&admin), &idp.approve(&sign_in_flow.url, "p-9"), &sign_in_flow).await;
    assert_eq!(as_link.status, 400, "{:?}", as_link.body);
    let admins_links = get(&ctx, "/user/socialLinks", Some(&admin)).await;
    assert_eq!(admins_links.data()["links"], json!([]), "nothing was linked by the refused returns");

    // An access token is not a state.
    let misuse = post(&ctx, "/socialLogin", None, json!({"code": "code-x", "state": admin, "binding": "x"})).await;
    assert_eq!(misuse.status, 400);
    let forged = post(&ctx, "/socialLogin", None, json!({"code": "code-x", "state": "forged", "binding": "x"})).await;
    assert_eq!(forged.status, 400);
    let no_code = post(&ctx, "/socialLogin", None, json!({"state": "x", "binding": "x"})).await;
    assert!(no_code.msg().contains("authorization code is missing"), "{}", no_code.msg());
}

#[tokio::test]
async fn state_binding_and_verifier_are_enforced_on_sqlite() {
    let idp = Provider::start().await;
    let env = idp.env();
    state_binding_and_verifier_are_enforced(product_with(&env_refs(&env)).await, &idp).await;
}

#[tokio::test]
async fn state_binding_and_verifier_are_enforced_on_dynamodb() {
    let Some(table) = dynamo_table("socialstate").await else { return };
    let idp = Provider::start().await;
    let env = idp.env();
    state_binding_and_verifier_are_enforced(product_on_dynamo(table, &env_refs(&env)).await, &idp).await;
}

#[tokio::test]
async fn without_a_provider_social_login_says_it_is_not_configured() {
    let ctx = product().await;
    assert_eq!(get(&ctx, "/socialLogin/providers", None).await.data()["providers"], json!([]));
    for path in ["/socialLogin/authorize", "/socialLogin"] {
        let a = post(&ctx, path, None, json!({"code": "x", "state": "y", "binding": "z"})).await;
        assert_eq!(a.status, 400, "{path}");
        assert!(a.msg().contains("not configured"), "{path}: {}", a.msg());
    }
}
