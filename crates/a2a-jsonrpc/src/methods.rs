//! The method table: from a parsed call to a typed handler and back.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use crate::message::to_raw;
use crate::payload::{self, Entry, Parsed};
use crate::{
    ErrorObject, Id, Incoming, Notification, Payload, Reply, Request, Response, decode_params,
};

/// A boxed, sendable future, as handlers return them once erased.
type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// What a handler produces: the serialized result, or the error.
type Outcome = Result<Box<RawValue>, ErrorObject>;

/// A handler with its types erased.
trait Handler<C>: Send + Sync {
    /// Decodes the params (synchronously) and starts the handler.
    fn start(&self, params: Option<&RawValue>, ctx: C) -> Result<BoxFuture<Outcome>, ErrorObject>;
}

/// A typed handler: a function from params `P` and context `C` to a future of `Result<R, _>`.
struct Typed<F, P, R, Fut> {
    f: F,
    types: PhantomData<fn(P) -> (R, Fut)>,
}

impl<C, F, P, R, Fut> Handler<C> for Typed<F, P, R, Fut>
where
    F: Fn(P, C) -> Fut + Send + Sync,
    P: DeserializeOwned,
    R: Serialize + 'static,
    Fut: Future<Output = Result<R, ErrorObject>> + Send + 'static,
{
    fn start(&self, params: Option<&RawValue>, ctx: C) -> Result<BoxFuture<Outcome>, ErrorObject> {
        let params = decode_params::<P>(params)?;
        let future = (self.f)(params, ctx);
        Ok(Box::pin(async move { to_raw(&future.await?) }))
    }
}

/// A table of methods keyed by name, each a typed async handler; the dispatcher of this crate.
///
/// `C` is the context every handler receives by value, chosen by the caller per request: request
/// headers, the authenticated principal, a handle to shared state. Calls in a batch each get a
/// clone, so make it cheap to clone (an `Arc`, or a struct of them).
///
/// A handler is any `Fn(P, C) -> impl Future<Output = Result<R, ErrorObject>>` with `P:
/// DeserializeOwned` and `R: Serialize`. Params are decoded with [`decode_params`] before the
/// handler runs (a bad field is a -32602 naming its path, and absent params decode as `null`
/// then `{}`), and the result is serialized once the future completes (a value that will not
/// serialize is a -32603).
///
/// The table is built once and shared (`Arc<Methods<C>>`, or a clone: handlers are reference
/// counted). Every entry point decodes params and *starts* the handler synchronously, then returns a
/// `'static` future that neither borrows the table nor the body, so it can be spawned.
///
/// ```
/// use a2a_jsonrpc::{ErrorObject, Methods};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Deserialize)]
/// #[serde(rename_all = "camelCase")]
/// struct GetTaskRequest {
///     id: String,
///     history_length: Option<u32>,
/// }
///
/// #[derive(Serialize)]
/// struct Task {
///     id: String,
/// }
///
/// /// Per-request state the server passes in.
/// #[derive(Clone)]
/// struct Ctx {
///     user: &'static str,
/// }
///
/// let methods = Methods::new().register("GetTask", |params: GetTaskRequest, ctx: Ctx| async move {
///     if params.id == "task-123" && ctx.user == "alice" {
///         Ok(Task { id: params.id })
///     } else {
///         Err(ErrorObject::task_not_found(&params.id))
///     }
/// });
///
/// let body = br#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"task-123"}}"#;
/// let reply = futures_executor::block_on(methods.handle_bytes(body, Ctx { user: "alice" }));
/// assert_eq!(
///     reply.as_deref(),
///     Some(&br#"{"jsonrpc":"2.0","id":1,"result":{"id":"task-123"}}"#[..])
/// );
/// ```
pub struct Methods<C> {
    handlers: HashMap<Box<str>, Arc<dyn Handler<C>>>,
}

impl<C> Default for Methods<C> {
    fn default() -> Self {
        Self {
            handlers: HashMap::new(),
        }
    }
}

impl<C> Clone for Methods<C> {
    fn clone(&self) -> Self {
        Self {
            handlers: self.handlers.clone(),
        }
    }
}

impl<C> fmt::Debug for Methods<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names: Vec<&str> = self.names().collect();
        names.sort_unstable();
        f.debug_struct("Methods").field("methods", &names).finish()
    }
}

impl<C> Methods<C> {
    /// An empty table.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether a method of this name is registered.
    #[must_use]
    pub fn contains(&self, method: &str) -> bool {
        self.handlers.contains_key(method)
    }

    /// The registered method names, in no particular order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.handlers.keys().map(AsRef::as_ref)
    }

    /// The number of registered methods.
    #[must_use]
    pub fn len(&self) -> usize {
        self.handlers.len()
    }

    /// Whether no method is registered.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.handlers.is_empty()
    }

    /// Removes a method; returns whether it was registered.
    pub fn remove(&mut self, method: &str) -> bool {
        self.handlers.remove(method).is_some()
    }
}

impl<C: 'static> Methods<C> {
    /// Registers `handler` under `method`, replacing any handler of that name; builder style.
    ///
    /// ```
    /// use a2a_jsonrpc::{ErrorObject, Methods};
    ///
    /// let methods: Methods<()> = Methods::new()
    ///     .register("Add", |(a, b): (i64, i64), _ctx: ()| async move { Ok(a + b) })
    ///     .register("Fail", |_: serde_json::Value, _ctx: ()| async move {
    ///         Err::<(), _>(ErrorObject::unsupported_operation("not today"))
    ///     });
    /// assert!(methods.contains("Add"));
    /// ```
    #[must_use]
    pub fn register<P, R, F, Fut>(mut self, method: impl Into<String>, handler: F) -> Self
    where
        F: Fn(P, C) -> Fut + Send + Sync + 'static,
        P: DeserializeOwned + 'static,
        R: Serialize + 'static,
        Fut: Future<Output = Result<R, ErrorObject>> + Send + 'static,
    {
        self.insert(method, handler);
        self
    }

    /// Registers `handler` under `method`, replacing any handler of that name. Returns whether a
    /// handler was replaced.
    pub fn insert<P, R, F, Fut>(&mut self, method: impl Into<String>, handler: F) -> bool
    where
        F: Fn(P, C) -> Fut + Send + Sync + 'static,
        P: DeserializeOwned + 'static,
        R: Serialize + 'static,
        Fut: Future<Output = Result<R, ErrorObject>> + Send + 'static,
    {
        let handler = Typed {
            f: handler,
            types: PhantomData,
        };
        self.handlers
            .insert(method.into().into_boxed_str(), Arc::new(handler))
            .is_some()
    }

    /// Looks up the method, decodes its params and starts it.
    fn start(
        &self,
        method: &str,
        params: Option<&RawValue>,
        ctx: C,
    ) -> Result<BoxFuture<Outcome>, ErrorObject> {
        match self.handlers.get(method) {
            Some(handler) => handler.start(params, ctx),
            None => Err(ErrorObject::method_not_found(method)),
        }
    }

    /// Starts one call; `id` is `None` for notifications.
    fn slot(&self, id: Option<Id>, method: &str, params: Option<&RawValue>, ctx: C) -> Slot {
        match self.start(method, params, ctx) {
            Ok(future) => Slot::Running { id, future },
            Err(error) => Slot::Done(id.map(|id| Response::error(id, error))),
        }
    }

    fn slot_of_incoming(&self, incoming: Incoming, ctx: C) -> Slot {
        match incoming {
            Incoming::Request(request) => self.slot(
                Some(request.id),
                &request.method,
                request.params.as_deref(),
                ctx,
            ),
            Incoming::Notification(notification) => self.slot(
                None,
                &notification.method,
                notification.params.as_deref(),
                ctx,
            ),
            Incoming::Invalid { id, error } => Slot::Done(Some(Response::error(id, error))),
        }
    }

    fn slot_of_entry(&self, entry: Entry<'_>, ctx: C) -> Slot {
        match entry {
            Entry::Call { id, method, params } => self.slot(id, &method, params, ctx),
            Entry::Invalid { id, error } => Slot::Done(Some(Response::error(id, error))),
        }
    }

    /// Calls one request: the response to send, with the request's id.
    ///
    /// An unknown method is -32601 naming the method, bad params are -32602 with the path of the
    /// bad field, and a handler's `Err` is sent as it is. This is the entry point for a server
    /// that parsed the body itself with [`Payload::parse`] and picks calls out of it.
    ///
    /// ```
    /// use a2a_jsonrpc::{Methods, Request, Response};
    /// use serde_json::json;
    ///
    /// let methods: Methods<()> =
    ///     Methods::new().register("Echo", |v: serde_json::Value, _: ()| async move { Ok(v) });
    /// let params = serde_json::value::to_raw_value(&json!({"a": 1})).unwrap();
    /// let response = futures_executor::block_on(methods.call(Request::new(9, "Echo", params), ()));
    /// assert_eq!(response.to_vec(), br#"{"jsonrpc":"2.0","id":9,"result":{"a":1}}"#);
    ///
    /// let response = futures_executor::block_on(methods.call(Request::without_params(10, "Nope"), ()));
    /// assert_eq!(response.error_object().unwrap().message, "method not found: Nope");
    /// ```
    pub fn call(&self, request: Request, ctx: C) -> impl Future<Output = Response> + Send + use<C> {
        let started = self.start(&request.method, request.params.as_deref(), ctx);
        let id = request.id;
        async move {
            let outcome = match started {
                Ok(future) => future.await,
                Err(error) => Err(error),
            };
            Response::new(id, outcome)
        }
    }

    /// Runs a notification; whatever it returns, including errors, is dropped.
    pub fn notify(
        &self,
        notification: Notification,
        ctx: C,
    ) -> impl Future<Output = ()> + Send + use<C> {
        let started = self.start(&notification.method, notification.params.as_deref(), ctx);
        async move {
            if let Ok(future) = started {
                // A notification's outcome has nowhere to go.
                drop(future.await);
            }
        }
    }

    /// Handles one element of a payload: the response, or `None` for a notification.
    pub fn handle(
        &self,
        incoming: Incoming,
        ctx: C,
    ) -> impl Future<Output = Option<Response>> + Send + use<C> {
        self.slot_of_incoming(incoming, ctx).finish()
    }

    /// Handles a parsed payload: the reply to send, or `None` when there is nothing to send (a
    /// notification, or a batch of notifications).
    ///
    /// The calls of a batch run concurrently (polled together in the returned future; none is
    /// spawned), each with a clone of `ctx`, and their responses keep the batch's order.
    pub fn handle_payload(
        &self,
        payload: Payload,
        ctx: C,
    ) -> impl Future<Output = Option<Reply>> + Send + use<C>
    where
        C: Clone,
    {
        let pending = match payload {
            Payload::Single(incoming) => Pending::Single(self.slot_of_incoming(incoming, ctx)),
            Payload::Batch(entries) => Pending::Batch(JoinBatch {
                slots: entries
                    .into_iter()
                    .map(|incoming| self.slot_of_incoming(incoming, ctx.clone()))
                    .collect(),
            }),
        };
        pending.finish()
    }

    /// Handles a request body from bytes to bytes: the serialized reply, or `None` when nothing
    /// is to be sent back (with HTTP, answer `204 No Content` or an empty `200`).
    ///
    /// Invalid JSON is answered with -32700 and id `null`, an empty batch with a single -32600,
    /// each invalid element with its own -32600; a batch is answered with an array. This path
    /// does not copy params: they are decoded straight from `bytes`.
    ///
    /// ```
    /// use a2a_jsonrpc::Methods;
    ///
    /// let methods: Methods<()> = Methods::new();
    /// let reply = futures_executor::block_on(methods.handle_bytes(b"{oops", ()));
    /// assert_eq!(
    ///     String::from_utf8(reply.unwrap()).unwrap(),
    ///     r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: key must be a string at line 1 column 2"}}"#
    /// );
    ///
    /// let notification = br#"{"jsonrpc":"2.0","method":"Anything"}"#;
    /// assert_eq!(futures_executor::block_on(methods.handle_bytes(notification, ())), None);
    /// ```
    pub fn handle_bytes(
        &self,
        bytes: &[u8],
        ctx: C,
    ) -> impl Future<Output = Option<Vec<u8>>> + Send + use<C>
    where
        C: Clone,
    {
        let pending = match payload::parse(bytes) {
            Err(error) => Pending::Ready(Some(Reply::Single(Response::error(Id::Null, error)))),
            Ok(Parsed::Single(entry)) => Pending::Single(self.slot_of_entry(entry, ctx)),
            Ok(Parsed::Batch(entries)) => Pending::Batch(JoinBatch {
                slots: entries
                    .into_iter()
                    .map(|entry| self.slot_of_entry(entry, ctx.clone()))
                    .collect(),
            }),
        };
        let reply = pending.finish();
        async move { reply.await.map(|reply| reply.to_vec()) }
    }
}

/// One started call.
enum Slot {
    /// Finished: the response, or `None` for a notification.
    Done(Option<Response>),
    /// Running; `id` is `None` for a notification.
    Running {
        id: Option<Id>,
        future: BoxFuture<Outcome>,
    },
}

impl Slot {
    async fn finish(self) -> Option<Response> {
        match self {
            Self::Done(response) => response,
            Self::Running { id, future } => {
                let outcome = future.await;
                id.map(|id| Response::new(id, outcome))
            }
        }
    }
}

/// A started payload.
enum Pending {
    Ready(Option<Reply>),
    Single(Slot),
    Batch(JoinBatch),
}

impl Pending {
    async fn finish(self) -> Option<Reply> {
        match self {
            Self::Ready(reply) => reply,
            Self::Single(slot) => slot.finish().await.map(Reply::Single),
            Self::Batch(join) => {
                let responses = join.await;
                (!responses.is_empty()).then_some(Reply::Batch(responses))
            }
        }
    }
}

/// Polls the calls of a batch together; resolves to their responses in batch order.
///
/// Each wake-up polls every unfinished call, which is fine for the small batches JSON-RPC sees.
struct JoinBatch {
    slots: Vec<Slot>,
}

impl Future for JoinBatch {
    type Output = Vec<Response>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Vec<Response>> {
        let this = self.get_mut();
        let mut running = false;
        for slot in &mut this.slots {
            let finished = match slot {
                Slot::Running { id, future } => match future.as_mut().poll(cx) {
                    Poll::Ready(outcome) => Some(id.take().map(|id| Response::new(id, outcome))),
                    Poll::Pending => {
                        running = true;
                        None
                    }
                },
                Slot::Done(_) => None,
            };
            if let Some(response) = finished {
                *slot = Slot::Done(response);
            }
        }
        if running {
            return Poll::Pending;
        }
        let responses = std::mem::take(&mut this.slots)
            .into_iter()
            .filter_map(|slot| match slot {
                Slot::Done(response) => response,
                Slot::Running { .. } => None,
            })
            .collect();
        Poll::Ready(responses)
    }
}
