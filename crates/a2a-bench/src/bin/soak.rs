//! The driver of `cargo xtask soak`: a release `a2a-bench-server --soak true` under the mixed
//! hostile load of `a2a-bench-load soak` (`a2a_bench::soak`), in two rounds, with the server's
//! RSS, open descriptors and CPU read from `/proc` at the start, every few seconds during the
//! load, and after each round once the load stopped and a settle time passed; then a verdict
//! against the budgets below.
//!
//! ```text
//! a2a-bench-soak [--secs 60] [--settle 8] [--out DIR] [--store-cuts true]
//! ```
//!
//! `--store-cuts true` runs the server on PostgreSQL (`A2A_TEST_POSTGRES_URL`, default
//! `postgres://postgres@127.0.0.1:5432/test`, a schema of its own, dropped at the end) behind
//! the workspace's fault proxy, and cuts the database during each round: first for longer
//! than the server's outage tolerance, then briefly again and again (see [`cuts`]). The
//! verdict then adds the tasks: every task the probes were acknowledged is in the database
//! (none lost), and every task in it reaches a terminal state (none left unfinished); the
//! probes' outcomes are reported, their 503s counted apart, not judged.
//!
//! Two rounds of `--secs / 2` each: a server that leaks grows from one round's end to the next,
//! while a bounded one comes back to the same place. Writes the report to `DIR/soak.md`
//! (default `target/bench`) and the server's output to `DIR/logs/soak-server.log`. Exits 0
//! when every budget holds, 2 when one does not, 1 when the run itself failed.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use a2a_bench::process::{self, Server};
use a2a_bench::{procfs, soak};
use serde_json::Value;

/// After the load and the settle time, the server's descriptors may exceed those at the start
/// by this many (a listener's backlog, a log file, the runtime's own).
const FD_BUDGET: u64 = 4;
/// With `--store-cuts`, the descriptors the SQL store keeps open besides: its pool (16
/// connections), its LISTEN connection and a probe's.
const POOL_FDS: u64 = 18;
/// After the load and the settle time, the server's RSS may exceed that at the start by this
/// much: the store's bound (`preset::MAX_TOTAL_BYTES`, 32 MiB of accounted bytes: the ended
/// tasks it keeps) plus what the allocator keeps of the load's peak.
const RSS_BUDGET: u64 = 64 << 20;
/// The RSS after the second round may exceed that after the first by this much: a leak grows
/// with every round, a bounded server does not.
const ROUND_GROWTH_BUDGET: u64 = 16 << 20;
/// The server's CPU, in percent of one core, over the last seconds of the settle time: a
/// connection or timer left busy shows here.
const IDLE_CPU_BUDGET: f64 = 2.0;
/// The server's `MALLOC_MMAP_THRESHOLD_` (see `run`).
const MMAP_THRESHOLD: &str = "131072";
/// How often the server is sampled during the load.
const SAMPLE_EVERY: Duration = Duration::from_secs(5);
/// Over how much of the settle time the idle CPU is measured (its end).
const IDLE_WINDOW: Duration = Duration::from_secs(3);

const MIB: f64 = 1024.0 * 1024.0;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    a2a_bench::exit_code("a2a-bench-soak", run(&args))
}

/// One reading of the server.
#[derive(Clone, Copy)]
struct Sample {
    at: Instant,
    rss: u64,
    fds: u64,
    cpu: Duration,
}

struct Soak {
    server: Server,
    load: PathBuf,
    ticks: u64,
    started: Instant,
    report: String,
    /// With `--store-cuts`: the database behind its fault proxy.
    cuts: Option<cuts::Cuts>,
}

impl Soak {
    fn sample(&self) -> Result<Sample, String> {
        Ok(Sample {
            at: Instant::now(),
            rss: procfs::rss_bytes(self.server.pid)?,
            fds: procfs::open_fds(self.server.pid)?,
            cpu: procfs::cpu_time(self.server.pid, self.ticks)?,
        })
    }

    /// Prints and keeps one line of the report.
    fn line(&mut self, line: &str) {
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{line}");
        let _ = stdout.flush();
        self.report.push_str(line);
        self.report.push('\n');
    }

    /// A row of the samples table: CPU as the share of one core since `before`.
    fn row(&mut self, what: &str, now: Sample, before: Sample) {
        let wall = now.at.duration_since(before.at).as_secs_f64().max(1e-3);
        let cpu = (now.cpu.saturating_sub(before.cpu)).as_secs_f64() / wall * 100.0;
        let t = now.at.duration_since(self.started).as_secs_f64();
        self.line(&format!(
            "| {what} | {t:.0} s | {:.1} | {} | {cpu:.0} % |",
            now.rss as f64 / MIB,
            now.fds
        ));
    }

    /// One round of load: the samples during it, then the load's outcomes.
    fn round(&mut self, n: usize, secs: f64, settle: Duration) -> Result<(Sample, Value), String> {
        let store_cuts = self.cuts.is_some().to_string();
        if let Some(cuts) = &mut self.cuts {
            cuts.begin_round();
        }
        let mut child = Command::new(&self.load)
            .args(["soak", "--addr", &self.server.addr.to_string()])
            .args(["--secs", &secs.to_string(), "--threads", "1"])
            .args(["--store-cuts", &store_cuts])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", self.load.display()))?;
        let mut last = self.sample()?;
        let status = loop {
            let deadline = Instant::now() + SAMPLE_EVERY;
            let exited = loop {
                if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
                    break Some(status);
                }
                if Instant::now() >= deadline {
                    break None;
                }
                std::thread::sleep(Duration::from_millis(100));
            };
            if let Some(status) = exited {
                break status;
            }
            let now = self.sample()?;
            self.row(&format!("round {n}, load"), now, last);
            last = now;
        };
        if let Some(cuts) = &mut self.cuts {
            let done = cuts.end_round()?;
            self.line(&format!("round {n}: {done}"));
        }
        let mut stdout = String::new();
        if let Some(mut out) = child.stdout.take() {
            use std::io::Read as _;
            out.read_to_string(&mut stdout).map_err(|e| e.to_string())?;
        }
        if !status.success() {
            return Err(format!("a2a-bench-load soak: {status}"));
        }
        let outcomes: Value = serde_json::from_str(stdout.lines().last().unwrap_or_default())
            .map_err(|e| format!("a2a-bench-load soak printed no result: {e}"))?;
        let now = self.sample()?;
        self.row(&format!("round {n}, load ended"), now, last);
        std::thread::sleep(settle.saturating_sub(IDLE_WINDOW));
        let before_idle = self.sample()?;
        std::thread::sleep(IDLE_WINDOW);
        let settled = self.sample()?;
        self.row(&format!("round {n}, settled"), settled, before_idle);
        Ok((settled, outcomes))
    }
}

fn run(args: &[String]) -> Result<bool, String> {
    let flags = a2a_bench::parse_flags(args)?;
    let secs: f64 = a2a_bench::flag(&flags, "secs", 60.0)?;
    let settle = Duration::from_secs_f64(a2a_bench::flag(&flags, "settle", 8.0)?);
    if settle < IDLE_WINDOW {
        return Err(format!("--settle must be at least {IDLE_WINDOW:?}"));
    }
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let bin_dir = exe.parent().ok_or("no executable directory")?.to_path_buf();
    let default_out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/bench");
    let out: PathBuf = a2a_bench::flag(&flags, "out", default_out)?;
    std::fs::create_dir_all(out.join("logs")).map_err(|e| format!("{}: {e}", out.display()))?;

    let cuts = if a2a_bench::flag(&flags, "store-cuts", false)? {
        Some(cuts::Cuts::start()?)
    } else {
        None
    };
    let addr = process::free_addr()?;
    let mut argv: Vec<String> = vec![
        bin_dir.join("a2a-bench-server").display().to_string(),
        "--addr".into(),
        addr.to_string(),
        "--soak".into(),
        "true".into(),
    ];
    if let Some(cuts) = &cuts {
        argv.extend(cuts.server_args());
    }
    let log = out.join("logs/soak-server.log");
    // glibc's malloc raises its mmap threshold (to up to 32 MiB) once a large block is freed,
    // and then keeps freed 4 MiB answers in the heap: RSS would show the allocator's cache,
    // not what the server holds. A fixed threshold returns large blocks to the system on free.
    let env = [("MALLOC_MMAP_THRESHOLD_", MMAP_THRESHOLD)];
    let server = process::start("a2a-bench-server", &argv, &env, addr, &log)?;
    let mut soak = Soak {
        server,
        load: bin_dir.join("a2a-bench-load"),
        ticks: procfs::clock_ticks(),
        started: Instant::now(),
        report: String::new(),
        cuts,
    };
    soak.line(&format!(
        "soak: {secs} s of load in two rounds, {} s settle after each, on {}",
        settle.as_secs_f64(),
        procfs::machine()
    ));
    soak.line(&format!(
        "server limits: {}; MALLOC_MMAP_THRESHOLD_={MMAP_THRESHOLD}",
        soak::preset::describe()
    ));
    if let Some(cuts) = &soak.cuts {
        let what = cuts.describe();
        soak.line(&what);
    }
    soak.line("");
    soak.line("| when | t | RSS MiB | fds | server CPU (of one core) |");
    soak.line("|---|---:|---:|---:|---:|");
    // The server idles a moment first: its start-up is not the soak's.
    std::thread::sleep(Duration::from_secs(1));
    let before = soak.sample()?;
    std::thread::sleep(IDLE_WINDOW);
    let start = soak.sample()?;
    soak.row("start, idle", start, before);
    let (first, outcomes_1) = soak.round(1, secs / 2.0, settle)?;
    let (end, outcomes_2) = soak.round(2, secs / 2.0, settle)?;

    soak.line("");
    let cut_mode = soak.cuts.is_some();
    if cut_mode {
        soak.line("| probe | expected, round 1 | round 2 | 503 during cuts | unexpected | last unexpected |");
        soak.line("|---|---:|---:|---:|---:|---|");
    } else {
        soak.line("| probe | expected, round 1 | round 2 | unexpected | last unexpected |");
        soak.line("|---|---:|---:|---:|---|");
    }
    let mut failures = Vec::new();
    let probes = outcomes_1["probes"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    for (name, one) in &probes {
        let two = &outcomes_2["probes"][name];
        let bad = one["bad"].as_u64().unwrap_or(0) + two["bad"].as_u64().unwrap_or(0);
        let last = two["last_bad"].as_str().or(one["last_bad"].as_str());
        let outage = one["outage"].as_u64().unwrap_or(0) + two["outage"].as_u64().unwrap_or(0);
        let outage = if cut_mode {
            format!(" {outage} |")
        } else {
            String::new()
        };
        soak.line(&format!(
            "| {name} | {} | {} |{outage} {bad} | {} |",
            one["ok"],
            two["ok"],
            last.unwrap_or("")
        ));
        // With the database cut, probes that need it fail for a while by design: they are
        // reported, and the verdict is on the tasks (below).
        if bad > 0 && !cut_mode {
            failures.push(format!("probe {name}: {bad} unexpected outcomes"));
        }
        if (one["ok"].as_u64() == Some(0) || two["ok"].as_u64() == Some(0)) && !cut_mode {
            failures.push(format!(
                "probe {name}: a round without one expected outcome"
            ));
        }
    }

    let idle_cpu = |s: &Soak| -> Result<f64, String> {
        let a = s.sample()?;
        std::thread::sleep(IDLE_WINDOW);
        let b = s.sample()?;
        Ok(
            b.cpu.saturating_sub(a.cpu).as_secs_f64() / b.at.duration_since(a.at).as_secs_f64()
                * 100.0,
        )
    };
    // With the database cut, agents the cuts held back may still work when the load ends:
    // they are waited for first, then the server is idle.
    let mut task_checks = Vec::new();
    if let Some(cuts) = &soak.cuts {
        let acked: Vec<String> = [&outcomes_1, &outcomes_2]
            .iter()
            .flat_map(|o| o["acknowledged"].as_array().cloned().unwrap_or_default())
            .filter_map(|id| id.as_str().map(str::to_owned))
            .collect();
        let tasks = cuts.tasks(&acked)?;
        task_checks.push((
            format!(
                "no acknowledged task lost: {} of {} acknowledged to the probes are missing \
                 from the database ({} tasks in it)",
                tasks.lost, tasks.acknowledged, tasks.total
            ),
            tasks.lost == 0,
        ));
        task_checks.push((
            format!(
                "no task left unfinished: {} not in a terminal state {:.0} s after the load \
                 ({} ended FAILED, {} COMPLETED, {} CANCELED)",
                tasks.unfinished,
                tasks.waited.as_secs_f64(),
                tasks.failed,
                tasks.completed,
                tasks.canceled
            ),
            tasks.unfinished == 0,
        ));
        if tasks.unfinished == 0 {
            cuts.drop_schema()?;
        } else {
            task_checks.push((
                format!(
                    "the unfinished tasks, by state: {} (schema {} kept to look at)",
                    tasks.unfinished_states,
                    cuts.schema()
                ),
                false,
            ));
        }
    }
    // With cuts, the end is once the tasks ended.
    let end = if soak.cuts.is_some() {
        soak.sample()?
    } else {
        end
    };
    let cpu = idle_cpu(&soak)?;
    // A SQL store keeps its pool's connections (and its LISTEN one) open.
    let fd_budget = FD_BUDGET + if soak.cuts.is_some() { POOL_FDS } else { 0 };
    let checks = [
        (
            format!(
                "descriptors back: {} at the end, {} at the start (budget +{fd_budget})",
                end.fds, start.fds
            ),
            end.fds <= start.fds + fd_budget,
        ),
        (
            format!(
                "RSS back: {:.1} MiB at the end, {:.1} MiB at the start (budget +{} MiB)",
                end.rss as f64 / MIB,
                start.rss as f64 / MIB,
                RSS_BUDGET >> 20
            ),
            end.rss <= start.rss + RSS_BUDGET,
        ),
        (
            format!(
                "no growth from round to round: {:.1} MiB after round 1, {:.1} MiB after round 2 \
                 (budget +{} MiB)",
                first.rss as f64 / MIB,
                end.rss as f64 / MIB,
                ROUND_GROWTH_BUDGET >> 20
            ),
            end.rss <= first.rss + ROUND_GROWTH_BUDGET,
        ),
        (
            format!("idle CPU after the load: {cpu:.1} % of a core (budget {IDLE_CPU_BUDGET} %)"),
            cpu <= IDLE_CPU_BUDGET,
        ),
        (
            format!(
                "every probe met the server's limits ({} probes)",
                probes.len()
            ),
            failures.is_empty(),
        ),
    ];
    let checks: Vec<(String, bool)> = checks.into_iter().chain(task_checks).collect();
    soak.line("");
    for (what, ok) in &checks {
        soak.line(&format!("- {} {what}", if *ok { "ok  " } else { "FAIL" }));
    }
    for failure in &failures {
        soak.line(&format!("  - {failure}"));
    }
    let passed = checks.iter().all(|(_, ok)| *ok);
    soak.line(&format!(
        "\nverdict: {}",
        if passed { "PASS" } else { "FAIL" }
    ));
    let path = out.join("soak.md");
    std::fs::write(&path, &soak.report).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!(
        "written: {} (server output: {})",
        path.display(),
        log.display()
    );
    Ok(passed)
}

/// The database of `--store-cuts`, behind its fault proxy, and the cutting.
mod cuts {
    use std::net::SocketAddr;
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use a2a_faults::FaultProxy;
    use sqlx::Row as _;

    /// Up, before the round's long cut.
    const FIRST_UP: Duration = Duration::from_secs(10);
    /// The long cut: longer than the server's outage tolerance (30 s, the default).
    const LONG_CUT: Duration = Duration::from_secs(35);
    /// Up between two short cuts.
    const UP: Duration = Duration::from_secs(6);
    /// A short cut: within the tolerance.
    const SHORT_CUT: Duration = Duration::from_secs(3);
    /// How long at most the tasks are waited for to end after the load: the agents the cuts
    /// held back work off their backlog (the streaming probes' tasks hold thousands of chunks,
    /// each a transaction), then leases (30 s) and pending ends of turns settle the rest.
    const WAIT_FOR_ENDS: Duration = Duration::from_secs(600);

    /// What one round's cutting did.
    #[derive(Default)]
    struct Made {
        long: u32,
        short: u32,
        down: Duration,
    }

    pub(super) struct Cuts {
        runtime: tokio::runtime::Runtime,
        proxy: Arc<FaultProxy>,
        /// The database, not through the proxy.
        url: String,
        schema: String,
        cutter: Option<(tokio::task::JoinHandle<()>, Arc<Mutex<Made>>)>,
    }

    /// The tasks of the schema at the end.
    pub(super) struct Tasks {
        pub(super) acknowledged: usize,
        pub(super) lost: usize,
        pub(super) total: usize,
        pub(super) unfinished: usize,
        pub(super) failed: usize,
        pub(super) completed: usize,
        pub(super) canceled: usize,
        pub(super) waited: Duration,
        /// The unfinished tasks' states, counted: "TASK_STATE_WORKING: 3, ...".
        pub(super) unfinished_states: String,
    }

    /// `HOST:PORT` of a `postgres://` URL (5432 when it names none).
    fn address(url: &str) -> Result<SocketAddr, String> {
        let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
        let authority = rest.split(['/', '?']).next().unwrap_or(rest);
        let host_port = authority.rsplit_once('@').map_or(authority, |(_, hp)| hp);
        let with_port = if host_port.contains(':') {
            host_port.to_owned()
        } else {
            format!("{host_port}:5432")
        };
        std::net::ToSocketAddrs::to_socket_addrs(&with_port)
            .map_err(|e| format!("{with_port}: {e}"))?
            .next()
            .ok_or_else(|| format!("{with_port}: no address"))
    }

    impl Cuts {
        /// The proxy in front of the test database.
        pub(super) fn start() -> Result<Self, String> {
            let url = std::env::var("A2A_TEST_POSTGRES_URL")
                .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned());
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .map_err(|e| e.to_string())?;
            let upstream = address(&url)?;
            let proxy = runtime
                .block_on(FaultProxy::start(upstream))
                .map_err(|e| format!("the fault proxy: {e}"))?;
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default()
                .subsec_nanos();
            Ok(Self {
                runtime,
                proxy: Arc::new(proxy),
                url,
                schema: format!("a2a_soak_{}_{nanos}", std::process::id()),
                cutter: None,
            })
        }

        /// The server's `--store` and `--store-schema`: the database through the proxy.
        pub(super) fn server_args(&self) -> Vec<String> {
            let (scheme, rest) = self.url.split_once("://").unwrap_or(("postgres", ""));
            let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
            let user = authority
                .rsplit_once('@')
                .map(|(u, _)| format!("{u}@"))
                .unwrap_or_default();
            vec![
                "--store".to_owned(),
                format!("{scheme}://{user}{}/{path}", self.proxy.addr()),
                "--store-schema".to_owned(),
                self.schema.clone(),
            ]
        }

        pub(super) fn describe(&self) -> String {
            format!(
                "store: PostgreSQL at {} (schema {}) behind a fault proxy; each round: {} s up, \
                 a cut of {} s (longer than the outage tolerance), then {} s up and {} s cut \
                 again and again",
                self.proxy.upstream(),
                self.schema,
                FIRST_UP.as_secs(),
                LONG_CUT.as_secs(),
                UP.as_secs(),
                SHORT_CUT.as_secs()
            )
        }

        /// Starts cutting, as [`describe`](Self::describe) says.
        pub(super) fn begin_round(&mut self) {
            let made = Arc::new(Mutex::new(Made::default()));
            let (proxy, record) = (self.proxy.clone(), made.clone());
            let cutter = self.runtime.spawn(async move {
                let cut = async |length: Duration, long: bool| {
                    proxy.cut().await;
                    let started = Instant::now();
                    {
                        let mut made = record.lock().unwrap_or_else(|e| e.into_inner());
                        if long {
                            made.long += 1;
                        } else {
                            made.short += 1;
                        }
                    }
                    tokio::time::sleep(length).await;
                    let _ = proxy.restore().await;
                    record.lock().unwrap_or_else(|e| e.into_inner()).down += started.elapsed();
                };
                tokio::time::sleep(FIRST_UP).await;
                cut(LONG_CUT, true).await;
                loop {
                    tokio::time::sleep(UP).await;
                    cut(SHORT_CUT, false).await;
                }
            });
            self.cutter = Some((cutter, made));
        }

        /// Stops cutting (the database is reachable again); what the round's cutting did.
        pub(super) fn end_round(&mut self) -> Result<String, String> {
            let Some((cutter, made)) = self.cutter.take() else {
                return Ok(String::new());
            };
            cutter.abort();
            let proxy = self.proxy.clone();
            self.runtime
                .block_on(async move {
                    let _ = cutter.await;
                    proxy.restore().await
                })
                .map_err(|e| format!("restoring the proxy: {e}"))?;
            let made = made.lock().unwrap_or_else(|e| e.into_inner());
            Ok(format!(
                "{} long and {} short cuts of the database, {:.0} s down in all",
                made.long,
                made.short,
                made.down.as_secs_f64()
            ))
        }

        /// Waits (at most [`WAIT_FOR_ENDS`]) until every task of the schema is in a terminal
        /// state, then counts them and looks for each acknowledged one.
        pub(super) fn tasks(&self, acknowledged: &[String]) -> Result<Tasks, String> {
            let started = Instant::now();
            loop {
                let rows = self.states()?;
                let unfinished = rows.iter().filter(|(_, s)| !is_terminal(s)).count();
                let mut by_state = std::collections::BTreeMap::<&str, usize>::new();
                for (_, state) in rows.iter().filter(|(_, s)| !is_terminal(s)) {
                    *by_state.entry(state.as_str()).or_default() += 1;
                }
                let unfinished_states = by_state
                    .iter()
                    .map(|(state, n)| format!("{state}: {n}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                if unfinished > 0 && started.elapsed().as_secs().is_multiple_of(30) {
                    eprintln!(
                        "soak: {unfinished} tasks still unfinished after {:.0} s ({unfinished_states})",
                        started.elapsed().as_secs_f64()
                    );
                }
                if unfinished == 0 || started.elapsed() >= WAIT_FOR_ENDS {
                    let ids: std::collections::HashSet<&str> =
                        rows.iter().map(|(id, _)| id.as_str()).collect();
                    let count = |state: &str| rows.iter().filter(|(_, s)| s == state).count();
                    return Ok(Tasks {
                        acknowledged: acknowledged.len(),
                        lost: acknowledged
                            .iter()
                            .filter(|id| !ids.contains(id.as_str()))
                            .count(),
                        total: rows.len(),
                        unfinished,
                        failed: count("TASK_STATE_FAILED"),
                        completed: count("TASK_STATE_COMPLETED"),
                        canceled: count("TASK_STATE_CANCELED"),
                        waited: started.elapsed(),
                        unfinished_states,
                    });
                }
                std::thread::sleep(Duration::from_secs(1));
            }
        }

        /// Each task of the schema and its state, read directly (not through the proxy).
        fn states(&self) -> Result<Vec<(String, String)>, String> {
            let sql = format!("SELECT id, state FROM \"{}\".a2a_tasks", self.schema);
            self.runtime.block_on(async {
                sqlx::any::install_default_drivers();
                let pool = sqlx::any::AnyPoolOptions::new()
                    .max_connections(1)
                    .connect(&self.url)
                    .await
                    .map_err(|e| format!("the soak's database: {e}"))?;
                let rows = sqlx::query(&sql)
                    .fetch_all(&pool)
                    .await
                    .map_err(|e| format!("{sql}: {e}"))?;
                pool.close().await;
                Ok(rows
                    .iter()
                    .map(|row| (row.get::<String, _>(0), row.get::<String, _>(1)))
                    .collect())
            })
        }

        /// The soak's schema.
        pub(super) fn schema(&self) -> &str {
            &self.schema
        }

        /// Drops the soak's schema.
        pub(super) fn drop_schema(&self) -> Result<(), String> {
            let sql = format!("DROP SCHEMA IF EXISTS \"{}\" CASCADE", self.schema);
            self.runtime.block_on(async {
                let pool = sqlx::any::AnyPoolOptions::new()
                    .max_connections(1)
                    .connect(&self.url)
                    .await
                    .map_err(|e| format!("the soak's database: {e}"))?;
                sqlx::query(&sql)
                    .execute(&pool)
                    .await
                    .map_err(|e| format!("{sql}: {e}"))?;
                pool.close().await;
                Ok(())
            })
        }
    }

    fn is_terminal(state: &str) -> bool {
        matches!(
            state,
            "TASK_STATE_COMPLETED"
                | "TASK_STATE_FAILED"
                | "TASK_STATE_CANCELED"
                | "TASK_STATE_REJECTED"
        )
    }
}
