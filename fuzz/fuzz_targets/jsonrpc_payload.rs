//! Fuzzes `a2a_jsonrpc::Payload::parse` (single calls and batches) with the default limits and
//! with a batch cap of 0 to 7 taken from the first byte.
//!
//! Checked, besides the absence of panics:
//! * a refused body is a -32700 or a -32600, and its error response is well formed;
//! * every request's id is echoed exactly: the error response to it carries the same id, and
//!   the id survives a serialize/deserialize round trip;
//! * a batch never holds more calls than the cap;
//! * an invalid element is a -32600.

#![no_main]

use a2a_jsonrpc::{ErrorCode, ErrorObject, Id, Incoming, Limits, Payload, RawValue, Response};
use libfuzzer_sys::fuzz_target;

/// The response to `id`, serialized and read back: the id must come back as it was.
fn echo(id: &Id, error: ErrorObject) {
    let bytes = Response::error(id.clone(), error).to_vec();
    let back: Response<Box<RawValue>> =
        serde_json::from_slice(&bytes).expect("a response we wrote reads back");
    assert_eq!(&back.id, id);
    let text = serde_json::to_string(id).expect("an id serializes");
    assert_eq!(
        &serde_json::from_str::<Id>(&text).expect("an id reads back"),
        id
    );
    assert_eq!(text, id.to_string());
}

fn check(data: &[u8], limits: &Limits) {
    match Payload::parse_with(data, limits) {
        Err(error) => {
            assert!(
                error.code == ErrorCode::PARSE_ERROR || error.code == ErrorCode::INVALID_REQUEST,
                "{error:?}"
            );
            echo(&Id::Null, error);
        }
        Ok(payload) => {
            let entries = match payload {
                Payload::Single(incoming) => vec![incoming],
                Payload::Batch(entries) => {
                    assert!(!entries.is_empty() && entries.len() <= limits.max_batch_len);
                    entries
                }
            };
            for incoming in entries {
                match incoming {
                    Incoming::Request(request) => {
                        echo(&request.id, ErrorObject::method_not_found(&request.method));
                    }
                    Incoming::Notification(_) => {}
                    Incoming::Invalid { id, error } => {
                        assert_eq!(error.code, ErrorCode::INVALID_REQUEST);
                        echo(&id, error);
                    }
                }
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    check(data, &Limits::default());
    let cap = usize::from(data.first().copied().unwrap_or(0) % 8);
    check(data, &Limits::default().with_max_batch_len(cap));
});
