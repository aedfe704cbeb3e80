//! The eleven operations, each called once through each HTTP binding in its 1.0 version (the
//! binding decodes the call, `RequestHandler::call` or `open` runs it, the binding encodes the
//! answer): a send that completes, a streamed send, a send that asks for input, `GetTask`,
//! `ListTasks`, `SubscribeToTask` of the interrupted task, `CancelTask` of it, the four push
//! configuration operations and `GetExtendedAgentCard`.

mod common;

use std::sync::Arc;

use a2a_server::A2aService;
use a2a_server::push::PushSettings;
use a2a_types::v1::{AgentCapabilities, AgentCard};
use common::{Events, normalized, rpc, rpc_request, scripted_agent, send, start};
use http::StatusCode;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

fn card() -> AgentCard {
    AgentCard::new("ops", "every operation", "1.0.0").with_capabilities(
        AgentCapabilities::default()
            .with_streaming(true)
            .with_push_notifications(true)
            .with_extended_agent_card(true),
    )
}

fn service() -> A2aService {
    let agent = scripted_agent(Arc::new(tokio::sync::Semaphore::new(0)));
    A2aService::builder(agent, card())
        .extended_card(AgentCard::new("ops", "every operation, in full", "1.0.0"))
        .push(PushSettings::default().allow("127.0.0.1".parse().unwrap()))
        .build()
}

/// A 1.0 message of this text.
fn message(text: &str) -> Value {
    json!({"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":text}]}})
}

/// The task of an echo of `text`, completed, as every binding's 1.0 JSON has it.
fn echoed(text: &str) -> Value {
    json!({"id":"<uuid>","contextId":"<uuid>",
        "status":{"state":"TASK_STATE_COMPLETED","timestamp":"<timestamp>"},
        "artifacts":[{"artifactId":"echo","parts":[{"text":text}]}],
        "history":[{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":text}],
            "taskId":"<uuid>","contextId":"<uuid>"}]})
}

/// A push configuration of `task`, as it was created.
fn hook(task: &str) -> Value {
    json!({"id":"hook-1","taskId":task,"url":"http://127.0.0.1:9/hook","token":"secret"})
}

#[tokio::test]
async fn json_rpc_walks_every_operation() {
    let server = start(service()).await;
    let mut next_id = 0;
    let mut call = async |method: &str, params: Value| -> Value {
        next_id += 1;
        let body = json!({"jsonrpc":"2.0","id":next_id,"method":method,"params":params});
        let (status, _, body) = rpc(server.addr, &body.to_string()).await;
        assert_eq!(status, StatusCode::OK, "{method}: {body}");
        let response: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(response["id"], next_id, "{method}");
        response
    };

    // SendMessage: the task, completed.
    let sent = call("SendMessage", message("ping")).await;
    let task = sent["result"]["task"]["id"].as_str().unwrap().to_owned();
    assert_eq!(
        normalized(&sent["result"].to_string()),
        json!({"task": echoed("ping")})
    );

    // SendStreamingMessage: the task, then its events, as JSON-RPC responses with event ids.
    let body =
        json!({"jsonrpc":"2.0","id":"s","method":"SendStreamingMessage","params":message("pong")});
    let request = rpc_request(&body.to_string(), &[("A2A-Version", "1.0")]);
    let events = Events::new(send(server.addr, request).await)
        .collect()
        .await;
    let kinds: Vec<(Option<String>, Vec<&String>)> = events
        .iter()
        .map(|(id, data)| {
            assert_eq!(data["id"], "s");
            let kinds = data["result"].as_object().unwrap().keys().collect();
            (id.clone(), kinds)
        })
        .collect();
    let ids = |n: usize| Some(n.to_string());
    assert_eq!(
        kinds,
        [
            (ids(1), vec![&"task".to_owned()]),
            (ids(2), vec![&"statusUpdate".to_owned()]),
            (ids(3), vec![&"artifactUpdate".to_owned()]),
            (ids(4), vec![&"statusUpdate".to_owned()]),
        ]
    );

    // A send that asks for input.
    let asked = call("SendMessage", message("ask")).await;
    let waiting = asked["result"]["task"]["id"].as_str().unwrap().to_owned();
    assert_eq!(
        asked["result"]["task"]["status"]["state"],
        "TASK_STATE_INPUT_REQUIRED"
    );

    // GetTask.
    let got = call("GetTask", json!({"id": task})).await;
    assert_eq!(normalized(&got["result"].to_string()), echoed("ping"));

    // ListTasks: the three, newest status first.
    let listed = call("ListTasks", json!({})).await;
    let states: Vec<&Value> = listed["result"]["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["status"]["state"])
        .collect();
    assert_eq!(
        states,
        [
            "TASK_STATE_INPUT_REQUIRED",
            "TASK_STATE_COMPLETED",
            "TASK_STATE_COMPLETED"
        ]
    );
    assert_eq!(listed["result"]["totalSize"], 3);

    // SubscribeToTask of the waiting task: the task as it is first (the stream stays open
    // for its next events).
    let body =
        json!({"jsonrpc":"2.0","id":"sub","method":"SubscribeToTask","params":{"id": waiting}});
    let request = rpc_request(&body.to_string(), &[("A2A-Version", "1.0")]);
    let mut events = Events::new(send(server.addr, request).await);
    let (id, first) = events.next().await.unwrap();
    assert_eq!(id.as_deref(), Some("2"));
    assert_eq!(first["id"], "sub");
    assert_eq!(first["result"]["task"]["id"], waiting.as_str());

    // CancelTask of it; the subscription gets the canceled status, and ends.
    let canceled = call("CancelTask", json!({"id": waiting})).await;
    assert_eq!(canceled["result"]["status"]["state"], "TASK_STATE_CANCELED");
    let rest = events.collect().await;
    assert_eq!(rest.len(), 1, "{rest:?}");
    assert_eq!(
        rest[0].1["result"]["statusUpdate"]["status"]["state"],
        "TASK_STATE_CANCELED"
    );

    // The push configuration operations.
    let created = call(
        "CreateTaskPushNotificationConfig",
        json!({"taskId": task, "id":"hook-1","url":"http://127.0.0.1:9/hook","token":"secret"}),
    )
    .await;
    assert_eq!(created["result"], hook(&task));
    let got = call(
        "GetTaskPushNotificationConfig",
        json!({"taskId": task, "id":"hook-1"}),
    )
    .await;
    assert_eq!(got["result"], hook(&task));
    let listed = call("ListTaskPushNotificationConfigs", json!({"taskId": task})).await;
    assert_eq!(listed["result"], json!({"configs":[hook(&task)]}));
    let deleted = call(
        "DeleteTaskPushNotificationConfig",
        json!({"taskId": task, "id":"hook-1"}),
    )
    .await;
    assert_eq!(deleted["result"], json!({}));

    // GetExtendedAgentCard.
    let card = call("GetExtendedAgentCard", json!({})).await;
    assert_eq!(card["result"]["description"], "every operation, in full");
}

#[tokio::test]
async fn rest_walks_every_operation() {
    use bytes::Bytes;
    use http_body_util::{BodyExt as _, Full};

    let server = start(service()).await;
    let request = |method: &str, path: &str, body: Option<Value>| {
        let body = body.map_or_else(Bytes::new, |b| Bytes::from(b.to_string()));
        http::Request::builder()
            .method(method)
            .uri(path)
            .header("host", "test")
            .header("a2a-version", "1.0")
            .header("content-type", "application/a2a+json")
            .body(Full::new(body))
            .unwrap()
    };
    let call = async |method: &str, path: &str, body: Option<Value>| -> Value {
        let response = send(server.addr, request(method, path, body)).await;
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8(bytes.to_vec()).unwrap();
        assert_eq!(status, StatusCode::OK, "{method} {path}: {text}");
        serde_json::from_str(&text).unwrap()
    };

    // SendMessage.
    let sent = call("POST", "/message:send", Some(message("ping"))).await;
    let task = sent["task"]["id"].as_str().unwrap().to_owned();
    assert_eq!(
        normalized(&sent.to_string()),
        json!({"task": echoed("ping")})
    );

    // SendStreamingMessage: bare StreamResponses with event ids.
    let response = send(
        server.addr,
        request("POST", "/message:stream", Some(message("pong"))),
    )
    .await;
    let events = Events::new(response).collect().await;
    let kinds: Vec<(Option<String>, Vec<String>)> = events
        .iter()
        .map(|(id, data)| {
            (
                id.clone(),
                data.as_object().unwrap().keys().cloned().collect(),
            )
        })
        .collect();
    let event = |id: &str, kind: &str| (Some(id.to_owned()), vec![kind.to_owned()]);
    assert_eq!(
        kinds,
        [
            event("1", "task"),
            event("2", "statusUpdate"),
            event("3", "artifactUpdate"),
            event("4", "statusUpdate"),
        ]
    );

    // A send that asks for input.
    let asked = call("POST", "/message:send", Some(message("ask"))).await;
    let waiting = asked["task"]["id"].as_str().unwrap().to_owned();
    assert_eq!(
        asked["task"]["status"]["state"],
        "TASK_STATE_INPUT_REQUIRED"
    );

    // GetTask, ListTasks.
    let got = call("GET", &format!("/tasks/{task}"), None).await;
    assert_eq!(normalized(&got.to_string()), echoed("ping"));
    let listed = call("GET", "/tasks?pageSize=2", None).await;
    assert_eq!(listed["tasks"].as_array().unwrap().len(), 2);
    assert_eq!(listed["totalSize"], 3);
    assert!(
        listed["nextPageToken"]
            .as_str()
            .is_some_and(|t| !t.is_empty())
    );

    // SubscribeToTask of the waiting task: the task first; CancelTask ends it.
    let response = send(
        server.addr,
        request("GET", &format!("/tasks/{waiting}:subscribe"), None),
    )
    .await;
    let mut events = Events::new(response);
    let (id, first) = events.next().await.unwrap();
    assert_eq!(id.as_deref(), Some("2"));
    assert_eq!(first["task"]["id"], waiting.as_str());
    let canceled = call("POST", &format!("/tasks/{waiting}:cancel"), None).await;
    assert_eq!(canceled["status"]["state"], "TASK_STATE_CANCELED");
    let rest = events.collect().await;
    assert_eq!(rest.len(), 1, "{rest:?}");
    assert_eq!(
        rest[0].1["statusUpdate"]["status"]["state"],
        "TASK_STATE_CANCELED"
    );

    // The push configuration operations.
    let configs = format!("/tasks/{task}/pushNotificationConfigs");
    let created = call(
        "POST",
        &configs,
        Some(json!({"id":"hook-1","url":"http://127.0.0.1:9/hook","token":"secret"})),
    )
    .await;
    assert_eq!(created, hook(&task));
    let got = call("GET", &format!("{configs}/hook-1"), None).await;
    assert_eq!(got, hook(&task));
    let listed = call("GET", &configs, None).await;
    assert_eq!(listed, json!({"configs":[hook(&task)]}));
    let deleted = call("DELETE", &format!("{configs}/hook-1"), None).await;
    assert_eq!(deleted, json!({}));

    // GetExtendedAgentCard.
    let card = call("GET", "/extendedAgentCard", None).await;
    assert_eq!(card["description"], "every operation, in full");
}
