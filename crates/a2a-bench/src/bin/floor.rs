//! The floor: a raw hyper HTTP/1.1 server that answers A2A requests with pre-built bytes.
//!
//! ```text
//! a2a-bench-floor --addr 127.0.0.1:7430 [--stream-events 1000] [--json true]
//! ```
//!
//! It reads each request body, finds the method with a substring search (no JSON parsing) and
//! writes bytes built at start-up, of the same shape as a2a-server's answers: `SendMessage`, a
//! completed task echoing the bench text; `SendStreamingMessage`, the `stream-events + 3` SSE
//! events of the bench agent's stream, one frame each; `SubscribeToTask`, one event and then
//! nothing until the client goes away; `POST /message:send` (HTTP+JSON), the bare
//! `SendMessageResponse` of the same task. It is the least an A2A server can do per request.
//!
//! `--json true` makes it the **JSON floor**, the reference of `cargo xtask bench`'s A2A rows:
//! requests are answered as a raw hyper + `serde_json` server answers them. A `SendMessage`
//! (JSON-RPC, or HTTP+JSON on `POST /message:send`) is parsed into a `Value` and answered with
//! a task built per request with fresh ids and timestamp ([`wire::json_floor_answer`],
//! [`wire::json_floor_answer_rest`]); a `SendStreamingMessage` is parsed, and a task of its own
//! builds each event as a `Value`, serializes it with `serde_json`, frames it and sends it
//! through a bounded channel of [`STREAM_BOUND`] frames to the response body
//! ([`wire::JsonFloorStream`]), as any server whose agent runs apart from the connection must;
//! every other request as before. It measures the JSON, id and hand-over work any server must
//! do, beside the floor.

use std::convert::Infallible;
use std::sync::Arc;

use a2a_bench::wire::{self, Ask};
use bytes::Bytes;
use futures_util::StreamExt as _;
use http::{Request, Response, StatusCode, header};
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt as _, Full, StreamBody};
use hyper::body::{Frame, Incoming};
use hyper_util::rt::TokioIo;

/// The frames the JSON floor's stream channel holds before its producer waits for the
/// connection.
const STREAM_BOUND: usize = 64;

struct Answers {
    /// The JSON floor: build each `SendMessage` answer (`--json true`).
    json: bool,
    completed: Bytes,
    completed_rest: Bytes,
    working: Bytes,
    list: Bytes,
    stream: Vec<Bytes>,
    subscribe_first: Bytes,
}

type Body = UnsyncBoxBody<Bytes, Infallible>;

fn json(bytes: Bytes) -> Response<Body> {
    typed(bytes, "application/json")
}

fn typed(bytes: Bytes, content_type: &'static str) -> Response<Body> {
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, content_type)
        .body(Full::new(bytes).boxed_unsync())
        .expect("a valid response")
}

fn sse(frames: impl futures_util::Stream<Item = Bytes> + Send + 'static) -> Response<Body> {
    let body = StreamBody::new(frames.map(|b| Ok::<_, Infallible>(Frame::data(b))));
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .body(body.boxed_unsync())
        .expect("a valid response")
}

/// The JSON floor's stream: a task serializes and frames each event and sends it through a
/// channel of [`STREAM_BOUND`] frames, which the response body drains.
fn serialized_stream(stream: wire::JsonFloorStream) -> Response<Body> {
    let (tx, rx) = tokio::sync::mpsc::channel::<Bytes>(STREAM_BOUND);
    tokio::spawn(async move {
        for i in 0..stream.len() {
            let Some(event) = stream.event(i) else { break };
            let Ok(json) = serde_json::to_vec(&event) else {
                break;
            };
            let frame = Bytes::from(wire::sse_event(i as u64 + 1, &json));
            if tx.send(frame).await.is_err() {
                break;
            }
        }
    });
    sse(futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|frame| (frame, rx))
    }))
}

fn bad_request() -> Response<Body> {
    Response::builder()
        .status(StatusCode::BAD_REQUEST)
        .body(Full::new(Bytes::new()).boxed_unsync())
        .expect("a valid response")
}

async fn answer(answers: Arc<Answers>, request: Request<Incoming>) -> Response<Body> {
    let rest = request.uri().path() == wire::REST_SEND_PATH;
    let Ok(body) = request.into_body().collect().await else {
        return bad_request();
    };
    let body = body.to_bytes();
    if rest && answers.json {
        return wire::json_floor_answer_rest(&body)
            .map_or_else(bad_request, |a| typed(a.into(), "application/a2a+json"));
    }
    if rest {
        return typed(answers.completed_rest.clone(), "application/a2a+json");
    }
    match wire::classify(&body) {
        Ask::Send if answers.json => {
            wire::json_floor_answer(&body).map_or_else(bad_request, |a| json(a.into()))
        }
        Ask::Send => json(answers.completed.clone()),
        Ask::Hold => json(answers.working.clone()),
        Ask::List => json(answers.list.clone()),
        Ask::Stream if answers.json => {
            wire::JsonFloorStream::parse(&body).map_or_else(bad_request, serialized_stream)
        }
        Ask::Stream => sse(futures_util::stream::iter(answers.stream.clone())),
        Ask::Subscribe => sse(
            futures_util::stream::iter([answers.subscribe_first.clone()])
                .chain(futures_util::stream::pending()),
        ),
        _ => json(answers.completed.clone()),
    }
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flags = a2a_bench::parse_flags(&args)?;
    let addr: String = a2a_bench::flag(&flags, "addr", "127.0.0.1:7430".to_owned())?;
    let n: usize = a2a_bench::flag(&flags, "stream-events", 1000)?;
    let answers = Arc::new(Answers {
        json: a2a_bench::flag(&flags, "json", false)?,
        completed: wire::completed_task(wire::ECHO_TEXT).into(),
        completed_rest: wire::completed_task_rest(wire::ECHO_TEXT).into(),
        working: wire::working_task().into(),
        list: wire::empty_task_list().into(),
        stream: wire::stream_events(n)
            .into_iter()
            .map(Bytes::from)
            .collect(),
        subscribe_first: wire::subscribe_first_event().into(),
    });
    a2a_bench::serve_each(&addr, move |stream| {
        let answers = answers.clone();
        async move {
            let service = hyper::service::service_fn(move |request| {
                let answers = answers.clone();
                async move { Ok::<_, Infallible>(answer(answers, request).await) }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        }
    })
    .await
}
