//! The A2A 0.3 transports against scripted servers: JSON-RPC with the 0.3 spec's examples
//! (`tests/fixtures/v0_3`, each with the 1.0 document it converts to in `expected-v1/`), and
//! HTTP+JSON with the 0.3 proto's ProtoJSON as the SDKs' 0.3 REST transports send it.

mod common;
mod versions;

use a2a_client::{A2aClient, Error, ErrorCode};
use a2a_types::v1::{
    AgentCard, AgentInterface, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTasksRequest, SendMessageConfiguration,
    SendMessageRequest, SubscribeToTaskRequest, TaskPushNotificationConfig,
};
use common::{Scripted, Seen, json, sse};
use futures_util::StreamExt as _;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use versions::{Fixtures, calls};

const F: Fixtures = Fixtures("v0_3");

/// A client allowed legacy versions, for a card whose only interface is `binding` 0.3 at the
/// scripted server, asking for one extension.
fn client(server: &Scripted, binding: &str) -> A2aClient {
    let card = AgentCard::new("Old", "d", "1").with_supported_interfaces([AgentInterface::new(
        format!("{}/a2a", server.url()),
        binding,
        "0.3",
    )]);
    A2aClient::builder()
        .allow_legacy(true)
        .extension("urn:example:ext")
        .from_card(card)
        .unwrap()
}

#[tokio::test]
async fn every_unary_operation_over_0_3_json_rpc() {
    let server = Scripted::start(|_, seen| {
        let method = seen.json()["method"].as_str().unwrap_or("").to_owned();
        Some(match method.as_str() {
            "message/send" => F.answer(seen, "SendMessageSuccessResponse.section-9-2-task"),
            "tasks/get" => F.answer(seen, "GetTaskSuccessResponse.handwritten-auth-required"),
            "tasks/cancel" => F.answer(seen, "CancelTaskSuccessResponse.handwritten"),
            "tasks/pushNotificationConfig/set" => F.answer(
                seen,
                "SetTaskPushNotificationConfigSuccessResponse.handwritten",
            ),
            "tasks/pushNotificationConfig/get" => F.answer(
                seen,
                "GetTaskPushNotificationConfigSuccessResponse.handwritten",
            ),
            "tasks/pushNotificationConfig/list" => F.answer(
                seen,
                "ListTaskPushNotificationConfigSuccessResponse.handwritten",
            ),
            "tasks/pushNotificationConfig/delete" => F.answer(
                seen,
                "DeleteTaskPushNotificationConfigSuccessResponse.handwritten",
            ),
            "agent/getAuthenticatedExtendedCard" => F.answer(
                seen,
                "GetAuthenticatedExtendedCardSuccessResponse.handwritten",
            ),
            _ => json(
                200,
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"?"}}"#,
            ),
        })
    })
    .await;
    let client = client(&server, "JSONRPC");

    let sent: SendMessageRequest = F.v1("SendMessageRequest.section-9-2");
    let answer = client.send_message(sent).await.unwrap();
    F.assert_v1(&answer, "SendMessageSuccessResponse.section-9-2-task");

    let task = client
        .get_task(F.v1::<GetTaskRequest>("GetTaskRequest.section-9-8"))
        .await
        .unwrap();
    F.assert_v1(&task, "GetTaskSuccessResponse.handwritten-auth-required");
    let task = client
        .cancel_task(F.v1::<CancelTaskRequest>("CancelTaskRequest.handwritten"))
        .await
        .unwrap();
    F.assert_v1(&task, "CancelTaskSuccessResponse.handwritten");

    let config: TaskPushNotificationConfig =
        F.v1("SetTaskPushNotificationConfigRequest.v0-2-5-handwritten");
    let created = client
        .create_task_push_notification_config(config)
        .await
        .unwrap();
    F.assert_v1(
        &created,
        "SetTaskPushNotificationConfigSuccessResponse.handwritten",
    );
    let got = client
        .get_task_push_notification_config(F.v1::<GetTaskPushNotificationConfigRequest>(
            "GetTaskPushNotificationConfigRequest.handwritten",
        ))
        .await
        .unwrap();
    F.assert_v1(
        &got,
        "GetTaskPushNotificationConfigSuccessResponse.handwritten",
    );
    let list = client
        .list_task_push_notification_configs(F.v1::<ListTaskPushNotificationConfigsRequest>(
            "ListTaskPushNotificationConfigRequest.handwritten",
        ))
        .await
        .unwrap();
    F.assert_v1(
        &list,
        "ListTaskPushNotificationConfigSuccessResponse.handwritten",
    );
    client
        .delete_task_push_notification_config(F.v1::<DeleteTaskPushNotificationConfigRequest>(
            "DeleteTaskPushNotificationConfigRequest.handwritten",
        ))
        .await
        .unwrap();
    let card = client
        .get_extended_agent_card(GetExtendedAgentCardRequest::new())
        .await
        .unwrap();
    F.assert_v1(
        &card,
        "GetAuthenticatedExtendedCardSuccessResponse.handwritten",
    );

    // What went out: the spec's 0.3 requests (the set request with the one scheme 1.0 has).
    let mut set = F.request("SetTaskPushNotificationConfigRequest.v0-2-5-handwritten");
    set["params"]["pushNotificationConfig"]["authentication"]["schemes"] = json!(["Bearer"]);
    assert_eq!(
        calls(&server),
        [
            F.request("SendMessageRequest.section-9-2"),
            F.request("GetTaskRequest.section-9-8"),
            F.request("CancelTaskRequest.handwritten"),
            set,
            F.request("GetTaskPushNotificationConfigRequest.handwritten"),
            F.request("ListTaskPushNotificationConfigRequest.handwritten"),
            F.request("DeleteTaskPushNotificationConfigRequest.handwritten"),
            F.request("GetAuthenticatedExtendedCardRequest.section-9-1"),
        ]
    );
    // Every request says 0.3 and asks for the extension in the 0.3 header.
    for seen in server.seen() {
        assert_eq!(seen.header("a2a-version"), Some("0.3"));
        assert_eq!(seen.header("x-a2a-extensions"), Some("urn:example:ext"));
        assert_eq!(seen.header("a2a-extensions"), None);
        assert_eq!(seen.header("content-type"), Some("application/json"));
    }
}

#[tokio::test]
async fn streams_over_0_3_json_rpc_convert_every_event_and_end_at_the_final_one() {
    const EVENTS: [&str; 5] = [
        "SendStreamingMessageSuccessResponse.section-9-3-task",
        "SendStreamingMessageSuccessResponse.section-9-3-artifact-1",
        "SendStreamingMessageSuccessResponse.section-9-3-artifact-2",
        "SendStreamingMessageSuccessResponse.section-9-3-artifact-3",
        "SendStreamingMessageSuccessResponse.section-9-3-status-completed",
    ];
    let server = Scripted::start(|_, seen| Some(F.events(seen, &EVENTS))).await;
    let client = client(&server, "JSONRPC");

    let sent: SendMessageRequest = F.v1("SendStreamingMessageRequest.section-9-3");
    let mut stream = client.send_streaming_message(sent).await.unwrap();
    let mut got = Vec::new();
    while let Some(event) = stream.next().await {
        got.push(serde_json::to_value(event.unwrap()).unwrap());
    }
    let expected: Vec<Value> = EVENTS.iter().map(|name| F.v1_json(name)).collect();
    assert_eq!(got, expected);
    assert_eq!(stream.last_event_id(), Some("5"));

    let mut stream = client
        .subscribe_to_task(F.v1::<SubscribeToTaskRequest>("TaskResubscriptionRequest.handwritten"))
        .await
        .unwrap();
    let mut count = 0;
    while let Some(event) = stream.next().await {
        event.unwrap();
        count += 1;
    }
    assert_eq!(count, EVENTS.len());
    assert_eq!(
        calls(&server),
        [
            F.request("SendStreamingMessageRequest.section-9-3"),
            F.request("TaskResubscriptionRequest.handwritten"),
        ]
    );
    assert_eq!(server.seen()[0].header("accept"), Some("text/event-stream"));
}

#[tokio::test]
async fn errors_over_0_3_json_rpc_are_agent_errors_and_missing_operations_are_refused() {
    let server = Scripted::start(|_, seen| {
        Some(F.answer(seen, "JSONRPCErrorResponse.handwritten-task-not-found"))
    })
    .await;
    let client = client(&server, "JSONRPC");
    let error = client
        .get_task(GetTaskRequest::new("task-404"))
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(ErrorCode::TASK_NOT_FOUND));
    assert_eq!(
        error.to_string(),
        "the agent answered TaskNotFoundError (-32001): Task not found"
    );
    assert_eq!(
        error.agent_error().unwrap().data(),
        Some(&json!({"taskId": "task-404"}))
    );

    // ListTasks has no 0.3 JSON-RPC method: refused before anything is sent.
    let before = server.seen().len();
    let error = client
        .list_tasks(ListTasksRequest::new())
        .await
        .unwrap_err();
    assert!(matches!(error, Error::Unsupported { .. }), "{error:?}");
    assert_eq!(
        error.to_string(),
        "ListTasks does not exist in A2A 0.3 over JSONRPC, the interface this client uses; it \
         needs an A2A 1.0 interface"
    );
    assert_eq!(server.seen().len(), before);
}

// ----- HTTP+JSON ------------------------------------------------------------------------------

/// A 0.3 REST agent: answers by route, as the 0.3 proto's ProtoJSON.
fn rest_answer(seen: &Seen) -> common::Answer {
    let task = json!({"id": "t-1", "contextId": "c-1",
        "status": {"state": "TASK_STATE_CANCELLED", "timestamp": "2025-07-30T10:00:00Z"},
        "history": [{"messageId": "m-1", "contextId": "c-1", "taskId": "t-1",
            "role": "ROLE_USER", "content": [{"text": "stop"}]}]});
    let config = json!({"name": "tasks/t-1/pushNotificationConfigs/p-1",
        "pushNotificationConfig": {"id": "p-1", "url": "https://hook.example.com/a2a",
            "token": "tok", "authentication": {"schemes": ["Bearer"], "credentials": "s3cret"}}});
    let route = format!("{} {}", seen.method, seen.path);
    match route.as_str() {
        "POST /a2a/v1/message:send" => json(200, &json!({"message": {"messageId": "m-2",
            "role": "ROLE_AGENT", "content": [
                {"text": "hi!"},
                {"file": {"fileWithUri": "https://x/r.pdf", "mimeType": "application/pdf"}},
                {"data": {"data": {"answer": 42}}}]}}).to_string()),
        "POST /a2a/v1/message:stream" | "GET /a2a/v1/tasks/t-1:subscribe" => sse(concat!(
            "data: {\"task\": {\"id\": \"t-1\", \"contextId\": \"c-1\", \"status\": {\"state\": \"TASK_STATE_SUBMITTED\"}}}\n\n",
            ": ping\n\n",
            "data: {\"artifactUpdate\": {\"taskId\": \"t-1\", \"contextId\": \"c-1\", \"artifact\": {\"artifactId\": \"a\", \"parts\": [{\"text\": \"done\"}]}, \"lastChunk\": true}}\n\n",
            "data: {\"statusUpdate\": {\"taskId\": \"t-1\", \"contextId\": \"c-1\", \"status\": {\"state\": \"TASK_STATE_COMPLETED\"}, \"final\": true}}\n\n",
        ).as_bytes()),
        "GET /a2a/v1/tasks/t-1" | "POST /a2a/v1/tasks/t-1:cancel" => json(200, &task.to_string()),
        "GET /a2a/v1/tasks/t-9" => json(
            404,
            r#"{"code": -32001, "message": "Task not found: t-9", "data": {"taskId": "t-9"}}"#,
        ),
        "POST /a2a/v1/tasks/t-1/pushNotificationConfigs"
        | "GET /a2a/v1/tasks/t-1/pushNotificationConfigs/p-1" => json(200, &config.to_string()),
        "GET /a2a/v1/tasks/t-1/pushNotificationConfigs" => {
            json(200, &json!({"configs": [config]}).to_string())
        }
        "DELETE /a2a/v1/tasks/t-1/pushNotificationConfigs/p-1" => json(200, "{}"),
        "GET /a2a/v1/card" => json(200, &json!({"protocolVersion": "0.3.0", "name": "Secret",
            "description": "the extended card", "url": "http://h/a2a", "preferredTransport": "HTTP+JSON",
            "version": "1", "capabilities": {}, "defaultInputModes": ["text/plain"],
            "defaultOutputModes": ["text/plain"], "skills": []}).to_string()),
        _ => json(404, r#"{"code": -32601, "message": "no route"}"#),
    }
}

#[tokio::test]
async fn every_operation_over_0_3_http_json() {
    let server = Scripted::start(|_, seen| Some(rest_answer(seen))).await;
    let client = client(&server, "HTTP+JSON");

    let message = serde_json::from_value(json!({"messageId": "m-1", "contextId": "c-1",
        "role": "ROLE_USER", "parts": [
            {"text": "hello", "metadata": {"lost": true}},
            {"raw": "iVBORw0KGgo=", "mediaType": "image/png", "filename": "a.png"},
            {"data": {"k": [1, 2]}}]}))
    .unwrap();
    let answer = client
        .send_message(
            SendMessageRequest::new(message).with_configuration(
                serde_json::from_value::<SendMessageConfiguration>(json!({
                        "acceptedOutputModes": ["text/plain"], "historyLength": 3}))
                .unwrap(),
            ),
        )
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&answer).unwrap(),
        json!({"message": {"messageId": "m-2", "role": "ROLE_AGENT", "parts": [
            {"text": "hi!"},
            {"url": "https://x/r.pdf", "mediaType": "application/pdf"},
            {"data": {"answer": 42}}]}})
    );

    let mut stream = client
        .send_streaming_message(SendMessageRequest::new(
            serde_json::from_value(json!({"messageId": "m-3", "role": "ROLE_USER",
                "parts": [{"text": "go"}]}))
            .unwrap(),
        ))
        .await
        .unwrap();
    let mut events = Vec::new();
    while let Some(event) = stream.next().await {
        events.push(serde_json::to_value(event.unwrap()).unwrap());
    }
    assert_eq!(
        events,
        [
            json!({"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_SUBMITTED"}}}),
            json!({"artifactUpdate": {"taskId": "t-1", "contextId": "c-1",
                "artifact": {"artifactId": "a", "parts": [{"text": "done"}]}, "lastChunk": true}}),
            json!({"statusUpdate": {"taskId": "t-1", "contextId": "c-1",
                "status": {"state": "TASK_STATE_COMPLETED"}}}),
        ]
    );

    let task = client
        .get_task(GetTaskRequest::new("t-1").with_history_length(2))
        .await
        .unwrap();
    let expected_task = json!({"id": "t-1", "contextId": "c-1",
        "status": {"state": "TASK_STATE_CANCELED", "timestamp": "2025-07-30T10:00:00.000Z"},
        "history": [{"messageId": "m-1", "contextId": "c-1", "taskId": "t-1",
            "role": "ROLE_USER", "parts": [{"text": "stop"}]}]});
    assert_eq!(serde_json::to_value(&task).unwrap(), expected_task);
    let task = client
        .cancel_task(CancelTaskRequest::new("t-1"))
        .await
        .unwrap();
    assert_eq!(serde_json::to_value(&task).unwrap(), expected_task);
    let mut stream = client
        .subscribe_to_task(SubscribeToTaskRequest::new("t-1"))
        .await
        .unwrap();
    let mut count = 0;
    while let Some(event) = stream.next().await {
        event.unwrap();
        count += 1;
    }
    assert_eq!(count, 3);

    let config: TaskPushNotificationConfig = serde_json::from_value(json!({"taskId": "t-1",
        "id": "p-1", "url": "https://hook.example.com/a2a", "token": "tok",
        "authentication": {"scheme": "Bearer", "credentials": "s3cret"}}))
    .unwrap();
    let created = client
        .create_task_push_notification_config(config.clone())
        .await
        .unwrap();
    assert_eq!(created, config);
    let got = client
        .get_task_push_notification_config(GetTaskPushNotificationConfigRequest::new("t-1", "p-1"))
        .await
        .unwrap();
    assert_eq!(got, config);
    let list = client
        .list_task_push_notification_configs(ListTaskPushNotificationConfigsRequest::new("t-1"))
        .await
        .unwrap();
    assert_eq!(list.configs, [config]);
    client
        .delete_task_push_notification_config(DeleteTaskPushNotificationConfigRequest::new(
            "t-1", "p-1",
        ))
        .await
        .unwrap();
    let card = client
        .get_extended_agent_card(GetExtendedAgentCardRequest::new())
        .await
        .unwrap();
    assert_eq!(card.name, "Secret");
    assert_eq!(card.supported_interfaces[0].protocol_binding, "HTTP+JSON");

    let error = client
        .get_task(GetTaskRequest::new("t-9"))
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(ErrorCode::TASK_NOT_FOUND));
    assert_eq!(
        error.to_string(),
        "the agent answered TaskNotFoundError (-32001): Task not found: t-9"
    );
    assert_eq!(error.http_status(), Some(http::StatusCode::NOT_FOUND));
    let error = client
        .list_tasks(ListTasksRequest::new())
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "ListTasks does not exist in A2A 0.3 over HTTP+JSON, the interface this client uses; it \
         needs an A2A 1.0 interface"
    );

    // What went out: the routes and bodies of the 0.3 proto.
    let seen = server.seen();
    let wire: Vec<String> = seen
        .iter()
        .map(|s| {
            format!(
                "{} {}{} {}",
                s.method,
                s.path,
                s.query
                    .as_deref()
                    .map(|q| format!("?{q}"))
                    .unwrap_or_default(),
                s.body
            )
        })
        .collect();
    let create = json!({"name": "tasks/t-1/pushNotificationConfigs/p-1", "pushNotificationConfig": {
        "id": "p-1", "url": "https://hook.example.com/a2a", "token": "tok",
        "authentication": {"schemes": ["Bearer"], "credentials": "s3cret"}}});
    assert_eq!(
        wire,
        [
            format!(
                "POST /a2a/v1/message:send {}",
                json!({
                "message": {"messageId": "m-1", "contextId": "c-1", "role": "ROLE_USER", "content": [
                    {"text": "hello"},
                    {"file": {"fileWithBytes": "iVBORw0KGgo=", "mimeType": "image/png"}},
                    {"data": {"data": {"k": [1, 2]}}}]},
                "configuration": {"acceptedOutputModes": ["text/plain"], "historyLength": 3,
                    "blocking": true}})
            ),
            format!(
                "POST /a2a/v1/message:stream {}",
                json!({
                "message": {"messageId": "m-3", "role": "ROLE_USER", "content": [{"text": "go"}]},
                "configuration": {"blocking": true}})
            ),
            "GET /a2a/v1/tasks/t-1?historyLength=2 ".to_owned(),
            "POST /a2a/v1/tasks/t-1:cancel {}".to_owned(),
            "GET /a2a/v1/tasks/t-1:subscribe ".to_owned(),
            format!("POST /a2a/v1/tasks/t-1/pushNotificationConfigs {create}"),
            "GET /a2a/v1/tasks/t-1/pushNotificationConfigs/p-1 ".to_owned(),
            "GET /a2a/v1/tasks/t-1/pushNotificationConfigs ".to_owned(),
            "DELETE /a2a/v1/tasks/t-1/pushNotificationConfigs/p-1 ".to_owned(),
            "GET /a2a/v1/card ".to_owned(),
            "GET /a2a/v1/tasks/t-9 ".to_owned(),
        ]
    );
    for s in &seen {
        assert_eq!(s.header("a2a-version"), Some("0.3"), "{}", s.path);
        assert_eq!(s.header("x-a2a-extensions"), Some("urn:example:ext"));
        if !s.body.is_empty() {
            assert_eq!(s.header("content-type"), Some("application/json"));
        }
    }
}
