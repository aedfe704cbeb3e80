//! a2a-server with the bench agent, as a separate process for `cargo xtask bench`.
//!
//! ```text
//! a2a-bench-server --addr 127.0.0.1:7431 [--max-tasks 10000] [--max-streams 10000]
//! ```
//!
//! The agent is `examples/echo.rs`'s echo (working, one artifact `echo` with the message text,
//! completed), served by [`a2a_server::serve`] with the default limits and retention, with two
//! additions for the SSE phases: the text `stream N` emits `N` artifact chunks between working
//! and completed, and `hold` keeps the task working until it is cancelled.

use a2a_bench::wire;
use a2a_server::agent::{Agent, AgentError, EventSink, RequestContext};
use a2a_server::store::{InMemoryTaskStore, RetentionPolicy};
use a2a_server::{A2aService, Limits};
use a2a_types::v1::{AgentCapabilities, AgentCard, AgentSkill, Artifact, Part};

struct Bench;

impl Agent for Bench {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        let text = ctx.text();
        if let Some(n) = wire::parse_stream_command(&text) {
            sink.working(None).await?;
            for i in 0..n {
                let chunk =
                    Artifact::new(wire::STREAM_ARTIFACT, vec![Part::text(wire::chunk_text(i))]);
                sink.artifact_chunk(chunk, i > 0, i + 1 == n).await?;
            }
            sink.complete(None).await?;
        } else if text == wire::HOLD {
            sink.working(None).await?;
            ctx.cancelled().await;
        } else {
            // examples/echo.rs, verbatim.
            sink.working(None).await?;
            sink.artifact(Artifact::new("echo", vec![Part::text(text)]).with_name("echo"))
                .await?;
            sink.complete(None).await?;
        }
        Ok(())
    }
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flags = a2a_bench::parse_flags(&args)?;
    let addr: String = a2a_bench::flag(&flags, "addr", "127.0.0.1:7431".to_owned())?;
    let defaults = RetentionPolicy::default();
    let max_tasks = a2a_bench::flag(&flags, "max-tasks", defaults.max_tasks)?;
    let max_streams = a2a_bench::flag(&flags, "max-streams", Limits::default().max_streams)?;
    let listener = tokio::net::TcpListener::bind(&addr)
        .await
        .map_err(|e| format!("bind {addr}: {e}"))?;
    let url = format!(
        "http://{}",
        listener.local_addr().map_err(|e| e.to_string())?
    );
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
    let service = A2aService::builder(Bench, card)
        .public_url(url)
        .store(InMemoryTaskStore::with_retention(
            defaults.with_max_tasks(max_tasks),
        ))
        .limits(Limits::default().with_max_streams(max_streams))
        .build();
    a2a_server::serve(listener, service)
        .await
        .map_err(|e| e.to_string())
}
