//! Golden fixtures of A2A 0.3 (and 0.2.x): every document under `tests/fixtures/v0_3/`
//!
//! * decodes as the `a2a.json` definition its file name starts with, and encodes back to the
//!   same JSON (but for `false` and `[]` values the types do not write);
//! * converts to A2A 1.0 (the `params` or `result` of a JSON-RPC envelope) and encodes as
//!   exactly the hand-written ProtoJSON document of the same name under `expected-v1/`;
//! * converts back from that 1.0 document to the original 0.3 `params` or `result`, except
//!   where a listed conversion loses information (the reason is given for each).
//!
//! `tests/fixtures/v0_3/README.md` says where each document comes from and what was fixed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use a2a_tests::{fixture_files, fixtures_dir};
use a2a_types::json::{self, DecodeError};
use a2a_types::{v0_3, v1};
use pretty_assertions::assert_eq;
use serde_json::Value;

/// Fixtures whose 1.0 form does not convert back to the exact original, and why.
const LOSSY: &[(&str, &str)] = &[
    (
        "AgentCard.section-5-7-sample.json",
        "protocolVersion 0.2.9 is 0.2 in 1.0 (Major.Minor), written back as 0.2.0; \
         stateTransitionHistory is gone in 1.0",
    ),
    (
        "AgentCard.v0-2-6-handwritten.json",
        "protocolVersion 0.2.6 is 0.2 in 1.0, written back as 0.2.0; no preferredTransport: \
         JSONRPC is written back; stateTransitionHistory is gone in 1.0; \
         1.0 keeps one OAuth flow of two",
    ),
    (
        "AgentCard.v0-2-5-handwritten.json",
        "protocolVersion 0.2.5 is 0.2 in 1.0, written back as 0.2.0",
    ),
    (
        "SendStreamingMessageSuccessResponse.section-9-3-task.json",
        "a timestamp without offset is read as UTC and written back with Z",
    ),
    (
        "SendStreamingMessageSuccessResponse.section-9-3-status-completed.json",
        "a timestamp without offset is read as UTC and written back with Z",
    ),
    (
        "SendMessageSuccessResponse.section-9-7.json",
        "a timestamp without offset is read as UTC and written back with Z",
    ),
    (
        "SendMessageSuccessResponse.section-9-4-2.json",
        "timestamps are written back with milliseconds",
    ),
    (
        "SendMessageSuccessResponse.section-9-5.json",
        "timestamps are written back with milliseconds",
    ),
    (
        "SendMessageSuccessResponse.section-9-6.json",
        "timestamps are written back with milliseconds",
    ),
    (
        "Task.section-9-5-push-body.json",
        "timestamps are written back with milliseconds",
    ),
    (
        "GetTaskSuccessResponse.handwritten-auth-required.json",
        "a timestamp's +02:00 offset becomes Z",
    ),
    (
        "SendMessageRequest.section-9-5.json",
        "an absent configuration.blocking (true) is written back as blocking: true",
    ),
    (
        "SetTaskPushNotificationConfigRequest.v0-2-5-handwritten.json",
        "1.0 keeps only the first of authentication.schemes",
    ),
];

fn definition(path: &Path) -> String {
    let file = path.file_name().unwrap().to_str().unwrap();
    file.split('.').next().unwrap().to_owned()
}

fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_str().unwrap().to_owned()
}

/// The part of a 0.3 document that converts: `params` of a request, `result` of a success
/// response, `error` of an error response, the document itself otherwise.
fn payload(definition: &str, document: &Value) -> Value {
    let key = if definition.ends_with("SuccessResponse") {
        "result"
    } else if definition == "JSONRPCErrorResponse" {
        "error"
    } else if definition.ends_with("Request") {
        "params"
    } else {
        return document.clone();
    };
    document.get(key).cloned().unwrap_or(Value::Null)
}

fn to_value<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("encodes")
}

/// Decodes a 0.3 document as `definition`; returns its re-encoding and its 1.0 conversion.
fn decode_and_convert(definition: &str, text: &str) -> Result<(Value, Value), DecodeError> {
    fn go<T, V>(text: &str, convert: impl FnOnce(T) -> V) -> Result<(Value, Value), DecodeError>
    where
        T: serde::de::DeserializeOwned + serde::Serialize,
        V: serde::Serialize,
    {
        let decoded: T = json::from_str(text)?;
        let again = to_value(&decoded);
        Ok((again, to_value(&convert(decoded))))
    }
    use v0_3::*;
    match definition {
        "AgentCard" => go(text, |c: AgentCard| v1::AgentCard::from(c)),
        "Task" => go(text, |t: Task| v1::Task::from(t)),
        "Message" => go(text, |m: Message| v1::Message::from(m)),
        "SendMessageRequest" => go(text, |r: SendMessageRequest| {
            v1::SendMessageRequest::from(r.params)
        }),
        "SendStreamingMessageRequest" => go(text, |r: SendStreamingMessageRequest| {
            v1::SendMessageRequest::from(r.params)
        }),
        "GetTaskRequest" => go(text, |r: GetTaskRequest| v1::GetTaskRequest::from(r.params)),
        "CancelTaskRequest" => go(text, |r: CancelTaskRequest| {
            v1::CancelTaskRequest::from(r.params)
        }),
        "TaskResubscriptionRequest" => go(text, |r: TaskResubscriptionRequest| {
            v1::SubscribeToTaskRequest::from(r.params)
        }),
        "SetTaskPushNotificationConfigRequest" => {
            go(text, |r: SetTaskPushNotificationConfigRequest| {
                v1::TaskPushNotificationConfig::from(r.params)
            })
        }
        "GetTaskPushNotificationConfigRequest" => {
            go(text, |r: GetTaskPushNotificationConfigRequest| {
                v1::GetTaskPushNotificationConfigRequest::from(r.params)
            })
        }
        "ListTaskPushNotificationConfigRequest" => {
            go(text, |r: ListTaskPushNotificationConfigRequest| {
                v1::ListTaskPushNotificationConfigsRequest::from(r.params)
            })
        }
        "DeleteTaskPushNotificationConfigRequest" => {
            go(text, |r: DeleteTaskPushNotificationConfigRequest| {
                v1::DeleteTaskPushNotificationConfigRequest::from(r.params)
            })
        }
        "GetAuthenticatedExtendedCardRequest" => {
            go(text, |_: GetAuthenticatedExtendedCardRequest| {
                v1::GetExtendedAgentCardRequest::new()
            })
        }
        "SendMessageSuccessResponse" => go(text, |r: SendMessageSuccessResponse| {
            v1::SendMessageResponse::from(r.result)
        }),
        "SendStreamingMessageSuccessResponse" => {
            go(text, |r: SendStreamingMessageSuccessResponse| {
                v1::StreamResponse::from(r.result)
            })
        }
        "GetTaskSuccessResponse" => go(text, |r: GetTaskSuccessResponse| v1::Task::from(r.result)),
        "CancelTaskSuccessResponse" => go(text, |r: CancelTaskSuccessResponse| {
            v1::Task::from(r.result)
        }),
        "SetTaskPushNotificationConfigSuccessResponse" => {
            go(text, |r: SetTaskPushNotificationConfigSuccessResponse| {
                v1::TaskPushNotificationConfig::from(r.result)
            })
        }
        "GetTaskPushNotificationConfigSuccessResponse" => {
            go(text, |r: GetTaskPushNotificationConfigSuccessResponse| {
                v1::TaskPushNotificationConfig::from(r.result)
            })
        }
        "ListTaskPushNotificationConfigSuccessResponse" => {
            go(text, |r: ListTaskPushNotificationConfigSuccessResponse| {
                v1::ListTaskPushNotificationConfigsResponse::from(r.result)
            })
        }
        "DeleteTaskPushNotificationConfigSuccessResponse" => {
            // google.protobuf.Empty
            go(
                text,
                |_: DeleteTaskPushNotificationConfigSuccessResponse| serde_json::json!({}),
            )
        }
        "GetAuthenticatedExtendedCardSuccessResponse" => {
            go(text, |r: GetAuthenticatedExtendedCardSuccessResponse| {
                v1::AgentCard::from(r.result)
            })
        }
        // Error objects mean the same in both versions.
        "JSONRPCErrorResponse" => go(text, |r: JsonRpcErrorResponse| r.error),
        other => panic!("no conversion registered for definition `{other}`"),
    }
}

/// Converts a 1.0 document back to the 0.3 payload of `definition`.
fn back(definition: &str, v1_text: &str) -> Value {
    fn go<T, V>(text: &str, convert: impl FnOnce(T) -> V) -> Value
    where
        T: serde::de::DeserializeOwned,
        V: serde::Serialize,
    {
        let decoded: T = json::from_str(text).expect("expected-v1 document decodes");
        to_value(&convert(decoded))
    }
    use v0_3::*;
    match definition {
        "AgentCard" | "GetAuthenticatedExtendedCardSuccessResponse" => {
            go(v1_text, |c: v1::AgentCard| AgentCard::from(c))
        }
        "Task" | "GetTaskSuccessResponse" | "CancelTaskSuccessResponse" => {
            go(v1_text, |t: v1::Task| Task::from(t))
        }
        "Message" => go(v1_text, |m: v1::Message| Message::from(m)),
        "SendMessageRequest" | "SendStreamingMessageRequest" => {
            go(v1_text, |r: v1::SendMessageRequest| {
                MessageSendParams::from(r)
            })
        }
        "GetTaskRequest" => go(v1_text, |r: v1::GetTaskRequest| TaskQueryParams::from(r)),
        "CancelTaskRequest" => go(v1_text, |r: v1::CancelTaskRequest| TaskIdParams::from(r)),
        "TaskResubscriptionRequest" => go(v1_text, |r: v1::SubscribeToTaskRequest| {
            TaskIdParams::from(r)
        }),
        "SetTaskPushNotificationConfigRequest"
        | "SetTaskPushNotificationConfigSuccessResponse"
        | "GetTaskPushNotificationConfigSuccessResponse" => {
            go(v1_text, |c: v1::TaskPushNotificationConfig| {
                TaskPushNotificationConfig::from(c)
            })
        }
        "GetTaskPushNotificationConfigRequest" => {
            go(v1_text, |r: v1::GetTaskPushNotificationConfigRequest| {
                GetTaskPushNotificationConfigParams::from(r)
            })
        }
        "ListTaskPushNotificationConfigRequest" => {
            go(v1_text, |r: v1::ListTaskPushNotificationConfigsRequest| {
                ListTaskPushNotificationConfigParams::from(r)
            })
        }
        "DeleteTaskPushNotificationConfigRequest" => {
            go(v1_text, |r: v1::DeleteTaskPushNotificationConfigRequest| {
                DeleteTaskPushNotificationConfigParams::from(r)
            })
        }
        "GetAuthenticatedExtendedCardRequest" => Value::Null,
        "SendMessageSuccessResponse" => go(v1_text, |r: v1::SendMessageResponse| {
            SendMessageResult::from(r)
        }),
        "SendStreamingMessageSuccessResponse" => go(v1_text, |r: v1::StreamResponse| {
            SendStreamingMessageResult::from(r)
        }),
        "ListTaskPushNotificationConfigSuccessResponse" => {
            go(v1_text, |r: v1::ListTaskPushNotificationConfigsResponse| {
                Vec::<TaskPushNotificationConfig>::from(r)
            })
        }
        "DeleteTaskPushNotificationConfigSuccessResponse" => Value::Null,
        "JSONRPCErrorResponse" => go(v1_text, |e: JsonRpcError| e),
        other => panic!("no back conversion registered for definition `{other}`"),
    }
}

/// What the 0.3 types write for a document: without `false` for `append`, `lastChunk` and
/// `required` (not written), and with `protocolVersion` on a card that has none (read as
/// `0.3.0`).
fn as_written(value: &Value) -> Value {
    let mut value = without_defaults(value);
    let is_card = value.get("capabilities").is_some() && value.get("skills").is_some();
    if let Value::Object(map) = &mut value
        && is_card
        && !map.contains_key("protocolVersion")
    {
        map.insert("protocolVersion".into(), Value::String("0.3.0".into()));
    }
    value
}

fn without_defaults(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, v)| {
                    !(matches!(k.as_str(), "append" | "lastChunk" | "required")
                        && **v == Value::Bool(false))
                })
                .map(|(k, v)| (k.clone(), without_defaults(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_defaults).collect()),
        other => other.clone(),
    }
}

fn fixtures() -> Vec<PathBuf> {
    fixture_files("v0_3")
}

#[test]
fn every_fixture_decodes_round_trips_and_converts_to_the_expected_v1_document() {
    let files = fixtures();
    assert!(
        files.len() >= 40,
        "expected the v0_3 fixtures, found {}",
        files.len()
    );
    for path in &files {
        let name = file_name(path);
        let definition = definition(path);
        let text = std::fs::read_to_string(path).unwrap();
        let original: Value = serde_json::from_str(&text).unwrap();
        let (again, converted) = decode_and_convert(&definition, &text)
            .unwrap_or_else(|e| panic!("{name}: does not decode as {definition}: {e}"));
        assert_eq!(
            again,
            as_written(&original),
            "{name}: changed in a 0.3 round trip"
        );

        let expected_path = fixtures_dir().join("v0_3/expected-v1").join(&name);
        let expected_text = std::fs::read_to_string(&expected_path)
            .unwrap_or_else(|e| panic!("{name}: no expected-v1 document: {e}"));
        let expected: Value = serde_json::from_str(&expected_text).unwrap();
        assert_eq!(converted, expected, "{name}: 1.0 conversion");
    }
}

#[test]
fn every_expected_v1_document_is_canonical_protojson() {
    // Decoding with the 1.0 types and encoding again must not change the expected document.
    for path in fixtures() {
        let name = file_name(&path);
        let definition = definition(&path);
        let text =
            std::fs::read_to_string(fixtures_dir().join("v0_3/expected-v1").join(&name)).unwrap();
        let expected: Value = serde_json::from_str(&text).unwrap();
        let again = match definition.as_str() {
            "JSONRPCErrorResponse" | "DeleteTaskPushNotificationConfigSuccessResponse" => continue,
            "GetAuthenticatedExtendedCardRequest" => {
                to_value(&json::from_str::<v1::GetExtendedAgentCardRequest>(&text).unwrap())
            }
            _ => back_and_forth(&definition, &text),
        };
        assert_eq!(again, expected, "{name}: expected-v1 is not canonical");
    }
}

/// 1.0 → 1.0 round trip through the 1.0 type of `definition`'s payload.
fn back_and_forth(definition: &str, text: &str) -> Value {
    fn go<T: serde::de::DeserializeOwned + serde::Serialize>(text: &str) -> Value {
        to_value(&json::from_str::<T>(text).expect("decodes"))
    }
    match definition {
        "AgentCard" | "GetAuthenticatedExtendedCardSuccessResponse" => go::<v1::AgentCard>(text),
        "Task" | "GetTaskSuccessResponse" | "CancelTaskSuccessResponse" => go::<v1::Task>(text),
        "SendMessageRequest" | "SendStreamingMessageRequest" => go::<v1::SendMessageRequest>(text),
        "GetTaskRequest" => go::<v1::GetTaskRequest>(text),
        "CancelTaskRequest" => go::<v1::CancelTaskRequest>(text),
        "TaskResubscriptionRequest" => go::<v1::SubscribeToTaskRequest>(text),
        "SetTaskPushNotificationConfigRequest"
        | "SetTaskPushNotificationConfigSuccessResponse"
        | "GetTaskPushNotificationConfigSuccessResponse" => {
            go::<v1::TaskPushNotificationConfig>(text)
        }
        "GetTaskPushNotificationConfigRequest" => {
            go::<v1::GetTaskPushNotificationConfigRequest>(text)
        }
        "ListTaskPushNotificationConfigRequest" => {
            go::<v1::ListTaskPushNotificationConfigsRequest>(text)
        }
        "DeleteTaskPushNotificationConfigRequest" => {
            go::<v1::DeleteTaskPushNotificationConfigRequest>(text)
        }
        "SendMessageSuccessResponse" => go::<v1::SendMessageResponse>(text),
        "SendStreamingMessageSuccessResponse" => go::<v1::StreamResponse>(text),
        "ListTaskPushNotificationConfigSuccessResponse" => {
            go::<v1::ListTaskPushNotificationConfigsResponse>(text)
        }
        other => panic!("no 1.0 type registered for `{other}`"),
    }
}

#[test]
fn expected_v1_documents_convert_back_to_the_original_unless_listed_lossy() {
    let listed: BTreeSet<&str> = LOSSY.iter().map(|(name, _)| *name).collect();
    let mut lossy = BTreeSet::new();
    let mut report = String::new();
    let files = fixtures();
    for path in &files {
        let name = file_name(path);
        let definition = definition(path);
        let original: Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let v1_text =
            std::fs::read_to_string(fixtures_dir().join("v0_3/expected-v1").join(&name)).unwrap();
        let back = back(&definition, &v1_text);
        let want = as_written(&payload(&definition, &original));
        if back != want {
            if !listed.contains(name.as_str()) {
                report.push_str(&format!("{name}\n  back: {back}\n  want: {want}\n"));
            }
            lossy.insert(name);
        }
    }
    let stale: Vec<_> = listed
        .iter()
        .filter(|name| !lossy.contains(**name))
        .collect();
    assert!(
        report.is_empty() && stale.is_empty(),
        "1.0 → 0.3 differs from the original for fixtures not listed in LOSSY:\n{report}\
         listed in LOSSY but convert back exactly: {stale:?}"
    );
    assert!(
        files.len() - lossy.len() >= 25,
        "only {} fixtures convert back exactly",
        files.len() - lossy.len()
    );
}

#[test]
fn every_listed_lossy_fixture_exists() {
    let names: BTreeSet<String> = fixtures().iter().map(|p| file_name(p)).collect();
    for (name, _) in LOSSY {
        assert!(
            names.contains(*name),
            "LOSSY lists a missing fixture {name}"
        );
    }
}

#[test]
fn fixtures_cover_the_main_definitions() {
    let covered: BTreeSet<String> = fixtures().iter().map(|p| definition(p)).collect();
    for definition in [
        "AgentCard",
        "Task",
        "SendMessageRequest",
        "SendStreamingMessageRequest",
        "GetTaskRequest",
        "CancelTaskRequest",
        "TaskResubscriptionRequest",
        "SetTaskPushNotificationConfigRequest",
        "GetTaskPushNotificationConfigRequest",
        "ListTaskPushNotificationConfigRequest",
        "DeleteTaskPushNotificationConfigRequest",
        "GetAuthenticatedExtendedCardRequest",
        "SendMessageSuccessResponse",
        "SendStreamingMessageSuccessResponse",
        "GetTaskSuccessResponse",
        "CancelTaskSuccessResponse",
        "SetTaskPushNotificationConfigSuccessResponse",
        "GetTaskPushNotificationConfigSuccessResponse",
        "ListTaskPushNotificationConfigSuccessResponse",
        "DeleteTaskPushNotificationConfigSuccessResponse",
        "GetAuthenticatedExtendedCardSuccessResponse",
        "JSONRPCErrorResponse",
    ] {
        assert!(covered.contains(definition), "no fixture for {definition}");
    }
}

#[test]
fn every_fixture_is_listed_in_the_readme() {
    let readme = std::fs::read_to_string(fixtures_dir().join("v0_3/README.md")).unwrap();
    for path in fixtures() {
        let name = file_name(&path);
        assert!(
            readme.contains(&format!("`{name}`")),
            "README.md does not list {name}"
        );
    }
}
