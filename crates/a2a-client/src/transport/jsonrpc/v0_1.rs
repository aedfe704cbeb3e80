//! The JSON-RPC binding of A2A 0.1: the `tasks/send` version. Requests are converted from 1.0
//! (`a2a_types::v0_1`), sent under the 0.1 method names without service-parameter headers (0.1
//! predates them), and the results and stream events (`type`-tagged parts, events with the task
//! `id` and `final`) converted back.
//!
//! * **Task ids.** A 0.1 client chooses the task id, for a new task too:
//!   [`Transport::prepare_send`](crate::Transport::prepare_send) gives a message without
//!   `taskId` a random one before the first attempt, so that a retry continues the same task.
//!   `sessionId` is the 1.0 `contextId`.
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
use a2a_types::protocol::{Operation, Reply, Request, StreamRequest};
use a2a_types::v0_1::{self, tag};
use a2a_types::v1::{
    ContextId, SendMessageRequest, SendMessageResponse, StreamResponse, Task, TaskId,
    TaskPushNotificationConfig, binding,
};
use serde_json::value::RawValue;

use super::{Encoded, RpcCodec, read_result};
use crate::Error;
use crate::http::Dialect;
use crate::transport::sse::EventDecoder;

/// The version, for messages.
const VERSION: &str = v0_1::PROTOCOL_VERSION;

/// The 0.1 codec.
pub(crate) struct Codec;

impl RpcCodec for Codec {
    fn dialect(&self) -> Dialect {
        Dialect::V0_1
    }

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

    fn encode(&self, request: &Request) -> Result<Encoded, Error> {
        match request {
            Request::SendMessage(r) => Encoded::new(
                tag::SendTaskMethod::VALUE,
                &convert::<_, v0_1::TaskSendParams>(r.as_ref().clone())?,
            ),
            Request::GetTask(r) => Encoded::new(
                tag::GetTaskMethod::VALUE,
                &v0_1::TaskQueryParams::from(r.clone()),
            ),
            Request::CancelTask(r) => Encoded::new(
                tag::CancelTaskMethod::VALUE,
                &v0_1::TaskIdParams::from(r.clone()),
            ),
            Request::CreateTaskPushNotificationConfig(r) => Encoded::new(
                tag::SetTaskPushNotificationMethod::VALUE,
                &convert::<_, v0_1::TaskPushNotificationConfig>(r.clone())?,
            ),
            Request::GetTaskPushNotificationConfig(r) => Encoded::new(
                tag::GetTaskPushNotificationMethod::VALUE,
                &v0_1::TaskIdParams::from(r.clone()),
            ),
            other => Err(Error::unsupported(
                other.operation().method(),
                binding::JSONRPC,
                VERSION,
            )),
        }
    }

    fn encode_stream(&self, request: &StreamRequest) -> Result<Encoded, Error> {
        match request {
            StreamRequest::SendStreamingMessage(r) => Encoded::new(
                tag::SendTaskStreamingMethod::VALUE,
                &convert::<_, v0_1::TaskSendParams>(r.as_ref().clone())?,
            ),
            StreamRequest::SubscribeToTask(r) => Encoded::new(
                tag::TaskResubscriptionMethod::VALUE,
                &v0_1::TaskQueryParams::from(r.clone()),
            ),
            other => Err(Error::unsupported(
                other.operation().method(),
                binding::JSONRPC,
                VERSION,
            )),
        }
    }

    fn decode_reply(&self, operation: Operation, result: &RawValue) -> Result<Reply, Error> {
        Ok(match operation {
            // `tasks/send` answers with the task.
            Operation::SendMessage => {
                SendMessageResponse::Task(read_result::<v0_1::Task>(result)?.into()).into()
            }
            Operation::GetTask | Operation::CancelTask => {
                Task::from(read_result::<v0_1::Task>(result)?).into()
            }
            Operation::CreateTaskPushNotificationConfig
            | Operation::GetTaskPushNotificationConfig => TaskPushNotificationConfig::from(
                read_result::<v0_1::TaskPushNotificationConfig>(result)?,
            )
            .into(),
            other => {
                return Err(Error::Protocol(format!(
                    "{other} has no reply in A2A {VERSION} JSON-RPC"
                )));
            }
        })
    }

    fn decode_events(&self, request: &StreamRequest) -> EventDecoder {
        // 0.1 events have no context id: a new message's stream gives them its `sessionId`.
        let context = match request {
            StreamRequest::SendStreamingMessage(r) => r.message.context_id.clone(),
            _ => None,
        };
        Box::new(move |data| {
            let response: Response<v0_1::StreamEvent> = a2a_types::json::from_str(data)?;
            let mut event: StreamResponse = response.result.map_err(agent_error)?.into();
            if let Some(context) = &context {
                fill_context(&mut event, context);
            }
            Ok(event)
        })
    }

    fn agent_error(&self, error: ErrorObject) -> Error {
        agent_error(error)
    }
}

/// The agent's JSON-RPC error, its code read with its 0.1-era meaning.
fn agent_error(mut error: ErrorObject) -> Error {
    error.code = ErrorCode(v0_1::error_code_to_v1(error.code.0));
    Error::Agent(A2aError::from(error))
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

#[cfg(test)]
mod tests {
    use a2a_types::protocol::Operation;
    use a2a_types::v1::SendMessageRequest;
    use pretty_assertions::assert_eq;

    use super::Codec;
    use crate::transport::fixtures;
    use crate::transport::fixtures::{message, stream_requests};
    use crate::transport::jsonrpc::{RpcCodec, seen};

    const TASK: &str = r#"{"id":"t-1","sessionId":"c-1","status":{"state":"completed"}}"#;
    const CONFIG: &str =
        r#"{"id":"t-1","pushNotificationConfig":{"url":"https://hook.example/a2a","token":"tok"}}"#;

    #[test]
    fn every_operation_is_its_0_1_method_with_0_1_params() {
        assert_eq!(
            seen::written(&Codec),
            [
                r#"error: A2A 0.1 needs a client-chosen task id, but `message.taskId` is not set"#,
                r#"tasks/get {"id":"t-1","historyLength":2}"#,
                r#"error: ListTasks does not exist in A2A 0.1 over JSONRPC, the interface this client uses; it needs an A2A 1.0 interface"#,
                r#"tasks/cancel {"id":"t-1"}"#,
                r#"tasks/pushNotification/set {"id":"t-1","pushNotificationConfig":{"url":"https://hook.example/a2a","token":"tok"}}"#,
                r#"tasks/pushNotification/get {"id":"t-1"}"#,
                r#"error: ListTaskPushNotificationConfigs does not exist in A2A 0.1 over JSONRPC, the interface this client uses; it needs an A2A 1.0 interface"#,
                r#"error: GetExtendedAgentCard does not exist in A2A 0.1 over JSONRPC, the interface this client uses; it needs an A2A 1.0 interface"#,
                r#"error: DeleteTaskPushNotificationConfig does not exist in A2A 0.1 over JSONRPC, the interface this client uses; it needs an A2A 1.0 interface"#,
                r#"error: A2A 0.1 needs a client-chosen task id, but `message.taskId` is not set"#,
                r#"tasks/resubscribe {"id":"t-1"}"#,
            ]
        );
    }

    #[test]
    fn a_send_carries_the_task_id_the_client_chose() {
        let request = SendMessageRequest::new(message().with_task_id("t-9"));
        let written = [
            Codec.encode(&request.clone().into()).unwrap(),
            Codec.encode_stream(&request.into()).unwrap(),
        ];
        let lines: Vec<String> = written
            .iter()
            .map(|e| format!("{} {}", e.method, e.params.as_deref().unwrap().get()))
            .collect();
        assert_eq!(
            lines,
            [
                r#"tasks/send {"id":"t-9","sessionId":"c-1","message":{"role":"user","parts":[{"type":"text","text":"hi"}]}}"#,
                r#"tasks/sendSubscribe {"id":"t-9","sessionId":"c-1","message":{"role":"user","parts":[{"type":"text","text":"hi"}]}}"#,
            ]
        );
    }

    #[test]
    fn a_new_task_gets_its_id_from_the_client() {
        let mut request = SendMessageRequest::new(message());
        Codec.prepare_send(&mut request);
        let id = request.message.task_id.clone().unwrap();
        assert!(!id.is_empty());
        Codec.prepare_send(&mut request);
        assert_eq!(request.message.task_id, Some(id), "a retry keeps the id");
    }

    #[test]
    fn every_0_1_reply_is_read_as_its_1_0_result() {
        let read = |op, json: &str| seen::reply(&Codec, op, json);
        let replies = [
            read(Operation::SendMessage, TASK),
            read(Operation::GetTask, TASK),
            read(Operation::CancelTask, TASK),
            read(Operation::CreateTaskPushNotificationConfig, CONFIG),
            read(Operation::GetTaskPushNotificationConfig, CONFIG),
            read(Operation::ListTasks, "{}"),
        ];
        assert_eq!(
            replies.to_vec(),
            [
                fixtures::sent_task().as_str(),
                fixtures::TASK,
                fixtures::TASK,
                r#"{"id":"t-1","taskId":"t-1","url":"https://hook.example/a2a","token":"tok"}"#,
                r#"{"id":"t-1","taskId":"t-1","url":"https://hook.example/a2a","token":"tok"}"#,
                r#"error: protocol error: ListTasks has no reply in A2A 0.1 JSON-RPC"#,
            ]
        );
    }

    #[test]
    fn events_get_the_context_of_the_message_and_0_1_error_codes() {
        let [send, subscribe] = &stream_requests()[..] else {
            panic!("two streaming operations")
        };
        let status = r#"{"jsonrpc":"2.0","id":1,"result":{"id":"t-1","status":{"state":"working"},"final":false}}"#;
        let events = [
            seen::event(&Codec, send, status),
            seen::event(&Codec, subscribe, status),
            seen::event(
                &Codec,
                send,
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32009,"message":"bad state"}}"#,
            ),
        ];
        assert_eq!(
            events.to_vec(),
            [
                r#"{"statusUpdate":{"taskId":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_WORKING"}}}"#,
                r#"{"statusUpdate":{"taskId":"t-1","contextId":"","status":{"state":"TASK_STATE_WORKING"}}}"#,
                r#"error: the agent answered UnsupportedOperationError (-32004): bad state"#,
            ]
        );
    }
}
