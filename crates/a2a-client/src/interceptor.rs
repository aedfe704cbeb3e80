//! [`Interceptor`]s: see every call as the operation it is, see and change every HTTP request
//! the client sends, and see every answer.

use std::fmt;

use a2a_types::protocol::{Call, Operation};
use bytes::Bytes;
use http::{HeaderName, HeaderValue};

use crate::Error;

/// What a request is for: handed to every [`Interceptor`] call.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallInfo {
    /// The operation, by its A2A 1.0 name (`SendMessage`, `SubscribeToTask`, ...: the JSON-RPC
    /// method, whatever the binding), or [`CallInfo::AGENT_CARD`] for the fetch of the agent
    /// card.
    pub method: &'static str,
    /// The operation as a value, `None` for the card and JWKS fetches and other plain HTTP
    /// requests ([`ClientBuilder::send_http`](crate::ClientBuilder::send_http)).
    pub operation: Option<Operation>,
    /// 0 for the first attempt, then 1, 2, ... for retries and stream reconnections.
    pub attempt: u32,
}

impl CallInfo {
    /// The `method` of an agent card fetch.
    pub const AGENT_CARD: &'static str = "GetAgentCard";
    /// The `method` of the fetch of a JWKS that may hold a card's signing key.
    pub const JWKS: &'static str = "GetJwks";

    /// The call of `method`, attempt `attempt` (0 for the first); its `operation` is the one
    /// `method` names, if any.
    pub fn new(method: &'static str, attempt: u32) -> Self {
        Self {
            method,
            operation: Operation::from_method(method),
            attempt,
        }
    }

    /// The call of `operation`, attempt `attempt` (0 for the first): what the client hands to
    /// a [`Transport`], which hands it to the interceptors.
    ///
    /// [`Transport`]: crate::transport::Transport
    pub fn of(operation: Operation, attempt: u32) -> Self {
        Self {
            method: operation.method(),
            operation: Some(operation),
            attempt,
        }
    }
}

/// Sees each call as the operation it is, sees and changes each HTTP request before it is sent,
/// and sees each answer.
///
/// Every attempt goes through the interceptors: retries and stream reconnections too, so a
/// fresh token is picked up. Interceptors run in the order they were added.
/// [`on_call`](Self::on_call) sees the operation with its request, whatever the binding (gRPC
/// too); the other methods see the HTTP exchange (a gRPC call as an HTTP request, its metadata
/// as headers).
///
/// ```
/// use a2a_client::{CallInfo, Interceptor};
/// use bytes::Bytes;
///
/// /// Counts the calls by method.
/// #[derive(Default)]
/// struct Count(std::sync::Mutex<std::collections::HashMap<&'static str, u32>>);
///
/// impl Interceptor for Count {
///     fn on_request(&self, call: &CallInfo, request: &mut http::Request<Bytes>) {
///         *self.0.lock().unwrap().entry(call.method).or_default() += 1;
///         request.headers_mut().insert("x-request-source", http::HeaderValue::from_static("docs"));
///     }
/// }
///
/// let client = a2a_client::A2aClient::builder().interceptor(Count::default());
/// # let _ = client;
/// ```
pub trait Interceptor: Send + Sync + 'static {
    /// Called before each attempt of an A2A operation, with the operation as a value: its
    /// request message as the client sends it (the tenant filled in), before the transport
    /// writes it to its wire.
    ///
    /// ```
    /// use a2a_client::{CallInfo, Interceptor};
    /// use a2a_types::protocol::Call;
    ///
    /// /// Logs the task each call is about.
    /// struct TaskLog;
    ///
    /// impl Interceptor for TaskLog {
    ///     fn on_call(&self, call: &CallInfo, request: &Call) {
    ///         let task = request.task_id().map_or("(new)", |id| id.as_str());
    ///         eprintln!("{} attempt {} on task {task}", call.method, call.attempt);
    ///     }
    /// }
    /// ```
    fn on_call(&self, call: &CallInfo, request: &Call) {
        let _ = (call, request);
    }

    /// Called with each request just before it is sent: add headers (`Authorization`, an API
    /// key), log it. The body is the JSON-RPC request, or the HTTP+JSON body (empty for `GET`
    /// and `DELETE` routes and for the card fetch).
    fn on_request(&self, call: &CallInfo, request: &mut http::Request<Bytes>) {
        let _ = (call, request);
    }

    /// Called with each response head, and with its body when the answer is one JSON document
    /// (`None` for event streams, whose events arrive later).
    fn on_response(&self, call: &CallInfo, response: &http::response::Parts, body: Option<&Bytes>) {
        let _ = (call, response, body);
    }

    /// Called when an attempt fails without a response (transport error, timeout).
    fn on_error(&self, call: &CallInfo, error: &Error) {
        let _ = (call, error);
    }
}

/// An interceptor that sets one header on every request (see
/// [`ClientBuilder::header`](crate::ClientBuilder::header)).
#[derive(Clone)]
pub struct SetHeader {
    name: HeaderName,
    value: HeaderValue,
}

impl SetHeader {
    /// Sets `name: value`. The value is marked sensitive, so that it is not logged by `Debug`.
    pub fn new(name: HeaderName, mut value: HeaderValue) -> Self {
        value.set_sensitive(true);
        Self { name, value }
    }

    /// `Authorization: Bearer <token>`.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] when the token holds characters a header cannot carry.
    pub fn bearer(token: &str) -> Result<Self, Error> {
        let value = HeaderValue::from_str(&format!("Bearer {token}")).map_err(|_| {
            Error::Config("the bearer token holds characters a header cannot carry".to_owned())
        })?;
        Ok(Self::new(http::header::AUTHORIZATION, value))
    }
}

impl fmt::Debug for SetHeader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SetHeader")
            .field("name", &self.name)
            .field("value", &self.value)
            .finish()
    }
}

impl Interceptor for SetHeader {
    fn on_request(&self, _call: &CallInfo, request: &mut http::Request<Bytes>) {
        request
            .headers_mut()
            .insert(self.name.clone(), self.value.clone());
    }
}

/// An interceptor made of a closure that edits each request; see [`interceptor_fn`].
#[derive(Clone)]
pub struct FnInterceptor<F>(F);

impl<F> fmt::Debug for FnInterceptor<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FnInterceptor")
    }
}

/// An interceptor from a closure that edits each request.
///
/// ```
/// use a2a_client::{A2aClient, interceptor_fn};
///
/// let builder = A2aClient::builder().interceptor(interceptor_fn(|_call, request| {
///     let key = std::env::var("AGENT_API_KEY").unwrap_or_default();
///     if let Ok(value) = http::HeaderValue::from_str(&key) {
///         request.headers_mut().insert("x-api-key", value);
///     }
/// }));
/// # let _ = builder;
/// ```
pub fn interceptor_fn<F>(f: F) -> FnInterceptor<F>
where
    F: Fn(&CallInfo, &mut http::Request<Bytes>) + Send + Sync + 'static,
{
    FnInterceptor(f)
}

impl<F> Interceptor for FnInterceptor<F>
where
    F: Fn(&CallInfo, &mut http::Request<Bytes>) + Send + Sync + 'static,
{
    fn on_request(&self, call: &CallInfo, request: &mut http::Request<Bytes>) {
        (self.0)(call, request);
    }
}

/// A shared interceptor, so that the caller can keep a handle on it (to read what it observed).
impl<T: Interceptor + ?Sized> Interceptor for std::sync::Arc<T> {
    fn on_call(&self, call: &CallInfo, request: &Call) {
        (**self).on_call(call, request);
    }

    fn on_request(&self, call: &CallInfo, request: &mut http::Request<Bytes>) {
        (**self).on_request(call, request);
    }

    fn on_response(&self, call: &CallInfo, response: &http::response::Parts, body: Option<&Bytes>) {
        (**self).on_response(call, response, body);
    }

    fn on_error(&self, call: &CallInfo, error: &Error) {
        (**self).on_error(call, error);
    }
}
