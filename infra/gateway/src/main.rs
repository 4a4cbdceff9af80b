//! The local gateway: what the README's run command starts. It mounts
//! every route of the route table under `/partnerapi` (the same dispatch
//! the Lambda functions run), serves the built SPA at `/`, and seeds an
//! empty store on first run.
//!
//! Usage: `gateway [serve]`, `gateway seed` or `gateway openapi` (prints the
//! OpenAPI document). Configuration comes from
//! the environment (see NOTES.md); a problem stops start-up with one line.

use gateway::server;

use std::process::ExitCode;

use backoffice::seed::{ensure_seeded, SeedReport};

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
            backoffice::runtime::init_tracing(false);
            let ctx = backoffice::runtime::context_from_env().await.map_err(|e| e.to_string())?;
            let report = seed(&ctx).await?;
            if std::env::var("BACKOFFICE_SIMULATE_CHARGERS").is_ok_and(|v| v == "1") {
                simulate_chargers(ctx.clone());
            }
            server::serve(ctx, report).await
        }
        "seed" => {
            let ctx = backoffice::runtime::context_from_env().await.map_err(|e| e.to_string())?;
            let report = seed(&ctx).await?;
            if !report.seeded_now {
                println!("the store was already seeded; nothing changed");
            }
            Ok(())
        }
        "openapi" => {
            // The document the gateway serves at /partnerapi/openapi.json.
            print!("{}", backoffice::openapi::document_text());
            Ok(())
        }
        "-h" | "--help" | "help" => {
            println!("usage: gateway [serve|seed|openapi]   (configuration: BACKOFFICE_* environment variables, see NOTES.md)");
            Ok(())
        }
        other => Err(format!("unknown command '{other}': use 'serve', 'seed' or 'openapi'")),
    }
}

/// Demo mode: heartbeats for the piles the demo shows as connected, every
/// 20 s, so they stay online while no charger link exists (see
/// `backoffice::domain::assets::simulated_link`). Said out loud at start.
fn simulate_chargers(ctx: std::sync::Arc<backoffice::AppCtx>) {
    use backoffice::domain::assets::simulated_link::beat_live_piles;
    println!("demo mode: simulating charger heartbeats every 20 s (BACKOFFICE_SIMULATE_CHARGERS=1)");
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(20));
        loop {
            tick.tick().await;
            if let Err(e) = beat_live_piles(&ctx).await {
                eprintln!("simulated heartbeats failed: {}", e.msg.en);
            }
        }
    });
}

/// Where the demo piles' charger password is kept (owner-readable).
const DEMO_CHARGER_PASSWORD_FILE: &str = "demo-charger-password.txt";

/// Seeds an empty store and prints the new sign-ins once; the generated
/// ones are also kept (owner-readable only) in the data dir.
async fn seed(ctx: &backoffice::AppCtx) -> Result<SeedReport, String> {
    let report = ensure_seeded(ctx, |name| std::env::var(name).ok())
        .await
        .map_err(|e| format!("seeding failed: {}", e.msg.en))?;
    if report.seeded_now {
        let mut lines = String::new();
        for c in &report.credentials {
            lines.push_str(&format!("  {:<8} {}\n", c.username, c.password));
        }
        println!("seeded the store; sign in with:\n{lines}");
        if let Some(pw) = &report.demo_charger_password {
            // The demo piles' charger password, for the charge-point simulator.
            let path = ctx.config.data_dir.join(DEMO_CHARGER_PASSWORD_FILE);
            backoffice::config::write_private_file(&path, pw.as_bytes()).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        if report.credentials.iter().any(|c| c.generated) {
            let path = ctx.config.data_dir.join("first-run-credentials.txt");
            backoffice::config::write_private_file(&path, lines.as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            println!("(generated passwords are also in {}; change them after signing in)", path.display());
        }
    }
    Ok(report)
}
