//! The JSON-RPC binding of A2A 1.0 (spec §9): every call a JSON-RPC 2.0 request POSTed to the
//! interface's URL, with the whole request as `params`; streams are SSE whose events are
//! JSON-RPC responses. [`JsonRpcWire`] is that plumbing, shared with the 0.3 and 0.1
//! transports.

use std::sync::atomic::{AtomicU64, Ordering};

use a2a_jsonrpc::{ErrorObject, Id, Request, Response};
use a2a_types::protocol::{Operation, content_type};
use a2a_types::v1::{
    AgentCard, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, SendMessageRequest, SendMessageResponse, StreamResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig,
};
use bytes::Bytes;
use http::{Method, header};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{BoxFuture, EventStream, Transport, boxed, sse};
use crate::Error;
use crate::http::{Dialect, HttpClient, Opened, content_type_of};
use crate::interceptor::CallInfo;

/// JSON-RPC 2.0 over HTTP POST, as every version speaks it: fresh request ids, the
/// version's service-parameter headers, answers checked against their request, streams as
/// SSE. The transports of each version put their own method names, params and results on it.
pub(crate) struct JsonRpcWire {
    http: HttpClient,
    endpoint: http::Uri,
    next_id: AtomicU64,
    dialect: Dialect,
    /// The client's error for the agent's JSON-RPC error object (0.1 maps its codes).
    agent_error: fn(ErrorObject) -> Error,
}

impl JsonRpcWire {
    pub(crate) fn new(
        http: HttpClient,
        endpoint: http::Uri,
        dialect: Dialect,
        agent_error: fn(ErrorObject) -> Error,
    ) -> Self {
        Self {
            http,
            endpoint,
            next_id: AtomicU64::new(1),
            dialect,
            agent_error,
        }
    }

    /// The URL the calls go to.
    pub(crate) fn endpoint(&self) -> &http::Uri {
        &self.endpoint
    }

    /// The HTTP request of a call: a JSON-RPC request with a fresh id (without `params` for
    /// `None`).
    fn request<P: Serialize>(
        &self,
        method: &'static str,
        params: Option<&P>,
        accept: &'static str,
        last_event_id: Option<&str>,
    ) -> Result<(Id, http::Request<Bytes>), Error> {
        let id = Id::from(self.next_id.fetch_add(1, Ordering::Relaxed));
        let written = match params {
            Some(params) => serde_json::to_vec(&Request::new(id.clone(), method, params)),
            None => serde_json::to_vec(&Request::without_params(id.clone(), method)),
        };
        let body = written.map_err(|err| {
            Error::Config(format!("the {method} request cannot be written: {err}"))
        })?;
        let request = self
            .http
            .request_in(
                self.dialect,
                Method::POST,
                self.endpoint.clone(),
                accept,
                last_event_id,
            )?
            .header(header::CONTENT_TYPE, content_type::JSON)
            .body(Bytes::from(body))
            .map_err(|err| Error::Config(format!("cannot build the request: {err}")))?;
        Ok((id, request))
    }

    /// One call of `method` answered with JSON; `params` `None` sends none.
    pub(crate) async fn call<P: Serialize, R: DeserializeOwned>(
        &self,
        call: CallInfo,
        method: &'static str,
        params: Option<&P>,
    ) -> Result<R, Error> {
        let (id, request) = self.request(method, params, content_type::JSON, None)?;
        let (head, bytes) = self.http.exchange(&call, request).await?;
        if !head.status.is_success() {
            return Err(Error::http(head.status, &bytes));
        }
        let response: Response<R> = a2a_types::json::from_slice(&bytes)?;
        check_id(&id, &response.id, response.result.is_ok())?;
        response.result.map_err(self.agent_error)
    }

    /// One call of another version's `method`: `params` as that version writes them,
    /// its result `R` converted to the 1.0 `T`.
    pub(crate) async fn call_converted<P, R, T>(
        &self,
        call: CallInfo,
        method: &'static str,
        params: P,
    ) -> Result<T, Error>
    where
        P: Serialize,
        R: DeserializeOwned + Into<T>,
    {
        let result: R = self.call(call, method, Some(&params)).await?;
        Ok(result.into())
    }

    /// One call of `method` answered with an event stream, each event's `data:` read by
    /// `decode`.
    pub(crate) async fn stream<P: Serialize>(
        &self,
        call: CallInfo,
        method: &'static str,
        params: &P,
        last_event_id: Option<&str>,
        decode: fn(&str) -> Result<StreamResponse, Error>,
    ) -> Result<EventStream, Error> {
        let (_, request) = self.request(
            method,
            Some(params),
            content_type::EVENT_STREAM,
            last_event_id,
        )?;
        match self.http.open(&call, request).await? {
            Opened::Events(body) => Ok(sse::events(body, decode)),
            Opened::Answer(head, bytes) => {
                if !head.status.is_success() {
                    return Err(Error::http(head.status, &bytes));
                }
                // An error before the stream starts comes as a plain JSON-RPC response.
                let response: Response<serde_json::Value> = a2a_types::json::from_slice(&bytes)?;
                match response.result {
                    Err(error) => Err((self.agent_error)(error)),
                    Ok(_) => Err(Error::Protocol(format!(
                        "{method} answered with a JSON result instead of an event stream \
                         (Content-Type `{}`)",
                        content_type_of(&head)
                    ))),
                }
            }
        }
    }
}

/// JSON-RPC 2.0 over HTTP, A2A 1.0: the method names of spec §9, the whole request as
/// `params`.
pub(crate) struct JsonRpcTransport {
    wire: JsonRpcWire,
}

impl JsonRpcTransport {
    pub(crate) fn new(http: HttpClient, endpoint: http::Uri) -> Self {
        Self {
            wire: JsonRpcWire::new(http, endpoint, Dialect::V1_0, Error::from),
        }
    }
}

/// One SSE event: a JSON-RPC response whose result is a `StreamResponse` (or an error).
fn decode_event(data: &str) -> Result<StreamResponse, Error> {
    let response: Response<StreamResponse> = a2a_types::json::from_str(data)?;
    response.result.map_err(Error::from)
}

/// A successful answer must carry the id of its request (an error may carry `null`, when the
/// server could not read the id).
fn check_id(sent: &Id, received: &Id, ok: bool) -> Result<(), Error> {
    if sent == received || (!ok && received.is_null()) {
        Ok(())
    } else {
        Err(Error::Protocol(format!(
            "the answer is for request id {received}, not {sent}"
        )))
    }
}

/// A transport method of an older version that is one JSON-RPC call of the method named
/// `$method`, with the 1.0 request converted into `$params` and the result `$result` converted
/// back (the transport has a `wire: JsonRpcWire`).
macro_rules! converted {
    ($name:ident, $request:ty => $params:ty, $method:expr, $result:ty => $out:ty) => {
        fn $name<'a>(
            &'a self,
            call: CallInfo,
            request: &'a $request,
        ) -> BoxFuture<'a, Result<$out, Error>> {
            let params = <$params>::from(request.clone());
            boxed(
                self.wire
                    .call_converted::<_, $result, _>(call, $method, params),
            )
        }
    };
}
pub(crate) use converted;

/// A transport method that is one JSON-RPC call of `$operation` with the request as params.
macro_rules! unary {
    ($name:ident, $request:ty, $result:ty, $operation:ident) => {
        fn $name<'a>(
            &'a self,
            call: CallInfo,
            request: &'a $request,
        ) -> BoxFuture<'a, Result<$result, Error>> {
            boxed(
                self.wire
                    .call(call, Operation::$operation.method(), Some(request)),
            )
        }
    };
}

impl Transport for JsonRpcTransport {
    unary!(
        send_message,
        SendMessageRequest,
        SendMessageResponse,
        SendMessage
    );
    unary!(get_task, GetTaskRequest, Task, GetTask);
    unary!(list_tasks, ListTasksRequest, ListTasksResponse, ListTasks);
    unary!(cancel_task, CancelTaskRequest, Task, CancelTask);
    unary!(
        create_task_push_notification_config,
        TaskPushNotificationConfig,
        TaskPushNotificationConfig,
        CreateTaskPushNotificationConfig
    );
    unary!(
        get_task_push_notification_config,
        GetTaskPushNotificationConfigRequest,
        TaskPushNotificationConfig,
        GetTaskPushNotificationConfig
    );
    unary!(
        list_task_push_notification_configs,
        ListTaskPushNotificationConfigsRequest,
        ListTaskPushNotificationConfigsResponse,
        ListTaskPushNotificationConfigs
    );
    unary!(
        get_extended_agent_card,
        GetExtendedAgentCardRequest,
        AgentCard,
        GetExtendedAgentCard
    );

    fn send_streaming_message<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SendMessageRequest,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        let method = Operation::SendStreamingMessage.method();
        boxed(self.wire.stream(call, method, request, None, decode_event))
    }

    fn subscribe_to_task<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SubscribeToTaskRequest,
        last_event_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        let method = Operation::SubscribeToTask.method();
        boxed(
            self.wire
                .stream(call, method, request, last_event_id, decode_event),
        )
    }

    fn delete_task_push_notification_config<'a>(
        &'a self,
        call: CallInfo,
        request: &'a DeleteTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<(), Error>> {
        let method = Operation::DeleteTaskPushNotificationConfig.method();
        // The result is `{}` (ProtoJSON of Empty) or `null` (Python): both are fine.
        boxed(async move {
            let _: serde::de::IgnoredAny = self.wire.call(call, method, Some(request)).await?;
            Ok(())
        })
    }
}
