//! The A2A 1.0 JSON-RPC binding: PascalCase methods on one POST path, wrapped results, errors
//! with `ErrorInfo` data, and SSE for the two streaming methods.

use a2a_jsonrpc::{ErrorCode, ErrorObject, Id, Incoming, Methods, Payload, Response};
use a2a_types::v1::{
    CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTasksRequest, SendMessageRequest, SubscribeToTaskRequest, TaskPushNotificationConfig,
};

use crate::error::A2aError;
use crate::handler::{CallContext, EventStream, RequestHandler};

/// The per-call context the method table hands to each method.
#[derive(Clone)]
pub(crate) struct RpcContext {
    pub(crate) handler: RequestHandler,
    pub(crate) call: CallContext,
}

/// The JSON-RPC method names of A2A 1.0.
pub mod methods {
    /// `SendMessage`.
    pub const SEND_MESSAGE: &str = "SendMessage";
    /// `SendStreamingMessage` (answered with SSE).
    pub const SEND_STREAMING_MESSAGE: &str = "SendStreamingMessage";
    /// `GetTask`.
    pub const GET_TASK: &str = "GetTask";
    /// `ListTasks`.
    pub const LIST_TASKS: &str = "ListTasks";
    /// `CancelTask`.
    pub const CANCEL_TASK: &str = "CancelTask";
    /// `SubscribeToTask` (answered with SSE).
    pub const SUBSCRIBE_TO_TASK: &str = "SubscribeToTask";
    /// `CreateTaskPushNotificationConfig`.
    pub const CREATE_PUSH_CONFIG: &str = "CreateTaskPushNotificationConfig";
    /// `GetTaskPushNotificationConfig`.
    pub const GET_PUSH_CONFIG: &str = "GetTaskPushNotificationConfig";
    /// `ListTaskPushNotificationConfigs`.
    pub const LIST_PUSH_CONFIGS: &str = "ListTaskPushNotificationConfigs";
    /// `DeleteTaskPushNotificationConfig`.
    pub const DELETE_PUSH_CONFIG: &str = "DeleteTaskPushNotificationConfig";
    /// `GetExtendedAgentCard`.
    pub const GET_EXTENDED_AGENT_CARD: &str = "GetExtendedAgentCard";

    /// Every 1.0 method.
    pub const ALL: [&str; 11] = [
        SEND_MESSAGE,
        SEND_STREAMING_MESSAGE,
        GET_TASK,
        LIST_TASKS,
        CANCEL_TASK,
        SUBSCRIBE_TO_TASK,
        CREATE_PUSH_CONFIG,
        GET_PUSH_CONFIG,
        LIST_PUSH_CONFIGS,
        DELETE_PUSH_CONFIG,
        GET_EXTENDED_AGENT_CARD,
    ];
}

/// An [`A2aError`] as a JSON-RPC error object.
pub(crate) fn to_error_object(err: &A2aError) -> ErrorObject {
    err.to_error_object()
}

fn rpc<T>(result: Result<T, A2aError>) -> Result<T, ErrorObject> {
    result.map_err(|e| to_error_object(&e))
}

/// The table of the nine methods answered with one JSON response.
pub(crate) fn method_table() -> Methods<RpcContext> {
    Methods::new()
        .register(
            methods::SEND_MESSAGE,
            |p: SendMessageRequest, cx: RpcContext| async move {
                rpc(cx.handler.send_message(p, &cx.call).await)
            },
        )
        .register(
            methods::GET_TASK,
            |p: GetTaskRequest, cx: RpcContext| async move {
                rpc(cx.handler.get_task(p, &cx.call).await)
            },
        )
        .register(
            methods::LIST_TASKS,
            |p: ListTasksRequest, cx: RpcContext| async move {
                rpc(cx.handler.list_tasks(p, &cx.call).await)
            },
        )
        .register(
            methods::CANCEL_TASK,
            |p: CancelTaskRequest, cx: RpcContext| async move {
                rpc(cx.handler.cancel_task(p, &cx.call).await)
            },
        )
        .register(
            methods::CREATE_PUSH_CONFIG,
            |p: TaskPushNotificationConfig, cx: RpcContext| async move {
                rpc(cx.handler.create_push_config(p, &cx.call).await)
            },
        )
        .register(
            methods::GET_PUSH_CONFIG,
            |p: GetTaskPushNotificationConfigRequest, cx: RpcContext| async move {
                rpc(cx.handler.get_push_config(p, &cx.call).await)
            },
        )
        .register(
            methods::LIST_PUSH_CONFIGS,
            |p: ListTaskPushNotificationConfigsRequest, cx: RpcContext| async move {
                rpc(cx.handler.list_push_configs(p, &cx.call).await)
            },
        )
        .register(
            methods::DELETE_PUSH_CONFIG,
            |p: DeleteTaskPushNotificationConfigRequest, cx: RpcContext| async move {
                // google.protobuf.Empty in ProtoJSON.
                rpc(cx.handler.delete_push_config(p, &cx.call).await)
                    .map(|()| serde_json::json!({}))
            },
        )
        .register(
            methods::GET_EXTENDED_AGENT_CARD,
            |p: GetExtendedAgentCardRequest, cx: RpcContext| async move {
                rpc(cx.handler.get_extended_agent_card(p, &cx.call).await)
            },
        )
}

/// What the binding decided for one HTTP request body.
pub(crate) enum Dispatch {
    /// Answer with this JSON (`None`: nothing to send, e.g. only notifications).
    Json(Option<Vec<u8>>),
    /// Answer with an SSE stream; each event is a response with this id.
    Stream(Id, EventStream),
}

/// How the `A2A-Version` of a request is judged.
pub(crate) enum VersionCheck {
    Ok,
    Refused(String),
}

/// `1`, `1.0`, `1.0.1` and `1.9` are 1.x; a missing or empty value means 0.3.
pub(crate) fn check_version(value: Option<&str>) -> VersionCheck {
    let value = value.map(str::trim).unwrap_or("");
    if value.is_empty() {
        return VersionCheck::Refused(
            "a request without an A2A-Version header is taken as A2A 0.3, which this endpoint does not serve yet; \
             send the header `A2A-Version: 1.0`"
                .to_owned(),
        );
    }
    let major = value.split('.').next().unwrap_or("");
    let well_formed = value
        .split('.')
        .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    if well_formed && major == "1" {
        VersionCheck::Ok
    } else {
        VersionCheck::Refused(format!(
            "A2A version `{value}` is not supported; this endpoint serves 1.0 (send `A2A-Version: 1.0`)"
        ))
    }
}

fn version_error(message: &str) -> ErrorObject {
    ErrorObject::a2a(ErrorCode::VERSION_NOT_SUPPORTED, message.to_owned())
}

/// Routes one parsed JSON-RPC body.
pub(crate) async fn dispatch(
    table: &Methods<RpcContext>,
    cx: RpcContext,
    payload: Payload,
    version: VersionCheck,
    last_event_id: Option<&str>,
) -> Dispatch {
    if let VersionCheck::Refused(message) = version {
        let answer = |incoming: &Incoming| match incoming {
            Incoming::Request(r) => Some(Response::error(r.id.clone(), version_error(&message))),
            Incoming::Notification(_) => None,
            Incoming::Invalid { id, error } => Some(Response::error(id.clone(), error.clone())),
        };
        return Dispatch::Json(match &payload {
            Payload::Single(incoming) => answer(incoming).map(|r| r.to_vec()),
            Payload::Batch(items) => {
                let responses: Vec<Response> = items.iter().filter_map(answer).collect();
                (!responses.is_empty())
                    .then(|| serde_json::to_vec(&responses).expect("responses serialize"))
            }
        });
    }
    if let Payload::Single(Incoming::Request(request)) = &payload {
        let streamed = match request.method.as_ref() {
            methods::SEND_STREAMING_MESSAGE => {
                Some(match request.decode_params::<SendMessageRequest>() {
                    Ok(params) => cx.handler.send_streaming_message(params, &cx.call).await,
                    Err(error) => {
                        return Dispatch::Json(Some(
                            Response::error(request.id.clone(), error).to_vec(),
                        ));
                    }
                })
            }
            methods::SUBSCRIBE_TO_TASK => {
                Some(match request.decode_params::<SubscribeToTaskRequest>() {
                    Ok(params) => match parse_last_event_id(last_event_id) {
                        Ok(last) => {
                            cx.handler
                                .subscribe_to_task(&params.id, last, &cx.call)
                                .await
                        }
                        Err(err) => Err(err),
                    },
                    Err(error) => {
                        return Dispatch::Json(Some(
                            Response::error(request.id.clone(), error).to_vec(),
                        ));
                    }
                })
            }
            _ => None,
        };
        if let Some(result) = streamed {
            return match result {
                Ok(stream) => Dispatch::Stream(request.id.clone(), stream),
                Err(err) => Dispatch::Json(Some(
                    Response::error(request.id.clone(), to_error_object(&err)).to_vec(),
                )),
            };
        }
    }
    // Streaming methods inside a batch cannot stream: answer them with an error.
    let payload = match payload {
        Payload::Batch(items) => {
            Payload::Batch(items.into_iter().map(refuse_streaming_in_batch).collect())
        }
        single => single,
    };
    Dispatch::Json(
        table
            .handle_payload(payload, cx)
            .await
            .map(|reply| reply.to_vec()),
    )
}

fn refuse_streaming_in_batch(incoming: Incoming) -> Incoming {
    match incoming {
        Incoming::Request(r)
            if r.method == methods::SEND_STREAMING_MESSAGE
                || r.method == methods::SUBSCRIBE_TO_TASK =>
        {
            let error = ErrorObject::invalid_request(format!(
                "{} streams its answer and cannot be part of a batch",
                r.method
            ));
            Incoming::Invalid { id: r.id, error }
        }
        other => other,
    }
}

fn parse_last_event_id(value: Option<&str>) -> Result<Option<u64>, A2aError> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        Some(v) => v.parse().map(Some).map_err(|_| {
            A2aError::invalid_params(format!(
                "Last-Event-ID `{v}` is not an event id this server sent"
            ))
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert!(matches!(check_version(Some("1.0")), VersionCheck::Ok));
        assert!(matches!(check_version(Some("1.0.1")), VersionCheck::Ok));
        assert!(matches!(check_version(Some(" 1.3 ")), VersionCheck::Ok));
        assert!(matches!(check_version(Some("1")), VersionCheck::Ok));
        for refused in [
            None,
            Some(""),
            Some("0.3"),
            Some("2.0"),
            Some("1.x"),
            Some("v1.0"),
        ] {
            assert!(
                matches!(check_version(refused), VersionCheck::Refused(_)),
                "{refused:?}"
            );
        }
    }

    #[test]
    fn errors_carry_error_info() {
        let obj = to_error_object(&A2aError::task_not_found("t-1"));
        assert_eq!(
            serde_json::to_value(&obj).unwrap(),
            serde_json::json!({
                "code": -32001,
                "message": "task t-1 not found",
                "data": [{
                    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                    "reason": "TASK_NOT_FOUND",
                    "domain": "a2a-protocol.org",
                    "metadata": {"taskId": "t-1"}
                }]
            })
        );
    }
}
