//! The echo agent: completes every task with an artifact that echoes the message's text.
//!
//! ```sh
//! cargo run -p a2a-server --example echo -- 127.0.0.1:7426
//! curl -s http://127.0.0.1:7426/ -H 'A2A-Version: 1.0' -H 'Content-Type: application/json' -d '{
//!   "jsonrpc":"2.0","id":1,"method":"SendMessage",
//!   "params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hello"}]}}}'
//! ```

#![expect(clippy::print_stdout, reason = "an example prints where it serves")]

use a2a_server::A2aService;
use a2a_server::agent::{Agent, AgentError, EventSink, RequestContext};
use a2a_types::v1::{AgentCapabilities, AgentCard, AgentSkill, Artifact, Part};

/// Echoes the text of each message back as an artifact.
struct Echo;

impl Agent for Echo {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        sink.working(None).await?;
        sink.artifact(Artifact::new("echo", vec![Part::text(ctx.text())]).with_name("echo"))
            .await?;
        sink.complete(None).await?;
        Ok(())
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:7426".to_owned());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let url = format!("http://{}", listener.local_addr()?);
    let card = AgentCard::new(
        "Echo",
        "Echoes the text of every message as an artifact.",
        "1.0.0",
    )
    .with_capabilities(AgentCapabilities::default().with_streaming(true))
    .with_default_input_modes(["text/plain"])
    .with_default_output_modes(["text/plain"])
    .with_skills([AgentSkill::new(
        "echo",
        "Echo",
        "Repeats the message text.",
        ["echo"],
    )]);
    let service = A2aService::builder(Echo, card).public_url(&url).build();
    println!("A2A echo agent at {url}/ (card: {url}/.well-known/agent-card.json)");
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    // On Ctrl-C, running agents are told to stop before open streams are drained.
    let config = service.serve_config();
    a2a_server::serve_with_shutdown(listener, service, shutdown, config).await
}
