//! The flat JSON-RPC dialect (PromptKit's; [`a2a_types::flat`]): 0.3's method names plus
//! `tasks/list` and `tasks/subscribe`, the 1.0 JSON with lowercase enum values, bare results and
//! events, no service-parameter headers. Requests are the 1.0 requests' JSON rewritten by
//! [`a2a_types::flat`], answers rewritten back and decoded as 1.0. The dialect has no push
//! notification configs and no extended card: those calls fail with [`Error::Unsupported`]
//! before anything is sent.

use a2a_jsonrpc::Response;
use a2a_types::flat::{self, methods};
use a2a_types::v1::{
    AgentCard, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, SendMessageRequest, SendMessageResponse, StreamResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::jsonrpc::JsonRpcWire;
use super::{BoxFuture, EventStream, Transport, boxed};
use crate::Error;
use crate::http::{Dialect, HttpClient};
use crate::interceptor::CallInfo;

/// JSON-RPC 2.0 over HTTP in the flat dialect.
pub(crate) struct FlatJsonRpcTransport {
    wire: JsonRpcWire,
}

impl FlatJsonRpcTransport {
    pub(crate) fn new(http: HttpClient, endpoint: http::Uri) -> Self {
        Self {
            wire: JsonRpcWire::new(http, endpoint, Dialect::FLAT, Error::from),
        }
    }

    /// One call: the 1.0 `request` as the dialect's params, the answer rewritten by `back` and
    /// decoded as `R`.
    async fn call<P: Serialize, R: DeserializeOwned>(
        &self,
        call: CallInfo,
        method: &'static str,
        request: &P,
        back: fn(Value) -> Value,
    ) -> Result<R, Error> {
        let params = params(request)?;
        let answer: Value = self.wire.call(call, method, Some(&params)).await?;
        Ok(a2a_types::json::from_value(back(answer))?)
    }
}

/// The 1.0 request's JSON, rewritten as the dialect's params.
fn params<P: Serialize>(request: &P) -> Result<Value, Error> {
    let mut value = serde_json::to_value(request)
        .map_err(|err| Error::Config(format!("the request cannot be written: {err}")))?;
    flat::params_from_v1(&mut value);
    Ok(value)
}

/// One SSE event: a JSON-RPC response whose result is a bare event of the dialect.
fn decode_event(data: &str) -> Result<StreamResponse, Error> {
    let response: Response<Value> = a2a_types::json::from_str(data)?;
    let result = response.result.map_err(Error::from)?;
    Ok(a2a_types::json::from_value(flat::result_to_v1(result))?)
}

fn unsupported<T>(operation: &'static str) -> BoxFuture<'static, Result<T, Error>>
where
    T: Send + 'static,
{
    boxed(async move { Err(Error::unsupported(operation, flat::BINDING, flat::VERSION)) })
}

impl Transport for FlatJsonRpcTransport {
    fn send_message<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SendMessageRequest,
    ) -> BoxFuture<'a, Result<SendMessageResponse, Error>> {
        boxed(self.call(call, methods::SEND, request, flat::result_to_v1))
    }

    fn send_streaming_message<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SendMessageRequest,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        boxed(async move {
            let params = params(request)?;
            self.wire
                .stream(call, methods::STREAM, &params, None, decode_event)
                .await
        })
    }

    fn get_task<'a>(
        &'a self,
        call: CallInfo,
        request: &'a GetTaskRequest,
    ) -> BoxFuture<'a, Result<Task, Error>> {
        boxed(self.call(call, methods::GET, request, flat::task_to_v1))
    }

    fn list_tasks<'a>(
        &'a self,
        call: CallInfo,
        request: &'a ListTasksRequest,
    ) -> BoxFuture<'a, Result<ListTasksResponse, Error>> {
        boxed(self.call(call, methods::LIST, request, flat::list_to_v1))
    }

    fn cancel_task<'a>(
        &'a self,
        call: CallInfo,
        request: &'a CancelTaskRequest,
    ) -> BoxFuture<'a, Result<Task, Error>> {
        boxed(self.call(call, methods::CANCEL, request, flat::task_to_v1))
    }

    fn subscribe_to_task<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SubscribeToTaskRequest,
        last_event_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        boxed(async move {
            let params = params(request)?;
            self.wire
                .stream(
                    call,
                    methods::SUBSCRIBE,
                    &params,
                    last_event_id,
                    decode_event,
                )
                .await
        })
    }

    fn create_task_push_notification_config<'a>(
        &'a self,
        _call: CallInfo,
        _config: &'a TaskPushNotificationConfig,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, Error>> {
        unsupported("CreateTaskPushNotificationConfig")
    }

    fn get_task_push_notification_config<'a>(
        &'a self,
        _call: CallInfo,
        _request: &'a GetTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, Error>> {
        unsupported("GetTaskPushNotificationConfig")
    }

    fn list_task_push_notification_configs<'a>(
        &'a self,
        _call: CallInfo,
        _request: &'a ListTaskPushNotificationConfigsRequest,
    ) -> BoxFuture<'a, Result<ListTaskPushNotificationConfigsResponse, Error>> {
        unsupported("ListTaskPushNotificationConfigs")
    }

    fn delete_task_push_notification_config<'a>(
        &'a self,
        _call: CallInfo,
        _request: &'a DeleteTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<(), Error>> {
        unsupported("DeleteTaskPushNotificationConfig")
    }

    fn get_extended_agent_card<'a>(
        &'a self,
        _call: CallInfo,
        _request: &'a GetExtendedAgentCardRequest,
    ) -> BoxFuture<'a, Result<AgentCard, Error>> {
        unsupported("GetExtendedAgentCard")
    }
}
