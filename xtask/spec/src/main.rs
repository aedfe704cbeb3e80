//! `xtask-spec`: the tasks of `cargo xtask` that need jsonschema, protox, the gRPC code generator
//! and the schemars derives of `a2a-types`. `cargo xtask schema` and `cargo xtask conformance` build this binary (with the
//! workspace's feature set, so that after `cargo test --workspace --all-features` only this
//! crate is compiled) and run it, so that `cargo xtask` itself builds in seconds.
//!
//! ```text
//! xtask-spec schema [--check]              write (or check) schema/a2a-v1.json, a2a-v0.3.json,
//!                                          a2a-v0.1.json
//! xtask-spec codegen [--check]             write (or check) crates/a2a-grpc/src/generated/, the
//!                                          gRPC code generated from the 1.1 draft's
//!                                          a2a.proto (held to v1.0/a2a.proto too)
//! xtask-spec conformance [--spec-dir DIR]  hold our types against the spec files
//! ```
//!
//! The workspace and its target directory are found at run time (`xtask::Workspace`), the spec
//! folder from `A2A_SPEC_DIR` or `../shared/spec` (`xtask::spec::SpecDir`). `docs/conformance.md`
//! explains both tasks.

use std::process::ExitCode;

use xtask::Workspace;

mod codegen;
mod conformance;
mod diff;
mod schema;
mod types;

const USAGE: &str = "usage: cargo xtask schema [--check] | cargo xtask codegen [--check] | cargo xtask conformance [--spec-dir DIR]
(run through `cargo xtask`; see `cargo xtask --help`)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result =
        Workspace::discover().and_then(|workspace| match args.first().map(String::as_str) {
            Some("schema") => match &args[1..] {
                [] => schema::run(&workspace.root, false),
                [flag] if flag == "--check" => schema::run(&workspace.root, true),
                [other, ..] => Err(format!("schema: unknown argument `{other}`\n\n{USAGE}")),
            },
            Some("codegen") => match &args[1..] {
                [] => codegen::run(&workspace.root, false),
                [flag] if flag == "--check" => codegen::run(&workspace.root, true),
                [other, ..] => Err(format!("codegen: unknown argument `{other}`\n\n{USAGE}")),
            },
            Some("conformance") => conformance::main(&workspace, &args[1..]),
            Some(other) => Err(format!("unknown task `{other}`\n\n{USAGE}")),
            None => Err(USAGE.to_owned()),
        });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace of a test (cargo runs tests in the package folder, inside the workspace).
#[cfg(test)]
fn test_workspace() -> Workspace {
    Workspace::discover().unwrap_or_else(|e| panic!("{e}"))
}
