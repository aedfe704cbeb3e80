//! [`serve`]: the hyper accept loop, with graceful shutdown.

use std::future::Future;
use std::time::Duration;

use hyper::server::conn::{http1, http2};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};

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

/// The first bytes of an HTTP/2 connection with prior knowledge (RFC 9113 §3.4).
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// True when the connection starts with the HTTP/2 preface; reads nothing.
async fn starts_with_h2_preface(stream: &TcpStream) -> std::io::Result<bool> {
    let mut buf = [0u8; H2_PREFACE.len()];
    loop {
        let n = stream.peek(&mut buf).await?;
        if n == 0 || !H2_PREFACE.starts_with(&buf[..n]) {
            return Ok(false);
        }
        if n == H2_PREFACE.len() {
            return Ok(true);
        }
        // A prefix of the preface so far: wait for the rest.
        tokio::time::sleep(Duration::from_millis(2)).await;
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
    let header_read_timeout = service.limits().header_read_timeout;
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
        let watcher = graceful.watcher();
        tokio::spawn(async move {
            // HTTP/2 with prior knowledge starts with the connection preface; anything else is
            // HTTP/1.1. Peeking (instead of hyper-util's auto builder, which reads the first
            // bytes and hands them back) keeps hyper's HTTP/1 read buffer at its initial size,
            // which halves the memory of an idle SSE connection.
            let detect = tokio::time::timeout(header_read_timeout, starts_with_h2_preface(&stream));
            let Ok(Ok(http2)) = detect.await else {
                // A client that sent nothing in time, or a broken connection.
                return;
            };
            let result = if http2 {
                let connection = http2::Builder::new(TokioExecutor::new())
                    .timer(TokioTimer::new())
                    .serve_connection(TokioIo::new(stream), hyper_service);
                watcher.watch(connection).await
            } else {
                let connection = http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(header_read_timeout)
                    .serve_connection(TokioIo::new(stream), hyper_service);
                watcher.watch(connection).await
            };
            if let Err(err) = result {
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
