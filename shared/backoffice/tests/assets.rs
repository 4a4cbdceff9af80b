//! Stations, tariffs, piles and connectors through the real dispatch on an
//! in-memory SQLite store seeded with the demo assets (20 stations).

mod common;

use common::*;
use serde_json::{json, Value};

/// A Nanning (Guangxi) station: no demo station is in Guangxi, so region
/// filters on 450000 see only what a test created.
fn station(code: &str, name: &str) -> Value {
    json!({
        "code": code, "name": name, "operator": "测试运营商",
        "provinceCode": "450000", "cityCode": "450100", "districtCode": "450102",
        "address": "南宁市兴宁区民族大道1号", "lat": 22.817, "lng": 108.366,
        "openingHours": "06:00-23:00", "status": "operating",
        "servicePhone": "0771-12345678", "parkingInfo": "充电免费停车2小时", "tariffId": "tt-gd"
    })
}

fn with(mut v: Value, field: &str, value: Value) -> Value {
    v[field] = value;
    v
}

fn pile(station_id: &str, code: &str) -> Value {
    json!({
        "stationId": station_id, "code": code, "vendor": "特来电", "model": "TGOOD-DC120-2G",
        "firmwareVersion": "V3.1.0", "pileType": "dc", "ratedPowerKw": 120, "heartbeatIntervalSecs": 30,
        "connectors": [
            {"standard": "gbt2015", "maxPowerKw": 120},
            {"standard": "ccs2", "maxPowerKw": 60, "qrCode": "https://qr.example/x"}
        ]
    })
}

fn tariff(name: &str) -> Value {
    json!({
        "name": name,
        "segments": [
            {"start": "00:00", "end": "08:00", "tier": "valley"},
            {"start": "08:00", "end": "18:00", "tier": "flat"},
            {"start": "18:00", "end": "22:00", "tier": "peak"},
            {"start": "22:00", "end": "24:00", "tier": "valley"}
        ],
        "prices": {
            "peak": {"electricity": 10653, "service": 8000},
            "flat": {"electricity": 6726, "service": 6000},
            "valley": {"electricity": 3126, "service": 4000}
        }
    })
}

async fn total(ctx: &backoffice::AppCtx, token: &str, query: &str) -> u64 {
    let a = get(ctx, &format!("/station/getList?{query}"), Some(token)).await;
    assert_eq!(a.code(), 200, "{:?}", a.body);
    a.data()["total"].as_u64().expect("total")
}

/// A user holding only the Test role (read only).
async fn reader(ctx: &backoffice::AppCtx) -> String {
    let hash = auth::password::hash_password("reader-pass-1").unwrap();
    let user = backoffice::domain::users::User::new("reader", hash, vec!["Test".into()], ctx.now());
    backoffice::domain::users::create(ctx, &user).await.unwrap();
    login(ctx, "reader", "reader-pass-1").await
}

#[tokio::test]
async fn region_tree_has_real_codes() {
    let ctx = product().await;
    let token = reader(&ctx).await;
    let a = get(&ctx, "/area/getList", Some(&token)).await;
    assert_eq!(a.code(), 200);
    let list = a.data()["list"].as_array().unwrap();
    assert_eq!(list.len(), 31);
    let gd = list.iter().find(|p| p["code"] == "440000").unwrap();
    assert_eq!(gd["name"], "广东省");
    assert!(gd["children"].as_array().unwrap().iter().any(|c| c["code"] == "440300" && c["name"] == "深圳市"));
}

#[tokio::test]
async fn seeded_stations_list_with_filters_and_paging() {
    let ctx = product().await;
    let token = login(&ctx, "admin", ADMIN_PW).await;
    assert_eq!(total(&ctx, &token, "").await, 20);
    assert_eq!(total(&ctx, &token, "status=suspended").await, 1);
    assert_eq!(total(&ctx, &token, "regionCode=440300").await, 4, "Shenzhen");
    assert_eq!(total(&ctx, &token, "regionCode=440000").await, 8, "Guangdong");
    assert_eq!(total(&ctx, &token, "regionCode=440305").await, 1, "Nanshan district");
    assert_eq!(total(&ctx, &token, "regionCode=440000&status=suspended").await, 1);
    assert_eq!(total(&ctx, &token, "regionCode=310000&status=suspended").await, 0);
    let a = get(&ctx, "/station/getList?name=%E6%B7%B1%E5%9C%B3%E6%B9%BE", Some(&token)).await; // 深圳湾
    assert_eq!(a.data()["total"], 1);
    assert_eq!(a.data()["list"][0]["name"], "深圳湾科技生态园充电站");
    assert_eq!(a.data()["list"][0]["regionName"], "广东省 深圳市 南山区");
    assert!(a.data()["list"][0]["pileCount"].as_i64().unwrap() >= 4);
    assert!(a.data()["list"][0]["tariffName"].as_str().unwrap().contains("广东"));
    // Pages are disjoint and cover the list.
    let mut seen = std::collections::HashSet::new();
    for page in 1..=4 {
        let a = get(&ctx, &format!("/station/getList?pageNo={page}&pageSize=6"), Some(&token)).await;
        assert_eq!(a.data()["total"], 20);
        for s in a.data()["list"].as_array().unwrap() {
            assert!(seen.insert(s["id"].as_str().unwrap().to_string()), "a station on two pages");
        }
    }
    assert_eq!(seen.len(), 20);
    // Bad filters are 400s that say what is wrong.
    let bad = get(&ctx, "/station/getList?status=open", Some(&token)).await;
    assert_eq!(bad.status, 400);
    assert!(bad.msg().contains("status must be one of planning, operating"), "{}", bad.msg());
    let bad = get(&ctx, "/station/getList?regionCode=999999", Some(&token)).await;
    assert!(bad.status == 400 && bad.msg().contains("999999"), "{}", bad.msg());
    let bad = get(&ctx, "/station/getList?pageSize=0", Some(&token)).await;
    assert_eq!(bad.status, 400);
}

#[tokio::test]
async fn create_edit_delete_a_station() {
    let ctx = product().await;
    let token = login(&ctx, "admin", ADMIN_PW).await;
    let a = post(&ctx, "/station/doAdd", Some(&token), station("NN001", "南宁民族大道充电站")).await;
    assert_eq!(a.code(), 200, "{:?}", a.body);
    let id = a.data()["id"].as_str().unwrap().to_string();
    assert_eq!(a.data()["version"], 1);
    assert_eq!(a.data()["regionName"], "广西壮族自治区 南宁市 兴宁区");
    assert_eq!(total(&ctx, &token, "").await, 21);
    assert_eq!(total(&ctx, &token, "regionCode=450100&status=operating").await, 1);
    assert_eq!(total(&ctx, &token, "name=%20%E5%8D%97%E5%AE%81").await, 1, "name prefix 南宁, spaces ignored");

    // Edit: disable (suspend) and rename; the filters follow.
    let edit = with(with(with(station("NN001", "南宁 朝阳充电站"), "id", json!(id)), "version", json!(1)), "status", json!("suspended"));
    let a = post(&ctx, "/station/doEdit", Some(&token), edit.clone()).await;
    assert_eq!(a.code(), 200, "{:?}", a.body);
    assert_eq!(a.data()["version"], 2);
    assert_eq!(total(&ctx, &token, "regionCode=450000&status=operating").await, 0);
    assert_eq!(total(&ctx, &token, "regionCode=450000&status=suspended").await, 1);
    assert_eq!(total(&ctx, &token, "name=%E5%8D%97%E5%AE%81%E6%B0%91").await, 0, "old name is gone from the index");
    assert_eq!(total(&ctx, &token, "name=%E5%8D%97%E5%AE%81%E6%9C%9D").await, 1);
    // The same edit again was made on version 1: somebody else saved since.
    let stale = post(&ctx, "/station/doEdit", Some(&token), edit).await;
    assert_eq!(stale.status, 409);

    let detail = get(&ctx, &format!("/station/getDetail?id={id}"), Some(&token)).await;
    assert_eq!(detail.data()["station"]["status"], "suspended");
    assert_eq!(detail.data()["tariff"]["template"]["id"], "tt-gd");
    assert_eq!(detail.data()["piles"], json!([]));

    let del = post(&ctx, "/station/doDelete", Some(&token), json!({"id": id})).await;
    assert_eq!(del.code(), 200, "{:?}", del.body);
    assert_eq!(total(&ctx, &token, "").await, 20);
    assert_eq!(total(&ctx, &token, "regionCode=450000").await, 0);
    assert_eq!(get(&ctx, &format!("/station/getDetail?id={id}"), Some(&token)).await.status, 404);
    // The code is free again.
    assert_eq!(post(&ctx, "/station/doAdd", Some(&token), station("NN001", "南宁二号站")).await.code(), 200);
}

#[tokio::test]
async fn bad_station_input_is_a_clear_400_and_writes_nothing() {
    let ctx = product().await;
    let token = login(&ctx, "admin", ADMIN_PW).await;
    let cases = [
        (with(station("NN1", ""), "name", json!("  ")), "Name is required"),
        (with(station("NN1", "x"), "lat", json!(95.5)), "Latitude must be between -90 and 90"),
        (with(station("NN1", "x"), "lng", json!(-200)), "Longitude must be between -180 and 180"),
        (with(station("NN1", "x"), "lat", json!("north")), "invalid request body"),
        (with(station("NN1", "x"), "openingHours", json!("25:00-26:00")), "Opening hours: \"25:00-26:00\" is not a period HH:MM-HH:MM"),
        (with(station("NN1", "x"), "openingHours", json!("08:00-08:00")), "starts and ends at the same time"),
        (with(station("NN1", "x"), "openingHours", json!("22:00-02:00,01:00-06:00")), "the periods 01:00-06:00 and 22:00-02:00 overlap"),
        (with(station("NN1", "x"), "openingHours", json!("")), "Opening hours are required"),
        (with(station("NN1", "x"), "cityCode", json!("440300")), "is not in province"),
        (with(station("NN1", "x"), "districtCode", json!(null)), "a district is required"),
        (with(station("NN1", "x"), "status", json!("open")), "status must be one of planning, operating, suspended, closed (got \"open\")"),
        (with(station("NN1", "x"), "servicePhone", json!("12345")), "Service phone"),
        (with(station("NN1", "x"), "tariffId", json!("tt-nope")), "Tariff template tt-nope does not exist"),
        (with(station("N N", "x"), "code", json!("N N")), "Code must be"),
        (station("ST0001", "duplicate code"), "Station code ST0001 is already used"),
    ];
    for (body, expected) in cases {
        let a = post(&ctx, "/station/doAdd", Some(&token), body.clone()).await;
        assert_eq!(a.status, 400, "{body}: {:?}", a.body);
        assert!(a.msg().contains(expected), "expected '{expected}' in '{}'", a.msg());
    }
    // Several problems are reported together.
    let a = post(&ctx, "/station/doAdd", Some(&token), with(with(station("NN1", ""), "lat", json!(100)), "name", json!(""))).await;
    assert!(a.msg().contains("Name is required") && a.msg().contains("Latitude"), "{}", a.msg());
    // ... and named in `data`, field by field, so a form can mark each (the message is unchanged).
    assert_eq!(a.data()["field"], "name", "{:?}", a.body);
    let fields: Vec<&str> = a.data()["fields"].as_array().unwrap().iter().map(|f| f["field"].as_str().unwrap()).collect();
    assert_eq!(fields, ["name", "lat"], "{:?}", a.body);
    assert_eq!(a.data()["fields"][1]["en"], "Latitude must be between -90 and 90");
    assert_eq!(a.data()["fields"][1]["zh"], "纬度必须在-90到90之间");
    // Chinese callers read Chinese.
    let mut req = backoffice::ApiRequest::new(http::Method::POST, "/station/doAdd");
    req.headers.insert("authorization", format!("Bearer {token}").parse().unwrap());
    req.headers.insert("accept-language", "zh-CN".parse().unwrap());
    req.headers.insert("content-type", "application/json".parse().unwrap());
    req.body = serde_json::to_vec(&with(station("NN1", "x"), "lat", json!(91))).unwrap().into();
    let resp = common::dispatch(&ctx, backoffice::routes::find(&http::Method::POST, "/station/doAdd").unwrap(), req).await;
    let body: Value = serde_json::from_slice(resp.body()).unwrap();
    assert!(body["msg"].as_str().unwrap().contains("纬度"), "{body}");
    assert_eq!(total(&ctx, &token, "").await, 20, "nothing was written");
    assert_eq!(total(&ctx, &token, "regionCode=450000").await, 0);
}

/// A station open past midnight, or in several periods a
/// day, can be entered; what was stored before (one period) still reads.
#[tokio::test]
async fn opening_hours_cross_midnight_and_come_in_several_periods() {
    let ctx = product().await;
    let token = login(&ctx, "admin", ADMIN_PW).await;
    let a = post(&ctx, "/station/doAdd", Some(&token), with(station("NIGHT1", "夜间站"), "openingHours", json!("23:00-06:00"))).await;
    assert_eq!(a.code(), 200, "{:?}", a.body);
    assert_eq!(a.data()["openingHours"], "23:00-06:00");
    let id = a.data()["id"].as_str().unwrap().to_string();
    // Several periods, written loosely, are stored sorted and comma-joined.
    let mut edit = with(station("NIGHT1", "夜间站"), "openingHours", json!(" 22:00-02:00 ，07:00 - 12:00"));
    edit["id"] = json!(id);
    edit["version"] = json!(1);
    let e = post(&ctx, "/station/doEdit", Some(&token), edit).await;
    assert_eq!(e.code(), 200, "{:?}", e.body);
    let detail = get(&ctx, &format!("/station/getDetail?id={id}"), Some(&token)).await;
    assert_eq!(detail.data()["station"]["openingHours"], "07:00-12:00,22:00-02:00");
    let list = get(&ctx, "/station/getList?regionCode=450000", Some(&token)).await;
    assert_eq!(list.data()["list"][0]["openingHours"], "07:00-12:00,22:00-02:00");
    // The demo stations' stored one-period hours read and save unchanged.
    let demo = get(&ctx, "/station/getDetail?id=st-0001", Some(&token)).await;
    let hours = demo.data()["station"]["openingHours"].as_str().unwrap().to_string();
    assert!(hours == "06:00-23:00" || hours == "00:00-24:00", "{hours}");
    // A bad edit names the period and changes nothing.
    let mut bad = with(station("NIGHT1", "夜间站"), "openingHours", json!("22:00-02:00,01:00-05:00"));
    bad["id"] = json!(id);
    bad["version"] = json!(2);
    let b = post(&ctx, "/station/doEdit", Some(&token), bad).await;
    assert_eq!(b.status, 400);
    assert!(b.msg().contains("01:00-05:00 and 22:00-02:00 overlap"), "{}", b.msg());
    let after = get(&ctx, &format!("/station/getDetail?id={id}"), Some(&token)).await;
    assert_eq!(after.data()["station"]["openingHours"], "07:00-12:00,22:00-02:00");
    assert_eq!(after.data()["station"]["version"], 2);
}

#[tokio::test]
async fn roles_are_enforced_on_station_writes() {
    let ctx = product().await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let a = post(&ctx, "/station/doAdd", Some(&editor), station("ED1", "编辑创建的站")).await;
    assert_eq!(a.code(), 200, "editors may create");
    let id = a.data()["id"].as_str().unwrap().to_string();
    let del = post(&ctx, "/station/doDelete", Some(&editor), json!({"id": id})).await;
    assert_eq!(del.status, 403, "editors may not delete");
    let reader = reader(&ctx).await;
    assert_eq!(get(&ctx, "/station/getList", Some(&reader)).await.code(), 200);
    assert_eq!(post(&ctx, "/station/doAdd", Some(&reader), station("RD1", "只读")).await.status, 403);
    assert_eq!(post(&ctx, "/pile/doAdd", Some(&reader), pile(&id, "RDPILE")).await.status, 403);
    assert_eq!(post(&ctx, "/tariff/doAdd", Some(&reader), tariff("只读")).await.status, 403);
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    assert_eq!(total(&ctx, &admin, "regionCode=450000").await, 1, "refused writes wrote nothing");
}

#[tokio::test]
async fn a_station_with_piles_cannot_be_deleted() {
    let ctx = product().await;
    let token = login(&ctx, "admin", ADMIN_PW).await;
    let id = post(&ctx, "/station/doAdd", Some(&token), station("NN9", "有桩的站")).await.data()["id"].as_str().unwrap().to_string();
    let p = post(&ctx, "/pile/doAdd", Some(&token), pile(&id, "TGOODDC9001")).await;
    assert_eq!(p.code(), 200, "{:?}", p.body);
    let del = post(&ctx, "/station/doDelete", Some(&token), json!({"id": id})).await;
    assert_eq!(del.status, 400);
    assert!(del.msg().contains("still has 1 pile"), "{}", del.msg());
    assert_eq!(total(&ctx, &token, "regionCode=450000").await, 1);
    // Seeded stations too.
    let del = post(&ctx, "/station/doDelete", Some(&token), json!({"id": "st-0001"})).await;
    assert_eq!(del.status, 400);
    // Without the pile it goes.
    let pile_id = p.data()["id"].as_str().unwrap();
    assert_eq!(post(&ctx, "/pile/doDelete", Some(&token), json!({"id": pile_id})).await.code(), 200);
    let s = get(&ctx, &format!("/station/getDetail?id={id}"), Some(&token)).await;
    assert_eq!((s.data()["station"]["pileCount"].as_i64(), s.data()["station"]["connectorCount"].as_i64()), (Some(0), Some(0)));
    assert_eq!(post(&ctx, "/station/doDelete", Some(&token), json!({"id": id})).await.code(), 200);
}

#[tokio::test]
async fn tariffs_are_validated_and_versioned() {
    let ctx = product().await;
    let token = login(&ctx, "admin", ADMIN_PW).await;
    let before = get(&ctx, "/tariff/getList", Some(&token)).await.data()["total"].as_u64().unwrap();
    assert_eq!(before, 3, "the demo templates");

    let mut gap = tariff("缺口");
    gap["segments"][1]["start"] = json!("09:00");
    let mut no_price = tariff("缺价");
    no_price["prices"]["peak"] = Value::Null;
    let mut too_high = tariff("过高");
    too_high["prices"]["flat"]["service"] = json!(100_001);
    let mut negative = tariff("负数");
    negative["prices"]["valley"]["electricity"] = json!(-1);
    let mut odd = tariff("半点");
    odd["segments"][0]["end"] = json!("08:15");
    let mut short = tariff("不足");
    short["segments"].as_array_mut().unwrap().pop();
    for (body, expected) in [
        (gap, "Gap: 08:00-09:00"),
        (no_price, "Tier peak is used by the schedule but has no price"),
        (too_high, "must be at most 10.0000 yuan/kWh"),
        (negative, "must not be negative"),
        (odd, "half-hour"),
        (short, "22:00-24:00"),
        (with(tariff(""), "name", json!("")), "Name is required"),
        (json!({"name": "x"}), "is required"),
    ] {
        let a = post(&ctx, "/tariff/doAdd", Some(&token), body.clone()).await;
        assert_eq!(a.status, 400, "{body}");
        assert!(a.msg().contains(expected), "expected '{expected}' in '{}'", a.msg());
    }
    assert_eq!(get(&ctx, "/tariff/getList", Some(&token)).await.data()["total"], 3, "nothing written");

    let a = post(&ctx, "/tariff/doAdd", Some(&token), tariff("南宁分时")).await;
    assert_eq!(a.code(), 200, "{:?}", a.body);
    let id = a.data()["template"]["id"].as_str().unwrap().to_string();
    assert_eq!(a.data()["template"]["version"], 1);
    let mut change = with(with(with(tariff("南宁分时"), "id", json!(id)), "version", json!(1)), "apply", json!("allStations"));
    change["prices"]["peak"]["electricity"] = json!(11000);
    let a = post(&ctx, "/tariff/doEdit", Some(&token), change.clone()).await;
    assert_eq!(a.code(), 200, "{:?}", a.body);
    assert_eq!(a.data()["template"]["version"], 2);
    // A second edit on version 1 lost the race.
    assert_eq!(post(&ctx, "/tariff/doEdit", Some(&token), change).await.status, 409);
    // Old versions stay readable, with their own prices.
    let v1 = get(&ctx, &format!("/tariff/getDetail?id={id}&version=1"), Some(&token)).await;
    assert_eq!(v1.data()["template"]["prices"]["peak"]["electricity"], 10653);
    assert_eq!(v1.data()["slots"].as_array().unwrap().len(), 48);
    let cur = get(&ctx, &format!("/tariff/getDetail?id={id}"), Some(&token)).await;
    assert_eq!(cur.data()["template"]["prices"]["peak"]["electricity"], 11000);
    let versions = get(&ctx, &format!("/tariff/getVersions?id={id}"), Some(&token)).await;
    let nums: Vec<i64> = versions.data()["list"].as_array().unwrap().iter().map(|v| v["version"].as_i64().unwrap()).collect();
    assert_eq!(nums, [2, 1]);
    assert_eq!(get(&ctx, &format!("/tariff/getDetail?id={id}&version=9"), Some(&token)).await.status, 404);
    assert_eq!(get(&ctx, &format!("/tariff/getDetail?id={id}&version=x"), Some(&token)).await.status, 400);
    // A station can use it.
    let s = post(&ctx, "/station/doAdd", Some(&token), with(station("NN5", "新资费站"), "tariffId", json!(id))).await;
    assert_eq!(s.code(), 200);
}

#[tokio::test]
async fn piles_and_connectors_register_list_and_act() {
    let ctx = product().await;
    let token = login(&ctx, "admin", ADMIN_PW).await;
    let sid = post(&ctx, "/station/doAdd", Some(&token), station("NN7", "桩测试站")).await.data()["id"].as_str().unwrap().to_string();

    // Bad registrations: nothing written.
    let mut no_conn = pile(&sid, "P1");
    no_conn["connectors"] = json!([]);
    let mut too_strong = pile(&sid, "P1");
    too_strong["connectors"][1]["maxPowerKw"] = json!(150);
    let mut no_type = pile(&sid, "P1");
    no_type["pileType"] = Value::Null;
    for (body, expected) in [
        (no_conn, "A pile has 1-4 connectors"),
        (too_strong, "Connector 2: max power 150 kW exceeds the pile's rated 120 kW"),
        (no_type, "Type is required"),
        (with(pile(&sid, "P1"), "heartbeatIntervalSecs", json!(1)), "Heartbeat interval"),
        (with(pile(&sid, "P1"), "pileType", json!("hvdc")), "pileType must be one of ac, dc"),
        (pile("st-nope", "P1"), "station st-nope does not exist"),
    ] {
        let a = post(&ctx, "/pile/doAdd", Some(&token), body.clone()).await;
        assert!(matches!(a.status, 400 | 404), "{body}: {:?}", a.body);
        assert!(a.msg().contains(expected), "expected '{expected}' in '{}'", a.msg());
    }
    let seeded = get(&ctx, "/pile/getList?stationId=st-0001", Some(&token)).await;
    let taken = seeded.data()["list"][0]["code"].as_str().unwrap().to_string();
    let a = post(&ctx, "/pile/doAdd", Some(&token), pile(&sid, &taken)).await;
    assert!(a.status == 400 && a.msg().contains("already registered"), "{}", a.msg());
    let detail = get(&ctx, &format!("/station/getDetail?id={sid}"), Some(&token)).await;
    assert_eq!(detail.data()["station"]["pileCount"], 0);

    let p = post(&ctx, "/pile/doAdd", Some(&token), pile(&sid, "NNDC0001")).await;
    assert_eq!(p.code(), 200, "{:?}", p.body);
    let pile_id = p.data()["id"].as_str().unwrap().to_string();
    let detail = get(&ctx, &format!("/station/getDetail?id={sid}"), Some(&token)).await;
    assert_eq!((detail.data()["station"]["pileCount"].as_i64(), detail.data()["station"]["connectorCount"].as_i64()), (Some(1), Some(2)));
    let piles = detail.data()["piles"].as_array().unwrap();
    assert_eq!(piles.len(), 1);
    assert_eq!(piles[0]["online"], false, "no heartbeat yet");
    let conns = piles[0]["connectors"].as_array().unwrap();
    assert_eq!(conns.len(), 2);
    assert_eq!(conns[1]["standard"], "ccs2");
    assert_eq!(conns[0]["effectiveStatus"], "offline");
    assert_eq!(conns[0]["status"], "available");

    // Connector list filters.
    let list = |q: String| {
        let ctx = ctx.clone();
        let token = token.clone();
        async move { get(&ctx, &format!("/connector/getList?{q}"), Some(&token)).await }
    };
    let a = list(format!("stationId={sid}")).await;
    assert_eq!(a.data()["total"], 2);
    assert_eq!(a.data()["list"][0]["stationName"], "桩测试站");
    assert_eq!(list(format!("stationId={sid}&pileType=ac")).await.data()["total"], 0);
    assert_eq!(list(format!("stationId={sid}&pileType=dc&status=available")).await.data()["total"], 2);
    let all = list(String::new()).await.data()["total"].as_u64().unwrap();
    assert!(all > 100, "demo connectors are listed too: {all}");
    assert_eq!(list("status=charging-ish".into()).await.status, 400);

    // Out of service by hand: the stored status changes; a charger that is
    // not connected is sent nothing, and the answer says so.
    let cid = format!("{pile_id}-c1");
    for remote in ["remoteStart", "remoteStop", "reset", "unlock"] {
        let a = post(&ctx, "/connector/doAction", Some(&token), json!({"id": cid, "action": remote})).await;
        assert_eq!(a.status, 400, "{remote} is a remote operation (the /charger routes), not a stored status");
        assert!(a.msg().contains("disable") && a.msg().contains("enable"), "{}", a.msg());
    }
    let a = post(&ctx, "/connector/doAction", Some(&token), json!({"id": cid, "action": "disable"})).await;
    assert_eq!(a.code(), 200, "{:?}", a.body);
    assert!(a.msg().contains("not connected"), "{}", a.msg());
    assert_eq!(a.data()["connector"]["status"], "unavailable");
    assert_eq!(a.data()["command"], Value::Null);
    assert_eq!(list(format!("stationId={sid}&status=unavailable")).await.data()["total"], 1);
    assert_eq!(list(format!("stationId={sid}&status=available")).await.data()["total"], 1);
    let bad = post(&ctx, "/connector/doAction", Some(&token), json!({"id": cid, "action": "explode"})).await;
    assert_eq!(bad.status, 400);
    let bad = post(&ctx, "/connector/doAction", Some(&token), json!({"id": cid, "action": "disable"})).await;
    assert!(bad.status == 400 && bad.msg().contains("not allowed"), "{}", bad.msg());
    let hist = get(&ctx, &format!("/connector/getHistory?id={cid}"), Some(&token)).await;
    let events: Vec<&str> = hist.data()["list"].as_array().unwrap().iter().map(|h| h["event"].as_str().unwrap()).collect();
    assert_eq!(events, ["disable", "registered"]);
    assert_eq!(hist.data()["list"][0]["from"], "available");
    assert_eq!(hist.data()["list"][0]["by"], "admin");

    // Edits: version checked.
    let edit = json!({"id": cid, "version": 2, "standard": "gbt2015", "maxPowerKw": 100, "qrCode": ""});
    assert_eq!(post(&ctx, "/connector/doEdit", Some(&token), edit.clone()).await.code(), 200);
    assert_eq!(post(&ctx, "/connector/doEdit", Some(&token), edit).await.status, 409);
    let over = json!({"id": cid, "version": 3, "standard": "gbt2015", "maxPowerKw": 200});
    assert_eq!(post(&ctx, "/connector/doEdit", Some(&token), over).await.status, 400);
    let pedit = with(with(pile(&sid, "NNDC0001"), "id", json!(pile_id)), "version", json!(1));
    let pedit = with(pedit, "model", json!("TGOOD-DC120-2G-B"));
    assert_eq!(post(&ctx, "/pile/doEdit", Some(&token), pedit.clone()).await.code(), 200);
    assert_eq!(post(&ctx, "/pile/doEdit", Some(&token), pedit.clone()).await.status, 409);
    let retype = with(with(pedit, "version", json!(2)), "pileType", json!("ac"));
    let a = post(&ctx, "/pile/doEdit", Some(&token), retype).await;
    assert!(a.status == 400 && a.msg().contains("type of a registered pile"), "{}", a.msg());

    // Editors may not delete piles.
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    assert_eq!(post(&ctx, "/pile/doDelete", Some(&editor), json!({"id": pile_id})).await.status, 403);
}

#[tokio::test]
async fn online_follows_the_heartbeat_window() {
    let ctx = product().await;
    // The window's edges are checked to the second: real time must not pass.
    ctx.clock.freeze();
    let token = login(&ctx, "admin", ADMIN_PW).await;
    let sid = post(&ctx, "/station/doAdd", Some(&token), station("NN8", "心跳站")).await.data()["id"].as_str().unwrap().to_string();
    let pile_id = post(&ctx, "/pile/doAdd", Some(&token), pile(&sid, "HB0001")).await.data()["id"].as_str().unwrap().to_string();
    // The charger reports (no charger link yet: written as the link would).
    let key = backoffice::domain::assets::piles::pile_key(&pile_id);
    ctx.store.update(&key, vec![store::UpdateAction::Set("lastHeartbeat".into(), json!(ctx.now()))], None).await.unwrap();
    // Tokens live 60 s in tests, so each look signs in afresh.
    let online = |ctx: std::sync::Arc<backoffice::AppCtx>, _token: String, sid: String| async move {
        let token = login(&ctx, "admin", ADMIN_PW).await;
        let d = get(&ctx, &format!("/pile/getList?stationId={sid}"), Some(&token)).await;
        (d.data()["list"][0]["online"].as_bool().unwrap(), d.data()["list"][0]["connectors"][0]["effectiveStatus"].as_str().unwrap().to_string())
    };
    assert_eq!(online(ctx.clone(), token.clone(), sid.clone()).await, (true, "available".into()));
    // 3 x 30 s interval: still online at 90 s, offline after.
    ctx.clock.advance(90);
    assert_eq!(online(ctx.clone(), token.clone(), sid.clone()).await.0, true);
    ctx.clock.advance(1);
    assert_eq!(online(ctx.clone(), token.clone(), sid.clone()).await, (false, "offline".into()));
    // A longer configured interval widens the window.
    let token = login(&ctx, "admin", ADMIN_PW).await;
    let edit = with(with(with(pile(&sid, "HB0001"), "id", json!(pile_id)), "version", json!(1)), "heartbeatIntervalSecs", json!(60));
    assert_eq!(post(&ctx, "/pile/doEdit", Some(&token), edit).await.code(), 200);
    assert_eq!(online(ctx.clone(), token.clone(), sid.clone()).await.0, true);
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

/// What a connector row offers reaches the charger: out of service by
/// hand sends ChangeAvailability to a connected charger (and back in
/// service Operative), and a remote stop names the connector, the server
/// finding its running transaction.
#[tokio::test]
async fn connector_row_actions_reach_a_connected_charger() {
    use backoffice::domain::assets::piles;
    use backoffice::domain::chargers::{link, sessions};
    let ctx = product().await;
    let token = login(&ctx, "admin", ADMIN_PW).await;
    let sid = post(&ctx, "/station/doAdd", Some(&token), station("NN9", "远程操作站")).await.data()["id"].as_str().unwrap().to_string();
    let pile_id = post(&ctx, "/pile/doAdd", Some(&token), pile(&sid, "ROWCP001")).await.data()["id"].as_str().unwrap().to_string();
    let socket = std::sync::Arc::new(Socket(Default::default()));
    assert!(ctx.outbound.set(socket.clone()).is_ok());
    let p = piles::get_pile(&ctx, &pile_id).await.unwrap();
    let c = link::Connection { connection_id: "conn-row".into(), pile_id: pile_id.clone(), protocol: "ocpp1.6".into(), connected_at_ms: ctx.now() * 1000, queue_started: true, pending: false, remote_address: String::new(), instance: None, close_requested: false };
    assert!(link::connected(&ctx, &p, &c, "127.0.0.1").await.unwrap());
    let frames = || socket.0.lock().unwrap().iter().map(|f| serde_json::from_str::<Value>(f).unwrap()).collect::<Vec<_>>();

    let cid = format!("{pile_id}-c2");
    let a = post(&ctx, "/connector/doAction", Some(&token), json!({"id": cid, "action": "disable"})).await;
    assert_eq!(a.code(), 200, "{:?}", a.body);
    assert_eq!(a.data()["connector"]["status"], "unavailable");
    assert_eq!(a.data()["command"]["action"], "ChangeAvailability");
    assert_eq!(a.data()["command"]["status"], "sent");
    let sent = frames();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0][2], "ChangeAvailability");
    assert_eq!(sent[0][3], json!({"connectorId": 2, "type": "Inoperative"}));

    // A session runs on connector 1: the row's remote stop names the connector.
    let start = sessions::StartRequest { connector: 1, id_tag: "DEMO0001".into(), meter_start: 1000, timestamp_text: "t".into(), timestamp: Some(ctx.now() - 60), reservation_id: None, charger_transaction_id: None };
    let tx = sessions::start(&ctx, &p, &start).await.unwrap().transaction_id;
    let none = post(&ctx, "/charger/remoteStop", Some(&token), json!({"pileId": pile_id, "connectorId": 2})).await;
    assert_eq!(none.status, 400, "nothing runs on #2");
    assert!(none.msg().contains("connectorId"), "{}", none.msg());
    let stop = post(&ctx, "/charger/remoteStop", Some(&token), json!({"pileId": pile_id, "connectorId": 1})).await;
    assert_eq!(stop.code(), 200, "{:?}", stop.body);
    assert_eq!(stop.data()["action"], "RemoteStopTransaction");
    assert_eq!(stop.data()["payload"], json!({"transactionId": tx}));
    assert_eq!(stop.data()["status"], "queued", "behind the ChangeAvailability still in flight");
}

// Simultaneous station edits from one version (one 200, the rest 409, one
// name indexed, each in the system log) are in tests/concurrency.rs.

// ------------------------------------------------------------ charging cards

fn card(tag: &str, status: &str) -> Value {
    json!({"idTag": tag, "holder": "测试用户", "plate": "京A00001", "status": status, "expiresAt": null, "parentIdTag": null})
}

#[tokio::test]
async fn charging_cards_are_added_found_edited_and_deleted() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let seeded = get(&ctx, "/card/getList?pageNo=1&pageSize=200", Some(&admin)).await;
    let before = seeded.data()["total"].as_u64().unwrap();
    assert!(before >= 22, "the demo cards are listed: {}", seeded.body);

    let added = post(&ctx, "/card/doAdd", Some(&editor), card("TESTCARD01", "Accepted")).await;
    assert_eq!(added.code(), 200, "{}", added.body);
    let again = post(&ctx, "/card/doAdd", Some(&editor), card("testcard01", "Accepted")).await;
    assert_eq!(again.code(), 400, "another letter case is the same card");
    assert!(again.msg().contains("idTag"), "{}", again.msg());
    for (body, field) in [
        (card("", "Accepted"), "idTag"),
        (card("WAY-TOO-LONG-CARD-NUMBER-1", "Accepted"), "idTag"),
        (card("HAS SPACE", "Accepted"), "idTag"),
        (with(card("OKCARD", "Accepted"), "status", Value::Null), "status"),
        (with(card("OKCARD", "Accepted"), "status", json!("Lost")), "status"),
        (with(card("OKCARD", "Accepted"), "parentIdTag", json!("NOSUCHPARENT")), "parentIdTag"),
        (with(card("OKCARD", "Accepted"), "holder", json!("x".repeat(51))), "holder"),
    ] {
        let a = post(&ctx, "/card/doAdd", Some(&admin), body.clone()).await;
        assert_eq!(a.code(), 400, "{body}");
        assert!(a.msg().contains(field), "{field}: {}", a.msg());
    }
    let found = get(&ctx, "/card/getList?keyword=testc&pageNo=1&pageSize=20", Some(&admin)).await;
    assert_eq!(found.data()["total"], 1, "{}", found.body);
    let blocked = get(&ctx, "/card/getList?status=Blocked&pageNo=1&pageSize=200", Some(&admin)).await;
    assert!(blocked.data()["list"].as_array().unwrap().iter().all(|c| c["status"] == "Blocked"));

    let edit = post(&ctx, "/card/doEdit", Some(&editor), with(card("TESTCARD01", "Blocked"), "version", json!(1))).await;
    assert_eq!((edit.code(), edit.data()["status"].as_str()), (200, Some("Blocked")), "{}", edit.body);
    let stale = post(&ctx, "/card/doEdit", Some(&editor), with(card("TESTCARD01", "Accepted"), "version", json!(1))).await;
    assert_eq!(stale.code(), 409);
    let blocked_now = get(&ctx, "/card/getList?status=Blocked&keyword=TESTCARD&pageNo=1&pageSize=20", Some(&admin)).await;
    assert_eq!(blocked_now.data()["total"], 1, "the status list follows the edit");

    assert_eq!(post(&ctx, "/card/doDelete", Some(&editor), json!({"idTag": "TESTCARD01"})).await.code(), 403, "deleting needs delete:system");
    assert_eq!(post(&ctx, "/card/doDelete", Some(&admin), json!({"idTag": "testcard01"})).await.code(), 200);
    let after = get(&ctx, "/card/getList?pageNo=1&pageSize=200", Some(&admin)).await;
    assert_eq!(after.data()["total"].as_u64().unwrap(), before);
}

#[tokio::test]
async fn a_card_import_is_all_or_nothing() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let total = |ctx: std::sync::Arc<backoffice::AppCtx>, admin: String| async move { get(&ctx, "/card/getList?pageNo=1&pageSize=20", Some(&admin)).await.data()["total"].as_u64().unwrap() };
    let before = total(ctx.clone(), admin.clone()).await;
    let bad = post(&ctx, "/card/import", Some(&admin), json!({"rows": [card("IMP1", "Accepted"), card("IMP2", "Lost"), card("IMP3", "Accepted")]})).await;
    assert_eq!(bad.code(), 400);
    assert!(bad.msg().contains("rows[1].status"), "the row and the field: {}", bad.msg());
    let blank = post(&ctx, "/card/import", Some(&admin), json!({"rows": [card("IMP1", "Accepted"), card("", "Accepted")]})).await;
    assert!(blank.code() == 400 && blank.msg().contains("row 2, column idTag"), "{}", blank.msg());
    assert_eq!(total(ctx.clone(), admin.clone()).await, before, "nothing written");
    let dup = post(&ctx, "/card/import", Some(&admin), json!({"rows": [card("IMP1", "Accepted"), card("imp1", "Accepted")]})).await;
    assert_eq!(dup.code(), 400, "{}", dup.body);
    // An import adds cards: a number that exists with other data is a bad row.
    let taken = post(&ctx, "/card/import", Some(&admin), json!({"rows": [card("IMP1", "Accepted"), with(card("IMP2", "Accepted"), "parentIdTag", json!("IMP1")), card("DEMO0001", "Blocked")]})).await;
    assert_eq!(taken.code(), 400, "{}", taken.body);
    assert!(taken.msg().contains("row 3, column idTag: card DEMO0001 exists already"), "{}", taken.msg());
    let ok = post(&ctx, "/card/import", Some(&admin), json!({"rows": [card("IMP1", "Accepted"), with(card("IMP2", "Accepted"), "parentIdTag", json!("IMP1"))]})).await;
    assert_eq!(ok.code(), 200, "{}", ok.body);
    assert_eq!((ok.data()["created"].as_u64(), ok.data()["unchanged"].as_u64()), (Some(2), Some(0)));
    assert_eq!(total(ctx.clone(), admin.clone()).await, before + 2);
}

#[tokio::test]
async fn authorize_answers_from_the_cards() {
    use backoffice::domain::cards::{authorize, CardStatus};
    let ctx = product().await;
    assert_eq!(authorize(&ctx, "NOSUCH").await.unwrap().status, CardStatus::Invalid);
    assert_eq!(authorize(&ctx, "BLOCKED01").await.unwrap().status, CardStatus::Blocked);
    assert_eq!(authorize(&ctx, "EXPIRED01").await.unwrap().status, CardStatus::Expired, "an expiry in the past");
    let child = authorize(&ctx, "fleet01-a").await.unwrap();
    assert_eq!((child.status, child.parent_id_tag.as_deref()), (CardStatus::Accepted, Some("FLEET01")));
}

/// A shared template edited from one station's page: the edit must say
/// whether it reprices every station using it or only this one. Runs on
/// SQLite and, with moto, on DynamoDB.
async fn shared_tariff_edit_says_which_stations(ctx: &backoffice::AppCtx) {
    let token = login(ctx, "admin", ADMIN_PW).await;
    // The demo template with the most stations.
    let mut best: Option<(String, Value)> = None;
    let stations = get(ctx, "/station/getList?pageSize=100", Some(&token)).await;
    for s in stations.data()["list"].as_array().unwrap() {
        let id = s["id"].as_str().unwrap();
        let d = get(ctx, &format!("/station/getDetail?id={id}"), Some(&token)).await;
        let usage = d.data()["tariffUsage"].clone();
        if usage.is_null() {
            continue;
        }
        assert!(usage["stations"].as_array().unwrap().iter().any(|u| u["id"] == id), "a station is among its template's users");
        assert_eq!(usage["total"].as_u64().unwrap() as usize, usage["stations"].as_array().unwrap().len());
        if best.as_ref().is_none_or(|(_, b)| usage["total"].as_u64() > b["tariffUsage"]["total"].as_u64()) {
            best = Some((id.to_string(), d.data().clone()));
        }
    }
    let (sid, detail) = best.expect("a station with a tariff");
    let users: Vec<String> = detail["tariffUsage"]["stations"].as_array().unwrap().iter().map(|u| u["id"].as_str().unwrap().to_string()).collect();
    assert!(users.len() >= 2, "a demo template is shared: {users:?}");
    let tpl = detail["tariff"]["template"].clone();
    let tid = tpl["id"].as_str().unwrap().to_string();
    let v = tpl["version"].as_i64().unwrap();
    let mut change = tpl.clone();
    change["prices"]["flat"]["service"] = json!(7000);

    // Not saying which: refused, naming the field, in both languages; nothing written.
    let a = post(ctx, "/tariff/doEdit", Some(&token), change.clone()).await;
    assert_eq!(a.status, 400, "{:?}", a.body);
    assert!(a.msg().starts_with("apply is required"), "{}", a.msg());
    let mut req = backoffice::ApiRequest::new(http::Method::POST, "/tariff/doEdit");
    req.headers.insert("authorization", format!("Bearer {token}").parse().unwrap());
    req.headers.insert("accept-language", "zh-CN".parse().unwrap());
    req.headers.insert("content-type", "application/json".parse().unwrap());
    req.body = serde_json::to_vec(&change).unwrap().into();
    let resp = common::dispatch(ctx, backoffice::routes::find(&http::Method::POST, "/tariff/doEdit").unwrap(), req).await;
    let body: Value = serde_json::from_slice(resp.body()).unwrap();
    assert!(body["msg"].as_str().unwrap().contains("缺少apply"), "{body}");
    for bad in [json!("everything"), json!(true)] {
        assert_eq!(post(ctx, "/tariff/doEdit", Some(&token), with(change.clone(), "apply", bad)).await.status, 400);
    }
    let a = post(ctx, "/tariff/doEdit", Some(&token), with(change.clone(), "apply", json!("thisStation"))).await;
    assert_eq!(a.status, 400);
    assert!(a.msg().contains("stationId is required"), "{}", a.msg());
    // A station that does not use the template cannot take a copy of it.
    let other = post(ctx, "/station/doAdd", Some(&token), with(station("NN9", "无资费站"), "tariffId", json!(""))).await;
    let other = other.data()["id"].as_str().unwrap().to_string();
    let a = post(ctx, "/tariff/doEdit", Some(&token), with(with(change.clone(), "apply", json!("thisStation")), "stationId", json!(other))).await;
    assert_eq!(a.status, 400);
    assert!(a.msg().contains("does not use tariff"), "{}", a.msg());
    let templates = get(ctx, "/tariff/getList", Some(&token)).await.data()["total"].clone();
    let cur = get(ctx, &format!("/tariff/getDetail?id={tid}"), Some(&token)).await;
    assert_eq!(cur.data()["template"]["version"].as_i64(), Some(v), "nothing written");

    // Only this station: a copy assigned to it; the template and its other stations unchanged.
    let only = with(with(change.clone(), "apply", json!("thisStation")), "stationId", json!(sid));
    let a = post(ctx, "/tariff/doEdit", Some(&token), only.clone()).await;
    assert_eq!(a.code(), 200, "{:?}", a.body);
    let copy = a.data()["template"].clone();
    let copy_id = copy["id"].as_str().unwrap().to_string();
    assert_ne!(copy_id, tid);
    assert_eq!(copy["version"], 1);
    assert_eq!(copy["prices"]["flat"]["service"], 7000);
    let station_name = detail["station"]["name"].as_str().unwrap();
    assert!(copy["name"].as_str().unwrap().contains(station_name), "the copy is named after its station: {}", copy["name"]);
    let d = get(ctx, &format!("/station/getDetail?id={sid}"), Some(&token)).await;
    assert_eq!(d.data()["station"]["tariffId"], json!(copy_id));
    assert_eq!(d.data()["station"]["version"].as_i64(), detail["station"]["version"].as_i64().map(|v| v + 1));
    assert_eq!(d.data()["tariffUsage"]["total"], 1);
    let cur = get(ctx, &format!("/tariff/getDetail?id={tid}"), Some(&token)).await;
    assert_eq!(cur.data()["template"]["version"].as_i64(), Some(v));
    assert_eq!(cur.data()["template"]["prices"], tpl["prices"], "the shared template kept its prices");
    let rest = get(ctx, &format!("/station/getDetail?id={}", users.iter().find(|u| **u != sid).unwrap()), Some(&token)).await;
    assert_eq!(rest.data()["station"]["tariffId"], json!(tid));
    assert_eq!(rest.data()["tariffUsage"]["total"].as_u64(), Some(users.len() as u64 - 1));
    assert_eq!(get(ctx, "/tariff/getList", Some(&token)).await.data()["total"].as_u64(), templates.as_u64().map(|n| n + 1));
    // The same request again: the station no longer uses the template, so no second copy.
    assert_eq!(post(ctx, "/tariff/doEdit", Some(&token), only).await.status, 400);
    assert_eq!(get(ctx, "/tariff/getList", Some(&token)).await.data()["total"].as_u64(), templates.as_u64().map(|n| n + 1));

    // All stations: a new version of the shared template.
    let all = with(change, "apply", json!("allStations"));
    let a = post(ctx, "/tariff/doEdit", Some(&token), all.clone()).await;
    assert_eq!(a.code(), 200, "{:?}", a.body);
    assert_eq!((a.data()["template"]["id"].as_str(), a.data()["template"]["version"].as_i64()), (Some(tid.as_str()), Some(v + 1)));
    assert_eq!(rest.data()["station"]["tariffId"], json!(tid));
    let r = get(ctx, &format!("/station/getDetail?id={}", users.iter().find(|u| **u != sid).unwrap()), Some(&token)).await;
    assert_eq!(r.data()["tariff"]["template"]["prices"]["flat"]["service"], 7000);
    // A stale version is a conflict for either choice.
    assert_eq!(post(ctx, "/tariff/doEdit", Some(&token), all).await.status, 409);
}

#[tokio::test]
async fn shared_tariff_edit_says_which_stations_sqlite() {
    shared_tariff_edit_says_which_stations(&*product().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shared_tariff_edit_says_which_stations_dynamo() {
    let Some(table) = dynamo_table("assets").await else { return };
    let ctx = product_on_dynamo(table.clone(), &[("BACKOFFICE_ACCESS_TOKEN_TTL", "900"), ("BACKOFFICE_DEMO_ORDERS", "20")]).await;
    shared_tariff_edit_says_which_stations(&*ctx).await;
    let _ = table.delete_table().await;
}

/// A saved tariff goes to the YKC piles of the stations using it (0x58
/// queued for each), within the tariff route's policy, connected or not.
async fn tariff_push_to_ykc_piles(ctx: &backoffice::AppCtx) {
    use backoffice::domain::chargers::ykc_platform::PileLink;
    let token = login(ctx, "admin", ADMIN_PW).await;
    let stations = get(ctx, "/station/getList?pageSize=50&status=operating", Some(&token)).await;
    let station = stations.data()["list"].as_array().unwrap().iter().find(|s| s["tariffId"].as_str().is_some_and(|t| !t.is_empty())).unwrap().clone();
    let mut codes = Vec::new();
    let mut link = None;
    for code in ["55000000000521", "55000000000522"] {
        let added = post(ctx, "/pile/doAdd", Some(&token), json!({"stationId": station["id"], "code": code, "pileType": "dc", "ratedPowerKw": 60, "heartbeatIntervalSecs": 60,
            "ocppVersion": "ykc1.6", "connectors": [{"standard": "gbt2015", "maxPowerKw": 60}]})).await;
        assert_eq!(added.code(), 200, "{}", added.body);
        if link.is_none() {
            let pile = backoffice::domain::assets::piles::get_pile(ctx, added.data()["id"].as_str().unwrap()).await.unwrap();
            link = Some(PileLink::open(ctx, pile, ykc::Version::V1_6, "conn-ykc-tariff", "10.0.0.7", ctx.now() * 1000).await.unwrap());
        }
        codes.push(code);
    }
    let current = get(ctx, &format!("/tariff/getDetail?id={}", station["tariffId"].as_str().unwrap()), Some(&token)).await;
    let mut change = current.data()["template"].clone();
    change["apply"] = json!("allStations");
    let saved = post(ctx, "/tariff/doEdit", Some(&token), change).await;
    assert_eq!(saved.code(), 200, "{}", saved.body);
    let pushed: Vec<(&str, &str)> = saved.data()["pushed"].as_array().unwrap().iter().map(|p| (p["pileCode"].as_str().unwrap(), p["command"]["status"].as_str().unwrap())).collect();
    for code in codes {
        let (_, status) = pushed.iter().find(|(c, _)| *c == code).unwrap_or_else(|| panic!("{code} in {pushed:?}"));
        // The one never connected ends offline at once; the connected one is sent if this
        // process holds its socket (here no socket: offline as well, after its connection was looked up).
        assert!(*status == "offline" || (code.ends_with("521") && *status == "sent"), "{pushed:?}");
    }
    link.unwrap().close(ctx).await.unwrap();
}

#[tokio::test]
async fn a_saved_tariff_is_queued_for_the_ykc_piles_using_it() {
    tariff_push_to_ykc_piles(&*product().await).await;
}

#[tokio::test]
async fn a_saved_tariff_is_queued_for_the_ykc_piles_using_it_on_dynamodb() {
    let Some(table) = dynamo_table("ykctariff").await else { return };
    tariff_push_to_ykc_piles(&*product_on_dynamo(table, &[("BACKOFFICE_ACCESS_TOKEN_TTL", "900"), ("BACKOFFICE_DEMO_ORDERS", "60")]).await).await;
}
