//! A streaming agent: sends the message's text back as artifact chunks, one word at a time
//! (the `from_stream` style: a function from the request to a `Stream` of events).
//!
//! ```sh
//! cargo run -p a2a-server --example streaming -- 127.0.0.1:7421
//! curl -N http://127.0.0.1:7421/ -H 'A2A-Version: 1.0' -H 'Content-Type: application/json' -d '{
//!   "jsonrpc":"2.0","id":1,"method":"SendStreamingMessage",
//!   "params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"one two three"}]}}}'
//! ```

#![expect(clippy::print_stdout, reason = "an example prints where it serves")]

use std::time::Duration;

use a2a_server::A2aService;
use a2a_server::agent::{AgentEvent, from_stream};
use a2a_types::v1::{AgentCapabilities, AgentCard, Artifact, Part, TaskState};
use futures_util::StreamExt as _;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:7421".to_owned());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let url = format!("http://{}", listener.local_addr()?);
    // The stream style: a function from the request to a stream of events.
    let agent = from_stream(|ctx| {
        // Each word with the space after it, so that the chunks concatenate to the text sent.
        let words: Vec<String> = ctx.text().split_inclusive(' ').map(str::to_owned).collect();
        let count = words.len();
        let chunks = words.into_iter().enumerate().map(move |(i, word)| {
            Ok(AgentEvent::Artifact {
                artifact: Artifact::new("words", vec![Part::text(word)]),
                append: i > 0,
                last_chunk: i + 1 == count,
            })
        });
        let working =
            futures_util::stream::iter([Ok(AgentEvent::status(TaskState::Working, None))]);
        let paced = futures_util::stream::iter(chunks).then(|chunk| async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            chunk
        });
        working
            .chain(paced)
            .chain(futures_util::stream::iter([Ok(AgentEvent::status(
                TaskState::Completed,
                None,
            ))]))
    });
    let card = AgentCard::new(
        "Words",
        "Streams the message back one word at a time.",
        "1.0.0",
    )
    .with_capabilities(AgentCapabilities::default().with_streaming(true))
    .with_default_input_modes(["text/plain"])
    .with_default_output_modes(["text/plain"]);
    let service = A2aService::builder(agent, card).public_url(&url).build();
    println!("A2A streaming agent at {url}/");
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    // On Ctrl-C, running agents are told to stop before open streams are drained.
    let config = service.serve_config();
    a2a_server::serve_with_shutdown(listener, service, shutdown, config).await
}
