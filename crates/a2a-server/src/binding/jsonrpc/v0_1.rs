//! A2A 0.1 over JSON-RPC: the `tasks/send` version ([`a2a_types::v0_1`]). The client
//! chooses the task id (`TaskSendParams.id`): a send naming an id no task has starts a task
//! under it ([`CallContext::client_task_ids`](crate::CallContext::client_task_ids)), one naming
//! the caller's task continues it. Results are 0.1 tasks (`sessionId`, `type`-tagged parts,
//! artifacts with `index`); stream events carry the task `id` and `final`. A direct message
//! reply, which 0.1 cannot carry, becomes the completed task under the client's id with the
//! message as its status message. Errors: -32006 to -32009 meant other things in 0.1 and are
//! sent as the codes [`error_code_from_v1`] names; `data`, an object in 0.1, is the first
//! `ErrorInfo` of the 1.0 details.

use a2a_jsonrpc::{ErrorCode, ErrorObject};
use a2a_types::protocol::ProtocolVersion;
use a2a_types::v0_1::{
    self, StreamEvent, TaskIdParams, TaskQueryParams, TaskSendParams, error_code_from_v1,
    tag::{
        CancelTaskMethod, GetTaskMethod, GetTaskPushNotificationMethod, SendTaskMethod,
        SendTaskStreamingMethod, SetTaskPushNotificationMethod, TaskResubscriptionMethod,
    },
};
use a2a_types::v1::{
    self, CancelTaskRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest, Message,
    MessageId, SendMessageRequest, SendMessageResponse, StreamResponse, SubscribeToTaskRequest,
    TaskId, TaskState, TaskStatus, TaskStatusUpdateEvent,
};
use futures_util::StreamExt as _;

use super::legacy::{self, convert, ops};
use super::{RpcContext, RpcVersion, Table};
use crate::error::A2aError;
use crate::handler::{EventStream, StreamEvent as LoggedEvent};

/// The 0.1 version of the JSON-RPC endpoint.
pub(super) fn protocol_version() -> RpcVersion {
    RpcVersion {
        name: "0.1",
        protocol_version: ProtocolVersion::V0_1,
        check_version: legacy::check_v0_1,
        table: table(),
        write_event,
        render_error,
    }
}

/// The seven methods of 0.1: five answered with one JSON response, two with a stream.
fn table() -> Table {
    let table = Table::streaming();
    let table = legacy::streaming(table, SendTaskStreamingMethod::VALUE, send_in, |cx, req| {
        send_streaming(cx, req)
    });
    let table = legacy::streaming(
        table,
        TaskResubscriptionMethod::VALUE,
        convert::<TaskQueryParams, SubscribeToTaskRequest>,
        ops::subscribe,
    );
    let table = legacy::unary(table, SendTaskMethod::VALUE, send_in, send, send_out);
    let table = legacy::unary(
        table,
        GetTaskMethod::VALUE,
        convert::<TaskQueryParams, GetTaskRequest>,
        ops::get_task,
        convert::<v1::Task, v0_1::Task>,
    );
    let table = legacy::unary(
        table,
        CancelTaskMethod::VALUE,
        convert::<TaskIdParams, CancelTaskRequest>,
        ops::cancel_task,
        convert::<v1::Task, v0_1::Task>,
    );
    let table = legacy::unary(
        table,
        SetTaskPushNotificationMethod::VALUE,
        convert::<v0_1::TaskPushNotificationConfig, v1::TaskPushNotificationConfig>,
        ops::create_push_config,
        push_config_out,
    );
    legacy::unary(
        table,
        GetTaskPushNotificationMethod::VALUE,
        convert::<TaskIdParams, GetTaskPushNotificationConfigRequest>,
        ops::get_push_config,
        push_config_out,
    )
}

/// `tasks/send` and `tasks/sendSubscribe` params as a 1.0 send: the task id as
/// `message.taskId`, `sessionId` as `message.contextId`, and a message id (0.1 has none).
fn send_in(params: TaskSendParams) -> Result<SendMessageRequest, A2aError> {
    let mut request = SendMessageRequest::from(params);
    if request.message.message_id.is_empty() {
        request.message.message_id = MessageId::random();
    }
    Ok(request)
}

/// A 0.1 send: the client chooses the task id.
fn client_chooses(mut cx: RpcContext) -> RpcContext {
    cx.call.client_task_ids = true;
    cx
}

/// `tasks/send`: the 1.0 answer, with the task id the client chose.
async fn send(
    cx: RpcContext,
    req: SendMessageRequest,
) -> Result<(TaskId, SendMessageResponse), A2aError> {
    let id = req.message.task_id.clone().unwrap_or_default();
    let response = ops::send(client_chooses(cx), req).await?;
    Ok((id, response))
}

/// The 0.1 result of `tasks/send`: the task, or for a direct message reply the completed task
/// under the client's id with the message as its status message.
fn send_out((id, response): (TaskId, SendMessageResponse)) -> Result<v0_1::Task, A2aError> {
    match response {
        SendMessageResponse::Message(message) => Ok(v0_1::Task::from_v1_message(id, message)),
        other => v0_1::Task::try_from(other)
            .map_err(|e| A2aError::internal(format!("the answer has no 0.1 form: {e}"))),
    }
}

/// `tasks/sendSubscribe`: the 1.0 stream, a direct message reply becoming the final status
/// update of the client's task.
async fn send_streaming(cx: RpcContext, req: SendMessageRequest) -> Result<EventStream, A2aError> {
    let id = req.message.task_id.clone().unwrap_or_default();
    let events = ops::send_streaming(client_chooses(cx), req).await?;
    Ok(Box::pin(events.map(move |item| {
        item.map(|mut logged: LoggedEvent| {
            if let StreamResponse::Message(message) = logged.event {
                logged.event = reply_event(id.clone(), message);
            }
            logged
        })
    })))
}

/// A direct message reply as 0.1 sees it: the task `id` completed, the message its status
/// message (as [`v0_1::Task::from_v1_message`] answers `tasks/send`).
fn reply_event(id: TaskId, message: Message) -> StreamResponse {
    let context = message.context_id.clone().unwrap_or_default();
    let status = TaskStatus::now(TaskState::Completed).with_message(message);
    StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(id, context, status))
}

/// A 1.0 push configuration as the 0.1 `TaskPushNotificationConfig` (whose `id` is the task).
fn push_config_out(
    config: v1::TaskPushNotificationConfig,
) -> Result<v0_1::TaskPushNotificationConfig, A2aError> {
    v0_1::TaskPushNotificationConfig::try_from(config)
        .map_err(|e| A2aError::internal(format!("the push configuration has no 0.1 form: {e}")))
}

/// A 0.1 event: a status update (`id`, `status`, `final`) or an artifact update (`id`,
/// `artifact` with `index`, `append`, `lastChunk`). The first event of a 1.0 stream, the task,
/// is its status.
fn write_event(event: &StreamResponse, out: &mut Vec<u8>) {
    let event = match event {
        // Replies were turned into status updates by `send_streaming`; this keeps any other
        // stream whole all the same.
        StreamResponse::Message(message) => {
            let id = message.task_id.clone().unwrap_or_default();
            reply_event(id, message.clone())
        }
        other => other.clone(),
    };
    let event = StreamEvent::try_from(event).expect("every event but a message converts");
    serde_json::to_writer(out, &event).expect("events serialize");
}

/// A 1.0 error as a 0.1 peer reads it: codes -32006 to -32009 as [`error_code_from_v1`] maps
/// them, `data` the first `ErrorInfo` (0.1's `data` is an object) or absent.
fn render_error(error: ErrorObject) -> ErrorObject {
    let code = ErrorCode(error_code_from_v1(error.code.code()));
    let data = match error.data {
        Some(serde_json::Value::Array(details)) => details.into_iter().find(|d| {
            d.get("@type").and_then(serde_json::Value::as_str)
                == Some("type.googleapis.com/google.rpc.ErrorInfo")
        }),
        Some(object @ serde_json::Value::Object(_)) => Some(object),
        Some(_) | None => None,
    };
    let mut rendered = ErrorObject::new(code, error.message);
    rendered.data = data;
    rendered
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_keep_their_meaning_for_0_1_peers() {
        let version = ErrorObject::from(A2aError::version_not_supported("not this one"));
        let rendered = render_error(version);
        assert_eq!(rendered.code.code(), -32600);
        assert_eq!(
            serde_json::to_value(&rendered).unwrap(),
            serde_json::json!({
                "code": -32600,
                "message": "not this one",
                "data": {
                    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                    "reason": "VERSION_NOT_SUPPORTED",
                    "domain": "a2a-protocol.org"
                }
            })
        );
        let not_found = render_error(A2aError::task_not_found("t-1").into());
        assert_eq!(not_found.code.code(), -32001);
        assert_eq!(not_found.data.unwrap()["metadata"]["taskId"], "t-1");
        let plain = render_error(ErrorObject::new(ErrorCode(-32603), "boom"));
        assert_eq!(plain.data, None);
    }
}
