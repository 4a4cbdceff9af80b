//! The OpenAPI 3.1 document: it lists exactly the route table, it has the
//! structure OpenAPI 3.1 requires, every reference resolves, the committed
//! copy (`docs/openapi.json`) equals the generated one, and the dispatch
//! hands a handler only the query parameters the document lists.

mod common;

use std::collections::{BTreeSet, HashMap};

use backoffice::openapi::{document, document_text, error_statuses};
use backoffice::routes::{routes, Access};
use common::*;
use http::Method;
use serde_json::Value;

const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

fn committed_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/openapi.json")
}

#[test]
fn the_document_lists_exactly_the_route_table() {
    let doc = document();
    let mut listed = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("path item") {
            assert!(METHODS.contains(&method.as_str()), "{path}: {method} is not an HTTP method");
            listed.insert((method.to_uppercase(), path.clone(), op["operationId"].as_str().unwrap_or_default().to_string()));
        }
    }
    let table: BTreeSet<_> = routes().iter().map(|r| (r.method.to_string(), r.full_path(), r.function.to_string())).collect();
    let missing: Vec<_> = table.difference(&listed).collect();
    let extra: Vec<_> = listed.difference(&table).collect();
    assert!(missing.is_empty() && extra.is_empty(), "not in the document: {missing:?}; not in the route table: {extra:?}");
}

#[test]
fn each_operation_says_who_may_call_it_and_what_it_answers() {
    let doc = document();
    for r in routes() {
        let op = &doc["paths"][r.full_path()][r.method.as_str().to_ascii_lowercase()];
        assert_eq!(op["summary"], r.summary, "{}", r.function);
        assert_eq!(op["x-audited"], r.audited, "{}", r.function);
        match r.access {
            Access::Public => assert_eq!(op["security"], serde_json::json!([]), "{}", r.function),
            _ => assert_eq!(op["security"][0]["bearer"], serde_json::json!([]), "{}", r.function),
        }
        match r.access {
            Access::Permission(p) => assert_eq!(op["x-permission"], p, "{}", r.function),
            _ => assert!(op.get("x-permission").is_none(), "{}", r.function),
        }
        let responses = op["responses"].as_object().expect("responses");
        let mut expected: Vec<String> = error_statuses(r).iter().map(u16::to_string).collect();
        expected.push("200".into());
        expected.sort();
        let mut got: Vec<String> = responses.keys().cloned().collect();
        got.sort();
        assert_eq!(got, expected, "{}", r.function);
        for (status, resp) in responses {
            let resp = match resp["$ref"].as_str() {
                Some(r) => doc.pointer(r.trim_start_matches('#')).unwrap_or_else(|| panic!("{r} does not resolve")),
                None => resp,
            };
            let schema = &resp["content"]["application/json"]["schema"];
            assert_eq!(schema["required"], serde_json::json!(["code", "msg", "data"]), "{} {status}", r.function);
            assert_eq!(schema["properties"]["code"]["const"].to_string(), *status, "{} {status}: code equals the HTTP status", r.function);
        }
        // Writes take a JSON body; reads with inputs take query parameters.
        if r.method == Method::POST && r.path != "/login/logout" {
            assert!(op["requestBody"]["content"]["application/json"]["schema"].is_object(), "{} declares no body", r.function);
        }
        if r.audited && r.method != Method::GET {
            assert!(responses.contains_key("400") && responses.contains_key("413"), "{}", r.function);
        }
        if matches!(r.access, Access::Permission(_)) {
            assert!(responses.contains_key("401") && responses.contains_key("403"), "{}", r.function);
        }
    }
}

/// Every `$ref` in `v`.
fn refs<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                out.push(r);
            }
            map.values().for_each(|x| refs(x, out));
        }
        Value::Array(list) => list.iter().for_each(|x| refs(x, out)),
        _ => {}
    }
}

/// Schemas whose `default` is empty (text or list) while they refuse it.
fn defaults_refused(v: &Value, at: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            let refuses_empty = map.get("minLength").and_then(Value::as_u64).is_some_and(|n| n > 0) || map.contains_key("pattern");
            if refuses_empty && map.get("default") == Some(&Value::from("")) {
                out.push(at.to_string());
            }
            let refuses_no_items = map.get("minItems").and_then(Value::as_u64).is_some_and(|n| n > 0);
            if refuses_no_items && map.get("default") == Some(&Value::Array(Vec::new())) {
                out.push(at.to_string());
            }
            for (k, x) in map {
                defaults_refused(x, &format!("{at}/{k}"), out);
            }
        }
        Value::Array(list) => list.iter().enumerate().for_each(|(i, x)| defaults_refused(x, &format!("{at}/{i}"), out)),
        _ => {}
    }
}

#[test]
fn the_document_is_openapi_3_1_and_every_reference_resolves() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.1.0");
    assert!(doc["info"]["title"].is_string() && doc["info"]["version"].is_string());
    assert_eq!(doc["components"]["securitySchemes"]["bearer"]["scheme"], "bearer");
    let mut ids = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        assert!(path.starts_with("/partnerapi/"), "{path}");
        for (method, op) in item.as_object().unwrap() {
            assert!(ids.insert(op["operationId"].as_str().unwrap().to_string()), "operationId repeats at {method} {path}");
            for p in op["parameters"].as_array().into_iter().flatten() {
                assert_eq!(p["in"], "query", "{path}");
                assert!(p["name"].as_str().is_some_and(|n| !n.is_empty()), "{path}: {p}");
                assert!(p["required"].is_boolean() && p["schema"].is_object(), "{path}: {p}");
                assert!(!p["schema"]["type"].as_array().is_some_and(|t| t.contains(&Value::from("null"))), "{path}: a query parameter is never null: {p}");
            }
            for (status, resp) in op["responses"].as_object().unwrap() {
                assert!(status.len() == 3 && status.parse::<u16>().is_ok(), "{path}: {status}");
                let resp = resp["$ref"].as_str().and_then(|r| doc.pointer(r.trim_start_matches('#'))).unwrap_or(resp);
                assert!(resp["description"].as_str().is_some_and(|d| !d.is_empty()), "{path} {status}");
            }
        }
    }
    // A default must be a value its own schema accepts (openapi-spec-validator checks this too).
    let mut empty_defaults = Vec::new();
    defaults_refused(&doc, "", &mut empty_defaults);
    assert!(empty_defaults.is_empty(), "defaults their schema refuses: {empty_defaults:?}");
    let mut all = Vec::new();
    refs(&doc, &mut all);
    assert!(!all.is_empty(), "request bodies refer to component schemas");
    for r in all {
        let pointer = r.strip_prefix('#').unwrap_or_else(|| panic!("{r} is not a local reference"));
        assert!(doc.pointer(pointer).is_some(), "{r} does not resolve");
    }
}

#[test]
fn declared_types_reach_the_document() {
    let doc = document();
    let station_list = &doc["paths"]["/partnerapi/station/getList"]["get"]["parameters"];
    let names: BTreeSet<&str> = station_list.as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, BTreeSet::from(["pageNo", "pageSize", "name", "regionCode", "status"]));
    let status = station_list.as_array().unwrap().iter().find(|p| p["name"] == "status").unwrap();
    assert_eq!(status["schema"]["enum"], serde_json::json!(["planning", "operating", "suspended", "closed"]));
    let page_size = station_list.as_array().unwrap().iter().find(|p| p["name"] == "pageSize").unwrap();
    assert_eq!((page_size["schema"]["minimum"].as_u64(), page_size["schema"]["maximum"].as_u64()), (Some(1), Some(200)));
    let detail = &doc["paths"]["/partnerapi/station/getDetail"]["get"]["parameters"][0];
    assert_eq!((detail["name"].as_str(), detail["required"].as_bool()), (Some("id"), Some(true)));
    // The sign-in body and answer come from the handler's types.
    let login = &doc["paths"]["/partnerapi/login/index"]["post"];
    let body_ref = login["requestBody"]["content"]["application/json"]["schema"]["$ref"].as_str().unwrap();
    let body = doc.pointer(body_ref.trim_start_matches('#')).unwrap();
    assert!(body["properties"]["username"].is_object() && body["properties"]["password"].is_object(), "{body}");
    let data = &login["responses"]["200"]["content"]["application/json"]["schema"]["properties"]["data"];
    assert_eq!(data["required"], serde_json::json!(["token", "refreshToken"]), "{data}");
}

#[test]
fn the_committed_copy_equals_the_generated_document() {
    let generated = document_text();
    let path = committed_path();
    if std::env::var("BACKOFFICE_UPDATE_OPENAPI").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "docs/openapi.json differs from the route table's document: regenerate it with \
         BACKOFFICE_UPDATE_OPENAPI=1 cargo test -p backoffice --test openapi"
    );
}

#[test]
fn a_query_is_checked_against_the_declared_type_only() {
    let route = backoffice::routes::find(&Method::GET, "/station/getList").unwrap();
    let raw = |pairs: &[(&str, &str)]| -> HashMap<String, String> { pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect() };
    // Parameters the type does not declare are ignored; the handler may
    // parse the query as the declared type only.
    let declared = route.doc.check_query(&raw(&[("name", "North"), ("pageNo", "2"), ("secret", "x")])).unwrap();
    assert!(declared.is_some());
    let e = route.doc.check_query(&raw(&[("pageNo", "0")])).unwrap_err();
    assert_eq!(e.code, 400);
    assert!(e.msg.en.starts_with("pageNo must be a whole number"), "{}", e.msg.en);
    // A route that declares no query parameters has no query type.
    let info = backoffice::routes::find(&Method::GET, "/index/userInfo").unwrap();
    assert!(info.doc.check_query(&raw(&[("pageNo", "0")])).unwrap().is_none());
}

#[tokio::test]
async fn undeclared_query_parameters_are_ignored_and_declared_ones_checked() {
    let ctx = product().await;
    let token = login(&ctx, "admin", ADMIN_PW).await;
    // pageSize is declared: a bad value is refused.
    let bad = get(&ctx, "/userManagement/getList?pageSize=0", Some(&token)).await;
    assert_eq!(bad.code(), 400, "{}", bad.msg());
    // An undeclared one changes nothing.
    let ignored = get(&ctx, "/userManagement/getList?pagesize=0&bogus=1", Some(&token)).await;
    assert_eq!(ignored.code(), 200, "{}", ignored.msg());
}

/// The places in `schema` (following local references) that accept any
/// value: `true`, `{}`, or a schema that says nothing of the value (only a
/// description or title). `additionalProperties: true` is allowed: it
/// leaves room beside declared properties, it does not replace them.
fn open_schemas(doc: &Value, schema: &Value, at: &str, seen: &mut BTreeSet<String>, out: &mut Vec<String>) {
    const SAYS_SOMETHING: [&str; 9] = ["type", "$ref", "properties", "items", "oneOf", "anyOf", "allOf", "const", "enum"];
    match schema {
        Value::Bool(true) => out.push(format!("{at}: true")),
        Value::Object(map) => {
            if !SAYS_SOMETHING.iter().any(|k| map.contains_key(*k)) {
                out.push(format!("{at}: {schema}"));
            }
            if let Some(r) = map.get("$ref").and_then(Value::as_str) {
                if seen.insert(r.to_string()) {
                    let target = doc.pointer(r.trim_start_matches('#')).unwrap_or(&Value::Null);
                    open_schemas(doc, target, r, seen, out);
                }
            }
            if let Some(props) = map.get("properties").and_then(Value::as_object) {
                for (name, p) in props {
                    open_schemas(doc, p, &format!("{at}.{name}"), seen, out);
                }
            }
            if let Some(items) = map.get("items") {
                open_schemas(doc, items, &format!("{at}[]"), seen, out);
            }
            for key in ["oneOf", "anyOf", "allOf", "prefixItems"] {
                for (i, s) in map.get(key).and_then(Value::as_array).into_iter().flatten().enumerate() {
                    open_schemas(doc, s, &format!("{at}.{key}[{i}]"), seen, out);
                }
            }
            if let Some(extra) = map.get("additionalProperties").filter(|v| v.is_object()) {
                open_schemas(doc, extra, &format!("{at}{{*}}"), seen, out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_answer_is_a_declared_type() {
    let undeclared: Vec<&str> = routes().iter().filter(|r| r.doc.data.is_none()).map(|r| r.function).collect();
    assert!(undeclared.is_empty(), "routes whose answer has no declared type (add `data = T`, `()` for none): {undeclared:?}");
    let doc = document();
    let mut open = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let data = &op["responses"]["200"]["content"]["application/json"]["schema"]["properties"]["data"];
            open_schemas(&doc, data, &format!("{method} {path} data"), &mut BTreeSet::new(), &mut open);
        }
    }
    assert!(open.is_empty(), "answers with parts of any shape (declare their types):\n{}", open.join("\n"));
}

#[test]
fn an_open_schema_is_found() {
    let doc = serde_json::json!({"components": {"schemas": {"A": {"type": "object", "properties": {"x": {}, "y": {"type": "array", "items": true}}}}}});
    let mut open = Vec::new();
    open_schemas(&doc, &serde_json::json!({"$ref": "#/components/schemas/A"}), "data", &mut BTreeSet::new(), &mut open);
    assert_eq!(open.len(), 2, "{open:?}");
}
