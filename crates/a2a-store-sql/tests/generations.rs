//! The A2A 1.1 draft (task generations) on two replicas of one agent on one PostgreSQL schema,
//! each serving JSON-RPC, HTTP+JSON and gRPC on its port: a long-poll `GetTask` held on replica A
//! wakes when replica B changes the task (PostgreSQL `NOTIFY`, not A's poll of the database), and
//! answers at once when the task is already past the generation asked; an `ifGenerationMatch`
//! mismatch on B is -32010 / 409 `ABORTED` / gRPC `ABORTED` with the metadata and changes nothing;
//! of two follow-ups expecting the same generation, sent at once to A and B, exactly one is
//! accepted. PostgreSQL at 127.0.0.1:5432 (`A2A_TEST_POSTGRES_URL` overrides) must be reachable:
//! these tests fail, never skip, without it.
#![cfg(feature = "postgres")]

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use a2a_grpc::proto;
use a2a_server::agent::agent_fn;
use a2a_server::card::Versions;
use a2a_server::{A2aService, HandlerConfig, ServeConfig};
use a2a_store_sql::SqlConfig;
use a2a_types::v1::*;
use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

/// "ask": input required (`where?`); "hold": working, then completed after a permit of the
/// gate.
fn agent(gate: Arc<Semaphore>) -> impl a2a_server::Agent {
    agent_fn(move |ctx, sink| {
        let gate = gate.clone();
        async move {
            match ctx.text().as_str() {
                "ask" => sink.input_required("where?").await?,
                _ => {
                    sink.working(None).await?;
                    gate.acquire().await?.forget();
                    sink.complete(None).await?;
                }
            }
            Ok(())
        }
    })
}

/// One replica serving 1.1 on the schema of `config`, named `name`: its address.
struct Replica {
    addr: SocketAddr,
    _stop: tokio::sync::oneshot::Sender<()>,
}

async fn replica(config: &SqlConfig, name: &str, gate: &Arc<Semaphore>) -> Replica {
    // The database poll an hour away: only NOTIFY wakes a reader in time.
    let store = common::connect(
        config
            .clone()
            .with_replica(name)
            .with_poll_interval(Duration::from_secs(3600)),
    )
    .await;
    let service = A2aService::builder(
        agent(gate.clone()),
        AgentCard::new("generations", "asks", "1.0.0")
            .with_capabilities(AgentCapabilities::default().with_streaming(true)),
    )
    .versions(Versions::all().with_v1_1())
    .handler_config(
        HandlerConfig::default()
            .with_shared_store(true)
            .with_max_long_polls(1)
            .with_long_poll_timeout(Duration::from_secs(3600)),
    )
    .store(store)
    .build();
    let handler = service.handler().clone();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(a2a_server::serve_with_shutdown(
        listener,
        a2a_grpc::server::SharedPort::new(service),
        async move {
            let _ = stopped.await;
        },
        ServeConfig::default()
            .with_shutdown_deadline(Duration::from_millis(200))
            .on_shutdown(move || handler.shutdown()),
    ));
    Replica { addr, _stop: stop }
}

/// Two replicas, A and B, on a schema of the test's own, and the agents' gate.
async fn two_replicas() -> (Replica, Replica, Arc<Semaphore>) {
    let config = common::postgres_config();
    let gate = Arc::new(Semaphore::new(0));
    let a = replica(&config, "a", &gate).await;
    let b = replica(&config, "b", &gate).await;
    (a, b, gate)
}

/// One request on a fresh HTTP/1.1 connection: status and JSON body.
async fn http(addr: SocketAddr, request: http::Request<Full<Bytes>>) -> (u16, Value) {
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(conn);
    let response = sender.send_request(request).await.unwrap();
    let (head, body) = response.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    (
        head.status.as_u16(),
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// A JSON-RPC call with `A2A-Version: 1.1`: the whole response.
async fn rpc(addr: SocketAddr, method: &str, params: Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let request = http::Request::post("/")
        .header("host", "test")
        .header("content-type", "application/json")
        .header("a2a-version", "1.1")
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap();
    http(addr, request).await.1
}

/// `SendMessage` of `text` (to `task`, expecting `generation`), returning at once.
fn send_params(text: &str, id: &str, task: Option<&str>, generation: Option<i64>) -> Value {
    let mut message = json!({"messageId": id, "role": "ROLE_USER", "parts": [{"text": text}]});
    if let Some(task) = task {
        message["taskId"] = json!(task);
    }
    let mut configuration = json!({"returnImmediately": true});
    if let Some(generation) = generation {
        configuration["ifGenerationMatch"] = json!(generation.to_string());
    }
    json!({"message": message, "configuration": configuration})
}

/// The generation of a task in JSON.
fn generation(task: &Value) -> i64 {
    task["generation"].as_str().unwrap().parse().unwrap()
}

/// `GetTask` of `id` on `addr` over JSON-RPC 1.1, waiting past `seen` when given.
async fn get(addr: SocketAddr, id: &str, seen: Option<i64>) -> Value {
    let mut params = json!({"id": id, "historyLength": 10});
    if let Some(seen) = seen {
        params["currentGeneration"] = json!(seen.to_string());
    }
    rpc(addr, "GetTask", params).await
}

/// A gRPC client of `addr`.
async fn grpc(
    addr: SocketAddr,
) -> proto::a2a_service_client::A2aServiceClient<tonic::transport::Channel> {
    let channel = tonic::transport::Endpoint::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    proto::a2a_service_client::A2aServiceClient::new(channel)
}

/// A gRPC 1.1 request.
fn v1_1<T>(message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request
        .metadata_mut()
        .insert("a2a-version", "1.1".parse().unwrap());
    request
}

/// A long poll that a replica (`max_long_polls` 1) holds: two begun by `start` at once, one
/// refused for want of a place (`None`), the other held: its handle.
async fn held<T: Send + 'static>(
    start: impl Fn() -> tokio::task::JoinHandle<Option<T>>,
) -> tokio::task::JoinHandle<Option<T>> {
    match futures_util::future::select(start(), start()).await {
        futures_util::future::Either::Left((done, held))
        | futures_util::future::Either::Right((done, held)) => {
            assert!(done.unwrap().is_none(), "one of two polls is refused");
            held
        }
    }
}

/// How long a woken poll may take: far below the hour of the database poll and of the long
/// poll's own timeout, so an answer within it was woken by NOTIFY.
const WOKEN: Duration = Duration::from_secs(30);

/// A long poll held on A (JSON-RPC, then gRPC) wakes when B changes the task; a poll behind
/// the task answers at once, on either replica.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_poll_on_one_replica_wakes_when_the_other_changes_the_task() {
    let (a, b, gate) = two_replicas().await;
    let sent = rpc(a.addr, "SendMessage", send_params("ask", "m-1", None, None)).await;
    let id = sent["result"]["task"]["id"].as_str().unwrap().to_owned();
    // Created (1), input required (2).
    let mut task = get(b.addr, &id, Some(0)).await["result"].clone();
    while generation(&task) < 2 {
        task = get(b.addr, &id, Some(generation(&task))).await["result"].clone();
    }
    assert_eq!(task["status"]["state"], "TASK_STATE_INPUT_REQUIRED");
    // Behind: at once, on both.
    for replica in [&a, &b] {
        let now = get(replica.addr, &id, Some(1)).await;
        assert_eq!(generation(&now["result"]), 2, "{now}");
    }

    // A JSON-RPC long poll held on A; B takes the follow-up `hold` (working: 3).
    let poll = held(|| {
        let (addr, id) = (a.addr, id.clone());
        tokio::spawn(async move {
            let answer = get(addr, &id, Some(2)).await;
            (answer["error"]["code"] != -32603).then_some(answer)
        })
    })
    .await;
    let followed = rpc(
        b.addr,
        "SendMessage",
        send_params("hold", "m-2", Some(&id), None),
    )
    .await;
    assert_eq!(followed["result"]["task"]["id"], id.as_str(), "{followed}");
    let woken = tokio::time::timeout(WOKEN, poll)
        .await
        .expect("woken by NOTIFY")
        .unwrap()
        .unwrap();
    assert!(generation(&woken["result"]) > 2, "{woken}");
    let seen = generation(&woken["result"]);

    // A gRPC long poll held on A; the agent on B completes.
    let mut task = get(b.addr, &id, None).await["result"].clone();
    while task["status"]["state"] != "TASK_STATE_WORKING" {
        task = get(b.addr, &id, Some(generation(&task))).await["result"].clone();
    }
    let seen = seen.max(generation(&task));
    let poll = held(|| {
        let (addr, id) = (a.addr, id.clone());
        tokio::spawn(async move {
            let mut client = grpc(addr).await;
            let answer = client
                .get_task(v1_1(proto::GetTaskRequest {
                    id,
                    current_generation: Some(seen),
                    ..Default::default()
                }))
                .await;
            match answer {
                Ok(task) => Some(task.into_inner()),
                Err(status) if status.code() == tonic::Code::Unavailable => None,
                Err(status) => panic!("{status:?}"),
            }
        })
    })
    .await;
    gate.add_permits(1);
    let woken = tokio::time::timeout(WOKEN, poll)
        .await
        .expect("woken by NOTIFY")
        .unwrap()
        .unwrap();
    assert_eq!(woken.generation, seen + 1);
    assert_eq!(woken.status.unwrap().state(), proto::TaskState::Completed);
}

/// An `ifGenerationMatch` that is not the task's generation, sent to the replica that did not
/// create the task, is refused on every binding with the generations in the metadata, and the
/// task is unchanged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generation_mismatch_on_the_other_replica_changes_nothing() {
    let (a, b, _gate) = two_replicas().await;
    let sent = rpc(a.addr, "SendMessage", send_params("ask", "m-1", None, None)).await;
    let id = sent["result"]["task"]["id"].as_str().unwrap().to_owned();
    let mut before = get(b.addr, &id, Some(0)).await["result"].clone();
    while generation(&before) < 2 {
        before = get(b.addr, &id, Some(generation(&before))).await["result"].clone();
    }
    let metadata = |expected: &str| json!({"taskId": id, "expectedGeneration": expected, "currentGeneration": "2"});

    // JSON-RPC.
    let refused = rpc(
        b.addr,
        "SendMessage",
        send_params("Paris", "m-2", Some(&id), Some(1)),
    )
    .await;
    assert_eq!(
        refused,
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32010,
            "message": "Task generation mismatch: expected 1 but current generation is 2",
            "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "TASK_GENERATION_MISMATCH", "domain": "a2a-protocol.org",
                "metadata": metadata("1")}]}})
    );
    // HTTP+JSON: 409, ABORTED.
    let request = http::Request::post("/message:send")
        .header("host", "test")
        .header("content-type", "application/json")
        .header("a2a-version", "1.1")
        .body(Full::new(Bytes::from(
            send_params("Paris", "m-3", Some(&id), Some(3)).to_string(),
        )))
        .unwrap();
    assert_eq!(
        http(b.addr, request).await,
        (
            409,
            json!({"error": {"code": 409, "status": "ABORTED",
                "message": "Task generation mismatch: expected 3 but current generation is 2",
                "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                    "reason": "TASK_GENERATION_MISMATCH", "domain": "a2a-protocol.org",
                    "metadata": metadata("3")}]}})
        )
    );
    // gRPC: ABORTED.
    let mut client = grpc(b.addr).await;
    let status = client
        .send_message(v1_1(proto::SendMessageRequest {
            message: Some(proto::Message {
                message_id: "m-4".into(),
                task_id: id.clone(),
                role: proto::Role::User as i32,
                parts: vec![proto::Part {
                    content: Some(proto::part::Content::Text("Paris".into())),
                    ..Default::default()
                }],
                ..Default::default()
            }),
            configuration: Some(proto::SendMessageConfiguration {
                return_immediately: true,
                if_generation_match: Some(0),
                ..Default::default()
            }),
            ..Default::default()
        }))
        .await
        .unwrap_err();
    assert_eq!(status.code(), tonic::Code::Aborted);
    let error = a2a_grpc::status::from_status(&status).unwrap();
    assert_eq!(error.code().0, -32010);
    for (key, value) in [
        ("taskId", id.as_str()),
        ("expectedGeneration", "0"),
        ("currentGeneration", "2"),
    ] {
        assert_eq!(error.metadata(key), Some(value), "{key}");
    }
    // Nothing changed, as either replica reads it.
    for replica in [&a, &b] {
        let mut after = get(replica.addr, &id, None).await["result"].clone();
        after["status"]["timestamp"] = Value::Null;
        let mut expected = before.clone();
        expected["status"]["timestamp"] = Value::Null;
        assert_eq!(after, expected);
    }
}

/// Two follow-ups expecting the same generation, sent at once to A and to B: exactly one is
/// accepted (its acceptance moves the interrupted task to WORKING, a generation on, in the
/// update that records it); the other is refused with -32010 naming a later generation, and
/// its message is not in the task. Several rounds, each from the generation the last left.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn of_two_follow_ups_expecting_the_same_generation_exactly_one_wins() {
    let (a, b, _gate) = two_replicas().await;
    let sent = rpc(a.addr, "SendMessage", send_params("ask", "m-0", None, None)).await;
    let id = sent["result"]["task"]["id"].as_str().unwrap().to_owned();
    // The task as it asks for input, at its generation.
    let asking = async |after: i64| {
        let mut task = get(a.addr, &id, Some(after)).await["result"].clone();
        while task["status"]["state"] != "TASK_STATE_INPUT_REQUIRED" || generation(&task) <= after {
            task = get(a.addr, &id, Some(generation(&task))).await["result"].clone();
        }
        task
    };
    let mut task = asking(1).await;
    for round in 0..5 {
        let at = generation(&task);
        let (ida, idb) = (format!("a-{round}"), format!("b-{round}"));
        let (on_a, on_b) = tokio::join!(
            rpc(
                a.addr,
                "SendMessage",
                send_params("ask", &ida, Some(&id), Some(at))
            ),
            rpc(
                b.addr,
                "SendMessage",
                send_params("ask", &idb, Some(&id), Some(at))
            ),
        );
        let (won, lost, winner, loser) = match (on_a.get("result"), on_b.get("result")) {
            (Some(_), None) => (&on_a, &on_b, &ida, &idb),
            (None, Some(_)) => (&on_b, &on_a, &idb, &ida),
            _ => panic!("round {round}: not exactly one accepted:\n{on_a}\n{on_b}"),
        };
        assert_eq!(won["result"]["task"]["id"], id.as_str());
        assert_eq!(lost["error"]["code"], -32010, "{lost}");
        let metadata = &lost["error"]["data"][0]["metadata"];
        assert_eq!(metadata["expectedGeneration"], at.to_string());
        let current: i64 = metadata["currentGeneration"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!(current > at, "{lost}");
        // The winner's turn ends asking again; the loser's message is nowhere.
        task = asking(at).await;
        let ids: Vec<&str> = task["history"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m["messageId"].as_str())
            .collect();
        assert!(ids.contains(&winner.as_str()), "{ids:?}");
        assert!(!ids.contains(&loser.as_str()), "{ids:?}");
    }
}
