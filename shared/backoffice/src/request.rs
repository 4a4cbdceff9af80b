//! The request a handler sees, the same whether it came through API
//! Gateway into a Lambda or through the local gateway.

use std::collections::HashMap;

use bytes::Bytes;
use envelope::{ApiError, Lang, Text};
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

    /// A query parameter, trimmed; empty counts as absent.
    pub fn query_param(&self, name: &str) -> Option<&str> {
        self.query.get(name).map(|v| v.trim()).filter(|v| !v.is_empty())
    }

    /// The body as a typed payload. JSON and form-encoded bodies are
    /// accepted (spec point 7); anything unparsable is a 400 naming the
    /// problem.
    pub fn payload<T: DeserializeOwned>(&self) -> Result<T, ApiError> {
        let value = self.body_value()?;
        // The path names the field at fault ("stuckAfterHours: invalid type
        // ..."); serde alone names only the type it wanted.
        serde_path_to_error::deserialize(value).map_err(|e| {
            let at = match e.path().to_string().as_str() {
                "." => String::new(),
                path => format!("{path}: "),
            };
            let e = e.into_inner();
            ApiError::bad_request(Text::new(
                format!("invalid request body: {at}{e}"),
                format!("请求参数有误：{at}{e}"),
            ))
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
        serde_json::from_slice(&self.body).map_err(|e| {
            ApiError::bad_request(Text::new(
                format!("the request body is not valid JSON: {e}"),
                format!("请求体不是有效的 JSON：{e}"),
            ))
        })
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
        let at = match e.path().to_string().as_str() {
            "." => String::new(),
            path => format!(" {path}"),
        };
        let e = e.into_inner();
        ApiError::bad_request(Text::new(format!("invalid query parameter{at}: {e}"), format!("查询参数{at}有误：{e}")))
    })
}

/// What a handler receives: the request and, on routes that need it, the
/// authenticated caller.
pub struct Call {
    pub req: ApiRequest,
    pub caller: Option<Caller>,
}

impl Call {
    /// The declared query parameters as the route's query type: one parse
    /// (numbers, enums, optional fields), a 400 naming the parameter at
    /// fault when a value does not fit.
    pub fn query<T: DeserializeOwned>(&self) -> Result<T, ApiError> {
        parse_query(&self.req.query)
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
