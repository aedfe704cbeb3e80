//! `cargo xtask bench`: a2a-server against a floor and the official SDKs, in one run.
//!
//! Its binaries, each its own process so that `/proc/<pid>` measures one thing:
//!
//! * `a2a-bench-floor`: a raw hyper server that answers `SendMessage` with pre-built bytes of
//!   the same shape as ours (a completed task with one artifact echoing the text), streams
//!   pre-built SSE events for `SendStreamingMessage`, and holds `SubscribeToTask` streams open.
//!   It is the least an A2A server can do per request. It answers `POST /message:send`
//!   (HTTP+JSON) too; with `--json true` it is the JSON floor, each `SendMessage` answer built
//!   per request with `serde_json` ([`wire::json_floor_answer`]).
//! * `a2a-bench-floor-grpc`: the gRPC floor, the generated tonic `A2AService` server answering
//!   a pre-built `SendMessageResponse`.
//! * `a2a-bench-server`: a2a-server as a library with the echo agent of `examples/echo.rs`;
//!   the text `stream N` makes it emit N artifact chunks, `hold` keeps the task working.
//! * `a2a-bench-server-counting`: the same server on a counting allocator (`stats_alloc`), for
//!   the allocations per request and the allocated bytes per kept task ([`alloc_stats`]).
//! * `a2a-bench-load`: the load generator (hyper's HTTP/1.1 client, one keep-alive connection
//!   per concurrent worker; for gRPC tonic's client, one channel per worker).
//! * `a2a-bench`: the driver. It starts every server one after another, loads it, reads
//!   `/proc/<pid>/stat` (CPU) and `/proc/<pid>/status` (VmRSS), and prints every figure with
//!   its ratio to the floor measured in the same run.
//!
//! The Python and JS SDK echo servers (`sdk/`) run when the interop suite has installed the
//! SDKs. Figures and goals: `docs/benchmarks.md`.

pub mod alloc_stats;
pub mod database;
pub mod process;
pub mod procfs;
pub mod scale;
pub mod scale_out;
pub mod server;
pub mod soak;
pub mod wire;

/// The accept loop of the floors: binds `addr`, and for each connection (with `TCP_NODELAY`,
/// as `a2a_server::serve` sets it) spawns `serve(stream)`, until the process is killed.
///
/// # Errors
/// The address cannot be bound.
pub async fn serve_each<F, Fut>(addr: &str, serve: F) -> Result<(), String>
where
    F: Fn(tokio::net::TcpStream) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("bind {addr}: {e}"))?;
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            continue;
        };
        let _ = stream.set_nodelay(true);
        tokio::spawn(serve(stream));
    }
}

/// Parses `--name value` pairs; flags without a value are not supported.
///
/// # Errors
/// An argument that is not `--name`, or a name without a value.
pub fn parse_flags(args: &[String]) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(name) = it.next() {
        let Some(name) = name.strip_prefix("--") else {
            return Err(format!("unexpected argument `{name}`"));
        };
        if let Some((name, value)) = name.split_once('=') {
            out.push((name.to_owned(), value.to_owned()));
            continue;
        }
        let value = it
            .next()
            .ok_or_else(|| format!("`--{name}` needs a value"))?;
        out.push((name.to_owned(), value.clone()));
    }
    Ok(out)
}

/// The last value of flag `name`, parsed, or `default`.
///
/// # Errors
/// A value that does not parse.
pub fn flag<T: std::str::FromStr>(
    flags: &[(String, String)],
    name: &str,
    default: T,
) -> Result<T, String> {
    match flags.iter().rev().find(|(n, _)| n == name) {
        None => Ok(default),
        Some((_, v)) => v
            .parse()
            .map_err(|_| format!("`--{name} {v}`: not a valid value")),
    }
}

/// The exit code of a driver: 0 when `outcome` is `Ok(true)`, 2 when a measurement or budget
/// failed (`Ok(false)`), 1 (with the error on stderr, after `name`) when the run failed.
pub fn exit_code(name: &str, outcome: Result<bool, String>) -> std::process::ExitCode {
    match outcome {
        Ok(true) => std::process::ExitCode::SUCCESS,
        Ok(false) => std::process::ExitCode::from(2),
        Err(e) => {
            eprintln!("{name}: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
