//! A2A 0.1 over JSON-RPC: the `tasks/send` version ([`a2a_types::v0_1`]). The client
//! chooses the task id (`TaskSendParams.id`): a send naming an id no task has starts a task
//! under it ([`CallContext::client_task_ids`](crate::handler::CallContext::client_task_ids)), one naming
//! the caller's task continues it. Results are 0.1 tasks (`sessionId`, `type`-tagged parts,
//! artifacts with `index`); stream events carry the task `id` and `final`. A direct message
//! reply, which 0.1 cannot carry, becomes the completed task under the client's id with the
//! message as its status message. Errors: -32006 to -32009 meant other things in 0.1 and are
//! sent as the codes [`error_code_from_v1`] names; `data`, an object in 0.1, is the first
//! `ErrorInfo` of the 1.0 details.

use a2a_jsonrpc::{ErrorCode, ErrorObject, RawValue, decode_params};
use a2a_types::protocol::{Call, Operation, ProtocolVersion, Reply, Request, StreamRequest};
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

use super::{Asked, Codec, Version, legacy, no_form, raw};
use crate::error::A2aError;
use crate::handler::{CallContext, EventStream, StreamEvent as LoggedEvent};

/// The 0.1 version of the JSON-RPC endpoint.
pub(super) struct V0_1;

/// The methods of 0.1 and the operations they call.
const METHODS: [(&str, Operation); 7] = [
    (SendTaskMethod::VALUE, Operation::SendMessage),
    (
        SendTaskStreamingMethod::VALUE,
        Operation::SendStreamingMessage,
    ),
    (GetTaskMethod::VALUE, Operation::GetTask),
    (CancelTaskMethod::VALUE, Operation::CancelTask),
    (TaskResubscriptionMethod::VALUE, Operation::SubscribeToTask),
    (
        SetTaskPushNotificationMethod::VALUE,
        Operation::CreateTaskPushNotificationConfig,
    ),
    (
        GetTaskPushNotificationMethod::VALUE,
        Operation::GetTaskPushNotificationConfig,
    ),
];

impl Codec for V0_1 {
    fn version(&self) -> &'static Version {
        &Version {
            name: "0.1",
            protocol_version: ProtocolVersion::V0_1,
            check: legacy::check_v0_1,
            methods: Some(&METHODS),
        }
    }

    /// The 0.1 params, converted to the 1.0 request; a send lets the client choose the id of
    /// a new task.
    fn decode(
        &self,
        operation: Operation,
        params: Option<&RawValue>,
        call: &mut CallContext,
    ) -> Result<Call, ErrorObject> {
        let p = params;
        Ok(match operation {
            Operation::SendMessage => {
                call.client_task_ids = true;
                Request::SendMessage(Box::new(send_in(decode_params(p)?))).into()
            }
            Operation::SendStreamingMessage => {
                call.client_task_ids = true;
                StreamRequest::SendStreamingMessage(Box::new(send_in(decode_params(p)?))).into()
            }
            Operation::GetTask => {
                Request::GetTask(GetTaskRequest::from(decode_params::<TaskQueryParams>(p)?)).into()
            }
            Operation::CancelTask => {
                Request::CancelTask(CancelTaskRequest::from(decode_params::<TaskIdParams>(p)?))
                    .into()
            }
            Operation::SubscribeToTask => {
                StreamRequest::SubscribeToTask(SubscribeToTaskRequest::from(decode_params::<
                    TaskQueryParams,
                >(p)?))
                .into()
            }
            Operation::CreateTaskPushNotificationConfig => {
                Request::CreateTaskPushNotificationConfig(v1::TaskPushNotificationConfig::from(
                    decode_params::<v0_1::TaskPushNotificationConfig>(p)?,
                ))
                .into()
            }
            Operation::GetTaskPushNotificationConfig => Request::GetTaskPushNotificationConfig(
                GetTaskPushNotificationConfigRequest::from(decode_params::<TaskIdParams>(p)?),
            )
            .into(),
            other => return Err(ErrorObject::method_not_found(other.method())),
        })
    }

    /// The 0.1 result: 0.1 tasks (a direct message reply to `tasks/send` as the completed task
    /// under the client's id), 0.1 push configurations.
    fn encode(&self, asked: &Asked, reply: Reply) -> Result<Box<RawValue>, A2aError> {
        match reply {
            Reply::Sent(sent) => raw(&send_out(asked.task_id.clone().unwrap_or_default(), *sent)?),
            Reply::Task(task) => raw(&v0_1::Task::from(*task)),
            Reply::PushConfig(config) => raw(&push_config_out(config)?),
            other => Err(no_form("0.1", &other)),
        }
    }

    /// `tasks/sendSubscribe`: a direct message reply becomes the final status update of the
    /// client's task.
    fn stream(&self, asked: &Asked, events: EventStream) -> EventStream {
        if asked.operation != Operation::SendStreamingMessage {
            return events;
        }
        let id = asked.task_id.clone().unwrap_or_default();
        Box::pin(events.map(move |item| {
            item.map(|mut logged: LoggedEvent| {
                if let StreamResponse::Message(message) = logged.event {
                    logged.event = reply_event(id.clone(), message);
                }
                logged
            })
        }))
    }

    /// A 0.1 event: a status update (`id`, `status`, `final`) or an artifact update (`id`,
    /// `artifact` with `index`, `append`, `lastChunk`). The first event of a 1.0 stream, the
    /// task, is its status.
    fn event(&self, event: &StreamResponse, out: &mut Vec<u8>) {
        let event = match event {
            // Replies were turned into status updates by `stream`; this keeps any other
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

    fn error(&self, error: ErrorObject) -> ErrorObject {
        render_error(error)
    }
}

/// `tasks/send` and `tasks/sendSubscribe` params as a 1.0 send: the task id as
/// `message.taskId`, `sessionId` as `message.contextId`, and a message id (0.1 has none).
fn send_in(params: TaskSendParams) -> SendMessageRequest {
    let mut request = SendMessageRequest::from(params);
    if request.message.message_id.is_empty() {
        request.message.message_id = MessageId::random();
    }
    request
}

/// The 0.1 result of `tasks/send`: the task, or for a direct message reply the completed task
/// under the client's id with the message as its status message.
fn send_out(id: TaskId, response: SendMessageResponse) -> Result<v0_1::Task, A2aError> {
    match response {
        SendMessageResponse::Message(message) => Ok(v0_1::Task::from_v1_message(id, message)),
        other => v0_1::Task::try_from(other)
            .map_err(|e| A2aError::internal(format!("the answer has no 0.1 form: {e}"))),
    }
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
    use crate::binding::jsonrpc::testing::{decoded, encoded, event, events, message, replies};
    use pretty_assertions::assert_eq;
    use serde_json::json;

    /// Each 0.1 method's params decode to the 1.0 request of its operation; a send lets the
    /// client choose the task's id.
    #[test]
    fn every_method_decodes_to_the_1_0_request() {
        let send = r#"{"id":"t-1","sessionId":"s-1","message":{"role":"user","parts":[{"type":"text","text":"hi"}]}}"#;
        let cases = [
            ("tasks/send", Some(send), true),
            ("tasks/sendSubscribe", Some(send), true),
            (
                "tasks/get",
                Some(r#"{"id":"t-1","historyLength":2}"#),
                false,
            ),
            ("tasks/cancel", Some(r#"{"id":"t-1"}"#), false),
            ("tasks/resubscribe", Some(r#"{"id":"t-1"}"#), false),
            (
                "tasks/pushNotification/set",
                Some(
                    r#"{"id":"t-1","pushNotificationConfig":{"url":"https://hook.example/a2a","token":"x"}}"#,
                ),
                false,
            ),
            ("tasks/pushNotification/get", Some(r#"{"id":"t-1"}"#), false),
        ];
        let mut decoded_all = Vec::new();
        for (method, params, client_ids) in cases {
            let (operation, mut json, chooses) = decoded(&V0_1, method, params);
            assert_eq!(chooses, client_ids, "{method}");
            // 0.1 messages have no id: a random one is made.
            if let Some(id) = json.pointer_mut("/message/messageId") {
                assert_eq!(id.as_str().map(str::len), Some(36));
                *id = json!("<random>");
            }
            decoded_all.push((operation, json));
        }
        let sent = json!({"message":{"messageId":"<random>","taskId":"t-1","contextId":"s-1",
            "role":"ROLE_USER","parts":[{"text":"hi"}]}});
        assert_eq!(
            decoded_all,
            [
                (Operation::SendMessage, sent.clone()),
                (Operation::SendStreamingMessage, sent),
                (Operation::GetTask, json!({"id":"t-1","historyLength":2})),
                (Operation::CancelTask, json!({"id":"t-1"})),
                (Operation::SubscribeToTask, json!({"id":"t-1"})),
                (
                    Operation::CreateTaskPushNotificationConfig,
                    json!({"id":"t-1","taskId":"t-1","url":"https://hook.example/a2a","token":"x"})
                ),
                (
                    Operation::GetTaskPushNotificationConfig,
                    json!({"taskId":"t-1","id":"t-1"})
                ),
            ]
        );
    }

    /// Replies as 0.1 tasks and configurations; a direct message reply to `tasks/send` is the
    /// completed task under the client's id.
    #[test]
    fn replies_in_the_0_1_shape() {
        let task = json!({"id":"t-1","sessionId":"c-1","status":{"state":"completed"},
            "history":[{"role":"user","parts":[{"type":"text","text":"hi"}]}]});
        let mut written = Vec::new();
        for reply in replies() {
            let kind = reply.kind();
            match kind {
                "Sent" | "Task" | "PushConfig" => {
                    written.push(encoded(&V0_1, Operation::SendMessage, Some("t-1"), reply));
                }
                _ => {
                    let asked = Asked {
                        operation: Operation::GetTask,
                        task_id: None,
                    };
                    assert_eq!(
                        V0_1.encode(&asked, reply).unwrap_err().message(),
                        format!("internal error: the answer ({kind}) has no 0.1 form")
                    );
                }
            }
        }
        assert_eq!(
            written,
            [
                task.clone(),
                task,
                json!({"id":"t-1","pushNotificationConfig":{"url":"https://hook.example/a2a"}}),
            ]
        );
        let reply = Reply::from(SendMessageResponse::Message(message()));
        let as_task = encoded(&V0_1, Operation::SendMessage, Some("t-9"), reply);
        assert_eq!(as_task["id"], "t-9");
        assert_eq!(as_task["status"]["state"], "completed");
        assert_eq!(as_task["status"]["message"]["parts"][0]["text"], "hi");
    }

    #[test]
    fn events_carry_the_task_id_and_final() {
        let written: Vec<serde_json::Value> = events().iter().map(|e| event(&V0_1, e)).collect();
        assert_eq!(
            written[0],
            json!({"id":"t-1","status":{"state":"completed"},"final":true})
        );
        assert_eq!(
            written[1],
            json!({"id":"t-1","status":{"state":"completed"},"final":true})
        );
        // The index of an artifact whose id is not `artifact-N` is a stable number of its id.
        let index = a2a_types::v0_1::artifact_index_for_id(&"a-1".into());
        assert_eq!(
            written[2],
            json!({"id":"t-1","artifact":{"parts":[{"type":"text","text":"x"}],"index":index}})
        );
        assert_eq!(written[3]["status"]["state"], "completed");
    }

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
