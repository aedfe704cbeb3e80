//! SSE bodies as [`EventStream`]s: the framing both HTTP bindings share, with the decoding of
//! each event's `data:` left to the binding's codec.

use a2a_sse::{BodyData, Decoder, EventStream as SseStream, Frame, StreamError};
use a2a_types::v1::StreamResponse;
use futures_util::StreamExt as _;
use hyper::body::Incoming;

use super::{EventStream, StreamFrame};
use crate::Error;

/// Reads one event's `data:` (a JSON-RPC response, a bare `StreamResponse`, ...) for one stream.
pub(crate) type EventDecoder = Box<dyn FnMut(&str) -> Result<StreamResponse, Error> + Send>;

/// The events of an SSE response body, each event's `data:` read by `decode`.
pub(crate) fn events(body: Incoming, mut decode: EventDecoder) -> EventStream {
    // Comments are surfaced so that keep-alives count as signs of life for the idle timeout.
    let frames = SseStream::with_decoder(BodyData::new(body), Decoder::new().with_comments(true));
    Box::pin(frames.map(move |frame| match frame {
        Ok(Frame::Event(event)) => {
            let id = event.id().filter(|id| !id.is_empty()).map(str::to_owned);
            match event.data().filter(|data| !data.trim().is_empty()) {
                Some(data) => decode(data).map(|response| StreamFrame::event(id, response)),
                None => Ok(StreamFrame::keep_alive(id)),
            }
        }
        Ok(_comment) => Ok(StreamFrame::keep_alive(None)),
        Err(StreamError::Decode(error)) => Err(Error::Sse(error)),
        Err(StreamError::Source(error)) => {
            Err(Error::transport("the event stream broke off", error))
        }
        Err(other) => Err(Error::transport_msg(format!(
            "the event stream failed: {other}"
        ))),
    }))
}
