//! A2A 0.3 (and 0.2) over JSON-RPC: the `message/send` version. Params and results in the
//! `kind`-tagged JSON of `a2a.json` 0.3 ([`a2a_types::v0_3`]), converted to and from 1.0 at the
//! edge: `message/send` answers a bare `Task` or `Message`, stream events carry `kind` and
//! status updates `final` (true in a terminal or interrupted state). Errors keep their codes
//! (0.3 defines -32001 to -32007 as 1.0 does; -32008 and -32009 are new in 1.0) and their
//! `data` (free-form in 0.3: here the 1.0 details array).

use a2a_types::protocol::{ProtocolVersion, content_type};
use a2a_types::v0_3::{
    self, DeleteTaskPushNotificationConfigParams, GetTaskPushNotificationConfigParams,
    ListTaskPushNotificationConfigParams, MessageSendParams, Method as _, NoParams,
    SendMessageResult, SendStreamingMessageResult, TaskIdParams, TaskQueryParams, methods,
};
use a2a_types::v1::{
    self, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    SendMessageRequest, StreamResponse, SubscribeToTaskRequest,
};

use http::StatusCode;

use super::legacy::{self, convert, ops};
use super::{RpcVersion, Table};
use crate::card;
use crate::common::body::A2aBody;
use crate::common::response;
use crate::error::A2aError;
use crate::handler::{CallContext, RequestHandler};

/// The 0.3 version of the JSON-RPC endpoint.
pub(super) fn protocol_version() -> RpcVersion {
    RpcVersion {
        name: "0.3",
        protocol_version: ProtocolVersion::V0_3,
        check_version: legacy::check_v0_3,
        table: table(),
        write_event,
        render_error: std::convert::identity,
    }
}

/// The ten methods of 0.3: eight answered with one JSON response, two with a stream.
fn table() -> Table {
    let table = Table::streaming();
    let table = legacy::streaming(
        table,
        methods::SendStreamingMessage::NAME,
        convert::<MessageSendParams, SendMessageRequest>,
        ops::send_streaming,
    );
    let table = legacy::streaming(
        table,
        methods::TaskResubscription::NAME,
        convert::<TaskIdParams, SubscribeToTaskRequest>,
        ops::subscribe,
    );
    let table = legacy::unary(
        table,
        methods::SendMessage::NAME,
        convert::<MessageSendParams, SendMessageRequest>,
        ops::send,
        convert::<v1::SendMessageResponse, SendMessageResult>,
    );
    let table = legacy::unary(
        table,
        methods::GetTask::NAME,
        convert::<TaskQueryParams, GetTaskRequest>,
        ops::get_task,
        convert::<v1::Task, v0_3::Task>,
    );
    let table = legacy::unary(
        table,
        methods::CancelTask::NAME,
        convert::<TaskIdParams, CancelTaskRequest>,
        ops::cancel_task,
        convert::<v1::Task, v0_3::Task>,
    );
    let table = legacy::unary(
        table,
        methods::SetTaskPushNotificationConfig::NAME,
        push_config_in,
        ops::create_push_config,
        convert::<v1::TaskPushNotificationConfig, v0_3::TaskPushNotificationConfig>,
    );
    let table = legacy::unary(
        table,
        methods::GetTaskPushNotificationConfig::NAME,
        get_push_config_in,
        ops::get_push_config,
        convert::<v1::TaskPushNotificationConfig, v0_3::TaskPushNotificationConfig>,
    );
    let table = legacy::unary(
        table,
        methods::ListTaskPushNotificationConfig::NAME,
        convert::<ListTaskPushNotificationConfigParams, ListTaskPushNotificationConfigsRequest>,
        ops::list_push_configs,
        convert::<v1::ListTaskPushNotificationConfigsResponse, Vec<v0_3::TaskPushNotificationConfig>>,
    );
    let table = legacy::unary(
        table,
        methods::DeleteTaskPushNotificationConfig::NAME,
        convert::<DeleteTaskPushNotificationConfigParams, DeleteTaskPushNotificationConfigRequest>,
        ops::delete_push_config,
        // `result: null`.
        convert::<(), ()>,
    );
    legacy::unary(
        table,
        methods::GetAuthenticatedExtendedCard::NAME,
        |_: NoParams| Ok(GetExtendedAgentCardRequest::default()),
        ops::extended_card,
        convert::<v1::AgentCard, v0_3::AgentCard>,
    )
}

/// `tasks/pushNotificationConfig/set`: a configuration without `id` gets the task's id, as the
/// Python SDK gives it, so that `tasks/pushNotificationConfig/get` naming only the task finds
/// it (and a second one without `id` replaces it).
fn push_config_in(
    config: v0_3::TaskPushNotificationConfig,
) -> Result<v1::TaskPushNotificationConfig, A2aError> {
    let mut config = v1::TaskPushNotificationConfig::from(config);
    if config.id.as_deref().is_none_or(str::is_empty) {
        config.id = config.task_id.as_ref().map(|id| id.as_str().to_owned());
    }
    Ok(config)
}

/// `tasks/pushNotificationConfig/get` without `pushNotificationConfigId`: the configuration
/// whose id is the task's (see [`push_config_in`]).
fn get_push_config_in(
    params: GetTaskPushNotificationConfigParams,
) -> Result<GetTaskPushNotificationConfigRequest, A2aError> {
    let mut request = GetTaskPushNotificationConfigRequest::from(params);
    if request.id.is_empty() {
        request.id = request.task_id.as_str().to_owned();
    }
    Ok(request)
}

/// A 0.3 event: the `kind`-tagged result, status updates with `final`.
fn write_event(event: &StreamResponse, out: &mut Vec<u8>) {
    let event = SendStreamingMessageResult::from(event.clone());
    serde_json::to_writer(out, &event).expect("events serialize");
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
