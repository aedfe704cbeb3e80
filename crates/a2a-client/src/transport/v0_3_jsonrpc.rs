//! The JSON-RPC binding of A2A 0.3 (and 0.2): the `message/send` version behind the 1.0
//! [`Transport`] API. Requests are converted from 1.0 (`a2a_types::v0_3`'s `From`
//! conversions), sent under the 0.3 method names with `A2A-Version: 0.3` and
//! `X-A2A-Extensions`, and the `kind`-tagged results and stream events converted back (`final`
//! is dropped: the stream ends at a terminal or interrupted state, as in 1.0). 0.3 error codes
//! mean what 1.0's do. `ListTasks` does not exist in 0.3 JSON-RPC: it fails with
//! [`Error::Unsupported`] before anything is sent.

use a2a_jsonrpc::Response;
use a2a_types::v0_3::{self, Method as _, methods};
use a2a_types::v1::{
    AgentCard, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, SendMessageRequest, SendMessageResponse, StreamResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig, binding,
};

use super::jsonrpc::{JsonRpcWire, converted};
use super::{BoxFuture, EventStream, Transport, boxed};
use crate::Error;
use crate::http::{Dialect, HttpClient};
use crate::interceptor::CallInfo;

/// JSON-RPC 2.0 over HTTP, A2A 0.3 (also serves 0.2 interfaces: same methods, same shapes).
pub(crate) struct V03JsonRpcTransport {
    wire: JsonRpcWire,
    /// `0.3` or `0.2`, for messages.
    version: &'static str,
}

impl V03JsonRpcTransport {
    pub(crate) fn new(http: HttpClient, endpoint: http::Uri, version: &'static str) -> Self {
        Self {
            wire: JsonRpcWire::new(http, endpoint, Dialect::V0_3, Error::from),
            version,
        }
    }
}

/// One SSE event: a JSON-RPC response whose result is a 0.3 event (`kind` `task`, `message`,
/// `status-update` or `artifact-update`), or an error.
fn decode_event(data: &str) -> Result<StreamResponse, Error> {
    let response: Response<v0_3::SendStreamingMessageResult> = a2a_types::json::from_str(data)?;
    response.result.map(Into::into).map_err(Error::from)
}

impl Transport for V03JsonRpcTransport {
    converted!(send_message, SendMessageRequest => v0_3::MessageSendParams,
        methods::SendMessage::NAME, v0_3::SendMessageResult => SendMessageResponse);
    converted!(get_task, GetTaskRequest => v0_3::TaskQueryParams,
        methods::GetTask::NAME, v0_3::Task => Task);
    converted!(cancel_task, CancelTaskRequest => v0_3::TaskIdParams,
        methods::CancelTask::NAME, v0_3::Task => Task);
    converted!(create_task_push_notification_config,
        TaskPushNotificationConfig => v0_3::TaskPushNotificationConfig,
        methods::SetTaskPushNotificationConfig::NAME,
        v0_3::TaskPushNotificationConfig => TaskPushNotificationConfig);
    converted!(get_task_push_notification_config,
        GetTaskPushNotificationConfigRequest => v0_3::GetTaskPushNotificationConfigParams,
        methods::GetTaskPushNotificationConfig::NAME,
        v0_3::TaskPushNotificationConfig => TaskPushNotificationConfig);
    converted!(list_task_push_notification_configs,
        ListTaskPushNotificationConfigsRequest => v0_3::ListTaskPushNotificationConfigParams,
        methods::ListTaskPushNotificationConfig::NAME,
        Vec<v0_3::TaskPushNotificationConfig> => ListTaskPushNotificationConfigsResponse);

    fn list_tasks<'a>(
        &'a self,
        _call: CallInfo,
        _request: &'a ListTasksRequest,
    ) -> BoxFuture<'a, Result<ListTasksResponse, Error>> {
        boxed(async move {
            Err(Error::unsupported(
                "ListTasks",
                binding::JSONRPC,
                self.version,
            ))
        })
    }

    fn send_streaming_message<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SendMessageRequest,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        let params = v0_3::MessageSendParams::from(request.clone());
        boxed(async move {
            let method = methods::SendStreamingMessage::NAME;
            self.wire
                .stream(call, method, &params, None, decode_event)
                .await
        })
    }

    fn subscribe_to_task<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SubscribeToTaskRequest,
        last_event_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        let params = v0_3::TaskIdParams::from(request.clone());
        boxed(async move {
            let method = methods::TaskResubscription::NAME;
            self.wire
                .stream(call, method, &params, last_event_id, decode_event)
                .await
        })
    }

    fn delete_task_push_notification_config<'a>(
        &'a self,
        call: CallInfo,
        request: &'a DeleteTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<(), Error>> {
        let params = v0_3::DeleteTaskPushNotificationConfigParams::from(request.clone());
        boxed(async move {
            let method = methods::DeleteTaskPushNotificationConfig::NAME;
            // The result is `null`; anything else is fine too.
            let _: serde::de::IgnoredAny = self.wire.call(call, method, Some(&params)).await?;
            Ok(())
        })
    }

    fn get_extended_agent_card<'a>(
        &'a self,
        call: CallInfo,
        _request: &'a GetExtendedAgentCardRequest,
    ) -> BoxFuture<'a, Result<AgentCard, Error>> {
        boxed(async move {
            // `agent/getAuthenticatedExtendedCard` has no params; the card is read by the one
            // card normalizer, as the card fetch reads it.
            let method = methods::GetAuthenticatedExtendedCard::NAME;
            let card: serde_json::Value = self.wire.call::<(), _>(call, method, None).await?;
            a2a_types::card::parse_value(card).map_err(|error| Error::Card {
                url: format!("{} ({method})", self.wire.endpoint()),
                error,
            })
        })
    }
}
