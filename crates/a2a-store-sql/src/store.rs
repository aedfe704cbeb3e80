//! [`SqlStore`]: the [`TaskStore`] on SQL.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use a2a_server::store::{
    AgentRun, Change, Claimed, ListPage, ListQuery, LogEntry, Observer, Owner, PushStatus, Room,
    Settle, StoreError, StoreFuture, StoredTask, TaskStore, UpdateOutcome, json_len, present_task,
    task_bytes,
};
use a2a_types::protocol::ProtocolVersion;
use a2a_types::v1::{StreamResponse, Task, TaskId, TaskPushNotificationConfig};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{Any, AnyPool, Executor, Row, Transaction};

use crate::codec::{
    from_json, int, is_unique_violation, owner_columns, owner_of, state_of, state_text,
    store_error, time_key, timestamp_key, to_json, uint, version_of, version_text,
};
use crate::health::Health;
use crate::outbox;
use crate::wake::Waiters;
use crate::{Dialect, SqlConfig, redact, schema};

/// How many task ids one lease renewal names.
const RENEW_BATCH: usize = 500;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Opens one connection to `url` and closes it: `Err` says, in a few words, why it could not
/// (a refused connection at once, not after a timeout).
async fn first_connection(url: &str, target: &str, timeout: Duration) -> Result<(), String> {
    use sqlx::Connection as _;
    match tokio::time::timeout(timeout, sqlx::AnyConnection::connect(url)).await {
        Ok(Ok(conn)) => {
            let _ = conn.close().await;
            Ok(())
        }
        Ok(Err(err)) => Err(crate::health::connect_failure(&err, target)),
        Err(_) => Err(format!(
            "no answer from {target} within {} ms (acquire_timeout)",
            timeout.as_millis()
        )),
    }
}

pub(crate) type Tx = Transaction<'static, Any>;

/// Tasks, event logs, push configurations and the push outbox in SQLite or PostgreSQL.
///
/// Cheap to clone (one pool). See the [crate docs](crate) for what it keeps and how replicas
/// share it. A store that cannot pin ([`TaskStore::pin`] is the default): retention deletes only
/// ended tasks, and readers of one that goes are told so.
#[derive(Clone, Debug)]
pub struct SqlStore {
    pub(crate) inner: Arc<Inner>,
}

#[derive(Debug)]
pub(crate) struct Inner {
    pub(crate) pool: AnyPool,
    pub(crate) dialect: Dialect,
    pub(crate) config: SqlConfig,
    pub(crate) waiters: Arc<Waiters>,
    /// The PostgreSQL channel this store notifies and listens on.
    pub(crate) channel: Option<String>,
    /// Whether the database can be reached (calls fail at once while it cannot).
    pub(crate) health: Arc<Health>,
    /// The tasks whose agent runs in this process, with how many runs hold each: the only
    /// leases the keeper renews.
    pub(crate) agents: Arc<Mutex<HashMap<String, usize>>>,
    /// Stops the sweeper and the listener.
    stop: tokio::sync::watch::Sender<bool>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

fn quoted(identifier: &str) -> Result<String, StoreError> {
    let ok = !identifier.is_empty()
        && identifier.len() <= 48
        && identifier
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(format!("\"{identifier}\""))
    } else {
        Err(StoreError::Unsupported(format!(
            "schema name `{identifier}` must be 1 to 48 ASCII letters, digits or underscores"
        )))
    }
}

impl SqlStore {
    /// Connects, creates the database (SQLite) or schema (PostgreSQL) when missing, runs the
    /// migrations, and starts the retention sweeper (and, on PostgreSQL, the listener that
    /// wakes this replica's readers). Fails `Unavailable` when the database cannot be
    /// reached, `Unsupported` for a URL of no known database.
    pub async fn connect(config: SqlConfig) -> Result<Self, StoreError> {
        sqlx::any::install_default_drivers();
        let dialect = Dialect::of(&config.url)?;
        let mut url = config.url.clone();
        let schema = match (&config.schema, dialect) {
            (Some(schema), Dialect::Postgres) => Some(quoted(schema)?),
            _ => None,
        };
        let mut options = AnyPoolOptions::new().acquire_timeout(config.acquire_timeout);
        match dialect {
            Dialect::Sqlite => {
                if !url.contains("mode=") {
                    url.push_str(if url.contains('?') { "&" } else { "?" });
                    url.push_str("mode=rwc");
                }
                // One connection: SQLite serializes writers anyway, and one writer never
                // meets SQLITE_BUSY from itself.
                options = options.max_connections(1).after_connect(|conn, _| {
                    Box::pin(async move {
                        conn.execute(
                            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
                             PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
                        )
                        .await?;
                        Ok(())
                    })
                });
            }
            Dialect::Postgres => {
                options = options.max_connections(config.max_connections.max(1));
                if let Some(schema) = schema.clone() {
                    options = options.after_connect(move |conn, _| {
                        let set = format!("SET search_path TO {schema}");
                        Box::pin(async move {
                            conn.execute(set.as_str()).await?;
                            Ok(())
                        })
                    });
                }
            }
        }
        let target = crate::health::target_of(&url);
        // One connection first, of its own: a database that refuses connections says so at
        // once (the pool would retry a refused connection until its acquire_timeout).
        first_connection(&url, &target, config.acquire_timeout)
            .await
            .map_err(|why| {
                StoreError::Unavailable(format!("cannot open {}: {why}", redact(&config.url)))
            })?;
        let pool = options.connect(&url).await.map_err(|err| {
            StoreError::Unavailable(format!(
                "cannot open {}: {}",
                redact(&config.url),
                crate::health::connect_failure(&err, &target)
            ))
        })?;
        schema::migrate(&pool, dialect, schema.as_deref()).await?;
        let channel = (dialect == Dialect::Postgres).then(|| {
            format!(
                "a2a_{}",
                config
                    .schema
                    .as_deref()
                    .unwrap_or("public")
                    .to_ascii_lowercase()
            )
        });
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let waiters: Arc<Waiters> = Arc::default();
        let health = Arc::new(Health::new(
            url,
            target,
            config.acquire_timeout,
            waiters.clone(),
        ));
        let inner = Arc::new(Inner {
            pool,
            dialect,
            config,
            waiters,
            channel,
            health,
            agents: Arc::default(),
            stop,
        });
        #[cfg(feature = "postgres")]
        if let Some(channel) = &inner.channel {
            tokio::spawn(crate::wake::listen(
                inner.config.url.clone(),
                channel.clone(),
                Arc::downgrade(&inner.waiters),
            ));
        }
        crate::retention::spawn_sweeper(Arc::downgrade(&inner), stopped.clone());
        let store = Self { inner };
        crate::lease::spawn_keeper(&store, stopped);
        Ok(store)
    }

    /// Closes the pool: calls after this fail `Unavailable`.
    pub async fn close(&self) {
        let _ = self.inner.stop.send(true);
        self.inner.pool.close().await;
    }

    /// Whether the store knows its database cannot be reached now: its calls then fail
    /// `Unavailable` at once, until a background probe reaches the database again (see the
    /// [crate docs](crate#when-the-database-goes-away)). For readiness checks.
    pub fn is_unreachable(&self) -> bool {
        self.inner.health.is_down()
    }

    /// The dialect of the database.
    pub fn dialect(&self) -> Dialect {
        self.inner.dialect
    }

    /// Runs one retention sweep now (the sweeper runs one every
    /// [`SqlRetention::sweep_interval`](crate::SqlRetention::sweep_interval)); the number of
    /// tasks deleted.
    pub async fn sweep(&self) -> Result<u64, StoreError> {
        crate::retention::sweep(&self.inner).await
    }

    /// This replica's name in the tasks it leases (see [`SqlConfig::lease`]).
    pub fn replica(&self) -> &str {
        &self.inner.config.replica
    }

    /// Renews this replica's leases of the tasks whose agent runs here (see
    /// [`TaskStore::agent_running`]), then ends (FAILED, with an agent message saying why) the
    /// active tasks whose lease ran out: their replica stopped, or their agent ended here
    /// without its final write. The lease keeper runs this every third of [`SqlConfig::lease`];
    /// the number of tasks failed.
    ///
    /// After an outage of its own, a replica judges no lease for one lease period: the other
    /// replicas, cut off as well, get the time to renew theirs.
    pub async fn check_leases(&self) -> Result<u64, StoreError> {
        let Some(lease) = self.inner.config.lease else {
            return Ok(0);
        };
        self.inner.health.check()?;
        let now = SystemTime::now();
        self.renew_leases(now + lease).await?;
        if self
            .inner
            .health
            .recovered_for()
            .is_some_and(|since| since < lease)
        {
            return Ok(0);
        }
        let rows = self
            .guarded(async {
                sqlx::query(
                    "SELECT id FROM a2a_tasks WHERE lease_until IS NOT NULL AND lease_until < $1 \
                     ORDER BY lease_until LIMIT 100",
                )
                .bind(crate::codec::micros(now))
                .fetch_all(&self.inner.pool)
                .await
                .map_err(store_error)
            })
            .await?;
        let mut failed = 0;
        for row in &rows {
            let id = TaskId::from(get::<String>(row, 0)?);
            let mut ended = false;
            let change: Change<'_> = Box::new(|task: &Task, _room| {
                ended = false;
                if !crate::lease::is_active(task.status.state) {
                    return None;
                }
                ended = true;
                Some(crate::lease::failure(task))
            });
            self.update(&id, change, None).await?;
            if ended {
                tracing::warn!(task.id = %id, "the replica running this task stopped before the task ended (its lease ran out): the task failed");
                failed += 1;
            }
        }
        Ok(failed)
    }

    /// Sets the lease of this replica's tasks whose agent runs here to `until`, a few hundred
    /// ids a statement.
    async fn renew_leases(&self, until: SystemTime) -> Result<(), StoreError> {
        let ids: Vec<String> = lock(&self.inner.agents).keys().cloned().collect();
        for chunk in ids.chunks(RENEW_BATCH) {
            let marks: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 3)).collect();
            let sql = format!(
                "UPDATE a2a_tasks SET lease_until = $1 WHERE replica = $2 \
                 AND lease_until IS NOT NULL AND id IN ({})",
                marks.join(", ")
            );
            self.guarded(async {
                let mut query = sqlx::query(&sql)
                    .bind(crate::codec::micros(until))
                    .bind(self.inner.config.replica.clone());
                for id in chunk {
                    query = query.bind(id.clone());
                }
                query.execute(&self.inner.pool).await.map_err(store_error)
            })
            .await?;
        }
        Ok(())
    }

    /// Runs one call against the database: at once `Unavailable` while it is known to be
    /// down; a call that fails `Unavailable`, or waits longer than
    /// [`SUSPECT_AFTER`](crate::health::SUSPECT_AFTER), has a background probe check it; a
    /// call still waiting when the probe finds it down fails then.
    pub(crate) async fn guarded<T>(
        &self,
        call: impl std::future::Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        let health = &self.inner.health;
        health.check()?;
        let mut call = std::pin::pin!(call);
        let result = tokio::select! {
            biased;
            result = &mut call => result,
            () = tokio::time::sleep(crate::health::SUSPECT_AFTER) => {
                health.suspect();
                tokio::select! {
                    biased;
                    result = &mut call => result,
                    () = health.went_down() => Err(health.down_error()),
                }
            }
        };
        if matches!(result, Err(StoreError::Unavailable(_))) {
            health.suspect();
        }
        result
    }

    /// The lease a write leaves on a task in `state`: this replica's, while the task is active.
    fn lease_of(&self, state: a2a_types::v1::TaskState) -> Option<(String, i64)> {
        let lease = self.inner.config.lease?;
        crate::lease::is_active(state).then(|| {
            (
                self.inner.config.replica.clone(),
                crate::codec::micros(SystemTime::now() + lease),
            )
        })
    }

    async fn begin(&self) -> Result<Tx, StoreError> {
        self.inner.pool.begin().await.map_err(store_error)
    }

    fn for_update(&self) -> &'static str {
        match self.inner.dialect {
            Dialect::Postgres => " FOR UPDATE",
            Dialect::Sqlite => "",
        }
    }

    /// After a commit that grew `id`'s log: wake this process's waiters; the other replicas
    /// were notified inside the transaction.
    fn woke(&self, id: &str, enqueued: bool) {
        self.inner.waiters.wake(id);
        if enqueued {
            self.inner.waiters.outbox.notify_one();
        }
    }

    /// Inside a transaction: tells the other replicas what its commit will have done.
    async fn notify_in(&self, tx: &mut Tx, id: &str, enqueued: bool) -> Result<(), StoreError> {
        if let Some(channel) = &self.inner.channel {
            if self.inner.config.log_notify {
                notify(&mut **tx, channel, &format!("l:{id}")).await?;
            }
            if enqueued {
                notify(&mut **tx, channel, "o:").await?;
            }
        }
        Ok(())
    }

    async fn try_create(
        &self,
        task: &Task,
        owner: &Owner,
        protocol_version: ProtocolVersion,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin().await?;
        let (principal, tenant) = owner_columns(owner);
        let state = task.status.state;
        let inserted = sqlx::query(
            "INSERT INTO a2a_tasks (id, principal, tenant, protocol_version, context_id, state, \
             time_key, terminal_at, last_seq, bytes, task, replica, lease_until) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9, $10, $11, $12)",
        )
        .bind(task.id.to_string())
        .bind(principal)
        .bind(tenant)
        .bind(version_text(protocol_version))
        .bind(
            task.context_id
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default(),
        )
        .bind(state_text(state))
        .bind(time_key(task))
        .bind(
            state
                .is_terminal()
                .then(|| crate::codec::micros(SystemTime::now())),
        )
        .bind(int(task_bytes(task)))
        .bind(to_json(task)?)
        .bind(self.lease_of(state).map(|(replica, _)| replica))
        .bind(self.lease_of(state).map(|(_, until)| until))
        .execute(&mut *tx)
        .await;
        match inserted {
            Ok(_) => {}
            Err(err) if is_unique_violation(&err) => {
                return Err(StoreError::AlreadyExists(task.id.clone()));
            }
            Err(err) => return Err(store_error(err)),
        }
        let event = StreamResponse::Task(task.clone());
        insert_event(&mut tx, task.id.as_ref(), 1, &event).await?;
        let enqueued = outbox::enqueue(
            &mut tx,
            &self.inner.config.outbox,
            task.id.as_ref(),
            1,
            &event,
        )
        .await?;
        self.notify_in(&mut tx, task.id.as_ref(), enqueued).await?;
        tx.commit().await.map_err(store_error)?;
        Ok(enqueued)
    }

    /// One attempt of an update: `Ok(None)` no task; the outcome, the task as left and
    /// whether deliveries were enqueued.
    async fn try_update(
        &self,
        id: &str,
        change: &mut Change<'_>,
    ) -> Result<Option<(UpdateOutcome, Option<Task>, bool)>, StoreError> {
        let mut tx = self.begin().await?;
        let select = format!(
            "SELECT task, last_seq, bytes FROM a2a_tasks WHERE id = $1{}",
            self.for_update()
        );
        let row = sqlx::query(&select)
            .bind(id.to_owned())
            .fetch_optional(&mut *tx)
            .await
            .map_err(store_error)?;
        let Some(row) = row else {
            return Ok(None);
        };
        let mut task: Task = from_json(&get::<String>(&row, 0)?, "task")?;
        let last_seq = uint(get::<i64>(&row, 1)?);
        // The generation is the last event's number (a row written before generations has
        // none in its JSON).
        task.generation = a2a_server::store::generation(last_seq);
        let bytes = uint(get::<i64>(&row, 2)?);
        let Some(edit) = change(&task, Room::new(bytes, u64::MAX)) else {
            // Nothing to write: the transaction only read.
            drop(tx);
            let outcome = UpdateOutcome::new(last_seq, task.status.state);
            return Ok(Some((outcome, None, false)));
        };
        let was_terminal = task.status.state.is_terminal();
        let cost = edit.bytes();
        let mut event = edit.apply(&mut task);
        let state = task.status.state;
        let seq = if event.is_some() {
            last_seq + 1
        } else {
            last_seq
        };
        task.generation = a2a_server::store::generation(seq);
        if let Some(event) = &mut event {
            a2a_server::store::stamp_generation(event, seq);
        }
        let terminal_now = state.is_terminal() && !was_terminal;
        sqlx::query(
            "UPDATE a2a_tasks SET task = $1, state = $2, time_key = $3, last_seq = $4, \
             bytes = $5, terminal_at = CASE WHEN $6 = 1 THEN $7 ELSE terminal_at END, \
             replica = $8, lease_until = $9 WHERE id = $10",
        )
        .bind(to_json(&task)?)
        .bind(state_text(state))
        .bind(time_key(&task))
        .bind(int(seq))
        .bind(int(bytes.saturating_add(cost)))
        .bind(i64::from(terminal_now))
        .bind(crate::codec::micros(SystemTime::now()))
        .bind(self.lease_of(state).map(|(replica, _)| replica))
        .bind(self.lease_of(state).map(|(_, until)| until))
        .bind(id.to_owned())
        .execute(&mut *tx)
        .await
        .map_err(store_error)?;
        let mut enqueued = false;
        if let Some(event) = &event {
            insert_event(&mut tx, id, seq, event).await?;
            enqueued = outbox::enqueue(&mut tx, &self.inner.config.outbox, id, seq, event).await?;
            self.notify_in(&mut tx, id, enqueued).await?;
        }
        tx.commit().await.map_err(store_error)?;
        let outcome = UpdateOutcome::new(seq, state);
        Ok(Some((outcome, Some(task), enqueued)))
    }

    /// Runs `attempt` until it does not lose a conflict, at most `max_attempts` times.
    async fn retrying<T, F, Fut>(&self, what: &str, mut attempt: F) -> Result<T, StoreError>
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = Result<T, StoreError>>,
    {
        let mut tries = 0;
        loop {
            tries += 1;
            match attempt().await {
                Err(StoreError::Conflict(text)) if tries < self.inner.config.max_attempts => {
                    tracing::debug!(what, tries, %text, "a2a store transaction conflict; retrying");
                    let backoff = Duration::from_millis(2u64 << tries.min(8));
                    tokio::time::sleep(backoff).await;
                }
                other => return other,
            }
        }
    }
}

/// An agent of this process running for a task (see [`TaskStore::agent_running`]).
struct AgentGuard {
    agents: Arc<Mutex<HashMap<String, usize>>>,
    id: String,
}

impl Drop for AgentGuard {
    fn drop(&mut self) {
        let mut agents = lock(&self.agents);
        if let Some(runs) = agents.get_mut(&self.id) {
            *runs -= 1;
            if *runs == 0 {
                agents.remove(&self.id);
            }
        }
    }
}

/// `pg_notify` on `channel`, sent when the surrounding transaction commits.
async fn notify<'e, E>(executor: E, channel: &str, payload: &str) -> Result<(), StoreError>
where
    E: Executor<'e, Database = Any>,
{
    sqlx::query("SELECT CAST(pg_notify($1, $2) AS TEXT)")
        .bind(channel.to_owned())
        .bind(payload.to_owned())
        .execute(executor)
        .await
        .map_err(store_error)?;
    Ok(())
}

async fn insert_event(
    tx: &mut Tx,
    id: &str,
    seq: u64,
    event: &StreamResponse,
) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO a2a_events (task_id, seq, event) VALUES ($1, $2, $3)")
        .bind(id.to_owned())
        .bind(int(seq))
        .bind(to_json(event)?)
        .execute(&mut **tx)
        .await
        .map_err(store_error)?;
    Ok(())
}

pub(crate) fn get<T>(row: &AnyRow, index: usize) -> Result<T, StoreError>
where
    T: for<'r> sqlx::Decode<'r, Any> + sqlx::Type<Any>,
{
    row.try_get(index).map_err(|err| {
        StoreError::Corrupt(format!(
            "column {index} of a stored row does not decode: {err}"
        ))
    })
}

fn parse_cursor(token: &str) -> Option<(i64, i64)> {
    let rest = token.strip_prefix("s1:")?;
    let (key, number) = rest.split_once(':')?;
    Some((key.parse().ok()?, number.parse().ok()?))
}

fn cursor(key: i64, number: i64) -> String {
    format!("s1:{key}:{number}")
}

/// The `WHERE` of a list query and its arguments, numbered from `$1`.
fn list_filter(query: &ListQuery) -> (String, Vec<Arg>) {
    let (principal, tenant) = owner_columns(&query.owner);
    let mut sql = "principal = $1 AND tenant = $2".to_owned();
    let mut args = vec![Arg::Text(principal), Arg::Text(tenant)];
    if let Some(context) = &query.context_id {
        args.push(Arg::Text(context.to_string()));
        sql.push_str(&format!(" AND context_id = ${}", args.len()));
    }
    if let Some(state) = query.state {
        args.push(Arg::Text(state_text(state)));
        sql.push_str(&format!(" AND state = ${}", args.len()));
    }
    if let Some(after) = query.status_after {
        args.push(Arg::Int(timestamp_key(after)));
        sql.push_str(&format!(" AND time_key >= ${}", args.len()));
    }
    (sql, args)
}

enum Arg {
    Text(String),
    Int(i64),
}

fn bind_all<'q>(
    mut query: sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>>,
    args: &[Arg],
) -> sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>> {
    for arg in args {
        query = match arg {
            Arg::Text(text) => query.bind(text.clone()),
            Arg::Int(n) => query.bind(*n),
        };
    }
    query
}

impl TaskStore for SqlStore {
    fn create<'a>(
        &'a self,
        task: Task,
        owner: Owner,
        protocol_version: ProtocolVersion,
    ) -> StoreFuture<'a, UpdateOutcome> {
        Box::pin(self.guarded(async move {
            // Generation 1: the log's first event.
            let mut task = task;
            task.generation = 1;
            let enqueued = self
                .retrying("create", || {
                    self.try_create(&task, &owner, protocol_version)
                })
                .await?;
            self.woke(task.id.as_ref(), enqueued);
            Ok(UpdateOutcome::new(1, task.status.state))
        }))
    }

    /// No limit of its own on what a task may hold in all (retention deletes only ended tasks),
    /// but a database known to be away is said at once: a new `SendMessage` is refused before
    /// its agent runs.
    fn check_room<'a>(&'a self, owner: &'a Owner, bytes: u64) -> StoreFuture<'a, ()> {
        let _ = (owner, bytes);
        Box::pin(std::future::ready(self.inner.health.check()))
    }

    fn load<'a>(&'a self, id: &'a TaskId) -> StoreFuture<'a, Option<StoredTask>> {
        Box::pin(self.guarded(async move {
            let row = sqlx::query(
                "SELECT task, principal, tenant, protocol_version, last_seq, bytes FROM a2a_tasks \
                 WHERE id = $1",
            )
            .bind(id.to_string())
            .fetch_optional(&self.inner.pool)
            .await
            .map_err(store_error)?;
            let Some(row) = row else { return Ok(None) };
            Ok(Some(StoredTask::new(
                from_json(&get::<String>(&row, 0)?, "task")?,
                owner_of(&get::<String>(&row, 1)?, &get::<String>(&row, 2)?),
                version_of(&get::<String>(&row, 3)?)?,
                uint(get::<i64>(&row, 4)?),
                uint(get::<i64>(&row, 5)?),
            )))
        }))
    }

    fn progress<'a>(&'a self, id: &'a TaskId) -> StoreFuture<'a, Option<UpdateOutcome>> {
        Box::pin(self.guarded(async move {
            let row = sqlx::query("SELECT last_seq, state FROM a2a_tasks WHERE id = $1")
                .bind(id.to_string())
                .fetch_optional(&self.inner.pool)
                .await
                .map_err(store_error)?;
            let Some(row) = row else { return Ok(None) };
            Ok(Some(UpdateOutcome::new(
                uint(get::<i64>(&row, 0)?),
                state_of(&get::<String>(&row, 1)?)?,
            )))
        }))
    }

    fn agent_running(&self, id: &TaskId) -> AgentRun {
        *lock(&self.inner.agents).entry(id.to_string()).or_default() += 1;
        AgentRun::new(AgentGuard {
            agents: self.inner.agents.clone(),
            id: id.to_string(),
        })
    }

    fn update<'a>(
        &'a self,
        id: &'a TaskId,
        change: Change<'a>,
        then: Option<Observer<'a>>,
    ) -> StoreFuture<'a, Option<UpdateOutcome>> {
        Box::pin(async move {
            let mut change = change;
            let key = id.to_string();
            let result = self
                .guarded(async {
                    let mut tries = 0;
                    loop {
                        tries += 1;
                        match self.try_update(&key, &mut change).await {
                            Err(StoreError::Conflict(text))
                                if tries < self.inner.config.max_attempts =>
                            {
                                tracing::debug!(tries, %text, "a2a store update conflict; deciding again");
                                tokio::time::sleep(Duration::from_millis(2u64 << tries.min(8)))
                                    .await;
                            }
                            other => break other,
                        }
                    }
                })
                .await?;
            let Some((outcome, task, enqueued)) = result else {
                return Ok(None);
            };
            if let Some(task) = task {
                if let Some(then) = then {
                    then(&task);
                }
                if outcome.last_seq > 0 {
                    self.woke(&key, enqueued);
                }
            }
            Ok(Some(outcome))
        })
    }

    fn read_log<'a>(
        &'a self,
        id: &'a TaskId,
        after: u64,
        limit: usize,
    ) -> StoreFuture<'a, Vec<LogEntry>> {
        Box::pin(self.guarded(async move {
            let rows = sqlx::query(
                "SELECT seq, event FROM a2a_events WHERE task_id = $1 AND seq > $2 \
                 ORDER BY seq LIMIT $3",
            )
            .bind(id.to_string())
            .bind(int(after))
            .bind(int(limit as u64))
            .fetch_all(&self.inner.pool)
            .await
            .map_err(store_error)?;
            rows.iter()
                .map(|row| {
                    Ok(LogEntry::new(
                        uint(get::<i64>(row, 0)?),
                        from_json(&get::<String>(row, 1)?, "event")?,
                    ))
                })
                .collect()
        }))
    }

    fn wait<'a>(&'a self, id: &'a TaskId, after: u64) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let waiting = self.inner.waiters.register(id.as_ref());
            loop {
                let notified = waiting.notify.notified();
                tokio::pin!(notified);
                // Registered before reading: an append after the read wakes it.
                notified.as_mut().enable();
                match self.progress(id).await? {
                    None => return Ok(()),
                    Some(p) if p.last_seq > after => return Ok(()),
                    Some(_) => {}
                }
                let _ = tokio::time::timeout(self.inner.config.poll_interval, notified).await;
            }
        })
    }

    fn list<'a>(&'a self, query: &'a ListQuery) -> StoreFuture<'a, ListPage> {
        Box::pin(self.guarded(async move {
            let start = match &query.page_token {
                Some(token) if !token.is_empty() => Some(
                    parse_cursor(token)
                        .ok_or_else(|| StoreError::InvalidPageToken(token.clone()))?,
                ),
                _ => None,
            };
            let (filter, args) = list_filter(query);
            let count_sql =
                format!("SELECT CAST(count(*) AS BIGINT) FROM a2a_tasks WHERE {filter}");
            let total: i64 = bind_all(sqlx::query(&count_sql), &args)
                .fetch_one(&self.inner.pool)
                .await
                .and_then(|row| row.try_get(0))
                .map_err(store_error)?;
            let mut page_args = args;
            let mut page_sql =
                format!("SELECT time_key, number, task FROM a2a_tasks WHERE {filter}");
            if let Some((key, number)) = start {
                let n = page_args.len();
                page_sql.push_str(&format!(
                    " AND (time_key < ${} OR (time_key = ${} AND number < ${}))",
                    n + 1,
                    n + 2,
                    n + 3
                ));
                page_args.extend([Arg::Int(key), Arg::Int(key), Arg::Int(number)]);
            }
            page_args.push(Arg::Int(int(query.page_size as u64 + 1)));
            page_sql.push_str(&format!(
                " ORDER BY time_key DESC, number DESC LIMIT ${}",
                page_args.len()
            ));
            let rows = bind_all(sqlx::query(&page_sql), &page_args)
                .fetch_all(&self.inner.pool)
                .await
                .map_err(store_error)?;
            let max_bytes = query.max_bytes.unwrap_or(usize::MAX);
            let mut tasks = Vec::new();
            let mut page_bytes = 0usize;
            let mut last = None;
            let mut more = false;
            for row in &rows {
                if tasks.len() == query.page_size {
                    more = true;
                    break;
                }
                let task: Task = from_json(&get::<String>(row, 2)?, "task")?;
                let shown = present_task(&task, query.history_length, query.include_artifacts);
                let size = json_len(&shown) + 1;
                if !tasks.is_empty() && page_bytes.saturating_add(size) > max_bytes {
                    more = true;
                    break;
                }
                page_bytes = page_bytes.saturating_add(size);
                tasks.push(shown);
                last = Some((get::<i64>(row, 0)?, get::<i64>(row, 1)?));
            }
            let next_page_token = match (more, last) {
                (true, Some((key, number))) => cursor(key, number),
                _ => String::new(),
            };
            let mut page = ListPage::default();
            page.tasks = tasks;
            page.next_page_token = next_page_token;
            page.total_size = usize::try_from(total).unwrap_or(0);
            Ok(page)
        }))
    }

    fn put_push_config<'a>(
        &'a self,
        config: TaskPushNotificationConfig,
        protocol_version: ProtocolVersion,
    ) -> StoreFuture<'a, ()> {
        Box::pin(self.guarded(async move {
            let task_id = config
                .task_id
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default();
            let id = config.id.clone().unwrap_or_default();
            let json = to_json(&config)?;
            self.retrying("put_push_config", || async {
                sqlx::query(
                    "INSERT INTO a2a_push_configs (task_id, config_id, position, config, protocol_version) \
                     VALUES ($1, $2, (SELECT coalesce(max(position), 0) + 1 FROM a2a_push_configs \
                     WHERE task_id = $3), $4, $5) \
                     ON CONFLICT (task_id, config_id) DO UPDATE SET config = excluded.config, \
                     protocol_version = excluded.protocol_version",
                )
                .bind(task_id.clone())
                .bind(id.clone())
                .bind(task_id.clone())
                .bind(json.clone())
                .bind(version_text(protocol_version))
                .execute(&self.inner.pool)
                .await
                .map_err(store_error)?;
                Ok(())
            })
            .await
        }))
    }

    fn push_config_version<'a>(
        &'a self,
        task_id: &'a TaskId,
        id: &'a str,
    ) -> StoreFuture<'a, Option<ProtocolVersion>> {
        Box::pin(self.guarded(async move {
            let row = sqlx::query(
                "SELECT protocol_version FROM a2a_push_configs WHERE task_id = $1 AND config_id = $2",
            )
            .bind(task_id.to_string())
            .bind(id.to_owned())
            .fetch_optional(&self.inner.pool)
            .await
            .map_err(store_error)?;
            row.map(|row| version_of(&get::<String>(&row, 0)?))
                .transpose()
        }))
    }

    fn get_push_config<'a>(
        &'a self,
        task_id: &'a TaskId,
        id: &'a str,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
        Box::pin(self.guarded(async move {
            let row = sqlx::query(
                "SELECT config FROM a2a_push_configs WHERE task_id = $1 AND config_id = $2",
            )
            .bind(task_id.to_string())
            .bind(id.to_owned())
            .fetch_optional(&self.inner.pool)
            .await
            .map_err(store_error)?;
            row.map(|row| from_json(&get::<String>(&row, 0)?, "push config"))
                .transpose()
        }))
    }

    fn list_push_configs<'a>(
        &'a self,
        task_id: &'a TaskId,
    ) -> StoreFuture<'a, Vec<TaskPushNotificationConfig>> {
        Box::pin(self.guarded(async move {
            let rows = sqlx::query(
                "SELECT config FROM a2a_push_configs WHERE task_id = $1 ORDER BY position",
            )
            .bind(task_id.to_string())
            .fetch_all(&self.inner.pool)
            .await
            .map_err(store_error)?;
            rows.iter()
                .map(|row| from_json(&get::<String>(row, 0)?, "push config"))
                .collect()
        }))
    }

    fn delete_push_config<'a>(&'a self, task_id: &'a TaskId, id: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(self.guarded(async move {
            self.retrying("delete_push_config", || {
                outbox::delete_config(&self.inner, task_id.as_ref(), id)
            })
            .await
        }))
    }

    fn claim_deliveries<'a>(
        &'a self,
        now: SystemTime,
        lease: Duration,
        limit: usize,
    ) -> StoreFuture<'a, Claimed> {
        Box::pin(self.guarded(async move {
            self.retrying("claim_deliveries", || {
                outbox::claim(&self.inner, now, lease, limit)
            })
            .await
        }))
    }

    fn settle_delivery<'a>(&'a self, id: u64, lease: u64, how: Settle) -> StoreFuture<'a, bool> {
        Box::pin(self.guarded(async move {
            self.retrying("settle", || {
                outbox::settle(&self.inner, id, lease, how.clone())
            })
            .await
        }))
    }

    fn push_status<'a>(&'a self, task_id: &'a TaskId) -> StoreFuture<'a, Vec<PushStatus>> {
        Box::pin(self.guarded(outbox::status(&self.inner, task_id.as_ref())))
    }

    fn wait_outbox<'a>(&'a self, timeout: Duration) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let _ = tokio::time::timeout(timeout, self.inner.waiters.outbox.notified()).await;
            Ok(())
        })
    }
}
