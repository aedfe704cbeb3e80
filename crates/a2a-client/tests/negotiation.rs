//! Version negotiation (spec §3.6, the A2A CLI specification §13.2): a legacy version only
//! with the caller's consent, the newest version the card offers, and the one retry in 0.3
//! after a `VersionNotSupportedError` from an agent whose card claims 1.0.

mod common;

use std::fmt;
use std::sync::{Arc, Mutex};

use a2a_client::{A2aClient, Error, ErrorCode};
use a2a_types::v1::{GetTaskRequest, Message, SendMessageRequest, SendMessageResponse};
use common::{Scripted, Seen, json};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

/// A JSON-RPC answer to `seen` with this result.
fn result(seen: &Seen, result: Value) -> common::Answer {
    common::result(seen, result)
}

fn error(seen: &Seen, code: i32, message: &str) -> common::Answer {
    let id = seen.json()["id"].clone();
    json(
        200,
        &json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
            .to_string(),
    )
}

/// A 0.3 task, as a 0.3 agent answers `message/send` and `tasks/get`.
fn task_0_3() -> Value {
    json!({"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed"}})
}

/// What the server saw: `GET path` for card fetches, `POST path method` for calls.
fn seen(server: &Scripted) -> Vec<String> {
    server
        .seen()
        .iter()
        .map(|s| match s.method.as_str() {
            "GET" => format!("GET {}", s.path),
            _ => format!(
                "POST {} {} {}",
                s.path,
                s.json()["method"].as_str().unwrap_or("?"),
                s.header("a2a-version").unwrap_or("-")
            ),
        })
        .collect()
}

/// A server whose card is `card` and whose JSON-RPC endpoint answers 0.3 calls, and 1.0 calls
/// with -32009 (as the SDKs' 0.3 servers and a header-less 1.0 server do).
async fn only_0_3(card: Value) -> Scripted {
    Scripted::start(move |_, seen| {
        Some(if seen.method == "GET" {
            let mut card = card.clone();
            let base = format!("http://{}", seen.header("host").unwrap_or("?"));
            let text = card.to_string().replace("{base}", &base);
            card = serde_json::from_str(&text).unwrap();
            json(200, &card.to_string())
        } else {
            match seen.json()["method"].as_str().unwrap_or("") {
                "message/send" | "tasks/get" => result(seen, task_0_3()),
                method => error(
                    seen,
                    -32009,
                    &format!("Version not supported: {method} needs A2A-Version 1.x"),
                ),
            }
        })
    })
    .await
}

/// A 0.3 card, as a 0.3 SDK serves it.
fn card_0_3() -> Value {
    json!({"name": "Old", "description": "A 0.3 agent", "version": "1", "url": "{base}/a2a",
        "protocolVersion": "0.3.0", "preferredTransport": "JSONRPC", "capabilities": {},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": []})
}

/// A 1.0 card that claims JSON-RPC 1.0 at `/a2a`.
fn card_1_0() -> Value {
    json!({"name": "New", "description": "d", "version": "1",
        "supportedInterfaces": [{"url": "{base}/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "capabilities": {}, "defaultInputModes": [], "defaultOutputModes": [], "skills": []})
}

fn hello() -> SendMessageRequest {
    SendMessageRequest::new(Message::user_text("hello"))
}

#[tokio::test]
async fn a_0_3_agent_is_refused_without_consent_and_the_error_names_the_fix() {
    let server = only_0_3(card_0_3()).await;
    let error = A2aClient::connect(&server.url()).await.unwrap_err();
    assert!(matches!(error, Error::LegacyOnly { .. }), "{error:?}");
    assert_eq!(
        error.to_string(),
        format!(
            "the agent card offers A2A 0.3 but no A2A 1.0 interface this client speaks (it \
             offers: JSONRPC 0.3 {}/a2a); versions before 1.0 are used only when allowed: \
             ClientBuilder::allow_legacy(true) or protocol_version(\"0.3\"), `--a2a-version 0.3` \
             with the a2a command",
            server.url()
        )
    );
    // Nothing but the card was asked for.
    assert_eq!(seen(&server), ["GET /.well-known/agent-card.json"]);
}

#[tokio::test]
async fn with_consent_the_0_3_agent_is_called_in_0_3() {
    for builder in [
        A2aClient::builder().allow_legacy(true),
        A2aClient::builder().protocol_version("0.3"),
    ] {
        let server = only_0_3(card_0_3()).await;
        let client = builder.connect(&server.url()).await.unwrap();
        assert_eq!(client.interface().protocol_version, "0.3");
        let SendMessageResponse::Task(task) = client.send_message(hello()).await.unwrap() else {
            panic!("a task");
        };
        assert_eq!(task.id.as_ref(), "t-1");
        assert_eq!(
            seen(&server),
            [
                "GET /.well-known/agent-card.json",
                "POST /a2a message/send 0.3"
            ]
        );
    }
}

/// Records the events of target `a2a_client` (as `LEVEL target: message, fields`).
#[derive(Clone, Default)]
struct Logged(Arc<Mutex<Vec<String>>>);

impl tracing::Subscriber for Logged {
    fn enabled(&self, meta: &tracing::Metadata<'_>) -> bool {
        meta.target().starts_with("a2a_client")
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        struct Text(String);
        impl tracing::field::Visit for Text {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn fmt::Debug) {
                if field.name() == "message" {
                    self.0.insert_str(0, &format!("{value:?}"));
                } else {
                    self.0.push_str(&format!(", {}={value:?}", field.name()));
                }
            }
        }
        let meta = event.metadata();
        let mut text = Text(String::new());
        event.record(&mut text);
        self.0
            .lock()
            .unwrap()
            .push(format!("{} {}: {}", meta.level(), meta.target(), text.0));
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[tokio::test]
async fn a_version_not_supported_from_a_1_0_card_is_retried_once_in_0_3_and_remembered() {
    let logged = Logged::default();
    let _log = tracing::subscriber::set_default(logged.clone());
    let server = only_0_3(card_1_0()).await;
    let client = A2aClient::builder()
        .allow_legacy(true)
        .connect(&server.url())
        .await
        .unwrap();
    assert_eq!(client.interface().protocol_version, "1.0");
    let SendMessageResponse::Task(task) = client.send_message(hello()).await.unwrap() else {
        panic!("a task");
    };
    assert_eq!(task.id.as_ref(), "t-1");
    // A clone shares the choice: 0.3 at once.
    let task = client
        .clone()
        .get_task(GetTaskRequest::new("t-1"))
        .await
        .unwrap();
    assert_eq!(task.id.as_ref(), "t-1");
    assert_eq!(
        seen(&server),
        [
            "GET /.well-known/agent-card.json",
            "POST /a2a SendMessage 1.0",
            "POST /a2a message/send 0.3",
            "POST /a2a tasks/get 0.3",
        ]
    );
    // Said once, at info.
    assert_eq!(
        *logged.0.lock().unwrap(),
        [format!(
            "INFO a2a_client: SendMessage over A2A 1.0 was answered VersionNotSupportedError (the \
             agent answered VersionNotSupportedError (-32009): Version not supported: SendMessage \
             needs A2A-Version 1.x); retrying in A2A 0.3, which this client speaks to the agent \
             from now on, agent=New at {}/a2a",
            server.url()
        )]
    );
}

#[tokio::test]
async fn without_consent_a_version_not_supported_is_the_answer() {
    let server = only_0_3(card_1_0()).await;
    let client = A2aClient::connect(&server.url()).await.unwrap();
    let error = client.send_message(hello()).await.unwrap_err();
    assert_eq!(error.code(), Some(ErrorCode::VERSION_NOT_SUPPORTED));
    assert_eq!(
        error.to_string(),
        "the agent answered VersionNotSupportedError (-32009): Version not supported: \
         SendMessage needs A2A-Version 1.x"
    );
    assert_eq!(
        seen(&server),
        [
            "GET /.well-known/agent-card.json",
            "POST /a2a SendMessage 1.0"
        ]
    );
}

#[tokio::test]
async fn the_fallback_prefers_the_cards_own_0_3_interface() {
    let card = json!({"name": "Both", "description": "d", "version": "1",
        "supportedInterfaces": [
            {"url": "{base}/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": "{base}/legacy", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}],
        "capabilities": {}, "defaultInputModes": [], "defaultOutputModes": [], "skills": []});
    let server = only_0_3(card).await;
    let client = A2aClient::builder()
        .allow_legacy(true)
        .connect(&server.url())
        .await
        .unwrap();
    client.send_message(hello()).await.unwrap();
    assert_eq!(
        seen(&server),
        [
            "GET /.well-known/agent-card.json",
            "POST /a2a SendMessage 1.0",
            "POST /legacy message/send 0.3",
        ]
    );
}

#[tokio::test]
async fn an_exact_version_is_spoken_at_once_even_where_the_card_claims_another() {
    let server = only_0_3(card_1_0()).await;
    let client = A2aClient::builder()
        .protocol_version("0.3")
        .connect(&server.url())
        .await
        .unwrap();
    assert_eq!(client.interface().protocol_version, "0.3");
    client.send_message(hello()).await.unwrap();
    assert_eq!(
        seen(&server),
        [
            "GET /.well-known/agent-card.json",
            "POST /a2a message/send 0.3"
        ]
    );

    let error = A2aClient::builder()
        .protocol_version("2.0")
        .connect(&server.url())
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown A2A protocol version `2.0`; this client speaks 1.1 (draft), 1.0, 0.3, 0.2 and 0.1"
    );
    let error = A2aClient::builder()
        .protocol_version("0.4")
        .connect(&server.url())
        .await
        .unwrap_err();
    assert!(matches!(error, Error::Config(_)), "{error:?}");
}
