//! Mounting the A2A service in an axum application under a prefix, next to other routes.
//!
//! ```sh
//! cargo run -p a2a-server --example axum -- 127.0.0.1:7423
//! curl -s http://127.0.0.1:7423/.well-known/agent-card.json   # the card, at the root
//! cargo run -p a2a-cli -- send -a 127.0.0.1:7423 "hello"      # finds /a2a/ through the card
//! ```
//!
//! Where the card lands: `nest_service("/a2a", service)` strips the prefix, so the service
//! answers its card at `/a2a/.well-known/agent-card.json`. Clients do not look there: they fetch
//! `/.well-known/agent-card.json` at the root of the host (RFC 8615 well-known URIs). So the
//! card route is mounted a second time at the root with `route_service`, on a clone of the same
//! service (clones share everything). `public_url` carries the prefix, so the card's interface
//! URL is `http://HOST/a2a/`, where the JSON-RPC endpoint is.

#![expect(clippy::print_stdout, reason = "an example prints where it serves")]

use a2a_server::A2aService;
use a2a_server::agent::agent_fn;
use a2a_types::v1::{AgentCapabilities, AgentCard};
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
        sink.complete(ctx.text()).await?;
        Ok(())
    });
    let card = AgentCard::new("Echo", "Echo inside axum.", "1.0.0")
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"]);
    // The JSON-RPC endpoint at /a2a/: the card's interface URL says so.
    let a2a = A2aService::builder(agent, card)
        .public_url(format!("{url}/a2a"))
        .build();
    let app = Router::new()
        .route("/health", get(|| async { "ok" }))
        // The card where clients look for it. (`a2a_server::card::LEGACY_AGENT_CARD_PATH`,
        // `/.well-known/agent.json`, can be routed the same way for 0.2-era clients.)
        .route_service(a2a_server::card::AGENT_CARD_PATH, a2a.clone())
        // Everything else of the service under /a2a (the card also at /a2a/.well-known/...).
        .nest_service("/a2a", a2a);
    println!("axum app with an A2A agent at {url}/a2a/ (card: {url}/.well-known/agent-card.json)");
    axum::serve(listener, app).await
}
