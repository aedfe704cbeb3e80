//! Inbound authentication over real sockets: the leak matrix (principal A cannot see, cancel,
//! subscribe to, list, continue or read the push configs of principal B's tasks, over JSON-RPC
//! and HTTP+JSON), scopes per operation, the extended card per principal, and the refusals
//! with their `WWW-Authenticate` challenges.

mod common;

use std::sync::Arc;

use a2a_server::A2aService;
use a2a_server::auth::{ApiKeyAuthenticator, ApiKeyLocation, OperationScopes, Principal};
use a2a_server::push::PushSettings;
use a2a_types::v1::{AgentCapabilities, AgentCard};
use bytes::Bytes;
use common::{rpc_with, send, start};
use http::{HeaderMap, StatusCode};
use http_body_util::{BodyExt as _, Full};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

const ALICE: &str = "k-alice";
const BOB: &str = "k-bob";
/// Only `tasks:read`.
const READER: &str = "k-reader";

fn card() -> AgentCard {
    AgentCard::new("Guarded", "An agent with callers", "1.0.0")
        .with_capabilities(
            AgentCapabilities::default()
                .with_streaming(true)
                .with_push_notifications(true)
                .with_extended_agent_card(true),
        )
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"])
}

fn service(scopes: OperationScopes) -> A2aService {
    let keys = ApiKeyAuthenticator::new(ApiKeyLocation::Header, "X-API-Key")
        .key(
            ALICE,
            Principal::new("alice").with_scopes(["tasks:read", "tasks:write"]),
        )
        .key(
            BOB,
            Principal::new("bob").with_scopes(["tasks:read", "tasks:write"]),
        )
        .key(READER, Principal::new("reader").with_scopes(["tasks:read"]));
    A2aService::builder(
        common::scripted_agent(Arc::new(Semaphore::new(1000))),
        card(),
    )
    .public_url("http://127.0.0.1:7420")
    .push(PushSettings::default().allow("127.0.0.1/32".parse().unwrap()))
    .authenticator(keys)
    .scopes(scopes)
    .extended_card_for(|principal| {
        (principal.subject() != "reader").then(|| {
            let mut card = card();
            card.description = format!("The card for {}", principal.subject());
            card
        })
    })
    .build()
}

/// A JSON-RPC 1.0 call as `key`; the status and the answer (normalized).
async fn call(
    addr: std::net::SocketAddr,
    key: &str,
    method: &str,
    params: Value,
) -> (StatusCode, Value) {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string();
    let (status, _, text) =
        rpc_with(addr, &body, &[("A2A-Version", "1.0"), ("X-API-Key", key)]).await;
    (status, parse(&text))
}

/// An HTTP+JSON 1.0 call as `key`; the status, the headers and the body text.
async fn rest(
    addr: std::net::SocketAddr,
    key: Option<&str>,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, HeaderMap, String) {
    let mut builder = http::Request::builder()
        .method(method)
        .uri(path)
        .header("host", "test")
        .header("a2a-version", "1.0");
    if let Some(key) = key {
        builder = builder.header("x-api-key", key);
    }
    if body.is_some() {
        builder = builder.header("content-type", "application/a2a+json");
    }
    let request = builder
        .body(Full::new(Bytes::from(
            body.map(|b| b.to_string()).unwrap_or_default(),
        )))
        .unwrap();
    let (head, body) = send(addr, request).await.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    (
        head.status,
        head.headers,
        String::from_utf8(bytes.to_vec()).unwrap(),
    )
}

/// The body as JSON, ids and all (the task ids are compared literally).
fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn not_found_rpc(task: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "error": {
        "code": -32001,
        "message": format!("task {task} not found"),
        "data": [{
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": "TASK_NOT_FOUND",
            "domain": "a2a-protocol.org",
            "metadata": {"taskId": task}
        }]
    }})
}

fn not_found_rest(task: &str) -> Value {
    json!({"error": {
        "code": 404,
        "status": "NOT_FOUND",
        "message": format!("task {task} not found"),
        "details": [{
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": "TASK_NOT_FOUND",
            "domain": "a2a-protocol.org",
            "metadata": {"taskId": task}
        }]
    }})
}

/// Bob's task, left working (the agent waits to be cancelled), with one push config.
async fn bobs_task(addr: std::net::SocketAddr) -> (String, String) {
    let (status, answer) = call(
        addr,
        BOB,
        "SendMessage",
        json!({
            "message": {"messageId": "m-b", "role": "ROLE_USER", "parts": [{"text": "wait"}]},
            "configuration": {"returnImmediately": true}
        }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let task = answer["result"]["task"]["id"].as_str().unwrap().to_owned();
    let (_, answer) = call(
        addr,
        BOB,
        "CreateTaskPushNotificationConfig",
        json!({
            "taskId": task, "id": "c-1", "url": "http://127.0.0.1:9/hook"
        }),
    )
    .await;
    assert_eq!(answer["result"]["id"], "c-1", "{answer}");
    (task, "c-1".to_owned())
}

#[tokio::test]
async fn alice_cannot_reach_bobs_tasks_over_json_rpc() {
    let server = start(service(OperationScopes::new())).await;
    let addr = server.addr;
    let (task, config) = bobs_task(addr).await;
    let probes = [
        ("GetTask", json!({"id": task})),
        ("CancelTask", json!({"id": task})),
        (
            "GetTaskPushNotificationConfig",
            json!({"taskId": task, "id": config}),
        ),
        ("ListTaskPushNotificationConfigs", json!({"taskId": task})),
        (
            "DeleteTaskPushNotificationConfig",
            json!({"taskId": task, "id": config}),
        ),
        (
            "CreateTaskPushNotificationConfig",
            json!({"taskId": task, "url": "http://127.0.0.1:9/x"}),
        ),
        (
            "SendMessage",
            json!({"message": {"messageId": "m-a", "role": "ROLE_USER",
            "taskId": task, "parts": [{"text": "hi"}]}}),
        ),
    ];
    for (method, params) in probes {
        let answer = call(addr, ALICE, method, params).await;
        assert_eq!(answer, (StatusCode::OK, not_found_rpc(&task)), "{method}");
    }
    // Streams: the error as the one answer.
    for (method, params) in [
        ("SubscribeToTask", json!({"id": task})),
        (
            "SendStreamingMessage",
            json!({"message": {"messageId": "m-a", "role": "ROLE_USER",
            "taskId": task, "parts": [{"text": "hi"}]}}),
        ),
    ] {
        let body =
            json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string();
        let (status, _, text) =
            rpc_with(addr, &body, &[("A2A-Version", "1.0"), ("X-API-Key", ALICE)]).await;
        let text = text
            .trim()
            .strip_prefix("data:")
            .unwrap_or(&text)
            .trim()
            .to_owned();
        assert_eq!(
            (status, parse(&text)),
            (StatusCode::OK, not_found_rpc(&task)),
            "{method}"
        );
    }
    // ListTasks: only one's own.
    let (_, mine) = call(addr, ALICE, "ListTasks", json!({})).await;
    assert_eq!(
        mine,
        json!({"jsonrpc": "2.0", "id": 1, "result": {"tasks": [], "nextPageToken": "", "pageSize": 50, "totalSize": 0}})
    );
    // Bob's task is as he left it: working, its config still there.
    let (_, his) = call(addr, BOB, "GetTask", json!({"id": task})).await;
    assert_eq!(his["result"]["status"]["state"], "TASK_STATE_WORKING");
    let (_, configs) = call(
        addr,
        BOB,
        "ListTaskPushNotificationConfigs",
        json!({"taskId": task}),
    )
    .await;
    assert_eq!(configs["result"]["configs"][0]["id"], "c-1", "{configs}");
    let (_, theirs) = call(addr, BOB, "ListTasks", json!({})).await;
    assert_eq!(theirs["result"]["totalSize"], 1);
}

#[tokio::test]
async fn alice_cannot_reach_bobs_tasks_over_rest() {
    let server = start(service(OperationScopes::new())).await;
    let addr = server.addr;
    let (task, config) = bobs_task(addr).await;
    let configs = format!("/tasks/{task}/pushNotificationConfigs");
    let probes = [
        ("GET", format!("/tasks/{task}"), None),
        ("POST", format!("/tasks/{task}:cancel"), Some(json!({}))),
        ("GET", format!("{configs}/{config}"), None),
        ("GET", configs.clone(), None),
        ("DELETE", format!("{configs}/{config}"), None),
        (
            "POST",
            configs.clone(),
            Some(json!({"url": "http://127.0.0.1:9/x"})),
        ),
        (
            "POST",
            "/message:send".to_owned(),
            Some(json!({"message": {"messageId": "m-a",
            "role": "ROLE_USER", "taskId": task, "parts": [{"text": "hi"}]}})),
        ),
    ];
    for (method, path, body) in probes {
        let (status, _, text) = rest(addr, Some(ALICE), method, &path, body).await;
        assert_eq!(
            (status, parse(&text)),
            (StatusCode::NOT_FOUND, not_found_rest(&task)),
            "{method} {path}"
        );
    }
    let (status, _, text) = rest(
        addr,
        Some(ALICE),
        "GET",
        &format!("/tasks/{task}:subscribe"),
        None,
    )
    .await;
    assert_eq!(
        (status, parse(&text)),
        (StatusCode::NOT_FOUND, not_found_rest(&task)),
        "subscribe"
    );
    let (status, _, text) = rest(addr, Some(ALICE), "GET", "/tasks", None).await;
    assert_eq!(
        (status, parse(&text)),
        (
            StatusCode::OK,
            json!({"tasks": [], "nextPageToken": "", "pageSize": 50, "totalSize": 0})
        )
    );
    let (status, _, text) = rest(addr, Some(BOB), "GET", &format!("/tasks/{task}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(parse(&text)["status"]["state"], "TASK_STATE_WORKING");
}

#[tokio::test]
async fn refusals_carry_their_challenge_in_every_shape() {
    let server = start(service(OperationScopes::new())).await;
    let addr = server.addr;
    // No key: 401 with the challenge, JSON-RPC shape.
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}"#;
    let (status, headers, text) = rpc_with(addr, body, &[("A2A-Version", "1.0")]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        headers["www-authenticate"],
        r#"ApiKey in="header", name="X-API-Key""#
    );
    assert_eq!(
        parse(&text),
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600,
            "message": "unauthenticated: the API key `X-API-Key` is required"}})
    );
    // A wrong key: 401, REST shape.
    let (status, headers, text) = rest(addr, Some("k-mallory"), "GET", "/tasks", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        headers["www-authenticate"],
        r#"ApiKey in="header", name="X-API-Key""#
    );
    assert_eq!(
        parse(&text),
        json!({"error": {"code": 401, "status": "UNAUTHENTICATED",
            "message": "unauthenticated: the API key `X-API-Key` is not valid",
            "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "INVALID_REQUEST", "domain": "a2a-protocol.org"}]}})
    );
}

#[tokio::test]
async fn scopes_per_operation() {
    let server = start(service(OperationScopes::read_write(
        "tasks:read",
        "tasks:write",
    )))
    .await;
    let addr = server.addr;
    let (task, _) = bobs_task(addr).await;
    // The reader reads (its own tasks: none) ...
    let (status, _) = call(addr, READER, "ListTasks", json!({})).await;
    assert_eq!(status, StatusCode::OK);
    // ... and may not write: refused in both shapes (JSON-RPC: HTTP 200, as every error of a
    // call, since the call was read; HTTP+JSON: 403).
    let (status, answer) = call(
        addr,
        READER,
        "SendMessage",
        json!({
            "message": {"messageId": "m-r", "role": "ROLE_USER", "parts": [{"text": "x"}]}
        }),
    )
    .await;
    assert_eq!(
        (status, answer),
        (
            StatusCode::OK,
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32600,
            "message": "permission denied: SendMessage needs the scope `tasks:write`"}})
        )
    );
    let (status, _, text) = rest(
        addr,
        Some(READER),
        "POST",
        &format!("/tasks/{task}:cancel"),
        Some(json!({})),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        parse(&text)["error"]["message"],
        "permission denied: CancelTask needs the scope `tasks:write`"
    );
}

#[tokio::test]
async fn the_extended_card_is_per_principal_and_needs_one() {
    let server = start(service(OperationScopes::new())).await;
    let addr = server.addr;
    let (status, answer) = call(addr, ALICE, "GetExtendedAgentCard", json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer["result"]["description"], "The card for alice");
    let (_, answer) = call(addr, BOB, "GetExtendedAgentCard", json!({})).await;
    assert_eq!(answer["result"]["description"], "The card for bob");
    let (_, answer) = call(addr, READER, "GetExtendedAgentCard", json!({})).await;
    assert_eq!(answer["error"]["code"], -32007, "{answer}");
    let (status, headers, _) = rest(addr, None, "GET", "/extendedAgentCard", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(headers.contains_key("www-authenticate"));
}
