//! The JSON examples of the 0.1-era documents (`tests/fixtures/v0_1/`, see its README):
//!
//! * each decodes as the `a2a.json` 0.1 definition its file name starts with (and a request also
//!   as an [`A2aRequest`] of the same method), and encodes to JSON that decodes to the same value;
//! * its params, result or card converts to the 1.0 document of the same name in
//!   `expected-v1/`, which is itself canonical `lf.a2a.v1` ProtoJSON;
//! * converted back to 0.1 it is the value decoded, except where a documented loss applies
//!   ([`LOSSY`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use a2a_tests::fixtures_dir;
use a2a_types::v0_1::{self, A2aRequest};
use a2a_types::{json, v1};
use pretty_assertions::assert_eq;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Fixtures whose trip to 1.0 and back loses something, and what (see the table of losses in
/// `docs/versions.md`).
const LOSSY: &[(&str, &str)] = &[
    (
        "GetTaskRequest.seed-001-get-task",
        "TaskQueryParams.metadata: 1.0 GetTaskRequest has no metadata",
    ),
    (
        "GetTaskRequest.seed-001-non-text-media-3",
        "TaskQueryParams.metadata: 1.0 GetTaskRequest has no metadata",
    ),
    (
        "GetTaskRequest.seed-002-get-task",
        "TaskQueryParams.metadata: 1.0 GetTaskRequest has no metadata",
    ),
    (
        "TaskResubscriptionRequest.seed-001-resubscribe",
        "TaskQueryParams.metadata: 1.0 SubscribeToTaskRequest has no metadata",
    ),
    (
        "TaskResubscriptionRequest.seed-002-resubscribe-to-task",
        "TaskQueryParams.metadata: 1.0 SubscribeToTaskRequest has no metadata",
    ),
    (
        "SendTaskStreamingRequest.seed-001-streaming",
        "a file with neither bytes nor uri becomes empty raw bytes, which come back as bytes",
    ),
    (
        "SendTaskRequest.seed-001-non-text-media-1",
        "a file with neither bytes nor uri becomes empty raw bytes, which come back as bytes",
    ),
];

fn files() -> Vec<PathBuf> {
    let dir = fixtures_dir().join("v0_1");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

fn stem(path: &Path) -> String {
    path.file_stem().unwrap().to_str().unwrap().to_owned()
}

fn to_value<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("every value encodes")
}

/// What one fixture gave.
struct Outcome {
    /// The 1.0 document it converts to.
    v1: Value,
    /// Whether the trip to 1.0 and back gave the value decoded.
    round_trips: bool,
}

/// Decodes a fixture as `T`, checks that its encoding decodes to the same value, and returns it.
fn decode<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(
    name: &str,
    text: &str,
) -> T {
    let value: T = json::from_str(text).unwrap_or_else(|e| panic!("{name}: does not decode: {e}"));
    let encoded = serde_json::to_string(&value).unwrap();
    let again: T = json::from_str(&encoded)
        .unwrap_or_else(|e| panic!("{name}: re-encoding does not decode: {e}"));
    assert_eq!(again, value, "{name}: changed in a round trip through JSON");
    value
}

/// Checks that a request fixture also decodes as an `A2aRequest` of its method.
fn as_a2a_request(name: &str, text: &str, method: &str) {
    let request: A2aRequest =
        json::from_str(text).unwrap_or_else(|e| panic!("{name}: not an A2ARequest: {e}"));
    assert_eq!(request.method(), method, "{name}");
}

fn convert(definition: &str, name: &str, text: &str) -> Outcome {
    match definition {
        "SendTaskRequest" | "SendTaskStreamingRequest" => {
            let params = if definition == "SendTaskRequest" {
                as_a2a_request(name, text, "tasks/send");
                decode::<v0_1::SendTaskRequest>(name, text).params
            } else {
                as_a2a_request(name, text, "tasks/sendSubscribe");
                decode::<v0_1::SendTaskStreamingRequest>(name, text).params
            };
            let v1 = v1::SendMessageRequest::from(params.clone());
            let back = v0_1::TaskSendParams::try_from(v1.clone()).unwrap();
            Outcome {
                v1: to_value(&v1),
                round_trips: back == params,
            }
        }
        "SendTaskResponse" => {
            let task = decode::<v0_1::SendTaskResponse>(name, text)
                .result
                .expect("a result");
            let v1 = v1::SendMessageResponse::from(task.clone());
            Outcome {
                v1: to_value(&v1),
                round_trips: v0_1::Task::try_from(v1).unwrap() == task,
            }
        }
        "GetTaskResponse" | "CancelTaskResponse" => {
            let task = if definition == "GetTaskResponse" {
                decode::<v0_1::GetTaskResponse>(name, text).result
            } else {
                decode::<v0_1::CancelTaskResponse>(name, text).result
            }
            .expect("a result");
            let v1 = v1::Task::from(task.clone());
            Outcome {
                v1: to_value(&v1),
                round_trips: v0_1::Task::from(v1) == task,
            }
        }
        "GetTaskRequest" => {
            as_a2a_request(name, text, "tasks/get");
            let params = decode::<v0_1::GetTaskRequest>(name, text).params;
            let v1 = v1::GetTaskRequest::from(params.clone());
            Outcome {
                v1: to_value(&v1),
                round_trips: v0_1::TaskQueryParams::from(v1) == params,
            }
        }
        "TaskResubscriptionRequest" => {
            as_a2a_request(name, text, "tasks/resubscribe");
            let params = decode::<v0_1::TaskResubscriptionRequest>(name, text).params;
            let v1 = v1::SubscribeToTaskRequest::from(params.clone());
            Outcome {
                v1: to_value(&v1),
                round_trips: v0_1::TaskQueryParams::from(v1) == params,
            }
        }
        "CancelTaskRequest" => {
            as_a2a_request(name, text, "tasks/cancel");
            let params = decode::<v0_1::CancelTaskRequest>(name, text).params;
            let v1 = v1::CancelTaskRequest::from(params.clone());
            Outcome {
                v1: to_value(&v1),
                round_trips: v0_1::TaskIdParams::from(v1) == params,
            }
        }
        "GetTaskPushNotificationRequest" => {
            as_a2a_request(name, text, "tasks/pushNotification/get");
            let params = decode::<v0_1::GetTaskPushNotificationRequest>(name, text).params;
            let v1 = v1::GetTaskPushNotificationConfigRequest::from(params.clone());
            Outcome {
                v1: to_value(&v1),
                round_trips: v0_1::TaskIdParams::from(v1) == params,
            }
        }
        "SetTaskPushNotificationRequest"
        | "SetTaskPushNotificationResponse"
        | "GetTaskPushNotificationResponse" => {
            let config = match definition {
                "SetTaskPushNotificationRequest" => {
                    as_a2a_request(name, text, "tasks/pushNotification/set");
                    decode::<v0_1::SetTaskPushNotificationRequest>(name, text).params
                }
                "SetTaskPushNotificationResponse" => {
                    decode::<v0_1::SetTaskPushNotificationResponse>(name, text)
                        .result
                        .expect("a result")
                }
                _ => decode::<v0_1::GetTaskPushNotificationResponse>(name, text)
                    .result
                    .expect("a result"),
            };
            let v1 = v1::TaskPushNotificationConfig::from(config.clone());
            Outcome {
                v1: to_value(&v1),
                round_trips: v0_1::TaskPushNotificationConfig::try_from(v1).unwrap() == config,
            }
        }
        "SendTaskStreamingResponse" => {
            let event = decode::<v0_1::SendTaskStreamingResponse>(name, text)
                .result
                .expect("a result");
            let v1 = v1::StreamResponse::from(event.clone());
            Outcome {
                v1: to_value(&v1),
                round_trips: v0_1::StreamEvent::try_from(v1).unwrap() == event,
            }
        }
        "AgentCard" => {
            let card = decode::<v0_1::AgentCard>(name, text);
            let v1 = v1::AgentCard::from(card.clone());
            Outcome {
                v1: to_value(&v1),
                round_trips: v0_1::AgentCard::try_from(v1).unwrap() == card,
            }
        }
        other => panic!("{name}: no test for definition `{other}`"),
    }
}

/// Checks that an expected 1.0 document is canonical: it decodes as its 1.0 type and encodes
/// back to the same JSON.
fn assert_canonical_v1(definition: &str, name: &str, expected: &Value) {
    fn check<T: DeserializeOwned + Serialize>(name: &str, expected: &Value) {
        let value: T = json::from_value(expected.clone())
            .unwrap_or_else(|e| panic!("expected-v1/{name}: not 1.0 JSON: {e}"));
        assert_eq!(
            &to_value(&value),
            expected,
            "expected-v1/{name}: not canonical"
        );
    }
    match definition {
        "SendTaskRequest" | "SendTaskStreamingRequest" => {
            check::<v1::SendMessageRequest>(name, expected);
        }
        "SendTaskResponse" => check::<v1::SendMessageResponse>(name, expected),
        "GetTaskResponse" | "CancelTaskResponse" => check::<v1::Task>(name, expected),
        "GetTaskRequest" => check::<v1::GetTaskRequest>(name, expected),
        "TaskResubscriptionRequest" => check::<v1::SubscribeToTaskRequest>(name, expected),
        "CancelTaskRequest" => check::<v1::CancelTaskRequest>(name, expected),
        "GetTaskPushNotificationRequest" => {
            check::<v1::GetTaskPushNotificationConfigRequest>(name, expected);
        }
        "SetTaskPushNotificationRequest"
        | "SetTaskPushNotificationResponse"
        | "GetTaskPushNotificationResponse" => {
            check::<v1::TaskPushNotificationConfig>(name, expected);
        }
        "SendTaskStreamingResponse" => check::<v1::StreamResponse>(name, expected),
        "AgentCard" => check::<v1::AgentCard>(name, expected),
        other => panic!("{name}: no 1.0 type for definition `{other}`"),
    }
}

#[test]
fn every_seed_example_converts_to_its_expected_v1_document() {
    let files = files();
    assert!(
        files.len() >= 50,
        "expected the 0.1 seed fixtures, found {}",
        files.len()
    );
    let mut lossy_seen = BTreeSet::new();
    for path in &files {
        let name = stem(path);
        let definition = name.split('.').next().unwrap();
        let text = std::fs::read_to_string(path).unwrap();
        let outcome = convert(definition, &name, &text);

        let expected_path = path
            .parent()
            .unwrap()
            .join("expected-v1")
            .join(path.file_name().unwrap());
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(&expected_path)
                .unwrap_or_else(|e| panic!("{}: {e}", expected_path.display())),
        )
        .unwrap();
        assert_canonical_v1(definition, &name, &expected);
        assert_eq!(
            outcome.v1, expected,
            "{name}: the 1.0 conversion differs from expected-v1/"
        );

        let lossy = LOSSY.iter().find(|(n, _)| *n == name);
        match (outcome.round_trips, lossy) {
            (true, None) => {}
            (false, Some(_)) => {
                lossy_seen.insert(name.clone());
            }
            (false, None) => panic!("{name}: 0.1 -> 1.0 -> 0.1 is not the value decoded"),
            (true, Some((_, why))) => panic!("{name}: listed as lossy ({why}) but round-trips"),
        }
    }
    assert_eq!(
        lossy_seen.len(),
        LOSSY.len(),
        "LOSSY names a fixture that does not exist"
    );
}

#[test]
fn every_expected_document_has_its_fixture() {
    let names: BTreeSet<String> = files().iter().map(|p| stem(p)).collect();
    let dir = fixtures_dir().join("v0_1").join("expected-v1");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        assert!(
            names.contains(&stem(&path)),
            "{} has no 0.1 fixture",
            path.display()
        );
    }
}

#[test]
fn the_readme_lists_every_fixture() {
    let readme = std::fs::read_to_string(fixtures_dir().join("v0_1").join("README.md")).unwrap();
    for path in files() {
        let file = path.file_name().unwrap().to_str().unwrap();
        assert!(
            readme.contains(&format!("`{file}`")),
            "README.md does not list {file}"
        );
    }
}
