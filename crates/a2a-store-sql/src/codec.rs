//! Values as the tables hold them, and database errors as [`StoreError`] kinds.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use a2a_server::auth::Principal;
use a2a_server::store::{Owner, StoreError};
use a2a_types::protocol::ProtocolVersion;
use a2a_types::v1::{Task, TaskState, Timestamp};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A version as stored.
pub(crate) fn version_text(protocol_version: ProtocolVersion) -> &'static str {
    match protocol_version {
        ProtocolVersion::V0_3 => "0.3",
        ProtocolVersion::V0_1 => "0.1",
        _ => "1.0",
    }
}

pub(crate) fn version_of(text: &str) -> Result<ProtocolVersion, StoreError> {
    match text {
        "1.0" => Ok(ProtocolVersion::V1),
        "0.3" => Ok(ProtocolVersion::V0_3),
        "0.1" => Ok(ProtocolVersion::V0_1),
        other => Err(StoreError::Corrupt(format!(
            "stored version `{other}` is none of 1.0, 0.3, 0.1"
        ))),
    }
}

/// An owner as two columns that compare with `=`: `""` for none, `"=" + value` for some.
pub(crate) fn owner_columns(owner: &Owner) -> (String, String) {
    let column = |value: Option<&str>| value.map_or_else(String::new, |v| format!("={v}"));
    (
        column(owner.principal.as_ref().map(Principal::id)),
        column(owner.tenant.as_deref()),
    )
}

pub(crate) fn owner_of(principal: &str, tenant: &str) -> Owner {
    let value = |column: &str| column.strip_prefix('=').map(str::to_owned);
    Owner::new(value(principal).map(Principal::new), value(tenant))
}

/// A task state as stored: its wire name (`TASK_STATE_WORKING`).
pub(crate) fn state_text(state: TaskState) -> String {
    match serde_json::to_value(state) {
        Ok(serde_json::Value::String(name)) => name,
        _ => format!("{state:?}"),
    }
}

pub(crate) fn state_of(text: &str) -> Result<TaskState, StoreError> {
    serde_json::from_value(serde_json::Value::String(text.to_owned()))
        .map_err(|err| StoreError::Corrupt(format!("stored task state `{text}`: {err}")))
}

/// The list order of a task: its status time in nanoseconds (0 without one), clamped to i64.
pub(crate) fn time_key(task: &Task) -> i64 {
    task.status.timestamp.map_or(0, timestamp_key)
}

pub(crate) fn timestamp_key(t: Timestamp) -> i64 {
    let nanos = i128::from(t.unix_seconds()) * 1_000_000_000 + i128::from(t.subsec_nanos());
    i64::try_from(nanos).unwrap_or(if nanos < 0 { i64::MIN } else { i64::MAX })
}

/// Microseconds since the epoch.
pub(crate) fn micros(t: SystemTime) -> i64 {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_micros()).unwrap_or(i64::MAX),
        Err(before) => -i64::try_from(before.duration().as_micros()).unwrap_or(i64::MAX),
    }
}

pub(crate) fn from_micros(us: i64) -> SystemTime {
    let magnitude = Duration::from_micros(us.unsigned_abs());
    if us >= 0 {
        UNIX_EPOCH + magnitude
    } else {
        UNIX_EPOCH - magnitude
    }
}

pub(crate) fn to_json<T: Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value)
        .map_err(|err| StoreError::Corrupt(format!("cannot encode a value to store: {err}")))
}

pub(crate) fn from_json<T: DeserializeOwned>(text: &str, what: &str) -> Result<T, StoreError> {
    serde_json::from_str(text)
        .map_err(|err| StoreError::Corrupt(format!("stored {what} does not decode: {err}")))
}

/// u64 counts and sequence numbers in BIGINT columns.
pub(crate) fn int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

pub(crate) fn uint(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// The longest error text kept per delivery and configuration (as the in-memory outbox).
const MAX_ERROR_TEXT: usize = 1024;

pub(crate) fn cut(text: String) -> String {
    a2a_types::text::truncated(text, MAX_ERROR_TEXT, " ...")
}

/// What went wrong, by kind.
pub(crate) fn store_error(err: sqlx::Error) -> StoreError {
    use sqlx::Error;
    match &err {
        Error::Database(db) => {
            let code = db.code().map(|c| c.into_owned()).unwrap_or_default();
            match code.as_str() {
                // PostgreSQL serialization failure, deadlock; SQLite BUSY, LOCKED and their
                // extended codes (BUSY_SNAPSHOT 517, BUSY_RECOVERY 261, LOCKED_SHAREDCACHE 262).
                "40001" | "40P01" | "5" | "6" | "261" | "262" | "517" => {
                    StoreError::Conflict(db.message().to_owned())
                }
                // PostgreSQL: a unique key (23505) or an object (42P06 schema, 42P07 table,
                // 42710 other) that a concurrent transaction made first. Inserting a task that
                // exists is told apart before this (`is_unique_violation`); anything else is a
                // race, worth trying again, never a sign of corrupt data.
                "23505" | "42P06" | "42P07" | "42710" => {
                    StoreError::Conflict(format!("{code}: {}", db.message()))
                }
                // PostgreSQL: connection and resource classes, admin shutdown.
                c if c.starts_with("08") || c.starts_with("53") || c.starts_with("57") => {
                    StoreError::Unavailable(db.message().to_owned())
                }
                _ => StoreError::Corrupt(format!("database error {code}: {}", db.message())),
            }
        }
        Error::PoolTimedOut => StoreError::Unavailable(
            "no database connection became free in time (acquire_timeout)".to_owned(),
        ),
        Error::PoolClosed | Error::WorkerCrashed => {
            StoreError::Unavailable("the database pool is closed".to_owned())
        }
        Error::Io(io) => StoreError::Unavailable(format!("database I/O: {io}")),
        Error::Tls(tls) => StoreError::Unavailable(format!("database TLS: {tls}")),
        Error::Protocol(text) => StoreError::Unavailable(format!("database protocol: {text}")),
        Error::Configuration(text) => {
            StoreError::Unsupported(format!("database configuration: {text}"))
        }
        _ => StoreError::Corrupt(err.to_string()),
    }
}

/// Whether a failed insert hit a unique key (a task id that exists).
pub(crate) fn is_unique_violation(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::Database(db) if db.is_unique_violation())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owners_round_trip_through_their_columns() {
        let owners = [
            Owner::default(),
            Owner::new(Some(Principal::new("alice")), None),
            Owner::new(None, Some("acme".to_owned())),
            Owner::new(Some(Principal::new("")), Some("=x".to_owned())),
        ];
        for owner in owners {
            let (p, t) = owner_columns(&owner);
            assert_eq!(owner_of(&p, &t), owner);
        }
        assert_eq!(
            owner_columns(&Owner::new(Some(Principal::new("a")), None)),
            ("=a".to_owned(), String::new())
        );
    }

    #[test]
    fn states_and_versions_are_their_wire_names() {
        assert_eq!(
            state_text(TaskState::InputRequired),
            "TASK_STATE_INPUT_REQUIRED"
        );
        assert_eq!(state_of("TASK_STATE_WORKING"), Ok(TaskState::Working));
        assert!(matches!(state_of("nope"), Err(StoreError::Corrupt(_))));
        for g in [
            ProtocolVersion::V1,
            ProtocolVersion::V0_3,
            ProtocolVersion::V0_1,
        ] {
            assert_eq!(version_of(version_text(g)), Ok(g));
        }
    }

    #[test]
    fn times_round_trip_in_microseconds() {
        let t = UNIX_EPOCH + Duration::from_micros(1_700_000_000_123_456);
        assert_eq!(micros(t), 1_700_000_000_123_456);
        assert_eq!(from_micros(micros(t)), t);
        assert_eq!(from_micros(-5), UNIX_EPOCH - Duration::from_micros(5));
    }

    #[test]
    fn error_texts_are_cut_at_a_character_boundary() {
        let long = "é".repeat(600);
        let cut = cut(long);
        assert_eq!(cut.len(), 1024 + 4);
        assert!(cut.ends_with(" ..."));
    }
}
