//! A store that goes away and comes back (HandlerConfig::outage_tolerance,
//! max_pending_outcomes): a short outage loses and fails nothing, a long one fails the running
//! tasks with the reason once the store is back, a write whose answer was lost is stored once,
//! and calls answer a retryable 503 meanwhile (the card stays served). The same with
//! PostgreSQL behind a fault proxy: `crates/a2a-store-sql/tests/outage.rs`.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use a2a_server::handler::{CallContext, EventStream, RequestHandler};
use a2a_server::store::{
    AgentRun, Change, InMemoryTaskStore, ListPage, ListQuery, LogEntry, Observer, Owner,
    RetentionPolicy, StoreError, StoreFuture, StoredTask, TaskPin, TaskStore, UpdateOutcome,
};
use a2a_server::{A2aService, HandlerConfig};
use a2a_types::protocol::ProtocolVersion;
use a2a_types::v1::*;
use futures_util::StreamExt as _;
use http_body_util::BodyExt as _;
use pretty_assertions::assert_eq;
use serde_json::json;
use tokio::sync::Semaphore;

use common::{normalized, rpc, scripted_agent, start, streaming_card, task_of, text_request};

/// The memory store, which the test takes away (every call fails `Unavailable`) and brings
/// back; it can also lose the answer of its next update (made, then failed).
#[derive(Default)]
struct Flaky {
    inner: InMemoryTaskStore,
    ctl: Arc<Controls>,
}

/// What the test turns and reads of a [`Flaky`] store.
#[derive(Default)]
struct Controls {
    down: AtomicBool,
    lose_next_answer: AtomicBool,
    /// `pin` fails (the rest works).
    fail_pins: AtomicBool,
    /// `load` fails (the rest works).
    fail_loads: AtomicBool,
    /// Calls refused while down.
    refused: AtomicUsize,
    /// The agents running (see `TaskStore::agent_running`).
    runs: Arc<AtomicUsize>,
}

/// An agent run the flaky store counts.
struct Run(Arc<AtomicUsize>);

impl Drop for Run {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Controls {
    /// Waits until `n` more calls were refused than `since`.
    async fn refused_since(&self, since: usize, n: usize) {
        while self.refused.load(Ordering::SeqCst) < since + n {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

impl Flaky {
    fn with(inner: InMemoryTaskStore) -> Self {
        Self {
            inner,
            ctl: Arc::default(),
        }
    }

    fn check(&self) -> Result<(), StoreError> {
        if self.ctl.down.load(Ordering::SeqCst) {
            self.ctl.refused.fetch_add(1, Ordering::SeqCst);
            return Err(StoreError::Unavailable("the test store is down".to_owned()));
        }
        Ok(())
    }
}

fn refused<'a, T: Send + 'a>(err: StoreError) -> StoreFuture<'a, T> {
    Box::pin(std::future::ready(Err(err)))
}

impl TaskStore for Flaky {
    fn create<'a>(
        &'a self,
        task: Task,
        owner: Owner,
        protocol_version: ProtocolVersion,
    ) -> StoreFuture<'a, UpdateOutcome> {
        match self.check() {
            Ok(()) => self.inner.create(task, owner, protocol_version),
            Err(err) => refused(err),
        }
    }
    fn check_room<'a>(&'a self, owner: &'a Owner, bytes: u64) -> StoreFuture<'a, ()> {
        match self.check() {
            Ok(()) => self.inner.check_room(owner, bytes),
            Err(err) => refused(err),
        }
    }
    fn load<'a>(&'a self, id: &'a TaskId) -> StoreFuture<'a, Option<StoredTask>> {
        if self.ctl.fail_loads.load(Ordering::SeqCst) {
            return refused(StoreError::Unavailable("no load now".to_owned()));
        }
        match self.check() {
            Ok(()) => self.inner.load(id),
            Err(err) => refused(err),
        }
    }
    fn progress<'a>(&'a self, id: &'a TaskId) -> StoreFuture<'a, Option<UpdateOutcome>> {
        match self.check() {
            Ok(()) => self.inner.progress(id),
            Err(err) => refused(err),
        }
    }
    fn pin<'a>(&'a self, id: &'a TaskId) -> StoreFuture<'a, Option<TaskPin>> {
        if self.ctl.fail_pins.load(Ordering::SeqCst) {
            return refused(StoreError::Unavailable("no pin now".to_owned()));
        }
        match self.check() {
            Ok(()) => self.inner.pin(id),
            Err(err) => refused(err),
        }
    }
    fn agent_running(&self, _id: &TaskId) -> AgentRun {
        self.ctl.runs.fetch_add(1, Ordering::SeqCst);
        AgentRun::new(Run(self.ctl.runs.clone()))
    }
    fn update<'a>(
        &'a self,
        id: &'a TaskId,
        change: Change<'a>,
        then: Option<Observer<'a>>,
    ) -> StoreFuture<'a, Option<UpdateOutcome>> {
        if let Err(err) = self.check() {
            return refused(err);
        }
        if self.ctl.lose_next_answer.swap(false, Ordering::SeqCst) {
            let made = self.inner.update(id, change, then);
            return Box::pin(async move {
                made.await?;
                Err(StoreError::Unavailable(
                    "the answer of the update was lost".to_owned(),
                ))
            });
        }
        self.inner.update(id, change, then)
    }
    fn read_log<'a>(
        &'a self,
        id: &'a TaskId,
        after: u64,
        limit: usize,
    ) -> StoreFuture<'a, Vec<LogEntry>> {
        match self.check() {
            Ok(()) => self.inner.read_log(id, after, limit),
            Err(err) => refused(err),
        }
    }
    fn wait<'a>(&'a self, id: &'a TaskId, after: u64) -> StoreFuture<'a, ()> {
        match self.check() {
            Ok(()) => self.inner.wait(id, after),
            Err(err) => refused(err),
        }
    }
    fn list<'a>(&'a self, query: &'a ListQuery) -> StoreFuture<'a, ListPage> {
        match self.check() {
            Ok(()) => self.inner.list(query),
            Err(err) => refused(err),
        }
    }
    fn put_push_config<'a>(
        &'a self,
        config: TaskPushNotificationConfig,
        protocol_version: ProtocolVersion,
    ) -> StoreFuture<'a, ()> {
        self.inner.put_push_config(config, protocol_version)
    }
    fn get_push_config<'a>(
        &'a self,
        task_id: &'a TaskId,
        id: &'a str,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
        self.inner.get_push_config(task_id, id)
    }
    fn list_push_configs<'a>(
        &'a self,
        task_id: &'a TaskId,
    ) -> StoreFuture<'a, Vec<TaskPushNotificationConfig>> {
        self.inner.list_push_configs(task_id)
    }
    fn delete_push_config<'a>(&'a self, task_id: &'a TaskId, id: &'a str) -> StoreFuture<'a, bool> {
        self.inner.delete_push_config(task_id, id)
    }
}

fn handler(store: Arc<Flaky>, config: HandlerConfig, gate: Arc<Semaphore>) -> RequestHandler {
    A2aService::builder(scripted_agent(gate), streaming_card())
        .shared_store(store)
        .handler_config(config)
        .build()
        .handler()
        .clone()
}

/// The events of a stream, as JSON without ids and timestamps, with their sequence numbers.
async fn rest_of(stream: &mut EventStream) -> Vec<(Option<u64>, serde_json::Value)> {
    let mut out = Vec::new();
    while let Some(item) = stream.next().await {
        let item = item.unwrap();
        let mut event = serde_json::to_value(&item.event).unwrap();
        common::normalize(&mut event);
        // Each update carries its generation (A2A 1.1): its number in the task's log.
        if let Some(update) = event
            .as_object_mut()
            .and_then(|e| e.values_mut().next())
            .and_then(serde_json::Value::as_object_mut)
        {
            let generation = update.remove("generation");
            assert_eq!(
                generation,
                item.seq.map(|seq| json!(seq.to_string())),
                "{event:?}"
            );
        }
        out.push((item.seq, event));
    }
    out
}

fn chunk(i: usize, append: bool, last: bool) -> serde_json::Value {
    let mut update = json!({"taskId": "<uuid>", "contextId": "<uuid>",
        "artifact": {"artifactId": "chunks", "parts": [{"text": format!("c{i}")}]}});
    if append {
        update["append"] = json!(true);
    }
    if last {
        update["lastChunk"] = json!(true);
    }
    json!({"artifactUpdate": update})
}

fn status(state: &str) -> serde_json::Value {
    json!({"statusUpdate": {"taskId": "<uuid>", "contextId": "<uuid>",
        "status": {"state": state, "timestamp": "<timestamp>"}}})
}

/// Away for less than the tolerance: the agent's sink call waits, the stream waits, nothing
/// is lost, nothing is stored twice, nothing fails.
#[tokio::test]
async fn a_store_away_for_less_than_the_tolerance_loses_and_fails_nothing() {
    let store = Arc::new(Flaky::default());
    let gate = Arc::new(Semaphore::new(0));
    let h = handler(
        store.clone(),
        HandlerConfig::default().with_outage_tolerance(Duration::from_secs(60)),
        gate.clone(),
    );
    let call = CallContext::new();
    let mut stream = h
        .send_streaming_message(text_request("chunks 3"), &call)
        .await
        .unwrap();
    let first = stream.next().await.unwrap().unwrap();
    let StreamResponse::Task(task) = first.event else {
        panic!("the task first")
    };
    assert_eq!(stream.next().await.unwrap().unwrap().seq, Some(2));
    // The store goes; the agent emits its first chunk into the outage.
    store.ctl.down.store(true, Ordering::SeqCst);
    let before = store.ctl.refused.load(Ordering::SeqCst);
    gate.add_permits(1);
    // The agent's write and the stream's read were each refused a few times.
    store.ctl.refused_since(before, 6).await;
    assert_eq!(h.pending_outcomes(), 0);
    store.ctl.down.store(false, Ordering::SeqCst);
    gate.add_permits(2);
    assert_eq!(
        rest_of(&mut stream).await,
        [
            (Some(3), chunk(0, false, false)),
            (Some(4), chunk(1, true, false)),
            (Some(5), chunk(2, true, true)),
            (Some(6), status("TASK_STATE_COMPLETED")),
        ]
    );
    let stored = store.inner.load(&task.id).await.unwrap().unwrap();
    assert_eq!(stored.task.status.state, TaskState::Completed);
    assert_eq!(stored.last_seq, 6);
    assert_eq!(stored.task.artifacts[0].text(), "c0c1c2");
}

/// Away for longer than the tolerance: the agent's sink call fails, the task's end waits in
/// memory, and once the store is back the task ends FAILED with the reason; the stream ended
/// with a retryable error meanwhile.
#[tokio::test]
async fn past_the_tolerance_the_task_fails_with_the_reason_once_the_store_is_back() {
    let store = Arc::new(Flaky::default());
    let gate = Arc::new(Semaphore::new(0));
    let h = handler(
        store.clone(),
        HandlerConfig::default().with_outage_tolerance(Duration::from_millis(300)),
        gate.clone(),
    );
    let call = CallContext::new();
    let mut stream = h
        .send_streaming_message(text_request("chunks 2"), &call)
        .await
        .unwrap();
    let StreamResponse::Task(task) = stream.next().await.unwrap().unwrap().event else {
        panic!("the task first")
    };
    assert_eq!(stream.next().await.unwrap().unwrap().seq, Some(2));
    store.ctl.down.store(true, Ordering::SeqCst);
    gate.add_permits(2);
    // The stream gives up after the tolerance, with a retryable 503.
    let err = stream.next().await.unwrap().unwrap_err();
    assert_eq!(
        (err.http_status(), err.retry_after()),
        (503, Some(Duration::from_secs(1)))
    );
    assert_eq!(
        err.message(),
        "task store unavailable: for longer than the outage tolerance of 300 ms \
         (outage_tolerance): the test store is down"
    );
    assert!(stream.next().await.is_none());
    // The agent's end waits for the store.
    while h.pending_outcomes() == 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let stored = store.inner.load(&task.id).await.unwrap().unwrap();
    assert_eq!(stored.task.status.state, TaskState::Working);
    store.ctl.down.store(false, Ordering::SeqCst);
    while h.pending_outcomes() > 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let stored = store.inner.load(&task.id).await.unwrap().unwrap();
    assert_eq!(stored.task.status.state, TaskState::Failed);
    assert_eq!(
        stored.task.status.message.unwrap().text(),
        "an event of the task could not be stored: task store unavailable: for longer than the \
         outage tolerance of 300 ms (outage_tolerance): the test store is down"
    );
    // Nothing of the outage was stored: the task as created, working, failed.
    assert_eq!(stored.last_seq, 3);
}

/// Beyond `max_pending_outcomes`, the oldest end of a turn is given up (a SQL store's lease
/// then ends its task); the agent no longer counts as running once it ended.
#[tokio::test]
async fn pending_outcomes_are_bounded() {
    let store = Arc::new(Flaky::default());
    let gate = Arc::new(Semaphore::new(0));
    let h = handler(
        store.clone(),
        HandlerConfig::default()
            .with_outage_tolerance(Duration::from_millis(100))
            .with_max_pending_outcomes(1),
        gate.clone(),
    );
    let call = CallContext::new();
    let mut ids = Vec::new();
    for _ in 0..2 {
        let returned = h
            .send_message(
                text_request("chunks 1").with_configuration(
                    SendMessageConfiguration::default().with_return_immediately(true),
                ),
                &call,
            )
            .await
            .unwrap();
        ids.push(task_of(returned).id);
    }
    for id in &ids {
        while store.inner.progress(id).await.unwrap().unwrap().state != TaskState::Working {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    assert_eq!(store.ctl.runs.load(Ordering::SeqCst), 2);
    // The store goes; both agents fail to write their chunk and end; both ends wait.
    store.ctl.down.store(true, Ordering::SeqCst);
    gate.add_permits(2);
    while store.ctl.runs.load(Ordering::SeqCst) > 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(h.pending_outcomes(), 1, "the older one was given up");
    store.ctl.down.store(false, Ordering::SeqCst);
    while h.pending_outcomes() > 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let mut states = Vec::new();
    for id in &ids {
        states.push(store.inner.progress(id).await.unwrap().unwrap().state);
    }
    states.sort_by_key(|s| format!("{s:?}"));
    assert_eq!(states, [TaskState::Failed, TaskState::Working]);
}

/// A write the store made but whose answer was lost is found in the log, not made twice.
#[tokio::test]
async fn a_write_whose_answer_was_lost_is_stored_once() {
    let store = Arc::new(Flaky::default());
    let h = handler(
        store.clone(),
        HandlerConfig::default(),
        Arc::new(Semaphore::new(0)),
    );
    // The agent's first update (working) is made, and its answer lost.
    store.ctl.lose_next_answer.store(true, Ordering::SeqCst);
    let task = task_of(
        h.send_message(text_request("echo this"), &CallContext::new())
            .await
            .unwrap(),
    );
    assert_eq!(task.status.state, TaskState::Completed);
    let log = store.inner.read_log(&task.id, 0, 10).await.unwrap();
    let kinds: Vec<&str> = log
        .iter()
        .map(|e| match &e.event {
            StreamResponse::Task(_) => "task",
            StreamResponse::StatusUpdate(u) if u.status.state == TaskState::Working => "working",
            StreamResponse::StatusUpdate(_) => "status",
            StreamResponse::ArtifactUpdate(_) => "artifact",
            StreamResponse::Message(_) => "message",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["task", "working", "artifact", "status"]);
}

/// A new task whose pin fails (the store away for a moment right after it was created) still
/// runs to its end: the task exists, and its agent writes to it.
#[tokio::test]
async fn a_new_task_the_store_cannot_pin_still_runs_to_its_end() {
    let store = Arc::new(Flaky::default());
    store.ctl.fail_pins.store(true, Ordering::SeqCst);
    let h = handler(
        store.clone(),
        HandlerConfig::default(),
        Arc::new(Semaphore::new(0)),
    );
    let task = task_of(
        h.send_message(
            text_request("echo this").with_configuration(
                SendMessageConfiguration::default().with_return_immediately(true),
            ),
            &CallContext::new(),
        )
        .await
        .unwrap(),
    );
    let ended = async {
        while store.inner.progress(&task.id).await.unwrap().unwrap().state != TaskState::Completed
            || store.ctl.runs.load(Ordering::SeqCst) > 0
        {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(30), ended)
        .await
        .expect("the task completes and its agent is done");
}

/// A task created while the store fails a moment after (its `returnImmediately` answer cannot
/// be read back) is answered as created, not with an error that would leave the caller
/// without the id of a task that runs; a stream of it starts the same way.
#[tokio::test]
async fn a_new_task_is_answered_as_created_when_the_store_cannot_read_it_back() {
    let store = Arc::new(Flaky::default());
    store.ctl.fail_loads.store(true, Ordering::SeqCst);
    store.ctl.fail_pins.store(true, Ordering::SeqCst);
    let gate = Arc::new(Semaphore::new(0));
    let h = handler(store.clone(), HandlerConfig::default(), gate.clone());
    let call = CallContext::new();
    let returned = task_of(
        h.send_message(
            text_request("chunks 1").with_configuration(
                SendMessageConfiguration::default().with_return_immediately(true),
            ),
            &call,
        )
        .await
        .unwrap(),
    );
    assert_eq!(returned.status.state, TaskState::Submitted);
    assert_eq!(returned.history[0].text(), "chunks 1");
    let mut stream = h
        .send_streaming_message(text_request("chunks 1"), &call)
        .await
        .unwrap();
    let first = stream.next().await.unwrap().unwrap();
    assert_eq!(first.seq, Some(1));
    let StreamResponse::Task(streamed) = first.event else {
        panic!("the task first")
    };
    assert_eq!(streamed.status.state, TaskState::Submitted);
    store.ctl.fail_loads.store(false, Ordering::SeqCst);
    gate.add_permits(2);
    let ended = async {
        for id in [&returned.id, &streamed.id] {
            while store.inner.progress(id).await.unwrap().unwrap().state != TaskState::Completed {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(30), ended)
        .await
        .expect("both tasks complete");
}

/// While the store is away, calls answer a retryable 503 (JSON-RPC and REST), with
/// `Retry-After`; the card is still served. A store full of unfinished tasks is an overload,
/// answered the same way.
#[tokio::test]
async fn an_unavailable_or_full_store_is_a_retryable_503_and_the_card_is_served() {
    let store = Flaky::with(InMemoryTaskStore::with_retention(
        RetentionPolicy::default().with_max_live_tasks(1),
    ));
    let ctl = store.ctl.clone();
    let gate = Arc::new(Semaphore::new(0));
    let service = A2aService::builder(scripted_agent(gate), streaming_card())
        .store(store)
        .build();
    let server = start(service).await;
    let send = json!({"jsonrpc": "2.0", "id": 7, "method": "SendMessage", "params": {
        "message": {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "wait"}]},
        "configuration": {"returnImmediately": true}}})
    .to_string();
    let retryable = |message: &str| {
        json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32603, "message": message,
            "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "INTERNAL",
                "domain": "a2a-protocol.org", "metadata": {"retryable": "true"}},
                {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1s"}]}})
    };
    // Full: one unfinished task is the limit.
    let (status, _, _) = rpc(server.addr, &send).await;
    assert_eq!(status, http::StatusCode::OK);
    let (status, headers, body) = rpc(server.addr, &send).await;
    assert_eq!(status, http::StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(headers["retry-after"], "1");
    assert_eq!(
        normalized(&body),
        retryable(
            "the task store holds its limit of 1 unfinished tasks (max_live_tasks); try again \
             later"
        )
    );
    // Away.
    ctl.down.store(true, Ordering::SeqCst);
    let (status, headers, body) = rpc(server.addr, &send).await;
    assert_eq!(status, http::StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(headers["retry-after"], "1");
    assert_eq!(
        normalized(&body),
        retryable("task store unavailable: the test store is down")
    );
    let get = json!({"jsonrpc": "2.0", "id": 7, "method": "GetTask", "params": {"id": "t-1"}});
    let (status, _, body) = rpc(server.addr, &get.to_string()).await;
    assert_eq!(status, http::StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        normalized(&body),
        retryable("task store unavailable: the test store is down")
    );
    // REST: the same error as a google.rpc.Status.
    let response = common::send(
        server.addr,
        http::Request::get("/tasks/t-1")
            .header("host", "test")
            .header("a2a-version", "1.0")
            .body(http_body_util::Full::new(bytes::Bytes::new()))
            .unwrap(),
    )
    .await;
    assert_eq!(response.status(), http::StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(response.headers()["retry-after"], "1");
    let body = response.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&body).unwrap(),
        json!({"error": {"code": 503, "status": "UNAVAILABLE",
            "message": "task store unavailable: the test store is down",
            "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "INTERNAL",
                "domain": "a2a-protocol.org", "metadata": {"retryable": "true"}},
                {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1s"}]}})
    );
    // The card is served whatever the store does.
    let card = common::send(
        server.addr,
        http::Request::get("/.well-known/agent-card.json")
            .header("host", "test")
            .body(http_body_util::Full::new(bytes::Bytes::new()))
            .unwrap(),
    )
    .await;
    assert_eq!(card.status(), http::StatusCode::OK);
}
