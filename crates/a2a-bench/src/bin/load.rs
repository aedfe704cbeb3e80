//! The load generator of `cargo xtask bench`: hyper's HTTP/1.1 client, one keep-alive
//! connection per concurrent worker, `POST /` with `A2A-Version: 1.0`. Each run prints one line
//! of JSON on stdout.
//!
//! ```text
//! a2a-bench-load rps       --addr A --concurrency C --duration SECS     SendMessage for a time
//! a2a-bench-load count     --addr A --concurrency C --requests N        SendMessage N times
//! a2a-bench-load stream    --addr A --events N --repeat R [--paced true]  SendStreamingMessage R times
//! a2a-bench-load call      --addr A --what send|hold|list               one request, the body
//! a2a-bench-load subscribe --addr A --task ID --subscribers N [--timeout SECS]
//!     N SubscribeToTask streams held open; prints `ready N` once every one has its first
//!     event, then holds them until stdin closes (or the timeout), and exits
//! a2a-bench-load soak      --addr A --secs N
//!     every probe of `a2a_bench::soak` (normal traffic beside hostile clients) for N seconds
//!     against a server started with `--soak true`; prints each probe's outcomes
//! ```
//!
//! Every option also takes `--threads T` (the client's runtime threads, default 1).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use a2a_bench::wire;
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
                load(addr, c, Limit::Time(Duration::from_secs_f64(secs))).await
            }
            "count" => {
                let c = a2a_bench::flag(&flags, "concurrency", 16)?;
                let n = a2a_bench::flag(&flags, "requests", 20_000)?;
                load(addr, c, Limit::Count(n)).await
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
                Ok(a2a_bench::soak::run(addr, Duration::from_secs_f64(secs)).await)
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
    Request::post("/")
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

/// `SendMessage` from `concurrency` workers: request rate and latency percentiles.
async fn load(
    addr: SocketAddr,
    concurrency: usize,
    limit: Limit,
) -> Result<serde_json::Value, String> {
    let body = Bytes::from(wire::send_message(wire::ECHO_TEXT, false));
    let issued = Arc::new(AtomicU64::new(0));
    let mut senders = Vec::with_capacity(concurrency);
    for _ in 0..concurrency {
        senders.push(connect(addr, None).await?);
    }
    let started = Instant::now();
    let deadline = match limit {
        Limit::Time(d) => Some(started + d),
        Limit::Count(_) => None,
    };
    let workers: Vec<_> = senders
        .into_iter()
        .map(|mut sender| {
            let body = body.clone();
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
                    let outcome = async {
                        sender.ready().await?;
                        let response = sender.send_request(request(body.clone())).await?;
                        let status = response.status();
                        let bytes = response.into_body().collect().await?.to_bytes();
                        Ok::<_, hyper::Error>((status, bytes))
                    }
                    .await;
                    match outcome {
                        Ok((status, bytes))
                            if status == http::StatusCode::OK
                                && memchr::memmem::find(&bytes, b"TASK_STATE_COMPLETED")
                                    .is_some() =>
                        {
                            latencies
                                .push(u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX));
                        }
                        Ok((status, bytes)) => {
                            errors += 1;
                            last_error = Some(format!(
                                "{status}: {}",
                                String::from_utf8_lossy(&bytes[..bytes.len().min(200)])
                            ));
                        }
                        Err(e) => {
                            errors += 1;
                            last_error = Some(e.to_string());
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

/// `repeat` streams of `n` artifact chunks, one after another: events per second from sending
/// the request to the end of the stream, the median stream.
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
    let mut rates = Vec::new();
    let mut events_per_stream = 0;
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        let (events, last) = raw_stream(addr, &body).await?;
        let elapsed = t.elapsed().as_secs_f64();
        if !last.contains("TASK_STATE_COMPLETED") || events < n {
            return Err(format!(
                "stream: {events} events, the last not a completed status: {last}"
            ));
        }
        events_per_stream = events;
        rates.push(events as f64 / elapsed);
    }
    rates.sort_by(f64::total_cmp);
    Ok(json!({
        "streams": rates.len(),
        "events": events_per_stream,
        "events_per_s": rates[rates.len() / 2],
        "min_events_per_s": rates[0],
        "max_events_per_s": rates[rates.len() - 1],
    }))
}

/// One streamed POST on its own connection: the number of SSE events and the last one's data.
async fn raw_stream(addr: SocketAddr, body: &[u8]) -> Result<(usize, String), String> {
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
        return Ok((events, last));
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
            return Ok((events, last));
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
