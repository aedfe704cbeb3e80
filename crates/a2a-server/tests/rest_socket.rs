//! The 1.0 HTTP+JSON (REST) binding over real sockets: hand-written requests, literal expected
//! answers. The last test feeds the service directly with arbitrary paths, queries and bodies.

mod common;

use std::sync::Arc;
use std::time::Duration;

use a2a_server::agent::agent_fn;
use a2a_server::auth::{AuthError, Principal};
use a2a_server::{A2aService, HandlerConfig, Limits};
use a2a_types::v1::{AgentCapabilities, AgentCard, AgentExtension, AgentSkill};
use bytes::Bytes;
use common::{Events, normalize, normalized, send, start};
use http::{HeaderMap, StatusCode};
use http_body_util::{BodyExt as _, Full};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

fn card() -> AgentCard {
    AgentCard::new("Test", "A test agent", "1.0.0")
        .with_capabilities(
            AgentCapabilities::default()
                .with_streaming(true)
                .with_push_notifications(true),
        )
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"])
        .with_skills([AgentSkill::new("echo", "Echo", "Echoes", ["echo"])])
}

/// The scripted agent of `common` (`gate` paces its "chunks" command).
fn service_with(gate: Arc<Semaphore>, card: AgentCard, limits: Limits) -> A2aService {
    let agent = common::scripted_agent(gate);
    let push = card.capabilities.push_notifications == Some(true);
    let builder = A2aService::builder(agent, card)
        .public_url("http://127.0.0.1:7420")
        .limits(limits)
        .handler_config(HandlerConfig::default().with_cancel_grace(Duration::from_millis(200)));
    // Push delivery on for a card that declares it (without it, the card is corrected).
    if push {
        builder.push(a2a_server::push::PushSettings::default())
    } else {
        builder
    }
    .build()
}

/// The scripted agent with this card and these limits ("chunks" unpaced).
fn serving(card: AgentCard, limits: Limits) -> A2aService {
    service_with(Arc::new(Semaphore::new(1000)), card, limits)
}

fn service() -> A2aService {
    serving(card(), Limits::default())
}

/// A request with `Host`, the given headers, and the body (none when `None`).
fn request(
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &[(&str, &str)],
) -> http::Request<Full<Bytes>> {
    let mut builder = http::Request::builder()
        .method(method)
        .uri(path)
        .header("host", "test");
    for (k, v) in headers {
        builder = builder.header(*k, *v);
    }
    builder
        .body(Full::new(Bytes::from(body.unwrap_or("").to_owned())))
        .unwrap()
}

async fn exchange(
    addr: std::net::SocketAddr,
    request: http::Request<Full<Bytes>>,
) -> (StatusCode, HeaderMap, String) {
    let (head, body) = send(addr, request).await.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    (
        head.status,
        head.headers,
        String::from_utf8(bytes.to_vec()).unwrap(),
    )
}

/// A 1.0 call: `A2A-Version: 1.0`, and `Content-Type: application/a2a+json` with a body.
async fn rest(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> (StatusCode, HeaderMap, String) {
    let mut headers = vec![("a2a-version", "1.0")];
    if body.is_some() {
        headers.push(("content-type", "application/a2a+json"));
    }
    exchange(addr, request(method, path, body, &headers)).await
}

/// A 1.0 call whose answer is JSON: the status and the normalized JSON.
async fn rest_json(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> (StatusCode, Value) {
    let (status, headers, text) = rest(addr, method, path, body).await;
    // Spec 1.0 §11.1 and the §11.6 example: an error (google.rpc.Status) is
    // `application/json`; a success keeps `application/a2a+json`.
    let media_type = if status.is_success() {
        "application/a2a+json"
    } else {
        "application/json"
    };
    assert_eq!(headers["content-type"], media_type, "{status} {text}");
    (status, normalized(&text))
}

/// Asserts the answer to a 1.0 call: its status, and its JSON (normalized).
async fn expect(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    status: StatusCode,
    expected: Value,
) {
    let answer = rest_json(addr, method, path, body).await;
    assert_eq!(answer, (status, expected), "{method} {path}");
}

fn send_body(text: &str) -> String {
    json!({"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":text}]}}).to_string()
}

/// Sends `text` and returns the new task's id.
async fn new_task(addr: std::net::SocketAddr, path: &str, text: &str) -> String {
    let body = json!({"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":text}]},
        "configuration":{"returnImmediately":text == "wait"}})
    .to_string();
    let (status, _, answer) = rest(addr, "POST", path, Some(&body)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    serde_json::from_str::<Value>(&answer).unwrap()["task"]["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The `google.rpc.Status` document of an error with an `ErrorInfo` (and these metadata).
fn doc(code: u16, status: &str, message: &str, reason: &str, metadata: Value) -> Value {
    let mut info = json!({"@type":"type.googleapis.com/google.rpc.ErrorInfo",
        "reason":reason,"domain":"a2a-protocol.org"});
    if metadata != json!({}) {
        info["metadata"] = metadata;
    }
    json!({"error":{"code":code,"status":status,"message":message,"details":[info]}})
}

/// An INVALID_PARAMS document naming one field.
fn invalid_param(message: &str, field: &str, description: &str) -> Value {
    let mut document = doc(
        400,
        "INVALID_ARGUMENT",
        message,
        "INVALID_PARAMS",
        json!({}),
    );
    document["error"]["details"]
        .as_array_mut()
        .unwrap()
        .push(json!({"@type":"type.googleapis.com/google.rpc.BadRequest",
            "fieldViolations":[{"field":field,"description":description}]}));
    document
}

const COMPLETED_PING: &str = "TASK_STATE_COMPLETED";

#[tokio::test]
async fn send_message_completes_a_task() {
    let server = start(service()).await;
    let (status, headers, body) = rest(
        server.addr,
        "POST",
        "/message:send",
        Some(r#"{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"ping"}]}}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "application/a2a+json");
    assert_eq!(
        normalized(&body),
        json!({"task":{
            "id":"<uuid>","contextId":"<uuid>",
            "status":{"state":COMPLETED_PING,"timestamp":"<timestamp>"},
            "artifacts":[{"artifactId":"echo","parts":[{"text":"ping"}]}],
            "history":[{"messageId":"m-1","contextId":"<uuid>","taskId":"<uuid>","role":"ROLE_USER","parts":[{"text":"ping"}]}]
        }})
    );
    // A direct reply is `{"message": …}`.
    expect(
        server.addr,
        "POST",
        "/message:send",
        Some(&send_body("hello")),
        StatusCode::OK,
        json!({"message":{"messageId":"<uuid>","contextId":"<uuid>","role":"ROLE_AGENT",
            "parts":[{"text":"hi!"}]}}),
    )
    .await;
}

#[tokio::test]
async fn json_content_types_and_none_are_accepted_others_get_415() {
    let server = start(service()).await;
    let body = send_body("ping");
    for content_type in [
        Some("application/a2a+json"),
        Some("application/json"),
        Some("application/json; charset=utf-8"),
        Some("Application/A2A+JSON"),
        None,
    ] {
        let mut headers = vec![("a2a-version", "1.0")];
        headers.extend(content_type.map(|c| ("content-type", c)));
        let (status, response_headers, answer) = exchange(
            server.addr,
            request("POST", "/message:send", Some(&body), &headers),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{content_type:?}: {answer}");
        assert_eq!(response_headers["content-type"], "application/a2a+json");
        assert_eq!(
            normalized(&answer)["task"]["status"]["state"],
            COMPLETED_PING
        );
    }
    let (status, headers, answer) = exchange(
        server.addr,
        request(
            "POST",
            "/message:send",
            Some(&body),
            &[("a2a-version", "1.0"), ("content-type", "text/plain")],
        ),
    )
    .await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(headers["content-type"], "application/json");
    assert_eq!(normalized(&answer), status_doc_415());
}

fn status_doc_415() -> Value {
    doc(
        415,
        "INVALID_ARGUMENT",
        "media type `text/plain` is not supported; the agent accepts application/a2a+json or application/json",
        "CONTENT_TYPE_NOT_SUPPORTED",
        json!({"mediaType":"text/plain"}),
    )
}

#[tokio::test]
async fn bodies_that_are_not_the_request_message() {
    let server = start(service()).await;
    expect(
        server.addr,
        "POST",
        "/message:send",
        Some(r#"{"message":"#),
        StatusCode::BAD_REQUEST,
        doc(
            400,
            "INVALID_ARGUMENT",
            "parse error: the request body is not JSON: EOF while parsing a value at line 1 column 11",
            "PARSE_ERROR",
            json!({}),
        ),
    )
    .await;
    expect(
        server.addr,
        "POST",
        "/message:send",
        Some(r#"{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":7}]}}"#),
        StatusCode::BAD_REQUEST,
        invalid_param(
            "invalid params: message.parts[0].text: invalid type: integer `7`, expected a string",
            "message.parts[0].text",
            "invalid type: integer `7`, expected a string",
        ),
    )
    .await;
    // No body at all: the message is missing.
    expect(
        server.addr,
        "POST",
        "/message:send",
        None,
        StatusCode::BAD_REQUEST,
        invalid_param(
            "invalid params: missing field `message`",
            "message",
            "missing field `message`",
        ),
    )
    .await;
    // Unknown fields are ignored.
    let (status, _) = rest_json(
        server.addr,
        "POST",
        "/message:send",
        Some(
            r#"{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]},"future":1}"#,
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn get_task_with_history_length() {
    let server = start(service()).await;
    let id = new_task(server.addr, "/message:send", "ping").await;
    let (status, task) = rest_json(server.addr, "GET", &format!("/tasks/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        task,
        json!({"id":"<uuid>","contextId":"<uuid>",
            "status":{"state":COMPLETED_PING,"timestamp":"<timestamp>"},
            "artifacts":[{"artifactId":"echo","parts":[{"text":"ping"}]}],
            "history":[{"messageId":"m-1","contextId":"<uuid>","taskId":"<uuid>","role":"ROLE_USER","parts":[{"text":"ping"}]}]})
    );
    // historyLength=0: no history; the snake_case spelling too; unknown parameters are ignored.
    for query in ["historyLength=0", "history_length=0&whatever=1"] {
        let (status, task) =
            rest_json(server.addr, "GET", &format!("/tasks/{id}?{query}"), None).await;
        assert_eq!(status, StatusCode::OK);
        assert!(task.get("history").is_none(), "{query}: {task}");
        assert_eq!(task["artifacts"][0]["artifactId"], "echo");
    }
    expect(
        server.addr,
        "GET",
        &format!("/tasks/{id}?historyLength=-1"),
        None,
        StatusCode::BAD_REQUEST,
        invalid_param(
            "invalid params: query parameter `historyLength` must not be less than 0, got -1",
            "historyLength",
            "must not be less than 0, got -1",
        ),
    )
    .await;
    expect(
        server.addr,
        "GET",
        "/tasks/missing",
        None,
        StatusCode::NOT_FOUND,
        status_not_found("missing"),
    )
    .await;
}

fn status_not_found(task_id: &str) -> Value {
    doc(
        404,
        "NOT_FOUND",
        &format!("task {task_id} not found"),
        "TASK_NOT_FOUND",
        json!({"taskId": task_id}),
    )
}

#[tokio::test]
async fn percent_encoded_ids_are_decoded() {
    let server = start(service()).await;
    expect(
        server.addr,
        "GET",
        "/tasks/a%20b%2Fc",
        None,
        StatusCode::NOT_FOUND,
        status_not_found("a b/c"),
    )
    .await;
    // An encoded `:` is part of the id, not the start of a custom method.
    expect(
        server.addr,
        "GET",
        "/tasks/x%3Acancel",
        None,
        StatusCode::NOT_FOUND,
        status_not_found("x:cancel"),
    )
    .await;
    expect(
        server.addr,
        "GET",
        "/tasks/%FF",
        None,
        StatusCode::BAD_REQUEST,
        invalid_param(
            "invalid params: path segment `id` is not UTF-8 once percent-decoded",
            "id",
            "is not UTF-8 once percent-decoded",
        ),
    )
    .await;
}

#[tokio::test]
async fn list_tasks_with_query_parameters() {
    let server = start(service()).await;
    let first = new_task(server.addr, "/message:send", "ping").await;
    let asking = new_task(server.addr, "/message:send", "ask").await;
    let last = new_task(server.addr, "/message:send", "pong").await;

    let list = |query: &'static str| async move {
        let (status, answer) =
            rest_json(server.addr, "GET", &format!("/tasks?{query}"), None).await;
        assert_eq!(status, StatusCode::OK, "{query}: {answer}");
        answer
    };
    let ids = |answer: &Value| -> Vec<String> {
        answer["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_str().unwrap().to_owned())
            .collect()
    };
    let (status, all) = rest_json(server.addr, "GET", "/tasks", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(all["totalSize"], 3);
    assert_eq!(all["pageSize"], 50);
    assert_eq!(all["nextPageToken"], "");
    assert!(all["tasks"][0].get("artifacts").is_none());
    // By name or by number.
    for query in ["status=TASK_STATE_INPUT_REQUIRED", "status=6"] {
        let answer = list(query).await;
        let raw_ids: Vec<String> = answer["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["status"]["state"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(raw_ids, ["TASK_STATE_INPUT_REQUIRED"], "{query}");
        assert_eq!(answer["totalSize"], 1);
    }
    let page = list("pageSize=1&includeArtifacts=true").await;
    assert_eq!(page["pageSize"], 1);
    assert_eq!(page["tasks"].as_array().unwrap().len(), 1);
    assert_ne!(page["nextPageToken"], "");
    assert_eq!(
        page["tasks"][0]["artifacts"],
        json!([{"artifactId":"echo","parts":[{"text":"pong"}]}])
    );
    let page = list("page_size=1&include_artifacts=false").await;
    assert!(page["tasks"][0].get("artifacts").is_none());
    // Timestamps in any RFC 3339 form: Z, an encoded `+`, an unencoded one (read as a space).
    for query in [
        "statusTimestampAfter=2000-01-01T00:00:00Z",
        "statusTimestampAfter=2000-01-01T01:00:00%2B01:00",
        "statusTimestampAfter=2000-01-01T01:00:00+01:00",
    ] {
        assert_eq!(list(query).await["totalSize"], 3, "{query}");
    }
    assert_eq!(
        list("statusTimestampAfter=2999-01-01T00:00:00.000Z").await["totalSize"],
        0
    );
    // Only the tasks of one context.
    let (_, _, raw) = rest(server.addr, "GET", &format!("/tasks/{asking}"), None).await;
    let context = serde_json::from_str::<Value>(&raw).unwrap()["contextId"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, _, answer) = rest(
        server.addr,
        "GET",
        &format!("/tasks?contextId={context}"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        ids(&serde_json::from_str(&answer).unwrap()),
        std::slice::from_ref(&asking)
    );
    let (_, _, answer) = rest(server.addr, "GET", "/tasks", None).await;
    assert_eq!(
        ids(&serde_json::from_str(&answer).unwrap()),
        [last, asking, first]
    );

    let bad = [
        (
            "status=WORKING",
            "status",
            "must be a TaskState name (such as TASK_STATE_WORKING) or number, got `WORKING`",
        ),
        ("pageSize=ten", "pageSize", "must be an integer, got `ten`"),
        (
            "pageSize=5&pageSize=6",
            "pageSize",
            "is given more than once; it takes one value",
        ),
        (
            "includeArtifacts=yes",
            "includeArtifacts",
            "must be true or false, got `yes`",
        ),
        (
            "statusTimestampAfter=2025-13-01T00:00:00Z",
            "statusTimestampAfter",
            "must be an RFC 3339 timestamp such as 2025-10-28T10:30:00.000Z, got `2025-13-01T00:00:00Z` (month was not in range)",
        ),
        (
            "historyLength=-3",
            "historyLength",
            "must not be less than 0, got -3",
        ),
    ];
    for (query, field, why) in bad {
        let (status, answer) =
            rest_json(server.addr, "GET", &format!("/tasks?{query}"), None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(
            answer,
            invalid_param(
                &format!("invalid params: query parameter `{field}` {why}"),
                field,
                why
            ),
            "{query}"
        );
    }
    // The page size's range is the handler's check, worded as over JSON-RPC.
    for (query, why) in [
        ("pageSize=0", "must be between 1 and 100, got 0"),
        ("pageSize=101", "must be between 1 and 100, got 101"),
        ("page_size=-1", "must be between 1 and 100, got -1"),
    ] {
        let (status, answer) =
            rest_json(server.addr, "GET", &format!("/tasks?{query}"), None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(
            answer,
            invalid_param(&format!("invalid params: pageSize {why}"), "pageSize", why),
            "{query}"
        );
    }
}

#[tokio::test]
async fn cancel_task_with_and_without_a_body() {
    let server = start(service()).await;
    let id = new_task(server.addr, "/message:send", "wait").await;
    let path = format!("/tasks/{id}:cancel");
    expect(
        server.addr,
        "POST",
        &path,
        Some(r#"{"id":"someone-else"}"#),
        StatusCode::BAD_REQUEST,
        invalid_param(
            &format!("invalid params: id is `someone-else`, but the path names `{id}`"),
            "id",
            &format!("is `someone-else`, but the path names `{id}`"),
        ),
    )
    .await;
    // No body (and no Content-Type), then `{metadata}`: canceled, and canceling is idempotent.
    let (status, task) = rest_json(server.addr, "POST", &path, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(task["status"]["state"], "TASK_STATE_CANCELED");
    let (status, task) = rest_json(
        server.addr,
        "POST",
        &path,
        Some(r#"{"metadata":{"why":"test"}}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(task["status"]["state"], "TASK_STATE_CANCELED");

    let done = new_task(server.addr, "/message:send", "ping").await;
    expect(
        server.addr,
        "POST",
        &format!("/tasks/{done}:cancel"),
        Some("{}"),
        StatusCode::BAD_REQUEST,
        normalized(
            &doc(
                400,
                "FAILED_PRECONDITION",
                &format!("task {done} is TASK_STATE_COMPLETED and cannot be canceled"),
                "TASK_NOT_CANCELABLE",
                json!({"taskId": done, "state": "TASK_STATE_COMPLETED"}),
            )
            .to_string(),
        ),
    )
    .await;
    expect(
        server.addr,
        "POST",
        "/tasks/nope:cancel",
        None,
        StatusCode::NOT_FOUND,
        status_not_found("nope"),
    )
    .await;
}

#[tokio::test]
async fn streaming_message_frames_bare_stream_responses() {
    let server = start(service()).await;
    let response = send(
        server.addr,
        request(
            "POST",
            "/message:stream",
            Some(&send_body("ping")),
            &[
                ("a2a-version", "1.0"),
                ("content-type", "application/a2a+json"),
            ],
        ),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    assert_eq!(response.headers()["cache-control"], "no-cache");
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = std::str::from_utf8(&bytes).unwrap();
    // Four events, each `data: <StreamResponse>` then `id: <seq>`, no envelope.
    let frames: Vec<&str> = text.split_terminator("\n\n").collect();
    assert_eq!(frames.len(), 4, "{text}");
    let mut events = Vec::new();
    for (i, frame) in frames.iter().enumerate() {
        let (data, id) = frame.split_once('\n').unwrap();
        assert_eq!(id, format!("id: {}", i + 1));
        let mut event: Value = serde_json::from_str(data.strip_prefix("data: ").unwrap()).unwrap();
        normalize(&mut event);
        events.push(event);
    }
    assert_eq!(
        events,
        [
            json!({"task":{"id":"<uuid>","contextId":"<uuid>",
                "status":{"state":"TASK_STATE_SUBMITTED","timestamp":"<timestamp>"},
                "history":[{"messageId":"m-1","contextId":"<uuid>","taskId":"<uuid>","role":"ROLE_USER","parts":[{"text":"ping"}]}]}}),
            json!({"statusUpdate":{"taskId":"<uuid>","contextId":"<uuid>",
                "status":{"state":"TASK_STATE_WORKING","timestamp":"<timestamp>"}}}),
            json!({"artifactUpdate":{"taskId":"<uuid>","contextId":"<uuid>",
                "artifact":{"artifactId":"echo","parts":[{"text":"ping"}]}}}),
            json!({"statusUpdate":{"taskId":"<uuid>","contextId":"<uuid>",
                "status":{"state":COMPLETED_PING,"timestamp":"<timestamp>"}}}),
        ]
    );
    // A direct reply is one `message` event, without an id (it is not logged).
    let response = send(
        server.addr,
        request(
            "POST",
            "/message:stream",
            Some(&send_body("hello")),
            &[("a2a-version", "1.0")],
        ),
    )
    .await;
    let events = Events::new(response).collect().await;
    assert_eq!(events.len(), 1);
    let (id, mut data) = events.into_iter().next().unwrap();
    normalize(&mut data);
    assert_eq!(
        (id, data),
        (
            None,
            json!({"message":{"messageId":"<uuid>","contextId":"<uuid>","role":"ROLE_AGENT","parts":[{"text":"hi!"}]}})
        )
    );
}

#[tokio::test]
async fn subscribe_on_get_and_post_and_resume_with_last_event_id() {
    let gate = Arc::new(Semaphore::new(0));
    let server = start(service_with(gate.clone(), card(), Limits::default())).await;
    let mut first = Events::new(
        send(
            server.addr,
            request(
                "POST",
                "/message:stream",
                Some(&send_body("chunks 4")),
                &[("a2a-version", "1.0")],
            ),
        )
        .await,
    );
    let (_, task) = first.next().await.unwrap();
    let id = task["task"]["id"].as_str().unwrap().to_owned();
    let (seq, working) = first.next().await.unwrap();
    assert_eq!(seq.as_deref(), Some("2"));
    assert_eq!(
        working["statusUpdate"]["status"]["state"],
        "TASK_STATE_WORKING"
    );
    gate.add_permits(1);
    let (seq, _) = first.next().await.unwrap();
    assert_eq!(seq.as_deref(), Some("3"));
    // The client goes away after event 3.
    drop(first);

    // POST without Last-Event-ID: the current task first.
    let mut watching = Events::new(
        send(
            server.addr,
            request(
                "POST",
                &format!("/tasks/{id}:subscribe"),
                None,
                &[("a2a-version", "1.0")],
            ),
        )
        .await,
    );
    let (seq, mut current) = watching.next().await.unwrap();
    assert_eq!(seq.as_deref(), Some("3"));
    normalize(&mut current);
    assert_eq!(current["task"]["status"]["state"], "TASK_STATE_WORKING");
    assert_eq!(
        current["task"]["artifacts"],
        json!([{"artifactId":"chunks","parts":[{"text":"c0"}]}])
    );

    // GET with Last-Event-ID: 3 resumes right after event 3, losing nothing.
    gate.add_permits(3);
    let events = Events::new(
        send(
            server.addr,
            request(
                "GET",
                &format!("/tasks/{id}:subscribe"),
                None,
                &[("a2a-version", "1.0"), ("last-event-id", "3")],
            ),
        )
        .await,
    )
    .collect()
    .await;
    let seqs: Vec<&str> = events.iter().map(|(s, _)| s.as_deref().unwrap()).collect();
    assert_eq!(seqs, ["4", "5", "6", "7"]);
    let texts: Vec<&Value> = events[..3]
        .iter()
        .map(|(_, e)| &e["artifactUpdate"]["artifact"]["parts"][0]["text"])
        .collect();
    assert_eq!(texts, [&json!("c1"), &json!("c2"), &json!("c3")]);
    assert_eq!(
        events[3].1["statusUpdate"]["status"]["state"],
        COMPLETED_PING
    );
    let rest_of_watch = watching.collect().await;
    assert_eq!(rest_of_watch.len(), 4);

    // A terminal task has nothing to subscribe to: an error before any stream starts.
    expect(
        server.addr,
        "GET",
        &format!("/tasks/{id}:subscribe"),
        None,
        StatusCode::BAD_REQUEST,
        doc(
            400,
            "FAILED_PRECONDITION",
            &format!(
                "task {id} is TASK_STATE_COMPLETED (a terminal state); there is nothing to subscribe to"
            ),
            "UNSUPPORTED_OPERATION",
            json!({}),
        ),
    )
    .await;
    let (status, _, answer) = exchange(
        server.addr,
        request(
            "GET",
            &format!("/tasks/{id}:subscribe"),
            None,
            &[("a2a-version", "1.0"), ("last-event-id", "later")],
        ),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        normalized(&answer),
        doc(
            400,
            "INVALID_ARGUMENT",
            "invalid params: Last-Event-ID `later` is not an event id this server sent",
            "INVALID_PARAMS",
            json!({})
        )
    );
    expect(
        server.addr,
        "GET",
        "/tasks/gone:subscribe",
        None,
        StatusCode::NOT_FOUND,
        status_not_found("gone"),
    )
    .await;
}

#[tokio::test]
async fn push_notification_config_routes() {
    let server = start(service()).await;
    let id = new_task(server.addr, "/message:send", "ping").await;
    let configs = format!("/tasks/{id}/pushNotificationConfigs");
    let (status, answer) = rest_json(
        server.addr,
        "POST",
        &configs,
        Some(r#"{"id":"c-1","url":"https://hook.example/a2a","token":"secret","authentication":{"scheme":"Bearer","credentials":"xyz"}}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let config = json!({"id":"c-1","taskId":"<uuid>","url":"https://hook.example/a2a","token":"secret",
        "authentication":{"scheme":"Bearer","credentials":"xyz"}});
    assert_eq!(answer, config);
    let (status, answer) = rest_json(server.addr, "GET", &format!("{configs}/c-1"), None).await;
    assert_eq!((status, answer), (StatusCode::OK, config.clone()));
    let (status, answer) = rest_json(server.addr, "GET", &configs, None).await;
    assert_eq!(
        (status, answer),
        (StatusCode::OK, json!({"configs":[config]}))
    );
    // The body's taskId must agree with the path's.
    expect(
        server.addr,
        "POST",
        &configs,
        Some(r#"{"taskId":"other","url":"https://hook.example/a2a"}"#),
        StatusCode::BAD_REQUEST,
        invalid_param(
            &format!("invalid params: taskId is `other`, but the path names `{id}`"),
            "taskId",
            &format!("is `other`, but the path names `{id}`"),
        ),
    )
    .await;
    // Delete answers google.protobuf.Empty: `{}` with 200.
    let (status, headers, body) =
        rest(server.addr, "DELETE", &format!("{configs}/c-1"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "application/a2a+json");
    assert_eq!(body, "{}");
    // A second delete of the same config succeeds too: the operation is idempotent
    // (spec 1.0 §3.1.10).
    let (status, headers, body) =
        rest(server.addr, "DELETE", &format!("{configs}/c-1"), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(headers["content-type"], "application/a2a+json");
    assert_eq!(body, "{}");
    expect(
        server.addr,
        "GET",
        &format!("{configs}/c-1"),
        None,
        // A config that does not exist is TaskNotFoundError (spec 1.0 §3.1.8).
        StatusCode::NOT_FOUND,
        doc(
            404,
            "NOT_FOUND",
            &format!("task {id} has no push config `c-1`"),
            "TASK_NOT_FOUND",
            json!({"taskId": "<uuid>", "configId": "c-1"}),
        ),
    )
    .await;
    let (status, answer) = rest_json(
        server.addr,
        "GET",
        "/tasks/nope/pushNotificationConfigs",
        None,
    )
    .await;
    assert_eq!(
        (status, answer),
        (StatusCode::NOT_FOUND, status_not_found("nope"))
    );

    // An agent without push notifications.
    let plain = AgentCard::new("Plain", "No push", "1.0.0")
        .with_capabilities(AgentCapabilities::default().with_streaming(true));
    let server = start(serving(plain, Limits::default())).await;
    expect(
        server.addr,
        "POST",
        "/tasks/t/pushNotificationConfigs",
        Some(r#"{"url":"https://hook.example/a2a"}"#),
        StatusCode::BAD_REQUEST,
        doc(
            400,
            "FAILED_PRECONDITION",
            "push notifications are not supported by this agent",
            "PUSH_NOTIFICATION_NOT_SUPPORTED",
            json!({}),
        ),
    )
    .await;
}

#[tokio::test]
async fn extended_agent_card() {
    let server = start(service()).await;
    expect(
        server.addr,
        "GET",
        "/extendedAgentCard",
        None,
        StatusCode::BAD_REQUEST,
        doc(
            400,
            "FAILED_PRECONDITION",
            "this agent has no extended agent card (capabilities.extendedAgentCard is not true)",
            "UNSUPPORTED_OPERATION",
            json!({}),
        ),
    )
    .await;
    let declaring =
        card().with_capabilities(AgentCapabilities::default().with_extended_agent_card(true));
    let server = start(serving(declaring.clone(), Limits::default())).await;
    expect(
        server.addr,
        "GET",
        "/extendedAgentCard",
        None,
        StatusCode::BAD_REQUEST,
        doc(
            400,
            "FAILED_PRECONDITION",
            "the extended agent card is not configured",
            "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
            json!({}),
        ),
    )
    .await;
    let agent = agent_fn(|_, sink| async move {
        sink.complete(None).await?;
        Ok(())
    });
    let service = A2aService::builder(agent, declaring)
        .extended_card(AgentCard::new("Secret", "The full card", "1.0.0"))
        .build();
    let server = start(service).await;
    expect(
        server.addr,
        "GET",
        "/acme/extendedAgentCard",
        None,
        StatusCode::OK,
        json!({"name":"Secret","description":"The full card","supportedInterfaces":[],
            "version":"1.0.0","capabilities":{},"defaultInputModes":[],"defaultOutputModes":[],
            "skills":[]}),
    )
    .await;
}

#[tokio::test]
async fn errors_of_the_message_checks() {
    let required = card().with_capabilities(
        AgentCapabilities::default()
            .with_streaming(true)
            .with_extensions([AgentExtension::new("urn:req").with_required(true)]),
    );
    let server = start(serving(required, Limits::default())).await;
    expect(
        server.addr,
        "POST",
        "/message:send",
        Some(&send_body("extensions")),
        StatusCode::BAD_REQUEST,
        doc(
            400,
            "FAILED_PRECONDITION",
            "the agent requires extension urn:req; send it in the A2A-Extensions header",
            "EXTENSION_SUPPORT_REQUIRED",
            json!({"extension":"urn:req"}),
        ),
    )
    .await;
    // The header, or the query parameter: repeated, comma-separated, or both.
    let (status, _, answer) = exchange(
        server.addr,
        request(
            "POST",
            "/message:send",
            Some(&send_body("extensions")),
            &[("a2a-version", "1.0"), ("a2a-extensions", "urn:req")],
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (status, answer) = rest_json(
        server.addr,
        "POST",
        "/message:send?A2A-Extensions=urn%3Aa,urn:req&A2A-Extensions=urn:b",
        Some(&send_body("extensions")),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        answer["task"]["artifacts"][0]["parts"][0]["text"],
        "urn:a urn:req urn:b"
    );

    let server = start(service()).await;
    let png = r#"{"message":{"messageId":"m","role":"ROLE_USER",
        "parts":[{"url":"https://x/y.png","mediaType":"image/png"}]}}"#;
    expect(
        server.addr,
        "POST",
        "/message:send",
        Some(png),
        StatusCode::BAD_REQUEST,
        doc(
            400,
            "INVALID_ARGUMENT",
            "media type `image/png` is not supported; the agent accepts text/plain",
            "CONTENT_TYPE_NOT_SUPPORTED",
            json!({"mediaType":"image/png"}),
        ),
    )
    .await;
    expect(
        server.addr,
        "POST",
        "/message:send",
        Some(r#"{"message":{"messageId":"m","role":"ROLE_USER","parts":[]}}"#),
        StatusCode::BAD_REQUEST,
        doc(
            400,
            "INVALID_ARGUMENT",
            "invalid params: message.parts must hold at least one part",
            "INVALID_PARAMS",
            json!({}),
        ),
    )
    .await;
}

#[tokio::test]
async fn the_tenant_prefix() {
    let server = start(service()).await;
    let id = new_task(server.addr, "/acme/message:send", "ping").await;
    let (status, task) = rest_json(server.addr, "GET", &format!("/acme/tasks/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(task["status"]["state"], COMPLETED_PING);
    let (status, list) = rest_json(server.addr, "GET", "/acme/tasks?pageSize=10", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["totalSize"], 1);
    // Percent-encoded tenants, and the body's own field agreeing with the path.
    let body = json!({"tenant":"two words","message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]}})
        .to_string();
    let (status, _) = rest_json(
        server.addr,
        "POST",
        "/two%20words/message:send",
        Some(&body),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // A body naming another tenant than the path is refused.
    expect(
        server.addr,
        "POST",
        "/acme/message:send",
        Some(&body),
        StatusCode::BAD_REQUEST,
        invalid_param(
            "invalid params: tenant is `two words`, but the path names `acme`",
            "tenant",
            "is `two words`, but the path names `acme`",
        ),
    )
    .await;
    // Every route exists under the prefix.
    let (status, _) = rest_json(
        server.addr,
        "POST",
        &format!("/acme/tasks/{id}/pushNotificationConfigs"),
        Some(r#"{"id":"c","url":"https://hook.example/"}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    for (method, path) in [
        ("GET", format!("/acme/tasks/{id}/pushNotificationConfigs")),
        ("GET", format!("/acme/tasks/{id}/pushNotificationConfigs/c")),
        (
            "DELETE",
            format!("/acme/tasks/{id}/pushNotificationConfigs/c"),
        ),
    ] {
        let (status, _) = rest_json(server.addr, method, &path, None).await;
        assert_eq!(status, StatusCode::OK, "{method} {path}");
    }
    let (status, answer) = rest_json(
        server.addr,
        "POST",
        &format!("/acme/tasks/{id}:cancel"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        answer["error"]["details"][0]["reason"],
        "TASK_NOT_CANCELABLE"
    );
    let (status, answer) = rest_json(
        server.addr,
        "GET",
        &format!("/acme/tasks/{id}:subscribe"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        answer["error"]["details"][0]["reason"],
        "UNSUPPORTED_OPERATION"
    );
    let response = send(
        server.addr,
        request(
            "POST",
            "/acme/message:stream",
            Some(&send_body("hello")),
            &[("a2a-version", "1.0")],
        ),
    )
    .await;
    assert_eq!(Events::new(response).collect().await.len(), 1);
}

#[tokio::test]
async fn the_version_gate() {
    let server = start(service()).await;
    let body = send_body("ping");
    let (status, headers, answer) = exchange(
        server.addr,
        request("POST", "/message:send", Some(&body), &[]),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(headers["content-type"], "application/json");
    assert_eq!(
        normalized(&answer),
        doc(
            400,
            "FAILED_PRECONDITION",
            "a request without an A2A-Version header is taken as A2A 0.3, and this method is one of A2A 1.0; send the header `A2A-Version: 1.0`",
            "VERSION_NOT_SUPPORTED",
            json!({})
        )
    );
    let (status, _, answer) = exchange(
        server.addr,
        request("GET", "/tasks", None, &[("a2a-version", "2.0")]),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        normalized(&answer)["error"]["message"],
        "A2A version `2.0` is not supported; this endpoint serves 1.0 (send `A2A-Version: 1.0`)"
    );
    // Streams are gated before they start.
    let (status, _, answer) = exchange(
        server.addr,
        request("POST", "/message:stream", Some(&body), &[]),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        normalized(&answer)["error"]["details"][0]["reason"],
        "VERSION_NOT_SUPPORTED"
    );
    // Patch versions are ignored; the query parameter form works too.
    for (path, headers) in [
        ("/message:send", vec![("a2a-version", "1.0.1")]),
        ("/message:send?A2A-Version=1.0", vec![]),
    ] {
        let (status, _, answer) =
            exchange(server.addr, request("POST", path, Some(&body), &headers)).await;
        assert_eq!(status, StatusCode::OK, "{path}: {answer}");
    }
}

#[tokio::test]
async fn authentication_in_the_rest_shape() {
    let agent = agent_fn(|_, sink| async move {
        sink.complete(None).await?;
        Ok(())
    });
    let service = A2aService::builder(agent, card())
        .authenticator(|head: &http::request::Parts| {
            match head.headers.get("x-user").map(|v| v.to_str().unwrap()) {
                Some("mallory") => Err(AuthError::forbidden("not you")),
                Some(user) => Ok(Some(Principal::new(user))),
                None => Err(AuthError::unauthorized("who are you?", "X-User")),
            }
        })
        .build();
    let server = start(service).await;
    let (status, headers, answer) = rest(server.addr, "GET", "/tasks", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(headers["www-authenticate"], "X-User");
    assert_eq!(headers["content-type"], "application/json");
    assert_eq!(
        normalized(&answer),
        doc(
            401,
            "UNAUTHENTICATED",
            "unauthenticated: who are you?",
            "INVALID_REQUEST",
            json!({})
        )
    );
    let (status, _, answer) = exchange(
        server.addr,
        request(
            "GET",
            "/tasks",
            None,
            &[("a2a-version", "1.0"), ("x-user", "mallory")],
        ),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        normalized(&answer),
        doc(
            403,
            "PERMISSION_DENIED",
            "permission denied: not you",
            "INVALID_REQUEST",
            json!({})
        )
    );
    // Tasks belong to their creator.
    let (_, _, answer) = exchange(
        server.addr,
        request(
            "POST",
            "/message:send",
            Some(&send_body("x")),
            &[("a2a-version", "1.0"), ("x-user", "alice")],
        ),
    )
    .await;
    let id = serde_json::from_str::<Value>(&answer).unwrap()["task"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(id.len(), 36);
    let (status, _, answer) = exchange(
        server.addr,
        request(
            "GET",
            &format!("/tasks/{id}"),
            None,
            &[("a2a-version", "1.0"), ("x-user", "bob")],
        ),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(
        serde_json::from_str::<Value>(&answer).unwrap(),
        status_not_found(&id)
    );
}

#[tokio::test]
async fn unknown_paths_and_wrong_methods() {
    let server = start(service()).await;
    let (status, headers, answer) = rest(server.addr, "GET", "/nowhere/at/all", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(headers["content-type"], "application/json");
    assert_eq!(
        normalized(&answer),
        doc(
            404,
            "NOT_FOUND",
            "no A2A route is GET /nowhere/at/all; the HTTP+JSON routes are /message:send, /message:stream, /tasks, /tasks/{id}, /tasks/{id}:cancel, /tasks/{id}:subscribe, /tasks/{taskId}/pushNotificationConfigs[/{id}] and /extendedAgentCard, each also under /{tenant}",
            "METHOD_NOT_FOUND",
            json!({})
        )
    );
    let cases = [
        ("GET", "/message:send", "POST"),
        ("PUT", "/tasks/t-1", "GET"),
        ("DELETE", "/tasks/t-1:subscribe", "GET, POST"),
        (
            "POST",
            "/acme/tasks/t-1/pushNotificationConfigs/c",
            "GET, DELETE",
        ),
        ("DELETE", "/tasks/t-1/pushNotificationConfigs", "POST, GET"),
    ];
    for (method, path, allow) in cases {
        let (status, headers, answer) = rest(server.addr, method, path, None).await;
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
        assert_eq!(headers["allow"], allow, "{method} {path}");
        assert_eq!(
            normalized(&answer),
            doc(
                405,
                "INVALID_ARGUMENT",
                &format!(
                    "invalid request: {path} takes {}, not {method}",
                    allow.replace(", ", " or ")
                ),
                "INVALID_REQUEST",
                json!({})
            ),
            "{method} {path}"
        );
    }
}

#[tokio::test]
async fn bodies_over_the_limit_and_too_slow() {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let server = start(serving(
        card(),
        Limits::default()
            .with_max_body_bytes(64)
            .with_body_idle_timeout(Duration::from_millis(50)),
    ))
    .await;
    expect(
        server.addr,
        "POST",
        "/message:send",
        Some(&send_body(&"x".repeat(100))),
        StatusCode::PAYLOAD_TOO_LARGE,
        doc(
            413,
            "INVALID_ARGUMENT",
            "invalid request: the request body is larger than the limit of 64 bytes",
            "INVALID_REQUEST",
            json!({}),
        ),
    )
    .await;
    // A body that stalls half-way.
    let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(b"POST /message:send HTTP/1.1\r\nhost: t\r\na2a-version: 1.0\r\ncontent-length: 40\r\n\r\n{\"message\":")
        .await
        .unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while !answer.ends_with(b"}}") {
        match tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf)).await {
            Ok(Ok(0)) | Err(_) => break,
            Ok(Ok(n)) => answer.extend_from_slice(&buf[..n]),
            Ok(Err(e)) => panic!("{e}"),
        }
    }
    let answer = String::from_utf8(answer).unwrap();
    assert!(
        answer.starts_with("HTTP/1.1 408 Request Timeout\r\n"),
        "{answer}"
    );
    assert!(
        answer.contains("content-type: application/json\r\n"),
        "{answer}"
    );
    let body = &answer[answer.find("\r\n\r\n").unwrap() + 4..];
    assert_eq!(
        normalized(body),
        doc(
            408,
            "DEADLINE_EXCEEDED",
            "invalid request: the request body stalled: no data for 50 ms",
            "INVALID_REQUEST",
            json!({})
        )
    );
}

#[tokio::test]
async fn stream_limit_and_request_timeout() {
    let server = start(serving(
        card(),
        Limits::default()
            .with_max_streams(0)
            .with_request_timeout(Duration::from_millis(50)),
    ))
    .await;
    expect(
        server.addr,
        "POST",
        "/message:stream",
        Some(&send_body("ping")),
        StatusCode::SERVICE_UNAVAILABLE,
        doc(
            503,
            "UNAVAILABLE",
            "internal error: too many open streams (the limit is 0); try again later",
            "INTERNAL",
            json!({}),
        ),
    )
    .await;
    // Nothing started: no task exists.
    let (_, list) = rest_json(server.addr, "GET", "/tasks", None).await;
    assert_eq!(list["totalSize"], 0);
    expect(
        server.addr,
        "POST",
        "/message:send",
        Some(&send_body("wait")),
        StatusCode::GATEWAY_TIMEOUT,
        doc(
            504,
            "DEADLINE_EXCEEDED",
            "internal error: the call did not finish within 50 ms; a task it started goes on and \
             can be read with GET /tasks/{id}",
            "INTERNAL",
            json!({}),
        ),
    )
    .await;
}

#[tokio::test]
async fn bindings_can_be_switched_off() {
    let agent = || {
        agent_fn(|_, sink| async move {
            sink.complete(None).await?;
            Ok(())
        })
    };
    let card_of = |server: &common::TestServer| {
        let addr = server.addr;
        async move {
            let (status, _, body) = exchange(
                addr,
                request("GET", "/.well-known/agent-card.json", None, &[]),
            )
            .await;
            assert_eq!(status, StatusCode::OK);
            serde_json::from_str::<Value>(&body).unwrap()["supportedInterfaces"].clone()
        }
    };
    // Both (the default), with the URL derived from the request's host.
    let server = start(A2aService::builder(agent(), card()).build()).await;
    assert_eq!(
        card_of(&server).await,
        json!([{"url":"http://test/","protocolBinding":"JSONRPC","protocolVersion":"1.0"},
            {"url":"http://test","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"},
            {"url":"http://test/","protocolBinding":"JSONRPC","protocolVersion":"0.3"},
            {"url":"http://test","protocolBinding":"HTTP+JSON","protocolVersion":"0.3"},
            {"url":"http://test/","protocolBinding":"JSONRPC","protocolVersion":"0.1"}])
    );

    // REST only: the card still answers; `/` is no REST route.
    let server = start(
        A2aService::builder(agent(), card())
            .public_url("https://agent.example/a2a")
            .jsonrpc(false)
            .build(),
    )
    .await;
    assert_eq!(
        card_of(&server).await,
        json!([{"url":"https://agent.example/a2a","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"},
            {"url":"https://agent.example/a2a","protocolBinding":"HTTP+JSON","protocolVersion":"0.3"}])
    );
    let (status, _) = rest_json(server.addr, "POST", "/message:send", Some(&send_body("x"))).await;
    assert_eq!(status, StatusCode::OK);
    let (status, headers, answer) = exchange(
        server.addr,
        request(
            "POST",
            "/",
            Some(r#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t"}}"#),
            &[("a2a-version", "1.0")],
        ),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(headers["content-type"], "application/json");
    assert_eq!(
        normalized(&answer)["error"]["details"][0]["reason"],
        "METHOD_NOT_FOUND"
    );

    // JSON-RPC only: REST paths are not found, in the JSON-RPC shape.
    let server = start(
        A2aService::builder(agent(), card())
            .public_url("https://agent.example")
            .rest(false)
            .build(),
    )
    .await;
    assert_eq!(
        card_of(&server).await,
        json!([{"url":"https://agent.example/","protocolBinding":"JSONRPC","protocolVersion":"1.0"},
            {"url":"https://agent.example/","protocolBinding":"JSONRPC","protocolVersion":"0.3"},
            {"url":"https://agent.example/","protocolBinding":"JSONRPC","protocolVersion":"0.1"}])
    );
    let (status, headers, answer) = rest(server.addr, "GET", "/tasks", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(headers["content-type"], "application/json");
    assert_eq!(
        answer,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"method not found: no A2A endpoint at /tasks"}}"#
    );
}

mod no_panic {
    use super::*;
    use proptest::prelude::*;

    fn segment() -> impl Strategy<Value = String> {
        prop_oneof![
            Just(String::new()),
            Just("tasks".to_owned()),
            Just("message:send".to_owned()),
            Just("message:stream".to_owned()),
            Just("extendedAgentCard".to_owned()),
            Just("pushNotificationConfigs".to_owned()),
            Just("t-1:cancel".to_owned()),
            Just("t-1:subscribe".to_owned()),
            Just(":cancel".to_owned()),
            Just("%FF%FE".to_owned()),
            Just("%2F".to_owned()),
            Just("%".to_owned()),
            "[a-zA-Z0-9%:._~-]{0,10}",
        ]
    }

    fn query() -> impl Strategy<Value = String> {
        let name = prop_oneof![
            Just("pageSize"),
            Just("page_size"),
            Just("status"),
            Just("historyLength"),
            Just("statusTimestampAfter"),
            Just("includeArtifacts"),
            Just("contextId"),
            Just("pageToken"),
            Just("tenant"),
            Just("A2A-Extensions"),
            Just("A2A-Version"),
            Just("x"),
        ];
        let value = "[a-zA-Z0-9%+:,._ -]{0,16}".prop_map(|v| v.replace(' ', "%20"));
        proptest::collection::vec((name, value), 0..5).prop_map(|pairs| {
            pairs
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join("&")
        })
    }

    fn body() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..48),
            Just(Vec::new()),
            Just(b"{}".to_vec()),
            Just(send_body("hello").into_bytes()),
            Just(br#"{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"ping"}]},"configuration":{"historyLength":-1}}"#.to_vec()),
            Just(br#"{"url":"https://hook","taskId":"t","tenant":"a"}"#.to_vec()),
            Just(br#"{"id":7,"metadata":[]}"#.to_vec()),
            "\\{\"[a-zA-Z]{1,8}\":[0-9a-z\"\\[\\]{}]{0,12}\\}".prop_map(String::into_bytes),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Whatever the path, query and body: an answer, never a panic; every error is a
        /// `google.rpc.Status` document with an ErrorInfo.
        #[test]
        fn the_rest_binding_answers_anything(
            method in prop_oneof![Just("GET"), Just("POST"), Just("DELETE"), Just("PUT")],
            segments in proptest::collection::vec(segment(), 1..5),
            query in query(),
            body in body(),
            versioned in any::<bool>(),
            content_type in prop_oneof![Just(None), Just(Some("application/a2a+json")), Just(Some("text/plain"))],
        ) {
            let path = format!("/{}", segments.join("/"));
            let uri = if query.is_empty() { path.clone() } else { format!("{path}?{query}") };
            let mut builder = http::Request::builder().method(method).uri(&uri).header("host", "t");
            if versioned {
                builder = builder.header("a2a-version", "1.0");
            }
            if let Some(content_type) = content_type {
                builder = builder.header("content-type", content_type);
            }
            let Ok(request) = builder.body(Full::new(Bytes::from(body))) else {
                return Err(TestCaseError::reject("not a valid URI"));
            };
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            let (status, content_type, bytes) = runtime.block_on(async move {
                let response = service().handle(request).await;
                let status = response.status();
                let content_type = response.headers().get("content-type").cloned();
                let collected = tokio::time::timeout(
                    Duration::from_secs(5),
                    response.into_body().collect(),
                )
                .await
                .expect("the answer ends")
                .unwrap()
                .to_bytes();
                (status, content_type, collected)
            });
            if status.is_client_error() || status.is_server_error() {
                let document: Value = serde_json::from_slice(&bytes).expect("errors are JSON");
                let error = &document["error"];
                // `POST /` is the JSON-RPC endpoint, which answers in its own shape.
                if document.get("jsonrpc").is_none() {
                    prop_assert_eq!(content_type.unwrap(), "application/json");
                    prop_assert_eq!(&error["code"], &json!(status.as_u16()));
                    prop_assert_eq!(
                        &error["details"][0]["@type"],
                        &json!("type.googleapis.com/google.rpc.ErrorInfo")
                    );
                }
            }
        }
    }
}

#[tokio::test]
async fn tasks_are_scoped_to_their_tenant() {
    let server = start(service()).await;
    let id = new_task(server.addr, "/acme/message:send", "ping").await;
    // Another tenant, or none (the default tenant is a scope of its own), sees nothing.
    for path in [format!("/beta/tasks/{id}"), format!("/tasks/{id}")] {
        expect_not_found(server.addr, "GET", &path, &id).await;
    }
    let (_, list) = rest_json(server.addr, "GET", "/beta/tasks", None).await;
    assert_eq!(list["totalSize"], 0);
    let (_, list) = rest_json(server.addr, "GET", "/acme/tasks", None).await;
    assert_eq!(list["totalSize"], 1);
    let (status, _) = rest_json(server.addr, "GET", &format!("/acme/tasks/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    expect_not_found(
        server.addr,
        "POST",
        &format!("/beta/tasks/{id}:cancel"),
        &id,
    )
    .await;
}

/// Asserts a 404 TASK_NOT_FOUND for `id`, with the id as generated (not normalized).
async fn expect_not_found(addr: std::net::SocketAddr, method: &str, path: &str, id: &str) {
    let (status, _, text) = rest(addr, method, path, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{method} {path}");
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        status_not_found(id),
        "{method} {path}"
    );
}
