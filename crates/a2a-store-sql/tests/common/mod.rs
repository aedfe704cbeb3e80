//! Fresh stores for the tests: a temporary SQLite file, or a PostgreSQL schema of its own at
//! 127.0.0.1:5432 (`A2A_TEST_POSTGRES_URL` overrides), which must be reachable: the tests fail,
//! never skip, without it.
#![allow(dead_code, unreachable_pub)]

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use a2a_store_sql::{SqlConfig, SqlStore};

static NEXT: AtomicU64 = AtomicU64::new(0);

/// A name no other test of any run uses.
pub fn unique(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!(
        "{prefix}_{}_{}_{nanos}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

pub fn postgres_url() -> String {
    std::env::var("A2A_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned())
}

pub fn sqlite_path() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("{}.db", unique("a2a_store_test")))
}

pub fn sqlite_config() -> SqlConfig {
    SqlConfig::new(format!("sqlite://{}", sqlite_path().display()))
        .with_poll_interval(Duration::from_millis(200))
}

pub fn postgres_config() -> SqlConfig {
    SqlConfig::new(postgres_url())
        .with_schema(unique("a2a_test"))
        .with_max_connections(4)
        .with_poll_interval(Duration::from_millis(200))
}

pub async fn connect(config: SqlConfig) -> SqlStore {
    let url = config.url.clone();
    match SqlStore::connect(config).await {
        Ok(store) => store,
        Err(err) => panic!("cannot connect the test store at {url}: {err}"),
    }
}
