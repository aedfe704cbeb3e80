//! A2A errors as gRPC statuses, and back (spec 1.0 §10: `google.rpc.Status` with an
//! `ErrorInfo` of domain `a2a-protocol.org` among its details, in `grpc-status-details-bin`).
//!
//! The status code is the catalogue's ([`A2aError::grpc_code`], SUMMARY §2: `NOT_FOUND` for
//! `TASK_NOT_FOUND`, `FAILED_PRECONDITION` for the capability errors, ...); the message is the
//! error's; the details are its `ErrorInfo` (reason and metadata; added from the code's reason
//! when the error has none), its `BadRequest` field violations and its `RetryInfo` (an outage:
//! `UNAVAILABLE`, with the delay after which the call may be tried again).
//!
//! ```
//! use a2a_grpc::status::{from_status, to_status};
//! use a2a_jsonrpc::{A2aError, ErrorCode};
//!
//! let status = to_status(&A2aError::task_not_found("t-1"));
//! assert_eq!(status.code(), tonic::Code::NotFound);
//! assert_eq!(status.message(), "task t-1 not found");
//! let back = from_status(&status).unwrap();
//! assert_eq!(back.code(), ErrorCode::TASK_NOT_FOUND);
//! assert_eq!(back.metadata("taskId"), Some("t-1"));
//! ```

use a2a_jsonrpc::{A2aError, ErrorInfo};
use serde_json::{Value, json};
use tonic::Code;
use tonic_types::{ErrorDetail, StatusExt as _};

/// The `@type` of a `google.rpc.ErrorInfo` detail in JSON.
const ERROR_INFO: &str = "type.googleapis.com/google.rpc.ErrorInfo";
/// The `@type` of a `google.rpc.BadRequest` detail in JSON.
const BAD_REQUEST: &str = "type.googleapis.com/google.rpc.BadRequest";
/// The `@type` of a `google.rpc.RetryInfo` detail in JSON.
const RETRY_INFO: &str = "type.googleapis.com/google.rpc.RetryInfo";

/// The gRPC status of an A2A error: its gRPC code, its message, and its `ErrorInfo` (the code's
/// when it has none), `BadRequest` and `RetryInfo` details. Other details, which only JSON
/// carries, are left out.
pub fn to_status(error: &A2aError) -> tonic::Status {
    let mut details = Vec::new();
    let info = error.error_info().or_else(|| {
        error
            .code()
            .reason()
            .map(|_| ErrorInfo::for_code(error.code()))
    });
    if let Some(info) = info {
        details.push(ErrorDetail::from(tonic_types::ErrorInfo::new(
            info.reason,
            info.domain,
            info.metadata
                .into_iter()
                .collect::<std::collections::HashMap<_, _>>(),
        )));
    }
    let violations: Vec<tonic_types::FieldViolation> = error
        .details()
        .iter()
        .filter(|d| d.get("@type").and_then(Value::as_str) == Some(BAD_REQUEST))
        .filter_map(|d| d.get("fieldViolations")?.as_array())
        .flatten()
        .map(|v| {
            let text = |key: &str| v.get(key).and_then(Value::as_str).unwrap_or_default();
            tonic_types::FieldViolation::new(text("field"), text("description"))
        })
        .collect();
    if !violations.is_empty() {
        details.push(ErrorDetail::from(tonic_types::BadRequest::new(violations)));
    }
    if let Some(delay) = error.retry_after() {
        details.push(ErrorDetail::from(tonic_types::RetryInfo::new(Some(delay))));
    }
    tonic::Status::with_error_details_vec(
        Code::from_i32(error.grpc_code()),
        error.message(),
        details,
    )
}

/// The A2A error a gRPC status carries: the code its `ErrorInfo` reason names, else the one its
/// status code stands for alone (`NOT_FOUND`, `INVALID_ARGUMENT`, `INTERNAL`,
/// `UNIMPLEMENTED`); the message; the `ErrorInfo` and `BadRequest` details. `None` for a status
/// that names no A2A error (`UNAVAILABLE`, `DEADLINE_EXCEEDED` from the transport, ...).
pub fn from_status(status: &tonic::Status) -> Option<A2aError> {
    let mut details = Vec::new();
    for detail in status.get_error_details_vec() {
        match detail {
            ErrorDetail::ErrorInfo(info) => {
                let metadata: serde_json::Map<String, Value> = info
                    .metadata
                    .into_iter()
                    .map(|(k, v)| (k, Value::String(v)))
                    .collect::<std::collections::BTreeMap<_, _>>()
                    .into_iter()
                    .collect();
                let mut value =
                    json!({"@type": ERROR_INFO, "reason": info.reason, "domain": info.domain});
                if !metadata.is_empty() {
                    value["metadata"] = Value::Object(metadata);
                }
                details.push(value);
            }
            ErrorDetail::RetryInfo(retry) => {
                if let Some(delay) = retry.retry_delay {
                    let seconds = delay.as_secs() + u64::from(delay.subsec_nanos() > 0);
                    details.push(json!({"@type": RETRY_INFO, "retryDelay": format!("{seconds}s")}));
                }
            }
            ErrorDetail::BadRequest(bad) => {
                let violations: Vec<Value> = bad
                    .field_violations
                    .into_iter()
                    .map(|v| json!({"field": v.field, "description": v.description}))
                    .collect();
                details.push(json!({"@type": BAD_REQUEST, "fieldViolations": violations}));
            }
            _ => {}
        }
    }
    A2aError::from_status_json(&json!({
        "status": code_name(status.code()),
        "message": status.message(),
        "details": details,
    }))
}

/// The canonical name of a gRPC code (`NOT_FOUND`), as `google.rpc.Code` spells it.
pub fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use pretty_assertions::assert_eq;

    /// Every error of the catalogue: its gRPC code, and the same error read back.
    #[test]
    fn every_error_has_its_code_and_comes_back() {
        let cases = [
            (A2aError::task_not_found("t"), Code::NotFound),
            (
                A2aError::task_not_cancelable("t", "TASK_STATE_COMPLETED"),
                Code::FailedPrecondition,
            ),
            (
                A2aError::push_notification_not_supported(),
                Code::FailedPrecondition,
            ),
            (
                A2aError::unsupported_operation("no"),
                Code::FailedPrecondition,
            ),
            (
                A2aError::content_type_not_supported("a/b", "c/d"),
                Code::InvalidArgument,
            ),
            (A2aError::invalid_agent_response("x"), Code::Internal),
            (
                A2aError::extended_agent_card_not_configured(),
                Code::FailedPrecondition,
            ),
            (
                A2aError::extension_support_required("urn:x"),
                Code::FailedPrecondition,
            ),
            (
                A2aError::version_not_supported("v"),
                Code::FailedPrecondition,
            ),
            (A2aError::invalid_params("p"), Code::InvalidArgument),
            (A2aError::internal("i"), Code::Internal),
            (
                A2aError::invalid_request("who").with_http_status(401),
                Code::Unauthenticated,
            ),
            (
                A2aError::invalid_request("no").with_http_status(403),
                Code::PermissionDenied,
            ),
            (
                A2aError::internal("busy").with_http_status(503),
                Code::Unavailable,
            ),
            (
                A2aError::unavailable("the store is away", Duration::from_secs(3)),
                Code::Unavailable,
            ),
        ];
        for (error, code) in cases {
            let status = to_status(&error);
            assert_eq!(status.code(), code, "{error}");
            assert_eq!(status.message(), error.message());
            let info = status.get_details_error_info().expect("an ErrorInfo");
            assert_eq!(Some(info.reason.as_str()), error.reason(), "{error}");
            assert_eq!(info.domain, "a2a-protocol.org");
            let back = from_status(&status).unwrap();
            assert_eq!(back.code(), error.code(), "{error}");
            assert_eq!(back.message(), error.message());
            assert_eq!(back.details(), error_with_info(&error).details(), "{error}");
        }
    }

    /// The error with the `ErrorInfo` its status carries (added when it had none).
    fn error_with_info(error: &A2aError) -> A2aError {
        if error.error_info().is_some() {
            return error.clone();
        }
        let mut with = A2aError::new(error.code(), error.message().to_owned())
            .with_detail(ErrorInfo::for_code(error.code()).to_value());
        for detail in error.details() {
            with = with.with_detail(detail.clone());
        }
        with
    }

    #[test]
    fn an_outage_says_when_to_retry() {
        let error = A2aError::unavailable("the store is away", Duration::from_secs(3));
        let status = to_status(&error);
        assert_eq!(status.code(), Code::Unavailable);
        assert_eq!(
            status.get_details_retry_info().and_then(|r| r.retry_delay),
            Some(Duration::from_secs(3))
        );
        let info = status.get_details_error_info().expect("an ErrorInfo");
        assert_eq!(
            info.metadata.get("retryable").map(String::as_str),
            Some("true")
        );
        let back = from_status(&status).unwrap();
        assert_eq!(back.retry_after(), Some(Duration::from_secs(3)));
    }

    #[test]
    fn field_violations_travel() {
        let error = A2aError::invalid_params("bad")
            .with_field_violation("message.parts", "is empty")
            .with_metadata("k", "v");
        let status = to_status(&error);
        let bad = status.get_details_bad_request().unwrap();
        assert_eq!(bad.field_violations[0].field, "message.parts");
        let back = from_status(&status).unwrap();
        assert_eq!(
            back.details(),
            [
                json!({"@type": ERROR_INFO, "reason": "INVALID_PARAMS", "domain": "a2a-protocol.org", "metadata": {"k": "v"}}),
                json!({"@type": BAD_REQUEST, "fieldViolations": [{"field": "message.parts", "description": "is empty"}]}),
            ]
        );
    }

    #[test]
    fn statuses_without_a2a_errors() {
        assert_eq!(from_status(&tonic::Status::unavailable("down")), None);
        // A bare NOT_FOUND stands for a task that is not there.
        let error = from_status(&tonic::Status::not_found("gone")).unwrap();
        assert_eq!(error.code(), a2a_jsonrpc::ErrorCode::TASK_NOT_FOUND);
        assert_eq!(code_name(Code::ResourceExhausted), "RESOURCE_EXHAUSTED");
    }
}
