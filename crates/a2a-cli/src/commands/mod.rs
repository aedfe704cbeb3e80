//! The commands of `a2a`, one module each (as cargo's `src/bin/cargo/commands/`): the
//! arguments of the command and the function that runs it.

pub(crate) mod auth;
pub(crate) mod card;
pub(crate) mod chat;
pub(crate) mod completion;
pub(crate) mod config;
pub(crate) mod conformance;
pub(crate) mod conformance_acts;
pub(crate) mod inspect;
pub(crate) mod mcp;
pub(crate) mod mock;
pub(crate) mod send;
pub(crate) mod serve;
pub(crate) mod task;
pub(crate) mod tools;
