//! Server-side permission checks of the route table and the role-filtered
//! route tree (spec point 6).

mod common;

use common::*;
use serde_json::{json, Value};

fn paths(routes: &[Value], parent: &str, out: &mut Vec<String>) {
    for r in routes {
        let p = r["path"].as_str().unwrap_or_default();
        let full = if p.starts_with('/') || p.contains(':') && !p.starts_with(':') {
            p.to_string()
        } else if parent.ends_with('/') {
            format!("{parent}{p}")
        } else {
            format!("{parent}/{p}")
        };
        out.push(full.clone());
        if let Some(children) = r["children"].as_array() {
            paths(children, &full, out);
        }
    }
}

async fn visible_paths(ctx: &backoffice::AppCtx, user: &str, pw: &str) -> Vec<String> {
    let token = login(ctx, user, pw).await;
    let a = get(ctx, "/router/getList", Some(&token)).await;
    assert_eq!(a.code(), 200);
    let list = a.data()["list"].as_array().expect("data.list is an array").clone();
    let mut out = Vec::new();
    paths(&list, "", &mut out);
    out
}

#[tokio::test]
async fn editor_sees_no_admin_only_or_table_routes_admin_sees_all() {
    let ctx = product().await;
    let admin = visible_paths(&ctx, "admin", ADMIN_PW).await;
    let editor = visible_paths(&ctx, "editor", EDITOR_PW).await;
    let test = visible_paths(&ctx, "test", TEST_PW).await;
    assert!(admin.iter().any(|p| p == "/setting"), "{admin:?}");
    assert!(admin.iter().any(|p| p == "/vab/table"), "{admin:?}");
    assert!(!editor.iter().any(|p| p.starts_with("/setting")), "editor must not see settings: {editor:?}");
    assert!(!editor.iter().any(|p| p.starts_with("/vab/table")), "table excludes Editor: {editor:?}");
    assert!(!editor.iter().any(|p| p.starts_with("/mall")), "{editor:?}");
    assert!(editor.iter().any(|p| p == "/index"), "{editor:?}");
    assert_eq!(test, admin, "test is Admin+Editor and admin always passes");
    assert!(editor.len() < admin.len());
}

#[tokio::test]
async fn notices_need_read_permission_and_publishing_needs_write() {
    let ctx = product().await;
    let reg = post(&ctx, "/register", None, json!({"username": "visitor", "password": "bright-harbour-71"})).await;
    let visitor = reg.data()["token"].as_str().unwrap().to_string();
    assert_eq!(get(&ctx, "/notice/getList", Some(&visitor)).await.status, 403);
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let list = get(&ctx, "/notice/getList", Some(&editor)).await;
    assert_eq!(list.code(), 200);
    assert_eq!(list.data()["total"], 3);
    let published = post(&ctx, "/notice/doEdit", Some(&editor), json!({"type": "notice", "notice": "<b>ok</b><script>alert(1)</script>"})).await;
    assert_eq!(published.code(), 200, "{:?}", published.body);
    assert_eq!(published.data()["notice"], "<b>ok</b>");
    let denied = post(&ctx, "/notice/doEdit", Some(&visitor), json!({"notice": "x"})).await;
    assert_eq!(denied.status, 403);
    let empty = post(&ctx, "/notice/doEdit", Some(&editor), json!({"notice": "<script>x</script>"})).await;
    assert_eq!(empty.status, 400);
    assert_eq!(get(&ctx, "/notice/getList", Some(&editor)).await.data()["total"], 4, "only the valid notice was written");
}

#[tokio::test]
async fn search_offers_only_pages_the_caller_may_open() {
    let ctx = product().await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let for_editor = get(&ctx, "/search/getList?keyword=", Some(&editor)).await;
    let for_admin = get(&ctx, "/search/getList?keyword=", Some(&admin)).await;
    let urls = |a: &Answer| -> Vec<String> {
        a.data()["list"].as_array().unwrap().iter().map(|e| e["url"].as_str().unwrap().to_string()).collect()
    };
    assert!(urls(&for_editor).iter().all(|u| !u.starts_with("#/setting")), "{:?}", urls(&for_editor));
    assert!(!urls(&for_admin).is_empty());
    let orders = get(&ctx, "/search/getList?keyword=orderindex", Some(&editor)).await;
    assert_eq!(urls(&orders), vec!["#/order/orderindex".to_string()]);
}

#[tokio::test]
async fn every_write_is_recorded_in_the_system_log() {
    let ctx = product().await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    post(&ctx, "/notice/doEdit", Some(&editor), json!({"notice": "hello"})).await;
    post(&ctx, "/login/index", None, json!({"username": "editor", "password": "wrong-one"})).await;
    let page = ctx
        .store
        .query(store::Query::index(store::Index::Gsi2, "LOG#ACCOUNT#editor").backward())
        .await
        .unwrap();
    let results: Vec<(String, String)> = page
        .items
        .iter()
        .map(|i| (i["path"].as_str().unwrap().to_string(), i["executeResult"].as_str().unwrap().to_string()))
        .collect();
    // The wrong password typed for "editor" proved nothing: it is listed as
    // anonymous (with the claim marked), not in the editor's name.
    assert_eq!(results[0], ("/notice/doEdit".into(), "success".into()));
    assert_eq!(results[1], ("/login/index".into(), "success".into()));
    let anonymous = ctx.store.query(store::Query::index(store::Index::Gsi2, "LOG#ACCOUNT#anonymous").backward()).await.unwrap();
    let failed = &anonymous.items[0];
    assert_eq!(failed["path"], "/login/index");
    assert_eq!(failed["executeResult"], "failure 400: bad request: the request has an error");
    assert_eq!(failed["claimedAccount"], "editor");
}
