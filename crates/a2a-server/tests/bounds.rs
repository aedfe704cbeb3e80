//! Bytes a task may hold, bytes and tasks the store may hold, bytes a `ListTasks` page may
//! carry: each limit refused with a clear error, the task left as it was.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_server::agent::{SinkError, agent_fn};
use a2a_server::handler::{CallContext, RequestHandler};
use a2a_server::store::{InMemoryTaskStore, RetentionPolicy, TaskEdit, TaskStore, task_bytes};
use a2a_server::{A2aError, A2aService, HandlerConfig};
use a2a_types::v1::*;
use pretty_assertions::assert_eq;

fn card() -> AgentCard {
    AgentCard::new("test", "test agent", "1.0.0")
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
}

fn send(text: &str) -> SendMessageRequest {
    SendMessageRequest::new(Message::new("m-1", Role::User, vec![Part::text(text)]))
}

fn task_of(r: SendMessageResponse) -> Task {
    match r {
        SendMessageResponse::Task(t) => t,
        other => panic!("expected a task, got {other:?}"),
    }
}

/// What the agents saw: how many ran, and the errors their sinks returned.
#[derive(Default)]
struct Seen {
    runs: AtomicUsize,
    refusals: Mutex<Vec<SinkError>>,
}

/// "ask" asks for input; "hold" works until cancelled; "big N" tries an artifact of N bytes of
/// text, then (refused or not) completes with a small one; anything else is echoed.
fn handler(config: HandlerConfig, store: Arc<dyn TaskStore>, seen: Arc<Seen>) -> RequestHandler {
    let agent = agent_fn(move |ctx, sink| {
        let seen = seen.clone();
        async move {
            seen.runs.fetch_add(1, Ordering::SeqCst);
            let text = ctx.text();
            if text == "ask" && ctx.task.is_none() {
                sink.input_required("which city?").await?;
                return Ok(());
            }
            if text == "hold" {
                sink.working(None).await?;
                ctx.cancelled().await;
                return Ok(());
            }
            sink.working(None).await?;
            if let Some(n) = text.strip_prefix("big ") {
                let big = Artifact::new("big", vec![Part::text("x".repeat(n.parse()?))]);
                if let Err(err) = sink.artifact(big).await {
                    seen.refusals.lock().unwrap().push(err);
                }
                sink.artifact(Artifact::new("small", vec![Part::text("ok")]))
                    .await?;
            } else {
                sink.artifact(Artifact::new("echo", vec![Part::text(text)]))
                    .await?;
            }
            sink.complete(None).await?;
            Ok(())
        }
    });
    a2a_server::A2aService::builder(agent, card())
        .shared_store(store)
        .handler_config(config.with_cancel_grace(Duration::from_millis(50)))
        .build()
        .handler()
        .clone()
}

/// A handler over a fresh store, whose tasks may hold `bytes` each.
fn with_max_task_bytes(bytes: u64) -> (RequestHandler, Arc<InMemoryTaskStore>, Arc<Seen>) {
    let store = Arc::new(InMemoryTaskStore::new());
    let seen = Arc::new(Seen::default());
    let config = HandlerConfig::default().with_max_task_bytes(bytes);
    (handler(config, store.clone(), seen.clone()), store, seen)
}

/// The task a new request with this message starts, as the store accounts it.
fn new_task_bytes(text: &str) -> u64 {
    let (task_id, context_id) = (TaskId::random(), ContextId::random());
    let message = Message::new("m-1", Role::User, vec![Part::text(text)])
        .with_task_id(task_id.clone())
        .with_context_id(context_id.clone());
    task_bytes(
        &Task::new(task_id, context_id, TaskStatus::now(TaskState::Submitted))
            .with_history([message]),
    )
}

#[tokio::test]
async fn a_message_larger_than_a_task_may_hold_is_refused_before_the_agent_runs() {
    let (h, store, seen) = with_max_task_bytes(10_000);
    let text = "x".repeat(10_000);
    let err = h
        .send_message(send(&text), &CallContext::new())
        .await
        .unwrap_err();
    assert_eq!(
        err,
        A2aError::invalid_params(format!(
            "the message takes {} bytes, more than the 10000 bytes a task may hold \
             (max_task_bytes)",
            new_task_bytes(&text)
        ))
    );
    assert_eq!(err.code().code(), -32602);
    assert_eq!(seen.runs.load(Ordering::SeqCst), 0);
    assert_eq!(store.len(), 0);
    assert_eq!(store.total_bytes(), 0);
    // A message that fits goes through.
    let task = task_of(
        h.send_message(send("small"), &CallContext::new())
            .await
            .unwrap(),
    );
    assert_eq!(task.status.state, TaskState::Completed);
}

#[tokio::test]
async fn a_follow_up_that_would_overfill_its_task_is_refused_and_changes_nothing() {
    let (h, store, seen) = with_max_task_bytes(20_000);
    let call = CallContext::new();
    let asked = task_of(h.send_message(send("ask"), &call).await.unwrap());
    assert_eq!(asked.status.state, TaskState::InputRequired);
    let before = store.load(&asked.id).await.unwrap().unwrap();
    let follow_up = |text: &str| {
        let mut req = send(text);
        req.message.task_id = Some(asked.id.clone());
        req
    };
    let text = "y".repeat(19_000);
    let err = h.send_message(follow_up(&text), &call).await.unwrap_err();
    let mut recorded = Message::new("m-1", Role::User, vec![Part::text(text.as_str())])
        .with_task_id(asked.id.clone());
    recorded.context_id.clone_from(&asked.context_id);
    let bytes = TaskEdit::Message(recorded).bytes();
    assert_eq!(
        err,
        A2aError::unsupported_operation(format!(
            "task {} cannot take this message of {bytes} bytes: the task holds {} bytes, and \
             {bytes} more would take it over the limit of 20000 bytes a task may hold \
             (max_task_bytes)",
            asked.id, before.bytes
        ))
    );
    assert_eq!(err.code().code(), -32004);
    // Nothing changed, and no agent ran for it.
    assert_eq!(store.load(&asked.id).await.unwrap().unwrap(), before);
    assert_eq!(seen.runs.load(Ordering::SeqCst), 1);
    // The task takes a message that fits.
    let done = task_of(h.send_message(follow_up("Paris"), &call).await.unwrap());
    assert_eq!(done.status.state, TaskState::Completed);
    assert_eq!(done.artifacts[0].text(), "Paris");
}

#[tokio::test]
async fn an_agent_event_that_would_overfill_its_task_is_refused_to_the_agent() {
    let (h, store, seen) = with_max_task_bytes(50_000);
    let task = task_of(
        h.send_message(send("big 60000"), &CallContext::new())
            .await
            .unwrap(),
    );
    // The agent was told, went on, and completed with what fits.
    let refusals = seen.refusals.lock().unwrap().clone();
    let big = TaskEdit::Artifact {
        artifact: Artifact::new("big", vec![Part::text("x".repeat(60_000))]),
        append: false,
        last_chunk: false,
    };
    let held =
        new_task_bytes("big 60000") + TaskEdit::Status(TaskStatus::now(TaskState::Working)).bytes();
    assert_eq!(
        refusals,
        [SinkError::TooLarge {
            task_id: task.id.clone(),
            bytes: big.bytes(),
            limit: format!(
                "the task holds {held} bytes, and {} more would take it over the limit of \
                 50000 bytes a task may hold (max_task_bytes)",
                big.bytes()
            ),
        }]
    );
    assert_eq!(
        refusals[0].to_string(),
        format!(
            "task {} cannot take an event of {} bytes: the task holds {held} bytes, and {} more \
             would take it over the limit of 50000 bytes a task may hold (max_task_bytes)",
            task.id,
            big.bytes(),
            big.bytes()
        )
    );
    assert_eq!(task.status.state, TaskState::Completed);
    assert_eq!(
        task.artifacts,
        [Artifact::new("small", vec![Part::text("ok")])]
    );
    // The refused event is not in the log: task, working, small, completed.
    let log = store.read_log(&task.id, 0, 100).await.unwrap();
    assert_eq!(log.len(), 4);
    assert!(log.iter().all(|e| match &e.event {
        StreamResponse::ArtifactUpdate(a) => a.artifact.artifact_id == "small",
        _ => true,
    }));
    assert!(store.load(&task.id).await.unwrap().unwrap().bytes < 50_000);
}

#[tokio::test]
async fn the_store_budget_drops_ended_tasks_by_bytes() {
    let one = new_task_bytes(&"z".repeat(10_000));
    let store = Arc::new(InMemoryTaskStore::with_retention(
        RetentionPolicy::default()
            .with_terminal_ttl(None)
            .with_max_total_bytes(70_000),
    ));
    let h = handler(
        HandlerConfig::default(),
        store.clone(),
        Arc::new(Seen::default()),
    );
    let call = CallContext::new();
    let mut ids = Vec::new();
    for i in 0..6 {
        // Each echo task holds its message and an artifact as large: about 2 * one bytes.
        let text = format!("{i}{}", "z".repeat(9_999));
        let task = task_of(h.send_message(send(&text), &call).await.unwrap());
        assert_eq!(task.artifacts[0].text(), text);
        ids.push(task.id);
        assert!(store.total_bytes() <= 70_000, "{}", store.total_bytes());
    }
    let per_task = store.load(&ids[5]).await.unwrap().unwrap().bytes;
    assert!(
        per_task > 2 * one - 1000 && per_task < 70_000 / 3,
        "{per_task}"
    );
    // The three newest fit; the older ones went, oldest first, though far below max_tasks.
    let kept = usize::try_from(70_000 / per_task).unwrap();
    assert_eq!(kept, 3);
    assert_eq!(store.len(), kept);
    for (i, id) in ids.iter().enumerate() {
        let found = h.get_task(GetTaskRequest::new(id.clone()), &call).await;
        if i < 6 - kept {
            assert_eq!(found.unwrap_err(), A2aError::task_not_found(id.clone()));
        } else {
            assert_eq!(found.unwrap().id, *id);
        }
    }
}

#[tokio::test]
async fn a_store_full_of_live_tasks_refuses_new_ones() {
    let store = Arc::new(InMemoryTaskStore::with_retention(
        RetentionPolicy::default().with_max_live_tasks(2),
    ));
    let seen = Arc::new(Seen::default());
    let h = handler(HandlerConfig::default(), store.clone(), seen.clone());
    let call = CallContext::new();
    let hold = || {
        send("hold")
            .with_configuration(SendMessageConfiguration::default().with_return_immediately(true))
    };
    let first = task_of(h.send_message(hold(), &call).await.unwrap());
    task_of(h.send_message(hold(), &call).await.unwrap());
    let err = h.send_message(hold(), &call).await.unwrap_err();
    assert_eq!(
        err,
        A2aError::unavailable(
            "the task store holds its limit of 2 unfinished tasks (max_live_tasks); try again \
             later",
            std::time::Duration::from_secs(1)
        )
    );
    // Refused before its agent ran.
    assert_eq!(seen.runs.load(Ordering::SeqCst), 2);
    // Once one ends, there is room again.
    h.cancel_task(CancelTaskRequest::new(first.id), &call)
        .await
        .unwrap();
    let done = task_of(h.send_message(send("again"), &call).await.unwrap());
    assert_eq!(done.status.state, TaskState::Completed);
}

#[tokio::test]
async fn a_list_page_is_cut_by_bytes_and_its_cursor_gives_the_rest() {
    let store = Arc::new(InMemoryTaskStore::new());
    let h = handler(
        HandlerConfig::default().with_max_page_bytes(25_000),
        store.clone(),
        Arc::new(Seen::default()),
    );
    let call = CallContext::new();
    let mut ids = Vec::new();
    for i in 0..5 {
        let text = format!("{i}{}", "w".repeat(9_999));
        ids.push(task_of(h.send_message(send(&text), &call).await.unwrap()).id);
    }
    ids.reverse();
    let with_artifacts = ListTasksRequest::new()
        .with_include_artifacts(true)
        .with_history_length(0);
    // Each task shows ~10 KB of artifact: two fit in 25 000 bytes.
    let mut seen = Vec::new();
    let mut request = with_artifacts.clone();
    let mut pages = 0;
    loop {
        let page = h.list_tasks(request.clone(), &call).await.unwrap();
        pages += 1;
        assert!(page.tasks.len() <= 2, "{}", page.tasks.len());
        assert_eq!(page.total_size, 5);
        let bytes: usize = page
            .tasks
            .iter()
            .map(|t| serde_json::to_string(t).unwrap().len() + 1)
            .sum();
        assert!(bytes <= 25_000 || page.tasks.len() == 1, "{bytes}");
        for task in &page.tasks {
            assert_eq!(task.artifacts.len(), 1);
            assert!(task.history.is_empty());
        }
        seen.extend(page.tasks.into_iter().map(|t| t.id));
        if page.next_page_token.is_empty() {
            break;
        }
        request = with_artifacts.clone().with_page_token(page.next_page_token);
    }
    assert_eq!(seen, ids);
    assert_eq!(pages, 3);
    // Without artifacts and history, the tasks are small: one page holds them all.
    let small = h
        .list_tasks(ListTasksRequest::new().with_history_length(0), &call)
        .await
        .unwrap();
    assert_eq!(small.tasks.len(), 5);
    assert_eq!(small.next_page_token, "");
}

/// Over a socket: a `ListTasks` asking for every task with its artifacts gets a page within
/// the byte limit and a cursor, not every byte at once.
#[tokio::test]
async fn list_tasks_over_a_socket_is_bounded_in_bytes() {
    let agent = agent_fn(|ctx, sink| async move {
        sink.working(None).await?;
        sink.artifact(Artifact::new("echo", vec![Part::text(ctx.text())]))
            .await?;
        sink.complete(None).await?;
        Ok(())
    });
    let service = A2aService::builder(agent, card())
        .handler_config(HandlerConfig::default().with_max_page_bytes(30_000))
        .build();
    let server = common::start(service).await;
    for i in 0..4 {
        let body = serde_json::json!({
            "jsonrpc": "2.0", "id": i, "method": "SendMessage",
            "params": {"message": {"messageId": format!("m-{i}"), "role": "ROLE_USER",
                       "parts": [{"text": format!("{i}{}", "v".repeat(19_999))}]}}
        });
        let (status, _, text) = common::rpc(server.addr, &body.to_string()).await;
        assert_eq!(status, 200, "{text}");
    }
    let list = r#"{"jsonrpc":"2.0","id":9,"method":"ListTasks","params":{"includeArtifacts":true,"historyLength":0}}"#;
    let (_, _, text) = common::rpc(server.addr, list).await;
    assert!(text.len() < 30_000 + 500, "{}", text.len());
    let page: serde_json::Value = serde_json::from_str(&text).unwrap();
    let result = &page["result"];
    assert_eq!(result["tasks"].as_array().unwrap().len(), 1);
    assert_eq!(result["totalSize"], 4);
    let token = result["nextPageToken"].as_str().unwrap();
    assert!(!token.is_empty());
    let next = serde_json::json!({
        "jsonrpc": "2.0", "id": 10, "method": "ListTasks",
        "params": {"includeArtifacts": true, "historyLength": 0, "pageToken": token}
    });
    let (_, _, text) = common::rpc(server.addr, &next.to_string()).await;
    let page: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(page["result"]["tasks"].as_array().unwrap().len(), 1);
}
