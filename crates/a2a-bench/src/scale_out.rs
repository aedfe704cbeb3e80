//! `cargo xtask bench --scale-out`: the capacity of replicas on one PostgreSQL, alone and with
//! their events over NATS JetStream, side by side in one run.
//!
//! For each store (`postgres`: `--store postgres://...`, events by `NOTIFY`; `postgres+nats`:
//! the same with `--events nats://...`) and each replica count (`--replicas 1,2,3`), the driver
//! starts that many `a2a-bench-server` processes on a fresh schema and measures, with the load
//! spread round-robin over the replicas:
//!
//! * **tasks/s**: blocking `SendMessage` (the echo agent: working, an artifact, completed) on
//!   `--concurrency` keep-alive connections for `--duration` seconds;
//! * **events/s**: `--streams` concurrent `SendStreamingMessage` calls, each `stream N`
//!   (`--stream-events` artifact chunks emitted as fast as the store takes them): the events
//!   every client received (each stream must deliver all `N + 3`) over the wall time of the
//!   phase, and the CPU (in cores) of the replicas, of every `postgres` process and of every
//!   `nats-server` process on the machine meanwhile (`/proc/<pid>/stat`; other work on the
//!   machine counts too: the figures say what the phase cost, not who else ran);
//! * **fan-out latency**: one task `stamped K` on the first replica (`--fanout-events`
//!   chunks 10 ms apart, each carrying the time it was emitted), followed by `SubscribeToTask`
//!   on the second (the same one with one replica): p50 and p99 of the time from emission to
//!   the subscriber's receipt, the quiet machine's figure (no other load).
//!
//! PostgreSQL is `--postgres` (default `postgres://postgres@127.0.0.1:5432/test`), NATS
//! `--nats` (default `nats://127.0.0.1:4222`, JetStream enabled).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use serde_json::{Value, json};

use crate::process::{self, Server};
use crate::{database, procfs, wire};

/// What `--scale-out` measures.
#[derive(Clone, Debug)]
#[expect(
    clippy::exhaustive_structs,
    reason = "the bench driver builds it field by field"
)]
pub struct ScaleOutConfig {
    /// Where the bench binaries are.
    pub bin_dir: PathBuf,
    /// Where the servers' logs go (`logs/` below it).
    pub out_dir: PathBuf,
    /// The PostgreSQL URL.
    pub postgres: String,
    /// The NATS URL.
    pub nats: String,
    /// The replica counts.
    pub replicas: Vec<usize>,
    /// Seconds of the tasks/s phase.
    pub duration: f64,
    /// Connections of the tasks/s phase.
    pub concurrency: usize,
    /// Concurrent streams of the events/s phase.
    pub streams: usize,
    /// Artifact chunks per stream.
    pub stream_events: usize,
    /// Chunks of the fan-out task.
    pub fanout_events: usize,
    /// Clock ticks per second, for `/proc/<pid>/stat`.
    pub clock_ticks: u64,
}

/// The figures of one store at one replica count.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Row {
    /// `postgres` or `postgres+nats`.
    pub store: &'static str,
    /// How many replicas.
    pub replicas: usize,
    /// Blocking `SendMessage` calls completed per second.
    pub tasks_per_s: f64,
    /// Stream events received per second.
    pub events_per_s: f64,
    /// Fan-out latency, median, ms.
    pub fanout_p50_ms: f64,
    /// Fan-out latency, 99th percentile, ms.
    pub fanout_p99_ms: f64,
    /// CPU of the replicas during the events phase, in cores.
    pub replicas_cpu: f64,
    /// CPU of every `postgres` process during the events phase, in cores.
    pub postgres_cpu: f64,
    /// CPU of every `nats-server` process during the events phase, in cores.
    pub nats_cpu: f64,
}

/// Runs every store at every replica count.
///
/// # Errors
/// A server that does not start, a stream that loses or adds an event, a failed call.
pub fn run(config: &ScaleOutConfig) -> Result<Vec<Row>, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let logs = config.out_dir.join("logs");
    std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    let mut rows = Vec::new();
    for &replicas in &config.replicas {
        for store in ["postgres", "postgres+nats"] {
            eprintln!("scale-out: {store}, {replicas} replica(s)");
            let schema = format!(
                "a2a_scale_out_{}_{}_{}",
                std::process::id(),
                replicas,
                store.len()
            );
            let mut servers = Vec::new();
            for i in 0..replicas {
                let addr = process::free_addr()?;
                let mut argv = vec![
                    config
                        .bin_dir
                        .join("a2a-bench-server")
                        .display()
                        .to_string(),
                    "--addr".into(),
                    addr.to_string(),
                    "--store".into(),
                    config.postgres.clone(),
                    "--store-schema".into(),
                    schema.clone(),
                ];
                if store == "postgres+nats" {
                    argv.extend(["--events".into(), config.nats.clone()]);
                }
                let log = logs.join(format!("scale-out-{schema}-{i}.log"));
                servers.push(process::start("a2a-bench-server", &argv, &[], addr, &log)?);
            }
            let row = runtime.block_on(measure(config, store, &servers));
            drop(servers);
            runtime.block_on(database::drop_schema(&config.postgres, &schema))?;
            rows.push(row?);
        }
    }
    Ok(rows)
}

/// The Markdown table of the rows.
pub fn table(config: &ScaleOutConfig, rows: &[Row]) -> String {
    let mut out = format!(
        "| store | replicas | tasks/s (SendMessage, {} conns) | events/s ({} streams x {}) | \
         fan-out p50 / p99 (ms) | CPU during the events: replicas / postgres / nats-server (cores) | \
         the same per event (ms) |\n\
         |---|---:|---:|---:|---:|---|---|\n",
        config.concurrency, config.streams, config.stream_events
    );
    for row in rows {
        let per_event = |cores: f64| {
            if row.events_per_s > 0.0 {
                cores / row.events_per_s * 1000.0
            } else {
                0.0
            }
        };
        out.push_str(&format!(
            "| {} | {} | {:.0} | {:.0} | {:.1} / {:.1} | {:.2} / {:.2} / {:.2} | {:.2} / {:.2} / {:.2} |\n",
            row.store,
            row.replicas,
            row.tasks_per_s,
            row.events_per_s,
            row.fanout_p50_ms,
            row.fanout_p99_ms,
            row.replicas_cpu,
            row.postgres_cpu,
            row.nats_cpu,
            per_event(row.replicas_cpu),
            per_event(row.postgres_cpu),
            per_event(row.nats_cpu),
        ));
    }
    out
}

/// The rows as JSON.
pub fn to_json(rows: &[Row]) -> Value {
    Value::Array(
        rows.iter()
            .map(|r| {
                json!({
                    "store": r.store, "replicas": r.replicas, "tasks_per_s": r.tasks_per_s,
                    "events_per_s": r.events_per_s, "fanout_p50_ms": r.fanout_p50_ms,
                    "fanout_p99_ms": r.fanout_p99_ms, "replicas_cpu": r.replicas_cpu,
                    "postgres_cpu": r.postgres_cpu, "nats_cpu": r.nats_cpu,
                })
            })
            .collect(),
    )
}

async fn measure(
    config: &ScaleOutConfig,
    store: &'static str,
    servers: &[Server],
) -> Result<Row, String> {
    let addrs: Vec<SocketAddr> = servers.iter().map(|s| s.addr).collect();
    // Warm-up: every replica's pool and agent.
    for addr in &addrs {
        let mut conn = connect(*addr).await?;
        send_blocking(&mut conn).await?;
    }
    let tasks_per_s = tasks_phase(config, &addrs).await?;
    let pids: Vec<u32> = servers.iter().map(|s| s.pid).collect();
    let before = cpu_snapshot(&pids, config.clock_ticks);
    let started = Instant::now();
    let events = events_phase(config, &addrs).await?;
    let elapsed = started.elapsed().as_secs_f64();
    let after = cpu_snapshot(&pids, config.clock_ticks);
    let (p50, p99) = fanout_phase(config, &addrs).await?;
    Ok(Row {
        store,
        replicas: servers.len(),
        tasks_per_s,
        events_per_s: events as f64 / elapsed,
        fanout_p50_ms: p50,
        fanout_p99_ms: p99,
        replicas_cpu: (after.0 - before.0) / elapsed,
        postgres_cpu: (after.1 - before.1) / elapsed,
        nats_cpu: (after.2 - before.2) / elapsed,
    })
}

type Conn = hyper::client::conn::http1::SendRequest<Full<Bytes>>;

async fn connect(addr: SocketAddr) -> Result<Conn, String> {
    let stream = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect {addr}: {e}"))?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let (sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .map_err(|e| e.to_string())?;
    tokio::spawn(connection);
    Ok(sender)
}

fn post(body: Vec<u8>) -> http::Request<Full<Bytes>> {
    http::Request::post("/")
        .header("host", "127.0.0.1")
        .header("content-type", "application/json")
        .header("a2a-version", "1.0")
        .body(Full::new(Bytes::from(body)))
        .expect("a valid request")
}

async fn call(conn: &mut Conn, body: Vec<u8>) -> Result<Bytes, String> {
    conn.ready().await.map_err(|e| e.to_string())?;
    let response = conn
        .send_request(post(body))
        .await
        .map_err(|e| e.to_string())?;
    let status = response.status();
    let body = response
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    if !status.is_success() {
        return Err(format!("HTTP {status}: {}", String::from_utf8_lossy(&body)));
    }
    Ok(body)
}

async fn send_blocking(conn: &mut Conn) -> Result<(), String> {
    let body = call(conn, wire::send_message(wire::ECHO_TEXT, false)).await?;
    if memchr::memmem::find(&body, b"TASK_STATE_COMPLETED").is_none() {
        return Err(format!(
            "SendMessage did not complete: {}",
            String::from_utf8_lossy(&body[..body.len().min(300)])
        ));
    }
    Ok(())
}

async fn tasks_phase(config: &ScaleOutConfig, addrs: &[SocketAddr]) -> Result<f64, String> {
    let until = Instant::now() + Duration::from_secs_f64(config.duration);
    let started = Instant::now();
    let mut workers = Vec::new();
    for i in 0..config.concurrency {
        let addr = addrs[i % addrs.len()];
        workers.push(tokio::spawn(async move {
            let mut conn = connect(addr).await?;
            let mut done = 0u64;
            while Instant::now() < until {
                send_blocking(&mut conn).await?;
                done += 1;
            }
            Ok::<u64, String>(done)
        }));
    }
    let mut total = 0;
    for worker in workers {
        total += worker.await.map_err(|e| e.to_string())??;
    }
    Ok(total as f64 / started.elapsed().as_secs_f64())
}

/// Reads one SSE response to its end: each event's JSON.
async fn stream_events(
    conn: &mut Conn,
    body: Vec<u8>,
    mut each: impl FnMut(Value),
) -> Result<usize, String> {
    conn.ready().await.map_err(|e| e.to_string())?;
    let response = conn
        .send_request(post(body))
        .await
        .map_err(|e| e.to_string())?;
    if !response.status().is_success() {
        return Err(format!("stream: HTTP {}", response.status()));
    }
    let mut body = response.into_body();
    let mut decoder = a2a_sse::Decoder::new();
    let mut events = 0;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| e.to_string())?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        for decoded in decoder.decode(&data) {
            if let a2a_sse::Frame::Event(event) = decoded.map_err(|e| e.to_string())? {
                events += 1;
                let text = event.into_data().unwrap_or_default();
                each(serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))?);
            }
        }
    }
    Ok(events)
}

async fn events_phase(config: &ScaleOutConfig, addrs: &[SocketAddr]) -> Result<usize, String> {
    let mut streams = Vec::new();
    let n = config.stream_events;
    for i in 0..config.streams {
        let addr = addrs[i % addrs.len()];
        streams.push(tokio::spawn(async move {
            let mut conn = connect(addr).await?;
            let mut last = Value::Null;
            let body = wire::send_streaming_message(&wire::stream_command(n));
            let events = stream_events(&mut conn, body, |v| last = v).await?;
            let completed =
                last["result"]["statusUpdate"]["status"]["state"] == "TASK_STATE_COMPLETED";
            if events != n + 3 || !completed {
                return Err(format!(
                    "a stream delivered {events} events of {}, the last {last}",
                    n + 3
                ));
            }
            Ok::<usize, String>(events)
        }));
    }
    let mut total = 0;
    for stream in streams {
        total += stream.await.map_err(|e| e.to_string())??;
    }
    Ok(total)
}

fn micros_now() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_micros()
}

async fn fanout_phase(config: &ScaleOutConfig, addrs: &[SocketAddr]) -> Result<(f64, f64), String> {
    let (writer, reader) = (addrs[0], addrs[1 % addrs.len()]);
    let mut conn = connect(writer).await?;
    let body = call(
        &mut conn,
        wire::send_message(&wire::stamped_command(config.fanout_events), true),
    )
    .await?;
    let answer: Value = serde_json::from_slice(&body).map_err(|e| e.to_string())?;
    let id = answer["result"]["task"]["id"]
        .as_str()
        .ok_or_else(|| format!("no task in {answer}"))?
        .to_owned();
    let mut conn = connect(reader).await?;
    let mut latencies = Vec::new();
    stream_events(&mut conn, wire::subscribe_to_task(&id), |event| {
        let received = micros_now();
        let text = &event["result"]["artifactUpdate"]["artifact"]["parts"][0]["text"];
        if let Some(stamp) = text.as_str().and_then(|t| t.parse::<u128>().ok()) {
            latencies.push(received.saturating_sub(stamp) as f64 / 1000.0);
        }
    })
    .await?;
    if latencies.len() != config.fanout_events {
        return Err(format!(
            "the fan-out subscriber got {} of {} chunks",
            latencies.len(),
            config.fanout_events
        ));
    }
    latencies.sort_by(f64::total_cmp);
    let p = |q: usize| latencies[(latencies.len() * q / 100).min(latencies.len() - 1)];
    Ok((p(50), p(99)))
}

/// CPU seconds so far of `pids`, of every `postgres` and of every `nats-server` process.
fn cpu_snapshot(pids: &[u32], ticks: u64) -> (f64, f64, f64) {
    let replicas = pids
        .iter()
        .map(|&pid| {
            procfs::cpu_time(pid, ticks)
                .map(|d| d.as_secs_f64())
                .unwrap_or(0.0)
        })
        .sum();
    match database::cpu_by_name(&["postgres", "nats-server"], ticks)[..] {
        [postgres, nats] => (replicas, postgres, nats),
        _ => (replicas, 0.0, 0.0),
    }
}
