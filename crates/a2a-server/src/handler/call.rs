//! The operations as values: [`RequestHandler::call`] answers a [`Request`] with a [`Reply`],
//! [`RequestHandler::open`] a [`StreamRequest`] with an [`EventStream`]. Every binding calls
//! these two; each runs the typed method of its operation.

use std::borrow::Cow;

use a2a_types::protocol::{Reply, Request, StreamRequest};

use super::{CallContext, EventStream, RequestHandler};
use crate::error::A2aError;

impl RequestHandler {
    /// Answers a call of a unary operation (the nine besides the two streaming ones) with its
    /// result. The tenant the request names (its `tenant` field: a REST path prefix, a gRPC or
    /// JSON-RPC message's field) scopes the call here, in place of the call context's.
    ///
    /// ```
    /// # async fn run(handler: &a2a_server::handler::RequestHandler) {
    /// use a2a_server::handler::CallContext;
    /// use a2a_types::protocol::{Reply, Request};
    /// use a2a_types::v1::GetTaskRequest;
    ///
    /// let reply = handler.call(Request::from(GetTaskRequest::new("t-1")), &CallContext::new()).await;
    /// assert_eq!(reply.unwrap_err().message(), "task t-1 not found");
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// The operation's error, as its typed method answers it.
    pub async fn call(&self, request: Request, call: &CallContext) -> Result<Reply, A2aError> {
        let call = &scoped(call, request.tenant());
        Ok(match request {
            Request::SendMessage(r) => self.send_message(*r, call).await?.into(),
            Request::GetTask(r) => self.get_task(r, call).await?.into(),
            Request::ListTasks(r) => self.list_tasks(r, call).await?.into(),
            Request::CancelTask(r) => self.cancel_task(r, call).await?.into(),
            Request::CreateTaskPushNotificationConfig(r) => {
                self.create_push_config(r, call).await?.into()
            }
            Request::GetTaskPushNotificationConfig(r) => {
                self.get_push_config(r, call).await?.into()
            }
            Request::ListTaskPushNotificationConfigs(r) => {
                self.list_push_configs(r, call).await?.into()
            }
            Request::DeleteTaskPushNotificationConfig(r) => {
                self.delete_push_config(r, call).await?.into()
            }
            Request::GetExtendedAgentCard(r) => self.get_extended_agent_card(r, call).await?.into(),
            other => return Err(unknown(other.operation())),
        })
    }

    /// Opens the stream of a streaming operation (`SendStreamingMessage`, `SubscribeToTask`),
    /// the call scoped to the request's tenant as [`call`](Self::call) scopes it. `resume` is
    /// the last event the caller saw (SSE `Last-Event-ID`): `SubscribeToTask` resumes right
    /// after it; a send starts a new stream whatever it says.
    ///
    /// # Errors
    ///
    /// The operation's error, before any event.
    pub async fn open(
        &self,
        request: StreamRequest,
        resume: Option<u64>,
        call: &CallContext,
    ) -> Result<EventStream, A2aError> {
        let call = &scoped(call, request.tenant());
        match request {
            StreamRequest::SendStreamingMessage(r) => self.send_streaming_message(*r, call).await,
            StreamRequest::SubscribeToTask(r) => self.subscribe_to_task(&r.id, resume, call).await,
            other => Err(unknown(other.operation())),
        }
    }
}

/// The call scoped to the tenant its request names, if it names one.
fn scoped<'a>(call: &'a CallContext, tenant: Option<&str>) -> Cow<'a, CallContext> {
    match tenant {
        Some(tenant) => Cow::Owned(call.clone().with_tenant(Some(tenant.to_owned()))),
        None => Cow::Borrowed(call),
    }
}

/// An operation of a newer a2a-types than this handler knows.
fn unknown(operation: a2a_types::protocol::Operation) -> A2aError {
    A2aError::unsupported_operation(format!("{operation} is not served by this server"))
}
