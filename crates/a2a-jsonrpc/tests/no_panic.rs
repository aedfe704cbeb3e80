//! Property tests: whatever the bytes, `Methods::handle_bytes` answers with a well-formed response,
//! a non-empty array of them, or nothing, and never panics.

use futures_executor::block_on;
use proptest::prelude::*;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use a2a_jsonrpc::{ErrorObject, Incoming, Methods, Payload};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GetTaskRequest {
    id: String,
    history_length: Option<u32>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Tenant {
    tenant: String,
}

fn methods() -> Methods<()> {
    Methods::new()
        .register("GetTask", |p: GetTaskRequest, (): ()| async move {
            if p.id == "task-123" {
                Ok(json!({"id": p.id, "historyLength": p.history_length}))
            } else {
                Err(ErrorObject::from(a2a_jsonrpc::A2aError::task_not_found(
                    &p.id,
                )))
            }
        })
        .register("Echo", |v: Value, (): ()| async move { Ok(v) })
        .register("Pair", |(a, b): (i64, String), (): ()| async move {
            Ok(format!("{a}{b}"))
        })
        .register("Card", |t: Tenant, (): ()| async move { Ok(t.tenant) })
        .register("Fail", |_: Option<Value>, (): ()| async move {
            Err::<(), _>(ErrorObject::from(
                a2a_jsonrpc::A2aError::unsupported_operation("never").with_metadata("k", "v"),
            ))
        })
        .register("Unit", |(): (), (): ()| async move { Ok(()) })
}

/// Checks one response object; returns its id.
fn check_response(response: &Value) -> Value {
    let object = response.as_object().expect("a response is an object");
    assert_eq!(object.get("jsonrpc"), Some(&json!("2.0")), "{response}");
    let id = object.get("id").expect("a response has an id").clone();
    assert!(
        id.is_null() || id.is_string() || id.is_number(),
        "bad id in {response}"
    );
    match (object.get("result"), object.get("error")) {
        (Some(_), None) => assert_eq!(object.len(), 3, "{response}"),
        (None, Some(error)) => {
            assert_eq!(object.len(), 3, "{response}");
            let error = error.as_object().expect("error is an object");
            let code = error.get("code").and_then(Value::as_i64).expect("a code");
            assert!(i32::try_from(code).is_ok());
            assert!(error.get("message").is_some_and(Value::is_string));
            assert!(
                error
                    .keys()
                    .all(|k| ["code", "message", "data"].contains(&k.as_str()))
            );
        }
        _ => panic!("result xor error: {response}"),
    }
    // The member order is fixed.
    let keys: Vec<&str> = object.keys().map(String::as_str).collect();
    assert!(keys.contains(&"jsonrpc") && keys.contains(&"id"));
    id
}

/// Runs a body and checks the answer against what `Payload::parse` makes of it.
fn check(body: &[u8]) {
    let methods = methods();
    let reply = block_on(methods.handle_bytes(body, ()));
    let expected = Payload::parse(body);

    let Some(reply) = reply else {
        // Nothing comes back only for valid notifications.
        match expected {
            Ok(Payload::Single(Incoming::Notification(_))) => {}
            Ok(Payload::Batch(entries)) => assert!(
                entries
                    .iter()
                    .all(|e| matches!(e, Incoming::Notification(_))),
                "no reply for a batch with requests"
            ),
            other => panic!("no reply for {other:?}"),
        }
        return;
    };

    let text = std::str::from_utf8(&reply).expect("UTF-8 reply");
    assert!(
        text.starts_with(r#"{"jsonrpc":"2.0","id":"#)
            || text.starts_with(r#"[{"jsonrpc":"2.0","id":"#),
        "member order: {text}"
    );
    let value: Value = serde_json::from_str(text).expect("the reply is JSON");
    match (&value, expected) {
        (Value::Array(responses), Ok(Payload::Batch(entries))) => {
            let ids: Vec<Value> = responses.iter().map(check_response).collect();
            let expected_ids: Vec<Value> = entries
                .iter()
                .filter_map(Incoming::id)
                .map(|id| serde_json::to_value(id).unwrap())
                .collect();
            assert!(!ids.is_empty());
            assert_eq!(ids, expected_ids, "responses keep the batch order");
        }
        (Value::Object(_), Ok(Payload::Single(incoming))) => {
            let id = check_response(&value);
            let expected_id = serde_json::to_value(incoming.id().expect("not a notification"));
            assert_eq!(id, expected_id.unwrap());
        }
        (Value::Object(_), Err(error)) => {
            assert_eq!(check_response(&value), Value::Null);
            assert_eq!(value["error"]["code"], json!(error.code.code()));
        }
        (other, expected) => panic!("reply {other} for {expected:?}"),
    }

    // Anything with an "id" member that serde_json itself reads is answered.
    if let Ok(Value::Object(object)) = serde_json::from_slice::<Value>(body)
        && object.contains_key("id")
    {
        assert!(value.is_object());
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| serde_json::Number::from_f64(f)
            .map(Value::Number)),
        "[a-z\"\\\\\u{e9}\u{1F600}]{0,6}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{0,5}", inner, 0..5)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

fn envelope() -> impl Strategy<Value = Value> {
    let jsonrpc = prop_oneof![
        4 => Just(json!("2.0")),
        1 => Just(json!("1.0")),
        1 => Just(json!(2.0)),
        1 => json_value(),
    ];
    let id = prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        "[a-z0-9]{0,4}".prop_map(Value::from),
        Just(Value::Null),
        Just(json!(1.5)),
        json_value(),
    ];
    let method = prop_oneof![
        4 => prop::sample::select(vec!["GetTask", "Echo", "Pair", "Card", "Fail", "Unit", "Nope"])
            .prop_map(Value::from),
        1 => json_value(),
    ];
    let params = prop_oneof![
        Just(json!({"id": "task-123", "historyLength": 2})),
        Just(json!({"id": "other"})),
        Just(json!({"id": 5})),
        Just(json!({"historyLength": -1, "id": "task-123"})),
        Just(json!([7, "x"])),
        Just(json!([])),
        Just(json!({})),
        json_value(),
    ];
    (
        prop::option::weighted(0.9, jsonrpc),
        prop::option::of(id),
        prop::option::weighted(0.9, method),
        prop::option::of(params),
        prop::option::weighted(0.2, json_value()),
    )
        .prop_map(|(jsonrpc, id, method, params, extra)| {
            let mut object = Map::new();
            for (key, value) in [
                ("jsonrpc", jsonrpc),
                ("id", id),
                ("method", method),
                ("params", params),
                ("extra", extra),
            ] {
                if let Some(value) = value {
                    object.insert(key.to_owned(), value);
                }
            }
            Value::Object(object)
        })
}

fn body() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => envelope(),
        2 => prop::collection::vec(envelope(), 0..5).prop_map(Value::Array),
        1 => json_value(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        check(&bytes);
    }

    #[test]
    fn arbitrary_json(value in json_value()) {
        check(&serde_json::to_vec(&value).unwrap());
    }

    #[test]
    fn request_like_json(value in body()) {
        check(&serde_json::to_vec(&value).unwrap());
    }

    #[test]
    fn damaged_requests(
        value in body(),
        cut in any::<prop::sample::Index>(),
        flip in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let bytes = serde_json::to_vec(&value).unwrap();
        let mut truncated = bytes.clone();
        truncated.truncate(cut.index(bytes.len() + 1));
        check(&truncated);
        let mut flipped = bytes;
        if !flipped.is_empty() {
            let at = flip.index(flipped.len());
            flipped[at] = byte;
        }
        check(&flipped);
    }
}

/// The id of a request is echoed byte for byte (integers and strings).
fn check_id_echo(id_json: &str) {
    let body = format!(r#"{{"jsonrpc":"2.0","id":{id_json},"method":"Unit"}}"#);
    let reply = block_on(methods().handle_bytes(body.as_bytes(), ())).expect("a reply");
    let expected = format!(r#"{{"jsonrpc":"2.0","id":{id_json},"result":null}}"#);
    assert_eq!(String::from_utf8(reply).unwrap(), expected);
}

proptest! {
    #[test]
    fn integer_ids_are_echoed_exactly(signed in any::<i64>(), unsigned in any::<u64>()) {
        check_id_echo(&signed.to_string());
        check_id_echo(&unsigned.to_string());
    }

    #[test]
    fn string_ids_are_echoed_exactly(id in any::<String>()) {
        // serde_json's own escaping is the canonical spelling of the string.
        check_id_echo(&serde_json::to_string(&id).unwrap());
    }
}

#[test]
fn hand_picked_oddities() {
    for body in [
        &b""[..],
        b" ",
        b"\xef\xbb\xbf{}",
        b"[[]]",
        b"[{}]",
        b"[null]",
        b"{\"jsonrpc\":\"2.0\",\"method\":\"Echo\",\"params\":[1e400]}",
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"Echo\",\"params\":[1e400]}",
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"Echo\",\"x\":1e400}",
        b"{\"jsonrpc\":\"2.0\",\"id\":1e400,\"method\":\"Echo\"}",
        b"[1e400]",
        b"1e400",
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"Echo\",\"params\":{\"\\ud800\":1}}",
        b"{\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\",\"method\":\"Echo\"}",
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\\u0000\"}",
        b"{\"jsonrpc\":\"2.0\",\"id\":-0,\"method\":\"Unit\"}",
        b"{\"jsonrpc\":\"2.0\",\"id\":-0.0,\"method\":\"Unit\"}",
    ] {
        check(body);
    }
}
