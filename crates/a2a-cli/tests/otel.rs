//! `a2a serve --otlp-endpoint URL`: the server's spans reach an OTLP/HTTP collector (an
//! in-process one here) in the caller's trace, and the last ones are flushed when the server
//! is stopped with SIGTERM.
#![cfg(all(unix, feature = "opentelemetry"))]

use std::collections::HashMap;
use std::convert::Infallible;
use std::io::{BufRead as _, BufReader};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use a2a_types::trace::TraceContext;
use a2a_types::v1::{Message, SendMessageRequest};
use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message as _;

const A2A: &str = env!("CARGO_BIN_EXE_a2a");

/// An OTLP/HTTP collector on 127.0.0.1: its URL, and the spans (with their `service.name`) it
/// received.
async fn collector() -> (String, Arc<Mutex<Vec<(String, Span)>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let spans = Arc::new(Mutex::new(Vec::new()));
    let kept = spans.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let spans = kept.clone();
            let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
                let spans = spans.clone();
                async move {
                    assert_eq!(request.uri().path(), "/v1/traces");
                    let body = request.into_body().collect().await.unwrap().to_bytes();
                    let export = ExportTraceServiceRequest::decode(body).unwrap();
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
                    Ok::<_, Infallible>(hyper::Response::new(Full::new(Bytes::new())))
                }
            });
            tokio::spawn(
                hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service),
            );
        }
    });
    (url, spans)
}

fn text(value: Option<&Value>) -> String {
    match value {
        Some(Value::StringValue(text)) => text.clone(),
        other => format!("{other:?}"),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_exports_its_spans_in_the_callers_trace_and_flushes_them_on_sigterm() {
    let (collector_url, spans) = collector().await;
    let mut child = Command::new(A2A)
        .args(["serve", "--addr", "127.0.0.1:0", "--no-grpc", "-q"])
        .args(["--otlp-endpoint", &collector_url])
        .env("OTEL_SERVICE_NAME", "otel-cli-test")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("a2a serve starts");
    let mut first = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut first)
        .unwrap();
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL on the first line: {first:?}"))
        .to_owned();

    let caller = TraceContext::parse(
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        None,
    )
    .unwrap();
    let client = a2a_client::A2aClient::connect(&url).await.unwrap();
    let mut message = Message::user_text("hello");
    message.context_id = Some("ctx-otel-cli".into());
    a2a_client::trace::scope(
        caller,
        client.send_message(SendMessageRequest::new(message)),
    )
    .await
    .unwrap();

    // Nothing is exported before the 5 s batch delay: the spans arrive with the flush of
    // the shutdown.
    let pid = child.id().to_string();
    let killed = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(killed.success());
    let status = tokio::task::spawn_blocking(move || child.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(status.success(), "{status:?}");

    let received = spans.lock().unwrap().clone();
    assert!(
        received
            .iter()
            .all(|(service, _)| service == "otel-cli-test")
    );
    let traced: Vec<&Span> = received
        .iter()
        .map(|(_, span)| span)
        .filter(|span| hex(&span.trace_id) == "4bf92f3577b34da6a3ce929d0e0e4736")
        .collect();
    let mut names: Vec<&str> = traced.iter().map(|span| span.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["a2a.agent", "a2a.call", "a2a.request"]);
    let find = |name: &str| *traced.iter().find(|span| span.name == name).unwrap();
    let (request, call, agent) = (find("a2a.request"), find("a2a.call"), find("a2a.agent"));
    // The request's parent is the span of the caller's traceparent (the client's a2a.send,
    // a child of the scope's span 00f067aa0ba902b7): a span id of its own.
    assert_eq!(hex(&request.parent_span_id).len(), 16);
    assert_ne!(hex(&request.parent_span_id), "00f067aa0ba902b7");
    assert_eq!(call.parent_span_id, request.span_id);
    assert_eq!(agent.parent_span_id, call.span_id);
    let attrs = attributes(call);
    assert_eq!(attrs["a2a.method"], "SendMessage");
    assert_eq!(attrs["a2a.context_id"], "ctx-otel-cli");
    let attrs = attributes(agent);
    assert_eq!(attrs["a2a.context_id"], "ctx-otel-cli");
    assert_eq!(attrs["a2a.state"], "Completed");
}
