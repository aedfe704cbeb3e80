//! Property tests: whatever the bytes, `Methods::handle_bytes` answers with a well-formed response,
//! a non-empty array of them, or nothing, and never panics.

use futures_executor::block_on;
use proptest::prelude::*;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use std::collections::BTreeMap;

use a2a_jsonrpc::{Answer, ErrorObject, Id, Incoming, Limits, Methods, Payload, RawValue};

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
    add_methods(Methods::new())
}

/// The same methods, and `Stream` streaming.
fn streaming_methods() -> Methods<(), Vec<&'static str>> {
    add_methods(Methods::streaming()).register_stream("Stream", |p: Tenant, (): ()| async move {
        if p.tenant.is_empty() {
            Ok(vec!["event"])
        } else {
            Err(ErrorObject::from(
                a2a_jsonrpc::A2aError::unsupported_operation("tenants"),
            ))
        }
    })
}

fn add_methods<S: Send + 'static>(methods: Methods<(), S>) -> Methods<(), S> {
    methods
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

/// A response object's members, undecoded: ids may be numbers no `f64` holds (`1e400`), echoed
/// as the client wrote them, which `serde_json::Value` would refuse.
type Members = BTreeMap<String, Box<RawValue>>;

/// Checks one response object; returns its id.
fn check_response(response: &RawValue) -> Id {
    let object: Members = serde_json::from_str(response.get()).expect("a response is an object");
    assert_eq!(
        object.get("jsonrpc").map(|raw| raw.get()),
        Some(r#""2.0""#),
        "{response}"
    );
    let id: Id = serde_json::from_str(object.get("id").expect("a response has an id").get())
        .expect("a string, number or null id");
    assert_eq!(object.len(), 3, "{response}");
    match (object.get("result"), object.get("error")) {
        (Some(_), None) => {}
        (None, Some(error)) => {
            let error: Map<String, Value> =
                serde_json::from_str(error.get()).expect("error is an object");
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
    assert!(
        response.get().starts_with(r#"{"jsonrpc":"2.0","id":"#),
        "member order: {response}"
    );
    id
}

/// The id an element is answered with, if any: a notification gets no answer, except when it
/// calls a streaming method (it is told, with id null, that the method cannot answer it).
fn answered_id(incoming: &Incoming, streams: &dyn Fn(&str) -> bool) -> Option<Id> {
    match incoming {
        Incoming::Notification(n) if streams(&n.method) => Some(Id::Null),
        other => other.id().cloned(),
    }
}

/// Checks the answer to a body against what `Payload::parse` makes of it; `streams` tells the
/// table's streaming methods.
fn check_reply(body: &[u8], reply: Option<&[u8]>, streams: &dyn Fn(&str) -> bool) {
    let expected = Payload::parse(body);

    let Some(reply) = reply else {
        // Nothing comes back only for valid notifications.
        match expected {
            Ok(Payload::Single(incoming)) => {
                assert_eq!(answered_id(&incoming, streams), None, "no reply");
            }
            Ok(Payload::Batch(entries)) => assert!(
                entries.iter().all(|e| answered_id(e, streams).is_none()),
                "no reply for a batch with requests"
            ),
            other => panic!("no reply for {other:?}"),
        }
        return;
    };

    let text = std::str::from_utf8(reply).expect("UTF-8 reply");
    match (text.as_bytes().first(), expected) {
        (Some(b'['), Ok(Payload::Batch(entries))) => {
            let responses: Vec<&RawValue> = serde_json::from_str(text).expect("a JSON array");
            let ids: Vec<Id> = responses.into_iter().map(check_response).collect();
            let expected_ids: Vec<Id> = entries
                .iter()
                .filter_map(|e| answered_id(e, streams))
                .collect();
            assert!(!ids.is_empty());
            assert_eq!(ids, expected_ids, "responses keep the batch order");
        }
        (Some(b'{'), Ok(Payload::Single(incoming))) => {
            let id = check_response(&raw(text));
            assert_eq!(Some(id), answered_id(&incoming, streams));
        }
        (Some(b'{'), Err(error)) => {
            assert_eq!(check_response(&raw(text)), Id::Null);
            let value: Value = serde_json::from_str(text).expect("JSON");
            assert_eq!(value["error"]["code"], json!(error.code.code()));
        }
        (_, expected) => panic!("reply {text} for {expected:?}"),
    }

    // Anything with an "id" member that serde_json itself reads is answered.
    if let Ok(Value::Object(object)) = serde_json::from_slice::<Value>(body)
        && object.contains_key("id")
    {
        assert!(text.starts_with('{'));
    }
}

fn raw(text: &str) -> Box<RawValue> {
    RawValue::from_string(text.to_owned()).expect("the reply is JSON")
}

/// Runs a body through the JSON entry point and the streaming one, and checks both answers.
fn check(body: &[u8]) {
    let reply = block_on(methods().handle_bytes(body, ()));
    check_reply(body, reply.as_deref(), &|_| false);

    // The streaming table answers the unary methods alike, and streams only for a single
    // request to a streaming method.
    let streaming = streaming_methods();
    match block_on(streaming.dispatch_bytes(body, ())) {
        Answer::Stream(id, events) => {
            let Ok(Payload::Single(Incoming::Request(request))) = Payload::parse(body) else {
                panic!("a stream for something else than a single request")
            };
            assert!(streaming.is_streaming(&request.method));
            assert_eq!(id, request.id);
            assert_eq!(events, ["event"]);
        }
        Answer::Reply(reply) => check_reply(body, reply.map(|r| r.to_vec()).as_deref(), &|m| {
            streaming.is_streaming(m)
        }),
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
        4 => prop::sample::select(vec!["GetTask", "Echo", "Pair", "Card", "Fail", "Unit", "Nope", "Stream"])
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
    fn number_ids_are_echoed_exactly(
        id in r"-?(0|[1-9][0-9]{0,40})(\.[0-9]{1,12})?([eE][+-]?[0-9]{1,4})?"
    ) {
        check_id_echo(&id);
    }

    #[test]
    fn batches_are_capped_and_answered_in_order(
        len in 0_usize..12,
        max in 0_usize..8,
        concurrency in 0_usize..5,
    ) {
        let methods = methods().with_limits(
            Limits::default().with_max_batch_len(max).with_batch_concurrency(concurrency),
        );
        let calls: Vec<String> = (0..len)
            .map(|n| format!(r#"{{"jsonrpc":"2.0","id":{n},"method":"Pair","params":[{n},"x"]}}"#))
            .collect();
        let body = format!("[{}]", calls.join(","));
        let reply = String::from_utf8(
            block_on(methods.handle_bytes(body.as_bytes(), ())).expect("a reply"),
        )
        .unwrap();
        let expected = if len == 0 {
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: empty batch"}}"#.to_owned()
        } else if len > max {
            format!(
                r#"{{"jsonrpc":"2.0","id":null,"error":{{"code":-32600,"message":"invalid request: a batch may hold at most {max} calls; this one holds {len}"}}}}"#
            )
        } else {
            let responses: Vec<String> = (0..len)
                .map(|n| format!(r#"{{"jsonrpc":"2.0","id":{n},"result":"{n}x"}}"#))
                .collect();
            format!("[{}]", responses.join(","))
        };
        prop_assert_eq!(reply, expected);
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
        b"{\"jsonrpc\":\"2.0\",\"id\":1e400,\"method\":\"Stream\"}",
        b"{\"jsonrpc\":\"2.0\",\"method\":\"Stream\"}",
        b"[{\"jsonrpc\":\"2.0\",\"method\":\"Stream\"},{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"Stream\"}]",
        b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"Stream\",\"params\":{\"tenant\":\"t\"}}",
        b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"Stream\",\"params\":[1]}",
    ] {
        check(body);
    }
}

/// A client reads responses with `Response<T>`'s own deserializer, and tools read requests with
/// `Request<T>`'s: neither panics, a refusal has a message, and what reads back serializes to
/// the same text when read again.
fn check_envelope_decoders(bytes: &[u8]) {
    fn stable<T: serde::de::DeserializeOwned + serde::Serialize>(bytes: &[u8]) {
        match serde_json::from_slice::<T>(bytes) {
            Ok(value) => {
                let sent = serde_json::to_string(&value).expect("serializes");
                let back: T = serde_json::from_str(&sent).expect("our own output reads back");
                assert_eq!(serde_json::to_string(&back).unwrap(), sent);
            }
            Err(error) => assert!(!error.to_string().is_empty()),
        }
    }
    stable::<a2a_jsonrpc::Response<Box<RawValue>>>(bytes);
    stable::<a2a_jsonrpc::Response<Value>>(bytes);
    stable::<Vec<a2a_jsonrpc::Response<Box<RawValue>>>>(bytes);
    stable::<a2a_jsonrpc::Request<Box<RawValue>>>(bytes);
    stable::<a2a_jsonrpc::Notification<Value>>(bytes);
    stable::<Id>(bytes);
}

fn response_like() -> impl Strategy<Value = Value> {
    let id = prop_oneof![
        any::<i64>().prop_map(Value::from),
        "[a-z0-9]{0,4}".prop_map(Value::from),
        Just(Value::Null),
        json_value(),
    ];
    let error = prop_oneof![
        Just(json!({"code": -32001, "message": "gone"})),
        Just(json!({"code": -32001, "message": "gone", "data": [{"@type": "x"}]})),
        Just(json!({"code": 1.5, "message": "x"})),
        Just(json!({"message": "no code"})),
        Just(Value::Null),
        json_value(),
    ];
    (
        prop::option::weighted(0.9, prop_oneof![4 => Just(json!("2.0")), 1 => json_value()]),
        prop::option::of(id),
        prop::option::of(json_value()),
        prop::option::of(error),
    )
        .prop_map(|(jsonrpc, id, result, error)| {
            let mut object = Map::new();
            for (key, value) in [
                ("jsonrpc", jsonrpc),
                ("id", id),
                ("result", result),
                ("error", error),
            ] {
                if let Some(value) = value {
                    object.insert(key.to_owned(), value);
                }
            }
            Value::Object(object)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn envelope_decoders_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..160)) {
        check_envelope_decoders(&bytes);
    }

    #[test]
    fn envelope_decoders_on_envelopes(value in prop_oneof![response_like(), body()]) {
        check_envelope_decoders(&serde_json::to_vec(&value).unwrap());
    }
}

#[test]
fn envelope_decoders_on_odd_ids() {
    for id in [
        "1e400",
        "-0",
        "18446744073709551616",
        "1.0",
        r#""\ud800""#,
        "true",
        "{}",
    ] {
        for body in [
            format!(r#"{{"jsonrpc":"2.0","id":{id},"result":1}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"m"}}"#),
            id.to_owned(),
        ] {
            check_envelope_decoders(body.as_bytes());
        }
    }
    let response: a2a_jsonrpc::Response<Value> =
        serde_json::from_str(r#"{"jsonrpc":"2.0","id":1e400,"result":1}"#).unwrap();
    assert_eq!(response.id.to_string(), "1e400");
}
