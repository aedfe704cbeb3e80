//! The load generator of `cargo xtask bench`: hyper's HTTP/1.1 client, one keep-alive
//! connection per concurrent worker, `POST /` with `A2A-Version: 1.0`. Each run prints one line
//! of JSON on stdout.
//!
//! ```text
//! a2a-bench-load rps       --addr A --concurrency C --duration SECS [--binding B]  SendMessage for a time
//! a2a-bench-load count     --addr A --concurrency C --requests N [--binding B]     SendMessage N times
//! a2a-bench-load stream    --addr A --events N --repeat R [--paced true]  SendStreamingMessage R times
//! a2a-bench-load call      --addr A --what send|hold|list               one request, the body
//! a2a-bench-load subscribe --addr A --task ID --subscribers N [--timeout SECS]
//!     N SubscribeToTask streams held open; prints `ready N` once every one has its first
//!     event, then holds them until stdin closes (or the timeout), and exits
//! a2a-bench-load soak      --addr A --secs N [--store-cuts true]
//!     every probe of `a2a_bench::soak` (normal traffic beside hostile clients) for N seconds
//!     against a server started with `--soak true`; prints each probe's outcomes (with
//!     `--store-cuts`, 503s apart and the acknowledged task ids)
//! ```
//!
//! `--binding` picks how `SendMessage` goes: `jsonrpc` (default; `POST /`), `rest` (`POST
//! /message:send` with the 1.0 `SendMessageRequest` as ProtoJSON) or `grpc`
//! (`lf.a2a.v1.A2AService/SendMessage` through tonic's client over h2c, `a2a-version: 1.0` in
//! the metadata). For gRPC each worker has a channel of its own, one HTTP/2 connection with
//! one call in flight: the connections and calls in flight of the HTTP/1.1 rows, so that the
//! rows differ by the binding only (one channel shared by all workers would multiplex the
//! calls on one connection, and the server would read and write several calls per system
//! call). Every answer is checked: a task in `TASK_STATE_COMPLETED`.
//!
//! Every option also takes `--threads T` (the client's runtime threads, default 1).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use a2a_bench::wire;
use a2a_grpc::proto::a2a_service_client::A2aServiceClient;
use bytes::Bytes;
use http::Request;
use http_body_util::{BodyExt as _, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use serde_json::json;
use tokio::io::AsyncBufReadExt as _;

type Sender = SendRequest<Full<Bytes>>;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("a2a-bench-load: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let Some((what, rest)) = args.split_first() else {
        return Err(
            "usage: a2a-bench-load rps|count|stream|call|subscribe|soak --addr A ...".into(),
        );
    };
    let flags = a2a_bench::parse_flags(rest)?;
    let addr: SocketAddr =
        a2a_bench::flag(&flags, "addr", SocketAddr::from(([127, 0, 0, 1], 7431)))?;
    let threads: usize = a2a_bench::flag(&flags, "threads", 1)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads.max(1))
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let out = runtime.block_on(async {
        match what.as_str() {
            "rps" => {
                let c = a2a_bench::flag(&flags, "concurrency", 1)?;
                let secs: f64 = a2a_bench::flag(&flags, "duration", 5.0)?;
                let binding = a2a_bench::flag(&flags, "binding", Binding::JsonRpc)?;
                load(addr, binding, c, Limit::Time(Duration::from_secs_f64(secs))).await
            }
            "count" => {
                let c = a2a_bench::flag(&flags, "concurrency", 16)?;
                let n = a2a_bench::flag(&flags, "requests", 20_000)?;
                let binding = a2a_bench::flag(&flags, "binding", Binding::JsonRpc)?;
                load(addr, binding, c, Limit::Count(n)).await
            }
            "stream" => {
                let n = a2a_bench::flag(&flags, "events", 1000)?;
                let repeat = a2a_bench::flag(&flags, "repeat", 10)?;
                let text = if a2a_bench::flag(&flags, "paced", false)? {
                    wire::paced_command(n)
                } else {
                    wire::stream_command(n)
                };
                stream(addr, &text, n, repeat).await
            }
            "call" => {
                let body = match a2a_bench::flag(&flags, "what", "send".to_owned())?.as_str() {
                    "send" => wire::send_message(wire::ECHO_TEXT, false),
                    "hold" => wire::send_message(wire::HOLD, true),
                    "list" => wire::list_tasks(),
                    other => return Err(format!("call: unknown `--what {other}`")),
                };
                let mut sender = connect(addr, None).await?;
                let (status, body) = call(&mut sender, body).await?;
                Ok(json!({"status": status, "body": String::from_utf8_lossy(&body)}))
            }
            "subscribe" => {
                let task: String = a2a_bench::flag(&flags, "task", String::new())?;
                let n = a2a_bench::flag(&flags, "subscribers", 10_000)?;
                let secs: u64 = a2a_bench::flag(&flags, "timeout", 120)?;
                subscribe(addr, &task, n, Duration::from_secs(secs)).await
            }
            "soak" => {
                let secs: f64 = a2a_bench::flag(&flags, "secs", 30.0)?;
                let cuts = a2a_bench::flag(&flags, "store-cuts", false)?;
                Ok(a2a_bench::soak::run(addr, Duration::from_secs_f64(secs), cuts).await)
            }
            other => Err(format!("unknown load `{other}`")),
        }
    })?;
    write_line(&out.to_string());
    // Held streams and connections are not waited for.
    runtime.shutdown_background();
    Ok(())
}

fn write_line(line: &str) {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{line}");
    let _ = stdout.flush();
}

async fn connect(addr: SocketAddr, source: Option<IpAddr>) -> Result<Sender, String> {
    let socket = tokio::net::TcpSocket::new_v4().map_err(|e| format!("socket: {e}"))?;
    if let Some(ip) = source {
        socket
            .bind(SocketAddr::new(ip, 0))
            .map_err(|e| format!("bind {ip}: {e}"))?;
    }
    let stream = socket
        .connect(addr)
        .await
        .map_err(|e| format!("connect {addr}: {e}"))?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    Ok(sender)
}

fn request(body: Bytes) -> Request<Full<Bytes>> {
    request_to("/", body)
}

fn request_to(path: &str, body: Bytes) -> Request<Full<Bytes>> {
    Request::post(path)
        .header(http::header::HOST, "127.0.0.1")
        .header(http::header::CONTENT_TYPE, "application/json")
        .header("a2a-version", "1.0")
        .body(Full::new(body))
        .expect("a valid request")
}

async fn call(sender: &mut Sender, body: Vec<u8>) -> Result<(u16, Bytes), String> {
    sender.ready().await.map_err(|e| e.to_string())?;
    let response = sender
        .send_request(request(body.into()))
        .await
        .map_err(|e| e.to_string())?;
    let status = response.status().as_u16();
    let body = response
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    Ok((status, body))
}

#[derive(Clone, Copy)]
enum Limit {
    Time(Duration),
    Count(u64),
}

/// How `SendMessage` goes (`--binding`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Binding {
    JsonRpc,
    Rest,
    Grpc,
}

impl std::str::FromStr for Binding {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "jsonrpc" => Ok(Self::JsonRpc),
            "rest" => Ok(Self::Rest),
            "grpc" => Ok(Self::Grpc),
            other => Err(format!("unknown binding `{other}`: jsonrpc, rest or grpc")),
        }
    }
}

/// One worker's connection, and the `SendMessage` it sends again and again.
enum Client {
    Http {
        sender: Sender,
        path: &'static str,
        body: Bytes,
    },
    /// Boxed: a tonic client and a request message are several times an HTTP sender's size.
    Grpc(Box<GrpcClient>),
}

struct GrpcClient {
    client: A2aServiceClient<tonic::transport::Channel>,
    request: a2a_grpc::proto::SendMessageRequest,
}

impl Client {
    async fn connect(addr: SocketAddr, binding: Binding) -> Result<Self, String> {
        let (path, body) = match binding {
            Binding::JsonRpc => ("/", wire::send_message(wire::ECHO_TEXT, false)),
            Binding::Rest => (
                wire::REST_SEND_PATH,
                wire::send_message_rest(wire::ECHO_TEXT),
            ),
            Binding::Grpc => {
                let channel = tonic::transport::Endpoint::from_shared(format!("http://{addr}"))
                    .map_err(|e| e.to_string())?
                    .tcp_nodelay(true)
                    .connect()
                    .await
                    .map_err(|e| format!("connect {addr}: {e}"))?;
                return Ok(Self::Grpc(Box::new(GrpcClient {
                    client: A2aServiceClient::new(channel),
                    request: wire::send_message_grpc(wire::ECHO_TEXT),
                })));
            }
        };
        Ok(Self::Http {
            sender: connect(addr, None).await?,
            path,
            body: body.into(),
        })
    }

    /// One `SendMessage`: `Ok(Ok(()))` for a completed task, `Ok(Err(_))` for another answer,
    /// `Err(_)` when the connection failed (the worker stops).
    async fn send(&mut self) -> Result<Result<(), String>, String> {
        match self {
            Self::Http { sender, path, body } => {
                let answer = async {
                    sender.ready().await?;
                    let response = sender.send_request(request_to(path, body.clone())).await?;
                    let status = response.status();
                    let bytes = response.into_body().collect().await?.to_bytes();
                    Ok::<_, hyper::Error>((status, bytes))
                }
                .await;
                let (status, bytes) = answer.map_err(|e| e.to_string())?;
                if status == http::StatusCode::OK
                    && memchr::memmem::find(&bytes, b"TASK_STATE_COMPLETED").is_some()
                {
                    Ok(Ok(()))
                } else {
                    Ok(Err(format!(
                        "{status}: {}",
                        String::from_utf8_lossy(&bytes[..bytes.len().min(200)])
                    )))
                }
            }
            Self::Grpc(grpc) => {
                let GrpcClient { client, request } = &mut **grpc;
                use a2a_grpc::proto::send_message_response::Payload;
                let mut call = tonic::Request::new(request.clone());
                call.metadata_mut().insert(
                    "a2a-version",
                    tonic::metadata::MetadataValue::from_static("1.0"),
                );
                let answer = match client.send_message(call).await {
                    Ok(answer) => answer.into_inner(),
                    Err(status) if status.code() == tonic::Code::Unavailable => {
                        return Err(status.to_string());
                    }
                    Err(status) => return Ok(Err(status.to_string())),
                };
                let completed = a2a_grpc::proto::TaskState::Completed as i32;
                match &answer.payload {
                    Some(Payload::Task(task))
                        if task.status.as_ref().is_some_and(|s| s.state == completed) =>
                    {
                        Ok(Ok(()))
                    }
                    other => Ok(Err(format!("not a completed task: {other:?}"))),
                }
            }
        }
    }
}

/// `SendMessage` from `concurrency` workers: request rate and latency percentiles.
async fn load(
    addr: SocketAddr,
    binding: Binding,
    concurrency: usize,
    limit: Limit,
) -> Result<serde_json::Value, String> {
    let issued = Arc::new(AtomicU64::new(0));
    let mut clients = Vec::with_capacity(concurrency);
    for _ in 0..concurrency {
        clients.push(Client::connect(addr, binding).await?);
    }
    let started = Instant::now();
    let deadline = match limit {
        Limit::Time(d) => Some(started + d),
        Limit::Count(_) => None,
    };
    let workers: Vec<_> = clients
        .into_iter()
        .map(|mut client| {
            let issued = issued.clone();
            tokio::spawn(async move {
                let mut latencies = Vec::with_capacity(1 << 16);
                let mut errors = 0u64;
                let mut last_error = None;
                loop {
                    match (limit, deadline) {
                        (_, Some(deadline)) if Instant::now() >= deadline => break,
                        (Limit::Count(n), _) if issued.fetch_add(1, Ordering::Relaxed) >= n => {
                            break;
                        }
                        _ => {}
                    }
                    let t = Instant::now();
                    match client.send().await {
                        Ok(Ok(())) => {
                            latencies
                                .push(u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX));
                        }
                        Ok(Err(e)) => {
                            errors += 1;
                            last_error = Some(e);
                        }
                        Err(e) => {
                            errors += 1;
                            last_error = Some(e);
                            break;
                        }
                    }
                }
                (latencies, errors, last_error)
            })
        })
        .collect();
    let mut latencies = Vec::new();
    let mut errors = 0;
    let mut last_error = None;
    for worker in workers {
        let (l, e, le) = worker.await.map_err(|e| e.to_string())?;
        latencies.extend(l);
        errors += e;
        last_error = last_error.or(le);
    }
    let elapsed = started.elapsed().as_secs_f64();
    latencies.sort_unstable();
    let pct = |p: usize| -> f64 {
        if latencies.is_empty() {
            return 0.0;
        }
        let i = (latencies.len() * p / 100).min(latencies.len() - 1);
        latencies[i] as f64 / 1000.0
    };
    let ok = latencies.len() as u64;
    Ok(json!({
        "requests": ok,
        "errors": errors,
        "last_error": last_error,
        "elapsed_s": elapsed,
        "rps": ok as f64 / elapsed,
        "p50_us": pct(50),
        "p99_us": pct(99),
    }))
}

/// `repeat` streams of `n` artifact chunks, one after another: the time of each from sending
/// the request (on a connection already open) to the end of its body, the median stream's
/// time, and its events per second. Every stream must deliver all `n + 3` events (the task,
/// working, the chunks, completed), the last one the completed status: one lost or added
/// event fails the run.
///
/// The stream is read from the socket directly (HTTP/1.1 with `Connection: close`, chunked
/// encoding taken apart here) in 64 KiB reads: hyper's client hands a body over one chunk at a
/// time through a channel between two tasks, which for 1000 small events costs the client more
/// than the server and made the figure measure the client.
async fn stream(
    addr: SocketAddr,
    text: &str,
    n: usize,
    repeat: usize,
) -> Result<serde_json::Value, String> {
    let body = wire::send_streaming_message(text);
    let mut times = Vec::new();
    let expected = n + 3;
    for _ in 0..repeat.max(1) {
        let (events, last, elapsed) = raw_stream(addr, &body).await?;
        if !last.contains("TASK_STATE_COMPLETED") || events != expected {
            return Err(format!(
                "stream: {events} events of {expected}, the last: {}",
                &last[..last.len().min(300)]
            ));
        }
        times.push(elapsed.as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    Ok(json!({
        "streams": times.len(),
        "events": expected,
        "lossless": true,
        "median_s": median,
        "min_s": times[0],
        "max_s": times[times.len() - 1],
        "events_per_s": expected as f64 / median,
        "min_events_per_s": expected as f64 / times[times.len() - 1],
        "max_events_per_s": expected as f64 / times[0],
    }))
}

/// One streamed POST on its own connection: the number of SSE events, the last one's data, and
/// the time from writing the request to the end of the body.
async fn raw_stream(addr: SocketAddr, body: &[u8]) -> Result<(usize, String, Duration), String> {
    use tokio::io::AsyncWriteExt as _;
    let mut socket = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect {addr}: {e}"))?;
    socket.set_nodelay(true).map_err(|e| e.to_string())?;
    let mut request = format!(
        "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         A2A-Version: 1.0\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(body);
    let sent = Instant::now();
    socket
        .write_all(&request)
        .await
        .map_err(|e| format!("write: {e}"))?;
    let mut buf = Vec::with_capacity(1 << 16);
    let mut decoder = a2a_sse::Decoder::new();
    let mut events = 0usize;
    let mut last = String::new();
    let mut on_data = |data: &[u8]| -> Result<(), String> {
        for frame in decoder.decode(data) {
            if let a2a_sse::Frame::Event(event) = frame.map_err(|e| e.to_string())? {
                events += 1;
                last = event.into_data().unwrap_or_default();
            }
        }
        Ok(())
    };
    // The head.
    let (chunked, mut pos) = loop {
        if let Some(end) = memchr::memmem::find(&buf, b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            if !head.starts_with("http/1.1 200") {
                return Err(format!(
                    "stream: {}",
                    head.lines().next().unwrap_or_default()
                ));
            }
            break (head.contains("transfer-encoding: chunked"), end + 4);
        }
        if read_more(&mut socket, &mut buf).await? == 0 {
            return Err("stream: the connection closed before the head".into());
        }
    };
    if !chunked {
        on_data(&buf[pos..])?;
        loop {
            buf.clear();
            if read_more(&mut socket, &mut buf).await? == 0 {
                break;
            }
            on_data(&buf)?;
        }
        return Ok((events, last, sent.elapsed()));
    }
    // Chunked: `<hex size>\r\n<data>\r\n` ... `0\r\n\r\n`.
    loop {
        let Some(line_end) = memchr::memmem::find(&buf[pos..], b"\r\n") else {
            buf.drain(..pos);
            pos = 0;
            if read_more(&mut socket, &mut buf).await? == 0 {
                return Err("stream: the connection closed inside the body".into());
            }
            continue;
        };
        let line = std::str::from_utf8(&buf[pos..pos + line_end]).map_err(|e| e.to_string())?;
        let size = usize::from_str_radix(line.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|e| format!("stream: chunk size `{line}`: {e}"))?;
        if size == 0 {
            let elapsed = sent.elapsed();
            return Ok((events, last, elapsed));
        }
        let start = pos + line_end + 2;
        while buf.len() < start + size + 2 {
            if read_more(&mut socket, &mut buf).await? == 0 {
                return Err("stream: the connection closed inside a chunk".into());
            }
        }
        on_data(&buf[start..start + size])?;
        pos = start + size + 2;
    }
}

async fn read_more(socket: &mut tokio::net::TcpStream, buf: &mut Vec<u8>) -> Result<usize, String> {
    use tokio::io::AsyncReadExt as _;
    buf.reserve(1 << 16);
    socket.read_buf(buf).await.map_err(|e| format!("read: {e}"))
}

/// `n` idle `SubscribeToTask` streams on `task`, held open until stdin closes or `timeout`.
async fn subscribe(
    addr: SocketAddr,
    task: &str,
    n: usize,
    timeout: Duration,
) -> Result<serde_json::Value, String> {
    let started = Instant::now();
    let body = Bytes::from(wire::subscribe_to_task(task));
    let (release_tx, release_rx) = tokio::sync::watch::channel(false);
    let connecting = Arc::new(tokio::sync::Semaphore::new(256));
    let (ready_tx, mut ready_rx) = tokio::sync::mpsc::unbounded_channel::<Result<(), String>>();
    for i in 0..n {
        // Spread the client sockets over 127.0.0.2..=127.0.0.17 so that 10 000 connections never
        // run short of ephemeral ports, whatever else holds some.
        let source = (addr.ip().is_loopback())
            .then(|| IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2 + (i % 16) as u8)));
        let body = body.clone();
        let connecting = connecting.clone();
        let ready_tx = ready_tx.clone();
        let mut release = release_rx.clone();
        tokio::spawn(async move {
            let permit = connecting.acquire_owned().await;
            let opened = async {
                let mut sender = connect(addr, source).await?;
                sender.ready().await.map_err(|e| e.to_string())?;
                let response = sender
                    .send_request(request(body))
                    .await
                    .map_err(|e| e.to_string())?;
                if response.status() != http::StatusCode::OK {
                    return Err(format!("status {}", response.status()));
                }
                let mut body = response.into_body();
                let mut decoder = a2a_sse::Decoder::new();
                loop {
                    let Some(frame) = body.frame().await else {
                        return Err("the stream ended before its first event".to_owned());
                    };
                    let frame = frame.map_err(|e| e.to_string())?;
                    let Ok(data) = frame.into_data() else {
                        continue;
                    };
                    let mut got = false;
                    for decoded in decoder.decode(&data) {
                        got |= matches!(decoded, Ok(a2a_sse::Frame::Event(_)));
                    }
                    if got {
                        return Ok((sender, body));
                    }
                }
            }
            .await;
            drop(permit);
            match opened {
                Ok(held) => {
                    let _ = ready_tx.send(Ok(()));
                    let _ = release.wait_for(|r| *r).await;
                    drop(held);
                }
                Err(e) => {
                    let _ = ready_tx.send(Err(e));
                }
            }
        });
    }
    drop(ready_tx);
    let mut ready = 0usize;
    let mut errors = 0usize;
    let mut last_error = None;
    let deadline = started + timeout;
    while ready + errors < n {
        match tokio::time::timeout_at(deadline.into(), ready_rx.recv()).await {
            Ok(Some(Ok(()))) => ready += 1,
            Ok(Some(Err(e))) => {
                errors += 1;
                last_error = Some(e);
            }
            Ok(None) | Err(_) => break,
        }
    }
    let connect_s = started.elapsed().as_secs_f64();
    write_line(&format!("ready {ready} {errors}"));
    // Hold until the driver closes stdin (it has read the server's RSS), or the timeout.
    let mut stdin = tokio::io::BufReader::new(tokio::io::stdin());
    let mut line = String::new();
    let _ = tokio::time::timeout_at(deadline.into(), stdin.read_line(&mut line)).await;
    let _ = release_tx.send(true);
    Ok(json!({
        "subscribers": ready,
        "errors": errors,
        "last_error": last_error,
        "connect_s": connect_s,
    }))
}
