//! Charging cards at scale and how their sessions are paid: the card
//! search behind every picker (number prefix, holder, plate), imports that
//! report every bad row at once, prepaid balances (top-ups, a session's
//! hold at StartTransaction and payment at StopTransaction, race-safe)
//! and postpaid holders' monthly bills. Each runs on SQLite and, with
//! moto, on DynamoDB.

mod common;

use std::sync::Arc;

use backoffice::domain::assets::piles::{self, Pile};
use backoffice::domain::cards::CardStatus;
use backoffice::domain::chargers::sessions::{self, StartRequest, StopRequest};
use backoffice::AppCtx;
use common::*;
use serde_json::{json, Value};

/// moto answers slowly (one call at a time for the whole test binary):
/// the access token must outlast a test there.
const SLOW_STORE: &[(&str, &str)] = &[("BACKOFFICE_ACCESS_TOKEN_TTL", "900"), ("BACKOFFICE_DEMO_ORDERS", "60")];

fn card(tag: &str, holder: &str, plate: &str) -> Value {
    json!({"idTag": tag, "holder": holder, "plate": plate, "status": "Accepted", "expiresAt": null, "parentIdTag": null})
}

fn tags(a: &Answer) -> Vec<String> {
    a.data()["list"].as_array().unwrap().iter().map(|c| c["idTag"].as_str().unwrap().to_string()).collect()
}

async fn card_search(ctx: &AppCtx) {
    let admin = login(ctx, "admin", ADMIN_PW).await;
    for body in [card("ZX-1001", "王小明", "粤B7788A"), card("ZX-1002", "王大力", "京C12345"), card("ZY-2001", "Li Lei", "沪A99999")] {
        assert_eq!(post(ctx, "/card/doAdd", Some(&admin), body).await.code(), 200);
    }
    let find = |q: &str| {
        let path = format!("/card/search?{q}");
        let admin = admin.clone();
        async move { get(ctx, &path, Some(&admin)).await }
    };
    // By the start of the number, any letter case.
    assert_eq!(tags(&find("text=zx-10").await), ["ZX-1001", "ZX-1002"]);
    // By the holder (spaces and case ignored), and by the plate with or without its province.
    assert_eq!(tags(&find("text=%E7%8E%8B").await), ["ZX-1002", "ZX-1001"], "王: by the holder, in the order of the text matched");
    assert_eq!(tags(&find("text=lilei").await), ["ZY-2001"]);
    assert_eq!(tags(&find("text=%E7%B2%A4B77").await), ["ZX-1001"], "粤B77");
    assert_eq!(tags(&find("text=b7788").await), ["ZX-1001"], "without the province");
    // The answer carries holder and plate (what the picker shows) and the wallet.
    let one = find("text=ZY").await;
    assert_eq!((one.data()["list"][0]["holder"].as_str(), one.data()["list"][0]["plate"].as_str(), one.data()["list"][0]["payment"].as_str()), (Some("Li Lei"), Some("沪A99999"), Some("postpaid")));
    // A limit, and whether more match.
    let two = find("text=demo&limit=2").await;
    assert_eq!((tags(&two).len(), two.data()["more"].as_bool()), (2, Some(true)));
    // Only the status asked for (the entries carry it: no card is read to drop it).
    let edit = post(ctx, "/card/doEdit", Some(&admin), json!({"idTag": "ZX-1002", "version": 1, "holder": "赵刚", "plate": "京C12345", "status": "Blocked"})).await;
    assert_eq!(edit.code(), 200, "{}", edit.body);
    assert_eq!(tags(&find("text=zx&status=Accepted").await), ["ZX-1001"]);
    assert_eq!(tags(&find("text=zx&status=Blocked").await), ["ZX-1002"]);
    // An edited holder is found by the new name only.
    assert!(tags(&find("text=%E7%8E%8B%E5%A4%A7").await).is_empty(), "王大 is gone");
    assert_eq!(tags(&find("text=%E8%B5%B5").await), ["ZX-1002"], "赵");
    // A deleted card is not found.
    assert_eq!(post(ctx, "/card/doDelete", Some(&admin), json!({"idTag": "ZY-2001"})).await.code(), 200);
    assert!(tags(&find("text=lilei").await).is_empty());
    assert_eq!(find("limit=51").await.status, 400);

    // Cards stored before the lookup entries existed are found after the backfill.
    let key = backoffice::domain::cards::key("OLD-0001");
    let mut item = key.to_item();
    for (k, v) in [("idTag", json!("OLD-0001")), ("holder", json!("旧卡")), ("plate", json!("")), ("status", json!("Accepted")), ("createdAt", json!(1)), ("updatedAt", json!(1)), ("updatedBy", json!("t")), ("version", json!(1))] {
        item.insert(k.into(), v);
    }
    ctx.store.put(item, None).await.unwrap();
    let mut entry = store::Key::new("LIST#card#*", "OLD-0001#CARD#OLD-0001#CARD").to_item();
    entry.insert("refPK".into(), json!(key.pk));
    entry.insert("refSK".into(), json!(key.sk));
    ctx.store.put(entry, None).await.unwrap();
    assert!(tags(&find("text=old-").await).is_empty());
    let (_, written) = backoffice::domain::cards::backfill_lookup(ctx).await.unwrap();
    assert!(written >= 2, "the number and the holder: {written}");
    assert_eq!(tags(&find("text=old-").await), ["OLD-0001"]);
    assert_eq!(backoffice::domain::cards::backfill_lookup(ctx).await.unwrap().1, 0, "a second run writes nothing");
}

#[tokio::test]
async fn cards_are_found_by_number_holder_and_plate() {
    card_search(&*product().await).await;
}

#[tokio::test]
async fn cards_are_found_by_number_holder_and_plate_on_dynamodb() {
    let Some(table) = dynamo_table("cardsearch").await else { return };
    card_search(&*product_on_dynamo(table, SLOW_STORE).await).await;
}

async fn card_import(ctx: &AppCtx) {
    let admin = login(ctx, "admin", ADMIN_PW).await;
    let total = || async { get(ctx, "/card/getList?pageNo=1&pageSize=20", Some(&admin)).await.data()["total"].as_u64().unwrap() };
    let before = total().await;
    let row = |tag: &str, n: u32| {
        let mut c = card(tag, "导入", "");
        c["row"] = json!(n);
        c
    };
    // Four bad rows of five: each named by its spreadsheet row and column, all at once, in both languages.
    let mut too_long = row("IMP-3", 4);
    too_long["plate"] = json!("x".repeat(17));
    let mut no_parent = row("IMP-5", 7);
    no_parent["parentIdTag"] = json!("NOSUCH");
    let rows = json!([row("IMP-1", 2), row("DEMO0001", 3), too_long, row("imp-1", 5), no_parent]);
    let bad = post(ctx, "/card/import", Some(&admin), json!({"rows": rows})).await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    let fields: Vec<(String, String, String)> = bad.data()["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["field"].as_str().unwrap().to_string(), f["en"].as_str().unwrap().to_string(), f["zh"].as_str().unwrap().to_string()))
        .collect();
    let named = |field: &str, en: &str, zh: &str| fields.iter().any(|(f, e, z)| f == field && e.contains(en) && z.contains(zh));
    assert!(named("rows[1].idTag", "row 3, column idTag: card DEMO0001 exists already", "第3行，卡号列：卡号DEMO0001已存在"), "a collision with a stored card: {fields:?}");
    assert!(named("rows[2].plate", "row 4, column plate", "第4行，车牌列"), "{fields:?}");
    assert!(named("rows[3].idTag", "row 5, column idTag: card imp-1 is also on row 2", "与第2行重复"), "{fields:?}");
    assert!(named("rows[4].parentIdTag", "row 7, column parentIdTag: no card NOSUCH", "第7行，上级卡号列"), "{fields:?}");
    assert_eq!(fields.len(), 4, "{fields:?}");
    assert_eq!(total().await, before, "nothing written");
    // Checking only writes nothing, even when every row is good.
    let good = json!([row("IMP-1", 2), row("IMP-2", 3)]);
    let checked = post(ctx, "/card/import", Some(&admin), json!({"rows": good, "checkOnly": true})).await;
    assert_eq!((checked.status, checked.data()["checkedOnly"].as_bool()), (200, Some(true)), "{}", checked.body);
    assert_eq!(total().await, before);
    let done = post(ctx, "/card/import", Some(&admin), json!({"rows": good})).await;
    assert_eq!((done.data()["created"].as_u64(), done.data()["unchanged"].as_u64()), (Some(2), Some(0)), "{}", done.body);
    // The same file again (an interrupted import completed): nothing new, nothing refused.
    let again = post(ctx, "/card/import", Some(&admin), json!({"rows": good})).await;
    assert_eq!((again.status, again.data()["created"].as_u64(), again.data()["unchanged"].as_u64()), (200, Some(0), Some(2)), "{}", again.body);
    assert_eq!(total().await, before + 2);
    // Every card of an import is found by the picker too.
    assert_eq!(tags(&get(ctx, "/card/search?text=imp-", Some(&admin)).await), ["IMP-1", "IMP-2"]);
}

#[tokio::test]
async fn an_import_reports_every_bad_row_and_writes_nothing_until_all_are_good() {
    card_import(&*product().await).await;
}

#[tokio::test]
async fn an_import_reports_every_bad_row_and_writes_nothing_until_all_are_good_on_dynamodb() {
    let Some(table) = dynamo_table("cardimport").await else { return };
    card_import(&*product_on_dynamo(table, SLOW_STORE).await).await;
}

/// A new pile on a station with a tariff (its connectors 1 and 2).
async fn pile_with_tariff(ctx: &AppCtx, admin: &str, code: &str) -> Pile {
    let stations = get(ctx, "/station/getList?pageSize=50&status=operating", Some(admin)).await;
    let station = stations.data()["list"].as_array().unwrap().iter().find(|s| s["tariffId"].as_str().is_some_and(|t| !t.is_empty())).unwrap()["id"].clone();
    let body = json!({"stationId": station, "code": code, "pileType": "dc", "ratedPowerKw": 60, "heartbeatIntervalSecs": 60, "vendor": "T", "model": "T", "firmwareVersion": "1",
        "connectors": [{"standard": "gbt2015", "maxPowerKw": 60}, {"standard": "gbt2015", "maxPowerKw": 60}]});
    let a = post(ctx, "/pile/doAdd", Some(admin), body).await;
    assert_eq!(a.code(), 200, "{}", a.body);
    piles::get_pile(ctx, a.data()["id"].as_str().unwrap()).await.unwrap()
}

fn start_on(ctx: &AppCtx, connector: u32, tag: &str, n: i64) -> StartRequest {
    StartRequest { connector, id_tag: tag.into(), meter_start: 1000, timestamp_text: format!("t{n}"), timestamp: Some(ctx.now() - 3600), reservation_id: None, charger_transaction_id: None }
}

fn stop_of(ctx: &AppCtx, transaction_id: i64) -> StopRequest {
    StopRequest { transaction_id, meter_stop: Some(21_000), timestamp: Some(ctx.now() - 60), reason: None, readings: Vec::new() }
}

async fn wallet(ctx: &AppCtx, admin: &str, tag: &str) -> (i64, i64) {
    let found = get(ctx, &format!("/card/search?text={tag}&limit=1"), Some(admin)).await;
    let c = &found.data()["list"][0];
    (c["balanceFen"].as_i64().unwrap(), c["heldFen"].as_i64().unwrap())
}

async fn prepaid_cards(ctx: Arc<AppCtx>) {
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let pile = pile_with_tariff(&ctx, &admin, "PAYCP001").await;
    let mut body = card("PRE-1", "预付用户", "京D00001");
    body["payment"] = json!("prepaid");
    assert_eq!(post(&ctx, "/card/doAdd", Some(&admin), body).await.code(), 200);

    // Nothing on it: below the minimum (10 yuan by default), Blocked.
    assert_eq!(backoffice::domain::cards::authorize(&ctx, "PRE-1").await.unwrap().status, CardStatus::Blocked);
    // Finance tops it up (an Editor may not), with who and when.
    let refused = post(&ctx, "/card/topUp", Some(&editor), json!({"idTag": "PRE-1", "amountFen": 1500})).await;
    assert_eq!(refused.status, 403);
    for (amount, field) in [(json!(0), "amountFen"), (json!(-5), "amountFen"), (json!(100_000_001), "amountFen")] {
        let a = post(&ctx, "/card/topUp", Some(&admin), json!({"idTag": "PRE-1", "amountFen": amount})).await;
        assert_eq!(a.status, 400, "{amount}");
        assert!(a.msg().contains(field), "{}", a.msg());
    }
    let postpaid = post(&ctx, "/card/topUp", Some(&admin), json!({"idTag": "DEMO0001", "amountFen": 100})).await;
    assert!(postpaid.status == 400 && postpaid.msg().contains("postpaid"), "{}", postpaid.msg());
    let up = post(&ctx, "/card/topUp", Some(&admin), json!({"idTag": "pre-1", "amountFen": 1500, "note": "现金 收据0001"})).await;
    assert_eq!(up.code(), 200, "{}", up.body);
    assert_eq!(up.data()["balanceFen"], 1500);
    assert!(up.msg().contains("15.00"), "{}", up.msg());
    let ledger = get(&ctx, "/card/ledger?idTag=PRE-1", Some(&admin)).await;
    assert_eq!(ledger.data()["list"][0]["kind"], "topUp");
    assert_eq!(ledger.data()["list"][0]["by"], "admin");
    assert_eq!(ledger.data()["list"][0]["note"], "现金 收据0001");
    assert_eq!(backoffice::domain::cards::authorize(&ctx, "PRE-1").await.unwrap().status, CardStatus::Accepted);

    // Two sessions start at once on a balance that covers one minimum:
    // exactly one is accepted and holds it; the other is Blocked.
    let (first, second) = (start_on(&ctx, 1, "PRE-1", 1), start_on(&ctx, 2, "PRE-1", 2));
    let (a, b) = tokio::join!(sessions::start(&ctx, &pile, &first), sessions::start(&ctx, &pile, &second));
    let (a, b) = (a.unwrap(), b.unwrap());
    let accepted: Vec<_> = [&a, &b].into_iter().filter(|s| s.id_tag_info.status == CardStatus::Accepted).collect();
    assert_eq!(accepted.len(), 1, "{:?} {:?}", a.id_tag_info, b.id_tag_info);
    let refused = if a.id_tag_info.status == CardStatus::Accepted { &b } else { &a };
    assert_eq!(refused.id_tag_info.status, CardStatus::Blocked);
    assert_eq!(wallet(&ctx, &admin, "PRE-1").await, (1500, 1000), "the accepted session holds the minimum");
    // Switching it to postpaid while money is on it is refused.
    let switch = post(&ctx, "/card/doEdit", Some(&admin), json!({"idTag": "PRE-1", "version": 1, "holder": "预付用户", "plate": "京D00001", "status": "Accepted", "payment": "postpaid"})).await;
    assert!(switch.status == 400 && switch.msg().contains("payment"), "{}", switch.body);
    // An edit of its other fields leaves the wallet alone.
    let rename = post(&ctx, "/card/doEdit", Some(&admin), json!({"idTag": "PRE-1", "version": 1, "holder": "预付用户甲", "plate": "京D00001", "status": "Accepted"})).await;
    assert_eq!(rename.code(), 200, "{}", rename.body);
    assert_eq!((rename.data()["balanceFen"].as_i64(), rename.data()["payment"].as_str()), (Some(1500), Some("prepaid")));

    // Both stop (the Blocked one ran anyway: an offline charger): each is
    // paid in full from the balance, at the same time, none lost.
    let (stop_a, stop_b) = (stop_of(&ctx, a.transaction_id), stop_of(&ctx, b.transaction_id));
    let (x, y) = tokio::join!(sessions::stop(&ctx, &pile, &stop_a), sessions::stop(&ctx, &pile, &stop_b));
    let mut paid = 0;
    for stopped in [x.unwrap(), y.unwrap()] {
        let sessions::Stopped::Closed { order_no, .. } = stopped else { panic!("closed") };
        let o = get(&ctx, &format!("/order/detail?id={order_no}"), Some(&admin)).await;
        assert_eq!(o.data()["paymentStatus"], "paid", "{}", o.body);
        let amount = o.data()["amountFen"].as_i64().unwrap();
        assert!(amount > 0);
        assert_eq!(o.data()["paidFen"].as_i64(), Some(amount), "paid from the balance");
        paid += amount;
    }
    assert_eq!(wallet(&ctx, &admin, "PRE-1").await, (1500 - paid, 0), "both drawn, the hold released");
    let ledger = get(&ctx, "/card/ledger?idTag=PRE-1", Some(&admin)).await;
    let kinds: Vec<&str> = ledger.data()["list"].as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds.iter().filter(|k| **k == "session").count(), 2, "{kinds:?}");
    // Short now (negative even): on the low-balance list, lowest first, and Blocked.
    let low = get(&ctx, "/card/lowBalance", Some(&admin)).await;
    assert_eq!(low.data()["belowFen"], 1000);
    let low_tags = tags(&low);
    assert_eq!(low_tags.first().map(String::as_str), Some("PRE-1"), "{low_tags:?}");
    assert!(!low_tags.contains(&"PRE0001".to_string()), "the demo's 200 yuan card is not low");
    assert_eq!(backoffice::domain::cards::authorize(&ctx, "PRE-1").await.unwrap().status, CardStatus::Blocked);
    // The minimum is an operations setting.
    let settings = get(&ctx, "/operationSettings/get", Some(&admin)).await;
    let v = settings.data()["version"].as_i64().unwrap();
    let save = post(&ctx, "/operationSettings/doEdit", Some(&admin), json!({"offlineAfterIntervals": 3, "stuckAfterHours": 12, "prepaidMinimumFen": 2_000_000, "version": v})).await;
    assert!(save.status == 400 && save.msg().contains("prepaidMinimumFen"), "{}", save.body);
    let save = post(&ctx, "/operationSettings/doEdit", Some(&admin), json!({"offlineAfterIntervals": 3, "stuckAfterHours": 12, "prepaidMinimumFen": 50_000, "version": v})).await;
    assert_eq!(save.code(), 200, "{}", save.body);
    assert_eq!(backoffice::domain::cards::authorize(&ctx, "PRE0001").await.unwrap().status, CardStatus::Blocked, "200 yuan is below 500");
    // A card with money on it cannot be deleted.
    let gone = post(&ctx, "/card/doDelete", Some(&admin), json!({"idTag": "PRE0001"})).await;
    assert!(gone.status == 400 && gone.msg().contains("balance"), "{}", gone.body);
}

/// A prepaid card charging at a connected YKC pile: its top-up queues the
/// new balance for that pile (0x42), within the top-up route's policy.
async fn top_up_reaches_a_ykc_pile(ctx: Arc<AppCtx>) {
    use backoffice::domain::chargers::ykc_platform::PileLink;
    use ykc::msg::{self, Message};
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let code = "55000000000417";
    let stations = get(&ctx, "/station/getList?pageSize=50&status=operating", Some(&admin)).await;
    let station = stations.data()["list"].as_array().unwrap().iter().find(|s| s["tariffId"].as_str().is_some_and(|t| !t.is_empty())).unwrap()["id"].clone();
    let added = post(&ctx, "/pile/doAdd", Some(&admin), json!({"stationId": station, "code": code, "pileType": "dc", "ratedPowerKw": 60, "heartbeatIntervalSecs": 60,
        "ocppVersion": "ykc1.6", "connectors": [{"standard": "gbt2015", "maxPowerKw": 60}, {"standard": "gbt2015", "maxPowerKw": 60}]})).await;
    assert_eq!(added.code(), 200, "{}", added.body);
    let pile = piles::get_pile(&ctx, added.data()["id"].as_str().unwrap()).await.unwrap();
    let mut body = card("D14B0A54", "云快充预付", "");
    body["payment"] = json!("prepaid");
    assert_eq!(post(&ctx, "/card/doAdd", Some(&admin), body).await.code(), 200);
    assert_eq!(post(&ctx, "/card/topUp", Some(&admin), json!({"idTag": "D14B0A54", "amountFen": 3000})).await.code(), 200);
    let mut link = PileLink::open(&ctx, pile.clone(), ykc::Version::V1_6, "conn-ykc-1", "10.0.0.9", ctx.now() * 1000).await.unwrap();
    let start = Message::StartRequest(msg::StartRequest {
        pile: msg::PileNo::from_digits(code).unwrap(),
        gun: msg::GunNo::from_number(1).unwrap(),
        mode: msg::StartMode::Card,
        needs_password: msg::YesNoByte::No,
        card: msg::PhysicalCardNo::from_hex("00000000D14B0A54").unwrap(),
        password_md5: Default::default(),
        vin_reversed: Default::default(),
    });
    let Some(Message::StartAnswer(answer)) = link.handle(&ctx, &start).await.unwrap().answer else { panic!("a start answer") };
    assert_eq!(answer.authorised, msg::Outcome::Succeeded, "{answer:?}");

    let up = post(&ctx, "/card/topUp", Some(&admin), json!({"idTag": "D14B0A54", "amountFen": 2000})).await;
    assert_eq!(up.code(), 200, "{}", up.body);
    assert!(up.msg().contains(code), "the answer names the pile: {}", up.msg());
    let commands = get(&ctx, &format!("/charger/commands?pileId={}", pile.id), Some(&admin)).await;
    let sent: Vec<&Value> = commands.data()["list"].as_array().unwrap().iter().filter(|c| c["action"] == "BalanceUpdate").collect();
    assert_eq!(sent.len(), 1, "{}", commands.body);
    assert_eq!((sent[0]["payload"]["gun"].as_i64(), sent[0]["payload"]["balanceFen"].as_i64()), (Some(1), Some(5000)), "its own hold is the session's");
    // Once the pile is gone, a top-up queues nothing more.
    link.close(&ctx).await.unwrap();
    let later = post(&ctx, "/card/topUp", Some(&admin), json!({"idTag": "D14B0A54", "amountFen": 100})).await;
    assert!(later.code() == 200 && !later.msg().contains(code), "{}", later.msg());
}

#[tokio::test]
async fn a_top_up_reaches_the_ykc_pile_the_card_charges_at() {
    top_up_reaches_a_ykc_pile(product().await).await;
}

#[tokio::test]
async fn a_top_up_reaches_the_ykc_pile_the_card_charges_at_on_dynamodb() {
    let Some(table) = dynamo_table("ykctopup").await else { return };
    top_up_reaches_a_ykc_pile(product_on_dynamo(table, SLOW_STORE).await).await;
}

#[tokio::test]
async fn prepaid_cards_hold_a_minimum_per_session_and_pay_at_the_stop() {
    prepaid_cards(product().await).await;
}

#[tokio::test]
async fn prepaid_cards_hold_a_minimum_per_session_and_pay_at_the_stop_on_dynamodb() {
    let Some(table) = dynamo_table("prepaid").await else { return };
    prepaid_cards(product_on_dynamo(table, SLOW_STORE).await).await;
}

async fn postpaid_bills(ctx: &AppCtx) {
    let admin = login(ctx, "admin", ADMIN_PW).await;
    let pile = pile_with_tariff(ctx, &admin, "BILLCP01").await;
    for (tag, holder) in [("POST-1", "车队甲"), ("POST-2", "车队甲"), ("POST-3", "")] {
        assert_eq!(post(ctx, "/card/doAdd", Some(&admin), card(tag, holder, "")).await.code(), 200);
    }
    let mut orders = Vec::new();
    for (i, tag) in ["POST-1", "POST-2", "POST-3"].into_iter().enumerate() {
        let s = sessions::start(ctx, &pile, &start_on(ctx, 1, tag, i as i64 + 10)).await.unwrap();
        assert_eq!(s.id_tag_info.status, CardStatus::Accepted, "a postpaid card needs no balance");
        let sessions::Stopped::Closed { order_no, .. } = sessions::stop(ctx, &pile, &stop_of(ctx, s.transaction_id)).await.unwrap() else { panic!("closed") };
        let o = get(ctx, &format!("/order/detail?id={order_no}"), Some(&admin)).await;
        assert_eq!((o.data()["paymentStatus"].as_str(), o.data()["paidFen"].as_i64()), (Some("billed"), Some(0)), "{}", o.body);
        orders.push((order_no, o.data()["amountFen"].as_i64().unwrap(), o.data()["billedTo"].as_str().unwrap().to_string()));
    }
    assert_eq!(orders[2].2, "POST-3", "no holder written: billed to the card's number");
    let month = backoffice::domain::orders::keys::iso_day(backoffice::domain::orders::keys::local_day(ctx.now() - 3600))[..7].to_string();
    let bills = get(ctx, &format!("/money/holderBills?month={month}"), Some(&admin)).await;
    assert_eq!(bills.status, 200, "{}", bills.body);
    let fleet = bills.data()["list"].as_array().unwrap().iter().find(|b| b["holder"] == "车队甲").cloned().unwrap();
    assert_eq!((fleet["orders"].as_i64(), fleet["owedFen"].as_i64()), (Some(2), Some(orders[0].1 + orders[1].1)));
    // The holder pays one session's bill at the finance desk: owed drops by it.
    let pay = post(ctx, "/order/settle/offlinePayment", Some(&admin), json!({"orderNo": orders[0].0, "method": "bankTransfer", "amount": format!("{}.{:02}", orders[0].1 / 100, orders[0].1 % 100)})).await;
    assert_eq!(pay.code(), 200, "{}", pay.body);
    let bills = get(ctx, &format!("/money/holderBills?month={month}"), Some(&admin)).await;
    let fleet = bills.data()["list"].as_array().unwrap().iter().find(|b| b["holder"] == "车队甲").cloned().unwrap();
    assert_eq!((fleet["paidFen"].as_i64(), fleet["owedFen"].as_i64()), (Some(orders[0].1), Some(orders[1].1)));
    // The order list filters billed orders.
    let billed = get(ctx, "/order/getList?paymentStatus=billed&pageSize=50", Some(&admin)).await;
    assert_eq!(billed.status, 200, "{}", billed.body);
    let listed: Vec<&str> = billed.data()["list"].as_array().unwrap().iter().map(|o| o["orderNo"].as_str().unwrap()).collect();
    assert!(listed.contains(&orders[1].0.as_str()) && !listed.contains(&orders[0].0.as_str()), "{listed:?}");
    for bad in ["2025-13", "202501", "x"] {
        assert_eq!(get(ctx, &format!("/money/holderBills?month={bad}"), Some(&admin)).await.status, 400, "{bad}");
    }
}

#[tokio::test]
async fn postpaid_sessions_are_billed_to_their_holders_by_month() {
    postpaid_bills(&*product().await).await;
}

#[tokio::test]
async fn postpaid_sessions_are_billed_to_their_holders_by_month_on_dynamodb() {
    let Some(table) = dynamo_table("postpaid").await else { return };
    postpaid_bills(&*product_on_dynamo(table, SLOW_STORE).await).await;
}
