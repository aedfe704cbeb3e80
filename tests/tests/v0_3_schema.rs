//! The JSON Schema of the `v0_3` types (feature `schemars`, draft-07, serialize contract)
//! against the normative `a2a.json` of A2A 0.3: every definition is present under its name,
//! with the same property names, the same `required` set, and the same `const` and `enum`
//! values.
//!
//! The spec is read from `$A2A_SPEC_DIR/v0.3/a2a.json` and `v0.2/a2a.json` (default
//! `../shared/spec`, relative to the workspace root; `cargo xtask ci` passes the folder it
//! checked). When a file is not there the test fails, saying where it looked and where the file
//! comes from.

use std::collections::{BTreeMap, BTreeSet};

use a2a_types::v0_3::*;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

/// The definitions of `a2a.json` that are abstract bases in `types.ts` (their properties
/// live in the definitions that extend them) or untyped JSON-RPC envelopes, and so have no
/// Rust type of their own. `docs/versions.md` gives the reasons.
const NO_TYPE: &[&str] = &[
    "FileBase",
    "PartBase",
    "SecuritySchemeBase",
    "JSONRPCMessage",
    "JSONRPCRequest",
    "JSONRPCSuccessResponse",
    "JSONRPCResponse",
];

/// The spec file `rel` as JSON; a missing file fails the test with where it was looked for.
fn spec_json(rel: &str) -> Value {
    let path = xtask::spec::test_file(rel);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

fn our_definitions() -> Map<String, Value> {
    let mut generator = SchemaSettings::draft07().for_serialize().into_generator();
    macro_rules! add {
        ($($t:ty),+ $(,)?) => { $( generator.subschema_for::<$t>(); )+ };
    }
    add!(
        A2AError,
        A2ARequest,
        AgentCard,
        AgentCapabilities,
        AgentCardSignature,
        AgentExtension,
        AgentInterface,
        AgentProvider,
        AgentSkill,
        ApiKeySecurityScheme,
        Artifact,
        AuthenticatedExtendedCardNotConfiguredError,
        AuthorizationCodeOAuthFlow,
        CancelTaskRequest,
        CancelTaskResponse,
        CancelTaskSuccessResponse,
        ClientCredentialsOAuthFlow,
        ContentTypeNotSupportedError,
        DataPart,
        DeleteTaskPushNotificationConfigParams,
        DeleteTaskPushNotificationConfigRequest,
        DeleteTaskPushNotificationConfigResponse,
        DeleteTaskPushNotificationConfigSuccessResponse,
        FilePart,
        FileWithBytes,
        FileWithUri,
        GetAuthenticatedExtendedCardRequest,
        GetAuthenticatedExtendedCardResponse,
        GetAuthenticatedExtendedCardSuccessResponse,
        GetTaskPushNotificationConfigParams,
        GetTaskPushNotificationConfigRequest,
        GetTaskPushNotificationConfigResponse,
        GetTaskPushNotificationConfigSuccessResponse,
        GetTaskRequest,
        GetTaskResponse,
        GetTaskSuccessResponse,
        HttpAuthSecurityScheme,
        ImplicitOAuthFlow,
        InternalError,
        InvalidAgentResponseError,
        InvalidParamsError,
        InvalidRequestError,
        JsonParseError,
        JsonRpcError,
        JsonRpcErrorResponse,
        ListTaskPushNotificationConfigParams,
        ListTaskPushNotificationConfigRequest,
        ListTaskPushNotificationConfigResponse,
        ListTaskPushNotificationConfigSuccessResponse,
        Message,
        MessageSendConfiguration,
        MessageSendParams,
        MethodNotFoundError,
        MutualTlsSecurityScheme,
        OAuth2SecurityScheme,
        OAuthFlows,
        OpenIdConnectSecurityScheme,
        Part,
        PasswordOAuthFlow,
        PushNotificationAuthenticationInfo,
        PushNotificationConfig,
        PushNotificationNotSupportedError,
        SecurityScheme,
        SendMessageRequest,
        SendMessageResponse,
        SendMessageSuccessResponse,
        SendStreamingMessageRequest,
        SendStreamingMessageResponse,
        SendStreamingMessageSuccessResponse,
        SetTaskPushNotificationConfigRequest,
        SetTaskPushNotificationConfigResponse,
        SetTaskPushNotificationConfigSuccessResponse,
        Task,
        TaskArtifactUpdateEvent,
        TaskIdParams,
        TaskNotCancelableError,
        TaskNotFoundError,
        TaskPushNotificationConfig,
        TaskQueryParams,
        TaskResubscriptionRequest,
        TaskState,
        TaskStatus,
        TaskStatusUpdateEvent,
        TextPart,
        TransportProtocol,
        UnsupportedOperationError,
    );
    generator.take_definitions(true)
}

/// What the comparison looks at: property names, `required`, and for each property its
/// `const`, its `enum` values and its type (or `$ref` target, or `anyOf` targets).
fn shape(schema: &Value) -> Value {
    let mut out = Map::new();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        let mut shaped = Map::new();
        for (name, prop) in props {
            shaped.insert(name.clone(), prop_shape(prop));
        }
        out.insert("properties".into(), Value::Object(shaped));
    }
    let required: BTreeSet<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    out.insert("required".into(), serde_json::json!(required));
    for key in ["enum", "const"] {
        if let Some(v) = schema.get(key) {
            out.insert(key.into(), sorted(v));
        }
    }
    if let Some(any) = schema.get("anyOf") {
        out.insert("anyOf".into(), refs(any));
    }
    Value::Object(out)
}

fn sorted(v: &Value) -> Value {
    match v.as_array() {
        Some(items) => {
            let mut items: Vec<String> = items.iter().map(Value::to_string).collect();
            items.sort();
            serde_json::json!(items)
        }
        None => v.clone(),
    }
}

fn refs(any: &Value) -> Value {
    let mut names: Vec<String> = any
        .as_array()
        .unwrap()
        .iter()
        .map(|branch| match branch.get("$ref").and_then(Value::as_str) {
            Some(r) => r.rsplit('/').next().unwrap().to_owned(),
            None => branch.to_string(),
        })
        .collect();
    names.sort();
    serde_json::json!(names)
}

fn prop_shape(prop: &Value) -> Value {
    let mut out = Map::new();
    for key in ["const", "enum"] {
        if let Some(v) = prop.get(key) {
            out.insert(key.into(), sorted(v));
        }
    }
    // Draft-07 ignores siblings of `$ref`, so schemars wraps a described reference as
    // `{"allOf": [{"$ref": ...}], "description": ...}`; a2a.json keeps the bare siblings.
    let target = prop.get("$ref").or_else(|| match prop.get("allOf") {
        Some(Value::Array(all)) if all.len() == 1 => all[0].get("$ref"),
        _ => None,
    });
    if let Some(r) = target.and_then(Value::as_str) {
        out.insert(
            "ref".into(),
            Value::String(r.rsplit('/').next().unwrap().to_owned()),
        );
    }
    if let Some(any) = prop.get("anyOf") {
        out.insert("anyOf".into(), refs(any));
    }
    if let Some(t) = prop.get("type") {
        out.insert("type".into(), sorted(t));
    }
    if let Some(items) = prop.get("items") {
        out.insert("items".into(), prop_shape(items));
    }
    if let Some(Value::Object(extra)) = prop.get("additionalProperties")
        && !extra.is_empty()
    {
        out.insert("values".into(), prop_shape(&Value::Object(extra.clone())));
    }
    Value::Object(out)
}

#[test]
fn every_definition_matches_a2a_json() {
    let spec = spec_json("v0.3/a2a.json");
    let spec = spec["definitions"].as_object().unwrap();
    let ours = our_definitions();

    let mut problems = BTreeMap::new();
    for (name, def) in spec {
        if NO_TYPE.contains(&name.as_str()) {
            continue;
        }
        let Some(mine) = ours.get(name) else {
            problems.insert(name.clone(), "no Rust type has this schema name".to_owned());
            continue;
        };
        let (want, got) = (shape(def), shape(mine));
        if want != got {
            problems.insert(
                name.clone(),
                format!(
                    "\n  a2a.json: {}\n  ours:     {}",
                    serde_json::to_string(&want).unwrap(),
                    serde_json::to_string(&got).unwrap()
                ),
            );
        }
    }
    assert!(
        problems.is_empty(),
        "{} definitions differ:\n{}",
        problems.len(),
        problems
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The 0.2.6 `a2a.json` has a subset of the 0.3 definitions, each with a subset of the 0.3
/// properties (0.3 only added): every 0.2 definition is ours with the same `required` set and
/// the same shape for every property 0.2 has.
#[test]
fn every_0_2_definition_is_covered() {
    let spec = spec_json("v0.2/a2a.json");
    let ours = our_definitions();
    let mut problems = Vec::new();
    for (name, def) in spec["definitions"].as_object().unwrap() {
        if NO_TYPE.contains(&name.as_str()) {
            continue;
        }
        let Some(mine) = ours.get(name) else {
            problems.push(format!("{name}: no Rust type"));
            continue;
        };
        let (want, got) = (shape(def), shape(mine));
        if want["required"] != got["required"] {
            problems.push(format!(
                "{name}: required {} vs {}",
                want["required"], got["required"]
            ));
        }
        if let Some(props) = want["properties"].as_object() {
            for (prop, shape) in props {
                let mine = got["properties"].get(prop);
                if subset_of_union(shape, mine) {
                    // 0.3 added a member to the union (the error -32007).
                    continue;
                }
                if mine != Some(shape) {
                    problems.push(format!(
                        "{name}.{prop}: {shape} vs {:?}",
                        got["properties"].get(prop)
                    ));
                }
            }
        }
        if let (Some(want_any), Some(got_any)) = (want.get("anyOf"), got.get("anyOf")) {
            let got_any = got_any.as_array().unwrap();
            for branch in want_any.as_array().unwrap() {
                if !got_any.contains(branch) {
                    problems.push(format!("{name}: anyOf lacks {branch}"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// True when both are unions and every member of `want` is one of `got`.
fn subset_of_union(want: &Value, got: Option<&Value>) -> bool {
    match (
        want.get("anyOf").and_then(Value::as_array),
        got.and_then(|g| g.get("anyOf")).and_then(Value::as_array),
    ) {
        (Some(want), Some(got)) => want.iter().all(|w| got.contains(w)),
        _ => false,
    }
}
