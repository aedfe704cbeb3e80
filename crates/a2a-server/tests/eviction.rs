//! Eviction never lies: a stream reads every event of its task or ends with an error that
//! says the task went; a blocking `SendMessage` answers with the task it ran.

mod common;

use std::sync::Arc;

use a2a_server::agent::agent_fn;
use a2a_server::handler::{CallContext, RequestHandler, StreamEvent};
use a2a_server::store::{
    Change, InMemoryTaskStore, ListPage, ListQuery, LogEntry, Observer, Owner, RetentionPolicy,
    StoreFuture, StoredTask, TaskStore, UpdateOutcome,
};
use a2a_server::{A2aError, A2aService};
use a2a_types::protocol::ProtocolVersion;
use a2a_types::v1::*;
use futures_util::StreamExt as _;
use pretty_assertions::assert_eq;

fn card() -> AgentCard {
    AgentCard::new("test", "test agent", "1.0.0")
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
}

fn send(text: &str) -> SendMessageRequest {
    SendMessageRequest::new(Message::new(
        MessageId::random(),
        Role::User,
        vec![Part::text(text)],
    ))
}

/// "stream N": working, N chunks of one artifact, completed. Anything else is echoed.
fn agent() -> impl a2a_server::Agent {
    agent_fn(|ctx, sink| async move {
        let text = ctx.text();
        sink.working(None).await?;
        if let Some(n) = text.strip_prefix("stream ") {
            let n: usize = n.parse()?;
            for i in 0..n {
                let chunk = Artifact::new("chunks", vec![Part::text(format!("{i} "))]);
                sink.artifact_chunk(chunk, i > 0, i + 1 == n).await?;
            }
        } else {
            sink.artifact(Artifact::new("echo", vec![Part::text(text)]))
                .await?;
        }
        sink.complete(None).await?;
        Ok(())
    })
}

/// Ended tasks are dropped as soon as a second task exists.
fn tiny() -> RetentionPolicy {
    RetentionPolicy::default()
        .with_max_tasks(1)
        .with_terminal_ttl(None)
}

fn handler(store: Arc<dyn TaskStore>) -> RequestHandler {
    a2a_server::A2aService::builder(agent(), card())
        .shared_store(store)
        .build()
        .handler()
        .clone()
}

/// Waits, through the store, until the task has ended or is gone.
async fn until_ended(store: &Arc<dyn TaskStore>, id: &TaskId) {
    while let Some(progress) = store.progress(id).await.unwrap() {
        if progress.state.is_terminal() {
            return;
        }
        store.wait(id, progress.last_seq).await.unwrap();
    }
}

/// Runs echo tasks to completion: with `tiny` retention, each pushes out every ended task
/// that may be dropped.
async fn churn(h: &RequestHandler, n: usize) {
    for i in 0..n {
        h.send_message(send(&format!("churn {i}")), &CallContext::new())
            .await
            .unwrap();
    }
}

fn task_id(first: &StreamEvent) -> TaskId {
    match &first.event {
        StreamResponse::Task(task) => task.id.clone(),
        other => panic!("a stream starts with its task, not {other:?}"),
    }
}

/// Every event of a stream, in order: sequence numbers 1..=n without gaps, ending completed.
fn assert_whole(events: &[StreamEvent], n: u64) {
    let seqs: Vec<u64> = events.iter().map(|e| e.seq.unwrap()).collect();
    assert_eq!(seqs, (1..=n).collect::<Vec<_>>());
    assert!(matches!(
        &events.last().unwrap().event,
        StreamResponse::StatusUpdate(s) if s.status.state == TaskState::Completed
    ));
}

/// A reader that falls 40 002 events behind a task that ends and would be evicted (max one
/// task kept) still reads every event: its stream pins the task.
#[tokio::test]
async fn a_slow_reader_of_an_evictable_task_gets_every_event() {
    let store: Arc<dyn TaskStore> = Arc::new(InMemoryTaskStore::with_retention(tiny()));
    let h = handler(store.clone());
    let mut stream = h
        .send_streaming_message(send("stream 40000"), &CallContext::new())
        .await
        .unwrap();
    let first = stream.next().await.unwrap().unwrap();
    let id = task_id(&first);
    until_ended(&store, &id).await;
    churn(&h, 3).await;
    // Still stored, although ended and beyond max_tasks.
    assert_eq!(store.progress(&id).await.unwrap().unwrap().last_seq, 40_003);
    let mut events = vec![first];
    while let Some(item) = stream.next().await {
        events.push(item.unwrap());
    }
    assert_whole(&events, 40_003);
    // Once the stream is gone, so is the pin: the next task pushes the old one out.
    drop(stream);
    churn(&h, 1).await;
    assert!(store.progress(&id).await.unwrap().is_none());
}

/// The same over a socket: the SSE stream of a slow client carries all 40 003 events.
#[tokio::test]
async fn a_slow_sse_client_gets_every_event() {
    let service = A2aService::builder(agent(), card())
        .store(InMemoryTaskStore::with_retention(tiny()))
        .build();
    let churner = service.handler().clone();
    let store = churner.store().clone();
    let server = common::start(service).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"stream 40000"}]}}}"#;
    let response = common::send(
        server.addr,
        common::rpc_request(body, &[("A2A-Version", "1.0")]),
    )
    .await;
    let mut events = common::Events::new(response);
    let (id, first) = events.next().await.unwrap();
    assert_eq!(id.as_deref(), Some("1"));
    let task_id = TaskId::from(first["result"]["task"]["id"].as_str().unwrap());
    until_ended(&store, &task_id).await;
    churn(&churner, 3).await;
    let mut seq = 1u64;
    let mut last = first;
    while let Some((id, data)) = events.next().await {
        seq += 1;
        assert_eq!(id, Some(seq.to_string()), "{data}");
        assert!(data.get("error").is_none(), "{data}");
        last = data;
    }
    assert_eq!(seq, 40_003);
    assert_eq!(
        last["result"]["statusUpdate"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
}

/// 32 blocking `SendMessage`s at once, in a store that keeps one ended task: each answers
/// with its own task, completed, never `TaskNotFound`.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_blocking_sends_each_get_their_own_task() {
    for store in [
        Arc::new(InMemoryTaskStore::with_retention(tiny())) as Arc<dyn TaskStore>,
        Arc::new(Unpinned(InMemoryTaskStore::with_retention(tiny()))),
    ] {
        let h = handler(store);
        // Polled together in one task, as a batch is: each waiter wakes only after the other
        // agents have run, ended their tasks and pushed older ones out.
        let calls = (0..32).map(|i| {
            let h = h.clone();
            async move {
                let text = format!("request {i}");
                let answer = h.send_message(send(&text), &CallContext::new()).await;
                (text, answer)
            }
        });
        let answers = futures_util::future::join_all(calls).await;
        let mut ids = std::collections::HashSet::new();
        for (text, answer) in answers {
            let SendMessageResponse::Task(task) = answer.unwrap() else {
                panic!("a task");
            };
            assert_eq!(task.status.state, TaskState::Completed);
            assert_eq!(task.history[0].text(), text);
            assert_eq!(task.artifacts[0].text(), text);
            assert!(ids.insert(task.id));
        }
    }
}

/// A JSON-RPC batch of blocking sends, one ended task kept: every answer is its own task.
#[tokio::test]
async fn a_batch_of_blocking_sends_answers_every_task() {
    let service = A2aService::builder(agent(), card())
        .store(InMemoryTaskStore::with_retention(tiny()))
        .build();
    let server = common::start(service).await;
    let batch: Vec<serde_json::Value> = (0..8)
        .map(|i| {
            serde_json::json!({
                "jsonrpc": "2.0", "id": i, "method": "SendMessage",
                "params": {"message": {"messageId": format!("m-{i}"), "role": "ROLE_USER",
                           "parts": [{"text": format!("batch {i}")}]}}
            })
        })
        .collect();
    let (status, _, text) =
        common::rpc(server.addr, &serde_json::Value::from(batch).to_string()).await;
    assert_eq!(status, 200);
    let answers: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(answers.len(), 8);
    for answer in answers {
        let i = answer["id"].as_u64().unwrap();
        let task = &answer["result"]["task"];
        assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED", "{answer}");
        assert_eq!(
            task["artifacts"][0]["parts"][0]["text"],
            format!("batch {i}"),
            "{answer}"
        );
    }
}

/// With a store that cannot pin, a task may go while a reader is behind: the stream then ends
/// with an error naming the task and the last event read, never quietly.
#[tokio::test]
async fn a_stream_whose_task_goes_anyway_ends_with_an_error() {
    let store: Arc<dyn TaskStore> = Arc::new(Unpinned(InMemoryTaskStore::with_retention(tiny())));
    let h = handler(store.clone());
    let mut stream = h
        .send_streaming_message(send("stream 500"), &CallContext::new())
        .await
        .unwrap();
    let first = stream.next().await.unwrap().unwrap();
    let id = task_id(&first);
    until_ended(&store, &id).await;
    churn(&h, 1).await;
    assert!(store.progress(&id).await.unwrap().is_none());
    let mut last = first.seq.unwrap();
    let err = loop {
        match stream.next().await {
            Some(Ok(event)) => {
                assert_eq!(event.seq, Some(last + 1));
                last += 1;
            }
            Some(Err(err)) => break err,
            None => panic!("the stream ended quietly after event {last}"),
        }
    };
    // Events read before the task went came whole; the end says so.
    assert!(last < 503, "{last}");
    assert_eq!(
        err,
        A2aError::internal(format!(
            "task {id} was evicted from the store while this stream was reading it (after \
             event {last})"
        ))
    );
    assert!(stream.next().await.is_none());
}

/// An `InMemoryTaskStore` that does not pin (the trait's default `pin`), as a store without
/// pins would behave.
struct Unpinned(InMemoryTaskStore);

impl TaskStore for Unpinned {
    fn create<'a>(
        &'a self,
        task: Task,
        owner: Owner,
        protocol_version: ProtocolVersion,
    ) -> StoreFuture<'a, UpdateOutcome> {
        self.0.create(task, owner, protocol_version)
    }
    fn check_room<'a>(&'a self, owner: &'a Owner, bytes: u64) -> StoreFuture<'a, ()> {
        self.0.check_room(owner, bytes)
    }
    fn load<'a>(&'a self, id: &'a TaskId) -> StoreFuture<'a, Option<StoredTask>> {
        self.0.load(id)
    }
    fn progress<'a>(&'a self, id: &'a TaskId) -> StoreFuture<'a, Option<UpdateOutcome>> {
        self.0.progress(id)
    }
    fn update<'a>(
        &'a self,
        id: &'a TaskId,
        change: Change<'a>,
        then: Option<Observer<'a>>,
    ) -> StoreFuture<'a, Option<UpdateOutcome>> {
        self.0.update(id, change, then)
    }
    fn read_log<'a>(
        &'a self,
        id: &'a TaskId,
        after: u64,
        limit: usize,
    ) -> StoreFuture<'a, Vec<LogEntry>> {
        self.0.read_log(id, after, limit)
    }
    fn wait<'a>(&'a self, id: &'a TaskId, after: u64) -> StoreFuture<'a, ()> {
        self.0.wait(id, after)
    }
    fn list<'a>(&'a self, query: &'a ListQuery) -> StoreFuture<'a, ListPage> {
        self.0.list(query)
    }
    fn put_push_config<'a>(
        &'a self,
        config: TaskPushNotificationConfig,
        protocol_version: ProtocolVersion,
    ) -> StoreFuture<'a, ()> {
        self.0.put_push_config(config, protocol_version)
    }
    fn get_push_config<'a>(
        &'a self,
        task_id: &'a TaskId,
        id: &'a str,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
        self.0.get_push_config(task_id, id)
    }
    fn list_push_configs<'a>(
        &'a self,
        task_id: &'a TaskId,
    ) -> StoreFuture<'a, Vec<TaskPushNotificationConfig>> {
        self.0.list_push_configs(task_id)
    }
    fn delete_push_config<'a>(&'a self, task_id: &'a TaskId, id: &'a str) -> StoreFuture<'a, bool> {
        self.0.delete_push_config(task_id, id)
    }
}
