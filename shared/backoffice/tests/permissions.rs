//! Server-side permission checks of the route table and the role-filtered
//! route tree (an admin passes every guard; the tree drops what a caller may not see).

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

/// The template's demo pages exist only while the setting is on: off, no
/// role is sent them (Test included), their data endpoints answer 404 like
/// unknown paths, and the header search does not offer them.
#[tokio::test]
async fn demo_pages_are_behind_a_setting_the_server_enforces() {
    let demo = |paths: &[String]| paths.iter().filter(|p| ["/vab", "/other", "/mall", "/error", "/dashboard", "/workbench"].iter().any(|d| p.starts_with(d))).cloned().collect::<Vec<_>>();
    let on = product().await;
    assert!(!demo(&visible_paths(&on, "test", TEST_PW).await).is_empty(), "on in demo mode (development)");
    let off = product_with(&[("BACKOFFICE_DEMO_PAGES", "0")]).await;
    for (user, pw) in [("admin", ADMIN_PW), ("editor", EDITOR_PW), ("test", TEST_PW)] {
        let seen = visible_paths(&off, user, pw).await;
        assert_eq!(demo(&seen), Vec::<String>::new(), "{user}");
        assert!(seen.iter().any(|p| p == "/order/orderindex"), "{user}: {seen:?}");
    }
    let admin = login(&off, "admin", ADMIN_PW).await;
    for path in ["/table/getList", "/goods/getList", "/remixIcon/getList", "/workflow/getList"] {
        let a = get(&off, path, Some(&admin)).await;
        assert_eq!(a.status, 404, "{path}: {:?}", a.body);
        assert!(a.msg().contains("no such API endpoint"), "{}", a.msg());
        assert_eq!(get(&on, path, Some(&login(&on, "admin", ADMIN_PW).await)).await.status, 200, "{path} while on");
    }
    assert_eq!(post(&off, "/table/doEdit", None, json!({"title": "x"})).await.status, 404, "not even a 401: the endpoint is not there");
    let urls = get(&off, "/search/getList?keyword=", Some(&admin)).await.data()["list"].to_string();
    assert!(!urls.contains("#/vab") && !urls.contains("#/other"), "{urls}");
    // Production: off unless asked for; demo data turns them on.
    let config = |vars: &[(&str, &str)]| {
        let vars: std::collections::HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        backoffice::config::Config::from_lookup(|k| vars.get(k).cloned()).unwrap().demo_pages
    };
    let secret = ("BACKOFFICE_JWT_SECRET", "a-production-secret-of-32-chars-or-more!!");
    assert!(!config(&[("BACKOFFICE_ENV", "production"), secret]));
    assert!(config(&[("BACKOFFICE_ENV", "production"), secret, ("BACKOFFICE_DEMO_DATA", "1")]));
    assert!(!config(&[("BACKOFFICE_DEMO_DATA", "1"), ("BACKOFFICE_DEMO_PAGES", "0")]));
}

/// An Editor opening user management: the server says which permission
/// is missing (message and `data.permission`, in the reader's language),
/// and the route list names the page as forbidden (the SPA shows 403 with
/// what it needs, not 404).
#[tokio::test]
async fn a_403_says_which_permission_is_missing() {
    let ctx = product().await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let a = get(&ctx, "/userManagement/getList", Some(&editor)).await;
    assert_eq!(a.status, 403);
    assert_eq!(a.data()["permission"], "manage:settings");
    assert!(a.msg().contains("manage:settings") && a.msg().contains("manage the system settings"), "{}", a.msg());
    let zh = get_in(&ctx, "/userManagement/getList", &editor, "zh-CN").await;
    assert_eq!(zh.body["msg"], "没有访问权限：需要“管理系统设置（用户、角色、菜单、系统日志）”权限（manage:settings），您的角色没有该权限，请联系管理员开通");
    let routes = get(&ctx, "/router/getList", Some(&editor)).await;
    let forbidden = routes.data()["forbidden"].as_array().unwrap();
    let users = forbidden.iter().find(|p| p["path"] == "/setting/userManagement").expect("listed as forbidden");
    assert_eq!((users["title"].as_str(), users["needsZh"].as_str(), users["needsEn"].as_str()), (Some("用户管理"), Some("角色 Admin"), Some("the role Admin")));
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    assert_eq!(get(&ctx, "/router/getList", Some(&admin)).await.data()["forbidden"], json!([]));
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

/// The header search finds pages by their English title too, and the
/// records staff look up: an order by number, a station by name or code, a
/// pile by code, a card by number, each opening its page; a web search when
/// nothing matches; records only for callers who may read them.
#[tokio::test]
async fn search_finds_pages_in_both_languages_and_the_records_staff_look_up() {
    let ctx = product().await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let hits = |a: &Answer| -> Vec<(String, String, String)> {
        a.data()["list"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["kind"].as_str().unwrap().to_string(), e["value"].as_str().unwrap().to_string(), e["url"].as_str().unwrap_or("").to_string()))
            .collect()
    };
    let search = |keyword: String| {
        let ctx = ctx.clone();
        let editor = editor.clone();
        async move { get(&ctx, &format!("/search/getList?keyword={}", url::form_urlencoded::byte_serialize(keyword.as_bytes()).collect::<String>()), Some(&editor)).await }
    };

    // English titles: "charging orders" is 充电订单's English name.
    let english = search("Charging orders".into()).await;
    assert!(hits(&english).iter().any(|(k, v, u)| k == "page" && v == "充电订单" && u == "#/order/orderindex"), "{:?}", hits(&english));

    // An order by its number, in any letter case.
    let orders = get(&ctx, "/order/getList?pageSize=1", Some(&editor)).await;
    let no = orders.data()["list"][0]["orderNo"].as_str().unwrap().to_string();
    let found = search(no.to_lowercase()).await;
    assert_eq!(hits(&found)[0].0, "order", "{:?}", hits(&found));
    assert_eq!(hits(&found)[0].2, format!("#/order/detail?id={no}"));

    // A station by the start of its name and by its code; a pile by code.
    let stations = get(&ctx, "/station/getList?pageSize=1", Some(&editor)).await;
    let station = &stations.data()["list"][0];
    let (id, name, code) = (station["id"].as_str().unwrap(), station["name"].as_str().unwrap(), station["code"].as_str().unwrap());
    let detail = format!("#/connector/stationdetail?id={id}");
    let by_name = search(name.chars().take(3).collect()).await;
    assert!(hits(&by_name).iter().any(|(k, _, u)| k == "station" && *u == detail), "{:?}", hits(&by_name));
    let by_code = search(code.to_lowercase()).await;
    assert!(hits(&by_code).iter().any(|(k, v, u)| k == "station" && *u == detail && v.contains(name)), "{:?}", hits(&by_code));
    let piles = get(&ctx, &format!("/pile/getList?stationId={id}"), Some(&editor)).await;
    let pile_code = piles.data()["list"][0]["code"].as_str().unwrap().to_string();
    let pile = search(pile_code.clone()).await;
    assert!(hits(&pile).iter().any(|(k, v, u)| k == "pile" && *u == detail && v.contains(&pile_code)), "{:?}", hits(&pile));

    // A card by its number.
    let cards = get(&ctx, "/card/getList?pageSize=1", Some(&editor)).await;
    let tag = cards.data()["list"][0]["idTag"].as_str().unwrap().to_string();
    let card = search(tag.clone()).await;
    assert!(hits(&card).iter().any(|(k, _, u)| k == "card" && u.contains(&tag)), "{:?}", hits(&card));

    // Nothing matches: one web search of the keyword, without a url.
    let nothing = search("qqzzxxnothing".into()).await;
    assert_eq!(hits(&nothing), vec![("web".to_string(), "qqzzxxnothing".to_string(), String::new())]);

    // Someone without read permission finds no record.
    let newcomer = post(&ctx, "/register", None, json!({"username": "newcomer", "password": "bright-harbour-71", "email": "n@ev.example"})).await;
    let token = newcomer.data()["token"].as_str().unwrap().to_string();
    let blind = get(&ctx, &format!("/search/getList?keyword={no}"), Some(&token)).await;
    assert!(hits(&blind).iter().all(|(k, _, _)| k == "web" || k == "page"), "{:?}", hits(&blind));

    // Answers in the caller's language.
    let en = call_from_lang(&ctx, &format!("/search/getList?keyword={no}"), &editor, "en").await;
    assert!(en.data()["list"][0]["value"].as_str().unwrap().starts_with("Order "), "{:?}", en.body);
    let zh = call_from_lang(&ctx, &format!("/search/getList?keyword={no}"), &editor, "zh-CN").await;
    assert!(zh.data()["list"][0]["value"].as_str().unwrap().starts_with("订单 "), "{:?}", zh.body);
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

/// A signed-in GET with an Accept-Language header.
async fn call_from_lang(ctx: &backoffice::AppCtx, path_and_query: &str, token: &str, lang: &str) -> Answer {
    let (path, query) = path_and_query.split_once('?').map_or((path_and_query, None), |(p, q)| (p, Some(q)));
    let route = backoffice::routes::find(&http::Method::GET, path).unwrap();
    let mut req = backoffice::ApiRequest::new(http::Method::GET, path).with_query_string(query);
    req.headers.insert("authorization", format!("Bearer {token}").parse().unwrap());
    req.headers.insert("accept-language", lang.parse().unwrap());
    let resp = common::dispatch(ctx, route, req).await;
    Answer { status: resp.status().as_u16(), body: serde_json::from_slice(resp.body()).unwrap() }
}

/// Publishing, editing, withdrawing, and what each user read and cleared,
/// through the real dispatch on the given store (SQLite and DynamoDB).
async fn notices_are_published_and_each_user_keeps_their_own_state(ctx: std::sync::Arc<backoffice::AppCtx>) {
    let ctx = &*ctx;
    let editor = login(ctx, "editor", EDITOR_PW).await;
    let admin = login(ctx, "admin", ADMIN_PW).await;
    let made = post(ctx, "/userManagement/doEdit", Some(&admin), json!({"username": "reader", "roles": ["Test"], "password": "quiet-meadow-4821"})).await;
    assert_eq!(made.status, 200, "{:?}", made.body);
    let reader = login(ctx, "reader", "quiet-meadow-4821").await;

    // Publish: sanitised, the author kept, version 1.
    let published = post(ctx, "/notice/doEdit", Some(&editor), json!({"type": "notice", "notice": "<b>maintenance</b><script>x</script>", "email": "ops@example.com"})).await;
    assert_eq!(published.status, 200, "{:?}", published.body);
    let n = published.data().clone();
    let id = n["id"].as_str().unwrap().to_string();
    assert_eq!((n["notice"].as_str(), n["author"].as_str(), n["version"].as_i64()), (Some("<b>maintenance</b>"), Some("editor"), Some(1)));
    let listed = |a: &Answer| a.data()["list"].as_array().unwrap().iter().find(|x| x["id"] == id.as_str()).cloned();
    let for_admin = get(ctx, "/notice/getList", Some(&admin)).await;
    assert_eq!((for_admin.data()["total"].as_i64(), for_admin.data()["unread"].as_i64()), (Some(4), Some(4)));
    assert_eq!(listed(&for_admin).unwrap()["read"], false);

    // Read only: the reader may read and clear, not publish, edit, withdraw or manage.
    assert_eq!(post(ctx, "/notice/doEdit", Some(&reader), json!({"notice": "x"})).await.status, 403);
    assert_eq!(post(ctx, "/notice/withdraw", Some(&reader), json!({"id": id})).await.status, 403);
    assert_eq!(get(ctx, "/notice/manageList", Some(&reader)).await.status, 403);

    // Edit over the version loaded; a stale version changes nothing.
    let edited = post(ctx, "/notice/doEdit", Some(&admin), json!({"id": id, "version": 1, "type": "email", "notice": "maintenance <i>moved</i>"})).await;
    assert_eq!(edited.status, 200, "{:?}", edited.body);
    assert_eq!((edited.data()["version"].as_i64(), edited.data()["type"].as_str(), edited.data()["author"].as_str()), (Some(2), Some("email"), Some("editor")));
    let stale = post(ctx, "/notice/doEdit", Some(&editor), json!({"id": id, "version": 1, "notice": "lost update"})).await;
    assert_eq!(stale.status, 409, "{:?}", stale.body);
    assert_eq!(post(ctx, "/notice/doEdit", Some(&editor), json!({"id": id, "notice": "no version"})).await.status, 400);
    assert_eq!(post(ctx, "/notice/doEdit", Some(&editor), json!({"id": "nope", "version": 1, "notice": "x"})).await.status, 400);
    assert_eq!(post(ctx, "/notice/doEdit", Some(&editor), json!({"id": id, "version": 2, "notice": "<script>x</script>"})).await.status, 400, "empty once cleaned");
    let missing = format!("000000000001#{}", "0".repeat(32));
    assert_eq!(post(ctx, "/notice/doEdit", Some(&editor), json!({"id": missing, "version": 1, "notice": "x"})).await.status, 404);
    assert_eq!(listed(&get(ctx, "/notice/getList", Some(&reader)).await).unwrap()["notice"], "maintenance <i>moved</i>", "refused edits changed nothing");

    // Reading is per user.
    assert_eq!(post(ctx, "/notice/read", Some(&admin), json!({"ids": [id]})).await.status, 200);
    let for_admin = get(ctx, "/notice/getList", Some(&admin)).await;
    assert_eq!((listed(&for_admin).unwrap()["read"].as_bool(), for_admin.data()["unread"].as_i64()), (Some(true), Some(3)));
    assert_eq!(listed(&get(ctx, "/notice/getList", Some(&editor)).await).unwrap()["read"], false, "the editor has not read it");
    assert_eq!(post(ctx, "/notice/read", Some(&admin), json!({"ids": []})).await.status, 400);
    assert_eq!(post(ctx, "/notice/read", Some(&admin), json!({"ids": vec![id.clone(); 51]})).await.status, 400);
    assert_eq!(post(ctx, "/notice/read", Some(&admin), json!({"ids": [id, missing]})).await.status, 404, "all or nothing");
    assert_eq!(post(ctx, "/notice/read", Some(&admin), json!({"ids": "x"})).await.status, 400);

    // Clear all is per user too, and later notices appear as usual.
    assert_eq!(post(ctx, "/notice/clearAll", Some(&reader), json!({})).await.status, 200);
    assert_eq!(get(ctx, "/notice/getList", Some(&reader)).await.data()["total"], 0);
    assert_eq!(get(ctx, "/notice/getList", Some(&admin)).await.data()["total"], 4, "the others keep theirs");
    let later = post(ctx, "/notice/doEdit", Some(&editor), json!({"notice": "later"})).await;
    let later_id = later.data()["id"].as_str().unwrap().to_string();
    let for_reader = get(ctx, "/notice/getList", Some(&reader)).await;
    assert_eq!(for_reader.data()["list"].as_array().unwrap().iter().map(|x| x["id"].as_str().unwrap()).collect::<Vec<_>>(), vec![later_id.as_str()]);
    assert_eq!(for_reader.data()["unread"], 1);

    // The publishers' list has every notice, whatever they cleared.
    assert_eq!(post(ctx, "/notice/clearAll", Some(&editor), json!({})).await.status, 200);
    let managed = get(ctx, "/notice/manageList", Some(&editor)).await;
    assert_eq!(managed.status, 200);
    assert_eq!(managed.data()["list"].as_array().unwrap().len(), 5);

    // Withdraw: gone from every list; a second time 404.
    assert_eq!(post(ctx, "/notice/withdraw", Some(&editor), json!({"id": id})).await.status, 200);
    assert!(listed(&get(ctx, "/notice/getList", Some(&admin)).await).is_none());
    assert_eq!(get(ctx, "/notice/manageList", Some(&admin)).await.data()["list"].as_array().unwrap().len(), 4);
    assert_eq!(post(ctx, "/notice/withdraw", Some(&editor), json!({"id": id})).await.status, 404);
    assert_eq!(post(ctx, "/notice/withdraw", Some(&editor), json!({})).await.status, 400);
}

#[tokio::test]
async fn notices_on_sqlite() {
    notices_are_published_and_each_user_keeps_their_own_state(product().await).await;
}

#[tokio::test]
async fn notices_on_dynamodb() {
    let Some(table) = dynamo_table("notices").await else { return };
    // moto answers slowly: the tokens must outlive the whole test.
    let ctx = product_on_dynamo(table.clone(), &[("BACKOFFICE_ACCESS_TOKEN_TTL", "900")]).await;
    notices_are_published_and_each_user_keeps_their_own_state(ctx).await;
    table.delete_table().await.ok();
}
