//! The flat JSON-RPC dialect (PromptKit's; issue 23's seed 003) against a server scripted to
//! answer as the seed page says: its card at `/.well-known/agent.json` naming no endpoint,
//! `POST /a2a`, bare results with lowercase states, bare stream events.

mod common;

use a2a_client::{A2aClient, ClientBuilder, Error};
use a2a_types::v1::{
    CancelTaskRequest, GetTaskRequest, ListTasksRequest, Message, Part, Role, SendMessageRequest,
    SendMessageResponse, StreamResponse, TaskState,
};
use common::{Scripted, json, result, sse};
use futures_util::StreamExt as _;
use pretty_assertions::assert_eq;
use serde_json::json;

/// The seed's card, as written there.
const CARD: &str = r#"{
  "name": "Research Agent",
  "description": "Searches academic papers on a given topic",
  "version": "1.0.0",
  "capabilities": {
    "streaming": true
  },
  "skills": [
    {
      "id": "search_papers",
      "name": "Search Papers",
      "description": "Search for academic papers on a given topic",
      "tags": ["research", "papers"]
    }
  ],
  "defaultInputModes": ["text/plain"],
  "defaultOutputModes": ["text/plain"]
}"#;

fn task(state: &str) -> serde_json::Value {
    json!({
        "id": "abc123", "contextId": "ctx456",
        "status": {"state": state, "message": {"messageId": "a-1", "role": "agent", "parts": [{"text": "Which year?"}]}},
        "artifacts": [{"artifactId": "artifact-0", "parts": [{"text": "The capital is Paris."}]}],
        "history": [{"messageId": "m-1", "contextId": "ctx456", "taskId": "abc123", "role": "user", "parts": [{"text": "What is the capital of France?"}]}]
    })
}

async fn seed_server() -> Scripted {
    Scripted::start(|_, seen| {
        Some(match (seen.method.as_str(), seen.path.as_str()) {
            ("GET", "/.well-known/agent.json") => json(200, CARD),
            ("GET", _) => json(404, "{}"),
            ("POST", "/a2a") => {
                let body = seen.json();
                match body["method"].as_str().unwrap_or("") {
                    "message/send" => result(seen, task("completed")),
                    "tasks/get" => result(seen, task("input_required")),
                    "tasks/cancel" => result(seen, task("canceled")),
                    "tasks/list" => result(seen, json!({"tasks": [task("working")], "pageSize": 100})),
                    "message/stream" | "tasks/subscribe" => sse(concat!(
                        "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"taskId\":\"abc123\",\"contextId\":\"ctx456\",\"status\":{\"state\":\"working\"}}}\n\n",
                        "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"taskId\":\"abc123\",\"contextId\":\"ctx456\",\"artifact\":{\"artifactId\":\"artifact-0\",\"parts\":[{\"text\":\"The capital\"}]},\"append\":true}}\n\n",
                        "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"taskId\":\"abc123\",\"contextId\":\"ctx456\",\"status\":{\"state\":\"completed\"}}}\n\n",
                    ).as_bytes()),
                    _ => json(200, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found"}}"#),
                }
            }
            _ => json(405, "{}"),
        })
    })
    .await
}

async fn client(server: &Scripted) -> A2aClient {
    ClientBuilder::new()
        .allow_legacy(true)
        .connect(&server.url())
        .await
        .unwrap()
}

#[tokio::test]
async fn the_seeds_card_reads_as_the_flat_interface_at_a2a() {
    let card = a2a_types::card::parse(CARD).unwrap();
    assert_eq!(
        serde_json::to_value(&card.supported_interfaces).unwrap(),
        json!([{"url": "/a2a", "protocolBinding": "FLAT-JSONRPC", "protocolVersion": "0.3"}])
    );
    let server = seed_server().await;
    let client = client(&server).await;
    assert_eq!(client.card().name, "Research Agent");
    assert_eq!(
        client.endpoint().to_string(),
        format!("{}/a2a", server.url())
    );
    // Without consent to legacy versions, the dialect is not used.
    let refused = ClientBuilder::new()
        .connect(&server.url())
        .await
        .unwrap_err();
    assert!(matches!(refused, Error::LegacyOnly { .. }), "{refused:?}");
}

#[tokio::test]
async fn message_send_sends_the_seeds_request_and_reads_a_bare_task() {
    let server = seed_server().await;
    let client = client(&server).await;
    let message = Message::new(
        "m-1",
        Role::User,
        vec![Part::text("What is the capital of France?")],
    );
    let answer = client
        .send_message(SendMessageRequest::new(message))
        .await
        .unwrap();
    let SendMessageResponse::Task(task) = answer else {
        panic!("expected a task, got {answer:?}");
    };
    assert_eq!(task.id.as_str(), "abc123");
    assert_eq!(task.status.state, TaskState::Completed);
    assert_eq!(task.history[0].role, Role::User);
    assert_eq!(task.artifacts[0].text(), "The capital is Paris.");

    let sent = server
        .seen()
        .into_iter()
        .find(|s| s.path == "/a2a")
        .unwrap();
    assert_eq!(sent.header("a2a-version"), None);
    assert_eq!(
        sent.json(),
        json!({"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {
            "message": {"messageId": "m-1", "role": "user", "parts": [{"text": "What is the capital of France?"}]}
        }})
    );
}

#[tokio::test]
async fn get_list_cancel_and_the_stream() {
    let server = seed_server().await;
    let client = client(&server).await;
    let got = client
        .get_task(GetTaskRequest::new("abc123"))
        .await
        .unwrap();
    assert_eq!(got.status.state, TaskState::InputRequired);
    assert_eq!(
        got.status.message.as_ref().map(|m| m.role),
        Some(Role::Agent)
    );
    let listed = client
        .list_tasks(ListTasksRequest::new().with_context_id("ctx456"))
        .await
        .unwrap();
    assert_eq!(listed.tasks[0].status.state, TaskState::Working);
    let canceled = client
        .cancel_task(CancelTaskRequest::new("abc123"))
        .await
        .unwrap();
    assert_eq!(canceled.status.state, TaskState::Canceled);

    let mut stream = client
        .send_streaming_message(SendMessageRequest::new(Message::user_text("hi")))
        .await
        .unwrap();
    let mut events = Vec::new();
    while let Some(event) = stream.next().await {
        events.push(match event.unwrap() {
            StreamResponse::StatusUpdate(update) => format!("status {}", update.status.state),
            StreamResponse::ArtifactUpdate(update) => {
                format!(
                    "artifact {} append={}",
                    update.artifact.text(),
                    update.append
                )
            }
            other => format!("{other:?}"),
        });
    }
    assert_eq!(
        events,
        [
            "status TASK_STATE_WORKING",
            "artifact The capital append=true",
            "status TASK_STATE_COMPLETED"
        ]
    );
    let methods: Vec<String> = server
        .seen()
        .iter()
        .filter(|s| s.path == "/a2a")
        .map(|s| s.json()["method"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        methods,
        ["tasks/get", "tasks/list", "tasks/cancel", "message/stream"]
    );
    let list = server
        .seen()
        .into_iter()
        .find(|s| s.path == "/a2a" && s.json()["method"] == "tasks/list")
        .unwrap();
    assert_eq!(list.json()["params"], json!({"contextId": "ctx456"}));
}

#[tokio::test]
async fn push_configs_are_not_in_the_dialect() {
    let server = seed_server().await;
    let client = client(&server).await;
    let err = client
        .get_extended_agent_card(Default::default())
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Unsupported { .. }), "{err:?}");
}
