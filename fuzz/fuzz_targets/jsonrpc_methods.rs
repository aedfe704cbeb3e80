//! Fuzzes `a2a_jsonrpc::Methods::handle_bytes` and `dispatch_bytes` with a small table of unary
//! and streaming methods, a batch cap of 4 and 2 calls at a time.
//!
//! Checked, besides the absence of panics: the answer is nothing, one well-formed response or a
//! non-empty array of at most 4 of them; a stream is handed out only for a single request to the
//! streaming method, with that request's id.

#![no_main]

use a2a_jsonrpc::{Answer, ErrorObject, Incoming, Limits, Methods, Payload, RawValue, Response};
use futures_executor::block_on;
use libfuzzer_sys::fuzz_target;
use serde::Deserialize;
use serde_json::Value;

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

fn methods() -> Methods<(), Vec<String>> {
    Methods::streaming()
        .with_limits(
            Limits::default()
                .with_max_batch_len(4)
                .with_batch_concurrency(2),
        )
        .register("GetTask", |p: GetTaskRequest, (): ()| async move {
            match p.history_length {
                Some(n) if n > 10 => Err(ErrorObject::task_not_found(&p.id)),
                _ => Ok(p.id),
            }
        })
        .register("Echo", |v: Value, (): ()| async move { Ok(v) })
        .register("Pair", |(a, b): (i64, String), (): ()| async move {
            Ok(format!("{a}{b}"))
        })
        .register("Card", |t: Tenant, (): ()| async move { Ok(t.tenant) })
        .register_stream("Stream", |t: Tenant, (): ()| async move {
            if t.tenant.is_empty() {
                Ok(vec!["event".to_owned()])
            } else {
                Err(ErrorObject::unsupported_operation("tenants"))
            }
        })
}

fn check_reply(bytes: &[u8]) {
    let text = std::str::from_utf8(bytes).expect("a UTF-8 reply");
    if text.starts_with('[') {
        let responses: Vec<Response<Box<RawValue>>> =
            serde_json::from_str(text).expect("an array of responses");
        assert!((1..=4).contains(&responses.len()), "{text}");
    } else {
        let _: Response<Box<RawValue>> = serde_json::from_str(text).expect("a response");
    }
    assert!(
        text.starts_with(r#"{"jsonrpc":"2.0","id":"#)
            || text.starts_with(r#"[{"jsonrpc":"2.0","id":"#),
        "{text}"
    );
}

fuzz_target!(|data: &[u8]| {
    let methods = methods();
    if let Some(reply) = block_on(methods.handle_bytes(data, ())) {
        check_reply(&reply);
    }
    match block_on(methods.dispatch_bytes(data, ())) {
        Answer::Reply(Some(reply)) => check_reply(&reply.to_vec()),
        Answer::Reply(None) => {}
        Answer::Stream(id, events) => {
            let Ok(Payload::Single(Incoming::Request(request))) = Payload::parse(data) else {
                panic!("a stream for something else than a single request");
            };
            assert_eq!(request.method, "Stream");
            assert_eq!(request.id, id);
            assert_eq!(events, ["event"]);
        }
    }
});
