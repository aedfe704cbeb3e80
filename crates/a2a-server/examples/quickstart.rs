//! The README's "Write an agent" program: an agent that streams its answer as an artifact in two
//! chunks, then completes. `tests/readme.rs` keeps the README's copy the same as this file.
//!
//! ```sh
//! cargo run -p a2a-server --example quickstart
//! cargo run -p a2a-cli -- send -a 127.0.0.1:7427 --stream "world"
//! ```

use a2a_server::A2aService;
use a2a_server::agent::{Agent, AgentError, EventSink, RequestContext};
use a2a_types::v1::{AgentCapabilities, AgentCard, Artifact, Part};

/// Greets whatever it is sent, in two chunks of one artifact.
struct Hello;

impl Agent for Hello {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        sink.working("writing the greeting").await?;
        let first = Artifact::new("greeting", vec![Part::text("Hello, ")]);
        sink.artifact_chunk(first, false, false).await?;
        let second = Artifact::new("greeting", vec![Part::text(ctx.text())]);
        sink.artifact_chunk(second, true, true).await?;
        sink.complete(None).await?;
        Ok(())
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:7427").await?;
    let url = format!("http://{}", listener.local_addr()?);
    let card = AgentCard::new("Hello", "Greets whatever it is sent.", "1.0.0")
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"]);
    let service = A2aService::builder(Hello, card).public_url(&url).build();
    eprintln!("serving the Hello agent at {url}");
    a2a_server::serve(listener, service).await
}
