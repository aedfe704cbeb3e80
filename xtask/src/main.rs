//! `cargo xtask`: the workspace's automation.
//!
//! ```text
//! cargo xtask ci                     fmt check, clippy -D warnings, every test (unit, integration,
//!                                    doc), rustdoc -D warnings, schema --check, conformance
//! cargo xtask schema [--check]       write (or check) schema/a2a-v1.json, a2a-v0.3.json, a2a-v0.1.json
//! cargo xtask conformance [--spec-dir DIR]
//!                                    hold our types against the spec (A2A_SPEC_DIR, ../shared/spec)
//! ```
//!
//! Each `ci` step prints the command it runs; the first failing step stops the run with its exit
//! code. `docs/conformance.md` explains `schema` and `conformance`.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

mod bench;
mod conformance;
mod diff;
mod interop;
mod schema;
mod types;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("schema") => match &args[1..] {
            [] => schema::run(&project_root(), false),
            [flag] if flag == "--check" => schema::run(&project_root(), true),
            [other, ..] => Err(format!("schema: unknown argument `{other}`\n\n{USAGE}")),
        },
        Some("conformance") => conformance::main(&project_root(), &args[1..]),
        Some("interop") => interop::run(),
        Some("bench") => bench::run(&args[1..]),
        Some("help" | "--help" | "-h") | None => {
            eprintln!("{USAGE}");
            return if args.is_empty() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            };
        }
        Some(other) => Err(format!("unknown xtask `{other}`\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

const USAGE: &str = "usage: cargo xtask <task>

tasks:
  ci                        the whole test suite: fmt --check, clippy -D warnings, tests and doc
                            tests, rustdoc, schema --check, conformance, interop
  schema [--check]          write schema/a2a-v1.json, a2a-v0.3.json and a2a-v0.1.json from the
                            schemars derives; --check fails when the committed files drift
  conformance [--spec-dir DIR]
                            hold our types and fixtures against the spec files in DIR (default:
                            $A2A_SPEC_DIR, else ../shared/spec); report in
                            target/conformance/report.md; see docs/conformance.md
  interop                   the Python and JS SDKs against our server and our client; pinned
                            installs in target/interop; see docs/interop.md
  bench [ARGS]              load, streaming and memory benchmarks against a raw hyper floor and
                            the SDKs (not part of ci); see docs/benchmarks.md";

/// The workspace root, derived from this crate's manifest directory.
fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

/// Runs `cargo <args>` at the workspace root with extra environment, failing on a non-zero exit.
fn cargo(args: &[&str], env: &[(&str, &str)]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    eprintln!("\n==> cargo {}", args.join(" "));
    let status = Command::new(&cargo)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(project_root())
        .status()
        .map_err(|e| format!("cannot start {cargo}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`cargo {}` failed ({status})", args.join(" ")))
    }
}

/// The one test command of the workspace.
fn ci() -> Result<(), String> {
    cargo(&["fmt", "--all", "--check"], &[])?;
    cargo(
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
        &[],
    )?;
    cargo(
        &[
            "test",
            "--workspace",
            "--all-targets",
            "--all-features",
            "--locked",
        ],
        &[],
    )?;
    cargo(
        &["test", "--workspace", "--doc", "--all-features", "--locked"],
        &[],
    )?;
    cargo(
        &[
            "doc",
            "--workspace",
            "--no-deps",
            "--all-features",
            "--locked",
        ],
        &[("RUSTDOCFLAGS", "-D warnings")],
    )?;
    let root = project_root();
    eprintln!("\n==> cargo xtask schema --check");
    schema::run(&root, true)?;
    eprintln!("\n==> cargo xtask conformance");
    conformance::main(&root, &[])?;
    eprintln!("\n==> cargo xtask interop");
    interop::run()?;
    eprintln!("\nxtask ci: all steps passed");
    Ok(())
}
