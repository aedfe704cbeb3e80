//! a2a-server with the bench agent, as a separate process for `cargo xtask bench`: the body of
//! `a2a-bench-server` and of `a2a-bench-server-counting` (the same server on a counting
//! allocator).
//!
//! ```text
//! a2a-bench-server --addr 127.0.0.1:7431 [--max-tasks 10000] [--max-streams 10000] [--serve auto|http1]
//!                  [--grpc true] [--per-core THREADS]
//! a2a-bench-server --addr 127.0.0.1:7431 --soak true
//! ```
//!
//! `--soak true` serves with the short limits and small store of [`crate::soak::preset`]
//! (for `cargo xtask soak`); the other flags are then ignored, but `--store URL` (and
//! `--store-schema NAME`), which put the tasks in a SQL store instead (for `cargo xtask soak
//! --store-cuts`).
//!
//! `--grpc true` serves gRPC (`lf.a2a.v1.A2AService`) beside JSON-RPC and HTTP+JSON on the
//! same port through `a2a_grpc::server::SharedPort` (with `--serve auto`, the default), and lists
//! it in the card. Off by default: `SharedPort` puts its own check and body wrapper on every
//! request, so the JSON-RPC and REST rows are measured without it.
//!
//! `--per-core N` (N > 0) serves with [`a2a_server::serve_per_core`] on N single-threaded
//! runtimes sharing the socket, rather than on the process's multi-thread runtime.
//!
//! `--max-total-bytes N` sets the store's `max_total_bytes` (default 256 MiB; the scale phases
//! raise it so that only `--max-tasks` limits the store), and `--max-connections N` serve's
//! connection cap (default max(10 000, `--max-streams` + 100): each idle stream is a
//! connection).
//!
//! The agent is `examples/echo.rs`'s echo (working, one artifact `echo` with the message text,
//! completed), served by [`a2a_server::serve`] with the default limits and retention, with
//! additions for the SSE phases: the text `stream N` emits `N` artifact chunks between working
//! and completed (`paced N` the same, yielding to the runtime after each chunk, as an agent
//! relaying a model's tokens does), `hold` keeps the task working until it is cancelled, and
//! `ask` leaves the task waiting for input; `stamped N` (for `cargo xtask bench --scale-out`)
//! waits 300 ms, then emits `N` chunks 10 ms apart, each the wall-clock time of its emission
//! in microseconds since the epoch ([`wire::stamped_command`]).
//!
//! `--store postgres://...` (with `--store-schema NAME`) keeps the tasks in PostgreSQL (shared
//! by the replicas `--scale-out` starts; the `postgres` column of `cargo xtask bench`), and
//! `--events nats://...` carries their events over NATS JetStream (`a2a-store-nats`), as
//! `a2a serve --store ... --events ...` does; `--store sqlite://PATH` keeps them in a SQLite
//! file (the `sqlite` column), not shared, as `a2a serve --store sqlite://PATH` does.

use crate::wire;
use a2a_grpc::server::{GrpcInterface as _, SharedPort};
use a2a_server::agent::{Agent, AgentError, EventSink, RequestContext};
use a2a_server::card::InterfaceUrl;
use a2a_server::store::{InMemoryTaskStore, RetentionPolicy};
use a2a_server::{A2aService, HandlerConfig, Limits};
use a2a_types::v1::{AgentCapabilities, AgentCard, AgentSkill, Artifact, Part};

struct Bench;

impl Agent for Bench {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        let text = ctx.text();
        let paced = wire::parse_paced_command(&text);
        if let Some(n) = wire::parse_stamped_command(&text) {
            sink.working(None).await?;
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            for i in 0..n {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap_or_default()
                    .as_micros();
                let chunk = Artifact::new(wire::STREAM_ARTIFACT, vec![Part::text(now.to_string())]);
                sink.artifact_chunk(chunk, i > 0, i + 1 == n).await?;
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
            sink.complete(None).await?;
        } else if let Some(n) = wire::parse_stream_command(&text).or(paced) {
            sink.working(None).await?;
            for i in 0..n {
                let chunk =
                    Artifact::new(wire::STREAM_ARTIFACT, vec![Part::text(wire::chunk_text(i))]);
                sink.artifact_chunk(chunk, i > 0, i + 1 == n).await?;
                if paced.is_some() {
                    tokio::task::yield_now().await;
                }
            }
            sink.complete(None).await?;
        } else if text == wire::ASK {
            sink.input_required("Which city?").await?;
        } else if text == wire::HOLD {
            sink.working(None).await?;
            ctx.cancelled().await;
        } else {
            // examples/echo.rs, verbatim.
            sink.working(None).await?;
            sink.artifact(Artifact::new("echo", vec![Part::text(text)]).with_name("echo"))
                .await?;
            sink.complete(None).await?;
        }
        Ok(())
    }
}

/// Serves the bench agent as `args` (the command line without the program) say, until the
/// process is killed.
///
/// # Errors
/// A bad flag, or the address cannot be bound.
pub async fn run(args: &[String]) -> Result<(), String> {
    let flags = crate::parse_flags(args)?;
    let addr: String = crate::flag(&flags, "addr", "127.0.0.1:7431".to_owned())?;
    let defaults = RetentionPolicy::default();
    let max_tasks = crate::flag(&flags, "max-tasks", defaults.max_tasks)?;
    let max_total_bytes = crate::flag(&flags, "max-total-bytes", defaults.max_total_bytes)?;
    let max_streams = crate::flag(&flags, "max-streams", Limits::default().max_streams)?;
    // Each stream is a connection: room for them all, and for a few calls beside.
    let max_connections = crate::flag(
        &flags,
        "max-connections",
        (max_streams + 100).max(a2a_server::ServeConfig::default().max_connections),
    )?;
    let listener = tokio::net::TcpListener::bind(&addr)
        .await
        .map_err(|e| format!("bind {addr}: {e}"))?;
    let url = format!(
        "http://{}",
        listener.local_addr().map_err(|e| e.to_string())?
    );
    let card = AgentCard::new(
        "Echo",
        "Echoes the text of every message as an artifact.",
        "1.0.0",
    )
    .with_capabilities(AgentCapabilities::default().with_streaming(true))
    .with_default_input_modes(["text/plain"])
    .with_default_output_modes(["text/plain"])
    .with_skills([AgentSkill::new(
        "echo",
        "Echo",
        "Repeats the message text.",
        ["echo"],
    )]);
    if crate::flag(&flags, "soak", false)? {
        let store: String = crate::flag(&flags, "store", String::new())?;
        let schema: String = crate::flag(&flags, "store-schema", String::new())?;
        let builder = A2aService::builder(Bench, card).public_url(url);
        let service = soak_service(builder, (!store.is_empty()).then_some((store, schema))).await?;
        let config = soak_config(service.serve_config());
        return a2a_server::serve_with_shutdown(listener, service, std::future::pending(), config)
            .await
            .map_err(|e| e.to_string());
    }
    let grpc = crate::flag(&flags, "grpc", false)?;
    let mut builder = A2aService::builder(Bench, card).public_url(url);
    if grpc {
        builder = builder.grpc_interface(InterfaceUrl::Authority);
    }
    let store: String = crate::flag(&flags, "store", String::new())?;
    let builder = if store.is_empty() {
        builder.store(InMemoryTaskStore::with_retention(
            defaults
                .with_max_tasks(max_tasks)
                .with_max_total_bytes(max_total_bytes),
        ))
    } else {
        let schema: String = crate::flag(&flags, "store-schema", String::new())?;
        let events: String = crate::flag(&flags, "events", String::new())?;
        replicated(builder, &store, &schema, &events).await?
    };
    let service = builder
        .limits(Limits::default().with_max_streams(max_streams))
        .build();
    match crate::flag(&flags, "serve", "auto".to_owned())?.as_str() {
        // The library's accept loop: HTTP/1.1 and HTTP/2, graceful shutdown.
        "auto" => {
            let config = service.serve_config().with_max_connections(max_connections);
            let per_core = crate::flag(&flags, "per-core", 0_usize)?;
            let result = if let Some(threads) = std::num::NonZeroUsize::new(per_core) {
                // One single-threaded runtime per thread, sharing the socket.
                if grpc {
                    let shared = SharedPort::new(service);
                    let pending = std::future::pending();
                    a2a_server::serve_per_core(listener, shared, threads, pending, config).await
                } else {
                    let pending = std::future::pending();
                    a2a_server::serve_per_core(listener, service, threads, pending, config).await
                }
            } else if grpc {
                // gRPC beside JSON-RPC and HTTP+JSON on the same port, as
                // `a2a-grpc/examples/interop_agent.rs` serves: every request then passes
                // `SharedPort`'s check and body wrapper, so only the gRPC rows use it.
                let shared = SharedPort::new(service);
                a2a_server::serve_with_shutdown(listener, shared, std::future::pending(), config)
                    .await
            } else {
                a2a_server::serve_with_shutdown(listener, service, std::future::pending(), config)
                    .await
            };
            result.map_err(|e| e.to_string())
        }
        // For comparison: the service on hyper's plain HTTP/1.1 connection, as the floor serves.
        "http1" => serve_http1(listener, service).await,
        // Diagnosis of the idle-subscriber memory: which part of the library's loop costs it.
        "auto-only" | "auto-upgrades" | "http1-timer" => {
            serve_variant(listener, service, &flag_value(&flags, "serve")).await
        }
        other => Err(format!("--serve {other}: auto or http1")),
    }
}

async fn serve_http1(listener: tokio::net::TcpListener, service: A2aService) -> Result<(), String> {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let service = hyper_util::service::TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .await;
        });
    }
}

/// The service with the soak's limits and store: the memory store with the preset's bounds,
/// or, given `(URL, schema)`, a SQL store (`--store-cuts`: PostgreSQL behind the driver's
/// fault proxy).
async fn soak_service(
    builder: a2a_server::ServiceBuilder,
    sql: Option<(String, String)>,
) -> Result<A2aService, String> {
    use crate::soak::preset;
    let builder = match sql {
        Some((url, schema)) => {
            let mut config = a2a_store_sql::SqlConfig::new(url);
            if !schema.is_empty() {
                config = config.with_schema(schema);
            }
            let store = a2a_store_sql::SqlStore::connect(config)
                .await
                .map_err(|e| e.to_string())?;
            builder.store(store)
        }
        None => {
            let retention = RetentionPolicy::default()
                .with_max_tasks(preset::MAX_TASKS)
                .with_max_live_tasks(preset::MAX_TASKS)
                .with_max_total_bytes(preset::MAX_TOTAL_BYTES)
                .with_terminal_ttl(Some(preset::TERMINAL_TTL));
            builder.store(InMemoryTaskStore::with_retention(retention))
        }
    };
    Ok(builder
        .limits(
            Limits::default()
                .with_max_body_bytes(preset::MAX_BODY_BYTES)
                .with_body_idle_timeout(preset::BODY_IDLE_TIMEOUT)
                .with_body_read_timeout(preset::BODY_READ_TIMEOUT)
                .with_request_timeout(preset::REQUEST_TIMEOUT),
        )
        .handler_config(
            HandlerConfig::default()
                .with_max_page_bytes(preset::MAX_PAGE_BYTES)
                .with_interrupted_ttl(Some(preset::INTERRUPTED_TTL)),
        )
        .build())
}

/// A SQL store, as `a2a serve --store ... --events ...` builds it: PostgreSQL at `url` in
/// `schema`, shared by replicas, its events over NATS at `events` when given
/// (`a2a-store-nats`); or a SQLite file (`sqlite://PATH`), this process's alone.
async fn replicated(
    builder: a2a_server::ServiceBuilder,
    url: &str,
    schema: &str,
    events: &str,
) -> Result<a2a_server::ServiceBuilder, String> {
    let mut config = a2a_store_sql::SqlConfig::new(url).with_log_notify(events.is_empty());
    if !schema.is_empty() {
        config = config.with_schema(schema);
    }
    let sql = a2a_store_sql::SqlStore::connect(config)
        .await
        .map_err(|e| format!("--store: {e}"))?;
    let shared = sql.dialect() == a2a_store_sql::Dialect::Postgres;
    let builder = builder.handler_config(HandlerConfig::default().with_shared_store(shared));
    if events.is_empty() {
        return Ok(builder.store(sql));
    }
    let store = a2a_store_nats::NatsEvents::connect(sql, a2a_store_nats::NatsConfig::new(events))
        .await
        .map_err(|e| format!("--events: {e}"))?;
    Ok(builder.store(store))
}

/// The connection limits of the soak.
fn soak_config(config: a2a_server::ServeConfig) -> a2a_server::ServeConfig {
    use crate::soak::preset;
    config
        .with_header_read_timeout(preset::HEADER_READ_TIMEOUT)
        .with_idle_timeout(preset::IDLE_TIMEOUT)
        .with_http2_keep_alive_interval(Some(preset::H2_PING_INTERVAL))
        .with_http2_keep_alive_timeout(preset::H2_PING_TIMEOUT)
}

fn flag_value(flags: &[(String, String)], name: &str) -> String {
    crate::flag(flags, name, String::new()).unwrap_or_default()
}

async fn serve_variant(
    listener: tokio::net::TcpListener,
    service: A2aService,
    variant: &str,
) -> Result<(), String> {
    use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let service = hyper_util::service::TowerToHyperService::new(service.clone());
        let io = TokioIo::new(stream);
        let variant = variant.to_owned();
        tokio::spawn(async move {
            match variant.as_str() {
                "auto-only" => {
                    let builder =
                        hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
                    let _ = builder.serve_connection(io, service).await;
                }
                "auto-upgrades" => {
                    let builder =
                        hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
                    let _ = builder.serve_connection_with_upgrades(io, service).await;
                }
                _ => {
                    let _ = hyper::server::conn::http1::Builder::new()
                        .timer(TokioTimer::new())
                        .header_read_timeout(std::time::Duration::from_secs(30))
                        .serve_connection(io, service)
                        .await;
                }
            }
        });
    }
}
