//! One connection: which protocol it speaks, the hyper connection, and the watch over its time
//! limits (request head, idle, close handshake).
//!
//! The watch needs to know whether a request is open. [`Tracked`] counts the requests whose
//! response has not ended (a request is open from the moment hyper calls the service until its
//! response body is dropped, so an SSE stream keeps its connection busy), and [`Rewind`] notes
//! when the first bytes of an HTTP/1.1 request head arrive on a connection without one. Both
//! wake the connection's task through [`Activity`], which then picks the deadline in force.
//!
//! With TLS ([`ServeConfig::with_tls`]) the handshake comes first, under its own deadline
//! (`super::tls`), and ALPN names the protocol instead of the first bytes; the stream hyper
//! reads is then the TLS stream ([`Io::Tls`]).

use std::error::Error as StdError;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use http_body::{Body, Frame, SizeHint};
use hyper::body::Incoming;
use hyper::server::conn::{http1, http2};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulConnection;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::Notify;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tower_service::Service;

use super::ServeConfig;

/// The verified client chain of a TLS connection, for its requests' extensions.
#[cfg(feature = "tls")]
type Peer = Option<crate::tls::PeerCertificates>;
/// Nothing to hand to requests without TLS.
#[cfg(not(feature = "tls"))]
type Peer = ();

/// The first bytes of an HTTP/2 connection with prior knowledge (RFC 9113 §3.4).
const H2_PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// The longest duration handed to hyper's timers, which add durations to instants unchecked:
/// a year stands for "never".
const LONGEST_TIMER: Duration = Duration::from_secs(365 * 24 * 60 * 60);

/// What every connection of one server shares: the limits and hyper's builders.
pub(super) struct Settings {
    header_read_timeout: Duration,
    idle_timeout: Duration,
    /// How long the close handshake after an idle HTTP/2 `GOAWAY` may take.
    close_grace: Duration,
    http1: http1::Builder,
    http2: http2::Builder<TokioExecutor>,
    /// The handshakes of a server that terminates TLS.
    #[cfg(feature = "tls")]
    pub(super) tls: Option<super::tls::Handshakes>,
}

impl Settings {
    /// # Errors
    ///
    /// TLS settings that cannot make a rustls configuration (`InvalidInput`).
    pub(super) fn new(config: &ServeConfig) -> io::Result<Self> {
        let mut http1 = http1::Builder::new();
        // The head deadline is the watch's (below): hyper's own header timer would also start
        // whenever a kept-alive connection goes idle, and so cut the idle timeout short.
        http1.header_read_timeout(None);
        let mut http2 = http2::Builder::new(TokioExecutor::new());
        http2
            .timer(TokioTimer::new())
            .max_concurrent_streams(config.http2_max_concurrent_streams)
            .keep_alive_interval(
                config
                    .http2_keep_alive_interval
                    .map(|interval| interval.min(LONGEST_TIMER)),
            )
            .keep_alive_timeout(config.http2_keep_alive_timeout.min(LONGEST_TIMER));
        Ok(Self {
            header_read_timeout: config.header_read_timeout,
            idle_timeout: config.idle_timeout,
            close_grace: config.http2_keep_alive_timeout,
            http1,
            http2,
            #[cfg(feature = "tls")]
            tls: super::tls::Handshakes::new(config)?,
        })
    }

    /// When the watch acts in `phase`; `None` for never.
    fn deadline(&self, phase: Phase) -> Option<Instant> {
        match phase {
            Phase::Busy => None,
            Phase::Head(since) => since.checked_add(self.header_read_timeout),
            Phase::Idle(since) => since.checked_add(self.idle_timeout),
            Phase::Closing(since) => since.checked_add(self.close_grace),
        }
    }
}

/// The services [`serve`](super::serve) takes (the bounds of its signature, named once for
/// the functions here).
pub(super) trait Servable<B>:
    Service<
        Request<Incoming>,
        Response = Response<B>,
        Future: Send + 'static,
        Error: Into<Box<dyn StdError + Send + Sync>>,
    > + Clone
    + Send
    + 'static
{
}

impl<S, B> Servable<B> for S where
    S: Service<
            Request<Incoming>,
            Response = Response<B>,
            Future: Send + 'static,
            Error: Into<Box<dyn StdError + Send + Sync>>,
        > + Clone
        + Send
        + 'static
{
}

/// The response bodies [`serve`](super::serve) takes.
pub(super) trait ResponseBody:
    Body<Data = Bytes, Error: Into<Box<dyn StdError + Send + Sync>>> + Send + 'static
{
}

impl<B> ResponseBody for B where
    B: Body<Data = Bytes, Error: Into<Box<dyn StdError + Send + Sync>>> + Send + 'static
{
}

/// The protocol a connection speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Protocol {
    Http1,
    Http2,
}

/// Serves one accepted connection until it ends, the watch closes it, or the server's shutdown
/// has run its course.
pub(super) async fn serve_connection<S, B>(
    stream: TcpStream,
    peer: SocketAddr,
    service: S,
    settings: Arc<Settings>,
    closing: CancellationToken,
) where
    S: Servable<B>,
    B: ResponseBody,
{
    // Every connection's task holds this future: the connections are built by plain functions
    // and the larger HTTP/2 one is boxed, which keeps it small (each idle SSE subscriber pays
    // for it).
    let Some((protocol, io, peer_chain, accepted)) = open(stream, peer, &settings, &closing).await
    else {
        return;
    };
    let activity = Arc::new(Activity::new(protocol, peer_chain));
    let watch = Watch {
        protocol,
        activity: &activity,
        settings: &settings,
        closing: &closing,
        peer,
        accepted,
    };
    match protocol {
        Protocol::Http1 => {
            let connection = http1_connection(&settings, io, service, &activity);
            watch.run(std::pin::pin!(connection)).await;
        }
        Protocol::Http2 => {
            let mut connection = http2_connection(&settings, io, service, &activity);
            watch.run(connection.as_mut()).await;
        }
    }
}

/// The protocol of a new connection, the stream to hand to hyper, the client's verified chain
/// (TLS) and the instant its first request head is counted from: the accept, or the end of the
/// TLS handshake. `None` when the connection is to be closed.
async fn open(
    stream: TcpStream,
    peer: SocketAddr,
    settings: &Settings,
    closing: &CancellationToken,
) -> Option<(Protocol, Rewind, Peer, Instant)> {
    #[cfg(feature = "tls")]
    if let Some(tls) = &settings.tls {
        let (protocol, stream, chain) = tls.accept(stream, peer, closing).await?;
        let io = Rewind::new(Io::Tls(Box::new(stream)), FirstBytes::default());
        return Some((protocol, io, chain, Instant::now()));
    }
    let accepted = Instant::now();
    let (protocol, io) = sniff(stream, peer, settings, closing).await?;
    Some((protocol, io, Peer::default(), accepted))
}

/// Reads the first bytes within the header read timeout: the protocol, and the stream to hand
/// to hyper. `None` when the connection is to be closed.
async fn sniff(
    mut stream: TcpStream,
    peer: SocketAddr,
    settings: &Settings,
    closing: &CancellationToken,
) -> Option<(Protocol, Rewind)> {
    let mut first = FirstBytes::default();
    let sniffed = tokio::select! {
        biased;
        () = closing.cancelled() => return None,
        sniffed = tokio::time::timeout(settings.header_read_timeout, first.read(&mut stream)) => sniffed,
    };
    match sniffed {
        Ok(Ok(Some(protocol))) => Some((protocol, Rewind::new(Io::Plain(stream), first))),
        Ok(Ok(None)) => None,
        Ok(Err(err)) => {
            tracing::debug!(%peer, %err, "connection failed before its first request");
            None
        }
        Err(_) => {
            tracing::debug!(%peer, "no request within the header read timeout; closing");
            None
        }
    }
}

/// hyper's HTTP/1.1 connection serving `S`.
type Http1Connection<S> = http1::Connection<TokioIo<Rewind>, TowerToHyperService<Tracked<S>>>;

/// hyper's HTTP/2 connection serving `S`.
type Http2Connection<S> =
    http2::Connection<TokioIo<Rewind>, TowerToHyperService<Tracked<S>>, TokioExecutor>;

/// The HTTP/1.1 connection; `io` tells `activity` when a request head begins.
fn http1_connection<S, B>(
    settings: &Settings,
    mut io: Rewind,
    service: S,
    activity: &Arc<Activity>,
) -> Http1Connection<S>
where
    S: Servable<B>,
    B: ResponseBody,
{
    io.heads = Some(Arc::clone(activity));
    let service = Tracked::new(service, activity);
    settings.http1.serve_connection(TokioIo::new(io), service)
}

/// The HTTP/2 connection, boxed: it is twice the size of an HTTP/1.1 one, and every
/// connection's task would otherwise be as large as the larger.
fn http2_connection<S, B>(
    settings: &Settings,
    io: Rewind,
    service: S,
    activity: &Arc<Activity>,
) -> Pin<Box<Http2Connection<S>>>
where
    S: Servable<B>,
    B: ResponseBody,
{
    let service = Tracked::new(service, activity);
    Box::pin(settings.http2.serve_connection(TokioIo::new(io), service))
}

/// The first bytes of a connection, read until they tell HTTP/2's preface from HTTP/1.1.
#[derive(Default)]
struct FirstBytes {
    buf: [u8; H2_PREFACE.len()],
    len: usize,
}

impl FirstBytes {
    /// Reads until the bytes so far are the whole HTTP/2 preface or not a prefix of it;
    /// `None` when the peer closed first. Waits for the socket to be readable: a peer that
    /// sends a byte and stops costs nothing until the caller's timeout.
    async fn read(&mut self, stream: &mut TcpStream) -> io::Result<Option<Protocol>> {
        loop {
            let start = self.len;
            let mut buf = ReadBuf::new(&mut self.buf[start..]);
            std::future::poll_fn(|cx| Pin::new(&mut *stream).poll_read(cx, &mut buf)).await?;
            let read = buf.filled().len();
            if read == 0 {
                return Ok(None);
            }
            self.len += read;
            if !H2_PREFACE.starts_with(&self.buf[..self.len]) {
                return Ok(Some(Protocol::Http1));
            }
            if self.len == H2_PREFACE.len() {
                return Ok(Some(Protocol::Http2));
            }
        }
    }
}

/// The stream of a connection: plain TCP, or TLS over it (boxed: a TLS stream is several
/// times the size of a TCP one, and plaintext connections need not pay for it).
pub(super) enum Io {
    Plain(TcpStream),
    #[cfg(feature = "tls")]
    Tls(Box<tokio_rustls::server::TlsStream<TcpStream>>),
}

/// Calls `$call` on the stream inside `$io`, whichever it is.
macro_rules! on_io {
    ($io:expr, $stream:ident => $call:expr) => {
        match $io {
            Io::Plain($stream) => $call,
            #[cfg(feature = "tls")]
            Io::Tls($stream) => $call,
        }
    };
}

impl AsyncRead for Io {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        on_io!(self.get_mut(), s => Pin::new(s).poll_read(cx, buf))
    }
}

impl AsyncWrite for Io {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        on_io!(self.get_mut(), s => Pin::new(s).poll_write(cx, buf))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        on_io!(self.get_mut(), s => Pin::new(s).poll_write_vectored(cx, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        on_io!(self, s => s.is_write_vectored())
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        on_io!(self.get_mut(), s => Pin::new(s).poll_flush(cx))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        on_io!(self.get_mut(), s => Pin::new(s).poll_shutdown(cx))
    }
}

/// The stream with its first bytes put back in front, for hyper.
struct Rewind {
    io: Io,
    first: FirstBytes,
    /// How much of `first` hyper has read.
    pos: usize,
    /// HTTP/1.1: told when bytes arrive while no request is open (a head has begun).
    heads: Option<Arc<Activity>>,
}

impl Rewind {
    fn new(io: Io, first: FirstBytes) -> Self {
        Self {
            io,
            first,
            pos: 0,
            heads: None,
        }
    }
}

impl AsyncRead for Rewind {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        if this.pos < this.first.len {
            let rest = &this.first.buf[this.pos..this.first.len];
            let n = rest.len().min(buf.remaining());
            buf.put_slice(&rest[..n]);
            this.pos += n;
            // Hand over what else has arrived in the same read. Given the first bytes alone,
            // hyper would find its read buffer short of a full read's room and double it, and
            // every idle connection would keep the 16 KiB buffer.
            if buf.remaining() > 0
                && let Poll::Ready(Err(err)) = Pin::new(&mut this.io).poll_read(cx, buf)
            {
                // The next read reports the end of the connection.
                tracing::trace!(%err, "read after the first bytes failed");
            }
        } else {
            ready!(Pin::new(&mut this.io).poll_read(cx, buf))?;
        }
        if buf.filled().len() > before
            && let Some(activity) = &this.heads
        {
            activity.bytes_read();
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Rewind {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

/// What the watch of one connection needs to know, shared with its requests.
struct Activity {
    /// Requests whose response has not ended.
    open: AtomicUsize,
    /// HTTP/1.1: bytes arrived while no request was open, and no request began since.
    head_started: AtomicBool,
    /// Wakes the watch: the last open request ended, or a head began.
    wake: Notify,
    /// The client's verified certificate chain (TLS), put into every request's extensions.
    #[cfg_attr(not(feature = "tls"), allow(dead_code))]
    peer: Peer,
}

impl Activity {
    fn new(protocol: Protocol, peer: Peer) -> Self {
        Self {
            open: AtomicUsize::new(0),
            // An HTTP/1.1 connection's first head began with its first bytes (or, over TLS, is
            // due from the end of the handshake).
            head_started: AtomicBool::new(protocol == Protocol::Http1),
            wake: Notify::new(),
            peer,
        }
    }

    fn bytes_read(&self) {
        if self.open.load(Ordering::Acquire) == 0
            && !self.head_started.load(Ordering::Relaxed)
            && !self.head_started.swap(true, Ordering::AcqRel)
        {
            self.wake.notify_one();
        }
    }

    /// The phase after a wake-up at `now`.
    fn phase(&self, phase: Phase, shutting_down: bool, now: Instant) -> Phase {
        if self.open.load(Ordering::Acquire) > 0 {
            Phase::Busy
        } else if self.head_started.load(Ordering::Acquire) {
            match phase {
                Phase::Head(since) => Phase::Head(since),
                _ => Phase::Head(now),
            }
        } else if shutting_down {
            Phase::Closing(now)
        } else {
            // The wake-up came from the end of the last open request.
            Phase::Idle(now)
        }
    }
}

/// Where a connection stands, and since when.
#[derive(Clone, Copy, Debug)]
enum Phase {
    /// A request is open: no deadline.
    Busy,
    /// A request head is due (HTTP/1.1).
    Head(Instant),
    /// No request is open.
    Idle(Instant),
    /// A `GOAWAY` was sent and no stream is open: the close handshake is due.
    Closing(Instant),
}

/// The watch over one connection's time limits.
struct Watch<'a> {
    protocol: Protocol,
    activity: &'a Activity,
    settings: &'a Settings,
    closing: &'a CancellationToken,
    peer: SocketAddr,
    accepted: Instant,
}

impl Watch<'_> {
    /// Drives `connection` to its end, closing it when a deadline passes.
    async fn run<C>(self, mut connection: Pin<&mut C>)
    where
        C: GracefulConnection<Error = hyper::Error>,
    {
        let peer = self.peer;
        let mut phase = match self.protocol {
            Protocol::Http1 => Phase::Head(self.accepted),
            Protocol::Http2 => Phase::Idle(self.accepted),
        };
        // The connection was told to finish (`GOAWAY`, or HTTP/1.1 keep-alive off).
        let mut shutting_down = false;
        let mut timer = std::pin::pin!(tokio::time::sleep_until(self.accepted));
        loop {
            let deadline = self.settings.deadline(phase);
            if let Some(deadline) = deadline {
                timer.as_mut().reset(deadline);
            }
            tokio::select! {
                biased;
                ended = connection.as_mut() => {
                    if let Err(err) = ended {
                        tracing::debug!(%peer, %err, "connection ended with an error");
                    }
                    return;
                }
                () = self.closing.cancelled(), if !shutting_down => {
                    connection.as_mut().graceful_shutdown();
                    shutting_down = true;
                    if let Phase::Idle(_) = phase {
                        phase = Phase::Closing(Instant::now());
                    }
                }
                () = self.activity.wake.notified() => {
                    phase = self.activity.phase(phase, shutting_down, Instant::now());
                }
                () = &mut timer, if deadline.is_some() => {
                    if self.activity.open.load(Ordering::Acquire) > 0 {
                        phase = Phase::Busy;
                        continue;
                    }
                    match phase {
                        Phase::Busy => {}
                        Phase::Head(_) => {
                            tracing::debug!(%peer, "no complete request head within the header read timeout; closing");
                            return;
                        }
                        Phase::Idle(_) if self.protocol == Protocol::Http1 => {
                            tracing::debug!(%peer, "idle connection closed");
                            return;
                        }
                        Phase::Idle(_) => {
                            tracing::debug!(%peer, "idle connection: GOAWAY");
                            if !shutting_down {
                                connection.as_mut().graceful_shutdown();
                                shutting_down = true;
                            }
                            phase = Phase::Closing(Instant::now());
                        }
                        Phase::Closing(_) => {
                            tracing::debug!(%peer, "close handshake not completed in time; closing");
                            return;
                        }
                    }
                }
            }
        }
    }
}

/// Counts a request as open from the call until its response body is dropped.
struct Guard(Arc<Activity>);

impl Guard {
    fn new(activity: &Arc<Activity>) -> Self {
        activity.open.fetch_add(1, Ordering::AcqRel);
        // The head is complete.
        activity.head_started.store(false, Ordering::Release);
        Self(Arc::clone(activity))
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if self.0.open.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.wake.notify_one();
        }
    }
}

/// The service, counting the requests of one connection that are open.
#[derive(Clone)]
struct Tracked<S> {
    inner: S,
    activity: Arc<Activity>,
}

impl<S> Tracked<S> {
    fn new(inner: S, activity: &Arc<Activity>) -> TowerToHyperService<Self> {
        TowerToHyperService::new(Self {
            inner,
            activity: Arc::clone(activity),
        })
    }
}

impl<S, B> Service<Request<Incoming>> for Tracked<S>
where
    S: Service<Request<Incoming>, Response = Response<B>>,
{
    type Response = Response<TrackedBody<B>>;
    type Error = S::Error;
    type Future = TrackedFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<Incoming>) -> Self::Future {
        #[cfg(feature = "tls")]
        let request = {
            let mut request = request;
            if let Some(chain) = &self.activity.peer {
                request.extensions_mut().insert(chain.clone());
            }
            request
        };
        let guard = Guard::new(&self.activity);
        TrackedFuture {
            inner: self.inner.call(request),
            guard: Some(guard),
        }
    }
}

pin_project_lite::pin_project! {
    /// The service's response future; its body carries the request's [`Guard`].
    struct TrackedFuture<F> {
        #[pin]
        inner: F,
        guard: Option<Guard>,
    }
}

impl<F, B, E> Future for TrackedFuture<F>
where
    F: Future<Output = Result<Response<B>, E>>,
{
    type Output = Result<Response<TrackedBody<B>>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let response = ready!(this.inner.poll(cx))?;
        let guard = this.guard.take();
        Poll::Ready(Ok(response.map(|inner| TrackedBody {
            inner,
            _guard: guard,
        })))
    }
}

pin_project_lite::pin_project! {
    /// A response body that keeps its request open until it is dropped.
    struct TrackedBody<B> {
        #[pin]
        inner: B,
        _guard: Option<Guard>,
    }
}

impl<B: Body> Body for TrackedBody<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        self.project().inner.poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
