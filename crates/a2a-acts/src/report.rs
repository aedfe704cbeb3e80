//! The results of a run: one per test and binding, a summary per level and binding, the JSON
//! report, JUnit XML, and the known failures a run is allowed.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::load::{Level, LoadError};
use crate::matcher::Mismatch;

/// How a test went on one binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Outcome {
    /// Every step and assertion held.
    Pass,
    /// A step or assertion did not hold (or a step could not be run).
    Fail,
    /// Not run: its preconditions, binding or runner requirements are not met (the reason says
    /// which); never counted as a pass.
    Skip,
    /// Failed, as a known failure says it does (the reason is the known failure's).
    Xfail,
    /// Passed, though a known failure says it fails: the list is out of date.
    Xpass,
}

impl Outcome {
    /// `PASS`, `FAIL`, `SKIP`, `XFAIL` or `XPASS`.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Pass => "PASS",
            Outcome::Fail => "FAIL",
            Outcome::Skip => "SKIP",
            Outcome::Xfail => "XFAIL",
            Outcome::Xpass => "XPASS",
        }
    }
}

/// One test on one binding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TestResult {
    /// The test's id.
    pub id: String,
    /// The test's name.
    pub name: String,
    /// The suite it belongs to.
    pub suite: String,
    /// Its level.
    pub level: Level,
    /// The binding (`jsonrpc`, `rest`, `grpc`).
    pub binding: String,
    /// How it went.
    pub outcome: Outcome,
    /// The step that failed, if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    /// Why it failed or was skipped (for XFAIL and XPASS: the known failure's reason).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The first mismatch: its JSON path, expected and got.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mismatch: Option<Mismatch>,
    /// How long it took, in milliseconds.
    pub duration_ms: u64,
}

impl TestResult {
    /// `PASS  CORE-SEND-001 [jsonrpc] ...` with the first mismatch or the reason.
    pub fn line(&self) -> String {
        let mut line = format!(
            "{:<5} {} [{}] {}",
            self.outcome.label(),
            self.id,
            self.binding,
            self.name
        );
        if let Some(message) = &self.message {
            line.push_str(" -- ");
            if let Some(step) = &self.step {
                line.push_str(&format!("step `{step}`: "));
            }
            line.push_str(message);
        }
        line
    }
}

/// Counts of one level (or one binding).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Counts {
    /// Passed.
    pub pass: usize,
    /// Failed.
    pub fail: usize,
    /// Skipped.
    pub skip: usize,
    /// Known failures that failed.
    pub xfail: usize,
    /// Known failures that passed.
    pub xpass: usize,
}

impl Counts {
    fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Pass => self.pass += 1,
            Outcome::Fail => self.fail += 1,
            Outcome::Skip => self.skip += 1,
            Outcome::Xfail => self.xfail += 1,
            Outcome::Xpass => self.xpass += 1,
        }
    }

    /// All counted.
    pub fn total(&self) -> usize {
        self.pass + self.fail + self.skip + self.xfail + self.xpass
    }
}

/// A run's results.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Report {
    /// The agent's URL.
    pub agent: String,
    /// Every test on every binding, in the order they ran.
    pub results: Vec<TestResult>,
}

impl Report {
    /// Counts per binding, then per level.
    pub fn summary(&self) -> BTreeMap<String, BTreeMap<Level, Counts>> {
        let mut out: BTreeMap<String, BTreeMap<Level, Counts>> = BTreeMap::new();
        for r in &self.results {
            out.entry(r.binding.clone())
                .or_default()
                .entry(r.level)
                .or_default()
                .add(r.outcome);
        }
        out
    }

    /// Counts per level over every binding.
    pub fn by_level(&self) -> BTreeMap<Level, Counts> {
        let mut out: BTreeMap<Level, Counts> = BTreeMap::new();
        for r in &self.results {
            out.entry(r.level).or_default().add(r.outcome);
        }
        out
    }

    /// Whether every test of `level` or stricter passed, was skipped, or failed as a known
    /// failure says (ACTS §12.7: conformant when every `must` test passes).
    pub fn conformant(&self, level: Level) -> bool {
        self.results
            .iter()
            .filter(|r| r.level <= level)
            .all(|r| r.outcome != Outcome::Fail)
    }

    /// The summary lines: `MUST   jsonrpc: 40/45 passed (1 failed, 2 skipped, 2 xfail)`.
    pub fn summary_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for (binding, levels) in self.summary() {
            for (level, c) in levels {
                lines.push(format!(
                    "{:<6} {binding:<7} {}/{} passed ({} failed, {} skipped, {} xfail, {} xpass)",
                    level.as_str().to_uppercase(),
                    c.pass,
                    c.total(),
                    c.fail,
                    c.skip,
                    c.xfail,
                    c.xpass
                ));
            }
        }
        lines
    }

    /// The JSON report: the results and the summary.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "agent": self.agent,
            "results": self.results,
            "summary": self.summary(),
        })
    }

    /// JUnit XML: a `testsuite` per binding, a `testcase` per test (`failure` for FAIL and
    /// XPASS, `skipped` for SKIP and XFAIL, with the reason).
    pub fn junit(&self) -> String {
        let mut out = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"ACTS\">\n",
        );
        let mut bindings: Vec<&str> = self.results.iter().map(|r| r.binding.as_str()).collect();
        bindings.dedup();
        bindings.sort_unstable();
        bindings.dedup();
        for binding in bindings {
            let results: Vec<&TestResult> = self
                .results
                .iter()
                .filter(|r| r.binding == binding)
                .collect();
            let failures = results
                .iter()
                .filter(|r| matches!(r.outcome, Outcome::Fail | Outcome::Xpass))
                .count();
            let skipped = results
                .iter()
                .filter(|r| matches!(r.outcome, Outcome::Skip | Outcome::Xfail))
                .count();
            let time: u64 = results.iter().map(|r| r.duration_ms).sum();
            out.push_str(&format!(
                "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\" time=\"{:.3}\">\n",
                xml(binding),
                results.len(),
                time as f64 / 1000.0
            ));
            for r in results {
                out.push_str(&format!(
                    "    <testcase classname=\"{}.{}\" name=\"{} {}\" time=\"{:.3}\"",
                    xml(&r.suite),
                    xml(binding),
                    xml(&r.id),
                    xml(&r.name),
                    r.duration_ms as f64 / 1000.0
                ));
                let message = r.message.as_deref().unwrap_or_default();
                match r.outcome {
                    Outcome::Pass => out.push_str("/>\n"),
                    Outcome::Fail | Outcome::Xpass => out.push_str(&format!(
                        ">\n      <failure message=\"{}\">{}</failure>\n    </testcase>\n",
                        xml(&format!("{} ({})", r.outcome.label(), r.level.as_str())),
                        xml(&r.line())
                    )),
                    Outcome::Skip | Outcome::Xfail => out.push_str(&format!(
                        ">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                        xml(&format!("{}: {message}", r.outcome.label()))
                    )),
                }
            }
            out.push_str("  </testsuite>\n");
        }
        out.push_str("</testsuites>\n");
        out
    }
}

fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

/// One known failure: a test (on some bindings, or all) that fails for a reason the project
/// stands by, with the specification's text that contradicts the test.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct KnownFailure {
    /// The test's id.
    pub id: String,
    /// The bindings it fails on; all when empty.
    #[serde(default)]
    pub bindings: Vec<String>,
    /// Why it fails.
    pub reason: String,
    /// The section of the specification that contradicts the test.
    #[serde(default)]
    pub spec: Option<String>,
}

/// The known failures of an `--expect-fail` file: a YAML list of [`KnownFailure`]s.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct KnownFailures(pub Vec<KnownFailure>);

impl KnownFailures {
    /// Reads a known-failures file.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, LoadError> {
        let path = path.as_ref();
        let error = |message: String| LoadError {
            path: path.to_owned(),
            message,
        };
        let text = std::fs::read_to_string(path).map_err(|e| error(e.to_string()))?;
        let list: Vec<KnownFailure> = yaml_serde::from_str(&text).map_err(|e| {
            error(format!(
                "not a list of known failures (id, bindings, reason, spec): {e}"
            ))
        })?;
        if let Some(bad) = list.iter().find(|k| k.reason.trim().is_empty()) {
            return Err(error(format!(
                "the known failure `{}` gives no reason",
                bad.id
            )));
        }
        Ok(KnownFailures(list))
    }

    /// The known failure of `id` on `binding`, if listed.
    pub fn find(&self, id: &str, binding: &str) -> Option<&KnownFailure> {
        self.0.iter().find(|k| {
            k.id == id && (k.bindings.is_empty() || k.bindings.iter().any(|b| b == binding))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(id: &str, level: Level, outcome: Outcome) -> TestResult {
        TestResult {
            id: id.into(),
            name: "n <&>".into(),
            suite: "s".into(),
            level,
            binding: "jsonrpc".into(),
            outcome,
            step: None,
            message: (outcome != Outcome::Pass).then(|| "why".to_owned()),
            mismatch: None,
            duration_ms: 12,
        }
    }

    #[test]
    fn conformance_counts_must_then_should() {
        let report = Report {
            agent: "http://a".into(),
            results: vec![
                result("A", Level::Must, Outcome::Pass),
                result("B", Level::Must, Outcome::Xfail),
                result("C", Level::Should, Outcome::Fail),
                result("D", Level::May, Outcome::Skip),
            ],
        };
        assert!(report.conformant(Level::Must));
        assert!(!report.conformant(Level::Should));
        assert_eq!(
            report.summary_lines(),
            [
                "MUST   jsonrpc 1/2 passed (0 failed, 0 skipped, 1 xfail, 0 xpass)",
                "SHOULD jsonrpc 0/1 passed (1 failed, 0 skipped, 0 xfail, 0 xpass)",
                "MAY    jsonrpc 0/1 passed (0 failed, 1 skipped, 0 xfail, 0 xpass)",
            ]
        );
    }

    #[test]
    fn junit_escapes_and_marks_failures_and_skips() {
        let report = Report {
            agent: "http://a".into(),
            results: vec![
                result("A", Level::Must, Outcome::Pass),
                result("C", Level::Should, Outcome::Fail),
                result("D", Level::May, Outcome::Skip),
            ],
        };
        assert_eq!(
            report.junit(),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"ACTS\">\n  <testsuite name=\"jsonrpc\" tests=\"3\" failures=\"1\" skipped=\"1\" time=\"0.036\">\n    <testcase classname=\"s.jsonrpc\" name=\"A n &lt;&amp;&gt;\" time=\"0.012\"/>\n    <testcase classname=\"s.jsonrpc\" name=\"C n &lt;&amp;&gt;\" time=\"0.012\">\n      <failure message=\"FAIL (should)\">FAIL  C [jsonrpc] n &lt;&amp;&gt; -- why</failure>\n    </testcase>\n    <testcase classname=\"s.jsonrpc\" name=\"D n &lt;&amp;&gt;\" time=\"0.012\">\n      <skipped message=\"SKIP: why\"/>\n    </testcase>\n  </testsuite>\n</testsuites>\n"
        );
    }
}
