//! The HTTP layer shared by the bindings, over real sockets: content types, body limits and
//! timeouts, the stream limit, batch concurrency and the card's URL.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use a2a_server::agent::agent_fn;
use a2a_server::{A2aService, Limits};
use a2a_types::v1::{AgentCapabilities, AgentCard};
use bytes::Bytes;
use common::{normalized, rpc, rpc_with, send, start};
use http::StatusCode;
use http_body_util::{BodyExt as _, Full};
use pretty_assertions::assert_eq;
use serde_json::json;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

fn card() -> AgentCard {
    AgentCard::new("Test", "A test agent", "1.0.0")
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
}

/// An agent that completes at once, or waits for cancellation on `wait`.
fn service(limits: Limits) -> A2aService {
    let agent = agent_fn(|ctx, sink| async move {
        sink.working(None).await?;
        if ctx.text() == "wait" {
            ctx.cancelled().await;
        }
        sink.complete(None).await?;
        Ok(())
    });
    A2aService::builder(agent, card()).limits(limits).build()
}

fn send_text(id: u32, method: &str, text: &str) -> String {
    json!({"jsonrpc":"2.0","id":id,"method":method,
        "params":{"message":{"messageId":format!("m-{id}"),"role":"ROLE_USER","parts":[{"text":text}]}}})
    .to_string()
}

/// Writes `head` (and what follows) on a raw connection and reads the whole answer.
async fn raw(
    addr: std::net::SocketAddr,
    bytes: &[u8],
    then: impl AsyncFnOnce(&mut tokio::net::TcpStream),
) -> String {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(bytes).await.unwrap();
    then(&mut stream).await;
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        // The server answers and closes (or keeps the connection: stop at the end of the body).
        match tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf)).await {
            Ok(Ok(0)) | Err(_) => break,
            Ok(Ok(n)) => {
                answer.extend_from_slice(&buf[..n]);
                let text = String::from_utf8_lossy(&answer);
                if let Some((head, body)) = text.split_once("\r\n\r\n")
                    && let Some(len) = head.lines().find_map(|l| {
                        l.to_ascii_lowercase()
                            .strip_prefix("content-length: ")
                            .map(str::to_owned)
                    })
                    && body.len() >= len.trim().parse::<usize>().unwrap()
                {
                    break;
                }
            }
            Ok(Err(_)) => break,
        }
    }
    String::from_utf8(answer).unwrap()
}

fn body_of(answer: &str) -> serde_json::Value {
    normalized(answer.split_once("\r\n\r\n").unwrap().1)
}

#[tokio::test]
async fn a_non_json_content_type_is_415_with_content_type_not_supported() {
    let server = start(service(Limits::default())).await;
    let request = http::Request::post("/")
        .header("host", "t")
        .header("content-type", "text/plain")
        .header("a2a-version", "1.0")
        .body(Full::new(Bytes::from(send_text(1, "SendMessage", "hi"))))
        .unwrap();
    let response = send(server.addr, request).await;
    assert_eq!(response.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(
        normalized(std::str::from_utf8(&body).unwrap()),
        json!({"jsonrpc":"2.0","id":null,"error":{"code":-32005,
            "message":"media type `text/plain` is not supported; the agent accepts application/json",
            "data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"CONTENT_TYPE_NOT_SUPPORTED",
                "domain":"a2a-protocol.org","metadata":{"mediaType":"text/plain"}}]}})
    );
    // Any JSON media type is fine, and so is none at all.
    for content_type in ["application/json; charset=utf-8", "application/a2a+json"] {
        let (status, _, _) = rpc_with(
            server.addr,
            &send_text(2, "GetTask", "x").replace("\"message\"", "\"m\""),
            &[("a2a-version", "1.0"), ("content-type", content_type)],
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{content_type}");
    }
}

#[tokio::test]
async fn a_stalled_body_is_408() {
    let limits = Limits::default()
        .with_body_idle_timeout(Duration::from_millis(100))
        .with_body_read_timeout(Duration::from_millis(400));
    let server = start(service(limits)).await;
    let expected = |detail: &str| json!({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":format!("invalid request: {detail}")}});

    // A short body: Content-Length promises more than comes.
    let answer = raw(
        server.addr,
        b"POST / HTTP/1.1\r\nhost: t\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"jsonrpc\"",
        async |_| {},
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert_eq!(
        body_of(&answer),
        expected("the request body stalled: no data for 100 ms")
    );

    // `Expect: 100-continue`, then no body at all.
    let answer = raw(
        server.addr,
        b"POST / HTTP/1.1\r\nhost: t\r\nexpect: 100-continue\r\ncontent-length: 10\r\n\r\n",
        async |_| {},
    )
    .await;
    assert!(answer.contains("HTTP/1.1 408"), "{answer}");

    // An endless chunked body that never stalls for long: the total limit ends it.
    let answer = raw(
        server.addr,
        b"POST / HTTP/1.1\r\nhost: t\r\ntransfer-encoding: chunked\r\n\r\n",
        async |stream| {
            for _ in 0..20 {
                if stream.write_all(b"1\r\n \r\n").await.is_err() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        },
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert_eq!(
        body_of(&answer),
        expected("the request body did not arrive within 400 ms")
    );
}

#[tokio::test]
async fn the_stream_limit_is_503_with_the_request_id_and_starts_nothing() {
    let service = service(Limits::default().with_max_streams(1));
    let store = service.handler().store().clone();
    let server = start(service).await;
    let first = send(
        server.addr,
        common::rpc_request(
            &send_text(1, "SendStreamingMessage", "wait"),
            &[("a2a-version", "1.0")],
        ),
    )
    .await;
    assert_eq!(first.status(), StatusCode::OK);
    let mut events = common::Events::new(first);
    assert!(events.next().await.is_some());
    let (status, _, body) = rpc(server.addr, &send_text(7, "SendStreamingMessage", "more")).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        normalized(&body),
        json!({"jsonrpc":"2.0","id":7,"error":{"code":-32603,
            "message":"internal error: too many open streams (the limit is 1); try again later",
            "data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"INTERNAL","domain":"a2a-protocol.org"}]}})
    );
    // Only the first task exists.
    let mut query = a2a_server::store::ListQuery::default();
    query.page_size = 10;
    let page = store.list(&query).await.unwrap();
    assert_eq!(page.total_size, 1);
}

#[tokio::test]
async fn a_batch_runs_at_most_eight_calls_at_once() {
    let running = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let release = Arc::new(tokio::sync::Notify::new());
    let agent = {
        let (running, most, release) = (running.clone(), most.clone(), release.clone());
        agent_fn(move |_ctx, sink| {
            let (running, most, release) = (running.clone(), most.clone(), release.clone());
            async move {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                if now > 8 {
                    // More than the bound at once: let everybody go, the test has failed.
                    release.notify_waiters();
                } else {
                    // Wait for a ninth call, which never comes while the bound holds.
                    let _ =
                        tokio::time::timeout(Duration::from_millis(100), release.notified()).await;
                }
                running.fetch_sub(1, Ordering::SeqCst);
                sink.complete(None).await?;
                Ok(())
            }
        })
    };
    let server = start(A2aService::builder(agent, card()).build()).await;
    let batch: Vec<serde_json::Value> = (0..20)
        .map(|i| serde_json::from_str(&send_text(i, "SendMessage", "x")).unwrap())
        .collect();
    let (status, _, body) = rpc(server.addr, &serde_json::to_string(&batch).unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    let answers: Vec<serde_json::Value> = serde_json::from_str(&body).unwrap();
    let ids: Vec<i64> = answers.iter().map(|a| a["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, (0..20).collect::<Vec<_>>());
    assert!(
        answers
            .iter()
            .all(|a| a["result"]["task"]["status"]["state"] == "TASK_STATE_COMPLETED")
    );
    assert_eq!(most.load(Ordering::SeqCst), 8);
}

#[tokio::test]
async fn without_a_public_url_the_card_names_the_host_it_was_asked_at() {
    let server = start(service(Limits::default())).await;
    let request = http::Request::get("/.well-known/agent-card.json")
        .header("host", format!("localhost:{}", server.addr.port()))
        .body(Full::new(Bytes::new()))
        .unwrap();
    let response = send(server.addr, request).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers().contains_key("last-modified"));
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let card: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        card["supportedInterfaces"],
        json!([{"url": format!("http://localhost:{}/", server.addr.port()),
            "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": format!("http://localhost:{}", server.addr.port()),
            "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
            {"url": format!("http://localhost:{}/", server.addr.port()),
            "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
            {"url": format!("http://localhost:{}", server.addr.port()),
            "protocolBinding": "HTTP+JSON", "protocolVersion": "0.3"},
            {"url": format!("http://localhost:{}/", server.addr.port()),
            "protocolBinding": "JSONRPC", "protocolVersion": "0.1"}])
    );
}

#[tokio::test]
async fn a_batch_over_the_length_limit_is_one_error_and_runs_nothing() {
    let service = service(Limits::default().with_max_batch_len(2));
    let store = service.handler().store().clone();
    let server = start(service).await;
    let batch: Vec<serde_json::Value> = (0..3)
        .map(|i| serde_json::from_str(&send_text(i, "SendMessage", "x")).unwrap())
        .collect();
    let (status, _, body) = rpc(server.addr, &serde_json::to_string(&batch).unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        body,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: a batch may hold at most 2 calls; this one holds 3"}}"#
    );
    let mut query = a2a_server::store::ListQuery::default();
    query.page_size = 10;
    assert_eq!(store.list(&query).await.unwrap().total_size, 0);
}

#[tokio::test]
async fn json_rpc_calls_are_scoped_to_the_tenant_in_their_params() {
    let server = start(service(Limits::default())).await;
    let send = json!({"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"tenant":"acme",
        "message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"x"}]}}});
    let (_, _, body) = rpc(server.addr, &send.to_string()).await;
    let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
    let id = answer["result"]["task"]["id"].as_str().unwrap().to_owned();
    let get = |tenant: Option<&str>| {
        let mut params = json!({"id": id});
        if let Some(tenant) = tenant {
            params["tenant"] = json!(tenant);
        }
        json!({"jsonrpc":"2.0","id":2,"method":"GetTask","params":params}).to_string()
    };
    for other in [Some("beta"), None] {
        let (_, _, body) = rpc(server.addr, &get(other)).await;
        assert_eq!(normalized(&body)["error"]["code"], -32001, "{other:?}");
    }
    let (_, _, body) = rpc(server.addr, &get(Some("acme"))).await;
    assert_eq!(
        normalized(&body)["result"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
}

/// A JSON-RPC path is reached with and without its trailing slash, whichever spelling the
/// service was given (issue 29: `rpc_path("/jsonrpc/")` answered only `POST /jsonrpc/`).
#[tokio::test]
async fn the_rpc_path_answers_with_and_without_its_trailing_slash() {
    let agent = agent_fn(|_ctx, sink| async move { sink.complete(None).await.map_err(Into::into) });
    for (mounted, spellings) in [
        ("/jsonrpc/", ["/jsonrpc/", "/jsonrpc"]),
        ("/jsonrpc", ["/jsonrpc", "/jsonrpc/"]),
    ] {
        let service = A2aService::builder(agent.clone(), card())
            .rpc_path(mounted)
            .build();
        let server = start(service).await;
        for path in spellings {
            let request = http::Request::post(path)
                .header("content-type", "application/json")
                .header("a2a-version", "1.0")
                .header("host", "test")
                .body(Full::new(Bytes::from(send_text(1, "SendMessage", "hi"))))
                .unwrap();
            let response = send(server.addr, request).await;
            let status = response.status();
            let body = response.into_body().collect().await.unwrap().to_bytes();
            let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert_eq!(status, StatusCode::OK, "{mounted} {path}: {body}");
            assert_eq!(
                body["result"]["task"]["status"]["state"], "TASK_STATE_COMPLETED",
                "{mounted} {path}"
            );
        }
    }
}
