//! What the SQL stores add to the conformance suite: durability across a reconnect, retention,
//! wake-ups and leases across replicas, outbox bounds.

mod common;

use std::sync::Arc;
use std::time::Duration;

use a2a_server::store::{OutboxLimits, Owner, TaskEdit, TaskStore};
use a2a_store_sql::{SqlConfig, SqlRetention, SqlStore};
use a2a_types::protocol::ProtocolVersion;
use a2a_types::v1::{Task, TaskId, TaskPushNotificationConfig, TaskState, TaskStatus};

fn task(id: &str, state: TaskState) -> Task {
    Task::new(id, "ctx", TaskStatus::now(state))
}

async fn set_state(store: &dyn TaskStore, id: &str, state: TaskState) {
    store
        .update(
            &TaskId::from(id),
            Box::new(move |_, _| Some(TaskEdit::Status(TaskStatus::now(state)))),
            None,
        )
        .await
        .unwrap()
        .unwrap();
}

/// Everything acknowledged before a store goes is there when the file is opened again.
#[cfg(feature = "sqlite")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_keeps_tasks_and_logs_across_a_reconnect() {
    let path = common::sqlite_path();
    let url = format!("sqlite://{}", path.display());
    let first = common::connect(SqlConfig::new(&url)).await;
    first
        .create(
            task("t", TaskState::Submitted),
            Owner::default(),
            ProtocolVersion::V0_3,
        )
        .await
        .unwrap();
    set_state(&first, "t", TaskState::Working).await;
    set_state(&first, "t", TaskState::Completed).await;
    first.close().await;
    drop(first);
    let again = common::connect(SqlConfig::new(&url)).await;
    let stored = again.load(&"t".into()).await.unwrap().expect("kept");
    assert_eq!(stored.last_seq, 3);
    assert_eq!(stored.protocol_version, ProtocolVersion::V0_3);
    assert_eq!(stored.task.status.state, TaskState::Completed);
    let log = again.read_log(&"t".into(), 0, 10).await.unwrap();
    assert_eq!(log.iter().map(|e| e.seq).collect::<Vec<_>>(), [1, 2, 3]);
    let _ = std::fs::remove_file(&path);
}

/// A delivery enqueued before the store went (a crash before the worker sent it) is claimed
/// after the file is opened again.
#[cfg(feature = "sqlite")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_keeps_pending_deliveries_across_a_reconnect() {
    let path = common::sqlite_path();
    let url = format!("sqlite://{}", path.display());
    let first = common::connect(SqlConfig::new(&url)).await;
    let hook = TaskPushNotificationConfig::new("https://hook.example/a")
        .with_task_id("t")
        .with_id("a");
    first
        .put_push_config(hook.clone(), ProtocolVersion::V0_3)
        .await
        .unwrap();
    first
        .create(
            task("t", TaskState::Submitted),
            Owner::default(),
            ProtocolVersion::V1,
        )
        .await
        .unwrap();
    first.close().await;
    drop(first);
    let again = common::connect(SqlConfig::new(&url)).await;
    let claimed = again
        .claim_deliveries(std::time::SystemTime::now(), Duration::from_secs(30), 10)
        .await
        .unwrap();
    assert_eq!(claimed.deliveries.len(), 1);
    let delivery = &claimed.deliveries[0];
    assert_eq!(
        (delivery.seq, delivery.protocol_version),
        (1, ProtocolVersion::V0_3)
    );
    assert_eq!(delivery.config, hook);
    let _ = std::fs::remove_file(&path);
}

async fn retention_deletes_ended_tasks_only(config: SqlConfig) {
    let config = config.with_retention(
        SqlRetention::default()
            .with_terminal_ttl(Some(Duration::from_millis(1500)))
            .with_max_tasks(3)
            .with_batch(2)
            .with_sweep_interval(Duration::ZERO),
    );
    let store = common::connect(config).await;
    for i in 0..5 {
        let id = format!("done{i}");
        store
            .create(
                task(&id, TaskState::Working),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        set_state(&store, &id, TaskState::Completed).await;
    }
    store
        .create(
            task("live", TaskState::Working),
            Owner::default(),
            ProtocolVersion::V1,
        )
        .await
        .unwrap();
    // Six tasks, at most three: the two oldest ended ones go (a batch of two, then one more).
    assert_eq!(store.sweep().await.unwrap(), 3);
    for (id, kept) in [
        ("done0", false),
        ("done1", false),
        ("done2", false),
        ("done3", true),
    ] {
        assert_eq!(
            store.load(&id.into()).await.unwrap().is_some(),
            kept,
            "{id}"
        );
    }
    assert!(
        store
            .read_log(&"done0".into(), 0, 10)
            .await
            .unwrap()
            .is_empty()
    );
    tokio::time::sleep(Duration::from_millis(1700)).await;
    // By age: every ended task; the live one stays.
    assert_eq!(store.sweep().await.unwrap(), 2);
    assert!(store.load(&"live".into()).await.unwrap().is_some());
    assert_eq!(store.sweep().await.unwrap(), 0);
}

#[cfg(feature = "sqlite")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_retention_deletes_ended_tasks_only() {
    retention_deletes_ended_tasks_only(common::sqlite_config()).await;
}

#[cfg(feature = "postgres")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_retention_deletes_ended_tasks_only() {
    retention_deletes_ended_tasks_only(common::postgres_config()).await;
}

/// A reader on one replica wakes when another replica appends, long before its poll.
#[cfg(feature = "postgres")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_notify_wakes_readers_on_other_replicas() {
    let config = common::postgres_config();
    let a = common::connect(config.clone()).await;
    let b = Arc::new(common::connect(config.with_poll_interval(Duration::from_secs(60))).await);
    a.create(
        task("t", TaskState::Working),
        Owner::default(),
        ProtocolVersion::V1,
    )
    .await
    .unwrap();
    let waiter = {
        let b = b.clone();
        tokio::spawn(async move { b.wait(&"t".into(), 1).await })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!waiter.is_finished());
    set_state(&a, "t", TaskState::Completed).await;
    tokio::time::timeout(Duration::from_secs(10), waiter)
        .await
        .expect("woken by NOTIFY, not the 60 s poll")
        .unwrap()
        .unwrap();
    let log = b.read_log(&"t".into(), 1, 10).await.unwrap();
    assert_eq!(log.len(), 1);
}

/// A replica that stops leaves its active tasks leased; once the lease runs out another
/// replica fails them, saying why. A live replica keeps the leases of the tasks whose agent
/// runs in it, and only those: a task it wrote whose agent ended without a final write is
/// failed the same way.
async fn leases_resolve_tasks_of_stopped_replicas(config: SqlConfig) {
    let config = config.with_lease(Some(Duration::from_millis(300)));
    let dead = common::connect(config.clone().with_replica("dead")).await;
    let alive = common::connect(config.with_replica("alive")).await;
    dead.create(
        task("orphan", TaskState::Working),
        Owner::default(),
        ProtocolVersion::V1,
    )
    .await
    .unwrap();
    alive
        .create(
            task("kept", TaskState::Working),
            Owner::default(),
            ProtocolVersion::V1,
        )
        .await
        .unwrap();
    alive
        .create(
            task("waits", TaskState::Working),
            Owner::default(),
            ProtocolVersion::V1,
        )
        .await
        .unwrap();
    set_state(&alive, "waits", TaskState::InputRequired).await;
    alive
        .create(
            task("ended", TaskState::Working),
            Owner::default(),
            ProtocolVersion::V1,
        )
        .await
        .unwrap();
    // The agent of "kept" runs in the live replica; the one of "ended" ended without a final
    // write (a run that is over).
    let _running = alive.agent_running(&"kept".into());
    drop(alive.agent_running(&"ended".into()));
    // The replica stops: its keeper no longer renews.
    dead.close().await;
    drop(dead);
    tokio::time::sleep(Duration::from_millis(700)).await;
    let _ = alive.check_leases().await.unwrap();
    let orphan = alive.load(&"orphan".into()).await.unwrap().unwrap();
    assert_eq!(orphan.task.status.state, TaskState::Failed);
    let text = orphan.task.status.message.as_ref().unwrap().parts[0]
        .as_text()
        .unwrap()
        .to_owned();
    assert_eq!(
        text,
        "The replica running this task stopped before the task ended (its lease ran out); \
         send the message again to start a new task."
    );
    assert_eq!(orphan.last_seq, 2, "the failure is an event of the log");
    let kept = alive.load(&"kept".into()).await.unwrap().unwrap();
    assert_eq!(kept.task.status.state, TaskState::Working);
    let ended = alive.load(&"ended".into()).await.unwrap().unwrap();
    assert_eq!(ended.task.status.state, TaskState::Failed);
    let waits = alive.load(&"waits".into()).await.unwrap().unwrap();
    assert_eq!(waits.task.status.state, TaskState::InputRequired);
}

#[cfg(feature = "sqlite")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_leases_resolve_tasks_of_stopped_replicas() {
    leases_resolve_tasks_of_stopped_replicas(common::sqlite_config()).await;
}

#[cfg(feature = "postgres")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_leases_resolve_tasks_of_stopped_replicas() {
    leases_resolve_tasks_of_stopped_replicas(common::postgres_config()).await;
}

/// A configuration whose queue is full gets no delivery: counted as dropped, with the reason.
async fn full_queues_drop_and_say_why(config: SqlConfig) {
    let store =
        common::connect(config.with_outbox_limits(OutboxLimits::default().with_max_per_config(1)))
            .await;
    let hook = TaskPushNotificationConfig::new("https://hook.example/a")
        .with_task_id("t")
        .with_id("a");
    store
        .put_push_config(hook, ProtocolVersion::V1)
        .await
        .unwrap();
    store
        .create(
            task("t", TaskState::Submitted),
            Owner::default(),
            ProtocolVersion::V1,
        )
        .await
        .unwrap();
    set_state(&store, "t", TaskState::Working).await;
    let status = store.push_status(&"t".into()).await.unwrap();
    assert_eq!(status[0].dropped, 1);
    assert_eq!(
        status[0].last_error.as_deref(),
        Some(
            "the outbox holds 1 deliveries for push config `a` of task t, its limit \
             (max_per_config): event 2 was dropped"
        )
    );
    assert_eq!(status[0].deliveries.len(), 1);
}

#[cfg(feature = "sqlite")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_full_queues_drop_and_say_why() {
    full_queues_drop_and_say_why(common::sqlite_config()).await;
}

#[cfg(feature = "postgres")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_full_queues_drop_and_say_why() {
    full_queues_drop_and_say_why(common::postgres_config()).await;
}

/// A database that refuses connections fails `Unavailable` at once (not after the
/// acquire timeout, here ten minutes), saying so with its address, naming the URL without its
/// password, and with the kind's prefix once.
#[tokio::test]
async fn an_unreachable_database_is_unavailable_at_once() {
    let config = SqlConfig::new("postgres://me:secret@127.0.0.1:1/none")
        .with_acquire_timeout(Duration::from_secs(600));
    let err = tokio::time::timeout(Duration::from_secs(60), SqlStore::connect(config))
        .await
        .expect("refused at once, not after the acquire timeout")
        .unwrap_err();
    assert!(err.is_transient(), "{err:?}");
    assert_eq!(
        err.to_string(),
        "task store unavailable: cannot open postgres://me:***@127.0.0.1:1/none: connection \
         refused at 127.0.0.1:1"
    );
}

/// Replicas that start together on a schema that does not exist yet all come up: the schema
/// is made and migrated under one lock (four at once, twenty times over).
#[cfg(feature = "postgres")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_replicas_starting_together_on_a_new_schema_all_start() {
    for _ in 0..20 {
        let config = common::postgres_config().with_max_connections(2);
        let starts: Vec<_> = (0..4)
            .map(|_| tokio::spawn(SqlStore::connect(config.clone())))
            .collect();
        for start in starts {
            let store = start
                .await
                .unwrap()
                .unwrap_or_else(|err| panic!("a replica failed to start: {err}"));
            store.close().await;
        }
    }
}

/// The per-task byte bound (`HandlerConfig::max_task_bytes`) holds on the SQL stores as on the
/// memory store: each task's bytes are kept in its row and told to every change, so an agent
/// event that would take the task over is refused to the agent and a follow-up that would is
/// refused to the client, the task unchanged either way.
async fn the_per_task_byte_bound_holds(config: SqlConfig) {
    use a2a_server::HandlerConfig;
    use a2a_server::agent::{SinkError, agent_fn};
    use a2a_server::handler::CallContext;
    use a2a_types::v1::{
        AgentCard, Artifact, Message, Part, SendMessageRequest, SendMessageResponse,
    };

    let store = common::connect(config).await;
    let refusals = Arc::new(std::sync::Mutex::new(Vec::<SinkError>::new()));
    let seen = refusals.clone();
    // "big N": an artifact of N bytes of text (kept or refused), then input required.
    let agent = agent_fn(move |ctx, sink| {
        let seen = seen.clone();
        async move {
            let text = ctx.text();
            if let Some(n) = text.strip_prefix("big ") {
                let big = Artifact::new("big", vec![Part::text("x".repeat(n.parse()?))]);
                if let Err(err) = sink.artifact(big).await {
                    seen.lock().unwrap().push(err);
                }
            }
            sink.input_required("more?").await?;
            Ok(())
        }
    });
    let h = a2a_server::A2aService::builder(agent, AgentCard::new("bytes", "bytes", "1.0.0"))
        .store(store.clone())
        .handler_config(HandlerConfig::default().with_max_task_bytes(20_000))
        .build()
        .handler()
        .clone();
    let call = CallContext::new();
    let send = |text: &str| SendMessageRequest::new(Message::user_text(text));
    let SendMessageResponse::Task(task) = h.send_message(send("big 30000"), &call).await.unwrap()
    else {
        panic!("a task")
    };
    assert_eq!(task.status.state, TaskState::InputRequired);
    let refused = refusals.lock().unwrap().clone();
    assert!(
        matches!(&refused[..], [SinkError::TooLarge { limit, .. }] if limit.ends_with("more would take it over the limit of 20000 bytes a task may hold (max_task_bytes)")),
        "{refused:?}"
    );
    assert!(task.artifacts.is_empty());
    let before = store.load(&task.id).await.unwrap().unwrap();
    let mut follow_up = send(&"y".repeat(19_000));
    follow_up.message.task_id = Some(task.id.clone());
    let err = h.send_message(follow_up, &call).await.unwrap_err();
    assert_eq!(err.code().code(), -32004);
    assert!(
        err.message()
            .starts_with(&format!("task {} cannot take this message of ", task.id)),
        "{err}"
    );
    assert_eq!(store.load(&task.id).await.unwrap().unwrap(), before);
}

#[cfg(feature = "sqlite")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_the_per_task_byte_bound_holds() {
    the_per_task_byte_bound_holds(common::sqlite_config()).await;
}

#[cfg(feature = "postgres")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_the_per_task_byte_bound_holds() {
    the_per_task_byte_bound_holds(common::postgres_config()).await;
}
