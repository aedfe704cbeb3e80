//! The driver of `cargo xtask bench`: every server, one after another, in one run.
//!
//! ```text
//! a2a-bench [--duration 5] [--warmup 1] [--concurrency 1,16,64] [--retain-requests 20000]
//!           [--stream-events 1000] [--stream-repeat 10] [--subscribers 10000,50000]
//!           [--scale 1k,10k,100k,1M] [--only floor,a2a-rs,python,js] [--threads 1] [--root DIR]
//! ```
//!
//! For each server (the floor, a2a-rs, and the Python and JS SDK echo servers when the interop
//! suite has installed the SDKs) it starts fresh processes on 127.0.0.1 for four phases:
//!
//! 1. idle RSS right after start; then `SendMessage` at each concurrency for `--duration`
//!    seconds after a warm-up: req/s, p50 and p99 latency, and server CPU per request (the
//!    growth of utime + stime in `/proc/<pid>/stat` over the requests answered);
//! 2. RSS growth over `--retain-requests` completed tasks (our server retains them all:
//!    `--max-tasks` is raised), divided by the tasks `ListTasks` counts;
//! 3. one `SendStreamingMessage` of `--stream-events` artifact chunks, `--stream-repeat`
//!    times: events per second of the median stream;
//! 4. `--subscribers` idle `SubscribeToTask` streams on one working task: RSS growth per
//!    subscriber;
//! 5. (a2a-rs only) `a2a-bench-server-counting`, the same server on a counting allocator:
//!    allocations and allocated bytes per `SendMessage` with the store full at the default
//!    retention (every request evicts a task), and the allocator's bytes held per kept task
//!    over `--retain-requests` tasks.
//! 6. (a2a-rs only, [`a2a_bench::scale`]) the figures at each `--scale` store size (1k to 1M
//!    kept tasks), and idle subscribers at each further `--subscribers` count.
//!
//! It prints a Markdown table with every figure and its ratio to the floor, and writes it with
//! the raw figures to `target/bench/`.

use std::io::{BufRead as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use a2a_bench::alloc_stats::AllocStats;
use a2a_bench::process::{self, Server, free_addr};
use a2a_bench::procfs;
use serde_json::{Value, json};

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    a2a_bench::exit_code("a2a-bench", run(&args))
}

struct Config {
    duration: f64,
    warmup: f64,
    concurrency: Vec<usize>,
    retain_requests: u64,
    stream_events: usize,
    stream_repeat: usize,
    /// The first `--subscribers` count (phase 4); the others are scale rows.
    subscribers: usize,
    scale: a2a_bench::scale::ScaleConfig,
    threads: usize,
    only: Option<Vec<String>>,
    root: PathBuf,
    bin_dir: PathBuf,
    out_dir: PathBuf,
    clock_ticks: u64,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Floor,
    Ours,
    Python,
    Js,
}

struct Target {
    name: &'static str,
    kind: Kind,
    /// Program and arguments; `{addr}`, `{host}` and `{port}` are replaced.
    command: Result<Vec<String>, String>,
}

fn run(args: &[String]) -> Result<bool, String> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        eprintln!("{}", USAGE.trim());
        return Ok(true);
    }
    let flags = a2a_bench::parse_flags(args)?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let bin_dir = exe.parent().ok_or("no executable directory")?.to_path_buf();
    let default_root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root: PathBuf = a2a_bench::flag(&flags, "root", default_root)?;
    let root = root
        .canonicalize()
        .map_err(|e| format!("{}: {e}", root.display()))?;
    let concurrency: String = a2a_bench::flag(&flags, "concurrency", "1,16,64".to_owned())?;
    let subscribers: String = a2a_bench::flag(&flags, "subscribers", "10000,50000".to_owned())?;
    let subscribers = a2a_bench::scale::parse_counts(&subscribers)?;
    let sizes: String = a2a_bench::flag(&flags, "scale", "1k,10k,100k,1M".to_owned())?;
    let config = Config {
        duration: a2a_bench::flag(&flags, "duration", 5.0)?,
        warmup: a2a_bench::flag(&flags, "warmup", 1.0)?,
        concurrency: concurrency
            .split(',')
            .map(|c| {
                c.trim()
                    .parse()
                    .map_err(|_| format!("bad concurrency `{c}`"))
            })
            .collect::<Result<_, _>>()?,
        retain_requests: a2a_bench::flag(&flags, "retain-requests", 20_000)?,
        stream_events: a2a_bench::flag(&flags, "stream-events", 1000)?,
        stream_repeat: a2a_bench::flag(&flags, "stream-repeat", 10)?,
        subscribers: subscribers.first().copied().unwrap_or(0),
        scale: a2a_bench::scale::ScaleConfig {
            sizes: a2a_bench::scale::parse_sizes(&sizes)?,
            subscribers: subscribers.iter().skip(1).copied().collect(),
            bin_dir: bin_dir.clone(),
            out_dir: root.join("target/bench"),
            clock_ticks: procfs::clock_ticks(),
            threads: a2a_bench::flag(&flags, "threads", 1)?,
        },
        threads: a2a_bench::flag(&flags, "threads", 1)?,
        only: flags
            .iter()
            .rev()
            .find(|(n, _)| n == "only")
            .map(|(_, v)| v.split(',').map(str::to_owned).collect()),
        out_dir: root.join("target/bench"),
        bin_dir,
        root,
        clock_ticks: procfs::clock_ticks(),
    };
    std::fs::create_dir_all(config.out_dir.join("logs")).map_err(|e| e.to_string())?;

    let targets = targets(&config);
    let machine = procfs::machine();
    eprintln!("a2a-bench on {machine}");
    let mut results = Vec::new();
    for target in &targets {
        if config
            .only
            .as_ref()
            .is_some_and(|only| !only.iter().any(|o| o == target.name))
        {
            continue;
        }
        let result = match &target.command {
            Err(why) => {
                eprintln!("\n== {}: {why}", target.name);
                Results::missing(why)
            }
            Ok(command) => {
                eprintln!("\n== {}", target.name);
                measure(&config, target, command)
            }
        };
        results.push((target.name, result));
    }
    let ours = results.iter().any(|(name, _)| *name == "a2a-rs");
    let scale = if ours {
        eprintln!("\n== a2a-rs at scale");
        a2a_bench::scale::run_scale(&config.scale)
    } else {
        Vec::new()
    };
    let subscribers = if ours {
        a2a_bench::scale::run_subscribers(&config.scale)
    } else {
        Vec::new()
    };
    let mut table = report(&config, &machine, &results);
    let scale_rows = a2a_bench::scale::report_rows(&scale, &subscribers);
    if !scale_rows.is_empty() {
        table.push_str(
            "\n\na2a-rs at scale (`--scale`, `--subscribers`; see `a2a_bench::scale`):\n\n\
             | metric | floor | a2a-rs | a2a-rs / floor | goal | met |\n\
             |---|---:|---:|---:|---|---|\n",
        );
        table.push_str(&scale_rows.join("\n"));
        table.push('\n');
    }
    {
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{table}");
    }
    let mut raw: serde_json::Map<String, Value> = results
        .iter()
        .map(|(name, r)| ((*name).to_owned(), r.to_json()))
        .collect();
    raw.insert(
        "a2a-rs-scale".into(),
        a2a_bench::scale::to_json(&scale, &subscribers),
    );
    let raw = Value::from(raw);
    std::fs::write(config.out_dir.join("report.md"), &table).map_err(|e| e.to_string())?;
    std::fs::write(
        config.out_dir.join("results.json"),
        serde_json::to_string_pretty(&raw).expect("JSON"),
    )
    .map_err(|e| e.to_string())?;
    eprintln!(
        "\nwritten: {} and results.json",
        config.out_dir.join("report.md").display()
    );
    // The floor and a2a-rs must measure end to end; the SDKs may be missing.
    Ok(results
        .iter()
        .filter(|(name, _)| *name == "floor" || *name == "a2a-rs")
        .all(|(_, r)| r.errors.is_empty())
        && scale.iter().all(|(_, r)| r.is_ok()))
}

const USAGE: &str = "
usage: cargo xtask bench [-- OPTIONS]   (or target/release/a2a-bench OPTIONS)

  --duration SECS          each request-rate run (default 5)
  --warmup SECS            warm-up before the request-rate runs (default 1)
  --concurrency LIST       concurrent connections (default 1,16,64)
  --retain-requests N      completed tasks for the RSS-per-task figure (default 20000)
  --stream-events N        artifact chunks of the SSE stream (default 1000)
  --stream-repeat N        streams measured; the median counts (default 10)
  --subscribers LIST       idle SSE subscribers: the first for every server, the others
                           a2a-rs only (default 10000,50000; raised by prlimit as root)
  --scale LIST             a2a-rs kept-task sizes, each filled through HTTP (default
                           1k,10k,100k,1M; `none` skips them)
  --threads N              load generator runtime threads (default 1)
  --only LIST              servers to run, of floor,a2a-rs,python,js (default all)
  --root DIR               the workspace (default: this crate's ../..)

Writes target/bench/report.md and target/bench/results.json.";

fn targets(config: &Config) -> Vec<Target> {
    let bin = |name: &str| config.bin_dir.join(name).display().to_string();
    let floor = vec![
        bin("a2a-bench-floor"),
        "--addr".into(),
        "{addr}".into(),
        "--stream-events".into(),
        config.stream_events.to_string(),
    ];
    let ours = vec![bin("a2a-bench-server"), "--addr".into(), "{addr}".into()];
    vec![
        Target {
            name: "floor",
            kind: Kind::Floor,
            command: Ok(floor),
        },
        Target {
            name: "a2a-rs",
            kind: Kind::Ours,
            command: Ok(ours),
        },
        Target {
            name: "python",
            kind: Kind::Python,
            command: python_command(config),
        },
        Target {
            name: "js",
            kind: Kind::Js,
            command: js_command(config),
        },
    ]
}

/// The Python SDK echo server, when the interop suite's virtualenv has `a2a-sdk`.
fn python_command(config: &Config) -> Result<Vec<String>, String> {
    let venv = std::env::var_os("A2A_INTEROP_VENV")
        .map_or_else(|| config.root.join("target/interop/venv"), PathBuf::from);
    let python = venv.join("bin/python");
    if !python.exists() {
        return Err(format!("not installed ({} missing)", python.display()));
    }
    let probe = Command::new(&python)
        .args(["-c", "import a2a.server, uvicorn"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        return Err(format!(
            "not installed (a2a-sdk or uvicorn missing in {})",
            venv.display()
        ));
    }
    let script = config
        .root
        .join("crates/a2a-bench/sdk/python/echo_server.py");
    Ok(vec![
        python.display().to_string(),
        script.display().to_string(),
        "--host".into(),
        "{host}".into(),
        "--port".into(),
        "{port}".into(),
        "--stream-events".into(),
        config.stream_events.to_string(),
    ])
}

/// The JS SDK echo server, when the interop suite's `node_modules` has `@a2a-js/sdk`. The script
/// is copied to `target/bench/js/`, next to a link to that `node_modules`, so that Node's module
/// resolution finds the SDK.
fn js_command(config: &Config) -> Result<Vec<String>, String> {
    let modules = std::env::var_os("A2A_INTEROP_NODE_MODULES").map_or_else(
        || config.root.join("target/interop/node_modules"),
        PathBuf::from,
    );
    if !modules.join("@a2a-js/sdk/package.json").exists() {
        return Err(format!(
            "not installed (no @a2a-js/sdk in {})",
            modules.display()
        ));
    }
    let node = which("node").ok_or("not installed (no `node` on PATH)")?;
    let stage = config.out_dir.join("js");
    std::fs::create_dir_all(&stage).map_err(|e| e.to_string())?;
    let link = stage.join("node_modules");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&modules, &link).map_err(|e| format!("{}: {e}", link.display()))?;
    let script = stage.join("echo_server.mjs");
    std::fs::copy(
        config.root.join("crates/a2a-bench/sdk/js/echo_server.mjs"),
        &script,
    )
    .map_err(|e| format!("{}: {e}", script.display()))?;
    Ok(vec![
        node.display().to_string(),
        script.display().to_string(),
        "--host".into(),
        "{host}".into(),
        "--port".into(),
        "{port}".into(),
        "--stream-events".into(),
        config.stream_events.to_string(),
    ])
}

fn which(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(program))
            .find(|p| p.is_file())
    })
}

/// `prlimit --nofile=N:HARD --` before a command that needs `N` descriptors, when the soft
/// limit is lower (no unsafe `setrlimit` in the workspace). `None` when even the hard limit is
/// too low; then `needed` is capped.
fn nofile_prefix(needed: u64) -> (Vec<String>, u64) {
    let Some((soft, hard)) = procfs::nofile_limits() else {
        return (Vec::new(), needed);
    };
    if soft >= needed {
        return (Vec::new(), needed);
    }
    let target = needed.min(hard);
    if which("prlimit").is_none() {
        return (Vec::new(), soft);
    }
    let hard = if hard == u64::MAX {
        "unlimited".to_owned()
    } else {
        hard.to_string()
    };
    (
        vec![
            "prlimit".into(),
            format!("--nofile={target}:{hard}"),
            "--".into(),
        ],
        target,
    )
}

fn spawn(
    config: &Config,
    target: &Target,
    command: &[String],
    phase: &str,
    extra: &[String],
    prefix: &[String],
) -> Result<Server, String> {
    let addr = free_addr()?;
    let argv: Vec<String> = prefix
        .iter()
        .chain(command)
        .chain(if target.kind == Kind::Ours {
            extra
        } else {
            &[]
        })
        .map(|a| {
            a.replace("{addr}", &addr.to_string())
                .replace("{host}", &addr.ip().to_string())
                .replace("{port}", &addr.port().to_string())
        })
        .collect();
    let log = config
        .out_dir
        .join("logs")
        .join(format!("{}-{phase}.log", target.name));
    process::start(target.name, &argv, &[], addr, &log)
}

/// Runs the load generator; its last stdout line is JSON.
fn load(config: &Config, server: &Server, what: &str, args: &[String]) -> Result<Value, String> {
    let output = Command::new(config.bin_dir.join("a2a-bench-load"))
        .arg(what)
        .args(["--addr", &server.addr.to_string()])
        .args(["--threads", &config.threads.to_string()])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot start a2a-bench-load: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "a2a-bench-load {what}: {} {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let last = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last).map_err(|e| format!("a2a-bench-load {what}: {e}: {last}"))
}

fn s(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| (*a).to_owned()).collect()
}

fn settle() {
    std::thread::sleep(Duration::from_millis(500));
}

#[derive(Default)]
struct Rate {
    concurrency: usize,
    rps: f64,
    p50_us: f64,
    p99_us: f64,
    cpu_us: f64,
    errors: u64,
}

/// What the counting allocator saw.
#[derive(Clone, Copy, Default)]
struct Allocs {
    /// `alloc` + `realloc` calls per `SendMessage`, the store full (evicting).
    per_request: f64,
    /// Bytes asked for per `SendMessage`, the same run.
    bytes_per_request: f64,
    /// Bytes held (allocated less freed) per kept task.
    live_per_task: f64,
}

#[derive(Default)]
struct Results {
    missing: Option<String>,
    idle_rss: Option<u64>,
    rates: Vec<Rate>,
    /// (bytes per retained task, retained tasks); per request when nothing is retained.
    per_task: Option<(f64, u64)>,
    events_per_s: Option<(f64, usize)>,
    /// (bytes per subscriber, subscribers).
    per_subscriber: Option<(f64, usize)>,
    /// The counting allocator's figures (a2a-rs only).
    allocs: Option<Allocs>,
    errors: Vec<String>,
}

impl Results {
    fn missing(why: &str) -> Self {
        Self {
            missing: Some(why.to_owned()),
            ..Self::default()
        }
    }

    fn to_json(&self) -> Value {
        json!({
            "missing": self.missing,
            "idle_rss_bytes": self.idle_rss,
            "rates": self.rates.iter().map(|r| json!({
                "concurrency": r.concurrency, "rps": r.rps, "p50_us": r.p50_us,
                "p99_us": r.p99_us, "cpu_us_per_request": r.cpu_us, "errors": r.errors,
            })).collect::<Vec<_>>(),
            "rss_bytes_per_task": self.per_task.map(|p| p.0),
            "tasks_retained": self.per_task.map(|p| p.1),
            "stream_events_per_s": self.events_per_s.map(|e| e.0),
            "stream_events": self.events_per_s.map(|e| e.1),
            "rss_bytes_per_subscriber": self.per_subscriber.map(|p| p.0),
            "subscribers": self.per_subscriber.map(|p| p.1),
            "allocations_per_request": self.allocs.map(|a| a.per_request),
            "allocated_bytes_per_request": self.allocs.map(|a| a.bytes_per_request),
            "allocator_bytes_per_kept_task": self.allocs.map(|a| a.live_per_task),
            "errors": self.errors,
        })
    }
}

/// One phase of [`measure`]: a fresh server process, one set of figures.
type Phase = fn(&Config, &Target, &[String], &mut Results) -> Result<(), String>;

fn measure(config: &Config, target: &Target, command: &[String]) -> Results {
    let mut results = Results::default();
    let phases: [(&str, Phase); 5] = [
        ("rates", phase_rates),
        ("retain", phase_retain),
        ("stream", phase_stream),
        ("subscribers", phase_subscribers),
        ("allocs", phase_allocs),
    ];
    for (name, phase) in phases {
        if let Err(e) = phase(config, target, command, &mut results) {
            eprintln!("   {name}: FAILED: {e}");
            results.errors.push(format!("{name}: {e}"));
        }
    }
    results
}

fn phase_rates(
    config: &Config,
    target: &Target,
    command: &[String],
    results: &mut Results,
) -> Result<(), String> {
    let server = spawn(config, target, command, "rates", &[], &[])?;
    settle();
    let idle = procfs::rss_bytes(server.pid)?;
    results.idle_rss = Some(idle);
    eprintln!("   idle RSS {:.2} MiB", idle as f64 / MIB);
    if config.warmup > 0.0 {
        load(
            config,
            &server,
            "rps",
            &s(&[
                "--concurrency",
                "16",
                "--duration",
                &config.warmup.to_string(),
            ]),
        )?;
    }
    for &c in &config.concurrency {
        let before = procfs::cpu_time(server.pid, config.clock_ticks)?;
        let out = load(
            config,
            &server,
            "rps",
            &s(&[
                "--concurrency",
                &c.to_string(),
                "--duration",
                &config.duration.to_string(),
            ]),
        )?;
        let after = procfs::cpu_time(server.pid, config.clock_ticks)?;
        let requests = out["requests"].as_u64().unwrap_or(0);
        let rate = Rate {
            concurrency: c,
            rps: out["rps"].as_f64().unwrap_or(0.0),
            p50_us: out["p50_us"].as_f64().unwrap_or(0.0),
            p99_us: out["p99_us"].as_f64().unwrap_or(0.0),
            cpu_us: (after - before).as_secs_f64() * 1e6 / requests.max(1) as f64,
            errors: out["errors"].as_u64().unwrap_or(0),
        };
        eprintln!(
            "   c={c:<3} {:>9.0} req/s  p50 {:>8.1} µs  p99 {:>8.1} µs  CPU {:>6.1} µs/req  errors {}",
            rate.rps, rate.p50_us, rate.p99_us, rate.cpu_us, rate.errors
        );
        if rate.errors > 0 {
            results.errors.push(format!(
                "c={c}: {} errors, last: {}",
                rate.errors, out["last_error"]
            ));
        }
        results.rates.push(rate);
    }
    Ok(())
}

fn list_total(config: &Config, server: &Server) -> Option<u64> {
    let out = load(config, server, "call", &s(&["--what", "list"])).ok()?;
    let body: Value = serde_json::from_str(out["body"].as_str()?).ok()?;
    body["result"]["totalSize"].as_u64()
}

fn phase_retain(
    config: &Config,
    target: &Target,
    command: &[String],
    results: &mut Results,
) -> Result<(), String> {
    let n = config.retain_requests;
    let warm = 1000u64;
    // Our server retains every task of the run (the default keeps 10 000).
    let extra = s(&["--max-tasks", &(2 * (n + warm) + 10_000).to_string()]);
    let server = spawn(config, target, command, "retain", &extra, &[])?;
    let count = |requests: u64| {
        load(
            config,
            &server,
            "count",
            &s(&["--concurrency", "16", "--requests", &requests.to_string()]),
        )
    };
    count(warm)?;
    settle();
    let (rss0, total0) = (procfs::rss_bytes(server.pid)?, list_total(config, &server));
    let out = count(n)?;
    if out["errors"].as_u64().unwrap_or(0) > 0 {
        return Err(format!("{} errors: {}", out["errors"], out["last_error"]));
    }
    settle();
    let (rss1, total1) = (procfs::rss_bytes(server.pid)?, list_total(config, &server));
    let retained = match (total0, total1) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => n,
    };
    let growth = rss1 as f64 - rss0 as f64;
    let per = growth / if retained == 0 { n } else { retained } as f64;
    eprintln!(
        "   {n} requests: RSS {:.2} -> {:.2} MiB, {retained} tasks retained, {per:.0} B per {}",
        rss0 as f64 / MIB,
        rss1 as f64 / MIB,
        if retained == 0 { "request" } else { "task" }
    );
    results.per_task = Some((per, retained));
    Ok(())
}

fn phase_stream(
    config: &Config,
    target: &Target,
    command: &[String],
    results: &mut Results,
) -> Result<(), String> {
    let server = spawn(config, target, command, "stream", &[], &[])?;
    let events = config.stream_events.to_string();
    load(
        config,
        &server,
        "stream",
        &s(&["--events", &events, "--repeat", "1"]),
    )?;
    let out = load(
        config,
        &server,
        "stream",
        &s(&[
            "--events",
            &events,
            "--repeat",
            &config.stream_repeat.to_string(),
        ]),
    )?;
    let rate = out["events_per_s"].as_f64().unwrap_or(0.0);
    let n = usize::try_from(out["events"].as_u64().unwrap_or(0)).unwrap_or(0);
    eprintln!(
        "   stream of {n} events: {rate:.0} events/s (median of {}; min {:.0}, max {:.0})",
        out["streams"],
        out["min_events_per_s"].as_f64().unwrap_or(0.0),
        out["max_events_per_s"].as_f64().unwrap_or(0.0)
    );
    results.events_per_s = Some((rate, n));
    Ok(())
}

fn phase_subscribers(
    config: &Config,
    target: &Target,
    command: &[String],
    results: &mut Results,
) -> Result<(), String> {
    let wanted = config.subscribers as u64;
    let (prefix, fds) = nofile_prefix(wanted + 512);
    let n = usize::try_from(fds.saturating_sub(512).min(wanted)).unwrap_or(0);
    if n < config.subscribers {
        results.errors.push(format!(
            "subscribers: only {n} (RLIMIT_NOFILE); run with a higher `ulimit -n`"
        ));
    }
    let extra = s(&["--max-streams", &(n + 100).to_string()]);
    let server = spawn(config, target, command, "subscribers", &extra, &prefix)?;
    let out = load(config, &server, "call", &s(&["--what", "hold"]))?;
    let body: Value = serde_json::from_str(out["body"].as_str().unwrap_or_default())
        .map_err(|e| format!("hold: {e}: {out}"))?;
    let task = body["result"]["task"]["id"]
        .as_str()
        .ok_or_else(|| format!("hold: no task id in {body}"))?
        .to_owned();
    settle();
    let rss0 = procfs::rss_bytes(server.pid)?;
    let mut argv = prefix.clone();
    argv.push(config.bin_dir.join("a2a-bench-load").display().to_string());
    argv.extend(s(&[
        "subscribe",
        "--addr",
        &server.addr.to_string(),
        "--threads",
        &config.threads.to_string(),
        "--task",
        &task,
        "--subscribers",
        &n.to_string(),
        "--timeout",
        "180",
    ]));
    let mut child = Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start a2a-bench-load: {e}"))?;
    let mut stdout = std::io::BufReader::new(child.stdout.take().expect("piped"));
    let mut line = String::new();
    let ready = loop {
        line.clear();
        if stdout.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            let _ = child.wait();
            return Err("the load generator ended before `ready`".into());
        }
        if let Some(rest) = line.trim().strip_prefix("ready ") {
            let mut parts = rest.split(' ');
            let ready: usize = parts.next().and_then(|n| n.parse().ok()).unwrap_or(0);
            break ready;
        }
    };
    settle();
    let rss1 = procfs::rss_bytes(server.pid);
    // Release the subscribers and collect the summary.
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"done\n");
    }
    let mut rest = String::new();
    let _ = std::io::Read::read_to_string(&mut stdout, &mut rest);
    let _ = child.wait();
    let summary: Value = rest
        .lines()
        .last()
        .and_then(|l| serde_json::from_str(l).ok())
        .unwrap_or_default();
    let rss1 = rss1?;
    if ready == 0 {
        return Err(format!("no subscriber got its first event: {summary}"));
    }
    if summary["errors"].as_u64().unwrap_or(0) > 0 {
        results.errors.push(format!(
            "subscribers: {} failed, last: {}",
            summary["errors"], summary["last_error"]
        ));
    }
    let per = (rss1 as f64 - rss0 as f64) / ready as f64;
    eprintln!(
        "   {ready} idle subscribers (connected in {:.1} s): RSS {:.2} -> {:.2} MiB, {:.2} KiB each",
        summary["connect_s"].as_f64().unwrap_or(0.0),
        rss0 as f64 / MIB,
        rss1 as f64 / MIB,
        per / 1024.0
    );
    results.per_subscriber = Some((per, ready));
    Ok(())
}

/// Our server on the counting allocator: allocations per request with the store full at the
/// default retention, then (a fresh process, retention raised) the bytes held per kept task.
fn phase_allocs(
    config: &Config,
    target: &Target,
    _command: &[String],
    results: &mut Results,
) -> Result<(), String> {
    if target.kind != Kind::Ours {
        return Ok(());
    }
    let default_max_tasks = 10_000u64;
    let start = |extra: &[String]| -> Result<(Server, std::net::SocketAddr), String> {
        let stats = free_addr()?;
        let addr = free_addr()?;
        let mut argv = vec![
            config
                .bin_dir
                .join("a2a-bench-server-counting")
                .display()
                .to_string(),
            "--stats-addr".into(),
            stats.to_string(),
            "--addr".into(),
            addr.to_string(),
        ];
        argv.extend_from_slice(extra);
        let log = config.out_dir.join("logs/a2a-rs-allocs.log");
        Ok((process::start(target.name, &argv, &[], addr, &log)?, stats))
    };
    let count = |server: &Server, requests: u64| -> Result<(), String> {
        let out = load(
            config,
            server,
            "count",
            &s(&["--concurrency", "16", "--requests", &requests.to_string()]),
        )?;
        match out["errors"].as_u64().unwrap_or(0) {
            0 => Ok(()),
            n => Err(format!("{n} errors: {}", out["last_error"])),
        }
    };
    // Default retention: past 10 000 tasks every new one evicts the oldest.
    let (server, stats) = start(&[])?;
    count(&server, default_max_tasks + 2000)?;
    let before = AllocStats::fetch(stats)?;
    let measured = 5000u64;
    count(&server, measured)?;
    let after = AllocStats::fetch(stats)?;
    drop(server);
    let per_request = (after.allocations - before.allocations) as f64 / measured as f64;
    let bytes_per_request =
        (after.bytes_allocated - before.bytes_allocated) as f64 / measured as f64;
    // Retention raised: every task of the run is kept.
    let n = config.retain_requests;
    let warm = 1000u64;
    let extra = s(&["--max-tasks", &(2 * (n + warm) + 10_000).to_string()]);
    let (server, stats) = start(&extra)?;
    count(&server, warm)?;
    let before = AllocStats::fetch(stats)?;
    count(&server, n)?;
    let after = AllocStats::fetch(stats)?;
    let live_per_task = (after.live_bytes() - before.live_bytes()) as f64 / n.max(1) as f64;
    eprintln!(
        "   counting allocator: {per_request:.1} allocations ({bytes_per_request:.0} B) per \
         SendMessage with the store full; {live_per_task:.0} B held per kept task ({n} tasks)"
    );
    results.allocs = Some(Allocs {
        per_request,
        bytes_per_request,
        live_per_task,
    });
    Ok(())
}

const MIB: f64 = 1024.0 * 1024.0;

/// Picks one figure out of a server's results.
type Pick = Box<dyn Fn(&Results) -> Option<f64>>;

/// A figure and its ratio to the floor's.
struct Row {
    metric: String,
    value: Pick,
    format: fn(f64) -> String,
    /// (goal text, check of the ratio or of the absolute value)
    goal: Option<(&'static str, Goal)>,
    /// No ratio to the floor: the floor retains no task.
    absolute: bool,
    /// Measured on our server only (the counting allocator): "n/a" for the others.
    ours_only: bool,
}

#[derive(Clone, Copy)]
enum Goal {
    RatioAtMost(f64),
    RatioAtLeast(f64),
    AtMost(f64),
}

fn rate_row(
    c: usize,
    metric: &str,
    pick: fn(&Rate) -> f64,
    format: fn(f64) -> String,
    goal: Option<(&'static str, Goal)>,
) -> Row {
    Row {
        metric: format!("{metric}, c={c}"),
        value: Box::new(move |r: &Results| r.rates.iter().find(|x| x.concurrency == c).map(pick)),
        format,
        goal,
        absolute: false,
        ours_only: false,
    }
}

fn report(config: &Config, machine: &str, results: &[(&str, Results)]) -> String {
    let mut rows: Vec<Row> = Vec::new();
    let whole = |v: f64| format!("{v:.0}");
    for &c in &config.concurrency {
        let goal = (c == 64).then_some(("≥ 0.70x floor", Goal::RatioAtLeast(0.70)));
        rows.push(rate_row(c, "SendMessage req/s", |r| r.rps, whole, goal));
    }
    for &c in &config.concurrency {
        rows.push(rate_row(c, "p50 latency µs", |r| r.p50_us, whole, None));
    }
    for &c in &config.concurrency {
        rows.push(rate_row(c, "p99 latency µs", |r| r.p99_us, whole, None));
    }
    for &c in &config.concurrency {
        let goal = Some(("≤ 1.5x floor", Goal::RatioAtMost(1.5)));
        let one = |v: f64| format!("{v:.1}");
        rows.push(rate_row(
            c,
            "server CPU µs per SendMessage",
            |r| r.cpu_us,
            one,
            goal,
        ));
    }
    rows.push(Row {
        metric: format!(
            "SSE: 1 SendStreamingMessage of {} chunks, events/s",
            config.stream_events
        ),
        value: Box::new(|r| r.events_per_s.map(|e| e.0)),
        format: whole,
        goal: Some(("≥ 0.40x floor", Goal::RatioAtLeast(0.40))),
        absolute: false,
        ours_only: false,
    });
    rows.push(Row {
        metric: "idle RSS, MiB".into(),
        value: Box::new(|r| r.idle_rss.map(|b| b as f64 / MIB)),
        format: |v| format!("{v:.2}"),
        goal: Some(("≤ 8 MiB", Goal::AtMost(8.0))),
        absolute: false,
        ours_only: false,
    });
    rows.push(Row {
        metric: format!(
            "RSS per retained completed task, bytes ({} requests)",
            config.retain_requests
        ),
        value: Box::new(|r| r.per_task.map(|p| p.0)),
        format: whole,
        goal: Some(("≤ 1024 B", Goal::AtMost(1024.0))),
        absolute: true,
        ours_only: false,
    });
    rows.push(Row {
        metric: format!(
            "RSS per idle SSE subscriber, KiB ({} subscribers)",
            config.subscribers
        ),
        value: Box::new(|r| r.per_subscriber.map(|p| p.0 / 1024.0)),
        format: |v| format!("{v:.2}"),
        goal: Some(("≤ 16 KiB", Goal::AtMost(16.0))),
        absolute: false,
        ours_only: false,
    });

    rows.push(Row {
        metric: "allocations per SendMessage, store full (counting allocator)".into(),
        value: Box::new(|r| r.allocs.map(|a| a.per_request)),
        format: |v| format!("{v:.1}"),
        goal: None,
        absolute: true,
        ours_only: true,
    });
    rows.push(Row {
        metric: "allocated bytes per SendMessage, store full (counting allocator)".into(),
        value: Box::new(|r| r.allocs.map(|a| a.bytes_per_request)),
        format: whole,
        goal: None,
        absolute: true,
        ours_only: true,
    });
    rows.push(Row {
        metric: format!(
            "allocator bytes held per kept task ({} tasks)",
            config.retain_requests
        ),
        value: Box::new(|r| r.allocs.map(|a| a.live_per_task)),
        format: whole,
        goal: Some(("≤ 1024 B", Goal::AtMost(1024.0))),
        absolute: true,
        ours_only: true,
    });

    let get = |name: &str| results.iter().find(|(n, _)| *n == name).map(|(_, r)| r);
    let floor = get("floor");
    let ours = get("a2a-rs");
    let others: Vec<(&str, &Results)> = results
        .iter()
        .filter(|(n, _)| *n != "floor" && *n != "a2a-rs")
        .map(|(n, r)| (*n, r))
        .collect();
    let mut out = String::new();
    let label = |n: &str| {
        match n {
            "python" => "Python SDK",
            "js" => "JS SDK",
            other => other,
        }
        .to_owned()
    };
    out.push_str(&format!(
        "Machine: {machine}; shared and noisy (compare rows of one run, not runs). \
         Load: a2a-bench-load ({} thread), HTTP/1.1 keep-alive, one connection per worker, \
         {} s per run after {} s of warm-up, on 127.0.0.1.\n\n",
        config.threads, config.duration, config.warmup
    ));
    out.push_str("| metric | floor | a2a-rs | a2a-rs / floor | goal | met |");
    for (n, _) in &others {
        out.push_str(&format!(" {} | / floor |", label(n)));
    }
    out.push('\n');
    out.push_str("|---|---:|---:|---:|---|---|");
    for _ in &others {
        out.push_str("---:|---:|");
    }
    out.push('\n');
    let cell = |r: Option<&Results>, row: &Row| -> String {
        match r {
            None => "not run".into(),
            Some(r) if r.missing.is_some() => "not installed".into(),
            Some(r) if row.ours_only && !std::ptr::eq(r, ours.unwrap_or(r)) => "n/a".into(),
            Some(r) => (row.value)(r).map_or_else(|| "failed".into(), row.format),
        }
    };
    let ratio = |r: Option<&Results>, row: &Row| -> Option<f64> {
        if row.absolute {
            return None;
        }
        let v = (row.value)(r?)?;
        let f = (row.value)(floor?)?;
        (f != 0.0).then(|| v / f)
    };
    for row in &rows {
        let ours_ratio = ratio(ours, row);
        let met = match (row.goal, ours.and_then(|r| (row.value)(r))) {
            (None, _) => String::new(),
            (Some(_), None) => "?".into(),
            (Some((_, goal)), Some(v)) => {
                let ok = match goal {
                    Goal::RatioAtMost(x) => ours_ratio.map(|r| r <= x),
                    Goal::RatioAtLeast(x) => ours_ratio.map(|r| r >= x),
                    Goal::AtMost(x) => Some(v <= x),
                };
                match ok {
                    Some(true) => "yes".into(),
                    Some(false) => "**no**".into(),
                    None => "?".into(),
                }
            }
        };
        let fmt_ratio = |r: Option<f64>| {
            r.map_or_else(String::new, |r| match r {
                r if r < 0.1 => format!("{r:.3}x"),
                r if r >= 100.0 => format!("{r:.0}x"),
                r => format!("{r:.2}x"),
            })
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |",
            row.metric,
            cell(floor, row),
            cell(ours, row),
            fmt_ratio(ours_ratio),
            row.goal.map_or("", |g| g.0),
            met
        ));
        for (_, r) in &others {
            out.push_str(&format!(
                " {} | {} |",
                cell(Some(r), row),
                fmt_ratio(ratio(Some(r), row))
            ));
        }
        out.push('\n');
    }
    let mut notes = Vec::new();
    for (name, r) in results {
        if let Some(why) = &r.missing {
            notes.push(format!("- {}: {why}", label(name)));
        }
        for e in &r.errors {
            notes.push(format!("- {}: {e}", label(name)));
        }
        if let Some((_, 0)) = r.per_task {
            notes.push(format!(
                "- {}: retains no task; its RSS-per-task figure is the growth per request",
                label(name)
            ));
        }
    }
    if !notes.is_empty() {
        out.push_str("\nNotes:\n");
        out.push_str(&notes.join("\n"));
        out.push('\n');
    }
    out
}
