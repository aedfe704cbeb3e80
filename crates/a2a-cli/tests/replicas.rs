//! `a2a serve --store`: tasks outlive the server (`kill -9` with SQLite and PostgreSQL, then a
//! restart), and two servers on one PostgreSQL serve one agent: a stream on B follows a task
//! running on A, a cancel sent to B stops the agent on A, a stream resumes with Last-Event-ID on
//! the other replica. PostgreSQL at 127.0.0.1:5432 (`A2A_TEST_POSTGRES_URL` overrides) must be
//! reachable: without it these tests fail at once saying so (never skip).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

mod support;

use support::Serve;

use a2a_client::A2aClient;
use a2a_types::v1::{
    CancelTaskRequest, GetTaskRequest, Message, SendMessageConfiguration, SendMessageRequest,
    SendMessageResponse, StreamResponse, SubscribeToTaskRequest, Task, TaskId, TaskState,
};
use futures_util::StreamExt as _;

/// One `a2a serve` process on a free port; killed (SIGKILL) when dropped.
struct Replica(Serve);

impl Replica {
    fn start(store: &[String], exec: &str) -> Self {
        let mut args = vec!["--no-grpc", "--exec", exec];
        args.extend(store.iter().map(String::as_str));
        Self(Serve::start(&args))
    }

    fn url(&self) -> &str {
        &self.0.url
    }

    async fn client(&self) -> A2aClient {
        A2aClient::connect(self.url()).await.unwrap()
    }

    /// `kill -9`: no shutdown of any kind.
    fn kill(self) {
        self.0.kill();
    }
}

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

/// The `--store` options of a PostgreSQL store in a schema of its own. Fails at once, naming
/// PostgreSQL, when nothing accepts a connection at its address: `a2a serve` would only exit
/// before printing the line the test reads.
fn postgres_store() -> Vec<String> {
    let url = std::env::var("A2A_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned());
    if let Err(why) = reachable(&postgres_address(&url)) {
        panic!("{why}");
    }
    vec![
        "--store".to_owned(),
        url,
        "--store-schema".to_owned(),
        unique("a2a_cli"),
    ]
}

/// The `host:port` of a PostgreSQL URL (port 5432 when it names none).
fn postgres_address(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?']).next().unwrap_or_default();
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, hp)| hp);
    if host_port
        .rsplit_once(':')
        .is_some_and(|(_, port)| port.parse::<u16>().is_ok())
    {
        host_port.to_owned()
    } else {
        format!("{host_port}:5432")
    }
}

/// Whether something accepts a TCP connection at `address`; the failure names PostgreSQL.
fn reachable(address: &str) -> Result<(), String> {
    use std::net::ToSocketAddrs as _;
    let unreachable = |why: String| {
        format!(
            "PostgreSQL is not reachable at {address} ({why}); these tests of `a2a serve --store \
             postgres://...` need it: start it (trust auth, user postgres, database test) or set \
             A2A_TEST_POSTGRES_URL"
        )
    };
    let mut why = "no address".to_owned();
    for addr in address
        .to_socket_addrs()
        .map_err(|e| unreachable(e.to_string()))?
    {
        match std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(3)) {
            Ok(_) => return Ok(()),
            Err(e) => why = e.to_string(),
        }
    }
    Err(unreachable(why))
}

#[test]
fn an_unreachable_postgres_is_named() {
    assert_eq!(
        postgres_address("postgres://u:p@db.local:6543/test"),
        "db.local:6543"
    );
    assert_eq!(postgres_address("postgres://u@db/test"), "db:5432");
    let refused = reachable(&postgres_address("postgres://postgres@127.0.0.1:1/test")).unwrap_err();
    assert!(
        refused.starts_with("PostgreSQL is not reachable at 127.0.0.1:1 ("),
        "{refused}"
    );
    assert!(
        refused.ends_with("or set A2A_TEST_POSTGRES_URL"),
        "{refused}"
    );
}

fn sqlite_store() -> (Vec<String>, std::path::PathBuf) {
    let path = std::env::temp_dir().join(format!("{}.db", unique("a2a_cli")));
    let store = vec!["--store".to_owned(), format!("sqlite://{}", path.display())];
    (store, path)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// Lines `line1` .. `lineN`, one every `gap` seconds (the exec agent streams each line as an
/// artifact chunk once the next one comes).
fn lines(n: u32, gap: f64) -> String {
    format!("for i in $(seq 1 {n}); do echo line$i; sleep {gap}; done")
}

async fn start_task(client: &A2aClient) -> TaskId {
    let request = SendMessageRequest::new(Message::user_text("go"))
        .with_configuration(SendMessageConfiguration::default().with_return_immediately(true));
    match client.send_message(request).await.unwrap() {
        SendMessageResponse::Task(task) => task.id,
        other => panic!("a task, not {other:?}"),
    }
}

/// The artifact texts (each line without its newline) and the last state of events.
fn summary(events: &[StreamResponse]) -> (Vec<String>, Option<TaskState>) {
    let mut texts = Vec::new();
    let mut state = None;
    for event in events {
        match event {
            StreamResponse::ArtifactUpdate(update) => texts.extend(
                update
                    .artifact
                    .parts
                    .iter()
                    .filter_map(|p| p.as_text().map(|t| t.trim_end().to_owned())),
            ),
            StreamResponse::StatusUpdate(update) => state = Some(update.status.state),
            StreamResponse::Task(task) => state = Some(task.status.state),
            _ => {}
        }
    }
    (texts, state)
}

async fn get(client: &A2aClient, id: &TaskId) -> Task {
    client
        .get_task(GetTaskRequest::new(id.clone()))
        .await
        .unwrap()
}

#[test]
fn a_stream_on_b_sees_every_event_of_a_task_running_on_a_and_resumes_on_a() {
    stream_on_b_resumes_on_a(&postgres_store());
}

#[test]
fn nats_a_stream_on_b_sees_every_event_of_a_task_running_on_a_and_resumes_on_a() {
    let nats = Nats::start();
    stream_on_b_resumes_on_a(&nats_store(&nats));
}

fn stream_on_b_resumes_on_a(store: &[String]) {
    let a = Replica::start(store, &lines(5, 0.3));
    let b = Replica::start(store, "cat");
    runtime().block_on(async {
        let (on_a, on_b) = (a.client().await, b.client().await);
        let id = start_task(&on_a).await;
        let mut stream = on_b
            .subscribe_to_task(SubscribeToTaskRequest::new(id.clone()))
            .await
            .unwrap();
        // The task first, then two events; then the stream goes away mid-task.
        let mut seen = Vec::new();
        for _ in 0..3 {
            seen.push(stream.next().await.unwrap().unwrap());
        }
        let last_id = stream.last_event_id().expect("events carry ids").to_owned();
        drop(stream);
        // Resumed on the other replica right after that event: the rest, in order, none twice.
        let rest = on_a
            .subscribe_to_task_after(SubscribeToTaskRequest::new(id.clone()), Some(last_id))
            .await
            .unwrap();
        let rest: Vec<StreamResponse> =
            tokio::time::timeout(Duration::from_secs(30), rest.map(Result::unwrap).collect())
                .await
                .expect("the task ends");
        seen.extend(rest);
        let (texts, state) = summary(&seen);
        assert_eq!(texts, ["line1", "line2", "line3", "line4", "line5"]);
        assert_eq!(state, Some(TaskState::Completed));
        assert_eq!(get(&on_b, &id).await.status.state, TaskState::Completed);
    });
}

#[test]
fn a_cancel_sent_to_b_stops_the_agent_running_on_a() {
    cancel_on_b_stops_a(&postgres_store());
}

#[test]
fn nats_a_cancel_sent_to_b_stops_the_agent_running_on_a() {
    let nats = Nats::start();
    cancel_on_b_stops_a(&nats_store(&nats));
}

fn cancel_on_b_stops_a(store: &[String]) {
    let marker = std::env::temp_dir().join(unique("a2a_cli_cancel"));
    let exec = format!("echo started; sleep 4; touch {}", marker.display());
    let a = Replica::start(store, &exec);
    let b = Replica::start(store, "cat");
    runtime().block_on(async {
        let (on_a, on_b) = (a.client().await, b.client().await);
        let id = start_task(&on_a).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let canceled = on_b
            .cancel_task(CancelTaskRequest::new(id.clone()))
            .await
            .unwrap();
        assert_eq!(canceled.status.state, TaskState::Canceled);
        assert_eq!(get(&on_a, &id).await.status.state, TaskState::Canceled);
        // The command on A was killed: it never gets to touch the marker.
        tokio::time::sleep(Duration::from_secs(6)).await;
    });
    assert!(
        !marker.exists(),
        "the agent on A ran to its end after the cancel on B"
    );
}

/// `kill -9` mid-stream, restart on the same store: every event the client saw is there, and
/// the task the dead server ran ends FAILED by the lease policy.
fn survives_kill_9(store: &[String]) {
    // A short lease, so that the restarted server resolves the task soon.
    let store = &[store, &["--store-lease".to_owned(), "2".to_owned()]].concat();
    let exec = lines(30, 0.2);
    let first = Replica::start(store, &exec);
    let (id, seen) = runtime().block_on(async {
        let client = first.client().await;
        let request = SendMessageRequest::new(Message::user_text("go"));
        let mut stream = client.send_streaming_message(request).await.unwrap();
        let mut seen = Vec::new();
        // The task and three chunks.
        while summary(&seen).0.len() < 3 {
            seen.push(stream.next().await.unwrap().unwrap());
        }
        let id = stream.task_id().cloned().expect("a task stream");
        (id, seen)
    });
    first.kill();
    let again = Replica::start(store, &exec);
    runtime().block_on(async {
        let client = again.client().await;
        let task = get(&client, &id).await;
        let (seen_texts, _) = summary(&seen);
        let kept: Vec<String> = task.artifacts[0]
            .parts
            .iter()
            .filter_map(|p| p.as_text().map(|t| t.trim_end().to_owned()))
            .collect();
        assert!(
            kept.starts_with(&seen_texts),
            "acknowledged {seen_texts:?}, kept {kept:?}"
        );
        // The whole log is there to resume from the first event.
        let log = client
            .subscribe_to_task_after(SubscribeToTaskRequest::new(id.clone()), Some("1".into()))
            .await
            .unwrap();
        let log: Vec<StreamResponse> =
            tokio::time::timeout(Duration::from_secs(30), log.map(Result::unwrap).collect())
                .await
                .expect("the stream ends with the task");
        let (texts, state) = summary(&log);
        assert!(texts.starts_with(&seen_texts), "{texts:?}");
        assert_eq!(state, Some(TaskState::Failed));
        let task = get(&client, &id).await;
        assert_eq!(task.status.state, TaskState::Failed);
        let why = task.status.message.unwrap().parts[0]
            .as_text()
            .unwrap()
            .to_owned();
        assert_eq!(
            why,
            "The replica running this task stopped before the task ended (its lease ran out); \
             send the message again to start a new task."
        );
    });
}

#[test]
fn sqlite_tasks_survive_kill_9() {
    let (store, path) = sqlite_store();
    survives_kill_9(&store);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn postgres_tasks_survive_kill_9() {
    survives_kill_9(&postgres_store());
}

#[test]
fn nats_tasks_survive_kill_9() {
    let nats = Nats::start();
    survives_kill_9(&nats_store(&nats));
}

/// `kill -9` of the replica running the agent, mid-stream: the client resumes on the other
/// replica with `Last-Event-ID` and gets the rest of what was acknowledged, nothing twice,
/// then the task's end by the lease policy.
fn resumes_elsewhere_after_kill_9(store: &[String]) {
    let store = &[store, &["--store-lease".to_owned(), "2".to_owned()]].concat();
    let a = Replica::start(store, &lines(30, 0.2));
    let b = Replica::start(store, "cat");
    runtime().block_on(async {
        let on_a = a.client().await;
        let request = SendMessageRequest::new(Message::user_text("go"));
        let mut stream = on_a.send_streaming_message(request).await.unwrap();
        let mut seen = Vec::new();
        while summary(&seen).0.len() < 3 {
            seen.push(stream.next().await.unwrap().unwrap());
        }
        let id = stream.task_id().cloned().expect("a task stream");
        let last_id = stream.last_event_id().expect("events carry ids").to_owned();
        drop(stream);
        a.kill();
        let on_b = b.client().await;
        let rest = on_b
            .subscribe_to_task_after(SubscribeToTaskRequest::new(id.clone()), Some(last_id))
            .await
            .unwrap();
        let rest: Vec<StreamResponse> =
            tokio::time::timeout(Duration::from_secs(30), rest.map(Result::unwrap).collect())
                .await
                .expect("the task ends by the lease policy");
        seen.extend(rest);
        let (texts, state) = summary(&seen);
        let expected: Vec<String> = (1..=texts.len()).map(|i| format!("line{i}")).collect();
        assert_eq!(texts, expected, "every line once, in order");
        assert_eq!(state, Some(TaskState::Failed));
        // Everything the task keeps, the client saw.
        let kept = get(&on_b, &id).await.artifacts[0].parts.len();
        assert_eq!(kept, texts.len());
    });
}

#[test]
fn postgres_a_stream_resumes_on_b_after_kill_9_of_a() {
    resumes_elsewhere_after_kill_9(&postgres_store());
}

#[test]
fn nats_a_stream_resumes_on_b_after_kill_9_of_a() {
    let nats = Nats::start();
    resumes_elsewhere_after_kill_9(&nats_store(&nats));
}

/// nats-server killed and restarted while a task streams to a client of the other replica:
/// the stream pauses, then goes on with every line once, in order.
#[test]
fn nats_restarted_mid_stream_is_a_pause_never_a_gap() {
    let mut nats = Nats::start();
    let store = nats_store(&nats);
    let a = Replica::start(&store, &lines(20, 0.2));
    let b = Replica::start(&store, "cat");
    runtime().block_on(async {
        let (on_a, on_b) = (a.client().await, b.client().await);
        let id = start_task(&on_a).await;
        let stream = on_b
            .subscribe_to_task(SubscribeToTaskRequest::new(id.clone()))
            .await
            .unwrap();
        let reader = tokio::spawn(async move {
            tokio::time::timeout(
                Duration::from_secs(60),
                stream.map(Result::unwrap).collect::<Vec<_>>(),
            )
            .await
            .expect("the task ends")
        });
        tokio::time::sleep(Duration::from_secs(1)).await;
        nats.kill();
        tokio::time::sleep(Duration::from_secs(2)).await;
        nats.restart();
        let seen = reader.await.unwrap();
        let (texts, state) = summary(&seen);
        let expected: Vec<String> = (1..=20).map(|i| format!("line{i}")).collect();
        assert_eq!(texts, expected);
        assert_eq!(state, Some(TaskState::Completed));
    });
}

/// A `nats-server -js` of the test's own (a free port, a temporary store directory), so that
/// a test can kill and restart it; killed when dropped, and by a watchdog when the test
/// process dies first.
struct Nats {
    child: Option<std::process::Child>,
    port: u16,
    dir: std::path::PathBuf,
}

impl Nats {
    fn start() -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let dir = std::env::temp_dir().join(unique("a2a_cli_nats"));
        let mut nats = Self {
            child: None,
            port,
            dir,
        };
        nats.restart();
        nats
    }

    /// Starts the server (again: same port, same store directory); waits until it accepts.
    fn restart(&mut self) {
        use std::process::{Command, Stdio};
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
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
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

/// The `--store` and `--events` options of a PostgreSQL store whose events go over `nats`.
fn nats_store(nats: &Nats) -> Vec<String> {
    let mut store = postgres_store();
    store.extend([
        "--events".to_owned(),
        format!("nats://127.0.0.1:{}", nats.port),
    ]);
    store
}
