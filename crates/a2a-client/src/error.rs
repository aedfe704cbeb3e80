//! [`Error`]: everything a call can fail with. The agent's own errors are
//! [`A2aError`](a2a_jsonrpc::A2aError)s of the A2A catalogue, whatever binding brought them.

use std::fmt;
use std::time::Duration;

use a2a_jsonrpc::{A2aError, ErrorCode, ErrorObject};
use a2a_types::card::CardError;
use a2a_types::protocol::VersionNumber;
use a2a_types::v1::AgentInterface;

/// A boxed error of the layer below (hyper, the socket, TLS), kept out of the public API.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Why a call failed.
///
/// Every variant's `Display` is one line that says what happened, meant to be shown to a
/// person as it is (`a2a` prints it after `error: `).
///
/// ```
/// use a2a_client::{A2aError, Error, ErrorCode};
///
/// let error = Error::from(A2aError::task_not_found("t-1"));
/// assert_eq!(error.code(), Some(ErrorCode::TASK_NOT_FOUND));
/// assert_eq!(error.agent_error().unwrap().metadata("taskId"), Some("t-1"));
/// assert_eq!(error.to_string(), "the agent answered TaskNotFoundError (-32001): task t-1 not found");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The agent answered the call with an A2A error: a JSON-RPC error object, a
    /// `google.rpc.Status` body of the HTTP+JSON binding (whose HTTP status
    /// [`A2aError::explicit_http_status`] keeps), or an error event of a stream. Its
    /// [`code`](A2aError::code) is the one the `ErrorInfo` reason names, else the code sent.
    #[error("{}", agent_text(.0))]
    Agent(A2aError),
    /// The server answered with an HTTP status other than 2xx, and a body that is no A2A error.
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
    /// The agent card could not be read: not JSON, or not a valid card of the version it
    /// looks like (the error names the version and the field).
    #[error("the agent card at {url} is {error}")]
    Card {
        /// Where the card was fetched from.
        url: String,
        /// What is wrong with it.
        #[source]
        error: CardError,
    },
    /// The agent card's signatures did not pass the check the client was asked to make
    /// ([`ClientBuilder::verify_card`](crate::ClientBuilder::verify_card)): none verified with
    /// a trusted key, or the card carries none.
    #[error("the agent card at {url} is refused: its signature is {reason}")]
    CardSignature {
        /// Where the card was fetched from.
        url: String,
        /// What the check found, for each signature.
        reason: String,
    },
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
    /// The agent card offers no interface this client speaks (or names none at all).
    #[error("{}", no_interface(offered, supported))]
    NoSupportedInterface {
        /// The interfaces the card lists.
        offered: Vec<AgentInterface>,
        /// What the client speaks, `binding version` (`JSONRPC 1.0`, `HTTP+JSON 1.0`).
        supported: Vec<String>,
    },
    /// The agent card offers only interfaces of a protocol version before 1.0 (0.3, 0.2,
    /// 0.1), which the client uses only when the caller allows it (spec §3.6: no silent
    /// downgrade): [`ClientBuilder::allow_legacy`](crate::ClientBuilder::allow_legacy), or
    /// [`ClientBuilder::protocol_version`](crate::ClientBuilder::protocol_version) with that
    /// version (`--a2a-version` with the `a2a` command).
    #[error("{}", legacy_only(offered))]
    LegacyOnly {
        /// The interfaces the card lists.
        offered: Vec<AgentInterface>,
    },
    /// The operation does not exist in the protocol version the client speaks with this
    /// agent (`ListTasks` over A2A 0.3 JSON-RPC, the push configuration list over 0.1, ...).
    /// Nothing was sent.
    #[error(
        "{operation} does not exist in A2A {version} over {binding}, the interface this client \
         uses; it needs an A2A 1.0 interface"
    )]
    Unsupported {
        /// The operation, by its 1.0 name (`ListTasks`).
        operation: &'static str,
        /// The binding (`JSONRPC`, `HTTP+JSON`).
        binding: &'static str,
        /// The protocol version (`0.3`, `0.1`).
        version: &'static str,
    },
    /// The request asks for an A2A 1.1 task generation check (`ifGenerationMatch`) but the
    /// client does not use generations with this agent: it speaks an earlier version (1.1 was
    /// not allowed, or the card offers no 1.1 interface), or the agent showed it does not
    /// implement them. Nothing was sent: the check would have been dropped silently.
    #[error(
        "{field} needs A2A 1.1 task generations, which this client does not use with the agent \
         (it speaks A2A {version}{}); nothing was sent",
        if version.starts_with("1.1") { ", and the agent answered without generations" } else { "" }
    )]
    NoGenerations {
        /// The request field (`ifGenerationMatch`).
        field: &'static str,
        /// The protocol version the client speaks to the agent.
        version: String,
    },
    /// The client was given something it cannot use: a URL, a header.
    #[error("{0}")]
    Config(String),
}

/// The HTTP statuses that say "try again later".
const TRANSIENT_STATUSES: [u16; 5] = [408, 429, 502, 503, 504];

impl Error {
    /// The agent's error, for [`Error::Agent`].
    pub fn agent_error(&self) -> Option<&A2aError> {
        match self {
            Error::Agent(error) => Some(error),
            _ => None,
        }
    }

    /// The A2A error code, for [`Error::Agent`]: match it against the catalogue
    /// ([`ErrorCode::TASK_NOT_FOUND`], ...).
    pub fn code(&self) -> Option<ErrorCode> {
        self.agent_error().map(A2aError::code)
    }

    /// The HTTP status the answer came with: for [`Error::Http`], and for an
    /// [`Error::Agent`] that the HTTP+JSON binding brought.
    pub fn http_status(&self) -> Option<http::StatusCode> {
        match self {
            Error::Http { status, .. } => Some(*status),
            Error::Agent(error) => error
                .explicit_http_status()
                .and_then(|status| http::StatusCode::from_u16(status).ok()),
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
    /// 408, 429, 502, 503 and 504 (with an A2A error body or not). The client retries calls on
    /// these (see [`RetryPolicy`](crate::RetryPolicy)).
    pub fn is_transient(&self) -> bool {
        match self {
            Error::Transport(_) | Error::Timeout(_) => true,
            Error::Http { .. } | Error::Agent(_) => self
                .http_status()
                .is_some_and(|status| TRANSIENT_STATUSES.contains(&status.as_u16())),
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

    pub(crate) fn unsupported(
        operation: &'static str,
        binding: &'static str,
        version: &'static str,
    ) -> Self {
        Error::Unsupported {
            operation,
            binding,
            version,
        }
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

impl From<A2aError> for Error {
    fn from(error: A2aError) -> Self {
        Error::Agent(error)
    }
}

impl From<ErrorObject> for Error {
    /// A JSON-RPC error object: its `ErrorInfo` reason, when it names a known error, decides
    /// the code.
    fn from(error: ErrorObject) -> Self {
        Error::Agent(A2aError::from(error))
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

/// `the agent answered <code>: <message>`, with the HTTP status when it is not the one the
/// code maps to (a 401 or a 503 of the HTTP+JSON binding).
fn agent_text(error: &A2aError) -> String {
    let text = format!("the agent answered {}: {}", error.code(), error.message());
    match error.explicit_http_status() {
        Some(status) if Some(status) != error.code().http_status() => {
            let status = http::StatusCode::from_u16(status)
                .map_or_else(|_| status.to_string(), |s| s.to_string());
            format!("{text} (HTTP {status})")
        }
        _ => text,
    }
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
        Some(line) if line.len() > 200 => format!(": {}…", a2a_types::text::prefix(line, 200)),
        Some(line) => format!(": {line}"),
        None => String::new(),
    }
}

fn human(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} ms", d.as_millis())
    }
}

fn no_interface(offered: &[AgentInterface], supported: &[String]) -> String {
    let speaks = supported.join(", ");
    if offered.is_empty() {
        return format!(
            "the agent card names no interface (its supportedInterfaces is empty); this client \
             speaks {speaks}"
        );
    }
    let list: Vec<String> = offered
        .iter()
        .map(|i| format!("{} {} {}", i.protocol_binding, i.protocol_version, i.url))
        .collect();
    format!(
        "the agent card offers no interface this client speaks ({speaks}); it offers: {}",
        list.join(", ")
    )
}

/// `the agent card offers A2A 0.3 but no A2A 1.0 interface ...`, and how to allow it.
fn legacy_only(offered: &[AgentInterface]) -> String {
    let newest = offered
        .iter()
        .filter_map(|i| VersionNumber::parse(&i.protocol_version))
        .filter(|version| version.is_legacy())
        .max()
        .map_or_else(|| "0.3".to_owned(), |version| version.to_string());
    let list: Vec<String> = offered
        .iter()
        .map(|i| format!("{} {} {}", i.protocol_binding, i.protocol_version, i.url))
        .collect();
    format!(
        "the agent card offers A2A {newest} but no A2A 1.0 interface this client speaks (it \
         offers: {}); versions before 1.0 are used only when allowed: \
         ClientBuilder::allow_legacy(true) or protocol_version(\"{newest}\"), \
         `--a2a-version {newest}` with the a2a command",
        list.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_errors_from_any_binding() {
        // JSON-RPC: the reason wins over the code.
        let object = ErrorObject::new(ErrorCode(-32099), "custom")
            .with_error_info(a2a_jsonrpc::ErrorInfo::for_code(ErrorCode::TASK_NOT_FOUND));
        let error = Error::from(object);
        assert_eq!(error.code(), Some(ErrorCode::TASK_NOT_FOUND));
        assert_eq!(error.http_status(), None);
        assert_eq!(
            error.to_string(),
            "the agent answered TaskNotFoundError (-32001): custom"
        );
        assert!(!error.is_transient());
        let plain = Error::from(ErrorObject::new(ErrorCode(-32050), "odd"));
        assert_eq!(plain.code(), Some(ErrorCode(-32050)));
        assert_eq!(plain.to_string(), "the agent answered -32050: odd");

        // HTTP+JSON: a google.rpc.Status body, with the status of the answer.
        let status = serde_json::json!({"error": {"code": 503, "status": "UNAVAILABLE",
            "message": "try later"}});
        let error = Error::from(
            A2aError::from_status_json(&status)
                .unwrap()
                .with_http_status(503),
        );
        assert_eq!(
            error.http_status(),
            Some(http::StatusCode::SERVICE_UNAVAILABLE)
        );
        assert!(error.is_transient());
        assert_eq!(
            error.to_string(),
            "the agent answered InternalError (-32603): try later (HTTP 503 Service Unavailable)"
        );
        // The status the code maps to goes without saying.
        let error = Error::from(A2aError::task_not_found("t-1").with_http_status(404));
        assert_eq!(
            error.to_string(),
            "the agent answered TaskNotFoundError (-32001): task t-1 not found"
        );
        assert_eq!(Error::Timeout(Duration::ZERO).code(), None);
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
            supported: vec!["JSONRPC 1.0".into(), "HTTP+JSON 1.0".into()],
        };
        assert_eq!(
            error.to_string(),
            "the agent card offers no interface this client speaks (JSONRPC 1.0, HTTP+JSON 1.0); \
             it offers: JSONRPC 0.3 http://a/rpc, GRPC 1.0 http://a/grpc"
        );
        let error = Error::NoSupportedInterface {
            offered: Vec::new(),
            supported: vec!["JSONRPC 1.0".into()],
        };
        assert_eq!(
            error.to_string(),
            "the agent card names no interface (its supportedInterfaces is empty); this client \
             speaks JSONRPC 1.0"
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
