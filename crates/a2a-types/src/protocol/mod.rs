//! The protocol's names, defined once: operations and their JSON-RPC methods, REST routes and
//! gRPC rpcs, card paths, header names, content types and protocol versions.
//!
//! Server, client, command line and tests all take these names from here, so that a name is
//! written once in the workspace. The method names of the older versions are the literal tags
//! of their wire types: [`v0_3::A2ARequest::METHODS`](crate::v0_3::A2ARequest::METHODS)
//! and [`v0_1::A2aRequest::METHODS`](crate::v0_1::A2aRequest::METHODS).
//!
//! ```
//! use a2a_types::protocol::{Operation, rest};
//!
//! let op = Operation::from_method("CancelTask").unwrap();
//! assert_eq!(op, Operation::CancelTask);
//! assert_eq!(op.rest_route().method, "POST");
//! assert_eq!(rest::path(op, Some("acme"), Some("t-1"), None), "/acme/tasks/t-1:cancel");
//!
//! let route = rest::match_route("POST", "/acme/tasks/t-1:cancel").unwrap();
//! assert_eq!((route.operation, route.tenant, route.task_id), (op, Some("acme"), Some("t-1")));
//! ```

use std::fmt;

mod call;
pub mod generations;
mod version;

pub use call::{Call, Reply, Request, StreamRequest, UnexpectedReply};
pub use version::{InvalidVersion, VersionNumber};

/// The protocol version a 1.0 client sends as `A2A-Version` (exactly this: the official JS SDK
/// refuses `1.0.0` and `1.1`).
pub const VERSION_1_0: &str = "1.0";
/// The version a request without an `A2A-Version` header speaks (spec 1.0 §3.6.2).
pub const VERSION_0_3: &str = "0.3";
/// The `protocolVersion` of a 0.2 peer.
pub const VERSION_0_2: &str = "0.2";
/// The version of the 0.1 version.
pub const VERSION_0_1: &str = "0.1";

/// A version of the protocol: what a card was written for, what a request speaks, the
/// version a task was created through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProtocolVersion {
    /// A2A 1.0 (1.x). For a card: a non-empty `supportedInterfaces` (also beside the 0.3 fields
    /// of a union card), or a `supportedInterfaces` without a legacy `url`.
    #[default]
    V1,
    /// A2A 0.3 and 0.2. For a card: `url`, `preferredTransport`, `protocolVersion`, ...
    V0_3,
    /// A2A 0.1. For a card: `authentication`, and none of `securitySchemes`,
    /// `protocolVersion`, `preferredTransport`.
    V0_1,
}

impl ProtocolVersion {
    /// The versions the version stands for: `"1.0"`, `"0.2/0.3"`, `"0.1"`.
    pub fn versions(self) -> &'static str {
        match self {
            ProtocolVersion::V1 => "1.0",
            ProtocolVersion::V0_3 => "0.2/0.3",
            ProtocolVersion::V0_1 => "0.1",
        }
    }
}

impl fmt::Display for ProtocolVersion {
    /// `A2A 1.0`, `A2A 0.2/0.3`, `A2A 0.1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "A2A {}", self.versions())
    }
}

/// Well-known paths of agent cards and of the 0.2 extended card.
pub mod paths {
    /// The agent card in A2A 0.3 and 1.0 (the IANA-registered well-known URI).
    pub const AGENT_CARD: &str = "/.well-known/agent-card.json";
    /// The agent card in A2A 0.1 and 0.2.
    pub const LEGACY_AGENT_CARD: &str = "/.well-known/agent.json";
    /// A 0.2 agent's authenticated extended card, relative to the agent's URL
    /// (`{url}/../agent/authenticatedExtendedCard`).
    pub const V0_2_EXTENDED_CARD: &str = "agent/authenticatedExtendedCard";
    /// The JSON-RPC endpoint of the flat dialect (0.3 method names, 1.0 shapes, lowercase
    /// states; as PromptKit describes it): `POST /a2a`, its card at [`LEGACY_AGENT_CARD`].
    pub const FLAT_RPC: &str = "/a2a";
}

/// Header names, lowercase (HTTP header names are case-insensitive; `http` wants lowercase).
pub mod headers {
    /// `A2A-Version`: the protocol version of the request (also a query parameter of that name).
    pub const A2A_VERSION: &str = "a2a-version";
    /// `A2A-Extensions`: comma-separated extension URIs the client asks for, or the server used.
    pub const A2A_EXTENSIONS: &str = "a2a-extensions";
    /// `X-A2A-Extensions`: the 0.3 spelling of [`A2A_EXTENSIONS`], accepted from 0.3 peers.
    pub const X_A2A_EXTENSIONS: &str = "x-a2a-extensions";
    /// `Last-Event-ID`: the SSE event a resumed stream continues after.
    pub const LAST_EVENT_ID: &str = "last-event-id";
    /// `X-A2A-Notification-Token`: the push config's token, on a push delivery.
    pub const NOTIFICATION_TOKEN: &str = "x-a2a-notification-token";
    /// W3C Trace Context: the caller's trace and span (see [`crate::trace`]).
    pub const TRACEPARENT: &str = "traceparent";
    /// W3C Trace Context: the vendors' trace state.
    pub const TRACESTATE: &str = "tracestate";
}

/// Media types.
pub mod content_type {
    /// JSON: the JSON-RPC binding, and accepted by the REST binding.
    pub const JSON: &str = "application/json";
    /// `application/a2a+json`: what the REST binding and push deliveries send since 1.0.1.
    pub const A2A_JSON: &str = "application/a2a+json";
    /// Server-Sent Events.
    pub const EVENT_STREAM: &str = "text/event-stream";
    /// gRPC.
    pub const GRPC: &str = "application/grpc";

    /// True for a JSON media type the JSON bindings accept: `application/json`,
    /// `application/a2a+json` or any other `+json` type, ignoring case and parameters.
    ///
    /// ```
    /// use a2a_types::protocol::content_type::is_json;
    ///
    /// assert!(is_json("application/json; charset=utf-8"));
    /// assert!(is_json("Application/A2A+JSON"));
    /// assert!(!is_json("text/plain"));
    /// ```
    pub fn is_json(value: &str) -> bool {
        let essence = value.split(';').next().unwrap_or("").trim();
        let Some((kind, subtype)) = essence.split_once('/') else {
            return false;
        };
        kind.eq_ignore_ascii_case("application")
            && (subtype.eq_ignore_ascii_case("json")
                || subtype.len() > 5 && subtype[subtype.len() - 5..].eq_ignore_ascii_case("+json"))
    }
}

/// The eleven operations of A2A 1.0: one JSON-RPC method, one gRPC rpc and one REST route each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Operation {
    /// `SendMessage`.
    SendMessage,
    /// `SendStreamingMessage` (answered with a stream).
    SendStreamingMessage,
    /// `GetTask`.
    GetTask,
    /// `ListTasks`.
    ListTasks,
    /// `CancelTask`.
    CancelTask,
    /// `SubscribeToTask` (answered with a stream).
    SubscribeToTask,
    /// `CreateTaskPushNotificationConfig`.
    CreateTaskPushNotificationConfig,
    /// `GetTaskPushNotificationConfig`.
    GetTaskPushNotificationConfig,
    /// `ListTaskPushNotificationConfigs`.
    ListTaskPushNotificationConfigs,
    /// `DeleteTaskPushNotificationConfig`.
    DeleteTaskPushNotificationConfig,
    /// `GetExtendedAgentCard`.
    GetExtendedAgentCard,
}

/// A REST route: an HTTP method and a path template (`{id}`, `{taskId}` and `{configId}` stand
/// for path segments). Every route also exists under a `/{tenant}` prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Route {
    /// The HTTP method (`SubscribeToTask` also answers `POST`, see [`rest`]).
    pub method: &'static str,
    /// The path template.
    pub path: &'static str,
}

impl Operation {
    /// Every operation, in the order of the `A2AService` rpcs of `a2a.proto`.
    pub const ALL: [Operation; 11] = [
        Operation::SendMessage,
        Operation::SendStreamingMessage,
        Operation::GetTask,
        Operation::ListTasks,
        Operation::CancelTask,
        Operation::SubscribeToTask,
        Operation::CreateTaskPushNotificationConfig,
        Operation::GetTaskPushNotificationConfig,
        Operation::ListTaskPushNotificationConfigs,
        Operation::GetExtendedAgentCard,
        Operation::DeleteTaskPushNotificationConfig,
    ];

    /// The JSON-RPC method name, which is also the gRPC rpc name.
    pub const fn method(self) -> &'static str {
        match self {
            Operation::SendMessage => "SendMessage",
            Operation::SendStreamingMessage => "SendStreamingMessage",
            Operation::GetTask => "GetTask",
            Operation::ListTasks => "ListTasks",
            Operation::CancelTask => "CancelTask",
            Operation::SubscribeToTask => "SubscribeToTask",
            Operation::CreateTaskPushNotificationConfig => "CreateTaskPushNotificationConfig",
            Operation::GetTaskPushNotificationConfig => "GetTaskPushNotificationConfig",
            Operation::ListTaskPushNotificationConfigs => "ListTaskPushNotificationConfigs",
            Operation::DeleteTaskPushNotificationConfig => "DeleteTaskPushNotificationConfig",
            Operation::GetExtendedAgentCard => "GetExtendedAgentCard",
        }
    }

    /// The operation of a 1.0 JSON-RPC method (or gRPC rpc) name; case-sensitive.
    pub fn from_method(method: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|op| op.method() == method)
    }

    /// True for the two operations answered with a stream of events.
    pub const fn is_streaming(self) -> bool {
        matches!(
            self,
            Operation::SendStreamingMessage | Operation::SubscribeToTask
        )
    }

    /// The REST route (spec 1.0 §11, the `google.api.http` options of `a2a.proto`).
    pub const fn rest_route(self) -> Route {
        let (method, path) = match self {
            Operation::SendMessage => ("POST", "/message:send"),
            Operation::SendStreamingMessage => ("POST", "/message:stream"),
            Operation::GetTask => ("GET", "/tasks/{id}"),
            Operation::ListTasks => ("GET", "/tasks"),
            Operation::CancelTask => ("POST", "/tasks/{id}:cancel"),
            Operation::SubscribeToTask => ("GET", "/tasks/{id}:subscribe"),
            Operation::CreateTaskPushNotificationConfig => {
                ("POST", "/tasks/{taskId}/pushNotificationConfigs")
            }
            Operation::GetTaskPushNotificationConfig => {
                ("GET", "/tasks/{taskId}/pushNotificationConfigs/{configId}")
            }
            Operation::ListTaskPushNotificationConfigs => {
                ("GET", "/tasks/{taskId}/pushNotificationConfigs")
            }
            Operation::DeleteTaskPushNotificationConfig => (
                "DELETE",
                "/tasks/{taskId}/pushNotificationConfigs/{configId}",
            ),
            Operation::GetExtendedAgentCard => ("GET", "/extendedAgentCard"),
        };
        Route { method, path }
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.method())
    }
}

/// The REST binding's routes: building a path for a call, and matching a request to its
/// operation.
///
/// Paths are matched segment by segment; a task id or config id is one path segment (a `/` in
/// it must be percent-encoded by the client and is decoded by [`match_route`](rest::match_route)'s caller). A first
/// segment that does not start a route is a tenant (`/{tenant}/tasks/...`).
/// `SubscribeToTask` answers `GET` (the proto) and `POST` (the spec text), as both official
/// SDKs do.
pub mod rest {
    use super::Operation;

    /// A request matched to its operation, with the path parameters (still percent-encoded).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    #[non_exhaustive]
    pub struct Matched<'a> {
        /// The operation.
        pub operation: Operation,
        /// The tenant prefix, if any.
        pub tenant: Option<&'a str>,
        /// `{id}` or `{taskId}`.
        pub task_id: Option<&'a str>,
        /// `{configId}`.
        pub config_id: Option<&'a str>,
    }

    /// What a path that is no route matched against: nothing, or the right path with the
    /// wrong method (HTTP 405, with these methods in `Allow`).
    #[derive(Clone, Debug, PartialEq, Eq)]
    #[non_exhaustive]
    pub enum Mismatch {
        /// No route has this path.
        NotFound,
        /// Routes have this path, with these methods.
        MethodNotAllowed(Vec<&'static str>),
    }

    /// The operation `method` and `path` (without query) name, or why none does.
    ///
    /// ```
    /// use a2a_types::protocol::{Operation, rest};
    ///
    /// let m = rest::match_route("GET", "/tasks/t-1/pushNotificationConfigs/c-1").unwrap();
    /// assert_eq!(m.operation, Operation::GetTaskPushNotificationConfig);
    /// assert_eq!((m.task_id, m.config_id), (Some("t-1"), Some("c-1")));
    /// assert_eq!(rest::match_route("POST", "/tasks/t-1:subscribe").unwrap().operation, Operation::SubscribeToTask);
    /// assert_eq!(rest::match_route("GET", "/message:send").unwrap_err(), rest::Mismatch::MethodNotAllowed(vec!["POST"]));
    /// assert_eq!(rest::match_route("GET", "/nope").unwrap_err(), rest::Mismatch::NotFound);
    /// ```
    pub fn match_route<'a>(method: &str, path: &'a str) -> Result<Matched<'a>, Mismatch> {
        let path = path.strip_prefix('/').unwrap_or(path);
        let segments: Vec<&'a str> = path.split('/').collect();
        match match_segments(method, None, &segments) {
            Err(Mismatch::NotFound) if segments.len() > 1 && !segments[0].is_empty() => {
                match_segments(method, Some(segments[0]), &segments[1..])
            }
            other => other,
        }
    }

    fn nonempty(s: &str) -> Option<&str> {
        (!s.is_empty()).then_some(s)
    }

    fn match_segments<'a>(
        method: &str,
        tenant: Option<&'a str>,
        segments: &[&'a str],
    ) -> Result<Matched<'a>, Mismatch> {
        let found =
            |operation: Operation, task_id: Option<&'a str>, config_id: Option<&'a str>| Matched {
                operation,
                tenant,
                task_id,
                config_id,
            };
        // (the operations this path names, with their parameters)
        let candidates: Vec<Matched<'a>> = match segments {
            ["message:send"] => vec![found(Operation::SendMessage, None, None)],
            ["message:stream"] => vec![found(Operation::SendStreamingMessage, None, None)],
            ["extendedAgentCard"] => vec![found(Operation::GetExtendedAgentCard, None, None)],
            ["tasks"] => vec![found(Operation::ListTasks, None, None)],
            ["tasks", id] if !id.is_empty() => {
                if let Some(id) = id.strip_suffix(":cancel") {
                    nonempty(id).map_or_else(Vec::new, |id| {
                        vec![found(Operation::CancelTask, Some(id), None)]
                    })
                } else if let Some(id) = id.strip_suffix(":subscribe") {
                    nonempty(id).map_or_else(Vec::new, |id| {
                        vec![found(Operation::SubscribeToTask, Some(id), None)]
                    })
                } else {
                    vec![found(Operation::GetTask, Some(id), None)]
                }
            }
            ["tasks", id, "pushNotificationConfigs"] if !id.is_empty() => vec![
                found(Operation::CreateTaskPushNotificationConfig, Some(id), None),
                found(Operation::ListTaskPushNotificationConfigs, Some(id), None),
            ],
            ["tasks", id, "pushNotificationConfigs", config]
                if !id.is_empty() && !config.is_empty() =>
            {
                vec![
                    found(
                        Operation::GetTaskPushNotificationConfig,
                        Some(id),
                        Some(config),
                    ),
                    found(
                        Operation::DeleteTaskPushNotificationConfig,
                        Some(id),
                        Some(config),
                    ),
                ]
            }
            _ => Vec::new(),
        };
        if candidates.is_empty() {
            return Err(Mismatch::NotFound);
        }
        let accepts = |m: &Matched<'_>| {
            let route = m.operation.rest_route();
            route.method == method
                || (m.operation == Operation::SubscribeToTask && method == "POST")
        };
        if let Some(m) = candidates.iter().find(|m| accepts(m)) {
            return Ok(*m);
        }
        let mut allowed: Vec<&'static str> = Vec::new();
        for m in &candidates {
            allowed.push(m.operation.rest_route().method);
            if m.operation == Operation::SubscribeToTask {
                allowed.push("POST");
            }
        }
        Err(Mismatch::MethodNotAllowed(allowed))
    }

    /// The path of a call: the route's template with the tenant prefix and the parameters
    /// filled in (each percent-encoded as a path segment). A missing parameter leaves an empty
    /// segment.
    ///
    /// ```
    /// use a2a_types::protocol::{Operation, rest};
    ///
    /// assert_eq!(rest::path(Operation::GetTask, None, Some("a b/c"), None), "/tasks/a%20b%2Fc");
    /// assert_eq!(
    ///     rest::path(Operation::DeleteTaskPushNotificationConfig, Some("t1"), Some("x"), Some("c")),
    ///     "/t1/tasks/x/pushNotificationConfigs/c"
    /// );
    /// ```
    pub fn path(
        operation: Operation,
        tenant: Option<&str>,
        task_id: Option<&str>,
        config_id: Option<&str>,
    ) -> String {
        let template = operation.rest_route().path;
        let mut out = String::with_capacity(template.len() + 32);
        if let Some(tenant) = tenant.filter(|t| !t.is_empty()) {
            out.push('/');
            encode_segment(tenant, &mut out);
        }
        let mut rest = template;
        while let Some(start) = rest.find('{') {
            out.push_str(&rest[..start]);
            let end = rest[start..]
                .find('}')
                .map_or(rest.len(), |e| start + e + 1);
            let value = match &rest[start..end] {
                "{configId}" => config_id,
                _ => task_id,
            };
            encode_segment(value.unwrap_or(""), &mut out);
            rest = &rest[end..];
        }
        out.push_str(rest);
        out
    }

    /// Percent-encodes `value` as one path segment (RFC 3986 unreserved characters, plus
    /// `:@!$&'()*+,;=` which a segment allows, stay as they are).
    pub fn encode_segment(value: &str, out: &mut String) {
        for byte in value.bytes() {
            let keep = byte.is_ascii_alphanumeric()
                || matches!(
                    byte,
                    b'-' | b'.'
                        | b'_'
                        | b'~'
                        | b'@'
                        | b'!'
                        | b'$'
                        | b'&'
                        | b'\''
                        | b'('
                        | b')'
                        | b'*'
                        | b'+'
                        | b','
                        | b';'
                        | b'='
                );
            if keep {
                out.push(char::from(byte));
            } else {
                escape(byte, out);
            }
        }
    }

    /// Percent-encodes `value` as a query parameter name or value: everything but the RFC 3986
    /// unreserved characters (`A-Z a-z 0-9 - . _ ~`) is escaped, so that `&`, `=`, `+`, `#` and
    /// spaces in a value read back the same with any decoder ([`decode_component`] among them).
    ///
    /// ```
    /// let mut query = String::new();
    /// a2a_types::protocol::rest::encode_query_component("a b&c=d+e/é", &mut query);
    /// assert_eq!(query, "a%20b%26c%3Dd%2Be%2F%C3%A9");
    /// ```
    pub fn encode_query_component(value: &str, out: &mut String) {
        for byte in value.bytes() {
            if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
                out.push(char::from(byte));
            } else {
                escape(byte, out);
            }
        }
    }

    fn escape(byte: u8, out: &mut String) {
        out.push('%');
        out.push(char::from(b"0123456789ABCDEF"[usize::from(byte >> 4)]));
        out.push(char::from(b"0123456789ABCDEF"[usize::from(byte & 15)]));
    }

    /// Decodes percent-escapes (`%XX`), and `+` as a space when `plus_is_space` (as HTML forms
    /// and HTTP clients write query strings; in a path `+` is a plus). A `%` not followed by
    /// two hex digits stays as it is. Bytes, since what was escaped need not be UTF-8: the one
    /// percent-decoder of the workspace.
    ///
    /// ```
    /// use a2a_types::protocol::rest::percent_decode;
    ///
    /// assert_eq!(&*percent_decode("a%20b%2Fc", false), b"a b/c");
    /// assert_eq!(&*percent_decode("a+b%2", true), b"a b%2");
    /// ```
    pub fn percent_decode(value: &str, plus_is_space: bool) -> std::borrow::Cow<'_, [u8]> {
        let bytes = value.as_bytes();
        if !bytes
            .iter()
            .any(|b| *b == b'%' || (plus_is_space && *b == b'+'))
        {
            return std::borrow::Cow::Borrowed(bytes);
        }
        let hex = |b: u8| char::from(b).to_digit(16);
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(hi), Some(lo)) => {
                        out.push(u8::try_from(hi * 16 + lo).expect("two hex digits fit a byte"));
                        i += 3;
                        continue;
                    }
                    _ => out.push(b'%'),
                },
                b'+' if plus_is_space => out.push(b' '),
                b => out.push(b),
            }
            i += 1;
        }
        std::borrow::Cow::Owned(out)
    }

    /// A path segment or query value percent-decoded ([`percent_decode`], `+` kept); `None`
    /// when the result is not UTF-8.
    ///
    /// ```
    /// use a2a_types::protocol::rest::decode_component;
    ///
    /// assert_eq!(decode_component("a%20b%2Fc").as_deref(), Some("a b/c"));
    /// assert_eq!(decode_component("100%").as_deref(), Some("100%"));
    /// assert_eq!(decode_component("%FF"), None);
    /// ```
    pub fn decode_component(value: &str) -> Option<String> {
        String::from_utf8(percent_decode(value, false).into_owned()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::rest::{Mismatch, match_route, path};
    use super::*;

    #[test]
    fn every_route_matches_its_own_path_with_and_without_tenant() {
        for op in Operation::ALL {
            for tenant in [None, Some("acme")] {
                let p = path(op, tenant, Some("t-1"), Some("c-1"));
                let m = match_route(op.rest_route().method, &p).unwrap();
                assert_eq!(m.operation, op, "{p}");
                assert_eq!(m.tenant, tenant, "{p}");
                let uses_task = op.rest_route().path.contains('{');
                assert_eq!(m.task_id, uses_task.then_some("t-1"), "{p}");
                let uses_config = op.rest_route().path.contains("{configId}");
                assert_eq!(m.config_id, uses_config.then_some("c-1"), "{p}");
            }
            assert_eq!(Operation::from_method(op.method()), Some(op));
        }
        assert_eq!(Operation::from_method("sendMessage"), None);
    }

    #[test]
    fn literal_routes() {
        let cases = [
            (Operation::SendMessage, "POST", "/message:send"),
            (Operation::SendStreamingMessage, "POST", "/message:stream"),
            (Operation::GetTask, "GET", "/tasks/t-1"),
            (Operation::ListTasks, "GET", "/tasks"),
            (Operation::CancelTask, "POST", "/tasks/t-1:cancel"),
            (Operation::SubscribeToTask, "GET", "/tasks/t-1:subscribe"),
            (
                Operation::CreateTaskPushNotificationConfig,
                "POST",
                "/tasks/t-1/pushNotificationConfigs",
            ),
            (
                Operation::GetTaskPushNotificationConfig,
                "GET",
                "/tasks/t-1/pushNotificationConfigs/c-1",
            ),
            (
                Operation::ListTaskPushNotificationConfigs,
                "GET",
                "/tasks/t-1/pushNotificationConfigs",
            ),
            (
                Operation::DeleteTaskPushNotificationConfig,
                "DELETE",
                "/tasks/t-1/pushNotificationConfigs/c-1",
            ),
            (Operation::GetExtendedAgentCard, "GET", "/extendedAgentCard"),
        ];
        for (op, method, p) in cases {
            assert_eq!(op.rest_route().method, method);
            assert_eq!(path(op, None, Some("t-1"), Some("c-1")), p);
        }
    }

    #[test]
    fn mismatches() {
        assert_eq!(match_route("GET", "/"), Err(Mismatch::NotFound));
        assert_eq!(match_route("GET", "/tasks/"), Err(Mismatch::NotFound));
        assert_eq!(
            match_route("POST", "/tasks/:cancel"),
            Err(Mismatch::NotFound)
        );
        assert_eq!(
            match_route("GET", "/a/b/message:send"),
            Err(Mismatch::NotFound)
        );
        assert_eq!(
            match_route("PUT", "/tasks/t/pushNotificationConfigs"),
            Err(Mismatch::MethodNotAllowed(vec!["POST", "GET"]))
        );
        assert_eq!(
            match_route("DELETE", "/tenant/tasks/t-1:subscribe"),
            Err(Mismatch::MethodNotAllowed(vec!["GET", "POST"]))
        );
        // A tenant named like a route still works as a prefix.
        let m = match_route("GET", "/tasks/tasks").unwrap();
        assert_eq!(
            (m.operation, m.tenant, m.task_id),
            (Operation::GetTask, None, Some("tasks"))
        );
        let m = match_route("GET", "/tasks/tasks/x").unwrap();
        assert_eq!((m.tenant, m.task_id), (Some("tasks"), Some("x")));
    }

    #[test]
    fn json_content_types() {
        for yes in [
            "application/json",
            "application/a2a+json",
            "application/JSON;charset=utf-8",
            "application/problem+json",
        ] {
            assert!(content_type::is_json(yes), "{yes}");
        }
        for no in [
            "text/json",
            "application/jsonx",
            "application/+json",
            "json",
            "",
        ] {
            assert!(!content_type::is_json(no), "{no}");
        }
    }
}
