//! The eleven operations as values, through `A2aClient::call` and `A2aClient::open` (the
//! `Transport`'s `call` and `open` under them) against the real server, once per binding
//! (JSON-RPC, HTTP+JSON, gRPC: the one port serves all three); the interceptors see each
//! operation as a value, whatever the binding.

mod common;

use std::sync::{Arc, Mutex};

use a2a_client::{A2aClient, CallInfo, Interceptor};
use a2a_grpc::client::GrpcTransportFactory;
use a2a_types::protocol::{Call, Reply, Request, StreamRequest};
use a2a_types::v1::{
    CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTasksRequest, Message, SendMessageConfiguration, SendMessageRequest, SendMessageResponse,
    StreamResponse, SubscribeToTaskRequest, Task, TaskPushNotificationConfig, TaskState, binding,
};
use futures_util::StreamExt as _;
use pretty_assertions::assert_eq;

/// Each attempt's operation and the task it names (`-` for none), as the interceptors see them.
#[derive(Default)]
struct Operations(Mutex<Vec<String>>);

impl Interceptor for Operations {
    fn on_call(&self, call: &CallInfo, request: &Call) {
        assert_eq!(call.operation, Some(request.operation()));
        let task = request.task_id().map_or("-", |id| id.as_str());
        let line = format!("{} {task}", call.method);
        self.0.lock().unwrap().push(line);
    }
}

fn send(text: &str) -> SendMessageRequest {
    SendMessageRequest::new(Message::user_text(text))
}

/// The task a `SendMessage` reply carries.
fn sent_task(reply: Reply) -> Task {
    match reply {
        Reply::Sent(sent) => match *sent {
            SendMessageResponse::Task(task) => task,
            other => panic!("a task, not {other:?}"),
        },
        other => panic!("a sent reply, not {other:?}"),
    }
}

async fn walk(protocol_binding: &str) {
    let server = common::start().await;
    let seen = Arc::new(Operations::default());
    let client = A2aClient::builder()
        .transport(GrpcTransportFactory::new())
        .preferred_transports([protocol_binding])
        .interceptor(seen.clone())
        .connect(&server.url())
        .await
        .unwrap();
    assert_eq!(client.interface().protocol_binding, protocol_binding);
    let call = |request: Request| client.call(request);

    // SendMessage: the echo agent completes the task.
    let done = sent_task(call(send("echo me").into()).await.unwrap());
    assert_eq!(done.status.state, TaskState::Completed);
    assert_eq!(done.artifacts[0].text(), "echo me");

    // SendStreamingMessage: a stream to the completed state.
    let mut stream = client
        .open(StreamRequest::from(send("streamed")), None)
        .await
        .unwrap();
    let mut last = None;
    while let Some(event) = stream.next().await {
        last = Some(event.unwrap());
    }
    let Some(StreamResponse::StatusUpdate(update)) = last else {
        panic!("a final status update, not {last:?}");
    };
    assert_eq!(update.status.state, TaskState::Completed);

    // GetTask, ListTasks.
    let Reply::Task(got) = call(GetTaskRequest::new(done.id.clone()).into())
        .await
        .unwrap()
    else {
        panic!("a task");
    };
    assert_eq!(got.id, done.id);
    let Reply::Tasks(page) = call(ListTasksRequest::new().into()).await.unwrap() else {
        panic!("a page of tasks");
    };
    assert_eq!(page.tasks.len(), 2);

    // A task that works until canceled, and SubscribeToTask on it: the task as it is first.
    let waiting = send("wait")
        .with_configuration(SendMessageConfiguration::default().with_return_immediately(true));
    let waiting = sent_task(call(waiting.into()).await.unwrap());
    let mut subscription = client
        .open(SubscribeToTaskRequest::new(waiting.id.clone()).into(), None)
        .await
        .unwrap();
    let Some(Ok(StreamResponse::Task(first))) = subscription.next().await else {
        panic!("the task first");
    };
    assert_eq!(first.id, waiting.id);
    drop(subscription);

    // The push configs of that task, and the extended card.
    let config = TaskPushNotificationConfig::new("https://hooks.example.com/a2a")
        .with_task_id(waiting.id.clone());
    let Reply::PushConfig(created) = call(config.into()).await.unwrap() else {
        panic!("a push config");
    };
    let config_id = created.id.clone().expect("a server-assigned id");
    let get = GetTaskPushNotificationConfigRequest::new(waiting.id.clone(), config_id.clone());
    let Reply::PushConfig(got) = call(get.into()).await.unwrap() else {
        panic!("a push config");
    };
    assert_eq!(got, created);
    let list = ListTaskPushNotificationConfigsRequest::new(waiting.id.clone());
    let Reply::PushConfigs(listed) = call(list.into()).await.unwrap() else {
        panic!("push configs");
    };
    assert_eq!(listed.configs, [created]);
    let Reply::Card(card) = call(GetExtendedAgentCardRequest::new().into())
        .await
        .unwrap()
    else {
        panic!("a card");
    };
    assert_eq!(card.description, "The extended card");
    let delete = DeleteTaskPushNotificationConfigRequest::new(waiting.id.clone(), config_id);
    assert_eq!(call(delete.into()).await.unwrap(), Reply::Empty);

    // CancelTask.
    let Reply::Task(canceled) = call(CancelTaskRequest::new(waiting.id.clone()).into())
        .await
        .unwrap()
    else {
        panic!("a task");
    };
    assert_eq!(canceled.status.state, TaskState::Canceled);

    // Every operation, once each but the sends, as the interceptors saw them.
    let (d, w) = (done.id.as_str(), waiting.id.as_str());
    assert_eq!(
        *seen.0.lock().unwrap(),
        [
            "SendMessage -".to_owned(),
            "SendStreamingMessage -".to_owned(),
            format!("GetTask {d}"),
            "ListTasks -".to_owned(),
            "SendMessage -".to_owned(),
            format!("SubscribeToTask {w}"),
            format!("CreateTaskPushNotificationConfig {w}"),
            format!("GetTaskPushNotificationConfig {w}"),
            format!("ListTaskPushNotificationConfigs {w}"),
            "GetExtendedAgentCard -".to_owned(),
            format!("DeleteTaskPushNotificationConfig {w}"),
            format!("CancelTask {w}"),
        ]
    );
}

#[tokio::test]
async fn every_operation_over_jsonrpc() {
    walk(binding::JSONRPC).await;
}

#[tokio::test]
async fn every_operation_over_http_json() {
    walk(binding::HTTP_JSON).await;
}

#[tokio::test]
async fn every_operation_over_grpc() {
    walk(binding::GRPC).await;
}
