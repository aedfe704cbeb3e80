//! The check can fail: edited copies of the spec make conformance report each edit.

use std::path::{Path, PathBuf};

use super::*;

/// A fresh copy of the spec files in a temporary folder.
struct SpecCopy(PathBuf);

impl SpecCopy {
    fn new(name: &str) -> Self {
        let source = Options::from_env(&crate::project_root()).spec_dir;
        let dir = std::env::temp_dir().join(format!("a2a-xtask-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for file in SPEC_FILES {
            let to = dir.join(file);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(source.join(file), &to)
                .unwrap_or_else(|e| panic!("cannot copy {file} from {}: {e}", source.display()));
        }
        SpecCopy(dir)
    }

    fn edit(&self, file: &str, from: &str, to: &str) {
        let path = self.0.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text.matches(from).count(),
            1,
            "`{from}` must occur once in {file}"
        );
        std::fs::write(&path, text.replace(from, to)).unwrap();
    }

    fn run(&self) -> Report {
        let root = crate::project_root();
        let options = Options {
            spec_dir: self.0.clone(),
            report: None,
            ..Options::from_env(&root)
        };
        run(&options).unwrap()
    }
}

impl Drop for SpecCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn unexplained(report: &Report) -> Vec<(String, String, String)> {
    report
        .unexplained()
        .map(|d| (d.version.clone(), d.subject.clone(), d.kind.clone()))
        .collect()
}

fn has(report: &Report, version: &str, subject: &str, kind: &str) -> bool {
    unexplained(report)
        .iter()
        .any(|(v, s, k)| v == version && s == subject && k == kind)
}

#[test]
fn proto_edits_are_reported() {
    let spec = SpecCopy::new("proto-edits");
    let baseline = unexplained(&spec.run());
    // Drop a REQUIRED field, rename an enum value, add a field.
    spec.edit(
        "v1.0/a2a.proto",
        "  string id = 1 [(google.api.field_behavior) = REQUIRED];\n  // Unique identifier (e.g. UUID) for the contextual collection",
        "  // Unique identifier (e.g. UUID) for the contextual collection",
    );
    spec.edit(
        "v1.0/a2a.proto",
        "TASK_STATE_REJECTED = 7;",
        "TASK_STATE_DECLINED = 7;",
    );
    spec.edit(
        "v1.0/a2a.proto",
        "message Message {\n",
        "message Message {\n  string priority = 99;\n",
    );
    let report = spec.run();
    assert!(
        has(&report, "1.0", "Task.id", "extra-property"),
        "{:#?}",
        unexplained(&report)
    );
    assert!(
        has(&report, "1.0", "TaskState", "enum"),
        "{:#?}",
        unexplained(&report)
    );
    assert!(
        has(&report, "1.0", "Message.priority", "missing-property"),
        "{:#?}",
        unexplained(&report)
    );
    assert_eq!(
        unexplained(&report).len(),
        baseline.len() + 3,
        "{:#?}",
        unexplained(&report)
    );
}

#[test]
fn proto_required_annotation_is_checked() {
    let spec = SpecCopy::new("proto-required");
    spec.edit(
        "v1.0/a2a.proto",
        "  bool return_immediately = 4;",
        "  bool return_immediately = 4 [(google.api.field_behavior) = REQUIRED];",
    );
    let report = spec.run();
    assert!(
        has(
            &report,
            "1.0",
            "SendMessageConfiguration.returnImmediately",
            "required"
        ),
        "{:#?}",
        unexplained(&report)
    );
}

#[test]
fn bundle_names_are_checked() {
    let spec = SpecCopy::new("bundle-names");
    spec.edit(
        "v1.0/a2a.json",
        "\"returnImmediately\": {",
        "\"returnImmediatly\": {",
    );
    let report = spec.run();
    assert!(has(
        &report,
        "1.0-json",
        "SendMessageConfiguration.returnImmediatly",
        "missing-property"
    ));
    assert!(has(
        &report,
        "1.0-json",
        "SendMessageConfiguration.returnImmediately",
        "extra-property"
    ));
}

#[test]
fn a_missing_spec_folder_is_one_clear_error() {
    let options = Options {
        spec_dir: Path::new("/nonexistent/a2a-spec").to_owned(),
        report: None,
        ..Options::from_env(&crate::project_root())
    };
    let err = run(&options).unwrap_err();
    assert!(
        err.starts_with("spec folder /nonexistent/a2a-spec not found"),
        "{err}"
    );
}
