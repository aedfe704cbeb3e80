//! `cargo xtask interop`: the official Python and JS SDKs against our server, and our client
//! against agents written with them. `docs/interop.md` explains the matrix.
//!
//! 1. Installs the pinned SDKs once: `tests/interop/python/requirements.txt` into the venv
//!    `interop/venv`, and `tests/interop/js/package-lock.json` into `interop/node_modules`
//!    (`npm ci`), both under cargo's target directory (`CARGO_TARGET_DIR`, or `target/`). A marker file holding the pins skips the install
//!    while they are unchanged. Nothing is fetched beyond PyPI and npm.
//! 2. Builds the `interop_agent` example of `a2a-grpc` and the `a2a` command (`a2a-cli`, our
//!    client), which `tests/interop/rust/cli_scenarios.py` drives.
//! 3. Starts each agent on `127.0.0.1:0` (ours, and one written with each SDK) and reads its URL
//!    from its first line on stdout. Every agent serves every [`Binding`] at that URL.
//! 4. Runs each client's scenario script against each agent, once per binding ([`CELLS`]). A
//!    script prints `PASS name`, `FAIL name: reason` or `SKIP name: reason` (a scenario that
//!    client cannot express) per scenario.
//!    Then `a2a inspect` in a browser against the Python SDK agent (the ignored test of
//!    `crates/a2a-cli/tests/inspect.rs`), and the ACTS suite under our runner (`a2a
//!    conformance`) against the Python SDK's ACTS behaviour agent and ours ([`acts`]).
//! 5. Prints the matrix (one table per binding), writes `interop/report.md` (under the target
//!    directory, with the ACTS table), and fails on any failure, on a known divergence ([`KNOWN`]) that no longer
//!    fails, and on a cell that printed nothing.
//!
//! `cargo xtask interop --acts` runs the ACTS part alone (the Python install and the build of
//! `a2a` first).
//!
//! Every child process is killed when its guard drops, on every path; every wait has a deadline.

mod acts;

use std::fmt::Write as _;
use std::fs;
use std::io::{BufRead as _, BufReader, Read as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Mutex, PoisonError, mpsc};
use std::time::{Duration, Instant};

use xtask::{Workspace, workspace};

/// How long one install step (venv + pip, or npm ci) may take.
const INSTALL_TIMEOUT: Duration = Duration::from_secs(600);
/// How long the example build may take.
const BUILD_TIMEOUT: Duration = Duration::from_secs(900);
/// How long an agent may take to print its URL.
const START_TIMEOUT: Duration = Duration::from_secs(30);
/// How long one client script may run against one agent (each scenario has its own 20 s limit).
const CELL_TIMEOUT: Duration = Duration::from_secs(240);

/// Known wire divergences: `(binding, client, agent, scenario, divergence)`, the binding as
/// [`Binding::protocol_binding`] names it. The cell is reported `XFAIL <divergence>` while it
/// fails, and fails the run once it passes (remove the entry and update `docs/interop.md`). Each
/// divergence is described in `docs/interop.md`: `Dn` of our server, `Cn` of our client, `Ln` of
/// a 0.3 agent (what a 0.3 SDK does unlike the 1.0 scenario, whoever the client), `Sn` of a 1.0
/// SDK agent.
const KNOWN: &[Known] = &[
    ("GRPC", "python", "python", "error_version_missing", "S1"),
    (
        "GRPC",
        "python",
        "python",
        "error_version_unsupported",
        "S1",
    ),
    ("GRPC", "js", "python", "error_version_missing", "S1"),
    ("GRPC", "js", "python", "error_version_unsupported", "S1"),
    (
        "HTTP+JSON",
        "js-0.3",
        "rust",
        "stream_artifact_chunks",
        "S2",
    ),
    (
        "JSONRPC",
        "rust-0.3",
        "python-compat",
        "get_task_history_length",
        "L1",
    ),
    (
        "JSONRPC",
        "rust-0.3",
        "python-0.3",
        "get_task_history_length",
        "L1",
    ),
    (
        "JSONRPC",
        "rust-0.3",
        "python-0.3",
        "cancel_task_stream",
        "L2",
    ),
    (
        "JSONRPC",
        "rust-0.3",
        "python-0.3",
        "subscribe_through_input_required",
        "L3",
    ),
    (
        "JSONRPC",
        "rust-0.3",
        "python-0.3",
        "error_push_not_supported",
        "L4",
    ),
    (
        "JSONRPC",
        "rust-0.3",
        "python-0.3",
        "error_extended_card_unsupported",
        "L4",
    ),
];

/// What the matrix does not cover yet, printed under it.
const PENDING_NOTES: &[&str] = &[
    "0.3 over gRPC: our gRPC endpoint (a2a-grpc) serves lf.a2a.v1 only, so the SDKs' 0.3 gRPC \
     clients are not run",
];

/// The file whose matrix block must equal the matrix the run produced.
const DOC: &str = "docs/interop.md";
const DOC_BEGIN: &str = "<!-- interop-matrix:begin (written by cargo xtask interop) -->";
const DOC_END: &str = "<!-- interop-matrix:end -->";

/// An agent the clients run against.
#[derive(Clone, Copy)]
enum Agent {
    /// `crates/a2a-grpc/examples/interop_agent.rs` (every binding, gRPC too, on one port).
    Rust,
    /// `tests/interop/python/agent.py` (a2a-sdk).
    Python,
    /// `tests/interop/js/agent.mjs` (@a2a-js/sdk).
    Js,
    /// `tests/interop/python/agent.py` with its 0.3 compat layer on (`enable_v0_3_compat`) and
    /// a JSONRPC 0.3 interface on its card (`A2A_INTEROP_LEGACY=1`).
    PythonCompat,
    /// `tests/interop/js/agent.mjs` with `legacyCompat` and a JSONRPC 0.3 interface
    /// (`A2A_INTEROP_LEGACY=1`).
    JsCompat,
    /// `tests/interop/python_v0_3/agent.py`: a 0.3-only agent (a2a-sdk 0.3.x, its own venv).
    PythonV03,
}

impl Agent {
    /// Every agent, in the order they are started.
    const ALL: [Agent; 6] = [
        Agent::Rust,
        Agent::Python,
        Agent::Js,
        Agent::PythonCompat,
        Agent::JsCompat,
        Agent::PythonV03,
    ];

    fn name(self) -> &'static str {
        match self {
            Agent::Rust => "rust",
            Agent::Python => "python",
            Agent::Js => "js",
            Agent::PythonCompat => "python-compat",
            Agent::JsCompat => "js-compat",
            Agent::PythonV03 => "python-0.3",
        }
    }
}

/// How the clients reach the agents: one table of the matrix each. Every agent serves every
/// binding at its one URL (its card lists an interface per binding); each client script is told
/// the binding by [`Binding::script_args`]. A new column (another binding or protocol version) is
/// a variant here, its arguments to the scripts, and its cells in [`CELLS`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Binding {
    /// JSON-RPC 2.0, protocol 1.0.
    JsonRpc,
    /// HTTP+JSON (REST), protocol 1.0.
    Rest,
    /// gRPC, protocol 1.0: each agent's card lists it at `host:port` (ours on its one port, the
    /// SDK agents on a port of their own).
    Grpc,
}

impl Binding {
    /// The card's `protocolBinding`, as the scripts take it and [`KNOWN`] names it.
    fn protocol_binding(self) -> &'static str {
        match self {
            Binding::JsonRpc => "JSONRPC",
            Binding::Rest => "HTTP+JSON",
            Binding::Grpc => "GRPC",
        }
    }

    /// The title of its table.
    fn title(self) -> &'static str {
        match self {
            Binding::JsonRpc => "JSON-RPC, A2A 1.0",
            Binding::Rest => "HTTP+JSON (REST), A2A 1.0",
            Binding::Grpc => "gRPC, A2A 1.0",
        }
    }

    /// The arguments that tell a client script to use this binding.
    fn script_args(self) -> [&'static str; 2] {
        ["--binding", self.protocol_binding()]
    }
}

/// A client scenario script.
#[derive(Clone, Copy)]
enum Client {
    /// `tests/interop/python/client_scenarios.py` (a2a-sdk).
    Python,
    /// `tests/interop/js/client_scenarios.mjs` (@a2a-js/sdk).
    Js,
    /// `tests/interop/rust/cli_scenarios.py`: our client, through the `a2a` command.
    Rust,
    /// The same, speaking A2A 0.3 (`a2a ... --a2a-version 0.3`, the script's
    /// `A2A_INTEROP_A2A_VERSION=0.3`).
    RustV03,
    /// `tests/interop/python/client_scenarios_v0_3.py`: the a2a-sdk client through its 0.3
    /// compat transports (the same scenarios, on the card's 0.3 interface of the binding).
    PythonV03,
    /// `tests/interop/js/client_scenarios_v0_3.mjs`: the @a2a-js/sdk client through its 0.3
    /// compat transports (`legacyCompat`).
    JsV03,
}

impl Client {
    fn name(self) -> &'static str {
        match self {
            Client::Python => "python",
            Client::Js => "js",
            Client::Rust => "rust",
            Client::RustV03 => "rust-0.3",
            Client::PythonV03 => "python-0.3",
            Client::JsV03 => "js-0.3",
        }
    }
}

/// The cells run, in matrix order: per binding, part 1 (their clients, our agent), part 2 (our
/// client, their agents), then the SDKs against each other (the control group: a scenario that
/// fails there is a scenario bug or an SDK quirk, not ours), then part 3 on the server side
/// (the SDKs' 0.3 clients against our 0.3 endpoints); last, part 3 on the client side (our
/// client in 0.3 against the SDKs' 0.3 compat agents and a 0.3-only agent).
const CELLS: &[(Binding, Client, Agent)] = &[
    (Binding::JsonRpc, Client::Python, Agent::Rust),
    (Binding::JsonRpc, Client::Js, Agent::Rust),
    (Binding::JsonRpc, Client::Rust, Agent::Python),
    (Binding::JsonRpc, Client::Rust, Agent::Js),
    (Binding::JsonRpc, Client::Python, Agent::Python),
    (Binding::JsonRpc, Client::Js, Agent::Js),
    (Binding::JsonRpc, Client::Python, Agent::Js),
    (Binding::JsonRpc, Client::Js, Agent::Python),
    (Binding::JsonRpc, Client::PythonV03, Agent::Rust),
    (Binding::JsonRpc, Client::JsV03, Agent::Rust),
    (Binding::Rest, Client::Python, Agent::Rust),
    (Binding::Rest, Client::Js, Agent::Rust),
    (Binding::Rest, Client::Rust, Agent::Python),
    (Binding::Rest, Client::Rust, Agent::Js),
    (Binding::Rest, Client::Python, Agent::Python),
    (Binding::Rest, Client::Js, Agent::Js),
    (Binding::Rest, Client::Python, Agent::Js),
    (Binding::Rest, Client::Js, Agent::Python),
    (Binding::Rest, Client::PythonV03, Agent::Rust),
    (Binding::Rest, Client::JsV03, Agent::Rust),
    (Binding::Grpc, Client::Python, Agent::Rust),
    (Binding::Grpc, Client::Js, Agent::Rust),
    (Binding::Grpc, Client::Rust, Agent::Python),
    (Binding::Grpc, Client::Rust, Agent::Js),
    (Binding::Grpc, Client::Python, Agent::Python),
    (Binding::Grpc, Client::Js, Agent::Js),
    (Binding::Grpc, Client::Python, Agent::Js),
    (Binding::Grpc, Client::Js, Agent::Python),
    (Binding::JsonRpc, Client::RustV03, Agent::PythonCompat),
    (Binding::JsonRpc, Client::RustV03, Agent::JsCompat),
    (Binding::JsonRpc, Client::RustV03, Agent::PythonV03),
];

/// The workspace paths the suite uses.
struct Paths<'a> {
    workspace: &'a Workspace,
    root: PathBuf,
    /// `interop/` under the target directory: the venv, node_modules, the copied JS scripts,
    /// logs and the report.
    work: PathBuf,
    venv_python: PathBuf,
    /// The python of the a2a-sdk 0.3 venv (`interop/venv-0.3`).
    venv_v03_python: PathBuf,
}

/// `interop/` under the target directory, where the suite installs the SDKs and writes its
/// report (`cargo xtask bench` reuses the installs).
pub(crate) fn work_dir(workspace: &Workspace) -> PathBuf {
    workspace.target_dir.join("interop")
}

/// Runs the interop matrix (or with `--acts` the ACTS runs alone); `Err` lists the failures.
pub(crate) fn run(workspace: &Workspace, args: &[String]) -> Result<(), String> {
    let acts_only = match args {
        [] => false,
        [flag] if flag == "--acts" => true,
        _ => {
            return Err(format!(
                "interop takes no arguments but `--acts` (the ACTS runs alone), not `{}`",
                args.join(" ")
            ));
        }
    };
    let started = Instant::now();
    let work = work_dir(workspace);
    fs::create_dir_all(work.join("logs")).map_err(|e| format!("cannot create {work:?}: {e}"))?;
    let paths = Paths {
        workspace,
        venv_python: work.join("venv").join("bin").join("python"),
        venv_v03_python: work.join("venv-0.3").join("bin").join("python"),
        root: workspace.root.clone(),
        work,
    };
    install_python(&paths, "python", "venv")?;
    if acts_only {
        let built = build_rust(&paths)?;
        let acts = acts::run(&paths, &built);
        eprintln!("\n{}", acts.table);
        let report_path = paths.work.join("acts.md");
        fs::write(&report_path, &acts.table)
            .map_err(|e| format!("cannot write {report_path:?}: {e}"))?;
        eprintln!(
            "interop: ACTS table in {} ({:.0} s)",
            report_path.display(),
            acts.elapsed.as_secs_f64()
        );
        return if acts.failures.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "interop: {} ACTS failure(s):\n  {}",
                acts.failures.len(),
                acts.failures.join("\n  ")
            ))
        };
    }
    install_python(&paths, "python_v0_3", "venv-0.3")?;
    install_node(&paths)?;
    let built = build_rust(&paths)?;

    // Each agent with its cells, one after another; `jobs()` agents at a time.
    let queue = Mutex::new(Agent::ALL.iter().rev().copied().collect::<Vec<_>>());
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs() {
            scope.spawn(|| {
                loop {
                    let Some(agent) = queue.lock().unwrap_or_else(PoisonError::into_inner).pop()
                    else {
                        break;
                    };
                    let done = run_agent(&paths, &built, agent);
                    results
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .extend(done);
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(PoisonError::into_inner);

    let push_failures = run_push(&paths, &built);
    let signing_failures = run_card_signing(&paths, &built);
    let inspect_failures = run_inspect(&paths);
    let acts = acts::run(&paths, &built);

    // Matrix columns in CELLS order (the cells ran grouped by agent, agents side by side).
    results.sort_by_key(|r| {
        CELLS
            .iter()
            .position(|(b, c, a)| *b == r.binding && c.name() == r.client && a.name() == r.agent)
    });
    let mut report = Report::new(&results);
    report.failures.extend(push_failures);
    report.failures.extend(signing_failures);
    report.failures.extend(inspect_failures);
    report.failures.extend(acts.failures.iter().cloned());
    eprintln!("\n{}", report.text_matrix());
    eprintln!(
        "ACTS under our runner ({:.0} s):\n{}",
        acts.elapsed.as_secs_f64(),
        acts.table
    );
    if report.failures.is_empty()
        && let Err(stale) = check_doc(&paths, &report.table())
    {
        report.failures.push(stale);
    }
    let mut markdown = report.markdown(started.elapsed());
    let _ = write!(
        markdown,
        "\n## ACTS under our runner\n\nThe suite of `$A2A_SPEC_DIR/acts` under `a2a conformance` \
         ({:.0} s); docs/conformance.md keeps this table.\n\n{}",
        acts.elapsed.as_secs_f64(),
        acts.table
    );
    let report_path = paths.work.join("report.md");
    fs::write(&report_path, markdown).map_err(|e| format!("cannot write {report_path:?}: {e}"))?;
    eprintln!(
        "interop: report in {} ({:.0} s)",
        report_path.display(),
        started.elapsed().as_secs_f64()
    );
    if report.failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "interop: {} failure(s):\n  {}",
            report.failures.len(),
            report.failures.join("\n  ")
        ))
    }
}

/// How many agents run their cells at once: `A2A_INTEROP_JOBS`, default 2. Most of a cell's time
/// is spent waiting (on the agent's `slow` and `wait` tasks, on streams), so two agents side by
/// side take about half the time of one after another, also on two cores.
fn jobs() -> usize {
    std::env::var("A2A_INTEROP_JOBS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| *n > 0)
        .unwrap_or(2)
}

/// Starts one agent and runs its cells in [`CELLS`] order; each cell's output goes to stderr in
/// one piece, after it ran, so that agents running side by side do not mix their lines.
fn run_agent(paths: &Paths<'_>, built: &Built, agent: Agent) -> Vec<CellResult> {
    let cells: Vec<(Binding, Client)> = CELLS
        .iter()
        .filter(|(_, _, a)| a.name() == agent.name())
        .map(|(b, c, _)| (*b, *c))
        .collect();
    if cells.is_empty() {
        return Vec::new();
    }
    eprintln!("\n==> interop: starting the {} agent", agent.name());
    let server = match start_agent(paths, agent, &built.agent) {
        Ok(server) => server,
        Err(err) => {
            eprintln!("==> interop: {err}");
            return cells
                .into_iter()
                .map(|(binding, client)| CellResult::broken(binding, client, agent, err.clone()))
                .collect();
        }
    };
    let mut results = Vec::new();
    for (binding, client) in cells {
        let cell_started = Instant::now();
        let (result, lines) = run_cell(paths, built, binding, client, agent, &server.url);
        eprint!(
            "==> interop: {} client against the {} agent at {} over {} ({:.0} s)\n{lines}",
            client.name(),
            agent.name(),
            server.url,
            binding.protocol_binding(),
            cell_started.elapsed().as_secs_f64()
        );
        results.push(result);
    }
    results
}

/// Holds the matrix block of `docs/interop.md` to the matrix this run produced; with
/// `A2A_INTEROP_BLESS=1` in the environment, rewrites the block instead.
fn check_doc(paths: &Paths<'_>, table: &str) -> Result<(), String> {
    let path = paths.root.join(DOC);
    let text = fs::read_to_string(&path).map_err(|e| format!("cannot read {DOC}: {e}"))?;
    let (Some(begin), Some(end)) = (text.find(DOC_BEGIN), text.find(DOC_END)) else {
        return Err(format!("{DOC} has no `{DOC_BEGIN}` ... `{DOC_END}` block"));
    };
    let start = begin + DOC_BEGIN.len();
    if end < start {
        return Err(format!("{DOC}: the matrix markers are out of order"));
    }
    if text[start..end].trim() == table.trim() {
        return Ok(());
    }
    let fresh = paths.work.join("matrix.md");
    let _ = fs::write(&fresh, table);
    if std::env::var_os("A2A_INTEROP_BLESS").is_some() {
        let updated = format!("{}\n{}{}", &text[..start], table, &text[end..]);
        fs::write(&path, updated).map_err(|e| format!("cannot write {DOC}: {e}"))?;
        eprintln!("interop: rewrote the matrix in {DOC}");
        return Ok(());
    }
    Err(format!(
        "the matrix in {DOC} differs from this run's ({}); update it, or rerun with \
         A2A_INTEROP_BLESS=1",
        fresh.display()
    ))
}

// --- installs ------------------------------------------------------------------------------

/// Installs `tests/interop/<dir>/requirements.txt` into the venv `interop/<venv>`.
fn install_python(paths: &Paths<'_>, dir: &str, venv: &str) -> Result<(), String> {
    let requirements = paths
        .root
        .join("tests")
        .join("interop")
        .join(dir)
        .join("requirements.txt");
    let pins = fs::read_to_string(&requirements)
        .map_err(|e| format!("cannot read {requirements:?}: {e}"))?;
    let venv = paths.work.join(venv);
    let venv_python = venv.join("bin").join("python");
    let marker = venv.join(".a2a-interop-pins");
    if fs::read_to_string(&marker).is_ok_and(|m| m == pins) && venv_python.exists() {
        return Ok(());
    }
    eprintln!(
        "\n==> interop: installing the Python SDK into {}",
        venv.display()
    );
    if venv.exists() {
        fs::remove_dir_all(&venv).map_err(|e| format!("cannot remove {venv:?}: {e}"))?;
    }
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_owned());
    run_checked(
        Command::new(&python).arg("-m").arg("venv").arg(&venv),
        INSTALL_TIMEOUT,
        &format!("{python} -m venv (is python3 with the venv module installed?)"),
    )?;
    run_checked(
        Command::new(&venv_python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--no-input",
                "--no-deps",
                "-r",
            ])
            .arg(&requirements),
        INSTALL_TIMEOUT,
        &format!("pip install -r tests/interop/{dir}/requirements.txt"),
    )?;
    // --no-deps keeps the install to the pins; `pip check` proves the pins are complete.
    run_checked(
        Command::new(&venv_python).args(["-m", "pip", "check", "--disable-pip-version-check"]),
        INSTALL_TIMEOUT,
        "pip check (a dependency is missing from requirements.txt)",
    )?;
    fs::write(&marker, pins).map_err(|e| format!("cannot write {marker:?}: {e}"))
}

fn install_node(paths: &Paths<'_>) -> Result<(), String> {
    let js = paths.root.join("tests").join("interop").join("js");
    let lock = fs::read_to_string(js.join("package-lock.json"))
        .map_err(|e| format!("cannot read tests/interop/js/package-lock.json: {e}"))?;
    let manifest = fs::read_to_string(js.join("package.json"))
        .map_err(|e| format!("cannot read tests/interop/js/package.json: {e}"))?;
    // The scripts run from interop/, next to node_modules, so that Node resolves the SDK.
    for entry in fs::read_dir(&js).map_err(|e| format!("cannot list {js:?}: {e}"))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.extension().is_some_and(|x| x == "mjs") {
            let to = paths.work.join(path.file_name().expect("a file name"));
            fs::copy(&path, &to).map_err(|e| format!("cannot copy {path:?} to {to:?}: {e}"))?;
        }
    }
    let marker = paths.work.join("node_modules").join(".a2a-interop-pins");
    let pins = format!("{manifest}\n{lock}");
    if fs::read_to_string(&marker).is_ok_and(|m| m == pins) {
        return Ok(());
    }
    eprintln!(
        "\n==> interop: installing the JS SDK into {}",
        paths.work.join("node_modules").display()
    );
    fs::write(paths.work.join("package.json"), &manifest).map_err(|e| e.to_string())?;
    fs::write(paths.work.join("package-lock.json"), &lock).map_err(|e| e.to_string())?;
    let npm = std::env::var("NPM").unwrap_or_else(|_| "npm".to_owned());
    run_checked(
        Command::new(&npm)
            .args([
                "ci",
                "--no-audit",
                "--no-fund",
                "--loglevel=error",
                "--prefix",
            ])
            .arg(&paths.work),
        INSTALL_TIMEOUT,
        &format!("{npm} ci (are node >= 20 and npm installed?)"),
    )?;
    fs::write(&marker, pins).map_err(|e| format!("cannot write {marker:?}: {e}"))
}

/// The executables `cargo build` made.
struct Built {
    /// `interop_agent`, our agent.
    agent: PathBuf,
    /// `a2a`, our client.
    cli: PathBuf,
}

/// Builds `interop_agent` and `a2a`, and returns the paths of the executables cargo reports.
fn build_rust(paths: &Paths<'_>) -> Result<Built, String> {
    let targets = ["--example", "interop_agent", "--bin", "a2a"];
    eprintln!(
        "\n==> cargo {} {}",
        workspace::BUILD_ARGS.join(" "),
        targets.join(" ")
    );
    let mut command = paths.workspace.cargo_command();
    command
        .args(workspace::BUILD_ARGS)
        .args(targets)
        .stderr(Stdio::inherit());
    let output = run_capture(&mut command, BUILD_TIMEOUT, "cargo build")?;
    if !output.status.success() {
        return Err(format!(
            "cargo build of interop_agent and a2a failed ({})",
            output.status
        ));
    }
    let executable = |name: &str| workspace::built_executable(&output.stdout, name);
    Ok(Built {
        agent: executable("interop_agent")?,
        cli: executable("a2a")?,
    })
}

// --- processes -----------------------------------------------------------------------------

/// A child process that is killed (and reaped) when dropped.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits for the child until the deadline; kills it past the deadline (`None`).
fn wait_deadline(child: &mut Child, timeout: Duration) -> Result<Option<ExitStatus>, String> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            return Ok(Some(status));
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Runs a command with inherited output and a deadline; fails on a non-zero exit.
fn run_checked(command: &mut Command, timeout: Duration, what: &str) -> Result<(), String> {
    let child = command
        .stdin(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {what}: {e}"))?;
    let mut guard = Guard(child);
    match wait_deadline(&mut guard.0, timeout)? {
        Some(status) if status.success() => Ok(()),
        Some(status) => Err(format!("{what} failed ({status})")),
        None => Err(format!(
            "{what} did not finish within {} s",
            timeout.as_secs()
        )),
    }
}

struct Captured {
    status: ExitStatus,
    stdout: String,
}

/// Runs a command with a deadline, collecting its stdout (read on a thread so a full pipe
/// never blocks the child).
fn run_capture(command: &mut Command, timeout: Duration, what: &str) -> Result<Captured, String> {
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {what}: {e}"))?;
    let mut guard = Guard(child);
    let mut stdout = guard.0.stdout.take().expect("stdout is piped");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let status = wait_deadline(&mut guard.0, timeout)?;
    let stdout = reader.join().unwrap_or_default();
    match status {
        Some(status) => Ok(Captured { status, stdout }),
        None => Err(format!(
            "{what} did not finish within {} s; its output:\n{stdout}",
            timeout.as_secs()
        )),
    }
}

/// A running agent.
struct Server {
    url: String,
    _guard: Guard,
}

fn start_agent(paths: &Paths<'_>, agent: Agent, rust_agent: &Path) -> Result<Server, String> {
    let command = match agent {
        Agent::Rust => Command::new(rust_agent),
        Agent::Python => {
            let mut c = Command::new(&paths.venv_python);
            c.arg("-u")
                .arg(paths.root.join("tests/interop/python/agent.py"));
            c
        }
        Agent::Js => {
            let mut c = Command::new(node());
            c.arg(paths.work.join("agent.mjs"));
            c
        }
        Agent::PythonCompat => {
            let mut c = Command::new(&paths.venv_python);
            c.arg("-u")
                .arg(paths.root.join("tests/interop/python/agent.py"))
                .env("A2A_INTEROP_LEGACY", "1");
            c
        }
        Agent::JsCompat => {
            let mut c = Command::new(node());
            c.arg(paths.work.join("agent.mjs"))
                .env("A2A_INTEROP_LEGACY", "1");
            c
        }
        Agent::PythonV03 => {
            let mut c = Command::new(&paths.venv_v03_python);
            c.arg("-u")
                .arg(paths.root.join("tests/interop/python_v0_3/agent.py"));
            c
        }
    };
    launch(paths, command, "127.0.0.1:0", agent.name())
}

/// Starts an agent (`command`, with `listen` as its last argument) and reads its URL from the
/// first line of its stdout; the rest of its output goes to `logs/agent-NAME.log`.
fn launch(
    paths: &Paths<'_>,
    mut command: Command,
    listen: &str,
    name: &str,
) -> Result<Server, String> {
    let log_path = paths.work.join("logs").join(format!("agent-{name}.log"));
    let log =
        fs::File::create(&log_path).map_err(|e| format!("cannot create {log_path:?}: {e}"))?;
    let log_err = log.try_clone().map_err(|e| e.to_string())?;
    let child = command
        .arg(listen)
        .current_dir(&paths.work)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(log_err))
        .spawn()
        .map_err(|e| format!("cannot start the {name} agent: {e}"))?;
    let mut guard = Guard(child);
    let stdout = guard.0.stdout.take().expect("stdout is piped");
    let (tx, rx) = mpsc::channel();
    // The first line names the URL; the rest goes to the log until the agent exits.
    std::thread::spawn(move || {
        use std::io::Write as _;
        let mut lines = BufReader::new(stdout).lines();
        let first = lines.next().and_then(Result::ok);
        let _ = tx.send(first);
        let mut log = log;
        for line in lines.map_while(Result::ok) {
            let _ = writeln!(log, "{line}");
        }
    });
    let first = rx
        .recv_timeout(START_TIMEOUT)
        .map_err(|_| {
            format!(
                "the {name} agent printed no URL within {} s (log: {})",
                START_TIMEOUT.as_secs(),
                log_path.display()
            )
        })?
        .ok_or_else(|| {
            format!(
                "the {name} agent exited before printing its URL (log: {})",
                log_path.display()
            )
        })?;
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .map(|w| w.trim_end_matches('/').to_owned())
        .ok_or_else(|| format!("no URL in the {name} agent's first line: {first}"))?;
    Ok(Server { url, _guard: guard })
}

fn node() -> String {
    std::env::var("NODE").unwrap_or_else(|_| "node".to_owned())
}

/// The push suite (`tests/interop/python/push_scenarios.py`, docs/push.md): the Python SDK's
/// push-config calls against `a2a serve` with push delivery on, and our deliveries read with the
/// SDK's types by a receiver in the script. Returns the failures.
fn run_push(paths: &Paths<'_>, built: &Built) -> Vec<String> {
    eprintln!("\n==> interop: push, the python client against `a2a serve --push`");
    let mut command = Command::new(&built.cli);
    command.args([
        "serve",
        "--push-allow",
        "127.0.0.1",
        "--push-sign",
        "--exec",
        "sleep 1; cat",
        "--addr",
    ]);
    let server = match launch(paths, command, "127.0.0.1:0", "rust-push") {
        Ok(server) => server,
        Err(err) => return vec![format!("[push] {err}")],
    };
    scripted(
        paths,
        "push",
        "client-python-push.log",
        "tests/interop/python/push_scenarios.py",
        std::ffi::OsStr::new(&server.url),
    )
}

/// Signed agent cards against the Python SDK's signing utilities, both ways:
/// `tests/interop/python/card_signing.py` signs cards that `a2a card get --card-jwks
/// --require-signature` must verify, and verifies the cards `a2a serve --card-key` signs (each
/// with ES256, EdDSA and RS256 keys, and refusing a tampered card). Returns the failures.
fn run_card_signing(paths: &Paths<'_>, built: &Built) -> Vec<String> {
    eprintln!("\n==> interop: signed cards, the python SDK against `a2a card get` and `a2a serve`");
    scripted(
        paths,
        "card signing",
        "card-signing.log",
        "tests/interop/python/card_signing.py",
        built.cli.as_os_str(),
    )
}

/// `a2a inspect` in a browser against the Python SDK agent: the ignored test of
/// `crates/a2a-cli/tests/inspect.rs`, given the venv's python. The same `--workspace
/// --all-features` build as the test step's, so nothing is compiled again.
fn run_inspect(paths: &Paths<'_>) -> Vec<String> {
    eprintln!("\n==> interop: `a2a inspect` in a browser against the python SDK agent");
    let log_path = paths.work.join("logs").join("inspect.log");
    let stderr = fs::File::create(&log_path).map_or_else(|_| Stdio::null(), Stdio::from);
    let mut command = paths.workspace.cargo_command();
    command
        .args(["test", "--workspace", "--all-features", "--locked"])
        .args(["--test", "inspect", "--", "--ignored"])
        .env("A2A_INTEROP_PYTHON", &paths.venv_python)
        .stderr(stderr);
    match run_capture(&mut command, BUILD_TIMEOUT, "the inspector's browser test") {
        Ok(captured) if captured.status.success() => {
            eprintln!("    PASS inspect_python_sdk_agent");
            Vec::new()
        }
        Ok(captured) => vec![format!(
            "[inspect] the browser test against the python SDK agent failed ({}; cargo's \
             output in {}):\n{}",
            captured.status,
            log_path.display(),
            captured.stdout
        )],
        Err(err) => vec![format!("[inspect] {err}")],
    }
}

/// Runs one of the Python scenario scripts (`script`, under the root) with `arg`, its stderr in
/// `logs/<log>`, and reads its `PASS name` / `FAIL name: why` lines. Returns the failures, each
/// prefixed with `[label]`; a script that reports nothing, or exits with an error without a
/// `FAIL` line, is a failure too.
fn scripted(
    paths: &Paths<'_>,
    label: &str,
    log: &str,
    script: &str,
    arg: &std::ffi::OsStr,
) -> Vec<String> {
    let log_path = paths.work.join("logs").join(log);
    let stderr = fs::File::create(&log_path).map_or_else(|_| Stdio::null(), Stdio::from);
    let mut command = Command::new(&paths.venv_python);
    command
        .arg("-u")
        .arg(paths.root.join(script))
        .arg(arg)
        .current_dir(&paths.work)
        .stderr(stderr);
    let captured = match run_capture(
        &mut command,
        CELL_TIMEOUT,
        &format!("the {label} scenarios"),
    ) {
        Ok(captured) => captured,
        Err(err) => return vec![format!("[{label}] {err}")],
    };
    let mut failures = Vec::new();
    let mut reported = 0;
    for line in captured.stdout.lines() {
        if line.starts_with("PASS ") {
            reported += 1;
            eprintln!("    {line}");
        } else if let Some(rest) = line.strip_prefix("FAIL ") {
            reported += 1;
            eprintln!("    {line}");
            failures.push(format!("[{label}] {rest}"));
        }
    }
    if reported == 0 || (!captured.status.success() && failures.is_empty()) {
        failures.push(format!(
            "[{label}] the scenarios reported {reported} scenario(s) and exited with {} \
             (stderr in {})",
            captured.status,
            log_path.display()
        ));
    }
    failures
}

// --- cells and the report ------------------------------------------------------------------

/// What one scenario did in one cell.
#[derive(Clone, PartialEq, Eq)]
enum Outcome {
    Pass,
    Fail(String),
    /// The client cannot express the scenario (the reason is in the script's line).
    Skip,
}

/// One client script against one agent over one binding.
struct CellResult {
    binding: Binding,
    client: &'static str,
    agent: &'static str,
    /// In the order the script printed them.
    scenarios: Vec<(String, Outcome)>,
    /// Why the cell as a whole is broken (no output, timeout, a crash after some lines).
    broken: Option<String>,
}

impl CellResult {
    fn broken(binding: Binding, client: Client, agent: Agent, why: String) -> Self {
        Self {
            binding,
            client: client.name(),
            agent: agent.name(),
            scenarios: Vec::new(),
            broken: Some(why),
        }
    }

    fn get(&self, scenario: &str) -> Option<&Outcome> {
        self.scenarios
            .iter()
            .find(|(name, _)| name == scenario)
            .map(|(_, outcome)| outcome)
    }

    /// The column's header in its binding's table.
    fn column(&self) -> String {
        format!("{} → {}", self.client, self.agent)
    }

    /// The cell's name in failures and notes: the column and the binding.
    fn label(&self) -> String {
        format!("{} over {}", self.column(), self.binding.protocol_binding())
    }

    fn known(&self, list: &[Known], scenario: &str) -> Option<&'static str> {
        list.iter()
            .find(|(b, c, a, s, _)| {
                *b == self.binding.protocol_binding()
                    && *c == self.client
                    && *a == self.agent
                    && *s == scenario
            })
            .map(|(_, _, _, _, id)| *id)
    }
}

/// Runs one client script against one agent: the cell's result, and the scenario lines it
/// printed (for stderr).
fn run_cell(
    paths: &Paths<'_>,
    built: &Built,
    binding: Binding,
    client: Client,
    agent: Agent,
    url: &str,
) -> (CellResult, String) {
    let mut command = match client {
        Client::Python => {
            let mut c = Command::new(&paths.venv_python);
            c.arg("-u")
                .arg(paths.root.join("tests/interop/python/client_scenarios.py"));
            c
        }
        Client::Js => {
            let mut c = Command::new(node());
            c.arg(paths.work.join("client_scenarios.mjs"));
            c
        }
        Client::PythonV03 => {
            let mut c = Command::new(&paths.venv_python);
            c.arg("-u").arg(
                paths
                    .root
                    .join("tests/interop/python/client_scenarios_v0_3.py"),
            );
            c
        }
        Client::JsV03 => {
            let mut c = Command::new(node());
            c.arg(paths.work.join("client_scenarios_v0_3.mjs"));
            c
        }
        Client::Rust | Client::RustV03 => {
            let mut c = Command::new(&paths.venv_python);
            c.arg("-u")
                .arg(paths.root.join("tests/interop/rust/cli_scenarios.py"));
            if matches!(client, Client::RustV03) {
                c.env("A2A_INTEROP_A2A_VERSION", "0.3");
            }
            c
        }
    };
    // Every script takes `--binding B`, then (ours) the `a2a` command, then the agent's URL.
    command.args(binding.script_args());
    if let Client::Rust | Client::RustV03 = client {
        command.arg(&built.cli);
    }
    let log_path = paths.work.join("logs").join(format!(
        "client-{}-{}-{}.log",
        client.name(),
        agent.name(),
        binding
            .protocol_binding()
            .replace('+', "-")
            .to_ascii_lowercase()
    ));
    let stderr = match fs::File::create(&log_path) {
        Ok(file) => Stdio::from(file),
        Err(_) => Stdio::null(),
    };
    command.arg(url).current_dir(&paths.work).stderr(stderr);
    let what = format!(
        "the {} client against the {} agent over {}",
        client.name(),
        agent.name(),
        binding.protocol_binding()
    );
    let captured = match run_capture(&mut command, CELL_TIMEOUT, &what) {
        Ok(captured) => captured,
        Err(err) => {
            let lines = format!("    {err}\n");
            return (CellResult::broken(binding, client, agent, err), lines);
        }
    };
    let mut scenarios = Vec::new();
    let mut lines = String::new();
    for line in captured.stdout.lines() {
        if let Some(name) = line.strip_prefix("PASS ") {
            scenarios.push((name.trim().to_owned(), Outcome::Pass));
        } else if let Some(rest) = line.strip_prefix("FAIL ") {
            let (name, reason) = rest.split_once(": ").unwrap_or((rest, "failed"));
            scenarios.push((name.trim().to_owned(), Outcome::Fail(reason.to_owned())));
        } else if let Some(rest) = line.strip_prefix("SKIP ") {
            let name = rest.split_once(": ").map_or(rest, |(name, _)| name);
            scenarios.push((name.trim().to_owned(), Outcome::Skip));
        } else {
            continue;
        }
        let _ = writeln!(lines, "    {line}");
    }
    let any_failed = scenarios.iter().any(|(_, o)| matches!(o, Outcome::Fail(_)));
    let broken = if scenarios.is_empty() {
        Some(format!(
            "{what} reported no scenario ({}; stderr in {})",
            captured.status,
            log_path.display()
        ))
    } else if !captured.status.success() && !any_failed {
        Some(format!(
            "{what} exited with {} after its scenarios (stderr in {})",
            captured.status,
            log_path.display()
        ))
    } else {
        None
    };
    if let Some(why) = &broken {
        let _ = writeln!(lines, "    {why}");
    }
    let result = CellResult {
        binding,
        client: client.name(),
        agent: agent.name(),
        scenarios,
        broken,
    };
    (result, lines)
}

/// The matrix: one table per binding, one row per scenario, one column per cell; and the
/// failures that fail the run.
struct Report<'a> {
    results: &'a [CellResult],
    known: &'a [Known],
    scenarios: Vec<String>,
    failures: Vec<String>,
    notes: Vec<String>,
}

/// A known divergence: `(binding, client, agent, scenario, divergence)`.
type Known = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

impl<'a> Report<'a> {
    fn new(results: &'a [CellResult]) -> Self {
        Self::with_known(results, KNOWN)
    }

    /// The report with this list of known divergences.
    fn with_known(results: &'a [CellResult], known_list: &'a [Known]) -> Self {
        // The scripts' order (the first cell's), then any scenario only later cells printed.
        let mut ordered: Vec<String> = Vec::new();
        for r in results {
            for (name, _) in &r.scenarios {
                if !ordered.contains(name) {
                    ordered.push(name.clone());
                }
            }
        }
        let mut failures = Vec::new();
        let mut notes = Vec::new();
        for r in results {
            if let Some(why) = &r.broken {
                failures.push(format!("[{}] {why}", r.label()));
            }
            for scenario in &ordered {
                match (r.get(scenario), r.known(known_list, scenario)) {
                    (Some(Outcome::Pass), Some(id)) => failures.push(format!(
                        "[{}] {scenario} passes but is listed as known divergence {id}: \
                         remove it from KNOWN in xtask/src/interop.rs and update docs/interop.md",
                        r.label()
                    )),
                    (Some(Outcome::Fail(reason)), Some(id)) => {
                        notes.push(format!("[{}] {scenario} (known {id}): {reason}", r.label()));
                    }
                    (Some(Outcome::Fail(reason)), None) => {
                        failures.push(format!("[{}] {scenario}: {reason}", r.label()));
                    }
                    (None, _) if r.broken.is_none() => failures.push(format!(
                        "[{}] {scenario}: not reported by this client",
                        r.label()
                    )),
                    _ => {}
                }
            }
        }
        Self {
            results,
            known: known_list,
            scenarios: ordered,
            failures,
            notes,
        }
    }

    fn cell(&self, r: &CellResult, scenario: &str) -> String {
        match (r.get(scenario), r.known(self.known, scenario)) {
            (Some(Outcome::Pass), None) => "PASS".to_owned(),
            (Some(Outcome::Pass), Some(id)) => format!("XPASS {id}"),
            (Some(Outcome::Fail(_)), Some(id)) => format!("XFAIL {id}"),
            (Some(Outcome::Fail(_)), None) => "FAIL".to_owned(),
            (Some(Outcome::Skip), _) => "n/a".to_owned(),
            (None, _) if r.broken.is_some() => "BROKEN".to_owned(),
            (None, _) => "—".to_owned(),
        }
    }

    /// The results in tables: one per binding, in the order the results have them.
    fn tables(&self) -> Vec<(Binding, Vec<&'a CellResult>)> {
        let mut tables: Vec<(Binding, Vec<&'a CellResult>)> = Vec::new();
        for r in self.results {
            match tables.iter_mut().find(|(b, _)| *b == r.binding) {
                Some((_, cells)) => cells.push(r),
                None => tables.push((r.binding, vec![r])),
            }
        }
        tables
    }

    /// The rows of one table, the header first.
    fn rows(&self, cells: &[&CellResult]) -> Vec<Vec<String>> {
        let mut header = vec!["scenario".to_owned()];
        header.extend(cells.iter().map(|r| r.column()));
        let mut rows = vec![header];
        for scenario in &self.scenarios {
            let mut row = vec![scenario.clone()];
            row.extend(cells.iter().map(|r| self.cell(r, scenario)));
            rows.push(row);
        }
        rows
    }

    fn text_matrix(&self) -> String {
        let mut out = String::new();
        for (binding, cells) in self.tables() {
            let _ = writeln!(out, "{}:", binding.title());
            let rows = self.rows(&cells);
            let widths: Vec<usize> = (0..rows[0].len())
                .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
                .collect();
            for row in &rows {
                for (i, cell) in row.iter().enumerate() {
                    let pad = widths[i] - cell.chars().count();
                    let _ = write!(out, "{cell}{}  ", " ".repeat(pad));
                }
                out.push('\n');
            }
            out.push('\n');
        }
        for note in PENDING_NOTES {
            let _ = writeln!(out, "pending: {note}");
        }
        out
    }

    /// The matrix as markdown: per binding its title, then a table with one column per cell in
    /// [`CELLS`] order.
    fn table(&self) -> String {
        let mut out = String::new();
        for (binding, cells) in self.tables() {
            if !out.is_empty() {
                out.push('\n');
            }
            let _ = writeln!(out, "**{}**\n", binding.title());
            let rows = self.rows(&cells);
            for (i, row) in rows.iter().enumerate() {
                let (name, outcomes) = row.split_first().expect("a row has a scenario");
                if i == 0 {
                    let _ = write!(out, "| {name} |");
                } else {
                    let _ = write!(out, "| `{name}` |");
                }
                for outcome in outcomes {
                    let _ = write!(out, " {outcome} |");
                }
                out.push('\n');
                if i == 0 {
                    out.push_str(&"|---".repeat(row.len()));
                    out.push_str("|\n");
                }
            }
        }
        out
    }

    fn markdown(&self, elapsed: Duration) -> String {
        let mut out = String::from(
            "# Interop report\n\nWritten by `cargo xtask interop`; `docs/interop.md` explains it. \
             Columns are `client → agent`.\n\n",
        );
        out.push_str(&self.table());
        out.push_str("\nPending:\n\n");
        for note in PENDING_NOTES {
            let _ = writeln!(out, "- {note}");
        }
        if !self.notes.is_empty() {
            out.push_str("\nKnown divergences seen:\n\n");
            for note in &self.notes {
                let _ = writeln!(out, "- {note}");
            }
        }
        if self.failures.is_empty() {
            out.push_str("\nResult: **green**.\n");
        } else {
            out.push_str("\nFailures:\n\n");
            for failure in &self.failures {
                let _ = writeln!(out, "- {failure}");
            }
        }
        let _ = writeln!(out, "\nTook {:.0} s.", elapsed.as_secs_f64());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(
        binding: Binding,
        client: &'static str,
        agent: &'static str,
        lines: &[(&str, bool)],
    ) -> CellResult {
        CellResult {
            binding,
            client,
            agent,
            scenarios: lines
                .iter()
                .map(|(name, pass)| {
                    let outcome = if *pass {
                        Outcome::Pass
                    } else {
                        Outcome::Fail("why".to_owned())
                    };
                    ((*name).to_owned(), outcome)
                })
                .collect(),
            broken: None,
        }
    }

    #[test]
    fn a_known_divergence_is_xfail_while_it_fails_and_a_failure_once_it_passes() {
        let list: &[Known] = &[("HTTP+JSON", "python", "rust", "multi_turn_stream", "D1")];
        let failing = [
            cell(
                Binding::Rest,
                "python",
                "rust",
                &[("multi_turn_stream", false)],
            ),
            // The same cell over another binding is not the known divergence.
            cell(
                Binding::JsonRpc,
                "python",
                "rust",
                &[("multi_turn_stream", false)],
            ),
        ];
        let report = Report::with_known(&failing, list);
        assert_eq!(
            report.failures,
            ["[python → rust over JSONRPC] multi_turn_stream: why"]
        );
        assert_eq!(report.cell(&failing[0], "multi_turn_stream"), "XFAIL D1");
        assert_eq!(report.cell(&failing[1], "multi_turn_stream"), "FAIL");
        let passing = [cell(
            Binding::Rest,
            "python",
            "rust",
            &[("multi_turn_stream", true)],
        )];
        let report = Report::with_known(&passing, list);
        assert_eq!(report.failures.len(), 1);
        assert!(report.failures[0].contains("remove it from KNOWN"));
        assert_eq!(report.cell(&passing[0], "multi_turn_stream"), "XPASS D1");
    }

    #[test]
    fn failures_missing_scenarios_and_broken_cells_fail_the_run() {
        let broken = CellResult::broken(Binding::Rest, Client::Js, Agent::Js, "no URL".to_owned());
        let results = [
            cell(
                Binding::JsonRpc,
                "python",
                "rust",
                &[("a", true), ("b", false)],
            ),
            cell(Binding::JsonRpc, "js", "rust", &[("a", true)]),
            broken,
        ];
        let report = Report::new(&results);
        assert_eq!(
            report.failures,
            [
                "[python → rust over JSONRPC] b: why",
                "[js → rust over JSONRPC] b: not reported by this client",
                "[js → js over HTTP+JSON] no URL",
            ]
        );
        assert_eq!(report.cell(&results[2], "a"), "BROKEN");
    }

    #[test]
    fn each_binding_has_its_table_with_one_column_per_cell_and_skips_are_not_applicable() {
        let mut skipped = cell(Binding::JsonRpc, "rust", "js", &[("a", true), ("b", true)]);
        skipped.scenarios[0].1 = Outcome::Skip;
        let results = [
            cell(
                Binding::JsonRpc,
                "python",
                "rust",
                &[("a", true), ("b", true)],
            ),
            skipped,
            cell(Binding::Rest, "python", "rust", &[("a", true), ("b", true)]),
        ];
        let report = Report::new(&results);
        assert!(report.failures.is_empty(), "{:?}", report.failures);
        assert_eq!(
            report.table(),
            "**JSON-RPC, A2A 1.0**\n\n\
             | scenario | python → rust | rust → js |\n\
             |---|---|---|\n\
             | `a` | PASS | n/a |\n\
             | `b` | PASS | PASS |\n\
             \n\
             **HTTP+JSON (REST), A2A 1.0**\n\n\
             | scenario | python → rust |\n\
             |---|---|\n\
             | `a` | PASS |\n\
             | `b` | PASS |\n"
        );
    }
}
