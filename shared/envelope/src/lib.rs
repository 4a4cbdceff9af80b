//! The response envelope every `/partnerapi` endpoint answers with
//! (`{code, msg, msgKey, msgArgs, data}`), the error type handlers return,
//! and the message catalogue (every user-facing message by key, in both
//! product languages; see [`messages`]).
//!
//! The HTTP status always equals the envelope `code`, so a client may read
//! either one (the body's code first, the HTTP status when it is absent).

use bytes::Bytes;
use serde::Serialize;
use serde_json::Value;

pub mod message_path;
pub mod messages;
pub use messages::{msg, standard_message, standard_codes, Arg, Lang, Text};

/// The code a successful call answers with.
pub const SUCCESS_CODE: u16 = 200;
/// The message a successful call answers with (the same word in every
/// language, as the specification's clients expect).
pub fn success_msg() -> Text {
    msg::envelope::success()
}
/// Every value a client must treat as success in the `code` field: 200 and 0, number or string.
pub const SUCCESS_CODES: [&str; 2] = ["200", "0"];

/// True when `code` (number or string, as the spec allows) means success.
pub fn is_success_code(code: &Value) -> bool {
    match code {
        Value::Number(n) => n.as_u64().is_some_and(|n| n == 200 || n == 0),
        Value::String(s) => SUCCESS_CODES.contains(&s.as_str()),
        _ => false,
    }
}

/// The body of every answer: `msg` in the caller's language and, for a
/// message of the catalogue, its key and arguments (`msgKey`, `msgArgs`),
/// so a client may show its own words for it.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq)]
pub struct Envelope<T> {
    pub code: u16,
    pub msg: String,
    #[serde(rename = "msgKey", default, skip_serializing_if = "Option::is_none")]
    pub msg_key: Option<String>,
    #[serde(rename = "msgArgs", default, skip_serializing_if = "Option::is_none")]
    pub msg_args: Option<serde_json::Map<String, Value>>,
    pub data: T,
}

impl<T> Envelope<T> {
    /// The envelope of `code` carrying `msg` in `lang`, with its key and arguments.
    pub fn new(code: u16, msg: &Text, lang: Lang, data: T) -> Self {
        Envelope { code, msg: msg.get(lang).to_string(), msg_key: msg.key.map(str::to_string), msg_args: msg.key.map(|_| msg.args.clone()), data }
    }
}

/// An error a handler returns: a status code and a message in both languages.
/// The message says what is wrong in words a back-office user understands.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub code: u16,
    pub msg: Text,
    /// What a client can act on beside the message (a 400's `fields`), else `data: null`.
    pub data: Option<Value>,
    /// A 429's wait, in seconds, sent as `Retry-After`.
    pub retry_after_secs: Option<u64>,
}

/// The wait a 429 names when its maker gave none.
pub const DEFAULT_RETRY_AFTER_SECS: u64 = 60;

impl ApiError {
    pub fn new(code: u16, msg: impl Into<Text>) -> Self {
        Self { code, msg: msg.into(), data: None, retry_after_secs: None }
    }
    /// An error with the standard message of its code.
    pub fn standard(code: u16) -> Self {
        Self { code, msg: standard_message(code), data: None, retry_after_secs: None }
    }
    /// The same error answering `data` beside its message.
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }
    /// A 400 with its message written in code in both languages: only for
    /// code not moved to the catalogue yet (the charger link).
    pub fn invalid(en: impl Into<String>, zh: impl Into<String>) -> Self {
        Self::bad_request(Text::new(en, zh))
    }

    /// 400: the request is malformed or a field is invalid.
    pub fn bad_request(msg: Text) -> Self {
        Self::new(400, msg)
    }
    /// 401: no token, a token that does not verify, or a revoked session.
    pub fn unauthorized(msg: Text) -> Self {
        Self::new(401, msg)
    }
    /// 402: the access token has expired; the client refreshes and retries.
    pub fn token_expired() -> Self {
        Self::standard(402)
    }
    /// 403: authenticated, but the route's permission is missing.
    pub fn forbidden() -> Self {
        Self::standard(403)
    }
    /// 404: the addressed record does not exist.
    pub fn not_found(msg: Text) -> Self {
        Self::new(404, msg)
    }
    /// 409: a concurrent edit won, or the record already exists.
    pub fn conflict(msg: Text) -> Self {
        Self::new(409, msg)
    }
    /// 413: the body is larger than the endpoint accepts.
    pub fn payload_too_large() -> Self {
        Self::standard(413)
    }
    /// 429: too many attempts (login throttling); the client may try again
    /// after `retry_after_secs` (at least 1), which the answer's
    /// `Retry-After` header carries.
    pub fn too_many_requests(msg: Text, retry_after_secs: u64) -> Self {
        Self { retry_after_secs: Some(retry_after_secs.max(1)), ..Self::new(429, msg) }
    }
    /// 500: something broke on our side; details go to the log, not the client.
    pub fn internal() -> Self {
        Self::standard(500)
    }
    /// 503: a dependency (the store) is unavailable.
    pub fn unavailable() -> Self {
        Self::standard(503)
    }

    /// The envelope for this error, with `msg` in the caller's language.
    pub fn to_envelope(&self, lang: Lang) -> Envelope<Value> {
        Envelope::new(self.code, &self.msg, lang, self.data.clone().unwrap_or(Value::Null))
    }

    /// The HTTP answer for this error. Every 429 carries `Retry-After`
    /// (seconds; [`DEFAULT_RETRY_AFTER_SECS`] when its maker named none).
    pub fn to_response(&self, lang: Lang) -> http::Response<Bytes> {
        let mut resp = json_response(self.code, &self.to_envelope(lang));
        if self.code == 429 {
            let secs = self.retry_after_secs.unwrap_or(DEFAULT_RETRY_AFTER_SECS).max(1);
            resp.headers_mut().insert(http::header::RETRY_AFTER, http::HeaderValue::from(secs));
        }
        resp
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.msg.en)
    }
}

impl std::error::Error for ApiError {}

/// The HTTP answer for a successful call carrying `data`.
pub fn ok_response<T: Serialize>(data: &T) -> http::Response<Bytes> {
    json_response(SUCCESS_CODE, &Envelope::new(SUCCESS_CODE, &success_msg(), Lang::En, data))
}

/// The HTTP answer for a successful call with a message of its own
/// (for example "saved" after an edit), in the caller's language.
pub fn ok_response_with_msg<T: Serialize>(data: &T, msg: &Text, lang: Lang) -> http::Response<Bytes> {
    json_response(SUCCESS_CODE, &Envelope::new(SUCCESS_CODE, msg, lang, data))
}

fn json_response<T: Serialize>(status: u16, body: &Envelope<T>) -> http::Response<Bytes> {
    let bytes = serde_json::to_vec(body).unwrap_or_else(|_| {
        let unencodable = Envelope::new(500, &msg::envelope::unencodable(), Lang::En, Value::Null);
        serde_json::to_vec(&unencodable).unwrap_or_default()
    });
    http::Response::builder()
        .status(status)
        .header(http::header::CONTENT_TYPE, "application/json;charset=UTF-8")
        .header(http::header::CACHE_CONTROL, "no-store")
        .body(Bytes::from(bytes))
        .expect("static response parts are valid")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn success_codes_are_200_and_0_as_numbers_or_strings() {
        for ok in [json!(200), json!(0), json!("200"), json!("0")] {
            assert!(is_success_code(&ok), "{ok} must be success");
        }
        for bad in [json!(201), json!(401), json!("402"), json!(null), json!(true), json!(-0.5)] {
            assert!(!is_success_code(&bad), "{bad} must not be success");
        }
    }

    #[test]
    fn error_status_equals_envelope_code() {
        for code in [400u16, 401, 402, 403, 404, 409, 413, 429, 500, 503] {
            let resp = ApiError::standard(code).to_response(Lang::En);
            assert_eq!(resp.status().as_u16(), code);
            let env: Envelope<Value> = serde_json::from_slice(resp.body()).unwrap();
            assert_eq!(env.code, code);
            assert!(!env.msg.is_empty());
            assert_eq!(env.data, Value::Null);
        }
    }

    #[test]
    fn ok_wraps_data_with_success_code_and_msg() {
        let resp = ok_response(&json!({"token": "t"}));
        assert_eq!(resp.status(), 200);
        let env: Value = serde_json::from_slice(resp.body()).unwrap();
        assert_eq!(env, json!({"code": 200, "msg": "success", "msgKey": "envelope.success", "msgArgs": {}, "data": {"token": "t"}}));
    }

    #[test]
    fn message_language_follows_the_caller() {
        let err = ApiError::token_expired();
        assert_eq!(err.to_envelope(Lang::Zh).msg, msg::status::_402().zh);
        assert_eq!(err.to_envelope(Lang::En).msg, "token expired");
        assert_eq!(err.to_envelope(Lang::Zh).msg_key.as_deref(), Some("status.402"));
    }

    #[test]
    fn every_429_carries_retry_after() {
        let named = ApiError::too_many_requests(msg::status::_429(), 42).to_response(Lang::En);
        assert_eq!(named.headers()[http::header::RETRY_AFTER], "42");
        let at_least_one = ApiError::too_many_requests(msg::status::_429(), 0).to_response(Lang::En);
        assert_eq!(at_least_one.headers()[http::header::RETRY_AFTER], "1");
        let standard = ApiError::standard(429).to_response(Lang::En);
        assert_eq!(standard.headers()[http::header::RETRY_AFTER], DEFAULT_RETRY_AFTER_SECS.to_string().as_str());
        assert!(ApiError::standard(400).to_response(Lang::En).headers().get(http::header::RETRY_AFTER).is_none());
    }
}
