//! The soak's load (`a2a-bench-load soak`): for a given time, normal traffic next to every
//! hostile thing a client on the internet can do to a server, each probe checking that the
//! server answers or ends it as its limits say ([`preset`]).
//!
//! | probe | what it does | what must happen |
//! |---|---|---|
//! | `normal` | blocking `SendMessage`, `GetTask` of its task, `ListTasks` (10) on one keep-alive connection | completed task, the same task, a page |
//! | `big-list` | a 64 KiB `SendMessage`, then `ListTasks` of 100 tasks with `includeArtifacts` | completed; the page within `max_page_bytes` (and one task) |
//! | `batch` | a batch of 101 calls, then one of 100 `GetTask` calls | one -32600 naming the limit; 100 answers |
//! | `ask` | a task that asks for input and is never answered (50 a second) | `TASK_STATE_INPUT_REQUIRED` (the server's `interrupted_ttl` ends it) |
//! | `hold-cancel` | a working task, a `SubscribeToTask` stream on it, `CancelTask` | canceled; the stream ends with the canceled status |
//! | `oversized` | a `Content-Length` over `max_body_bytes` | 413, connection closed |
//! | `stalled-body` | 10 of 1000 promised bytes, or `Expect: 100-continue` and no body | 408 within the body idle timeout |
//! | `endless-body` | a chunked body of a byte every 200 ms | 408 within the body read timeout |
//! | `silent` | a connection that sends nothing | closed within the header read timeout |
//! | `partial-head` | half a request head | closed within the header read timeout |
//! | `h2-idle` | an HTTP/2 connection that answers pings and opens no stream | `GOAWAY`, closed within the idle timeout |
//! | `h2-dead` | an HTTP/2 connection that answers nothing | closed within the idle timeout (pings unanswered) |
//! | `slow-sse` | a stream of 500 or 3000 chunks read at 100 KiB/s for at most 6 s | events in order, none lost |
//! | `abandoned-sse` | a stream of 2000 chunks dropped after its first event (20 a second) | (nothing to check: the server's resources, by the driver) |
//!
//! Each probe runs in a loop (several copies for the connection-holding ones) until the time is
//! up; the probes under way then finish, bounded by their own limits. The result is one JSON
//! document: each probe's count of expected and unexpected outcomes. With `--store-cuts true`
//! (`cargo xtask soak --store-cuts`: the server's PostgreSQL is cut now and then), a
//! retryable 503 is counted apart (`outage`), and the document lists the id of every task the
//! server acknowledged (`acknowledged`), which the driver then looks for in the database.

use std::collections::BTreeMap;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::wire;

/// The limits the soak server runs with (`a2a-bench-server --soak true`): short, so that every
/// hostile connection ends well within a round, and a small store, so that its bound shows.
pub mod preset {
    use std::time::Duration;

    /// `ServeConfig::header_read_timeout`.
    pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(2);
    /// `ServeConfig::idle_timeout`.
    pub const IDLE_TIMEOUT: Duration = Duration::from_secs(5);
    /// `ServeConfig::http2_keep_alive_interval`.
    pub const H2_PING_INTERVAL: Duration = Duration::from_secs(2);
    /// `ServeConfig::http2_keep_alive_timeout`.
    pub const H2_PING_TIMEOUT: Duration = Duration::from_secs(2);
    /// `Limits::body_idle_timeout`.
    pub const BODY_IDLE_TIMEOUT: Duration = Duration::from_secs(1);
    /// `Limits::body_read_timeout`.
    pub const BODY_READ_TIMEOUT: Duration = Duration::from_secs(3);
    /// `Limits::request_timeout`.
    pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
    /// `Limits::max_body_bytes` (the default).
    pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;
    /// `HandlerConfig::max_page_bytes` (the default).
    pub const MAX_PAGE_BYTES: usize = 4 * 1024 * 1024;
    /// `HandlerConfig::interrupted_ttl`.
    pub const INTERRUPTED_TTL: Duration = Duration::from_secs(3);
    /// `RetentionPolicy::max_tasks` and `max_live_tasks`.
    pub const MAX_TASKS: usize = 2000;
    /// `RetentionPolicy::max_total_bytes`.
    pub const MAX_TOTAL_BYTES: u64 = 32 * 1024 * 1024;
    /// `RetentionPolicy::terminal_ttl`.
    pub const TERMINAL_TTL: Duration = Duration::from_secs(30);

    /// One line for reports.
    pub fn describe() -> String {
        format!(
            "header read {HEADER_READ_TIMEOUT:?}, idle {IDLE_TIMEOUT:?}, HTTP/2 ping every \
             {H2_PING_INTERVAL:?} (timeout {H2_PING_TIMEOUT:?}), body idle \
             {BODY_IDLE_TIMEOUT:?} and total {BODY_READ_TIMEOUT:?}, request {REQUEST_TIMEOUT:?}, \
             interrupted_ttl {INTERRUPTED_TTL:?}, store {MAX_TASKS} tasks / {} MiB / ended \
             tasks kept {TERMINAL_TTL:?}; other limits at their defaults",
            MAX_TOTAL_BYTES >> 20
        )
    }
}

/// How late a limit may act and still count as kept (timers, a loaded machine).
const SLACK: Duration = Duration::from_secs(3);

/// The longest any one probe may take.
const PROBE_LIMIT: Duration = Duration::from_secs(30);

/// The same with `--store-cuts`: a probe that retries through a cut of the database (up to
/// [`OUTAGE_RETRIES`]) takes longer.
const PROBE_LIMIT_WITH_CUTS: Duration = Duration::from_secs(90);

/// How long a probe retries a call answered 503 (the server's database cut), a second apart,
/// as a client that must get its cancel through does.
const OUTAGE_RETRIES: Duration = Duration::from_secs(60);

/// The outcomes of one probe.
#[derive(Default)]
struct Tally {
    ok: u64,
    bad: u64,
    /// Retryable 503s while the server's database was cut (`--store-cuts`).
    outage: u64,
    last_bad: Option<String>,
}

#[derive(Clone, Default)]
struct Tallies {
    all: Arc<Mutex<BTreeMap<&'static str, Tally>>>,
    /// The server's database is cut now and then: a 503 is an outage, not a fault.
    store_cuts: bool,
}

/// Whether a probe's failure is the server's answer to an outage: a 503 (retryable).
fn is_outage(why: &str) -> bool {
    why.starts_with("503: ") || why.contains(": 503: ")
}

impl Tallies {
    fn record(&self, probe: &'static str, outcome: Result<(), String>) {
        let mut all = self
            .all
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let tally = all.entry(probe).or_default();
        match outcome {
            Ok(()) => tally.ok += 1,
            Err(why) if self.store_cuts && is_outage(&why) => tally.outage += 1,
            Err(why) => {
                tally.bad += 1;
                tally.last_bad = Some(why);
            }
        }
    }

    fn to_json(&self) -> Value {
        let all = self
            .all
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        all.iter()
            .map(|(name, t)| {
                let tally = json!({"ok": t.ok, "bad": t.bad, "outage": t.outage,
                    "last_bad": t.last_bad});
                ((*name).to_owned(), tally)
            })
            .collect::<serde_json::Map<_, _>>()
            .into()
    }
}

/// The ids of the tasks the server acknowledged to the probes (a task in an answer or a
/// stream): with `--store-cuts`, each must be in the database at the end.
#[derive(Clone, Default)]
struct Acked(Arc<Mutex<Vec<String>>>);

impl Acked {
    fn add(&self, id: &str) {
        if !id.is_empty() {
            self.0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(id.to_owned());
        }
    }
}

/// Runs every probe against `addr` for `duration`, then waits for the probes under way. With
/// `store_cuts` (the server's database is cut now and then), a retryable 503 counts as an
/// outage, not a fault, and the result lists every task id the server acknowledged
/// (`acknowledged`).
pub async fn run(addr: SocketAddr, duration: Duration, store_cuts: bool) -> Value {
    let until = Instant::now() + duration;
    let tallies = Tallies {
        store_cuts,
        ..Tallies::default()
    };
    let acked = Acked::default();
    let mut set = JoinSet::new();
    let mut repeat = |name: &'static str, copies: usize, probe: fn(Context) -> Probe| {
        for copy in 0..copies {
            let (tallies, acked) = (tallies.clone(), acked.clone());
            set.spawn(async move {
                let mut round = copy;
                while Instant::now() < until {
                    let cx = Context {
                        addr,
                        round,
                        acked: acked.clone(),
                    };
                    let limit = if store_cuts {
                        PROBE_LIMIT_WITH_CUTS
                    } else {
                        PROBE_LIMIT
                    };
                    let outcome = tokio::time::timeout(limit, probe(cx))
                        .await
                        .unwrap_or_else(|_| Err(format!("took longer than {limit:?}")));
                    if outcome.is_err() {
                        // A failing probe must not spin.
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    tallies.record(name, outcome);
                    round += copies;
                }
            });
        }
    };
    repeat("normal", 2, |cx| Box::pin(normal(cx.addr, cx.acked)));
    repeat("big-list", 1, |cx| Box::pin(big_list(cx.addr, cx.acked)));
    repeat("batch", 1, |cx| Box::pin(batch(cx.addr)));
    repeat("ask", 1, |cx| Box::pin(ask(cx.addr, cx.acked)));
    repeat("hold-cancel", 1, |cx| {
        Box::pin(hold_cancel(cx.addr, cx.acked))
    });
    repeat("oversized", 1, |cx| Box::pin(oversized(cx.addr)));
    repeat("stalled-body", 6, |cx| {
        Box::pin(stalled_body(cx.addr, cx.round))
    });
    repeat("endless-body", 2, |cx| Box::pin(endless_body(cx.addr)));
    repeat("silent", 30, |cx| Box::pin(silent(cx.addr)));
    repeat("partial-head", 30, |cx| Box::pin(partial_head(cx.addr)));
    repeat("h2-idle", 15, |cx| Box::pin(http2_quiet(cx.addr, true)));
    repeat("h2-dead", 15, |cx| Box::pin(http2_quiet(cx.addr, false)));
    repeat("slow-sse", 4, |cx| Box::pin(slow_sse(cx.addr, cx.round)));
    repeat("abandoned-sse", 1, |cx| Box::pin(abandoned_sse(cx.addr)));
    while set.join_next().await.is_some() {}
    let acknowledged = std::mem::take(
        &mut *acked
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
    let mut result = json!({"secs": duration.as_secs_f64(), "probes": tallies.to_json()});
    if store_cuts {
        result["acknowledged"] = json!(acknowledged);
    }
    result
}

/// What one run of a probe gets: the server, the run's number, where acknowledged tasks go.
struct Context {
    addr: SocketAddr,
    round: usize,
    acked: Acked,
}

type Probe = std::pin::Pin<Box<dyn Future<Output = Result<(), String>> + Send>>;

/// A response: status and body.
struct Answer {
    status: u16,
    body: Vec<u8>,
}

impl Answer {
    fn json(&self) -> Result<Value, String> {
        serde_json::from_slice(&self.body).map_err(|e| format!("{}: not JSON: {e}", self.status))
    }

    /// The JSON-RPC result, when the answer is a 200 with one.
    fn result(&self) -> Result<Value, String> {
        let mut value = self.json()?;
        match value.get_mut("result") {
            Some(result) if self.status == 200 => Ok(result.take()),
            _ => Err(format!("{}: {}", self.status, excerpt(&self.body))),
        }
    }
}

fn excerpt(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned()
}

/// A raw HTTP/1.1 client connection: enough of the protocol for the server's answers.
struct Http1 {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Http1 {
    async fn connect(addr: SocketAddr) -> Result<Self, String> {
        let stream = TcpStream::connect(addr)
            .await
            .map_err(|e| format!("connect: {e}"))?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        Ok(Self {
            stream,
            buf: Vec::new(),
        })
    }

    /// Sends a JSON-RPC POST and reads its (non-streaming) answer.
    async fn call(&mut self, body: &[u8]) -> Result<Answer, String> {
        self.send_head(body.len(), "").await?;
        self.write(body).await?;
        self.answer().await
    }

    async fn send_head(&mut self, length: usize, extra: &str) -> Result<(), String> {
        let head = format!(
            "POST / HTTP/1.1\r\nhost: soak\r\ncontent-type: application/json\r\n\
             a2a-version: 1.0\r\ncontent-length: {length}\r\n{extra}\r\n"
        );
        self.write(head.as_bytes()).await
    }

    async fn write(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.stream
            .write_all(bytes)
            .await
            .map_err(|e| format!("write: {e}"))
    }

    /// Reads more bytes; false at the end of the connection.
    async fn fill(&mut self) -> Result<bool, String> {
        self.buf.reserve(64 * 1024);
        let n = self
            .stream
            .read_buf(&mut self.buf)
            .await
            .map_err(|e| format!("read: {e}"))?;
        Ok(n > 0)
    }

    /// Reads a response head: the status and whether the body is chunked (else its length).
    async fn head(&mut self) -> Result<(u16, Option<usize>), String> {
        loop {
            if let Some(end) = memchr::memmem::find(&self.buf, b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&self.buf[..end]).to_ascii_lowercase();
                self.buf.drain(..end + 4);
                // A `100 Continue` before the answer.
                if head.starts_with("http/1.1 100") {
                    continue;
                }
                let status = head
                    .get(9..12)
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| format!("no status in `{head}`"))?;
                let length = head.lines().find_map(|l| {
                    l.strip_prefix("content-length:")
                        .and_then(|v| v.trim().parse().ok())
                });
                return Ok((status, length));
            }
            if !self.fill().await? {
                return Err("closed before an answer".to_owned());
            }
        }
    }

    /// Reads a whole answer with a `Content-Length`.
    async fn answer(&mut self) -> Result<Answer, String> {
        let (status, length) = self.head().await?;
        let length = length.ok_or_else(|| format!("{status} without a Content-Length"))?;
        while self.buf.len() < length {
            if !self.fill().await? {
                return Err("closed inside the body".to_owned());
            }
        }
        let body = self.buf.drain(..length).collect();
        Ok(Answer { status, body })
    }

    /// Waits for the server to close the connection, at most `limit`; what it sent meanwhile
    /// is discarded.
    async fn closed_within(&mut self, limit: Duration) -> Result<(), String> {
        let started = Instant::now();
        match tokio::time::timeout(limit, async {
            let mut sink = [0u8; 4096];
            while matches!(self.stream.read(&mut sink).await, Ok(n) if n > 0) {}
        })
        .await
        {
            Ok(()) => Ok(()),
            Err(_) => Err(format!("still open after {:?}", started.elapsed())),
        }
    }
}

fn send(text: &str) -> Vec<u8> {
    wire::send_message(text, false)
}

fn task_state(result: &Value) -> &str {
    result["task"]["status"]["state"].as_str().unwrap_or("")
}

/// Blocking `SendMessage`, `GetTask` of its task, `ListTasks`: on one connection.
async fn normal(addr: SocketAddr, acked: Acked) -> Result<(), String> {
    let mut conn = Http1::connect(addr).await?;
    let sent = conn.call(&send(wire::ECHO_TEXT)).await?.result()?;
    let id = sent["task"]["id"].as_str().unwrap_or_default();
    acked.add(id);
    if task_state(&sent) != "TASK_STATE_COMPLETED" {
        return Err(format!("SendMessage: {sent}"));
    }
    let got = conn
        .call(&wire::rpc("GetTask", json!({"id": id})))
        .await?
        .result()
        .map_err(|e| format!("GetTask: {e}"))?;
    if got["id"] != id {
        return Err(format!("GetTask {id}: {got}"));
    }
    let listed = conn
        .call(&wire::rpc("ListTasks", json!({"pageSize": 10})))
        .await?
        .result()?;
    if !listed["tasks"].is_array() {
        return Err(format!("ListTasks: {listed}"));
    }
    Ok(())
}

/// A 64 KiB message (its task holds it twice: history and artifact), then the largest
/// `ListTasks` page a client can ask for.
async fn big_list(addr: SocketAddr, acked: Acked) -> Result<(), String> {
    let mut conn = Http1::connect(addr).await?;
    let sent = conn.call(&send(&"b".repeat(64 * 1024))).await?.result()?;
    acked.add(sent["task"]["id"].as_str().unwrap_or_default());
    if task_state(&sent) != "TASK_STATE_COMPLETED" {
        return Err(format!("SendMessage: {}", task_state(&sent)));
    }
    let params = json!({"pageSize": 100, "includeArtifacts": true});
    let answer = conn.call(&wire::rpc("ListTasks", params)).await?;
    // A page holds at most max_page_bytes of tasks, or one larger task (these hold ~130 KiB).
    // Not parsed: a JSON tree of 4 MiB would cost the load more than the server.
    let size = answer.body.len();
    let page = br#"{"jsonrpc":"2.0","id":1,"result":{"tasks":["#;
    if answer.status != 200 || !answer.body.starts_with(page) {
        return Err(format!(
            "ListTasks: {}: {}",
            answer.status,
            excerpt(&answer.body)
        ));
    }
    if size > preset::MAX_PAGE_BYTES + 256 * 1024 {
        return Err(format!("ListTasks answered {size} bytes"));
    }
    Ok(())
}

/// A batch one call over the limit, then one at the limit.
async fn batch(addr: SocketAddr) -> Result<(), String> {
    let mut conn = Http1::connect(addr).await?;
    let calls = |n: usize| {
        let calls: Vec<Value> = (0..n)
            .map(|i| {
                json!({"jsonrpc": "2.0", "id": i, "method": "GetTask",
                    "params": {"id": format!("no-such-task-{i}")}})
            })
            .collect();
        serde_json::to_vec(&calls).expect("JSON serializes")
    };
    let over = conn.call(&calls(101)).await?.json()?;
    let expected = "invalid request: a batch may hold at most 100 calls; this one holds 101";
    if over["error"]["code"] != -32600 || over["error"]["message"] != expected {
        return Err(format!("101 calls: {over}"));
    }
    let full = conn.call(&calls(100)).await?.json()?;
    let answers = full.as_array().map_or(0, Vec::len);
    if answers != 100 || full[99]["error"]["code"] != -32001 {
        return Err(format!("100 calls: {answers} answers"));
    }
    Ok(())
}

/// A task left waiting for input: the server's `interrupted_ttl` must end it, or such tasks
/// fill `max_live_tasks` and every other probe's new task is refused.
async fn ask(addr: SocketAddr, acked: Acked) -> Result<(), String> {
    let mut conn = Http1::connect(addr).await?;
    let sent = conn.call(&send(wire::ASK)).await?.result()?;
    acked.add(sent["task"]["id"].as_str().unwrap_or_default());
    if task_state(&sent) != "TASK_STATE_INPUT_REQUIRED" {
        return Err(format!("SendMessage `ask`: {}", task_state(&sent)));
    }
    // 50 a second: about 150 wait at any time, well under `max_live_tasks` (more, within the
    // TTL, would fill it by design).
    tokio::time::sleep(Duration::from_millis(20)).await;
    Ok(())
}

/// A working task, a stream on it, and `CancelTask`: the stream ends with the cancel.
async fn hold_cancel(addr: SocketAddr, acked: Acked) -> Result<(), String> {
    let mut conn = Http1::connect(addr).await?;
    let held = conn
        .call(&wire::send_message(wire::HOLD, true))
        .await?
        .result()?;
    let id = held["task"]["id"].as_str().unwrap_or_default().to_owned();
    acked.add(&id);
    drop(conn);
    // The task is held until it is canceled: the stream and the cancel are retried through a
    // cut of the database, so that no task is left working by a client that gave up.
    let subscribe = wire::subscribe_to_task(&id);
    let mut stream = retrying(|| Sse::open(addr, &subscribe)).await?;
    stream.next_event().await?;
    let canceled = retrying(|| async {
        let mut conn = Http1::connect(addr).await?;
        conn.call(&wire::rpc("CancelTask", json!({"id": id})))
            .await?
            .result()
    })
    .await?;
    if canceled["status"]["state"] != "TASK_STATE_CANCELED" {
        return Err(format!("CancelTask: {canceled}"));
    }
    let mut last = String::new();
    while let Some(data) = stream.next_event().await? {
        last = data;
    }
    if last.contains("TASK_STATE_CANCELED") {
        Ok(())
    } else {
        Err(format!("the stream ended with {last}"))
    }
}

/// `call` again, a second apart, while it fails with a 503 (an outage), at most
/// [`OUTAGE_RETRIES`]; then its last outcome.
async fn retrying<T, F, Fut>(mut call: F) -> Result<T, String>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, String>>,
{
    let started = Instant::now();
    loop {
        match call().await {
            Err(why) if is_outage(&why) && started.elapsed() < OUTAGE_RETRIES => {
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            other => return other,
        }
    }
}

/// A declared body over the limit: 413 before anything is read, and the connection closed.
async fn oversized(addr: SocketAddr) -> Result<(), String> {
    let mut conn = Http1::connect(addr).await?;
    conn.send_head(preset::MAX_BODY_BYTES + 1, "").await?;
    let answer = conn.answer().await?;
    if answer.status != 413 {
        return Err(format!("{}: {}", answer.status, excerpt(&answer.body)));
    }
    conn.closed_within(SLACK).await
}

/// A body that stops after 10 of 1000 bytes, or never starts after `Expect: 100-continue`.
async fn stalled_body(addr: SocketAddr, round: usize) -> Result<(), String> {
    let mut conn = Http1::connect(addr).await?;
    if round.is_multiple_of(2) {
        conn.send_head(1000, "").await?;
        conn.write(b"{\"jsonrpc\"").await?;
    } else {
        conn.send_head(1000, "expect: 100-continue\r\n").await?;
    }
    expect_408(&mut conn, preset::BODY_IDLE_TIMEOUT).await
}

/// A chunked body that never ends, a byte every 200 ms: the total time limit ends it.
async fn endless_body(addr: SocketAddr) -> Result<(), String> {
    let mut conn = Http1::connect(addr).await?;
    let head = "POST / HTTP/1.1\r\nhost: soak\r\ncontent-type: application/json\r\n\
                a2a-version: 1.0\r\ntransfer-encoding: chunked\r\n\r\n";
    conn.write(head.as_bytes()).await?;
    let started = Instant::now();
    while memchr::memmem::find(&conn.buf, b"\r\n\r\n").is_none() {
        within(started, preset::BODY_READ_TIMEOUT)?;
        // The server may stop reading once it answered.
        let _ = conn.stream.write_all(b"1\r\n \r\n").await;
        match tokio::time::timeout(Duration::from_millis(200), conn.fill()).await {
            Ok(Ok(true)) | Err(_) => {}
            Ok(Ok(false)) => return Err("closed without an answer".to_owned()),
            Ok(Err(e)) => return Err(e),
        }
    }
    let answer = conn.answer().await?;
    match answer.status {
        408 => Ok(()),
        status => Err(format!("{status}: {}", excerpt(&answer.body))),
    }
}

async fn expect_408(conn: &mut Http1, limit: Duration) -> Result<(), String> {
    let started = Instant::now();
    let answer = conn.answer().await?;
    within(started, limit)?;
    match answer.status {
        408 => Ok(()),
        status => Err(format!("{status}: {}", excerpt(&answer.body))),
    }
}

/// True when `limit` (plus the slack) has not passed since `started`.
fn within(started: Instant, limit: Duration) -> Result<(), String> {
    let took = started.elapsed();
    if took > limit + SLACK {
        Err(format!("took {took:?}, over {limit:?}"))
    } else {
        Ok(())
    }
}

/// A connection that sends nothing.
async fn silent(addr: SocketAddr) -> Result<(), String> {
    let mut conn = Http1::connect(addr).await?;
    conn.closed_within(preset::HEADER_READ_TIMEOUT + SLACK)
        .await
}

/// Half a request head, then nothing.
async fn partial_head(addr: SocketAddr) -> Result<(), String> {
    let mut conn = Http1::connect(addr).await?;
    conn.write(b"POST / HTTP/1.1\r\nhost: soak\r\ncontent-le")
        .await?;
    conn.closed_within(preset::HEADER_READ_TIMEOUT + SLACK)
        .await
}

/// An HTTP/2 connection (prior knowledge) that opens no stream; `alive`, it acknowledges the
/// server's SETTINGS and answers its pings, and expects a `GOAWAY` before the close.
async fn http2_quiet(addr: SocketAddr, alive: bool) -> Result<(), String> {
    const SETTINGS: u8 = 0x4;
    const PING: u8 = 0x6;
    const GOAWAY: u8 = 0x7;
    let frame = |kind: u8, flags: u8, payload: &[u8]| {
        let len = u32::try_from(payload.len())
            .expect("a small frame")
            .to_be_bytes();
        let mut out = vec![len[1], len[2], len[3], kind, flags, 0, 0, 0, 0];
        out.extend_from_slice(payload);
        out
    };
    let mut conn = Http1::connect(addr).await?;
    let mut hello = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    hello.extend(frame(SETTINGS, 0, &[]));
    conn.write(&hello).await?;
    let started = Instant::now();
    let limit = preset::IDLE_TIMEOUT + SLACK;
    let mut goaway = false;
    let read = async {
        loop {
            while conn.buf.len() < 9 || conn.buf.len() < 9 + frame_len(&conn.buf) {
                if !conn.fill().await? {
                    return Ok::<_, String>(());
                }
            }
            let len = frame_len(&conn.buf);
            let (kind, flags) = (conn.buf[3], conn.buf[4]);
            let payload: Vec<u8> = conn.buf.drain(..9 + len).skip(9).collect();
            match (kind, flags & 1) {
                (SETTINGS, 0) if alive => conn.write(&frame(SETTINGS, 1, &[])).await?,
                (PING, 0) if alive => conn.write(&frame(PING, 1, &payload)).await?,
                (GOAWAY, _) => goaway = true,
                _ => {}
            }
        }
    };
    let outcome = tokio::time::timeout(limit, read).await;
    match outcome {
        Err(_) => Err(format!("still open after {:?}", started.elapsed())),
        // A reset after the GOAWAY is a close too.
        Ok(Err(e)) if !goaway => Err(e),
        Ok(_) if alive && !goaway => Err("closed without a GOAWAY".to_owned()),
        Ok(_) => Ok(()),
    }
}

fn frame_len(buf: &[u8]) -> usize {
    usize::from(buf[0]) << 16 | usize::from(buf[1]) << 8 | usize::from(buf[2])
}

/// A stream read slowly (100 KiB/s) for at most 6 s: 500 chunks end within that, 3000 do not.
async fn slow_sse(addr: SocketAddr, round: usize) -> Result<(), String> {
    let chunks = if round.is_multiple_of(2) { 500 } else { 3000 };
    let mut stream = Sse::open(
        addr,
        &wire::send_streaming_message(&wire::stream_command(chunks)),
    )
    .await?;
    stream.read_size = 2048;
    stream.pause = Duration::from_millis(20);
    let started = Instant::now();
    let mut last = String::new();
    while started.elapsed() < Duration::from_secs(6) {
        match stream.next_event().await? {
            Some(data) => last = data,
            None if last.contains("TASK_STATE_COMPLETED") => return Ok(()),
            None => {
                return Err(format!(
                    "the stream ended with {}",
                    excerpt(last.as_bytes())
                ));
            }
        }
    }
    // Abandoned mid-way: what came so far came in order (checked by `next_event`).
    Ok(())
}

/// A long stream dropped after its first event, 20 a second: its agent runs on to the end
/// (about 400 KiB of task each, which the store holds while it runs).
async fn abandoned_sse(addr: SocketAddr) -> Result<(), String> {
    let mut stream = Sse::open(
        addr,
        &wire::send_streaming_message(&wire::stream_command(2000)),
    )
    .await?;
    let first = stream.next_event().await?;
    drop(stream);
    tokio::time::sleep(Duration::from_millis(50)).await;
    first.map(drop).ok_or_else(|| "no first event".to_owned())
}

/// An SSE response read from the socket: chunked encoding undone, events decoded, their ids
/// checked to follow each other.
struct Sse {
    conn: Http1,
    decoder: a2a_sse::Decoder,
    /// Decoded, not yet returned.
    events: std::collections::VecDeque<a2a_sse::Event>,
    last_id: Option<u64>,
    ended: bool,
    read_size: usize,
    pause: Duration,
}

impl Sse {
    async fn open(addr: SocketAddr, body: &[u8]) -> Result<Self, String> {
        let mut conn = Http1::connect(addr).await?;
        conn.send_head(body.len(), "").await?;
        conn.write(body).await?;
        let (status, length) = conn.head().await?;
        if status != 200 || length.is_some() {
            return Err(format!("{status}: not a stream"));
        }
        Ok(Self {
            conn,
            decoder: a2a_sse::Decoder::new(),
            events: std::collections::VecDeque::new(),
            last_id: None,
            ended: false,
            read_size: 64 * 1024,
            pause: Duration::ZERO,
        })
    }

    /// The data of the next event; `None` at the end of the stream.
    async fn next_event(&mut self) -> Result<Option<String>, String> {
        loop {
            if let Some(event) = self.events.pop_front() {
                if let Some(id) = event.id().and_then(|id| id.parse::<u64>().ok()) {
                    // An error ending the stream has no id of its own: it reads with the last.
                    let error = self.last_id == Some(id)
                        && event.data().is_some_and(|data| data.contains("\"error\""));
                    if self.last_id.is_some_and(|last| id != last + 1) && !error {
                        return Err(format!("event {id} after {:?}", self.last_id));
                    }
                    self.last_id = Some(id);
                }
                return Ok(Some(event.into_data().unwrap_or_default()));
            }
            if self.ended {
                return Ok(None);
            }
            self.read_chunks().await?;
        }
    }

    /// Decodes the complete chunks buffered; when they hold no event, reads once (at most
    /// `read_size` bytes, after `pause`).
    async fn read_chunks(&mut self) -> Result<(), String> {
        self.decode_buffered()?;
        if !self.events.is_empty() || self.ended {
            return Ok(());
        }
        if !self.pause.is_zero() {
            tokio::time::sleep(self.pause).await;
        }
        let mut buf = vec![0u8; self.read_size];
        let n = self
            .conn
            .stream
            .read(&mut buf)
            .await
            .map_err(|e| format!("read: {e}"))?;
        if n == 0 {
            return Err("closed inside the stream".to_owned());
        }
        self.conn.buf.extend_from_slice(&buf[..n]);
        self.decode_buffered()
    }

    fn decode_buffered(&mut self) -> Result<(), String> {
        self.ended |= take_chunks(&mut self.conn.buf, &mut self.decoder, &mut self.events)?;
        Ok(())
    }
}

/// Takes the complete chunks out of `buf` (chunked encoding: `<hex size>\r\n<data>\r\n`, and
/// `0\r\n\r\n` at the end) and decodes their events into `events`; true at the last chunk.
fn take_chunks(
    buf: &mut Vec<u8>,
    decoder: &mut a2a_sse::Decoder,
    events: &mut std::collections::VecDeque<a2a_sse::Event>,
) -> Result<bool, String> {
    let mut pos = 0;
    let mut ended = false;
    while let Some(line) = memchr::memmem::find(&buf[pos..], b"\r\n") {
        let text = std::str::from_utf8(&buf[pos..pos + line]).map_err(|e| e.to_string())?;
        let size = usize::from_str_radix(text.trim(), 16)
            .map_err(|e| format!("chunk size `{text}`: {e}"))?;
        let start = pos + line + 2;
        if size == 0 {
            ended = true;
            break;
        }
        if buf.len() < start + size + 2 {
            break;
        }
        for frame in decoder.decode(&buf[start..start + size]) {
            if let a2a_sse::Frame::Event(event) = frame.map_err(|e| e.to_string())? {
                events.push_back(event);
            }
        }
        pos = start + size + 2;
    }
    buf.drain(..pos);
    Ok(ended)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_taken_whole_however_the_bytes_arrive() {
        let pieces = [
            "data: one\nid: 1\n\n",
            ": keep-alive\n\ndata: ",
            "two\nid: 2\n",
            "\n",
        ];
        let mut body: Vec<u8> = pieces
            .iter()
            .flat_map(|p| format!("{:x}\r\n{p}\r\n", p.len()).into_bytes())
            .collect();
        body.extend_from_slice(b"0\r\n\r\n");
        for split in 0..=body.len() {
            let (mut buf, mut decoder) = (Vec::new(), a2a_sse::Decoder::new());
            let mut events = std::collections::VecDeque::new();
            buf.extend_from_slice(&body[..split]);
            let early = take_chunks(&mut buf, &mut decoder, &mut events).unwrap();
            // The last chunk is seen once its size line is whole.
            assert_eq!(early, split >= body.len() - 2, "split {split}");
            buf.extend_from_slice(&body[split..]);
            let ended = take_chunks(&mut buf, &mut decoder, &mut events).unwrap();
            assert!(ended, "split {split}");
            let seen: Vec<(Option<&str>, Option<&str>)> =
                events.iter().map(|e| (e.id(), e.data())).collect();
            assert_eq!(
                seen,
                [(Some("1"), Some("one")), (Some("2"), Some("two"))],
                "split {split}"
            );
        }
    }

    #[test]
    fn a_bad_chunk_size_is_an_error() {
        let mut events = std::collections::VecDeque::new();
        let err = take_chunks(
            &mut b"zz\r\n".to_vec(),
            &mut a2a_sse::Decoder::new(),
            &mut events,
        )
        .unwrap_err();
        assert_eq!(err, "chunk size `zz`: invalid digit found in string");
    }
}
