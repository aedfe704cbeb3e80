//! W3C Trace Context across two of our agents: the caller's trace id reaches the front agent's
//! run, and through the client (inside `a2a_client::trace::scope`) the back agent's run; a
//! request without a `traceparent` (or with an invalid one) starts a trace of its own.

mod common;

use std::sync::{Arc, Mutex};

use a2a_client::A2aClient;
use a2a_server::A2aService;
use a2a_server::agent::{Agent, AgentError, EventSink, RequestContext};
use a2a_types::trace::TraceContext;
use a2a_types::v1::{AgentCard, Message, SendMessageRequest, SendMessageResponse};
use common::{TestServer, start};
use pretty_assertions::assert_eq;

/// The trace contexts of an agent's runs, in order.
type Seen = Arc<Mutex<Vec<Option<TraceContext>>>>;

/// Records the trace of its run, then forwards the message to `next` (if any) in that trace.
struct Link {
    seen: Seen,
    next: Option<A2aClient>,
}

impl Agent for Link {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        self.seen.lock().unwrap().push(ctx.trace().cloned());
        if let (Some(next), Some(trace)) = (&self.next, ctx.trace()) {
            let request = SendMessageRequest::new(Message::user_text(ctx.text()));
            a2a_client::trace::scope(trace.clone(), next.send_message(request)).await?;
        }
        sink.reply("done").await?;
        Ok(())
    }
}

async fn link(next: Option<A2aClient>) -> (TestServer, Seen) {
    let seen = Seen::default();
    let card = AgentCard::new("Link", "A link", "1.0.0")
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"]);
    let agent = Link {
        seen: seen.clone(),
        next,
    };
    // The card's URL is not needed: the client connects to the address.
    let server = start(A2aService::builder(agent, card).build()).await;
    (server, seen)
}

async fn send(client: &A2aClient) {
    let answer = client
        .send_message(SendMessageRequest::new(Message::user_text("hi")))
        .await
        .unwrap();
    assert!(matches!(answer, SendMessageResponse::Message(_)));
}

#[tokio::test]
async fn one_trace_across_two_agents() {
    let (back, back_seen) = link(None).await;
    let to_back = A2aClient::connect(&format!("http://{}", back.addr))
        .await
        .unwrap();
    let (front, front_seen) = link(Some(to_back)).await;
    let client = A2aClient::connect(&format!("http://{}", front.addr))
        .await
        .unwrap();

    let caller = TraceContext::parse(
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        Some("congo=t61rcWkgMzE"),
    )
    .unwrap();
    a2a_client::trace::scope(caller.clone(), send(&client)).await;
    let front_run = front_seen.lock().unwrap()[0].clone().unwrap();
    let back_run = back_seen.lock().unwrap()[0].clone().unwrap();
    assert_eq!(front_run.trace_id_hex(), "0af7651916cd43dd8448eb211c80319c");
    assert_eq!(back_run.trace_id_hex(), "0af7651916cd43dd8448eb211c80319c");
    assert_eq!(back_run.tracestate(), Some("congo=t61rcWkgMzE"));
    assert_eq!(back_run.flags(), 1);
    // Every hop is a span of its own.
    let spans = [
        caller.span_id_hex(),
        front_run.span_id_hex(),
        back_run.span_id_hex(),
    ];
    assert!(
        spans[0] != spans[1] && spans[1] != spans[2] && spans[0] != spans[2],
        "{spans:?}"
    );

    // Without a traceparent, each request is a trace of its own, which the chain still shares.
    send(&client).await;
    send(&client).await;
    let front_runs = front_seen.lock().unwrap().clone();
    let back_runs = back_seen.lock().unwrap().clone();
    let ids = |runs: &[Option<TraceContext>]| -> Vec<String> {
        runs.iter()
            .map(|t| t.as_ref().unwrap().trace_id_hex())
            .collect()
    };
    assert_eq!(ids(&front_runs)[1..], ids(&back_runs)[1..]);
    assert_ne!(ids(&front_runs)[1], ids(&front_runs)[2]);
    assert_ne!(ids(&front_runs)[1], caller.trace_id_hex());
}

#[tokio::test]
async fn an_invalid_traceparent_starts_a_new_trace() {
    let (server, seen) = link(None).await;
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {
        "message": {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "x"}]}}})
    .to_string();
    for parent in [
        "00-00000000000000000000000000000000-b7ad6b7169203331-01",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331",
        "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
    ] {
        let (status, _, answer) = common::rpc_with(
            server.addr,
            &body,
            &[("A2A-Version", "1.0"), ("traceparent", parent)],
        )
        .await;
        assert_eq!(status, 200, "{answer}");
    }
    let runs = seen.lock().unwrap().clone();
    assert_eq!(runs.len(), 3);
    for run in runs {
        let run = run.unwrap();
        assert_ne!(run.trace_id_hex(), "0af7651916cd43dd8448eb211c80319c");
        assert_eq!(run.tracestate(), None);
    }
}
