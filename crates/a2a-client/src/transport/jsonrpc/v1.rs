//! The JSON-RPC binding of A2A 1.0 (spec §9): the operation's name as the method, the whole
//! request message as `params`, its result as the `result`; stream events are
//! `StreamResponse`s. `A2A-Version: 1.0` and `A2A-Extensions` go with every call.
//!
//! The 1.1 draft is the same codec with the task generations on ([`Codec::V1_1`]): it sends
//! `A2A-Version: 1.1` and the requests' `currentGeneration` and `ifGenerationMatch`; the 1.0
//! codec leaves those out (a 1.0 agent would not know them).

use std::borrow::Cow;

use a2a_jsonrpc::Response;
use a2a_types::protocol::{Operation, Reply, Request, StreamRequest};
use a2a_types::v1::StreamResponse;
use serde_json::value::RawValue;

use super::{Encoded, RpcCodec};
use crate::Error;
use crate::http::Dialect;
use crate::transport::sse::EventDecoder;

/// The 1.x codec: 1.0, or the 1.1 draft (with task generations).
pub(crate) struct Codec {
    generations: bool,
}

impl Codec {
    /// A2A 1.0.
    pub(crate) const V1_0: Codec = Codec { generations: false };
    /// A2A 1.1 (draft): 1.0 with the task generations.
    pub(crate) const V1_1: Codec = Codec { generations: true };
}

/// The request as the wire of a version with (`generations`) or without the 1.1 fields carries
/// it: without them, a request that sets one is copied and the copy stripped.
pub(crate) fn unary_for(generations: bool, request: &Request) -> Cow<'_, Request> {
    let sets = match request {
        Request::SendMessage(send) => send
            .configuration
            .as_ref()
            .is_some_and(|c| c.if_generation_match.is_some()),
        Request::GetTask(get) => get.current_generation.is_some(),
        _ => false,
    };
    if generations || !sets {
        return Cow::Borrowed(request);
    }
    let mut stripped = request.clone();
    stripped.strip_generations();
    Cow::Owned(stripped)
}

/// [`unary_for`] for a streaming request.
pub(crate) fn stream_for(generations: bool, request: &StreamRequest) -> Cow<'_, StreamRequest> {
    let sets = match request {
        StreamRequest::SendStreamingMessage(send) => send
            .configuration
            .as_ref()
            .is_some_and(|c| c.if_generation_match.is_some()),
        _ => false,
    };
    if generations || !sets {
        return Cow::Borrowed(request);
    }
    let mut stripped = request.clone();
    stripped.strip_generations();
    Cow::Owned(stripped)
}

impl RpcCodec for Codec {
    fn dialect(&self) -> Dialect {
        if self.generations {
            Dialect::V1_1
        } else {
            Dialect::V1_0
        }
    }

    fn encode(&self, request: &Request) -> Result<Encoded, Error> {
        let request = unary_for(self.generations, request);
        Encoded::new(request.operation().method(), &*request)
    }

    fn encode_stream(&self, request: &StreamRequest) -> Result<Encoded, Error> {
        let request = stream_for(self.generations, request);
        Encoded::new(request.operation().method(), &*request)
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
    const V1: &Codec = &Codec::V1_0;
    use crate::transport::fixtures::{self, TASK, replies, stream_requests};
    use crate::transport::jsonrpc::seen;

    #[test]
    fn every_operation_is_its_name_with_its_message_as_params() {
        assert_eq!(
            seen::written(V1),
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
    fn the_1_1_codec_carries_the_generations_and_1_0_leaves_them_out() {
        use a2a_types::protocol::{Request, StreamRequest};
        use a2a_types::v1::{GetTaskRequest, SendMessageConfiguration, SendMessageRequest};

        use crate::transport::jsonrpc::RpcCodec as _;
        let get = Request::from(GetTaskRequest::new("t-1").with_current_generation(3));
        let send = SendMessageRequest::new(fixtures::message().with_task_id("t-1"))
            .with_configuration(SendMessageConfiguration::default().with_if_generation_match(2));
        let params = |encoded: crate::transport::jsonrpc::Encoded| {
            format!("{} {}", encoded.method, encoded.params.unwrap().get())
        };
        let v1_1 = &Codec::V1_1;
        assert_eq!(
            params(v1_1.encode(&get).unwrap()),
            r#"GetTask {"id":"t-1","currentGeneration":"3"}"#
        );
        assert_eq!(params(V1.encode(&get).unwrap()), r#"GetTask {"id":"t-1"}"#);
        let stream = StreamRequest::from(send.clone());
        assert_eq!(
            params(v1_1.encode_stream(&stream).unwrap()),
            r#"SendStreamingMessage {"message":{"messageId":"m-1","contextId":"c-1","taskId":"t-1","role":"ROLE_USER","parts":[{"text":"hi"}]},"configuration":{"ifGenerationMatch":"2"}}"#
        );
        assert_eq!(
            params(V1.encode(&send.into()).unwrap()),
            r#"SendMessage {"message":{"messageId":"m-1","contextId":"c-1","taskId":"t-1","role":"ROLE_USER","parts":[{"text":"hi"}]},"configuration":{}}"#
        );
        assert_eq!(v1_1.dialect().version, Some("1.1"));
        // Generations in the answers are read.
        let generation = r#"{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_WORKING"},"generation":"4"}"#;
        assert_eq!(
            seen::reply(v1_1, Operation::GetTask, generation),
            generation
        );
    }

    #[test]
    fn every_reply_is_read_as_its_result() {
        for (operation, json) in replies() {
            assert_eq!(seen::reply(V1, operation, &json), json, "{operation}");
        }
        let read = |op, json: &str| seen::reply(V1, op, json);
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
        let event = |data: &str| seen::event(V1, stream, data);
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
