//! The flat JSON-RPC dialect (PromptKit's; [`a2a_types::flat`]): 0.3's method names plus
//! `tasks/list` and `tasks/subscribe`, the 1.0 JSON with lowercase enum values, bare results and
//! events, no service-parameter headers. Requests are the 1.0 requests' JSON rewritten by
//! [`a2a_types::flat`], answers rewritten back and decoded as 1.0. The dialect has no push
//! notification configs and no extended card: those calls fail with [`Error::Unsupported`]
//! before anything is sent.

use a2a_jsonrpc::Response;
use a2a_types::flat::{self, methods};
use a2a_types::protocol::{Operation, Reply, Request, StreamRequest};
use a2a_types::v1::{ListTasksResponse, SendMessageResponse, StreamResponse, Task};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_json::value::RawValue;

use super::{Encoded, RpcCodec, read_result};
use crate::Error;
use crate::http::Dialect;
use crate::transport::sse::EventDecoder;

/// The codec of the flat dialect.
pub(crate) struct Codec;

/// The method of an operation the dialect has.
fn method(operation: Operation) -> Option<&'static str> {
    Some(match operation {
        Operation::SendMessage => methods::SEND,
        Operation::SendStreamingMessage => methods::STREAM,
        Operation::GetTask => methods::GET,
        Operation::ListTasks => methods::LIST,
        Operation::CancelTask => methods::CANCEL,
        Operation::SubscribeToTask => methods::SUBSCRIBE,
        _ => return None,
    })
}

/// The call of `operation`: the 1.0 request's JSON, rewritten as the dialect's params.
fn encode<R: Serialize>(operation: Operation, request: &R) -> Result<Encoded, Error> {
    let method = method(operation)
        .ok_or_else(|| Error::unsupported(operation.method(), flat::BINDING, flat::VERSION))?;
    let mut params = serde_json::to_value(request)
        .map_err(|err| Error::Config(format!("the request cannot be written: {err}")))?;
    flat::params_from_v1(&mut params);
    Encoded::new(method, &params)
}

/// A result of the dialect, rewritten by `back` and read as the 1.0 `T`.
fn read<T: DeserializeOwned + Into<Reply>>(
    result: &RawValue,
    back: fn(Value) -> Value,
) -> Result<Reply, Error> {
    let answer: Value = read_result(result)?;
    Ok(a2a_types::json::from_value::<T>(back(answer))?.into())
}

impl RpcCodec for Codec {
    fn dialect(&self) -> Dialect {
        Dialect::FLAT
    }

    fn encode(&self, request: &Request) -> Result<Encoded, Error> {
        encode(request.operation(), request)
    }

    fn encode_stream(&self, request: &StreamRequest) -> Result<Encoded, Error> {
        encode(request.operation(), request)
    }

    fn decode_reply(&self, operation: Operation, result: &RawValue) -> Result<Reply, Error> {
        match operation {
            Operation::SendMessage => read::<SendMessageResponse>(result, flat::result_to_v1),
            Operation::GetTask | Operation::CancelTask => read::<Task>(result, flat::task_to_v1),
            Operation::ListTasks => read::<ListTasksResponse>(result, flat::list_to_v1),
            other => Err(Error::unsupported(
                other.method(),
                flat::BINDING,
                flat::VERSION,
            )),
        }
    }

    fn decode_events(&self, _request: &StreamRequest) -> EventDecoder {
        // Each a JSON-RPC response whose result is a bare event of the dialect.
        Box::new(|data| {
            let response: Response<Value> = a2a_types::json::from_str(data)?;
            let result = response.result.map_err(Error::from)?;
            Ok(a2a_types::json::from_value::<StreamResponse>(
                flat::result_to_v1(result),
            )?)
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

    const TASK: &str = r#"{"id":"t-1","contextId":"c-1","status":{"state":"completed"}}"#;

    #[test]
    fn every_operation_is_its_flat_method_with_flat_params() {
        assert_eq!(
            seen::written(&Codec),
            [
                r#"message/send {"message":{"contextId":"c-1","messageId":"m-1","parts":[{"text":"hi"}],"role":"user"}}"#,
                r#"tasks/get {"historyLength":2,"id":"t-1"}"#,
                r#"tasks/list {"pageSize":10}"#,
                r#"tasks/cancel {"id":"t-1"}"#,
                r#"error: CreateTaskPushNotificationConfig does not exist in A2A 0.3 over FLAT-JSONRPC, the interface this client uses; it needs an A2A 1.0 interface"#,
                r#"error: GetTaskPushNotificationConfig does not exist in A2A 0.3 over FLAT-JSONRPC, the interface this client uses; it needs an A2A 1.0 interface"#,
                r#"error: ListTaskPushNotificationConfigs does not exist in A2A 0.3 over FLAT-JSONRPC, the interface this client uses; it needs an A2A 1.0 interface"#,
                r#"error: GetExtendedAgentCard does not exist in A2A 0.3 over FLAT-JSONRPC, the interface this client uses; it needs an A2A 1.0 interface"#,
                r#"error: DeleteTaskPushNotificationConfig does not exist in A2A 0.3 over FLAT-JSONRPC, the interface this client uses; it needs an A2A 1.0 interface"#,
                r#"message/stream {"message":{"contextId":"c-1","messageId":"m-1","parts":[{"text":"hi"}],"role":"user"}}"#,
                r#"tasks/subscribe {"id":"t-1"}"#,
            ]
        );
    }

    #[test]
    fn every_flat_reply_is_read_as_its_1_0_result() {
        let read = |op, json: &str| seen::reply(&Codec, op, json);
        let replies = [
            read(Operation::SendMessage, TASK),
            read(
                Operation::SendMessage,
                r#"{"messageId":"m-2","role":"agent","parts":[{"text":"hi!"}]}"#,
            ),
            read(Operation::GetTask, TASK),
            read(Operation::CancelTask, TASK),
            read(
                Operation::ListTasks,
                &format!(r#"{{"tasks":[{TASK}],"nextPageToken":""}}"#),
            ),
            read(Operation::GetTaskPushNotificationConfig, "{}"),
        ];
        assert_eq!(
            replies.to_vec(),
            [
                fixtures::sent_task().as_str(),
                fixtures::sent_message().as_str(),
                fixtures::TASK,
                fixtures::TASK,
                r#"{"tasks":[{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_COMPLETED"}}],"nextPageToken":"","pageSize":0,"totalSize":0}"#,
                r#"error: GetTaskPushNotificationConfig does not exist in A2A 0.3 over FLAT-JSONRPC, the interface this client uses; it needs an A2A 1.0 interface"#,
            ]
        );
    }

    #[test]
    fn events_are_bare_flat_events() {
        let stream = &stream_requests()[0];
        let events = [
            seen::event(
                &Codec,
                stream,
                &format!(r#"{{"jsonrpc":"2.0","id":1,"result":{TASK}}}"#),
            ),
            seen::event(
                &Codec,
                stream,
                r#"{"jsonrpc":"2.0","id":1,"result":{"taskId":"t-1","contextId":"c-1","status":{"state":"working"}}}"#,
            ),
        ];
        assert_eq!(
            events.to_vec(),
            [
                fixtures::sent_task().as_str(),
                r#"{"statusUpdate":{"taskId":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_WORKING"}}}"#,
            ]
        );
    }
}
