//! The push outbox in SQL: one `a2a_push_outbox` row per delivery, written by the update's
//! transaction; per-configuration counts (`delivered`, `dropped`, `last_error`) on the
//! configuration's row; the outbox's totals in `a2a_counters` (so a bound is checked without
//! counting the table).

use std::time::{Duration, SystemTime};

use a2a_server::store::{
    Claimed, Delivery, DeliveryRecord, DeliveryState, OutboxLimits, PushStatus, Settle, StoreError,
    delivery_bytes,
};
use a2a_types::v1::{StreamResponse, TaskPushNotificationConfig};
use sqlx::Row;

use crate::Dialect;
use crate::codec::{
    cut, from_json, from_micros, int, micros, store_error, to_json, uint, version_of,
};
use crate::store::{Inner, Tx, get};

async fn counter(tx: &mut Tx, name: &str) -> Result<i64, StoreError> {
    sqlx::query("SELECT value FROM a2a_counters WHERE name = $1")
        .bind(name.to_owned())
        .fetch_one(&mut **tx)
        .await
        .and_then(|row| row.try_get(0))
        .map_err(store_error)
}

async fn add_counter(tx: &mut Tx, name: &str, delta: i64) -> Result<(), StoreError> {
    if delta != 0 {
        sqlx::query("UPDATE a2a_counters SET value = value + $1 WHERE name = $2")
            .bind(delta)
            .bind(name.to_owned())
            .execute(&mut **tx)
            .await
            .map_err(store_error)?;
    }
    Ok(())
}

/// Enqueues event `seq` of task `id` for each of its push configurations, in their creation
/// order, within the bounds; true when one was enqueued.
pub(crate) async fn enqueue(
    tx: &mut Tx,
    limits: &OutboxLimits,
    id: &str,
    seq: u64,
    event: &StreamResponse,
) -> Result<bool, StoreError> {
    let configs = sqlx::query(
        "SELECT config_id, config, protocol_version FROM a2a_push_configs WHERE task_id = $1 \
         ORDER BY position",
    )
    .bind(id.to_owned())
    .fetch_all(&mut **tx)
    .await
    .map_err(store_error)?;
    if configs.is_empty() {
        return Ok(false);
    }
    let mut waiting = uint(counter(tx, "outbox_waiting").await?) as usize;
    let mut total_bytes = uint(counter(tx, "outbox_bytes").await?);
    let (start_waiting, start_bytes) = (waiting, total_bytes);
    let event_json = to_json(event)?;
    let now = micros(SystemTime::now());
    let mut enqueued = false;
    for row in &configs {
        let config_id: String = get(row, 0)?;
        let config_json: String = get(row, 1)?;
        let protocol_version: String = get(row, 2)?;
        let config: TaskPushNotificationConfig = from_json(&config_json, "push config")?;
        let bytes = delivery_bytes(event, &config);
        let queue = sqlx::query(
            "SELECT CAST(count(*) AS BIGINT), CAST(coalesce(sum(bytes), 0) AS BIGINT) \
             FROM a2a_push_outbox WHERE task_id = $1 AND config_id = $2 AND dead = 0",
        )
        .bind(id.to_owned())
        .bind(config_id.clone())
        .fetch_one(&mut **tx)
        .await
        .map_err(store_error)?;
        let queued = uint(get::<i64>(&queue, 0)?) as usize;
        let queued_bytes = uint(get::<i64>(&queue, 1)?);
        let refusal = if queued >= limits.max_per_config {
            Some(format!(
                "the outbox holds {queued} deliveries for push config `{config_id}` of task \
                 {id}, its limit (max_per_config): event {seq} was dropped"
            ))
        } else if queued_bytes.saturating_add(bytes) > limits.max_bytes_per_config {
            Some(format!(
                "the outbox holds {queued_bytes} bytes for push config `{config_id}` of task \
                 {id}; event {seq} ({bytes} bytes) would take it over its limit of {} bytes \
                 (max_bytes_per_config) and was dropped",
                limits.max_bytes_per_config
            ))
        } else if waiting >= limits.max_total {
            Some(format!(
                "the outbox holds {waiting} deliveries, its limit (max_total): event {seq} of \
                 task {id} was dropped for push config `{config_id}`"
            ))
        } else if total_bytes.saturating_add(bytes) > limits.max_total_bytes {
            Some(format!(
                "the outbox holds {total_bytes} bytes; event {seq} of task {id} ({bytes} \
                 bytes) would take it over its limit of {} bytes (max_total_bytes) and was \
                 dropped for push config `{config_id}`",
                limits.max_total_bytes
            ))
        } else {
            None
        };
        if let Some(reason) = refusal {
            tracing::warn!(task.id = %id, config.id = %config_id, %reason, "push delivery dropped");
            sqlx::query(
                "UPDATE a2a_push_configs SET dropped = dropped + 1, last_error = $1 \
                 WHERE task_id = $2 AND config_id = $3",
            )
            .bind(reason)
            .bind(id.to_owned())
            .bind(config_id)
            .execute(&mut **tx)
            .await
            .map_err(store_error)?;
            continue;
        }
        sqlx::query(
            "INSERT INTO a2a_push_outbox (task_id, config_id, seq, event, config, protocol_version, \
             bytes, due_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(id.to_owned())
        .bind(config_id)
        .bind(int(seq))
        .bind(event_json.clone())
        .bind(config_json)
        .bind(protocol_version)
        .bind(int(bytes))
        .bind(now)
        .execute(&mut **tx)
        .await
        .map_err(store_error)?;
        waiting += 1;
        total_bytes += bytes;
        enqueued = true;
    }
    add_counter(tx, "outbox_waiting", int((waiting - start_waiting) as u64)).await?;
    add_counter(tx, "outbox_bytes", int(total_bytes - start_bytes)).await?;
    Ok(enqueued)
}

/// The oldest undelivered delivery of each queue: the ones that can be claimed.
const HEADS: &str = "dead = 0 AND id = (SELECT min(p.id) FROM a2a_push_outbox p \
     WHERE p.task_id = o.task_id AND p.config_id = o.config_id AND p.dead = 0)";

pub(crate) async fn claim(
    inner: &Inner,
    now: SystemTime,
    lease: Duration,
    limit: usize,
) -> Result<Claimed, StoreError> {
    let mut tx = inner.pool.begin().await.map_err(store_error)?;
    let now_us = micros(now);
    let until = micros(now.checked_add(lease).unwrap_or(now));
    let lock = match inner.dialect {
        Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
        Dialect::Sqlite => "",
    };
    let sql = format!(
        "SELECT o.id FROM a2a_push_outbox o WHERE {HEADS} \
         AND coalesce(o.lease_until, o.due_at) <= $1 \
         ORDER BY coalesce(o.lease_until, o.due_at), o.id LIMIT $2{lock}"
    );
    let ids: Vec<i64> = sqlx::query(&sql)
        .bind(now_us)
        .bind(int(limit as u64))
        .fetch_all(&mut *tx)
        .await
        .map_err(store_error)?
        .iter()
        .map(|row| get::<i64>(row, 0))
        .collect::<Result<_, _>>()?;
    let mut deliveries = Vec::with_capacity(ids.len());
    for id in ids {
        let token: i64 = sqlx::query(
            "UPDATE a2a_counters SET value = value + 1 WHERE name = 'lease' RETURNING value",
        )
        .fetch_one(&mut *tx)
        .await
        .and_then(|row| row.try_get(0))
        .map_err(store_error)?;
        let row = sqlx::query(
            "UPDATE a2a_push_outbox SET lease = $1, lease_until = $2 WHERE id = $3 \
             RETURNING seq, event, config, protocol_version, attempts, last_error",
        )
        .bind(token)
        .bind(until)
        .bind(id)
        .fetch_one(&mut *tx)
        .await
        .map_err(store_error)?;
        let mut delivery = Delivery::new(
            uint(id),
            uint(token),
            uint(get::<i64>(&row, 0)?),
            from_json(&get::<String>(&row, 1)?, "delivery event")?,
            from_json(&get::<String>(&row, 2)?, "delivery config")?,
            version_of(&get::<String>(&row, 3)?)?,
        );
        delivery.attempts = u32::try_from(get::<i64>(&row, 4)?).unwrap_or(u32::MAX);
        delivery.last_error = get::<Option<String>>(&row, 5)?;
        deliveries.push(delivery);
    }
    let next: Option<i64> = sqlx::query(&format!(
        "SELECT min(coalesce(o.lease_until, o.due_at)) FROM a2a_push_outbox o WHERE {HEADS}"
    ))
    .fetch_one(&mut *tx)
    .await
    .and_then(|row| row.try_get(0))
    .map_err(store_error)?;
    tx.commit().await.map_err(store_error)?;
    let mut claimed = Claimed::default();
    claimed.deliveries = deliveries;
    claimed.next_due = next.map(from_micros);
    Ok(claimed)
}

/// Settles delivery `id` under `lease`; false when that is not its current claim.
pub(crate) async fn settle(
    inner: &Inner,
    id: u64,
    lease: u64,
    how: Settle,
) -> Result<bool, StoreError> {
    let mut tx = inner.pool.begin().await.map_err(store_error)?;
    let (id, lease) = (int(id), int(lease));
    let row = match &how {
        Settle::Complete => sqlx::query(
            "DELETE FROM a2a_push_outbox WHERE id = $1 AND lease = $2 AND dead = 0 \
             RETURNING task_id, config_id, bytes",
        )
        .bind(id)
        .bind(lease),
        Settle::Retry { due, error } => sqlx::query(
            "UPDATE a2a_push_outbox SET attempts = attempts + 1, due_at = $1, lease = NULL, \
             lease_until = NULL, last_error = $2 WHERE id = $3 AND lease = $4 AND dead = 0 \
             RETURNING task_id, config_id, bytes",
        )
        .bind(micros(*due))
        .bind(cut(error.clone()))
        .bind(id)
        .bind(lease),
        Settle::Release { due } => sqlx::query(
            "UPDATE a2a_push_outbox SET due_at = $1, lease = NULL, lease_until = NULL \
             WHERE id = $2 AND lease = $3 AND dead = 0 RETURNING task_id, config_id, bytes",
        )
        .bind(micros(*due))
        .bind(id)
        .bind(lease),
        Settle::Kill { error } => sqlx::query(
            "UPDATE a2a_push_outbox SET attempts = attempts + 1, dead = 1, event = '', \
             lease = NULL, lease_until = NULL, last_error = $1 \
             WHERE id = $2 AND lease = $3 AND dead = 0 RETURNING task_id, config_id, bytes",
        )
        .bind(cut(error.clone()))
        .bind(id)
        .bind(lease),
    }
    .fetch_optional(&mut *tx)
    .await
    .map_err(store_error)?;
    let Some(row) = row else {
        return Ok(false);
    };
    let task_id: String = get(&row, 0)?;
    let config_id: String = get(&row, 1)?;
    let bytes: i64 = get(&row, 2)?;
    let config_update = match &how {
        Settle::Complete => Some((
            "UPDATE a2a_push_configs SET delivered = delivered + 1 \
             WHERE task_id = $1 AND config_id = $2",
            None,
        )),
        Settle::Retry { error, .. } | Settle::Kill { error } => Some((
            "UPDATE a2a_push_configs SET last_error = $3 WHERE task_id = $1 AND config_id = $2",
            Some(cut(error.clone())),
        )),
        Settle::Release { .. } => None,
    };
    if let Some((sql, error)) = config_update {
        let mut query = sqlx::query(sql)
            .bind(task_id.clone())
            .bind(config_id.clone());
        if let Some(error) = error {
            query = query.bind(error);
        }
        query.execute(&mut *tx).await.map_err(store_error)?;
    }
    if matches!(how, Settle::Complete | Settle::Kill { .. }) {
        add_counter(&mut tx, "outbox_waiting", -1).await?;
        add_counter(&mut tx, "outbox_bytes", -bytes).await?;
    }
    if matches!(how, Settle::Kill { .. }) {
        // Only the newest dead records of the configuration are kept.
        sqlx::query(
            "DELETE FROM a2a_push_outbox WHERE task_id = $1 AND config_id = $2 AND dead = 1 \
             AND id NOT IN (SELECT id FROM a2a_push_outbox WHERE task_id = $3 \
             AND config_id = $4 AND dead = 1 ORDER BY id DESC LIMIT $5)",
        )
        .bind(task_id.clone())
        .bind(config_id.clone())
        .bind(task_id)
        .bind(config_id)
        .bind(int(inner.config.outbox.max_dead_per_config as u64))
        .execute(&mut *tx)
        .await
        .map_err(store_error)?;
    }
    tx.commit().await.map_err(store_error)?;
    Ok(true)
}

/// Deletes a configuration, its deliveries and its status; true when it existed.
pub(crate) async fn delete_config(
    inner: &Inner,
    task_id: &str,
    config_id: &str,
) -> Result<bool, StoreError> {
    let mut tx = inner.pool.begin().await.map_err(store_error)?;
    let deleted = sqlx::query("DELETE FROM a2a_push_configs WHERE task_id = $1 AND config_id = $2")
        .bind(task_id.to_owned())
        .bind(config_id.to_owned())
        .execute(&mut *tx)
        .await
        .map_err(store_error)?
        .rows_affected();
    if deleted == 0 {
        return Ok(false);
    }
    let pending = sqlx::query(
        "SELECT CAST(count(*) AS BIGINT), CAST(coalesce(sum(bytes), 0) AS BIGINT) \
         FROM a2a_push_outbox WHERE task_id = $1 AND config_id = $2 AND dead = 0",
    )
    .bind(task_id.to_owned())
    .bind(config_id.to_owned())
    .fetch_one(&mut *tx)
    .await
    .map_err(store_error)?;
    let (count, bytes): (i64, i64) = (get(&pending, 0)?, get(&pending, 1)?);
    sqlx::query("DELETE FROM a2a_push_outbox WHERE task_id = $1 AND config_id = $2")
        .bind(task_id.to_owned())
        .bind(config_id.to_owned())
        .execute(&mut *tx)
        .await
        .map_err(store_error)?;
    add_counter(&mut tx, "outbox_waiting", -count).await?;
    add_counter(&mut tx, "outbox_bytes", -bytes).await?;
    tx.commit().await.map_err(store_error)?;
    Ok(true)
}

/// How deliveries to each configuration of the task went, in creation order.
pub(crate) async fn status(inner: &Inner, task_id: &str) -> Result<Vec<PushStatus>, StoreError> {
    let configs = sqlx::query(
        "SELECT config_id, delivered, dropped, last_error FROM a2a_push_configs \
         WHERE task_id = $1 ORDER BY position",
    )
    .bind(task_id.to_owned())
    .fetch_all(&inner.pool)
    .await
    .map_err(store_error)?;
    let now = micros(SystemTime::now());
    let mut all = Vec::with_capacity(configs.len());
    for row in &configs {
        let config_id: String = get(row, 0)?;
        let mut status = PushStatus::new(config_id.clone());
        status.delivered = uint(get::<i64>(row, 1)?);
        status.dropped = uint(get::<i64>(row, 2)?);
        status.last_error = get::<Option<String>>(row, 3)?;
        let deliveries = sqlx::query(
            "SELECT id, seq, attempts, last_error, due_at, lease_until, dead \
             FROM a2a_push_outbox WHERE task_id = $1 AND config_id = $2 ORDER BY dead DESC, id",
        )
        .bind(task_id.to_owned())
        .bind(config_id)
        .fetch_all(&inner.pool)
        .await
        .map_err(store_error)?;
        for d in &deliveries {
            let dead = get::<i64>(d, 6)? != 0;
            let lease_until = get::<Option<i64>>(d, 5)?.filter(|until| *until > now);
            let state = match (dead, lease_until) {
                (true, _) => DeliveryState::Dead,
                (false, Some(_)) => DeliveryState::InFlight,
                (false, None) => DeliveryState::Pending,
            };
            let mut record =
                DeliveryRecord::new(uint(get::<i64>(d, 0)?), uint(get::<i64>(d, 1)?), state);
            record.attempts = u32::try_from(get::<i64>(d, 2)?).unwrap_or(u32::MAX);
            record.last_error = get::<Option<String>>(d, 3)?;
            record.due = match state {
                DeliveryState::Dead => None,
                _ => Some(from_micros(lease_until.unwrap_or(get::<i64>(d, 4)?))),
            };
            status.deliveries.push(record);
        }
        all.push(status);
    }
    Ok(all)
}
