//! The A2A 1.1 draft over gRPC (task generations, `docs/versions.md`): a caller that sends
//! `a2a-version: 1.1` to a server that serves 1.1 gets `Task.generation` (7) and the events'
//! `generation`, long-polls with `GetTaskRequest.current_generation` and guards a follow-up with
//! `SendMessageConfiguration.if_generation_match`; every other caller gets 1.0's messages. Over
//! a real socket, with the generated tonic client and with a2a-client's gRPC transport.

mod common;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_client::{A2aClient, CallInfo, Interceptor};
use a2a_grpc::client::GrpcTransportFactory;
use a2a_grpc::proto::{self, stream_response::Payload};
use a2a_grpc::server::GrpcConfig;
use a2a_server::HandlerConfig;
use a2a_server::card::Versions;
use a2a_types::v1;
use common::*;
use futures_util::StreamExt as _;
use pretty_assertions::assert_eq;
use tonic::Code;
use tonic_types::StatusExt as _;

/// A tonic request with `a2a-version: 1.1`.
fn v1_1<T>(message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request
        .metadata_mut()
        .insert("a2a-version", "1.1".parse().unwrap());
    request
}

/// The test agent on a server that serves 1.1 (and 1.0, 0.3, 0.1), with `config`.
async fn start_1_1(config: HandlerConfig) -> TestServer {
    start_with(
        card(),
        |b| {
            b.versions(Versions::all().with_v1_1())
                .handler_config(config)
        },
        GrpcConfig::default(),
    )
    .await
}

/// `GetTask` of `id` (history 0) as `request` makes the call.
async fn get(
    server: &TestServer,
    id: &str,
    current_generation: Option<i64>,
    request: fn(proto::GetTaskRequest) -> tonic::Request<proto::GetTaskRequest>,
) -> Result<proto::Task, tonic::Status> {
    let mut client = server.grpc().await;
    client
        .get_task(request(proto::GetTaskRequest {
            id: id.to_owned(),
            history_length: Some(0),
            current_generation,
            ..Default::default()
        }))
        .await
        .map(tonic::Response::into_inner)
}

/// The task without its status timestamp (which differs from call to call).
fn untimed(mut task: proto::Task) -> proto::Task {
    if let Some(status) = &mut task.status {
        status.timestamp = None;
    }
    task
}

/// A send with `return_immediately` and, when given, `if_generation_match`.
fn send_to(
    text: &str,
    task_id: &str,
    if_generation_match: Option<i64>,
) -> proto::SendMessageRequest {
    let mut message = user_text(text);
    message.task_id = task_id.to_owned();
    proto::SendMessageRequest {
        message: Some(message),
        configuration: Some(proto::SendMessageConfiguration {
            return_immediately: true,
            if_generation_match,
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// The card lists `GRPC 1.1` after the JSON-RPC and HTTP+JSON 1.1 interfaces when the server
/// serves 1.1, and no 1.1 interface otherwise.
#[tokio::test]
async fn the_card_lists_grpc_1_1_only_when_served() {
    let listed = |server: &TestServer| -> Vec<String> {
        server
            .service
            .card()
            .supported_interfaces
            .iter()
            .map(|i| {
                format!(
                    "{} {} {}",
                    i.protocol_binding,
                    i.protocol_version,
                    i.url.replace(&server.addr.to_string(), "ADDR")
                )
            })
            .collect()
    };
    let server = start_1_1(HandlerConfig::default()).await;
    assert_eq!(
        listed(&server),
        [
            "JSONRPC 1.0 http://ADDR/",
            "HTTP+JSON 1.0 http://ADDR",
            "GRPC 1.0 ADDR",
            "JSONRPC 1.1 http://ADDR/",
            "HTTP+JSON 1.1 http://ADDR",
            "GRPC 1.1 ADDR",
            "JSONRPC 0.3 http://ADDR/",
            "HTTP+JSON 0.3 http://ADDR",
            "JSONRPC 0.1 http://ADDR/",
        ]
    );
    let server = start().await;
    assert!(
        !listed(&server).iter().any(|i| i.contains(" 1.1 ")),
        "{:?}",
        listed(&server)
    );
}

/// Generations for a 1.1 caller on tasks, stream events and listed tasks; none for a 1.0
/// caller, nor for a 1.1 caller of a server that does not serve 1.1.
#[tokio::test]
async fn generations_are_answered_to_1_1_callers_only() {
    let server = start_1_1(HandlerConfig::default()).await;
    let mut client = server.grpc().await;
    let task = task_of(
        client
            .send_message(v1_1(send("ping")))
            .await
            .unwrap()
            .into_inner(),
    );
    // Created (1), working (2), the artifact (3), completed (4).
    assert_eq!(task.generation, 4);
    let (id, context) = (task.id.clone(), task.context_id.clone());
    let expected = proto::Task {
        id: id.clone(),
        context_id: context.clone(),
        status: Some(proto::TaskStatus {
            state: proto::TaskState::Completed as i32,
            ..Default::default()
        }),
        artifacts: vec![proto::Artifact {
            artifact_id: "echo".into(),
            parts: vec![proto::Part {
                content: Some(proto::part::Content::Text("ping".into())),
                ..Default::default()
            }],
            ..Default::default()
        }],
        generation: 4,
        ..Default::default()
    };
    let got = get(&server, &id, None, v1_1).await.unwrap();
    assert_eq!(untimed(got), expected);
    // A 1.0 caller: the same task without the generation.
    let got = get(&server, &id, None, v1).await.unwrap();
    assert_eq!(
        untimed(got),
        proto::Task {
            generation: 0,
            ..expected.clone()
        }
    );

    // Stream events carry the generation of the change they report.
    let generations = |events: Vec<proto::StreamResponse>| -> Vec<(String, i64)> {
        events
            .into_iter()
            .map(|e| match e.payload.unwrap() {
                Payload::Task(t) => ("task".to_owned(), t.generation),
                Payload::StatusUpdate(u) => ("status".to_owned(), u.generation),
                Payload::ArtifactUpdate(u) => ("artifact".to_owned(), u.generation),
                Payload::Message(_) => ("message".to_owned(), 0),
            })
            .collect()
    };
    let pairs = |p: &[(&str, i64)]| -> Vec<(String, i64)> {
        p.iter().map(|(k, g)| ((*k).to_owned(), *g)).collect()
    };
    let stream = client
        .send_streaming_message(v1_1(send("streamed")))
        .await
        .unwrap()
        .into_inner();
    let events: Vec<_> = stream.map(Result::unwrap).collect().await;
    assert_eq!(
        generations(events),
        pairs(&[("task", 1), ("status", 2), ("artifact", 3), ("status", 4)])
    );
    let stream = client
        .send_streaming_message(v1(send("streamed")))
        .await
        .unwrap()
        .into_inner();
    let events: Vec<_> = stream.map(Result::unwrap).collect().await;
    assert_eq!(
        generations(events),
        pairs(&[("task", 0), ("status", 0), ("artifact", 0), ("status", 0)])
    );
    // A subscription starts with the task at its generation.
    let waiting = task_of(
        client
            .send_message(v1_1(send_to("wait", "", None)))
            .await
            .unwrap()
            .into_inner(),
    );
    let mut subscription = client
        .subscribe_to_task(v1_1(proto::SubscribeToTaskRequest {
            id: waiting.id.clone(),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    let first = subscription.next().await.unwrap().unwrap();
    let Some(Payload::Task(first)) = first.payload else {
        panic!("not a task: {first:?}")
    };
    assert!(first.generation >= 1, "{first:?}");

    // Listed tasks: with generations for 1.1, without for 1.0.
    let list = |request: tonic::Request<proto::ListTasksRequest>| {
        let mut client = client.clone();
        async move {
            let page = client.list_tasks(request).await.unwrap().into_inner();
            let mut found: Vec<i64> = page.tasks.iter().map(|t| t.generation).collect();
            found.sort_unstable();
            found
        }
    };
    let listed = list(v1_1(proto::ListTasksRequest::default())).await;
    assert_eq!(listed.len(), 4);
    assert!(listed.iter().all(|g| *g > 0), "{listed:?}");
    assert_eq!(
        list(v1(proto::ListTasksRequest::default())).await,
        [0, 0, 0, 0]
    );

    // A server that does not serve 1.1 answers a 1.1 caller as 1.0.
    let plain = start().await;
    let mut client = plain.grpc().await;
    let task = task_of(
        client
            .send_message(v1_1(send("ping")))
            .await
            .unwrap()
            .into_inner(),
    );
    assert_eq!(task.generation, 0);
}

/// Long-poll `GetTask` over gRPC: answered at once when the task is past `current_generation`;
/// held until it changes; bounded by `max_long_polls` (`UNAVAILABLE` beyond); ended by the
/// handler's shutdown with the task as it is. A 1.0 caller's `current_generation` is dropped.
#[tokio::test]
async fn long_poll_get_task() {
    let server = start_1_1(HandlerConfig::default().with_max_long_polls(1)).await;
    let mut client = server.grpc().await;
    // `hold`: created (1), working (2), the artifact `before` (3), then it waits for the gate.
    let task = task_of(
        client
            .send_message(v1_1(send_to("hold", "", None)))
            .await
            .unwrap()
            .into_inner(),
    );
    let id = task.id.clone();
    let mut at = task.generation;
    while at < 3 {
        at = get(&server, &id, Some(0), v1_1).await.unwrap().generation;
    }
    assert_eq!(at, 3);
    // Past the generation asked: at once.
    assert_eq!(
        get(&server, &id, Some(2), v1_1).await.unwrap().generation,
        3
    );
    // A 1.0 caller's current_generation is not 1.0's: answered at once, without generation.
    assert_eq!(get(&server, &id, Some(3), v1).await.unwrap().generation, 0);

    // Two polls at generation 3 with room for one: one is held, the other refused.
    let first = tokio::spawn({
        let server_url = server.url();
        let id = id.clone();
        async move { poll(&server_url, &id, 3).await }
    });
    let second = tokio::spawn({
        let server_url = server.url();
        let id = id.clone();
        async move { poll(&server_url, &id, 3).await }
    });
    let (done, held) = match futures_util::future::select(first, second).await {
        futures_util::future::Either::Left(pair) | futures_util::future::Either::Right(pair) => {
            pair
        }
    };
    let refused = done.unwrap().unwrap_err();
    assert_eq!(refused.code(), Code::Unavailable);
    assert_eq!(
        refused.message(),
        "the server holds 1 long polls already (max_long_polls); poll again later"
    );
    // The held poll answers once the task moves on (the artifact `after`, 4, or later).
    server.gate.add_permits(1);
    let woken = held.await.unwrap().unwrap();
    assert!(woken.generation > 3, "{woken:?}");

    // Shutdown ends a held poll: the task as it is (nothing runs on an input-required task,
    // and the poll's own timeout is an hour away).
    let server = start_1_1(
        HandlerConfig::default()
            .with_max_long_polls(1)
            .with_long_poll_timeout(Duration::from_secs(3600)),
    )
    .await;
    let mut client = server.grpc().await;
    let asked = task_of(
        client
            .send_message(v1_1(send("ask")))
            .await
            .unwrap()
            .into_inner(),
    );
    assert_eq!(
        (asked.status.as_ref().unwrap().state(), asked.generation),
        (proto::TaskState::InputRequired, 2)
    );
    // Two polls with room for one: the one not refused is held.
    let start = || {
        let (url, id) = (server.url(), asked.id.clone());
        tokio::spawn(async move { poll(&url, &id, 2).await })
    };
    let (done, held) = match futures_util::future::select(start(), start()).await {
        futures_util::future::Either::Left(pair) | futures_util::future::Either::Right(pair) => {
            pair
        }
    };
    assert_eq!(done.unwrap().unwrap_err().code(), Code::Unavailable);
    server.service.handler().shutdown();
    let ended = held.await.unwrap().unwrap();
    assert_eq!(
        (ended.status.as_ref().unwrap().state(), ended.generation),
        (proto::TaskState::InputRequired, 2)
    );
}

/// A 1.1 `GetTask` of `id` waiting past `seen`, on a connection of its own.
async fn poll(url: &str, id: &str, seen: i64) -> Result<proto::Task, tonic::Status> {
    let channel = tonic::transport::Endpoint::from_shared(url.to_owned())
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut client = proto::a2a_service_client::A2aServiceClient::new(channel);
    client
        .get_task(v1_1(proto::GetTaskRequest {
            id: id.to_owned(),
            history_length: Some(0),
            current_generation: Some(seen),
            ..Default::default()
        }))
        .await
        .map(tonic::Response::into_inner)
}

/// `ifGenerationMatch` over gRPC: a follow-up expecting another generation is `ABORTED` with the
/// `ErrorInfo` reason `TASK_GENERATION_MISMATCH` and metadata naming both generations, and
/// changes nothing (unary and streaming); one expecting the task's generation goes on; a 1.0
/// caller's is dropped.
#[tokio::test]
async fn if_generation_match_mismatch_is_aborted() {
    let server = start_1_1(HandlerConfig::default()).await;
    let mut client = server.grpc().await;
    let asked = task_of(
        client
            .send_message(v1_1(send("ask")))
            .await
            .unwrap()
            .into_inner(),
    );
    assert_eq!(asked.generation, 2);
    let id = asked.id.clone();
    let before = untimed(get(&server, &id, None, v1_1).await.unwrap());

    let refused = client
        .send_message(v1_1(send_to("Paris", &id, Some(1))))
        .await
        .unwrap_err();
    let expected_info = |expected: &str| {
        Some((
            "TASK_GENERATION_MISMATCH".to_owned(),
            "a2a-protocol.org".to_owned(),
            BTreeMap::from([
                ("taskId".to_owned(), id.clone()),
                ("expectedGeneration".to_owned(), expected.to_owned()),
                ("currentGeneration".to_owned(), "2".to_owned()),
            ]),
        ))
    };
    let info = |status: &tonic::Status| {
        status.get_details_error_info().map(|i| {
            (
                i.reason,
                i.domain,
                i.metadata.into_iter().collect::<BTreeMap<_, _>>(),
            )
        })
    };
    assert_eq!(refused.code(), Code::Aborted);
    assert_eq!(
        refused.message(),
        "Task generation mismatch: expected 1 but current generation is 2"
    );
    assert_eq!(info(&refused), expected_info("1"));
    // Streaming: refused before the stream starts.
    let refused = client
        .send_streaming_message(v1_1(send_to("Paris", &id, Some(3))))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Aborted);
    assert_eq!(info(&refused), expected_info("3"));
    // Nothing changed.
    assert_eq!(
        untimed(get(&server, &id, None, v1_1).await.unwrap()),
        before
    );

    // A 1.0 caller's if_generation_match is dropped: its follow-up goes on.
    let went_on = task_of(
        client
            .send_message(v1(send_to("ask", &id, Some(1))))
            .await
            .unwrap()
            .into_inner(),
    );
    assert_eq!(went_on.id, id);
    // The matching generation goes on (the 1.0 follow-up asked again: input-required anew).
    let mut now = get(&server, &id, None, v1_1).await.unwrap();
    while now.status.as_ref().unwrap().state() != proto::TaskState::InputRequired
        || now.generation <= 2
    {
        now = get(&server, &id, Some(now.generation), v1_1).await.unwrap();
    }
    let went_on = task_of(
        client
            .send_message(v1_1(send_to("Paris", &id, Some(now.generation))))
            .await
            .unwrap()
            .into_inner(),
    );
    assert_eq!(went_on.id, id);
}

/// A call as an interceptor saw it: its `a2a-version` and its protobuf body.
type SeenCall = (String, Vec<u8>);

/// What an interceptor saw of each gRPC call.
#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Vec<SeenCall>>>);

impl Interceptor for Seen {
    fn on_request(&self, _call: &CallInfo, request: &mut http::Request<bytes::Bytes>) {
        let version = request
            .headers()
            .get("a2a-version")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        self.0
            .lock()
            .unwrap()
            .push((version, request.body().to_vec()));
    }
}

/// a2a-client over the gRPC transport: a factory with `v1_1(true)` speaks 1.1 to a card's
/// `GRPC 1.1` interface (generations read; `current_generation`, `if_generation_match` sent:
/// the bytes on the wire), and 1.0 to a `GRPC 1.0` one; the default factory never sends them.
#[tokio::test]
async fn the_grpc_transport_speaks_1_1_when_asked_and_offered() {
    let server = start_1_1(HandlerConfig::default()).await;
    let card = server.service.card().clone();
    let only = |version: &str| {
        let mut card = card.clone();
        card.supported_interfaces
            .retain(|i| i.protocol_binding == "GRPC" && i.protocol_version == version);
        assert_eq!(card.supported_interfaces.len(), 1);
        card
    };
    let client = |factory: GrpcTransportFactory, card: v1::AgentCard, seen: &Seen| {
        A2aClient::builder()
            .transport(factory)
            .interceptor(seen.clone())
            .from_card(card)
            .unwrap()
    };
    let get_past = |id: &str, seen: i64| v1::GetTaskRequest::new(id).with_current_generation(seen);

    // 1.1: the generation read, the request's fields written.
    let seen = Seen::default();
    let draft = client(GrpcTransportFactory::new().v1_1(true), only("1.1"), &seen);
    assert_eq!(draft.interface().protocol_version, "1.1");
    let v1::SendMessageResponse::Task(task) = draft
        .send_message(v1::SendMessageRequest::new(v1::Message::user_text("ask")))
        .await
        .unwrap()
    else {
        panic!("not a task")
    };
    assert_eq!(task.generation, 2);
    let id = task.id.to_string();
    let got = draft.get_task(get_past(&id, 1)).await.unwrap();
    assert_eq!(got.generation, 2);
    let follow_up =
        v1::SendMessageRequest::new(v1::Message::user_text("Paris").with_task_id(id.as_str()))
            .with_configuration(
                v1::SendMessageConfiguration::default().with_if_generation_match(1),
            );
    let error = draft.send_message(follow_up.clone()).await.unwrap_err();
    assert_eq!(
        error.code(),
        Some(a2a_jsonrpc::ErrorCode::TASK_GENERATION_MISMATCH)
    );
    let a2a_client::Error::Agent(agent) = &error else {
        panic!("{error:?}")
    };
    assert_eq!(agent.metadata("expectedGeneration"), Some("1"));
    assert_eq!(agent.metadata("currentGeneration"), Some("2"));
    let calls = seen.0.lock().unwrap().clone();
    let get_bytes = [&[0x12, id.len() as u8][..], id.as_bytes(), &[0x20, 1]].concat();
    assert_eq!(calls[1], ("1.1".to_owned(), get_bytes));
    // The follow-up's configuration (field 3 of SendMessageRequest) is `if_generation_match: 1`.
    assert!(
        calls[2].1.ends_with(&[0x1a, 2, 0x28, 1]),
        "{:?}",
        calls[2].1
    );
    assert_eq!(calls[2].0, "1.1");

    // 1.0 (the default factory, or a 1.1 factory handed a 1.0 interface): nothing of 1.1; the
    // current generation is not sent, and a stale ifGenerationMatch is refused by the client
    // before anything is sent (a2a-client's `NoGenerations`: it cannot be honoured in 1.0).
    let stale =
        v1::SendMessageRequest::new(v1::Message::user_text("ask").with_task_id(id.as_str()))
            .with_configuration(
                v1::SendMessageConfiguration::default().with_if_generation_match(1),
            );
    // (A 1.1 factory is not offered a 1.0 interface: a2a-client's negotiation keeps 1.1
    // transports to 1.1 interfaces.)
    {
        let seen = Seen::default();
        let plain = client(GrpcTransportFactory::new(), only("1.0"), &seen);
        assert_eq!(plain.interface().protocol_version, "1.0");
        let got = plain.get_task(get_past(&id, 1)).await.unwrap();
        assert_eq!(got.generation, 0);
        let refused = plain.send_message(stale.clone()).await.unwrap_err();
        assert!(
            matches!(
                &refused,
                a2a_client::Error::NoGenerations { field, version }
                    if *field == "ifGenerationMatch" && *version == "1.0"
            ),
            "{refused:?}"
        );
        let calls = seen.0.lock().unwrap().clone();
        let get_bytes = [&[0x12, id.len() as u8][..], id.as_bytes()].concat();
        assert_eq!(calls, vec![("1.0".to_owned(), get_bytes)]);
    }
}
