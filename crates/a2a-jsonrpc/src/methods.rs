//! The method table: from a parsed call to a typed handler and back.

use std::collections::HashMap;
use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::hash::{BuildHasherDefault, Hasher};
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
    ErrorObject, Id, Incoming, Limits, Notification, Payload, Reply, Request, Response,
    decode_params,
};

/// A boxed, sendable future, as handlers return them once erased.
type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// What a unary handler produces: the serialized result, or the error.
type Outcome = Result<Box<RawValue>, ErrorObject>;

/// FNV-1a, for the method table.
///
/// The table's keys are the registered method names, chosen by the server; a client only looks
/// names up, which cannot lengthen a bucket, so a keyed (DoS-resistant) hash buys nothing here and
/// costs a few dozen nanoseconds per call.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut hash = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for byte in bytes {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        self.0 = hash;
    }
}

/// A handler with its types erased: params and a context in, a future of `T` out.
trait Handler<C, T>: Send + Sync {
    /// Decodes the params (synchronously) and starts the handler.
    fn start(
        &self,
        params: Option<&RawValue>,
        ctx: C,
    ) -> Result<BoxFuture<Result<T, ErrorObject>>, ErrorObject>;
}

/// A unary handler's erased form.
type UnaryHandler<C> = Arc<dyn Handler<C, Box<RawValue>>>;

/// A typed unary handler: a function from params `P` and context `C` to a future of
/// `Result<R, _>`, whose result is serialized.
struct Unary<F, P, R, Fut> {
    f: F,
    types: PhantomData<fn(P) -> (R, Fut)>,
}

impl<C, F, P, R, Fut> Handler<C, Box<RawValue>> for Unary<F, P, R, Fut>
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

/// A typed streaming handler: a function from params `P` and context `C` to a future of the
/// stream `S`, which is handed to the caller as it is.
struct Streaming<F, P, Fut> {
    f: F,
    types: PhantomData<fn(P) -> Fut>,
}

impl<C, S, F, P, Fut> Handler<C, S> for Streaming<F, P, Fut>
where
    F: Fn(P, C) -> Fut + Send + Sync,
    P: DeserializeOwned,
    Fut: Future<Output = Result<S, ErrorObject>> + Send + 'static,
{
    fn start(
        &self,
        params: Option<&RawValue>,
        ctx: C,
    ) -> Result<BoxFuture<Result<S, ErrorObject>>, ErrorObject> {
        let params = decode_params::<P>(params)?;
        Ok(Box::pin((self.f)(params, ctx)))
    }
}

/// What a method name leads to.
enum Route<C, S> {
    /// A method answered with one JSON response.
    Unary(UnaryHandler<C>),
    /// A method answered with a stream `S`.
    Stream(Arc<dyn Handler<C, S>>),
}

impl<C, S> Clone for Route<C, S> {
    fn clone(&self) -> Self {
        match self {
            Self::Unary(handler) => Self::Unary(Arc::clone(handler)),
            Self::Stream(handler) => Self::Stream(Arc::clone(handler)),
        }
    }
}

type Table<C, S> = HashMap<Box<str>, Route<C, S>, BuildHasherDefault<Fnv>>;

/// What [`Methods::dispatch`] decided for one request body: a JSON reply, or the stream of a
/// single streaming request.
///
/// The server answers `Reply(Some(reply))` with the reply's bytes ([`Reply::to_vec`]),
/// `Reply(None)` with nothing (HTTP `204 No Content`, say), and `Stream(id, stream)` with the
/// stream, each of its events being a response that carries `id`.
#[derive(Debug)]
#[expect(
    clippy::exhaustive_enums,
    reason = "a JSON-RPC body is answered with JSON or, for one streaming call, with a stream"
)]
pub enum Answer<S> {
    /// The JSON reply; `None` when there is nothing to send (only notifications).
    Reply(Option<Reply>),
    /// A single streaming request, and the stream its handler returned.
    Stream(Id, S),
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
/// `S` is the type of the streams that *streaming methods* answer with (A2A's
/// `SendStreamingMessage` and `SubscribeToTask`, answered with SSE). It is opaque to this crate:
/// a streaming handler returns one, [`Methods::dispatch`] hands it back to the server, which
/// sends its events. A table without streaming methods leaves it at the default,
/// [`Infallible`]; a table with them starts from [`Methods::streaming`] and registers them with
/// [`register_stream`](Methods::register_stream).
///
/// The table is built once and shared (`Arc<Methods<C>>`, or a clone: handlers are reference
/// counted). Every entry point decodes params and *starts* the handler synchronously (in a batch,
/// the first [`Limits::batch_concurrency`] calls; the others start as those finish), then returns
/// a `'static` future that neither borrows the table nor the body, so it can be spawned.
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
///         Err(ErrorObject::from(a2a_jsonrpc::A2aError::task_not_found(&params.id)))
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
pub struct Methods<C, S = Infallible> {
    routes: Table<C, S>,
    limits: Limits,
}

impl<C, S> Default for Methods<C, S> {
    fn default() -> Self {
        Self {
            routes: Table::default(),
            limits: Limits::default(),
        }
    }
}

impl<C, S> Clone for Methods<C, S> {
    fn clone(&self) -> Self {
        Self {
            routes: self.routes.clone(),
            limits: self.limits,
        }
    }
}

impl<C, S> fmt::Debug for Methods<C, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sorted = |streams: bool| {
            let mut names: Vec<&str> = self
                .routes
                .iter()
                .filter(|(_, route)| matches!(route, Route::Stream(_)) == streams)
                .map(|(name, _)| name.as_ref())
                .collect();
            names.sort_unstable();
            names
        };
        f.debug_struct("Methods")
            .field("methods", &sorted(false))
            .field("streams", &sorted(true))
            .field("limits", &self.limits)
            .finish()
    }
}

impl<C> Methods<C> {
    /// An empty table without streaming methods.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

impl<C, S> Methods<C, S> {
    /// An empty table whose streaming methods answer with streams of type `S`.
    ///
    /// `S` is usually inferred from the first [`register_stream`](Self::register_stream).
    #[must_use]
    pub fn streaming() -> Self {
        Self::default()
    }

    /// Sets the limits on batches; builder style. Without it a table uses [`Limits::default`].
    ///
    /// [`handle_bytes`](Self::handle_bytes) and [`dispatch_bytes`](Self::dispatch_bytes) parse
    /// with [`Limits::max_batch_len`]; every entry point runs at most
    /// [`Limits::batch_concurrency`] calls of a batch at once. A server that parses bodies itself
    /// passes [`limits`](Self::limits) to [`Payload::parse_with`].
    #[must_use]
    pub const fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The limits on batches.
    #[must_use]
    pub const fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Whether a method of this name is registered, unary or streaming.
    #[must_use]
    pub fn contains(&self, method: &str) -> bool {
        self.routes.contains_key(method)
    }

    /// Whether `method` is registered as a streaming method.
    #[must_use]
    pub fn is_streaming(&self, method: &str) -> bool {
        matches!(self.routes.get(method), Some(Route::Stream(_)))
    }

    /// The registered method names, unary and streaming, in no particular order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.routes.keys().map(AsRef::as_ref)
    }

    /// The number of registered methods, unary and streaming.
    #[must_use]
    pub fn len(&self) -> usize {
        self.routes.len()
    }

    /// Whether no method is registered.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.routes.is_empty()
    }

    /// Removes a method, unary or streaming; returns whether it was registered.
    pub fn remove(&mut self, method: &str) -> bool {
        self.routes.remove(method).is_some()
    }

    /// Adds a route, replacing any of that name; returns whether one was replaced.
    fn add(&mut self, method: String, route: Route<C, S>) -> bool {
        self.routes.insert(method.into_boxed_str(), route).is_some()
    }

    /// Where a call goes: its unary handler, or an answer given at once (an unknown method, or
    /// a streaming method where it cannot stream).
    fn target(&self, id: Option<Id>, method: &str, place: Place) -> Target<'_, C> {
        match self.routes.get(method) {
            Some(Route::Unary(handler)) => Target::Unary(id, handler),
            None => Target::Answer(
                id.map(|id| Response::error(id, ErrorObject::method_not_found(method))),
            ),
            // Answered even as a notification: the caller is told why nothing streams.
            Some(Route::Stream(_)) => {
                let error = cannot_stream(method, place, id.is_none());
                Target::Answer(Some(Response::error(id.unwrap_or_default(), error)))
            }
        }
    }

    /// Starts a call that is not part of a batch.
    fn slot(
        &self,
        id: Option<Id>,
        method: &str,
        params: Option<&RawValue>,
        ctx: C,
        place: Place,
    ) -> Slot {
        match self.target(id, method, place) {
            Target::Answer(response) => Slot::Done(response),
            Target::Unary(id, handler) => Slot::start(id, handler.start(params, ctx)),
        }
    }

    fn slot_of_incoming(&self, incoming: Incoming, ctx: C, place: Place) -> Slot {
        match incoming {
            Incoming::Request(r) => {
                self.slot(Some(r.id), &r.method, r.params.as_deref(), ctx, place)
            }
            Incoming::Notification(n) => {
                self.slot(None, &n.method, n.params.as_deref(), ctx, place)
            }
            Incoming::Invalid { id, error } => Slot::Done(Some(Response::error(id, error))),
        }
    }

    fn slot_of_entry(&self, entry: Entry<'_>, ctx: C, place: Place) -> Slot {
        match entry {
            Entry::Call { id, method, params } => self.slot(id, &method, params, ctx, place),
            Entry::Invalid { id, error } => Slot::Done(Some(Response::error(id, error))),
        }
    }
}

impl<C: Clone, S> Methods<C, S> {
    /// A call of a batch: started while `batch` has room, else left waiting.
    fn batch_slot(
        &self,
        id: Option<Id>,
        method: &str,
        params: Option<&RawValue>,
        batch: &mut JoinBatch<C>,
    ) -> BatchSlot<C> {
        match self.target(id, method, Place::Batch) {
            Target::Answer(response) => BatchSlot::Started(Slot::Done(response)),
            Target::Unary(id, handler) if batch.running < batch.limit => {
                let slot = Slot::start(id, handler.start(params, batch.ctx.clone()));
                if matches!(slot, Slot::Running { .. }) {
                    batch.running += 1;
                }
                BatchSlot::Started(slot)
            }
            Target::Unary(id, handler) => BatchSlot::Waiting {
                id,
                handler: Arc::clone(handler),
                params: params.map(RawValue::to_owned),
            },
        }
    }

    /// Starts a batch of already parsed calls.
    fn batch_of_incoming(&self, entries: Vec<Incoming>, ctx: C) -> JoinBatch<C> {
        let mut batch = JoinBatch::new(ctx, entries.len(), &self.limits);
        for incoming in entries {
            let slot = match incoming {
                Incoming::Request(r) => {
                    self.batch_slot(Some(r.id), &r.method, r.params.as_deref(), &mut batch)
                }
                Incoming::Notification(n) => {
                    self.batch_slot(None, &n.method, n.params.as_deref(), &mut batch)
                }
                Incoming::Invalid { id, error } => {
                    BatchSlot::Started(Slot::Done(Some(Response::error(id, error))))
                }
            };
            batch.slots.push(slot);
        }
        batch
    }

    /// Starts a batch of calls that borrow from the body.
    fn batch_of_entries(&self, entries: Vec<Entry<'_>>, ctx: C) -> JoinBatch<C> {
        let mut batch = JoinBatch::new(ctx, entries.len(), &self.limits);
        for entry in entries {
            let slot = match entry {
                Entry::Call { id, method, params } => {
                    self.batch_slot(id, &method, params, &mut batch)
                }
                Entry::Invalid { id, error } => {
                    BatchSlot::Started(Slot::Done(Some(Response::error(id, error))))
                }
            };
            batch.slots.push(slot);
        }
        batch
    }

    /// Starts a payload for a JSON reply.
    fn pending_of_payload(&self, payload: Payload, ctx: C) -> Pending<C> {
        match payload {
            Payload::Single(incoming) => {
                Pending::Single(self.slot_of_incoming(incoming, ctx, Place::Single))
            }
            Payload::Batch(entries) => Pending::Batch(self.batch_of_incoming(entries, ctx)),
        }
    }

    /// Starts a parsed body for a JSON reply.
    fn pending_of_parsed(&self, parsed: Result<Parsed<'_>, ErrorObject>, ctx: C) -> Pending<C> {
        match parsed {
            Err(error) => Pending::Ready(Some(Reply::Single(Response::error(Id::Null, error)))),
            Ok(Parsed::Single(entry)) => {
                Pending::Single(self.slot_of_entry(entry, ctx, Place::Single))
            }
            Ok(Parsed::Batch(entries)) => Pending::Batch(self.batch_of_entries(entries, ctx)),
        }
    }
}

impl<C: 'static, S: Send + 'static> Methods<C, S> {
    /// Registers `handler` under `method`, replacing any method of that name; builder style.
    ///
    /// ```
    /// use a2a_jsonrpc::{ErrorObject, Methods};
    ///
    /// let methods: Methods<()> = Methods::new()
    ///     .register("Add", |(a, b): (i64, i64), _ctx: ()| async move { Ok(a + b) })
    ///     .register("Fail", |_: serde_json::Value, _ctx: ()| async move {
    ///         Err::<(), _>(ErrorObject::from(a2a_jsonrpc::A2aError::unsupported_operation("not today")))
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

    /// Registers `handler` under `method`, replacing any method of that name. Returns whether a
    /// method was replaced.
    pub fn insert<P, R, F, Fut>(&mut self, method: impl Into<String>, handler: F) -> bool
    where
        F: Fn(P, C) -> Fut + Send + Sync + 'static,
        P: DeserializeOwned + 'static,
        R: Serialize + 'static,
        Fut: Future<Output = Result<R, ErrorObject>> + Send + 'static,
    {
        let handler = Unary {
            f: handler,
            types: PhantomData,
        };
        self.add(method.into(), Route::Unary(Arc::new(handler)))
    }

    /// Registers a streaming method: `handler` gets the decoded params and the context and
    /// returns the stream (or an error, answered as a JSON response); builder style. Replaces any
    /// method of that name.
    ///
    /// Params are decoded exactly as for [`register`](Self::register) (-32602 naming the bad
    /// field). Only [`dispatch`](Self::dispatch) and [`dispatch_bytes`](Self::dispatch_bytes) hand
    /// the stream out, and only for a single request: a streaming method called in a batch or as
    /// a notification, or through an entry point that answers with JSON only, is answered with a
    /// -32600 naming the method
    /// (`invalid request: SendStreamingMessage streams its answer and cannot be part of a
    /// batch`).
    ///
    /// ```
    /// use a2a_jsonrpc::{Answer, ErrorObject, Methods, Reply};
    /// use serde::Deserialize;
    ///
    /// #[derive(Deserialize)]
    /// struct SubscribeToTaskRequest {
    ///     id: String,
    /// }
    ///
    /// /// The server's stream type; here, the event payloads.
    /// type Events = Vec<String>;
    ///
    /// let methods = Methods::streaming()
    ///     .register("GetTask", |_: serde_json::Value, _ctx: ()| async move { Ok("a task") })
    ///     .register_stream("SubscribeToTask", |p: SubscribeToTaskRequest, _ctx: ()| async move {
    ///         if p.id == "t-1" {
    ///             Ok::<Events, _>(vec!["working".to_owned(), "completed".to_owned()])
    ///         } else {
    ///             Err(ErrorObject::from(a2a_jsonrpc::A2aError::task_not_found(&p.id)))
    ///         }
    ///     });
    /// assert!(methods.is_streaming("SubscribeToTask"));
    /// assert!(!methods.is_streaming("GetTask"));
    ///
    /// let run = |body: &str| futures_executor::block_on(methods.dispatch_bytes(body.as_bytes(), ()));
    ///
    /// // A single streaming request: the stream and the id its events answer to.
    /// let body = r#"{"jsonrpc":"2.0","id":"s","method":"SubscribeToTask","params":{"id":"t-1"}}"#;
    /// let Answer::Stream(id, events) = run(body) else { panic!("a stream") };
    /// assert_eq!(id.to_string(), r#""s""#);
    /// assert_eq!(events, ["working", "completed"]);
    ///
    /// // Errors before the stream starts are JSON responses.
    /// let body = r#"{"jsonrpc":"2.0","id":2,"method":"SubscribeToTask","params":{"id":"t-9"}}"#;
    /// let Answer::Reply(Some(Reply::Single(response))) = run(body) else { panic!("a reply") };
    /// assert_eq!(response.error_object().unwrap().message, "task t-9 not found");
    ///
    /// // In a batch it cannot stream.
    /// let body = r#"[{"jsonrpc":"2.0","id":3,"method":"SubscribeToTask","params":{"id":"t-1"}}]"#;
    /// let Answer::Reply(Some(reply)) = run(body) else { panic!("a reply") };
    /// assert_eq!(
    ///     String::from_utf8(reply.to_vec()).unwrap(),
    ///     r#"[{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"invalid request: SubscribeToTask streams its answer and cannot be part of a batch"}}]"#
    /// );
    /// ```
    #[must_use]
    pub fn register_stream<P, F, Fut>(mut self, method: impl Into<String>, handler: F) -> Self
    where
        F: Fn(P, C) -> Fut + Send + Sync + 'static,
        P: DeserializeOwned + 'static,
        Fut: Future<Output = Result<S, ErrorObject>> + Send + 'static,
    {
        self.insert_stream(method, handler);
        self
    }

    /// Registers a streaming method like [`register_stream`](Self::register_stream), replacing any
    /// method of that name. Returns whether a method was replaced.
    pub fn insert_stream<P, F, Fut>(&mut self, method: impl Into<String>, handler: F) -> bool
    where
        F: Fn(P, C) -> Fut + Send + Sync + 'static,
        P: DeserializeOwned + 'static,
        Fut: Future<Output = Result<S, ErrorObject>> + Send + 'static,
    {
        let handler = Streaming {
            f: handler,
            types: PhantomData,
        };
        self.add(method.into(), Route::Stream(Arc::new(handler)))
    }

    /// Calls one request: the response to send, with the request's id.
    ///
    /// An unknown method is -32601 naming the method, bad params are -32602 with the path of the
    /// bad field, and a handler's `Err` is sent as it is. A streaming method cannot answer here:
    /// it is a -32600 naming the method. This is the entry point for a server that parsed the
    /// body itself with [`Payload::parse`] and picks calls out of it.
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
    pub fn call(
        &self,
        request: Request,
        ctx: C,
    ) -> impl Future<Output = Response> + Send + use<C, S> {
        let started = match self.routes.get(&*request.method) {
            Some(Route::Unary(handler)) => handler.start(request.params.as_deref(), ctx),
            Some(Route::Stream(_)) => Err(cannot_stream(&request.method, Place::Single, false)),
            None => Err(ErrorObject::method_not_found(&request.method)),
        };
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
    ) -> impl Future<Output = ()> + Send + use<C, S> {
        let slot = self.slot(
            None,
            &notification.method,
            notification.params.as_deref(),
            ctx,
            Place::Single,
        );
        async move {
            // A notification's outcome has nowhere to go.
            drop(slot.finish().await);
        }
    }

    /// Handles one element of a payload: the response, or `None` for a notification.
    pub fn handle(
        &self,
        incoming: Incoming,
        ctx: C,
    ) -> impl Future<Output = Option<Response>> + Send + use<C, S> {
        self.slot_of_incoming(incoming, ctx, Place::Single).finish()
    }

    /// Handles a parsed payload: the reply to send, or `None` when there is nothing to send (a
    /// notification, or a batch of notifications).
    ///
    /// The calls of a batch run concurrently (polled together in the returned future; none is
    /// spawned), at most [`Limits::batch_concurrency`] at a time, each with a clone of `ctx`, and
    /// their responses keep the batch's order. Streaming methods are answered with -32600 (see
    /// [`dispatch`](Self::dispatch) for the entry point that streams).
    pub fn handle_payload(
        &self,
        payload: Payload,
        ctx: C,
    ) -> impl Future<Output = Option<Reply>> + Send + use<C, S>
    where
        C: Clone + Send,
    {
        self.pending_of_payload(payload, ctx).finish()
    }

    /// Handles a request body from bytes to bytes: the serialized reply, or `None` when nothing
    /// is to be sent back (with HTTP, answer `204 No Content` or an empty `200`).
    ///
    /// Invalid JSON is answered with -32700 and id `null`, an empty batch or one longer than
    /// [`Limits::max_batch_len`] with a single -32600, each invalid element with its own -32600;
    /// a batch is answered with an array. This path does not copy params: they are decoded
    /// straight from `bytes`.
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
    ) -> impl Future<Output = Option<Vec<u8>>> + Send + use<C, S>
    where
        C: Clone + Send,
    {
        let parsed = payload::parse(bytes, self.limits.max_batch_len);
        let reply = self.pending_of_parsed(parsed, ctx).finish();
        async move { reply.await.map(|reply| reply.to_vec()) }
    }

    /// Handles a parsed payload, streaming methods included: the stream of a single streaming
    /// request, or the JSON reply to anything else.
    ///
    /// A single request to a streaming method gets its params decoded and its handler awaited:
    /// [`Answer::Stream`] with the request's id and the handler's stream, or, when decoding or the
    /// handler fails, [`Answer::Reply`] with the error response. Everything else is answered as
    /// by [`handle_payload`](Self::handle_payload): unary calls run, and a streaming method in a
    /// batch or called as a notification gets a -32600 naming the method.
    ///
    /// ```
    /// use a2a_jsonrpc::{Answer, Methods, Payload};
    ///
    /// let methods = Methods::streaming()
    ///     .register_stream("Count", |n: (u32,), _ctx: ()| async move { Ok(0..n.0) });
    /// let body = br#"{"jsonrpc":"2.0","id":7,"method":"Count","params":[3]}"#;
    /// let payload = Payload::parse_with(body, methods.limits()).unwrap();
    /// let Answer::Stream(id, stream) = futures_executor::block_on(methods.dispatch(payload, ())) else {
    ///     panic!("a stream");
    /// };
    /// assert_eq!((id.as_u64(), stream.collect::<Vec<_>>()), (Some(7), vec![0, 1, 2]));
    ///
    /// // As a notification it cannot stream, and the caller is told so.
    /// let payload = Payload::parse(br#"{"jsonrpc":"2.0","method":"Count","params":[3]}"#).unwrap();
    /// let Answer::Reply(Some(reply)) = futures_executor::block_on(methods.dispatch(payload, ())) else {
    ///     panic!("a reply");
    /// };
    /// assert_eq!(
    ///     String::from_utf8(reply.to_vec()).unwrap(),
    ///     r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: Count streams its answer and cannot be called as a notification"}}"#
    /// );
    /// ```
    pub fn dispatch(
        &self,
        payload: Payload,
        ctx: C,
    ) -> impl Future<Output = Answer<S>> + Send + use<C, S>
    where
        C: Clone + Send,
    {
        let started = match payload {
            Payload::Single(Incoming::Request(request)) => {
                match self.routes.get(&*request.method) {
                    Some(Route::Stream(handler)) => {
                        Started::stream(request.id, handler.start(request.params.as_deref(), ctx))
                    }
                    _ => Started::Json(Pending::Single(self.slot(
                        Some(request.id),
                        &request.method,
                        request.params.as_deref(),
                        ctx,
                        Place::Single,
                    ))),
                }
            }
            other => Started::Json(self.pending_of_payload(other, ctx)),
        };
        started.finish()
    }

    /// Handles a request body like [`dispatch`](Self::dispatch), parsing it with the table's
    /// [`limits`](Self::limits) (a parse error, an empty batch or one that is too long is
    /// answered with one error response, id `null`). Params are decoded straight from `bytes`.
    pub fn dispatch_bytes(
        &self,
        bytes: &[u8],
        ctx: C,
    ) -> impl Future<Output = Answer<S>> + Send + use<C, S>
    where
        C: Clone + Send,
    {
        let parsed = payload::parse(bytes, self.limits.max_batch_len);
        let started = match parsed {
            Ok(Parsed::Single(Entry::Call {
                id: Some(id),
                method,
                params,
            })) => match self.routes.get(&*method) {
                Some(Route::Stream(handler)) => Started::stream(id, handler.start(params, ctx)),
                _ => Started::Json(Pending::Single(self.slot(
                    Some(id),
                    &method,
                    params,
                    ctx,
                    Place::Single,
                ))),
            },
            other => Started::Json(self.pending_of_parsed(other, ctx)),
        };
        started.finish()
    }
}

/// Where a call stands, for the error of a streaming method called where it cannot stream.
#[derive(Clone, Copy)]
enum Place {
    /// An element of a batch.
    Batch,
    /// A call on its own.
    Single,
}

/// The -32600 of a streaming method called where it cannot stream.
fn cannot_stream(method: &str, place: Place, notification: bool) -> ErrorObject {
    let why = match (place, notification) {
        (Place::Batch, _) => "cannot be part of a batch",
        (Place::Single, true) => "cannot be called as a notification",
        (Place::Single, false) => "cannot be answered with a single JSON response here",
    };
    ErrorObject::invalid_request(format_args!("{method} streams its answer and {why}"))
}

/// Where [`Methods::target`] sends a call.
enum Target<'a, C> {
    /// Answered at once (`None`: a notification, answered with nothing).
    Answer(Option<Response>),
    /// To this unary handler.
    Unary(Option<Id>, &'a UnaryHandler<C>),
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
    /// The slot of a handler that was started (or failed to start, with bad params).
    fn start(id: Option<Id>, started: Result<BoxFuture<Outcome>, ErrorObject>) -> Self {
        match started {
            Ok(future) => Self::Running { id, future },
            Err(error) => Self::Done(id.map(|id| Response::error(id, error))),
        }
    }

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

/// A call of a batch.
enum BatchSlot<C> {
    /// Started (or answered at once).
    Started(Slot),
    /// Waiting for a place among the batch's running calls; its params are decoded when it
    /// starts.
    Waiting {
        id: Option<Id>,
        handler: UnaryHandler<C>,
        params: Option<Box<RawValue>>,
    },
}

/// A started payload, answered with JSON.
enum Pending<C> {
    Ready(Option<Reply>),
    Single(Slot),
    Batch(JoinBatch<C>),
}

impl<C: Clone> Pending<C> {
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

/// A started payload that may stream.
enum Started<C, S> {
    Json(Pending<C>),
    /// A streaming request whose handler started.
    Stream(Id, BoxFuture<Result<S, ErrorObject>>),
}

impl<C: Clone, S> Started<C, S> {
    /// A streaming request: its handler, or the error response when its params did not decode.
    fn stream(id: Id, started: Result<BoxFuture<Result<S, ErrorObject>>, ErrorObject>) -> Self {
        match started {
            Ok(future) => Self::Stream(id, future),
            Err(error) => Self::Json(Pending::Ready(Some(Reply::Single(Response::error(
                id, error,
            ))))),
        }
    }

    async fn finish(self) -> Answer<S> {
        match self {
            Self::Json(pending) => Answer::Reply(pending.finish().await),
            Self::Stream(id, future) => match future.await {
                Ok(stream) => Answer::Stream(id, stream),
                Err(error) => Answer::Reply(Some(Reply::Single(Response::error(id, error)))),
            },
        }
    }
}

/// Polls the calls of a batch together, at most `limit` at a time, starting waiting calls in
/// batch order as running ones finish; resolves to their responses in batch order.
///
/// Each wake-up goes over every slot, which is fine for batches capped at
/// [`Limits::max_batch_len`].
struct JoinBatch<C> {
    slots: Vec<BatchSlot<C>>,
    /// The context waiting calls get a clone of.
    ctx: C,
    /// How many slots are `Running`.
    running: usize,
    limit: usize,
}

// No field is ever pinned: the futures are boxed, and `ctx` is only cloned.
impl<C> Unpin for JoinBatch<C> {}

impl<C> JoinBatch<C> {
    fn new(ctx: C, len: usize, limits: &Limits) -> Self {
        Self {
            slots: Vec::with_capacity(len),
            ctx,
            running: 0,
            limit: limits.batch_concurrency.max(1),
        }
    }
}

impl<C: Clone> Future for JoinBatch<C> {
    type Output = Vec<Response>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Vec<Response>> {
        let this = self.get_mut();
        let mut unfinished = false;
        // Waiting slots all come after the started ones, since they start in order; so one pass
        // can start a waiting call in the room a finished one left earlier in the same pass.
        for slot in &mut this.slots {
            if let BatchSlot::Waiting {
                id,
                handler,
                params,
            } = slot
            {
                if this.running >= this.limit {
                    unfinished = true;
                    continue;
                }
                let started = handler.start(params.as_deref(), this.ctx.clone());
                let started = Slot::start(id.take(), started);
                if matches!(started, Slot::Running { .. }) {
                    this.running += 1;
                }
                *slot = BatchSlot::Started(started);
            }
            if let BatchSlot::Started(Slot::Running { id, future }) = slot {
                match future.as_mut().poll(cx) {
                    Poll::Ready(outcome) => {
                        let response = id.take().map(|id| Response::new(id, outcome));
                        *slot = BatchSlot::Started(Slot::Done(response));
                        this.running -= 1;
                    }
                    Poll::Pending => unfinished = true,
                }
            }
        }
        if unfinished {
            return Poll::Pending;
        }
        let responses = std::mem::take(&mut this.slots)
            .into_iter()
            .filter_map(|slot| match slot {
                BatchSlot::Started(Slot::Done(response)) => response,
                BatchSlot::Started(Slot::Running { .. }) | BatchSlot::Waiting { .. } => None,
            })
            .collect();
        Poll::Ready(responses)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use futures_executor::block_on;
    use serde::Deserialize;
    use serde_json::{Value, json};

    use super::*;
    use crate::ErrorCode;

    /// Per-request context: who calls, and a log of what ran.
    #[derive(Clone, Default)]
    struct Ctx {
        user: &'static str,
        log: Arc<Mutex<Vec<String>>>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct GetTaskRequest {
        id: String,
        history_length: Option<u32>,
    }

    #[derive(Deserialize)]
    struct SendMessageRequest {
        message: Message,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Message {
        #[serde(rename = "messageId")]
        _message_id: String,
        #[serde(rename = "role")]
        _role: Role,
    }

    #[derive(Deserialize)]
    enum Role {
        #[serde(rename = "ROLE_USER")]
        User,
        #[serde(rename = "ROLE_AGENT")]
        Agent,
    }

    #[derive(Deserialize, Default)]
    #[serde(default)]
    struct GetExtendedAgentCardRequest {
        tenant: String,
    }

    /// A future that is pending once (waking itself) and then ready.
    struct YieldOnce(bool);

    impl Future for YieldOnce {
        type Output = ();

        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
            if self.0 {
                Poll::Ready(())
            } else {
                self.0 = true;
                cx.waker().wake_by_ref();
                Poll::Pending
            }
        }
    }

    fn methods() -> Methods<Ctx> {
        Methods::new()
            .register("GetTask", |p: GetTaskRequest, ctx: Ctx| async move {
                ctx.log.lock().unwrap().push(format!("GetTask {}", p.id));
                match p.id.as_str() {
                    "task-123" => Ok(json!({
                        "id": p.id,
                        "historyLength": p.history_length,
                        "user": ctx.user,
                    })),
                    other => Err(ErrorObject::from(crate::A2aError::task_not_found(other))),
                }
            })
            .register(
                "SendMessage",
                |p: SendMessageRequest, _ctx: Ctx| async move {
                    let role = match p.message._role {
                        Role::User => "user",
                        Role::Agent => "agent",
                    };
                    Ok(role)
                },
            )
            .register(
                "GetExtendedAgentCard",
                |p: GetExtendedAgentCardRequest, _ctx: Ctx| async move {
                    Ok(json!({"name": "agent", "tenant": p.tenant}))
                },
            )
            .register("Slow", |n: (u32,), ctx: Ctx| async move {
                YieldOnce(false).await;
                ctx.log.lock().unwrap().push(format!("Slow {}", n.0));
                Ok(n.0)
            })
            .register("Log", |line: (String,), ctx: Ctx| async move {
                ctx.log.lock().unwrap().push(line.0);
                Ok(())
            })
            .register("Unserializable", |_: Value, _ctx: Ctx| async move {
                let mut map = HashMap::new();
                map.insert((1, 2), 3);
                Ok(map)
            })
    }

    fn run_with(body: &str, ctx: Ctx) -> Option<String> {
        block_on(methods().handle_bytes(body.as_bytes(), ctx))
            .map(|bytes| String::from_utf8(bytes).unwrap())
    }

    fn run(body: &str) -> Option<String> {
        run_with(body, Ctx::default())
    }

    fn run_value(body: &str) -> Value {
        serde_json::from_str(&run(body).unwrap()).unwrap()
    }

    #[test]
    fn success_bytes() {
        assert_eq!(
            run(
                r#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"task-123","historyLength":2}}"#
            )
            .unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"result":{"historyLength":2,"id":"task-123","user":""}}"#
        );
    }

    #[test]
    fn context_reaches_the_handler() {
        let ctx = Ctx {
            user: "alice",
            ..Ctx::default()
        };
        let reply = run_with(
            r#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"task-123"}}"#,
            ctx.clone(),
        )
        .unwrap();
        assert!(reply.contains(r#""user":"alice""#), "{reply}");
        assert_eq!(*ctx.log.lock().unwrap(), vec!["GetTask task-123"]);
    }

    #[test]
    fn parse_error() {
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","id":1,"method":"GetTask""#).unwrap(),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: EOF while parsing an object at line 1 column 42"}}"#
        );
        assert_eq!(
            run("").unwrap(),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: EOF while parsing a value at line 1 column 0"}}"#
        );
    }

    #[test]
    fn invalid_requests() {
        let cases = [
            (
                r#"{"id":1,"method":"GetTask"}"#,
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: missing member \"jsonrpc\""}}"#,
            ),
            (
                r#"{"jsonrpc":"1.0","id":"a","method":"GetTask"}"#,
                r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"invalid request: \"jsonrpc\" must be \"2.0\""}}"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":2,"method":["GetTask"]}"#,
                r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"invalid request: \"method\" must be a string"}}"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":3,"method":"GetTask","params":"task-123"}"#,
                r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"invalid request: \"params\" must be an object or an array"}}"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":{"n":1},"method":"GetTask"}"#,
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"id\" must be a string, a number or null"}}"#,
            ),
            (
                r#"{"jsonrpc":"2.0","method":1}"#,
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"method\" must be a string"}}"#,
            ),
            (
                "7",
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: expected a request object or a batch array, found a number"}}"#,
            ),
        ];
        for (body, expected) in cases {
            assert_eq!(run(body).unwrap(), expected, "{body}");
        }
    }

    #[test]
    fn empty_batch() {
        assert_eq!(
            run("[]").unwrap(),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: empty batch"}}"#
        );
    }

    #[test]
    fn invalid_batch_members_each_get_an_error() {
        assert_eq!(
            run("[1,2]").unwrap(),
            r#"[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: expected a request object, found a number"}},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: expected a request object, found a number"}}]"#
        );
    }

    #[test]
    fn mixed_batch_with_notifications() {
        let ctx = Ctx::default();
        let body = r#"[
            {"jsonrpc":"2.0","id":"1","method":"GetTask","params":{"id":"task-123"}},
            {"jsonrpc":"2.0","method":"Log","params":["note"]},
            {"jsonrpc":"2.0","id":2,"method":"Nope"},
            {"foo":"boo"},
            {"jsonrpc":"2.0","method":"Nope"},
            {"jsonrpc":"2.0","method":"GetTask","params":{"id":5}},
            {"jsonrpc":"2.0","id":3,"method":"GetTask","params":{"id":"t-9"}}
        ]"#;
        let reply: Value = serde_json::from_str(&run_with(body, ctx.clone()).unwrap()).unwrap();
        assert_eq!(
            reply,
            json!([
                {"jsonrpc": "2.0", "id": "1", "result": {"id": "task-123", "historyLength": null, "user": ""}},
                {"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "method not found: Nope"}},
                {"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "invalid request: missing member \"jsonrpc\""}},
                {"jsonrpc": "2.0", "id": 3, "error": {"code": -32001, "message": "task t-9 not found", "data": [{
                    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                    "reason": "TASK_NOT_FOUND",
                    "domain": "a2a-protocol.org",
                    "metadata": {"taskId": "t-9"}
                }]}}
            ])
        );
        // The notification ran.
        let log = ctx.log.lock().unwrap();
        assert!(log.contains(&"note".to_owned()), "{log:?}");
    }

    #[test]
    fn batch_of_notifications_gets_nothing() {
        let ctx = Ctx::default();
        let body = r#"[{"jsonrpc":"2.0","method":"Log","params":["a"]},{"jsonrpc":"2.0","method":"Log","params":["b"]},{"jsonrpc":"2.0","method":"Nope"}]"#;
        assert_eq!(run_with(body, ctx.clone()), None);
        assert_eq!(*ctx.log.lock().unwrap(), vec!["a", "b"]);
        // A single notification, even a failing one, gets nothing either.
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","method":"GetTask","params":{"id":1}}"#),
            None
        );
    }

    #[test]
    fn unknown_method() {
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{}}"#).unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method not found: tasks/get"}}"#
        );
    }

    #[test]
    fn bad_params_with_path() {
        let reply = run_value(
            r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"user"}}}"#,
        );
        assert_eq!(
            reply,
            json!({"jsonrpc": "2.0", "id": 1, "error": {
                "code": -32602,
                "message": "invalid params: message.role: unknown variant `user`, expected `ROLE_USER` or `ROLE_AGENT`",
                "data": [{
                    "@type": "type.googleapis.com/google.rpc.BadRequest",
                    "fieldViolations": [{
                        "field": "message.role",
                        "description": "unknown variant `user`, expected `ROLE_USER` or `ROLE_AGENT`"
                    }]
                }]
            }})
        );
        let reply = run_value(
            r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER"}}}"#,
        );
        assert_eq!(
            reply["error"]["message"],
            "invalid params: message: missing field `messageId`"
        );
        assert_eq!(
            reply["error"]["data"][0]["fieldViolations"][0]["field"],
            "message.messageId"
        );
        // Missing params for a method that needs them.
        let reply = run_value(r#"{"jsonrpc":"2.0","id":1,"method":"GetTask"}"#);
        assert_eq!(
            reply["error"]["message"],
            "invalid params: missing field `id`"
        );
        // Typed params reject deeply nested input within serde_json's recursion limit.
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"Unserializable","params":[{}{}]}}"#,
            "[".repeat(1000),
            "]".repeat(1000)
        );
        let reply = run_value(&deep);
        assert_eq!(reply["error"]["code"], -32602);
    }

    #[test]
    fn handler_error_with_error_info() {
        let reply =
            run(r#"{"jsonrpc":"2.0","id":"x","method":"GetTask","params":{"id":"t-1"}}"#).unwrap();
        let response: Response<Value> = serde_json::from_str(&reply).unwrap();
        assert_eq!(response.id, Id::from("x"));
        let error = response.into_result().unwrap_err();
        assert_eq!(error.code, ErrorCode::TASK_NOT_FOUND);
        assert_eq!(error.reason_code(), Some(ErrorCode::TASK_NOT_FOUND));
        assert_eq!(error.metadata("taskId"), Some("t-1"));
        assert_eq!(error.error_info().unwrap().domain, "a2a-protocol.org");
    }

    #[test]
    fn absent_params_decode_as_empty_object() {
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","id":1,"method":"GetExtendedAgentCard"}"#).unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"result":{"name":"agent","tenant":""}}"#
        );
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","id":1,"method":"GetExtendedAgentCard","params":{"tenant":"t"}}"#)
                .unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"result":{"name":"agent","tenant":"t"}}"#
        );
    }

    #[test]
    fn unserializable_result_is_internal_error() {
        let reply = run_value(r#"{"jsonrpc":"2.0","id":1,"method":"Unserializable","params":[]}"#);
        assert_eq!(reply["error"]["code"], -32603);
        assert!(
            reply["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("internal error: cannot serialize the result")
        );
    }

    #[test]
    fn ids_are_preserved() {
        for id in [
            r#""abc""#,
            r#""""#,
            "0",
            "-1",
            "18446744073709551615",
            "-9223372036854775808",
            "9007199254740993",
            "1.5",
            "null",
            "18446744073709551616",
            "12345678901234567890123",
            "1.0",
            "1e3",
            "-0",
            "-0.0",
            "1E+2",
            "1e400",
        ] {
            let body = format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"GetTask","params":{{"id":"task-123"}}}}"#
            );
            let reply = run(&body).unwrap();
            let expected = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":"#);
            assert!(reply.starts_with(&expected), "{reply}");
        }
        // Escapes are decoded: the id is the string, not its spelling.
        let reply = run(r#"{"jsonrpc":"2.0","id":"\u0041","method":"Nope"}"#).unwrap();
        assert!(
            reply.starts_with(r#"{"jsonrpc":"2.0","id":"A","#),
            "{reply}"
        );
    }

    #[test]
    fn batch_runs_concurrently_and_keeps_order() {
        let ctx = Ctx::default();
        let body = r#"[
            {"jsonrpc":"2.0","id":1,"method":"Slow","params":[1]},
            {"jsonrpc":"2.0","id":2,"method":"Log","params":["fast"]},
            {"jsonrpc":"2.0","id":3,"method":"Slow","params":[3]}
        ]"#;
        assert_eq!(
            run_with(body, ctx.clone()).unwrap(),
            r#"[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"result":null},{"jsonrpc":"2.0","id":3,"result":3}]"#
        );
        // The fast call finished while the slow ones were waiting.
        assert_eq!(*ctx.log.lock().unwrap(), vec!["fast", "Slow 1", "Slow 3"]);
    }

    #[test]
    fn low_level_api() {
        let methods = methods();
        let body = br#"[{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"task-123"}},{"jsonrpc":"2.0","method":"Log","params":["n"]}]"#;
        let Ok(Payload::Batch(entries)) = Payload::parse(body) else {
            panic!()
        };
        let mut entries = entries.into_iter();
        let Some(Incoming::Request(request)) = entries.next() else {
            panic!()
        };
        let response = block_on(methods.call(request, Ctx::default()));
        assert_eq!(
            response.to_vec(),
            br#"{"jsonrpc":"2.0","id":1,"result":{"historyLength":null,"id":"task-123","user":""}}"#
        );
        let ctx = Ctx::default();
        let Some(Incoming::Notification(notification)) = entries.next() else {
            panic!()
        };
        block_on(methods.notify(notification, ctx.clone()));
        assert_eq!(*ctx.log.lock().unwrap(), vec!["n"]);

        // handle() on each kind.
        let invalid = Incoming::Invalid {
            id: Id::from(4),
            error: ErrorObject::invalid_request("x"),
        };
        let response = block_on(methods.handle(invalid, Ctx::default())).unwrap();
        assert_eq!(response.id, Id::from(4));
        let notification = Incoming::Notification(Notification::without_params("Nope"));
        assert!(block_on(methods.handle(notification, Ctx::default())).is_none());

        // handle_payload() on a single call and a notification-only batch.
        let payload = Payload::parse(br#"{"jsonrpc":"2.0","id":5,"method":"Nope"}"#).unwrap();
        let Some(Reply::Single(response)) =
            block_on(methods.handle_payload(payload, Ctx::default()))
        else {
            panic!()
        };
        assert_eq!(
            response.error_object().unwrap().code,
            ErrorCode::METHOD_NOT_FOUND
        );
        let payload = Payload::parse(br#"[{"jsonrpc":"2.0","method":"Nope"}]"#).unwrap();
        assert!(block_on(methods.handle_payload(payload, Ctx::default())).is_none());
    }

    #[test]
    fn futures_are_static_and_send() {
        fn assert_send_static<T: Send + 'static>(_: &T) {}
        let methods = methods();
        let body =
            br#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"task-123"}}"#.to_vec();
        let future = methods.handle_bytes(&body, Ctx::default());
        drop(body);
        drop(methods);
        assert_send_static(&future);
        assert!(block_on(future).is_some());
    }

    #[test]
    fn table_management() {
        let calls = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&calls);
        let mut methods: Methods<()> = Methods::new();
        assert!(methods.is_empty());
        let replaced = methods.insert("A", move |_: Value, (): ()| {
            counter.fetch_add(1, Ordering::SeqCst);
            async { Ok(1) }
        });
        assert!(!replaced);
        assert!(methods.insert("A", |_: Value, (): ()| async { Ok(2) }));
        assert_eq!(methods.len(), 1);
        assert!(methods.contains("A"));
        assert_eq!(methods.names().collect::<Vec<_>>(), vec!["A"]);
        assert_eq!(
            format!("{methods:?}"),
            r#"Methods { methods: ["A"], streams: [], limits: Limits { max_batch_len: 100, batch_concurrency: 8 } }"#
        );
        let clone = methods.clone();
        assert!(methods.remove("A"));
        assert!(!methods.remove("A"));
        let reply = block_on(clone.handle_bytes(br#"{"jsonrpc":"2.0","id":1,"method":"A"}"#, ()));
        assert_eq!(reply.unwrap(), br#"{"jsonrpc":"2.0","id":1,"result":2}"#);
        assert_eq!(calls.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn big_and_odd_ids_come_back_byte_for_byte() {
        assert_eq!(
            run(r#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"Nope"}"#).unwrap(),
            r#"{"jsonrpc":"2.0","id":18446744073709551616,"error":{"code":-32601,"message":"method not found: Nope"}}"#
        );
        assert_eq!(
            run(r#"[{"jsonrpc":"2.0","id":12345678901234567890123,"method":"Log","params":["x"]},{"jsonrpc":"2.0","id":1.0,"method":"Log","params":["y"]},{"jsonrpc":"2.0","id":1e3,"method":"Nope"},{"jsonrpc":"2.0","id":-0,"method":"Log","params":["z"]}]"#).unwrap(),
            r#"[{"jsonrpc":"2.0","id":12345678901234567890123,"result":null},{"jsonrpc":"2.0","id":1.0,"result":null},{"jsonrpc":"2.0","id":1e3,"error":{"code":-32601,"message":"method not found: Nope"}},{"jsonrpc":"2.0","id":-0,"result":null}]"#
        );
    }

    /// A handler that counts how many of its calls are in flight, and the most at once.
    #[derive(Clone, Default)]
    struct Gauge {
        now: Arc<AtomicUsize>,
        max: Arc<AtomicUsize>,
        started: Arc<AtomicUsize>,
    }

    fn gauged(gauge: &Gauge, limits: Limits) -> Methods<()> {
        let gauge = gauge.clone();
        Methods::new()
            .with_limits(limits)
            .register("Gauged", move |(n,): (u32,), (): ()| {
                let gauge = gauge.clone();
                gauge.started.fetch_add(1, Ordering::SeqCst);
                async move {
                    let now = gauge.now.fetch_add(1, Ordering::SeqCst) + 1;
                    gauge.max.fetch_max(now, Ordering::SeqCst);
                    // Later calls finish first when they may run together.
                    for _ in 0..(20 - n) {
                        YieldOnce(false).await;
                    }
                    gauge.now.fetch_sub(1, Ordering::SeqCst);
                    Ok(n)
                }
            })
    }

    fn gauged_batch(len: u32) -> String {
        let calls: Vec<String> = (0..len)
            .map(|n| format!(r#"{{"jsonrpc":"2.0","id":{n},"method":"Gauged","params":[{n}]}}"#))
            .collect();
        format!("[{}]", calls.join(","))
    }

    fn gauged_reply(len: u32) -> String {
        let responses: Vec<String> = (0..len)
            .map(|n| format!(r#"{{"jsonrpc":"2.0","id":{n},"result":{n}}}"#))
            .collect();
        format!("[{}]", responses.join(","))
    }

    #[test]
    fn batch_concurrency_is_bounded_and_order_kept() {
        for (limit, expected_max) in [(3, 3), (1, 1), (0, 1), (8, 8), (100, 12)] {
            let gauge = Gauge::default();
            let methods = gauged(&gauge, Limits::default().with_batch_concurrency(limit));
            let body = gauged_batch(12);
            let reply = block_on(methods.handle_bytes(body.as_bytes(), ())).unwrap();
            assert_eq!(
                String::from_utf8(reply).unwrap(),
                gauged_reply(12),
                "{limit}"
            );
            assert_eq!(gauge.max.load(Ordering::SeqCst), expected_max, "{limit}");
            assert_eq!(gauge.now.load(Ordering::SeqCst), 0);

            // The same through a parsed payload.
            let gauge = Gauge::default();
            let methods = gauged(&gauge, Limits::default().with_batch_concurrency(limit));
            let payload = Payload::parse(body.as_bytes()).unwrap();
            let reply = block_on(methods.handle_payload(payload, ())).unwrap();
            assert_eq!(String::from_utf8(reply.to_vec()).unwrap(), gauged_reply(12));
            assert_eq!(gauge.max.load(Ordering::SeqCst), expected_max, "{limit}");
        }
    }

    #[test]
    fn waiting_calls_start_only_when_polled() {
        let gauge = Gauge::default();
        let methods = gauged(&gauge, Limits::default().with_batch_concurrency(2));
        let body = gauged_batch(5);
        let future = methods.handle_bytes(body.as_bytes(), ());
        // Two calls started with the batch; the other three wait for room.
        assert_eq!(gauge.started.load(Ordering::SeqCst), 2);
        drop(future);
        assert_eq!(gauge.started.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn waiting_calls_with_bad_params_are_answered_in_order() {
        let methods = gauged(
            &Gauge::default(),
            Limits::default().with_batch_concurrency(1),
        );
        let body = r#"[
            {"jsonrpc":"2.0","id":1,"method":"Gauged","params":[1]},
            {"jsonrpc":"2.0","id":2,"method":"Gauged","params":["x"]},
            {"jsonrpc":"2.0","method":"Gauged","params":[3]},
            {"jsonrpc":"2.0","id":4,"method":"Gauged","params":[4]}
        ]"#;
        let reply = block_on(methods.handle_bytes(body.as_bytes(), ())).unwrap();
        assert_eq!(
            String::from_utf8(reply).unwrap(),
            r#"[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"invalid params: [0]: invalid type: string \"x\", expected u32","data":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"description":"invalid type: string \"x\", expected u32","field":"[0]"}]}]}},{"jsonrpc":"2.0","id":4,"result":4}]"#
        );
    }

    #[test]
    fn a_batch_over_the_cap_runs_nothing() {
        let gauge = Gauge::default();
        let methods = gauged(&gauge, Limits::default());
        let reply = block_on(methods.handle_bytes(gauged_batch(27_000).as_bytes(), ())).unwrap();
        assert_eq!(
            String::from_utf8(reply).unwrap(),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: a batch may hold at most 100 calls; this one holds 27000"}}"#
        );
        assert_eq!(gauge.started.load(Ordering::SeqCst), 0);

        let methods = gauged(&gauge, Limits::default().with_max_batch_len(2));
        let Answer::Reply(Some(Reply::Single(response))) =
            block_on(methods.dispatch_bytes(gauged_batch(3).as_bytes(), ()))
        else {
            panic!()
        };
        assert_eq!(
            response.error_object().unwrap().message,
            "invalid request: a batch may hold at most 2 calls; this one holds 3"
        );
        assert_eq!(gauge.started.load(Ordering::SeqCst), 0);
        assert_eq!(methods.limits().max_batch_len, 2);
    }

    /// The stream type of the streaming tests: the events, and the context's user.
    #[derive(Debug, PartialEq)]
    struct Events(Vec<String>, &'static str);

    #[derive(Deserialize)]
    struct SubscribeToTaskRequest {
        id: String,
    }

    fn streaming() -> Methods<Ctx, Events> {
        Methods::streaming()
            .register("GetTask", |p: GetTaskRequest, _ctx: Ctx| async move {
                Ok(json!({"id": p.id}))
            })
            .register_stream(
                "SendStreamingMessage",
                |p: SendMessageRequest, ctx: Ctx| async move {
                    let role = match p.message._role {
                        Role::User => "user",
                        Role::Agent => "agent",
                    };
                    Ok(Events(vec![role.to_owned()], ctx.user))
                },
            )
            .register_stream(
                "SubscribeToTask",
                |p: SubscribeToTaskRequest, ctx: Ctx| async move {
                    YieldOnce(false).await;
                    match p.id.as_str() {
                        "t-1" => Ok(Events(vec!["working".to_owned()], ctx.user)),
                        other => Err(ErrorObject::from(crate::A2aError::task_not_found(other))),
                    }
                },
            )
    }

    /// Runs `body` through both dispatch entry points, which must agree.
    fn dispatched(body: &str) -> Answer<Events> {
        let ctx = Ctx {
            user: "alice",
            ..Ctx::default()
        };
        let methods = streaming();
        let from_bytes = block_on(methods.dispatch_bytes(body.as_bytes(), ctx.clone()));
        let from_payload = match Payload::parse(body.as_bytes()) {
            Ok(payload) => block_on(methods.dispatch(payload, ctx)),
            Err(error) => Answer::Reply(Some(Reply::Single(Response::error(Id::Null, error)))),
        };
        match (&from_bytes, &from_payload) {
            (Answer::Stream(a, s), Answer::Stream(b, t)) => assert_eq!((a, s), (b, t)),
            (Answer::Reply(a), Answer::Reply(b)) => assert_eq!(
                a.as_ref().map(Reply::to_vec),
                b.as_ref().map(Reply::to_vec),
                "{body}"
            ),
            _ => panic!("the entry points disagree on {body}"),
        }
        from_bytes
    }

    fn dispatched_reply(body: &str) -> Option<String> {
        match dispatched(body) {
            Answer::Reply(reply) => reply.map(|r| String::from_utf8(r.to_vec()).unwrap()),
            Answer::Stream(id, _) => panic!("a stream for {id}"),
        }
    }

    #[test]
    fn a_single_streaming_request_gets_its_stream() {
        let Answer::Stream(id, events) = dispatched(
            r#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"SubscribeToTask","params":{"id":"t-1"}}"#,
        ) else {
            panic!("a stream")
        };
        assert_eq!(id.to_string(), "18446744073709551616");
        assert_eq!(events, Events(vec!["working".to_owned()], "alice"));

        let Answer::Stream(id, events) = dispatched(
            r#"{"jsonrpc":"2.0","id":"m","method":"SendStreamingMessage","params":{"message":{"messageId":"x","role":"ROLE_AGENT"}}}"#,
        ) else {
            panic!("a stream")
        };
        assert_eq!(id, Id::from("m"));
        assert_eq!(events.0, ["agent"]);
    }

    #[test]
    fn streaming_errors_before_the_stream_are_json() {
        // The handler's error.
        assert_eq!(
            dispatched_reply(
                r#"{"jsonrpc":"2.0","id":1,"method":"SubscribeToTask","params":{"id":"t-9"}}"#
            )
            .unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"task t-9 not found","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","domain":"a2a-protocol.org","metadata":{"taskId":"t-9"},"reason":"TASK_NOT_FOUND"}]}}"#
        );
        // Params decode like a unary method's: -32602 with the path.
        assert_eq!(
            dispatched_reply(
                r#"{"jsonrpc":"2.0","id":2,"method":"SendStreamingMessage","params":{"message":{"messageId":"x","role":"user"}}}"#
            )
            .unwrap(),
            r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"invalid params: message.role: unknown variant `user`, expected `ROLE_USER` or `ROLE_AGENT`","data":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"description":"unknown variant `user`, expected `ROLE_USER` or `ROLE_AGENT`","field":"message.role"}]}]}}"#
        );
        assert_eq!(
            dispatched_reply(r#"{"jsonrpc":"2.0","id":3,"method":"SubscribeToTask"}"#).unwrap(),
            r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"invalid params: missing field `id`","data":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"description":"missing field `id`","field":"id"}]}]}}"#
        );
    }

    #[test]
    fn streaming_methods_in_a_batch_or_as_notifications_are_refused() {
        assert_eq!(
            dispatched_reply(
                r#"[{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{}},{"jsonrpc":"2.0","id":2,"method":"GetTask","params":{"id":"t"}},{"jsonrpc":"2.0","method":"SubscribeToTask","params":{"id":"t-1"}}]"#
            )
            .unwrap(),
            r#"[{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: SendStreamingMessage streams its answer and cannot be part of a batch"}},{"jsonrpc":"2.0","id":2,"result":{"id":"t"}},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: SubscribeToTask streams its answer and cannot be part of a batch"}}]"#
        );
        assert_eq!(
            dispatched_reply(
                r#"{"jsonrpc":"2.0","method":"SubscribeToTask","params":{"id":"t-1"}}"#
            )
            .unwrap(),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: SubscribeToTask streams its answer and cannot be called as a notification"}}"#
        );
    }

    #[test]
    fn unary_calls_through_dispatch() {
        assert_eq!(
            dispatched_reply(r#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t"}}"#)
                .unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"result":{"id":"t"}}"#
        );
        assert_eq!(
            dispatched_reply(r#"{"jsonrpc":"2.0","id":1,"method":"Nope"}"#).unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method not found: Nope"}}"#
        );
        assert_eq!(
            dispatched_reply(r#"{"jsonrpc":"2.0","method":"GetTask","params":{"id":"t"}}"#),
            None
        );
        assert_eq!(
            dispatched_reply("[").unwrap(),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: EOF while parsing a list at line 1 column 1"}}"#
        );
        assert_eq!(
            dispatched_reply(r#"{"jsonrpc":"2.0","id":1,"method":7}"#).unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: \"method\" must be a string"}}"#
        );
    }

    #[test]
    fn json_only_entry_points_refuse_streaming_methods() {
        let methods = streaming();
        let expected = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: SubscribeToTask streams its answer and cannot be answered with a single JSON response here"}}"#;
        let body = br#"{"jsonrpc":"2.0","id":1,"method":"SubscribeToTask","params":{"id":"t-1"}}"#;
        let reply = block_on(methods.handle_bytes(body, Ctx::default())).unwrap();
        assert_eq!(String::from_utf8(reply).unwrap(), expected);
        let payload = Payload::parse(body).unwrap();
        let reply = block_on(methods.handle_payload(payload, Ctx::default())).unwrap();
        assert_eq!(String::from_utf8(reply.to_vec()).unwrap(), expected);
        let request = Request::without_params(1, "SubscribeToTask");
        let response = block_on(methods.call(request, Ctx::default()));
        assert_eq!(String::from_utf8(response.to_vec()).unwrap(), expected);
        let Ok(Payload::Single(incoming)) = Payload::parse(body) else {
            panic!()
        };
        let response = block_on(methods.handle(incoming, Ctx::default())).unwrap();
        assert_eq!(String::from_utf8(response.to_vec()).unwrap(), expected);
        // A notification has nowhere to send the error.
        block_on(methods.notify(
            Notification::without_params("SubscribeToTask"),
            Ctx::default(),
        ));
    }

    #[test]
    fn streaming_table_management() {
        let mut methods = streaming();
        assert!(methods.is_streaming("SubscribeToTask"));
        assert!(!methods.is_streaming("GetTask"));
        assert!(!methods.is_streaming("Nope"));
        assert!(methods.contains("SubscribeToTask"));
        assert_eq!(methods.len(), 3);
        assert_eq!(
            format!("{methods:?}"),
            r#"Methods { methods: ["GetTask"], streams: ["SendStreamingMessage", "SubscribeToTask"], limits: Limits { max_batch_len: 100, batch_concurrency: 8 } }"#
        );
        // A unary method can replace a streaming one and the other way round.
        assert!(methods.insert("SubscribeToTask", |_: Value, _ctx: Ctx| async { Ok(1) }));
        assert!(!methods.is_streaming("SubscribeToTask"));
        assert!(
            methods.insert_stream("GetTask", |_: Value, ctx: Ctx| async move {
                Ok(Events(Vec::new(), ctx.user))
            })
        );
        assert!(methods.is_streaming("GetTask"));
        let clone = methods.clone();
        assert!(methods.remove("GetTask"));
        assert!(clone.is_streaming("GetTask"));
        let mut names: Vec<&str> = clone.names().collect();
        names.sort_unstable();
        assert_eq!(
            names,
            ["GetTask", "SendStreamingMessage", "SubscribeToTask"]
        );
    }

    #[test]
    fn dispatch_futures_are_static_and_send() {
        fn assert_send_static<T: Send + 'static>(_: &T) {}
        let methods = streaming();
        let body = br#"{"jsonrpc":"2.0","id":1,"method":"SubscribeToTask","params":{"id":"t-1"}}"#
            .to_vec();
        let future = methods.dispatch_bytes(&body, Ctx::default());
        drop(body);
        drop(methods);
        assert_send_static(&future);
        assert!(matches!(block_on(future), Answer::Stream(..)));
    }
}
