//! `serve_per_core`: one listening socket served by several single-threaded runtimes. A task
//! started on one connection is the same task on every other (the service is shared), the
//! connection cap holds for all threads together, and shutdown ends every thread.

use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_server::agent::agent_fn;
use a2a_server::{A2aService, ServeConfig};
use a2a_types::v1::{AgentCard, Artifact, Part};
use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

/// The bound on every wait for something that must happen; never reached when the code works.
const GUARD: Duration = Duration::from_secs(10);

const TWO: NonZeroUsize = NonZeroUsize::new(2).unwrap();

/// An agent that answers with the name of the thread it ran on, and records it.
fn service(threads: Arc<Mutex<Vec<String>>>) -> A2aService {
    let card = AgentCard::new("T", "t", "1")
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"]);
    let agent = agent_fn(move |_ctx, sink| {
        let threads = Arc::clone(&threads);
        async move {
            let name = std::thread::current().name().unwrap_or("").to_owned();
            threads.lock().unwrap().push(name.clone());
            sink.artifact(Artifact::new("thread", vec![Part::text(name)]))
                .await?;
            sink.complete(None).await?;
            Ok(())
        }
    });
    A2aService::builder(agent, card).build()
}

async fn within<T>(what: &str, future: impl Future<Output = T>) -> T {
    tokio::time::timeout(GUARD, future)
        .await
        .unwrap_or_else(|_| panic!("{what}: not within {GUARD:?}"))
}

/// A JSON-RPC call on connection `sender`; the `result`.
async fn call(
    sender: &mut hyper::client::conn::http1::SendRequest<Full<Bytes>>,
    method: &str,
    params: Value,
) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let request = http::Request::post("http://t/")
        .header("content-type", "application/json")
        .header("a2a-version", "1.0")
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap();
    let response = within(method, sender.send_request(request)).await.unwrap();
    assert_eq!(response.status(), http::StatusCode::OK);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let mut answer: Value = serde_json::from_slice(&body).unwrap();
    answer["result"].take()
}

async fn connect(addr: SocketAddr) -> hyper::client::conn::http1::SendRequest<Full<Bytes>> {
    let stream = TcpStream::connect(addr).await.unwrap();
    let (sender, conn) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .unwrap();
    tokio::spawn(async move {
        let _ = conn.await;
    });
    sender
}

#[tokio::test]
async fn a_task_started_on_one_connection_is_the_same_task_on_every_other() {
    let threads = Arc::new(Mutex::new(Vec::new()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(a2a_server::serve_per_core(
        listener,
        service(Arc::clone(&threads)),
        TWO,
        async move {
            let _ = stopped.await;
        },
        ServeConfig::default().with_shutdown_deadline(Duration::from_millis(200)),
    ));
    let mut connections = Vec::new();
    for _ in 0..6 {
        connections.push(connect(addr).await);
    }
    let message =
        json!({"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "x"}]}});
    let task = call(&mut connections[0], "SendMessage", message).await;
    let task = &task["task"];
    assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED");
    let ran_on = task["artifacts"][0]["parts"][0]["text"].as_str().unwrap();
    assert!(
        ran_on.starts_with("a2a-serve-"),
        "the agent ran on {ran_on:?}, not on a serving thread"
    );
    for sender in &mut connections[1..] {
        let got = call(sender, "GetTask", json!({"id": task["id"]})).await;
        assert_eq!(&got, task);
    }
    assert_eq!(threads.lock().unwrap().len(), 1);
    stop.send(()).unwrap();
    within("serve_per_core returns", server)
        .await
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn the_connection_cap_holds_for_all_threads_together() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = ServeConfig::default()
        .with_max_connections(3)
        .with_shutdown_deadline(Duration::from_millis(200));
    let _server = tokio::spawn(a2a_server::serve_per_core(
        listener,
        service(Arc::default()),
        TWO,
        std::future::pending(),
        config,
    ));
    // Three connections are served, whichever thread takes each.
    let mut open = Vec::new();
    for _ in 0..3 {
        let mut sender = connect(addr).await;
        call(&mut sender, "ListTasks", json!({})).await;
        open.push(sender);
    }
    // The fourth connects (the kernel queues it) but is not served while three are open.
    let mut fourth = TcpStream::connect(addr).await.unwrap();
    fourth
        .write_all(
            b"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
        )
        .await
        .unwrap();
    let mut head = [0u8; 12];
    let early =
        tokio::time::timeout(Duration::from_millis(300), fourth.read_exact(&mut head)).await;
    assert!(early.is_err(), "served beyond the cap");
    // One closes: the fourth is served.
    drop(open.pop());
    within("the fourth is served", fourth.read_exact(&mut head))
        .await
        .unwrap();
    assert_eq!(&head, b"HTTP/1.1 200");
}

#[tokio::test]
async fn shutdown_calls_each_hook_once_and_ends_every_thread() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&calls);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(a2a_server::serve_per_core(
        listener,
        service(Arc::default()),
        NonZeroUsize::new(3).unwrap(),
        async move {
            let _ = stopped.await;
        },
        ServeConfig::default()
            .with_shutdown_deadline(Duration::from_millis(200))
            .on_shutdown(move || {
                counted.fetch_add(1, Ordering::SeqCst);
            }),
    ));
    let mut sender = connect(addr).await;
    call(&mut sender, "ListTasks", json!({})).await;
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    stop.send(()).unwrap();
    within("serve_per_core returns", server)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    // Nothing accepts any more.
    assert!(TcpStream::connect(addr).await.is_err());
}

#[tokio::test]
async fn zero_max_connections_is_refused() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let err = a2a_server::serve_per_core(
        listener,
        service(Arc::default()),
        TWO,
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
