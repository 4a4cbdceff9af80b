//! The sign-in and session flows (login, 401, 402 and refresh, logout), through the
//! real dispatch on a real (in-memory SQLite) store.

mod common;

use common::*;
use serde_json::json;

#[tokio::test]
async fn login_succeeds_with_the_right_password_and_user_info_follows() {
    let ctx = product().await;
    let token = login(&ctx, "admin", ADMIN_PW).await;
    let info = get(&ctx, "/index/userInfo", Some(&token)).await;
    assert_eq!(info.code(), 200);
    assert_eq!(info.data()["username"], "admin");
    assert_eq!(info.data()["roles"], json!(["Admin"]));
    assert_eq!(info.data()["permissions"], json!(["read:system", "write:system", "delete:system", "approve:refund", "manage:settings", "configure:charger"]));
    assert!(info.data()["avatar"].as_str().is_some_and(|a| !a.is_empty()));
    assert_eq!(info.data()["userType"], 0);
    // The personal center shows these for every role (the user list is Admin-only).
    assert!(info.data()["email"].is_string(), "{:?}", info.body);
    let since = info.data()["datatime"].as_str().unwrap_or_default();
    assert!(since.len() == 19 && since.as_bytes()[4] == b'-' && since.as_bytes()[13] == b':', "member since: {since:?}");
    assert!(info.data().get("passwordHash").is_none(), "the hash never leaves the server");
}

#[tokio::test]
async fn permissions_are_the_union_over_roles() {
    let ctx = product().await;
    let token = login(&ctx, "test", TEST_PW).await;
    let info = get(&ctx, "/index/userInfo", Some(&token)).await;
    assert_eq!(info.data()["roles"], json!(["Admin", "Editor"]));
    assert_eq!(info.data()["permissions"], json!(["read:system", "write:system", "delete:system", "approve:refund", "manage:settings", "configure:charger"]));
}

#[tokio::test]
async fn wrong_password_and_unknown_user_get_the_same_answer() {
    let ctx = product().await;
    let wrong = post(&ctx, "/login/index", None, json!({"username": "admin", "password": "not-the-password"})).await;
    let unknown = post(&ctx, "/login/index", None, json!({"username": "nobody", "password": "not-the-password"})).await;
    assert_eq!(wrong.status, 400);
    assert_eq!((wrong.status, wrong.msg()), (unknown.status, unknown.msg()));
    assert_eq!(wrong.msg(), "account or password incorrect");
    assert!(wrong.data().is_null());
}

#[tokio::test]
async fn login_validation_messages_follow_the_spec() {
    let ctx = product().await;
    let empty = post(&ctx, "/login/index", None, json!({"username": " ", "password": "123456"})).await;
    assert_eq!((empty.status, empty.msg()), (400, "user name cannot be empty"));
    let short = post(&ctx, "/login/index", None, json!({"username": "admin", "password": "12345"})).await;
    assert_eq!(short.status, 400);
    assert!(short.msg().contains("less than 6"), "{}", short.msg());
}

#[tokio::test]
async fn a_guesser_locks_only_their_own_address_out_of_the_account() {
    let ctx = product().await;
    for _ in 0..5 {
        let a = call_from(&ctx, http::Method::POST, "/login/index", None, Some(json!({"username": "editor", "password": "guess-guess"})), "10.0.0.9").await;
        assert_eq!(a.status, 400);
    }
    // From the guesser's address even the right password is refused now...
    let locked = call_from(&ctx, http::Method::POST, "/login/index", None, Some(json!({"username": "editor", "password": EDITOR_PW})), "10.0.0.9").await;
    assert_eq!(locked.status, 429, "{:?}", locked.body);
    assert!(locked.msg().contains("too many failed sign-in attempts"), "{}", locked.msg());
    // ...but the owner, from their own address, signs in.
    login(&ctx, "editor", EDITOR_PW).await;
    // After the lockout the guesser's address may try again.
    ctx.clock.advance(16 * 60);
    let again = call_from(&ctx, http::Method::POST, "/login/index", None, Some(json!({"username": "editor", "password": EDITOR_PW})), "10.0.0.9").await;
    assert_eq!(again.status, 200, "{:?}", again.body);
}

#[tokio::test]
async fn guesses_from_many_addresses_slow_down_unknown_places() {
    let ctx = product().await;
    ctx.clock.freeze();
    let guess = |i: u32| {
        let ctx = ctx.clone();
        async move { call_from(&ctx, http::Method::POST, "/login/index", None, Some(json!({"username": "editor", "password": "guess-guess"})), &format!("10.1.0.{i}")).await }
    };
    for i in 0..9 {
        assert_eq!(guess(i).await.status, 400, "the first failures are free");
    }
    assert_eq!(guess(9).await.status, 400, "the tenth is checked and starts the delay");
    let wait = guess(10).await;
    assert_eq!(wait.status, 429, "the next one, at once, must wait");
    // Someone at a new address, without the device of an earlier sign-in,
    // waits that delay too (a second at most here, a minute at most ever)...
    ctx.clock.advance(1);
    let (owner, _) = sign_in_from(&ctx, "editor", EDITOR_PW, "10.1.1.1", "").await;
    assert_eq!(owner.status, 200, "{:?}", owner.body);
    // ...and signing in gives back only their own attempt: the guessers'
    // delay stays.
    assert_eq!(guess(12).await.status, 429);
    ctx.clock.advance(2);
    assert_eq!(guess(12).await.status, 400);
}

/// The owner signed in once on this browser (it holds the device cookie).
/// 11 wrong guesses from 3 addresses, then the owner, from a fresh address,
/// signs in on the first try; without the cookie the owner's refused try
/// spends nothing of that address's budget.
async fn eleven_guesses_never_refuse_the_owners_device(ctx: std::sync::Arc<backoffice::AppCtx>) {
    ctx.clock.freeze();
    let (first, device) = sign_in_from(&ctx, "editor", EDITOR_PW, "10.9.0.1", "").await;
    assert_eq!(first.status, 200, "{:?}", first.body);
    let device = device.expect("a sign-in sets the device cookie");
    let mut refused = 0;
    for i in 0..11 {
        let ip = format!("10.8.0.{}", i % 3);
        let a = call_from(&ctx, http::Method::POST, "/login/index", None, Some(json!({"username": "editor", "password": "guess-guess"})), &ip).await;
        assert!(matches!(a.status, 400 | 429), "{:?}", a.body);
        refused += usize::from(a.status == 429);
    }
    assert!(refused >= 1, "the guesses were slowed");
    let (owner, renewed) = sign_in_from(&ctx, "editor", EDITOR_PW, "10.9.0.77", &device).await;
    assert_eq!(owner.status, 200, "the owner's device is never refused: {:?}", owner.body);
    assert!(renewed.is_some_and(|c| c != device), "each sign-in gives a fresh device token");
    // Without the cookie, at a fresh address, the account's delay applies,
    // and the refused right password counts against nothing.
    let (cookieless, _) = sign_in_from(&ctx, "editor", EDITOR_PW, "10.9.0.88", "").await;
    assert_eq!(cookieless.status, 429, "{:?}", cookieless.body);
    for kind in ["CLIENT", "PAIR"] {
        let key = match kind {
            "CLIENT" => backoffice::domain::keys::throttle(kind, "10.9.0.88"),
            _ => backoffice::domain::keys::throttle(kind, "editor@10.9.0.88"),
        };
        assert!(ctx.store.get(&key).await.unwrap().is_none(), "the refused try counted against {kind}");
    }
    // Another account's device cookie, or a forged one, is an unknown place.
    let (_, admins) = sign_in_from(&ctx, "admin", ADMIN_PW, "10.9.0.2", "").await;
    let foreign = admins.unwrap().replace(&auth::device::cookie_name("admin"), &auth::device::cookie_name("editor"));
    assert_eq!(sign_in_from(&ctx, "editor", EDITOR_PW, "10.9.0.89", &foreign).await.0.status, 429);
}

#[tokio::test]
async fn eleven_guesses_from_three_addresses_never_refuse_the_owners_device() {
    eleven_guesses_never_refuse_the_owners_device(product().await).await;
}

#[tokio::test]
async fn eleven_guesses_from_three_addresses_never_refuse_the_owners_device_on_dynamodb() {
    let Some(table) = dynamo_table("owner11").await else { return };
    eleven_guesses_never_refuse_the_owners_device(product_on_dynamo(table, &[]).await).await;
}

/// An attacker guesses from 8 addresses in turn, one guess per delay: each
/// sent the moment the account's delay (README's doubling schedule) ends,
/// so a delay is always running when the owner comes. The owner signs in
/// from their browser after every guess, each time at another address: 30
/// of 30 on the first try. The attacker's password checks stay within the
/// design (10 free a 15-minute window, then one per delay).
async fn a_paced_attack_never_keeps_the_owner_out(ctx: std::sync::Arc<backoffice::AppCtx>) {
    use backoffice::domain::throttle::{account_delay, ACCOUNT_WINDOW_SECS};
    ctx.clock.freeze();
    let (first, device) = sign_in_from(&ctx, "editor", EDITOR_PW, "10.9.0.1", "").await;
    assert_eq!(first.status, 200);
    let mut device = device.unwrap();
    let started = ctx.now();
    let (mut checked, mut owner_tries, mut owner_in) = (0, 0, 0);
    // The attacker's count of its failures in the account's current window.
    let (mut window_start, mut in_window) = (started, 0);
    for round in 0..200 {
        if ctx.now() >= window_start + ACCOUNT_WINDOW_SECS {
            (window_start, in_window) = (ctx.now(), 0);
        }
        let body = json!({"username": "editor", "password": format!("guess-{round}")});
        let (answer, headers) = call_with_headers(&ctx, http::Method::POST, "/login/index", None, Some(body), &format!("10.7.0.{}", round % 8), &[]).await;
        match answer.status {
            400 => {
                checked += 1;
                in_window += 1;
            }
            // Out of step (an address's own limit): wait what it says.
            429 => {
                ctx.clock.advance(headers[http::header::RETRY_AFTER].to_str().unwrap().parse::<i64>().unwrap());
                continue;
            }
            other => panic!("{other}: {:?}", answer.body),
        }
        // The first 10 guesses are the free ones; then the owner comes
        // after every guess, while the delay it started runs.
        if in_window >= 10 {
            owner_tries += 1;
            let (owner, renewed) = sign_in_from(&ctx, "editor", EDITOR_PW, &format!("10.6.{round}.1"), &device).await;
            if owner.status == 200 {
                owner_in += 1;
                device = renewed.unwrap();
            } else {
                eprintln!("round {round} at +{}: the owner was refused: {:?}", ctx.now() - started, owner.body);
            }
        }
        ctx.clock.advance(account_delay(in_window).max(1));
        if owner_tries == 30 {
            break;
        }
    }
    assert_eq!((owner_tries, owner_in), (30, 30), "the owner signed in on the first try every time");
    let windows = (ctx.now() - started) / ACCOUNT_WINDOW_SECS + 1;
    assert!(checked as i64 <= 10 * windows + 30, "{checked} guesses were checked in {} s", ctx.now() - started);
}

#[tokio::test]
async fn a_paced_attack_from_eight_addresses_never_keeps_the_owner_out() {
    a_paced_attack_never_keeps_the_owner_out(product().await).await;
}

#[tokio::test]
async fn a_paced_attack_from_eight_addresses_never_keeps_the_owner_out_on_dynamodb() {
    let Some(table) = dynamo_table("owner30").await else { return };
    a_paced_attack_never_keeps_the_owner_out(product_on_dynamo(table, &[("BACKOFFICE_ACCESS_TOKEN_TTL", "1800")]).await).await;
}

/// A stolen device token buys no more than a guessing pair: 50 wrong
/// passwords at once with it check at most 5.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_guesses_with_a_device_token_check_at_most_five_passwords() {
    let ctx = product().await;
    let (_, device) = sign_in_from(&ctx, "editor", EDITOR_PW, "10.9.0.1", "").await;
    let device = device.unwrap();
    let tasks: Vec<_> = (0..50)
        .map(|i| {
            let (ctx, device) = (ctx.clone(), device.clone());
            tokio::spawn(async move { sign_in_from(&ctx, "editor", "guess-guess", &format!("10.5.0.{i}"), &device).await.0.status })
        })
        .collect();
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.unwrap());
    }
    let checked = statuses.iter().filter(|s| **s == 400).count();
    assert!((1..=5).contains(&checked), "{checked} passwords were checked: {statuses:?}");
    assert_eq!(checked + statuses.iter().filter(|s| **s == 429).count(), 50);
}

/// 50 wrong passwords at once from one address for one account: the
/// attempt is counted before the password is checked, so at most the
/// pair's limit (5) are checked; the rest are refused without hashing.
async fn parallel_guesses_check_at_most_the_limit(ctx: std::sync::Arc<backoffice::AppCtx>) {
    let tasks: Vec<_> = (0..50)
        .map(|_| {
            let ctx = ctx.clone();
            tokio::spawn(async move {
                call_from(&ctx, http::Method::POST, "/login/index", None, Some(json!({"username": "editor", "password": "guess-guess"})), "10.2.0.1").await.status
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.unwrap());
    }
    let checked = statuses.iter().filter(|s| **s == 400).count();
    let refused = statuses.iter().filter(|s| **s == 429).count();
    assert!(checked <= 5, "{checked} passwords were checked: {statuses:?}");
    assert!(checked >= 1, "some attempts are checked: {statuses:?}");
    assert_eq!(checked + refused, 50, "{statuses:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_parallel_guesses_check_at_most_five_passwords() {
    parallel_guesses_check_at_most_the_limit(product().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_parallel_guesses_check_at_most_five_passwords_on_dynamodb() {
    let Some(table) = dynamo_table("throttle").await else { return };
    parallel_guesses_check_at_most_the_limit(product_on_dynamo(table, &[]).await).await;
}

#[tokio::test]
async fn wrong_current_passwords_count_per_session() {
    let ctx = product().await;
    let token = login(&ctx, "editor", EDITOR_PW).await;
    let change = |token: String, old: &str, ip: &'static str| {
        let (ctx, body) = (ctx.clone(), json!({"oldPassword": old, "newPassword": "a-brand-new-lantern-1"}));
        async move { call_from(&ctx, http::Method::POST, "/user/changePassword", Some(&token), Some(body), ip).await }
    };
    for _ in 0..5 {
        assert_eq!(change(token.clone(), "wrong-old-pass", "10.3.0.1").await.status, 400);
    }
    assert_eq!(change(token.clone(), EDITOR_PW, "10.3.0.2").await.status, 429, "that session is locked, from any address");
    // Guessing through one session (a stolen one) does not lock the owner's others.
    let other = login(&ctx, "editor", EDITOR_PW).await;
    let elsewhere = change(other, EDITOR_PW, "10.3.0.1").await;
    assert_eq!(elsewhere.status, 200, "{:?}", elsewhere.body);
}

#[tokio::test]
async fn one_client_guessing_many_accounts_is_throttled() {
    let ctx = product().await;
    for i in 0..20 {
        let body = json!({"username": format!("user{i}"), "password": "guess-guess"});
        call_from(&ctx, http::Method::POST, "/login/index", None, Some(body), "10.0.0.7").await;
    }
    let a = call_from(&ctx, http::Method::POST, "/login/index", None, Some(json!({"username": "admin", "password": ADMIN_PW})), "10.0.0.7").await;
    assert_eq!(a.status, 429);
}

#[tokio::test]
async fn missing_bad_and_forged_tokens_are_401() {
    let ctx = product().await;
    assert_eq!(get(&ctx, "/index/userInfo", None).await.status, 401);
    assert_eq!(get(&ctx, "/index/userInfo", Some("garbage")).await.status, 401);
    let token = login(&ctx, "editor", EDITOR_PW).await;
    let mut forged = token.clone();
    forged.pop();
    forged.push(if token.ends_with('A') { 'B' } else { 'A' });
    assert_eq!(get(&ctx, "/index/userInfo", Some(&forged)).await.status, 401);
    // A token signed with another secret.
    let other = product_with(&[("BACKOFFICE_JWT_SECRET", "another-secret-that-is-long-enough-9876543210")]).await;
    let foreign = login(&other, "editor", EDITOR_PW).await;
    assert_eq!(get(&ctx, "/index/userInfo", Some(&foreign)).await.status, 401);
}

#[tokio::test]
async fn expired_token_is_402_then_refresh_gives_a_working_pair() {
    let ctx = product().await;
    let first = sign_in(&ctx, "editor", EDITOR_PW).await;
    ctx.clock.advance(ACCESS_TOKEN_TTL_SECS + 1);
    let expired = get(&ctx, "/index/userInfo", Some(&first.access)).await;
    assert_eq!(expired.status, 402);
    assert_eq!(expired.msg(), "token expired");
    assert_eq!(get(&ctx, "/expireToken", Some(&first.access)).await.status, 402);
    let next = refresh(&ctx, &first.refresh).await.tokens();
    assert_ne!(next.refresh, first.refresh, "each refresh rotates the refresh token");
    assert_eq!(get(&ctx, "/index/userInfo", Some(&next.access)).await.code(), 200);
    assert_eq!(get(&ctx, "/expireToken", Some(&next.access)).await.code(), 200);
}

#[tokio::test]
async fn an_access_token_alone_never_refreshes() {
    let ctx = product().await;
    let t = sign_in(&ctx, "editor", EDITOR_PW).await;
    ctx.clock.advance(ACCESS_TOKEN_TTL_SECS + 1);
    // A stolen access token, expired: before, /refreshToken renewed it for 12 h.
    let stolen = get(&ctx, "/refreshToken", Some(&t.access)).await;
    assert_eq!(stolen.status, 401);
    assert!(stolen.msg().contains("X-Refresh-Token"), "{}", stolen.msg());
    for bad in ["", "garbage", "a.b.c", &format!("{}x", t.refresh), &t.access] {
        let a = refresh(&ctx, bad).await;
        assert_eq!(a.status, 401, "{bad:?}: {:?}", a.body);
    }
    // None of that harmed the session.
    assert_eq!(refresh(&ctx, &t.refresh).await.code(), 200);
}

#[tokio::test]
async fn refresh_stops_at_the_absolute_session_limit_even_when_active() {
    let ctx = product().await;
    let mut t = sign_in(&ctx, "editor", EDITOR_PW).await;
    // Busy all along (a refresh every 20 minutes), yet the session ends at
    // its absolute limit (BACKOFFICE_SESSION_TTL = 3600 in tests).
    for _ in 0..2 {
        ctx.clock.advance(1200);
        t = refresh(&ctx, &t.refresh).await.tokens();
    }
    ctx.clock.advance(1201);
    let over = refresh(&ctx, &t.refresh).await;
    assert_eq!(over.status, 401);
    assert!(over.msg().contains("session has ended"), "{}", over.msg());
}

#[tokio::test]
async fn an_idle_session_ends_and_activity_keeps_it_alive() {
    let ctx = product_with(&[("BACKOFFICE_SESSION_TTL", "43200")]).await;
    let mut t = sign_in(&ctx, "editor", EDITOR_PW).await;
    // Default idle timeout: 30 minutes. Requests every 20 minutes keep it.
    for _ in 0..3 {
        ctx.clock.advance(20 * 60);
        t = refresh(&ctx, &t.refresh).await.tokens();
        assert_eq!(get(&ctx, "/index/userInfo", Some(&t.access)).await.code(), 200);
    }
    ctx.clock.advance(31 * 60);
    let idle = refresh(&ctx, &t.refresh).await;
    assert_eq!(idle.status, 401);
    assert!(idle.msg().contains("without activity"), "{}", idle.msg());
    assert_eq!(refresh(&ctx, &t.refresh).await.status, 401, "the session is gone, not only refused once");

    // The timeout is an operations setting; a request with a live access
    // token past it ends the session too.
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let saved = post(&ctx, "/operationSettings/doEdit", Some(&admin), json!({"offlineAfterIntervals": 3, "stuckAfterHours": 12, "idleTimeoutMinutes": 5, "version": 0})).await;
    assert_eq!(saved.code(), 200, "{:?}", saved.body);
    assert_eq!(get(&ctx, "/operationSettings/get", Some(&admin)).await.data()["idleTimeoutMinutes"], 5);
    let out_of_range = post(&ctx, "/operationSettings/doEdit", Some(&admin), json!({"offlineAfterIntervals": 3, "stuckAfterHours": 12, "idleTimeoutMinutes": 4, "version": 1})).await;
    assert_eq!(out_of_range.status, 400);
    assert!(out_of_range.msg().contains("idleTimeoutMinutes") && out_of_range.msg().contains("from 5 to 720"), "{}", out_of_range.msg());
    let busy = sign_in(&ctx, "editor", EDITOR_PW).await;
    ctx.clock.advance(50);
    assert_eq!(get(&ctx, "/index/userInfo", Some(&busy.access)).await.code(), 200);
    let quiet = sign_in(&ctx, "editor", EDITOR_PW).await;
    ctx.clock.advance(5 * 60 + 1);
    let ended = refresh(&ctx, &quiet.refresh).await;
    assert!(ended.status == 401 && ended.msg().contains("without activity"), "{:?}", ended.body);
}

#[tokio::test]
async fn expire_token_is_not_200_for_an_ended_session() {
    let ctx = product().await;
    let t = sign_in(&ctx, "admin", ADMIN_PW).await;
    assert_eq!(get(&ctx, "/expireToken", Some(&t.access)).await.code(), 200);
    assert_eq!(get(&ctx, "/login/logout", Some(&t.access)).await.code(), 200);
    let after = get(&ctx, "/expireToken", Some(&t.access)).await;
    assert_eq!(after.status, 401, "{:?}", after.body);
}

#[tokio::test]
async fn logout_revokes_the_session_even_with_an_expired_token() {
    let ctx = product().await;
    let t = sign_in(&ctx, "admin", ADMIN_PW).await;
    let other = sign_in(&ctx, "admin", ADMIN_PW).await;
    assert_eq!(get(&ctx, "/login/logout", Some(&t.access)).await.code(), 200);
    assert_eq!(get(&ctx, "/index/userInfo", Some(&t.access)).await.status, 401);
    assert_eq!(refresh(&ctx, &t.refresh).await.status, 401);
    assert_eq!(get(&ctx, "/index/userInfo", Some(&other.access)).await.code(), 200, "other sessions live on");
    ctx.clock.advance(ACCESS_TOKEN_TTL_SECS + 1);
    assert_eq!(get(&ctx, "/login/logout", Some(&other.access)).await.code(), 200, "stale token can still sign out");
    assert_eq!(refresh(&ctx, &other.refresh).await.status, 401);
}

/// Rotation and reuse detection lean on the store's conditional update:
/// run on both adapters.
async fn a_reused_refresh_token_ends_the_whole_session(ctx: std::sync::Arc<backoffice::AppCtx>) {
    let t1 = sign_in(&ctx, "editor", EDITOR_PW).await;
    let t2 = refresh(&ctx, &t1.refresh).await.tokens();
    // The thief (or the victim) presents the traded token again.
    let reused = refresh(&ctx, &t1.refresh).await;
    assert_eq!(reused.status, 401);
    assert!(reused.msg().contains("already used"), "{}", reused.msg());
    // Every token of that session is dead now, the newest included.
    assert_eq!(refresh(&ctx, &t2.refresh).await.status, 401);
    assert_eq!(get(&ctx, "/index/userInfo", Some(&t2.access)).await.status, 401);

    // Two trades of one token at once: one pair at most, and the session ends.
    let t = sign_in(&ctx, "editor", EDITOR_PW).await;
    let answers = futures::future::join_all((0..4).map(|_| refresh(&ctx, &t.refresh))).await;
    let won: Vec<_> = answers.iter().filter(|a| a.code() == 200).collect();
    assert!(won.len() <= 1, "{answers:?}");
    assert!(answers.iter().any(|a| a.msg().contains("already used")), "{answers:?}");
    for w in won {
        assert_eq!(refresh(&ctx, &w.tokens().refresh).await.status, 401, "the winner's pair died with the session");
    }
}

#[tokio::test]
async fn a_reused_refresh_token_ends_the_whole_session_on_sqlite() {
    a_reused_refresh_token_ends_the_whole_session(product().await).await;
}

#[tokio::test]
async fn a_reused_refresh_token_ends_the_whole_session_on_dynamodb() {
    let Some(table) = dynamo_table("refresh").await else { return };
    a_reused_refresh_token_ends_the_whole_session(product_on_dynamo(table, &[]).await).await;
}

#[tokio::test]
async fn register_creates_an_account_without_roles() {
    let ctx = product().await;
    let a = post(&ctx, "/register", None, json!({"username": "newcomer", "password": "bright-harbour-71", "email": "n@ev.example"})).await;
    assert_eq!(a.code(), 200, "{:?}", a.body);
    let token = a.data()["token"].as_str().unwrap();
    let info = get(&ctx, "/index/userInfo", Some(token)).await;
    assert_eq!(info.data()["roles"], json!([]));
    assert_eq!(info.data()["permissions"], json!([]));
    let again = post(&ctx, "/register", None, json!({"username": "NEWCOMER", "password": "bright-harbour-71"})).await;
    assert_eq!(again.status, 409);
    assert!(again.msg().contains("already taken"));
    let bad = post(&ctx, "/register", None, json!({"username": "x", "password": "bright-harbour-71"})).await;
    assert_eq!(bad.status, 400);
    let short = post(&ctx, "/register", None, json!({"username": "shorty", "password": "12345"})).await;
    assert_eq!(short.status, 400);
    assert_eq!(post(&ctx, "/login/index", None, json!({"username": "shorty", "password": "12345x"})).await.status, 400, "nothing was written");
}

#[tokio::test]
async fn registration_can_be_closed() {
    let ctx = product_with(&[("BACKOFFICE_ALLOW_REGISTER", "false")]).await;
    let a = post(&ctx, "/register", None, json!({"username": "newcomer", "password": "bright-harbour-71"})).await;
    assert_eq!(a.status, 403);
    assert!(a.msg().contains("registration is closed"));
}

#[tokio::test]
async fn change_password_checks_the_old_one_and_ends_other_sessions() {
    let ctx = product().await;
    let token = login(&ctx, "editor", EDITOR_PW).await;
    let elsewhere = login(&ctx, "editor", EDITOR_PW).await;
    let wrong = post(&ctx, "/user/changePassword", Some(&token), json!({"oldPassword": "nope-nope", "newPassword": "brand-new-lantern-1"})).await;
    assert_eq!(wrong.status, 400);
    let short = post(&ctx, "/user/changePassword", Some(&token), json!({"oldPassword": EDITOR_PW, "newPassword": "12345"})).await;
    assert_eq!(short.status, 400);
    let ok = post(&ctx, "/user/changePassword", Some(&token), json!({"oldPassword": EDITOR_PW, "newPassword": "brand-new-lantern-1"})).await;
    assert_eq!(ok.code(), 200, "{:?}", ok.body);
    assert_eq!(get(&ctx, "/index/userInfo", Some(&token)).await.code(), 200, "this session lives on");
    assert_eq!(get(&ctx, "/index/userInfo", Some(&elsewhere)).await.status, 401, "other sessions end");
    assert_eq!(post(&ctx, "/login/index", None, json!({"username": "editor", "password": EDITOR_PW})).await.status, 400);
    login(&ctx, "editor", "brand-new-lantern-1").await;
}

#[tokio::test]
async fn messages_follow_accept_language() {
    let ctx = product().await;
    let route = backoffice::routes::find(&http::Method::GET, "/index/userInfo").unwrap();
    let mut req = backoffice::ApiRequest::new(http::Method::GET, "/index/userInfo");
    req.headers.insert("accept-language", "zh-CN,zh;q=0.9".parse().unwrap());
    let resp = common::dispatch(&ctx, route, req).await;
    let body: serde_json::Value = serde_json::from_slice(resp.body()).unwrap();
    assert_eq!(body["code"], 401);
    assert!(body["msg"].as_str().unwrap().contains("未登录"));
}

#[tokio::test]
async fn no_rsa_key_is_announced_and_the_removed_mode_cannot_be_turned_on() {
    let ctx = product().await;
    let a = get(&ctx, "/publicKey", None).await;
    assert_eq!(a.data()["publicKey"], "");
    assert_eq!(a.data()["mockServer"], false);
    // An RSA-encrypted body (`{"param": ...}`) is not a sign-in.
    let sealed = post(&ctx, "/login/index", None, json!({"param": "bm90IGVuY3J5cHRlZA=="})).await;
    assert_eq!(sealed.status, 400, "{:?}", sealed.body);
    // A configuration still asking for it is refused with the reason.
    let vars = env(&[("BACKOFFICE_RSA", "true")]);
    let err = backoffice::config::Config::from_lookup(|k| vars.get(k).cloned()).unwrap_err();
    assert!(err.0.contains("no longer supported") && err.0.contains("TLS"), "{}", err.0);
}

#[tokio::test]
async fn a_weak_stored_hash_is_upgraded_at_the_next_sign_in() {
    let ctx = product().await;
    // A hash made with far weaker argon2id parameters (m=8 KiB, t=1), as an
    // older release or an import would have left it.
    let weak = "$argon2id$v=19$m=8,t=1,p=1$Jl5gNxOpoC8n+oH8zTdbPw$4itydh8Q1qusKuEdS68FPYiE+w+3LA+/BXotWxWHASQ";
    let key = backoffice::domain::keys::password("editor");
    ctx.store.update(&key, vec![store::UpdateAction::Set("passwordHash".into(), weak.into())], None).await.unwrap();
    login(&ctx, "editor", "weak-hash-pass-1").await;
    let stored = ctx.store.get(&key).await.unwrap().unwrap();
    let hash = stored["passwordHash"].as_str().unwrap();
    assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "upgraded: {hash}");
    assert!(!auth::needs_rehash(hash));
    // The same password still signs in, against the new hash.
    login(&ctx, "editor", "weak-hash-pass-1").await;
}

/// New passwords that meet the length rule but are easy to guess (the
/// strength estimator's verdict) are refused on sign-up and on change,
/// with the reason in the caller's language, naming the form's field.
#[tokio::test]
async fn passwords_easy_to_guess_are_refused_on_sign_up_and_change() {
    let ctx = product().await;
    for weak in ["password1234", "Password1234!", "qwertyuiop123"] {
        let (en, _) = call_with_headers(&ctx, http::Method::POST, "/register", None, Some(json!({"username": "newcomer", "password": weak})), "10.4.0.1", &[]).await;
        assert_eq!(en.status, 400, "{weak}: {:?}", en.body);
        assert!(en.msg().starts_with("this password is too easy to guess"), "{}", en.msg());
        assert_eq!(en.data()["fields"][0]["field"], "password");
        let (zh, _) = call_with_headers(&ctx, http::Method::POST, "/register", None, Some(json!({"username": "newcomer", "password": weak})), "10.4.0.1", &[("accept-language", "zh-CN")]).await;
        assert!(zh.msg().starts_with("密码太容易被猜到"), "{}", zh.msg());
        assert_eq!(zh.data()["fields"][0]["zh"], zh.msg());
    }
    assert_eq!(post(&ctx, "/login/index", None, json!({"username": "newcomer", "password": "password1234"})).await.status, 400, "no account was made");

    let token = login(&ctx, "editor", EDITOR_PW).await;
    let change = post(&ctx, "/user/changePassword", Some(&token), json!({"oldPassword": EDITOR_PW, "newPassword": "Password1234!"})).await;
    assert_eq!(change.status, 400, "{:?}", change.body);
    assert_eq!(change.data()["fields"][0]["field"], "newPassword");
    assert!(change.msg().contains("too easy to guess"), "{}", change.msg());
    login(&ctx, "editor", EDITOR_PW).await;
}

/// A disabled account says so only to its right password: a wrong one is
/// answered exactly as on an enabled account (status, message, data), after
/// the same password check, so a guesser learns nothing about the account.
#[tokio::test]
async fn a_disabled_account_answers_a_wrong_password_like_any_other() {
    let ctx = product().await;
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let users = get(&ctx, "/userManagement/getList?username=editor", Some(&admin)).await;
    let version = users.data()["list"][0]["version"].clone();
    let disabled = post(&ctx, "/userManagement/doEdit", Some(&admin), json!({"username": "editor", "roles": ["Editor"], "enabled": false, "version": version})).await;
    assert_eq!(disabled.status, 200, "{:?}", disabled.body);
    for lang in ["en", "zh-CN"] {
        let wrong = |user: &'static str| {
            let ctx = ctx.clone();
            async move { call_with_headers(&ctx, http::Method::POST, "/login/index", None, Some(json!({"username": user, "password": "not-the-password"})), "10.4.1.1", &[("accept-language", lang)]).await }
        };
        let (on_disabled, h1) = wrong("editor").await;
        let (on_enabled, h2) = wrong("test").await;
        assert_eq!((on_disabled.status, &on_disabled.body), (on_enabled.status, &on_enabled.body), "{lang}");
        assert!(h1.get(http::header::SET_COOKIE).is_none() && h2.get(http::header::SET_COOKIE).is_none());
    }
    let (right, cookie) = sign_in_from(&ctx, "editor", EDITOR_PW, "10.4.1.2", "").await;
    assert_eq!(right.status, 400);
    assert!(right.msg().contains("disabled"), "{}", right.msg());
    assert!(cookie.is_none(), "a disabled account's browser is not remembered");
}

/// Password hashes live in their own partition (`PWD#`), which the IAM
/// policies keep away from every function but the password routes. Records
/// written before keep signing in: the hash is read from the record, moved
/// to its own item at that sign-in (or by the backfill), and an edit of such
/// a record in between carries it along.
async fn hashes_stored_the_old_way_keep_signing_in_and_move(ctx: std::sync::Arc<backoffice::AppCtx>) {
    use backoffice::domain::{keys, users};
    // New records hold no hash: it is in its own item.
    for name in ["admin", "editor", "test"] {
        let record = ctx.store.get(&keys::user(name)).await.unwrap().unwrap();
        assert!(!record.contains_key("passwordHash"), "{name}: {record:?}");
        assert!(ctx.store.get(&keys::password(name)).await.unwrap().unwrap()["passwordHash"].as_str().unwrap().starts_with("$argon2id$"));
    }
    // editor and test as an older release stored them: the hash in the record.
    for name in ["editor", "test"] {
        let hash = ctx.store.get(&keys::password(name)).await.unwrap().unwrap()["passwordHash"].clone();
        ctx.store.update(&keys::user(name), vec![store::UpdateAction::Set("passwordHash".into(), hash)], None).await.unwrap();
        ctx.store.delete(&keys::password(name), None).await.unwrap();
    }
    // An admin's edit of the old record (a put of the whole record) keeps the hash.
    let admin = login(&ctx, "admin", ADMIN_PW).await;
    let listed = get(&ctx, "/userManagement/getList?username=editor", Some(&admin)).await;
    let version = listed.data()["list"][0]["version"].clone();
    let edit = post(&ctx, "/userManagement/doEdit", Some(&admin), json!({"username": "editor", "email": "ed@example.com", "roles": ["Editor"], "enabled": true, "version": version})).await;
    assert_eq!(edit.status, 200, "{:?}", edit.body);
    assert!(ctx.store.get(&keys::user("editor")).await.unwrap().unwrap().contains_key("passwordHash"));
    // The sign-in reads it from the record and moves it.
    let editor = login(&ctx, "editor", EDITOR_PW).await;
    assert!(!ctx.store.get(&keys::user("editor")).await.unwrap().unwrap().contains_key("passwordHash"), "moved out of the record");
    assert!(ctx.store.get(&keys::password("editor")).await.unwrap().is_some());
    login(&ctx, "editor", EDITOR_PW).await;
    // The profile change writes the profile's attributes only.
    let profile = post(&ctx, "/user/updateProfile", Some(&editor), json!({"email": "editor@example.com", "avatar": ""})).await;
    assert_eq!(profile.status, 200, "{:?}", profile.body);
    let record = ctx.store.get(&keys::user("editor")).await.unwrap().unwrap();
    assert_eq!((record["email"].as_str(), record["roles"].clone()), (Some("editor@example.com"), json!(["Editor"])));
    assert!(!record.contains_key("passwordHash"));
    // The backfill moves the rest (test), once.
    assert_eq!(users::move_password_hashes(&ctx).await.unwrap(), 1);
    assert_eq!(users::move_password_hashes(&ctx).await.unwrap(), 0);
    assert!(!ctx.store.get(&keys::user("test")).await.unwrap().unwrap().contains_key("passwordHash"));
    login(&ctx, "test", TEST_PW).await;
}

#[tokio::test]
async fn hashes_stored_the_old_way_keep_signing_in_and_move_on_sqlite() {
    hashes_stored_the_old_way_keep_signing_in_and_move(product().await).await;
}

#[tokio::test]
async fn hashes_stored_the_old_way_keep_signing_in_and_move_on_dynamodb() {
    let Some(table) = dynamo_table("pwdmove").await else { return };
    hashes_stored_the_old_way_keep_signing_in_and_move(product_on_dynamo(table, &[]).await).await;
}
