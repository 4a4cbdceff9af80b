//! Lookups without caps: the system log filtered by
//! account prefix, type and day; the order list sorted by time, amount and
//! energy; station and user names matched anywhere. Each runs on SQLite and
//! on DynamoDB (moto).

mod common;

use std::collections::BTreeSet;

use backoffice::domain::orders::keys::{iso_day, local_day};
use backoffice::AppCtx;
use common::*;
use serde_json::{json, Value};

/// moto answers slowly (one call at a time for the whole test binary):
/// the access token must outlast a test there.
const SLOW_STORE: &[(&str, &str)] = &[("BACKOFFICE_ACCESS_TOKEN_TTL", "900")];

fn today(ctx: &AppCtx) -> i64 {
    local_day(ctx.now())
}

/// Every page of a list, following its cursor; asserts no key is listed twice.
async fn every_page(ctx: &AppCtx, token: &str, path: &str, key: &str) -> Vec<Value> {
    let (mut rows, mut seen, mut cursor) = (Vec::new(), BTreeSet::new(), None::<String>);
    for _ in 0..2000 {
        let full = match &cursor {
            Some(c) => format!("{path}&cursor={c}"),
            None => path.to_string(),
        };
        let a = get(ctx, &full, Some(token)).await;
        assert_eq!(a.status, 200, "{full}: {}", a.body);
        for r in a.data()["list"].as_array().unwrap() {
            let id = r[key].as_str().unwrap().to_string();
            assert!(seen.insert(id.clone()), "{id} listed twice by {path}");
            rows.push(r.clone());
        }
        match a.data()["cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return rows,
        }
    }
    panic!("{path}: paging did not end");
}

async fn log_filters(ctx: &AppCtx) {
    let admin = login(ctx, "admin", ADMIN_PW).await;
    for i in 0..3 {
        assert_eq!(post(ctx, "/table/doEdit", Some(&admin), json!({"title": format!("t{i}")})).await.status, 200);
    }
    let editor = login(ctx, "editor", EDITOR_PW).await;
    assert_eq!(post(ctx, "/table/doEdit", Some(&editor), json!({"title": "by editor"})).await.status, 200);
    let day = iso_day(today(ctx));

    // Account: a prefix, whatever the case; counted, so numbered pages work.
    let adm = get(ctx, "/systemLog/getList?account=ADM&pageSize=2", Some(&admin)).await;
    assert_eq!(adm.status, 200, "{}", adm.body);
    assert_eq!((adm.data()["total"].clone(), adm.data()["totalKnown"].clone()), (json!(4), json!(true)), "one sign-in and three edits");
    let second = get(ctx, "/systemLog/getList?account=adm&pageSize=2&pageNo=2", Some(&admin)).await;
    let accounts: Vec<_> = [adm.data(), second.data()].iter().flat_map(|d| d["list"].as_array().unwrap().clone()).map(|e| e["account"].clone()).collect();
    assert_eq!(accounts, vec![json!("admin"); 4]);
    assert_eq!(get(ctx, "/systemLog/getList?account=nobody", Some(&admin)).await.data()["total"], 0);

    // Type: the route's function, offered in the reader's language.
    let zh = get_in(ctx, "/systemLog/getList?pageSize=1", &admin, "zh-CN").await;
    let types = zh.data()["types"].as_array().unwrap();
    let edit = types.iter().find(|t| t["value"] == "demo_table_edit").expect("the demo edit is a type");
    assert_eq!(edit["label"].as_str(), Some(backoffice::messages::routes::summary(backoffice::routes::by_function("demo_table_edit").unwrap()).zh.as_str()));
    assert!(types.iter().any(|t| t["value"] == "chargerAnswer"));
    let edits = every_page(ctx, &admin, "/systemLog/getList?type=demo_table_edit&pageSize=3", "id").await;
    assert_eq!(edits.len(), 4);
    assert!(edits.iter().all(|e| e["path"] == "/table/doEdit"));
    let first = get(ctx, "/systemLog/getList?type=demo_table_edit&pageSize=3", Some(&admin)).await;
    assert_eq!(first.data()["totalKnown"], false, "the log counts per account, not per type");
    let editors = get(ctx, "/systemLog/getList?type=demo_table_edit&account=EDI", Some(&admin)).await;
    let list = editors.data()["list"].as_array().unwrap();
    assert_eq!((list.len(), list[0]["account"].as_str()), (1, Some("editor")));

    // Day: a range of local days, on every filter.
    let today_only = every_page(ctx, &admin, &format!("/systemLog/getList?from={day}&to={day}&type=login_index&pageSize=5"), "id").await;
    assert_eq!(today_only.len(), 2, "two sign-ins today");
    let long_ago = get(ctx, "/systemLog/getList?from=2020-01-01&to=2020-01-31&account=a", Some(&admin)).await;
    assert_eq!(long_ago.data()["list"], json!([]));
    assert!(long_ago.data()["cursor"].is_null());

    // Bad input: a 400 naming the field.
    for (query, field) in [
        ("type=no_such_route", "type"),
        ("type=user_info", "type"),
        ("from=2025-02-30", "from"),
        ("to=yesterday", "to"),
        ("from=2025-03-02&to=2025-03-01", "from"),
        ("type=login_index&pageNo=2", "pageNo"),
        ("cursor=%21%21", "cursor"),
    ] {
        let a = get(ctx, &format!("/systemLog/getList?{query}"), Some(&admin)).await;
        assert_eq!(a.status, 400, "{query}: {}", a.body);
        assert!(a.msg().contains(field), "{query}: {}", a.msg());
    }
}

async fn order_sorts(ctx: &AppCtx) {
    let editor = login(ctx, "editor", EDITOR_PW).await;
    let t = today(ctx);
    let range = format!("from={}&to={}", iso_day(t - 130), iso_day(t));
    // Close a stuck order first: its amount and energy pointers must move.
    let stuck = get(ctx, &format!("/order/getList?{range}&anomaly=stuck&pageSize=1"), Some(&editor)).await;
    if let Some(no) = stuck.data()["list"][0]["orderNo"].as_str() {
        let closed = post(ctx, "/order/close", Some(&editor), json!({"orderNo": no, "reason": "sort test"})).await;
        assert_eq!(closed.status, 200, "{}", closed.body);
    }
    let total = get(ctx, &format!("/order/getList?{range}&pageSize=1"), Some(&editor)).await.data()["total"].as_i64().unwrap();
    for (sort, field, descending) in [("amountDesc", "amountFen", true), ("amountAsc", "amountFen", false), ("energyDesc", "energyWh", true), ("energyAsc", "energyWh", false)] {
        let rows = every_page(ctx, &editor, &format!("/order/getList?{range}&sort={sort}&pageSize=37"), "orderNo").await;
        assert_eq!(rows.len() as i64, total, "{sort}: every order of the range once");
        let values: Vec<i64> = rows.iter().map(|r| r[field].as_i64().unwrap().max(0)).collect();
        assert!(values.windows(2).all(|w| if descending { w[0] >= w[1] } else { w[0] <= w[1] }), "{sort}: {values:?}");
    }
    // A short range: only its orders, still sorted.
    let week = format!("from={}&to={}", iso_day(t - 6), iso_day(t));
    let week_total = get(ctx, &format!("/order/getList?{week}&pageSize=1"), Some(&editor)).await.data()["total"].as_i64().unwrap();
    let rows = every_page(ctx, &editor, &format!("/order/getList?{week}&sort=amountDesc&pageSize=20"), "orderNo").await;
    assert_eq!(rows.len() as i64, week_total);
    // Time both ways.
    let newest = get(ctx, &format!("/order/getList?{range}&sort=newest&pageSize=5"), Some(&editor)).await;
    let oldest = get(ctx, &format!("/order/getList?{range}&sort=oldest&pageSize=5"), Some(&editor)).await;
    let start = |a: &Answer, i: usize| a.data()["list"][i]["startTs"].as_i64().unwrap();
    assert!(start(&newest, 0) >= start(&newest, 4) && start(&oldest, 0) <= start(&oldest, 4));
    assert!(start(&oldest, 0) <= start(&newest, 0));

    // Refusals: a value sort with another filter, an unknown sort, a cursor of another sort.
    let station = get(ctx, &format!("/order/getList?{range}&sort=amountDesc&status=finished"), Some(&editor)).await;
    assert_eq!(station.status, 400);
    assert!(station.msg().contains("sort"), "{}", station.msg());
    let zh = get_in(ctx, &format!("/order/getList?{range}&sort=energyDesc&stationId=x"), &editor, "zh-CN").await;
    assert!(zh.msg().contains("sort：按金额或电量排序"), "{}", zh.msg());
    let unknown = get(ctx, &format!("/order/getList?{range}&sort=price"), Some(&editor)).await;
    assert_eq!(unknown.status, 400);
    assert!(unknown.msg().contains("amountDesc"), "{}", unknown.msg());
    let page = get(ctx, &format!("/order/getList?{range}&sort=amountDesc&pageSize=2"), Some(&editor)).await;
    let cursor = page.data()["cursor"].as_str().unwrap().to_string();
    assert_eq!(get(ctx, &format!("/order/getList?{range}&sort=energyDesc&cursor={cursor}"), Some(&editor)).await.status, 400);
    assert_eq!(get(ctx, &format!("/order/getList?{range}&cursor={cursor}"), Some(&editor)).await.status, 400);

    // Orders stored before the value pointers existed: the backfill writes them.
    use backoffice::domain::orders::keys;
    let newest = get(ctx, &format!("/order/getList?{range}&pageSize=3"), Some(&editor)).await;
    for r in newest.data()["list"].as_array().unwrap() {
        let row = backoffice::domain::orders::load(ctx, r["orderNo"].as_str().unwrap()).await.unwrap();
        let month = keys::month_of(row.order.start_ts);
        for pk in [keys::by_amount(&month), keys::by_energy(&month)] {
            let value = if pk.starts_with("OIX#AMT#") { row.order.amount_fen.0 } else { row.order.energy_wh };
            let key = store::Key::new(pk, keys::value_sort(value, &row.order.order_no));
            assert!(ctx.store.delete(&key, Some(store::Condition::item_exists())).await.unwrap().is_some(), "the pointer existed");
        }
    }
    let (editor, range) = (&editor, &range);
    let count = |sort: &'static str| async move { every_page(ctx, editor, &format!("/order/getList?{range}&sort={sort}&pageSize=100"), "orderNo").await.len() as i64 };
    assert_eq!(count("amountDesc").await, total - 3, "orders without their pointer are missing");
    let done = backoffice::domain::orders::backfill::missing_pointers(ctx).await.unwrap();
    assert_eq!(done.written, 6);
    assert!(done.orders as i64 >= total);
    assert_eq!((count("amountDesc").await, count("energyAsc").await), (total, total));
    assert_eq!(backoffice::domain::orders::backfill::missing_pointers(ctx).await.unwrap().written, 0, "a second run writes nothing");
}

/// Percent-encodes a query value (UTF-8 bytes).
fn enc(s: &str) -> String {
    s.bytes().map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") }).collect()
}

fn nanning_station(code: &str, name: &str) -> Value {
    json!({
        "code": code, "name": name, "operator": "测试运营商",
        "provinceCode": "450000", "cityCode": "450100", "districtCode": "450102",
        "address": "南宁市兴宁区民族大道1号", "lat": 22.817, "lng": 108.366,
        "openingHours": "06:00-23:00", "status": "operating",
        "servicePhone": "0771-12345678", "parkingInfo": "充电免费停车2小时", "tariffId": "tt-gd"
    })
}

async fn names_match_anywhere(ctx: &AppCtx) {
    let admin = login(ctx, "admin", ADMIN_PW).await;
    let stations = |query: String| {
        let admin = admin.clone();
        async move {
            let a = get(ctx, &format!("/station/getList?pageSize=100&{query}"), Some(&admin)).await;
            assert_eq!(a.status, 200, "{query}: {}", a.body);
            a.data()["list"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap().to_string()).collect::<Vec<_>>()
        }
    };
    // Every demo station whose name holds the word, wherever it is, sorted by name.
    let all = stations(String::new()).await;
    let normal = |s: &str| s.chars().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect::<String>();
    for word in ["充电", "中心", "站", "SOHO", "soho"] {
        let mut expected: Vec<_> = all.iter().filter(|n| normal(n).contains(&normal(word))).cloned().collect();
        expected.sort_by_key(|n| normal(n));
        assert!(!expected.is_empty() || word == "中心", "the demo has stations with {word}");
        assert_eq!(stations(format!("name={}", enc(word))).await, expected, "{word}");
    }

    let added = post(ctx, "/station/doAdd", Some(&admin), nanning_station("NN001", "南宁民族大道充电站")).await;
    assert_eq!(added.status, 200, "{}", added.body);
    let id = added.data()["id"].as_str().unwrap().to_string();
    assert_eq!(stations(format!("name={}", enc("民族 大道"))).await, ["南宁民族大道充电站"], "a word from the middle, spaces ignored");
    assert_eq!(stations(format!("name={}&regionCode=450100", enc("大道"))).await, ["南宁民族大道充电站"]);
    assert!(stations(format!("name={}&status=suspended", enc("大道"))).await.is_empty(), "other filters still apply");

    let mut edit = nanning_station("NN001", "南宁朝阳广场充电站");
    edit["id"] = json!(id);
    edit["version"] = json!(1);
    edit["status"] = json!("suspended");
    assert_eq!(post(ctx, "/station/doEdit", Some(&admin), edit).await.status, 200);
    assert!(stations(format!("name={}", enc("民族"))).await.is_empty(), "the old name is gone");
    assert_eq!(stations(format!("name={}&status=suspended", enc("朝阳广场"))).await, ["南宁朝阳广场充电站"]);
    assert!(stations(format!("name={}&status=operating", enc("朝阳广场"))).await.is_empty());
    assert_eq!(post(ctx, "/station/doDelete", Some(&admin), json!({"id": id})).await.status, 200);
    assert!(stations(format!("name={}", enc("朝阳广场"))).await.is_empty(), "a deleted station leaves no word behind");

    // A station saved before the word index: found from the start of its
    // name only, until the backfill writes its entries.
    let words = ctx.store.query(store::Query::partition("LIST#station#~words").sort_key(store::SortKey::BeginsWith("soho".into()))).await.unwrap();
    let soho = words.items[0]["refPK"].as_str().unwrap().to_string();
    let mut cursor = None;
    loop {
        let page = ctx.store.query(store::Query::partition("LIST#station#~words").after(cursor)).await.unwrap();
        for item in page.items.iter().filter(|i| i["refPK"] == json!(soho)) {
            ctx.store.delete(&store::Key::of(item).unwrap(), None).await.unwrap();
        }
        cursor = page.cursor;
        if cursor.is_none() {
            break;
        }
    }
    assert!(stations(format!("name={}", enc("SOHO"))).await.is_empty());
    assert_eq!(stations(format!("name={}", enc("望京"))).await, ["望京SOHO充电站"], "the start of the name still matches");
    let (read, written) = backoffice::domain::assets::stations::backfill_words(ctx).await.unwrap();
    assert_eq!((read >= 20, written), (true, "望京soho充电站".chars().count()), "only the deleted entries are written");
    assert_eq!(stations(format!("name={}", enc("SOHO"))).await, ["望京SOHO充电站"]);
    assert_eq!(backoffice::domain::assets::stations::backfill_words(ctx).await.unwrap().1, 0, "a second run writes nothing");

    // Staff accounts by any part of the name, any case.
    let users = get(ctx, "/userManagement/getList?username=DIT", Some(&admin)).await;
    let names: Vec<_> = users.data()["list"].as_array().unwrap().iter().map(|u| u["username"].clone()).collect();
    assert_eq!(names, [json!("editor")]);
}

#[tokio::test]
async fn station_and_user_names_match_anywhere() {
    names_match_anywhere(&*product().await).await;
}

#[tokio::test]
async fn station_and_user_names_match_anywhere_on_dynamodb() {
    let Some(table) = dynamo_table("namewords").await else { return };
    names_match_anywhere(&*product_on_dynamo(table, SLOW_STORE).await).await;
}

#[tokio::test]
async fn the_system_log_filters_by_account_prefix_type_and_day() {
    log_filters(&*product().await).await;
}

#[tokio::test]
async fn the_system_log_filters_by_account_prefix_type_and_day_on_dynamodb() {
    let Some(table) = dynamo_table("logfilters").await else { return };
    log_filters(&*product_on_dynamo(table, SLOW_STORE).await).await;
}

#[tokio::test]
async fn the_order_list_sorts_by_time_amount_and_energy() {
    order_sorts(&*product().await).await;
}

#[tokio::test]
async fn the_order_list_sorts_by_time_amount_and_energy_on_dynamodb() {
    let Some(table) = dynamo_table("ordersorts").await else { return };
    order_sorts(&*product_on_dynamo(table, &[SLOW_STORE[0], ("BACKOFFICE_DEMO_ORDERS", "120")]).await).await;
}
