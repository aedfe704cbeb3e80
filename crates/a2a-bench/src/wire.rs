//! The bytes on the wire: the requests the load generator sends, and the floor's pre-built
//! answers, which have the shape of a2a-server's answers to the same requests (the test
//! `tests/shape.rs` holds the two side by side).

use serde_json::{Value, json};

/// The text every `SendMessage` of the request-rate phases carries.
pub const ECHO_TEXT: &str = "hello, bench";

/// The text that makes the bench agents keep their task working until cancelled (the task the
/// idle SSE subscribers subscribe to).
pub const HOLD: &str = "hold";

/// The text that makes the bench agent ask for input: its task waits in
/// `TASK_STATE_INPUT_REQUIRED` (until the server's `interrupted_ttl` ends it).
pub const ASK: &str = "ask";

/// The text that makes the bench agents stream `n` artifact chunks.
pub fn stream_command(n: usize) -> String {
    format!("stream {n}")
}

/// The `n` of [`stream_command`], if `text` is one.
pub fn parse_stream_command(text: &str) -> Option<usize> {
    text.strip_prefix("stream ")?.trim().parse().ok()
}

/// The text that makes the bench agent stream `n` chunks, yielding to the runtime after each
/// one, as an agent relaying a model's tokens does: readers catch up after every chunk.
pub fn paced_command(n: usize) -> String {
    format!("paced {n}")
}

/// The `n` of [`paced_command`], if `text` is one.
pub fn parse_paced_command(text: &str) -> Option<usize> {
    text.strip_prefix("paced ")?.trim().parse().ok()
}

/// The text that makes the bench agent emit `n` chunks 10 ms apart, each its emission time
/// (microseconds since the epoch), after 300 ms: the cross-replica fan-out latency.
pub fn stamped_command(n: usize) -> String {
    format!("stamped {n}")
}

/// The `n` of [`stamped_command`], if `text` is one.
pub fn parse_stamped_command(text: &str) -> Option<usize> {
    text.strip_prefix("stamped ")?.trim().parse().ok()
}

/// The text of artifact chunk `i`: `"chunk 0042 "`.
pub fn chunk_text(i: usize) -> String {
    format!("chunk {i:04} ")
}

/// The artifact id of the streamed chunks.
pub const STREAM_ARTIFACT: &str = "stream";

fn message(text: &str) -> Value {
    json!({"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": text}]})
}

/// A `SendMessage` request, blocking unless `return_immediately`.
pub fn send_message(text: &str, return_immediately: bool) -> Vec<u8> {
    let mut params = json!({"message": message(text)});
    if return_immediately {
        params["configuration"] = json!({"returnImmediately": true});
    }
    rpc("SendMessage", params)
}

/// The HTTP+JSON route of `SendMessage` (spec 1.0 §11).
pub const REST_SEND_PATH: &str = "/message:send";

/// The gRPC method of `SendMessage`.
pub const GRPC_SEND_METHOD: &str = "lf.a2a.v1.A2AService/SendMessage";

/// A blocking `SendMessage` over HTTP+JSON: the body of `POST` [`REST_SEND_PATH`], the 1.0
/// `SendMessageRequest` as ProtoJSON.
pub fn send_message_rest(text: &str) -> Vec<u8> {
    serde_json::to_vec(&json!({"message": message(text)})).expect("JSON serializes")
}

/// A blocking `SendMessage` over gRPC: the message of [`send_message_rest`], converted.
pub fn send_message_grpc(text: &str) -> a2a_grpc::proto::SendMessageRequest {
    let request: a2a_types::v1::SendMessageRequest =
        serde_json::from_slice(&send_message_rest(text)).expect("a valid SendMessageRequest");
    request.into()
}

/// A `SendStreamingMessage` request.
pub fn send_streaming_message(text: &str) -> Vec<u8> {
    rpc("SendStreamingMessage", json!({"message": message(text)}))
}

/// A `SubscribeToTask` request.
pub fn subscribe_to_task(task_id: &str) -> Vec<u8> {
    rpc("SubscribeToTask", json!({"id": task_id}))
}

/// A `ListTasks` request for one task: the answer's `totalSize` counts the tasks retained.
pub fn list_tasks() -> Vec<u8> {
    rpc("ListTasks", json!({"pageSize": 1}))
}

/// A JSON-RPC request (id 1) for `method` with `params`.
pub fn rpc(method: &str, params: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}))
        .expect("JSON serializes")
}

/// The ids and timestamp the floor's answers carry: fixed, of the lengths a2a-server writes
/// (v4 UUIDs and RFC 3339 with nanoseconds).
pub mod floor_ids {
    /// The task id.
    pub const TASK: &str = "0b5c3f8e-2d7a-4c1e-9f63-8a1d2e4b7c90";
    /// The context id.
    pub const CONTEXT: &str = "5e9d2a71-c4b8-4f0a-b3e6-1d7c9a2f8e45";
    /// The status timestamp.
    pub const TIMESTAMP: &str = "2026-11-21T10:23:40.805249950Z";
}

fn history(text: &str) -> Value {
    json!([{
        "messageId": "m-1",
        "contextId": floor_ids::CONTEXT,
        "taskId": floor_ids::TASK,
        "role": "ROLE_USER",
        "parts": [{"text": text}]
    }])
}

fn status(state: &str) -> Value {
    json!({"state": state, "timestamp": floor_ids::TIMESTAMP})
}

fn result(result: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 1, "result": result}))
        .expect("JSON serializes")
}

/// The `SendMessageResponse` of the floor's answers to `SendMessage`: a completed task with
/// one artifact echoing `text`, as a2a-server's echo agent answers.
fn completed_response(text: &str) -> Value {
    json!({"task": {
        "id": floor_ids::TASK,
        "contextId": floor_ids::CONTEXT,
        "status": status("TASK_STATE_COMPLETED"),
        "artifacts": [{"artifactId": "echo", "name": "echo", "parts": [{"text": text}]}],
        "history": history(text)
    }})
}

/// The floor's answer to the JSON-RPC `SendMessage`: a completed task echoing `text` (the
/// `SendMessageResponse` of [`completed_task_rest`]) as its result.
pub fn completed_task(text: &str) -> Vec<u8> {
    result(completed_response(text))
}

/// The floor's answer to `POST` [`REST_SEND_PATH`]: the bare `SendMessageResponse`, as the
/// HTTP+JSON binding answers.
pub fn completed_task_rest(text: &str) -> Vec<u8> {
    serde_json::to_vec(&completed_response(text)).expect("JSON serializes")
}

/// The gRPC floor's answer to `SendMessage`: [`completed_task_rest`] as the proto message.
pub fn completed_task_grpc(text: &str) -> a2a_grpc::proto::SendMessageResponse {
    let response: a2a_types::v1::SendMessageResponse =
        serde_json::from_value(completed_response(text)).expect("a valid SendMessageResponse");
    response.into()
}

/// Fresh ids and a timestamp of the JSON floor, made per task as a2a-server makes them: v4
/// UUIDs for the task and context, RFC 3339 with the clock's precision for the status.
struct FreshTask {
    task_id: String,
    context_id: String,
}

impl FreshTask {
    fn new() -> Self {
        Self {
            task_id: uuid::Uuid::new_v4().to_string(),
            context_id: uuid::Uuid::new_v4().to_string(),
        }
    }

    fn status(state: &str) -> Option<Value> {
        let timestamp = time::OffsetDateTime::now_utc()
            .format(&time::format_description::well_known::Rfc3339)
            .ok()?;
        Some(object([
            ("state", Value::from(state)),
            ("timestamp", Value::String(timestamp)),
        ]))
    }

    /// The client's `message` with this task's ids, as the history keeps it.
    fn own(&self, mut message: Value) -> Value {
        message["taskId"] = Value::String(self.task_id.clone());
        message["contextId"] = Value::String(self.context_id.clone());
        message
    }
}

/// The `SendMessageResponse` the JSON floor builds for the client's `message` (taken out of
/// the parsed request): a completed task with fresh ids and timestamp echoing the message's
/// first text part, the artifact id the agent's (`echo`), the message id the client's, as in
/// a2a-server's answer. `None` for a message without a text part.
fn json_floor_response(message: Value) -> Option<Value> {
    let text = message["parts"][0]["text"].as_str()?.to_owned();
    let fresh = FreshTask::new();
    let artifact = object([
        ("artifactId", Value::from("echo")),
        ("name", Value::from("echo")),
        (
            "parts",
            Value::Array(vec![object([("text", Value::String(text))])]),
        ),
    ]);
    let history = Value::Array(vec![fresh.own(message)]);
    let task = object([
        ("id", Value::String(fresh.task_id)),
        ("contextId", Value::String(fresh.context_id)),
        ("status", FreshTask::status("TASK_STATE_COMPLETED")?),
        ("artifacts", Value::Array(vec![artifact])),
        ("history", history),
    ]);
    Some(object([("task", task)]))
}

/// An object of `fields`, each value moved in. (`json!` would serialize a [`Value`] given as
/// an expression into a new one, a deep copy that a floor must not pay for: it made the
/// JSON-RPC floor ~35k instructions per request dearer than the HTTP+JSON one.)
fn object<const N: usize>(fields: [(&str, Value); N]) -> Value {
    Value::Object(
        fields
            .into_iter()
            .map(|(key, value)| (key.to_owned(), value))
            .collect(),
    )
}

/// The JSON-RPC success envelope around `result`, moved in.
fn envelope(id: Value, result: Value) -> Value {
    object([
        ("jsonrpc", Value::from("2.0")),
        ("id", id),
        ("result", result),
    ])
}

/// The JSON floor's answer to a JSON-RPC `SendMessage` body, built per request as a raw
/// hyper + `serde_json` server would: the body parsed into a [`Value`], the message taken out
/// of it, a completed task with fresh v4 UUIDs for the task and context and an RFC 3339
/// timestamp built as a [`Value`] (`json_floor_response`), serialized. `None` for a body
/// without a message.
pub fn json_floor_answer(body: &[u8]) -> Option<Vec<u8>> {
    let mut request: Value = serde_json::from_slice(body).ok()?;
    let message = request.get_mut("params")?.get_mut("message")?.take();
    let answer = envelope(request["id"].take(), json_floor_response(message)?);
    serde_json::to_vec(&answer).ok()
}

/// The JSON floor's answer to an HTTP+JSON `SendMessage` body (`POST` [`REST_SEND_PATH`]):
/// the same work as [`json_floor_answer`], the bare `SendMessageResponse` without the JSON-RPC
/// envelope, as the binding answers. `None` for a body without a message.
pub fn json_floor_answer_rest(body: &[u8]) -> Option<Vec<u8>> {
    let mut request: Value = serde_json::from_slice(body).ok()?;
    let message = request.get_mut("message")?.take();
    serde_json::to_vec(&json_floor_response(message)?).ok()
}

/// The JSON floor's `SendStreamingMessage` for [`stream_command`]`(n)`: the request parsed
/// into a [`Value`], then each of the `n + 3` events of the bench agent's stream (the
/// submitted task, working, `n` artifact chunks, completed) built as a [`Value`] when asked
/// for ([`JsonFloorStream::event`]), to be serialized and framed one at a time as a server
/// that does not pre-build its answers must.
#[derive(Debug)]
pub struct JsonFloorStream {
    fresh_task_id: String,
    fresh_context_id: String,
    request_id: Value,
    message: Value,
    chunks: usize,
}

impl JsonFloorStream {
    /// Parses a JSON-RPC `SendStreamingMessage` body whose text is a [`stream_command`]; `None`
    /// for another body.
    pub fn parse(body: &[u8]) -> Option<Self> {
        let mut request: Value = serde_json::from_slice(body).ok()?;
        let message = request.get_mut("params")?.get_mut("message")?.take();
        let chunks = parse_stream_command(message["parts"][0]["text"].as_str()?)?;
        let fresh = FreshTask::new();
        Some(Self {
            message: fresh.own(message),
            fresh_task_id: fresh.task_id,
            fresh_context_id: fresh.context_id,
            request_id: request["id"].take(),
            chunks,
        })
    }

    /// The number of events: `n + 3`.
    pub fn len(&self) -> usize {
        self.chunks + 3
    }

    /// Always false: a stream has at least its task, working and completed events.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Event `i` (0-based) as the JSON-RPC response [`Value`] a2a-server sends in its SSE
    /// `data`; `None` past the end.
    pub fn event(&self, i: usize) -> Option<Value> {
        let (task, context) = (&self.fresh_task_id, &self.fresh_context_id);
        let update = |state: &str| -> Option<Value> {
            Some(json!({"statusUpdate": {
                "taskId": task,
                "contextId": context,
                "status": FreshTask::status(state)?
            }}))
        };
        let result = match i {
            0 => json!({"task": {
                "id": task,
                "contextId": context,
                "status": FreshTask::status("TASK_STATE_SUBMITTED")?,
                "history": [self.message.clone()]
            }}),
            1 => update("TASK_STATE_WORKING")?,
            i if i < self.chunks + 2 => {
                let chunk = i - 2;
                let mut event = json!({
                    "taskId": task,
                    "contextId": context,
                    "artifact": {"artifactId": STREAM_ARTIFACT, "parts": [{"text": chunk_text(chunk)}]}
                });
                if chunk > 0 {
                    event["append"] = json!(true);
                }
                if chunk + 1 == self.chunks {
                    event["lastChunk"] = json!(true);
                }
                json!({"artifactUpdate": event})
            }
            i if i == self.chunks + 2 => update("TASK_STATE_COMPLETED")?,
            _ => return None,
        };
        Some(envelope(self.request_id.clone(), result))
    }
}

/// The floor's answer to the `hold` `SendMessage` (`returnImmediately`): a working task.
pub fn working_task() -> Vec<u8> {
    result(json!({"task": {
        "id": floor_ids::TASK,
        "contextId": floor_ids::CONTEXT,
        "status": status("TASK_STATE_WORKING"),
        "history": history(HOLD)
    }}))
}

/// The floor's answer to `ListTasks`: no task is retained.
pub fn empty_task_list() -> Vec<u8> {
    result(json!({"tasks": [], "nextPageToken": "", "pageSize": 1, "totalSize": 0}))
}

/// One SSE event as a2a-server frames it: `data: <json>\nid: <seq>\n\n`.
pub fn sse_event(seq: u64, json: &[u8]) -> Vec<u8> {
    let data = std::str::from_utf8(json).expect("JSON is UTF-8");
    let event = a2a_sse::Event::new(data)
        .with_id(seq.to_string())
        .expect("a number is a valid id");
    event.encode().to_vec()
}

/// The floor's `SendStreamingMessage` answer for [`stream_command`]`(n)`, one `Vec` per SSE
/// event: the submitted task, working, `n` artifact chunks, completed (`n + 3` events), the
/// events a2a-server sends for the bench agent's stream.
pub fn stream_events(n: usize) -> Vec<Vec<u8>> {
    let text = stream_command(n);
    let mut events = Vec::with_capacity(n + 3);
    let task = result(json!({"task": {
        "id": floor_ids::TASK,
        "contextId": floor_ids::CONTEXT,
        "status": status("TASK_STATE_SUBMITTED"),
        "history": history(&text)
    }}));
    events.push(task);
    let update = |state: &str| {
        result(json!({"statusUpdate": {
            "taskId": floor_ids::TASK,
            "contextId": floor_ids::CONTEXT,
            "status": status(state)
        }}))
    };
    events.push(update("TASK_STATE_WORKING"));
    for i in 0..n {
        let mut event = json!({
            "taskId": floor_ids::TASK,
            "contextId": floor_ids::CONTEXT,
            "artifact": {"artifactId": STREAM_ARTIFACT, "parts": [{"text": chunk_text(i)}]}
        });
        if i > 0 {
            event["append"] = json!(true);
        }
        if i + 1 == n {
            event["lastChunk"] = json!(true);
        }
        events.push(result(json!({"artifactUpdate": event})));
    }
    events.push(update("TASK_STATE_COMPLETED"));
    events
        .iter()
        .zip(1..)
        .map(|(json, seq)| sse_event(seq, json))
        .collect()
}

/// The first event of the floor's `SubscribeToTask` stream: the working task.
pub fn subscribe_first_event() -> Vec<u8> {
    let task = result(json!({"task": {
        "id": floor_ids::TASK,
        "contextId": floor_ids::CONTEXT,
        "status": status("TASK_STATE_WORKING"),
        "history": history(HOLD)
    }}));
    sse_event(2, &task)
}

/// What a request asks for, found with a substring search of the body (the floor does no
/// JSON parsing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Ask {
    /// `SendMessage` with the echo text.
    Send,
    /// `SendMessage` with [`HOLD`].
    Hold,
    /// `SendStreamingMessage`.
    Stream,
    /// `SubscribeToTask`.
    Subscribe,
    /// `ListTasks`.
    List,
}

/// Classifies a request body.
pub fn classify(body: &[u8]) -> Ask {
    use memchr::memmem::Finder;
    static FINDERS: std::sync::LazyLock<[(Finder<'static>, Ask); 4]> =
        std::sync::LazyLock::new(|| {
            [
                (Finder::new("\"SendStreamingMessage\""), Ask::Stream),
                (Finder::new("\"SubscribeToTask\""), Ask::Subscribe),
                (Finder::new("\"ListTasks\""), Ask::List),
                (Finder::new("\"text\":\"hold\""), Ask::Hold),
            ]
        });
    FINDERS
        .iter()
        .find(|(finder, _)| finder.find(body).is_some())
        .map_or(Ask::Send, |(_, ask)| *ask)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_the_requests() {
        assert_eq!(classify(&send_message(ECHO_TEXT, false)), Ask::Send);
        assert_eq!(classify(&send_message(HOLD, true)), Ask::Hold);
        assert_eq!(
            classify(&send_streaming_message(&stream_command(3))),
            Ask::Stream
        );
        assert_eq!(classify(&subscribe_to_task("t")), Ask::Subscribe);
        assert_eq!(classify(&list_tasks()), Ask::List);
    }

    #[test]
    fn stream_has_n_plus_three_events() {
        let events = stream_events(3);
        assert_eq!(events.len(), 6);
        assert!(events[5].ends_with(b"\nid: 6\n\n"));
        assert_eq!(parse_stream_command(&stream_command(1000)), Some(1000));
    }
}
