//! `cargo xtask ci`: the whole test suite, as a list of steps.
//!
//! It first checks that the A2A spec files are there ([`SpecDir::locate`]), and that PostgreSQL
//! answers at 127.0.0.1:5432 (or the host and port of `A2A_TEST_POSTGRES_URL`; the SQL store's
//! tests need it), and stops with one line saying what is missing, before anything is compiled. Then it runs every
//! step in [`STEPS`] as a child process, with the resolved absolute `A2A_SPEC_DIR` and
//! `CARGO_TARGET_DIR` in its environment, its output captured to
//! `<target dir>/xtask/ci/<step>.log`, and prints one line per step with its time. A failing
//! step's log is printed in full, with its path. The last line counts the steps that passed and
//! failed; any failure makes the command exit non-zero.
//!
//! `--verbose` (or `A2A_XTASK_VERBOSE=1`) streams every step's output instead of capturing it;
//! `--fail-fast` stops at the first failing step.

use std::fs::File;
use std::io::{IsTerminal as _, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use xtask::Workspace;
use xtask::spec::{self, SpecDir};

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
        ],
    ),
    Step::cargo(
        "doctest",
        &["test", "--workspace", "--doc", "--all-features", "--locked"],
    ),
    Step::cargo(
        "rustdoc",
        &[
            "doc",
            "--workspace",
            "--no-deps",
            "--all-features",
            "--locked",
        ],
    )
    .env(&[("RUSTDOCFLAGS", "-D warnings")]),
    Step::xtask("schema", &["schema", "--check"]),
    Step::xtask("codegen", &["codegen", "--check"]),
    Step::xtask("conformance", &["conformance"]),
    Step::xtask("interop", &["interop"]),
];

/// What a step runs.
#[derive(Clone, Copy, Debug)]
enum Program {
    /// `cargo <args>`.
    Cargo,
    /// This xtask binary: `cargo xtask <args>`.
    Xtask,
}

/// One step of `cargo xtask ci`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    /// Its name in the output and the name of its log file.
    pub(crate) name: &'static str,
    program: Program,
    args: &'static [&'static str],
    env: &'static [(&'static str, &'static str)],
}

impl Step {
    /// A step that runs `cargo <args>` at the workspace root.
    pub(crate) const fn cargo(name: &'static str, args: &'static [&'static str]) -> Step {
        Step {
            name,
            program: Program::Cargo,
            args,
            env: &[],
        }
    }

    /// A step that runs `cargo xtask <args>` (this binary, again).
    pub(crate) const fn xtask(name: &'static str, args: &'static [&'static str]) -> Step {
        Step {
            name,
            program: Program::Xtask,
            args,
            env: &[],
        }
    }

    /// The step with extra environment variables.
    pub(crate) const fn env(self, env: &'static [(&'static str, &'static str)]) -> Step {
        Step { env, ..self }
    }

    /// How the step is shown: `cargo clippy ...`, `cargo xtask schema --check`.
    fn display(&self) -> String {
        let program = match self.program {
            Program::Cargo => "cargo",
            Program::Xtask => "cargo xtask",
        };
        let env: String = self
            .env
            .iter()
            .map(|(k, v)| format!("{k}='{v}' "))
            .collect();
        format!("{env}{program} {}", self.args.join(" "))
    }

    /// The command, at the workspace root, with the spec folder and target directory set.
    fn command(&self, workspace: &Workspace, spec_dir: &Path) -> Result<Command, String> {
        let mut command = match self.program {
            Program::Cargo => workspace.cargo_command(),
            Program::Xtask => workspace.command(
                std::env::current_exe()
                    .map_err(|e| format!("cannot find the xtask executable: {e}"))?,
            ),
        };
        command
            .args(self.args)
            .envs(self.env.iter().copied())
            .env(spec::ENV, spec_dir)
            .stdin(Stdio::null());
        Ok(command)
    }
}

/// How `ci` runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Options {
    /// Stream every step's output instead of capturing it.
    pub(crate) verbose: bool,
    /// Stop at the first failing step.
    pub(crate) fail_fast: bool,
    /// Show the running step (on a terminal; its line is then overwritten).
    pub(crate) progress: bool,
}

impl Options {
    /// The flags, and `A2A_XTASK_VERBOSE=1` from the environment.
    pub(crate) fn parse(args: &[String], env_verbose: Option<&str>) -> Result<Options, String> {
        let mut options = Options {
            verbose: matches!(env_verbose, Some("1" | "true" | "yes")),
            ..Options::default()
        };
        for arg in args {
            match arg.as_str() {
                "--verbose" | "-v" => options.verbose = true,
                "--fail-fast" => options.fail_fast = true,
                other => {
                    return Err(format!(
                        "ci: unknown argument `{other}` (ci takes --verbose and --fail-fast)"
                    ));
                }
            }
        }
        Ok(options)
    }
}

/// What a step did.
#[derive(Debug)]
struct Outcome {
    status: Result<ExitStatus, String>,
    elapsed: Duration,
}

impl Outcome {
    fn passed(&self) -> bool {
        self.status.as_ref().is_ok_and(ExitStatus::success)
    }
}

/// `cargo xtask ci [--verbose] [--fail-fast]`.
pub(crate) fn run(workspace: &Workspace, args: &[String]) -> Result<(), String> {
    let mut options = Options::parse(args, std::env::var("A2A_XTASK_VERBOSE").ok().as_deref())?;
    // First of all, before anything is compiled: are the spec files there?
    let spec_dir = SpecDir::locate(&workspace.root)?;
    postgres_preflight(std::env::var("A2A_TEST_POSTGRES_URL").ok().as_deref())?;
    options.progress = !options.verbose && std::io::stderr().is_terminal();
    run_steps(
        workspace,
        &spec_dir.path,
        STEPS,
        options,
        &mut std::io::stderr(),
    )
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

/// The folder of the step logs: `xtask/ci/` under the target directory.
fn log_dir(workspace: &Workspace) -> PathBuf {
    workspace.target_dir.join("xtask").join("ci")
}

/// Runs `steps` and writes the report to `out`; `Err` names the failed steps.
fn run_steps(
    workspace: &Workspace,
    spec_dir: &Path,
    steps: &[Step],
    options: Options,
    out: &mut dyn Write,
) -> Result<(), String> {
    let started = Instant::now();
    let logs = log_dir(workspace);
    std::fs::create_dir_all(&logs).map_err(|e| format!("cannot create {}: {e}", logs.display()))?;
    // The report is best effort: a closed stderr must not stop the steps.
    let _ = writeln!(
        out,
        "xtask ci in {}: spec files in {}, logs in {}",
        workspace.root.display(),
        spec_dir.display(),
        logs.display()
    );
    let mut failed: Vec<&str> = Vec::new();
    let mut passed = 0;
    for (index, step) in steps.iter().enumerate() {
        let log = logs.join(format!("{}.log", step.name));
        if options.progress {
            let _ = write!(out, "..   {}", step.name);
            let _ = out.flush();
        }
        let outcome = run_step(step, workspace, spec_dir, &log, options.verbose);
        if options.progress {
            let _ = write!(out, "\r");
        }
        let _ = writeln!(out, "{}", step_line(step.name, &outcome));
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

/// Runs one step, its output to `log` (or to the terminal when `verbose`).
fn run_step(
    step: &Step,
    workspace: &Workspace,
    spec_dir: &Path,
    log: &Path,
    verbose: bool,
) -> Outcome {
    let started = Instant::now();
    let status = step.command(workspace, spec_dir).and_then(|mut command| {
        if verbose {
            eprintln!("\n==> {}", step.display());
        } else {
            capture(&mut command, log, &step.display())?;
        }
        command
            .status()
            .map_err(|e| format!("cannot start `{}`: {e}", step.display()))
    });
    Outcome {
        status,
        elapsed: started.elapsed(),
    }
}

/// Points the command's stdout and stderr at one new log file (in the order it writes them),
/// after a first line naming the command.
fn capture(command: &mut Command, log: &Path, display: &str) -> Result<(), String> {
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", log.display());
    let mut file = File::create(log).map_err(cannot)?;
    writeln!(file, "$ {display}").map_err(cannot)?;
    let err = file.try_clone().map_err(cannot)?;
    command.stdout(file).stderr(err);
    Ok(())
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

/// `ok   clippy             41.2 s`, or `FAIL test  120.3 s  (exit status: 101)`.
fn step_line(name: &str, outcome: &Outcome) -> String {
    let secs = outcome.elapsed.as_secs_f64();
    match &outcome.status {
        Ok(status) if status.success() => format!("ok   {name:<16}{secs:>7.1} s"),
        Ok(status) => format!("FAIL {name:<16}{secs:>7.1} s  ({status})"),
        Err(why) => format!("FAIL {name:<16}{secs:>7.1} s  ({why})"),
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
        assert_eq!(Options::parse(&args(&["--verbose"]), None), Ok(verbose));
        assert_eq!(Options::parse(&args(&["-v"]), None), Ok(verbose));
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
            Options::parse(&args(&["--quiet"]), None),
            Err("ci: unknown argument `--quiet` (ci takes --verbose and --fail-fast)".to_owned())
        );
    }

    #[test]
    fn one_line_per_step_with_its_time() {
        let ok = Outcome {
            status: Ok(ExitStatus::default()),
            elapsed: Duration::from_millis(41_240),
        };
        assert_eq!(step_line("clippy", &ok), "ok   clippy             41.2 s");
        let broken = Outcome {
            status: Err("cannot start `cargo`: gone".to_owned()),
            elapsed: Duration::from_millis(50),
        };
        assert_eq!(
            step_line("test", &broken),
            "FAIL test                0.1 s  (cannot start `cargo`: gone)"
        );
        assert_eq!(minutes(Duration::from_millis(42_040)), "42.0 s");
        assert_eq!(minutes(Duration::from_secs(187)), "3 min 07 s");
    }

    #[test]
    fn steps_get_the_spec_folder_and_target_dir_and_run_at_the_root() {
        let workspace = test_workspace("env");
        let spec = Path::new("/abs/spec");
        for step in STEPS {
            let command = step.command(&workspace, spec).unwrap();
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
                "rustdoc",
                "schema",
                "codegen",
                "conformance",
                "interop"
            ]
        );
        assert_eq!(
            STEPS[4].display(),
            "RUSTDOCFLAGS='-D warnings' cargo doc --workspace --no-deps --all-features --locked"
        );
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
        let result = run_steps(workspace, Path::new("/abs/spec"), steps, options, &mut out);
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
}
