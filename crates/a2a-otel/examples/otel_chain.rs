//! Two agents in one trace, exported over OTLP (`docs/tracing.md`): a client calls agent A
//! with a W3C `traceparent`; A forwards the message to agent B through the client, in the trace
//! of its run (`a2a_client::trace::scope`). Every span (the client's, then `a2a.send`,
//! `a2a.request`, `a2a.call` and `a2a.agent` of both agents) goes to the OTLP/HTTP collector
//! at `OTEL_EXPORTER_OTLP_ENDPOINT` (default `http://127.0.0.1:4318`), as one trace whose id
//! the example prints.
//!
//! ```sh
//! docker run --rm -p 4318:4318 -p 16686:16686 jaegertracing/jaeger:latest   # a collector with a UI
//! cargo run -p a2a-otel --example otel_chain
//! # then open http://127.0.0.1:16686 and look the printed trace id up
//! ```
//!
//! Both agents run in this process, so they export through one exporter, as the service
//! `otel_chain`; agents in separate processes (`a2a serve --otlp-endpoint URL`) each export
//! their own spans, and the collector joins them by their ids.

use a2a_client::A2aClient;
use a2a_otel::{Otlp, OtlpConfig};
use a2a_server::A2aService;
use a2a_server::agent::{Agent, AgentError, EventSink, RequestContext};
use a2a_types::trace::TraceContext;
use a2a_types::v1::{AgentCard, Message, SendMessageRequest, SendMessageResponse};
use tracing::Instrument as _;
use tracing_subscriber::layer::SubscriberExt as _;

/// Agent B: completes its task with the message's text, reversed.
struct Back;

impl Agent for Back {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        tracing::info!("reversing");
        sink.complete(ctx.text().chars().rev().collect::<String>())
            .await?;
        Ok(())
    }
}

/// Agent A: asks agent B, in the trace of its run, and completes with B's answer.
struct Front {
    back: A2aClient,
}

impl Agent for Front {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        let trace = ctx
            .trace()
            .cloned()
            .ok_or_else(|| AgentError::new("the server made no trace context"))?;
        let request = SendMessageRequest::new(Message::user_text(ctx.text()));
        let answer = a2a_client::trace::scope(trace, self.back.send_message(request)).await?;
        sink.complete(format!("B says: {}", text(&answer))).await?;
        Ok(())
    }
}

/// The text of an answer: a message's, or a task's status message's.
fn text(answer: &SendMessageResponse) -> String {
    match answer {
        SendMessageResponse::Message(message) => message.text(),
        SendMessageResponse::Task(task) => task
            .status
            .message
            .as_ref()
            .map(Message::text)
            .unwrap_or_default(),
        other => format!("{other:?}"),
    }
}

/// Serves `agent` on 127.0.0.1 (a free port); returns its URL.
async fn start(agent: impl Agent, name: &str) -> std::io::Result<String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}", listener.local_addr()?);
    let card = AgentCard::new(name, "A link of the OTLP chain.", "1.0.0")
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"]);
    let service = A2aService::builder(agent, card).public_url(&url).build();
    tokio::spawn(a2a_server::serve(listener, service));
    Ok(url)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let config = OtlpConfig::from_env("otel_chain")
        .unwrap_or_else(|| OtlpConfig::new("http://127.0.0.1:4318", "otel_chain"));
    eprintln!("exporting to {}", config.traces_url()?);
    let otlp = Otlp::start(&config)?;
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(otlp.layer()))?;

    let back = A2aClient::connect(&start(Back, "B").await?).await?;
    let front = A2aClient::connect(&start(Front { back }, "A").await?).await?;

    // The caller's own span, the root of the trace: a span with `trace_id` and `span_id`
    // fields takes those ids, and the scope sends them on.
    let caller = TraceContext::new_root();
    let span = tracing::info_span!(
        "otel_chain.client",
        trace_id = %caller.trace_id_hex(),
        span_id = %caller.span_id_hex(),
    );
    let request = SendMessageRequest::new(Message::user_text("hello"));
    let answer = a2a_client::trace::scope(caller.clone(), front.send_message(request))
        .instrument(span)
        .await?;
    eprintln!("{}", text(&answer));
    eprintln!("trace {}", caller.trace_id_hex());
    // Export what is left (the agents' spans may end just after the answer).
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    if let Err(err) = otlp.shutdown().await {
        eprintln!("warning: {err} (is a collector listening?)");
    }
    Ok(())
}
