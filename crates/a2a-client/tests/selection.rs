//! Which interface `connect` picks (the card's order, the caller's preference, the tenant,
//! nothing fitting), and what a card that cannot be read says.

mod common;

use a2a_client::{A2aClient, Error, RetryPolicy};
use a2a_types::v1::GetTaskRequest;
use common::{Scripted, Seen, answer, json, result, task_json};
use pretty_assertions::assert_eq;

/// A card with these interfaces (`url` may be a path on the scripted server).
fn card(interfaces: serde_json::Value) -> String {
    serde_json::json!({
        "name": "Two ways", "description": "d", "version": "1",
        "supportedInterfaces": interfaces,
        "capabilities": {}, "defaultInputModes": [], "defaultOutputModes": [], "skills": []
    })
    .to_string()
}

/// Serves `card` at the well-known path; answers JSON-RPC at `/rpc` and HTTP+JSON under `/rest`.
async fn agent(card: String) -> Scripted {
    Scripted::start(move |_, seen: &Seen| {
        Some(match seen.path.as_str() {
            "/.well-known/agent-card.json" => json(200, &card),
            "/rpc" => result(seen, task_json("t-1")),
            path if path.starts_with("/rest/") => json(200, &task_json("t-1").to_string()),
            _ => answer(404, None, b""),
        })
    })
    .await
}

/// Connects with `preferred`, calls GetTask, and says where the call went.
async fn call_with(server: &Scripted, preferred: &[&str]) -> String {
    let client = A2aClient::builder()
        .preferred_transports(preferred.iter().copied())
        .connect(&server.url())
        .await
        .unwrap();
    client.get_task(GetTaskRequest::new("t-1")).await.unwrap();
    let seen = server.seen();
    let last = seen.last().unwrap();
    format!(
        "{} {} {} via {}",
        client.interface().protocol_binding,
        last.method,
        last.path,
        client.endpoint()
    )
}

#[tokio::test]
async fn the_cards_order_then_the_callers_preference() {
    let rpc_first = agent(card(serde_json::json!([
        {"url": "/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
        {"url": "/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0", "tenant": "acme"}
    ])))
    .await;
    let base = rpc_first.url();
    assert_eq!(
        call_with(&rpc_first, &[]).await,
        format!("JSONRPC POST /rpc via {base}/rpc")
    );
    assert_eq!(
        call_with(&rpc_first, &["http+json"]).await,
        format!("HTTP+JSON GET /rest/acme/tasks/t-1 via {base}/rest")
    );
    assert_eq!(
        call_with(&rpc_first, &["GRPC", "HTTP+JSON", "JSONRPC"]).await,
        format!("HTTP+JSON GET /rest/acme/tasks/t-1 via {base}/rest")
    );
    // Over JSON-RPC the tenant of the interface (none here) goes into the params.
    let seen = rpc_first.seen();
    let rpc = seen.iter().find(|s| s.path == "/rpc").unwrap();
    assert_eq!(rpc.json()["params"], serde_json::json!({"id": "t-1"}));

    let rest_first = agent(card(serde_json::json!([
        {"url": "/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
        {"url": "/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0", "tenant": "acme"}
    ])))
    .await;
    let base = rest_first.url();
    assert_eq!(
        call_with(&rest_first, &[]).await,
        format!("HTTP+JSON GET /rest/tasks/t-1 via {base}/rest")
    );
    assert_eq!(
        call_with(&rest_first, &["JSONRPC"]).await,
        format!("JSONRPC POST /rpc via {base}/rpc")
    );
    let seen = rest_first.seen();
    assert_eq!(
        seen.last().unwrap().json()["params"],
        serde_json::json!({"tenant": "acme", "id": "t-1"})
    );
    // A preference the card does not offer falls back to the card's order.
    assert_eq!(
        call_with(&rest_first, &["GRPC"]).await,
        format!("HTTP+JSON GET /rest/tasks/t-1 via {base}/rest")
    );
}

#[tokio::test]
async fn versions_the_client_does_not_speak_are_passed_over() {
    let server = agent(card(serde_json::json!([
        {"url": "/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "0.3"},
        {"url": "/grpc", "protocolBinding": "GRPC", "protocolVersion": "1.0"},
        {"url": "/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.1"}
    ])))
    .await;
    let base = server.url();
    assert_eq!(
        call_with(&server, &["HTTP+JSON"]).await,
        format!("JSONRPC POST /rpc via {base}/rpc")
    );

    let server = agent(card(serde_json::json!([
        {"url": "/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "0.3"},
        {"url": "localhost:50051", "protocolBinding": "GRPC", "protocolVersion": "1.0"}
    ])))
    .await;
    let error = A2aClient::builder()
        .preferred_transports(["GRPC"])
        .connect(&server.url())
        .await
        .unwrap_err();
    // HTTP+JSON 0.3 is legacy: used only when the caller allows it.
    let Error::LegacyOnly { offered } = &error else {
        panic!("{error:?}");
    };
    assert_eq!(offered.len(), 2);
    assert_eq!(
        error.to_string(),
        "the agent card offers A2A 0.3 but no A2A 1.0 interface this client speaks (it offers: \
         HTTP+JSON 0.3 /rest, GRPC 1.0 localhost:50051); versions before 1.0 are used only when \
         allowed: ClientBuilder::allow_legacy(true) or protocol_version(\"0.3\"), \
         `--a2a-version 0.3` with the a2a command"
    );
}

#[tokio::test]
async fn a_card_that_names_no_interface() {
    let server = agent(card(serde_json::json!([]))).await;
    let error = A2aClient::connect(&server.url()).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the agent card names no interface (its supportedInterfaces is empty); this client \
         speaks JSONRPC 1.0, HTTP+JSON 1.0"
    );
    // The card itself reads.
    let card = A2aClient::builder()
        .fetch_card(&server.url())
        .await
        .unwrap();
    assert_eq!(card.name, "Two ways");
    assert!(card.supported_interfaces.is_empty());
}

/// Serves `body` as the card and returns what `connect` says of it.
async fn card_error(body: &'static str) -> (String, String) {
    let server = Scripted::start(move |_, _| Some(json(200, body))).await;
    let error = A2aClient::builder()
        .retry(RetryPolicy::default())
        .connect(&server.url())
        .await
        .unwrap_err();
    assert!(matches!(error, Error::Card { .. }), "{error:?}");
    // A bad card is an answer: no retry, no second location.
    assert_eq!(server.seen().len(), 1);
    let url = format!("{}/.well-known/agent-card.json", server.url());
    (error.to_string(), url)
}

#[tokio::test]
async fn bad_cards_say_where_which_version_and_which_field() {
    let (text, url) = card_error(
        r#"{"name":"N","description":"d","version":"1",
            "supportedInterfaces":[{"protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}"#,
    )
    .await;
    assert_eq!(
        text,
        format!(
            "the agent card at {url} is not a valid A2A 1.0 card: \
             supportedInterfaces[0].url: missing field"
        )
    );

    let (text, url) = card_error(
        r#"{"name":"N","description":"d","version":"1","protocolVersion":"0.3.0",
            "capabilities":{},"defaultInputModes":[],"defaultOutputModes":[],"skills":[]}"#,
    )
    .await;
    assert_eq!(
        text,
        format!("the agent card at {url} is not a valid A2A 0.2/0.3 card: url: missing field")
    );

    let (text, url) = card_error(
        r#"{"name":"N","url":"http://h/","version":"1","capabilities":{},"skills":[],
            "authentication":{"schemes":"Bearer"}}"#,
    )
    .await;
    assert_eq!(
        text,
        format!(
            "the agent card at {url} is not a valid A2A 0.1 card: authentication.schemes: \
             invalid type: string \"Bearer\", expected a sequence"
        )
    );

    let (text, url) = card_error("<html><body>It works!</body></html>").await;
    assert_eq!(
        text,
        format!("the agent card at {url} is not JSON: expected value")
    );

    let (text, url) = card_error(r#"["not", "a", "card"]"#).await;
    assert_eq!(
        text,
        format!("the agent card at {url} is not a JSON object but an array")
    );
}
