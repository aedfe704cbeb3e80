//! The agent the interop suite (`tests/interop`, `docs/interop.md`) drives with the official
//! Python and JS SDK clients, over every binding: JSON-RPC and HTTP+JSON (with their 0.3
//! versions) and gRPC, all on one port ([`SharedPort`]; the card lists the gRPC interface
//! at `host:port`). It serves the A2A 1.1 draft too (`Versions::with_v1_1`), so the matrix
//! also checks that 1.0 clients are not disturbed by it. Its first word picks the behaviour:
//!
//! | message text | what the agent does |
//! |---|---|
//! | `hello ...` | answers with a direct message `hi!` (no task) |
//! | `ask` | asks `Which city?` (`TASK_STATE_INPUT_REQUIRED`); the follow-up completes with an artifact `Sunny in <text>.` |
//! | `wait` | works until the task is canceled |
//! | `slow <ms>` | works for `<ms>` milliseconds (default 500), then completes with an artifact `done` |
//! | `parts ...` | completes with an artifact `parts` holding every part of the message, as sent |
//! | `fail` | works, then fails (the agent returns an error): `TASK_STATE_FAILED` |
//! | `chunks <n>` | streams an artifact `chunks` in `<n>` chunks `c0`, `c1`, ... (30 ms apart), then completes |
//! | anything else | completes with an artifact `echo` holding the text |
//!
//! ```sh
//! cargo run -p a2a-grpc --example interop_agent -- 127.0.0.1:0
//! ```
//! The first line on stdout names the URL it serves at.

#![expect(clippy::print_stdout, reason = "an example prints where it serves")]

use std::io::Write as _;
use std::time::Duration;

use a2a_grpc::server::{GrpcInterface as _, SharedPort};
use a2a_server::agent::{Agent, AgentError, EventSink, RequestContext};
use a2a_server::card::{InterfaceUrl, Versions};
use a2a_server::{A2aService, HandlerConfig};
use a2a_types::v1::{AgentCapabilities, AgentCard, AgentSkill, Artifact, Part};

/// The interop agent: one behaviour per command word.
struct Interop;

impl Agent for Interop {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        let text = ctx.text();
        if ctx.task.is_some() {
            // A follow-up to `ask`.
            sink.working(None).await?;
            sink.artifact(
                Artifact::new("forecast", vec![Part::text(format!("Sunny in {text}."))])
                    .with_name("forecast"),
            )
            .await?;
            sink.complete(None).await?;
            return Ok(());
        }
        let (command, arg) = text.split_once(' ').unwrap_or((text.as_str(), ""));
        match command {
            "hello" => sink.reply("hi!").await?,
            "ask" => sink.input_required("Which city?").await?,
            "wait" => {
                sink.working(None).await?;
                // Until canceled; a safety net ends it after a minute.
                tokio::select! {
                    () = ctx.cancelled() => {}
                    () = tokio::time::sleep(Duration::from_secs(60)) => sink.complete(None).await?,
                }
            }
            "slow" => {
                let ms = arg.trim().parse().unwrap_or(500);
                sink.working(None).await?;
                tokio::select! {
                    () = ctx.cancelled() => return Ok(()),
                    () = tokio::time::sleep(Duration::from_millis(ms)) => {}
                }
                sink.artifact(
                    Artifact::new("result", vec![Part::text("done")]).with_name("result"),
                )
                .await?;
                sink.complete(None).await?;
            }
            "parts" => {
                sink.working(None).await?;
                sink.artifact(Artifact::new("parts", ctx.message.parts.clone()).with_name("parts"))
                    .await?;
                sink.complete(None).await?;
            }
            "fail" => {
                sink.working(None).await?;
                return Err(AgentError::new("the agent failed on purpose"));
            }
            "chunks" => {
                let n: usize = arg.trim().parse().unwrap_or(3);
                sink.working(None).await?;
                for i in 0..n {
                    tokio::time::sleep(Duration::from_millis(30)).await;
                    let chunk = Artifact::new("chunks", vec![Part::text(format!("c{i}"))])
                        .with_name("chunks");
                    sink.artifact_chunk(chunk, i > 0, i + 1 == n).await?;
                }
                sink.complete(None).await?;
            }
            _ => {
                sink.working(None).await?;
                sink.artifact(
                    Artifact::new("echo", vec![Part::text(text.clone())]).with_name("echo"),
                )
                .await?;
                sink.complete(None).await?;
            }
        }
        Ok(())
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:7430".to_owned());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let url = format!("http://{}", listener.local_addr()?);
    let card = AgentCard::new(
        "Interop",
        "The agent the interop suite drives: echo, direct replies, input-required, chunks, cancel.",
        "1.0.0",
    )
    .with_capabilities(AgentCapabilities::default().with_streaming(true))
    // Parts with another media type are refused with ContentTypeNotSupportedError (-32005).
    .with_default_input_modes([
        "text/plain",
        "application/json",
        "image/png",
        "application/pdf",
    ])
    .with_default_output_modes(["text/plain"])
    .with_skills([AgentSkill::new(
        "interop",
        "Interop",
        "Behaves as its first word says: hello, ask, wait, slow, chunks, parts, fail, or echo.",
        ["interop"],
    )]);
    let service = A2aService::builder(Interop, card)
        .public_url(&url)
        .grpc_interface(InterfaceUrl::Authority)
        // The A2A 1.1 draft on too: the SDKs' 1.0 clients must not notice it (its interfaces
        // come after the 1.0 ones; a 1.0 call gets 1.0's bytes).
        .versions(Versions::default().with_v1_1())
        .handler_config(HandlerConfig::default().with_cancel_grace(Duration::from_millis(500)))
        .build();
    println!("A2A interop agent at {url}/ (card: {url}/.well-known/agent-card.json)");
    std::io::stdout().flush()?;
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    // On Ctrl-C, running agents are told to stop before open streams are drained.
    let config = service.serve_config();
    a2a_server::serve_with_shutdown(listener, SharedPort::new(service), shutdown, config).await
}
