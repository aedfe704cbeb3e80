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
//! `--json true` makes it the **JSON floor**: a JSON-RPC `SendMessage` is answered as a raw
//! hyper + `serde_json` server answers it, parsed into a `Value` and answered with a task built
//! per request with fresh ids and timestamp ([`wire::json_floor_answer`]); every other request
//! as before. It measures the JSON and id work any server must do, beside the floor.

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
