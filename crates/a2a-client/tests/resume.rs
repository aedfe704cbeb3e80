//! Streams resume after the connection is cut mid-stream: no duplicates, no gaps.

mod common;

use std::sync::Arc;
use std::time::Duration;

use a2a_client::{A2aClient, Error, RetryPolicy, TaskStream};
use a2a_server::Limits;
use a2a_types::v1::{
    AgentCard, AgentInterface, CancelTaskRequest, Message, SendMessageConfiguration,
    SendMessageRequest, SendMessageResponse, StreamResponse, SubscribeToTaskRequest, TaskState,
    binding,
};
use common::{Proxy, Scripted, json, sse};
use futures_util::StreamExt as _;
use pretty_assertions::assert_eq;
use tokio::sync::Semaphore;

fn fast() -> a2a_client::ClientBuilder {
    A2aClient::builder().retry(
        RetryPolicy::default()
            .with_initial_backoff(Duration::from_millis(10))
            .with_max_backoff(Duration::from_millis(50)),
    )
}

/// A short name for each event: `task:working`, `status:completed`, `chunk:c3 `.
fn describe(event: &StreamResponse) -> String {
    match event {
        StreamResponse::Task(task) => format!("task:{}", short(task.status.state)),
        StreamResponse::Message(message) => format!("message:{}", message.text()),
        StreamResponse::StatusUpdate(update) => format!("status:{}", short(update.status.state)),
        StreamResponse::ArtifactUpdate(update) => format!("chunk:{}", update.artifact.text()),
        _ => "other".to_owned(),
    }
}

fn short(state: TaskState) -> String {
    state
        .to_string()
        .trim_start_matches("TASK_STATE_")
        .to_ascii_lowercase()
}

async fn next(stream: &mut TaskStream) -> String {
    describe(&stream.next().await.unwrap().unwrap())
}

async fn rest(mut stream: TaskStream) -> (Vec<String>, TaskStream) {
    let mut out = Vec::new();
    while let Some(event) = stream.next().await {
        out.push(describe(&event.unwrap()));
    }
    (out, stream)
}

const CHUNKS_AFTER_C1: [&str; 5] = [
    "chunk:c2 ",
    "chunk:c3 ",
    "chunk:c4 ",
    "chunk:c5 ",
    "status:completed",
];

#[tokio::test]
async fn a_cut_connection_resumes_while_the_task_runs() {
    let gate = Arc::new(Semaphore::new(0));
    let server = common::start_gated(gate.clone()).await;
    let proxy = Proxy::start(server.addr).await;
    let card = common::card().with_supported_interfaces([AgentInterface::new(
        format!("{}/", proxy.url()),
        binding::JSONRPC,
        "1.0",
    )]);
    let client = fast().from_card(card).unwrap();
    let mut stream = client
        .send_streaming_message(SendMessageRequest::new(Message::user_text("chunks 6")))
        .await
        .unwrap();
    assert_eq!(next(&mut stream).await, "task:submitted");
    assert_eq!(next(&mut stream).await, "status:working");
    gate.add_permits(2);
    assert_eq!(next(&mut stream).await, "chunk:c0 ");
    assert_eq!(next(&mut stream).await, "chunk:c1 ");

    proxy.cut();
    // The client notices on its next read, reconnects, and the agent goes on meanwhile.
    let reader = tokio::spawn(rest(stream));
    tokio::time::sleep(Duration::from_millis(100)).await;
    gate.add_permits(4);
    let (events, stream) = reader.await.unwrap();
    assert_eq!(events, CHUNKS_AFTER_C1);
    assert_eq!(stream.reconnects(), 1);
    assert!(proxy.connections() >= 2);
}

#[tokio::test]
async fn a_task_that_ends_while_disconnected_is_replayed_to_its_end() {
    let gate = Arc::new(Semaphore::new(0));
    let server = common::start_gated(gate.clone()).await;
    let proxy = Proxy::start(server.addr).await;
    let card = common::card().with_supported_interfaces([AgentInterface::new(
        format!("{}/", proxy.url()),
        binding::JSONRPC,
        "1.0",
    )]);
    let client = fast().from_card(card).unwrap();
    // Subscribing (rather than sending) resumes the same way.
    let request = SendMessageRequest::new(Message::user_text("chunks 6"))
        .with_configuration(SendMessageConfiguration::default().with_return_immediately(true));
    let SendMessageResponse::Task(task) = client.send_message(request).await.unwrap() else {
        panic!("a task");
    };
    let mut stream = client
        .subscribe_to_task(SubscribeToTaskRequest::new(task.id.clone()))
        .await
        .unwrap();
    assert!(next(&mut stream).await.starts_with("task:"));
    gate.add_permits(2);
    let mut seen = Vec::new();
    while seen.last().map(String::as_str) != Some("chunk:c1 ") {
        seen.push(next(&mut stream).await);
    }
    proxy.cut();
    // The task finishes before the client reads again.
    gate.add_permits(4);
    tokio::time::sleep(Duration::from_millis(150)).await;
    let (events, stream) = rest(stream).await;
    assert_eq!(events, CHUNKS_AFTER_C1);
    assert_eq!(stream.reconnects(), 1);
    assert_eq!(stream.task_id(), Some(&task.id));
}

#[tokio::test]
async fn reconnections_are_bounded() {
    let gate = Arc::new(Semaphore::new(0));
    let server = common::start_gated(gate.clone()).await;
    let proxy = Proxy::start(server.addr).await;
    let card = common::card().with_supported_interfaces([AgentInterface::new(
        format!("{}/", proxy.url()),
        binding::JSONRPC,
        "1.0",
    )]);
    let client = fast().stream_reconnects(3).from_card(card).unwrap();
    let mut stream = client
        .send_streaming_message(SendMessageRequest::new(Message::user_text("chunks 2")))
        .await
        .unwrap();
    assert_eq!(next(&mut stream).await, "task:submitted");
    assert_eq!(next(&mut stream).await, "status:working");
    // The way to the agent is gone for good.
    drop(proxy);
    let error = stream.next().await.unwrap().unwrap_err();
    assert!(matches!(error, Error::Transport(_)), "{error:?}");
    assert!(error.is_connect(), "{error}");
    assert_eq!(stream.reconnects(), 3);
    assert!(stream.next().await.is_none());
}

#[tokio::test]
async fn an_idle_stream_is_resumed() {
    let server = common::start_with(|url| {
        // No keep-alives, so that the stream is silent while the agent waits.
        a2a_server::A2aService::builder(
            a2a_server::agent::agent_fn(|ctx, sink| async move {
                sink.working(None).await?;
                ctx.cancelled().await;
                Ok(())
            }),
            common::card(),
        )
        .public_url(url)
        .limits(Limits::default().with_keep_alive(Duration::from_secs(3600)))
        .handler_config(
            a2a_server::HandlerConfig::default().with_cancel_grace(Duration::from_millis(100)),
        )
        .build()
    })
    .await;
    let client = fast()
        .stream_idle_timeout(Duration::from_millis(150))
        .stream_reconnects(100)
        .connect(&server.url())
        .await
        .unwrap();
    let mut stream = client
        .send_streaming_message(SendMessageRequest::new(Message::user_text("wait")))
        .await
        .unwrap();
    assert_eq!(next(&mut stream).await, "task:submitted");
    assert_eq!(next(&mut stream).await, "status:working");
    let task_id = stream.task_id().unwrap().clone();
    let reader = tokio::spawn(rest(stream));
    tokio::time::sleep(Duration::from_millis(500)).await;
    client
        .cancel_task(CancelTaskRequest::new(task_id))
        .await
        .unwrap();
    let (events, stream) = reader.await.unwrap();
    assert_eq!(events, ["status:canceled"]);
    assert!(stream.reconnects() >= 2, "{}", stream.reconnects());
}

/// A scripted agent: the first stream ends without its final event; the resumption must carry
/// `Last-Event-ID`, and a repeated event is dropped.
#[tokio::test]
async fn resumption_sends_last_event_id_and_drops_repeats() {
    let server = Scripted::start(|n, seen| {
        Some(match n {
            0 => sse(concat!(
                "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"t-7\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_SUBMITTED\"}}}}\n\n",
                "id: 2\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"statusUpdate\":{\"taskId\":\"t-7\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}}\n\n",
            ).as_bytes()),
            _ => {
                assert_eq!(seen.header("last-event-id"), Some("2"));
                let body = seen.json();
                assert_eq!(body["method"], "SubscribeToTask");
                assert_eq!(body["params"]["id"], "t-7");
                sse(concat!(
                    ": keep-alive\n\n",
                    "id: 2\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"statusUpdate\":{\"taskId\":\"t-7\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}}\n\n",
                    "id: 3\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"statusUpdate\":{\"taskId\":\"t-7\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}}}\n\n",
                ).as_bytes())
            }
        })
    })
    .await;
    let client = scripted_client(&server);
    let stream = client
        .send_streaming_message(SendMessageRequest::new(Message::user_text("x")))
        .await
        .unwrap();
    let (events, stream) = rest(stream).await;
    assert_eq!(
        events,
        ["task:submitted", "status:working", "status:completed"]
    );
    assert_eq!(stream.last_event_id(), Some("3"));
    assert_eq!(server.seen().len(), 2);
}

/// A server without event ids cannot replay a task that ended: the stream ends with the task
/// as GetTask returns it.
#[tokio::test]
async fn a_finished_task_without_replay_ends_with_its_final_state() {
    let server = Scripted::start(|n, seen| {
        let id = seen.json()["id"].clone();
        Some(match n {
            0 => sse(
                b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"t-8\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}}\n\n",
            ),
            1 => {
                assert_eq!(seen.header("last-event-id"), None);
                json(
                    200,
                    &serde_json::json!({"jsonrpc": "2.0", "id": id, "error":
                        {"code": -32004, "message": "task t-8 is done"}})
                    .to_string(),
                )
            }
            _ => {
                assert_eq!(seen.json()["method"], "GetTask");
                common::result(seen, common::task_json("t-8"))
            }
        })
    })
    .await;
    let client = scripted_client(&server);
    let stream = client
        .send_streaming_message(SendMessageRequest::new(Message::user_text("x")))
        .await
        .unwrap();
    let (events, _) = rest(stream).await;
    assert_eq!(events, ["task:working", "task:completed"]);
}

#[tokio::test]
async fn a_stream_cut_before_its_first_event_cannot_resume() {
    let server = Scripted::start(|_, _| Some(sse(b": nothing yet\n\n"))).await;
    let client = scripted_client(&server);
    let mut stream = client
        .send_streaming_message(SendMessageRequest::new(Message::user_text("x")))
        .await
        .unwrap();
    let error = stream.next().await.unwrap().unwrap_err();
    assert!(matches!(error, Error::Protocol(_)), "{error:?}");
    assert!(stream.next().await.is_none());
    assert_eq!(server.seen().len(), 1);
}

fn scripted_client(server: &Scripted) -> A2aClient {
    let card = AgentCard::new("S", "d", "1").with_supported_interfaces([AgentInterface::new(
        format!("{}/", server.url()),
        binding::JSONRPC,
        "1.0",
    )]);
    fast().from_card(card).unwrap()
}
