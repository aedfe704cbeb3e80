//! Serde models of the A2A protocol.
pub mod v1 {}
