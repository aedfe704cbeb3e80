//! The in-memory store: retention, filters, the log and waking readers.

use a2a_types::v1::{TaskState, TaskStatus};

use std::time::Duration;

use a2a_types::v1::{StreamResponse, Task, TaskId, Timestamp};

use super::{InMemoryTaskStore, ListPage, ListQuery, RetentionPolicy, TaskStore};
use crate::auth::Principal;

fn task(id: &str, state: TaskState, unix: i64) -> Task {
    let status = TaskStatus::new(state).with_timestamp(Timestamp::from_unix(unix, 0).unwrap());
    Task::new(id, "ctx", status)
}

fn block_on<T>(f: impl std::future::Future<Output = T>) -> T {
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
            .create(task("working-old", TaskState::Working, now - 100), None)
            .await
            .unwrap();
        store
            .create(task("done-old", TaskState::Completed, now - 90), None)
            .await
            .unwrap();
        store
            .create(task("done-new", TaskState::Completed, now - 10), None)
            .await
            .unwrap();
        store
            .create(task("fresh", TaskState::Submitted, now), None)
            .await
            .unwrap();
        assert_eq!(store.len(), 3);
        assert!(store.load(&"done-old".into()).await.unwrap().is_none());
        assert!(store.load(&"working-old".into()).await.unwrap().is_some());
        // With only live tasks left to evict, the store grows rather than lose one.
        store
            .create(task("fresh-2", TaskState::Working, now), None)
            .await
            .unwrap();
        store
            .create(task("fresh-3", TaskState::Working, now), None)
            .await
            .unwrap();
        assert!(store.load(&"done-new".into()).await.unwrap().is_none());
        assert_eq!(store.len(), 4);
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
            .create(task("expired", TaskState::Failed, now - 120), None)
            .await
            .unwrap();
        store
            .create(task("live", TaskState::Working, now - 120), None)
            .await
            .unwrap();
        store
            .create(task("recent", TaskState::Completed, now - 5), None)
            .await
            .unwrap();
        assert!(store.load(&"expired".into()).await.unwrap().is_none());
        assert!(store.load(&"live".into()).await.unwrap().is_some());
        assert!(store.load(&"recent".into()).await.unwrap().is_some());
    });
}

#[test]
fn list_filters_by_context_state_time_and_owner() {
    block_on(async {
        let store = InMemoryTaskStore::new();
        let alice = Some(Principal::new("alice"));
        let now = Timestamp::now().unix_seconds();
        store
            .create(task("a", TaskState::Working, now - 30), alice.clone())
            .await
            .unwrap();
        store
            .create(task("b", TaskState::Completed, now - 20), alice.clone())
            .await
            .unwrap();
        let mut other = task("c", TaskState::Working, now - 10);
        other.context_id = Some("other".into());
        store.create(other, alice.clone()).await.unwrap();
        store
            .create(task("d", TaskState::Working, now), None)
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

#[test]
fn the_log_numbers_events_without_gaps_and_wait_wakes_readers() {
    block_on(async {
        let store = std::sync::Arc::new(InMemoryTaskStore::new());
        let id = TaskId::from("t");
        store
            .create(task("t", TaskState::Submitted, 0), None)
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
        let outcome = store
            .update(
                &id,
                Box::new(|t: &mut Task| {
                    t.status = TaskStatus::new(TaskState::Working);
                    Some(StreamResponse::Task(t.clone()))
                }),
            )
            .await
            .unwrap()
            .unwrap();
        assert_eq!(outcome.last_seq, 2);
        let entries = reader.await.unwrap();
        assert_eq!(entries.iter().map(|e| e.seq).collect::<Vec<_>>(), [2]);
        // A change without an event updates the task and leaves the log alone.
        let outcome = store
            .update(
                &id,
                Box::new(|t: &mut Task| {
                    t.metadata = Some(Default::default());
                    None
                }),
            )
            .await
            .unwrap()
            .unwrap();
        assert_eq!(outcome.last_seq, 2);
        assert_eq!(store.read_log(&id, 0, 10).await.unwrap().len(), 2);
        assert!(
            store
                .update(&"nope".into(), Box::new(|_: &mut Task| None))
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
            .create(task("done", TaskState::Completed, now - 10), None)
            .await
            .unwrap();
        store
            .update(
                &"done".into(),
                Box::new(|t: &mut Task| {
                    t.status.timestamp =
                        Timestamp::from_unix(Timestamp::now().unix_seconds() - 5, 0);
                    None
                }),
            )
            .await
            .unwrap()
            .unwrap();
        store
            .create(task("next", TaskState::Working, now), None)
            .await
            .unwrap();
        assert!(store.load(&"done".into()).await.unwrap().is_none());
        assert_eq!(store.len(), 1);
    });
}
