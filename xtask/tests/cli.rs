//! The `xtask` binary as a new user meets it: without the spec files, with a stale `$CARGO`, with
//! a target directory elsewhere, and in two checkouts that share one target directory.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The one-line tail of every "spec files missing" message, after the folder and its source.
const FETCH: &str = "point A2A_SPEC_DIR at a folder holding them, or get them from \
    github.com/a2aproject/A2A: specification/a2a.proto at tag v1.0.1 into v1.0/a2a.proto, \
    v1.0.1/spec/a2a.json on branch gh-pages into v1.0/a2a.json, specification/json/a2a.json at \
    tag v0.3.0 into v0.3/a2a.json, specification/json/a2a.json at tag v0.2.6 into v0.2/a2a.json, \
    specification/json/a2a.json at tag v0.1.0 into v0.1/a2a.json; see docs/conformance.md\n";

/// A fresh temporary folder (absolute, symlinks resolved), removed on drop.
struct Temp(PathBuf);

impl Temp {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("xtask-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Temp(dir.canonicalize().unwrap())
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// This workspace's root, from the folder cargo runs the test in (at run time).
fn root() -> PathBuf {
    let here = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo test sets CARGO_MANIFEST_DIR");
    Path::new(&here).parent().unwrap().to_owned()
}

/// The xtask binary, at the workspace root, with `target` as cargo's target directory.
fn xtask(args: &[&str], target: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_xtask"));
    command
        .args(args)
        .current_dir(root())
        .env("CARGO_TARGET_DIR", target)
        .env_remove("A2A_XTASK_VERBOSE");
    command
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn failed(output: &Output) -> bool {
    !output.status.success()
}

/// `name value` from the output of `cargo xtask paths`.
fn field(stdout: &str, name: &str) -> String {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(name).map(|v| v.trim().to_owned()))
        .unwrap_or_else(|| panic!("no `{name}` line in:\n{stdout}"))
}

/// `xtask <task>` with `A2A_SPEC_DIR` naming no folder, and an empty target directory (returned):
/// it fails with the one line naming the folder and where the files come from, and nothing else.
fn without_spec_files(task: &str) -> Temp {
    let target = Temp::new(&format!("{task}-no-spec"));
    let output = xtask(&[task], &target.0)
        .env("A2A_SPEC_DIR", "/nonexistent/a2a-spec")
        .output()
        .unwrap();
    assert!(failed(&output));
    assert_eq!(
        text(&output.stderr),
        format!("xtask: no A2A spec files in /nonexistent/a2a-spec (A2A_SPEC_DIR): {FETCH}")
    );
    assert_eq!(text(&output.stdout), "");
    target
}

#[test]
fn ci_without_the_spec_files_stops_at_once_with_one_line() {
    let target = without_spec_files("ci");
    // No step started: not even the log folder was made.
    assert!(!target.0.join("xtask").exists());
}

#[test]
fn conformance_without_the_spec_files_stops_before_building_anything() {
    let target = without_spec_files("conformance");
    // xtask-spec was not compiled into the (empty) target directory.
    assert_eq!(std::fs::read_dir(&target.0).unwrap().count(), 0);
}

#[test]
fn a_stale_cargo_path_falls_back_to_cargo_on_path() {
    let target = Temp::new("stale-cargo");
    let output = xtask(&["paths"], &target.0)
        .env("CARGO", "/nonexistent/bin/cargo")
        .output()
        .unwrap();
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(field(&stdout, "cargo"), "cargo");
    assert_eq!(
        Path::new(&field(&stdout, "root")).canonicalize().unwrap(),
        root().canonicalize().unwrap()
    );
}

#[test]
fn everything_written_follows_the_cargo_target_dir() {
    let target = Temp::new("target-dir");
    let output = xtask(&["paths"], &target.0).output().unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(
        field(&text(&output.stdout), "target"),
        target.0.display().to_string()
    );
}

#[test]
fn help_names_the_spec_folder_and_its_default() {
    let target = Temp::new("help");
    let output = xtask(&["--help"], &target.0).output().unwrap();
    assert!(output.status.success());
    let help = text(&output.stderr);
    assert!(
        help.contains(
            "A2A_SPEC_DIR names the folder holding the A2A spec files (default ../shared/spec"
        ),
        "{help}"
    );
    assert!(help.contains("v1.0/a2a.proto, v1.0/a2a.json"), "{help}");
}

#[test]
fn bench_help_prints_the_options_without_building_anything() {
    let target = Temp::new("bench-help");
    let output = xtask(&["bench", "--help"], &target.0).output().unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    let help = text(&output.stderr);
    assert!(
        help.starts_with("usage: cargo xtask bench [-- OPTIONS]"),
        "{help}"
    );
    assert!(
        help.contains(
            "floor,floor-json,floor-grpc,a2a-rs,per-core,a2a-cli,sqlite,postgres,python,js"
        ),
        "{help}"
    );
    assert_eq!(text(&output.stdout), "");
    // Nothing was compiled into the (empty) target directory.
    assert_eq!(std::fs::read_dir(&target.0).unwrap().count(), 0);
}

#[test]
fn an_unknown_task_is_named() {
    let target = Temp::new("unknown");
    let output = xtask(&["frobnicate"], &target.0).output().unwrap();
    assert!(failed(&output));
    assert_eq!(
        text(&output.stderr),
        "xtask: unknown task `frobnicate` (`cargo xtask --help` lists them)\n"
    );
}

/// A tiny workspace holding a copy of this xtask (it has no dependencies), run as
/// `cargo xtask`, with the `.cargo/config.toml` alias of the real one.
fn tiny_checkout(dir: &Path) {
    let real = root();
    let copy = |from: &Path, to: &Path| {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(from, to).unwrap_or_else(|e| panic!("copy {}: {e}", from.display()));
    };
    copy(
        &real.join(".cargo/config.toml"),
        &dir.join(".cargo/config.toml"),
    );
    copy(
        &real.join("xtask/Cargo.toml"),
        &dir.join("xtask/Cargo.toml"),
    );
    // xtask/src and its module folders (interop/), recursively.
    let mut folders = vec![std::path::PathBuf::from("xtask/src")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(real.join(&folder)).unwrap() {
            let path = entry.unwrap().path();
            let relative = folder.join(path.file_name().unwrap());
            if path.is_dir() {
                folders.push(relative);
            } else {
                copy(&path, &dir.join(relative));
            }
        }
    }
    std::fs::write(
        dir.join("Cargo.toml"),
        "[workspace]\nresolver = \"3\"\nmembers = [\"xtask\"]\n\n\
         [workspace.package]\nversion = \"0.1.0\"\nedition = \"2024\"\nrust-version = \"1.88\"\n\
         license = \"Apache-2.0\"\n\n[workspace.lints.rust]\nunsafe_code = \"forbid\"\n",
    )
    .unwrap();
}

/// `cargo xtask <args>` in `dir`, with `target` as the shared target directory.
fn cargo_xtask(dir: &Path, target: &Path, args: &[&str]) -> Output {
    let cargo = xtask::workspace::cargo_program(std::env::var_os("CARGO"));
    Command::new(cargo)
        .arg("xtask")
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("A2A_SPEC_DIR")
        .env_remove("CARGO_MANIFEST_DIR")
        .env_remove("A2A_XTASK_VERBOSE")
        .output()
        .unwrap()
}

/// Two checkouts share one target directory, so they share one `target/debug/xtask`: each run
/// must work in its own checkout, and keep working once the other checkout is gone.
#[test]
fn two_checkouts_sharing_a_target_dir_each_run_in_their_own_folder() {
    let temp = Temp::new("two-checkouts");
    let (a, b, target) = (temp.0.join("a"), temp.0.join("b"), temp.0.join("target"));
    tiny_checkout(&a);
    tiny_checkout(&b);
    for (dir, name) in [(&a, "a"), (&b, "b"), (&a, "a again")] {
        let output = cargo_xtask(dir, &target, &["paths"]);
        assert!(output.status.success(), "{name}: {}", text(&output.stderr));
        let stdout = text(&output.stdout);
        assert_eq!(field(&stdout, "root"), dir.display().to_string(), "{name}");
        assert_eq!(
            field(&stdout, "target"),
            target.display().to_string(),
            "{name}"
        );
    }
    std::fs::remove_dir_all(&a).unwrap();
    let output = cargo_xtask(&b, &target, &["paths"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(
        field(&text(&output.stdout), "root"),
        b.display().to_string()
    );

    // A clone without ../shared: `ci` stops at once, naming the default folder, absolute.
    let output = cargo_xtask(&b, &target, &["ci"]);
    assert!(failed(&output));
    assert_eq!(
        text(&output.stderr),
        format!(
            "xtask: no A2A spec files in {} (A2A_SPEC_DIR unset, so ../shared/spec from the \
             workspace root): {FETCH}",
            temp.0.join("shared/spec").display()
        )
    );
}
