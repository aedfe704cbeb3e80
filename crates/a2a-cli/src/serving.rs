//! What the commands that serve share (`serve`, `mock`, `mcp --http`): listening on the address
//! a flag names, and the accept loop until Ctrl-C or SIGTERM.

use crate::error::{CliError, Code};

/// Listens on `addr`; the listener and the URL it is reached at (`https` with `tls`).
pub(crate) async fn listen(
    addr: &str,
    tls: bool,
) -> Result<(tokio::net::TcpListener, String), CliError> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|err| CliError::new(Code::Internal, format!("cannot listen on {addr}: {err}")))?;
    let bound = listener.local_addr().map_err(|err| {
        CliError::new(
            Code::Internal,
            format!("cannot read the address listened on: {err}"),
        )
    })?;
    let scheme = if tls { "https" } else { "http" };
    Ok((listener, format!("{scheme}://{bound}")))
}

/// Serves `service` (with gRPC beside it; over TLS with `tls`) until Ctrl-C or SIGTERM.
pub(crate) async fn serve_on(
    listener: tokio::net::TcpListener,
    service: a2a_server::A2aService,
    grpc: bool,
    tls: Option<a2a_server::tls::TlsSettings>,
) -> Result<(), CliError> {
    // Shutdown tells the running agents to stop, as before the serve loop became generic.
    let config = service.serve_config();
    let config = match tls {
        Some(tls) => config.with_tls(tls),
        None => config,
    };
    let served = if grpc {
        let shared = a2a_grpc::server::SharedPort::new(service);
        a2a_server::serve_with_shutdown(listener, shared, shutdown_signal(), config).await
    } else {
        a2a_server::serve_with_shutdown(listener, service, shutdown_signal(), config).await
    };
    served.map_err(|err| CliError::new(Code::Internal, format!("the server failed: {err}")))?;
    Ok(())
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
