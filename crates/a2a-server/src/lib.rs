//! Serve A2A agents.
//!
//! Not yet implemented: issue 5 builds the agent API, the task store, the event log and the
//! JSON-RPC binding as one `tower_service::Service`. Until then this crate exports nothing.
