//! Serving and shutting down; the extended card.

mod common;

use std::time::Duration;

use a2a_server::agent::agent_fn;
use a2a_server::{A2aService, ServeConfig};
use a2a_types::v1::{AgentCapabilities, AgentCard};
use common::{Events, rpc, rpc_request, send};
use pretty_assertions::assert_eq;

fn card(extended: bool) -> AgentCard {
    AgentCard::new("T", "t", "1")
        .with_capabilities(
            AgentCapabilities::default()
                .with_streaming(true)
                .with_extended_agent_card(extended),
        )
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"])
}

fn waiting_agent() -> impl a2a_server::Agent {
    agent_fn(|ctx, sink| async move {
        sink.working(None).await?;
        ctx.cancelled().await;
        Ok(())
    })
}

#[tokio::test]
async fn extended_card_configured_or_not() {
    let server = common::start(A2aService::builder(waiting_agent(), card(true)).build()).await;
    let (_, _, body) = rpc(
        server.addr,
        r#"{"jsonrpc":"2.0","id":1,"method":"GetExtendedAgentCard","params":{}}"#,
    )
    .await;
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["error"]["code"], -32007);
    assert_eq!(
        v["error"]["data"][0]["reason"],
        "EXTENDED_AGENT_CARD_NOT_CONFIGURED"
    );

    let extended = card(true).with_documentation_url("https://example.com/private");
    let server = common::start(
        A2aService::builder(waiting_agent(), card(true))
            .extended_card(extended)
            .build(),
    )
    .await;
    let (_, _, body) = rpc(
        server.addr,
        r#"{"jsonrpc":"2.0","id":1,"method":"GetExtendedAgentCard"}"#,
    )
    .await;
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        v["result"]["documentationUrl"],
        "https://example.com/private"
    );
}

#[tokio::test]
async fn streaming_off_refuses_the_streaming_methods() {
    let card = card(false).with_capabilities(AgentCapabilities::default());
    let server = common::start(A2aService::builder(waiting_agent(), card).build()).await;
    let (_, _, body) = rpc(
        server.addr,
        r#"{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]}}}"#,
    )
    .await;
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["error"]["code"], -32004);
    assert_eq!(
        v["error"]["message"],
        "streaming is not supported by this agent (capabilities.streaming is not true)"
    );
}

#[tokio::test]
async fn graceful_shutdown_stops_accepting_and_closes_streams_after_the_deadline() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let service = A2aService::builder(waiting_agent(), card(false)).build();
    let handler = service.handler().clone();
    let server = tokio::spawn(a2a_server::serve_with_shutdown(
        listener,
        service,
        async move {
            let _ = stopped.await;
        },
        ServeConfig::default()
            .with_shutdown_deadline(Duration::from_millis(300))
            .on_shutdown(move || handler.shutdown()),
    ));
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]}}}"#;
    let mut events = Events::new(send(addr, rpc_request(body, &[("A2A-Version", "1.0")])).await);
    events.next().await.unwrap();
    events.next().await.unwrap();
    stop.send(()).unwrap();
    // Shutdown asks running agents to stop: the waiting agent ends, its task is canceled,
    // and the stream delivers that final event before it closes.
    let (_, last) = tokio::time::timeout(Duration::from_secs(5), events.next())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        last["result"]["statusUpdate"]["status"]["state"],
        "TASK_STATE_CANCELED"
    );
    tokio::time::timeout(Duration::from_secs(5), server)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert!(
        tokio::net::TcpStream::connect(addr).await.is_err(),
        "the listener is closed"
    );
}

#[tokio::test]
async fn http2_with_prior_knowledge_is_served_too() {
    use http_body_util::BodyExt as _;
    let server = common::start(A2aService::builder(waiting_agent(), card(false)).build()).await;
    let stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let (mut sender, conn) = hyper::client::conn::http2::handshake(
        hyper_util::rt::TokioExecutor::new(),
        hyper_util::rt::TokioIo::new(stream),
    )
    .await
    .unwrap();
    tokio::spawn(async move {
        let _ = conn.await;
    });
    let request = http::Request::get("http://t/.well-known/agent-card.json")
        .body(http_body_util::Full::new(bytes::Bytes::new()))
        .unwrap();
    let response = sender.send_request(request).await.unwrap();
    assert_eq!(response.version(), http::Version::HTTP_2);
    assert_eq!(response.status(), http::StatusCode::OK);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let card: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(card["name"], "T");
}
