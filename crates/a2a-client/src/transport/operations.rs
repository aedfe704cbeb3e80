//! The transport trait of earlier releases, one method per operation, kept for one release as
//! [`OperationTransport`]: every implementation of it is a [`Transport`] through the adapter
//! below. Deprecated; it goes in the next release.

#![allow(deprecated)]

use a2a_types::protocol::{Reply, Request, StreamRequest};
use a2a_types::v1::{
    AgentCard, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, SendMessageRequest, SendMessageResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig,
};

use super::{BoxFuture, EventStream, Transport, boxed};
use crate::Error;
use crate::interceptor::CallInfo;

/// The eleven A2A 1.0 operations over one binding, one method each: the [`Transport`] trait of
/// earlier releases.
///
/// Every `OperationTransport` is a [`Transport`] (a blanket implementation dispatches
/// [`Transport::call`] and [`Transport::open`] to these methods), so a transport written against
/// the earlier trait keeps working when its `impl Transport for ...` becomes
/// `impl OperationTransport for ...`. Move it to [`Transport`]: two methods over
/// [`Request`] and [`StreamRequest`]. This trait goes in the next release.
#[deprecated(
    since = "0.1.0",
    note = "implement `Transport` (`call` and `open` over `Request` and `StreamRequest`); this \
            trait goes in the next release"
)]
pub trait OperationTransport: Send + Sync + 'static {
    /// As [`Transport::prepare_send`].
    fn prepare_send(&self, request: &mut SendMessageRequest) {
        let _ = request;
    }

    /// `SendMessage`.
    fn send_message<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SendMessageRequest,
    ) -> BoxFuture<'a, Result<SendMessageResponse, Error>>;

    /// `SendStreamingMessage`: resolves when the stream is open (its head has arrived).
    fn send_streaming_message<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SendMessageRequest,
    ) -> BoxFuture<'a, Result<EventStream, Error>>;

    /// `GetTask`.
    fn get_task<'a>(
        &'a self,
        call: CallInfo,
        request: &'a GetTaskRequest,
    ) -> BoxFuture<'a, Result<Task, Error>>;

    /// `ListTasks`.
    fn list_tasks<'a>(
        &'a self,
        call: CallInfo,
        request: &'a ListTasksRequest,
    ) -> BoxFuture<'a, Result<ListTasksResponse, Error>>;

    /// `CancelTask`.
    fn cancel_task<'a>(
        &'a self,
        call: CallInfo,
        request: &'a CancelTaskRequest,
    ) -> BoxFuture<'a, Result<Task, Error>>;

    /// `SubscribeToTask`, after the event `last_event_id` when resuming (`Last-Event-ID`).
    fn subscribe_to_task<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SubscribeToTaskRequest,
        last_event_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<EventStream, Error>>;

    /// `CreateTaskPushNotificationConfig`.
    fn create_task_push_notification_config<'a>(
        &'a self,
        call: CallInfo,
        config: &'a TaskPushNotificationConfig,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, Error>>;

    /// `GetTaskPushNotificationConfig`.
    fn get_task_push_notification_config<'a>(
        &'a self,
        call: CallInfo,
        request: &'a GetTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, Error>>;

    /// `ListTaskPushNotificationConfigs`.
    fn list_task_push_notification_configs<'a>(
        &'a self,
        call: CallInfo,
        request: &'a ListTaskPushNotificationConfigsRequest,
    ) -> BoxFuture<'a, Result<ListTaskPushNotificationConfigsResponse, Error>>;

    /// `DeleteTaskPushNotificationConfig`.
    fn delete_task_push_notification_config<'a>(
        &'a self,
        call: CallInfo,
        request: &'a DeleteTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<(), Error>>;

    /// `GetExtendedAgentCard`.
    fn get_extended_agent_card<'a>(
        &'a self,
        call: CallInfo,
        request: &'a GetExtendedAgentCardRequest,
    ) -> BoxFuture<'a, Result<AgentCard, Error>>;
}

/// The adapter: each call to the method of its operation.
impl<T: OperationTransport> Transport for T {
    fn prepare_send(&self, request: &mut SendMessageRequest) {
        OperationTransport::prepare_send(self, request);
    }

    fn call<'a>(
        &'a self,
        call: CallInfo,
        request: &'a Request,
    ) -> BoxFuture<'a, Result<Reply, Error>> {
        boxed(async move {
            Ok(match request {
                Request::SendMessage(r) => self.send_message(call, r).await?.into(),
                Request::GetTask(r) => self.get_task(call, r).await?.into(),
                Request::ListTasks(r) => self.list_tasks(call, r).await?.into(),
                Request::CancelTask(r) => self.cancel_task(call, r).await?.into(),
                Request::CreateTaskPushNotificationConfig(r) => self
                    .create_task_push_notification_config(call, r)
                    .await?
                    .into(),
                Request::GetTaskPushNotificationConfig(r) => self
                    .get_task_push_notification_config(call, r)
                    .await?
                    .into(),
                Request::ListTaskPushNotificationConfigs(r) => self
                    .list_task_push_notification_configs(call, r)
                    .await?
                    .into(),
                Request::DeleteTaskPushNotificationConfig(r) => self
                    .delete_task_push_notification_config(call, r)
                    .await?
                    .into(),
                Request::GetExtendedAgentCard(r) => {
                    self.get_extended_agent_card(call, r).await?.into()
                }
                other => return Err(not_carried(other.operation())),
            })
        })
    }

    fn open<'a>(
        &'a self,
        call: CallInfo,
        request: &'a StreamRequest,
        last_event_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        match request {
            StreamRequest::SendStreamingMessage(r) => self.send_streaming_message(call, r),
            StreamRequest::SubscribeToTask(r) => self.subscribe_to_task(call, r, last_event_id),
            other => {
                let error = not_carried(other.operation());
                boxed(async move { Err(error) })
            }
        }
    }
}

/// An operation newer than this trait.
fn not_carried(operation: a2a_types::protocol::Operation) -> Error {
    Error::Config(format!(
        "{operation} is not one of the operations an OperationTransport carries; implement \
         Transport"
    ))
}
