//! The JSON-RPC binding of A2A 1.0 (spec §9): the operation's name as the method, the whole
//! request message as `params`, its result as the `result`; stream events are
//! `StreamResponse`s. `A2A-Version: 1.0` and `A2A-Extensions` go with every call.

use a2a_jsonrpc::Response;
use a2a_types::protocol::{Operation, Reply, Request, StreamRequest};
use a2a_types::v1::StreamResponse;
use serde_json::value::RawValue;

use super::{Encoded, RpcCodec};
use crate::Error;
use crate::http::Dialect;
use crate::transport::sse::EventDecoder;

/// The 1.0 codec.
pub(crate) struct Codec;

impl RpcCodec for Codec {
    fn dialect(&self) -> Dialect {
        Dialect::V1_0
    }

    fn encode(&self, request: &Request) -> Result<Encoded, Error> {
        Encoded::new(request.operation().method(), request)
    }

    fn encode_stream(&self, request: &StreamRequest) -> Result<Encoded, Error> {
        Encoded::new(request.operation().method(), request)
    }

    fn decode_reply(&self, operation: Operation, result: &RawValue) -> Result<Reply, Error> {
        // `DeleteTaskPushNotificationConfig` reads any result as empty: `{}` (ProtoJSON of
        // Empty) or `null` (Python).
        a2a_types::json::from_slice_seed(ReplyTo(operation), result.get().as_bytes())
            .map_err(|error| Error::Decode(error.within("result")))
    }

    fn decode_events(&self, _request: &StreamRequest) -> EventDecoder {
        Box::new(|data| {
            let response: Response<StreamResponse> = a2a_types::json::from_str(data)?;
            response.result.map_err(Error::from)
        })
    }
}

/// Reads the 1.0 JSON of the reply to an operation ([`Reply::deserialize`]); shared with the
/// HTTP+JSON binding, whose bodies are the same ProtoJSON.
pub(crate) struct ReplyTo(pub(crate) Operation);

impl<'de> serde::de::DeserializeSeed<'de> for ReplyTo {
    type Value = Reply;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Reply, D::Error> {
        Reply::deserialize(self.0, deserializer)
    }
}

#[cfg(test)]
mod tests {
    use a2a_types::protocol::Operation;
    use pretty_assertions::assert_eq;

    use super::Codec;
    use crate::transport::fixtures::{self, TASK, replies, stream_requests};
    use crate::transport::jsonrpc::seen;

    #[test]
    fn every_operation_is_its_name_with_its_message_as_params() {
        assert_eq!(
            seen::written(&Codec),
            [
                r#"SendMessage {"tenant":"acme","message":{"messageId":"m-1","contextId":"c-1","role":"ROLE_USER","parts":[{"text":"hi"}]}}"#,
                r#"GetTask {"id":"t-1","historyLength":2}"#,
                r#"ListTasks {"pageSize":10}"#,
                r#"CancelTask {"id":"t-1"}"#,
                r#"CreateTaskPushNotificationConfig {"taskId":"t-1","url":"https://hook.example/a2a","token":"tok"}"#,
                r#"GetTaskPushNotificationConfig {"taskId":"t-1","id":"c-1"}"#,
                r#"ListTaskPushNotificationConfigs {"taskId":"t-1"}"#,
                r#"GetExtendedAgentCard {}"#,
                r#"DeleteTaskPushNotificationConfig {"taskId":"t-1","id":"c-1"}"#,
                r#"SendStreamingMessage {"message":{"messageId":"m-1","contextId":"c-1","role":"ROLE_USER","parts":[{"text":"hi"}]}}"#,
                r#"SubscribeToTask {"id":"t-1"}"#,
            ]
        );
    }

    #[test]
    fn every_reply_is_read_as_its_result() {
        for (operation, json) in replies() {
            assert_eq!(seen::reply(&Codec, operation, &json), json, "{operation}");
        }
        let read = |op, json: &str| seen::reply(&Codec, op, json);
        assert_eq!(
            read(Operation::DeleteTaskPushNotificationConfig, "null"),
            "{}"
        );
        assert_eq!(
            read(Operation::GetTask, r#"{"id":["t-1"]}"#),
            "error: cannot decode the answer: result.id: invalid type: sequence, expected a string"
        );
    }

    #[test]
    fn events_are_responses_of_stream_responses() {
        let stream = &stream_requests()[0];
        let event = |data: &str| seen::event(&Codec, stream, data);
        let events = [
            event(&format!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"task":{TASK}}}}}"#
            )),
            event(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"gone"}}"#),
        ];
        assert_eq!(
            events.to_vec(),
            [
                fixtures::sent_task().as_str(),
                r#"error: the agent answered TaskNotFoundError (-32001): gone"#,
            ]
        );
    }
}
