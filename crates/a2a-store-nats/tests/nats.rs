//! `NatsEvents` over PostgreSQL (127.0.0.1:5432, a schema per test; `A2A_TEST_POSTGRES_URL`
//! overrides) with a `nats-server -js` of the test's own (a free port, a temporary store
//! directory), so that a test can kill and restart it: the store conformance suite, two
//! replicas, the crash between the SQL commit and the publish, NATS going away mid-stream.

use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use a2a_server::store::{Change, Owner, StoreError, TaskEdit, TaskStore};
use a2a_store_nats::{NatsConfig, NatsEvents};
use a2a_store_sql::{SqlConfig, SqlStore};
use a2a_types::protocol::ProtocolVersion;
use a2a_types::v1::{Artifact, Part, StreamResponse, Task, TaskId, TaskState, TaskStatus};

static NEXT: AtomicU64 = AtomicU64::new(0);

fn unique(prefix: &str) -> String {
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

/// A `nats-server -js` of the test's own; killed (SIGKILL) when dropped, and by a watchdog
/// when the test process dies first.
struct Nats {
    child: Option<Child>,
    port: u16,
    dir: PathBuf,
}

impl Nats {
    fn start() -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let dir = std::env::temp_dir().join(unique("a2a_nats"));
        let mut nats = Self {
            child: None,
            port,
            dir,
        };
        nats.restart();
        nats
    }

    fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// Starts the server (again: same port, same store directory) and waits until it accepts.
    fn restart(&mut self) {
        let child = Command::new("nats-server")
            .args([
                "-js",
                "-a",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-sd",
            ])
            .arg(&self.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|err| {
                panic!("cannot start nats-server (install it: apt-get install nats-server): {err}")
            });
        let _watchdog = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "while kill -0 {} 2>/dev/null; do sleep 1; done; kill -9 {} 2>/dev/null",
                std::process::id(),
                child.id()
            ))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        self.child = Some(child);
        for _ in 0..200 {
            if TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        panic!("nats-server did not accept on port {}", self.port);
    }

    /// `kill -9`.
    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn shared_nats() -> &'static Nats {
    static NATS: OnceLock<Nats> = OnceLock::new();
    NATS.get_or_init(Nats::start)
}

fn postgres_url() -> String {
    std::env::var("A2A_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned())
}

async fn sql(schema: &str) -> SqlStore {
    let config = SqlConfig::new(postgres_url())
        .with_schema(schema)
        .with_max_connections(4)
        .with_poll_interval(Duration::from_millis(200))
        .with_log_notify(false);
    SqlStore::connect(config)
        .await
        .unwrap_or_else(|err| panic!("cannot connect the test store at {}: {err}", postgres_url()))
}

/// One replica: its own SQL pool and NATS connection on a shared schema and stream.
async fn replica(nats_url: &str, schema: &str, stream: &str) -> NatsEvents<SqlStore> {
    let config = NatsConfig::new(nats_url)
        .with_prefix(stream.to_ascii_lowercase())
        .with_stream(stream)
        .with_poll_interval(Duration::from_millis(200))
        .with_publish_patience(Duration::from_secs(20));
    NatsEvents::connect(sql(schema).await, config)
        .await
        .unwrap_or_else(|err| panic!("cannot connect to NATS at {nats_url}: {err}"))
}

async fn fresh() -> Arc<dyn TaskStore> {
    let nats = shared_nats();
    Arc::new(
        replica(
            &nats.url(),
            &unique("a2a_nats"),
            &unique("A2A").replace('_', "-"),
        )
        .await,
    )
}

a2a_server::store_conformance_tests!(fresh);

fn task(id: &str) -> Task {
    Task::new(id, "c-1", TaskStatus::new(TaskState::Working))
}

fn chunk(n: u64) -> Change<'static> {
    Box::new(move |_task: &Task, _room| {
        Some(TaskEdit::Artifact {
            artifact: Artifact::new("a-1", vec![Part::text(format!("chunk {n}"))]),
            append: n > 2,
            last_chunk: false,
        })
    })
}

/// The text of each artifact event of a log, by sequence number.
fn texts(entries: &[a2a_server::store::LogEntry]) -> Vec<(u64, String)> {
    entries
        .iter()
        .map(|entry| match &entry.event {
            StreamResponse::ArtifactUpdate(update) => (
                entry.seq,
                serde_json::to_value(&update.artifact.parts[0]).unwrap()["text"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
            ),
            StreamResponse::Task(_) => (entry.seq, "the task".to_owned()),
            _ => (entry.seq, "another event".to_owned()),
        })
        .collect()
}

/// Reads task `id` on `store` as a stream does (wait, then read from its cursor) until event
/// `last`, within 20 s.
async fn follow(store: &dyn TaskStore, id: &TaskId, last: u64) -> Vec<(u64, String)> {
    let mut seen = Vec::new();
    let mut cursor = 0;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while cursor < last {
        let entries = store.read_log(id, cursor, 100).await.unwrap();
        if let Some(entry) = entries.last() {
            cursor = entry.seq;
            seen.extend(texts(&entries));
            continue;
        }
        tokio::time::timeout_at(deadline, store.wait(id, cursor))
            .await
            .unwrap_or_else(|_| panic!("no event after {cursor} within 20 s"))
            .unwrap();
    }
    seen
}

fn expected(from: u64, to: u64) -> Vec<(u64, String)> {
    (from..=to).map(|n| (n, format!("chunk {n}"))).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_on_another_replica_hears_every_event_once_in_order() {
    let nats = shared_nats();
    let (schema, stream) = (unique("a2a_nats"), unique("A2A").replace('_', "-"));
    let a = replica(&nats.url(), &schema, &stream).await;
    let b = replica(&nats.url(), &schema, &stream).await;
    let id = TaskId::from("t-1");
    a.create(
        task("t-1"),
        Owner::new(None, Some("acme".into())),
        ProtocolVersion::V1,
    )
    .await
    .unwrap();
    let reader = tokio::spawn(async move {
        let seen = follow(&b, &"t-1".into(), 40).await;
        (seen, b.followed())
    });
    for n in 2..=40 {
        a.update(&id, chunk(n), None).await.unwrap();
    }
    let (seen, followed) = reader.await.unwrap();
    assert_eq!(seen[0], (1, "the task".to_owned()));
    assert_eq!(seen[1..], expected(2, 40)[..]);
    assert_eq!(followed, 1, "replica B followed the task over NATS");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_committed_but_never_published_is_read_from_sql() {
    // The replica dies between the SQL commit and the publish: its inner store wrote event 3,
    // nobody published it.
    let nats = shared_nats();
    let (schema, stream) = (unique("a2a_nats"), unique("A2A").replace('_', "-"));
    let a = replica(&nats.url(), &schema, &stream).await;
    let b = replica(&nats.url(), &schema, &stream).await;
    let id = TaskId::from("t-1");
    a.create(task("t-1"), Owner::default(), ProtocolVersion::V1)
        .await
        .unwrap();
    a.update(&id, chunk(2), None).await.unwrap();
    // B follows from event 2.
    assert_eq!(follow(&b, &id, 2).await[1..], expected(2, 2)[..]);
    a.inner().update(&id, chunk(3), None).await.unwrap();
    // Without another event, B's follower finds it in SQL within its poll interval.
    let waited = tokio::time::timeout(Duration::from_secs(5), b.wait(&id, 2)).await;
    assert_eq!(waited, Ok(Ok(())));
    assert_eq!(
        texts(&b.read_log(&id, 2, 10).await.unwrap()),
        expected(3, 3)
    );
    // Event 5 arrives over NATS after another unpublished one: B reads 4 from SQL, in order.
    a.inner().update(&id, chunk(4), None).await.unwrap();
    a.update(&id, chunk(5), None).await.unwrap();
    assert_eq!(follow(&b, &id, 5).await[2..], expected(3, 5)[..]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nats_restarted_mid_stream_pauses_the_writer_and_loses_nothing() {
    let mut nats = Nats::start();
    let (schema, stream) = (unique("a2a_nats"), unique("A2A").replace('_', "-"));
    let a = Arc::new(replica(&nats.url(), &schema, &stream).await);
    let b = replica(&nats.url(), &schema, &stream).await;
    let id = TaskId::from("t-1");
    a.create(task("t-1"), Owner::default(), ProtocolVersion::V1)
        .await
        .unwrap();
    let reader = tokio::spawn(async move { follow(&b, &"t-1".into(), 30).await });
    for n in 2..=10 {
        a.update(&id, chunk(n), None).await.unwrap();
    }
    nats.kill();
    // The writer waits in its update (the agent's sink call) while NATS is away.
    let writer = {
        let a = a.clone();
        tokio::spawn(async move {
            for n in 11..=30 {
                a.update(&"t-1".into(), chunk(n), None).await.unwrap();
            }
        })
    };
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert!(
        !writer.is_finished(),
        "the writer pauses while NATS is away"
    );
    nats.restart();
    tokio::time::timeout(Duration::from_secs(30), writer)
        .await
        .expect("the writer goes on once NATS is back")
        .unwrap();
    let seen = tokio::time::timeout(Duration::from_secs(30), reader)
        .await
        .expect("the reader ends")
        .unwrap();
    assert_eq!(seen[1..], expected(2, 30)[..]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nats_away_past_the_patience_fails_the_write_saying_so() {
    let mut nats = Nats::start();
    let schema = unique("a2a_nats");
    let config = NatsConfig::new(nats.url())
        .with_prefix("p")
        .with_publish_patience(Duration::from_secs(1));
    let a = NatsEvents::connect(sql(&schema).await, config)
        .await
        .unwrap();
    let id = TaskId::from("t-1");
    a.create(task("t-1"), Owner::default(), ProtocolVersion::V1)
        .await
        .unwrap();
    nats.kill();
    let err = a.update(&id, chunk(2), None).await.unwrap_err();
    let StoreError::Unavailable(text) = &err else {
        panic!("not Unavailable: {err:?}")
    };
    let url = nats.url();
    assert!(
        text.starts_with(&format!(
            "the event log at {url}: did not acknowledge event 2 of task t-1 within 1 s ("
        )),
        "{text}"
    );
    assert!(
        text.ends_with("); the event is stored, readers find it there"),
        "{text}"
    );
    assert!(err.is_transient());
    // It is in SQL.
    assert_eq!(
        texts(&a.inner().read_log(&id, 1, 10).await.unwrap()),
        expected(2, 2)
    );
}

#[tokio::test]
async fn nats_that_is_not_there_is_named() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("nats://127.0.0.1:{port}");
    let err = NatsEvents::connect(sql(&unique("a2a_nats")).await, NatsConfig::new(&url))
        .await
        .unwrap_err();
    let StoreError::Unavailable(text) = err else {
        panic!("not Unavailable")
    };
    assert!(
        text.starts_with(&format!("the event log at {url}: cannot connect: ")),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_over_max_event_bytes_travels_without_its_body_and_is_read_from_sql() {
    let nats = shared_nats();
    let (schema, stream) = (unique("a2a_nats"), unique("A2A").replace('_', "-"));
    let config = |stream: &str| {
        NatsConfig::new(nats.url())
            .with_prefix(stream.to_ascii_lowercase())
            .with_stream(stream)
            .with_poll_interval(Duration::from_secs(30))
            .with_max_event_bytes(200)
    };
    let a = NatsEvents::connect(sql(&schema).await, config(&stream))
        .await
        .unwrap();
    let b = NatsEvents::connect(sql(&schema).await, config(&stream))
        .await
        .unwrap();
    let id = TaskId::from("t-1");
    a.create(task("t-1"), Owner::default(), ProtocolVersion::V1)
        .await
        .unwrap();
    a.update(&id, chunk(2), None).await.unwrap();
    assert_eq!(follow(&b, &id, 2).await[1..], expected(2, 2)[..]);
    // Over 200 bytes: published as a reference; B (whose poll is 30 s away) reads it from SQL
    // at once, and the small one after it over NATS.
    let big = "x".repeat(300);
    let edit: Change<'static> = Box::new(move |_task: &Task, _room| {
        Some(TaskEdit::Artifact {
            artifact: Artifact::new("a-1", vec![Part::text(big.clone())]),
            append: true,
            last_chunk: false,
        })
    });
    a.update(&id, edit, None).await.unwrap();
    a.update(&id, chunk(4), None).await.unwrap();
    let rest = tokio::time::timeout(Duration::from_secs(10), follow(&b, &id, 4))
        .await
        .expect("within the poll interval: not by the poll");
    assert_eq!(rest[2], (3, "x".repeat(300)));
    assert_eq!(rest[3..], expected(4, 4)[..]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beyond_max_followers_readers_wait_on_the_store() {
    let nats = shared_nats();
    let (schema, stream) = (unique("a2a_nats"), unique("A2A").replace('_', "-"));
    let config = NatsConfig::new(nats.url())
        .with_prefix(stream.to_ascii_lowercase())
        .with_stream(&stream)
        .with_max_followers(1);
    let a = replica(&nats.url(), &schema, &stream).await;
    let b = NatsEvents::connect(sql(&schema).await, config)
        .await
        .unwrap();
    for id in ["t-1", "t-2"] {
        a.create(task(id), Owner::default(), ProtocolVersion::V1)
            .await
            .unwrap();
    }
    let b = Arc::new(b);
    let readers: Vec<_> = ["t-1", "t-2"]
        .into_iter()
        .map(|id| {
            let b = b.clone();
            tokio::spawn(async move { follow(&*b, &id.into(), 5).await })
        })
        .collect();
    for n in 2..=5 {
        for id in ["t-1", "t-2"] {
            a.update(&id.into(), chunk(n), None).await.unwrap();
        }
    }
    for reader in readers {
        assert_eq!(reader.await.unwrap()[1..], expected(2, 5)[..]);
    }
    assert_eq!(
        b.followed(),
        1,
        "one task over NATS, the other on the store"
    );
}
