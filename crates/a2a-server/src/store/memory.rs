//! The in-memory store: the embedded default.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_types::v1::{
    ContextId, StreamResponse, Task, TaskArtifactUpdateEvent, TaskId, TaskPushNotificationConfig,
    TaskState, TaskStatus, TaskStatusUpdateEvent, Timestamp,
};
use tokio::sync::Notify;

use super::{
    Change, ListPage, ListQuery, LogEntry, StoreError, StoreFuture, StoredTask, TaskStore,
    UpdateOutcome,
};
use crate::auth::Principal;

/// How much an [`InMemoryTaskStore`] keeps, so a long-running server's memory stays bounded.
///
/// Only tasks in a terminal state are ever evicted: a task that can still change is never lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetentionPolicy {
    /// Evict the oldest terminal tasks while more than this many tasks are stored.
    pub max_tasks: usize,
    /// Evict terminal tasks whose final status is older than this.
    pub terminal_ttl: Option<Duration>,
}

impl Default for RetentionPolicy {
    /// At most 10 000 tasks; terminal tasks kept for one hour.
    fn default() -> Self {
        Self {
            max_tasks: 10_000,
            terminal_ttl: Some(Duration::from_secs(3600)),
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

    /// Sets the time terminal tasks are kept (`None`: until `max_tasks` forces them out).
    #[must_use]
    pub fn with_terminal_ttl(mut self, ttl: Option<Duration>) -> Self {
        self.terminal_ttl = ttl;
        self
    }
}

/// Tasks, event logs and push configurations in process memory.
///
/// ```
/// use a2a_server::store::{InMemoryTaskStore, RetentionPolicy};
///
/// let store = InMemoryTaskStore::with_retention(RetentionPolicy::default().with_max_tasks(1000));
/// # let _ = store;
/// ```
#[derive(Debug, Default)]
pub struct InMemoryTaskStore {
    inner: Mutex<Inner>,
    retention: RetentionPolicy,
}

#[derive(Debug, Default)]
struct Inner {
    /// Boxed: a table slot is then 32 bytes, not ~450, and the table's spare capacity (up to
    /// half of it after a resize) costs little.
    tasks: HashMap<TaskId, Box<Entry>>,
    /// (status timestamp in nanoseconds, id): the `ListTasks` order, iterated newest first.
    by_time: BTreeSet<(i128, TaskId)>,
    /// Terminal tasks, oldest final status first: the eviction order.
    terminal: BTreeSet<(i128, TaskId)>,
    push: HashMap<TaskId, Vec<TaskPushNotificationConfig>>,
    /// Tasks that became terminal most recently, oldest first: their logs are frozen once
    /// [`COOLING`] newer ones follow, after the calls that still read and touch a task that
    /// just ended (the blocking `SendMessage`, the handler's final update) are done with it.
    cooling: VecDeque<TaskId>,
}

/// How many recently ended tasks keep their logs as logged (see [`Log`]).
const COOLING: usize = 64;

#[derive(Debug)]
struct Entry {
    task: Task,
    owner: Option<Principal>,
    log: Log,
    /// The sequence number of the last logged event: the length of the log.
    last_seq: u64,
    /// Wakes the [`TaskStore::wait`]ers registered since the last append (or removal). Made
    /// by the first of them and dropped once it has woken them: an idle task holds none.
    notify: Option<Arc<Notify>>,
    time_key: i128,
}

/// A task's event log.
///
/// While the task can change, the events as they were logged. Once it has been terminal for a
/// while (see [`COOLING`]) the log is frozen: each event that can be rebuilt from the final task is kept as a few bytes (its status,
/// or the index of the artifact it carried) instead of a copy of the task's ids, messages and
/// artifacts; [`Frozen::compact`] keeps the short form only when rebuilding it gives the very
/// event that was logged. Any later change thaws the log first, so the short forms always refer
/// to the task they were made from. For an echo task this is ~150 bytes instead of ~2 KiB.
#[derive(Debug)]
enum Log {
    Live(Vec<StreamResponse>),
    Frozen(Box<[Frozen]>),
}

/// One event of a frozen log.
#[derive(Debug)]
enum Frozen {
    /// The event as logged.
    Event(Box<StreamResponse>),
    /// `StatusUpdate` of this task with this state and timestamp, no message or metadata.
    Status {
        state: TaskState,
        timestamp: Option<Timestamp>,
    },
    /// `Task`: this task with this state and timestamp, its first `history` messages, no
    /// artifacts (the snapshot logged when the task was created or a message joined it).
    Snapshot {
        state: TaskState,
        timestamp: Option<Timestamp>,
        history: usize,
    },
    /// `ArtifactUpdate` of this task carrying its artifact `index` as it is now.
    Artifact {
        index: usize,
        append: bool,
        last_chunk: bool,
    },
}

impl Frozen {
    /// The short form of `event`, if rebuilding it from `task` gives `event` back.
    ///
    /// The checks compare fields in place (rebuilding every event to compare it would cost
    /// more than the rest of a request): the event must belong to this task and carry no
    /// message or metadata the short form would lose. Debug builds (and so the tests) also
    /// rebuild the event and compare it whole, which catches a field added to these types
    /// later that the checks do not know about.
    fn compact(event: StreamResponse, task: &Task) -> Self {
        let context = task.context_id.as_ref().map_or("", |c| c.as_str());
        let ours = |task_id: &TaskId, context_id: &ContextId| {
            *task_id == task.id && context_id.as_str() == context
        };
        let short = match &event {
            StreamResponse::StatusUpdate(e)
                if ours(&e.task_id, &e.context_id)
                    && e.metadata.is_none()
                    && e.status.message.is_none() =>
            {
                Some(Frozen::Status {
                    state: e.status.state,
                    timestamp: e.status.timestamp,
                })
            }
            StreamResponse::Task(t)
                if t.id == task.id
                    && t.context_id == task.context_id
                    && t.status.message.is_none()
                    && t.artifacts.is_empty()
                    && t.metadata == task.metadata
                    && task.history.get(..t.history.len()) == Some(&t.history[..]) =>
            {
                Some(Frozen::Snapshot {
                    state: t.status.state,
                    timestamp: t.status.timestamp,
                    history: t.history.len(),
                })
            }
            StreamResponse::ArtifactUpdate(e)
                if ours(&e.task_id, &e.context_id) && e.metadata.is_none() =>
            {
                task.artifacts
                    .iter()
                    .position(|a| *a == e.artifact)
                    .map(|index| Frozen::Artifact {
                        index,
                        append: e.append,
                        last_chunk: e.last_chunk,
                    })
            }
            _ => None,
        };
        match short {
            Some(short) => {
                debug_assert_eq!(
                    short.rebuild(task),
                    event,
                    "a frozen event rebuilds as logged"
                );
                short
            }
            None => Frozen::Event(Box::new(event)),
        }
    }

    /// The event, rebuilt from the task the log was frozen with.
    fn rebuild(&self, task: &Task) -> StreamResponse {
        let status = |state: TaskState, timestamp: Option<Timestamp>| {
            let mut status = TaskStatus::new(state);
            status.timestamp = timestamp;
            status
        };
        let context = || task.context_id.clone().unwrap_or_default();
        match self {
            Frozen::Event(event) => (**event).clone(),
            Frozen::Status { state, timestamp } => StreamResponse::StatusUpdate(
                TaskStatusUpdateEvent::new(task.id.clone(), context(), status(*state, *timestamp)),
            ),
            Frozen::Snapshot {
                state,
                timestamp,
                history,
            } => {
                let mut snapshot =
                    Task::new(task.id.clone(), context(), status(*state, *timestamp))
                        .with_history(task.history[..*history].iter().cloned());
                snapshot.context_id.clone_from(&task.context_id);
                snapshot.metadata.clone_from(&task.metadata);
                StreamResponse::Task(snapshot)
            }
            Frozen::Artifact {
                index,
                append,
                last_chunk,
            } => StreamResponse::ArtifactUpdate(
                TaskArtifactUpdateEvent::new(
                    task.id.clone(),
                    context(),
                    task.artifacts[*index].clone(),
                )
                .with_append(*append)
                .with_last_chunk(*last_chunk),
            ),
        }
    }
}

impl Entry {
    fn new(task: Task, owner: Option<Principal>, time_key: i128) -> Self {
        Self {
            log: Log::Live(vec![StreamResponse::Task(task.clone())]),
            task,
            owner,
            last_seq: 1,
            notify: None,
            time_key,
        }
    }

    /// Compacts the log of a terminal task (see [`Log`]), and gives back the spare capacity of
    /// its lists (one artifact pushed onto an empty list reserves four).
    fn freeze(&mut self) {
        if let Log::Live(events) = &mut self.log {
            let events = std::mem::take(events);
            let task = &self.task;
            self.log = Log::Frozen(
                events
                    .into_iter()
                    .map(|event| Frozen::compact(event, task))
                    .collect(),
            );
            self.task.artifacts.shrink_to_fit();
            self.task.history.shrink_to_fit();
            for artifact in &mut self.task.artifacts {
                artifact.parts.shrink_to_fit();
            }
        }
    }

    /// Turns a frozen log back into the events, before the task changes. True if it was
    /// frozen.
    fn thaw(&mut self) -> bool {
        let Log::Frozen(frozen) = &self.log else {
            return false;
        };
        let events = frozen.iter().map(|f| f.rebuild(&self.task)).collect();
        self.log = Log::Live(events);
        true
    }

    fn event(&self, index: usize) -> StreamResponse {
        match &self.log {
            Log::Live(events) => events[index].clone(),
            Log::Frozen(frozen) => frozen[index].rebuild(&self.task),
        }
    }

    /// Wakes every registered waiter; each re-checks and, if it must go on waiting, registers
    /// with a new `Notify`.
    fn notify(&mut self) {
        if let Some(notify) = self.notify.take() {
            notify.notify_waiters();
        }
    }
}

fn time_key(task: &Task) -> i128 {
    task.status.timestamp.map_or(0, |t| {
        i128::from(t.unix_seconds()) * 1_000_000_000 + i128::from(t.subsec_nanos())
    })
}

fn now_key() -> i128 {
    time_key_of(Timestamp::now())
}

fn time_key_of(t: Timestamp) -> i128 {
    i128::from(t.unix_seconds()) * 1_000_000_000 + i128::from(t.subsec_nanos())
}

impl InMemoryTaskStore {
    /// An empty store with the default [`RetentionPolicy`].
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty store with this retention policy.
    pub fn with_retention(retention: RetentionPolicy) -> Self {
        Self {
            inner: Mutex::default(),
            retention,
        }
    }

    /// The number of tasks held.
    pub fn len(&self) -> usize {
        self.lock().tasks.len()
    }

    /// True when no task is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves consistent data (every mutation below is
        // completed before anything can panic), so a poisoned lock is still usable.
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn evict(&self, inner: &mut Inner) {
        if let Some(ttl) = self.retention.terminal_ttl {
            let cutoff = now_key() - i128::try_from(ttl.as_nanos()).unwrap_or(i128::MAX);
            while let Some((key, _)) = inner.terminal.first() {
                if *key >= cutoff {
                    break;
                }
                let (_, id) = inner.terminal.pop_first().expect("first exists");
                inner.remove(&id);
            }
        }
        while inner.tasks.len() > self.retention.max_tasks {
            let Some((_, id)) = inner.terminal.pop_first() else {
                break;
            };
            inner.remove(&id);
        }
    }
}

impl Inner {
    /// Queues a task that is (again) terminal with a live log for freezing, and freezes the
    /// ones that have cooled long enough.
    fn cool(&mut self, id: TaskId) {
        self.cooling.push_back(id);
        while self.cooling.len() > COOLING {
            let id = self.cooling.pop_front().expect("longer than COOLING");
            if let Some(entry) = self.tasks.get_mut(&id)
                && entry.task.status.state.is_terminal()
            {
                entry.freeze();
            }
        }
    }

    fn remove(&mut self, id: &TaskId) {
        if let Some(mut entry) = self.tasks.remove(id) {
            self.by_time.remove(&(entry.time_key, id.clone()));
            self.terminal.remove(&(entry.time_key, id.clone()));
            // Waiters re-read and find the task gone.
            entry.notify();
        }
        self.push.remove(id);
    }
}

fn parse_cursor(token: &str) -> Option<(i128, TaskId)> {
    let rest = token.strip_prefix("t1:")?;
    let (nanos, id) = rest.split_once(':')?;
    Some((nanos.parse().ok()?, TaskId::from(id)))
}

fn cursor(key: &(i128, TaskId)) -> String {
    format!("t1:{}:{}", key.0, key.1)
}

impl TaskStore for InMemoryTaskStore {
    fn create<'a>(
        &'a self,
        task: Task,
        owner: Option<Principal>,
    ) -> StoreFuture<'a, UpdateOutcome> {
        let result = (|| {
            let mut inner = self.lock();
            if inner.tasks.contains_key(&task.id) {
                return Err(StoreError::AlreadyExists(task.id.clone()));
            }
            let key = time_key(&task);
            let state = task.status.state;
            let id = task.id.clone();
            inner.by_time.insert((key, id.clone()));
            if state.is_terminal() {
                inner.terminal.insert((key, id.clone()));
            }
            inner
                .tasks
                .insert(id.clone(), Box::new(Entry::new(task, owner, key)));
            if state.is_terminal() {
                inner.cool(id);
            }
            self.evict(&mut inner);
            Ok(UpdateOutcome { last_seq: 1, state })
        })();
        Box::pin(std::future::ready(result))
    }

    fn load<'a>(&'a self, id: &'a TaskId) -> StoreFuture<'a, Option<StoredTask>> {
        let inner = self.lock();
        let found = inner.tasks.get(id).map(|e| StoredTask {
            task: e.task.clone(),
            owner: e.owner.clone(),
            last_seq: e.last_seq,
        });
        Box::pin(std::future::ready(Ok(found)))
    }

    fn progress<'a>(&'a self, id: &'a TaskId) -> StoreFuture<'a, Option<UpdateOutcome>> {
        let inner = self.lock();
        let found = inner.tasks.get(id).map(|e| UpdateOutcome {
            last_seq: e.last_seq,
            state: e.task.status.state,
        });
        Box::pin(std::future::ready(Ok(found)))
    }

    fn update<'a>(
        &'a self,
        id: &'a TaskId,
        change: Change<'a>,
    ) -> StoreFuture<'a, Option<UpdateOutcome>> {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let Some(entry) = inner.tasks.get_mut(id) else {
            return Box::pin(std::future::ready(Ok(None)));
        };
        let was_terminal = entry.task.status.state.is_terminal();
        let thawed = entry.thaw();
        let event = change(&mut entry.task);
        let key = time_key(&entry.task);
        let moved = key != entry.time_key;
        if moved {
            inner.by_time.remove(&(entry.time_key, id.clone()));
            inner.by_time.insert((key, id.clone()));
            if was_terminal {
                inner.terminal.remove(&(entry.time_key, id.clone()));
            }
            entry.time_key = key;
        }
        let state = entry.task.status.state;
        // A task that became terminal, or a terminal one whose status time changed, takes its
        // (new) place in the eviction order.
        if state.is_terminal() && (!was_terminal || moved) {
            inner.terminal.insert((key, id.clone()));
        }
        if let Some(event) = event {
            if let Log::Live(events) = &mut entry.log {
                events.push(event);
            }
            entry.last_seq += 1;
            entry.notify();
        }
        let last_seq = entry.last_seq;
        if state.is_terminal() && (!was_terminal || thawed) {
            inner.cool(id.clone());
        }
        if state.is_terminal() && !was_terminal {
            self.evict(inner);
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
        let inner = self.lock();
        let entries = inner.tasks.get(id).map_or_else(Vec::new, |e| {
            let len = usize::try_from(e.last_seq).unwrap_or(usize::MAX);
            let start = usize::try_from(after).unwrap_or(usize::MAX).min(len);
            (start..len)
                .take(limit)
                .map(|i| LogEntry {
                    seq: (i + 1) as u64,
                    event: e.event(i),
                })
                .collect()
        });
        Box::pin(std::future::ready(Ok(entries)))
    }

    fn wait<'a>(&'a self, id: &'a TaskId, after: u64) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            loop {
                let notified = match self.lock().tasks.get_mut(id) {
                    // Gone (the caller re-reads and finds it so), or already past `after`.
                    None => return Ok(()),
                    Some(e) if e.last_seq > after => return Ok(()),
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
                        .ok_or_else(|| StoreError::Backend(super::INVALID_PAGE_TOKEN.to_owned()))?,
                ),
                _ => None,
            };
            let inner = self.lock();
            let after_key = query.status_after.map(time_key_of);
            let matches = |key: &(i128, TaskId)| -> Option<&Entry> {
                let entry = inner.tasks.get(&key.1)?;
                (entry.owner == query.owner
                    && query
                        .context_id
                        .as_ref()
                        .is_none_or(|c| entry.task.context_id.as_ref() == Some(c))
                    && query.state.is_none_or(|s| entry.task.status.state == s))
                .then_some(entry)
            };
            let newest_first = inner
                .by_time
                .iter()
                .rev()
                .take_while(|key| after_key.is_none_or(|after| key.0 >= after));
            let mut total = 0usize;
            let mut tasks = Vec::new();
            let mut last_key = None;
            let mut more = false;
            for key in newest_first {
                let Some(entry) = matches(key) else { continue };
                total += 1;
                if start.as_ref().is_some_and(|start| key >= start) {
                    continue;
                }
                if tasks.len() < query.page_size {
                    tasks.push(entry.task.clone());
                    last_key = Some(key);
                } else {
                    more = true;
                }
            }
            let next_page_token = match (more, last_key) {
                (true, Some(key)) => cursor(key),
                _ => String::new(),
            };
            Ok(ListPage {
                tasks,
                next_page_token,
                total_size: total,
            })
        })();
        Box::pin(std::future::ready(result))
    }

    fn put_push_config<'a>(&'a self, config: TaskPushNotificationConfig) -> StoreFuture<'a, ()> {
        let mut inner = self.lock();
        let task_id = config.task_id.clone().unwrap_or_default();
        let configs = inner.push.entry(task_id).or_default();
        match configs.iter_mut().find(|c| c.id == config.id) {
            Some(existing) => *existing = config,
            None => configs.push(config),
        }
        Box::pin(std::future::ready(Ok(())))
    }

    fn get_push_config<'a>(
        &'a self,
        task_id: &'a TaskId,
        id: &'a str,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
        let inner = self.lock();
        let found = inner.push.get(task_id).and_then(|configs| {
            configs
                .iter()
                .find(|c| c.id.as_deref() == Some(id))
                .cloned()
        });
        Box::pin(std::future::ready(Ok(found)))
    }

    fn list_push_configs<'a>(
        &'a self,
        task_id: &'a TaskId,
    ) -> StoreFuture<'a, Vec<TaskPushNotificationConfig>> {
        let inner = self.lock();
        let configs = inner.push.get(task_id).cloned().unwrap_or_default();
        Box::pin(std::future::ready(Ok(configs)))
    }

    fn delete_push_config<'a>(&'a self, task_id: &'a TaskId, id: &'a str) -> StoreFuture<'a, bool> {
        let mut inner = self.lock();
        let removed = inner.push.get_mut(task_id).is_some_and(|configs| {
            let before = configs.len();
            configs.retain(|c| c.id.as_deref() != Some(id));
            configs.len() != before
        });
        Box::pin(std::future::ready(Ok(removed)))
    }
}

#[cfg(test)]
mod tests {
    use a2a_types::v1::{Artifact, Message, Part, Role};

    use super::*;
    use crate::handler::lifecycle;

    fn block_on<T>(future: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(future)
    }

    fn message(text: &str) -> Message {
        Message::new("m-1", Role::User, vec![Part::text(text)])
            .with_task_id("t-1")
            .with_context_id("c-1")
    }

    /// Freezes every cooling task at once.
    fn freeze_all(store: &InMemoryTaskStore) {
        let mut inner = store.lock();
        while let Some(id) = inner.cooling.pop_front() {
            if let Some(entry) = inner.tasks.get_mut(&id) {
                entry.freeze();
            }
        }
    }

    async fn log(store: &InMemoryTaskStore, id: &TaskId) -> Vec<LogEntry> {
        store.read_log(id, 0, usize::MAX).await.unwrap()
    }

    async fn apply(
        store: &InMemoryTaskStore,
        id: &TaskId,
        change: impl FnOnce(&mut Task) -> Option<StreamResponse> + Send + 'static,
    ) {
        store
            .update(id, Box::new(change))
            .await
            .unwrap()
            .expect("the task exists");
    }

    /// An echo task and a chunked one, logged as the handler logs them: once terminal their
    /// logs are compacted, and read back they are the very events that were logged.
    #[test]
    fn frozen_logs_read_back_the_logged_events() {
        block_on(async {
            let store = InMemoryTaskStore::new();
            let id = TaskId::from("t-1");
            let task = Task::new("t-1", "c-1", TaskStatus::now(TaskState::Submitted))
                .with_history([message("hello")]);
            store.create(task, None).await.unwrap();
            apply(&store, &id, |t| {
                lifecycle::apply_status(t, TaskState::Working, None).ok()
            })
            .await;
            apply(&store, &id, |t| {
                let artifact = Artifact::new("echo", vec![Part::text("hello")]).with_name("echo");
                lifecycle::apply_artifact(t, artifact, false, false).ok()
            })
            .await;
            for (i, text) in ["one ", "two"].into_iter().enumerate() {
                apply(&store, &id, move |t| {
                    let chunk = Artifact::new("chunks", vec![Part::text(text)]);
                    lifecycle::apply_artifact(t, chunk, i > 0, i == 1).ok()
                })
                .await;
            }
            let reply = Message::new("m-2", Role::Agent, vec![Part::text("done")]);
            apply(&store, &id, move |t| {
                lifecycle::apply_status(t, TaskState::Working, Some(reply)).ok()
            })
            .await;
            let live = log(&store, &id).await;
            assert_eq!(live.len(), 6);
            apply(&store, &id, |t| {
                lifecycle::apply_status(t, TaskState::Completed, None).ok()
            })
            .await;
            freeze_all(&store);
            let frozen = log(&store, &id).await;
            assert_eq!(frozen[..6], live[..]);
            assert_eq!(frozen.len(), 7);
            assert!(matches!(
                &frozen[6].event,
                StreamResponse::StatusUpdate(e) if e.status.state == TaskState::Completed
            ));
            let inner = store.lock();
            let Log::Frozen(short) = &inner.tasks[&id].log else {
                panic!("a terminal task's log is frozen");
            };
            // The snapshot, the statuses and the whole artifact are short; the two chunks and
            // the status with a message are kept as logged.
            let kept: Vec<bool> = short
                .iter()
                .map(|f| matches!(f, Frozen::Event(_)))
                .collect();
            assert_eq!(kept, [false, false, false, true, true, true, false]);
        });
    }

    /// The log of a task freezes once [`COOLING`] tasks ended after it.
    #[test]
    fn logs_freeze_after_cooling() {
        block_on(async {
            let store = InMemoryTaskStore::new();
            for i in 0..=COOLING {
                let task = Task::new(
                    format!("t-{i}"),
                    "c-1",
                    TaskStatus::now(TaskState::Completed),
                );
                store.create(task, None).await.unwrap();
            }
            let inner = store.lock();
            let frozen = |i: usize| {
                matches!(
                    inner.tasks[&TaskId::from(format!("t-{i}"))].log,
                    Log::Frozen(_)
                )
            };
            assert!(frozen(0));
            assert!(!frozen(1));
            assert!(!frozen(COOLING));
        });
    }

    /// A change to a terminal task thaws its log first: the events logged before keep their
    /// content although the task they were compacted against changed.
    #[test]
    fn a_change_after_freezing_keeps_the_logged_events() {
        block_on(async {
            let store = InMemoryTaskStore::new();
            let id = TaskId::from("t-1");
            let task = Task::new("t-1", "c-1", TaskStatus::now(TaskState::Submitted))
                .with_history([message("hello")]);
            store.create(task, None).await.unwrap();
            apply(&store, &id, |t| {
                let artifact = Artifact::new("a", vec![Part::text("first")]);
                lifecycle::apply_artifact(t, artifact, false, false).ok()
            })
            .await;
            apply(&store, &id, |t| {
                lifecycle::apply_status(t, TaskState::Completed, None).ok()
            })
            .await;
            freeze_all(&store);
            let before = log(&store, &id).await;
            apply(&store, &id, |t| {
                t.artifacts[0] = Artifact::new("a", vec![Part::text("second")]);
                t.history.clear();
                t.status.state = TaskState::Failed;
                Some(StreamResponse::Task(t.clone()))
            })
            .await;
            let after = log(&store, &id).await;
            assert_eq!(after[..3], before[..]);
            assert_eq!(after.len(), 4);
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
            let task = Task::new("t-1", "c-1", TaskStatus::now(TaskState::Submitted));
            store.create(task, None).await.unwrap();
            store.wait(&id, 0).await.unwrap();
            let waiter = {
                let store = store.clone();
                let id = id.clone();
                tokio::spawn(async move { store.wait(&id, 1).await })
            };
            tokio::task::yield_now().await;
            assert!(!waiter.is_finished());
            apply(&store, &id, |t| {
                lifecycle::apply_status(t, TaskState::Working, None).ok()
            })
            .await;
            waiter.await.unwrap().unwrap();

            let waiter = {
                let store = store.clone();
                let id = id.clone();
                tokio::spawn(async move { store.wait(&id, 2).await })
            };
            tokio::task::yield_now().await;
            apply(&store, &id, |t| {
                lifecycle::apply_status(t, TaskState::Completed, None).ok()
            })
            .await;
            waiter.await.unwrap().unwrap();
            let waiter = {
                let store = store.clone();
                let id = id.clone();
                tokio::spawn(async move { store.wait(&id, 3).await })
            };
            tokio::task::yield_now().await;
            assert!(!waiter.is_finished());
            // A second terminal task pushes the first out (max_tasks 1).
            let other = Task::new("t-2", "c-1", TaskStatus::now(TaskState::Completed));
            store.create(other, None).await.unwrap();
            waiter.await.unwrap().unwrap();
            assert!(store.load(&id).await.unwrap().is_none());
        });
    }
}
