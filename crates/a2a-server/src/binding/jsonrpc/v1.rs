//! A2A 1.0 over JSON-RPC: the PascalCase methods, their params and results as the `v1` types
//! (ProtoJSON), `SendMessage`'s result wrapped (`{"task": …}` or `{"message": …}`).

use a2a_jsonrpc::{ErrorObject, Methods, Request};
use a2a_types::protocol::Operation;
use a2a_types::v1::{
    CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTasksRequest, SendMessageRequest, StreamResponse, SubscribeToTaskRequest,
    TaskPushNotificationConfig,
};

use super::{Generation, RpcContext, StreamStart};
use crate::error::A2aError;
use crate::http::head::RequestedVersion;

/// The 1.0 generation of the JSON-RPC endpoint.
pub(super) fn generation() -> Generation {
    Generation {
        name: "1.0",
        check_version: RequestedVersion::require_v1,
        table: table(),
        streams: |method| Operation::from_method(method).is_some_and(Operation::is_streaming),
        open_stream,
        write_event,
    }
}

fn rpc<T>(result: Result<T, A2aError>) -> Result<T, ErrorObject> {
    result.map_err(ErrorObject::from)
}

/// The nine methods answered with one JSON response.
fn table() -> Methods<RpcContext> {
    Methods::new()
        .register(
            Operation::SendMessage.method(),
            |p: SendMessageRequest, cx: RpcContext| async move {
                rpc(cx.handler.send_message(p, &cx.call).await)
            },
        )
        .register(
            Operation::GetTask.method(),
            |p: GetTaskRequest, cx: RpcContext| async move {
                rpc(cx.handler.get_task(p, &cx.call).await)
            },
        )
        .register(
            Operation::ListTasks.method(),
            |p: ListTasksRequest, cx: RpcContext| async move {
                rpc(cx.handler.list_tasks(p, &cx.call).await)
            },
        )
        .register(
            Operation::CancelTask.method(),
            |p: CancelTaskRequest, cx: RpcContext| async move {
                rpc(cx.handler.cancel_task(p, &cx.call).await)
            },
        )
        .register(
            Operation::CreateTaskPushNotificationConfig.method(),
            |p: TaskPushNotificationConfig, cx: RpcContext| async move {
                rpc(cx.handler.create_push_config(p, &cx.call).await)
            },
        )
        .register(
            Operation::GetTaskPushNotificationConfig.method(),
            |p: GetTaskPushNotificationConfigRequest, cx: RpcContext| async move {
                rpc(cx.handler.get_push_config(p, &cx.call).await)
            },
        )
        .register(
            Operation::ListTaskPushNotificationConfigs.method(),
            |p: ListTaskPushNotificationConfigsRequest, cx: RpcContext| async move {
                rpc(cx.handler.list_push_configs(p, &cx.call).await)
            },
        )
        .register(
            Operation::DeleteTaskPushNotificationConfig.method(),
            |p: DeleteTaskPushNotificationConfigRequest, cx: RpcContext| async move {
                // google.protobuf.Empty in ProtoJSON.
                rpc(cx.handler.delete_push_config(p, &cx.call).await)
                    .map(|()| serde_json::json!({}))
            },
        )
        .register(
            Operation::GetExtendedAgentCard.method(),
            |p: GetExtendedAgentCardRequest, cx: RpcContext| async move {
                rpc(cx.handler.get_extended_agent_card(p, &cx.call).await)
            },
        )
}

/// The two streaming methods: `None` for any other method.
fn open_stream(request: &Request, cx: RpcContext) -> Option<StreamStart> {
    match Operation::from_method(&request.method)? {
        Operation::SendStreamingMessage => {
            let params = request.decode_params::<SendMessageRequest>();
            Some(Box::pin(async move {
                let params = params.map_err(A2aError::from)?;
                cx.handler.send_streaming_message(params, &cx.call).await
            }))
        }
        Operation::SubscribeToTask => {
            let params = request.decode_params::<SubscribeToTaskRequest>();
            Some(Box::pin(async move {
                let params = params.map_err(A2aError::from)?;
                cx.handler
                    .subscribe_to_task(&params.id, cx.last_event_id?, &cx.call)
                    .await
            }))
        }
        _ => None,
    }
}

/// A 1.0 event is the `StreamResponse` as it is.
fn write_event(event: &StreamResponse, out: &mut Vec<u8>) {
    serde_json::to_writer(out, event).expect("events serialize");
}
