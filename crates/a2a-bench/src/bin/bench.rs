//! The driver of `cargo xtask bench`: every server, one after another, in one run.
//!
//! ```text
//! a2a-bench [--duration 5] [--warmup 1] [--concurrency 1,16,64] [--retain-requests 20000]
//!           [--stream-events 1000] [--stream-repeat 10] [--subscribers 10000,50000]
//!           [--scale 1k,10k,100k,1M] [--callgrind 2000|none] [--threads 1] [--root DIR]
//!           [--only floor,floor-json,floor-grpc,a2a-rs,per-core,a2a-cli,sqlite,postgres,python,js]
//!           [--postgres postgres://postgres@127.0.0.1:5432/test]
//! ```
//!
//! For each server (the floor, a2a-rs, the JSON floor, the gRPC floor, the `a2a` binary, the
//! bench server on a SQLite file and on PostgreSQL, and the Python and JS SDK echo servers when
//! the interop suite has installed the SDKs) it starts fresh processes on 127.0.0.1 for these
//! phases (each server runs the ones that apply to it, [`phases`]):
//!
//! 1. idle RSS right after start; then `SendMessage` at each concurrency for `--duration`
//!    seconds after a warm-up: req/s, p50 and p99 latency, and server CPU per request (the
//!    growth of utime + stime in `/proc/<pid>/stat` over the requests answered);
//! 2. RSS growth over `--retain-requests` completed tasks (our server retains them all:
//!    `--max-tasks` is raised), divided by the tasks `ListTasks` counts; and, a fresh process
//!    at the default retention, the growth over 11,000 requests after 1,000 of warm-up
//!    divided by the growth of the tasks kept (1,000 to 10,000), and the growth from start
//!    divided by the tasks kept (fixed costs included);
//! 3. one `SendStreamingMessage` of `--stream-events` artifact chunks, `--stream-repeat`
//!    times: the median stream's time (request written to end of body; every one of the
//!    `n + 3` events must arrive) and its events per second;
//! 4. `--subscribers` idle `SubscribeToTask` streams on one working task: RSS growth per
//!    subscriber;
//! 5. (a2a-rs only) `a2a-bench-server-counting`, the same server on a counting allocator:
//!    allocations and allocated bytes per `SendMessage` with the store full at the default
//!    retention (every request evicts a task), and the allocator's bytes held per kept task
//!    over `--retain-requests` tasks.
//! 6. `SendMessage` over HTTP+JSON (the floors, a2a-rs) and over gRPC (a2a-rs with `--grpc true`,
//!    the gRPC floor) at concurrency 16 and 64: req/s and server CPU per request;
//! 7. (floor, JSON floor, a2a-rs; `--callgrind N`) instructions per `SendMessage` under
//!    `valgrind --tool=callgrind`, one runtime worker, our store full at its default
//!    retention: the total `Ir` of the dump over `N` requests at concurrency 4;
//! 8. (a2a-rs only, [`a2a_bench::scale`]) the figures at each `--scale` store size (1k to 1M
//!    kept tasks), and idle subscribers at each further `--subscribers` count.
//!
//! The bench server on [`a2a_server::serve_per_core`] (`per-core`: one single-threaded runtime
//! per core, `--per-core N`) runs phases 1, 3 and 6 beside a2a-rs (the same server on the
//! multi-thread runtime). The `a2a` binary (`a2a-cli`: `a2a serve --no-grpc -q`, what users run, its echo agent on
//! the in-memory store) runs phase 1. The store columns (`sqlite`, `postgres`: the bench server
//! with `--store`, a fresh SQLite file or PostgreSQL schema per phase, removed or dropped after
//! it) run phases 1 and 3, with the CPU of every `postgres` process on the machine beside the
//! server's ([`a2a_bench::database::cpu_by_name`]); they have a table of their own, each figure
//! with its ratio to a2a-rs (the same server on its in-memory store).
//!
//! It prints a Markdown table with every figure and its ratio to the reference floor: the JSON
//! floor (`a2a-bench-floor --json true`, the same binding's JSON work with fresh ids; its stream
//! serializing each event through a bounded channel) for the JSON-RPC, HTTP+JSON and SSE rows,
//! the gRPC floor for the gRPC rows; the raw floor (pre-built bytes) is a column of its own.
//! It writes it with the raw figures to `target/bench/`. The table's
//! header names the release profile the binaries were built with.

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
    /// Requests measured under callgrind; `None`: `--callgrind none`.
    callgrind: Option<u64>,
    only: Option<Vec<String>>,
    /// The PostgreSQL of the `postgres` column.
    postgres: String,
    root: PathBuf,
    bin_dir: PathBuf,
    out_dir: PathBuf,
    clock_ticks: u64,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Floor,
    /// The floor with `--json true`: each `SendMessage` answer built with `serde_json`.
    FloorJson,
    /// The generated tonic server answering a pre-built message.
    FloorGrpc,
    Ours,
    /// The bench server on [`a2a_server::serve_per_core`] (`--per-core N`, N the machine's
    /// cores): one single-threaded runtime per core rather than the multi-thread runtime.
    PerCore,
    /// The `a2a` binary: `a2a serve` with its echo agent on the in-memory store.
    Cli,
    /// The bench server on a SQLite file (`--store sqlite://PATH`), a fresh one per phase.
    Sqlite,
    /// The bench server on PostgreSQL (`--store postgres://...`), a fresh schema per phase.
    Postgres,
    Python,
    Js,
}

impl Kind {
    /// Whether the server is the bench server (`a2a-bench-server`), which takes the phases'
    /// extra flags (`--max-tasks`, `--max-streams`, `--grpc`).
    fn is_bench_server(self) -> bool {
        matches!(
            self,
            Kind::Ours | Kind::PerCore | Kind::Sqlite | Kind::Postgres
        )
    }
}

/// The servers `--only` takes, in the order they run.
const SERVERS: [&str; 10] = [
    "floor",
    "floor-json",
    "floor-grpc",
    "a2a-rs",
    "per-core",
    "a2a-cli",
    "sqlite",
    "postgres",
    "python",
    "js",
];

/// The servers of `--only LIST`: each name of the comma-separated list one of [`SERVERS`]
/// (blanks around names and empty entries ignored), at least one.
fn parse_only(list: &str) -> Result<Vec<String>, String> {
    let names: Vec<String> = list
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_owned)
        .collect();
    let unknown: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| !SERVERS.contains(n))
        .collect();
    if !unknown.is_empty() {
        return Err(format!(
            "`--only {list}`: no server named {}; the servers are {}",
            unknown
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", "),
            SERVERS.join(", ")
        ));
    }
    if names.is_empty() {
        return Err(format!(
            "`--only {list}`: names no server; the servers are {}",
            SERVERS.join(", ")
        ));
    }
    Ok(names)
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
    if args.iter().any(|a| a == "--scale-out") {
        let rest: Vec<String> = args
            .iter()
            .filter(|a| *a != "--scale-out")
            .cloned()
            .collect();
        return scale_out(&rest);
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
        callgrind: match a2a_bench::flag(&flags, "callgrind", "2000".to_owned())?.as_str() {
            "none" | "0" => None,
            n => Some(
                n.parse()
                    .map_err(|_| format!("`--callgrind {n}`: a count or `none`"))?,
            ),
        },
        only: flags
            .iter()
            .rev()
            .find(|(n, _)| n == "only")
            .map(|(_, v)| parse_only(v))
            .transpose()?,
        postgres: a2a_bench::flag(
            &flags,
            "postgres",
            "postgres://postgres@127.0.0.1:5432/test".to_owned(),
        )?,
        out_dir: root.join("target/bench"),
        bin_dir,
        root,
        clock_ticks: procfs::clock_ticks(),
    };
    std::fs::create_dir_all(config.out_dir.join("logs")).map_err(|e| e.to_string())?;

    let targets = targets(&config);
    let machine = procfs::machine();
    let profile = release_profile(&config.root);
    eprintln!("a2a-bench on {machine}\nbuilt with {profile}");
    let mut results = Vec::new();
    for target in &targets {
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
    // The main table when a server of it ran; with the stores alone, their table only.
    let mut table = if results
        .iter()
        .any(|(name, _)| !matches!(*name, "sqlite" | "postgres"))
    {
        report(&config, &machine, &profile, &results) + "\n\n"
    } else {
        format!(
            "Machine: {machine}; shared and noisy. Load: a2a-bench-load ({} thread), {} s per \
             run after {} s of warm-up, on 127.0.0.1. Binaries: {profile}.\n\n",
            config.threads, config.duration, config.warmup
        )
    };
    if let Some(stores) = store_report(&config, &results) {
        table.push_str(&stores);
    }
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
    raw.insert("release_profile".into(), profile.clone().into());
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
    // The floors and our servers must measure end to end (PostgreSQL and the `a2a` binary may
    // be missing: their columns then say so); the SDKs may be missing or fail.
    Ok(results
        .iter()
        .filter(|(name, _)| !matches!(*name, "python" | "js"))
        .all(|(_, r)| r.errors.is_empty())
        && scale.iter().all(|(_, r)| r.is_ok()))
}

/// The driver's help, which `cargo xtask bench --help` prints without building anything.
const USAGE: &str = include_str!("../usage.txt");

/// `--scale-out`: the replicas' capacity on PostgreSQL, alone and with NATS.
fn scale_out(args: &[String]) -> Result<bool, String> {
    let flags = a2a_bench::parse_flags(args)?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let bin_dir = exe.parent().ok_or("no executable directory")?.to_path_buf();
    let default_root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root: PathBuf = a2a_bench::flag(&flags, "root", default_root)?;
    let replicas: String = a2a_bench::flag(&flags, "replicas", "1,2,3".to_owned())?;
    let config = a2a_bench::scale_out::ScaleOutConfig {
        bin_dir,
        out_dir: root.join("target/bench"),
        postgres: a2a_bench::flag(
            &flags,
            "postgres",
            "postgres://postgres@127.0.0.1:5432/test".to_owned(),
        )?,
        nats: a2a_bench::flag(&flags, "nats", "nats://127.0.0.1:4222".to_owned())?,
        replicas: a2a_bench::scale::parse_counts(&replicas)?,
        duration: a2a_bench::flag(&flags, "duration", 5.0)?,
        concurrency: a2a_bench::flag(&flags, "concurrency", 16)?,
        streams: a2a_bench::flag(&flags, "streams", 16)?,
        stream_events: a2a_bench::flag(&flags, "stream-events", 200)?,
        fanout_events: a2a_bench::flag(&flags, "fanout-events", 200)?,
        clock_ticks: procfs::clock_ticks(),
    };
    let rows = a2a_bench::scale_out::run(&config)?;
    let table = format!(
        "{}\n\n{}",
        procfs::machine(),
        a2a_bench::scale_out::table(&config, &rows)
    );
    eprintln!("{table}");
    std::fs::write(config.out_dir.join("scale-out.md"), &table).map_err(|e| e.to_string())?;
    std::fs::write(
        config.out_dir.join("scale-out.json"),
        a2a_bench::scale_out::to_json(&rows).to_string(),
    )
    .map_err(|e| e.to_string())?;
    Ok(true)
}

/// Whether `--only` (when given) names `server`.
fn selected(config: &Config, server: &str) -> bool {
    config
        .only
        .as_ref()
        .is_none_or(|only| only.iter().any(|o| o == server))
}

/// The servers `--only` selects (every one without it), in the order of [`SERVERS`].
fn targets(config: &Config) -> Vec<Target> {
    let bin = |name: &str| config.bin_dir.join(name).display().to_string();
    let floor = vec![
        bin("a2a-bench-floor"),
        "--addr".into(),
        "{addr}".into(),
        "--stream-events".into(),
        config.stream_events.to_string(),
    ];
    let mut floor_json = floor.clone();
    floor_json.extend(["--json".into(), "true".into()]);
    let floor_grpc = vec![
        bin("a2a-bench-floor-grpc"),
        "--addr".into(),
        "{addr}".into(),
    ];
    let ours = vec![bin("a2a-bench-server"), "--addr".into(), "{addr}".into()];
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let mut per_core = ours.clone();
    per_core.extend(["--per-core".to_owned(), cores.to_string()]);
    let all = vec![
        Target {
            name: "floor",
            kind: Kind::Floor,
            command: Ok(floor),
        },
        Target {
            name: "floor-json",
            kind: Kind::FloorJson,
            command: Ok(floor_json),
        },
        Target {
            name: "floor-grpc",
            kind: Kind::FloorGrpc,
            command: Ok(floor_grpc),
        },
        Target {
            name: "a2a-rs",
            kind: Kind::Ours,
            command: Ok(ours.clone()),
        },
        Target {
            name: "per-core",
            kind: Kind::PerCore,
            command: Ok(per_core),
        },
        Target {
            name: "a2a-cli",
            kind: Kind::Cli,
            command: Ok(Vec::new()),
        },
        Target {
            name: "sqlite",
            kind: Kind::Sqlite,
            command: Ok(ours.clone()),
        },
        Target {
            name: "postgres",
            kind: Kind::Postgres,
            command: Ok(ours),
        },
        Target {
            name: "python",
            kind: Kind::Python,
            command: Ok(Vec::new()),
        },
        Target {
            name: "js",
            kind: Kind::Js,
            command: Ok(Vec::new()),
        },
    ];
    // The probes (a file, an import, a connection) only for the servers that run.
    all.into_iter()
        .filter(|t| selected(config, t.name))
        .map(|t| match t.kind {
            Kind::Cli => Target {
                command: cli_command(config),
                ..t
            },
            Kind::Postgres => Target {
                command: postgres_available(config).map(|()| t.command.clone().unwrap_or_default()),
                ..t
            },
            Kind::Python => Target {
                command: python_command(config),
                ..t
            },
            Kind::Js => Target {
                command: js_command(config),
                ..t
            },
            _ => t,
        })
        .collect()
}

/// `a2a serve` as users run it, with its echo agent on the in-memory store, without the two
/// things it adds per request that the bench server has not: gRPC on the same port
/// (`--no-grpc`; on by default, through `SharedPort`'s check and body wrapper) and the request
/// log's line on stderr (`-q`; the request's span is still made). The binary is `a2a` next to
/// the bench binaries, which `cargo xtask bench` builds when this column is selected.
fn cli_command(config: &Config) -> Result<Vec<String>, String> {
    let a2a = config.bin_dir.join("a2a");
    if !a2a.is_file() {
        return Err(format!(
            "not built ({} missing: `cargo build --release -p a2a-cli --bin a2a`, which \
             `cargo xtask bench` runs when a2a-cli is selected)",
            a2a.display()
        ));
    }
    Ok(vec![
        a2a.display().to_string(),
        "serve".into(),
        "--addr".into(),
        "{addr}".into(),
        "--store".into(),
        "memory".into(),
        "--no-grpc".into(),
        "-q".into(),
    ])
}

/// Whether the PostgreSQL of `--postgres` answers; the reason it does not.
fn postgres_available(config: &Config) -> Result<(), String> {
    block_on(a2a_bench::database::check(&config.postgres))
        .map_err(|e| format!("not available: {e} (PostgreSQL at {})", config.postgres))
}

/// Runs `future` to its end on a runtime of its own (the driver is not async).
fn block_on<T>(future: impl std::future::Future<Output = Result<T, String>>) -> Result<T, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?
        .block_on(future)
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

/// The release profile the bench binaries were built with, as the workspace's `Cargo.toml`
/// defines it (its `[profile.release]` sections, or cargo's defaults when it has none), plus
/// any `CARGO_PROFILE_RELEASE_*` variable in this environment (`cargo xtask bench` builds with
/// the same environment it runs the driver with).
fn release_profile(root: &Path) -> String {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap_or_default();
    let mut settings = Vec::new();
    let mut section: Option<String> = None;
    for line in manifest.lines() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if let Some(header) = line.strip_prefix('[') {
            let name = header.trim_end_matches(']').trim();
            section = (name == "profile.release" || name.starts_with("profile.release."))
                .then(|| name.trim_start_matches("profile.release").to_owned());
        } else if let Some(prefix) = &section
            && !line.is_empty()
        {
            let key = prefix.trim_start_matches('.');
            settings.push(if key.is_empty() {
                line.to_owned()
            } else {
                format!("[{key}] {line}")
            });
        }
    }
    let mut env: Vec<String> = std::env::vars()
        .filter(|(k, _)| k.starts_with("CARGO_PROFILE_RELEASE_"))
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    env.sort();
    let defined = if settings.is_empty() {
        "cargo's defaults (the workspace Cargo.toml has no [profile.release]: opt-level 3, \
         no LTO, 16 codegen units, no debug info)"
            .to_owned()
    } else {
        format!("the workspace's [profile.release]: {}", settings.join(", "))
    };
    let env = if env.is_empty() {
        String::new()
    } else {
        format!("; overridden here by {}", env.join(" "))
    };
    format!(
        "`cargo build --release -p a2a-bench --bins`, {defined}{env}: what a user's \
         `cargo build --release` gives"
    )
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

/// Starts `command` for `phase` (our server with `extra` flags), after `prefix` and with `env`
/// added to its environment.
fn spawn(
    config: &Config,
    target: &Target,
    command: &[String],
    phase: &str,
    extra: &[String],
    prefix: &[String],
    env: &[(&str, &str)],
) -> Result<Server, String> {
    let addr = free_addr()?;
    let argv: Vec<String> = prefix
        .iter()
        .chain(command)
        .chain(if target.kind.is_bench_server() {
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
    process::start(target.name, &argv, env, addr, &log)
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

/// CPU seconds so far of every process named `postgres` on the machine.
fn postgres_cpu(config: &Config) -> f64 {
    a2a_bench::database::cpu_by_name(&["postgres"], config.clock_ticks)
        .first()
        .copied()
        .unwrap_or(0.0)
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
    /// CPU µs per request of every `postgres` process (the `postgres` column only).
    db_cpu_us: Option<f64>,
    errors: u64,
}

/// What the counting allocator saw.
#[derive(Clone, Copy, Default)]
struct Allocs {
    /// Bytes held per kept task at the default retention (12,000 requests from start, divided
    /// by the tasks `ListTasks` counts).
    live_per_task_default: f64,
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
    /// The phases run on this server (the others' rows read "n/a").
    ran: Vec<&'static str>,
    /// (bytes per retained task, retained tasks); per request when nothing is retained.
    per_task: Option<(f64, u64)>,
    /// The same at the default retention, after the same warm-up as `per_task`.
    per_task_default: Option<(f64, u64)>,
    /// At the default retention from start: RSS growth over every request of the phase divided
    /// by the tasks kept at its end (the first requests' fixed costs included).
    per_task_default_start: Option<f64>,
    events_per_s: Option<(f64, usize)>,
    /// Seconds of the median stream, request written to end of body.
    stream_s: Option<f64>,
    /// Server CPU µs per event over the measured streams (all of them, not the median's).
    stream_cpu_us: Option<f64>,
    /// CPU µs per event of every `postgres` process over the same streams (`postgres` only).
    stream_db_cpu_us: Option<f64>,
    /// `SendMessage` over HTTP+JSON.
    rest_rates: Vec<Rate>,
    /// `SendMessage` over gRPC.
    grpc_rates: Vec<Rate>,
    /// Instructions per `SendMessage` (callgrind).
    instructions: Option<f64>,
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
            "rates": rates_json(&self.rates),
            "rss_bytes_per_task": self.per_task.map(|p| p.0),
            "tasks_retained": self.per_task.map(|p| p.1),
            "rss_bytes_per_task_default_retention": self.per_task_default.map(|p| p.0),
            "tasks_kept_default_retention": self.per_task_default.map(|p| p.1),
            "rss_bytes_per_task_default_retention_from_start": self.per_task_default_start,
            "stream_median_s": self.stream_s,
            "stream_events_per_s": self.events_per_s.map(|e| e.0),
            "stream_events": self.events_per_s.map(|e| e.1),
            "stream_cpu_us_per_event": self.stream_cpu_us,
            "stream_database_cpu_us_per_event": self.stream_db_cpu_us,
            "rss_bytes_per_subscriber": self.per_subscriber.map(|p| p.0),
            "subscribers": self.per_subscriber.map(|p| p.1),
            "allocations_per_request": self.allocs.map(|a| a.per_request),
            "allocated_bytes_per_request": self.allocs.map(|a| a.bytes_per_request),
            "allocator_bytes_per_kept_task": self.allocs.map(|a| a.live_per_task),
            "allocator_bytes_per_kept_task_default_retention":
                self.allocs.map(|a| a.live_per_task_default),
            "rest_rates": rates_json(&self.rest_rates),
            "grpc_rates": rates_json(&self.grpc_rates),
            "instructions_per_request": self.instructions,
            "errors": self.errors,
        })
    }
}

fn rates_json(rates: &[Rate]) -> Vec<Value> {
    rates
        .iter()
        .map(|r| {
            json!({
                "concurrency": r.concurrency, "rps": r.rps, "p50_us": r.p50_us,
                "p99_us": r.p99_us, "cpu_us_per_request": r.cpu_us,
                "database_cpu_us_per_request": r.db_cpu_us, "errors": r.errors,
            })
        })
        .collect()
}

/// One phase of [`measure`]: a fresh server process, one set of figures.
type Phase = fn(&Config, &Target, &[String], &mut Results) -> Result<(), String>;

/// The concurrencies of the HTTP+JSON and gRPC rows.
const BINDING_CONCURRENCY: [usize; 2] = [16, 64];

/// The phases that apply to a server: the raw floor and a2a-rs run every one of theirs; the
/// JSON floor, the reference of the A2A rows, the `SendMessage` rates of both JSON bindings, the
/// stream and the instructions; per-core the rates of every binding and the stream; the gRPC
/// floor the gRPC rows only; the `a2a` binary the
/// JSON-RPC rates; the stores the JSON-RPC rates and the stream; the SDKs the JSON-RPC phases.
fn phases(config: &Config, kind: Kind) -> Vec<(&'static str, Phase)> {
    let mut phases: Vec<(&'static str, Phase)> = match kind {
        Kind::Cli => vec![("rates", phase_rates)],
        Kind::PerCore => vec![
            ("rates", phase_rates),
            ("rest", phase_rest),
            ("grpc", phase_grpc),
            ("stream", phase_stream),
        ],
        Kind::Sqlite | Kind::Postgres => vec![("rates", phase_rates), ("stream", phase_stream)],
        Kind::FloorJson => vec![
            ("rates", phase_rates),
            ("rest", phase_rest),
            ("stream", phase_stream),
        ],
        Kind::FloorGrpc => vec![("grpc", phase_grpc)],
        Kind::Floor | Kind::Ours | Kind::Python | Kind::Js => vec![
            ("rates", phase_rates),
            ("retain", phase_retain),
            ("stream", phase_stream),
            ("subscribers", phase_subscribers),
        ],
    };
    if matches!(kind, Kind::Floor | Kind::Ours) {
        phases.push(("retain-default", phase_retain_default));
        phases.push(("rest", phase_rest));
    }
    if kind == Kind::Ours {
        phases.push(("allocs", phase_allocs));
        phases.push(("grpc", phase_grpc));
    }
    if matches!(kind, Kind::Floor | Kind::FloorJson | Kind::Ours)
        && config.callgrind.is_some()
        && valgrind_installed()
    {
        phases.push(("callgrind", phase_callgrind));
    }
    phases
}

fn measure(config: &Config, target: &Target, command: &[String]) -> Results {
    let mut results = Results::default();
    for (name, phase) in phases(config, target.kind) {
        results.ran.push(name);
        let started = std::time::Instant::now();
        let outcome = with_store(config, target.kind, name, command, |command| {
            phase(config, target, command, &mut results)
        });
        if let Err(e) = outcome {
            eprintln!("   {name}: FAILED: {e}");
            results.errors.push(format!("{name}: {e}"));
        }
        eprintln!("   ({name}: {:.0} s)", started.elapsed().as_secs_f64());
    }
    results
}

/// Runs `run` with `command`, for the store columns followed by the store of one phase: a
/// fresh SQLite file in the system's temporary folder (`--store sqlite://PATH`), removed after
/// the phase, or a fresh PostgreSQL schema (`--store URL --store-schema NAME`; the store
/// creates it), dropped after the phase. The phase's server is gone by then: each phase drops
/// its own.
fn with_store(
    config: &Config,
    kind: Kind,
    phase: &str,
    command: &[String],
    run: impl FnOnce(&[String]) -> Result<(), String>,
) -> Result<(), String> {
    let mut command = command.to_vec();
    match kind {
        Kind::Sqlite => {
            let file = a2a_bench::database::SqliteFile::new(&std::env::temp_dir(), phase);
            command.extend(["--store".into(), file.url()]);
            let outcome = run(&command);
            drop(file);
            outcome
        }
        Kind::Postgres => {
            let schema = a2a_bench::database::schema_name(phase);
            command.extend([
                "--store".into(),
                config.postgres.clone(),
                "--store-schema".into(),
                schema.clone(),
            ]);
            let outcome = run(&command);
            let dropped = block_on(a2a_bench::database::drop_schema(&config.postgres, &schema));
            outcome.and(dropped)
        }
        _ => run(&command),
    }
}

fn phase_rates(
    config: &Config,
    target: &Target,
    command: &[String],
    results: &mut Results,
) -> Result<(), String> {
    let server = spawn(config, target, command, "rates", &[], &[], &[])?;
    settle();
    let idle = procfs::rss_bytes(server.pid)?;
    results.idle_rss = Some(idle);
    eprintln!("   idle RSS {:.2} MiB", idle as f64 / MIB);
    let database = target.kind == Kind::Postgres;
    results.rates = run_rates(
        config,
        &server,
        "jsonrpc",
        &config.concurrency,
        database,
        results,
    )?;
    Ok(())
}

/// `SendMessage` over HTTP+JSON (`POST /message:send`) at [`BINDING_CONCURRENCY`].
fn phase_rest(
    config: &Config,
    target: &Target,
    command: &[String],
    results: &mut Results,
) -> Result<(), String> {
    let server = spawn(config, target, command, "rest", &[], &[], &[])?;
    results.rest_rates = run_rates(
        config,
        &server,
        "rest",
        &BINDING_CONCURRENCY,
        false,
        results,
    )?;
    Ok(())
}

/// `SendMessage` over gRPC at [`BINDING_CONCURRENCY`]: the gRPC floor, or our server with
/// `--grpc true` (gRPC on the same port through `SharedPort`).
fn phase_grpc(
    config: &Config,
    target: &Target,
    command: &[String],
    results: &mut Results,
) -> Result<(), String> {
    let server = spawn(
        config,
        target,
        command,
        "grpc",
        &s(&["--grpc", "true"]),
        &[],
        &[],
    )?;
    results.grpc_rates = run_rates(
        config,
        &server,
        "grpc",
        &BINDING_CONCURRENCY,
        false,
        results,
    )?;
    Ok(())
}

/// After a warm-up (`--warmup` seconds at concurrency 16), `SendMessage` over `binding` for
/// `--duration` seconds at each of `concurrency`: the rates, CPU per request from
/// `/proc/<pid>/stat` (with `database`, also that of every `postgres` process), and each run's
/// errors noted in `results`.
fn run_rates(
    config: &Config,
    server: &Server,
    binding: &str,
    concurrency: &[usize],
    database: bool,
    results: &mut Results,
) -> Result<Vec<Rate>, String> {
    if config.warmup > 0.0 {
        load(
            config,
            server,
            "rps",
            &s(&[
                "--binding",
                binding,
                "--concurrency",
                "16",
                "--duration",
                &config.warmup.to_string(),
            ]),
        )?;
    }
    let mut rates = Vec::new();
    for &c in concurrency {
        let before = procfs::cpu_time(server.pid, config.clock_ticks)?;
        let db_before = database.then(|| postgres_cpu(config));
        let out = load(
            config,
            server,
            "rps",
            &s(&[
                "--binding",
                binding,
                "--concurrency",
                &c.to_string(),
                "--duration",
                &config.duration.to_string(),
            ]),
        )?;
        let after = procfs::cpu_time(server.pid, config.clock_ticks)?;
        let db_after = database.then(|| postgres_cpu(config));
        let requests = out["requests"].as_u64().unwrap_or(0);
        let rate = Rate {
            concurrency: c,
            rps: out["rps"].as_f64().unwrap_or(0.0),
            p50_us: out["p50_us"].as_f64().unwrap_or(0.0),
            p99_us: out["p99_us"].as_f64().unwrap_or(0.0),
            cpu_us: (after - before).as_secs_f64() * 1e6 / requests.max(1) as f64,
            db_cpu_us: db_before
                .zip(db_after)
                .map(|(b, a)| (a - b) * 1e6 / requests.max(1) as f64),
            errors: out["errors"].as_u64().unwrap_or(0),
        };
        eprintln!(
            "   {binding} c={c:<3} {:>9.0} req/s  p50 {:>8.1} µs  p99 {:>8.1} µs  CPU {:>6.1} µs/req{}  errors {}",
            rate.rps,
            rate.p50_us,
            rate.p99_us,
            rate.cpu_us,
            rate.db_cpu_us
                .map_or_else(String::new, |d| format!("  postgres {d:>6.1} µs/req")),
            rate.errors
        );
        if rate.errors > 0 {
            results.errors.push(format!(
                "{binding} c={c}: {} errors, last: {}",
                rate.errors, out["last_error"]
            ));
        }
        rates.push(rate);
    }
    Ok(rates)
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
    let warm = RETAIN_WARM;
    // Our server retains every task of the run (the default keeps 10 000).
    let extra = s(&["--max-tasks", &(2 * (n + warm) + 10_000).to_string()]);
    let server = spawn(config, target, command, "retain", &extra, &[], &[])?;
    results.per_task = Some(retained(config, &server, warm, n)?);
    Ok(())
}

/// Requests that fill our store at its default retention (10 000 kept tasks) and then make it
/// evict.
const DEFAULT_FILL: u64 = 12_000;

/// The warm-up of the retention phases: the load's connections, the allocator's arenas and the
/// first growth of the store's tables, paid once whatever the number of tasks.
const RETAIN_WARM: u64 = 1_000;

/// RSS per kept task at the default retention: a fresh process, [`RETAIN_WARM`] requests, then
/// the rest of [`DEFAULT_FILL`]; the growth over the rest divided by the growth of the tasks
/// `ListTasks` counts (9,000: 1,000 to the 10,000 our server keeps), as the retained phase
/// measures it. Also the figure from start (the warm-up's fixed costs divided by the kept tasks
/// too), which a small store pays in full.
fn phase_retain_default(
    config: &Config,
    target: &Target,
    command: &[String],
    results: &mut Results,
) -> Result<(), String> {
    let server = spawn(config, target, command, "retain-default", &[], &[], &[])?;
    let start = procfs::rss_bytes(server.pid)?;
    let steady = retained(config, &server, RETAIN_WARM, DEFAULT_FILL - RETAIN_WARM)?;
    let end = procfs::rss_bytes(server.pid)?;
    let kept = list_total(config, &server).unwrap_or(DEFAULT_FILL);
    let from_start = (end as f64 - start as f64) / kept.max(1) as f64;
    eprintln!("   from start: {from_start:.0} B per kept task ({kept} tasks)");
    results.per_task_default = Some(steady);
    results.per_task_default_start = Some(from_start);
    Ok(())
}

/// `warm` requests, then RSS and `ListTasks`' count; `n` more, then both again: the RSS growth
/// per task kept (per request when none is), and the tasks kept.
fn retained(config: &Config, server: &Server, warm: u64, n: u64) -> Result<(f64, u64), String> {
    let count = |requests: u64| -> Result<(), String> {
        let out = load(
            config,
            server,
            "count",
            &s(&["--concurrency", "16", "--requests", &requests.to_string()]),
        )?;
        match out["errors"].as_u64().unwrap_or(0) {
            0 => Ok(()),
            e => Err(format!("{e} errors: {}", out["last_error"])),
        }
    };
    if warm > 0 {
        count(warm)?;
    }
    settle();
    let (rss0, total0) = (procfs::rss_bytes(server.pid)?, list_total(config, server));
    count(n)?;
    settle();
    let (rss1, total1) = (procfs::rss_bytes(server.pid)?, list_total(config, server));
    let kept = match (total0, total1) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => n,
    };
    let growth = rss1 as f64 - rss0 as f64;
    let per = growth / if kept == 0 { n } else { kept } as f64;
    eprintln!(
        "   {n} requests: RSS {:.2} -> {:.2} MiB, {kept} tasks kept, {per:.0} B per {}",
        rss0 as f64 / MIB,
        rss1 as f64 / MIB,
        if kept == 0 { "request" } else { "task" }
    );
    Ok((per, kept))
}

fn phase_stream(
    config: &Config,
    target: &Target,
    command: &[String],
    results: &mut Results,
) -> Result<(), String> {
    let server = spawn(config, target, command, "stream", &[], &[], &[])?;
    let events = config.stream_events.to_string();
    load(
        config,
        &server,
        "stream",
        &s(&["--events", &events, "--repeat", "1"]),
    )?;
    let database = target.kind == Kind::Postgres;
    let before = procfs::cpu_time(server.pid, config.clock_ticks)?;
    let db_before = database.then(|| postgres_cpu(config));
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
    let after = procfs::cpu_time(server.pid, config.clock_ticks)?;
    let db_after = database.then(|| postgres_cpu(config));
    // The load fails a stream that lost (or added) an event; this holds it to that.
    if out["lossless"] != Value::Bool(true) {
        return Err(format!("the stream was not lossless: {out}"));
    }
    let rate = out["events_per_s"].as_f64().unwrap_or(0.0);
    let median = out["median_s"].as_f64().unwrap_or(0.0);
    let n = usize::try_from(out["events"].as_u64().unwrap_or(0)).unwrap_or(0);
    eprintln!(
        "   stream of {n} events, all arrived: {:.3} ms, {rate:.0} events/s (median of {}; \
         {:.3} to {:.3} ms)",
        median * 1e3,
        out["streams"],
        out["min_s"].as_f64().unwrap_or(0.0) * 1e3,
        out["max_s"].as_f64().unwrap_or(0.0) * 1e3
    );
    let all = (n * usize::try_from(out["streams"].as_u64().unwrap_or(1)).unwrap_or(1)).max(1);
    let cpu = (after - before).as_secs_f64() * 1e6 / all as f64;
    let db = db_before
        .zip(db_after)
        .map(|(b, a)| (a - b) * 1e6 / all as f64);
    eprintln!(
        "   CPU per event: server {cpu:.2} µs{}",
        db.map_or_else(String::new, |d| format!(", postgres {d:.2} µs"))
    );
    results.events_per_s = Some((rate, n));
    results.stream_s = Some(median);
    results.stream_cpu_us = Some(cpu);
    results.stream_db_cpu_us = db;
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
    let server = spawn(config, target, command, "subscribers", &extra, &prefix, &[])?;
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
    let fresh = AllocStats::fetch(stats)?;
    count(&server, DEFAULT_FILL)?;
    let before = AllocStats::fetch(stats)?;
    let kept = list_total(config, &server).unwrap_or(default_max_tasks);
    let live_per_task_default =
        (before.live_bytes() - fresh.live_bytes()) as f64 / kept.max(1) as f64;
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
         SendMessage with the store full; {live_per_task:.0} B held per kept task ({n} tasks), \
         {live_per_task_default:.0} B at the default retention ({kept} tasks)"
    );
    results.allocs = Some(Allocs {
        live_per_task_default,
        per_request,
        bytes_per_request,
        live_per_task,
    });
    Ok(())
}

/// True when `valgrind` and `callgrind_control` are on `PATH`.
fn valgrind_installed() -> bool {
    which("valgrind").is_some() && which("callgrind_control").is_some()
}

/// Requests with instrumentation off before the measured ones: for our server the store's
/// default retention and then some, so that every measured request evicts a task ("with the
/// store full"); for the floors a warm-up.
fn callgrind_fill(kind: Kind) -> u64 {
    if kind == Kind::Ours { 10_500 } else { 400 }
}

/// Instructions per `SendMessage`: the server under `valgrind --tool=callgrind
/// --instr-atstart=no` with one runtime worker (`TOKIO_WORKER_THREADS=1`), filled or warmed
/// up with instrumentation off ([`callgrind_fill`]), then `callgrind_control -i on`,
/// `--callgrind` requests at concurrency 4, `-i off`, a dump, and the dump's total `Ir`
/// (every thread's) divided by the requests.
fn phase_callgrind(
    config: &Config,
    target: &Target,
    command: &[String],
    results: &mut Results,
) -> Result<(), String> {
    let Some(n) = config.callgrind else {
        return Ok(());
    };
    let dir = config.out_dir.join("callgrind");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let out_file = dir.join(format!("callgrind.out.{}", target.name));
    // The dump is `<out file>.1`; the out file itself is written at exit.
    let dump = dir.join(format!("callgrind.out.{}.1", target.name));
    for stale in [&out_file, &dump] {
        let _ = std::fs::remove_file(stale);
    }
    let prefix = vec![
        "valgrind".to_owned(),
        "--tool=callgrind".to_owned(),
        "--instr-atstart=no".to_owned(),
        format!("--callgrind-out-file={}", out_file.display()),
    ];
    let env = [("TOKIO_WORKER_THREADS", "1")];
    let server = spawn(config, target, command, "callgrind", &[], &prefix, &env)?;
    let count = |requests: u64, concurrency: &str| -> Result<(), String> {
        let out = load(
            config,
            &server,
            "count",
            &s(&[
                "--concurrency",
                concurrency,
                "--requests",
                &requests.to_string(),
            ]),
        )?;
        match out["errors"].as_u64().unwrap_or(0) {
            0 => Ok(()),
            e => Err(format!("{e} errors: {}", out["last_error"])),
        }
    };
    count(callgrind_fill(target.kind), "16")?;
    let kept = list_total(config, &server);
    callgrind_control(&["-z"], server.pid)?;
    callgrind_control(&["-i", "on"], server.pid)?;
    count(n, "4")?;
    callgrind_control(&["-i", "off"], server.pid)?;
    callgrind_control(&["-d"], server.pid)?;
    let total = wait_for_dump(&dump)?;
    drop(server);
    let per = total as f64 / n.max(1) as f64;
    eprintln!(
        "   callgrind: {total} instructions over {n} SendMessage at c=4 (1 worker{}): {per:.0} \
         per request; {}",
        kept.map_or_else(String::new, |k| format!(", {k} tasks kept")),
        dump.display()
    );
    results.instructions = Some(per);
    Ok(())
}

/// `callgrind_control ARGS PID`; it exits 0 even when it found no such process, so its output
/// must say `OK`.
fn callgrind_control(args: &[&str], pid: u32) -> Result<(), String> {
    let output = Command::new("callgrind_control")
        .args(args)
        .arg(pid.to_string())
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run callgrind_control: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if output.status.success() && stdout.contains("OK") {
        Ok(())
    } else {
        Err(format!(
            "callgrind_control {} {pid}: {} {}",
            args.join(" "),
            stdout.trim(),
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}

/// The total `Ir` of a callgrind dump, once the file has its `totals:` (or `summary:`) line.
fn wait_for_dump(dump: &Path) -> Result<u64, String> {
    let started = std::time::Instant::now();
    loop {
        if let Some(total) = std::fs::read_to_string(dump)
            .ok()
            .and_then(|text| callgrind_total(&text))
        {
            return Ok(total);
        }
        if started.elapsed() > Duration::from_secs(60) {
            return Err(format!("{}: no totals after 60 s", dump.display()));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The first event's count on the `totals:` line of a callgrind output file (the `summary:`
/// line when there is none): with the default event set, `Ir`.
fn callgrind_total(text: &str) -> Option<u64> {
    let line = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
    };
    line("totals:").or_else(|| line("summary:"))
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
    /// The phase that measures it: a server that does not run it reads `unavailable`.
    phase: &'static str,
    /// What a server that did not run the phase reads ("n/a" unless said).
    unavailable: Option<String>,
    /// The server of the floor column, the reference of the row's ratios: `floor-json` (the
    /// JSON floor), or `floor-grpc` for the gRPC rows.
    floor: &'static str,
}

impl Row {
    fn new(metric: impl Into<String>, phase: &'static str, value: Pick) -> Self {
        Self {
            metric: metric.into(),
            value,
            format: |v| format!("{v:.0}"),
            goal: None,
            absolute: false,
            phase,
            unavailable: None,
            floor: "floor-json",
        }
    }

    fn format(mut self, format: fn(f64) -> String) -> Self {
        self.format = format;
        self
    }

    fn goal(mut self, goal: Option<(&'static str, Goal)>) -> Self {
        self.goal = goal;
        self
    }

    fn absolute(mut self) -> Self {
        self.absolute = true;
        self
    }
}

#[derive(Clone, Copy)]
enum Goal {
    RatioAtMost(f64),
    RatioAtLeast(f64),
    AtMost(f64),
}

/// The binding of a row of `SendMessage` rates.
#[derive(Clone, Copy)]
enum Rates {
    JsonRpc,
    Rest,
    Grpc,
}

impl Rates {
    fn of(self, r: &Results) -> &[Rate] {
        match self {
            Self::JsonRpc => &r.rates,
            Self::Rest => &r.rest_rates,
            Self::Grpc => &r.grpc_rates,
        }
    }

    fn phase(self) -> &'static str {
        match self {
            Self::JsonRpc => "rates",
            Self::Rest => "rest",
            Self::Grpc => "grpc",
        }
    }

    /// How the metric names the binding.
    fn over(self) -> &'static str {
        match self {
            Self::JsonRpc => "",
            Self::Rest => " over HTTP+JSON",
            Self::Grpc => " over gRPC (floor: gRPC floor)",
        }
    }
}

fn rate_row(c: usize, binding: Rates, metric: &str, pick: fn(&Rate) -> f64) -> Row {
    let value: Pick =
        Box::new(move |r: &Results| binding.of(r).iter().find(|x| x.concurrency == c).map(pick));
    let mut row = Row::new(
        format!("{metric}{}, c={c}", binding.over()),
        binding.phase(),
        value,
    );
    if matches!(binding, Rates::Grpc) {
        row.floor = "floor-grpc";
    }
    row
}

/// The request-rate rows of one binding: req/s (goal at c=64), and for the JSON-RPC binding
/// the latency percentiles, then server CPU per request (goal at every concurrency).
fn rate_rows(rows: &mut Vec<Row>, binding: Rates, concurrency: &[usize]) {
    for &c in concurrency {
        let goal = (c == 64).then_some(("≥ 0.70x floor", Goal::RatioAtLeast(0.70)));
        rows.push(rate_row(c, binding, "SendMessage req/s", |r| r.rps).goal(goal));
    }
    if matches!(binding, Rates::JsonRpc) {
        for &c in concurrency {
            rows.push(rate_row(c, binding, "p50 latency µs", |r| r.p50_us));
        }
        for &c in concurrency {
            rows.push(rate_row(c, binding, "p99 latency µs", |r| r.p99_us));
        }
    }
    for &c in concurrency {
        let goal = Some(("≤ 1.5x floor", Goal::RatioAtMost(1.5)));
        let cpu = rate_row(c, binding, "server CPU µs per SendMessage", |r| r.cpu_us);
        rows.push(cpu.format(|v| format!("{v:.1}")).goal(goal));
    }
}

fn rows(config: &Config) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    rate_rows(&mut rows, Rates::JsonRpc, &config.concurrency);
    rate_rows(&mut rows, Rates::Rest, &BINDING_CONCURRENCY);
    rate_rows(&mut rows, Rates::Grpc, &BINDING_CONCURRENCY);
    let mut instructions = Row::new(
        "instructions per SendMessage (callgrind, 1 worker, store full)",
        "callgrind",
        Box::new(|r| r.instructions),
    )
    .goal(Some(("≤ 1.15x floor", Goal::RatioAtMost(1.15))));
    instructions.unavailable = match config.callgrind {
        None => Some("not run (`--callgrind none`)".into()),
        Some(_) if !valgrind_installed() => Some("n/a (valgrind not installed)".into()),
        Some(_) => None,
    };
    rows.push(instructions);
    let events = config.stream_events + 3;
    rows.push(
        Row::new(
            format!(
                "SSE: 1 SendStreamingMessage of {} chunks ({events} events, every one \
                 arrived), median time ms",
                config.stream_events
            ),
            "stream",
            Box::new(|r| r.stream_s.map(|t| t * 1e3)),
        )
        .format(|v| format!("{v:.3}"))
        .goal(Some(("≤ 1.2x floor, lossless", Goal::RatioAtMost(1.2)))),
    );
    rows.push(Row::new(
        format!("SSE: the same stream, events/s ({events} events / median time)"),
        "stream",
        Box::new(|r| r.events_per_s.map(|e| e.0)),
    ));
    rows.push(
        Row::new(
            "idle RSS, MiB",
            "rates",
            Box::new(|r| r.idle_rss.map(|b| b as f64 / MIB)),
        )
        .format(|v| format!("{v:.2}"))
        .goal(Some(("≤ 8 MiB", Goal::AtMost(8.0)))),
    );
    let kept_goal = Some(("≤ 1024 B", Goal::AtMost(1024.0)));
    rows.push(
        Row::new(
            format!(
                "RSS per retained completed task, bytes ({} requests, retention raised)",
                config.retain_requests
            ),
            "retain",
            Box::new(|r| r.per_task.map(|p| p.0)),
        )
        .goal(kept_goal)
        .absolute(),
    );
    rows.push(
        Row::new(
            format!(
                "RSS per kept task at the default retention, bytes ({RETAIN_WARM} requests of \
                 warm-up, then {} more; growth / growth of the tasks ListTasks counts)",
                DEFAULT_FILL - RETAIN_WARM
            ),
            "retain-default",
            Box::new(|r| r.per_task_default.map(|p| p.0)),
        )
        .goal(kept_goal)
        .absolute(),
    );
    rows.push(
        Row::new(
            format!(
                "the same from start, bytes ({DEFAULT_FILL} requests' growth / the tasks kept \
                 at the end: the warm-up's fixed costs included)"
            ),
            "retain-default",
            Box::new(|r| r.per_task_default_start),
        )
        .absolute(),
    );
    rows.push(
        Row::new(
            format!(
                "RSS per idle SSE subscriber, KiB ({} subscribers)",
                config.subscribers
            ),
            "subscribers",
            Box::new(|r| r.per_subscriber.map(|p| p.0 / 1024.0)),
        )
        .format(|v| format!("{v:.2}"))
        .goal(Some(("≤ 16 KiB", Goal::AtMost(16.0)))),
    );
    rows.push(
        Row::new(
            "allocations per SendMessage, store full (counting allocator)",
            "allocs",
            Box::new(|r| r.allocs.map(|a| a.per_request)),
        )
        .format(|v| format!("{v:.1}"))
        .absolute(),
    );
    rows.push(
        Row::new(
            "allocated bytes per SendMessage, store full (counting allocator)",
            "allocs",
            Box::new(|r| r.allocs.map(|a| a.bytes_per_request)),
        )
        .absolute(),
    );
    rows.push(
        Row::new(
            format!(
                "allocator bytes held per kept task ({} tasks)",
                config.retain_requests
            ),
            "allocs",
            Box::new(|r| r.allocs.map(|a| a.live_per_task)),
        )
        .goal(kept_goal)
        .absolute(),
    );
    rows.push(
        Row::new(
            format!(
                "allocator bytes held per kept task at the default retention ({DEFAULT_FILL} \
                 requests from start)"
            ),
            "allocs",
            Box::new(|r| r.allocs.map(|a| a.live_per_task_default)),
        )
        .goal(kept_goal)
        .absolute(),
    );
    rows
}

fn report(config: &Config, machine: &str, profile: &str, results: &[(&str, Results)]) -> String {
    let rows = rows(config);
    let get = |name: &str| results.iter().find(|(n, _)| *n == name).map(|(_, r)| r);
    let ours = get("a2a-rs");
    // The JSON floor is the floor column, the gRPC floor that of the gRPC rows; the raw floor
    // is a column of its own. The stores have a table of their own (`store_report`).
    let others: Vec<(&str, &Results)> = results
        .iter()
        .filter(|(n, _)| {
            !matches!(
                *n,
                "floor-json" | "a2a-rs" | "floor-grpc" | "sqlite" | "postgres"
            )
        })
        .map(|(n, r)| (*n, r))
        .collect();
    let mut out = String::new();
    let label = |n: &str| label(n).to_owned();
    out.push_str(&format!(
        "Machine: {machine}; shared and noisy (compare rows of one run, not runs). \
         Load: a2a-bench-load ({} thread), HTTP/1.1 keep-alive, one connection per worker \
         (gRPC: one tonic channel per worker), {} s per run after {} s of warm-up, on \
         127.0.0.1. Binaries: {profile}. The floor column is the reference of each row: the \
         JSON floor (a raw hyper + serde_json server that parses each request into a Value and \
         builds its answer with fresh ids; its stream serializes each event and sends it \
         through a bounded channel), the gRPC floor for the gRPC rows; every ratio and goal is \
         to it. The raw floor (pre-built bytes) is a column of its own, its ratio to the same \
         reference.\n\n",
        config.threads, config.duration, config.warmup
    ));
    out.push_str("| metric | floor (JSON; gRPC) | a2a-rs | a2a-rs / floor | goal | met |");
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
            Some(Results {
                missing: Some(why), ..
            }) => missing_cell(why).to_owned(),
            Some(r) if !r.ran.contains(&row.phase) => {
                row.unavailable.clone().unwrap_or_else(|| "n/a".into())
            }
            Some(r) => (row.value)(r).map_or_else(|| "failed".into(), row.format),
        }
    };
    let ratio = |r: Option<&Results>, row: &Row| -> Option<f64> {
        if row.absolute {
            return None;
        }
        let v = (row.value)(r?)?;
        let f = (row.value)(get(row.floor)?)?;
        (f != 0.0).then(|| v / f)
    };
    for row in &rows {
        let floor = get(row.floor);
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
    for (name, r) in results
        .iter()
        .filter(|(n, _)| !matches!(*n, "sqlite" | "postgres"))
    {
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

/// How the tables name a server.
fn label(server: &str) -> &str {
    match server {
        "python" => "Python SDK",
        "js" => "JS SDK",
        "floor" => "raw floor",
        "a2a-cli" => "a2a (CLI)",
        "per-core" => "a2a-rs per-core",
        "sqlite" => "SQLite",
        "postgres" => "PostgreSQL",
        other => other,
    }
}

/// What the cells of a server that did not run say: the head of the reason, before its
/// parenthesis (`not installed`, `not built`, `not available: <what the database said>`); the
/// whole reason is in the notes.
fn missing_cell(why: &str) -> &str {
    why.split_once(" (").map_or(why, |(head, _)| head)
}

/// A ratio as the tables print it.
fn fmt_ratio(ratio: Option<f64>) -> String {
    ratio.map_or_else(String::new, |r| match r {
        r if r < 0.1 => format!("{r:.3}x"),
        r if r >= 100.0 => format!("{r:.0}x"),
        r => format!("{r:.2}x"),
    })
}

/// A row of the store table.
struct StoreRow {
    metric: String,
    /// The phase that measures it.
    phase: &'static str,
    /// The figure, given the server's results and whether its database is a process of its own
    /// (PostgreSQL), whose CPU the figure may add.
    value: Pick,
    format: fn(f64) -> String,
    /// The database's own CPU: no figure for a store in the server process (the cell says
    /// where it went), no ratio.
    database_only: bool,
}

/// The store table: a2a-rs on its in-memory store beside the same server on SQLite and on
/// PostgreSQL, each figure with its ratio to a2a-rs. `None` when neither store was selected.
fn store_report(config: &Config, results: &[(&str, Results)]) -> Option<String> {
    store_table(&config.concurrency, config.stream_events, results)
}

/// [`store_report`] for these concurrencies and stream length.
fn store_table(
    concurrency: &[usize],
    stream_events: usize,
    results: &[(&str, Results)],
) -> Option<String> {
    let get = |name: &str| results.iter().find(|(n, _)| *n == name).map(|(_, r)| r);
    let stores: Vec<(&str, &Results)> = ["sqlite", "postgres"]
        .into_iter()
        .filter_map(|n| get(n).map(|r| (n, r)))
        .collect();
    if stores.is_empty() {
        return None;
    }
    let ours = get("a2a-rs");
    let rate = |c: usize, pick: fn(&Rate) -> Option<f64>| -> Pick {
        Box::new(move |r: &Results| r.rates.iter().find(|x| x.concurrency == c).and_then(pick))
    };
    let mut rows: Vec<StoreRow> = Vec::new();
    let mut push = |metric: String,
                    phase: &'static str,
                    value: Pick,
                    format: fn(f64) -> String,
                    database_only: bool| {
        rows.push(StoreRow {
            metric,
            phase,
            value,
            format,
            database_only,
        });
    };
    let whole = |v: f64| format!("{v:.0}");
    let tenth = |v: f64| format!("{v:.1}");
    for &c in concurrency {
        push(
            format!("SendMessage req/s, c={c}"),
            "rates",
            rate(c, |r| Some(r.rps)),
            whole,
            false,
        );
    }
    for &c in concurrency {
        push(
            format!("p50 latency µs, c={c}"),
            "rates",
            rate(c, |r| Some(r.p50_us)),
            whole,
            false,
        );
    }
    for &c in concurrency {
        push(
            format!("p99 latency µs, c={c}"),
            "rates",
            rate(c, |r| Some(r.p99_us)),
            whole,
            false,
        );
    }
    for &c in concurrency {
        push(
            format!("server CPU µs per SendMessage, c={c}"),
            "rates",
            rate(c, |r| Some(r.cpu_us)),
            tenth,
            false,
        );
    }
    for &c in concurrency {
        push(
            format!("database CPU µs per SendMessage (every `postgres` process), c={c}"),
            "rates",
            rate(c, |r| r.db_cpu_us),
            tenth,
            true,
        );
    }
    for &c in concurrency {
        push(
            format!("server + database CPU µs per SendMessage, c={c}"),
            "rates",
            rate(c, |r| Some(r.cpu_us + r.db_cpu_us.unwrap_or(0.0))),
            tenth,
            false,
        );
    }
    let events = stream_events + 3;
    push(
        format!("SSE: 1 SendStreamingMessage of {stream_events} chunks, median time ms"),
        "stream",
        Box::new(|r| r.stream_s.map(|t| t * 1e3)),
        |v| format!("{v:.3}"),
        false,
    );
    push(
        format!("SSE: the same stream, events/s ({events} events / median time)"),
        "stream",
        Box::new(|r| r.events_per_s.map(|e| e.0)),
        whole,
        false,
    );
    push(
        "SSE: server CPU µs per event (every measured stream)".into(),
        "stream",
        Box::new(|r| r.stream_cpu_us),
        |v| format!("{v:.2}"),
        false,
    );
    push(
        "SSE: database CPU µs per event (every `postgres` process)".into(),
        "stream",
        Box::new(|r| r.stream_db_cpu_us),
        |v| format!("{v:.2}"),
        true,
    );
    push(
        "SSE: server + database CPU µs per event".into(),
        "stream",
        Box::new(|r| {
            r.stream_cpu_us
                .map(|c| c + r.stream_db_cpu_us.unwrap_or(0.0))
        }),
        |v| format!("{v:.2}"),
        false,
    );
    let cell = |name: &str, r: Option<&Results>, row: &StoreRow| -> String {
        match r {
            None => "not run".into(),
            Some(Results {
                missing: Some(why), ..
            }) => missing_cell(why).to_owned(),
            Some(_) if row.database_only && name == "a2a-rs" => "none (memory)".into(),
            Some(_) if row.database_only && name == "sqlite" => "in the server".into(),
            Some(r) if !r.ran.contains(&row.phase) => "n/a".into(),
            Some(r) => (row.value)(r).map_or_else(|| "failed".into(), row.format),
        }
    };
    let mut out = String::from(
        "Stores (the bench server with `--store`, one replica, a fresh SQLite file or PostgreSQL \
         schema per phase; every ratio is to a2a-rs, the same server on its in-memory store; \
         database CPU is the growth of utime + stime of every process named `postgres` on the \
         machine, SQLite's is in the server's):\n\n| metric | a2a-rs (memory) |",
    );
    for (name, _) in &stores {
        out.push_str(&format!(" {} | / a2a-rs |", label(name)));
    }
    out.push_str("\n|---|---:|");
    for _ in &stores {
        out.push_str("---:|---:|");
    }
    out.push('\n');
    for row in &rows {
        out.push_str(&format!(
            "| {} | {} |",
            row.metric,
            cell("a2a-rs", ours, row)
        ));
        for (name, r) in &stores {
            let ratio = if row.database_only || r.missing.is_some() || !r.ran.contains(&row.phase) {
                None
            } else {
                ours.filter(|o| o.ran.contains(&row.phase))
                    .and_then(|o| (row.value)(o))
                    .zip((row.value)(r))
                    .and_then(|(base, v)| (base != 0.0).then(|| v / base))
            };
            out.push_str(&format!(
                " {} | {} |",
                cell(name, Some(r), row),
                fmt_ratio(ratio)
            ));
        }
        out.push('\n');
    }
    let notes: Vec<String> = stores
        .iter()
        .flat_map(|(name, r)| {
            r.missing
                .iter()
                .chain(&r.errors)
                .map(move |e| format!("- {}: {e}", label(name)))
        })
        .collect();
    if !notes.is_empty() {
        out.push_str("\nNotes:\n");
        out.push_str(&notes.join("\n"));
        out.push('\n');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_takes_the_servers_and_names_them_on_an_unknown_one() {
        assert_eq!(
            parse_only("floor-json, a2a-rs,a2a-cli,sqlite,postgres,").unwrap(),
            ["floor-json", "a2a-rs", "a2a-cli", "sqlite", "postgres"]
        );
        assert_eq!(
            parse_only("a2a-rs,mysql,a2a").unwrap_err(),
            "`--only a2a-rs,mysql,a2a`: no server named `mysql`, `a2a`; the servers are floor, \
             floor-json, floor-grpc, a2a-rs, per-core, a2a-cli, sqlite, postgres, python, js"
        );
        assert_eq!(
            parse_only(",").unwrap_err(),
            "`--only ,`: names no server; the servers are floor, floor-json, floor-grpc, \
             a2a-rs, per-core, a2a-cli, sqlite, postgres, python, js"
        );
    }

    #[test]
    fn the_cells_of_a_server_that_did_not_run_say_why_briefly() {
        assert_eq!(
            missing_cell("not installed (no `node` on PATH)"),
            "not installed"
        );
        assert_eq!(
            missing_cell(
                "not available: error communicating with database: Connection refused \
                 (os error 111) (PostgreSQL at postgres://postgres@127.0.0.1:5432/test)"
            ),
            "not available: error communicating with database: Connection refused"
        );
        assert_eq!(
            missing_cell("not available: timed out"),
            "not available: timed out"
        );
    }

    fn measured(rps: f64, cpu_us: f64, db_cpu_us: Option<f64>, stream: bool) -> Results {
        let mut ran = vec!["rates"];
        if stream {
            ran.push("stream");
        }
        Results {
            idle_rss: Some(4 << 20),
            rates: vec![Rate {
                concurrency: 16,
                rps,
                p50_us: 100.0,
                p99_us: 400.0,
                cpu_us,
                db_cpu_us,
                errors: 0,
            }],
            ran,
            events_per_s: stream.then_some((100_300.0, 1003)),
            stream_s: stream.then_some(0.01),
            stream_cpu_us: stream.then_some(2.0),
            stream_db_cpu_us: db_cpu_us.filter(|_| stream).map(|_| 3.0),
            ..Results::default()
        }
    }

    #[test]
    fn the_store_table_reads_not_available_for_an_unreachable_database() {
        let why = "not available: error communicating with database: Connection refused (os \
                   error 111) (PostgreSQL at postgres://postgres@127.0.0.1:5432/test)";
        let results = vec![
            ("a2a-rs", measured(20_000.0, 50.0, None, true)),
            ("sqlite", measured(5_000.0, 150.0, None, true)),
            ("postgres", Results::missing(why)),
        ];
        let table = store_table(&[16], 1000, &results).unwrap();
        let na = "not available: error communicating with database: Connection refused";
        let lines: Vec<&str> = table.lines().skip(2).collect();
        pretty_assertions::assert_eq!(
            lines,
            [
                "| metric | a2a-rs (memory) | SQLite | / a2a-rs | PostgreSQL | / a2a-rs |",
                "|---|---:|---:|---:|---:|---:|",
                &format!("| SendMessage req/s, c=16 | 20000 | 5000 | 0.25x | {na} |  |"),
                &format!("| p50 latency µs, c=16 | 100 | 100 | 1.00x | {na} |  |"),
                &format!("| p99 latency µs, c=16 | 400 | 400 | 1.00x | {na} |  |"),
                &format!(
                    "| server CPU µs per SendMessage, c=16 | 50.0 | 150.0 | 3.00x | {na} |  |"
                ),
                &format!(
                    "| database CPU µs per SendMessage (every `postgres` process), c=16 | \
                     none (memory) | in the server |  | {na} |  |"
                ),
                &format!(
                    "| server + database CPU µs per SendMessage, c=16 | 50.0 | 150.0 | 3.00x | \
                     {na} |  |"
                ),
                &format!(
                    "| SSE: 1 SendStreamingMessage of 1000 chunks, median time ms | 10.000 | \
                     10.000 | 1.00x | {na} |  |"
                ),
                &format!(
                    "| SSE: the same stream, events/s (1003 events / median time) | 100300 | \
                     100300 | 1.00x | {na} |  |"
                ),
                &format!(
                    "| SSE: server CPU µs per event (every measured stream) | 2.00 | 2.00 | \
                     1.00x | {na} |  |"
                ),
                &format!(
                    "| SSE: database CPU µs per event (every `postgres` process) | none (memory) \
                     | in the server |  | {na} |  |"
                ),
                &format!(
                    "| SSE: server + database CPU µs per event | 2.00 | 2.00 | 1.00x | {na} |  |"
                ),
                "",
                "Notes:",
                &format!("- PostgreSQL: {why}"),
            ]
        );
    }

    #[test]
    fn the_store_table_adds_the_database_cpu_to_the_server_s() {
        let results = vec![
            ("a2a-rs", measured(20_000.0, 50.0, None, false)),
            ("postgres", measured(2_000.0, 100.0, Some(300.0), false)),
        ];
        let table = store_table(&[16], 10, &results).unwrap();
        assert!(
            table.contains(
                "| database CPU µs per SendMessage (every `postgres` process), c=16 | \
                 none (memory) | 300.0 |  |\n"
            ),
            "{table}"
        );
        assert!(
            table.contains(
                "| server + database CPU µs per SendMessage, c=16 | 50.0 | 400.0 | 8.00x |\n"
            ),
            "{table}"
        );
        // The stream did not run on either: n/a, no ratio.
        assert!(
            table.contains(
                "| SSE: server CPU µs per event (every measured stream) | n/a | n/a |  |\n"
            ),
            "{table}"
        );
        assert!(!table.contains("Notes:"), "{table}");
        // Without a store selected there is no table.
        assert!(store_table(&[16], 10, &results[..1]).is_none());
    }

    #[test]
    fn reads_the_total_of_a_callgrind_dump() {
        let dump = "version: 1\ncreator: callgrind-3.19.0\nevents: Ir\n\nfn=(1) main\n3 10\n\
                    summary: 295944\n\n\ntotals: 29594419\n";
        assert_eq!(callgrind_total(dump), Some(29_594_419));
        assert_eq!(callgrind_total("events: Ir\nsummary: 42\n"), Some(42));
        assert_eq!(callgrind_total("events: Ir\n"), None);
    }

    #[test]
    fn names_the_release_profile() {
        let dir = std::env::temp_dir().join(format!("a2a-bench-profile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("Cargo.toml"),
            "[workspace]\n[profile.dev]\ndebug = 0\n",
        )
        .unwrap();
        assert!(release_profile(&dir).contains("cargo's defaults"));
        std::fs::write(
            dir.join("Cargo.toml"),
            "[profile.release]\nlto = \"fat\" # the issue's figure\ncodegen-units = 1\n\n\
             [profile.release.package.a2a-types]\nopt-level = 2\n[profile.bench]\ndebug = 1\n",
        )
        .unwrap();
        let profile = release_profile(&dir);
        assert!(
            profile.contains(
                "[profile.release]: lto = \"fat\", codegen-units = 1, \
                 [package.a2a-types] opt-level = 2"
            ),
            "{profile}"
        );
        assert!(!profile.contains("debug"), "{profile}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
