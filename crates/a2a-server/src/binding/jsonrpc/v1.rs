//! A2A 1.0 over JSON-RPC: the PascalCase methods, their params and results as the `v1` types
//! (ProtoJSON), `SendMessage`'s result wrapped (`{"task": …}` or `{"message": …}`).

use a2a_jsonrpc::ErrorObject;
use a2a_types::protocol::{Operation, ProtocolVersion};
use a2a_types::v1::{
    CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTasksRequest, SendMessageRequest, StreamResponse, SubscribeToTaskRequest,
    TaskPushNotificationConfig,
};

use super::{RpcContext, RpcVersion, Table};
use crate::common::head::RequestedVersion;
use crate::error::A2aError;

/// The 1.0 version of the JSON-RPC endpoint.
pub(super) fn protocol_version() -> RpcVersion {
    RpcVersion {
        name: "1.0",
        protocol_version: ProtocolVersion::V1,
        check_version: RequestedVersion::require_v1,
        table: table(),
        write_event,
        render_error: std::convert::identity,
    }
}

fn rpc<T>(result: Result<T, A2aError>) -> Result<T, ErrorObject> {
    result.map_err(ErrorObject::from)
}

/// The eleven methods: nine answered with one JSON response, two with a stream.
fn table() -> Table {
    Table::streaming()
        .register_stream(
            Operation::SendStreamingMessage.method(),
            |p: SendMessageRequest, cx: RpcContext| async move {
                {
                    let call = cx.call_in(&p.tenant);
                    rpc(cx.handler.send_streaming_message(p, &call).await)
                }
            },
        )
        .register_stream(
            Operation::SubscribeToTask.method(),
            |p: SubscribeToTaskRequest, cx: RpcContext| async move {
                let call = cx.call_in(&p.tenant);
                let last_event_id = rpc(cx.last_event_id)?;
                rpc(cx
                    .handler
                    .subscribe_to_task(&p.id, last_event_id, &call)
                    .await)
            },
        )
        .register(
            Operation::SendMessage.method(),
            |p: SendMessageRequest, cx: RpcContext| async move {
                {
                    let call = cx.call_in(&p.tenant);
                    rpc(cx.handler.send_message(p, &call).await)
                }
            },
        )
        .register(
            Operation::GetTask.method(),
            |p: GetTaskRequest, cx: RpcContext| async move {
                {
                    let call = cx.call_in(&p.tenant);
                    rpc(cx.handler.get_task(p, &call).await)
                }
            },
        )
        .register(
            Operation::ListTasks.method(),
            |p: ListTasksRequest, cx: RpcContext| async move {
                {
                    let call = cx.call_in(&p.tenant);
                    rpc(cx.handler.list_tasks(p, &call).await)
                }
            },
        )
        .register(
            Operation::CancelTask.method(),
            |p: CancelTaskRequest, cx: RpcContext| async move {
                {
                    let call = cx.call_in(&p.tenant);
                    rpc(cx.handler.cancel_task(p, &call).await)
                }
            },
        )
        .register(
            Operation::CreateTaskPushNotificationConfig.method(),
            |p: TaskPushNotificationConfig, cx: RpcContext| async move {
                {
                    let call = cx.call_in(&p.tenant);
                    rpc(cx.handler.create_push_config(p, &call).await)
                }
            },
        )
        .register(
            Operation::GetTaskPushNotificationConfig.method(),
            |p: GetTaskPushNotificationConfigRequest, cx: RpcContext| async move {
                {
                    let call = cx.call_in(&p.tenant);
                    rpc(cx.handler.get_push_config(p, &call).await)
                }
            },
        )
        .register(
            Operation::ListTaskPushNotificationConfigs.method(),
            |p: ListTaskPushNotificationConfigsRequest, cx: RpcContext| async move {
                {
                    let call = cx.call_in(&p.tenant);
                    rpc(cx.handler.list_push_configs(p, &call).await)
                }
            },
        )
        .register(
            Operation::DeleteTaskPushNotificationConfig.method(),
            |p: DeleteTaskPushNotificationConfigRequest, cx: RpcContext| async move {
                // google.protobuf.Empty in ProtoJSON.
                {
                    let call = cx.call_in(&p.tenant);
                    rpc(cx.handler.delete_push_config(p, &call).await)
                }
                .map(|()| serde_json::json!({}))
            },
        )
        .register(
            Operation::GetExtendedAgentCard.method(),
            |p: GetExtendedAgentCardRequest, cx: RpcContext| async move {
                {
                    let call = cx.call_in(&p.tenant);
                    rpc(cx.handler.get_extended_agent_card(p, &call).await)
                }
            },
        )
}

/// A 1.0 event is the `StreamResponse` as it is.
fn write_event(event: &StreamResponse, out: &mut Vec<u8>) {
    serde_json::to_writer(out, event).expect("events serialize");
}
