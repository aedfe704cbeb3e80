//! A multi-turn agent: asks for a city (input-required), then completes with a forecast.
//!
//! ```sh
//! cargo run -p a2a-server --example multi_turn -- 127.0.0.1:7422
//! ```
//! Send a first message; the task comes back `TASK_STATE_INPUT_REQUIRED`. Send a second message
//! with `"taskId"` set to that task's id; it comes back `TASK_STATE_COMPLETED`.

#![expect(clippy::print_stdout, reason = "an example prints where it serves")]

use a2a_server::A2aService;
use a2a_server::agent::{Agent, AgentError, EventSink, RequestContext};
use a2a_types::v1::{AgentCapabilities, AgentCard, Artifact, Part};

/// Asks which city, then answers.
struct Weather;

impl Agent for Weather {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        if ctx.task.is_none() {
            sink.input_required("Which city?").await?;
            return Ok(());
        }
        let city = ctx.text();
        sink.artifact(Artifact::new(
            "forecast",
            vec![Part::text(format!("Sunny in {city}."))],
        ))
        .await?;
        sink.complete(None).await?;
        Ok(())
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:7422".to_owned());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let url = format!("http://{}", listener.local_addr()?);
    let card = AgentCard::new("Weather", "Asks for a city, then forecasts.", "1.0.0")
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"]);
    let service = A2aService::builder(Weather, card).public_url(&url).build();
    println!("A2A multi-turn agent at {url}/");
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    // On Ctrl-C, running agents are told to stop before open streams are drained.
    let config = service.serve_config();
    a2a_server::serve_with_shutdown(listener, service, shutdown, config).await
}
