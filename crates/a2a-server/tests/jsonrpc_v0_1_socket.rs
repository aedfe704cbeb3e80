//! A2A 0.1 on the JSON-RPC endpoint, over real sockets: the requests of the 0.1 specification's
//! examples (seed 000 §9, seed 002), literal 0.1 answers.

mod common;

use std::sync::Arc;
use std::time::Duration;

use a2a_server::auth::{AuthError, Principal};
use a2a_server::{A2aService, HandlerConfig};
use a2a_types::v1::{AgentCapabilities, AgentCard, AgentSkill};
use common::{Events, normalized, rpc_request, rpc_with, scripted_agent, send, start};
use http::StatusCode;
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

fn builder(gate: Arc<Semaphore>) -> a2a_server::ServiceBuilder {
    A2aService::builder(scripted_agent(gate), card())
        .public_url("http://127.0.0.1:7420")
        .handler_config(HandlerConfig::default().with_cancel_grace(Duration::from_millis(200)))
        // Push delivery on: the card declares push notifications, push configs are taken.
        .push(a2a_server::push::PushSettings::default())
}

fn service() -> A2aService {
    builder(Arc::new(Semaphore::new(1000))).build()
}

/// A 0.1 call: no `A2A-Version` (0.1 had none).
async fn call(addr: std::net::SocketAddr, body: &str) -> Value {
    call_with(addr, body, &[]).await
}

/// A call with these headers: the answer [`normalized`], a generated `sessionId` too.
async fn call_with(addr: std::net::SocketAddr, body: &str, headers: &[(&str, &str)]) -> Value {
    let (status, response_headers, text) = rpc_with(addr, body, headers).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert_eq!(response_headers["content-type"], "application/json");
    let mut value = normalized(&text);
    if let Some(session) = value.pointer_mut("/result/sessionId")
        && session.as_str().is_some_and(|s| s.len() == 36)
    {
        *session = json!("<uuid>");
    }
    value
}

/// The curl of issue 16: `tasks/send` with id `t1` and session `s1` answers a 0.1 task.
#[tokio::test]
async fn tasks_send_creates_the_task_under_the_client_id() {
    let server = start(service()).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tasks/send","params":{"id":"t1","sessionId":"s1","message":{"role":"user","parts":[{"type":"text","text":"hi"}]}}}"#;
    assert_eq!(
        call(server.addr, body).await,
        json!({"jsonrpc": "2.0", "id": 1, "result": {
            "id": "t1",
            "sessionId": "s1",
            "status": {"state": "completed", "timestamp": "<timestamp>"},
            "artifacts": [{"parts": [{"type": "text", "text": "hi"}], "index": 1_419_629_700u32}],
            "history": [{"role": "user", "parts": [{"type": "text", "text": "hi"}]}]
        }})
    );
    // The task is there under the client's id, for 0.1 and 1.0 callers alike.
    let get =
        r#"{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"id":"t1","historyLength":0}}"#;
    assert_eq!(
        call(server.addr, get).await["result"]["status"]["state"],
        "completed"
    );
    let (_, _, text) = common::rpc(
        server.addr,
        r#"{"jsonrpc":"2.0","id":3,"method":"GetTask","params":{"id":"t1","historyLength":0}}"#,
    )
    .await;
    assert_eq!(
        normalized(&text)["result"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
}

/// Seed 000 §9.1 (with the echo agent): a synchronous `tasks/send`, then `tasks/get`.
#[tokio::test]
async fn basic_task_execution() {
    let server = start(service()).await;
    let send = r#"{
      "jsonrpc": "2.0",
      "id": 101,
      "method": "tasks/send",
      "params": {
        "id": "task-abc-123",
        "message": {
          "role": "user",
          "parts": [
            { "type": "text", "text": "What is the capital of France?" }
          ]
        }
      }
    }"#;
    let answer = call(server.addr, send).await;
    assert_eq!(
        answer,
        json!({"jsonrpc": "2.0", "id": 101, "result": {
            "id": "task-abc-123",
            "sessionId": "<uuid>",
            "status": {"state": "completed", "timestamp": "<timestamp>"},
            "artifacts": [{"parts": [{"type": "text", "text": "What is the capital of France?"}], "index": 1_419_629_700u32}],
            "history": [{"role": "user", "parts": [{"type": "text", "text": "What is the capital of France?"}]}]
        }})
    );
    let get = r#"{"jsonrpc":"2.0","id":402,"method":"tasks/get","params":{"id":"task-abc-123","historyLength":10,"metadata":{}}}"#;
    assert_eq!(call(server.addr, get).await["result"], answer["result"]);
}

/// Seed 000 §9.3: input required, then the follow-up under the same id and session.
#[tokio::test]
async fn multi_turn_interaction() {
    let server = start(service()).await;
    let first = r#"{"jsonrpc":"2.0","id":301,"method":"tasks/send","params":{"id":"task-multi-789","sessionId":"session-abc-123","message":{"role":"user","parts":[{"type":"text","text":"ask"}]}}}"#;
    assert_eq!(
        call(server.addr, first).await,
        json!({"jsonrpc": "2.0", "id": 301, "result": {
            "id": "task-multi-789",
            "sessionId": "session-abc-123",
            "status": {
                "state": "input-required",
                "message": {"role": "agent", "parts": [{"type": "text", "text": "which city?"}]},
                "timestamp": "<timestamp>"
            },
            "history": [
                {"role": "user", "parts": [{"type": "text", "text": "ask"}]},
                {"role": "agent", "parts": [{"type": "text", "text": "which city?"}]}
            ]
        }})
    );
    let second = r#"{"jsonrpc":"2.0","id":302,"method":"tasks/send","params":{"id":"task-multi-789","sessionId":"session-abc-123","message":{"role":"user","parts":[{"type":"text","text":"Paris"}]},"historyLength":1}}"#;
    assert_eq!(
        call(server.addr, second).await,
        json!({"jsonrpc": "2.0", "id": 302, "result": {
            "id": "task-multi-789",
            "sessionId": "session-abc-123",
            "status": {"state": "completed", "timestamp": "<timestamp>"},
            "artifacts": [{"parts": [{"type": "text", "text": "Paris"}], "index": 1_419_629_700u32}],
            "history": [{"role": "user", "parts": [{"type": "text", "text": "Paris"}]}]
        }})
    );
}

/// Seed 000 §9.2 (with the chunking agent): `tasks/sendSubscribe` streams 0.1 events: the task
/// `id`, `final` on status updates, artifacts with `index`, `append` and `lastChunk`.
#[tokio::test]
async fn streaming_task_execution() {
    let server = start(service()).await;
    let body = r#"{"jsonrpc":"2.0","id":201,"method":"tasks/sendSubscribe","params":{"id":"task-stream-456","message":{"role":"user","parts":[{"type":"text","text":"chunks 2"}]}}}"#;
    let events = Events::new(send(server.addr, rpc_request(body, &[])).await)
        .collect()
        .await;
    let data: Vec<Value> = events
        .into_iter()
        .map(|(_, mut data)| {
            common::normalize(&mut data);
            data
        })
        .collect();
    let chunk = |text: &str, append: bool, last: bool| {
        let mut artifact =
            json!({"parts": [{"type": "text", "text": text}], "index": 1_577_983_395u32});
        if append {
            artifact["append"] = json!(true);
        }
        if last {
            artifact["lastChunk"] = json!(true);
        }
        json!({"jsonrpc": "2.0", "id": 201, "result": {"id": "task-stream-456", "artifact": artifact}})
    };
    let status = |state: &str, last: bool| {
        json!({"jsonrpc": "2.0", "id": 201, "result": {"id": "task-stream-456",
            "status": {"state": state, "timestamp": "<timestamp>"}, "final": last}})
    };
    assert_eq!(
        data,
        [
            status("submitted", false),
            status("working", false),
            chunk("c0", false, false),
            chunk("c1", true, true),
            status("completed", true),
        ]
    );
}

/// A direct message reply, which 0.1 cannot carry, is the completed task under the client's
/// id with the message as its status message; streamed, its final status update.
#[tokio::test]
async fn a_message_reply_is_a_completed_task() {
    let server = start(service()).await;
    let body = r#"{"jsonrpc":"2.0","id":5,"method":"tasks/send","params":{"id":"t-hello","sessionId":"s-1","message":{"role":"user","parts":[{"type":"text","text":"hello"}]}}}"#;
    assert_eq!(
        call(server.addr, body).await,
        json!({"jsonrpc": "2.0", "id": 5, "result": {
            "id": "t-hello",
            "sessionId": "s-1",
            "status": {"state": "completed", "message": {"role": "agent", "parts": [{"type": "text", "text": "hi!"}]}}
        }})
    );
    let body = r#"{"jsonrpc":"2.0","id":6,"method":"tasks/sendSubscribe","params":{"id":"t-hello-2","sessionId":"s-1","message":{"role":"user","parts":[{"type":"text","text":"hello"}]}}}"#;
    let events = Events::new(send(server.addr, rpc_request(body, &[])).await)
        .collect()
        .await;
    let mut data: Vec<Value> = events.into_iter().map(|(_, data)| data).collect();
    data.iter_mut().for_each(common::normalize);
    assert_eq!(
        data,
        [
            json!({"jsonrpc": "2.0", "id": 6, "result": {"id": "t-hello-2", "status": {
            "state": "completed",
            "message": {"role": "agent", "parts": [{"type": "text", "text": "hi!"}]},
            "timestamp": "<timestamp>"
        }, "final": true}})
        ]
    );
}

/// `tasks/cancel` (seed 002's request shape) answers the canceled 0.1 task; a second cancel of
/// a completed task is -32002.
#[tokio::test]
async fn cancel_task() {
    let server = start(service()).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tasks/sendSubscribe","params":{"id":"de38c76d-d54c-436c-8b9f-4c2703648d64","message":{"role":"user","parts":[{"type":"text","text":"wait"}]}}}"#;
    let mut events = Events::new(send(server.addr, rpc_request(body, &[])).await);
    // submitted, working: the agent runs.
    events.next().await.unwrap();
    events.next().await.unwrap();
    let cancel = r#"{"jsonrpc":"2.0","id":1,"method":"tasks/cancel","params":{"id":"de38c76d-d54c-436c-8b9f-4c2703648d64","metadata":{}}}"#;
    let answer = call(server.addr, cancel).await;
    assert_eq!(
        answer["result"]["status"],
        json!({"state": "canceled", "timestamp": "<timestamp>"})
    );
    assert_eq!(answer["result"]["id"], "<uuid>");
    let (_, mut last) = events.next().await.unwrap();
    common::normalize(&mut last);
    assert_eq!(last["result"]["final"], true);
    assert_eq!(last["result"]["status"]["state"], "canceled");

    let done = r#"{"jsonrpc":"2.0","id":2,"method":"tasks/send","params":{"id":"t-done","message":{"role":"user","parts":[{"type":"text","text":"x"}]}}}"#;
    call(server.addr, done).await;
    let cancel = r#"{"jsonrpc":"2.0","id":3,"method":"tasks/cancel","params":{"id":"t-done"}}"#;
    assert_eq!(
        call(server.addr, cancel).await["error"]["code"],
        json!(-32002)
    );
}

/// `tasks/resubscribe` (seed 002's request shape) on a working task streams its events in the
/// 0.1 shape.
#[tokio::test]
async fn resubscribe() {
    let gate = Arc::new(Semaphore::new(0));
    let server = start(builder(gate.clone()).build()).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tasks/sendSubscribe","params":{"id":"t-re","message":{"role":"user","parts":[{"type":"text","text":"chunks 1"}]}}}"#;
    let mut first = Events::new(send(server.addr, rpc_request(body, &[])).await);
    first.next().await.unwrap();
    first.next().await.unwrap();
    let body = r#"{"jsonrpc":"2.0","id":7,"method":"tasks/resubscribe","params":{"id":"t-re","metadata":{}}}"#;
    let again = Events::new(send(server.addr, rpc_request(body, &[])).await);
    gate.add_permits(1);
    let mut data: Vec<Value> = again.collect().await.into_iter().map(|(_, d)| d).collect();
    data.iter_mut().for_each(common::normalize);
    assert_eq!(
        data,
        [
            json!({"jsonrpc": "2.0", "id": 7, "result": {"id": "t-re", "status": {"state": "working", "timestamp": "<timestamp>"}, "final": false}}),
            json!({"jsonrpc": "2.0", "id": 7, "result": {"id": "t-re", "artifact": {"parts": [{"type": "text", "text": "c0"}], "index": 1_577_983_395u32, "lastChunk": true}}}),
            json!({"jsonrpc": "2.0", "id": 7, "result": {"id": "t-re", "status": {"state": "completed", "timestamp": "<timestamp>"}, "final": true}}),
        ]
    );
}

/// Seed 002's push notification requests: `tasks/pushNotification/set` and `get`, one
/// configuration per task (its 1.0 id is the task id).
#[tokio::test]
async fn push_notification_set_and_get() {
    let service = service();
    let store = service.handler().store().clone();
    let server = start(service).await;
    let send = r#"{"jsonrpc":"2.0","id":1,"method":"tasks/send","params":{"id":"de38c76d-d54c-436c-8b9f-4c2703648d64","message":{"role":"user","parts":[{"type":"text","text":"ask"}]}}}"#;
    call(server.addr, send).await;
    let set = r#"{
      "jsonrpc": "2.0",
      "id": 1,
      "method": "tasks/pushNotification/set",
      "params": {
        "id": "de38c76d-d54c-436c-8b9f-4c2703648d64",
        "pushNotificationConfig": {
          "url": "https://example.com/callback",
          "authentication": {
            "schemes": ["jwt"]
          }
        }
      }
    }"#;
    let config = json!({
        "id": "de38c76d-d54c-436c-8b9f-4c2703648d64",
        "pushNotificationConfig": {"url": "https://example.com/callback", "authentication": {"schemes": ["jwt"]}}
    });
    let mut expected = json!({"jsonrpc": "2.0", "id": 1, "result": config});
    let mut normalized_expected = expected.clone();
    common::normalize(&mut normalized_expected);
    assert_eq!(call(server.addr, set).await, normalized_expected);
    let get = r#"{"jsonrpc":"2.0","id":1,"method":"tasks/pushNotification/get","params":{"id":"de38c76d-d54c-436c-8b9f-4c2703648d64"}}"#;
    assert_eq!(call(server.addr, get).await, normalized_expected);
    // And 1.0 sees the same configuration, under the task's id.
    let (_, _, text) = common::rpc(
        server.addr,
        r#"{"jsonrpc":"2.0","id":2,"method":"ListTaskPushNotificationConfigs","params":{"taskId":"de38c76d-d54c-436c-8b9f-4c2703648d64"}}"#,
    )
    .await;
    expected = json!({"jsonrpc": "2.0", "id": 2, "result": {"configs": [{
        "id": "de38c76d-d54c-436c-8b9f-4c2703648d64",
        "taskId": "de38c76d-d54c-436c-8b9f-4c2703648d64",
        "url": "https://example.com/callback",
        "authentication": {"scheme": "jwt"}
    }]}});
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), expected);
    let task_id = a2a_types::v1::TaskId::from("de38c76d-d54c-436c-8b9f-4c2703648d64");
    assert_eq!(
        store.push_config_version(&task_id, task_id.as_str()).await,
        Ok(Some(a2a_types::protocol::ProtocolVersion::V0_1))
    );
}

/// Errors keep their 0.1 meaning: -32001 with an object `data`; a version that is not 0.1's on
/// a 0.1 method is not -32009 (0.1's "invalid task state") but -32600.
#[tokio::test]
async fn errors_in_the_0_1_shape() {
    let server = start(service()).await;
    // Without a header, a task that does not exist is no 0.1 task: the error is 0.3's, whose
    // `data` is the 1.0 details array; naming 0.1 gives the 0.1 shape.
    let get = r#"{"jsonrpc":"2.0","id":9,"method":"tasks/get","params":{"id":"nope"}}"#;
    assert_eq!(
        call(server.addr, get).await["error"]["data"][0]["reason"],
        "TASK_NOT_FOUND"
    );
    assert_eq!(
        call_with(server.addr, get, &[("A2A-Version", "0.1")]).await,
        json!({"jsonrpc": "2.0", "id": 9, "error": {
            "code": -32001,
            "message": "task nope not found",
            "data": {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org", "metadata": {"taskId": "nope"}}
        }})
    );
    let send = r#"{"jsonrpc":"2.0","id":10,"method":"tasks/send","params":{"id":"t","message":{"role":"user","parts":[{"type":"text","text":"x"}]}}}"#;
    let (_, _, text) = rpc_with(server.addr, send, &[("A2A-Version", "0.3")]).await;
    assert_eq!(
        normalized(&text),
        json!({"jsonrpc": "2.0", "id": 10, "error": {
            "code": -32600,
            "message": "A2A version `0.3` is not supported for this method, which is one of A2A 0.1; send it without A2A-Version (or with a version of A2A 0.1), or use the methods of the version you speak",
            "data": {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "VERSION_NOT_SUPPORTED", "domain": "a2a-protocol.org"}
        }})
    );
    let bad = r#"{"jsonrpc":"2.0","id":11,"method":"tasks/send","params":{"id":"t","message":{"role":"robot","parts":[]}}}"#;
    let answer = call(server.addr, bad).await;
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("message.role"),
        "{answer}"
    );
}

/// A client-chosen id that another caller's task holds is refused without saying whose it is:
/// the same answer as for an id a send of the same caller is still starting.
#[tokio::test]
async fn a_taken_id_reveals_nothing() {
    let authenticator = |head: &http::request::Parts| match head
        .headers
        .get("x-user")
        .and_then(|v| v.to_str().ok())
    {
        Some(user) => Ok(Some(Principal::new(user))),
        None => Err(AuthError::unauthorized("who are you?", "X-User")),
    };
    let server = start(
        builder(Arc::new(Semaphore::new(1000)))
            .authenticator(authenticator)
            .build(),
    )
    .await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tasks/send","params":{"id":"shared-id","message":{"role":"user","parts":[{"type":"text","text":"ask"}]}}}"#;
    let (_, _, text) = rpc_with(server.addr, body, &[("x-user", "alice")]).await;
    assert_eq!(
        normalized(&text)["result"]["status"]["state"],
        "input-required"
    );
    let (_, _, text) = rpc_with(server.addr, body, &[("x-user", "bob")]).await;
    assert_eq!(
        normalized(&text),
        json!({"jsonrpc": "2.0", "id": 1, "error": {
            "code": -32602,
            "message": "invalid params: task id `shared-id` cannot be used for a new task; choose another (a random UUID is safe)",
            "data": {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "INVALID_PARAMS", "domain": "a2a-protocol.org"}
        }})
    );
    // Bob cannot read it either, and alice continues it.
    let get = r#"{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"id":"shared-id"}}"#;
    let (_, _, text) = rpc_with(server.addr, get, &[("x-user", "bob")]).await;
    assert_eq!(normalized(&text)["error"]["code"], -32001);
    let follow_up = r#"{"jsonrpc":"2.0","id":3,"method":"tasks/send","params":{"id":"shared-id","message":{"role":"user","parts":[{"type":"text","text":"Rome"}]}}}"#;
    let (_, _, text) = rpc_with(server.addr, follow_up, &[("x-user", "alice")]).await;
    assert_eq!(normalized(&text)["result"]["status"]["state"], "completed");
}

/// Methods 0.1 and 0.3 share answer in the version that created the task, unless
/// `A2A-Version` names one.
#[tokio::test]
async fn shared_methods_answer_in_the_version_of_the_task() {
    let server = start(service()).await;
    let send01 = r#"{"jsonrpc":"2.0","id":1,"method":"tasks/send","params":{"id":"t-01","sessionId":"s","message":{"role":"user","parts":[{"type":"text","text":"x"}]}}}"#;
    call(server.addr, send01).await;
    let get =
        r#"{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"id":"t-01","historyLength":0}}"#;
    let as_0_1 = json!({"jsonrpc": "2.0", "id": 2, "result": {
        "id": "t-01", "sessionId": "s",
        "status": {"state": "completed", "timestamp": "<timestamp>"},
        "artifacts": [{"parts": [{"type": "text", "text": "x"}], "index": 1_419_629_700u32}]
    }});
    let as_0_3 = json!({"jsonrpc": "2.0", "id": 2, "result": {
        "kind": "task", "id": "t-01", "contextId": "s",
        "status": {"state": "completed", "timestamp": "<timestamp>"},
        "artifacts": [{"artifactId": "echo", "parts": [{"kind": "text", "text": "x"}]}]
    }});
    assert_eq!(call(server.addr, get).await, as_0_1);
    assert_eq!(
        call_with(server.addr, get, &[("A2A-Version", "0.1")]).await,
        as_0_1
    );
    assert_eq!(
        call_with(server.addr, get, &[("A2A-Version", "0.3")]).await,
        as_0_3
    );
    let (_, _, text) = rpc_with(server.addr, get, &[("A2A-Version", "0.9")]).await;
    assert_eq!(normalized(&text)["error"]["code"], -32009);

    // A task created through 0.3 is 0.3 without a header.
    let send03 = r#"{"jsonrpc":"2.0","id":3,"method":"message/send","params":{"message":{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"x"}]}}}"#;
    let (_, _, text) = rpc_with(server.addr, send03, &[]).await;
    let created: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(created["result"]["kind"], "task", "{text}");
    let id = created["result"]["id"].as_str().unwrap();
    let get = format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"tasks/get","params":{{"id":"{id}","historyLength":0}}}}"#
    );
    assert_eq!(call(server.addr, &get).await["result"]["kind"], "task");
    let as_0_1 = call_with(server.addr, &get, &[("A2A-Version", "0.1")]).await;
    assert_eq!(as_0_1["result"]["sessionId"], "<uuid>");
    assert_eq!(as_0_1["result"].get("kind"), None);
}
