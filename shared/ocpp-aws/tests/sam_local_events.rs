//! SAM local's files (`infra/sam-local/`), proven in-process where no
//! Docker engine runs the Lambda image: every event fixture is read from
//! its file as the runtime would deserialise it, each is handed to the
//! entry point of the function it is named after (that function's
//! `BACKOFFICE_FUNCTION` read from the generated env-vars file), and the
//! answers are what `sam local invoke` should print. The route functions'
//! local variables make a valid configuration. On SQLite and on DynamoDB.

#[path = "../../backoffice/tests/common/mod.rs"]
mod common;
mod support;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use aws_lambda_events::apigw::{ApiGatewayProxyResponse, ApiGatewayWebsocketProxyRequest};
use aws_lambda_events::cloudwatch_events::CloudWatchEvent;
use aws_lambda_events::encodings::Body;
use backoffice::AppCtx;
use base64::Engine;
use common::*;
use support::Recorder;
use serde_json::{json, Value};

/// The password the README seeds the local table's Admin with, and the
/// login fixture signs in with.
const LOCAL_ADMIN_PW: &str = "sam-local-admin-1";
/// Placeholders of the fixtures a developer replaces with live values.
const TOKEN_PLACEHOLDER: &str = "TOKEN_FROM_LOGIN";
const PILE_PASSWORD_PLACEHOLDER: &str = "PILE_PASSWORD";
/// The charger the WebSocket fixtures are of.
const LOCAL_PILE: &str = "SAMLOCAL01";

fn sam_local() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../infra/sam-local")
}

/// The env-vars file: function logical ID -> its variables.
fn env_file() -> BTreeMap<String, BTreeMap<String, String>> {
    let text = std::fs::read_to_string(sam_local().join("env.json")).expect("infra/sam-local/env.json: run `cargo run -p sam-template`");
    serde_json::from_str(&text).expect("env.json is a map of maps of strings")
}

/// Every fixture: (function logical ID, the event's text).
fn fixtures() -> BTreeMap<String, String> {
    std::fs::read_dir(sam_local().join("events"))
        .expect("infra/sam-local/events")
        .map(|e| {
            let path = e.expect("an entry").path();
            let id = path.file_stem().unwrap().to_string_lossy().into_owned();
            (id, std::fs::read_to_string(&path).unwrap())
        })
        .collect()
}

/// The function a fixture is for, from the env-vars file.
fn function_of(env: &BTreeMap<String, BTreeMap<String, String>>, id: &str) -> String {
    let vars = env.get(id).unwrap_or_else(|| panic!("events/{id}.json names no function of env.json"));
    vars["BACKOFFICE_FUNCTION"].clone()
}

#[test]
fn every_fixture_is_a_function_of_the_env_file_and_the_main_ones_are_there() {
    let env = env_file();
    let fixtures = fixtures();
    for id in fixtures.keys() {
        function_of(&env, id);
    }
    let functions: Vec<String> = fixtures.keys().map(|id| function_of(&env, id)).collect();
    for f in ocpp::LINK_FUNCTIONS {
        assert!(functions.iter().any(|g| g == f.function), "no event fixture for {}", f.function);
    }
    for f in ["login_index", "user_info", "station_list"] {
        assert!(functions.iter().any(|g| g == f), "no event fixture for {f}");
    }
}

#[test]
fn the_route_functions_local_variables_make_a_valid_configuration() {
    for (id, vars) in env_file() {
        let function = vars["BACKOFFICE_FUNCTION"].clone();
        if backoffice::routes::by_function(&function).is_none() {
            continue;
        }
        let config = backoffice::config::Config::from_lookup(|k| vars.get(k).cloned());
        assert!(config.is_ok(), "{id}: {:?}", config.err());
        // No Secrets Manager locally: the ids are empty, the values given.
        assert_eq!(vars.get("BACKOFFICE_JWT_SECRET_ID").map(String::as_str), Some(""), "{id}");
        assert!(vars.get("BACKOFFICE_JWT_SECRET").is_some_and(|s| s.len() >= 32), "{id}");
    }
}

/// An HTTP API fixture as the runtime hands it to `backoffice::lambda::handle`.
async fn invoke_route(ctx: &AppCtx, function: &str, event: &str) -> (u16, Value) {
    let route = backoffice::routes::by_function(function).unwrap_or_else(|| panic!("{function} is not a route"));
    let parsed: Value = serde_json::from_str(event).unwrap();
    assert_eq!(parsed["routeKey"], json!(format!("{} {}", route.method, route.full_path())), "{function}: the fixture's route");
    let request: lambda_http::request::LambdaRequest = serde_json::from_str(event).unwrap_or_else(|e| panic!("{function}: not an HTTP API event: {e}"));
    let resp = backoffice::lambda::handle(ctx, route, request.into()).await;
    let status = resp.status().as_u16();
    let body = match resp.body() {
        lambda_http::Body::Binary(b) => serde_json::from_slice(b).unwrap(),
        lambda_http::Body::Text(t) => serde_json::from_str(t).unwrap(),
        _ => Value::Null,
    };
    (status, body)
}

fn ws_event(function: &str, event: &str) -> ApiGatewayWebsocketProxyRequest {
    serde_json::from_str(event).unwrap_or_else(|e| panic!("{function}: not a WebSocket event: {e}"))
}

fn text(r: &ApiGatewayProxyResponse) -> Option<String> {
    match &r.body {
        Some(Body::Text(t)) => Some(t.clone()),
        Some(Body::Binary(b)) => Some(String::from_utf8_lossy(b).into_owned()),
        _ => None,
    }
}

async fn the_fixtures_through_the_entry_points(ctx: Arc<AppCtx>) {
    let env = env_file();
    let fixtures = fixtures();
    let fixture = |id: &str| (function_of(&env, id), fixtures[id].clone());

    let (f, login) = fixture("LoginIndexFunction");
    let (status, body) = invoke_route(&ctx, &f, &login).await;
    assert_eq!(status, 200, "{body}");
    let token = body["data"]["token"].as_str().expect("a token").to_string();

    let (f, info) = fixture("UserInfoFunction");
    let (status, body) = invoke_route(&ctx, &f, &info).await;
    assert_eq!(status, 401, "without a real token: {body}");
    let (status, body) = invoke_route(&ctx, &f, &info.replace(TOKEN_PLACEHOLDER, &token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["username"], json!("admin"), "{body}");

    let (f, stations) = fixture("StationListFunction");
    let (status, body) = invoke_route(&ctx, &f, &stations.replace(TOKEN_PLACEHOLDER, &token)).await;
    assert_eq!(status, 200, "{body}");
    let station = body["data"]["list"].as_array().unwrap().iter().find(|s| s["tariffId"].as_str().is_some_and(|t| !t.is_empty())).expect("a station with a tariff")["id"].clone();

    // The charger of the WebSocket fixtures, with a password of its own.
    let added = post(&ctx, "/pile/doAdd", Some(&token), json!({"stationId": station, "code": LOCAL_PILE, "pileType": "ac", "ratedPowerKw": 7, "heartbeatIntervalSecs": 300, "connectors": [{"standard": "gbt2015", "maxPowerKw": 7}]})).await;
    assert_eq!(added.status, 200, "{:?}", added.body);
    let pile = added.data()["id"].as_str().unwrap().to_string();
    let password = post(&ctx, "/pile/setPassword", Some(&token), json!({"id": pile})).await.data()["password"].as_str().unwrap().to_string();
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);

    let (f, connect) = fixture("OcppConnectFunction");
    assert!(connect.contains(&b64(&format!("{LOCAL_PILE}:{PILE_PASSWORD_PLACEHOLDER}"))), "the fixture's Authorization is the placeholder's");
    let r = ocpp_aws::on_connect(&ctx, &ws_event(&f, &connect)).await;
    assert_eq!(r.status_code, 401, "the placeholder is no password");
    let live = connect.replace(&b64(&format!("{LOCAL_PILE}:{PILE_PASSWORD_PLACEHOLDER}")), &b64(&format!("{LOCAL_PILE}:{password}")));
    let r = ocpp_aws::on_connect(&ctx, &ws_event(&f, &live)).await;
    assert_eq!(r.status_code, 200, "{:?}", text(&r));
    assert_eq!(r.headers.get("sec-websocket-protocol").map(|v| v.to_str().unwrap()), Some("ocpp1.6"));

    let (f, message) = fixture("OcppMessageFunction");
    let r = ocpp_aws::on_message(&ctx, &ws_event(&f, &message)).await;
    let answer: Value = serde_json::from_str(&text(&r).expect("the answer frame")).unwrap();
    assert_eq!((answer[0].clone(), answer[1].clone(), answer[2]["status"].clone()), (json!(3), json!("boot-1"), json!("Accepted")), "{answer}");

    let (f, disconnect) = fixture("OcppDisconnectFunction");
    let r = ocpp_aws::on_disconnect(&ctx, &ws_event(&f, &disconnect)).await;
    assert_eq!(r.status_code, 200);
    assert!(!backoffice::domain::chargers::link::get(&ctx, &pile).await.unwrap().unwrap().connected, "the fixture's connection ended");

    // The sweeper's runtime takes any JSON; the fixture is EventBridge's scheduled event.
    let (f, schedule) = fixture("OcppSweeperFunction");
    assert_eq!(f, "ocpp_sweeper");
    let event: CloudWatchEvent = serde_json::from_str(&schedule).expect("an EventBridge event");
    assert_eq!(event.detail_type.as_deref(), Some("Scheduled Event"));
    let recorder = Recorder::default();
    assert_eq!(ocpp_aws::sweep(&ctx, &recorder).await.unwrap(), 0, "nothing left to end");
}

const SEED: [(&str, &str); 2] = [("BACKOFFICE_SEED_PASSWORD_ADMIN", LOCAL_ADMIN_PW), ("BACKOFFICE_DEMO_ORDERS", "20")];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fixtures_through_the_entry_points_on_sqlite() {
    let store = Arc::new(store::sqlite::SqliteTable::open_in_memory().unwrap());
    the_fixtures_through_the_entry_points(product_on(store, &SEED).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fixtures_through_the_entry_points_on_dynamo() {
    if let Some(table) = dynamo_table("sam-local").await {
        let ctx = product_on_dynamo(table.clone(), &SEED).await;
        the_fixtures_through_the_entry_points(ctx).await;
        let _ = table.delete_table().await;
    }
}
