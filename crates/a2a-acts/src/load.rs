//! Reading ACTS documents (ACTS §2, §3): a file, its `include`s, or a directory (its
//! `suite.acts.yaml`, else every `*.acts.yaml` in it), into a flat list of tests.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A conformance level (ACTS §3.2), ordered: `Must` < `Should` < `May`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Level {
    /// An absolute requirement.
    Must,
    /// A recommendation.
    Should,
    /// An option.
    May,
}

impl Level {
    /// `must`, `should` or `may`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Must => "must",
            Level::Should => "should",
            Level::May => "may",
        }
    }
}

/// A failure to read a suite: the file and what is wrong with it.
#[derive(Debug)]
#[non_exhaustive]
pub struct LoadError {
    /// The file (or directory).
    pub path: PathBuf,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for LoadError {}

/// One test of a suite, with what it needs from its document.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TestCase {
    /// The requirement id, e.g. `CORE-SEND-001`.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its level.
    pub level: Level,
    /// The suite (`suites[].id`) it belongs to.
    #[serde(default)]
    pub suite: String,
    /// The section of the A2A specification it checks.
    #[serde(default)]
    pub spec_ref: Option<String>,
    /// The bindings it applies to (`jsonrpc`, `rest`, `grpc`); all when `None`.
    #[serde(default)]
    pub transport: Option<Vec<String>>,
    /// What the agent must advertise (`capabilities`, `skills`, `transport`, `extensions`).
    #[serde(default)]
    pub preconditions: Option<Value>,
    /// The behaviour prefixes (ACTS §11) the agent under test must implement.
    #[serde(default)]
    pub requires_behaviors: Vec<String>,
    /// What the runner must provide (ACTS §3.2: webhook_endpoint, concurrent_streams, ...).
    #[serde(default)]
    pub runner_requirements: Vec<String>,
    /// Its tags (`push`, `runner-special`, `client`, ...).
    #[serde(default)]
    pub tags: Vec<String>,
    /// The steps, as written (ACTS §4).
    pub steps: Vec<Value>,
    /// The assertions run after the steps.
    #[serde(default)]
    pub assertions: Vec<Value>,
    /// The variables of its document.
    #[serde(default)]
    pub variables: BTreeMap<String, String>,
    /// The A2A version its document targets (the `A2A-Version` the runner sends).
    #[serde(default)]
    pub spec_version: String,
    /// The file it was read from.
    #[serde(default)]
    pub file: PathBuf,
}

impl TestCase {
    /// Whether every step is a client step (ACTS §10: a payload for a client to parse).
    pub fn is_client_test(&self) -> bool {
        !self.steps.is_empty()
            && self
                .steps
                .iter()
                .all(|s| s.get("client_response").is_some())
    }
}

/// The tests of one or more ACTS documents.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Suite {
    /// The tests, in document order.
    pub tests: Vec<TestCase>,
}

#[derive(Deserialize)]
struct Document {
    #[serde(default)]
    spec_version: Option<String>,
    #[serde(default)]
    variables: BTreeMap<String, Value>,
    #[serde(default)]
    include: Vec<String>,
    #[serde(default)]
    suites: Vec<SuiteDoc>,
}

#[derive(Deserialize)]
struct SuiteDoc {
    id: String,
    tests: Vec<Value>,
}

impl Suite {
    /// Reads `path`: an ACTS file (and what it includes), or a directory: its
    /// `suite.acts.yaml`, else every `*.acts.yaml` in it in name order.
    pub fn load(path: impl AsRef<Path>) -> Result<Suite, LoadError> {
        let path = path.as_ref();
        let error = |message: String| LoadError {
            path: path.to_owned(),
            message,
        };
        let mut suite = Suite::default();
        let mut seen = Vec::new();
        if path.is_dir() {
            let master = path.join("suite.acts.yaml");
            if master.is_file() {
                suite.read(&master, &BTreeMap::new(), &mut seen)?;
            } else {
                let mut files: Vec<PathBuf> = std::fs::read_dir(path)
                    .map_err(|e| error(e.to_string()))?
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.to_string_lossy().ends_with(".acts.yaml"))
                    .collect();
                files.sort();
                if files.is_empty() {
                    return Err(error("no *.acts.yaml file in this directory".into()));
                }
                for file in files {
                    suite.read(&file, &BTreeMap::new(), &mut seen)?;
                }
            }
        } else if path.is_file() {
            suite.read(path, &BTreeMap::new(), &mut seen)?;
        } else {
            return Err(error("no such file or directory".into()));
        }
        Ok(suite)
    }

    /// Reads the ACTS document `text` (its `include`s relative to `base`, a directory).
    pub fn from_yaml(text: &str, base: &Path) -> Result<Suite, LoadError> {
        let mut suite = Suite::default();
        let mut seen = Vec::new();
        suite.parse(text, &base.join("(inline)"), &BTreeMap::new(), &mut seen)?;
        Ok(suite)
    }

    fn read(
        &mut self,
        file: &Path,
        inherited: &BTreeMap<String, String>,
        seen: &mut Vec<PathBuf>,
    ) -> Result<(), LoadError> {
        let canonical = file.canonicalize().unwrap_or_else(|_| file.to_owned());
        if seen.contains(&canonical) {
            return Ok(());
        }
        seen.push(canonical);
        let text = std::fs::read_to_string(file).map_err(|e| LoadError {
            path: file.to_owned(),
            message: e.to_string(),
        })?;
        self.parse(&text, file, inherited, seen)
    }

    fn parse(
        &mut self,
        text: &str,
        file: &Path,
        inherited: &BTreeMap<String, String>,
        seen: &mut Vec<PathBuf>,
    ) -> Result<(), LoadError> {
        let error = |message: String| LoadError {
            path: file.to_owned(),
            message,
        };
        let document: Document =
            yaml_serde::from_str(text).map_err(|e| error(format!("not an ACTS document: {e}")))?;
        if document.include.is_empty() && document.suites.is_empty() {
            return Err(error(
                "an ACTS document needs `suites` or `include` (ACTS §2)".into(),
            ));
        }
        let mut variables = inherited.clone();
        for (name, value) in document.variables {
            let text = match value {
                Value::String(s) => s,
                other => other.to_string(),
            };
            variables.insert(name, text);
        }
        let base = file.parent().unwrap_or(Path::new("."));
        for include in &document.include {
            self.read(&base.join(include), &variables, seen)?;
        }
        let spec_version = document.spec_version.unwrap_or_else(|| "1.0".into());
        for suite in document.suites {
            for (i, raw) in suite.tests.into_iter().enumerate() {
                let mut test: TestCase = serde_json::from_value(raw)
                    .map_err(|e| error(format!("suite `{}`, test #{}: {e}", suite.id, i + 1)))?;
                test.suite.clone_from(&suite.id);
                test.variables.clone_from(&variables);
                test.spec_version.clone_from(&spec_version);
                test.file = file.to_owned();
                self.tests.push(test);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_with_variables_and_a_test() {
        let suite = Suite::from_yaml(
            r#"
acts_version: "1.0"
spec_version: "1.0"
variables:
  baseUrl: "{{SUT_BASE_URL}}"
suites:
  - id: discovery
    name: "Agent Card Discovery"
    tests:
      - id: CARD-001
        name: "card"
        level: must
        transport: [rest]
        steps:
          - id: card
            operation: get_agent_card
            params: {}
"#,
            Path::new("."),
        )
        .unwrap();
        let test = &suite.tests[0];
        assert_eq!(test.id, "CARD-001");
        assert_eq!(test.level, Level::Must);
        assert_eq!(test.suite, "discovery");
        assert_eq!(test.transport.as_deref(), Some(&["rest".to_owned()][..]));
        assert_eq!(test.variables["baseUrl"], "{{SUT_BASE_URL}}");
    }

    #[test]
    fn bad_documents_name_the_problem() {
        let error = Suite::from_yaml("acts_version: '1.0'\n", Path::new(".")).unwrap_err();
        assert_eq!(
            error.message,
            "an ACTS document needs `suites` or `include` (ACTS §2)"
        );
        let error = Suite::from_yaml(
            "acts_version: '1.0'\nsuites:\n  - id: s\n    tests:\n      - id: X\n        name: x\n        level: sometimes\n        steps: []\n",
            Path::new("."),
        )
        .unwrap_err();
        assert!(
            error
                .message
                .starts_with("suite `s`, test #1: unknown variant `sometimes`"),
            "{}",
            error.message
        );
    }
}
