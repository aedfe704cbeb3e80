//! A2A 0.3 (and 0.2) over JSON-RPC: the `message/send` version. Params and results in the
//! `kind`-tagged JSON of `a2a.json` 0.3 ([`a2a_types::v0_3`]), converted to and from 1.0 at the
//! edge: `message/send` answers a bare `Task` or `Message`, stream events carry `kind` and
//! status updates `final` (true in a terminal or interrupted state). Errors keep their codes
//! (0.3 defines -32001 to -32007 as 1.0 does; -32008 and -32009 are new in 1.0) and their
//! `data` (free-form in 0.3: here the 1.0 details array).

use a2a_jsonrpc::{ErrorObject, RawValue, decode_params};
use a2a_types::protocol::{
    Call, Operation, ProtocolVersion, Reply, Request, StreamRequest, content_type,
};
use a2a_types::v0_3::{
    self, DeleteTaskPushNotificationConfigParams, GetTaskPushNotificationConfigParams,
    ListTaskPushNotificationConfigParams, MessageSendParams, Method, NoParams, SendMessageResult,
    SendStreamingMessageResult, TaskIdParams, TaskQueryParams, methods,
};
use a2a_types::v1::{
    self, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    SendMessageRequest, StreamResponse, SubscribeToTaskRequest,
};
use http::StatusCode;

use super::{Asked, Codec, Version, legacy, no_form, raw};
use crate::card;
use crate::common::body::A2aBody;
use crate::common::response;
use crate::error::A2aError;
use crate::handler::{CallContext, RequestHandler};

/// The 0.3 version of the JSON-RPC endpoint.
pub(super) struct V0_3;

/// The methods of 0.3 and the operations they call.
const METHODS: [(&str, Operation); 10] = [
    (methods::SendMessage::NAME, Operation::SendMessage),
    (
        methods::SendStreamingMessage::NAME,
        Operation::SendStreamingMessage,
    ),
    (methods::GetTask::NAME, Operation::GetTask),
    (methods::CancelTask::NAME, Operation::CancelTask),
    (
        methods::TaskResubscription::NAME,
        Operation::SubscribeToTask,
    ),
    (
        methods::SetTaskPushNotificationConfig::NAME,
        Operation::CreateTaskPushNotificationConfig,
    ),
    (
        methods::GetTaskPushNotificationConfig::NAME,
        Operation::GetTaskPushNotificationConfig,
    ),
    (
        methods::ListTaskPushNotificationConfig::NAME,
        Operation::ListTaskPushNotificationConfigs,
    ),
    (
        methods::DeleteTaskPushNotificationConfig::NAME,
        Operation::DeleteTaskPushNotificationConfig,
    ),
    (
        methods::GetAuthenticatedExtendedCard::NAME,
        Operation::GetExtendedAgentCard,
    ),
];

impl Codec for V0_3 {
    fn version(&self) -> &'static Version {
        &Version {
            name: "0.3",
            protocol_version: ProtocolVersion::V0_3,
            check: legacy::check_v0_3,
            methods: Some(&METHODS),
        }
    }

    /// Yes: 0.3 §7.2 and §7.9 answer `message/stream` and `tasks/resubscribe` with "a stream
    /// of Server-Sent Events", each `data` a `SendStreamingMessageResponse` (the error response
    /// among them). The SDKs' 0.3 servers answer a failed subscription so (200, one error
    /// event), and their 0.3 clients read only that as the A2A error: the Python client's
    /// `aiter_sse` refuses a JSON body whatever the status, the JS client refuses a 200 JSON
    /// body ("Invalid response Content-Type for SSE stream").
    fn opening_error_in_stream(&self) -> bool {
        true
    }

    /// The 0.3 params, converted to the 1.0 request.
    fn decode(
        &self,
        operation: Operation,
        params: Option<&RawValue>,
        _call: &mut CallContext,
    ) -> Result<Call, ErrorObject> {
        let p = params;
        Ok(match operation {
            Operation::SendMessage => Request::SendMessage(Box::new(send(p)?)).into(),
            Operation::SendStreamingMessage => {
                StreamRequest::SendStreamingMessage(Box::new(send(p)?)).into()
            }
            Operation::GetTask => {
                Request::GetTask(decoded::<TaskQueryParams, GetTaskRequest>(p)?).into()
            }
            Operation::CancelTask => {
                Request::CancelTask(decoded::<TaskIdParams, CancelTaskRequest>(p)?).into()
            }
            Operation::SubscribeToTask => {
                StreamRequest::SubscribeToTask(decoded::<TaskIdParams, SubscribeToTaskRequest>(p)?)
                    .into()
            }
            Operation::CreateTaskPushNotificationConfig => {
                Request::CreateTaskPushNotificationConfig(push_config_in(decode_params(p)?)).into()
            }
            Operation::GetTaskPushNotificationConfig => {
                Request::GetTaskPushNotificationConfig(get_push_config_in(decode_params(p)?)).into()
            }
            Operation::ListTaskPushNotificationConfigs => {
                Request::ListTaskPushNotificationConfigs(decoded::<
                    ListTaskPushNotificationConfigParams,
                    ListTaskPushNotificationConfigsRequest,
                >(p)?)
                .into()
            }
            Operation::DeleteTaskPushNotificationConfig => {
                Request::DeleteTaskPushNotificationConfig(decoded::<
                    DeleteTaskPushNotificationConfigParams,
                    DeleteTaskPushNotificationConfigRequest,
                >(p)?)
                .into()
            }
            Operation::GetExtendedAgentCard => {
                decode_params::<NoParams>(p)?;
                Request::GetExtendedAgentCard(GetExtendedAgentCardRequest::default()).into()
            }
            other => return Err(ErrorObject::method_not_found(other.method())),
        })
    }

    /// The 0.3 result: a bare `Task` or `Message` for `message/send`, the 0.3 task, push
    /// configurations and card, `null` for a deleted configuration.
    fn encode(&self, _asked: &Asked, reply: Reply) -> Result<Box<RawValue>, A2aError> {
        match reply {
            Reply::Sent(sent) => raw(&SendMessageResult::from(*sent)),
            Reply::Task(task) => raw(&v0_3::Task::from(*task)),
            Reply::PushConfig(config) => raw(&v0_3::TaskPushNotificationConfig::from(config)),
            Reply::PushConfigs(configs) => {
                raw(&Vec::<v0_3::TaskPushNotificationConfig>::from(configs))
            }
            Reply::Empty => raw(&()),
            Reply::Card(card) => raw(&v0_3::AgentCard::from(*card)),
            other => Err(no_form("0.3", &other)),
        }
    }

    /// A 0.3 event: the `kind`-tagged result, status updates with `final`.
    fn event(&self, event: &StreamResponse, out: &mut Vec<u8>) {
        let event = SendStreamingMessageResult::from(event.clone());
        serde_json::to_writer(out, &event).expect("events serialize");
    }
}

/// `P` decoded from the params, as the 1.0 request `Q`.
fn decoded<P, Q>(params: Option<&RawValue>) -> Result<Q, ErrorObject>
where
    P: serde::de::DeserializeOwned,
    Q: From<P>,
{
    decode_params::<P>(params).map(Q::from)
}

/// `message/send` and `message/stream`: [`MessageSendParams`] as the 1.0 send.
fn send(params: Option<&RawValue>) -> Result<SendMessageRequest, ErrorObject> {
    decoded::<MessageSendParams, SendMessageRequest>(params)
}

/// `tasks/pushNotificationConfig/set`: a configuration without `id` gets the task's id, as the
/// Python SDK gives it, so that `tasks/pushNotificationConfig/get` naming only the task finds
/// it (and a second one without `id` replaces it).
fn push_config_in(config: v0_3::TaskPushNotificationConfig) -> v1::TaskPushNotificationConfig {
    let mut config = v1::TaskPushNotificationConfig::from(config);
    if config.id.as_deref().is_none_or(str::is_empty) {
        config.id = config.task_id.as_ref().map(|id| id.as_str().to_owned());
    }
    config
}

/// `tasks/pushNotificationConfig/get` without `pushNotificationConfigId`: the configuration
/// whose id is the task's (see [`push_config_in`]).
fn get_push_config_in(
    params: GetTaskPushNotificationConfigParams,
) -> GetTaskPushNotificationConfigRequest {
    let mut request = GetTaskPushNotificationConfigRequest::from(params);
    if request.id.is_empty() {
        request.id = request.task_id.as_str().to_owned();
    }
    request
}

/// The path of the 0.2 authenticated extended card for a JSON-RPC endpoint at `rpc_path`:
/// `{url}/../agent/authenticatedExtendedCard`, the sibling `agent/authenticatedExtendedCard`
/// of the endpoint (`/agent/authenticatedExtendedCard` for an endpoint at `/` or `/a2a`).
pub(crate) fn extended_card_path(rpc_path: &str) -> String {
    let parent = match rpc_path.trim_end_matches('/').rsplit_once('/') {
        Some((parent, _)) => parent,
        None => "",
    };
    format!(
        "{parent}/{}",
        a2a_types::protocol::paths::V0_2_EXTENDED_CARD
    )
}

/// The 0.2 authenticated extended card (`GET {url}/../agent/authenticatedExtendedCard`), for
/// an authenticated caller: the handler's extended card, as 0.2 and 0.3 callers get it, in the
/// document every version reads (see [`card::union_json`]). Refusals are `google.rpc.Status`
/// documents: 400 `UNSUPPORTED_OPERATION` when the card declares no extended card, 400
/// `EXTENDED_AGENT_CARD_NOT_CONFIGURED` when none is configured, 405 for a method other than
/// GET.
pub(crate) async fn extended_card(
    handler: &RequestHandler,
    head: &http::request::Parts,
    call: CallContext,
) -> http::Response<A2aBody> {
    if let Some(refused) = card::only_get(head, "the extended agent card") {
        return refused;
    }
    let call = call.with_protocol_version(ProtocolVersion::V0_3);
    match handler
        .get_extended_agent_card(GetExtendedAgentCardRequest::new(), &call)
        .await
    {
        Ok(card) => response::full(StatusCode::OK, content_type::JSON, card::union_json(&card)),
        Err(error) => card::error_response(&error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binding::jsonrpc::testing::{decoded, encoded, event, events, replies};
    use pretty_assertions::assert_eq;
    use serde_json::json;

    /// Each 0.3 method's params decode to the 1.0 request of its operation.
    #[test]
    fn every_method_decodes_to_the_1_0_request() {
        let send = r#"{"message":{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"hi"}]},"configuration":{"blocking":false,"acceptedOutputModes":["text/plain"]}}"#;
        let send_v1 = json!({"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]},
            "configuration":{"acceptedOutputModes":["text/plain"],"returnImmediately":true}});
        let cases = [
            ("message/send", Some(send), send_v1.clone()),
            ("message/stream", Some(send), send_v1),
            (
                "tasks/get",
                Some(r#"{"id":"t-1","historyLength":2}"#),
                json!({"id":"t-1","historyLength":2}),
            ),
            ("tasks/cancel", Some(r#"{"id":"t-1"}"#), json!({"id":"t-1"})),
            (
                "tasks/resubscribe",
                Some(r#"{"id":"t-1"}"#),
                json!({"id":"t-1"}),
            ),
            (
                "tasks/pushNotificationConfig/set",
                Some(
                    r#"{"taskId":"t-1","pushNotificationConfig":{"url":"https://hook.example/a2a","token":"x","authentication":{"schemes":["Bearer"]}}}"#,
                ),
                // Without an id, the configuration gets the task's.
                json!({"id":"t-1","taskId":"t-1","url":"https://hook.example/a2a","token":"x","authentication":{"scheme":"Bearer"}}),
            ),
            (
                "tasks/pushNotificationConfig/get",
                Some(r#"{"id":"t-1"}"#),
                json!({"taskId":"t-1","id":"t-1"}),
            ),
            (
                "tasks/pushNotificationConfig/list",
                Some(r#"{"id":"t-1"}"#),
                json!({"taskId":"t-1"}),
            ),
            (
                "tasks/pushNotificationConfig/delete",
                Some(r#"{"id":"t-1","pushNotificationConfigId":"c-1"}"#),
                json!({"taskId":"t-1","id":"c-1"}),
            ),
            ("agent/getAuthenticatedExtendedCard", None, json!({})),
        ];
        let mut operations = Vec::new();
        for (method, params, expected) in cases {
            let (operation, json, client_ids) = decoded(&V0_3, method, params);
            operations.push(operation);
            assert_eq!(json, expected, "{method}");
            assert!(!client_ids);
        }
        let mut all = Operation::ALL.to_vec();
        all.retain(|op| *op != Operation::ListTasks);
        operations.sort();
        all.sort();
        assert_eq!(operations, all, "every operation but ListTasks");
    }

    /// Each reply in its 0.3 shape: `kind` tags, a bare task for `message/send`, `null` for
    /// a deletion.
    #[test]
    fn every_reply_in_its_0_3_shape() {
        let task = json!({"kind":"task","id":"t-1","contextId":"c-1","status":{"state":"completed"},
            "history":[{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"hi"}]}]});
        let config = json!({"taskId":"t-1","pushNotificationConfig":{"id":"c-1","url":"https://hook.example/a2a"}});
        let mut written = Vec::new();
        for reply in replies() {
            let kind = reply.kind();
            if kind == "Tasks" {
                // 0.3 has no task list.
                assert_eq!(
                    V0_3.encode(&asked(), reply).unwrap_err().message(),
                    "internal error: the answer (Tasks) has no 0.3 form"
                );
                continue;
            }
            written.push(encoded(&V0_3, Operation::GetTask, None, reply));
        }
        assert_eq!(
            written[..5],
            [
                task.clone(),
                task,
                config.clone(),
                json!([config]),
                json!(null)
            ]
        );
        assert_eq!(written[5]["protocolVersion"], "0.3.0");
        assert_eq!(written[5]["name"], "A");
    }

    fn asked() -> Asked {
        Asked {
            operation: Operation::ListTasks,
            task_id: None,
        }
    }

    #[test]
    fn events_carry_kind_and_final() {
        let written: Vec<serde_json::Value> = events().iter().map(|e| event(&V0_3, e)).collect();
        assert_eq!(
            written[1],
            json!({"kind":"status-update","taskId":"t-1","contextId":"c-1","status":{"state":"completed"},"final":true})
        );
        assert_eq!(
            written[2],
            json!({"kind":"artifact-update","taskId":"t-1","contextId":"c-1","artifact":{"artifactId":"a-1","parts":[{"kind":"text","text":"x"}]}})
        );
        assert_eq!(written[3]["kind"], "message");
        assert_eq!(written[0]["kind"], "task");
    }
}
