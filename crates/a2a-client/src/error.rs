//! [`Error`]: everything a call can fail with, and [`RpcErrorKind`], the A2A error an agent
//! answered with.

use std::fmt;
use std::time::Duration;

use a2a_jsonrpc::{ErrorCode, ErrorObject};
use a2a_types::v1::AgentInterface;

/// A boxed error of the layer below (hyper, the socket, TLS), kept out of the public API.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Why a call failed.
///
/// Every variant's `Display` is one line that says what happened, meant to be shown to a
/// person as it is (`a2a` prints it after `error: `).
///
/// ```
/// use a2a_client::{Error, RpcErrorKind};
/// use a2a_jsonrpc::{A2aError, ErrorObject};
///
/// let error = Error::from(ErrorObject::from(A2aError::task_not_found("t-1")));
/// assert_eq!(error.rpc_kind(), Some(RpcErrorKind::TaskNotFound));
/// assert_eq!(error.to_string(), "the agent answered TaskNotFoundError (-32001): task t-1 not found");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The agent answered the call with a JSON-RPC error.
    #[error("the agent answered {error}")]
    Rpc {
        /// Which A2A error it is, read from the `ErrorInfo` reason when there is one, else from
        /// the code.
        kind: RpcErrorKind,
        /// The error object as the agent sent it.
        error: ErrorObject,
    },
    /// The server answered with an HTTP status other than 2xx.
    #[error("HTTP {status}{}", http_detail(body))]
    Http {
        /// The status.
        status: http::StatusCode,
        /// The response body as text (lossy UTF-8, cut after 4 KiB).
        body: String,
    },
    /// The request could not be sent or the response could not be read: no connection,
    /// TLS failure, connection reset, a body cut off.
    #[error("{}", chain(.0.as_ref()))]
    Transport(#[source] BoxError),
    /// The answer is JSON of the wrong shape; the error names the JSON path of the bad field.
    #[error("cannot decode the answer: {0}")]
    Decode(#[source] a2a_types::json::DecodeError),
    /// An event of an SSE stream could not be decoded.
    #[error("broken event stream: {0}")]
    Sse(#[source] a2a_sse::DecodeError),
    /// The call (or the connection, or an idle stream) took longer than allowed.
    #[error("timed out after {}", human(*.0))]
    Timeout(Duration),
    /// The answer is well-formed but breaks the protocol (an SSE stream where JSON was due, a
    /// stream that ends before its first event, ...).
    #[error("protocol error: {0}")]
    Protocol(String),
    /// The agent card offers no interface this client speaks.
    #[error("{}", no_interface(offered))]
    NoSupportedInterface {
        /// The interfaces the card lists.
        offered: Vec<AgentInterface>,
    },
    /// The client was given something it cannot use: a URL, a header.
    #[error("{0}")]
    Config(String),
}

impl Error {
    /// The A2A error kind, for [`Error::Rpc`].
    pub fn rpc_kind(&self) -> Option<RpcErrorKind> {
        match self {
            Error::Rpc { kind, .. } => Some(*kind),
            _ => None,
        }
    }

    /// The JSON-RPC error object, for [`Error::Rpc`].
    pub fn rpc_error(&self) -> Option<&ErrorObject> {
        match self {
            Error::Rpc { error, .. } => Some(error),
            _ => None,
        }
    }

    /// The HTTP status, for [`Error::Http`].
    pub fn http_status(&self) -> Option<http::StatusCode> {
        match self {
            Error::Http { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// True when the connection could not be made, so the request never reached the server and
    /// can be sent again whatever it does.
    pub fn is_connect(&self) -> bool {
        match self {
            Error::Transport(source) => source
                .downcast_ref::<TransportFailure>()
                .is_some_and(|f| f.connect),
            _ => false,
        }
    }

    /// True for failures that may go away on their own: transport errors, timeouts, and HTTP
    /// 408, 429, 502, 503 and 504. The client retries calls on these (see
    /// [`RetryPolicy`](crate::RetryPolicy)).
    pub fn is_transient(&self) -> bool {
        match self {
            Error::Transport(_) | Error::Timeout(_) => true,
            Error::Http { status, .. } => matches!(status.as_u16(), 408 | 429 | 502 | 503 | 504),
            _ => false,
        }
    }

    pub(crate) fn transport(message: impl Into<String>, source: impl Into<BoxError>) -> Self {
        Error::Transport(Box::new(TransportFailure {
            message: message.into(),
            connect: false,
            source: Some(source.into()),
        }))
    }

    pub(crate) fn transport_msg(message: impl Into<String>) -> Self {
        Error::Transport(Box::new(TransportFailure {
            message: message.into(),
            connect: false,
            source: None,
        }))
    }

    pub(crate) fn connect(message: impl Into<String>, source: impl Into<BoxError>) -> Self {
        Error::Transport(Box::new(TransportFailure {
            message: message.into(),
            connect: true,
            source: Some(source.into()),
        }))
    }

    pub(crate) fn http(status: http::StatusCode, body: &[u8]) -> Self {
        const LIMIT: usize = 4096;
        let cut = &body[..body.len().min(LIMIT)];
        Error::Http {
            status,
            body: String::from_utf8_lossy(cut).into_owned(),
        }
    }
}

impl From<ErrorObject> for Error {
    fn from(error: ErrorObject) -> Self {
        Error::Rpc {
            kind: RpcErrorKind::of(&error),
            error,
        }
    }
}

impl From<a2a_types::json::DecodeError> for Error {
    fn from(error: a2a_types::json::DecodeError) -> Self {
        Error::Decode(error)
    }
}

impl From<a2a_sse::DecodeError> for Error {
    fn from(error: a2a_sse::DecodeError) -> Self {
        Error::Sse(error)
    }
}

/// A transport failure: what the client was doing, and the error below.
#[derive(Debug)]
pub(crate) struct TransportFailure {
    message: String,
    connect: bool,
    source: Option<BoxError>,
}

impl fmt::Display for TransportFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TransportFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// The error and its causes on one line, skipping causes whose text the previous one already
/// shows (hyper's "client error (Connect)" adds nothing to "connection refused").
fn chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut out = error.to_string();
    let mut next = error.source();
    while let Some(cause) = next {
        let text = cause.to_string();
        if !text.is_empty() && !out.contains(&text) && !is_vague(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        next = cause.source();
    }
    out
}

fn is_vague(text: &str) -> bool {
    text.starts_with("client error (")
}

fn http_detail(body: &str) -> String {
    // A JSON-RPC error in the body says more than the status.
    if let Ok(response) = serde_json::from_str::<a2a_jsonrpc::Response<serde_json::Value>>(body)
        && let Err(error) = response.result
    {
        return format!(": {}", error.message);
    }
    let line = body.lines().map(str::trim).find(|l| !l.is_empty());
    match line {
        Some(line) if line.len() > 200 => format!(": {}…", &line[..floor(line, 200)]),
        Some(line) => format!(": {line}"),
        None => String::new(),
    }
}

fn floor(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn human(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} ms", d.as_millis())
    }
}

fn no_interface(offered: &[AgentInterface]) -> String {
    if offered.is_empty() {
        return "the agent card lists no interfaces; this client speaks JSONRPC 1.0".to_owned();
    }
    let list: Vec<String> = offered
        .iter()
        .map(|i| format!("{} {} {}", i.protocol_binding, i.protocol_version, i.url))
        .collect();
    format!(
        "the agent card offers no interface this client speaks (JSONRPC 1.0); it offers: {}",
        list.join(", ")
    )
}

/// The A2A error an agent answered with: the errors of the A2A catalogue and of JSON-RPC 2.0,
/// typed.
///
/// Read from the `google.rpc.ErrorInfo` reason in the error's `data` when it names a known
/// error (A2A 1.0), else from the code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RpcErrorKind {
    /// -32700: the server could not parse the request.
    ParseError,
    /// -32600: the request is not a valid JSON-RPC request.
    InvalidRequest,
    /// -32601: the method is unknown.
    MethodNotFound,
    /// -32602: the params are invalid.
    InvalidParams,
    /// -32603: the agent failed.
    InternalError,
    /// -32001: no such task (or not visible to the caller).
    TaskNotFound,
    /// -32002: the task is in a state where it cannot be canceled.
    TaskNotCancelable,
    /// -32003: the agent does not support push notifications.
    PushNotificationNotSupported,
    /// -32004: the operation is not supported (for example, subscribing to a finished task).
    UnsupportedOperation,
    /// -32005: the agent does not accept a media type of the request.
    ContentTypeNotSupported,
    /// -32006: the agent produced an invalid response.
    InvalidAgentResponse,
    /// -32007: the agent has no extended card configured.
    ExtendedAgentCardNotConfigured,
    /// -32008: the agent requires an extension the client did not ask for.
    ExtensionSupportRequired,
    /// -32009: the agent does not serve the requested protocol version.
    VersionNotSupported,
    /// Any other code.
    Other(ErrorCode),
}

impl RpcErrorKind {
    /// The kind of an error object.
    pub fn of(error: &ErrorObject) -> Self {
        let code = error
            .reason_code()
            .filter(|c| Self::from_code(*c) != Self::Other(*c))
            .unwrap_or(error.code);
        Self::from_code(code)
    }

    /// The kind a code stands for.
    pub fn from_code(code: ErrorCode) -> Self {
        match code {
            ErrorCode::PARSE_ERROR => Self::ParseError,
            ErrorCode::INVALID_REQUEST => Self::InvalidRequest,
            ErrorCode::METHOD_NOT_FOUND => Self::MethodNotFound,
            ErrorCode::INVALID_PARAMS => Self::InvalidParams,
            ErrorCode::INTERNAL_ERROR => Self::InternalError,
            ErrorCode::TASK_NOT_FOUND => Self::TaskNotFound,
            ErrorCode::TASK_NOT_CANCELABLE => Self::TaskNotCancelable,
            ErrorCode::PUSH_NOTIFICATION_NOT_SUPPORTED => Self::PushNotificationNotSupported,
            ErrorCode::UNSUPPORTED_OPERATION => Self::UnsupportedOperation,
            ErrorCode::CONTENT_TYPE_NOT_SUPPORTED => Self::ContentTypeNotSupported,
            ErrorCode::INVALID_AGENT_RESPONSE => Self::InvalidAgentResponse,
            ErrorCode::EXTENDED_AGENT_CARD_NOT_CONFIGURED => Self::ExtendedAgentCardNotConfigured,
            ErrorCode::EXTENSION_SUPPORT_REQUIRED => Self::ExtensionSupportRequired,
            ErrorCode::VERSION_NOT_SUPPORTED => Self::VersionNotSupported,
            other => Self::Other(other),
        }
    }

    /// The code of this kind.
    pub fn code(self) -> ErrorCode {
        match self {
            Self::ParseError => ErrorCode::PARSE_ERROR,
            Self::InvalidRequest => ErrorCode::INVALID_REQUEST,
            Self::MethodNotFound => ErrorCode::METHOD_NOT_FOUND,
            Self::InvalidParams => ErrorCode::INVALID_PARAMS,
            Self::InternalError => ErrorCode::INTERNAL_ERROR,
            Self::TaskNotFound => ErrorCode::TASK_NOT_FOUND,
            Self::TaskNotCancelable => ErrorCode::TASK_NOT_CANCELABLE,
            Self::PushNotificationNotSupported => ErrorCode::PUSH_NOTIFICATION_NOT_SUPPORTED,
            Self::UnsupportedOperation => ErrorCode::UNSUPPORTED_OPERATION,
            Self::ContentTypeNotSupported => ErrorCode::CONTENT_TYPE_NOT_SUPPORTED,
            Self::InvalidAgentResponse => ErrorCode::INVALID_AGENT_RESPONSE,
            Self::ExtendedAgentCardNotConfigured => ErrorCode::EXTENDED_AGENT_CARD_NOT_CONFIGURED,
            Self::ExtensionSupportRequired => ErrorCode::EXTENSION_SUPPORT_REQUIRED,
            Self::VersionNotSupported => ErrorCode::VERSION_NOT_SUPPORTED,
            Self::Other(code) => code,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_through_codes() {
        for code in ErrorCode::KNOWN {
            let kind = RpcErrorKind::from_code(code);
            assert!(!matches!(kind, RpcErrorKind::Other(_)), "{code}");
            assert_eq!(kind.code(), code);
        }
        assert_eq!(
            RpcErrorKind::from_code(ErrorCode(-32050)),
            RpcErrorKind::Other(ErrorCode(-32050))
        );
    }

    #[test]
    fn the_reason_wins_over_the_code() {
        let error = ErrorObject::new(ErrorCode(-32099), "custom")
            .with_error_info(a2a_jsonrpc::ErrorInfo::for_code(ErrorCode::TASK_NOT_FOUND));
        assert_eq!(RpcErrorKind::of(&error), RpcErrorKind::TaskNotFound);
        let plain = ErrorObject::new(ErrorCode::TASK_NOT_CANCELABLE, "no");
        assert_eq!(RpcErrorKind::of(&plain), RpcErrorKind::TaskNotCancelable);
    }

    #[test]
    fn http_errors_show_the_json_rpc_message_or_the_first_line() {
        let rpc =
            br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"missing token"}}"#;
        let error = Error::http(http::StatusCode::UNAUTHORIZED, rpc);
        assert_eq!(error.to_string(), "HTTP 401 Unauthorized: missing token");
        let error = Error::http(http::StatusCode::BAD_GATEWAY, b"\n  upstream down\nmore");
        assert_eq!(error.to_string(), "HTTP 502 Bad Gateway: upstream down");
        let error = Error::http(http::StatusCode::NOT_FOUND, b"");
        assert_eq!(error.to_string(), "HTTP 404 Not Found");
        assert!(!error.is_transient());
        assert!(Error::http(http::StatusCode::SERVICE_UNAVAILABLE, b"").is_transient());
    }

    #[test]
    fn transport_errors_show_their_causes_once() {
        let io = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "connection refused");
        let error = Error::connect("cannot connect to 127.0.0.1:1", io);
        assert_eq!(
            error.to_string(),
            "cannot connect to 127.0.0.1:1: connection refused"
        );
        assert!(error.is_connect());
        assert!(error.is_transient());
        assert!(!Error::transport_msg("x").is_connect());
    }

    #[test]
    fn no_interface_lists_the_offer() {
        let error = Error::NoSupportedInterface {
            offered: vec![
                AgentInterface::new("http://a/rpc", "JSONRPC", "0.3"),
                AgentInterface::new("http://a/grpc", "GRPC", "1.0"),
            ],
        };
        assert_eq!(
            error.to_string(),
            "the agent card offers no interface this client speaks (JSONRPC 1.0); it offers: \
             JSONRPC 0.3 http://a/rpc, GRPC 1.0 http://a/grpc"
        );
    }

    #[test]
    fn timeouts_read_well() {
        assert_eq!(
            Error::Timeout(Duration::from_secs(30)).to_string(),
            "timed out after 30 s"
        );
        assert_eq!(
            Error::Timeout(Duration::from_millis(250)).to_string(),
            "timed out after 250 ms"
        );
    }
}
