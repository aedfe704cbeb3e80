//! Interrupted tasks do not wait for ever: after `HandlerConfig::interrupted_ttl` with no
//! follow-up and no agent running, a task in `TASK_STATE_INPUT_REQUIRED` or
//! `TASK_STATE_AUTH_REQUIRED` ends `TASK_STATE_FAILED`, which open streams see, and its place
//! under `RetentionPolicy::max_live_tasks` is free again.

mod common;

use std::sync::Arc;
use std::time::Duration;

use a2a_server::agent::agent_fn;
use a2a_server::handler::{CallContext, EventStream, RequestHandler, StreamEvent};
use a2a_server::store::{InMemoryTaskStore, RetentionPolicy, TaskStore};
use a2a_server::{A2aError, HandlerConfig};
use a2a_types::v1::*;
use common::{streaming_card as card, task_of, text_request as send};
use futures_util::StreamExt as _;
use pretty_assertions::assert_eq;
use tokio::sync::Semaphore;

/// "ask" asks for input, "auth" for authorization; "ask and wait" asks, then runs on until
/// `gate` gives it a permit; anything else completes.
fn handler(
    ttl: Option<Duration>,
    store: Arc<dyn TaskStore>,
    gate: Arc<Semaphore>,
) -> RequestHandler {
    let agent = agent_fn(move |ctx, sink| {
        let gate = gate.clone();
        async move {
            match ctx.text().as_str() {
                "ask" => sink.input_required("Which city?").await?,
                "auth" => sink.auth_required("Sign in first.").await?,
                "ask and wait" => {
                    sink.input_required("Which city?").await?;
                    let _permit = gate.acquire().await;
                }
                _ => sink.complete("done").await?,
            }
            Ok(())
        }
    });
    a2a_server::A2aService::builder(agent, card())
        .shared_store(store)
        .handler_config(HandlerConfig::default().with_interrupted_ttl(ttl))
        .build()
        .handler()
        .clone()
}

/// The events of a stream until it ends; a stream still open after 10 s is a failure (the
/// TTLs here are milliseconds).
async fn collect(stream: EventStream) -> Vec<StreamEvent> {
    tokio::time::timeout(
        Duration::from_secs(10),
        stream.map(Result::unwrap).collect(),
    )
    .await
    .expect("the stream ends once the task expired")
}

/// The status a stream's last event carries.
fn last_status(events: &[StreamEvent]) -> &TaskStatus {
    match &events.last().expect("at least one event").event {
        StreamResponse::StatusUpdate(update) => &update.status,
        other => panic!("expected a status update last, got {other:?}"),
    }
}

/// Subscribes to `task` and waits for the stream to end; returns the final status.
async fn wait_for_the_end(h: &RequestHandler, task: &TaskId, call: &CallContext) -> TaskStatus {
    let stream = h.subscribe_to_task(task, None, call).await.unwrap();
    last_status(&collect(stream).await).clone()
}

#[tokio::test]
async fn an_interrupted_task_fails_after_the_ttl_and_its_subscribers_see_it() {
    for (text, expected) in [
        (
            "ask",
            "The task waited longer than 100 ms for input and was closed (interrupted_ttl); \
             send a new message without taskId to start a new task.",
        ),
        (
            "auth",
            "The task waited longer than 100 ms for authorization and was closed \
             (interrupted_ttl); send a new message without taskId to start a new task.",
        ),
    ] {
        let store: Arc<dyn TaskStore> = Arc::new(InMemoryTaskStore::new());
        let ttl = Some(Duration::from_millis(100));
        let h = handler(ttl, store, Arc::new(Semaphore::new(0)));
        let call = CallContext::new();
        let task = task_of(h.send_message(send(text), &call).await.unwrap());
        assert!(task.status.state.is_interrupted(), "{:?}", task.status);

        // A subscriber waits on the interrupted task: the task as it is, then the expiry.
        let stream = h.subscribe_to_task(&task.id, None, &call).await.unwrap();
        let events = collect(stream).await;
        assert_eq!(events.len(), 2, "{events:?}");
        let status = last_status(&events);
        assert_eq!(status.state, TaskState::Failed);
        let message = status.message.as_ref().expect("a status message");
        assert_eq!(message.role, Role::Agent);
        assert_eq!(message.text(), expected);
        assert_eq!(message.task_id.as_ref(), Some(&task.id));

        let stored = h
            .get_task(GetTaskRequest::new(task.id.clone()), &call)
            .await
            .unwrap();
        assert_eq!(stored.status, *status);
        assert_eq!(stored.history.last(), Some(message));

        // A late answer is refused like any answer to an ended task.
        let late = SendMessageRequest::new(
            Message::new("m-2", Role::User, vec![Part::text("Paris")])
                .with_task_id(task.id.clone()),
        );
        assert_eq!(
            h.send_message(late, &call).await.unwrap_err(),
            A2aError::unsupported_operation(format!(
                "task {} is TASK_STATE_FAILED (a terminal state) and accepts no more messages; \
                 send a new message without taskId to start a new task",
                task.id
            ))
        );
    }
}

#[tokio::test]
async fn a_task_whose_agent_still_runs_does_not_expire() {
    let store: Arc<dyn TaskStore> = Arc::new(InMemoryTaskStore::new());
    let gate = Arc::new(Semaphore::new(0));
    let h = handler(Some(Duration::from_millis(20)), store, gate.clone());
    let call = CallContext::new();
    let task = task_of(h.send_message(send("ask and wait"), &call).await.unwrap());
    assert_eq!(task.status.state, TaskState::InputRequired);

    // Many TTLs later the agent still holds the task: it waits.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let now = h
        .get_task(GetTaskRequest::new(task.id.clone()), &call)
        .await
        .unwrap();
    assert_eq!(now.status, task.status);

    // Once the agent's turn ends, the clock runs.
    gate.add_permits(1);
    let status = wait_for_the_end(&h, &task.id, &call).await;
    assert_eq!(status.state, TaskState::Failed);
}

#[tokio::test]
async fn expired_tasks_free_their_place_under_max_live_tasks() {
    let store: Arc<dyn TaskStore> = Arc::new(InMemoryTaskStore::with_retention(
        RetentionPolicy::default().with_max_live_tasks(1),
    ));
    let h = handler(
        Some(Duration::from_millis(100)),
        store,
        Arc::new(Semaphore::new(0)),
    );
    let call = CallContext::new();
    let waiting = task_of(h.send_message(send("ask"), &call).await.unwrap());
    assert_eq!(
        h.send_message(send("hello"), &call).await.unwrap_err(),
        A2aError::unavailable(
            "the task store holds its limit of 1 unfinished tasks (max_live_tasks); try again \
             later",
            std::time::Duration::from_secs(1)
        )
    );
    let status = wait_for_the_end(&h, &waiting.id, &call).await;
    assert_eq!(status.state, TaskState::Failed);
    let next = task_of(h.send_message(send("hello"), &call).await.unwrap());
    assert_eq!(next.status.state, TaskState::Completed);
}
