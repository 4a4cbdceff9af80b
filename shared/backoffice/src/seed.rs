//! First-run data: roles, the menu tree, the departments and the first
//! Admin; with demo data (development, or `BACKOFFICE_DEMO_DATA=1`) also
//! the `editor` and `test` accounts, stations, piles, cards, notices and
//! months of orders. Production creates no demo account and no fictitious
//! order (finance would report them). Idempotent: a marker record says the
//! store is seeded.

use envelope::ApiError;
use serde_json::json;
use store::{Condition, TxOp};

use crate::ctx::AppCtx;
use crate::domain::users::User;
use crate::domain::{cards, keys, menus, notices, roles, StoreResultExt};

/// The seeded accounts and their roles: admin is Admin, editor is Editor, test is both.
pub const SEEDED_USERS: [(&str, &[&str]); 3] =
    [("admin", &["Admin"]), ("editor", &["Editor"]), ("test", &["Admin", "Editor"])];

/// A seeded account's sign-in, for printing once.
#[derive(Debug, Clone)]
pub struct Credential {
    pub username: String,
    pub password: String,
    /// True when the password was generated (not configured).
    pub generated: bool,
}

/// What seeding did.
#[derive(Debug, Clone, Default)]
pub struct SeedReport {
    /// False when the store was seeded before (nothing changed).
    pub seeded_now: bool,
    pub credentials: Vec<Credential>,
    /// The password the demo piles accept (the charge-point simulator uses it).
    pub demo_charger_password: Option<String>,
}

/// The account production starts with; the others are demo accounts.
pub const FIRST_ADMIN: &str = "admin";

/// The password for a seeded user: `BACKOFFICE_SEED_PASSWORD_<NAME>`, or
/// a random one where generating is allowed (development: it is printed
/// once and kept in the data dir; production has nowhere safe to show it).
pub fn seed_password(get: &impl Fn(&str) -> Option<String>, username: &str, may_generate: bool) -> Result<Credential, String> {
    let var = format!("BACKOFFICE_SEED_PASSWORD_{}", username.to_uppercase());
    match get(&var).filter(|p| !p.is_empty()) {
        // Production's first Admin meets the policy for new passwords; a
        // development seed only the sign-in form's bounds, so the short
        // fixed passwords of tests and demos keep working.
        Some(password) if !may_generate => {
            auth::password_policy(&password, username).map_err(|e| format!("{var}: {e}"))?;
            Ok(Credential { username: username.into(), password, generated: false })
        }
        Some(password) => {
            let n = password.chars().count();
            if !(auth::PASSWORD_MIN_CHARS..=auth::PASSWORD_MAX_CHARS).contains(&n) {
                return Err(format!("{var}: a password has {} to {} characters", auth::PASSWORD_MIN_CHARS, auth::PASSWORD_MAX_CHARS));
            }
            Ok(Credential { username: username.into(), password, generated: false })
        }
        None if may_generate => Ok(Credential { username: username.into(), password: random_password(), generated: true }),
        None => Err(format!(
            "{var} is not set: production's first start creates the '{username}' account with the password given there (it is never generated or printed)"
        )),
    }
}

/// Whether the first start writes demo data: `BACKOFFICE_DEMO_DATA`
/// (1/0, true/false), by default yes in development and no in production.
pub fn demo_data_wanted(get: &impl Fn(&str) -> Option<String>, mode: crate::config::Mode) -> Result<bool, String> {
    match get("BACKOFFICE_DEMO_DATA").map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        None | Some("") => Ok(mode == crate::config::Mode::Development),
        Some("1" | "true" | "yes") => Ok(true),
        Some("0" | "false" | "no") => Ok(false),
        Some(other) => Err(format!("BACKOFFICE_DEMO_DATA must be 1 or 0, not '{other}'")),
    }
}

fn random_password() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    let mut rng = rand::thread_rng();
    (0..16).map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char).collect()
}

/// Seeds an empty store; does nothing when it was seeded before.
pub async fn ensure_seeded(ctx: &AppCtx, get: impl Fn(&str) -> Option<String>) -> Result<SeedReport, ApiError> {
    if ctx.store.get(&keys::seed_marker()).await.api()?.is_some() {
        return Ok(SeedReport::default());
    }
    let now = ctx.now();
    // What is wrong with the configuration, for the operator starting the product.
    let refuse = |problem: String| ApiError::bad_request(envelope::msg::seed::config(problem));
    let production = ctx.config.mode == crate::config::Mode::Production;
    let demo = demo_data_wanted(&get, ctx.config.mode).map_err(refuse)?;
    let accounts: Vec<_> = SEEDED_USERS.iter().filter(|(name, _)| demo || *name == FIRST_ADMIN).collect();
    let mut credentials = Vec::new();
    let mut ops = Vec::new();
    for mut role in roles::seeded() {
        role.user_count = accounts.iter().filter(|(_, held)| held.contains(&role.name.as_str())).count() as i64;
        ops.push(TxOp::Put { item: role.to_item(), condition: Some(Condition::item_absent()) });
    }
    for (username, role_names) in accounts {
        let cred = seed_password(&get, username, !production).map_err(refuse)?;
        let hash = crate::password_work::hash(&cred.password).await?;
        let mut user = User::new(username, hash, role_names.iter().map(|r| r.to_string()).collect(), now);
        user.email = format!("{username}@ev-operator.example");
        ops.extend(user.create_ops());
        credentials.push(cred);
    }
    ops.push(TxOp::Put { item: menus::tree_item(menus::seed_tree(), 1, now), condition: Some(Condition::item_absent()) });
    let mut marker = store::Item::new();
    let key = keys::seed_marker();
    marker.insert(store::PK.into(), key.pk.into());
    marker.insert(store::SK.into(), key.sk.into());
    marker.insert("seededAt".into(), json!(now));
    ops.push(TxOp::Put { item: marker, condition: Some(Condition::item_absent()) });
    // All or nothing: a half-seeded store would refuse a second attempt.
    ctx.store.transact(ops).await.api()?;
    crate::domain::departments::seed(ctx, "总部", &["运营部", "财务部", "运维部", "客服部"]).await?;
    if !demo {
        return Ok(SeedReport { seeded_now: true, credentials, demo_charger_password: None });
    }
    // One demo data set (sized by BACKOFFICE_DEMO_ORDERS) for assets and orders.
    let mut demo = charging::demo::DemoData::generate(crate::domain::orders::seed::demo_config(&get, now)?);
    speak_201(&mut demo);
    speak_ykc(&mut demo);
    let charger_password = match get("BACKOFFICE_DEMO_CHARGER_PASSWORD").filter(|p| !p.is_empty()) {
        Some(p) => match crate::domain::chargers::secret::problem(&p, &[]) {
            Some(why) => return Err(ApiError::bad_request(envelope::msg::seed::demo_charger_password(why))),
            None => p,
        },
        None => crate::domain::chargers::secret::generate(),
    };
    crate::domain::assets::seed::seed_assets(ctx, &demo, &charger_password).await?;
    seed_demo_cards(ctx).await?;
    for (kind, html) in [
        ("notice", r#"<a href="https://github.com" target="_blank">充电运营后台 2.0 已上线：新增分时电价模板与订单导出</a>"#),
        ("notice", "本周六 02:00-04:00 进行系统维护，期间远程启停不可用"),
        ("email", "财务月结提醒：请在 3 日前完成上月结算单核对"),
    ] {
        notices::publish(ctx, "", notices::Draft { kind, html, email: "ops@ev-operator.example", image: "" }).await?;
    }
    crate::domain::orders::seed::seed_orders(ctx, &demo).await?;
    Ok(SeedReport { seeded_now: true, credentials, demo_charger_password: Some(charger_password) })
}

/// The demo station with OCPP 2.0.1 piles (the fifth, 天河体育中心充电站:
/// no test edits it) and how many of its piles, the first ones, speak 2.0.1.
const DEMO_201_STATION: usize = 4;
const DEMO_201_PILES: usize = 2;

/// Some demo piles are registered for OCPP 2.0.1, so the demo shows a
/// station of both versions and the charge-point simulator runs them as
/// 2.0.1 stations.
fn speak_201(demo: &mut charging::demo::DemoData) {
    let Some(station) = demo.stations.get(DEMO_201_STATION).map(|s| s.id.clone()) else { return };
    for pile in demo.piles.iter_mut().filter(|p| p.station_id == station).take(DEMO_201_PILES) {
        pile.ocpp_version = charging::pile::OcppVersion::V201;
    }
}

/// The demo station whose piles speak YKC (the sixth, 琶洲会展充电站: no
/// test edits it): all of them, the last one 1.5, the others 1.6.
const DEMO_YKC_STATION: usize = 5;
/// The first ten digits of its piles' numbers (then the pile's, 4 digits):
/// the district's code, then the station's number.
const DEMO_YKC_NUMBER_PREFIX: &str = "4401050006";

/// The piles of one demo station are registered for YKC, with 14-digit pile
/// numbers and the protocol's 10 s heartbeat, so the demo has piles of
/// every protocol and the charge-point simulator runs them as YKC piles on
/// the gateway's YKC port.
fn speak_ykc(demo: &mut charging::demo::DemoData) {
    let Some(station) = demo.stations.get(DEMO_YKC_STATION).map(|s| s.id.clone()) else { return };
    let piles: Vec<usize> = demo.piles.iter().enumerate().filter(|(_, p)| p.station_id == station).map(|(i, _)| i).collect();
    let last = piles.last().copied();
    for (n, i) in piles.into_iter().enumerate() {
        let pile = &mut demo.piles[i];
        let code = format!("{DEMO_YKC_NUMBER_PREFIX}{:04}", n + 1);
        pile.ocpp_version = if Some(i) == last { charging::pile::OcppVersion::Ykc15 } else { charging::pile::OcppVersion::Ykc16 };
        pile.heartbeat_interval_secs = 10;
        for c in demo.connectors.iter_mut().filter(|c| c.pile_id == pile.id) {
            c.pile_code = code.clone();
        }
        pile.code = code;
    }
}

fn demo_number(tag: &str) -> names::CardNumber {
    names::CardNumber::parse(tag).expect("the demo's card numbers are canonical")
}

/// The demo's cards YKC piles can read: `CA000001`-`CA000005` (the
/// simulator's YKC piles swipe them).
pub fn ykc_demo_cards() -> Vec<String> {
    (1..=5).map(|i| format!("CA{i:06}")).collect()
}

/// The demo's cards: `DEMO0001`-`DEMO0020` accepted (the charge-point
/// simulator uses them), one blocked, one expired; `PRE0001` prepaid with
/// a balance of 200 yuan topped up by the seeder; `CA000001`-`CA000005`
/// for YKC piles.
async fn seed_demo_cards(ctx: &AppCtx) -> Result<(), ApiError> {
    let now = ctx.now();
    let plain = |id_tag: &str, holder: &str, plate: &str, status: cards::CardStatus, expires_at: Option<i64>, parent: Option<&str>| cards::ImportRow {
        id_tag: demo_number(id_tag),
        holder: holder.into(),
        plate: plate.into(),
        status: Some(status),
        expires_at,
        parent_id_tag: parent.map(demo_number),
        payment: None,
        token_type: None,
        row: None,
    };
    let mut rows: Vec<cards::ImportRow> = (1..=20).map(|i| plain(&format!("DEMO{i:04}"), &format!("演示用户{i:02}"), &format!("京A{:05}", 10_000 + i * 37), cards::CardStatus::Accepted, None, None)).collect();
    rows.push(plain("FLEET01", "车队卡（集团）", "", cards::CardStatus::Accepted, None, None));
    rows.push(plain("FLEET01-A", "车队司机A", "粤B12345", cards::CardStatus::Accepted, None, Some("FLEET01")));
    rows.push(plain("BLOCKED01", "挂失卡", "", cards::CardStatus::Blocked, None, None));
    rows.push(plain("EXPIRED01", "过期卡", "", cards::CardStatus::Accepted, Some(now - 86_400), None));
    rows.push(cards::ImportRow { payment: Some(cards::CardPayment::Prepaid), ..plain("PRE0001", "预付费用户", "京B20001", cards::CardStatus::Accepted, None, None) });
    // Cards a YKC pile reads (its card field is 8 bytes: hex numbers).
    for (i, tag) in ykc_demo_cards().iter().enumerate() {
        rows.push(plain(tag, &format!("云快充卡用户{:02}", i + 1), &format!("粤A{:05}", 60_000 + i * 41), cards::CardStatus::Accepted, None, None));
    }
    cards::import(ctx, rows, false, "seed").await?;
    cards::top_up(ctx, "PRE0001", charging::Fen(20_000), "demo", "seed").await.map(|_| ())
}
