//! Error codes: the JSON-RPC 2.0 codes and the A2A catalogue.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A JSON-RPC error code.
///
/// The set is open: any `i32` is a valid code, and the associated constants name the ones this
/// crate knows. A code from a newer version of the protocol, or an application's own code, works
/// everywhere a known one does; it just has no [`name`](Self::name),
/// [`reason`](Self::reason) or status mappings. Serialized, it is the bare number.
///
/// | constant | code | name | [`reason`](Self::reason) | HTTP | gRPC |
/// |---|---|---|---|---|---|
/// | [`PARSE_ERROR`](Self::PARSE_ERROR) | -32700 | `JSONParseError` | `PARSE_ERROR` | – | – |
/// | [`INVALID_REQUEST`](Self::INVALID_REQUEST) | -32600 | `InvalidRequestError` | `INVALID_REQUEST` | – | – |
/// | [`METHOD_NOT_FOUND`](Self::METHOD_NOT_FOUND) | -32601 | `MethodNotFoundError` | `METHOD_NOT_FOUND` | – | – |
/// | [`INVALID_PARAMS`](Self::INVALID_PARAMS) | -32602 | `InvalidParamsError` | `INVALID_PARAMS` | 400 | `INVALID_ARGUMENT` |
/// | [`INTERNAL_ERROR`](Self::INTERNAL_ERROR) | -32603 | `InternalError` | `INTERNAL` | 500 | `INTERNAL` |
/// | [`TASK_NOT_FOUND`](Self::TASK_NOT_FOUND) | -32001 | `TaskNotFoundError` | `TASK_NOT_FOUND` | 404 | `NOT_FOUND` |
/// | [`TASK_NOT_CANCELABLE`](Self::TASK_NOT_CANCELABLE) | -32002 | `TaskNotCancelableError` | `TASK_NOT_CANCELABLE` | 400 | `FAILED_PRECONDITION` |
/// | [`PUSH_NOTIFICATION_NOT_SUPPORTED`](Self::PUSH_NOTIFICATION_NOT_SUPPORTED) | -32003 | `PushNotificationNotSupportedError` | `PUSH_NOTIFICATION_NOT_SUPPORTED` | 400 | `FAILED_PRECONDITION` |
/// | [`UNSUPPORTED_OPERATION`](Self::UNSUPPORTED_OPERATION) | -32004 | `UnsupportedOperationError` | `UNSUPPORTED_OPERATION` | 400 | `FAILED_PRECONDITION` |
/// | [`CONTENT_TYPE_NOT_SUPPORTED`](Self::CONTENT_TYPE_NOT_SUPPORTED) | -32005 | `ContentTypeNotSupportedError` | `CONTENT_TYPE_NOT_SUPPORTED` | 400 | `INVALID_ARGUMENT` |
/// | [`INVALID_AGENT_RESPONSE`](Self::INVALID_AGENT_RESPONSE) | -32006 | `InvalidAgentResponseError` | `INVALID_AGENT_RESPONSE` | 500 | `INTERNAL` |
/// | [`EXTENDED_AGENT_CARD_NOT_CONFIGURED`](Self::EXTENDED_AGENT_CARD_NOT_CONFIGURED) | -32007 | `ExtendedAgentCardNotConfiguredError` | `EXTENDED_AGENT_CARD_NOT_CONFIGURED` | 400 | `FAILED_PRECONDITION` |
/// | [`EXTENSION_SUPPORT_REQUIRED`](Self::EXTENSION_SUPPORT_REQUIRED) | -32008 | `ExtensionSupportRequiredError` | `EXTENSION_SUPPORT_REQUIRED` | 400 | `FAILED_PRECONDITION` |
/// | [`VERSION_NOT_SUPPORTED`](Self::VERSION_NOT_SUPPORTED) | -32009 | `VersionNotSupportedError` | `VERSION_NOT_SUPPORTED` | 400 | `FAILED_PRECONDITION` |
/// | [`TASK_GENERATION_MISMATCH`](Self::TASK_GENERATION_MISMATCH) | -32010 | `TaskGenerationMismatchError` | `TASK_GENERATION_MISMATCH` | 409 | `ABORTED` |
///
/// The HTTP and gRPC columns of the A2A codes are the table of A2A specification 1.0.1 §5.4 (1.0.0
/// had 409, 415, 502 and `UNIMPLEMENTED` in places). For the generic codes they follow the
/// specification's §3.3.2 examples; the specification maps parse errors, invalid requests and
/// unknown methods to nothing, so those return `None` and a server picks its own status (400 or 404
/// are the usual choices).
///
/// The A2A reasons are the error names in `UPPER_SNAKE_CASE` without `Error`, as A2A 1.0 defines
/// them for `google.rpc.ErrorInfo`. The reasons of the five JSON-RPC codes are this crate's choice
/// (A2A defines none): the JSON-RPC names `PARSE_ERROR`, `INVALID_REQUEST`, `METHOD_NOT_FOUND`,
/// `INVALID_PARAMS`, and `INTERNAL` after the gRPC status of the same meaning.
///
/// Version hazard: the A2A 0.1 specification text gave -32005 to -32011 other meanings
/// (-32006 StreamingNotSupported, -32007 AuthenticationRequired, ...). This catalogue is the one of
/// A2A 0.2 and later; 0.3 called -32007 `AuthenticatedExtendedCardNotConfiguredError`, and -32008
/// and -32009 are new in 1.0. -32010 is of the A2A 1.1 draft (branch `dev-1.1`), sent only to
/// callers that speak 1.1.
///
/// ```
/// use a2a_jsonrpc::ErrorCode;
///
/// let code = ErrorCode::TASK_NOT_FOUND;
/// assert_eq!(code.code(), -32001);
/// assert_eq!(code.name(), Some("TaskNotFoundError"));
/// assert_eq!(code.reason(), Some("TASK_NOT_FOUND"));
/// assert_eq!(code.http_status(), Some(404));
/// assert_eq!(code.grpc_status(), Some("NOT_FOUND"));
/// assert_eq!(ErrorCode::from_reason("TASK_NOT_FOUND"), Some(code));
/// assert_eq!(code.to_string(), "TaskNotFoundError (-32001)");
///
/// // Unknown codes are fine too.
/// let custom = ErrorCode(-32050);
/// assert_eq!(custom.name(), None);
/// assert_eq!(custom.to_string(), "-32050");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
#[expect(
    clippy::exhaustive_structs,
    reason = "an open set of codes: any i32 is a valid JSON-RPC error code"
)]
pub struct ErrorCode(pub i32);

/// One row of the catalogue.
struct Entry {
    code: ErrorCode,
    name: &'static str,
    message: &'static str,
    reason: &'static str,
    http: Option<u16>,
    grpc: Option<Grpc>,
}

/// A gRPC status code: its number and its canonical name.
#[derive(Clone, Copy)]
struct Grpc(i32, &'static str);

const INVALID_ARGUMENT: Grpc = Grpc(3, "INVALID_ARGUMENT");
const NOT_FOUND: Grpc = Grpc(5, "NOT_FOUND");
const FAILED_PRECONDITION: Grpc = Grpc(9, "FAILED_PRECONDITION");
const ABORTED: Grpc = Grpc(10, "ABORTED");
const INTERNAL: Grpc = Grpc(13, "INTERNAL");

const fn entry(
    code: ErrorCode,
    name: &'static str,
    message: &'static str,
    reason: &'static str,
    http: Option<u16>,
    grpc: Option<Grpc>,
) -> Entry {
    Entry {
        code,
        name,
        message,
        reason,
        http,
        grpc,
    }
}

/// The catalogue. Default messages are the ones of the A2A 0.3 JSON Schema where it has one.
const CATALOGUE: [Entry; 15] = [
    entry(
        ErrorCode::PARSE_ERROR,
        "JSONParseError",
        "Invalid JSON payload",
        "PARSE_ERROR",
        None,
        None,
    ),
    entry(
        ErrorCode::INVALID_REQUEST,
        "InvalidRequestError",
        "Request payload validation error",
        "INVALID_REQUEST",
        None,
        None,
    ),
    entry(
        ErrorCode::METHOD_NOT_FOUND,
        "MethodNotFoundError",
        "Method not found",
        "METHOD_NOT_FOUND",
        None,
        None,
    ),
    entry(
        ErrorCode::INVALID_PARAMS,
        "InvalidParamsError",
        "Invalid parameters",
        "INVALID_PARAMS",
        Some(400),
        Some(INVALID_ARGUMENT),
    ),
    entry(
        ErrorCode::INTERNAL_ERROR,
        "InternalError",
        "Internal error",
        "INTERNAL",
        Some(500),
        Some(INTERNAL),
    ),
    entry(
        ErrorCode::TASK_NOT_FOUND,
        "TaskNotFoundError",
        "Task not found",
        "TASK_NOT_FOUND",
        Some(404),
        Some(NOT_FOUND),
    ),
    entry(
        ErrorCode::TASK_NOT_CANCELABLE,
        "TaskNotCancelableError",
        "Task cannot be canceled",
        "TASK_NOT_CANCELABLE",
        Some(400),
        Some(FAILED_PRECONDITION),
    ),
    entry(
        ErrorCode::PUSH_NOTIFICATION_NOT_SUPPORTED,
        "PushNotificationNotSupportedError",
        "Push Notification is not supported",
        "PUSH_NOTIFICATION_NOT_SUPPORTED",
        Some(400),
        Some(FAILED_PRECONDITION),
    ),
    entry(
        ErrorCode::UNSUPPORTED_OPERATION,
        "UnsupportedOperationError",
        "This operation is not supported",
        "UNSUPPORTED_OPERATION",
        Some(400),
        Some(FAILED_PRECONDITION),
    ),
    entry(
        ErrorCode::CONTENT_TYPE_NOT_SUPPORTED,
        "ContentTypeNotSupportedError",
        "Incompatible content types",
        "CONTENT_TYPE_NOT_SUPPORTED",
        Some(400),
        Some(INVALID_ARGUMENT),
    ),
    entry(
        ErrorCode::INVALID_AGENT_RESPONSE,
        "InvalidAgentResponseError",
        "Invalid agent response",
        "INVALID_AGENT_RESPONSE",
        Some(500),
        Some(INTERNAL),
    ),
    entry(
        ErrorCode::EXTENDED_AGENT_CARD_NOT_CONFIGURED,
        "ExtendedAgentCardNotConfiguredError",
        "Extended agent card is not configured",
        "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
        Some(400),
        Some(FAILED_PRECONDITION),
    ),
    entry(
        ErrorCode::EXTENSION_SUPPORT_REQUIRED,
        "ExtensionSupportRequiredError",
        "Extension support is required",
        "EXTENSION_SUPPORT_REQUIRED",
        Some(400),
        Some(FAILED_PRECONDITION),
    ),
    entry(
        ErrorCode::VERSION_NOT_SUPPORTED,
        "VersionNotSupportedError",
        "Protocol version is not supported",
        "VERSION_NOT_SUPPORTED",
        Some(400),
        Some(FAILED_PRECONDITION),
    ),
    entry(
        ErrorCode::TASK_GENERATION_MISMATCH,
        "TaskGenerationMismatchError",
        "Task generation mismatch",
        "TASK_GENERATION_MISMATCH",
        Some(409),
        Some(ABORTED),
    ),
];

impl ErrorCode {
    /// -32700: the body is not valid JSON.
    pub const PARSE_ERROR: Self = Self(-32700);
    /// -32600: the JSON is not a valid request object.
    pub const INVALID_REQUEST: Self = Self(-32600);
    /// -32601: the method does not exist.
    pub const METHOD_NOT_FOUND: Self = Self(-32601);
    /// -32602: the params do not fit the method.
    pub const INVALID_PARAMS: Self = Self(-32602);
    /// -32603: an internal error of the server.
    pub const INTERNAL_ERROR: Self = Self(-32603);

    /// -32001 `TaskNotFoundError`: the task does not exist or is not visible to the caller.
    pub const TASK_NOT_FOUND: Self = Self(-32001);
    /// -32002 `TaskNotCancelableError`: the task is in a state that cannot be canceled.
    pub const TASK_NOT_CANCELABLE: Self = Self(-32002);
    /// -32003 `PushNotificationNotSupportedError`: the agent does not do push notifications.
    pub const PUSH_NOTIFICATION_NOT_SUPPORTED: Self = Self(-32003);
    /// -32004 `UnsupportedOperationError`: the operation is not supported (or not in this state).
    pub const UNSUPPORTED_OPERATION: Self = Self(-32004);
    /// -32005 `ContentTypeNotSupportedError`: no requested media type is supported.
    pub const CONTENT_TYPE_NOT_SUPPORTED: Self = Self(-32005);
    /// -32006 `InvalidAgentResponseError`: an agent produced a response that breaks the protocol.
    pub const INVALID_AGENT_RESPONSE: Self = Self(-32006);
    /// -32007 `ExtendedAgentCardNotConfiguredError` (0.3: `AuthenticatedExtendedCardNotConfiguredError`).
    pub const EXTENDED_AGENT_CARD_NOT_CONFIGURED: Self = Self(-32007);
    /// -32008 `ExtensionSupportRequiredError` (new in 1.0): a required extension was not declared.
    pub const EXTENSION_SUPPORT_REQUIRED: Self = Self(-32008);
    /// -32009 `VersionNotSupportedError` (new in 1.0): the requested `A2A-Version` is not served.
    pub const VERSION_NOT_SUPPORTED: Self = Self(-32009);
    /// -32010 `TaskGenerationMismatchError` (A2A 1.1 draft): a message's `ifGenerationMatch` is
    /// not the task's generation.
    pub const TASK_GENERATION_MISMATCH: Self = Self(-32010);

    /// Every code this crate knows, the five JSON-RPC codes first, then -32001 to -32010.
    pub const KNOWN: [Self; 15] = [
        Self::PARSE_ERROR,
        Self::INVALID_REQUEST,
        Self::METHOD_NOT_FOUND,
        Self::INVALID_PARAMS,
        Self::INTERNAL_ERROR,
        Self::TASK_NOT_FOUND,
        Self::TASK_NOT_CANCELABLE,
        Self::PUSH_NOTIFICATION_NOT_SUPPORTED,
        Self::UNSUPPORTED_OPERATION,
        Self::CONTENT_TYPE_NOT_SUPPORTED,
        Self::INVALID_AGENT_RESPONSE,
        Self::EXTENDED_AGENT_CARD_NOT_CONFIGURED,
        Self::EXTENSION_SUPPORT_REQUIRED,
        Self::VERSION_NOT_SUPPORTED,
        Self::TASK_GENERATION_MISMATCH,
    ];

    /// The number.
    #[must_use]
    pub const fn code(self) -> i32 {
        self.0
    }

    fn entry(self) -> Option<&'static Entry> {
        CATALOGUE.iter().find(|entry| entry.code == self)
    }

    /// Whether the code is one of the fifteen in [`KNOWN`](Self::KNOWN).
    #[must_use]
    pub fn is_known(self) -> bool {
        self.entry().is_some()
    }

    /// Whether the code lies in -32099 ..= -32001, the range A2A reserves for its own errors.
    #[must_use]
    pub const fn is_a2a(self) -> bool {
        -32099 <= self.0 && self.0 <= -32001
    }

    /// Whether the code lies in -32768 ..= -32000, the range JSON-RPC 2.0 reserves for
    /// pre-defined errors (which includes the A2A range).
    #[must_use]
    pub const fn is_reserved(self) -> bool {
        -32768 <= self.0 && self.0 <= -32000
    }

    /// The error's name, e.g. `"TaskNotFoundError"`; `None` for unknown codes.
    #[must_use]
    pub fn name(self) -> Option<&'static str> {
        self.entry().map(|entry| entry.name)
    }

    /// The message to use when there is nothing more specific to say, e.g. `"Task not found"`.
    ///
    /// Unknown codes in -32099 ..= -32000 get JSON-RPC's `"Server error"`; any other unknown code
    /// gets `None`.
    #[must_use]
    pub fn default_message(self) -> Option<&'static str> {
        match self.entry() {
            Some(entry) => Some(entry.message),
            None if -32099 <= self.0 && self.0 <= -32000 => Some("Server error"),
            None => None,
        }
    }

    /// The `google.rpc.ErrorInfo` reason that A2A 1.0 pairs with the code, e.g.
    /// `"TASK_NOT_FOUND"`; `None` for unknown codes. See the table above for the generic codes.
    #[must_use]
    pub fn reason(self) -> Option<&'static str> {
        self.entry().map(|entry| entry.reason)
    }

    /// The code whose [`reason`](Self::reason) is `reason` (exact, case-sensitive match).
    #[must_use]
    pub fn from_reason(reason: &str) -> Option<Self> {
        CATALOGUE
            .iter()
            .find(|entry| entry.reason == reason)
            .map(|entry| entry.code)
    }

    /// The code whose [`name`](Self::name) is `name`, e.g. `"TaskNotFoundError"`. The 0.3 name
    /// `"AuthenticatedExtendedCardNotConfiguredError"` is accepted as well.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        if name == "AuthenticatedExtendedCardNotConfiguredError" {
            return Some(Self::EXTENDED_AGENT_CARD_NOT_CONFIGURED);
        }
        CATALOGUE
            .iter()
            .find(|entry| entry.name == name)
            .map(|entry| entry.code)
    }

    /// The HTTP status the A2A specification 1.0.1 (§5.4) maps the code to, for the HTTP+JSON
    /// binding; `None` where it has no mapping.
    #[must_use]
    pub fn http_status(self) -> Option<u16> {
        self.entry().and_then(|entry| entry.http)
    }

    /// The canonical name of the gRPC status code the specification maps the code to, e.g.
    /// `"NOT_FOUND"`; `None` where it has no mapping.
    #[must_use]
    pub fn grpc_status(self) -> Option<&'static str> {
        self.entry().and_then(|entry| entry.grpc).map(|grpc| grpc.1)
    }

    /// The number of the gRPC status code of [`grpc_status`](Self::grpc_status), e.g. `5` for
    /// `NOT_FOUND`.
    #[must_use]
    pub fn grpc_code(self) -> Option<i32> {
        self.entry().and_then(|entry| entry.grpc).map(|grpc| grpc.0)
    }
}

impl fmt::Display for ErrorCode {
    /// `TaskNotFoundError (-32001)` for known codes, the bare number for others.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => write!(f, "{name} ({})", self.0),
            None => write!(f, "{}", self.0),
        }
    }
}

impl From<i32> for ErrorCode {
    fn from(code: i32) -> Self {
        Self(code)
    }
}

impl From<ErrorCode> for i32 {
    fn from(code: ErrorCode) -> Self {
        code.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_table_is_consistent() {
        assert_eq!(ErrorCode::KNOWN.len(), CATALOGUE.len());
        for (code, entry) in ErrorCode::KNOWN.iter().zip(CATALOGUE.iter()) {
            assert_eq!(*code, entry.code);
            assert!(code.is_known());
            assert_eq!(ErrorCode::from_reason(entry.reason), Some(*code));
            assert_eq!(ErrorCode::from_name(entry.name), Some(*code));
            assert!(code.is_reserved());
            // The A2A reason is the name in UPPER_SNAKE_CASE without `Error`.
            if code.is_a2a() {
                let snake: String = entry
                    .name
                    .trim_end_matches("Error")
                    .chars()
                    .enumerate()
                    .flat_map(|(i, c)| {
                        let sep = (i > 0 && c.is_ascii_uppercase()).then_some('_');
                        sep.into_iter()
                            .chain(std::iter::once(c.to_ascii_uppercase()))
                    })
                    .collect();
                assert_eq!(snake, entry.reason);
            }
        }
    }

    #[test]
    fn a2a_codes_and_mappings() {
        let expect = [
            (-32001, "TaskNotFoundError", 404, "NOT_FOUND", 5),
            (
                -32002,
                "TaskNotCancelableError",
                400,
                "FAILED_PRECONDITION",
                9,
            ),
            (
                -32003,
                "PushNotificationNotSupportedError",
                400,
                "FAILED_PRECONDITION",
                9,
            ),
            (
                -32004,
                "UnsupportedOperationError",
                400,
                "FAILED_PRECONDITION",
                9,
            ),
            (
                -32005,
                "ContentTypeNotSupportedError",
                400,
                "INVALID_ARGUMENT",
                3,
            ),
            (-32006, "InvalidAgentResponseError", 500, "INTERNAL", 13),
            (
                -32007,
                "ExtendedAgentCardNotConfiguredError",
                400,
                "FAILED_PRECONDITION",
                9,
            ),
            (
                -32008,
                "ExtensionSupportRequiredError",
                400,
                "FAILED_PRECONDITION",
                9,
            ),
            (
                -32009,
                "VersionNotSupportedError",
                400,
                "FAILED_PRECONDITION",
                9,
            ),
            (-32602, "InvalidParamsError", 400, "INVALID_ARGUMENT", 3),
            (-32603, "InternalError", 500, "INTERNAL", 13),
        ];
        for (number, name, http, grpc, grpc_code) in expect {
            let code = ErrorCode(number);
            assert_eq!(code.name(), Some(name));
            assert_eq!(code.http_status(), Some(http), "{name}");
            assert_eq!(code.grpc_status(), Some(grpc), "{name}");
            assert_eq!(code.grpc_code(), Some(grpc_code), "{name}");
        }
        for unmapped in [
            ErrorCode::PARSE_ERROR,
            ErrorCode::INVALID_REQUEST,
            ErrorCode::METHOD_NOT_FOUND,
            ErrorCode(-32050),
            ErrorCode(1),
        ] {
            assert_eq!(unmapped.http_status(), None);
            assert_eq!(unmapped.grpc_status(), None);
            assert_eq!(unmapped.grpc_code(), None);
        }
    }

    #[test]
    fn reasons_of_generic_codes() {
        assert_eq!(ErrorCode::PARSE_ERROR.reason(), Some("PARSE_ERROR"));
        assert_eq!(ErrorCode::INVALID_REQUEST.reason(), Some("INVALID_REQUEST"));
        assert_eq!(
            ErrorCode::METHOD_NOT_FOUND.reason(),
            Some("METHOD_NOT_FOUND")
        );
        assert_eq!(ErrorCode::INVALID_PARAMS.reason(), Some("INVALID_PARAMS"));
        assert_eq!(ErrorCode::INTERNAL_ERROR.reason(), Some("INTERNAL"));
        assert_eq!(ErrorCode::from_reason("task_not_found"), None);
        assert_eq!(ErrorCode::from_reason(""), None);
    }

    #[test]
    fn unknown_codes() {
        let code = ErrorCode(-32050);
        assert!(!code.is_known());
        assert!(code.is_a2a());
        assert_eq!(code.name(), None);
        assert_eq!(code.reason(), None);
        assert_eq!(code.default_message(), Some("Server error"));
        assert_eq!(code.to_string(), "-32050");
        assert_eq!(ErrorCode(42).default_message(), None);
        assert!(!ErrorCode(42).is_reserved());
        assert_eq!(ErrorCode(42).to_string(), "42");
        assert!(!ErrorCode::PARSE_ERROR.is_a2a());
    }

    #[test]
    fn names_and_display() {
        assert_eq!(
            ErrorCode::from_name("AuthenticatedExtendedCardNotConfiguredError"),
            Some(ErrorCode::EXTENDED_AGENT_CARD_NOT_CONFIGURED)
        );
        assert_eq!(ErrorCode::from_name("Nope"), None);
        assert_eq!(
            ErrorCode::METHOD_NOT_FOUND.to_string(),
            "MethodNotFoundError (-32601)"
        );
        assert_eq!(
            ErrorCode::TASK_NOT_FOUND.default_message(),
            Some("Task not found")
        );
    }

    #[test]
    fn serde_is_the_bare_number() {
        assert_eq!(
            serde_json::to_string(&ErrorCode::TASK_NOT_FOUND).unwrap(),
            "-32001"
        );
        assert_eq!(
            serde_json::from_str::<ErrorCode>("-32601").unwrap(),
            ErrorCode::METHOD_NOT_FOUND
        );
        assert_eq!(i32::from(ErrorCode::from(7)), 7);
    }
}
