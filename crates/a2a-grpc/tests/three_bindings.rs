//! One port, three bindings, one handler: tasks created over one binding are seen through the
//! others, with a2a-client's JSON-RPC and HTTP+JSON transports and this crate's gRPC one.

mod common;

use a2a_client::{A2aClient, ErrorCode};
use a2a_grpc::client::GrpcTransportFactory;
use a2a_types::v1::{
    GetTaskRequest, Message, SendMessageRequest, SendMessageResponse, StreamResponse,
    TaskPushNotificationConfig, TaskState, binding,
};
use futures_util::StreamExt as _;
use pretty_assertions::assert_eq;

/// A client of the server that prefers `binding`.
async fn client(url: &str, binding: &str) -> A2aClient {
    A2aClient::builder()
        .transport(GrpcTransportFactory::new())
        .preferred_transports([binding])
        .connect(url)
        .await
        .unwrap()
}

#[tokio::test]
async fn the_same_task_through_all_three_bindings() {
    let server = common::start().await;
    let url = server.url();
    let rpc = client(&url, binding::JSONRPC).await;
    let rest = client(&url, binding::HTTP_JSON).await;
    let grpc = client(&url, binding::GRPC).await;
    assert_eq!(rpc.interface().protocol_binding, "JSONRPC");
    assert_eq!(rest.interface().protocol_binding, "HTTP+JSON");
    assert_eq!(grpc.interface().protocol_binding, "GRPC");
    // The card lists gRPC at host:port of the same port, after the JSON bindings.
    assert_eq!(grpc.interface().url, server.addr.to_string());
    assert_eq!(grpc.interface().protocol_version, "1.0");

    for (creator, name) in [(&rpc, "JSON-RPC"), (&rest, "REST"), (&grpc, "gRPC")] {
        let answer = creator
            .send_message(SendMessageRequest::new(Message::user_text(name)))
            .await
            .unwrap();
        let SendMessageResponse::Task(created) = answer else {
            panic!("{name}: not a task");
        };
        assert_eq!(created.status.state, TaskState::Completed, "{name}");
        for (reader, through) in [(&rpc, "JSON-RPC"), (&rest, "REST"), (&grpc, "gRPC")] {
            let seen = reader
                .get_task(GetTaskRequest::new(created.id.clone()))
                .await
                .unwrap_or_else(|e| panic!("created over {name}, read over {through}: {e}"));
            assert_eq!(seen, created, "created over {name}, read over {through}");
        }
    }

    // A stream over gRPC through the client: the events in order, the end.
    let mut events = grpc
        .send_streaming_message(SendMessageRequest::new(Message::user_text("streamed")))
        .await
        .unwrap();
    let mut text = String::new();
    let mut last = None;
    while let Some(event) = events.next().await {
        let event = event.unwrap();
        if let StreamResponse::ArtifactUpdate(update) = &event {
            text.push_str(&update.artifact.text());
        }
        last = Some(event);
    }
    assert_eq!(text, "streamed");
    assert!(
        matches!(last, Some(StreamResponse::StatusUpdate(ref u)) if u.status.state == TaskState::Completed)
    );

    // Every other operation through the gRPC transport, and an A2A error as Error::Agent.
    let page = grpc
        .list_tasks(a2a_types::v1::ListTasksRequest::new())
        .await
        .unwrap();
    assert_eq!(page.total_size, 4);
    let task_id = page.tasks[0].id.clone();
    let config = grpc
        .create_task_push_notification_config(
            TaskPushNotificationConfig::new("https://hooks.example.com/a2a")
                .with_task_id(task_id.clone()),
        )
        .await
        .unwrap();
    let config_id = config.id.clone().unwrap();
    let listed = grpc
        .list_task_push_notification_configs(
            a2a_types::v1::ListTaskPushNotificationConfigsRequest::new(task_id.clone()),
        )
        .await
        .unwrap();
    assert_eq!(listed.configs, [config]);
    grpc.delete_task_push_notification_config(
        a2a_types::v1::DeleteTaskPushNotificationConfigRequest::new(
            task_id.clone(),
            config_id.clone(),
        ),
    )
    .await
    .unwrap();
    // Deleting it again succeeds on every binding: the operation is idempotent (spec 1.0
    // §3.1.10; its only errors are PushNotificationNotSupported and TaskNotFound).
    for (again, name) in [(&rpc, "JSON-RPC"), (&rest, "REST"), (&grpc, "gRPC")] {
        again
            .delete_task_push_notification_config(
                a2a_types::v1::DeleteTaskPushNotificationConfigRequest::new(
                    task_id.clone(),
                    config_id.clone(),
                ),
            )
            .await
            .unwrap_or_else(|e| panic!("a second delete over {name}: {e}"));
    }
    let error = rest
        .delete_task_push_notification_config(
            a2a_types::v1::DeleteTaskPushNotificationConfigRequest::new("no-such-task", "c"),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(ErrorCode::TASK_NOT_FOUND), "{error}");
    let card = grpc
        .get_extended_agent_card(a2a_types::v1::GetExtendedAgentCardRequest::new())
        .await
        .unwrap();
    assert_eq!(card.description, "The extended card");
    let error = grpc
        .cancel_task(a2a_types::v1::CancelTaskRequest::new(task_id))
        .await
        .unwrap_err();
    assert_eq!(
        error.code(),
        Some(ErrorCode::TASK_NOT_CANCELABLE),
        "{error}"
    );
    let error = grpc
        .get_task(GetTaskRequest::new("no-such-task"))
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(ErrorCode::TASK_NOT_FOUND), "{error}");
}

/// Without a preference, the card's order decides: JSON-RPC comes first in this server's card,
/// so a client with the gRPC transport still calls JSON-RPC.
#[tokio::test]
async fn the_card_order_decides_without_a_preference() {
    let server = common::start().await;
    let client = A2aClient::builder()
        .transport(GrpcTransportFactory::new())
        .connect(&server.url())
        .await
        .unwrap();
    assert_eq!(client.interface().protocol_binding, "JSONRPC");
}

/// Records the `traceparent` of each request the client sends.
#[derive(Default)]
struct Parents(std::sync::Mutex<Vec<String>>);

impl a2a_client::Interceptor for Parents {
    fn on_request(&self, _call: &a2a_client::CallInfo, request: &mut http::Request<bytes::Bytes>) {
        if let Some(parent) = request.headers().get("traceparent") {
            self.0
                .lock()
                .unwrap()
                .push(parent.to_str().unwrap().to_owned());
        }
    }
}

#[tokio::test]
async fn calls_in_a_trace_scope_carry_traceparent_over_grpc() {
    let server = common::start().await;
    let parents = std::sync::Arc::new(Parents::default());
    let grpc = A2aClient::builder()
        .transport(GrpcTransportFactory::new())
        .preferred_transports([binding::GRPC])
        .interceptor(parents.clone())
        .connect(&server.url())
        .await
        .unwrap();
    let trace = a2a_types::trace::TraceContext::parse(
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        None,
    )
    .unwrap();
    let sent = a2a_client::trace::scope(
        trace,
        grpc.send_message(SendMessageRequest::new(Message::user_text("hello"))),
    )
    .await;
    assert!(sent.is_ok(), "{sent:?}");
    let seen = parents.0.lock().unwrap().clone();
    assert_eq!(seen.len(), 1, "{seen:?}");
    let fields: Vec<&str> = seen[0].split('-').collect();
    assert_eq!(
        (fields[0], fields[1], fields[3]),
        ("00", "0af7651916cd43dd8448eb211c80319c", "01")
    );
    assert_ne!(fields[2], "b7ad6b7169203331");
    // Outside a scope, none.
    grpc.send_message(SendMessageRequest::new(Message::user_text("hello")))
        .await
        .unwrap();
    assert_eq!(parents.0.lock().unwrap().len(), 1);
}
