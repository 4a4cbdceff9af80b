//! API Gateway HTTP API (payload format 2.0) events, as the HttpApi of
//! template.yaml hands them to a function, and reading the function's
//! answer back into the product's `{code, msg, data}` envelope.

use serde_json::{json, Map, Value};

/// One HTTP API request to `/partnerapi{path}`.
pub struct HttpRequest<'a> {
    pub method: &'a str,
    /// Route path below `/partnerapi`, e.g. `/login/index`.
    pub path: &'a str,
    pub query: &'a [(&'a str, &'a str)],
    pub bearer: Option<&'a str>,
    pub json_body: Option<Value>,
}

const API_BASE: &str = "/partnerapi";

/// The v2 event for `req`; `n` makes the request id unique.
pub fn http_api_v2(req: &HttpRequest<'_>, n: u64) -> Value {
    let raw_path = format!("{API_BASE}{}", req.path);
    let route_key = format!("{} {raw_path}", req.method);
    let raw_query = req
        .query
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect::<Vec<_>>()
        .join("&");
    let mut headers = Map::new();
    for (k, v) in [
        ("accept", "application/json, text/plain, */*"),
        ("accept-encoding", "gzip, deflate, br"),
        ("accept-language", "zh-CN,zh;q=0.9,en;q=0.8"),
        ("host", "bench.execute-api.us-east-1.amazonaws.com"),
        ("user-agent", "cold-start-bench"),
        ("x-forwarded-for", "203.0.113.7"),
        ("x-forwarded-port", "443"),
        ("x-forwarded-proto", "https"),
    ] {
        headers.insert(k.into(), json!(v));
    }
    if let Some(token) = req.bearer {
        headers.insert("authorization".into(), json!(format!("Bearer {token}")));
    }
    let body = req.json_body.as_ref().map(|b| b.to_string());
    if let Some(body) = &body {
        headers.insert("content-type".into(), json!("application/json"));
        headers.insert("content-length".into(), json!(body.len().to_string()));
    }
    let now = time::OffsetDateTime::now_utc();
    let time_text = now
        .format(time::macros::format_description!(
            "[day]/[month repr:short]/[year]:[hour]:[minute]:[second] +0000"
        ))
        .unwrap_or_default();
    let mut event = json!({
        "version": "2.0",
        "routeKey": route_key,
        "rawPath": raw_path,
        "rawQueryString": raw_query,
        "headers": headers,
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "bench",
            "domainName": "bench.execute-api.us-east-1.amazonaws.com",
            "domainPrefix": "bench",
            "http": {
                "method": req.method,
                "path": raw_path,
                "protocol": "HTTP/1.1",
                "sourceIp": "203.0.113.7",
                "userAgent": "cold-start-bench",
            },
            "requestId": format!("cold-start-{n}"),
            "routeKey": route_key,
            "stage": "$default",
            "time": time_text,
            "timeEpoch": (now.unix_timestamp_nanos() / 1_000_000) as i64,
        },
        "isBase64Encoded": false,
    });
    if !req.query.is_empty() {
        let params: Map<String, Value> = req.query.iter().map(|(k, v)| ((*k).to_string(), json!(v))).collect();
        event["queryStringParameters"] = Value::Object(params);
    }
    if let Some(body) = body {
        event["body"] = json!(body);
    }
    event
}

/// Percent-encoding of a query component (unreserved characters kept).
fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The function's answer (an HTTP API v2 response) as the envelope, when
/// it is a 200 envelope; otherwise what is wrong with it.
pub fn ok_envelope(response: &[u8]) -> Result<Value, String> {
    let text = String::from_utf8_lossy(response);
    let v: Value = serde_json::from_slice(response).map_err(|e| format!("the response is not JSON ({e}): {text}"))?;
    let status = v.get("statusCode").and_then(Value::as_u64);
    let body = v.get("body").and_then(Value::as_str).unwrap_or_default();
    let body = if v.get("isBase64Encoded").and_then(Value::as_bool).unwrap_or(false) {
        use base64::Engine;
        let raw = base64::engine::general_purpose::STANDARD
            .decode(body)
            .map_err(|e| format!("the response body is not base64 ({e})"))?;
        String::from_utf8_lossy(&raw).into_owned()
    } else {
        body.to_string()
    };
    let envelope: Value = serde_json::from_str(&body).map_err(|e| format!("the body is not an envelope ({e}): {body}"))?;
    let code = envelope.get("code").and_then(Value::as_u64);
    if status != Some(200) || code != Some(200) {
        return Err(format!("answered status {status:?}, code {code:?}: {body}"));
    }
    Ok(envelope)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_a_v2_event_with_query_token_and_body() {
        let e = http_api_v2(
            &HttpRequest {
                method: "GET",
                path: "/order/getList",
                query: &[("pageSize", "20"), ("plate", "京A 1")],
                bearer: Some("tok"),
                json_body: None,
            },
            3,
        );
        assert_eq!(e["version"], "2.0");
        assert_eq!(e["routeKey"], "GET /partnerapi/order/getList");
        assert_eq!(e["rawPath"], "/partnerapi/order/getList");
        assert_eq!(e["rawQueryString"], "pageSize=20&plate=%E4%BA%ACA%201");
        assert_eq!(e["queryStringParameters"]["plate"], "京A 1");
        assert_eq!(e["headers"]["authorization"], "Bearer tok");
        assert_eq!(e["requestContext"]["http"]["method"], "GET");
        assert_eq!(e["requestContext"]["requestId"], "cold-start-3");
        assert!(e.get("body").is_none());

        let login = http_api_v2(
            &HttpRequest {
                method: "POST",
                path: "/login/index",
                query: &[],
                bearer: None,
                json_body: Some(json!({"username": "admin"})),
            },
            1,
        );
        assert!(login.get("queryStringParameters").is_none());
        assert_eq!(login["body"], r#"{"username":"admin"}"#);
        assert_eq!(login["headers"]["content-type"], "application/json");
        assert!(login["headers"].get("authorization").is_none());
    }

    #[test]
    fn only_a_200_envelope_is_ok() {
        use base64::Engine;
        let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
        let answer = |status: u16, body: &str, encoded: bool| {
            let body = if encoded { b64(body) } else { body.to_string() };
            json!({"statusCode": status, "headers": {}, "body": body, "isBase64Encoded": encoded}).to_string()
        };
        let ok = ok_envelope(answer(200, r#"{"code":200,"msg":"success","data":{"token":"t"}}"#, true).as_bytes()).unwrap();
        assert_eq!(ok["data"]["token"], "t");
        assert!(ok_envelope(answer(200, r#"{"code":200,"msg":"success","data":1}"#, false).as_bytes()).is_ok());
        let refused = ok_envelope(answer(401, r#"{"code":401,"msg":"not signed in","data":null}"#, true).as_bytes());
        assert!(refused.unwrap_err().contains("not signed in"));
        // A 200 status around an error envelope does not count either.
        assert!(ok_envelope(answer(200, r#"{"code":500,"msg":"x","data":null}"#, false).as_bytes()).is_err());
        assert!(ok_envelope(b"not json").is_err());
        assert!(ok_envelope(answer(200, "<html>", false).as_bytes()).is_err());
    }
}
