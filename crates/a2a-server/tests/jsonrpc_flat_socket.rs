//! The flat JSON-RPC dialect (PromptKit's, issue 23's seed 003): `POST /a2a` with `message/send`,
//! `message/stream`, `tasks/get`, `tasks/cancel`, `tasks/list` and `tasks/subscribe`; flat parts,
//! lowercase states and roles, bare results; its card at `/.well-known/agent.json`. The requests
//! are the seed page's, byte for byte where it gives them.

mod common;

use std::sync::Arc;

use a2a_server::A2aService;
use a2a_types::v1::{AgentCapabilities, AgentCard, AgentSkill};
use common::{Events, normalized, rpc_request, rpc_with, scripted_agent, send, start};
use http_body_util::BodyExt as _;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

fn card() -> AgentCard {
    AgentCard::new(
        "Research Agent",
        "Searches academic papers on a given topic",
        "1.0.0",
    )
    .with_capabilities(AgentCapabilities::default().with_streaming(true))
    .with_skills([AgentSkill::new(
        "search_papers",
        "Search Papers",
        "Search for academic papers on a given topic",
        ["research", "papers"],
    )])
    .with_default_input_modes(["text/plain"])
    .with_default_output_modes(["text/plain"])
}

fn service(gate: Arc<Semaphore>) -> A2aService {
    A2aService::builder(scripted_agent(gate), card()).build()
}

/// POSTs `body` to `path` without `A2A-Version` (the dialect's clients send none).
async fn post(
    addr: std::net::SocketAddr,
    path: &str,
    body: &str,
) -> http::Response<hyper::body::Incoming> {
    let mut request = rpc_request(body, &[]);
    *request.uri_mut() = path.parse().unwrap();
    send(addr, request).await
}

async fn call(addr: std::net::SocketAddr, body: &str) -> Value {
    let response = post(addr, "/a2a", body).await;
    assert_eq!(response.status(), 200);
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    normalized(std::str::from_utf8(&bytes).unwrap())
}

#[tokio::test]
async fn the_card_has_what_the_seeds_client_reads() {
    let server = start(service(Arc::new(Semaphore::new(0)))).await;
    let response = send(
        server.addr,
        http::Request::get("/.well-known/agent.json")
            .header("host", "test")
            .body(http_body_util::Full::new(bytes::Bytes::new()))
            .unwrap(),
    )
    .await;
    assert_eq!(response.status(), 200);
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let card: Value = serde_json::from_slice(&bytes).unwrap();
    for (field, expected) in [
        ("name", json!("Research Agent")),
        (
            "description",
            json!("Searches academic papers on a given topic"),
        ),
        ("version", json!("1.0.0")),
        ("defaultInputModes", json!(["text/plain"])),
        ("defaultOutputModes", json!(["text/plain"])),
    ] {
        assert_eq!(card[field], expected, "{field}");
    }
    assert_eq!(card["capabilities"]["streaming"], json!(true));
    assert_eq!(
        card["skills"][0],
        json!({
            "id": "search_papers",
            "name": "Search Papers",
            "description": "Search for academic papers on a given topic",
            "tags": ["research", "papers"]
        })
    );
}

#[tokio::test]
async fn message_send_answers_a_bare_task_with_lowercase_states() {
    let server = start(service(Arc::new(Semaphore::new(0)))).await;
    let answer = call(
        server.addr,
        r#"{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"messageId":"m-1","role":"user","parts":[{"text":"What is the capital of France?"}]}}}"#,
    )
    .await;
    assert_eq!(
        answer,
        json!({"jsonrpc":"2.0","id":1,"result":{
            "id":"<uuid>","contextId":"<uuid>",
            "status":{"state":"completed","timestamp":"<timestamp>"},
            "artifacts":[{"artifactId":"echo","parts":[{"text":"What is the capital of France?"}]}],
            "history":[{"messageId":"m-1","contextId":"<uuid>","taskId":"<uuid>","role":"user",
                        "parts":[{"text":"What is the capital of France?"}]}]
        }})
    );
}

#[tokio::test]
async fn input_required_is_spelled_with_an_underscore_and_the_follow_up_continues() {
    let server = start(service(Arc::new(Semaphore::new(0)))).await;
    let response = post(
        server.addr,
        "/a2a",
        r#"{"jsonrpc":"2.0","id":"a","method":"message/send","params":{"message":{"messageId":"m-1","role":"user","parts":[{"text":"ask"}]},"configuration":{"blocking":true}}}"#,
    )
    .await;
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let answer: Value = serde_json::from_slice(&bytes).unwrap();
    let task = &answer["result"];
    assert_eq!(task["status"]["state"], "input_required");
    assert_eq!(task["status"]["message"]["role"], "agent");
    assert_eq!(
        task["status"]["message"]["parts"],
        json!([{"text": "which city?"}])
    );
    let id = task["id"].as_str().unwrap();
    let context = task["contextId"].as_str().unwrap();

    // tasks/get of a task the dialect started: its shapes, not 0.3's.
    let got = call(
        server.addr,
        &format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{{"id":"{id}","historyLength":1}}}}"#),
    )
    .await;
    assert_eq!(got["result"]["status"]["state"], "input_required");
    assert_eq!(got["result"]["history"].as_array().unwrap().len(), 1);
    assert!(got["result"].get("kind").is_none());

    // tasks/list by context, with a lowercase status filter.
    let listed = call(
        server.addr,
        &format!(r#"{{"jsonrpc":"2.0","id":3,"method":"tasks/list","params":{{"contextId":"{context}","status":"input_required"}}}}"#),
    )
    .await;
    let tasks = listed["result"]["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 1);
    assert_eq!(tasks[0]["status"]["state"], "input_required");
    assert_eq!(listed["result"]["pageSize"], json!(50));

    // The answer continues the task.
    let done = call(
        server.addr,
        &format!(r#"{{"jsonrpc":"2.0","id":4,"method":"message/send","params":{{"message":{{"messageId":"m-2","taskId":"{id}","contextId":"{context}","role":"user","parts":[{{"text":"Paris"}}]}}}}}}"#),
    )
    .await;
    assert_eq!(done["result"]["status"]["state"], "completed");
    assert_eq!(
        done["result"]["artifacts"][0]["parts"],
        json!([{"text": "Paris"}])
    );
}

#[tokio::test]
async fn message_stream_events_are_bare_json_rpc_results() {
    let gate = Arc::new(Semaphore::new(2));
    let server = start(service(gate)).await;
    let response = post(
        server.addr,
        "/a2a",
        r#"{"jsonrpc":"2.0","id":1,"method":"message/stream","params":{"message":{"messageId":"m-1","role":"user","parts":[{"text":"chunks 2"}]}}}"#,
    )
    .await;
    let events: Vec<Value> = Events::new(response)
        .collect()
        .await
        .into_iter()
        .map(|(_, mut data)| {
            common::normalize(&mut data);
            data
        })
        .collect();
    assert_eq!(
        events,
        [
            json!({"jsonrpc":"2.0","id":1,"result":{"id":"<uuid>","contextId":"<uuid>","status":{"state":"submitted","timestamp":"<timestamp>"},
                   "history":[{"messageId":"m-1","contextId":"<uuid>","taskId":"<uuid>","role":"user","parts":[{"text":"chunks 2"}]}]}}),
            json!({"jsonrpc":"2.0","id":1,"result":{"taskId":"<uuid>","contextId":"<uuid>","status":{"state":"working","timestamp":"<timestamp>"}}}),
            json!({"jsonrpc":"2.0","id":1,"result":{"taskId":"<uuid>","contextId":"<uuid>","artifact":{"artifactId":"chunks","parts":[{"text":"c0"}]}}}),
            json!({"jsonrpc":"2.0","id":1,"result":{"taskId":"<uuid>","contextId":"<uuid>","artifact":{"artifactId":"chunks","parts":[{"text":"c1"}]},"append":true,"lastChunk":true}}),
            json!({"jsonrpc":"2.0","id":1,"result":{"taskId":"<uuid>","contextId":"<uuid>","status":{"state":"completed","timestamp":"<timestamp>"}}}),
        ]
    );
}

#[tokio::test]
async fn subscribe_and_cancel() {
    let server = start(service(Arc::new(Semaphore::new(0)))).await;
    let started = call(
        server.addr,
        r#"{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"messageId":"m-1","role":"user","parts":[{"text":"wait"}]},"configuration":{"blocking":false}}}"#,
    )
    .await;
    // normalized() replaced the id; read it again from a list of every task.
    let listed = call(
        server.addr,
        r#"{"jsonrpc":"2.0","id":2,"method":"tasks/list","params":{}}"#,
    )
    .await;
    assert_eq!(
        started["result"]["status"]["state"],
        listed["result"]["tasks"][0]["status"]["state"]
    );
    let response = post(
        server.addr,
        "/a2a",
        r#"{"jsonrpc":"2.0","id":2,"method":"tasks/list","params":{}}"#,
    )
    .await;
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let raw: Value = serde_json::from_slice(&bytes).unwrap();
    let id = raw["result"]["tasks"][0]["id"].as_str().unwrap().to_owned();

    let subscription = post(
        server.addr,
        "/a2a",
        &format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tasks/subscribe","params":{{"id":"{id}"}}}}"#
        ),
    )
    .await;
    let mut events = Events::new(subscription);
    let (_, first) = events.next().await.unwrap();
    assert_eq!(first["result"]["id"], json!(id));
    assert_eq!(first["result"]["status"]["state"], "working");

    let canceled = call(
        server.addr,
        &format!(r#"{{"jsonrpc":"2.0","id":4,"method":"tasks/cancel","params":{{"id":"{id}"}}}}"#),
    )
    .await;
    assert_eq!(canceled["result"]["status"]["state"], "canceled");
    let rest: Vec<Value> = events.collect().await.into_iter().map(|(_, d)| d).collect();
    assert_eq!(
        rest.last().unwrap()["result"]["status"]["state"],
        "canceled"
    );
}

#[tokio::test]
async fn errors_and_the_0_3_spelling_beside_it() {
    let server = start(service(Arc::new(Semaphore::new(0)))).await;
    assert_eq!(
        call(
            server.addr,
            r#"{"jsonrpc":"2.0","id":5,"method":"tasks/get","params":{"id":"nope"}}"#,
        )
        .await,
        json!({"jsonrpc":"2.0","id":5,"error":{"code":-32001,"message":"task nope not found","data":[
            {"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org","metadata":{"taskId":"nope"}}
        ]}})
    );
    // A 0.3 client on the same endpoint still gets 0.3's kind-tagged shapes.
    let (_, _, body) = rpc_with(
        server.addr,
        r#"{"jsonrpc":"2.0","id":6,"method":"message/send","params":{"message":{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"hi"}]}}}"#,
        &[],
    )
    .await;
    let answer = normalized(&body);
    assert_eq!(answer["result"]["kind"], "task");
    assert_eq!(
        answer["result"]["artifacts"][0]["parts"],
        json!([{"kind": "text", "text": "hi"}])
    );
    // The dialect at the JSON-RPC path too.
    let (_, _, body) = rpc_with(
        server.addr,
        r#"{"jsonrpc":"2.0","id":7,"method":"message/send","params":{"message":{"messageId":"m-2","role":"user","parts":[{"text":"hi"}]}}}"#,
        &[],
    )
    .await;
    let answer = normalized(&body);
    assert_eq!(answer["result"]["status"]["state"], "completed");
    assert!(answer["result"].get("kind").is_none());
}
