//! The simulator's OCPP 2.0.1 stations against the real gateway binary:
//! two stations registered for 2.0.1 connect, boot and report; a remote
//! start through the API becomes a 2.0.1 transaction (TransactionEvent
//! Started, Updated every second) and an order, a remote stop ends and
//! prices it; the device model, trigger, unlock, availability and reset
//! calls are answered in their schemas. The simulator reads every frame
//! the server sends strictly: no CALLERROR either way. Beside them, the
//! simulator's YKC piles on the gateway's YKC port (the same binary, one
//! gateway start more).

mod common;

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::*;
use gateway::simulate::{ChargerSpec, SimConfig, Stats, YkcSpec, YkcTiming};
use serde_json::{json, Value};

struct Api {
    client: reqwest::Client,
    base: String,
    token: String,
}

impl Api {
    async fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.base);
        let req = if method == "GET" { self.client.get(url) } else { self.client.post(url).json(&body.unwrap_or(Value::Null)) };
        let v: Value = req.bearer_auth(&self.token).send().await.expect("the gateway answers").json().await.expect("JSON");
        assert_eq!(v["code"], 200, "{method} {path}: {v}");
        v["data"].clone()
    }

    /// Sends a remote operation and polls it until it is no longer queued or sent.
    async fn command(&self, path: &str, body: Value) -> Value {
        let id = self.call("POST", path, Some(body)).await["id"].as_str().expect("a command id").to_string();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let c = self.call("GET", &format!("/charger/command?id={id}"), None).await;
            if !matches!(c["status"].as_str(), Some("queued" | "sent")) {
                return c;
            }
            assert!(Instant::now() < deadline, "{path} still {} after 30 s: {c}", c["status"]);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The pile as its station's page shows it.
    async fn pile(&self, station: &str, id: &str) -> Value {
        let detail = self.call("GET", &format!("/station/getDetail?id={station}"), None).await;
        detail["piles"].as_array().unwrap().iter().find(|p| p["id"] == id).cloned().expect("the pile")
    }

    async fn until<T>(&self, what: &str, mut probe: impl AsyncFnMut(&Api) -> Option<T>) -> T {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(v) = probe(self).await {
                return v;
            }
            assert!(Instant::now() < deadline, "{what}: not within 60 s");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn simulated_201_stations_charge_through_the_link_and_answer_every_call() {
    let gw = Gateway::start(fresh_data_dir("simulate-201"), &[("BACKOFFICE_DEMO_ORDERS", "50")]).await;
    let client = backoffice::http_client::client();
    let token = login(&client, &gw.base, "admin", ADMIN_PW).await;
    let api = Api { client, base: gw.base.clone(), token };

    let stations = api.call("GET", "/station/getList?pageNo=1&pageSize=50&status=operating", None).await;
    let station = stations["list"].as_array().unwrap().iter().find(|s| s["tariffId"].is_string()).expect("an operating station with a tariff")["id"].as_str().unwrap().to_string();
    let mut specs = Vec::new();
    let mut ids = Vec::new();
    for code in ["SIM201A", "SIM201B"] {
        let body = json!({"stationId": station, "code": code, "pileType": "ac", "ratedPowerKw": 22, "heartbeatIntervalSecs": 60, "ocppVersion": "2.0.1",
            "connectors": [{"standard": "type2", "maxPowerKw": 22}, {"standard": "type2", "maxPowerKw": 22}]});
        let id = api.call("POST", "/pile/doAdd", Some(body)).await["id"].as_str().unwrap().to_string();
        let password = api.call("POST", "/pile/setPassword", Some(json!({"id": id}))).await["password"].as_str().unwrap().to_string();
        specs.push(ChargerSpec { id: code.into(), password, connectors: 2, version: ocpp::Version::V201 });
        ids.push(id);
    }
    let stats = Arc::new(Stats::default());
    let cfg = SimConfig {
        url: format!("{}/ocpp", gw.origin().replace("http://", "ws://")),
        chargers: specs,
        heartbeat_secs: Some(5),
        meter_secs: 1,
        // Hours idle between sessions: only the API starts one here.
        session_share: 0.01,
        session_minutes: (30, 30),
        power_kw: (7.0, 7.0),
        seed: 3,
        ramp_per_sec: 10,
        ..Default::default()
    };
    let sim = tokio::spawn(gateway::simulate::run(cfg, stats.clone()));

    // Both connect over ocpp2.0.1 and boot with reason PowerUp.
    for id in &ids {
        let view = api.until("the station connects", async |api: &Api| Some(api.pile(&station, id).await).filter(|p| p["link"]["connected"] == true && p["link"]["boot"]["reason"].is_string())).await;
        assert_eq!((view["link"]["protocol"].as_str(), view["link"]["boot"]["reason"].as_str(), view["link"]["boot"]["model"].as_str()), (Some("ocpp2.0.1"), Some("PowerUp"), Some("SIM-201")), "{view}");
    }

    // A remote start is a 2.0.1 transaction and an order; its meter comes in Updated events.
    let (a, b) = (ids[0].clone(), ids[1].clone());
    let started = api.command("/charger/remoteStart", json!({"pileId": a, "connectorId": 2, "idTag": "DEMO0007"})).await;
    assert_eq!((started["status"].as_str(), started["action"].as_str(), started["response"]["status"].as_str()), (Some("answered"), Some("RequestStartTransaction"), Some("Accepted")), "{started}");
    let order = api
        .until("the order opens", async |api: &Api| {
            let list = api.call("GET", "/order/getList?userId=DEMO0007&status=charging&pageSize=50", None).await;
            list["list"].as_array().unwrap().iter().find(|o| o["pileId"] == a.as_str()).cloned()
        })
        .await;
    let order_no = order["orderNo"].as_str().unwrap().to_string();
    assert!(order["connectorId"].as_str().unwrap().ends_with("-c2"), "{order}");
    api.until("meter values arrive", async |api: &Api| {
        let log = api.call("GET", &format!("/pile/messageLog?pileId={a}&action=TransactionEvent"), None).await;
        Some(()).filter(|_| log["list"].as_array().unwrap().iter().filter(|e| e["request"]["eventType"] == "Updated").count() >= 3)
    })
    .await;
    let stopped = api.command("/charger/remoteStop", json!({"orderNo": order_no})).await;
    assert_eq!((stopped["action"].as_str(), stopped["response"]["status"].as_str()), (Some("RequestStopTransaction"), Some("Accepted")), "{stopped}");
    let closed = api
        .until("the order is priced", async |api: &Api| Some(api.call("GET", &format!("/order/detail?id={order_no}"), None).await).filter(|o| o["status"] == "finished"))
        .await;
    assert!(closed["energyWh"].as_i64().unwrap() > 0 && closed["amountFen"].as_i64().unwrap() >= 0, "{closed}");
    assert_eq!(closed["stopReason"], "remoteStop", "{closed}");
    // Every event of the transaction in order, from 0, none missing.
    let log = api.call("GET", &format!("/pile/messageLog?pileId={a}&action=TransactionEvent&pageSize=100"), None).await;
    let mut seq: Vec<i64> = log["list"].as_array().unwrap().iter().map(|e| e["request"]["seqNo"].as_i64().unwrap()).collect();
    seq.sort_unstable();
    assert_eq!(seq, (0..seq.len() as i64).collect::<Vec<_>>(), "{log}");
    assert!(closed["anomalies"].as_array().is_none_or(|a| a.is_empty()), "{closed}");

    // The device model and the other remote operations, each answered in its schema.
    let read = api.command("/charger/getVariables", json!({"pileId": b, "variables": [{"component": "SampledDataCtrlr", "variable": "TxUpdatedInterval"}, {"component": "Nope", "variable": "Nothing"}]})).await;
    let results: Vec<(Value, Value)> = read["response"]["getVariableResult"].as_array().unwrap().iter().map(|r| (r["attributeStatus"].clone(), r["attributeValue"].clone())).collect();
    assert_eq!(results, vec![(json!("Accepted"), json!("1")), (json!("UnknownComponent"), Value::Null)], "{read}");
    let changed = api.command("/charger/setVariables", json!({"pileId": b, "variables": [{"component": "OCPPCommCtrlr", "variable": "HeartbeatInterval", "value": "1"}, {"component": "DeviceDataCtrlr", "variable": "ItemsPerMessage", "value": "5"}]})).await;
    let statuses: Vec<&str> = changed["response"]["setVariableResult"].as_array().unwrap().iter().map(|r| r["attributeStatus"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["Accepted", "Rejected"], "{changed}");
    // The station heartbeats at the new interval (1 s, not the 5 s it started with) and reads it back.
    let since = changed["answeredAt"].as_i64().or_else(|| changed["createdAt"].as_i64()).expect("the command's time");
    let beats = api
        .until("heartbeats at the new interval", async |api: &Api| {
            let log = api.call("GET", &format!("/pile/messageLog?pileId={b}&action=Heartbeat&pageSize=100"), None).await;
            let mut at: Vec<i64> = log["list"].as_array().unwrap().iter().map(|e| e["at"].as_i64().unwrap()).filter(|t| *t > since).collect();
            at.sort_unstable();
            (at.len() >= 5).then_some(at)
        })
        .await;
    assert!(beats[4] - beats[0] <= 6, "five heartbeats over {} s: {beats:?}", beats[4] - beats[0]);
    let read = api.command("/charger/getVariables", json!({"pileId": b, "variables": [{"component": "OCPPCommCtrlr", "variable": "HeartbeatInterval"}]})).await;
    assert_eq!(read["response"]["getVariableResult"][0]["attributeValue"], "1", "{read}");
    let report = api.command("/charger/getBaseReport", json!({"pileId": b, "reportBase": "FullInventory"})).await;
    assert_eq!(report["response"]["status"], "Accepted", "{report}");
    api.until("the report is kept", async |api: &Api| {
        let model = api.call("GET", &format!("/charger/deviceModel?pileId={b}"), None).await;
        Some(()).filter(|_| model["total"].as_u64().unwrap_or(0) >= 5)
    })
    .await;
    for (path, body, answer) in [
        ("/charger/trigger", json!({"requestedMessage": "StatusNotification", "connectorId": 1}), "Accepted"),
        ("/charger/trigger", json!({"requestedMessage": "MeterValues", "connectorId": 2}), "Accepted"),
        ("/charger/unlock", json!({"connectorId": 1}), "Unlocked"),
        ("/charger/availability", json!({"connectorId": 2, "type": "Inoperative"}), "Accepted"),
        ("/charger/availability", json!({"connectorId": 0, "type": "Operative"}), "Accepted"),
        ("/charger/clearCache", json!({}), "Accepted"),
        // One EVSE restarts: the rest of the station stays connected.
        ("/charger/reset", json!({"type": "Hard", "evseId": 2}), "Accepted"),
        ("/charger/setNetworkProfile", json!({"configurationSlot": 2, "connectionData": {"ocppCsmsUrl": "wss://csms.example.com/ocpp", "securityProfile": 2, "ocppInterface": "Wired0", "ocppVersion": "OCPP20", "ocppTransport": "JSON", "messageTimeout": 30}}), "Accepted"),
        ("/charger/setNetworkProfile", json!({"configurationSlot": 9, "connectionData": {"ocppCsmsUrl": "wss://csms.example.com/ocpp", "securityProfile": 2, "ocppInterface": "Wired0", "ocppVersion": "OCPP20", "ocppTransport": "JSON", "messageTimeout": 30}}), "Rejected"),
        ("/charger/reset", json!({"type": "Soft"}), "Accepted"),
    ] {
        let mut body = body;
        body["pileId"] = json!(b);
        let done = api.command(path, body).await;
        assert_eq!((done["status"].as_str(), done["response"]["status"].as_str()), (Some("answered"), Some(answer)), "{path}: {done}");
    }
    // The EVSE's reset went through unavailable and back (B11), without a new boot.
    let statuses = api.call("GET", &format!("/pile/messageLog?pileId={b}&action=StatusNotification&pageSize=100"), None).await;
    let evse2: Vec<&str> = statuses["list"].as_array().unwrap().iter().rev().filter(|e| e["request"]["evseId"] == 2).filter_map(|e| e["request"]["connectorStatus"].as_str()).collect();
    // Once for ChangeAvailability Inoperative then Operative, once for the reset.
    assert!(evse2.windows(2).filter(|w| *w == ["Unavailable", "Available"]).count() >= 2, "{evse2:?}");
    // The whole-station reset: the station reconnects and boots again, saying why.
    api.until("the station boots after its reset", async |api: &Api| {
        let p = api.pile(&station, &b).await;
        (p["link"]["connected"] == true && p["link"]["boot"]["reason"] == "RemoteReset").then_some(())
    })
    .await;

    assert_eq!(stats.errors.load(Ordering::Relaxed), 0, "the server answered a station's call with a CALLERROR: {}", stats.line());
    assert_eq!(stats.refused_server_calls.load(Ordering::Relaxed), 0, "a server call broke its schema or was not taken: {}", stats.line());
    assert!(stats.server_calls.load(Ordering::Relaxed) >= 11, "{}", stats.line());
    sim.abort();
}

/// The order a remote start opened on `pile` for `card`, once it is in the list.
async fn charging_order(api: &Api, card: &str, pile: &str) -> Value {
    api.until("the order opens", async |api: &Api| {
        let list = api.call("GET", &format!("/order/getList?userId={card}&status=charging&pageSize=50"), None).await;
        list["list"].as_array().unwrap().iter().find(|o| o["pileId"] == pile).cloned()
    })
    .await
}

/// The pile's transaction records in its message log (newest first).
async fn records(api: &Api, pile: &str) -> Vec<Value> {
    let log = api.call("GET", &format!("/pile/messageLog?pileId={pile}&action=TransactionRecord&pageSize=50"), None).await;
    log["list"].as_array().unwrap().clone()
}

/// A closed order agrees with the pile's bill: the record's amount (0.0001
/// yuan) in fen is the product's electricity and service, and nothing is flagged.
fn agrees_with_the_record(order: &Value, record: &Value) {
    let theirs = (record["request"]["amount"].as_i64().unwrap() + 50) / 100;
    let ours = order["electricityFen"].as_i64().unwrap() + order["serviceFen"].as_i64().unwrap();
    assert_eq!(ours, theirs, "the product's price and the pile's bill: {order} {record}");
    assert!(order["anomalies"].as_array().is_none_or(|a| a.is_empty()), "{order}");
    let tiers: Vec<i64> = ["sharp", "peak", "flat", "valley"].iter().map(|t| record["request"][t]["energy"].as_i64().unwrap()).collect();
    assert_eq!(tiers.iter().sum::<i64>(), record["request"]["energy"].as_i64().unwrap(), "{record}");
    // 0.0001 kWh per rate, in Wh.
    assert_eq!(order["energyWh"].as_i64().unwrap(), tiers.iter().map(|e| (e + 5) / 10).sum::<i64>(), "{order} {record}");
    assert_eq!(record["response"]["result"], "Accepted", "{record}");
}

/// The simulator's YKC piles against the gateway's YKC port: a 1.6 pile and
/// a 1.5 pile log in and show connected; a remote start (0x34) becomes a
/// session whose real-time data (0x13) grows the order, a remote stop
/// (0x36) ends it and the pile's transaction record (0x3B) closes it,
/// priced as the pile billed it; the 1.5 pile's card session (0x31) does
/// the same on its own; a saved tariff is pushed (0x58) and taken, and a
/// reboot (0x92) brings the pile back with a new login. Every platform
/// frame decodes strictly and answers what the pile sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn simulated_ykc_piles_charge_through_the_ykc_port() {
    let ykc_port = free_port().to_string();
    let gw = Gateway::start(fresh_data_dir("simulate-ykc"), &[("BACKOFFICE_DEMO_ORDERS", "50"), ("BACKOFFICE_YKC_PORT", &ykc_port)]).await;
    let client = backoffice::http_client::client();
    let token = login(&client, &gw.base, "admin", ADMIN_PW).await;
    let api = Api { client, base: gw.base.clone(), token };

    let stations = api.call("GET", "/station/getList?pageNo=1&pageSize=50&status=operating", None).await;
    let station = stations["list"].as_array().unwrap().iter().find(|s| s["tariffId"].is_string()).expect("an operating station with a tariff");
    let (station, tariff) = (station["id"].as_str().unwrap().to_string(), station["tariffId"].as_str().unwrap().to_string());
    let mut ids = Vec::new();
    for (code, version) in [("32010600000001", "ykc1.6"), ("32010600000002", "ykc1.5")] {
        let body = json!({"stationId": station, "code": code, "pileType": "dc", "ratedPowerKw": 60, "heartbeatIntervalSecs": 10, "ocppVersion": version,
            "connectors": [{"standard": "gbt2015", "maxPowerKw": 60}, {"standard": "gbt2015", "maxPowerKw": 60}]});
        ids.push(api.call("POST", "/pile/doAdd", Some(body)).await["id"].as_str().unwrap().to_string());
    }
    let (a, b) = (ids[0].clone(), ids[1].clone());
    let stats = Arc::new(Stats::default());
    let base_cfg = SimConfig {
        ykc_address: format!("127.0.0.1:{ykc_port}"),
        power_kw: (30.0, 30.0),
        seed: 5,
        ramp_per_sec: 10,
        ..Default::default()
    };
    // Pile A: hours idle between sessions (only the API starts one), real-time data every 2 s.
    let cfg_a = SimConfig {
        ykc_piles: vec![YkcSpec { pile_no: "32010600000001".into(), guns: 2, version: ykc::Version::V1_6 }],
        ykc_timing: YkcTiming { realtime_charging_secs: 2, ..Default::default() },
        session_share: 0.01,
        session_minutes: (30, 30),
        ..base_cfg.clone()
    };
    // Pile B: a card session of a minute at once on each gun, the specification's periods.
    let cfg_b = SimConfig {
        ykc_piles: vec![YkcSpec { pile_no: "32010600000002".into(), guns: 2, version: ykc::Version::V1_5 }],
        session_share: 0.99,
        session_minutes: (1, 1),
        steady_start: true,
        ..base_cfg
    };
    let sim_a = tokio::spawn(gateway::simulate::run(cfg_a, stats.clone()));
    let sim_b = tokio::spawn(gateway::simulate::run(cfg_b, stats.clone()));

    // Both log in with their versions and show connected.
    for (id, protocol) in [(&a, "ykc1.6"), (&b, "ykc1.5")] {
        let view = api.until("the pile connects", async |api: &Api| Some(api.pile(&station, id).await).filter(|p| p["link"]["connected"] == true)).await;
        assert_eq!(view["link"]["protocol"].as_str(), Some(protocol), "{view}");
    }

    // A remote start on gun 2 is a session and an order; the real-time data grows it.
    let started = api.command("/charger/remoteStart", json!({"pileId": a, "connectorId": 2, "idTag": "CA000002"})).await;
    assert_eq!((started["status"].as_str(), started["action"].as_str(), started["response"]["status"].as_str()), (Some("answered"), Some("RemoteStart"), Some("Accepted")), "{started}");
    let order = charging_order(&api, "CA000002", &a).await;
    let order_no = order["orderNo"].as_str().unwrap().to_string();
    assert!(order["connectorId"].as_str().unwrap().ends_with("-c2"), "{order}");
    api.until("the energy grows", async |api: &Api| Some(api.call("GET", &format!("/order/detail?id={order_no}"), None).await).filter(|o| o["energyWh"].as_i64().unwrap_or(0) > 20 && o["curve"].as_array().is_some_and(|c| c.len() >= 3)))
        .await;
    let stopped = api.command("/charger/remoteStop", json!({"orderNo": order_no})).await;
    assert_eq!((stopped["action"].as_str(), stopped["response"]["status"].as_str()), (Some("RemoteStop"), Some("Accepted")), "{stopped}");
    let closed = api.until("the order is priced", async |api: &Api| Some(api.call("GET", &format!("/order/detail?id={order_no}"), None).await).filter(|o| o["status"] == "finished")).await;
    assert_eq!(closed["stopReason"], "remoteStop", "{closed}");
    let record = records(&api, &a).await.into_iter().next().expect("the pile's transaction record");
    assert_eq!((record["request"]["tradeKind"].as_str(), record["request"]["stopReason"].as_i64()), (Some("App"), Some(0x40)), "{record}");
    agrees_with_the_record(&closed, &record);

    // The 1.5 pile's card sessions: asked at the pile (0x31), ended by the driver, billed by the record.
    let recorded = api.until("the 1.5 pile's records", async |api: &Api| Some(records(api, &b).await).filter(|r| r.len() >= 2)).await;
    for record in &recorded {
        let card = record["request"]["physicalCard"].as_str().unwrap().trim_start_matches('0').to_string();
        assert_eq!((record["request"]["tradeKind"].as_str(), record["request"]["stopReason"].as_i64()), (Some("Card"), Some(0x45)), "{record}");
        let gun: u32 = record["request"]["gun"].as_str().unwrap().parse().unwrap();
        let order = api
            .until("the card session's order is closed", async |api: &Api| {
                let list = api.call("GET", &format!("/order/getList?userId={card}&status=finished&pageSize=50"), None).await;
                list["list"].as_array().unwrap().iter().find(|o| o["pileId"] == b.as_str() && o["connectorId"].as_str().unwrap().ends_with(&format!("-c{gun}"))).cloned()
            })
            .await;
        let order = api.call("GET", &format!("/order/detail?id={}", order["orderNo"].as_str().unwrap()), None).await;
        agrees_with_the_record(&order, record);
    }

    // A saved tariff goes to the YKC piles that bill with it, and they take it.
    let detail = api.call("GET", &format!("/tariff/getDetail?id={tariff}"), None).await;
    let mut edit = detail["template"].clone();
    edit["apply"] = json!("allStations");
    edit["prices"]["flat"]["service"] = json!(edit["prices"]["flat"]["service"].as_i64().unwrap() + 100);
    let saved = api.call("POST", "/tariff/doEdit", Some(edit)).await;
    let pushed: Vec<(String, String)> = saved["pushed"].as_array().unwrap().iter().map(|p| (p["pileId"].as_str().unwrap().to_string(), p["command"]["id"].as_str().unwrap().to_string())).collect();
    for id in [&a, &b] {
        let (_, command) = pushed.iter().find(|(p, _)| p == id).unwrap_or_else(|| panic!("no push to {id}: {saved}"));
        let done = api
            .until("the pile takes the tariff", async |api: &Api| Some(api.call("GET", &format!("/charger/command?id={command}"), None).await).filter(|c| !matches!(c["status"].as_str(), Some("queued" | "sent"))))
            .await;
        assert_eq!((done["action"].as_str(), done["status"].as_str(), done["response"]["status"].as_str()), (Some("TariffSet"), Some("answered"), Some("Accepted")), "{done}");
    }

    // A reboot: the pile answers, closes, reconnects and logs in again.
    let logins = |log: &Value| log["list"].as_array().unwrap().len();
    let before = logins(&api.call("GET", &format!("/pile/messageLog?pileId={a}&action=Login&pageSize=50"), None).await);
    let reset = api.command("/charger/reset", json!({"pileId": a, "type": "Soft"})).await;
    assert_eq!((reset["action"].as_str(), reset["status"].as_str(), reset["response"]["status"].as_str()), (Some("Reboot"), Some("answered"), Some("Accepted")), "{reset}");
    api.until("the pile logs in again", async |api: &Api| {
        let log = api.call("GET", &format!("/pile/messageLog?pileId={a}&action=Login&pageSize=50"), None).await;
        let p = api.pile(&station, &a).await;
        (logins(&log) > before && p["link"]["connected"] == true).then_some(())
    })
    .await;

    assert_eq!(stats.errors.load(Ordering::Relaxed), 0, "a platform frame did not decode, named another pile or answered nothing: {}", stats.line());
    assert_eq!(stats.refused_server_calls.load(Ordering::Relaxed), 0, "a platform command was not taken: {}", stats.line());
    assert!(stats.server_calls.load(Ordering::Relaxed) >= 6, "{}", stats.line());
    sim_a.abort();
    sim_b.abort();
}
