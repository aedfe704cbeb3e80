//! The databases of the drivers' store runs (`cargo xtask bench --scale-out`, and the `sqlite`
//! and `postgres` columns of `cargo xtask bench`): a PostgreSQL schema or a SQLite file per run,
//! gone after it, and the CPU of the database's own processes.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::procfs;

/// How long [`check`] waits for PostgreSQL before calling it unreachable.
const CHECK_TIMEOUT: Duration = Duration::from_secs(5);

/// Connects to the database at `url` with one connection that waits at most `timeout`.
async fn connect(url: &str, timeout: Duration) -> Result<sqlx::AnyPool, String> {
    sqlx::any::install_default_drivers();
    sqlx::any::AnyPoolOptions::new()
        .max_connections(1)
        .acquire_timeout(timeout)
        .connect(url)
        .await
        .map_err(|e| e.to_string())
}

/// Whether the database at `url` answers `SELECT 1` within 5 s, on one connection of its own
/// (a pool would retry a refused connection until its timeout and then say only that).
///
/// # Errors
/// What went wrong, as sqlx says it (refused, unknown database, bad password), or the timeout.
pub async fn check(url: &str) -> Result<(), String> {
    use sqlx::Connection as _;
    sqlx::any::install_default_drivers();
    let attempt = async {
        let mut conn = sqlx::AnyConnection::connect(url)
            .await
            .map_err(|e| e.to_string())?;
        sqlx::query("SELECT 1")
            .execute(&mut conn)
            .await
            .map_err(|e| e.to_string())?;
        conn.close().await.map_err(|e| e.to_string())
    };
    tokio::time::timeout(CHECK_TIMEOUT, attempt)
        .await
        .map_err(|_| format!("no answer within {} s", CHECK_TIMEOUT.as_secs()))?
}

/// Drops schema `schema` of the database at `url`, with everything in it (`IF EXISTS`: a run
/// that never created it is no error).
///
/// # Errors
/// The database cannot be reached, or refuses the `DROP`.
pub async fn drop_schema(url: &str, schema: &str) -> Result<(), String> {
    let sql = format!("DROP SCHEMA IF EXISTS {} CASCADE", quoted(schema));
    let pool = connect(url, Duration::from_secs(30))
        .await
        .map_err(|e| format!("the database at {url}: {e}"))?;
    let result = sqlx::query(&sql)
        .execute(&pool)
        .await
        .map(|_| ())
        .map_err(|e| format!("{sql}: {e}"));
    pool.close().await;
    result
}

/// `name` as a PostgreSQL quoted identifier (`"` doubled inside).
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// A fresh name for a schema of this process: `a2a_bench_<pid>_<what>`, `what` reduced to
/// lower-case letters, digits and `_`.
pub fn schema_name(what: &str) -> String {
    let what: String = what
        .chars()
        .map(|c| match c {
            'a'..='z' | '0'..='9' => c,
            'A'..='Z' => c.to_ascii_lowercase(),
            _ => '_',
        })
        .collect();
    format!("a2a_bench_{}_{what}", std::process::id())
}

/// A SQLite database file of one run: `dir/a2a-bench-<pid>-<what>.db`, removed (with its
/// `-wal` and `-shm` files) when dropped.
#[derive(Debug)]
pub struct SqliteFile {
    path: PathBuf,
}

impl SqliteFile {
    /// The file's name in `dir`; any file of that name left by an earlier run is removed first.
    pub fn new(dir: &Path, what: &str) -> Self {
        let path = dir.join(format!("a2a-bench-{}-{what}.db", std::process::id()));
        let file = Self { path };
        file.remove();
        file
    }

    /// The store URL of the file, `sqlite://PATH` (the store creates the file).
    pub fn url(&self) -> String {
        format!("sqlite://{}", self.path.display())
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn remove(&self) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let mut name = self.path.clone().into_os_string();
            name.push(suffix);
            let _ = std::fs::remove_file(name);
        }
    }
}

impl Drop for SqliteFile {
    fn drop(&mut self) {
        self.remove();
    }
}

/// CPU seconds so far (utime + stime of `/proc/<pid>/stat`) of every process on the machine
/// whose `/proc/<pid>/comm` is one of `names`, summed per name, in the order of `names`.
///
/// PostgreSQL serves each connection from a backend process of its own (`comm` `postgres`),
/// beside its postmaster, checkpointer, WAL writer, autovacuum launcher and the rest: the
/// growth of the sum over a run is what the database spent meanwhile, for whoever asked (other
/// clients of the same server count too), and a process that ended between two snapshots
/// takes its seconds away with it.
pub fn cpu_by_name(names: &[&str], clock_ticks: u64) -> Vec<f64> {
    let mut sums = vec![0.0; names.len()];
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return sums;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(comm) = std::fs::read_to_string(format!("/proc/{pid}/comm")) else {
            continue;
        };
        if let Some(i) = names.iter().position(|n| *n == comm.trim_end()) {
            sums[i] += procfs::cpu_time(pid, clock_ticks).map_or(0.0, |d| d.as_secs_f64());
        }
    }
    sums
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_names_are_plain_identifiers() {
        let pid = std::process::id();
        assert_eq!(
            schema_name("postgres-rates"),
            format!("a2a_bench_{pid}_postgres_rates")
        );
        assert_eq!(schema_name("Stream 2"), format!("a2a_bench_{pid}_stream_2"));
        assert_eq!(quoted("a\"b"), "\"a\"\"b\"");
    }

    #[test]
    fn a_sqlite_file_is_gone_with_its_companions() {
        let dir = std::env::temp_dir();
        let file = SqliteFile::new(&dir, "unit-test");
        let path = file.path().to_owned();
        assert_eq!(
            path,
            dir.join(format!("a2a-bench-{}-unit-test.db", std::process::id()))
        );
        assert_eq!(file.url(), format!("sqlite://{}", path.display()));
        let wal = PathBuf::from(format!("{}-wal", path.display()));
        std::fs::write(&path, b"x").unwrap();
        std::fs::write(&wal, b"x").unwrap();
        drop(file);
        assert!(!path.exists());
        assert!(!wal.exists());
    }

    #[test]
    fn counts_this_process_by_its_name() {
        let ticks = procfs::clock_ticks();
        // At least 50 ms of CPU in this process, a few clock ticks.
        let mut spin = 0u64;
        while procfs::cpu_time(std::process::id(), ticks).unwrap() < Duration::from_millis(50) {
            spin = std::hint::black_box(spin.wrapping_add(1));
        }
        let comm = std::fs::read_to_string("/proc/self/comm").unwrap();
        let sums = cpu_by_name(&[comm.trim_end(), "no-such-process"], ticks);
        assert_eq!(sums.len(), 2);
        assert!(sums[0] >= 0.05, "{sums:?}");
        assert!(sums[1] <= 0.0, "{sums:?}");
    }
}
