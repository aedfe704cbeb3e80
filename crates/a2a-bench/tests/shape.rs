//! The floors answer with the shape a2a-server answers with: the same JSON, ids and timestamps
//! aside, for `SendMessage` (JSON-RPC and HTTP+JSON; the JSON floor's answer built per request
//! too), a streamed `SendStreamingMessage` and the first event of `SubscribeToTask`; and the
//! gRPC floor the same `SendMessageResponse` message as our server over gRPC. The binaries run
//! as processes here, as in `cargo xtask bench`; nothing is timed.

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use a2a_bench::wire;
use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper_util::rt::TokioIo;
use pretty_assertions::assert_eq;
use serde_json::Value;

/// The tests run one at a time: each picks a free port, releases it and starts a server on it,
/// and two tests doing that at once can be handed the same port.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

struct Server(Child, SocketAddr);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(program: &str, args: &[&str]) -> Server {
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let child = Command::new(program)
        .args(["--addr", &addr.to_string()])
        .args(args)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::net::TcpStream::connect(addr).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{program} did not listen"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    Server(child, addr)
}

fn floor() -> Server {
    start(
        env!("CARGO_BIN_EXE_a2a-bench-floor"),
        &["--stream-events", "3"],
    )
}

fn ours() -> Server {
    start(env!("CARGO_BIN_EXE_a2a-bench-server"), &[])
}

/// POSTs `body` to `/`; returns the body, or the SSE events' data once `events` have arrived.
async fn post(addr: SocketAddr, body: Vec<u8>, events: Option<usize>) -> Vec<Value> {
    post_to(addr, "/", body, events).await
}

/// POSTs `body` to `path`, as [`post`].
async fn post_to(addr: SocketAddr, path: &str, body: Vec<u8>, events: Option<usize>) -> Vec<Value> {
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(conn);
    let request = http::Request::post(path)
        .header("host", "127.0.0.1")
        .header("content-type", "application/json")
        .header("a2a-version", "1.0")
        .body(Full::new(Bytes::from(body)))
        .unwrap();
    let response = sender.send_request(request).await.unwrap();
    assert_eq!(response.status(), 200);
    let mut body = response.into_body();
    let Some(n) = events else {
        let bytes = body.collect().await.unwrap().to_bytes();
        return vec![serde_json::from_slice(&bytes).unwrap()];
    };
    let mut decoder = a2a_sse::Decoder::new();
    let mut out = Vec::new();
    while out.len() < n {
        let frame = body.frame().await.expect("more events").unwrap();
        let Ok(data) = frame.into_data() else {
            continue;
        };
        for frame in decoder.decode(&data) {
            if let a2a_sse::Frame::Event(event) = frame.unwrap() {
                let mut value: Value = serde_json::from_str(event.data().unwrap()).unwrap();
                value["sse-id"] = event.id().unwrap_or_default().into();
                out.push(value);
            }
        }
    }
    out
}

/// Ids and timestamps become placeholders.
fn normalize(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match key.as_str() {
                    "timestamp" | "id" | "taskId" | "contextId" if v.is_string() => {
                        *v = Value::String(format!("<{key}>"));
                    }
                    _ => normalize(v),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(normalize),
        _ => {}
    }
}

async fn both(body: Vec<u8>, events: Option<usize>) -> (Vec<Value>, Vec<Value>) {
    let (floor, ours) = (floor(), ours());
    let mut a = post(floor.1, body.clone(), events).await;
    let mut b = post(ours.1, body, events).await;
    a.iter_mut().for_each(normalize);
    b.iter_mut().for_each(normalize);
    (a, b)
}

/// The answers of `server` and our server to one `SendMessage` POSTed to `path`, normalized.
async fn send_both(server: &Server, path: &str, body: Vec<u8>) -> (Value, Value) {
    let ours = ours();
    let mut a = post_to(server.1, path, body.clone(), None).await.remove(0);
    let mut b = post_to(ours.1, path, body, None).await.remove(0);
    normalize(&mut a);
    normalize(&mut b);
    (a, b)
}

#[tokio::test]
async fn send_message_has_our_shape() {
    let _serial = SERIAL.lock().await;
    let (floor, ours) = both(wire::send_message(wire::ECHO_TEXT, false), None).await;
    assert_eq!(floor, ours);
    assert_eq!(
        ours[0]["result"]["task"]["artifacts"][0]["parts"][0]["text"],
        wire::ECHO_TEXT
    );
}

#[tokio::test]
async fn the_stream_has_our_shape() {
    let _serial = SERIAL.lock().await;
    let body = wire::send_streaming_message(&wire::stream_command(3));
    let (floor, ours) = both(body, Some(6)).await;
    assert_eq!(floor, ours);
    assert_eq!(
        ours[5]["result"]["statusUpdate"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
}

#[tokio::test]
async fn hold_and_subscribe_have_our_shape() {
    let _serial = SERIAL.lock().await;
    let (floor, ours) = (floor(), ours());
    let mut held = Vec::new();
    for server in [&floor, &ours] {
        let answer = post(server.1, wire::send_message(wire::HOLD, true), None).await;
        let task = answer[0]["result"]["task"]["id"]
            .as_str()
            .unwrap()
            .to_owned();
        let mut first = post(server.1, wire::subscribe_to_task(&task), Some(1)).await;
        first.iter_mut().for_each(normalize);
        held.push(first);
    }
    // Our working task's SSE id depends on when the agent's `working` was logged: compare the
    // events without it.
    for events in &mut held {
        events[0]["sse-id"] = Value::Null;
    }
    assert_eq!(held[0], held[1]);
    assert_eq!(
        held[1][0]["result"]["task"]["status"]["state"],
        "TASK_STATE_WORKING"
    );
}

#[tokio::test]
async fn the_rest_answer_has_our_shape() {
    let _serial = SERIAL.lock().await;
    let body = wire::send_message_rest(wire::ECHO_TEXT);
    let (floor, ours) = send_both(&floor(), wire::REST_SEND_PATH, body).await;
    assert_eq!(floor, ours);
    // The bare SendMessageResponse, no JSON-RPC envelope.
    assert_eq!(
        ours["task"]["artifacts"][0]["parts"][0]["text"],
        wire::ECHO_TEXT
    );
}

#[tokio::test]
async fn the_json_floor_has_our_shape() {
    let _serial = SERIAL.lock().await;
    let json_floor = start(env!("CARGO_BIN_EXE_a2a-bench-floor"), &["--json", "true"]);
    let body = wire::send_message(wire::ECHO_TEXT, false);
    // Its ids and timestamp are made per answer: v4 UUIDs and RFC 3339, of our forms.
    let raw = post(json_floor.1, body.clone(), None).await.remove(0);
    let again = post(json_floor.1, body.clone(), None).await.remove(0);
    let task = &raw["result"]["task"];
    assert_ne!(task["id"], again["result"]["task"]["id"]);
    for id in [
        &task["id"],
        &task["contextId"],
        &task["history"][0]["taskId"],
    ] {
        let id = id.as_str().unwrap();
        assert_eq!(id.len(), 36, "{id}");
        assert_eq!(id.as_bytes()[14], b'4', "{id}: not a v4 UUID");
    }
    assert_eq!(task["id"], task["history"][0]["taskId"]);
    let timestamp = task["status"]["timestamp"].as_str().unwrap();
    assert!(
        timestamp.starts_with("20") && timestamp.ends_with('Z'),
        "{timestamp}"
    );
    let (floor, ours) = send_both(&json_floor, "/", body).await;
    assert_eq!(floor, ours);
}

#[tokio::test]
async fn the_json_floor_answers_rest_with_our_shape_and_fresh_ids() {
    let _serial = SERIAL.lock().await;
    let json_floor = start(env!("CARGO_BIN_EXE_a2a-bench-floor"), &["--json", "true"]);
    let body = wire::send_message_rest(wire::ECHO_TEXT);
    let path = wire::REST_SEND_PATH;
    let first = post_to(json_floor.1, path, body.clone(), None)
        .await
        .remove(0);
    let again = post_to(json_floor.1, path, body.clone(), None)
        .await
        .remove(0);
    assert_ne!(first["task"]["id"], again["task"]["id"]);
    assert_eq!(first["task"]["id"], first["task"]["history"][0]["taskId"]);
    let (floor, ours) = send_both(&json_floor, path, body).await;
    assert_eq!(floor, ours);
}

#[tokio::test]
async fn the_json_floor_streams_our_events() {
    let _serial = SERIAL.lock().await;
    let json_floor = start(env!("CARGO_BIN_EXE_a2a-bench-floor"), &["--json", "true"]);
    let ours = ours();
    let body = wire::send_streaming_message(&wire::stream_command(3));
    let raw = post(json_floor.1, body.clone(), Some(6)).await;
    // One task's ids on every event, made for this stream.
    let task = raw[0]["result"]["task"]["id"].as_str().unwrap();
    assert_eq!(task.len(), 36, "{task}");
    assert_ne!(task, wire::floor_ids::TASK);
    assert_eq!(raw[5]["result"]["statusUpdate"]["taskId"], task);
    assert_eq!(raw[0]["result"]["task"]["history"][0]["taskId"], task);
    let mut floor = raw;
    let mut ours = post(ours.1, body, Some(6)).await;
    floor.iter_mut().for_each(normalize);
    ours.iter_mut().for_each(normalize);
    assert_eq!(floor, ours);
}

#[tokio::test]
async fn the_grpc_floor_has_our_shape() {
    use a2a_grpc::proto::a2a_service_client::A2aServiceClient;
    use a2a_grpc::proto::send_message_response::Payload;
    let _serial = SERIAL.lock().await;
    let floor = start(env!("CARGO_BIN_EXE_a2a-bench-floor-grpc"), &[]);
    let ours = start(env!("CARGO_BIN_EXE_a2a-bench-server"), &["--grpc", "true"]);
    let mut answers = Vec::new();
    for server in [&floor, &ours] {
        let channel = tonic::transport::Endpoint::from_shared(format!("http://{}", server.1))
            .unwrap()
            .connect()
            .await
            .unwrap();
        let mut client = A2aServiceClient::new(channel);
        let mut call = tonic::Request::new(wire::send_message_grpc(wire::ECHO_TEXT));
        call.metadata_mut().insert(
            "a2a-version",
            tonic::metadata::MetadataValue::from_static("1.0"),
        );
        let answer = client.send_message(call).await.unwrap().into_inner();
        let Some(Payload::Task(mut task)) = answer.payload else {
            panic!("not a task: {answer:?}");
        };
        // Ids and timestamps aside.
        task.id.clear();
        task.context_id.clear();
        task.status.as_mut().unwrap().timestamp = None;
        for message in &mut task.history {
            message.task_id.clear();
            message.context_id.clear();
        }
        answers.push(task);
    }
    assert_eq!(answers[0], answers[1]);
    assert_eq!(
        answers[1].status.as_ref().unwrap().state,
        a2a_grpc::proto::TaskState::Completed as i32
    );
}
