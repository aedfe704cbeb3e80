//! The transport seam: how the eleven A2A operations travel over one binding of one protocol
//! version, and which transport serves which interface of a card.
//!
//! [`A2aClient`](crate::A2aClient) is the operations over an `Arc<dyn` [`Transport`]`>`: the
//! retries, timeouts, tenant handling and resumable streams are written once above the
//! transports, and a transport only turns one attempt of one call into its wire and back. A
//! transport comes from a [`TransportFactory`], which says which `protocolBinding` and
//! `protocolVersion` it serves; [`ClientBuilder::connect`](crate::ClientBuilder::connect) picks
//! the card's interface and the factory for it.
//!
//! | binding | version | transport |
//! |---|---|---|
//! | `JSONRPC` | 1.x | JSON-RPC 2.0 over HTTP POST (spec 1.0 §9), built in |
//! | `HTTP+JSON` | 1.x | the REST routes of spec 1.0 §11, built in |
//! | anything else | | a [`TransportFactory`] given to [`ClientBuilder::transport`](crate::ClientBuilder::transport) |

pub(crate) mod jsonrpc;
pub(crate) mod rest;
mod sse;

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use a2a_types::protocol::VERSION_1_0;
use a2a_types::v1::{
    AgentCard, AgentInterface, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, SendMessageRequest, SendMessageResponse, StreamResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig, binding,
};
use futures_core::Stream;

use crate::Error;
use crate::http::{HttpClient, parse_url};
use crate::interceptor::{CallInfo, Interceptor};

/// A boxed future, as the [`Transport`] methods return them (so that the trait is object-safe).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

pub(crate) fn boxed<'a, T>(future: impl Future<Output = T> + Send + 'a) -> BoxFuture<'a, T> {
    Box::pin(future)
}

/// An open event stream, as a transport reads it: one item per event or sign of life.
///
/// An `Err` item that is [transient](Error::is_transient) (the connection broke) makes the
/// [`TaskStream`](crate::TaskStream) above resume; any other ends it. The end of the stream
/// before the task's final event counts as a broken connection.
pub type EventStream = Pin<Box<dyn Stream<Item = Result<StreamFrame, Error>> + Send>>;

/// One item of an [`EventStream`]: an event with its id, or a sign of life.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct StreamFrame {
    /// The event's id (SSE `id:`), where a resumed stream picks up (`Last-Event-ID`).
    pub id: Option<String>,
    /// The event; `None` for a keep-alive (an SSE comment, an event without data).
    pub response: Option<StreamResponse>,
}

impl StreamFrame {
    /// An event.
    pub fn event(id: Option<String>, response: StreamResponse) -> Self {
        Self {
            id,
            response: Some(response),
        }
    }

    /// A sign of life without an event (it resets the stream's idle timeout).
    pub fn keep_alive(id: Option<String>) -> Self {
        Self { id, response: None }
    }
}

/// The eleven A2A 1.0 operations over one binding: one attempt of one call each.
///
/// Requests come as the caller gave them, with the interface's `tenant` already filled in; the
/// transport puts each field where its binding wants it (JSON-RPC: everything in `params`;
/// HTTP+JSON: the tenant and ids in the path). `call` names the operation and the attempt, for
/// the [`Interceptor`]s. Errors are the client's [`Error`]: the agent's A2A errors as
/// [`Error::Agent`] whatever their wire shape.
///
/// Implementations do not retry, time out or resume: the client does that above them.
pub trait Transport: Send + Sync + 'static {
    /// `SendMessage`.
    fn send_message<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SendMessageRequest,
    ) -> BoxFuture<'a, Result<SendMessageResponse, Error>>;

    /// `SendStreamingMessage`: resolves when the stream is open (its head has arrived).
    fn send_streaming_message<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SendMessageRequest,
    ) -> BoxFuture<'a, Result<EventStream, Error>>;

    /// `GetTask`.
    fn get_task<'a>(
        &'a self,
        call: CallInfo,
        request: &'a GetTaskRequest,
    ) -> BoxFuture<'a, Result<Task, Error>>;

    /// `ListTasks`.
    fn list_tasks<'a>(
        &'a self,
        call: CallInfo,
        request: &'a ListTasksRequest,
    ) -> BoxFuture<'a, Result<ListTasksResponse, Error>>;

    /// `CancelTask`.
    fn cancel_task<'a>(
        &'a self,
        call: CallInfo,
        request: &'a CancelTaskRequest,
    ) -> BoxFuture<'a, Result<Task, Error>>;

    /// `SubscribeToTask`, after the event `last_event_id` when resuming (`Last-Event-ID`).
    fn subscribe_to_task<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SubscribeToTaskRequest,
        last_event_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<EventStream, Error>>;

    /// `CreateTaskPushNotificationConfig`.
    fn create_task_push_notification_config<'a>(
        &'a self,
        call: CallInfo,
        config: &'a TaskPushNotificationConfig,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, Error>>;

    /// `GetTaskPushNotificationConfig`.
    fn get_task_push_notification_config<'a>(
        &'a self,
        call: CallInfo,
        request: &'a GetTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, Error>>;

    /// `ListTaskPushNotificationConfigs`.
    fn list_task_push_notification_configs<'a>(
        &'a self,
        call: CallInfo,
        request: &'a ListTaskPushNotificationConfigsRequest,
    ) -> BoxFuture<'a, Result<ListTaskPushNotificationConfigsResponse, Error>>;

    /// `DeleteTaskPushNotificationConfig`.
    fn delete_task_push_notification_config<'a>(
        &'a self,
        call: CallInfo,
        request: &'a DeleteTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<(), Error>>;

    /// `GetExtendedAgentCard`.
    fn get_extended_agent_card<'a>(
        &'a self,
        call: CallInfo,
        request: &'a GetExtendedAgentCardRequest,
    ) -> BoxFuture<'a, Result<AgentCard, Error>>;
}

/// What a [`TransportFactory`] builds a transport for: the chosen interface and the client's
/// settings.
#[non_exhaustive]
pub struct TransportTarget<'a> {
    /// The interface of the card.
    pub interface: &'a AgentInterface,
    /// Its URL, resolved against the card's URL when it is a path.
    pub endpoint: &'a http::Uri,
    /// The extension URIs to ask for in every request (`A2A-Extensions`).
    pub extensions: &'a [String],
    /// How long to wait for a connection.
    pub connect_timeout: Option<Duration>,
    /// The interceptors, to call around each request.
    pub interceptors: &'a [Arc<dyn Interceptor>],
    pub(crate) http: &'a HttpClient,
}

impl fmt::Debug for TransportTarget<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TransportTarget")
            .field("interface", self.interface)
            .field("endpoint", self.endpoint)
            .field("extensions", &self.extensions)
            .field("connect_timeout", &self.connect_timeout)
            .field("interceptors", &self.interceptors.len())
            .finish_non_exhaustive()
    }
}

/// Makes the [`Transport`] for an interface of one `protocolBinding` and protocol version.
///
/// The client keeps a table of factories: its own (JSON-RPC and HTTP+JSON, 1.x) and those given
/// to [`ClientBuilder::transport`](crate::ClientBuilder::transport), which are asked first.
pub trait TransportFactory: Send + Sync + 'static {
    /// The `protocolBinding` served (`JSONRPC`, `HTTP+JSON`, `GRPC` or a URI); compared without
    /// regard to case.
    fn binding(&self) -> &str;

    /// The protocol version spoken, `Major.Minor` (`1.0`, `0.3`): it serves the interfaces of
    /// the same major version from 1 on, of the same `Major.Minor` before 1 (see
    /// [`version_matches`]).
    fn protocol_version(&self) -> &str;

    /// A transport for `target`.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] when the interface cannot be served (a URL of the wrong form, ...).
    fn build(&self, target: &TransportTarget<'_>) -> Result<Arc<dyn Transport>, Error>;
}

/// True when a transport that speaks version `speaks` serves an interface of `protocolVersion`
/// `offered`: the same major version from 1 on (`1.0` serves `1.0`, `1.1`, `1`), the same
/// `Major.Minor` before 1 (`0.3` serves `0.3` and `0.3.0`, not `0.2`). An empty or malformed
/// `offered` matches nothing.
///
/// ```
/// use a2a_client::transport::version_matches;
///
/// assert!(version_matches("1.0", "1.1"));
/// assert!(version_matches("0.3", "0.3.0"));
/// assert!(!version_matches("0.3", "0.2.5"));
/// assert!(!version_matches("1.0", "0.3"));
/// assert!(!version_matches("1.0", ""));
/// ```
pub fn version_matches(speaks: &str, offered: &str) -> bool {
    fn parts(version: &str) -> Option<(u32, Option<u32>)> {
        let mut numbers = version.trim().split('.');
        let major = numbers.next()?.parse().ok()?;
        let minor = match numbers.next() {
            Some(minor) => Some(minor.parse().ok()?),
            None => None,
        };
        Some((major, minor))
    }
    match (parts(speaks), parts(offered)) {
        (Some((major, _)), Some((offered_major, _))) if major >= 1 => major == offered_major,
        (Some((major, minor)), Some((offered_major, offered_minor))) => {
            major == offered_major && minor.unwrap_or(0) == offered_minor.unwrap_or(0)
        }
        _ => false,
    }
}

/// The built-in JSON-RPC 1.0 transport.
struct JsonRpcFactory;

impl TransportFactory for JsonRpcFactory {
    fn binding(&self) -> &str {
        binding::JSONRPC
    }

    fn protocol_version(&self) -> &str {
        VERSION_1_0
    }

    fn build(&self, target: &TransportTarget<'_>) -> Result<Arc<dyn Transport>, Error> {
        let endpoint = parse_url(&target.endpoint.to_string())?;
        Ok(Arc::new(jsonrpc::JsonRpcTransport::new(
            target.http.clone(),
            endpoint,
        )))
    }
}

/// The built-in HTTP+JSON 1.0 transport.
struct RestFactory;

impl TransportFactory for RestFactory {
    fn binding(&self) -> &str {
        binding::HTTP_JSON
    }

    fn protocol_version(&self) -> &str {
        VERSION_1_0
    }

    fn build(&self, target: &TransportTarget<'_>) -> Result<Arc<dyn Transport>, Error> {
        let endpoint = parse_url(&target.endpoint.to_string())?;
        Ok(Arc::new(rest::RestTransport::new(
            target.http.clone(),
            &endpoint,
        )?))
    }
}

/// The table of transports a client can use, in the order they are asked.
#[derive(Clone)]
pub(crate) struct Transports {
    factories: Vec<Arc<dyn TransportFactory>>,
}

impl Transports {
    /// The caller's factories, then the built-in ones.
    pub(crate) fn new(extra: &[Arc<dyn TransportFactory>]) -> Self {
        let mut factories = extra.to_vec();
        factories.push(Arc::new(JsonRpcFactory));
        factories.push(Arc::new(RestFactory));
        Self { factories }
    }

    /// The factory for an interface, taking an interface without a version for 1.0.
    fn find(
        &self,
        interface: &AgentInterface,
        fill_version: bool,
    ) -> Option<&Arc<dyn TransportFactory>> {
        let offered = interface.protocol_version.trim();
        let offered = if offered.is_empty() && fill_version {
            VERSION_1_0
        } else {
            offered
        };
        self.factories.iter().find(|factory| {
            factory
                .binding()
                .eq_ignore_ascii_case(interface.protocol_binding.trim())
                && version_matches(factory.protocol_version(), offered)
        })
    }

    /// What the client speaks, `binding version`, each once.
    pub(crate) fn supported(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for factory in &self.factories {
            let entry = format!("{} {}", factory.binding(), factory.protocol_version());
            if !out.contains(&entry) {
                out.push(entry);
            }
        }
        out
    }

    /// The interface to use and its factory: the first interface, in the caller's order of
    /// bindings (`preferred`) and then in the card's order, that a factory serves; failing that,
    /// the first one that has no `protocolVersion` at all (a 1.0 card that left out the
    /// required field), taken for 1.0.
    pub(crate) fn select<'c>(
        &self,
        card: &'c AgentCard,
        preferred: &[String],
    ) -> Result<(&'c AgentInterface, Arc<dyn TransportFactory>), Error> {
        let interfaces = &card.supported_interfaces;
        let by_preference = preferred.iter().flat_map(|binding| {
            interfaces.iter().filter(move |i| {
                i.protocol_binding
                    .trim()
                    .eq_ignore_ascii_case(binding.trim())
            })
        });
        let order: Vec<&AgentInterface> = by_preference.chain(interfaces.iter()).collect();
        let exact = order
            .iter()
            .find_map(|i| self.find(i, false).map(|factory| (*i, factory.clone())));
        let chosen = exact.or_else(|| {
            order
                .iter()
                .filter(|i| i.protocol_version.trim().is_empty())
                .find_map(|i| self.find(i, true).map(|factory| (*i, factory.clone())))
        });
        chosen.ok_or_else(|| Error::NoSupportedInterface {
            offered: interfaces.clone(),
            supported: self.supported(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn card(interfaces: &[(&str, &str, &str)]) -> AgentCard {
        AgentCard::new("A", "d", "1").with_supported_interfaces(
            interfaces
                .iter()
                .map(|(url, binding, version)| AgentInterface::new(*url, *binding, *version)),
        )
    }

    fn chosen(card: &AgentCard, preferred: &[&str]) -> Result<String, String> {
        let preferred: Vec<String> = preferred.iter().map(|s| (*s).to_owned()).collect();
        Transports::new(&[])
            .select(card, &preferred)
            .map(|(i, f)| format!("{} {} via {}", i.url, i.protocol_version, f.binding()))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn the_card_order_decides_without_a_preference() {
        let both = card(&[
            ("http://h/grpc", "GRPC", "1.0"),
            ("http://h/rest", "HTTP+JSON", "1.0"),
            ("http://h/rpc", "JSONRPC", "1.0"),
        ]);
        assert_eq!(
            chosen(&both, &[]).unwrap(),
            "http://h/rest 1.0 via HTTP+JSON"
        );
        let rpc_first = card(&[
            ("http://h/rpc3", "JSONRPC", "0.3"),
            ("http://h/rpc", "jsonrpc", "1.1"),
            ("http://h/rest", "HTTP+JSON", "1.0"),
        ]);
        assert_eq!(
            chosen(&rpc_first, &[]).unwrap(),
            "http://h/rpc 1.1 via JSONRPC"
        );
    }

    #[test]
    fn the_callers_preference_comes_first_then_the_card_order() {
        let both = card(&[
            ("http://h/rpc", "JSONRPC", "1.0"),
            ("http://h/rest", "HTTP+JSON", "1.0"),
        ]);
        assert_eq!(
            chosen(&both, &["http+json"]).unwrap(),
            "http://h/rest 1.0 via HTTP+JSON"
        );
        assert_eq!(
            chosen(&both, &["GRPC", "JSONRPC", "HTTP+JSON"]).unwrap(),
            "http://h/rpc 1.0 via JSONRPC"
        );
        // A preferred binding the card does not offer is skipped: the card's order decides.
        let rpc_only = card(&[("http://h/rpc", "JSONRPC", "1.0")]);
        assert_eq!(
            chosen(&rpc_only, &["HTTP+JSON"]).unwrap(),
            "http://h/rpc 1.0 via JSONRPC"
        );
        // A preferred binding offered only in a version the client does not speak, too.
        let old_rest = card(&[
            ("http://h/rest", "HTTP+JSON", "0.3"),
            ("http://h/rpc", "JSONRPC", "1.0"),
        ]);
        assert_eq!(
            chosen(&old_rest, &["HTTP+JSON"]).unwrap(),
            "http://h/rpc 1.0 via JSONRPC"
        );
    }

    #[test]
    fn an_interface_without_version_is_the_last_resort() {
        let card = card(&[
            ("http://h/a", "JSONRPC", ""),
            ("http://h/b", "HTTP+JSON", "1.0"),
        ]);
        assert_eq!(chosen(&card, &[]).unwrap(), "http://h/b 1.0 via HTTP+JSON");
        let only = super::tests::card(&[("http://h/a", "JSONRPC", " ")]);
        assert_eq!(chosen(&only, &[]).unwrap(), "http://h/a   via JSONRPC");
    }

    #[test]
    fn nothing_fits() {
        let old = card(&[
            ("http://h/a2a", "JSONRPC", "0.3"),
            ("http://h/grpc", "GRPC", "1.0"),
        ]);
        assert_eq!(
            chosen(&old, &["JSONRPC"]).unwrap_err(),
            "the agent card offers no interface this client speaks (JSONRPC 1.0, HTTP+JSON 1.0); \
             it offers: JSONRPC 0.3 http://h/a2a, GRPC 1.0 http://h/grpc"
        );
        assert_eq!(
            chosen(&card(&[]), &[]).unwrap_err(),
            "the agent card names no interface (its supportedInterfaces is empty); this client \
             speaks JSONRPC 1.0, HTTP+JSON 1.0"
        );
    }

    #[test]
    fn a_callers_factory_is_asked_first() {
        struct Grpc;
        impl TransportFactory for Grpc {
            fn binding(&self) -> &str {
                "GRPC"
            }
            fn protocol_version(&self) -> &str {
                "1.0"
            }
            fn build(&self, _: &TransportTarget<'_>) -> Result<Arc<dyn Transport>, Error> {
                Err(Error::Config("not here".into()))
            }
        }
        let transports = Transports::new(&[Arc::new(Grpc)]);
        assert_eq!(
            transports.supported(),
            ["GRPC 1.0", "JSONRPC 1.0", "HTTP+JSON 1.0"]
        );
        let card = card(&[("h:443", "GRPC", "1.0"), ("http://h/", "JSONRPC", "1.0")]);
        let (interface, factory) = transports.select(&card, &[]).unwrap();
        assert_eq!(
            (interface.url.as_str(), factory.binding()),
            ("h:443", "GRPC")
        );
    }

    #[test]
    fn versions() {
        assert!(version_matches("1.0", "1"));
        assert!(version_matches("1.0", " 1.0 "));
        assert!(!version_matches("1.0", "2.0"));
        assert!(!version_matches("1.0", "v1"));
        assert!(version_matches("0.1", "0.1"));
        assert!(!version_matches("0.3", "0.1"));
        assert!(!version_matches("", "1.0"));
    }
}
