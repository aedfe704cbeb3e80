//! The driver of `cargo xtask soak`: a release `a2a-bench-server --soak true` under the mixed
//! hostile load of `a2a-bench-load soak` (`a2a_bench::soak`), in two rounds, with the server's
//! RSS, open descriptors and CPU read from `/proc` at the start, every few seconds during the
//! load, and after each round once the load stopped and a settle time passed; then a verdict
//! against the budgets below.
//!
//! ```text
//! a2a-bench-soak [--secs 60] [--settle 8] [--out DIR]
//! ```
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
        let mut child = Command::new(&self.load)
            .args(["soak", "--addr", &self.server.addr.to_string()])
            .args(["--secs", &secs.to_string(), "--threads", "1"])
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

    let addr = process::free_addr()?;
    let argv: Vec<String> = vec![
        bin_dir.join("a2a-bench-server").display().to_string(),
        "--addr".into(),
        addr.to_string(),
        "--soak".into(),
        "true".into(),
    ];
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
    soak.line("| probe | expected, round 1 | round 2 | unexpected | last unexpected |");
    soak.line("|---|---:|---:|---:|---|");
    let mut failures = Vec::new();
    let probes = outcomes_1["probes"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    for (name, one) in &probes {
        let two = &outcomes_2["probes"][name];
        let bad = one["bad"].as_u64().unwrap_or(0) + two["bad"].as_u64().unwrap_or(0);
        let last = two["last_bad"].as_str().or(one["last_bad"].as_str());
        soak.line(&format!(
            "| {name} | {} | {} | {bad} | {} |",
            one["ok"],
            two["ok"],
            last.unwrap_or("")
        ));
        if bad > 0 {
            failures.push(format!("probe {name}: {bad} unexpected outcomes"));
        }
        if one["ok"].as_u64() == Some(0) || two["ok"].as_u64() == Some(0) {
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
    let cpu = idle_cpu(&soak)?;
    let checks = [
        (
            format!(
                "descriptors back: {} at the end, {} at the start (budget +{FD_BUDGET})",
                end.fds, start.fds
            ),
            end.fds <= start.fds + FD_BUDGET,
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
