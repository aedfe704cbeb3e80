//! What the `xtask` binary and `xtask-spec` share: where the workspace, its target directory and
//! the A2A spec files are, found at run time ([`Workspace`], [`spec::SpecDir`]).
//!
//! This crate has no dependencies, so that `cargo xtask` builds in a second or two on a fresh
//! clone and can check its inputs before anything else is compiled.

pub mod json;
pub mod spec;
pub mod workspace;

pub use workspace::Workspace;
