//! THE route table: every `/partnerapi` endpoint, its Lambda function and
//! the permission it needs. The local gateway mounts it, `functions/` has
//! one bin per entry, and `template.yaml` is generated from it (a test
//! fails when any of them disagree).

use std::future::Future;
use std::pin::Pin;

use envelope::ApiError;
use http::Method;

use crate::ctx::AppCtx;
use crate::handlers;
use crate::reply::Reply;
use crate::request::Call;

/// The base path every endpoint lives under: the API is `{host}/partnerapi`.
pub const API_BASE: &str = "/partnerapi";

pub type HandlerFuture<'a> = Pin<Box<dyn Future<Output = Result<Reply, ApiError>> + Send + 'a>>;
pub type Handler = for<'a> fn(&'a AppCtx, Call) -> HandlerFuture<'a>;

/// Who may call a route. The server checks this on every call; hiding a
/// menu in the SPA is never the only guard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone, without a token (login, public key ...).
    Public,
    /// A signed-in caller whose token may have expired (logout must work
    /// with a stale token).
    Session,
    /// Any signed-in caller with a valid token.
    SignedIn,
    /// A signed-in caller holding this permission (Admin always passes).
    Permission(&'static str),
}

pub struct Route {
    pub method: Method,
    /// Path below [`API_BASE`].
    pub path: &'static str,
    /// The Lambda bin and function name (snake_case, unique).
    pub function: &'static str,
    pub access: Access,
    /// Whether a call is recorded in the system log (every write is).
    pub audited: bool,
    /// One line for the API description and the template.
    pub summary: &'static str,
    pub handler: Handler,
    /// The route's declared input and output types (query parameters, JSON
    /// body, `data` of the answer) and the extra error statuses it can
    /// answer. The dispatch hands a handler only the declared query
    /// parameters, so the OpenAPI document and the handler read one list.
    pub doc: crate::openapi::OpDoc,
    /// The key families the handler reads and writes (set per handler
    /// group in [`routes`]); the function's IAM policy is made from them
    /// (`crate::iam::policy`).
    pub keys: &'static crate::iam::KeyUse,
    /// A data endpoint of the template's demo pages: it exists only while
    /// the demo pages are on (`Config::demo_pages`); otherwise it answers
    /// 404 like a path that is not in the table.
    pub demo: bool,
}

impl Route {
    /// The route with the key families its handler touches.
    pub fn touching(mut self, keys: &'static crate::iam::KeyUse) -> Route {
        self.keys = keys;
        self
    }

    /// The full path, e.g. `/partnerapi/login/index`.
    pub fn full_path(&self) -> String {
        format!("{API_BASE}{}", self.path)
    }
}

/// Turns an `async fn(&AppCtx, Call) -> Result<Reply, ApiError>` into a
/// [`Handler`] pointer.
macro_rules! handler {
    ($f:path) => {{
        fn boxed(ctx: &$crate::ctx::AppCtx, call: $crate::request::Call) -> $crate::routes::HandlerFuture<'_> {
            Box::pin($f(ctx, call))
        }
        boxed as $crate::routes::Handler
    }};
}

/// One route-table entry: `route!(GET "/path" => "function_name", access, audited | unaudited, "summary", handler_fn)`
/// (`audited`: each call is written to the system log),
/// optionally followed by its declared types `, query = Q, body = B, data = D`
/// and the error statuses it can answer besides the ones its access and
/// method imply: `; errors = &[404, 409]` (see [`crate::openapi::OpDoc`]).
macro_rules! route {
    (@audit audited) => { true };
    (@audit unaudited) => { false };
    ($method:ident $path:literal => $function:literal, $access:expr, $audited:ident, $summary:literal, $f:path
        $(, $key:ident = $ty:ty)* $(; errors = $errors:expr)?) => {
        $crate::routes::Route {
            method: ::http::Method::$method,
            path: $path,
            function: $function,
            access: $access,
            audited: $crate::routes::route!(@audit $audited),
            summary: $summary,
            handler: $crate::routes::handler!($f),
            doc: $crate::openapi::OpDoc::new() $(.$key::<$ty>())* $(.errors($errors))?,
            keys: &$crate::iam::KeyUse::NONE,
            demo: false,
        }
    };
}
// Business modules declare their own groups (`fn routes() -> Vec<Route>`)
// with these, and `routes()` below joins the groups into the one table.
pub(crate) use {handler, route};

use permission::{SYSTEM_READ, SYSTEM_WRITE};
use Access::*;

/// What the shell routes touch in the table besides what the dispatch does
/// for them (see `crate::iam`).
mod shell {
    use crate::iam::families::*;
    use crate::iam::KeyUse;

    /// The account and its hash, a new session (or a stronger hash), the
    /// throttle counters.
    pub const SIGN_IN: KeyUse = KeyUse::new(&[], &[USER, PASSWORD, THROTTLE]);
    /// A pending authorization (state, PKCE verifier, browser binding).
    pub const SOCIAL_START: KeyUse = KeyUse::new(&[], &[OAUTH_STATE]);
    /// The pending authorization taken, the provider identity's account, a
    /// new session.
    pub const SOCIAL_SIGN_IN: KeyUse = KeyUse::new(&[], &[OAUTH_STATE, USER, SOCIAL]);
    /// The account's links (in its own partition).
    pub const SOCIAL_LINKS: KeyUse = KeyUse::new(&[USER], &[]);
    /// The pending authorization taken, the identity and the account's link
    /// written together.
    pub const SOCIAL_LINK: KeyUse = KeyUse::new(&[], &[OAUTH_STATE, USER, SOCIAL]);
    pub const SOCIAL_UNLINK: KeyUse = KeyUse::new(&[], &[USER, SOCIAL]);
    /// Pages by title, and the order, station, pile or card a keyword names.
    pub const SEARCH: KeyUse = KeyUse::new(&[MENU, ORDER, STATION, STATION_CODE, STATION_LIST, STATION_COUNT, PILE, PILE_CODE, CARD], &[]);
    /// A new account (conditional put: the name must be free).
    pub const REGISTER: KeyUse = KeyUse::new(&[], &[USER, PASSWORD]);
    /// The hash, the other sessions ended, the throttle counters.
    pub const CHANGE_PASSWORD: KeyUse = KeyUse::new(&[], &[USER, PASSWORD, THROTTLE]);
    /// A session checked by its token (a public route does it itself).
    pub const SESSION_READ: KeyUse = KeyUse::new(&[USER, ROLES_BY_NAME, SETTINGS], &[]);
    /// A session ended.
    pub const SESSION_END: KeyUse = KeyUse::new(&[], &[USER]);
    /// A refresh token traded (the idle timeout checked).
    pub const SESSION_REFRESH: KeyUse = KeyUse::new(&[SETTINGS], &[USER]).writing_on_get();
    pub const MENU_READ: KeyUse = KeyUse::new(&[MENU], &[]);
    pub const NOTICE_READ: KeyUse = KeyUse::new(&[NOTICE], &[]);
    pub const NOTICE_WRITE: KeyUse = KeyUse::new(&[], &[NOTICE]);
    /// The notices, and what the caller read and cleared (kept under their account).
    pub const NOTICE_LIST: KeyUse = KeyUse::new(&[NOTICE, USER], &[]);
    /// What the caller read and cleared of the notices.
    pub const NOTICE_STATE: KeyUse = KeyUse::new(&[NOTICE], &[USER]);
}

/// Every endpoint of the product.
pub fn routes() -> &'static [Route] {
    static ROUTES: std::sync::OnceLock<Vec<Route>> = std::sync::OnceLock::new();
    ROUTES.get_or_init(|| {
        let mut table = vec![
            // Sign-in and session.
            route!(POST "/login/index" => "login_index", Public, audited, "Sign in with username and password", handlers::auth::login, body = handlers::auth::Credentials, data = handlers::auth::TokenData; errors = &[429]).touching(&shell::SIGN_IN),
            route!(GET "/socialLogin/providers" => "social_login_providers", Public, unaudited, "The social-login providers this server offers (empty when none)", handlers::social::providers, data = handlers::social::Providers),
            route!(POST "/socialLogin/authorize" => "social_login_authorize", Public, audited, "Start social login: the provider URL (with state and PKCE challenge) and the browser binding to keep", handlers::social::authorize_sign_in, body = handlers::social::StartIn, data = handlers::social::Authorization; errors = &[400]).touching(&shell::SOCIAL_START),
            route!(POST "/socialLogin" => "social_login", Public, audited, "Sign in with an OAuth2/OIDC authorization code, its state and this browser's binding", handlers::social::social_login, body = handlers::social::Callback, data = handlers::auth::TokenData).touching(&shell::SOCIAL_SIGN_IN),
            route!(GET "/user/socialLinks" => "social_links", SignedIn, unaudited, "The identities linked to the signed-in user's account, and the providers offered", handlers::social::links, data = handlers::social::Links).touching(&shell::SOCIAL_LINKS),
            route!(POST "/user/socialLink/authorize" => "social_link_authorize", SignedIn, audited, "Start linking a provider identity to the signed-in user's own account", handlers::social::authorize_link, body = handlers::social::StartIn, data = handlers::social::Authorization; errors = &[400]).touching(&shell::SOCIAL_START),
            route!(POST "/user/socialLink" => "social_link", SignedIn, audited, "Link the identity returned by the provider to the signed-in user's own account", handlers::social::link, body = handlers::social::Callback, data = handlers::social::LinkView; errors = &[409]).touching(&shell::SOCIAL_LINK),
            route!(POST "/user/socialUnlink" => "social_unlink", SignedIn, audited, "Remove the signed-in user's link with a provider", handlers::social::unlink, body = handlers::social::UnlinkIn, data = (); errors = &[404]).touching(&shell::SOCIAL_UNLINK),
            route!(POST "/register" => "register", Public, audited, "Create an account (no role until an admin grants one)", handlers::auth::register, body = handlers::auth::Registration, data = handlers::auth::TokenData; errors = &[403, 409]).touching(&shell::REGISTER),
            route!(GET "/index/userInfo" => "user_info", SignedIn, unaudited, "The signed-in user's name, avatar, roles and permissions", handlers::auth::user_info, data = handlers::auth::UserInfo),
            route!(GET "/login/logout" => "logout", Session, audited, "Sign out: the session's tokens stop working", handlers::auth::logout, data = ()).touching(&shell::SESSION_END),
            route!(POST "/user/changePassword" => "change_password", SignedIn, audited, "Change the signed-in user's password", handlers::auth::change_password, body = handlers::auth::PasswordChange, data = (); errors = &[429]).touching(&shell::CHANGE_PASSWORD),
            route!(GET "/expireToken" => "expire_token", Public, unaudited, "Check a token: 200 when valid and its session live, 402 when expired, 401 when invalid or the session ended", handlers::auth::expire_token, data = handlers::auth::TokenCheck; errors = &[401, 402]).touching(&shell::SESSION_READ),
            route!(GET "/refreshToken" => "refresh_token", Public, unaudited, "Trade the refresh token (header X-Refresh-Token, one use) for a new access token and the next refresh token", handlers::auth::refresh_token, data = handlers::auth::TokenData; errors = &[401]).touching(&shell::SESSION_REFRESH),
            route!(GET "/publicKey" => "public_key", Public, unaudited, "The RSA public key for sign-in payload encryption: always empty here, payloads are protected by TLS", handlers::auth::public_key, data = handlers::auth::PublicKey),
            // Shell data.
            route!(GET "/router/getList" => "router_list", SignedIn, unaudited, "The menu and route tree the caller's roles may see", handlers::shell::router_list, data = handlers::shell::RouteTree).touching(&shell::MENU_READ),
            route!(GET "/search/getList" => "search_list", SignedIn, unaudited, "Header search: pages by title (Chinese or English) or path, and the order, station, pile or card the keyword names, as far as the caller may read them", handlers::search::search_list, query = handlers::search::SearchQuery, data = handlers::search::Suggestions).touching(&shell::SEARCH),
            route!(GET "/notice/getList" => "notice_list", Permission(SYSTEM_READ), unaudited, "The caller's notices and e-mails for the header popover (without the ones they cleared; read or not)", handlers::shell::notice_list, data = handlers::shell::NoticeList).touching(&shell::NOTICE_LIST),
            route!(POST "/notice/doEdit" => "notice_edit", Permission(SYSTEM_WRITE), audited, "Publish a notice, or change one (with id and version); HTML is sanitised", handlers::shell::notice_edit, body = handlers::shell::NoticeEdit, data = crate::domain::notices::NoticeView; errors = &[404, 409]).touching(&shell::NOTICE_WRITE),
            route!(POST "/notice/withdraw" => "notice_withdraw", Permission(SYSTEM_WRITE), audited, "Withdraw a notice: it leaves everyone's list", handlers::shell::notice_withdraw, body = handlers::shell::NoticeId, data = (); errors = &[404]).touching(&shell::NOTICE_WRITE),
            route!(GET "/notice/manageList" => "notice_manage_list", Permission(SYSTEM_WRITE), unaudited, "Every published notice, newest first, for its publishers (cursor paging)", handlers::shell::notice_manage_list, query = handlers::shell::NoticePageQuery, data = handlers::shell::NoticePage).touching(&shell::NOTICE_READ),
            route!(POST "/notice/read" => "notice_read", Permission(SYSTEM_READ), audited, "Mark notices read, for the caller only", handlers::shell::notice_read, body = handlers::shell::NoticeIds, data = (); errors = &[404, 409]).touching(&shell::NOTICE_STATE),
            route!(POST "/notice/clearAll" => "notice_clear_all", Permission(SYSTEM_READ), audited, "Clear the caller's notice list (theirs only; later notices appear as usual)", handlers::shell::notice_clear_all, body = handlers::shell::NoFields, data = (); errors = &[409]).touching(&shell::NOTICE_STATE),
        ];
        // The business groups, each declared beside its handlers.
        // Each with the key families its handlers touch (`KEYS`).
        let groups: &[(fn() -> Vec<Route>, &'static crate::iam::KeyUse)] = &[
            (handlers::demo::routes, &handlers::demo::KEYS),
            (handlers::settings::routes, &handlers::settings::KEYS),
            (handlers::operations::routes, &handlers::operations::KEYS),
            (handlers::orders::routes, &handlers::orders::KEYS),
            (handlers::finance::routes, &handlers::finance::KEYS),
            (handlers::dashboard::routes, &handlers::dashboard::KEYS),
            (handlers::assets::routes, &handlers::assets::KEYS),
            (handlers::cards::routes, &handlers::cards::KEYS),
            (handlers::chargers::routes, &handlers::chargers::KEYS),
            (handlers::commands::routes, &handlers::commands::KEYS),
            (handlers::budget::routes, &handlers::budget::KEYS),
            (handlers::certificates::routes, &handlers::certificates::KEYS),
        ];
        // A route that declares its own families (`touching`) keeps them.
        for (group, keys) in groups {
            let own = |route: &Route| !route.keys.reads.is_empty() || !route.keys.writes.is_empty();
            table.extend(group().into_iter().map(|route| if own(&route) { route } else { route.touching(keys) }));
        }
        for route in handlers::demo::routes() {
            if let Some(r) = table.iter_mut().find(|r| r.function == route.function) {
                r.demo = true;
            }
        }
        table
    })
}

/// The route for a method and path below the base, if any.
pub fn find(method: &Method, path: &str) -> Option<&'static Route> {
    routes().iter().find(|r| r.method == method && r.path == path)
}

/// The route served by a Lambda function.
pub fn by_function(function: &str) -> Option<&'static Route> {
    routes().iter().find(|r| r.function == function)
}

/// What one Lambda function of the template serves: an HTTP route of the
/// table or one of the charger link's WebSocket functions.
#[derive(Clone, Copy)]
pub enum Endpoint {
    Route(&'static Route),
    ChargerLink(&'static ocpp::LinkFunction),
}

/// The endpoint a function name (the template's `BACKOFFICE_FUNCTION`)
/// stands for; the bootstrap starts the runtime this names. A name that is
/// neither, or both, is a broken template and stops the function at init.
pub fn endpoint(function: &str) -> Result<Endpoint, String> {
    let link = ocpp::LINK_FUNCTIONS.iter().find(|f| f.function == function);
    match (by_function(function), link) {
        (Some(route), None) => Ok(Endpoint::Route(route)),
        (None, Some(link)) => Ok(Endpoint::ChargerLink(link)),
        (Some(_), Some(_)) => Err(format!("BACKOFFICE_FUNCTION {function} names both a route and a charger-link function")),
        (None, None) => Err(format!("BACKOFFICE_FUNCTION {function} is neither a route of the table nor a charger-link function")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn paths_and_function_names_are_unique_and_well_formed() {
        let mut paths = HashSet::new();
        let mut functions = HashSet::new();
        for r in routes() {
            assert!(paths.insert((r.method.clone(), r.path)), "duplicate route {} {}", r.method, r.path);
            assert!(functions.insert(r.function), "duplicate function {}", r.function);
            assert!(r.path.starts_with('/') && !r.path.ends_with('/'), "{}", r.path);
            assert!(
                r.function.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "function names are snake_case: {}",
                r.function
            );
            assert!(r.method == Method::GET || r.audited, "every write is audited: {}", r.path);
        }
    }
}
