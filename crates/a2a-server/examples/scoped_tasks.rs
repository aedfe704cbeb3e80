//! Tasks scoped by caller: an `ApiKeyAuthenticator` names each caller from its API key, so every
//! task belongs to the caller that created it. Another caller gets `TaskNotFoundError` for it,
//! and `ListTasks` lists each caller's own tasks only.
//!
//! Without an authenticator every request is anonymous, and tasks are scoped by tenant alone:
//! on a server that many clients share, `ListTasks` would list every client's tasks.
//!
//! ```sh
//! cargo run -p a2a-server --example scoped_tasks                       # alice and bob, in process
//! cargo run -p a2a-server --example scoped_tasks -- serve 127.0.0.1:7428
//! curl -s http://127.0.0.1:7428/tasks -H 'x-api-key: alice-key' -H 'A2A-Version: 1.0'
//! ```
//!
//! Run without arguments, it sends requests to the service in process (no socket): alice starts
//! a task, then alice and bob each list their tasks and ask for alice's task.

#![expect(
    clippy::print_stdout,
    reason = "an example prints what the callers see"
)]

use a2a_server::A2aService;
use a2a_server::agent::{Agent, AgentError, EventSink, RequestContext};
use a2a_server::auth::{ApiKeyAuthenticator, ApiKeyLocation, Principal};
use a2a_types::v1::{
    AgentCapabilities, AgentCard, ApiKeySecurityScheme, Artifact, Part, SecurityScheme,
};
use http_body_util::{BodyExt as _, Full};
use serde_json::{Value, json};

/// The API keys this server knows, and whom each names: the ready-made authenticator of the
/// card's API key scheme (401 without a key or with an unknown one, keys compared in constant
/// time).
fn api_keys(card: &AgentCard) -> ApiKeyAuthenticator {
    let scheme = match card.security_schemes.get("apiKey") {
        Some(SecurityScheme::ApiKey(scheme)) => scheme.clone(),
        _ => ApiKeySecurityScheme::new("header", "x-api-key"),
    };
    ApiKeyAuthenticator::for_scheme(&scheme)
        .unwrap_or_else(|_| ApiKeyAuthenticator::new(ApiKeyLocation::Header, "x-api-key"))
        .key("alice-key", Principal::new("alice"))
        .key("bob-key", Principal::new("bob"))
}

/// Tells the caller who it is.
struct WhoAmI;

impl Agent for WhoAmI {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        let caller = ctx.principal.as_ref().map_or("nobody", Principal::id);
        let text = format!("{caller} said: {}", ctx.text());
        sink.artifact(Artifact::new("reply", vec![Part::text(text)]))
            .await?;
        sink.complete(None).await?;
        Ok(())
    }
}

fn service() -> A2aService {
    let card = AgentCard::new(
        "Scoped",
        "Keeps each caller's tasks to that caller.",
        "1.0.0",
    )
    .with_capabilities(AgentCapabilities::default().with_streaming(true))
    .with_default_input_modes(["text/plain"])
    .with_default_output_modes(["text/plain"])
    .with_security_scheme("apiKey", ApiKeySecurityScheme::new("header", "x-api-key"));
    let keys = api_keys(&card);
    A2aService::builder(WhoAmI, card)
        .authenticator(keys)
        .build()
}

/// One JSON-RPC call as `key`'s owner, answered by the service in process.
async fn call(service: &A2aService, key: &str, method: &str, params: Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let request = http::Request::post("/")
        .header("x-api-key", key)
        .header("a2a-version", "1.0")
        .header("content-type", "application/json")
        .body(Full::new(bytes::Bytes::from(body.to_string())))
        .expect("a valid request");
    let response = service.handle(request).await;
    let bytes = match response.into_body().collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(never) => match never {},
    };
    serde_json::from_slice(&bytes).expect("the service answers JSON")
}

async fn demo(service: &A2aService) {
    let sent = call(
        service,
        "alice-key",
        "SendMessage",
        json!({"message": {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "hello"}]}}),
    )
    .await;
    let task = sent["result"]["task"]["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    println!("alice started task {task}");
    for (who, key) in [("alice", "alice-key"), ("bob", "bob-key")] {
        let list = call(service, key, "ListTasks", json!({})).await;
        let ids: Vec<&str> = list["result"]["tasks"]
            .as_array()
            .map(|tasks| tasks.iter().filter_map(|t| t["id"].as_str()).collect())
            .unwrap_or_default();
        println!("{who} lists {} task(s): {ids:?}", ids.len());
        let got = call(service, key, "GetTask", json!({"id": task})).await;
        match got.get("error") {
            Some(error) => println!(
                "{who} asks for it: error {} {}",
                error["code"], error["message"]
            ),
            None => println!("{who} asks for it: {}", got["result"]["status"]["state"]),
        }
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let service = service();
    let mut args = std::env::args().skip(1);
    if args.next().as_deref() != Some("serve") {
        demo(&service).await;
        return Ok(());
    }
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:7428".to_owned());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!(
        "A2A agent with per-caller tasks at http://{}/",
        listener.local_addr()?
    );
    println!("API keys (header x-api-key): alice-key, bob-key");
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let config = service.serve_config();
    a2a_server::serve_with_shutdown(listener, service, shutdown, config).await
}
