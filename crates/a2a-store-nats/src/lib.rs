//! A NATS JetStream event log for `a2a-server` task stores: [`NatsEvents`] wraps any
//! [`TaskStore`] (in practice [`a2a-store-sql`]'s PostgreSQL store) and carries every task's
//! events to every replica over JetStream, while tasks, their logs of record and the push
//! outbox stay in the wrapped store.
//!
//! * **Per-task subjects under a tenant prefix.** Event `seq` of task `T` of tenant `X` is
//!   published on `<prefix>.<X>.<T>` (each token escaped, see [`subject`]) to one stream
//!   (`A2A_EVENTS` by default, file storage, bounded by [`NatsConfig`]'s limits), with the
//!   headers `Nats-Msg-Id: <T>:<seq>` (JetStream drops a republished duplicate) and
//!   `A2a-Seq: <seq>`.
//! * **The order of the two writes.** An update is the wrapped store's transaction first (the
//!   task, its event with its sequence number and its push deliveries, committed together),
//!   then the publish, and the update returns — the agent's `sink` call is acknowledged — only
//!   once JetStream acknowledged the publish. A replica that dies between the two leaves an
//!   event in SQL that JetStream lacks: readers see the gap (the next event's sequence number
//!   is one too far, or the wrapped store's progress is ahead of what they heard) and read the
//!   missing events from SQL. Nothing a reader could miss; nothing published that SQL lacks.
//! * **Readers on any replica** follow a task through an ordered, ephemeral JetStream
//!   consumer on its subject (one per task per process, at most
//!   [`NatsConfig::max_followers`]; beyond it readers fall back to the wrapped store's own
//!   wait), starting at the subject's last message; what came before is in SQL. The latest
//!   events of a followed task are kept in memory ([`NatsConfig::cache_per_task`]), so a live
//!   stream reads no SQL at all; a resume (`Last-Event-ID`) further back reads SQL.
//! * **Cancel over NATS.** A cancel on replica B is an update like any other: its `CANCELED`
//!   status is published on the task's subject, and replica A, which follows each task its
//!   agent runs, hears it there and stops the agent. Leases, retention and the push outbox are
//!   the wrapped store's, unchanged.
//! * **NATS away.** A publish that fails is tried again (the same `Nats-Msg-Id`) with a
//!   backoff for up to [`NatsConfig::publish_patience`]: the agent waits in its `sink` call;
//!   past it the update fails `Unavailable`, saying so (the event is in SQL). Followers whose
//!   consumer broke read SQL every [`NatsConfig::poll_interval`] and make a new consumer once
//!   NATS is back: a pause, never a gap.
//!
//! [`a2a-store-sql`]: https://docs.rs/a2a-store-sql
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use a2a_store_nats::{NatsConfig, NatsEvents};
//! use a2a_store_sql::{SqlConfig, SqlStore};
//!
//! let sql = SqlStore::connect(
//!     SqlConfig::new("postgres://postgres@127.0.0.1/test").with_log_notify(false),
//! )
//! .await?;
//! let store = NatsEvents::connect(sql, NatsConfig::new("nats://127.0.0.1:4222")).await?;
//! # let _ = store;
//! # Ok(())
//! # }
//! ```

mod follow;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use a2a_server::store::{
    AgentRun, Change, Claimed, ListPage, ListQuery, LogEntry, Observer, Owner, PushStatus, Settle,
    StoreError, StoreFuture, StoredTask, TaskEdit, TaskPin, TaskStore, UpdateOutcome,
};
use a2a_types::protocol::ProtocolVersion;
use a2a_types::v1::{StreamResponse, Task, TaskId, TaskPushNotificationConfig};
use async_nats::jetstream;

use follow::Follower;

/// The header carrying an event's sequence number in its task's log.
pub const SEQ_HEADER: &str = "A2a-Seq";

/// The header marking an event too large to publish: readers read it from the wrapped store.
pub const IN_STORE_HEADER: &str = "A2a-In-Store";

/// Where NATS is and the bounds of the event log.
///
/// | limit | default | what happens when it is hit |
/// |---|---|---|
/// | `max_age` | 24 h | JetStream drops older events (readers further back read SQL) |
/// | `max_bytes` | 1 GiB | JetStream drops the oldest events of the stream |
/// | `max_events_per_task` | 100 000 | JetStream drops the task's oldest events |
/// | `max_event_bytes` | 512 KiB | the event is published without its body (`A2a-In-Store: 1`): readers read it from SQL |
/// | `max_followers` | 10 000 | readers of more tasks wait on the wrapped store (its `NOTIFY` or poll) |
/// | `cache_per_task` | 256 | readers further back than this read SQL |
/// | `publish_patience` | 30 s | the update fails `Unavailable` ("the event log at ... did not acknowledge ...") |
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct NatsConfig {
    /// `nats://host:port` (several comma-separated for a cluster).
    pub url: String,
    /// The first subject token (default `a2a`): the stream takes `<prefix>.>`.
    pub prefix: String,
    /// The stream's name (default `A2A_EVENTS`); replicas of one agent share it.
    pub stream: String,
    /// How long JetStream keeps an event. Default 24 h.
    pub max_age: Duration,
    /// The most bytes the stream keeps. Default 1 GiB.
    pub max_bytes: i64,
    /// The most events the stream keeps per task. Default 100 000.
    pub max_events_per_task: i64,
    /// The largest event published with its body. Default 512 KiB (NATS's own
    /// `max_payload` is 1 MiB by default).
    pub max_event_bytes: usize,
    /// The most tasks this process follows over NATS at once. Default 10 000.
    pub max_followers: usize,
    /// The latest events kept in memory per followed task. Default 256.
    pub cache_per_task: usize,
    /// How long a failing publish is tried again before the update fails. Default 30 s.
    pub publish_patience: Duration,
    /// How often a follower checks the wrapped store without an event (the bound on latency
    /// for events NATS did not carry), and how long it lives without a reader. Default 1 s.
    pub poll_interval: Duration,
    /// JetStream's duplicate window (republished events inside it are dropped). Default 2 min.
    pub duplicate_window: Duration,
    /// Stream replicas on a NATS cluster (1 on a single server). Default 1.
    pub replicas: usize,
}

impl NatsConfig {
    /// The defaults for this URL.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            prefix: "a2a".to_owned(),
            stream: "A2A_EVENTS".to_owned(),
            max_age: Duration::from_secs(24 * 3600),
            max_bytes: 1 << 30,
            max_events_per_task: 100_000,
            max_event_bytes: 512 * 1024,
            max_followers: 10_000,
            cache_per_task: 256,
            publish_patience: Duration::from_secs(30),
            poll_interval: Duration::from_secs(1),
            duplicate_window: Duration::from_secs(120),
            replicas: 1,
        }
    }

    /// Sets the subject prefix (one token: no `.`, `*`, `>` or space).
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// Sets the stream's name.
    #[must_use]
    pub fn with_stream(mut self, stream: impl Into<String>) -> Self {
        self.stream = stream.into();
        self
    }

    /// Sets how long a failing publish is tried again.
    #[must_use]
    pub fn with_publish_patience(mut self, patience: Duration) -> Self {
        self.publish_patience = patience;
        self
    }

    /// Sets how often followers check the wrapped store.
    #[must_use]
    pub fn with_poll_interval(mut self, every: Duration) -> Self {
        self.poll_interval = every;
        self
    }

    /// Sets the most tasks followed at once.
    #[must_use]
    pub fn with_max_followers(mut self, n: usize) -> Self {
        self.max_followers = n;
        self
    }

    /// Sets the largest event published with its body.
    #[must_use]
    pub fn with_max_event_bytes(mut self, bytes: usize) -> Self {
        self.max_event_bytes = bytes;
        self
    }
}

/// One subject token for `text`: ASCII letters, digits, `-` and `_` as they are, every other
/// byte as `~XX` (its hex), so that no id can reach another task's subject.
pub fn token(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_' {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("~{byte:02X}"));
        }
    }
    if out.is_empty() {
        out.push_str("~~");
    }
    out
}

/// The subject of a task's events: `<prefix>.<tenant>.<task>`, the default tenant as `~`.
pub fn subject(prefix: &str, tenant: Option<&str>, task: &str) -> String {
    let tenant = tenant.map_or_else(|| "~".to_owned(), token);
    format!("{prefix}.{tenant}.{}", token(task))
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The most task ids whose tenant is remembered (the cache is emptied beyond it).
const MAX_TENANTS: usize = 100_000;

pub(crate) struct Shared<S> {
    pub(crate) store: S,
    pub(crate) config: NatsConfig,
    js: jetstream::Context,
    pub(crate) stream: jetstream::stream::Stream,
    tenants: Mutex<HashMap<TaskId, Option<String>>>,
    pub(crate) followers: Mutex<HashMap<TaskId, Arc<Follower>>>,
}

/// A task store whose events travel over NATS JetStream (see the [crate docs](crate)).
pub struct NatsEvents<S> {
    shared: Arc<Shared<S>>,
}

impl<S> std::fmt::Debug for NatsEvents<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NatsEvents")
            .field("url", &self.shared.config.url)
            .field("stream", &self.shared.config.stream)
            .finish_non_exhaustive()
    }
}

fn unavailable(url: &str, what: impl std::fmt::Display) -> StoreError {
    StoreError::Unavailable(format!("the event log at {url}: {what}"))
}

impl<S: TaskStore> NatsEvents<S> {
    /// Connects to NATS, creates (or updates) the stream with the configured limits and wraps
    /// `store`. Fails `Unavailable` when NATS cannot be reached or JetStream is not enabled.
    pub async fn connect(store: S, config: NatsConfig) -> Result<Self, StoreError> {
        let client = async_nats::ConnectOptions::new()
            .connection_timeout(Duration::from_secs(5))
            .connect(config.url.as_str())
            .await
            .map_err(|err| unavailable(&config.url, format!("cannot connect: {err}")))?;
        let js = jetstream::new(client);
        let stream_config = jetstream::stream::Config {
            name: config.stream.clone(),
            subjects: vec![format!("{}.>", config.prefix)],
            storage: jetstream::stream::StorageType::File,
            max_age: config.max_age,
            max_bytes: config.max_bytes,
            max_messages_per_subject: config.max_events_per_task,
            duplicate_window: config.duplicate_window,
            num_replicas: config.replicas,
            ..Default::default()
        };
        let stream = match js.get_or_create_stream(stream_config.clone()).await {
            Ok(stream) => stream,
            Err(err) => {
                return Err(unavailable(
                    &config.url,
                    format!(
                        "cannot create the stream {} (is JetStream enabled, nats-server -js?): {err}",
                        config.stream
                    ),
                ));
            }
        };
        // An existing stream takes this process's limits.
        if let Err(err) = js.update_stream(stream_config).await {
            tracing::warn!(%err, stream = %config.stream, "cannot update the event stream's limits");
        }
        Ok(Self {
            shared: Arc::new(Shared {
                store,
                config,
                js,
                stream,
                tenants: Mutex::new(HashMap::new()),
                followers: Mutex::new(HashMap::new()),
            }),
        })
    }

    /// The wrapped store.
    pub fn inner(&self) -> &S {
        &self.shared.store
    }

    /// How many tasks this process follows over NATS now.
    pub fn followed(&self) -> usize {
        lock(&self.shared.followers).len()
    }
}

impl<S: TaskStore> Shared<S> {
    fn remember(&self, id: &TaskId, tenant: Option<String>) {
        let mut tenants = lock(&self.tenants);
        if tenants.len() >= MAX_TENANTS {
            tenants.clear();
        }
        tenants.insert(id.clone(), tenant);
    }

    /// The subject of a task's events; `None` when the task does not exist.
    pub(crate) async fn subject_of(&self, id: &TaskId) -> Result<Option<String>, StoreError> {
        let known = lock(&self.tenants).get(id).cloned();
        let tenant = match known {
            Some(tenant) => tenant,
            None => match self.store.load(id).await? {
                Some(stored) => {
                    self.remember(id, stored.owner.tenant.clone());
                    stored.owner.tenant
                }
                None => return Ok(None),
            },
        };
        Ok(Some(subject(
            &self.config.prefix,
            tenant.as_deref(),
            id.as_ref(),
        )))
    }

    /// Publishes event `seq` of task `id` and waits for JetStream's acknowledgement, trying
    /// again for up to `publish_patience`.
    async fn publish(
        &self,
        id: &TaskId,
        seq: u64,
        event: &StreamResponse,
    ) -> Result<(), StoreError> {
        let Some(subject) = self.subject_of(id).await? else {
            // Dropped meanwhile: nobody can read it.
            return Ok(());
        };
        let body = serde_json::to_vec(event)
            .map_err(|err| StoreError::Corrupt(format!("event {seq} of task {id}: {err}")))?;
        let mut headers = async_nats::HeaderMap::new();
        headers.insert(
            async_nats::header::NATS_MESSAGE_ID,
            format!("{id}:{seq}").as_str(),
        );
        headers.insert(SEQ_HEADER, seq.to_string().as_str());
        let body = if body.len() > self.config.max_event_bytes {
            headers.insert(IN_STORE_HEADER, "1");
            Vec::new()
        } else {
            body
        };
        let started = tokio::time::Instant::now();
        let mut backoff = Duration::from_millis(50);
        loop {
            let sent = async {
                self.js
                    .publish_with_headers(subject.clone(), headers.clone(), body.clone().into())
                    .await
                    .map_err(|err| err.to_string())?
                    .await
                    .map_err(|err| err.to_string())
            }
            .await;
            match sent {
                Ok(_) => return Ok(()),
                Err(err) if started.elapsed() + backoff > self.config.publish_patience => {
                    return Err(unavailable(
                        &self.config.url,
                        format!(
                            "did not acknowledge event {seq} of task {id} within {} s ({err}); \
                             the event is stored, readers find it there",
                            self.config.publish_patience.as_secs()
                        ),
                    ));
                }
                Err(err) => {
                    tracing::warn!(%err, task = %id, seq, "publish to the event log failed; trying again");
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(Duration::from_secs(1));
                }
            }
        }
    }
}

/// The event an edit logs, made on a task with the same id, context and status only (an
/// edit's event never depends on the history or the other artifacts).
fn event_of(task: &Task, edit: &TaskEdit) -> Option<StreamResponse> {
    let mut skeleton = Task::new(task.id.clone(), "", task.status.clone());
    skeleton.context_id.clone_from(&task.context_id);
    edit.clone().apply(&mut skeleton)
}

impl<S: TaskStore> TaskStore for NatsEvents<S> {
    fn create<'a>(
        &'a self,
        task: Task,
        owner: Owner,
        protocol_version: ProtocolVersion,
    ) -> StoreFuture<'a, UpdateOutcome> {
        Box::pin(async move {
            let id = task.id.clone();
            let tenant = owner.tenant.clone();
            let event = StreamResponse::Task(task.clone());
            let outcome = self
                .shared
                .store
                .create(task, owner, protocol_version)
                .await?;
            self.shared.remember(&id, tenant);
            self.shared.publish(&id, outcome.last_seq, &event).await?;
            Ok(outcome)
        })
    }

    fn check_room<'a>(&'a self, owner: &'a Owner, bytes: u64) -> StoreFuture<'a, ()> {
        self.shared.store.check_room(owner, bytes)
    }

    fn load<'a>(&'a self, id: &'a TaskId) -> StoreFuture<'a, Option<StoredTask>> {
        self.shared.store.load(id)
    }

    fn progress<'a>(&'a self, id: &'a TaskId) -> StoreFuture<'a, Option<UpdateOutcome>> {
        Box::pin(async move {
            if let Some(progress) = follow::progress(&self.shared, id) {
                return Ok(Some(progress));
            }
            self.shared.store.progress(id).await
        })
    }

    fn pin<'a>(&'a self, id: &'a TaskId) -> StoreFuture<'a, Option<TaskPin>> {
        self.shared.store.pin(id)
    }

    fn agent_running(&self, id: &TaskId) -> AgentRun {
        self.shared.store.agent_running(id)
    }

    fn update<'a>(
        &'a self,
        id: &'a TaskId,
        mut change: Change<'a>,
        then: Option<Observer<'a>>,
    ) -> StoreFuture<'a, Option<UpdateOutcome>> {
        Box::pin(async move {
            let logged: Mutex<Option<StreamResponse>> = Mutex::new(None);
            let outcome = {
                let wrapped: Change<'_> = Box::new(|task, room| {
                    let edit = change(task, room);
                    *lock(&logged) = edit.as_ref().and_then(|edit| event_of(task, edit));
                    edit
                });
                self.shared.store.update(id, wrapped, then).await?
            };
            let event = logged.into_inner().unwrap_or_else(PoisonError::into_inner);
            if let (Some(outcome), Some(event)) = (outcome, event) {
                self.shared.publish(id, outcome.last_seq, &event).await?;
                follow::heard(&self.shared, id, outcome.last_seq, event);
            }
            Ok(outcome)
        })
    }

    fn read_log<'a>(
        &'a self,
        id: &'a TaskId,
        after: u64,
        limit: usize,
    ) -> StoreFuture<'a, Vec<LogEntry>> {
        Box::pin(async move {
            if let Some(entries) = follow::cached(&self.shared, id, after, limit) {
                return Ok(entries);
            }
            self.shared.store.read_log(id, after, limit).await
        })
    }

    fn wait<'a>(&'a self, id: &'a TaskId, after: u64) -> StoreFuture<'a, ()> {
        Box::pin(follow::wait(&self.shared, id, after))
    }

    fn list<'a>(&'a self, query: &'a ListQuery) -> StoreFuture<'a, ListPage> {
        self.shared.store.list(query)
    }

    fn put_push_config<'a>(
        &'a self,
        config: TaskPushNotificationConfig,
        protocol_version: ProtocolVersion,
    ) -> StoreFuture<'a, ()> {
        self.shared.store.put_push_config(config, protocol_version)
    }

    fn push_config_version<'a>(
        &'a self,
        task_id: &'a TaskId,
        id: &'a str,
    ) -> StoreFuture<'a, Option<ProtocolVersion>> {
        self.shared.store.push_config_version(task_id, id)
    }

    fn get_push_config<'a>(
        &'a self,
        task_id: &'a TaskId,
        id: &'a str,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
        self.shared.store.get_push_config(task_id, id)
    }

    fn list_push_configs<'a>(
        &'a self,
        task_id: &'a TaskId,
    ) -> StoreFuture<'a, Vec<TaskPushNotificationConfig>> {
        self.shared.store.list_push_configs(task_id)
    }

    fn delete_push_config<'a>(&'a self, task_id: &'a TaskId, id: &'a str) -> StoreFuture<'a, bool> {
        self.shared.store.delete_push_config(task_id, id)
    }

    fn claim_deliveries<'a>(
        &'a self,
        now: SystemTime,
        lease: Duration,
        limit: usize,
    ) -> StoreFuture<'a, Claimed> {
        self.shared.store.claim_deliveries(now, lease, limit)
    }

    fn settle_delivery<'a>(&'a self, id: u64, lease: u64, how: Settle) -> StoreFuture<'a, bool> {
        self.shared.store.settle_delivery(id, lease, how)
    }

    fn push_status<'a>(&'a self, task_id: &'a TaskId) -> StoreFuture<'a, Vec<PushStatus>> {
        self.shared.store.push_status(task_id)
    }

    fn wait_outbox<'a>(&'a self, timeout: Duration) -> StoreFuture<'a, ()> {
        self.shared.store.wait_outbox(timeout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_documented_ones() {
        let c = NatsConfig::new("nats://127.0.0.1:4222");
        assert_eq!(
            (c.prefix.as_str(), c.stream.as_str()),
            ("a2a", "A2A_EVENTS")
        );
        assert_eq!(c.max_age, Duration::from_secs(86_400));
        assert_eq!(c.max_bytes, 1_073_741_824);
        assert_eq!(c.max_events_per_task, 100_000);
        assert_eq!(c.max_event_bytes, 524_288);
        assert_eq!((c.max_followers, c.cache_per_task), (10_000, 256));
        assert_eq!(c.publish_patience, Duration::from_secs(30));
        assert_eq!(c.poll_interval, Duration::from_secs(1));
    }

    #[test]
    fn subjects_escape_what_nats_reads() {
        assert_eq!(subject("a2a", None, "t-1"), "a2a.~.t-1");
        assert_eq!(
            subject("a2a", Some("acme"), "t.1 *>"),
            "a2a.acme.t~2E1~20~2A~3E"
        );
        assert_eq!(subject("a2a", Some("~"), ""), "a2a.~7E.~~");
    }
}
