//! The JSON-RPC binding of A2A 1.0 (spec §9): the operation's name as the method, the whole
//! request message as `params`, its result as the `result`; stream events are
//! `StreamResponse`s. `A2A-Version: 1.0` and `A2A-Extensions` go with every call.

use a2a_jsonrpc::Response;
use a2a_types::protocol::{Operation, Reply, Request, StreamRequest};
use a2a_types::v1::StreamResponse;
use serde_json::value::RawValue;

use super::{Encoded, RpcCodec};
use crate::Error;
use crate::http::Dialect;
use crate::transport::sse::EventDecoder;

/// The 1.0 codec.
pub(crate) struct Codec;

impl RpcCodec for Codec {
    fn dialect(&self) -> Dialect {
        Dialect::V1_0
    }

    fn encode(&self, request: &Request) -> Result<Encoded, Error> {
        Encoded::new(request.operation().method(), request)
    }

    fn encode_stream(&self, request: &StreamRequest) -> Result<Encoded, Error> {
        Encoded::new(request.operation().method(), request)
    }

    fn decode_reply(&self, operation: Operation, result: &RawValue) -> Result<Reply, Error> {
        // `DeleteTaskPushNotificationConfig` reads any result as empty: `{}` (ProtoJSON of
        // Empty) or `null` (Python).
        a2a_types::json::from_slice_seed(ReplyTo(operation), result.get().as_bytes())
            .map_err(|error| Error::Decode(error.within("result")))
    }

    fn decode_events(&self, _request: &StreamRequest) -> EventDecoder {
        Box::new(|data| {
            let response: Response<StreamResponse> = a2a_types::json::from_str(data)?;
            response.result.map_err(Error::from)
        })
    }
}

/// Reads the 1.0 JSON of the reply to an operation ([`Reply::deserialize`]); shared with the
/// HTTP+JSON binding, whose bodies are the same ProtoJSON.
pub(crate) struct ReplyTo(pub(crate) Operation);

impl<'de> serde::de::DeserializeSeed<'de> for ReplyTo {
    type Value = Reply;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Reply, D::Error> {
        Reply::deserialize(self.0, deserializer)
    }
}
