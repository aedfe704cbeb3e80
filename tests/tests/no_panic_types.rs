//! Bounded property runs over every a2a-types decoder that reads network bytes (the CI side of
//! the cargo-fuzz targets in `fuzz/`, see docs/fuzzing.md).
//!
//! Each case feeds one input to every decoder of every protocol version: arbitrary bytes,
//! arbitrary JSON, and structure-aware mutations of the golden fixtures (a node replaced, a
//! member dropped, a type changed, the text cut or a byte changed). Whatever the input:
//! * no decoder panics;
//! * a refusal has a message;
//! * what decodes is sent back exactly: it serializes, our own output decodes again, and that
//!   serializes to the same bytes.

use std::any::type_name;
use std::sync::OnceLock;

use a2a_types::{card, v0_1, v0_3, v1};
use proptest::prelude::*;
use proptest::sample::Index;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// Decodes `bytes` as `T` the way servers and clients do, and checks the round trip.
fn decodes_as<T: DeserializeOwned + Serialize>(bytes: &[u8]) {
    let name = type_name::<T>();
    let value: T = match a2a_types::json::from_slice(bytes) {
        Ok(value) => value,
        Err(error) => {
            assert!(!error.to_string().is_empty(), "{name}: an empty error");
            return;
        }
    };
    round_trips(&value, name);
}

fn round_trips<T: DeserializeOwned + Serialize>(value: &T, name: &str) {
    let sent = serde_json::to_string(value).unwrap_or_else(|e| panic!("{name}: {e}"));
    let back: T = a2a_types::json::from_str(&sent)
        .unwrap_or_else(|e| panic!("{name}: our own output does not decode: {e}\n{sent}"));
    let again = serde_json::to_string(&back).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(sent, again, "{name}: not the same after a round trip");
}

/// Every decoder, on the same bytes.
fn decode_all(bytes: &[u8]) {
    // Agent cards of any version, as a client reads them.
    if let Ok(text) = std::str::from_utf8(bytes) {
        match card::parse(text) {
            Ok(parsed) => round_trips(&parsed, "card::parse"),
            Err(error) => assert!(!error.to_string().is_empty()),
        }
    }
    decodes_as::<v1::AgentCard>(bytes);
    decodes_as::<v0_3::AgentCard>(bytes);
    decodes_as::<v0_1::AgentCard>(bytes);

    // 1.0.
    decodes_as::<v1::StreamResponse>(bytes);
    decodes_as::<v1::SendMessageRequest>(bytes);
    decodes_as::<v1::SendMessageResponse>(bytes);
    decodes_as::<v1::Task>(bytes);
    decodes_as::<v1::Message>(bytes);
    decodes_as::<v1::ListTasksRequest>(bytes);
    decodes_as::<v1::ListTasksResponse>(bytes);
    decodes_as::<v1::GetTaskRequest>(bytes);
    decodes_as::<v1::CancelTaskRequest>(bytes);
    decodes_as::<v1::SubscribeToTaskRequest>(bytes);
    decodes_as::<v1::TaskPushNotificationConfig>(bytes);
    decodes_as::<v1::GetTaskPushNotificationConfigRequest>(bytes);
    decodes_as::<v1::ListTaskPushNotificationConfigsRequest>(bytes);
    decodes_as::<v1::ListTaskPushNotificationConfigsResponse>(bytes);
    decodes_as::<v1::DeleteTaskPushNotificationConfigRequest>(bytes);
    decodes_as::<v1::GetExtendedAgentCardRequest>(bytes);
    decodes_as::<v1::SecurityScheme>(bytes);

    // 0.3 (and 0.2).
    decodes_as::<v0_3::A2ARequest>(bytes);
    decodes_as::<v0_3::SendMessageResponse>(bytes);
    decodes_as::<v0_3::SendStreamingMessageResponse>(bytes);
    decodes_as::<v0_3::GetTaskResponse>(bytes);
    decodes_as::<v0_3::CancelTaskResponse>(bytes);
    decodes_as::<v0_3::SetTaskPushNotificationConfigResponse>(bytes);
    decodes_as::<v0_3::GetTaskPushNotificationConfigResponse>(bytes);
    decodes_as::<v0_3::ListTaskPushNotificationConfigResponse>(bytes);
    decodes_as::<v0_3::DeleteTaskPushNotificationConfigResponse>(bytes);
    decodes_as::<v0_3::GetAuthenticatedExtendedCardResponse>(bytes);
    decodes_as::<v0_3::JsonRpcErrorResponse>(bytes);
    decodes_as::<v0_3::SendStreamingMessageResult>(bytes);
    decodes_as::<v0_3::Task>(bytes);

    // 0.1.
    decodes_as::<v0_1::A2aRequest>(bytes);
    decodes_as::<v0_1::JsonRpcMessage>(bytes);
    decodes_as::<v0_1::SendTaskResponse>(bytes);
    decodes_as::<v0_1::SendTaskStreamingResponse>(bytes);
    decodes_as::<v0_1::GetTaskResponse>(bytes);
    decodes_as::<v0_1::CancelTaskResponse>(bytes);
    decodes_as::<v0_1::SetTaskPushNotificationResponse>(bytes);
    decodes_as::<v0_1::GetTaskPushNotificationResponse>(bytes);
    decodes_as::<v0_1::StreamEvent>(bytes);
    decodes_as::<v0_1::Task>(bytes);
}

/// The golden fixtures of every version, parsed (the `invalid` ones too: they are valid JSON).
fn fixtures() -> &'static [Value] {
    static FIXTURES: OnceLock<Vec<Value>> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        let values: Vec<Value> = ["v1", "v0_3", "v0_1"]
            .into_iter()
            .flat_map(a2a_tests::fixture_files_recursive)
            .filter_map(|path| {
                let text = std::fs::read_to_string(&path).expect("a readable fixture");
                serde_json::from_str(&text).ok()
            })
            .collect();
        assert!(values.len() > 100, "the fixtures are missing");
        values
    })
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| serde_json::Number::from_f64(f)
            .map(Value::Number)),
        // Strings a decoder may read as enums, timestamps, base64 or ids.
        prop::sample::select(vec![
            "",
            "TASK_STATE_WORKING",
            "working",
            "ROLE_USER",
            "user",
            "2024-01-01T00:00:00Z",
            "2024-13-01T00:00:00Z",
            "aGk=",
            "a#b",
            "kind",
            "text",
            "file",
            "data",
            "task",
            "message",
            "status-update",
            "artifact-update",
            "0.3.0",
            "1.0",
        ])
        .prop_map(Value::from),
        "[a-zA-Z0-9\"\\\\\u{e9}\u{1F600}\u{0}]{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-zA-Z]{0,8}", inner, 0..4)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

/// One change to a node of a document.
#[derive(Debug, Clone)]
enum Mutation {
    Replace(Value),
    /// Drops a member of an object or an element of an array.
    Remove(Index),
    /// A number or boolean becomes a string, a string its length, a container `null`.
    ChangeType,
    /// Adds a member (or an element).
    Insert(String, Value),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        json_value().prop_map(Mutation::Replace),
        any::<Index>().prop_map(Mutation::Remove),
        Just(Mutation::ChangeType),
        (
            prop::sample::select(vec![
                "kind",
                "id",
                "taskId",
                "contextId",
                "metadata",
                "parts",
                "status",
                "state",
                "jsonrpc",
                "method",
                "params",
                "result",
                "error",
                "x",
            ]),
            json_value()
        )
            .prop_map(|(key, value)| Mutation::Insert(key.to_owned(), value)),
    ]
}

/// Follows `path` (a child index per level) as deep as it goes, then applies `mutation`.
fn mutate(node: &mut Value, path: &[Index], mutation: Mutation) {
    if let Some((step, rest)) = path.split_first() {
        let child = match node {
            Value::Array(items) if !items.is_empty() => {
                let at = step.index(items.len());
                items.get_mut(at)
            }
            Value::Object(members) if !members.is_empty() => {
                let at = step.index(members.len());
                members.values_mut().nth(at)
            }
            _ => None,
        };
        if let Some(child) = child {
            return mutate(child, rest, mutation);
        }
    }
    match mutation {
        Mutation::Replace(value) => *node = value,
        Mutation::Remove(at) => match node {
            Value::Array(items) if !items.is_empty() => {
                items.remove(at.index(items.len()));
            }
            Value::Object(members) if !members.is_empty() => {
                let key = members.keys().nth(at.index(members.len())).cloned();
                if let Some(key) = key {
                    members.remove(&key);
                }
            }
            other => *other = Value::Null,
        },
        Mutation::ChangeType => {
            *node = match node {
                Value::Number(n) => Value::String(n.to_string()),
                Value::Bool(b) => Value::String(b.to_string()),
                Value::String(s) => Value::from(s.len()),
                Value::Null => Value::Object(Map::new()),
                Value::Array(_) | Value::Object(_) => Value::Null,
            };
        }
        Mutation::Insert(key, value) => match node {
            Value::Object(members) => {
                members.insert(key, value);
            }
            Value::Array(items) => items.push(value),
            other => *other = value,
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..128)) {
        decode_all(&bytes);
    }

    #[test]
    fn arbitrary_json(value in json_value()) {
        decode_all(&serde_json::to_vec(&value).unwrap());
    }

    #[test]
    fn mutated_fixtures(
        which in any::<Index>(),
        path in prop::collection::vec(any::<Index>(), 0..6),
        mutation in mutation(),
        second in prop::option::of((prop::collection::vec(any::<Index>(), 0..6), mutation())),
    ) {
        let fixtures = fixtures();
        let mut document = fixtures[which.index(fixtures.len())].clone();
        mutate(&mut document, &path, mutation);
        if let Some((path, mutation)) = second {
            mutate(&mut document, &path, mutation);
        }
        decode_all(&serde_json::to_vec(&document).unwrap());
    }

    #[test]
    fn damaged_fixture_text(
        which in any::<Index>(),
        cut in any::<Index>(),
        at in any::<Index>(),
        byte in any::<u8>(),
    ) {
        let fixtures = fixtures();
        let text = serde_json::to_vec(&fixtures[which.index(fixtures.len())]).unwrap();
        decode_all(&text[..cut.index(text.len() + 1)]);
        let mut changed = text;
        let at = at.index(changed.len());
        changed[at] = byte;
        decode_all(&changed);
    }
}

/// Every fixture itself goes through every decoder (most refuse it: it is another type).
#[test]
fn every_fixture_through_every_decoder() {
    for fixture in fixtures() {
        decode_all(&serde_json::to_vec(fixture).unwrap());
    }
}
