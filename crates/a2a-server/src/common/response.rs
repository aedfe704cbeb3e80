//! Plain responses.

use bytes::Bytes;
use http::{HeaderValue, StatusCode, header};

use super::body::A2aBody;

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
