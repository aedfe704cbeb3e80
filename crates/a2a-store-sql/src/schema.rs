//! The embedded migrations, run on connect.

use sqlx::{AnyPool, Executor, Row};

use a2a_server::store::StoreError;

use crate::Dialect;
use crate::codec::store_error;

/// Each migration: its version and its SQL, with `{serial}` for the dialect's auto-numbered
/// primary key. Append only; never edit one that shipped.
const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../migrations/0001_tables.sql")),
    (2, include_str!("../migrations/0002_protocol_version.sql")),
];

/// The schema version this build writes.
pub(crate) const VERSION: i64 = 2;

fn dialect_sql(dialect: Dialect, sql: &str) -> String {
    let serial = match dialect {
        Dialect::Sqlite => "INTEGER PRIMARY KEY AUTOINCREMENT",
        Dialect::Postgres => "BIGSERIAL PRIMARY KEY",
    };
    sql.replace("{serial}", serial)
}

/// How many times [`migrate`] is tried when it loses a race with another replica's.
const MIGRATE_ATTEMPTS: u32 = 5;

/// Creates the PostgreSQL schema (`schema`, quoted, when given) and brings the tables up to
/// [`VERSION`]; fails `Unsupported` on a database a newer build wrote.
///
/// On PostgreSQL everything happens under one advisory lock, taken first: replicas that start
/// together on a new schema create it and migrate one after the other (`CREATE SCHEMA IF NOT
/// EXISTS` is not safe concurrently: two at once can fail with a unique violation on
/// `pg_namespace`). Such a race, should one still happen, is a conflict: tried again, then
/// `Unavailable`, never `Corrupt`.
pub(crate) async fn migrate(
    pool: &AnyPool,
    dialect: Dialect,
    schema: Option<&str>,
) -> Result<(), StoreError> {
    let mut tries = 0;
    loop {
        tries += 1;
        match migrate_once(pool, dialect, schema).await {
            Err(StoreError::Conflict(text)) if tries < MIGRATE_ATTEMPTS => {
                tracing::debug!(tries, %text, "a2a store migration raced another replica's; again");
                tokio::time::sleep(std::time::Duration::from_millis(20u64 << tries)).await;
            }
            Err(StoreError::Conflict(text)) => {
                return Err(StoreError::Unavailable(format!(
                    "the schema could not be set up: it kept racing another replica's ({text})"
                )));
            }
            other => return other,
        }
    }
}

async fn migrate_once(
    pool: &AnyPool,
    dialect: Dialect,
    schema: Option<&str>,
) -> Result<(), StoreError> {
    let mut tx = pool.begin().await.map_err(store_error)?;
    if dialect == Dialect::Postgres {
        // Replicas that start together migrate one after the other. The key: "a2a-store".
        tx.execute("SELECT CAST(pg_advisory_xact_lock(8243176102) AS TEXT)")
            .await
            .map_err(store_error)?;
        if let Some(schema) = schema {
            // The connections' search path names it already: names resolve once it exists.
            tx.execute(format!("CREATE SCHEMA IF NOT EXISTS {schema}").as_str())
                .await
                .map_err(store_error)?;
        }
    }
    tx.execute("CREATE TABLE IF NOT EXISTS a2a_schema (version BIGINT PRIMARY KEY)")
        .await
        .map_err(store_error)?;
    let current: i64 =
        sqlx::query("SELECT CAST(coalesce(max(version), 0) AS BIGINT) FROM a2a_schema")
            .fetch_one(&mut *tx)
            .await
            .and_then(|row| row.try_get(0))
            .map_err(store_error)?;
    if current > VERSION {
        return Err(StoreError::Unsupported(format!(
            "the database's a2a schema is version {current}, newer than this build's {VERSION}: \
             upgrade the server"
        )));
    }
    for (version, sql) in MIGRATIONS.iter().filter(|(v, _)| *v > current) {
        tx.execute(dialect_sql(dialect, sql).as_str())
            .await
            .map_err(|err| match store_error(err) {
                StoreError::Corrupt(text) => {
                    StoreError::Corrupt(format!("migration {version} failed: {text}"))
                }
                other => other,
            })?;
        sqlx::query("INSERT INTO a2a_schema (version) VALUES ($1)")
            .bind(*version)
            .execute(&mut *tx)
            .await
            .map_err(store_error)?;
        tracing::info!(version, "a2a task store schema migrated");
    }
    tx.commit().await.map_err(store_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serial_keys_per_dialect() {
        let sql = "CREATE TABLE x (id {serial});";
        assert_eq!(
            dialect_sql(Dialect::Sqlite, sql),
            "CREATE TABLE x (id INTEGER PRIMARY KEY AUTOINCREMENT);"
        );
        assert_eq!(
            dialect_sql(Dialect::Postgres, sql),
            "CREATE TABLE x (id BIGSERIAL PRIMARY KEY);"
        );
        assert!(MIGRATIONS.iter().all(|(v, _)| *v <= VERSION));
    }
}
