//! From bytes to requests: single calls, batches, and the error answers for what is not a call.

use std::borrow::Cow;
use std::fmt;

use serde::Deserializer;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use serde_json::value::RawValue;

use crate::message::{Member, write_or_fallback};
use crate::{ErrorObject, Id, JsonRpcVersion, Notification, Request, Response};

/// One element of a request body, as the server reads it.
///
/// What is valid JSON but not a valid request object is [`Incoming::Invalid`]: it carries the
/// -32600 error to answer with, and the id to answer to (the request's own id when it could be
/// read, else `null`). Invalid objects are answered even when they lack an `id`, since nothing
/// says they were meant as notifications.
#[derive(Debug, Clone)]
#[expect(
    clippy::exhaustive_enums,
    reason = "JSON-RPC 2.0 is frozen: a call is a request or a notification, or it is invalid"
)]
pub enum Incoming {
    /// A request: answer it.
    Request(Request),
    /// A notification: run it, answer nothing.
    Notification(Notification),
    /// Not a valid request object: answer with this error.
    Invalid {
        /// The id to answer to.
        id: Id,
        /// The -32600 error.
        error: ErrorObject,
    },
}

impl Incoming {
    /// The method name, for requests and notifications.
    #[must_use]
    pub fn method(&self) -> Option<&str> {
        match self {
            Self::Request(request) => Some(&request.method),
            Self::Notification(notification) => Some(&notification.method),
            Self::Invalid { .. } => None,
        }
    }

    /// The id to answer to: `None` for notifications, which get no answer.
    #[must_use]
    pub const fn id(&self) -> Option<&Id> {
        match self {
            Self::Request(request) => Some(&request.id),
            Self::Notification(_) => None,
            Self::Invalid { id, .. } => Some(id),
        }
    }
}

/// A parsed request body: one call or a batch.
///
/// [`Payload::parse`] is the first step of the low-level API: parse, look at the method names,
/// and either hand the payload to [`Methods::handle_payload`](crate::Methods::handle_payload) or
/// take some calls (streaming ones) out and answer them yourself.
#[derive(Debug, Clone)]
#[expect(
    clippy::exhaustive_enums,
    reason = "JSON-RPC 2.0 §6: a body is a single call or a batch"
)]
pub enum Payload {
    /// A single JSON object (or another non-array value, which is [`Incoming::Invalid`]).
    Single(Incoming),
    /// A non-empty JSON array; answered with an array of the responses to its requests.
    Batch(Vec<Incoming>),
}

impl Payload {
    /// Parses a request body with the default [`Limits`] (at most
    /// [`Limits::DEFAULT_MAX_BATCH_LEN`] calls in a batch).
    ///
    /// * Not JSON at all (or not UTF-8, or a top-level number out of `f64` range): `Err` with
    ///   -32700, to be answered as `Response::error(Id::Null, error)`.
    /// * The empty array `[]`: `Err` with -32600, answered the same way (JSON-RPC 2.0 §6 answers
    ///   it with a single response, not an array).
    /// * A batch longer than the limit: `Err` with -32600 naming the limit and the batch's
    ///   length (`invalid request: a batch may hold at most 100 calls; this one holds 27000`),
    ///   answered the same way; none of its calls is read further.
    /// * Otherwise a single [`Incoming`] or a batch of them, where each element that is not a
    ///   valid request object is [`Incoming::Invalid`]: missing or wrong `jsonrpc`, an `id` that
    ///   is not a string, number or null, a `method` that is not a string, `params` that are not
    ///   an object or an array (`"params": null` included), a duplicate member, or not an object
    ///   at all. Other members are ignored.
    ///
    /// ```
    /// use a2a_jsonrpc::{Id, Incoming, Payload};
    ///
    /// let body = br#"{"jsonrpc":"2.0","id":7,"method":"SendStreamingMessage","params":{}}"#;
    /// let Ok(Payload::Single(Incoming::Request(request))) = Payload::parse(body) else {
    ///     panic!("a single request");
    /// };
    /// assert_eq!(request.id, Id::from(7));
    /// assert_eq!(request.method, "SendStreamingMessage");
    /// assert_eq!(request.params.unwrap().get(), "{}");
    ///
    /// assert_eq!(Payload::parse(b"{").unwrap_err().code.code(), -32700);
    /// assert_eq!(Payload::parse(b"[]").unwrap_err().code.code(), -32600);
    /// ```
    ///
    /// # Errors
    ///
    /// The error of a body that gets one error response with id `null`, as above.
    pub fn parse(bytes: &[u8]) -> Result<Self, ErrorObject> {
        Self::parse_with(bytes, &Limits::default())
    }

    /// Parses a request body like [`Payload::parse`], with these limits.
    ///
    /// ```
    /// use a2a_jsonrpc::{Limits, Payload};
    ///
    /// let call = r#"{"jsonrpc":"2.0","id":1,"method":"GetTask"}"#;
    /// let body = format!("[{call},{call},{call}]");
    /// let limits = Limits::default().with_max_batch_len(2);
    /// assert_eq!(
    ///     Payload::parse_with(body.as_bytes(), &limits).unwrap_err().message,
    ///     "invalid request: a batch may hold at most 2 calls; this one holds 3"
    /// );
    /// assert!(Payload::parse(body.as_bytes()).is_ok());
    /// ```
    ///
    /// # Errors
    ///
    /// As for [`Payload::parse`].
    pub fn parse_with(bytes: &[u8], limits: &Limits) -> Result<Self, ErrorObject> {
        Ok(match parse(bytes, limits.max_batch_len)? {
            Parsed::Single(entry) => Self::Single(entry.into_incoming()),
            Parsed::Batch(entries) => {
                Self::Batch(entries.into_iter().map(Entry::into_incoming).collect())
            }
        })
    }

    /// Whether the body was an array.
    #[must_use]
    pub const fn is_batch(&self) -> bool {
        matches!(self, Self::Batch(_))
    }
}

/// What the server sends back: one response, or the array of a batch's responses.
///
/// A body that deserves no answer at all (a notification, or a batch of notifications) has no
/// `Reply`: the functions that produce one return `None` then.
#[derive(Debug, Clone)]
#[expect(
    clippy::exhaustive_enums,
    reason = "JSON-RPC 2.0 §6: an answer is a single response or an array"
)]
pub enum Reply {
    /// One response object.
    Single(Response),
    /// A non-empty array of responses, in the order of the batch's requests.
    Batch(Vec<Response>),
}

impl Reply {
    /// The serialized reply.
    #[must_use]
    pub fn to_vec(&self) -> Vec<u8> {
        match self {
            Self::Single(response) => response.to_vec(),
            Self::Batch(responses) => {
                let hint = responses
                    .iter()
                    .map(|r| r.result.as_ref().map_or(160, |raw| raw.get().len() + 64))
                    .sum::<usize>()
                    + 2;
                let mut out = Vec::with_capacity(hint);
                write_or_fallback(&mut out, self);
                out
            }
        }
    }

    /// The responses, one for a single reply.
    #[must_use]
    pub fn into_responses(self) -> Vec<Response> {
        match self {
            Self::Single(response) => vec![response],
            Self::Batch(responses) => responses,
        }
    }
}

impl Serialize for Reply {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Single(response) => response.serialize(serializer),
            Self::Batch(responses) => responses.serialize(serializer),
        }
    }
}

/// Limits on what one request body may make the server hold or run.
///
/// A JSON-RPC batch turns one HTTP request into many calls, so its length is capped and its
/// calls run a few at a time. [`Payload::parse_with`] applies [`max_batch_len`](Self::max_batch_len);
/// a table built with [`Methods::with_limits`](crate::Methods::with_limits) applies both.
///
/// ```
/// use a2a_jsonrpc::Limits;
///
/// let limits = Limits::default();
/// assert_eq!((limits.max_batch_len, limits.batch_concurrency), (100, 8));
/// let limits = Limits::default().with_max_batch_len(20).with_batch_concurrency(4);
/// assert_eq!((limits.max_batch_len, limits.batch_concurrency), (20, 4));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// The most calls a batch may hold; a longer batch is answered with one -32600 error (id
    /// `null`) naming the limit and the batch's length, and none of its calls runs. `0` refuses
    /// every batch. Default [`Limits::DEFAULT_MAX_BATCH_LEN`].
    pub max_batch_len: usize,
    /// The most calls of one batch that run at the same time; the others wait, in order, for a
    /// running one to finish. Responses keep the batch's order either way. `0` counts as `1`.
    /// Default [`Limits::DEFAULT_BATCH_CONCURRENCY`].
    pub batch_concurrency: usize,
}

impl Limits {
    /// The default cap on a batch's length.
    pub const DEFAULT_MAX_BATCH_LEN: usize = 100;
    /// The default number of a batch's calls that run at once.
    pub const DEFAULT_BATCH_CONCURRENCY: usize = 8;

    /// Sets [`max_batch_len`](Self::max_batch_len).
    #[must_use]
    pub const fn with_max_batch_len(mut self, max_batch_len: usize) -> Self {
        self.max_batch_len = max_batch_len;
        self
    }

    /// Sets [`batch_concurrency`](Self::batch_concurrency).
    #[must_use]
    pub const fn with_batch_concurrency(mut self, batch_concurrency: usize) -> Self {
        self.batch_concurrency = batch_concurrency;
        self
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_batch_len: Self::DEFAULT_MAX_BATCH_LEN,
            batch_concurrency: Self::DEFAULT_BATCH_CONCURRENCY,
        }
    }
}

// ----- the parser --------------------------------------------------------------------------------
//
// One pass over the body reads the top level: an object's four members are kept as borrowed raw
// JSON (other members are skipped), an array's elements are kept as borrowed raw JSON. Syntax is
// fully checked in that pass, so every error there is a parse error. Then each member is checked on
// its own, which allows answering with the request's id even when another member is wrong; a
// batch's elements get the same treatment one by one. Params stay raw until the handler's type is
// known.

/// A call or an invalid element, borrowing from the body.
pub(crate) enum Entry<'a> {
    /// A request (`id` is `Some`) or a notification (`None`).
    Call {
        id: Option<Id>,
        method: Cow<'a, str>,
        params: Option<&'a RawValue>,
    },
    Invalid {
        id: Id,
        error: ErrorObject,
    },
}

impl Entry<'_> {
    fn into_incoming(self) -> Incoming {
        match self {
            Self::Call {
                id: Some(id),
                method,
                params,
            } => Incoming::Request(Request {
                jsonrpc: JsonRpcVersion,
                id,
                method: Cow::Owned(method.into_owned()),
                params: params.map(RawValue::to_owned),
            }),
            Self::Call {
                id: None,
                method,
                params,
            } => Incoming::Notification(Notification {
                jsonrpc: JsonRpcVersion,
                method: Cow::Owned(method.into_owned()),
                params: params.map(RawValue::to_owned),
            }),
            Self::Invalid { id, error } => Incoming::Invalid { id, error },
        }
    }
}

pub(crate) enum Parsed<'a> {
    Single(Entry<'a>),
    Batch(Vec<Entry<'a>>),
}

/// Parses a body; `Err` is a parse error, the empty batch or a batch over `max_batch_len`,
/// answered with id `null`.
pub(crate) fn parse(bytes: &[u8], max_batch_len: usize) -> Result<Parsed<'_>, ErrorObject> {
    // JSON text is UTF-8 (RFC 8259 §8.1). Checking it up front covers the members the parser
    // skips without looking into their strings, and lets it work on a `str`.
    let text = std::str::from_utf8(bytes).map_err(|error| {
        ErrorObject::parse_error(format_args!(
            "invalid UTF-8 at byte {}",
            error.valid_up_to()
        ))
    })?;
    match top(text, max_batch_len) {
        Err(error) => Err(ErrorObject::parse_error(error)),
        Ok(Top::Object(members)) => Ok(Parsed::Single(members.into_entry())),
        Ok(Top::Array { len: 0, .. }) => Err(ErrorObject::invalid_request("empty batch")),
        Ok(Top::Array { len, .. }) if len > max_batch_len => Err(ErrorObject::invalid_request(
            format_args!("a batch may hold at most {max_batch_len} calls; this one holds {len}"),
        )),
        Ok(Top::Array { elements, .. }) => Ok(Parsed::Batch(
            elements.into_iter().map(batch_element).collect(),
        )),
        Ok(Top::Scalar(kind)) => Ok(Parsed::Single(invalid(
            Id::Null,
            format_args!("expected a request object or a batch array, found {kind}"),
        ))),
    }
}

/// Reads the top level of `text`, keeping at most `keep` elements of an array.
fn top(text: &str, keep: usize) -> Result<Top<'_>, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let top = TopSeed { keep }.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(top)
}

fn batch_element(raw: &RawValue) -> Entry<'_> {
    // An array here is only named in the error, so none of its elements is kept.
    match top(raw.get(), 0) {
        Ok(Top::Object(members)) => members.into_entry(),
        Ok(Top::Array { .. }) => invalid(Id::Null, "expected a request object, found an array"),
        Ok(Top::Scalar(kind)) => invalid(
            Id::Null,
            format_args!("expected a request object, found {kind}"),
        ),
        // Only a value serde_json accepts raw but not parsed (a number like 1e400).
        Err(error) => invalid(Id::Null, error),
    }
}

fn invalid<'a>(id: Id, detail: impl fmt::Display) -> Entry<'a> {
    Entry::Invalid {
        id,
        error: ErrorObject::invalid_request(detail),
    }
}

/// The top level of a body (or of a batch element).
enum Top<'a> {
    Object(Members<'a>),
    /// The first elements of an array (as many as the reader was asked to keep), and the
    /// array's length.
    Array {
        elements: Vec<&'a RawValue>,
        len: usize,
    },
    /// What the value was instead, for the error message.
    Scalar(&'static str),
}

/// The members of an object that matter, undecoded.
#[derive(Default)]
struct Members<'a> {
    jsonrpc: Option<&'a RawValue>,
    id: Option<&'a RawValue>,
    method: Option<&'a RawValue>,
    params: Option<&'a RawValue>,
    /// The first member that appeared twice.
    duplicate: Option<Member>,
}

impl<'a> Members<'a> {
    fn into_entry(self) -> Entry<'a> {
        let id = match self.id {
            None => None,
            Some(raw) => match Id::from_json(raw.get()) {
                Some(id) => Some(id),
                None => {
                    return invalid(Id::Null, r#""id" must be a string, a number or null"#);
                }
            },
        };
        let reply_id = || match (&id, self.duplicate) {
            (_, Some(Member::Id)) | (None, _) => Id::Null,
            (Some(id), _) => id.clone(),
        };
        if let Some(member) = self.duplicate {
            return invalid(
                reply_id(),
                format_args!(r#"duplicate member "{}""#, member.name()),
            );
        }
        match self.jsonrpc {
            None => return invalid(reply_id(), r#"missing member "jsonrpc""#),
            Some(raw) if !is_version(raw) => {
                return invalid(reply_id(), r#""jsonrpc" must be "2.0""#);
            }
            Some(_) => {}
        }
        let method = match self.method.map(string) {
            None => return invalid(reply_id(), r#"missing member "method""#),
            Some(None) => return invalid(reply_id(), r#""method" must be a string"#),
            Some(Some(method)) => method,
        };
        if let Some(raw) = self.params
            && !matches!(raw.get().trim_start().as_bytes().first(), Some(b'{' | b'['))
        {
            return invalid(reply_id(), r#""params" must be an object or an array"#);
        }
        Entry::Call {
            id,
            method,
            params: self.params,
        }
    }
}

fn is_version(raw: &RawValue) -> bool {
    raw.get() == r#""2.0""# || serde_json::from_str::<JsonRpcVersion>(raw.get()).is_ok()
}

/// A JSON string, borrowed when it has no escapes.
fn string(raw: &RawValue) -> Option<Cow<'_, str>> {
    if !raw.get().starts_with('"') {
        return None;
    }
    match serde_json::from_str::<&str>(raw.get()) {
        Ok(borrowed) => Some(Cow::Borrowed(borrowed)),
        Err(_) => serde_json::from_str::<String>(raw.get())
            .ok()
            .map(Cow::Owned),
    }
}

/// Reads a [`Top`], keeping at most `keep` elements of an array (the rest are counted only).
#[derive(Clone, Copy)]
struct TopSeed {
    keep: usize,
}

impl<'de> DeserializeSeed<'de> for TopSeed {
    type Value = Top<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Top<'de>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TopSeed {
    type Value = Top<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top<'de>, A::Error> {
        let mut members = Members::default();
        while let Some(member) = map.next_key::<Member>()? {
            let slot = match member {
                Member::Jsonrpc => &mut members.jsonrpc,
                Member::Id => &mut members.id,
                Member::Method => &mut members.method,
                Member::Params => &mut members.params,
                Member::Result | Member::Error | Member::Other => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            let value = map.next_value::<&'de RawValue>()?;
            if slot.replace(value).is_some() && members.duplicate.is_none() {
                members.duplicate = Some(member);
            }
        }
        Ok(Top::Object(members))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Top<'de>, A::Error> {
        let mut elements = Vec::new();
        let mut len = 0_usize;
        // Elements are skipped as raw text (iteratively, without allocating), so counting the
        // ones past the limit costs no memory; the syntax of the whole body is still checked.
        while let Some(element) = seq.next_element::<&'de RawValue>()? {
            if len < self.keep {
                elements.push(element);
            }
            len += 1;
        }
        Ok(Top::Array { elements, len })
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Top<'de>, E> {
        Ok(Top::Scalar("a boolean"))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Top<'de>, E> {
        Ok(Top::Scalar("a number"))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Top<'de>, E> {
        Ok(Top::Scalar("a number"))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Top<'de>, E> {
        Ok(Top::Scalar("a number"))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Top<'de>, E> {
        Ok(Top::Scalar("a string"))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Top<'de>, E> {
        Ok(Top::Scalar("null"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorCode;

    fn single(body: &str) -> Incoming {
        match Payload::parse(body.as_bytes()) {
            Ok(Payload::Single(incoming)) => incoming,
            other => panic!("not a single call: {other:?}"),
        }
    }

    /// The id and message of an invalid element.
    fn invalid_of(incoming: Incoming) -> (Id, String) {
        match incoming {
            Incoming::Invalid { id, error } => {
                assert_eq!(error.code, ErrorCode::INVALID_REQUEST);
                (id, error.message.into_owned())
            }
            other => panic!("not invalid: {other:?}"),
        }
    }

    #[test]
    fn request_is_read() {
        let Incoming::Request(request) = single(
            r#" {"method":"GetTask","params":{"id":"t"},"id":"r-1","jsonrpc":"2.0","x":[1]} "#,
        ) else {
            panic!()
        };
        assert_eq!(request.id, Id::from("r-1"));
        assert_eq!(request.method, "GetTask");
        assert_eq!(
            request.params.as_deref().map(RawValue::get),
            Some(r#"{"id":"t"}"#)
        );
    }

    #[test]
    fn notification_is_read() {
        let Incoming::Notification(notification) = single(r#"{"jsonrpc":"2.0","method":"Ping"}"#)
        else {
            panic!()
        };
        assert_eq!(notification.method, "Ping");
        assert!(notification.params.is_none());
    }

    #[test]
    fn null_id_is_a_request_not_a_notification() {
        let incoming = single(r#"{"jsonrpc":"2.0","id":null,"method":"m"}"#);
        assert_eq!(incoming.id(), Some(&Id::Null));
        assert!(matches!(incoming, Incoming::Request(_)));
    }

    #[test]
    fn escaped_strings() {
        let Incoming::Request(request) =
            single(r#"{"jsonrpc":"\u0032.0","id":"\u0041","method":"Get\u0054ask"}"#)
        else {
            panic!()
        };
        assert_eq!(request.id, Id::from("A"));
        assert_eq!(request.method, "GetTask");
    }

    #[test]
    fn parse_errors() {
        for body in [
            "",
            "{",
            "{]",
            r#"{"a":}"#,
            "nul",
            "[1,]",
            "{} x",
            "\u{feff}{}",
        ] {
            let error = Payload::parse(body.as_bytes()).unwrap_err();
            assert_eq!(error.code, ErrorCode::PARSE_ERROR, "{body:?}");
            assert!(error.message.starts_with("parse error: "), "{body:?}");
        }
        let error = Payload::parse(b"{\"a\":\"\xff\"}").unwrap_err();
        assert_eq!(error.code, ErrorCode::PARSE_ERROR);
        assert_eq!(error.message, "parse error: invalid UTF-8 at byte 6");
    }

    #[test]
    fn deep_nesting_is_skipped_not_recursed() {
        // Raw values are skipped iteratively, so depth costs no stack; a deep batch element is
        // just an invalid element.
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        let Ok(Payload::Batch(entries)) = Payload::parse(deep.as_bytes()) else {
            panic!()
        };
        assert_eq!(entries.len(), 1);
        assert!(matches!(entries[0], Incoming::Invalid { .. }));

        let deep_params = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"m","params":{}{}}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert!(matches!(
            Payload::parse(deep_params.as_bytes()),
            Ok(Payload::Single(Incoming::Request(_)))
        ));
    }

    #[test]
    fn empty_batch() {
        let error = Payload::parse(b" [ ] ").unwrap_err();
        assert_eq!(error.code, ErrorCode::INVALID_REQUEST);
        assert_eq!(error.message, "invalid request: empty batch");
    }

    #[test]
    fn invalid_request_variants() {
        let cases: &[(&str, Id, &str)] = &[
            (
                r#"{"id":1,"method":"m"}"#,
                Id::from(1),
                r#"invalid request: missing member "jsonrpc""#,
            ),
            (
                r#"{"jsonrpc":"1.0","id":"a","method":"m"}"#,
                Id::from("a"),
                r#"invalid request: "jsonrpc" must be "2.0""#,
            ),
            (
                r#"{"jsonrpc":2.0,"id":2,"method":"m"}"#,
                Id::from(2),
                r#"invalid request: "jsonrpc" must be "2.0""#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":3}"#,
                Id::from(3),
                r#"invalid request: missing member "method""#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":4,"method":1}"#,
                Id::from(4),
                r#"invalid request: "method" must be a string"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":5,"method":"m","params":"x"}"#,
                Id::from(5),
                r#"invalid request: "params" must be an object or an array"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":6,"method":"m","params":null}"#,
                Id::from(6),
                r#"invalid request: "params" must be an object or an array"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":7,"method":"m","params":3}"#,
                Id::from(7),
                r#"invalid request: "params" must be an object or an array"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":true,"method":"m"}"#,
                Id::Null,
                r#"invalid request: "id" must be a string, a number or null"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":{},"method":"m"}"#,
                Id::Null,
                r#"invalid request: "id" must be a string, a number or null"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":8,"method":"m","method":"n"}"#,
                Id::from(8),
                r#"invalid request: duplicate member "method""#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":8,"id":9,"method":"m"}"#,
                Id::Null,
                r#"invalid request: duplicate member "id""#,
            ),
            (
                r#"{"jsonrpc":"2.0","method":1}"#,
                Id::Null,
                r#"invalid request: "method" must be a string"#,
            ),
            (
                r#"{}"#,
                Id::Null,
                r#"invalid request: missing member "jsonrpc""#,
            ),
            (
                "42",
                Id::Null,
                "invalid request: expected a request object or a batch array, found a number",
            ),
            (
                r#""x""#,
                Id::Null,
                "invalid request: expected a request object or a batch array, found a string",
            ),
            (
                "null",
                Id::Null,
                "invalid request: expected a request object or a batch array, found null",
            ),
            (
                "true",
                Id::Null,
                "invalid request: expected a request object or a batch array, found a boolean",
            ),
        ];
        for (body, id, message) in cases {
            let (got_id, got_message) = invalid_of(single(body));
            assert_eq!((&got_id, got_message.as_str()), (id, *message), "{body}");
        }
    }

    #[test]
    fn batch_elements() {
        let body = r#"[
            {"jsonrpc":"2.0","id":1,"method":"a"},
            {"jsonrpc":"2.0","method":"b"},
            1,
            [],
            {"foo":"boo"},
            {"jsonrpc":"2.0","id":"x","method":"c","params":[1]}
        ]"#;
        let Ok(Payload::Batch(entries)) = Payload::parse(body.as_bytes()) else {
            panic!()
        };
        assert_eq!(entries.len(), 6);
        assert!(matches!(&entries[0], Incoming::Request(r) if r.id == Id::from(1)));
        assert!(matches!(&entries[1], Incoming::Notification(n) if n.method == "b"));
        let mut rest = entries.into_iter().skip(2);
        assert_eq!(
            invalid_of(rest.next().unwrap()),
            (
                Id::Null,
                "invalid request: expected a request object, found a number".to_owned()
            )
        );
        assert_eq!(
            invalid_of(rest.next().unwrap()),
            (
                Id::Null,
                "invalid request: expected a request object, found an array".to_owned()
            )
        );
        assert_eq!(invalid_of(rest.next().unwrap()).0, Id::Null);
        let last = rest.next().unwrap();
        assert_eq!(last.method(), Some("c"));
        assert_eq!(last.id(), Some(&Id::from("x")));
    }

    #[test]
    fn out_of_range_number_in_a_batch() {
        let Ok(Payload::Batch(entries)) = Payload::parse(b"[1e400]") else {
            panic!()
        };
        let (id, message) = invalid_of(entries.into_iter().next().unwrap());
        assert_eq!(id, Id::Null);
        assert_eq!(
            message,
            "invalid request: number out of range at line 1 column 5"
        );
    }

    #[test]
    fn numeric_ids_keep_their_text() {
        for id in [
            "18446744073709551616",
            "12345678901234567890123",
            "1.0",
            "1e3",
            "-0",
            "1e400",
            "7",
        ] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"m"}}"#);
            let Incoming::Request(request) = single(&body) else {
                panic!("{body}")
            };
            let response = Response::error(request.id, ErrorObject::method_not_found("m"));
            assert_eq!(
                String::from_utf8(response.to_vec()).unwrap(),
                format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32601,"message":"method not found: m"}}}}"#
                )
            );
        }
    }

    fn batch_of(len: usize) -> String {
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"m"}"#;
        format!("[{}]", vec![call; len].join(","))
    }

    #[test]
    fn batch_length_is_capped() {
        let error = Payload::parse(batch_of(27_000).as_bytes()).unwrap_err();
        assert_eq!(error.code, ErrorCode::INVALID_REQUEST);
        assert_eq!(
            error.message,
            "invalid request: a batch may hold at most 100 calls; this one holds 27000"
        );
        assert_eq!(error.data, None);
        let Ok(Payload::Batch(entries)) = Payload::parse(batch_of(100).as_bytes()) else {
            panic!("100 calls are allowed")
        };
        assert_eq!(entries.len(), 100);
        assert_eq!(
            Payload::parse(batch_of(101).as_bytes())
                .unwrap_err()
                .message,
            "invalid request: a batch may hold at most 100 calls; this one holds 101"
        );

        let limits = Limits::default().with_max_batch_len(3);
        assert!(Payload::parse_with(batch_of(3).as_bytes(), &limits).is_ok());
        assert_eq!(
            Payload::parse_with(batch_of(4).as_bytes(), &limits)
                .unwrap_err()
                .message,
            "invalid request: a batch may hold at most 3 calls; this one holds 4"
        );
        // 0 refuses every batch, but not single calls.
        let none = Limits::default().with_max_batch_len(0);
        assert_eq!(
            Payload::parse_with(batch_of(1).as_bytes(), &none)
                .unwrap_err()
                .message,
            "invalid request: a batch may hold at most 0 calls; this one holds 1"
        );
        assert!(Payload::parse_with(br#"{"jsonrpc":"2.0","id":1,"method":"m"}"#, &none).is_ok());
        // The empty batch keeps its own message.
        assert_eq!(
            Payload::parse_with(b"[]", &none).unwrap_err().message,
            "invalid request: empty batch"
        );
    }

    #[test]
    fn a_long_batch_with_bad_syntax_is_a_parse_error() {
        let mut body = batch_of(200);
        body.pop();
        let error = Payload::parse(body.as_bytes()).unwrap_err();
        assert_eq!(error.code, ErrorCode::PARSE_ERROR);
        assert!(
            error.message.starts_with("parse error: EOF"),
            "{}",
            error.message
        );
    }

    #[test]
    fn nested_arrays_in_a_batch_are_only_named() {
        let inner = format!("[{}]", vec!["1"; 10_000].join(","));
        let Ok(Payload::Batch(entries)) = Payload::parse(format!("[{inner}]").as_bytes()) else {
            panic!()
        };
        assert_eq!(
            invalid_of(entries.into_iter().next().unwrap()).1,
            "invalid request: expected a request object, found an array"
        );
    }

    #[test]
    fn reply_bytes() {
        let reply = Reply::Batch(vec![
            Response::error(1, ErrorObject::method_not_found("x")),
            Response::from_result(2, Ok::<_, ErrorObject>(true)),
        ]);
        assert_eq!(
            String::from_utf8(reply.to_vec()).unwrap(),
            r#"[{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method not found: x"}},{"jsonrpc":"2.0","id":2,"result":true}]"#
        );
        assert_eq!(reply.into_responses().len(), 2);
    }
}
