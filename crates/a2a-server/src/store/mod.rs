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
//! # Generations
//!
//! A task's generation (A2A 1.1, `Task::generation`) is the sequence number of its last logged
//! event, and an event's generation its own sequence number: 1 at creation (the log's first
//! event is the task), 1 more per logged event, kept by the same atomic step that appends to
//! the log, so every store and every replica agrees on it. A store sets `task.generation` to
//! `last_seq` on every task it hands out or passes to a [`Change`] ([`StoredTask::new`] and
//! [`LogEntry::new`] do it; [`stamp_generation`] for the rest).
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
//!
//! # The push outbox
//!
//! A task's push configurations receive its events through the store's **outbox**: at least
//! once, in order per (task, configuration). The store only keeps the deliveries; the push
//! worker (`crate::push`) sends them. The contract, which a SQL store keeps with one table
//! written in the update's transaction (see below):
//!
//! * **Enqueue.** [`create`](TaskStore::create) and [`update`](TaskStore::update) enqueue, in
//!   the same atomic step as the log append, one [`Delivery`] of the event they log for each
//!   push configuration the task has at that moment, in the configurations' creation order
//!   (`create` logs event 1, the task, for configurations stored under its id beforehand). A
//!   configuration whose queue is at its bound, or an outbox at its total bound
//!   ([`OutboxLimits`]), gets no delivery of that event: the store counts it as dropped in the
//!   configuration's [`PushStatus`], with the reason as its `last_error`. The update itself
//!   never fails or waits for the outbox: a slow or dead webhook holds up nobody.
//! * **Claim.** [`claim_deliveries`](TaskStore::claim_deliveries) hands out due deliveries,
//!   each leased until `now + lease` under a fresh lease token: only the oldest undelivered
//!   delivery of each queue (a queue is the deliveries of one configuration of one task), and
//!   none of a queue whose oldest delivery is leased and its lease has not run out. A lease that
//!   runs out makes the delivery claimable again (its worker died or hangs): delivery is at
//!   least once.
//! * **Settle**, with the delivery's id and the lease token of its claim, through
//!   [`settle_delivery`](TaskStore::settle_delivery): [`Settle::Complete`] removes it (the
//!   next one of its queue becomes claimable); [`Settle::Retry`] counts a failed attempt, keeps
//!   the error and makes it due again at the given time; [`Settle::Release`] makes it due again
//!   without counting an attempt (the worker could not start it); [`Settle::Kill`] counts the
//!   attempt, marks it dead (its body is dropped; a record with its attempts and last error
//!   stays, up to [`OutboxLimits::max_dead_per_config`] per configuration) and lets its queue
//!   go on. A call whose lease token is not the delivery's current one (the lease ran out and
//!   another worker claimed it, or it was settled) changes nothing and returns false.
//! * **Configurations.** A delivery goes to the configuration as it was when the delivery was
//!   enqueued (URL, token, authentication, and the [`ProtocolVersion`] it was registered through):
//!   replacing a configuration changes later deliveries only.
//!   [`delete_push_config`](TaskStore::delete_push_config) drops the configuration's pending
//!   deliveries and its status. A task the store drops keeps its pending deliveries until they
//!   settle.
//! * [`push_status`](TaskStore::push_status) reports, per configuration of a task, what was
//!   delivered, dropped, and what is pending or dead; [`wait_outbox`](TaskStore::wait_outbox)
//!   wakes the worker when deliveries were enqueued.
//!
//! Times are wall-clock ([`SystemTime`]), so that workers in several processes share them.
//! In SQL, one `push_outbox` row per delivery (`id` ascending in enqueue order, `task_id`,
//! `config_id`, `seq`, the event's JSON, the configuration's columns, the version,
//! `attempts`, `due_at`, `lease`, `lease_until`, `last_error`, `dead`), inserted by the
//! update's transaction; a claim is one statement:
//!
//! ```text
//! UPDATE push_outbox SET lease = nextval(...), lease_until = $now + $lease
//! WHERE id IN (SELECT o.id FROM push_outbox o
//!              WHERE NOT o.dead AND coalesce(o.lease_until, o.due_at) <= $now
//!                AND o.id = (SELECT min(p.id) FROM push_outbox p
//!                            WHERE p.task_id = o.task_id AND p.config_id = o.config_id
//!                              AND NOT p.dead)
//!              ORDER BY coalesce(o.lease_until, o.due_at) LIMIT $limit
//!              FOR UPDATE SKIP LOCKED)
//! RETURNING ...
//! ```
//!
//! and each settle an `UPDATE ... WHERE id = $id AND lease = $lease` (or a `DELETE`).

mod bytes;
#[cfg(feature = "store-conformance")]
pub mod conformance;
mod memory;
#[cfg(test)]
mod memory_tests;
mod outbox;
#[cfg(test)]
mod outbox_tests;

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, SystemTime};

use a2a_types::protocol::ProtocolVersion;
use a2a_types::v1::{
    Artifact, ContextId, Message, StreamResponse, Task, TaskArtifactUpdateEvent, TaskId,
    TaskPushNotificationConfig, TaskState, TaskStatus, TaskStatusUpdateEvent, Timestamp,
};

pub use bytes::{delivery_bytes, json_len, present_task, task_bytes};
pub use memory::{InMemoryTaskStore, RetentionPolicy};

use crate::auth::Principal;

/// The future a store method returns.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// A store failure, by kind: what the caller can do about it follows from the variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// `create` for an id that already exists.
    #[error("task {0} already exists")]
    AlreadyExists(TaskId),
    /// Something the operation needs is not stored (the text names it).
    #[error("not found: {0}")]
    NotFound(String),
    /// A concurrent writer won and the store gave up retrying: the same call may succeed later.
    #[error("conflict with a concurrent change: {0}")]
    Conflict(String),
    /// The store cannot take another task, or more bytes, without dropping one it may not drop
    /// (one that can still change, or that is pinned). The text says which limit was hit.
    /// The handler answers a new `SendMessage` with an overload (HTTP 503 with `Retry-After`,
    /// gRPC `UNAVAILABLE`) carrying it.
    #[error("{0}")]
    Full(String),
    /// The backend cannot be reached or did not answer in time (a database that is down, a
    /// pool with no free connection): transient, the call may be retried.
    #[error("task store unavailable: {0}")]
    Unavailable(String),
    /// What the store holds cannot be read back (a row that does not decode, a broken
    /// invariant): not transient.
    #[error("task store data is corrupt: {0}")]
    Corrupt(String),
    /// A `ListTasks` page token that this store did not hand out (the token as given).
    #[error("invalid pageToken `{0}`")]
    InvalidPageToken(String),
    /// The store does not do this (a store without a push outbox, asked to claim deliveries).
    #[error("the task store does not support this: {0}")]
    Unsupported(String),
}

impl StoreError {
    /// Whether the same call may succeed when tried again ([`Conflict`](Self::Conflict),
    /// [`Unavailable`](Self::Unavailable)).
    pub fn is_transient(&self) -> bool {
        matches!(self, StoreError::Conflict(_) | StoreError::Unavailable(_))
    }
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
    ///
    /// Only the principal's subject is kept ([`Principal::identity`]): its scopes and claims
    /// describe one request, and its tenant is the call's.
    pub fn new(principal: Option<Principal>, tenant: Option<String>) -> Self {
        Self {
            principal: principal.as_ref().map(Principal::identity),
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
    /// The protocol version it was created through (its default shape for calls that do
    /// not name one).
    pub protocol_version: ProtocolVersion,
    /// The sequence number of the task's last logged event (the log starts at 1).
    pub last_seq: u64,
    /// The bytes the store accounts to the task (see the [module docs](self#bytes)).
    pub bytes: u64,
}

impl StoredTask {
    /// A task as a store read it back (for stores outside this crate).
    pub fn new(
        task: Task,
        owner: Owner,
        protocol_version: ProtocolVersion,
        last_seq: u64,
        bytes: u64,
    ) -> Self {
        let mut task = task;
        task.generation = generation(last_seq);
        Self {
            task,
            owner,
            protocol_version,
            last_seq,
            bytes,
        }
    }
}

/// A sequence number as a generation (saturating at `i64::MAX`).
pub fn generation(seq: u64) -> i64 {
    i64::try_from(seq).unwrap_or(i64::MAX)
}

/// Sets the generation an event logged at `seq` carries: `seq` (a message carries none).
pub fn stamp_generation(event: &mut StreamResponse, seq: u64) {
    let generation = generation(seq);
    match event {
        StreamResponse::Task(task) => task.generation = generation,
        StreamResponse::StatusUpdate(update) => update.generation = generation,
        StreamResponse::ArtifactUpdate(update) => update.generation = generation,
        _ => {}
    }
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

impl LogEntry {
    /// The event `seq` of a log, carrying its generation (`seq`).
    pub fn new(seq: u64, event: StreamResponse) -> Self {
        let mut event = event;
        stamp_generation(&mut event, seq);
        Self { seq, event }
    }
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

impl UpdateOutcome {
    /// A task whose last event is `last_seq`, in `state`.
    pub fn new(last_seq: u64, state: TaskState) -> Self {
        Self { last_seq, state }
    }
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
    /// Applies the edit to `task` and returns the event to log (`None` for a message); an
    /// event is one more generation, which the task and the event carry (see
    /// [Generations](self#generations)).
    pub fn apply(self, task: &mut Task) -> Option<StreamResponse> {
        let mut event = self.apply_edit(task)?;
        task.generation = task.generation.saturating_add(1);
        stamp_generation(
            &mut event,
            u64::try_from(task.generation).unwrap_or_default(),
        );
        Some(event)
    }

    fn apply_edit(self, task: &mut Task) -> Option<StreamResponse> {
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
/// the [`Room`] left, it returns the edit to apply, or `None` to leave the task as it is.
///
/// The store may call it more than once for one update (a SQL store retries a transaction that
/// lost a serialization conflict; only the last call's edit is applied), so it must be a
/// function of the task and the room: it may record its decision in what it borrows (each call
/// overwriting the last), but must have no other effect. Effects of an applied edit belong in
/// the update's [`Observer`] or after the update returns.
pub type Change<'a> = Box<dyn FnMut(&Task, Room) -> Option<TaskEdit> + Send + 'a>;

/// Called by [`TaskStore::update`] once, after the edit is applied for good, with the task as
/// the edit left it; a store that can, calls it before any waiter of this process is woken (a
/// blocking `SendMessage` keeps the task that its final update made this way).
pub type Observer<'a> = Box<dyn FnOnce(&Task) + Send + 'a>;

/// A guard of the store's: something the store keeps while the value lives (a boxed guard
/// of the store's own, dropped with it), or nothing for a store that keeps nothing.
macro_rules! store_guard {
    ($(#[$meta:meta])* $name:ident, must_use: $must_use:literal, new: $new:literal,
     none: $none:literal) => {
        $(#[$meta])*
        #[must_use = $must_use]
        pub struct $name {
            _guard: Option<Box<dyn Send + Sync>>,
        }

        impl $name {
            #[doc = $new]
            pub fn new(guard: impl Send + Sync + 'static) -> Self {
                Self {
                    _guard: Some(Box::new(guard)),
                }
            }

            #[doc = $none]
            pub fn none() -> Self {
                Self { _guard: None }
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("holds", &self._guard.is_some())
                    .finish()
            }
        }
    };
}

store_guard!(
    /// Keeps a task from being dropped by its store while it lives (see [`TaskStore::pin`]).
    TaskPin,
    must_use: "the task is unpinned when the pin is dropped",
    new: "A pin that releases the task when `guard` is dropped.",
    none: "A pin that holds nothing: for stores that cannot pin."
);

store_guard!(
    /// Marks a task's agent as running in this process while it lives (see
    /// [`TaskStore::agent_running`]).
    AgentRun,
    must_use: "the agent counts as running only while the guard lives",
    new: "A run that ends when `guard` is dropped.",
    none: "A run the store does not track: for stores without leases."
);

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

/// The bounds of a store's push outbox: every delivery waiting is held until it settles.
///
/// | limit | default | what happens when it is hit |
/// |---|---|---|
/// | `max_per_config` | 1 000 | the configuration gets no delivery of the event: `PushStatus::dropped` counts it, `last_error` says "the outbox holds 1000 deliveries for push config ... (max_per_config)"; a warning is logged |
/// | `max_bytes_per_config` | 8 MiB | the same, naming `max_bytes_per_config` |
/// | `max_total` | 100 000 | the same for every configuration, naming `max_total` |
/// | `max_total_bytes` | 64 MiB | the same, naming `max_total_bytes` |
/// | `max_dead_per_config` | 16 | the oldest dead-delivery record of the configuration is forgotten |
///
/// Bytes are [`delivery_bytes`]: the event's content as the store counts task content, the
/// configuration's strings, and a fixed overhead per delivery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct OutboxLimits {
    /// The most deliveries waiting for one configuration of one task.
    pub max_per_config: usize,
    /// The most bytes of deliveries waiting for one configuration of one task.
    pub max_bytes_per_config: u64,
    /// The most deliveries waiting in all.
    pub max_total: usize,
    /// The most bytes of deliveries waiting in all.
    pub max_total_bytes: u64,
    /// The most dead-delivery records kept per configuration (the newest).
    pub max_dead_per_config: usize,
}

impl Default for OutboxLimits {
    fn default() -> Self {
        Self {
            max_per_config: 1_000,
            max_bytes_per_config: 8 * 1024 * 1024,
            max_total: 100_000,
            max_total_bytes: 64 * 1024 * 1024,
            max_dead_per_config: 16,
        }
    }
}

impl OutboxLimits {
    /// Sets the most deliveries waiting per configuration.
    #[must_use]
    pub fn with_max_per_config(mut self, n: usize) -> Self {
        self.max_per_config = n;
        self
    }

    /// Sets the most bytes waiting per configuration.
    #[must_use]
    pub fn with_max_bytes_per_config(mut self, bytes: u64) -> Self {
        self.max_bytes_per_config = bytes;
        self
    }

    /// Sets the most deliveries waiting in all.
    #[must_use]
    pub fn with_max_total(mut self, n: usize) -> Self {
        self.max_total = n;
        self
    }

    /// Sets the most bytes waiting in all.
    #[must_use]
    pub fn with_max_total_bytes(mut self, bytes: u64) -> Self {
        self.max_total_bytes = bytes;
        self
    }

    /// Sets how many dead-delivery records are kept per configuration.
    #[must_use]
    pub fn with_max_dead_per_config(mut self, n: usize) -> Self {
        self.max_dead_per_config = n;
        self
    }
}

/// One delivery of the outbox, as claimed: an event of a task for one of its push
/// configurations.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Delivery {
    /// Its id: unique in the store, ascending in enqueue order.
    pub id: u64,
    /// The token of this claim, for settling it.
    pub lease: u64,
    /// The task.
    pub task_id: TaskId,
    /// The sequence number of the event in the task's log.
    pub seq: u64,
    /// The event.
    pub event: StreamResponse,
    /// The push configuration, as it was when the delivery was enqueued.
    pub config: TaskPushNotificationConfig,
    /// The version the configuration was registered through: the shape of the body.
    pub protocol_version: ProtocolVersion,
    /// The failed attempts so far.
    pub attempts: u32,
    /// The error of the last failed attempt.
    pub last_error: Option<String>,
}

impl Delivery {
    /// A delivery of event `seq` to `config` (whose `task_id` names the task), claimed under
    /// `lease`, with no failed attempt yet (set `attempts` and `last_error` after).
    pub fn new(
        id: u64,
        lease: u64,
        seq: u64,
        event: StreamResponse,
        config: TaskPushNotificationConfig,
        protocol_version: ProtocolVersion,
    ) -> Self {
        Self {
            id,
            lease,
            task_id: config.task_id.clone().unwrap_or_default(),
            seq,
            event,
            config,
            protocol_version,
            attempts: 0,
            last_error: None,
        }
    }
}

/// What [`TaskStore::claim_deliveries`] handed out.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Claimed {
    /// The deliveries claimed, each under its own lease.
    pub deliveries: Vec<Delivery>,
    /// When the next delivery not handed out becomes claimable (a retry's due time, or a
    /// lease that runs out); `None` when none waits.
    pub next_due: Option<SystemTime>,
}

/// How a claimed delivery is settled ([`TaskStore::settle_delivery`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[expect(
    clippy::exhaustive_enums,
    reason = "every store implements each way; a new one would be a change of the store contract"
)]
pub enum Settle {
    /// The webhook accepted it: the delivery is removed, and the next one of its queue becomes
    /// claimable.
    Complete,
    /// The attempt failed and is worth another: the attempt is counted, `error` kept, and the
    /// delivery is due again at `due`.
    Retry {
        /// When it is due again.
        due: SystemTime,
        /// What went wrong.
        error: String,
    },
    /// The worker did not attempt it (its host was busy): due again at `due`, no attempt
    /// counted.
    Release {
        /// When it is due again.
        due: SystemTime,
    },
    /// The attempt failed for good: the attempt is counted and the delivery marked dead with
    /// `error`; its queue goes on.
    Kill {
        /// Why it was given up.
        error: String,
    },
}

/// Where a delivery stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DeliveryState {
    /// Waiting to be sent (again).
    Pending,
    /// Claimed, its lease running: being sent.
    InFlight,
    /// Given up on: its attempts ran out, or the webhook refused it for good.
    Dead,
}

/// A delivery as [`TaskStore::push_status`] reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DeliveryRecord {
    /// The delivery's id.
    pub id: u64,
    /// The sequence number of its event.
    pub seq: u64,
    /// Where it stands.
    pub state: DeliveryState,
    /// The failed attempts.
    pub attempts: u32,
    /// The error of the last failed attempt.
    pub last_error: Option<String>,
    /// When it is due (pending), or its lease runs out (in flight); `None` when dead.
    pub due: Option<SystemTime>,
}

impl DeliveryRecord {
    /// Delivery `id` of event `seq`, in `state`, with no failed attempt and no due time yet
    /// (set `attempts`, `last_error` and `due` after).
    pub fn new(id: u64, seq: u64, state: DeliveryState) -> Self {
        Self {
            id,
            seq,
            state,
            attempts: 0,
            last_error: None,
            due: None,
        }
    }
}

/// How deliveries to one push configuration of a task went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PushStatus {
    /// The configuration's id.
    pub config_id: String,
    /// Deliveries the webhook accepted.
    pub delivered: u64,
    /// Events the configuration got no delivery of: the outbox was at a bound.
    pub dropped: u64,
    /// The last error: of a failed attempt, a dead delivery or a dropped event.
    pub last_error: Option<String>,
    /// The pending, in-flight and (the newest) dead deliveries, oldest first.
    pub deliveries: Vec<DeliveryRecord>,
}

impl PushStatus {
    /// The status of a configuration nothing happened to yet.
    pub fn new(config_id: impl Into<String>) -> Self {
        Self {
            config_id: config_id.into(),
            ..Self::default()
        }
    }
}

fn no_outbox<'a, T: Send + 'a>() -> StoreFuture<'a, T> {
    Box::pin(std::future::ready(Err(StoreError::Unsupported(
        "this task store keeps no push outbox, so push notifications cannot be delivered"
            .to_owned(),
    ))))
}

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
        protocol_version: ProtocolVersion,
    ) -> StoreFuture<'a, UpdateOutcome>;

    /// Whether a task of `bytes` for `owner` could be created now: [`StoreError::Full`] when
    /// not (the store holds as many tasks as it may, or `owner` its share of them),
    /// [`StoreError::Unavailable`] when the store knows it cannot reach its backend. Lets the
    /// handler refuse a request before its agent runs; `create` still decides.
    ///
    /// The default always has room.
    fn check_room<'a>(&'a self, owner: &'a Owner, bytes: u64) -> StoreFuture<'a, ()> {
        let _ = (owner, bytes);
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

    /// Tells the store that the agent of task `id` runs in this process until the returned
    /// [`AgentRun`] is dropped (the handler holds one from the start of an execution until
    /// its outcome is written). A store shared by replicas that leases active tasks to the
    /// replica running them (a SQL store) renews the leases of such tasks only: a task whose
    /// agent ended here without its final write (the store was away) keeps no lease alive,
    /// so that once its lease runs out any replica ends it, and it never lingers `WORKING`.
    ///
    /// Synchronous and cheap: no I/O. The default returns [`AgentRun::none`] (a store without
    /// leases).
    fn agent_running(&self, id: &TaskId) -> AgentRun {
        let _ = id;
        AgentRun::none()
    }

    /// Decides a change on the task as it stands, applies the edit it returns and appends the
    /// edit's event, atomically; then calls `then`, if an edit was applied, with the task as it
    /// left it. `None` when there is no such task. The change may be called more than once
    /// (see [`Change`]); `then` is called at most once.
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

    /// Stores a push configuration (its `id` and `task_id` set), replacing one with the same id,
    /// with the version it was registered through (its deliveries' body shape). The task
    /// need not exist yet: `create` delivers its first event to configurations stored before.
    fn put_push_config<'a>(
        &'a self,
        config: TaskPushNotificationConfig,
        protocol_version: ProtocolVersion,
    ) -> StoreFuture<'a, ()>;

    /// The version a push configuration was registered through (as given to
    /// [`put_push_config`](Self::put_push_config)); `None` when there is no such configuration
    /// or the store does not answer this (which then means 1.0).
    ///
    /// The default knows none.
    fn push_config_version<'a>(
        &'a self,
        task_id: &'a TaskId,
        id: &'a str,
    ) -> StoreFuture<'a, Option<ProtocolVersion>> {
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

    /// Deletes a push configuration, its pending deliveries and its status; true when it
    /// existed.
    fn delete_push_config<'a>(&'a self, task_id: &'a TaskId, id: &'a str) -> StoreFuture<'a, bool>;

    /// Claims up to `limit` due deliveries, each leased until `now + lease` (see the
    /// [module docs](self#the-push-outbox)).
    ///
    /// The default fails with [`StoreError::Unsupported`]: a store without an outbox.
    fn claim_deliveries<'a>(
        &'a self,
        now: SystemTime,
        lease: Duration,
        limit: usize,
    ) -> StoreFuture<'a, Claimed> {
        let _ = (now, lease, limit);
        no_outbox()
    }

    /// Settles a claimed delivery the way `how` says (see [`Settle`] and the
    /// [module docs](self#the-push-outbox)). False when `lease` is not its current claim: the
    /// lease ran out and another worker claimed it, or it was settled already; nothing changes
    /// then.
    ///
    /// The default fails with [`StoreError::Unsupported`].
    fn settle_delivery<'a>(&'a self, id: u64, lease: u64, how: Settle) -> StoreFuture<'a, bool> {
        let _ = (id, lease, how);
        no_outbox()
    }

    /// How deliveries to each push configuration of the task went, in the configurations'
    /// creation order.
    ///
    /// The default fails with [`StoreError::Unsupported`].
    fn push_status<'a>(&'a self, task_id: &'a TaskId) -> StoreFuture<'a, Vec<PushStatus>> {
        let _ = task_id;
        no_outbox()
    }

    /// Resolves when deliveries were enqueued since the last call (they may be claimable), or
    /// after `timeout`. Spurious wake-ups are allowed.
    ///
    /// The default sleeps for `timeout`: the worker then polls.
    fn wait_outbox<'a>(&'a self, timeout: Duration) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            tokio::time::sleep(timeout).await;
            Ok(())
        })
    }
}
