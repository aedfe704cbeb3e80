//! Every error kind, retries and timeouts, against a scripted server.

mod common;

use std::time::{Duration, Instant};

use a2a_client::{A2aClient, Error, ErrorCode, RetryPolicy};
use a2a_types::v1::{
    AgentCard, AgentInterface, CancelTaskRequest, GetTaskRequest, Message, SendMessageRequest,
    SubscribeToTaskRequest, TaskPushNotificationConfig, binding,
};
use common::{Scripted, json, result, sse, task_json};
use futures_util::StreamExt as _;
use pretty_assertions::assert_eq;

/// A client for the scripted server's root, without a card fetch.
fn client_for(server: &Scripted, builder: a2a_client::ClientBuilder) -> A2aClient {
    let card = AgentCard::new("S", "d", "1").with_supported_interfaces([AgentInterface::new(
        format!("{}/", server.url()),
        binding::JSONRPC,
        "1.0",
    )]);
    builder.from_card(card).unwrap()
}

fn fast_retries() -> RetryPolicy {
    RetryPolicy::default()
        .with_max_attempts(3)
        .with_initial_backoff(Duration::from_millis(10))
}

#[tokio::test]
async fn rpc_errors_carry_the_object_and_its_kind() {
    let server = Scripted::start(|_, seen| {
        let id = seen.json()["id"].clone();
        Some(json(
            200,
            &serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {
                "code": -32001, "message": "Task not found: t-9",
                "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                          "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org",
                          "metadata": {"taskId": "t-9"}}]}})
            .to_string(),
        ))
    })
    .await;
    let client = client_for(&server, A2aClient::builder());
    let error = client
        .get_task(GetTaskRequest::new("t-9"))
        .await
        .unwrap_err();
    common::assert_t9_not_found(&error, "Task not found: t-9");
    // A JSON-RPC error is an answer: no retry.
    assert_eq!(server.seen().len(), 1);
}

#[tokio::test]
async fn http_errors_carry_status_and_body() {
    let server = Scripted::start(|_, _| Some(json(404, "no such endpoint"))).await;
    let client = client_for(&server, A2aClient::builder());
    let error = client.get_task(GetTaskRequest::new("t")).await.unwrap_err();
    let Error::Http { status, body } = &error else {
        panic!("{error:?}");
    };
    assert_eq!(*status, http::StatusCode::NOT_FOUND);
    assert_eq!(body, "no such endpoint");
    assert_eq!(error.to_string(), "HTTP 404 Not Found: no such endpoint");
}

#[tokio::test]
async fn transport_errors_for_a_closed_port() {
    // Port 1 (tcpmux) has no listener: a released ephemeral port could be handed to a server
    // of a test running in parallel.
    let port = 1;
    let url = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    let error = A2aClient::builder()
        .retry(fast_retries())
        .connect(&url)
        .await
        .unwrap_err();
    assert!(matches!(error, Error::Transport(_)), "{error:?}");
    assert!(error.is_connect());
    let text = error.to_string();
    assert!(
        text.starts_with(&format!("cannot connect to 127.0.0.1:{port}: ")),
        "{text}"
    );
    assert!(!text.contains('\n'));
    // Two retries with short backoff, then the error.
    assert!(started.elapsed() < Duration::from_secs(2));

    // HTTPS goes through the same connector (rustls), to the same refusal.
    let error = A2aClient::builder()
        .retry(RetryPolicy::none())
        .connect(&format!("https://127.0.0.1:{port}"))
        .await
        .unwrap_err();
    assert!(error.is_connect(), "{error:?}");

    // A TLS handshake with a server that does not speak TLS fails as a transport error.
    let plain = Scripted::start(|_, _| Some(json(200, "{}"))).await;
    let error = A2aClient::builder()
        .retry(RetryPolicy::none())
        .connect(&plain.url().replace("http://", "https://"))
        .await
        .unwrap_err();
    assert!(matches!(error, Error::Transport(_)), "{error:?}");
}

#[tokio::test]
async fn decode_errors_name_the_json_path() {
    let server = Scripted::start(|_, seen| {
        Some(result(
            seen,
            serde_json::json!({"id": "t", "status": {"state": "done"}}),
        ))
    })
    .await;
    let client = client_for(&server, A2aClient::builder());
    let error = client.get_task(GetTaskRequest::new("t")).await.unwrap_err();
    let Error::Decode(decode) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(decode.path(), "result.status.state");
    assert!(
        error.to_string().starts_with(
            "cannot decode the answer: result.status.state: unknown enum value `done`"
        ),
        "{error}"
    );

    // Not JSON at all.
    let garbage = Scripted::start(|_, _| Some(json(200, "<html>"))).await;
    let client = client_for(&garbage, A2aClient::builder());
    let error = client.get_task(GetTaskRequest::new("t")).await.unwrap_err();
    assert!(
        matches!(&error, Error::Decode(d) if d.is_syntax()),
        "{error:?}"
    );

    // An answer to another request.
    let wrong_id = Scripted::start(|_, _| {
        Some(json(
            200,
            &serde_json::json!({"jsonrpc": "2.0", "id": 999, "result": task_json("t")}).to_string(),
        ))
    })
    .await;
    let client = client_for(&wrong_id, A2aClient::builder());
    let error = client.get_task(GetTaskRequest::new("t")).await.unwrap_err();
    assert!(matches!(error, Error::Protocol(_)), "{error:?}");
}

#[tokio::test]
async fn sse_errors_end_the_stream() {
    let server = Scripted::start(|_, _| {
        let mut body = Vec::new();
        body.extend_from_slice(
            br#"id: 1
data: {"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}}

"#,
        );
        body.extend_from_slice(b"data: \xff\xfe not utf-8\n\n");
        Some(sse(&body))
    })
    .await;
    let client = client_for(&server, A2aClient::builder());
    let mut stream = client
        .send_streaming_message(SendMessageRequest::new(Message::user_text("x")))
        .await
        .unwrap();
    assert!(stream.next().await.unwrap().is_ok());
    let error = stream.next().await.unwrap().unwrap_err();
    assert!(matches!(error, Error::Sse(_)), "{error:?}");
    assert!(
        error
            .to_string()
            .starts_with("broken event stream: invalid UTF-8")
    );
    assert!(stream.next().await.is_none());
}

#[tokio::test]
async fn errors_inside_a_stream_are_rpc_errors() {
    let server = Scripted::start(|_, _| {
        Some(sse(
            b"event: error\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"boom\"}}\n\n",
        ))
    })
    .await;
    let client = client_for(&server, A2aClient::builder());
    let mut stream = client
        .send_streaming_message(SendMessageRequest::new(Message::user_text("x")))
        .await
        .unwrap();
    let error = stream.next().await.unwrap().unwrap_err();
    assert_eq!(error.code(), Some(ErrorCode::INTERNAL_ERROR));
    assert!(stream.next().await.is_none());
}

#[tokio::test]
async fn errors_before_a_stream_are_json() {
    let server = Scripted::start(|_, seen| {
        let id = seen.json()["id"].clone();
        Some(json(
            200,
            &serde_json::json!({"jsonrpc": "2.0", "id": id,
                "error": {"code": -32004, "message": "Unsupported operation: task t is done"}})
            .to_string(),
        ))
    })
    .await;
    let client = client_for(&server, A2aClient::builder());
    let error = client
        .subscribe_to_task(SubscribeToTaskRequest::new("t"))
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(ErrorCode::UNSUPPORTED_OPERATION));

    // A JSON result where a stream was due is a protocol error.
    let server = Scripted::start(|_, seen| Some(result(seen, task_json("t")))).await;
    let client = client_for(&server, A2aClient::builder());
    let error = client
        .subscribe_to_task(SubscribeToTaskRequest::new("t"))
        .await
        .unwrap_err();
    assert!(matches!(error, Error::Protocol(_)), "{error:?}");
}

#[tokio::test]
async fn timeouts() {
    // The server never answers.
    let server = Scripted::start(|_, _| None).await;
    let client = client_for(
        &server,
        A2aClient::builder()
            .timeout(Duration::from_millis(100))
            .retry(RetryPolicy::none()),
    );
    let started = Instant::now();
    let error = client.get_task(GetTaskRequest::new("t")).await.unwrap_err();
    assert!(matches!(error, Error::Timeout(d) if d == Duration::from_millis(100)));
    assert_eq!(error.to_string(), "timed out after 100 ms");
    assert!(started.elapsed() < Duration::from_secs(2));

    // Idempotent calls are retried after a timeout; SendMessage is not (a slow agent is not
    // a failed one).
    let client = client_for(
        &server,
        A2aClient::builder()
            .timeout(Duration::from_millis(50))
            .retry(fast_retries()),
    );
    let before = server.seen().len();
    assert!(matches!(
        client.get_task(GetTaskRequest::new("t")).await,
        Err(Error::Timeout(_))
    ));
    assert_eq!(server.seen().len() - before, 3);
    let before = server.seen().len();
    assert!(matches!(
        client
            .send_message(SendMessageRequest::new(Message::user_text("x")))
            .await,
        Err(Error::Timeout(_))
    ));
    assert_eq!(server.seen().len() - before, 1);
}

#[tokio::test]
async fn transient_http_errors_are_retried_with_the_same_message_id() {
    let server = Scripted::start(|n, seen| {
        Some(match n {
            0 => json(503, "busy"),
            1 => json(502, "bad gateway"),
            _ => result(seen, serde_json::json!({"task": task_json("t")})),
        })
    })
    .await;
    let client = client_for(&server, A2aClient::builder().retry(fast_retries()));
    client
        .send_message(SendMessageRequest::new(Message::new(
            "",
            a2a_types::v1::Role::Unspecified,
            vec![a2a_types::v1::Part::text("x")],
        )))
        .await
        .unwrap();
    let seen = server.seen();
    assert_eq!(seen.len(), 3);
    let ids: Vec<String> = seen
        .iter()
        .map(|s| {
            s.json()["params"]["message"]["messageId"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert!(!ids[0].is_empty());
    assert!(ids.iter().all(|id| *id == ids[0]), "{ids:?}");
    assert_eq!(seen[0].json()["params"]["message"]["role"], "ROLE_USER");

    // Out of retries: the last error.
    let server = Scripted::start(|_, _| Some(json(503, "busy"))).await;
    let client = client_for(&server, A2aClient::builder().retry(fast_retries()));
    let error = client.get_task(GetTaskRequest::new("t")).await.unwrap_err();
    assert_eq!(
        error.http_status(),
        Some(http::StatusCode::SERVICE_UNAVAILABLE)
    );
    assert_eq!(server.seen().len(), 3);

    // 4xx other than 408 and 429 are not retried; nor is creating a push config on a 503.
    let server = Scripted::start(|_, _| Some(json(400, "bad"))).await;
    let client = client_for(&server, A2aClient::builder().retry(fast_retries()));
    client
        .cancel_task(CancelTaskRequest::new("t"))
        .await
        .unwrap_err();
    assert_eq!(server.seen().len(), 1);
    let server = Scripted::start(|_, _| Some(json(503, "busy"))).await;
    let client = client_for(&server, A2aClient::builder().retry(fast_retries()));
    client
        .create_task_push_notification_config(
            TaskPushNotificationConfig::new("https://h/").with_task_id("t"),
        )
        .await
        .unwrap_err();
    assert_eq!(server.seen().len(), 1);
}

#[tokio::test]
async fn config_errors() {
    let error = A2aClient::connect("ftp://agent.example.com")
        .await
        .unwrap_err();
    assert!(matches!(error, Error::Config(_)));
    assert_eq!(
        error.to_string(),
        "cannot fetch an agent card from `ftp://agent.example.com`: the scheme must be http, \
         https or file"
    );
    let error = A2aClient::connect("./card.json").await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "`./card.json` names a card file (./card.json): read it (a2a_types::card::parse_slice) \
         and build the client with ClientBuilder::from_card"
    );
    let error = A2aClient::connect(" ").await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "no agent: name one by its URL, host:port or card file"
    );
    let card = AgentCard::new("S", "d", "1").with_supported_interfaces([AgentInterface::new(
        "/relative",
        binding::JSONRPC,
        "1.0",
    )]);
    assert!(matches!(A2aClient::from_card(card), Err(Error::Config(_))));
    let error = A2aClient::builder()
        .header("x-key", "bad\nvalue")
        .connect("http://127.0.0.1:1")
        .await
        .unwrap_err();
    assert!(matches!(error, Error::Config(_)));
}
