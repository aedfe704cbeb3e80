//! Where tasks live: the [`TaskStore`] trait and the default [`InMemoryTaskStore`].
//!
//! A store holds, per task, the task itself, its owner, and its **event log**: every
//! [`StreamResponse`] the task emitted, numbered from 1. Writers change a task only through
//! [`TaskStore::update`], which applies a change and appends its event atomically, so the task
//! and its log never disagree. Readers (SSE streams, blocking `SendMessage` calls) read the log
//! from their own cursor with [`TaskStore::read_log`] and sleep in [`TaskStore::wait`] until it
//! grows. Nothing here assumes the writer and the readers share a process: a SQL store can
//! implement `update` as a transaction and `wait` with `LISTEN/NOTIFY`.

mod memory;
#[cfg(test)]
mod memory_tests;

use std::future::Future;
use std::pin::Pin;

use a2a_types::v1::{
    ContextId, StreamResponse, Task, TaskId, TaskPushNotificationConfig, TaskState, Timestamp,
};

pub use memory::{InMemoryTaskStore, RetentionPolicy};

use crate::auth::Principal;

/// The future a store method returns.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// A store failure (I/O, serialization, a broken invariant). Answered as an internal error.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// `create` for an id that already exists.
    #[error("task {0} already exists")]
    AlreadyExists(TaskId),
    /// The backend failed.
    #[error("task store backend failed: {0}")]
    Backend(String),
}

/// A task as stored: the task, its owner and the sequence number of its last event.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct StoredTask {
    /// The task.
    pub task: Task,
    /// The principal that created it (`None` without authentication).
    pub owner: Option<Principal>,
    /// The sequence number of the task's last logged event (the log starts at 1).
    pub last_seq: u64,
}

/// One entry of a task's event log.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct LogEntry {
    /// Its sequence number, from 1, without gaps.
    pub seq: u64,
    /// The event.
    pub event: StreamResponse,
}

/// What [`TaskStore::update`] left behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct UpdateOutcome {
    /// The sequence number of the last logged event after the update.
    pub last_seq: u64,
    /// The task's state after the update.
    pub state: TaskState,
}

/// A change to one task, applied atomically by the store: it edits the task in place and
/// returns the event to log, if any.
pub type Change<'a> = Box<dyn FnOnce(&mut Task) -> Option<StreamResponse> + Send + 'a>;

/// The filters and the page of a `ListTasks` query.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ListQuery {
    /// Only tasks of this owner (`None`: only tasks without an owner).
    pub owner: Option<Principal>,
    /// Only tasks of this context.
    pub context_id: Option<ContextId>,
    /// Only tasks in this state.
    pub state: Option<TaskState>,
    /// Only tasks whose status timestamp is at or after this instant.
    pub status_after: Option<Timestamp>,
    /// At most this many tasks.
    pub page_size: usize,
    /// The cursor from the previous page's `next_page_token`.
    pub page_token: Option<String>,
}

/// One page of tasks, newest status first.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ListPage {
    /// The tasks.
    pub tasks: Vec<Task>,
    /// The cursor of the next page; empty on the last page.
    pub next_page_token: String,
    /// How many tasks match the filters, across all pages.
    pub total_size: usize,
}

/// An invalid `pageToken`.
pub const INVALID_PAGE_TOKEN: &str = "invalid pageToken";

/// Storage of tasks, their event logs and their push configurations.
///
/// Implementations must keep three promises: `update` is atomic per task (the change, the task
/// write and the log append happen together or not at all, and two updates of one task never
/// interleave); log sequence numbers start at 1 and have no gaps; `wait` resolves once the
/// log has an entry after the given sequence number, or the task is gone.
pub trait TaskStore: Send + Sync + 'static {
    /// Stores a new task and logs `StreamResponse::Task(task)` as event 1.
    fn create<'a>(&'a self, task: Task, owner: Option<Principal>)
    -> StoreFuture<'a, UpdateOutcome>;

    /// The task with this id, if any.
    fn load<'a>(&'a self, id: &'a TaskId) -> StoreFuture<'a, Option<StoredTask>>;

    /// Where a task stands, without copying it: the sequence number of its last event and its
    /// state. `None` when there is no such task.
    ///
    /// The default loads the whole task; stores that can answer cheaper should.
    fn progress<'a>(&'a self, id: &'a TaskId) -> StoreFuture<'a, Option<UpdateOutcome>> {
        Box::pin(async move {
            Ok(self.load(id).await?.map(|stored| UpdateOutcome {
                last_seq: stored.last_seq,
                state: stored.task.status.state,
            }))
        })
    }

    /// Applies `change` to the task atomically and appends the event it returns. `None` when
    /// there is no such task.
    fn update<'a>(
        &'a self,
        id: &'a TaskId,
        change: Change<'a>,
    ) -> StoreFuture<'a, Option<UpdateOutcome>>;

    /// Up to `limit` log entries after sequence number `after`, oldest first. Empty when there
    /// are none yet (or the task is gone).
    fn read_log<'a>(
        &'a self,
        id: &'a TaskId,
        after: u64,
        limit: usize,
    ) -> StoreFuture<'a, Vec<LogEntry>>;

    /// Resolves once the task's log has an entry after `after`, or the task no longer exists.
    fn wait<'a>(&'a self, id: &'a TaskId, after: u64) -> StoreFuture<'a, ()>;

    /// A page of tasks, newest status timestamp first; see [`ListQuery`].
    fn list<'a>(&'a self, query: &'a ListQuery) -> StoreFuture<'a, ListPage>;

    /// Stores a push configuration (its `id` and `task_id` set), replacing one with the same id.
    fn put_push_config<'a>(&'a self, config: TaskPushNotificationConfig) -> StoreFuture<'a, ()>;

    /// The push configuration `id` of a task.
    fn get_push_config<'a>(
        &'a self,
        task_id: &'a TaskId,
        id: &'a str,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>>;

    /// All push configurations of a task, in creation order.
    fn list_push_configs<'a>(
        &'a self,
        task_id: &'a TaskId,
    ) -> StoreFuture<'a, Vec<TaskPushNotificationConfig>>;

    /// Deletes a push configuration; true when it existed.
    fn delete_push_config<'a>(&'a self, task_id: &'a TaskId, id: &'a str) -> StoreFuture<'a, bool>;
}
