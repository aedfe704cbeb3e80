//! Requests, notifications and responses.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeOwned, IgnoredAny, MapAccess, Visitor};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;

use crate::{ErrorObject, Id, JsonRpcVersion, decode_params};

/// A JSON-RPC request: a call that expects a [`Response`] with the same `id`.
///
/// `P` is the type of `params`. It defaults to [`Box<RawValue>`](RawValue), the undecoded JSON
/// text, which is what [`Payload::parse`](crate::Payload::parse) produces on the server side; a
/// client builds requests with its own typed params. Either way it serializes as
/// `{"jsonrpc":"2.0","id":…,"method":…,"params":…}`, in that order, without `params` when it is
/// `None`.
///
/// ```
/// use a2a_jsonrpc::Request;
/// use serde_json::json;
///
/// let request = Request::new(1, "GetTask", json!({"id": "task-123"}));
/// assert_eq!(
///     serde_json::to_string(&request).unwrap(),
///     r#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"task-123"}}"#
/// );
///
/// let request = Request::without_params("a", "GetExtendedAgentCard");
/// assert_eq!(
///     serde_json::to_string(&request).unwrap(),
///     r#"{"jsonrpc":"2.0","id":"a","method":"GetExtendedAgentCard"}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Request<P = Box<RawValue>> {
    /// The `"2.0"` tag.
    pub jsonrpc: JsonRpcVersion,
    /// The id the response must echo.
    pub id: Id,
    /// The method name.
    pub method: Cow<'static, str>,
    /// The parameters: an object or an array in JSON, or absent.
    pub params: Option<P>,
}

impl<P> Request<P> {
    /// A request with params.
    #[must_use]
    pub fn new(id: impl Into<Id>, method: impl Into<Cow<'static, str>>, params: P) -> Self {
        Self {
            jsonrpc: JsonRpcVersion,
            id: id.into(),
            method: method.into(),
            params: Some(params),
        }
    }
}

impl Request {
    /// A request without a `params` member.
    #[must_use]
    pub fn without_params(id: impl Into<Id>, method: impl Into<Cow<'static, str>>) -> Self {
        Self {
            jsonrpc: JsonRpcVersion,
            id: id.into(),
            method: method.into(),
            params: None,
        }
    }

    /// Decodes the params into `T` with [`decode_params`]: -32602 with the path of the bad field
    /// on failure, and absent params read as `null`, then `{}`.
    ///
    /// # Errors
    ///
    /// The -32602 error to answer with.
    pub fn decode_params<T: DeserializeOwned>(&self) -> Result<T, ErrorObject> {
        decode_params(self.params.as_deref())
    }
}

impl<P: Serialize> Serialize for Request<P> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let len = if self.params.is_some() { 4 } else { 3 };
        let mut s = serializer.serialize_struct("Request", len)?;
        s.serialize_field("jsonrpc", &self.jsonrpc)?;
        s.serialize_field("id", &self.id)?;
        s.serialize_field("method", &self.method)?;
        if let Some(params) = &self.params {
            s.serialize_field("params", params)?;
        }
        s.end()
    }
}

/// A JSON-RPC notification: a call without an `id`, which gets no response.
///
/// Serializes as `{"jsonrpc":"2.0","method":…,"params":…}`.
///
/// ```
/// use a2a_jsonrpc::Notification;
///
/// let notification = Notification::new("Ping", [1, 2]);
/// assert_eq!(
///     serde_json::to_string(&notification).unwrap(),
///     r#"{"jsonrpc":"2.0","method":"Ping","params":[1,2]}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Notification<P = Box<RawValue>> {
    /// The `"2.0"` tag.
    pub jsonrpc: JsonRpcVersion,
    /// The method name.
    pub method: Cow<'static, str>,
    /// The parameters: an object or an array in JSON, or absent.
    pub params: Option<P>,
}

impl<P> Notification<P> {
    /// A notification with params.
    #[must_use]
    pub fn new(method: impl Into<Cow<'static, str>>, params: P) -> Self {
        Self {
            jsonrpc: JsonRpcVersion,
            method: method.into(),
            params: Some(params),
        }
    }
}

impl Notification {
    /// A notification without a `params` member.
    #[must_use]
    pub fn without_params(method: impl Into<Cow<'static, str>>) -> Self {
        Self {
            jsonrpc: JsonRpcVersion,
            method: method.into(),
            params: None,
        }
    }

    /// Decodes the params into `T`, like [`Request::decode_params`].
    ///
    /// # Errors
    ///
    /// A -32602 error (which a notification never sends back).
    pub fn decode_params<T: DeserializeOwned>(&self) -> Result<T, ErrorObject> {
        decode_params(self.params.as_deref())
    }
}

impl<P: Serialize> Serialize for Notification<P> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let len = if self.params.is_some() { 3 } else { 2 };
        let mut s = serializer.serialize_struct("Notification", len)?;
        s.serialize_field("jsonrpc", &self.jsonrpc)?;
        s.serialize_field("method", &self.method)?;
        if let Some(params) = &self.params {
            s.serialize_field("params", params)?;
        }
        s.end()
    }
}

/// A JSON-RPC response: `result` or `error`, never both.
///
/// `R` is the type of `result`; it defaults to [`Box<RawValue>`](RawValue), JSON text produced
/// by a handler. It serializes exactly as `{"jsonrpc":"2.0","id":1,"result":…}` or
/// `{"jsonrpc":"2.0","id":1,"error":{…}}`, members in that order.
///
/// A client deserializes `Response<T>` to get a typed result in one pass (or
/// `Response<Box<RawValue>>` to decode it later). Deserialization requires `"jsonrpc": "2.0"` and
/// exactly one of `result` and `error`; it is lenient in two ways seen in the wild: a missing `id`
/// reads as `null`, and `"error": null` next to a `result` counts as no error.
///
/// ```
/// use a2a_jsonrpc::{ErrorObject, Response};
/// use serde_json::json;
///
/// let ok = Response::ok(1, json!({"id": "task-123"}));
/// assert_eq!(
///     serde_json::to_string(&ok).unwrap(),
///     r#"{"jsonrpc":"2.0","id":1,"result":{"id":"task-123"}}"#
/// );
///
/// let err = Response::error(1, ErrorObject::method_not_found("Foo"));
/// assert_eq!(
///     serde_json::to_string(&err).unwrap(),
///     r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method not found: Foo"}}"#
/// );
///
/// let parsed: Response<serde_json::Value> =
///     serde_json::from_str(r#"{"jsonrpc":"2.0","id":1,"result":{"id":"task-123"}}"#).unwrap();
/// assert_eq!(parsed.result.unwrap()["id"], "task-123");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Response<R = Box<RawValue>> {
    /// The `"2.0"` tag.
    pub jsonrpc: JsonRpcVersion,
    /// The id of the request answered; `null` if it could not be read.
    pub id: Id,
    /// `Ok(result)` or `Err(error)`.
    pub result: Result<R, ErrorObject>,
}

impl<R> Response<R> {
    /// A response with this outcome.
    #[must_use]
    pub fn new(id: impl Into<Id>, result: Result<R, ErrorObject>) -> Self {
        Self {
            jsonrpc: JsonRpcVersion,
            id: id.into(),
            result,
        }
    }

    /// A success response.
    #[must_use]
    pub fn ok(id: impl Into<Id>, result: R) -> Self {
        Self::new(id, Ok(result))
    }

    /// Whether this is an error response.
    #[must_use]
    pub const fn is_error(&self) -> bool {
        self.result.is_err()
    }

    /// The error, for an error response.
    #[must_use]
    pub fn error_object(&self) -> Option<&ErrorObject> {
        self.result.as_ref().err()
    }

    /// The outcome.
    ///
    /// # Errors
    ///
    /// The response's error object.
    pub fn into_result(self) -> Result<R, ErrorObject> {
        self.result
    }
}

impl Response {
    /// An error response.
    #[must_use]
    pub fn error(id: impl Into<Id>, error: ErrorObject) -> Self {
        Self::new(id, Err(error))
    }

    /// A response whose result is `result` serialized to JSON text; a value that cannot be
    /// serialized (a map with non-string keys, say) becomes a -32603 error.
    #[must_use]
    pub fn from_result<T: Serialize>(id: impl Into<Id>, result: Result<T, ErrorObject>) -> Self {
        Self::new(id, result.and_then(|value| to_raw(&value)))
    }

    /// The serialized response.
    #[must_use]
    pub fn to_vec(&self) -> Vec<u8> {
        let hint = match &self.result {
            Ok(raw) => raw.get().len() + 64,
            Err(_) => 160,
        };
        let mut out = Vec::with_capacity(hint);
        write_or_fallback(&mut out, self);
        out
    }
}

/// Serializes a handler's result into JSON text, or a -32603 error.
pub(crate) fn to_raw<T: Serialize + ?Sized>(value: &T) -> Result<Box<RawValue>, ErrorObject> {
    serde_json::value::to_raw_value(value).map_err(|error| {
        ErrorObject::internal_error(format_args!("cannot serialize the result: {error}"))
    })
}

/// The response sent when a response cannot be serialized, which cannot happen for
/// `Response<Box<RawValue>>` (raw text, `Value`s and strings always serialize). Kept so that
/// serialization has no panic path.
const FALLBACK: &[u8] = br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error: cannot serialize the response"}}"#;

pub(crate) fn write_or_fallback<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
    let start = out.len();
    if serde_json::to_writer(&mut *out, value).is_err() {
        out.truncate(start);
        out.extend_from_slice(FALLBACK);
    }
}

impl<R: Serialize> Serialize for Response<R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Response", 3)?;
        s.serialize_field("jsonrpc", &self.jsonrpc)?;
        s.serialize_field("id", &self.id)?;
        match &self.result {
            Ok(result) => s.serialize_field("result", result)?,
            Err(error) => s.serialize_field("error", error)?,
        }
        s.end()
    }
}

/// The members of requests and responses, as keys.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Member {
    Jsonrpc,
    Id,
    Method,
    Params,
    Result,
    Error,
    Other,
}

impl Member {
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Self::Jsonrpc => "jsonrpc",
            Self::Id => "id",
            Self::Method => "method",
            Self::Params => "params",
            Self::Result => "result",
            Self::Error => "error",
            Self::Other => "?",
        }
    }
}

impl<'de> Deserialize<'de> for Member {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MemberVisitor;

        impl Visitor<'_> for MemberVisitor {
            type Value = Member;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }

            fn visit_str<E: de::Error>(self, name: &str) -> Result<Member, E> {
                Ok(match name {
                    "jsonrpc" => Member::Jsonrpc,
                    "id" => Member::Id,
                    "method" => Member::Method,
                    "params" => Member::Params,
                    "result" => Member::Result,
                    "error" => Member::Error,
                    _ => Member::Other,
                })
            }
        }

        deserializer.deserialize_identifier(MemberVisitor)
    }
}

/// The members of a request or notification, read strictly.
struct Call<P> {
    id: Option<Id>,
    method: String,
    params: Option<P>,
}

const CALL_MEMBERS: &[&str] = &["jsonrpc", "id", "method", "params"];

impl<'de, P: Deserialize<'de>> Deserialize<'de> for Call<P> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CallVisitor<P>(PhantomData<fn() -> P>);

        impl<'de, P: Deserialize<'de>> Visitor<'de> for CallVisitor<P> {
            type Value = Call<P>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON-RPC request object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Call<P>, A::Error> {
                let mut jsonrpc: Option<JsonRpcVersion> = None;
                let mut id: Option<Id> = None;
                let mut method: Option<String> = None;
                let mut params: Option<P> = None;
                while let Some(member) = map.next_key::<Member>()? {
                    let duplicate = match member {
                        Member::Jsonrpc => jsonrpc.replace(map.next_value()?).is_some(),
                        Member::Id => id.replace(map.next_value()?).is_some(),
                        Member::Method => method.replace(map.next_value()?).is_some(),
                        Member::Params => params.replace(map.next_value()?).is_some(),
                        Member::Result | Member::Error | Member::Other => {
                            map.next_value::<IgnoredAny>()?;
                            false
                        }
                    };
                    if duplicate {
                        return Err(de::Error::duplicate_field(member.name()));
                    }
                }
                if jsonrpc.is_none() {
                    return Err(de::Error::missing_field("jsonrpc"));
                }
                let method = method.ok_or_else(|| de::Error::missing_field("method"))?;
                Ok(Call { id, method, params })
            }
        }

        deserializer.deserialize_struct("Request", CALL_MEMBERS, CallVisitor(PhantomData))
    }
}

/// Deserializes a request strictly: `"jsonrpc": "2.0"`, an `id` and a string `method` are
/// required, `params` is decoded into `P` when present, other members are ignored and duplicates
/// are errors. This suits tests and tools that read requests they know to be well formed; a server
/// reads bodies with [`Payload::parse`](crate::Payload::parse), which turns each kind of
/// malformation into the right error response.
///
/// ```
/// use a2a_jsonrpc::{Id, Request};
///
/// let request: Request<Vec<u8>> =
///     serde_json::from_str(r#"{"jsonrpc":"2.0","id":"r","method":"m","params":[1,2]}"#).unwrap();
/// assert_eq!(request.id, Id::from("r"));
/// assert_eq!(request.params, Some(vec![1, 2]));
/// assert!(serde_json::from_str::<Request>(r#"{"jsonrpc":"2.0","method":"m"}"#).is_err());
/// ```
impl<'de, P: Deserialize<'de>> Deserialize<'de> for Request<P> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let call = Call::<P>::deserialize(deserializer)?;
        let id = call.id.ok_or_else(|| {
            de::Error::custom("missing field `id` (a call without an id is a notification)")
        })?;
        Ok(Self {
            jsonrpc: JsonRpcVersion,
            id,
            method: Cow::Owned(call.method),
            params: call.params,
        })
    }
}

/// Deserializes a notification strictly, like [`Request`] but with no `id` allowed.
impl<'de, P: Deserialize<'de>> Deserialize<'de> for Notification<P> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let call = Call::<P>::deserialize(deserializer)?;
        if call.id.is_some() {
            return Err(de::Error::custom(
                "a notification has no `id` (a call with an id is a request)",
            ));
        }
        Ok(Self {
            jsonrpc: JsonRpcVersion,
            method: Cow::Owned(call.method),
            params: call.params,
        })
    }
}

const RESPONSE_MEMBERS: &[&str] = &["jsonrpc", "id", "result", "error"];

impl<'de, R: Deserialize<'de>> Deserialize<'de> for Response<R> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ResponseVisitor<R>(PhantomData<fn() -> R>);

        impl<'de, R: Deserialize<'de>> Visitor<'de> for ResponseVisitor<R> {
            type Value = Response<R>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON-RPC response object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Response<R>, A::Error> {
                let mut jsonrpc: Option<JsonRpcVersion> = None;
                let mut id: Option<Id> = None;
                let mut result: Option<R> = None;
                let mut error: Option<Option<ErrorObject>> = None;
                while let Some(member) = map.next_key::<Member>()? {
                    let duplicate = match member {
                        Member::Jsonrpc => jsonrpc.replace(map.next_value()?).is_some(),
                        Member::Id => id.replace(map.next_value()?).is_some(),
                        Member::Result => result.replace(map.next_value()?).is_some(),
                        Member::Error => error.replace(map.next_value()?).is_some(),
                        Member::Method | Member::Params | Member::Other => {
                            map.next_value::<IgnoredAny>()?;
                            false
                        }
                    };
                    if duplicate {
                        return Err(de::Error::duplicate_field(member.name()));
                    }
                }
                if jsonrpc.is_none() {
                    return Err(de::Error::missing_field("jsonrpc"));
                }
                let result = match (result, error.flatten()) {
                    (Some(_), Some(_)) => {
                        return Err(de::Error::custom(
                            "a response must not have both `result` and `error`",
                        ));
                    }
                    (Some(result), None) => Ok(result),
                    (None, Some(error)) => Err(error),
                    (None, None) => {
                        return Err(de::Error::custom(
                            "a response must have `result` or `error`",
                        ));
                    }
                };
                Ok(Response::new(id.unwrap_or_default(), result))
            }
        }

        deserializer.deserialize_struct("Response", RESPONSE_MEMBERS, ResponseVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::ErrorCode;

    #[test]
    fn request_bytes() {
        let request = Request::new(Id::Null, "m", json!([1]));
        assert_eq!(
            serde_json::to_string(&request).unwrap(),
            r#"{"jsonrpc":"2.0","id":null,"method":"m","params":[1]}"#
        );
        let request = Request::new(u64::MAX, "m", json!({}));
        assert_eq!(
            serde_json::to_string(&request).unwrap(),
            r#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"m","params":{}}"#
        );
    }

    #[test]
    fn request_decode_params() {
        let request = Request {
            params: Some(RawValue::from_string(r#"{"n":1}"#.to_owned()).unwrap()),
            ..Request::without_params(1, "m")
        };
        let value: Value = request.decode_params().unwrap();
        assert_eq!(value, json!({"n": 1}));
        let error = request.decode_params::<Vec<u8>>().unwrap_err();
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    }

    #[test]
    fn notification_bytes() {
        assert_eq!(
            serde_json::to_string(&Notification::without_params("x")).unwrap(),
            r#"{"jsonrpc":"2.0","method":"x"}"#
        );
        let n = Notification::without_params("x");
        assert_eq!(n.decode_params::<Option<u8>>().unwrap(), None);
    }

    #[test]
    fn response_bytes() {
        let ok = Response::ok("a", json!({"k": [1, 2]}));
        assert_eq!(
            serde_json::to_string(&ok).unwrap(),
            r#"{"jsonrpc":"2.0","id":"a","result":{"k":[1,2]}}"#
        );
        let ok = Response::ok(1, ());
        assert_eq!(
            serde_json::to_string(&ok).unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"result":null}"#
        );
        let err = Response::error(Id::Null, ErrorObject::from(ErrorCode::PARSE_ERROR));
        assert_eq!(
            err.to_vec(),
            br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Invalid JSON payload"}}"#
        );
        let raw = Response::from_result(7, Ok::<_, ErrorObject>(json!({"x": 1})));
        assert_eq!(
            raw.to_vec(),
            br#"{"jsonrpc":"2.0","id":7,"result":{"x":1}}"#
        );
    }

    #[test]
    fn unserializable_result_is_an_internal_error() {
        let mut map = std::collections::HashMap::new();
        map.insert(vec![1_u8], 1);
        let response = Response::from_result(1, Ok::<_, ErrorObject>(map));
        let error = response.error_object().unwrap();
        assert_eq!(error.code, ErrorCode::INTERNAL_ERROR);
        assert!(
            error
                .message
                .starts_with("internal error: cannot serialize the result")
        );
    }

    #[test]
    fn response_parsing() {
        let ok: Response<u32> =
            serde_json::from_str(r#"{"id":3,"result":5,"jsonrpc":"2.0","extra":{}}"#).unwrap();
        assert_eq!(ok.id, Id::from(3));
        assert_eq!(ok.into_result(), Ok(5));

        let err: Response<u32> = serde_json::from_str(
            r#"{"jsonrpc":"2.0","id":"x","error":{"code":-32001,"message":"gone"}}"#,
        )
        .unwrap();
        assert!(err.is_error());
        assert_eq!(err.error_object().unwrap().code, ErrorCode::TASK_NOT_FOUND);

        // A null result is a result.
        let null: Response<Option<u32>> =
            serde_json::from_str(r#"{"jsonrpc":"2.0","id":1,"result":null}"#).unwrap();
        assert_eq!(null.result, Ok(None));

        // Lenient: missing id, null error beside a result.
        let lenient: Response<u32> =
            serde_json::from_str(r#"{"jsonrpc":"2.0","result":1,"error":null}"#).unwrap();
        assert_eq!(lenient.id, Id::Null);
        assert_eq!(lenient.result, Ok(1));

        for bad in [
            r#"{"id":1,"result":1}"#,
            r#"{"jsonrpc":"1.0","id":1,"result":1}"#,
            r#"{"jsonrpc":"2.0","id":1}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":null}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":""}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":1,"result":2}"#,
            r#"{"jsonrpc":"2.0","id":[],"result":1}"#,
            r#"[]"#,
        ] {
            assert!(
                serde_json::from_str::<Response<Value>>(bad).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn request_and_notification_parsing() {
        let text =
            r#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"GetTask","params":{"id":"t"}}"#;
        let request: Request = serde_json::from_str(text).unwrap();
        assert_eq!(request.id.as_u64(), Some(u64::MAX));
        assert_eq!(request.method, "GetTask");
        assert_eq!(serde_json::to_string(&request).unwrap(), text);

        let request: Request<Value> =
            serde_json::from_str(r#"{"method":"m","jsonrpc":"2.0","id":null,"x":1}"#).unwrap();
        assert_eq!(request.id, Id::Null);
        assert_eq!(request.params, None);

        let notification: Notification<[u8; 1]> =
            serde_json::from_str(r#"{"jsonrpc":"2.0","method":"n","params":[1]}"#).unwrap();
        assert_eq!(notification.params, Some([1]));

        for bad in [
            r#"{"jsonrpc":"2.0","method":"m"}"#,
            r#"{"jsonrpc":"1.0","id":1,"method":"m"}"#,
            r#"{"id":1,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":1}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":5}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","method":"n"}"#,
        ] {
            assert!(
                serde_json::from_str::<Request<Value>>(bad).is_err(),
                "{bad}"
            );
        }
        assert!(
            serde_json::from_str::<Notification<Value>>(r#"{"jsonrpc":"2.0","id":1,"method":"m"}"#)
                .is_err()
        );
    }

    #[test]
    fn response_round_trip_raw() {
        let text = r#"{"jsonrpc":"2.0","id":1.5,"result":{"b":1,"a":[true,null]}}"#;
        let response: Response = serde_json::from_str(text).unwrap();
        assert_eq!(String::from_utf8(response.to_vec()).unwrap(), text);
    }
}
