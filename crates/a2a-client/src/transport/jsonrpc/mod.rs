//! JSON-RPC 2.0 over HTTP, written once for every protocol version: every call a JSON-RPC
//! request POSTed to the interface's URL with a fresh id, the answer checked against its
//! request, streams as SSE whose events are JSON-RPC responses. What differs between versions
//! (method names, params, results, events, error codes, headers) is the version's [`RpcCodec`]:
//! [`v1`] (spec 1.0 §9), [`v0_3`] (0.3 and 0.2), [`v0_1`], [`flat`] (PromptKit's dialect).

pub(crate) mod flat;
pub(crate) mod v0_1;
pub(crate) mod v0_3;
pub(crate) mod v1;

use std::sync::atomic::{AtomicU64, Ordering};

use a2a_jsonrpc::{ErrorObject, Id, Response};
use a2a_types::protocol::{Operation, Reply, Request, StreamRequest, content_type};
use a2a_types::v1::SendMessageRequest;
use bytes::Bytes;
use http::{Method, header};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use super::sse::{self, EventDecoder};
use super::{BoxFuture, EventStream, Transport, boxed};
use crate::Error;
use crate::http::{Dialect, HttpClient, Opened, content_type_of};
use crate::interceptor::CallInfo;

/// One protocol version's JSON-RPC: how a call is written and how its answers are read. The
/// operations a version lacks are [`Error::Unsupported`] from `encode`, before anything is sent.
pub(crate) trait RpcCodec: Send + Sync + 'static {
    /// The service parameters the version sends as headers.
    fn dialect(&self) -> Dialect;

    /// What the version needs chosen before the first attempt of a send (see
    /// [`Transport::prepare_send`]).
    fn prepare_send(&self, request: &mut SendMessageRequest) {
        let _ = request;
    }

    /// The method and params of a unary call.
    fn encode(&self, request: &Request) -> Result<Encoded, Error>;

    /// The method and params of a streaming call.
    fn encode_stream(&self, request: &StreamRequest) -> Result<Encoded, Error>;

    /// The reply to `operation` from the `result` of a successful response.
    fn decode_reply(&self, operation: Operation, result: &RawValue) -> Result<Reply, Error>;

    /// How the events of the stream `request` opened are read: each SSE `data:` a JSON-RPC
    /// response whose result is an event (or whose error ends the stream).
    fn decode_events(&self, request: &StreamRequest) -> EventDecoder;

    /// The client's error for the agent's JSON-RPC error object.
    fn agent_error(&self, error: ErrorObject) -> Error {
        Error::from(error)
    }
}

/// A call as the codec writes it: the method, and the params (`None`: no `params` member).
pub(crate) struct Encoded {
    pub(crate) method: &'static str,
    pub(crate) params: Option<Box<RawValue>>,
}

impl Encoded {
    /// `method` with `params` as they serialize (members in their order).
    pub(crate) fn new<P: Serialize + ?Sized>(
        method: &'static str,
        params: &P,
    ) -> Result<Self, Error> {
        let params = serde_json::value::to_raw_value(params).map_err(|err| {
            Error::Config(format!("the {method} request cannot be written: {err}"))
        })?;
        Ok(Self {
            method,
            params: Some(params),
        })
    }

    /// `method` without params.
    pub(crate) fn without_params(method: &'static str) -> Self {
        Self {
            method,
            params: None,
        }
    }
}

/// `T` read from the `result` of a response; a bad field is named from `result` on.
pub(crate) fn read_result<T: DeserializeOwned>(result: &RawValue) -> Result<T, Error> {
    a2a_types::json::from_str(result.get()).map_err(|error| Error::Decode(error.within("result")))
}

/// The JSON-RPC transport of one protocol version: the wire written once, the version's
/// [`RpcCodec`] for the rest.
pub(crate) struct JsonRpcTransport<C> {
    http: HttpClient,
    endpoint: http::Uri,
    next_id: AtomicU64,
    codec: C,
}

impl<C: RpcCodec> JsonRpcTransport<C> {
    pub(crate) fn new(http: HttpClient, endpoint: http::Uri, codec: C) -> Self {
        Self {
            http,
            endpoint,
            next_id: AtomicU64::new(1),
            codec,
        }
    }

    /// The HTTP request of a call: a JSON-RPC request with a fresh id.
    fn request(
        &self,
        encoded: &Encoded,
        accept: &'static str,
        last_event_id: Option<&str>,
    ) -> Result<(Id, http::Request<Bytes>), Error> {
        let id = Id::from(self.next_id.fetch_add(1, Ordering::Relaxed));
        let method = encoded.method;
        let written = match &encoded.params {
            Some(params) => {
                serde_json::to_vec(&a2a_jsonrpc::Request::new(id.clone(), method, params))
            }
            None => serde_json::to_vec(&a2a_jsonrpc::Request::without_params(id.clone(), method)),
        };
        let body = written.map_err(|err| {
            Error::Config(format!("the {method} request cannot be written: {err}"))
        })?;
        let request = self
            .http
            .request_in(
                self.codec.dialect(),
                Method::POST,
                self.endpoint.clone(),
                accept,
                last_event_id,
            )?
            .header(header::CONTENT_TYPE, content_type::JSON)
            .body(Bytes::from(body))
            .map_err(|err| Error::Config(format!("cannot build the request: {err}")))?;
        Ok((id, request))
    }

    async fn unary(&self, call: CallInfo, request: &Request) -> Result<Reply, Error> {
        let encoded = self.codec.encode(request)?;
        let (id, http_request) = self.request(&encoded, content_type::JSON, None)?;
        let (head, bytes) = self.http.exchange(&call, http_request).await?;
        if !head.status.is_success() {
            return Err(Error::http(head.status, &bytes));
        }
        let response: Response<Box<RawValue>> = a2a_types::json::from_slice(&bytes)?;
        check_id(&id, &response.id, response.result.is_ok())?;
        let result = response
            .result
            .map_err(|error| self.codec.agent_error(error))?;
        self.codec.decode_reply(request.operation(), &result)
    }

    async fn stream(
        &self,
        call: CallInfo,
        request: &StreamRequest,
        last_event_id: Option<&str>,
    ) -> Result<EventStream, Error> {
        let encoded = self.codec.encode_stream(request)?;
        let (_, http_request) =
            self.request(&encoded, content_type::EVENT_STREAM, last_event_id)?;
        match self.http.open(&call, http_request).await? {
            Opened::Events(body) => Ok(sse::events(body, self.codec.decode_events(request))),
            Opened::Answer(head, bytes) => {
                if !head.status.is_success() {
                    return Err(Error::http(head.status, &bytes));
                }
                // An error before the stream starts comes as a plain JSON-RPC response.
                let response: Response<serde::de::IgnoredAny> =
                    a2a_types::json::from_slice(&bytes)?;
                match response.result {
                    Err(error) => Err(self.codec.agent_error(error)),
                    Ok(_) => Err(Error::Protocol(format!(
                        "{} answered with a JSON result instead of an event stream \
                         (Content-Type `{}`)",
                        encoded.method,
                        content_type_of(&head)
                    ))),
                }
            }
        }
    }
}

impl<C: RpcCodec> Transport for JsonRpcTransport<C> {
    fn prepare_send(&self, request: &mut SendMessageRequest) {
        self.codec.prepare_send(request);
    }

    fn call<'a>(
        &'a self,
        call: CallInfo,
        request: &'a Request,
    ) -> BoxFuture<'a, Result<Reply, Error>> {
        boxed(self.unary(call, request))
    }

    fn open<'a>(
        &'a self,
        call: CallInfo,
        request: &'a StreamRequest,
        last_event_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        boxed(self.stream(call, request, last_event_id))
    }
}

/// A successful answer must carry the id of its request (an error may carry `null`, when the
/// server could not read the id).
fn check_id(sent: &Id, received: &Id, ok: bool) -> Result<(), Error> {
    if sent == received || (!ok && received.is_null()) {
        Ok(())
    } else {
        Err(Error::Protocol(format!(
            "the answer is for request id {received}, not {sent}"
        )))
    }
}

/// What a codec writes and reads, as text the tests compare with literal JSON.
#[cfg(test)]
pub(crate) mod seen {
    use a2a_types::protocol::{Operation, StreamRequest};
    use serde_json::value::RawValue;

    use super::{Encoded, RpcCodec};
    use crate::transport::fixtures;

    /// One line per operation (the unary ones, then the streaming ones): `method params`, `-`
    /// for no params, or the error.
    pub(crate) fn written(codec: &dyn RpcCodec) -> Vec<String> {
        let line = |encoded: Result<Encoded, crate::Error>| match encoded {
            Ok(encoded) => format!(
                "{} {}",
                encoded.method,
                encoded.params.as_deref().map_or("-", RawValue::get)
            ),
            Err(error) => format!("error: {error}"),
        };
        let unary = fixtures::requests()
            .into_iter()
            .map(|r| line(codec.encode(&r)));
        let streams = fixtures::stream_requests()
            .into_iter()
            .map(|r| line(codec.encode_stream(&r)));
        unary.chain(streams).collect()
    }

    /// The reply to `operation` read from `result`, as 1.0 JSON, or the error.
    pub(crate) fn reply(codec: &dyn RpcCodec, operation: Operation, result: &str) -> String {
        let raw = RawValue::from_string(result.to_owned()).unwrap();
        match codec.decode_reply(operation, &raw) {
            Ok(reply) => serde_json::to_string(&reply).unwrap(),
            Err(error) => format!("error: {error}"),
        }
    }

    /// The event of the stream `request` opened read from the SSE `data`, as 1.0 JSON, or the
    /// error.
    pub(crate) fn event(codec: &dyn RpcCodec, request: &StreamRequest, data: &str) -> String {
        match codec.decode_events(request)(data) {
            Ok(event) => serde_json::to_string(&event).unwrap(),
            Err(error) => format!("error: {error}"),
        }
    }
}
