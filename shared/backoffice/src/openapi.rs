//! The OpenAPI 3.1 document of every `/partnerapi` endpoint, made from the
//! route table: path, method, summary, operationId (the Lambda function
//! name), who may call it (`security`, `x-access`, `x-permission`), whether
//! it is written to the system log (`x-audited`), and the JSON Schemas
//! (2020-12, which OpenAPI 3.1 uses as is) of the types each route declares
//! beside its handler: query parameters, JSON body, `data` of the answer.
//!
//! One source: a route's query parameters are a typed struct declared with
//! the route (`query = T`). The dispatch parses the query as `T`
//! ([`OpDoc::check_query`]) and a handler can take it only as `T`
//! ([`crate::request::Call::query`] refuses any other type), so the
//! document lists exactly what a handler reads.
//!
//! The local gateway serves the document at `GET /partnerapi/openapi.json`.
//! That path is not a route-table entry: it describes the table rather
//! than being one of its endpoints, needs no Lambda of its own, and the
//! document lists exactly the table (a test checks).
//!
//! The document is made only with the `openapi` feature (on by default,
//! off in the Lambda build): without it a route still records which types
//! it declares and parses its query (by the query type's serde
//! deserializer, never its schema), but
//! the document's code and the schemas of every declared type are not
//! linked into the functions.

use std::any::Any;
use std::collections::HashMap;
#[cfg(feature = "openapi")]
use std::collections::BTreeMap;

use envelope::ApiError;
#[cfg(feature = "openapi")]
use envelope::standard_message;
use http::Method;
use schemars::JsonSchema;
#[cfg(feature = "openapi")]
use schemars::generate::SchemaSettings;
#[cfg(feature = "openapi")]
use schemars::{Schema, SchemaGenerator};
use serde::de::DeserializeOwned;
#[cfg(feature = "openapi")]
use serde_json::{json, Map, Value};

use crate::routes::{Access, Route};
#[cfg(feature = "openapi")]
use crate::routes::routes;

/// The path the local gateway serves the document at (below [`crate::API_BASE`]).
pub const DOCUMENT_PATH: &str = "/openapi.json";

/// One declared type. With the `openapi` feature it makes the type's
/// schema; without it, it only records that the route declares a type
/// (which the error statuses depend on).
#[derive(Clone, Copy)]
pub struct DeclaredType {
    #[cfg(feature = "openapi")]
    make: fn(&mut SchemaGenerator) -> Schema,
}

impl DeclaredType {
    fn of<T: JsonSchema>() -> Self {
        DeclaredType {
            #[cfg(feature = "openapi")]
            make: schema_of::<T>,
        }
    }

    /// The type's schema, made by (and registered with) `generator`.
    #[cfg(feature = "openapi")]
    pub fn schema(&self, generator: &mut SchemaGenerator) -> Schema {
        (self.make)(generator)
    }
}
/// A query parsed as its route's declared type, handed to the handler.
pub type ParsedQuery = Box<dyn Any + Send>;

/// Parses a raw query as the declared type (400 when it does not parse).
pub type QueryParse = fn(&HashMap<String, String>) -> Result<ParsedQuery, ApiError>;

/// A route's declared query parameters: their schema and their parser.
#[derive(Clone, Copy)]
pub struct QueryDecl {
    pub schema: DeclaredType,
    pub parse: QueryParse,
}

/// What a route declares about its inputs and outputs (see `route!`).
#[derive(Clone, Copy, Default)]
pub struct OpDoc {
    pub query: Option<QueryDecl>,
    pub body: Option<DeclaredType>,
    pub data: Option<DeclaredType>,
    /// Error statuses beyond the ones implied by access and method.
    pub errors: &'static [u16],
}

#[cfg(feature = "openapi")]
fn schema_of<T: JsonSchema>(g: &mut SchemaGenerator) -> Schema {
    g.subschema_for::<T>()
}

/// The query as `T`, parsed once before any handler runs.
fn parse_query_as<T: DeserializeOwned + Send + 'static>(raw: &HashMap<String, String>) -> Result<ParsedQuery, ApiError> {
    crate::request::parse_query::<T>(raw).map(|q| Box::new(q) as ParsedQuery)
}

impl OpDoc {
    pub const fn new() -> Self {
        OpDoc { query: None, body: None, data: None, errors: &[] }
    }
    /// The query parameters: a struct whose fields are the parameters, as
    /// the handler parses them ([`crate::request::Call::query`]).
    pub fn query<T: JsonSchema + DeserializeOwned + Send + 'static>(mut self) -> Self {
        self.query = Some(QueryDecl { schema: DeclaredType::of::<T>(), parse: parse_query_as::<T> });
        self
    }
    /// The JSON body the handler parses.
    pub fn body<T: JsonSchema>(mut self) -> Self {
        self.body = Some(DeclaredType::of::<T>());
        self
    }
    /// The `data` of a successful answer.
    pub fn data<T: JsonSchema>(mut self) -> Self {
        self.data = Some(DeclaredType::of::<T>());
        self
    }
    pub fn errors(mut self, errors: &'static [u16]) -> Self {
        self.errors = errors;
        self
    }

    /// The query parsed as the declared type (none when the route
    /// declares none); a 400 when it does not parse.
    pub fn check_query(&self, raw: &HashMap<String, String>) -> Result<Option<ParsedQuery>, ApiError> {
        self.query.as_ref().map(|decl| (decl.parse)(raw)).transpose()
    }
}

/// The error statuses a route can answer: implied by its access and
/// method, plus the ones it declares.
pub fn error_statuses(route: &Route) -> Vec<u16> {
    let mut codes: Vec<u16> = route.doc.errors.to_vec();
    let has_input = route.doc.query.is_some() || route.doc.body.is_some() || route.method != Method::GET;
    if has_input {
        codes.push(400);
    }
    match route.access {
        Access::Public => {}
        Access::Session => codes.push(401),
        Access::SignedIn => codes.extend([401, 402]),
        Access::Permission(_) => codes.extend([401, 402, 403]),
    }
    if route.method != Method::GET {
        // The body limit holds for every write.
        codes.push(413);
        if matches!(route.access, Access::Permission(_)) {
            // Writes name a record that may be gone or edited meanwhile.
            codes.extend([404, 409]);
        }
    }
    codes.sort_unstable();
    codes.dedup();
    codes
}

#[cfg(feature = "openapi")]
/// Removes `null` from a schema (from `type` lists, `enum` and `anyOf`): a
/// query parameter is absent or text, never null.
fn without_null(schema: &mut Value) {
    let Some(obj) = schema.as_object_mut() else { return };
    if let Some(Value::Array(types)) = obj.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types[0].clone();
            obj.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(values)) = obj.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    if let Some(Value::Array(mut options)) = obj.remove("anyOf") {
        options.retain(|o| o.get("type") != Some(&json!("null")));
        if options.len() == 1 {
            if let Some(Value::Object(only)) = options.pop() {
                for (k, v) in only {
                    obj.entry(k).or_insert(v);
                }
            }
        } else {
            obj.insert("anyOf".into(), Value::Array(options));
        }
    }
}

#[cfg(feature = "openapi")]
/// The query parameters of a declared query struct.
fn parameters(decl: &QueryDecl) -> Vec<Value> {
    let mut inline = SchemaSettings::draft2020_12().with(|s| s.inline_subschemas = true).into_generator();
    let schema = decl.schema.schema(&mut inline).to_value();
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = Vec::new();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, prop) in props {
            let mut prop = prop.clone();
            without_null(&mut prop);
            // An absent parameter is absent, never null: a `null` default
            // (an optional field's serde default) says nothing true.
            if prop.get("default") == Some(&Value::Null) {
                prop.as_object_mut().map(|o| o.remove("default"));
            }
            let description = prop.as_object_mut().and_then(|o| o.remove("description"));
            let mut param = json!({ "name": name, "in": "query", "required": required.contains(&name.as_str()), "schema": prop });
            if let Some(d) = description {
                param["description"] = d;
            }
            out.push(param);
        }
    }
    out
}

#[cfg(feature = "openapi")]
/// `{code, msg, msgKey, msgArgs, data}` with the given code and data schema.
fn envelope_schema(code: u16, data: Value) -> Value {
    json!({
        "type": "object",
        "required": ["code", "msg", "data"],
        "properties": {
            "code": { "const": code },
            "msg": { "type": "string", "description": "The message in the caller's language (Accept-Language)." },
            "msgKey": { "$ref": "#/components/schemas/MessageKey" },
            "msgArgs": { "$ref": "#/components/schemas/MessageArgs" },
            "data": data,
        },
    })
}

#[cfg(feature = "openapi")]
/// The arguments of a catalogue message by placeholder name: text as shown,
/// another message as `{key, args}` (or `{en, zh}`), a list of them as
/// `{list, separator}` (the separator is a key).
fn message_args() -> Value {
    json!({
        "type": "object",
        "description": "The message's arguments by placeholder name: text as shown; another message as {key, args}, or {en, zh} for words without a key; several as {list, separator} (the separator's key).",
        "additionalProperties": true,
    })
}

#[cfg(feature = "openapi")]
fn operation(route: &Route, inputs: &mut SchemaGenerator, outputs: &mut SchemaGenerator) -> Value {
    let mut op = json!({
        "operationId": route.function,
        "summary": route.summary,
        "tags": [route.path.trim_start_matches('/').split('/').next().unwrap_or_default()],
        "x-audited": route.audited,
    });
    let (access, security) = match route.access {
        Access::Public => ("public", json!([])),
        Access::Session => ("session", json!([{ "bearer": [] }])),
        Access::SignedIn => ("signedIn", json!([{ "bearer": [] }])),
        Access::Permission(p) => {
            op["x-permission"] = json!(p);
            ("permission", json!([{ "bearer": [] }]))
        }
    };
    op["x-access"] = json!(access);
    op["security"] = security;
    // A remote operation's OCPP call and that call's schema, from the
    // protocol's own types (the routes build them).
    if let Some(action) = crate::handlers::commands::operation(route.path) {
        op["x-ocpp-action"] = json!(action.name());
        op["x-ocpp-request"] = serde_json::to_value(action.request_json_schema(inputs)).unwrap_or_default();
    }
    if let Some(decl) = &route.doc.query {
        op["parameters"] = Value::Array(parameters(decl));
    }
    if let Some(body) = route.doc.body {
        op["requestBody"] = json!({
            "required": true,
            "content": { "application/json": { "schema": body.schema(inputs).to_value() } },
        });
    }
    let data = match route.doc.data {
        Some(data) => data.schema(outputs).to_value(),
        None => json!({ "description": "see the summary; not described as a type yet" }),
    };
    let mut responses = Map::new();
    responses.insert(
        "200".into(),
        json!({
            "description": "success",
            "content": { "application/json": { "schema": envelope_schema(200, data) } },
        }),
    );
    for code in error_statuses(route) {
        responses.insert(code.to_string(), json!({ "$ref": format!("#/components/responses/{}", error_name(code)) }));
    }
    op["responses"] = Value::Object(responses);
    op
}

#[cfg(feature = "openapi")]
/// Removes an empty `default` (text or list) from schemas that refuse it
/// (`minLength` or `pattern`, `minItems`): such a field defaults to empty
/// in Rust only so the handler can answer a 400 naming it, not because
/// empty is valid.
fn drop_refused_defaults(v: &mut Value) {
    match v {
        Value::Object(map) => {
            let refuses_empty = map.get("minLength").and_then(Value::as_u64).is_some_and(|n| n > 0) || map.contains_key("pattern");
            if refuses_empty && map.get("default") == Some(&json!("")) {
                map.remove("default");
            }
            let refuses_no_items = map.get("minItems").and_then(Value::as_u64).is_some_and(|n| n > 0);
            if refuses_no_items && map.get("default") == Some(&json!([])) {
                map.remove("default");
            }
            map.values_mut().for_each(drop_refused_defaults);
        }
        Value::Array(list) => list.iter_mut().for_each(drop_refused_defaults),
        _ => {}
    }
}

#[cfg(feature = "openapi")]
/// `data` of an error answer: null, except a 400 about the fields of a record
/// (stations, piles, connectors, tariffs, cards), which names them so a form
/// can mark each (`field` is the first; `en`/`zh` are that field's own message).
fn error_data(code: u16) -> Value {
    if code == 403 {
        // A missing permission is named (the SPA's 403 page says which).
        return json!({
            "anyOf": [
                { "type": "null" },
                { "type": "object", "required": ["permission"], "properties": { "permission": { "type": "string" } } },
            ],
        });
    }
    if code != 400 {
        return json!({ "type": "null" });
    }
    json!({
        "anyOf": [
            { "type": "null" },
            {
                "type": "object",
                "required": ["field", "fields"],
                "properties": {
                    "field": { "type": ["string", "null"] },
                    "fields": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["field", "en", "zh"],
                            "properties": {
                                "field": { "type": "string" },
                                "en": { "type": "string" },
                                "zh": { "type": "string" },
                                "key": { "$ref": "#/components/schemas/MessageKey" },
                                "args": { "$ref": "#/components/schemas/MessageArgs" },
                            },
                        },
                    },
                },
            },
        ],
    })
}

#[cfg(feature = "openapi")]
fn error_name(code: u16) -> String {
    format!("Error{code}")
}

#[cfg(feature = "openapi")]
/// One shared answer per error status: the envelope with that code and
/// `data: null`, described by the standard message.
fn error_responses() -> Map<String, Value> {
    let mut codes: Vec<u16> = routes().iter().flat_map(error_statuses).collect();
    codes.sort_unstable();
    codes.dedup();
    codes
        .into_iter()
        .map(|code| {
            let mut answer = json!({
                "description": standard_message(code).en,
                "content": { "application/json": { "schema": envelope_schema(code, error_data(code)) } },
            });
            if code == 429 {
                answer["headers"] = json!({ "Retry-After": {
                    "description": "Seconds to wait before trying again",
                    "required": true,
                    "schema": { "type": "integer", "minimum": 1 },
                } });
            }
            (error_name(code), answer)
        })
        .collect()
}

#[cfg(feature = "openapi")]
/// The whole document.
pub fn document() -> Value {
    let components = SchemaSettings::draft2020_12().with(|s| {
        s.definitions_path = "/components/schemas".into();
        s.meta_schema = None;
    });
    let mut inputs = components.clone().for_deserialize().into_generator();
    // Answers are inlined so request and answer types never share a name;
    // only a recursive answer type (a tree node) cannot be, and is kept
    // among the components under its own name.
    let mut outputs = SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.definitions_path = "/components/schemas".into();
        })
        .for_serialize()
        .into_generator();
    let mut paths: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
    for route in routes() {
        let op = operation(route, &mut inputs, &mut outputs);
        paths.entry(route.full_path()).or_default().insert(route.method.as_str().to_ascii_lowercase(), op);
    }
    let mut schemas = inputs.take_definitions(true);
    for (name, schema) in outputs.take_definitions(true) {
        assert!(!schemas.contains_key(&name), "the answer type {name} has the name of a request type: rename one");
        schemas.insert(name, schema);
    }
    schemas.insert(
        "MessageKey".into(),
        json!({ "type": "string", "description": "A message's key in the message catalogue (shared/envelope/messages/{zh,en}.json), so a client can show its own words for it (words beside a form's field with a capital first letter)." }),
    );
    schemas.insert("MessageArgs".into(), message_args());
    let mut schemas = Value::Object(schemas);
    drop_refused_defaults(&mut schemas);
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "EV-charging back-office API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Every /partnerapi endpoint of the back-office, generated from the route table. \
                Answers are {code, msg, msgKey, msgArgs, data}; the HTTP status equals code. msg follows Accept-Language (zh* Chinese, otherwise English); \
                msgKey and msgArgs name the message in the message catalogue (shared/envelope/messages), so a client may show its own words for it. \
                Sign in with POST /partnerapi/login/index and send the token as `Authorization: Bearer <token>`.",
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "responses": error_responses(),
            "securitySchemes": {
                "bearer": { "type": "http", "scheme": "bearer", "bearerFormat": "JWT" },
            },
        },
    })
}

#[cfg(feature = "openapi")]
/// The document as the gateway serves it and `docs/openapi.json` keeps it.
pub fn document_text() -> String {
    let mut text = serde_json::to_string_pretty(&document()).expect("the document is JSON");
    text.push('\n');
    text
}
