//! A transport written against the eleven-method trait of earlier releases keeps working for one
//! release as a (deprecated) `OperationTransport`.

#![allow(deprecated)]

use std::sync::Arc;

use a2a_client::transport::{
    BoxFuture, EventStream, OperationTransport, Transport, TransportFactory, TransportTarget,
};
use a2a_client::{A2aClient, CallInfo, Error};
use a2a_types::v1::{
    AgentCard, AgentInterface, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, Message, SendMessageRequest, SendMessageResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig, TaskState, TaskStatus,
};
use pretty_assertions::assert_eq;

/// Answers `GetTask` and `SendMessage` from memory; every other operation is refused.
struct Memory;

fn refused<'a, T: Send + 'a>(call: &CallInfo) -> BoxFuture<'a, Result<T, Error>> {
    let message = format!("{} is not served here", call.method);
    Box::pin(async move { Err(Error::Config(message)) })
}

impl OperationTransport for Memory {
    fn prepare_send(&self, request: &mut SendMessageRequest) {
        request.message.task_id = Some("t-chosen".into());
    }

    fn send_message<'a>(
        &'a self,
        _call: CallInfo,
        request: &'a SendMessageRequest,
    ) -> BoxFuture<'a, Result<SendMessageResponse, Error>> {
        let task = request.message.task_id.clone().unwrap_or_default();
        let answer = Message::agent_text(format!("for {task}"));
        Box::pin(async move { Ok(SendMessageResponse::Message(answer)) })
    }

    fn send_streaming_message<'a>(
        &'a self,
        call: CallInfo,
        _request: &'a SendMessageRequest,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        refused(&call)
    }

    fn get_task<'a>(
        &'a self,
        _call: CallInfo,
        request: &'a GetTaskRequest,
    ) -> BoxFuture<'a, Result<Task, Error>> {
        let status = TaskStatus::new(TaskState::Completed);
        let task = Task::new(request.id.clone(), "c-1", status);
        Box::pin(async move { Ok(task) })
    }

    fn list_tasks<'a>(
        &'a self,
        call: CallInfo,
        _request: &'a ListTasksRequest,
    ) -> BoxFuture<'a, Result<ListTasksResponse, Error>> {
        refused(&call)
    }

    fn cancel_task<'a>(
        &'a self,
        call: CallInfo,
        _request: &'a CancelTaskRequest,
    ) -> BoxFuture<'a, Result<Task, Error>> {
        refused(&call)
    }

    fn subscribe_to_task<'a>(
        &'a self,
        call: CallInfo,
        _request: &'a SubscribeToTaskRequest,
        _last_event_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        refused(&call)
    }

    fn create_task_push_notification_config<'a>(
        &'a self,
        call: CallInfo,
        _config: &'a TaskPushNotificationConfig,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, Error>> {
        refused(&call)
    }

    fn get_task_push_notification_config<'a>(
        &'a self,
        call: CallInfo,
        _request: &'a GetTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, Error>> {
        refused(&call)
    }

    fn list_task_push_notification_configs<'a>(
        &'a self,
        call: CallInfo,
        _request: &'a ListTaskPushNotificationConfigsRequest,
    ) -> BoxFuture<'a, Result<ListTaskPushNotificationConfigsResponse, Error>> {
        refused(&call)
    }

    fn delete_task_push_notification_config<'a>(
        &'a self,
        call: CallInfo,
        _request: &'a DeleteTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<(), Error>> {
        refused(&call)
    }

    fn get_extended_agent_card<'a>(
        &'a self,
        call: CallInfo,
        _request: &'a GetExtendedAgentCardRequest,
    ) -> BoxFuture<'a, Result<AgentCard, Error>> {
        refused(&call)
    }
}

struct MemoryFactory;

impl TransportFactory for MemoryFactory {
    fn binding(&self) -> &str {
        "MEMORY"
    }

    fn protocol_version(&self) -> &str {
        "1.0"
    }

    fn build(&self, _target: &TransportTarget<'_>) -> Result<Arc<dyn Transport>, Error> {
        Ok(Arc::new(Memory))
    }
}

#[tokio::test]
async fn an_operation_transport_is_a_transport() {
    let card = AgentCard::new("Memory", "d", "1").with_supported_interfaces([AgentInterface::new(
        "http://memory.invalid/",
        "MEMORY",
        "1.0",
    )]);
    let client = A2aClient::builder()
        .transport(MemoryFactory)
        .from_card(card)
        .unwrap();
    let task = client.get_task(GetTaskRequest::new("t-1")).await.unwrap();
    assert_eq!(task.id, "t-1");
    // `prepare_send` is the transport's own, before the call.
    let answer = client
        .send_message(SendMessageRequest::new(Message::user_text("hi")))
        .await
        .unwrap();
    let SendMessageResponse::Message(message) = answer else {
        panic!("a message");
    };
    assert_eq!(message.text(), "for t-chosen");
    let error = client
        .list_tasks(ListTasksRequest::new())
        .await
        .unwrap_err();
    assert_eq!(error.to_string(), "ListTasks is not served here");
}
