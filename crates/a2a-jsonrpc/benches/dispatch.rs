//! Dispatch of a typical small A2A call, against a baseline of plain JSON work on the same bytes.
//!
//! Run with `cargo bench -p a2a-jsonrpc`. The figures and their ratio are in
//! `docs/benchmarks.md`, section "JSON-RPC dispatch".
//!
//! * `baseline_value_round_trip`: `serde_json::from_slice::<Value>` of the request, then `to_vec`
//!   of that value: the least a JSON endpoint could do with the body.
//! * `handle_bytes`: [`Methods::handle_bytes`] from the request bytes to the response bytes:
//!   envelope checks, typed decoding of the params into `GetTaskRequest`, the handler, and the
//!   serialized response with a small typed `Task`.
//! * `parse_then_call`: the same through the low-level API a server uses when it intercepts
//!   streaming methods ([`Payload::parse`], then [`Methods::call`], then `Response::to_vec`).

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use a2a_jsonrpc::{ErrorObject, Incoming, Methods, Payload};
use divan::{Bencher, black_box};
use serde::{Deserialize, Serialize};

const BODY: &[u8] =
    br#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"task-123","historyLength":2}}"#;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GetTaskRequest {
    #[serde(default)]
    tenant: String,
    id: String,
    history_length: Option<u32>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Task {
    id: String,
    context_id: String,
    status: TaskStatus,
}

#[derive(Serialize)]
struct TaskStatus {
    state: &'static str,
}

fn methods() -> Methods<()> {
    Methods::new().register("GetTask", |params: GetTaskRequest, _ctx: ()| async move {
        if params.id.is_empty() || !params.tenant.is_empty() || params.history_length > Some(100) {
            return Err(ErrorObject::from(a2a_jsonrpc::A2aError::task_not_found(
                &params.id,
            )));
        }
        Ok(Task {
            id: params.id,
            context_id: "ctx-1".to_owned(),
            status: TaskStatus {
                state: "TASK_STATE_COMPLETED",
            },
        })
    })
}

/// Polls a future that completes without waiting (the handlers here never wait).
fn ready<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
    }
}

fn main() {
    // A guard against benchmarking an error path.
    let reply = ready(methods().handle_bytes(BODY, ())).unwrap_or_default();
    assert_eq!(
        String::from_utf8_lossy(&reply),
        r#"{"jsonrpc":"2.0","id":1,"result":{"id":"task-123","contextId":"ctx-1","status":{"state":"TASK_STATE_COMPLETED"}}}"#
    );
    divan::main();
    // `cargo bench` passes `--bench`; `cargo test --all-targets` does not, and runs each benchmark
    // once above, so the ratio is skipped there to keep tests fast.
    if std::env::args().any(|arg| arg == "--bench") {
        report_ratio();
    }
}

fn baseline_once() -> Vec<u8> {
    let value: serde_json::Value = serde_json::from_slice(black_box(BODY)).unwrap_or_default();
    serde_json::to_vec(&value).unwrap_or_default()
}

/// Times both sides in alternating rounds of the same run and prints dispatch / baseline.
#[expect(clippy::print_stdout, reason = "a benchmark reports on stdout")]
fn report_ratio() {
    const ROUNDS: usize = 30;
    const ITERS: u32 = 20_000;
    let methods = methods();
    let mut baseline = Vec::with_capacity(ROUNDS);
    let mut dispatch = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let start = Instant::now();
        for _ in 0..ITERS {
            black_box(baseline_once());
        }
        baseline.push(start.elapsed() / ITERS);
        let start = Instant::now();
        for _ in 0..ITERS {
            black_box(ready(methods.handle_bytes(black_box(BODY), ())));
        }
        dispatch.push(start.elapsed() / ITERS);
    }
    baseline.sort_unstable();
    dispatch.sort_unstable();
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    let (b_min, d_min) = (baseline[0], dispatch[0]);
    let (b_med, d_med) = (baseline[ROUNDS / 2], dispatch[ROUNDS / 2]);
    println!(
        "\nratio handle_bytes / baseline_value_round_trip ({ROUNDS} alternating rounds of {ITERS}):"
    );
    println!(
        "  fastest round: {d_min:?} / {b_min:?} = {:.2}",
        ratio(d_min, b_min)
    );
    println!(
        "  median round:  {d_med:?} / {b_med:?} = {:.2}",
        ratio(d_med, b_med)
    );
}

#[divan::bench(sample_count = 400, sample_size = 250)]
fn baseline_value_round_trip(bencher: Bencher<'_, '_>) {
    bencher.bench(baseline_once);
}

#[divan::bench(sample_count = 400, sample_size = 250)]
fn handle_bytes(bencher: Bencher<'_, '_>) {
    let methods = methods();
    bencher.bench(|| ready(methods.handle_bytes(black_box(BODY), ())));
}

#[divan::bench(sample_count = 400, sample_size = 250)]
fn parse_then_call(bencher: Bencher<'_, '_>) {
    let methods = methods();
    bencher.bench(|| match Payload::parse(black_box(BODY)) {
        Ok(Payload::Single(Incoming::Request(request))) => {
            Some(ready(methods.call(request, ())).to_vec())
        }
        _ => None,
    });
}
