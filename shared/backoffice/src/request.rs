//! The request a handler sees, the same whether it came through API
//! Gateway into a Lambda or through the local gateway.

use std::collections::HashMap;

use bytes::Bytes;
use envelope::{msg, ApiError, Lang, Text};
use http::{HeaderMap, Method};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::session::Caller;

/// The largest body any endpoint accepts.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

#[derive(Debug, Clone)]
pub struct ApiRequest {
    pub method: Method,
    /// The path below `/partnerapi`, e.g. `/login/index`.
    pub path: String,
    pub query: HashMap<String, String>,
    pub headers: HeaderMap,
    pub body: Bytes,
    /// The address the call came from (for throttling and the system log).
    pub client_ip: String,
    /// Whether the browser reached us over https (the gateway's own TLS, a
    /// trusted proxy's `X-Forwarded-Proto`, or CloudFront and API Gateway,
    /// which speak nothing else): cookies set then are `Secure`.
    pub https: bool,
}

impl ApiRequest {
    pub fn new(method: Method, path: impl Into<String>) -> Self {
        ApiRequest {
            method,
            path: path.into(),
            query: HashMap::new(),
            headers: HeaderMap::new(),
            body: Bytes::new(),
            client_ip: "127.0.0.1".into(),
            https: false,
        }
    }

    /// Parses a raw query string (`a=1&b=x%20y`).
    pub fn with_query_string(mut self, raw: Option<&str>) -> Self {
        if let Some(raw) = raw {
            self.query = url::form_urlencoded::parse(raw.as_bytes()).into_owned().collect();
        }
        self
    }

    /// The language the caller reads (`Accept-Language`).
    pub fn lang(&self) -> Lang {
        Lang::from_accept_language(self.header("accept-language"))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    pub fn authorization(&self) -> Option<&str> {
        self.header("authorization")
    }

    /// The value of the cookie `name`, if the request carries it.
    pub fn cookie(&self, name: &str) -> Option<&str> {
        self.headers
            .get_all(http::header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.trim_matches('"'))
    }

    /// A query parameter, trimmed; empty counts as absent.
    pub fn query_param(&self, name: &str) -> Option<&str> {
        self.query.get(name).map(|v| v.trim()).filter(|v| !v.is_empty())
    }

    /// The body as a typed payload. JSON and form-encoded bodies are
    /// accepted; anything unparsable is a 400 naming the
    /// problem.
    pub fn payload<T: DeserializeOwned>(&self) -> Result<T, ApiError> {
        let value = self.body_value()?;
        // The path names the field at fault ("stuckAfterHours: invalid type
        // ..."); serde alone names only the type it wanted.
        serde_path_to_error::deserialize(value).map_err(|e| {
            let path = e.path().to_string();
            field_problem(&path, &e.into_inner().to_string(), Source::Body)
        })
    }

    /// The body as a JSON value (`{}` when empty).
    pub fn body_value(&self) -> Result<Value, ApiError> {
        if self.body.len() > MAX_BODY_BYTES {
            return Err(ApiError::payload_too_large());
        }
        if self.body.iter().all(u8::is_ascii_whitespace) {
            return Ok(Value::Object(Default::default()));
        }
        let form = self
            .header("content-type")
            .is_some_and(|ct| ct.to_ascii_lowercase().starts_with("application/x-www-form-urlencoded"));
        if form {
            let map = url::form_urlencoded::parse(&self.body)
                .into_owned()
                .map(|(k, v)| (k, Value::String(v)))
                .collect();
            return Ok(Value::Object(map));
        }
        serde_json::from_slice(&self.body).map_err(|e| ApiError::bad_request(msg::request::not_json(e.to_string())))
    }
}

/// Query parameters as a typed struct: numbers, enums and optional fields
/// read from their text in one step; empty values count as absent; a value
/// that does not fit is a 400 naming the parameter.
pub fn parse_query<T: DeserializeOwned>(raw: &HashMap<String, String>) -> Result<T, ApiError> {
    let pairs = raw.iter().filter(|(_, v)| !v.trim().is_empty()).map(|(k, v)| (k.as_str(), v.trim()));
    let encoded = url::form_urlencoded::Serializer::new(String::new()).extend_pairs(pairs).finish();
    let de = serde_urlencoded::Deserializer::new(url::form_urlencoded::parse(encoded.as_bytes()));
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let message = e.into_inner().to_string();
        if let Some(field) = message.strip_prefix("missing field `").and_then(|m| m.strip_suffix('`')) {
            return ApiError::bad_request(msg::request::query_required(field));
        }
        field_problem(&path, &message, Source::Query)
    })
}

/// A 400 about one field: the message names it (`limitW: must be ...`, for
/// whoever reads the answer alone), and `data.fields` carries it with the
/// words alone, so a form puts them beside its own label of the field
/// (the shape `domain::assets::invalid` answers for several fields).
pub fn field_invalid(field: &str, problem: Text) -> ApiError {
    let error = ApiError::bad_request(msg::request::field_problem(field, &problem));
    with_field(error, field, &problem)
}

/// `error` naming `field` in `data.fields` with these words (shown on
/// their own beside the field, so they start with a capital).
pub fn with_field(error: ApiError, field: &str, words: &Text) -> ApiError {
    error.with_data(serde_json::json!({ "field": field, "fields": [field_entry(field, &words.clone().capitalised())] }))
}

/// One entry of `data.fields`: the field and its words in both languages,
/// with the words' key and arguments when they come from the catalogue.
pub fn field_entry(field: &str, words: &Text) -> Value {
    let words = words.clone();
    let mut entry = serde_json::json!({ "field": field, "en": words.en, "zh": words.zh });
    if let Some(key) = words.key {
        entry["key"] = key.into();
        entry["args"] = Value::Object(words.args);
    }
    entry
}

/// What is wrong with one field of a submitted record, in words.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldProblem {
    /// Where, as a path into the submitted document (`segments[2].end`).
    pub field: String,
    pub words: Text,
}

impl FieldProblem {
    pub fn new(field: impl Into<String>, words: Text) -> Self {
        Self { field: field.into(), words }
    }
}

/// A 400 listing every problem in its message, and in `data.fields` each
/// problem's field with its own words, so a form can mark each field at
/// fault (`data.field` is the first one).
pub fn invalid_fields(problems: &[FieldProblem]) -> ApiError {
    let all = envelope::Arg::semicolons(problems.iter().map(|p| p.words.clone()).collect());
    let fields: Vec<Value> = problems.iter().map(|p| field_entry(&p.field, &p.words)).collect();
    let first = problems.first().map(|p| p.field.clone());
    ApiError::bad_request(msg::request::problems(all)).with_data(serde_json::json!({ "field": first, "fields": fields }))
}

/// Where a value that did not parse was sent.
#[derive(Clone, Copy)]
enum Source {
    Body,
    Query,
}

/// Marks a field parser's message that is its whole message (see
/// [`crate::params::field_error`]).
pub(crate) const WHOLE_MESSAGE: char = '\u{1f}';
/// Marks a field parser's message that [`field_problem`] completes with
/// the field's name, taken from the path (see [`crate::params::named_error`]).
pub(crate) const NAMED_BY_PATH: char = '\u{1e}';
/// After [`NAMED_BY_PATH`]: a catalogue key without arguments, for the
/// places only a constant text can go (serde's `expecting`).
pub(crate) const KEY: char = '\u{1c}';

/// What a field parser's message says, and whether the field's name goes before it.
fn carried(message: &str) -> Option<(Text, bool)> {
    if let Some(refusal) = names::Refusal::from_parse_error(message) {
        return Some((crate::messages::names::refusal(&refusal), true));
    }
    if let Some(rest) = message.strip_prefix(NAMED_BY_PATH) {
        let text = match rest.strip_prefix(KEY) {
            Some(key) => Text::lookup(key, vec![])?,
            None => Text::from_carried(rest)?,
        };
        return Some((text, true));
    }
    message.strip_prefix(WHOLE_MESSAGE).and_then(Text::from_carried).map(|t| (t, false))
}

/// A 400 for a value that did not parse, naming the field in both
/// languages (and in `data.fields`, for the form that sent it). A field's
/// own parser ([`crate::params`]) writes the whole message, or the part
/// after the field's name; an enum's unknown value lists the values
/// allowed; other serde errors are quoted after the path.
fn field_problem(path: &str, message: &str, source: Source) -> ApiError {
    // The whole path names a nested field ("rows[1].status"); "." is the body itself.
    let field = path;
    let named = |error: ApiError, words: &Text| if path == "." { error } else { with_field(error, field, words) };
    if let Some((words, by_path)) = carried(message) {
        let message = if by_path { msg::request::field_words(field, &words) } else { words.clone() };
        return named(ApiError::bad_request(message), &words);
    }
    if let Some(missing) = message.strip_prefix("missing field `").and_then(|m| m.strip_suffix('`')) {
        let at = if path == "." { missing.to_string() } else { format!("{path}.{missing}") };
        return with_field(ApiError::bad_request(msg::request::field_required(missing)), &at, &msg::request::required());
    }
    if let Some((got, allowed)) = unknown_variant(message) {
        let words = msg::request::one_of(allowed, format!("{got:?}"));
        return named(ApiError::bad_request(msg::request::field_words(field, &words)), &words);
    }
    let at = if path == "." { String::new() } else { format!("{path}: ") };
    let (whole, words) = match source {
        Source::Body => (msg::request::body_problem(at, message), msg::request::body_detail(message)),
        Source::Query => (msg::request::query_problem(at, message), msg::request::query_detail(message)),
    };
    named(ApiError::bad_request(whole), &words)
}

/// serde's "unknown variant `x`, expected one of `a`, `b`" (or "expected
/// `a` or `b`", "expected `a`") as the value sent and the values allowed.
fn unknown_variant(message: &str) -> Option<(&str, String)> {
    let rest = message.strip_prefix("unknown variant `")?;
    let (got, rest) = rest.split_once("`, expected ")?;
    let names: Vec<&str> = rest.split('`').skip(1).step_by(2).collect();
    (!names.is_empty()).then(|| (got, names.join(", ")))
}

/// What a handler receives: the request and, on routes that need it, the
/// authenticated caller.
pub struct Call {
    pub req: ApiRequest,
    pub caller: Option<Caller>,
    /// The query, parsed by the dispatch as the type the route declares
    /// (`route!(.., query = T)`); taken by [`Call::query`].
    pub query: std::sync::Mutex<Option<crate::openapi::ParsedQuery>>,
}

impl Call {
    /// The query parameters as the route's declared query type, parsed
    /// once by the dispatch (a bad value was already a 400 naming it).
    /// Asking for any other type, or twice, is a programming error (the
    /// document would not list what is read): a logged 500, which every
    /// handler test would meet.
    pub fn query<T: 'static>(&self) -> Result<T, ApiError> {
        let parsed = self.query.lock().unwrap_or_else(|e| e.into_inner()).take();
        match parsed.map(|q| q.downcast::<T>()) {
            Some(Ok(q)) => Ok(*q),
            _ => {
                tracing::error!(path = %self.req.path, parsed = std::any::type_name::<T>(), "a handler takes a query type its route does not declare (or takes it twice)");
                Err(ApiError::internal())
            }
        }
    }

    /// The authenticated caller; routes that are not public always have one.
    pub fn caller(&self) -> Result<&Caller, ApiError> {
        self.caller.as_ref().ok_or_else(|| ApiError::standard(401))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_and_json_bodies_both_parse() {
        #[derive(serde::Deserialize)]
        struct Login {
            username: String,
        }
        let mut req = ApiRequest::new(Method::POST, "/login/index");
        req.body = Bytes::from_static(br#"{"username":"admin"}"#);
        assert_eq!(req.payload::<Login>().unwrap().username, "admin");
        req.headers.insert("content-type", "application/x-www-form-urlencoded".parse().unwrap());
        req.body = Bytes::from_static(b"username=ad%20min");
        assert_eq!(req.payload::<Login>().unwrap().username, "ad min");
    }

    #[test]
    fn broken_json_is_a_400_that_says_so() {
        let mut req = ApiRequest::new(Method::POST, "/x");
        req.body = Bytes::from_static(b"{\"a\":");
        let err = req.body_value().unwrap_err();
        assert_eq!(err.code, 400);
        assert!(err.msg.en.contains("not valid JSON"));
    }

    #[test]
    fn field_errors_name_the_field_in_both_languages() {
        #[derive(Debug, serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        enum Kind {
            Ac,
            Dc,
        }
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Row {
            kind: Kind,
        }
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Body {
            rows: Vec<Row>,
            #[serde(default, deserialize_with = "crate::params::filter_text")]
            note: Option<String>,
        }
        let with = |body: &'static [u8]| {
            let mut req = ApiRequest::new(Method::POST, "/x");
            req.body = Bytes::from_static(body);
            req.payload::<Body>().unwrap_err().msg
        };
        let m = with(br#"{"rows": [{"kind": "ac"}, {"kind": "hvdc"}]}"#);
        assert_eq!(m.en, r#"rows[1].kind must be one of ac, dc (got "hvdc")"#);
        assert_eq!(m.zh, r#"rows[1].kind 只能是 ac, dc（收到 "hvdc"）"#);
        let m = with(br#"{}"#);
        assert_eq!((m.en.as_str(), m.zh.as_str()), ("rows is required", "缺少 rows"));
        let long = format!(r#"{{"rows": [], "note": "{}"}}"#, "x".repeat(65)).into_bytes().leak();
        let m = with(long);
        assert_eq!((m.en.as_str(), m.zh.as_str()), ("note is too long (at most 64 characters)", "note 过长（最多 64 个字符）"));
        // A query parameter: the same words, and a missing one is named.
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Q {
            kind: Option<Kind>,
            id: String,
        }
        let q = |pairs: &[(&str, &str)]| parse_query::<Q>(&pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()).unwrap_err().msg.en;
        assert_eq!(q(&[("kind", "x"), ("id", "1")]), r#"kind must be one of ac, dc (got "x")"#);
        assert_eq!(q(&[("kind", "dc")]), "the query parameter id is required");
    }

    #[test]
    fn a_field_that_does_not_parse_is_in_data_fields_for_the_form() {
        #[derive(Debug, serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        #[allow(dead_code)]
        struct Body {
            limit_w: Option<f64>,
            #[serde(default, deserialize_with = "crate::params::filter_text")]
            note: Option<String>,
            id: String,
        }
        let with = |body: &'static [u8]| {
            let mut req = ApiRequest::new(Method::POST, "/x");
            req.body = Bytes::from_static(body);
            req.payload::<Body>().unwrap_err().data.expect("data names the field")
        };
        let d = with(br#"{"id": "a", "limitW": "lots"}"#);
        assert_eq!(d["field"], "limitW");
        assert_eq!(d["fields"][0]["field"], "limitW");
        assert!(d["fields"][0]["en"].as_str().unwrap().starts_with("Invalid type"), "{d}");
        let d = with(br#"{"note": "x"}"#);
        assert_eq!(d["fields"][0], serde_json::json!({"field": "id", "en": "Is required", "zh": "不能为空", "key": "request.required", "args": {}}));
        let long = format!(r#"{{"id": "a", "note": "{}"}}"#, "x".repeat(65)).into_bytes().leak();
        let d = with(long);
        assert_eq!(d["fields"][0], serde_json::json!({"field": "note", "en": "Is too long (at most 64 characters)", "zh": "过长（最多 64 个字符）", "key": "request.tooLong", "args": {"max": "64"}}));
        let e = field_invalid("pageSize", msg::request::required());
        assert_eq!(e.msg.zh, "pageSize：不能为空");
        assert_eq!(e.data.unwrap()["fields"][0], serde_json::json!({"field": "pageSize", "en": "Is required", "zh": "不能为空", "key": "request.required", "args": {}}));
    }

    #[test]
    fn a_wrong_field_is_named() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Edit {
            name: String,
            limits: Vec<i64>,
        }
        let mut req = ApiRequest::new(Method::POST, "/x");
        req.body = Bytes::from_static(br#"{"name":"a","limits":[1,"two"]}"#);
        let err = req.payload::<Edit>().unwrap_err();
        assert_eq!(err.code, 400);
        assert!(err.msg.en.starts_with("invalid request body: limits[1]: invalid type: string \"two\""), "{}", err.msg.en);
        req.body = Bytes::from_static(br#"[]"#);
        let top = req.payload::<Edit>().unwrap_err().msg.en;
        assert!(top.starts_with("invalid request body: ") && !top.contains(".:"), "no path at the top level: {top}");
    }

    #[test]
    fn huge_bodies_are_refused() {
        let mut req = ApiRequest::new(Method::POST, "/x");
        req.body = Bytes::from(vec![b' '; MAX_BODY_BYTES + 1]);
        assert_eq!(req.body_value().unwrap_err().code, 413);
    }
}
