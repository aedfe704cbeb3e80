//! The builder's pieces for callers that fetch the card themselves (`from_card_at`) and send
//! plain HTTP with the client's settings (`send_http`), as the `a2a` command does.

mod common;

use std::sync::{Arc, Mutex};

use a2a_client::{A2aClient, CallInfo, Error, Interceptor};
use a2a_types::v1::GetTaskRequest;
use bytes::Bytes;
use common::{Scripted, Seen, answer, json, result, task_json};
use pretty_assertions::assert_eq;

/// Records the calls the interceptors see.
#[derive(Default)]
struct Calls(Mutex<Vec<String>>);

impl Interceptor for Calls {
    fn on_request(&self, call: &CallInfo, request: &mut http::Request<Bytes>) {
        self.0.lock().unwrap().push(format!(
            "{} #{} {} {}",
            call.method,
            call.attempt,
            request.method(),
            request.uri()
        ));
    }
}

#[tokio::test]
async fn a_card_fetched_elsewhere_resolves_its_paths_against_its_url() {
    let server = Scripted::start(|_, seen: &Seen| match seen.path.as_str() {
        "/a2a" => Some(result(seen, task_json("t-1"))),
        _ => Some(answer(404, None, b"")),
    })
    .await;
    let card: a2a_types::v1::AgentCard = serde_json::from_value(serde_json::json!({
        "name": "Relative", "description": "d", "version": "1",
        "supportedInterfaces": [{"url": "/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "capabilities": {}, "defaultInputModes": [], "defaultOutputModes": [], "skills": []
    }))
    .unwrap();
    let card_url = format!("{}/cards/relative.json", server.url());
    let client = A2aClient::builder()
        .from_card_at(card.clone(), &card_url)
        .unwrap();
    assert_eq!(
        client.endpoint().to_string(),
        format!("{}/a2a", server.url())
    );
    client.get_task(GetTaskRequest::new("t-1")).await.unwrap();
    assert_eq!(server.seen().last().unwrap().path, "/a2a");
    // Without the card's URL, a path cannot be reached.
    let error = A2aClient::builder().from_card(card.clone()).unwrap_err();
    assert!(matches!(error, Error::Config(_)), "{error}");
    let error = A2aClient::builder()
        .from_card_at(card, "not a url")
        .unwrap_err();
    assert!(matches!(error, Error::Config(_)), "{error}");
}

#[tokio::test]
async fn plain_http_goes_through_the_interceptors_and_any_status_is_an_answer() {
    let server = Scripted::start(|_, seen: &Seen| {
        Some(match seen.path.as_str() {
            "/token" => json(200, &format!(r#"{{"got":"{}"}}"#, seen.body)),
            _ => json(400, r#"{"error":"invalid_request"}"#),
        })
    })
    .await;
    let calls = Arc::new(Calls::default());
    let builder = A2aClient::builder().interceptor(calls.clone());
    let request = http::Request::post(format!("{}/token", server.url()))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Bytes::from_static(b"grant_type=client_credentials"))
        .unwrap();
    let (head, body) = builder.send_http("OAuth", request).await.unwrap();
    assert_eq!(head.status, 200);
    assert_eq!(&body[..], br#"{"got":"grant_type=client_credentials"}"#);
    let seen = server.seen();
    assert_eq!(
        seen[0].header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    // No A2A header on plain HTTP.
    assert_eq!(seen[0].header("a2a-version"), None);
    let refused = http::Request::get(format!("{}/other", server.url()))
        .body(Bytes::new())
        .unwrap();
    let (head, body) = builder.send_http("OAuth", refused).await.unwrap();
    assert_eq!(
        (head.status.as_u16(), &body[..]),
        (400, &br#"{"error":"invalid_request"}"#[..])
    );
    assert_eq!(
        *calls.0.lock().unwrap(),
        [
            format!("OAuth #0 POST {}/token", server.url()),
            format!("OAuth #0 GET {}/other", server.url()),
        ]
    );
    // Only http(s) URLs.
    let ftp = http::Request::get("ftp://example.com/x")
        .body(Bytes::new())
        .unwrap();
    let error = builder.send_http("OAuth", ftp).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid URL `ftp://example.com/x`: the scheme must be http or https, not ftp"
    );
}

#[tokio::test]
async fn a_bounded_answer_is_read_up_to_its_limit() {
    let server = Scripted::start(|_, seen: &Seen| {
        Some(match seen.path.as_str() {
            "/small" => json(200, "0123456789"),
            _ => json(200, &"x".repeat(4096)),
        })
    })
    .await;
    let builder = A2aClient::builder();
    let get = |path: &str| {
        http::Request::get(format!("{}{path}", server.url()))
            .body(Bytes::new())
            .unwrap()
    };
    let (head, body) = builder
        .send_http_bounded("Download", get("/small"), 10)
        .await
        .unwrap();
    assert_eq!((head.status.as_u16(), &body[..]), (200, &b"0123456789"[..]));
    let error = builder
        .send_http_bounded("Download", get("/large"), 1024)
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "protocol error: the answer's body is larger than 1024 bytes, the most allowed"
    );
}

/// A URL with a path that names no `.json` file: the well-known paths under it first (an agent
/// mounted there), then the URL itself (the card's own URL, as the `a2a` command takes it).
#[tokio::test]
async fn a_url_with_a_path_is_a_mount_or_the_cards_own_url() {
    let server = Scripted::start(|_, seen: &Seen| match seen.path.as_str() {
        "/cards/7" => Some(json(200, &common::card_json("http://127.0.0.1:1/"))),
        _ => Some(answer(404, None, b"")),
    })
    .await;
    let card = A2aClient::builder()
        .fetch_card(&format!("{}/cards/7", server.url()))
        .await
        .unwrap();
    assert_eq!(card.name, "Scripted");
    let paths: Vec<String> = server.seen().iter().map(|s| s.path.clone()).collect();
    assert_eq!(
        paths,
        [
            "/cards/7/.well-known/agent-card.json",
            "/cards/7/.well-known/agent.json",
            "/cards/7",
        ]
    );
}
