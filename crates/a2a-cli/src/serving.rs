//! What the commands that serve share (`serve`, `mock`, `mcp --http`): listening on the address
//! a flag names, and the accept loop until Ctrl-C or SIGTERM, each request logged
//! ([`crate::request_log`]).

use crate::error::{CliError, Code};
use crate::request_log::Logged;

/// `--a2a-version` of the commands that serve: the protocol versions served.
#[derive(clap::Args, Debug, Clone, Default)]
pub(crate) struct VersionArgs {
    /// A protocol version to serve on JSON-RPC and HTTP+JSON: 1.0, 0.3 (also 0.2), 0.1, and
    /// 1.1 (the unreleased draft: task generations, long-poll GetTask; only when named);
    /// repeatable (`--a2a-version 1.0 --a2a-version 1.1`). 1.0 is always among them. Default:
    /// 1.0, 0.3, 0.1. A version left out is not on the card (with 1.0 alone, a pure 1.0 card)
    /// and its methods are answered with VersionNotSupportedError.
    #[arg(long = "a2a-version", value_name = "VERSION")]
    pub(crate) versions: Vec<String>,
}

/// `--runtime` of `a2a serve`: how requests are spread over the cores.
#[derive(clap::Args, Debug, Clone, Default)]
pub(crate) struct RuntimeArgs {
    /// `per-core` (the default): one single-threaded runtime per core, all accepting on the one
    /// socket; a connection, its requests and the agents they start stay on one thread (less
    /// CPU per request: docs/benchmarks.md). `multi-thread`: tokio's work-stealing runtime,
    /// which spreads one connection's concurrent requests (HTTP/2, gRPC) over every core.
    #[arg(long, value_enum, default_value_t = Runtime::PerCore)]
    pub(crate) runtime: Runtime,
}

/// The values of `--runtime`.
#[derive(clap::ValueEnum, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Runtime {
    /// One single-threaded runtime per core (`a2a_server::serve_per_core`).
    #[default]
    PerCore,
    /// The process's multi-thread runtime (`a2a_server::serve_with_shutdown`).
    MultiThread,
}

impl VersionArgs {
    /// The versions served: those named, else every one.
    pub(crate) fn served(&self) -> Result<a2a_server::card::Versions, CliError> {
        if self.versions.is_empty() {
            return Ok(a2a_server::card::Versions::default());
        }
        a2a_server::card::Versions::parse(&self.versions).map_err(|err| {
            CliError::usage(err.to_string())
                .hint("pass --a2a-version 1.0, and 0.3 (or 0.2) or 0.1 for older clients, 1.1 for the draft")
        })
    }
}

/// Listens on `addr`, which the option `flag` gave; the listener and the URL it is reached at
/// (`https` with `tls`). An address that cannot be listened on (in use, not of this machine, not
/// allowed, not an address) is a usage error whose hint names `flag`.
pub(crate) async fn listen(
    flag: &str,
    addr: &str,
    tls: bool,
) -> Result<(tokio::net::TcpListener, String), CliError> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|err| cannot_listen(flag, addr, &err))?;
    let bound = listener.local_addr().map_err(|err| {
        CliError::new(
            Code::Internal,
            format!("cannot read the address listened on: {err}"),
        )
    })?;
    let scheme = if tls { "https" } else { "http" };
    Ok((listener, format!("{scheme}://{bound}")))
}

/// The error of a listen on `addr` (given by `flag`) that failed with `err`.
fn cannot_listen(flag: &str, addr: &str, err: &std::io::Error) -> CliError {
    use std::io::ErrorKind;
    let another = format!("pass another address with {flag} (port 0 picks a free one)");
    match err.kind() {
        ErrorKind::AddrInUse => CliError::usage(format!(
            "cannot listen on {addr}: the address is in use"
        ))
        .hint(format!(
            "another program (another `a2a serve`?) listens there: stop it, or {another}"
        )),
        ErrorKind::AddrNotAvailable | ErrorKind::PermissionDenied | ErrorKind::InvalidInput => {
            CliError::usage(format!("cannot listen on {addr}: {err}")).hint(another)
        }
        _ => CliError::new(Code::Internal, format!("cannot listen on {addr}: {err}")).hint(another),
    }
}

/// Serves `service` (with gRPC beside it; over TLS with `tls`; on `runtime`) until Ctrl-C or
/// SIGTERM.
pub(crate) async fn serve_on(
    listener: tokio::net::TcpListener,
    service: a2a_server::A2aService,
    grpc: bool,
    tls: Option<a2a_server::tls::TlsSettings>,
    runtime: Runtime,
) -> Result<(), CliError> {
    // Shutdown tells the running agents to stop, as before the serve loop became generic.
    let config = service.serve_config();
    let config = match tls {
        Some(tls) => config.with_tls(tls),
        None => config,
    };
    // Each request in a span of the request log's (a2a_cli.request).
    let served = if grpc {
        let shared = Logged(a2a_grpc::server::SharedPort::new(service));
        accept(listener, shared, config, runtime).await
    } else {
        accept(listener, Logged(service), config, runtime).await
    };
    served.map_err(|err| CliError::new(Code::Internal, format!("the server failed: {err}")))?;
    Ok(())
}

/// The accept loop of `runtime` until Ctrl-C or SIGTERM.
async fn accept<S, B>(
    listener: tokio::net::TcpListener,
    service: S,
    config: a2a_server::ServeConfig,
    runtime: Runtime,
) -> std::io::Result<()>
where
    S: tower_service::Service<http::Request<hyper::body::Incoming>, Response = http::Response<B>>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    S::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    B: hyper::body::Body<Data = bytes::Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    match runtime {
        Runtime::PerCore => {
            let cores = std::thread::available_parallelism().unwrap_or(std::num::NonZeroUsize::MIN);
            a2a_server::serve_per_core(listener, service, cores, shutdown_signal(), config).await
        }
        Runtime::MultiThread => {
            a2a_server::serve_with_shutdown(listener, service, shutdown_signal(), config).await
        }
    }
}

/// Ctrl-C, or SIGTERM on Unix.
pub(crate) async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let terminate = tokio::signal::unix::SignalKind::terminate();
        let Ok(mut term) = tokio::signal::unix::signal(terminate) else {
            let _ = tokio::signal::ctrl_c().await;
            return;
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

#[cfg(test)]
mod version_tests {
    use super::VersionArgs;
    use clap::Parser as _;

    #[derive(clap::Parser)]
    struct Cmd {
        #[command(flatten)]
        versions: VersionArgs,
    }

    fn served(args: &[&str]) -> Result<Vec<&'static str>, String> {
        let cmd = Cmd::try_parse_from(std::iter::once("serve").chain(args.iter().copied()))
            .map_err(|e| e.to_string())?;
        cmd.versions
            .served()
            .map(|v| v.names())
            .map_err(|e| e.message)
    }

    #[test]
    fn a2a_version_is_repeatable_and_defaults_to_every_version() {
        assert_eq!(served(&[]).unwrap(), ["1.0", "0.3", "0.1"]);
        assert_eq!(served(&["--a2a-version", "1.0"]).unwrap(), ["1.0"]);
        assert_eq!(
            served(&["--a2a-version", "1.0", "--a2a-version", "1.1"]).unwrap(),
            ["1.1", "1.0"]
        );
        assert_eq!(
            served(&["--a2a-version", "1.0", "--a2a-version", "0.2"]).unwrap(),
            ["1.0", "0.3"]
        );
        assert_eq!(
            served(&["--a2a-version", "0.1"]).unwrap_err(),
            "A2A 1.0 is always served: name it beside the older versions (1.0, 0.1)"
        );
        assert_eq!(
            served(&["--a2a-version", "1.0", "--a2a-version", "0.4"]).unwrap_err(),
            "A2A version `0.4` is not one this server can serve (1.1; 1.0; 0.3 and 0.2; 0.1)"
        );
    }
}
