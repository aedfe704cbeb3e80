//! The JSON-RPC binding of A2A 0.1: the `tasks/send` version behind the 1.0 [`Transport`]
//! API. Requests are converted from 1.0 (`a2a_types::v0_1`), sent under the 0.1 method names
//! without service-parameter headers (0.1 predates them), and the results and stream events
//! (`type`-tagged parts, events with the task `id` and `final`) converted back.
//!
//! * **Task ids.** A 0.1 client chooses the task id, for a new task too:
//!   [`Transport::prepare_send`] gives a message without `taskId` a random one before the first
//!   attempt, so that a retry continues the same task. `sessionId` is the 1.0 `contextId`.
//! * **Errors.** 0.1-era agents used -32006 … -32009 for other errors than 1.0 does (streaming
//!   not supported, authentication required, authorization failed, invalid task state): they
//!   are mapped ([`a2a_types::v0_1::error_code_to_v1`]), never passed through, so that a 0.1
//!   "invalid task state" is never read as 1.0's `VersionNotSupportedError`.
//! * **Events.** 0.1 events carry no context id; the stream fills in the request's
//!   `contextId` (its `sessionId`) where it has one.
//! * **Missing operations.** `ListTasks`, `ListTaskPushNotificationConfigs`,
//!   `DeleteTaskPushNotificationConfig` and `GetExtendedAgentCard` do not exist in 0.1: they
//!   fail with [`Error::Unsupported`] before anything is sent.

use a2a_jsonrpc::{A2aError, ErrorCode, ErrorObject, Response};
use a2a_types::v0_1::{self, tag};
use a2a_types::v1::{
    AgentCard, CancelTaskRequest, ContextId, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, SendMessageRequest, SendMessageResponse, StreamResponse,
    SubscribeToTaskRequest, Task, TaskId, TaskPushNotificationConfig, binding,
};
use futures_util::StreamExt as _;

use super::jsonrpc::{JsonRpcWire, converted};
use super::{BoxFuture, EventStream, Transport, boxed};
use crate::Error;
use crate::http::{Dialect, HttpClient};
use crate::interceptor::CallInfo;

/// The version, for messages.
const VERSION: &str = v0_1::PROTOCOL_VERSION;

/// JSON-RPC 2.0 over HTTP, A2A 0.1.
pub(crate) struct V01JsonRpcTransport {
    wire: JsonRpcWire,
}

impl V01JsonRpcTransport {
    pub(crate) fn new(http: HttpClient, endpoint: http::Uri) -> Self {
        Self {
            wire: JsonRpcWire::new(http, endpoint, Dialect::V0_1, agent_error),
        }
    }

    /// A stream of 0.1 events, converted, with `context` as the events' context id.
    async fn stream<P: serde::Serialize>(
        &self,
        call: CallInfo,
        method: &'static str,
        params: &P,
        last_event_id: Option<&str>,
        context: Option<ContextId>,
    ) -> Result<EventStream, Error> {
        let events = self
            .wire
            .stream(call, method, params, last_event_id, decode_event)
            .await?;
        let Some(context) = context else {
            return Ok(events);
        };
        Ok(Box::pin(events.map(move |frame| {
            frame.map(|mut frame| {
                if let Some(response) = &mut frame.response {
                    fill_context(response, &context);
                }
                frame
            })
        })))
    }
}

/// The agent's JSON-RPC error, its code read with its 0.1-era meaning.
fn agent_error(mut error: ErrorObject) -> Error {
    error.code = ErrorCode(v0_1::error_code_to_v1(error.code.0));
    Error::Agent(A2aError::from(error))
}

/// One SSE event: a JSON-RPC response whose result is a 0.1 status or artifact update.
fn decode_event(data: &str) -> Result<StreamResponse, Error> {
    let response: Response<v0_1::StreamEvent> = a2a_types::json::from_str(data)?;
    response.result.map(Into::into).map_err(agent_error)
}

/// Gives a converted 0.1 event (which has no context id) the request's.
fn fill_context(response: &mut StreamResponse, context: &ContextId) {
    let slot = match response {
        StreamResponse::StatusUpdate(update) => &mut update.context_id,
        StreamResponse::ArtifactUpdate(update) => &mut update.context_id,
        _ => return,
    };
    if slot.is_empty() {
        *slot = context.clone();
    }
}

/// The 0.1 form of a request that 0.1 can only carry with ids 1.0 may leave out.
fn convert<T, U>(value: T) -> Result<U, Error>
where
    U: TryFrom<T, Error = v0_1::ConversionError>,
{
    U::try_from(value).map_err(|error| Error::Config(error.to_string()))
}

/// A transport method for an operation 0.1 does not have.
macro_rules! missing {
    ($name:ident, $request:ty, $out:ty, $operation:literal) => {
        fn $name<'a>(
            &'a self,
            _call: CallInfo,
            _request: &'a $request,
        ) -> BoxFuture<'a, Result<$out, Error>> {
            boxed(async { Err(Error::unsupported($operation, binding::JSONRPC, VERSION)) })
        }
    };
}

impl Transport for V01JsonRpcTransport {
    converted!(get_task, GetTaskRequest => v0_1::TaskQueryParams,
        tag::GetTaskMethod::VALUE, v0_1::Task => Task);
    converted!(cancel_task, CancelTaskRequest => v0_1::TaskIdParams,
        tag::CancelTaskMethod::VALUE, v0_1::Task => Task);
    converted!(get_task_push_notification_config,
        GetTaskPushNotificationConfigRequest => v0_1::TaskIdParams,
        tag::GetTaskPushNotificationMethod::VALUE,
        v0_1::TaskPushNotificationConfig => TaskPushNotificationConfig);
    missing!(list_tasks, ListTasksRequest, ListTasksResponse, "ListTasks");
    missing!(
        list_task_push_notification_configs,
        ListTaskPushNotificationConfigsRequest,
        ListTaskPushNotificationConfigsResponse,
        "ListTaskPushNotificationConfigs"
    );
    missing!(
        delete_task_push_notification_config,
        DeleteTaskPushNotificationConfigRequest,
        (),
        "DeleteTaskPushNotificationConfig"
    );
    missing!(
        get_extended_agent_card,
        GetExtendedAgentCardRequest,
        AgentCard,
        "GetExtendedAgentCard"
    );

    fn prepare_send(&self, request: &mut SendMessageRequest) {
        if request
            .message
            .task_id
            .as_ref()
            .is_none_or(|id| id.is_empty())
        {
            request.message.task_id = Some(TaskId::random());
        }
    }

    fn send_message<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SendMessageRequest,
    ) -> BoxFuture<'a, Result<SendMessageResponse, Error>> {
        boxed(async move {
            let params: v0_1::TaskSendParams = convert(request.clone())?;
            let task: Task = self
                .wire
                .call_converted::<_, v0_1::Task, _>(call, tag::SendTaskMethod::VALUE, params)
                .await?;
            Ok(SendMessageResponse::Task(task))
        })
    }

    fn send_streaming_message<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SendMessageRequest,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        boxed(async move {
            let params: v0_1::TaskSendParams = convert(request.clone())?;
            let context = params.session_id.clone();
            let method = tag::SendTaskStreamingMethod::VALUE;
            self.stream(call, method, &params, None, context).await
        })
    }

    fn subscribe_to_task<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SubscribeToTaskRequest,
        last_event_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        let params = v0_1::TaskQueryParams::from(request.clone());
        boxed(async move {
            let method = tag::TaskResubscriptionMethod::VALUE;
            self.stream(call, method, &params, last_event_id, None)
                .await
        })
    }

    fn create_task_push_notification_config<'a>(
        &'a self,
        call: CallInfo,
        config: &'a TaskPushNotificationConfig,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, Error>> {
        boxed(async move {
            let params: v0_1::TaskPushNotificationConfig = convert(config.clone())?;
            let method = tag::SetTaskPushNotificationMethod::VALUE;
            self.wire
                .call_converted::<_, v0_1::TaskPushNotificationConfig, _>(call, method, params)
                .await
        })
    }
}
