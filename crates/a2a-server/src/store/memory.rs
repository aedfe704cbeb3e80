//! The in-memory store: the embedded default.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use crate::hashing::IdMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use a2a_types::v1::{
    Artifact, ContextId, StreamResponse, Task, TaskArtifactUpdateEvent, TaskId,
    TaskPushNotificationConfig, TaskState, TaskStatus, TaskStatusUpdateEvent, Timestamp,
};
use tokio::sync::Notify;

use a2a_types::protocol::ProtocolVersion;

mod compact;

use compact::Frozen;

use super::outbox::{Outbox, Target};
use super::{
    Change, Claimed, ListPage, ListQuery, LogEntry, Observer, OutboxLimits, Owner, PushStatus,
    Room, Settle, StoreError, StoreFuture, StoredTask, TaskEdit, TaskPin, TaskStore, UpdateOutcome,
    bytes::compact_bytes, json_len, present_task, task_bytes,
};
use crate::auth::Principal;

/// How much an [`InMemoryTaskStore`] keeps, so that a long-running server's memory stays
/// bounded.
///
/// The store drops only tasks it may drop: those in a terminal state that nobody pins (no
/// open stream, no waiting call, no running agent; see [`TaskStore::pin`]), oldest final
/// status first. A task that can still change, or that someone reads, is never lost: when
/// unfinished tasks reach their count, or such tasks and pinned ones their bytes, the store
/// refuses new ones instead ([`StoreError::Full`], which clients see as a retryable 503).
///
/// | limit | default | what a client sees when it is hit |
/// |---|---|---|
/// | `max_tasks` | 10 000 | ended tasks beyond it are dropped, oldest first (`GetTask` on one: `TaskNotFoundError` -32001); tasks that may not be dropped can hold the store above it for a while |
/// | `max_live_tasks` | 10 000 | a `SendMessage` that would start a new task while this many tasks are unfinished: HTTP 503 with `Retry-After` (gRPC `UNAVAILABLE`), -32603 "the task store holds its limit of N unfinished tasks (max_live_tasks); try again later", retryable |
/// | `max_live_tasks_per_principal` | 2 500 | with an authenticator: a `SendMessage` of a principal that has this many unfinished tasks: the same 503, "the caller holds its share of N unfinished tasks (max_live_tasks_per_principal); try again once one of them ends" (anonymous calls share `max_live_tasks` alone) |
/// | `max_total_bytes` | 256 MiB | ended tasks are dropped, oldest first, until all tasks hold at most this many bytes (see the [module docs](super#bytes)); when unfinished and pinned tasks fill it, a new task gets -32004 "the task store is full ...", and a follow-up message or agent event that does not fit is refused (-32004 to the client, `SinkError::TooLarge` to the agent) |
/// | `terminal_ttl` | 1 hour | ended tasks whose final status is older are dropped: `TaskNotFoundError` (-32001) |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetentionPolicy {
    /// Drop the oldest ended tasks while more than this many tasks are stored.
    pub max_tasks: usize,
    /// Create no task while this many tasks are unfinished (not in a terminal state). An ended
    /// task that is pinned (read by a stream or a waiting call) is not dropped either, but no
    /// longer counts here: its bytes count against `max_total_bytes`.
    pub max_live_tasks: usize,
    /// Create no task for a principal that has this many unfinished tasks: one authenticated
    /// caller cannot take the whole of `max_live_tasks`. Calls without a principal (a server
    /// without an authenticator) are bounded by `max_live_tasks` alone.
    pub max_live_tasks_per_principal: usize,
    /// Drop ended tasks whose final status is older than this.
    pub terminal_ttl: Option<Duration>,
    /// The most bytes all tasks hold together (see the [module docs](super#bytes)): the oldest
    /// ended tasks are dropped to stay within it, and no task is created or grown when what
    /// may not be dropped already fills it.
    pub max_total_bytes: u64,
}

impl Default for RetentionPolicy {
    /// At most 10 000 tasks, 10 000 of them unfinished (2 500 per principal), and 256 MiB;
    /// ended tasks kept for one hour.
    fn default() -> Self {
        Self {
            max_tasks: 10_000,
            max_live_tasks: 10_000,
            max_live_tasks_per_principal: 2_500,
            terminal_ttl: Some(Duration::from_secs(3600)),
            max_total_bytes: 256 * 1024 * 1024,
        }
    }
}

impl RetentionPolicy {
    /// Sets the maximum number of tasks.
    #[must_use]
    pub fn with_max_tasks(mut self, max_tasks: usize) -> Self {
        self.max_tasks = max_tasks;
        self
    }

    /// Sets the most unfinished tasks.
    #[must_use]
    pub fn with_max_live_tasks(mut self, max_live_tasks: usize) -> Self {
        self.max_live_tasks = max_live_tasks;
        self
    }

    /// Sets the most unfinished tasks of one principal.
    #[must_use]
    pub fn with_max_live_tasks_per_principal(mut self, max: usize) -> Self {
        self.max_live_tasks_per_principal = max;
        self
    }

    /// Sets the time terminal tasks are kept (`None`: until the limits force them out).
    #[must_use]
    pub fn with_terminal_ttl(mut self, ttl: Option<Duration>) -> Self {
        self.terminal_ttl = ttl;
        self
    }

    /// Sets the most bytes all tasks may hold together.
    #[must_use]
    pub fn with_max_total_bytes(mut self, bytes: u64) -> Self {
        self.max_total_bytes = bytes;
        self
    }
}

/// Tasks, event logs, push configurations and the push outbox in process memory.
///
/// The outbox keeps the deliveries of the task events to the tasks' push configurations until
/// they are delivered, within [`OutboxLimits`] ([`with_outbox_limits`](Self::with_outbox_limits)).
///
/// A task's log does not copy what the task holds: an event that a message or an artifact
/// made refers to it in the task (the first event to the first messages of the history, an
/// artifact event to the parts it added), and is rebuilt when read. An artifact that is
/// replaced moves into the log, for the events that carried it.
///
/// An ended task that nothing pins (see [`TaskStore::pin`]) is kept compact: the task's JSON
/// and its log in a short binary form, in one allocation (~470 bytes for an echo task instead
/// of ~18 blocks). `load` and `ListTasks` pages decode its task, `read_log` the whole form; an
/// edit thaws it. The store's total, which [`RetentionPolicy::max_total_bytes`] bounds, counts
/// such a task as its compact size plus 352 bytes for its entry; the task's own account
/// ([`StoredTask::bytes`]) is unchanged.
///
/// ```
/// use a2a_server::store::{InMemoryTaskStore, RetentionPolicy};
///
/// let store = InMemoryTaskStore::with_retention(RetentionPolicy::default().with_max_tasks(1000));
/// # let _ = store;
/// ```
#[derive(Debug, Default)]
pub struct InMemoryTaskStore {
    shared: Arc<Shared>,
}

#[derive(Debug, Default)]
struct Shared {
    inner: Mutex<Inner>,
    retention: RetentionPolicy,
    /// Wakes the push worker when deliveries were enqueued (a permit waits for it).
    outbox_ready: Notify,
}

#[derive(Debug, Default)]
struct Inner {
    /// Boxed: a table slot is then 32 bytes, not ~450, and the table's spare capacity (up to
    /// half of it after a resize) costs little.
    tasks: IdMap<TaskId, Box<Entry>>,
    /// Every task by its [`Key`]: the `ListTasks` order, iterated newest first.
    by_time: BTreeMap<Key, TaskId>,
    /// The tasks that may be dropped (terminal, unpinned), oldest final status first: the
    /// eviction order. Pinned and live tasks are not in it, so eviction never skips any.
    evictable: BTreeSet<Key>,
    /// The number of the next task created.
    next_number: u64,
    /// How many tasks each owner has: `ListTasks`' `totalSize` when it filters by owner only.
    owned: IdMap<Owner, usize>,
    /// How many tasks are unfinished (not terminal): what `max_live_tasks` bounds.
    unfinished: usize,
    /// How many unfinished tasks each principal has (tasks without one are not counted):
    /// what `max_live_tasks_per_principal` bounds.
    unfinished_by: IdMap<Principal, usize>,
    /// Each task's push configurations, in creation order.
    push: IdMap<TaskId, Vec<Arc<Target>>>,
    outbox: Outbox,
    /// The bytes of all tasks.
    total_bytes: u64,
    /// The bytes of the tasks in `evictable`.
    evictable_bytes: u64,
}

#[derive(Debug)]
struct Entry {
    /// The task and its log: live values while it may change or someone pins it, one
    /// compact allocation once it ended and nobody pins it.
    body: Body,
    /// `None` for the default owner (no principal, the default tenant): a server without
    /// authentication keeps 24 bytes less per task.
    owner: Option<Box<Owner>>,
    protocol_version: ProtocolVersion,
    /// Wakes the [`TaskStore::wait`]ers registered since the last append (or removal). Made
    /// by the first of them and dropped once it has woken them: an idle task holds none.
    notify: Option<Arc<Notify>>,
    time_key: i64,
    /// The order of creation, which breaks ties of `time_key`.
    number: u64,
    /// The bytes accounted to the task (see the [module docs](super#bytes)): what
    /// [`StoredTask::bytes`] and [`Room`] tell, whichever form the task is kept in.
    bytes: u64,
    /// How many [`TaskPin`]s hold the task.
    pins: u32,
}

#[derive(Debug)]
enum Body {
    Live(Box<Live>),
    /// An ended task nobody pinned when it was frozen: decoded for each read, thawed by an
    /// edit.
    Frozen(Frozen),
}

/// A task and its log as live values.
#[derive(Debug)]
struct Live {
    task: Task,
    /// The events, in the short forms of [`Logged`]; the sequence number of `log[i]` is `i + 1`.
    log: Vec<Logged>,
    /// The artifacts the log's artifact events refer to, by slot.
    slots: Vec<Slot>,
    /// The slot of each of the task's artifacts.
    artifact_slots: Vec<u32>,
    /// The index in the history of the current status's message, when it has one there.
    status_message: Option<u32>,
}

/// One event of a task's log.
#[derive(Debug)]
enum Logged {
    /// The event as logged.
    Event(Box<StreamResponse>),
    /// `Task`: the task with this state and timestamp, its first `history` messages and no
    /// artifacts (the task as created).
    Snapshot {
        state: TaskState,
        timestamp: Option<Timestamp>,
        history: u32,
    },
    /// `StatusUpdate` with this state and timestamp, and the history's message `message`.
    Status {
        state: TaskState,
        timestamp: Option<Timestamp>,
        message: Option<u32>,
    },
    /// `ArtifactUpdate` carrying the parts `start..end` of the artifact in `slot`.
    Artifact {
        slot: u32,
        start: u32,
        end: u32,
        header: Header,
        append: bool,
        last_chunk: bool,
    },
}

/// Everything but the parts of a logged artifact.
#[derive(Debug)]
enum Header {
    /// The slot's artifact's own (the event that made the slot).
    Slot,
    /// Only the artifact id (a chunk without a name, metadata ...).
    Bare,
    /// Its own.
    Own(Box<Artifact>),
}

/// An artifact the log refers to.
#[derive(Debug)]
struct Slot {
    artifact: SlotArtifact,
    /// The log index of the event that made the slot (its header is [`Header::Slot`]).
    origin: u32,
}

#[derive(Debug)]
enum SlotArtifact {
    /// The task's artifact at this index.
    Live(u32),
    /// An artifact the task replaced since.
    Retired(Box<Artifact>),
}

fn index(n: usize) -> u32 {
    u32::try_from(n).expect("fewer than 2^32 messages, artifacts and events per task")
}

impl Entry {
    fn new(
        task: Task,
        owner: Owner,
        protocol_version: ProtocolVersion,
        (time_key, number): Key,
        bytes: u64,
    ) -> Self {
        Self {
            body: Body::Live(Box::new(Live::new(task))),
            owner: (owner != Owner::default()).then(|| Box::new(owner)),
            protocol_version,
            notify: None,
            time_key,
            number,
            bytes,
            pins: 0,
        }
    }

    fn owner(&self) -> &Owner {
        static DEFAULT: Owner = Owner {
            principal: None,
            tenant: None,
        };
        self.owner.as_deref().unwrap_or(&DEFAULT)
    }

    fn last_seq(&self) -> u64 {
        match &self.body {
            Body::Live(live) => live.log.len() as u64,
            Body::Frozen(frozen) => frozen.last_seq(),
        }
    }

    fn state(&self) -> TaskState {
        match &self.body {
            Body::Live(live) => live.task.status.state,
            Body::Frozen(frozen) => frozen.state(),
        }
    }

    fn key(&self) -> Key {
        (self.time_key, self.number)
    }

    fn evictable(&self) -> bool {
        self.pins == 0 && self.state().is_terminal()
    }

    /// The bytes the store's total counts for the task: its account while live, the compact
    /// form's size (and the entry's) once frozen.
    fn held(&self) -> u64 {
        match &self.body {
            Body::Live(_) => self.bytes,
            Body::Frozen(frozen) => compact_bytes(frozen.len()),
        }
    }

    /// Whether the task's context is `context`.
    fn in_context(&self, context: &ContextId) -> bool {
        match &self.body {
            Body::Live(live) => live.task.context_id.as_ref() == Some(context),
            Body::Frozen(frozen) => frozen.context_id() == Some(context.as_str().as_bytes()),
        }
    }

    /// The task (whose id is `id`): borrowed while live, decoded when frozen.
    fn task(&self, id: &TaskId) -> Result<Cow<'_, Task>, StoreError> {
        match &self.body {
            Body::Live(live) => Ok(Cow::Borrowed(&live.task)),
            Body::Frozen(frozen) => frozen.task(id).map(Cow::Owned),
        }
    }

    /// `read` of the live values (of the task `id`), decoded first when frozen.
    fn with_live<R>(&self, id: &TaskId, read: impl FnOnce(&Live) -> R) -> Result<R, StoreError> {
        match &self.body {
            Body::Live(live) => Ok(read(live)),
            Body::Frozen(frozen) => frozen.thaw(id).map(|live| read(&live)),
        }
    }

    /// Keeps the task in compact form (see [`Frozen`]), moving `total` (the store's bytes) by
    /// the change of [`held`](Self::held).
    fn freeze(&mut self, total: &mut u64) {
        if let Body::Live(live) = &mut self.body
            && let Some(frozen) = Frozen::freeze(live)
        {
            let held = self.held();
            self.body = Body::Frozen(frozen);
            *total = total.saturating_sub(held).saturating_add(self.held());
        }
    }
}

impl Live {
    fn new(task: Task) -> Self {
        let mut status = TaskStatus::new(task.status.state);
        status.timestamp = task.status.timestamp;
        let first = if status == task.status && task.artifacts.is_empty() {
            Logged::Snapshot {
                state: status.state,
                timestamp: status.timestamp,
                history: index(task.history.len()),
            }
        } else {
            Logged::Event(Box::new(StreamResponse::Task(task.clone())))
        };
        let slots = (0..task.artifacts.len())
            .map(|i| Slot {
                artifact: SlotArtifact::Live(index(i)),
                // Made by no event of the log: the first one is logged whole.
                origin: u32::MAX,
            })
            .collect();
        Self {
            artifact_slots: (0..index(task.artifacts.len())).collect(),
            slots,
            task,
            log: vec![first],
            status_message: None,
        }
    }

    fn status_event(&self) -> StreamResponse {
        StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(
            self.task.id.clone(),
            self.task.context_id.clone().unwrap_or_default(),
            self.task.status.clone(),
        ))
    }

    /// The short form of the status just set, whose message (if any) is the history's
    /// `message`; the status as logged when the short form cannot rebuild it.
    fn log_status(&mut self, message: Option<u32>) -> Logged {
        let status = &mut self.task.status;
        // Compared whole, without its message (taken out, not copied), so that a field added
        // to TaskStatus later falls back to logging the whole event.
        let taken = status.message.take();
        let plain = *status == status_without_message(status);
        let has_message = taken.is_some();
        status.message = taken;
        if plain && has_message == message.is_some() {
            Logged::Status {
                state: status.state,
                timestamp: status.timestamp,
                message,
            }
        } else {
            Logged::Event(Box::new(self.status_event()))
        }
    }

    /// Applies an edit as [`TaskEdit::apply`] does, logging its event in short form.
    fn apply(&mut self, edit: TaskEdit) -> Option<Logged> {
        let logged = self.apply_edit(edit);
        if logged.is_some() {
            // One more event: one more generation (the log's length once it is logged).
            self.task.generation = super::generation(self.log.len() as u64 + 1);
        }
        logged
    }

    fn apply_edit(&mut self, edit: TaskEdit) -> Option<Logged> {
        match edit {
            TaskEdit::Message(message) => {
                self.task.history.push(message);
                None
            }
            TaskEdit::Status(status) => {
                let message = status.message.as_ref().map(|m| {
                    self.task.history.push(m.clone());
                    index(self.task.history.len() - 1)
                });
                self.task.status = status;
                self.status_message = message;
                Some(self.log_status(message))
            }
            TaskEdit::Restate(timestamp) => {
                self.task.status.timestamp = Some(timestamp);
                Some(self.log_status(self.status_message))
            }
            TaskEdit::Artifact {
                mut artifact,
                append,
                last_chunk,
            } => Some(self.apply_artifact(&mut artifact, append, last_chunk)),
        }
    }

    fn apply_artifact(
        &mut self,
        artifact: &mut Artifact,
        append: bool,
        last_chunk: bool,
    ) -> Logged {
        let parts = std::mem::take(&mut artifact.parts);
        let count = index(parts.len());
        let position = self
            .task
            .artifacts
            .iter()
            .position(|a| a.artifact_id == artifact.artifact_id);
        let log_index = index(self.log.len());
        match (position, append) {
            (Some(i), true) => {
                let slot = self.artifact_slots[i];
                if artifact.metadata.is_some() {
                    // The event that made the slot keeps the metadata it carried.
                    self.keep_slot_header(slot);
                }
                let existing = &mut self.task.artifacts[i];
                let start = index(existing.parts.len());
                existing.parts.extend(parts);
                if artifact.metadata.is_some() {
                    existing.metadata.clone_from(&artifact.metadata);
                }
                let bare = *artifact == Artifact::new(artifact.artifact_id.clone(), Vec::new());
                Logged::Artifact {
                    slot,
                    start,
                    end: start + count,
                    header: if bare {
                        Header::Bare
                    } else {
                        Header::Own(Box::new(std::mem::replace(
                            artifact,
                            Artifact::new("", Vec::new()),
                        )))
                    },
                    append,
                    last_chunk,
                }
            }
            (position, _) => {
                artifact.parts = parts;
                let whole = std::mem::replace(artifact, Artifact::new("", Vec::new()));
                let slot = index(self.slots.len());
                match position {
                    Some(i) => {
                        let old = std::mem::replace(&mut self.task.artifacts[i], whole);
                        let old_slot = self.artifact_slots[i] as usize;
                        self.slots[old_slot].artifact = SlotArtifact::Retired(Box::new(old));
                        self.artifact_slots[i] = slot;
                        self.slots.push(Slot {
                            artifact: SlotArtifact::Live(index(i)),
                            origin: log_index,
                        });
                    }
                    None => {
                        self.task.artifacts.push(whole);
                        self.artifact_slots.push(slot);
                        self.slots.push(Slot {
                            artifact: SlotArtifact::Live(index(self.task.artifacts.len() - 1)),
                            origin: log_index,
                        });
                    }
                }
                Logged::Artifact {
                    slot,
                    start: 0,
                    end: count,
                    header: Header::Slot,
                    append,
                    last_chunk,
                }
            }
        }
    }

    /// Before the artifact in `slot` changes its metadata: the event that made the slot takes
    /// a copy of the header it showed.
    fn keep_slot_header(&mut self, slot: u32) {
        let origin = self.slots[slot as usize].origin as usize;
        let header = match self.log.get(origin) {
            Some(Logged::Artifact {
                header: Header::Slot,
                ..
            }) => self.slot_artifact(slot).clone_without_parts(),
            _ => return,
        };
        if let Some(Logged::Artifact { header: h, .. }) = self.log.get_mut(origin) {
            *h = Header::Own(Box::new(header));
        }
    }

    fn slot_artifact(&self, slot: u32) -> &Artifact {
        match &self.slots[slot as usize].artifact {
            SlotArtifact::Live(i) => &self.task.artifacts[*i as usize],
            SlotArtifact::Retired(artifact) => artifact,
        }
    }

    /// The event at `index`, rebuilt from the task.
    fn event(&self, index: usize) -> StreamResponse {
        let task = &self.task;
        let status = |state: TaskState, timestamp: Option<Timestamp>| {
            let mut status = TaskStatus::new(state);
            status.timestamp = timestamp;
            status
        };
        let context = || task.context_id.clone().unwrap_or_default();
        match &self.log[index] {
            Logged::Event(event) => (**event).clone(),
            Logged::Snapshot {
                state,
                timestamp,
                history,
            } => {
                let mut snapshot =
                    Task::new(task.id.clone(), context(), status(*state, *timestamp))
                        .with_history(task.history[..*history as usize].iter().cloned());
                snapshot.context_id.clone_from(&task.context_id);
                snapshot.metadata.clone_from(&task.metadata);
                StreamResponse::Task(snapshot)
            }
            Logged::Status {
                state,
                timestamp,
                message,
            } => {
                let mut status = status(*state, *timestamp);
                status.message = message.map(|i| task.history[i as usize].clone());
                StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(
                    task.id.clone(),
                    context(),
                    status,
                ))
            }
            Logged::Artifact {
                slot,
                start,
                end,
                header,
                append,
                last_chunk,
            } => {
                let source = self.slot_artifact(*slot);
                let parts = source.parts[*start as usize..*end as usize].to_vec();
                let mut artifact = match header {
                    Header::Slot => source.clone_without_parts(),
                    Header::Bare => Artifact::new(source.artifact_id.clone(), Vec::new()),
                    Header::Own(header) => (**header).clone(),
                };
                artifact.parts = parts;
                StreamResponse::ArtifactUpdate(
                    TaskArtifactUpdateEvent::new(task.id.clone(), context(), artifact)
                        .with_append(*append)
                        .with_last_chunk(*last_chunk),
                )
            }
        }
    }

    /// Gives back the spare capacity of the task's lists once it ended (one artifact pushed
    /// onto an empty list reserves four).
    fn shrink(&mut self) {
        self.task.artifacts.shrink_to_fit();
        self.task.history.shrink_to_fit();
        self.log.shrink_to_fit();
        self.slots.shrink_to_fit();
        self.artifact_slots.shrink_to_fit();
    }
}

/// Wakes every waiter registered in `notify`; each re-checks and, if it must go on waiting,
/// registers with a new `Notify`.
fn notify_all(notify: &mut Option<Arc<Notify>>) {
    if let Some(notify) = notify.take() {
        notify.notify_waiters();
    }
}

/// A status without its message, field by field.
fn status_without_message(status: &TaskStatus) -> TaskStatus {
    let mut copy = TaskStatus::new(status.state);
    copy.timestamp = status.timestamp;
    copy
}

/// Copies of an artifact's fields but its parts.
trait CloneWithoutParts {
    fn clone_without_parts(&self) -> Artifact;
}

impl CloneWithoutParts for Artifact {
    fn clone_without_parts(&self) -> Artifact {
        let mut copy = Artifact::new(self.artifact_id.clone(), Vec::new());
        copy.name.clone_from(&self.name);
        copy.description.clone_from(&self.description);
        copy.metadata.clone_from(&self.metadata);
        copy.extensions.clone_from(&self.extensions);
        copy
    }
}

fn time_key(task: &Task) -> i64 {
    task.status.timestamp.map_or(0, time_key_of)
}

fn now_key() -> i64 {
    time_key_of(Timestamp::now())
}

/// Nanoseconds since the Unix epoch, saturated to what an `i64` holds (the years 1677 to 2262):
/// half the size of an `i128` in every index entry. Timestamps outside that range (which no
/// clock of this century gives) sort at its ends, in the order of creation among themselves.
fn time_key_of(t: Timestamp) -> i64 {
    let nanos = i128::from(t.unix_seconds()) * 1_000_000_000 + i128::from(t.subsec_nanos());
    i64::try_from(nanos).unwrap_or(if nanos < 0 { i64::MIN } else { i64::MAX })
}

impl InMemoryTaskStore {
    /// An empty store with the default [`RetentionPolicy`].
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty store with this retention policy.
    pub fn with_retention(retention: RetentionPolicy) -> Self {
        Self {
            shared: Arc::new(Shared {
                inner: Mutex::default(),
                retention,
                outbox_ready: Notify::new(),
            }),
        }
    }

    /// The number of tasks held.
    pub fn len(&self) -> usize {
        self.shared.lock().tasks.len()
    }

    /// True when no task is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes all tasks hold together, as accounted (see the [module docs](super#bytes)).
    pub fn total_bytes(&self) -> u64 {
        self.shared.lock().total_bytes
    }

    /// The bytes the store's total counts for a task (its account while live, its compact
    /// form's once frozen) and whether it is frozen.
    #[cfg(test)]
    pub(super) fn held_bytes(&self, id: &TaskId) -> Option<(u64, bool)> {
        let inner = self.shared.lock();
        let entry = inner.tasks.get(id)?;
        Some((entry.held(), matches!(entry.body, Body::Frozen(_))))
    }

    /// The retention policy.
    pub fn retention(&self) -> &RetentionPolicy {
        &self.shared.retention
    }

    /// Bounds the push outbox with these limits (default: [`OutboxLimits::default`]).
    #[must_use]
    pub fn with_outbox_limits(self, limits: OutboxLimits) -> Self {
        self.shared.lock().outbox.set_limits(limits);
        self
    }

    /// The deliveries waiting in the push outbox, and the bytes they hold (see
    /// [`OutboxLimits`]).
    pub fn outbox_usage(&self) -> (usize, u64) {
        self.shared.lock().outbox.usage()
    }
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves consistent data (every mutation below is
        // completed before anything can panic), so a poisoned lock is still usable.
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Takes out tasks past the TTL, then the oldest droppable ones while over a limit. The
    /// caller drops them once it released the lock: freeing a task's memory, cold by then,
    /// is the slow part of evicting it.
    #[must_use = "drop the evicted tasks after releasing the lock"]
    #[expect(
        clippy::vec_box,
        reason = "the boxes come out of the map: moved, not copied"
    )]
    fn evict(&self, inner: &mut Inner) -> Vec<Box<Entry>> {
        let mut evicted = Vec::new();
        if let Some(ttl) = self.retention.terminal_ttl
            && !inner.evictable.is_empty()
        {
            let cutoff =
                now_key().saturating_sub(i64::try_from(ttl.as_nanos()).unwrap_or(i64::MAX));
            while inner
                .evictable
                .first()
                .is_some_and(|(key, _)| *key < cutoff)
            {
                inner.evict_first(&mut evicted);
            }
        }
        while inner.tasks.len() > self.retention.max_tasks
            || inner.total_bytes > self.retention.max_total_bytes
        {
            if !inner.evict_first(&mut evicted) {
                break;
            }
        }
        evicted
    }

    /// Whether a task of `bytes` for `owner` fits once every droppable task is dropped; the
    /// reason when not.
    fn room_for(&self, inner: &Inner, owner: &Owner, bytes: u64) -> Result<(), StoreError> {
        let max_live = self.retention.max_live_tasks;
        if inner.unfinished >= max_live {
            return Err(StoreError::Full(format!(
                "the task store holds its limit of {max_live} unfinished tasks (max_live_tasks); \
                 try again later"
            )));
        }
        let share = self.retention.max_live_tasks_per_principal;
        if let Some(principal) = &owner.principal
            && inner.unfinished_by.get(principal).copied().unwrap_or(0) >= share
        {
            return Err(StoreError::Full(format!(
                "the caller holds its share of {share} unfinished tasks \
                 (max_live_tasks_per_principal); try again once one of them ends"
            )));
        }
        let kept_bytes = inner.total_bytes - inner.evictable_bytes;
        let max_bytes = self.retention.max_total_bytes;
        if kept_bytes.saturating_add(bytes) > max_bytes {
            return Err(StoreError::Full(format!(
                "the task store is full: its unfinished and pinned tasks hold {kept_bytes} bytes, \
                 and a new task of {bytes} bytes would take it over its limit of {max_bytes} \
                 bytes (max_total_bytes); try again later"
            )));
        }
        Ok(())
    }

    fn unpin(&self, id: &TaskId) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let Some(entry) = inner.tasks.get_mut(id) else {
            return;
        };
        entry.pins -= 1;
        if entry.evictable() {
            entry.freeze(&mut inner.total_bytes);
            inner.evictable.insert(entry.key());
            inner.evictable_bytes += entry.held();
            let evicted = self.evict(inner);
            drop(guard);
            drop(evicted);
        }
    }
}

/// Counts a task of `owner` that became unfinished (`up`) or ended (`!up`) in the counts
/// `max_live_tasks` and `max_live_tasks_per_principal` bound.
fn count_unfinished(
    unfinished: &mut usize,
    by_principal: &mut IdMap<Principal, usize>,
    owner: &Owner,
    up: bool,
) {
    if up {
        *unfinished += 1;
    } else {
        *unfinished = unfinished.saturating_sub(1);
    }
    let Some(principal) = &owner.principal else {
        return;
    };
    if up {
        *by_principal.entry(principal.clone()).or_default() += 1;
    } else if let Some(count) = by_principal.get_mut(principal) {
        *count -= 1;
        if *count == 0 {
            by_principal.remove(principal);
        }
    }
}

impl Inner {
    /// Takes out the oldest droppable task; false when there is none.
    #[expect(
        clippy::vec_box,
        reason = "the boxes come out of the map: moved, not copied"
    )]
    fn evict_first(&mut self, evicted: &mut Vec<Box<Entry>>) -> bool {
        let Some(key) = self.evictable.pop_first() else {
            return false;
        };
        let Some(id) = self.by_time.remove(&key) else {
            return true;
        };
        if let Some(mut entry) = self.tasks.remove(&id) {
            if let Some(count) = self.owned.get_mut(entry.owner()) {
                *count -= 1;
                if *count == 0 {
                    self.owned.remove(entry.owner());
                }
            }
            self.evictable_bytes -= entry.held();
            self.total_bytes -= entry.held();
            // Waiters re-read and find the task gone.
            notify_all(&mut entry.notify);
            evicted.push(entry);
        }
        if let Some(targets) = self.push.remove(&id) {
            // Its waiting deliveries are still sent.
            self.outbox.orphan(&id, &targets);
        }
        true
    }

    /// The push configuration `id` of a task, with its version.
    fn push_target(&self, task_id: &TaskId, id: &str) -> Option<&Arc<Target>> {
        self.push
            .get(task_id)?
            .iter()
            .find(|t| t.config.id.as_deref() == Some(id))
    }

    /// How many more bytes fit without dropping what may not be dropped.
    fn store_room(&self, max_total_bytes: u64) -> u64 {
        max_total_bytes.saturating_sub(self.total_bytes - self.evictable_bytes)
    }
}

/// What an [`InMemoryTaskStore`] pin holds: the store and the task.
struct PinGuard {
    shared: Arc<Shared>,
    id: TaskId,
}

impl Drop for PinGuard {
    fn drop(&mut self) {
        self.shared.unpin(&self.id);
    }
}

/// Where a task stands in the store's order: (status timestamp in nanoseconds, number of
/// creation). Numbers, so that keeping the order costs no copy or comparison of ids.
type Key = (i64, u64);

fn parse_cursor(token: &str) -> Option<Key> {
    let rest = token.strip_prefix("t2:")?;
    let (nanos, number) = rest.split_once(':')?;
    Some((nanos.parse().ok()?, number.parse().ok()?))
}

fn cursor(key: &Key) -> String {
    format!("t2:{}:{}", key.0, key.1)
}

impl TaskStore for InMemoryTaskStore {
    fn create<'a>(
        &'a self,
        mut task: Task,
        owner: Owner,
        protocol_version: ProtocolVersion,
    ) -> StoreFuture<'a, UpdateOutcome> {
        // Generation 1: the log's first event.
        task.generation = 1;
        let result = (|| {
            let shared = &*self.shared;
            let mut guard = shared.lock();
            let inner = &mut *guard;
            if inner.tasks.contains_key(&task.id) {
                return Err(StoreError::AlreadyExists(task.id.clone()));
            }
            let bytes = task_bytes(&task);
            shared.room_for(inner, &owner, bytes)?;
            let key = time_key(&task);
            let state = task.status.state;
            let id = task.id.clone();
            let number = inner.next_number;
            inner.next_number += 1;
            let mut entry = Box::new(Entry::new(
                task,
                owner,
                protocol_version,
                (key, number),
                bytes,
            ));
            inner.by_time.insert(entry.key(), id.clone());
            if let Some(targets) = inner.push.get(&id).filter(|t| !t.is_empty())
                && let Body::Live(live) = &entry.body
            {
                let event = live.event(0);
                if inner
                    .outbox
                    .enqueue(&id, 1, &event, targets, SystemTime::now())
                {
                    shared.outbox_ready.notify_one();
                }
            }
            inner.total_bytes += bytes;
            if entry.evictable() {
                entry.freeze(&mut inner.total_bytes);
                inner.evictable.insert(entry.key());
                inner.evictable_bytes += entry.held();
            }
            *inner.owned.entry(entry.owner().clone()).or_default() += 1;
            if !state.is_terminal() {
                count_unfinished(
                    &mut inner.unfinished,
                    &mut inner.unfinished_by,
                    entry.owner(),
                    true,
                );
            }
            inner.tasks.insert(id, entry);
            let evicted = shared.evict(inner);
            drop(guard);
            drop(evicted);
            Ok(UpdateOutcome { last_seq: 1, state })
        })();
        Box::pin(std::future::ready(result))
    }

    fn check_room<'a>(&'a self, owner: &'a Owner, bytes: u64) -> StoreFuture<'a, ()> {
        let result = self.shared.room_for(&self.shared.lock(), owner, bytes);
        Box::pin(std::future::ready(result))
    }

    fn load<'a>(&'a self, id: &'a TaskId) -> StoreFuture<'a, Option<StoredTask>> {
        let inner = self.shared.lock();
        let found = inner.tasks.get(id).map_or(Ok(None), |e| {
            Ok(Some(StoredTask::new(
                e.task(id)?.into_owned(),
                e.owner().clone(),
                e.protocol_version,
                e.last_seq(),
                e.bytes,
            )))
        });
        Box::pin(std::future::ready(found))
    }

    fn progress<'a>(&'a self, id: &'a TaskId) -> StoreFuture<'a, Option<UpdateOutcome>> {
        let inner = self.shared.lock();
        let found = inner.tasks.get(id).map(|e| UpdateOutcome {
            last_seq: e.last_seq(),
            state: e.state(),
        });
        Box::pin(std::future::ready(Ok(found)))
    }

    fn pin<'a>(&'a self, id: &'a TaskId) -> StoreFuture<'a, Option<TaskPin>> {
        let mut guard = self.shared.lock();
        let inner = &mut *guard;
        let pin = inner.tasks.get_mut(id).map(|entry| {
            if entry.evictable() {
                inner.evictable.remove(&entry.key());
                inner.evictable_bytes -= entry.held();
            }
            entry.pins += 1;
            TaskPin::new(PinGuard {
                shared: self.shared.clone(),
                id: id.clone(),
            })
        });
        Box::pin(std::future::ready(Ok(pin)))
    }

    fn update<'a>(
        &'a self,
        id: &'a TaskId,
        change: Change<'a>,
        then: Option<Observer<'a>>,
    ) -> StoreFuture<'a, Option<UpdateOutcome>> {
        let shared = &*self.shared;
        let mut guard = shared.lock();
        let inner = &mut *guard;
        let store_room = inner.store_room(shared.retention.max_total_bytes);
        let Some(entry) = inner.tasks.get_mut(id) else {
            return Box::pin(std::future::ready(Ok(None)));
        };
        let entry: &mut Entry = entry;
        // A frozen task is decoded for the change, and thawed only when it edits.
        let decoded = match &entry.body {
            Body::Live(_) => None,
            Body::Frozen(frozen) => match frozen.thaw(id) {
                Ok(live) => Some(Box::new(live)),
                Err(e) => return Box::pin(std::future::ready(Err(e))),
            },
        };
        let mut change = change;
        let edit = match (&decoded, &entry.body) {
            (Some(live), _) | (None, Body::Live(live)) => {
                change(&live.task, Room::new(entry.bytes, store_room))
            }
            (None, Body::Frozen(_)) => None,
        };
        let Some(edit) = edit else {
            let outcome = UpdateOutcome {
                last_seq: entry.last_seq(),
                state: entry.state(),
            };
            return Box::pin(std::future::ready(Ok(Some(outcome))));
        };
        let was_evictable = entry.evictable();
        let held = entry.held();
        if was_evictable {
            inner.evictable.remove(&entry.key());
            inner.evictable_bytes -= held;
        }
        if let Some(live) = decoded {
            entry.body = Body::Live(live);
            inner.total_bytes = inner.total_bytes.saturating_sub(held) + entry.bytes;
        }
        let Body::Live(live) = &mut entry.body else {
            // Thawed just above.
            return Box::pin(std::future::ready(Err(StoreError::Corrupt(
                "a task thawed for an edit is still frozen".to_owned(),
            ))));
        };
        let was_terminal = live.task.status.state.is_terminal();
        let cost = edit.bytes();
        let logged = live.apply(edit);
        entry.bytes = entry.bytes.saturating_add(cost);
        inner.total_bytes = inner.total_bytes.saturating_add(cost);
        let key = time_key(&live.task);
        if key != entry.time_key {
            let old = (entry.time_key, entry.number);
            entry.time_key = key;
            let id = inner.by_time.remove(&old).unwrap_or_else(|| id.clone());
            inner.by_time.insert((entry.time_key, entry.number), id);
        }
        let state = live.task.status.state;
        if state.is_terminal() && !was_terminal {
            live.shrink();
        }
        let ended = state.is_terminal();
        let logged_event = logged.is_some();
        if let Some(logged) = logged {
            live.log.push(logged);
            if let Some(targets) = inner.push.get(id).filter(|t| !t.is_empty()) {
                let seq = live.log.len() as u64;
                let event = live.event(live.log.len() - 1);
                if inner
                    .outbox
                    .enqueue(id, seq, &event, targets, SystemTime::now())
                {
                    shared.outbox_ready.notify_one();
                }
            }
        }
        if let Some(then) = then {
            then(&live.task);
        }
        if logged_event {
            notify_all(&mut entry.notify);
        }
        if ended != was_terminal {
            count_unfinished(
                &mut inner.unfinished,
                &mut inner.unfinished_by,
                entry.owner(),
                !ended,
            );
        }
        let last_seq = entry.last_seq();
        let evictable = entry.evictable();
        if evictable {
            entry.freeze(&mut inner.total_bytes);
            inner.evictable.insert(entry.key());
            inner.evictable_bytes += entry.held();
        }
        if (evictable && !was_evictable) || inner.total_bytes > shared.retention.max_total_bytes {
            let evicted = shared.evict(inner);
            drop(guard);
            drop(evicted);
        }
        Box::pin(std::future::ready(Ok(Some(UpdateOutcome {
            last_seq,
            state,
        }))))
    }

    fn read_log<'a>(
        &'a self,
        id: &'a TaskId,
        after: u64,
        limit: usize,
    ) -> StoreFuture<'a, Vec<LogEntry>> {
        let inner = self.shared.lock();
        let entries = inner.tasks.get(id).map_or(Ok(Vec::new()), |e| {
            e.with_live(id, |live| {
                let len = live.log.len();
                let start = usize::try_from(after).unwrap_or(usize::MAX).min(len);
                (start..len)
                    .take(limit)
                    .map(|i| LogEntry::new((i + 1) as u64, live.event(i)))
                    .collect()
            })
        });
        Box::pin(std::future::ready(entries))
    }

    fn wait<'a>(&'a self, id: &'a TaskId, after: u64) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            loop {
                let notified = match self.shared.lock().tasks.get_mut(id) {
                    // Gone (the caller re-reads and finds it so), or already past `after`.
                    None => return Ok(()),
                    Some(e) if e.last_seq() > after => return Ok(()),
                    // Made under the lock, so the next append or the removal (which notify
                    // under the lock) wakes it even before it is first polled.
                    Some(e) => e
                        .notify
                        .get_or_insert_with(|| Arc::new(Notify::new()))
                        .clone()
                        .notified_owned(),
                };
                notified.await;
            }
        })
    }

    fn list<'a>(&'a self, query: &'a ListQuery) -> StoreFuture<'a, ListPage> {
        let result = (|| {
            let start = match &query.page_token {
                Some(token) if !token.is_empty() => Some(
                    parse_cursor(token)
                        .ok_or_else(|| StoreError::InvalidPageToken(token.clone()))?,
                ),
                _ => None,
            };
            let inner = self.shared.lock();
            let after_key = query.status_after.map(time_key_of);
            let matches = |id: &TaskId| -> Option<&Entry> {
                let entry = inner.tasks.get(id)?;
                (*entry.owner() == query.owner
                    && query
                        .context_id
                        .as_ref()
                        .is_none_or(|c| entry.in_context(c))
                    && query.state.is_none_or(|s| entry.state() == s))
                .then_some(entry)
            };
            // Filtered by owner alone, the count is kept: the walk starts at the page and
            // stops after it, instead of counting every task (O(page), not O(tasks)).
            let counted = (query.context_id.is_none()
                && query.state.is_none()
                && query.status_after.is_none())
            .then(|| inner.owned.get(&query.owner).copied().unwrap_or(0));
            let newest_first = match (&start, counted) {
                (Some(start), Some(_)) => inner.by_time.range(..*start),
                _ => inner.by_time.range(..),
            }
            .rev()
            .take_while(|(key, _)| after_key.is_none_or(|after| key.0 >= after));
            let max_bytes = query.max_bytes.unwrap_or(usize::MAX);
            let mut total = 0usize;
            let mut tasks = Vec::new();
            let mut page_bytes = 0usize;
            let mut last_key = None;
            let mut more = false;
            for (key, id) in newest_first {
                let Some(entry) = matches(id) else { continue };
                total += 1;
                if more || start.as_ref().is_some_and(|start| key >= start) {
                    continue;
                }
                if tasks.len() == query.page_size {
                    more = true;
                    if counted.is_some() {
                        break;
                    }
                    continue;
                }
                let task: Cow<'_, Task> = entry.task(id)?;
                let shown = present_task(&task, query.history_length, query.include_artifacts);
                // The JSON of a task in the page, and the comma before it.
                let size = json_len(&shown) + 1;
                if !tasks.is_empty() && page_bytes.saturating_add(size) > max_bytes {
                    more = true;
                    if counted.is_some() {
                        break;
                    }
                    continue;
                }
                page_bytes = page_bytes.saturating_add(size);
                tasks.push(shown);
                last_key = Some(key);
            }
            let next_page_token = match (more, last_key) {
                (true, Some(key)) => cursor(key),
                _ => String::new(),
            };
            Ok(ListPage {
                tasks,
                next_page_token,
                total_size: counted.unwrap_or(total),
            })
        })();
        Box::pin(std::future::ready(result))
    }

    fn put_push_config<'a>(
        &'a self,
        config: TaskPushNotificationConfig,
        protocol_version: ProtocolVersion,
    ) -> StoreFuture<'a, ()> {
        let mut inner = self.shared.lock();
        let task_id = config.task_id.clone().unwrap_or_default();
        let target = Arc::new(Target {
            config,
            protocol_version,
        });
        let targets = inner.push.entry(task_id).or_default();
        match targets.iter_mut().find(|t| t.config.id == target.config.id) {
            Some(existing) => *existing = target,
            None => targets.push(target),
        }
        Box::pin(std::future::ready(Ok(())))
    }

    fn push_config_version<'a>(
        &'a self,
        task_id: &'a TaskId,
        id: &'a str,
    ) -> StoreFuture<'a, Option<ProtocolVersion>> {
        let inner = self.shared.lock();
        let protocol_version = inner.push_target(task_id, id).map(|t| t.protocol_version);
        Box::pin(std::future::ready(Ok(protocol_version)))
    }

    fn get_push_config<'a>(
        &'a self,
        task_id: &'a TaskId,
        id: &'a str,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
        let inner = self.shared.lock();
        let found = inner.push_target(task_id, id).map(|t| t.config.clone());
        Box::pin(std::future::ready(Ok(found)))
    }

    fn list_push_configs<'a>(
        &'a self,
        task_id: &'a TaskId,
    ) -> StoreFuture<'a, Vec<TaskPushNotificationConfig>> {
        let inner = self.shared.lock();
        let configs = inner.push.get(task_id).map_or_else(Vec::new, |targets| {
            targets.iter().map(|t| t.config.clone()).collect()
        });
        Box::pin(std::future::ready(Ok(configs)))
    }

    fn delete_push_config<'a>(&'a self, task_id: &'a TaskId, id: &'a str) -> StoreFuture<'a, bool> {
        let mut guard = self.shared.lock();
        let inner = &mut *guard;
        let removed = inner.push.get_mut(task_id).is_some_and(|targets| {
            let before = targets.len();
            targets.retain(|t| t.config.id.as_deref() != Some(id));
            targets.len() != before
        });
        if removed {
            inner.outbox.remove(task_id, id);
        }
        Box::pin(std::future::ready(Ok(removed)))
    }

    fn claim_deliveries<'a>(
        &'a self,
        now: SystemTime,
        lease: Duration,
        limit: usize,
    ) -> StoreFuture<'a, Claimed> {
        let claimed = self.shared.lock().outbox.claim(now, lease, limit);
        Box::pin(std::future::ready(Ok(claimed)))
    }

    fn settle_delivery<'a>(&'a self, id: u64, lease: u64, how: Settle) -> StoreFuture<'a, bool> {
        let settled = self.shared.lock().outbox.settle(id, lease, how);
        Box::pin(std::future::ready(Ok(settled)))
    }

    fn push_status<'a>(&'a self, task_id: &'a TaskId) -> StoreFuture<'a, Vec<PushStatus>> {
        let inner = self.shared.lock();
        let status = inner.push.get(task_id).map_or_else(Vec::new, |targets| {
            inner.outbox.status(task_id, targets, SystemTime::now())
        });
        Box::pin(std::future::ready(Ok(status)))
    }

    fn wait_outbox<'a>(&'a self, timeout: Duration) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            // A timeout is the caller's cue to look again, not an error.
            let _ = tokio::time::timeout(timeout, self.shared.outbox_ready.notified()).await;
            Ok(())
        })
    }
}
