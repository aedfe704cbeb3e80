//! Two agents in one trace (`docs/tracing.md`): a client calls the front agent with a W3C
//! `traceparent`; the front agent forwards the message to the back agent through the client,
//! in the trace of its own run (`a2a_client::trace::scope`); each agent answers with the trace
//! id it runs in. The three trace ids are the same.
//!
//! ```sh
//! cargo run -p a2a-server --example trace_chain
//! ```

use a2a_client::A2aClient;
use a2a_server::A2aService;
use a2a_server::agent::{Agent, AgentError, EventSink, RequestContext};
use a2a_types::trace::TraceContext;
use a2a_types::v1::{AgentCard, Message, SendMessageRequest, SendMessageResponse};

/// Answers with the trace id of its run.
struct Back;

impl Agent for Back {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        let trace = ctx
            .trace()
            .map(TraceContext::trace_id_hex)
            .unwrap_or_default();
        sink.reply(format!("back agent: trace {trace}")).await?;
        Ok(())
    }
}

/// Forwards the message to the back agent in the trace of its run, and answers with both
/// trace ids.
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
        let answer =
            a2a_client::trace::scope(trace.clone(), self.back.send_message(request)).await?;
        let SendMessageResponse::Message(answer) = answer else {
            return Err(AgentError::new("the back agent answered with a task"));
        };
        sink.reply(format!(
            "front agent: trace {}\n{}",
            trace.trace_id_hex(),
            answer.text()
        ))
        .await?;
        Ok(())
    }
}

/// Serves `agent` on 127.0.0.1 (a free port); returns its URL.
async fn start(agent: impl Agent, name: &str) -> std::io::Result<String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}", listener.local_addr()?);
    let card = AgentCard::new(name, "A link of the trace chain.", "1.0.0")
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"]);
    let service = A2aService::builder(agent, card).public_url(&url).build();
    tokio::spawn(a2a_server::serve(listener, service));
    Ok(url)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let back_url = start(Back, "Back").await?;
    let back = A2aClient::connect(&back_url).await?;
    let front_url = start(Front { back }, "Front").await?;

    // The caller's own trace: a new one here (an application would take its current span's).
    let caller = TraceContext::new_root();
    eprintln!("caller: trace {}", caller.trace_id_hex());
    let front = A2aClient::connect(&front_url).await?;
    let request = SendMessageRequest::new(Message::user_text("hello"));
    let answer = a2a_client::trace::scope(caller.clone(), front.send_message(request)).await?;
    let SendMessageResponse::Message(answer) = answer else {
        return Err("the front agent answered with a task".into());
    };
    let text = answer.text();
    eprintln!("{text}");
    let expected = caller.trace_id_hex();
    let carried = text
        .lines()
        .all(|line| line.ends_with(&format!("trace {expected}")));
    if !carried {
        return Err(format!("the trace id {expected} was not carried through the chain").into());
    }
    eprintln!("one trace across both agents");
    Ok(())
}
