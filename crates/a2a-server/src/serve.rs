//! [`serve`]: the hyper accept loop, with graceful shutdown.

use std::future::Future;
use std::time::Duration;

use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;

use crate::service::A2aService;

/// How [`serve_with_shutdown`] ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShutdownConfig {
    /// After the shutdown signal, how long open connections (and SSE streams) may go on
    /// before they are closed. Default 10 s.
    pub deadline: Duration,
}

impl Default for ShutdownConfig {
    fn default() -> Self {
        Self {
            deadline: Duration::from_secs(10),
        }
    }
}

impl ShutdownConfig {
    /// Sets the deadline.
    #[must_use]
    pub fn with_deadline(mut self, deadline: Duration) -> Self {
        self.deadline = deadline;
        self
    }
}

/// Serves `service` on `listener` (HTTP/1.1 and HTTP/2) until the process ends.
pub async fn serve(listener: TcpListener, service: A2aService) -> std::io::Result<()> {
    serve_with_shutdown(
        listener,
        service,
        std::future::pending(),
        ShutdownConfig::default(),
    )
    .await
}

/// Serves `service` on `listener` until `signal` resolves; then stops accepting, asks running
/// agents to stop, lets open connections finish and closes what is still open after the
/// deadline.
///
/// ```no_run
/// # async fn run(service: a2a_server::A2aService) -> std::io::Result<()> {
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:7420").await?;
/// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
/// # drop(stop);
/// let signal = async { stopped.await.ok(); };
/// a2a_server::serve_with_shutdown(listener, service, signal, Default::default()).await
/// # }
/// ```
pub async fn serve_with_shutdown(
    listener: TcpListener,
    service: A2aService,
    signal: impl Future<Output = ()>,
    config: ShutdownConfig,
) -> std::io::Result<()> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(service.limits().header_read_timeout);
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut signal = std::pin::pin!(signal);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    // Out of file descriptors and the like: wait a moment and go on accepting.
                    tracing::warn!(%err, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut signal => break,
        };
        let hyper_service = TowerToHyperService::new(service.clone());
        let connection =
            builder.serve_connection_with_upgrades(TokioIo::new(stream), hyper_service);
        let connection = graceful.watch(connection.into_owned());
        tokio::spawn(async move {
            if let Err(err) = connection.await {
                tracing::debug!(%peer, %err, "connection ended with an error");
            }
        });
    }
    drop(listener);
    service.handler().shutdown();
    if tokio::time::timeout(config.deadline, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::info!("connections still open after the shutdown deadline are closed");
    }
    Ok(())
}
