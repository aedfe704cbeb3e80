//! A2A 0.3 HTTP+JSON under `/v1/...`, over real sockets: bodies as the SDKs' 0.3 REST clients
//! send them (the ProtoJSON of the 0.3 proto), literal 0.3 answers.

mod common;

use std::sync::Arc;

use a2a_server::A2aService;
use a2a_server::agent::agent_fn;
use a2a_types::v1::{AgentCapabilities, AgentCard, AgentSkill, Artifact, Part};
use bytes::Bytes;
use common::{Events, normalize, scripted_agent, send, start};
use http::StatusCode;
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
        .with_default_input_modes([
            "text/plain",
            "image/png",
            "application/pdf",
            "application/json",
        ])
        .with_default_output_modes(["text/plain"])
        .with_skills([AgentSkill::new("echo", "Echo", "Echoes", ["echo"])])
}

fn service() -> A2aService {
    A2aService::builder(scripted_agent(Arc::new(Semaphore::new(100))), card())
        .public_url("http://127.0.0.1:7420")
        // Push delivery on: the card declares push notifications, push configs are taken.
        .push(a2a_server::push::PushSettings::default())
        .build()
}

async fn exchange(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &[(&str, &str)],
) -> (StatusCode, String, Value) {
    let mut request = http::Request::builder()
        .method(method)
        .uri(path)
        .header("host", "test");
    if body.is_some() {
        request = request.header("content-type", "application/json");
    }
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    let request = request
        .body(Full::new(Bytes::from(body.unwrap_or("").to_owned())))
        .unwrap();
    let response = send(addr, request).await;
    let status = response.status();
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let mut value: Value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&bytes)));
    normalize(&mut value);
    (status, content_type, value)
}

/// The id of the task an answer carries (`{"task": {"id"}}` or the task itself), unnormalized.
async fn new_task(addr: std::net::SocketAddr, text: &str) -> String {
    let body = format!(
        r#"{{"message":{{"messageId":"m-1","role":"ROLE_USER","content":[{{"text":"{text}"}}]}},"configuration":{{"blocking":true}}}}"#
    );
    let request = http::Request::post("/v1/message:send")
        .header("host", "test")
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body)))
        .unwrap();
    let bytes = send(addr, request)
        .await
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes();
    let value: Value = serde_json::from_slice(&bytes).unwrap();
    value["task"]["id"].as_str().unwrap().to_owned()
}

/// `POST /v1/message:send` as the Python SDK's 0.3 REST client sends it: the task in the 0.3
/// proto's shape (`content`, no `kind`).
#[tokio::test]
async fn message_send() {
    let server = start(service()).await;
    let body = r#"{"message":{"messageId":"m-1","role":"ROLE_USER","content":[{"text":"ping"}],"metadata":{}},"configuration":{"acceptedOutputModes":["text/plain"],"blocking":true}}"#;
    let (status, content_type, answer) =
        exchange(server.addr, "POST", "/v1/message:send", Some(body), &[]).await;
    assert_eq!(
        (status, content_type.as_str()),
        (StatusCode::OK, "application/json")
    );
    assert_eq!(
        answer,
        json!({"task": {
            "id": "<uuid>",
            "contextId": "<uuid>",
            "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "<timestamp>"},
            "artifacts": [{"artifactId": "echo", "parts": [{"text": "ping"}]}],
            "history": [{"messageId": "m-1", "contextId": "<uuid>", "taskId": "<uuid>", "role": "ROLE_USER",
                "content": [{"text": "ping"}], "metadata": {}}]
        }})
    );
    // A direct reply is `{"message": ...}`.
    let body = r#"{"message":{"messageId":"m-2","role":"ROLE_USER","content":[{"text":"hello"}]}}"#;
    let (_, _, answer) = exchange(server.addr, "POST", "/v1/message:send", Some(body), &[]).await;
    assert_eq!(
        answer,
        json!({"message": {"messageId": "<uuid>", "contextId": "<uuid>", "role": "ROLE_AGENT", "content": [{"text": "hi!"}]}})
    );
}

/// Files and data in the 0.3 shapes reach the agent as 1.0 parts and come back in 0.3's.
#[tokio::test]
async fn file_and_data_parts() {
    // The agent echoes the parts, and writes them as it got them (1.0 JSON) in a second
    // artifact.
    let agent = agent_fn(|ctx, sink| async move {
        let parts = ctx.message.parts.clone();
        let seen = serde_json::to_string(&parts).unwrap();
        sink.artifact(Artifact::new("parts", parts)).await?;
        sink.artifact(Artifact::new("seen", vec![Part::text(seen)]))
            .await?;
        sink.complete(None).await?;
        Ok(())
    });
    let server = start(A2aService::builder(agent, card()).build()).await;
    let content = json!([
        {"text": "see"},
        {"file": {"fileWithUri": "https://example.com/a.pdf", "mimeType": "application/pdf"}},
        {"file": {"fileWithBytes": "iVBORw0KGgo=", "mimeType": "image/png"}},
        {"data": {"data": {"k": 1, "list": [1, "two"]}}}
    ]);
    let body = json!({"message": {"messageId": "m-1", "role": "ROLE_USER", "content": content}, "configuration": {"blocking": true}});
    let (status, _, answer) = exchange(
        server.addr,
        "POST",
        "/v1/message:send",
        Some(&body.to_string()),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["task"]["artifacts"][0]["parts"], content);
    let seen: Value = serde_json::from_str(
        answer["task"]["artifacts"][1]["parts"][0]["text"]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        seen,
        json!([
            {"text": "see"},
            {"url": "https://example.com/a.pdf", "mediaType": "application/pdf"},
            {"raw": "iVBORw0KGgo=", "mediaType": "image/png"},
            {"data": {"k": 1, "list": [1, "two"]}}
        ])
    );
}

/// `GET /v1/tasks/{id}` (`historyLength` 0 means no limit in 0.3), `POST .../{id}:cancel`
/// (`TASK_STATE_CANCELLED`).
#[tokio::test]
async fn get_and_cancel() {
    let server = start(service()).await;
    let id = new_task(server.addr, "ask").await;
    let (status, _, task) = exchange(
        server.addr,
        "GET",
        &format!("/v1/tasks/{id}?historyLength=1"),
        None,
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        task,
        json!({
            "id": "<uuid>",
            "contextId": "<uuid>",
            "status": {
                "state": "TASK_STATE_INPUT_REQUIRED",
                "message": {"messageId": "<uuid>", "contextId": "<uuid>", "taskId": "<uuid>", "role": "ROLE_AGENT", "content": [{"text": "which city?"}]},
                "timestamp": "<timestamp>"
            },
            "history": [{"messageId": "<uuid>", "contextId": "<uuid>", "taskId": "<uuid>", "role": "ROLE_AGENT", "content": [{"text": "which city?"}]}]
        })
    );
    let (_, _, all) = exchange(
        server.addr,
        "GET",
        &format!("/v1/tasks/{id}?historyLength=0"),
        None,
        &[],
    )
    .await;
    assert_eq!(all["history"].as_array().unwrap().len(), 2);
    let (status, _, canceled) = exchange(
        server.addr,
        "POST",
        &format!("/v1/tasks/{id}:cancel"),
        Some("{}"),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(canceled["status"]["state"], "TASK_STATE_CANCELLED");
}

/// `POST /v1/message:stream` and `GET /v1/tasks/{id}:subscribe`: SSE of bare 0.3
/// `StreamResponse`s, status updates with `final` when it is true.
#[tokio::test]
async fn streams() {
    let server = start(service()).await;
    let body =
        r#"{"message":{"messageId":"m-1","role":"ROLE_USER","content":[{"text":"chunks 2"}]}}"#;
    let request = http::Request::post("/v1/message:stream")
        .header("host", "test")
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body)))
        .unwrap();
    let mut data: Vec<Value> = Events::new(send(server.addr, request).await)
        .collect()
        .await
        .into_iter()
        .map(|(_, d)| d)
        .collect();
    data.iter_mut().for_each(normalize);
    let chunk = |text: &str, more: Value| {
        let mut update = json!({"taskId": "<uuid>", "contextId": "<uuid>",
            "artifact": {"artifactId": "chunks", "parts": [{"text": text}]}});
        if let Value::Object(more) = more {
            update.as_object_mut().unwrap().extend(more);
        }
        json!({"artifactUpdate": update})
    };
    assert_eq!(
        data,
        [
            json!({"task": {"id": "<uuid>", "contextId": "<uuid>",
                "status": {"state": "TASK_STATE_SUBMITTED", "timestamp": "<timestamp>"},
                "history": [{"messageId": "m-1", "contextId": "<uuid>", "taskId": "<uuid>", "role": "ROLE_USER", "content": [{"text": "chunks 2"}]}]}}),
            json!({"statusUpdate": {"taskId": "<uuid>", "contextId": "<uuid>", "status": {"state": "TASK_STATE_WORKING", "timestamp": "<timestamp>"}}}),
            chunk("c0", json!({})),
            chunk("c1", json!({"append": true, "lastChunk": true})),
            json!({"statusUpdate": {"taskId": "<uuid>", "contextId": "<uuid>", "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "<timestamp>"}, "final": true}}),
        ]
    );
    let id = new_task(server.addr, "ask").await;
    let request = http::Request::get(format!("/v1/tasks/{id}:subscribe"))
        .header("host", "test")
        .body(Full::new(Bytes::new()))
        .unwrap();
    let mut events = Events::new(send(server.addr, request).await);
    let (_, first) = events.next().await.unwrap();
    assert_eq!(
        first["task"]["status"]["state"],
        "TASK_STATE_INPUT_REQUIRED"
    );
}

/// The push configuration routes, with 0.3's resource names and `authentication.schemes`.
#[tokio::test]
async fn push_notification_configs() {
    let server = start(service()).await;
    let id = new_task(server.addr, "ask").await;
    let path = format!("/v1/tasks/{id}/pushNotificationConfigs");
    let body = format!(
        r#"{{"name":"tasks/{id}/pushNotificationConfigs/hook-1","pushNotificationConfig":{{"id":"hook-1","url":"https://client.example.com/webhook","token":"t","authentication":{{"schemes":["Bearer"],"credentials":"c"}}}}}}"#
    );
    let config = json!({
        "name": format!("tasks/{id}/pushNotificationConfigs/hook-1"),
        "pushNotificationConfig": {"id": "hook-1", "url": "https://client.example.com/webhook", "token": "t",
            "authentication": {"schemes": ["Bearer"], "credentials": "c"}}
    });
    let (status, _, created) = exchange(server.addr, "POST", &path, Some(&body), &[]).await;
    assert_eq!(status, StatusCode::OK, "{created}");
    assert_eq!(created, config);
    let (_, _, got) = exchange(server.addr, "GET", &format!("{path}/hook-1"), None, &[]).await;
    assert_eq!(got, config);
    let (_, _, list) = exchange(server.addr, "GET", &path, None, &[]).await;
    assert_eq!(list, json!({"configs": [config]}));
    let (status, _, deleted) =
        exchange(server.addr, "DELETE", &format!("{path}/hook-1"), None, &[]).await;
    assert_eq!((status, deleted), (StatusCode::OK, json!({})));
    let (_, _, list) = exchange(server.addr, "GET", &path, None, &[]).await;
    assert_eq!(list, json!({}));
}

/// Errors: `{"code", "type", "message", "data"}` with the mapped HTTP status.
#[tokio::test]
async fn errors_in_the_0_3_shape() {
    let server = start(service()).await;
    let (status, content_type, error) =
        exchange(server.addr, "GET", "/v1/tasks/nope", None, &[]).await;
    assert_eq!(
        (status, content_type.as_str()),
        (StatusCode::NOT_FOUND, "application/json")
    );
    assert_eq!(
        error,
        json!({"code": -32001, "type": "TaskNotFoundError", "message": "task nope not found",
            "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND",
                "domain": "a2a-protocol.org", "metadata": {"taskId": "nope"}}]})
    );
    let (status, _, error) = exchange(server.addr, "GET", "/v1/tasks", None, &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(error["code"], -32601);
    let (status, _, error) = exchange(server.addr, "DELETE", "/v1/message:send", None, &[]).await;
    assert_eq!(
        (status, error["code"].clone()),
        (StatusCode::METHOD_NOT_ALLOWED, json!(-32600))
    );
    let (status, _, error) = exchange(
        server.addr,
        "GET",
        "/v1/tasks/x",
        None,
        &[("A2A-Version", "0.9")],
    )
    .await;
    assert_eq!(
        (status, error["code"].clone()),
        (StatusCode::BAD_REQUEST, json!(-32009))
    );
    let (status, _, error) = exchange(server.addr, "GET", "/v1/card", None, &[]).await;
    assert_eq!(
        (status, error["type"].clone()),
        (StatusCode::BAD_REQUEST, json!("UnsupportedOperationError"))
    );
    // With `A2A-Version: 1.0`, `/v1/...` is the 1.0 route under the tenant `v1`.
    let (status, _, error) = exchange(
        server.addr,
        "GET",
        "/v1/tasks/x",
        None,
        &[("A2A-Version", "1.0")],
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(error["error"]["details"][0]["reason"], "TASK_NOT_FOUND");
}
