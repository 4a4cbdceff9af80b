//! The charging back-office: the route table, the dispatch every request
//! goes through, the domain rules and the handlers. Lambda bins
//! (`functions/`) and the local gateway (`infra/gateway`) are thin shells
//! around this crate.

pub mod browser_policy;
pub mod client_ip;
pub mod config;
pub mod ctx;
pub mod dispatch;
pub mod domain;
pub mod handlers;
pub mod http_client;
pub mod iam;
#[cfg(feature = "lambda")]
pub mod lambda;
#[cfg(feature = "lambda")]
pub mod lambda_outbound;
pub mod licence;
pub mod messages;
pub mod openapi;
pub mod paging;
pub mod password_work;
pub mod params;
pub mod reply;
pub mod request;
pub mod routes;
pub mod runtime;
pub mod secrets;
pub mod seed;
pub mod session;
pub mod validate;

pub use ctx::AppCtx;
pub use dispatch::dispatch;
pub use request::ApiRequest;
pub use routes::{routes, Route, API_BASE};
