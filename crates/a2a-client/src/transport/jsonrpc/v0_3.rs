//! The JSON-RPC binding of A2A 0.3 (and 0.2): the `message/send` version. Requests are
//! converted from 1.0 (`a2a_types::v0_3`'s `From` conversions), sent under the 0.3 method names
//! with `A2A-Version: 0.3` and `X-A2A-Extensions`, and the `kind`-tagged results and stream
//! events converted back (`final` is dropped: the stream ends at a terminal or interrupted
//! state, as in 1.0). 0.3 error codes mean what 1.0's do. `ListTasks` does not exist in 0.3
//! JSON-RPC: it fails with [`Error::Unsupported`] before anything is sent.

use a2a_jsonrpc::Response;
use a2a_types::protocol::{Operation, Reply, Request, StreamRequest};
use a2a_types::v0_3::{self, Method as _, methods};
use a2a_types::v1::{
    ListTaskPushNotificationConfigsResponse, SendMessageResponse, StreamResponse, Task,
    TaskPushNotificationConfig, binding,
};
use serde_json::value::RawValue;

use super::{Encoded, RpcCodec, read_result};
use crate::Error;
use crate::http::Dialect;
use crate::transport::sse::EventDecoder;

/// The 0.3 codec (also for 0.2 interfaces: same methods, same shapes).
pub(crate) struct Codec {
    /// `0.3` or `0.2`, for messages.
    version: &'static str,
    /// The interface's URL, for messages.
    endpoint: String,
}

impl Codec {
    pub(crate) fn new(version: &'static str, endpoint: &http::Uri) -> Self {
        Self {
            version,
            endpoint: endpoint.to_string(),
        }
    }
}

impl RpcCodec for Codec {
    fn dialect(&self) -> Dialect {
        Dialect::V0_3
    }

    fn encode(&self, request: &Request) -> Result<Encoded, Error> {
        match request {
            Request::SendMessage(r) => Encoded::new(
                methods::SendMessage::NAME,
                &v0_3::MessageSendParams::from(r.as_ref().clone()),
            ),
            Request::GetTask(r) => Encoded::new(
                methods::GetTask::NAME,
                &v0_3::TaskQueryParams::from(r.clone()),
            ),
            Request::CancelTask(r) => Encoded::new(
                methods::CancelTask::NAME,
                &v0_3::TaskIdParams::from(r.clone()),
            ),
            Request::CreateTaskPushNotificationConfig(r) => Encoded::new(
                methods::SetTaskPushNotificationConfig::NAME,
                &v0_3::TaskPushNotificationConfig::from(r.clone()),
            ),
            Request::GetTaskPushNotificationConfig(r) => Encoded::new(
                methods::GetTaskPushNotificationConfig::NAME,
                &v0_3::GetTaskPushNotificationConfigParams::from(r.clone()),
            ),
            Request::ListTaskPushNotificationConfigs(r) => Encoded::new(
                methods::ListTaskPushNotificationConfig::NAME,
                &v0_3::ListTaskPushNotificationConfigParams::from(r.clone()),
            ),
            Request::DeleteTaskPushNotificationConfig(r) => Encoded::new(
                methods::DeleteTaskPushNotificationConfig::NAME,
                &v0_3::DeleteTaskPushNotificationConfigParams::from(r.clone()),
            ),
            // `agent/getAuthenticatedExtendedCard` has no params.
            Request::GetExtendedAgentCard(_) => Ok(Encoded::without_params(
                methods::GetAuthenticatedExtendedCard::NAME,
            )),
            other => Err(Error::unsupported(
                other.operation().method(),
                binding::JSONRPC,
                self.version,
            )),
        }
    }

    fn encode_stream(&self, request: &StreamRequest) -> Result<Encoded, Error> {
        match request {
            StreamRequest::SendStreamingMessage(r) => Encoded::new(
                methods::SendStreamingMessage::NAME,
                &v0_3::MessageSendParams::from(r.as_ref().clone()),
            ),
            StreamRequest::SubscribeToTask(r) => Encoded::new(
                methods::TaskResubscription::NAME,
                &v0_3::TaskIdParams::from(r.clone()),
            ),
            other => Err(Error::unsupported(
                other.operation().method(),
                binding::JSONRPC,
                self.version,
            )),
        }
    }

    fn decode_reply(&self, operation: Operation, result: &RawValue) -> Result<Reply, Error> {
        Ok(match operation {
            Operation::SendMessage => {
                SendMessageResponse::from(read_result::<v0_3::SendMessageResult>(result)?).into()
            }
            Operation::GetTask | Operation::CancelTask => {
                Task::from(read_result::<v0_3::Task>(result)?).into()
            }
            Operation::CreateTaskPushNotificationConfig
            | Operation::GetTaskPushNotificationConfig => TaskPushNotificationConfig::from(
                read_result::<v0_3::TaskPushNotificationConfig>(result)?,
            )
            .into(),
            Operation::ListTaskPushNotificationConfigs => {
                ListTaskPushNotificationConfigsResponse::from(read_result::<
                    Vec<v0_3::TaskPushNotificationConfig>,
                >(result)?)
                .into()
            }
            // The result is `null`; anything else is fine too.
            Operation::DeleteTaskPushNotificationConfig => Reply::Empty,
            // The card is read by the one card normalizer, as the card fetch reads it.
            Operation::GetExtendedAgentCard => {
                let card =
                    a2a_types::card::parse_slice(result.get().as_bytes()).map_err(|error| {
                        Error::Card {
                            url: format!(
                                "{} ({})",
                                self.endpoint,
                                methods::GetAuthenticatedExtendedCard::NAME
                            ),
                            error,
                        }
                    })?;
                card.into()
            }
            other => {
                return Err(Error::Protocol(format!(
                    "{other} has no reply in A2A {} JSON-RPC",
                    self.version
                )));
            }
        })
    }

    fn decode_events(&self, _request: &StreamRequest) -> EventDecoder {
        // Each a 0.3 event (`kind` `task`, `message`, `status-update` or `artifact-update`).
        Box::new(|data| {
            let response: Response<v0_3::SendStreamingMessageResult> =
                a2a_types::json::from_str(data)?;
            response
                .result
                .map(StreamResponse::from)
                .map_err(Error::from)
        })
    }
}

#[cfg(test)]
mod tests {
    use a2a_types::protocol::Operation;
    use pretty_assertions::assert_eq;

    use super::Codec;
    use crate::transport::fixtures;
    use crate::transport::fixtures::stream_requests;
    use crate::transport::jsonrpc::seen;

    fn codec() -> Codec {
        Codec::new("0.3", &"http://h/rpc".parse().unwrap())
    }

    const TASK: &str =
        r#"{"kind":"task","id":"t-1","contextId":"c-1","status":{"state":"completed"}}"#;
    const CONFIG: &str = r#"{"taskId":"t-1","pushNotificationConfig":{"id":"c-1","url":"https://hook.example/a2a","token":"tok"}}"#;

    #[test]
    fn every_operation_is_its_0_3_method_with_0_3_params() {
        assert_eq!(
            seen::written(&codec()),
            [
                r#"message/send {"message":{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"hi"}],"contextId":"c-1"}}"#,
                r#"tasks/get {"id":"t-1","historyLength":2}"#,
                r#"error: ListTasks does not exist in A2A 0.3 over JSONRPC, the interface this client uses; it needs an A2A 1.0 interface"#,
                r#"tasks/cancel {"id":"t-1"}"#,
                r#"tasks/pushNotificationConfig/set {"taskId":"t-1","pushNotificationConfig":{"url":"https://hook.example/a2a","token":"tok"}}"#,
                r#"tasks/pushNotificationConfig/get {"id":"t-1","pushNotificationConfigId":"c-1"}"#,
                r#"tasks/pushNotificationConfig/list {"id":"t-1"}"#,
                r#"agent/getAuthenticatedExtendedCard -"#,
                r#"tasks/pushNotificationConfig/delete {"id":"t-1","pushNotificationConfigId":"c-1"}"#,
                r#"message/stream {"message":{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"hi"}],"contextId":"c-1"}}"#,
                r#"tasks/resubscribe {"id":"t-1"}"#,
            ]
        );
    }

    #[test]
    fn every_0_3_reply_is_read_as_its_1_0_result() {
        let read = |op, json: &str| seen::reply(&codec(), op, json);
        let card = r#"{"name":"Extended","description":"d","version":"1","url":"http://h/rpc",
            "protocolVersion":"0.3.0","capabilities":{},"defaultInputModes":["text/plain"],
            "defaultOutputModes":["text/plain"],"skills":[]}"#;
        let replies = [
            read(Operation::SendMessage, TASK),
            read(
                Operation::SendMessage,
                r#"{"kind":"message","messageId":"m-2","role":"agent","parts":[{"kind":"text","text":"hi!"}]}"#,
            ),
            read(Operation::GetTask, TASK),
            read(Operation::CancelTask, TASK),
            read(Operation::CreateTaskPushNotificationConfig, CONFIG),
            read(Operation::GetTaskPushNotificationConfig, CONFIG),
            read(
                Operation::ListTaskPushNotificationConfigs,
                &format!("[{CONFIG}]"),
            ),
            read(Operation::DeleteTaskPushNotificationConfig, "null"),
            read(Operation::GetExtendedAgentCard, card),
            read(Operation::GetExtendedAgentCard, r#"{"name":1}"#),
            read(Operation::ListTasks, "{}"),
            read(
                Operation::GetTask,
                r#"{"kind":"task","id":"t-1","contextId":"c-1","status":{"state":"done"}}"#,
            ),
        ];
        assert_eq!(
            replies.to_vec(),
            [
                fixtures::sent_task().as_str(),
                fixtures::sent_message().as_str(),
                fixtures::TASK,
                fixtures::TASK,
                fixtures::PUSH_CONFIG,
                fixtures::PUSH_CONFIG,
                fixtures::push_configs().as_str(),
                r#"{}"#,
                r#"{"name":"Extended","description":"d","supportedInterfaces":[{"url":"http://h/rpc","protocolBinding":"JSONRPC","protocolVersion":"0.3"}],"version":"1","capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}"#,
                r#"error: the agent card at http://h/rpc (agent/getAuthenticatedExtendedCard) is not a valid A2A 1.0 card: name: invalid type: integer `1`, expected a string"#,
                r#"error: protocol error: ListTasks has no reply in A2A 0.3 JSON-RPC"#,
                r#"error: cannot decode the answer: result.status.state: unknown enum value `done` for TaskState, expected one of submitted, working, input-required, completed, canceled, failed, rejected, auth-required, unknown"#,
            ]
        );
    }

    #[test]
    fn events_are_0_3_events_read_as_1_0() {
        let stream = &stream_requests()[1];
        let event = |data: &str| seen::event(&codec(), stream, data);
        let events = [
            event(
                r#"{"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"t-1","contextId":"c-1","status":{"state":"working"},"final":false}}"#,
            ),
            event(
                r#"{"jsonrpc":"2.0","id":1,"result":{"kind":"artifact-update","taskId":"t-1","contextId":"c-1","artifact":{"artifactId":"a-1","parts":[{"kind":"text","text":"x"}]},"append":true}}"#,
            ),
            event(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32004,"message":"no"}}"#),
        ];
        assert_eq!(
            events.to_vec(),
            [
                r#"{"statusUpdate":{"taskId":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_WORKING"}}}"#,
                r#"{"artifactUpdate":{"taskId":"t-1","contextId":"c-1","artifact":{"artifactId":"a-1","parts":[{"text":"x"}]},"append":true}}"#,
                r#"error: the agent answered UnsupportedOperationError (-32004): no"#,
            ]
        );
    }
}
