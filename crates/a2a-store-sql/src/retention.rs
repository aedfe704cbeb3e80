//! Retention: a sweeper deletes ended tasks (their logs with them) by age, count and bytes,
//! in batches, oldest end first. Unfinished tasks are never deleted.

use std::sync::Weak;
use std::time::{Duration, SystemTime};

use a2a_server::store::StoreError;
use sqlx::Row;

use crate::codec::{int, micros, store_error};
use crate::store::{Inner, get};

/// What a [`SqlStore`](crate::SqlStore) keeps.
///
/// | limit | default | what happens |
/// |---|---|---|
/// | `terminal_ttl` | 24 hours | ended tasks whose end is older are deleted (`GetTask`: `TaskNotFoundError`) |
/// | `max_tasks` | 1 000 000 | while more tasks are stored, the oldest ended ones are deleted |
/// | `max_total_bytes` | 16 GiB | while all tasks hold more bytes (as every store accounts them), the oldest ended ones are deleted |
/// | `batch` | 500 | tasks deleted per statement: a sweep never holds locks long |
/// | `sweep_interval` | 60 s | how often the sweeper runs |
///
/// Counting rows for `max_tasks` and `max_total_bytes` scans the table once per sweep, never
/// per request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SqlRetention {
    /// Delete ended tasks whose end is older than this (`None`: keep them).
    pub terminal_ttl: Option<Duration>,
    /// Delete the oldest ended tasks while more than this many tasks are stored.
    pub max_tasks: u64,
    /// Delete the oldest ended tasks while all tasks hold more bytes than this.
    pub max_total_bytes: u64,
    /// Tasks deleted per statement.
    pub batch: u32,
    /// How often the sweeper runs (`Duration::ZERO`: never; call
    /// [`SqlStore::sweep`](crate::SqlStore::sweep)).
    pub sweep_interval: Duration,
}

impl Default for SqlRetention {
    fn default() -> Self {
        Self {
            terminal_ttl: Some(Duration::from_secs(24 * 3600)),
            max_tasks: 1_000_000,
            max_total_bytes: 16 * 1024 * 1024 * 1024,
            batch: 500,
            sweep_interval: Duration::from_secs(60),
        }
    }
}

impl SqlRetention {
    /// Sets how long ended tasks are kept.
    #[must_use]
    pub fn with_terminal_ttl(mut self, ttl: Option<Duration>) -> Self {
        self.terminal_ttl = ttl;
        self
    }

    /// Sets the most tasks kept.
    #[must_use]
    pub fn with_max_tasks(mut self, n: u64) -> Self {
        self.max_tasks = n;
        self
    }

    /// Sets the most bytes kept.
    #[must_use]
    pub fn with_max_total_bytes(mut self, bytes: u64) -> Self {
        self.max_total_bytes = bytes;
        self
    }

    /// Sets the tasks deleted per statement (at least 1).
    #[must_use]
    pub fn with_batch(mut self, batch: u32) -> Self {
        self.batch = batch.max(1);
        self
    }

    /// Sets how often the sweeper runs.
    #[must_use]
    pub fn with_sweep_interval(mut self, every: Duration) -> Self {
        self.sweep_interval = every;
        self
    }
}

pub(crate) fn spawn_sweeper(inner: Weak<Inner>, mut stop: tokio::sync::watch::Receiver<bool>) {
    let Some(every) = inner
        .upgrade()
        .map(|i| i.config.retention.sweep_interval)
        .filter(|every| !every.is_zero())
    else {
        return;
    };
    tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = stop.changed() => return,
                () = tokio::time::sleep(every) => {}
            }
            let Some(inner) = inner.upgrade() else { return };
            if inner.health.is_down() {
                continue;
            }
            match sweep(&inner).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(deleted = n, "a2a task store retention"),
                Err(err) => tracing::warn!(%err, "a2a task store retention sweep failed"),
            }
        }
    });
}

/// Deletes up to `limit` of the oldest ended tasks (those that ended before `ended_before`,
/// when given); how many went.
async fn delete_batch(
    inner: &Inner,
    ended_before: Option<i64>,
    limit: u64,
) -> Result<u64, StoreError> {
    let mut tx = inner.pool.begin().await.map_err(store_error)?;
    let (condition, limit_param) = match ended_before {
        Some(_) => ("AND terminal_at < $1", "$2"),
        None => ("", "$1"),
    };
    let sql = format!(
        "DELETE FROM a2a_tasks WHERE number IN (SELECT number FROM a2a_tasks \
         WHERE terminal_at IS NOT NULL {condition} ORDER BY terminal_at LIMIT {limit_param}) \
         RETURNING id"
    );
    let mut query = sqlx::query(&sql);
    if let Some(before) = ended_before {
        query = query.bind(before);
    }
    let ids: Vec<String> = query
        .bind(int(limit))
        .fetch_all(&mut *tx)
        .await
        .map_err(store_error)?
        .iter()
        .map(|row| get::<String>(row, 0))
        .collect::<Result<_, _>>()?;
    // The logs went with their tasks (ON DELETE CASCADE); their push configurations go too
    // (pending deliveries stay until they settle).
    for id in &ids {
        sqlx::query("DELETE FROM a2a_push_configs WHERE task_id = $1")
            .bind(id.clone())
            .execute(&mut *tx)
            .await
            .map_err(store_error)?;
    }
    tx.commit().await.map_err(store_error)?;
    for id in &ids {
        inner.waiters.wake(id);
    }
    Ok(ids.len() as u64)
}

async fn totals(inner: &Inner) -> Result<(u64, u64), StoreError> {
    let row = sqlx::query(
        "SELECT CAST(count(*) AS BIGINT), CAST(coalesce(sum(bytes), 0) AS BIGINT) FROM a2a_tasks",
    )
    .fetch_one(&inner.pool)
    .await
    .map_err(store_error)?;
    let count: i64 = row.try_get(0).map_err(store_error)?;
    let bytes: i64 = row.try_get(1).map_err(store_error)?;
    Ok((count.max(0) as u64, bytes.max(0) as u64))
}

/// One sweep: by age, then by count and bytes; the number of tasks deleted.
pub(crate) async fn sweep(inner: &Inner) -> Result<u64, StoreError> {
    let retention = inner.config.retention;
    let batch = u64::from(retention.batch.max(1));
    let mut deleted = 0;
    if let Some(ttl) = retention.terminal_ttl {
        let cutoff = micros(
            SystemTime::now()
                .checked_sub(ttl)
                .unwrap_or(SystemTime::UNIX_EPOCH),
        );
        loop {
            let n = delete_batch(inner, Some(cutoff), batch).await?;
            deleted += n;
            if n < batch {
                break;
            }
        }
    }
    loop {
        let (count, bytes) = totals(inner).await?;
        let excess = count.saturating_sub(retention.max_tasks);
        let limit = if bytes > retention.max_total_bytes {
            batch
        } else {
            excess.min(batch)
        };
        if limit == 0 {
            break;
        }
        let n = delete_batch(inner, None, limit).await?;
        deleted += n;
        if n == 0 {
            // Only unfinished tasks are left over the limits: they are never deleted.
            break;
        }
    }
    Ok(deleted)
}
