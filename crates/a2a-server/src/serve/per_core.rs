//! [`serve_per_core`]: the accept loop of [`serve_with_shutdown`] on several single-threaded
//! runtimes, one per thread, sharing one listening socket.
//!
//! On tokio's multi-thread runtime a request crosses threads several times (the connection's
//! task, the agent's task, the wake-up of a blocking call, the memory freed on the other
//! worker); each crossing is a futex call and cache traffic. Here a connection, every request
//! on it, and the agents those requests start stay on the thread that accepted it. The
//! service (its store, its running tasks) is shared by all threads: a task started on one
//! thread is seen, followed and cancelled from any other.

use std::error::Error as StdError;
use std::future::Future;
use std::io;
use std::num::NonZeroUsize;
use std::thread;

use bytes::Bytes;
use http::{Request, Response};
use http_body::Body;
use hyper::body::Incoming;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tower_service::Service;

use super::{ServeConfig, serve_with_shutdown};

/// Serves `service` on `listener` with `config` on `threads` threads, each with a
/// single-threaded tokio runtime of its own (time and I/O enabled), until `signal` resolves;
/// then behaves as [`serve_with_shutdown`] does (the hooks are called once, open connections
/// drain on their own threads until the [`shutdown_deadline`](ServeConfig::shutdown_deadline))
/// and returns once every thread has ended.
///
/// Every thread accepts from the same socket: the kernel wakes them all, one wins each
/// connection, and a busy thread (or one at its share of the connections) leaves new
/// connections to the others. A connection stays on the thread that accepted it, with every
/// request on it and the agents those requests start (each `tokio::spawn` lands on the
/// current thread's runtime). Background work the service started before (push delivery,
/// expiry sweeps, a SQL store's pool) stays on the runtime it was started on: call this from
/// a runtime that keeps running (the caller's `#[tokio::main]`), whose threads are then mostly
/// idle.
///
/// Each thread's runtime ends with this call: what a request spawned on it and is still running
/// then (an agent past the shutdown deadline, a child process's I/O) is dropped with it, where
/// on the caller's runtime it would run on until the process exits.
///
/// [`max_connections`](ServeConfig::max_connections) bounds the connections of all threads
/// together: each thread takes its share (`max_connections / threads`, the remainder spread
/// over the first threads; with fewer connections allowed than threads, only that many
/// threads are started). A thread at its share leaves new connections to the others.
///
/// Use it where many clients each send their own requests; a single client with one
/// connection is served by one thread.
///
/// # Errors
/// As [`serve_with_shutdown`] (`max_connections` 0, TLS settings rustls refuses), or a thread
/// or its runtime that could not be started; the threads already started are then stopped.
///
/// ```no_run
/// # async fn run(service: a2a_server::A2aService) -> std::io::Result<()> {
/// use std::num::NonZeroUsize;
///
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:7420").await?;
/// let threads = std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN);
/// let handler = service.handler().clone();
/// let config = service.serve_config().on_shutdown(move || handler.shutdown());
/// a2a_server::serve_per_core(listener, service, threads, std::future::pending(), config).await
/// # }
/// ```
pub async fn serve_per_core<S, B>(
    listener: tokio::net::TcpListener,
    service: S,
    threads: NonZeroUsize,
    signal: impl Future<Output = ()>,
    mut config: ServeConfig,
) -> io::Result<()>
where
    S: Service<Request<Incoming>, Response = Response<B>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<Box<dyn StdError + Send + Sync>>,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn StdError + Send + Sync>>,
{
    super::refuse_no_connections(&config)?;
    let threads = threads.get().min(config.max_connections);
    let hooks = std::mem::take(&mut config.on_shutdown);
    let (share, rest) = (
        config.max_connections / threads,
        config.max_connections % threads,
    );
    let listener = listener.into_std()?;
    let stop = CancellationToken::new();
    let (done, mut ended) = mpsc::unbounded_channel();
    for index in 0..threads {
        let started = listener.try_clone().and_then(|listener| {
            start(
                index,
                listener,
                service.clone(),
                stop.clone(),
                // The first `rest` threads take one more: the shares add up to the limit.
                config
                    .clone()
                    .with_max_connections(share + usize::from(index < rest)),
                done.clone(),
            )
        });
        if let Err(err) = started {
            stop.cancel();
            drop(done);
            drain(&mut ended, index, Ok(())).await?;
            return Err(err);
        }
    }
    drop(done);
    // Each thread holds its own handle on the socket; this one is no longer needed.
    drop(listener);
    let mut signal = std::pin::pin!(signal);
    let mut first = Ok(());
    let mut reported = 0;
    tokio::select! {
        () = &mut signal => {}
        // A thread that ended on its own (its configuration refused): stop the others.
        result = ended.recv() => {
            reported = 1;
            first = result.unwrap_or_else(|| Err(panicked()));
        }
    }
    for hook in &hooks {
        hook();
    }
    stop.cancel();
    drain(&mut ended, threads - reported, first).await
}

/// What a serving thread reports when it ends: its result (a thread that panicked reports
/// nothing).
type Done = mpsc::UnboundedSender<io::Result<()>>;

/// Starts serving thread `index` on `listener`.
fn start<S, B>(
    index: usize,
    listener: std::net::TcpListener,
    service: S,
    stop: CancellationToken,
    config: ServeConfig,
    done: Done,
) -> io::Result<()>
where
    S: Service<Request<Incoming>, Response = Response<B>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<Box<dyn StdError + Send + Sync>>,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn StdError + Send + Sync>>,
{
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    thread::Builder::new()
        .name(format!("a2a-serve-{index}"))
        .spawn(move || {
            let result = runtime.block_on(async move {
                listener.set_nonblocking(true)?;
                let listener = tokio::net::TcpListener::from_std(listener)?;
                serve_with_shutdown(listener, service, stop.cancelled_owned(), config).await
            });
            let _ = done.send(result);
        })?;
    Ok(())
}

/// Waits for the `left` serving threads still running to end; `first`, or else the first
/// error any of them met.
async fn drain(
    ended: &mut mpsc::UnboundedReceiver<io::Result<()>>,
    left: usize,
    mut first: io::Result<()>,
) -> io::Result<()> {
    let mut reported = 0;
    while let Some(result) = ended.recv().await {
        reported += 1;
        if first.is_ok() {
            first = result;
        }
    }
    if reported < left && first.is_ok() {
        first = Err(panicked());
    }
    first
}

fn panicked() -> io::Error {
    io::Error::other("a serving thread panicked")
}
