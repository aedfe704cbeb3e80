//! The connection layer (`serve`): protocol detection, head and idle deadlines, HTTP/2
//! keep-alive and settings, the connection cap, any tower Service. Limits are configured
//! short; each wait is bounded by [`GUARD`] only so that a failure cannot hang the suite.

mod common;

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use a2a_server::agent::agent_fn;
use a2a_server::{A2aService, ServeConfig};
use a2a_types::v1::{AgentCapabilities, AgentCard};
use bytes::Bytes;
use common::{Events, TestServer, rpc_request};
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use pretty_assertions::assert_eq;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;
use tokio::task::JoinHandle;

/// The bound on every wait for something that must happen; never reached when the code works.
const GUARD: Duration = Duration::from_secs(10);

/// A short limit, for the deadline under test.
const SHORT: Duration = Duration::from_millis(200);

/// A limit no test reaches.
const LONG: Duration = Duration::from_secs(600);

const CARD_PATH: &str = "/.well-known/agent-card.json";

const STREAM_BODY: &str = r#"{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]}}}"#;

/// Long limits everywhere: each test shortens the one it is about.
fn config() -> ServeConfig {
    ServeConfig::default()
        .with_header_read_timeout(LONG)
        .with_idle_timeout(LONG)
        .with_http2_keep_alive_interval(None)
        .with_shutdown_deadline(Duration::from_millis(200))
}

/// An agent whose task stays working (its SSE stream open) until it is cancelled.
fn service() -> A2aService {
    let card = AgentCard::new("T", "t", "1")
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"]);
    let agent = agent_fn(|ctx, sink| async move {
        sink.working(None).await?;
        ctx.cancelled().await;
        Ok(())
    });
    A2aService::builder(agent, card).build()
}

async fn start(config: ServeConfig) -> TestServer {
    common::start_configured(service(), config).await
}

async fn within<T>(what: &str, future: impl Future<Output = T>) -> T {
    tokio::time::timeout(GUARD, future)
        .await
        .unwrap_or_else(|_| panic!("{what}: not within {GUARD:?}"))
}

fn card_request() -> http::Request<Full<Bytes>> {
    http::Request::get(format!("http://t{CARD_PATH}"))
        .body(Full::new(Bytes::new()))
        .unwrap()
}

/// Reads until the server closes the connection; returns what it sent.
async fn read_to_close(stream: &mut TcpStream) -> Vec<u8> {
    let mut received = Vec::new();
    within("the server closes the connection", async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => received.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    received
}

/// An HTTP/1.1 client connection; the handle ends when the connection does.
async fn http1(
    addr: SocketAddr,
) -> (
    hyper::client::conn::http1::SendRequest<Full<Bytes>>,
    JoinHandle<()>,
) {
    let stream = TcpStream::connect(addr).await.unwrap();
    let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    let handle = tokio::spawn(async move {
        let _ = conn.await;
    });
    (sender, handle)
}

/// An HTTP/2 client connection with prior knowledge; the handle ends when the connection does.
async fn http2(
    addr: SocketAddr,
) -> (
    hyper::client::conn::http2::SendRequest<Full<Bytes>>,
    JoinHandle<()>,
) {
    let stream = TcpStream::connect(addr).await.unwrap();
    let (sender, conn) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(stream))
            .await
            .unwrap();
    let handle = tokio::spawn(async move {
        let _ = conn.await;
    });
    (sender, handle)
}

/// The agent card's name, fetched with `response`.
async fn card_name(response: http::Response<Incoming>) -> String {
    assert_eq!(response.status(), http::StatusCode::OK);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let card: serde_json::Value = serde_json::from_slice(&body).unwrap();
    card["name"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn one_byte_then_nothing_is_closed_after_the_header_timeout() {
    let server = start(config().with_header_read_timeout(SHORT)).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream.write_all(b"P").await.unwrap();
    assert_eq!(read_to_close(&mut stream).await, b"");
}

#[tokio::test]
async fn part_of_the_http2_preface_then_nothing_is_closed_after_the_header_timeout() {
    let server = start(config().with_header_read_timeout(SHORT)).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream.write_all(b"PRI * HTTP/2.0\r\n").await.unwrap();
    assert_eq!(read_to_close(&mut stream).await, b"");
}

#[tokio::test]
async fn a_partial_head_is_closed_after_the_header_timeout() {
    let server = start(config().with_header_read_timeout(SHORT)).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(b"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: t\r\n")
        .await
        .unwrap();
    assert_eq!(read_to_close(&mut stream).await, b"");
}

#[tokio::test]
async fn a_head_sent_a_line_at_a_time_is_still_due_within_the_header_timeout() {
    let server = start(config().with_header_read_timeout(SHORT)).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
    within("the server closes a dribbling head", async {
        let mut buf = [0u8; 64];
        loop {
            // Progress every 50 ms does not reset the deadline.
            if stream.write_all(b"X-Slow: 1\r\n").await.is_err() {
                break;
            }
            match tokio::time::timeout(Duration::from_millis(50), stream.read(&mut buf)).await {
                Ok(Ok(0) | Err(_)) => break,
                Ok(Ok(n)) => panic!("unexpected answer {:?}", &buf[..n]),
                Err(_) => {}
            }
        }
    })
    .await;
}

#[tokio::test]
async fn http1_and_http2_share_the_port() {
    let server = start(config()).await;
    let (mut h1, _c1) = http1(server.addr).await;
    let response = h1.send_request(card_request()).await.unwrap();
    assert_eq!(response.version(), http::Version::HTTP_11);
    assert_eq!(card_name(response).await, "T");

    let (mut h2, _c2) = http2(server.addr).await;
    let response = h2.send_request(card_request()).await.unwrap();
    assert_eq!(response.version(), http::Version::HTTP_2);
    assert_eq!(card_name(response).await, "T");
}

#[tokio::test]
async fn a_kept_alive_http1_connection_is_closed_after_the_idle_timeout() {
    let server = start(config().with_idle_timeout(SHORT)).await;
    let (mut sender, conn) = http1(server.addr).await;
    let response = sender.send_request(card_request()).await.unwrap();
    assert_eq!(card_name(response).await, "T");
    within("the idle HTTP/1.1 connection is closed", conn)
        .await
        .unwrap();
}

#[tokio::test]
async fn an_idle_http1_connection_waits_the_idle_timeout_not_the_header_timeout() {
    // hyper's own header timer starts whenever a kept-alive connection goes idle; here the head
    // deadline starts with the first byte of the next request instead.
    let server = start(config().with_header_read_timeout(SHORT)).await;
    let (mut sender, conn) = http1(server.addr).await;
    let response = sender.send_request(card_request()).await.unwrap();
    assert_eq!(card_name(response).await, "T");
    tokio::time::sleep(SHORT * 3).await;
    assert!(
        !conn.is_finished(),
        "closed while idle before the idle timeout"
    );
    let response = sender.send_request(card_request()).await.unwrap();
    assert_eq!(card_name(response).await, "T");
}

/// A client connection of either protocol.
enum Client {
    Http1(hyper::client::conn::http1::SendRequest<Full<Bytes>>),
    Http2(hyper::client::conn::http2::SendRequest<Full<Bytes>>),
}

impl Client {
    /// Connects with `version`; the handle ends when the connection does.
    async fn connect(addr: SocketAddr, version: http::Version) -> (Self, JoinHandle<()>) {
        if version == http::Version::HTTP_2 {
            let (sender, conn) = http2(addr).await;
            (Self::Http2(sender), conn)
        } else {
            let (sender, conn) = http1(addr).await;
            (Self::Http1(sender), conn)
        }
    }

    async fn send(&mut self, request: http::Request<Full<Bytes>>) -> http::Response<Incoming> {
        match self {
            Self::Http1(sender) => sender.send_request(request).await.unwrap(),
            Self::Http2(sender) => sender.send_request(request).await.unwrap(),
        }
    }
}

/// An idle connection is closed after the idle timeout while one with an open SSE stream is
/// not, until the stream ends.
async fn an_open_sse_stream_is_not_idle(version: http::Version) {
    let server = start(config().with_idle_timeout(SHORT)).await;
    let (mut streaming, streaming_conn) = Client::connect(server.addr, version).await;
    let response = streaming
        .send(rpc_request(STREAM_BODY, &[("A2A-Version", "1.0")]))
        .await;
    assert_eq!(response.version(), version);
    let mut events = Events::new(response);
    events.next().await.unwrap();
    events.next().await.unwrap();

    // A connection idle since after the stream opened is closed first (HTTP/2: GOAWAY)...
    let (mut idle, idle_conn) = Client::connect(server.addr, version).await;
    assert_eq!(card_name(idle.send(card_request()).await).await, "T");
    within("the idle connection is closed", idle_conn)
        .await
        .unwrap();
    tokio::time::sleep(SHORT * 2).await;
    // ...while the one with the open stream lives on.
    assert!(!streaming_conn.is_finished(), "the SSE stream was closed");
    if version == http::Version::HTTP_2 {
        // And still takes requests beside the stream.
        assert_eq!(card_name(streaming.send(card_request()).await).await, "T");
    }

    // Once the stream ends, its connection is idle too.
    drop(events);
    within("the connection is closed after its stream", streaming_conn)
        .await
        .unwrap();
}

#[tokio::test]
async fn an_http1_connection_with_an_open_sse_stream_is_not_idle() {
    an_open_sse_stream_is_not_idle(http::Version::HTTP_11).await;
}

#[tokio::test]
async fn an_http2_connection_with_an_open_sse_stream_is_not_idle() {
    an_open_sse_stream_is_not_idle(http::Version::HTTP_2).await;
}

/// Reads one HTTP/2 frame: `(type, flags, payload)`, or `None` at the end of the connection.
async fn read_frame(stream: &mut TcpStream) -> Option<(u8, u8, Vec<u8>)> {
    let mut head = [0u8; 9];
    stream.read_exact(&mut head).await.ok()?;
    let len = u32::from_be_bytes([0, head[0], head[1], head[2]]) as usize;
    let mut payload = vec![0u8; len];
    stream.read_exact(&mut payload).await.ok()?;
    Some((head[3], head[4], payload))
}

const FRAME_SETTINGS: u8 = 0x4;
const FRAME_PING: u8 = 0x6;
/// The HTTP/2 preface and an empty SETTINGS frame: a client that then goes quiet.
const QUIET_CLIENT: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00";

#[tokio::test]
async fn an_http2_peer_that_does_not_answer_pings_is_closed() {
    let server = start(
        config()
            .with_http2_keep_alive_interval(Some(Duration::from_millis(100)))
            .with_http2_keep_alive_timeout(Duration::from_millis(100)),
    )
    .await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream.write_all(QUIET_CLIENT).await.unwrap();
    let frames = within("the server gives up on the peer", async {
        let mut frames = Vec::new();
        while let Some((kind, flags, _)) = read_frame(&mut stream).await {
            frames.push((kind, flags));
        }
        frames
    })
    .await;
    assert!(
        frames.contains(&(FRAME_PING, 0)),
        "no PING before the close: {frames:?}"
    );
}

#[tokio::test]
async fn http2_settings_carry_the_max_concurrent_streams() {
    let server = start(config().with_http2_max_concurrent_streams(7)).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream.write_all(QUIET_CLIENT).await.unwrap();
    let (kind, flags, payload) = within("the server's SETTINGS", read_frame(&mut stream))
        .await
        .unwrap();
    assert_eq!((kind, flags), (FRAME_SETTINGS, 0));
    // SETTINGS_MAX_CONCURRENT_STREAMS (0x3) = 7, among hyper's other settings.
    let settings: Vec<(u16, u32)> = payload
        .chunks(6)
        .map(|s| {
            (
                u16::from_be_bytes([s[0], s[1]]),
                u32::from_be_bytes([s[2], s[3], s[4], s[5]]),
            )
        })
        .collect();
    assert!(settings.contains(&(0x3, 7)), "{settings:?}");
}

#[tokio::test]
async fn at_the_connection_cap_a_new_connection_is_served_once_one_closes() {
    let server = start(config().with_max_connections(2)).await;
    let (mut first, first_conn) = http1(server.addr).await;
    assert_eq!(
        card_name(first.send_request(card_request()).await.unwrap()).await,
        "T"
    );
    let (mut second, _second_conn) = http1(server.addr).await;
    assert_eq!(
        card_name(second.send_request(card_request()).await.unwrap()).await,
        "T"
    );

    // The third connects (the kernel queues it) but is not served while two are open.
    let mut third = TcpStream::connect(server.addr).await.unwrap();
    third
        .write_all(
            b"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
        )
        .await
        .unwrap();
    let mut buf = [0u8; 12];
    let early = tokio::time::timeout(SHORT, third.read_exact(&mut buf)).await;
    assert!(early.is_err(), "served beyond the cap");

    drop(first);
    within("the first connection ends", first_conn)
        .await
        .unwrap();
    within("the third is served", third.read_exact(&mut buf))
        .await
        .unwrap();
    assert_eq!(&buf, b"HTTP/1.1 200");

    // The accept loop goes on.
    drop(third);
    let (mut fourth, _fourth_conn) = http1(server.addr).await;
    let response = within(
        "a later connection is served",
        fourth.send_request(card_request()),
    )
    .await
    .unwrap();
    assert_eq!(card_name(response).await, "T");
}

#[tokio::test]
async fn zero_max_connections_is_refused() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let err = a2a_server::serve_with_shutdown(
        listener,
        service(),
        std::future::pending(),
        ServeConfig::default().with_max_connections(0),
    )
    .await
    .unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    assert_eq!(
        err.to_string(),
        "ServeConfig::max_connections is 0: no connection could ever be served"
    );
}

#[tokio::test]
async fn shutdown_calls_each_hook_once_and_returns_once_connections_are_closed() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&calls);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(a2a_server::serve_with_shutdown(
        listener,
        service(),
        async move {
            let _ = stopped.await;
        },
        config().on_shutdown(move || {
            counted.fetch_add(1, Ordering::SeqCst);
        }),
    ));
    // An idle kept-alive connection, closed by the shutdown.
    let (mut sender, conn) = http1(addr).await;
    assert_eq!(
        card_name(sender.send_request(card_request()).await.unwrap()).await,
        "T"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    stop.send(()).unwrap();
    within("serve returns", server).await.unwrap().unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    within("the idle connection is closed", conn).await.unwrap();
}

/// Any tower Service: here one that answers every request with its path.
#[derive(Clone)]
struct EchoPath;

impl tower_service::Service<http::Request<Incoming>> for EchoPath {
    type Response = http::Response<Full<Bytes>>;
    type Error = Infallible;
    type Future = std::future::Ready<Result<Self::Response, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<Incoming>) -> Self::Future {
        let path = Bytes::from(request.uri().path().to_owned());
        std::future::ready(Ok(http::Response::new(Full::new(path))))
    }
}

#[tokio::test]
async fn any_tower_service_is_served_over_both_protocols() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(a2a_server::serve(listener, EchoPath));
    let request = || {
        http::Request::get("http://t/some/path")
            .body(Full::new(Bytes::new()))
            .unwrap()
    };
    let (mut h1, _c1) = http1(addr).await;
    let body = h1.send_request(request()).await.unwrap().into_body();
    assert_eq!(body.collect().await.unwrap().to_bytes(), "/some/path");
    let (mut h2, _c2) = http2(addr).await;
    let body = h2.send_request(request()).await.unwrap().into_body();
    assert_eq!(body.collect().await.unwrap().to_bytes(), "/some/path");
}

#[tokio::test]
async fn an_axum_router_combining_services_shares_the_listener() {
    let router = axum::Router::new()
        .route("/health", axum::routing::get(|| async { "ok" }))
        .fallback_service(service());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(a2a_server::serve(listener, router));
    for version in [http::Version::HTTP_11, http::Version::HTTP_2] {
        let (mut client, _conn) = Client::connect(addr, version).await;
        let health = http::Request::get("http://t/health")
            .body(Full::new(Bytes::new()))
            .unwrap();
        let body = client.send(health).await.into_body();
        assert_eq!(body.collect().await.unwrap().to_bytes(), "ok");
        assert_eq!(card_name(client.send(card_request()).await).await, "T");
    }
}
