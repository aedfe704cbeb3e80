//! `cargo xtask ci`: the whole test suite, as a list of steps.
//!
//! It first checks that the A2A spec files are there ([`SpecDir::locate`]), and that PostgreSQL
//! answers at 127.0.0.1:5432 (or the host and port of `A2A_TEST_POSTGRES_URL`; the SQL store's
//! tests need it), and stops with one line saying what is missing, before anything is compiled. Then it runs every
//! step in [`STEPS`] as a child process, with the resolved absolute `A2A_SPEC_DIR` and
//! `CARGO_TARGET_DIR` in its environment, its output captured to
//! `<target dir>/xtask/ci/<step>.log`, and prints (on stdout) one line per step with its time. A
//! step that runs long says how far it is every 30 s (a heartbeat line: test binaries and
//! tests so far, what it compiles or runs); on a terminal that line is overwritten instead. A
//! failing step's log is printed in full, with its path. The last line counts the steps that
//! passed and failed; any failure makes the command exit non-zero.
//!
//! `--verbose` (or `A2A_XTASK_VERBOSE=1`) streams every step's output instead of capturing it;
//! `--fail-fast` stops at the first failing step; `--step NAME` (repeatable) runs only the
//! steps named.

use std::fs::File;
use std::io::{IsTerminal as _, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use xtask::Workspace;
use xtask::spec::{self, SpecDir};

use crate::run;

/// The steps of `cargo xtask ci`, in order. Adding a step is one line here; a step that runs
/// in `xtask-spec` also needs its task name in `SPEC_TASKS` (`main.rs`).
pub(crate) const STEPS: &[Step] = &[
    Step::cargo("fmt", &["fmt", "--all", "--check"]),
    Step::cargo(
        "clippy",
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--all-features",
            "--locked",
            "--",
            "-D",
            "warnings",
        ],
    ),
    Step::cargo(
        "test",
        &[
            "test",
            "--workspace",
            "--all-targets",
            "--all-features",
            "--locked",
            // Every test binary runs, so one run names every failing test, not the first.
            "--no-fail-fast",
        ],
    ),
    Step::cargo(
        "doctest",
        &["test", "--workspace", "--doc", "--all-features", "--locked"],
    ),
    Step::xtask("features", &["features"]),
    Step::xtask("rustdoc", &["rustdoc"]),
    Step::xtask("api", &["api"]),
    Step::xtask("msrv", &["msrv"]),
    Step::xtask("package", &["package"]),
    Step::xtask("schema", &["schema", "--check"]),
    Step::xtask("codegen", &["codegen", "--check"]),
    Step::xtask("conformance", &["conformance"]),
    Step::xtask("interop", &["interop"]),
];

/// How often a running step reports how far it is.
const HEARTBEAT: Duration = Duration::from_secs(30);

/// What a step runs.
#[derive(Clone, Copy, Debug)]
enum Program {
    /// `cargo <args>`.
    Cargo,
    /// This xtask binary: `cargo xtask <args>`.
    Xtask,
    /// Another program (the tests' steps).
    #[cfg(test)]
    Other(&'static str),
}

/// One step of `cargo xtask ci`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    /// Its name in the output and the name of its log file.
    pub(crate) name: &'static str,
    program: Program,
    args: &'static [&'static str],
}

impl Step {
    /// A step that runs `cargo <args>` at the workspace root.
    pub(crate) const fn cargo(name: &'static str, args: &'static [&'static str]) -> Step {
        Step {
            name,
            program: Program::Cargo,
            args,
        }
    }

    /// A step that runs `cargo xtask <args>` (this binary, again).
    pub(crate) const fn xtask(name: &'static str, args: &'static [&'static str]) -> Step {
        Step {
            name,
            program: Program::Xtask,
            args,
        }
    }

    /// How the step is shown: `cargo clippy ...`, `cargo xtask schema --check`.
    fn display(&self) -> String {
        let program = match self.program {
            Program::Cargo => "cargo",
            Program::Xtask => "cargo xtask",
            #[cfg(test)]
            Program::Other(program) => program,
        };
        format!("{program} {}", self.args.join(" "))
    }

    /// The command, at the workspace root, with the spec folder and target directory set;
    /// `xtask` is the executable that runs `cargo xtask` steps (this one when `None`).
    fn command(
        &self,
        workspace: &Workspace,
        spec_dir: &Path,
        xtask: Option<&Path>,
    ) -> Result<Command, String> {
        let mut command = match self.program {
            Program::Cargo => workspace.cargo_command(),
            Program::Xtask => match xtask {
                Some(path) => workspace.command(path),
                None => workspace.command(
                    std::env::current_exe()
                        .map_err(|e| format!("cannot find the xtask executable: {e}"))?,
                ),
            },
            #[cfg(test)]
            Program::Other(program) => workspace.command(program),
        };
        command
            .args(self.args)
            .env(spec::ENV, spec_dir)
            .stdin(Stdio::null());
        Ok(command)
    }
}

/// How `ci` runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Options {
    /// Stream every step's output instead of capturing it.
    pub(crate) verbose: bool,
    /// Stop at the first failing step.
    pub(crate) fail_fast: bool,
    /// Show the running step (on a terminal; its line is then overwritten).
    pub(crate) progress: bool,
    /// Run only these steps (all when empty).
    pub(crate) only: Vec<String>,
    /// How long a step may run without a line saying how far it is.
    pub(crate) heartbeat: Duration,
    /// Build without incremental compilation (`CARGO_INCREMENTAL=0`): on CI machines, see
    /// [`incremental_off`].
    pub(crate) incremental_off: bool,
    /// The executable of the `cargo xtask` steps: a copy of this one (see [`private_copy`]),
    /// or this one (`None`).
    pub(crate) xtask: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            verbose: false,
            fail_fast: false,
            progress: false,
            only: Vec::new(),
            heartbeat: HEARTBEAT,
            incremental_off: false,
            xtask: None,
        }
    }
}

impl Options {
    /// The flags, and `A2A_XTASK_VERBOSE=1` from the environment.
    pub(crate) fn parse(args: &[String], env_verbose: Option<&str>) -> Result<Options, String> {
        let mut options = Options {
            verbose: matches!(env_verbose, Some("1" | "true" | "yes")),
            ..Options::default()
        };
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--verbose" | "-v" => options.verbose = true,
                "--fail-fast" => options.fail_fast = true,
                "--step" => match args.next() {
                    Some(name) => options.only.push(name.clone()),
                    None => return Err("ci: --step needs a step name".to_owned()),
                },
                other => {
                    if let Some(name) = other.strip_prefix("--step=") {
                        options.only.push(name.to_owned());
                        continue;
                    }
                    return Err(format!(
                        "ci: unknown argument `{other}` (ci takes --verbose, --fail-fast and \
                         --step NAME)"
                    ));
                }
            }
        }
        Ok(options)
    }

    /// The steps to run: all, or those named with `--step`, in the order of `steps`.
    fn select<'s>(&self, steps: &'s [Step]) -> Result<Vec<&'s Step>, String> {
        if let Some(unknown) = self
            .only
            .iter()
            .find(|name| !steps.iter().any(|s| s.name == name.as_str()))
        {
            let names: Vec<&str> = steps.iter().map(|s| s.name).collect();
            return Err(format!(
                "ci: no step named `{unknown}` (the steps: {})",
                names.join(", ")
            ));
        }
        Ok(steps
            .iter()
            .filter(|s| self.only.is_empty() || self.only.iter().any(|n| n == s.name))
            .collect())
    }
}

/// What a step did.
#[derive(Debug)]
struct Outcome {
    status: Result<ExitStatus, String>,
    elapsed: Duration,
    /// What its output said it did (test binaries and tests), if anything.
    summary: Option<String>,
}

impl Outcome {
    fn passed(&self) -> bool {
        self.status.as_ref().is_ok_and(ExitStatus::success)
    }
}

/// How far a step is, as its output tells: what cargo compiles or runs now, and the test
/// binaries and tests done so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Progress {
    /// What it does now: `compiling a2a-server`, `running tests/mock.rs`.
    doing: Option<String>,
    /// Test binaries (and doc-test runs) finished.
    binaries: u32,
    /// Tests passed and failed in them.
    passed: u64,
    failed: u64,
}

impl Progress {
    /// Takes one line of the step's output into account.
    fn read(&mut self, line: &str) {
        let line = line.trim();
        if let Some(result) = line.strip_prefix("test result: ") {
            self.binaries += 1;
            self.passed += count_before(result, " passed");
            self.failed += count_before(result, " failed");
            return;
        }
        let (verb, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim_start();
        self.doing = match verb {
            "Compiling" | "Checking" | "Documenting" => {
                let krate = rest.split(' ').next().unwrap_or_default();
                Some(format!("{} {krate}", verb.to_lowercase()))
            }
            // `Running tests/mock.rs (target/debug/deps/mock-1a2b)`, `Running unittests src/lib.rs (...)`.
            "Running" => Some(format!(
                "running {}",
                rest.split_once(" (").map_or(rest, |(what, _)| what)
            )),
            "Doc-tests" => Some(format!("doc-tests of {rest}")),
            // cargo-hack: `info: running `cargo check --no-default-features` on a2a-sse (8/40)`.
            "info:" if rest.starts_with("running `") => Some(rest.replace('`', "")),
            _ => return,
        };
    }

    /// `41 test binaries, 1203 tests passed` (and how many failed), once a test binary ran.
    fn summary(&self) -> Option<String> {
        if self.binaries == 0 {
            return None;
        }
        let failed = match self.failed {
            0 => String::new(),
            n => format!(", {n} failed"),
        };
        Some(format!(
            "{} test binaries, {} tests passed{failed}",
            self.binaries, self.passed
        ))
    }
}

/// `12` from `ok. 12 passed; 0 failed; ...` for ` passed`; 0 when absent.
fn count_before(text: &str, label: &str) -> u64 {
    text.split(';')
        .find_map(|part| {
            part.trim()
                .trim_start_matches("ok. ")
                .trim_start_matches("FAILED. ")
                .strip_suffix(label)
        })
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

/// `..   test            4 min 10 s  41 test binaries, 1203 tests passed; running tests/mock.rs`
/// (the time ends in the column of the step lines' times).
fn heartbeat_line(name: &str, elapsed: Duration, progress: &Progress) -> String {
    let what = match (progress.summary(), &progress.doing) {
        (Some(summary), Some(doing)) => format!("{summary}; {doing}"),
        (Some(summary), None) => summary,
        (None, Some(doing)) => doing.clone(),
        (None, None) => "running".to_owned(),
    };
    format!("..   {name:<16}{:>9}  {what}", minutes(elapsed))
}

/// Whether the steps build without incremental compilation: when `CI` is set (not empty, `0` or
/// `false`) and `CARGO_INCREMENTAL` is not. A CI machine builds from an empty target directory
/// once, where the incremental caches only take space: 5.8 of the 13 GB of a run from empty
/// (2026-12-04), for no measured gain in time (a rebuild of every workspace crate's tests took
/// 395 s without them, 399 s with). Locally they stay: they speed up the next run after an
/// edit, and a build without them makes a second set of the workspace's artifacts (cargo gives
/// them other file names) beside those of `cargo build` and `cargo test`.
fn incremental_off(ci: Option<&str>, cargo_incremental_set: bool) -> bool {
    let on_ci = ci.is_some_and(|v| !matches!(v.trim(), "" | "0" | "false"));
    on_ci && !cargo_incremental_set
}

/// `cargo xtask ci [--verbose] [--fail-fast] [--step NAME]...`.
pub(crate) fn run(workspace: &Workspace, args: &[String]) -> Result<(), String> {
    let mut options = Options::parse(args, std::env::var("A2A_XTASK_VERBOSE").ok().as_deref())?;
    let steps = options.select(STEPS)?;
    // First of all, before anything is compiled: are the spec files there?
    let spec_dir = SpecDir::locate(&workspace.root)?;
    postgres_preflight(std::env::var("A2A_TEST_POSTGRES_URL").ok().as_deref())?;
    nats_preflight()?;
    options.progress = !options.verbose && std::io::stdout().is_terminal();
    options.incremental_off = incremental_off(
        std::env::var("CI").ok().as_deref(),
        std::env::var_os("CARGO_INCREMENTAL").is_some(),
    );
    options.xtask = Some(private_copy(workspace)?);
    run_steps(
        workspace,
        &spec_dir.path,
        &steps,
        &options,
        &mut std::io::stdout(),
    )
}

/// A copy of this executable under the log folder, which the `cargo xtask` steps run. The
/// steps before them (`cargo test`, `cargo hack`) build the xtask package again and replace
/// `target/debug/xtask`; on Linux the running one then reads `... (deleted)` and cannot be
/// started again.
fn private_copy(workspace: &Workspace) -> Result<PathBuf, String> {
    let me = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    let dir = log_dir(workspace);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let copy = dir.join(format!("xtask{}", std::env::consts::EXE_SUFFIX));
    // A copy left by an earlier run may be running still (rare): write beside it, then rename.
    let fresh = dir.join(format!(
        "xtask-{}{}",
        std::process::id(),
        std::env::consts::EXE_SUFFIX
    ));
    std::fs::copy(&me, &fresh)
        .and_then(|_| std::fs::rename(&fresh, &copy))
        .map_err(|e| format!("cannot copy {} to {}: {e}", me.display(), copy.display()))?;
    Ok(copy)
}

/// The address of the PostgreSQL the tests use: the host and port of `url` (default port
/// 5432), or 127.0.0.1:5432.
fn postgres_address(url: Option<&str>) -> String {
    let Some(url) = url else {
        return "127.0.0.1:5432".to_owned();
    };
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?']).next().unwrap_or_default();
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, hp)| hp);
    if host_port.is_empty() {
        "127.0.0.1:5432".to_owned()
    } else if host_port
        .rsplit_once(':')
        .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
    {
        host_port.to_owned()
    } else {
        format!("{host_port}:5432")
    }
}

/// Fails at once, with one line, when PostgreSQL does not accept a connection: the SQL store
/// tests would otherwise fail one by one, minutes later.
fn postgres_preflight(url: Option<&str>) -> Result<(), String> {
    use std::net::ToSocketAddrs as _;
    let address = postgres_address(url);
    let unreachable = |why: String| {
        format!(
            "PostgreSQL is not reachable at {address} ({why}); the a2a-store-sql tests need it: \
             start it (trust auth, user postgres, database test) or set A2A_TEST_POSTGRES_URL"
        )
    };
    let addrs = address
        .to_socket_addrs()
        .map_err(|e| unreachable(e.to_string()))?;
    let mut last = String::from("no address");
    for addr in addrs {
        match std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(3)) {
            Ok(_) => return Ok(()),
            Err(e) => last = e.to_string(),
        }
    }
    Err(unreachable(last))
}

/// The `nats-server` binary the a2a-store-nats and replica tests start (their own, on a free
/// port): installed from Debian (`apt-get install nats-server`) when missing and apt-get is
/// there, else one line saying so.
fn nats_preflight() -> Result<(), String> {
    let present = || {
        Command::new("nats-server")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if present() {
        return Ok(());
    }
    eprintln!("nats-server is missing: apt-get install -y nats-server");
    let _ = Command::new("apt-get")
        .args(["install", "-y", "-q", "nats-server"])
        .status();
    if present() {
        return Ok(());
    }
    Err(
        "nats-server is not installed and apt-get could not install it; the a2a-store-nats and \
         a2a-cli replica tests need it: install nats-server (Debian: apt-get install nats-server)"
            .to_owned(),
    )
}

/// The folder of the step logs: `xtask/ci/` under the target directory.
fn log_dir(workspace: &Workspace) -> PathBuf {
    workspace.target_dir.join("xtask").join("ci")
}

/// Runs `steps` and writes the report to `out`; `Err` names the failed steps.
fn run_steps(
    workspace: &Workspace,
    spec_dir: &Path,
    steps: &[&Step],
    options: &Options,
    out: &mut dyn Write,
) -> Result<(), String> {
    let started = Instant::now();
    let logs = log_dir(workspace);
    std::fs::create_dir_all(&logs).map_err(|e| format!("cannot create {}: {e}", logs.display()))?;
    // The report is best effort: a closed stdout must not stop the steps.
    let _ = writeln!(
        out,
        "xtask ci in {}: spec files in {}, logs in {}{}",
        workspace.root.display(),
        spec_dir.display(),
        logs.display(),
        if options.incremental_off {
            "; CI is set: CARGO_INCREMENTAL=0"
        } else {
            ""
        }
    );
    let mut failed: Vec<&str> = Vec::new();
    let mut passed = 0;
    for (index, step) in steps.iter().enumerate() {
        let log = logs.join(format!("{}.log", step.name));
        if options.progress {
            let _ = write!(out, "..   {}", step.name);
            let _ = out.flush();
        }
        let outcome = run_step(step, workspace, spec_dir, &log, options, out);
        if options.progress {
            // Back to the start of the line, which is then cleared.
            let _ = write!(out, "\r\x1b[K");
        }
        let _ = writeln!(out, "{}", step_line(step.name, &outcome));
        let _ = out.flush();
        if outcome.passed() {
            passed += 1;
            continue;
        }
        failed.push(step.name);
        if !options.verbose {
            print_log(&log, out);
        }
        let left = steps.len() - index - 1;
        if options.fail_fast && left > 0 {
            let _ = writeln!(out, "--fail-fast: {left} step(s) not run");
            break;
        }
    }
    let _ = writeln!(
        out,
        "{passed} passed, {} failed ({})",
        failed.len(),
        minutes(started.elapsed())
    );
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "ci failed: {} (logs in {})",
            failed.join(", "),
            logs.display()
        ))
    }
}

/// Runs one step, its output to `log` (or to the terminal when `verbose`), with a heartbeat
/// line on `out` whenever `options.heartbeat` passed without one.
fn run_step(
    step: &Step,
    workspace: &Workspace,
    spec_dir: &Path,
    log: &Path,
    options: &Options,
    out: &mut dyn Write,
) -> Outcome {
    let started = Instant::now();
    let progress = Arc::new(Mutex::new(Progress::default()));
    let status = step
        .command(workspace, spec_dir, options.xtask.as_deref())
        .and_then(|mut command| {
            if options.incremental_off {
                command.env("CARGO_INCREMENTAL", "0");
            }
            if options.verbose {
                let _ = writeln!(out, "\n==> {}", step.display());
                let _ = out.flush();
                return command
                    .status()
                    .map_err(|e| format!("cannot start `{}`: {e}", step.display()));
            }
            let mut file = open_log(log, &step.display())?;
            let seen = Arc::clone(&progress);
            let on_line = move |line: &[u8]| {
                // A log that cannot be written loses lines, not the step.
                let _ = file.write_all(line);
                let text = String::from_utf8_lossy(line);
                seen.lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .read(&text);
            };
            let mut last = Instant::now();
            let tick = || {
                if last.elapsed() < options.heartbeat {
                    return;
                }
                last = Instant::now();
                let now = progress
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .clone();
                let line = heartbeat_line(step.name, started.elapsed(), &now);
                let _ = if options.progress {
                    write!(out, "\r\x1b[K{line}")
                } else {
                    writeln!(out, "{line}")
                };
                let _ = out.flush();
            };
            run::with_lines(&mut command, on_line, tick)
                .map_err(|e| format!("`{}`: {e}", step.display()))
        });
    let summary = progress
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .summary();
    Outcome {
        status,
        elapsed: started.elapsed(),
        summary,
    }
}

/// A new log file, its first line naming the command.
fn open_log(log: &Path, display: &str) -> Result<File, String> {
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", log.display());
    let mut file = File::create(log).map_err(cannot)?;
    writeln!(file, "$ {display}").map_err(cannot)?;
    Ok(file)
}

/// Writes a failed step's log, framed, with its path.
fn print_log(log: &Path, out: &mut dyn Write) {
    let _ = writeln!(out, "---- {} ----", log.display());
    match std::fs::read(log) {
        Ok(bytes) => {
            let _ = out.write_all(&bytes);
            if !bytes.ends_with(b"\n") {
                let _ = writeln!(out);
            }
        }
        Err(e) => {
            let _ = writeln!(out, "(cannot read it: {e})");
        }
    }
    let _ = writeln!(out, "---- end of {} ----", log.display());
}

/// `ok   clippy             41.2 s`, `ok   test              312.4 s  (148 test binaries, 2210
/// tests passed)`, or `FAIL test              120.3 s  (exit status: 101; ...)`.
fn step_line(name: &str, outcome: &Outcome) -> String {
    let secs = outcome.elapsed.as_secs_f64();
    let summary = outcome.summary.as_deref();
    match (&outcome.status, summary) {
        (Ok(status), None) if status.success() => format!("ok   {name:<16}{secs:>7.1} s"),
        (Ok(status), Some(summary)) if status.success() => {
            format!("ok   {name:<16}{secs:>7.1} s  ({summary})")
        }
        (Ok(status), summary) => format!(
            "FAIL {name:<16}{secs:>7.1} s  ({status}{})",
            summary.map(|s| format!("; {s}")).unwrap_or_default()
        ),
        (Err(why), _) => format!("FAIL {name:<16}{secs:>7.1} s  ({why})"),
    }
}

/// `42.0 s`, `3 min 07 s`.
fn minutes(elapsed: Duration) -> String {
    let secs = elapsed.as_secs();
    if secs < 60 {
        format!("{:.1} s", elapsed.as_secs_f64())
    } else {
        format!("{} min {:02} s", secs / 60, secs % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_postgres_preflight_names_the_address_it_tried() {
        assert_eq!(postgres_address(None), "127.0.0.1:5432");
        assert_eq!(
            postgres_address(Some("postgres://u:p@db.local:6543/test")),
            "db.local:6543"
        );
        assert_eq!(postgres_address(Some("postgres://u@db/test")), "db:5432");
        // Port 1 on this machine: nothing listens there.
        let err = postgres_preflight(Some("postgres://u@127.0.0.1:1/x")).unwrap_err();
        assert!(
            err.starts_with("PostgreSQL is not reachable at 127.0.0.1:1 ("),
            "{err}"
        );
        assert!(!err.contains('\n'), "one line: {err}");
    }

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn flags_and_the_environment_switch() {
        assert_eq!(Options::parse(&[], None), Ok(Options::default()));
        let verbose = Options {
            verbose: true,
            ..Options::default()
        };
        assert_eq!(
            Options::parse(&args(&["--verbose"]), None),
            Ok(verbose.clone())
        );
        assert_eq!(Options::parse(&args(&["-v"]), None), Ok(verbose.clone()));
        assert_eq!(Options::parse(&[], Some("1")), Ok(verbose));
        assert_eq!(Options::parse(&[], Some("0")), Ok(Options::default()));
        assert_eq!(
            Options::parse(&args(&["--fail-fast"]), None),
            Ok(Options {
                fail_fast: true,
                ..Options::default()
            })
        );
        assert_eq!(
            Options::parse(&args(&["--step", "api", "--step=package"]), None),
            Ok(Options {
                only: args(&["api", "package"]),
                ..Options::default()
            })
        );
        assert_eq!(
            Options::parse(&args(&["--step"]), None),
            Err("ci: --step needs a step name".to_owned())
        );
        assert_eq!(
            Options::parse(&args(&["--quiet"]), None),
            Err(
                "ci: unknown argument `--quiet` (ci takes --verbose, --fail-fast and --step NAME)"
                    .to_owned()
            )
        );
    }

    #[test]
    fn incremental_builds_are_off_on_ci_machines_only() {
        assert!(incremental_off(Some("true"), false));
        assert!(incremental_off(Some("1"), false));
        assert!(
            !incremental_off(Some("true"), true),
            "CARGO_INCREMENTAL decides"
        );
        assert!(!incremental_off(Some("false"), false));
        assert!(!incremental_off(Some("0"), false));
        assert!(!incremental_off(Some(""), false));
        assert!(!incremental_off(None, false));
    }

    #[test]
    fn step_selects_steps_in_their_order() {
        let options = Options {
            only: args(&["package", "features"]),
            ..Options::default()
        };
        let names: Vec<&str> = options
            .select(STEPS)
            .unwrap()
            .iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(names, ["features", "package"]);
        assert_eq!(Options::default().select(STEPS).unwrap().len(), STEPS.len());
        let unknown = Options {
            only: args(&["lint"]),
            ..Options::default()
        };
        assert_eq!(
            unknown.select(STEPS).unwrap_err(),
            "ci: no step named `lint` (the steps: fmt, clippy, test, doctest, features, \
             rustdoc, api, msrv, package, schema, codegen, conformance, interop)"
        );
    }

    #[test]
    fn one_line_per_step_with_its_time() {
        let ok = Outcome {
            status: Ok(ExitStatus::default()),
            elapsed: Duration::from_millis(41_240),
            summary: None,
        };
        assert_eq!(step_line("clippy", &ok), "ok   clippy             41.2 s");
        let tested = Outcome {
            summary: Some("3 test binaries, 40 tests passed".to_owned()),
            ..ok
        };
        assert_eq!(
            step_line("test", &tested),
            "ok   test               41.2 s  (3 test binaries, 40 tests passed)"
        );
        let broken = Outcome {
            status: Err("cannot start `cargo`: gone".to_owned()),
            elapsed: Duration::from_millis(50),
            summary: None,
        };
        assert_eq!(
            step_line("test", &broken),
            "FAIL test                0.1 s  (cannot start `cargo`: gone)"
        );
        assert_eq!(minutes(Duration::from_millis(42_040)), "42.0 s");
        assert_eq!(minutes(Duration::from_secs(187)), "3 min 07 s");
    }

    /// What cargo and libtest print, read into how far the step is.
    #[test]
    fn progress_is_read_from_cargo_and_libtest_lines() {
        let mut progress = Progress::default();
        assert_eq!(progress.summary(), None);
        progress.read("   Compiling a2a-server v0.1.0 (/w/crates/a2a-server)\n");
        assert_eq!(progress.doing.as_deref(), Some("compiling a2a-server"));
        progress
            .read("    Finished `test` profile [unoptimized + debuginfo] target(s) in 2m 52s\n");
        progress.read(
            "     Running unittests src/lib.rs (target/debug/deps/a2a_server-213b12c1eaf3a91b)\n",
        );
        assert_eq!(
            progress.doing.as_deref(),
            Some("running unittests src/lib.rs")
        );
        progress.read("running 8 tests\n");
        progress.read("test agent::tests::a ... ok\n");
        progress.read("test result: ok. 8 passed; 0 failed; 0 ignored; 0 measured; 80 filtered out; finished in 0.00s\n");
        progress.read("     Running tests/mock.rs (target/debug/deps/mock-0a1b2c)\n");
        progress.read("test result: FAILED. 30 passed; 2 failed; 1 ignored; 0 measured; 0 filtered out; finished in 3.10s\n");
        progress.read("   Doc-tests a2a_server\n");
        assert_eq!(
            progress,
            Progress {
                doing: Some("doc-tests of a2a_server".to_owned()),
                binaries: 2,
                passed: 38,
                failed: 2,
            }
        );
        assert_eq!(
            progress.summary().as_deref(),
            Some("2 test binaries, 38 tests passed, 2 failed")
        );
        progress.read("info: running `cargo check --no-default-features` on a2a-sse (8/40)\n");
        assert_eq!(
            progress.doing.as_deref(),
            Some("running cargo check --no-default-features on a2a-sse (8/40)")
        );
        assert_eq!(
            heartbeat_line("test", Duration::from_secs(250), &progress),
            "..   test            4 min 10 s  2 test binaries, 38 tests passed, 2 failed; \
             running cargo check --no-default-features on a2a-sse (8/40)"
        );
        assert_eq!(
            heartbeat_line("clippy", Duration::from_secs(31), &Progress::default()),
            "..   clippy             31.0 s  running"
        );
    }

    #[test]
    fn xtask_steps_run_the_private_copy_which_outlives_a_rebuild() {
        let mut workspace = test_workspace("copy");
        workspace.target_dir =
            std::env::temp_dir().join(format!("xtask-copy-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&workspace.target_dir);
        let copy = private_copy(&workspace).unwrap();
        assert_eq!(
            copy,
            log_dir(&workspace).join(format!("xtask{}", std::env::consts::EXE_SUFFIX))
        );
        let me = std::fs::read(std::env::current_exe().unwrap()).unwrap();
        assert!(
            std::fs::read(&copy).unwrap() == me,
            "the copy is this executable"
        );
        // Twice: an earlier run's copy is replaced.
        assert_eq!(private_copy(&workspace).unwrap(), copy);
        let step = STEPS
            .iter()
            .find(|s| matches!(s.program, Program::Xtask))
            .unwrap();
        let command = step
            .command(&workspace, Path::new("/abs/spec"), Some(&copy))
            .unwrap();
        assert_eq!(command.get_program(), copy.as_os_str());
        let _ = std::fs::remove_dir_all(&workspace.target_dir);
    }

    #[test]
    fn steps_get_the_spec_folder_and_target_dir_and_run_at_the_root() {
        let workspace = test_workspace("env");
        let spec = Path::new("/abs/spec");
        for step in STEPS {
            let command = step.command(&workspace, spec, None).unwrap();
            let envs: Vec<(String, Option<String>)> = command
                .get_envs()
                .map(|(k, v)| {
                    let v = v.map(|v| v.to_string_lossy().into_owned());
                    (k.to_string_lossy().into_owned(), v)
                })
                .collect();
            assert!(
                envs.contains(&("A2A_SPEC_DIR".to_owned(), Some("/abs/spec".to_owned()))),
                "{}: {envs:?}",
                step.name
            );
            let target = workspace.target_dir.to_string_lossy().into_owned();
            assert!(
                envs.contains(&("CARGO_TARGET_DIR".to_owned(), Some(target))),
                "{}: {envs:?}",
                step.name
            );
            assert_eq!(command.get_current_dir(), Some(workspace.root.as_path()));
        }
        let names: Vec<&str> = STEPS.iter().map(|s| s.name).collect();
        assert_eq!(
            names,
            [
                "fmt",
                "clippy",
                "test",
                "doctest",
                "features",
                "rustdoc",
                "api",
                "msrv",
                "package",
                "schema",
                "codegen",
                "conformance",
                "interop"
            ]
        );
        assert_eq!(STEPS[5].display(), "cargo xtask rustdoc");
    }

    /// This workspace, with a fresh target directory of its own.
    fn test_workspace(name: &str) -> Workspace {
        let mut workspace = Workspace::discover().unwrap();
        workspace.target_dir =
            std::env::temp_dir().join(format!("xtask-ci-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&workspace.target_dir);
        workspace
    }

    const PASS: Step = Step::cargo("pass", &["--version"]);
    const FAIL: Step = Step::cargo("fail", &["no-such-command-xtask-test"]);

    fn run_quietly(
        workspace: &Workspace,
        steps: &[Step],
        fail_fast: bool,
    ) -> (Result<(), String>, String) {
        let mut out = Vec::new();
        let options = Options {
            fail_fast,
            ..Options::default()
        };
        let steps: Vec<&Step> = steps.iter().collect();
        let result = run_steps(
            workspace,
            Path::new("/abs/spec"),
            &steps,
            &options,
            &mut out,
        );
        (result, String::from_utf8(out).unwrap())
    }

    /// A pass prints the header, one line per step and the count: nothing of the steps' output.
    #[test]
    fn a_pass_prints_one_line_per_step() {
        let workspace = test_workspace("pass");
        let steps = [PASS; 8];
        let (result, out) = run_quietly(&workspace, &steps, false);
        assert_eq!(result, Ok(()));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), steps.len() + 2, "{out}");
        assert!(lines[0].starts_with("xtask ci in "), "{out}");
        assert!(
            lines[1..=8].iter().all(|l| l.starts_with("ok   pass   ")),
            "{out}"
        );
        assert!(lines[9].starts_with("8 passed, 0 failed ("), "{out}");
        // The output went to the log.
        let log = std::fs::read_to_string(log_dir(&workspace).join("pass.log")).unwrap();
        assert!(log.starts_with("$ cargo --version\ncargo "), "{log}");
        let _ = std::fs::remove_dir_all(&workspace.target_dir);
    }

    /// A failure prints the step's log with its path, runs the other steps, and fails the run.
    #[test]
    fn a_failure_prints_its_log_and_fails_the_run() {
        let workspace = test_workspace("fail");
        let (result, out) = run_quietly(&workspace, &[FAIL, PASS], false);
        let logs = log_dir(&workspace);
        assert_eq!(
            result,
            Err(format!("ci failed: fail (logs in {})", logs.display()))
        );
        let log = logs.join("fail.log");
        assert!(out.contains("\nFAIL fail "), "{out}");
        assert!(
            out.contains(&format!(
                "\n---- {} ----\n$ cargo no-such-command-xtask-test\n",
                log.display()
            )),
            "{out}"
        );
        assert!(out.contains("no such command"), "{out}");
        assert!(
            out.contains(&format!("---- end of {} ----\nok   pass ", log.display())),
            "{out}"
        );
        assert!(
            out.ends_with(" s)\n") && out.contains("\n1 passed, 1 failed ("),
            "{out}"
        );
        let _ = std::fs::remove_dir_all(&workspace.target_dir);
    }

    #[test]
    fn fail_fast_stops_at_the_first_failure() {
        let workspace = test_workspace("fail-fast");
        let (result, out) = run_quietly(&workspace, &[FAIL, PASS], true);
        assert!(result.is_err());
        assert!(
            out.contains("\n--fail-fast: 1 step(s) not run\n0 passed, 1 failed ("),
            "{out}"
        );
        assert!(!log_dir(&workspace).join("pass.log").exists());
        let _ = std::fs::remove_dir_all(&workspace.target_dir);
    }

    /// A step that prints libtest's results gets their count on its line, and the log keeps
    /// the output, stderr and stdout in the order written.
    #[test]
    fn a_test_step_line_counts_its_test_binaries() {
        let workspace = test_workspace("tests");
        const TESTS: Step = Step {
            name: "tests",
            program: Program::Other("sh"),
            args: &[
                "-c",
                "echo '     Running tests/a.rs (target/debug/deps/a-1)' >&2; \
                 echo 'test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s'; \
                 echo '   Doc-tests a' >&2; \
                 echo 'test result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.20s'",
            ],
        };
        let (result, out) = run_quietly(&workspace, &[TESTS], false);
        assert_eq!(result, Ok(()));
        let line = out.lines().nth(1).unwrap();
        assert!(line.starts_with("ok   tests  "), "{out}");
        assert!(
            line.ends_with(" s  (2 test binaries, 5 tests passed)"),
            "{out}"
        );
        let log = std::fs::read_to_string(log_dir(&workspace).join("tests.log")).unwrap();
        assert!(
            log.contains(
                "\n     Running tests/a.rs (target/debug/deps/a-1)\ntest result: ok. 3 passed;"
            ),
            "{log}"
        );
        let _ = std::fs::remove_dir_all(&workspace.target_dir);
    }

    /// On a CI machine the steps get `CARGO_INCREMENTAL=0`, and the header says so.
    #[test]
    fn steps_build_without_incremental_caches_when_told() {
        let workspace = test_workspace("incremental");
        const SHOW: Step = Step {
            name: "show",
            program: Program::Other("sh"),
            args: &["-c", "echo \"CARGO_INCREMENTAL=[$CARGO_INCREMENTAL]\""],
        };
        let options = Options {
            incremental_off: true,
            ..Options::default()
        };
        let mut out = Vec::new();
        let result = run_steps(
            &workspace,
            Path::new("/abs/spec"),
            &[&SHOW],
            &options,
            &mut out,
        );
        assert_eq!(result, Ok(()));
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.lines()
                .next()
                .unwrap()
                .ends_with("; CI is set: CARGO_INCREMENTAL=0"),
            "{out}"
        );
        let log = std::fs::read_to_string(log_dir(&workspace).join("show.log")).unwrap();
        assert!(log.ends_with("\nCARGO_INCREMENTAL=[0]\n"), "{log}");
        let _ = std::fs::remove_dir_all(&workspace.target_dir);
    }

    /// Output that creates a file when a heartbeat line naming what the step compiles is
    /// written to it.
    struct Flagging {
        out: Vec<u8>,
        flag: PathBuf,
    }

    impl Write for Flagging {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.out.extend_from_slice(buf);
            let out = String::from_utf8_lossy(&self.out);
            if out
                .lines()
                .any(|l| l.starts_with("..   waiting ") && l.ends_with("  compiling slow-crate"))
            {
                std::fs::write(&self.flag, b"")?;
            }
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A step that prints nothing gets heartbeat lines, on the report's output: this step
    /// ends only once one was written.
    #[test]
    fn a_silent_step_gets_a_heartbeat() {
        let workspace = test_workspace("heartbeat");
        std::fs::create_dir_all(&workspace.target_dir).unwrap();
        let flag = workspace.target_dir.join("heartbeat-seen");
        let script: &'static str = Box::leak(
            format!(
                "echo '   Compiling slow-crate v1.0.0' >&2; while [ ! -e '{}' ]; do sleep 0.05; done",
                flag.display()
            )
            .into_boxed_str(),
        );
        let args: &'static [&'static str] = Box::leak(Box::new(["-c", script]));
        let waiting = Step {
            name: "waiting",
            program: Program::Other("sh"),
            args,
        };
        let options = Options {
            heartbeat: Duration::from_millis(50),
            ..Options::default()
        };
        let mut out = Flagging {
            out: Vec::new(),
            flag,
        };
        let result = run_steps(
            &workspace,
            Path::new("/abs/spec"),
            &[&waiting],
            &options,
            &mut out,
        );
        assert_eq!(result, Ok(()));
        let out = String::from_utf8(out.out).unwrap();
        assert!(
            out.lines()
                .any(|l| l.starts_with("..   waiting ") && l.ends_with(" s  compiling slow-crate")),
            "{out}"
        );
        assert!(out.contains("\nok   waiting "), "{out}");
        let _ = std::fs::remove_dir_all(&workspace.target_dir);
    }
}
