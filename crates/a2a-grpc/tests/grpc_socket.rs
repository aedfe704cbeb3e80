//! The gRPC binding over a real socket (127.0.0.1:0), sharing the port with JSON-RPC and REST:
//! every rpc, every error code, streams (a stalled reader, a dropped stream resumed), deadlines
//! and limits, with the generated tonic client.

mod common;

use std::time::Duration;

use a2a_grpc::proto::{self, stream_response::Payload};
use a2a_grpc::server::GrpcConfig;
use a2a_server::Limits;
use a2a_server::auth::{AuthError, AuthFuture, Authenticator, Principal};
use common::*;
use futures_util::StreamExt as _;
use pretty_assertions::assert_eq;
use tonic::Code;

/// The kind of each event of a stream, with what identifies it.
fn kinds(events: &[proto::StreamResponse]) -> Vec<String> {
    events
        .iter()
        .map(|e| match e.payload.as_ref().unwrap() {
            Payload::Task(t) => {
                format!("task {}", t.status.as_ref().unwrap().state().as_str_name())
            }
            Payload::Message(m) => format!("message {}", m.message_id.len()),
            Payload::StatusUpdate(u) => {
                format!(
                    "status {}",
                    u.status.as_ref().unwrap().state().as_str_name()
                )
            }
            Payload::ArtifactUpdate(u) => {
                format!("artifact {}", u.artifact.as_ref().unwrap().artifact_id)
            }
        })
        .collect()
}

/// `GetTask` of `id` without history.
async fn task_now(
    client: &mut a2a_grpc::proto::a2a_service_client::A2aServiceClient<tonic::transport::Channel>,
    id: &str,
) -> proto::Task {
    client
        .get_task(v1(proto::GetTaskRequest {
            id: id.to_owned(),
            history_length: Some(0),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner()
}

async fn collect(stream: tonic::Streaming<proto::StreamResponse>) -> Vec<proto::StreamResponse> {
    stream.map(|e| e.unwrap()).collect().await
}

/// The eleven rpcs in turn, each mapped by the server onto `RequestHandler::call` or `open`.
#[tokio::test]
async fn every_rpc_over_a_socket() {
    let server = start().await;
    let mut client = server.grpc().await;

    // SendMessage: blocking, answered with the completed task.
    let task = task_of(
        client
            .send_message(v1(send("ping")))
            .await
            .unwrap()
            .into_inner(),
    );
    assert_eq!(
        task.status.as_ref().unwrap().state(),
        proto::TaskState::Completed
    );
    assert_eq!(task.artifacts[0].artifact_id, "echo");
    assert_eq!(
        task.artifacts[0].parts[0].content,
        Some(proto::part::Content::Text("ping".into()))
    );
    // A direct reply.
    let reply = client
        .send_message(v1(send("hello")))
        .await
        .unwrap()
        .into_inner();
    let Some(proto::send_message_response::Payload::Message(reply)) = reply.payload else {
        panic!("not a message: {reply:?}");
    };
    assert_eq!(reply.role(), proto::Role::Agent);

    // SendStreamingMessage: the task, its events, the end.
    let stream = client
        .send_streaming_message(v1(send("streamed")))
        .await
        .unwrap()
        .into_inner();
    let events = collect(stream).await;
    assert_eq!(
        kinds(&events),
        [
            "task TASK_STATE_SUBMITTED",
            "status TASK_STATE_WORKING",
            "artifact echo",
            "status TASK_STATE_COMPLETED"
        ]
    );

    // GetTask, with and without history.
    let got = task_now(&mut client, &task.id).await;
    assert_eq!(got.id, task.id);
    assert!(got.history.is_empty());

    // ListTasks: all four fields.
    let page = client
        .list_tasks(v1(proto::ListTasksRequest {
            page_size: Some(1),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (page.tasks.len(), page.page_size, page.total_size),
        (1, 1, 2)
    );
    assert!(!page.next_page_token.is_empty());

    // CancelTask of a waiting task; SubscribeToTask of a working one first.
    let waiting = task_of(
        client
            .send_message(v1(proto::SendMessageRequest {
                configuration: Some(proto::SendMessageConfiguration {
                    return_immediately: true,
                    ..Default::default()
                }),
                ..send("wait")
            }))
            .await
            .unwrap()
            .into_inner(),
    );
    let mut subscribed = client
        .subscribe_to_task(v1(proto::SubscribeToTaskRequest {
            id: waiting.id.clone(),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    let first = subscribed.next().await.unwrap().unwrap();
    assert!(matches!(first.payload, Some(Payload::Task(ref t)) if t.id == waiting.id));
    let canceled = client
        .cancel_task(v1(proto::CancelTaskRequest {
            id: waiting.id.clone(),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(canceled.status.unwrap().state(), proto::TaskState::Canceled);
    // The subscription sees the task end, and ends.
    let rest = collect(subscribed).await;
    assert_eq!(kinds(&rest).last().unwrap(), "status TASK_STATE_CANCELED");

    // Push notification configs: create, get, list, delete.
    let created = client
        .create_task_push_notification_config(v1(proto::TaskPushNotificationConfig {
            task_id: task.id.clone(),
            url: "https://hooks.example.com/a2a".into(),
            token: "tok".into(),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert!(!created.id.is_empty());
    assert_eq!(created.url, "https://hooks.example.com/a2a");
    let fetched = client
        .get_task_push_notification_config(v1(proto::GetTaskPushNotificationConfigRequest {
            task_id: task.id.clone(),
            id: created.id.clone(),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(fetched, created);
    let listed = client
        .list_task_push_notification_configs(v1(proto::ListTaskPushNotificationConfigsRequest {
            task_id: task.id.clone(),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.configs, std::slice::from_ref(&created));
    client
        .delete_task_push_notification_config(v1(proto::DeleteTaskPushNotificationConfigRequest {
            task_id: task.id.clone(),
            id: created.id.clone(),
            ..Default::default()
        }))
        .await
        .unwrap();
    let listed = client
        .list_task_push_notification_configs(v1(proto::ListTaskPushNotificationConfigsRequest {
            task_id: task.id.clone(),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert!(listed.configs.is_empty());

    // GetExtendedAgentCard.
    let card = client
        .get_extended_agent_card(v1(proto::GetExtendedAgentCardRequest::default()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(card.description, "The extended card");
}

/// Each error of the catalogue that a call can run into, with its gRPC code and `ErrorInfo`.
#[tokio::test]
async fn every_error_code() {
    let server = start().await;
    let mut client = server.grpc().await;
    fn check<T>(result: Result<T, tonic::Status>, code: Code, why: &str) -> String {
        let Err(status) = result else {
            panic!("{why}: no error")
        };
        assert_eq!(status.code(), code, "{why}: {status:?}");
        assert!(!status.message().is_empty(), "{why}");
        reason(&status)
    }

    // Without a2a-version: the request speaks 0.3.
    let no_version = client
        .get_task(tonic::Request::new(proto::GetTaskRequest {
            id: "t".into(),
            ..Default::default()
        }))
        .await;
    assert_eq!(
        check(no_version, Code::FailedPrecondition, "no version"),
        "VERSION_NOT_SUPPORTED"
    );
    let mut v2 = v1(proto::GetTaskRequest::default());
    v2.metadata_mut()
        .insert("a2a-version", "2.0".parse().unwrap());
    assert_eq!(
        check(client.get_task(v2).await, Code::FailedPrecondition, "2.0"),
        "VERSION_NOT_SUPPORTED"
    );

    let missing = client
        .get_task(v1(proto::GetTaskRequest {
            id: "nope".into(),
            ..Default::default()
        }))
        .await;
    assert_eq!(
        check(missing, Code::NotFound, "unknown task"),
        "TASK_NOT_FOUND"
    );

    let done = task_of(
        client
            .send_message(v1(send("x")))
            .await
            .unwrap()
            .into_inner(),
    );
    let not_cancelable = client
        .cancel_task(v1(proto::CancelTaskRequest {
            id: done.id.clone(),
            ..Default::default()
        }))
        .await;
    assert_eq!(
        check(not_cancelable, Code::FailedPrecondition, "completed task"),
        "TASK_NOT_CANCELABLE"
    );
    let terminal = client
        .subscribe_to_task(v1(proto::SubscribeToTaskRequest {
            id: done.id.clone(),
            ..Default::default()
        }))
        .await;
    assert_eq!(
        check(
            terminal,
            Code::FailedPrecondition,
            "subscribe to a completed task"
        ),
        "UNSUPPORTED_OPERATION"
    );

    let mut image = send("x");
    image.message.as_mut().unwrap().parts[0].media_type = "image/png".into();
    assert_eq!(
        check(
            client.send_message(v1(image)).await,
            Code::InvalidArgument,
            "image part"
        ),
        "CONTENT_TYPE_NOT_SUPPORTED"
    );

    let negative = client
        .get_task(v1(proto::GetTaskRequest {
            id: done.id.clone(),
            history_length: Some(-1),
            ..Default::default()
        }))
        .await;
    assert_eq!(
        check(negative, Code::InvalidArgument, "negative history"),
        "INVALID_PARAMS"
    );
    // A request message without its required message: INVALID_ARGUMENT naming the field.
    let empty = client
        .send_message(v1(proto::SendMessageRequest::default()))
        .await;
    let status = empty.as_ref().err().unwrap().clone();
    assert_eq!(
        check(empty, Code::InvalidArgument, "no message"),
        "INVALID_PARAMS"
    );
    assert_eq!(
        status.message(),
        "invalid params: SendMessageRequest.message is required but absent"
    );

    // An agent without push notifications, requiring an extension, with an extended card it
    // does not have.
    let strict = start_with(
        card().with_capabilities(
            a2a_types::v1::AgentCapabilities::default()
                .with_streaming(true)
                .with_extended_agent_card(true)
                .with_extensions([
                    a2a_types::v1::AgentExtension::new("urn:need").with_required(true)
                ]),
        ),
        |b| b,
        GrpcConfig::default(),
    )
    .await;
    let mut strict_client = strict.grpc().await;
    let mut with_extension = v1(proto::GetTaskRequest {
        id: "t".into(),
        ..Default::default()
    });
    with_extension
        .metadata_mut()
        .insert("a2a-extensions", "urn:need".parse().unwrap());
    assert_eq!(
        check(
            strict_client.send_message(v1(send("x"))).await,
            Code::FailedPrecondition,
            "required extension"
        ),
        "EXTENSION_SUPPORT_REQUIRED"
    );
    let mut push = v1(proto::TaskPushNotificationConfig {
        task_id: "t".into(),
        url: "https://h".into(),
        ..Default::default()
    });
    push.metadata_mut()
        .insert("a2a-extensions", "urn:need".parse().unwrap());
    assert_eq!(
        check(
            strict_client
                .create_task_push_notification_config(push)
                .await,
            Code::FailedPrecondition,
            "push"
        ),
        "PUSH_NOTIFICATION_NOT_SUPPORTED"
    );
    let mut extended = v1(proto::GetExtendedAgentCardRequest::default());
    extended
        .metadata_mut()
        .insert("a2a-extensions", "urn:need".parse().unwrap());
    assert_eq!(
        check(
            strict_client.get_extended_agent_card(extended).await,
            Code::FailedPrecondition,
            "extended card"
        ),
        "EXTENDED_AGENT_CARD_NOT_CONFIGURED"
    );

    // An authenticator that refuses: UNAUTHENTICATED, before anything runs.
    struct Refuse;
    impl Authenticator for Refuse {
        fn authenticate<'a>(&'a self, head: &'a http::request::Parts) -> AuthFuture<'a> {
            Box::pin(async move {
                tokio::task::yield_now().await;
                match head.headers.get("authorization") {
                    Some(v) if v == "Bearer good" => Ok(Some(Principal::new("alice"))),
                    _ => Err(AuthError::unauthorized("no credentials", "Bearer")),
                }
            })
        }
    }
    let guarded = start_with(card(), |b| b.authenticator(Refuse), GrpcConfig::default()).await;
    let mut guarded_client = guarded.grpc().await;
    let refused = guarded_client.send_message(v1(send("x"))).await;
    assert_eq!(
        check(
            refused,
            Code::Unauthenticated,
            "unauthenticated: no credentials"
        ),
        "INVALID_REQUEST"
    );
    let mut allowed = v1(send("x"));
    allowed
        .metadata_mut()
        .insert("authorization", "Bearer good".parse().unwrap());
    let task = task_of(
        guarded_client
            .send_message(allowed)
            .await
            .unwrap()
            .into_inner(),
    );
    // The task is alice's: another caller does not see it.
    let mut other = v1(proto::GetTaskRequest {
        id: task.id,
        ..Default::default()
    });
    other
        .metadata_mut()
        .insert("authorization", "Bearer good".parse().unwrap());
    assert!(guarded_client.get_task(other).await.is_ok());
}

/// A reader that reads nothing while the agent produces far more than the HTTP/2 windows hold
/// gets every event afterwards, in order.
#[tokio::test]
async fn a_stalled_reader_loses_nothing() {
    let server = start().await;
    let mut client = server.grpc().await;
    let mut stream = client
        .send_streaming_message(v1(send("burst 200")))
        .await
        .unwrap()
        .into_inner();
    let first = stream.next().await.unwrap().unwrap();
    let Some(Payload::Task(task)) = first.payload else {
        panic!("not a task first");
    };
    // Meanwhile (the stream unread), the agent finishes: 200 chunks of 4 KiB.
    let mut reader = server.grpc().await;
    loop {
        let now = task_now(&mut reader, &task.id).await;
        if now.status.unwrap().state() == proto::TaskState::Completed {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let rest = collect(stream).await;
    let mut expected = vec!["status TASK_STATE_WORKING".to_owned()];
    expected.extend((0..200).map(|i| format!("artifact burst-{i}")));
    expected.push("status TASK_STATE_COMPLETED".to_owned());
    assert_eq!(kinds(&rest), expected);
}

/// A stream dropped mid-task is picked up with SubscribeToTask: the task as it is, then the
/// events that follow.
#[tokio::test]
async fn a_dropped_stream_is_resumed_with_subscribe_to_task() {
    let server = start().await;
    let mut client = server.grpc().await;
    let mut stream = client
        .send_streaming_message(v1(send("hold")))
        .await
        .unwrap()
        .into_inner();
    let mut seen = Vec::new();
    while seen.len() < 3 {
        seen.push(stream.next().await.unwrap().unwrap());
    }
    assert_eq!(
        kinds(&seen),
        [
            "task TASK_STATE_SUBMITTED",
            "status TASK_STATE_WORKING",
            "artifact before"
        ]
    );
    let Some(Payload::Task(task)) = &seen[0].payload else {
        unreachable!()
    };
    drop(stream);
    let mut resumed = client
        .subscribe_to_task(v1(proto::SubscribeToTaskRequest {
            id: task.id.clone(),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    let snapshot = resumed.next().await.unwrap().unwrap();
    let Some(Payload::Task(now)) = snapshot.payload else {
        panic!("not the task first");
    };
    assert_eq!(now.status.unwrap().state(), proto::TaskState::Working);
    assert_eq!(now.artifacts[0].artifact_id, "before");
    server.gate.add_permits(1);
    let rest = collect(resumed).await;
    assert_eq!(
        kinds(&rest),
        ["artifact after", "status TASK_STATE_COMPLETED"]
    );
}

/// A gRPC request to `rpc` carrying `message`, with `a2a-version: 1.0` and this `grpc-timeout`,
/// as an HTTP/2 request (the tonic client would enforce the timeout itself, before the server).
fn raw_call(rpc: &str, message: &impl prost::Message, timeout: &str) -> http::Request<String> {
    let body = message.encode_to_vec();
    let mut framed = vec![0u8];
    framed.extend_from_slice(&u32::try_from(body.len()).unwrap().to_be_bytes());
    framed.extend_from_slice(&body);
    http::Request::post(format!("/lf.a2a.v1.A2AService/{rpc}"))
        .version(http::Version::HTTP_2)
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .header("a2a-version", "1.0")
        .header("grpc-timeout", timeout)
        .body(String::from_utf8(framed).unwrap_or_default())
        .unwrap()
}

/// The `grpc-status` of an answer: in its head (trailers-only) or its trailers.
async fn grpc_status(response: http::Response<a2a_grpc::server::SharedBody>) -> String {
    use http_body_util::BodyExt as _;
    if let Some(status) = response.headers().get("grpc-status") {
        return status.to_str().unwrap().to_owned();
    }
    let collected = response.into_body().collect().await.unwrap();
    collected.trailers().unwrap()["grpc-status"]
        .to_str()
        .unwrap()
        .to_owned()
}

/// The server ends a call at its `grpc-timeout`: a unary call, and a stream after its first
/// events.
#[tokio::test]
async fn deadlines_end_calls_and_streams() {
    use tower_service::Service as _;
    let server = start().await;
    let mut shared = a2a_grpc::server::SharedPort::new(server.service.clone());
    // `hold` waits for the gate, which never opens: 4 is DEADLINE_EXCEEDED.
    let unary = shared
        .call(raw_call("SendMessage", &send("hold"), "50m"))
        .await
        .unwrap();
    assert_eq!(grpc_status(unary).await, "4");
    let stream = shared
        .call(raw_call("SendStreamingMessage", &send("hold"), "50m"))
        .await
        .unwrap();
    assert_eq!(stream.headers()["content-type"], "application/grpc");
    assert_eq!(grpc_status(stream).await, "4");
}

/// Streams count against the service's stream limit (shared with SSE); a client that goes away
/// gives its place back.
#[tokio::test]
async fn the_stream_limit_and_a_client_that_goes_away() {
    let server = start_with(
        card(),
        |b| b.limits(Limits::default().with_max_streams(1)),
        GrpcConfig::default(),
    )
    .await;
    let mut client = server.grpc().await;
    let mut first = client
        .send_streaming_message(v1(send("hold")))
        .await
        .unwrap()
        .into_inner();
    first.next().await.unwrap().unwrap();
    let refused = client
        .send_streaming_message(v1(send("x")))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unavailable, "{refused:?}");
    assert!(
        refused.message().contains("too many open streams"),
        "{refused:?}"
    );
    // Nothing started: one task only.
    let page = client
        .list_tasks(v1(proto::ListTasksRequest::default()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(page.total_size, 1);
    // The first client goes away: its stream ends on the server, which frees the place.
    drop(first);
    let mut attempts = 0;
    let stream = loop {
        match client.send_streaming_message(v1(send("x"))).await {
            Ok(stream) => break stream.into_inner(),
            Err(status) if status.code() == Code::Unavailable && attempts < 500 => {
                attempts += 1;
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            Err(status) => panic!("the place was not given back: {status:?}"),
        }
    };
    let events = collect(stream).await;
    assert_eq!(
        kinds(&events).last().unwrap(),
        "status TASK_STATE_COMPLETED"
    );
}

#[tokio::test]
async fn message_size_limits() {
    let server = start_with(
        card(),
        |b| b,
        GrpcConfig::default()
            .with_max_decoding_message_size(1024)
            .with_max_encoding_message_size(16 * 1024),
    )
    .await;
    let mut client = server.grpc().await;
    let big = "y".repeat(2048);
    let status = client.send_message(v1(send(&big))).await.unwrap_err();
    assert_eq!(status.code(), Code::OutOfRange, "{status:?}");
    // An answer over the encoding limit: 8 chunks of 4 KiB in one task.
    let status = client.send_message(v1(send("burst 8"))).await.unwrap_err();
    assert_eq!(status.code(), Code::OutOfRange, "{status:?}");
}

/// The tenant of a request message scopes the call, as the JSON bindings' `tenant` does.
#[tokio::test]
async fn the_tenant_scopes_the_call() {
    let server = start().await;
    let mut client = server.grpc().await;
    let task = task_of(
        client
            .send_message(v1(proto::SendMessageRequest {
                tenant: "acme".into(),
                ..send("x")
            }))
            .await
            .unwrap()
            .into_inner(),
    );
    let elsewhere = client
        .get_task(v1(proto::GetTaskRequest {
            id: task.id.clone(),
            ..Default::default()
        }))
        .await
        .unwrap_err();
    assert_eq!(elsewhere.code(), Code::NotFound);
    let here = client
        .get_task(v1(proto::GetTaskRequest {
            id: task.id.clone(),
            tenant: "acme".into(),
            ..Default::default()
        }))
        .await
        .unwrap();
    assert_eq!(here.into_inner().id, task.id);
}

/// The leak matrix over gRPC: Alice cannot read, cancel, subscribe to, list, continue or touch
/// the push configs of Bob's task; every answer is `NOT_FOUND` (`TASK_NOT_FOUND`), as for a
/// task that does not exist.
#[tokio::test]
async fn alice_cannot_reach_bobs_tasks_over_grpc() {
    use a2a_server::auth::{ApiKeyAuthenticator, ApiKeyLocation};
    let keys = ApiKeyAuthenticator::new(ApiKeyLocation::Header, "x-api-key")
        .key("k-alice", Principal::new("alice"))
        .key("k-bob", Principal::new("bob"));
    let server = start_with(
        card(),
        |b| {
            b.push(a2a_server::push::PushSettings::default().allow("127.0.0.1/32".parse().unwrap()))
                .authenticator(keys)
        },
        GrpcConfig::default(),
    )
    .await;
    let mut client = server.grpc().await;
    fn as_<T>(key: &str, message: T) -> tonic::Request<T> {
        let mut request = v1(message);
        request
            .metadata_mut()
            .insert("x-api-key", key.parse().unwrap());
        request
    }
    let mut wait = send("wait");
    wait.configuration = Some(proto::SendMessageConfiguration {
        return_immediately: true,
        ..Default::default()
    });
    let task = task_of(
        client
            .send_message(as_("k-bob", wait))
            .await
            .unwrap()
            .into_inner(),
    );
    let config = proto::TaskPushNotificationConfig {
        task_id: task.id.clone(),
        id: "c-1".into(),
        url: "http://127.0.0.1:9/hook".into(),
        ..Default::default()
    };
    client
        .create_task_push_notification_config(as_("k-bob", config.clone()))
        .await
        .unwrap();
    let not_found = |result: Result<tonic::Status, &str>, what: &str| {
        let status = result.unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(status.code(), Code::NotFound, "{what}: {status:?}");
        assert_eq!(
            status.message(),
            format!("task {} not found", task.id),
            "{what}"
        );
        assert_eq!(reason(&status), "TASK_NOT_FOUND", "{what}");
    };
    let id = task.id.clone();
    let get = proto::GetTaskRequest {
        id: id.clone(),
        ..Default::default()
    };
    not_found(
        client
            .get_task(as_("k-alice", get))
            .await
            .err()
            .ok_or("answered"),
        "GetTask",
    );
    let cancel = proto::CancelTaskRequest {
        id: id.clone(),
        ..Default::default()
    };
    not_found(
        client
            .cancel_task(as_("k-alice", cancel))
            .await
            .err()
            .ok_or("answered"),
        "CancelTask",
    );
    let subscribe = proto::SubscribeToTaskRequest {
        id: id.clone(),
        ..Default::default()
    };
    not_found(
        client
            .subscribe_to_task(as_("k-alice", subscribe))
            .await
            .err()
            .ok_or("answered"),
        "SubscribeToTask",
    );
    let get_config = proto::GetTaskPushNotificationConfigRequest {
        task_id: id.clone(),
        id: "c-1".into(),
        ..Default::default()
    };
    not_found(
        client
            .get_task_push_notification_config(as_("k-alice", get_config))
            .await
            .err()
            .ok_or("answered"),
        "GetTaskPushNotificationConfig",
    );
    let list_configs = proto::ListTaskPushNotificationConfigsRequest {
        task_id: id.clone(),
        ..Default::default()
    };
    not_found(
        client
            .list_task_push_notification_configs(as_("k-alice", list_configs))
            .await
            .err()
            .ok_or("answered"),
        "ListTaskPushNotificationConfigs",
    );
    let delete = proto::DeleteTaskPushNotificationConfigRequest {
        task_id: id.clone(),
        id: "c-1".into(),
        ..Default::default()
    };
    not_found(
        client
            .delete_task_push_notification_config(as_("k-alice", delete))
            .await
            .err()
            .ok_or("answered"),
        "DeleteTaskPushNotificationConfig",
    );
    not_found(
        client
            .create_task_push_notification_config(as_("k-alice", config))
            .await
            .err()
            .ok_or("answered"),
        "CreateTaskPushNotificationConfig",
    );
    let mut follow_up = send("hi");
    follow_up.message.as_mut().unwrap().task_id = id.clone();
    not_found(
        client
            .send_message(as_("k-alice", follow_up))
            .await
            .err()
            .ok_or("answered"),
        "SendMessage",
    );
    let listed = client
        .list_tasks(as_("k-alice", proto::ListTasksRequest::default()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((listed.tasks.len(), listed.total_size), (0, 0));
    // Bob's task is untouched.
    let his = client
        .get_task(as_(
            "k-bob",
            proto::GetTaskRequest {
                id,
                ..Default::default()
            },
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(his.status.unwrap().state(), proto::TaskState::Working);
}
