//! The local gateway: what the README's run command starts. It mounts
//! every route of the route table under `/partnerapi` (the same dispatch
//! the Lambda functions run), serves the built SPA at `/`, and seeds an
//! empty store on first run.
//!
//! Usage: `gateway [serve]`, `gateway seed`, `gateway count-refunds-by-day`
//! (the one-time catch-up below, for a table no gateway serves), `gateway openapi` (prints the
//! OpenAPI document), `gateway simulate` (the charge-point simulator),
//! `gateway backup FILE` / `gateway restore FILE` (the embedded store). Configuration comes from
//! the environment (see NOTES.md); a problem stops start-up with one line.

use gateway::server;

use std::process::ExitCode;

use backoffice::seed::{ensure_seeded, SeedReport};

// Every charger message allocates and frees small buffers on one worker
// and hands some to another (frames, JSON values, store items); mimalloc's
// per-thread free lists cost less there than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), String> {
    let command = std::env::args().nth(1).unwrap_or_else(|| "serve".into());
    match command.as_str() {
        "serve" => {
            backoffice::runtime::init_tracing(log_as_json()?);
            let options = server::ServeOptions::from_env(|name| std::env::var(name).ok())?;
            let ctx = backoffice::runtime::context_from_env().await.map_err(|e| e.to_string())?;
            server::require_licence_guard(&ctx.config)?;
            // One gateway per data dir; `gateway restore` waits for none.
            let _lock = match backoffice::config::sqlite_path_from_env() {
                Ok(db) => {
                    Some(store::sqlite_file::DataLock::acquire(&db)?)
                }
                Err(_) => None, // DynamoDB: nothing local to guard
            };
            let report = seed(&ctx).await?;
            count_earlier_refunds(&ctx, false).await?;
            backoffice::password_work::reserve_memory();
            if std::env::var("BACKOFFICE_SIMULATE_CHARGERS").is_ok_and(|v| v == "1") {
                simulate_chargers(ctx.clone());
            }
            server::serve(ctx, report, options).await
        }
        "backup" => gateway::backup_cli::backup(&std::env::args().skip(2).collect::<Vec<_>>()),
        "restore" => gateway::backup_cli::restore(&std::env::args().skip(2).collect::<Vec<_>>()),
        "seed" => {
            let ctx = backoffice::runtime::context_from_env().await.map_err(|e| e.to_string())?;
            let report = seed(&ctx).await?;
            if !report.seeded_now {
                println!("the store was already seeded; nothing changed");
            }
            Ok(())
        }
        "count-refunds-by-day" => {
            // For a DynamoDB table that no gateway serves (AWS): the gateway does this at start.
            let ctx = backoffice::runtime::context_from_env().await.map_err(|e| e.to_string())?;
            count_earlier_refunds(&ctx, true).await
        }
        "backfill" => {
            // Index entries records stored before their kind existed lack
            // (the order list's amount and energy sorts, station names by
            // any part, cards by number, holder and plate), and password
            // hashes out of user records; idempotent and safe while serving.
            let ctx = backoffice::runtime::context_from_env().await.map_err(|e| e.to_string())?;
            let done = backoffice::domain::orders::backfill::missing_pointers(&ctx).await.map_err(|e| e.to_string())?;
            println!("{} orders in {} months read; {} missing pointers written", done.orders, done.months, done.written);
            let (stations, entries) = backoffice::domain::assets::stations::backfill_words(&ctx).await.map_err(|e| e.to_string())?;
            println!("{stations} stations read; {entries} name word entries written");
            let (cards, entries) = backoffice::domain::cards::backfill_lookup(&ctx).await.map_err(|e| e.to_string())?;
            println!("{cards} cards read; {entries} lookup and balance entries written");
            // Password hashes still kept in user records the old way move
            // to their own items (sign-in moves each one too).
            let moved = backoffice::domain::users::move_password_hashes(&ctx).await.map_err(|e| e.msg.en.clone())?;
            println!("{moved} password hashes moved to their own items");
            Ok(())
        }
        "openapi" => {
            // The document the gateway serves at /partnerapi/openapi.json.
            print!("{}", backoffice::openapi::document_text());
            Ok(())
        }
        "simulate" => {
            tracing_subscriber::fmt().with_env_filter(tracing_subscriber::EnvFilter::from_env("BACKOFFICE_LOG")).init();
            gateway::simulate_cli::run(std::env::args().skip(2).collect()).await
        }
        "-h" | "--help" | "help" => {
            println!("usage: gateway [serve|seed|count-refunds-by-day|backfill|openapi|simulate|backup FILE|restore FILE]   (configuration: BACKOFFICE_* environment variables, see NOTES.md; gateway simulate --help)");
            Ok(())
        }
        other => Err(format!("unknown command '{other}': use 'serve', 'seed', 'count-refunds-by-day', 'backfill', 'openapi', 'simulate', 'backup FILE' or 'restore FILE'")),
    }
}

/// `BACKOFFICE_LOG_FORMAT`: `text` (default) or `json` (one JSON object a
/// line, with the request id of the request it belongs to).
fn log_as_json() -> Result<bool, String> {
    match std::env::var("BACKOFFICE_LOG_FORMAT").ok().as_deref().map(str::trim) {
        None | Some("") | Some("text") => Ok(false),
        Some("json") => Ok(true),
        Some(other) => Err(format!("BACKOFFICE_LOG_FORMAT must be 'text' or 'json', not '{other}'")),
    }
}

/// Demo mode: the charge-point simulator plays the demo's connected piles
/// over the real charger link (loopback), with the demo charger password
/// from the data dir. Said out loud at start.
fn simulate_chargers(ctx: std::sync::Arc<backoffice::AppCtx>) {
    tokio::spawn(async move {
        let password = match std::fs::read_to_string(ctx.config.data_dir.join(DEMO_CHARGER_PASSWORD_FILE)) {
            Ok(p) => p.trim().to_string(),
            Err(e) => {
                eprintln!("demo mode: no demo charger password in the data dir ({e}); delete the data dir to reseed");
                return;
            }
        };
        let piles = match backoffice::domain::assets::demo_chargers::live_piles(&ctx).await {
            Ok(p) => p,
            Err(e) => {
                eprintln!("demo mode: cannot list the demo piles: {}", e.msg.en);
                return;
            }
        };
        // Each pile's charger speaks the protocol the pile is registered for:
        // OCPP on the WebSocket link, YKC on the YKC port (when it is open).
        let ykc_port = ctx.config.ykc_port;
        let (mut chargers, mut ykc_piles, mut ykc_unserved) = (Vec::new(), Vec::new(), 0usize);
        for (code, n) in piles {
            let pile = match backoffice::domain::assets::piles::find_by_code(&ctx, &code).await {
                Ok(Some(p)) => p,
                Ok(None) => continue,
                Err(e) => {
                    eprintln!("demo mode: cannot read the demo pile {code}: {}", e.msg.en);
                    continue;
                }
            };
            if let Some(version) = backoffice::domain::chargers::ykc_platform::version(&pile) {
                if ykc_port.is_some() {
                    ykc_piles.push(gateway::simulate::YkcSpec { pile_no: code, guns: n, version });
                } else {
                    ykc_unserved += 1;
                }
                continue;
            }
            let version = ocpp::Link::version(ctx.as_ref(), &pile);
            chargers.push(gateway::simulate::ChargerSpec { id: code, password: password.clone(), connectors: n, version });
        }
        let v201 = chargers.iter().filter(|c| c.version == ocpp::Version::V201).count();
        let port = std::env::var("BACKOFFICE_PORT").unwrap_or_else(|_| "9999".into());
        println!(
            "demo mode: {} simulated chargers ({} over OCPP 1.6J, {v201} over OCPP 2.0.1) connect to ws://127.0.0.1:{port}/ocpp/{{id}} (BACKOFFICE_SIMULATE_CHARGERS=1)",
            chargers.len(),
            chargers.len() - v201
        );
        if let Some(ykc) = ykc_port {
            let v15 = ykc_piles.iter().filter(|p| p.version == ykc::Version::V1_5).count();
            println!("demo mode: {} simulated YKC piles ({} YKC 1.6, {v15} YKC 1.5) connect to 127.0.0.1:{ykc} (TCP)", ykc_piles.len(), ykc_piles.len() - v15);
        }
        if ykc_unserved > 0 {
            println!("demo mode: {ykc_unserved} demo YKC piles stay offline: set BACKOFFICE_YKC_PORT to take them (scripts/run.sh does)");
        }
        // Let the server start listening first.
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        let cfg = gateway::simulate::SimConfig {
            url: format!("ws://127.0.0.1:{port}/ocpp"),
            chargers,
            ykc_address: format!("127.0.0.1:{}", ykc_port.unwrap_or(0)),
            ykc_piles,
            heartbeat_secs: Some(60),
            meter_secs: 30,
            session_share: 0.2,
            session_minutes: (10, 40),
            ramp_per_sec: 20,
            ..Default::default()
        };
        gateway::simulate::run(cfg, std::sync::Arc::new(gateway::simulate::Stats::default())).await;
    });
}

/// Stores written before refunds counted on their approval day: counts
/// their approved refunds there once (`refunds::count_earlier_refunds_on_grant_day`;
/// afterwards one read of its marker). Said out loud when it did something,
/// or always when asked for by name (`say_nothing_done`).
async fn count_earlier_refunds(ctx: &backoffice::AppCtx, say_nothing_done: bool) -> Result<(), String> {
    let n = backoffice::domain::orders::refunds::count_earlier_refunds_on_grant_day(ctx)
        .await
        .map_err(|e| format!("counting earlier refunds on their approval day failed: {}", e.msg.en))?;
    if n > 0 {
        println!("finance: {n} refunds approved before this version now count on the day they were approved");
    } else if say_nothing_done {
        println!("finance: every approved refund already counts on the day it was approved; nothing changed");
    }
    Ok(())
}

/// Where the demo piles' charger password is kept (owner-readable).
const DEMO_CHARGER_PASSWORD_FILE: &str = "demo-charger-password.txt";

/// Seeds an empty store and prints the new sign-ins once; the generated
/// ones are also kept (owner-readable only) in the data dir.
async fn seed(ctx: &backoffice::AppCtx) -> Result<SeedReport, String> {
    let report = ensure_seeded(ctx, |name| std::env::var(name).ok())
        .await
        .map_err(|e| format!("seeding failed: {}", e.msg.en))?;
    if !report.seeded_now {
        return Ok(report);
    }
    if ctx.config.mode == backoffice::config::Mode::Production {
        // Never print a password in production: they were all given.
        let names: Vec<_> = report.credentials.iter().map(|c| c.username.as_str()).collect();
        println!(
            "seeded the store: roles, menus and the account(s) {} with the password(s) given in BACKOFFICE_SEED_PASSWORD_*{}",
            names.join(", "),
            if report.demo_charger_password.is_some() { "; demo data too (BACKOFFICE_DEMO_DATA=1)" } else { "; no demo data" }
        );
    } else {
        let mut lines = String::new();
        for c in &report.credentials {
            lines.push_str(&format!("  {:<8} {}\n", c.username, c.password));
        }
        println!("seeded the store; sign in with:\n{lines}");
        if report.credentials.iter().any(|c| c.generated) {
            let path = ctx.config.data_dir.join("first-run-credentials.txt");
            backoffice::config::write_private_file(&path, lines.as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            println!("(generated passwords are also in {}; change them after signing in)", path.display());
        }
    }
    if let Some(pw) = &report.demo_charger_password {
        // The demo piles' charger password, for the charge-point simulator.
        let path = ctx.config.data_dir.join(DEMO_CHARGER_PASSWORD_FILE);
        backoffice::config::write_private_file(&path, pw.as_bytes()).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(report)
}
