//! Server-Sent Events framing for the A2A protocol.
//!
//! This crate is filled in by issue 4: an encoder from events to bytes and an incremental decoder
//! that accepts any chunking of its input.
