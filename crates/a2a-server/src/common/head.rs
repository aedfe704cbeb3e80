//! What a request head says about the call: the A2A service parameters (`A2A-Version`,
//! `A2A-Extensions`, `Last-Event-ID`) and the caller (through the [`Authenticator`]).

use a2a_jsonrpc::A2aError;
use a2a_types::protocol::{ProtocolVersion, VersionNumber, headers};
use a2a_types::trace::TraceContext;
use http::{HeaderName, HeaderValue};

use crate::auth::{AuthError, Authenticator, Principal};

/// The header names read on every request, each parsed once here: a lookup by `&str` parses
/// the name first (~170 instructions a lookup, five lookups a request; callgrind,
/// docs/benchmarks.md).
static A2A_VERSION: HeaderName = HeaderName::from_static(headers::A2A_VERSION);
static A2A_EXTENSIONS: HeaderName = HeaderName::from_static(headers::A2A_EXTENSIONS);
static X_A2A_EXTENSIONS: HeaderName = HeaderName::from_static(headers::X_A2A_EXTENSIONS);
static LAST_EVENT_ID: HeaderName = HeaderName::from_static(headers::LAST_EVENT_ID);
static TRACEPARENT: HeaderName = HeaderName::from_static(headers::TRACEPARENT);
static TRACESTATE: HeaderName = HeaderName::from_static(headers::TRACESTATE);

/// The protocol version a request asks for (spec 1.0 §3.6): its `A2A-Version` header, or the
/// query parameter of that name, read by [`VersionNumber`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RequestedVersion {
    /// No `A2A-Version` (or an empty one): the request speaks 0.3.
    Missing,
    /// A version this server speaks: 1.x (patch versions are ignored), 0.2 or 0.3, 0.1; with
    /// the text as sent.
    Known(ProtocolVersion, String),
    /// Anything else, as sent.
    Other(String),
}

impl RequestedVersion {
    /// Reads the `A2A-Version` header, or the query parameter of that name (spec §3.6.1).
    pub(crate) fn of(head: &http::request::Parts) -> Self {
        let Some(value) = service_parameter(head, &A2A_VERSION) else {
            return RequestedVersion::Missing;
        };
        let value = value.trim();
        if value.is_empty() {
            return RequestedVersion::Missing;
        }
        match VersionNumber::parse(value).and_then(VersionNumber::protocol_version) {
            Some(version) => RequestedVersion::Known(version, value.to_owned()),
            None => RequestedVersion::Other(value.to_owned()),
        }
    }

    /// The text as sent; empty when there is none.
    pub(crate) fn given(&self) -> &str {
        match self {
            RequestedVersion::Missing => "",
            RequestedVersion::Known(_, given) | RequestedVersion::Other(given) => given,
        }
    }

    /// True for a 1.x version.
    pub(crate) fn is_v1(&self) -> bool {
        matches!(self, RequestedVersion::Known(ProtocolVersion::V1, _))
    }

    /// True for 1.1 exactly (the A2A 1.1 draft: task generations).
    pub(crate) fn is_v1_1(&self) -> bool {
        matches!(self, RequestedVersion::Known(ProtocolVersion::V1, given)
            if VersionNumber::parse(given) == Some(VersionNumber::new(1, 1)))
    }

    /// The legacy version it names: `Some` for 0.2/0.3 (0.3) and 0.1 (0.1); `None` for none
    /// named (no header, or 1.x, which names no legacy version: the method or route decides);
    /// `Err` for any other version.
    pub(crate) fn legacy(&self) -> Result<Option<ProtocolVersion>, ()> {
        match self {
            RequestedVersion::Missing | RequestedVersion::Known(ProtocolVersion::V1, _) => Ok(None),
            RequestedVersion::Known(version, _) => Ok(Some(*version)),
            RequestedVersion::Other(_) => Err(()),
        }
    }

    /// Checks that the request speaks 1.x, the version of the 1.0 methods and routes.
    pub(crate) fn require_v1(&self) -> Result<(), A2aError> {
        match self {
            _ if self.is_v1() => Ok(()),
            RequestedVersion::Missing => Err(A2aError::version_not_supported(
                "a request without an A2A-Version header is taken as A2A 0.3, and this method \
                 is one of A2A 1.0; send the header `A2A-Version: 1.0`",
            )),
            other => Err(A2aError::version_not_supported(format!(
                "A2A version `{}` is not supported; this endpoint serves 1.0 (send `A2A-Version: 1.0`)",
                other.given()
            ))),
        }
    }
}

/// A service parameter: the header, or the query parameter of the same name (spec §3.6.1).
pub(crate) fn service_parameter(head: &http::request::Parts, name: &HeaderName) -> Option<String> {
    if let Some(value) = head.headers.get(name).and_then(|v| v.to_str().ok()) {
        return Some(value.to_owned());
    }
    head.uri.query()?.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        k.eq_ignore_ascii_case(name.as_str()).then(|| v.to_owned())
    })
}

/// The trace context of a request's handling, and the caller's it continues: a child of the
/// caller's `traceparent` (with its `tracestate`) when it sent a valid one, else a new trace.
pub(crate) fn trace_context(headers: &http::HeaderMap) -> (TraceContext, Option<TraceContext>) {
    let text = |name: &HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    let parent =
        text(&TRACEPARENT).and_then(|parent| TraceContext::parse(parent, text(&TRACESTATE)));
    let ours = match &parent {
        Some(parent) => parent.child(),
        None => TraceContext::new_root(),
    };
    (ours, parent)
}

/// `A2A-Extensions` (and the 0.3 `X-A2A-Extensions`), comma-separated, possibly repeated.
pub(crate) fn requested_extensions(head: &http::request::Parts) -> Vec<String> {
    [&A2A_EXTENSIONS, &X_A2A_EXTENSIONS]
        .into_iter()
        .flat_map(|name| head.headers.get_all(name).iter())
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// `Last-Event-ID`: the log sequence number of the last event the client saw.
pub(crate) fn last_event_id(head: &http::request::Parts) -> Result<Option<u64>, A2aError> {
    let value = head
        .headers
        .get(&LAST_EVENT_ID)
        .map(|v| v.to_str().unwrap_or("\u{fffd}"));
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        Some(v) => v.parse().map(Some).map_err(|_| {
            A2aError::invalid_params(format!(
                "Last-Event-ID `{v}` is not an event id this server sent"
            ))
        }),
    }
}

/// A refused request: the error, and the `WWW-Authenticate` challenge to send with it.
#[derive(Debug)]
pub(crate) struct Refused {
    pub(crate) error: A2aError,
    pub(crate) challenge: Option<HeaderValue>,
}

/// Names the caller, or refuses the request (401 or 403, rendered by the binding).
pub(crate) async fn authenticate(
    authenticator: Option<&dyn Authenticator>,
    head: &http::request::Parts,
) -> Result<Option<Principal>, Refused> {
    let Some(auth) = authenticator else {
        return Ok(None);
    };
    auth.authenticate(head)
        .await
        .map_err(|err: AuthError| Refused {
            error: err.to_a2a_error(),
            challenge: err
                .challenge
                .as_deref()
                .and_then(|c| HeaderValue::from_str(c).ok()),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(headers: &[(&str, &str)], uri: &str) -> http::request::Parts {
        let mut request = http::Request::post(uri);
        for (k, v) in headers {
            request = request.header(*k, *v);
        }
        request.body(()).unwrap().into_parts().0
    }

    #[test]
    fn versions() {
        let of = |headers: &[(&str, &str)], uri: &str| RequestedVersion::of(&head(headers, uri));
        for v1 in ["1.0", "1.0.1", " 1.3 ", "1"] {
            let version = of(&[("A2A-Version", v1)], "/");
            assert!(version.is_v1(), "{v1}");
            assert_eq!(version.given(), v1.trim());
            assert_eq!(version.legacy(), Ok(None));
        }
        assert_eq!(of(&[], "/"), RequestedVersion::Missing);
        assert_eq!(of(&[("a2a-version", "")], "/"), RequestedVersion::Missing);
        assert!(of(&[], "/?A2A-Version=1.0").is_v1());
        for (v, legacy) in [
            ("0.3", ProtocolVersion::V0_3),
            ("0.3.0", ProtocolVersion::V0_3),
            ("0.2.5", ProtocolVersion::V0_3),
            ("0.1", ProtocolVersion::V0_1),
        ] {
            assert_eq!(
                of(&[("A2A-Version", v)], "/").legacy(),
                Ok(Some(legacy)),
                "{v}"
            );
        }
        for other in ["2.0", "0.4", "1.x", "v1.0", "0", "0..3", "0.3."] {
            let version = of(&[("A2A-Version", other)], "/");
            assert_eq!(version, RequestedVersion::Other(other.to_owned()));
            assert_eq!(version.legacy(), Err(()), "{other}");
        }
        assert_eq!(RequestedVersion::Missing.legacy(), Ok(None));
        assert_eq!(
            of(&[("A2A-Version", "0.3")], "/")
                .require_v1()
                .unwrap_err()
                .message(),
            "A2A version `0.3` is not supported; this endpoint serves 1.0 (send `A2A-Version: 1.0`)"
        );
    }

    #[test]
    fn extensions_from_both_spellings() {
        let h = head(
            &[
                ("A2A-Extensions", "urn:a, urn:b"),
                ("X-A2A-Extensions", "urn:c"),
                ("a2a-extensions", ","),
            ],
            "/",
        );
        assert_eq!(requested_extensions(&h), ["urn:a", "urn:b", "urn:c"]);
    }

    #[test]
    fn last_event_ids() {
        assert_eq!(last_event_id(&head(&[], "/")).unwrap(), None);
        assert_eq!(
            last_event_id(&head(&[("Last-Event-ID", " 7 ")], "/")).unwrap(),
            Some(7)
        );
        assert_eq!(
            last_event_id(&head(&[("Last-Event-ID", "x")], "/"))
                .unwrap_err()
                .message(),
            "invalid params: Last-Event-ID `x` is not an event id this server sent"
        );
    }
}
