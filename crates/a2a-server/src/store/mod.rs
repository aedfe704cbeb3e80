//! Where tasks live: the [`TaskStore`] trait and the default [`InMemoryTaskStore`].
//!
//! A store holds, per task, the task itself, its owner, and its **event log**: every
//! [`StreamResponse`] the task emitted, numbered from 1. Writers change a task only through
//! [`TaskStore::update`], which decides a [`TaskEdit`] on the task as it stands, applies it and
//! appends its event atomically, so the task and its log never disagree. Readers (SSE streams,
//! blocking `SendMessage` calls) read the log from their own cursor with [`TaskStore::read_log`]
//! and sleep in [`TaskStore::wait`] until it grows. Nothing here assumes the writer and the
//! readers share a process: a SQL store can implement `update` as a transaction and `wait` with
//! `LISTEN/NOTIFY`.
//!
//! # Bytes
//!
//! Every store accounts the bytes each task holds the same way: [`task_bytes`] of the task as
//! created, plus [`TaskEdit::bytes`] of every edit applied since (the message, status message or
//! artifact it adds and the event it logs). The count only grows, costs O(size of the edit) per
//! update, and is an estimate of the memory the content takes (text and file bytes count their
//! length, a `data` part the heap its JSON tree takes, which is far more than its JSON text).
//! [`update`](TaskStore::update) hands the change the task's count and the room the store has
//! left ([`Room`]); the handler refuses an edit that does not fit, before anything changes.
//!
//! # Pins
//!
//! A store may drop tasks it no longer needs (see [`RetentionPolicy`]). [`TaskStore::pin`] keeps
//! one from being dropped while the returned [`TaskPin`] lives: the handler pins a task for each
//! open stream, each waiting call and its running agent. A store that cannot pin returns an
//! empty pin; readers then notice a task that went away (a stream ends with an error that says
//! so, and a blocking `SendMessage` still answers with the task its update handed it).

mod bytes;
mod memory;
#[cfg(test)]
mod memory_tests;

use std::future::Future;
use std::pin::Pin;

use a2a_types::protocol::Generation;
use a2a_types::v1::{
    Artifact, ContextId, Message, StreamResponse, Task, TaskArtifactUpdateEvent, TaskId,
    TaskPushNotificationConfig, TaskState, TaskStatus, TaskStatusUpdateEvent, Timestamp,
};

pub use bytes::{json_len, present_task, task_bytes};
pub use memory::{InMemoryTaskStore, RetentionPolicy};

use crate::auth::Principal;

/// The future a store method returns.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// A store failure (I/O, serialization, a broken invariant, a full store).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// `create` for an id that already exists.
    #[error("task {0} already exists")]
    AlreadyExists(TaskId),
    /// The store cannot take another task, or more bytes, without dropping one it may not drop
    /// (one that can still change, or that is pinned). The text says which limit was hit. The
    /// handler answers a new `SendMessage` with `UnsupportedOperationError` (-32004) carrying it.
    #[error("{0}")]
    Full(String),
    /// The backend failed.
    #[error("task store backend failed: {0}")]
    Backend(String),
}

/// Whom a task belongs to: the principal that created it and the tenant it was created under.
///
/// A task is visible only to calls with the same owner: another principal, or the same one
/// under another tenant, gets `TaskNotFound`, and `ListTasks` lists only the caller's own
/// tasks. Without an authenticator every call has no principal, so tenants are the only scope.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Owner {
    /// The authenticated principal (`None` without authentication).
    pub principal: Option<Principal>,
    /// The tenant (`None`: the default tenant, which is a scope of its own).
    pub tenant: Option<String>,
}

impl Owner {
    /// The owner of tasks created by `principal` under `tenant`.
    pub fn new(principal: Option<Principal>, tenant: Option<String>) -> Self {
        Self {
            principal,
            tenant: tenant.filter(|t| !t.is_empty()),
        }
    }
}

/// A task as stored: the task, its owner and the sequence number of its last event.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct StoredTask {
    /// The task.
    pub task: Task,
    /// Whom it belongs to.
    pub owner: Owner,
    /// The protocol generation it was created through (its default shape for calls that do
    /// not name one).
    pub generation: Generation,
    /// The sequence number of the task's last logged event (the log starts at 1).
    pub last_seq: u64,
    /// The bytes the store accounts to the task (see the [module docs](self#bytes)).
    pub bytes: u64,
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

/// What a change is told besides the task: the bytes the task holds and the bytes the store
/// can still take. An edit fits when [`TaskEdit::bytes`] is at most [`store_room`](Room::store_room)
/// and the task's bytes after it stay within the handler's per-task limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Room {
    /// The bytes the store accounts to the task now.
    pub task_bytes: u64,
    /// How many more bytes the store can take without dropping a task it may not drop;
    /// `u64::MAX` for a store without a total limit.
    pub store_room: u64,
}

impl Room {
    /// A task holding `task_bytes`, in a store with `store_room` bytes left.
    pub fn new(task_bytes: u64, store_room: u64) -> Self {
        Self {
            task_bytes,
            store_room,
        }
    }
}

/// One change to a task. Every store applies it as [`TaskEdit::apply`] does (a store may keep
/// the task and the event in another form, but what it reads back must be the same).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum TaskEdit {
    /// A message joins the history (a client's follow-up). Logs nothing.
    Message(Message),
    /// A new status; its message, if any, joins the history too. Logs a `StatusUpdate`.
    Status(TaskStatus),
    /// The current status again with a new timestamp: the end of a turn that changed nothing.
    /// Logs a `StatusUpdate`.
    Restate(Timestamp),
    /// An artifact, or with `append` one more chunk of an artifact the task has (its parts are
    /// appended, and its metadata replaces the artifact's when set); without `append` it replaces
    /// an artifact with the same id or joins the list. Logs an `ArtifactUpdate` carrying the
    /// artifact as given. An `append` to an artifact the task lacks starts it.
    Artifact {
        /// The artifact or chunk.
        artifact: Artifact,
        /// Extends the artifact of the same id.
        append: bool,
        /// The last chunk of the artifact.
        last_chunk: bool,
    },
}

impl TaskEdit {
    /// Applies the edit to `task` and returns the event to log (`None` for a message).
    pub fn apply(self, task: &mut Task) -> Option<StreamResponse> {
        let context = || task.context_id.clone().unwrap_or_default();
        match self {
            TaskEdit::Message(message) => {
                task.history.push(message);
                None
            }
            TaskEdit::Status(status) => {
                if let Some(message) = &status.message {
                    task.history.push(message.clone());
                }
                task.status = status;
                Some(StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(
                    task.id.clone(),
                    context(),
                    task.status.clone(),
                )))
            }
            TaskEdit::Restate(timestamp) => {
                task.status.timestamp = Some(timestamp);
                Some(StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(
                    task.id.clone(),
                    context(),
                    task.status.clone(),
                )))
            }
            TaskEdit::Artifact {
                artifact,
                append,
                last_chunk,
            } => {
                let existing = task
                    .artifacts
                    .iter_mut()
                    .find(|a| a.artifact_id == artifact.artifact_id);
                match (existing, append) {
                    (Some(existing), true) => {
                        existing.parts.extend(artifact.parts.iter().cloned());
                        if artifact.metadata.is_some() {
                            existing.metadata.clone_from(&artifact.metadata);
                        }
                    }
                    (Some(existing), false) => *existing = artifact.clone(),
                    (None, _) => task.artifacts.push(artifact.clone()),
                }
                Some(StreamResponse::ArtifactUpdate(
                    TaskArtifactUpdateEvent::new(task.id.clone(), context(), artifact)
                        .with_append(append)
                        .with_last_chunk(last_chunk),
                ))
            }
        }
    }

    /// The bytes the edit adds to its task's account (see the [module docs](self#bytes)).
    pub fn bytes(&self) -> u64 {
        bytes::edit_bytes(self)
    }

    /// The state the task is in after the edit, given the state before it.
    pub fn state_after(&self, before: TaskState) -> TaskState {
        match self {
            TaskEdit::Status(status) => status.state,
            _ => before,
        }
    }
}

/// A change to one task, applied atomically by the store: decided on the task as it stands and
/// the [`Room`] left, it returns the edit to apply, or `None` to leave the task as it is. It may
/// run side effects (the handler registers executions in it) but must not block.
pub type Change<'a> = Box<dyn FnOnce(&Task, Room) -> Option<TaskEdit> + Send + 'a>;

/// Called by [`TaskStore::update`] with the task as an edit left it, before any waiter is woken
/// (a blocking `SendMessage` keeps the task that its final update made this way).
pub type Observer<'a> = Box<dyn FnOnce(&Task) + Send + 'a>;

/// Keeps a task from being dropped by its store while it lives (see [`TaskStore::pin`]).
#[must_use = "the task is unpinned when the pin is dropped"]
pub struct TaskPin {
    _guard: Option<Box<dyn Send + Sync>>,
}

impl TaskPin {
    /// A pin that releases the task when `guard` is dropped.
    pub fn new(guard: impl Send + Sync + 'static) -> Self {
        Self {
            _guard: Some(Box::new(guard)),
        }
    }

    /// A pin that holds nothing: for stores that cannot pin.
    pub fn none() -> Self {
        Self { _guard: None }
    }
}

impl std::fmt::Debug for TaskPin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskPin")
            .field("holds", &self._guard.is_some())
            .finish()
    }
}

/// The filters and the page of a `ListTasks` query.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ListQuery {
    /// Only tasks of this owner.
    pub owner: Owner,
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
    /// Each task with at most this many of its latest messages (`None`: all of them).
    pub history_length: Option<usize>,
    /// Each task with its artifacts (otherwise without).
    pub include_artifacts: bool,
    /// At most this many bytes of tasks (their JSON as presented, see [`json_len`]): the page
    /// ends before the task that would take it over, and its `next_page_token` points there. A
    /// first task larger than this still comes, alone. `None`: no limit.
    pub max_bytes: Option<usize>,
}
/// One page of tasks, newest status first.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ListPage {
    /// The tasks, as the query asked to see them ([`present_task`]).
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
/// Implementations must keep these promises: `update` is atomic per task (the change, the task
/// write and the log append happen together or not at all, and two updates of one task never
/// interleave); log sequence numbers start at 1 and have no gaps; `wait` resolves once the
/// log has an entry after the given sequence number, or the task is gone; the bytes of each
/// task are accounted as the [module docs](self#bytes) say; a pinned task is not dropped, or, by
/// a store that cannot pin, readers are prepared for it to go.
pub trait TaskStore: Send + Sync + 'static {
    /// Stores a new task and logs `StreamResponse::Task(task)` as event 1. Fails with
    /// [`StoreError::Full`] when the store has no room for it.
    fn create<'a>(
        &'a self,
        task: Task,
        owner: Owner,
        generation: Generation,
    ) -> StoreFuture<'a, UpdateOutcome>;

    /// Whether a task of `bytes` could be created now: [`StoreError::Full`] when not. Lets the
    /// handler refuse a request before its agent runs; `create` still decides.
    ///
    /// The default always has room.
    fn check_room<'a>(&'a self, bytes: u64) -> StoreFuture<'a, ()> {
        let _ = bytes;
        Box::pin(std::future::ready(Ok(())))
    }

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

    /// Keeps the task from being dropped while the returned pin lives; `None` when there is no
    /// such task. Pins nest: the task is free again when the last one is dropped.
    ///
    /// The default checks that the task exists and returns [`TaskPin::none`]: a store that
    /// cannot pin keeps its tasks as its own policy says.
    fn pin<'a>(&'a self, id: &'a TaskId) -> StoreFuture<'a, Option<TaskPin>> {
        Box::pin(async move { Ok(self.progress(id).await?.map(|_| TaskPin::none())) })
    }

    /// Decides a change on the task as it stands, applies the edit it returns and appends the
    /// edit's event, atomically; then calls `then`, if an edit was applied, with the task as it
    /// left it. `None` when there is no such task.
    fn update<'a>(
        &'a self,
        id: &'a TaskId,
        change: Change<'a>,
        then: Option<Observer<'a>>,
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

    /// Stores a push configuration registered through a call of `generation` (the shape its
    /// deliveries take: a 0.3 or 0.1 client expects the body of its own generation), replacing
    /// one with the same id.
    ///
    /// The default stores it with [`put_push_config`](Self::put_push_config) and forgets the
    /// generation (deliveries then take the 1.0 shape); stores keep it to answer
    /// [`push_config_generation`](Self::push_config_generation).
    fn put_push_config_from<'a>(
        &'a self,
        config: TaskPushNotificationConfig,
        generation: Generation,
    ) -> StoreFuture<'a, ()> {
        let _ = generation;
        self.put_push_config(config)
    }

    /// The generation a push configuration was registered through
    /// ([`put_push_config_from`](Self::put_push_config_from)); `None` when the store does not
    /// know (a configuration stored by [`put_push_config`](Self::put_push_config), or a store
    /// that does not keep it), which means 1.0.
    ///
    /// The default knows none.
    fn push_config_generation<'a>(
        &'a self,
        task_id: &'a TaskId,
        id: &'a str,
    ) -> StoreFuture<'a, Option<Generation>> {
        let _ = (task_id, id);
        Box::pin(std::future::ready(Ok(None)))
    }

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
