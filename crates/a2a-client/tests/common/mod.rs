//! Test servers: the real a2a-server on 127.0.0.1:0, a TCP proxy whose connections the test can
//! cut, and a scripted HTTP server for answers no real agent gives.

#![allow(dead_code, unreachable_pub)]

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_server::agent::{AgentError, agent_fn};
use a2a_server::{A2aService, HandlerConfig, ServeConfig};
use a2a_types::v1::{AgentCapabilities, AgentCard, AgentSkill, Artifact, Part};
use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use tokio::sync::{Semaphore, watch};

/// A running server; shuts down when dropped.
pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl TestServer {
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

pub fn card() -> AgentCard {
    AgentCard::new("Test", "A test agent", "1.0.0")
        .with_capabilities(
            AgentCapabilities::default()
                .with_streaming(true)
                .with_push_notifications(true)
                .with_extended_agent_card(true),
        )
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"])
        .with_skills([AgentSkill::new("echo", "Echo", "Echoes", ["echo"])])
}

/// A service whose agent obeys the message text:
/// `hello` replies with a message; `ask` asks for input; `wait` works until canceled;
/// `chunks N` sends N artifact chunks, one per permit of `gate`; `fail` fails; anything else is
/// echoed as an artifact.
pub fn service(gate: Arc<Semaphore>, url: &str) -> A2aService {
    let agent = agent_fn(move |ctx, sink| {
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
                        let chunk = Artifact::new("chunks", vec![Part::text(format!("c{i} "))]);
                        sink.artifact_chunk(chunk, i > 0, i + 1 == n).await?;
                    }
                    sink.complete(None).await?;
                }
                "fail" => return Err(AgentError::new("it broke")),
                _ => {
                    sink.working(None).await?;
                    sink.artifact(Artifact::new("echo", vec![Part::text(text.clone())]))
                        .await?;
                    sink.complete(None).await?;
                }
            }
            Ok(())
        }
    });
    A2aService::builder(agent, card())
        .public_url(url)
        .extended_card(card().with_icon_url("https://example.com/extended.png"))
        .handler_config(HandlerConfig::default().with_cancel_grace(Duration::from_millis(200)))
        .push(a2a_server::push::PushSettings::default())
        .build()
}

pub async fn start_with(build: impl FnOnce(&str) -> A2aService) -> TestServer {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let service = build(&format!("http://{addr}"));
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let handler = service.handler().clone();
    tokio::spawn(a2a_server::serve_with_shutdown(
        listener,
        service,
        async move {
            let _ = stopped.await;
        },
        ServeConfig::default()
            .with_shutdown_deadline(Duration::from_millis(200))
            .on_shutdown(move || handler.shutdown()),
    ));
    TestServer {
        addr,
        stop: Some(stop),
    }
}

/// The test agent with an open gate.
pub async fn start() -> TestServer {
    start_gated(Arc::new(Semaphore::new(10_000))).await
}

pub async fn start_gated(gate: Arc<Semaphore>) -> TestServer {
    start_with(|url| service(gate, url)).await
}

// ----- a TCP proxy ----------------------------------------------------------------------------

/// Forwards every connection to `target`; [`Proxy::cut`] drops all open connections at once
/// (new ones are still accepted).
pub struct Proxy {
    pub addr: SocketAddr,
    cut: watch::Sender<u64>,
    pub connections: Arc<Mutex<u32>>,
    task: tokio::task::JoinHandle<()>,
}

impl Proxy {
    pub async fn start(target: SocketAddr) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (cut, _) = watch::channel(0u64);
        let connections = Arc::new(Mutex::new(0));
        let task = {
            let cut = cut.clone();
            let connections = connections.clone();
            tokio::spawn(async move {
                loop {
                    let Ok((mut inbound, _)) = listener.accept().await else {
                        return;
                    };
                    *connections.lock().unwrap() += 1;
                    let mut cut_rx = cut.subscribe();
                    tokio::spawn(async move {
                        let Ok(mut outbound) = tokio::net::TcpStream::connect(target).await else {
                            return;
                        };
                        tokio::select! {
                            _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                            _ = cut_rx.changed() => {}
                        }
                        // Dropping both sockets closes the connection on both sides.
                    });
                }
            })
        };
        Self {
            addr,
            cut,
            connections,
            task,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Drops every open connection.
    pub fn cut(&self) {
        self.cut.send_modify(|n| *n += 1);
    }

    pub fn connections(&self) -> u32 {
        *self.connections.lock().unwrap()
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
        self.cut();
    }
}

// ----- a scripted HTTP server ----------------------------------------------------------------

/// One request the scripted server received.
#[derive(Clone, Debug)]
pub struct Seen {
    pub method: http::Method,
    pub path: String,
    /// The query, as sent (`None` without `?`).
    pub query: Option<String>,
    pub headers: http::HeaderMap,
    pub body: String,
}

impl Seen {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap()
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

pub type Answer = http::Response<Full<Bytes>>;

/// A server that answers each request with `script(n, &request)` (n counts from 0), and
/// records what it received.
pub struct Scripted {
    pub addr: SocketAddr,
    pub seen: Arc<Mutex<Vec<Seen>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Scripted {
    pub async fn start<F>(script: F) -> Self
    where
        F: Fn(usize, &Seen) -> Option<Answer> + Send + Sync + 'static,
    {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let script = Arc::new(script);
        let task = {
            let seen = seen.clone();
            tokio::spawn(async move {
                loop {
                    let Ok((stream, _)) = listener.accept().await else {
                        return;
                    };
                    let seen = seen.clone();
                    let script = script.clone();
                    tokio::spawn(async move {
                        let service = hyper::service::service_fn(
                            move |request: http::Request<hyper::body::Incoming>| {
                                let seen = seen.clone();
                                let script = script.clone();
                                async move {
                                    let (head, body) = request.into_parts();
                                    let body = body.collect().await.unwrap().to_bytes();
                                    let entry = Seen {
                                        method: head.method,
                                        path: head.uri.path().to_owned(),
                                        query: head.uri.query().map(str::to_owned),
                                        headers: head.headers,
                                        body: String::from_utf8_lossy(&body).into_owned(),
                                    };
                                    let n = {
                                        let mut seen = seen.lock().unwrap();
                                        seen.push(entry.clone());
                                        seen.len() - 1
                                    };
                                    match script(n, &entry) {
                                        Some(answer) => Ok::<_, std::convert::Infallible>(answer),
                                        // No answer: hang until the client gives up.
                                        None => {
                                            tokio::time::sleep(Duration::from_secs(3600)).await;
                                            Ok(json(200, "{}"))
                                        }
                                    }
                                }
                            },
                        );
                        let _ = hyper::server::conn::http1::Builder::new()
                            .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                            .await;
                    });
                }
            })
        };
        Self { addr, seen, task }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

impl Drop for Scripted {
    fn drop(&mut self) {
        self.task.abort();
    }
}

pub fn json(status: u16, body: &str) -> Answer {
    answer(status, Some("application/json"), body.as_bytes())
}

/// An answer with this status, `Content-Type` (none for `None`) and body.
pub fn answer(status: u16, content_type: Option<&str>, body: &[u8]) -> Answer {
    let mut builder = http::Response::builder().status(status);
    if let Some(content_type) = content_type {
        builder = builder.header("content-type", content_type);
    }
    builder
        .body(Full::new(Bytes::copy_from_slice(body)))
        .unwrap()
}

pub fn sse(body: &[u8]) -> Answer {
    answer(200, Some("text/event-stream"), body)
}

/// A 1.0 card whose JSON-RPC interface is at `url`.
pub fn card_json(url: &str) -> String {
    serde_json::json!({
        "name": "Scripted", "description": "d", "version": "1",
        "supportedInterfaces": [{"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "capabilities": {"streaming": true},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": []
    })
    .to_string()
}

/// A JSON-RPC success answer with the id of the request.
pub fn result(seen: &Seen, result: serde_json::Value) -> Answer {
    let id = seen.json()["id"].clone();
    json(
        200,
        &serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string(),
    )
}

/// A completed task in ProtoJSON.
pub fn task_json(id: &str) -> serde_json::Value {
    serde_json::json!({"id": id, "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}})
}

/// The agent's TaskNotFoundError for task `t-9` with `message`, whatever binding brought it.
pub fn assert_t9_not_found(error: &a2a_client::Error, message: &str) {
    let a2a_client::Error::Agent(agent) = error else {
        panic!("{error:?}");
    };
    assert_eq!(agent.code(), a2a_client::ErrorCode::TASK_NOT_FOUND);
    assert_eq!(agent.metadata("taskId"), Some("t-9"));
    assert_eq!(
        error.to_string(),
        format!("the agent answered TaskNotFoundError (-32001): {message}")
    );
}
