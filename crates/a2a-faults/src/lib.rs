//! A TCP proxy that fails on demand, for tests of what a client of a server does when the
//! server goes away and comes back (a2a-server in front of its database, a client in front of
//! an agent).
//!
//! [`FaultProxy::start`] listens on `127.0.0.1:0` and forwards each connection to the upstream
//! address. The test then:
//!
//! * [`cut`](FaultProxy::cut)s it: the listening socket closes (a new connection is refused,
//!   as by a server that is down) and every connection it carried is closed;
//! * [`restore`](FaultProxy::restore)s it: it listens on the same address again;
//! * [`set_delay`](FaultProxy::set_delay)s it: each chunk waits this long before it is
//!   forwarded, both ways;
//! * [`drop_direction`](FaultProxy::drop_direction): what goes one way is read and thrown
//!   away (a peer that looks alive but never answers, or never hears), until
//!   [`heal`](FaultProxy::heal).
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> std::io::Result<()> {
//! use a2a_faults::FaultProxy;
//! use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
//!
//! // An echo server, and the proxy in front of it.
//! let server = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! let upstream = server.local_addr()?;
//! tokio::spawn(async move {
//!     while let Ok((mut socket, _)) = server.accept().await {
//!         tokio::spawn(async move {
//!             let (mut r, mut w) = socket.split();
//!             let _ = tokio::io::copy(&mut r, &mut w).await;
//!         });
//!     }
//! });
//! let proxy = FaultProxy::start(upstream).await?;
//!
//! let mut client = tokio::net::TcpStream::connect(proxy.addr()).await?;
//! client.write_all(b"ping").await?;
//! let mut answer = [0; 4];
//! client.read_exact(&mut answer).await?;
//! assert_eq!(&answer, b"ping");
//!
//! // Cut: the connection is closed, a new one is refused.
//! proxy.cut().await;
//! assert_eq!(client.read(&mut answer).await?, 0);
//! assert!(tokio::net::TcpStream::connect(proxy.addr()).await.is_err());
//!
//! // Restored: new connections go through again.
//! proxy.restore().await?;
//! let mut client = tokio::net::TcpStream::connect(proxy.addr()).await?;
//! client.write_all(b"pong").await?;
//! client.read_exact(&mut answer).await?;
//! assert_eq!(&answer, b"pong");
//! # Ok(())
//! # }
//! ```

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// One way of a proxied connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Direction {
    /// From the client to the upstream server.
    ToUpstream,
    /// From the upstream server to the client.
    ToClient,
}

/// What the proxy does with the traffic, shared with every connection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Faults {
    /// Bumped by each cut: connections of an older generation close.
    generation: u64,
    delay: Duration,
    drop_to_upstream: bool,
    drop_to_client: bool,
}

/// A TCP proxy in the test's own process (see the [crate docs](crate)). Dropping it stops it
/// and closes its connections.
#[derive(Debug)]
pub struct FaultProxy {
    addr: SocketAddr,
    upstream: SocketAddr,
    faults: watch::Sender<Faults>,
    /// The accept loop, while the proxy listens.
    listening: Mutex<Option<JoinHandle<()>>>,
    /// The bytes dropped each way (see [`drop_direction`](Self::drop_direction)).
    dropped: Arc<Dropped>,
}

/// The bytes thrown away each way.
#[derive(Debug, Default)]
struct Dropped {
    to_upstream: AtomicU64,
    to_client: AtomicU64,
}

impl Dropped {
    fn of(&self, direction: Direction) -> &AtomicU64 {
        match direction {
            Direction::ToUpstream => &self.to_upstream,
            Direction::ToClient => &self.to_client,
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl FaultProxy {
    /// A proxy on `127.0.0.1:0` in front of `upstream`, passing everything through.
    pub async fn start(upstream: SocketAddr) -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let (faults, _) = watch::channel(Faults::default());
        let proxy = Self {
            addr,
            upstream,
            faults,
            listening: Mutex::new(None),
            dropped: Arc::default(),
        };
        proxy.listen(listener);
        Ok(proxy)
    }

    /// The address clients connect to.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The upstream address.
    pub fn upstream(&self) -> SocketAddr {
        self.upstream
    }

    fn listen(&self, listener: TcpListener) {
        let upstream = self.upstream;
        let faults = self.faults.subscribe();
        let dropped = self.dropped.clone();
        let accept = tokio::spawn(async move {
            loop {
                let Ok((client, _)) = listener.accept().await else {
                    continue;
                };
                let (faults, dropped) = (faults.clone(), dropped.clone());
                tokio::spawn(async move {
                    if let Err(err) = carry(client, upstream, faults, dropped).await {
                        tracing::debug!(%err, "a proxied connection ended");
                    }
                });
            }
        });
        if let Some(old) = lock(&self.listening).replace(accept) {
            old.abort();
        }
    }

    /// Cuts the proxy: it stops listening (new connections are refused) and closes every
    /// connection it carries. Returns once the listening socket is closed.
    pub async fn cut(&self) {
        let accept = lock(&self.listening).take();
        if let Some(accept) = accept {
            accept.abort();
            // The listener is closed when its task is gone.
            let _ = accept.await;
        }
        self.faults.send_modify(|f| f.generation += 1);
    }

    /// Listens again on the same address, after a [`cut`](Self::cut); nothing when it
    /// listens already.
    pub async fn restore(&self) -> std::io::Result<()> {
        if lock(&self.listening).is_some() {
            return Ok(());
        }
        let listener = TcpListener::bind(self.addr).await?;
        self.listen(listener);
        Ok(())
    }

    /// Whether the proxy is cut.
    pub fn is_cut(&self) -> bool {
        lock(&self.listening).is_none()
    }

    /// Delays each chunk forwarded, both ways, by `delay` (zero: none).
    pub fn set_delay(&self, delay: Duration) {
        self.faults.send_modify(|f| f.delay = delay);
    }

    /// Drops what goes `direction` on every connection (read and thrown away) until
    /// [`heal`](Self::heal).
    pub fn drop_direction(&self, direction: Direction) {
        self.faults.send_modify(|f| match direction {
            Direction::ToUpstream => f.drop_to_upstream = true,
            Direction::ToClient => f.drop_to_client = true,
        });
    }

    /// How many bytes were thrown away going `direction` so far.
    pub fn dropped(&self, direction: Direction) -> u64 {
        self.dropped.of(direction).load(Ordering::Relaxed)
    }

    /// Forwards both ways again, without delay (a cut stays a cut: see
    /// [`restore`](Self::restore)).
    pub fn heal(&self) {
        self.faults.send_modify(|f| {
            f.drop_to_upstream = false;
            f.drop_to_client = false;
            f.delay = Duration::ZERO;
        });
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        if let Some(accept) = lock(&self.listening).take() {
            accept.abort();
        }
        // Connections close with the generation bump.
        self.faults.send_modify(|f| f.generation += 1);
    }
}

/// Carries one connection until either side closes it or the proxy is cut.
async fn carry(
    client: TcpStream,
    upstream: SocketAddr,
    mut faults: watch::Receiver<Faults>,
    dropped: Arc<Dropped>,
) -> std::io::Result<()> {
    let generation = faults.borrow().generation;
    let server = TcpStream::connect(upstream).await?;
    let _ = client.set_nodelay(true);
    let _ = server.set_nodelay(true);
    let (client_read, client_write) = client.into_split();
    let (server_read, server_write) = server.into_split();
    let to_upstream = pump(
        client_read,
        server_write,
        faults.clone(),
        (Direction::ToUpstream, &dropped),
    );
    let to_client = pump(
        server_read,
        client_write,
        faults.clone(),
        (Direction::ToClient, &dropped),
    );
    let cut = async {
        // A closed channel (the proxy dropped) is a cut too.
        let _ = faults.wait_for(|f| f.generation != generation).await;
    };
    tokio::select! {
        result = to_upstream => result,
        result = to_client => result,
        () = cut => Ok(()),
    }
    // Both halves of both sockets drop here: the client and the server see the connection
    // close.
}

/// Forwards what `from` reads to `to`, as the faults say, until `from` ends.
async fn pump(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    faults: watch::Receiver<Faults>,
    (direction, dropped): (Direction, &Dropped),
) -> std::io::Result<()> {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = from.read(&mut buf).await?;
        if n == 0 {
            to.shutdown().await?;
            return Ok(());
        }
        let now = *faults.borrow();
        let dropped_bytes = dropped.of(direction);
        let dropped = match direction {
            Direction::ToUpstream => now.drop_to_upstream,
            Direction::ToClient => now.drop_to_client,
        };
        if dropped {
            dropped_bytes.fetch_add(n as u64, Ordering::Relaxed);
            continue;
        }
        if !now.delay.is_zero() {
            tokio::time::sleep(now.delay).await;
        }
        to.write_all(&buf[..n]).await?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn echo() -> SocketAddr {
        let server = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = server.local_addr().unwrap();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = server.accept().await {
                tokio::spawn(async move {
                    let (mut r, mut w) = socket.split();
                    let _ = tokio::io::copy(&mut r, &mut w).await;
                });
            }
        });
        addr
    }

    async fn round_trip(stream: &mut TcpStream, bytes: &[u8]) -> Vec<u8> {
        stream.write_all(bytes).await.unwrap();
        let mut answer = vec![0; bytes.len()];
        stream.read_exact(&mut answer).await.unwrap();
        answer
    }

    #[tokio::test]
    async fn a_cut_refuses_and_closes_and_a_restore_serves_again() {
        let proxy = FaultProxy::start(echo().await).await.unwrap();
        let mut kept = TcpStream::connect(proxy.addr()).await.unwrap();
        assert_eq!(round_trip(&mut kept, b"one").await, b"one");
        proxy.cut().await;
        assert!(proxy.is_cut());
        let mut rest = Vec::new();
        // Closed by the proxy: the read ends (EOF, or a reset).
        let _ = kept.read_to_end(&mut rest).await;
        assert!(rest.is_empty());
        let refused = TcpStream::connect(proxy.addr()).await.unwrap_err();
        assert_eq!(refused.kind(), std::io::ErrorKind::ConnectionRefused);
        proxy.restore().await.unwrap();
        assert!(!proxy.is_cut());
        let mut again = TcpStream::connect(proxy.addr()).await.unwrap();
        assert_eq!(round_trip(&mut again, b"two").await, b"two");
    }

    /// Waits until `n` bytes were dropped going `direction`.
    async fn dropped(proxy: &FaultProxy, direction: Direction, n: u64) {
        while proxy.dropped(direction) < n {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    #[tokio::test]
    async fn a_dropped_direction_swallows_bytes_until_healed() {
        let proxy = FaultProxy::start(echo().await).await.unwrap();
        let mut stream = TcpStream::connect(proxy.addr()).await.unwrap();
        assert_eq!(round_trip(&mut stream, b"a").await, b"a");
        proxy.drop_direction(Direction::ToUpstream);
        stream.write_all(b"lost").await.unwrap();
        dropped(&proxy, Direction::ToUpstream, 4).await;
        proxy.heal();
        // The server never got "lost": what comes back is the next message alone.
        assert_eq!(round_trip(&mut stream, b"back").await, b"back");
    }

    #[tokio::test]
    async fn the_answers_can_be_dropped_too() {
        let proxy = FaultProxy::start(echo().await).await.unwrap();
        let mut stream = TcpStream::connect(proxy.addr()).await.unwrap();
        proxy.drop_direction(Direction::ToClient);
        stream.write_all(b"x").await.unwrap();
        // The echo of "x" was swallowed on its way back.
        dropped(&proxy, Direction::ToClient, 1).await;
        assert_eq!(proxy.dropped(Direction::ToUpstream), 0);
        proxy.heal();
        assert_eq!(round_trip(&mut stream, b"y").await, b"y");
    }

    #[tokio::test]
    async fn a_delay_holds_each_chunk() {
        let proxy = FaultProxy::start(echo().await).await.unwrap();
        let delay = Duration::from_millis(100);
        proxy.set_delay(delay);
        let mut stream = TcpStream::connect(proxy.addr()).await.unwrap();
        let started = std::time::Instant::now();
        assert_eq!(round_trip(&mut stream, b"slow").await, b"slow");
        // Held on the way there and on the way back: at least twice the delay.
        assert!(started.elapsed() >= 2 * delay, "{:?}", started.elapsed());
    }
}
