//! A2A 1.0 over JSON-RPC: the PascalCase methods (the operations' own names), their params and
//! results the operations' 1.0 JSON (ProtoJSON), `SendMessage`'s result wrapped (`{"task": …}`
//! or `{"message": …}`), `DeleteTaskPushNotificationConfig`'s `{}`. The A2A 1.1 draft is the
//! same codec with the task generations ([`V1_1`]; `a2a_types::protocol::generations`).

use a2a_jsonrpc::{ErrorObject, RawValue, decode_params_seed};
use a2a_types::protocol::{Call, Operation, ProtocolVersion, Reply};
use a2a_types::v1::StreamResponse;
use serde::de::{DeserializeSeed, Deserializer};

use super::{Asked, Codec, Version, raw};
use crate::common::head::RequestedVersion;
use crate::error::A2aError;
use crate::handler::CallContext;

/// The 1.x versions of the JSON-RPC endpoint: 1.0, and the 1.1 draft (1.0 with the task
/// generations).
pub(super) struct V1 {
    /// 1.1: the generations are read and written.
    generations: bool,
}

/// 1.0.
pub(super) const V1_0: V1 = V1 { generations: false };
/// The 1.1 draft.
pub(super) const V1_1: V1 = V1 { generations: true };

static VERSION_1_0: Version = Version {
    name: "1.0",
    protocol_version: ProtocolVersion::V1,
    check: RequestedVersion::require_v1,
    methods: None,
};

static VERSION_1_1: Version = Version {
    name: "1.1",
    protocol_version: ProtocolVersion::V1,
    check: RequestedVersion::require_v1,
    methods: None,
};

impl Codec for V1 {
    fn version(&self) -> &'static Version {
        if self.generations {
            &VERSION_1_1
        } else {
            &VERSION_1_0
        }
    }

    fn generations(&self) -> bool {
        self.generations
    }

    fn decode(
        &self,
        operation: Operation,
        params: Option<&RawValue>,
        _call: &mut CallContext,
    ) -> Result<Call, ErrorObject> {
        decode_params_seed(RequestOf(operation), params)
    }

    fn encode(&self, _asked: &Asked, reply: Reply) -> Result<Box<RawValue>, A2aError> {
        raw(&reply)
    }

    /// A 1.0 event is the `StreamResponse` as it is.
    fn event(&self, event: &StreamResponse, out: &mut Vec<u8>) {
        serde_json::to_writer(out, event).expect("events serialize");
    }
}

/// The request message of an operation, read from its params ([`Call::deserialize`]).
#[derive(Clone, Copy)]
struct RequestOf(Operation);

impl<'de> DeserializeSeed<'de> for RequestOf {
    type Value = Call;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Call, D::Error> {
        Call::deserialize(self.0, deserializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binding::jsonrpc::testing::{
        decoded, encoded, event, events, replies, replies_json,
    };
    use pretty_assertions::assert_eq;
    use serde_json::json;

    /// Each method's params decode to its operation's request, as they are.
    #[test]
    fn every_method_decodes_to_its_request() {
        let send = r#"{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]},"configuration":{"returnImmediately":true}}"#;
        let cases = [
            ("SendMessage", Some(send)),
            ("SendStreamingMessage", Some(send)),
            (
                "GetTask",
                Some(r#"{"id":"t-1","historyLength":2,"tenant":"acme"}"#),
            ),
            (
                "ListTasks",
                Some(r#"{"contextId":"c-1","status":"TASK_STATE_WORKING","pageSize":10}"#),
            ),
            ("CancelTask", Some(r#"{"id":"t-1"}"#)),
            ("SubscribeToTask", Some(r#"{"id":"t-1"}"#)),
            (
                "CreateTaskPushNotificationConfig",
                Some(r#"{"taskId":"t-1","id":"c-1","url":"https://hook.example/a2a","token":"x"}"#),
            ),
            (
                "GetTaskPushNotificationConfig",
                Some(r#"{"taskId":"t-1","id":"c-1"}"#),
            ),
            (
                "ListTaskPushNotificationConfigs",
                Some(r#"{"taskId":"t-1","pageSize":5}"#),
            ),
            ("GetExtendedAgentCard", None),
            (
                "DeleteTaskPushNotificationConfig",
                Some(r#"{"taskId":"t-1","id":"c-1"}"#),
            ),
        ];
        let mut operations = Vec::new();
        for (method, params) in cases {
            let (operation, json, client_ids) = decoded(&V1_0, method, params);
            operations.push(operation);
            let expected: serde_json::Value = serde_json::from_str(params.unwrap_or("{}")).unwrap();
            assert_eq!(json, expected, "{method}");
            assert!(!client_ids);
        }
        assert_eq!(operations, Operation::ALL);
        assert_eq!(V1_0.operation("message/send"), None);
    }

    #[test]
    fn bad_params_name_the_field() {
        let raw = RawValue::from_string(r#"{"id":7}"#.to_owned()).unwrap();
        let error = V1_0
            .decode(Operation::GetTask, Some(&raw), &mut CallContext::new())
            .unwrap_err();
        assert_eq!(
            error.message,
            "invalid params: id: invalid type: integer `7`, expected a string"
        );
    }

    /// Each reply is its 1.0 JSON: the send result wrapped, `{}` for a deletion.
    #[test]
    fn every_reply_is_its_json() {
        let expected = replies_json();
        for (reply, expected) in replies().into_iter().zip(expected) {
            let kind = reply.kind();
            assert_eq!(
                encoded(&V1_0, Operation::GetTask, None, reply),
                expected,
                "{kind}"
            );
        }
    }

    #[test]
    fn events_are_stream_responses() {
        let written: Vec<serde_json::Value> = events().iter().map(|e| event(&V1_0, e)).collect();
        assert_eq!(
            written,
            [
                json!({"task":{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_COMPLETED"},
                    "history":[{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]}]}}),
                json!({"statusUpdate":{"taskId":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_COMPLETED"}}}),
                json!({"artifactUpdate":{"taskId":"t-1","contextId":"c-1","artifact":{"artifactId":"a-1","parts":[{"text":"x"}]}}}),
                json!({"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]}}),
            ]
        );
    }
}
