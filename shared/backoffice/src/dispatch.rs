//! One request through one route: authenticate, check the permission of
//! the route table, run the handler, wrap the answer in the envelope and
//! record writes in the system log. Lambda bins and the local gateway both
//! call this, so the rules are the same everywhere.

use bytes::Bytes;
use envelope::{ok_response, ok_response_with_msg, ApiError, Lang};
use permission::Principal;

use crate::ctx::AppCtx;
use crate::domain::audit;
use crate::reply::Reply;
use crate::request::{ApiRequest, Call, MAX_BODY_BYTES};
use crate::routes::{Access, Route};
use crate::session::{authenticate, Expired};

/// Handles one call of `route`.
pub async fn dispatch(ctx: &AppCtx, route: &Route, req: ApiRequest) -> http::Response<Bytes> {
    let lang = req.lang();
    outcome(ctx, route, req).await.into_response(lang)
}

/// What one call came to, before it is written in the caller's language.
pub struct Outcome(Result<Reply, ApiError>);

impl Outcome {
    /// The HTTP answer, its message in `lang`.
    pub fn into_response(self, lang: Lang) -> http::Response<Bytes> {
        match self.0 {
            Ok(Reply::Data(data)) => ok_response(&data),
            Ok(Reply::DataWithMsg(data, msg)) => ok_response_with_msg(&data, &msg, lang),
            Ok(Reply::Raw(resp)) => resp,
            Ok(Reply::Unencodable(_)) => ApiError::internal().to_response(lang),
            Err(err) => err.to_response(lang),
        }
    }

    /// The envelope as it would be written in `lang` (none for a raw
    /// answer such as a file download): what a test compares across
    /// languages and versions.
    pub fn envelope(&self, lang: Lang) -> Option<envelope::Envelope<serde_json::Value>> {
        match &self.0 {
            Ok(Reply::Data(data)) => Some(envelope::Envelope::new(envelope::SUCCESS_CODE, &envelope::success_msg(), lang, data.clone())),
            Ok(Reply::DataWithMsg(data, msg)) => Some(envelope::Envelope::new(envelope::SUCCESS_CODE, msg, lang, data.clone())),
            Ok(Reply::Raw(_)) => None,
            Ok(Reply::Unencodable(_)) => Some(ApiError::internal().to_envelope(lang)),
            Err(err) => Some(err.to_envelope(lang)),
        }
    }
}

/// Handles one call of `route` up to its outcome.
pub async fn outcome(ctx: &AppCtx, route: &Route, req: ApiRequest) -> Outcome {
    // The demo pages' endpoints do not exist while the demo pages are off.
    if route.demo && !ctx.config.demo_pages {
        return Outcome(Err(no_such_endpoint()));
    }
    let started = std::time::Instant::now();
    let audit_input = route.audited.then(|| audit::Input::capture(&req));
    let (mut result, account) = run(ctx, route, req).await;
    if let Ok(Reply::Unencodable(why)) = &result {
        tracing::error!(function = route.function, error = %why, "the handler's answer could not be encoded as JSON");
        result = Err(ApiError::internal());
    }
    let code = match &result {
        Ok(_) => envelope::SUCCESS_CODE,
        Err(e) => e.code,
    };
    if let Some(input) = audit_input {
        audit::record(ctx, route, input, account.as_deref(), code).await;
    }
    tracing::info!(
        function = route.function,
        code,
        elapsed_ms = started.elapsed().as_millis() as u64,
        "handled"
    );
    Outcome(result)
}

/// Checks access and runs the handler; also tells who the caller was.
async fn run(ctx: &AppCtx, route: &Route, req: ApiRequest) -> (Result<Reply, ApiError>, Option<String>) {
    if req.body.len() > MAX_BODY_BYTES {
        return (Err(ApiError::payload_too_large()), None);
    }
    let caller = match route.access {
        Access::Public => None,
        Access::Session => match authenticate(ctx, &req, Expired::Accept).await {
            Ok(c) => Some(c),
            Err(e) => return (Err(e), None),
        },
        Access::SignedIn | Access::Permission(_) => match authenticate(ctx, &req, Expired::Refuse).await {
            Ok(c) => Some(c),
            Err(e) => return (Err(e), None),
        },
    };
    if let (Access::Permission(needed), Some(c)) = (route.access, &caller) {
        if !has_permission(&c.principal, needed) {
            return (Err(missing_permission(needed)), Some(c.username().to_string()));
        }
    }
    let account = caller.as_ref().map(|c| c.username().to_string());
    // The query is parsed once, as the type the route declares (the one
    // the OpenAPI document lists): a bad one is refused before the handler
    // runs, and the handler takes the parsed value.
    let query = match route.doc.check_query(&req.query) {
        Ok(q) => std::sync::Mutex::new(q),
        Err(e) => return (Err(e), account),
    };
    let result = (route.handler)(ctx, Call { req, caller, query }).await;
    (result, account)
}

/// The 403 of a route whose permission the caller lacks: the message names
/// it in words, and `data.permission` names it for the client (the SPA's
/// 403 page says which one is missing).
pub fn missing_permission(needed: &str) -> ApiError {
    ApiError::new(403, crate::messages::permission::missing(needed)).with_data(serde_json::json!({ "permission": needed }))
}

/// Admin always passes; otherwise the permission must be held.
pub fn has_permission(p: &Principal, needed: &str) -> bool {
    p.is_admin() || p.permissions.iter().any(|have| have == needed)
}

/// Answers for paths that are not in the route table.
pub fn not_found(lang: Lang) -> http::Response<Bytes> {
    no_such_endpoint().to_response(lang)
}

fn no_such_endpoint() -> ApiError {
    ApiError::not_found(envelope::msg::request::no_such_endpoint())
}
