//! A test server on 127.0.0.1:0 and a small HTTP/1.1 client for it.

#![allow(dead_code, unreachable_pub)]

use std::net::SocketAddr;
use std::time::Duration;

use a2a_server::{A2aService, ServeConfig};
use bytes::Bytes;
use http::{HeaderMap, Request, StatusCode};
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use serde_json::Value;

/// A running server; shuts down when dropped.
pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

pub async fn start(service: A2aService) -> TestServer {
    start_configured(
        service,
        ServeConfig::default().with_shutdown_deadline(Duration::from_millis(200)),
    )
    .await
}

/// [`start`] with the connection limits of `config`; shutdown stops the running agents.
pub async fn start_configured(service: A2aService, config: ServeConfig) -> TestServer {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let handler = service.handler().clone();
    tokio::spawn(a2a_server::serve_with_shutdown(
        listener,
        service,
        async move {
            let _ = stopped.await;
        },
        config.on_shutdown(move || handler.shutdown()),
    ));
    TestServer {
        addr,
        stop: Some(stop),
    }
}

/// Sends one request on a fresh connection; returns the head and the streaming body.
pub async fn send(addr: SocketAddr, request: Request<Full<Bytes>>) -> http::Response<Incoming> {
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(async move {
        let _ = conn.await;
    });
    sender.send_request(request).await.unwrap()
}

pub fn rpc_request(body: &str, headers: &[(&str, &str)]) -> Request<Full<Bytes>> {
    let mut builder = Request::post("/")
        .header("content-type", "application/json")
        .header("host", "test");
    for (k, v) in headers {
        builder = builder.header(*k, *v);
    }
    builder
        .body(Full::new(Bytes::from(body.to_owned())))
        .unwrap()
}

/// POSTs a JSON-RPC body with `A2A-Version: 1.0`; returns status, headers and the body text.
pub async fn rpc(addr: SocketAddr, body: &str) -> (StatusCode, HeaderMap, String) {
    rpc_with(addr, body, &[("A2A-Version", "1.0")]).await
}

pub async fn rpc_with(
    addr: SocketAddr,
    body: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, HeaderMap, String) {
    let response = send(addr, rpc_request(body, headers)).await;
    let (head, body) = response.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    (
        head.status,
        head.headers,
        String::from_utf8(bytes.to_vec()).unwrap(),
    )
}

/// The body as JSON with generated ids and timestamps replaced by placeholders.
pub fn normalized(text: &str) -> Value {
    let mut value: Value =
        serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    normalize(&mut value);
    value
}

pub fn normalize(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match (key.as_str(), &*v) {
                    ("timestamp", Value::String(_)) => *v = Value::String("<timestamp>".into()),
                    ("id" | "taskId" | "contextId" | "messageId", Value::String(s))
                        if is_uuid(s) =>
                    {
                        *v = Value::String("<uuid>".into());
                    }
                    _ => normalize(v),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(normalize),
        _ => {}
    }
}

fn is_uuid(s: &str) -> bool {
    s.len() == 36 && s.bytes().filter(|b| *b == b'-').count() == 4
}

/// Reads SSE frames from a streaming response.
pub struct Events {
    stream: a2a_sse::EventStream<a2a_sse::BodyData<Incoming>>,
}

impl Events {
    pub fn new(response: http::Response<Incoming>) -> Self {
        Self::with(response, a2a_sse::Decoder::new())
    }

    pub fn with_comments(response: http::Response<Incoming>) -> Self {
        Self::with(response, a2a_sse::Decoder::new().with_comments(true))
    }

    fn with(response: http::Response<Incoming>, decoder: a2a_sse::Decoder) -> Self {
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        Self {
            stream: a2a_sse::EventStream::with_decoder(
                a2a_sse::BodyData::new(response.into_body()),
                decoder,
            ),
        }
    }

    /// The next frame: `(id, data JSON)` for an event, `(None, ": comment")` for a comment,
    /// `None` at the end of the stream.
    pub async fn next(&mut self) -> Option<(Option<String>, Value)> {
        use futures_util::StreamExt as _;
        match self.stream.next().await? {
            Ok(a2a_sse::Frame::Event(event)) => {
                let data: Value = serde_json::from_str(event.data().unwrap_or("")).unwrap();
                Some((event.id().map(str::to_owned), data))
            }
            Ok(a2a_sse::Frame::Comment(c)) => Some((None, Value::String(format!(": {c}")))),
            Ok(other) => panic!("unexpected frame {other:?}"),
            Err(err) => panic!("broken SSE: {err}"),
        }
    }

    pub async fn collect(mut self) -> Vec<(Option<String>, Value)> {
        let mut out = Vec::new();
        while let Some(item) = self.next().await {
            out.push(item);
        }
        out
    }
}

/// An agent that follows the first word of the message: `hello` replies with a message, `ask`
/// asks for input once, `wait` works until canceled, `chunks N` streams N artifact chunks (one
/// permit of `gate` each), `fail` fails, `extensions` answers the extensions the call asked
/// for; anything else is echoed as an artifact.
pub fn scripted_agent(gate: std::sync::Arc<tokio::sync::Semaphore>) -> impl a2a_server::Agent {
    use a2a_server::agent::{AgentError, agent_fn};
    use a2a_types::v1::{Artifact, Part};
    agent_fn(move |ctx, sink| {
        let gate = gate.clone();
        async move {
            let text = ctx.text();
            let (command, arg) = text.split_once(' ').unwrap_or((text.as_str(), ""));
            match command {
                "hello" => sink.reply(sink.message(vec![Part::text("hi!")])).await?,
                "ask" if ctx.task.is_none() => sink.input_required("which city?").await?,
                "wait" => {
                    sink.working(None).await?;
                    ctx.cancelled().await;
                }
                "chunks" => {
                    sink.working(None).await?;
                    let n: usize = arg.parse().unwrap();
                    for i in 0..n {
                        gate.acquire().await.unwrap().forget();
                        let chunk = Artifact::new("chunks", vec![Part::text(format!("c{i}"))]);
                        sink.artifact_chunk(chunk, i > 0, i + 1 == n).await?;
                    }
                    sink.complete(None).await?;
                }
                "fail" => return Err(AgentError::new("it broke")),
                "extensions" => {
                    let seen = ctx.extensions.join(" ");
                    sink.artifact(Artifact::new("seen", vec![Part::text(seen)]))
                        .await?;
                    sink.complete(None).await?;
                }
                _ => {
                    sink.working(None).await?;
                    sink.artifact(Artifact::new("echo", vec![Part::text(text.clone())]))
                        .await?;
                    sink.complete(None).await?;
                }
            }
            Ok(())
        }
    })
}

/// A card with streaming on and no input modes (every media type is accepted).
pub fn streaming_card() -> a2a_types::v1::AgentCard {
    use a2a_types::v1::{AgentCapabilities, AgentCard};
    AgentCard::new("test", "test agent", "1.0.0")
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
}

/// A `SendMessage` request of one text part.
pub fn text_request(text: &str) -> a2a_types::v1::SendMessageRequest {
    use a2a_types::v1::{Message, Part, Role, SendMessageRequest};
    SendMessageRequest::new(Message::new("m-1", Role::User, vec![Part::text(text)]))
}

/// The task of an answer that must be one.
pub fn task_of(response: a2a_types::v1::SendMessageResponse) -> a2a_types::v1::Task {
    match response {
        a2a_types::v1::SendMessageResponse::Task(task) => task,
        other => panic!("expected a task, got {other:?}"),
    }
}
