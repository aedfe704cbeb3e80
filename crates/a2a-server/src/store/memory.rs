//! The in-memory store: the embedded default.

use std::collections::{BTreeSet, HashMap};
use std::sync::Mutex;
use std::time::Duration;

use a2a_types::v1::{StreamResponse, Task, TaskId, TaskPushNotificationConfig, Timestamp};
use tokio::sync::watch;

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
    tasks: HashMap<TaskId, Entry>,
    /// (status timestamp in nanoseconds, id): the `ListTasks` order, iterated newest first.
    by_time: BTreeSet<(i128, TaskId)>,
    /// Terminal tasks, oldest final status first: the eviction order.
    terminal: BTreeSet<(i128, TaskId)>,
    push: HashMap<TaskId, Vec<TaskPushNotificationConfig>>,
}

#[derive(Debug)]
struct Entry {
    task: Task,
    owner: Option<Principal>,
    log: Vec<StreamResponse>,
    seq: watch::Sender<u64>,
    time_key: i128,
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
    fn remove(&mut self, id: &TaskId) {
        if let Some(entry) = self.tasks.remove(id) {
            self.by_time.remove(&(entry.time_key, id.clone()));
            self.terminal.remove(&(entry.time_key, id.clone()));
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
            let (seq, _) = watch::channel(1);
            inner.tasks.insert(
                id,
                Entry {
                    log: vec![StreamResponse::Task(task.clone())],
                    task,
                    owner,
                    seq,
                    time_key: key,
                },
            );
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
            last_seq: *e.seq.borrow(),
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
        let event = change(&mut entry.task);
        let key = time_key(&entry.task);
        if key != entry.time_key {
            inner.by_time.remove(&(entry.time_key, id.clone()));
            inner.by_time.insert((key, id.clone()));
            if was_terminal {
                inner.terminal.remove(&(entry.time_key, id.clone()));
            }
            entry.time_key = key;
        }
        let state = entry.task.status.state;
        if state.is_terminal() && (!was_terminal || key != entry.time_key) {
            inner.terminal.insert((key, id.clone()));
        }
        if let Some(event) = event {
            entry.log.push(event);
            let seq = entry.log.len() as u64;
            entry.seq.send_replace(seq);
        }
        let last_seq = *entry.seq.borrow();
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
            let start = usize::try_from(after)
                .unwrap_or(usize::MAX)
                .min(e.log.len());
            e.log[start..]
                .iter()
                .take(limit)
                .enumerate()
                .map(|(i, event)| LogEntry {
                    seq: (start + i + 1) as u64,
                    event: event.clone(),
                })
                .collect()
        });
        Box::pin(std::future::ready(Ok(entries)))
    }

    fn wait<'a>(&'a self, id: &'a TaskId, after: u64) -> StoreFuture<'a, ()> {
        let rx = self.lock().tasks.get(id).map(|e| e.seq.subscribe());
        Box::pin(async move {
            if let Some(mut rx) = rx {
                // An error means the task was evicted: the caller re-reads and finds it gone.
                let _ = rx.wait_for(|seq| *seq > after).await;
            }
            Ok(())
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
