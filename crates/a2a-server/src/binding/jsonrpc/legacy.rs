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
use crate::error::A2aError;
use crate::handler::EventStream;
use crate::http::head::RequestedVersion;

/// `Major.Minor` of a version string (`"0.3"`, `"0.2.5"`, `"1"`); `None` when it is not
/// dot-separated digits.
fn major_minor(version: &str) -> Option<(u64, u64)> {
    let mut parts = version.split('.');
    let number = |part: Option<&str>| -> Option<u64> {
        match part {
            None => Some(0),
            Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => p.parse().ok(),
            Some(_) => None,
        }
    };
    let major = number(parts.next())?;
    let minor = number(parts.next())?;
    // A patch part must be digits too; it is ignored.
    parts.try_for_each(|p| number(Some(p)).map(drop))?;
    Some((major, minor))
}

/// The legacy version an `A2A-Version` names: `Some` for `0.2.x`/`0.3.x` (0.3) and `0.1.x`
/// (0.1); `None` for none named (no header, or `1.x`, which names no legacy version: the
/// method name decides); `Err` for any other version.
pub(crate) fn named_version(version: &RequestedVersion) -> Result<Option<ProtocolVersion>, ()> {
    match version {
        RequestedVersion::Missing | RequestedVersion::V1 => Ok(None),
        RequestedVersion::Other(v) => match major_minor(v) {
            Some((0, 2 | 3)) => Ok(Some(ProtocolVersion::V0_3)),
            Some((0, 1)) => Ok(Some(ProtocolVersion::V0_1)),
            _ => Err(()),
        },
    }
}

/// -32009 for a method the legacy versions share (`tasks/get`, `tasks/cancel`,
/// `tasks/resubscribe`) called with a version that names none of them.
pub(super) fn unsupported_version(method: &str, version: &RequestedVersion) -> A2aError {
    let given = match version {
        RequestedVersion::Other(v) => v.as_str(),
        RequestedVersion::Missing | RequestedVersion::V1 => "",
    };
    A2aError::version_not_supported(format!(
        "A2A version `{given}` is not supported for {method}; this endpoint serves it in A2A 0.3 \
         and 0.2 (`A2A-Version: 0.3`), in A2A 0.1 (`A2A-Version: 0.1`) or, without the header, \
         in the version its task was created through; A2A 1.0 calls use the 1.0 method names \
         with `A2A-Version: 1.0`"
    ))
}

/// The version check of a method only `protocol_version` has: no header, `1.x` (the method name
/// decides) or a version of that version.
fn check_for(
    version: &RequestedVersion,
    protocol_version: ProtocolVersion,
) -> Result<(), A2aError> {
    match named_version(version) {
        Ok(None) => Ok(()),
        Ok(Some(named)) if named == protocol_version => Ok(()),
        _ => {
            let given = match version {
                RequestedVersion::Other(v) => v.as_str(),
                _ => "",
            };
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

    /// `GetExtendedAgentCard`; an extended card that lists no interfaces gets the public
    /// card's (a legacy card names its endpoint in `url`).
    pub(crate) async fn extended_card(
        cx: RpcContext,
        _req: GetExtendedAgentCardRequest,
    ) -> Result<AgentCard, A2aError> {
        crate::card::legacy_extended_card(&cx.handler, &cx.call).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_name_versions() {
        let other = |v: &str| RequestedVersion::Other(v.to_owned());
        assert_eq!(named_version(&RequestedVersion::Missing), Ok(None));
        assert_eq!(named_version(&RequestedVersion::V1), Ok(None));
        for v in ["0.3", "0.3.0", "0.2", "0.2.5", "0.2.6"] {
            assert_eq!(
                named_version(&other(v)),
                Ok(Some(ProtocolVersion::V0_3)),
                "{v}"
            );
        }
        for v in ["0.1", "0.1.0"] {
            assert_eq!(
                named_version(&other(v)),
                Ok(Some(ProtocolVersion::V0_1)),
                "{v}"
            );
        }
        for v in ["0.4", "2.0", "0", "0.x", "v0.3", "0.3.", "0..3"] {
            assert_eq!(named_version(&other(v)), Err(()), "{v}");
        }
    }

    #[test]
    fn methods_of_one_version_take_its_versions() {
        let other = |v: &str| RequestedVersion::Other(v.to_owned());
        assert!(check_v0_3(&RequestedVersion::Missing).is_ok());
        assert!(check_v0_3(&RequestedVersion::V1).is_ok());
        assert!(check_v0_3(&other("0.2.5")).is_ok());
        assert!(check_v0_1(&other("0.1")).is_ok());
        let refused = check_v0_3(&other("0.1")).unwrap_err();
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
        assert!(check_v0_1(&other("0.3")).is_err());
        assert!(check_v0_1(&other("7")).is_err());
    }
}
