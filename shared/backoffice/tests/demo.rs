//! The demo pages' data endpoints: `{list, total}` answers and paging, their
//! refusals, and the saved workflow diagram.

mod common;

use common::*;
use serde_json::{json, Value};

#[tokio::test]
async fn table_list_pages_filters_and_keeps_the_spec_ranges() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let first = get(&ctx, "/table/getList", Some(&admin)).await;
    assert_eq!(first.code(), 200);
    assert_eq!(first.data()["total"], 50);
    let list = first.data()["list"].as_array().unwrap();
    assert_eq!(list.len(), 20, "page size defaults to 20");
    for item in list {
        let pv = item["pageViews"].as_u64().unwrap();
        assert!((300..=5000).contains(&pv), "{item}");
        assert!((80..=99).contains(&item["percent"].as_u64().unwrap()));
        assert!((1..=5).contains(&item["rate"].as_u64().unwrap()));
        assert!(item["percentage"].as_u64().unwrap() <= 100);
        assert!(["published", "draft", "deleted"].contains(&item["status"].as_str().unwrap()));
        assert!(item["img"].as_str().unwrap().starts_with("demo/img-"));
    }
    let last = get(&ctx, "/table/getList?pageNo=3&pageSize=20", Some(&admin)).await;
    assert_eq!(last.data()["list"].as_array().unwrap().len(), 10);
    let title = list[0]["title"].as_str().unwrap().to_string();
    let found = get(&ctx, &format!("/table/getList?title={}", urlencode(&title)), Some(&admin)).await;
    assert!(found.data()["list"].as_array().unwrap().iter().all(|i| i["title"].as_str().unwrap().contains(&title)));
    assert!(found.data()["total"].as_u64().unwrap() >= 1);
    let again = get(&ctx, "/table/getList", Some(&admin)).await;
    assert_eq!(again.data(), first.data(), "the demo data is the same every time");
    let bad = get(&ctx, "/table/getList?pageSize=0", Some(&admin)).await;
    assert_eq!((bad.status, bad.msg().contains("pageSize")), (400, true));
}

fn urlencode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

#[tokio::test]
async fn table_edits_are_checked_then_simulated() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let saved = post(&ctx, "/table/doEdit", Some(&admin), json!({"id": "3", "title": "新的标题", "status": "draft"})).await;
    assert_eq!((saved.status, saved.msg()), (200, "Simulated save succeeded"));
    let zh = call_zh(&ctx, &admin).await;
    assert_eq!(zh, "模拟保存成功");
    for (body, says) in [
        (json!({"title": "  "}), "title is required"),
        (json!({"title": "x", "status": "archived"}), "status must be one of"),
        (json!({"id": 999, "title": "x"}), "no table item with id 999"),
    ] {
        let a = post(&ctx, "/table/doEdit", Some(&admin), body.clone()).await;
        assert_eq!(a.status, 400, "{body}");
        assert!(a.msg().contains(says), "{body}: {}", a.msg());
    }
    let deleted = post(&ctx, "/table/doDelete", Some(&admin), json!({"ids": "1,2"})).await;
    assert_eq!((deleted.status, deleted.msg()), (200, "Simulated delete succeeded"));
    let none = post(&ctx, "/table/doDelete", Some(&admin), json!({"ids": []})).await;
    assert_eq!(none.status, 400);
    let unknown = post(&ctx, "/table/doDelete", Some(&admin), json!({"ids": [1, 77]})).await;
    assert!(unknown.msg().contains("77"), "{}", unknown.msg());
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    assert_eq!(post(&ctx, "/table/doDelete", Some(&editor), json!({"ids": [1]})).await.status, 403, "deleting needs delete:system");
}

async fn call_zh(ctx: &backoffice::AppCtx, token: &str) -> String {
    let route = backoffice::routes::find(&http::Method::POST, "/table/doEdit").unwrap();
    let mut req = backoffice::ApiRequest::new(http::Method::POST, "/table/doEdit");
    req.headers.insert("authorization", format!("Bearer {token}").parse().unwrap());
    req.headers.insert("accept-language", "zh-CN,zh;q=0.9".parse().unwrap());
    req.body = bytes::Bytes::from(json!({"title": "标题"}).to_string());
    let resp = common::dispatch(ctx, route, req).await;
    serde_json::from_slice::<Value>(resp.body()).unwrap()["msg"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn goods_descriptions_and_icons() {
    let ctx = product().await;
    let test = login(&ctx, "test", TEST_PW).await;
    let goods = get(&ctx, "/goods/getList?pageSize=5", Some(&test)).await;
    assert_eq!(goods.data()["total"], 40);
    let first = &goods.data()["list"][0];
    for field in ["uuid", "image", "title", "price", "label", "company", "url", "description"] {
        assert!(first.get(field).is_some(), "goods item lacks {field}: {first}");
    }
    let all_goods = get(&ctx, "/goods/getList?pageSize=40", Some(&test)).await;
    for g in all_goods.data()["list"].as_array().unwrap() {
        let labels: Vec<&str> = g["label"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
        let unique: std::collections::HashSet<&&str> = labels.iter().collect();
        assert_eq!(unique.len(), labels.len(), "no label twice: {labels:?}");
    }
    let descriptions = get(&ctx, "/description/getList", Some(&test)).await;
    assert!(descriptions.data()["list"].as_array().unwrap().len() >= 3);
    let icons = get(&ctx, "/remixIcon/getList", Some(&test)).await;
    assert_eq!(icons.data()["list"].as_array().unwrap().len(), 72, "72 icons a page by default");
    assert!(icons.data()["total"].as_u64().unwrap() > 2000);
    let homes = get(&ctx, "/remixIcon/getList?title=home-2", Some(&test)).await;
    let names: Vec<&str> = homes.data()["list"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
    assert!(names.contains(&"home-2-line") && names.iter().all(|n| n.contains("home-2")), "{names:?}");
}

#[tokio::test]
async fn the_workflow_diagram_is_saved_whole_or_not_at_all() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let initial = get(&ctx, "/workflow/getList", Some(&admin)).await;
    assert_eq!(initial.data()["version"], 0);
    let types: Vec<&str> = initial.data()["nodes"].as_array().unwrap().iter().map(|n| n["type"].as_str().unwrap()).collect();
    for t in ["start", "rect", "user", "push", "download", "end"] {
        assert!(types.contains(&t), "the default diagram shows a {t} node");
    }
    let graph = json!({
        "version": 0,
        "nodes": [{"id": "a", "type": "start", "x": 10, "y": 10, "text": "开始"}, {"id": "b", "type": "end", "x": 90, "y": 10, "text": {"x": 90, "y": 10, "value": "结束"}}],
        "edges": [{"id": "e", "type": "polyline", "sourceNodeId": "a", "targetNodeId": "b", "pointsList": [{"x": 10, "y": 10}, {"x": 90, "y": 10}], "text": "Y"}]
    });
    let saved = post(&ctx, "/workflow/doEdit", Some(&admin), graph.clone()).await;
    assert_eq!((saved.status, saved.data()["version"].clone()), (200, json!(1)));
    let stale = post(&ctx, "/workflow/doEdit", Some(&admin), graph).await;
    assert_eq!(stale.status, 409, "a save over an old version is a conflict");
    let broken = post(&ctx, "/workflow/doEdit", Some(&admin), json!({"version": 1, "nodes": [{"id": "a", "type": "start", "x": 1, "y": 1}], "edges": [{"id": "e", "sourceNodeId": "a", "targetNodeId": "zz"}]})).await;
    assert_eq!(broken.status, 400);
    assert!(broken.msg().contains("missing node 'zz'"), "{}", broken.msg());
    let now = get(&ctx, "/workflow/getList", Some(&admin)).await;
    assert_eq!(now.data()["version"], 1);
    assert_eq!(now.data()["nodes"][1]["text"], "结束");
    assert_eq!(now.data()["edges"].as_array().unwrap().len(), 1, "the refused save changed nothing");
    let test_user_is_admin_editor = login(&ctx, "test", TEST_PW).await;
    assert_eq!(post(&ctx, "/workflow/doEdit", Some(&test_user_is_admin_editor), json!({})).await.status, 400);
}
