//! The flat JSON-RPC dialect (PromptKit's; [`a2a_types::flat`]): 0.3's method names plus
//! `tasks/list` and `tasks/subscribe`, the 1.0 JSON with lowercase enum values, bare results and
//! events, no service-parameter headers. Requests are the 1.0 requests' JSON rewritten by
//! [`a2a_types::flat`], answers rewritten back and decoded as 1.0. The dialect has no push
//! notification configs and no extended card: those calls fail with [`Error::Unsupported`]
//! before anything is sent.

use a2a_jsonrpc::Response;
use a2a_types::flat::{self, methods};
use a2a_types::protocol::{Operation, Reply, Request, StreamRequest};
use a2a_types::v1::{ListTasksResponse, SendMessageResponse, StreamResponse, Task};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_json::value::RawValue;

use super::{Encoded, RpcCodec, read_result};
use crate::Error;
use crate::http::Dialect;
use crate::transport::sse::EventDecoder;

/// The codec of the flat dialect.
pub(crate) struct Codec;

/// The method of an operation the dialect has.
fn method(operation: Operation) -> Option<&'static str> {
    Some(match operation {
        Operation::SendMessage => methods::SEND,
        Operation::SendStreamingMessage => methods::STREAM,
        Operation::GetTask => methods::GET,
        Operation::ListTasks => methods::LIST,
        Operation::CancelTask => methods::CANCEL,
        Operation::SubscribeToTask => methods::SUBSCRIBE,
        _ => return None,
    })
}

/// The call of `operation`: the 1.0 request's JSON, rewritten as the dialect's params.
fn encode<R: Serialize>(operation: Operation, request: &R) -> Result<Encoded, Error> {
    let method = method(operation)
        .ok_or_else(|| Error::unsupported(operation.method(), flat::BINDING, flat::VERSION))?;
    let mut params = serde_json::to_value(request)
        .map_err(|err| Error::Config(format!("the request cannot be written: {err}")))?;
    flat::params_from_v1(&mut params);
    Encoded::new(method, &params)
}

/// A result of the dialect, rewritten by `back` and read as the 1.0 `T`.
fn read<T: DeserializeOwned + Into<Reply>>(
    result: &RawValue,
    back: fn(Value) -> Value,
) -> Result<Reply, Error> {
    let answer: Value = read_result(result)?;
    Ok(a2a_types::json::from_value::<T>(back(answer))?.into())
}

impl RpcCodec for Codec {
    fn dialect(&self) -> Dialect {
        Dialect::FLAT
    }

    fn encode(&self, request: &Request) -> Result<Encoded, Error> {
        encode(request.operation(), request)
    }

    fn encode_stream(&self, request: &StreamRequest) -> Result<Encoded, Error> {
        encode(request.operation(), request)
    }

    fn decode_reply(&self, operation: Operation, result: &RawValue) -> Result<Reply, Error> {
        match operation {
            Operation::SendMessage => read::<SendMessageResponse>(result, flat::result_to_v1),
            Operation::GetTask | Operation::CancelTask => read::<Task>(result, flat::task_to_v1),
            Operation::ListTasks => read::<ListTasksResponse>(result, flat::list_to_v1),
            other => Err(Error::unsupported(
                other.method(),
                flat::BINDING,
                flat::VERSION,
            )),
        }
    }

    fn decode_events(&self, _request: &StreamRequest) -> EventDecoder {
        // Each a JSON-RPC response whose result is a bare event of the dialect.
        Box::new(|data| {
            let response: Response<Value> = a2a_types::json::from_str(data)?;
            let result = response.result.map_err(Error::from)?;
            Ok(a2a_types::json::from_value::<StreamResponse>(
                flat::result_to_v1(result),
            )?)
        })
    }
}
