//! OTLP export end to end: an in-process OTLP/HTTP collector (hyper, 127.0.0.1:0) receives the
//! spans of a chain client -> agent A -> agent B, and they are one trace with the parent links
//! of the `traceparent` headers; and the exporter's queue bound drops what does not fit.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_client::A2aClient;
use a2a_otel::{Otlp, OtlpConfig};
use a2a_server::A2aService;
use a2a_server::agent::{Agent, AgentError, EventSink, RequestContext};
use a2a_types::trace::TraceContext;
use a2a_types::v1::{AgentCard, Message, SendMessageRequest, SendMessageResponse};
use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value;
use opentelemetry_proto::tonic::trace::v1::Span;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use prost::Message as _;
use tokio::sync::{Semaphore, mpsc};
use tracing::Instrument as _;
use tracing_subscriber::layer::SubscriberExt as _;

/// What the in-process collector received.
struct Collector {
    url: String,
    /// The spans of every export request, with the `service.name` of their resource.
    spans: Arc<Mutex<Vec<(String, Span)>>>,
    /// One message per export request, when it arrives (before the gate).
    arrived: mpsc::UnboundedReceiver<()>,
}

/// An OTLP/HTTP collector on 127.0.0.1: decodes each `POST /v1/traces` body as an
/// `ExportTraceServiceRequest`; with a `gate`, answers only once it gets a permit.
async fn collector(gate: Option<Arc<Semaphore>>) -> Collector {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let spans = Arc::new(Mutex::new(Vec::new()));
    let (tx, arrived) = mpsc::unbounded_channel();
    let kept = spans.clone();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let (spans, tx, gate) = (kept.clone(), tx.clone(), gate.clone());
            let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
                let (spans, tx, gate) = (spans.clone(), tx.clone(), gate.clone());
                async move {
                    assert_eq!(request.uri().path(), "/v1/traces");
                    assert_eq!(request.headers()["content-type"], "application/x-protobuf");
                    let body = request.into_body().collect().await.unwrap().to_bytes();
                    let export = ExportTraceServiceRequest::decode(body).unwrap();
                    let _ = tx.send(());
                    if let Some(gate) = gate {
                        gate.acquire().await.unwrap().forget();
                    }
                    for resource in export.resource_spans {
                        let service = resource
                            .resource
                            .iter()
                            .flat_map(|r| &r.attributes)
                            .find(|kv| kv.key == "service.name")
                            .map(|kv| text(kv.value.as_ref().and_then(|v| v.value.as_ref())))
                            .unwrap_or_default();
                        for scope in resource.scope_spans {
                            for span in scope.spans {
                                spans.lock().unwrap().push((service.clone(), span));
                            }
                        }
                    }
                    Ok::<_, Infallible>(
                        hyper::Response::builder()
                            .header("content-type", "application/x-protobuf")
                            .body(Full::new(Bytes::new()))
                            .unwrap(),
                    )
                }
            });
            tokio::spawn(
                hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service),
            );
        }
    });
    Collector {
        url,
        spans,
        arrived,
    }
}

fn text(value: Option<&Value>) -> String {
    match value {
        Some(Value::StringValue(text)) => text.clone(),
        Some(Value::IntValue(n)) => n.to_string(),
        Some(Value::BoolValue(b)) => b.to_string(),
        other => format!("{other:?}"),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A span's attributes as text, by key.
fn attributes(span: &Span) -> HashMap<String, String> {
    span.attributes
        .iter()
        .map(|kv| {
            (
                kv.key.clone(),
                text(kv.value.as_ref().and_then(|v| v.value.as_ref())),
            )
        })
        .collect()
}

/// The text of an answer: a message's, or a task's status message's.
fn answer_text(answer: &SendMessageResponse) -> String {
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

/// Agent B: completes its task with `pong`.
struct Back;

impl Agent for Back {
    async fn execute(&self, _ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        sink.complete("pong").await?;
        Ok(())
    }
}

/// Agent A: asks agent B in the trace of its run, in context `ctx-back`, and completes its
/// task with B's answer.
struct Front {
    back: A2aClient,
}

impl Agent for Front {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        let trace = ctx
            .trace()
            .cloned()
            .ok_or_else(|| AgentError::new("no trace context"))?;
        let mut message = Message::user_text(ctx.text());
        message.context_id = Some("ctx-back".into());
        let answer = a2a_client::trace::scope(
            trace,
            self.back.send_message(SendMessageRequest::new(message)),
        )
        .await?;
        sink.complete(answer_text(&answer)).await?;
        Ok(())
    }
}

async fn start(agent: impl Agent, name: &str) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let card = AgentCard::new(name, "A link of the chain.", "1.0.0")
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"]);
    let service = A2aService::builder(agent, card).public_url(&url).build();
    tokio::spawn(a2a_server::serve(listener, service));
    url
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chain_of_two_agents_is_one_trace_with_the_parents_of_its_traceparents() {
    let mut collector = collector(None).await;
    let otlp = Otlp::start(
        &OtlpConfig::new(&collector.url, "chain-test")
            .with_scheduled_delay(Duration::from_secs(3600)),
    )
    .unwrap();
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(otlp.layer()))
        .unwrap();

    let back = A2aClient::connect(&start(Back, "B").await).await.unwrap();
    let front_url = start(Front { back }, "A").await;
    let front = A2aClient::connect(&front_url).await.unwrap();

    // The first client's own span: the root of the trace, of the ids of its scope.
    let root = TraceContext::new_root();
    let client_span = tracing::info_span!(
        "test.client",
        trace_id = %root.trace_id_hex(),
        span_id = %root.span_id_hex(),
    );
    let mut message = Message::user_text("ping");
    message.context_id = Some("ctx-front".into());
    let answer = a2a_client::trace::scope(
        root.clone(),
        front.send_message(SendMessageRequest::new(message)),
    )
    .instrument(client_span)
    .await
    .unwrap();
    assert_eq!(answer_text(&answer), "pong");

    // The agents' spans end when their runs do, maybe after the answer: flush until all eleven
    // (the root, two sends, two requests, two calls, two runs, and two card fetches) are in.
    for _ in 0..400 {
        otlp.flush().await.unwrap();
        if collector.spans.lock().unwrap().len() >= 11 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(collector.arrived.try_recv().is_ok());
    let (spans, others): (Vec<Span>, Vec<Span>) = {
        let received = collector.spans.lock().unwrap();
        assert!(received.iter().all(|(service, _)| service == "chain-test"));
        received
            .iter()
            .map(|(_, span)| span.clone())
            .partition(|span| hex(&span.trace_id) == root.trace_id_hex())
    };
    // Outside the trace: the two card fetches of `A2aClient::connect` (made outside any
    // scope: each a trace of its own, of the serving agent's request span alone).
    assert_eq!(others.len(), 2, "{others:?}");
    for other in &others {
        assert_eq!(other.name, "a2a.request");
        assert!(other.parent_span_id.is_empty());
        assert_eq!(attributes(other)["path"], "/.well-known/agent-card.json");
    }
    assert_ne!(others[0].trace_id, others[1].trace_id);
    let mut names: Vec<&str> = spans.iter().map(|s| s.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "a2a.agent",
            "a2a.agent",
            "a2a.call",
            "a2a.call",
            "a2a.request",
            "a2a.request",
            "a2a.send",
            "a2a.send",
            "test.client"
        ]
    );
    // One trace: the one the first client sent.
    for span in &spans {
        assert_eq!(hex(&span.trace_id), root.trace_id_hex(), "{}", span.name);
    }
    let by_id: HashMap<String, &Span> = spans.iter().map(|s| (hex(&s.span_id), s)).collect();
    assert_eq!(by_id.len(), 9, "span ids are unique");
    let parent = |span: &Span| by_id.get(&hex(&span.parent_span_id)).copied();
    let children = |of: &Span, name: &str| -> Vec<&Span> {
        spans
            .iter()
            .filter(|s| s.name == name && s.parent_span_id == of.span_id)
            .collect()
    };
    let one = |of: &Span, name: &str| -> Span {
        let found = children(of, name);
        assert_eq!(found.len(), 1, "one {name} under {}", of.name);
        found[0].clone()
    };

    let client = spans.iter().find(|s| s.name == "test.client").unwrap();
    assert_eq!(hex(&client.span_id), root.span_id_hex());
    assert!(client.parent_span_id.is_empty(), "the root has no parent");

    // client -> A: the client's send span is the parent of A's request span.
    let send_a = one(client, "a2a.send");
    assert_eq!(send_a.kind, SpanKind::Client as i32);
    let request_a = one(&send_a, "a2a.request");
    assert_eq!(request_a.kind, SpanKind::Server as i32);
    let call_a = one(&request_a, "a2a.call");
    let agent_a = one(&call_a, "a2a.agent");
    // A -> B: A's outgoing send span (in its run) is the parent of B's request span.
    let send_b = one(&agent_a, "a2a.send");
    let request_b = one(&send_b, "a2a.request");
    let call_b = one(&request_b, "a2a.call");
    let agent_b = one(&call_b, "a2a.agent");
    assert!(children(&agent_b, "a2a.send").is_empty());
    assert_eq!(parent(&request_b).unwrap().name, "a2a.send");

    // The A2A attributes.
    let attrs = attributes(&send_a);
    assert_eq!(attrs["a2a.method"], "SendMessage");
    assert_eq!(attrs["http.request.method"], "POST");
    assert_eq!(attrs["server.address"], "127.0.0.1");
    assert_eq!(attrs["url.path"], "/");
    assert!(!attrs.contains_key("trace_id") && !attrs.contains_key("span_id"));
    let attrs = attributes(&request_a);
    assert_eq!(attrs["method"], "POST");
    assert_eq!(attrs["path"], "/");
    for (call, agent, context) in [
        (&call_a, &agent_a, "ctx-front"),
        (&call_b, &agent_b, "ctx-back"),
    ] {
        let call = attributes(call);
        let agent = attributes(agent);
        assert_eq!(call["a2a.method"], "SendMessage");
        assert_eq!(call["a2a.context_id"], context);
        assert_eq!(agent["a2a.context_id"], context);
        assert!(!call["a2a.task_id"].is_empty());
        assert_eq!(agent["a2a.task_id"], call["a2a.task_id"]);
        assert_eq!(
            agent.get("a2a.state").map(String::as_str),
            Some("Completed"),
            "{agent:?}"
        );
    }
    assert_ne!(
        attributes(&call_a)["a2a.task_id"],
        attributes(&call_b)["a2a.task_id"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spans_past_the_queue_bound_are_dropped() {
    // The collector holds the first export until it is let go: the exporter is busy, and the
    // queue (2 spans) fills.
    let gate = Arc::new(Semaphore::new(0));
    let mut collector = collector(Some(gate.clone())).await;
    let otlp = Otlp::start(
        &OtlpConfig::new(format!("{}/v1/traces", collector.url), "bound-test")
            .with_max_queue_size(2)
            .with_max_export_batch_size(2)
            .with_scheduled_delay(Duration::from_secs(3600)),
    )
    .unwrap();
    let subscriber = tracing_subscriber::registry().with(otlp.layer());
    let _default = tracing::subscriber::set_default(subscriber);
    let span = |n: usize| drop(tracing::info_span!("bounded", n));
    span(0);
    span(1); // a full batch: the export starts, and waits at the collector
    collector.arrived.recv().await.unwrap();
    for n in 2..7 {
        span(n); // 2 and 3 are queued; 4, 5 and 6 do not fit
    }
    gate.add_permits(10);
    otlp.flush().await.unwrap();
    let mut exported: Vec<String> = collector
        .spans
        .lock()
        .unwrap()
        .iter()
        .map(|(_, span)| attributes(span)["n"].clone())
        .collect();
    exported.sort_unstable();
    assert_eq!(exported, ["0", "1", "2", "3"]);
    otlp.shutdown().await.unwrap();
}

#[test]
fn bad_endpoints_are_refused_with_a_reason() {
    let url = |endpoint: &str| {
        OtlpConfig::new(endpoint, "x")
            .traces_url()
            .map(|u| u.to_string())
            .map_err(|e| e.to_string())
    };
    assert_eq!(
        url("http://127.0.0.1:4318").unwrap(),
        "http://127.0.0.1:4318/v1/traces"
    );
    assert_eq!(
        url("http://collector:4318/otlp/").unwrap(),
        "http://collector:4318/otlp/v1/traces"
    );
    assert_eq!(
        url("http://collector:4318/v1/traces").unwrap(),
        "http://collector:4318/v1/traces"
    );
    assert_eq!(
        url("https://collector:4318").unwrap_err(),
        "the OTLP endpoint `https://collector:4318` is https: the exporter speaks plain HTTP only \
         (run a collector next to the process, e.g. http://127.0.0.1:4318)"
    );
    assert_eq!(
        url("collector:4318").unwrap_err(),
        "the OTLP endpoint `collector:4318` must be an http:// URL (e.g. http://127.0.0.1:4318)"
    );
    assert!(
        url("http://exa mple")
            .unwrap_err()
            .starts_with("the OTLP endpoint `http://exa mple` is not a URL")
    );
    let outside = Otlp::start(&OtlpConfig::new("http://127.0.0.1:4318", "x")).unwrap_err();
    assert_eq!(
        outside.message(),
        "OTLP export must be started inside a Tokio runtime"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_last_export_is_reported_by_shutdown() {
    // A port nobody listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let otlp =
        Otlp::start(&OtlpConfig::new(url, "away-test").with_export_timeout(Duration::from_secs(1)))
            .unwrap();
    let subscriber = tracing_subscriber::registry().with(otlp.layer());
    let _default = tracing::subscriber::set_default(subscriber);
    drop(tracing::info_span!("lost"));
    let err = otlp.shutdown().await.unwrap_err();
    assert_eq!(
        err.message(),
        "the OTLP shutdown: Operation failed: errs: [Err(InternalFailure(\"HTTP export failed: network error\"))]"
    );
}
