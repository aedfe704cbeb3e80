//! What the legacy versions (0.3 with 0.2, and 0.1) share: which `A2A-Version` values they
//! take, and the task of the methods they share (which decides the version of a call without
//! `A2A-Version`). Each version's codec names its methods and its conversions.

use a2a_jsonrpc::Incoming;
use a2a_types::protocol::ProtocolVersion;
use a2a_types::v1::TaskId;

use crate::common::head::RequestedVersion;
use crate::error::A2aError;

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
