//! The "Limits and defaults" table of `docs/limits.md` (the crate docs point to it): its
//! defaults are the code's, and the limits no other test file hits are hit here (the JSON-RPC
//! request timeout, page sizes, the card's max-age, hyper's head limit, HTTP/2's stream cap).
//! Where the other limits are hit: `docs/limits.md` names the test of each.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use a2a_server::store::RetentionPolicy;
use a2a_server::{A2aService, HandlerConfig, Limits, ServeConfig};
use common::{normalized, rpc, start, start_configured};
use http::StatusCode;
use pretty_assertions::assert_eq;
use serde_json::json;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

/// The bound on every wait for something that must happen; never reached when the code works.
const GUARD: Duration = Duration::from_secs(10);

/// An agent that completes at once, or works until cancelled on `wait`.
fn service(limits: Limits) -> A2aService {
    let agent = common::scripted_agent(std::sync::Arc::new(tokio::sync::Semaphore::new(0)));
    A2aService::builder(agent, common::streaming_card())
        .limits(limits)
        .build()
}

fn send(text: &str) -> String {
    json!({"jsonrpc":"2.0","id":5,"method":"SendMessage",
        "params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":text}]}}})
    .to_string()
}

/// The rows of the first table after `heading` in `text`.
fn table_rows(text: &str, heading: &str) -> Vec<String> {
    let (_, after) = text
        .split_once(heading)
        .unwrap_or_else(|| panic!("no `{heading}`"));
    after
        .lines()
        .map(str::trim_end)
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .map(str::to_owned)
        .collect()
}

fn size(bytes: u64) -> String {
    match bytes {
        b if b.is_multiple_of(1 << 20) => format!("{} MiB", b >> 20),
        b if b.is_multiple_of(1 << 10) => format!("{} KiB", b >> 10),
        b => b.to_string(),
    }
}

fn count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

fn time(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        _ if s >= 3600 && s.is_multiple_of(3600) => format!("{} h", s / 3600),
        // Minutes from five on: a minute reads better as 60 s.
        _ if s >= 300 && s.is_multiple_of(60) => format!("{} min", s / 60),
        _ => format!("{s} s"),
    }
}

#[test]
fn the_docs_table_has_the_code_s_defaults_and_the_crate_docs_point_to_it() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |path: &Path| std::fs::read_to_string(path).unwrap();
    let crate_docs = read(&crate_dir.join("src/lib.rs"));
    let (_, section) = crate_docs
        .split_once("//! # Limits and defaults\n")
        .expect("the crate docs have a Limits and defaults section");
    assert!(
        section
            .split("//! # ")
            .next()
            .unwrap()
            .contains("`docs/limits.md`"),
        "the crate docs' Limits and defaults section names docs/limits.md"
    );
    let page = table_rows(
        &read(&crate_dir.join("../../docs/limits.md")),
        "\n## Limits and defaults\n",
    );

    let (serve, limits) = (ServeConfig::default(), Limits::default());
    let (handler, store) = (HandlerConfig::default(), RetentionPolicy::default());
    let ttl = |d: Option<Duration>| time(d.expect("a TTL by default"));
    let expected: BTreeMap<&str, String> = [
        (
            "`ServeConfig::max_connections`",
            count(serve.max_connections),
        ),
        (
            "`ServeConfig::header_read_timeout`",
            time(serve.header_read_timeout),
        ),
        ("`ServeConfig::idle_timeout`", time(serve.idle_timeout)),
        (
            "`ServeConfig::http2_keep_alive_interval`",
            ttl(serve.http2_keep_alive_interval),
        ),
        (
            "`ServeConfig::http2_keep_alive_timeout`",
            time(serve.http2_keep_alive_timeout),
        ),
        (
            "`ServeConfig::http2_max_concurrent_streams`",
            count(serve.http2_max_concurrent_streams as usize),
        ),
        (
            "`ServeConfig::shutdown_deadline`",
            time(serve.shutdown_deadline),
        ),
        (
            "`ServeConfig::tls_handshake_timeout`",
            time(serve.tls_handshake_timeout),
        ),
        // hyper's own: the 100 headers of its parser, 8 KiB + 400 KiB of read buffer; 16 KiB
        // of HTTP/2 header list (hit below).
        (
            "HTTP/1.1 request head (hyper's, fixed)",
            "100 headers, 408 KiB".to_owned(),
        ),
        ("HTTP/2 header list (hyper's, fixed)", "16 KiB".to_owned()),
        (
            "`Limits::max_body_bytes`",
            size(limits.max_body_bytes as u64),
        ),
        (
            "`Limits::body_read_timeout`",
            time(limits.body_read_timeout),
        ),
        (
            "`Limits::body_idle_timeout`",
            time(limits.body_idle_timeout),
        ),
        ("`Limits::request_timeout`", time(limits.request_timeout)),
        ("`Limits::max_streams`", count(limits.max_streams)),
        ("`Limits::max_batch_len`", count(limits.max_batch_len)),
        (
            "`Limits::batch_concurrency`",
            count(limits.batch_concurrency),
        ),
        ("`Limits::max_flat_tasks`", count(limits.max_flat_tasks)),
        (
            "`HandlerConfig::max_task_bytes`",
            size(handler.max_task_bytes),
        ),
        (
            "`HandlerConfig::max_page_bytes`",
            size(handler.max_page_bytes as u64),
        ),
        (
            "`HandlerConfig::max_page_size`",
            count(handler.max_page_size),
        ),
        (
            "`HandlerConfig::default_page_size`",
            count(handler.default_page_size),
        ),
        ("`HandlerConfig::cancel_grace`", time(handler.cancel_grace)),
        (
            "`HandlerConfig::interrupted_ttl`",
            ttl(handler.interrupted_ttl),
        ),
        (
            "`HandlerConfig::outage_tolerance`",
            time(handler.outage_tolerance),
        ),
        (
            "`HandlerConfig::long_poll_timeout`",
            time(handler.long_poll_timeout),
        ),
        (
            "`HandlerConfig::max_long_polls`",
            count(handler.max_long_polls),
        ),
        (
            "`HandlerConfig::max_pending_outcomes`",
            count(handler.max_pending_outcomes),
        ),
        ("`RetentionPolicy::max_tasks`", count(store.max_tasks)),
        (
            "`RetentionPolicy::max_live_tasks`",
            count(store.max_live_tasks),
        ),
        (
            "`RetentionPolicy::max_live_tasks_per_principal`",
            count(store.max_live_tasks_per_principal),
        ),
        (
            "`RetentionPolicy::max_total_bytes`",
            size(store.max_total_bytes),
        ),
        ("`RetentionPolicy::terminal_ttl`", ttl(store.terminal_ttl)),
    ]
    .into_iter()
    .collect();
    let documented: BTreeMap<&str, String> = page
        .iter()
        .skip(2)
        .map(|row| {
            let cells: Vec<&str> = row.split(" | ").collect();
            (cells[0].trim_start_matches("| "), cells[1].to_owned())
        })
        .collect();
    assert_eq!(documented, expected);
}

#[tokio::test]
async fn a_json_rpc_call_over_the_request_timeout_is_504() {
    let server = start(service(
        Limits::default().with_request_timeout(Duration::from_millis(50)),
    ))
    .await;
    let (status, _, body) = rpc(server.addr, &send("wait")).await;
    assert_eq!(status, StatusCode::GATEWAY_TIMEOUT);
    assert_eq!(
        normalized(&body),
        json!({"jsonrpc":"2.0","id":5,"error":{"code":-32603,
            "message":"internal error: the call did not finish within 50 ms; a task it started goes on and can be polled with GetTask",
            "data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"INTERNAL","domain":"a2a-protocol.org"}]}})
    );
    // The task goes on.
    let list = json!({"jsonrpc":"2.0","id":6,"method":"ListTasks","params":{}}).to_string();
    let (_, _, body) = rpc(server.addr, &list).await;
    let tasks = &normalized(&body)["result"]["tasks"];
    assert_eq!(tasks[0]["status"]["state"], "TASK_STATE_WORKING", "{tasks}");
}

/// A blocking call's agent runs in the call's own task (no hand-off per request); when the
/// call goes away at the request timeout, what is left of the agent's run goes on by itself
/// and finishes the task.
#[tokio::test]
async fn an_agent_outlives_its_blocking_call_at_the_request_timeout() {
    let gate = std::sync::Arc::new(tokio::sync::Semaphore::new(0));
    let agent = common::scripted_agent(gate.clone());
    let server = start(
        A2aService::builder(agent, common::streaming_card())
            .limits(Limits::default().with_request_timeout(Duration::from_millis(50)))
            .build(),
    )
    .await;
    let (status, _, _) = rpc(server.addr, &send("chunks 1")).await;
    assert_eq!(status, StatusCode::GATEWAY_TIMEOUT);
    // The call is gone; the agent waits at its gate, then emits its chunk and completes.
    gate.add_permits(1);
    let list = json!({"jsonrpc":"2.0","id":6,"method":"ListTasks",
        "params":{"includeArtifacts":true}})
    .to_string();
    let deadline = tokio::time::Instant::now() + GUARD;
    loop {
        let (_, _, body) = rpc(server.addr, &list).await;
        let task = normalized(&body)["result"]["tasks"][0].clone();
        if task["status"]["state"] == "TASK_STATE_COMPLETED" {
            assert_eq!(
                task["artifacts"],
                json!([{"artifactId":"chunks","parts":[{"text":"c0"}]}])
            );
            break;
        }
        assert_eq!(task["status"]["state"], "TASK_STATE_WORKING", "{task}");
        assert!(
            tokio::time::Instant::now() < deadline,
            "never completed: {task}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn list_pages_default_to_50_tasks_and_larger_page_sizes_are_refused() {
    let server = start(service(Limits::default())).await;
    for _ in 0..101 {
        let (status, _, _) = rpc(server.addr, &send("x")).await;
        assert_eq!(status, StatusCode::OK);
    }
    for (params, page_size) in [(json!({}), 50), (json!({"pageSize": 100}), 100)] {
        let list = json!({"jsonrpc":"2.0","id":1,"method":"ListTasks","params":params});
        let (status, _, body) = rpc(server.addr, &list.to_string()).await;
        assert_eq!(status, StatusCode::OK);
        let result = &normalized(&body)["result"];
        assert_eq!(result["pageSize"], page_size, "{params}");
        assert_eq!(result["totalSize"], 101);
        assert_eq!(result["tasks"].as_array().unwrap().len(), page_size);
        assert_ne!(result["nextPageToken"], "");
    }
    let list = json!({"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{"pageSize": 500}});
    let (status, _, body) = rpc(server.addr, &list.to_string()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        normalized(&body)["error"]["message"],
        "invalid params: pageSize must be between 1 and 100, got 500"
    );
}

#[tokio::test]
async fn the_card_max_age_is_the_configured_one() {
    let server = start(service(Limits::default().with_card_max_age(60))).await;
    let response = common::send(
        server.addr,
        http::Request::get("/.well-known/agent-card.json")
            .header("host", "test")
            .body(http_body_util::Full::new(bytes::Bytes::new()))
            .unwrap(),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["cache-control"], "public, max-age=60");
}

/// Writes `request` on a fresh connection and reads until the server closes it.
async fn exchange(addr: std::net::SocketAddr, request: &[u8]) -> Vec<u8> {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    // The server may answer and close before it read everything.
    let _ = stream.write_all(request).await;
    let mut answer = Vec::new();
    tokio::time::timeout(GUARD, stream.read_to_end(&mut answer))
        .await
        .expect("the server closes the connection")
        .ok();
    answer
}

#[tokio::test]
async fn a_request_head_over_hypers_limits_is_431_and_closed() {
    let server = start(service(Limits::default())).await;
    let head = |headers: &str| {
        format!("POST / HTTP/1.1\r\nhost: t\r\ncontent-length: 0\r\n{headers}\r\n").into_bytes()
    };
    let many: String = (0..100).map(|i| format!("x-h{i}: v\r\n")).collect();
    // hyper checks the size between reads: a head just over 408 KiB may still pass whole.
    let huge = format!("x-big: {}\r\n", "v".repeat(500 * 1024));
    for (what, request) in [
        ("101 headers", head(&many)),
        ("a 500 KiB head", head(&huge)),
    ] {
        let answer = String::from_utf8_lossy(&exchange(server.addr, &request).await).into_owned();
        assert!(
            answer.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"),
            "{what}: {answer}"
        );
    }
}

/// Reads HTTP/2 frames until one of `kind` for stream `id` arrives; returns its payload.
async fn frame_for(stream: &mut TcpStream, kind: u8, id: u32) -> Vec<u8> {
    tokio::time::timeout(GUARD, async {
        loop {
            let mut head = [0u8; 9];
            stream
                .read_exact(&mut head)
                .await
                .expect("the connection stays open");
            let len = usize::from(head[0]) << 16 | usize::from(head[1]) << 8 | usize::from(head[2]);
            let mut payload = vec![0u8; len];
            stream.read_exact(&mut payload).await.unwrap();
            let stream_id = u32::from_be_bytes([head[5], head[6], head[7], head[8]]) & 0x7fff_ffff;
            if head[3] == kind && stream_id == id {
                return payload;
            }
        }
    })
    .await
    .expect("the frame arrives")
}

/// An HTTP/2 frame.
fn frame(kind: u8, flags: u8, id: u32, payload: &[u8]) -> Vec<u8> {
    let len = u32::try_from(payload.len()).unwrap().to_be_bytes();
    let mut out = vec![len[1], len[2], len[3], kind, flags];
    out.extend_from_slice(&id.to_be_bytes());
    out.extend_from_slice(payload);
    out
}

const HEADERS: u8 = 0x1;
const RST_STREAM: u8 = 0x3;
const END_HEADERS: u8 = 0x4;

#[tokio::test]
async fn an_http2_stream_beyond_the_concurrent_stream_cap_is_refused() {
    let server = start_configured(
        service(Limits::default()),
        ServeConfig::default()
            .with_http2_max_concurrent_streams(2)
            .with_shutdown_deadline(Duration::from_millis(200)),
    )
    .await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let mut bytes = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    bytes.extend(frame(0x4, 0, 0, &[]));
    // Three `POST /` requests whose bodies never come (no END_STREAM): each stays open. The
    // header block is HPACK's static table: :method POST, :scheme http, :path /.
    for id in [1, 3, 5] {
        bytes.extend(frame(HEADERS, END_HEADERS, id, &[0x83, 0x86, 0x84]));
    }
    stream.write_all(&bytes).await.unwrap();
    let reset = frame_for(&mut stream, RST_STREAM, 5).await;
    // REFUSED_STREAM (0x7).
    assert_eq!(reset, [0, 0, 0, 7]);
}

#[tokio::test]
async fn an_http2_header_list_over_16_kib_is_431() {
    let server = start(service(Limits::default())).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let mut bytes = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    bytes.extend(frame(0x4, 0, 0, &[]));
    // :method GET, :scheme http, :path /, then `x-big: <17 000 bytes>` as a literal without
    // indexing (0x00, a name of 5 bytes, a value whose length takes HPACK's integer form).
    let mut block = vec![0x82, 0x86, 0x84, 0x00, 0x05];
    block.extend_from_slice(b"x-big");
    let value = 17_000usize;
    // A 7-bit prefix integer: 127, then 7 bits at a time.
    block.push(0x7f);
    let mut rest = value - 127;
    while rest >= 128 {
        block.push(u8::try_from(rest % 128).unwrap() | 0x80);
        rest /= 128;
    }
    block.push(u8::try_from(rest).unwrap());
    block.extend(std::iter::repeat_n(b'v', value));
    // Frames of at most 16 KiB: HEADERS, then CONTINUATION (0x9) with END_HEADERS.
    let (first, second) = block.split_at(16_000);
    bytes.extend(frame(HEADERS, 0x1, 1, first));
    bytes.extend(frame(0x9, END_HEADERS, 1, second));
    stream.write_all(&bytes).await.unwrap();
    let headers = frame_for(&mut stream, HEADERS, 1).await;
    // `:status: 431` and nothing else: a literal with incremental indexing of static entry 8
    // (`:status`, 0x48), its value Huffman-coded in 3 bytes (0x83): `4` 011010, `3` 011001,
    // `1` 00001, padded with ones.
    assert_eq!(headers, [0x48, 0x83, 0b0110_1001, 0b1001_0000, 0b1111_1111]);
}
