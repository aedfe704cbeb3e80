//! Choosing the agent at run time: a command-line word picks one of several agent types, held
//! as one `BoxAgent`.
//!
//! ```sh
//! cargo run -p a2a-server --example pick_agent -- upper 127.0.0.1:7424
//! cargo run -p a2a-cli -- send -a 127.0.0.1:7424 "hello"          # HELLO
//! cargo run -p a2a-server --example pick_agent -- count 127.0.0.1:7424
//! cargo run -p a2a-cli -- send -a 127.0.0.1:7424 "one two"        # 2 words
//! ```
//!
//! `Agent` has `async fn`s and cannot be a `dyn` trait object; `BoxAgent` (an
//! `Arc<dyn DynAgent>`) is the boxed form, and is itself an `Agent`.

#![expect(clippy::print_stdout, reason = "an example prints where it serves")]

use a2a_server::A2aService;
use a2a_server::agent::{Agent, AgentError, BoxAgent, EventSink, RequestContext, agent_fn};
use a2a_types::v1::{AgentCapabilities, AgentCard, Artifact, Part};

/// Upper-cases the message text.
struct Upper;

impl Agent for Upper {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        let text = ctx.text().to_uppercase();
        sink.artifact(Artifact::new("upper", vec![Part::text(text)]))
            .await?;
        sink.complete(None).await?;
        Ok(())
    }
}

/// The agents this program can serve, by name.
const AGENTS: [&str; 3] = ["echo", "upper", "count"];

/// The agent a name stands for: three different types, one `BoxAgent`.
fn pick(name: &str) -> Option<BoxAgent> {
    let agent = match name {
        "echo" => BoxAgent::new(agent_fn(|ctx, sink| async move {
            sink.complete(ctx.text()).await?;
            Ok(())
        })),
        "upper" => BoxAgent::new(Upper),
        "count" => BoxAgent::new(agent_fn(|ctx, sink| async move {
            let words = ctx.text().split_whitespace().count();
            sink.complete(format!("{words} words")).await?;
            Ok(())
        })),
        _ => return None,
    };
    Some(agent)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "echo".to_owned());
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:7424".to_owned());
    let Some(agent) = pick(&name) else {
        eprintln!(
            "error: unknown agent `{name}`: choose one of {}",
            AGENTS.join(", ")
        );
        std::process::exit(2);
    };
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let url = format!("http://{}", listener.local_addr()?);
    let card = AgentCard::new(
        &name,
        format!("The `{name}` agent, picked at run time."),
        "1.0.0",
    )
    .with_capabilities(AgentCapabilities::default().with_streaming(true))
    .with_default_input_modes(["text/plain"])
    .with_default_output_modes(["text/plain"]);
    let service = A2aService::builder(agent, card).public_url(&url).build();
    println!("A2A `{name}` agent at {url}/");
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let config = service.serve_config();
    a2a_server::serve_with_shutdown(listener, service, shutdown, config).await
}
