//! The charging routes' answers match the `data` schema their route
//! declares. Reads are also checked by the fuzz run (scripts/fuzz-api.sh),
//! but fuzzed writes almost never succeed, so the answers of successful
//! writes (and a detail with refunds) are checked here against the
//! document: every required key is present, no key is undeclared where
//! the schema says so, and every value has its declared type, enum or
//! const (a subset of JSON Schema, enough for these types).

mod common;

use backoffice::openapi::document;
use backoffice::routes::routes;
use common::*;
use http::Method;
use serde_json::{json, Value};

/// The routes whose answers are typed; every one must declare its `data`.
const TYPED: [&str; 32] = [
    "order_list", "order_detail", "order_close", "refund_request", "refund_approve", "refund_reject", "refund_list",
    "order_offline_payment", "order_write_off",
    "finance_revenue", "finance_by_station", "finance_settlement", "finance_ledger", "dashboard",
    "station_list", "station_detail", "station_add", "station_edit", "station_delete",
    "tariff_list", "tariff_detail", "tariff_versions", "tariff_add", "tariff_edit",
    "pile_list", "pile_add", "pile_edit", "pile_delete",
    "connector_list", "connector_history", "connector_edit", "connector_action",
];

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "string" => v.is_string(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => false,
    }
}

/// The problems of `v` against `schema` (empty = it matches).
fn problems(schema: &Value, v: &Value, at: &str, out: &mut Vec<String>) {
    for key in ["oneOf", "anyOf"] {
        if let Some(options) = schema[key].as_array() {
            let fits = |o: &Value| {
                let mut p = Vec::new();
                problems(o, v, at, &mut p);
                p.is_empty()
            };
            let n = options.iter().filter(|o| fits(o)).count();
            if n == 0 || (key == "oneOf" && n > 1) {
                out.push(format!("{at}: {n} of the {key} options match {v}"));
            }
        }
    }
    if let Some(c) = schema.get("const") {
        if c != v {
            out.push(format!("{at}: {v} is not {c}"));
        }
    }
    if let Some(e) = schema["enum"].as_array() {
        if !e.contains(v) {
            out.push(format!("{at}: {v} is not one of {e:?}"));
        }
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    if !types.is_empty() && !types.iter().any(|t| type_ok(t, v)) {
        out.push(format!("{at}: {v} is not {types:?}"));
        return;
    }
    match v {
        Value::Object(map) => {
            for r in schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str) {
                if !map.contains_key(r) {
                    out.push(format!("{at}: {r} is missing"));
                }
            }
            for (k, x) in map {
                match schema["properties"].get(k) {
                    Some(s) => problems(s, x, &format!("{at}.{k}"), out),
                    None => match schema.get("additionalProperties") {
                        Some(Value::Bool(false)) => out.push(format!("{at}: {k} is not declared")),
                        Some(s @ Value::Object(_)) => problems(s, x, &format!("{at}.{k}"), out),
                        _ => {}
                    },
                }
            }
        }
        Value::Array(list) => {
            if let Some(items) = schema.get("items") {
                for (i, x) in list.iter().enumerate() {
                    problems(items, x, &format!("{at}[{i}]"), out);
                }
            }
        }
        _ => {}
    }
}

/// Asserts the answer is a success whose `data` matches its route's schema.
fn assert_typed(doc: &Value, function: &str, a: &Answer) {
    assert_eq!(a.code(), 200, "{function}: {}", a.body);
    let route = routes().iter().find(|r| r.function == function).unwrap();
    let op = &doc["paths"][route.full_path()][route.method.as_str().to_ascii_lowercase()];
    let schema = &op["responses"]["200"]["content"]["application/json"]["schema"]["properties"]["data"];
    let mut out = Vec::new();
    problems(schema, a.data(), function, &mut out);
    assert!(out.is_empty(), "{function}: the answer does not match its schema: {out:#?}");
}

#[test]
fn the_charging_routes_declare_their_data() {
    let doc = document();
    for function in TYPED {
        let route = routes().iter().find(|r| r.function == function).unwrap_or_else(|| panic!("no route {function}"));
        assert!(route.doc.data.is_some(), "{function} declares no data type");
        let op = &doc["paths"][route.full_path()][route.method.as_str().to_ascii_lowercase()];
        let data = &op["responses"]["200"]["content"]["application/json"]["schema"]["properties"]["data"];
        assert!(data.get("type").is_some(), "{function}: data is not described: {data}");
    }
}

#[test]
fn the_checker_refuses_what_the_schema_refuses() {
    let schema = json!({
        "type": "object", "required": ["a", "n"],
        "properties": {
            "a": {"type": ["string", "null"]},
            "n": {"oneOf": [{"type": "object", "required": ["kind"], "properties": {"kind": {"const": "x"}}}, {"enum": [1, 2]}]},
            "m": {"type": "object", "additionalProperties": false, "properties": {"k": {"type": "integer"}}}
        }
    });
    let check = |v: Value| {
        let mut out = Vec::new();
        problems(&schema, &v, "", &mut out);
        out.len()
    };
    assert_eq!(check(json!({"a": null, "n": 2, "m": {"k": 1}})), 0);
    assert_eq!(check(json!({"a": "x", "n": {"kind": "x"}})), 0);
    for bad in [json!({"n": 1}), json!({"a": 1, "n": 1}), json!({"a": null, "n": 3}), json!({"a": null, "n": {"kind": "y"}}), json!({"a": null, "n": 1, "m": {"j": 1}})] {
        assert!(check(bad.clone()) > 0, "{bad}");
    }
}

#[tokio::test]
async fn successful_writes_and_details_answer_their_declared_types() {
    let ctx = product_with(&[("BACKOFFICE_DEMO_ORDERS", "1500")]).await;
    let doc = document();
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let today = backoffice::domain::orders::keys::local_day(ctx.now());
    let day = backoffice::domain::orders::keys::iso_day;
    let range = format!("from={}&to={}", day(today - 130), day(today));

    // Orders: close a stuck one, request / approve / reject refunds, read the detail.
    let stuck = get(&ctx, &format!("/order/getList?{range}&anomaly=stuck&pageSize=1"), Some(&editor)).await;
    let no = stuck.data()["list"][0]["orderNo"].clone();
    let closed = post(&ctx, "/order/close", Some(&editor), json!({"orderNo": no, "reason": "桩离线"})).await;
    assert_typed(&doc, "order_close", &closed);
    let paid = get(&ctx, &format!("/order/getList?{range}&paymentStatus=paid&pageSize=50"), Some(&admin)).await;
    let paid = paid.data()["list"].as_array().unwrap().iter().find(|r| r["paidFen"].as_i64().unwrap() >= 200).unwrap()["orderNo"].clone();
    let mut decided = Vec::new();
    for (function, path) in [("refund_approve", "/order/refund/approve"), ("refund_reject", "/order/refund/approval/reject")] {
        let req = post(&ctx, "/order/refund/request", Some(&editor), json!({"orderNo": paid, "amount": "0.50", "reason": "充电中断"})).await;
        assert_typed(&doc, "refund_request", &req);
        let d = post(&ctx, path, Some(&admin), json!({"orderNo": paid, "refundId": req.data()["id"], "note": "ok"})).await;
        assert_typed(&doc, function, &d);
        decided.push(d);
    }
    let detail = get(&ctx, &format!("/order/detail?id={}", paid.as_str().unwrap()), Some(&admin)).await;
    assert_typed(&doc, "order_detail", &detail);
    assert_eq!(detail.data()["refunds"].as_array().unwrap().len(), 2, "both requests, any status");
    let ledger = get(&ctx, &format!("/money/ledger?{range}"), Some(&admin)).await;
    assert_typed(&doc, "finance_ledger", &ledger);
    let approved = &decided[0].data()["refund"]["id"];
    let entry = ledger.data()["list"].as_array().unwrap().iter().find(|e| &e["refundId"] == approved).expect("the approved refund's entry");
    assert_eq!((entry["refundedBeforeFen"].as_i64(), entry["refundedAfterFen"].as_i64()), (Some(0), Some(50)), "the new entry carries the order's totals");

    // Assets: a station, a tariff, a pile with connectors; edits, actions, deletes.
    let station = json!({
        "code": "NN-T1", "name": "类型测试站", "operator": "测试运营商",
        "provinceCode": "450000", "cityCode": "450100", "districtCode": "450102",
        "address": "南宁市兴宁区民族大道1号", "lat": 22.817, "lng": 108.366,
        "openingHours": "06:00-23:00", "status": "operating",
        "servicePhone": "0771-12345678", "parkingInfo": "", "tariffId": ""
    });
    let added = post(&ctx, "/station/doAdd", Some(&admin), station.clone()).await;
    assert_typed(&doc, "station_add", &added);
    let sid = added.data()["id"].as_str().unwrap().to_string();
    let mut edit = station;
    edit["id"] = json!(sid);
    edit["version"] = json!(1);
    assert_typed(&doc, "station_edit", &post(&ctx, "/station/doEdit", Some(&admin), edit).await);
    let no_tariff = get(&ctx, &format!("/station/getDetail?id={sid}"), Some(&admin)).await;
    assert_typed(&doc, "station_detail", &no_tariff);
    assert_eq!(no_tariff.data()["tariff"], Value::Null);

    let tariff = json!({
        "name": "类型测试资费",
        "segments": [{"start": "00:00", "end": "08:00", "tier": "valley"}, {"start": "08:00", "end": "24:00", "tier": "flat"}],
        "prices": {"flat": {"electricity": 6726, "service": 6000}, "valley": {"electricity": 3126, "service": 4000}},
        "parking": {"freeMinutes": 60, "fenPerMinute": 10}
    });
    let t = post(&ctx, "/tariff/doAdd", Some(&admin), tariff.clone()).await;
    assert_typed(&doc, "tariff_add", &t);
    let mut change = tariff;
    change["id"] = t.data()["template"]["id"].clone();
    change["version"] = json!(1);
    change["apply"] = json!("allStations");
    assert_typed(&doc, "tariff_edit", &post(&ctx, "/tariff/doEdit", Some(&admin), change).await);

    let pile = json!({
        "stationId": sid, "code": "NN-T1-P1", "vendor": "", "model": "", "firmwareVersion": "",
        "pileType": "dc", "ratedPowerKw": 120, "heartbeatIntervalSecs": 30,
        "connectors": [{"standard": "gbt2015", "maxPowerKw": 120}, {"standard": "ccs2", "maxPowerKw": 60}]
    });
    let p = post(&ctx, "/pile/doAdd", Some(&admin), pile.clone()).await;
    assert_typed(&doc, "pile_add", &p);
    let mut pe = pile;
    pe["id"] = p.data()["id"].clone();
    pe["version"] = json!(1);
    assert_typed(&doc, "pile_edit", &post(&ctx, "/pile/doEdit", Some(&admin), pe).await);
    let cid = p.data()["connectors"][0]["id"].clone();
    let ce = post(&ctx, "/connector/doEdit", Some(&admin), json!({"id": cid, "version": 1, "standard": "ccs2", "maxPowerKw": 50})).await;
    assert_typed(&doc, "connector_edit", &ce);
    assert_typed(&doc, "connector_action", &post(&ctx, "/connector/doAction", Some(&admin), json!({"id": cid, "action": "disable"})).await);
    let history = get(&ctx, &format!("/connector/getHistory?id={}", cid.as_str().unwrap()), Some(&admin)).await;
    assert_typed(&doc, "connector_history", &history);
    let registered = history.data()["list"].as_array().unwrap().iter().find(|e| e["event"] == "registered").expect("the registration");
    assert_eq!(registered["from"], Value::Null, "the registration has no previous status");
    assert_typed(&doc, "pile_delete", &call(&ctx, Method::POST, "/pile/doDelete", Some(&admin), Some(json!({"id": p.data()["id"]}))).await);
    assert_typed(&doc, "station_delete", &post(&ctx, "/station/doDelete", Some(&admin), json!({"id": sid})).await);
}

/// Takes every frame sent to a charger (the connection stays up).
struct Socket(std::sync::Mutex<Vec<String>>);

#[async_trait::async_trait]
impl backoffice::domain::chargers::outbound::Outbound for Socket {
    async fn send(&self, _pile: &str, _connection: &str, frame: String) -> Result<(), backoffice::domain::chargers::outbound::Gone> {
        self.0.lock().unwrap().push(frame);
        Ok(())
    }
    async fn close(&self, _pile: &str, _connection: &str) {}
}

/// The remote operations on a connected charger: each answers its command,
/// the first is sent, the rest queue behind it (one call in flight), and
/// the charger panel's lists read them back. Through the common dispatch,
/// so every route here is also held to its function's IAM policy.
#[tokio::test]
async fn remote_operations_answer_their_declared_types() {
    use backoffice::domain::assets::{piles, stations};
    use backoffice::domain::chargers::link;
    let ctx = product().await;
    let doc = document();
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let (list, _) = stations::list(&ctx, stations::Filter::default(), 1, 1).await.unwrap();
    let (pile, _) = piles::with_connectors(&ctx, &list[0].id).await.unwrap().remove(0);
    let socket = std::sync::Arc::new(Socket(Default::default()));
    assert!(ctx.outbound.set(socket.clone()).is_ok());
    let c = link::Connection { connection_id: "conn-1".into(), pile_id: pile.id.clone(), protocol: "ocpp1.6".into(), connected_at_ms: ctx.now() * 1000, queue_started: false, pending: false, remote_address: String::new(), instance: None, close_requested: false };
    assert!(link::connected(&ctx, &pile, &c, "127.0.0.1").await.unwrap());
    let tag = get(&ctx, "/card/getList?pageSize=1", Some(&admin)).await.data()["list"][0]["idTag"].clone();
    assert!(tag.is_string(), "the demo has cards");

    let p = json!(pile.id);
    let operations = [
        ("charger_remote_start", "/charger/remoteStart", json!({"pileId": p, "connectorId": 1, "idTag": tag})),
        ("charger_unlock", "/charger/unlock", json!({"pileId": p, "connectorId": 1})),
        ("charger_availability", "/charger/availability", json!({"pileId": p, "connectorId": 0, "type": "Inoperative"})),
        ("charger_trigger", "/charger/trigger", json!({"pileId": p, "requestedMessage": "Heartbeat"})),
        ("charger_reset", "/charger/reset", json!({"pileId": p, "type": "Soft"})),
        ("charger_get_configuration", "/charger/getConfiguration", json!({"pileId": p, "keys": ["HeartbeatInterval"]})),
        ("charger_change_configuration", "/charger/changeConfiguration", json!({"pileId": p, "key": "HeartbeatInterval", "value": "60"})),
        ("charger_clear_cache", "/charger/clearCache", json!({"pileId": p})),
        ("charger_data_transfer", "/charger/dataTransfer", json!({"pileId": p, "vendorId": "com.example", "data": "x"})),
        ("charger_reserve_now", "/charger/reserveNow", json!({"pileId": p, "connectorId": 1, "idTag": tag, "expiresAt": ctx.now() + 3600})),
        ("charger_update_firmware", "/charger/updateFirmware", json!({"pileId": p, "location": "https://firmware.example/1.bin"})),
        ("charger_get_diagnostics", "/charger/getDiagnostics", json!({"pileId": p, "location": "https://upload.example/diag"})),
        ("charger_send_local_list", "/charger/sendLocalList", json!({"pileId": p, "updateType": "Full"})),
        ("charger_get_local_list_version", "/charger/getLocalListVersion", json!({"pileId": p})),
        ("charger_clear_charging_profile", "/charger/clearChargingProfile", json!({"pileId": p})),
        ("charger_get_composite_schedule", "/charger/getCompositeSchedule", json!({"pileId": p, "connectorId": 1, "durationSecs": 600})),
    ];
    let mut ids = Vec::new();
    for (function, path, body) in operations {
        let a = post(&ctx, path, Some(&admin), body).await;
        assert_typed(&doc, function, &a);
        ids.push(a.data()["id"].as_str().unwrap().to_string());
    }
    assert_eq!(socket.0.lock().unwrap().len(), 1, "one call in flight, the rest queued");

    let list = get(&ctx, &format!("/charger/commands?pileId={}", pile.id), Some(&admin)).await;
    assert_typed(&doc, "charger_commands", &list);
    assert_eq!(list.data()["list"].as_array().unwrap().len(), ids.len());
    assert_typed(&doc, "charger_command", &get(&ctx, &format!("/charger/command?id={}", ids[0]), Some(&admin)).await);
    let reservations = get(&ctx, &format!("/charger/reservations?pileId={}", pile.id), Some(&admin)).await;
    assert_typed(&doc, "charger_reservations", &reservations);
    let reservation = reservations.data()["list"][0]["id"].clone();
    assert_typed(&doc, "charger_cancel_reservation", &post(&ctx, "/charger/cancelReservation", Some(&admin), json!({"reservationId": reservation})).await);

    let password = post(&ctx, "/pile/setPassword", Some(&admin), json!({"id": p})).await;
    assert_eq!(password.code(), 200, "{}", password.body);
    let log = get(&ctx, &format!("/pile/messageLog?pileId={}", pile.id), Some(&admin)).await;
    assert_eq!(log.code(), 200, "{}", log.body);
    assert_typed(&doc, "pile_message_log", &log);
    // The filter lists what the server sends as well as what chargers send; the title reads the pile's code.
    let actions: Vec<&str> = log.data()["actions"].as_array().expect("the first page lists the actions").iter().filter_map(|a| a.as_str()).collect();
    for a in ["ReserveNow", "CancelReservation", "SendLocalList", "SetChargingProfile", "GetCompositeSchedule", "UpdateFirmware", "GetDiagnostics", "StartTransaction"] {
        assert!(actions.contains(&a), "{a} in {actions:?}");
    }
    assert_eq!(log.data()["pileCode"], json!(pile.code));

    // A refused operation names its field in data.fields, in both languages, for the dialog.
    for (path, body, field) in [
        ("/charger/remoteStart", json!({"pileId": p, "connectorId": 1, "idTag": tag, "limitW": -5}), "limitW"),
        ("/charger/remoteStart", json!({"pileId": p, "connectorId": 1, "idTag": tag, "limitW": "lots"}), "limitW"),
        ("/charger/updateFirmware", json!({"pileId": p, "location": "file:///etc/passwd"}), "location"),
        ("/charger/reserveNow", json!({"pileId": p, "connectorId": 9, "idTag": tag, "expiresAt": ctx.now() + 3600}), "connectorId"),
        // What only a 2.0.1 station takes: an EVSE to reset, a connector type to reserve.
        ("/charger/reset", json!({"pileId": p, "type": "Soft", "evseId": 1}), "evseId"),
        ("/charger/reserveNow", json!({"pileId": p, "connectorId": 1, "connectorType": "cType2", "idTag": tag, "expiresAt": ctx.now() + 3600}), "connectorType"),
        ("/charger/setNetworkProfile", json!({"pileId": p, "configurationSlot": 1, "connectionData": {"ocppVersion": "OCPP20", "ocppTransport": "JSON", "ocppCsmsUrl": "wss://csms.example.com/ocpp", "messageTimeout": 30, "securityProfile": 2, "ocppInterface": "Wired0"}}), "pileId"),
    ] {
        let a = post(&ctx, path, Some(&admin), body).await;
        assert_eq!(a.code(), 400, "{}", a.body);
        let named = &a.data()["fields"][0];
        assert_eq!(named["field"], field, "{}", a.body);
        assert!(named["en"].as_str().is_some_and(|t| !t.is_empty()) && named["zh"].as_str().is_some_and(|t| !t.is_empty()), "{}", a.body);
    }
}

/// The settings, shell and demo answers match their declared types too
/// (the charging ones above; reads are also fuzzed against the document).
#[tokio::test]
async fn settings_shell_and_demo_answers_match_their_types() {
    let ctx = product().await;
    let doc = document();
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    for (function, path) in [
        ("user_management_list", "/userManagement/getList"),
        ("role_management_list", "/roleManagement/getList"),
        ("department_management_list", "/departmentManagement/getList"),
        ("menu_management_list", "/menuManagement/getList"),
        ("router_list", "/router/getList"),
        ("area_list", "/area/getList"),
        ("demo_table_list", "/table/getList"),
        ("demo_goods_list", "/goods/getList"),
        ("demo_description_list", "/description/getList"),
        ("demo_remix_icon_list", "/remixIcon/getList"),
        ("demo_workflow_get", "/workflow/getList"),
    ] {
        assert_typed(&doc, function, &get(&ctx, path, Some(&admin)).await);
    }
    let user = post(&ctx, "/userManagement/doEdit", Some(&admin), json!({"username": "type.check", "email": "t@example.com", "roles": ["Editor"], "password": "secret-lantern-123"})).await;
    assert_typed(&doc, "user_management_edit", &user);
    let role = post(&ctx, "/roleManagement/doEdit", Some(&admin), json!({"role": "Finance", "permissions": ["read:system", "approve:refund"]})).await;
    assert_typed(&doc, "role_management_edit", &role);
    let parent = post(&ctx, "/departmentManagement/doEdit", Some(&admin), json!({"parentId": "", "name": "Operations"})).await;
    assert_typed(&doc, "department_management_edit", &parent);
    let child = post(&ctx, "/departmentManagement/doEdit", Some(&admin), json!({"parentId": parent.data()["id"], "name": "Night shift"})).await;
    assert_typed(&doc, "department_management_edit", &child);
    // The tree is recursive: a child is checked against the same node type.
    let tree = get(&ctx, "/departmentManagement/getList", Some(&admin)).await;
    assert_typed(&doc, "department_management_list", &tree);
    assert!(tree.data().to_string().contains("Night shift"));
    let menus = get(&ctx, "/menuManagement/getList", Some(&admin)).await;
    let node = json!({"path": "orderindex", "name": "OrderIndex", "component": "order/orderindex", "meta": {"title": "充电订单", "icon": "file-list-line"}});
    let edited = post(&ctx, "/menuManagement/doEdit", Some(&admin), json!({"originalName": "OrderIndex", "parentName": "Order", "node": node, "version": menus.data()["version"]})).await;
    assert_typed(&doc, "menu_management_edit", &edited);
    assert_typed(&doc, "update_profile", &post(&ctx, "/user/updateProfile", Some(&editor), json!({"email": "editor@example.com", "avatar": ""})).await);
    let graph = get(&ctx, "/workflow/getList", Some(&admin)).await;
    assert_typed(&doc, "demo_workflow_edit", &post(&ctx, "/workflow/doEdit", Some(&admin), graph.data().clone()).await);
    // Answers without data declare null, and are null.
    assert_typed(&doc, "demo_table_edit", &post(&ctx, "/table/doEdit", Some(&admin), json!({"title": "x"})).await);
    assert_typed(&doc, "role_management_delete", &post(&ctx, "/roleManagement/doDelete", Some(&admin), json!({"role": "Finance"})).await);
    assert_typed(&doc, "logout", &get(&ctx, "/login/logout", Some(&editor)).await);
}
