//! Plain responses.

use bytes::Bytes;
use http::{HeaderValue, StatusCode, header};

use super::body::A2aBody;
use crate::error::A2aError;

/// A response with a complete body of this media type.
pub(crate) fn full(
    status: StatusCode,
    content_type: &'static str,
    body: impl Into<Bytes>,
) -> http::Response<A2aBody> {
    let mut response = http::Response::new(A2aBody::full(body));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// A response without a body.
pub(crate) fn empty(status: StatusCode) -> http::Response<A2aBody> {
    let mut response = http::Response::new(A2aBody::empty());
    *response.status_mut() = status;
    response
}

/// The status code of a number an error carries (500 for one that is not a status).
pub(crate) fn status(code: u16) -> StatusCode {
    StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// The response to an error, whatever the binding's body: the error's HTTP status, and
/// `Retry-After` when the error says when the call may be tried again (a store that is
/// unavailable or full: 503).
pub(crate) fn error(
    error: &A2aError,
    content_type: &'static str,
    body: impl Into<Bytes>,
) -> http::Response<A2aBody> {
    retry_after(full(status(error.http_status()), content_type, body), error)
}

/// Adds `Retry-After` to `response` when `error` carries a retry delay.
pub(crate) fn retry_after(
    mut response: http::Response<A2aBody>,
    error: &A2aError,
) -> http::Response<A2aBody> {
    if let Some(value) = error
        .retry_after_header()
        .and_then(|after| HeaderValue::from_str(&after).ok())
    {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}
