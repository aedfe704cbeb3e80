//! The in-memory store: retention by count, time and bytes, pins, filters and pages, the log
//! and waking readers.

use std::time::Duration;

use a2a_types::v1::{
    Artifact, Message, Part, Role, StreamResponse, Task, TaskId, TaskState, TaskStatus, Timestamp,
};
use pretty_assertions::assert_eq;

use super::{
    InMemoryTaskStore, ListPage, ListQuery, LogEntry, RetentionPolicy, Room, StoreError, TaskEdit,
    TaskStore, json_len, present_task, task_bytes,
};
use a2a_types::protocol::ProtocolVersion;

use crate::auth::Principal;
use crate::store::Owner;

fn task(id: &str, state: TaskState, unix: i64) -> Task {
    let status = TaskStatus::new(state).with_timestamp(Timestamp::from_unix(unix, 0).unwrap());
    Task::new(id, "ctx", status)
}

/// Runs `f` on a fresh current-thread runtime (the outbox tests too).
pub(super) fn block_on<T>(f: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(f)
}

#[test]
fn max_tasks_evicts_the_oldest_terminal_tasks_only() {
    block_on(async {
        let store = InMemoryTaskStore::with_retention(
            RetentionPolicy::default()
                .with_max_tasks(3)
                .with_terminal_ttl(None),
        );
        let now = Timestamp::now().unix_seconds();
        store
            .create(
                task("working-old", TaskState::Working, now - 100),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        store
            .create(
                task("done-old", TaskState::Completed, now - 90),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        store
            .create(
                task("done-new", TaskState::Completed, now - 10),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        store
            .create(
                task("fresh", TaskState::Submitted, now),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        assert_eq!(store.len(), 3);
        assert!(store.load(&"done-old".into()).await.unwrap().is_none());
        assert!(store.load(&"working-old".into()).await.unwrap().is_some());
        // With only live tasks left to evict, the store grows rather than lose one.
        store
            .create(
                task("fresh-2", TaskState::Working, now),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        store
            .create(
                task("fresh-3", TaskState::Working, now),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        assert!(store.load(&"done-new".into()).await.unwrap().is_none());
        assert_eq!(store.len(), 4);
    });
}

fn full_of_tasks(n: usize) -> StoreError {
    StoreError::Full(format!(
        "the task store holds its limit of {n} unfinished tasks (max_live_tasks); try again later"
    ))
}

/// Up to `max_live_tasks` tasks that may not be dropped; then new ones are refused, until one
/// ends.
#[test]
fn max_live_tasks_bounds_what_cannot_be_dropped() {
    block_on(async {
        let store = InMemoryTaskStore::with_retention(
            RetentionPolicy::default()
                .with_max_tasks(10)
                .with_max_live_tasks(2),
        );
        let now = Timestamp::now().unix_seconds();
        for id in ["a", "b"] {
            store
                .create(
                    task(id, TaskState::Working, now),
                    Owner::default(),
                    ProtocolVersion::V1,
                )
                .await
                .unwrap();
        }
        assert_eq!(
            store.check_room(&Owner::default(), 0).await.unwrap_err(),
            full_of_tasks(2)
        );
        let refused = store
            .create(
                task("c", TaskState::Working, now),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap_err();
        assert_eq!(refused, full_of_tasks(2));
        assert_eq!(store.len(), 2);
        edit(&store, &"a".into(), status(TaskState::Completed)).await;
        store.check_room(&Owner::default(), 0).await.unwrap();
        store
            .create(
                task("c", TaskState::Working, now),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        assert_eq!(store.len(), 3);
    });
}

#[test]
fn terminal_tasks_expire_after_the_ttl() {
    block_on(async {
        let store = InMemoryTaskStore::with_retention(
            RetentionPolicy::default().with_terminal_ttl(Some(Duration::from_secs(60))),
        );
        let now = Timestamp::now().unix_seconds();
        store
            .create(
                task("expired", TaskState::Failed, now - 120),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        store
            .create(
                task("live", TaskState::Working, now - 120),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        store
            .create(
                task("recent", TaskState::Completed, now - 5),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        assert!(store.load(&"expired".into()).await.unwrap().is_none());
        assert!(store.load(&"live".into()).await.unwrap().is_some());
        assert!(store.load(&"recent".into()).await.unwrap().is_some());
    });
}

/// Listing by owner alone reads the kept count and walks only to the end of its page; pages
/// follow each other by cursor, and the count follows creations and evictions per owner.
#[test]
fn pages_by_owner_alone_count_each_owners_tasks() {
    block_on(async {
        let store = InMemoryTaskStore::with_retention(RetentionPolicy::default().with_max_tasks(7));
        let alice = Owner::new(Some(Principal::new("alice")), None);
        // Recent: the ended tasks stay within the default terminal_ttl.
        let now = Timestamp::now().unix_seconds() - 60;
        // Alice's tasks t0..t4 (oldest first) and two of the default owner's between them.
        for (i, owner) in [
            &alice,
            &Owner::default(),
            &alice,
            &alice,
            &Owner::default(),
            &alice,
            &alice,
        ]
        .into_iter()
        .enumerate()
        {
            store
                .create(
                    task(&format!("t{i}"), TaskState::Completed, now + i as i64),
                    owner.clone(),
                    ProtocolVersion::V1,
                )
                .await
                .unwrap();
        }
        let page = |owner: &Owner, token: &str| ListQuery {
            owner: owner.clone(),
            page_size: 2,
            page_token: Some(token.to_owned()),
            ..ListQuery::default()
        };
        let ids = |page: &ListPage| {
            page.tasks
                .iter()
                .map(|t| t.id.as_str().to_owned())
                .collect::<Vec<String>>()
        };
        // Alice's pages, newest first, each found by the cursor of the one before.
        let mut token = String::new();
        for expected in [&["t6", "t5"][..], &["t3", "t2"], &["t0"]] {
            let listed = store.list(&page(&alice, &token)).await.unwrap();
            assert_eq!(
                (ids(&listed), listed.total_size),
                (expected.iter().map(|e| (*e).to_owned()).collect(), 5)
            );
            token = listed.next_page_token;
        }
        assert_eq!(token, "");
        let theirs = store.list(&page(&Owner::default(), "")).await.unwrap();
        assert_eq!(
            (ids(&theirs), theirs.total_size),
            (vec!["t4".to_owned(), "t1".to_owned()], 2)
        );
        // An eighth task evicts the oldest ended one (Alice's t0): her count drops with it.
        store
            .create(
                task("t7", TaskState::Completed, now + 7),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        assert_eq!(store.list(&page(&alice, "")).await.unwrap().total_size, 4);
        assert_eq!(
            store
                .list(&page(&Owner::default(), ""))
                .await
                .unwrap()
                .total_size,
            3
        );
        // With a filter the count is made by the walk, and agrees.
        let filtered = ListQuery {
            state: Some(TaskState::Completed),
            page_size: 2,
            owner: alice.clone(),
            ..ListQuery::default()
        };
        assert_eq!(store.list(&filtered).await.unwrap().total_size, 4);
    });
}

#[test]
fn list_filters_by_context_state_time_and_owner() {
    block_on(async {
        let store = InMemoryTaskStore::new();
        let alice = Owner::new(Some(Principal::new("alice")), None);
        let now = Timestamp::now().unix_seconds();
        store
            .create(
                task("a", TaskState::Working, now - 30),
                alice.clone(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        store
            .create(
                task("b", TaskState::Completed, now - 20),
                alice.clone(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        let mut other = task("c", TaskState::Working, now - 10);
        other.context_id = Some("other".into());
        store
            .create(other, alice.clone(), ProtocolVersion::V1)
            .await
            .unwrap();
        store
            .create(
                task("d", TaskState::Working, now),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        let ids = |page: ListPage| {
            page.tasks
                .into_iter()
                .map(|t| t.id.into_string())
                .collect::<Vec<_>>()
        };
        let query = ListQuery {
            owner: alice.clone(),
            page_size: 10,
            ..ListQuery::default()
        };
        assert_eq!(ids(store.list(&query).await.unwrap()), ["c", "b", "a"]);
        let by_state = ListQuery {
            state: Some(TaskState::Working),
            ..query.clone()
        };
        assert_eq!(ids(store.list(&by_state).await.unwrap()), ["c", "a"]);
        let by_context = ListQuery {
            context_id: Some("ctx".into()),
            ..query.clone()
        };
        assert_eq!(ids(store.list(&by_context).await.unwrap()), ["b", "a"]);
        let recent = ListQuery {
            status_after: Timestamp::from_unix(now - 20, 0),
            ..query.clone()
        };
        let page = store.list(&recent).await.unwrap();
        assert_eq!(page.total_size, 2);
        assert_eq!(ids(page), ["c", "b"]);
        let anonymous = ListQuery {
            page_size: 10,
            ..ListQuery::default()
        };
        assert_eq!(ids(store.list(&anonymous).await.unwrap()), ["d"]);
    });
}

async fn edit(store: &InMemoryTaskStore, id: &TaskId, edit: TaskEdit) -> u64 {
    store
        .update(id, Box::new(move |_, _| Some(edit.clone())), None)
        .await
        .unwrap()
        .expect("the task exists")
        .last_seq
}

/// An artifact edit of one text part.
fn chunk(id: &str, text: &str, append: bool, last_chunk: bool) -> TaskEdit {
    TaskEdit::Artifact {
        artifact: Artifact::new(id, vec![Part::text(text)]),
        append,
        last_chunk,
    }
}

/// The events of a task's whole log.
async fn events(store: &InMemoryTaskStore, id: &TaskId) -> Vec<StreamResponse> {
    let log = store.read_log(id, 0, usize::MAX).await.unwrap();
    log.into_iter().map(|e| e.event).collect()
}

fn status(state: TaskState) -> TaskEdit {
    TaskEdit::Status(TaskStatus::now(state))
}

#[test]
fn the_log_numbers_events_without_gaps_and_wait_wakes_readers() {
    block_on(async {
        let store = std::sync::Arc::new(InMemoryTaskStore::new());
        let id = TaskId::from("t");
        store
            .create(
                task("t", TaskState::Submitted, 0),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        let reader = {
            let store = store.clone();
            let id = id.clone();
            tokio::spawn(async move {
                store.wait(&id, 1).await.unwrap();
                store.read_log(&id, 1, 10).await.unwrap()
            })
        };
        tokio::task::yield_now().await;
        assert_eq!(edit(&store, &id, status(TaskState::Working)).await, 2);
        let entries = reader.await.unwrap();
        assert_eq!(entries.iter().map(|e| e.seq).collect::<Vec<_>>(), [2]);
        // A message joins the history and logs nothing.
        let message = Message::new("m", Role::User, vec![Part::text("more")]);
        assert_eq!(edit(&store, &id, TaskEdit::Message(message)).await, 2);
        assert_eq!(store.read_log(&id, 0, 10).await.unwrap().len(), 2);
        assert_eq!(
            store.load(&id).await.unwrap().unwrap().task.history.len(),
            1
        );
        // A change that returns no edit leaves everything as it was.
        let unchanged = store
            .update(&id, Box::new(|_, _| None), None)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(unchanged.last_seq, 2);
        assert!(
            store
                .update(&"nope".into(), Box::new(|_, _| None), None)
                .await
                .unwrap()
                .is_none()
        );
    });
}

#[test]
fn a_terminal_task_whose_status_time_changes_stays_evictable() {
    block_on(async {
        let store = InMemoryTaskStore::with_retention(
            RetentionPolicy::default()
                .with_max_tasks(1)
                .with_terminal_ttl(None),
        );
        let now = Timestamp::now().unix_seconds();
        store
            .create(
                task("done", TaskState::Completed, now - 10),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        let restated = TaskEdit::Restate(Timestamp::from_unix(now - 5, 0).unwrap());
        edit(&store, &"done".into(), restated).await;
        store
            .create(
                task("next", TaskState::Working, now),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        assert!(store.load(&"done".into()).await.unwrap().is_none());
        assert_eq!(store.len(), 1);
    });
}

/// Edits of every kind, applied to the store and to a copy of the task with
/// [`TaskEdit::apply`]: the store's task, log and bytes are what the reference makes of them,
/// although its log keeps messages and artifacts only once, in the task.
#[test]
fn the_log_reads_back_what_the_reference_logged() {
    block_on(async {
        let store = InMemoryTaskStore::new();
        let id = TaskId::from("t");
        let mut shadow = Task::new("t", "c", TaskStatus::now(TaskState::Submitted))
            .with_history([Message::new("m-1", Role::User, vec![Part::text("hello")])]);
        shadow.metadata = Some(serde_json::from_str(r#"{"k":"v"}"#).unwrap());
        // Generation 1 at creation, one more per logged event (the reference counts them too).
        shadow.generation = 1;
        let mut bytes = task_bytes(&shadow);
        let mut logged = vec![StreamResponse::Task(shadow.clone())];
        store
            .create(shadow.clone(), Owner::default(), ProtocolVersion::V1)
            .await
            .unwrap();
        let question = Message::new("m-2", Role::Agent, vec![Part::text("which city?")]);
        let named = Artifact::new("a", vec![Part::text("one")]).with_name("answer");
        let mut with_metadata = Artifact::new("a", vec![Part::text("three")]);
        with_metadata.metadata = Some(serde_json::from_str(r#"{"page":2}"#).unwrap());
        let mut odd_status = TaskStatus::now(TaskState::Working);
        odd_status.message = Some(question.clone());
        let edits = [
            status(TaskState::Working),
            TaskEdit::Artifact {
                artifact: named.clone(),
                append: false,
                last_chunk: false,
            },
            TaskEdit::Artifact {
                artifact: Artifact::new("a", vec![Part::text("two"), Part::raw(vec![1, 2])]),
                append: true,
                last_chunk: false,
            },
            // Changes the artifact's metadata: the first event keeps the one it carried.
            TaskEdit::Artifact {
                artifact: with_metadata,
                append: true,
                last_chunk: true,
            },
            TaskEdit::Artifact {
                artifact: Artifact::new("b", vec![Part::data(serde_json::json!({"x": [1, 2]}))]),
                append: false,
                last_chunk: false,
            },
            TaskEdit::Status(
                TaskStatus::now(TaskState::InputRequired).with_message(question.clone()),
            ),
            TaskEdit::Restate(Timestamp::now()),
            TaskEdit::Message(Message::new("m-3", Role::User, vec![Part::text("Paris")])),
            TaskEdit::Status(odd_status),
            // Replaces artifact `a`: the events that carried the old one still show it.
            chunk("a", "new", false, true),
            chunk("a", " and more", true, true),
            // An append to an artifact the task lacks starts it.
            TaskEdit::Artifact {
                artifact: Artifact::new("c", vec![Part::url("https://example.com/c")])
                    .with_name("c"),
                append: true,
                last_chunk: false,
            },
            TaskEdit::Restate(Timestamp::now()),
            TaskEdit::Status(
                TaskStatus::now(TaskState::Completed).with_message(Message::new(
                    "m-4",
                    Role::Agent,
                    vec![Part::text("done")],
                )),
            ),
        ];
        for e in edits {
            bytes += e.bytes();
            if let Some(event) = e.clone().apply(&mut shadow) {
                logged.push(event);
            }
            edit(&store, &id, e).await;
        }
        let stored = store.load(&id).await.unwrap().unwrap();
        assert_eq!(stored.task, shadow);
        assert_eq!(stored.bytes, bytes);
        // Ended and unpinned, the task is kept compact: the total counts that form, which is
        // far smaller than the account of its content.
        let (held, frozen) = store.held_bytes(&id).unwrap();
        assert!(frozen);
        assert!(held < bytes / 2, "{held} of {bytes}");
        assert_eq!(store.total_bytes(), held);
        assert_eq!(events(&store, &id).await, logged);
        // Reading from a cursor numbers the entries from there.
        let tail: Vec<LogEntry> = store.read_log(&id, 10, 2).await.unwrap();
        assert_eq!(tail.iter().map(|e| e.seq).collect::<Vec<_>>(), [11, 12]);
        assert_eq!(tail[0].event, logged[10]);
    });
}

/// A task created with artifacts or a status message keeps its first event as given.
#[test]
fn a_task_created_whole_logs_itself_whole() {
    block_on(async {
        let store = InMemoryTaskStore::new();
        let question = Message::new("q", Role::Agent, vec![Part::text("which?")]);
        let mut created = Task::new(
            "t",
            "c",
            TaskStatus::now(TaskState::InputRequired).with_message(question),
        );
        created
            .artifacts
            .push(Artifact::new("a", vec![Part::text("x")]));
        created.generation = 1;
        store
            .create(created.clone(), Owner::default(), ProtocolVersion::V1)
            .await
            .unwrap();
        let id = TaskId::from("t");
        let mut shadow = created.clone();
        let mut logged = vec![StreamResponse::Task(created)];
        for e in [
            TaskEdit::Restate(Timestamp::now()),
            chunk("a", "y", true, true),
            chunk("a", "z", false, true),
        ] {
            logged.extend(e.clone().apply(&mut shadow));
            edit(&store, &id, e).await;
        }
        assert_eq!(events(&store, &id).await, logged);
        assert_eq!(store.load(&id).await.unwrap().unwrap().task, shadow);
    });
}

fn text_task(id: &str, state: TaskState, unix: i64, text_bytes: usize) -> Task {
    task(id, state, unix).with_history([Message::new(
        "m",
        Role::User,
        vec![Part::text("x".repeat(text_bytes))],
    )])
}

/// The store drops ended tasks, oldest first, to keep its bytes within `max_total_bytes`, and
/// refuses a task that only unfinished tasks leave no room for.
#[test]
fn the_total_budget_evicts_by_bytes() {
    block_on(async {
        let one = task_bytes(&text_task("t-x", TaskState::Completed, 0, 10_000));
        let store = InMemoryTaskStore::with_retention(
            RetentionPolicy::default()
                .with_terminal_ttl(None)
                .with_max_total_bytes(3 * one),
        );
        let now = Timestamp::now().unix_seconds();
        for (i, id) in ["t-0", "t-1", "t-2"].into_iter().enumerate() {
            let t = text_task(id, TaskState::Completed, now - 30 + i as i64, 10_000);
            store
                .create(t, Owner::default(), ProtocolVersion::V1)
                .await
                .unwrap();
        }
        // Ended, the tasks are kept compact: the total counts that form (the three are alike).
        let (kept, frozen) = store.held_bytes(&"t-0".into()).unwrap();
        assert!(frozen && kept < one, "{kept} of {one}");
        assert_eq!(store.total_bytes(), 3 * kept);
        // One more pushes the oldest out, by bytes: the count limit is far away.
        store
            .create(
                text_task("w-0", TaskState::Working, now, 10_000),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        assert!(store.load(&"t-0".into()).await.unwrap().is_none());
        assert_eq!(store.len(), 3);
        assert_eq!(store.total_bytes(), 2 * kept + one);
        // Growing a live task makes room by dropping ended ones too.
        let room = std::sync::Mutex::new(None);
        let grow = TaskEdit::Message(Message::new(
            "m",
            Role::User,
            vec![Part::text("y".repeat(5000))],
        ));
        let cost = grow.bytes();
        store
            .update(
                &"w-0".into(),
                Box::new(|_, r| {
                    *room.lock().unwrap() = Some(r);
                    Some(grow.clone())
                }),
                None,
            )
            .await
            .unwrap()
            .unwrap();
        // The change was told what the live task holds, and that only it is kept for sure.
        assert_eq!(room.lock().unwrap().unwrap(), Room::new(one, 2 * one));
        assert!(store.load(&"t-1".into()).await.unwrap().is_none());
        assert_eq!(store.total_bytes(), kept + one + cost);
        // Live tasks that fill the budget leave no room for a new task of that size.
        store
            .create(
                text_task("w-1", TaskState::Working, now, 10_000),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        let refused = store
            .create(
                text_task("w-2", TaskState::Working, now, 10_000),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap_err();
        let kept = 2 * one + cost;
        assert_eq!(
            refused,
            StoreError::Full(format!(
                "the task store is full: its unfinished and pinned tasks hold {kept} bytes, and a \
                 new task of {one} bytes would take it over its limit of {} bytes \
                 (max_total_bytes); try again later",
                3 * one
            ))
        );
        assert!(store.load(&"t-2".into()).await.unwrap().is_none());
    });
}

/// With principals, one of them may hold at most its share of unfinished tasks; others and
/// anonymous calls are bounded by `max_live_tasks` alone. A task that ends gives its place back.
#[test]
fn each_principal_holds_at_most_its_share_of_unfinished_tasks() {
    block_on(async {
        let store = InMemoryTaskStore::with_retention(
            RetentionPolicy::default()
                .with_max_live_tasks(4)
                .with_max_live_tasks_per_principal(2),
        );
        let alice = Owner::new(Some(Principal::new("alice")), None);
        // The same principal under another tenant is the same caller.
        let alice_elsewhere = Owner::new(Some(Principal::new("alice")), Some("t2".to_owned()));
        let bob = Owner::new(Some(Principal::new("bob")), None);
        let new = |id: &str| task(id, TaskState::Working, 0);
        store
            .create(new("a1"), alice.clone(), ProtocolVersion::V1)
            .await
            .unwrap();
        store
            .create(new("a2"), alice_elsewhere.clone(), ProtocolVersion::V1)
            .await
            .unwrap();
        let share = StoreError::Full(
            "the caller holds its share of 2 unfinished tasks (max_live_tasks_per_principal); \
             try again once one of them ends"
                .to_owned(),
        );
        assert_eq!(store.check_room(&alice, 0).await.unwrap_err(), share);
        assert_eq!(
            store
                .create(new("a3"), alice.clone(), ProtocolVersion::V1)
                .await
                .unwrap_err(),
            share
        );
        // Others still have room, up to the store's limit.
        store
            .create(new("b1"), bob.clone(), ProtocolVersion::V1)
            .await
            .unwrap();
        store
            .create(new("n1"), Owner::default(), ProtocolVersion::V1)
            .await
            .unwrap();
        assert_eq!(
            store.check_room(&bob, 0).await.unwrap_err(),
            full_of_tasks(4)
        );
        // One of alice's tasks ends: her place, and the store's, come back.
        edit(&store, &"a1".into(), status(TaskState::Completed)).await;
        store.check_room(&alice, 0).await.unwrap();
        store
            .create(new("a3"), alice, ProtocolVersion::V1)
            .await
            .unwrap();
        assert_eq!(
            store.check_room(&bob, 0).await.unwrap_err(),
            full_of_tasks(4)
        );
    });
}

/// A pinned task is never dropped, though ended and over every limit; it goes once the last
/// pin is released. Ended, it no longer counts under `max_live_tasks`.
#[test]
fn pinned_tasks_stay_until_released() {
    block_on(async {
        let store = InMemoryTaskStore::with_retention(
            RetentionPolicy::default()
                .with_max_tasks(1)
                .with_max_live_tasks(1)
                .with_terminal_ttl(Some(Duration::from_secs(60))),
        );
        let id = TaskId::from("read");
        store
            .create(
                task("read", TaskState::Working, 0),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        let first = store.pin(&id).await.unwrap().expect("the task exists");
        let second = store.pin(&id).await.unwrap().expect("the task exists");
        assert!(store.pin(&"nope".into()).await.unwrap().is_none());
        // Ended long ago (past the TTL) and over max_tasks: still kept, as it is pinned.
        edit(
            &store,
            &id,
            TaskEdit::Restate(Timestamp::from_unix(0, 0).unwrap()),
        )
        .await;
        edit(
            &store,
            &id,
            TaskEdit::Status(TaskStatus::new(TaskState::Completed)),
        )
        .await;
        // Ended: no longer counted under max_live_tasks, though pinned and kept.
        store.check_room(&Owner::default(), 0).await.unwrap();
        assert!(store.load(&id).await.unwrap().is_some());
        drop(first);
        assert!(store.load(&id).await.unwrap().is_some());
        drop(second);
        // Released: past the TTL, it goes at once.
        assert!(store.load(&id).await.unwrap().is_none());
        assert_eq!(store.total_bytes(), 0);
        store
            .create(
                task("other", TaskState::Working, 0),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
    });
}

/// `wait` resolves on the next append, at once when the log is already past `after`, and
/// when the task is evicted.
#[test]
fn wait_wakes_on_append_and_on_removal() {
    block_on(async {
        let store = std::sync::Arc::new(InMemoryTaskStore::with_retention(
            RetentionPolicy::default()
                .with_max_tasks(1)
                .with_terminal_ttl(None),
        ));
        let id = TaskId::from("t-1");
        store
            .create(
                task("t-1", TaskState::Submitted, 0),
                Owner::default(),
                ProtocolVersion::V1,
            )
            .await
            .unwrap();
        store.wait(&id, 0).await.unwrap();
        let waiter = {
            let store = store.clone();
            let id = id.clone();
            tokio::spawn(async move { store.wait(&id, 1).await })
        };
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        edit(&store, &id, status(TaskState::Completed)).await;
        waiter.await.unwrap().unwrap();
        let waiter = {
            let store = store.clone();
            let id = id.clone();
            tokio::spawn(async move { store.wait(&id, 2).await })
        };
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        // A second task pushes the first out (max_tasks 1).
        let newer = Task::new("t-2", "ctx", TaskStatus::now(TaskState::Completed));
        store
            .create(newer, Owner::default(), ProtocolVersion::V1)
            .await
            .unwrap();
        waiter.await.unwrap().unwrap();
        assert!(store.load(&id).await.unwrap().is_none());
    });
}

/// A page ends before the task that would take it over `max_bytes`, at least one task long,
/// and its cursor leads to the rest; sizes count the tasks as presented.
#[test]
fn pages_are_cut_by_bytes() {
    block_on(async {
        let store = InMemoryTaskStore::new();
        let now = Timestamp::now().unix_seconds();
        for (i, id) in ["a", "b", "c", "d"].into_iter().enumerate() {
            let mut t = text_task(id, TaskState::Completed, now - i as i64, 100);
            t.artifacts
                .push(Artifact::new("big", vec![Part::text("z".repeat(10_000))]));
            store
                .create(t, Owner::default(), ProtocolVersion::V1)
                .await
                .unwrap();
        }
        let stored = store.load(&"a".into()).await.unwrap().unwrap().task;
        let without = json_len(&present_task(&stored, Some(1), false));
        let query = ListQuery {
            page_size: 10,
            include_artifacts: true,
            max_bytes: Some(25_000),
            ..ListQuery::default()
        };
        let ids = |page: &ListPage| {
            page.tasks
                .iter()
                .map(|t| t.id.as_str().to_owned())
                .collect::<Vec<_>>()
        };
        let first = store.list(&query).await.unwrap();
        assert_eq!(ids(&first), ["a", "b"]);
        assert_eq!(first.total_size, 4);
        let next = ListQuery {
            page_token: Some(first.next_page_token.clone()),
            ..query.clone()
        };
        let second = store.list(&next).await.unwrap();
        assert_eq!(ids(&second), ["c", "d"]);
        assert_eq!(second.next_page_token, "");
        // A budget smaller than one task still gives one task per page.
        let tiny = ListQuery {
            max_bytes: Some(10),
            ..query.clone()
        };
        let page = store.list(&tiny).await.unwrap();
        assert_eq!(ids(&page), ["a"]);
        assert!(!page.next_page_token.is_empty());
        // Without artifacts and with one message of history, all four fit.
        let small = ListQuery {
            include_artifacts: false,
            history_length: Some(1),
            max_bytes: Some(4 * (without + 1)),
            ..query.clone()
        };
        let page = store.list(&small).await.unwrap();
        assert_eq!(ids(&page), ["a", "b", "c", "d"]);
        assert!(page.tasks.iter().all(|t| t.artifacts.is_empty()));
        assert_eq!(page.next_page_token, "");
        let over = ListQuery {
            max_bytes: Some(4 * (without + 1) - 1),
            ..small
        };
        assert_eq!(ids(&store.list(&over).await.unwrap()), ["a", "b", "c"]);
    });
}

/// What every read shows of a task: `load`, the whole log, and `ListTasks` pages filtered by
/// owner, context, state and time, with `historyLength` 1 and 0, with and without artifacts.
async fn reads(store: &InMemoryTaskStore, id: &TaskId, owner: &Owner) -> String {
    let stored = store.load(id).await.unwrap().expect("stored");
    let log: Vec<(u64, StreamResponse)> = store
        .read_log(id, 0, usize::MAX)
        .await
        .unwrap()
        .into_iter()
        .map(|e| (e.seq, e.event))
        .collect();
    let tail = store.read_log(id, 3, 2).await.unwrap();
    let mut pages = Vec::new();
    for (history_length, include_artifacts) in [(None, true), (Some(1), false), (Some(0), true)] {
        let query = ListQuery {
            owner: owner.clone(),
            page_size: 10,
            context_id: Some("ctx-f".into()),
            state: Some(stored.task.status.state),
            status_after: Timestamp::from_unix(1_600_000_000, 0),
            history_length,
            include_artifacts,
            ..ListQuery::default()
        };
        let page = store.list(&query).await.unwrap();
        pages.push((page.tasks, page.total_size, page.next_page_token));
    }
    let other_context = ListQuery {
        owner: owner.clone(),
        page_size: 10,
        context_id: Some("ctx-g".into()),
        ..ListQuery::default()
    };
    let none = store.list(&other_context).await.unwrap();
    format!(
        "{}\n{:?} {:?} {} {}\n{}\n{:?}\n{}\n{}",
        serde_json::to_string(&stored.task).unwrap(),
        stored.owner,
        stored.protocol_version,
        stored.last_seq,
        stored.bytes,
        serde_json::to_string(&log).unwrap(),
        tail.iter().map(|e| e.seq).collect::<Vec<_>>(),
        serde_json::to_string(&pages).unwrap(),
        none.total_size,
    )
}

/// An ended task nobody pins is kept compact, and every read of it shows what it showed live:
/// the task with every kind of part, metadata, a replaced artifact, status messages, the log
/// (short and whole events), pages, the owner and a 0.x version. An edit thaws it.
#[test]
fn a_frozen_task_reads_as_it_did_live() {
    block_on(async {
        let store = InMemoryTaskStore::new();
        let id = TaskId::from("f");
        let owner = Owner::new(Some(Principal::new("alice")), Some("acme".to_owned()));
        // Messages with the task's own ids, others' and none: the compact form takes out only
        // the task's own and puts them back.
        let with_ids = |message: Message, task: Option<&str>, context: Option<&str>| {
            let mut message = message;
            message.task_id = task.map(TaskId::from);
            message.context_id = context.map(a2a_types::v1::ContextId::from);
            message
        };
        let mut created = task("f", TaskState::Submitted, 1_700_000_000).with_history([with_ids(
            Message::new("m-1", Role::User, vec![Part::text("hello")]),
            Some("f"),
            Some("ctx-f"),
        )]);
        created.context_id = Some("ctx-f".into());
        created.metadata = Some(serde_json::from_str(r#"{"k":"v","n":[1,2.5,null]}"#).unwrap());
        store
            .create(created, owner.clone(), ProtocolVersion::V0_3)
            .await
            .unwrap();
        let pin = store.pin(&id).await.unwrap().expect("pinned");
        let part_metadata = serde_json::from_str(r#"{"p":true}"#).unwrap();
        let every_part = Artifact::new(
            "a",
            vec![
                Part::text("text").with_metadata(part_metadata),
                Part::raw(vec![0, 1, 254, 255])
                    .with_filename("f.bin")
                    .with_media_type("application/octet-stream"),
                Part::url("https://example.com/u").with_media_type("text/html"),
                Part::data(serde_json::json!({"x": [1, {"y": "z"}], "e": {}})),
            ],
        )
        .with_name("every part");
        let mut with_metadata = Artifact::new("a", vec![Part::text("more")]);
        with_metadata.metadata = Some(serde_json::from_str(r#"{"page":2}"#).unwrap());
        let question = with_ids(
            Message::new("m-2", Role::Agent, vec![Part::text("which city?")]),
            Some("g"),
            Some("ctx-f"),
        );
        let mut odd_status = TaskStatus::now(TaskState::Working);
        odd_status.message = Some(question.clone());
        for e in [
            status(TaskState::Working),
            TaskEdit::Artifact {
                artifact: every_part,
                append: false,
                last_chunk: false,
            },
            TaskEdit::Artifact {
                artifact: with_metadata,
                append: true,
                last_chunk: true,
            },
            TaskEdit::Status(TaskStatus::now(TaskState::InputRequired).with_message(question)),
            TaskEdit::Message(with_ids(
                Message::new("m-3", Role::User, vec![Part::text("Paris")]),
                Some("f"),
                Some("ctx-other"),
            )),
            TaskEdit::Status(odd_status),
            // Replaces artifact `a`: the events that carried the old one still show it.
            chunk("a", "new", false, true),
            chunk("b", "bee", false, true),
            TaskEdit::Status(TaskStatus::now(TaskState::Completed).with_message(with_ids(
                Message::new("m-4", Role::Agent, vec![Part::text("done")]),
                Some("f"),
                Some("ctx-f"),
            ))),
        ] {
            edit(&store, &id, e).await;
        }
        let live = reads(&store, &id, &owner).await;
        assert_eq!(store.held_bytes(&id).unwrap().1, false, "pinned: live");
        drop(pin);
        let (held, frozen) = store.held_bytes(&id).unwrap();
        assert!(frozen, "ended and unpinned: compact");
        assert_eq!(store.total_bytes(), held);
        assert_eq!(reads(&store, &id, &owner).await, live);
        // Pinned again (a stream of the ended task), it stays compact and reads the same.
        let pin = store.pin(&id).await.unwrap().expect("pinned");
        assert_eq!(store.held_bytes(&id).unwrap(), (held, true));
        assert_eq!(reads(&store, &id, &owner).await, live);
        drop(pin);
        // A change that edits nothing leaves it compact; an edit thaws it, logs, and it is
        // frozen again once it is droppable.
        store
            .update(&id, Box::new(|_, _| None), None)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(store.held_bytes(&id).unwrap(), (held, true));
        let restated = Timestamp::from_unix(1_800_000_000, 0).unwrap();
        assert_eq!(edit(&store, &id, TaskEdit::Restate(restated)).await, 10);
        let (_, frozen) = store.held_bytes(&id).unwrap();
        assert!(frozen);
        let log = store.read_log(&id, 9, 5).await.unwrap();
        assert_eq!(
            serde_json::to_value(&log[0].event).unwrap()["statusUpdate"]["status"]["timestamp"],
            "2027-01-15T08:00:00.000Z"
        );
        let stored = store.load(&id).await.unwrap().unwrap();
        assert_eq!(stored.task.status.timestamp, Some(restated));
        assert_eq!(
            stored.task.status.message.unwrap().message_id.as_str(),
            "m-4"
        );
    });
}

/// An echo task (a user message, an artifact, completed; ids of uuid length) is kept in at
/// most 1 KiB as the store accounts it: the compact form and its entry.
#[test]
fn an_ended_echo_task_is_kept_small() {
    block_on(async {
        let store = InMemoryTaskStore::new();
        let uuid = |c: char| {
            format!(
                "{}-{}-{}-{}-{}",
                c.to_string().repeat(8),
                "0000",
                "4000",
                "8000",
                "000000000000"
            )
        };
        let (task_id, context_id) = (uuid('a'), uuid('b'));
        let id = TaskId::from(task_id.as_str());
        let mut message = Message::new(uuid('c'), Role::User, vec![Part::text("hello")]);
        message.task_id = Some(task_id.as_str().into());
        message.context_id = Some(context_id.as_str().into());
        let created = Task::new(
            task_id.as_str(),
            context_id.as_str(),
            TaskStatus::now(TaskState::Submitted),
        )
        .with_history([message]);
        store
            .create(created, Owner::default(), ProtocolVersion::V1)
            .await
            .unwrap();
        for e in [
            status(TaskState::Working),
            TaskEdit::Artifact {
                artifact: Artifact::new(uuid('d'), vec![Part::text("hello")]).with_name("echo"),
                append: false,
                last_chunk: true,
            },
            status(TaskState::Completed),
        ] {
            edit(&store, &id, e).await;
        }
        let (held, frozen) = store.held_bytes(&id).unwrap();
        assert!(frozen);
        assert!(held <= 1024, "{held}");
        assert_eq!(store.total_bytes(), held);
        // The account of its content, which the per-task limit checks, is unchanged.
        assert!(store.load(&id).await.unwrap().unwrap().bytes > 1500);
    });
}
