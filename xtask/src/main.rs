//! `cargo xtask`: the workspace's automation. `cargo xtask --help` lists the tasks.
//!
//! This binary has no dependencies, so that it builds in a second or two on a fresh clone. The
//! tasks that need jsonschema, protox or `a2a-types` (`schema`, `conformance`) live in the
//! `xtask-spec` package, which it builds (with the feature set of the test step, see
//! [`workspace::BUILD_ARGS`]) and runs.
//!
//! The workspace root and cargo's target directory are found at run time ([`Workspace`]), never
//! from this crate's compile-time manifest folder: a binary built for one checkout must not run
//! in another one's folder. `cargo xtask ci` (see [`ci`]) first checks that the A2A spec files
//! are there, then runs its steps.

use std::io::Write as _;
use std::process::{ExitCode, Stdio};

use xtask::spec::{self, SpecDir};
use xtask::{Workspace, workspace};

mod api;
mod bench;
mod checks;
mod ci;
mod interop;
mod members;
mod run;
mod soak;

/// The tasks that run in `xtask-spec` (`xtask-spec <task> ...`, built by [`spec_task`]).
const SPEC_TASKS: &[&str] = &["schema", "codegen", "conformance"];

fn main() -> ExitCode {
    // Run by cargo as `RUSTDOC` for `cargo xtask api`: rustdoc, with unstable options allowed.
    if let Some(real) = std::env::var_os(api::RUSTDOC_ENV) {
        return api::wrap_rustdoc(&real);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let task = args.first().map(String::as_str);
    let run = |f: &dyn Fn(&Workspace) -> Result<ExitCode, String>| {
        Workspace::discover().and_then(|workspace| f(&workspace))
    };
    let result = match task {
        None => {
            eprintln!("{}", usage());
            return ExitCode::FAILURE;
        }
        Some("help" | "--help" | "-h") => {
            eprintln!("{}", usage());
            return ExitCode::SUCCESS;
        }
        Some("ci") => run(&|ws| ci::run(ws, &args[1..]).map(|()| ExitCode::SUCCESS)),
        Some(name) if SPEC_TASKS.contains(&name) => run(&|ws| spec_task(ws, &args)),
        Some("interop") => run(&|ws| interop::run(ws, &args[1..]).map(|()| ExitCode::SUCCESS)),
        Some("bench") => run(&|ws| bench::run(ws, &args[1..]).map(|()| ExitCode::SUCCESS)),
        Some("soak") => run(&|ws| soak::run(ws, &args[1..]).map(|()| ExitCode::SUCCESS)),
        Some("paths") => run(&|ws| paths(ws).map(|()| ExitCode::SUCCESS)),
        Some("features") => run(&|ws| checks::features(ws).map(|()| ExitCode::SUCCESS)),
        Some("rustdoc") => run(&|ws| checks::rustdoc(ws).map(|()| ExitCode::SUCCESS)),
        Some("api") => run(&|ws| api::run(ws).map(|()| ExitCode::SUCCESS)),
        Some("msrv") => run(&|ws| checks::msrv(ws).map(|()| ExitCode::SUCCESS)),
        Some("package") => run(&|ws| checks::package(ws).map(|()| ExitCode::SUCCESS)),
        Some(other) => Err(format!(
            "unknown task `{other}` (`cargo xtask --help` lists them)"
        )),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> String {
    let files: Vec<&str> = spec::FILES.iter().map(|f| f.path).collect();
    format!(
        "usage: cargo xtask <task> [ARGS]

tasks:
  ci [--verbose] [--fail-fast] [--step NAME]...
                 the whole test suite: fmt --check, clippy -D warnings, unit, integration and doc
                 tests, features, rustdoc, api, msrv, package, schema --check, codegen --check,
                 conformance, interop. Checks the spec files first. Prints one line per step on
                 stdout (and a heartbeat line every 30 s of a long step); a failing step's
                 output is printed from its log (<target dir>/xtask/ci/<step>.log). --verbose
                 (or A2A_XTASK_VERBOSE=1) streams every step's output; --fail-fast stops at the
                 first failing step; --step NAME runs only that step (repeatable)
  features       every published library checked with no features, its defaults, all, and
                 each feature alone, without a warning (cargo hack check --each-feature
                 --no-dev-deps; cargo-hack {hack} is installed into <target dir>/tools)
  rustdoc        the docs with -D warnings: the workspace with every feature, then each
                 published library alone with its default features
  api            no external type in a library's public API but those listed in its
                 [package.metadata.cargo_check_external_types] (rustdoc JSON)
  msrv           no dependency in Cargo.lock declares a newer rust-version than the workspace
  package        cargo package of every published crate, each built from its .crate file
  schema [--check]
                 write schema/a2a-v1.json, a2a-v0.3.json and a2a-v0.1.json from the schemars
                 derives; --check fails when the committed files drift
  codegen [--check]
                 write crates/a2a-grpc/src/generated/lf.a2a.v1.rs (the gRPC messages, client and
                 server) from the spec's v1.0/a2a.proto, with protox and tonic-prost-build (no
                 protoc); --check fails when the committed file drifts or its field numbers,
                 names or enum values differ from the proto
  conformance [--spec-dir DIR]
                 hold our types and fixtures against the spec files (in DIR, else the spec
                 folder below); report in <target dir>/conformance/report.md
  interop [--acts]
                 the Python and JS SDKs against our server and our client, and the ACTS suite
                 under our runner against the Python SDK's ACTS agent and ours; pinned installs
                 in <target dir>/interop; see docs/interop.md. --acts: the ACTS runs alone
  bench [ARGS]   load, streaming and memory benchmarks against the JSON floor, the raw floor
                 and the SDKs (not part of ci; --help lists ARGS); see docs/benchmarks.md
  soak [--secs N] [--settle N] [--store-cuts]
                 the server under a mixed hostile load for N seconds (default 60; not part of
                 ci): RSS, descriptors and CPU at the start, during and after, and a verdict
                 against budgets; --store-cuts: on PostgreSQL behind a fault proxy that cuts
                 it, no task lost or left unfinished; see docs/benchmarks.md (Soak)
  paths          print the workspace root, target directory, spec folder and cargo in use

the spec files:
  {env} names the folder holding the A2A spec files (default {default}, from the
  workspace root; a relative path is taken from the current directory). ci, conformance and
  the a2a-tests schema tests read {files}. They come from
  github.com/a2aproject/A2A; docs/conformance.md says how to fetch them.

environment:
  {env}        the spec folder (above)
  CARGO_TARGET_DIR    cargo's target directory; xtask writes its logs and reports under it
  A2A_XTASK_VERBOSE   1: `ci` streams every step's output
  A2A_INTEROP_BLESS, PYTHON, NODE, NPM: see docs/interop.md",
        env = spec::ENV,
        default = spec::DEFAULT,
        hack = checks::CARGO_HACK_VERSION,
        files = files.join(", "),
    )
}

/// Builds `xtask-spec` and runs it with `args`, after checking the spec folder when the task
/// reads it (so that a missing spec says so before xtask-spec is compiled).
fn spec_task(workspace: &Workspace, args: &[String]) -> Result<ExitCode, String> {
    let reads_spec = args[0] == "codegen" || args[0] == "conformance";
    let spec_dir = if reads_spec && !args.iter().any(|a| a == "--spec-dir") {
        Some(SpecDir::locate(&workspace.root)?.path)
    } else {
        None
    };
    let cannot = |e: std::io::Error| {
        let cargo = std::path::Path::new(&workspace.cargo);
        format!("cannot start {}: {e}", cargo.display())
    };
    let build = workspace
        .cargo_command()
        .args(workspace::BUILD_ARGS)
        .args(["--quiet", "--bin", "xtask-spec"])
        .stderr(Stdio::inherit())
        .output()
        .map_err(cannot)?;
    if !build.status.success() {
        return Err(format!(
            "cargo build of xtask-spec failed ({})",
            build.status
        ));
    }
    let stdout = String::from_utf8_lossy(&build.stdout);
    let exe = workspace::built_executable(&stdout, "xtask-spec")?;
    let mut command = workspace.command(&exe);
    if let Some(dir) = spec_dir {
        command.env(spec::ENV, dir);
    }
    let status = command
        .args(args)
        .status()
        .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
    // xtask-spec has printed its own error; pass its exit code on.
    Ok(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        None => ExitCode::FAILURE,
    })
}

/// `cargo xtask paths`: what the tasks would use, one `name value` line each, on stdout.
fn paths(workspace: &Workspace) -> Result<(), String> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| workspace.root.clone());
    let dir = SpecDir::resolve(&workspace.root, std::env::var_os(spec::ENV), &cwd);
    let status = match dir.check() {
        Ok(()) => "ok".to_owned(),
        Err(e) => e,
    };
    let text = format!(
        "root    {}\ntarget  {}\nspec    {}\nspec-ok {}\ncargo   {}\n",
        workspace.root.display(),
        workspace.target_dir.display(),
        dir.path.display(),
        status,
        std::path::Path::new(&workspace.cargo).display()
    );
    std::io::stdout()
        .write_all(text.as_bytes())
        .map_err(|e| format!("cannot write to stdout: {e}"))
}
