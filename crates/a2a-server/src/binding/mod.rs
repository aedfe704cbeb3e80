//! The bindings: each turns HTTP requests into [`RequestHandler`](crate::RequestHandler) calls
//! and their results back into HTTP, in its own wire shape. Nothing outside a binding knows its
//! wire.

pub(crate) mod jsonrpc;
pub(crate) mod rest;
