//! The permission matrix: every route of the route table, called by an
//! anonymous caller and by users holding only Test, only Editor and only
//! Admin. What each may do is derived from the route's declared access and
//! the seeded roles' permissions (the sources of truth); the test fails on
//! any leak (a call let through that should be refused) and on any refusal
//! of a call that should pass. It prints the matrix.
//!
//! Calls carry an empty JSON object, so a permitted write finds nothing to
//! do and answers 400 (or 404): what matters here is only whether the
//! server let the caller reach the handler.

mod common;

use backoffice::routes::{routes, Access};
use common::*;
use http::Method;
use serde_json::json;

const ROLES: [&str; 3] = [permission::TEST_ROLE, permission::EDITOR_ROLE, permission::ADMIN_ROLE];
const PASSWORD: &str = "matrix-pass-1";

/// Whether a signed-in holder of `role` may call a route with this access.
fn allowed(access: Access, role: &str) -> bool {
    match access {
        Access::Public | Access::Session | Access::SignedIn => true,
        Access::Permission(needed) => {
            role == permission::ADMIN_ROLE || permission::default_role_permissions(role).iter().any(|p| p == needed)
        }
    }
}

fn username_for(role: &str) -> String {
    format!("only-{}", role.to_lowercase())
}

#[tokio::test]
async fn every_route_lets_through_exactly_the_roles_it_declares() {
    let ctx = product().await;
    for role in ROLES {
        let hash = auth::password::hash_password(PASSWORD).expect("hashing works");
        let user = backoffice::domain::users::User::new(&username_for(role), hash, vec![role.to_string()], ctx.now());
        backoffice::domain::users::create(&ctx, &user).await.expect("the matrix user is created");
    }

    let mut leaks = Vec::new();
    let mut table = vec![format!("{:<6} {:<34} {:<16} {:>9} {:>6} {:>6} {:>6}", "method", "path", "access", "anonymous", "Test", "Editor", "Admin")];
    for route in routes() {
        let body = (route.method != Method::GET).then(|| json!({}));
        let mut row = format!("{:<6} {:<34} {:<16}", route.method.as_str(), route.path, access_label(route.access));

        let anonymous = call(&ctx, route.method.clone(), route.path, None, body.clone()).await;
        let refused = matches!(anonymous.status, 401 | 403);
        row.push_str(&format!(" {:>9}", anonymous.status));
        if route.access != Access::Public && !refused {
            leaks.push(format!("anonymous reached {} {} ({})", route.method, route.path, anonymous.status));
        }

        for role in ROLES {
            // A fresh session per call: a route may end the session it is given.
            let token = login(&ctx, &username_for(role), PASSWORD).await;
            let answer = call(&ctx, route.method.clone(), route.path, Some(&token), body.clone()).await;
            row.push_str(&format!(" {:>6}", answer.status));
            if route.access == Access::Public {
                continue;
            }
            let expected = allowed(route.access, role);
            let got_through = !matches!(answer.status, 401 | 403);
            if expected != got_through {
                leaks.push(format!(
                    "{role} {} {} {}: {} {}",
                    if expected { "was refused" } else { "reached" },
                    route.method,
                    route.path,
                    answer.status,
                    answer.msg()
                ));
            }
        }
        table.push(row);
    }
    println!("{}", table.join("\n"));
    assert!(leaks.is_empty(), "permission matrix violations:\n{}", leaks.join("\n"));
}

fn access_label(access: Access) -> String {
    match access {
        Access::Public => "public".into(),
        Access::Session => "session".into(),
        Access::SignedIn => "signed-in".into(),
        Access::Permission(p) => p.into(),
    }
}

/// Writes a signed-in user may make about themselves (their password and
/// profile, what they read and cleared of the notices), and the sign-in
/// flow; every other write needs at least write:system.
const SELF_SERVICE_WRITES: [&str; 12] = [
    "/login/index",
    "/socialLogin/authorize",
    "/socialLogin",
    "/register",
    "/login/logout",
    "/user/changePassword",
    "/user/updateProfile",
    "/user/socialLink/authorize",
    "/user/socialLink",
    "/user/socialUnlink",
    "/notice/read",
    "/notice/clearAll",
];

/// The /setting pages' endpoints: who may do what is decided here, so all
/// of them, reads included, need manage:settings.
const SETTINGS_PREFIXES: [&str; 6] = ["/userManagement/", "/roleManagement/", "/menuManagement/", "/departmentManagement/", "/systemLog/", "/operationSettings/"];

/// Remote operations an Editor may do; every other one changes how a
/// charger works and needs configure:charger (Admin).
const EVERYDAY_CHARGER_OPERATIONS: [&str; 12] = [
    "/charger/remoteStart",
    "/charger/remoteStop",
    "/charger/unlock",
    "/charger/availability",
    "/charger/trigger",
    "/charger/reserveNow",
    "/charger/cancelReservation",
    // A notice on a 2.0.1 station's screen (prices, a closure): operators' daily work.
    "/charger/setDisplayMessage",
    "/charger/clearDisplayMessage",
    "/charger/getDisplayMessages",
    // A YKC pile's parking lock lowered for a driver, like unlocking a
    // connector; its balance resent to the screen of a card session.
    "/charger/parkingLock",
    "/charger/balanceUpdate",
];

/// Routes that set a charger's credentials: whoever holds them can act as
/// the charger (sessions feed billing), so they are Admin's.
const CHARGER_CREDENTIALS: [&str; 1] = ["/pile/setPassword"];

/// The declared access follows the product's rules, so a new route cannot
/// quietly ask for less than its kind of action needs: settings need
/// manage:settings, deleting needs delete:system, approving a refund,
/// settling what an order owes (`/order/settle/`) or topping up a prepaid
/// card needs approve:refund, any other write needs write:system.
#[test]
fn declared_access_matches_what_the_route_does() {
    let mut wrong = Vec::new();
    for route in routes() {
        let path = route.path.to_lowercase();
        let needed = if SETTINGS_PREFIXES.iter().any(|p| route.path.starts_with(p)) {
            Some(permission::SETTINGS_MANAGE)
        } else if CHARGER_CREDENTIALS.contains(&route.path) || (route.path.starts_with("/charger/") && route.audited && !EVERYDAY_CHARGER_OPERATIONS.contains(&route.path)) {
            // Before the delete rule: a charger's DeleteCertificate removes a
            // root it trusts, a change of how it works, not a record of ours.
            Some(permission::CHARGER_CONFIGURE)
        } else if path.contains("delete") {
            Some(permission::SYSTEM_DELETE)
        } else if path.contains("refund") && path.contains("approv") {
            Some(permission::REFUND_APPROVE)
        } else if route.path.starts_with("/order/settle/") || route.path == "/card/topUp" {
            // Taking money in (settling an order, a prepaid card's top-up) or
            // writing it off is finance's, like approving a refund.
            Some(permission::REFUND_APPROVE)
        } else if route.audited && !SELF_SERVICE_WRITES.contains(&route.path) {
            Some(permission::SYSTEM_WRITE)
        } else {
            None
        };
        if let Some(needed) = needed {
            if route.access != Access::Permission(needed) {
                wrong.push(format!("{} {} declares {:?}, needs {needed}", route.method, route.path, route.access));
            }
        }
        if !route.audited && route.method != Method::GET {
            wrong.push(format!("{} {} writes without being audited", route.method, route.path));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
