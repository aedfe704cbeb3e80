//! JSON-RPC 2.0 envelope, error codes and method dispatch for the A2A protocol.
//!
//! This crate is filled in by issue 4: requests, notifications, responses, batches, the
//! A2A error catalogue (`-32001` to `-32009`) and a method table that turns bytes into typed calls.
