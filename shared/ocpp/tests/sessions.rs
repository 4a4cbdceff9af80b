//! The charger link through the same handlers on both store adapters
//! (SQLite, and DynamoDB on moto): handshake, a whole charging session
//! ending in a priced order, a repeated start, stops that are wrong, the
//! reconnect race. Frames go straight into `Session::on_text`, as the
//! local gateway's socket and the Lambda `$default` route hand them over.

#[path = "../../backoffice/tests/common/mod.rs"]
mod common;

use std::sync::Arc;

use backoffice::domain::assets::piles::Pile;
use backoffice::domain::cards::{self, Card, CardStatus};
use backoffice::domain::chargers::link;
use backoffice::domain::orders;
use backoffice::AppCtx;
use base64::Engine;
use charging::pricing::{price_session, MeterSample, PricingOptions};
use common::*;
use ocpp::{Handshake, Refusal, Session};
use serde_json::{json, Value};

const SMALL_SEED: (&str, &str) = ("BACKOFFICE_DEMO_ORDERS", "20");
const TTL: (&str, &str) = ("BACKOFFICE_ACCESS_TOKEN_TTL", "900");

async fn on_sqlite() -> Arc<AppCtx> {
    let store = Arc::new(store::sqlite::SqliteTable::open_in_memory().unwrap());
    product_on(store, &[TTL, SMALL_SEED]).await
}

/// A registered pile with a password, and an accepted card.
struct Charger {
    code: String,
    pile_id: String,
    basic: String,
    tag: String,
}

async fn register(ctx: &AppCtx, code: &str) -> Charger {
    register_as(ctx, code, "1.6").await
}

/// A pile registered for OCPP `version` (1.6 or 2.0.1).
async fn register_as(ctx: &AppCtx, code: &str, version: &str) -> Charger {
    let admin = login(ctx, "admin", ADMIN_PW).await;
    let stations = get(ctx, "/station/getList?pageNo=1&pageSize=20&status=operating", Some(&admin)).await;
    let station = stations.data()["list"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["tariffId"].as_str().is_some_and(|t| !t.is_empty()))
        .expect("an operating station with a tariff")["id"]
        .as_str()
        .unwrap()
        .to_string();
    let added = post(
        ctx,
        "/pile/doAdd",
        Some(&admin),
        json!({"stationId": station, "code": code, "pileType": "dc", "ratedPowerKw": 60, "heartbeatIntervalSecs": 60, "ocppVersion": version,
               "connectors": [{"standard": "gbt2015", "maxPowerKw": 60}, {"standard": "gbt2015", "maxPowerKw": 60}]}),
    )
    .await;
    assert_eq!(added.code(), 200, "{}", added.msg());
    let pile_id = added.data()["id"].as_str().unwrap().to_string();
    let set = post(ctx, "/pile/setPassword", Some(&admin), json!({"id": pile_id})).await;
    assert_eq!(set.code(), 200, "{}", set.msg());
    let password = set.data()["password"].as_str().unwrap().to_string();
    let basic = format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("{code}:{password}")));
    let tag = format!("T{code}");
    let now = ctx.now();
    let card = Card { id_tag: tag.clone(), holder: "Test".into(), plate: "京A12345".into(), status: CardStatus::Accepted, token_type: None, expires_at: None, parent_id_tag: None, created_at: now, updated_at: now, updated_by: "test".into(), version: 1 };
    let k = cards::key(&tag);
    ctx.store.put(backoffice::domain::to_item(&card, &[("PK", k.pk), ("SK", k.sk)]), None).await.unwrap();
    Charger { code: code.into(), pile_id, basic, tag }
}

async fn connect(ctx: &AppCtx, c: &Charger, connection: &str) -> Session<Pile> {
    connect_as(ctx, c, connection, "ocpp1.6").await
}

/// Connects offering both versions; the pile's own (`subprotocol`) is agreed.
async fn connect_as(ctx: &AppCtx, c: &Charger, connection: &str, subprotocol: &str) -> Session<Pile> {
    let lower = c.code.to_lowercase();
    let h = Handshake { charge_point: &lower, protocols: Some("ocpp2.0.1, ocpp1.6"), authorization: Some(&c.basic), secure: false, address: "127.0.0.1" };
    let admitted = within_policy("ocpp_connect", &backoffice::iam::link_policy("ocpp_connect").unwrap(), ocpp::admit(ctx, &h)).await.expect("the charger is admitted");
    assert_eq!(admitted.protocol.subprotocol(), subprotocol);
    within_policy("ocpp_connect", &backoffice::iam::link_policy("ocpp_connect").unwrap(), Session::open(ctx, admitted, connection.into(), "127.0.0.1", ocpp::now_ms())).await.unwrap()
}

/// Sends a CALL and returns the CALLRESULT payload (panics on CALLERROR).
async fn call(ctx: &AppCtx, s: &Session<Pile>, id: &str, action: &str, payload: Value) -> Value {
    let reply = within_policy("ocpp_message", &backoffice::iam::link_policy("ocpp_message").unwrap(), s.on_text(ctx, &json!([2, id, action, payload]).to_string())).await.expect("a CALL is answered");
    let v: Value = serde_json::from_str(&reply).unwrap();
    assert_eq!(v[0], 3, "{action} answered {reply}");
    assert_eq!(v[1], id);
    v[2].clone()
}

fn iso(ts: i64) -> String {
    ocpp::v16::iso(ts)
}

async fn handshake_refusals(ctx: Arc<AppCtx>) {
    let c = register(&ctx, "REFUSE01").await;
    let admit = |id: &'static str, protocols: Option<&'static str>, auth: Option<String>| {
        let ctx = ctx.clone();
        async move { ocpp::admit(&*ctx, &Handshake { charge_point: id, protocols, authorization: auth.as_deref(), secure: false, address: "127.0.0.1" }).await.err().map(|r| r.status()) }
    };
    assert_eq!(admit("NOSUCH", Some("ocpp1.6"), Some(c.basic.clone())).await, Some(404));
    assert_eq!(admit("REFUSE01", None, Some(c.basic.clone())).await, Some(400));
    assert_eq!(admit("REFUSE01", Some("ocpp2.0.1"), Some(c.basic.clone())).await, Some(400));
    assert_eq!(admit("REFUSE01", Some("ocpp1.6"), None).await, Some(401));
    let wrong = format!("Basic {}", base64::engine::general_purpose::STANDARD.encode("REFUSE01:0123456789abcdefXYZ"));
    assert_eq!(admit("REFUSE01", Some("ocpp1.6"), Some(wrong)).await, Some(401));
    assert_eq!(admit("refuse01", Some("ocpp1.6"), Some(c.basic.clone())).await, None, "ids match regardless of case");
    let h = Handshake { charge_point: "REFUSE01", protocols: Some("ocpp1.6"), authorization: Some(&c.basic), secure: false, address: "127.0.0.1" };
    assert!(matches!(ocpp::admit(&*ctx, &h).await, Ok(_)));
    assert!(matches!(Refusal::Unavailable.status(), 503));
}

async fn whole_session_is_a_priced_order(ctx: Arc<AppCtx>) {
    let c = register(&ctx, "FLOW01").await;
    let s = connect(&ctx, &c, "conn-1").await;
    let boot = call(&ctx, &s, "1", "BootNotification", json!({"chargePointVendor": "ACME", "chargePointModel": "DC60", "firmwareVersion": "1.2.3"})).await;
    assert_eq!((boot["status"].as_str(), boot["interval"].as_i64()), (Some("Accepted"), Some(60)));
    let start_ts = ctx.now() - 3 * 3600;
    call(&ctx, &s, "2", "StatusNotification", json!({"connectorId": 1, "status": "Preparing", "errorCode": "NoError", "timestamp": iso(start_ts - 5)})).await;
    let auth = call(&ctx, &s, "3", "Authorize", json!({"idTag": c.tag})).await;
    assert_eq!(auth["idTagInfo"]["status"], "Accepted");
    let start = json!({"connectorId": 1, "idTag": c.tag, "meterStart": 100_000, "timestamp": iso(start_ts)});
    let started = call(&ctx, &s, "4", "StartTransaction", start.clone()).await;
    let tx = started["transactionId"].as_i64().unwrap();
    assert_eq!(started["idTagInfo"]["status"], "Accepted");
    // The answer was lost and the charger sends the same start again.
    let again = call(&ctx, &s, "5", "StartTransaction", start).await;
    assert_eq!(again["transactionId"].as_i64(), Some(tx), "a repeated start gets the same id");
    for (i, minutes) in [20, 40, 60].iter().enumerate() {
        let wh = 100_000 + 10_000 * (i as i64 + 1);
        call(&ctx, &s, &format!("m{i}"), "MeterValues", json!({"connectorId": 1, "transactionId": tx, "meterValue": [{"timestamp": iso(start_ts + minutes * 60),
            "sampledValue": [{"value": wh.to_string(), "context": "Sample.Periodic"}, {"value": "30", "measurand": "Power.Active.Import", "unit": "kW"}, {"value": (40 + i * 10).to_string(), "measurand": "SoC"}]}]})).await;
    }
    let stop_ts = start_ts + 90 * 60;
    let stopped = call(&ctx, &s, "6", "StopTransaction", json!({"transactionId": tx, "idTag": c.tag, "meterStop": 142_000, "timestamp": iso(stop_ts), "reason": "Local"})).await;
    assert_eq!(stopped["idTagInfo"]["status"], "Accepted");

    let list = get(&ctx, &format!("/order/getList?userId={}&pageSize=20", c.tag), Some(&login(&ctx, "admin", ADMIN_PW).await)).await;
    assert_eq!(list.data()["list"].as_array().map(Vec::len), Some(1), "one order for the session: {}", list.data());
    let no = list.data()["list"][0]["orderNo"].as_str().unwrap().to_string();
    let (row, detail, _) = orders::load_full(&ctx, &no).await.unwrap();
    let detail = detail.unwrap();
    assert_eq!((row.order.status, row.order.energy_wh, row.transaction_id), (charging::orders::OrderStatus::Finished, 42_000, Some(tx)));
    assert_eq!(detail.curve.len(), 3);
    assert_eq!(row.order.soc_end, Some(60));
    let mut samples = vec![MeterSample::new(start_ts, 100_000)];
    samples.extend(detail.curve.iter().map(|p| MeterSample::new(p.ts, 100_000 + p.energy_wh)));
    samples.push(MeterSample::new(stop_ts, 142_000));
    let expected = price_session(detail.tariff.as_ref().expect("a tariff snapshot"), &samples, &PricingOptions::default()).unwrap();
    assert_eq!((row.order.amount_fen, row.order.electricity_fen, row.order.service_fen), (expected.amount_fen, expected.electricity_fen, expected.service_fen));
    assert!(row.order.amount_fen.0 > 0);
    assert!(row.anomalies(ctx.now(), &Default::default()).is_empty(), "{:?}", row.anomalies(ctx.now(), &Default::default()));

    // Stops that are wrong are still confirmed; the order keeps its price.
    for (id, payload) in [
        ("7", json!({"transactionId": tx, "meterStop": 150_000, "timestamp": iso(stop_ts + 60)})),
        ("8", json!({"transactionId": -1, "meterStop": 1, "timestamp": iso(stop_ts)})),
        ("9", json!({"transactionId": 0, "meterStop": 1, "timestamp": iso(stop_ts)})),
        ("10", json!({"transactionId": 987_654, "meterStop": 1, "timestamp": iso(stop_ts)})),
    ] {
        call(&ctx, &s, id, "StopTransaction", payload).await;
    }
    let (after, _, _) = orders::load_full(&ctx, &no).await.unwrap();
    assert_eq!(after.order.amount_fen, row.order.amount_fen);
    assert_eq!(after.charger_problems, vec![charging::orders::ChargerProblem::StoppedTwice]);
    within_policy("ocpp_disconnect", &backoffice::iam::link_policy("ocpp_disconnect").unwrap(), s.close(&*ctx)).await;
}

async fn reconnect_race_leaves_the_new_connection_current(ctx: Arc<AppCtx>) {
    let c = register(&ctx, "RACE01").await;
    let old = connect(&ctx, &c, "conn-old").await;
    let new = connect(&ctx, &c, "conn-new").await;
    within_policy("ocpp_disconnect", &backoffice::iam::link_policy("ocpp_disconnect").unwrap(), old.close(&*ctx)).await; // the old socket's late close
    let l = link::get(&ctx, &c.pile_id).await.unwrap().unwrap();
    assert!(l.connected && l.connection_id == "conn-new", "{l:?}");
    within_policy("ocpp_disconnect", &backoffice::iam::link_policy("ocpp_disconnect").unwrap(), new.close(&*ctx)).await;
    assert!(!link::get(&ctx, &c.pile_id).await.unwrap().unwrap().connected);
}

async fn stop_before_start_and_meter_backwards_are_flagged(ctx: Arc<AppCtx>) {
    let c = register(&ctx, "ODD01").await;
    let s = connect(&ctx, &c, "conn-1").await;
    let start_ts = ctx.now() - 7200;
    let tx = call(&ctx, &s, "1", "StartTransaction", json!({"connectorId": "2", "idTag": 424242, "meterStart": 5000, "timestamp": iso(start_ts)})).await;
    assert_eq!(tx["idTagInfo"]["status"], "Invalid", "an unknown card started offline is still recorded");
    let id = tx["transactionId"].as_i64().unwrap();
    call(&ctx, &s, "2", "StopTransaction", json!({"transactionId": id, "meterStop": 4000, "timestamp": iso(start_ts - 60)})).await;
    let list = get(&ctx, "/order/getList?userId=424242&pageSize=20", Some(&login(&ctx, "admin", ADMIN_PW).await)).await;
    let order = &list.data()["list"][0];
    let kinds: Vec<&str> = order["anomalies"].as_array().unwrap().iter().filter_map(|a| a["kind"].as_str()).collect();
    assert!(kinds.contains(&"stopBeforeStart") && kinds.contains(&"negativeMeter") && kinds.contains(&"charger"), "{order}");
    assert_eq!(order["status"], "abnormal");
    let flagged = get(&ctx, "/order/getList?anomaly=flagged&pageSize=200", Some(&login(&ctx, "admin", ADMIN_PW).await)).await;
    assert!(flagged.data()["list"].as_array().unwrap().iter().any(|o| o["orderNo"] == order["orderNo"]), "shown by the anomaly filter");
}

/// The outbound port of a test: records every frame sent (and on which
/// connection).
#[derive(Default)]
struct Recorder(std::sync::Mutex<Vec<String>>, std::sync::Mutex<Vec<String>>, std::sync::Mutex<Vec<String>>);

impl Recorder {
    /// The frames sent on `connection`, as JSON.
    fn on(&self, connection: &str) -> Vec<Value> {
        let all = self.0.lock().unwrap().clone();
        let on = self.1.lock().unwrap().clone();
        all.iter().zip(on.iter()).filter(|(_, c)| c.as_str() == connection).map(|(f, _)| serde_json::from_str(f).unwrap()).collect()
    }
}

#[async_trait::async_trait]
impl ocpp::link::Outbound for Recorder {
    async fn send(&self, _pile: &str, connection: &str, frame: String) -> Result<(), ocpp::link::Gone> {
        self.0.lock().unwrap().push(frame);
        self.1.lock().unwrap().push(connection.to_string());
        Ok(())
    }
    async fn close(&self, _pile: &str, connection: &str) {
        self.2.lock().unwrap().push(connection.to_string());
    }
}

async fn racing_commands_take_one_slot_and_go_in_order(ctx: Arc<AppCtx>) {
    use backoffice::domain::chargers::commands::{self, CommandStatus};
    let c = register(&ctx, "RACECMD1").await;
    let rec = Arc::new(Recorder::default());
    assert!(ctx.outbound.set(rec.clone()).is_ok());
    let s = connect(&ctx, &c, "conn-1").await;
    // Eight commands race for the charger's one call in flight.
    let submitted = futures::future::join_all((0..8).map(|i| commands::submit(&ctx, &c.pile_id, "DataTransfer", json!({"vendorId": format!("v{i}")}), "test"))).await;
    assert!(submitted.iter().all(Result::is_ok), "{submitted:?}");
    // (A submit's own answer may be read before another submit's pump marks
    // it sent, so the store, not the answers, says which one went.)
    let (stored, _) = commands::list(&ctx, &c.pile_id, 20, None).await.unwrap();
    assert_eq!(stored.iter().filter(|c| c.status == CommandStatus::Sent).count(), 1, "{:?}", stored.iter().map(|c| c.status).collect::<Vec<_>>());
    assert_eq!(rec.0.lock().unwrap().len(), 1, "one frame on the wire");
    // The first to take the slot is whichever write landed first (ids are
    // made before the racing writes land); once all are queued, each answer
    // sends the oldest still waiting, and nothing is sent twice.
    let (first, mut order): (Vec<_>, Vec<_>) = stored.into_iter().partition(|c| c.status == CommandStatus::Sent);
    order.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
    order.insert(0, first[0].clone());
    for i in 0..8 {
        let frame: Value = serde_json::from_str(rec.0.lock().unwrap().last().unwrap()).unwrap();
        assert_eq!(rec.0.lock().unwrap().len(), i + 1);
        let id = frame[1].as_str().unwrap().to_string();
        assert_eq!(id, order[i].id, "sent in the order they were queued");
        assert_eq!(within_policy("ocpp_message", &backoffice::iam::link_policy("ocpp_message").unwrap(), s.on_text(&*ctx, &json!([3, id, {"status": "Accepted"}]).to_string())).await, None);
    }
    let (all, _) = commands::list(&ctx, &c.pile_id, 20, None).await.unwrap();
    assert!(all.iter().all(|c| c.status == CommandStatus::Answered), "{:?}", all.iter().map(|c| c.status).collect::<Vec<_>>());
    assert_eq!(rec.0.lock().unwrap().len(), 8);
    // An answer that comes again (or late) changes nothing.
    let again = json!([3, order[0].id, {"status": "Rejected"}]).to_string();
    within_policy("ocpp_message", &backoffice::iam::link_policy("ocpp_message").unwrap(), s.on_text(&*ctx, &again)).await;
    assert_eq!(commands::get(&ctx, &order[0].id).await.unwrap().unwrap().response, Some(json!({"status": "Accepted"})));
}

fn status_of(c: &backoffice::domain::chargers::commands::Command) -> Value {
    serde_json::to_value(c.status).unwrap()
}

/// A connection that ends with our call in flight: the call ends at once
/// (`connectionClosed`), its answer arriving on another connection is
/// late, and the queue waits for the charger to come back, then goes on
/// its new connection right after the first message.
async fn a_closed_connection_ends_its_call_and_the_queue_follows_the_charger(ctx: Arc<AppCtx>) {
    use backoffice::domain::chargers::commands;
    let c = register(&ctx, "DROP01").await;
    let rec = Arc::new(Recorder::default());
    assert!(ctx.outbound.set(rec.clone()).is_ok());
    let policy = |f: &str| backoffice::iam::link_policy(f).unwrap();
    let s1 = connect(&ctx, &c, "conn-1").await;
    let reset = commands::submit(&ctx, &c.pile_id, "Reset", json!({"type": "Hard"}), "test").await.unwrap();
    let start = commands::submit(&ctx, &c.pile_id, "RemoteStartTransaction", json!({"connectorId": 1, "idTag": c.tag}), "test").await.unwrap();
    assert_eq!((status_of(&reset), status_of(&start)), (json!("sent"), json!("queued")));
    assert_eq!(rec.on("conn-1").len(), 1);
    // The charger reboots without answering: its socket closes.
    within_policy("ocpp_disconnect", &policy("ocpp_disconnect"), s1.close(&*ctx)).await;
    let ended = commands::get(&ctx, &reset.id).await.unwrap().unwrap();
    assert_eq!(status_of(&ended), json!("connectionClosed"), "{ended:?}");
    assert_eq!(ended.error.as_ref().map(|e| e.code.as_str()), Some("ConnectionClosed"));
    assert_eq!(status_of(&commands::get(&ctx, &start.id).await.unwrap().unwrap()), json!("queued"), "it waits for the charger");
    // Back: the first message (its BootNotification) is answered, then the queued call goes on this connection.
    let s2 = connect(&ctx, &c, "conn-2").await;
    call(&ctx, &s2, "b1", "BootNotification", json!({"chargePointVendor": "ACME", "chargePointModel": "DC60"})).await;
    within_policy("ocpp_message", &policy("ocpp_message"), s2.after_reply(&*ctx)).await;
    let sent = rec.on("conn-2");
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!((sent[0][1].as_str(), sent[0][2].as_str()), (Some(start.id.as_str()), Some("RemoteStartTransaction")));
    // The Reset's answer arriving now, on another connection, is late: logged, not applied.
    within_policy("ocpp_message", &policy("ocpp_message"), s2.on_text(&*ctx, &json!([3, reset.id, {"status": "Accepted"}]).to_string())).await;
    assert_eq!(status_of(&commands::get(&ctx, &reset.id).await.unwrap().unwrap()), json!("connectionClosed"));
    // A newer connection replaces conn-2 before its call is answered: the answer there is late too.
    let s3 = connect(&ctx, &c, "conn-3").await;
    within_policy("ocpp_message", &policy("ocpp_message"), s3.on_text(&*ctx, &json!([3, start.id, {"status": "Accepted"}]).to_string())).await;
    assert_eq!(status_of(&commands::get(&ctx, &start.id).await.unwrap().unwrap()), json!("sent"), "sent on conn-2, answered on conn-3: not applied");
    within_policy("ocpp_disconnect", &policy("ocpp_disconnect"), s2.close(&*ctx)).await;
    let start_ended = commands::get(&ctx, &start.id).await.unwrap().unwrap();
    assert_eq!((status_of(&start_ended), start_ended.connection_id.as_deref()), (json!("connectionClosed"), Some("conn-2")));
    // conn-3 is live and has spoken: a new command goes there at once.
    within_policy("ocpp_message", &policy("ocpp_message"), s3.after_reply(&*ctx)).await;
    let clear = commands::submit(&ctx, &c.pile_id, "ClearCache", json!({}), "test").await.unwrap();
    assert_eq!((status_of(&clear), clear.connection_id.as_deref()), (json!("sent"), Some("conn-3")));
    within_policy("ocpp_message", &policy("ocpp_message"), s3.on_text(&*ctx, &json!([3, clear.id, {"status": "Accepted"}]).to_string())).await;
    assert_eq!(status_of(&commands::get(&ctx, &clear.id).await.unwrap().unwrap()), json!("answered"));
    // Gone for good: what waits ends offline once the grace for a reconnect is over.
    let waiting = commands::submit(&ctx, &c.pile_id, "Reset", json!({"type": "Soft"}), "test").await.unwrap();
    let behind = commands::submit(&ctx, &c.pile_id, "ClearCache", json!({}), "test").await.unwrap();
    within_policy("ocpp_disconnect", &policy("ocpp_disconnect"), s3.close(&*ctx)).await;
    assert_eq!(status_of(&commands::get(&ctx, &waiting.id).await.unwrap().unwrap()), json!("connectionClosed"));
    assert_eq!(status_of(&commands::get(&ctx, &behind.id).await.unwrap().unwrap()), json!("queued"));
    within_policy("ocpp_sweeper", &policy("ocpp_sweeper"), commands::expire(&ctx)).await.unwrap();
    assert_eq!(status_of(&commands::get(&ctx, &behind.id).await.unwrap().unwrap()), json!("queued"), "within the grace it still waits");
    ctx.clock.advance(commands::RECONNECT_GRACE_SECS + 1);
    within_policy("ocpp_sweeper", &policy("ocpp_sweeper"), commands::expire(&ctx)).await.unwrap();
    assert_eq!(status_of(&commands::get(&ctx, &behind.id).await.unwrap().unwrap()), json!("offline"));
}

/// The body of `/pile/doEdit` for a pile as it is, with `changes`.
async fn pile_edit_body(ctx: &AppCtx, pile_id: &str, changes: Value) -> Value {
    let p = backoffice::domain::assets::piles::get_pile(ctx, pile_id).await.unwrap();
    let mut body = json!({"id": p.id, "version": p.version, "code": p.code, "pileType": p.pile_type, "ratedPowerKw": p.rated_power_kw,
        "heartbeatIntervalSecs": p.heartbeat_interval_secs, "registrationStatus": p.registration_status, "securityProfile": p.security_profile});
    for (k, v) in changes.as_object().unwrap() {
        body[k] = v.clone();
    }
    body
}

/// A charger's credentials (its password, its security profile) are an
/// Admin's to change: whoever holds them acts as the charger, whose
/// sessions feed billing. A change is in the system log and closes the
/// connection made with the old ones; on AWS profile 0 is refused.
async fn charger_credentials_are_admins_and_a_change_closes_the_connection(ctx: Arc<AppCtx>) {
    use backoffice::domain::assets::piles::get_pile;
    let c = register(&ctx, "CRED01").await;
    let rec = Arc::new(Recorder::default());
    assert!(ctx.outbound.set(rec.clone()).is_ok());
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let _live = connect(&ctx, &c, "conn-1").await;
    let station = get_pile(&ctx, &c.pile_id).await.unwrap().station_id;

    // An Editor changes neither; other fields stay theirs to edit.
    let r = post(&ctx, "/pile/setPassword", Some(&editor), json!({"id": c.pile_id, "password": "Correct-Horse-Battery-9"})).await;
    assert_eq!(r.code(), 403, "{}", r.msg());
    let r = post(&ctx, "/pile/doEdit", Some(&editor), pile_edit_body(&ctx, &c.pile_id, json!({"securityProfile": 0})).await).await;
    assert_eq!(r.code(), 403, "{}", r.msg());
    assert!(r.msg().contains("securityProfile"), "{}", r.msg());
    assert_eq!(get_pile(&ctx, &c.pile_id).await.unwrap().security_profile, 1, "nothing written");
    let r = post(&ctx, "/pile/doEdit", Some(&editor), pile_edit_body(&ctx, &c.pile_id, json!({"vendor": "ACME"})).await).await;
    assert_eq!(r.code(), 200, "{}", r.msg());
    let add = |code: &str, profile: Option<u8>| {
        let mut body = json!({"stationId": station, "code": code, "pileType": "ac", "ratedPowerKw": 7, "heartbeatIntervalSecs": 60, "connectors": [{"standard": "gbt2015", "maxPowerKw": 7}]});
        if let Some(p) = profile {
            body["securityProfile"] = json!(p);
        }
        body
    };
    let r = post(&ctx, "/pile/doAdd", Some(&editor), add("CRED02", Some(0))).await;
    assert_eq!(r.code(), 403, "{}", r.msg());
    let r = post(&ctx, "/pile/doAdd", Some(&editor), add("CRED03", None)).await;
    assert_eq!((r.code(), r.data()["securityProfile"].as_i64()), (200, Some(1)), "the default without TLS: {}", r.msg());
    assert!(rec.2.lock().unwrap().is_empty(), "nothing changed, nothing closed");
    assert!(ocpp::admit(&*ctx, &Handshake { charge_point: "CRED01", protocols: Some("ocpp1.6"), authorization: Some(&c.basic), secure: false, address: "127.0.0.1" }).await.is_ok());

    // An Admin's new password closes the live connection; the old one no
    // longer works, and the addresses it was used from are forgotten.
    assert!(!backoffice::domain::chargers::secret::read(&ctx, &c.pile_id).await.unwrap().unwrap().known_addresses.is_empty());
    let r = post(&ctx, "/pile/setPassword", Some(&admin), json!({"id": c.pile_id})).await;
    assert_eq!(r.code(), 200, "{}", r.msg());
    assert!(backoffice::domain::chargers::secret::read(&ctx, &c.pile_id).await.unwrap().unwrap().known_addresses.is_empty());
    assert_eq!(rec.2.lock().unwrap().clone(), vec!["conn-1".to_string()]);
    let refused = ocpp::admit(&*ctx, &Handshake { charge_point: "CRED01", protocols: Some("ocpp1.6"), authorization: Some(&c.basic), secure: false, address: "127.0.0.1" }).await;
    assert_eq!(refused.err().map(|r| r.status()), Some(401));
    // So does a new security profile.
    let r = post(&ctx, "/pile/doEdit", Some(&admin), pile_edit_body(&ctx, &c.pile_id, json!({"securityProfile": 2})).await).await;
    assert_eq!((r.code(), r.data()["securityProfile"].as_i64()), (200, Some(2)), "{}", r.msg());
    assert_eq!(rec.2.lock().unwrap().len(), 2);
    // Each attempt is in the system log with who made it.
    let log = get(&ctx, "/systemLog/getList?pageNo=1&pageSize=50", Some(&admin)).await;
    let entries: Vec<(String, String, String)> = log.data()["list"].as_array().unwrap().iter()
        .filter(|e| e["target"] == c.pile_id.as_str())
        .map(|e| (e["path"].as_str().unwrap().to_string(), e["account"].as_str().unwrap().to_string(), e["executeResult"].as_str().unwrap().to_string()))
        .collect();
    for (path, account, result) in [("/pile/setPassword", "editor", "failure 403"), ("/pile/doEdit", "editor", "failure 403"), ("/pile/setPassword", "admin", "success"), ("/pile/doEdit", "admin", "success")] {
        assert!(entries.iter().any(|(p, a, r)| p == path && a == account && r.starts_with(result)), "{path} {account} {result}: {entries:?}");
    }

    // On AWS the link is open to the internet: profile 0 is refused, the default is 2, and a profile-0 pile authenticates all the same.
    ctx.charger_edge.set(backoffice::domain::chargers::Edge { aws: true, tls: true }).unwrap();
    let r = post(&ctx, "/pile/doEdit", Some(&admin), pile_edit_body(&ctx, &c.pile_id, json!({"securityProfile": 0})).await).await;
    assert_eq!(r.code(), 400, "{}", r.msg());
    assert!(r.msg().contains("securityProfile") && r.msg().contains("AWS"), "{}", r.msg());
    assert_eq!(post(&ctx, "/pile/doAdd", Some(&admin), add("CRED04", Some(0))).await.code(), 400);
    let r = post(&ctx, "/pile/doAdd", Some(&admin), add("CRED05", None)).await;
    assert_eq!((r.code(), r.data()["securityProfile"].as_i64()), (200, Some(2)), "{}", r.msg());
    let open = register(&ctx, "CRED06").await;
    ctx.store.update(&backoffice::domain::assets::piles::pile_key(&open.pile_id), vec![store::UpdateAction::Set("securityProfile".into(), json!(0))], None).await.unwrap();
    let bare = ocpp::admit(&*ctx, &Handshake { charge_point: "CRED06", protocols: Some("ocpp1.6"), authorization: None, secure: true, address: "127.0.0.1" }).await;
    assert_eq!(bare.err().map(|r| r.status()), Some(401), "a profile-0 pile stored before still authenticates on AWS");
}

fn basic(user_and_password: &str) -> String {
    format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(user_and_password))
}

/// Guessing a charger's password at the handshake: counted before the
/// password is checked, so guesses beyond the limits cost no hash and get
/// 429 with the seconds to wait; the charger itself, at the address it
/// connected from before, is checked and admitted however many guesses
/// came from elsewhere. Typed passwords that are easy to guess are
/// refused; an old SHA-256 hash verifies and becomes argon2id.
async fn handshake_guessing_is_limited_and_the_charger_at_its_known_address_gets_in(ctx: Arc<AppCtx>) {
    ctx.clock.freeze();
    let c = register(&ctx, "GUESS01").await;
    let admit = |id: &'static str, auth: String, address: String| {
        let ctx = ctx.clone();
        async move {
            let h = Handshake { charge_point: id, protocols: Some("ocpp1.6"), authorization: Some(&auth), secure: false, address: &address };
            within_policy("ocpp_connect", &backoffice::iam::link_policy("ocpp_connect").unwrap(), ocpp::admit(&*ctx, &h)).await.err().map(|r| (r.status(), r.retry_after()))
        }
    };
    let wrong = basic("GUESS01:Wrong-Password-0000");
    // The charger connects from its usual address: known from now on.
    assert_eq!(admit("GUESS01", c.basic.clone(), "192.0.2.10".into()).await, None);
    // Guesses from elsewhere: ten are checked, then each must wait (doubling).
    for i in 0..10 {
        assert_eq!(admit("GUESS01", wrong.clone(), format!("198.51.100.{i}")).await, Some((401, None)), "guess {i}");
    }
    assert_eq!(admit("GUESS01", wrong.clone(), "198.51.100.50".into()).await, Some((429, Some(1))));
    assert_eq!(admit("GUESS01", c.basic.clone(), "198.51.100.51".into()).await, Some((429, Some(1))), "nothing is checked while waiting");
    // The charger at its known address is checked and admitted.
    assert_eq!(admit("GUESS01", c.basic.clone(), "192.0.2.10".into()).await, None);
    ctx.clock.advance(2);
    assert_eq!(admit("GUESS01", wrong.clone(), "198.51.100.52".into()).await, Some((401, None)), "checked once the wait is over");
    assert_eq!(admit("GUESS01", wrong.clone(), "198.51.100.53".into()).await, Some((429, Some(2))));
    // Per address, over every charge point id (unknown ids count too).
    for _ in 0..20 {
        assert_eq!(admit("NOSUCH01", wrong.clone(), "203.0.113.5".into()).await, Some((404, None)));
    }
    assert_eq!(admit("NOSUCH01", wrong.clone(), "203.0.113.5".into()).await, Some((429, Some(600))));
    // Guesses from the known address wait there after ten; elsewhere nothing changed for the charger.
    let other = register(&ctx, "GUESS02").await;
    assert_eq!(admit("GUESS02", other.basic.clone(), "192.0.2.20".into()).await, None);
    for _ in 0..10 {
        assert_eq!(admit("GUESS02", basic("GUESS02:Wrong-Password-0000"), "192.0.2.20".into()).await, Some((401, None)));
    }
    assert_eq!(admit("GUESS02", other.basic.clone(), "192.0.2.20".into()).await, Some((429, Some(600))));

    // Typed passwords that are easy to guess are refused, nothing written.
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let before = backoffice::domain::chargers::secret::read(&ctx, &c.pile_id).await.unwrap().unwrap().set_at;
    for weak in ["aaaaaaaaaaaaaaaa", "1234567890123456", "GUESS01GUESS01GUESS01"] {
        let r = post(&ctx, "/pile/setPassword", Some(&admin), json!({"id": c.pile_id, "password": weak})).await;
        assert_eq!(r.code(), 400, "{weak}: {}", r.msg());
        assert!(r.msg().contains("too easy to guess"), "{}", r.msg());
    }
    assert_eq!(backoffice::domain::chargers::secret::read(&ctx, &c.pile_id).await.unwrap().unwrap().set_at, before);

    // A hash stored before argon2id (salted SHA-256) verifies, and the good handshake replaces it.
    use sha2::Digest;
    let legacy = register(&ctx, "GUESS03").await;
    let hex: String = sha2::Sha256::digest(b"0123abcd:Legacy-Charger-Secret-1").iter().map(|b| format!("{b:02x}")).collect();
    let k = backoffice::domain::chargers::secret::key(&legacy.pile_id);
    ctx.store.put(backoffice::domain::to_item(&json!({"salt": "0123abcd", "hash": hex, "setAt": 1, "setBy": "old"}), &[("PK", k.pk.clone()), ("SK", k.sk.clone())]), None).await.unwrap();
    assert_eq!(admit("GUESS03", basic("GUESS03:Wrong-Password-0000"), "192.0.2.30".into()).await, Some((401, None)));
    assert_eq!(admit("GUESS03", basic("GUESS03:Legacy-Charger-Secret-1"), "192.0.2.30".into()).await, None);
    let stored = ctx.store.get(&k).await.unwrap().unwrap();
    assert!(stored["phc"].as_str().is_some_and(|p| p.starts_with("$argon2id$v=19$m=8192,t=1,p=1$")), "{stored:?}");
    assert!(stored.get("hash").is_none() && stored.get("salt").is_none(), "{stored:?}");
    assert_eq!(admit("GUESS03", basic("GUESS03:Legacy-Charger-Secret-1"), "192.0.2.30".into()).await, None, "and verifies from now on");
}

/// AuthorizationKey rotation: the key goes only to the charger; what is
/// stored and shown says `***`; the key is the password once the charger
/// accepts it (or connects with it after its answer was lost), never when
/// it refuses; a key a charger lists in its configuration is redacted too.
async fn authorization_key_rotation_follows_the_chargers_answer(ctx: Arc<AppCtx>) {
    use backoffice::domain::chargers::{commands, secret};
    let c = register(&ctx, "ROTATE01").await;
    let rec = Arc::new(Recorder::default());
    assert!(ctx.outbound.set(rec.clone()).is_ok());
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let message = |s: &Session<Pile>, frame: Value| {
        let ctx = ctx.clone();
        let text = frame.to_string();
        let connection = s.connection_id.clone();
        async move {
            let s = Session::resume(&*ctx, &connection).await.unwrap().unwrap();
            within_policy("ocpp_message", &backoffice::iam::link_policy("ocpp_message").unwrap(), s.on_text(&*ctx, &text)).await
        }
    };
    let rotate = |body: Value| {
        let ctx = ctx.clone();
        let admin = admin.clone();
        async move { post(&ctx, "/charger/rotateAuthorizationKey", Some(&admin), body).await }
    };
    let key_of = |s: &str| basic(&format!("ROTATE01:{s}"));
    let old_password = c.basic.clone();
    let admitted = |auth: String| {
        let ctx = ctx.clone();
        async move { ocpp::admit(&*ctx, &Handshake { charge_point: "ROTATE01", protocols: Some("ocpp1.6"), authorization: Some(&auth), secure: false, address: "127.0.0.1" }).await.is_ok() }
    };
    let s = connect(&ctx, &c, "conn-1").await;

    // Accepted: the charger got the key, the record says ***; the key is the password from now on.
    let typed = "Rotated-Key-Correct-9xQ";
    let r = rotate(json!({"pileId": c.pile_id, "newKey": typed})).await;
    assert_eq!(r.code(), 200, "{}", r.msg());
    assert_eq!(r.data()["payload"], json!({"key": "AuthorizationKey", "value": "***"}));
    let sent = rec.on("conn-1");
    assert_eq!(sent.last().unwrap()[3], json!({"key": "AuthorizationKey", "value": typed}), "the charger gets the key itself");
    let id = r.data()["id"].as_str().unwrap().to_string();
    assert!(admitted(old_password.clone()).await && !admitted(key_of(typed)).await, "nothing changes before the answer");
    message(&s, json!([3, id, {"status": "Accepted"}])).await;
    assert!(!admitted(old_password.clone()).await && admitted(key_of(typed)).await);
    let stored = ctx.store.get(&secret::key(&c.pile_id)).await.unwrap().unwrap();
    assert!(stored.get("pendingPhc").is_none(), "{stored:?}");

    // Rejected: the old one stays the only one.
    let r = rotate(json!({"pileId": c.pile_id})).await;
    let generated = rec.on("conn-1").last().unwrap()[3]["value"].as_str().unwrap().to_string();
    assert_eq!(generated.len(), 40);
    message(&s, json!([3, r.data()["id"], {"status": "Rejected"}])).await;
    assert!(admitted(key_of(typed)).await && !admitted(key_of(&generated)).await);

    // A call in flight: a rotation is refused (409), nothing staged over the key on its way.
    let r = rotate(json!({"pileId": c.pile_id})).await;
    let on_its_way = rec.on("conn-1").last().unwrap()[3]["value"].as_str().unwrap().to_string();
    assert_eq!(rotate(json!({"pileId": c.pile_id})).await.code(), 409);
    // The connection drops before the answer: the old key still works, and
    // the charger connecting with the new one makes it the password.
    within_policy("ocpp_disconnect", &backoffice::iam::link_policy("ocpp_disconnect").unwrap(), s.close(&*ctx)).await;
    assert_eq!(commands::get(&ctx, r.data()["id"].as_str().unwrap()).await.unwrap().unwrap().status, commands::CommandStatus::ConnectionClosed);
    assert!(admitted(key_of(typed)).await);
    assert!(admitted(key_of(&on_its_way)).await);
    assert!(!admitted(key_of(typed)).await, "the old one ends once the new one is proven");

    // A key a charger lists in its configuration is not kept.
    let c = Charger { basic: key_of(&on_its_way), ..c };
    let s2 = connect(&ctx, &c, "conn-2").await;
    let conf = post(&ctx, "/charger/getConfiguration", Some(&admin), json!({"pileId": c.pile_id})).await;
    message(&s2, json!([3, conf.data()["id"], {"configurationKey": [{"key": "AuthorizationKey", "readonly": false, "value": on_its_way}, {"key": "HeartbeatInterval", "readonly": false, "value": "60"}]}])).await;
    // ... nor one in an answer that comes late.
    message(&s2, json!([3, conf.data()["id"], {"configurationKey": [{"key": "authorizationkey", "readonly": false, "value": generated}]}])).await;
    let shown = [
        get(&ctx, &format!("/charger/commands?pileId={}&pageSize=50", c.pile_id), Some(&admin)).await.data().to_string(),
        get(&ctx, &format!("/pile/messageLog?pileId={}&pageSize=200", c.pile_id), Some(&admin)).await.data().to_string(),
        get(&ctx, "/systemLog/getList?pageNo=1&pageSize=200", Some(&admin)).await.data().to_string(),
    ];
    assert!(shown[0].contains(r#""value":"***""#) && shown[1].contains("HeartbeatInterval"));
    for key in [typed, generated.as_str(), on_its_way.as_str()] {
        for text in &shown {
            assert!(!text.contains(key), "{key} shown: {text}");
        }
    }
    // The generic route does not send it.
    let r = post(&ctx, "/charger/changeConfiguration", Some(&admin), json!({"pileId": c.pile_id, "key": " AUTHORIZATIONKEY", "value": "Some-New-Key-Value-77"})).await;
    assert_eq!(r.code(), 400);
    assert!(r.msg().contains("/charger/rotateAuthorizationKey"), "{}", r.msg());
}

/// Fields past OCPP 1.6's schema limits get a CALLERROR naming the field
/// and store nothing; a start on a connector the pile does not have is
/// refused (PropertyConstraintViolation) without an order or transaction.
async fn fields_past_their_limits_and_unknown_connectors_store_nothing(ctx: Arc<AppCtx>) {
    let c = register(&ctx, "LIMIT01").await;
    let s = connect(&ctx, &c, "conn-1").await;
    let refused = |id: &'static str, action: &'static str, payload: Value| {
        let ctx = ctx.clone();
        let s = &s;
        async move {
            let reply = s.on_text(&*ctx, &json!([2, id, action, payload]).to_string()).await.unwrap();
            let v: Value = serde_json::from_str(&reply).unwrap();
            assert_eq!(v[0], 4, "{action} refused: {v}");
            (v[2].as_str().unwrap().to_string(), v[3].as_str().unwrap().to_string())
        }
    };
    let (code, why) = refused("1", "BootNotification", json!({"chargePointVendor": "V".repeat(100_000), "chargePointModel": "DC60"})).await;
    assert_eq!(code, "TypeConstraintViolation");
    assert!(why.contains("chargePointVendor") && why.contains("20"), "{why}");
    assert!(link::get(&ctx, &c.pile_id).await.unwrap().unwrap().boot.is_none(), "nothing stored");
    let start = json!({"connectorId": 3, "idTag": c.tag, "meterStart": 0, "timestamp": iso(ctx.now())});
    let (code, why) = refused("2", "StartTransaction", start).await;
    assert_eq!(code, "PropertyConstraintViolation");
    assert!(why.contains("connectorId 3"), "{why}");
    let (code, _) = refused("3", "StartTransaction", json!({"connectorId": 1, "idTag": "T".repeat(21), "meterStart": 0, "timestamp": iso(ctx.now())})).await;
    assert_eq!(code, "TypeConstraintViolation");
    let orders = get(&ctx, &format!("/order/getList?userId={}&pageSize=20", c.tag), Some(&login(&ctx, "admin", ADMIN_PW).await)).await;
    assert_eq!(orders.data()["list"].as_array().map(Vec::len), Some(0), "no order");
    assert!(backoffice::domain::chargers::sessions::open_on(&ctx, &c.pile_id, 3).await.unwrap().is_none());
    let (code, _) = refused("4", "StatusNotification", json!({"connectorId": 0, "status": "S".repeat(60), "errorCode": "NoError"})).await;
    assert_eq!(code, "PropertyConstraintViolation");
    assert!(link::get(&ctx, &c.pile_id).await.unwrap().unwrap().charger_status.is_none());
}

/// The charger's answer `{status}` to the call `frame`.
async fn answer(ctx: &AppCtx, s: &Session<Pile>, frame: &Value, status: &str) {
    let text = json!([3, frame[1], {"status": status}]).to_string();
    within_policy("ocpp_message", &backoffice::iam::link_policy("ocpp_message").unwrap(), s.on_text(ctx, &text)).await;
}

/// The frames of `action` sent on `connection`.
fn sent_as(rec: &Recorder, connection: &str, action: &str) -> Vec<Value> {
    rec.on(connection).into_iter().filter(|f| f[2] == action).collect()
}

/// A station's power budget through its routes: refused input stores
/// nothing; each connected pile is sent its share as a ChargePointMaxProfile
/// (id 9000, connector 0), again when the budget changes and when a pile
/// boots, and a clear by that id when the budget is removed; the station's
/// view follows each charger's answer (done / rejected / offline).
async fn a_station_power_budget_reaches_each_connected_pile(ctx: Arc<AppCtx>) {
    let a = register(&ctx, "BUDGETA").await;
    let b = register(&ctx, "BUDGETB").await;
    let station = backoffice::domain::assets::piles::get_pile(&ctx, &a.pile_id).await.unwrap().station_id;
    assert_eq!(backoffice::domain::assets::piles::get_pile(&ctx, &b.pile_id).await.unwrap().station_id, station, "one station");
    let rec = Arc::new(Recorder::default());
    assert!(ctx.outbound.set(rec.clone()).is_ok());
    let policy = |f: &str| backoffice::iam::link_policy(f).unwrap();
    let sa = connect(&ctx, &a, "a-1").await;
    call(&ctx, &sa, "ba", "BootNotification", json!({"chargePointVendor": "ACME", "chargePointModel": "DC60"})).await;
    within_policy("ocpp_message", &policy("ocpp_message"), sa.after_reply(&*ctx)).await;
    let sb = connect(&ctx, &b, "b-1").await;
    call(&ctx, &sb, "bb", "BootNotification", json!({"chargePointVendor": "ACME", "chargePointModel": "DC60"})).await;
    within_policy("ocpp_message", &policy("ocpp_message"), sb.after_reply(&*ctx)).await;
    assert!(rec.on("a-1").is_empty() && rec.on("b-1").is_empty(), "no budget: nothing sent at boot");

    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let set = |version: i64, kw: Value| post(&ctx, "/station/setPowerBudget", Some(&admin), json!({"stationId": station, "version": version, "maxPowerKw": kw}));
    for (kw, words) in [(json!(-1), "must not be negative"), (json!(100_000.1), "at most"), (json!(12.25), "one decimal"), (json!("ten"), "maxPowerKw")] {
        let refused = set(0, kw.clone()).await;
        assert_eq!(refused.code(), 400, "{kw}: {}", refused.msg());
        assert!(refused.msg().contains("maxPowerKw") && refused.msg().contains(words), "{kw}: {}", refused.msg());
    }
    let (zh, _) = call_with_headers(&ctx, http::Method::POST, "/station/setPowerBudget", Some(&admin), Some(json!({"stationId": station, "version": 0, "maxPowerKw": -1})), "127.0.0.1", &[("accept-language", "zh-CN")]).await;
    assert!(zh.msg().starts_with("maxPowerKw：") && zh.msg().contains("负数"), "{}", zh.msg());
    assert_eq!(post(&ctx, "/station/setPowerBudget", Some(&admin), json!({"stationId": "nope", "version": 0, "maxPowerKw": 10})).await.code(), 404);
    let view = get(&ctx, &format!("/station/powerBudget?id={station}"), Some(&admin)).await;
    assert_eq!((view.code(), &view.data()["version"], &view.data()["maxPowerKw"]), (200, &json!(0), &Value::Null), "refused: nothing stored");
    assert!(rec.on("a-1").is_empty() && rec.on("b-1").is_empty(), "refused: nothing sent");

    // 100 kW between two connected 60 kW piles: 50 kW each.
    let saved = set(0, json!(100)).await;
    assert_eq!(saved.code(), 200, "{}", saved.msg());
    assert_eq!(saved.data()["version"], 1);
    let row = |v: &Value, pile: &str| v["piles"].as_array().unwrap().iter().find(|r| r["pileId"] == pile).cloned().expect("the pile's row");
    for (pile, conn) in [(&a.pile_id, "a-1"), (&b.pile_id, "b-1")] {
        let frames = sent_as(&rec, conn, "SetChargingProfile");
        assert_eq!(frames.len(), 1, "{conn}: {frames:?}");
        let p = &frames[0][3];
        assert_eq!(p["connectorId"], 0);
        assert_eq!(p["csChargingProfiles"]["chargingProfileId"], 9000);
        assert_eq!(p["csChargingProfiles"]["chargingProfilePurpose"], "ChargePointMaxProfile");
        assert_eq!(p["csChargingProfiles"]["chargingSchedule"]["chargingRateUnit"], "W");
        assert_eq!(p["csChargingProfiles"]["chargingSchedule"]["chargingSchedulePeriod"][0]["limit"], 50_000.0);
        let r = row(saved.data(), pile);
        assert_eq!((&r["limitW"], &r["state"], &r["connected"]), (&json!(50_000.0), &json!("pending"), &json!(true)), "{r}");
    }
    answer(&ctx, &sa, &sent_as(&rec, "a-1", "SetChargingProfile")[0], "Accepted").await;
    answer(&ctx, &sb, &sent_as(&rec, "b-1", "SetChargingProfile")[0], "Accepted").await;
    let view = get(&ctx, &format!("/station/powerBudget?id={station}"), Some(&admin)).await;
    assert_eq!((&row(view.data(), &a.pile_id)["state"], &row(view.data(), &b.pile_id)["state"]), (&json!("done"), &json!("done")));

    // A stale version changes nothing; a new budget goes to both, and a refusal shows.
    assert_eq!(set(0, json!(80)).await.code(), 409);
    assert_eq!(sent_as(&rec, "a-1", "SetChargingProfile").len(), 1, "a 409 sends nothing");
    assert_eq!(set(1, json!(90)).await.code(), 200);
    let (fa, fb) = (sent_as(&rec, "a-1", "SetChargingProfile"), sent_as(&rec, "b-1", "SetChargingProfile"));
    assert_eq!((fa.len(), fb.len()), (2, 2));
    assert_eq!(fa[1][3]["csChargingProfiles"]["chargingSchedule"]["chargingSchedulePeriod"][0]["limit"], 45_000.0);
    answer(&ctx, &sa, &fa[1], "Rejected").await;
    answer(&ctx, &sb, &fb[1], "Accepted").await;
    let view = get(&ctx, &format!("/station/powerBudget?id={station}"), Some(&admin)).await;
    assert_eq!((&row(view.data(), &a.pile_id)["state"], &row(view.data(), &b.pile_id)["state"]), (&json!("rejected"), &json!("done")));

    // A reboots: after its BootNotification's answer it is sent its share again; B's is unchanged.
    within_policy("ocpp_disconnect", &policy("ocpp_disconnect"), sa.close(&*ctx)).await;
    let sa2 = connect(&ctx, &a, "a-2").await;
    call(&ctx, &sa2, "ba2", "BootNotification", json!({"chargePointVendor": "ACME", "chargePointModel": "DC60"})).await;
    assert!(rec.on("a-2").is_empty(), "nothing before the answer to the BootNotification");
    within_policy("ocpp_message", &policy("ocpp_message"), sa2.after_reply(&*ctx)).await;
    let again = sent_as(&rec, "a-2", "SetChargingProfile");
    assert_eq!(again.len(), 1, "{:?}", rec.on("a-2"));
    assert_eq!(again[0][3]["csChargingProfiles"]["chargingSchedule"]["chargingSchedulePeriod"][0]["limit"], 45_000.0);
    assert_eq!(sent_as(&rec, "b-1", "SetChargingProfile").len(), 2, "B's share did not change");
    answer(&ctx, &sa2, &again[0], "Accepted").await;

    // B goes away; the budget is removed: A is sent the clear, B's ends offline and is sent again when B is back.
    within_policy("ocpp_disconnect", &policy("ocpp_disconnect"), sb.close(&*ctx)).await;
    let removed = set(2, Value::Null).await;
    assert_eq!(removed.code(), 200, "{}", removed.msg());
    assert_eq!(removed.data()["maxPowerKw"], Value::Null);
    let clear = sent_as(&rec, "a-2", "ClearChargingProfile");
    assert_eq!(clear.len(), 1);
    assert_eq!(clear[0][3], json!({"id": 9000}));
    answer(&ctx, &sa2, &clear[0], "Accepted").await;
    let view = get(&ctx, &format!("/station/powerBudget?id={station}"), Some(&admin)).await;
    let (ra, rb) = (row(view.data(), &a.pile_id), row(view.data(), &b.pile_id));
    assert_eq!((&ra["limitW"], &ra["state"], &ra["command"]["action"]), (&Value::Null, &json!("done"), &json!("ClearChargingProfile")));
    assert_eq!((&rb["state"], &rb["connected"]), (&json!("offline"), &json!(false)), "{rb}");
    let sb2 = connect(&ctx, &b, "b-2").await;
    call(&ctx, &sb2, "bb2", "BootNotification", json!({"chargePointVendor": "ACME", "chargePointModel": "DC60"})).await;
    within_policy("ocpp_message", &policy("ocpp_message"), sb2.after_reply(&*ctx)).await;
    assert_eq!(sent_as(&rec, "b-2", "ClearChargingProfile").len(), 1, "{:?}", rec.on("b-2"));
    assert!(sent_as(&rec, "b-2", "SetChargingProfile").is_empty());
}

/// SecurityEventNotification is stored on either adapter and listed per pile,
/// across the fleet and by type, newest first; bad filters are refused.
async fn security_events_are_stored_and_listed_per_pile_and_across_the_fleet(ctx: Arc<AppCtx>) {
    let a = register(&ctx, "SECEVTA").await;
    let b = register(&ctx, "SECEVTB").await;
    let sa = connect(&ctx, &a, "sa-1").await;
    let sb = connect(&ctx, &b, "sb-1").await;
    for (s, id) in [(&sa, "ba"), (&sb, "bb")] {
        call(&ctx, s, id, "BootNotification", json!({"chargePointVendor": "ACME", "chargePointModel": "DC60"})).await;
    }
    let now = ctx.now();
    for (s, id, kind, at) in [(&sa, "e1", "FirmwareUpdated", now - 120), (&sa, "e2", "SettingSystemTime", now - 60), (&sb, "e3", "TamperDetectionActivated", now - 30)] {
        let answer = call(&ctx, s, id, "SecurityEventNotification", json!({"type": kind, "timestamp": iso(at), "techInfo": format!("{id} info")})).await;
        assert_eq!(answer, json!({}), "{kind}");
    }
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let types = |page: &Value| page["list"].as_array().unwrap().iter().map(|e| e["type"].as_str().unwrap().to_string()).collect::<Vec<_>>();

    let of_a = get(&ctx, &format!("/charger/securityEvents?pileId={}", a.pile_id), Some(&admin)).await;
    assert_eq!(of_a.code(), 200, "{}", of_a.msg());
    assert_eq!(types(of_a.data()), ["SettingSystemTime", "FirmwareUpdated"], "newest first: {}", of_a.data());
    assert_eq!(of_a.data()["pileCode"], json!("SECEVTA"));
    assert_eq!(of_a.data()["list"][1]["techInfo"], json!("e1 info"));
    assert_eq!(of_a.data()["list"][1]["at"], json!(now - 120));

    let fleet = get(&ctx, "/charger/securityEvents", Some(&admin)).await;
    let all = types(fleet.data());
    for kind in ["TamperDetectionActivated", "SettingSystemTime", "FirmwareUpdated"] {
        assert!(all.contains(&kind.to_string()), "{kind} in the fleet's list: {all:?}");
    }
    let tamper = get(&ctx, "/charger/securityEvents?type=TamperDetectionActivated", Some(&admin)).await;
    assert_eq!(types(tamper.data()), ["TamperDetectionActivated"]);
    assert_eq!(tamper.data()["list"][0]["pileCode"], json!("SECEVTB"));

    let paged = get(&ctx, &format!("/charger/securityEvents?pileId={}&pageSize=1", a.pile_id), Some(&admin)).await;
    assert_eq!(types(paged.data()), ["SettingSystemTime"]);
    let cursor = paged.data()["cursor"].as_str().expect("a cursor to the next page").to_string();
    let next = get(&ctx, &format!("/charger/securityEvents?pileId={}&pageSize=1&cursor={cursor}", a.pile_id), Some(&admin)).await;
    assert_eq!(types(next.data()), ["FirmwareUpdated"], "{}", next.data());

    let backwards = get(&ctx, "/charger/securityEvents?from=2026-03-02&to=2026-03-01", Some(&admin)).await;
    assert_eq!(backwards.code(), 400, "{}", backwards.msg());
    assert!(backwards.msg().starts_with("from"), "{}", backwards.msg());
    assert_eq!(get(&ctx, "/charger/securityEvents?pileId=nope", Some(&admin)).await.code(), 404);
}

/// A 2.0.1 station's monitors are kept with its device model on either
/// adapter: those it accepts from SetVariableMonitoring (with its ids),
/// those its NotifyMonitoringReport lists, less those it clears.
async fn a_201_stations_monitors_are_kept_as_set_reported_and_cleared(ctx: Arc<AppCtx>) {
    let c = register_as(&ctx, "MON201", "2.0.1").await;
    let rec = Arc::new(Recorder::default());
    assert!(ctx.outbound.set(rec.clone()).is_ok());
    let s = connect_as(&ctx, &c, "m-1", "ocpp2.0.1").await;
    call(&ctx, &s, "b1", "BootNotification", json!({"chargingStation": {"vendorName": "ACME", "model": "AC22"}, "reason": "PowerUp"})).await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let kept = async || {
        let r = get(&ctx, &format!("/charger/deviceModel?pileId={}", c.pile_id), Some(&admin)).await;
        assert_eq!(r.code(), 200, "{}", r.msg());
        assert_eq!(r.data()["list"], json!([]), "monitors are no variables");
        r.data()["monitors"].as_array().unwrap().clone()
    };
    let ids = |list: &[Value]| list.iter().map(|m| m["id"].as_i64().unwrap()).collect::<Vec<_>>();
    assert!(kept().await.is_empty());

    let monitors = json!([{"component": "EVSE", "evseId": 1, "variable": "Power", "type": "UpperThreshold", "value": 22000, "severity": 3},
                          {"component": "ChargingStation", "variable": "Temperature", "type": "Periodic", "value": 300}]);
    let sent = post(&ctx, "/charger/setVariableMonitoring", Some(&admin), json!({"pileId": c.pile_id, "monitors": monitors})).await;
    assert_eq!(sent.code(), 200, "{}", sent.msg());
    let frame = sent_as(&rec, "m-1", "SetVariableMonitoring").pop().expect("the call went to the station");
    let results = json!({"setMonitoringResult": [
        {"id": 40, "status": "Accepted", "type": "UpperThreshold", "severity": 3, "component": {"name": "EVSE", "evse": {"id": 1}}, "variable": {"name": "Power"}},
        {"id": 41, "status": "Rejected", "type": "Periodic", "severity": 5, "component": {"name": "ChargingStation"}, "variable": {"name": "Temperature"}}]});
    let text = json!([3, frame[1], results]).to_string();
    within_policy("ocpp_message", &backoffice::iam::link_policy("ocpp_message").unwrap(), s.on_text(&*ctx, &text)).await;
    let list = kept().await;
    assert_eq!(ids(&list), [40], "only the accepted one: {list:?}");
    assert_eq!((&list[0]["evseId"], &list[0]["type"], &list[0]["value"], &list[0]["severity"], &list[0]["source"]), (&json!(1), &json!("UpperThreshold"), &json!(22000.0), &json!(3), &json!("set")));

    let at = ctx.now() - 30;
    let report = json!({"requestId": 7, "seqNo": 0, "generatedAt": iso(at), "tbc": false, "monitor": [{"component": {"name": "ChargingStation"}, "variable": {"name": "Temperature"},
        "variableMonitoring": [{"id": 43, "transaction": false, "value": 60, "type": "Periodic", "severity": 7}]}]});
    assert_eq!(call(&ctx, &s, "r1", "NotifyMonitoringReport", report).await, json!({}));
    let list = kept().await;
    assert_eq!(ids(&list), [40, 43], "{list:?}");
    assert_eq!((&list[1]["source"], &list[1]["knownAt"], &list[1]["evseId"]), (&json!("reported"), &json!(at), &Value::Null));

    let cleared = post(&ctx, "/charger/clearVariableMonitoring", Some(&admin), json!({"pileId": c.pile_id, "monitorIds": [40, 43]})).await;
    assert_eq!(cleared.code(), 200, "{}", cleared.msg());
    let frame = sent_as(&rec, "m-1", "ClearVariableMonitoring").pop().expect("the clear went to the station");
    let text = json!([3, frame[1], {"clearMonitoringResult": [{"id": 40, "status": "Accepted"}, {"id": 43, "status": "Rejected"}]}]).to_string();
    within_policy("ocpp_message", &backoffice::iam::link_policy("ocpp_message").unwrap(), s.on_text(&*ctx, &text)).await;
    assert_eq!(ids(&kept().await), [43], "the refused clear keeps its monitor");

    // The charging profiles it reports are kept beside them, by EVSE then id; one reported again replaces its record.
    let profiles = async || get(&ctx, &format!("/charger/deviceModel?pileId={}", c.pile_id), Some(&admin)).await.data()["chargingProfiles"].as_array().unwrap().clone();
    assert!(profiles().await.is_empty());
    let profile = |id: i64, limit: f64| json!({"id": id, "stackLevel": 0, "chargingProfilePurpose": "ChargingStationMaxProfile", "chargingProfileKind": "Absolute",
        "chargingSchedule": [{"id": 1, "chargingRateUnit": "W", "chargingSchedulePeriod": [{"startPeriod": 0, "limit": limit}]}]});
    let report = |evse: i64, list: Vec<Value>| json!({"requestId": 9, "chargingLimitSource": "CSO", "evseId": evse, "tbc": false, "chargingProfile": list});
    assert_eq!(call(&ctx, &s, "p1", "ReportChargingProfiles", report(1, vec![profile(5, 7000.0)])).await, json!({}));
    assert_eq!(call(&ctx, &s, "p2", "ReportChargingProfiles", report(0, vec![profile(9000, 22000.0), profile(3, 11000.0)])).await, json!({}));
    assert_eq!(call(&ctx, &s, "p3", "ReportChargingProfiles", report(1, vec![profile(5, 6000.0)])).await, json!({}));
    let list = profiles().await;
    let seen: Vec<(i64, i64, f64)> = list.iter().map(|p| (p["evseId"].as_i64().unwrap(), p["id"].as_i64().unwrap(), p["schedules"][0]["chargingSchedulePeriod"][0]["limit"].as_f64().unwrap())).collect();
    assert_eq!(seen, [(0, 3, 11000.0), (0, 9000, 22000.0), (1, 5, 6000.0)], "{list:?}");
    assert_eq!((&list[2]["purpose"], &list[2]["limitSource"], &list[2]["requestId"]), (&json!("ChargingStationMaxProfile"), &json!("CSO"), &json!(9)));
    assert_eq!(ids(&kept().await), [43], "the monitors are still the monitors");
}

/// A running 2.0.1 transaction is told its cost so far (CostUpdated)
/// after an Updated event with new readings, through the queue, at most
/// once a minute; the station's answer ends the command; Started, Ended
/// and events without new readings send none.
async fn a_201_transaction_is_sent_its_running_cost_at_most_once_a_minute(ctx: Arc<AppCtx>) {
    use backoffice::domain::chargers::commands::{self, CommandStatus};
    let c = register_as(&ctx, "COST201", "2.0.1").await;
    let rec = Arc::new(Recorder::default());
    assert!(ctx.outbound.set(rec.clone()).is_ok());
    ctx.clock.freeze();
    let s = connect_as(&ctx, &c, "c-1", "ocpp2.0.1").await;
    call(&ctx, &s, "b1", "BootNotification", json!({"chargingStation": {"vendorName": "ACME", "model": "AC22"}, "reason": "PowerUp"})).await;
    let t0 = ctx.now() - 3600;
    let event = |kind: &str, seq: i64, at: i64, wh: i64, context: &str| {
        json!({"eventType": kind, "timestamp": iso(at), "triggerReason": "MeterValuePeriodic", "seqNo": seq, "transactionInfo": {"transactionId": "COST-1", "chargingState": "Charging"},
               "evse": {"id": 1, "connectorId": 1}, "idToken": {"idToken": c.tag, "type": "ISO14443"},
               "meterValue": [{"timestamp": iso(at), "sampledValue": [{"value": wh, "context": context}]}]})
    };
    call(&ctx, &s, "t0", "TransactionEvent", event("Started", 0, t0, 10_000, "Transaction.Begin")).await;
    assert!(sent_as(&rec, "c-1", "CostUpdated").is_empty(), "a start costs nothing yet");
    call(&ctx, &s, "t1", "TransactionEvent", event("Updated", 1, t0 + 600, 14_000, "Sample.Periodic")).await;
    let sent = sent_as(&rec, "c-1", "CostUpdated");
    assert_eq!(sent.len(), 1, "{:?}", rec.on("c-1"));
    // The tariff's price of the curve so far, in yuan, for the station's own transaction id.
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let running = get(&ctx, &format!("/order/getList?userId={}&status=charging&pageSize=20", c.tag), Some(&admin)).await;
    let order_no = running.data()["list"][0]["orderNo"].as_str().expect("the running order").to_string();
    let (row, detail, _) = orders::load_full(&ctx, &order_no).await.unwrap();
    let tariff = detail.and_then(|d| d.tariff).expect("the order's tariff");
    let priced = price_session(&tariff, &[MeterSample::new(row.order.start_ts, 10_000), MeterSample::new(t0 + 600, 14_000)], &PricingOptions::default()).unwrap();
    assert!(priced.amount_fen.0 > 0);
    // Compared as numbers: a whole number of yuan is 8.0 when built and 8
    // after the DynamoDB store's round trip, the same JSON number.
    assert_eq!(sent[0][3]["totalCost"].as_f64(), Some(priced.amount_fen.0 as f64 / 100.0), "{}", sent[0][3]);
    assert_eq!(sent[0][3]["transactionId"], "COST-1");
    assert_eq!(sent[0][3].as_object().map(|o| o.len()), Some(2), "{}", sent[0][3]);
    // Within the minute: new readings, no second one (and the same reading again, none either).
    ctx.clock.advance(30);
    call(&ctx, &s, "t2", "TransactionEvent", event("Updated", 2, t0 + 1200, 18_000, "Sample.Periodic")).await;
    assert_eq!(sent_as(&rec, "c-1", "CostUpdated").len(), 1, "at most once a minute");
    let empty = |frame: &Value| json!([3, frame[1], {}]).to_string();
    within_policy("ocpp_message", &backoffice::iam::link_policy("ocpp_message").unwrap(), s.on_text(&*ctx, &empty(&sent[0]))).await;
    let command = commands::get(&ctx, sent[0][1].as_str().unwrap()).await.unwrap().expect("the command");
    assert_eq!((command.status, command.requested_by.as_str()), (CommandStatus::Answered, "CostUpdated"), "{command:?}");
    ctx.clock.advance(31);
    call(&ctx, &s, "t3", "TransactionEvent", event("Updated", 3, t0 + 1200, 18_000, "Sample.Periodic")).await;
    assert_eq!(sent_as(&rec, "c-1", "CostUpdated").len(), 1, "no new reading: no new cost");
    call(&ctx, &s, "t4", "TransactionEvent", event("Updated", 4, t0 + 1800, 22_000, "Sample.Periodic")).await;
    let sent = sent_as(&rec, "c-1", "CostUpdated");
    assert_eq!(sent.len(), 2, "a minute later: the next one");
    assert!(sent[1][3]["totalCost"].as_f64().unwrap() > sent[0][3]["totalCost"].as_f64().unwrap(), "{sent:?}");
    within_policy("ocpp_message", &backoffice::iam::link_policy("ocpp_message").unwrap(), s.on_text(&*ctx, &empty(&sent[1]))).await;
    ctx.clock.advance(61);
    let ended = call(&ctx, &s, "t5", "TransactionEvent", event("Ended", 5, t0 + 2400, 26_000, "Transaction.End")).await;
    assert!(ended["totalCost"].as_f64().is_some(), "{ended}");
    assert_eq!(sent_as(&rec, "c-1", "CostUpdated").len(), 2, "the end's total is in its answer");
}

macro_rules! on_both_adapters {
    ($($name:ident),* $(,)?) => {
        mod on_sqlite { $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() { super::$name(super::on_sqlite().await).await; }
        )* }
        mod on_dynamo { $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                if let Some(table) = super::dynamo_table("ocpp").await {
                    let ctx = super::product_on_dynamo(table.clone(), &[super::TTL, super::SMALL_SEED]).await;
                    super::$name(ctx).await;
                    let _ = table.delete_table().await;
                }
            }
        )* }
    };
}

on_both_adapters!(
    handshake_refusals,
    whole_session_is_a_priced_order,
    reconnect_race_leaves_the_new_connection_current,
    stop_before_start_and_meter_backwards_are_flagged,
    racing_commands_take_one_slot_and_go_in_order,
    a_closed_connection_ends_its_call_and_the_queue_follows_the_charger,
    charger_credentials_are_admins_and_a_change_closes_the_connection,
    handshake_guessing_is_limited_and_the_charger_at_its_known_address_gets_in,
    authorization_key_rotation_follows_the_chargers_answer,
    fields_past_their_limits_and_unknown_connectors_store_nothing,
    a_station_power_budget_reaches_each_connected_pile,
    security_events_are_stored_and_listed_per_pile_and_across_the_fleet,
    a_201_stations_monitors_are_kept_as_set_reported_and_cleared,
    a_201_transaction_is_sent_its_running_cost_at_most_once_a_minute,
);
