//! JSON-RPC 2.0 for the Agent2Agent (A2A) protocol: the envelope, request ids, error codes with
//! the A2A error catalogue, and a method table that turns request bytes into typed async calls.
//!
//! The crate knows nothing about HTTP or about A2A's data types: it depends on `serde`,
//! `serde_json` and `serde_path_to_error` only, and works for any JSON-RPC 2.0 service.
//!
//! # The pieces
//!
//! | item | what |
//! |---|---|
//! | [`Request`], [`Notification`], [`Response`] | the envelopes; they serialize with members in the usual order (`{"jsonrpc":"2.0","id":1,"result":…}`) |
//! | [`Id`], [`IdNumber`] | a request id: string, number (kept as the JSON text the client wrote) or `null` |
//! | [`JsonRpcVersion`] | the `"jsonrpc": "2.0"` tag, which accepts nothing else |
//! | [`ErrorCode`] | an open set of codes: the five JSON-RPC ones and A2A's -32001 … -32009, with names, default messages, `ErrorInfo` reasons and HTTP / gRPC mappings |
//! | [`ErrorObject`] | `{code, message, data}`, with builders and readers for A2A 1.0's `google.rpc.ErrorInfo` / `BadRequest` details ([`ErrorInfo`], [`BadRequest`]) |
//! | [`Payload`], [`Incoming`], [`Reply`] | a parsed request body (one call or a batch), each element a request, a notification or an invalid object; and what goes back |
//! | [`Methods`], [`Answer`] | the method table: typed handlers that get a caller-chosen context, unary or streaming |
//! | [`Limits`] | the cap on a batch's length and on how many of its calls run at once |
//! | [`decode_params`] | params into a type, with -32602 naming the bad field's path |
//!
//! # Serving: bytes in, bytes out
//!
//! ```
//! use a2a_jsonrpc::{A2aError, ErrorObject, Methods};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Deserialize)]
//! #[serde(rename_all = "camelCase")]
//! struct GetTaskRequest {
//!     id: String,
//!     history_length: Option<u32>,
//! }
//!
//! #[derive(Serialize)]
//! struct Task {
//!     id: String,
//! }
//!
//! let methods = Methods::new().register("GetTask", |p: GetTaskRequest, _ctx: ()| async move {
//!     match p.id.as_str() {
//!         "task-123" => Ok(Task { id: p.id }),
//!         other => Err(ErrorObject::from(A2aError::task_not_found(other))),
//!     }
//! });
//!
//! let run = |body: &str| {
//!     let reply = futures_executor::block_on(methods.handle_bytes(body.as_bytes(), ()));
//!     reply.map(|bytes| String::from_utf8(bytes).unwrap())
//! };
//!
//! // A call.
//! assert_eq!(
//!     run(r#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"task-123"}}"#).unwrap(),
//!     r#"{"jsonrpc":"2.0","id":1,"result":{"id":"task-123"}}"#
//! );
//!
//! // A handler's error, with A2A 1.0 ErrorInfo data.
//! let reply = run(r#"{"jsonrpc":"2.0","id":2,"method":"GetTask","params":{"id":"t-9"}}"#).unwrap();
//! assert!(reply.starts_with(
//!     r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32001,"message":"task t-9 not found","data":["#
//! ));
//! assert_eq!(
//!     serde_json::from_str::<serde_json::Value>(&reply).unwrap()["error"]["data"],
//!     serde_json::json!([{
//!         "@type": "type.googleapis.com/google.rpc.ErrorInfo",
//!         "reason": "TASK_NOT_FOUND",
//!         "domain": "a2a-protocol.org",
//!         "metadata": {"taskId": "t-9"}
//!     }])
//! );
//!
//! // Bad params: -32602 naming the field.
//! let reply = run(r#"{"jsonrpc":"2.0","id":3,"method":"GetTask","params":{"id":7}}"#).unwrap();
//! assert!(reply.contains(r#""message":"invalid params: id: invalid type: integer `7`, expected a string""#));
//!
//! // An unknown method, a batch with a notification, an empty batch.
//! assert!(run(r#"{"jsonrpc":"2.0","id":4,"method":"Nope"}"#).unwrap().contains("method not found: Nope"));
//! assert_eq!(
//!     run(r#"[{"jsonrpc":"2.0","method":"GetTask","params":{"id":"x"}},{"jsonrpc":"2.0","id":5,"method":"Nope"}]"#).unwrap(),
//!     r#"[{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"method not found: Nope"}}]"#
//! );
//! assert_eq!(
//!     run("[]").unwrap(),
//!     r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: empty batch"}}"#
//! );
//! // Only notifications: nothing to send.
//! assert_eq!(run(r#"{"jsonrpc":"2.0","method":"GetTask","params":{"id":"x"}}"#), None);
//! ```
//!
//! # Serving: streaming methods and other calls a server answers itself
//!
//! A2A's `SendStreamingMessage` and `SubscribeToTask` answer with an SSE stream whose events are
//! JSON-RPC responses. The table can hold them ([`Methods::register_stream`], and
//! [`Methods::dispatch`] hands their stream to the server); a server can also parse the body
//! first, answer some methods itself, and give the rest to the table:
//!
//! ```
//! use a2a_jsonrpc::{Id, Incoming, Methods, Payload, Response};
//! use serde::Deserialize;
//!
//! #[derive(Deserialize)]
//! struct SubscribeToTaskRequest {
//!     id: String,
//! }
//!
//! enum HttpAnswer {
//!     Json(Vec<u8>),
//!     NoContent,
//!     /// The SSE `data:` payloads, one per event.
//!     Sse(Vec<Vec<u8>>),
//! }
//!
//! async fn serve(methods: &Methods<()>, body: &[u8]) -> HttpAnswer {
//!     let payload = match Payload::parse(body) {
//!         Ok(payload) => payload,
//!         // Parse error or empty batch.
//!         Err(error) => return HttpAnswer::Json(Response::error(Id::Null, error).to_vec()),
//!     };
//!     if let Payload::Single(Incoming::Request(request)) = &payload {
//!         if request.method == "SubscribeToTask" {
//!             let params: SubscribeToTaskRequest = match request.decode_params() {
//!                 Ok(params) => params,
//!                 // Errors before the stream starts are plain JSON responses.
//!                 Err(error) => {
//!                     return HttpAnswer::Json(Response::error(request.id.clone(), error).to_vec());
//!                 }
//!             };
//!             // Each event: a response with the request's id and a typed result.
//!             let event = serde_json::json!({"task": {"id": params.id}});
//!             let data = serde_json::to_vec(&Response::ok(request.id.clone(), event)).unwrap();
//!             return HttpAnswer::Sse(vec![data]);
//!         }
//!     }
//!     match methods.handle_payload(payload, ()).await {
//!         Some(reply) => HttpAnswer::Json(reply.to_vec()),
//!         None => HttpAnswer::NoContent,
//!     }
//! }
//!
//! let methods = Methods::new();
//! let body = br#"{"jsonrpc":"2.0","id":"s","method":"SubscribeToTask","params":{"id":"t-1"}}"#;
//! let HttpAnswer::Sse(events) = futures_executor::block_on(serve(&methods, body)) else {
//!     panic!("a stream");
//! };
//! assert_eq!(events[0], br#"{"jsonrpc":"2.0","id":"s","result":{"task":{"id":"t-1"}}}"#);
//! ```
//!
//! # Choices this crate makes
//!
//! * **Ids** are echoed exactly: strings, and numbers byte for byte as written (`1e3`, `-0`,
//!   `18446744073709551616`; see [`Id`]).
//! * **Absent params** decode as `null`, then as `{}` ([`decode_params`]); `"params": null` is an
//!   invalid request, since JSON-RPC 2.0 requires an object or an array when the member is there.
//! * **Invalid objects without an `id`** are answered (with id `null`), as JSON-RPC 2.0's examples
//!   do; only *valid* notifications go unanswered.
//! * **Unknown members** of a request are ignored; **duplicate members** make it invalid.
//! * **Batches** hold at most [`Limits::max_batch_len`] calls (100 by default; a longer one gets
//!   one -32600 and runs nothing) and run at most [`Limits::batch_concurrency`] of them at once
//!   (8 by default) in one future, answering in request order. Bound the body size in the server.
//! * **Streaming methods** ([`Methods::register_stream`]) answer a single request with the
//!   server's stream through [`Methods::dispatch`]; in a batch or as a notification they get a
//!   -32600 naming the method.
//! * **Error messages** of the dispatcher are lowercase and name the problem
//!   (`method not found: X`, `invalid params: message.role: unknown variant …`); the A2A
//!   constructors use the catalogue's default messages ([`ErrorCode::default_message`]).
//! * **Error `data`** follows A2A 1.0 (an array of `google.rpc` details) when built with the
//!   A2A builders; 0.x peers read it as the free-form value it was in their version.
//!
//! Nothing here panics on any input: a proptest feeds arbitrary bytes and arbitrary JSON to
//! [`Methods::handle_bytes`] and checks that the answer is a well-formed response, a non-empty
//! array of them, or nothing.

mod a2a_error;
mod code;
mod error;
mod id;
mod message;
mod methods;
mod params;
mod payload;
mod version;

pub use a2a_error::A2aError;
pub use code::ErrorCode;
pub use error::{
    A2A_ERROR_DOMAIN, BAD_REQUEST_TYPE, BadRequest, ERROR_INFO_TYPE, ErrorInfo, ErrorObject,
    FieldViolation,
};
pub use id::{Id, IdNumber};
pub use message::{Notification, Request, Response};
pub use methods::{Answer, Methods};
pub use params::{decode_params, decode_params_seed};
pub use payload::{Incoming, Limits, Payload, Reply};
pub use version::JsonRpcVersion;

/// Re-exported so that users can name the raw JSON type of params and results
/// (`serde_json::value::RawValue`) without depending on serde_json's `raw_value` feature
/// themselves.
pub use serde_json::value::RawValue;
