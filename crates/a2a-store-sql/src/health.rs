//! Knowing when the database is away, so that calls fail at once instead of each waiting the
//! pool's `acquire_timeout` (see the [crate docs](crate#when-the-database-goes-away)).
//!
//! A call that fails `Unavailable`, or that waits longer than [`SUSPECT_AFTER`], has the store
//! *suspect* the database: one background probe opens a connection of its own (no pool, no
//! retry: a refused connection fails at once) and runs `SELECT 1`, within [`PROBE_TIMEOUT`].
//! A probe that fails marks the database *down*: every call then fails at once with
//! `Unavailable` saying why (calls still waiting for a connection too), and the probe goes on,
//! with a backoff of 100 ms doubling to 1 s, until one succeeds. Then the database is *up*
//! again: calls go through, and every waiting reader of this process re-reads.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use a2a_server::store::StoreError;
use sqlx::{Connection as _, Executor as _};

use crate::wake::Waiters;

/// How long a call may wait before the store checks, in the background, that the database
/// is still there.
pub(crate) const SUSPECT_AFTER: Duration = Duration::from_secs(1);

/// The longest a probe may take to connect and answer (at most the pool's `acquire_timeout`).
pub(crate) const PROBE_TIMEOUT: Duration = Duration::from_secs(3);

/// The first wait between two failed probes; it doubles up to [`MAX_PROBE_BACKOFF`].
const FIRST_PROBE_BACKOFF: Duration = Duration::from_millis(100);

/// The longest wait between two failed probes: how late at most the store notices that the
/// database is back (plus the probe's own time).
const MAX_PROBE_BACKOFF: Duration = Duration::from_secs(1);

/// Where a store's database stands, shared by its calls and its probe.
#[derive(Debug)]
pub(crate) struct Health {
    /// The URL the probe connects to (as the pool does).
    url: String,
    /// The database's address for messages: `HOST:PORT`, or the SQLite file.
    pub(crate) target: String,
    probe_timeout: Duration,
    state: Mutex<State>,
    /// `true` while the database is down: calls waiting for a connection give up when it
    /// turns so.
    down: tokio::sync::watch::Sender<bool>,
    /// Woken when the database is back.
    waiters: Arc<Waiters>,
}

#[derive(Debug, Default)]
struct State {
    /// Why the database is down, while it is.
    down: Option<String>,
    /// A probe runs.
    probing: bool,
    /// When the database came back after it was down (`None`: it never was).
    recovered: Option<Instant>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Health {
    /// The health of the database at `url` (named `target` in messages); the probe waits at
    /// most `acquire_timeout` (and [`PROBE_TIMEOUT`]).
    pub(crate) fn new(
        url: String,
        target: String,
        acquire_timeout: Duration,
        waiters: Arc<Waiters>,
    ) -> Self {
        Self {
            url,
            target,
            probe_timeout: acquire_timeout.min(PROBE_TIMEOUT),
            state: Mutex::default(),
            down: tokio::sync::watch::channel(false).0,
            waiters,
        }
    }

    /// `Err` at once while the database is down.
    pub(crate) fn check(&self) -> Result<(), StoreError> {
        match &lock(&self.state).down {
            Some(why) => Err(self.refusal(why)),
            None => Ok(()),
        }
    }

    fn refusal(&self, why: &str) -> StoreError {
        StoreError::Unavailable(format!(
            "the database at {} cannot be reached ({why}); calls fail at once until a \
             background probe reaches it again",
            self.target
        ))
    }

    /// The error of calls while the database is down (also what a call that waited gets when
    /// it turned down meanwhile).
    pub(crate) fn down_error(&self) -> StoreError {
        let why = lock(&self.state).down.clone();
        self.refusal(why.as_deref().unwrap_or("it went away"))
    }

    /// Whether the database is known to be down.
    pub(crate) fn is_down(&self) -> bool {
        lock(&self.state).down.is_some()
    }

    /// Resolves once the database is known to be down (at once if it is).
    pub(crate) async fn went_down(&self) {
        let mut rx = self.down.subscribe();
        // The sender lives as long as `self`.
        let _ = rx.wait_for(|down| *down).await;
    }

    /// Resolves when the database is next back after being down (at the end of the current
    /// outage, if it is down now).
    pub(crate) async fn recovered(&self) {
        let mut rx = self.down.subscribe();
        let _ = rx.wait_for(|down| *down).await;
        let _ = rx.wait_for(|down| !*down).await;
    }

    /// How long ago the database came back after an outage (`None`: no outage was seen).
    pub(crate) fn recovered_for(&self) -> Option<Duration> {
        lock(&self.state).recovered.map(|at| at.elapsed())
    }

    /// Something failed as if the database were away: starts the probe, unless one runs.
    pub(crate) fn suspect(self: &Arc<Self>) {
        {
            let mut state = lock(&self.state);
            if state.probing {
                return;
            }
            state.probing = true;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            lock(&self.state).probing = false;
            return;
        };
        // The probe holds only a weak reference: a dropped store stops it.
        let health = Arc::downgrade(self);
        runtime.spawn(async move {
            let mut backoff = FIRST_PROBE_BACKOFF;
            loop {
                let Some(this) = health.upgrade() else { return };
                match this.probe().await {
                    Ok(()) => {
                        this.came_back();
                        return;
                    }
                    Err(why) => this.went_away(why),
                }
                drop(this);
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(MAX_PROBE_BACKOFF);
            }
        });
    }

    /// One connection of its own, `SELECT 1`, closed: `Err` says why not.
    async fn probe(&self) -> Result<(), String> {
        let attempt = async {
            let mut conn = sqlx::AnyConnection::connect(&self.url).await?;
            conn.execute("SELECT 1").await?;
            conn.close().await
        };
        match tokio::time::timeout(self.probe_timeout, attempt).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(err)) => Err(connect_failure(&err, &self.target)),
            Err(_) => Err(format!(
                "no answer from {} within {} ms",
                self.target,
                self.probe_timeout.as_millis()
            )),
        }
    }

    fn went_away(&self, why: String) {
        let mut state = lock(&self.state);
        if state.down.is_none() {
            tracing::warn!(database = %self.target, %why, "the task store's database cannot be reached; calls fail at once until it is back");
        }
        state.down = Some(why);
        drop(state);
        self.down.send_replace(true);
    }

    fn came_back(&self) {
        let mut state = lock(&self.state);
        state.probing = false;
        let was_down = state.down.take().is_some();
        if was_down {
            state.recovered = Some(Instant::now());
        }
        drop(state);
        if was_down {
            tracing::info!(database = %self.target, "the task store's database is reachable again");
            self.down.send_replace(false);
            // Readers that gave up a read re-read now.
            self.waiters.wake_all();
        }
    }
}

/// Why a connection to `target` could not be made, in a few words: "connection refused at
/// 127.0.0.1:5432".
pub(crate) fn connect_failure(err: &sqlx::Error, target: &str) -> String {
    match err {
        sqlx::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused => {
            format!("connection refused at {target}")
        }
        sqlx::Error::Io(io) => format!("{target}: {io}"),
        sqlx::Error::Tls(tls) => format!("TLS with {target}: {tls}"),
        sqlx::Error::PoolTimedOut => format!("no connection to {target} in time"),
        sqlx::Error::Database(db) => format!(
            "{target} refused the connection: {} {}",
            db.code().unwrap_or_default(),
            db.message()
        ),
        other => format!("{target}: {other}"),
    }
}

/// The address of the database a URL names, for messages: `HOST:PORT` for PostgreSQL (5432
/// when the URL names none), `file PATH` for SQLite.
pub(crate) fn target_of(url: &str) -> String {
    let rest = match url.split_once("://") {
        Some((_, rest)) => rest,
        None => url.split_once(':').map_or(url, |(_, rest)| rest),
    };
    if url.starts_with("sqlite") {
        let path = rest.split('?').next().unwrap_or(rest);
        return format!("file {path}");
    }
    let authority = rest.split(['/', '?']).next().unwrap_or(rest);
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, hp)| hp);
    let (host, port) = match host_port.strip_prefix('[') {
        Some(v6) => match v6.split_once(']') {
            Some((host, tail)) => (format!("[{host}]"), tail.strip_prefix(':')),
            None => (host_port.to_owned(), None),
        },
        None => match host_port.rsplit_once(':') {
            Some((host, port)) => (host.to_owned(), Some(port)),
            None => (host_port.to_owned(), None),
        },
    };
    let host = if host.is_empty() {
        "localhost".to_owned()
    } else {
        host
    };
    let port = port.filter(|p| !p.is_empty()).unwrap_or("5432");
    format!("{host}:{port}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_name_host_and_port_or_the_file() {
        assert_eq!(
            target_of("postgres://me:pw@db.internal:5999/x"),
            "db.internal:5999"
        );
        assert_eq!(target_of("postgres://me@db.internal/x"), "db.internal:5432");
        assert_eq!(target_of("postgresql://127.0.0.1:1/none"), "127.0.0.1:1");
        assert_eq!(target_of("postgres://[::1]:6000/x"), "[::1]:6000");
        assert_eq!(target_of("postgres://[::1]/x"), "[::1]:5432");
        assert_eq!(target_of("postgres:///x"), "localhost:5432");
        assert_eq!(target_of("sqlite:///tmp/a.db?mode=rwc"), "file /tmp/a.db");
        assert_eq!(target_of("sqlite:a.db"), "file a.db");
    }

    #[test]
    fn a_refused_connection_says_so_with_the_address() {
        let refused = sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionRefused));
        assert_eq!(
            connect_failure(&refused, "127.0.0.1:1"),
            "connection refused at 127.0.0.1:1"
        );
    }

    #[tokio::test]
    async fn a_failed_probe_marks_the_database_down() {
        sqlx::any::install_default_drivers();
        // Nothing listens on port 1: every probe is refused at once.
        let health = Arc::new(Health::new(
            "postgres://postgres@127.0.0.1:1/none".to_owned(),
            "127.0.0.1:1".to_owned(),
            Duration::from_secs(1),
            Arc::default(),
        ));
        health.check().unwrap();
        health.suspect();
        tokio::time::timeout(Duration::from_secs(10), health.went_down())
            .await
            .expect("the probe marks it down");
        assert_eq!(
            health.check().unwrap_err(),
            StoreError::Unavailable(
                "the database at 127.0.0.1:1 cannot be reached (connection refused at \
                 127.0.0.1:1); calls fail at once until a background probe reaches it again"
                    .to_owned()
            )
        );
        assert!(health.is_down());
        assert_eq!(health.recovered_for(), None);
    }
}
