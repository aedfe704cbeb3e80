//! The HTTP layer every binding shares: the call context read from a request head, request
//! bodies within their limits, plain responses, and the one SSE writer (which takes its framing
//! from the binding). Nothing here knows a binding's wire.

pub(crate) mod body;
pub(crate) mod head;
pub(crate) mod response;
pub(crate) mod sse;
