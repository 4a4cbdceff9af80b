//! The /setting endpoints: staff accounts, roles, the system log and the
//! personal profile, with their refusal rules.

mod common;

use common::*;
use serde_json::{json, Value};

#[tokio::test]
async fn admin_creates_an_editor_who_signs_in_with_editor_rights() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let created = post(&ctx, "/userManagement/doEdit", Some(&admin), json!({"username": "li.na", "email": "li.na@example.com", "roles": ["Editor"], "password": "secret-lantern-123"})).await;
    assert_eq!(created.status, 200, "{:?}", created.body);
    assert!(created.data().get("passwordHash").is_none(), "the hash never leaves the server");
    let token = login(&ctx, "li.na", "secret-lantern-123").await;
    let info = get(&ctx, "/index/userInfo", Some(&token)).await;
    assert_eq!(info.data()["roles"], json!(["Editor"]));
    let list = get(&ctx, "/userManagement/getList?username=li", Some(&admin)).await;
    assert_eq!(list.data()["total"], 1);
    assert_eq!(list.data()["list"][0]["username"], "li.na");
    assert!(list.data()["list"][0]["datatime"].as_str().unwrap().len() == 19);
    let all = get(&ctx, "/userManagement/getList?pageSize=2", Some(&admin)).await;
    assert_eq!((all.data()["total"].clone(), all.data()["list"].as_array().unwrap().len()), (json!(4), 2));
    let roles = get(&ctx, "/roleManagement/getList", Some(&admin)).await;
    let editor = roles.data()["list"].as_array().unwrap().iter().find(|r| r["role"] == "Editor").unwrap().clone();
    assert_eq!(editor["userCount"], 3, "editor, test and li.na hold Editor");
}

#[tokio::test]
async fn account_edits_are_checked_and_nothing_is_written_on_error() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    // The user dialog shows the policy's words beside the field it names.
    for (body, says, field) in [
        (json!({"username": "x", "password": "secret-lantern-123"}), "2 to 32", Some("username")),
        (json!({"username": "newbie", "password": "123"}), "password", Some("password")),
        (json!({"username": "newbie", "password": "1qaz2wsx3edc"}), "common", Some("password")),
        (json!({"username": "newbie", "password": "secret-lantern-123", "email": "not-mail"}), "e-mail", Some("email")),
        (json!({"username": "newbie", "password": "secret-lantern-123", "roles": ["Ghost"]}), "no role named 'Ghost'", None),
        (json!({"username": "editor", "password": "secret-lantern-123"}), "already taken", None),
    ] {
        let a = post(&ctx, "/userManagement/doEdit", Some(&admin), body.clone()).await;
        assert!(matches!(a.status, 400 | 409), "{body}: {:?}", a.body);
        assert!(a.msg().contains(says), "{body}: {}", a.msg());
        if let Some(field) = field {
            assert_eq!(a.data()["fields"][0]["field"], field, "{body}: {:?}", a.body);
            assert!(a.data()["fields"][0]["zh"].as_str().is_some_and(|z| !z.is_empty()), "{:?}", a.body);
        }
    }
    assert_eq!(get(&ctx, "/userManagement/getList?username=newbie", Some(&admin)).await.data()["total"], 0, "no half-created account");
    let roles = get(&ctx, "/roleManagement/getList", Some(&admin)).await;
    let counts: Vec<i64> = roles.data()["list"].as_array().unwrap().iter().map(|r| r["userCount"].as_i64().unwrap()).collect();
    assert_eq!(counts.iter().sum::<i64>(), 4, "role counters unchanged by refused edits: {counts:?}");
}

#[tokio::test]
async fn version_conflicts_and_the_last_admin_rule() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let list = get(&ctx, "/userManagement/getList?username=editor", Some(&admin)).await;
    let version = list.data()["list"][0]["version"].as_i64().unwrap();
    let edit = |email: &str| json!({"username": "editor", "email": email, "roles": ["Editor"], "version": version});
    assert_eq!(post(&ctx, "/userManagement/doEdit", Some(&admin), edit("a@example.com")).await.status, 200);
    let stale = post(&ctx, "/userManagement/doEdit", Some(&admin), edit("b@example.com")).await;
    assert_eq!(stale.status, 409, "an edit from an old version is refused");
    assert!(stale.msg().contains("changed by someone else"));

    assert_eq!(post(&ctx, "/userManagement/doDelete", Some(&admin), json!({"username": "admin"})).await.status, 400, "not yourself");
    // test holds Admin too: it can go, then admin is the last admin.
    assert_eq!(post(&ctx, "/userManagement/doDelete", Some(&admin), json!({"username": "test"})).await.status, 200);
    let me = get(&ctx, "/userManagement/getList?username=admin", Some(&admin)).await.data()["list"][0].clone();
    let demote_myself = post(&ctx, "/userManagement/doEdit", Some(&admin), json!({"username": "admin", "roles": ["Editor"], "version": me["version"]})).await;
    assert_eq!(demote_myself.status, 400);
    let other_admin = post(&ctx, "/userManagement/doEdit", Some(&admin), json!({"username": "boss", "roles": ["Admin"], "password": "secret-lantern-123"})).await;
    assert_eq!(other_admin.status, 200);
    let boss = login(&ctx, "boss", "secret-lantern-123").await;
    // Two admins delete each other at once: exactly one may win.
    let (a, b) = tokio::join!(
        post(&ctx, "/userManagement/doDelete", Some(&admin), json!({"username": "boss"})),
        post(&ctx, "/userManagement/doDelete", Some(&boss), json!({"username": "admin"})),
    );
    let winners = [a.status, b.status].iter().filter(|s| **s == 200).count();
    assert_eq!(winners, 1, "{:?} / {:?}", a.body, b.body);
    let loser = if a.status == 200 { &b } else { &a };
    assert!(matches!(loser.status, 401 | 409), "the loser is refused: {:?}", loser.body);
}

#[tokio::test]
async fn roles_in_use_cannot_be_renamed_or_deleted() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let made = post(&ctx, "/roleManagement/doEdit", Some(&admin), json!({"role": "Finance", "permissions": ["read:system", "approve:refund"]})).await;
    assert_eq!(made.status, 200, "{:?}", made.body);
    let bad = post(&ctx, "/roleManagement/doEdit", Some(&admin), json!({"role": "Auditor", "permissions": ["read:everything"]})).await;
    assert!(bad.status == 400 && bad.msg().contains("not a permission"), "{:?}", bad.body);
    assert_eq!(post(&ctx, "/roleManagement/doEdit", Some(&admin), json!({"role": "Finance", "permissions": []})).await.status, 409, "exists");
    let renamed = post(&ctx, "/roleManagement/doEdit", Some(&admin), json!({"role": "Accounts", "oldRole": "Finance", "permissions": ["read:system"], "version": 1})).await;
    assert_eq!(renamed.status, 200, "an unused role may be renamed: {:?}", renamed.body);
    assert_eq!(post(&ctx, "/userManagement/doEdit", Some(&admin), json!({"username": "wang", "roles": ["Accounts"], "password": "secret-lantern-123"})).await.status, 200);
    let rename_in_use = post(&ctx, "/roleManagement/doEdit", Some(&admin), json!({"role": "Money", "oldRole": "Accounts", "permissions": [], "version": 2})).await;
    assert_eq!(rename_in_use.status, 409);
    assert!(rename_in_use.msg().contains("held by 1 user"), "{}", rename_in_use.msg());
    let delete_in_use = post(&ctx, "/roleManagement/doDelete", Some(&admin), json!({"role": "Accounts"})).await;
    assert_eq!(delete_in_use.status, 409);
    assert_eq!(post(&ctx, "/userManagement/doDelete", Some(&admin), json!({"username": "wang"})).await.status, 200);
    assert_eq!(post(&ctx, "/roleManagement/doDelete", Some(&admin), json!({"role": "Accounts"})).await.status, 200, "unused now");
    let wang_token_gone = post(&ctx, "/login/index", None, json!({"username": "wang", "password": "secret-lantern-123"})).await;
    assert_eq!(wang_token_gone.status, 400, "a deleted account cannot sign in");
}

#[tokio::test]
async fn editors_and_testers_are_refused_every_settings_call() {
    let ctx = product().await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    for path in ["/userManagement/getList", "/roleManagement/getList", "/systemLog/getList"] {
        assert_eq!(get(&ctx, path, Some(&editor)).await.status, 403, "{path}");
    }
    let reset = post(&ctx, "/userManagement/resetPassword", Some(&editor), json!({"username": "admin", "password": "taken-over-lantern-1"})).await;
    assert_eq!(reset.status, 403, "an editor cannot take over the admin account");
    login(&ctx, "admin", ADMIN_PW).await;
}

#[tokio::test]
async fn a_reset_password_works_at_once_and_ends_old_sessions() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let editor_session = login(&ctx, "editor", EDITOR_PW).await;
    let reset = post(&ctx, "/userManagement/resetPassword", Some(&admin), json!({"username": "editor", "password": "fresh-lantern-pass-9"})).await;
    assert_eq!(reset.status, 200);
    assert_eq!(get(&ctx, "/index/userInfo", Some(&editor_session)).await.status, 401, "old sessions end");
    login(&ctx, "editor", "fresh-lantern-pass-9").await;
    assert_eq!(post(&ctx, "/userManagement/resetPassword", Some(&admin), json!({"username": "editor", "password": "12"})).await.status, 400);
    // Not one's own: a stolen session must not be able to take the account over.
    let own = post(&ctx, "/userManagement/resetPassword", Some(&admin), json!({"username": "ADMIN", "password": "taken-over-lantern-1"})).await;
    assert_eq!(own.status, 400);
    assert!(own.msg().contains("personal center"), "{}", own.msg());
    assert_eq!(get(&ctx, "/index/userInfo", Some(&admin)).await.status, 200, "the session goes on");
    login(&ctx, "admin", ADMIN_PW).await;
}

#[tokio::test]
async fn the_system_log_pages_newest_first_with_totals() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    for i in 0..5 {
        post(&ctx, "/table/doEdit", Some(&admin), json!({"title": format!("t{i}")})).await;
    }
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    drop(editor);
    let all = get(&ctx, "/systemLog/getList?pageSize=3", Some(&admin)).await;
    assert_eq!(all.status, 200);
    let total = all.data()["total"].as_i64().unwrap();
    assert!(total >= 7, "two sign-ins and five edits at least: {total}");
    assert_eq!(all.data()["list"][0]["account"], "editor", "newest first");
    let mine = get(&ctx, "/systemLog/getList?account=ADMIN&pageSize=2&pageNo=2", Some(&admin)).await;
    assert_eq!(mine.data()["total"], 6, "admin: one sign-in and five edits");
    let entries = mine.data()["list"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    assert!(entries.iter().all(|e| e["account"] == "admin" && e["path"] == "/table/doEdit"));
    let next = mine.data()["cursor"].as_str().unwrap().to_string();
    let rest = get(&ctx, &format!("/systemLog/getList?account=admin&pageSize=10&cursor={next}"), Some(&admin)).await;
    assert_eq!(rest.data()["list"].as_array().unwrap().len(), 2, "the cursor continues after page 2");
    assert_eq!(get(&ctx, "/systemLog/getList?pageNo=500&pageSize=20", Some(&admin)).await.status, 400, "numbered pages are bounded");
}

#[tokio::test]
async fn the_profile_takes_safe_values_only() {
    let ctx = product().await;
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let ok = post(&ctx, "/user/updateProfile", Some(&editor), json!({"email": "ed@example.com", "avatar": "https://cdn.example.com/a.png"})).await;
    assert_eq!(ok.status, 200);
    assert_eq!(get(&ctx, "/index/userInfo", Some(&editor)).await.data()["avatar"], "https://cdn.example.com/a.png");
    for avatar in ["javascript:alert(1)", "//evil.example/x.png", "data:text/html,<script>"] {
        let a = post(&ctx, "/user/updateProfile", Some(&editor), json!({"avatar": avatar})).await;
        assert_eq!(a.status, 400, "{avatar}");
    }
    assert_eq!(get(&ctx, "/index/userInfo", Some(&editor)).await.data()["avatar"], "https://cdn.example.com/a.png", "refused edits changed nothing");
}

#[tokio::test]
async fn departments_form_a_tree_without_cycles_and_keep_their_members() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let seeded = get(&ctx, "/departmentManagement/getList", Some(&admin)).await;
    assert_eq!(seeded.data()["total"], 5);
    let head = seeded.data()["list"][0].clone();
    assert_eq!((head["name"].as_str(), head["children"].as_array().unwrap().len()), (Some("总部"), 4));
    assert_eq!(head["children"][0]["parentName"], "总部");
    let ops_id = head["children"][0]["id"].as_str().unwrap().to_string();
    let made = post(&ctx, "/departmentManagement/doEdit", Some(&admin), json!({"parentId": ops_id, "name": "华东大区", "order": 1})).await;
    assert_eq!(made.status, 200, "{:?}", made.body);
    let east = made.data()["id"].as_str().unwrap().to_string();
    let dup = post(&ctx, "/departmentManagement/doEdit", Some(&admin), json!({"parentId": ops_id, "name": "华东大区"})).await;
    assert_eq!(dup.status, 409);
    let cycle = post(&ctx, "/departmentManagement/doEdit", Some(&admin), json!({"id": ops_id, "parentId": east, "name": "运营部", "version": 1})).await;
    assert_eq!(cycle.status, 400);
    assert!(cycle.msg().contains("under itself"), "{}", cycle.msg());
    let orphan = post(&ctx, "/departmentManagement/doEdit", Some(&admin), json!({"parentId": "nope", "name": "X"})).await;
    assert!(orphan.status == 400 && orphan.msg().contains("no department"), "{:?}", orphan.body);

    assert_eq!(post(&ctx, "/departmentManagement/doDelete", Some(&admin), json!({"id": ops_id})).await.status, 409, "has a child");
    let joined = post(&ctx, "/userManagement/doEdit", Some(&admin), json!({"username": "zhou", "roles": ["Editor"], "departmentId": east, "password": "secret-lantern-123"})).await;
    assert_eq!(joined.status, 200, "{:?}", joined.body);
    let ghost_dept = post(&ctx, "/userManagement/doEdit", Some(&admin), json!({"username": "qian", "departmentId": "missing", "password": "secret-lantern-123"})).await;
    assert!(ghost_dept.status == 400 && ghost_dept.msg().contains("no department"), "{:?}", ghost_dept.body);
    let busy = post(&ctx, "/departmentManagement/doDelete", Some(&admin), json!({"id": east})).await;
    assert!(busy.status == 409 && busy.msg().contains("users"), "{:?}", busy.body);
    assert_eq!(post(&ctx, "/userManagement/doDelete", Some(&admin), json!({"username": "zhou"})).await.status, 200);
    assert_eq!(post(&ctx, "/departmentManagement/doDelete", Some(&admin), json!({"id": east})).await.status, 200, "empty now");
    assert_eq!(post(&ctx, "/departmentManagement/doDelete", Some(&admin), json!({"id": ops_id})).await.status, 200, "its child is gone");
    assert_eq!(get(&ctx, "/departmentManagement/getList", Some(&admin)).await.data()["total"], 4);
}

#[tokio::test]
async fn menu_edits_are_checked_and_reach_the_sidebar() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let menus = get(&ctx, "/menuManagement/getList", Some(&admin)).await;
    let version = menus.data()["version"].as_i64().unwrap();
    assert!(menus.data()["total"].as_u64().unwrap() > 50);
    assert!(menus.data()["components"].as_array().unwrap().iter().any(|c| c == "order/orderindex"));
    let order_list = json!({"path": "orderindex", "name": "OrderIndex", "component": "order/orderindex", "meta": {"title": "充电订单", "icon": "file-list-line"}});
    let renamed = post(&ctx, "/menuManagement/doEdit", Some(&admin), json!({"originalName": "OrderIndex", "parentName": "Order", "node": order_list, "version": version})).await;
    assert_eq!(renamed.status, 200, "{:?}", renamed.body);
    let after = get(&ctx, "/menuManagement/getList", Some(&admin)).await;
    let order_section = after.data()["list"].as_array().unwrap().iter().find(|n| n["name"] == "Order").unwrap().clone();
    assert_eq!(order_section["children"][0]["name"], "OrderIndex", "an edit keeps the entry's place among its siblings");
    let stale = post(&ctx, "/menuManagement/doEdit", Some(&admin), json!({"originalName": "OrderIndex", "parentName": "Order", "node": order_list, "version": version})).await;
    assert_eq!(stale.status, 409);
    let v = version + 1;
    for (body, says) in [
        (json!({"parentName": "Order", "node": {"path": "x", "name": "OrderIndex", "component": "order/orderindex", "meta": {"title": "x"}}, "version": v}), "used twice"),
        (json!({"parentName": "Order", "node": {"path": "orderindex", "name": "Other2", "component": "order/orderindex", "meta": {"title": "x"}}, "version": v}), "path '/order/orderindex' is used twice"),
        (json!({"parentName": "Order", "node": {"path": "z", "name": "Z", "component": "../../etc/passwd", "meta": {"title": "x"}}, "version": v}), "unknown component"),
        (json!({"originalName": "Order", "parentName": "OrderIndex", "node": {"path": "/order", "name": "Order", "component": "Layout", "meta": {"title": "x"}}, "version": v}), "under itself"),
    ] {
        let a = post(&ctx, "/menuManagement/doEdit", Some(&admin), body.clone()).await;
        assert!(matches!(a.status, 400 | 409), "{body}: {:?}", a.body);
        assert!(a.msg().contains(says), "{says}: {}", a.msg());
    }
    assert_eq!(post(&ctx, "/menuManagement/doDelete", Some(&admin), json!({"name": "Order", "version": v})).await.status, 409, "has children");
    // The new title reaches the sidebar of a user who signs in.
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let sidebar = get(&ctx, "/router/getList", Some(&editor)).await;
    let text = sidebar.data().to_string();
    assert!(text.contains("充电订单"), "the edited title is served");
    assert_eq!(get(&ctx, "/menuManagement/getList", Some(&admin)).await.data()["version"], v, "refused edits wrote nothing");
}

#[tokio::test]
async fn operations_settings_are_checked_versioned_logged_and_admin_only() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let first = get(&ctx, "/operationSettings/get", Some(&admin)).await;
    assert_eq!(first.status, 200, "{:?}", first.body);
    assert_eq!((first.data()["offlineAfterIntervals"].clone(), first.data()["stuckAfterHours"].clone(), first.data()["version"].clone()), (json!(3), json!(12), json!(0)));
    assert_eq!(first.data()["limits"]["stuckAfterHours"], json!({"min": 1, "default": 12, "max": 24}), "the page checks against the server's ranges");

    for (body, says) in [
        (json!({"offlineAfterIntervals": 1, "stuckAfterHours": 12, "version": 0}), "from 2 to 10"),
        (json!({"offlineAfterIntervals": 3, "stuckAfterHours": 25, "version": 0}), "from 1 to 24"),
        (json!({"offlineAfterIntervals": "3", "stuckAfterHours": 12, "version": 0}), "offlineAfterIntervals"),
        (json!({"offlineAfterIntervals": 3, "version": 0}), "stuckAfterHours"),
        (json!({"offlineAfterIntervals": 3, "stuckAfterHours": 12, "version": 0, "surprise": 1}), "surprise"),
    ] {
        let a = post(&ctx, "/operationSettings/doEdit", Some(&admin), body.clone()).await;
        assert_eq!(a.status, 400, "{body}: {:?}", a.body);
        assert!(a.msg().contains(says), "{body}: {}", a.msg());
    }
    assert_eq!(get(&ctx, "/operationSettings/get", Some(&admin)).await.data()["version"], 0, "refused edits write nothing");

    let saved = post(&ctx, "/operationSettings/doEdit", Some(&admin), json!({"offlineAfterIntervals": 5, "stuckAfterHours": 6, "version": 0})).await;
    assert_eq!(saved.status, 200, "{:?}", saved.body);
    assert_eq!((saved.data()["version"].clone(), saved.data()["updatedBy"].clone()), (json!(1), json!("admin")));
    let stale = post(&ctx, "/operationSettings/doEdit", Some(&admin), json!({"offlineAfterIntervals": 4, "stuckAfterHours": 6, "version": 0})).await;
    assert_eq!(stale.status, 409, "an edit of an older version is refused");
    let now = get(&ctx, "/operationSettings/get", Some(&admin)).await;
    assert_eq!((now.data()["offlineAfterIntervals"].clone(), now.data()["stuckAfterHours"].clone(), now.data()["version"].clone()), (json!(5), json!(6), json!(1)));

    let log = get(&ctx, "/systemLog/getList?account=admin&pageSize=1", Some(&admin)).await;
    assert_eq!(log.data()["list"][0]["path"], "/operationSettings/doEdit");

    let editor = login(&ctx, "editor", EDITOR_PW).await;
    assert_eq!(get(&ctx, "/operationSettings/get", Some(&editor)).await.status, 403);
    let refused = post(&ctx, "/operationSettings/doEdit", Some(&editor), json!({"offlineAfterIntervals": 9, "stuckAfterHours": 9, "version": 1})).await;
    assert_eq!(refused.status, 403);
    assert_eq!(get(&ctx, "/operationSettings/get", Some(&admin)).await.data()["offlineAfterIntervals"], 5);
}

/// One time zone for every page: an operations setting (IANA names the
/// product offers), sent to every signed-in role with their user info.
#[tokio::test]
async fn the_operators_time_zone_is_a_checked_setting_every_role_reads() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let test = login(&ctx, "test", TEST_PW).await;
    assert_eq!(get(&ctx, "/index/userInfo", Some(&test)).await.data()["timeZone"], "Asia/Shanghai", "the default");
    let first = get(&ctx, "/operationSettings/get", Some(&admin)).await;
    let zones = first.data()["timeZones"].as_array().unwrap();
    assert!(zones.contains(&json!("Europe/London")) && zones.contains(&json!("UTC")) && zones.len() > 300, "{}", zones.len());
    for bad in ["Mars/Olympus", "", "asia/shanghai"] {
        let a = post(&ctx, "/operationSettings/doEdit", Some(&admin), json!({"offlineAfterIntervals": 3, "stuckAfterHours": 12, "timeZone": bad, "version": 0})).await;
        assert_eq!(a.status, 400, "{bad}");
        assert!(a.msg().contains("timeZone"), "{}", a.msg());
    }
    let saved = post(&ctx, "/operationSettings/doEdit", Some(&admin), json!({"offlineAfterIntervals": 3, "stuckAfterHours": 12, "timeZone": "Europe/London", "version": 0})).await;
    assert_eq!(saved.status, 200, "{:?}", saved.body);
    let test = login(&ctx, "test", TEST_PW).await;
    assert_eq!(get(&ctx, "/index/userInfo", Some(&test)).await.data()["timeZone"], "Europe/London");
    // An edit without it keeps it (clients older than the setting).
    let kept = post(&ctx, "/operationSettings/doEdit", Some(&admin), json!({"offlineAfterIntervals": 4, "stuckAfterHours": 12, "version": 1})).await;
    assert_eq!(kept.data()["timeZone"], "Europe/London");
}

#[tokio::test]
async fn a_settings_manager_cannot_grant_or_take_more_than_they_hold() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    // An account manager: may manage settings and read, nothing else.
    let role = post(&ctx, "/roleManagement/doEdit", Some(&admin), json!({"role": "StaffDesk", "permissions": ["manage:settings", "read:system"]})).await;
    assert_eq!(role.status, 200, "{:?}", role.body);
    let made = post(&ctx, "/userManagement/doEdit", Some(&admin), json!({"username": "desk", "roles": ["StaffDesk"], "password": "quiet-lantern-12345"})).await;
    assert_eq!(made.status, 200, "{:?}", made.body);
    let desk = login(&ctx, "desk", "quiet-lantern-12345").await;
    let version_of = |list: &Value, name: &str| list["list"].as_array().unwrap().iter().find(|u| u["username"] == name).unwrap()["version"].clone();
    let users = get(&ctx, "/userManagement/getList?pageSize=50", Some(&admin)).await;
    let before = users.data().clone();

    // Making themselves Admin.
    let escalate = post(&ctx, "/userManagement/doEdit", Some(&desk), json!({"username": "desk", "roles": ["StaffDesk", "Admin"], "version": version_of(&before, "desk")})).await;
    assert_eq!(escalate.status, 403, "{:?}", escalate.body);
    assert!(escalate.msg().contains("Admin"), "{}", escalate.msg());
    // Creating an account with rights they lack (Editor writes and deletes).
    let stronger = post(&ctx, "/userManagement/doEdit", Some(&desk), json!({"username": "sock.puppet", "roles": ["Editor"], "password": "puppet-pass-123"})).await;
    assert_eq!(stronger.status, 403, "{:?}", stronger.body);
    // Resetting an Admin's password, editing or deleting an Admin.
    let reset = post(&ctx, "/userManagement/resetPassword", Some(&desk), json!({"username": "admin", "password": "taken-over-123"})).await;
    assert_eq!(reset.status, 403, "{:?}", reset.body);
    let demote = post(&ctx, "/userManagement/doEdit", Some(&desk), json!({"username": "admin", "roles": ["StaffDesk"], "version": version_of(&before, "admin")})).await;
    assert_eq!(demote.status, 403, "{:?}", demote.body);
    assert_eq!(post(&ctx, "/userManagement/doDelete", Some(&desk), json!({"username": "editor"})).await.status, 403);
    // Writing more permissions into their own role, or touching a stronger one.
    let widen = post(&ctx, "/roleManagement/doEdit", Some(&desk), json!({"role": "StaffDesk", "permissions": ["manage:settings", "read:system", "approve:refund"], "version": 1})).await;
    assert_eq!(widen.status, 403, "{:?}", widen.body);
    let narrow_editor = post(&ctx, "/roleManagement/doEdit", Some(&desk), json!({"role": "Editor", "permissions": [], "version": 1})).await;
    assert_eq!(narrow_editor.status, 403, "{:?}", narrow_editor.body);

    // Nothing was written by any of it.
    assert_eq!(get(&ctx, "/userManagement/getList?pageSize=50", Some(&admin)).await.data(), &before);
    let old_admin = login(&ctx, "admin", ADMIN_PW).await;
    assert!(!old_admin.is_empty(), "the Admin's password still works");
    let roles = get(&ctx, "/roleManagement/getList", Some(&admin)).await;
    let desk_role = roles.data()["list"].as_array().unwrap().iter().find(|r| r["role"] == "StaffDesk").unwrap().clone();
    assert_eq!(desk_role["permissions"], json!(["manage:settings", "read:system"]));

    // Within their own rights they still work.
    let peer = post(&ctx, "/userManagement/doEdit", Some(&desk), json!({"username": "desk.two", "roles": ["StaffDesk"], "password": "desk-two-pass-123"})).await;
    assert_eq!(peer.status, 200, "{:?}", peer.body);
    let reset_peer = post(&ctx, "/userManagement/resetPassword", Some(&desk), json!({"username": "desk.two", "password": "desk-two-new-123"})).await;
    assert_eq!(reset_peer.status, 200, "{:?}", reset_peer.body);
}

/// The log's actor is who signed in, never a name the caller typed.
#[tokio::test]
async fn the_log_names_only_proven_accounts_and_counts_anonymous_refusals() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    // An unauthenticated delete naming the admin: refused, not written as the admin.
    let forged = post(&ctx, "/userManagement/doDelete", None, json!({"username": "admin"})).await;
    assert_eq!(forged.status, 401);
    // A wrong password typed for the admin: an anonymous entry with the claim marked.
    let wrong = post(&ctx, "/login/index", None, json!({"username": "admin", "password": "not-the-password"})).await;
    assert_eq!(wrong.status, 400);
    let log = get(&ctx, "/systemLog/getList?pageSize=50", Some(&admin)).await;
    let entries = log.data()["list"].as_array().unwrap().clone();
    assert!(
        !entries.iter().any(|e| e["path"] == "/userManagement/doDelete"),
        "an unauthenticated call is counted, not listed: {entries:?}"
    );
    let failed_sign_in = entries.iter().find(|e| e["path"] == "/login/index" && e["code"] == 400).expect("the failed sign-in is listed");
    assert_eq!(failed_sign_in["account"], "anonymous");
    assert_eq!(failed_sign_in["claimedAccount"], "admin");
    let sign_in = entries.iter().find(|e| e["path"] == "/login/index" && e["code"] == 200).expect("the admin's sign-in is listed");
    assert_eq!(sign_in["account"], "admin", "a successful sign-in proves the name");
    assert!(sign_in.get("claimedAccount").is_none());
    assert!(log.data()["refusedAnonymous24h"].as_i64().unwrap() >= 1);
}

/// 200 anonymous calls at once beside 20 real writes: every real entry is
/// there (the anonymous ones touch no shared counter item).
async fn real_entries_survive_an_anonymous_flood(ctx: std::sync::Arc<backoffice::AppCtx>) {
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let mut tasks = Vec::new();
    for i in 0..220 {
        let (ctx, editor) = (ctx.clone(), editor.clone());
        tasks.push(tokio::spawn(async move {
            if i % 11 == 0 {
                let a = post(&ctx, "/notice/doEdit", Some(&editor), json!({"notice": format!("real write {i}")})).await;
                assert_eq!(a.status, 200, "{:?}", a.body);
                Some(a.data()["id"].as_str().unwrap().to_string())
            } else {
                assert_eq!(post(&ctx, "/userManagement/doDelete", None, json!({"username": "admin"})).await.status, 401);
                None
            }
        }));
    }
    let mut real = 0;
    for t in tasks {
        real += t.await.unwrap().is_some() as usize;
    }
    assert_eq!(real, 20);
    let log = get(&ctx, "/systemLog/getList?account=editor&pageSize=100", Some(&admin)).await;
    let notices = log.data()["list"].as_array().unwrap().iter().filter(|e| e["path"] == "/notice/doEdit").count();
    assert_eq!(notices, 20, "every real entry is in the log");
    assert!(log.data()["refusedAnonymous24h"].as_i64().unwrap() >= 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn real_log_entries_survive_an_anonymous_flood() {
    real_entries_survive_an_anonymous_flood(product().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn real_log_entries_survive_an_anonymous_flood_on_dynamodb() {
    let Some(table) = dynamo_table("audit-flood").await else { return };
    // moto takes about a minute for the flood: the tokens must outlive it
    // (with the default 60 s the last read could meet an expired token).
    real_entries_survive_an_anonymous_flood(product_on_dynamo(table, &[("BACKOFFICE_ACCESS_TOKEN_TTL", "900")]).await).await;
}

#[tokio::test]
async fn the_system_log_speaks_the_readers_language() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    assert_eq!(post(&ctx, "/table/doEdit", Some(&admin), json!({"title": "t"})).await.status, 200);
    assert_eq!(post(&ctx, "/notice/doEdit", Some(&admin), json!({"notice": "<script>x</script>"})).await.status, 400);
    let entry = |a: &Answer, path: &str| a.data()["list"].as_array().unwrap().iter().find(|e| e["path"] == path).cloned().unwrap();

    let zh = get_in(&ctx, "/systemLog/getList?account=admin", &admin, "zh-CN,zh;q=0.9").await;
    assert_eq!(zh.status, 200, "{:?}", zh.body);
    let saved = entry(&zh, "/table/doEdit");
    assert_eq!((saved["type"].as_str(), saved["executeResult"].as_str()), (Some("演示表格模拟保存"), Some("成功")));
    let refused = entry(&zh, "/notice/doEdit");
    assert_eq!(refused["type"], backoffice::messages::routes::summary(backoffice::routes::by_function("notice_edit").unwrap()).zh);
    assert_eq!(refused["executeResult"], "失败 400：发出信息有误", "{refused}");
    assert_eq!(entry(&zh, "/login/index")["type"], "用户名密码登录");

    let en = get_in(&ctx, "/systemLog/getList?account=admin", &admin, "en").await;
    let saved = entry(&en, "/table/doEdit");
    assert_eq!((saved["type"].as_str(), saved["executeResult"].as_str()), (Some("Simulated save of a demo table item"), Some("success")));
    assert!(entry(&en, "/notice/doEdit")["executeResult"].as_str().unwrap().starts_with("failure 400: "));

    // An entry written before the function name was kept finds its route by path.
    let mut old = ctx.store.query(store::Query::index(store::Index::Gsi2, "LOG#ACCOUNT#admin")).await.unwrap().items.remove(0);
    old.remove("function");
    let old: backoffice::domain::audit::LogEntry = serde_json::from_value(Value::Object(old)).unwrap();
    assert_eq!(old.function, None);
    let shown = backoffice::domain::audit::in_language(old.clone(), envelope::Lang::Zh);
    let route = backoffice::routes::routes().iter().find(|r| r.audited && r.path == old.path).unwrap();
    assert_eq!(shown.kind, backoffice::messages::routes::summary(route).zh);
}

#[tokio::test]
async fn every_role_reaches_its_own_personal_center_and_changes_only_its_own_account() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let made = post(&ctx, "/userManagement/doEdit", Some(&admin), json!({"username": "reader", "roles": ["Test"], "password": "quiet-meadow-4821"})).await;
    assert_eq!(made.status, 200, "{:?}", made.body);
    for (user, pw) in [("editor", EDITOR_PW), ("reader", "quiet-meadow-4821"), ("admin", ADMIN_PW)] {
        let token = login(&ctx, user, pw).await;
        let tree = get(&ctx, "/router/getList", Some(&token)).await;
        let list = tree.data()["list"].as_array().unwrap();
        let own = list.iter().find(|r| r["path"] == "/user").unwrap_or_else(|| panic!("{user} gets the self-service route"));
        assert_eq!(own["meta"]["hidden"], true, "no menu entry of its own");
        assert_eq!(own["children"][0]["component"], "setting/personalCenter");
        assert!(own["meta"].get("guard").is_none() && own["children"][0]["meta"].get("guard").is_none(), "open to every role");
        // The spec's place stays Admin's.
        let setting = list.iter().any(|r| r["path"] == "/setting");
        assert_eq!(setting, user == "admin", "{user}");
    }
    // An Editor changes their own e-mail, avatar and password; the payload
    // cannot name another account.
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    let profile = post(&ctx, "/user/updateProfile", Some(&editor), json!({"email": "ed@example.com", "avatar": "https://cdn.example.com/ed.png", "username": "admin"})).await;
    assert_eq!(profile.status, 200, "{:?}", profile.body);
    assert_ne!(get(&ctx, "/index/userInfo", Some(&admin)).await.data()["avatar"], "https://cdn.example.com/ed.png", "the admin's avatar is untouched");
    let weak = post(&ctx, "/user/changePassword", Some(&editor), json!({"oldPassword": EDITOR_PW, "newPassword": "editor-lantern-2026"})).await;
    assert_eq!(weak.status, 400, "a password containing the user name is refused: {:?}", weak.body);
    let changed = post(&ctx, "/user/changePassword", Some(&editor), json!({"oldPassword": EDITOR_PW, "newPassword": "harbour-lantern-2026", "username": "admin"})).await;
    assert_eq!(changed.status, 200, "{:?}", changed.body);
    login(&ctx, "editor", "harbour-lantern-2026").await;
    login(&ctx, "admin", ADMIN_PW).await;
    let old = post(&ctx, "/login/index", None, json!({"username": "editor", "password": EDITOR_PW})).await;
    assert_ne!(old.status, 200, "the old password no longer works");
    // The Test role (read only) may change its own profile and password too;
    // the default picture sent back as user info named it means "none of my own".
    let reader = login(&ctx, "reader", "quiet-meadow-4821").await;
    let shown = get(&ctx, "/index/userInfo", Some(&reader)).await.data()["avatar"].clone();
    let saved = post(&ctx, "/user/updateProfile", Some(&reader), json!({"email": "r@example.com", "avatar": shown})).await;
    assert_eq!(saved.status, 200, "{:?}", saved.body);
    let changed = post(&ctx, "/user/changePassword", Some(&reader), json!({"oldPassword": "quiet-meadow-4821", "newPassword": "silver-orchard-5930"})).await;
    assert_eq!(changed.status, 200, "{:?}", changed.body);
}

/// The grant check and the store see one spelling of a role's name: a
/// settings manager who sends Admin padded, in full-width letters or with
/// an invisible character never gets it (403, or a 400 naming the field
/// for a character nobody can see), on edit and on create, and nothing is
/// written.
async fn a_role_spelled_differently_is_the_same_role(ctx: std::sync::Arc<backoffice::AppCtx>) {
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let role = post(&ctx, "/roleManagement/doEdit", Some(&admin), json!({"role": "StaffDesk", "permissions": ["manage:settings", "read:system"]})).await;
    assert_eq!(role.status, 200, "{:?}", role.body);
    let made = post(&ctx, "/userManagement/doEdit", Some(&admin), json!({"username": "desk", "roles": ["StaffDesk"], "password": "quiet-lantern-12345"})).await;
    assert_eq!(made.status, 200, "{:?}", made.body);
    let desk = login(&ctx, "desk", "quiet-lantern-12345").await;
    let users_before = get(&ctx, "/userManagement/getList?pageSize=50", Some(&admin)).await.data().clone();
    let roles_before = get(&ctx, "/roleManagement/getList?pageSize=50", Some(&admin)).await.data().clone();
    let desk_version = users_before["list"].as_array().unwrap().iter().find(|u| u["username"] == "desk").unwrap()["version"].clone();

    let same_role = [" Admin", "Admin ", "\tAdmin", "Admin\u{3000}", "Admin\u{a0}", "\u{2003}Admin", "Ａｄｍｉｎ", " Ａｄｍｉｎ\u{3000}"];
    let invisible = ["Admin\u{200b}", "\u{200b}Admin", "Ad\u{200d}min", "\u{feff}Admin", "Ad\u{2060}min", "Ad\tmin"];
    for spelled in same_role.iter().chain(&invisible) {
        let edit = post(&ctx, "/userManagement/doEdit", Some(&desk), json!({"username": "desk", "roles": ["StaffDesk", spelled], "version": desk_version})).await;
        let create = post(&ctx, "/userManagement/doEdit", Some(&desk), json!({"username": "puppet", "roles": [spelled], "password": "puppet-lantern-12345"})).await;
        for (what, answer) in [("edit", &edit), ("create", &create)] {
            if same_role.contains(spelled) {
                assert_eq!(answer.status, 403, "{what} with {spelled:?}: {:?}", answer.body);
                assert!(answer.msg().contains("Admin"), "{what} with {spelled:?}: {}", answer.msg());
            } else {
                assert_eq!(answer.status, 400, "{what} with {spelled:?}: {:?}", answer.body);
                assert!(answer.msg().starts_with("roles[") && answer.msg().contains("U+"), "{what} with {spelled:?}: {}", answer.msg());
            }
        }
    }
    // The user name is one spelling too: the Admin padded or in full width
    // is the Admin, whom a settings manager cannot reset.
    for spelled in [" admin", "ａｄｍｉｎ", "admin\u{3000}"] {
        let reset = post(&ctx, "/userManagement/resetPassword", Some(&desk), json!({"username": spelled, "password": "taken-over-lantern-1"})).await;
        assert_eq!(reset.status, 403, "reset of {spelled:?}: {:?}", reset.body);
    }
    assert_eq!(post(&ctx, "/userManagement/resetPassword", Some(&desk), json!({"username": "admin\u{200b}", "password": "taken-over-lantern-1"})).await.status, 400);

    assert_eq!(get(&ctx, "/userManagement/getList?pageSize=50", Some(&admin)).await.data(), &users_before, "no account changed or appeared");
    assert_eq!(get(&ctx, "/roleManagement/getList?pageSize=50", Some(&admin)).await.data(), &roles_before, "no role's holders changed");
    let info = get(&ctx, "/index/userInfo", Some(&login(&ctx, "desk", "quiet-lantern-12345").await)).await;
    assert_eq!(info.data()["roles"], json!(["StaffDesk"]));
    login(&ctx, "admin", ADMIN_PW).await;
}

#[tokio::test]
async fn a_role_spelled_differently_is_the_same_role_on_sqlite() {
    a_role_spelled_differently_is_the_same_role(product().await).await;
}

#[tokio::test]
async fn a_role_spelled_differently_is_the_same_role_on_dynamodb() {
    let Some(table) = dynamo_table("spelling").await else { return };
    // moto answers slowly: the access token must outlive the test.
    a_role_spelled_differently_is_the_same_role(product_on_dynamo(table, &[("BACKOFFICE_ACCESS_TOKEN_TTL", "1800")]).await).await;
}

/// Random spellings of the existing roles' names: padding with any kind of
/// space or invisible character, letters in full width, another case or
/// another script (Cyrillic look-alikes), combining accents. Whatever a
/// settings manager sends, on edit or create, the account ends up with no
/// more than the manager holds, and a refused call writes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_spelling_of_a_role_grants_more_than_the_granter_holds() {
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    assert_eq!(post(&ctx, "/roleManagement/doEdit", Some(&admin), json!({"role": "StaffDesk", "permissions": ["manage:settings", "read:system"]})).await.status, 200);
    for name in ["desk", "desk.two"] {
        let made = post(&ctx, "/userManagement/doEdit", Some(&admin), json!({"username": name, "roles": ["StaffDesk"], "password": "quiet-lantern-12345"})).await;
        assert_eq!(made.status, 200, "{:?}", made.body);
    }
    let desk = login(&ctx, "desk", "quiet-lantern-12345").await;
    let held: BTreeSet<String> = ["manage:settings", "read:system"].map(String::from).into();

    let padding = prop::sample::select(vec![' ', '\t', '\n', '\u{a0}', '\u{2002}', '\u{2009}', '\u{3000}', '\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}', '\u{feff}', '\u{180e}', '\u{202e}']);
    let letter = |c: char| {
        let fullwidth = char::from_u32(c as u32 + 0xFEE0).unwrap();
        let cyrillic = match c {
            'A' => '\u{410}',
            'a' => '\u{430}',
            'e' => '\u{435}',
            'o' => '\u{43e}',
            'i' => '\u{456}',
            'E' => '\u{415}',
            'T' => '\u{422}',
            'S' => '\u{405}',
            other => other,
        };
        prop_oneof![
            4 => Just(c.to_string()),
            1 => Just(c.to_ascii_lowercase().to_string()),
            1 => Just(c.to_ascii_uppercase().to_string()),
            2 => Just(fullwidth.to_string()),
            1 => Just(cyrillic.to_string()),
            1 => Just(format!("{c}\u{301}")),
            1 => Just(format!("{c}\u{200b}")),
        ]
    };
    let spelling = prop::sample::select(vec!["Admin", "Editor", "Test", "StaffDesk"]).prop_flat_map(move |base| {
        // The name itself as it is, or letter by letter changed.
        let letters: Vec<_> = base.chars().map(letter).collect();
        let middle = prop_oneof![2 => Just(base.chars().map(String::from).collect::<Vec<_>>()), 1 => letters];
        (prop::collection::vec(padding.clone(), 0..3), middle, prop::collection::vec(padding.clone(), 0..3))
            .prop_map(|(before, middle, after)| before.into_iter().map(String::from).chain(middle).chain(after.into_iter().map(String::from)).collect::<String>())
    });
    let case = (spelling, any::<bool>(), any::<bool>());

    let handle = tokio::runtime::Handle::current();
    let made = std::sync::atomic::AtomicUsize::new(0);
    let mut runner = proptest::test_runner::TestRunner::new(proptest::test_runner::Config { cases: 160, failure_persistence: None, ..Default::default() });
    let result = tokio::task::block_in_place(|| {
        runner.run(&case, |(spelled, create, keep_own)| {
            handle.block_on(async {
                let users = get(&ctx, "/userManagement/getList?pageSize=200", Some(&admin)).await.data()["list"].clone();
                let roles = get(&ctx, "/roleManagement/getList?pageSize=200", Some(&admin)).await.data()["list"].clone();
                let wanted = if keep_own { json!(["StaffDesk", spelled]) } else { json!([spelled]) };
                let (target, body) = if create {
                    let name = format!("made{}", made.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
                    (name.clone(), json!({"username": name, "roles": wanted, "password": "quiet-lantern-12345"}))
                } else {
                    let version = users.as_array().unwrap().iter().find(|u| u["username"] == "desk.two").unwrap()["version"].clone();
                    ("desk.two".to_string(), json!({"username": "desk.two", "roles": wanted, "version": version}))
                };
                let answer = post(&ctx, "/userManagement/doEdit", Some(&desk), body).await;
                prop_assert!([200, 400, 403].contains(&answer.status), "{spelled:?}: {:?}", answer.body);
                let after = get(&ctx, "/userManagement/getList?pageSize=200", Some(&admin)).await.data()["list"].clone();
                if answer.status != 200 {
                    prop_assert_eq!(&after, &users, "{:?} was refused ({}) but something was written", spelled, answer.msg());
                    return Ok(());
                }
                let account = after.as_array().unwrap().iter().find(|u| u["username"] == target.as_str()).unwrap().clone();
                let mut powers = BTreeSet::new();
                for role in account["roles"].as_array().unwrap() {
                    prop_assert!(role != "Admin", "{spelled:?} made {target} an Admin");
                    let definition = roles.as_array().unwrap().iter().find(|r| &r["role"] == role);
                    prop_assert!(definition.is_some(), "{spelled:?} stored a role that does not exist: {role}");
                    powers.extend(definition.unwrap()["permissions"].as_array().unwrap().iter().map(|p| p.as_str().unwrap().to_string()));
                }
                prop_assert!(powers.is_subset(&held), "{spelled:?} gave {target} {powers:?}");
                Ok(())
            })
        })
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// The other names the settings pages compare take one spelling too: a
/// permission written in full width into a role is that permission (so the
/// grant check refuses it), Admin's definition spelled otherwise is Admin's,
/// a department or menu key spelled otherwise is the same one, and a name
/// with a character nobody can see is refused naming the field.
#[tokio::test]
async fn role_department_and_menu_names_take_one_spelling() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    assert_eq!(post(&ctx, "/roleManagement/doEdit", Some(&admin), json!({"role": "StaffDesk", "permissions": ["manage:settings", "read:system"]})).await.status, 200);
    assert_eq!(post(&ctx, "/userManagement/doEdit", Some(&admin), json!({"username": "desk", "roles": ["StaffDesk"], "password": "quiet-lantern-12345"})).await.status, 200);
    let desk = login(&ctx, "desk", "quiet-lantern-12345").await;
    let roles_before = get(&ctx, "/roleManagement/getList?pageSize=50", Some(&admin)).await.data().clone();
    for permissions in [json!(["manage:settings", "read:system", "ａｐｐｒｏｖｅ:ｒｅｆｕｎｄ"]), json!(["manage:settings", "read:system", " approve:refund\u{3000}"])] {
        let widen = post(&ctx, "/roleManagement/doEdit", Some(&desk), json!({"role": "StaffDesk", "permissions": permissions, "version": 1})).await;
        assert_eq!(widen.status, 403, "{permissions}: {:?}", widen.body);
    }
    let hidden = post(&ctx, "/roleManagement/doEdit", Some(&desk), json!({"role": "StaffDesk", "permissions": ["manage:settings", "approve:refund\u{200b}"], "version": 1})).await;
    assert!(hidden.status == 400 && hidden.msg().starts_with("permissions[1]"), "{:?}", hidden.body);
    for admin_spelled in ["Ａｄｍｉｎ", " Admin"] {
        let redefine = post(&ctx, "/roleManagement/doEdit", Some(&desk), json!({"role": admin_spelled, "permissions": [], "version": 1})).await;
        assert_eq!(redefine.status, 403, "{admin_spelled:?}: {:?}", redefine.body);
        let delete = post(&ctx, "/roleManagement/doDelete", Some(&desk), json!({"role": admin_spelled})).await;
        assert_eq!(delete.status, 403, "{admin_spelled:?}: {:?}", delete.body);
    }
    assert_eq!(get(&ctx, "/roleManagement/getList?pageSize=50", Some(&admin)).await.data(), &roles_before);

    // Departments: a sibling spelled in full width or padded is the same name.
    let tree = get(&ctx, "/departmentManagement/getList", Some(&admin)).await;
    let ops_id = tree.data()["list"][0]["children"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(post(&ctx, "/departmentManagement/doEdit", Some(&admin), json!({"parentId": ops_id, "name": "East 1"})).await.status, 200);
    let twin = post(&ctx, "/departmentManagement/doEdit", Some(&admin), json!({"parentId": format!(" {ops_id}\u{3000}"), "name": "Ｅａｓｔ\u{3000}１ "})).await;
    assert_eq!(twin.status, 409, "{:?}", twin.body);
    let invisible = post(&ctx, "/departmentManagement/doEdit", Some(&admin), json!({"parentId": ops_id, "name": "East\u{200b}1"})).await;
    assert!(invisible.status == 400 && invisible.msg().starts_with("name ") && invisible.msg().contains("U+200B"), "{:?}", invisible.body);

    // Menus: the keys of an edit are found however they are spaced or sized.
    let version = get(&ctx, "/menuManagement/getList", Some(&admin)).await.data()["version"].as_i64().unwrap();
    let order_list = json!({"path": "orderindex", "name": "ＯｒｄｅｒＩｎｄｅｘ ", "component": "order/orderindex", "meta": {"title": "充电订单"}});
    let edited = post(&ctx, "/menuManagement/doEdit", Some(&admin), json!({"originalName": " OrderIndex", "parentName": "Ｏｒｄｅｒ", "node": order_list, "version": version})).await;
    assert_eq!(edited.status, 200, "{:?}", edited.body);
    let menus = get(&ctx, "/menuManagement/getList", Some(&admin)).await;
    let order = menus.data()["list"].as_array().unwrap().iter().find(|n| n["name"] == "Order").unwrap().clone();
    assert_eq!(order["children"][0]["name"], "OrderIndex", "stored in canonical form");
    let zero_width = json!({"path": "orderindex", "name": "Order\u{200b}Index", "component": "order/orderindex", "meta": {"title": "x"}});
    let refused = post(&ctx, "/menuManagement/doEdit", Some(&admin), json!({"originalName": "OrderIndex", "parentName": "Order", "node": zero_width, "version": version + 1})).await;
    assert!(refused.status == 400 && refused.msg().contains("U+200B"), "{:?}", refused.body);
}

/// Every name already stored (seeded roles, accounts, departments, menu
/// keys, cards and pile codes) is its own canonical form, so records made
/// before names were made canonical keep matching what requests send.
#[tokio::test]
async fn names_already_stored_are_canonical() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let mut stored: Vec<String> = Vec::new();
    let roles = get(&ctx, "/roleManagement/getList?pageSize=200", Some(&admin)).await;
    for r in roles.data()["list"].as_array().unwrap() {
        stored.push(r["role"].as_str().unwrap().into());
        stored.extend(r["permissions"].as_array().unwrap().iter().map(|p| p.as_str().unwrap().to_string()));
    }
    let users = get(&ctx, "/userManagement/getList?pageSize=200", Some(&admin)).await;
    stored.extend(users.data()["list"].as_array().unwrap().iter().map(|u| u["username"].as_str().unwrap().to_string()));
    fn walk(nodes: &Value, keys: &[&str], out: &mut Vec<String>) {
        for n in nodes.as_array().into_iter().flatten() {
            out.extend(keys.iter().filter_map(|k| n[*k].as_str().map(String::from)));
            walk(&n["children"], keys, out);
        }
    }
    walk(&get(&ctx, "/departmentManagement/getList", Some(&admin)).await.data()["list"], &["id", "name"], &mut stored);
    walk(&get(&ctx, "/menuManagement/getList", Some(&admin)).await.data()["list"], &["name"], &mut stored);
    let cards = get(&ctx, "/card/getList?pageSize=200", Some(&admin)).await;
    stored.extend(cards.data()["list"].as_array().unwrap().iter().map(|c| c["idTag"].as_str().unwrap().to_string()));
    let connectors = get(&ctx, "/connector/getList?pageSize=200", Some(&admin)).await;
    assert_eq!(connectors.status, 200, "{:?}", connectors.body);
    let codes: Vec<String> = connectors.data()["list"].as_array().unwrap().iter().map(|c| c["pileCode"].as_str().unwrap().to_string()).collect();
    assert!(!codes.is_empty());
    stored.extend(codes);
    assert!(stored.len() > 100, "{}", stored.len());
    for name in &stored {
        assert_eq!(names::canonical(name).as_deref(), Ok(name.as_str()), "{name:?} is not canonical");
    }
}

/// An administrator's new account or reset password is held to the same
/// strength: easy to guess is refused naming the field, nothing is written.
#[tokio::test]
async fn an_admin_cannot_set_a_password_easy_to_guess() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let made = post(&ctx, "/userManagement/doEdit", Some(&admin), json!({"username": "weakling", "roles": ["Editor"], "password": "Password1234!"})).await;
    assert_eq!(made.status, 400, "{:?}", made.body);
    assert_eq!(made.data()["fields"][0]["field"], "password");
    assert!(made.msg().contains("too easy to guess"), "{}", made.msg());
    let users = get(&ctx, "/userManagement/getList?username=weakling", Some(&admin)).await;
    assert_eq!(users.data()["total"], 0);
    let reset = post(&ctx, "/userManagement/resetPassword", Some(&admin), json!({"username": "editor", "password": "password1234"})).await;
    assert_eq!(reset.status, 400, "{:?}", reset.body);
    assert_eq!(reset.data()["fields"][0]["field"], "password");
    login(&ctx, "editor", EDITOR_PW).await;
}
