//! The errors an operation answers with: [`A2aError`], the A2A error catalogue shared with the
//! client (defined in `a2a-jsonrpc`), and how store failures map onto it.
//!
//! A store that cannot answer now ([`StoreError::Unavailable`]: its database is unreachable;
//! [`StoreError::Conflict`]: it gave up retrying a busy task) or that holds as many tasks as
//! it may ([`StoreError::Full`]) is a transient condition, answered as one:
//! [`A2aError::unavailable`] (-32603, HTTP 503 with `Retry-After`, gRPC `UNAVAILABLE`, details
//! that say the call is retryable). Every other store failure is an internal error (500).

use std::time::Duration;

pub use a2a_jsonrpc::A2aError;

use crate::store::StoreError;

/// The delay a client is told to wait before it tries a call the store could not serve.
pub(crate) const STORE_RETRY_AFTER: Duration = Duration::from_secs(1);

impl From<StoreError> for A2aError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Full(text) => A2aError::unavailable(text, STORE_RETRY_AFTER),
            err if err.is_transient() => A2aError::unavailable(err.to_string(), STORE_RETRY_AFTER),
            err => A2aError::internal(err),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(error: A2aError) -> serde_json::Value {
        serde_json::to_value(error.to_error_object()).unwrap()
    }

    fn retryable(message: &str) -> serde_json::Value {
        json!({
            "code": -32603,
            "message": message,
            "data": [
                {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "INTERNAL",
                 "domain": "a2a-protocol.org", "metadata": {"retryable": "true"}},
                {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1s"}
            ]
        })
    }

    #[test]
    fn transient_store_failures_are_retryable_503s() {
        let down = A2aError::from(StoreError::Unavailable("no database".to_owned()));
        assert_eq!(
            (down.http_status(), down.grpc_status()),
            (503, "UNAVAILABLE")
        );
        assert_eq!(
            object(down),
            retryable("task store unavailable: no database")
        );
        let full = A2aError::from(StoreError::Full(
            "the store is full; try again later".into(),
        ));
        assert_eq!(full.http_status(), 503);
        assert_eq!(
            object(full),
            retryable("the store is full; try again later")
        );
        let busy = A2aError::from(StoreError::Conflict("busy".to_owned()));
        assert_eq!(
            object(busy),
            retryable("conflict with a concurrent change: busy")
        );
    }

    #[test]
    fn other_store_failures_are_internal() {
        let corrupt = A2aError::from(StoreError::Corrupt("a bad row".to_owned()));
        assert_eq!(corrupt.http_status(), 500);
        assert_eq!(
            corrupt.message(),
            "internal error: task store data is corrupt: a bad row"
        );
        assert_eq!(corrupt.retry_after(), None);
    }
}
