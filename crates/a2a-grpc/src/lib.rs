//! The A2A 1.0 gRPC binding.

#[allow(missing_docs, unreachable_pub, clippy::all, clippy::pedantic)]
pub mod proto {
    include!("generated/lf.a2a.v1.rs");
}
