//! The A2A 1.0 gRPC binding.

#[cfg(feature = "client")]
pub mod client;
pub mod convert;
#[cfg(feature = "server")]
pub mod server;
pub mod status;

/// The messages of package `lf.a2a.v1` and the tonic client (feature `client`) and server
/// (feature `server`) of `A2AService`, generated from the spec's `a2a.proto` by
/// `cargo xtask codegen`.
#[allow(
    missing_docs,
    unreachable_pub,
    clippy::all,
    clippy::pedantic,
    clippy::exhaustive_structs,
    clippy::exhaustive_enums
)]
pub mod proto {
    include!("generated/lf.a2a.v1.rs");
}

pub use convert::InvalidMessage;
