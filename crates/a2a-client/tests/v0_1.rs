//! The A2A 0.1 JSON-RPC transport against a scripted server, with the 0.1-era examples (seeds
//! 000 and 001, `tests/fixtures/v0_1`, each with its 1.0 form in `expected-v1/`).

mod common;
mod versions;

use std::time::Duration;

use a2a_client::{A2aClient, Error, ErrorCode, RetryPolicy};
use a2a_types::v1::{
    AgentCard, AgentInterface, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTasksRequest, Message, SendMessageRequest,
    SendMessageResponse, SubscribeToTaskRequest, TaskPushNotificationConfig,
};
use common::{Scripted, json};
use futures_util::StreamExt as _;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use versions::{Fixtures, calls};

const F: Fixtures = Fixtures("v0_1");

/// A client allowed 0.1, for a 0.1 card pointing at the scripted server.
fn client(server: &Scripted, builder: a2a_client::ClientBuilder) -> A2aClient {
    let card = AgentCard::new("Old", "d", "1").with_supported_interfaces([AgentInterface::new(
        format!("{}/", server.url()),
        "JSONRPC",
        "0.1",
    )]);
    builder
        .allow_legacy(true)
        .extension("urn:example:ext")
        .from_card(card)
        .unwrap()
}

#[tokio::test]
async fn every_0_1_method_with_the_seed_examples() {
    let server = Scripted::start(|_, seen| {
        let method = seen.json()["method"].as_str().unwrap_or("").to_owned();
        Some(match method.as_str() {
            "tasks/send" => F.answer(seen, "SendTaskResponse.seed-000-9-1-2"),
            "tasks/get" => F.answer(seen, "GetTaskResponse.seed-001-get-task"),
            "tasks/cancel" => F.answer(seen, "CancelTaskResponse.seed-001-cancel-task"),
            "tasks/pushNotification/set" => F.answer(
                seen,
                "SetTaskPushNotificationResponse.seed-001-set-push-notification",
            ),
            "tasks/pushNotification/get" => F.answer(
                seen,
                "GetTaskPushNotificationResponse.seed-001-get-push-notification",
            ),
            _ => json(
                200,
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"?"}}"#,
            ),
        })
    })
    .await;
    let client = client(&server, A2aClient::builder());

    let answer = client
        .send_message(F.v1::<SendMessageRequest>("SendTaskRequest.seed-000-9-1-1"))
        .await
        .unwrap();
    F.assert_v1(&answer, "SendTaskResponse.seed-000-9-1-2");
    let task = client
        .get_task(F.v1::<GetTaskRequest>("GetTaskRequest.seed-001-get-task"))
        .await
        .unwrap();
    F.assert_v1(&task, "GetTaskResponse.seed-001-get-task");
    let task = client
        .cancel_task(F.v1::<CancelTaskRequest>("CancelTaskRequest.seed-001-cancel-task"))
        .await
        .unwrap();
    F.assert_v1(&task, "CancelTaskResponse.seed-001-cancel-task");
    let config = client
        .create_task_push_notification_config(F.v1::<TaskPushNotificationConfig>(
            "SetTaskPushNotificationRequest.seed-001-set-push-notification",
        ))
        .await
        .unwrap();
    F.assert_v1(
        &config,
        "SetTaskPushNotificationResponse.seed-001-set-push-notification",
    );
    let config = client
        .get_task_push_notification_config(F.v1::<GetTaskPushNotificationConfigRequest>(
            "GetTaskPushNotificationRequest.seed-001-get-push-notification",
        ))
        .await
        .unwrap();
    F.assert_v1(
        &config,
        "GetTaskPushNotificationResponse.seed-001-get-push-notification",
    );

    // The seeds' requests went out (`tasks/get` without the `metadata: {}` 1.0 has no place
    // for); no service-parameter headers, which 0.1 predates.
    let mut get = F.request("GetTaskRequest.seed-001-get-task");
    get["params"].as_object_mut().unwrap().remove("metadata");
    assert_eq!(
        calls(&server),
        [
            F.request("SendTaskRequest.seed-000-9-1-1"),
            get,
            F.request("CancelTaskRequest.seed-001-cancel-task"),
            F.request("SetTaskPushNotificationRequest.seed-001-set-push-notification"),
            F.request("GetTaskPushNotificationRequest.seed-001-get-push-notification"),
        ]
    );
    for seen in server.seen() {
        assert_eq!(seen.header("a2a-version"), None);
        assert_eq!(seen.header("a2a-extensions"), None);
        assert_eq!(seen.header("x-a2a-extensions"), None);
    }
}

#[tokio::test]
async fn the_client_names_new_tasks_and_a_retry_sends_the_same_id() {
    let server = Scripted::start(|n, seen| {
        Some(if n == 0 {
            json(503, "busy")
        } else {
            let id = seen.json()["params"]["id"].clone();
            let task = json!({"id": id, "sessionId": "s-1", "status": {"state": "completed"}});
            let mut response = json!({"jsonrpc": "2.0", "result": task});
            response["id"] = seen.json()["id"].clone();
            json(200, &response.to_string())
        })
    })
    .await;
    let retry = RetryPolicy::default().with_initial_backoff(Duration::from_millis(5));
    let client = client(&server, A2aClient::builder().retry(retry));
    let message = Message::user_text("hi").with_context_id("s-1");
    let SendMessageResponse::Task(task) = client
        .send_message(SendMessageRequest::new(message))
        .await
        .unwrap()
    else {
        panic!("a 0.1 send answers with a task");
    };
    let seen = server.seen();
    assert_eq!(seen.len(), 2);
    let first = seen[0].json()["params"].clone();
    let id = first["id"].as_str().unwrap().to_owned();
    assert!(!id.is_empty());
    assert_eq!(
        seen[1].json()["params"],
        first,
        "the retry is the same request"
    );
    assert_eq!(
        first,
        json!({"id": id, "sessionId": "s-1",
            "message": {"role": "user", "parts": [{"type": "text", "text": "hi"}]}})
    );
    assert_eq!(task.id.as_ref(), id);
    assert_eq!(task.context_id.as_ref().map(AsRef::as_ref), Some("s-1"));
}

#[tokio::test]
async fn streams_convert_0_1_events_and_carry_the_requests_context() {
    const STREAM: [&str; 5] = [
        "SendTaskStreamingResponse.seed-000-9-2-2-1",
        "SendTaskStreamingResponse.seed-000-9-2-2-2",
        "SendTaskStreamingResponse.seed-000-9-2-2-3",
        "SendTaskStreamingResponse.seed-000-9-2-2-4",
        "SendTaskStreamingResponse.seed-000-9-2-2-5",
    ];
    let server = Scripted::start(|_, seen| Some(F.events(seen, &STREAM))).await;
    let client = client(&server, A2aClient::builder());

    let mut stream = client
        .send_streaming_message(
            F.v1::<SendMessageRequest>("SendTaskStreamingRequest.seed-000-9-2-1"),
        )
        .await
        .unwrap();
    let mut got = Vec::new();
    while let Some(event) = stream.next().await {
        got.push(serde_json::to_value(event.unwrap()).unwrap());
    }
    let expected: Vec<Value> = STREAM.iter().map(|name| F.v1_json(name)).collect();
    assert_eq!(got, expected);

    // With a session, the events get it as their context.
    let mut sent: SendMessageRequest = F.v1("SendTaskStreamingRequest.seed-000-9-2-1");
    sent.message.context_id = Some("session-1".into());
    let mut stream = client.send_streaming_message(sent).await.unwrap();
    let first = stream.next().await.unwrap().unwrap();
    let mut expected = F.v1_json(STREAM[0]);
    expected["statusUpdate"]["contextId"] = json!("session-1");
    assert_eq!(serde_json::to_value(first).unwrap(), expected);
    drop(stream);

    let mut stream = client
        .subscribe_to_task(
            F.v1::<SubscribeToTaskRequest>("TaskResubscriptionRequest.seed-001-resubscribe"),
        )
        .await
        .unwrap();
    let mut count = 0;
    while let Some(event) = stream.next().await {
        event.unwrap();
        count += 1;
    }
    assert_eq!(count, STREAM.len());
    let calls = calls(&server);
    assert_eq!(
        calls[0],
        F.request("SendTaskStreamingRequest.seed-000-9-2-1")
    );
    assert_eq!(
        calls[2],
        json!({"jsonrpc": "2.0", "method": "tasks/resubscribe",
            "params": {"id": "de38c76d-d54c-436c-8b9f-4c2703648d64"}})
    );
}

#[tokio::test]
async fn the_0_1_meanings_of_error_codes_are_kept_apart_from_1_0s() {
    // -32009 was "invalid task state" in 0.1-era agents, never 1.0's VersionNotSupported.
    let server = Scripted::start(|_, seen| {
        let mut response = json!({"jsonrpc": "2.0",
            "error": {"code": -32009, "message": "task is completed"}});
        response["id"] = seen.json()["id"].clone();
        Some(json(200, &response.to_string()))
    })
    .await;
    let client = client(&server, A2aClient::builder());
    let error = client
        .cancel_task(CancelTaskRequest::new("t-1"))
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(ErrorCode::UNSUPPORTED_OPERATION));
    assert_eq!(
        error.to_string(),
        "the agent answered UnsupportedOperationError (-32004): task is completed"
    );
    assert_eq!(server.seen().len(), 1);
}

#[tokio::test]
async fn operations_0_1_lacks_are_refused_before_anything_is_sent() {
    let server = Scripted::start(|_, _| None).await;
    let client = client(&server, A2aClient::builder());
    let errors = [
        client
            .list_tasks(ListTasksRequest::new())
            .await
            .unwrap_err(),
        client
            .list_task_push_notification_configs(ListTaskPushNotificationConfigsRequest::new("t"))
            .await
            .unwrap_err(),
        client
            .delete_task_push_notification_config(DeleteTaskPushNotificationConfigRequest::new(
                "t", "c",
            ))
            .await
            .unwrap_err(),
        client
            .get_extended_agent_card(GetExtendedAgentCardRequest::new())
            .await
            .unwrap_err(),
    ];
    let texts: Vec<String> = errors.iter().map(ToString::to_string).collect();
    let expected: Vec<String> = [
        "ListTasks",
        "ListTaskPushNotificationConfigs",
        "DeleteTaskPushNotificationConfig",
        "GetExtendedAgentCard",
    ]
    .iter()
    .map(|op| {
        format!(
            "{op} does not exist in A2A 0.1 over JSONRPC, the interface this client uses; it \
             needs an A2A 1.0 interface"
        )
    })
    .collect();
    assert_eq!(texts, expected);
    assert!(
        errors
            .iter()
            .all(|e| matches!(e, Error::Unsupported { .. }))
    );
    assert!(server.seen().is_empty());
}
