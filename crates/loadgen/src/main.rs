//! `loadgen`: a load benchmark of the web table (`prophecy serve`), end to end over
//! 127.0.0.1.
//!
//! It starts the real server binary as a child process on a fresh SQLite file (or uses one
//! already running), then plays it the way browsers would: N players in tables of four, each
//! table created over HTTP (`POST /tables`, three `POST /t/{token}/join`), one WebSocket per
//! player with its seat cookie and Origin, `hello`, and the setup of a 1.0 game up to the
//! story phase with an outline of many scenes. That setup is not timed.
//!
//! Then every table plays scenes, one every `--think-ms` on average (uniform jitter), each by
//! one player in turn: place an object, start the scene, propose a pair, **roll** (propose
//! `make_check`; the others agree, and the fourth agreement carries it and rolls), narrate,
//! finish, `--action-gap-ms` apart (200 ms, a fast player). A roll's latency runs from sending
//! the agreement that carries the check to the moment the last of the table's four sockets has
//! received the `update` whose `seq` covers it; each reader task stamps a message when it
//! arrives, before parsing. Rolls sent during
//! the warm-up are not counted. The run reports every roll's latency as exact percentiles
//! (all samples sorted), throughput, what went wrong, the server's CPU time over the window
//! (utime + stime from `/proc/PID/stat`) and its memory at the end (`VmRSS`, `VmHWM`), and the
//! same for the generator, which shares the machine.
//!
//! `--sweep` runs several N, each on a fresh server, and prints the largest N whose p99 stays
//! under `--p99-limit-ms` (100 ms) with nothing lost; with `--repeat R`, in most of R runs
//! of that N. README.md says how to read a report; the current figures are in
//! docs/performance.md.

mod client;
mod report;
mod server;
mod table;

use clap::Parser;
use report::{Errors, Latency, MachineUse, PostgresUse, ProcessUse, Report};
use server::Placement;
use server::Server;
use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use table::{Jitter, Plan, SEATS, Table, Window};

/// mimalloc, as the server has: glibc's malloc and free were about a tenth of the generator's
/// CPU (perf, 4,000 players), CPU the server it measures could have had.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The command line as written.
#[derive(Debug, Parser)]
#[command(
    name = "loadgen",
    about = "Load benchmark of `prophecy serve`: N players in tables of four over WebSockets on 127.0.0.1; roll latency p50/p99, throughput, server CPU and memory."
)]
struct Args {
    /// Players (N), a multiple of four.
    #[arg(short = 'n', long, default_value_t = 1000, value_parser = players)]
    players: usize,
    /// Run several N (comma-separated, e.g. 250,500,1000,2000), each on a fresh server, and
    /// report the largest whose p99 stays under --p99-limit-ms. Stops at the first N that
    /// fails, then bisects between the last pass and that failure (--bisect steps).
    #[arg(long, value_delimiter = ',', value_parser = players)]
    sweep: Option<Vec<usize>>,
    /// The latency a sweep must keep p99 under, in milliseconds.
    #[arg(long, default_value_t = 100.0)]
    p99_limit_ms: f64,
    /// Bisection steps after a sweep's first failure.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=10))]
    bisect: u32,
    /// Runs of each N in a sweep, each on a fresh server: an N passes when more than half of
    /// its runs keep p99 under --p99-limit-ms (near saturation one run's p99 varies widely).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=9))]
    repeat: u32,
    /// Seconds measured, after the warm-up.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    duration: u64,
    /// Seconds of load before measuring.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(0..=600))]
    warmup: u64,
    /// Mean time between two rolls at one table, in milliseconds; the offered load is
    /// N/4 ÷ this. (Each roll is part of a scene of nine actions: place, start, pair, the check
    /// proposed and agreed to by the three others, narrate, finish.)
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(700..=600_000))]
    think_ms: u64,
    /// Total rolls per second over all tables instead of --think-ms (the think time becomes
    /// tables ÷ rate, so N no longer scales the load).
    #[arg(long, conflicts_with = "think_ms")]
    rate: Option<f64>,
    /// Each pause is think × (1 ± jitter), uniformly.
    #[arg(long, default_value_t = 0.5)]
    jitter: f64,
    /// Scenes in each outline, at most 64 (default: enough for the run at the think time).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=table::MAX_SCENES as u64))]
    scenes: Option<u64>,
    /// Milliseconds between two actions of one scene (place, start, pair, roll, narrate,
    /// finish). 0 sends each as soon as the previous one is answered.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    action_gap_ms: u64,
    /// Milliseconds an answer, or a roll's four updates, may take before counting as lost.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(100..=600_000))]
    timeout_ms: u64,
    /// Tables set up at once.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=4096))]
    setup_concurrency: u64,
    /// Seconds the setup of all tables may take.
    #[arg(long, default_value_t = 1200, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    setup_timeout: u64,
    /// The server binary to start [default: target/release/prophecy of the workspace].
    #[arg(long)]
    server_bin: Option<PathBuf>,
    /// Load servers already running at these addresses (127.0.0.1 only; comma-separated, e.g.
    /// servers on one PostgreSQL database) instead of starting any: the four players of each
    /// table are placed on them as with --servers (see --sticky).
    #[arg(long, value_delimiter = ',', conflicts_with = "server_bin")]
    addr: Vec<SocketAddr>,
    /// The running servers' process ids, in the order of --addr, for their CPU and memory.
    #[arg(long, value_delimiter = ',', requires = "addr")]
    server_pid: Vec<u32>,
    /// The database of the servers it starts: a PostgreSQL address (postgres://…; best an
    /// empty database) instead of a fresh SQLite file.
    #[arg(long, conflicts_with = "addr")]
    db: Option<String>,
    /// How many servers to start on that database (1 to 8; more than one needs --db): the four
    /// players of each table are spread over them (or not: --sticky), and the report sums their
    /// CPU and memory.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=8), conflicts_with = "addr")]
    servers: u64,
    /// Place all four players of a table (its creation, joins and sockets) on one server:
    /// table t on server t mod N, of the N servers of --servers or --addr. A deployment's proxy
    /// would hash the table's token instead; t mod N stands for that. Default: spread, player
    /// p of table t on server (t + p) mod N.
    #[arg(long)]
    sticky: bool,
    /// Worker threads of the generator [default: one per core].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    /// Print the report as JSON on stdout (progress still goes to stderr).
    #[arg(long)]
    json: bool,
}

fn players(text: &str) -> Result<usize, String> {
    let n: usize = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number"))?;
    if n == 0 || !n.is_multiple_of(SEATS) || n > 40_000 {
        return Err(format!(
            "{n} players: give a multiple of {SEATS} from {SEATS} to 40000"
        ));
    }
    Ok(n)
}

/// Which server to load.
#[derive(Debug, Clone)]
enum Target {
    /// Start this binary for each run: `servers` of them, on `db` (a fresh SQLite file if none).
    Spawn {
        bin: PathBuf,
        db: Option<String>,
        servers: usize,
    },
    /// Servers already running, and their process ids when given (one per address).
    Existing(Vec<SocketAddr>, Vec<u32>),
}

/// The settings the rest of the program uses, resolved from [`Args`].
#[derive(Debug, Clone)]
struct Settings {
    runs: Vec<usize>,
    sweep: bool,
    limit_ms: f64,
    bisect: u32,
    repeat: u32,
    duration: Duration,
    warmup: Duration,
    think: Option<Duration>,
    rate: Option<f64>,
    jitter: f64,
    scenes: Option<usize>,
    gap: Duration,
    timeout: Duration,
    setup_concurrency: usize,
    setup_timeout: Duration,
    target: Target,
    placement: Placement,
    threads: usize,
    json: bool,
}

fn resolve(args: Args) -> Result<Settings, String> {
    if let Some(addr) = args
        .addr
        .iter()
        .find(|a| a.ip() != std::net::IpAddr::V4(Ipv4Addr::LOCALHOST))
    {
        return Err(format!("--addr {addr}: only 127.0.0.1 is loaded"));
    }
    if !args.server_pid.is_empty() && args.server_pid.len() != args.addr.len() {
        return Err(format!(
            "--server-pid: give one process id for each of the {} addresses of --addr",
            args.addr.len()
        ));
    }
    let target = match args.addr.len() {
        0 if args.servers > 1 && args.db.is_none() => {
            return Err(format!(
                "--servers {}: servers share a database only on PostgreSQL; give --db postgres://…",
                args.servers
            ));
        }
        0 => Target::Spawn {
            bin: args.server_bin.unwrap_or_else(|| {
                PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/release/prophecy")
            }),
            db: args.db,
            servers: args.servers as usize,
        },
        _ => Target::Existing(args.addr, args.server_pid),
    };
    if !(0.0..=1.0).contains(&args.jitter) {
        return Err(format!(
            "--jitter {}: give a fraction from 0 to 1",
            args.jitter
        ));
    }
    if let Some(rate) = args.rate
        && !(rate > 0.0 && rate.is_finite())
    {
        return Err(format!(
            "--rate {rate}: give a positive number of rolls a second"
        ));
    }
    if args.p99_limit_ms.is_nan() || args.p99_limit_ms <= 0.0 {
        return Err("--p99-limit-ms must be positive".into());
    }
    let (runs, sweep) = match args.sweep {
        Some(mut list) => {
            list.sort_unstable();
            list.dedup();
            (list, true)
        }
        None if args.repeat > 1 => {
            return Err(format!(
                "--repeat {}: repeated runs are for a sweep; give --sweep N1,N2,…",
                args.repeat
            ));
        }
        None => (vec![args.players], false),
    };
    Ok(Settings {
        runs,
        sweep,
        limit_ms: args.p99_limit_ms,
        bisect: args.bisect,
        repeat: args.repeat,
        duration: Duration::from_secs(args.duration),
        warmup: Duration::from_secs(args.warmup),
        think: args
            .rate
            .is_none()
            .then(|| Duration::from_millis(args.think_ms)),
        rate: args.rate,
        jitter: args.jitter,
        scenes: args.scenes.map(|s| s as usize),
        gap: Duration::from_millis(args.action_gap_ms),
        timeout: Duration::from_millis(args.timeout_ms),
        setup_concurrency: args.setup_concurrency as usize,
        setup_timeout: Duration::from_secs(args.setup_timeout),
        target,
        placement: if args.sticky {
            Placement::Sticky
        } else {
            Placement::Spread
        },
        threads: args.threads.map_or_else(
            || std::thread::available_parallelism().map_or(2, |n| n.get()),
            |t| t as usize,
        ),
        json: args.json,
    })
}

impl Settings {
    /// The plan of every table for a run of `players`.
    fn plan(&self, players: usize) -> Plan {
        let tables = players / SEATS;
        let think = self.think.unwrap_or_else(|| {
            Duration::from_secs_f64(tables as f64 / self.rate.unwrap_or(1.0))
                .max(Duration::from_millis(700))
        });
        // Enough scenes for the whole run at the mean pause, with a quarter to spare (the
        // jitter averages out over a run; the stagger adds up to one more think time).
        let run = (self.warmup + self.duration + think).as_secs_f64();
        let scenes = self.scenes.unwrap_or_else(|| {
            ((run / think.as_secs_f64() * 1.25).ceil() as usize + 2).clamp(1, table::MAX_SCENES)
        });
        Plan {
            scenes,
            think,
            jitter: self.jitter,
            gap: self.gap,
            timeout: self.timeout,
        }
    }
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) => e.exit(),
    };
    let settings = match resolve(args) {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    if cfg!(debug_assertions) {
        eprintln!(
            "warning: this is a debug build of the generator; its own overhead inflates latencies (use cargo run --release -p loadgen)"
        );
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(settings.threads)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(&settings)) {
        Ok(output) => {
            print!("{output}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// One run, or a sweep; the text (or JSON) to print.
async fn run(settings: &Settings) -> Result<String, String> {
    if !settings.sweep {
        let report = measure(settings, settings.runs[0]).await?;
        return Ok(if settings.json {
            format!("{}\n", to_json(&report))
        } else {
            report.text()
        });
    }
    let mut reports: Vec<Report> = Vec::new();
    let mut first_failure = None;
    for &n in &settings.runs {
        if !measure_level(settings, n, &mut reports).await? {
            first_failure = Some(n);
            break;
        }
    }
    if let Some(mut high) = first_failure {
        // Every N before the first failure passed.
        let mut low = report::largest_passing(&reports, settings.limit_ms).unwrap_or(0);
        for _ in 0..settings.bisect {
            let mid = (low + high) / 2 / SEATS * SEATS;
            if mid <= low || mid >= high {
                break;
            }
            if measure_level(settings, mid, &mut reports).await? {
                low = mid;
            } else {
                high = mid;
            }
        }
    }
    // Stable: the runs of one N stay in the order they were made.
    reports.sort_by_key(|r| r.players);
    Ok(if settings.json {
        let largest = report::largest_passing(&reports, settings.limit_ms);
        format!(
            "{}\n",
            serde_json::json!({"p99_limit_ms": settings.limit_ms, "repeat": settings.repeat, "largest_n_under_limit": largest, "runs": reports})
        )
    } else {
        report::sweep_text(&reports, settings.limit_ms)
    })
}

/// `settings.repeat` runs of `n` players, each on a fresh server and printed as it ends, added
/// to `reports`; whether most of them kept p99 under the limit.
async fn measure_level(
    settings: &Settings,
    n: usize,
    reports: &mut Vec<Report>,
) -> Result<bool, String> {
    for _ in 0..settings.repeat {
        let report = measure(settings, n).await?;
        eprint!("{}", report.text());
        reports.push(report);
    }
    Ok(report::level_passes(reports, n, settings.limit_ms))
}

fn to_json(report: &Report) -> String {
    serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// What `/proc` said at one moment.
#[derive(Debug, Clone)]
struct Snapshot {
    at: Instant,
    server: Option<u64>,
    generator: Option<u64>,
    machine: Option<server::MachineTicks>,
    /// Every `postgres` process's CPU so far, in clock ticks.
    postgres: HashMap<server::ProcessKey, u64>,
    messages: u64,
    bytes: u64,
}

/// `pids`: the servers' processes (their CPU is summed; none when unknown).
fn snapshot(pids: &[u32], traffic: &client::Traffic) -> Snapshot {
    let server = if pids.is_empty() {
        None
    } else {
        pids.iter().map(|&pid| server::cpu_ticks(pid)).sum()
    };
    Snapshot {
        at: Instant::now(),
        server,
        generator: server::cpu_ticks(std::process::id()),
        machine: server::machine_ticks(),
        postgres: server::cpu_ticks_named("postgres"),
        messages: traffic.messages.load(Ordering::Relaxed),
        bytes: traffic.bytes.load(Ordering::Relaxed),
    }
}

/// Starts (or reaches) the server, loads it with `players`, and stops it.
async fn measure(settings: &Settings, players: usize) -> Result<Report, String> {
    let target = settings.target.clone();
    let mut servers = tokio::task::spawn_blocking(move || match target {
        Target::Spawn { bin, db, servers } => (0..servers)
            .map(|_| Server::spawn(&bin, db.as_deref()))
            .collect::<Result<Vec<_>, _>>(),
        Target::Existing(addrs, pids) => addrs
            .iter()
            .enumerate()
            .map(|(i, &addr)| Server::existing(addr, pids.get(i).copied()))
            .collect::<Result<Vec<_>, _>>(),
    })
    .await
    .map_err(|e| e.to_string())??;
    let result = load(settings, &servers, players).await;
    if result.is_err()
        && let Some(dead) = servers.iter_mut().find_map(|s| (!s.alive()).then_some(s))
    {
        return Err(format!(
            "{}; a server died (its log: {})",
            result.err().unwrap_or_default(),
            dead.log_path()
                .map_or_else(String::new, |p| p.display().to_string())
        ));
    }
    // Dropping `server` kills the child we started.
    result
}

/// One run against `servers`: the tables set up (not timed), then played through the
/// warm-up and the measured window, then what it measured and what it cost the machine.
async fn load(settings: &Settings, servers: &[Server], players: usize) -> Result<Report, String> {
    let tables = players / SEATS;
    let plan = settings.plan(players);
    let traffic = Arc::new(client::Traffic::default());
    let addrs: Vec<SocketAddr> = servers.iter().map(|s| s.addr).collect();
    let pids: Vec<u32> = servers.iter().filter_map(|s| s.pid).collect();
    let pids = if pids.len() == servers.len() {
        pids
    } else {
        Vec::new()
    };
    let shown: Vec<String> = addrs.iter().map(ToString::to_string).collect();
    eprintln!(
        "N = {players}: setting up {tables} tables on {} ({} scenes each)…",
        shown.join(", "),
        plan.scenes
    );
    let (ready, mut errors, setup_s) = set_up(settings, &addrs, &plan, &traffic, tables).await?;
    let played = play(settings, ready, &plan, &pids, &traffic).await;
    errors.add(&played.outcome.errors);
    let seconds = played
        .after
        .at
        .duration_since(played.before.at)
        .as_secs_f64();
    let (server_use, generator_use, machine) = resource_use(&pids, &played, seconds);
    let (server_cpu_ms_per_action, postgres, postgres_cpu_ms_per_action) =
        cpu_per_action(&played, seconds);
    let (before, after) = (played.before, played.after);
    let latency = Latency::of(played.outcome.samples);
    Ok(Report {
        players,
        servers: servers.len(),
        placement: settings.placement,
        tables,
        scenes_per_table: plan.scenes,
        think_ms: plan.think.as_millis() as u64,
        offered_rolls_per_s: tables as f64 / plan.think.as_secs_f64(),
        setup_s,
        warmup_s: settings.warmup.as_secs_f64(),
        duration_s: seconds,
        rolls: latency.samples as u64,
        rolls_per_s: latency.samples as f64 / seconds,
        actions_per_s: played.outcome.actions as f64 / seconds,
        messages_per_s: (after.messages - before.messages) as f64 / seconds,
        received_mb_per_s: (after.bytes - before.bytes) as f64 / seconds / 1e6,
        latency,
        answer_latency: Latency::of(played.outcome.answered),
        errors,
        server: server_use,
        generator: generator_use,
        machine,
        server_cpu_ms_per_action,
        postgres,
        postgres_cpu_ms_per_action,
    })
}

/// Sets up `tables` tables, `settings.setup_concurrency` at a time, their four players placed
/// on `addrs` as `settings.placement` says: the tables ready, what went wrong, and the seconds
/// it took. An error when no table could be set up, or the setup outlasted `--setup-timeout`.
async fn set_up(
    settings: &Settings,
    addrs: &[SocketAddr],
    plan: &Plan,
    traffic: &Arc<client::Traffic>,
    tables: usize,
) -> Result<(Vec<Table>, Errors, f64), String> {
    let setup_started = Instant::now();
    let permits = Arc::new(tokio::sync::Semaphore::new(settings.setup_concurrency));
    let mut setups = tokio::task::JoinSet::new();
    for number in 0..tables {
        let homes: [SocketAddr; SEATS] = std::array::from_fn(|player| {
            addrs[settings.placement.server(number, player, addrs.len())]
        });
        let (permits, plan, traffic) = (permits.clone(), plan.clone(), traffic.clone());
        setups.spawn(async move {
            let _permit = permits.acquire_owned().await;
            Table::set_up(homes, number, &plan, traffic).await
        });
    }
    let mut ready = Vec::with_capacity(tables);
    let mut errors = Errors::default();
    let mut first_error = None;
    let setup_deadline = tokio::time::Instant::now() + settings.setup_timeout;
    let mut progress = Instant::now();
    while let Some(done) = tokio::time::timeout_at(setup_deadline, setups.join_next())
        .await
        .map_err(|_| {
            format!(
                "the setup took longer than {} s (--setup-timeout)",
                settings.setup_timeout.as_secs()
            )
        })?
    {
        match done {
            Ok(Ok(table)) => ready.push(table),
            Ok(Err((message, table_errors))) => {
                errors.add(&table_errors);
                errors.setup_failures += 1;
                first_error.get_or_insert(message);
            }
            Err(e) => {
                errors.setup_failures += 1;
                first_error.get_or_insert(e.to_string());
            }
        }
        if progress.elapsed() > Duration::from_secs(10) {
            progress = Instant::now();
            eprintln!(
                "  {} of {tables} tables ready after {:.0} s",
                ready.len(),
                setup_started.elapsed().as_secs_f64()
            );
        }
    }
    let setup_s = setup_started.elapsed().as_secs_f64();
    if let Some(message) = &first_error {
        eprintln!(
            "  {} tables could not be set up; the first: {message}",
            errors.setup_failures
        );
    }
    if ready.is_empty() {
        return Err(format!(
            "no table could be set up: {}",
            first_error.unwrap_or_default()
        ));
    }
    eprintln!(
        "  {} tables ready in {setup_s:.1} s; playing {} s of warm-up then {} s measured…",
        ready.len(),
        settings.warmup.as_secs(),
        settings.duration.as_secs()
    );
    Ok((ready, errors, setup_s))
}

/// What playing every table gave: `/proc` as the measured window opened and closed, the
/// memory as it closed, and the tables' outcomes summed.
struct Played {
    before: Snapshot,
    after: Snapshot,
    /// The servers' memory (resident, peak) in MiB, summed; none when their processes are
    /// unknown.
    server_memory: Option<(Option<f64>, Option<f64>)>,
    /// The generator's memory (resident, peak) in MiB.
    generator_memory: (Option<f64>, Option<f64>),
    /// Every table's samples, actions and errors together, with the tables still stuck at the
    /// end counted as timeouts.
    outcome: table::Outcome,
}

/// Plays the `ready` tables through the warm-up and the measured window, then lets the
/// scenes under way finish (each action within the timeout).
async fn play(
    settings: &Settings,
    ready: Vec<Table>,
    plan: &Plan,
    pids: &[u32],
    traffic: &client::Traffic,
) -> Played {
    let start = Instant::now() + Duration::from_millis(200);
    let window = Window {
        start,
        from: start + settings.warmup,
        until: start + settings.warmup + settings.duration,
    };
    let mut players_tasks = tokio::task::JoinSet::new();
    for table in ready {
        players_tasks.spawn(table.play(plan.clone(), window, Jitter::new()));
    }
    tokio::time::sleep_until(window.from.into()).await;
    let before = snapshot(pids, traffic);
    tokio::time::sleep_until(window.until.into()).await;
    let after = snapshot(pids, traffic);
    // The servers' memory, summed.
    let server_memory = (!pids.is_empty()).then(|| {
        pids.iter().map(|&pid| server::memory_mib(pid)).fold(
            (Some(0.0), Some(0.0)),
            |(rss, peak), (r, p)| {
                (
                    rss.zip(r).map(|(a, b)| a + b),
                    peak.zip(p).map(|(a, b)| a + b),
                )
            },
        )
    });
    let generator_memory = server::memory_mib(std::process::id());

    // A scene under way when the window closes finishes (its roll may have been measured);
    // each of its six actions may wait at most the timeout.
    let drain = tokio::time::Instant::now() + settings.timeout * 7 + Duration::from_secs(5);
    let mut outcome = table::Outcome::default();
    while let Ok(Some(done)) = tokio::time::timeout_at(drain, players_tasks.join_next()).await {
        if let Ok(table) = done {
            outcome.samples.extend(table.samples);
            outcome.answered.extend(table.answered);
            outcome.actions += table.actions;
            outcome.errors.add(&table.errors);
        }
    }
    let stuck = players_tasks.len() as u64;
    if stuck > 0 {
        outcome.errors.timeouts += stuck;
        players_tasks.abort_all();
    }
    Played {
        before,
        after,
        server_memory,
        generator_memory,
        outcome,
    }
}

/// The CPU the servers, the generator and the whole machine used over the `seconds` of the
/// measured window, with the processes' memory as it closed: (servers, generator, machine).
fn resource_use(
    pids: &[u32],
    played: &Played,
    seconds: f64,
) -> (Option<ProcessUse>, Option<ProcessUse>, Option<MachineUse>) {
    let (before, after) = (&played.before, &played.after);
    let ticks = server::clock_ticks();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let usage = |pid: u32, a: Option<u64>, b: Option<u64>, memory: (Option<f64>, Option<f64>)| {
        let (a, b) = (a?, b?);
        let percent = (b.saturating_sub(a)) as f64 / ticks / seconds * 100.0;
        Some(ProcessUse {
            pid,
            also: Vec::new(),
            cpu_percent_of_one_core: percent,
            cpu_percent_of_machine: percent / cores as f64,
            rss_mib: memory.0,
            peak_rss_mib: memory.1,
        })
    };
    let server_use = pids
        .first()
        .and_then(|&pid| {
            usage(
                pid,
                before.server,
                after.server,
                played.server_memory.unwrap_or_default(),
            )
        })
        .map(|u| ProcessUse {
            also: pids[1..].to_vec(),
            ..u
        });
    let generator_use = usage(
        std::process::id(),
        before.generator,
        after.generator,
        played.generator_memory,
    );
    let machine = match (before.machine, after.machine) {
        (Some(a), Some(b)) if b.total > a.total => {
            let total = (b.total - a.total) as f64;
            let busy = 1.0 - ((b.idle - a.idle) + (b.iowait - a.iowait)) as f64 / total;
            let ours = |u: &Option<ProcessUse>| u.as_ref().map(|u| u.cpu_percent_of_one_core);
            Some(MachineUse {
                cores,
                busy_percent: 100.0 * busy,
                iowait_percent: 100.0 * (b.iowait - a.iowait) as f64 / total,
                others_percent_of_one_core: ours(&server_use)
                    .zip(ours(&generator_use))
                    .map(|(s, g)| (busy * 100.0 * cores as f64 - s - g).max(0.0)),
            })
        }
        _ => None,
    };
    (server_use, generator_use, machine)
}

/// What an action served in the measured window cost in CPU: the servers' milliseconds (none
/// when their processes are unknown), then PostgreSQL's use and milliseconds (none when no
/// `postgres` process ran). Every `postgres` process counts, whoever it serves: on a machine
/// given to the benchmark, that is the servers' database.
fn cpu_per_action(
    played: &Played,
    seconds: f64,
) -> (Option<f64>, Option<PostgresUse>, Option<f64>) {
    let (before, after) = (&played.before, &played.after);
    let ticks = server::clock_ticks();
    let actions = played.outcome.actions;
    let server = (before.server)
        .zip(after.server)
        .and_then(|(a, b)| report::cpu_ms_per_action(b.saturating_sub(a) as f64 / ticks, actions));
    if before.postgres.is_empty() && after.postgres.is_empty() {
        return (server, None, None);
    }
    let (used, ended) = server::ticks_between(&before.postgres, &after.postgres);
    let cpu_s = used as f64 / ticks;
    let postgres = PostgresUse {
        processes: after.postgres.len(),
        ended,
        cpu_cores: cpu_s / seconds,
    };
    (
        server,
        Some(postgres),
        report::cpu_ms_per_action(cpu_s, actions),
    )
}
