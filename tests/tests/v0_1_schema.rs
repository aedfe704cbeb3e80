//! The JSON Schema of `a2a_types::v0_1` against `a2a.json` 0.1, definition by definition: the
//! same definition names, the same property names, the same `required` sets, the same `const`
//! and `enum` values, and compatible types (a `$ref` to the same definition, or the same JSON
//! type). The few documented deviations are listed in `DEVIATIONS`.
//!
//! The spec file is read from `$A2A_SPEC_DIR/v0.1/a2a.json` (default `../shared/spec`, beside the
//! workspace; `cargo xtask ci` passes the folder it checked). When it is not there the test fails,
//! saying where it looked and where the file comes from.

use std::collections::{BTreeMap, BTreeSet};

use a2a_types::v0_1::*;
use schemars::generate::{SchemaGenerator, SchemaSettings};
use serde_json::{Map, Value};

/// Every root type, by the definition name it must produce.
fn our_definitions() -> Map<String, Value> {
    let mut generator = SchemaGenerator::new(SchemaSettings::draft07().for_serialize());
    macro_rules! roots {
        ($($ty:ty),+ $(,)?) => { $( generator.subschema_for::<$ty>(); )+ };
    }
    roots!(
        A2aRequest,
        AgentAuthentication,
        AgentCapabilities,
        AgentCard,
        AgentProvider,
        AgentSkill,
        Artifact,
        AuthenticationInfo,
        CancelTaskRequest,
        CancelTaskResponse,
        ContentTypeNotSupportedError,
        DataPart,
        FileContent,
        FilePart,
        GetTaskPushNotificationRequest,
        GetTaskPushNotificationResponse,
        GetTaskRequest,
        GetTaskResponse,
        InternalError,
        InvalidParamsError,
        InvalidRequestError,
        JsonParseError,
        JsonRpcError,
        JsonRpcMessage,
        JsonRpcRequest,
        JsonRpcResponse,
        Message,
        MethodNotFoundError,
        Part,
        PushNotificationConfig,
        PushNotificationNotSupportedError,
        SendTaskRequest,
        SendTaskResponse,
        SendTaskStreamingRequest,
        SendTaskStreamingResponse,
        SetTaskPushNotificationRequest,
        SetTaskPushNotificationResponse,
        Task,
        TaskArtifactUpdateEvent,
        TaskIdParams,
        TaskNotCancelableError,
        TaskNotFoundError,
        TaskPushNotificationConfig,
        TaskQueryParams,
        TaskResubscriptionRequest,
        TaskSendParams,
        TaskState,
        TaskStatus,
        TaskStatusUpdateEvent,
        TextPart,
        UnsupportedOperationError,
    );
    generator.take_definitions(true)
}

fn main_spec() -> Map<String, Value> {
    let path = xtask::spec::test_file("v0.1/a2a.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let doc: Value = serde_json::from_str(&text).expect("a2a.json 0.1 is JSON");
    doc["$defs"].as_object().expect("$defs").clone()
}

/// `Definition.property` whose type deliberately differs from `a2a.json`, and why.
const DEVIATIONS: &[(&str, &str)] = &[
    (
        "JSONRPCError.data",
        "any JSON value, as spec text §6.12 says; a2a.json: object",
    ),
    (
        "JSONRPCRequest.params",
        "any JSON value (JSON-RPC allows arrays); a2a.json: object",
    ),
    (
        "JSONRPCResponse.result",
        "any JSON value, as spec text §6.11 says; a2a.json: object",
    ),
    (
        "JSONParseError.data",
        "any JSON value, like JSONRPCError.data",
    ),
    (
        "InvalidRequestError.data",
        "any JSON value, like JSONRPCError.data",
    ),
    (
        "InvalidParamsError.data",
        "any JSON value, like JSONRPCError.data",
    ),
    (
        "InternalError.data",
        "any JSON value, like JSONRPCError.data",
    ),
    (
        "A2ARequest",
        "also holds SendTaskStreamingRequest (tasks/sendSubscribe)",
    ),
];

/// Definitions we have and `a2a.json` does not.
const EXTRA_DEFINITIONS: &[&str] = &["ContentTypeNotSupportedError"];

fn ref_name(schema: &Value) -> Option<&str> {
    // schemars wraps a `$ref` that has a sibling `description` in a one-element `allOf`.
    let target = match schema.get("allOf").and_then(Value::as_array) {
        Some(all) if all.len() == 1 => &all[0],
        _ => schema,
    };
    target.get("$ref")?.as_str()?.rsplit('/').next()
}

fn is_any(schema: &Value) -> bool {
    schema.as_bool() == Some(true)
        || schema.as_object().is_some_and(|o| {
            o.keys()
                .all(|k| matches!(k.as_str(), "title" | "description" | "default" | "examples"))
        })
}

fn union_members(schema: &Value, key: &str) -> Option<BTreeSet<String>> {
    Some(
        schema
            .get(key)?
            .as_array()?
            .iter()
            .map(|m| ref_name(m).map_or_else(|| m["type"].to_string(), str::to_owned))
            .collect(),
    )
}

/// Differences between the spec's schema of one value and ours, as messages.
fn compare(at: &str, spec: &Value, ours: &Value, out: &mut Vec<String>) {
    if is_any(spec) {
        return;
    }
    if let Some(c) = spec.get("const")
        && ours.get("const") != Some(c)
    {
        out.push(format!("{at}: const {c} vs {:?}", ours.get("const")));
    }
    if let Some(e) = spec.get("enum")
        && ours.get("enum") != Some(e)
    {
        out.push(format!("{at}: enum {e} vs {:?}", ours.get("enum")));
    }
    if let Some(name) = ref_name(spec) {
        if ref_name(ours) != Some(name) {
            out.push(format!("{at}: $ref {name} vs {ours}"));
        }
        return;
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(members) = union_members(spec, key) {
            let theirs = union_members(ours, key);
            if theirs.as_ref() != Some(&members) {
                out.push(format!("{at}: {key} {members:?} vs {theirs:?}"));
            }
            return;
        }
    }
    if let Some(ty) = spec.get("type") {
        if ours.get("type") != Some(ty) {
            out.push(format!("{at}: type {ty} vs {:?}", ours.get("type")));
            return;
        }
        if ty == "array" {
            compare(&format!("{at}[]"), &spec["items"], &ours["items"], out);
        }
    }
    if let Some(props) = spec.get("properties").and_then(Value::as_object) {
        let empty = Map::new();
        let our_props = ours
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let names = |m: &Map<String, Value>| m.keys().cloned().collect::<BTreeSet<_>>();
        if names(props) != names(our_props) {
            out.push(format!(
                "{at}: properties {:?} vs {:?}",
                names(props),
                names(our_props)
            ));
        }
        let required = |s: &Value| -> BTreeSet<String> {
            s.get("required")
                .and_then(Value::as_array)
                .map(|r| {
                    r.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default()
        };
        if required(spec) != required(ours) {
            out.push(format!(
                "{at}: required {:?} vs {:?}",
                required(spec),
                required(ours)
            ));
        }
        for (name, prop) in props {
            if let Some(our_prop) = our_props.get(name) {
                compare(&format!("{at}.{name}"), prop, our_prop, out);
            }
        }
    }
}

#[test]
fn every_definition_matches_a2a_json() {
    let spec = main_spec();
    let ours = our_definitions();
    let spec_names: BTreeSet<&String> = spec.keys().collect();
    let our_names: BTreeSet<&String> = ours.keys().collect();
    let missing: Vec<_> = spec_names.difference(&our_names).collect();
    assert!(
        missing.is_empty(),
        "definitions without a Rust type: {missing:?}"
    );
    let extra: Vec<_> = our_names
        .difference(&spec_names)
        .filter(|n| !EXTRA_DEFINITIONS.contains(&n.as_str()))
        .collect();
    assert!(
        extra.is_empty(),
        "definitions a2a.json does not have: {extra:?}"
    );

    let mut problems = Vec::new();
    for (name, schema) in &spec {
        compare(name, schema, &ours[name], &mut problems);
    }
    let allowed: BTreeMap<&str, &str> = DEVIATIONS.iter().copied().collect();
    let (expected, unexpected): (Vec<_>, Vec<_>) = problems.into_iter().partition(|p| {
        let at = p.split(':').next().unwrap_or_default();
        allowed.contains_key(at)
    });
    assert!(
        unexpected.is_empty(),
        "schema differences from a2a.json 0.1:\n{}",
        unexpected.join("\n")
    );
    let deviating: BTreeSet<&str> = expected
        .iter()
        .map(|p| p.split(':').next().unwrap_or_default())
        .collect();
    let stale: Vec<_> = allowed.keys().filter(|k| !deviating.contains(*k)).collect();
    assert!(
        stale.is_empty(),
        "documented deviations that no longer deviate: {stale:?}"
    );
}

#[test]
fn schema_describes_only_what_serde_writes() {
    // The wire transform strips the `null` branch of every optional field: serde never writes
    // `null`. `A2A_PRINT_SCHEMA=1` prints the definitions to stderr (with `--nocapture`).
    let ours = Value::Object(our_definitions());
    let text = serde_json::to_string(&ours).unwrap();
    assert!(
        !text.contains(r#""null""#),
        "a `null` type in the 0.1 schema"
    );
    assert!(
        !text.contains(r#""default""#),
        "a `default` in the 0.1 schema"
    );
    if std::env::var_os("A2A_PRINT_SCHEMA").is_some() {
        eprintln!("{}", serde_json::to_string_pretty(&ours).unwrap());
    }
}
