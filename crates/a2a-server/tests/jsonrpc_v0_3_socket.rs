//! A2A 0.3 (and 0.2) on the JSON-RPC endpoint, over real sockets: requests as the 0.3
//! specification's examples (`tests/fixtures/v0_3`) and the SDKs' 0.3 clients send them
//! (`A2A-Version: 0.3` from the Python SDK's compat client, none from older clients), literal
//! 0.3 answers.

mod common;

use std::sync::Arc;
use std::time::Duration;

use a2a_server::{A2aService, HandlerConfig};
use a2a_types::protocol::ProtocolVersion;
use a2a_types::v1::{AgentCapabilities, AgentCard, AgentSkill};
use common::{
    Events, normalize, normalized, rpc, rpc_request, rpc_with, scripted_agent, send, start,
};
use http::StatusCode;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

fn card() -> AgentCard {
    AgentCard::new("Test", "A test agent", "1.0.0")
        .with_capabilities(
            AgentCapabilities::default()
                .with_streaming(true)
                .with_push_notifications(true)
                .with_extended_agent_card(true),
        )
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"])
        .with_skills([AgentSkill::new("echo", "Echo", "Echoes", ["echo"])])
}

fn service_with(gate: Arc<Semaphore>) -> A2aService {
    A2aService::builder(scripted_agent(gate), card())
        .public_url("http://127.0.0.1:7420")
        .extended_card({
            let mut extended = card();
            extended.description = "The extended card".to_owned();
            extended
        })
        .handler_config(HandlerConfig::default().with_cancel_grace(Duration::from_millis(200)))
        // Push delivery on: the card declares push notifications, push configs are taken.
        .push(a2a_server::push::PushSettings::default())
        .build()
}

fn service() -> A2aService {
    service_with(Arc::new(Semaphore::new(1000)))
}

/// The headers of the Python SDK's 0.3 client.
const V0_3: &[(&str, &str)] = &[("A2A-Version", "0.3")];

async fn call(addr: std::net::SocketAddr, body: &str) -> Value {
    let (status, headers, text) = rpc_with(addr, body, V0_3).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert_eq!(headers["content-type"], "application/json");
    normalized(&text)
}

/// The events of a stream, normalized.
async fn events(response: http::Response<hyper::body::Incoming>) -> Vec<Value> {
    let mut data: Vec<Value> = Events::new(response)
        .collect()
        .await
        .into_iter()
        .map(|(_, data)| data)
        .collect();
    data.iter_mut().for_each(normalize);
    data
}

/// 0.3 §9.2: `message/send` answers the bare task, `kind`-tagged; its id then serves
/// `tasks/get`.
#[tokio::test]
async fn message_send_answers_a_bare_task() {
    let server = start(service()).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"role":"user","parts":[{"kind":"text","text":"tell me a joke"}],"messageId":"9229e770-767c-417b-a0b0-f0741243c589","kind":"message"},"metadata":{}}}"#;
    let expected = json!({"jsonrpc": "2.0", "id": 1, "result": {
        "kind": "task",
        "id": "<uuid>",
        "contextId": "<uuid>",
        "status": {"state": "completed", "timestamp": "<timestamp>"},
        "artifacts": [{"artifactId": "echo", "parts": [{"kind": "text", "text": "tell me a joke"}]}],
        "history": [{
            "kind": "message",
            "messageId": "<uuid>",
            "role": "user",
            "parts": [{"kind": "text", "text": "tell me a joke"}],
            "contextId": "<uuid>",
            "taskId": "<uuid>"
        }]
    }});
    let (_, _, text) = rpc_with(server.addr, body, V0_3).await;
    let answer: Value = serde_json::from_str(&text).unwrap();
    let mut shown = answer.clone();
    normalize(&mut shown);
    assert_eq!(shown, expected);
    // The same call without A2A-Version (older 0.3 and 0.2 clients send none).
    assert_eq!(
        normalized(&rpc_with(server.addr, body, &[]).await.2),
        expected
    );

    let id = answer["result"]["id"].as_str().unwrap();
    let get = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{{"id":"{id}","historyLength":0}}}}"#
    );
    let mut got = call(server.addr, &get).await;
    assert_eq!(got["id"], 3);
    got["id"] = json!(1);
    let mut without_history = expected.clone();
    without_history["result"]
        .as_object_mut()
        .unwrap()
        .remove("history");
    assert_eq!(got, without_history);
}

/// A direct reply is the bare message.
#[tokio::test]
async fn message_send_answers_a_bare_message() {
    let server = start(service()).await;
    let body = r#"{"jsonrpc":"2.0","id":"r1","method":"message/send","params":{"message":{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"hello"}]},"configuration":{"acceptedOutputModes":["text/plain"],"blocking":true}}}"#;
    assert_eq!(
        call(server.addr, body).await,
        json!({"jsonrpc": "2.0", "id": "r1", "result": {
            "kind": "message",
            "messageId": "<uuid>",
            "role": "agent",
            "parts": [{"kind": "text", "text": "hi!"}],
            "contextId": "<uuid>"
        }})
    );
}

/// 0.3 §9.3: `message/stream` streams `kind`-tagged events; status updates carry `final`.
#[tokio::test]
async fn message_stream_events_are_kind_tagged_with_final() {
    let server = start(service()).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"message/stream","params":{"message":{"role":"user","parts":[{"kind":"text","text":"chunks 2"}],"messageId":"bbb7dee1-cf5c-4683-8a6f-4114529da5eb","kind":"message"},"metadata":{}}}"#;
    let response = send(server.addr, rpc_request(body, V0_3)).await;
    let chunk = |text: &str, append: bool, last: bool| {
        let mut event = json!({"kind": "artifact-update", "taskId": "<uuid>", "contextId": "<uuid>",
            "artifact": {"artifactId": "chunks", "parts": [{"kind": "text", "text": text}]}});
        if append {
            event["append"] = json!(true);
        }
        if last {
            event["lastChunk"] = json!(true);
        }
        json!({"jsonrpc": "2.0", "id": 1, "result": event})
    };
    let status = |state: &str, last: bool| {
        json!({"jsonrpc": "2.0", "id": 1, "result": {"kind": "status-update", "taskId": "<uuid>",
            "contextId": "<uuid>", "status": {"state": state, "timestamp": "<timestamp>"}, "final": last}})
    };
    assert_eq!(
        events(response).await,
        [
            json!({"jsonrpc": "2.0", "id": 1, "result": {
                "kind": "task", "id": "<uuid>", "contextId": "<uuid>",
                "status": {"state": "submitted", "timestamp": "<timestamp>"},
                "history": [{"kind": "message", "messageId": "<uuid>", "role": "user",
                    "parts": [{"kind": "text", "text": "chunks 2"}], "contextId": "<uuid>", "taskId": "<uuid>"}]
            }}),
            status("working", false),
            chunk("c0", false, false),
            chunk("c1", true, true),
            status("completed", true),
        ]
    );
}

/// A 1.0 client and a 0.3 client follow the same task at once; each sees every event, in its
/// own shape.
#[tokio::test]
async fn a_1_0_and_a_0_3_client_stream_the_same_task() {
    let gate = Arc::new(Semaphore::new(0));
    let server = start(service_with(gate.clone())).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"message/stream","params":{"message":{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"chunks 2"}]}}}"#;
    let mut legacy = Events::new(send(server.addr, rpc_request(body, V0_3)).await);
    let (_, first) = legacy.next().await.unwrap();
    let task_id = first["result"]["id"].as_str().unwrap().to_owned();
    let (_, working) = legacy.next().await.unwrap();
    assert_eq!(working["result"]["status"]["state"], "working");
    let subscribe = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"SubscribeToTask","params":{{"id":"{task_id}"}}}}"#
    );
    let current = send(
        server.addr,
        rpc_request(&subscribe, &[("A2A-Version", "1.0")]),
    )
    .await;
    gate.add_permits(2);
    let mut rest = Vec::new();
    while let Some((_, mut data)) = legacy.next().await {
        normalize(&mut data);
        rest.push(data);
    }
    assert_eq!(
        rest,
        [
            json!({"jsonrpc": "2.0", "id": 1, "result": {"kind": "artifact-update", "taskId": "<uuid>", "contextId": "<uuid>",
                "artifact": {"artifactId": "chunks", "parts": [{"kind": "text", "text": "c0"}]}}}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {"kind": "artifact-update", "taskId": "<uuid>", "contextId": "<uuid>",
                "artifact": {"artifactId": "chunks", "parts": [{"kind": "text", "text": "c1"}]}, "append": true, "lastChunk": true}}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {"kind": "status-update", "taskId": "<uuid>", "contextId": "<uuid>",
                "status": {"state": "completed", "timestamp": "<timestamp>"}, "final": true}}),
        ]
    );
    assert_eq!(
        events(current).await,
        [
            json!({"jsonrpc": "2.0", "id": 2, "result": {"task": {
                "id": "<uuid>", "contextId": "<uuid>",
                "status": {"state": "TASK_STATE_WORKING", "timestamp": "<timestamp>"},
                "history": [{"messageId": "m-1", "contextId": "<uuid>", "taskId": "<uuid>", "role": "ROLE_USER", "parts": [{"text": "chunks 2"}]}]
            }}}),
            json!({"jsonrpc": "2.0", "id": 2, "result": {"artifactUpdate": {"taskId": "<uuid>", "contextId": "<uuid>",
                "artifact": {"artifactId": "chunks", "parts": [{"text": "c0"}]}}}}),
            json!({"jsonrpc": "2.0", "id": 2, "result": {"artifactUpdate": {"taskId": "<uuid>", "contextId": "<uuid>",
                "artifact": {"artifactId": "chunks", "parts": [{"text": "c1"}]}, "append": true, "lastChunk": true}}}),
            json!({"jsonrpc": "2.0", "id": 2, "result": {"statusUpdate": {"taskId": "<uuid>", "contextId": "<uuid>",
                "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "<timestamp>"}}}}),
        ]
    );
}

/// `tasks/resubscribe` (0.3 shape) starts with the task as it stands, then its events;
/// `tasks/cancel` answers the canceled task.
#[tokio::test]
async fn resubscribe_and_cancel() {
    let server = start(service()).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"wait"}]},"configuration":{"blocking":false}}}"#;
    let (_, _, text) = rpc_with(server.addr, body, V0_3).await;
    let task: Value = serde_json::from_str(&text).unwrap();
    let id = task["result"]["id"].as_str().unwrap();
    let resubscribe = format!(
        r#"{{"jsonrpc":"2.0","id":8,"method":"tasks/resubscribe","params":{{"id":"{id}"}}}}"#
    );
    let mut stream = Events::new(send(server.addr, rpc_request(&resubscribe, V0_3)).await);
    let (_, mut first) = stream.next().await.unwrap();
    normalize(&mut first);
    assert_eq!(first["result"]["kind"], "task");
    let cancel = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tasks/cancel","params":{{"id":"{id}","metadata":{{}}}}}}"#
    );
    let canceled = call(server.addr, &cancel).await;
    assert_eq!(canceled["result"]["kind"], "task");
    assert_eq!(canceled["result"]["status"]["state"], "canceled");
    let mut last = Value::Null;
    while let Some((_, data)) = stream.next().await {
        last = data;
    }
    normalize(&mut last);
    assert_eq!(
        last,
        json!({"jsonrpc": "2.0", "id": 8, "result": {"kind": "status-update", "taskId": "<uuid>", "contextId": "<uuid>",
            "status": {"state": "canceled", "timestamp": "<timestamp>"}, "final": true}})
    );
    // Canceling it again is idempotent; a task that does not exist is -32001.
    assert_eq!(
        call(server.addr, &cancel).await["result"]["status"]["state"],
        "canceled"
    );
    let missing = r#"{"jsonrpc":"2.0","id":3,"method":"tasks/cancel","params":{"id":"task-1"}}"#;
    assert_eq!(
        call(server.addr, missing).await,
        json!({"jsonrpc": "2.0", "id": 3, "error": {
            "code": -32001,
            "message": "task task-1 not found",
            "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org", "metadata": {"taskId": "task-1"}}]
        }})
    );
}

/// A 0.3 subscription that fails before its stream starts (an unknown task, bad params) is
/// still the stream 0.3 §7.9 describes: 200, `text/event-stream`, one event whose data is the
/// JSON-RPC error response, then the end. That is what the SDKs' 0.3 servers send and the
/// only answer their 0.3 clients read as the A2A error (a JSON body fails their SSE reading).
#[tokio::test]
async fn a_failed_subscription_is_a_stream_of_one_error() {
    let server = start(service()).await;
    let cases = [
        (
            r#"{"jsonrpc":"2.0","id":9,"method":"tasks/resubscribe","params":{"id":"no-such-task"}}"#,
            json!({"jsonrpc": "2.0", "id": 9, "error": {
                "code": -32001,
                "message": "task no-such-task not found",
                "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org", "metadata": {"taskId": "no-such-task"}}]
            }}),
        ),
        (
            r#"{"jsonrpc":"2.0","id":"s","method":"message/stream","params":{"message":{"kind":"message","role":"user","parts":[{"kind":"text","text":"x"}],"messageId":"m-1","taskId":"no-such-task"}}}"#,
            json!({"jsonrpc": "2.0", "id": "s", "error": {
                "code": -32001,
                "message": "task no-such-task not found",
                "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org", "metadata": {"taskId": "no-such-task"}}]
            }}),
        ),
    ];
    for (body, expected) in cases {
        let response = send(server.addr, rpc_request(body, V0_3)).await;
        assert_eq!(response.status(), StatusCode::OK, "{body}");
        assert_eq!(
            response.headers()["content-type"],
            "text/event-stream",
            "{body}"
        );
        let events: Vec<Value> = Events::new(response)
            .collect()
            .await
            .into_iter()
            .map(|(_, data)| data)
            .collect();
        assert_eq!(events, [expected], "{body}");
    }
}

/// The four push configuration methods, with the 0.3 shapes (`pushNotificationConfig`,
/// `authentication.schemes`); a configuration without id takes the task's.
#[tokio::test]
async fn push_notification_configs() {
    let service = service();
    let store = service.handler().store().clone();
    let server = start(service).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"ask"}]}}}"#;
    let (_, _, text) = rpc_with(server.addr, body, V0_3).await;
    let id = serde_json::from_str::<Value>(&text).unwrap()["result"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let set = |config_id: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"tasks/pushNotificationConfig/set","params":{{"taskId":"{id}","pushNotificationConfig":{{{config_id}"url":"https://client.example.com/webhook","token":"secure-token","authentication":{{"schemes":["Bearer"],"credentials":"c"}}}}}}}}"#
        )
    };
    let config = |config_id: &str| {
        json!({"taskId": "<uuid>", "pushNotificationConfig": {
            "id": config_id, "url": "https://client.example.com/webhook", "token": "secure-token",
            "authentication": {"schemes": ["Bearer"], "credentials": "c"}
        }})
    };
    assert_eq!(
        call(server.addr, &set(r#""id":"hook-1","#)).await,
        json!({"jsonrpc": "2.0", "id": 2, "result": config("hook-1")})
    );
    // Without an id: the task's.
    assert_eq!(
        call(server.addr, &set("")).await,
        json!({"jsonrpc": "2.0", "id": 2, "result": config("<uuid>")})
    );
    // The store remembers that they were registered through 0.3 (their deliveries' shape).
    let task_id = a2a_types::v1::TaskId::from(id.clone());
    assert_eq!(
        store.push_config_version(&task_id, "hook-1").await,
        Ok(Some(ProtocolVersion::V0_3))
    );
    assert_eq!(
        store.push_config_version(&task_id, &id).await,
        Ok(Some(ProtocolVersion::V0_3))
    );
    let get = format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"tasks/pushNotificationConfig/get","params":{{"id":"{id}","pushNotificationConfigId":"hook-1"}}}}"#
    );
    assert_eq!(
        call(server.addr, &get).await,
        json!({"jsonrpc": "2.0", "id": 4, "result": config("hook-1")})
    );
    // The TaskIdParams form: the configuration under the task's id.
    let get = format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"tasks/pushNotificationConfig/get","params":{{"id":"{id}"}}}}"#
    );
    assert_eq!(
        call(server.addr, &get).await,
        json!({"jsonrpc": "2.0", "id": 4, "result": config("<uuid>")})
    );
    let list = format!(
        r#"{{"jsonrpc":"2.0","id":5,"method":"tasks/pushNotificationConfig/list","params":{{"id":"{id}"}}}}"#
    );
    assert_eq!(
        call(server.addr, &list).await,
        json!({"jsonrpc": "2.0", "id": 5, "result": [config("hook-1"), config("<uuid>")]})
    );
    let delete = format!(
        r#"{{"jsonrpc":"2.0","id":6,"method":"tasks/pushNotificationConfig/delete","params":{{"id":"{id}","pushNotificationConfigId":"hook-1"}}}}"#
    );
    assert_eq!(
        call(server.addr, &delete).await,
        json!({"jsonrpc": "2.0", "id": 6, "result": null})
    );
    assert_eq!(
        call(server.addr, &list).await["result"],
        json!([config("<uuid>")])
    );
    assert_eq!(
        store.push_config_version(&task_id, "hook-1").await,
        Ok(None)
    );
}

/// 0.3 §9.1: `agent/getAuthenticatedExtendedCard` (no params) answers the extended card in
/// the 0.3 shape.
#[tokio::test]
async fn authenticated_extended_card() {
    let server = start(service()).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"agent/getAuthenticatedExtendedCard"}"#;
    let card = call(server.addr, body).await;
    assert_eq!(
        card,
        json!({"jsonrpc": "2.0", "id": 1, "result": {
            "protocolVersion": "0.3.0",
            "name": "Test",
            "description": "The extended card",
            "url": "http://127.0.0.1:7420/",
            "preferredTransport": "JSONRPC",
            "additionalInterfaces": [
                {"url": "http://127.0.0.1:7420/", "transport": "JSONRPC"},
                {"url": "http://127.0.0.1:7420", "transport": "HTTP+JSON"}
            ],
            "version": "1.0.0",
            "capabilities": {"streaming": true, "pushNotifications": true},
            "defaultInputModes": ["text/plain"],
            "defaultOutputModes": ["text/plain"],
            "skills": [{"id": "echo", "name": "Echo", "description": "Echoes", "tags": ["echo"]}],
            "supportsAuthenticatedExtendedCard": true
        }})
    );
}

/// Versions: `0.2.x` and `0.3.x` and none are 0.3; a 1.x header lets the method name decide;
/// anything else is -32009. A 1.0 method without the header is still -32009.
#[tokio::test]
async fn versions() {
    let server = start(service()).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"hello"}]}}}"#;
    for version in ["0.2", "0.2.5", "0.3.0", "1.0"] {
        let (_, _, text) = rpc_with(server.addr, body, &[("A2A-Version", version)]).await;
        assert_eq!(normalized(&text)["result"]["kind"], "message", "{version}");
    }
    for version in ["0.1", "2.0", "0.4"] {
        let (_, _, text) = rpc_with(server.addr, body, &[("A2A-Version", version)]).await;
        assert_eq!(
            normalized(&text),
            json!({"jsonrpc": "2.0", "id": 1, "error": {
                "code": -32009,
                "message": format!("A2A version `{version}` is not supported for this method, which is one of A2A 0.2/0.3; send it without A2A-Version (or with a version of A2A 0.2/0.3), or use the methods of the version you speak"),
                "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "VERSION_NOT_SUPPORTED", "domain": "a2a-protocol.org"}]
            }}),
            "{version}"
        );
    }
    let v1 = r#"{"jsonrpc":"2.0","id":2,"method":"SendMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hello"}]}}}"#;
    assert_eq!(
        normalized(&rpc_with(server.addr, v1, V0_3).await.2)["error"]["code"],
        -32009
    );
    assert_eq!(
        normalized(&rpc(server.addr, v1).await.2)["result"]["message"]["role"],
        "ROLE_AGENT"
    );
}

/// A batch mixes versions: each call answers in its own.
#[tokio::test]
async fn a_batch_of_several_versions() {
    let server = start(service()).await;
    let body = r#"[
        {"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"hello"}]}}},
        {"jsonrpc":"2.0","id":2,"method":"tasks/send","params":{"id":"t-batch","sessionId":"s-b","message":{"role":"user","parts":[{"type":"text","text":"hello"}]}}},
        {"jsonrpc":"2.0","id":3,"method":"message/stream","params":{"message":{"kind":"message","messageId":"m-2","role":"user","parts":[{"kind":"text","text":"hello"}]}}}
    ]"#;
    let (_, _, text) = rpc_with(server.addr, body, &[]).await;
    assert_eq!(
        normalized(&text),
        json!([
            {"jsonrpc": "2.0", "id": 1, "result": {"kind": "message", "messageId": "<uuid>", "role": "agent", "parts": [{"kind": "text", "text": "hi!"}], "contextId": "<uuid>"}},
            {"jsonrpc": "2.0", "id": 2, "result": {"id": "t-batch", "status": {"state": "completed", "message": {"role": "agent", "parts": [{"type": "text", "text": "hi!"}]}}, "sessionId": "s-b"}},
            {"jsonrpc": "2.0", "id": 3, "error": {"code": -32600, "message": "invalid request: message/stream streams its answer and cannot be part of a batch"}}
        ])
    );
}
