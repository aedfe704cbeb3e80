//! The method table: from a parsed call to a typed handler and back.

use std::collections::HashMap;
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
    ErrorObject, Id, Incoming, Notification, Payload, Reply, Request, Response, decode_params,
};

/// A boxed, sendable future, as handlers return them once erased.
type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// What a handler produces: the serialized result, or the error.
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

type Table<C> = HashMap<Box<str>, Arc<dyn Handler<C>>, BuildHasherDefault<Fnv>>;

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
pub struct Methods<C> {
    handlers: Table<C>,
}

impl<C> Default for Methods<C> {
    fn default() -> Self {
        Self {
            handlers: Table::default(),
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
        assert_eq!(format!("{methods:?}"), r#"Methods { methods: ["A"] }"#);
        let clone = methods.clone();
        assert!(methods.remove("A"));
        assert!(!methods.remove("A"));
        let reply = block_on(clone.handle_bytes(br#"{"jsonrpc":"2.0","id":1,"method":"A"}"#, ()));
        assert_eq!(reply.unwrap(), br#"{"jsonrpc":"2.0","id":1,"result":2}"#);
        assert_eq!(calls.load(Ordering::SeqCst), 0);
    }
}
