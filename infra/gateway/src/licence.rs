//! The licence guard in front of the SPA and the API (the rule and the
//! page are `backoffice::licence`): on a host the application is not
//! licensed for, the SPA's paths answer the plain disabled page and the
//! API a 403, unless the request shows the key (header) or the cookie the
//! key earned on that page. `POST /licence` takes the page's form.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Form, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use backoffice::licence::{self, LicenceGuard};
use backoffice::{AppCtx, API_BASE};
use envelope::Lang;
use http::header::{CACHE_CONTROL, CONTENT_TYPE, LOCATION, SET_COOKIE};
use http::{HeaderMap, StatusCode};

/// What the unlock route needs: the guard and whether the site is served
/// over TLS (the cookie is then `Secure`).
#[derive(Clone)]
pub struct LicenceState {
    pub ctx: Arc<AppCtx>,
    pub tls: bool,
}

fn disabled(headers: &HeaderMap, guard: &LicenceGuard, wrong_key: bool) -> Response {
    let host = licence::host_of(headers).unwrap_or_default();
    let page = licence::disabled_page(&host, guard.has_key(), wrong_key);
    (StatusCode::FORBIDDEN, [(CONTENT_TYPE, "text/html; charset=utf-8"), (CACHE_CONTROL, "no-store")], page).into_response()
}

/// The middleware: lets a request through when the guard is off or admits it.
pub async fn guard(State(ctx): State<Arc<AppCtx>>, req: Request, next: Next) -> Response {
    let Some(guard) = ctx.config.licence.as_ref() else { return next.run(req).await };
    if guard.admits(req.headers()) {
        return next.run(req).await;
    }
    if req.uri().path().starts_with(&format!("{API_BASE}/")) {
        let lang = Lang::from_accept_language(req.headers().get("accept-language").and_then(|v| v.to_str().ok()));
        let (parts, body) = licence::api_refusal(lang).into_parts();
        return Response::from_parts(parts, axum::body::Body::from(body));
    }
    disabled(req.headers(), guard, false)
}

/// POST /licence (the disabled page's form, `key=`): the right key gets the
/// cookie for this host and goes to the site; a wrong one the page again.
pub async fn unlock(State(state): State<LicenceState>, headers: HeaderMap, Form(form): Form<HashMap<String, String>>) -> Response {
    let Some(guard) = state.ctx.config.licence.as_ref() else {
        return (StatusCode::SEE_OTHER, [(LOCATION, "/")]).into_response();
    };
    let host = licence::host_of(&headers).unwrap_or_default();
    let typed = form.get("key").map(String::as_str).unwrap_or_default();
    match guard.cookie_value(&host).filter(|_| guard.key_matches(typed)) {
        Some(value) => {
            let secure = if state.tls { "; Secure" } else { "" };
            let cookie = format!("{}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000{secure}", licence::COOKIE);
            tracing::info!(%host, "the licence key unlocked a host");
            (StatusCode::SEE_OTHER, [(LOCATION, "/".to_string()), (SET_COOKIE, cookie)]).into_response()
        }
        None => {
            tracing::warn!(%host, "a wrong licence key was typed");
            disabled(&headers, guard, true)
        }
    }
}
