//! Mounting the A2A service in an axum application with `nest_service`, next to other routes.
//!
//! ```sh
//! cargo run -p a2a-server --example axum -- 127.0.0.1:7423
//! ```

#![expect(clippy::print_stdout, reason = "an example prints where it serves")]

use a2a_server::A2aService;
use a2a_server::agent::agent_fn;
use a2a_types::v1::{AgentCapabilities, AgentCard, Part};
use axum::Router;
use axum::routing::get;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:7423".to_owned());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let url = format!("http://{}", listener.local_addr()?);
    let agent = agent_fn(|ctx, sink| async move {
        sink.complete(Some(sink.message(vec![Part::text(ctx.text())])))
            .await?;
        Ok(())
    });
    let card = AgentCard::new("Echo", "Echo inside axum.", "1.0.0")
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"]);
    // The JSON-RPC endpoint at /a2a; the card must also be reachable at the root.
    let a2a = A2aService::builder(agent, card)
        .public_url(format!("{url}/a2a"))
        .build();
    let app = Router::new()
        .route("/health", get(|| async { "ok" }))
        .route_service(a2a_server::AGENT_CARD_PATH, a2a.clone())
        .nest_service("/a2a", a2a);
    println!("axum app with an A2A agent at {url}/a2a");
    axum::serve(listener, app).await
}
