//! ACTS, the A2A Conformance Test Specification (docs/conformance.md), under our runner against
//! agents nobody here wrote: `a2a conformance --suite $A2A_SPEC_DIR/acts` (the `a2a` command
//! the interop step builds anyway) against `tests/interop/python/acts_agent.py`, the §11
//! behaviour agent written with the official Python SDK, on every binding its card declares;
//! and against our own `a2a mock --acts`, so that the report holds both side by side from one
//! run.
//!
//! Each agent has its known failures (`--expect-fail`): a test that fails and is not listed, or
//! that is listed and passes (XPASS), at any level, fails the step, as the a2a-cli test of our
//! own agent does.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use xtask::json::{self, Value};
use xtask::spec::SpecDir;

use super::{Built, Paths, launch, run_capture};

/// How long one run of the whole suite against one agent may take (about 10 s against ours).
const ACTS_TIMEOUT: Duration = Duration::from_secs(300);

/// An agent the suite runs against.
#[derive(Clone, Copy)]
struct ActsAgent {
    /// Its name in the report (and its log, `logs/agent-acts-NAME.log`).
    name: &'static str,
    /// What the table says it is.
    title: &'static str,
    /// Its known failures, from the workspace root.
    known: &'static str,
    /// The command that starts it, given the address to listen on as its last argument.
    command: fn(&Paths<'_>, &Built) -> Command,
}

/// `a2a mock --acts`: our ACTS agent (crates/a2a-cli/examples/acts.yaml).
fn ours(_: &Paths<'_>, built: &Built) -> Command {
    let mut c = Command::new(&built.cli);
    c.args(["mock", "--acts", "-q", "--addr"]);
    c
}

/// `tests/interop/python/acts_agent.py` in the interop venv.
fn python(paths: &Paths<'_>, _: &Built) -> Command {
    let mut c = Command::new(&paths.venv_python);
    c.arg("-u")
        .arg(paths.root.join("tests/interop/python/acts_agent.py"));
    c
}

/// The agents, in the table's order.
const AGENTS: &[ActsAgent] = &[
    ActsAgent {
        name: "rust",
        title: "ours (`a2a mock --acts`)",
        known: "tests/acts-known-failures.yaml",
        command: ours,
    },
    ActsAgent {
        name: "python",
        title: "Python SDK (`acts_agent.py`)",
        known: "tests/interop/python/acts-known-failures.yaml",
        command: python,
    },
];

/// The bindings, in the table's order: the report's name and the table's.
const BINDINGS: &[(&str, &str)] = &[
    ("jsonrpc", "JSON-RPC"),
    ("rest", "HTTP+JSON"),
    ("grpc", "gRPC"),
];

/// The levels, in the table's order.
const LEVELS: &[&str] = &["must", "should", "may"];

/// What the ACTS runs found.
pub(super) struct Acts {
    /// The unexpected outcomes (FAIL, XPASS) and broken runs, each prefixed `[acts NAME]`.
    pub(super) failures: Vec<String>,
    /// The table (markdown), one row per agent and binding.
    pub(super) table: String,
    /// How long the runs took.
    pub(super) elapsed: Duration,
}

/// Counts of one agent, binding and level: pass, fail, skip, xfail, xpass.
type Counts = [usize; 5];

/// The counts of one agent: per binding the run had (in [`BINDINGS`] order), per level.
type PerBinding = Vec<(String, [Counts; 3])>;

/// Runs the suite against each agent of [`AGENTS`], one after the other.
pub(super) fn run(paths: &Paths<'_>, built: &Built) -> Acts {
    let started = Instant::now();
    let mut failures = Vec::new();
    let mut rows: Vec<(ActsAgent, PerBinding)> = Vec::new();
    let suite = SpecDir::locate_unchecked(&paths.root).path.join("acts");
    for agent in AGENTS {
        eprintln!(
            "\n==> interop: ACTS ({}) against the {} agent",
            suite.display(),
            agent.name
        );
        match run_one(paths, built, *agent, &suite) {
            Ok((counts, unexpected)) => {
                for line in &unexpected {
                    eprintln!("    {line}");
                }
                failures.extend(
                    unexpected
                        .into_iter()
                        .map(|line| format!("[acts {}] {line}", agent.name)),
                );
                for (binding, levels) in &counts {
                    eprintln!("    {}", summary_line(binding, levels));
                }
                rows.push((*agent, counts));
            }
            Err(err) => {
                eprintln!("    {err}");
                failures.push(format!("[acts {}] {err}", agent.name));
            }
        }
    }
    Acts {
        failures,
        table: table(&rows),
        elapsed: started.elapsed(),
    }
}

/// Starts one agent and runs the suite against it: the counts per binding (in [`BINDINGS`]
/// order, those the run had) and the unexpected outcomes.
fn run_one(
    paths: &Paths<'_>,
    built: &Built,
    agent: ActsAgent,
    suite: &std::path::Path,
) -> Result<(PerBinding, Vec<String>), String> {
    let command = (agent.command)(paths, built);
    let server = launch(
        paths,
        command,
        "127.0.0.1:0",
        &format!("acts-{}", agent.name),
    )?;
    let log_path: PathBuf = paths
        .work
        .join("logs")
        .join(format!("acts-{}.log", agent.name));
    let stderr = std::fs::File::create(&log_path)
        .map_or_else(|_| std::process::Stdio::null(), std::process::Stdio::from);
    let mut command = Command::new(&built.cli);
    command
        .arg("conformance")
        .arg("-a")
        .arg(&server.url)
        .arg("--suite")
        .arg(suite)
        .arg("--expect-fail")
        .arg(paths.root.join(agent.known))
        .args(["-o", "json"])
        .current_dir(&paths.work)
        .stderr(stderr);
    let what = format!("a2a conformance against the {} ACTS agent", agent.name);
    let captured = run_capture(&mut command, ACTS_TIMEOUT, &what)?;
    // 0: conformant; 1: a MUST test failed (the results say which). 2 and 3 are a suite or
    // known-failures file that cannot be read, or a card that cannot.
    if !matches!(captured.status.code(), Some(0 | 1)) {
        return Err(format!(
            "{what} exited with {} (stderr in {})",
            captured.status,
            log_path.display()
        ));
    }
    let _ = std::fs::write(
        paths.work.join(format!("acts-{}.json", agent.name)),
        &captured.stdout,
    );
    let report =
        json::parse(&captured.stdout).map_err(|e| format!("{what} printed no JSON report: {e}"))?;
    read_report(&report).map_err(|e| format!("{what}: {e}"))
}

/// The counts per binding and level, and every FAIL and XPASS (at any level) as a line.
fn read_report(report: &Value) -> Result<(PerBinding, Vec<String>), String> {
    let Some(Value::Array(results)) = report.get("results") else {
        return Err("the report has no `results`".to_owned());
    };
    let mut counts: PerBinding = Vec::new();
    let mut unexpected = Vec::new();
    for result in results {
        let field = |key: &str| result.get(key).and_then(Value::as_str).unwrap_or("");
        let (id, binding, level, outcome) = (
            field("id"),
            field("binding"),
            field("level"),
            field("outcome"),
        );
        let Some(level_at) = LEVELS.iter().position(|l| *l == level) else {
            return Err(format!("{id} [{binding}] has an unknown level `{level}`"));
        };
        let outcome_at = match outcome {
            "pass" => 0,
            "fail" => 1,
            "skip" => 2,
            "xfail" => 3,
            "xpass" => 4,
            other => return Err(format!("{id} [{binding}] has an unknown outcome `{other}`")),
        };
        if matches!(outcome, "fail" | "xpass") {
            let message = field("message");
            let step = field("step");
            let at = if step.is_empty() {
                String::new()
            } else {
                format!("step `{step}`: ")
            };
            let detail = match result.get("mismatch") {
                Some(mismatch) => format!(" ({})", compact(mismatch)),
                None => String::new(),
            };
            unexpected.push(format!(
                "{} {id} [{binding}] {level}: {at}{message}{detail}",
                outcome.to_ascii_uppercase()
            ));
        }
        let entry = match counts.iter_mut().find(|(b, _)| b == binding) {
            Some(entry) => entry,
            None => {
                counts.push((binding.to_owned(), [[0; 5]; 3]));
                counts.last_mut().expect("just pushed")
            }
        };
        entry.1[level_at][outcome_at] += 1;
    }
    if counts.is_empty() {
        return Err("the report has no result".to_owned());
    }
    counts.sort_by_key(|(b, _)| {
        BINDINGS
            .iter()
            .position(|(name, _)| name == b)
            .unwrap_or(BINDINGS.len())
    });
    Ok((counts, unexpected))
}

/// A JSON value on one line, for a mismatch in a failure line.
fn compact(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.clone(),
        Value::String(s) => format!("{s:?}"),
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(compact).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(members) => format!(
            "{{{}}}",
            members
                .iter()
                .map(|(k, v)| format!("{k}: {}", compact(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => "?".to_owned(),
    }
}

/// `jsonrpc: MUST 43 pass, 5 xfail, 17 skip; SHOULD ...`.
fn summary_line(binding: &str, levels: &[Counts; 3]) -> String {
    let mut line = format!("{binding}:");
    for (level, c) in LEVELS.iter().zip(levels) {
        let _ = write!(
            line,
            " {} {} pass, {} xfail, {} skip, {} fail, {} xpass;",
            level.to_ascii_uppercase(),
            c[0],
            c[3],
            c[2],
            c[1],
            c[4]
        );
    }
    line.trim_end_matches(';').to_owned()
}

/// The table of docs/conformance.md: one row per agent and binding; MUST pass, xfail and skip
/// in columns of their own, SHOULD and MAY as `pass / xfail / skip` (a FAIL or XPASS, which
/// fails the step, is added to the cell as `+N unexpected`).
fn table(rows: &[(ActsAgent, PerBinding)]) -> String {
    let mut out = String::from(
        "| agent | binding | MUST pass | MUST xfail | MUST skip | SHOULD pass / xfail / skip | \
         MAY pass / xfail / skip |\n| --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for (agent, bindings) in rows {
        for (binding, levels) in bindings {
            let name = BINDINGS
                .iter()
                .find(|(b, _)| b == binding)
                .map_or(binding.as_str(), |(_, title)| title);
            let extra = |c: &Counts| match c[1] + c[4] {
                0 => String::new(),
                n => format!(" (+{n} unexpected)"),
            };
            let [must, should, may] = levels;
            let _ = writeln!(
                out,
                "| {} | {name} | {} | {} | {}{} | {} / {} / {}{} | {} / {} / {}{} |",
                agent.title,
                must[0],
                must[3],
                must[2],
                extra(must),
                should[0],
                should[3],
                should[2],
                extra(should),
                may[0],
                may[3],
                may[2],
                extra(may),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_and_xpasses_at_any_level_are_unexpected_and_counted_per_binding_and_level() {
        let report = json::parse(
            r#"{"results": [
                {"id": "A", "binding": "rest", "level": "must", "outcome": "pass"},
                {"id": "A", "binding": "jsonrpc", "level": "must", "outcome": "xfail",
                 "message": "known failure: why"},
                {"id": "B", "binding": "jsonrpc", "level": "should", "outcome": "fail",
                 "step": "send", "message": "mismatch",
                 "mismatch": {"path": "task.status.state", "expected": "X", "got": null}},
                {"id": "C", "binding": "jsonrpc", "level": "may", "outcome": "xpass",
                 "message": "known failure: listed"},
                {"id": "D", "binding": "jsonrpc", "level": "may", "outcome": "skip"}
            ]}"#,
        )
        .unwrap();
        let (counts, unexpected) = read_report(&report).unwrap();
        assert_eq!(
            unexpected,
            [
                "FAIL B [jsonrpc] should: step `send`: mismatch \
                 ({path: \"task.status.state\", expected: \"X\", got: null})",
                "XPASS C [jsonrpc] may: known failure: listed",
            ]
        );
        // JSON-RPC before HTTP+JSON, whatever the report's order.
        assert_eq!(
            counts,
            [
                (
                    "jsonrpc".to_owned(),
                    [[0, 0, 0, 1, 0], [0, 1, 0, 0, 0], [0, 0, 1, 0, 1]]
                ),
                ("rest".to_owned(), [[1, 0, 0, 0, 0], [0; 5], [0; 5]]),
            ]
        );
        assert_eq!(
            table(&[(AGENTS[1], counts)]),
            "| agent | binding | MUST pass | MUST xfail | MUST skip | SHOULD pass / xfail / skip \
             | MAY pass / xfail / skip |\n\
             | --- | --- | --- | --- | --- | --- | --- |\n\
             | Python SDK (`acts_agent.py`) | JSON-RPC | 0 | 1 | 0 | 0 / 0 / 0 (+1 unexpected) | \
             0 / 0 / 1 (+1 unexpected) |\n\
             | Python SDK (`acts_agent.py`) | HTTP+JSON | 1 | 0 | 0 | 0 / 0 / 0 | 0 / 0 / 0 |\n"
        );
    }

    #[test]
    fn a_report_without_results_or_with_an_unknown_outcome_is_an_error() {
        let empty = json::parse(r#"{"results": []}"#).unwrap();
        assert_eq!(read_report(&empty).unwrap_err(), "the report has no result");
        let odd = json::parse(
            r#"{"results": [{"id": "A", "binding": "rest", "level": "must", "outcome": "maybe"}]}"#,
        )
        .unwrap();
        assert_eq!(
            read_report(&odd).unwrap_err(),
            "A [rest] has an unknown outcome `maybe`"
        );
        let none = json::parse(r#"{"agent": "x"}"#).unwrap();
        assert_eq!(
            read_report(&none).unwrap_err(),
            "the report has no `results`"
        );
    }
}
