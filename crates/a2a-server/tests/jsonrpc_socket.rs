//! The 1.0 JSON-RPC binding over real sockets: hand-written requests, literal expected answers.

mod common;

use std::sync::Arc;
use std::time::Duration;

use a2a_server::agent::{AgentError, agent_fn};
use a2a_server::auth::{AuthError, Principal};
use a2a_server::{A2aService, HandlerConfig, Limits};
use a2a_types::v1::{AgentCapabilities, AgentCard, AgentSkill, Artifact, Part};
use bytes::Bytes;
use common::{Events, normalized, rpc, rpc_request, rpc_with, send, start};
use http::StatusCode;
use http_body_util::{BodyExt as _, Full};
use pretty_assertions::assert_eq;
use serde_json::json;
use tokio::sync::Semaphore;

fn card() -> AgentCard {
    AgentCard::new("Test", "A test agent", "1.0.0")
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"])
        .with_skills([AgentSkill::new("echo", "Echo", "Echoes", ["echo"])])
}

/// `gate` paces the "chunks" agent: one permit per chunk.
fn service_with(gate: Arc<Semaphore>, limits: Limits) -> A2aService {
    let agent = agent_fn(move |ctx, sink| {
        let gate = gate.clone();
        async move {
            let text = ctx.text();
            let (command, arg) = text.split_once(' ').unwrap_or((text.as_str(), ""));
            match command {
                "hello" => sink.reply(sink.message(vec![Part::text("hi!")])).await?,
                "ask" if ctx.task.is_none() => sink.input_required("which city?").await?,
                "wait" => {
                    sink.working(None).await?;
                    ctx.cancelled().await;
                }
                "chunks" => {
                    sink.working(None).await?;
                    let n: usize = arg.parse().unwrap();
                    for i in 0..n {
                        gate.acquire().await.unwrap().forget();
                        let chunk = Artifact::new("chunks", vec![Part::text(format!("c{i}"))]);
                        sink.artifact_chunk(chunk, i > 0, i + 1 == n).await?;
                    }
                    sink.complete(None).await?;
                }
                "fail" => return Err(AgentError::new("it broke")),
                _ => {
                    sink.working(None).await?;
                    sink.artifact(Artifact::new("echo", vec![Part::text(text.clone())]))
                        .await?;
                    sink.complete(None).await?;
                }
            }
            Ok(())
        }
    });
    A2aService::builder(agent, card())
        .public_url("http://127.0.0.1:7420")
        .limits(limits)
        .handler_config(HandlerConfig::default().with_cancel_grace(Duration::from_millis(200)))
        .build()
}

fn service() -> A2aService {
    service_with(Arc::new(Semaphore::new(1000)), Limits::default())
}

const SEND_PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"ping"}]}}}"#;

#[tokio::test]
async fn send_message_returns_the_completed_task() {
    let server = start(service()).await;
    let (status, headers, body) = rpc(server.addr, SEND_PING).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "application/json");
    assert_eq!(
        normalized(&body),
        json!({"jsonrpc":"2.0","id":1,"result":{"task":{
            "id":"<uuid>","contextId":"<uuid>",
            "status":{"state":"TASK_STATE_COMPLETED","timestamp":"<timestamp>"},
            "artifacts":[{"artifactId":"echo","parts":[{"text":"ping"}]}],
            "history":[{"messageId":"m-1","contextId":"<uuid>","taskId":"<uuid>","role":"ROLE_USER","parts":[{"text":"ping"}]}]
        }}})
    );
}

#[tokio::test]
async fn version_header_is_required_and_checked() {
    let server = start(service()).await;
    let refused_03 = json!({"jsonrpc":"2.0","id":1,"error":{"code":-32009,
        "message":"a request without an A2A-Version header is taken as A2A 0.3, and this method is one of A2A 1.0; send the header `A2A-Version: 1.0`",
        "data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"VERSION_NOT_SUPPORTED","domain":"a2a-protocol.org"}]}});
    let (_, _, body) = rpc_with(server.addr, SEND_PING, &[]).await;
    assert_eq!(normalized(&body), refused_03);
    let (_, _, body) = rpc_with(server.addr, SEND_PING, &[("A2A-Version", "2.0")]).await;
    assert_eq!(
        normalized(&body)["error"]["message"],
        "A2A version `2.0` is not supported; this endpoint serves 1.0 (send `A2A-Version: 1.0`)"
    );
    // Header names are case-insensitive and the patch version is ignored.
    let (_, _, body) = rpc_with(server.addr, SEND_PING, &[("a2a-version", "1.0.1")]).await;
    assert_eq!(
        normalized(&body)["result"]["task"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    // The query parameter form (spec §3.6.1).
    let request = http::Request::post("/?A2A-Version=1.0")
        .header("host", "t")
        .body(Full::new(Bytes::from_static(SEND_PING.as_bytes())))
        .unwrap();
    let body = send(server.addr, request)
        .await
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes();
    assert_eq!(
        normalized(std::str::from_utf8(&body).unwrap())["result"]["task"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
}

#[tokio::test]
async fn envelope_errors() {
    let server = start(service()).await;
    let (status, _, body) = rpc(
        server.addr,
        r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","#,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        body,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: EOF while parsing a value at line 1 column 47"}}"#
    );
    let (_, _, body) = rpc(server.addr, r#"{"jsonrpc":"2.0","id":7,"method":"Nope"}"#).await;
    assert_eq!(
        body,
        r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"method not found: Nope"}}"#
    );
    let (_, _, body) = rpc(server.addr, "[]").await;
    assert_eq!(
        body,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: empty batch"}}"#
    );
    let (_, _, body) = rpc(
        server.addr,
        r#"{"jsonrpc":"2.0","id":"x","method":"GetTask","params":{"id":"t","historyLength":"many"}}"#,
    )
    .await;
    assert_eq!(
        normalized(&body),
        json!({"jsonrpc":"2.0","id":"x","error":{"code":-32602,
            "message":"invalid params: historyLength: \"many\" is not a 32-bit integer",
            "data":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[
                {"field":"historyLength","description":"\"many\" is not a 32-bit integer"}]}]}})
    );
    let (_, _, body) = rpc(
        server.addr,
        r#"{"jsonrpc":"2.0","id":2,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"a","url":"b"}]}}}"#,
    )
    .await;
    assert_eq!(
        normalized(&body)["error"]["message"],
        "invalid params: message.parts[0]: Part holds both `text` and `url`, but oneof `content` allows exactly one"
    );
}

#[tokio::test]
async fn a2a_errors_carry_error_info() {
    let server = start(service()).await;
    let (_, _, body) = rpc(
        server.addr,
        r#"{"jsonrpc":"2.0","id":3,"method":"GetTask","params":{"id":"missing"}}"#,
    )
    .await;
    assert_eq!(
        normalized(&body),
        json!({"jsonrpc":"2.0","id":3,"error":{"code":-32001,"message":"task missing not found",
            "data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND",
                "domain":"a2a-protocol.org","metadata":{"taskId":"missing"}}]}})
    );
    let (_, _, body) = rpc(
        server.addr,
        r#"{"jsonrpc":"2.0","id":4,"method":"CreateTaskPushNotificationConfig","params":{"taskId":"t","url":"https://x"}}"#,
    )
    .await;
    assert_eq!(normalized(&body)["error"]["code"], -32003);
    let (_, _, body) = rpc(
        server.addr,
        r#"{"jsonrpc":"2.0","id":5,"method":"GetExtendedAgentCard"}"#,
    )
    .await;
    assert_eq!(normalized(&body)["error"]["code"], -32004);
}

#[tokio::test]
async fn bodies_over_the_limit_are_refused_with_413() {
    let server = start(service()).await;
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{{"message":{{"messageId":"m","role":"ROLE_USER","parts":[{{"text":"{}"}}]}}}}}}"#,
        "x".repeat(10 * 1024 * 1024)
    );
    let (status, _, body) = rpc(server.addr, &big).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(
        body,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: the request body is larger than the limit of 4194304 bytes"}}"#
    );
    // Still serving.
    let (status, _, _) = rpc(server.addr, SEND_PING).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn wrong_paths_and_methods() {
    let server = start(service()).await;
    let get = http::Request::get("/")
        .header("host", "t")
        .body(Full::new(Bytes::new()))
        .unwrap();
    let response = send(server.addr, get).await;
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(response.headers()["allow"], "POST");
    let other = http::Request::post("/elsewhere")
        .header("host", "t")
        .body(Full::new(Bytes::new()))
        .unwrap();
    assert_eq!(
        send(server.addr, other).await.status(),
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn agent_card_with_etag_and_304() {
    let server = start(service()).await;
    let get = |etag: Option<&str>, path: &str| {
        let mut b = http::Request::get(path).header("host", "t");
        if let Some(tag) = etag {
            b = b.header("if-none-match", tag);
        }
        b.body(Full::new(Bytes::new())).unwrap()
    };
    let response = send(server.addr, get(None, "/.well-known/agent-card.json")).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["cache-control"], "public, max-age=300");
    let etag = response.headers()["etag"].to_str().unwrap().to_owned();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&body).unwrap(),
        // The 1.0 card, with the fields 0.3 and 0.1 readers look for (one document for all).
        json!({"name":"Test","description":"A test agent",
            "supportedInterfaces":[{"url":"http://127.0.0.1:7420/","protocolBinding":"JSONRPC","protocolVersion":"1.0"},
                {"url":"http://127.0.0.1:7420","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"},
                {"url":"http://127.0.0.1:7420/","protocolBinding":"JSONRPC","protocolVersion":"0.3"},
                {"url":"http://127.0.0.1:7420","protocolBinding":"HTTP+JSON","protocolVersion":"0.3"},
                {"url":"http://127.0.0.1:7420/","protocolBinding":"JSONRPC","protocolVersion":"0.1"}],
            "url":"http://127.0.0.1:7420/","preferredTransport":"JSONRPC","protocolVersion":"0.3.0",
            "additionalInterfaces":[{"url":"http://127.0.0.1:7420/","transport":"JSONRPC"},
                {"url":"http://127.0.0.1:7420","transport":"HTTP+JSON"}],
            "version":"1.0.0","capabilities":{"streaming":true},
            "defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],
            "skills":[{"id":"echo","name":"Echo","description":"Echoes","tags":["echo"]}]})
    );
    let response = send(
        server.addr,
        get(Some(&etag), "/.well-known/agent-card.json"),
    )
    .await;
    assert_eq!(response.status(), StatusCode::NOT_MODIFIED);
    let response = send(
        server.addr,
        get(Some("\"other\""), "/.well-known/agent.json"),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn streaming_message_frames_with_ids() {
    let server = start(service()).await;
    let body = r#"{"jsonrpc":"2.0","id":"s1","method":"SendStreamingMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"ping"}]}}}"#;
    let events = Events::new(send(server.addr, rpc_request(body, &[("A2A-Version", "1.0")])).await)
        .collect()
        .await;
    let mut seen: Vec<(Option<String>, serde_json::Value)> = events;
    for (_, data) in &mut seen {
        common::normalize(data);
    }
    let ids: Vec<Option<&str>> = seen.iter().map(|(id, _)| id.as_deref()).collect();
    assert_eq!(ids, [Some("1"), Some("2"), Some("3"), Some("4")]);
    assert_eq!(
        seen[0].1,
        json!({"jsonrpc":"2.0","id":"s1","result":{"task":{"id":"<uuid>","contextId":"<uuid>",
            "status":{"state":"TASK_STATE_SUBMITTED","timestamp":"<timestamp>"},
            "history":[{"messageId":"m-1","contextId":"<uuid>","taskId":"<uuid>","role":"ROLE_USER","parts":[{"text":"ping"}]}]}}})
    );
    assert_eq!(
        seen[1].1,
        json!({"jsonrpc":"2.0","id":"s1","result":{"statusUpdate":{"taskId":"<uuid>","contextId":"<uuid>",
            "status":{"state":"TASK_STATE_WORKING","timestamp":"<timestamp>"}}}})
    );
    assert_eq!(
        seen[2].1,
        json!({"jsonrpc":"2.0","id":"s1","result":{"artifactUpdate":{"taskId":"<uuid>","contextId":"<uuid>",
            "artifact":{"artifactId":"echo","parts":[{"text":"ping"}]}}}})
    );
    assert_eq!(
        seen[3].1,
        json!({"jsonrpc":"2.0","id":"s1","result":{"statusUpdate":{"taskId":"<uuid>","contextId":"<uuid>",
            "status":{"state":"TASK_STATE_COMPLETED","timestamp":"<timestamp>"}}}})
    );
}

#[tokio::test]
async fn streaming_a_direct_reply_is_one_message_event() {
    let server = start(service()).await;
    let body = r#"{"jsonrpc":"2.0","id":9,"method":"SendStreamingMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hello"}]}}}"#;
    let events = Events::new(send(server.addr, rpc_request(body, &[("A2A-Version", "1.0")])).await)
        .collect()
        .await;
    assert_eq!(events.len(), 1);
    let (id, mut data) = events.into_iter().next().unwrap();
    assert_eq!(id, None);
    common::normalize(&mut data);
    assert_eq!(
        data,
        json!({"jsonrpc":"2.0","id":9,"result":{"message":{"messageId":"<uuid>","contextId":"<uuid>","role":"ROLE_AGENT","parts":[{"text":"hi!"}]}}})
    );
}

fn task_id_of(data: &serde_json::Value) -> String {
    data["result"]["task"]["id"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn resume_after_a_dropped_connection_loses_nothing() {
    let gate = Arc::new(Semaphore::new(0));
    let server = start(service_with(gate.clone(), Limits::default())).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"chunks 6"}]}}}"#;
    let mut first =
        Events::new(send(server.addr, rpc_request(body, &[("A2A-Version", "1.0")])).await);
    let (_, task) = first.next().await.unwrap();
    let task_id = task_id_of(&task);
    let (id, working) = first.next().await.unwrap();
    assert_eq!(id.as_deref(), Some("2"));
    assert_eq!(
        working["result"]["statusUpdate"]["status"]["state"],
        "TASK_STATE_WORKING"
    );
    gate.add_permits(2);
    let (id, _) = first.next().await.unwrap();
    assert_eq!(id.as_deref(), Some("3"));
    // The client goes away after event 3; the agent goes on.
    drop(first);
    gate.add_permits(4);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let resume = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"SubscribeToTask","params":{{"id":"{task_id}"}}}}"#
    );
    let events = Events::new(
        send(
            server.addr,
            rpc_request(&resume, &[("A2A-Version", "1.0"), ("Last-Event-ID", "3")]),
        )
        .await,
    )
    .collect()
    .await;
    let ids: Vec<&str> = events
        .iter()
        .map(|(id, _)| id.as_deref().unwrap())
        .collect();
    assert_eq!(ids, ["4", "5", "6", "7", "8", "9"]);
    let texts: Vec<&str> = events[..5]
        .iter()
        .map(|(_, d)| {
            d["result"]["artifactUpdate"]["artifact"]["parts"][0]["text"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert_eq!(texts, ["c1", "c2", "c3", "c4", "c5"]);
    assert_eq!(
        events[5].1["result"]["statusUpdate"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
}

#[tokio::test]
async fn many_subscribers_see_the_same_events_and_a_stalled_one_slows_nobody() {
    let gate = Arc::new(Semaphore::new(0));
    let server = start(service_with(gate.clone(), Limits::default())).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"chunks 50"}]},"configuration":{"returnImmediately":true}}}"#;
    let (_, _, answer) = rpc(server.addr, body).await;
    let task_id =
        serde_json::from_str::<serde_json::Value>(&answer).unwrap()["result"]["task"]["id"]
            .as_str()
            .unwrap()
            .to_owned();
    let subscribe = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"SubscribeToTask","params":{{"id":"{task_id}"}}}}"#
    );
    // One subscriber that never reads its body.
    let _stalled = send(
        server.addr,
        rpc_request(&subscribe, &[("A2A-Version", "1.0")]),
    )
    .await;
    let mut readers = Vec::new();
    for _ in 0..8 {
        let response = send(
            server.addr,
            rpc_request(&subscribe, &[("A2A-Version", "1.0")]),
        )
        .await;
        readers.push(tokio::spawn(Events::new(response).collect()));
    }
    gate.add_permits(50);
    let mut all = Vec::new();
    for reader in readers {
        let events = tokio::time::timeout(Duration::from_secs(10), reader)
            .await
            .unwrap()
            .unwrap();
        // Each reader joined at some point: its ids are consecutive up to the final event.
        let ids: Vec<u64> = events
            .iter()
            .map(|(id, _)| id.as_deref().unwrap().parse().unwrap())
            .collect();
        assert!(ids.windows(2).all(|w| w[1] == w[0] + 1), "{ids:?}");
        assert_eq!(*ids.last().unwrap(), 53);
        all.push(events);
    }
    // Where they overlap, all readers saw identical events.
    let tail =
        |events: &Vec<(Option<String>, serde_json::Value)>| events[events.len() - 10..].to_vec();
    let reference = tail(&all[0]);
    for events in &all[1..] {
        assert_eq!(tail(events), reference);
    }
}

#[tokio::test]
async fn many_clients_at_once() {
    let server = start(service()).await;
    let mut calls = Vec::new();
    for i in 0..64 {
        let addr = server.addr;
        calls.push(tokio::spawn(async move {
            let body = format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":"SendMessage","params":{{"message":{{"messageId":"m{i}","role":"ROLE_USER","parts":[{{"text":"n{i}"}}]}}}}}}"#
            );
            let (_, _, answer) = rpc(addr, &body).await;
            let v: serde_json::Value = serde_json::from_str(&answer).unwrap();
            assert_eq!(v["id"], i);
            assert_eq!(v["result"]["task"]["artifacts"][0]["parts"][0]["text"], format!("n{i}"));
        }));
    }
    for call in calls {
        call.await.unwrap();
    }
    let (_, _, list) = rpc(
        server.addr,
        r#"{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{"pageSize":100}}"#,
    )
    .await;
    let v: serde_json::Value = serde_json::from_str(&list).unwrap();
    assert_eq!(v["result"]["totalSize"], 64);
    assert_eq!(v["result"]["nextPageToken"], "");
    assert_eq!(v["result"]["pageSize"], 100);
    assert!(v["result"]["tasks"][0].get("artifacts").is_none());
    // A larger page is refused, not cut down to 100 (as over HTTP+JSON).
    let (_, _, refused) = rpc(
        server.addr,
        r#"{"jsonrpc":"2.0","id":2,"method":"ListTasks","params":{"pageSize":101}}"#,
    )
    .await;
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&refused).unwrap(),
        serde_json::json!({"jsonrpc":"2.0","id":2,"error":{"code":-32602,
            "message":"invalid params: pageSize must be between 1 and 100, got 101",
            "data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","domain":"a2a-protocol.org","reason":"INVALID_PARAMS"},
                {"@type":"type.googleapis.com/google.rpc.BadRequest",
                 "fieldViolations":[{"field":"pageSize","description":"must be between 1 and 100, got 101"}]}]}})
    );
}

#[tokio::test]
async fn cancel_while_streaming_ends_the_stream_canceled() {
    let server = start(service()).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"wait"}]}}}"#;
    let mut events =
        Events::new(send(server.addr, rpc_request(body, &[("A2A-Version", "1.0")])).await);
    let (_, task) = events.next().await.unwrap();
    let task_id = task_id_of(&task);
    let (_, working) = events.next().await.unwrap();
    assert_eq!(
        working["result"]["statusUpdate"]["status"]["state"],
        "TASK_STATE_WORKING"
    );
    let cancel = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"CancelTask","params":{{"id":"{task_id}"}}}}"#
    );
    let (_, _, answer) = rpc(server.addr, &cancel).await;
    assert_eq!(
        normalized(&answer)["result"]["status"]["state"],
        "TASK_STATE_CANCELED"
    );
    let (_, last) = events.next().await.unwrap();
    assert_eq!(
        last["result"]["statusUpdate"]["status"]["state"],
        "TASK_STATE_CANCELED"
    );
    assert!(events.next().await.is_none());
    // Canceling again is idempotent; canceling a completed task is not possible.
    let (_, _, again) = rpc(server.addr, &cancel).await;
    assert_eq!(
        normalized(&again)["result"]["status"]["state"],
        "TASK_STATE_CANCELED"
    );
}

#[tokio::test]
async fn keep_alive_comments_on_idle_streams() {
    let server = start(service_with(
        Arc::new(Semaphore::new(0)),
        Limits::default().with_keep_alive(Duration::from_millis(50)),
    ))
    .await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"wait"}]}}}"#;
    let mut events = Events::with_comments(
        send(server.addr, rpc_request(body, &[("A2A-Version", "1.0")])).await,
    );
    events.next().await.unwrap();
    events.next().await.unwrap();
    let (id, comment) = events.next().await.unwrap();
    assert_eq!((id, comment), (None, json!(": keep-alive")));
}

#[tokio::test]
async fn connections_closed_half_way_do_not_hurt() {
    use tokio::io::AsyncWriteExt as _;
    let server = start(service()).await;
    for _ in 0..3 {
        let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        stream
            .write_all(b"POST / HTTP/1.1\r\nhost: t\r\na2a-version: 1.0\r\ncontent-length: 500\r\n\r\n{\"jsonrpc\":\"2.0\",")
            .await
            .unwrap();
        drop(stream);
    }
    let (status, _, _) = rpc(server.addr, SEND_PING).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn multi_turn_over_the_wire() {
    let server = start(service()).await;
    let (_, _, first) = rpc(
        server.addr,
        r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"ask"}]}}}"#,
    )
    .await;
    let first: serde_json::Value = serde_json::from_str(&first).unwrap();
    assert_eq!(
        first["result"]["task"]["status"]["state"],
        "TASK_STATE_INPUT_REQUIRED"
    );
    let task_id = first["result"]["task"]["id"].as_str().unwrap();
    let follow = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"SendMessage","params":{{"message":{{"messageId":"m2","taskId":"{task_id}","role":"ROLE_USER","parts":[{{"text":"Paris"}}]}},"configuration":{{"historyLength":1}}}}}}"#
    );
    let (_, _, second) = rpc(server.addr, &follow).await;
    assert_eq!(
        normalized(&second)["result"]["task"]["history"],
        json!([{"messageId":"m2","contextId":"<uuid>","taskId":"<uuid>","role":"ROLE_USER","parts":[{"text":"Paris"}]}])
    );
    assert_eq!(
        normalized(&second)["result"]["task"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
}

#[tokio::test]
async fn tasks_are_scoped_to_their_principal() {
    let agent = agent_fn(|_, sink| async move {
        sink.complete(None).await?;
        Ok(())
    });
    let service = A2aService::builder(agent, card())
        .authenticator(|head: &http::request::Parts| {
            match head.headers.get("x-user").map(|v| v.to_str().unwrap()) {
                Some(user) => Ok(Some(Principal::new(user))),
                None => Err(AuthError::unauthorized("who are you?", "X-User")),
            }
        })
        .build();
    let server = start(service).await;
    let (status, headers, body) = rpc(server.addr, SEND_PING).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(headers["www-authenticate"], "X-User");
    assert_eq!(
        body,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"unauthenticated: who are you?"}}"#
    );
    let (_, _, answer) = rpc_with(
        server.addr,
        SEND_PING,
        &[("A2A-Version", "1.0"), ("X-User", "alice")],
    )
    .await;
    let task_id =
        serde_json::from_str::<serde_json::Value>(&answer).unwrap()["result"]["task"]["id"]
            .as_str()
            .unwrap()
            .to_owned();
    let get =
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{{"id":"{task_id}"}}}}"#);
    let (_, _, as_bob) = rpc_with(
        server.addr,
        &get,
        &[("A2A-Version", "1.0"), ("X-User", "bob")],
    )
    .await;
    assert_eq!(normalized(&as_bob)["error"]["code"], -32001);
    let (_, _, as_alice) = rpc_with(
        server.addr,
        &get,
        &[("A2A-Version", "1.0"), ("X-User", "alice")],
    )
    .await;
    assert_eq!(
        normalized(&as_alice)["result"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
}

#[tokio::test]
async fn batches_answer_in_order_and_refuse_streaming() {
    let server = start(service()).await;
    let (_, _, body) = rpc(
        server.addr,
        r#"[{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"nope"}},
            {"jsonrpc":"2.0","id":2,"method":"SubscribeToTask","params":{"id":"nope"}},
            {"jsonrpc":"2.0","method":"GetTask","params":{"id":"nope"}}]"#,
    )
    .await;
    let v = normalized(&body);
    assert_eq!(v[0]["id"], 1);
    assert_eq!(v[0]["error"]["code"], -32001);
    assert_eq!(
        v[1],
        json!({"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"invalid request: SubscribeToTask streams its answer and cannot be part of a batch"}})
    );
    assert_eq!(v.as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_failing_agent_fails_its_task() {
    let server = start(service()).await;
    let (_, _, body) = rpc(
        server.addr,
        r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"fail"}]}}}"#,
    )
    .await;
    let v = normalized(&body);
    assert_eq!(v["result"]["task"]["status"]["state"], "TASK_STATE_FAILED");
    assert_eq!(
        v["result"]["task"]["status"]["message"]["parts"][0]["text"],
        "it broke"
    );
}
