//! Durable task stores for `a2a-server`: [`SqlStore`] keeps tasks, their event logs, push
//! configurations and the push outbox in SQLite (feature `sqlite`) or PostgreSQL (feature
//! `postgres`), so that a restart loses nothing that was acknowledged and several replicas can
//! serve one agent.
//!
//! * **One transaction per update.** [`TaskStore::update`](a2a_server::store::TaskStore::update)
//!   reads the task (PostgreSQL: `SELECT ... FOR UPDATE`), decides the change, writes the task,
//!   appends the event with its sequence number and enqueues its push deliveries in one
//!   transaction; a serialization failure, deadlock or busy database retries the whole
//!   transaction (the change is a function of the stored task, so deciding it again is safe).
//! * **Wake-ups.** Readers wait in-process; with PostgreSQL every commit that grows a log also
//!   sends `NOTIFY` on the store's channel, so a stream on one replica wakes when another
//!   replica's agent emits. Every waiter also re-reads on a timer
//!   ([`SqlConfig::poll_interval`]): a lost notification costs latency, never events.
//! * **Migrations** are embedded and run on [`SqlStore::connect`] (under an advisory lock on
//!   PostgreSQL, so replicas that start together migrate once).
//! * **Retention** ([`SqlRetention`]) deletes ended tasks by age, count and bytes in batches,
//!   from a background sweeper, never a full-table scan per request.
//!
//! # Replicas that stop
//!
//! Every write that leaves a task active (`SUBMITTED` or `WORKING`) leases it to the writing
//! replica for [`SqlConfig::lease`] (30 s); each replica renews, every third of that, the
//! leases of the tasks whose agent runs in it
//! ([`TaskStore::agent_running`](a2a_server::store::TaskStore::agent_running)). When a replica dies (`kill -9`, a lost machine), its active tasks' leases
//! run out, and the next replica to check (every replica checks, a restarted one too) ends
//! each such task `FAILED` with the agent message "The replica running this task stopped
//! before the task ended (its lease ran out); send the message again to start a new task."
//! Streams and waiting calls on the other replicas see that status like any event. Tasks that
//! wait for the client (`INPUT_REQUIRED`, `AUTH_REQUIRED`) hold no lease: no agent runs for
//! them, so they wait as long as `interrupted_ttl` lets them, on any replica. A task whose
//! agent ended here without its final write (the database was away) is no longer renewed
//! either: the handler writes its end once it can, and should this replica stop first, the
//! lease rule ends it. After an outage of its own a replica judges no lease for one lease
//! period, so that every replica renews the leases of its running agents first.
//!
//! # When the database goes away
//!
//! A call that fails as if the database were away, or that waits longer than a second, has
//! the store check it in the background: a probe opens a connection of its own (no pool, so a
//! refused connection fails at once) and runs `SELECT 1`, within 3 s. A probe that fails marks
//! the database *away*: every call then fails [`StoreError::Unavailable`] at once, saying why
//! ("the database at 127.0.0.1:5432 cannot be reached (connection refused at 127.0.0.1:5432);
//! ..."), calls still waiting for a connection too, and a new task is refused before its agent
//! runs ([`TaskStore::check_room`](a2a_server::store::TaskStore::check_room)). The probe goes
//! on, at most 1 s apart; the first that succeeds makes the database reachable again, wakes
//! every waiting reader of this replica, and has the lease keeper renew at once. The handler
//! rides out the outage meanwhile (`HandlerConfig::outage_tolerance`) and answers its callers
//! a retryable 503. [`SqlStore::is_unreachable`] tells a readiness check.
//!
//! [`SqlStore::connect`] fails at once too on a database that refuses connections
//! ("connection refused at HOST:PORT"), and waits at most `acquire_timeout` for one that does
//! not answer. Replicas that start together on a new schema create and migrate it one after
//! the other, under an advisory lock.
//!
//! The schema (table prefix `a2a_`): `a2a_tasks` (the task as JSON, its owner's principal and
//! tenant, the version it was created through, state, status time, last sequence number,
//! bytes), `a2a_events` (task, seq, event JSON), `a2a_push_configs`, `a2a_push_outbox`,
//! `a2a_counters`, `a2a_schema`.
//!
//! ```no_run
//! use std::sync::Arc;
//!
//! use a2a_store_sql::{SqlConfig, SqlStore};
//!
//! # async fn run() -> Result<(), a2a_server::store::StoreError> {
//! let store = SqlStore::connect(SqlConfig::new("sqlite://tasks.db")).await?;
//! let store: Arc<dyn a2a_server::store::TaskStore> = Arc::new(store);
//! # let _ = store;
//! # Ok(())
//! # }
//! ```
//!
//! A runnable example on a temporary SQLite file:
//!
//! ```
//! # #[cfg(feature = "sqlite")]
//! # fn main() {
//! use a2a_server::store::{Owner, TaskStore};
//! use a2a_store_sql::{SqlConfig, SqlStore};
//! use a2a_types::protocol::ProtocolVersion;
//! use a2a_types::v1::{Task, TaskState, TaskStatus};
//!
//! let path = std::env::temp_dir().join(format!("a2a-doc-{}.db", std::process::id()));
//! let url = format!("sqlite://{}", path.display());
//! tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//!     let store = SqlStore::connect(SqlConfig::new(&url)).await.unwrap();
//!     let task = Task::new("t-1", "c-1", TaskStatus::now(TaskState::Submitted));
//!     store.create(task, Owner::default(), ProtocolVersion::V1).await.unwrap();
//!     let stored = store.load(&"t-1".into()).await.unwrap().unwrap();
//!     assert_eq!(stored.last_seq, 1);
//!     store.close().await;
//! });
//! # let _ = std::fs::remove_file(&path);
//! # }
//! # #[cfg(not(feature = "sqlite"))]
//! # fn main() {}
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]

mod codec;
mod health;
mod lease;
mod outbox;
mod retention;
mod schema;
mod store;
mod wake;

use std::time::Duration;

use a2a_server::store::{OutboxLimits, StoreError};

pub use retention::SqlRetention;
pub use store::SqlStore;

/// Which database a URL names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Dialect {
    /// `sqlite://path` (or `sqlite:path`).
    Sqlite,
    /// `postgres://...` or `postgresql://...`.
    Postgres,
}

impl Dialect {
    /// The dialect of a database URL; `InvalidUrl` names what was expected.
    pub fn of(url: &str) -> Result<Self, StoreError> {
        let scheme = url.split(':').next().unwrap_or_default();
        match scheme {
            "sqlite" => Ok(Dialect::Sqlite),
            "postgres" | "postgresql" => Ok(Dialect::Postgres),
            _ => Err(StoreError::Unsupported(format!(
                "store URL `{}` names no database this build knows: expected sqlite://PATH or \
                 postgres://USER@HOST/DB",
                redact(url)
            ))),
        }
    }
}

/// How to reach the database and what the store keeps.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SqlConfig {
    /// `sqlite://path` (created when missing) or `postgres://user:password@host:port/db`.
    pub url: String,
    /// PostgreSQL: the schema the tables live in (created when missing; `None`: the
    /// connection's `search_path`, normally `public`). Replicas of one agent share it; tests
    /// use one per test.
    pub schema: Option<String>,
    /// The most connections the pool opens (SQLite always uses one: its writers serialize
    /// anyway). Default 16.
    pub max_connections: u32,
    /// How long a call waits for a free connection before it fails `Unavailable`. Default 10 s.
    pub acquire_timeout: Duration,
    /// How often a waiting reader re-reads without a wake-up (the bound on latency when a
    /// notification is lost, and the cross-replica latency on SQLite). Default 1 s.
    pub poll_interval: Duration,
    /// How many times an update is tried when it loses a conflict. Default 8.
    pub max_attempts: u32,
    /// The bounds of the push outbox.
    pub outbox: OutboxLimits,
    /// How long an active task (submitted or working) stays leased to the replica that last
    /// wrote it without a renewal; `None`: no leases (a task whose replica died stays active).
    /// Default 30 s. See the [crate docs](crate#replicas-that-stop).
    pub lease: Option<Duration>,
    /// This replica's name in its leases: unique per process (default: the process id and a
    /// random part, made at start).
    pub replica: String,
    /// What is kept, and how the sweeper deletes the rest.
    pub retention: SqlRetention,
    /// PostgreSQL: whether a commit that grows a task's log sends `NOTIFY` (default true).
    /// Off when another path carries events to the replicas (`a2a-store-nats`): `NOTIFY`
    /// serializes the commits of every replica; the push outbox's wake-ups are sent anyway.
    pub log_notify: bool,
}

impl SqlConfig {
    /// The defaults for this URL.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            schema: None,
            max_connections: 16,
            acquire_timeout: Duration::from_secs(10),
            poll_interval: Duration::from_secs(1),
            max_attempts: 8,
            outbox: OutboxLimits::default(),
            lease: Some(Duration::from_secs(30)),
            replica: lease::replica_name(),
            retention: SqlRetention::default(),
            log_notify: true,
        }
    }

    /// Sets whether a commit that grows a task's log sends `NOTIFY` (PostgreSQL).
    #[must_use]
    pub fn with_log_notify(mut self, on: bool) -> Self {
        self.log_notify = on;
        self
    }

    /// Sets this replica's name in its leases (two stores with one name renew each other's
    /// leases: give each process its own).
    #[must_use]
    pub fn with_replica(mut self, name: impl Into<String>) -> Self {
        self.replica = name.into();
        self
    }

    /// Sets the lease of active tasks (`None`: no leases).
    #[must_use]
    pub fn with_lease(mut self, lease: Option<Duration>) -> Self {
        self.lease = lease;
        self
    }

    /// Sets the PostgreSQL schema.
    #[must_use]
    pub fn with_schema(mut self, schema: impl Into<String>) -> Self {
        self.schema = Some(schema.into());
        self
    }

    /// Sets how long a call waits for a free connection (and `connect` for the first one).
    #[must_use]
    pub fn with_acquire_timeout(mut self, timeout: Duration) -> Self {
        self.acquire_timeout = timeout;
        self
    }

    /// Sets the pool's size.
    #[must_use]
    pub fn with_max_connections(mut self, n: u32) -> Self {
        self.max_connections = n.max(1);
        self
    }

    /// Sets how often waiting readers re-read without a wake-up.
    #[must_use]
    pub fn with_poll_interval(mut self, every: Duration) -> Self {
        self.poll_interval = every;
        self
    }

    /// Sets the outbox bounds.
    #[must_use]
    pub fn with_outbox_limits(mut self, limits: OutboxLimits) -> Self {
        self.outbox = limits;
        self
    }

    /// Sets the retention.
    #[must_use]
    pub fn with_retention(mut self, retention: SqlRetention) -> Self {
        self.retention = retention;
        self
    }
}

/// The URL without its password, for messages.
pub(crate) fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(start), Some(at)) if at > start => {
            let userinfo = &url[start + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..start + 3], &url[at..]),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_their_dialect() {
        assert_eq!(Dialect::of("sqlite://a.db"), Ok(Dialect::Sqlite));
        assert_eq!(Dialect::of("sqlite:a.db"), Ok(Dialect::Sqlite));
        assert_eq!(Dialect::of("postgres://u@h/db"), Ok(Dialect::Postgres));
        assert_eq!(Dialect::of("postgresql://u@h/db"), Ok(Dialect::Postgres));
        assert_eq!(
            Dialect::of("mysql://u:secret@h/db"),
            Err(StoreError::Unsupported(
                "store URL `mysql://u:***@h/db` names no database this build knows: expected \
                 sqlite://PATH or postgres://USER@HOST/DB"
                    .to_owned()
            ))
        );
    }

    #[test]
    fn passwords_are_redacted() {
        assert_eq!(
            redact("postgres://me:pw@host:5432/db"),
            "postgres://me:***@host:5432/db"
        );
        assert_eq!(redact("postgres://me@host/db"), "postgres://me@host/db");
        assert_eq!(redact("sqlite://x.db"), "sqlite://x.db");
    }
}
