//! PostgreSQL goes away and comes back, behind the workspace's fault proxy (`a2a-faults`)
//! between the service and the database: a cut shorter than the outage tolerance loses and
//! fails nothing and streams go on after the pause; a longer one ends the running tasks
//! FAILED with the reason once the database is back, leaves none WORKING, and renews leases
//! only for agents that still run; while the store knows the database is away every binding
//! answers a retryable 503 / `UNAVAILABLE` at once, the card stays served; the same with two
//! replicas. PostgreSQL at 127.0.0.1:5432 (`A2A_TEST_POSTGRES_URL` overrides) must be
//! reachable: these tests fail, never skip, without it.
#![cfg(feature = "postgres")]

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use a2a_faults::FaultProxy;
use a2a_server::agent::agent_fn;
use a2a_server::handler::{CallContext, EventStream, RequestHandler};
use a2a_server::store::TaskStore;
use a2a_server::{A2aService, HandlerConfig, ServeConfig};
use a2a_store_sql::{SqlConfig, SqlStore};
use a2a_types::v1::*;
use bytes::Bytes;
use futures_util::StreamExt as _;
use http_body_util::{BodyExt as _, Full};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use sqlx::Row as _;
use tokio::sync::Semaphore;

/// The database's address, from the test URL.
fn upstream() -> SocketAddr {
    let url = common::postgres_url();
    let authority = url
        .split_once("://")
        .map_or(url.as_str(), |(_, rest)| rest)
        .split('/')
        .next()
        .unwrap()
        .rsplit('@')
        .next()
        .unwrap()
        .to_owned();
    let with_port = if authority.contains(':') {
        authority
    } else {
        format!("{authority}:5432")
    };
    std::net::ToSocketAddrs::to_socket_addrs(&with_port)
        .unwrap()
        .next()
        .unwrap()
}

/// `config` with the test URL through `proxy`.
fn through(config: &SqlConfig, proxy: &FaultProxy) -> SqlConfig {
    let mut config = config.clone();
    config.url = url_through(proxy);
    config
}

/// The test URL, through `proxy`.
fn url_through(proxy: &FaultProxy) -> String {
    let url = common::postgres_url();
    let (scheme, rest) = url.split_once("://").unwrap();
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let userinfo = authority.rsplit_once('@').map(|(u, _)| format!("{u}@"));
    format!(
        "{scheme}://{}{}/{path}",
        userinfo.unwrap_or_default(),
        proxy.addr()
    )
}

/// An agent that reads "chunks N [live]": working, then N chunks of one artifact, each after
/// a permit of its gate ("live" tasks have a gate of their own), then completed.
fn agent(gate: Arc<Semaphore>, live: Arc<Semaphore>) -> impl a2a_server::Agent {
    agent_fn(move |ctx, sink| {
        let (gate, live) = (gate.clone(), live.clone());
        async move {
            let text = ctx.text();
            let gate = if text.ends_with(" live") { live } else { gate };
            let n: usize = text.split(' ').nth(1).unwrap_or("1").parse()?;
            sink.working(None).await?;
            for i in 0..n {
                gate.acquire().await?.forget();
                let chunk = Artifact::new("chunks", vec![Part::text(format!("c{i}"))]);
                sink.artifact_chunk(chunk, i > 0, i + 1 == n).await?;
            }
            sink.complete(None).await?;
            Ok(())
        }
    })
}

fn card() -> AgentCard {
    AgentCard::new("outage", "chunks", "1.0.0")
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
}

/// One replica: its store (through the proxy), its handler, its address (JSON-RPC,
/// HTTP+JSON and gRPC on one port).
struct Replica {
    store: SqlStore,
    handler: RequestHandler,
    addr: SocketAddr,
    _stop: tokio::sync::oneshot::Sender<()>,
}

struct Gates {
    gate: Arc<Semaphore>,
    live: Arc<Semaphore>,
}

impl Gates {
    fn new() -> Self {
        Self {
            gate: Arc::new(Semaphore::new(0)),
            live: Arc::new(Semaphore::new(0)),
        }
    }
}

async fn replica(config: SqlConfig, handler: HandlerConfig, gates: &Gates) -> Replica {
    let store = common::connect(config).await;
    let service = A2aService::builder(agent(gates.gate.clone(), gates.live.clone()), card())
        .handler_config(handler.with_shared_store(true))
        .store(store.clone())
        .build();
    let handler = service.handler().clone();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let shutdown = handler.clone();
    tokio::spawn(a2a_server::serve_with_shutdown(
        listener,
        a2a_grpc::server::SharedPort::new(service),
        async move {
            let _ = stopped.await;
        },
        ServeConfig::default()
            .with_shutdown_deadline(Duration::from_millis(200))
            .on_shutdown(move || shutdown.shutdown()),
    ));
    Replica {
        store,
        handler,
        addr,
        _stop: stop,
    }
}

/// The test's own view of the schema, not through the proxy.
async fn direct(config: &SqlConfig) -> SqlStore {
    let url = common::postgres_url();
    let mut direct = config.clone();
    direct.url = url;
    // Not a replica that judges leases.
    common::connect(direct.with_lease(None)).await
}

/// What each test starts from: a fault proxy in front of the database, a schema of the
/// test's own (leases of `lease`), the test's direct view of it, and the agents' gates.
struct Setup {
    proxy: FaultProxy,
    config: SqlConfig,
    view: SqlStore,
    gates: Gates,
}

impl Setup {
    async fn new(lease: Duration) -> Self {
        let proxy = FaultProxy::start(upstream()).await.unwrap();
        let config = common::postgres_config().with_lease(Some(lease));
        let view = direct(&config).await;
        Self {
            proxy,
            config,
            view,
            gates: Gates::new(),
        }
    }

    /// A replica named `name` on the schema, through the proxy, that waits `tolerance` for
    /// the database.
    async fn replica(&self, name: &str, tolerance: Duration) -> Replica {
        let config = through(&self.config, &self.proxy).with_replica(name);
        let handler = HandlerConfig::default().with_outage_tolerance(tolerance);
        replica(config, handler, &self.gates).await
    }
}

impl Setup {
    /// A short cut while `a`'s agent works on "chunks 3": the agent writes its first chunk
    /// into it (and waits), the database comes back once `a` knows it was away, then the agent
    /// goes on.
    async fn short_cut(&self, a: &Replica) {
        self.proxy.cut().await;
        self.gates.gate.add_permits(1);
        until(async || a.store.is_unreachable()).await;
        self.proxy.restore().await.unwrap();
        self.gates.gate.add_permits(2);
    }
}

/// The patience of replicas that must ride a cut out.
const PATIENT: Duration = Duration::from_secs(120);

/// Waits (polling) until `done`.
async fn until(mut done: impl AsyncFnMut() -> bool) {
    while !done().await {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn state(store: &SqlStore, id: &TaskId) -> TaskState {
    store.load(id).await.unwrap().unwrap().task.status.state
}

/// Starts "chunks N [live]" without waiting for it; its task once it works.
async fn started(replica: &Replica, text: &str, view: &SqlStore) -> Task {
    let request = SendMessageRequest::new(Message::user_text(text))
        .with_configuration(SendMessageConfiguration::default().with_return_immediately(true));
    let SendMessageResponse::Task(task) = replica
        .handler
        .send_message(request, &CallContext::new())
        .await
        .unwrap()
    else {
        panic!("a task")
    };
    until(async || state(view, &task.id).await == TaskState::Working).await;
    task
}

/// A stream on `replica` following `task`, past its first event (the task, working).
async fn following(replica: &Replica, task: &TaskId) -> EventStream {
    let mut stream = replica
        .handler
        .subscribe_to_task(task, None, &CallContext::new())
        .await
        .unwrap();
    let first = stream.next().await.unwrap().unwrap();
    assert_eq!(short(&first.event), "task Working");
    stream
}

/// The rest of a stream: each event's sequence number and what it says, in short.
async fn rest_of(stream: &mut EventStream) -> Vec<(Option<u64>, String)> {
    let mut out = Vec::new();
    while let Some(item) = stream.next().await {
        let item = item.unwrap();
        out.push((item.seq, short(&item.event)));
    }
    out
}

fn short(event: &StreamResponse) -> String {
    match event {
        StreamResponse::Task(task) => format!("task {:?}", task.status.state),
        StreamResponse::StatusUpdate(update) => format!("status {:?}", update.status.state),
        StreamResponse::ArtifactUpdate(update) => format!("chunk {}", update.artifact.text()),
        other => format!("{other:?}"),
    }
}

fn chunks_then_completed(first_seq: u64, n: usize) -> Vec<(Option<u64>, String)> {
    let mut expected: Vec<(Option<u64>, String)> = (0..n)
        .map(|i| (Some(first_seq + i as u64), format!("chunk c{i}")))
        .collect();
    expected.push((Some(first_seq + n as u64), "status Completed".to_owned()));
    expected
}

/// The message of a store that knows the database behind `proxy` is away.
fn away(proxy: &FaultProxy) -> String {
    let addr = proxy.addr();
    format!(
        "task store unavailable: the database at {addr} cannot be reached (connection refused at \
         {addr}); calls fail at once until a background probe reaches it again"
    )
}

/// Each task of the schema with its state and whether it holds a lease that has not run out.
async fn leases(config: &SqlConfig) -> Vec<(String, String, bool)> {
    sqlx::any::install_default_drivers();
    let pool = sqlx::any::AnyPoolOptions::new()
        .max_connections(1)
        .connect(&common::postgres_url())
        .await
        .unwrap();
    let schema = config.schema.clone().unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_micros() as i64;
    let rows = sqlx::query(&format!(
        "SELECT id, state, CAST(coalesce(lease_until, 0) AS BIGINT) FROM \"{schema}\".a2a_tasks \
"
    ))
    .fetch_all(&pool)
    .await
    .unwrap();
    pool.close().await;
    let mut tasks: Vec<_> = rows
        .iter()
        .map(|row| {
            let until: i64 = row.get(2);
            (row.get(0), row.get(1), until > now)
        })
        .collect();
    tasks.sort();
    tasks
}

/// A cut shorter than the tolerance: the agent's write waits, the stream pauses; once the
/// database is back every event comes, once, and the task completes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_shorter_than_the_tolerance_loses_and_fails_nothing() {
    let t = Setup::new(Duration::from_secs(30)).await;
    let a = t.replica("a", PATIENT).await;
    let mut stream = a
        .handler
        .send_streaming_message(
            SendMessageRequest::new(Message::user_text("chunks 3")),
            &CallContext::new(),
        )
        .await
        .unwrap();
    let first = stream.next().await.unwrap().unwrap();
    let StreamResponse::Task(task) = first.event else {
        panic!("the task first")
    };
    assert_eq!(stream.next().await.unwrap().unwrap().seq, Some(2));
    t.short_cut(&a).await;
    assert_eq!(rest_of(&mut stream).await, chunks_then_completed(3, 3));
    let stored = t.view.load(&task.id).await.unwrap().unwrap();
    assert_eq!(stored.task.status.state, TaskState::Completed);
    assert_eq!(stored.last_seq, 6);
    assert_eq!(stored.task.artifacts[0].text(), "c0c1c2");
    assert!(!a.store.is_unreachable());
    assert_eq!(a.handler.pending_outcomes(), 0);
}

/// A cut longer than the tolerance: the task whose agent wrote into it ends FAILED with the
/// reason once the database is back; a task whose agent still runs (silent meanwhile) keeps
/// its lease and goes on; no task is left WORKING, and only a running agent's task holds a
/// lease.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_longer_than_the_tolerance_ends_running_tasks_failed_once_the_database_is_back() {
    let lease = Duration::from_secs(2);
    let t = Setup::new(lease).await;
    let (proxy, view, gates, config) = (&t.proxy, &t.view, &t.gates, &t.config);
    let a = t.replica("a", Duration::from_secs(1)).await;
    let lost = started(&a, "chunks 1", view).await;
    let live = started(&a, "chunks 1 live", view).await;
    proxy.cut().await;
    gates.gate.add_permits(1);
    // The agent's write gives up after the tolerance, its end waits for the database.
    until(async || a.handler.pending_outcomes() == 1).await;
    // Out longer than the lease too.
    tokio::time::sleep(lease + Duration::from_millis(500)).await;
    proxy.restore().await.unwrap();
    until(async || state(view, &lost.id).await == TaskState::Failed).await;
    let failed = view.load(&lost.id).await.unwrap().unwrap().task;
    assert_eq!(
        failed.status.message.unwrap().text(),
        format!(
            "an event of the task could not be stored: task store unavailable: for longer than \
             the outage tolerance of 1 s (outage_tolerance): {}",
            away(proxy)
                .strip_prefix("task store unavailable: ")
                .unwrap()
        )
    );
    assert_eq!(a.handler.pending_outcomes(), 0);
    // The live agent's task is not failed by the lease rule (the replica waits one lease after
    // its own outage) and its lease is renewed.
    tokio::time::sleep(3 * lease).await;
    let mut expected = vec![
        (lost.id.to_string(), "TASK_STATE_FAILED".to_owned(), false),
        (live.id.to_string(), "TASK_STATE_WORKING".to_owned(), true),
    ];
    expected.sort();
    assert_eq!(leases(config).await, expected);
    gates.live.add_permits(1);
    until(async || state(view, &live.id).await == TaskState::Completed).await;
    let after: Vec<_> = leases(config)
        .await
        .into_iter()
        .map(|(_, state, leased)| (state, leased))
        .collect();
    assert!(
        after
            .iter()
            .all(|(state, leased)| state != "TASK_STATE_WORKING" && !leased),
        "{after:?}"
    );
}

/// Sends one request on a fresh HTTP/1.1 connection: status, headers, body.
async fn http(
    addr: SocketAddr,
    request: http::Request<Full<Bytes>>,
) -> (http::StatusCode, http::HeaderMap, Value) {
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(conn);
    let response = sender.send_request(request).await.unwrap();
    let (head, body) = response.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (head.status, head.headers, body)
}

fn rpc(method: &str, params: Value) -> http::Request<Full<Bytes>> {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    http::Request::post("/")
        .header("host", "test")
        .header("content-type", "application/json")
        .header("a2a-version", "1.0")
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap()
}

fn get(path: &str) -> http::Request<Full<Bytes>> {
    http::Request::get(path)
        .header("host", "test")
        .header("a2a-version", "1.0")
        .body(Full::new(Bytes::new()))
        .unwrap()
}

/// The details of a retryable error.
fn retryable() -> Value {
    json!([
        {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "INTERNAL",
         "domain": "a2a-protocol.org", "metadata": {"retryable": "true"}},
        {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1s"}
    ])
}

/// Once the store knows the database is away, every binding answers at once (within a
/// second, not after the pool's 10 s acquire timeout) with a retryable 503 / UNAVAILABLE;
/// the card is served; once it is back, calls are answered again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_answer_a_retryable_503_at_once_on_every_binding_while_the_database_is_away() {
    let t = Setup::new(Duration::from_secs(30)).await;
    let proxy = &t.proxy;
    let a = t.replica("a", PATIENT).await;
    let done = a
        .handler
        .send_message(
            SendMessageRequest::new(Message::user_text("chunks 0")),
            &CallContext::new(),
        )
        .await
        .unwrap();
    let SendMessageResponse::Task(done) = done else {
        panic!("a task")
    };
    proxy.cut().await;
    // The first call finds out (after at most a second, then a probe).
    let (status, _, _) = http(a.addr, rpc("GetTask", json!({"id": done.id}))).await;
    assert_eq!(status, http::StatusCode::SERVICE_UNAVAILABLE);
    until(async || a.store.is_unreachable()).await;
    let message = away(proxy);
    let at_once = Duration::from_secs(1);
    // JSON-RPC.
    let (status, headers, body) = tokio::time::timeout(
        at_once,
        http(a.addr, rpc("GetTask", json!({"id": done.id}))),
    )
    .await
    .expect("at once");
    assert_eq!(status, http::StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(headers["retry-after"], "1");
    assert_eq!(
        body,
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": message,
            "data": retryable()}})
    );
    let send = rpc(
        "SendMessage",
        json!({"message": {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "chunks 0"}]}}),
    );
    let (status, headers, _) = tokio::time::timeout(at_once, http(a.addr, send))
        .await
        .expect("at once");
    assert_eq!(status, http::StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(headers["retry-after"], "1");
    // HTTP+JSON.
    let (status, headers, body) =
        tokio::time::timeout(at_once, http(a.addr, get(&format!("/tasks/{}", done.id))))
            .await
            .expect("at once");
    assert_eq!(status, http::StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(headers["retry-after"], "1");
    assert_eq!(
        body,
        json!({"error": {"code": 503, "status": "UNAVAILABLE", "message": message,
            "details": retryable()}})
    );
    // gRPC.
    let channel = tonic::transport::Endpoint::from_shared(format!("http://{}", a.addr))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut grpc = a2a_grpc::proto::a2a_service_client::A2aServiceClient::new(channel);
    let get_task = || {
        let mut request = tonic::Request::new(a2a_grpc::proto::GetTaskRequest {
            id: done.id.to_string(),
            ..Default::default()
        });
        request.metadata_mut().insert(
            "a2a-version",
            tonic::metadata::MetadataValue::from_static("1.0"),
        );
        request
    };
    let status = tokio::time::timeout(at_once, grpc.get_task(get_task()))
        .await
        .expect("at once")
        .unwrap_err();
    assert_eq!(status.code(), tonic::Code::Unavailable);
    assert_eq!(status.message(), message);
    let error = a2a_grpc::status::from_status(&status).unwrap();
    assert_eq!(error.retry_after(), Some(Duration::from_secs(1)));
    // The card is served whatever the database does.
    let (status, _, card) = http(a.addr, get("/.well-known/agent-card.json")).await;
    assert_eq!(status, http::StatusCode::OK);
    assert_eq!(card["name"], "outage");
    // Back.
    proxy.restore().await.unwrap();
    until(async || !a.store.is_unreachable()).await;
    let (status, _, body) = http(a.addr, rpc("GetTask", json!({"id": done.id}))).await;
    assert_eq!(status, http::StatusCode::OK);
    assert_eq!(body["result"]["status"]["state"], "TASK_STATE_COMPLETED");
    let task = grpc.get_task(get_task()).await.unwrap().into_inner();
    assert_eq!(task.id, done.id.to_string());
}

/// Two replicas on one database: a stream on B follows a task running on A through a cut
/// shorter than the tolerance and gets every event, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_ride_out_a_short_cut() {
    let t = Setup::new(Duration::from_secs(30)).await;
    let view = &t.view;
    let a = t.replica("a", PATIENT).await;
    let b = t.replica("b", PATIENT).await;
    let task = started(&a, "chunks 3", view).await;
    let mut stream = following(&b, &task.id).await;
    t.short_cut(&a).await;
    assert_eq!(rest_of(&mut stream).await, chunks_then_completed(3, 3));
    assert_eq!(state(view, &task.id).await, TaskState::Completed);
}

/// Two replicas on one database, a cut longer than A's tolerance and than the lease: the task
/// A's agent wrote into ends FAILED with the reason, which a stream on B (more patient) gets
/// once the database is back; neither replica fails the task whose agent still runs on A
/// (each waits one lease after its own outage, and A renews the lease at once); no task is
/// left WORKING or leased.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_after_a_long_cut() {
    let lease = Duration::from_secs(4);
    let t = Setup::new(lease).await;
    let (proxy, view, gates, config) = (&t.proxy, &t.view, &t.gates, &t.config);
    let a = t.replica("a", Duration::from_secs(1)).await;
    let b = t.replica("b", PATIENT).await;
    let call = CallContext::new();
    let lost = started(&a, "chunks 1", view).await;
    let live = started(&a, "chunks 1 live", view).await;
    let mut stream = following(&b, &lost.id).await;
    proxy.cut().await;
    gates.gate.add_permits(1);
    until(async || a.handler.pending_outcomes() == 1).await;
    tokio::time::sleep(lease + Duration::from_millis(500)).await;
    proxy.restore().await.unwrap();
    // B's stream waited through the cut, and gets the failure.
    assert_eq!(
        rest_of(&mut stream).await,
        [(Some(3), "status Failed".to_owned())]
    );
    let on_b = b
        .handler
        .get_task(GetTaskRequest::new(lost.id.clone()), &call)
        .await
        .unwrap();
    assert!(
        on_b.status
            .message
            .unwrap()
            .text()
            .starts_with("an event of the task could not be stored: task store unavailable: ")
    );
    // Past any lease judgement of either replica, the live task still works.
    tokio::time::sleep(lease * 4 / 3 + Duration::from_millis(1500)).await;
    assert_eq!(state(view, &live.id).await, TaskState::Working);
    gates.live.add_permits(1);
    until(async || state(view, &live.id).await == TaskState::Completed).await;
    let working: Vec<_> = leases(config)
        .await
        .into_iter()
        .filter(|(_, state, leased)| state == "TASK_STATE_WORKING" || *leased)
        .collect();
    assert_eq!(working, []);
}
