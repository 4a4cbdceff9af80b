//! Lambda cold start, measured per function on this machine.
//!
//! Builds what the template deploys (the one bootstrap, profile
//! `lambda-release`, for this machine's architecture), starts moto
//! (DynamoDB API) on loopback and seeds a small table through the
//! product's seeding path, then starts the bootstrap N times per function
//! of a representative set (sign-in, user info, order list, order detail)
//! as a fresh process against a local Lambda Runtime API emulator, with the
//! environment the SAM template gives that function (BACKOFFICE_FUNCTION,
//! production mode, DynamoDB, JWT secret, region, credentials). Measured:
//!
//! - init: process spawn -> first `/invocation/next` poll (the runtime is
//!   ready: configuration read, DynamoDB SDK client constructed);
//! - first event: event handed out -> response posted (the first request,
//!   with its first DynamoDB connection);
//! - warm event: the same event again in the same process.
//!
//! Every answer must be a 200 envelope (the token for the signed-in
//! functions comes from the sign-in function's answer); otherwise the bench
//! exits non-zero. Prints median / p90 per function with the binary size
//! and the size of the zip the deployment uploads.
//!
//! Usage: `cold-start [--runs N] [--orders N] [--no-build]`
//! (needs `moto_server` on PATH, or its path in `BENCH_MOTO_SERVER`, and the `zip` command).

mod emulator;
mod events;

use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use emulator::{Emulator, Report};
use events::{http_api_v2, ok_envelope, HttpRequest};

/// The functions measured, in the order they run (sign-in first: its token
/// is used by the others; the order list gives the order detail its id).
const FUNCTIONS: [(&str, &str); 4] = [
    ("login_index", "POST /login/index"),
    ("user_info", "GET /index/userInfo"),
    ("order_list", "GET /order/getList"),
    ("order_detail", "GET /order/detail"),
];
const TABLE: &str = "backoffice-coldstart";
const REGION: &str = "us-east-1";
const ADMIN_PASSWORD: &str = "coldstart-admin-1";
/// Lambda's default memory for these functions in template.yaml.
const MEMORY_MB: &str = "256";
/// How long one step (init, one invocation) may take before the run fails.
const STEP_TIMEOUT: Duration = Duration::from_secs(30);

struct Args {
    runs: usize,
    orders: u64,
    build: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args { runs: 10, orders: 300, build: true };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut number = |name: &str| -> Result<u64, String> {
            it.next()
                .and_then(|v| v.parse::<u64>().ok())
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("{name} needs a positive number"))
        };
        match a.as_str() {
            "--runs" => args.runs = number("--runs")? as usize,
            "--orders" => args.orders = number("--orders")?,
            "--no-build" => args.build = false,
            "-h" | "--help" => {
                println!("usage: cold-start [--runs N (10)] [--orders N (300)] [--no-build]");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument '{other}' (try --help)")),
        }
    }
    Ok(args)
}

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

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("bench/ is inside the workspace").to_path_buf()
}

async fn run() -> Result<(), String> {
    let args = parse_args()?;
    let root = workspace_root();
    let target = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"));
    let work = ScratchDir::new(&target.join("bench-coldstart"))?;

    if args.build {
        build_release_bins(&root)?;
    }
    // Every function runs the same binary, as deployed.
    let bootstrap = target.join(LAMBDA_PROFILE).join("bootstrap");
    if !bootstrap.is_file() {
        return Err(format!("{} is missing: build it with cargo build --profile {LAMBDA_PROFILE} -p functions --bin bootstrap", bootstrap.display()));
    }
    let bins: Vec<PathBuf> = FUNCTIONS.iter().map(|_| bootstrap.clone()).collect();

    let moto = Moto::start(&work.0).await?;
    let secret = "cold-start-bench-secret-0123456789abcdef".to_string();
    let started = Instant::now();
    seed(&moto.endpoint, &secret, &work.0, args.orders).await?;
    eprintln!("seeded {} demo orders into moto in {:.1} s", args.orders, started.elapsed().as_secs_f64());

    let env: Vec<(&str, String)> = vec![
        ("BACKOFFICE_ENV", "production".into()),
        ("BACKOFFICE_STORE", "dynamo".into()),
        ("BACKOFFICE_TABLE", TABLE.into()),
        ("BACKOFFICE_JWT_SECRET", secret.clone()),
        ("BACKOFFICE_DYNAMO_ENDPOINT", moto.endpoint.clone()),
        ("AWS_REGION", REGION.into()),
        ("AWS_DEFAULT_REGION", REGION.into()),
        // What Lambda puts in the environment for the execution role.
        ("AWS_ACCESS_KEY_ID", "ASIABENCHCOLDSTART00".into()),
        ("AWS_SECRET_ACCESS_KEY", "bench-cold-start-secret-access-key-000000".into()),
        ("AWS_SESSION_TOKEN", "bench-cold-start-session-token".into()),
        ("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", MEMORY_MB.into()),
        ("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST".into()),
        ("AWS_LAMBDA_LOG_STREAM_NAME", "2026/01/01/[$LATEST]bench".into()),
        ("AWS_LAMBDA_INITIALIZATION_TYPE", "on-demand".into()),
        ("_HANDLER", "bootstrap".into()),
        ("TZ", ":UTC".into()),
        ("LANG", "en_US.UTF-8".into()),
    ];

    let mut token: Option<String> = None;
    let mut order_no: Option<String> = None;
    let mut results = Vec::new();
    for (i, (function, route)) in FUNCTIONS.iter().enumerate() {
        let (method, path) = route.split_once(' ').expect("route is 'METHOD /path'");
        let bearer = if *function == "login_index" { None } else { Some(token.clone().ok_or("no token from the sign-in")?) };
        let order_id = order_no.clone().unwrap_or_default();
        let query: Vec<(&str, &str)> = match *function {
            "order_list" => vec![("pageSize", "20")],
            "order_detail" => vec![("id", order_id.as_str())],
            _ => vec![],
        };
        let body = (*function == "login_index").then(|| json!({ "username": "admin", "password": ADMIN_PASSWORD }));
        let event = http_api_v2(
            &HttpRequest { method, path, query: &query, bearer: bearer.as_deref(), json_body: body },
            i as u64,
        );
        let event = serde_json::to_vec(&event).map_err(|e| e.to_string())?;
        let mut samples = Vec::new();
        for n in 0..args.runs {
            let log = work.0.join(format!("{function}.log"));
            let sample = cold_start(&bins[i], function, &env, &event, &log)
                .await
                .map_err(|e| format!("{function}, cold start {}: {e}", n + 1))?;
            match *function {
                "login_index" => {
                    token = sample.data["data"]["token"].as_str().map(str::to_string);
                }
                "order_list" if order_no.is_none() => {
                    order_no = sample.data["data"]["list"][0]["orderNo"].as_str().map(str::to_string);
                    if order_no.is_none() {
                        return Err("the order list answered no orders: the seeded table has none in the last 30 days".into());
                    }
                }
                _ => {}
            }
            samples.push(sample);
        }
        let (binary, zipped) = sizes(&bins[i], &work.0.join(function))?;
        results.push(FunctionResult { function, route, binary, zipped, samples });
        eprintln!("{function}: {} cold starts, every answer a 200 envelope", args.runs);
    }
    print_report(&args, &results);
    Ok(())
}

/// The Cargo profile the deployed bootstrap is built with (infra/deploy/build.sh).
const LAMBDA_PROFILE: &str = "lambda-release";

fn build_release_bins(root: &Path) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = std::process::Command::new(cargo);
    cmd.current_dir(root).args(["build", "--profile", LAMBDA_PROFILE, "-p", "functions", "--bin", "bootstrap"]);
    eprintln!("building the bootstrap (profile {LAMBDA_PROFILE}) that every function runs");
    let started = Instant::now();
    let status = cmd.status().map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("cargo build --profile {LAMBDA_PROFILE} -p functions failed ({status})"));
    }
    eprintln!("built in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// Seeds the table through the product's first-run seeding (what
/// `gateway seed` runs): roles, users, menus, stations and demo orders.
async fn seed(endpoint: &str, secret: &str, work: &Path, orders: u64) -> Result<(), String> {
    let vars: Vec<(&str, String)> = vec![
        ("BACKOFFICE_ENV", "development".into()),
        ("BACKOFFICE_STORE", "dynamo".into()),
        ("BACKOFFICE_TABLE", TABLE.into()),
        ("BACKOFFICE_DYNAMO_ENDPOINT", endpoint.into()),
        ("BACKOFFICE_JWT_SECRET", secret.into()),
        ("BACKOFFICE_DATA_DIR", work.join("data").display().to_string()),
        ("AWS_REGION", REGION.into()),
        ("BACKOFFICE_SEED_PASSWORD_ADMIN", ADMIN_PASSWORD.into()),
        ("BACKOFFICE_SEED_PASSWORD_EDITOR", "coldstart-editor-1".into()),
        ("BACKOFFICE_SEED_PASSWORD_TEST", "coldstart-test-1".into()),
        ("BACKOFFICE_DEMO_ORDERS", orders.to_string()),
    ];
    let get = |name: &str| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| v.clone());
    let config = backoffice::config::Config::from_lookup(get).map_err(|e| e.to_string())?;
    // Creates the table (development mode with an endpoint), as the gateway does.
    let table = backoffice::runtime::open_store(&config).await.map_err(|e| e.to_string())?;
    // The seed runs on SQLite and its items are copied in bulk: moto copies
    // its whole table for every item of a transaction (minutes for a seed).
    let sqlite: std::sync::Arc<dyn store::Table> =
        std::sync::Arc::new(store::sqlite::SqliteTable::open_in_memory().map_err(|e| e.to_string())?);
    let recorder = std::sync::Arc::new(store::recording::KeyRecorder::new(sqlite));
    let ctx = backoffice::AppCtx::new(recorder.clone(), config).map_err(|e| e.to_string())?;
    let report = backoffice::seed::ensure_seeded(&ctx, get).await.map_err(|e| format!("seeding failed: {}", e.msg.en))?;
    if !report.seeded_now {
        return Err("the seed found a seeded store: the bench expects a fresh one".into());
    }
    recorder.copy_written_to(table.as_ref()).await.map_err(|e| format!("copying the seed to moto failed: {e}"))?;
    Ok(())
}

struct Sample {
    init: Duration,
    first: Duration,
    warm: Duration,
    max_rss_kb: Option<u64>,
    /// The first answer's envelope.
    data: Value,
}

/// One fresh process: spawn, wait for its first poll, hand it the event
/// twice, check both answers.
async fn cold_start(bin: &Path, function: &str, env: &[(&str, String)], event: &[u8], log: &Path) -> Result<Sample, String> {
    let mut emu = Emulator::start(function).await.map_err(|e| format!("emulator: {e}"))?;
    let first_id = emu.push(event.to_vec());
    let second_id = emu.push(event.to_vec());
    let out = std::fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = out.try_clone().map_err(|e| e.to_string())?;
    let mut cmd = tokio::process::Command::new(bin);
    cmd.env_clear()
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .env("AWS_LAMBDA_RUNTIME_API", emu.runtime_api())
        .env("AWS_LAMBDA_FUNCTION_NAME", function)
        .env("BACKOFFICE_FUNCTION", function)
        .env("AWS_LAMBDA_LOG_GROUP_NAME", format!("/aws/lambda/{function}"))
        .env("LAMBDA_TASK_ROOT", bin.parent().unwrap_or(Path::new("/")))
        .current_dir(bin.parent().unwrap_or(Path::new("/")))
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .kill_on_drop(true);

    let spawned = Instant::now();
    let mut child = cmd.spawn().map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
    let outcome = drive(&mut emu, &mut child, spawned, [&first_id, &second_id]).await;
    let max_rss_kb = child.id().and_then(peak_rss_kb);
    let _ = child.start_kill();
    let _ = child.wait().await;
    match outcome {
        Ok((init, first, warm, data)) => Ok(Sample { init, first, warm, max_rss_kb, data }),
        Err(e) => {
            let text = std::fs::read_to_string(log).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(15).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            Err(format!("{e}\n--- the function's output ({}):\n{}", log.display(), tail.join("\n")))
        }
    }
}

async fn drive(
    emu: &mut Emulator,
    child: &mut tokio::process::Child,
    spawned: Instant,
    ids: [&String; 2],
) -> Result<(Duration, Duration, Duration, Value), String> {
    let mut init = None;
    let mut handed: Option<Instant> = None;
    let mut latencies = Vec::new();
    let mut first_envelope = Value::Null;
    while latencies.len() < 2 {
        let report = tokio::select! {
            r = emu.report(STEP_TIMEOUT) => r.ok_or_else(|| format!("nothing from the function for {} s", STEP_TIMEOUT.as_secs()))?,
            status = child.wait() => {
                return Err(format!("the function exited ({}) before answering", status.map(|s| s.to_string()).unwrap_or_else(|e| e.to_string())));
            }
        };
        match report {
            Report::Polled { at } => {
                init.get_or_insert(at - spawned);
            }
            Report::Handed { request_id, at } => {
                let expected = ids[latencies.len()];
                if &request_id != expected {
                    return Err(format!("the emulator handed out {request_id}, expected {expected}"));
                }
                handed = Some(at);
            }
            Report::Response { request_id, body, at } => {
                let expected = ids[latencies.len()];
                if &request_id != expected {
                    return Err(format!("a response for {request_id}, expected {expected}"));
                }
                let envelope = ok_envelope(&body).map_err(|e| format!("invocation {}: {e}", latencies.len() + 1))?;
                if latencies.is_empty() {
                    first_envelope = envelope;
                }
                latencies.push(at - handed.ok_or("a response before any event was handed out")?);
            }
            Report::InvocationError { request_id, error_type, body, at } => {
                let after = handed.map(|h| ms(at - h)).unwrap_or_default();
                return Err(format!(
                    "invocation {request_id} answered an error after {after} ms: {error_type}: {}",
                    String::from_utf8_lossy(&body)
                ));
            }
            Report::InitError { error_type, body, at } => {
                return Err(format!(
                    "init failed {} ms after spawn: {error_type}: {}",
                    ms(at - spawned),
                    String::from_utf8_lossy(&body)
                ));
            }
        }
    }
    Ok((init.ok_or("no poll")?, latencies[0], latencies[1], first_envelope))
}

/// Peak resident memory of a running process (what Lambda's REPORT line
/// calls "Max Memory Used").
fn peak_rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The binary's size and the size of the deployment zip: the function's
/// code directory holds the binary as `bootstrap`, zipped with deflate
/// (what `sam deploy` uploads for each CodeUri).
fn sizes(bin: &Path, dir: &Path) -> Result<(u64, u64), String> {
    let binary = std::fs::metadata(bin).map_err(|e| format!("{}: {e}", bin.display()))?.len();
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let bootstrap = dir.join("bootstrap");
    std::fs::copy(bin, &bootstrap).map_err(|e| format!("copy to {}: {e}", bootstrap.display()))?;
    let zip = dir.join("function.zip");
    let _ = std::fs::remove_file(&zip);
    let status = std::process::Command::new("zip")
        .current_dir(dir)
        .args(["-q", "-X", "function.zip", "bootstrap"])
        .status()
        .map_err(|e| format!("cannot run zip (apt-get install zip): {e}"))?;
    if !status.success() {
        return Err(format!("zip failed ({status})"));
    }
    let zipped = std::fs::metadata(&zip).map_err(|e| format!("{}: {e}", zip.display()))?.len();
    Ok((binary, zipped))
}

struct FunctionResult {
    function: &'static str,
    route: &'static str,
    binary: u64,
    zipped: u64,
    samples: Vec<Sample>,
}

/// The `q` quantile by nearest rank (q = 0.5: median, 0.9: p90).
fn quantile(values: &[Duration], q: f64) -> Duration {
    let mut v = values.to_vec();
    v.sort();
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1_000_000.0)
}

fn print_report(args: &Args, results: &[FunctionResult]) {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("model name")).map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string()))
        .unwrap_or_else(|| "unknown CPU".into());
    println!();
    println!(
        "Lambda cold start, {} fresh processes per function ({} {}, {} cores), local Runtime API emulator, DynamoDB = moto on loopback ({} demo orders)",
        args.runs,
        std::env::consts::ARCH,
        cpu,
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        args.orders
    );
    println!("times in ms, median / p90; init = spawn -> first poll for an event; first event = event handed out -> response posted");
    println!();
    println!("| function | route | binary | zip | init | first event | spawn -> first answer | warm event (median) | max RSS |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for r in results {
        let col = |f: &dyn Fn(&Sample) -> Duration| {
            let v: Vec<Duration> = r.samples.iter().map(f).collect();
            (quantile(&v, 0.5), quantile(&v, 0.9))
        };
        let (init50, init90) = col(&|s| s.init);
        let (first50, first90) = col(&|s| s.first);
        let (total50, total90) = col(&|s| s.init + s.first);
        let (warm50, _) = col(&|s| s.warm);
        let rss = r.samples.iter().filter_map(|s| s.max_rss_kb).max();
        println!(
            "| {} | {} | {} | {} | {} / {} | {} / {} | {} / {} | {} | {} |",
            r.function,
            r.route,
            mb(r.binary),
            mb(r.zipped),
            ms(init50),
            ms(init90),
            ms(first50),
            ms(first90),
            ms(total50),
            ms(total90),
            ms(warm50),
            rss.map(|kb| format!("{:.1} MB", kb as f64 / 1024.0)).unwrap_or_else(|| "?".into()),
        );
    }
}

/// A working directory under target/, emptied at start and removed at the end.
struct ScratchDir(PathBuf);

impl ScratchDir {
    fn new(path: &Path) -> Result<ScratchDir, String> {
        let _ = std::fs::remove_dir_all(path);
        std::fs::create_dir_all(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(ScratchDir(path.to_path_buf()))
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// moto's DynamoDB API on a free loopback port, stopped on drop.
struct Moto {
    endpoint: String,
    _child: tokio::process::Child,
}

impl Moto {
    async fn start(work: &Path) -> Result<Moto, String> {
        let program = std::env::var("BENCH_MOTO_SERVER").unwrap_or_else(|_| "moto_server".into());
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("no free port: {e}"))?
            .port();
        let log_path = work.join("moto.log");
        let log = std::fs::File::create(&log_path).map_err(|e| e.to_string())?;
        let mut child = tokio::process::Command::new(&program)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdin(Stdio::null())
            .stdout(log.try_clone().map_err(|e| e.to_string())?)
            .stderr(log)
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e} (run scripts/install-test-deps.sh and put target/tools-venv/bin on PATH)"))?;
        let endpoint = format!("http://127.0.0.1:{port}");
        let http = backoffice::http_client::client();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                return Err(format!("moto exited ({status}): {}", std::fs::read_to_string(&log_path).unwrap_or_default()));
            }
            if http.get(&endpoint).send().await.is_ok() {
                break;
            }
            if Instant::now() > deadline {
                return Err("moto did not answer within 30 s".into());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok(Moto { endpoint, _child: child })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_quantiles() {
        let v: Vec<Duration> = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6].iter().map(|n| Duration::from_millis(*n)).collect();
        assert_eq!(quantile(&v, 0.5), Duration::from_millis(5));
        assert_eq!(quantile(&v, 0.9), Duration::from_millis(9));
        assert_eq!(quantile(&v[..1], 0.9), Duration::from_millis(5));
    }
}
