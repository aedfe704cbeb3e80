//! Scopes per skill over real sockets: the skill a message names in its metadata (`skillId`)
//! is checked against the card skill's `securityRequirements` and the configured
//! `SkillScopes`; a caller that may not run it is refused (JSON-RPC: the call's error with its
//! id; HTTP+JSON: 403; streaming too) and no task is created.

mod common;

use std::sync::Arc;

use a2a_server::A2aService;
use a2a_server::auth::{AuthError, Principal, SkillScopes};
use a2a_types::v1::{AgentCapabilities, AgentCard, AgentSkill, SecurityRequirement};
use bytes::Bytes;
use common::{rpc_with, send, start};
use http::StatusCode;
use http_body_util::{BodyExt as _, Full};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

/// `deploy:run` and `audit`.
const OPERATOR: &str = "k-operator";
/// No scopes.
const GUEST: &str = "k-guest";

fn card() -> AgentCard {
    AgentCard::new("Skilled", "An agent with guarded skills", "1.0.0")
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"])
        .with_skills([
            AgentSkill::new("echo", "Echo", "Repeats", ["echo"]),
            AgentSkill::new("deploy", "Deploy", "Ships", ["ops"]).with_security_requirements([
                SecurityRequirement::new().with_scheme("key", ["deploy:run"]),
            ]),
        ])
}

fn service() -> A2aService {
    // API keys, and anonymous callers let through (the skill check refuses them).
    let keys =
        |head: &http::request::Parts| match head.headers.get("x-api-key").map(|v| v.as_bytes()) {
            Some(b"k-operator") => Ok(Some(
                Principal::new("operator").with_scopes(["deploy:run", "audit"]),
            )),
            Some(b"k-guest") => Ok(Some(Principal::new("guest"))),
            Some(_) => Err(AuthError::forbidden("unknown API key")),
            None => Ok(None),
        };
    A2aService::builder(
        common::scripted_agent(Arc::new(Semaphore::new(1000))),
        card(),
    )
    .public_url("http://127.0.0.1:7421")
    .authenticator(keys)
    .skill_scopes(SkillScopes::new().require("deploy", ["audit"]))
    .build()
}

fn message(id: &str, skill: &str) -> Value {
    json!({"messageId": id, "role": "ROLE_USER", "parts": [{"text": "go"}],
           "metadata": {"skillId": skill}})
}

/// A JSON-RPC 1.0 call, as `key` when given; the status and the answer.
async fn call(
    addr: std::net::SocketAddr,
    key: Option<&str>,
    method: &str,
    params: Value,
) -> (StatusCode, Value) {
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params}).to_string();
    let mut headers = vec![("A2A-Version", "1.0")];
    if let Some(key) = key {
        headers.push(("X-API-Key", key));
    }
    let (status, _, text) = rpc_with(addr, &body, &headers).await;
    (
        status,
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")),
    )
}

/// An HTTP+JSON 1.0 POST as `key`; the status and the body.
async fn rest(
    addr: std::net::SocketAddr,
    key: &str,
    path: &str,
    body: Value,
) -> (StatusCode, Value) {
    let request = http::Request::builder()
        .method("POST")
        .uri(path)
        .header("host", "test")
        .header("a2a-version", "1.0")
        .header("x-api-key", key)
        .header("content-type", "application/a2a+json")
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap();
    let (head, body) = send(addr, request).await.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    (
        head.status,
        serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{e}: {bytes:?}")),
    )
}

/// The ids of the tasks `key` sees.
async fn tasks_of(addr: std::net::SocketAddr, key: &str) -> Vec<String> {
    let (_, answer) = call(addr, Some(key), "ListTasks", json!({})).await;
    answer["result"]["tasks"]
        .as_array()
        .unwrap_or_else(|| panic!("{answer}"))
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_skill_the_caller_may_not_run_is_refused_in_every_http_shape() {
    let server = start(service()).await;
    let addr = server.addr;

    // JSON-RPC SendMessage: the error of the call, with its id.
    let (status, answer) = call(
        addr,
        Some(GUEST),
        "SendMessage",
        json!({"message": message("m-1", "deploy")}),
    )
    .await;
    assert_eq!(
        (status, answer),
        (
            StatusCode::OK,
            json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32600,
                "message": "permission denied: the skill `deploy` needs the scope `audit`"}})
        )
    );
    // Streaming over JSON-RPC: refused before the stream starts, the same error.
    let (status, answer) = call(
        addr,
        Some(GUEST),
        "SendStreamingMessage",
        json!({"message": message("m-2", "deploy")}),
    )
    .await;
    assert_eq!(
        (status, answer),
        (
            StatusCode::OK,
            json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32600,
                "message": "permission denied: the skill `deploy` needs the scope `audit`"}})
        )
    );
    // No credentials at all: 401 for a skill that needs some (the skill named in the request's
    // metadata this time).
    let (status, answer) = call(
        addr,
        None,
        "SendMessage",
        json!({"message": {"messageId": "m-3", "role": "ROLE_USER", "parts": [{"text": "go"}]},
               "metadata": {"skillId": "deploy"}}),
    )
    .await;
    assert_eq!(
        (status, answer),
        (
            StatusCode::OK,
            json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32600,
                "message": "unauthenticated: the skill `deploy` needs credentials, and the call has none"}})
        )
    );

    // HTTP+JSON: 403 with a google.rpc.Status.
    let (status, answer) = rest(
        addr,
        GUEST,
        "/message:send",
        json!({"message": message("m-4", "deploy")}),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        answer["error"],
        json!({"code": 403, "status": "PERMISSION_DENIED",
            "message": "permission denied: the skill `deploy` needs the scope `audit`",
            "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "INVALID_REQUEST", "domain": "a2a-protocol.org"}]})
    );
    let (status, _) = rest(
        addr,
        GUEST,
        "/message:stream",
        json!({"message": message("m-5", "deploy")}),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    // None of that created a task.
    assert_eq!(tasks_of(addr, GUEST).await, Vec::<String>::new());

    // The guest may run the open skill, and messages that name none.
    let (_, answer) = call(
        addr,
        Some(GUEST),
        "SendMessage",
        json!({"message": message("m-6", "echo")}),
    )
    .await;
    assert_eq!(
        answer["result"]["task"]["status"]["state"], "TASK_STATE_COMPLETED",
        "{answer}"
    );
    assert_eq!(tasks_of(addr, GUEST).await.len(), 1);

    // The operator holds both the card's scope and the configured one.
    let (status, answer) = rest(
        addr,
        OPERATOR,
        "/message:send",
        json!({"message": message("m-7", "deploy")}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(
        answer["task"]["status"]["state"], "TASK_STATE_COMPLETED",
        "{answer}"
    );
}
