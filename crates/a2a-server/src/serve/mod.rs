//! [`serve`]: the accept loop for any tower `Service` (HTTP/1.1 and HTTP/2 on one port), with
//! the connection limits a server on the internet needs and graceful shutdown.
//!
//! * HTTP/2 with prior knowledge is told from HTTP/1.1 by its connection preface, read (not
//!   polled) under the header read timeout and handed back to hyper.
//! * Every connection is watched: a request head must arrive in time, a connection without an
//!   open request (or HTTP/2 stream) is closed after the idle timeout, HTTP/2 peers are pinged.
//! * At [`ServeConfig::max_connections`] the loop stops accepting until a connection ends; an
//!   accept error (out of file descriptors) pauses it briefly, it never ends it.
//! * With [`ServeConfig::with_tls`] (feature `tls`) every connection is TLS: the handshake
//!   runs in the connection's task under [`ServeConfig::tls_handshake_timeout`], ALPN picks
//!   HTTP/2 or HTTP/1.1, and the client's verified certificate chain goes into each request's
//!   extensions ([`PeerCertificates`](crate::tls::PeerCertificates)).

use std::error::Error as StdError;
use std::fmt;
use std::future::Future;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use http_body::Body;
use hyper::body::Incoming;
use tokio::net::TcpListener;
use tokio::task::{JoinError, JoinSet};
use tokio_util::sync::CancellationToken;
use tower_service::Service;

mod connection;
mod per_core;
#[cfg(feature = "tls")]
mod tls;

use connection::Settings;
pub use per_core::serve_per_core;

/// How long the accept loop pauses after an accept error such as `EMFILE` (out of file
/// descriptors) before it tries again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// A shutdown hook: see [`ServeConfig::on_shutdown`].
type Hook = Arc<dyn Fn() + Send + Sync>;

/// The connection layer's limits and the shutdown deadline of [`serve`] and
/// [`serve_with_shutdown`]. Every limit has a safe default; each field says what a client
/// sees when it is hit.
///
/// Request-level limits (body size, streams, request time) belong to the service (for
/// [`A2aService`](crate::A2aService), [`Limits`](crate::Limits)).
///
/// ```
/// use std::time::Duration;
/// use a2a_server::ServeConfig;
///
/// let config = ServeConfig::default()
///     .with_max_connections(1_000)
///     .with_idle_timeout(Duration::from_secs(30));
/// assert_eq!(config.header_read_timeout, Duration::from_secs(30));
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct ServeConfig {
    /// The most connections open at once. Default 10 000. At the limit the server stops
    /// accepting until a connection ends: a new client's connect still succeeds (the kernel
    /// queues it in the listen backlog) and its request is answered once a connection closes;
    /// when the backlog is full too, connects time out. Keep the process's file descriptor
    /// limit (`ulimit -n`) above this; when descriptors run out first, accepting pauses
    /// 50 ms at a time until one is free. `0` is refused by [`serve_with_shutdown`].
    pub max_connections: usize,
    /// How long a client has to send a complete request head. Default 30 s. Counted from the
    /// accept for a new connection (including the first bytes that tell HTTP/2 from
    /// HTTP/1.1), and for a kept-alive HTTP/1.1 connection from the first byte of its next
    /// request. The client sees the connection closed, without a response.
    pub header_read_timeout: Duration,
    /// How long a connection may stay without an open request. Default 60 s. An HTTP/1.1
    /// connection idle between requests (keep-alive) is closed: the client sees the
    /// connection closed, and a request it sends at that very moment fails like any
    /// keep-alive race. An HTTP/2 connection with no open stream gets a `GOAWAY` (`NO_ERROR`)
    /// and is then closed. A request whose response is still streaming (an SSE stream) is
    /// open: its connection is never idle.
    pub idle_timeout: Duration,
    /// How often an HTTP/2 connection on which nothing was read is pinged. Default 60 s;
    /// `None` sends no pings.
    pub http2_keep_alive_interval: Option<Duration>,
    /// How long a ping may go unanswered. Default 20 s. The connection, with every stream on
    /// it, is then closed: the peer (if it still listens) sees the connection closed. Also the
    /// longest the close handshake after an idle `GOAWAY` may take.
    pub http2_keep_alive_timeout: Duration,
    /// The most concurrent streams one HTTP/2 connection may open (its `SETTINGS`).
    /// Default 200. The client waits for a stream to end before it opens another; a stream
    /// opened beyond the limit anyway is refused (`REFUSED_STREAM`).
    pub http2_max_concurrent_streams: u32,
    /// After the shutdown signal, how long open connections (and SSE streams) may go on
    /// before they are closed. Default 10 s. Idle connections close at once; a client still
    /// reading a stream at the deadline sees its connection closed.
    pub shutdown_deadline: Duration,
    /// With TLS (`ServeConfig::with_tls`, feature `tls`): how long a client has to
    /// complete the TLS handshake, counted from the accept. Default 10 s. A client that has not
    /// finished it by then (one that connects and sends nothing, or stops halfway) sees its
    /// connection closed, without a TLS alert; so does one whose handshake fails (no valid
    /// client certificate where one is required: with rustls' alert). Either way the connection
    /// slot is freed at once and the accept loop goes on. The first request head is then due
    /// within [`header_read_timeout`](Self::header_read_timeout) of the handshake's end. Its
    /// own bound, not the header read timeout, so that a slow-handshake client is dropped
    /// sooner than a slow-request one: a handshake is a few round trips and some CPU.
    pub tls_handshake_timeout: Duration,
    #[cfg(feature = "tls")]
    tls: Option<crate::tls::TlsSettings>,
    on_shutdown: Vec<Hook>,
}

impl Default for ServeConfig {
    fn default() -> Self {
        Self {
            max_connections: 10_000,
            header_read_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            http2_keep_alive_interval: Some(Duration::from_secs(60)),
            http2_keep_alive_timeout: Duration::from_secs(20),
            http2_max_concurrent_streams: 200,
            shutdown_deadline: Duration::from_secs(10),
            tls_handshake_timeout: Duration::from_secs(10),
            #[cfg(feature = "tls")]
            tls: None,
            on_shutdown: Vec::new(),
        }
    }
}

impl fmt::Debug for ServeConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut debug = f.debug_struct("ServeConfig");
        debug
            .field("max_connections", &self.max_connections)
            .field("header_read_timeout", &self.header_read_timeout)
            .field("idle_timeout", &self.idle_timeout)
            .field("http2_keep_alive_interval", &self.http2_keep_alive_interval)
            .field("http2_keep_alive_timeout", &self.http2_keep_alive_timeout)
            .field(
                "http2_max_concurrent_streams",
                &self.http2_max_concurrent_streams,
            )
            .field("shutdown_deadline", &self.shutdown_deadline)
            .field("tls_handshake_timeout", &self.tls_handshake_timeout);
        #[cfg(feature = "tls")]
        debug.field("tls", &self.tls);
        debug
            .field(
                "on_shutdown",
                &format_args!("{} hooks", self.on_shutdown.len()),
            )
            .finish()
    }
}

impl ServeConfig {
    /// Sets [`max_connections`](Self::max_connections).
    #[must_use]
    pub fn with_max_connections(mut self, max: usize) -> Self {
        self.max_connections = max;
        self
    }

    /// Sets [`header_read_timeout`](Self::header_read_timeout).
    #[must_use]
    pub fn with_header_read_timeout(mut self, timeout: Duration) -> Self {
        self.header_read_timeout = timeout;
        self
    }

    /// Sets [`idle_timeout`](Self::idle_timeout).
    #[must_use]
    pub fn with_idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = timeout;
        self
    }

    /// Sets [`http2_keep_alive_interval`](Self::http2_keep_alive_interval).
    #[must_use]
    pub fn with_http2_keep_alive_interval(mut self, interval: Option<Duration>) -> Self {
        self.http2_keep_alive_interval = interval;
        self
    }

    /// Sets [`http2_keep_alive_timeout`](Self::http2_keep_alive_timeout).
    #[must_use]
    pub fn with_http2_keep_alive_timeout(mut self, timeout: Duration) -> Self {
        self.http2_keep_alive_timeout = timeout;
        self
    }

    /// Sets [`http2_max_concurrent_streams`](Self::http2_max_concurrent_streams).
    #[must_use]
    pub fn with_http2_max_concurrent_streams(mut self, max: u32) -> Self {
        self.http2_max_concurrent_streams = max;
        self
    }

    /// Sets [`shutdown_deadline`](Self::shutdown_deadline).
    #[must_use]
    pub fn with_shutdown_deadline(mut self, deadline: Duration) -> Self {
        self.shutdown_deadline = deadline;
        self
    }

    /// Sets [`tls_handshake_timeout`](Self::tls_handshake_timeout).
    #[must_use]
    pub fn with_tls_handshake_timeout(mut self, timeout: Duration) -> Self {
        self.tls_handshake_timeout = timeout;
        self
    }

    /// Terminates TLS on every connection (feature `tls`): the server's certificate, and
    /// client certificates as `tls` asks ([`ClientAuth`](crate::tls::ClientAuth)). ALPN then
    /// chooses HTTP/2 (`h2`) or HTTP/1.1 (`http/1.1`, or no ALPN), rather than the first bytes
    /// (plaintext connections are no longer served). The handshake is bounded by
    /// [`tls_handshake_timeout`](Self::tls_handshake_timeout).
    ///
    /// ```no_run
    /// # fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// use a2a_server::ServeConfig;
    /// use a2a_server::tls::TlsSettings;
    ///
    /// let tls = TlsSettings::from_pem(std::fs::read("chain.pem")?, std::fs::read("key.pem")?)?;
    /// let config = ServeConfig::default().with_tls(tls);
    /// # let _ = config;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "tls")]
    #[must_use]
    pub fn with_tls(mut self, tls: crate::tls::TlsSettings) -> Self {
        self.tls = Some(tls);
        self
    }

    /// The TLS settings, when the server terminates TLS (feature `tls`).
    #[cfg(feature = "tls")]
    pub fn tls(&self) -> Option<&crate::tls::TlsSettings> {
        self.tls.as_ref()
    }

    /// Adds a hook that [`serve_with_shutdown`] calls once, when its shutdown signal fires:
    /// after it stops accepting, before it waits for open connections to finish.
    ///
    /// The accept loop serves any `Service` and knows nothing of agents; this is how the
    /// application tells them to stop. With an [`A2aService`](crate::A2aService), stop its
    /// running agents ([`RequestHandler::shutdown`](crate::handler::RequestHandler::shutdown)): their
    /// tasks end, and open SSE streams deliver that last event and end before the deadline.
    ///
    /// ```
    /// # fn config(service: &a2a_server::A2aService) -> a2a_server::ServeConfig {
    /// let handler = service.handler().clone();
    /// a2a_server::ServeConfig::default().on_shutdown(move || handler.shutdown())
    /// # }
    /// ```
    #[must_use]
    pub fn on_shutdown(mut self, hook: impl Fn() + Send + Sync + 'static) -> Self {
        self.on_shutdown.push(Arc::new(hook));
        self
    }
}

/// Serves `service` on `listener` (HTTP/1.1 and HTTP/2) with the default [`ServeConfig`]
/// until the process ends.
///
/// `service` is any tower `Service` for hyper's requests whose errors are boxable (typically
/// `Infallible`): an [`A2aService`](crate::A2aService), an axum `Router` that combines
/// several services, a tonic gRPC service.
///
/// ```no_run
/// # async fn run(service: a2a_server::A2aService) -> std::io::Result<()> {
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:7420").await?;
/// a2a_server::serve(listener, service).await
/// # }
/// ```
pub async fn serve<S, B>(listener: TcpListener, service: S) -> io::Result<()>
where
    S: Service<Request<Incoming>, Response = Response<B>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<Box<dyn StdError + Send + Sync>>,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn StdError + Send + Sync>>,
{
    serve_with_shutdown(
        listener,
        service,
        std::future::pending(),
        ServeConfig::default(),
    )
    .await
}

/// Serves `service` on `listener` with `config` until `signal` resolves; then stops accepting,
/// calls the [`on_shutdown`](ServeConfig::on_shutdown) hooks, lets open connections finish
/// (idle ones close at once, HTTP/2 ones get a `GOAWAY`) and closes what is still open after
/// the [`shutdown_deadline`](ServeConfig::shutdown_deadline). Returns once every connection
/// is closed.
///
/// Fails only on a configuration that could serve nothing (`max_connections` 0, TLS settings
/// rustls refuses: `InvalidInput`, naming the problem); accept errors are logged and retried,
/// and a connection that fails (its TLS handshake included) ends alone.
///
/// ```no_run
/// # async fn run(service: a2a_server::A2aService) -> std::io::Result<()> {
/// use a2a_server::ServeConfig;
///
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:7420").await?;
/// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
/// # drop(stop);
/// let signal = async { stopped.await.ok(); };
/// // Shutdown tells the running agents to stop.
/// let handler = service.handler().clone();
/// let config = ServeConfig::default().on_shutdown(move || handler.shutdown());
/// a2a_server::serve_with_shutdown(listener, service, signal, config).await
/// # }
/// ```
pub async fn serve_with_shutdown<S, B>(
    listener: TcpListener,
    service: S,
    signal: impl Future<Output = ()>,
    config: ServeConfig,
) -> io::Result<()>
where
    S: Service<Request<Incoming>, Response = Response<B>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<Box<dyn StdError + Send + Sync>>,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn StdError + Send + Sync>>,
{
    refuse_no_connections(&config)?;
    let settings = Arc::new(Settings::new(&config)?);
    let closing = CancellationToken::new();
    let mut connections = JoinSet::new();
    let mut signal = std::pin::pin!(signal);
    // True while accepting fails: the first failure is a warning, the repeats are not.
    let mut failing = false;
    loop {
        tokio::select! {
            biased;
            () = &mut signal => break,
            Some(ended) = connections.join_next() => report(ended),
            accepted = listener.accept(), if connections.len() < config.max_connections => {
                match accepted {
                    Ok((stream, peer)) => {
                        failing = false;
                        if let Err(err) = stream.set_nodelay(true) {
                            tracing::debug!(%peer, %err, "cannot set TCP_NODELAY");
                        }
                        connections.spawn(connection::serve_connection(
                            stream,
                            peer,
                            service.clone(),
                            Arc::clone(&settings),
                            closing.clone(),
                        ));
                    }
                    // A connection reset before it was accepted: nothing to wait for.
                    Err(err) if is_per_connection(&err) => {
                        tracing::debug!(%err, "accept failed");
                    }
                    Err(err) => {
                        // Out of file descriptors (EMFILE, ENFILE) or memory: wait for one to
                        // be freed, then go on accepting.
                        if !failing {
                            tracing::warn!(%err, "accept failed; retrying every {ACCEPT_BACKOFF:?}");
                            failing = true;
                        }
                        tokio::select! {
                            biased;
                            () = &mut signal => break,
                            () = tokio::time::sleep(ACCEPT_BACKOFF) => {}
                        }
                    }
                }
            }
        }
    }
    drop(listener);
    for hook in &config.on_shutdown {
        hook();
    }
    closing.cancel();
    let drained = tokio::time::timeout(config.shutdown_deadline, async {
        while let Some(ended) = connections.join_next().await {
            report(ended);
        }
    })
    .await;
    if drained.is_err() {
        tracing::info!(
            open = connections.len(),
            "connections still open after the shutdown deadline are closed"
        );
        connections.shutdown().await;
    }
    Ok(())
}

/// The error of a configuration that could serve no connection (`max_connections` 0).
fn refuse_no_connections(config: &ServeConfig) -> io::Result<()> {
    if config.max_connections == 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "ServeConfig::max_connections is 0: no connection could ever be served",
        ));
    }
    Ok(())
}

/// True for an accept error that concerns only the connection being accepted.
fn is_per_connection(err: &io::Error) -> bool {
    matches!(
        err.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::Interrupted
            | io::ErrorKind::WouldBlock
    )
}

/// Logs a connection task that panicked (a bug in the service or in hyper).
fn report(ended: Result<(), JoinError>) {
    if let Err(err) = ended
        && err.is_panic()
    {
        tracing::error!(%err, "a connection task panicked");
    }
}
