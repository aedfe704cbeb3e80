//! The behaviour every [`TaskStore`] must show, as async test functions any store's tests run
//! (feature `store-conformance`).
//!
//! Each function takes a fresh, empty store and panics when the store breaks the contract of
//! the [module docs](super). [`store_conformance_tests!`](crate::store_conformance_tests)
//! writes one `#[tokio::test]` per function for a factory of stores, so that a new store gets
//! the whole suite with one line:
//!
//! ```
//! use std::sync::Arc;
//!
//! use a2a_server::store::{InMemoryTaskStore, TaskStore};
//!
//! async fn fresh() -> Arc<dyn TaskStore> {
//!     Arc::new(InMemoryTaskStore::new())
//! }
//!
//! # fn main() {
//! # tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap().block_on(async {
//! a2a_server::store::conformance::create_then_load(fresh().await).await;
//! a2a_server::store::conformance::concurrent_updates_keep_every_event(fresh().await).await;
//! # });
//! # }
//! // In a test module: one test per behaviour.
//! // a2a_server::store_conformance_tests!(fresh);
//! ```
//!
//! What is left to each store's own tests: its retention, its bounds (`Full`), pins.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use a2a_types::protocol::ProtocolVersion;
use a2a_types::v1::{
    Artifact, Message, Part, StreamResponse, Task, TaskId, TaskPushNotificationConfig, TaskState,
    TaskStatus, Timestamp,
};
use serde_json::json;

use super::{
    DeliveryState, ListQuery, Owner, Settle, StoreError, TaskEdit, TaskStore, UpdateOutcome,
    task_bytes,
};
use crate::auth::Principal;

/// Writes one `#[tokio::test]` (multi-threaded) per conformance function, each on a store from
/// `$make`: an async function (or closure) returning `Arc<dyn TaskStore>`.
#[macro_export]
macro_rules! store_conformance_tests {
    ($make:expr) => {
        $crate::store_conformance_tests!(@each $make;
            create_then_load,
            create_twice_fails,
            update_applies_and_logs,
            update_without_edit_logs_nothing,
            update_of_a_missing_task,
            artifacts_append_and_replace,
            generations_count_every_event,
            read_log_pages,
            wait_wakes_on_append,
            concurrent_updates_keep_every_event,
            list_filters_by_owner_context_and_state,
            list_pages_newest_first,
            list_pages_while_inserting,
            list_presents_and_bounds_bytes,
            invalid_page_token,
            push_configs_in_creation_order,
            outbox_delivers_in_order,
            outbox_settles_under_its_lease,
        );
    };
    (@each $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                $crate::store::conformance::$name(($make)().await).await;
            }
        )*
    };
}

/// Ten minutes ago: recent enough that no store's retention drops an ended task of then.
fn recent() -> i64 {
    Timestamp::now().unix_seconds() - 600
}

fn at(unix: i64) -> Timestamp {
    Timestamp::from_unix(unix, 0).expect("a valid time")
}

/// A task as created: its generation is 1 (the log's first event), whatever the creator set.
fn task(id: &str, context: &str, state: TaskState, unix: i64) -> Task {
    let mut task = Task::new(id, context, TaskStatus::new(state).with_timestamp(at(unix)));
    task.generation = 1;
    task
}

async fn create(store: &dyn TaskStore, task: Task, owner: Owner) -> UpdateOutcome {
    store
        .create(task, owner, ProtocolVersion::V1)
        .await
        .expect("create")
}

async fn edit(store: &dyn TaskStore, id: &str, edit: TaskEdit) -> UpdateOutcome {
    store
        .update(
            &TaskId::from(id),
            Box::new(move |_, _| Some(edit.clone())),
            None,
        )
        .await
        .expect("update")
        .expect("the task exists")
}

fn status(state: TaskState, unix: i64) -> TaskEdit {
    TaskEdit::Status(TaskStatus::new(state).with_timestamp(at(unix)))
}

fn query(owner: Owner, page_size: usize) -> ListQuery {
    ListQuery {
        owner,
        page_size,
        include_artifacts: true,
        ..ListQuery::default()
    }
}

fn ids(tasks: &[Task]) -> Vec<String> {
    tasks.iter().map(|t| t.id.to_string()).collect()
}

/// A task reads back as created, with its owner, version, first event and bytes.
pub async fn create_then_load(store: Arc<dyn TaskStore>) {
    let owner = Owner::new(Some(Principal::new("alice")), Some("acme".to_owned()));
    let created = task("t-1", "c-1", TaskState::Submitted, 1_700_000_000)
        .with_history([Message::user_text("hello")]);
    let outcome = store
        .create(created.clone(), owner.clone(), ProtocolVersion::V0_3)
        .await
        .unwrap();
    assert_eq!(
        outcome,
        UpdateOutcome {
            last_seq: 1,
            state: TaskState::Submitted
        }
    );
    let stored = store.load(&"t-1".into()).await.unwrap().expect("stored");
    assert_eq!(stored.task, created);
    assert_eq!(stored.owner, owner);
    assert_eq!(stored.protocol_version, ProtocolVersion::V0_3);
    assert_eq!(stored.last_seq, 1);
    assert_eq!(stored.bytes, task_bytes(&created));
    assert_eq!(store.progress(&"t-1".into()).await.unwrap(), Some(outcome));
    let log = store.read_log(&"t-1".into(), 0, 10).await.unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].seq, 1);
    assert_eq!(log[0].event, StreamResponse::Task(created));
    assert_eq!(store.load(&"t-2".into()).await.unwrap(), None);
    assert_eq!(store.progress(&"t-2".into()).await.unwrap(), None);
}

/// A second `create` of an id fails with `AlreadyExists` and changes nothing.
pub async fn create_twice_fails(store: Arc<dyn TaskStore>) {
    let first = task("t", "c", TaskState::Submitted, 1_700_000_000);
    create(&*store, first.clone(), Owner::default()).await;
    let again = store
        .create(
            task("t", "other", TaskState::Working, 1_700_000_001),
            Owner::default(),
            ProtocolVersion::V1,
        )
        .await;
    assert_eq!(again, Err(StoreError::AlreadyExists("t".into())));
    assert_eq!(store.load(&"t".into()).await.unwrap().unwrap().task, first);
}

/// An edit changes the task and appends its event, with the next sequence number; the change
/// is told the task as it stands and the bytes it holds, and the observer sees the result.
pub async fn update_applies_and_logs(store: Arc<dyn TaskStore>) {
    let created = task("t", "c", TaskState::Submitted, 1_700_000_000);
    let bytes = task_bytes(&created);
    create(&*store, created, Owner::default()).await;
    let seen = Arc::new(std::sync::Mutex::new(None));
    let observed = Arc::new(std::sync::Mutex::new(None));
    let (seen_in, observed_in) = (seen.clone(), observed.clone());
    let working = status(TaskState::Working, 1_700_000_005);
    let cost = working.bytes();
    let outcome = store
        .update(
            &"t".into(),
            Box::new(move |task, room| {
                *seen_in.lock().unwrap() = Some((task.status.state, room.task_bytes));
                Some(working.clone())
            }),
            Some(Box::new(move |task| {
                *observed_in.lock().unwrap() = Some(task.status.state);
            })),
        )
        .await
        .unwrap();
    assert_eq!(
        outcome,
        Some(UpdateOutcome {
            last_seq: 2,
            state: TaskState::Working
        })
    );
    assert_eq!(
        *seen.lock().unwrap(),
        Some((TaskState::Submitted, bytes)),
        "the change sees the stored task and its bytes"
    );
    assert_eq!(*observed.lock().unwrap(), Some(TaskState::Working));
    let stored = store.load(&"t".into()).await.unwrap().unwrap();
    assert_eq!(stored.bytes, bytes + cost);
    assert_eq!(stored.last_seq, 2);
    let log = store.read_log(&"t".into(), 1, 10).await.unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].seq, 2);
    assert_eq!(
        serde_json::to_value(&log[0].event).unwrap(),
        json!({"statusUpdate": {
            "taskId": "t",
            "contextId": "c",
            "status": {"state": "TASK_STATE_WORKING", "timestamp": "2023-11-14T22:13:25.000Z"},
            "generation": "2"
        }})
    );
    assert_eq!(stored.task.generation, 2);
    // A message joins the history and logs nothing.
    let outcome = edit(&*store, "t", TaskEdit::Message(Message::user_text("more"))).await;
    assert_eq!(outcome.last_seq, 2);
    let stored = store.load(&"t".into()).await.unwrap().unwrap();
    assert_eq!(stored.task.history.len(), 1);
}

/// A change that returns no edit leaves task and log alone and calls no observer.
pub async fn update_without_edit_logs_nothing(store: Arc<dyn TaskStore>) {
    let created = task("t", "c", TaskState::Working, 1_700_000_000);
    create(&*store, created.clone(), Owner::default()).await;
    let called = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let called_in = called.clone();
    let outcome = store
        .update(
            &"t".into(),
            Box::new(|_, _| None),
            Some(Box::new(move |_| {
                called_in.store(true, std::sync::atomic::Ordering::SeqCst);
            })),
        )
        .await
        .unwrap();
    assert_eq!(
        outcome,
        Some(UpdateOutcome {
            last_seq: 1,
            state: TaskState::Working
        })
    );
    assert!(!called.load(std::sync::atomic::Ordering::SeqCst));
    assert_eq!(
        store.load(&"t".into()).await.unwrap().unwrap().task,
        created
    );
}

/// Updating a task that does not exist is `None`, and its change is not called.
pub async fn update_of_a_missing_task(store: Arc<dyn TaskStore>) {
    let outcome = store
        .update(
            &"nope".into(),
            Box::new(|_, _| panic!("no task, no change")),
            None,
        )
        .await
        .unwrap();
    assert_eq!(outcome, None);
    assert!(
        store
            .read_log(&"nope".into(), 0, 10)
            .await
            .unwrap()
            .is_empty()
    );
}

/// A2A 1.1 generations, over random sequences of edits (a property test with a fixed seed per
/// run, so a failure names its sequence): the task is at generation 1 when created (whatever
/// its creator set) and 1 more per logged event; each event carries the generation after it,
/// equal to its sequence number, without gaps or repeats; a message changes nothing; the
/// change is told the generation the task stands at.
pub async fn generations_count_every_event(store: Arc<dyn TaskStore>) {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: u64| {
        // xorshift64*: reproducible, no dependency.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    };
    for round in 0..8 {
        let id = format!("g-{round}");
        let mut created = task(&id, "c", TaskState::Submitted, 1_700_000_000);
        created.generation = 41; // ignored: a store numbers from 1
        create(&*store, created, Owner::default()).await;
        let mut logged = 1_u64;
        for step in 0..next(20) {
            let edit = match next(5) {
                0 => TaskEdit::Message(Message::user_text("more")),
                1 => TaskEdit::Restate(at(1_700_000_001 + i64::try_from(step).unwrap())),
                2 => TaskEdit::Artifact {
                    artifact: Artifact::new(format!("a{}", next(3)), vec![Part::text("x")]),
                    append: next(2) == 0,
                    last_chunk: false,
                },
                _ => status(
                    [TaskState::Working, TaskState::InputRequired][usize::from(next(2) == 0)],
                    1_700_000_001,
                ),
            };
            let logs = !matches!(edit, TaskEdit::Message(_));
            let seen = Arc::new(std::sync::Mutex::new(0_i64));
            let seen_in = seen.clone();
            let outcome = store
                .update(
                    &TaskId::from(id.as_str()),
                    Box::new(move |task, _| {
                        *seen_in.lock().unwrap() = task.generation;
                        Some(edit.clone())
                    }),
                    None,
                )
                .await
                .unwrap()
                .unwrap();
            assert_eq!(
                *seen.lock().unwrap(),
                i64::try_from(logged).unwrap(),
                "{id} step {step}: the change sees the generation"
            );
            logged += u64::from(logs);
            assert_eq!(outcome.last_seq, logged, "{id} step {step}");
        }
        let stored = store
            .load(&TaskId::from(id.as_str()))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            stored.task.generation,
            i64::try_from(logged).unwrap(),
            "{id}"
        );
        let log = store
            .read_log(&TaskId::from(id.as_str()), 0, 100)
            .await
            .unwrap();
        let generations: Vec<i64> = log
            .iter()
            .map(|entry| match &entry.event {
                StreamResponse::Task(task) => task.generation,
                StreamResponse::StatusUpdate(update) => update.generation,
                StreamResponse::ArtifactUpdate(update) => update.generation,
                other => panic!("{id}: an unexpected event {other:?}"),
            })
            .collect();
        let expected: Vec<i64> = (1..=i64::try_from(logged).unwrap()).collect();
        assert_eq!(
            generations, expected,
            "{id}: one generation per event, from 1"
        );
        let listed = store.list(&query(Owner::default(), 100)).await.unwrap();
        let listed = listed.tasks.iter().find(|t| t.id.as_str() == id).unwrap();
        assert_eq!(
            listed.generation,
            i64::try_from(logged).unwrap(),
            "{id} listed"
        );
    }
}

/// Artifacts: appended chunks extend, a whole artifact replaces; the task reads back as
/// [`TaskEdit::apply`] leaves it and each event carries the artifact as given.
pub async fn artifacts_append_and_replace(store: Arc<dyn TaskStore>) {
    let mut expected = task("t", "c", TaskState::Working, 1_700_000_000);
    create(&*store, expected.clone(), Owner::default()).await;
    let edits = [
        (Artifact::new("a", vec![Part::text("one ")]), false, false),
        (Artifact::new("a", vec![Part::text("two")]), true, true),
        (Artifact::new("b", vec![Part::text("bee")]), false, true),
        (Artifact::new("a", vec![Part::text("new")]), false, true),
    ];
    let mut events = Vec::new();
    for (artifact, append, last_chunk) in edits {
        let change = TaskEdit::Artifact {
            artifact,
            append,
            last_chunk,
        };
        events.push(change.clone().apply(&mut expected).expect("an event"));
        edit(&*store, "t", change).await;
    }
    let stored = store.load(&"t".into()).await.unwrap().unwrap();
    assert_eq!(stored.task, expected);
    assert_eq!(
        serde_json::to_value(&stored.task.artifacts).unwrap(),
        json!([
            {"artifactId": "a", "parts": [{"text": "new"}]},
            {"artifactId": "b", "parts": [{"text": "bee"}]}
        ])
    );
    let log = store.read_log(&"t".into(), 1, 10).await.unwrap();
    let logged: Vec<_> = log.into_iter().map(|e| e.event).collect();
    assert_eq!(logged, events);
}

/// `read_log` pages from a cursor, oldest first, without gaps.
pub async fn read_log_pages(store: Arc<dyn TaskStore>) {
    create(
        &*store,
        task("t", "c", TaskState::Working, 1_700_000_000),
        Owner::default(),
    )
    .await;
    for i in 1..=9 {
        edit(&*store, "t", status(TaskState::Working, 1_700_000_000 + i)).await;
    }
    let page = store.read_log(&"t".into(), 3, 4).await.unwrap();
    let seqs: Vec<u64> = page.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [4, 5, 6, 7]);
    let rest = store.read_log(&"t".into(), 7, 100).await.unwrap();
    assert_eq!(rest.iter().map(|e| e.seq).collect::<Vec<_>>(), [8, 9, 10]);
    assert!(
        store
            .read_log(&"t".into(), 10, 100)
            .await
            .unwrap()
            .is_empty()
    );
}

/// `wait` returns at once when the log is past the cursor or the task is missing, and
/// otherwise once an event is appended.
pub async fn wait_wakes_on_append(store: Arc<dyn TaskStore>) {
    create(
        &*store,
        task("t", "c", TaskState::Working, 1_700_000_000),
        Owner::default(),
    )
    .await;
    let soon = Duration::from_secs(10);
    tokio::time::timeout(soon, store.wait(&"t".into(), 0))
        .await
        .expect("past the cursor: at once")
        .unwrap();
    tokio::time::timeout(soon, store.wait(&"missing".into(), 0))
        .await
        .expect("a missing task: at once")
        .unwrap();
    let waiter = {
        let store = store.clone();
        tokio::spawn(async move { store.wait(&"t".into(), 1).await })
    };
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!waiter.is_finished(), "nothing appended yet");
    edit(&*store, "t", status(TaskState::Completed, recent())).await;
    tokio::time::timeout(soon, waiter)
        .await
        .expect("woken by the append")
        .unwrap()
        .unwrap();
}

/// Updates of one task from many tasks at once: every one is applied, the log has one event
/// per update, numbered without gaps, and the artifact holds every chunk.
pub async fn concurrent_updates_keep_every_event(store: Arc<dyn TaskStore>) {
    let mut created = task("t", "c", TaskState::Working, 1_700_000_000);
    created.artifacts.push(Artifact::new("a", Vec::new()));
    create(&*store, created, Owner::default()).await;
    let (writers, each) = (8, 10);
    let mut handles = Vec::new();
    for w in 0..writers {
        let store = store.clone();
        handles.push(tokio::spawn(async move {
            for i in 0..each {
                let chunk = TaskEdit::Artifact {
                    artifact: Artifact::new("a", vec![Part::text(format!("{w}.{i};"))]),
                    append: true,
                    last_chunk: false,
                };
                edit(&*store, "t", chunk).await;
            }
        }));
    }
    for handle in handles {
        handle.await.unwrap();
    }
    let total = 1 + writers * each;
    let stored = store.load(&"t".into()).await.unwrap().unwrap();
    assert_eq!(stored.last_seq, total);
    assert_eq!(stored.task.artifacts[0].parts.len() as u64, writers * each);
    let log = store.read_log(&"t".into(), 0, 1000).await.unwrap();
    assert_eq!(
        log.iter().map(|e| e.seq).collect::<Vec<_>>(),
        (1..=total).collect::<Vec<_>>()
    );
    // Each writer's chunks are in its own order.
    for w in 0..writers {
        let prefix = format!("{w}.");
        let mine: Vec<String> = log
            .iter()
            .filter_map(|e| match &e.event {
                StreamResponse::ArtifactUpdate(update) => {
                    update.artifact.parts[0].as_text().map(str::to_owned)
                }
                _ => None,
            })
            .filter(|text| text.starts_with(&prefix))
            .collect();
        let expected: Vec<String> = (0..each).map(|i| format!("{w}.{i};")).collect();
        assert_eq!(mine, expected);
    }
}

/// `list` sees only the owner's tasks (principal and tenant), and filters by context and state.
pub async fn list_filters_by_owner_context_and_state(store: Arc<dyn TaskStore>) {
    let alice = Owner::new(Some(Principal::new("alice")), None);
    let alice_acme = Owner::new(Some(Principal::new("alice")), Some("acme".to_owned()));
    let bob = Owner::new(Some(Principal::new("bob")), None);
    let base = recent();
    create(
        &*store,
        task("a1", "x", TaskState::Working, base),
        alice.clone(),
    )
    .await;
    create(
        &*store,
        task("a2", "y", TaskState::Completed, base + 1),
        alice.clone(),
    )
    .await;
    create(
        &*store,
        task("a3", "x", TaskState::Completed, base + 2),
        alice.clone(),
    )
    .await;
    create(
        &*store,
        task("t1", "x", TaskState::Working, base + 3),
        alice_acme.clone(),
    )
    .await;
    create(
        &*store,
        task("b1", "x", TaskState::Working, base + 4),
        bob.clone(),
    )
    .await;
    create(
        &*store,
        task("n1", "x", TaskState::Working, base + 5),
        Owner::default(),
    )
    .await;

    let page = store.list(&query(alice.clone(), 10)).await.unwrap();
    assert_eq!(ids(&page.tasks), ["a3", "a2", "a1"]);
    assert_eq!(page.total_size, 3);
    assert_eq!(page.next_page_token, "");
    let page = store.list(&query(alice_acme, 10)).await.unwrap();
    assert_eq!(ids(&page.tasks), ["t1"]);
    let page = store.list(&query(Owner::default(), 10)).await.unwrap();
    assert_eq!(ids(&page.tasks), ["n1"]);

    let mut by_context = query(alice.clone(), 10);
    by_context.context_id = Some("x".into());
    assert_eq!(
        ids(&store.list(&by_context).await.unwrap().tasks),
        ["a3", "a1"]
    );
    let mut by_state = query(alice.clone(), 10);
    by_state.state = Some(TaskState::Completed);
    let page = store.list(&by_state).await.unwrap();
    assert_eq!(ids(&page.tasks), ["a3", "a2"]);
    assert_eq!(page.total_size, 2);
    let mut recent = query(alice, 10);
    recent.status_after = Some(at(base + 1));
    assert_eq!(ids(&store.list(&recent).await.unwrap().tasks), ["a3", "a2"]);
}

/// Pages follow each other newest status first, each token leading to the next page; a task
/// whose status changes moves to the front.
pub async fn list_pages_newest_first(store: Arc<dyn TaskStore>) {
    let base = recent();
    for i in 0..7 {
        create(
            &*store,
            task(&format!("t{i}"), "c", TaskState::Working, base + i),
            Owner::default(),
        )
        .await;
    }
    // Same timestamp: ties are broken by creation, newest first.
    create(
        &*store,
        task("t7", "c", TaskState::Working, base + 6),
        Owner::default(),
    )
    .await;
    let mut seen = Vec::new();
    let mut q = query(Owner::default(), 3);
    loop {
        let page = store.list(&q).await.unwrap();
        assert_eq!(page.total_size, 8);
        seen.push(ids(&page.tasks));
        if page.next_page_token.is_empty() {
            break;
        }
        q.page_token = Some(page.next_page_token);
    }
    assert_eq!(
        seen,
        [
            vec!["t7", "t6", "t5"],
            vec!["t4", "t3", "t2"],
            vec!["t1", "t0"]
        ]
    );
    edit(&*store, "t0", status(TaskState::Completed, base + 100)).await;
    let first = store.list(&query(Owner::default(), 2)).await.unwrap();
    assert_eq!(ids(&first.tasks), ["t0", "t7"]);
}

/// Tasks created between pages (newer than the cursor) neither repeat nor hide the older
/// tasks still to come.
pub async fn list_pages_while_inserting(store: Arc<dyn TaskStore>) {
    let base = recent();
    for i in 0..6 {
        create(
            &*store,
            task(&format!("old{i}"), "c", TaskState::Working, base + i),
            Owner::default(),
        )
        .await;
    }
    let mut q = query(Owner::default(), 2);
    let mut seen = Vec::new();
    let mut round = 0;
    loop {
        let page = store.list(&q).await.unwrap();
        seen.extend(ids(&page.tasks));
        if page.next_page_token.is_empty() {
            break;
        }
        q.page_token = Some(page.next_page_token);
        create(
            &*store,
            task(
                &format!("new{round}"),
                "c",
                TaskState::Working,
                base + 50 + round,
            ),
            Owner::default(),
        )
        .await;
        round += 1;
    }
    assert_eq!(seen, ["old5", "old4", "old3", "old2", "old1", "old0"]);
}

/// A page shows each task as asked (history length, artifacts) and stops before the task
/// that would take it over `max_bytes` (a first task larger still comes alone).
pub async fn list_presents_and_bounds_bytes(store: Arc<dyn TaskStore>) {
    let base = recent();
    for i in 0..3 {
        let mut t = task(&format!("t{i}"), "c", TaskState::Working, base + i)
            .with_history([Message::user_text("first"), Message::user_text("second")]);
        t.artifacts
            .push(Artifact::new("a", vec![Part::text("x".repeat(100))]));
        create(&*store, t, Owner::default()).await;
    }
    let mut q = query(Owner::default(), 10);
    q.history_length = Some(1);
    q.include_artifacts = false;
    let page = store.list(&q).await.unwrap();
    assert_eq!(page.tasks.len(), 3);
    let shown = &page.tasks[0];
    assert!(shown.artifacts.is_empty());
    assert_eq!(shown.history.len(), 1);
    assert_eq!(shown.history[0].parts[0].as_text(), Some("second"));

    let one = super::json_len(&page.tasks[0]) + 1;
    q.max_bytes = Some(2 * one);
    let page = store.list(&q).await.unwrap();
    assert_eq!(ids(&page.tasks), ["t2", "t1"]);
    assert!(!page.next_page_token.is_empty());
    q.max_bytes = Some(1);
    let page = store.list(&q).await.unwrap();
    assert_eq!(
        ids(&page.tasks),
        ["t2"],
        "a first task larger than the bound comes alone"
    );
}

/// A page token the store did not hand out is refused as `InvalidPageToken`, by kind.
pub async fn invalid_page_token(store: Arc<dyn TaskStore>) {
    let mut q = query(Owner::default(), 10);
    q.page_token = Some("not-a-token".to_owned());
    assert_eq!(
        store.list(&q).await,
        Err(StoreError::InvalidPageToken("not-a-token".to_owned()))
    );
    // An empty token is the first page.
    q.page_token = Some(String::new());
    assert_eq!(store.list(&q).await.unwrap().total_size, 0);
}

fn config(task: &str, id: &str) -> TaskPushNotificationConfig {
    TaskPushNotificationConfig::new(format!("https://hook.example/{id}"))
        .with_task_id(task)
        .with_id(id)
}

/// Push configurations: stored before or after their task, listed in creation order, replaced
/// in place, deleted; each keeps the version it was registered through.
pub async fn push_configs_in_creation_order(store: Arc<dyn TaskStore>) {
    let t = TaskId::from("t");
    store
        .put_push_config(config("t", "b"), ProtocolVersion::V0_3)
        .await
        .unwrap();
    create(
        &*store,
        task("t", "c", TaskState::Working, 1_700_000_000),
        Owner::default(),
    )
    .await;
    store
        .put_push_config(config("t", "a"), ProtocolVersion::V1)
        .await
        .unwrap();
    let replaced = TaskPushNotificationConfig::new("https://other.example/b")
        .with_task_id("t")
        .with_id("b");
    store
        .put_push_config(replaced.clone(), ProtocolVersion::V0_1)
        .await
        .unwrap();
    let listed = store.list_push_configs(&t).await.unwrap();
    assert_eq!(listed, [replaced.clone(), config("t", "a")]);
    assert_eq!(
        store.get_push_config(&t, "b").await.unwrap(),
        Some(replaced)
    );
    assert_eq!(store.get_push_config(&t, "zz").await.unwrap(), None);
    let protocol_version = store.push_config_version(&t, "b").await.unwrap();
    assert!(
        protocol_version.is_none() || protocol_version == Some(ProtocolVersion::V0_1),
        "a store that answers knows the latest registration: {protocol_version:?}"
    );
    assert!(store.delete_push_config(&t, "b").await.unwrap());
    assert!(!store.delete_push_config(&t, "b").await.unwrap());
    assert_eq!(
        store.list_push_configs(&t).await.unwrap(),
        [config("t", "a")]
    );
    assert!(
        store
            .list_push_configs(&"other".into())
            .await
            .unwrap()
            .is_empty()
    );
}

/// A store that keeps an outbox enqueues each event for each configuration, in order; one
/// delivery per queue is claimable at a time.
pub async fn outbox_delivers_in_order(store: Arc<dyn TaskStore>) {
    const LEASE: Duration = Duration::from_secs(30);
    store
        .put_push_config(config("t", "a"), ProtocolVersion::V0_3)
        .await
        .unwrap();
    create(
        &*store,
        task("t", "c", TaskState::Submitted, recent()),
        Owner::default(),
    )
    .await;
    match store.claim_deliveries(SystemTime::now(), LEASE, 10).await {
        Err(StoreError::Unsupported(_)) => return,
        Err(err) => panic!("claim failed: {err}"),
        Ok(first) => {
            assert_eq!(first.deliveries.len(), 1);
            let d = &first.deliveries[0];
            assert_eq!((d.seq, d.protocol_version), (1, ProtocolVersion::V0_3));
            assert_eq!(d.config, config("t", "a"));
            assert_eq!(d.task_id, TaskId::from("t"));
            assert!(matches!(d.event, StreamResponse::Task(_)));
            assert!(
                store
                    .settle_delivery(d.id, d.lease, Settle::Complete)
                    .await
                    .unwrap()
            );
        }
    }
    store
        .put_push_config(config("t", "b"), ProtocolVersion::V1)
        .await
        .unwrap();
    edit(&*store, "t", status(TaskState::Working, recent() + 1)).await;
    edit(&*store, "t", status(TaskState::Completed, recent() + 2)).await;
    let mut order = Vec::new();
    for _ in 0..10 {
        let claimed = store
            .claim_deliveries(SystemTime::now(), LEASE, 10)
            .await
            .unwrap();
        if claimed.deliveries.is_empty() {
            break;
        }
        // One per queue at a time.
        let mut queues: Vec<&str> = claimed
            .deliveries
            .iter()
            .map(|d| d.config.id.as_deref().unwrap())
            .collect();
        queues.dedup();
        assert_eq!(queues.len(), claimed.deliveries.len());
        for d in claimed.deliveries {
            order.push((d.config.id.clone().unwrap(), d.seq));
            assert!(
                store
                    .settle_delivery(d.id, d.lease, Settle::Complete)
                    .await
                    .unwrap()
            );
        }
    }
    order.sort();
    assert_eq!(
        order,
        [
            ("a".to_owned(), 2),
            ("a".to_owned(), 3),
            ("b".to_owned(), 2),
            ("b".to_owned(), 3)
        ]
    );
    let status = store.push_status(&"t".into()).await.unwrap();
    assert_eq!(
        status
            .iter()
            .map(|s| (s.config_id.as_str(), s.delivered, s.deliveries.len()))
            .collect::<Vec<_>>(),
        [("a", 3, 0), ("b", 2, 0)]
    );
}

/// Settling needs the current lease: retry counts an attempt and makes the delivery due
/// later, a lease that ran out lets another claim take it, kill keeps a dead record.
pub async fn outbox_settles_under_its_lease(store: Arc<dyn TaskStore>) {
    const LEASE: Duration = Duration::from_secs(30);
    store
        .put_push_config(config("t", "a"), ProtocolVersion::V1)
        .await
        .unwrap();
    create(
        &*store,
        task("t", "c", TaskState::Submitted, recent()),
        Owner::default(),
    )
    .await;
    let now = SystemTime::now();
    let claimed = match store.claim_deliveries(now, LEASE, 10).await {
        Err(StoreError::Unsupported(_)) => return,
        other => other.unwrap(),
    };
    let d = claimed.deliveries[0].clone();
    assert!(
        !store
            .settle_delivery(d.id, d.lease + 1, Settle::Complete)
            .await
            .unwrap()
    );
    // Leased: nothing more to claim until the lease runs out.
    let none = store.claim_deliveries(now, LEASE, 10).await.unwrap();
    assert!(none.deliveries.is_empty());
    assert!(none.next_due.is_some());
    let later = now + Duration::from_secs(10);
    assert!(
        store
            .settle_delivery(
                d.id,
                d.lease,
                Settle::Retry {
                    due: later,
                    error: "HTTP 500".to_owned()
                }
            )
            .await
            .unwrap()
    );
    assert!(
        !store
            .settle_delivery(
                d.id,
                d.lease,
                Settle::Retry {
                    due: later,
                    error: "again".to_owned()
                }
            )
            .await
            .unwrap(),
        "settled: the lease is gone"
    );
    let early = store.claim_deliveries(now, LEASE, 10).await.unwrap();
    assert!(early.deliveries.is_empty(), "not due yet");
    let again = store.claim_deliveries(later, LEASE, 10).await.unwrap();
    let d2 = again.deliveries[0].clone();
    assert_eq!((d2.id, d2.attempts), (d.id, 1));
    assert_eq!(d2.last_error.as_deref(), Some("HTTP 500"));
    // Its lease runs out: another claim takes it under a new lease; the old one is stale.
    let expired = later + LEASE + Duration::from_secs(1);
    let d3 = store
        .claim_deliveries(expired, LEASE, 10)
        .await
        .unwrap()
        .deliveries[0]
        .clone();
    assert_eq!(d3.id, d.id);
    assert_ne!(d3.lease, d2.lease);
    assert!(
        !store
            .settle_delivery(d2.id, d2.lease, Settle::Complete)
            .await
            .unwrap()
    );
    assert!(
        store
            .settle_delivery(
                d3.id,
                d3.lease,
                Settle::Kill {
                    error: "HTTP 410".to_owned()
                }
            )
            .await
            .unwrap()
    );
    let status = store.push_status(&"t".into()).await.unwrap();
    assert_eq!(status.len(), 1);
    assert_eq!(status[0].config_id, "a");
    assert_eq!(status[0].delivered, 0);
    assert_eq!(status[0].last_error.as_deref(), Some("HTTP 410"));
    assert_eq!(status[0].deliveries.len(), 1);
    let dead = &status[0].deliveries[0];
    assert_eq!(
        (dead.id, dead.seq, dead.state, dead.attempts, dead.due),
        (d.id, 1, DeliveryState::Dead, 2, None)
    );
    let after = store.claim_deliveries(expired, LEASE, 10).await.unwrap();
    assert!(after.deliveries.is_empty());
}
