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
