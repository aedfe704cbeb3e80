//! `cargo xtask conformance`: holds our serde types against the A2A spec, for every version.
//!
//! 1. 0.1, 0.2 and 0.3: every definition of the spec's `a2a.json` against ours of the same name
//!    (`a2a_types::v0_1`, and `a2a_types::v0_3` for both 0.2 and 0.3), normalized ([`shape`]).
//! 2. 1.0: every message and enum of `a2a.proto` (compiled with protox) against `a2a_types::v1`;
//!    then the property names of the published 1.0 `a2a.json`.
//! 3. Every fixture under `tests/fixtures/` against the spec schema of its version and ours.
//! 4. Differences listed in `schema/deviations.json` are explained; any other fails the run.
//!
//! The report is printed and written to `conformance/report.md` under cargo's target directory.

mod deviations;
mod fixtures;
mod proto;
mod shape;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;
use xtask::Workspace;
use xtask::spec::{Source, SpecDir};

use crate::schema::{self, ProtocolVersion};
use fixtures::{SchemaSet, Verdict};
use shape::{Comparison, Shape};

/// Where the inputs are and where the report goes.
#[derive(Clone, Debug)]
pub(crate) struct Options {
    /// The workspace root.
    pub(crate) root: PathBuf,
    /// The spec folder (`v0.1/a2a.json`, ..., `v1.0/a2a.proto`).
    pub(crate) spec_dir: PathBuf,
    /// The deviations file.
    pub(crate) deviations: PathBuf,
    /// Where to write the Markdown report, if anywhere.
    pub(crate) report: Option<PathBuf>,
}

impl Options {
    /// The defaults for `workspace` and a spec folder: `schema/deviations.json`, and the report in
    /// `conformance/report.md` under the target directory.
    pub(crate) fn new(workspace: &Workspace, spec_dir: PathBuf) -> Self {
        Options {
            root: workspace.root.clone(),
            spec_dir,
            deviations: workspace.root.join("schema/deviations.json"),
            report: Some(workspace.target_dir.join("conformance/report.md")),
        }
    }
}

/// One difference between the spec and ours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Difference {
    /// `0.1`, `0.2`, `0.3`, `1.0` (the proto) or `1.0-json` (the published 1.0 `a2a.json`).
    pub(crate) version: String,
    /// `Definition`, `Definition.property`, or a fixture path under `tests/fixtures/`.
    pub(crate) subject: String,
    /// What differs (the `kind` of a deviation).
    pub(crate) kind: String,
    /// A readable account.
    pub(crate) detail: String,
    /// The reason from the deviations file, when the difference is deliberate.
    pub(crate) explained: Option<String>,
}

/// One version's summary row.
#[derive(Clone, Debug, Default)]
struct Row {
    version: String,
    source: String,
    ours: String,
    checked: String,
}

/// The outcome of a conformance run.
#[derive(Debug, Default)]
pub(crate) struct Report {
    spec_dir: String,
    rows: Vec<Row>,
    notes: Vec<String>,
    pub(crate) differences: Vec<Difference>,
    unused: Vec<String>,
    fixture_rows: Vec<[String; 5]>,
}

impl Report {
    /// The differences no deviation explains.
    pub(crate) fn unexplained(&self) -> impl Iterator<Item = &Difference> {
        self.differences.iter().filter(|d| d.explained.is_none())
    }

    fn push(&mut self, version: &str, subject: impl Into<String>, kind: &str, detail: String) {
        self.differences.push(Difference {
            version: version.to_owned(),
            subject: subject.into(),
            kind: kind.to_owned(),
            detail,
            explained: None,
        });
    }

    fn count(&self, version: &str) -> (usize, usize) {
        let all: Vec<&Difference> = self
            .differences
            .iter()
            .filter(|d| d.version == version && !d.subject.starts_with("tests/fixtures/"))
            .collect();
        let explained = all.iter().filter(|d| d.explained.is_some()).count();
        (all.len() - explained, explained)
    }
}

/// Runs every check. `Err` only when an input cannot be read at all.
pub(crate) fn run(options: &Options) -> Result<Report, String> {
    let spec_dir = &options.spec_dir;
    if !spec_dir.is_dir() {
        return Err(format!(
            "spec folder {} not found (set A2A_SPEC_DIR to the folder holding v0.1/, v0.2/, v0.3/ and v1.0/)",
            spec_dir.display()
        ));
    }
    let deviations = deviations::load(&options.deviations)?;
    let mut report = Report {
        spec_dir: spec_dir.display().to_string(),
        ..Report::default()
    };

    let ours_v1 = schema::document(ProtocolVersion::V1);
    let ours_v0_3 = schema::document(ProtocolVersion::V0_3);
    let ours_v0_1 = schema::document(ProtocolVersion::V0_1);

    // 1. The JSON Schema versions.
    let mut spec_docs: BTreeMap<&str, Value> = BTreeMap::new();
    for (version, ours, protocol_version) in [
        ("0.1", &ours_v0_1, ProtocolVersion::V0_1),
        ("0.2", &ours_v0_3, ProtocolVersion::V0_3),
        ("0.3", &ours_v0_3, ProtocolVersion::V0_3),
    ] {
        let rel = format!("v{version}/a2a.json");
        match read_json(&spec_dir.join(&rel)) {
            Err(e) => {
                report.push(version, rel.clone(), "spec-unreadable", e);
                report.rows.push(Row {
                    version: version.to_owned(),
                    source: format!("`{rel}` (unreadable)"),
                    ours: format!("`{}`", protocol_version.module()),
                    checked: "nothing".to_owned(),
                });
            }
            Ok(doc) => {
                compare_json(&mut report, version, &rel, &doc, ours, protocol_version);
                spec_docs.insert(version, doc);
            }
        }
    }

    // 2. 1.0: the proto, then the published a2a.json's property names. Ours without the
    // fields of the 1.1 draft, which are held to the draft's proto below.
    let stubs = options.root.join("xtask/spec/proto");
    let v1_dir = spec_dir.join("v1.0");
    let ours_v1_1_shapes = shape::definitions(&ours_v1);
    let ours_v1_shapes = without_v1_1(&ours_v1_1_shapes);
    let model = match proto::load(&v1_dir, &stubs) {
        Err(e) => {
            report.push("1.0", "v1.0/a2a.proto", "spec-unreadable", e);
            None
        }
        Ok(model) => {
            compare_proto(&mut report, &model, &ours_v1_shapes);
            Some(model)
        }
    };
    let bundle = read_json(&v1_dir.join("a2a.json"));
    match (&bundle, &model) {
        (Ok(bundle), Some(model)) => {
            compare_bundle_names(&mut report, bundle, model, &ours_v1_shapes);
        }
        (Err(e), _) => report.push("1.0-json", "v1.0/a2a.json", "spec-unreadable", e.clone()),
        _ => {}
    }

    // 2b. The A2A 1.1 draft (unreleased, branch dev-1.1): its five new fields, ours against
    // its proto; everything else is 1.0's and checked above.
    compare_v1_1_draft(
        &mut report,
        &spec_dir.join(V1_1_DRAFT_DIR),
        &stubs,
        &ours_v1_1_shapes,
    );

    // 3. Fixtures.
    let mut spec_sets: BTreeMap<&str, SchemaSet> = BTreeMap::new();
    for (version, doc) in spec_docs {
        spec_sets.insert(version, SchemaSet::new(format!("v{version}/a2a.json"), doc));
    }
    spec_sets.insert("1.0", bundle_set(&mut report, bundle.ok(), model.as_ref()));
    let mut ours_sets: BTreeMap<&str, SchemaSet> = BTreeMap::new();
    ours_sets.insert(
        "1.0",
        SchemaSet::new(ProtocolVersion::V1.file_name(), ours_v1),
    );
    ours_sets.insert(
        "0.3",
        SchemaSet::new(ProtocolVersion::V0_3.file_name(), ours_v0_3.clone()),
    );
    ours_sets.insert(
        "0.2",
        SchemaSet::new(ProtocolVersion::V0_3.file_name(), ours_v0_3),
    );
    ours_sets.insert(
        "0.1",
        SchemaSet::new(ProtocolVersion::V0_1.file_name(), ours_v0_1),
    );
    check_fixtures(
        &mut report,
        &options.root.join("tests/fixtures"),
        &spec_sets,
        &ours_sets,
    )?;

    // 4. Deviations.
    for difference in &mut report.differences {
        difference.explained = deviations
            .iter()
            .find(|d| d.matches(&difference.version, &difference.subject, &difference.kind))
            .map(|d| d.reason.clone());
    }
    for deviation in &deviations {
        for (version, subject, kind) in deviation.combinations() {
            let used = report
                .differences
                .iter()
                .any(|d| d.version == version && d.subject == subject && d.kind == kind);
            if !used {
                report
                    .unused
                    .push(format!("[{version}] `{subject}` {kind}"));
            }
        }
    }

    if let Some(path) = &options.report {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        std::fs::write(path, report.render())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(report)
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))
}

fn compare_json(
    report: &mut Report,
    version: &str,
    rel: &str,
    spec_doc: &Value,
    ours_doc: &Value,
    protocol_version: ProtocolVersion,
) {
    let spec = shape::definitions(spec_doc);
    let ours = shape::definitions(ours_doc);
    let findings = Comparison {
        spec: &spec,
        ours: &ours,
    }
    .run();
    let missing = findings
        .iter()
        .filter(|f| f.kind == shape::Kind::MissingDefinition)
        .count();
    let only_ours: Vec<&str> = ours
        .keys()
        .filter(|k| !spec.contains_key(*k))
        .map(String::as_str)
        .collect();
    report.rows.push(Row {
        version: version.to_owned(),
        source: format!("`{rel}`"),
        ours: format!(
            "`{}` (`{}`)",
            protocol_version.module(),
            protocol_version.file_name()
        ),
        checked: format!(
            "{} definitions: {} present in ours, {missing} missing",
            spec.len(),
            spec.len() - missing
        ),
    });
    if !only_ours.is_empty() {
        report.notes.push(format!(
            "{version}: definitions only in ours (not in this spec version; not compared): {}",
            only_ours.join(", ")
        ));
    }
    if ours.is_empty() {
        report.notes.push(format!(
            "{version}: `{}` registers no types yet, so every spec definition is missing",
            protocol_version.module()
        ));
    }
    for f in findings {
        report.push(version, f.subject, f.kind.as_str(), f.detail);
    }
}

/// The folder of the A2A 1.1 draft's files in the spec folder.
const V1_1_DRAFT_DIR: &str = "unreleased-dev-1.1";

/// The label of the 1.1 draft's rows and differences.
const V1_1_DRAFT: &str = "1.1-draft";

/// The fields the A2A 1.1 draft adds to 1.0, by definition and JSON name.
const V1_1_FIELDS: [(&str, &str); 5] = [
    ("Task", "generation"),
    ("TaskStatusUpdateEvent", "generation"),
    ("TaskArtifactUpdateEvent", "generation"),
    ("GetTaskRequest", "currentGeneration"),
    ("SendMessageConfiguration", "ifGenerationMatch"),
];

/// Our 1.x shapes without the 1.1 draft's fields: what 1.0 is held to.
fn without_v1_1(ours: &BTreeMap<String, Shape>) -> BTreeMap<String, Shape> {
    let mut out = ours.clone();
    for (definition, field) in V1_1_FIELDS {
        if let Some(Shape::Object(object)) = out.get_mut(definition) {
            object.properties.remove(field);
            object.required.remove(field);
        }
    }
    out
}

/// The 1.1 draft's proto against ours: the differences that concern its new fields (each must
/// be in both, of the same shape); a field the draft lacks, or ours, is a difference.
fn compare_v1_1_draft(
    report: &mut Report,
    draft_dir: &Path,
    stubs: &Path,
    ours: &BTreeMap<String, Shape>,
) {
    // The draft is not a release: a spec folder made from the release tags alone has no copy
    // of it, and that is said, not counted as a difference.
    if !draft_dir.join("a2a.proto").exists() {
        report.notes.push(format!(
            "{V1_1_DRAFT}: not checked: no {V1_1_DRAFT_DIR}/a2a.proto in the spec folder \
             (specification/a2a.proto on branch dev-1.1 of a2aproject/A2A)"
        ));
        return;
    }
    let model = match proto::load(draft_dir, stubs) {
        Ok(model) => model,
        Err(e) => {
            report.push(
                V1_1_DRAFT,
                format!("{V1_1_DRAFT_DIR}/a2a.proto"),
                "spec-unreadable",
                e,
            );
            return;
        }
    };
    let findings = Comparison {
        spec: &model.shapes,
        ours,
    }
    .run();
    report.rows.push(Row {
        version: V1_1_DRAFT.to_owned(),
        source: format!(
            "`{V1_1_DRAFT_DIR}/a2a.proto` (unreleased draft; package `{}`)",
            model.package
        ),
        ours: format!("`{}`: the draft's fields", ProtocolVersion::V1.module()),
        checked: V1_1_FIELDS
            .iter()
            .map(|(definition, field)| format!("{definition}.{field}"))
            .collect::<Vec<_>>()
            .join(", "),
    });
    for (definition, field) in V1_1_FIELDS {
        let in_draft = matches!(model.shapes.get(definition),
            Some(Shape::Object(object)) if object.properties.contains_key(field));
        if !in_draft {
            report.push(
                V1_1_DRAFT,
                format!("{definition}.{field}"),
                "missing-in-spec",
                "the draft's proto no longer has this field".to_owned(),
            );
        }
    }
    for f in findings {
        let concerns_draft = V1_1_FIELDS.iter().any(|(definition, field)| {
            f.subject == format!("{definition}.{field}")
                || f.subject.starts_with(&format!("{definition}.{field}."))
        });
        if concerns_draft {
            report.push(V1_1_DRAFT, f.subject, f.kind.as_str(), f.detail);
        }
    }
}

fn compare_proto(report: &mut Report, model: &proto::ProtoModel, ours: &BTreeMap<String, Shape>) {
    let findings = Comparison {
        spec: &model.shapes,
        ours,
    }
    .run();
    let only_ours: Vec<&str> = ours
        .keys()
        .filter(|k| !model.shapes.contains_key(*k))
        .map(String::as_str)
        .collect();
    report.rows.push(Row {
        version: "1.0".to_owned(),
        source: format!("`v1.0/a2a.proto` (package `{}`)", model.package),
        ours: format!(
            "`{}` (`{}`)",
            ProtocolVersion::V1.module(),
            ProtocolVersion::V1.file_name()
        ),
        checked: format!(
            "{} messages, {} enums: {} fields ({} REQUIRED), {} oneofs, {} enum values",
            model.messages.len(),
            model.enums.len(),
            model.fields,
            model.required,
            model.oneofs,
            model.enum_values
        ),
    });
    if !only_ours.is_empty() {
        report.notes.push(format!(
            "1.0: definitions only in ours (helpers such as id newtypes, resolved where used): {}",
            only_ours.join(", ")
        ));
    }
    for f in findings {
        report.push("1.0", f.subject, f.kind.as_str(), f.detail);
    }
}

fn compare_bundle_names(
    report: &mut Report,
    bundle: &Value,
    model: &proto::ProtoModel,
    ours: &BTreeMap<String, Shape>,
) {
    let defs = bundle.get("definitions").and_then(Value::as_object);
    let mut compared = 0;
    for message in &model.messages {
        let title = proto::bundle_title(message);
        let Some(def) = defs.and_then(|d| d.get(&title)) else {
            report.push(
                "1.0-json",
                message.clone(),
                "missing-definition",
                format!("the published a2a.json has no definition titled `{title}`"),
            );
            continue;
        };
        let Some(Shape::Object(ours)) = ours.get(message) else {
            continue; // reported by the proto check
        };
        compared += 1;
        let theirs: Vec<&str> = def
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default();
        for name in &theirs {
            if !ours.properties.contains_key(*name) {
                report.push(
                    "1.0-json",
                    format!("{message}.{name}"),
                    "missing-property",
                    format!(
                        "the published a2a.json (`{title}`) has property `{name}`; ours does not"
                    ),
                );
            }
        }
        for name in ours.properties.keys() {
            if !theirs.contains(&name.as_str()) {
                report.push(
                    "1.0-json",
                    format!("{message}.{name}"),
                    "extra-property",
                    format!(
                        "ours has property `{name}`; the published a2a.json (`{title}`) does not"
                    ),
                );
            }
        }
    }
    report.rows.push(Row {
        version: "1.0-json".to_owned(),
        source: "`v1.0/a2a.json` (published build artifact, names only)".to_owned(),
        ours: format!("`{}`", ProtocolVersion::V1.module()),
        checked: format!(
            "property names of {compared} of {} messages",
            model.messages.len()
        ),
    });
}

/// The spec schema for 1.0 fixtures: the published bundle with its refs repaired.
fn bundle_set(
    report: &mut Report,
    bundle: Option<Value>,
    model: Option<&proto::ProtoModel>,
) -> SchemaSet {
    const LABEL: &str = "v1.0/a2a.json";
    let Some(bundle) = bundle else {
        return SchemaSet::unavailable(LABEL, "v1.0/a2a.json could not be read");
    };
    let (doc, repaired, dangling) = fixtures::repair_bundle(&bundle);
    if !dangling.is_empty() {
        let reason = format!(
            "v1.0/a2a.json has $refs that name no bundled definition ({}), so 1.0 fixtures are not validated against it; the proto check (section 1.0) holds the types instead",
            dangling.join(", ")
        );
        report.notes.push(format!("1.0 fixtures: {reason}"));
        return SchemaSet::unavailable(LABEL, reason);
    }
    report.notes.push(format!(
        "1.0 fixtures: the published v1.0/a2a.json names per-message files in its $refs (`lf.a2a.v1.Task.jsonschema.json`) that it does not bundle; its {repaired} refs were pointed at the bundled definition of the same message (found by the title the generator gives it) before validating. That schema has no `required` arrays and no oneof constraints, and sets `additionalProperties: false`."
    ));
    let mut set = SchemaSet::new(LABEL, doc);
    for message in model.map(|m| m.messages.as_slice()).unwrap_or_default() {
        set = set.with_alias(message, &proto::bundle_title(message));
    }
    set
}

fn check_fixtures(
    report: &mut Report,
    dir: &Path,
    spec_sets: &BTreeMap<&str, SchemaSet>,
    ours_sets: &BTreeMap<&str, SchemaSet>,
) -> Result<(), String> {
    let fixtures = fixtures::discover(dir)?;
    // Per version: positive, negative, spec ok, ours ok, not validated against the spec.
    let mut stats: BTreeMap<&str, [usize; 5]> = BTreeMap::new();
    let mut skipped = Vec::new();
    for fixture in &fixtures {
        let subject = format!("tests/fixtures/{}", fixture.rel);
        if fixture.versions.is_empty() {
            report.push(
                "fixtures",
                subject,
                "fixture-unclassified",
                "not under v1/, v0_3/, v0_2/, v0_1/ or an expected-v1/ folder: no spec version"
                    .to_owned(),
            );
            continue;
        }
        let document = match &fixture.document {
            Ok(doc) => doc,
            Err(e) => {
                report.push(
                    fixture.versions[0],
                    subject,
                    "fixture-unreadable",
                    e.clone(),
                );
                continue;
            }
        };
        let type_name = match &fixture.converted_from {
            None => fixture.type_name.as_str(),
            Some(definition) => match crate::types::expected_v1_type(definition) {
                Ok(name) => name,
                Err(reason) => {
                    skipped.push(format!("`{}` ({reason})", fixture.rel));
                    continue;
                }
            },
        };
        for &version in &fixture.versions {
            let row = stats.entry(version).or_default();
            row[usize::from(fixture.negative)] += 1;
            let sides = [
                ("spec", spec_sets.get(version)),
                ("ours", ours_sets.get(version)),
            ];
            for (index, (side, set)) in sides.into_iter().enumerate() {
                let Some(set) = set else { continue };
                let verdict = set.validate(type_name, document);
                let label = &set.label;
                let ty = type_name;
                match (&verdict, fixture.negative) {
                    (Verdict::Valid, false) | (Verdict::Invalid(_), true) => row[2 + index] += 1,
                    (Verdict::Unavailable(_), _) if side == "spec" => row[4] += 1,
                    (Verdict::Unavailable(reason), _) => {
                        report.push(version, subject.clone(), "schema-unusable", reason.clone());
                    }
                    (Verdict::UnknownType, _) => report.push(
                        version,
                        subject.clone(),
                        &format!("fixture-type-not-in-{side}"),
                        format!("{label} has no definition `{ty}`"),
                    ),
                    (Verdict::Invalid(errors), false) => report.push(
                        version,
                        subject.clone(),
                        &format!("fixture-rejected-by-{side}"),
                        format!("{label} `{ty}` rejects it: {}", errors.join("; ")),
                    ),
                    (Verdict::Valid, true) => report.push(
                        version,
                        subject.clone(),
                        &format!("negative-accepted-by-{side}"),
                        format!("{label} `{ty}` accepts this negative fixture"),
                    ),
                }
            }
        }
    }
    if !skipped.is_empty() {
        report.notes.push(format!(
            "fixtures not validated, having no schema to validate against: {}",
            skipped.join(", ")
        ));
    }
    for (version, [positive, negative, spec_ok, ours_ok, unvalidated]) in stats {
        let total = positive + negative;
        let spec = if unvalidated == total {
            "not validated (see notes)".to_owned()
        } else {
            format!("{spec_ok}/{}", total - unvalidated)
        };
        report.fixture_rows.push([
            version.to_owned(),
            positive.to_string(),
            negative.to_string(),
            spec,
            format!("{ours_ok}/{total}"),
        ]);
    }
    Ok(())
}

impl Report {
    /// The report as Markdown.
    pub(crate) fn render(&self) -> String {
        let unexplained: Vec<&Difference> = self.unexplained().collect();
        let explained: Vec<&Difference> = self
            .differences
            .iter()
            .filter(|d| d.explained.is_some())
            .collect();
        let mut out = String::new();
        let _ = writeln!(out, "# A2A conformance report\n");
        let _ = writeln!(out, "Spec folder: `{}`\n", self.spec_dir);
        let verdict = if unexplained.is_empty() {
            "PASS".to_owned()
        } else {
            format!("FAIL: {}", differences(unexplained.len()))
        };
        let _ = writeln!(
            out,
            "**{verdict}** ({} differences in all, {} explained by `schema/deviations.json`)\n",
            self.differences.len(),
            explained.len()
        );
        let _ = writeln!(out, "## Types\n");
        let _ = writeln!(
            out,
            "| version | spec | ours | checked | unexplained | deviations |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|");
        for row in &self.rows {
            let (bad, ok) = self.count(&row.version);
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {bad} | {ok} |",
                row.version, row.source, row.ours, row.checked
            );
        }
        let _ = writeln!(out, "\n## Fixtures (`tests/fixtures/`)\n");
        let _ = writeln!(
            out,
            "A positive fixture passes a schema when it validates; a negative one when it is rejected.\n"
        );
        let _ = writeln!(
            out,
            "| version | positive | negative | pass the spec schema | pass ours | unexplained | deviations |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|---|");
        for [version, positive, negative, spec, ours] in &self.fixture_rows {
            let (bad, ok) = self.count_fixtures(version);
            let _ = writeln!(
                out,
                "| {version} | {positive} | {negative} | {spec} | {ours} | {bad} | {ok} |"
            );
        }
        if !self.notes.is_empty() {
            let _ = writeln!(out, "\n## Notes\n");
            for note in &self.notes {
                let _ = writeln!(out, "- {note}");
            }
        }
        let _ = writeln!(
            out,
            "\n## Unexplained differences ({})\n",
            unexplained.len()
        );
        if unexplained.is_empty() {
            let _ = writeln!(out, "None.");
        }
        for d in &unexplained {
            let _ = writeln!(
                out,
                "- [{}] `{}` {}: {}",
                d.version, d.subject, d.kind, d.detail
            );
        }
        let _ = writeln!(out, "\n## Deviations ({})\n", explained.len());
        if explained.is_empty() {
            let _ = writeln!(out, "None.");
        }
        for d in &explained {
            let _ = writeln!(
                out,
                "- [{}] `{}` {}: {}\n  - why: {}",
                d.version,
                d.subject,
                d.kind,
                d.detail,
                d.explained.as_deref().unwrap_or_default()
            );
        }
        if !self.unused.is_empty() {
            let _ = writeln!(
                out,
                "\n## Unused deviations ({})\n\nThese entries match no difference any more; remove them.\n",
                self.unused.len()
            );
            for d in &self.unused {
                let _ = writeln!(out, "- {d}");
            }
        }
        out
    }

    fn count_fixtures(&self, version: &str) -> (usize, usize) {
        let all: Vec<&Difference> = self
            .differences
            .iter()
            .filter(|d| d.version == version && d.subject.starts_with("tests/fixtures/"))
            .collect();
        let explained = all.iter().filter(|d| d.explained.is_some()).count();
        (all.len() - explained, explained)
    }
}

/// `cargo xtask conformance [--spec-dir DIR]`: first checks that every spec file is there (one
/// line saying where it looked and where the files come from, when one is not).
pub(crate) fn main(workspace: &Workspace, args: &[String]) -> Result<(), String> {
    let mut flag = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--spec-dir" => flag = Some(args.next().ok_or("--spec-dir needs a folder")?),
            other => return Err(format!("conformance: unknown argument `{other}`")),
        }
    }
    let spec_dir = match flag {
        Some(dir) => {
            let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
            let dir = SpecDir::named(&cwd, Path::new(dir), Source::Flag);
            dir.check()?;
            dir
        }
        None => SpecDir::locate(&workspace.root)?,
    };
    main_with(
        &Options::new(workspace, spec_dir.path),
        &mut std::io::stdout(),
    )
}

/// "1 unexplained difference", "2 unexplained differences".
fn differences(n: usize) -> String {
    format!(
        "{n} unexplained difference{}",
        if n == 1 { "" } else { "s" }
    )
}

/// Runs conformance, writes the report to `out`, and fails on unexplained differences.
pub(crate) fn main_with(options: &Options, out: &mut impl std::io::Write) -> Result<(), String> {
    let report = run(options)?;
    let _ = out.write_all(report.render().as_bytes());
    let unexplained = report.unexplained().count();
    let written = options
        .report
        .as_deref()
        .map(|p| format!(" (report: {})", p.display()))
        .unwrap_or_default();
    if unexplained == 0 {
        eprintln!("conformance: no unexplained differences{written}");
        Ok(())
    } else {
        Err(format!(
            "conformance: {} between the spec in {} and our types{written}; fix the types or add a deviation with a reason to schema/deviations.json",
            differences(unexplained),
            options.spec_dir.display()
        ))
    }
}

#[cfg(test)]
mod tests;
