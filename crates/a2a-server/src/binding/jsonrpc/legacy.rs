//! What the legacy versions (0.3 with 0.2, and 0.1) share: which `A2A-Version` values they
//! take, and the edge adapter that registers a legacy method as "decode its params, convert
//! them to the 1.0 request, run the 1.0 operation with the call's version set, convert the
//! result back". The operations below are the handler's, called the same way for every
//! legacy version; each version module only names its methods and conversions.

use std::future::Future;

use a2a_jsonrpc::{ErrorObject, Incoming};
use a2a_types::protocol::ProtocolVersion;
use a2a_types::v1::{
    AgentCard, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    SendMessageRequest, SendMessageResponse, SubscribeToTaskRequest, Task, TaskId,
    TaskPushNotificationConfig,
};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{RpcContext, Table};
use crate::common::head::RequestedVersion;
use crate::error::A2aError;
use crate::handler::EventStream;

/// -32009 for a method the legacy versions share (`tasks/get`, `tasks/cancel`,
/// `tasks/resubscribe`) called with a version that names none of them.
pub(super) fn unsupported_version(method: &str, version: &RequestedVersion) -> A2aError {
    A2aError::version_not_supported(format!(
        "A2A version `{}` is not supported for {method}; this endpoint serves it in A2A 0.3 \
         and 0.2 (`A2A-Version: 0.3`), in A2A 0.1 (`A2A-Version: 0.1`) or, without the header, \
         in the version its task was created through; A2A 1.0 calls use the 1.0 method names \
         with `A2A-Version: 1.0`",
        version.given()
    ))
}

/// The version check of a method only `protocol_version` has: no header, `1.x` (the method name
/// decides) or a version of that version.
fn check_for(
    version: &RequestedVersion,
    protocol_version: ProtocolVersion,
) -> Result<(), A2aError> {
    match version.legacy() {
        Ok(None) => Ok(()),
        Ok(Some(named)) if named == protocol_version => Ok(()),
        _ => {
            let given = version.given();
            Err(A2aError::version_not_supported(format!(
                "A2A version `{given}` is not supported for this method, which is one of {protocol_version}; \
                 send it without A2A-Version (or with a version of {protocol_version}), or use the \
                 methods of the version you speak"
            )))
        }
    }
}

/// The version check of the 0.3 (and 0.2) methods.
pub(super) fn check_v0_3(version: &RequestedVersion) -> Result<(), A2aError> {
    check_for(version, ProtocolVersion::V0_3)
}

/// The version check of the 0.1 methods.
pub(super) fn check_v0_1(version: &RequestedVersion) -> Result<(), A2aError> {
    check_for(version, ProtocolVersion::V0_1)
}

/// `params.id` of a call, when it is a string: the task of `tasks/get`, `tasks/cancel` and
/// `tasks/resubscribe` in every legacy version.
pub(super) fn task_id_param(incoming: &Incoming) -> Option<TaskId> {
    #[derive(serde::Deserialize)]
    struct Params {
        id: String,
    }
    let params = match incoming {
        Incoming::Request(request) => request.params.as_deref(),
        Incoming::Notification(notification) => notification.params.as_deref(),
        Incoming::Invalid { .. } => None,
    }?;
    serde_json::from_str::<Params>(params.get())
        .ok()
        .map(|p| TaskId::from(p.id))
}

/// Registers a unary legacy method: its params `P` decoded and converted by `into`, the 1.0
/// operation `op` run, its result converted back by `back` (a conversion that cannot express
/// the result is the call's error, never a silent loss).
pub(super) fn unary<P, Q, R, W, F, Fut>(
    table: Table,
    method: &'static str,
    into: fn(P) -> Result<Q, A2aError>,
    op: F,
    back: fn(R) -> Result<W, A2aError>,
) -> Table
where
    P: DeserializeOwned + 'static,
    Q: Send + 'static,
    R: 'static,
    W: Serialize + 'static,
    F: Fn(RpcContext, Q) -> Fut + Send + Sync + Copy + 'static,
    Fut: Future<Output = Result<R, A2aError>> + Send + 'static,
{
    table.register(method, move |params: P, cx: RpcContext| {
        let started = into(params).map(|request| op(cx, request));
        async move {
            let result = async { back(started?.await?) }.await;
            result.map_err(ErrorObject::from)
        }
    })
}

/// Registers a streaming legacy method: its params converted by `into`, the 1.0 stream of `op`
/// (its events are written by the version's `write_event`).
pub(super) fn streaming<P, Q, F, Fut>(
    table: Table,
    method: &'static str,
    into: fn(P) -> Result<Q, A2aError>,
    op: F,
) -> Table
where
    P: DeserializeOwned + 'static,
    Q: Send + 'static,
    F: Fn(RpcContext, Q) -> Fut + Send + Sync + Copy + 'static,
    Fut: Future<Output = Result<EventStream, A2aError>> + Send + 'static,
{
    table.register_stream(method, move |params: P, cx: RpcContext| {
        let started = into(params).map(|request| op(cx, request));
        async move {
            let result = async { started?.await }.await;
            result.map_err(ErrorObject::from)
        }
    })
}

/// A conversion that cannot fail.
pub(super) fn convert<A, B: From<A>>(a: A) -> Result<B, A2aError> {
    Ok(B::from(a))
}

/// The 1.0 operations, as the legacy adapters call them (legacy requests name no tenant: the
/// call's context is used as it is).
pub(super) mod ops {
    use super::*;

    /// `SendMessage`.
    pub(crate) async fn send(
        cx: RpcContext,
        req: SendMessageRequest,
    ) -> Result<SendMessageResponse, A2aError> {
        cx.handler.send_message(req, &cx.call).await
    }

    /// `SendStreamingMessage`.
    pub(crate) async fn send_streaming(
        cx: RpcContext,
        req: SendMessageRequest,
    ) -> Result<EventStream, A2aError> {
        cx.handler.send_streaming_message(req, &cx.call).await
    }

    /// `GetTask`.
    pub(crate) async fn get_task(cx: RpcContext, req: GetTaskRequest) -> Result<Task, A2aError> {
        cx.handler.get_task(req, &cx.call).await
    }

    /// `CancelTask`.
    pub(crate) async fn cancel_task(
        cx: RpcContext,
        req: CancelTaskRequest,
    ) -> Result<Task, A2aError> {
        cx.handler.cancel_task(req, &cx.call).await
    }

    /// `SubscribeToTask`, resuming after `Last-Event-ID`.
    pub(crate) async fn subscribe(
        cx: RpcContext,
        req: SubscribeToTaskRequest,
    ) -> Result<EventStream, A2aError> {
        let last_event_id = cx.last_event_id?;
        cx.handler
            .subscribe_to_task(&req.id, last_event_id, &cx.call)
            .await
    }

    /// `CreateTaskPushNotificationConfig`.
    pub(crate) async fn create_push_config(
        cx: RpcContext,
        req: TaskPushNotificationConfig,
    ) -> Result<TaskPushNotificationConfig, A2aError> {
        cx.handler.create_push_config(req, &cx.call).await
    }

    /// `GetTaskPushNotificationConfig`.
    pub(crate) async fn get_push_config(
        cx: RpcContext,
        req: GetTaskPushNotificationConfigRequest,
    ) -> Result<TaskPushNotificationConfig, A2aError> {
        cx.handler.get_push_config(req, &cx.call).await
    }

    /// `ListTaskPushNotificationConfigs`.
    pub(crate) async fn list_push_configs(
        cx: RpcContext,
        req: ListTaskPushNotificationConfigsRequest,
    ) -> Result<ListTaskPushNotificationConfigsResponse, A2aError> {
        cx.handler.list_push_configs(req, &cx.call).await
    }

    /// `DeleteTaskPushNotificationConfig`.
    pub(crate) async fn delete_push_config(
        cx: RpcContext,
        req: DeleteTaskPushNotificationConfigRequest,
    ) -> Result<(), A2aError> {
        cx.handler.delete_push_config(req, &cx.call).await
    }

    /// `GetExtendedAgentCard`.
    pub(crate) async fn extended_card(
        cx: RpcContext,
        req: GetExtendedAgentCardRequest,
    ) -> Result<AgentCard, A2aError> {
        cx.handler.get_extended_agent_card(req, &cx.call).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_of_one_version_take_its_versions() {
        let other = |v: &str| RequestedVersion::Other(v.to_owned());
        let known = |p, v: &str| RequestedVersion::Known(p, v.to_owned());
        assert!(check_v0_3(&RequestedVersion::Missing).is_ok());
        assert!(check_v0_3(&known(ProtocolVersion::V1, "1.0")).is_ok());
        assert!(check_v0_3(&known(ProtocolVersion::V0_3, "0.2.5")).is_ok());
        assert!(check_v0_1(&known(ProtocolVersion::V0_1, "0.1")).is_ok());
        let refused = check_v0_3(&known(ProtocolVersion::V0_1, "0.1")).unwrap_err();
        assert_eq!(
            refused.code(),
            a2a_jsonrpc::ErrorCode::VERSION_NOT_SUPPORTED
        );
        assert_eq!(
            refused.message(),
            "A2A version `0.1` is not supported for this method, which is one of A2A 0.2/0.3; \
             send it without A2A-Version (or with a version of A2A 0.2/0.3), or use the methods \
             of the version you speak"
        );
        assert!(check_v0_1(&known(ProtocolVersion::V0_3, "0.3")).is_err());
        assert!(check_v0_1(&other("7")).is_err());
    }
}
