//! The charger link's Lambda handlers fed API Gateway WebSocket event
//! payloads (as API Gateway sends them: JSON, deserialised into the event
//! type), on DynamoDB (moto) and on SQLite: handshakes refused with the
//! right status, a whole session ending in a priced order, the reconnect
//! race with a late `$disconnect`, the sweeper; and the outbound port
//! against a local stand-in for the `@connections` endpoint.

#[path = "../../backoffice/tests/common/mod.rs"]
mod common;
mod support;

use std::sync::{Arc, Mutex};

use aws_lambda_events::apigw::{ApiGatewayProxyResponse, ApiGatewayWebsocketProxyRequest};
use aws_lambda_events::encodings::Body;
use backoffice::domain::cards::{self, Card, CardStatus};
use backoffice::domain::chargers::link;
use backoffice::AppCtx;
use base64::Engine;
use common::*;
use support::Recorder;
use ocpp::link::{Gone, Outbound};
use ocpp_aws::outbound::ApiGatewayOutbound;
use serde_json::{json, Value};

const SMALL_SEED: (&str, &str) = ("BACKOFFICE_DEMO_ORDERS", "20");
const TTL: (&str, &str) = ("BACKOFFICE_ACCESS_TOKEN_TTL", "900");

fn event(v: Value) -> ApiGatewayWebsocketProxyRequest {
    serde_json::from_value(v).expect("an API Gateway WebSocket event")
}

fn connect_event(connection: &str, cp: &str, protocol: Option<&str>, auth: Option<&str>, epoch_ms: i64) -> ApiGatewayWebsocketProxyRequest {
    let mut headers = json!({"Host": "abc123.execute-api.eu-west-1.amazonaws.com", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13", "X-Forwarded-Proto": "https"});
    if let Some(p) = protocol {
        headers["Sec-WebSocket-Protocol"] = json!(p);
    }
    if let Some(a) = auth {
        headers["Authorization"] = json!(a);
    }
    event(json!({
        "headers": headers,
        "queryStringParameters": {"cp": cp},
        "multiValueQueryStringParameters": {"cp": [cp]},
        "requestContext": {"routeKey": "$connect", "eventType": "CONNECT", "extendedRequestId": "x", "requestTime": "24/Nov/2026:10:00:00 +0000",
            "messageDirection": "IN", "stage": "prod", "connectedAt": epoch_ms, "requestTimeEpoch": epoch_ms,
            "identity": {"sourceIp": "203.0.113.9"}, "requestId": "r1", "domainName": "abc123.execute-api.eu-west-1.amazonaws.com",
            "connectionId": connection, "apiId": "abc123"},
        "isBase64Encoded": false
    }))
}

fn message_event(connection: &str, body: &str) -> ApiGatewayWebsocketProxyRequest {
    event(json!({
        "requestContext": {"routeKey": "$default", "messageId": "m1", "eventType": "MESSAGE", "extendedRequestId": "x", "requestTime": "24/Nov/2026:10:00:01 +0000",
            "messageDirection": "IN", "stage": "prod", "connectedAt": 1, "requestTimeEpoch": 2, "identity": {"sourceIp": "203.0.113.9"},
            "requestId": "r2", "domainName": "abc123.execute-api.eu-west-1.amazonaws.com", "connectionId": connection, "apiId": "abc123"},
        "body": body,
        "isBase64Encoded": false
    }))
}

fn disconnect_event(connection: &str) -> ApiGatewayWebsocketProxyRequest {
    event(json!({
        "headers": {"Host": "abc123.execute-api.eu-west-1.amazonaws.com"},
        "requestContext": {"routeKey": "$disconnect", "disconnectStatusCode": 1006, "eventType": "DISCONNECT", "extendedRequestId": "x",
            "requestTime": "24/Nov/2026:10:05:00 +0000", "messageDirection": "IN", "disconnectReason": "", "stage": "prod", "connectedAt": 1,
            "requestTimeEpoch": 3, "identity": {"sourceIp": "203.0.113.9"}, "requestId": "r3", "domainName": "abc123.execute-api.eu-west-1.amazonaws.com",
            "connectionId": connection, "apiId": "abc123"},
        "isBase64Encoded": false
    }))
}

fn body(r: &ApiGatewayProxyResponse) -> Option<String> {
    match &r.body {
        Some(Body::Text(t)) => Some(t.clone()),
        _ => None,
    }
}

/// The answer payload of a CALL sent through `$default`.
async fn call(ctx: &AppCtx, connection: &str, id: &str, action: &str, payload: Value) -> Value {
    let r = within_policy("ocpp_message", &backoffice::iam::link_policy("ocpp_message").unwrap(), ocpp_aws::on_message(ctx, &message_event(connection, &json!([2, id, action, payload]).to_string()))).await;
    assert_eq!(r.status_code, 200);
    let v: Value = serde_json::from_str(&body(&r).expect("an answer frame")).unwrap();
    assert_eq!(v[0], 3, "{action}: {v}");
    v[2].clone()
}

async fn register(ctx: &AppCtx, code: &str) -> (String, String) {
    register_for(ctx, code, "1.6").await
}

/// A pile registered for OCPP `version`, its password set, and the card AWSCARD1.
async fn register_for(ctx: &AppCtx, code: &str, version: &str) -> (String, String) {
    let admin = login(ctx, "admin", ADMIN_PW).await;
    let stations = get(ctx, "/station/getList?pageNo=1&pageSize=20&status=operating", Some(&admin)).await;
    let station = stations.data()["list"].as_array().unwrap().iter().find(|s| s["tariffId"].as_str().is_some_and(|t| !t.is_empty())).unwrap()["id"].clone();
    let added = post(ctx, "/pile/doAdd", Some(&admin), json!({"stationId": station, "code": code, "pileType": "ac", "ratedPowerKw": 7, "heartbeatIntervalSecs": 300, "ocppVersion": version, "connectors": [{"standard": "gbt2015", "maxPowerKw": 7}]})).await;
    let pile = added.data()["id"].as_str().unwrap().to_string();
    let pw = post(ctx, "/pile/setPassword", Some(&admin), json!({"id": pile})).await.data()["password"].as_str().unwrap().to_string();
    let now = ctx.now();
    let card = Card { id_tag: "AWSCARD1".into(), holder: "t".into(), plate: String::new(), status: CardStatus::Accepted, token_type: None, expires_at: None, parent_id_tag: None, created_at: now, updated_at: now, updated_by: "t".into(), version: 1 };
    let k = cards::key("AWSCARD1");
    ctx.store.put(backoffice::domain::to_item(&card, &[("PK", k.pk), ("SK", k.sk)]), None).await.unwrap();
    (pile, format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("{code}:{pw}"))))
}

async fn lambda_flow(ctx: Arc<AppCtx>) {
    // As the Lambda functions run (`ocpp_aws::serve`).
    assert!(ctx.charger_edge.set(backoffice::domain::chargers::Edge { aws: true, tls: true }).is_ok());
    let (pile, basic) = register(&ctx, "AWS01").await;
    // Refusals: plain HTTP statuses, nothing recorded.
    for (cp, proto, auth, status) in [
        ("NOSUCH", Some("ocpp1.6"), Some(basic.as_str()), 404),
        ("AWS01", None, Some(basic.as_str()), 400),
        ("AWS01", Some("ocpp2.0.1"), Some(basic.as_str()), 400),
        ("AWS01", Some("ocpp1.6"), None, 401),
        ("AWS01", Some("ocpp1.6"), Some("Basic QVdTMDE6d3Jvbmd3cm9uZ3dyb25nd3Jvbmc="), 401),
    ] {
        let r = within_policy("ocpp_connect", &backoffice::iam::link_policy("ocpp_connect").unwrap(), ocpp_aws::on_connect(&ctx, &connect_event("refused=", cp, proto, auth, 1_000))).await;
        assert_eq!(r.status_code, status, "{cp} {proto:?} {auth:?}");
    }
    assert!(link::connection(&ctx, "refused=").await.unwrap().is_none(), "a refused handshake records nothing");
    assert!(link::get(&ctx, &pile).await.unwrap().is_none());

    let epoch = ctx.now() * 1000;
    let r = within_policy("ocpp_connect", &backoffice::iam::link_policy("ocpp_connect").unwrap(), ocpp_aws::on_connect(&ctx, &connect_event("connA=", "aws01", Some("ocpp2.0.1, ocpp1.6"), Some(&basic), epoch))).await;
    assert_eq!(r.status_code, 200);
    assert_eq!(r.headers.get("sec-websocket-protocol").and_then(|v| v.to_str().ok()), Some("ocpp1.6"));
    let boot = call(&ctx, "connA=", "1", "BootNotification", json!({"chargePointVendor": "ACME", "chargePointModel": "AC7"})).await;
    assert_eq!(boot["status"], "Accepted");
    // The interval told at boot is held within 300-540 s (API Gateway
    // drops a connection idle for 10 minutes); the pile keeps its setting,
    // and it is online for as long as the interval it was told allows.
    let pile_key = backoffice::domain::assets::piles::pile_key(&pile);
    for (set, told) in [(30, 300), (900, 540), (420, 420)] {
        ctx.store.update(&pile_key, vec![store::UpdateAction::Set("heartbeatIntervalSecs".into(), json!(set))], None).await.unwrap();
        let boot = call(&ctx, "connA=", &format!("i{set}"), "BootNotification", json!({"chargePointVendor": "ACME", "chargePointModel": "AC7"})).await;
        assert_eq!(boot["interval"], json!(told), "set {set}");
        let p = backoffice::domain::assets::piles::get_pile(&ctx, &pile).await.unwrap();
        assert_eq!(p.heartbeat_interval_secs, set);
        let ops = backoffice::domain::operations::current(&ctx).await.unwrap();
        let now = ctx.now();
        assert!(backoffice::domain::assets::piles::is_pile_online(&p, now + ops.offline_after_intervals * told - 1, &ops), "set {set}");
        assert!(!backoffice::domain::assets::piles::is_pile_online(&p, now + ops.offline_after_intervals * told + 1, &ops), "set {set}");
    }
    ctx.store.update(&pile_key, vec![store::UpdateAction::Set("heartbeatIntervalSecs".into(), json!(300))], None).await.unwrap();
    let start_ts = ctx.now() - 7200;
    let started = call(&ctx, "connA=", "2", "StartTransaction", json!({"connectorId": 1, "idTag": "AWSCARD1", "meterStart": 500, "timestamp": ocpp::v16::iso(start_ts)})).await;
    let tx = started["transactionId"].as_i64().unwrap();
    call(&ctx, "connA=", "3", "MeterValues", json!({"connectorId": 1, "transactionId": tx, "meterValue": [{"timestamp": ocpp::v16::iso(start_ts + 1800), "sampledValue": [{"value": "4000"}]}]})).await;
    call(&ctx, "connA=", "4", "StopTransaction", json!({"transactionId": tx, "meterStop": 7500, "timestamp": ocpp::v16::iso(start_ts + 3600)})).await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let orders = get(&ctx, "/order/getList?userId=AWSCARD1&pageSize=20", Some(&admin)).await;
    let order = &orders.data()["list"][0];
    assert_eq!((order["status"].as_str(), order["energyWh"].as_i64()), (Some("finished"), Some(7000)), "{order}");
    assert!(order["amountFen"].as_i64().unwrap() > 0);

    // Every log entry expires by the attribute the table's TTL names, at
    // the retention (DynamoDB drops it; nothing else has to).
    let logged = ctx.store.query(store::Query::partition(format!("OCPPLOG#{pile}"))).await.unwrap().items;
    assert_eq!(logged.len(), 7, "{logged:?}");
    for item in &logged {
        assert_eq!(item.get(store::TTL_ATTRIBUTE).and_then(Value::as_i64), Some(item["at"].as_i64().unwrap() + 7 * 86_400), "{item:?}");
        assert!(!item.contains_key("expiresAt"), "{item:?}");
    }

    // A bad frame gets a CALLERROR; an unknown connection gets no answer.
    let r = within_policy("ocpp_message", &backoffice::iam::link_policy("ocpp_message").unwrap(), ocpp_aws::on_message(&ctx, &message_event("connA=", "not json"))).await;
    assert!(body(&r).unwrap().contains("FormationViolation"));
    let r = within_policy("ocpp_message", &backoffice::iam::link_policy("ocpp_message").unwrap(), ocpp_aws::on_message(&ctx, &message_event("nobody=", r#"[2,"1","Heartbeat",{}]"#))).await;
    assert_eq!((r.status_code, body(&r)), (200, None));

    // Reconnect race: B connects, then A's late $disconnect arrives. B's
    // handshake is only claimed until B speaks (API Gateway completes the
    // handshake after `$connect` answers, and it may still fail).
    let r = within_policy("ocpp_connect", &backoffice::iam::link_policy("ocpp_connect").unwrap(), ocpp_aws::on_connect(&ctx, &connect_event("connB=", "AWS01", Some("ocpp1.6"), Some(&basic), epoch + 5_000))).await;
    assert_eq!(r.status_code, 200);
    assert_eq!(link::get(&ctx, &pile).await.unwrap().unwrap().connection_id, "connA=", "a claimed handshake changes nothing yet");
    assert!(link::connection(&ctx, "connB=").await.unwrap().is_some_and(|c| c.pending));
    call(&ctx, "connB=", "b1", "Heartbeat", json!({})).await;
    assert!(link::connection(&ctx, "connA=").await.unwrap().is_none(), "the replaced connection ended at B's first message");
    within_policy("ocpp_disconnect", &backoffice::iam::link_policy("ocpp_disconnect").unwrap(), ocpp_aws::on_disconnect(&ctx, &disconnect_event("connA="))).await;
    let l = link::get(&ctx, &pile).await.unwrap().unwrap();
    assert!(l.connected && l.connection_id == "connB=", "the new connection stays current: {l:?}");
    assert!(link::connection(&ctx, "connA=").await.unwrap().is_none());
    // A handshake older than the current one (they raced) does not take over.
    let r = within_policy("ocpp_connect", &backoffice::iam::link_policy("ocpp_connect").unwrap(), ocpp_aws::on_connect(&ctx, &connect_event("connOld=", "AWS01", Some("ocpp1.6"), Some(&basic), epoch + 1_000))).await;
    assert_eq!(r.status_code, 200);
    call(&ctx, "connOld=", "o1", "Heartbeat", json!({})).await;
    assert_eq!(link::get(&ctx, &pile).await.unwrap().unwrap().connection_id, "connB=");
    within_policy("ocpp_disconnect", &backoffice::iam::link_policy("ocpp_disconnect").unwrap(), ocpp_aws::on_disconnect(&ctx, &disconnect_event("connOld="))).await;
    within_policy("ocpp_disconnect", &backoffice::iam::link_policy("ocpp_disconnect").unwrap(), ocpp_aws::on_disconnect(&ctx, &disconnect_event("connB="))).await;
    assert!(!link::get(&ctx, &pile).await.unwrap().unwrap().connected);

    // The handshake does no clean-up: an entry past the retention stays
    // until a bounded prune off the handshake (the local gateway's sweeper
    // on the embedded store; DynamoDB's TTL on AWS) takes it.
    let old = backoffice::domain::chargers::log::MessageLogEntry {
        at: ctx.now() - 8 * 86_400,
        direction: backoffice::domain::chargers::log::Direction::In,
        message_id: Some("old".into()),
        action: Some("Heartbeat".into()),
        request: json!({}),
        response: Some(json!({})),
        error: None,
        answered_at: None,
        raw: None,
    };
    let count = |ctx: Arc<AppCtx>, pile: String| async move { ctx.store.query(store::Query::partition(format!("OCPPLOG#{pile}"))).await.unwrap().items.len() };
    let kept = count(ctx.clone(), pile.clone()).await;
    for _ in 0..3 {
        backoffice::domain::chargers::log::append(&ctx, &pile, old.clone()).await.unwrap();
    }
    let r = within_policy("ocpp_connect", &backoffice::iam::link_policy("ocpp_connect").unwrap(), ocpp_aws::on_connect(&ctx, &connect_event("connP=", "AWS01", Some("ocpp1.6"), Some(&basic), epoch + 7_000))).await;
    assert_eq!(r.status_code, 200);
    assert_eq!(count(ctx.clone(), pile.clone()).await, kept + 3, "the handshake deleted nothing");
    assert_eq!(backoffice::domain::chargers::sweep::prune_message_logs(&ctx, 2).await.unwrap(), 2, "bounded");
    assert_eq!(backoffice::domain::chargers::sweep::prune_message_logs(&ctx, 100).await.unwrap(), 1);
    assert_eq!(count(ctx.clone(), pile.clone()).await, kept, "only entries past the retention went");
    // A 2.0.1 station's device events go with the log they came in.
    use backoffice::domain::chargers::device_model::events;
    let notified = |ids: [(i64, i64); 2]| {
        let data: Vec<Value> = ids.iter().map(|(id, at)| json!({"eventId": id, "timestamp": ocpp::schema::iso(*at), "trigger": "Delta", "actualValue": "Faulted",
            "component": {"name": "Connector", "evse": {"id": 1, "connectorId": 1}}, "variable": {"name": "AvailabilityState"}, "eventNotificationType": "HardWiredNotification"})).collect();
        ocpp::schema::parse::<ocpp::v201::NotifyEventRequest>(&json!({"generatedAt": ocpp::schema::iso(ctx.now()), "seqNo": 0, "eventData": data}), ocpp::schema::Mode::Strict).unwrap()
    };
    events::notified(&ctx, &pile, &notified([(1, ctx.now() - 8 * 86_400), (2, ctx.now() - 60)])).await.unwrap();
    assert_eq!(events::latest(&ctx, &pile, None).await.unwrap().iter().map(|e| e.event_id).collect::<Vec<_>>(), [2, 1], "newest first");
    assert_eq!(backoffice::domain::chargers::sweep::prune_message_logs(&ctx, 100).await.unwrap(), 1, "the event past the retention");
    assert_eq!(events::latest(&ctx, &pile, None).await.unwrap().iter().map(|e| e.event_id).collect::<Vec<_>>(), [2]);
    within_policy("ocpp_disconnect", &backoffice::iam::link_policy("ocpp_disconnect").unwrap(), ocpp_aws::on_disconnect(&ctx, &disconnect_event("connP="))).await;

    // The sweeper ends a connection whose charger went silent.
    let r = within_policy("ocpp_connect", &backoffice::iam::link_policy("ocpp_connect").unwrap(), ocpp_aws::on_connect(&ctx, &connect_event("connC=", "AWS01", Some("ocpp1.6"), Some(&basic), epoch + 9_000))).await;
    assert_eq!(r.status_code, 200);
    call(&ctx, "connC=", "c1", "Heartbeat", json!({})).await;
    let recorder = Recorder::default();
    assert_eq!(within_policy("ocpp_sweeper", &backoffice::iam::link_policy("ocpp_sweeper").unwrap(), ocpp_aws::sweep(&ctx, &recorder)).await.unwrap(), 0, "a charger heard from just now stays");
    ctx.clock.advance(4 * 300);
    assert_eq!(within_policy("ocpp_sweeper", &backoffice::iam::link_policy("ocpp_sweeper").unwrap(), ocpp_aws::sweep(&ctx, &recorder)).await.unwrap(), 1);
    assert_eq!(recorder.0.lock().unwrap().clone(), vec!["close connC=".to_string()]);
    assert!(!link::get(&ctx, &pile).await.unwrap().unwrap().connected);

    // A connection whose `$disconnect` was lost: API Gateway closed it at
    // 2 hours, so its record is reaped then, though the charger (on its
    // next connection, or here) is heard from.
    let r = within_policy("ocpp_connect", &backoffice::iam::link_policy("ocpp_connect").unwrap(), ocpp_aws::on_connect(&ctx, &connect_event("connD=", "AWS01", Some("ocpp1.6"), Some(&basic), ctx.now() * 1000))).await;
    assert_eq!(r.status_code, 200);
    call(&ctx, "connD=", "d1", "Heartbeat", json!({})).await;
    ctx.clock.advance(link::AWS_MAX_CONNECTION_SECS - 60);
    call(&ctx, "connD=", "d2", "Heartbeat", json!({})).await;
    assert_eq!(within_policy("ocpp_sweeper", &backoffice::iam::link_policy("ocpp_sweeper").unwrap(), ocpp_aws::sweep(&ctx, &recorder)).await.unwrap(), 0, "under 2 hours");
    ctx.clock.advance(120);
    call(&ctx, "connD=", "d3", "Heartbeat", json!({})).await;
    assert_eq!(within_policy("ocpp_sweeper", &backoffice::iam::link_policy("ocpp_sweeper").unwrap(), ocpp_aws::sweep(&ctx, &recorder)).await.unwrap(), 1, "past 2 hours");
    assert_eq!(recorder.0.lock().unwrap().last().cloned(), Some("close connD=".to_string()));
    assert!(link::connection(&ctx, "connD=").await.unwrap().is_none());
    assert!(!link::get(&ctx, &pile).await.unwrap().unwrap().connected);

    // A 2.0.1 station through the same functions: its version is agreed
    // at `$connect`, and its transaction becomes a priced order.
    let (station, basic201) = register_for(&ctx, "AWS201", "2.0.1").await;
    let r = within_policy("ocpp_connect", &backoffice::iam::link_policy("ocpp_connect").unwrap(), ocpp_aws::on_connect(&ctx, &connect_event("conn201=", "AWS201", Some("ocpp1.6"), Some(&basic201), ctx.now() * 1000))).await;
    assert_eq!(r.status_code, 400, "a 2.0.1 pile offered only 1.6");
    let r = within_policy("ocpp_connect", &backoffice::iam::link_policy("ocpp_connect").unwrap(), ocpp_aws::on_connect(&ctx, &connect_event("conn201=", "AWS201", Some("ocpp2.0.1, ocpp1.6"), Some(&basic201), ctx.now() * 1000))).await;
    assert_eq!(r.status_code, 200);
    assert_eq!(r.headers.get("sec-websocket-protocol").and_then(|v| v.to_str().ok()), Some("ocpp2.0.1"));
    let boot = call(&ctx, "conn201=", "s1", "BootNotification", json!({"chargingStation": {"vendorName": "ACME", "model": "AC22"}, "reason": "PowerUp"})).await;
    assert_eq!(boot["status"], "Accepted");
    let t0 = ctx.now() - 3600;
    let energy = |wh: i64, context: &str| json!([{"timestamp": ocpp::v16::iso(t0), "sampledValue": [{"value": wh, "context": context}]}]);
    let started = call(&ctx, "conn201=", "s2", "TransactionEvent", json!({"eventType": "Started", "timestamp": ocpp::v16::iso(t0), "triggerReason": "Authorized", "seqNo": 0,
        "transactionInfo": {"transactionId": "AWS-TX-1", "chargingState": "Charging"}, "evse": {"id": 1, "connectorId": 1}, "idToken": {"idToken": "AWSCARD1", "type": "ISO14443"}, "meterValue": energy(1_000, "Transaction.Begin")})).await;
    assert_eq!(started["idTokenInfo"]["status"], "Accepted");
    let ended = json!({"eventType": "Ended", "timestamp": ocpp::v16::iso(t0 + 1800), "triggerReason": "StopAuthorized", "seqNo": 1,
        "transactionInfo": {"transactionId": "AWS-TX-1", "stoppedReason": "Local"}, "meterValue": [{"timestamp": ocpp::v16::iso(t0 + 1800), "sampledValue": [{"value": 4_500, "context": "Transaction.End"}]}]});
    let first = call(&ctx, "conn201=", "s3", "TransactionEvent", ended.clone()).await;
    let again = call(&ctx, "conn201=", "s4", "TransactionEvent", ended).await;
    // Cable first: the start is kept until the idToken comes, then the order opens.
    let tx2 = |kind: &str, seq: i64, extra: Value| {
        let mut e = json!({"eventType": kind, "timestamp": ocpp::v16::iso(t0 + 2000 + seq * 60), "triggerReason": "CablePluggedIn", "seqNo": seq, "transactionInfo": {"transactionId": "AWS-TX-2"}});
        e.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        e
    };
    let plugged = call(&ctx, "conn201=", "s5", "TransactionEvent", tx2("Started", 0, json!({"evse": {"id": 1, "connectorId": 1}, "meterValue": energy(5_000, "Transaction.Begin")}))).await;
    assert!(plugged.get("idTokenInfo").is_none(), "{plugged}");
    call(&ctx, "conn201=", "s6", "TransactionEvent", tx2("Updated", 1, json!({"idToken": {"idToken": "AWSCARD1", "type": "ISO14443"}}))).await;
    // New readings while it charges: its running cost goes to the station's queue (CostUpdated), within the message function's policy.
    let reading = json!({"meterValue": [{"timestamp": ocpp::v16::iso(t0 + 2300), "sampledValue": [{"value": 5_500, "context": "Sample.Periodic"}]}]});
    call(&ctx, "conn201=", "s6b", "TransactionEvent", tx2("Updated", 2, reading)).await;
    let (queued, _) = backoffice::domain::chargers::commands::list(&ctx, &station, 20, None).await.unwrap();
    let cost = queued.iter().find(|c| c.action == "CostUpdated").expect("a CostUpdated for the running transaction");
    assert_eq!((cost.payload["transactionId"].as_str(), cost.requested_by.as_str()), (Some("AWS-TX-2"), "CostUpdated"), "{cost:?}");
    assert!(cost.payload["totalCost"].as_f64().is_some_and(|y| y > 0.0), "{cost:?}");
    let done = call(&ctx, "conn201=", "s7", "TransactionEvent", tx2("Ended", 3, json!({"meterValue": [{"timestamp": ocpp::v16::iso(t0 + 2600), "sampledValue": [{"value": 6_000, "context": "Transaction.End"}]}]}))).await;
    assert!(done["totalCost"].as_f64().is_some(), "{done}");
    // Signed in again: the clock went past the first sign-in's lifetime.
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let orders = get(&ctx, "/order/getList?userId=AWSCARD1&pageSize=20", Some(&admin)).await;
    let mine: Vec<&Value> = orders.data()["list"].as_array().unwrap().iter().filter(|o| o["pileId"] == json!(station)).collect();
    assert_eq!(mine.len(), 2, "{mine:?}");
    let energies: Vec<_> = mine.iter().map(|o| (o["status"].as_str(), o["energyWh"].as_i64())).collect();
    assert!(energies.contains(&(Some("finished"), Some(3_500))) && energies.contains(&(Some("finished"), Some(1_000))), "{energies:?}");
    let mine: Vec<&Value> = mine.into_iter().filter(|o| o["energyWh"] == json!(3_500)).collect();
    assert_eq!(first["totalCost"].as_f64().map(|y| (y * 100.0).round() as i64), mine[0]["amountFen"].as_i64());
    assert!(again.get("totalCost").is_none(), "a repeated end charges nothing: {again}");
    within_policy("ocpp_disconnect", &backoffice::iam::link_policy("ocpp_disconnect").unwrap(), ocpp_aws::on_disconnect(&ctx, &disconnect_event("conn201="))).await;
}

/// `$disconnect` of the connection a call was sent on ends that call at
/// once (`connectionClosed`, not after the 30 s timeout); what was queued
/// behind it goes to the charger's next connection after its first
/// message, and that message's answer is posted before it.
async fn disconnect_ends_the_call_in_flight(ctx: Arc<AppCtx>) {
    use backoffice::domain::chargers::commands;
    let (pile, basic) = register(&ctx, "AWS02").await;
    let recorder = Arc::new(Recorder::default());
    assert!(ctx.outbound.set(recorder.clone()).is_ok());
    let policy = |f: &str| backoffice::iam::link_policy(f).unwrap();
    let epoch = ctx.now() * 1000;
    let r = within_policy("ocpp_connect", &policy("ocpp_connect"), ocpp_aws::on_connect(&ctx, &connect_event("drop1=", "AWS02", Some("ocpp1.6"), Some(&basic), epoch))).await;
    assert_eq!(r.status_code, 200);
    // Its first message completes the handshake (the answer is posted: the queue may follow it).
    within_policy("ocpp_message", &policy("ocpp_message"), ocpp_aws::on_message(&ctx, &message_event("drop1=", r#"[2,"s1","Heartbeat",{}]"#))).await;
    recorder.0.lock().unwrap().clear();
    let reset = commands::submit(&ctx, &pile, "Reset", json!({"type": "Hard"}), "test").await.unwrap();
    let start = commands::submit(&ctx, &pile, "RemoteStartTransaction", json!({"connectorId": 1, "idTag": "AWSCARD1"}), "test").await.unwrap();
    assert_eq!(recorder.0.lock().unwrap().len(), 1, "one call in flight");
    within_policy("ocpp_disconnect", &policy("ocpp_disconnect"), ocpp_aws::on_disconnect(&ctx, &disconnect_event("drop1="))).await;
    let ended = commands::get(&ctx, &reset.id).await.unwrap().unwrap();
    assert_eq!(serde_json::to_value(ended.status).unwrap(), json!("connectionClosed"), "{ended:?}");
    assert_eq!(serde_json::to_value(commands::get(&ctx, &start.id).await.unwrap().unwrap().status).unwrap(), json!("queued"));
    // The charger is back: its BootNotification's answer goes first, then the queued call, both on the new connection.
    let r = within_policy("ocpp_connect", &policy("ocpp_connect"), ocpp_aws::on_connect(&ctx, &connect_event("drop2=", "AWS02", Some("ocpp1.6"), Some(&basic), epoch + 2_000))).await;
    assert_eq!(r.status_code, 200);
    let boot = json!([2, "b1", "BootNotification", {"chargePointVendor": "ACME", "chargePointModel": "AC7"}]).to_string();
    let r = within_policy("ocpp_message", &policy("ocpp_message"), ocpp_aws::on_message(&ctx, &message_event("drop2=", &boot))).await;
    assert_eq!((r.status_code, body(&r)), (200, None), "the answer was posted already");
    let sent = recorder.0.lock().unwrap().clone();
    assert_eq!(sent.len(), 3, "{sent:?}");
    assert!(sent[1].starts_with("send drop2= [3,\"b1\""), "{sent:?}");
    assert!(sent[2].starts_with(&format!("send drop2= [2,\"{}\",\"RemoteStartTransaction\"", start.id)), "{sent:?}");
    // Later messages are answered as the route response.
    let r = within_policy("ocpp_message", &policy("ocpp_message"), ocpp_aws::on_message(&ctx, &message_event("drop2=", r#"[2,"h1","Heartbeat",{}]"#))).await;
    assert!(body(&r).is_some_and(|b| b.starts_with(r#"[3,"h1""#)));
    assert_eq!(recorder.0.lock().unwrap().len(), 3);
}

/// The command queue's indexes lag behind its writes (DynamoDB's global
/// secondary indexes are eventually consistent): a submitted command is
/// still sent at once (pumped by its key), and one that a pump missed is
/// sent by the sweeper once it has been queued a few seconds.
async fn commands_go_out_though_the_queue_index_lags(ctx: Arc<AppCtx>, lag: Arc<store::lagging::LaggingIndex>) {
    use backoffice::domain::chargers::commands::{self, CommandStatus};
    let (pile, basic) = register(&ctx, "AWS03").await;
    let recorder = Arc::new(Recorder::default());
    assert!(ctx.outbound.set(recorder.clone()).is_ok());
    let policy = |f: &str| backoffice::iam::link_policy(f).unwrap();
    let r = within_policy("ocpp_connect", &policy("ocpp_connect"), ocpp_aws::on_connect(&ctx, &connect_event("lag1=", "AWS03", Some("ocpp1.6"), Some(&basic), ctx.now() * 1000))).await;
    assert_eq!(r.status_code, 200);
    // Its first message (answered through the outbound port: the queue may follow it).
    let r = within_policy("ocpp_message", &policy("ocpp_message"), ocpp_aws::on_message(&ctx, &message_event("lag1=", r#"[2,"h1","Heartbeat",{}]"#))).await;
    assert_eq!(r.status_code, 200);
    recorder.0.lock().unwrap().clear();

    lag.freeze();
    // The queue's age below is exact only if real time cannot pass a second meanwhile.
    ctx.clock.freeze();
    let first = commands::submit(&ctx, &pile, "ChangeConfiguration", json!({"key": "MeterValueSampleInterval", "value": "60"}), "test").await.unwrap();
    assert_eq!(first.status, CommandStatus::Sent, "sent at once, though the queue index does not list it yet: {first:?}");
    let second = commands::submit(&ctx, &pile, "UnlockConnector", json!({"connectorId": 1}), "test").await.unwrap();
    assert_eq!(second.status, CommandStatus::Queued, "one call in flight");
    // The answer pumps the queue through its index, which does not list the second yet.
    let answer = json!([3, first.id, {"status": "Accepted"}]).to_string();
    let r = within_policy("ocpp_message", &policy("ocpp_message"), ocpp_aws::on_message(&ctx, &message_event("lag1=", &answer))).await;
    assert_eq!(r.status_code, 200);
    assert_eq!(commands::get(&ctx, &first.id).await.unwrap().unwrap().status, CommandStatus::Answered);
    assert_eq!(commands::get(&ctx, &second.id).await.unwrap().unwrap().status, CommandStatus::Queued);
    // The index catches up; the sweeper sends what has waited past the stale mark.
    lag.thaw();
    ctx.clock.advance(commands::QUEUE_STALE_SECS + 1);
    assert_eq!(commands::oldest_queued_age(&ctx).await.unwrap(), commands::QUEUE_STALE_SECS + 1, "the queue's age is the oldest queued command's");
    within_policy("ocpp_sweeper", &policy("ocpp_sweeper"), ocpp_aws::sweep(&ctx, recorder.as_ref())).await.unwrap();
    assert_eq!(commands::oldest_queued_age(&ctx).await.unwrap(), 0, "nothing waits once it is sent");
    let sent = commands::get(&ctx, &second.id).await.unwrap().unwrap();
    assert_eq!((sent.status, sent.connection_id.as_deref()), (CommandStatus::Sent, Some("lag1=")), "{sent:?}");
    let frames = recorder.0.lock().unwrap().clone();
    assert_eq!(frames.len(), 2, "each call sent once: {frames:?}");
    assert!(frames[1].starts_with(&format!("send lag1= [2,\"{}\",\"UnlockConnector\"", second.id)), "{frames:?}");
}

/// The sweeper's queue-age line is a record CloudWatch turns into a
/// metric: every dimension and metric the `_aws` block names is a member
/// of the record, of the right kind, beside a timestamp in milliseconds.
#[test]
fn the_queue_age_is_an_embedded_metric_record() {
    use backoffice::domain::chargers::commands::{QUEUE_AGE_DIMENSION, QUEUE_AGE_METRIC, QUEUE_AGE_NAMESPACE};
    let record: Value = serde_json::from_str(&ocpp_aws::queue_age_metric("backoffice-prod", 42, 1_767_225_600_000)).unwrap();
    let aws = &record["_aws"];
    assert_eq!(aws["Timestamp"], json!(1_767_225_600_000i64));
    let directives = aws["CloudWatchMetrics"].as_array().expect("CloudWatchMetrics is a list");
    assert_eq!(directives.len(), 1);
    assert_eq!(directives[0]["Namespace"], json!(QUEUE_AGE_NAMESPACE));
    for set in directives[0]["Dimensions"].as_array().expect("Dimensions is a list of sets") {
        for name in set.as_array().expect("a dimension set is a list") {
            assert!(record[name.as_str().unwrap()].is_string(), "dimension {name} is a string member: {record}");
        }
    }
    let metrics = directives[0]["Metrics"].as_array().expect("Metrics is a list");
    assert_eq!(metrics.iter().map(|m| m["Name"].clone()).collect::<Vec<_>>(), [json!(QUEUE_AGE_METRIC)]);
    for m in metrics {
        assert!(record[m["Name"].as_str().unwrap()].is_number(), "metric {m} is a number member: {record}");
        assert_eq!(m["Unit"], json!("Seconds"));
    }
    assert_eq!((record[QUEUE_AGE_DIMENSION].clone(), record[QUEUE_AGE_METRIC].clone()), (json!("backoffice-prod"), json!(42)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_go_out_though_the_queue_index_lags_on_sqlite() {
    let lag = Arc::new(store::lagging::LaggingIndex::new(Arc::new(store::sqlite::SqliteTable::open_in_memory().unwrap())));
    commands_go_out_though_the_queue_index_lags(product_on(lag.clone(), &[TTL, SMALL_SEED]).await, lag).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_go_out_though_the_queue_index_lags_on_dynamo() {
    if let Some(table) = dynamo_table("ocpp-aws-lag").await {
        let mut held = None;
        let ctx = product_on_dynamo_through(table.clone(), &[TTL, SMALL_SEED], |inner| {
            let lag = Arc::new(store::lagging::LaggingIndex::new(inner));
            held = Some(lag.clone());
            lag
        })
        .await;
        commands_go_out_though_the_queue_index_lags(ctx, held.unwrap()).await;
        let _ = table.delete_table().await;
    }
}

/// `$connect` counts guesses by the charger's own address: behind
/// CloudFront every connection comes from an edge server, so the viewer
/// address is used (believed only with the distribution's origin secret),
/// and a refusal over the limit is a 429 with `Retry-After`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connect_limits_guesses_by_the_viewer_address() {
    const SECRET: &str = "origin-secret-of-at-least-32-characters-0123";
    let ctx = product_with(&[SMALL_SEED, ("BACKOFFICE_ORIGIN_VERIFY_SECRET", SECRET)]).await;
    let through_edge = |viewer: &str, secret: &str| {
        let mut e = connect_event("edge=", "NOSUCH", Some("ocpp1.6"), Some("Basic Tk9TVUNIOng="), 1_000);
        e.request_context.identity.source_ip = Some("130.176.0.1".into());
        e.headers.insert("cloudfront-viewer-address", viewer.parse().unwrap());
        e.headers.insert("x-origin-verify", secret.parse().unwrap());
        e
    };
    let policy = backoffice::iam::link_policy("ocpp_connect").unwrap();
    for _ in 0..20 {
        assert_eq!(within_policy("ocpp_connect", &policy, ocpp_aws::on_connect(&ctx, &through_edge("198.51.100.7:40001", SECRET))).await.status_code, 404);
    }
    let r = within_policy("ocpp_connect", &policy, ocpp_aws::on_connect(&ctx, &through_edge("198.51.100.7:40002", SECRET))).await;
    assert_eq!(r.status_code, 429);
    assert!(r.headers.get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<i64>().ok()).is_some_and(|s| s > 500), "{:?}", r.headers);
    // Another charger behind the same edge server is not held up.
    assert_eq!(within_policy("ocpp_connect", &policy, ocpp_aws::on_connect(&ctx, &through_edge("203.0.113.8:40003", SECRET))).await.status_code, 404);
    // A viewer address without the origin secret is not believed: the source address counts.
    assert_eq!(within_policy("ocpp_connect", &policy, ocpp_aws::on_connect(&ctx, &through_edge("198.51.100.7:40004", "guess"))).await.status_code, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disconnect_ends_the_call_in_flight_on_sqlite() {
    let store = Arc::new(store::sqlite::SqliteTable::open_in_memory().unwrap());
    disconnect_ends_the_call_in_flight(product_on(store, &[TTL, SMALL_SEED]).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disconnect_ends_the_call_in_flight_on_dynamo() {
    if let Some(table) = dynamo_table("ocpp-aws-drop").await {
        let ctx = product_on_dynamo(table.clone(), &[TTL, SMALL_SEED]).await;
        disconnect_ends_the_call_in_flight(ctx).await;
        let _ = table.delete_table().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lambda_handlers_on_sqlite() {
    let store = Arc::new(store::sqlite::SqliteTable::open_in_memory().unwrap());
    lambda_flow(product_on(store, &[TTL, SMALL_SEED]).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lambda_handlers_on_dynamo() {
    if let Some(table) = dynamo_table("ocpp-aws").await {
        let ctx = product_on_dynamo(table.clone(), &[TTL, SMALL_SEED]).await;
        lambda_flow(ctx).await;
        let _ = table.delete_table().await;
    }
}

/// A stand-in for API Gateway's `@connections` endpoint: records what is
/// posted and deleted; the connection `gone=` answers 410 like a closed socket.
async fn connections_endpoint() -> (String, Arc<Mutex<Vec<String>>>) {
    use axum::extract::{Path, State};
    use axum::routing::post;
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    async fn posted(State(seen): State<Arc<Mutex<Vec<String>>>>, Path(id): Path<String>, body: bytes::Bytes) -> axum::http::StatusCode {
        if id == "gone=" {
            return axum::http::StatusCode::GONE;
        }
        seen.lock().unwrap().push(format!("POST {id} {}", String::from_utf8_lossy(&body)));
        axum::http::StatusCode::OK
    }
    async fn deleted(State(seen): State<Arc<Mutex<Vec<String>>>>, Path(id): Path<String>) -> axum::http::StatusCode {
        seen.lock().unwrap().push(format!("DELETE {id}"));
        axum::http::StatusCode::NO_CONTENT
    }
    let app = axum::Router::new().route("/@connections/{id}", post(posted).delete(deleted)).with_state(seen.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, seen)
}

fn outbound_to(url: &str) -> ApiGatewayOutbound {
    let config = aws_sdk_apigatewaymanagement::Config::builder()
        .behavior_version_latest()
        // The product's SDK clients all use this one (the SDK's default HTTP client is not built).
        .http_client(store::dynamo::https_client())
        .region(aws_sdk_apigatewaymanagement::config::Region::new("us-east-1"))
        .credentials_provider(aws_sdk_apigatewaymanagement::config::Credentials::new("test", "test", None, None, "test"))
        .endpoint_url(url)
        .build();
    ApiGatewayOutbound::from_client(aws_sdk_apigatewaymanagement::Client::from_conf(config))
}

#[tokio::test]
async fn outbound_posts_to_the_connection_and_hears_gone() {
    let (url, seen) = connections_endpoint().await;
    let outbound = outbound_to(&url);
    let frame = r#"[2,"c1","Reset",{"type":"Soft"}]"#.to_string();
    assert_eq!(outbound.send("pile", "live=", frame.clone()).await, Ok(()));
    assert_eq!(outbound.send("pile", "gone=", frame.clone()).await, Err(Gone), "410 means offline");
    outbound.close("pile", "live=").await;
    assert_eq!(seen.lock().unwrap().clone(), vec![format!("POST live= {frame}"), "DELETE live=".to_string()]);
}

/// Through `PostToConnection` (a stand-in for the `@connections` endpoint):
/// a command to a connection that is gone (410) ends `offline` at once; a
/// reconnect closes the replaced connection (DeleteConnection) when the
/// new one completes its handshake (its first message), not before.
async fn dead_connections(ctx: Arc<AppCtx>) {
    use backoffice::domain::chargers::commands::{self, CommandStatus};
    let (url, seen) = connections_endpoint().await;
    assert!(ctx.outbound.set(Arc::new(outbound_to(&url))).is_ok());
    let (pile, basic) = register(&ctx, "AWS04").await;
    let policy = |f: &str| backoffice::iam::link_policy(f).unwrap();
    let epoch = ctx.now() * 1000;
    let r = within_policy("ocpp_connect", &policy("ocpp_connect"), ocpp_aws::on_connect(&ctx, &connect_event("gone=", "AWS04", Some("ocpp1.6"), Some(&basic), epoch))).await;
    assert_eq!(r.status_code, 200);
    assert!(link::get(&ctx, &pile).await.unwrap().is_none_or(|l| !l.connected), "claimed, not connected");
    // Its first message makes it the charger's connection; then the socket dies.
    within_policy("ocpp_message", &policy("ocpp_message"), ocpp_aws::on_message(&ctx, &message_event("gone=", r#"[2,"g1","Heartbeat",{}]"#))).await;
    assert_eq!(link::get(&ctx, &pile).await.unwrap().unwrap().connection_id, "gone=");
    let asked = ctx.now();
    let c = commands::submit(&ctx, &pile, "UnlockConnector", json!({"connectorId": 1}), "test").await.unwrap();
    assert_eq!(c.status, CommandStatus::Offline, "410 from PostToConnection: offline at once, {c:?}");
    assert_eq!(c.error.as_ref().map(|e| e.code.as_str()), Some("Offline"));
    let stored = commands::get(&ctx, &c.id).await.unwrap().unwrap();
    assert_eq!(stored.status, CommandStatus::Offline);
    assert!(stored.answered_at.is_some_and(|at| (asked..=ctx.now()).contains(&at)), "ended within the request: {stored:?}");
    assert!(seen.lock().unwrap().is_empty(), "nothing reached a charger: {:?}", seen.lock().unwrap());

    let r = within_policy("ocpp_connect", &policy("ocpp_connect"), ocpp_aws::on_connect(&ctx, &connect_event("live=", "AWS04", Some("ocpp1.6"), Some(&basic), epoch + 1_000))).await;
    assert_eq!(r.status_code, 200);
    assert!(seen.lock().unwrap().is_empty(), "the old connection stays until the new handshake completed");
    within_policy("ocpp_message", &policy("ocpp_message"), ocpp_aws::on_message(&ctx, &message_event("live=", r#"[2,"l1","Heartbeat",{}]"#))).await;
    let calls = seen.lock().unwrap().clone();
    assert_eq!(calls.first().map(String::as_str), Some("DELETE gone="), "{calls:?}");
    assert!(calls.get(1).is_some_and(|c| c.starts_with(r#"POST live= [3,"l1""#)), "{calls:?}");
    assert!(link::connection(&ctx, "gone=").await.unwrap().is_none());
    assert_eq!(link::get(&ctx, &pile).await.unwrap().unwrap().connection_id, "live=");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dead_connections_on_sqlite() {
    let store = Arc::new(store::sqlite::SqliteTable::open_in_memory().unwrap());
    dead_connections(product_on(store, &[TTL, SMALL_SEED]).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dead_connections_on_dynamo() {
    if let Some(table) = dynamo_table("ocpp-aws-dead").await {
        let ctx = product_on_dynamo(table.clone(), &[TTL, SMALL_SEED]).await;
        dead_connections(ctx).await;
        let _ = table.delete_table().await;
    }
}

/// A deployment with both edges: the API and the WebSocket link on
/// Lambdas, a container task (a gateway instance, which names itself in
/// its connection records) holding the raw-TCP piles and any charger
/// configured with its address, all on one table. Neither edge can send on
/// the other's sockets: a command for the other's charger stays queued and
/// that edge's sweeper sends it; a call that cannot be queued is refused
/// with 409; a close is asked of the holder; each sweeper looks after its
/// own connections (a task's connection has no 2-hour limit).
async fn both_edges(lambda: Arc<AppCtx>) {
    use backoffice::domain::chargers::commands::{self, CommandStatus};
    use backoffice::domain::chargers::sweep;
    let (url, posted) = connections_endpoint().await;
    assert!(lambda.outbound.set(Arc::new(outbound_to(&url))).is_ok());
    assert!(lambda.charger_edge.set(backoffice::domain::chargers::Edge { aws: true, tls: true }).is_ok());
    let vars = env(&[TTL, SMALL_SEED, ("BACKOFFICE_INSTANCE_URL", "http://127.0.0.1:9"), ("BACKOFFICE_INSTANCE_SECRET", "6f1c0a9e2b7d4c58a3e91f0d6b2c7e4a9d1f3b5c7e9a0b2d4f6a8c0e2b4d6f8a")]);
    let config = backoffice::config::Config::from_lookup(|k| vars.get(k).cloned()).unwrap();
    let task = AppCtx::new(lambda.store.clone(), config).unwrap();
    // The task's port: it reaches the gateway instances' sockets only.
    let at_task = Arc::new(Recorder(Mutex::default(), Some(ocpp::link::SocketHolder::GatewayInstance)));
    assert!(task.outbound.set(at_task.clone()).is_ok());
    let policy = |f: &str| backoffice::iam::link_policy(f).unwrap();
    let both_clocks = |secs: i64| {
        lambda.clock.advance(secs);
        task.clock.advance(secs);
    };

    // A charger on the task: its handshake there records the connection.
    let (pile, _) = register(&lambda, "EDGE01").await;
    let record = backoffice::domain::assets::piles::get_pile(&task, &pile).await.unwrap();
    let c = link::Connection { connection_id: "task-1".into(), pile_id: pile.clone(), protocol: "ocpp1.6".into(), connected_at_ms: task.now() * 1000, queue_started: true, pending: false, remote_address: "192.0.2.10".into(), instance: None, close_requested: false };
    assert!(link::connected(&task, &record, &c, "192.0.2.10").await.unwrap());
    assert!(link::connection(&task, "task-1").await.unwrap().unwrap().instance.is_some(), "the task names itself");

    // The API's Lambda queues a command: nothing goes to API Gateway, nothing ends offline.
    let unlock = commands::submit(&lambda, &pile, "UnlockConnector", json!({"connectorId": 1}), "test").await.unwrap();
    assert_eq!(unlock.status, CommandStatus::Queued, "{unlock:?}");
    both_clocks(commands::QUEUE_STALE_SECS + 1);
    within_policy("ocpp_sweeper", &policy("ocpp_sweeper"), ocpp_aws::sweep(&lambda, lambda.outbound.get().unwrap().as_ref())).await.unwrap();
    assert_eq!(commands::get(&lambda, &unlock.id).await.unwrap().unwrap().status, CommandStatus::Queued, "the Lambda sweeper leaves it to the task");
    assert!(posted.lock().unwrap().is_empty(), "{:?}", posted.lock().unwrap());
    // The task's sweeper sends it on its socket.
    commands::expire(&task).await.unwrap();
    let sent = commands::get(&task, &unlock.id).await.unwrap().unwrap();
    assert_eq!((sent.status, sent.connection_id.as_deref()), (CommandStatus::Sent, Some("task-1")), "{sent:?}");
    let frames = at_task.0.lock().unwrap().clone();
    assert_eq!(frames.len(), 1, "{frames:?}");
    assert!(frames[0].starts_with(&format!("send task-1 [2,\"{}\",\"UnlockConnector\"", unlock.id)), "{frames:?}");
    let answered = commands::complete(&task, &pile, "task-1", &unlock.id, Ok(json!({"status": "Unlocked"}))).await.unwrap();
    assert!(matches!(answered, commands::Completion::Applied(_)), "{answered:?}");

    // A key is never queued (its value lives only in the request): refused, nothing written.
    let key = |value: &str| ocpp::v16::ChangeConfigurationRequest { key: commands::AUTHORIZATION_KEY.into(), value: value.into() };
    let refused = commands::send_now(&lambda, &pile, &key(commands::REDACTED), &key("0123456789abcdef0123"), None, "test").await.unwrap_err();
    assert_eq!(refused.code, 409);
    assert_eq!(refused.msg.en, envelope::msg::chargers::command::other_edge().en);
    assert!(at_task.0.lock().unwrap().len() == 1 && posted.lock().unwrap().is_empty());

    // Past API Gateway's 2-hour limit the task's connection lives on; the
    // Lambda sweeper does not end it, silent or not.
    both_clocks(link::AWS_MAX_CONNECTION_SECS + 60);
    link::seen(&task, &pile, task.now()).await.unwrap();
    assert!(within_policy("ocpp_sweeper", &policy("ocpp_sweeper"), ocpp_aws::sweep(&lambda, lambda.outbound.get().unwrap().as_ref())).await.unwrap() == 0);
    assert!(link::connection(&lambda, "task-1").await.unwrap().is_some(), "the task's connection is the task's to end");
    assert!(sweep::end_silent_connections(&task).await.unwrap().is_empty(), "heard from just now");

    // New credentials from the API: the task is asked to close the connection, and does at its sweep.
    backoffice::domain::chargers::close_live_connection(&lambda, &pile).await.unwrap();
    assert!(link::connection(&lambda, "task-1").await.unwrap().unwrap().close_requested);
    assert!(posted.lock().unwrap().is_empty(), "no DeleteConnection for a socket API Gateway does not hold");
    assert_eq!(ocpp_aws::sweep(&lambda, lambda.outbound.get().unwrap().as_ref()).await.unwrap(), 0);
    let closed: Vec<_> = sweep::end_silent_connections(&task).await.unwrap().into_iter().map(|c| c.connection_id).collect();
    assert_eq!(closed, ["task-1"]);
    assert!(!link::get(&lambda, &pile).await.unwrap().unwrap().connected);

    // The other way round: a charger on API Gateway, a command the task's API queued.
    let (aws_pile, basic) = register(&lambda, "EDGE02").await;
    let r = within_policy("ocpp_connect", &policy("ocpp_connect"), ocpp_aws::on_connect(&lambda, &connect_event("apigw=", "EDGE02", Some("ocpp1.6"), Some(&basic), lambda.now() * 1000))).await;
    assert_eq!(r.status_code, 200);
    within_policy("ocpp_message", &policy("ocpp_message"), ocpp_aws::on_message(&lambda, &message_event("apigw=", r#"[2,"e1","Heartbeat",{}]"#))).await;
    posted.lock().unwrap().clear();
    let reset = commands::submit(&task, &aws_pile, "Reset", json!({"type": "Soft"}), "test").await.unwrap();
    assert_eq!(reset.status, CommandStatus::Queued, "{reset:?}");
    both_clocks(commands::QUEUE_STALE_SECS + 1);
    commands::expire(&task).await.unwrap();
    assert_eq!(commands::get(&task, &reset.id).await.unwrap().unwrap().status, CommandStatus::Queued, "the task's sweeper leaves it to the Lambdas");
    within_policy("ocpp_sweeper", &policy("ocpp_sweeper"), ocpp_aws::sweep(&lambda, lambda.outbound.get().unwrap().as_ref())).await.unwrap();
    assert_eq!(commands::get(&lambda, &reset.id).await.unwrap().unwrap().status, CommandStatus::Sent);
    let calls = posted.lock().unwrap().clone();
    assert!(calls.len() == 1 && calls[0].starts_with(&format!("POST apigw= [2,\"{}\",\"Reset\"", reset.id)), "{calls:?}");
    assert_eq!(at_task.0.lock().unwrap().len(), 1, "nothing more on the task's sockets");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_edges_on_sqlite() {
    let store = Arc::new(store::sqlite::SqliteTable::open_in_memory().unwrap());
    both_edges(product_on(store, &[TTL, SMALL_SEED]).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_edges_on_dynamo() {
    if let Some(table) = dynamo_table("ocpp-aws-edges").await {
        both_edges(product_on_dynamo(table.clone(), &[TTL, SMALL_SEED]).await).await;
        let _ = table.delete_table().await;
    }
}

/// A `/partnerapi` event as the Lambda runtime hands it to
/// `backoffice::lambda::handle`.
fn api_event(path: &str, headers: &[(&str, &str)], body: Value) -> lambda_http::Request {
    let mut req = http::Request::builder().method("POST").uri(format!("https://abc123.execute-api.eu-west-1.amazonaws.com/partnerapi{path}"));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.header("content-type", "application/json").body(lambda_http::Body::Text(body.to_string())).unwrap()
}

async fn through_lambda(ctx: &AppCtx, path: &str, headers: &[(&str, &str)], body: Value) -> (u16, Value) {
    let route = backoffice::routes::find(&http::Method::POST, path).unwrap();
    let resp = backoffice::lambda::handle(ctx, route, api_event(path, headers, body)).await;
    let status = resp.status().as_u16();
    let body: Value = match resp.body() {
        lambda_http::Body::Binary(b) => serde_json::from_slice(b).unwrap(),
        lambda_http::Body::Text(t) => serde_json::from_str(t).unwrap(),
        _ => Value::Null,
    };
    (status, body)
}

/// Behind CloudFront the functions refuse every `/partnerapi` call that
/// lacks the distribution's `X-Origin-Verify` value (a call to the API
/// Gateway URL directly), before anything runs: no sign-in check, no log
/// entry, no throttle count.
#[tokio::test]
async fn partnerapi_calls_around_the_distribution_are_refused() {
    const SECRET: &str = "origin-secret-of-at-least-32-characters-0123";
    let ctx = product_with(&[SMALL_SEED, ("BACKOFFICE_ORIGIN_VERIFY_SECRET", SECRET)]).await;
    let sign_in = json!({"username": "admin", "password": ADMIN_PW});
    let log_total = |ctx: Arc<AppCtx>| async move { backoffice::domain::audit::total(&ctx, None).await.unwrap() };
    let before = log_total(ctx.clone()).await;
    for headers in [vec![], vec![("x-origin-verify", "guess")], vec![("x-origin-verify", &SECRET[..SECRET.len() - 1])]] {
        let (status, body) = through_lambda(&ctx, "/login/index", &headers, sign_in.clone()).await;
        assert_eq!((status, body["code"].as_i64()), (403, Some(403)), "{headers:?}: {body}");
        assert!(body["msg"].as_str().unwrap().contains("only through the site's address"), "{body}");
        assert!(body["data"].get("token").is_none(), "{body}");
    }
    assert_eq!(log_total(ctx.clone()).await, before, "a refused call writes nothing");
    let (status, zh) = through_lambda(&ctx, "/login/index", &[("accept-language", "zh-CN")], sign_in.clone()).await;
    assert_eq!(status, 403);
    assert!(zh["msg"].as_str().unwrap().contains("CloudFront"), "{zh}");

    let (status, body) = through_lambda(&ctx, "/login/index", &[("x-origin-verify", SECRET)], sign_in.clone()).await;
    assert_eq!(status, 200, "{body}");
    assert!(body["data"]["token"].is_string(), "{body}");

    // Without the secret configured (no distribution in front) every call goes through.
    let open = product_with(&[SMALL_SEED]).await;
    let (status, body) = through_lambda(&open, "/login/index", &[], sign_in).await;
    assert_eq!(status, 200, "{body}");
}
